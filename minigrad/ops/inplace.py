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

from ..autograd import grad_mode
from ..autograd.function import SavedTensor
from ..tensor import Tensor
from .elementwise import Add, Div, Mul, Sub

# Under no_grad the four arithmetic in-place ops (optimizer steps) use numpy's in-place ufuncs.
_UFUNCS = {Add: np.add, Sub: np.subtract, Mul: np.multiply, Div: np.true_divide}


def inplace(t, fn, *args):
    recording = grad_mode._enabled and (t._requires_grad or
                                        any(isinstance(a, Tensor) and a._requires_grad for a in args))
    if not recording:
        ufunc = _UFUNCS.get(fn)
        if ufunc is not None and t._data.dtype.kind == "f":
            _numpy_inplace(t, ufunc, *args)  # p.add_(g, alpha=-lr): straight into p's memory
        else:
            with grad_mode.no_grad():
                out = fn.apply(t, *args)
            _write(t, out)
        t._vc[0] += 1
        return t

    if t._requires_grad and t.grad_fn is None:
        raise RuntimeError("a leaf Variable that requires grad is being used in an in-place operation.")
    base = t._base
    if base is not None and base._requires_grad and base.grad_fn is None:
        raise RuntimeError("a view of a leaf Variable that requires grad is being used in an in-place operation.")
    if t._base is not None and (t._base._requires_grad or t._requires_grad):
        raise NotImplementedError(
            "minigrad does not record in-place changes to a view of a tensor that requires grad "
            "(PyTorch rewrites the base's graph with CopySlices). Work on a clone(), or do it under no_grad().")
    snapshot = Tensor(t._data.copy())  # the old values, with the old place in the graph
    snapshot.grad_fn, snapshot._output_nr, snapshot._requires_grad = t.grad_fn, t._output_nr, t._requires_grad
    out = fn.apply(snapshot, *args)
    _write(t, out)
    t._vc[0] += 1
    t.grad_fn, t._output_nr, t._requires_grad = out.grad_fn, 0, True
    for s in out.grad_fn._saved:  # what the node saved of its output is now `t`
        if type(s) is SavedTensor and s.tensor is None and s.data is out._data:
            s.vc, s.version, s.data = t._vc, t._vc[0], t._data
    return t


def _numpy_inplace(t, ufunc, other, alpha=1):
    """``t = t (op) alpha * other`` in t's own memory (no temporary result, no copy back)."""
    b = other._data if alpha == 1 else other._data * alpha
    if b.shape != t._data.shape and np.broadcast_shapes(b.shape, t._data.shape) != t._data.shape:
        raise RuntimeError(f"output with shape {list(t._data.shape)} doesn't match the broadcast shape "
                           f"{list(np.broadcast_shapes(b.shape, t._data.shape))}")
    if not t._data.flags.writeable:
        raise RuntimeError("unsupported operation: more than one element of the written-to tensor refers to a "
                           "single memory location. Please clone() the tensor before performing the operation.")
    ufunc(t._data, b, out=t._data, casting="unsafe")


def _write(t, out):
    if out._data.shape != t._data.shape:
        raise RuntimeError(f"output with shape {list(t._data.shape)} doesn't match the broadcast shape "
                           f"{list(out._data.shape)}")
    if not t._data.flags.writeable:
        raise RuntimeError("unsupported operation: more than one element of the written-to tensor refers to a "
                           "single memory location. Please clone() the tensor before performing the operation.")
    np.copyto(t._data, out._data, casting="unsafe")
