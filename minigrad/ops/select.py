"""Selecting and rearranging: masked_fill, index_select, gather, scatter, flip, repeat, split, unbind, einsum;
numpy-style helpers at the end: vstack/hstack, atleast_2d, rot90, tensor_split, take_along_dim, block_diag ...

Each backward puts the gradient back where forward took the values from: ``gather`` takes, so
its backward adds into zeros (``scatter_add``); ``flip`` reverses, so its backward reverses;
``split`` cuts, so its backward joins (``cat``).  Formulas and node names from PyTorch's
``tools/autograd/derivatives.yaml``.

Where PyTorch allocates a fresh row-major (contiguous) result whatever the input's strides
(masked_fill, index_select, repeat, tril, roll), numpy's result is asked for in ``order="C"``; flip
keeps the input's layout (``order="K"``), as in PyTorch. It decides whether a later ``view`` works.
"""
import functools

import numpy as np

from .. import _dtype
from .dispatch import Op
from ..devices import contiguous_format
from .._core.tensor_base import _TYPE_NAMES, C_NAMES, TensorBase as Tensor, _warn_once, _wrap_dim
from ._util import NoEdge, reduced_dims, unsigned
from .promotion import broadcast_shape
from .elementwise import MulScalar
from .._core.layout import cast, empty_strided, row_major
from .shape import DiagonalGrad, PutGrad, cat, diagonal_view, sliced, stack, view_of


def index_array(index, what):
    """An index tensor, checked as PyTorch checks it, wrapped in ``NoEdge``.

    The index (or mask) of the ops below is no input of the node (PyTorch gives it no edge in
    ``next_functions``), but the node saves it (``grad_fn._saved_index``): changed in place before
    backward, it raises, as in PyTorch.
    """
    if not isinstance(index, Tensor) or index.dtype.name not in ("int32", "int64"):
        kinds = "int32 or int64" if what == "index_select" else "int32/int64"
        raise RuntimeError(f"{what}(): Expected dtype {kinds} for index")
    return NoEdge(index)


def saved_index(index):
    """The index (or mask) an op saves, as a tensor: the caller's own (a ``NoEdge``, or a tensor), or a new one
    on an array minigrad made itself (the positions a sort picked, the diagonal of ``trace``)."""
    if isinstance(index, NoEdge):
        return index.tensor
    return index if isinstance(index, Tensor) else Tensor(np.asarray(index))


# ------------------------------------------------------------------ masked_fill
class MaskedFill(Op):
    """``x.masked_fill(mask, value)``: ``value`` where ``mask`` is true; the gradient passes elsewhere."""
    expanded_write = "masked_fill"  # (ops/inplace.py: it may write into an expanded tensor, with a warning)
    node_name = "MaskedFillBackward0"
    saved_names = {"mask": 0}  # (grad_fn._saved_mask)

    @staticmethod
    def forward(ctx, a, mask, value):
        mask = saved_index(mask)
        broadcast_shape(a, mask)  # (PyTorch's message when the mask does not broadcast with x)
        ctx.save_for_backward(mask)
        v = value._data if isinstance(value, Tensor) else value
        return Tensor(np.asarray(np.where(mask._data, np.asarray(v, a._data.dtype), a._data), order="C"))

    @staticmethod
    def key_numbers(mask):
        """The mask's numbers (ops/inplace.py writes them into an expanded x itself)."""
        return saved_index(mask)._data

    @staticmethod
    def backward(ctx, grad):
        # derivatives.yaml: self: grad.masked_fill(mask, 0) (MaskedFillBackward0 under create_graph; summed
        # to self's shape by the engine where the mask broadcast self); value (a 0-dim tensor):
        # masked_fill_backward(grad, mask) = grad.masked_select(mask).sum()
        mask, = ctx.saved_tensors
        g_self = MaskedFill.apply(grad, NoEdge(mask), 0) if ctx.needs_input_grad[0] else None
        g_value = MaskedSelect.apply(grad, NoEdge(mask)).sum() if ctx.needs_input_grad[2] else None
        return g_self, None, g_value


class MaskedFillTensor(MaskedFill):
    """``x.masked_fill(mask, value_tensor)``: the value, a 0-dim tensor, gets the gradient of the filled places."""
    node_name = "MaskedFillBackward1"


class MaskedScatter(Op):
    """``x.masked_scatter(mask, source)``: the places where ``mask`` is true, taken in order, get the first elements
    of ``source``.  ``x`` gets the gradient of the other places; ``source`` that of the places it filled, and zeros
    for the elements it had to spare (PyTorch: ``masked_scatter_backward``)."""
    node_name = "MaskedScatterBackward0"
    saved_names = {"mask": 0, "source_sym_sizes": "source_shape"}  # (grad_fn._saved_*)

    @staticmethod
    def forward(ctx, a, mask, source):
        mask = saved_index(mask)
        if a.dtype is not source.dtype:
            raise RuntimeError(f"masked_scatter: expected self and source to have same dtypes but got"
                               f"{_TYPE_NAMES[a.dtype.name]} and {_TYPE_NAMES[source.dtype.name]}")
        shape = broadcast_shape(mask, a)  # (PyTorch's expand_outplace(mask, x): its message names the mask first)
        m = np.broadcast_to(mask._data, shape)
        n = int(m.sum())
        if source._data.size < n:
            raise RuntimeError("Number of elements of source < number of ones in mask")
        out = np.array(np.broadcast_to(a._data, shape), order="C")  # (a new row-major array, as PyTorch's)
        out[m] = source._data.reshape(-1)[:n]
        ctx.save_for_backward(mask)
        ctx.source_shape = source._data.shape
        return Tensor(out)

    @staticmethod
    def backward(ctx, grad):
        mask, = ctx.saved_tensors
        g_self = g_source = None
        if ctx.needs_input_grad[0]:  # derivatives.yaml: grad.masked_fill(mask, 0)
            g_self = MaskedFill.apply(grad, NoEdge(mask), 0)
        if ctx.needs_input_grad[2]:
            g_source = MaskedScatterBackward.apply(grad, NoEdge(mask), ctx.source_shape)
        return g_self, None, g_source


class MaskedScatterBackward(Op):
    """masked_scatter's gradient for ``source`` as one op (PyTorch: ``masked_scatter_backward``): the gradient of
    the filled places in order, then zeros, in source's shape.  Its own backward scatters back: zeros of the
    gradient's shape, ``masked_scatter(mask, gg)``."""
    node_name = "MaskedScatterBackwardBackward0"
    saved_names = {"mask": 0}  # (grad_fn._saved_mask)

    @staticmethod
    def forward(ctx, grad, mask, source_shape):
        mask = saved_index(mask)
        ctx.save_for_backward(mask)
        ctx.grad_shape = grad._data.shape
        picked = grad._data[np.broadcast_to(mask._data, grad._data.shape)]
        out = np.zeros(int(np.prod(source_shape)), grad._data.dtype)
        out[:picked.size] = picked
        return Tensor(out.reshape(source_shape))

    @staticmethod
    def backward(ctx, gg):
        mask, = ctx.saved_tensors
        zeros = Tensor(np.zeros(ctx.grad_shape, gg._data.dtype))
        return MaskedScatter.apply(zeros, NoEdge(mask), gg), None, None


def masked_scatter(t, mask, source, in_place=False):
    """``x.masked_scatter(mask, source)`` and ``x.masked_scatter_(mask, source)`` (whose mask must expand to x)."""
    from .inplace import inplace
    if not isinstance(source, Tensor):
        raise TypeError(f"masked_scatter(): argument 'source' (position 2) must be Tensor, not {type(source).__name__}")
    m = saved_index(mask)  # (saved by the node: see index_array)
    if m._data.dtype != np.bool_:
        raise RuntimeError(f"masked_scatter_ only supports boolean masks, but got mask with dtype "
                           f"{_TYPE_NAMES[m._data.dtype.name]}")
    if not in_place:
        return MaskedScatter.apply(t, NoEdge(m), source)
    Tensor(m._data).expand(t._data.shape)  # (PyTorch expands the mask to x first, with expand's message)
    return inplace(t, MaskedScatter, NoEdge(m), source)


# ------------------------------------------------------------------ index_select, gather, scatter
class IndexSelect(Op):
    """``x.index_select(dim, index)``: the slices ``index`` of ``dim``; backward adds the gradient back
    at those slices (repeated indices add up)."""
    node_name = "IndexSelectBackward0"
    saved_names = {"dim": "saved_dim", "index": 0, "self_sym_sizes": "shape"}  # (grad_fn._saved_*; the dim as passed)

    @staticmethod
    def forward(ctx, a, dim, index):
        index = saved_index(index)
        idx = index._data
        if idx.ndim > 1:
            raise IndexError("index_select(): Index is supposed to be a vector")
        ctx.dim_arg, dim = dim, _wrap_dim(dim, a._data.ndim)
        ctx.shape, ctx.dim = a._data.shape, dim
        if a._data.ndim == 0 and idx.size != 1:  # a 0-dim tensor: the index must be one 0
            raise RuntimeError(f"index_select(): Index to scalar can have only 1 value, got {idx.size} value(s)")
        _check_index_select(a._data.shape, dim, idx.reshape(-1))
        ctx.save_for_backward(index)
        if a._data.ndim == 0:
            return Tensor(a._data.copy())
        return Tensor(row_major(a._data[_index_key(a._data, dim, idx)]))  # (PyTorch: a new contiguous tensor)

    @staticmethod
    def backward(ctx, grad):
        index, = ctx.saved_tensors
        # (PyTorch's index_select_backward: zeros(self_sizes).index_add_(dim, index, grad), an IndexAddBackward0)
        zeros = Tensor(np.zeros(ctx.shape, grad._data.dtype))
        return IndexAdd.apply(zeros, ctx.dim_arg, NoEdge(index), grad), None, None


def _check_index_select(shape, dim, idx):
    """index_select takes no negative index. PyTorch's CPU kernels word the check in two ways: one for
    ``dim == 1`` (and for a tensor with no elements), one for the others."""
    if len(shape) <= 1:
        if ((idx < 0) | (idx >= int(np.prod(shape)))).any():  # (a 0-dim tensor has one element)
            raise IndexError("index out of range in self")
        return
    if idx.size == 0:
        return
    if shape[dim] == 0:
        raise RuntimeError("index_select(): self indexing axis dim should be positive")
    bad = idx[(idx < 0) | (idx >= shape[dim])]
    if bad.size and (dim == 1 or 0 in shape):
        raise RuntimeError(f"INDICES element is out of DATA bounds, id={bad[0]} axis_dim={shape[dim]}")
    if bad.size:
        raise IndexError("index out of range in self")


def check_bounds(idx, size, dim):
    """PyTorch's bounds check of gather, scatter and index_add: each index in ``[0, size)`` (numpy would
    count a negative one from the end)."""
    bad = idx[(idx < 0) | (idx >= size)]
    if bad.size:
        raise RuntimeError(f"index {bad.flat[0]} is out of bounds for dimension {dim} with size {size}")


def _gather_key(idx, dim, shape):
    """numpy's fancy index that picks ``x[i][j][index[i][j]]`` (for dim=2) of an ``x`` of ``shape``:
    PyTorch's gather rule. (A 0-dim index counts as a 1-dim one of one element, as in PyTorch; use it on
    ``np.atleast_1d(x)``.)"""
    check_bounds(idx, shape[dim] if shape else 1, dim)
    idx = np.atleast_1d(idx)
    if idx.size == 0:  # (an empty index picks nothing, whatever its dims: PyTorch checks none)
        return (np.zeros(idx.shape, np.intp),) * max(len(shape), 1)
    grids = list(np.indices(idx.shape, sparse=True))
    grids[dim] = idx
    return tuple(grids)


def _check_scatter(a, idx, src):
    """PyTorch's ``scatter_shape_check``: index (and a tensor src) have as many dims as self (0-dim counts
    as 1); a tensor src has self's dtype (scatter_add's message says scatter() too)."""
    if isinstance(src, Tensor) and src._data.dtype != a._data.dtype:  # (scatter_gather_dtype_check comes first)
        raise RuntimeError("scatter(): Expected self.dtype to be equal to src.dtype")
    dims = max(a._data.ndim, 1)
    if idx.size == 0:  # (an empty index: PyTorch checks no shapes)
        return
    if max(idx.ndim, 1) != dims:
        raise RuntimeError("Index tensor must have the same number of dimensions as self tensor")
    if isinstance(src, Tensor) and max(src._data.ndim, 1) != dims:
        raise RuntimeError("Index tensor must have the same number of dimensions as src tensor")


def _src_part(src, idx):
    """The part of ``src`` that scatter writes: its first ``index.shape`` elements."""
    if idx.size == 0:  # (none, whatever the shapes)
        return np.zeros(np.atleast_1d(idx).shape, src._data.dtype)
    return np.atleast_1d(src._data)[tuple(slice(0, s) for s in np.atleast_1d(idx).shape)]


class Gather(Op):
    """``x.gather(dim, index)``: ``out[i][j] = x[i][index[i][j]]`` for dim=1; backward adds the
    gradient into zeros at the same places (PyTorch: ``gather_backward``, a ``scatter_add``)."""
    node_name = "GatherBackward0"
    saved_names = {"index": 0, "self": 1, "dim": "saved_dim", "sparse_grad": "sparse_grad"}  # (grad_fn._saved_*; the dim as passed)

    @staticmethod
    def forward(ctx, a, dim, index):
        ctx.dim_arg, dim = dim, _wrap_dim(dim, a._data.ndim)
        index = saved_index(index)
        idx = index._data
        if idx.size and max(idx.ndim, 1) != max(a._data.ndim, 1):  # (0-dim counts as 1-dim; an empty index: no check)
            raise RuntimeError("Index tensor must have the same number of dimensions as input tensor")
        # (PyTorch's gather_backward(grad, self, dim, index, sparse_grad) keeps x and the index: changing either raises)
        ctx.save_for_backward(index, a)  # (in PyTorch's order: saved-tensor hooks see the index first)
        ctx.dim, ctx.sparse_grad = dim, False
        out = np.atleast_1d(a._data)[_gather_key(idx, dim, a._data.shape)].reshape(idx.shape)
        return Tensor(np.asarray(out, order="C"))  # (row-major whatever the index's layout, as PyTorch allocates it)

    @staticmethod
    def backward(ctx, grad):
        index, a = ctx.saved_tensors
        zeros = Tensor(np.zeros(a._data.shape, grad._data.dtype))
        return ScatterAdd.apply(zeros, ctx.dim, NoEdge(index), grad), None, None


class ScatterAdd(Op):
    """``x.scatter_add(dim, index, src)``: ``out[i][index[i][j]] += src[i][j]`` (dim=1)."""
    node_name = "ScatterAddBackward0"
    saved_names = {"dim": "saved_dim", "index": 0}  # (grad_fn._saved_*; the dim as passed)
    indexed = True  # (src has the shape of index, not of x: ops.inplace leaves its checks to the op)

    @staticmethod
    def forward(ctx, a, dim, index, src):
        ctx.dim_arg, dim = dim, _wrap_dim(dim, a._data.ndim)
        index = saved_index(index)
        idx = index._data
        _check_scatter(a, idx, src)
        ctx.dim = dim
        ctx.save_for_backward(index if ctx.needs_input_grad[3] else None)  # (only src's gradient reads it)
        out = a._data.copy()
        np.add.at(np.atleast_1d(out), _gather_key(idx, dim, out.shape), _src_part(src, idx))
        return Tensor(out)

    @staticmethod
    def backward(ctx, grad):
        index, = ctx.saved_tensors
        g_src = Gather.apply(grad, ctx.dim, NoEdge(index)) if ctx.needs_input_grad[3] else None
        return grad, None, None, g_src


class Scatter(Op):
    """``x.scatter(dim, index, src)``: ``out[i][index[i][j]] = src[i][j]`` (dim=1).  The overwritten
    places of ``x`` get no gradient; ``src`` gets the gradient of the places it was written to."""
    node_name = "ScatterBackward0"
    saved_names = {"dim": "saved_dim", "index": 0}  # (grad_fn._saved_*; the dim as passed)
    indexed = True  # (src has the shape of index, not of x)

    @staticmethod
    def forward(ctx, a, dim, index, src):
        ctx.dim_arg, dim = dim, _wrap_dim(dim, a._data.ndim)
        index = saved_index(index)
        idx = index._data
        _check_scatter(a, idx, src)
        ctx.dim = dim
        ctx.save_for_backward(index)
        out = a._data.copy()
        np.atleast_1d(out)[_gather_key(idx, dim, out.shape)] = _src_part(src, idx) if isinstance(src, Tensor) else src
        return Tensor(out)

    @staticmethod
    def backward(ctx, grad):
        index, = ctx.saved_tensors
        g_self = ScatterValue.apply(grad, ctx.dim, NoEdge(index), 0.0) if ctx.needs_input_grad[0] else None
        g_src = Gather.apply(grad, ctx.dim, NoEdge(index)) if ctx.needs_input_grad[3] else None
        return g_self, None, None, g_src


class ScatterValue(Scatter):
    """``x.scatter(dim, index, 1.5)``: a number written at the places (PyTorch: ``ScatterBackward1``)."""
    node_name = "ScatterBackward1"


# ------------------------------------------------------------------ flip, repeat
class Flip(Op):
    """``x.flip(dims)``: reversed along ``dims`` (a copy); the gradient is flipped back."""
    node_name = "FlipBackward0"
    saved_names = {"dims": "dims_shown"}  # (grad_fn._saved_dims: as passed, shown unsigned)

    @staticmethod
    def forward(ctx, a, dims):
        ctx.dims, ctx.dims_shown = tuple(_wrap_dim(d, a._data.ndim) for d in dims), unsigned(dims)
        dims = ctx.dims
        out = cast(a._data)  # (a fresh tensor laid out as the input: PyTorch's empty_like)
        out[...] = np.flip(a._data, dims if a._data.ndim else ())
        return Tensor(out)

    @staticmethod
    def backward(ctx, grad):
        return grad.flip(ctx.dims), None


class Repeat(Op):
    """``x.repeat(2, 3)``: tiled copies; each element gets the sum of the gradients of its copies."""
    node_name = "RepeatBackward0"
    saved_names = {"repeats": "repeats", "self_sym_sizes": "shape"}  # (grad_fn._saved_*)

    @staticmethod
    def forward(ctx, a, repeats):
        if len(repeats) < a._data.ndim:
            raise RuntimeError("Number of dimensions of repeat dims can not be smaller than number of dimensions "
                               "of tensor")
        ctx.shape = a._data.shape
        ctx.repeats = tuple(repeats)
        return Tensor(np.asarray(np.tile(a._data, repeats), order="C"))

    @staticmethod
    def backward(ctx, grad):
        # PyTorch's repeat_backward (FunctionsManual.cpp): a 0 among the repeats gives zeros; the leading
        # dims the repeat added are summed away one at a time (grad.sum(0)); then the gradient is seen as
        # (r, s) for every dim repeated r > 1 times (s for the others) and summed over all the r at once
        # (one reshape, one sum; neither when no dim was repeated).
        if 0 in ctx.repeats:
            return Tensor(np.zeros(ctx.shape, dtype=grad._data.dtype)), None
        num_unsqueezed = grad._data.ndim - len(ctx.shape)
        for _ in range(num_unsqueezed):
            grad = grad.sum(0)
        grad_size, sum_dims = [], []
        for dim, s in enumerate(ctx.shape):
            repeat = ctx.repeats[dim + num_unsqueezed]
            if repeat != 1:
                grad_size.append(repeat)
                sum_dims.append(len(grad_size) - 1)
            grad_size.append(s)
        if sum_dims:
            grad = grad.reshape(grad_size).sum(sum_dims)
        return grad, None


# ------------------------------------------------------------------ split, unbind
class Split(Op):
    """``x.split(size, dim)`` / ``x.chunk(n, dim)``: views of consecutive pieces of ``split_size`` (the last may be
    smaller); backward joins their gradients (zeros for a piece that got none)."""
    node_name = "SplitBackward0"
    saved_names = {"dim": "dim_shown", "self_sym_sizes": "shape", "split_size": "split_size"}  # (grad_fn._saved_*)

    @staticmethod
    def forward(ctx, a, split_size, dim):
        n = a._data.shape[_wrap_dim(dim, a._data.ndim)]
        ctx.split_size = split_size
        return pieces(ctx, a, [min(split_size, n - i) for i in range(0, n, split_size)] if n > 0 else [0], dim)

    @staticmethod
    def backward(ctx, *grads):
        return cat(list(grads), ctx.dim), None, None


class SplitWithSizes(Split):
    """``x.split([2, 1], dim)``: views of consecutive pieces of the listed sizes."""
    node_name = "SplitWithSizesBackward0"
    saved_names = {"dim": "dim_shown", "self_sym_sizes": "shape", "split_sizes": "split_sizes"}  # (grad_fn._saved_*)

    @staticmethod
    def forward(ctx, a, sizes, dim):
        ctx.split_sizes = tuple(sizes)
        return pieces(ctx, a, sizes, dim)


def pieces(ctx, a, sizes, dim):
    """The views of ``a`` split along ``dim`` into pieces of ``sizes``, which may not be changed in place."""
    ctx.dim, ctx.dim_shown, ctx.shape = _wrap_dim(dim, a._data.ndim), unsigned(dim), a._data.shape
    out, start = [], 0
    for s in sizes:
        out.append(view_of(a, sliced(a._data, ctx.dim, slice(start, start + s))))
        start += s
    for piece in out:  # PyTorch's CreationMeta::MULTI_OUTPUT_NODE: the pieces may not be changed in place
        piece._creation_meta = "inference" if piece._creation_meta == "inference" else "multi_output"
    return tuple(out)


class Unbind(Op):
    """``x.unbind(dim)``: the slices along ``dim`` as a tuple of views; backward stacks the gradients."""
    node_name = "UnbindBackward0"
    saved_names = {"dim": "dim_shown"}  # (grad_fn._saved_dim: as passed, shown unsigned)

    @staticmethod
    def forward(ctx, a, dim):
        ctx.dim, ctx.dim_shown = _wrap_dim(dim, a._data.ndim), unsigned(dim)  # (a 0-dim tensor wraps as 1-dim first)
        if a._data.ndim == 0:
            raise IndexError("Dimension specified as 0 but tensor has no dimensions")
        # (the trailing ... keeps a 0-dim piece a view: x[0] of a 1-D numpy array would be a copied scalar)
        out = tuple(view_of(a, a._data[(slice(None),) * ctx.dim + (i, ...)]) for i in range(a._data.shape[ctx.dim]))
        for piece in out:  # (as in Split)
            piece._creation_meta = "inference" if piece._creation_meta == "inference" else "multi_output"
        return out

    @staticmethod
    def backward(ctx, *grads):
        return stack(list(grads), ctx.dim), None


def split(t, split_size_or_sections, dim=0):
    """``torch.split``: pieces of ``split_size`` (the last may be smaller), or of the listed sizes."""
    if t._data.ndim == 0:
        raise RuntimeError("split expects at least a 1-dimensional tensor")
    d = _wrap_dim(dim, t._data.ndim)
    n = t._data.shape[d]
    if isinstance(split_size_or_sections, int):
        size = split_size_or_sections
        if size < 0:
            raise RuntimeError(f"split expects split_size be non-negative, but got split_size={size}")
        if size == 0 and n > 0:
            raise RuntimeError(f"split_size can only be 0 if dimension size is 0, but got dimension size of {n}")
        return Split.apply(t, size, dim)  # (an empty dim: one empty piece)
    sizes = list(split_size_or_sections)
    if sum(sizes) != n:
        raise RuntimeError(f"split_with_sizes expects split_sizes to sum exactly to {n} (input tensor's size at "
                           f"dimension {d}), but got split_sizes={sizes}")
    return SplitWithSizes.apply(t, sizes, dim)


def chunk(t, chunks, dim=0):
    """``torch.chunk``: ``chunks`` pieces of equal size ``ceil(n / chunks)`` (the last may be smaller)."""
    if t._data.ndim == 0:
        raise RuntimeError("chunk expects at least a 1-dimensional tensor")
    if chunks <= 0:
        raise RuntimeError("chunk expects `chunks` to be greater than 0, got: " + str(chunks))
    n = t._data.shape[_wrap_dim(dim, t._data.ndim)]
    if n == 0:  # (PyTorch: `chunks` empty pieces, by split_with_sizes)
        return split(t, [0] * chunks, dim)
    return split(t, -(-n // chunks), dim)


# ------------------------------------------------------------------ einsum
def einsum(equation, *operands):
    """``torch.einsum(equation, *operands)`` (operands may also be passed as one list).

    PyTorch has no einsum node: ``at::einsum`` (aten/src/ATen/native/Linear.cpp) is written with
    other ops, and so is this one, step by step as PyTorch takes them, so that the graph shows
    PyTorch's nodes. Every operand is unsqueezed to all the letters and permuted to one order (the
    output's letters, then the summed ones): ``PermuteBackward0``, ``UnsqueezeBackward0``. One
    operand: its summed letters are summed away (``SumBackward1``). Two: a letter only one operand
    has is summed in that operand first, then the pair is multiplied by ``_sumproduct_pair``
    (a ``bmm``), and the summed letters (now of size 1) are viewed away (``ViewBackward0``).
    The gradients are those of these ops.

    minigrad simplifies: no ``...`` and no letter repeated within one operand (diagonals); three or
    more operands are contracted left to right (PyTorch asks ``opt_einsum`` for an order when it
    is installed, so its graph can differ there).
    """
    if len(operands) == 1 and isinstance(operands[0], (list, tuple)):
        operands = tuple(operands[0])
    ins, out = _parse_einsum(equation, operands)
    # the letters in PyTorch's order: the output's, then the summed ones (A-Z before a-z)
    order = list(out) + sorted(set("".join(ins)) - set(out))
    index = {c: k for k, c in enumerate(order)}
    n, n_out = len(order), len(out)
    counts = [0] * n  # how many operands have a letter with a size other than 1
    sizes = {}
    ops = []
    for i, (sub, op) in enumerate(zip(ins, operands)):
        perm = [-1] * n
        for d, c in enumerate(sub):
            size = op._data.shape[d]
            if size != 1:
                if sizes.get(c, 1) not in (1, size):
                    raise RuntimeError(f"einsum(): subscript {c} has size {size} for operand {i} which does not "
                                       f"broadcast with previously seen size {sizes[c]}")
                sizes[c] = size
                counts[index[c]] += 1
            perm[index[c]] = d
        dim = len(sub)
        for k in range(n):  # a size-1 dim for each letter the operand lacks
            if perm[k] == -1:
                op = op.unsqueeze(dim)
                perm[k] = dim
                dim += 1
        ops.append(op.permute(perm))
    while len(ops) > 1:  # contract the first two, put the result first
        a, b = ops.pop(0), ops.pop(0)
        sum_dims, a_sum, b_sum = [], [], []
        for d in range(n_out, n):
            if a._data.shape[d] != 1 and b._data.shape[d] != 1:
                counts[d] -= 1
                if counts[d] == 1:  # no other operand left has it: sum it in the product
                    sum_dims.append(d)
                    counts[d] = 0
            elif counts[d] == 1:  # only one of the two has it, and no other operand: sum it there now
                if a._data.shape[d] != 1:
                    a_sum.append(d)
                    counts[d] = 0
                elif b._data.shape[d] != 1:
                    b_sum.append(d)
                    counts[d] = 0
        if a_sum:
            a = a.sum(a_sum, keepdim=True)
        if b_sum:
            b = b.sum(b_sum, keepdim=True)
        ops.insert(0, _sumproduct_pair(a, b, sum_dims))
    result = ops[0]
    if n > n_out:  # the summed letters
        if len(operands) > 1:  # already summed to size 1: view them away
            return result.view(result._data.shape[:n_out])
        return result.sum(list(range(n_out, n)))
    return result


def _sumproduct_pair(left, right, sum_dims):
    """``(left * right).sum(sum_dims, keepdim=True)`` as PyTorch's ``sumproduct_pair`` computes it: the
    dims both have, the dims only ``left`` has, the summed dims and the dims only ``right`` has
    are permuted and reshaped into one ``bmm``, whose result is viewed and permuted back."""
    if not sum_dims:
        return left * right
    lro, lo, ro = [], [], []  # dims in left, right and output; left and output; right and output
    lro_size = lo_size = ro_size = sum_size = 1
    for i in range(left._data.ndim):
        sl, sr = left._data.shape[i] != 1, right._data.shape[i] != 1
        if i in sum_dims:
            if sl and sr:
                sum_size *= left._data.shape[i]
            elif sl:  # only on one side: sum it right away
                left = left.sum(i, True)
            elif sr:
                right = right.sum(i, True)
        elif sl and sr:
            lro.append(i)
            lro_size *= left._data.shape[i]
        elif sl:
            lo.append(i)
            lo_size *= left._data.shape[i]
        else:
            ro.append(i)
            ro_size *= right._data.shape[i]
    out_size = ([left._data.shape[d] for d in lro + lo] + [1] * len(sum_dims)
                + [right._data.shape[d] for d in ro])
    operm = [0] * len(out_size)
    for k, d in enumerate(lro + lo + sum_dims + ro):
        operm[d] = k
    left = left.permute(lro + lo + sum_dims + ro).reshape(lro_size, lo_size, sum_size)
    right = right.permute(lro + sum_dims + ro + lo).reshape(lro_size, sum_size, ro_size)
    return left.bmm(right).view(out_size).permute(operm)


def _parse_einsum(equation, operands):
    eq = equation.replace(" ", "")
    if "..." in eq:
        raise NotImplementedError("minigrad's einsum does not support '...'")
    lhs, arrow, out = eq.partition("->")
    ins = lhs.split(",")
    if len(ins) != len(operands):
        raise RuntimeError(f"einsum(): {len(ins)} operands were specified in the equation but {len(operands)} "
                           "were given")  # (PyTorch's wording differs in detail)
    for s, o in zip(ins, operands):
        if len(set(s)) != len(s):
            raise NotImplementedError("minigrad's einsum does not support a letter repeated within one operand")
        if len(s) != o._data.ndim:
            raise RuntimeError(f"einsum(): the number of subscripts in the equation ({len(s)}) does not match the "
                               f"number of dimensions ({o._data.ndim}) for operand {operands.index(o)} and no "
                               "ellipsis was given")
    if not arrow:  # implicit output: the letters that appear once, in alphabetical order
        letters = "".join(ins)
        out = "".join(sorted(c for c in set(letters) if letters.count(c) == 1))
    return ins, out


# ------------------------------------------------------------------ squeeze((0, 2))
class SqueezeDimList(Op):
    """``x.squeeze((0, 2))``: drop those dims where their size is 1 (a view); backward unsqueezes each back
    (PyTorch: ``unsqueeze_to``)."""
    node_name = "SqueezeBackward2"
    saved_names = {"dim": "dims_shown", "self_sym_sizes": "shape"}  # (grad_fn._saved_*: the dims as passed)

    @staticmethod
    def forward(ctx, a, dims):
        ctx.dims_shown, ctx.shape = unsigned(dims), a._data.shape  # (shown as passed)
        dims = tuple(_wrap_dim(d, a._data.ndim) for d in dims)
        for i, d in enumerate(dims):
            if d in dims[:i]:
                raise RuntimeError(f"dim {d} appears multiple times in the list of dims")
        ctx.drop = tuple(sorted(d for d in dims if a._data.ndim and a._data.shape[d] == 1))  # (a 0-dim tensor: none)
        return view_of(a, a._data.squeeze(ctx.drop) if ctx.drop else a._data.view())

    @staticmethod
    def backward(ctx, grad):
        for d in ctx.drop:
            grad = grad.unsqueeze(d)
        return grad, None


class SqueezeDimListInPlace(SqueezeDimList):
    """``x.squeeze_((0, 2))``: ``x`` itself loses those dims of size 1 (``ops.inplace_view``)."""
    node_name = "SqueezeBackward5"


# ------------------------------------------------------------------ helpers for Tensor methods
def masked_fill(t, mask, value):
    return masked_fill_fn(value).apply(t, mask_array(mask), value)


def masked_fill_fn(value):
    """The Function of ``masked_fill``/``masked_fill_`` with this value (a number or a 0-dim tensor)."""
    if isinstance(value, Tensor) and value._data.ndim:
        raise RuntimeError(f"masked_fill_ only supports a 0-dimensional value tensor, but got tensor with "
                           f"{value._data.ndim} dimension(s).")
    return MaskedFillTensor if isinstance(value, Tensor) else MaskedFill


def mask_array(mask):
    """The mask of ``masked_fill``, checked, wrapped in ``NoEdge`` (saved by the node: see ``index_array``)."""
    m = saved_index(mask)
    if m._data.dtype != np.bool_:
        raise RuntimeError(f"masked_fill_ only supports boolean masks, but got mask with dtype "
                           f"{C_NAMES[m._data.dtype.name]}")
    return NoEdge(m)


# how PyTorch's C++ messages name the dtypes
def scatter(t, dim, index, src=None, value=None):
    return scatter_function(t, src, value).apply(t, *scatter_args(t, dim, index, src, value))


def scatter_function(t, src, value):
    """``Scatter`` for a tensor ``src``, ``ScatterValue`` for a number (``src`` or ``value=``)."""
    return Scatter if isinstance(value if src is None else src, Tensor) else ScatterValue


def scatter_args(t, dim, index, src, value):
    return dim, index_array(index, "scatter"), value if src is None else src  # (the dim as passed: Scatter wraps it)


def remove_ranges(key):
    """``x[range(2)]`` indexes like ``x[[0, 1]]`` (in a tuple key too)."""
    if isinstance(key, range):
        return list(key)
    if isinstance(key, tuple) and any(isinstance(k, range) for k in key):
        return tuple(list(k) if isinstance(k, range) else k for k in key)
    return key



# ------------------------------------------------------------------ index_add, sort
class IndexAdd(Op):
    """``x.index_add(dim, index, source, alpha=1)``: ``out[index[i]] += alpha * source[i]`` (dim=0).
    dL/dx = grad; dL/dsource = alpha * grad.index_select(dim, index), expanded to source's shape (derivatives.yaml:
    ``grad.index_select(dim, index).expand_as(source)``, an ``ExpandBackward0`` node under create_graph=True)."""
    node_name = "IndexAddBackward0"
    saved_names = {"dim": "saved_dim", "index": 0, "source": 1, "source_dim": "source_dim", "alpha": "alpha"}
    indexed = True  # (source has the shape of the indexed slices, not of x)

    @staticmethod
    def forward(ctx, a, dim, index, source, alpha=1):
        ctx.dim_arg, dim = dim, _wrap_dim(dim, a._data.ndim)  # (grad_fn._saved_dim: as passed)
        index = saved_index(index)
        idx = index._data
        if idx.ndim > 1:
            raise IndexError("index_add_(): Index is supposed to be a vector")
        if a._data.ndim <= 1 and ((idx < 0) | (idx >= a._data.size)).any():
            raise IndexError("index out of range in self")
        check_bounds(idx, a._data.shape[dim] if a._data.ndim else 1, dim)
        ctx.dim, ctx.alpha, ctx.source_dim = dim, alpha, source._data.ndim
        if ctx.needs_input_grad[3]:  # (only source's gradient reads them: PyTorch saves them then)
            ctx.save_for_backward(index, source)
        out = a._data.copy()
        np.add.at(out, _index_key(out, dim, idx), source._data if alpha == 1 else alpha * source._data)
        return Tensor(out)

    @staticmethod
    def backward(ctx, grad):
        g_src = None
        if ctx.needs_input_grad[3]:
            index, source = ctx.saved_tensors
            g_src = IndexSelect.apply(grad, ctx.dim, NoEdge(index))
            if ctx.source_dim > 0:  # (PyTorch: a 0-d source takes it as it is)
                g_src = g_src.expand(source._data.shape)
            g_src = g_src if ctx.alpha == 1 else MulScalar.apply(g_src, ctx.alpha)  # (PyTorch: maybe_multiply)
        return grad, None, None, g_src, None



# ------------------------------------------------------------------ index_fill, index_copy
def _check_index_vector(idx, size, dim, what):
    """index_fill and index_copy take a 0-d or 1-d index; each entry in ``[-size, size)`` (index_fill
    counts a negative one from the end) or ``[0, size)`` (index_copy)."""
    if idx.ndim > 1:
        raise RuntimeError("Index has to be a vector/scalar")
    low = -size if what == "index_fill" else 0
    bad = idx[(idx < low) | (idx >= size)]
    if bad.size:
        prefix = "" if what == "index_fill" else f"{what}_(): "
        raise IndexError(f"{prefix}index {bad.flat[0]} is out of bounds for dimension {dim} with size {size}")


def _index_key(x, dim, idx):
    """numpy's index of the slices ``idx`` along ``dim`` (of a 0-dim tensor: its one value)."""
    return (slice(None),) * dim + (idx.reshape(-1),) if x.ndim else ()


class IndexFill(Op):
    """``x.index_fill(dim, index, v)``: the slices ``index`` along ``dim`` set to the number ``v``.
    The gradient passes everywhere else: ``grad.index_fill(dim, index, 0)`` (derivatives.yaml)."""
    node_name = "IndexFillBackward0"
    saved_names = {"dim": "saved_dim", "index": 0}  # (grad_fn._saved_*; the dim as passed)
    expanded_write = "index_fill"  # (ops/inplace.py: it may write into an expanded tensor, with a warning)

    @staticmethod
    def filled_places(t, dim, index):
        """Where ``t.index_fill_(dim, index, v)`` writes, as a mask of ``t``'s shape (for an expanded ``t``)."""
        mask = np.zeros(t._data.shape, bool)
        mask[_index_key(mask, _wrap_dim(dim, mask.ndim), index.tensor._data)] = True
        return mask

    @staticmethod
    def forward(ctx, a, dim, index, value):
        ctx.dim_arg, dim = dim, _wrap_dim(dim, a._data.ndim)
        index = saved_index(index)
        idx = index._data
        _check_index_vector(idx, a._data.shape[dim] if a._data.ndim else 1, dim, "index_fill")
        ctx.dim = dim
        ctx.save_for_backward(index)
        out = cast(a._data)  # (a copy laid out like the input: PyTorch's clone, then index_fill_)
        out[_index_key(out, dim, idx)] = value
        return Tensor(out)

    @staticmethod
    def backward(ctx, grad):
        index, = ctx.saved_tensors
        return IndexFill.apply(grad, ctx.dim, NoEdge(index), 0), None, None, None


class IndexFillTensor(Op):
    """``x.index_fill(dim, index, v)`` with ``v`` a 0-dim tensor: ``v`` gets the gradient of every place
    it filled, ``grad.index_select(dim, unique(index)).sum()`` (a place filled twice counts once)."""
    node_name = "IndexFillBackward1"
    saved_names = {"dim": "saved_dim", "index": 0}  # (grad_fn._saved_*; the dim as passed)
    expanded_write, filled_places = "index_fill", IndexFill.filled_places

    @staticmethod
    def forward(ctx, a, dim, index, value):
        if value._data.ndim:
            raise RuntimeError("index_fill_ only supports a 0-dimensional value tensor, but got tensor with "
                               f"{value._data.ndim} dimension(s).")
        return IndexFill.forward(ctx, a, dim, index, value._data)

    @staticmethod
    def backward(ctx, grad):
        index, = ctx.saved_tensors
        g_value = None
        if ctx.needs_input_grad[3]:
            size = grad._data.shape[ctx.dim] if grad._data.ndim else 1
            g_value = IndexSelect.apply(grad, ctx.dim, np.unique(index._data % size)).sum()
        return IndexFill.apply(grad, ctx.dim, NoEdge(index), 0), None, None, g_value


class IndexCopy(Op):
    """``x.index_copy(dim, index, source)``: slice ``i`` of ``source`` replaces slice ``index[i]`` of
    ``x`` along ``dim``.  dL/dx = ``grad.index_fill(dim, index, 0)``; dL/dsource =
    ``grad.index_select(dim, index).expand_as(source)`` (derivatives.yaml: ``ExpandBackward0`` under
    ``create_graph``, though the shapes already agree; a 0-dim source takes the selected slice as it is)."""
    node_name = "IndexCopyBackward0"
    saved_names = {"dim": "saved_dim", "index": 0, "source": 1, "source_dim": "source_dim"}  # (grad_fn._saved_*; the dim as passed)
    indexed = True  # (source has the shape of the indexed slices, not of x)

    @staticmethod
    def forward(ctx, a, dim, index, source):
        ctx.dim_arg, dim = dim, _wrap_dim(dim, a._data.ndim)
        index = saved_index(index)
        x, src, idx = a._data, source._data, index._data
        _check_index_vector(idx, x.shape[dim] if x.ndim else 1, dim, "index_copy")
        n_src = src.shape[dim] if src.ndim else 1
        if idx.size != n_src:
            raise IndexError(f"index_copy_(): Number of indices ({idx.size}) should be equal to source.size(dim) "
                             f"({n_src})")
        if x.dtype != src.dtype:
            raise RuntimeError(f"index_copy_(): self and source expected to have the same dtype, but got (self) "
                               f"{_TYPE_NAMES[x.dtype.name]} and (source) {_TYPE_NAMES[src.dtype.name]}")
        ctx.dim, ctx.source_dim = dim, src.ndim
        ctx.save_for_backward(index, source if ctx.needs_input_grad[3] else None)  # (source: for its gradient only)
        out = x.copy()
        out[_index_key(out, dim, idx)] = src
        return Tensor(out)

    @staticmethod
    def backward(ctx, grad):
        index, source = ctx.saved_tensors
        g_src = None
        if ctx.needs_input_grad[3]:
            g_src = IndexSelect.apply(grad, ctx.dim, index._data.reshape(-1))
            g_src = g_src.expand(source._data.shape) if ctx.source_dim else g_src
        return IndexFill.apply(grad, ctx.dim, NoEdge(index), 0), None, None, g_src


def index_fill(t, dim, index, value, in_place=False):
    """``x.index_fill(dim, index, value)``: ``value`` a number (``IndexFillBackward0``) or a 0-dim tensor
    (``IndexFillBackward1``, which passes ``value`` its gradient)."""
    from .inplace import inplace
    if not isinstance(index, Tensor) or index.dtype.name != "int64":
        raise IndexError("index_fill_(): Expected dtype int64 for index.")
    fn = IndexFillTensor if isinstance(value, Tensor) else IndexFill
    args = (dim, NoEdge(index), value)  # (the dim as passed: IndexFill wraps it)
    return inplace(t, fn, *args) if in_place else fn.apply(t, *args)


# ------------------------------------------------------------------ the backward of sort, topk, median(dim)
def value_selecting_backward(grad, dim, index, shape, keepdim):
    """PyTorch's ``value_selecting_reduction_backward``: zeros of the input's ``shape`` with each
    gradient written back at the place (``index``, a tensor or an array, along ``dim``) its value was picked from."""
    if not keepdim and shape:  # (a 0-dim input has no dim to put back)
        grad, index = grad.unsqueeze(dim), np.expand_dims(saved_index(index)._data, dim)
    return Scatter.apply(Tensor(np.zeros(shape, grad._data.dtype)), dim, NoEdge(saved_index(index)), grad)


# ------------------------------------------------------------------ tril, triu, diag, trace
class Tril(Op):
    """``x.tril(k)``: the lower triangle (on and below diagonal ``k``) of the last two dims, zeros above;
    the gradient passes through the same triangle (``grad.tril(k)``)."""
    expanded_write = "triangle"  # (ops/inplace.py: zeros everywhere outside the triangle, shared places too)
    node_name = "TrilBackward0"
    saved_names = {"diagonal": "k_shown"}  # (grad_fn._saved_diagonal, shown unsigned)
    numpy_fn = staticmethod(np.tril)

    @classmethod
    def forward(cls, ctx, a, k):
        if a._data.ndim < 2:
            raise RuntimeError(f"{cls.__name__.lower()}: input tensor must have at least 2 dimensions")
        ctx.k, ctx.k_shown = k, unsigned(k)
        return Tensor(np.asarray(cls.numpy_fn(a._data, k), order="C"))

    @classmethod
    def backward(cls, ctx, grad):
        return cls.apply(grad, ctx.k), None


class Triu(Tril):
    """``x.triu(k)``: the upper triangle (on and above diagonal ``k``)."""
    node_name = "TriuBackward0"
    numpy_fn = staticmethod(np.triu)


class DiagEmbed(Op):
    """``torch.diag(v, k)`` of a vector: a matrix with ``v`` on diagonal ``k``, zeros elsewhere; in general
    ``x.diag_embed(k, dim1, dim2)``: the last dim of ``x`` on diagonal ``k`` of new dims ``dim1``, ``dim2`` (one
    matrix per element of the other dims). The gradient is the diagonal of the incoming gradient."""
    node_name = "DiagEmbedBackward0"
    saved_names = {"offset": "k_shown", "dim1": "dim1", "dim2": "dim2"}  # (grad_fn._saved_*: as passed, shown unsigned)

    @staticmethod
    def forward(ctx, v, k, dim1=-2, dim2=-1):
        ndim = v._data.ndim + 1
        ctx.k_shown, ctx.dim1, ctx.dim2 = unsigned(k), unsigned(dim1), unsigned(dim2)
        dim1, dim2 = _wrap_dim(dim1, ndim), _wrap_dim(dim2, ndim)
        if dim1 == dim2:
            raise RuntimeError(f"diagonal dimensions cannot be identical {dim1}, {dim2}")
        ctx.k, ctx.dims = k, (dim1, dim2)
        n = v._data.shape[-1] + abs(k)
        shape = list(v._data.shape[:-1])
        for d in sorted((dim1, dim2)):
            shape.insert(d, n)
        out = np.zeros(shape, v._data.dtype)
        diagonal_view(out, k, dim1, dim2)[...] = v._data  # (diagonal k: column - row = k)
        return Tensor(out)

    @staticmethod
    def backward(ctx, grad):  # (derivatives.yaml: grad.diagonal(offset, dim1, dim2), a view: DiagonalBackward0)
        return grad.diagonal(ctx.k, *ctx.dims), None, None, None


class DiagonalCopy(Op):
    """``torch.diag(m, k)`` of a matrix: diagonal ``k`` as a new vector (PyTorch records
    ``DiagonalBackward0_copy``); the gradient goes back onto that diagonal of zeros (``diagonal_backward``)."""
    node_name = "DiagonalBackward0_copy"

    @staticmethod
    def forward(ctx, m, k):
        ctx.k, ctx.shape = k, m._data.shape
        return Tensor(np.diagonal(m._data, k).copy())

    @staticmethod
    def backward(ctx, grad):  # (derivatives.yaml: diagonal_backward, DiagonalBackwardBackward0 under create_graph)
        return DiagonalGrad.apply(grad, ctx.shape, ctx.k, 0, 1), None


def diag(t, diagonal=0):
    if t._data.ndim == 1:
        return DiagEmbed.apply(t, diagonal, -2, -1)
    if t._data.ndim == 2:
        return DiagonalCopy.apply(t, diagonal)
    raise RuntimeError(f"diag(): Supports 1D or 2D tensors. Got {t._data.ndim}D")


class Trace(Op):
    """``m.trace()``: the sum of the diagonal; the gradient is ``grad`` on the diagonal, zeros elsewhere."""
    node_name = "TraceBackward0"

    @staticmethod
    def forward(ctx, m):
        x = m._data
        if x.dtype == np.bool_:
            raise NotImplementedError("\"trace\" not implemented for 'Bool'")
        if x.ndim != 2:
            raise RuntimeError(f"trace: expected a matrix, but got tensor with dim {x.ndim}")
        ctx.shape = x.shape
        return Tensor(np.asarray(np.trace(x, dtype=np.int64 if x.dtype.kind in "biu" else x.dtype)))

    @staticmethod
    def backward(ctx, grad):
        # PyTorch's trace_backward: grad_input = zeros(n * m); the min(n, m) diagonal places,
        # indices = arange(0, min(n, m) * (m + 1), m + 1); grad_input.index_fill_(0, indices, grad);
        # grad_input.view(sizes)  (IndexFillBackward1 with no edge for the zeros, then ViewBackward0)
        n, m = ctx.shape
        grad_input = Tensor(np.zeros(n * m, dtype=grad._data.dtype))
        indices = np.arange(0, min(n, m) * (m + 1), m + 1, dtype=np.int64)
        return IndexFillTensor.apply(grad_input, 0, indices, grad).view(n, m)


# ------------------------------------------------------------------ masked_select, take, nonzero
class MaskedSelect(Op):
    """``x.masked_select(mask)``: the elements where ``mask`` (broadcast with ``x``) is true, as a 1-D
    tensor; the gradient goes back to those places (summed back to ``x``'s shape)."""
    node_name = "MaskedSelectBackward0"
    saved_names = {"mask": 0, "self": 1}  # (grad_fn._saved_*)

    @staticmethod
    def forward(ctx, a, mask):
        mask = saved_index(mask)
        x, m = np.broadcast_arrays(a._data, mask._data)
        ctx.save_for_backward(mask, a)  # (PyTorch saves self too: changing x in place afterwards breaks backward)
        return Tensor(x[m])

    @staticmethod
    def backward(ctx, grad):
        # (PyTorch's masked_select_backward: zeros of x and the mask broadcast, .masked_scatter_(mask, grad))
        mask, a = ctx.saved_tensors
        zeros = Tensor(np.zeros(np.broadcast_shapes(a._data.shape, mask._data.shape), grad._data.dtype))
        return MaskedScatter.apply(zeros, NoEdge(mask), grad), None


def masked_select(t, mask):
    from .promotion import broadcast_shape
    if not isinstance(mask, Tensor) or mask._data.dtype != np.bool_:
        raise RuntimeError("masked_select: expected BoolTensor for mask")
    broadcast_shape(mask, t)  # (PyTorch names the mask first in its error)
    return MaskedSelect.apply(t, NoEdge(mask))


class Take(Op):
    """``x.take(index)``: elements of the flattened ``x`` (shaped like ``index``); backward adds the
    gradient back at those places (repeated indices add up; PyTorch: ``put_(..., accumulate=True)``)."""
    node_name = "TakeBackward0"
    saved_names = {"index": 0, "self": 1}  # (grad_fn._saved_*)

    @staticmethod
    def forward(ctx, a, index):
        index = saved_index(index)
        idx, n = index._data, a._data.size
        bad = idx[(idx >= n) | (idx < -n)]
        if bad.size:
            raise IndexError(f"out of range: tried to access index {bad.flat[0]} on a tensor of {n} elements.")
        ctx.save_for_backward(index, a)  # (PyTorch saves both: changing either in place before backward is an error)
        return Tensor(a._data.reshape(-1)[np.where(idx < 0, idx + n, idx)])

    @staticmethod
    def backward(ctx, grad):
        index, a = ctx.saved_tensors
        return PutGrad.apply(Tensor(np.zeros(a._data.shape, grad._data.dtype)), grad, NoEdge(index)), None


def take(t, index):
    if not isinstance(index, Tensor) or index.dtype.name != "int64":
        from .._core.tensor_base import _TYPE_NAMES
        got = _TYPE_NAMES[index.dtype.name] if isinstance(index, Tensor) else type(index).__name__
        raise RuntimeError(f"take(): Expected a long tensor for index, but got {got}")
    if t._data.size == 0 and index._data.size:
        raise IndexError("take(): tried to take from an empty tensor")
    return Take.apply(t, NoEdge(index))


def nonzero(t, as_tuple=False):
    """``x.nonzero()``: the indices of the non-zero elements, one row each (int64, not differentiable)."""
    x = t._data if t._data.ndim else t._data.reshape(1)  # (a 0-dim tensor counts as one element)
    if as_tuple:
        return tuple(Tensor(i.astype(np.int64)) for i in np.nonzero(x))
    found = np.argwhere(t._data)  # one row per non-zero element
    rows = empty_strided(found.shape, (8, 8 * found.shape[0]), np.int64)  # PyTorch's is column-major: strides (1, N)
    rows[...] = found
    return Tensor(rows)


def count_nonzero(t, dim=None):
    dims = None if dim is None else reduced_dims(dim, t._data.ndim)
    counts = np.asarray(np.count_nonzero(t._data, axis=dims), dtype=np.int64)
    return Tensor(row_major(counts))  # (PyTorch's sum of t != 0: a new row-major tensor, whatever t's layout)


# ------------------------------------------------------------------ roll, repeat_interleave, tile
class Roll(Op):
    """``x.roll(shifts, dims)``: elements shifted around along ``dims`` (the flattened tensor when no
    dims are given); the gradient is rolled back by ``-shifts``."""
    node_name = "RollBackward0"
    saved_names = {"dims": "dims_shown", "shifts": "shifts_shown"}  # (grad_fn._saved_*: as passed, shown unsigned)

    @staticmethod
    def forward(ctx, a, shifts, dims):
        ctx.dims_shown = unsigned(dims)
        dims = tuple(_wrap_dim(d, a._data.ndim) for d in dims) if a._data.size else dims
        ctx.shifts, ctx.dims, ctx.shifts_shown = tuple(shifts), dims, unsigned(shifts)
        if a._data.size == 0:
            return Tensor(a._data.copy())
        if not dims:
            return Tensor(np.roll(a._data.reshape(-1), shifts[0]).reshape(a._data.shape))
        return Tensor(np.asarray(np.roll(a._data, shifts, axis=dims), order="C") if a._data.ndim else a._data.copy())

    @staticmethod
    def backward(ctx, grad):
        return Roll.apply(grad, tuple(-s for s in ctx.shifts), ctx.dims), None, None


def roll(t, shifts, dims=None):
    shifts = tuple(shifts) if isinstance(shifts, (tuple, list)) else (shifts,)
    dims = () if dims is None else tuple(dims) if isinstance(dims, (tuple, list)) else (dims,)
    if not shifts:
        raise RuntimeError("`shifts` required")
    if dims and len(shifts) != len(dims):
        raise RuntimeError(f"shifts and dimensions must align. shifts: {len(shifts)}, dims:{len(dims)}")
    if dims and t._data.ndim == 0:
        raise IndexError(f"Dimension specified as {dims[0]} but tensor has no dimensions")
    if not dims and len(shifts) != 1:
        raise RuntimeError(f"shifts and dimensions must align. shifts: {len(shifts)}, dims:0")
    return Roll.apply(t, shifts, dims)  # (a tensor without elements: a copy, its dims unread, as PyTorch's)


def repeat_interleave(t, repeats, dim=None):
    """``x.repeat_interleave(2, dim)``: each element repeated in place.  Built from other ops, as in
    PyTorch: for a number of repeats, unsqueeze, expand, clone and view (its graph shows those
    nodes); for a tensor of repeats, ``index_select``."""
    if dim is None:
        t, dim = t.flatten(), 0
    dim = _wrap_dim(dim, t._data.ndim)
    if isinstance(repeats, Tensor):
        r = repeats._data.reshape(-1)
        n = t._data.shape[dim] if t._data.ndim else 1
        if r.size not in (1, n):
            raise RuntimeError(f"repeats must have the same size as input along dim, but got repeats.size(0) = "
                               f"{r.size} and input.size({dim}) = {n}")
        if (r < 0).any():
            raise RuntimeError("repeats can not be negative")
        return t.index_select(dim, Tensor(np.repeat(np.arange(n), np.broadcast_to(r, (n,)))))
    if repeats < 0:
        raise RuntimeError("Repeats must be non-negative")
    shape = list(t._data.shape)
    expanded = t.unsqueeze(dim + 1).expand(shape[:dim + 1] + [repeats] + shape[dim + 1:])
    return expanded.clone(memory_format=contiguous_format).view(shape[:dim] + [shape[dim] * repeats] + shape[dim + 1:])


def tile(t, dims):
    """``x.tile(dims)``: ``repeat`` with ``dims`` padded with leading 1s to ``x``'s number of dims."""
    dims = tuple(dims)
    return Repeat.apply(t, (1,) * (t._data.ndim - len(dims)) + dims)


# ------------------------------------------------------------------ meshgrid, broadcast_tensors
def meshgrid(*tensors, indexing=None):
    """``torch.meshgrid(x, y, indexing="ij")``: each 1-D tensor viewed along its own dim and expanded
    to the grid (a ``ViewBackward0`` and an ``ExpandBackward0`` each, as in PyTorch).  ``"xy"``
    swaps the first two dims (Cartesian indexing)."""
    if len(tensors) == 1 and isinstance(tensors[0], (list, tuple)):
        tensors = tuple(tensors[0])
    if indexing is None:  # (PyTorch warns once per process)
        _warn_once("minigrad.meshgrid: in an upcoming release, it will be required to pass the indexing argument. "
                   "(Triggered internally at /__w/pytorch/pytorch/aten/src/ATen/native/TensorShape.cpp:4215.)")
        indexing = "ij"
    if indexing not in ("ij", "xy"):
        raise RuntimeError(f'minigrad.meshgrid: indexing must be one of "xy" or "ij", but received: {indexing}')
    for t in tensors:
        if t._data.ndim > 1:
            raise RuntimeError(f"minigrad.meshgrid: Expected 0D or 1D tensor in the tensor list but got: {t!r}")
    sizes = [t._data.size for t in tensors]
    places = list(range(len(tensors)))
    if indexing == "xy" and len(tensors) >= 2:
        places[0], places[1] = 1, 0
        sizes[0], sizes[1] = sizes[1], sizes[0]
    out = []
    for t, p in zip(tensors, places):
        shape = [1] * len(tensors)
        shape[p] = -1
        out.append(t.view(shape).expand(sizes))
    return tuple(out)


def broadcast_tensors(*tensors):
    """``torch.broadcast_tensors(a, b)``: each expanded to the common shape; one that has it already is
    returned as it is (PyTorch too)."""
    from .promotion import broadcast_shape
    shape = ()
    for t in tensors:
        shape = broadcast_shape(Tensor(np.empty(shape)), t)
    return tuple(t if t._data.shape == shape else t.expand(shape) for t in tensors)


# ------------------------------------------------------------------ numpy-style shape helpers (tutorials)
# Most are PyTorch's own compositions of ops minigrad has (``aten/src/ATen/native/TensorShape.cpp``), so they
# record the same nodes: ``vstack`` is a ``cat`` (CatBackward0), ``fliplr`` a ``flip``, ``hsplit`` slices.
def broadcast_shapes(*shapes):
    """``torch.broadcast_shapes((2, 1), (3,))``: the shape ``broadcast_tensors`` would give, from the shapes alone
    (an int counts as a 1-d shape)."""
    shapes = [(s,) if isinstance(s, int) else tuple(s) for s in shapes]
    ndim = max((len(s) for s in shapes), default=0)
    out = [1] * ndim
    if any(n < 0 for s in shapes for n in s):
        raise ValueError("Attempting to broadcast a dimension with negative length!")
    for k, s in enumerate(shapes):
        for i in range(1, len(s) + 1):
            if s[-i] == 1 or s[-i] == out[-i]:
                continue
            if out[-i] != 1:
                raise RuntimeError(f"Attempting to broadcast a dimension of length {s[-i]} at {-i}! Mismatching "
                                   f"argument at index {k} had {s}; but expected shape should be broadcastable to "
                                   f"{out}")
            out[-i] = s[-i]
    return _dtype.Size(out)


def _tensor_list(tensors, name):
    """The tensors of ``vstack(tensors)`` and friends, with PyTorch's error for an empty list."""
    if not tensors:
        raise RuntimeError(f"{name} expects a non-empty TensorList")
    return list(tensors)


def atleast_nd(n, tensors):
    """``atleast_1d/2d/3d``: each tensor with at least ``n`` dims (a 0-dim one by ``reshape``, a 1-d one by
    ``unsqueeze(0)``, a 2-d one, for 3 dims, by ``unsqueeze(-1)``); one tensor in, one out; several, a tuple."""
    def one(t):
        if t._data.ndim >= n:
            return t
        if t._data.ndim == 0:
            return t.reshape((1,) * n)
        if t._data.ndim == 1:
            return t.unsqueeze(0) if n == 2 else t.unsqueeze(0).unsqueeze(-1)
        return t.unsqueeze(-1)
    if len(tensors) == 1 and isinstance(tensors[0], (list, tuple)):
        return tuple(one(t) for t in tensors[0])
    return one(tensors[0]) if len(tensors) == 1 else tuple(one(t) for t in tensors)


def vstack(tensors):
    """``torch.vstack``: rows stacked, ``cat(atleast_2d(tensors), 0)`` (``row_stack`` is the same)."""
    return cat(atleast_nd(2, [_tensor_list(tensors, "vstack")]), 0)


def hstack(tensors):
    """``torch.hstack``: joined along dim 1 (along dim 0 when they are 1-d)."""
    tensors = atleast_nd(1, [_tensor_list(tensors, "hstack")])
    return cat(tensors, 0 if tensors[0]._data.ndim == 1 else 1)


def dstack(tensors):
    """``torch.dstack``: joined along dim 2 (the depth), ``cat(atleast_3d(tensors), 2)``."""
    return cat(atleast_nd(3, [_tensor_list(tensors, "dstack")]), 2)


def column_stack(tensors):
    """``torch.column_stack``: 0-d and 1-d tensors become columns (``reshape(numel, 1)``), then ``cat`` along 1."""
    tensors = _tensor_list(tensors, "column_stack")
    return cat([t.reshape(t._data.size, 1) if t._data.ndim <= 1 else t for t in tensors], 1)


def fliplr(t):
    if t._data.ndim < 2:
        raise RuntimeError("Input must be >= 2-d.")
    return t.flip(1)


def flipud(t):
    if t._data.ndim < 1:
        raise RuntimeError("Input must be >= 1-d.")
    return t.flip(0)


class Rot90(Op):
    """``x.rot90(k, dims)``: turned by ``k`` quarter turns from ``dims[0]`` towards ``dims[1]``; the gradient is
    turned back (derivatives.yaml: ``grad.rot90(-k, dims)``). As PyTorch: a flipped copy, transposed for odd ``k``
    (so ``rot90(x)`` of a row-major matrix has strides (1, n))."""
    node_name = "Rot90Backward0"
    saved_names = {"dims": "dims_shown", "k": "k_shown"}  # (grad_fn._saved_*: as passed, shown unsigned)

    @staticmethod
    def forward(ctx, a, k, dims):
        n = a._data.ndim
        if len(dims) != 2:
            raise RuntimeError(f"expected total rotation dims == 2, but got dims = {len(dims)}")
        if n < 2:
            raise RuntimeError(f"expected total dims >= 2, but got total dims = {n}")
        d0, d1 = _wrap_dim(dims[0], n), _wrap_dim(dims[1], n)
        if d0 == d1:
            raise RuntimeError(f"expected rotation dims to be different, but got dim0 = {dims[0]} and dim1 = {dims[1]}")
        ctx.k, ctx.dims, ctx.k_shown, ctx.dims_shown = k, dims, unsigned(k), unsigned(dims)
        k %= 4
        flipped = {0: (), 1: (d1,), 2: (d0, d1), 3: (d0,)}[k]
        out = cast(a._data)  # (PyTorch: flip, a copy laid out as the input; clone for k = 0)
        out[...] = np.flip(a._data, flipped)
        return Tensor(np.swapaxes(out, d0, d1) if k % 2 else out)

    @staticmethod
    def backward(ctx, grad):
        return grad.rot90(-ctx.k, ctx.dims), None, None


def tensor_split(t, indices_or_sections, dim=0):
    """``torch.tensor_split``: ``n`` pieces as equal as they can be (the first ``size % n`` one longer), or the
    pieces between the given indices; each piece a slice of ``t`` (``SliceBackward0``)."""
    if t._data.ndim == 0:
        raise RuntimeError("tensor_split expected at least a 1-dimensional tensor, but got a tensor with 0 dims")
    dim = _wrap_dim(dim, t._data.ndim)
    if isinstance(indices_or_sections, Tensor):
        if indices_or_sections.dtype.name != "int64":
            raise RuntimeError("tensor_split expected tensor_indices_or_sections to have dtype of long, but got "
                               f"{_TYPE_NAMES[indices_or_sections.dtype.name]}")
        indices_or_sections = indices_or_sections.tolist()
    n = t._data.shape[dim]
    if isinstance(indices_or_sections, int):
        sections = indices_or_sections
        if sections <= 0:
            raise RuntimeError(f"number of sections must be larger than 0, got {sections}")
        small, extra = divmod(n, sections)
        sizes = [small + 1] * extra + [small] * (sections - extra)
        bounds = np.cumsum([0] + sizes).tolist()
    else:
        bounds = [0] + list(indices_or_sections) + [n]
    # (each piece is x[start:stop] along dim, with Python's rules: a negative index counts from the end, one past
    # the end is clamped, and stop <= start gives an empty piece)
    pieces = [slice(start, stop).indices(n)[:2] for start, stop in zip(bounds[:-1], bounds[1:])]
    return tuple(t.narrow(dim, start, max(stop - start, 0)) for start, stop in pieces)


def _numpy_split(name, dim, min_dims, t, indices_or_sections):
    """``hsplit``/``vsplit``/``dsplit``: ``tensor_split`` along one dim, an int number of sections dividing it."""
    if t._data.ndim < min_dims:
        dims = "1 dimension" if min_dims == 1 else f"{min_dims} dimension"
        raise RuntimeError(f"minigrad.{name} requires a tensor with at least {dims}, but got a tensor with "
                           f"{t._data.ndim} dimensions!")
    if isinstance(indices_or_sections, int) and t._data.shape[dim] % indices_or_sections:
        raise RuntimeError(f"minigrad.{name} attempted to split along dimension {dim}, but the size of the dimension "
                           f"{t._data.shape[dim]} is not divisible by the split_size {indices_or_sections}!")
    return tensor_split(t, indices_or_sections, dim)


def hsplit(t, indices_or_sections):
    return _numpy_split("hsplit", 1 if t._data.ndim > 1 else 0, 1, t, indices_or_sections)


def vsplit(t, indices_or_sections):
    return _numpy_split("vsplit", 0, 2, t, indices_or_sections)


def dsplit(t, indices_or_sections):
    return _numpy_split("dsplit", 2, 3, t, indices_or_sections)


def take_along_dim(t, indices, dim=None):
    """``torch.take_along_dim``: ``gather`` after broadcasting ``t`` and ``indices`` against each other in every
    dim but ``dim`` (numpy's ``take_along_axis``); without a dim, over the flattened tensor."""
    if indices.dtype.name != "int64":
        raise RuntimeError(f"minigrad.take_along_dim(): dtype of indices should be Long but got "
                           f"{_TYPE_NAMES[indices.dtype.name]}")
    if dim is None:
        return t.view(-1).gather(0, indices.view(-1))
    if t._data.ndim == 0:
        raise IndexError(f"Dimension specified as {dim} but tensor has no dimensions")
    if t._data.ndim != indices._data.ndim:
        raise RuntimeError("minigrad.take_along_dim(): input and indices should have the same number of dimensions, "
                           f"but got {t._data.ndim} dimensions for input, and {indices._data.ndim} dimensions for "
                           "indices")
    def infer_size(a, b):  # (PyTorch's infer_size, with its message)
        return broadcast_shape(Tensor(np.empty(a)), Tensor(np.empty(b)))
    dim = _wrap_dim(dim, t._data.ndim)
    self_sizes = list(t._data.shape)
    self_sizes[dim] = indices._data.shape[dim]
    index_sizes = list(indices._data.shape)
    index_sizes[dim] = t._data.shape[dim]
    # (PyTorch gathers with a new row-major copy of the broadcast indices: changing them afterwards is no error)
    indices = Tensor(np.array(np.broadcast_to(indices._data, infer_size(self_sizes, indices._data.shape)), order="C"))
    return t.expand(infer_size(index_sizes, t._data.shape)).gather(dim, indices)


class BlockDiag(Op):
    """``torch.block_diag(a, b, ...)``: the matrices along the diagonal of a zero matrix (a 0-d tensor counts as
    1x1, a 1-d one as one row), in their promoted dtype; each gets its block of the gradient back, in its dtype."""
    node_name = "BlockDiagBackward0"

    @staticmethod
    def forward(ctx, *tensors):
        for i, t in enumerate(tensors):
            if t._data.ndim > 2:
                raise RuntimeError(f"minigrad.block_diag: Input tensors must have 2 or fewer dimensions. Input {i} "
                                   f"has {t._data.ndim} dimensions")
        blocks = [t._data.reshape((1,) * (2 - t._data.ndim) + t._data.shape) for t in tensors]
        dtype = functools.reduce(_dtype.promote_types, [t.dtype for t in tensors]).numpy  # (float32 with int64: float32)
        out = np.zeros((sum(b.shape[0] for b in blocks), sum(b.shape[1] for b in blocks)), dtype)
        r = c = 0
        for b in blocks:
            out[r:r + b.shape[0], c:c + b.shape[1]] = b
            r, c = r + b.shape[0], c + b.shape[1]
        ctx.shapes = [(t._data.shape, b.shape, t.dtype) for t, b in zip(tensors, blocks)]
        return Tensor(out)

    @staticmethod
    def backward(ctx, grad):
        # PyTorch's block_diag_backward: each block sliced out of the gradient (rows, then columns), seen with the
        # input's shape (a 1-d input: view; a 0-d one: squeezed) and cast back to the input's dtype
        grads, r, c = [], 0, 0
        for shape, (rows, cols), dtype in ctx.shapes:
            g = grad.narrow(0, r, rows).narrow(1, c, cols)
            if len(shape) == 1:
                g = g.view(shape)
            elif len(shape) == 0:
                g = g.squeeze(0).squeeze(0)
            grads.append(g.to(dtype))
            r, c = r + rows, c + cols
        return tuple(grads)


def block_diag(*tensors):
    if not tensors:  # (PyTorch: a 1x0 float32 matrix)
        return Tensor(np.zeros((1, 0), np.float32))
    return BlockDiag.apply(*tensors)


def cartesian_prod(*tensors):
    """``torch.cartesian_prod(a, b)``: every pair (a_i, b_j) as a row: ``meshgrid``, flattened, stacked along 1.
    One tensor is returned as it is."""
    if not tensors:
        raise RuntimeError("meshgrid expects a non-empty TensorList")
    for t in tensors:
        if t._data.ndim != 1:
            raise RuntimeError(f"Expect a 1D vector, but got shape {list(t._data.shape)}")
    if len(tensors) == 1:
        return tensors[0]
    return stack([g.flatten() for g in meshgrid(*tensors, indexing="ij")], 1)


def _triangle_indices(row, col, offset, dtype, lower):
    """``tril_indices``/``triu_indices``: the (row, column) coordinates of the triangle, as a 2 x N int64 tensor."""
    for what, n in (("row", row), ("col", col)):
        if n < 0:
            raise RuntimeError(f"{what} must be non-negative, got{n}")
    rows, cols = np.nonzero((np.tri if lower else _upper)(row, col, offset, dtype=bool))
    return Tensor(np.stack([rows, cols]).astype(dtype.numpy))


def _upper(row, col, offset, dtype):
    return ~np.tri(row, col, offset - 1, dtype=dtype)


def tril_indices(row, col, offset=0, *, dtype=None, device=None, layout=None):  # noqa: ARG001
    return _triangle_indices(row, col, offset, dtype or _dtype.int64, True)


def triu_indices(row, col, offset=0, *, dtype=None, device=None, layout=None):  # noqa: ARG001
    return _triangle_indices(row, col, offset, dtype or _dtype.int64, False)


def unravel_index(indices, shape):
    """``torch.unravel_index(flat, shape)``: the coordinates of flat positions, one int64 tensor per dim.
    As PyTorch: each is ``(index // stride) % size`` (floor division, so -1 is the last element) and no bounds
    are checked; they are views of one (..., len(shape)) tensor."""
    if indices.dtype.is_floating_point or indices.dtype.name == "bool":
        raise TypeError(f"expected 'indices' to be integer dtype, but got minigrad.{indices.dtype.name}")
    shape = (shape,) if isinstance(shape, int) else tuple(shape)
    if any(s < 0 for s in shape):
        raise ValueError(f"'shape' cannot have negative values, but got {shape}")
    strides = np.cumprod((1,) + shape[::-1][:-1])[::-1] if shape else ()
    x = indices._data.astype(np.int64)
    coords = np.stack([(x // st) % s for st, s in zip(strides, shape)], -1) if shape else x[..., None]
    return Tensor(coords).unbind(-1)


def broadcast_to(t, size):
    """``torch.broadcast_to(x, shape)``: ``x.expand(shape)``, a view (ExpandBackward0)."""
    return t.expand(size)


def ravel(t):
    """``torch.ravel(x)``: ``x.contiguous().view(-1)``, a view of ``x`` or of a row-major copy of it."""
    return t.contiguous().view(-1)


def rot90(t, k=1, dims=(0, 1)):
    return Rot90.apply(t, k, list(dims))


def split_with_sizes(t, split_sizes, dim=0):
    return split(t, list(split_sizes), dim)


def diag_embed(t, offset=0, dim1=-2, dim2=-1):
    return DiagEmbed.apply(t, offset, dim1, dim2)


def atleast_1d(*tensors):
    return atleast_nd(1, tensors)


def atleast_2d(*tensors):
    return atleast_nd(2, tensors)


def atleast_3d(*tensors):
    return atleast_nd(3, tensors)


# ------------------------------------------------------------------ put, scatter_reduce, index_reduce
class Put(Op):
    """``x.put(index, source, accumulate=False)``: ``source``'s values written (or, with ``accumulate``, added) at
    the places ``index`` of the flattened ``x`` (a negative index counts from the end).  derivatives.yaml:
    dL/dx = ``grad`` with accumulate, else ``grad.put(index, zeros_like(source))`` (the overwritten places get
    nothing); dL/dsource = ``grad.take(index).reshape_as(source)``."""
    node_name = "PutBackward0"
    saved_names = {"accumulate": "accumulate", "index": 0, "source": 1}  # (grad_fn._saved_*)
    indexed = True  # (source has the shape of index, not of x)

    @staticmethod
    def forward(ctx, a, index, source, accumulate=False):
        index = saved_index(index)
        x, idx, src = a._data, index._data, source._data
        if x.dtype != src.dtype:
            raise RuntimeError(f"put_(): self and source expected to have the same dtype, but got self.dtype = "
                               f"{_TYPE_NAMES[x.dtype.name]} and source.dtype = {_TYPE_NAMES[src.dtype.name]}")
        if idx.size != src.size:
            raise IndexError(f"put_(): Expected source and index to have the same number of elements, but got "
                             f"source.numel() = {src.size}, index.numel() = {idx.size}")
        if x.size == 0 and idx.size:
            raise IndexError("put_(): Tried to put elements into an empty tensor")
        bad = idx[(idx >= x.size) | (idx < -x.size)]
        if bad.size:
            raise IndexError(f"out of range: tried to access index {bad.flat[0]} on a tensor of {x.size} elements.")
        ctx.accumulate, ctx.source_shape = accumulate, src.shape
        ctx.save_for_backward(index, source if ctx.needs_input_grad[2] else None)  # (source: for its gradient only)
        out = cast(x)  # (a copy laid out like the input: PyTorch's clone, then put_)
        view = np.atleast_1d(out)
        places = np.unravel_index(np.where(idx < 0, idx + x.size, idx).reshape(-1), view.shape)  # (row-major count)
        if accumulate:
            np.add.at(view, places, src.reshape(-1))
        else:
            view[places] = src.reshape(-1)
        return Tensor(out)

    @staticmethod
    def backward(ctx, grad):
        index, _ = ctx.saved_tensors
        g_self = g_src = None
        if ctx.needs_input_grad[0]:
            zeros = Tensor(np.zeros(ctx.source_shape, grad._data.dtype))
            g_self = grad if ctx.accumulate else Put.apply(grad, NoEdge(index), zeros, False)
        if ctx.needs_input_grad[2]:
            g_src = grad.take(index).reshape(ctx.source_shape)
        return g_self, None, g_src, None


def _check_index_argument(name, index, in_place, position=2):
    """PyTorch's argument parser: the index of ``name`` (``name_`` in place) is a tensor."""
    if not isinstance(index, Tensor):
        raise TypeError(f"{name}{'_' if in_place else ''}(): argument 'index' (position {position}) must be Tensor, "
                        f"not {type(index).__name__}")


def put(t, index, source, accumulate=False, in_place=False):
    """``x.put(index, source, accumulate)`` (``put_`` with ``in_place``): ``index`` a long tensor."""
    from .inplace import inplace
    _check_index_argument("put", index, in_place, position=1)
    if index.dtype.name != "int64":
        raise RuntimeError(f"put_(): Expected a long tensor for index, but got {_TYPE_NAMES[index.dtype.name]}")
    if in_place:
        return inplace(t, Put, NoEdge(index), source, accumulate)
    return Put.apply(t, NoEdge(index), source, accumulate)


_REDUCE_AT = {"sum": np.add, "prod": np.multiply, "mean": np.add, "amax": np.maximum, "amin": np.minimum}


def _reduce_start(reduce, dtype):
    """Where ``include_self=False``, the value a place reduced into starts from (the reduction's identity)."""
    if reduce in ("sum", "mean", "prod"):
        return int(reduce == "prod")
    if dtype.kind == "b":
        return reduce == "amin"
    if dtype.kind == "f":
        return -np.inf if reduce == "amax" else np.inf
    return np.iinfo(dtype).min if reduce == "amax" else np.iinfo(dtype).max


def _reduce_into(x, key, values, reduce, include_self):
    """A copy of ``x`` with ``values`` reduced into the places ``key`` (numpy's index; several values may go to one
    place).  ``mean`` divides each sum by its count (``x``'s own value counts once with ``include_self``); an integer
    mean rounds down, as PyTorch's ``div_(count, rounding_mode="floor")``."""
    out = np.array(x, order="C")  # (a row-major copy whatever the input's layout, as PyTorch allocates it)
    view = np.atleast_1d(out)
    if not include_self:
        view[key] = _reduce_start(reduce, out.dtype)
    _REDUCE_AT[reduce].at(view, key, values)
    if reduce == "mean":
        count = np.full(view.shape, int(include_self))
        np.add.at(count, key, 1)
        count[count == 0] = 1
        view[...] = view / count if out.dtype.kind in "fc" else view // count
    return out


def _reduce_backward(grad, x, src, result, reduce, include_self, pick, add, clear, again, what):
    """PyTorch's ``scatter_reduce_backward`` and ``index_reduce_backward`` (torch/csrc/autograd/FunctionsManual.cpp),
    one formula for both: ``pick(t)`` takes the places of ``t`` the values went to (``gather`` / ``index_select``),
    ``add(t, s)`` adds ``s`` into them (``scatter_add`` / ``index_add``), ``clear(t)`` zeroes them (``scatter`` /
    ``index_fill``) and ``again(t, s)`` is the forward op again; ``what``: the op's and src's names, for the message
    of prod's second derivative where it is not defined.  Returns the gradients of ``x`` and ``src``.

    - prod: each value's gradient is the product of the others at its place; a value 0 is masked with 1 (so a
      single zero gets the product of the others, and a place with two zeros gives 0 to all);
    - mean: the gradient divided by the count of values at the place;
    - amax / amin: the gradient shared evenly among all the values (of ``x`` and ``src``) equal to the result."""
    if reduce == "sum":
        g_self, g_src = grad, pick(grad)
    elif reduce == "prod":
        masked_self = x.masked_fill(x == 0, 1)
        g_self = grad * again(masked_self, src) / masked_self
        src_zero = src == 0
        src_num_zeros = pick(add(zeros_like_data(x), src_zero.to(x.dtype)))
        src_single_zero = src_zero & (src_num_zeros == 1)
        masked_src_result = again(x, src.masked_fill(src_single_zero, 1))
        g_src = pick(grad * masked_src_result).where(src_single_zero,
                                                     pick(grad * result) / src.masked_fill(src_zero, 1))
        if (src_num_zeros._data > 1).any():
            g_src = _delayed_error(g_src, f"{what[0]}(): Double backward is unsupported for {what[1]} when >1 zeros "
                                          f"in {what[1]} are scattered to the same position in self")
    elif reduce == "mean":
        count = Tensor(np.full(grad._data.shape, int(include_self), grad._data.dtype))
        count = add(count, Tensor(np.ones(src._data.shape, grad._data.dtype)))
        count = count.masked_fill(count == 0, 1)
        g_self, g_src = grad / count, pick(grad) / pick(count)
    elif reduce in ("amax", "amin"):
        value = pick(result)
        self_is_result, src_is_result = (x == result).to(x.dtype), (src == value).to(x.dtype)
        grad_distributed = grad / add(self_is_result, src_is_result)
        g_self, g_src = self_is_result * grad_distributed, src_is_result * pick(grad_distributed)
    else:  # (scatter_reduce's forward takes "max" and "min" too)
        raise RuntimeError(f"Expected 'reduce' to be one of 'sum', 'prod', 'mean', 'amax', 'amin' but got {reduce}.")
    return (g_self if include_self else clear(g_self)), g_src


def _delayed_error(t, msg):
    """PyTorch's ``DelayedError``: ``t`` again (while recording), with a node whose backward raises ``msg``."""
    from ..autograd import grad_mode
    from ..autograd.function import Error, _alias, edge_of
    if not (grad_mode.is_grad_enabled() and t.requires_grad):
        return t
    out = _alias(t._data, t._vc)
    out.grad_fn, out._output_nr, out._requires_grad = Error(msg, (edge_of(t),), 1), 0, True
    return out


def zeros_like_data(t):
    """Zeros of ``t``'s shape and dtype, recorded nowhere."""
    return Tensor(np.zeros(t._data.shape, t._data.dtype))


class ScatterReduce(Op):
    """``x.scatter_reduce(dim, index, src, reduce, include_self=True)``: like ``scatter_add``, but the values going
    to one place (``out[i][index[i][j]]`` for dim=1) are reduced by ``reduce``: "sum", "prod", "mean", "amax" or
    "amin" (``include_self=False``: ``x``'s own value at such a place is left out).  Backward: ``_reduce_backward``
    with gather / scatter_add (PyTorch's ``scatter_reduce_backward``)."""
    node_name = "ScatterReduceBackward0"
    saved_names = {"dim": "saved_dim", "include_self": "include_self", "index": 0, "reduce": "reduce", "result": 3,
                   "self": 1, "src": 2}  # (grad_fn._saved_*; the dim as passed)
    indexed = True  # (src has the shape of index, not of x)

    @staticmethod
    def forward(ctx, a, dim, index, src, reduce, include_self=True):
        ctx.dim_arg, dim = dim, _wrap_dim(dim, a._data.ndim)
        index = saved_index(index)
        idx = index._data
        _check_scatter(a, idx, src)
        _check_scatter_sizes(a._data.shape, dim, idx.shape, src._data.shape)
        if reduce not in _REDUCE_AT and reduce not in ("max", "min"):
            raise RuntimeError(f"reduce argument must be either sum, prod, mean, amax or amin, got {reduce}")
        if reduce == "mean" and a._data.dtype == np.bool_:
            raise NotImplementedError('"scatter_gather_tensor_cpu_reduce_mean" not implemented for \'Bool\'')
        ctx.dim, ctx.reduce, ctx.include_self = dim, reduce, include_self
        how = {"max": "amax", "min": "amin"}.get(reduce, reduce)
        out = Tensor(_reduce_into(a._data, _gather_key(idx, dim, a._data.shape), _src_part(src, idx), how, include_self))
        ctx.save_for_backward(index, a, src, out)
        return out

    @staticmethod
    def backward(ctx, grad):
        index, a, src, result = ctx.saved_tensors
        dim, reduce, include_self = ctx.dim, ctx.reduce, ctx.include_self
        g_self, g_src = _reduce_backward(
            grad, a, src, result, reduce, include_self,
            pick=lambda t: t.gather(dim, index), add=lambda t, s: t.scatter_add(dim, index, s),
            clear=lambda t: t.scatter(dim, index, 0), again=lambda t, s: t.scatter_reduce(dim, index, s, reduce,
                                                                                         include_self=include_self),
            what=("scatter_reduce", "src"))
        return g_self, None, None, g_src, None, None


def _check_scatter_sizes(shape, dim, index_shape, src_shape):
    """PyTorch's ``scatter_shape_check``: the index no larger than ``src``, nor than ``x`` but along ``dim``."""
    if not index_shape:
        return
    shape, src_shape = shape or (1,), src_shape or (1,)
    if any(n > s or (d != dim and n > x) for d, (n, s, x) in enumerate(zip(index_shape, src_shape, shape))):
        raise RuntimeError(f"Expected index {list(index_shape)} to be no larger than self {list(shape)} apart from "
                           f"dimension {dim} and to be no larger size than src {list(src_shape)}")


def scatter_reduce(t, dim, index, src, reduce, include_self=True, in_place=False):
    """``x.scatter_reduce(dim, index, src, reduce, include_self=True)`` (``scatter_reduce_`` with ``in_place``)."""
    from .inplace import inplace
    _check_index_argument("scatter_reduce", index, in_place)
    args = dim, index_array(index, "scatter"), src, reduce, include_self
    return inplace(t, ScatterReduce, *args) if in_place else ScatterReduce.apply(t, *args)


class IndexReduce(Op):
    """``x.index_reduce(dim, index, source, reduce, include_self=True)``: like ``index_add``, but the slices going to
    one place (slice ``index[i]`` along ``dim``) are reduced by ``reduce``: "prod", "mean", "amax" or "amin"
    (``include_self=False``: ``x``'s own slice there is left out).  Backward: ``_reduce_backward`` with index_select /
    index_add (PyTorch's ``index_reduce_backward``)."""
    node_name = "IndexReduceBackward0"
    saved_names = {"dim": "saved_dim", "include_self": "include_self", "index": 0, "reduce": "reduce", "result": 3,
                   "self": 1, "source": 2}  # (grad_fn._saved_*; the dim as passed)
    indexed = True  # (source has the shape of the indexed slices, not of x)

    @staticmethod
    def forward(ctx, a, dim, index, source, reduce, include_self=True):
        ctx.dim_arg, dim = dim, _wrap_dim(dim, a._data.ndim)
        index = saved_index(index)
        x, idx, src = a._data, index._data, source._data
        if reduce not in ("prod", "mean", "amax", "amin"):
            raise RuntimeError(f"index_reduce(): Expected reduce to be one of prod, mean, amax or amin but got {reduce}.")
        if idx.ndim > 1:
            raise IndexError(f"index_reduce_(): Index is supposed to be a vector, but got dim: {idx.ndim} with type: "
                             f"{_TYPE_NAMES[idx.dtype.name]} and size: {list(idx.shape)}")
        _check_index_reduce(x, dim, idx, src)
        if x.dtype == np.bool_:
            raise NotImplementedError('"index_func_" not implemented for \'Bool\'')
        if ((idx < 0) | (idx >= (x.shape[dim] if x.ndim else 1))).any():
            raise IndexError("index out of range in self")
        ctx.dim, ctx.reduce, ctx.include_self = dim, reduce, include_self
        out = Tensor(_reduce_into(x, _index_key(x, dim, idx), src, reduce, include_self))
        ctx.save_for_backward(index, a, source, out)
        return out

    @staticmethod
    def backward(ctx, grad):
        index, a, source, result = ctx.saved_tensors
        dim, reduce, include_self = ctx.dim, ctx.reduce, ctx.include_self
        g_self, g_src = _reduce_backward(
            grad, a, source, result, reduce, include_self,
            pick=lambda t: t.index_select(dim, index), add=lambda t, s: t.index_add(dim, index, s),
            clear=lambda t: t.index_fill(dim, index, 0), again=lambda t, s: t.index_reduce(dim, index, s, reduce,
                                                                                          include_self=include_self),
            what=("index_reduce", "source"))
        return g_self, None, None, g_src, None, None


def _check_index_reduce(x, dim, idx, src):
    """PyTorch's ``index_func_meta_impl`` (as index_add's), in its order: the index a vector of int32/int64, source
    of ``x``'s dtype, one index per slice of source, source shaped as ``x`` but along ``dim`` (a 0-dim tensor counts
    as one without dims there)."""
    if idx.dtype.name not in ("int32", "int64"):
        raise RuntimeError(f"index_reduce_(): Expected dtype int32/int64 for index but got: "
                           f"{_TYPE_NAMES[idx.dtype.name]}")
    if x.dtype != src.dtype:
        raise RuntimeError(f"index_reduce_(): self ({_TYPE_NAMES[x.dtype.name]}) and source "
                           f"({_TYPE_NAMES[src.dtype.name]}) must have the same scalar type")
    if dim != 0 and dim >= src.ndim:
        raise RuntimeError(f"index_reduce_(): Indexing dim {dim} is out of bounds of the source tensor with dim "
                           f"{src.ndim}")
    n_src = src.shape[dim] if src.ndim else 1
    if idx.size != n_src:
        raise RuntimeError(f"index_reduce_(): Number of indices ({idx.size}) should be equal to source.size(dim): "
                           f"({n_src}), for dim: {dim}")
    xs, ss = x.shape, src.shape
    if x.ndim and src.ndim:
        xs, ss = xs[:dim] + xs[dim + 1:], ss[:dim] + ss[dim + 1:]
    if xs != ss:
        raise RuntimeError(f"source tensor shape must match self tensor shape, excluding the specified dimension. "
                           f"Got self.shape = {list(x.shape)} source.shape = {list(src.shape)}")


def index_reduce(t, dim, index, source, reduce, include_self=True, in_place=False):
    """``x.index_reduce(dim, index, source, reduce, include_self=True)`` (``index_reduce_`` with ``in_place``)."""
    from .inplace import inplace
    _check_index_argument("index_reduce", index, in_place)
    # (PyTorch warns once, after its checks of the arguments; here before them, from the caller's line)
    _warn_once("index_reduce() is in beta and the API may change at any time.", stacklevel=3)
    args = dim, NoEdge(index), source, reduce, include_self
    return inplace(t, IndexReduce, *args) if in_place else IndexReduce.apply(t, *args)
