"""Shape ops: views that share memory with their input, and indexing.

A view (``view``, ``t``, ``transpose``, ``unsqueeze``, ``x[0]``, ...) shares the numpy memory and
the version counter of its input, as in PyTorch; its backward just reshapes or places the
gradient back.
"""
import re
from types import SimpleNamespace

import numpy as np

from ..autograd.function import FREED_MSG, BuiltinNode
from .dispatch import Op
from .._core.tensor_base import TensorBase as Tensor, cpp_type_name
from ._out import write_out
from ._util import _wrap_dim, int_or, is_expandable_to, strided, sum_to, unsigned, view_of
from .promotion import plainly_row_major, result_type
from .._core.layout import cast, contiguous_strides, dense_strides, dims_fastest_first, like, row_major, with_strides


class _ArrayInterface:
    """Something numpy reads as an array through ``__array_interface__`` (the way numpy's own ``as_strided``
    makes its views); ``base`` keeps the memory alive."""

    def __init__(self, interface, base):
        self.__array_interface__, self.base = interface, base


def empty_view(array, start, shape, strides):
    """An empty view (``shape`` has a 0) that starts ``start`` bytes after ``array``'s first element, with these byte
    ``strides``.  numpy puts an empty slice at the start of its memory with step 1 (``np.ones(1)[1:]`` starts where
    the ones do), and gives ``as_strided`` no place past the memory's end; PyTorch's empty views keep their offset
    and strides (``torch.ones(1)[1:].storage_offset()`` is 1), which ``storage_offset()`` and ``stride()`` show."""
    pointer, read_only = array.__array_interface__["data"]
    interface = {"data": (pointer + start, read_only), "shape": tuple(shape), "strides": tuple(strides),
                 "typestr": array.dtype.str, "descr": array.dtype.descr, "version": 3}
    return np.asarray(_ArrayInterface(interface, array))


def can_view(array, shape):
    """Can ``array`` be seen with ``shape`` without copying?"""
    return view_strides(array, _infer_shape(shape, array.size)) is not None


def view_strides(array, shape):
    """The byte strides of ``array`` seen with ``shape``, or None when no strides can do it (PyTorch's
    ``computeStride``). The dims are walked from the last in chunks that are contiguous among themselves; each
    chunk of the old shape must be made of whole dims of the new one. A dim of size 1 gets the stride a
    contiguous layout would give it there."""
    old_shape, old_strides = array.shape, array.strides
    if not old_shape:
        return (array.itemsize,) * len(shape)
    if array.size == 0:  # (strides move nothing then: the old ones for the same shape, else row-major ones)
        if tuple(shape) == old_shape:
            return old_strides
        strides, step = [0] * len(shape), array.itemsize
        for d in reversed(range(len(shape))):
            strides[d] = step
            step *= max(shape[d], 1)
        return tuple(strides)
    strides = [0] * len(shape)
    view_d = len(shape) - 1
    chunk_stride, tensor_numel, view_numel = old_strides[-1], 1, 1
    for tensor_d in reversed(range(len(old_shape))):
        tensor_numel *= old_shape[tensor_d]
        if tensor_d == 0 or (old_shape[tensor_d - 1] != 1 and
                             old_strides[tensor_d - 1] != tensor_numel * chunk_stride):  # the end of a chunk
            while view_d >= 0 and (view_numel < tensor_numel or shape[view_d] == 1):
                strides[view_d] = view_numel * chunk_stride
                view_numel *= shape[view_d]
                view_d -= 1
            if view_numel != tensor_numel:
                return None
            if tensor_d > 0:
                chunk_stride, tensor_numel, view_numel = old_strides[tensor_d - 1], 1, 1
    return tuple(strides) if view_d == -1 else None


def _infer_shape(shape, numel):
    shape = list(shape)
    if shape.count(-1) > 1:
        raise RuntimeError("only one dimension can be inferred")
    known = 1
    for s in shape:
        if s != -1:
            known *= s
    if -1 in shape:
        if known == 0 and numel == 0:
            raise RuntimeError(f"cannot reshape tensor of 0 elements into shape {list(shape)} because the unspecified "
                               f"dimension size -1 can be any value and is ambiguous")
        if known == 0 or numel % known:
            raise RuntimeError(f"shape '{list(shape)}' is invalid for input of size {numel}")
        shape[shape.index(-1)] = numel // known
    elif known != numel:
        raise RuntimeError(f"shape '{list(shape)}' is invalid for input of size {numel}")
    return tuple(shape)


class View(Op):
    node_name = "ViewBackward0"
    saved_names = {"self_sym_sizes": "shape"}  # (grad_fn._saved_*)

    @staticmethod
    def forward(ctx, a, shape):
        shape = _infer_shape(shape, a._data.size)
        ctx.shape = a._data.shape
        strides = view_strides(a._data, shape)
        if strides is None:
            raise RuntimeError("view size is not compatible with input tensor's size and stride (at least one "
                               "dimension spans across two contiguous subspaces). Use .reshape(...) instead.")
        return view_of(a, strided(a._data, shape, strides))

    @staticmethod
    def backward(ctx, grad):
        return grad.reshape(ctx.shape), None


class UnsafeView(View):
    """The reshape at the end of a batched matmul, or of a copy (PyTorch's ``_unsafe_view``,
    ``UnsafeViewBackward0``).  Its input is a fresh tensor no one else sees, so the result is not a
    view to autograd: no ``_base``, its own version counter (an in-place op on it records its own node)."""
    node_name = "UnsafeViewBackward0"

    @staticmethod
    def forward(ctx, a, shape):
        return Tensor(View.forward(ctx, a, shape)._data)


class ReshapeAlias(View):
    """``reshape`` of a tensor that is not contiguous but can still be seen with the new shape
    (``x.t().reshape(3, 2)``): PyTorch's ``_reshape_alias``, a view like ``view``."""
    node_name = "ReshapeAliasBackward0"


class Alias(Op):
    """``x[...]``, or a key that selects all of ``x``: a new view of the whole tensor (PyTorch's ``alias``)."""
    node_name = "AliasBackward0"

    @staticmethod
    def forward(ctx, a):
        return view_of(a, a._data.view())

    @staticmethod
    def backward(ctx, grad):
        return grad


class T(Op):
    node_name = "TBackward0"

    @staticmethod
    def forward(ctx, a):
        return view_of(a, a._data.T)

    @staticmethod
    def backward(ctx, grad):
        return grad.t()


class TInPlace(T):
    """``x.t_()``: ``x`` itself transposed (``ops.inplace_view``)."""
    node_name = "TBackward1"

    @staticmethod
    def forward(ctx, a):
        if a._data.ndim > 2:
            raise RuntimeError(f"t_() expects a tensor with <= 2 dimensions, but self is {a._data.ndim}D")
        return T.forward(ctx, a)


class Transpose(Op):
    node_name = "TransposeBackward0"
    saved_names = {"dim0": "dim0", "dim1": "dim1"}  # (grad_fn._saved_*: the dims as passed, shown unsigned)

    @staticmethod
    def forward(ctx, a, dim0, dim1):
        n = a._data.ndim
        ctx.dim0, ctx.dim1 = unsigned(dim0), unsigned(dim1)
        ctx.dims = (_wrap_dim(dim0, n), _wrap_dim(dim1, n))
        if n == 0:  # transpose(0, -1) of a 0-dim tensor: itself, as a view
            return view_of(a, a._data.view())
        return view_of(a, np.swapaxes(a._data, *ctx.dims))

    @staticmethod
    def backward(ctx, grad):
        return grad.transpose(*ctx.dims), None, None


class TransposeInPlace(Transpose):
    """``x.transpose_(0, 1)`` (``swapdims_``, ``swapaxes_``): ``x`` itself transposed (``ops.inplace_view``)."""
    node_name = "TransposeBackward1"


class Permute(Op):
    node_name = "PermuteBackward0"
    saved_names = {"dims": "dims_shown"}  # (grad_fn._saved_dims: as passed, shown unsigned)

    @staticmethod
    def forward(ctx, a, dims):
        n = a._data.ndim
        if len(dims) != n:
            raise RuntimeError(f"permute(sparse_coo): number of dimensions in the tensor input does not match the "
                               f"length of the desired ordering of dimensions i.e. input.dim() = {n} is not equal "
                               f"to len(dims) = {len(dims)}")
        ctx.dims, ctx.dims_shown = tuple(_wrap_dim(d, n) for d in dims), unsigned(tuple(dims))
        return view_of(a, np.transpose(a._data, ctx.dims))

    @staticmethod
    def backward(ctx, grad):
        return grad.permute(tuple(np.argsort(ctx.dims).tolist())), None


def diagonal_view(array, offset, dim1, dim2):
    """The diagonal of ``array`` in dims ``dim1, dim2`` as a view, last (numpy's; writable, as PyTorch's is)."""
    d = np.diagonal(array, offset, dim1, dim2)
    if d.shape[-1] == 0:  # (an empty diagonal starts where ``array`` does in PyTorch; numpy moves it by the offset)
        return empty_view(array, 0, d.shape, d.strides)
    d.setflags(write=array.flags.writeable)  # (numpy hands out its diagonal read-only)
    return d


class Diagonal(Op):
    """``x.diagonal(offset, dim1, dim2)``: a view of the elements ``x[..., i, i + offset, ...]``, in a new last dim."""
    node_name = "DiagonalBackward0"
    saved_names = {"offset": "offset_shown", "dim1": "dim1_shown", "dim2": "dim2_shown", "self_sym_sizes": "shape"}

    @staticmethod
    def forward(ctx, a, offset, dim1, dim2):
        n = a._data.ndim
        d1, d2 = _wrap_dim(dim1, n), _wrap_dim(dim2, n)
        if d1 == d2:
            raise RuntimeError(f"diagonal dimensions cannot be identical {dim1}, {dim2}")
        ctx.shape, ctx.offset, ctx.dim1, ctx.dim2 = a._data.shape, offset, d1, d2
        ctx.offset_shown, ctx.dim1_shown, ctx.dim2_shown = unsigned((offset, dim1, dim2))  # (_saved_*: as passed)
        return view_of(a, diagonal_view(a._data, offset, d1, d2))

    @staticmethod
    def backward(ctx, grad):
        return DiagonalGrad.apply(grad, ctx.shape, ctx.offset, ctx.dim1, ctx.dim2), None, None, None


class DiagonalGrad(Op):
    """The backward of ``diagonal``: zeros of the input's shape with the gradient on the diagonal
    (PyTorch: ``diagonal_backward``)."""
    node_name = "DiagonalBackwardBackward0"

    @staticmethod
    def forward(ctx, grad, shape, offset, dim1, dim2):
        ctx.offset, ctx.dim1, ctx.dim2 = offset, dim1, dim2
        out = np.zeros(shape, grad._data.dtype)
        diagonal_view(out, offset, dim1, dim2)[...] = grad._data
        return Tensor(out)

    @staticmethod
    def backward(ctx, g):
        return g.diagonal(ctx.offset, ctx.dim1, ctx.dim2), None, None, None, None


def unsqueezed(array, dim):
    """``array`` with a new dim of size 1 at ``dim``. Its stride (which moves nothing) is PyTorch's, as
    ``x.stride()`` shows it: the size times the stride of the dim it is put before, or 1 at the end."""
    x = array
    stride = x.shape[dim] * x.strides[dim] if dim < x.ndim else x.itemsize
    return strided(x, x.shape[:dim] + (1,) + x.shape[dim:], x.strides[:dim] + (stride,) + x.strides[dim:])


class Unsqueeze(Op):
    node_name = "UnsqueezeBackward0"
    saved_names = {"dim": "dim_shown"}  # (grad_fn._saved_dim)

    @staticmethod
    def forward(ctx, a, dim):
        ctx.dim, ctx.dim_shown = _wrap_dim(dim, a._data.ndim + 1), unsigned(dim)  # (shown as passed)
        return view_of(a, unsqueezed(a._data, ctx.dim))

    @staticmethod
    def backward(ctx, grad):
        return grad.squeeze(ctx.dim), None


class UnsqueezeInPlace(Unsqueeze):
    """``x.unsqueeze_(0)``: ``x`` itself gets the new dim (``ops.inplace_view``)."""
    node_name = "UnsqueezeBackward1"


class Squeeze(Op):
    node_name = "SqueezeBackward0"
    saved_names = {"self_sym_sizes": "shape"}  # (grad_fn._saved_*)

    @staticmethod
    def forward(ctx, a):
        ctx.shape = a._data.shape
        return view_of(a, a._data.reshape([s for s in a._data.shape if s != 1]))

    @staticmethod
    def backward(ctx, grad):  # (PyTorch's unsqueeze_to: the size-1 dims back, one unsqueeze each)
        for d, size in enumerate(ctx.shape):
            if size == 1:
                grad = grad.unsqueeze(d)
        return grad


class SqueezeInPlace(Squeeze):
    """``x.squeeze_()``: ``x`` itself loses its dims of size 1 (``ops.inplace_view``)."""
    node_name = "SqueezeBackward3"


class SqueezeDim(Op):
    node_name = "SqueezeBackward1"
    saved_names = {"dim": "dim_shown", "self_sym_sizes": "shape"}  # (grad_fn._saved_*)

    @staticmethod
    def forward(ctx, a, dim):
        ctx.shape, ctx.dim_shown = a._data.shape, unsigned(dim)  # (shown as passed)
        ctx.dim = dim = _wrap_dim(dim, a._data.ndim)
        if a._data.ndim and a._data.shape[dim] == 1:
            return view_of(a, np.squeeze(a._data, dim))
        return view_of(a, a._data.view())

    @staticmethod
    def backward(ctx, grad):  # (PyTorch's unsqueeze_to: the dim back if it was squeezed, else grad as it is)
        return (grad.unsqueeze(ctx.dim) if ctx.shape and ctx.shape[ctx.dim] == 1 else grad), None


class SqueezeDimInPlace(SqueezeDim):
    """``x.squeeze_(0)`` (matmul's ``product.squeeze_(0)`` too): ``x`` itself loses the dim (``ops.inplace_view``)."""
    node_name = "SqueezeBackward4"


def expanded(array, shape):
    """``array`` seen with the bigger ``shape``: a new dim, or one of size 1, gets stride 0 (PyTorch's
    ``inferExpandGeometry``).  Unlike numpy's ``broadcast_to`` the view can be written, as PyTorch's can:
    the places it shares with ``array`` change."""
    lead = len(shape) - array.ndim  # (the new dims, in front)
    strides = [0] * lead + [0 if old == 1 and new != 1 else stride
                            for old, new, stride in zip(array.shape, shape[lead:], array.strides)]
    if 1 in shape[:lead]:
        _step_over_new_ones(strides, shape, lead)
    return np.lib.stride_tricks.as_strided(array, shape, strides, writeable=array.flags.writeable)


def _step_over_new_ones(strides, shape, lead):
    """A new dim of size 1 in ``expanded`` steps over the dims after it, as a contiguous one would."""
    for i in reversed(range(lead)):
        if shape[i] == 1:
            strides[i] = shape[i + 1] * strides[i + 1] if i + 1 < len(shape) else 0


class Expand(Op):
    node_name = "ExpandBackward0"
    saved_names = {"self_sym_sizes": "shape"}  # (grad_fn._saved_*)

    @staticmethod
    def forward(ctx, a, sizes):
        ctx.shape = a._data.shape
        return view_of(a, expanded(a._data, expand_target(a, sizes)))

    @staticmethod
    def backward(ctx, grad):
        # PyTorch: at::sum_to(grad, self.sizes()), which for a 0-dim self is always grad.sum() (SumBackward0
        # under create_graph), even when grad is 0-dim too (an expand of a 0-dim tensor to ())
        if ctx.shape == ():
            return grad.sum(), None
        return sum_to(grad, ctx.shape), None


# ---- indexing ----------------------------------------------------------------------------

class IndexGrad(Op):
    """The backward of taking part of a tensor: zeros of the input's shape, the gradient added in at ``key``
    (``np.add.at`` sums repeated indices, e.g. of ``x[[0, 0]]``).  Its own backward takes ``key`` again.

    PyTorch names this node after the op it undoes, and writes it as a call on zeros where the op
    copied (``zeros.index_put_(key, grad, accumulate=True)``): that form has a first edge, to the
    zeros, which needs no gradient (``IndexPutGrad`` below)."""
    node_name = "IndexGradBackward"

    @staticmethod
    def forward(ctx, grad, shape, key):
        ctx.key = key
        out = np.zeros(shape, grad._data.dtype)
        np.add.at(out, key, grad._data)
        return Tensor(out)

    @staticmethod
    def backward(ctx, g):
        return g[ctx.key], None, None


def expand_target(a, sizes):
    """The shape ``a.expand(*sizes)`` gives: ``sizes``, a -1 keeping the size ``a`` has (PyTorch's
    ``inferExpandGeometry``), with PyTorch's errors when ``a`` cannot be expanded to it."""
    if -1 not in sizes and is_expandable_to(a._data.shape, sizes):  # (the usual case)
        return tuple(sizes)
    shape = a._data.shape
    if len(sizes) < len(shape):
        raise RuntimeError(f"expand({cpp_type_name(a)}{{{list(shape)}}}, size={list(sizes)}): the number of "
                           f"sizes provided ({len(sizes)}) must be greater or equal to the number of dimensions "
                           f"in the tensor ({len(shape)})")
    lead = len(sizes) - len(shape)
    target = []
    for i in reversed(range(len(sizes))):  # (from the last dim, as PyTorch's inferExpandGeometry)
        s, old = sizes[i], shape[i - lead] if i >= lead else None
        if s == -1:
            if old is None:
                raise RuntimeError(f"The expanded size of the tensor (-1) isn't allowed in a leading, "
                                   f"non-existing dimension {i}")
            s = old
        elif old is not None and old != s and old != 1:
            raise RuntimeError(f"The expanded size of the tensor ({s}) must match the existing size ({old}) at "
                               f"non-singleton dimension {i}.  Target sizes: {list(sizes)}.  Tensor sizes: "
                               f"{list(shape)}")
        target.insert(0, s)
    return tuple(target)


class SelectGrad(IndexGrad):
    node_name = "SelectBackwardBackward0"  # (PyTorch: select_backward)


class SliceGrad(IndexGrad):
    node_name = "SliceBackwardBackward0"  # (PyTorch: slice_backward)


class IndexNode(BuiltinNode):
    """The node of ``x[key]`` and ``x[key] = v`` (``IndexBackward0``, ``IndexPutBackward0``): it saved one index tensor
    per entry of PyTorch's list of indices, None for a whole dim, and shows them as PyTorch does."""

    @property
    def _saved_indices(self):  # (a tuple of tensors, None for a whole dim)
        if self._freed:
            raise RuntimeError(FREED_MSG)
        return tuple([self._unpacked_at(i) for i in range(len(self._saved))])

    @property
    def _raw_saved_indices(self):  # (the SavedTensor objects; an undefined one for a whole dim)
        if self._freed:
            raise RuntimeError(FREED_MSG)
        return tuple([self._object_saved_at(i) for i in range(len(self._saved))])


def saved_indices(key, ndim):
    """PyTorch's list of indices for a key of index tensors, whole-dim slices and ``...`` on a tensor of ``ndim`` dims:
    one entry per index tensor or mask (a mask spans its dims), None for each whole dim before the last index
    (``...`` for as many as it spans)."""
    spanned = sum(k._data.ndim if k._data.dtype == np.bool_ else 1 for k in key if isinstance(k, Tensor))
    spanned += sum(1 for k in key if isinstance(k, slice))
    indices = []
    for k in key:
        if isinstance(k, Tensor):
            indices.append(k)
        else:
            indices += [None] * (ndim - spanned if k is Ellipsis else 1)
    while indices and indices[-1] is None:
        indices.pop()
    return indices


def key_of_saved(indices):
    """The saved indices as a key again: a whole slice for each None."""
    return tuple([slice(None) if i is None else i for i in indices])


def numpy_key(key):
    """A key as numpy takes it: each index tensor as its array (one alone as itself)."""
    key = tuple([k._data if isinstance(k, Tensor) else k for k in key])
    return key[0] if len(key) == 1 else key


def index_tensor(k):
    """An index (a tensor, list or array) as a tensor: the caller's own tensor, which the node saves (changed in place
    before backward, it raises), or a new one."""
    return k if isinstance(k, Tensor) else Tensor(np.asarray(k))


class IndexPutGrad(Op):
    """``zeros.index_put_(indices, grad, accumulate=True)``: the backward of advanced indexing, as PyTorch writes it
    (``IndexPutImplBackward0``, edges: the zeros, needing no gradient, then ``grad``).  ``key``: the indices ``x[key]``
    saved, as a key (``key_of_saved``); this node saves them again."""
    node_name = "IndexPutImplBackward0"
    saved_names = {"accumulate": "accumulate"}  # (grad_fn._saved_*; _saved_indices: IndexNode)
    _node_base = IndexNode

    @staticmethod
    def forward(ctx, zeros, grad, key):
        ctx.save_for_backward(*saved_indices(key, zeros._data.ndim))
        ctx.accumulate = True
        out = zeros._data.copy()
        np.add.at(out, numpy_key(key), grad._data)
        return Tensor(out)

    @staticmethod
    def backward(ctx, g):
        return None, g[key_of_saved(ctx.saved_tensors)], None

    @classmethod
    def of(cls, grad, shape, key):
        """The gradient placed into zeros of ``shape``."""
        return cls.apply(Tensor(np.zeros(shape, grad._data.dtype)), grad, key)


class PutGrad(Op):
    """``take``'s backward, ``zeros.put_(index, grad, accumulate=True)``: ``index`` (take's, a ``NoEdge``) counts
    through the flattened tensor, a negative one from the end."""
    node_name = "PutBackward0"
    saved_names = {"accumulate": "accumulate", "index": 0, "source": 1}  # (grad_fn._saved_*)

    @staticmethod
    def forward(ctx, zeros, grad, index):
        ctx.save_for_backward(index.tensor, grad if ctx.needs_input_grad[1] else None)
        ctx.accumulate = True
        idx, out = index.tensor._data.reshape(-1), zeros._data.copy()
        np.add.at(out.reshape(-1), np.where(idx < 0, idx + out.size, idx), grad._data.reshape(-1))
        return Tensor(out)

    @staticmethod
    def backward(ctx, g):
        index, _ = ctx.saved_tensors
        return None, g.take(index), None


class Select(Op):
    """``x[i]`` (or ``x[:, i]``): removes one dim."""
    node_name = "SelectBackward0"
    saved_names = {"dim": "dim", "index": "index", "self_sym_sizes": "shape"}  # (grad_fn._saved_*, shown unsigned)

    @staticmethod
    def forward(ctx, a, dim, i, dim_for_errors=None):
        """``dim_for_errors``: when called for ``x[..., i]``, the place of ``i`` in the key (for the message)."""
        if a._data.ndim == 0:
            raise IndexError("select() cannot be applied to a 0-dim tensor.")
        ctx.dim = unsigned(dim)  # (shown as passed)
        dim = _wrap_dim(dim, a._data.ndim)
        size = a._data.shape[dim]
        if not -size <= i < size:
            if dim_for_errors is None:  # x.select(dim, i)
                raise IndexError(f"select(): index {i} out of range for tensor of size {list(a._data.shape)} at "
                                 f"dimension {dim}")
            raise IndexError(f"index {i} is out of bounds for dimension {dim_for_errors} with size {size}")
        ctx.shape, ctx.index = a._data.shape, unsigned(int(i))
        ctx.key = (slice(None),) * dim + (i, Ellipsis)
        return view_of(a, a._data[ctx.key])

    @staticmethod
    def backward(ctx, grad):
        return SelectGrad.apply(grad, ctx.shape, ctx.key), None, None, None


def sliced(array, dim, s):
    """``array`` sliced by ``s`` (a slice with no negative step) along ``dim``: a view.  An empty one keeps PyTorch's
    place and step, which numpy drops (see ``empty_view``)."""
    out = array[(slice(None),) * dim + (s, Ellipsis)]
    if out.size:
        return out
    size, strides = array.shape[dim], list(array.strides)
    start = int_or(s.start, 0)
    start = min(max(start + size if start < 0 else start, 0), size)  # (PyTorch clamps the start into the dim)
    strides[dim] *= int_or(s.step, 1)
    return empty_view(array, start * array.strides[dim], out.shape, strides)


class Slice(Op):
    """``x[1:3]`` (or ``x[:, ::2]``): keeps the dim, takes part of it."""
    node_name = "SliceBackward0"
    saved_names = {"dim": "dim", "start": "start", "end": "end", "step": "step", "self_sym_sizes": "shape"}

    @staticmethod
    def forward(ctx, a, dim, s):
        if s.step is not None and s.step <= 0:
            raise ValueError("step must be greater than zero")
        ctx.shape, ctx.dim = a._data.shape, unsigned(dim)  # (shown as passed)
        dim = _wrap_dim(dim, a._data.ndim)
        # (grad_fn._saved_*: the slice as passed, shown unsigned; an open end is PyTorch's INT64_MAX)
        ctx.start, ctx.end = unsigned(int_or(s.start, 0)), unsigned(int_or(s.stop, 2 ** 63 - 1))
        ctx.step = int_or(s.step, 1)
        ctx.key = (slice(None),) * dim + (s, Ellipsis)
        return view_of(a, sliced(a._data, dim, s))

    @staticmethod
    def backward(ctx, grad):
        return SliceGrad.apply(grad, ctx.shape, ctx.key), None, None


class Index(Op):
    """Advanced indexing with integer or boolean tensors / lists: a copy, not a view.  ``key`` is a tuple of index
    tensors, whole-dim slices and ``...``; the node saves the index tensors (``grad_fn._saved_indices``)."""
    node_name = "IndexBackward0"
    saved_names = {"self_sym_sizes": "shape"}  # (grad_fn._saved_*; _saved_indices: IndexNode)
    _node_base = IndexNode

    @staticmethod
    def forward(ctx, a, key):
        ctx.shape = a._data.shape
        np_key = numpy_key(key)
        try:
            out = np.asarray(a._data[np_key])
        except IndexError as e:
            raise IndexError(_index_message(str(e), np_key, a._data.shape)) from None
        ctx.save_for_backward(*saved_indices(key, a._data.ndim))
        strides = index_result_strides(a._data, np_key, out)
        return Tensor(out if strides is None else with_strides(out, strides))

    @staticmethod
    def backward(ctx, grad):
        # derivatives.yaml: index_backward(grad.new_zeros(self_sym_sizes), indices, grad)
        return IndexPutGrad.of(grad, ctx.shape, key_of_saved(ctx.saved_tensors)), None


def index_result_strides(x, key, out):
    """The byte strides of PyTorch's ``index`` result (``x[key]``, the key holding index arrays, masks, ``:`` and
    ``...``): its TensorIterator orders the result's dims by the strides of ``x`` seen with the indexed dims replaced
    by the index shape (stride 0: ``restride_src``) and of the index arrays broadcast to the result; indexed dims that
    are not next to each other are moved to the front first (``transposeToFront``). None: another kind of key."""
    if out.ndim < 2:  # (one dim: a fresh result is contiguous in both)
        return None
    if isinstance(key, np.ndarray) and key.dtype != bool and plainly_row_major(x) and plainly_row_major(key):
        return None  # (the usual case, rows of a row-major x picked by a row-major index: row-major in both)
    keys = key if isinstance(key, tuple) else (key,)
    if not all(k is Ellipsis or isinstance(k, np.ndarray) or k == slice(None) for k in keys):
        return None
    per_dim = []  # one entry per dim of x: None (a whole dim) or an index array
    for k in keys:
        if k is Ellipsis:
            per_dim += [None] * (x.ndim - sum(k2.ndim if isinstance(k2, np.ndarray) and k2.dtype == bool else 1
                                              for k2 in keys if k2 is not Ellipsis))
        elif isinstance(k, np.ndarray) and k.dtype == bool:  # a mask: the columns of its nonzero() (n, dims)
            per_dim += list(np.stack(np.nonzero(k), axis=1).T) if k.ndim else [np.zeros(int(k), np.int64)]
        else:
            per_dim.append(None if isinstance(k, slice) else k)
    per_dim += [None] * (x.ndim - len(per_dim))
    indexed = [d for d, k in enumerate(per_dim) if k is not None]
    if indexed != list(range(indexed[0], indexed[-1] + 1)):  # (apart: the indexed dims go first)
        order = indexed + [d for d in range(x.ndim) if d not in indexed]
    else:
        order = list(range(x.ndim))
    shape, strides = [x.shape[d] for d in order], [x.strides[d] for d in order]
    indices = [per_dim[d] for d in order if per_dim[d] is not None]
    index_shape = np.broadcast_shapes(*[i.shape for i in indices])
    before = next(i for i, d in enumerate(order) if per_dim[d] is not None)
    after = len(order) - before - len(indices)
    result = tuple(shape[:before]) + index_shape + tuple(shape[before + len(indices):])
    if result != out.shape:
        return None
    src = SimpleNamespace(ndim=len(result), shape=result, strides=tuple(strides[:before]) + (0,) * len(index_shape)
                          + tuple(strides[before + len(indices):]))
    operands = [src] + [_index_as_operand(np.broadcast_to(i, index_shape), before, after) for i in indices]
    return dense_strides(result, out.itemsize, dims_fastest_first(result, operands))


def _index_as_operand(index, before, after):
    """An index array as PyTorch's ``index`` hands it to its TensorIterator (``reshape_indexer``): reshaped to
    ``(1,) * before + index.shape + (1,) * after``, with the strides that reshape gives (``computeStride``; a copy's
    row-major ones when no view can do it)."""
    shape = (1,) * before + index.shape + (1,) * after
    strides = view_strides(index, shape) or contiguous_strides(shape, index.itemsize)
    return SimpleNamespace(ndim=len(shape), shape=shape, strides=strides)


def _index_message(msg, key, shape):
    """numpy's "index 5 is out of bounds for axis 1" in PyTorch's words: PyTorch counts the dim among
    the indexed dims only (``x[:, [5]]`` is out of bounds "for dimension 0"). A mask of the wrong
    shape: PyTorch names the mask's shape and the tensor's. Index tensors whose shapes do not broadcast:
    PyTorch names their shapes as lists (a mask's as those of its nonzero() columns)."""
    if msg.startswith("shape mismatch: indexing arrays could not be broadcast together"):
        shapes = []  # (a mask counts as the columns of its nonzero(): one index per dim it spans)
        for k in key if isinstance(key, tuple) else (key,):
            if isinstance(k, np.ndarray):
                shapes += [[int(k.sum())]] * k.ndim if k.dtype == np.bool_ else [list(k.shape)]
        return ("shape mismatch: indexing tensors could not be broadcast together with shapes "
                + ", ".join(str(s) for s in shapes))
    m = re.match(r"boolean index did not match indexed array along (?:axis|dimension) (\d+)", msg)
    if m:
        axis, seen = int(m.group(1)), 0
        for k in key if isinstance(key, tuple) else (key,):
            width = k.ndim if isinstance(k, np.ndarray) and k.dtype == bool else int(k is not None)
            if isinstance(k, np.ndarray) and k.dtype == bool and seen + width > axis:
                return (f"The shape of the mask {list(k.shape)} at index {axis - seen} does not match the shape of "
                        f"the indexed tensor {list(shape)} at index {axis}")
            seen += width
        return msg
    m = re.match(r"index (-?\d+) is out of bounds for axis (\d+) with size (\d+)", msg)
    if not m:
        return msg
    if m.group(3) == "0":  # (PyTorch names neither the index nor the dim then)
        return "index is out of bounds for dimension with size 0"
    axis, dim, seen = int(m.group(2)), 0, 0
    for k in key if isinstance(key, tuple) else (key,):
        if k is Ellipsis:
            dim = axis
            break
        width = k.ndim if isinstance(k, np.ndarray) and k.dtype == bool else 1
        if seen + width > axis:
            break
        dim += isinstance(k, np.ndarray)
        seen += width
    return f"index {m.group(1)} is out of bounds for dimension {dim} with size {m.group(3)}"


def sequence_as_tuple(key):
    """``x[[0, slice(None)]]`` or ``x[[[0], [1]]]``: a list holding lists, slices, tensors, None or
    ``...`` still means a tuple in PyTorch 2.13, with a deprecation warning (PyTorch's
    ``treatSequenceAsTuple``); any other list is one index tensor."""
    if isinstance(key, list) and len(key) < 32 and any(
            isinstance(k, (list, tuple, slice, Tensor, np.ndarray)) or k is None or k is Ellipsis for k in key):
        import warnings
        warnings.warn("Using a non-tuple sequence for multidimensional indexing is deprecated and will be changed "
                      "in pytorch 2.9; use x[tuple(seq)] instead of x[seq]. In pytorch 2.9 this will be interpreted "
                      "as tensor index, x[minigrad.tensor(seq)], which will result either in an error or a "
                      "different result", UserWarning, stacklevel=4)
        return tuple(key)
    return key


def _is_advanced(k):
    return isinstance(k, (Tensor, list, np.ndarray)) or (isinstance(k, bool))


def _check_zero_dim_key(t, key):
    """PyTorch's errors for indexing a 0-dim tensor (x[0], x[:], x[:] = 1, x[..., 0]): a lone slice or
    int has its own message, any other key is counted (``None``, ``...`` and ``True`` take no dim)."""
    if t._data.ndim:
        return
    if isinstance(key, slice):
        raise IndexError("slice() cannot be applied to a 0-dim tensor.")
    if isinstance(key, int) and not isinstance(key, bool):
        raise IndexError("invalid index of a 0-dim tensor. Use `tensor.item()` in Python or `tensor.item<T>()` "
                         "in C++ to convert a 0-dim tensor to a number")
    if any(k is not None and k is not Ellipsis and not _is_bool_scalar(k)
           for k in (key if isinstance(key, tuple) else (key,))):
        raise IndexError("too many indices for tensor of dimension 0")


def _is_bool_scalar(k):
    """``True``, a 0-dim bool tensor (or a 0-dim bool array: the key backward uses for such a mask)."""
    k = k._data if isinstance(k, Tensor) else k
    return isinstance(k, (bool, np.bool_)) or (isinstance(k, np.ndarray) and k.dtype == bool and k.ndim == 0)


def _whole(s, size):
    """Does slice ``s`` keep all of a dim of ``size``? (inside a tuple key, PyTorch then adds no node)"""
    return s.indices(size) == (0, size, 1)


def index(t, key):
    """``t[key]`` as PyTorch records it (``THPVariable_getitem``): a chain of Select / Slice /
    Unsqueeze views (``x[1:, 0]`` is a SliceBackward0 then a SelectBackward0) and one IndexBackward0
    for lists, tensors and masks. A lone slice is always a SliceBackward0 (even ``x[:]``); inside a
    tuple a slice over a whole dim adds no node, and a key that selects everything (``x[...]``,
    ``x[:, 0:]``) is an AliasBackward0. ``x[True]`` adds a dim of size 1 and masks it."""
    if _is_bool_scalar(key):  # (a dim of size 1, indexed with [0] or [])
        return Index.apply(Unsqueeze.apply(t, 0), (_bool_scalar_index(key),))
    key = sequence_as_tuple(key)
    lone_slice = isinstance(key, slice)
    _check_zero_dim_key(t, key)
    key = key if isinstance(key, tuple) else (key,)
    used = sum(1 for k in key if k is not None and k is not Ellipsis and not _is_bool_scalar(k) and not
               (isinstance(k, (Tensor, np.ndarray)) and k.dtype == bool))
    if used > t._data.ndim:
        raise IndexError(f"too many indices for tensor of dimension {t._data.ndim}")
    if lone_slice:
        return Slice.apply(t, 0, key[0])
    if any(_is_advanced(k) for k in key):
        # the basic parts first (as views), then one advanced-indexing node on the result.  A True or False
        # (or a 0-dim bool tensor) adds a dim, like None, which PyTorch then indexes with [0] or [] (no dim taken)
        basic = tuple(None if _is_bool_scalar(k) else slice(None) if _is_advanced(k) else k for k in key)
        rest = tuple(_bool_scalar_index(k) if _is_bool_scalar(k) else index_tensor(k)
                     if _is_advanced(k) else k if k is Ellipsis else slice(None)
                     for k in key if not isinstance(k, int) or isinstance(k, bool))
        return Index.apply(_basic_index(t, basic), rest)
    out = _basic_index(t, key)
    return Alias.apply(t) if out is t else out


def _bool_scalar_index(k):
    """``True`` (or a 0-dim bool tensor) indexes the dim it adds with ``[0]``, ``False`` with ``[]``."""
    return Tensor(np.arange(int(bool(k._data if isinstance(k, Tensor) else k))))


def _basic_index(t, key):
    out, dim = t, 0  # dim: the position in `out` the next item of the key applies to
    for pos, k in enumerate(key):
        if k is Ellipsis:
            later = sum(1 for k2 in key[pos + 1:] if k2 is not None and k2 is not Ellipsis)
            dim = out._data.ndim - later
        elif k is None:
            out = Unsqueeze.apply(out, dim)
            dim += 1
        elif isinstance(k, slice):
            if not _whole(k, out._data.shape[dim]):
                out = Slice.apply(out, dim, k)
            dim += 1
        else:  # (PyTorch's message names the index's place in the key as its "dimension")
            out = Select.apply(out, dim, int(k), pos)
    return out  # (``t`` itself when the key selects everything)


class IndexPut(Op):
    """``x[key] = value`` for a key with lists, tensors or masks (PyTorch's ``index_put_``), computed
    out of place; ``setitem`` writes the result back into ``x``. The overwritten places get no
    gradient, ``value`` gets the gradient of the places it went to (summed where it was broadcast)."""
    expanded_write = "index_put"  # (ops/inplace.py: it may write into an expanded tensor, with a warning)
    node_name = "IndexPutBackward0"
    saved_names = {"accumulate": "accumulate"}  # (grad_fn._saved_*; _saved_indices: IndexNode)
    _node_base = IndexNode
    indexed = True  # (value has the shape of x[key], not of x: ops.inplace leaves its checks to setitem)
    accumulate = False
    key_numbers = staticmethod(numpy_key)  # (ops/inplace.py: the key, to write x[key])

    @classmethod
    def forward(cls, ctx, a, tensor_key, value):
        """``tensor_key``: a tuple of index tensors, whole-dim slices and ``...``, which the node saves."""
        key = numpy_key(tensor_key)
        try:  # (the shape of a[key], the indices not checked yet: an index out of range is an error only later)
            result_shape = np.broadcast_to(np.empty((), bool), a._data.shape)[_in_range(key)].shape
        except IndexError:
            result_shape = value._data.shape  # (a bad index: its error comes below)
        if not is_expandable_to(value._data.shape, result_shape):  # (numpy would accept extra leading dims)
            raise RuntimeError(f"shape mismatch: value tensor of shape {list(value._data.shape)} cannot be broadcast "
                               f"to indexing result of shape {list(result_shape)}")
        if value._data.dtype != a._data.dtype and value._wrapped_number is None:
            _check_index_put_dtype(a, key if isinstance(key, tuple) else (key,), value)  # (a number converts)
        out = cast(a._data)  # (PyTorch: self.clone(preserve_format).index_put_(...))
        try:
            out[key] = value._data
        except IndexError as e:
            raise IndexError(_index_message(str(e), key, a._data.shape)) from None
        except ValueError as e:  # (numpy, like PyTorch, checks the shapes before the indices' range)
            m = re.search(r"indexing result of shape \(([\d, ]*)\)", str(e))
            result = [int(n) for n in m.group(1).split(",") if n.strip()] if m else list(out[key].shape)
            raise RuntimeError(f"shape mismatch: value tensor of shape {list(value._data.shape)} cannot be broadcast "
                               f"to indexing result of shape {result}") from None
        ctx.save_for_backward(*saved_indices(tensor_key, a._data.ndim))
        ctx.value_shape, ctx.accumulate = value._data.shape, cls.accumulate
        return Tensor(out)

    @staticmethod
    def backward(ctx, grad):
        # PyTorch's formula: grad.index_put(indices, zeros_like(values)) for x, grad.index(indices) for value
        key = key_of_saved(ctx.saved_tensors)
        zeros = Tensor(np.zeros(ctx.value_shape, grad._data.dtype))
        ga = IndexPut.apply(grad, key, zeros) if ctx.needs_input_grad[0] else None
        gv = grad[key] if ctx.needs_input_grad[2] else None
        return ga, None, gv


class IndexPutAccumulate(IndexPut):
    """``x.index_put_(indices, values, accumulate=True)``: the values are added in, and a place named twice
    gets both (numpy's ``np.add.at``).  The gradient of ``x`` passes unchanged; ``values`` get that of
    their places, as without ``accumulate``."""
    expanded_write = "index_put_accumulate"  # (ops/inplace.py: every index adds into its place)
    node_name = "IndexPutBackward0"
    accumulate = True

    @classmethod
    def forward(cls, ctx, a, tensor_key, value):
        super().forward(ctx, a, tensor_key, value)  # (its checks of shapes and dtypes; the indices saved)
        out = cast(a._data)
        np.add.at(out, numpy_key(tensor_key), value._data)
        return Tensor(out)

    @staticmethod
    def backward(ctx, grad):
        gv = grad[key_of_saved(ctx.saved_tensors)] if ctx.needs_input_grad[2] else None
        return (grad if ctx.needs_input_grad[0] else None), None, gv


def index_put(t, indices, values, accumulate=False, in_place=False):
    """``x.index_put_(indices, values)`` (and out of place, ``index_put``): ``x[indices] = values``, with a
    tuple of index tensors; ``accumulate=True`` adds instead."""
    from .inplace import inplace
    name = "index_put_" if in_place else "index_put"
    if not isinstance(indices, (tuple, list)):
        raise TypeError(f"{name}(): argument 'indices' (position 1) must be tuple of Tensors, not "
                        f"{type(indices).__name__}")
    if not isinstance(values, Tensor):
        raise TypeError(f"{name}(): argument 'values' (position 2) must be Tensor, not {type(values).__name__}")
    if t._data.ndim == 0 and indices:  # (x[mask] of a 0-dim x works; index_put's kernel has no dim to index)
        raise IndexError(f"too many indices for tensor of dimension 0 (got {len(indices)})")
    if in_place and not accumulate:
        setitem(t, tuple(indices), values)
        return t
    fn = IndexPutAccumulate if accumulate else IndexPut
    key = tuple(i if i is None else index_tensor(i) for i in indices)  # (saved by the node)
    return inplace(t, fn, key, values) if in_place else fn.apply(t, key, values)


class FillTensor(Op):
    """``x[:] = 0.5`` (a key that selects all of ``x``, with a number or a 0-dim tensor): PyTorch's
    ``x.fill_(value)`` on ``x`` itself. The old values get no gradient, the value the sum of it."""
    expanded_write = "fill"  # (ops/inplace.py: it may write into an expanded tensor)
    node_name = "FillBackward3"

    @staticmethod
    def forward(ctx, a, value):
        return Tensor(np.full_like(a._data, value._data))

    @staticmethod
    def backward(ctx, grad):
        return Tensor(np.zeros_like(grad._data)), grad.sum()


def _drop_leading_ones(value):
    """``value`` seen without its leading size-1 dims (PyTorch's ``slicePrefix1sSize`` in setitem)."""
    shape = value._data.shape
    while shape and shape[0] == 1:
        shape = shape[1:]
    return value.view(shape)


def setitem(t, key, value):
    """``t[key] = value`` as PyTorch's ``THPVariable_setitem`` records it:

    - lists, tensors or masks in the key: ``index_put_`` on ``t`` (``IndexPutBackward0``);
    - a key that selects all of ``t`` (``t[:]``, ``t[...]``, ``t[0:]``): ``t`` itself is written,
      by ``fill_`` when the value is a number or a 0-dim tensor (``FillBackward3``), else by
      ``copy_`` (``CopyBackwards``);
    - any other key writes into the view ``t[key]``, recorded on ``t`` as ``CopySlices``.

    A value of another shape is first seen without its leading size-1 dims (``ViewBackward0``),
    then expanded to the written shape (``ExpandBackward0``), as PyTorch's ``copy_to`` does."""
    from ..autograd import grad_mode
    from .promotion import as_operand
    from .inplace import OVERLAP, SHARED_PLACE, check_inplace, has_internal_overlap, inplace, overlaps
    from .elementwise import CopyFrom
    key = sequence_as_tuple(key)
    _check_zero_dim_key(t, key)
    keys = key if isinstance(key, tuple) else (key,)
    # PyTorch's setitem takes a 0-dim integer tensor in the key as an int: it selects (CopySlices, not index_put_)
    keys = tuple(int(k._data) if isinstance(k, Tensor) and k._data.ndim == 0 and k._data.dtype.kind in "iu" else k
                 for k in keys)
    key = keys if isinstance(key, tuple) else keys[0]
    if has_internal_overlap(t._data):  # an expanded t: write into the view its leading ints and slices pick
        lead = 0
        while lead < len(keys) and (isinstance(keys[lead], slice) or (
                isinstance(keys[lead], int) and not isinstance(keys[lead], bool))):
            lead += 1
        if any(k != slice(None) for k in keys[:lead]):  # (PyTorch's setitem takes that view first, then copies
            #                                               or index_puts into it)
            kept = sum(isinstance(k, slice) for k in keys[:lead])
            return setitem(t[keys[:lead]], (slice(None),) * kept + tuple(keys[lead:]), value)
    np_key = numpy_key(keys) if isinstance(key, tuple) else numpy_key(keys[:1])
    if isinstance(value, np.ndarray):
        raise TypeError(f"can't assign a numpy.ndarray to a {t.type()}")
    value = as_operand(value, t)
    if any(_is_advanced(k) for k in keys):
        if value._data.ndim and value._data.shape[0] == 1:
            value = _drop_leading_ones(value)
        # index_put_ on t itself, or (after an int, None or a part of a dim) on a view of t: CopySlices
        on_view = _is_bool_scalar(key) or any(
            k is None or _is_bool_scalar(k) or (isinstance(k, int) and not isinstance(k, bool))
            or (isinstance(k, slice) and not (k.start in (None, 0) and k.stop is None and k.step in (None, 1)))
            for k in keys)
        target, index_key = t, tuple(index_tensor(k) if _is_advanced(k) else k for k in keys)  # (saved by the node)
        if on_view:  # PyTorch's applySlicing: the view first, then index_put_ into it
            view_key, index_key = _split_key(keys)
            target = t[view_key]
        if grad_mode.is_grad_enabled() and (target.requires_grad or value.requires_grad):
            check_inplace(target)  # (autograd's checks come first)
        if not _fills_by_mask(numpy_key(index_key), value) and overlaps(target._data, value._data):
            raise RuntimeError(OVERLAP)  # (index_put_ refuses a value sharing memory with x, as PyTorch does)
        return inplace(target, IndexPut, index_key, value)
    try:
        dst_shape = t._data[np_key].shape
    except IndexError as e:  # an int out of range: numpy's axis is PyTorch's dim here
        raise IndexError(str(e).replace(" for axis ", " for dimension ")) from None
    whole = (all(k is Ellipsis or (isinstance(k, slice) and k.step in (None, 1)) for k in keys)
             and dst_shape == t._data.shape)
    if value._data.shape != dst_shape and value._data.ndim:
        value = _drop_leading_ones(value)
        if value._data.shape != dst_shape:
            value = value.expand(dst_shape)
    if whole:  # (into an expanded t PyTorch copies the value in, and copy_ refuses shared places after its checks)
        copy = value._data.shape == dst_shape or has_internal_overlap(t._data)
        return inplace(t, CopyFrom if copy else FillTensor, value)
    _leaf_check(t, True)
    # PyTorch's copy_to: the view t[key] takes the value by copy_ (fill_ for a 0-dim value), and the in-place
    # change of a view gives t a CopySlices node over that op's node
    view = t[key]
    if grad_mode.is_grad_enabled() and (view.requires_grad or value.requires_grad):
        check_inplace(view)  # (autograd's checks first)
    if has_internal_overlap(view._data):  # (copy_ and fill_ with a tensor refuse to write shared places)
        raise RuntimeError(SHARED_PLACE)
    inplace(view, CopyFrom if value._data.shape == dst_shape else FillTensor, value)
    return None


def _in_range(key):
    """``key`` with every integer index array replaced by zeros of its shape (what ``a[key]``'s shape needs)."""
    keys = key if isinstance(key, tuple) else (key,)
    probe = tuple(np.zeros(np.shape(k), np.intp) if isinstance(k, (np.ndarray, list)) and np.asarray(k).dtype.kind in "iu"
                  else k for k in keys)
    return probe if isinstance(key, tuple) else probe[0]


def _fills_by_mask(key, value):
    """Does PyTorch's ``index_put_`` fill instead (``masked_fill_``, ``canDispatchToMaskedFill``): one bool mask in
    the key (the rest whole dims) and a value of one element?  Then no overlap with the value is checked."""
    keys = key if isinstance(key, tuple) else (key,)
    indices = [k for k in keys if k is not Ellipsis and not (isinstance(k, slice) and k == slice(None))]
    return value._data.size == 1 and len(indices) == 1 and np.asarray(indices[0]).dtype == bool


def _split_key(keys):
    """``x[0, [1, 2]] = v`` as PyTorch's ``applySlicing`` does it: the ints, slices and Nones of the key make the view
    ``x[0, :]`` (a ``True`` a new dim); the index lists, tensors and masks then index that view, each at the dim it
    was at, the other dims whole (``[:, [1, 2]]``)."""
    view_key, index_key = [], []
    for k in keys:
        if k is None or _is_bool_scalar(k):  # (True indexes the new dim with [0], False with [])
            view_key.append(None)
            index_key.append(slice(None) if k is None else _bool_scalar_index(k))
        elif isinstance(k, int):
            view_key.append(k)
        elif k is Ellipsis or isinstance(k, slice):
            view_key.append(k)
            index_key.append(Ellipsis if k is Ellipsis else slice(None))
        else:  # an index: a whole dim of the view (a mask: as many dims as it has)
            index = index_tensor(k)
            view_key.extend([slice(None)] * (index._data.ndim if index._data.dtype == bool else 1))
            index_key.append(index)
    return tuple(view_key), tuple(index_key)


def _check_index_put_dtype(t, keys, value):
    """``index_put_`` (a key with lists, index arrays or masks) takes a value of ``t``'s dtype only, except where
    PyTorch fills instead (``masked_fill_``: one bool mask among the indices and a single value).  Basic
    keys copy, and convert any dtype."""
    from .._core.tensor_base import _TYPE_NAMES
    indices = [np.asarray(k) for k in keys if _is_advanced(k) and not isinstance(k, bool)]  # (a Python True or False adds a dim, like None)
    indices = [i for i in indices if i.ndim or i.dtype == bool]  # (a 0-dim integer tensor indexes like an int)
    if not indices or (len(indices) == 1 and indices[0].dtype == bool and indices[0].ndim and value._data.size == 1):
        return
    raise RuntimeError(f"Index put requires the source and destination dtypes match, got "
                       f"{_TYPE_NAMES[t._data.dtype.name]} for the destination and "
                       f"{_TYPE_NAMES[value._data.dtype.name]} for the source.")


def _leaf_check(t, into_view):
    from ..autograd import grad_mode
    # PyTorch's setitem first takes the view t[key]: that op reads t's grad_fn, so a view whose base changed
    # in place gets its new node there (and the in-place op that follows does not see a leaf)
    if into_view and grad_mode.is_grad_enabled() and t.requires_grad and t.grad_fn is None:
        raise RuntimeError("a view of a leaf Variable that requires grad is being used in an in-place operation.")


def promote(tensors):
    """The dtype of ``cat``/``stack``: PyTorch's type promotion over all the tensors (bool <
    integers < floats, then the wider: ``cat([int64, float32])`` is float32, not numpy's float64)."""
    dtype = tensors[0].dtype
    for t in tensors[1:]:
        dtype = result_type(Tensor(np.zeros(1, dtype.numpy)), Tensor(np.zeros(1, t._data.dtype)))
    return dtype


class Cat(Op):
    node_name = "CatBackward0"
    saved_names = {"dim": "dim_shown"}  # (grad_fn._saved_dim: as passed, shown unsigned)

    @staticmethod
    def forward(ctx, dim, *tensors):
        """A legacy empty tensor of shape (0,) takes no part (size None)."""
        shaped = [t for t in tensors if t._data.shape != (0,)]
        ctx.dim, ctx.dim_shown = _wrap_dim(dim, shaped[0]._data.ndim) if shaped else dim, unsigned(dim)
        dim = ctx.dim
        ctx.sizes = [None if t._data.shape == (0,) else t._data.shape[dim] for t in tensors]
        parts = [t._data for t, size in zip(tensors, ctx.sizes) if size is not None]
        if not parts:  # every input is a legacy empty tensor: so is the result
            return Tensor(np.zeros(0, dtype=promote(tensors).numpy))
        return Tensor(row_major(np.concatenate(parts, axis=dim, dtype=promote(tensors).numpy)))  # (contiguous, as in PyTorch)

    @staticmethod
    def backward(ctx, grad):
        grads, start = [], 0
        for size in ctx.sizes:
            if size is None:
                grads.append(grad.new_zeros(0))
                continue
            grads.append(index(grad, (slice(None),) * ctx.dim + (slice(start, start + size),)))
            start += size
        return (None, *grads)


class Stack(Op):
    node_name = "StackBackward0"
    saved_names = {"dim": "dim_shown"}  # (grad_fn._saved_dim: as passed, shown unsigned)

    @staticmethod
    def forward(ctx, dim, *tensors):
        d = _wrap_dim(dim, tensors[0]._data.ndim + 1)
        ctx.dim, ctx.n, ctx.dim_shown = d, len(tensors), unsigned(dim)
        return Tensor(row_major(np.stack([t._data for t in tensors], axis=d, dtype=promote(tensors).numpy)))  # (as cat)

    @staticmethod
    def backward(ctx, grad):
        return (None, *(grad.select(ctx.dim, i) for i in range(ctx.n)))


# ------------------------------------------------------------------ F.pad with a constant
class ConstantPadNd(Op):
    """``F.pad(x, pad, value=v)``: ``pad`` holds (before, after) amounts for the last dim, then for the
    one before it, and so on; ``v`` fills the new places and a negative amount cuts places off.
    The gradient is the same op on ``grad`` with every amount negated, which cuts the padding away
    (PyTorch: ``constant_pad_nd_backward``)."""
    node_name = "ConstantPadNdBackward0"
    saved_names = {"pad": "pad_shown"}  # (grad_fn._saved_pad, shown unsigned)

    @staticmethod
    def forward(ctx, a, pad, value):
        x = a._data
        ctx.pad, ctx.pad_shown = pad, unsigned(pad)
        n = len(pad) // 2
        amounts = [(0, 0)] * (x.ndim - n) + [(pad[2 * i], pad[2 * i + 1]) for i in reversed(range(n))]
        kept = [slice(max(-before, 0), size - max(-after, 0)) for size, (before, after) in zip(x.shape, amounts)]
        if any(s.stop < s.start for s in kept):
            raise RuntimeError("narrow(): length must be non-negative.")
        if all(before <= 0 and after <= 0 for before, after in amounts):  # only cuts: PyTorch clones the narrowed
            return Tensor(cast(x[tuple(kept)]))                            # input (laid out like it)
        out = np.full([s.stop - s.start + max(b, 0) + max(e, 0) for s, (b, e) in zip(kept, amounts)], value, x.dtype)
        into = tuple(slice(max(b, 0), max(b, 0) + s.stop - s.start) for s, (b, e) in zip(kept, amounts))
        out[into] = x[tuple(kept)]
        return Tensor(out)

    @staticmethod
    def backward(ctx, grad):
        return ConstantPadNd.apply(grad, tuple(-p for p in ctx.pad), 0), None, None


# ------------------------------------------------------------------ diff: built from narrow and sub
def diff(t, n=1, dim=-1, prepend=None, append=None):
    """``torch.diff``: ``x[1:] - x[:-1]`` along ``dim``, ``n`` times, after joining ``prepend`` and
    ``append`` on either side.  Built from other ops, as in PyTorch (``diff_helper``): each step is
    two ``narrow`` views and a ``sub`` (``logical_xor`` for bools), so the graph shows ``SubBackward0``."""
    if t._data.ndim == 0:
        raise RuntimeError("diff expects input to be at least one-dimensional")
    if n < 0:
        raise RuntimeError(f"order must be non-negative but got {n}")
    for side in (prepend, append):  # (PyTorch's diff_check: the dim, then the sides' dims)
        if side is not None:
            _wrap_dim(dim, t._data.ndim)
            if side._data.ndim != t._data.ndim:
                raise RuntimeError("diff expects prepend or append to be the same dimension as input")
    if n == 0:  # no difference taken: a copy (PyTorch: zeros_like(x).copy_(x), CopyBackwards)
        return Tensor(like(t._data, np.zeros(t._data.shape, t._data.dtype))).copy_(t)
    dim = _wrap_dim(dim, t._data.ndim)
    if prepend is not None or append is not None:
        t = cat([p for p in (prepend, t, append) if p is not None], dim)
    length = t.shape[dim] - 1
    for _ in range(min(n, t.shape[dim])):
        # (PyTorch's C++ builds the right operand first, so x[:-1]'s node is the older one: it runs later)
        lower = t.narrow(dim, 0, length)
        upper = t.narrow(dim, 1, length)
        t = upper.logical_xor(lower) if t.dtype.name == "bool" else upper - lower
        length -= 1
    return t


# ---- torch.cat and torch.stack: their checks, then the op --------------------------------------------
_CAT_CAST = "minigrad.cat(): input types can't be cast to the desired output type {}"


def cat(tensors, dim=0, *, out=None, axis=None):
    """Join tensors along an existing dim (``axis``: numpy's name for it, which PyTorch takes too)."""
    dim = dim if axis is None else axis
    if out is not None:
        return write_out("cat", out, tensors, lambda: cat(tensors, dim), _CAT_CAST, elementwise=False)
    if not tensors:
        raise ValueError("minigrad.cat(): expected a non-empty list of Tensors")
    for i, t in enumerate(tensors):
        if t._data.ndim == 0:
            raise RuntimeError(f"zero-dimensional tensor (at position {i}) cannot be concatenated")
    # PyTorch skips the legacy empty tensors of shape (0,): they join any cat, along any dim
    shaped = [(i, t) for i, t in enumerate(tensors) if not (t._data.ndim == 1 and t._data.size == 0)]
    if not shaped:
        return Cat.apply(dim, *tensors)
    first = shaped[0][1]._data
    d = _wrap_dim(dim, first.ndim)
    for i, t in shaped[1:]:
        if t._data.ndim != first.ndim:
            raise RuntimeError(f"Tensors must have same number of dimensions: got {first.ndim} and {t._data.ndim}")
        for k in range(first.ndim):
            if k != d and t._data.shape[k] != first.shape[k]:
                raise RuntimeError(f"Sizes of tensors must match except in dimension {d}. Expected size "
                                   f"{first.shape[k]} but got size {t._data.shape[k]} for tensor number {i} in "
                                   "the list.")
    return Cat.apply(dim, *tensors)


concat = cat


def stack(tensors, dim=0, *, out=None, axis=None):
    dim = dim if axis is None else axis  # (numpy's name, which PyTorch takes too)
    if out is not None:
        return write_out("stack", out, tensors, lambda: stack(tensors, dim), _CAT_CAST, elementwise=False)
    if not tensors:
        raise RuntimeError("stack expects a non-empty TensorList")
    first = tensors[0]._data.shape
    for i, t in enumerate(tensors):
        if t._data.shape != first:
            raise RuntimeError(f"stack expects each tensor to be equal size, but got {list(first)} at entry 0 "
                               f"and {list(t._data.shape)} at entry {i}")
    return Stack.apply(dim, *tensors)


# ---- unfold and as_strided: views with strides of their own (session 11) ------------------------------------------
class Unfold(Op):
    """``x.unfold(dimension, size, step)``: the windows of ``size`` elements along ``dimension``, ``step`` apart, in
    a new last dim (PyTorch: ``UnfoldBackward0``).  A view: window ``i`` starts ``i * step`` elements on, so windows
    that overlap share elements, and the backward adds up the gradients of each shared element (``UnfoldGrad``)."""
    node_name = "UnfoldBackward0"
    saved_names = {"dimension": "dimension_shown", "self_sym_sizes": "input_shape", "size": "size", "step": "step"}

    @staticmethod
    def forward(ctx, a, dimension, size, step):
        x = a._data
        d = _wrap_dim(dimension, x.ndim)  # (a 0-dim tensor counts as one element along dim 0)
        longest = x.shape[d] if x.ndim else 1
        if size > longest:
            raise RuntimeError(f"maximum size for tensor at dimension {d} is {longest} but size is {size}")
        if size < 0:
            raise RuntimeError(f"size is {size} but must be >= 0")
        if step <= 0:
            raise RuntimeError(f"step is {step} but must be > 0")
        ctx.dimension, ctx.dimension_shown, ctx.input_shape, ctx.size, ctx.step = d, unsigned(dimension), x.shape, \
            size, step
        shape, strides = list(x.shape), list(x.strides)
        if x.ndim:
            shape[d] = (shape[d] - size) // step + 1  # (the number of windows)
            strides[d] *= step
        shape.append(size)
        strides.append(x.strides[d] if x.ndim else x.itemsize)
        return view_of(a, np.lib.stride_tricks.as_strided(x, shape, strides, writeable=x.flags.writeable))

    @staticmethod
    def backward(ctx, grad):
        return UnfoldGrad.apply(grad, ctx.input_shape, ctx.dimension, ctx.size, ctx.step), None, None, None


class UnfoldGrad(Op):
    """The gradient of ``unfold`` (PyTorch's ``unfold_backward``, recorded as ``UnfoldBackwardBackward0``): a
    tensor of the input's shape, where each element gets the sum of the gradients of its copies in the windows.
    Its own backward unfolds the gradient again."""
    node_name = "UnfoldBackwardBackward0"
    saved_names = {"dim": "dim", "size": "size", "step": "step"}

    @staticmethod
    def forward(ctx, grad, input_shape, dim, size, step):
        ctx.dim, ctx.size, ctx.step = dim, size, step
        g = grad._data
        if not input_shape:  # (a 0-dim input: one window of 0 or 1 element)
            return Tensor(np.asarray(g.sum(), g.dtype))
        out = np.zeros(input_shape, g.dtype)
        along = np.moveaxis(out, dim, -1)  # (a view of out with ``dim`` last)
        n = g.shape[dim]  # (the number of windows)
        for k in range(size):  # element k of window i is element i * step + k of the input
            along[..., k:k + step * (n - 1) + 1:step] += np.moveaxis(g[..., k], dim, -1)
        return Tensor(out)

    @staticmethod
    def backward(ctx, grad):
        return grad.unfold(ctx.dim, ctx.size, ctx.step), None, None, None, None


class AsStridedView(Op):
    """``x.as_strided(size, stride, storage_offset)``: a view of the memory of ``x`` (of its base, when ``x`` is a
    view) with these sizes and strides in elements, from ``storage_offset`` elements after the memory's start (by
    default where ``x`` starts) (PyTorch: ``AsStridedBackward0``).  Its backward is the one of the views rebased
    after an in-place change (``as_strided_backward`` in ``inplace.py``): places shared by several elements add up."""
    node_name = "AsStridedBackward0"
    saved_names = {"size": "size", "stride": "stride", "storage_offset": "storage_offset"}

    @staticmethod
    def forward(ctx, a, size, stride, storage_offset):
        from .inplace import geometry_of
        root = a if a._base is None else a._base
        x = root._data
        ctx.input_geometry = geometry_of(a, root)
        offset = ctx.input_geometry[2] if storage_offset is None else storage_offset
        _check_strided(size, stride, offset, x)
        ctx.size, ctx.stride, ctx.storage_offset, ctx.geometry = size, stride, storage_offset, (size, stride, offset)
        strides = [s * x.itemsize for s in stride]
        if 0 in size:  # (it may start past the memory's end: see empty_view)
            return view_of(a, empty_view(x, offset * x.itemsize, size, strides))
        memory = np.lib.stride_tricks.as_strided(x, (_elements_spanned(x),), (x.itemsize,))  # (the storage, 1-d)
        return view_of(a, np.lib.stride_tricks.as_strided(memory[offset:], size, strides, writeable=x.flags.writeable))

    @staticmethod
    def backward(ctx, grad):
        from .inplace import as_strided_backward
        return as_strided_backward(grad, ctx.input_geometry, ctx.geometry), None, None, None


def _elements_spanned(x):
    """How many elements the memory of array ``x`` holds, from its first element to its last (its storage)."""
    return 0 if x.size == 0 else 1 + sum((n - 1) * s // x.itemsize for n, s in zip(x.shape, x.strides))


def _check_strided(size, stride, offset, x):
    """PyTorch's checks of ``as_strided``'s geometry (``setStrided``, ``checkInBoundsForStorage``), in its order."""
    if len(size) != len(stride):
        raise RuntimeError("mismatch in length of strides and shape")
    if any(s < 0 for s in stride):
        raise RuntimeError(f"as_strided: Negative strides are not supported at the moment, got strides: {list(stride)}")
    if offset < 0:
        raise RuntimeError(f"Tensor: invalid storage offset {offset}")
    if any(n < 0 for n in size):
        raise RuntimeError(f"Storage size calculation overflowed with sizes={list(size)} and strides={list(stride)}")
    needed = 0 if 0 in size else (offset + 1 + sum((n - 1) * s for n, s in zip(size, stride))) * x.itemsize
    if needed > _elements_spanned(x) * x.itemsize:
        raise RuntimeError(f"setStorage: sizes {list(size)}, strides {list(stride)}, storage offset {offset}, and "
                           f"itemsize {x.itemsize} requiring a storage size of {needed} are out of bounds for storage "
                           f"of size {_elements_spanned(x) * x.itemsize}")


class AsStridedInPlace(AsStridedView):
    """``x.as_strided_(size, stride)``: ``x`` itself takes the geometry (``ops.inplace_view``)."""
    node_name = "AsStridedBackward1"


def as_strided(a, size, stride, storage_offset=None):
    """``minigrad.as_strided`` / ``Tensor.as_strided``: the argument types checked as PyTorch's parser does."""
    return AsStridedView.apply(a, *as_strided_arguments("as_strided", size, stride, storage_offset))


def as_strided_arguments(function, size, stride, storage_offset):
    """The arguments of ``as_strided`` (or ``as_strided_``), checked as PyTorch's parser checks them."""
    size, stride = _int_tuple(function, size, "size", 1), _int_tuple(function, stride, "stride", 2)
    if storage_offset is not None and not isinstance(storage_offset, int):
        raise TypeError(f"{function}(): argument 'storage_offset' (position 3) must be int, not "
                        f"{type(storage_offset).__name__}")
    return size, stride, storage_offset


def _int_tuple(function, value, name, position):
    where = f"{function}(): argument '{name}' (position {position}) must be tuple of ints"
    if not isinstance(value, (tuple, list)):
        raise TypeError(f"{where}, not {type(value).__name__}")
    for i, v in enumerate(value):
        if not isinstance(v, int):
            raise TypeError(f"{where}, but found element of type {type(v).__name__} at pos {i}")
    return tuple(int(v) for v in value)
