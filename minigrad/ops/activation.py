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
from .elementwise import AddScalar, MulScalar, SigmoidBackward, filled, grad_where
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

    d/dx = Phi(x) + x phi(x), with phi the normal density (for "tanh": the derivative of that formula)."""
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
            # PyTorch (aten/src/ATen/native/cpu/Activation.cpp, GeluKernelImpl) computes in the tensor's
            # dtype: x * 0.5 * (1 + erf(x * M_SQRT1_2)), so in float32 ``1 + erf`` is rounded to float32
            # (a multiple of 2**-24 far left, where it matters most).  minigrad simplifies: erf rounded
            # from double, where PyTorch's vectorised loop has its own float32 erf (an ulp or so apart).
            f = x.dtype.type
            e = np.asarray(Erf.numpy_fn(x * f(math.sqrt(0.5))), dtype=x.dtype)  # (M_SQRT1_2)
            out = np.asarray(x * f(0.5) * (f(1) + e), dtype=x.dtype)
        if x.dtype == np.float32 and x.size > 1 and x.flags.c_contiguous:
            # PyTorch's vectorised float32 kernel (a contiguous tensor of 2 or more elements) gives nan at +inf
            out = np.where(x == np.inf, np.float32(np.nan), out)
        return Tensor(out)

    @staticmethod
    def backward(ctx, grad):
        x, = ctx.saved_tensors
        return GeluBackward.apply(grad, x, ctx.approximate), None


class GeluBackward(Function):
    """gelu's backward formula as one op (PyTorch: ``gelu_backward``, ``GeluBackwardBackward0`` under
    ``create_graph=True``): ``grad * (Phi(x) + x phi(x))``, or the derivative of the tanh formula.  Its own
    backward (``gelu_double_backward``): the same op on the incoming gradient; for ``x``, ``gg * grad``
    times the second derivative, ``phi(x) (2 - x^2)`` (for "tanh": that of its formula)."""
    node_name = "GeluBackwardBackward0"

    @staticmethod
    def forward(ctx, grad, x, approximate):
        ctx.save_for_backward(grad, x)
        ctx.approximate = approximate
        g, v = grad._data, x._data
        with np.errstate(all="ignore"):
            if approximate == "tanh":
                k = math.sqrt(2 / math.pi)
                t = np.tanh(k * (v + 0.044715 * v * v * v))
                d = 0.5 * (1 + t) + 0.5 * v * (1 - t * t) * k * (1 + 3 * 0.044715 * v * v)
            else:
                cdf = 0.5 * (1 + Erf.numpy_fn(v * (1 / math.sqrt(2))))
                pdf = np.exp(v * v * -0.5) * (1 / math.sqrt(2 * math.pi))
                d = cdf + v * pdf
            return Tensor(np.asarray(g * d, g.dtype))

    @staticmethod
    def backward(ctx, gg):
        grad, x = ctx.saved_tensors
        if ctx.approximate == "tanh":  # d = (1 + t) / 2 + x (1 - t^2) u' / 2 with u = k (x + 0.044715 x^3), t = tanh(u)
            k = math.sqrt(2 / math.pi)
            t = (k * (x + 0.044715 * x * x * x)).tanh()
            du, ddu = k * (1 + 3 * 0.044715 * x * x), k * 6 * 0.044715 * x
            dt = (1 - t * t) * du  # (the product rule, term by term, in PyTorch's order)
            second = 0.5 * dt + (0.5 * (1 - t * t) * du + 0.5 * x * (-2 * t * dt) * du + 0.5 * x * (1 - t * t) * ddu)
        else:  # d = Phi(x) + x phi(x), phi' = -x phi
            pdf = (x * x * -0.5).exp() * (1 / math.sqrt(2 * math.pi))
            second = pdf * 2 + x * (-x * pdf)
        return GeluBackward.apply(gg, x, ctx.approximate), gg * grad * second, None


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
        return grad * s * AddScalar.apply(x * filled(1.0, s).sub_(s), 1.0)  # (PyTorch: 1.0 + x * (1.0 - s))


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
        return SoftplusBackward.apply(grad, x, ctx.beta, ctx.threshold), None, None


class SoftplusBackward(Function):
    """softplus's backward formula as one op (PyTorch: ``softplus_backward``, ``SoftplusBackwardBackward0``
    under ``create_graph=True``): with ``z = exp(beta x)``, ``grad * z / (z + 1)``, or ``grad`` on the
    linear part.  Its own backward (``softplus_double_backward``): the same op on the incoming gradient;
    for ``x``, ``sigmoid_backward(gg * grad, sigmoid(beta x)) * beta`` off the linear part."""
    node_name = "SoftplusBackwardBackward0"

    @staticmethod
    def forward(ctx, grad, x, beta, threshold):
        ctx.save_for_backward(grad, x)
        ctx.beta, ctx.threshold = beta, threshold
        g, xb = grad._data, x._data * np.asarray(beta, x._data.dtype)
        with np.errstate(over="ignore", invalid="ignore"):
            z = np.exp(xb)
            return Tensor(np.asarray(np.where(xb > threshold, g, g * z / (z + 1)), g.dtype))

    @staticmethod
    def backward(ctx, gg):
        grad, x = ctx.saved_tensors
        # PyTorch: x = input * beta; sigmoid_backward(grad, x.sigmoid()) * (x < threshold).type_as(grad) * beta
        # (beta a Scalar: MulBackward1 twice)
        xb = MulScalar.apply(x, ctx.beta)
        d_x = MulScalar.apply(SigmoidBackward.apply(gg * grad, xb.sigmoid()) * (xb < ctx.threshold).to(gg.dtype),
                              ctx.beta)
        return SoftplusBackward.apply(gg, x, ctx.beta, ctx.threshold), d_x, None, None


def _elu(x, alpha, scale):
    # PyTorch's elu kernel: scale * x above 0, (alpha * scale) * expm1(x) below, each factor one
    # number in the input's precision (negcoef, poscoef)
    negcoef = np.asarray(alpha, x.dtype) * np.asarray(scale, x.dtype)
    with np.errstate(over="ignore"):
        above = x if scale == 1 else x * np.asarray(scale, x.dtype)
        return np.asarray(np.where(x > 0, above, negcoef * np.expm1(np.minimum(x, 0))), dtype=x.dtype)


class Elu(Function):
    """``x`` where ``x > 0``, else ``alpha (exp(x) - 1)``, all times ``scale`` (1, but for ``selu``);
    d/dx = ``scale``, or ``scale alpha exp(x)`` where ``x <= 0`` (PyTorch's ``elu_backward`` from the
    saved input, so a later in-place change of the output is fine)."""
    node_name = "EluBackward0"

    @staticmethod
    def forward(ctx, a, alpha, scale):
        ctx.save_for_backward(a)
        ctx.alpha, ctx.scale = alpha, scale
        return Tensor(_elu(a._data, alpha, scale))

    @staticmethod
    def backward(ctx, grad):
        a, = ctx.saved_tensors
        return EluBackward.apply(grad, a, ctx.alpha, ctx.scale, False), None, None


class EluInPlace(Elu):
    """``F.elu(x, alpha, inplace=True)``: PyTorch's ``EluBackward1`` saves the *result* (the input is
    overwritten); below 0 the derivative is then ``out + alpha scale``."""
    node_name = "EluBackward1"
    saved_names = {"result": 0, "alpha": "alpha"}

    @staticmethod
    def forward(ctx, a, alpha, scale):
        out = Tensor(_elu(a._data, alpha, scale))
        ctx.save_for_backward(out)
        ctx.alpha, ctx.scale = alpha, scale
        return out

    @staticmethod
    def backward(ctx, grad):
        out, = ctx.saved_tensors
        if ctx.alpha < 0:  # (PyTorch refuses it only here, in backward)
            raise RuntimeError("In-place elu backward calculation is triggered with a negative slope which is not "
                               "supported. This is caused by calling in-place forward function with a negative slope, "
                               "please call out-of-place version instead.")
        return EluBackward.apply(grad, out, ctx.alpha, ctx.scale, True), None, None


class EluBackward(Function):
    """elu's backward formula as one op (PyTorch: ``elu_backward``, ``EluBackwardBackward0`` under
    ``create_graph=True``): ``grad scale`` where ``x > 0``, else ``grad alpha scale exp(x)``, or, from
    the result (``is_result``), ``grad (out + alpha scale)``.  Its own backward (``elu_double_backward``):
    the same op on the incoming gradient; for ``x`` the same op on ``gg * grad`` (from the result: just
    ``gg * grad``), where ``x < 0``."""
    node_name = "EluBackwardBackward0"

    @staticmethod
    def forward(ctx, grad, v, alpha, scale, is_result):
        ctx.save_for_backward(grad, v)
        ctx.alpha, ctx.scale, ctx.is_result = alpha, scale, is_result
        g, x = grad._data, v._data
        negcoef = np.asarray(alpha, g.dtype) * np.asarray(scale, g.dtype)
        with np.errstate(over="ignore", invalid="ignore"):
            below = g * (x + negcoef) if is_result else g * negcoef * np.exp(x)
            above = g if scale == 1 else g * np.asarray(scale, g.dtype)
            return Tensor(np.asarray(np.where(x <= 0, below, above), g.dtype))

    @staticmethod
    def backward(ctx, gg):
        grad, v = ctx.saved_tensors
        d_v = gg * grad if ctx.is_result else EluBackward.apply(gg * grad, v, ctx.alpha, ctx.scale, False)
        d_grad = EluBackward.apply(gg, v, ctx.alpha, ctx.scale, ctx.is_result)
        return d_grad, d_v * (v < 0).to(gg.dtype), None, None, None


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
