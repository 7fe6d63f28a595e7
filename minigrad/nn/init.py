"""Weight initialisation: fill a tensor in place with well-scaled random numbers.

PyTorch: ``torch/nn/init.py``, same formulas.  Every function changes the tensor in place under
``no_grad`` (so it works on a Parameter, which requires grad) and returns it.

The idea behind the scales: with ``fan_in`` inputs per unit, the output variance of a layer is
about ``fan_in * Var(w) * Var(x)``.  Choosing ``Var(w) = gain**2 / fan_in`` (Kaiming) or
``2 / (fan_in + fan_out)`` (Xavier) keeps the signal from growing or vanishing layer after layer.
A uniform distribution ``U(-b, b)`` has standard deviation ``b / sqrt(3)``, hence the ``sqrt(3)``
in the ``*_uniform_`` bounds.

The random numbers come from minigrad's generator, which is PyTorch's (``random.py``): after the same
``manual_seed`` every function here fills the tensor with PyTorch's numbers.
"""
import math
import warnings

import numpy as np

from ..autograd import grad_mode
from ..ops import where


def calculate_gain(nonlinearity, param=None):
    """The recommended scale for weights followed by ``nonlinearity`` (e.g. ``sqrt(2)`` for ReLU)."""
    linear_fns = ["linear", "conv1d", "conv2d", "conv3d", "conv_transpose1d", "conv_transpose2d", "conv_transpose3d"]
    if nonlinearity in linear_fns or nonlinearity == "sigmoid":
        return 1
    elif nonlinearity == "tanh":
        return 5.0 / 3
    elif nonlinearity == "relu":
        return math.sqrt(2.0)
    elif nonlinearity == "leaky_relu":
        if param is None:
            negative_slope = 0.01
        elif not isinstance(param, bool) and isinstance(param, (int, float)):
            negative_slope = param
        else:
            raise ValueError(f"negative_slope {param} not a valid number")
        return math.sqrt(2.0 / (1 + negative_slope ** 2))
    elif nonlinearity == "selu":
        return 3.0 / 4
    else:
        raise ValueError(f"Unsupported nonlinearity {nonlinearity}")


def _calculate_fan_in_and_fan_out(tensor):
    """``fan_in`` = inputs per output unit (``weight.size(1)``), ``fan_out`` = ``weight.size(0)``.

    For a convolution weight ``(out, in, kh, kw)`` both are multiplied by the kernel size ``kh*kw``.
    """
    if tensor.dim() < 2:
        raise ValueError("Fan in and fan out can not be computed for tensor with fewer than 2 dimensions")
    receptive_field_size = 1
    for s in tensor.shape[2:]:
        receptive_field_size *= s
    fan_in = tensor.size(1) * receptive_field_size
    fan_out = tensor.size(0) * receptive_field_size
    return fan_in, fan_out


def _calculate_correct_fan(tensor, mode):
    mode = mode.lower()
    valid_modes = ["fan_in", "fan_out"]
    if mode not in valid_modes:
        raise ValueError(f"Mode {mode} not supported, please use one of {valid_modes}")
    fan_in, fan_out = _calculate_fan_in_and_fan_out(tensor)
    return fan_in if mode == "fan_in" else fan_out


def uniform_(tensor, a=0.0, b=1.0):
    """Fill with samples of ``U(a, b)``."""
    with grad_mode.no_grad():
        return tensor.uniform_(a, b)


def normal_(tensor, mean=0.0, std=1.0):
    """Fill with samples of ``N(mean, std**2)``."""
    with grad_mode.no_grad():
        return tensor.normal_(mean, std)


def trunc_normal_(tensor, mean=0.0, std=1.0, a=-2.0, b=2.0, generator=None):
    """Fill with samples of ``N(mean, std**2)`` kept inside ``[a, b]``, by rejection, as PyTorch draws them.

    When ``[a, b]`` holds more than 30% of the normal's mass: draw normals, and draw again those that fell outside,
    until none is left.  Otherwise: draw uniforms in ``[a, b]`` and keep each with probability pdf(x) / pdf(mode)
    (``log(u) <= log_pdf(x) - log_pdf(mode)``), drawing again for every element still pending.
    """
    if mean < a - 2 * std or mean > b + 2 * std:
        warnings.warn("mean is more than 2 std from [a, b] in nn.init.trunc_normal_. The distribution of values may "
                      "be incorrect.", stacklevel=2)

    def cdf(x):  # the standard normal's CDF
        return (1.0 + math.erf(x / math.sqrt(2.0))) / 2.0
    with grad_mode.no_grad():
        if cdf((b - mean) / std) - cdf((a - mean) / std) > 0.3:
            _normals_inside(tensor, mean, std, a, b, generator)
        else:
            _uniforms_accepted(tensor, mean, std, a, b, generator)
        return tensor


def _normals_inside(tensor, mean, std, a, b, generator):
    """Normals, the ones outside ``[a, b]`` (bounds in the tensor's dtype) drawn again until none is."""
    low, high = tensor.new_tensor(a).item(), tensor.new_tensor(b).item()
    result = tensor.normal_(mean, std, generator=generator)
    while True:
        outside = (result < low) | (result > high)
        if not outside.any():
            break
        result = where(outside, result.new_empty(result.shape).normal_(mean, std, generator=generator), result)
    if result is not tensor:
        tensor.copy_(result)


def _uniforms_accepted(tensor, mean, std, a, b, generator):
    """Uniforms in ``[a, b]``, each accepted with probability pdf(x) / pdf(mode); the pending ones drawn again."""
    mode = max(a, min(mean, b))
    log_peak = -0.5 * ((mode - mean) / std) ** 2

    def log_ratio(x):  # log(pdf(x) / pdf(mode)), in place, in the tensor's dtype
        return x.sub_(mean).div_(std).pow_(2).mul_(-0.5).sub_(log_peak)
    tensor.uniform_(a, b, generator=generator)
    candidates, draws = tensor.clone(), tensor.new_empty(tensor.shape)
    pending = draws.uniform_(generator=generator).log_().gt(log_ratio(candidates))
    result = tensor
    while pending.any():
        candidates.uniform_(a, b, generator=generator)
        result = where(pending, candidates, result)
        pending = where(pending, draws.uniform_(generator=generator).log_().gt(log_ratio(candidates)), pending)
    if result is not tensor:
        tensor.copy_(result)


def orthogonal_(tensor, gain=1, generator=None):
    """Saxe et al. (2013): an orthogonal matrix times ``gain`` (a tensor of more than 2 dims is seen as
    ``(size(0), the rest)``).  PyTorch's method: the Q of a QR factorisation of standard normals (of the transpose
    when there are fewer rows than columns), each column's sign made that of R's diagonal (uniform over the
    orthogonal matrices).  The normals are PyTorch's; the factorisation is numpy's (LAPACK's, as PyTorch's)."""
    if tensor.dim() < 2:
        raise ValueError("Only tensors with 2 or more dimensions are supported")
    if tensor.numel() == 0:
        return tensor
    rows = tensor.size(0)
    cols = tensor.numel() // rows
    normals = tensor.new_empty((rows, cols)).normal_(0, 1, generator=generator).numpy()
    wide = rows < cols
    q, r = np.linalg.qr(normals.T if wide else normals)
    q = tensor.new_tensor(q * np.sign(np.diag(r)))  # (each column times the sign of its R diagonal element)
    q = q.t() if wide else q
    with grad_mode.no_grad():
        tensor.view_as(q).copy_(q)
        tensor.mul_(gain)
    return tensor


def constant_(tensor, val):
    with grad_mode.no_grad():
        return tensor.fill_(val)


def ones_(tensor):
    return constant_(tensor, 1.0)


def zeros_(tensor):
    with grad_mode.no_grad():
        return tensor.zero_()


def xavier_uniform_(tensor, gain=1.0):
    """Glorot & Bengio (2010): ``U(-a, a)`` with ``a = gain * sqrt(6 / (fan_in + fan_out))``."""
    fan_in, fan_out = _calculate_fan_in_and_fan_out(tensor)
    std = gain * math.sqrt(2.0 / float(fan_in + fan_out))
    a = math.sqrt(3.0) * std
    return uniform_(tensor, -a, a)


def xavier_normal_(tensor, gain=1.0):
    """Glorot & Bengio (2010): ``N(0, std**2)`` with ``std = gain * sqrt(2 / (fan_in + fan_out))``."""
    fan_in, fan_out = _calculate_fan_in_and_fan_out(tensor)
    std = gain * math.sqrt(2.0 / float(fan_in + fan_out))
    return normal_(tensor, 0.0, std)


def kaiming_uniform_(tensor, a=0, mode="fan_in", nonlinearity="leaky_relu"):
    """He et al. (2015): ``U(-bound, bound)`` with ``bound = gain * sqrt(3 / fan)``.

    ``a`` is the negative slope of the leaky ReLU that follows (it sets the gain); ``nn.Linear``
    uses ``a=sqrt(5)``, which works out to ``bound = 1 / sqrt(fan_in)``.
    """
    if 0 in tensor.shape:
        warnings.warn("Initializing zero-element tensors is a no-op", stacklevel=2)
        return tensor
    fan = _calculate_correct_fan(tensor, mode)
    gain = calculate_gain(nonlinearity, a)
    std = gain / math.sqrt(fan)
    bound = math.sqrt(3.0) * std
    return uniform_(tensor, -bound, bound)


def kaiming_normal_(tensor, a=0, mode="fan_in", nonlinearity="leaky_relu"):
    """He et al. (2015): ``N(0, std**2)`` with ``std = gain / sqrt(fan)``."""
    if 0 in tensor.shape:
        warnings.warn("Initializing zero-element tensors is a no-op", stacklevel=2)
        return tensor
    fan = _calculate_correct_fan(tensor, mode)
    gain = calculate_gain(nonlinearity, a)
    std = gain / math.sqrt(fan)
    return normal_(tensor, 0, std)
