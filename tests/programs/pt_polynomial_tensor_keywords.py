"""After "Learning PyTorch with Examples", examples_tensor/polynomial_tensor.py as it is today: the
gradients of a cubic fitted to sin(x) by hand, each a ``torch.matmul(input=..., other=...)`` called
with PyTorch's argument names, and a few more of the functions called the same way."""
import math

import numpy as np
import torch

x = torch.linspace(-math.pi, math.pi, 1000, dtype=torch.float)
y = torch.sin(x)
rng = np.random.default_rng(1)
a, b, c, d = (torch.tensor(v, dtype=torch.float) for v in rng.standard_normal(4))

learning_rate = 1e-6
for t in range(1500):
    y_pred = a + (b * x) + (c * x.pow(2)) + (d * x.pow(3))
    loss = (y_pred - y).pow(2).sum().item()
    if t % 500 == 499:
        print(t, round(loss, 3))
    grad_y_pred = -2.0 * (y - y_pred)
    grad_a = grad_y_pred.sum()
    grad_b = torch.matmul(input=grad_y_pred, other=x).sum()
    grad_c = torch.matmul(input=grad_y_pred, other=x.pow(2)).sum()
    grad_d = torch.matmul(input=grad_y_pred, other=x.pow(3)).sum()
    a -= learning_rate * grad_a
    b -= learning_rate * grad_b
    c -= learning_rate * grad_c
    d -= learning_rate * grad_d
print(f"Result: y = {a.item():.4f} + {b.item():.4f} x + {c.item():.4f} x^2 + {d.item():.4f} x^3")

m = torch.tensor(rng.standard_normal((3, 4)), dtype=torch.float, requires_grad=True)
v = torch.tensor(rng.standard_normal(4), dtype=torch.float)
out = torch.add(input=torch.mm(input=m, mat2=m.t()), other=1.0, alpha=2).sum() + torch.dot(input=v, tensor=v)
out = out + torch.sum(input=torch.exp(input=m)) + torch.mean(input=torch.sigmoid(input=m))
out.backward()
print(out, m.grad)
print(type(x), type(m.grad), torch.is_tensor(x), torch.equal(input=x, other=x.clone()))
# tolerance: 1e-3
