"""After PyTorch's "Save and Load the Model" (basics) and "Saving and Loading Models" recipes:
state_dict to a file and back, weights_only, a whole model, a checkpoint with the optimizer."""
import io
import os
import tempfile

import numpy as np
import torch
from torch import nn

rng = np.random.default_rng(0)
X = torch.tensor(rng.standard_normal((16, 4)), dtype=torch.float32)
Y = torch.tensor(rng.standard_normal((16, 1)), dtype=torch.float32)


def make_model():
    model = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 1))
    with torch.no_grad():
        for p in model.parameters():
            p.copy_(torch.tensor(rng.standard_normal(tuple(p.shape)) * 0.3, dtype=torch.float32))
    return model


model = make_model()
opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
for step in range(5):
    opt.zero_grad()
    loss = nn.functional.mse_loss(model(X), Y)
    loss.backward()
    opt.step()
print("loss after 5 steps", loss.item())

folder = tempfile.mkdtemp()
path = os.path.join(folder, "model_weights.pth")
torch.save(model.state_dict(), path)
state = torch.load(path, weights_only=True)
print(type(state).__name__, list(state.keys()))
print({k: (tuple(v.shape), v.dtype, v.requires_grad) for k, v in state.items()})

fresh = make_model()
print("before loading, same weights:", torch.equal(fresh[0].weight, model[0].weight))
print(fresh.load_state_dict(state))
fresh.eval()
with torch.no_grad():
    print("same predictions:", torch.allclose(fresh(X), model(X)), fresh(X)[:3].squeeze(1))

# a whole model is pickled with its class: only weights_only=False loads it (a file you trust)
buffer = io.BytesIO()
torch.save(model, buffer)
buffer.seek(0)
try:
    torch.load(buffer)
except Exception as e:
    print(type(e).__name__, str(e).split("\n")[0])
buffer.seek(0)
whole = torch.load(buffer, weights_only=False)
print(whole)

# a checkpoint: epoch, model and optimizer state, loss
checkpoint = os.path.join(folder, "checkpoint.tar")
torch.save({"epoch": 5, "model_state_dict": model.state_dict(), "optimizer_state_dict": opt.state_dict(),
            "loss": loss}, checkpoint)
saved = torch.load(checkpoint, weights_only=True, map_location=torch.device("cpu"))
print(saved["epoch"], saved["loss"], sorted(saved["optimizer_state_dict"]))
model2 = make_model()
opt2 = torch.optim.SGD(model2.parameters(), lr=0.05, momentum=0.9)
model2.load_state_dict(saved["model_state_dict"])
opt2.load_state_dict(saved["optimizer_state_dict"])
print(opt2.state_dict()["param_groups"])
model2.train()
for step in range(3):  # training goes on where it stopped, momentum included
    opt.zero_grad()
    opt2.zero_grad()
    nn.functional.mse_loss(model(X), Y).backward()
    nn.functional.mse_loss(model2(X), Y).backward()
    opt.step()
    opt2.step()
print("resumed like the original:", all(torch.allclose(a, b) for a, b in zip(model.parameters(), model2.parameters())))
print("loss", nn.functional.mse_loss(model2(X), Y))
