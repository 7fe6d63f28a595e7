"""``Linear`` (``y = x W^T + b``) and ``Identity``.  PyTorch: ``torch/nn/modules/linear.py``."""
import math

from .. import creation
from . import functional as F
from . import init
from .module import Module
from .parameter import Parameter


class Identity(Module):
    """Returns its input unchanged (a placeholder); any constructor arguments are ignored."""

    def __init__(self, *args, **kwargs):
        super().__init__()

    def forward(self, input):
        return input


class Linear(Module):
    """A fully connected layer: ``y = x @ weight.T + bias``.

    ``weight`` has shape ``(out_features, in_features)`` -- one row per output -- and ``bias``
    shape ``(out_features,)``.  Both start uniform in ``[-1/sqrt(in_features), 1/sqrt(in_features)]``
    (see ``reset_parameters``).  For a 2-D input the forward is a single ``addmm`` call, so the
    output's ``grad_fn`` is ``AddmmBackward0``, as in PyTorch.
    """

    def __init__(self, in_features, out_features, bias=True, device=None, dtype=None):
        super().__init__()
        self.in_features = in_features
        self.out_features = out_features
        self.weight = Parameter(creation.empty(out_features, in_features, dtype=dtype, device=device))
        if bias:
            self.bias = Parameter(creation.empty(out_features, dtype=dtype, device=device))
        else:
            self.register_parameter("bias", None)
        self.reset_parameters()

    def reset_parameters(self):
        # PyTorch's default: kaiming_uniform_ with a=sqrt(5).  Worked out, the gain is
        # sqrt(2 / (1 + 5)) = sqrt(1/3) and the bound sqrt(3) * gain / sqrt(fan_in) = 1 / sqrt(fan_in).
        init.kaiming_uniform_(self.weight, a=math.sqrt(5))
        if self.bias is not None:
            fan_in, _ = init._calculate_fan_in_and_fan_out(self.weight)
            bound = 1 / math.sqrt(fan_in) if fan_in > 0 else 0
            init.uniform_(self.bias, -bound, bound)

    def forward(self, input):
        return F.linear(input, self.weight, self.bias)

    def extra_repr(self):
        return f"in_features={self.in_features}, out_features={self.out_features}, bias={self.bias is not None}"


class LazyLinear(Linear):
    """A ``Linear`` whose ``in_features`` is read from the first input (PyTorch: ``nn.LazyLinear``).

    Until then its parameters hold no numbers (PyTorch: ``UninitializedParameter``; minigrad: empty
    Parameters, filled in place on the first call, so an optimizer made before keeps them).  After
    the first call the module *is* a ``Linear``, as in PyTorch (``cls_to_become``).
    """

    def __init__(self, out_features, bias=True, device=None, dtype=None):
        Module.__init__(self)
        self.in_features, self.out_features = 0, out_features
        self.weight = Parameter(creation.empty(0, dtype=dtype, device=device))
        if bias:
            self.bias = Parameter(creation.empty(0, dtype=dtype, device=device))
        else:
            self.register_parameter("bias", None)

    def reset_parameters(self):
        if self.in_features:
            super().reset_parameters()

    def forward(self, input):
        self.in_features = input.shape[-1]
        self.weight.data = creation.empty(self.out_features, self.in_features, dtype=self.weight.dtype)
        if self.bias is not None:
            self.bias.data = creation.empty(self.out_features, dtype=self.bias.dtype)
        self.reset_parameters()
        self.__class__ = Linear
        return self.forward(input)
