"""More activations: leaky_relu, gelu, silu, softplus, elu, hardtanh (relu6), logsigmoid.

Each is one Function with PyTorch's node name (``GeluBackward0``) and its derivative from
``tools/autograd/derivatives.yaml`` (``leaky_relu_backward``, ``gelu_backward`` ...), written with
minigrad's ops so that second derivatives work too.
"""
import math

import numpy as np

from ..autograd.function import Function
from ..tensor import Tensor
from ._fast import keep_or_zero
from ._util import constant
from .elementwise import grad_where
from .unary import Erf


def _leaky(x, slope):
    return np.where(x > 0, x, x * np.asarray(slope, x.dtype))


class LeakyRelu(Function):
    """``x`` where ``x > 0``, else ``slope * x``; the gradient is 1 or ``slope`` (PyTorch:
    ``leaky_relu_backward(grad, x, slope)``, one op: ``LeakyReluBackwardBackward0`` under
    ``create_graph=True``)."""
    node_name = "LeakyReluBackward0"

    @staticmethod
    def forward(ctx, a, slope):
        ctx.save_for_backward(a)
        ctx.slope = slope
        return Tensor(_leaky(a._data, slope))

    @staticmethod
    def backward(ctx, grad):
        a, = ctx.saved_tensors
        return LeakyReluBackward.apply(grad, a, ctx.slope), None


class LeakyReluInPlace(LeakyRelu):
    """``F.leaky_relu(x, slope, inplace=True)``: PyTorch's ``LeakyReluBackward1`` saves the *result*
    (its sign is the input's, for a positive slope) instead of the overwritten input."""
    node_name = "LeakyReluBackward1"

    @staticmethod
    def forward(ctx, a, slope):
        out = Tensor(_leaky(a._data, slope))
        ctx.save_for_backward(out)
        ctx.slope = slope
        return out

    @staticmethod
    def backward(ctx, grad):
        out, = ctx.saved_tensors
        slope = ctx.slope  # (PyTorch refuses a negative slope only here, in backward)
        if slope < 0:
            raise RuntimeError("In-place leakyReLu backward calculation is triggered with a negative slope which is "
                               "not supported. This is caused by calling in-place forward function with a negative "
                               "slope, please call out-of-place version instead. File an issue at "
                               "https://github.com/pytorch/pytorch if you do require supporting in-place leakRelu "
                               "backward calculation with negative slope")
        return LeakyReluBackward.apply(grad, out, slope), None


class LeakyReluBackward(Function):
    """leaky_relu's backward formula as one op: ``grad`` where ``x > 0``, else ``slope * grad``
    (PyTorch: ``leaky_relu_backward``). Its own backward: the same op on the incoming gradient, and
    zeros for ``x`` (the slope does not change smoothly with ``x``), as in PyTorch."""
    node_name = "LeakyReluBackwardBackward0"

    @staticmethod
    def forward(ctx, grad, x, slope):
        ctx.save_for_backward(x)
        ctx.slope = slope
        g = grad._data
        return Tensor(np.where(x._data > 0, g, g * np.asarray(slope, g.dtype)))  # (the mask is x's, not g's)

    @staticmethod
    def backward(ctx, gg):
        x, = ctx.saved_tensors
        return LeakyReluBackward.apply(gg, x, ctx.slope), constant(np.zeros_like(gg._data)), None


class Gelu(Function):
    """``x * Phi(x)`` with ``Phi`` the normal distribution's CDF, ``0.5 (1 + erf(x / sqrt 2))``;
    ``approximate="tanh"`` uses ``0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3)))``.

    d/dx = Phi(x) + x phi(x), with phi the normal density (for "tanh": the derivative of that formula).

    Under ``create_graph=True`` PyTorch records this backward as one ``GeluBackwardBackward0`` node;
    minigrad records the ops of the formula (the same values and second derivatives, other node names)."""
    node_name = "GeluBackward0"

    @staticmethod
    def forward(ctx, a, approximate):
        ctx.save_for_backward(a)
        ctx.approximate = approximate
        x = a._data
        with np.errstate(all="ignore"):  # (inf * 0 is nan, silently, as in PyTorch)
            if approximate == "tanh":
                inner = math.sqrt(2 / math.pi) * (x + 0.044715 * x ** 3)
                return Tensor(np.asarray(0.5 * x * (1 + np.tanh(inner)), dtype=x.dtype))
            return Tensor(np.asarray(x * 0.5 * (1 + Erf.numpy_fn(x / math.sqrt(2))), dtype=x.dtype))

    @staticmethod
    def backward(ctx, grad):
        x, = ctx.saved_tensors
        if ctx.approximate == "tanh":
            k = math.sqrt(2 / math.pi)
            t = (k * (x + 0.044715 * x * x * x)).tanh()
            d = 0.5 * (1 + t) + 0.5 * x * (1 - t * t) * k * (1 + 3 * 0.044715 * x * x)
            return grad * d, None
        cdf = 0.5 * (1 + (x * (1 / math.sqrt(2))).erf())
        pdf = (-0.5 * x * x).exp() * (1 / math.sqrt(2 * math.pi))
        return grad * (cdf + x * pdf), None


class Silu(Function):
    """``x * sigmoid(x)``; d/dx = s (1 + x (1 - s)) with ``s = sigmoid(x)``."""
    node_name = "SiluBackward0"

    @staticmethod
    def forward(ctx, a):
        ctx.save_for_backward(a)
        x = a._data
        with np.errstate(all="ignore"):
            return Tensor(np.asarray(x / (1 + np.exp(-x)), dtype=x.dtype))

    @staticmethod
    def backward(ctx, grad):
        x, = ctx.saved_tensors
        s = x.sigmoid()
        return grad * s * (1 + x * (1 - s))


class Softplus(Function):
    """``log(1 + exp(beta x)) / beta``, and just ``x`` where ``beta x > threshold`` (no overflow);
    d/dx = sigmoid(beta x) (1 on the linear part).

    Under ``create_graph=True`` PyTorch records this backward as one ``SoftplusBackwardBackward0`` node;
    minigrad records the ops of the formula (the same values and second derivatives, other node names)."""
    node_name = "SoftplusBackward0"

    @staticmethod
    def forward(ctx, a, beta, threshold):
        ctx.save_for_backward(a)
        ctx.beta, ctx.threshold = beta, threshold
        x = a._data
        with np.errstate(over="ignore"):
            soft = np.log1p(np.exp(x * beta)) / beta
        return Tensor(np.asarray(np.where(x * beta > threshold, x, soft), dtype=x.dtype))

    @staticmethod
    def backward(ctx, grad):
        x, = ctx.saved_tensors
        linear = x._data * ctx.beta > ctx.threshold
        return grad_where(linear, grad) + grad_where(~linear, grad * (x * ctx.beta).sigmoid()), None, None


class Elu(Function):
    """``x`` where ``x > 0``, else ``alpha (exp(x) - 1)``; d/dx = 1, or ``out + alpha`` below 0.

    Under ``create_graph=True`` PyTorch records this backward as one ``EluBackwardBackward0`` node;
    minigrad records the ops of the formula (the same values and second derivatives, other node names)."""
    node_name = "EluBackward0"

    @staticmethod
    def forward(ctx, a, alpha):
        x = a._data
        with np.errstate(over="ignore"):
            out = Tensor(np.asarray(np.where(x > 0, x, alpha * np.expm1(np.minimum(x, 0))), dtype=x.dtype))
        ctx.save_for_backward(a, out)
        ctx.alpha = alpha
        return out

    @staticmethod
    def backward(ctx, grad):
        a, out = ctx.saved_tensors
        pos = a._data > 0
        return grad_where(pos, grad) + grad_where(~pos, grad * (out + ctx.alpha)), None


class Hardtanh(Function):
    """``clamp(x, lo, hi)`` as an activation (``relu6`` is ``hardtanh(x, 0, 6)``); the gradient passes
    strictly between the bounds (PyTorch: ``hardtanh_backward``, one op: ``HardtanhBackwardBackward0``
    under ``create_graph=True``)."""
    node_name = "HardtanhBackward0"

    @staticmethod
    def forward(ctx, a, lo, hi):
        ctx.save_for_backward(a)
        ctx.bounds = lo, hi
        x = a._data
        return Tensor(np.asarray(np.minimum(np.maximum(x, lo), hi), dtype=x.dtype))

    @staticmethod
    def backward(ctx, grad):
        a, = ctx.saved_tensors
        return HardtanhBackward.apply(grad, a, *ctx.bounds), None, None


class HardtanhInPlace(Hardtanh):
    """``F.hardtanh(x, inplace=True)``: the same node, but PyTorch saves a *clone* of the old values
    (``CloneBackward0`` onto ``x``'s old history, which a second derivative goes through). The clone
    comes in a list, so that it is no input of the node (the node has one edge, to ``x``'s old history)."""
    node_name = "HardtanhBackward0"

    @staticmethod
    def forward(ctx, a, lo, hi, old):
        out = Hardtanh.forward(ctx, a, lo, hi)
        ctx.save_for_backward(old[0])
        return out

    @staticmethod
    def backward(ctx, grad):
        return Hardtanh.backward(ctx, grad) + (None,)


class HardtanhBackward(Function):
    """hardtanh's backward formula as one op: 0 where ``x <= lo`` or ``x >= hi``, else ``grad`` (so a nan
    ``x`` lets it through). Its own backward: the same op on the incoming gradient, zeros for ``x``."""
    node_name = "HardtanhBackwardBackward0"

    @staticmethod
    def forward(ctx, grad, x, lo, hi):
        ctx.save_for_backward(x)
        ctx.bounds = lo, hi
        return Tensor(keep_or_zero(~((x._data <= lo) | (x._data >= hi)), grad._data))

    @staticmethod
    def backward(ctx, gg):
        x, = ctx.saved_tensors
        return HardtanhBackward.apply(gg, x, *ctx.bounds), constant(np.zeros_like(gg._data)), None, None


class LogSigmoid(Function):
    """``log(sigmoid(x)) = -softplus(-x)``, computed without overflow; d/dx = 1 - sigmoid(x) = sigmoid(-x)."""
    node_name = "LogSigmoidBackward0"

    @staticmethod
    def forward(ctx, a):
        ctx.save_for_backward(a)
        x = a._data
        return Tensor(np.asarray(np.minimum(x, 0) - np.log1p(np.exp(-np.abs(x))), dtype=x.dtype))

    @staticmethod
    def backward(ctx, grad):
        x, = ctx.saved_tensors
        return grad * (-x).sigmoid()
