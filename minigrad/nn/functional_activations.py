"""The activations of ``torch.nn.functional`` beyond ``functional_more.py``: celu, mish, hardswish,
hardsigmoid, softsign, tanhshrink, softshrink, hardshrink, glu, prelu, rrelu, and the in-place forms
``relu_``, ``elu_``, ``celu_``, ``selu_``, ``leaky_relu_``, ``hardtanh_``, ``threshold_``, ``rrelu_``.

``minigrad.nn.functional`` imports all of these (``F.mish(x)``).  The ops (forward and backward) are in
``minigrad/ops/activation.py``.  PyTorch writes softsign and tanhshrink with other ops, and so does
minigrad: their graphs show those ops' nodes.
"""
import numpy as np

from .. import random as _random
from ..ops import activation as _act
from ..ops import inplace as _inplace
from ..tensor import _TYPE_NAMES, _wrap_dim
from ..ops.activation import prelu, selu  # noqa: F401  (F.prelu, F.selu)
from .functional_more import _hardtanh, elu, leaky_relu


def celu(input, alpha=1.0, inplace=False):  # noqa: A002
    """``max(0, x) + min(0, alpha (exp(x / alpha) - 1))`` (``CeluBackward0``; in place ``CeluBackward1``)."""
    if alpha == 0:
        raise RuntimeError("ZeroDivisionError: alpha cannot be 0 for CELU")
    if inplace:
        return _inplace(input, _act.CeluInPlace, alpha)
    return _act.Celu.apply(input, alpha)


def celu_(input, alpha=1.0):  # noqa: A002
    return celu(input, alpha, inplace=True)


def mish(input, inplace=False):  # noqa: A002
    """``x tanh(softplus(x))`` (``MishBackward0``, in place too)."""
    return _inplace(input, _act.Mish) if inplace else _act.Mish.apply(input)


def hardswish(input, inplace=False):  # noqa: A002
    """``x relu6(x + 3) / 6`` (``HardswishBackward0``, in place too)."""
    return _inplace(input, _act.Hardswish) if inplace else _act.Hardswish.apply(input)


def hardsigmoid(input, inplace=False):  # noqa: A002
    """``relu6(x + 3) / 6`` (``HardsigmoidBackward0``, in place too; PyTorch has no second derivative)."""
    return _inplace(input, _act.Hardsigmoid) if inplace else _act.Hardsigmoid.apply(input)


def softsign(input):  # noqa: A002
    """``x / (|x| + 1)``: PyTorch's Python writes it with these ops, so its node is ``DivBackward0``."""
    return input / (input.abs() + 1)


def tanhshrink(input):  # noqa: A002
    """``x - tanh(x)``: PyTorch's Python writes it with these ops, so its node is ``SubBackward0``."""
    return input - input.tanh()


def softshrink(input, lambd=0.5):  # noqa: A002
    """``x - lambd`` above ``lambd``, ``x + lambd`` below ``-lambd``, 0 between (``SoftshrinkBackward0``)."""
    _act.float_only(input, "softshrink_check")
    if lambd < 0:
        top = np.finfo(input._data.dtype).max
        raise RuntimeError(f"lambda must be in range [0, {top:g}] for input dtype {_TYPE_NAMES[input.dtype.name]}, "
                           f"but found {lambd:g}")
    return _act.Softshrink.apply(input, lambd)


def hardshrink(input, lambd=0.5):  # noqa: A002
    """``x`` outside ``[-lambd, lambd]``, 0 inside (``HardshrinkBackward0``)."""
    return _act.Hardshrink.apply(input, lambd)


def glu(input, dim=-1):  # noqa: A002
    """The gated linear unit: ``a * sigmoid(b)`` with ``a``, ``b`` the halves of ``input`` along ``dim``."""
    if input.dim() == 0:
        raise RuntimeError("glu does not support scalars because halving size must be even")
    dim = _wrap_dim(dim, input.dim())
    if input.shape[dim] % 2:
        raise RuntimeError(f"Halving dimension must be even, but dimension {dim} is size {input.shape[dim]}")
    return _act.Glu.apply(input, dim)


def rrelu(input, lower=1.0 / 8, upper=1.0 / 3, training=False, inplace=False):  # noqa: A002
    """Randomized leaky relu: below 0, ``x`` times a slope drawn uniformly from ``[lower, upper]`` for each
    element in training, ``(lower + upper) / 2`` in evaluation (``RreluWithNoiseBackward0``; in place
    ``RreluWithNoiseBackward1``).  The slopes come from minigrad's generator (``minigrad.manual_seed``), so
    they are not PyTorch's."""
    if lower > upper:
        raise RuntimeError("Lower bound should be less than or equal to the upper bound")
    noise = None
    if training and input._data.dtype.kind == "f":
        x = input._data
        slopes = lower + (upper - lower) * _random.rand(*x.shape, dtype=input.dtype)._data
        noise = np.where(x <= 0, slopes, x.dtype.type(1))
    if inplace:
        return _inplace(input, _act.RreluWithNoiseInPlace, noise, lower, upper, training)
    return _act.RreluWithNoise.apply(input, noise, lower, upper, training)


def rrelu_(input, lower=1.0 / 8, upper=1.0 / 3, training=False):  # noqa: A002
    return rrelu(input, lower, upper, training, inplace=True)


# ------------------------------------------------------------------ the in-place forms PyTorch has in F
def relu_(input):  # noqa: A002
    return input.relu_()


def elu_(input, alpha=1.0):  # noqa: A002
    return elu(input, alpha, inplace=True)


def selu_(input):  # noqa: A002
    return selu(input, inplace=True)


def leaky_relu_(input, negative_slope=0.01):  # noqa: A002
    return leaky_relu(input, negative_slope, inplace=True)


def hardtanh_(input, min_val=-1.0, max_val=1.0):  # noqa: A002
    """(PyTorch's ``hardtanh_`` leaves out ``hardtanh``'s check that ``min_val <= max_val``.)"""
    return _hardtanh(input, min_val, max_val, inplace=True)

