"""Activation layers: module versions of ``F.relu``, ``F.sigmoid``, ...  PyTorch: ``torch/nn/modules/activation.py``.

They hold no parameters; they exist so that a ``Sequential`` can list them as steps.
"""
from . import functional as F
from .module import Module


class ReLU(Module):
    """``max(0, x)`` elementwise; ``inplace=True`` overwrites the input and returns it (as in PyTorch)."""

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


class LeakyReLU(Module):
    """``x`` for ``x > 0``, ``negative_slope * x`` otherwise."""

    def __init__(self, negative_slope=0.01, inplace=False):
        super().__init__()
        self.negative_slope, self.inplace = negative_slope, inplace

    def forward(self, input):
        return F.leaky_relu(input, self.negative_slope, self.inplace)

    def extra_repr(self):
        return f"negative_slope={self.negative_slope}" + (", inplace=True" if self.inplace else "")


class GELU(Module):
    """``x * Phi(x)`` (``approximate="tanh"``: the tanh formula)."""

    def __init__(self, approximate="none"):
        super().__init__()
        self.approximate = approximate

    def forward(self, input):
        return F.gelu(input, approximate=self.approximate)

    def extra_repr(self):
        return f"approximate={self.approximate!r}"


class _InplaceOption(Module):
    """An activation whose one option is ``inplace`` (SiLU, SELU): stored, and printed when set."""

    def __init__(self, inplace=False):
        super().__init__()
        self.inplace = inplace

    def extra_repr(self):
        return "inplace=True" if self.inplace else ""


class SiLU(_InplaceOption):
    """``x * sigmoid(x)`` (also called swish)."""

    def forward(self, input):
        return F.silu(input, self.inplace)


class Softplus(Module):
    """``log(1 + exp(beta x)) / beta``, a smooth relu."""

    def __init__(self, beta=1.0, threshold=20.0):
        super().__init__()
        self.beta, self.threshold = beta, threshold

    def forward(self, input):
        return F.softplus(input, self.beta, self.threshold)

    def extra_repr(self):
        return f"beta={self.beta}, threshold={self.threshold}"


class ELU(Module):
    """``x`` for ``x > 0``, ``alpha (exp(x) - 1)`` otherwise."""

    def __init__(self, alpha=1.0, inplace=False):
        super().__init__()
        self.alpha, self.inplace = alpha, inplace

    def forward(self, input):
        return F.elu(input, self.alpha, self.inplace)

    def extra_repr(self):
        return f"alpha={self.alpha}" + (", inplace=True" if self.inplace else "")


class SELU(_InplaceOption):
    """``scale * elu(x, alpha)`` with SELU's fixed ``alpha`` and ``scale`` (self-normalising networks)."""

    def forward(self, input):
        return F.selu(input, self.inplace)


class Hardtanh(Module):
    """``clamp(x, min_val, max_val)``."""

    def __init__(self, min_val=-1.0, max_val=1.0, inplace=False):
        super().__init__()
        self.min_val, self.max_val, self.inplace = min_val, max_val, inplace

    def forward(self, input):
        return F.hardtanh(input, self.min_val, self.max_val, self.inplace)

    def extra_repr(self):
        return f"min_val={self.min_val}, max_val={self.max_val}" + (", inplace=True" if self.inplace else "")


class ReLU6(Hardtanh):
    """``min(max(0, x), 6)``: a ``Hardtanh(0, 6)``, as in PyTorch."""

    def __init__(self, inplace=False):
        super().__init__(0.0, 6.0, inplace)

    def extra_repr(self):
        return "inplace=True" if self.inplace else ""


class LogSigmoid(Module):
    """``log(sigmoid(x))``."""

    def forward(self, input):
        return F.logsigmoid(input)


class Dropout(Module):
    """Zeroes each element with probability ``p`` while training (and scales the rest by ``1/(1-p)``);
    does nothing after ``model.eval()``."""

    def __init__(self, p=0.5, inplace=False):
        super().__init__()
        if p < 0 or p > 1:
            raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
        self.p, self.inplace = p, inplace

    def forward(self, input):
        return F.dropout(input, self.p, self.training)

    def extra_repr(self):
        return f"p={self.p}, inplace={self.inplace}"
