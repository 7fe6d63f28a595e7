"""Reductions (sum, mean, max) and softmax: forward and backward side by side."""
from collections import namedtuple

import numpy as np

from ..autograd.function import Function
from ..tensor import Tensor
from ._util import dims_arg
from .elementwise import grad_where


def _unreduce(grad, shape, dims, keepdim):
    """Give a reduced gradient back its reduced dims (size 1), ready to broadcast to ``shape``."""
    if not keepdim:
        for d in dims:  # dims are sorted, so each unsqueeze lands where the dim was
            grad = grad.unsqueeze(d)
    return grad


class Sum(Function):
    """``x.sum()``: every element gets the incoming gradient."""
    node_name = "SumBackward0"

    @staticmethod
    def forward(ctx, a):
        ctx.shape = a._data.shape
        return Tensor(np.asarray(a._data.sum()))

    @staticmethod
    def backward(ctx, grad):
        return grad.expand(ctx.shape)


class SumDim(Function):
    """``x.sum(dim, keepdim)``."""
    node_name = "SumBackward1"

    @staticmethod
    def forward(ctx, a, dim, keepdim):
        ctx.shape = a._data.shape
        ctx.dims = dims_arg(dim, a._data.ndim) if dim != () else tuple(range(a._data.ndim))
        if a._data.ndim == 0:  # dim 0 or -1 of a 0-dim tensor: nothing to reduce
            ctx.dims = ()
        ctx.keepdim = keepdim
        return Tensor(np.asarray(a._data.sum(axis=ctx.dims, keepdims=keepdim)))

    @staticmethod
    def backward(ctx, grad):
        return _unreduce(grad, ctx.shape, ctx.dims, ctx.keepdim).expand(ctx.shape), None, None


class Mean(Function):
    node_name = "MeanBackward0"

    @staticmethod
    def forward(ctx, a):
        ctx.shape = a._data.shape
        if a._data.size == 0:  # PyTorch: nan, without numpy's warning
            return Tensor(np.asarray(np.nan, dtype=a._data.dtype))
        return Tensor(np.asarray(a._data.mean(), dtype=a._data.dtype))

    @staticmethod
    def backward(ctx, grad):
        n = int(np.prod(ctx.shape))
        return grad.expand(ctx.shape) / n


class MeanDim(Function):
    node_name = "MeanBackward1"

    @staticmethod
    def forward(ctx, a, dim, keepdim):
        ctx.shape = a._data.shape
        ctx.dims = dims_arg(dim, a._data.ndim) if a._data.ndim else ()
        ctx.keepdim = keepdim
        with np.errstate(invalid="ignore", divide="ignore"):
            return Tensor(np.asarray(a._data.mean(axis=ctx.dims, keepdims=keepdim), dtype=a._data.dtype))

    @staticmethod
    def backward(ctx, grad):
        n = int(np.prod([ctx.shape[d] for d in ctx.dims])) if ctx.dims else 1
        return _unreduce(grad, ctx.shape, ctx.dims, ctx.keepdim).expand(ctx.shape) / n, None, None


class Max(Function):
    """``x.max()``: the gradient goes to the maximum (shared evenly between ties, as in PyTorch)."""
    node_name = "MaxBackward1"
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
        a, out = ctx.saved_tensors
        mask = a._data == out._data
        return grad_where(mask, grad / int(mask.sum()))  # ties share the gradient equally, as in PyTorch


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


class MaxDim(Function):
    """``x.max(dim)`` returns (values, indices); the gradient goes to the chosen index."""
    node_name = "MaxBackward0"
    arg = np.argmax

    @classmethod
    def forward(cls, ctx, a, dim, keepdim):
        d = dims_arg(dim, a._data.ndim)[0]
        idx = cls.arg(a._data, axis=d, keepdims=True)
        ctx.shape, ctx.dim, ctx.keepdim = a._data.shape, d, keepdim
        ctx.index = idx
        values = np.take_along_axis(a._data, idx, axis=d)
        if not keepdim:
            values, idx = values.squeeze(d), idx.squeeze(d)
        indices = Tensor(np.asarray(idx, dtype=np.int64))
        ctx.mark_non_differentiable(indices)
        return Tensor(np.asarray(values)), indices

    @staticmethod
    def backward(ctx, grad, _grad_indices):
        chosen = np.zeros(ctx.shape, bool)
        np.put_along_axis(chosen, ctx.index, True, axis=ctx.dim)
        return grad_where(chosen, _unreduce(grad, ctx.shape, (ctx.dim,), ctx.keepdim)), None, None


class MinDim(MaxDim):
    """``x.min(dim)``."""
    node_name = "MinBackward0"
    arg = np.argmin


class Softmax(Function):
    node_name = "SoftmaxBackward0"

    @staticmethod
    def forward(ctx, a, dim):
        d = dims_arg(dim, a._data.ndim)[0]
        e = np.exp(a._data - a._data.max(axis=d, keepdims=True))
        out = Tensor(e / e.sum(axis=d, keepdims=True))
        ctx.dim = d
        ctx.save_for_backward(out)
        return out

    @staticmethod
    def backward(ctx, grad):
        out, = ctx.saved_tensors
        return out * (grad - (grad * out).sum(ctx.dim, keepdim=True)), None


class LogSoftmax(Function):
    node_name = "LogSoftmaxBackward0"

    @staticmethod
    def forward(ctx, a, dim):
        d = dims_arg(dim, a._data.ndim)[0]
        shifted = a._data - a._data.max(axis=d, keepdims=True)
        out = Tensor(shifted - np.log(np.exp(shifted).sum(axis=d, keepdims=True)))
        ctx.dim = d
        ctx.save_for_backward(out)
        return out

    @staticmethod
    def backward(ctx, grad):
        out, = ctx.saved_tensors
        return grad - out.exp() * grad.sum(ctx.dim, keepdim=True), None
