"""After the PyTorch cells of Karpathy's micrograd lecture ("The spelled-out intro to neural networks and
backpropagation"): the neuron ``tanh(x1*w1 + x2*w2 + b)`` built from ``torch.Tensor([2.0]).double()``
with ``requires_grad = True`` set afterwards, ``o.data.item()``, ``o.backward()`` and ``x2.grad.item()``;
then the lecture's small MLP written on tensors and trained by hand on its four examples."""
import random

import torch

x1 = torch.Tensor([2.0]).double();                x1.requires_grad = True
x2 = torch.Tensor([0.0]).double();                x2.requires_grad = True
w1 = torch.Tensor([-3.0]).double();               w1.requires_grad = True
w2 = torch.Tensor([1.0]).double();                w2.requires_grad = True
b = torch.Tensor([6.8813735870195432]).double();  b.requires_grad = True
n = x1 * w1 + x2 * w2 + b
o = torch.tanh(n)

print(o.data.item())
o.backward()

print("---")
print("x2", x2.grad.item())
print("w2", w2.grad.item())
print("x1", x1.grad.item())
print("w1", w1.grad.item())
print(o, o.dtype, o.grad_fn, o.grad_fn.next_functions)
print(torch.Tensor([[1, 2, 3], [4, 5, 6]]), torch.Tensor([[1, 2, 3], [4, 5, 6]]).shape)
print(torch.Tensor([2.0]).dtype, torch.Tensor([2.0]).double().dtype, x1.is_leaf, n.is_leaf)

random.seed(1337)


class Neuron:
    def __init__(self, nin):
        self.w = torch.tensor([random.uniform(-1, 1) for _ in range(nin)], dtype=torch.float64, requires_grad=True)
        self.b = torch.tensor(random.uniform(-1, 1), dtype=torch.float64, requires_grad=True)

    def __call__(self, x):
        act = (self.w * x).sum() + self.b
        return act.tanh()

    def parameters(self):
        return [self.w, self.b]


class Layer:
    def __init__(self, nin, nout):
        self.neurons = [Neuron(nin) for _ in range(nout)]

    def __call__(self, x):
        outs = torch.stack([n(x) for n in self.neurons])
        return outs[0] if len(outs) == 1 else outs

    def parameters(self):
        return [p for neuron in self.neurons for p in neuron.parameters()]


class MLP:
    def __init__(self, nin, nouts):
        sz = [nin] + nouts
        self.layers = [Layer(sz[i], sz[i + 1]) for i in range(len(nouts))]

    def __call__(self, x):
        for layer in self.layers:
            x = layer(x)
        return x

    def parameters(self):
        return [p for layer in self.layers for p in layer.parameters()]


xs = [[2.0, 3.0, -1.0], [3.0, -1.0, 0.5], [0.5, 1.0, 1.0], [1.0, 1.0, -1.0]]
ys = [1.0, -1.0, -1.0, 1.0]
n = MLP(3, [4, 4, 1])
print(sum(p.numel() for p in n.parameters()))
print(n(torch.tensor(xs[0], dtype=torch.float64)))
for k in range(20):
    ypred = [n(torch.tensor(x, dtype=torch.float64)) for x in xs]
    loss = sum((yout - ygt) ** 2 for ygt, yout in zip(ys, ypred))
    for p in n.parameters():
        p.grad = None
    loss.backward()
    for p in n.parameters():
        p.data += -0.1 * p.grad
    if k % 5 == 0:
        print(k, loss.data.item(), loss.grad_fn)
print([round(y.item(), 4) for y in ypred])
print(n.layers[0].neurons[0].w.grad)
