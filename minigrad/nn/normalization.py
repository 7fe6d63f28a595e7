"""Normalisation layers: ``LayerNorm``, ``RMSNorm``, ``BatchNorm1d/2d/3d``.  PyTorch:
``torch/nn/modules/normalization.py`` and ``batchnorm.py``."""
import numbers

from .. import _dtype as dtypes
from .. import creation
from . import functional_norm as F
from . import init
from .module import Module
from .parameter import Parameter


def _as_shape(normalized_shape):
    """``normalized_shape`` as a tuple (an int ``n`` is ``(n,)``)."""
    if isinstance(normalized_shape, numbers.Integral):
        return (normalized_shape,)
    return tuple(normalized_shape)


class LayerNorm(Module):
    """Normalise each sample over its last dims (``normalized_shape``) to mean 0 and variance 1, then scale
    by ``weight`` (ones at first) and shift by ``bias`` (zeros at first), one number per normalised position.
    ``elementwise_affine=False`` has neither, ``bias=False`` no bias."""

    def __init__(self, normalized_shape, eps=1e-5, elementwise_affine=True, bias=True, device=None, dtype=None):
        super().__init__()
        self.normalized_shape = _as_shape(normalized_shape)
        self.eps = eps
        self.elementwise_affine = elementwise_affine
        if self.elementwise_affine:
            self.weight = Parameter(creation.empty(self.normalized_shape, device=device, dtype=dtype))
            if bias:
                self.bias = Parameter(creation.empty(self.normalized_shape, device=device, dtype=dtype))
            else:
                self.register_parameter("bias", None)
        else:
            self.register_parameter("weight", None)
            self.register_parameter("bias", None)
        self.reset_parameters()

    def reset_parameters(self):
        if self.elementwise_affine:
            init.ones_(self.weight)
            if self.bias is not None:
                init.zeros_(self.bias)

    def forward(self, input):
        return F.layer_norm(input, self.normalized_shape, self.weight, self.bias, self.eps)

    def extra_repr(self):
        return "{normalized_shape}, eps={eps}, elementwise_affine={elementwise_affine}, bias={use_bias}".format(
            **self.__dict__, use_bias=self.bias is not None)


class RMSNorm(Module):
    """Divide each sample by the root mean square of its last dims (``normalized_shape``), then scale by
    ``weight`` (ones at first; none with ``elementwise_affine=False``).  ``eps=None``: the dtype's epsilon."""

    def __init__(self, normalized_shape, eps=None, elementwise_affine=True, device=None, dtype=None):
        super().__init__()
        self.normalized_shape = _as_shape(normalized_shape)
        self.eps = eps
        self.elementwise_affine = elementwise_affine
        if self.elementwise_affine:
            self.weight = Parameter(creation.empty(self.normalized_shape, device=device, dtype=dtype))
        else:
            self.register_parameter("weight", None)
        self.reset_parameters()

    def reset_parameters(self):
        if self.elementwise_affine:
            init.ones_(self.weight)

    def forward(self, x):
        return F.rms_norm(x, self.normalized_shape, self.weight, self.eps)

    def extra_repr(self):
        return "{normalized_shape}, eps={eps}, elementwise_affine={elementwise_affine}".format(**self.__dict__)


class _BatchNorm(Module):
    """What ``BatchNorm1d``, ``2d`` and ``3d`` share (PyTorch: ``_NormBase`` and ``_BatchNorm``).

    Each of the ``num_features`` channels (dim 1) is normalised over the batch and the positions, then scaled
    by ``weight`` (ones at first) and shifted by ``bias`` (zeros).  In training the batch's mean and variance
    are used, and the buffers ``running_mean`` (zeros at first) and ``running_var`` (ones) move towards them:
    ``running = (1 - momentum) * running + momentum * batch`` (the variance unbiased), or with
    ``momentum=None`` the plain average of all batches so far (``num_batches_tracked`` counts them).  In
    evaluation (``model.eval()``) the running statistics are used.  ``track_running_stats=False`` keeps none
    and always uses the batch's."""

    def __init__(self, num_features, eps=1e-5, momentum=0.1, affine=True, track_running_stats=True, device=None,
                 dtype=None, *, bias=True):
        super().__init__()
        self.num_features = num_features
        self.eps = eps
        self.momentum = momentum
        self.affine = affine
        self.track_running_stats = track_running_stats
        if self.affine:
            self.weight = Parameter(creation.empty(num_features, device=device, dtype=dtype))
            if bias:
                self.bias = Parameter(creation.empty(num_features, device=device, dtype=dtype))
            else:
                self.register_parameter("bias", None)
        else:
            self.register_parameter("weight", None)
            self.register_parameter("bias", None)
        if self.track_running_stats:
            self.register_buffer("running_mean", creation.zeros(num_features, device=device, dtype=dtype))
            self.register_buffer("running_var", creation.ones(num_features, device=device, dtype=dtype))
            self.register_buffer("num_batches_tracked", creation.tensor(0, dtype=dtypes.int64, device=device))
        else:
            self.register_buffer("running_mean", None)
            self.register_buffer("running_var", None)
            self.register_buffer("num_batches_tracked", None)
        self.reset_parameters()

    def reset_running_stats(self):
        if self.track_running_stats:
            self.running_mean.zero_()
            self.running_var.fill_(1)
            self.num_batches_tracked.zero_()

    def reset_parameters(self):
        self.reset_running_stats()
        if self.affine:
            init.ones_(self.weight)
            if self.bias is not None:
                init.zeros_(self.bias)

    def extra_repr(self):
        return ("{num_features}, eps={eps}, momentum={momentum}, affine={affine}, bias={use_bias}, "
                "track_running_stats={track_running_stats}".format(**self.__dict__, use_bias=self.bias is not None))

    def forward(self, input):
        self._check_input_dim(input)
        exponential_average_factor = 0.0 if self.momentum is None else self.momentum
        if self.training and self.track_running_stats and self.num_batches_tracked is not None:
            self.num_batches_tracked.add_(1)
            if self.momentum is None:  # the cumulative moving average: batch k weighs 1/k
                exponential_average_factor = 1.0 / float(self.num_batches_tracked)
        # the batch's statistics in training, and in evaluation when there are no running ones
        bn_training = self.training or (self.running_mean is None and self.running_var is None)
        # the buffers are passed to be updated (training, tracked) or to be used (evaluation)
        use_buffers = not self.training or self.track_running_stats
        return F.batch_norm(input, self.running_mean if use_buffers else None,
                            self.running_var if use_buffers else None, self.weight, self.bias, bn_training,
                            exponential_average_factor, self.eps)


class BatchNorm1d(_BatchNorm):
    """Batch norm of a ``(N, C)`` or ``(N, C, L)`` input."""

    def _check_input_dim(self, input):
        if input.dim() != 2 and input.dim() != 3:
            raise ValueError(f"expected 2D or 3D input (got {input.dim()}D input)")


class BatchNorm2d(_BatchNorm):
    """Batch norm of a ``(N, C, H, W)`` input."""

    def _check_input_dim(self, input):
        if input.dim() != 4:
            raise ValueError(f"expected 4D input (got {input.dim()}D input)")


class BatchNorm3d(_BatchNorm):
    """Batch norm of a ``(N, C, D, H, W)`` input."""

    def _check_input_dim(self, input):
        if input.dim() != 5:
            raise ValueError(f"expected 5D input (got {input.dim()}D input)")
