"""``Normal(loc, scale)``: the Gaussian (PyTorch: ``torch/distributions/normal.py``).

``loc`` and ``scale`` (numbers or tensors) are broadcast together; their shape is the batch shape.  ``sample``
draws ``normal(loc, scale)`` without a graph (PyTorch's numbers after the same seed); ``rsample`` draws standard
normals ``eps`` and returns ``loc + eps * scale``, recorded, so the gradient reaches ``loc`` and ``scale`` (the
reparameterisation trick of variational autoencoders)."""
import math
import numbers

from .. import random as _random
from .._dtype import Size, get_default_dtype
from ..autograd import grad_mode
from ..creation import tensor
from ..ops.select import broadcast_tensors
from ..tensor import Tensor
from . import constraints
from .distribution import Distribution


class Normal(Distribution):
    arg_constraints = {"loc": constraints.real, "scale": constraints.positive}
    support = constraints.real
    has_rsample = True

    def __init__(self, loc, scale, validate_args=None):
        self.loc, self.scale = _broadcast_all(loc, scale)
        numbers_only = isinstance(loc, numbers.Number) and isinstance(scale, numbers.Number)
        super().__init__(Size() if numbers_only else self.loc.size(), validate_args=validate_args)

    @property
    def mean(self):
        return self.loc

    @property
    def mode(self):
        return self.loc

    @property
    def stddev(self):
        return self.scale

    @property
    def variance(self):
        return self.stddev.pow(2)

    def expand(self, batch_shape):
        """The same distribution repeated over ``batch_shape`` (views of ``loc`` and ``scale``)."""
        new = Normal(self.loc.expand(batch_shape), self.scale.expand(batch_shape), validate_args=False)
        new._validate_args = self._validate_args
        return new

    def sample(self, sample_shape=Size()):
        shape = self._extended_shape(sample_shape)
        with grad_mode.no_grad():
            return _random.normal(self.loc.expand(shape), self.scale.expand(shape))

    def rsample(self, sample_shape=Size()):
        shape = self._extended_shape(sample_shape)
        eps = self.loc.new_empty(shape).normal_()  # (standard normals, no graph)
        return self.loc + eps * self.scale

    def log_prob(self, value):
        """``-(value - loc)^2 / (2 scale^2) - log(scale) - log(sqrt(2 pi))``."""
        if self._validate_args:
            self._validate_sample(value)
        var = self.scale ** 2
        log_scale = math.log(self.scale) if isinstance(self.scale, numbers.Real) else self.scale.log()
        return -((value - self.loc) ** 2) / (2 * var) - log_scale - math.log(math.sqrt(2 * math.pi))

    def entropy(self):
        return 0.5 + 0.5 * math.log(2 * math.pi) + self.scale.log()

    def cdf(self, value):
        if self._validate_args:
            self._validate_sample(value)
        return 0.5 * (1 + ((value - self.loc) * self.scale.reciprocal() / math.sqrt(2)).erf())

    def icdf(self, value):
        return self.loc + self.scale * (2 * value - 1).erfinv() * math.sqrt(2)


def _broadcast_all(*values):
    """Numbers and tensors broadcast together; a number becomes a tensor of the tensors' dtype (the default
    float when all are numbers)."""
    tensors = [v for v in values if isinstance(v, Tensor)]
    dtype = tensors[0].dtype if tensors else get_default_dtype()
    return broadcast_tensors(*[v if isinstance(v, Tensor) else tensor(v, dtype=dtype) for v in values])
