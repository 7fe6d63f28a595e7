"""After d2l.ai (PyTorch), the builders' guide: "Lazy Initialization" (a LazyLinear's weight before and
after the first batch) and "File I/O" (a lazy MLP's state_dict saved and loaded into a fresh, still
lazy, copy, which then computes the same outputs)."""
import os
import tempfile

import numpy as np
import torch
from torch import nn
from torch.nn import functional as F

rng = np.random.default_rng(0)
torch.manual_seed(0)

net = nn.Sequential(nn.LazyLinear(8), nn.ReLU(), nn.LazyLinear(2))
print(net[0].weight)
print(isinstance(net[0].weight, nn.parameter.UninitializedParameter), net)
try:
    net[0].weight.shape
except RuntimeError as e:
    print("RuntimeError:", e)
X = torch.tensor(rng.standard_normal((2, 5)), dtype=torch.float32)
net(X)
print(net[0].weight.shape, type(net[0].weight).__name__, net)


class MLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.hidden = nn.LazyLinear(16)
        self.output = nn.LazyLinear(3)

    def forward(self, x):
        return self.output(F.relu(self.hidden(x)))


mlp = MLP()
Y = mlp(X)
path = os.path.join(tempfile.mkdtemp(), "mlp.params")
torch.save(mlp.state_dict(), path)
clone = MLP()
clone.load_state_dict(torch.load(path))
print(clone.eval())
print(clone(X) == Y, clone)
print(type(X), type(clone.hidden.weight))
