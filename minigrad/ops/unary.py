"""More elementwise math: trigonometry, logs and exponentials, rounding, remainder, clamp_min/max.

Each op is a Function whose backward is the formula of PyTorch's ``tools/autograd/derivatives.yaml``,
written with minigrad's own ops (so ``create_graph=True`` gives second derivatives), and whose
node has PyTorch's name (``SinBackward0``).  Float-only ops give an integer input the default
float dtype, as PyTorch does (``torch.tensor([1, 2]).sin()`` is float32).

Second derivatives (``create_graph=True``) have PyTorch's values; their graphs may name a node
differently: where PyTorch's C++ formula adds a plain number (``AddBackward1``), minigrad's Python
formula adds a wrapped number (``AddBackward0`` with a ``(None, 0)`` edge).
"""
import math

import numpy as np

from .. import _dtype
from ..autograd.function import Function
from ..tensor import _TYPE_NAMES, Tensor
from ._util import as_operand, result, sum_to

LN2 = math.log(2.0)
LN10 = math.log(10.0)


def floats(a):
    """``a``'s numbers as floats: integers and bools become the default float dtype (PyTorch's rule)."""
    x = a._data
    return x if x.dtype.kind == "f" else x.astype(_dtype.get_default_dtype().numpy)


def _quiet(fn, x):
    """``fn(x)`` without numpy's warnings: outside its domain a float op gives nan or inf silently, as in PyTorch."""
    with np.errstate(all="ignore"):
        return Tensor(np.asarray(fn(x), dtype=x.dtype))


class _SelfUnary(Function):
    """An op ``y = f(x)`` whose derivative is written with the input ``x`` (saved for backward)."""
    saved_names = {"self": 0}  # (grad_fn._saved_*)
    numpy_fn = None

    @classmethod
    def forward(cls, ctx, a):
        ctx.save_for_backward(a)
        return _quiet(cls.numpy_fn, floats(a))

    @staticmethod
    def backward(ctx, grad):
        raise NotImplementedError


class _ResultUnary(Function):
    """An op ``y = f(x)`` whose derivative is written with the result ``y`` (saved for backward)."""
    saved_names = {"result": 0}  # (grad_fn._saved_*)
    numpy_fn = None

    @classmethod
    def forward(cls, ctx, a):
        out = _quiet(cls.numpy_fn, floats(a))
        ctx.save_for_backward(out)
        return out


# ------------------------------------------------------------------ trigonometric and hyperbolic
class Sin(_SelfUnary):
    node_name = "SinBackward0"
    numpy_fn = np.sin

    @staticmethod
    def backward(ctx, grad):  # d sin x = cos x
        x, = ctx.saved_tensors
        return grad * x.cos()


class Cos(_SelfUnary):
    node_name = "CosBackward0"
    numpy_fn = np.cos

    @staticmethod
    def backward(ctx, grad):  # d cos x = -sin x
        x, = ctx.saved_tensors
        return grad * -x.sin()


class Tan(_ResultUnary):
    node_name = "TanBackward0"
    numpy_fn = np.tan

    @staticmethod
    def backward(ctx, grad):  # d tan x = 1 + tan(x)^2
        y, = ctx.saved_tensors
        return grad * (y * y + 1)


class Sinh(_SelfUnary):
    node_name = "SinhBackward0"
    numpy_fn = np.sinh

    @staticmethod
    def backward(ctx, grad):
        x, = ctx.saved_tensors
        return grad * x.cosh()


class Cosh(_SelfUnary):
    node_name = "CoshBackward0"
    numpy_fn = np.cosh

    @staticmethod
    def backward(ctx, grad):
        x, = ctx.saved_tensors
        return grad * x.sinh()


class Asin(_SelfUnary):
    node_name = "AsinBackward0"
    numpy_fn = np.arcsin

    @staticmethod
    def backward(ctx, grad):  # 1 / sqrt(1 - x^2)
        x, = ctx.saved_tensors
        return grad * (-x * x + 1).rsqrt()


class Acos(_SelfUnary):
    node_name = "AcosBackward0"
    numpy_fn = np.arccos

    @staticmethod
    def backward(ctx, grad):  # -1 / sqrt(1 - x^2)
        x, = ctx.saved_tensors
        return grad * -(-x * x + 1).rsqrt()


class Atan(_SelfUnary):
    node_name = "AtanBackward0"
    numpy_fn = np.arctan

    @staticmethod
    def backward(ctx, grad):  # 1 / (1 + x^2)
        x, = ctx.saved_tensors
        return grad / (x * x + 1)


# ------------------------------------------------------------------ logs, exponentials, roots, erf
class Log1p(_SelfUnary):
    node_name = "Log1PBackward0"
    numpy_fn = np.log1p

    @staticmethod
    def backward(ctx, grad):
        x, = ctx.saved_tensors
        return grad / (x + 1)


class Expm1(_ResultUnary):
    node_name = "Expm1Backward0"
    numpy_fn = np.expm1

    @staticmethod
    def backward(ctx, grad):  # d (e^x - 1) = e^x = y + 1
        y, = ctx.saved_tensors
        return grad * (y + 1)


class Log2(_SelfUnary):
    node_name = "Log2Backward0"
    numpy_fn = np.log2

    @staticmethod
    def backward(ctx, grad):
        x, = ctx.saved_tensors
        return grad / (x * LN2)


class Log10(_SelfUnary):
    node_name = "Log10Backward0"
    numpy_fn = np.log10

    @staticmethod
    def backward(ctx, grad):
        x, = ctx.saved_tensors
        return grad / (x * LN10)


class Exp2(_ResultUnary):
    node_name = "Exp2Backward0"
    numpy_fn = np.exp2

    @staticmethod
    def backward(ctx, grad):  # d 2^x = 2^x ln 2
        y, = ctx.saved_tensors
        return grad * y * LN2


class Rsqrt(_ResultUnary):
    node_name = "RsqrtBackward0"

    @staticmethod
    def numpy_fn(x):
        return 1 / np.sqrt(x)

    @staticmethod
    def backward(ctx, grad):  # d x^(-1/2) = -1/2 x^(-3/2) = -1/2 y^3
        y, = ctx.saved_tensors
        return grad * -0.5 * y.pow(3)


_erf = np.vectorize(math.erf, otypes=[np.float64])  # numpy has no erf; Python's math module does


class Erf(_SelfUnary):
    node_name = "ErfBackward0"

    @staticmethod
    def numpy_fn(x):
        return _erf(x) if x.size else np.zeros(x.shape)

    @staticmethod
    def backward(ctx, grad):  # d erf x = 2 / sqrt(pi) * e^(-x^2)
        x, = ctx.saved_tensors
        return grad * (2.0 / math.sqrt(math.pi)) * (-(x * x)).exp()


# ------------------------------------------------------------------ rounding: a zero gradient
class _Rounding(Function):
    """``floor``, ``ceil``, ``round``, ``trunc``: flat almost everywhere, so the gradient is zero.

    On integer tensors they return the numbers unchanged (and keep the dtype), as in PyTorch.
    """

    @classmethod
    def forward(cls, ctx, a, decimals=0):
        x = a._data
        if x.dtype == np.bool_:
            name = cls.node_name[:-len("Backward0")].lower()
            raise NotImplementedError(f'"{name}_vml_cpu" not implemented for \'Bool\'')
        if x.dtype.kind != "f":
            return Tensor(x.copy())
        return Tensor(np.asarray(cls.round(x, decimals), dtype=x.dtype))

    @staticmethod
    def backward(ctx, grad):  # PyTorch: zeros_like(grad)
        return Tensor(np.zeros_like(grad._data)), None


class Floor(_Rounding):
    node_name = "FloorBackward0"

    @staticmethod
    def round(x, decimals):
        return np.floor(x)


class Ceil(_Rounding):
    node_name = "CeilBackward0"

    @staticmethod
    def round(x, decimals):
        return np.ceil(x)


class Trunc(_Rounding):
    node_name = "TruncBackward0"

    @staticmethod
    def round(x, decimals):
        return np.trunc(x)


class Round(_Rounding):
    """Halves go to the even neighbour (``round(2.5) == 2``), in numpy as in PyTorch."""
    node_name = "RoundBackward0"

    @staticmethod
    def round(x, decimals):
        if decimals == 0:
            return np.round(x)
        scale = np.asarray(10.0 ** decimals, x.dtype)  # PyTorch: round(x * 10^d) / 10^d
        return np.round(x * scale) / scale


class RoundDecimals(Round):
    node_name = "RoundBackward1"

    @classmethod
    def forward(cls, ctx, a, decimals):
        if a._data.dtype.kind != "f":
            raise NotImplementedError(f'"round_cpu" not implemented for \'{_TYPE_NAMES[a._data.dtype.name]}\'')
        return super().forward(ctx, a, decimals)


class Frac(Function):
    """``x - trunc(x)``: the gradient passes unchanged."""
    node_name = "FracBackward0"

    @staticmethod
    def forward(ctx, a):
        x = a._data
        if x.dtype.kind != "f":
            raise NotImplementedError(f'"frac_cpu" not implemented for \'{_TYPE_NAMES[x.dtype.name]}\'')
        with np.errstate(invalid="ignore"):  # frac(inf) is nan, silently
            return Tensor(x - np.trunc(x))

    @staticmethod
    def backward(ctx, grad):
        return grad


# ------------------------------------------------------------------ // and %
class FloorDivide(Function):
    """``a // b``: PyTorch has no derivative for it and records a node that says so when backward reaches it."""
    node_name = "NotImplemented"

    @staticmethod
    def forward(ctx, a, b):
        b = as_operand(b, a)  # (a Python number is no input of the node: it gets no edge)
        x, y = a._data, b._data
        if x.dtype.kind in "iub" and y.dtype.kind in "iub" and (y == 0).any():
            raise RuntimeError("ZeroDivisionError")
        with np.errstate(all="ignore"):
            return result(a, b, np.floor_divide(x, y))

    @staticmethod
    def backward(ctx, grad):
        raise RuntimeError("derivative for aten::floor_divide is not implemented")


class Remainder(Function):
    """``a % b`` with the sign of ``b`` (Python's rule, PyTorch's ``remainder``).

    ``a % b = a - floor(a / b) * b``, so d/da = 1 and d/db = -floor(a / b).  A Python number ``b``
    gives ``RemainderBackward0`` (one edge), a tensor ``b`` ``RemainderBackward1``.
    """
    node_name = "RemainderBackward1"

    @staticmethod
    def forward(ctx, a, b):
        x, y = a._data, b._data
        if x.dtype.kind in "iub" and y.dtype.kind in "iub" and (y == 0).any():
            raise RuntimeError("ZeroDivisionError")
        ctx.save_for_backward(a, b)
        with np.errstate(all="ignore"):
            return result(a, b, np.remainder(x, y))

    @staticmethod
    def backward(ctx, grad):
        a, b = ctx.saved_tensors
        sa, sb = ctx.input_shapes
        gb = None
        if ctx.needs_input_grad[1]:
            gb = sum_to(-grad * Tensor(np.floor_divide(a._data, b._data)), sb)
        return (sum_to(grad, sa) if ctx.needs_input_grad[0] else None), gb


class RemainderScalar(Function):
    node_name = "RemainderBackward0"

    @staticmethod
    def forward(ctx, a, number):
        b = as_operand(number, a)  # the number as a 0-dim tensor of the result's dtype
        if a._data.dtype.kind in "iub" and b._data.dtype.kind in "iub" and b._data == 0:
            raise RuntimeError("ZeroDivisionError")
        with np.errstate(all="ignore"):
            return result(a, b, np.remainder(a._data, b._data))

    @staticmethod
    def backward(ctx, grad):
        return grad, None


class RemainderOfNumber(Function):
    """``2 % x`` (a number left of a tensor): no derivative in PyTorch either."""
    node_name = "NotImplemented"

    @staticmethod
    def forward(ctx, number, a):
        b = as_operand(number, a)
        with np.errstate(all="ignore"):
            return result(a, b, np.remainder(b._data, a._data))

    @staticmethod
    def backward(ctx, grad):
        raise RuntimeError("derivative for aten::remainder is not implemented")


# ------------------------------------------------------------------ clamp_min / clamp_max
class ClampMin(Function):
    """``max(x, lo)``: the gradient passes where ``x >= lo``."""
    node_name = "ClampMinBackward0"

    @staticmethod
    def forward(ctx, a, lo):
        ctx.save_for_backward(a)
        ctx.lo = lo
        b = as_operand(lo, a)
        return result(a, b, np.maximum(b._data, a._data))  # (lo first: -0.0 stays, as in PyTorch)

    @staticmethod
    def backward(ctx, grad):
        a, = ctx.saved_tensors
        from .elementwise import grad_where
        return grad_where(a._data >= ctx.lo, grad), None


class ClampMax(Function):
    """``min(x, hi)``: the gradient passes where ``x <= hi``."""
    node_name = "ClampMaxBackward0"

    @staticmethod
    def forward(ctx, a, hi):
        ctx.save_for_backward(a)
        ctx.hi = hi
        b = as_operand(hi, a)
        return result(a, b, np.minimum(b._data, a._data))

    @staticmethod
    def backward(ctx, grad):
        a, = ctx.saved_tensors
        from .elementwise import grad_where
        return grad_where(a._data <= ctx.hi, grad), None
