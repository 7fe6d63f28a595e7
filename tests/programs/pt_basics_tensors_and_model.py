"""After PyTorch's "Learn the Basics": "Tensors" (creation, attributes, indexing, joining, arithmetic
with out=, in-place ops, the numpy bridge sharing memory) and "Build the Neural Network"
(nn.Flatten, nn.Sequential, Softmax, named_parameters)."""
import numpy as np
import torch
from torch import nn

rows = [[1, 2], [3, 4]]
t_rows = torch.tensor(rows)
t_np = torch.from_numpy(np.array(rows))
print(t_rows, t_np, t_rows.dtype, torch.equal(t_rows, t_np))
print(torch.ones_like(t_rows), torch.zeros_like(t_rows, dtype=torch.float))
torch.manual_seed(0)
print(torch.rand_like(t_rows, dtype=torch.float).shape)
shape = (2, 3,)
print(torch.ones(shape), torch.zeros(shape), torch.full(shape, 7))
t = torch.rand(3, 4)
print(f"Shape: {t.shape}, dtype: {t.dtype}, device: {t.device}")
if torch.accelerator.is_available():
    t = t.to(torch.accelerator.current_accelerator())
print(torch.cuda.is_available(), torch.accelerator.is_available())

t = torch.ones(4, 4)
print(f"First row: {t[0]}")
print(f"First column: {t[:, 0]}")
print(f"Last column: {t[..., -1]}")
t[:, 1] = 0
print(t)
print(torch.cat([t, t, t], dim=1).shape, torch.stack([t, t]).shape)

# three ways to multiply matrices, and elementwise: the operator, the method, the function with out=
y1 = t @ t.T
y2 = t.matmul(t.T)
y3 = torch.rand_like(y1)
torch.matmul(t, t.T, out=y3)
print(torch.equal(y1, y2), torch.equal(y1, y3), y3)
z1 = t * t
z2 = t.mul(t)
z3 = torch.rand_like(t)
torch.mul(t, t, out=z3)
print(torch.equal(z1, z3), z3)
total = t.sum()
print(total, total.item(), type(total.item()))
t.add_(5)
print(t)

# the numpy bridge: a tensor and its array share memory
t = torch.ones(5)
n = t.numpy()
t.add_(1)
print(f"t: {t}")
print(f"n: {n}")
n = np.ones(5)
t = torch.from_numpy(n)
np.add(n, 1, out=n)
print(f"t: {t}")
print(f"n: {n}")


class NeuralNetwork(nn.Module):
    def __init__(self):
        super().__init__()
        self.flatten = nn.Flatten()
        self.linear_relu_stack = nn.Sequential(nn.Linear(28 * 28, 64), nn.ReLU(), nn.Linear(64, 64), nn.ReLU(),
                                               nn.Linear(64, 10))

    def forward(self, x):
        return self.linear_relu_stack(self.flatten(x))


device = torch.accelerator.current_accelerator().type if torch.accelerator.is_available() else "cpu"
model = NeuralNetwork().to(device)
print(f"Using {device} device")
print(model)
rng = np.random.default_rng(0)
with torch.no_grad():
    for p in model.parameters():
        p.copy_(torch.tensor(rng.standard_normal(tuple(p.shape)) * 0.05, dtype=torch.float32))
X = torch.tensor(rng.random((3, 28, 28)), dtype=torch.float32, device=device)
logits = model(X)
pred_probab = nn.Softmax(dim=1)(logits)
print(logits.shape, pred_probab.sum(1), pred_probab.argmax(1))
flat = nn.Flatten()(X)
hidden = nn.ReLU()(nn.Linear(in_features=28 * 28, out_features=20)(flat))
print(flat.size(), hidden.size(), (hidden >= 0).all())
for name, param in model.named_parameters():
    print(f"Layer: {name} | Size: {param.size()} | Values : {param[:2].sum(-1)} \n")
