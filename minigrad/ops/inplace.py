"""In-place ops (``add_``, ``mul_``, ``zero_``, ``x[i] = v``, ``p -= lr * g`` ...).

Under ``no_grad`` (optimizer steps) an in-place op just overwrites the numbers and bumps the
version counter.  With grad mode on, PyTorch records it in the graph: the tensor's ``grad_fn``
becomes the in-place op's node (``AddBackward0`` for ``add_``).  minigrad does the same by running
the out-of-place op on a snapshot of the old values and then moving the result into the tensor.

What PyTorch forbids, minigrad forbids with the same words: in-place changes to a leaf that
requires grad while recording.  PyTorch also rewrites the graph of a *base* tensor when one of
its views is changed in place (``CopySlices``); minigrad refuses that case with a clear error.
"""
import numpy as np

from .._dtype import is_expandable_to
from ..autograd import grad_mode
from ..autograd.function import SavedTensor
from ..tensor import Tensor
from ._fast import update_in_place
from .elementwise import Add, CopyFrom, Div, Mul, Sub

_UFUNCS = {Add: np.add, Sub: np.subtract, Mul: np.multiply, Div: np.true_divide}  # (for update_in_place)


def inplace(t, fn, *args):
    """``t.add_(x)`` and friends: ``t`` takes the values of ``fn(t, *args)``, and its place in the graph."""
    recording = grad_mode.is_grad_enabled() and (
        t.requires_grad or any(isinstance(a, Tensor) and a.requires_grad for a in args))
    if not recording:  # under no_grad (an optimizer step) or without gradients: only the numbers change
        _set_values(t, fn, args)
        t._vc[0] += 1
        return t

    if t.requires_grad and t.grad_fn is None:
        raise RuntimeError("a leaf Variable that requires grad is being used in an in-place operation.")
    base = t._base
    if base is not None and base.requires_grad and base.grad_fn is None:
        raise RuntimeError("a view of a leaf Variable that requires grad is being used in an in-place operation.")
    if base is not None and (base.requires_grad or t.requires_grad):
        raise NotImplementedError(
            "minigrad does not record in-place changes to a view of a tensor that requires grad "
            "(PyTorch rewrites the base's graph with CopySlices). Work on a clone(), or do it under no_grad().")
    snapshot = Tensor(t._data.copy())  # the old values, with the old place in the graph
    snapshot.grad_fn, snapshot._output_nr, snapshot._requires_grad = t.grad_fn, t._output_nr, t.requires_grad
    out = fn.apply(snapshot, *args)
    _write(t, out)
    t._vc[0] += 1
    t.grad_fn, t._output_nr, t._requires_grad = out.grad_fn, 0, True
    for s in out.grad_fn._saved:  # what the node saved of its output is now `t`
        if s is not None and s.tensor is None and s.data is out._data:
            s.vc, s.version, s.data = t._vc, t._vc[0], t._data
    return t


def _set_values(t, fn, args):
    """Write ``fn(t, *args)`` into ``t`` without recording anything."""
    other = args[0] if args else None
    if isinstance(other, Tensor) and is_expandable_to(other._data.shape, t._data.shape) and t._data.flags.writeable:
        if fn is CopyFrom:
            np.copyto(t._data, other._data, casting="unsafe")
            return
        if fn in _UFUNCS and t._data.dtype.kind == "f":
            update_in_place(t._data, _UFUNCS[fn], other._data, *args[1:])
            return
    with grad_mode.no_grad():
        out = fn.apply(t, *args)
    _write(t, out)


def _write(t, out):
    if out._data.shape != t._data.shape:
        raise RuntimeError(f"output with shape {list(t._data.shape)} doesn't match the broadcast shape "
                           f"{list(out._data.shape)}")
    if not t._data.flags.writeable:
        raise RuntimeError("unsupported operation: more than one element of the written-to tensor refers to a "
                           "single memory location. Please clone() the tensor before performing the operation.")
    np.copyto(t._data, out._data, casting="unsafe")
