"""More elementwise math: trigonometry, logs and exponentials, rounding, remainder, clamp_min/max.

Each op is a Function whose backward is the formula of PyTorch's ``tools/autograd/derivatives.yaml``,
written with minigrad's own ops (so ``create_graph=True`` gives second derivatives), and whose
node has PyTorch's name (``SinBackward0``).  Float-only ops give an integer input the default
float dtype, as PyTorch does (``torch.tensor([1, 2]).sin()`` is float32).

Second derivatives (``create_graph=True``) have PyTorch's values and graphs. Where PyTorch's C++
formula adds or multiplies a plain number (``x + 1`` is ``AddBackward1``, one edge), the formula
here says so with ``AddScalar``/``MulScalar``: Python's ``x + 1`` would record ``AddBackward0``
with a ``(None, 0)`` edge for the number, as it does in PyTorch's Python too.
"""
import math

import numpy as np

from .. import _dtype
from .dispatch import Op
from .._core.tensor_base import _TYPE_NAMES, C_NAMES, TensorBase as Tensor
from ._util import kernel_numbers, rounded_once
from .promotion import as_operand, operands, result, result_type
from .._core.layout import cast, laid_out, like
from .elementwise import AddScalar, MulScalar, filled

LN2 = math.log(2.0)
LN10 = math.log(10.0)


def floats(a):
    """``a``'s numbers as floats: integers and bools become the default float dtype (PyTorch's rule)."""
    x = a._data
    return x if x.dtype.kind == "f" else cast(x, _dtype.get_default_dtype().numpy)


def _quiet(fn, x):
    """``fn(x)`` rounded as PyTorch's (``rounded_once``), laid out as PyTorch lays out a one-input op's result
    (np.vectorize does not). (Outside its domain a float op gives nan or inf: the dispatcher keeps numpy quiet.)"""
    return Tensor(laid_out(np.asarray(rounded_once(fn, x), dtype=x.dtype), x))


class _SelfUnary(Op):
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


class _ResultUnary(Op):
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
        return grad * AddScalar.apply(y.pow(2), 1)  # (PyTorch: 1 + result.pow(2))


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
        return grad * AddScalar.apply(-x * x, 1).rsqrt()


class Acos(_SelfUnary):
    node_name = "AcosBackward0"
    numpy_fn = np.arccos

    @staticmethod
    def backward(ctx, grad):  # -1 / sqrt(1 - x^2)
        x, = ctx.saved_tensors
        return grad * -AddScalar.apply(-x * x, 1).rsqrt()


class Atan(_SelfUnary):
    node_name = "AtanBackward0"
    numpy_fn = np.arctan

    @staticmethod
    def backward(ctx, grad):  # 1 / (1 + x^2)
        x, = ctx.saved_tensors
        return grad / AddScalar.apply(x * x, 1)


# ------------------------------------------------------------------ logs, exponentials, roots, erf
class Log1p(_SelfUnary):
    node_name = "Log1PBackward0"
    numpy_fn = np.log1p

    @staticmethod
    def backward(ctx, grad):
        x, = ctx.saved_tensors
        return grad / AddScalar.apply(x, 1)


class Logit(_SelfUnary):
    """``log(x / (1 - x))`` (PyTorch: ``torch.logit`` without ``eps``, ``LogitBackward0``); d/dx = 1 / (x (1 - x)).
    binary_cross_entropy's target gradient is ``-logit(p)``."""
    node_name = "LogitBackward0"

    @staticmethod
    def numpy_fn(x):
        return np.log(x / (1 - x))

    @staticmethod
    def backward(ctx, grad):
        x, = ctx.saved_tensors
        return grad / (x * (1 - x))


class Expm1(_ResultUnary):
    node_name = "Expm1Backward0"
    numpy_fn = np.expm1

    @staticmethod
    def backward(ctx, grad):  # d (e^x - 1) = e^x = y + 1
        y, = ctx.saved_tensors
        return grad * AddScalar.apply(y, 1)


class Log2(_SelfUnary):
    node_name = "Log2Backward0"
    numpy_fn = np.log2

    @staticmethod
    def backward(ctx, grad):
        x, = ctx.saved_tensors
        return grad / MulScalar.apply(x, LN2)


class Log10(_SelfUnary):
    node_name = "Log10Backward0"
    numpy_fn = np.log10

    @staticmethod
    def backward(ctx, grad):
        x, = ctx.saved_tensors
        return grad / MulScalar.apply(x, LN10)


class Exp2(_ResultUnary):
    node_name = "Exp2Backward0"
    numpy_fn = np.exp2

    @staticmethod
    def backward(ctx, grad):  # d 2^x = 2^x ln 2
        y, = ctx.saved_tensors
        return MulScalar.apply(grad * y, LN2)


class Rsqrt(_ResultUnary):
    node_name = "RsqrtBackward0"

    @classmethod
    def forward(cls, ctx, a):
        # PyTorch's kernel is 1 / sqrt(x) in float32 (float16: in float32, then rounded), each step rounded: not the
        # once-rounded number of the other unary ops (rounded_once), which is an ulp away for 3 float32 inputs in 10
        x = floats(a)
        y = kernel_numbers(x)
        out = Tensor(laid_out(np.asarray(y.dtype.type(1) / np.sqrt(y), dtype=x.dtype), x))
        ctx.save_for_backward(out)
        return out

    @staticmethod
    def backward(ctx, grad):  # d x^(-1/2) = -1/2 x^(-3/2) = -1/2 y^3
        y, = ctx.saved_tensors
        return MulScalar.apply(grad, -0.5) * y.pow(3)  # (PyTorch: -0.5 * grad * result.pow(3))


_erf = np.vectorize(math.erf, otypes=[np.float64])  # numpy has no erf; Python's math module does


class Erf(_SelfUnary):
    node_name = "ErfBackward0"

    @staticmethod
    def numpy_fn(x):
        return _erf(x) if x.size else np.zeros(x.shape)

    @staticmethod
    def backward(ctx, grad):  # d erf x = 2 / sqrt(pi) * e^(-x^2)
        x, = ctx.saved_tensors
        return MulScalar.apply((-x.pow(2)).exp(), 2.0 / math.sqrt(math.pi)) * grad  # (PyTorch's order)


# ------------------------------------------------------------------ rounding: a zero gradient
class _Rounding(Op):
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
            return Tensor(cast(x))  # (an integer is its own rounding: PyTorch's clone, laid out like the input)
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


class Frac(Op):
    """``x - trunc(x)``: the gradient passes unchanged."""
    node_name = "FracBackward0"

    @staticmethod
    def forward(ctx, a):
        x = a._data
        if x.dtype.kind != "f":
            raise NotImplementedError(f'"frac_cpu" not implemented for \'{_TYPE_NAMES[x.dtype.name]}\'')
        return Tensor(x - np.trunc(x))

    @staticmethod
    def backward(ctx, grad):
        return grad


# ------------------------------------------------------------------ // and %
class NoDerivative(Op):
    """An op PyTorch has no derivative for: it records a ``NotImplemented`` node that raises when backward
    reaches it. PyTorch numbers that node UINT64_MAX, as ``AccumulateGrad``: among the nodes ready at once it
    runs first (before a leaf next to it gets its gradient)."""
    node_name = "NotImplemented"

    @classmethod
    def apply(cls, *args):
        out = super().apply(*args)
        if isinstance(out, Tensor) and out.grad_fn is not None:
            node = out.grad_fn
            node._sequence_nr = float("inf")
            # (edges only to the inputs that require grad, as PyTorch's NotImplemented node has)
            node.next_functions = tuple(e for e in node.next_functions if e[0] is not None)
        return out


class FloorDivide(NoDerivative):
    """``a // b``: PyTorch has no derivative for it and records a node that says so when backward reaches it."""
    node_name = "NotImplemented"

    @staticmethod
    def forward(ctx, a, b):
        b = as_operand(b, a)  # (a Python number is no input of the node: it gets no edge)
        x, y = operands(a, b)
        no_bool_kernel("div_floor_cpu", x, y)
        if x.dtype.kind in "iub" and y.dtype.kind in "iub" and (y == 0).any():
            raise RuntimeError("ZeroDivisionError")
        return result(a, b, np.floor_divide(x, y))

    @staticmethod
    def backward(ctx, grad):
        raise RuntimeError("derivative for aten::floor_divide is not implemented")


def _remainder(x, y):
    """PyTorch's ``remainder`` kernel (aten/src/ATen/native/cpu/BinaryOpsKernel.cpp, remainder_kernel):
    ``mod = fmod(a, b); if (mod != 0 && (b < 0) != (mod < 0)) mod += b``.  numpy's ``remainder``
    is the same except that a zero remainder takes ``b``'s sign; PyTorch's keeps fmod's, ``a``'s
    (``-1.5 % 0.75`` is -0.0).  Integers have no -0: numpy's is PyTorch's there."""
    if x.dtype.kind in "iub" and y.dtype.kind in "iub":
        return np.remainder(x, y)
    mod = np.fmod(x, y)
    return np.where((mod != 0) & ((y < 0) != (mod < 0)), mod + y, mod)


def no_bool_kernel(kernel, x, y):
    """The integer-division kernels (remainder, fmod, floor and trunc division) have no bool version: PyTorch's
    error when both operands, in their common dtype, are bools."""
    if x.dtype == np.bool_ and y.dtype == np.bool_:
        raise NotImplementedError(f'"{kernel}" not implemented for \'Bool\'')


class Remainder(Op):
    """``a % b`` with the sign of ``b`` (Python's rule, PyTorch's ``remainder``).

    ``a % b = a - floor(a / b) * b``, so d/da = 1 and d/db = -floor(a / b).  A Python number ``b``
    gives ``RemainderBackward0`` (one edge), a tensor ``b`` ``RemainderBackward1``.
    """
    node_name = "RemainderBackward1"
    op = staticmethod(_remainder)  # the remainder, and the rounding of the quotient it leaves:
    rounding_mode = "floor"          # a = a.div(b, rounding_mode="floor") * b + op(a, b)
    kernel = "remainder_cpu"

    @classmethod
    def forward(cls, ctx, a, b):
        x, y = operands(a, b)
        no_bool_kernel(cls.kernel, x, y)
        if x.dtype.kind in "iub" and y.dtype.kind in "iub" and (y == 0).any():
            raise RuntimeError("ZeroDivisionError")
        need_b = ctx.needs_input_grad[1]  # only b's gradient needs the values (derivatives.yaml), as PyTorch saves
        ctx.save_for_backward(a if need_b else None, b if need_b else None)
        return result(a, b, cls.op(x, y))

    @classmethod
    def backward(cls, ctx, grad):
        a, b = ctx.saved_tensors
        gb = None
        if ctx.needs_input_grad[1]:
            gb = -grad * DivRounded.apply(a, b, cls.rounding_mode)  # (a zero gradient, with a graph)
        return (grad if ctx.needs_input_grad[0] else None), gb


class RemainderScalar(Op):
    node_name = "RemainderBackward0"
    op = staticmethod(_remainder)
    kernel = "remainder_cpu"

    @classmethod
    def forward(cls, ctx, a, number):
        b = as_operand(number, a)  # the number as a 0-dim tensor of the result's dtype
        no_bool_kernel(cls.kernel, *operands(a, b))
        if a._data.dtype.kind in "iub" and b._data.dtype.kind in "iub" and b._data == 0:
            raise RuntimeError("ZeroDivisionError")
        return result(a, b, cls.op(*operands(a, b)))

    @staticmethod
    def backward(ctx, grad):
        return grad, None


class RemainderOfNumber(NoDerivative):
    """``2 % x`` (a number left of a tensor): no derivative in PyTorch either."""
    node_name = "NotImplemented"

    @staticmethod
    def forward(ctx, number, a):
        b = as_operand(number, a)
        x, y = operands(a, b)
        no_bool_kernel("remainder_cpu", x, y)
        return result(a, b, _remainder(y, x))

    @staticmethod
    def backward(ctx, grad):
        raise RuntimeError("derivative for aten::remainder is not implemented")


# ------------------------------------------------------------------ fmod, nan_to_num
class Fmod(Remainder):
    """``x.fmod(y)``: the remainder with the sign of ``x`` (C's ``fmod``; ``%`` takes ``y``'s sign).

    ``fmod(x, y) = x - trunc(x / y) * y``, so d/dx = 1 and d/dy = -trunc(x / y).  A number ``y``
    gives ``FmodBackward0`` (one edge), a tensor ``y`` ``FmodBackward1``.
    """
    node_name = "FmodBackward1"
    op, rounding_mode, kernel = staticmethod(np.fmod), "trunc", "fmod_cpu"


class FmodScalar(RemainderScalar):
    node_name = "FmodBackward0"
    op, kernel = staticmethod(np.fmod), "fmod_cpu"


# ------------------------------------------------------------------ xlogy: x * log(y), 0 where x is 0
def _xlogy(x, y, dtype):
    """``x * log(y)``, and 0 where ``x == 0`` (even where ``log(y)`` is -inf), unless ``y`` is nan."""
    out = np.where(x == 0, np.where(np.isnan(y), np.nan, 0.0), x * np.log(np.asarray(y, dtype)))
    return Tensor(laid_out(np.asarray(out, dtype=dtype), x, y))  # (strides as PyTorch's TensorIterator)


def _float_result(a, b):
    """xlogy's dtype: the operands' promoted dtype, or the default float dtype for integers."""
    dtype = result_type(a, b)
    return (dtype if dtype.is_floating_point else _dtype.get_default_dtype()).numpy


class Xlogy(Op):
    """``torch.xlogy(x, y)``.  d/dx = log(y), except 0 where x == 0 and y <= 0 (PyTorch:
    ``xlogy(grad, y).masked_fill((x == 0) & (y <= 0), 0)``), d/dy = x / y."""
    node_name = "XlogyBackward0"
    saved_names = {"other": 0, "self": 1}  # (grad_fn._saved_*, in the order PyTorch unpacks them)

    @staticmethod
    def forward(ctx, a, b):
        ctx.save_for_backward(b, a)
        return _xlogy(a._data, b._data, _float_result(a, b))

    @staticmethod
    def backward(ctx, grad):
        b, a = ctx.saved_tensors
        return (Xlogy.apply(grad, b).masked_fill((a == 0) & (b <= 0), 0) if ctx.needs_input_grad[0] else None,
                grad * a / b if ctx.needs_input_grad[1] else None)


class XlogyOfNumber(Op):
    """``torch.xlogy(x, 3.0)``: ``y`` a number (PyTorch's ``xlogy.Scalar_Other``): one edge.
    d/dx = xlogy(grad, y); only for ``y <= 0`` (or nan) is it set to 0 where x = 0 (derivatives.yaml), so a
    positive number records no ``MaskedFillBackward0`` under create_graph=True."""
    node_name = "XlogyBackward2"
    saved_names = {"self": 0, "other": "number"}

    @staticmethod
    def forward(ctx, a, number):
        ctx.save_for_backward(a)
        ctx.number = number
        return _xlogy(a._data, number, _float_result(a, number))

    @staticmethod
    def backward(ctx, grad):
        a, = ctx.saved_tensors
        g = XlogyOfNumber.apply(grad, ctx.number)
        if ctx.number > 0:
            return g, None
        return g.masked_fill(a == 0, 0), None


class NumberXlogy(Op):
    """``torch.xlogy(2, y)``: ``x`` a number (PyTorch's ``xlogy.Scalar_Self``): d/dy = x / y."""
    node_name = "XlogyBackward1"
    saved_names = {"self": "number", "other": 0}

    @staticmethod
    def forward(ctx, number, b):
        ctx.save_for_backward(b)
        ctx.number = number
        return _xlogy(number, b._data, _float_result(number, b))

    @staticmethod
    def backward(ctx, grad):
        b, = ctx.saved_tensors
        return None, MulScalar.apply(grad, ctx.number) / b


def xlogy(x, y):
    if isinstance(x, Tensor) and isinstance(y, Tensor):
        from .elementwise import binary
        return binary(Xlogy, x, y)
    if isinstance(x, Tensor):
        return XlogyOfNumber.apply(x, y)
    if isinstance(y, Tensor):
        return NumberXlogy.apply(x, y)
    raise TypeError("xlogy() expects at least one tensor")


class NanToNum(Op):
    """``x.nan_to_num(nan=0.0, posinf=None, neginf=None)``: nan, inf and -inf replaced (by default with
    0 and the dtype's largest and smallest numbers); the gradient passes where ``x`` was finite."""
    node_name = "NanToNumBackward0"
    saved_names = {"self": 0}  # (grad_fn._saved_*)

    @staticmethod
    def forward(ctx, a, nan, posinf, neginf):
        ctx.save_for_backward(a)
        return Tensor(like(a._data, np.nan_to_num(a._data, nan=nan, posinf=posinf, neginf=neginf)))  # (PyTorch: empty_like)

    @staticmethod
    def backward(ctx, grad):  # (derivatives.yaml: grad * at::isfinite(self), a product with a bool mask)
        a, = ctx.saved_tensors
        return grad * Tensor(np.isfinite(a._data)), None, None, None


# ------------------------------------------------------------------ three tensors: lerp, addcmul, addcdiv
def _same_float_dtype(a, other, name):
    """lerp wants ``end`` (and a ``weight`` with dims) in ``x``'s dtype (PyTorch's check and message)."""
    if isinstance(other, Tensor) and (other._data.ndim or name == "end") and other._data.dtype != a._data.dtype:
        raise RuntimeError(f"expected dtype {C_NAMES[a._data.dtype.name]} for `{name}` but got dtype "
                           f"{C_NAMES[other._data.dtype.name]}")


class Lerp(Op):
    """``x.lerp(end, weight)``: ``x + weight * (end - x)``, computed as PyTorch does (from ``end``'s side
    when ``weight >= 0.5``, so that ``weight = 1`` gives ``end`` exactly).

    d/dx = 1 - weight, d/d(end) = weight, d/d(weight) = end - x (a number weight: ``LerpBackward0``,
    a tensor weight: ``LerpBackward1``); each summed back to its input's shape.
    """
    node_name = "LerpBackward0"

    @staticmethod
    def forward(ctx, a, end, weight):
        w = weight._data if isinstance(weight, Tensor) else np.asarray(weight, a._data.dtype)
        x, e = a._data, end._data
        need = ctx.needs_input_grad
        if isinstance(weight, Tensor):  # PyTorch saves only what the wanted gradients need
            ctx.save_for_backward(a if need[2] else None, end if need[2] else None, weight if need[0] or need[1] else None)
        ctx.number = None if isinstance(weight, Tensor) else weight  # a number weight: nothing is saved
        out = np.where(np.abs(w) < 0.5, x + w * (e - x), e - (e - x) * (1 - w))
        weights = (w,) if isinstance(weight, Tensor) else ()  # (a number weight is no operand of PyTorch's TensorIterator)
        return Tensor(laid_out(np.asarray(out, dtype=x.dtype), x, e, *weights))  # (strides as PyTorch's TensorIterator)

    @staticmethod
    def backward(ctx, grad):
        a, end, w = ctx.saved_tensors if ctx.number is None else (None, None, ctx.number)
        need = ctx.needs_input_grad
        if ctx.number is not None:  # (PyTorch: grad * (1 - weight) and grad * weight, plain numbers)
            return (MulScalar.apply(grad, 1 - w) if need[0] else None,
                    MulScalar.apply(grad, w) if need[1] else None, None)
        return (grad * filled(1, w).sub_(w) if need[0] else None,
                grad * w if need[1] else None,
                grad * (end - a) if ctx.number is None and need[2] else None)


class LerpTensor(Lerp):
    node_name = "LerpBackward1"


def lerp(a, end, weight):
    from .promotion import broadcast_shape
    if not a.dtype.is_floating_point:  # (PyTorch's kernels are for floats only)
        kernel = "lerp_kernel_tensor" if isinstance(weight, Tensor) else "lerp_kernel_scalar"
        raise NotImplementedError(f'"{kernel}" not implemented for \'{_TYPE_NAMES[a.dtype.name]}\'')
    for other, name in ((end, "end"), (weight, "weight")):
        _same_float_dtype(a, other, name)
    broadcast_shape(a, end)
    if isinstance(weight, Tensor):
        broadcast_shape(Tensor(np.empty(broadcast_shape(a, end))), weight)
        return LerpTensor.apply(a, end, weight)
    return Lerp.apply(a, end, weight)


class Addcmul(Op):
    """``x.addcmul(t1, t2, value=1)``: ``x + value * t1 * t2``.

    d/dx = 1, d/d(t1) = grad * t2 * value, d/d(t2) = grad * t1 * value, each summed back to its input's shape.
    """
    node_name = "AddcmulBackward0"

    @staticmethod
    def forward(ctx, a, t1, t2, value):
        need = ctx.needs_input_grad
        ctx.save_for_backward(t2 if need[1] else None, t1 if need[2] else None)
        ctx.value = value
        dtype = _three_dtype(a, t1, t2)
        out = np.asarray(a._data + np.asarray(value, dtype) * t1._data * t2._data, dtype=dtype)
        return Tensor(laid_out(out, a._data, t1._data, t2._data))  # (strides as PyTorch's TensorIterator)

    @staticmethod
    def backward(ctx, grad):
        t2, t1 = ctx.saved_tensors
        need = ctx.needs_input_grad
        return (grad if need[0] else None,
                grad * MulScalar.apply(t2, ctx.value) if need[1] else None,
                grad * MulScalar.apply(t1, ctx.value) if need[2] else None, None)


def no_integer_division(a, t1, t2, value=None):
    """addcdiv refuses two integer tensors, before it looks at the shapes (``addcdiv_`` too: ops/inplace.py calls
    this as ``Addcdiv.check_in_place_arguments``)."""
    if all(isinstance(t, Tensor) and t._data.dtype.kind in "iub" for t in (t1, t2)):
        raise RuntimeError("Integer division with addcdiv is no longer supported, and in a future  release addcdiv "
                           "will perform a true division of tensor1 and tensor2. The historic addcdiv behavior can be "
                           "implemented as (input + value * minigrad.trunc(tensor1 / tensor2)).to(input.dtype) for "
                           "integer inputs and as (input + value * tensor1 / tensor2) for float inputs. The future "
                           "addcdiv behavior is just the latter implementation: (input + value * tensor1 / tensor2), "
                           "for all dtypes.")


class Addcdiv(Op):
    """``x.addcdiv(t1, t2, value=1)``: ``x + value * t1 / t2``.

    d/dx = 1, d/d(t1) = grad * value / t2, d/d(t2) = -grad * value * t1 / t2^2, each summed back.
    """
    node_name = "AddcdivBackward0"
    check_in_place_arguments = staticmethod(no_integer_division)

    @staticmethod
    def forward(ctx, a, t1, t2, value):
        ctx.save_for_backward(t1 if ctx.needs_input_grad[2] else None, t2)  # (t1: for t2's gradient only)
        ctx.value = value
        dtype = _three_dtype(a, t1, t2)
        out = np.asarray(a._data + np.asarray(value, dtype) * (t1._data / t2._data), dtype=dtype)
        return Tensor(laid_out(out, a._data, t1._data, t2._data))  # (strides as PyTorch's TensorIterator)

    @staticmethod
    def backward(ctx, grad):
        t1, t2 = ctx.saved_tensors
        need = ctx.needs_input_grad
        return (grad if need[0] else None,
                grad * filled(ctx.value, t2).div_(t2) if need[1] else None,  # (an integer t2: the error)
                -grad * (MulScalar.apply(t1, ctx.value) / (t2 * t2)) if need[2] else None, None)


def _three_dtype(a, t1, t2):
    """The result dtype of three operands: PyTorch's promotion of ``a`` and ``t1``, then with ``t2``."""
    from .promotion import result_type
    first = Tensor(np.empty((1,) if a._data.ndim or t1._data.ndim else (), result_type(a, t1).numpy))
    return result_type(first, t2).numpy


def pointwise3(fn, a, t1, t2, value):
    """``addcmul`` / ``addcdiv``: the three shapes broadcast (PyTorch's error otherwise)."""
    from .promotion import broadcast_shape
    broadcast_shape(Tensor(np.empty(broadcast_shape(a, t1))), t2)
    if fn is Addcmul and _three_dtype(a, t1, t2) == np.bool_:
        raise NotImplementedError("\"addcmul_cpu_out\" not implemented for 'Bool'")
    if fn is Addcdiv:
        no_integer_division(a, t1, t2)
    return fn.apply(a, t1, t2, value)


# ------------------------------------------------------------------ divide(..., rounding_mode=)
class DivRounded(Op):
    """``x.div(y, rounding_mode="floor" | "trunc")``: PyTorch's derivative of a rounded quotient is 0
    (``DivBackward2``).  It keeps ``other`` (and ``self`` when ``other`` needs a gradient), as PyTorch's node does,
    and reads them in backward (a changed one is an error there, as in PyTorch)."""
    node_name = "DivBackward2"
    saved_names = {"other": 0, "self": 1, "rounding_mode": "mode"}  # (grad_fn._saved_*)

    @staticmethod
    def forward(ctx, a, b, mode):
        ctx.save_for_backward(b, a if ctx.needs_input_grad[1] else None)  # (other: both formulas name it)
        ctx.mode, ctx.shapes = mode, (a._data.shape, b._data.shape)
        x, y = operands(a, b)
        no_bool_kernel(f"div_{mode}_cpu", x, y)
        if x.dtype.kind in "iub" and y.dtype.kind in "iub" and (y == 0).any():
            raise RuntimeError("ZeroDivisionError")
        q = np.floor_divide(x, y)
        if mode == "trunc":  # towards zero: one more than the floor where the exact quotient is negative
            q = np.trunc(np.true_divide(x, y)) if q.dtype.kind == "f" else q + ((x % y != 0) & ((x < 0) != (y < 0)))
        return result(a, b, q)

    @staticmethod
    def backward(ctx, grad):
        ctx.saved_tensors  # (PyTorch unpacks them, checking their versions, before it makes the zeros)
        sa, sb = ctx.shapes
        return (grad.new_zeros(sa) if ctx.needs_input_grad[0] else None,
                grad.new_zeros(sb) if ctx.needs_input_grad[1] else None, None)
