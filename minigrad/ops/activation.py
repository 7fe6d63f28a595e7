"""More activations: leaky_relu, gelu, silu, softplus, elu, hardtanh (relu6), logsigmoid.

Each is one Function with PyTorch's node name (``GeluBackward0``) and its derivative from
``tools/autograd/derivatives.yaml`` (``leaky_relu_backward``, ``gelu_backward`` ...), written with
minigrad's ops so that second derivatives work too.
"""
import math

import numpy as np

from ..autograd.function import Function
from ..tensor import Tensor
from .elementwise import grad_where
from .unary import Erf


class LeakyRelu(Function):
    """``x`` where ``x > 0``, else ``slope * x``; the gradient is 1 or ``slope``."""
    node_name = "LeakyReluBackward0"

    @staticmethod
    def forward(ctx, a, slope):
        ctx.save_for_backward(a)
        ctx.slope = slope
        x = a._data
        return Tensor(np.where(x > 0, x, x * np.asarray(slope, x.dtype)))

    @staticmethod
    def backward(ctx, grad):
        a, = ctx.saved_tensors
        pos = a._data > 0
        return grad_where(pos, grad) + grad_where(~pos, grad * ctx.slope), None


class Gelu(Function):
    """``x * Phi(x)`` with ``Phi`` the normal distribution's CDF, ``0.5 (1 + erf(x / sqrt 2))``;
    ``approximate="tanh"`` uses ``0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3)))``.

    d/dx = Phi(x) + x phi(x), with phi the normal density (for "tanh": the derivative of that formula).
    """
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
    d/dx = sigmoid(beta x) (1 on the linear part)."""
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
    """``x`` where ``x > 0``, else ``alpha (exp(x) - 1)``; d/dx = 1, or ``out + alpha`` below 0."""
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
    strictly between the bounds."""
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
        lo, hi = ctx.bounds
        return grad_where((a._data > lo) & (a._data < hi), grad), None, None


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
