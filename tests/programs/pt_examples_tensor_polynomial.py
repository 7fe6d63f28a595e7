"""After PyTorch's tutorial "Learning PyTorch with Examples": examples_tensor/polynomial_tensor.py.

Fit y = sin(x) with a cubic, gradients computed by hand, on a device chosen the tutorial's way.
"""
import math

import numpy as np
import torch

dtype = torch.float
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")

x = torch.linspace(-math.pi, math.pi, 2000, device=device, dtype=dtype)
y = torch.sin(x)

rng = np.random.default_rng(0)
a, b, c, d = (torch.tensor(rng.standard_normal(()), device=device, dtype=dtype) for _ in range(4))

learning_rate = 1e-6
for t in range(2000):
    y_pred = a + b * x + c * x ** 2 + d * x ** 3
    loss = (y_pred - y).pow(2).sum().item()
    if t % 400 == 399:
        print(t, round(loss, 2))
    grad_y_pred = 2.0 * (y_pred - y)
    grad_a = grad_y_pred.sum()
    grad_b = (grad_y_pred * x).sum()
    grad_c = (grad_y_pred * x ** 2).sum()
    grad_d = (grad_y_pred * x ** 3).sum()
    a -= learning_rate * grad_a
    b -= learning_rate * grad_b
    c -= learning_rate * grad_c
    d -= learning_rate * grad_d

print(f"Result: y = {a.item():.4f} + {b.item():.4f} x + {c.item():.4f} x^2 + {d.item():.4f} x^3")
# tolerance: 1e-3
