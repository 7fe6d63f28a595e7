"""Shape ops: views that share memory with their input, and indexing.

A view (``view``, ``t``, ``transpose``, ``unsqueeze``, ``x[0]``, ...) shares the numpy memory and
the version counter of its input, as in PyTorch; its backward just reshapes or places the
gradient back.
"""
import numpy as np

from ..autograd.function import Function
from ..tensor import Tensor
from ._util import _wrap_dim, sum_to


def view_of(a, array):
    """A tensor that shares memory and version counter with ``a``."""
    out = Tensor(array)
    out._vc = a._vc
    out._base = a if a._base is None else a._base
    return out


def can_view(array, shape):
    """Can ``array`` be seen with ``shape`` without copying? (numpy knows: reshaping in place fails.)"""
    try:
        v = array.view()
        v.shape = _infer_shape(shape, array.size)
        return True
    except (AttributeError, ValueError):
        return False


def _infer_shape(shape, numel):
    shape = list(shape)
    if shape.count(-1) > 1:
        raise RuntimeError("only one dimension can be inferred")
    known = 1
    for s in shape:
        if s != -1:
            known *= s
    if -1 in shape:
        if known == 0 or numel % known:
            raise RuntimeError(f"shape '{list(shape)}' is invalid for input of size {numel}")
        shape[shape.index(-1)] = numel // known
    elif known != numel:
        raise RuntimeError(f"shape '{list(shape)}' is invalid for input of size {numel}")
    return tuple(shape)


class View(Function):
    node_name = "ViewBackward0"

    @staticmethod
    def forward(ctx, a, shape):
        shape = _infer_shape(shape, a._data.size)
        ctx.shape = a._data.shape
        v = a._data.view()
        try:
            v.shape = shape
        except AttributeError:
            raise RuntimeError("view size is not compatible with input tensor's size and stride (at least one "
                               "dimension spans across two contiguous subspaces). Use .reshape(...) instead.") from None
        return view_of(a, v)

    @staticmethod
    def backward(ctx, grad):
        return grad.reshape(ctx.shape), None


class UnsafeView(View):
    """The reshape at the end of a batched matmul (PyTorch names it ``UnsafeViewBackward0``)."""
    node_name = "UnsafeViewBackward0"


class T(Function):
    node_name = "TBackward0"

    @staticmethod
    def forward(ctx, a):
        return view_of(a, a._data.T)

    @staticmethod
    def backward(ctx, grad):
        return grad.t()


class Transpose(Function):
    node_name = "TransposeBackward0"

    @staticmethod
    def forward(ctx, a, dim0, dim1):
        n = a._data.ndim
        ctx.dims = (_wrap_dim(dim0, n), _wrap_dim(dim1, n))
        return view_of(a, np.swapaxes(a._data, *ctx.dims))

    @staticmethod
    def backward(ctx, grad):
        return grad.transpose(*ctx.dims), None, None


class Permute(Function):
    node_name = "PermuteBackward0"

    @staticmethod
    def forward(ctx, a, dims):
        n = a._data.ndim
        if len(dims) != n:
            raise RuntimeError(f"permute(sparse_coo): number of dimensions in the tensor input does not match the "
                               f"length of the desired ordering of dimensions i.e. input.dim() = {n} is not equal "
                               f"to len(dims) = {len(dims)}")
        ctx.dims = tuple(_wrap_dim(d, n) for d in dims)
        return view_of(a, np.transpose(a._data, ctx.dims))

    @staticmethod
    def backward(ctx, grad):
        return grad.permute(tuple(np.argsort(ctx.dims).tolist())), None


class Unsqueeze(Function):
    node_name = "UnsqueezeBackward0"

    @staticmethod
    def forward(ctx, a, dim):
        ctx.dim = dim
        return view_of(a, np.expand_dims(a._data, dim))

    @staticmethod
    def backward(ctx, grad):
        return grad.squeeze(ctx.dim), None


class Squeeze(Function):
    node_name = "SqueezeBackward0"

    @staticmethod
    def forward(ctx, a):
        ctx.shape = a._data.shape
        return view_of(a, a._data.reshape([s for s in a._data.shape if s != 1]))

    @staticmethod
    def backward(ctx, grad):
        return grad.reshape(ctx.shape)


class SqueezeDim(Function):
    node_name = "SqueezeBackward1"

    @staticmethod
    def forward(ctx, a, dim):
        ctx.shape = a._data.shape
        if a._data.ndim and a._data.shape[dim] == 1:
            return view_of(a, np.squeeze(a._data, dim))
        return view_of(a, a._data.view())

    @staticmethod
    def backward(ctx, grad):
        return grad.reshape(ctx.shape), None


class SqueezeDims(SqueezeDim):
    """``squeeze(dims)`` as matmul uses it (PyTorch: ``SqueezeBackward4``)."""
    node_name = "SqueezeBackward4"

    @staticmethod
    def forward(ctx, a, dim):
        return SqueezeDim.forward(ctx, a, _wrap_dim(dim, a._data.ndim))


class Expand(Function):
    node_name = "ExpandBackward0"

    @staticmethod
    def forward(ctx, a, sizes):
        shape = a._data.shape
        if len(sizes) < len(shape):
            raise RuntimeError(f"expand(minigrad.FloatTensor{{{list(shape)}}}, size={list(sizes)}): the number of "
                               f"sizes provided ({len(sizes)}) must be greater or equal to the number of dimensions "
                               f"in the tensor ({len(shape)})")
        lead = len(sizes) - len(shape)
        target = []
        for i, s in enumerate(sizes):
            old = shape[i - lead] if i >= lead else None
            if s == -1:
                if old is None:
                    raise RuntimeError(f"The expanded size of the tensor (-1) isn't allowed in a leading, "
                                       f"non-existing dimension {i}")
                s = old
            elif old is not None and old != s and old != 1:
                raise RuntimeError(f"The expanded size of the tensor ({s}) must match the existing size ({old}) at "
                                   f"non-singleton dimension {i}.  Target sizes: {list(sizes)}.  Tensor sizes: "
                                   f"{list(shape)}")
            target.append(s)
        ctx.shape = shape
        return view_of(a, np.broadcast_to(a._data, tuple(target)))

    @staticmethod
    def backward(ctx, grad):
        return sum_to(grad, ctx.shape), None


# ---- indexing ----------------------------------------------------------------------------

class IndexGrad(Function):
    """The backward of indexing: a zero tensor of the input's shape with the gradient placed at ``key``."""
    node_name = "IndexGradBackward"

    @staticmethod
    def forward(ctx, grad, shape, key):
        ctx.key = key
        out = np.zeros(shape, grad._data.dtype)
        np.add.at(out, key, grad._data)  # add.at sums repeated indices, e.g. x[[0, 0]]
        return Tensor(out)

    @staticmethod
    def backward(ctx, g):
        return g[ctx.key], None, None


class Select(Function):
    """``x[i]`` (or ``x[:, i]``): removes one dim."""
    node_name = "SelectBackward0"

    @staticmethod
    def forward(ctx, a, dim, i, dim_for_errors=None):
        size = a._data.shape[dim]
        if not -size <= i < size:
            shown = dim if dim_for_errors is None else dim_for_errors
            raise IndexError(f"index {i} is out of bounds for dimension {shown} with size {size}")
        ctx.shape = a._data.shape
        ctx.key = (slice(None),) * dim + (i, Ellipsis)
        return view_of(a, a._data[ctx.key])

    @staticmethod
    def backward(ctx, grad):
        return IndexGrad.apply(grad, ctx.shape, ctx.key), None, None, None


class Slice(Function):
    """``x[1:3]`` (or ``x[:, ::2]``): keeps the dim, takes part of it."""
    node_name = "SliceBackward0"

    @staticmethod
    def forward(ctx, a, dim, s):
        if s.step is not None and s.step <= 0:
            raise ValueError("step must be greater than zero")
        ctx.shape = a._data.shape
        ctx.key = (slice(None),) * dim + (s, Ellipsis)
        return view_of(a, a._data[ctx.key])

    @staticmethod
    def backward(ctx, grad):
        return IndexGrad.apply(grad, ctx.shape, ctx.key), None, None


class Index(Function):
    """Advanced indexing with integer or boolean tensors / lists: a copy, not a view."""
    node_name = "IndexBackward0"

    @staticmethod
    def forward(ctx, a, key):
        ctx.shape = a._data.shape
        ctx.key = key
        try:
            return Tensor(np.asarray(a._data[key]))
        except IndexError as e:
            raise IndexError(str(e)) from None

    @staticmethod
    def backward(ctx, grad):
        return IndexGrad.apply(grad, ctx.shape, ctx.key), None


def _is_advanced(k):
    return isinstance(k, (Tensor, list, np.ndarray)) or (isinstance(k, bool))


def index(t, key):
    """``t[key]`` as a chain of Select / Slice / Unsqueeze nodes (and Index for lists or tensors),
    the way PyTorch records it: ``x[1:, 0]`` is a SliceBackward0 then a SelectBackward0."""
    key = key if isinstance(key, tuple) else (key,)
    if t._data.ndim == 0 and any(k is not None and k is not Ellipsis for k in key):
        raise IndexError("invalid index of a 0-dim tensor. Use `tensor.item()` in Python or `tensor.item<T>()` in "
                         "C++ to convert a 0-dim tensor to a number")
    used = sum(1 for k in key if k is not None and k is not Ellipsis and not
               (isinstance(k, (Tensor, np.ndarray)) and k.dtype == bool))
    if used > t._data.ndim:
        raise IndexError(f"too many indices for tensor of dimension {t._data.ndim}")
    if any(_is_advanced(k) for k in key):
        # the basic parts first (as views), then one advanced-indexing node on the result
        basic = tuple(slice(None) if _is_advanced(k) else k for k in key)
        rest = tuple(_as_index_array(k) if _is_advanced(k) else slice(None) if k is not Ellipsis else k
                     for k in key if not isinstance(k, int) or isinstance(k, bool))
        out = _basic_index(t, basic) if any(not _is_advanced(k) and k != slice(None) for k in key) else t
        return Index.apply(out, rest if len(rest) > 1 else rest[0])
    return _basic_index(t, key)


def _as_index_array(k):
    return k._data if isinstance(k, Tensor) else np.asarray(k)


def _basic_index(t, key):
    out, dim, orig = t, 0, 0  # dim: position in `out`; orig: the dim of `t` it came from (for messages)
    for pos, k in enumerate(key):
        if k is Ellipsis:
            later = sum(1 for k2 in key[pos + 1:] if k2 is not None and k2 is not Ellipsis)
            skip = out._data.ndim - later - dim
            dim, orig = dim + skip, orig + skip
        elif k is None:
            out = Unsqueeze.apply(out, dim)
            dim += 1
        elif isinstance(k, slice):
            if k != slice(None):
                out = Slice.apply(out, dim, k)
            dim, orig = dim + 1, orig + 1
        else:
            out = Select.apply(out, dim, int(k), orig)
            orig += 1
    if out is t:  # x[:] or x[...]: still a new view, as in PyTorch
        out = Slice.apply(t, 0, slice(None)) if t._data.ndim else view_of_alias(t)
    return out


def view_of_alias(t):
    return Unsqueeze.apply(t, 0).squeeze(0)


class IndexPut(Function):
    """``x[key] = value``: the out-of-place version; ``setitem`` writes the result back into ``x``.

    PyTorch records it as ``CopySlices`` (a copy into a slice of ``x``)."""
    node_name = "CopySlices"

    @staticmethod
    def forward(ctx, a, key, value):
        out = a._data.copy()
        out[key] = value._data
        ctx.key, ctx.value_shape = key, value._data.shape
        return Tensor(out)

    @staticmethod
    def backward(ctx, grad):
        g = grad.clone()
        ga = IndexPutZero.apply(g, ctx.key) if ctx.needs_input_grad[0] else None
        gv = sum_to(grad[ctx.key], ctx.value_shape) if ctx.needs_input_grad[2] else None
        return ga, None, gv


class IndexPutZero(Function):
    """The gradient of overwritten elements is zero."""
    node_name = "IndexPutBackward0"

    @staticmethod
    def forward(ctx, g, key):
        ctx.key = key
        out = g._data.copy()
        out[key] = 0
        return Tensor(out)

    @staticmethod
    def backward(ctx, grad):
        return IndexPutZero.apply(grad, ctx.key), None


def setitem(t, key, value):
    from ..autograd import grad_mode
    from ._util import as_operand
    from .inplace import inplace
    if grad_mode._enabled and t._requires_grad and t.grad_fn is None:  # PyTorch writes into the view t[key]
        raise RuntimeError("a view of a leaf Variable that requires grad is being used in an in-place operation.")
    if isinstance(key, Tensor):
        key = key._data
    elif isinstance(key, tuple):
        key = tuple(k._data if isinstance(k, Tensor) else k for k in key)
    inplace(t, IndexPut, key, as_operand(value, t).to(t.dtype))


class Cat(Function):
    node_name = "CatBackward0"

    @staticmethod
    def forward(ctx, dim, *tensors):
        d = _wrap_dim(dim, tensors[0]._data.ndim)
        ctx.dim = d
        ctx.sizes = [t._data.shape[d] for t in tensors]
        return Tensor(np.concatenate([t._data for t in tensors], axis=d))

    @staticmethod
    def backward(ctx, grad):
        grads, start = [], 0
        for size in ctx.sizes:
            grads.append(index(grad, (slice(None),) * ctx.dim + (slice(start, start + size),)))
            start += size
        return (None, *grads)


class Stack(Function):
    node_name = "StackBackward0"

    @staticmethod
    def forward(ctx, dim, *tensors):
        d = _wrap_dim(dim, tensors[0]._data.ndim + 1)
        ctx.dim, ctx.n = d, len(tensors)
        return Tensor(np.stack([t._data for t in tensors], axis=d))

    @staticmethod
    def backward(ctx, grad):
        return (None, *(grad.select(ctx.dim, i) for i in range(ctx.n)))
