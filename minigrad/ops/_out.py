"""``out=``: ``torch.mul(a, b, out=c)`` writes the product into ``c`` and returns ``c``.

PyTorch has an ``.out`` overload of most ops (``mul.out``, ``matmul.out`` ...).  They are not
differentiable, so with grad mode on none of the tensors involved may require grad.  ``out`` keeps
its dtype (the result must fit it, as for an in-place op) and takes the result's shape and layout:
silently when it has no elements, with a deprecation warning when it had some.  minigrad computes the result
as usual, without recording, and copies it into ``out``.
"""
import warnings

import numpy as np

from .._dtype import can_cast
from .._core.layout import contiguous_strides, empty_strided, preserve_format_strides
from ..autograd import grad_mode
from .._core.tensor_base import _TYPE_NAMES, TensorBase as Tensor
from .inplace import SHARED_PLACE, check_fits, has_internal_overlap  # (an in-place op's rules and messages)

RESIZED = ("An output with one or more elements was resized since it had shape {old}, which does not match the "
           "required output shape {new}. This behavior is deprecated, and in a future PyTorch release outputs will "
           "not be resized unless they have zero elements. You can explicitly reuse an out tensor t by resizing it, "
           "inplace, to zero elements with t.resize_(0). (Triggered internally at "
           "/__w/pytorch/pytorch/aten/src/ATen/native/Resize.cpp:30.)")


def write_out(name, out, inputs, compute, cast_error=None, elementwise=True):
    """The result of ``compute()`` written into ``out`` (``name`` and ``inputs`` are for the checks;
    ``cast_error``: the TypeError's message when the result does not fit, for ops that say it so).

    An ``out`` that must be resized is laid out as PyTorch lays it out: like the result for an elementwise op
    (its TensorIterator restrides ``out``), row-major for the others (reductions, products, cat, stack)."""
    if not isinstance(out, Tensor):
        raise TypeError(f"{name}(): argument 'out' must be Tensor, not {type(out).__name__}")
    tensors = [t for t in inputs if isinstance(t, Tensor)] + [out]
    if grad_mode.is_grad_enabled() and any(t.requires_grad for t in tensors):
        raise RuntimeError(f"{name}(): functions with out=... arguments don't support automatic differentiation, "
                           "but one of the arguments requires grad.")
    with grad_mode.no_grad():
        result = compute()
    want = out._data.dtype
    if cast_error and not can_cast(result._data.dtype, want):
        raise TypeError(cast_error.format(_TYPE_NAMES[want.name]))
    check_fits(out, result)
    if has_internal_overlap(out._data):  # (an expanded out: its elements share places)
        raise RuntimeError(SHARED_PLACE)
    if out._data.shape != result._data.shape:  # out takes the result's shape
        if out._data.size:
            warnings.warn(RESIZED.format(old=list(out._data.shape), new=list(result._data.shape)), UserWarning,
                          stacklevel=3)
        shape = result._data.shape
        strides = preserve_format_strides(result._data, want.itemsize) if elementwise else contiguous_strides(
            shape, want.itemsize)
        out._data = empty_strided(shape, strides, want)
    np.copyto(out._data, result._data, casting="unsafe")
    out._vc[0] += 1  # written in place: a new version, as for add_
    return out
