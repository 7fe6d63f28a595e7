"""Ops that put values in order: sort, argsort, topk, median, unique; msort, quantile; and searching and
counting in sorted values: searchsorted, bucketize, isin, histc, bincount.

``sort``, ``topk`` and ``median(dim)`` pick values and return where they came from (``indices``, an
int64 tensor that never requires grad); their backward puts each gradient back at the place its
value was picked from, zeros elsewhere (PyTorch: ``value_selecting_reduction_backward``, in
``tools/autograd/derivatives.yaml``).  ``median()`` of all elements shares its gradient between
tied elements, as ``max()`` does (PyTorch: ``evenly_distribute_backward``).

minigrad sorts stably (equal values keep their order), as PyTorch's CPU sort does for the sizes
minigrad deals with.  ``topk`` takes the first ``k`` of that order; PyTorch's ``topk`` uses a
partial sort, so among tied values it may pick other indices (the values are the same).
"""
import math

import numpy as np

from .dispatch import kernel_mode, Op
from .._core.tensor_base import TensorBase as Tensor, _wrap_dim
from .._core.layout import preserve_format_strides, with_strides
from .reduce import Max, MaxDim, _return_type
from .select import value_selecting_backward
from ._util import checked_number
from .std_sort import nth_element_order, partial_sorted_order, quick_select_order, sorted_order

SortReturnTypes = _return_type("sort")
TopkReturnTypes = _return_type("topk")
MedianReturnTypes = _return_type("median")
NanmedianReturnTypes = _return_type("nanmedian")
KthvalueReturnTypes = _return_type("kthvalue")
ModeReturnTypes = _return_type("mode")


def order(x, axis, descending=False, stable=True):
    """Indices that sort ``x`` along ``axis`` (nan counts as the largest). ``stable``: ties keep their order
    (C++'s ``std::stable_sort``). Otherwise the order C++'s ``std::sort`` leaves them in, which is what
    PyTorch's ``sort`` gives unless asked for ``stable=True``; it differs only among equal values and nans,
    so only rows that have some are sorted the C++ way (``std_sort.py``)."""
    if not descending:
        idx = np.argsort(x, axis=axis, kind="stable")
    else:  # descending and still stable: sort the reversed array ascending, then reverse back
        n = x.shape[axis]
        idx = n - 1 - np.flip(np.argsort(np.flip(x, axis), axis=axis, kind="stable"), axis)
    if stable or x.shape[axis] < 2:
        return idx
    if x.strides[axis] == 0:  # (an expanded dim: PyTorch does not sort it, the indices stay 0, 1, 2, ...)
        return np.broadcast_to(np.arange(x.shape[axis]).reshape((-1,) + (1,) * (x.ndim - 1 - axis)), x.shape).copy()
    before = _comes_before(descending)
    rows, idx = np.moveaxis(x, axis, -1), np.moveaxis(idx, axis, -1)
    for row in np.ndindex(rows.shape[:-1]):
        if _has_ties(rows[row]):
            idx[row] = sorted_order(rows[row].tolist(), before)
    return np.moveaxis(idx, -1, axis)


def _comes_before(descending):
    """PyTorch's comparisons for sorting (``KeyValueCompAsc``/``Desc``): a nan after (before) every number."""
    if descending:
        return lambda x, y: (x != x and y == y) or x > y
    return lambda x, y: (x == x and y != y) or x < y


def _has_ties(line):
    """Equal values or a nan: where C++'s unstable sorts leave an order of their own."""
    ordered = np.sort(line)
    return bool((ordered[1:] == ordered[:-1]).any() or (line != line).any())


def topk_indices(line, k, largest, sorted_):
    """PyTorch's ``topk`` of one row (``topk_impl_loop``): ``std::partial_sort`` when k is small next to the
    row (k * 64 <= n), else ``std::nth_element`` and, if ``sorted``, ``std::sort`` of the k - 1 before it."""
    before = _comes_before(largest)
    if k == 0:
        return []
    if k * 64 <= len(line):
        return partial_sorted_order(line, k, before)[:k]
    items = nth_element_order(line, k - 1, before)
    if sorted_ and k > 1:
        head = items[:k - 1]
        items[:k - 1] = [head[i] for i in sorted_order([line[i] for i in head], before)]
    return items[:k]


def _indices_output(ctx, idx):
    indices = Tensor(np.asarray(idx, dtype=np.int64))
    ctx.mark_non_differentiable(indices)
    return indices


# ------------------------------------------------------------------ sort, topk
class Sort(Op):
    """``x.sort(dim, descending)``: (values, indices); the gradient of each value goes back to where it was."""
    node_name = "SortBackward0"
    saved_names = {"dim": "saved_dim", "indices": 0, "self_sym_sizes": "shape"}  # (grad_fn._saved_dim: as passed)

    @staticmethod
    def forward(ctx, a, dim_arg, descending, stable=False):
        x = a._data
        dim = _wrap_dim(dim_arg, x.ndim)
        ctx.dim_arg = dim_arg
        idx = order(x, dim, descending, stable) if x.ndim else np.zeros((), np.int64)
        ctx.dim, ctx.shape = dim, x.shape
        values = np.take_along_axis(x, idx, dim) if x.ndim else x.copy()
        # (PyTorch lays both outputs out like the input: its strides, or dense strides in the same order)
        indices = _indices_output(ctx, with_strides(idx, preserve_format_strides(x, idx.itemsize)))
        ctx.save_for_backward(indices)  # (grad_fn._saved_indices: changed in place before backward, it raises)
        return Tensor(with_strides(values, preserve_format_strides(x, values.itemsize))), indices

    @staticmethod
    def backward(ctx, grad, _grad_indices):
        indices, = ctx.saved_tensors
        return value_selecting_backward(grad, ctx.dim, indices, ctx.shape, True), None, None, None


class SortStable(Sort):
    """``x.sort(stable=...)``: PyTorch's ``sort.stable`` overload, another node name."""
    node_name = "SortBackward1"


class Topk(Sort):
    """``x.topk(k, dim, largest)``: the ``k`` largest (or smallest) values along ``dim``, in order."""
    node_name = "TopkBackward0"
    saved_names = {"dim": "saved_dim", "indices": 0, "self_sym_sizes": "shape"}  # (grad_fn._saved_*; dim as passed)

    @staticmethod
    def forward(ctx, a, k, dim, largest, sorted_=True):
        x = a._data
        ctx.dim_arg, dim = dim, _wrap_dim(dim, x.ndim)
        n = x.shape[dim] if x.ndim else 1
        if not 0 <= k <= n:
            raise RuntimeError("selected index k out of range")
        if x.dtype == np.bool_:
            raise RuntimeError("topk does not support bool dtypes on CPU")
        if not x.ndim:
            idx = np.zeros((), np.int64)
        else:
            idx = np.take(order(x, dim, largest), np.arange(k), axis=dim)
            rows, idx = np.moveaxis(x, dim, -1), np.moveaxis(idx, dim, -1)
            for row in np.ndindex(rows.shape[:-1]):  # (where ties or unsorted output leave C++'s own order)
                if _has_ties(rows[row]) or not (sorted_ or k * 64 <= n):
                    idx[row] = topk_indices(rows[row].tolist(), k, largest, sorted_)
            idx = np.moveaxis(idx, -1, dim)
        ctx.dim, ctx.shape = dim, x.shape
        values = np.take_along_axis(x, idx, dim) if x.ndim else x.copy()
        indices = _indices_output(ctx, idx)
        ctx.save_for_backward(indices)  # (grad_fn._saved_indices: changed in place before backward, it raises)
        return Tensor(values), indices

    @staticmethod
    def backward(ctx, grad, _grad_indices):
        indices, = ctx.saved_tensors
        return value_selecting_backward(grad, ctx.dim, indices, ctx.shape, True), None, None, None, None


def argsort(a, dim=-1, descending=False, stable=False):
    """``x.argsort(dim)``: the indices of ``sort`` (int64, not differentiable)."""
    from .._core.tensor_base import _wrap_dim
    dim = _wrap_dim(dim, a._data.ndim)
    if a._data.ndim == 0:
        return Tensor(np.zeros((), np.int64))
    indices = order(a._data, dim, descending, stable).astype(np.int64)
    return Tensor(with_strides(indices, preserve_format_strides(a._data, 8)))  # (laid out as sort's: like the input)


# ------------------------------------------------------------------ median
def median_index(x, axis, keepdims=True):
    """Where the median is along ``axis``: the lower of the two middle values (PyTorch's median), or
    the first nan when there is one (a nan median, as in PyTorch)."""
    n = x.shape[axis]
    idx = np.take(order(x, axis), [(n - 1) // 2], axis=axis)
    if x.dtype.kind == "f":
        nan = np.isnan(x)
        idx = np.where(nan.any(axis=axis, keepdims=True), np.argmax(nan, axis=axis, keepdims=True), idx)
    return idx if keepdims else idx.squeeze(axis)


class Median(Max):
    """``x.median()``: the middle value of all elements (the lower one for an even count); ties
    share the gradient, as for ``max()``.  An empty tensor gives nan."""
    node_name = "MedianBackward0"
    where = staticmethod(median_index)

    @classmethod
    def forward(cls, ctx, a):
        x = a._data.reshape(-1)
        if x.size:
            _no_bool(a, "median_cpu")
        value = x[cls.where(x, 0)[0]] if x.size else _nan_as(x.dtype)
        out = Tensor(np.asarray(value))
        ctx.save_for_backward(a, out)
        return out


class MedianDim(MaxDim):
    """``x.median(dim)``: (values, indices) like ``max(dim)``; the gradient goes to the chosen index."""
    node_name = "MedianBackward1"
    name = "median"
    arg = staticmethod(median_index)

    @classmethod
    def forward(cls, ctx, a, dim, keepdim):
        _wrap_dim(dim, max(a._data.ndim, 1))  # (the dim is checked first)
        _no_bool(a, "median_out")
        return super().forward(ctx, a, dim, keepdim)


def nanmedian_index(x, axis, keepdims=True):
    """Where ``nanmedian`` finds its value along ``axis``: the lower middle of the numbers, nans left out.
    PyTorch's kernel (``std::nth_element``, a nan counting as the largest) gives that; in a row of nans only,
    the nan the C++ algorithm leaves first (``std_sort.py``)."""
    numbers = (x == x).sum(axis=axis, keepdims=True)
    idx = np.take_along_axis(order(x, axis), np.maximum(numbers - 1, 0) // 2, axis=axis)
    rows, idx = np.moveaxis(x, axis, -1), np.moveaxis(idx, axis, -1)
    for row in np.ndindex(rows.shape[:-1]):
        if rows[row].size and not (rows[row] == rows[row]).any():  # only nans
            pairs = list(zip(rows[row].tolist(), range(rows[row].size)))
            idx[row] = nth_element_order(pairs, 0, lambda a, b: a[0] < b[0] or (a[0] == b[0] and a[1] < b[1]))[0]
    idx = np.moveaxis(idx, -1, axis)
    return idx if keepdims else idx.squeeze(axis)


class Nanmedian(Median):
    """``x.nanmedian()``: the median of the elements that are not nan (nan if there are none)."""
    node_name = "NanmedianBackward0"
    where = staticmethod(nanmedian_index)


class NanmedianDim(MedianDim):
    """``x.nanmedian(dim)``: (values, indices) like ``median(dim)``, nans left out."""
    node_name = "NanmedianBackward1"
    arg = staticmethod(nanmedian_index)


# ------------------------------------------------------------------ kthvalue, mode
class KthvalueDim(MaxDim):
    """``x.kthvalue(k, dim)``: the k-th smallest value along ``dim`` and its index, (values, indices)
    like ``max(dim)``; the gradient goes to that index (PyTorch: ``value_selecting_reduction_backward``).
    Among equal values the index is the one PyTorch's quickselect leaves at place k (``std_sort.py``)."""
    node_name = "KthvalueBackward0"
    name = "kthvalue"

    @classmethod
    def forward(cls, ctx, a, k, dim, keepdim):
        x = a._data
        d = _wrap_dim(dim, max(x.ndim, 1))
        if x.ndim and x.shape[d] == 0:
            raise IndexError(f"kthvalue(): Expected reduction dim {d} to have non-zero size.")
        if not 1 <= k <= (x.shape[d] if x.ndim else 1):
            raise RuntimeError(f"kthvalue(): selected number k out of range for dimension {d}")
        ctx.k = k
        return super().forward(ctx, a, dim, keepdim)

    @classmethod
    def index(cls, ctx, x, axis):
        rows = np.moveaxis(x, axis, -1)
        idx = np.empty(rows.shape[:-1] + (1,), np.int64)
        for row in np.ndindex(rows.shape[:-1]):
            idx[row] = quick_select_order(rows[row], ctx.k - 1)[ctx.k - 1]
        return np.moveaxis(idx, -1, axis)

    @staticmethod
    def backward(ctx, grad, grad_indices):
        return MaxDim.backward(ctx, grad, grad_indices) + (None,)  # (and none for k)


def mode_index(x, axis, keepdims=True):
    """Where the mode is along ``axis``, found as PyTorch's CPU kernel finds it: sort the row's
    (value, index) pairs by value, walk the runs of equal values, keep the first longest run and the
    index of its last pair. So among equally frequent values the smallest wins, at the place the sort
    left last (in a row of up to 16: the last place it occurs); a nan equals nothing, not even another
    nan, so each nan is a run of its own."""
    x = np.moveaxis(x, axis, -1)
    idx = np.empty(x.shape[:-1] + (1,), np.int64)
    for row in np.ndindex(x.shape[:-1]):
        line = x[row]
        order = sorted_order(line)  # (C++'s std::sort, as PyTorch's kernel calls it)
        best, best_count, count = 0, 0, 0
        for i, k in enumerate(order):
            count += 1
            if i == len(order) - 1 or line[k] != line[order[i + 1]]:  # the end of a run
                if count > best_count:
                    best, best_count = k, count
                count = 0
        idx[row] = best
    return np.moveaxis(idx, -1, axis)


class ModeDim(MaxDim):
    """``x.mode(dim)``: the most frequent value along ``dim`` and its index (values, indices); the
    gradient goes to that index."""
    node_name = "ModeBackward0"
    name = "mode"
    arg = staticmethod(mode_index)


def _nan_as(dtype):
    """The median of nothing: PyTorch fills a nan into the dtype (True for bool, the lowest int64 for int64)."""
    return np.asarray(np.nan).astype(dtype)


def _no_bool(a, kernel):
    if a._data.dtype == np.bool_:
        raise NotImplementedError(f'"{kernel}" not implemented for \'Bool\'')


# ------------------------------------------------------------------ unique
class Unique(Op):
    """``torch.unique(x)``: the distinct values, sorted.  PyTorch has no derivative for it: the node
    it records raises when backward reaches it."""
    node_name = "Unique2Backward0"
    message = "the derivative for '_unique2' is not implemented."

    @staticmethod
    def forward(ctx, a, return_inverse, return_counts, dim):
        x = a._data
        # (equal_nan=False: PyTorch keeps every nan as a value of its own)
        values, inverse, counts = np.unique(x, return_inverse=True, return_counts=True, axis=dim, equal_nan=False)
        out = [Tensor(values)]
        if return_inverse:
            out.append(_indices_output(ctx, inverse.reshape(x.shape if dim is None else -1)))
        if return_counts:
            out.append(_indices_output(ctx, counts))
        return tuple(out) if len(out) > 1 else out[0]

    @classmethod
    def backward(cls, ctx, *grads):
        raise NotImplementedError(cls.message)


class UniqueDim(Unique):
    node_name = "UniqueDimBackward0"
    message = "the derivative for 'unique_dim' is not implemented."


def unique(a, sorted=True, return_inverse=False, return_counts=False, dim=None):  # noqa: A002
    """``torch.unique``: minigrad always sorts (PyTorch's ``sorted=False`` leaves the order unspecified)."""
    from .._core.tensor_base import _wrap_dim
    if dim is None:
        return Unique.apply(a, return_inverse, return_counts, None)
    return UniqueDim.apply(a, return_inverse, return_counts, _wrap_dim(dim, a._data.ndim))


# ------------------------------------------------------------------ msort, quantile
def msort(a):
    """``torch.msort(x)``: ``x.sort(dim=0)`` values (``SortBackward0``)."""
    return Sort.apply(a, 0, False)[0]


def quantile(a, q, dim=None, keepdim=False, interpolation="linear", ignore_nan=False):
    """``x.quantile(q, dim)``: PyTorch's composition (``aten/src/ATen/native/Sorting.cpp``, ``quantile_impl``), so
    the same nodes: sort along ``dim``; the rank ``q * (n - 1)`` of each quantile (a nan makes it the last, so the
    result is nan; ``nanquantile`` counts only the other values); the values just below and above that rank
    (``gather``), ``lerp``-ed in place by the fraction; the quantile dim squeezed in place (``SqueezeBackward4``)."""
    # (PyTorch's messages say quantile() for nanquantile too)
    if not isinstance(q, Tensor):
        if not 0 <= q <= 1:
            raise RuntimeError(f"quantile() q must be in the range [0, 1] but got {q:g}")
        q = Tensor(np.asarray(q, a._data.dtype))
    if a._data.size == 0:
        raise RuntimeError("quantile() input tensor must be non-empty")
    if q._data.ndim > 1:
        raise RuntimeError("quantile() q must be a scalar or 1D tensor")
    if a.dtype.name not in ("float32", "float64"):
        raise RuntimeError("quantile() input tensor must be either float or double dtype")
    if q.dtype != a.dtype:
        raise RuntimeError("quantile() q tensor must be same dtype as the input tensor")
    if ((q._data < 0) | (q._data > 1)).any():
        raise RuntimeError("quantile() q values must be in the range [0, 1]")
    modes = ("linear", "lower", "higher", "midpoint", "nearest")
    if interpolation not in modes:
        raise RuntimeError("quantile() interpolation must be one of linear, lower, higher, midpoint or nearest, but "
                           f"got {interpolation}")
    ndim = a._data.ndim
    wrapped = _wrap_dim(dim, ndim) if dim is not None else None
    if dim is not None and ndim > 0:  # the shape of the result (quantile_output_shape)
        out_shape = list(a._data.shape)
        if keepdim:
            out_shape[wrapped] = 1
        else:
            del out_shape[wrapped]
    else:
        out_shape = [1] * ndim if keepdim else []
    if dim is None:
        values = a.flatten().sort()[0]
    elif wrapped == ndim - 1:
        values = a.sort()[0]
    else:
        values = a.unsqueeze(-1).transpose(wrapped, -1).sort()[0]
    values = values.view(out_shape + [values._data.shape[-1]])  # (seen as (*out_shape, n))
    nan = values.isnan()
    if ignore_nan:
        ranks = q * (nan.logical_not().sum(-1, True) - 1)
        ranks = ranks.masked_fill(ranks < 0, 0)
    else:
        last = values._data.shape[-1] - 1
        ranks = (q * last).masked_fill(nan.any(-1, True), last)
    if interpolation == "lower":
        ranks = ranks.floor()
    elif interpolation == "higher":
        ranks = ranks.ceil()
    elif interpolation == "nearest":
        ranks = ranks.round()
    below = ranks.long()
    out = values.gather(-1, below)
    if interpolation in ("linear", "midpoint"):
        weights = ranks.new_full(ranks.shape, 0.5) if interpolation == "midpoint" else ranks - below
        out.lerp_(values.gather(-1, ranks.ceil().long()), weights)
    if q._data.ndim == 0:
        return out.squeeze_(-1)
    return out.unsqueeze_(0).transpose_(0, -1).squeeze_(-1)


def nanquantile(a, q, dim=None, keepdim=False, interpolation="linear"):
    return quantile(a, q, dim, keepdim, interpolation, ignore_nan=True)


# ------------------------------------------------------------------ searching and counting (not differentiable)
def isin(elements, test_elements, *, assume_unique=False, invert=False):  # noqa: ARG001
    """``torch.isin(x, values)``: a bool tensor, True where an element of ``x`` is among ``values`` (nan is
    never among them); either may be a number."""
    e = elements._data if isinstance(elements, Tensor) else np.asarray(elements)
    t = test_elements._data if isinstance(test_elements, Tensor) else np.asarray(test_elements)
    return Tensor(np.asarray(np.isin(e, t, invert=invert), order="C"))


def _binary_search(boundaries, values, right):
    """For each value, the place it would be inserted into the sorted last dim of ``boundaries`` (same leading
    dims as ``values``): PyTorch's loop, which asks ``!(b >= v)`` (``!(b > v)`` for ``right``) to move on, so a nan
    value lands at the end."""
    n = boundaries.shape[-1]
    lo, hi = np.zeros(values.shape, np.int64), np.full(values.shape, n, np.int64)
    while (lo < hi).any():
        mid = (lo + hi) // 2
        at = np.minimum(mid, n - 1)
        b = boundaries[at] if boundaries.ndim == 1 else np.take_along_axis(boundaries, at, -1)
        with kernel_mode():  # (numpy quiet about inf and nan, as PyTorch's kernels)
            go_on = ~(b > values) if right else ~(b >= values)
        active = lo < hi
        lo, hi = np.where(active & go_on, mid + 1, lo), np.where(active & ~go_on, mid, hi)
    return lo


def searchsorted(sorted_sequence, values, *, out_int32=False, right=False, side=None, sorter=None):
    """``torch.searchsorted(boundaries, values)``: int64 positions where ``values`` would go in the sorted last dim
    of ``boundaries`` to keep it sorted (``right=True`` or ``side="right"``: after equal ones)."""
    seq = sorted_sequence._data
    if side is not None:
        if side == "left" and right:
            raise RuntimeError("minigrad.searchsorted(): side and right can't be set to opposites, got side of left "
                               "while right was True")
        right = side == "right"
    if seq.ndim == 0:
        raise RuntimeError("minigrad.searchsorted(): boundaries tensor should have positive dimension, but got 0 "
                           "dimension")
    v = values._data if isinstance(values, Tensor) else np.asarray(values)
    if seq.ndim > 1 and (v.ndim != seq.ndim or v.shape[:-1] != seq.shape[:-1]):
        raise RuntimeError("minigrad.searchsorted(): boundaries tensor should be 1 dimension or the first N-1 "
                           "dimensions of boundaries tensor and input value tensor must match, but we got "
                           f"boundaries tensor {list(seq.shape)} and input value tensor {list(v.shape)}")
    if sorter is not None:
        seq = np.take_along_axis(seq, sorter._data, -1)
    out = _binary_search(seq, v, right)
    return Tensor(np.asarray(out, np.int32 if out_int32 else np.int64, order="C"))


def bucketize(input, boundaries, *, out_int32=False, right=False):  # noqa: A002
    """``torch.bucketize(x, boundaries)``: ``searchsorted(boundaries, x)`` for a 1-d ``boundaries``."""
    if boundaries._data.ndim != 1:
        raise RuntimeError(f"boundaries tensor must be 1 dimension, but got dim({boundaries._data.ndim})")
    return searchsorted(boundaries, input, out_int32=out_int32, right=right)


def histc(a, bins=100, min=0, max=0):  # noqa: A002
    """``x.histc(bins, min, max)``: counts of the elements in ``bins`` equal bins between ``min`` and ``max`` (both
    0: the smallest and largest element), in ``x``'s dtype; elements outside are left out, ``max`` counts in the
    last bin."""
    from .._core.tensor_base import _TYPE_NAMES
    x = a._data
    if not a.dtype.is_floating_point:
        raise NotImplementedError(f'"histogram_cpu" not implemented for \'{_TYPE_NAMES[a.dtype.name]}\'')
    if bins <= 0:
        raise RuntimeError(f"minigrad.histogram(): bins must be > 0, but got {bins} for dimension 0")
    lo, hi = _histc_range(x, min, max)  # (numbers of the input's dtype: PyTorch's kernel computes in it)
    number = x.dtype.type
    inside = x[(x >= lo) & (x <= hi)]
    with kernel_mode():  # (numpy quiet about inf and nan, as PyTorch's kernels)
        idx = np.minimum(((inside - lo) * number(bins) / (hi - lo)).astype(np.int64), bins - 1)
    return Tensor(np.bincount(idx, minlength=bins).astype(x.dtype))


def _histc_range(x, min, max):  # noqa: A002
    """histc's outer edges, as PyTorch picks them (``histc_select_outer_bin_edges``, in double): ``min`` and ``max``,
    or the smallest and largest element when they are equal, widened by 1 each way if still equal; then checked
    (finite, ordered), then made numbers of the input's dtype (``linspace``'s checked cast)."""
    lo, hi = float(min), float(max)
    if lo == hi and x.size:
        lo, hi = (_aminmax_number(v, x.size) for v in (x.min(), x.max()))
    if lo == hi and math.isinf(lo):  # (PyTorch's message then shows the edge moved to the dtype's largest number)
        lo, hi = float(np.nextafter(x.dtype.type(lo), -np.inf)), float(np.nextafter(x.dtype.type(hi), np.inf))
    elif lo == hi:
        lo, hi = lo - 1, hi + 1
    if not (math.isfinite(lo) and math.isfinite(hi)):
        raise RuntimeError(f"minigrad.histc: range of [{_c_number(lo)}, {_c_number(hi)}] is not finite")
    if not lo < hi:
        raise RuntimeError("minigrad.histc: max must be larger than min")
    return checked_number(lo, x.dtype), checked_number(hi, x.dtype)


def _aminmax_number(v, size):
    """An extreme of the input as PyTorch's ``aminmax`` gives it to histc: a nan of one element as it is, any other nan
    negative (its vectorised kernel makes a new one)."""
    if np.isnan(v):
        return float(v) if size == 1 else float(np.copysign(np.nan, -1.0))
    return float(v)


def bincount(a, weights=None, minlength=0):
    """``x.bincount()``: how often each value 0, 1, ... occurs in the 1-d non-negative integer tensor ``x`` (int64);
    with ``weights``, their sums instead (float64, float32 for float32 weights)."""
    from .._core.tensor_base import _TYPE_NAMES
    x = a._data
    if a.dtype.is_floating_point:
        raise NotImplementedError(f'"bincount_cpu" not implemented for \'{_TYPE_NAMES[a.dtype.name]}\'')
    if minlength < 0:
        raise RuntimeError("minlength should be >= 0")
    if x.ndim != 1 or (x.size and x.min() < 0):
        raise RuntimeError("bincount only supports 1-d non-negative integral inputs.")
    if weights is not None and (weights._data.ndim != 1 or weights._data.shape[0] != x.shape[0]):
        raise RuntimeError("weights should be 1-d and have the same length as input")
    if weights is None:
        return Tensor(np.bincount(x, minlength=minlength).astype(np.int64))
    dtype = np.float32 if weights._data.dtype == np.float32 else np.float64
    return Tensor(np.bincount(x, weights=weights._data.astype(np.float64), minlength=minlength).astype(dtype))


def _c_number(x):
    """A number as PyTorch's C++ prints it: ``%g``, a nan with its sign ("-nan" for the min and max of values with a
    nan: the processor's default nan, whose sign bit is set)."""
    if np.isnan(x):
        return "-nan" if np.signbit(x) else "nan"
    return f"{x:g}"
