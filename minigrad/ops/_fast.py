"""The few measured speed-ups of minigrad, kept out of the code the notebooks show.

Each function here computes exactly what its docstring's plain numpy line computes, bit for bit
(-0.0, inf and nan included; tests/test_fast.py checks it), only with less work.  The ops call
them by these names and can be read as if the plain line stood there.  Why each one is faster is
said here and nowhere else; ``make bench`` measures what they are worth.
"""
import numpy as np

from .._dtype import is_expandable_to
from .dispatch import kernel_mode


def keep_or_zero(keep, g):
    """``np.where(keep, g, 0)``: the gradient where ``keep`` is true, +0.0 elsewhere.

    PyTorch writes such gradients into zeros (``threshold_backward``, ``where``, ``masked_fill``).
    ``np.where`` branches per element and is slow for a random mask on a big array, and
    ``g * keep`` is not the same thing (a negative gradient times 0 is -0.0, inf times 0 is nan).
    So this keeps or clears the *bits* of each number: AND with all ones keeps it exactly, AND
    with all zeros gives +0.0.  About 3x faster than ``np.where`` on a (256, 512) float32 array.
    """
    bits = np.dtype(f"u{g.dtype.itemsize}")   # an unsigned integer type of the same size
    mask = np.negative(keep.astype(bits))      # 0 - 1 wraps around to all ones; 0 stays 0
    return np.bitwise_and(g.view(bits), mask).view(g.dtype)


def column_major(t):
    """Is this matrix tensor stored column by column, like ``weight.t()`` in ``nn.Linear``?
    (PyTorch's test, on the strides: a (1, 1) matrix or a row of a column counts too.)"""
    if t._data.ndim != 2:
        return False
    (rows, _), (s0, s1) = t._data.shape, t.stride()
    return s0 == 1 and s1 == rows


def mm_mat2_backward(grad, mat1, mat2_column_major):
    """``mat1.t().mm(grad)``: the gradient of ``mat2`` in ``mat1 @ mat2``, in ``mat2``'s own layout.

    PyTorch's ``mm_mat2_backward`` does the same: for a column-major ``mat2`` it computes
    ``(grad.t() @ mat1).t()``, the same numbers already laid out like ``mat2``.  In ``nn.Linear``
    (``mat2 = weight.t()``) the weight's gradient is then a row-major matrix after ``TBackward0``:
    no strided matrix product and no reordering copy when it lands in ``weight.grad``.  (The
    products may round differently from the plain line by the order of their sums, as in
    PyTorch; with exactly representable sums they are equal bit for bit.)
    """
    if mat2_column_major:
        return grad.t().mm(mat1).t()
    return mat1.t().mm(grad)


def add_bias(product, bias):
    """``product + bias`` for the result of ``x @ w_t`` in ``addmm``: added into ``product`` itself.

    ``product`` is a fresh array nobody else holds, so adding in place spares a second
    (batch x out) array per layer, which is most of the allocator's work in an MLP step.
    """
    if product.dtype == np.result_type(product, bias) and is_expandable_to(bias.shape, product.shape):
        product += bias
        return product
    return product + bias


def update_in_place(data, ufunc, other, alpha=1):
    """``np.copyto(data, ufunc(data, alpha * other), casting="unsafe")``, for ufunc add, subtract, multiply, divide.

    An optimizer's ``p.add_(g, alpha=-lr)`` under ``no_grad``: the ufunc writes its result
    straight into ``data`` (no temporary result array and no copy back).
    """
    with kernel_mode():  # (numpy quiet about inf and nan, as PyTorch's kernels)
        ufunc(data, other if alpha == 1 else other * alpha, out=data, casting="unsafe")
