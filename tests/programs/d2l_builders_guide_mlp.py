"""After d2l.ai (PyTorch), the builders' guide (parameter access, shared parameters, custom layers) and
"Multilayer Perceptrons" (relu, sigmoid, tanh and their derivatives on a grid)."""
import numpy as np
import torch
from torch import nn
from torch.nn import functional as F

x = torch.arange(-8.0, 8.0, 0.1, requires_grad=True)
y = torch.relu(x)
y.backward(torch.ones_like(x), retain_graph=True)
print("relu grad sum", x.grad.sum(), "at zero", x.grad[80])
x.grad.data.zero_()
y = torch.sigmoid(x)
y.backward(torch.ones_like(x), retain_graph=True)
print("sigmoid grad max", x.grad.max(), x.grad[::40])
x.grad.data.zero_()
y = torch.tanh(x)
y.backward(torch.ones_like(x), retain_graph=True)
print("tanh grad", x.grad[::40])


class CenteredLayer(nn.Module):
    def forward(self, X):
        return X - X.mean()


class MyLinear(nn.Module):
    def __init__(self, in_units, units, rng):
        super().__init__()
        self.weight = nn.Parameter(torch.tensor(rng.standard_normal((in_units, units)), dtype=torch.float32))
        self.bias = nn.Parameter(torch.tensor(rng.standard_normal(units), dtype=torch.float32))

    def forward(self, X):
        linear = torch.matmul(X, self.weight.data) + self.bias.data
        return F.relu(linear)


rng = np.random.default_rng(8)
shared = nn.Linear(8, 8)
net = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), shared, nn.ReLU(), shared, nn.ReLU(), nn.Linear(8, 1))
with torch.no_grad():
    for p in net.parameters():
        p.copy_(torch.tensor(rng.uniform(-0.5, 0.5, p.shape), dtype=torch.float32))
X = torch.tensor(rng.uniform(0, 1, (2, 4)), dtype=torch.float32)
print(net(X))
print(net[2].weight[0] == net[4].weight[0])
print(type(net[2].bias), net[2].bias.data, net[2].weight.grad is None)
print(*[(name, param.shape) for name, param in net.named_parameters()])
print(net.state_dict()["6.bias"].data)
net(X).sum().backward()
print(net[2].weight.grad.sum())
layer = CenteredLayer()
print(layer(torch.tensor([1.0, 2, 3, 4, 5])))
dense = MyLinear(5, 3, rng)
print(dense(torch.tensor(rng.uniform(0, 1, (2, 5)), dtype=torch.float32)))
print(dense.weight.shape, [n for n, _ in dense.named_parameters()])
