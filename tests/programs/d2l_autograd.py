"""After d2l.ai (PyTorch) "Automatic Differentiation": the gradient of ``2 * x . x``, resetting with
``x.grad.zero_()``, the backward of a non-scalar with ``gradient=torch.ones(len(y))``, detaching a
computation, and a gradient through Python control flow (a while loop on the norm and an if)."""
import numpy as np
import torch

x = torch.arange(4.0)
print(x)
x.requires_grad_(True)
print(x.grad)
y = 2 * torch.dot(x, x)
print(y)
y.backward()
print(x.grad)
print(x.grad == 4 * x)

x.grad.zero_()
y = x.sum()
y.backward()
print(x.grad)

x.grad.zero_()
y = x * x
try:
    y.backward()
except RuntimeError as e:
    print("RuntimeError:", e)
y.backward(gradient=torch.ones(len(y)))
print(x.grad)
x.grad.zero_()
y = x * x
y.sum().backward()
print(x.grad)

x.grad.zero_()
y = x * x
u = y.detach()
z = u * x
z.sum().backward()
print(x.grad == u)
print(u.requires_grad, u.grad_fn, z.grad_fn)
x.grad.zero_()
y.sum().backward()
print(x.grad == 2 * x)


def f(a):
    b = a * 2
    while b.norm() < 1000:
        b = b * 2
    if b.sum() > 0:
        c = b
    else:
        c = 100 * b
    return c


a = torch.randn(size=(), requires_grad=True)
print(a.shape, a.requires_grad)
for value in np.random.default_rng(4).standard_normal(3).tolist() + [-0.05]:
    a = torch.tensor(value, requires_grad=True)
    d = f(a)
    d.backward()
    print(d, a.grad, a.grad == d / a)

a = torch.randn(size=(3,), requires_grad=True)
with torch.no_grad():
    a.copy_(torch.tensor([0.1, -0.2, 0.3]))
d = f(a)
d.sum().backward()
print(d, a.grad)
print(torch.allclose(a.grad, d / a))
