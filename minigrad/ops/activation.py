"""More activations: leaky_relu, gelu, silu, softplus, elu (selu, celu), hardtanh (relu6), logsigmoid, mish,
hardswish, hardsigmoid, softshrink, hardshrink, glu, prelu, rrelu.

Each is one Function with PyTorch's node name (``GeluBackward0``) and its derivative from
``tools/autograd/derivatives.yaml`` (``leaky_relu_backward``, ``gelu_backward`` ...), written with
minigrad's ops so that second derivatives work too.
"""
import math

import numpy as np

from .dispatch import Op
from .._core.tensor_base import _TYPE_NAMES, TensorBase as Tensor
from ._fast import keep_or_zero
from ._util import constant, kernel_numbers, rounded_once, sigmoid_numbers
from .zerotensor import as_native_kernel_sees
from .._core.layout import laid_out, like, preserve_format_strides, with_strides
from .elementwise import AddScalar, DivScalar, MulScalar, SigmoidBackward, filled, grad_where, where, zeros_like_grad
from .unary import Erf, NoDerivative


def float_only(a, kernel):
    """PyTorch has these activations' kernels for floating point only: an integer or bool input is refused
    with the kernel's name (``"elu_cpu" not implemented for 'Long'``)."""
    if a._data.dtype.kind != "f":
        raise NotImplementedError(f'"{kernel}" not implemented for \'{_TYPE_NAMES[a.dtype.name]}\'')


def _leaky(x, slope):
    return np.where(x > 0, x, x * np.asarray(slope, x.dtype))


def _leaky_grad(g, x, slope):
    return np.where(x > 0, g, g * np.asarray(slope, g.dtype))  # (the mask is x's, not g's)


class LeakyRelu(Op):
    """``x`` where ``x > 0``, else ``slope * x``; the gradient is 1 or ``slope`` (PyTorch:
    ``leaky_relu_backward(grad, x, slope)``, one op: ``LeakyReluBackwardBackward0`` under
    ``create_graph=True``)."""
    node_name = "LeakyReluBackward0"

    @staticmethod
    def forward(ctx, a, slope):
        ctx.save_for_backward(a)
        ctx.slope = slope
        return Tensor(laid_out(_leaky(a._data, slope), a._data))  # (PyTorch's TensorIterator lays out a unary result)

    @staticmethod
    def backward(ctx, grad):
        a, = ctx.saved_tensors
        return LeakyReluBackward.apply(grad, a, ctx.slope), None


LEAKY_NEGATIVE_INPLACE = ("In-place leakyReLu backward calculation is triggered with a negative slope which is "
                          "not supported. This is caused by calling in-place forward function with a negative "
                          "slope, please call out-of-place version instead. File an issue at "
                          "https://github.com/pytorch/pytorch if you do require supporting in-place leakRelu "
                          "backward calculation with negative slope")


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
            raise RuntimeError(LEAKY_NEGATIVE_INPLACE)
        return LeakyReluBackward.apply(grad, out, slope), None


class LeakyReluBackward(Op):
    """leaky_relu's backward formula as one op: ``grad`` where ``x > 0``, else ``slope * grad``
    (PyTorch: ``leaky_relu_backward``). Its own backward: the same op on the incoming gradient, and
    zeros for ``x`` (the slope does not change smoothly with ``x``), as in PyTorch."""
    node_name = "LeakyReluBackwardBackward0"

    @staticmethod
    def forward(ctx, grad, x, slope):
        ctx.save_for_backward(x)
        ctx.slope = slope
        return Tensor(laid_out(_leaky_grad(grad._data, x._data, slope), x._data, grad._data))  # ((self, grad), in that order)

    @staticmethod
    def backward(ctx, gg):
        x, = ctx.saved_tensors
        return LeakyReluBackward.apply(gg, x, ctx.slope), constant(np.zeros_like(gg._data)), None


class Gelu(Op):
    """``x * Phi(x)`` with ``Phi`` the normal distribution's CDF, ``0.5 (1 + erf(x / sqrt 2))``;
    ``approximate="tanh"`` uses ``0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3)))``.

    d/dx = Phi(x) + x phi(x), with phi the normal density (for "tanh": the derivative of that formula)."""
    node_name = "GeluBackward0"

    @staticmethod
    def forward(ctx, a, approximate):
        ctx.save_for_backward(a)
        ctx.approximate = approximate
        x = a._data
        if approximate == "tanh":
            inner = math.sqrt(2 / math.pi) * (x + 0.044715 * x ** 3)
            return Tensor(np.asarray(0.5 * x * (1 + np.tanh(inner)), dtype=x.dtype))
        # PyTorch (aten/src/ATen/native/cpu/Activation.cpp, GeluKernelImpl) computes in the tensor's
        # dtype: x * 0.5 * (1 + erf(x * M_SQRT1_2)), so in float32 ``1 + erf`` is rounded to float32
        # (a multiple of 2**-24 far left, where it matters most).  minigrad simplifies: erf rounded
        # from double, where PyTorch's vectorised loop has its own float32 erf (an ulp or so apart).
        f = x.dtype.type
        e = np.asarray(Erf.numpy_fn(x * f(math.sqrt(0.5))), dtype=x.dtype)  # (M_SQRT1_2)
        return Tensor(np.asarray(x * f(0.5) * (f(1) + e), dtype=x.dtype))  # (+inf: inf, as PyTorch's AVX2 kernels)

    @staticmethod
    def backward(ctx, grad):
        x, = ctx.saved_tensors
        return GeluBackward.apply(grad, x, ctx.approximate), None


class GeluBackward(Op):
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
        if approximate == "tanh":
            k = math.sqrt(2 / math.pi)
            t = np.tanh(k * (v + 0.044715 * v * v * v))
            d = 0.5 * (1 + t) + 0.5 * v * (1 - t * t) * k * (1 + 3 * 0.044715 * v * v)
        else:
            cdf = 0.5 * (1 + Erf.numpy_fn(v * (1 / math.sqrt(2))))
            pdf = np.exp(v * v * -0.5) * (1 / math.sqrt(2 * math.pi))
            d = cdf + v * pdf
        return Tensor(laid_out(np.asarray(g * d, g.dtype), g, v))  # (TensorIterator of (grad, self))

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


class Silu(Op):
    """``x * sigmoid(x)``; d/dx = s (1 + x (1 - s)) with ``s = sigmoid(x)``."""
    node_name = "SiluBackward0"

    @staticmethod
    def forward(ctx, a):
        ctx.save_for_backward(a)
        x = a._data
        return Tensor(sigmoid_numbers(x, numerator=x))  # x / (1 + exp(-x))

    @staticmethod
    def backward(ctx, grad):
        x, = ctx.saved_tensors
        grad = as_native_kernel_sees(grad)  # (not recording: PyTorch's silu_backward kernel)
        s = x.sigmoid()
        return grad * s * AddScalar.apply(x * filled(1.0, s).sub_(s), 1.0)  # (PyTorch: 1.0 + x * (1.0 - s))


class Softplus(Op):
    """``log(1 + exp(beta x)) / beta``, and just ``x`` where ``beta x > threshold`` (no overflow);
    d/dx = sigmoid(beta x) (1 on the linear part)."""
    node_name = "SoftplusBackward0"

    @staticmethod
    def forward(ctx, a, beta, threshold):
        ctx.save_for_backward(a)
        ctx.beta, ctx.threshold = beta, threshold
        x = a._data
        y = kernel_numbers(x)
        soft = rounded_once(np.log1p, rounded_once(np.exp, y * beta)) / beta  # (each step rounded, as PyTorch's kernel)
        return Tensor(laid_out(np.asarray(np.where(y * beta > threshold, y, soft), dtype=x.dtype), x))

    @staticmethod
    def backward(ctx, grad):
        x, = ctx.saved_tensors
        return SoftplusBackward.apply(grad, x, ctx.beta, ctx.threshold), None, None


class SoftplusBackward(Op):
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
        z = np.exp(xb)
        return Tensor(laid_out(np.asarray(np.where(xb > threshold, g, g * z / (z + 1)), g.dtype), g, x._data))  # ((grad, self))

    @staticmethod
    def backward(ctx, gg):
        grad, x = ctx.saved_tensors
        # PyTorch: x = input * beta; sigmoid_backward(grad, x.sigmoid()) * (x < threshold).type_as(grad) * beta
        # (beta a Scalar: MulBackward1 twice)
        xb = MulScalar.apply(x, ctx.beta)
        d_x = MulScalar.apply(SigmoidBackward.apply(gg * grad, xb.sigmoid()) * (xb < ctx.threshold).to(gg.dtype),
                              ctx.beta)
        return SoftplusBackward.apply(gg, x, ctx.beta, ctx.threshold), d_x, None, None


def _elu(data, alpha, scale, input_scale=1.0):
    # PyTorch's elu kernel: scale * x above 0, (alpha * scale) * expm1(x * input_scale) below, each factor
    # one number in the input's precision (negcoef, poscoef, negiptcoef; input_scale is 1/alpha for celu)
    x = kernel_numbers(data)
    negcoef = np.asarray(alpha, x.dtype) * np.asarray(scale, x.dtype)
    below = np.minimum(0, x)  # (in this order -0.0 stays -0.0, so elu(-0.0) is -0.0 as in PyTorch)
    below = below if input_scale == 1 else below * np.asarray(input_scale, x.dtype)
    above = x if scale == 1 else x * np.asarray(scale, x.dtype)
    return np.asarray(np.where(x > 0, above, negcoef * rounded_once(np.expm1, below)), dtype=data.dtype)


ELU_NEGATIVE_INPLACE = ("In-place elu backward calculation is triggered with a negative slope which is not supported. "
                        "This is caused by calling in-place forward function with a negative slope, please call "
                        "out-of-place version instead.")


class Elu(Op):
    """``x`` where ``x > 0``, else ``alpha (exp(x) - 1)``, all times ``scale`` (1, but for ``selu``);
    d/dx = ``scale``, or ``scale alpha exp(x)`` where ``x <= 0`` (PyTorch's ``elu_backward`` from the
    saved input, so a later in-place change of the output is fine)."""
    node_name = "EluBackward0"

    @staticmethod
    def forward(ctx, a, alpha, scale):
        ctx.save_for_backward(a)
        ctx.alpha, ctx.scale = alpha, scale
        return Tensor(laid_out(_elu(a._data, alpha, scale), a._data))

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
            raise RuntimeError(ELU_NEGATIVE_INPLACE)
        return EluBackward.apply(grad, out, ctx.alpha, ctx.scale, True), None, None


class EluBackward(Op):
    """elu's backward formula as one op (PyTorch: ``elu_backward``, ``EluBackwardBackward0`` under
    ``create_graph=True``): ``grad scale`` where ``x > 0``, else ``grad alpha scale exp(x)``, or, from
    the result (``is_result``), ``grad (out + alpha scale)``; with an ``input_scale`` (celu's 1/alpha) the
    part below 0 is also multiplied by it, and ``exp`` taken of ``x input_scale``.  Its own backward
    (``elu_double_backward``): the same op on the incoming gradient; for ``x`` the same op on
    ``gg * grad * input_scale`` (from the result: just that product), where ``x < 0``."""
    node_name = "EluBackwardBackward0"

    @staticmethod
    def forward(ctx, grad, v, alpha, scale, is_result, input_scale=1.0):
        ctx.save_for_backward(grad, v)
        ctx.alpha, ctx.scale, ctx.is_result, ctx.input_scale = alpha, scale, is_result, input_scale
        g, x = grad._data, v._data
        negcoef = np.asarray(alpha, g.dtype) * np.asarray(scale, g.dtype)
        ipt = np.asarray(input_scale, g.dtype)  # (1 but for celu: a product by 1 changes no number)
        below = g * ipt * (x + negcoef) if is_result else g * ipt * negcoef * np.exp(x * ipt)
        above = g if scale == 1 else g * np.asarray(scale, g.dtype)
        return Tensor(laid_out(np.asarray(np.where(x <= 0, below, above), g.dtype), g, x))

    @staticmethod
    def backward(ctx, gg):
        grad, v = ctx.saved_tensors
        args = ctx.alpha, ctx.scale
        gi = gg * grad if ctx.input_scale == 1 else MulScalar.apply(gg * grad, ctx.input_scale)
        d_v = gi if ctx.is_result else EluBackward.apply(gi, v, *args, False, ctx.input_scale)
        d_grad = EluBackward.apply(gg, v, *args, ctx.is_result, ctx.input_scale)
        return d_grad, d_v * (v < 0).to(gg.dtype), None, None, None, None


def _celu_input_scale(alpha):
    """celu's backward formula in ``derivatives.yaml`` takes ``1.0 / alpha.toFloat()``: alpha rounded to float32
    first (its forward divides by the double alpha), so the float64 gradient of ``celu(x, 0.4)`` is 1e-7 off."""
    return 1.0 / float(np.float32(alpha))


class Celu(Op):
    """``x`` where ``x > 0``, else ``alpha (exp(x / alpha) - 1)``: PyTorch computes it as ``elu`` with
    ``input_scale = 1 / alpha`` and records its own node, whose formula is ``elu_backward`` with that
    input scale (so ``EluBackwardBackward0`` under ``create_graph=True``)."""
    node_name = "CeluBackward0"
    saved_names = {"self": 0, "alpha": "alpha"}  # (grad_fn._saved_*)

    @staticmethod
    def forward(ctx, a, alpha):
        float_only(a, "elu_cpu")
        ctx.save_for_backward(a)
        ctx.alpha = alpha
        return Tensor(laid_out(_elu(a._data, alpha, 1.0, 1.0 / alpha), a._data))

    @staticmethod
    def backward(ctx, grad):
        a, = ctx.saved_tensors
        return EluBackward.apply(grad, a, ctx.alpha, 1.0, False, _celu_input_scale(ctx.alpha)), None


class CeluInPlace(Celu):
    """``F.celu(x, alpha, inplace=True)``: PyTorch's ``CeluBackward1`` saves the result, as ``EluBackward1``."""
    node_name = "CeluBackward1"
    saved_names = {"result": 0, "alpha": "alpha"}

    @staticmethod
    def forward(ctx, a, alpha):
        float_only(a, "elu_cpu")
        out = Tensor(_elu(a._data, alpha, 1.0, 1.0 / alpha))
        ctx.save_for_backward(out)
        ctx.alpha = alpha
        return out

    @staticmethod
    def backward(ctx, grad):
        out, = ctx.saved_tensors
        if ctx.alpha < 0:  # (PyTorch refuses it only here, in backward)
            raise RuntimeError(ELU_NEGATIVE_INPLACE)
        return EluBackward.apply(grad, out, ctx.alpha, 1.0, True, _celu_input_scale(ctx.alpha)), None


class Hardtanh(Op):
    """``clamp(x, lo, hi)`` as an activation (``relu6`` is ``hardtanh(x, 0, 6)``); the gradient passes
    strictly between the bounds (PyTorch: ``hardtanh_backward``, one op: ``HardtanhBackwardBackward0``
    under ``create_graph=True``)."""
    node_name = "HardtanhBackward0"

    @staticmethod
    def forward(ctx, a, lo, hi):
        ctx.save_for_backward(a)
        ctx.bounds = lo, hi
        x = a._data
        lo, hi = np.asarray(lo, x.dtype), np.asarray(hi, x.dtype)
        above = np.where(x < lo, lo, x)  # PyTorch's std::min(std::max(x, lo), hi): it keeps -0.0 and nan
        return Tensor(like(x, np.asarray(np.where(hi < above, hi, above), dtype=x.dtype)))  # (PyTorch: empty_like(x))

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


class HardtanhBackward(Op):
    """hardtanh's backward formula as one op: 0 where ``x <= lo`` or ``x >= hi``, else ``grad`` (so a nan
    ``x`` lets it through). Its own backward: the same op on the incoming gradient, zeros for ``x``."""
    node_name = "HardtanhBackwardBackward0"

    @staticmethod
    def forward(ctx, grad, x, lo, hi):
        ctx.save_for_backward(x)
        ctx.bounds = lo, hi
        return Tensor(laid_out(keep_or_zero(~((x._data <= lo) | (x._data >= hi)), grad._data), grad._data, x._data))

    @staticmethod
    def backward(ctx, gg):
        x, = ctx.saved_tensors
        return HardtanhBackward.apply(gg, x, *ctx.bounds), constant(np.zeros_like(gg._data)), None, None


class LogSigmoid(Op):
    """``log(sigmoid(x)) = -softplus(-x)``, computed without overflow; d/dx = 1 - sigmoid(x) = sigmoid(-x)."""
    node_name = "LogSigmoidBackward0"

    @staticmethod
    def forward(ctx, a):
        ctx.save_for_backward(a)
        x = a._data
        # (each of exp and log1p rounded once to x's dtype, as PyTorch's kernels give them: see rounded_once)
        out = np.minimum(x, 0) - rounded_once(np.log1p, rounded_once(np.exp, -np.abs(x)))
        return Tensor(np.asarray(out, dtype=x.dtype, order="C"))  # (PyTorch's log_sigmoid_forward: row-major)

    @staticmethod
    def backward(ctx, grad):
        x, = ctx.saved_tensors
        return LogSigmoidBackward.apply(grad, x)


class LogSigmoidBackward(Op):
    """logsigmoid's gradient, ``grad * sigmoid(-x)``, as one op (PyTorch: ``log_sigmoid_backward``, computed with
    ``b = exp(-|x|)`` as ``(x < 0) - sign * b / (1 + b)``); differentiated again it is ``LogSigmoidBackwardBackward0``
    with PyTorch's ``log_sigmoid_double_backward``: ``grad * (sigmoid(x) - 1) * sigmoid(x)``."""
    node_name = "LogSigmoidBackwardBackward0"

    @staticmethod
    def forward(ctx, grad, a):
        ctx.save_for_backward(grad, a)
        x = a._data
        b = rounded_once(np.exp, -np.abs(x))
        negative = x < 0
        slope = negative.astype(x.dtype) - np.where(negative, 1, -1).astype(x.dtype) * (b / (1 + b))
        out = np.asarray(slope * grad._data, dtype=x.dtype)  # (PyTorch writes into empty_like(grad))
        return Tensor(with_strides(out, preserve_format_strides(grad._data, out.itemsize)))

    @staticmethod
    def backward(ctx, gg):
        grad, x = ctx.saved_tensors
        z = x.sigmoid() if ctx.needs_input_grad[1] else None
        return (LogSigmoidBackward.apply(gg, x) if ctx.needs_input_grad[0] else None,
                gg * grad * (z - 1) * z if ctx.needs_input_grad[1] else None)


class Mish(Op):
    """``x tanh(softplus(x))``; d/dx = t + x s (1 - t^2) with ``t = tanh(log(1 + exp(x)))``, ``s = sigmoid(x)``.
    PyTorch's formula (``infinitely_differentiable_mish_backward``) is written with its ops, as here, so a
    second derivative goes through them (``MulBackward0``, ``TanhBackward0``, ``Log1PBackward0`` ...)."""
    node_name = "MishBackward0"
    saved_names = {"self": 0}  # (grad_fn._saved_*)

    @staticmethod
    def forward(ctx, a):
        float_only(a, "mish_cpu")
        ctx.save_for_backward(a)
        x = kernel_numbers(a._data)  # x * tanh(log1p(exp(x))), each step rounded as in PyTorch's kernel
        return Tensor(np.asarray(x * rounded_once(np.tanh, rounded_once(np.log1p, rounded_once(np.exp, x))),
                                 dtype=a._data.dtype))

    @staticmethod
    def backward(ctx, grad):
        x, = ctx.saved_tensors
        grad = as_native_kernel_sees(grad)  # (not recording: PyTorch's mish_backward kernel)
        s = x.sigmoid()
        t = x.exp().log1p().tanh()
        tt = t * t
        return grad * (t + x * s * filled(1.0, tt).sub_(tt))  # (PyTorch: 1.0 - tanh_softplus * tanh_softplus)


def _hard(x):
    """``min(max(x + 3, 0), 6)``, the piece hardswish and hardsigmoid share (nan stays nan)."""
    f = x.dtype.type
    return np.minimum(np.maximum(x + f(3), f(0)), f(6))


class Hardswish(Op):
    """``x min(max(x + 3, 0), 6) / 6``: 0 up to -3, ``x`` from 3 on, a parabola between (PyTorch:
    ``hardswish_backward`` as one op)."""
    node_name = "HardswishBackward0"
    saved_names = {"self": 0}  # (grad_fn._saved_*)

    @staticmethod
    def forward(ctx, a):
        float_only(a, "hardswish_cpu")
        ctx.save_for_backward(a)
        x = a._data
        return Tensor(x * _hard(x) / x.dtype.type(6))

    @staticmethod
    def backward(ctx, grad):
        x, = ctx.saved_tensors
        return HardswishBackward.apply(grad, x)


class HardswishBackward(Op):
    """hardswish's backward formula as one op (``HardswishBackwardBackward0`` under ``create_graph=True``):
    0 where ``x <= -3``, ``grad (x / 3 + 1/2)`` below 3, else ``grad`` (a nan ``x`` lets it through).
    Its own backward, as PyTorch's: the same op on the incoming gradient; for ``x``,
    ``where(-3 < x < 3, gg * grad / 3, 0)``."""
    node_name = "HardswishBackwardBackward0"

    @staticmethod
    def forward(ctx, grad, x):
        ctx.save_for_backward(grad, x)
        g, v = grad._data, x._data
        f = g.dtype.type
        out = np.where(v <= -3, f(0), np.where(v < 3, g * (v / f(3) + f(0.5)), g)).astype(g.dtype)
        return Tensor(laid_out(out, g, v))  # (TensorIterator of (grad, self))

    @staticmethod
    def backward(ctx, gg):
        grad, x = ctx.saved_tensors
        between = (x._data > -3) & (x._data < 3)
        return HardswishBackward.apply(gg, x), grad_where(between, DivScalar.apply(gg * grad, 3.0))


class Hardsigmoid(Op):
    """``min(max(x + 3, 0), 6) / 6``; d/dx = 1/6 strictly between -3 and 3, else 0."""
    node_name = "HardsigmoidBackward0"
    saved_names = {"self": 0}  # (grad_fn._saved_*)

    @staticmethod
    def forward(ctx, a):
        float_only(a, "hardsigmoid_cpu")
        ctx.save_for_backward(a)
        x = a._data
        return Tensor(_hard(x) / x.dtype.type(6))

    @staticmethod
    def backward(ctx, grad):
        x, = ctx.saved_tensors
        return HardsigmoidBackward.apply(grad, x)


class HardsigmoidBackward(NoDerivative):
    """hardsigmoid's backward formula as one op: ``grad / 6`` strictly between -3 and 3, else 0.  PyTorch has
    no derivative for it (``derivatives.yaml`` says ``not_implemented``): under ``create_graph=True`` the
    gradient's node is ``NotImplemented``, and a second derivative raises."""
    node_name = "NotImplemented"

    @staticmethod
    def forward(ctx, grad, x):
        g, v = grad._data, x._data
        return Tensor(laid_out(keep_or_zero((v > -3) & (v < 3), g / g.dtype.type(6)), g, v))

    @staticmethod
    def backward(ctx, gg):
        raise RuntimeError("derivative for aten::hardsigmoid_backward is not implemented")


class Softshrink(Op):
    """``x - lambd`` above ``lambd``, ``x + lambd`` below ``-lambd``, 0 between (PyTorch: ``softshrink``)."""
    node_name = "SoftshrinkBackward0"
    saved_names = {"self": 0, "lambd": "lambd"}  # (grad_fn._saved_*)

    @staticmethod
    def forward(ctx, a, lambd):
        ctx.save_for_backward(a)
        ctx.lambd = lambd
        x = a._data
        l = np.asarray(lambd, x.dtype)
        return Tensor(laid_out(np.where(x > l, x - l, np.where(x < -l, x + l, x * x.dtype.type(0))), x))

    @staticmethod
    def backward(ctx, grad):
        x, = ctx.saved_tensors
        return SoftshrinkBackward.apply(grad, x, ctx.lambd), None


class Hardshrink(Op):
    """``x`` outside ``[-lambd, lambd]``, 0 inside (PyTorch: ``hardshrink``)."""
    node_name = "HardshrinkBackward0"
    saved_names = {"self": 0, "lambd": "lambd"}  # (grad_fn._saved_*)

    @staticmethod
    def forward(ctx, a, lambd):
        float_only(a, "hardshrink_cpu")
        ctx.save_for_backward(a)
        ctx.lambd = lambd
        x = a._data
        l = np.asarray(lambd, x.dtype)
        return Tensor(laid_out(np.where((x >= -l) & (x <= l), x.dtype.type(0), x), x))

    @staticmethod
    def backward(ctx, grad):
        x, = ctx.saved_tensors
        return HardshrinkBackward.apply(grad, x, ctx.lambd), None


class HardshrinkBackward(Op):
    """The backward formula of hardshrink as one op: ``grad``, but 0 where ``-lambd <= x <= lambd`` (a nan
    ``x`` lets it through).  Its own backward: the same op on the incoming gradient, zeros for ``x``."""
    node_name = "HardshrinkBackwardBackward0"

    @staticmethod
    def forward(ctx, grad, x, lambd):
        ctx.save_for_backward(x)
        ctx.lambd = lambd
        v, l = x._data, np.asarray(lambd, x._data.dtype)
        return Tensor(laid_out(keep_or_zero(~((v >= -l) & (v <= l)), grad._data), grad._data, v))  # ((grad, self))

    @classmethod
    def backward(cls, ctx, gg):
        x, = ctx.saved_tensors
        return cls.apply(gg, x, ctx.lambd), constant(np.zeros_like(gg._data)), None


class SoftshrinkBackward(HardshrinkBackward):
    """softshrink's backward formula: the same numbers as hardshrink's (PyTorch computes both with one
    kernel, ``shrink_backward``), under its own name."""
    node_name = "SoftshrinkBackwardBackward0"


def _halves(x, dim):
    """The two halves of ``x`` along ``dim`` (glu's ``a`` and ``b``)."""
    return np.split(x, 2, axis=dim)


class Glu(Op):
    """``a * sigmoid(b)``, where ``a`` and ``b`` are the two halves of the input along ``dim``."""
    node_name = "GluBackward0"
    saved_names = {"self": 0}  # (grad_fn._saved_*)

    @staticmethod
    def forward(ctx, x, dim):
        float_only(x, "glu_cpu")
        ctx.save_for_backward(x)
        ctx.dim = dim
        a, b = _halves(x._data, dim)
        return Tensor(laid_out(np.asarray(kernel_numbers(a) * sigmoid_numbers(kernel_numbers(b)), dtype=a.dtype), a, b))

    @staticmethod
    def backward(ctx, grad):
        x, = ctx.saved_tensors
        return GluBackward.apply(grad, x, ctx.dim), None


class GluBackward(Op):
    """glu's backward formula as one op (PyTorch: ``glu_backward``, ``GluBackwardBackward0`` under
    ``create_graph=True``): for ``a``, ``grad s``; for ``b``, ``grad a s (1 - s)``, with ``s = sigmoid(b)``.
    Its own backward is PyTorch's ``glu_double_backward_grad_output`` and ``glu_double_backward``,
    written with minigrad's ops."""
    node_name = "GluBackwardBackward0"

    @staticmethod
    def forward(ctx, grad, x, dim):
        ctx.save_for_backward(grad, x)
        ctx.dim = dim
        a, b = _halves(x._data, dim)
        g, s = grad._data, sigmoid_numbers(b)
        return Tensor(np.asarray(np.concatenate([g * s, (1 - s) * s * a * g], axis=dim), order="C"))  # (row-major)

    @staticmethod
    def backward(ctx, gg):
        from .shape import Cat
        grad, x = ctx.saved_tensors
        dim, n = ctx.dim, x.shape[ctx.dim] // 2
        # d/d(grad): gg times glu's derivative, the halves added
        ones = Tensor(np.ones(grad.shape, grad._data.dtype))
        tmp = gg * GluBackward.apply(ones, x, dim)
        d_grad = tmp.narrow(dim, 0, n) + tmp.narrow(dim, n, n)
        # d/dx: the derivatives of grad s and grad a s (1 - s) by a and b
        a, b = x.narrow(dim, 0, n), x.narrow(dim, n, n)
        g_a, g_b = gg.narrow(dim, 0, n), gg.narrow(dim, n, n)
        s = b.sigmoid()
        one_minus_s = filled(1.0, s).sub_(s)
        s_one_minus_s = s * one_minus_s
        d_a = g_b * grad * s_one_minus_s
        second = s_one_minus_s * one_minus_s - s * s_one_minus_s  # (the derivative of s (1 - s))
        d_b = g_b * a * grad * second + g_a * grad * s_one_minus_s
        return d_grad, Cat.apply(dim, d_a, d_b), None


class PreluKernel(Op):
    """``x`` where ``x > 0``, else ``weight * x``, with ``weight`` shaped to broadcast along the channels
    (PyTorch: ``_prelu_kernel``; ``F.prelu`` views the weight first).  Both get gradients, from one op."""
    node_name = "PreluKernelBackward0"
    saved_names = {"self": 0, "weight": 1}  # (grad_fn._saved_*)

    @staticmethod
    def forward(ctx, a, weight):
        float_only(a, "prelu_cpu")
        ctx.save_for_backward(a, weight)
        x = a._data
        return Tensor(np.where(x > 0, x, weight._data * x))

    @staticmethod
    def backward(ctx, grad):
        a, weight = ctx.saved_tensors
        return PreluKernelBackward.apply(grad, a, weight)


class PreluKernelBackward(Op):
    """prelu's backward formula as one op with two results (PyTorch: ``_prelu_kernel_backward``,
    ``PreluKernelBackwardBackward0`` under ``create_graph=True``): for ``x``, ``grad`` where ``x > 0``, else
    ``weight * grad``; for the weight, ``x * grad`` where ``x <= 0``, in ``x``'s shape (the node summing it to
    the weight's shape is ``SumBackward1``, as in PyTorch).  Its own backward is PyTorch's formula, which
    tests ``x >= 0``."""
    node_name = "PreluKernelBackwardBackward0"

    @staticmethod
    def forward(ctx, grad, a, weight):
        ctx.save_for_backward(grad, a, weight)
        g, x, w = grad._data, a._data, weight._data
        return (Tensor(laid_out(np.where(x > 0, g, w * g), g, x, w)),
                Tensor(laid_out(np.where(x > 0, w.dtype.type(0), x * g), g, x, w)))

    @staticmethod
    def backward(ctx, gg_x, gg_w):
        grad, a, weight = ctx.saved_tensors
        kept = a._data >= 0
        d_grad = where(kept, gg_x, gg_x * weight + gg_w * a)
        d_a = where(kept, zeros_like_grad(grad), grad * gg_w)
        d_weight = where(kept, zeros_like_grad(grad), grad * gg_x)
        return d_grad, d_a, d_weight


class RreluWithNoise(Op):
    """rrelu: ``x`` where ``x > 0``, else ``x`` times a slope.  In training each element has its own slope,
    drawn uniformly from ``[lower, upper]`` (the ``noise``, 1 where ``x > 0``: a numpy array, no input of
    the node); in evaluation the slope is ``(lower + upper) / 2`` for all, as ``leaky_relu``."""
    node_name = "RreluWithNoiseBackward0"

    @staticmethod
    def forward(ctx, a, noise, lower, upper, training):
        float_only(a, "rrelu_with_noise_out_cpu" if training else "leaky_relu_cpu")
        ctx.save_for_backward(a)
        ctx.rrelu = noise, lower, upper, training
        x = a._data  # (PyTorch writes the result into a new row-major tensor, whatever the input's layout)
        return Tensor(np.asarray(x * noise if training else _leaky(x, (lower + upper) / 2), order="C"))

    @staticmethod
    def backward(ctx, grad):
        a, = ctx.saved_tensors
        return RreluWithNoiseBackward.apply(grad, a, *ctx.rrelu, False), None, None, None, None


class RreluWithNoiseInPlace(RreluWithNoise):
    """``F.rrelu(x, inplace=True)`` / ``F.rrelu_``: PyTorch's ``RreluWithNoiseBackward1`` saves the result."""
    node_name = "RreluWithNoiseBackward1"

    @staticmethod
    def forward(ctx, a, noise, lower, upper, training):
        out = RreluWithNoise.forward(ctx, a, noise, lower, upper, training)
        ctx.save_for_backward(out)
        return out

    @staticmethod
    def backward(ctx, grad):
        out, = ctx.saved_tensors
        return RreluWithNoiseBackward.apply(grad, out, *ctx.rrelu, True), None, None, None, None


class RreluWithNoiseBackward(Op):
    """rrelu's backward formula as one op (PyTorch: ``rrelu_with_noise_backward``): ``grad * noise`` in
    training (unless ``upper - lower`` is under 1e-6), else leaky_relu's backward with the middle slope.
    Its own backward: the same op on the incoming gradient, zeros for ``x``."""
    node_name = "RreluWithNoiseBackwardBackward0"

    @staticmethod
    def forward(ctx, grad, x, noise, lower, upper, training, is_result):
        ctx.save_for_backward(x)
        ctx.rrelu = noise, lower, upper, training, is_result
        g = grad._data  # (laid out as PyTorch's TensorIterator lays out noise * grad, leaky_relu_backward(x, grad))
        if training and upper - lower > 1e-6:
            return Tensor(laid_out(np.asarray(noise * g, g.dtype), noise, g))
        slope = (lower + upper) / 2
        if is_result and slope < 0:  # (leaky_relu_backward from the result)
            raise RuntimeError(LEAKY_NEGATIVE_INPLACE)
        return Tensor(laid_out(_leaky_grad(g, x._data, slope), x._data, g))

    @staticmethod
    def backward(ctx, gg):
        x, = ctx.saved_tensors
        return (RreluWithNoiseBackward.apply(gg, x, *ctx.rrelu), constant(np.zeros_like(gg._data))) + (None,) * 5


# ---- the functions torch, torch.nn.functional and Tensor share --------------------------------------
def prelu(input, weight):  # noqa: A002
    """``x`` where ``x > 0``, else ``weight * x``: one learned slope, or one per channel (dim 1).

    PyTorch's ``torch.prelu`` checks the weight, views it as ``(1, C, 1, ...)`` (``ViewBackward0``) when
    the dims differ, and calls ``_prelu_kernel`` (``PreluKernelBackward0``); the same here."""
    if input.dtype != weight.dtype:
        raise RuntimeError(f"prelu: Type promoting not supported. Got {_TYPE_NAMES[input.dtype.name]} and "
                           f"{_TYPE_NAMES[weight.dtype.name]}")
    if weight.numel() != 1:
        if input.dim() == 0:
            raise RuntimeError("Not allow zero-dim input tensor.")
        channels = input.shape[1] if input.dim() > 1 else 1
        if channels != weight.numel():
            raise RuntimeError(f"Mismatch of parameter numbers and input channel size. Found parameter numbers = "
                               f"{weight.numel()} and channel size = {channels}.")
    if weight.dim() > 1:
        raise RuntimeError(f"prelu: Expected `weight` to be a scalar or 1D tensor, but got: ndim = {weight.dim()}")
    if input.dim() != weight.dim():
        shape = [1] * input.dim()
        if input.dim() > 1:
            shape[1] = weight.numel()
        weight = weight.reshape(shape)
    return PreluKernel.apply(input, weight)


SELU_ALPHA = 1.6732632423543772848170429916717
SELU_SCALE = 1.0507009873554804934193349852946


def selu(input, inplace=False):  # noqa: A002
    """``scale * elu(x, alpha)`` with SELU's fixed constants: PyTorch computes it as one ``elu`` with a
    scale, so its node is ``EluBackward0`` (``EluBackward1`` in place)."""
    float_only(input, "elu_cpu")
    if inplace:
        from .inplace import inplace
        return inplace(input, EluInPlace, SELU_ALPHA, SELU_SCALE)
    return Elu.apply(input, SELU_ALPHA, SELU_SCALE)
