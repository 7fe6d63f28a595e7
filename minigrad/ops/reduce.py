"""Reductions (sum, mean, max) and softmax: forward and backward side by side.

PyTorch gives the result of a reduction, softmax and the like a fresh row-major (contiguous) layout,
whatever the input's strides; numpy keeps the input's order, so these ops ask for ``order="C"``
(it decides whether a later ``view`` works)."""
from collections import namedtuple

import numpy as np

from ..autograd import grad_mode
from .dispatch import Op
from .._core.tensor_base import _TYPE_NAMES, TensorBase as Tensor
from ._util import dims_arg, reduce_dims
from .elementwise import DivScalar
from .select import MaskedFillTensor, value_selecting_backward


def check_sum_dtype(a, dtype):
    """``x.sum(dtype=torch.int64)`` of an ``x`` that requires grad: an integer result cannot be
    recorded, PyTorch refuses it (under ``no_grad`` it is an ordinary sum)."""
    if dtype is not None and not dtype.is_floating_point and a._requires_grad and grad_mode.is_grad_enabled():
        raise RuntimeError(f"Autograd not support dtype: {_TYPE_NAMES[dtype.name]}")


def _sum_dtype(a, dtype):
    """The dtype of a sum: ``dtype=`` if given, else ``a``'s, with integers and bools summed in int64
    (PyTorch's rule)."""
    if dtype is None:
        return a._data.dtype if a._data.dtype.kind == "f" else np.int64
    return dtype.numpy


def _check_float(a, name, dim):
    """softmax and log_softmax have float kernels only (PyTorch names the kernel it could not find).
    An empty tensor never reaches the kernel (softmax_cpu_out returns first): any dtype passes."""
    if not a.dtype.is_floating_point and a._data.size:
        kernel = f"{name}_lastdim" if dim == a._data.ndim - 1 or a._data.ndim == 0 else name
        raise NotImplementedError(f'"{kernel}_kernel_impl" not implemented for \'{_TYPE_NAMES[a.dtype.name]}\'')


def _unreduce(grad, shape, dims, keepdim):
    """Give a reduced gradient back its reduced dims (size 1), ready to broadcast to ``shape``."""
    if not keepdim:
        for d in dims:  # dims are sorted, so each unsqueeze lands where the dim was
            grad = grad.unsqueeze(d)
    return grad


class Sum(Op):
    """``x.sum()``: every element gets the incoming gradient.

    With ``dtype=`` the sum is taken in that dtype, in the same node (PyTorch too: the engine casts
    the gradient back to ``x``'s dtype, as it does for every input)."""
    node_name = "SumBackward0"
    saved_names = {"self_sym_sizes": "shape"}  # (grad_fn._saved_*)

    @staticmethod
    def forward(ctx, a, dtype=None):
        ctx.shape = a._data.shape
        return Tensor(np.asarray(a._data.sum(dtype=_sum_dtype(a, dtype))))

    @staticmethod
    def backward(ctx, grad):
        return grad.expand(ctx.shape), None


class SumDim(Op):
    """``x.sum(dim, keepdim)``."""
    node_name = "SumBackward1"
    saved_names = {"dim": "saved_dim", "keepdim": "keepdim", "self_sym_sizes": "shape"}  # (grad_fn._saved_*)

    @staticmethod
    def forward(ctx, a, dim, keepdim, dtype=None):
        ctx.shape, ctx.dim_arg = a._data.shape, dim if isinstance(dim, (tuple, list)) else (dim,)
        ctx.dims = reduce_dims(dim, a._data.ndim)
        ctx.keepdim = keepdim
        return Tensor(np.asarray(a._data.sum(axis=ctx.dims, keepdims=keepdim, dtype=_sum_dtype(a, dtype)), order="C"))

    @staticmethod
    def backward(ctx, grad):
        return _unreduce(grad, ctx.shape, ctx.dims, ctx.keepdim).expand(ctx.shape), None, None, None


class Mean(Op):
    node_name = "MeanBackward0"
    saved_names = {"self_sym_sizes": "shape", "self_sym_numel": "self_numel"}  # (grad_fn._saved_*)

    @staticmethod
    def forward(ctx, a):
        ctx.shape = a._data.shape
        if a._data.size == 0:  # PyTorch: nan, without numpy's warning
            return Tensor(np.asarray(np.nan, dtype=a._data.dtype))
        return Tensor(np.asarray(a._data.mean(), dtype=a._data.dtype))

    @staticmethod
    def backward(ctx, grad):
        n = int(np.prod(ctx.shape))
        return DivScalar.apply(grad.expand(ctx.shape), n)  # grad / n, n a plain number as in PyTorch's formula


class MeanDim(Op):
    """``x.mean(dim)``: backward divides by the count as PyTorch's formula does, by a plain number
    (``DivBackward1`` under ``create_graph``, as for ``Mean``, the mean of all)."""
    node_name = "MeanBackward1"
    saved_names = {"dim": "saved_dim", "keepdim": "keepdim", "self_sym_sizes": "shape", "self_sym_numel": "self_numel"}

    @staticmethod
    def forward(ctx, a, dim, keepdim):
        ctx.shape, ctx.dim_arg = a._data.shape, dim if isinstance(dim, (tuple, list)) else (dim,)
        ctx.dims = reduce_dims(dim, a._data.ndim)
        ctx.keepdim = keepdim
        n = int(np.prod([ctx.shape[d] for d in ctx.dims])) if ctx.dims else 1
        total = a._data.sum(axis=ctx.dims, keepdims=keepdim)  # (numpy's mean is this sum / n, but warns at n = 0)
        return Tensor(np.asarray(total / n, dtype=a._data.dtype, order="C"))

    @staticmethod
    def backward(ctx, grad):
        n = int(np.prod([ctx.shape[d] for d in ctx.dims])) if ctx.dims else 1
        return DivScalar.apply(_unreduce(grad, ctx.shape, ctx.dims, ctx.keepdim).expand(ctx.shape), n), None, None


class Max(Op):
    """``x.max()``: the gradient goes to the maximum (shared evenly between ties, as in PyTorch)."""
    node_name = "MaxBackward1"
    saved_names = {"self": 0, "result": 1}  # (grad_fn._saved_*)
    reduce, name = np.max, "max"

    @classmethod
    def forward(cls, ctx, a):
        if a._data.size == 0:
            raise RuntimeError(f"{cls.name}(): Expected reduction dim to be specified for input.numel() == 0. "
                               "Specify the reduction dim with the 'dim' argument.")
        out = Tensor(np.asarray(cls.reduce(a._data)))
        ctx.save_for_backward(a, out)
        return out

    @staticmethod
    def backward(ctx, grad):
        # PyTorch's evenly_distribute_backward: ties share the gradient equally; a nan maximum
        # gives its gradient to the nans
        # (in PyTorch's steps: zeros, with grad / count filled in where the mask holds)
        a, out = ctx.saved_tensors
        mask = np.isnan(a._data) if np.isnan(out._data).any() else a._data == out._data
        return MaskedFillTensor.apply(Tensor(np.zeros(a._data.shape, grad._data.dtype)), mask, grad / int(mask.sum()))


def _return_type(name):
    """What ``x.max(dim)`` returns: a named tuple ``(values, indices)`` that prints like PyTorch's."""
    cls = namedtuple(name, ["values", "indices"])
    cls.__repr__ = lambda self: f"minigrad.return_types.{name}(\nvalues={self.values!r},\nindices={self.indices!r})"
    return cls


ReturnTypes = _return_type("max")
MinReturnTypes = _return_type("min")


class Min(Max):
    """``x.min()``."""
    node_name = "MinBackward1"
    reduce, name = np.min, "min"


class MaxDim(Op):
    """``x.max(dim)`` returns (values, indices); the gradient goes to the chosen index."""
    node_name = "MaxBackward0"
    saved_names = {"dim": "saved_dim", "keepdim": "keepdim", "self_sym_sizes": "shape", "indices": 0}  # (grad_fn._saved_*)
    name = "max"
    arg = np.argmax

    @classmethod
    def forward(cls, ctx, a, dim, keepdim):
        d = dims_arg(dim, a._data.ndim)[0]
        if a._data.ndim == 0:  # the only element, at index 0
            ctx.shape, ctx.dim, ctx.keepdim, ctx.index, ctx.dim_arg = (), None, keepdim, np.asarray(0), dim
            indices = Tensor(np.asarray(0, dtype=np.int64))
            ctx.mark_non_differentiable(indices)
            ctx.save_for_backward(indices)
            return Tensor(a._data.copy()), indices
        if a._data.shape[d] == 0:
            raise IndexError(f"{cls.name}(): Expected reduction dim {d} to have non-zero size.")
        idx = cls.index(ctx, a._data, d)
        ctx.shape, ctx.dim, ctx.keepdim, ctx.dim_arg = a._data.shape, d, keepdim, dim
        ctx.index = idx
        values = np.take_along_axis(a._data, idx, axis=d)
        if not keepdim:
            values, idx = values.squeeze(d), idx.squeeze(d)
        indices = Tensor(np.asarray(idx, dtype=np.int64, order="C"))
        ctx.mark_non_differentiable(indices)
        ctx.save_for_backward(indices)  # (PyTorch saves this output for backward: grad_fn._saved_indices)
        return Tensor(np.asarray(values, order="C")), indices

    @classmethod
    def index(cls, ctx, x, axis):
        """Where the chosen value is along ``axis`` (the dim kept, with length 1)."""
        return cls.arg(x, axis=axis, keepdims=True)

    @staticmethod
    def backward(ctx, grad, _grad_indices):
        # (PyTorch: value_selecting_reduction_backward, zeros with the gradient scattered to the chosen places)
        indices, = ctx.saved_tensors
        return value_selecting_backward(grad, ctx.dim or 0, indices, ctx.shape, ctx.keepdim), None, None


class MinDim(MaxDim):
    """``x.min(dim)``."""
    node_name = "MinBackward0"
    name = "min"
    arg = np.argmin


class Softmax(Op):
    """``softmax(x, dim)``; backward: ``out * (grad - (grad * out).sum(dim))``, as one op
    (PyTorch: ``_softmax_backward_data``, ``SoftmaxBackwardDataBackward0`` under ``create_graph=True``)."""
    node_name = "SoftmaxBackward0"
    saved_names = {"dim": "saved_dim", "result": 0}  # (grad_fn._saved_*)

    @staticmethod
    def forward(ctx, a, dim):
        d = dims_arg(dim, a._data.ndim)[0]
        _check_float(a, "softmax", d)
        axis = d if a._data.ndim else None
        if not a._data.size:  # (an empty result of the input's dtype, a bool or integer one too)
            out = Tensor(np.empty(a._data.shape, a._data.dtype))
            ctx.dim, ctx.dim_arg = d, dim
            ctx.save_for_backward(out)
            return out
        e = np.exp(a._data - a._data.max(axis=axis, keepdims=True, initial=-np.inf))
        out = Tensor(np.asarray(e / e.sum(axis=axis, keepdims=True), order="C"))
        ctx.dim, ctx.dim_arg = d, dim
        ctx.save_for_backward(out)
        return out

    @staticmethod
    def backward(ctx, grad):
        out, = ctx.saved_tensors
        return SoftmaxBackwardData.apply(grad, out, ctx.dim_arg), None  # (the dim as passed: PyTorch's)


class SoftmaxBackwardData(Op):
    """softmax's backward formula as one op, ``out * (grad - (grad * out).sum(dim))`` (PyTorch:
    ``_softmax_backward_data``). Its own backward (derivatives.yaml): to ``grad`` the same op on the
    incoming ``gg``; to ``out`` PyTorch's ``softmax_double_backward``,
    ``gg * grad - (out * grad).sum(dim) * gg - grad * (out * gg).sum(dim)``."""
    node_name = "SoftmaxBackwardDataBackward0"
    saved_names = {"dim": "saved_dim", "grad_output": 0, "output": 1}  # (grad_fn._saved_*)

    @staticmethod
    def forward(ctx, grad, out, dim):
        ctx.save_for_backward(grad, out)
        ctx.dim, ctx.dim_arg = dims_arg(dim, out._data.ndim)[0], dim
        g, y = grad._data, out._data
        axis = ctx.dim if y.ndim else None
        return Tensor(np.asarray(y * (g - (g * y).sum(axis=axis, keepdims=True)), dtype=y.dtype))

    @staticmethod
    def backward(ctx, gg):
        grad, out = ctx.saved_tensors
        d = ctx.dim
        need_grad, need_out, _ = ctx.needs_input_grad
        return (SoftmaxBackwardData.apply(gg, out, ctx.dim_arg) if need_grad else None,
                gg * grad - (out * grad).sum(d, keepdim=True) * gg - grad * (out * gg).sum(d, keepdim=True)
                if need_out else None, None)


class LogSoftmax(Op):
    """``log_softmax(x, dim)``; backward: ``grad - exp(out) * grad.sum(dim)``, as one op (PyTorch:
    ``_log_softmax_backward_data``, ``LogSoftmaxBackwardDataBackward0`` under ``create_graph=True``)."""
    node_name = "LogSoftmaxBackward0"
    saved_names = {"dim": "saved_dim", "result": 0}  # (grad_fn._saved_*)

    @staticmethod
    def forward(ctx, a, dim):
        d = dims_arg(dim, a._data.ndim)[0]
        _check_float(a, "log_softmax", d)
        axis = d if a._data.ndim else None
        if not a._data.size:  # (an empty result of the input's dtype, a bool or integer one too)
            out = Tensor(np.empty(a._data.shape, a._data.dtype))
            ctx.dim, ctx.dim_arg = d, dim
            ctx.save_for_backward(out)
            return out
        shifted = a._data - a._data.max(axis=axis, keepdims=True, initial=-np.inf)
        out = Tensor(np.asarray(shifted - np.log(np.exp(shifted).sum(axis=axis, keepdims=True)), order="C"))
        ctx.dim, ctx.dim_arg = d, dim
        ctx.save_for_backward(out)
        return out

    @staticmethod
    def backward(ctx, grad):
        out, = ctx.saved_tensors
        return LogSoftmaxBackwardData.apply(grad, out, ctx.dim_arg), None  # (the dim as passed: PyTorch's)


class LogSoftmaxBackwardData(Op):
    """log_softmax's backward formula as one op, ``grad - exp(out) * grad.sum(dim)`` (PyTorch:
    ``_log_softmax_backward_data``). Its own backward (derivatives.yaml): to ``grad``,
    ``gg - (gg * exp(out)).sum(dim)``; to ``out``, ``-grad.sum(dim) * exp(out) * gg``."""
    node_name = "LogSoftmaxBackwardDataBackward0"
    saved_names = {"dim": "saved_dim", "grad_output": 0, "output": 1}  # (grad_fn._saved_*)

    @staticmethod
    def forward(ctx, grad, out, dim):
        ctx.save_for_backward(grad, out)
        ctx.dim, ctx.dim_arg = dims_arg(dim, out._data.ndim)[0], dim
        g, y = grad._data, out._data
        axis = ctx.dim if y.ndim else None
        return Tensor(np.asarray(g - np.exp(y) * g.sum(axis=axis, keepdims=True), dtype=y.dtype))

    @staticmethod
    def backward(ctx, gg):
        grad, out = ctx.saved_tensors
        d = ctx.dim
        need_grad, need_out, _ = ctx.needs_input_grad
        return (gg - (gg * out.exp()).sum(d, keepdim=True) if need_grad else None,
                -grad.sum(d, keepdim=True) * out.exp() * gg if need_out else None, None)
