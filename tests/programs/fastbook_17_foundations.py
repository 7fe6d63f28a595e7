"""After fastbook chapter 17, "A Neural Net from the Foundations": matrix multiplication with three
loops, then elementwise, then broadcasting, then ``torch.einsum``; initialisation (activations that
explode or vanish through 50 layers, ``x.mean()``/``x.std()``, ``1/sqrt(n)`` and Kaiming's
``sqrt(2/n)``), relu as ``x.clamp_min(0.)``, an mse from scratch, the hand-written backward
(``mse_grad``, ``relu_grad``, ``lin_grad``) checked against autograd, the refactor into layer classes
with ``forward``/``bwd``, a ``torch.autograd.Function`` and ``nn.Module`` versions.
Random numbers come from numpy (the ``randn`` below) so both libraries see the same values."""
from math import sqrt

import numpy as np
import torch
from torch import nn, tensor

rng = np.random.default_rng(17)


def randn(*shape):
    return torch.tensor(rng.standard_normal(shape), dtype=torch.float32)


print(torch.randn(5, 28 * 28).shape, torch.randn(784, 10).dtype)
m1, m2 = randn(3, 8), randn(8, 4)


def matmul(a, b):
    ar, ac = a.shape
    br, bc = b.shape
    assert ac == br
    c = torch.zeros(ar, bc)
    for i in range(ar):
        for j in range(bc):
            for k in range(ac):
                c[i, j] += a[i, k] * b[k, j]
    return c


t1 = matmul(m1, m2)
print(t1.shape, torch.allclose(t1, m1 @ m2, atol=1e-5))

a = tensor([10., 6, -4])
b = tensor([2., 8, 7])
print(a + b, a < b, (a < b).float().mean())
m = tensor([[1., 2, 3], [4, 5, 6], [7, 8, 9]])
print((m * m).sum().sqrt())


def matmul(a, b):
    ar, ac = a.shape
    br, bc = b.shape
    assert ac == br
    c = torch.zeros(ar, bc)
    for i in range(ar):
        for j in range(bc):
            c[i, j] = (a[i] * b[:, j]).sum()
    return c


print(torch.allclose(matmul(m1, m2), t1, atol=1e-5))

print(a > 0, a + 1, 2 * m)
c = tensor([10., 20, 30])
print(m + c)
t = c.expand_as(m)
print(t, t.stride(), t.shape)
print(c.unsqueeze(0).shape, c.unsqueeze(1).shape)
print(c.shape, c[None, :].shape, c[:, None].shape, c[None].shape, c[..., None].shape)
print(c[:, None].expand_as(m))
print(m + c[:, None])


def matmul(a, b):
    ar, ac = a.shape
    br, bc = b.shape
    assert ac == br
    c = torch.zeros(ar, bc)
    for i in range(ar):
        c[i] = (a[i][:, None] * b).sum(dim=0)
    return c


print(torch.allclose(matmul(m1, m2), t1, atol=1e-5))


def matmul(a, b):
    return torch.einsum("ik,kj->ij", a, b)


print(torch.allclose(matmul(m1, m2), t1, atol=1e-5))

x = randn(200, 100)
y = randn(200)
w1 = randn(100, 50)
b1 = torch.zeros(50)
w2 = randn(50, 1)
b2 = torch.zeros(1)


def lin(x, w, b):
    return x @ w + b


l1 = lin(x, w1, b1)
print(l1.shape, l1.mean(), l1.std())

for scale in (1.0, 0.01, 0.1, 1 / sqrt(100)):
    x = randn(200, 100)
    for i in range(50):
        x = x @ (randn(100, 100) * scale)
    print(scale, x[0:2, 0:3])


def relu(x):
    return x.clamp_min(0.)


x = randn(200, 100)
w1 = randn(100, 50) / sqrt(100)
l1 = lin(x, w1, b1)
l2 = relu(l1)
print(l2.mean(), l2.std())

x = randn(200, 100)
for i in range(50):
    x = relu(x @ (randn(100, 100) * sqrt(2 / 100)))
print(x[0:2, 0:3], x.std())

x = randn(200, 100)
w1 = randn(100, 50) * sqrt(2 / 100)
w2 = randn(50, 1) * sqrt(2 / 50)
l1 = lin(x, w1, b1)
l2 = relu(l1)
print(l2.mean(), l2.std())


def model(x):
    l1 = lin(x, w1, b1)
    l2 = relu(l1)
    l3 = lin(l2, w2, b2)
    return l3


out = model(x)
print(out.shape)


def mse(output, targ):
    return (output.squeeze(-1) - targ).pow(2).mean()


loss = mse(out, y)
print(loss)


def mse_grad(inp, targ):
    inp.g = 2. * (inp.squeeze() - targ).unsqueeze(-1) / inp.shape[0]


def relu_grad(inp, out):
    inp.g = (inp > 0).float() * out.g


def lin_grad(inp, out, w, b):
    inp.g = out.g @ w.t()
    w.g = inp.t() @ out.g
    b.g = out.g.sum(0)


def forward_and_backward(inp, targ):
    l1 = inp @ w1 + b1
    l2 = relu(l1)
    out = l2 @ w2 + b2
    diff = out.squeeze() - targ
    loss = diff.pow(2).mean()
    mse_grad(out, targ)
    lin_grad(l2, out, w2, b2)
    relu_grad(l1, l2)
    lin_grad(inp, l1, w1, b1)
    return loss


print(forward_and_backward(x, y))
by_hand = [w1.g, b1.g, w2.g, b2.g, x.g]
print(w1.g.shape, b1.g[:5], w2.g[:3].t(), b2.g)

xt, w1t, b1t, w2t, b2t = [t.clone().requires_grad_(True) for t in (x, w1, b1, w2, b2)]
loss = mse(relu(xt @ w1t + b1t) @ w2t + b2t, y)
loss.backward()
print(loss.grad_fn, [torch.allclose(g, t.grad, atol=1e-5) for g, t in zip(by_hand, (w1t, b1t, w2t, b2t, xt))])


class LayerFunction():
    def __call__(self, *args):
        self.args = args
        self.out = self.forward(*args)
        return self.out

    def forward(self):
        raise Exception("not implemented")

    def bwd(self):
        raise Exception("not implemented")

    def backward(self):
        self.bwd(self.out, *self.args)


class Relu(LayerFunction):
    def forward(self, inp):
        return inp.clamp_min(0.)

    def bwd(self, out, inp):
        inp.g = (inp > 0).float() * out.g


class Lin(LayerFunction):
    def __init__(self, w, b):
        self.w, self.b = w, b

    def forward(self, inp):
        return inp @ self.w + self.b

    def bwd(self, out, inp):
        inp.g = out.g @ self.w.t()
        self.w.g = inp.t() @ self.out.g
        self.b.g = out.g.sum(0)


class Mse(LayerFunction):
    def forward(self, inp, targ):
        return (inp.squeeze() - targ).pow(2).mean()

    def bwd(self, out, inp, targ):
        inp.g = 2 * (inp.squeeze() - targ).unsqueeze(-1) / targ.shape[0]


class Model():
    def __init__(self, w1, b1, w2, b2):
        self.layers = [Lin(w1, b1), Relu(), Lin(w2, b2)]
        self.loss = Mse()

    def __call__(self, x, targ):
        for l in self.layers:
            x = l(x)
        return self.loss(x, targ)

    def backward(self):
        self.loss.backward()
        for l in reversed(self.layers):
            l.backward()


model = Model(w1, b1, w2, b2)
loss = model(x, y)
model.backward()
print(loss, [torch.allclose(g, t, atol=1e-5) for g, t in zip(by_hand, (w1.g, b1.g, w2.g, b2.g, x.g))])


class MyRelu(torch.autograd.Function):
    @staticmethod
    def forward(ctx, i):
        result = i.clamp_min(0.)
        ctx.save_for_backward(i)
        return result

    @staticmethod
    def backward(ctx, grad_output):
        i, = ctx.saved_tensors
        return grad_output * (i > 0).float()


xt.grad = None
w1t.grad = None
loss = mse(MyRelu.apply(xt @ w1t + b1t) @ w2t + b2t, y)
loss.backward()
print(loss.grad_fn.next_functions[0][0].next_functions[0][0].next_functions)
print(torch.allclose(xt.grad, x.g, atol=1e-5), torch.allclose(w1t.grad, w1.g, atol=1e-5))


class LinearLayer(nn.Module):
    def __init__(self, n_in, n_out):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(n_out, n_in) * sqrt(2 / n_in))
        self.bias = nn.Parameter(torch.zeros(n_out))

    def forward(self, x):
        return x @ self.weight.t() + self.bias


lin = LinearLayer(10, 2)
p1, p2 = lin.parameters()
print(p1.shape, p2.shape, p1.requires_grad, type(p1).__name__)


class NetModel(nn.Module):
    def __init__(self, n_in, nh, n_out):
        super().__init__()
        self.layers = nn.Sequential(nn.Linear(n_in, nh), nn.ReLU(), nn.Linear(nh, n_out))
        self.loss = mse

    def forward(self, x, targ):
        return self.loss(self.layers(x).squeeze(), targ)


net = NetModel(100, 50, 1)
with torch.no_grad():
    net.layers[0].weight.copy_(w1.t())
    net.layers[0].bias.copy_(b1)
    net.layers[2].weight.copy_(w2.t())
    net.layers[2].bias.copy_(b2)
loss = net(x, y)
loss.backward()
print(loss, torch.allclose(net.layers[0].weight.grad, w1.g.t(), atol=1e-5), net.layers[2].bias.grad)
# tolerance: 1e-3
