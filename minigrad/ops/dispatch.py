"""The dispatcher: what every built-in op shares, done once (PyTorch: its dispatcher and ``TensorIterator``).

A built-in op is its formula: an ``Op`` subclass with ``forward`` (numbers in, a tensor out) and ``backward``
(tensors in and out) side by side, and its node's name and saved values declared beside them.  What PyTorch does
around every op happens here, not in the ops:

- ``Op.apply`` (PyTorch's dispatcher): run ``forward`` with recording off and numpy's floating-point warnings
  off (PyTorch's kernels make inf and nan silently), then, if grad mode is on and an input requires grad, record
  the node (``autograd/function.py``: ``_record``).  The engine sums each gradient back to its input's shape and
  casts it to its dtype (``autograd/engine.py``: ``validate_outputs``), so a formula need not.
- ``elementwise`` (PyTorch's ``TensorIterator``): a binary op's numbers in the dtype type promotion gives
  (``promotion.py``), the result laid out as PyTorch lays it out; a ZeroTensor operand goes to its own kernel
  (``zerotensor.py``), as PyTorch's ZeroTensor dispatch key sends it.
"""
import numpy as np

from .. import _dtype
from ..autograd import anomaly_mode, grad_mode, profiler
from ..autograd.function import (BuiltinNode, Function, _record, note_views_made_without_grad, record_plain,
                                 saved_hooks)
from .._core.tensor_base import TensorBase as Tensor
from . import zerotensor
from .promotion import operands, result


class Op(Function):
    """A built-in op (PyTorch: an ATen operator with an entry in ``derivatives.yaml``)."""
    _node_base = BuiltinNode

    @classmethod
    def apply(cls, *args):
        """Run the op: its forward as a kernel, then its node into the graph when it is recorded."""
        ctx = cls._backward_cls()
        ctx.needs_input_grad = needs = inputs_needing_grad(args)
        state = grad_mode.state
        recording, state.enabled = state.enabled, False  # (an op's own steps are not the graph)
        numpy_was = None if state.quiet else quiet_numpy()
        try:
            result = cls.forward(ctx, *args)
        finally:
            state.enabled = recording
            if numpy_was is not None:
                restore_numpy(numpy_was)
        if not any(needs):
            return result
        if not recording:  # a view of an input that requires grad, made in no_grad mode, remembers it
            note_views_made_without_grad(result, args)
            return result
        if is_plain(ctx, args, result):  # the common case, built straight
            return record_plain(ctx, args, result)
        return _record(ctx, args, result)


def inputs_needing_grad(args):
    """Per argument: is it a tensor that requires grad?  (A view asks its base: ``Tensor.requires_grad``.)"""
    return tuple([isinstance(a, Tensor) and (a._requires_grad if a._base is None else a.requires_grad) for a in args])


def is_plain(ctx, args, result):
    """Can ``record_plain`` record this call: one new output tensor, nothing marked dirty or non-differentiable,
    neither anomaly mode nor saved-tensor hooks in force?"""
    return (isinstance(result, Tensor) and result._grad_fn is None and not ctx._dirty and not ctx._non_differentiable
            and not anomaly_mode.state.enabled and not saved_hooks.hooks and id(result) not in map(id, args))


profiler.register_op_class(Op)  # (a profile times every op)


class kernel_mode:
    """Inside an op's kernel (``Op.apply`` does the same itself): no recording and numpy quiet about inf and nan,
    both restored after.  Set once: an op inside another op, or inside a backward, finds numpy quiet already."""

    def __enter__(self):
        state = grad_mode.state
        self.grad, state.enabled = state.enabled, False
        self.numpy = None if state.quiet else quiet_numpy()

    def __exit__(self, *exc):
        grad_mode.state.enabled = self.grad
        if self.numpy is not None:
            restore_numpy(self.numpy)


def quiet_numpy():
    """Turn numpy's floating-point warnings off (PyTorch's kernels make inf and nan silently); returns what
    ``restore_numpy`` needs to turn them back as they were.  numpy 2 keeps its error state in a context variable:
    setting it to a quiet copy of the user's state, made once per state, is a third of what ``np.errstate`` costs."""
    grad_mode.state.quiet = True
    if _numpy_state is None:  # (numpy 1)
        errstate = np.errstate(all="ignore")
        errstate.__enter__()
        return errstate
    global _quiet_of
    users, (seen, quiet) = _numpy_state.get(), _quiet_of
    if users is not seen:
        quiet = _quiet_copy()
        _quiet_of = users, quiet
    return _numpy_state.set(quiet)


def restore_numpy(was):
    """numpy's error state back as ``quiet_numpy`` found it."""
    grad_mode.state.quiet = False
    if _numpy_state is None:
        was.__exit__(None, None, None)
    else:
        _numpy_state.reset(was)


def _quiet_copy():
    """numpy's error state now, with every warning off (the rest, e.g. ``np.seterrcall``, kept)."""
    with np.errstate(all="ignore"):
        return _numpy_state.get()


try:
    from numpy._core._ufunc_config import _extobj_contextvar as _numpy_state  # numpy 2
except ImportError:
    _numpy_state = None
_quiet_of = None, None  # the last user's state seen, and its quiet copy


def elementwise(kernel, a, b, alpha=1):
    """``kernel(x, alpha * y)`` (a numpy ufunc) on the numbers of tensors ``a`` and ``b`` as ``TensorIterator`` runs a
    binary op: both in the dtype type promotion gives, the result laid out as PyTorch's."""
    if a._zerotensor or b._zerotensor:  # PyTorch's ZeroTensor dispatch key: zeros have kernels of their own
        return zerotensor_kernel(kernel, a, b, alpha)
    if kernel is np.true_divide and a._data.dtype.kind != "f" and b._data.dtype.kind != "f":
        return _divided_as_floats(a, b)
    x, y = a._data, b._data
    if x.dtype != y.dtype:
        x, y = operands(a, b)
    if alpha != 1:  # add's and sub's alpha (a bool result reads it as a bool: 2 is True)
        y = (bool(alpha) if x.dtype == np.bool_ else alpha) * y
    out = kernel(x, y)
    if out.ndim < 2 and a._data.dtype == b._data.dtype:  # (the usual case: nothing to lay out or cast)
        return Tensor(out)
    return result(a, b, out)


def with_number(kernel, a, number):
    """``kernel(x, number)``, the number in ``a``'s dtype: a constant of a formula PyTorch writes in C++ (``grad * 2``)."""
    if a._zerotensor:  # (its kernel takes the number as PyTorch wraps it: a float64 or int64 0-dim tensor)
        return zerotensor_kernel(kernel, a, Tensor(np.asarray(number)))
    return Tensor(np.asarray(kernel(a._data, np.asarray(number, a._data.dtype))))


def zerotensor_kernel(kernel, a, b, alpha=1):
    """``a op b`` where one of them is a ZeroTensor: PyTorch's kernels for it (``zerotensor.py``)."""
    if kernel is np.multiply:
        return zerotensor.mul(a, b)
    if kernel is np.true_divide:
        return zerotensor.div(a, b)
    return zerotensor.add(a, b, alpha if kernel is np.add else -alpha)


def _divided_as_floats(a, b):
    """``int / int``: a tensor of the default float dtype, both divided in it (PyTorch's true division)."""
    dtype = _dtype.get_default_dtype().numpy
    return Tensor(np.true_divide(a._data.astype(dtype), b._data.astype(dtype)))
