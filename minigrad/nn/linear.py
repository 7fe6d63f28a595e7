"""``Linear`` (``y = x W^T + b``) and ``Identity``.  PyTorch: ``torch/nn/modules/linear.py``."""
import math

from .. import creation
from ..autograd import grad_mode
from . import functional as F
from . import init
from .module import Module
from .parameter import Parameter, UninitializedParameter


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

    Until then its parameters are ``UninitializedParameter``s: no shape, no numbers.  The first
    call gives them their shapes (``initialize_parameters``), draws them as ``Linear`` does, and the
    module *becomes* a ``Linear`` (PyTorch: ``cls_to_become``).  Loading a ``state_dict`` into a lazy
    module first gives each parameter the shape of the value loaded into it (PyTorch's
    ``_lazy_load_hook``); ``in_features`` is then read from the first input.
    """

    cls_to_become = Linear

    def __init__(self, out_features, bias=True, device=None, dtype=None):
        Module.__init__(self)
        self.in_features, self.out_features = 0, out_features
        self.weight = UninitializedParameter(device=device, dtype=dtype)
        if bias:
            self.bias = UninitializedParameter(device=device, dtype=dtype)
        else:
            self.register_parameter("bias", None)

    def has_uninitialized_params(self):
        return any(isinstance(p, UninitializedParameter) for p in self._parameters.values())

    def reset_parameters(self):
        if not self.has_uninitialized_params() and self.in_features != 0:
            super().reset_parameters()

    def initialize_parameters(self, input):
        if self.has_uninitialized_params():
            with grad_mode.no_grad():
                self.in_features = input.shape[-1]
                self.weight.materialize((self.out_features, self.in_features))
                if self.bias is not None:
                    self.bias.materialize((self.out_features,))
                self.reset_parameters()
        if self.in_features == 0:  # loaded from a state_dict: the weight has its shape already
            if input.shape[-1] != self.weight.shape[-1]:
                raise AssertionError(f"The in_features inferred from input: {input.shape[-1]} is not equal to "
                                     f"in_features from self.weight: {self.weight.shape[-1]}")
            self.in_features = input.shape[-1]

    def _load_from_state_dict(self, state_dict, prefix, strict, missing_keys, unexpected_keys, error_msgs):
        for name, param in self._parameters.items():
            key = prefix + name
            if isinstance(param, UninitializedParameter) and key in state_dict \
                    and not isinstance(state_dict[key], UninitializedParameter):
                param.materialize(state_dict[key].shape)
        super()._load_from_state_dict(state_dict, prefix, strict, missing_keys, unexpected_keys, error_msgs)

    def forward(self, input):
        self.initialize_parameters(input)
        self.__class__ = self.cls_to_become
        return self.forward(input)
