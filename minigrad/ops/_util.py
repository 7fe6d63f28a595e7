"""Helpers the ops share: dims, broadcasting, dtypes of mixed operands."""
import numpy as np
# Lines that run for every op write `ndarray`, not `np.ndarray`: numpy's module defines a
# `__getattr__`, and for such a module Python 3.11 does not cache attribute lookups, so every
# `np.ndarray` is a full lookup (about as long as a small function call).
from numpy import asarray, ndarray

from .. import _dtype
from ..tensor import Tensor, _wrap_dim  # noqa: F401  (re-exported for the op files)

# The tensors that the float numbers of a program become, one per (number, dtype).  PyTorch makes
# a new one for each `x * 0.5`; minigrad keeps them: nothing outside the op ever sees such a
# tensor (its node saves only its value, see save_value, and hands out copies), and skipping a new
# array and Tensor per op saved 3 % of the small-op benchmark's work (bench/instructions.py).
# Their numbers are read-only, so no mistake can change the 0.5 of later ops.
_NUMBERS = {}


def as_operand(x, like):
    """A Python number next to a tensor becomes a 0-dim tensor that needs no gradient (as in PyTorch).

    It gets the dtype of the result (``float32_tensor * 2`` stays float32), so that it shows up
    in ``next_functions`` as ``(None, 0)`` exactly like PyTorch's wrapped numbers.
    """
    if isinstance(x, Tensor):
        return x
    if isinstance(x, ndarray):
        return Tensor(x)
    dtype = like._data.dtype
    if type(x) is float and dtype.kind == "f":  # the common case: x * 0.5 keeps x's dtype
        t = _NUMBERS.get((x, dtype))
        if t is not None:
            return t
        t = _wrap(asarray(x, dtype))
        if x and x == x and len(_NUMBERS) < 1000:  # (not 0.0: -0.0 == 0.0 would share it; not nan)
            t._data.flags.writeable = False
            _NUMBERS[x, dtype] = t
        return t
    return _wrap(np.asarray(x, dtype=_dtype.result_type(like, x).numpy))


def _wrap(array):
    t = Tensor(array)
    t._wrapped_number = True  # PyTorch marks these too (TensorImpl::is_wrapped_number)
    return t


def result(a, b, out):
    """Cast numpy's result to PyTorch's result dtype when the operands' dtypes differ."""
    if a._data.dtype == b._data.dtype:
        return Tensor(out)
    return Tensor(np.asarray(out, dtype=_dtype.result_type(a, b).numpy))


def broadcast_shape(a, b):
    """The broadcast shape of two tensors, with PyTorch's error message when there is none."""
    sa, sb = a._data.shape, b._data.shape
    if sa == sb:
        return sa
    n = max(len(sa), len(sb))
    pa, pb = (1,) * (n - len(sa)) + sa, (1,) * (n - len(sb)) + sb
    for i, (x, y) in enumerate(zip(pa, pb)):
        if x != y and x != 1 and y != 1:
            raise RuntimeError(f"The size of tensor a ({x}) must match the size of tensor b ({y}) at non-singleton "
                               f"dimension {i}")
    return tuple(max(x, y) if 0 not in (x, y) else 0 for x, y in zip(pa, pb))


def is_expandable_to(shape, desired):
    """Can a tensor of ``shape`` be broadcast to ``desired``?"""
    if len(shape) > len(desired):
        return False
    for s, d in zip(reversed(shape), reversed(desired)):
        if s != d and s != 1:
            return False
    return True


def sum_to(t, shape):
    """Sum a broadcast gradient back to ``shape`` (PyTorch: ``sum_to_size``); differentiable."""
    if t._data.shape == shape:  # (the usual case: nothing was broadcast)
        return t
    shape = tuple(shape)
    if t._data.shape == shape:
        return t
    lead = t._data.ndim - len(shape)
    dims = tuple(range(lead)) + tuple(lead + i for i, s in enumerate(shape)
                                      if s == 1 and t._data.shape[lead + i] != 1)
    out = t.sum(dims, keepdim=True) if dims else t
    return out.view(shape) if out._data.shape != shape else out


def dims_arg(dim, ndim):
    """``dim`` as a sorted tuple of non-negative ints (it may be an int, a tuple or a list)."""
    if isinstance(dim, (tuple, list)):
        return tuple(sorted(_wrap_dim(d, ndim) for d in dim))
    return (_wrap_dim(dim, ndim),)


def keep_or_zero(keep, g):
    """``np.where(keep, g, 0)``: the gradient where ``keep`` is true, +0.0 elsewhere.

    PyTorch writes such gradients into zeros (``threshold_backward``, ``where``, ``masked_fill``).
    ``np.where`` is slow on big arrays with a random mask, and ``g * keep`` is not the same (a negative
    gradient times 0 is -0.0, inf times 0 is nan).  So this keeps or clears the *bits* of each number:
    AND with all ones keeps it exactly (-0.0, inf and nan included), AND with all zeros gives +0.0.
    """
    bits = np.dtype(f"u{g.dtype.itemsize}")        # an unsigned integer type of the same size
    mask = np.negative(keep.astype(bits))           # 0 - 1 wraps around to all ones; 0 stays 0
    return np.bitwise_and(g.view(bits), mask).view(g.dtype)


def constant(array):
    """A tensor that needs no gradient (masks, one-hots) for use inside backward formulas."""
    return Tensor(np.asarray(array))
