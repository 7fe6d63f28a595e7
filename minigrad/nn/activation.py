"""Activation layers: module versions of ``F.relu``, ``F.sigmoid``, ...  PyTorch: ``torch/nn/modules/activation.py``.

They hold no parameters; they exist so that a ``Sequential`` can list them as steps.
"""
from . import functional as F
from .module import Module


class ReLU(Module):
    """``max(0, x)`` elementwise.

    ``inplace=True`` only changes the printout here: minigrad always computes a new tensor
    (PyTorch would overwrite the input; the numbers and the gradients are the same).
    """

    def __init__(self, inplace=False):
        super().__init__()
        self.inplace = inplace

    def forward(self, input):
        return F.relu(input, inplace=self.inplace)

    def extra_repr(self):
        return "inplace=True" if self.inplace else ""


class Sigmoid(Module):
    """``1 / (1 + exp(-x))`` elementwise."""

    def forward(self, input):
        return F.sigmoid(input)


class Tanh(Module):
    """``tanh(x)`` elementwise."""

    def forward(self, input):
        return F.tanh(input)


class Softmax(Module):
    """``exp(x) / exp(x).sum(dim)``: each slice along ``dim`` becomes probabilities summing to 1."""

    def __init__(self, dim=None):
        super().__init__()
        self.dim = dim

    def forward(self, input):
        return F.softmax(input, self.dim)

    def extra_repr(self):
        return f"dim={self.dim}"


class LogSoftmax(Module):
    """``log(softmax(x, dim))``, computed in one numerically stable step."""

    def __init__(self, dim=None):
        super().__init__()
        self.dim = dim

    def forward(self, input):
        return F.log_softmax(input, self.dim)

    def extra_repr(self):
        return f"dim={self.dim}"
