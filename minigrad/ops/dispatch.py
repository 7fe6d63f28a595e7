"""The dispatcher: what every built-in op shares, done once (PyTorch: its dispatcher and ``TensorIterator``).

A built-in op is its formula: an ``Op`` subclass with ``forward`` (numbers in, a tensor out) and ``backward``
(tensors in and out) side by side, and its node's name and saved values declared beside them.  What PyTorch does
around every op happens here, not in the ops:

- ``Op.apply`` (PyTorch's dispatcher): run ``forward`` with recording off and numpy's floating-point warnings
  off (PyTorch's kernels make inf and nan silently: ``_core/numpy_errors.py``), then, if grad mode is on and an
  input requires grad, record the node (``autograd/function.py``: ``_record``).  The engine sums each gradient
  back to its input's shape and casts it to its dtype (``autograd/engine.py``: ``validate_outputs``), so a formula
  need not.
- ``elementwise`` (PyTorch's ``TensorIterator``): a binary op's numbers in the dtype type promotion gives
  (``promotion.py``), the result laid out as PyTorch lays it out; a ZeroTensor operand goes to its own kernel
  (``zerotensor.py``), as PyTorch's ZeroTensor dispatch key sends it.
"""
import numpy as np

from .. import _dtype
from ..autograd import anomaly_mode, grad_mode, profiler
from ..autograd.function import (BuiltinNode, Function, _record, hooks_anywhere, note_views_made_without_grad,
                                 record_plain)
from .._core import numpy_errors
from .._core.tensor_base import TensorBase as Tensor
from . import zerotensor
from .promotion import operands, plainly_row_major, result
from .._core.layout import laid_out


class Op(Function):
    """A built-in op (PyTorch: an ATen operator with an entry in ``derivatives.yaml``)."""
    _node_base = BuiltinNode

    @classmethod
    def apply(cls, *args):
        """Run the op: its forward as a kernel, then its node into the graph when it is recorded."""
        ctx = cls._backward_cls()
        ctx.needs_input_grad = needs = inputs_needing_grad(args)
        state = grad_mode.state
        recording = state.enabled
        if recording:
            state.enabled = False  # (an op's own steps are not the graph)
        numpy_was = numpy_errors.quiet()  # (PyTorch's kernels make inf and nan silently)
        try:
            result = cls.forward(ctx, *args)
        finally:
            if recording:
                state.enabled = True
            if numpy_was is not None:
                numpy_errors.restore(numpy_was)
        if True not in needs:
            return result
        if not recording:  # a view of an input that requires grad, made in no_grad mode, remembers it
            note_views_made_without_grad(result, args)
            return result
        if is_plain(ctx, args, result):  # the common case, built straight
            return record_plain(ctx, args, result)
        return _record(ctx, args, result)


def inputs_needing_grad(args):
    """Per argument: is it a tensor that requires grad?  (A view asks its base: ``Tensor.requires_grad``.)"""
    return tuple([isinstance(a, Tensor) and (a._requires_grad if a._base is None else _view_needs_grad(a))
                  for a in args])


def _view_needs_grad(view):
    """A view's ``requires_grad``; while recording, a view whose base changed in place gets its new node first
    (``Tensor.grad_fn``), as PyTorch collects an op's edges before its kernel runs: its error comes before the op's."""
    if grad_mode.state.enabled and view._view_version != view._vc[0]:
        view.grad_fn  # noqa: B018  (the property renews the node, or raises)
    return view.requires_grad


def is_plain(ctx, args, result):
    """Can ``record_plain`` record this call: one new output tensor, nothing marked dirty or non-differentiable,
    neither anomaly mode nor saved-tensor hooks in force?"""
    return (isinstance(result, Tensor) and result._grad_fn is None and not ctx._dirty and not ctx._non_differentiable
            and not anomaly_mode.state.enabled and not hooks_anywhere.count and id(result) not in map(id, args))


profiler.register_op_class(Op)  # (a profile times every op)


class kernel_mode:
    """Inside an op's kernel (``Op.apply`` does the same itself): no recording and numpy quiet about inf and nan,
    both restored after."""

    def __enter__(self):
        state = grad_mode.state
        self.grad, state.enabled = state.enabled, False
        self.numpy = numpy_errors.quiet()

    def __exit__(self, *exc):
        grad_mode.state.enabled = self.grad
        if self.numpy is not None:
            numpy_errors.restore(self.numpy)


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
    x, n = a._data, np.asarray(number, a._data.dtype)
    out = np.asarray(kernel(x, n))
    if out.ndim > 1 and not plainly_row_major(x):  # (PyTorch's TensorIterator with a wrapped number: x's dim order)
        out = laid_out(out, x, n)
    return Tensor(out)


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
