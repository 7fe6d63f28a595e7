"""After PyTorch's torch.optim docs, "How to adjust learning rate": a scheduler stepped once per epoch
after the optimizer (StepLR, then ExponentialLR and MultiStepLR chained on one optimizer), CosineAnnealingLR
and a LambdaLR warm-up, get_last_lr(), a scheduler saved and restored with its state_dict, and
ReduceLROnPlateau stepped with a validation loss."""
import numpy as np
import torch
from torch import nn, optim
from torch.optim.lr_scheduler import CosineAnnealingLR, ExponentialLR, LambdaLR, MultiStepLR, ReduceLROnPlateau, StepLR

rng = np.random.default_rng(0)
X = torch.tensor(rng.standard_normal((64, 3)), dtype=torch.float32)
y = X @ torch.tensor([[1.5], [-2.0], [0.5]]) + 0.1
model = nn.Linear(3, 1)
with torch.no_grad():
    model.weight.copy_(torch.tensor([[0.1, 0.2, -0.1]]))
    model.bias.zero_()
loss_fn = nn.MSELoss()


def train_one_epoch(optimizer):
    for i in range(0, 64, 16):
        optimizer.zero_grad()
        loss = loss_fn(model(X[i:i + 16]), y[i:i + 16])
        loss.backward()
        optimizer.step()
    return loss.item()


optimizer = optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
scheduler = StepLR(optimizer, step_size=3, gamma=0.5)
for epoch in range(7):
    loss = train_one_epoch(optimizer)
    scheduler.step()
    print(f"epoch {epoch}: loss {loss:.5f}, lr now {scheduler.get_last_lr()}")

# two schedulers on one optimizer: each multiplies the rate the other left
optimizer = optim.SGD(model.parameters(), lr=0.01)
scheduler1 = ExponentialLR(optimizer, gamma=0.9)
scheduler2 = MultiStepLR(optimizer, milestones=[3, 5], gamma=0.1)
for epoch in range(6):
    train_one_epoch(optimizer)
    scheduler1.step()
    scheduler2.step()
    print(epoch, optimizer.param_groups[0]["lr"])

# a linear warm-up for two epochs, then cosine annealing in a second run
optimizer = optim.Adam(model.parameters(), lr=0.01)
warmup = LambdaLR(optimizer, lambda epoch: min(1.0, (epoch + 1) / 3))
print("warm-up", [warmup.get_last_lr()[0]] + [(train_one_epoch(optimizer), warmup.step(), warmup.get_last_lr()[0])[2]
                                              for _ in range(4)])
optimizer = optim.SGD(model.parameters(), lr=0.1)
cosine = CosineAnnealingLR(optimizer, T_max=5, eta_min=0.001)
rates = []
for epoch in range(12):
    train_one_epoch(optimizer)
    cosine.step()
    rates.append(round(cosine.get_last_lr()[0], 6))
print("cosine", rates)

# a checkpoint: the scheduler's state, without the optimizer
state = cosine.state_dict()
print(sorted(key for key in state if not key.startswith("_")), state["last_epoch"], state["base_lrs"])
optimizer2 = optim.SGD(model.parameters(), lr=0.1)
restored = CosineAnnealingLR(optimizer2, T_max=5, eta_min=0.001)
restored.load_state_dict(state)
optimizer2.load_state_dict(optimizer.state_dict())
optimizer.step()
optimizer2.step()
cosine.step()
restored.step()
print("resumed", cosine.get_last_lr(), restored.get_last_lr())
print("final loss", round(train_one_epoch(optimizer), 5))

# lower the rate when the validation loss stops improving (the losses of a run that levels off)
optimizer = optim.SGD(model.parameters(), lr=0.2)
plateau = ReduceLROnPlateau(optimizer, mode="min", factor=0.5, patience=1)
for epoch, val_loss in enumerate([0.9, 0.6, 0.55, 0.56, 0.57, 0.5, 0.52, 0.51, 0.53, 0.5]):
    train_one_epoch(optimizer)
    plateau.step(torch.tensor(val_loss))
    print(f"epoch {epoch}: best {plateau.best:.4f}, bad epochs {plateau.num_bad_epochs}, lr {optimizer.param_groups[0]['lr']}")
