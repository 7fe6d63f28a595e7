"""Elementwise ops: each a Function with its forward and backward side by side.

forward works on numpy arrays (``x._data``) and returns a new Tensor; backward works on Tensors
with minigrad's own ops, so that ``create_graph=True`` records the backward pass too and gives
higher-order gradients.  Broadcasting: the engine sums each gradient back to its input's shape (``validate_outputs``).
"""
import numpy as np

from .. import _dtype
from .dispatch import Op, elementwise, with_number
from .._core.tensor_base import TensorBase as Tensor
from ._fast import keep_or_zero
from .._core.layout import cast, laid_out
from ._util import NoEdge, alpha_check, check_not_bool, constant, float_data, rounded_once, sigmoid_numbers
from .promotion import as_operand, broadcast_shape, operands, result, result_type
from . import zerotensor


class Add(Op):
    """``a + alpha * b`` (``alpha`` is 1 for ``a + b``; ``a.add(b, alpha=2)`` keeps it in the node)."""
    node_name = "AddBackward0"
    saved_names = {"alpha": "alpha"}  # (grad_fn._saved_*)

    @staticmethod
    def forward(ctx, a, b, alpha=1):
        ctx.alpha = alpha
        return elementwise(np.add, a, b, alpha)

    @staticmethod
    def backward(ctx, grad):
        gb = None
        if ctx.needs_input_grad[1]:
            gb = grad if ctx.alpha == 1 else MulScalar.apply(grad, ctx.alpha)  # (PyTorch: maybe_multiply)
        return (grad if ctx.needs_input_grad[0] else None), gb, None


class Sub(Op):
    """``a - alpha * b``."""
    node_name = "SubBackward0"
    saved_names = {"alpha": "alpha"}  # (grad_fn._saved_*)

    @staticmethod
    def forward(ctx, a, b, alpha=1):
        check_not_bool(a, b, "Subtraction")
        ctx.alpha = alpha
        return elementwise(np.subtract, a, b, alpha)

    @staticmethod
    def backward(ctx, grad):
        gb = None
        if ctx.needs_input_grad[1]:
            gb = -grad if ctx.alpha == 1 else MulScalar.apply(-grad, ctx.alpha)
        return (grad if ctx.needs_input_grad[0] else None), gb, None


class Rsub(Op):
    """``2 - x``: PyTorch records it as ``RsubBackward1`` with one edge (the number has none)."""
    node_name = "RsubBackward1"

    @staticmethod
    def forward(ctx, a, number):
        check_not_bool(a, number, "Subtraction")
        out = np.asarray(number - a._data, dtype=result_type(a, number).numpy)  # 0.5 - int: float32
        return Tensor(laid_out(out, a._data, np.asarray(number)))  # (laid out as x beside a wrapped number)

    @staticmethod
    def backward(ctx, grad):
        return -grad, None


class Mul(Op):
    node_name = "MulBackward0"
    saved_names = {"other": 0, "self": 1}  # (grad_fn._saved_*)

    @staticmethod
    def forward(ctx, a, b):
        need_a, need_b = ctx.needs_input_grad
        ctx.save_for_backward(b if need_a else None, a if need_b else None)  # (each only if the other needs it)
        return elementwise(np.multiply, a, b)

    @staticmethod
    def backward(ctx, grad):
        b, a = ctx.saved_tensors
        return (grad * b if ctx.needs_input_grad[0] else None,
                grad * a if ctx.needs_input_grad[1] else None)


class MulScalar(Op):
    """``tensor * number`` where the number is a constant of a formula (PyTorch: ``MulBackward1``).

    Python code like ``x * 2`` records ``MulBackward0`` with a ``(None, 0)`` edge for the 2; the
    backward formulas written inside PyTorch multiply by a plain number, which is this node.
    """
    node_name = "MulBackward1"
    saved_names = {"other": "number"}  # (grad_fn._saved_other: the number itself)

    @staticmethod
    def forward(ctx, a, number):
        ctx.number = number
        return with_number(np.multiply, a, number)

    @staticmethod
    def backward(ctx, grad):
        return MulScalar.apply(grad, ctx.number), None


class AddScalar(Op):
    """``tensor + number`` inside a formula written in PyTorch's C++ (``AddBackward1``: one edge, see MulScalar)."""
    node_name = "AddBackward1"

    @staticmethod
    def forward(ctx, a, number):
        return with_number(np.add, a, number)

    @staticmethod
    def backward(ctx, grad):
        return grad, None


class DivScalar(Op):
    """``tensor / number`` inside a formula written in PyTorch's C++ (``DivBackward1``). d/da = grad / number."""
    node_name = "DivBackward1"

    @staticmethod
    def forward(ctx, a, number):
        ctx.number = number
        return Tensor(np.asarray(a._data / np.asarray(number, a._data.dtype)))

    @staticmethod
    def backward(ctx, grad):
        return DivScalar.apply(grad, ctx.number), None


class Div(Op):
    node_name = "DivBackward0"
    saved_names = {"other": 0, "self": 1}  # (grad_fn._saved_*, in the order PyTorch unpacks them)

    @staticmethod
    def forward(ctx, a, b):
        ctx.save_for_backward(b, a if ctx.needs_input_grad[1] else None)
        return elementwise(np.true_divide, a, b)

    @staticmethod
    def backward(ctx, grad):
        b, a = ctx.saved_tensors
        return (grad / b if ctx.needs_input_grad[0] else None,
                -grad * ((a / b) / b) if ctx.needs_input_grad[1] else None)  # (PyTorch's order)


class DivMode(Div):
    """``x.div(y, rounding_mode=None)``: true division, as ``x / y``, but PyTorch's other overload (``div.Tensor_mode``)
    records ``DivBackward2``, which also keeps the mode (``grad_fn._saved_rounding_mode``)."""
    node_name = "DivBackward2"
    saved_names = {"other": 0, "self": 1, "rounding_mode": "mode"}  # (grad_fn._saved_*)

    @staticmethod
    def forward(ctx, a, b, mode):
        ctx.mode = mode
        return Div.forward(ctx, a, b)

    @staticmethod
    def backward(ctx, grad):
        return Div.backward(ctx, grad) + (None,)


class Neg(Op):
    node_name = "NegBackward0"

    @staticmethod
    def forward(ctx, a):
        if a.dtype is _dtype.bool_:
            raise RuntimeError("Negation, the `-` operator, on a bool tensor is not supported. If you are trying to "
                               "invert a mask, use the `~` or `logical_not()` operator instead.")
        return Tensor(np.negative(a._data))

    @staticmethod
    def backward(ctx, grad):
        return -grad


class Reciprocal(Op):
    node_name = "ReciprocalBackward0"
    saved_names = {"result": 0}  # (grad_fn._saved_*)

    @staticmethod
    def forward(ctx, a):
        out = Tensor(np.asarray(np.reciprocal(float_data(a))))
        ctx.save_for_backward(out)
        return out

    @staticmethod
    def backward(ctx, grad):
        out, = ctx.saved_tensors
        return -grad * (out * out)


def _pow_float(x, p):
    """``x ** p`` for a float32/float64 array and a number, as PyTorch's CPU kernel computes it
    (aten/src/ATen/native/cpu/PowKernel.cpp, pow_tensor_scalar_kernel): 0.5, -0.5 and -1 go to the
    sqrt, rsqrt (``1 / sqrt(x)``) and reciprocal kernels, 2, 3 and -2 are products
    (``x * x``, ``x * x * x``, ``1 / (x * x)``), other exponents ``std::pow``.  (It matters at the
    edges: ``(-0.0) ** -0.5`` is ``1 / -0.0 = -inf`` and ``(-inf) ** -0.5`` is nan, where C's pow
    gives +inf and 0; and each product rounds.)  minigrad simplifies: for other exponents numpy's
    pow, where PyTorch's vectorised loop uses Sleef's (within an ulp)."""
    if p == 0:  # (PyTorch's pow_out: fill with 1; numpy's pow(x, 0) is 1 too, nan included)
        return laid_out(np.ones(x.shape, x.dtype), x)
    if p == 1:  # (PyTorch's pow_out: a copy)
        return laid_out(x.copy(), x)
    if p == 0.5:
        return np.sqrt(x)
    if p == -0.5:
        return np.asarray(1, x.dtype) / np.sqrt(x)
    if p == -1:
        return np.asarray(1, x.dtype) / x
    if p == 2:
        return x * x
    if p == 3:
        return x * x * x
    if p == -2:
        return np.asarray(1, x.dtype) / (x * x)
    return np.power(x, p)


class Pow(Op):
    """``x ** 2``: a tensor to a fixed number."""
    node_name = "PowBackward0"
    saved_names = {"self": 0, "exponent": "exponent"}  # (grad_fn._saved_*)

    @staticmethod
    def forward(ctx, a, exponent):
        ctx.save_for_backward(a)
        ctx.exponent = exponent
        if isinstance(exponent, int) and exponent < 0 and a._data.dtype.kind in "iub":
            raise RuntimeError("Integers to negative integer powers are not allowed.")
        x = a._data
        if isinstance(exponent, float) and not a.dtype.is_floating_point:
            x = x.astype(np.float32)  # (PyTorch computes in the result's dtype, float32)
        if x.dtype in (np.float32, np.float64) and not isinstance(exponent, bool):
            out = _pow_float(x, exponent)
        else:
            out = np.power(x, exponent)
        return Tensor(np.asarray(out, dtype=out.dtype))

    @staticmethod
    def backward(ctx, grad):
        a, = ctx.saved_tensors
        p = ctx.exponent
        if p == 0:  # PyTorch: zeros_like(self), whatever the gradient (0 * inf would be nan)
            return constant(np.zeros(a._data.shape, grad._data.dtype)), None
        return grad * MulScalar.apply(a ** (p - 1), p), None


class PowTensor(Op):
    """``x ** y`` with both tensors."""
    node_name = "PowBackward1"
    saved_names = {"exponent": 0, "self": 1, "result": 2}  # (grad_fn._saved_*, in the order PyTorch unpacks them)

    @staticmethod
    def forward(ctx, a, b):
        out = result(a, b, np.power(*operands(a, b)))
        ctx.save_for_backward(b, a, out)
        return out

    @staticmethod
    def backward(ctx, grad):
        b, a, out = ctx.saved_tensors
        ga = gb = None
        if ctx.needs_input_grad[0]:  # d(a**b)/da = b * a**(b-1); PyTorch: where(b == 0, 0, grad * (b * a.pow(b - 1)))
            ga = Where.apply(b._data == 0, grad.new_zeros(()), grad * (b * a.pow(SubScalar.apply(b, 1))))
        if ctx.needs_input_grad[1]:
            # d(a**b)/db = a**b * log(a); PyTorch defines it as 0 where a == 0 and b >= 0
            zero = (a == 0).logical_and(b >= 0)  # (tensors: their layout is the result's, as in PyTorch)
            gb = grad * where(zero, grad.new_zeros(()), out * a.to(out.dtype).log())  # (a in the result's dtype)
        return ga, gb


class PowScalarBase(Op):
    """``2 ** x``: a fixed number to a tensor power."""
    node_name = "PowBackward2"
    saved_names = {"self": "base", "exponent": 0, "result": 1}  # (grad_fn._saved_*)

    @staticmethod
    def forward(ctx, base, b):
        dtype = result_type(b, base).numpy  # 0.5 ** int_tensor is float32, 3 ** int_tensor int64
        e = b._data.astype(dtype)
        if e.dtype.kind in "iu":  # an integer to a negative power truncates: 3 ** -1 is 0 (1 and -1 stay)
            p = np.power(np.asarray(base, dtype=dtype), np.maximum(e, 0))
            p = np.where(e < 0, 1 if base == 1 else np.where(e % 2, -1, 1) if base == -1 else 0, p)
            out = np.asarray(p, dtype=dtype)
        else:
            out = np.power(np.asarray(base, dtype=dtype), e)
        out = Tensor(np.asarray(out, order="C"))  # (PyTorch's pow(Scalar, Tensor) makes a row-major result)
        ctx.base = base
        ctx.save_for_backward(b, out)
        return out

    @staticmethod
    def backward(ctx, grad):
        b, out = ctx.saved_tensors
        log_base = float(np.log(ctx.base))
        d_out = MulScalar.apply(out, log_base)  # (PyTorch: grad * (result * log(base)), in this order)
        if ctx.base == 0:  # PyTorch: 0 where the exponent is >= 0 (not 0 * log 0 = nan), else out * log 0
            return None, grad * Where.apply(b._data >= 0, constant(np.zeros((), out._data.dtype)), d_out)
        return None, grad * d_out


class Exp(Op):
    node_name = "ExpBackward0"
    saved_names = {"result": 0}  # (grad_fn._saved_*)

    @staticmethod
    def forward(ctx, a):
        out = Tensor(rounded_once(np.exp, float_data(a)))
        ctx.save_for_backward(out)
        return out

    @staticmethod
    def backward(ctx, grad):
        out, = ctx.saved_tensors
        return grad * out


class Log(Op):
    node_name = "LogBackward0"
    saved_names = {"self": 0}  # (grad_fn._saved_*)

    @staticmethod
    def forward(ctx, a):
        ctx.save_for_backward(a)
        return Tensor(rounded_once(np.log, float_data(a)))

    @staticmethod
    def backward(ctx, grad):
        a, = ctx.saved_tensors
        return grad / a


class Sqrt(Op):
    node_name = "SqrtBackward0"
    saved_names = {"result": 0}  # (grad_fn._saved_*)

    @staticmethod
    def forward(ctx, a):
        out = Tensor(np.sqrt(float_data(a)))
        ctx.save_for_backward(out)
        return out

    @staticmethod
    def backward(ctx, grad):
        out, = ctx.saved_tensors
        return grad / MulScalar.apply(out, 2)  # (PyTorch: grad / (2 * result), a plain number)


class Abs(Op):
    node_name = "AbsBackward0"
    saved_names = {"self": 0}  # (grad_fn._saved_*)

    @staticmethod
    def forward(ctx, a):
        if a.dtype is _dtype.bool_:
            raise NotImplementedError('"abs_cpu" not implemented for \'Bool\'')
        ctx.save_for_backward(a)
        return Tensor(np.abs(a._data))

    @staticmethod
    def backward(ctx, grad):
        a, = ctx.saved_tensors
        return grad * Sgn.apply(a)  # (a differentiable sign, as in PyTorch: second derivatives are 0 with a graph)


class Tanh(Op):
    node_name = "TanhBackward0"
    saved_names = {"result": 0}  # (grad_fn._saved_*)

    @staticmethod
    def forward(ctx, a):
        out = Tensor(rounded_once(np.tanh, float_data(a)))
        ctx.save_for_backward(out)
        return out

    @staticmethod
    def backward(ctx, grad):
        out, = ctx.saved_tensors
        return TanhBackward.apply(grad, out)  # grad * (1 - out**2)


class TanhBackward(Op):
    """tanh's backward formula as one op, ``grad * (1 - out**2)`` (PyTorch: ``tanh_backward``).

    PyTorch records this one node (``TanhBackwardBackward0`` under ``create_graph=True``) rather
    than three; as a Function it has its own backward, the second derivative.
    """
    node_name = "TanhBackwardBackward0"

    @staticmethod
    def forward(ctx, grad, out):
        ctx.save_for_backward(grad, out)
        y = out._data
        return Tensor(laid_out(grad._data * (1 - y * y), grad._data, y))  # (PyTorch's TensorIterator of (grad, out))

    @staticmethod
    def backward(ctx, gg):
        grad, out = ctx.saved_tensors
        return (TanhBackward.apply(gg, out) if ctx.needs_input_grad[0] else None,
                gg * -2 * out * grad if ctx.needs_input_grad[1] else None)


class Sigmoid(Op):
    node_name = "SigmoidBackward0"
    saved_names = {"result": 0}  # (grad_fn._saved_*)

    @staticmethod
    def forward(ctx, a):
        out = Tensor(sigmoid_numbers(float_data(a)))
        ctx.save_for_backward(out)
        return out

    @staticmethod
    def backward(ctx, grad):
        out, = ctx.saved_tensors
        return SigmoidBackward.apply(grad, out)  # grad * (1 - out) * out


class SigmoidBackward(Op):
    """sigmoid's backward formula as one op, ``grad * (1 - out) * out`` (PyTorch: ``sigmoid_backward``)."""
    node_name = "SigmoidBackwardBackward0"

    @staticmethod
    def forward(ctx, grad, out):
        ctx.save_for_backward(grad, out)
        y = out._data
        return Tensor(laid_out(grad._data * (1 - y) * y, grad._data, y))  # (TensorIterator of (grad, out))

    @staticmethod
    def backward(ctx, gg):
        grad, out = ctx.saved_tensors
        return (SigmoidBackward.apply(gg, out) if ctx.needs_input_grad[0] else None,
                gg * grad * (1 - 2 * out) if ctx.needs_input_grad[1] else None)


class Relu(Op):
    """``relu(x) = max(0, x)``; its gradient passes where the output is positive."""
    node_name = "ReluBackward0"
    saved_names = {"result": 0}  # (grad_fn._saved_*)

    @staticmethod
    def forward(ctx, a):
        if a.dtype is _dtype.bool_:
            raise RuntimeError("Boolean inputs not supported for relu")
        out = Tensor(np.maximum(0, a._data))  # (in this order relu(-0.0) is -0.0, as in PyTorch)
        ctx.save_for_backward(out)
        return out

    @staticmethod
    def backward(ctx, grad):
        out, = ctx.saved_tensors
        return ThresholdBackward.apply(grad, out, 0)  # grad where out > 0, else 0


class Threshold(Op):
    """``F.threshold(x, threshold, value)``: ``value`` where ``x <= threshold``, else ``x`` (so a nan stays nan)."""
    node_name = "ThresholdBackward0"

    @staticmethod
    def forward(ctx, a, threshold, value):
        ctx.save_for_backward(a)
        ctx.threshold = threshold
        return Tensor(laid_out(np.where(a._data <= threshold, np.asarray(value, a._data.dtype), a._data), a._data))

    @staticmethod
    def backward(ctx, grad):
        a, = ctx.saved_tensors
        return ThresholdBackward.apply(grad, a, ctx.threshold), None, None


class ThresholdInPlace(Threshold):
    """``F.threshold(x, threshold, value, inplace=True)``: PyTorch names the in-place node ``ThresholdBackward1``."""
    expanded_write = "same_place"  # (ops/inplace.py: each place gets its own new value)
    node_name = "ThresholdBackward1"


class ThresholdBackward(Op):
    """The backward formula of relu and threshold as one op: the gradient, but 0 where ``x <= threshold``
    (PyTorch: ``threshold_backward(grad, x, threshold)``; a nan ``x`` lets the gradient through)."""
    node_name = "ThresholdBackwardBackward0"

    @staticmethod
    def forward(ctx, grad, x, threshold):
        ctx.save_for_backward(x)
        ctx.threshold = threshold
        kept = keep_or_zero(~(x._data <= threshold), grad._data)  # np.where(x <= threshold, 0, grad)
        return Tensor(laid_out(kept, x._data, grad._data))  # (strides as PyTorch's kernel: x's first)

    @staticmethod
    def backward(ctx, gg):
        x, = ctx.saved_tensors
        # d/d(grad): the same mask; d/dx: 0 (the mask does not change smoothly with x), as in PyTorch
        return ThresholdBackward.apply(gg, x, ctx.threshold), constant(np.zeros_like(x._data)), None


class Sign(Op):
    """``sign(x)``: -1, 0 or 1 (0 for nan, as in PyTorch); its derivative is 0 everywhere."""
    node_name = "SignBackward0"

    @staticmethod
    def forward(ctx, a):
        x = a._data
        if x.dtype == bool:  # the sign of True is True
            return Tensor(x.copy(order="K"))  # (laid out as x, as any one-input op's result)
        return Tensor((x > 0).astype(x.dtype) - (x < 0).astype(x.dtype))  # PyTorch: (0 < x) - (x < 0)

    @staticmethod
    def backward(ctx, grad):
        return constant(np.zeros_like(grad._data))


class Sgn(Sign):
    """``sgn(x)``, the same as ``sign`` for real numbers (PyTorch's ``abs`` uses it in its derivative).
    Its gradient is PyTorch's ZeroTensor (``sgn_backward``: zeros never written to memory, zerotensor.py)."""
    node_name = "SgnBackward0"
    saved_names = {"self": 0, "result": 1}  # (grad_fn._saved_*)

    @staticmethod
    def forward(ctx, a):
        out = Sign.forward(ctx, a)
        ctx.save_for_backward(a, out)  # (PyTorch's sgn_backward(self, grad, result) reads them for complex numbers)
        return out

    @staticmethod
    def backward(ctx, grad):
        a, _ = ctx.saved_tensors
        return zerotensor.zeros(a._data.shape, grad._data.dtype)



class Angle(Op):
    """``angle(x)`` of a real number: pi below 0, else 0 (nan stays nan; an integer gives the default float dtype).
    Its derivative is 0: PyTorch's ``angle_backward`` of a real ``x`` is ``zeros_like(x)``."""
    node_name = "AngleBackward0"
    saved_names = {"self": 0}  # (grad_fn._saved_*)

    @staticmethod
    def forward(ctx, a):
        ctx.save_for_backward(a)
        x = float_data(a)
        return Tensor(laid_out(np.where(x < 0, x.dtype.type(np.pi), np.where(x != x, x, 0)).astype(x.dtype), x))

    @staticmethod
    def backward(ctx, grad):
        x, = ctx.saved_tensors
        return constant(laid_out(np.zeros(x._data.shape, x._data.dtype), x._data))

class Clamp(Op):
    node_name = "ClampBackward1"

    @staticmethod
    def forward(ctx, a, lo, hi):
        if lo is None and hi is None:
            raise RuntimeError("minigrad.clamp: At least one of 'min' or 'max' must not be None")
        ctx.save_for_backward(a)
        ctx.bounds = (lo, hi)
        dtype = a.dtype  # PyTorch's type promotion with the bounds: an int tensor clamped to 0.5 is float32
        for bound in (lo, hi):
            if bound is not None:
                dtype = result_type(Tensor(np.zeros(1, dtype.numpy)), bound)
        x = cast(a._data, dtype.numpy)
        out = x if lo is None else np.maximum(lo, x)      # (this order keeps -0.0 as PyTorch does;
        out = out if hi is None else np.minimum(hi, out)  # np.clip would turn it into 0.0)
        return Tensor(np.asarray(out, dtype=dtype.numpy))

    @staticmethod
    def backward(ctx, grad):
        a, = ctx.saved_tensors
        lo, hi = ctx.bounds
        keep = np.ones(a._data.shape, bool)
        if lo is not None:
            keep &= a._data >= lo
        if hi is not None:
            keep &= a._data <= hi
        return grad_where(compared(keep, a), grad), None, None


class Maximum(Op):
    node_name = "MaximumBackward0"

    @staticmethod
    def forward(ctx, a, b):
        ctx.save_for_backward(a, b)
        ctx.keep_larger = True
        x, y = operands(a, b)
        return result(a, b, np.maximum(y, x))  # (for a tie of 0.0 and -0.0 PyTorch returns a)

    @staticmethod
    def backward(ctx, grad):
        # PyTorch's formula (derivatives.yaml): a tie shares the gradient equally; a nan (where neither
        # a < b nor a > b) gives all of it to both. maximum keeps it where a is not smaller, minimum
        # where a is not larger.
        a, b = ctx.saved_tensors
        x, y = operands(a, b)  # (compared as PyTorch's comparisons compare them: in the type of a op b)
        a_loses = x < y if ctx.keep_larger else x > y
        b_loses = x > y if ctx.keep_larger else x < y
        tie = constant(np.broadcast_to(x == y, grad._data.shape))

        def kept(loses):  # (PyTorch builds the shared gradient anew for each input: two WhereBackward0)
            shared = where(tie, DivScalar.apply(grad, 2), grad)
            return shared.masked_fill_(constant(loses), 0)  # (in place, as PyTorch's: where's layout kept)
        return (kept(a_loses) if ctx.needs_input_grad[0] else None,
                kept(b_loses) if ctx.needs_input_grad[1] else None)


class Minimum(Maximum):
    """``minimum(a, b)``, ``a.min(b)``: the smaller of the two (nan if either is); the backward of ``Maximum``."""
    node_name = "MinimumBackward0"

    @staticmethod
    def forward(ctx, a, b):
        ctx.save_for_backward(a, b)
        ctx.keep_larger = False
        x, y = operands(a, b)
        return result(a, b, np.minimum(y, x))


class Where(Op):
    """``where(cond, a, b)``: ``a`` where ``cond`` holds, else ``b``; each gets the gradient of its places."""
    node_name = "WhereBackward0"
    saved_names = {"condition": 0}  # (grad_fn._saved_condition)

    @staticmethod
    def forward(ctx, cond, a, b):
        cond = cond.tensor if isinstance(cond, NoEdge) else Tensor(np.asarray(cond))  # (the condition has no edge)
        ctx.save_for_backward(cond)
        x, y = operands(a, b)  # (both in the result's dtype; laid out as PyTorch's TensorIterator, the condition first)
        return Tensor(laid_out(np.where(cond._data, x, y), cond._data, x, y))

    @staticmethod
    def backward(ctx, grad):
        cond, = ctx.saved_tensors
        return (None,
                Where.apply(NoEdge(cond), grad, zeros_like_grad(grad)) if ctx.needs_input_grad[1] else None,
                Where.apply(NoEdge(cond), zeros_like_grad(grad), grad) if ctx.needs_input_grad[2] else None)


def grad_where(keep, grad):
    """``where(keep, grad, 0)``: the part of a gradient that flows back through a mask.

    PyTorch's formulas write these gradients into zeros, so the other places hold 0.0; ``grad * mask``
    would give -0.0 there for a negative gradient (and nan for an infinite one).
    """
    return Where.apply(np.asarray(keep, bool), grad, zeros_like_grad(grad))


def compared(mask, a):
    """``mask``, numpy's result of comparing ``a`` with numbers, laid out as PyTorch's ``a >= number`` is."""
    return laid_out(mask, a._data, np.zeros(()))


def zeros_like_grad(grad):
    """The 0 of PyTorch's ``where(condition, 0, grad)``: a number, with no edge of its own."""
    return constant(np.zeros((), grad._data.dtype))


def where(condition, input=None, other=None):  # noqa: A002
    """``where(cond, a, b)``: elements of ``a`` where ``cond`` is true, else of ``b``.  ``where(cond)`` alone is
    ``cond.nonzero(as_tuple=True)``, as in PyTorch."""
    from .promotion import as_operand
    from .promotion import broadcast_shape
    if input is None and other is None:
        return condition.nonzero(as_tuple=True)
    if input is None or other is None:
        raise TypeError("where() received an invalid combination of arguments - got (Tensor, Tensor), but expected "
                        "one of:\n * (Tensor condition)\n * (Tensor condition, Tensor input, Tensor other, *, Tensor "
                        "out = None)\n * (Tensor condition, Number self, Tensor other)\n * (Tensor condition, Tensor "
                        "input, Number other)\n * (Tensor condition, Number self, Number other)\n")
    a, b = input, other
    cond = condition._data if isinstance(condition, Tensor) else np.asarray(condition)
    # a number becomes a tensor of b's kind; two numbers take their own promotion (where(c, 1, 2.5) is float32)
    like = b if isinstance(b, Tensor) else Tensor(np.zeros((), result_type(a, b).numpy))
    a = as_operand(a, like)
    b = as_operand(b, a)
    both = broadcast_shape(Tensor(cond), a)  # PyTorch's error when the three shapes do not broadcast
    broadcast_shape(Tensor(np.empty(both)), b)
    if isinstance(condition, Tensor) and cond.dtype == np.bool_:  # (saved: changed in place, backward raises)
        return Where.apply(NoEdge(condition), a, b)
    return Where.apply(cond if cond.dtype == np.bool_ else cast(cond, np.bool_), a, b)  # (its layout kept: the result's)


def filled(number, like):
    """``number - tensor`` or ``number / tensor`` inside a formula written in PyTorch's C++: PyTorch fills
    a tensor like ``like`` with the number and subtracts or divides in place (``SubBackward0`` /
    ``DivBackward0`` with a ``(None, 0)`` edge; dividing an integer one raises), so formulas write
    ``filled(1.0, s).sub_(s)``; Python's ``1 - s`` is ``RsubBackward1``."""
    return Tensor(np.full_like(like._data, number))


class SubScalar(Op):
    """``tensor - number`` inside a formula written in PyTorch's C++ (``SubBackward1``: one edge, see MulScalar)."""
    node_name = "SubBackward1"

    @staticmethod
    def forward(ctx, a, number):
        # PyTorch's at::sub refuses a bool tensor here too (pow's backward computes exponent - 1 of a bool exponent)
        check_not_bool(a, number, "Subtraction")
        return Tensor(np.asarray(a._data - np.asarray(number, a._data.dtype)))

    @staticmethod
    def backward(ctx, grad):
        return grad, None


class ToCopy(Op):
    """``x.to(minigrad.float64)``: a copy with another dtype; the gradient is cast back."""
    node_name = "ToCopyBackward0"

    @staticmethod
    def forward(ctx, a, dtype):
        ctx.dtype = a.dtype
        return Tensor(cast(a._data, dtype.numpy))

    @staticmethod
    def backward(ctx, grad):
        return grad.to(ctx.dtype), None


class Clone(Op):
    node_name = "CloneBackward0"

    @staticmethod
    def forward(ctx, a, order="K"):
        """``order`` is numpy's: ``"C"`` is row-major (``contiguous_format``), ``"K"`` is PyTorch's
        ``preserve_format``: a dense input's strides are kept, any other input's dims keep their order
        (PyTorch's ``infer_dense_strides``: an expanded dim stays where it is)."""
        x = a._data
        if order == "C":
            return Tensor(x.copy(order="C"))
        return Tensor(cast(x))

    @staticmethod
    def backward(ctx, grad):
        return grad, None


class Fill(Op):
    """``x.fill_(v)``: the old values get no gradient."""
    expanded_write = "fill"  # (what PyTorch lets it write into an expanded tensor: ops/inplace.py)
    node_name = "FillBackward2"

    @staticmethod
    def forward(ctx, a, value):
        return Tensor(np.full_like(a._data, value._data if isinstance(value, Tensor) else value))

    @staticmethod
    def backward(ctx, grad):
        return constant(np.zeros_like(grad._data)), None  # PyTorch: zeros_like(grad) (0 * inf would be nan)


class Zero(Fill):
    """``x.zero_()``."""
    expanded_write = "fill"  # (ops/inplace.py: it may write into an expanded tensor)
    node_name = "ZeroBackward0"


class CopyFrom(Op):
    """``x.copy_(src)``: x takes src's values (broadcast, cast to x's dtype)."""
    node_name = "CopyBackwards"

    @staticmethod
    def forward(ctx, a, src):
        src_data = src._data if isinstance(src, Tensor) else np.asarray(src)
        if isinstance(src, Tensor) and src_data.shape != a._data.shape:
            from ._util import is_expandable_to
            from .promotion import broadcast_shape
            if not is_expandable_to(src_data.shape, a._data.shape):
                broadcast_shape(a, src)  # PyTorch's "The size of tensor a (3) must match ..."
        return Tensor(np.array(np.broadcast_to(src_data, a._data.shape), dtype=a._data.dtype))

    @staticmethod
    def backward(ctx, grad):
        g_src = grad if ctx.needs_input_grad[1] else None  # (the engine sums it to src's shape, in src's dtype)
        return constant(np.zeros_like(grad._data)) if ctx.needs_input_grad[0] else None, g_src  # (zeros_like(grad))


# ------------------------------------------------------------------ clamp_min / clamp_max
class ClampMin(Op):
    """``max(x, lo)``: the gradient passes where ``x >= lo``."""
    node_name = "ClampMinBackward0"

    @staticmethod
    def forward(ctx, a, lo):
        ctx.save_for_backward(a)
        ctx.lo = lo
        b = as_operand(lo, a)
        x, y = operands(a, b)
        return Tensor(laid_out(result(a, b, np.maximum(y, x))._data, a._data))  # (lo first: -0.0 stays, as in PyTorch;
        # laid out as a unary op: PyTorch's clamp_min(Scalar) has no second operand)

    @staticmethod
    def backward(ctx, grad):
        a, = ctx.saved_tensors
        return grad_where(compared(a._data >= ctx.lo, a), grad), None


class ClampMax(Op):
    """``min(x, hi)``: the gradient passes where ``x <= hi``."""
    node_name = "ClampMaxBackward0"

    @staticmethod
    def forward(ctx, a, hi):
        ctx.save_for_backward(a)
        ctx.hi = hi
        b = as_operand(hi, a)
        x, y = operands(a, b)
        return Tensor(laid_out(result(a, b, np.minimum(y, x))._data, a._data))  # (a unary op's layout, as clamp_min)

    @staticmethod
    def backward(ctx, grad):
        a, = ctx.saved_tensors
        return grad_where(compared(a._data <= ctx.hi, a), grad), None


def binary(fn, a, b, alpha=1):
    """Apply a two-tensor op to tensor ``a`` and ``b``; a Python number ``b`` becomes a 0-dim tensor
    without gradient (as in PyTorch)."""
    if fn is Sub:  # (before a Python bool becomes an integer tensor: PyTorch refuses it as a bool)
        check_not_bool(a, b, "Subtraction")
    b = as_operand(b, a)
    if b._data.shape != a._data.shape and b._data.ndim:  # (a number, or the same shape: nothing to check)
        broadcast_shape(a, b)  # raises PyTorch's error when the shapes don't broadcast
    if fn in (Add, Sub) and type(alpha) is not int:  # (any dtype takes an integer alpha)
        alpha_check(result_type(a, b), alpha)
    return fn.apply(a, b) if alpha == 1 else fn.apply(a, b, alpha)
