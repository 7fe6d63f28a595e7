"""After "Learning PyTorch with Examples": examples_autograd/polynomial_autograd.py.

The same fit with requires_grad=True, loss.backward() and updates under torch.no_grad().
"""
import math

import numpy as np
import torch

dtype = torch.float
device = "cuda" if torch.cuda.is_available() else "cpu"
torch.set_default_device(device)

x = torch.linspace(-math.pi, math.pi, 2000, dtype=dtype)
y = torch.sin(x)
rng = np.random.default_rng(1)
a, b, c, d = (torch.tensor(rng.standard_normal(()), dtype=dtype, requires_grad=True) for _ in range(4))

learning_rate = 1e-6
for t in range(2000):
    y_pred = a + b * x + c * x ** 2 + d * x ** 3
    loss = (y_pred - y).pow(2).sum()
    if t % 500 == 99:
        print(t, round(loss.item(), 2))
    loss.backward()
    with torch.no_grad():
        a -= learning_rate * a.grad
        b -= learning_rate * b.grad
        c -= learning_rate * c.grad
        d -= learning_rate * d.grad
        a.grad = None
        b.grad = None
        c.grad = None
        d.grad = None

print(loss.grad_fn, a.is_leaf, y_pred.requires_grad)
print(f"Result: y = {a.item():.4f} + {b.item():.4f} x + {c.item():.4f} x^2 + {d.item():.4f} x^3")
# tolerance: 1e-3
