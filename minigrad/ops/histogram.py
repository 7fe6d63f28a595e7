"""``torch.histogram``: counts of a float tensor's elements in bins (PyTorch: ``aten/src/ATen/native/Histogram.cpp``).

Beside ``histc`` (``sorting.py``), which takes a number of bins and gives the counts only, ``histogram`` gives
the counts and the bins' edges, takes the edges themselves too, weights and a density.  Not differentiable.
"""
import numpy as np

from .. import creation
from .._core.tensor_base import _TYPE_NAMES, C_NAMES, TensorBase as Tensor


class HistogramResult(tuple):
    """What ``torch.histogram`` returns: a named pair ``(hist, bin_edges)`` that prints like PyTorch's."""
    hist = property(lambda self: self[0])
    bin_edges = property(lambda self: self[1])

    def __repr__(self):
        return f"minigrad.return_types.histogram(\nhist={self[0]!r},\nbin_edges={self[1]!r})"


def _number(v):
    """A double as PyTorch's C++ messages print it (``3``, ``0.5``, ``inf``)."""
    return f"{v:g}"


def _outer_edges(x, range):
    """The first and the last edge: ``range``, else the smallest and largest element (0 and 1 for no elements);
    an empty range is widened by 0.5 each way (PyTorch's ``select_outer_bin_edges``, as numpy does)."""
    if range is not None:
        if len(range) != 2:
            raise RuntimeError(f"minigrad.histogramdd: for a 1-dimensional histogram range should have 2 elements, "
                               f"but got {len(range)}")
        lo, hi = float(range[0]), float(range[1])
    elif x.size:
        lo, hi = float(x.min()), float(x.max())
    else:
        lo, hi = 0.0, 1.0
    if not (np.isfinite(lo) and np.isfinite(hi)):
        raise RuntimeError(f"minigrad.histogramdd: dimension 0's range [{_number(lo)}, {_number(hi)}] is not finite")
    if lo > hi:
        raise RuntimeError(f"minigrad.histogramdd: min should not exceed max, but got min {_number(lo)} max "
                           f"{_number(hi)} for dimension 0")
    if lo == hi:
        lo, hi = lo - 0.5, hi + 0.5
    return lo, hi


def histogram(input, bins=100, *, range=None, weight=None, density=False):  # noqa: A002
    """``torch.histogram(input, bins, *, range=None, weight=None, density=False)`` -> ``(hist, bin_edges)``.

    ``bins`` is a number of equal bins between the outer edges (``range``, else the smallest and largest
    element), or a 1-d tensor of the edges themselves.  Each element falls in the bin ``[edge_i, edge_i+1)``
    (the last bin includes its right edge); elements outside are left out.  ``weight`` (of ``input``'s shape)
    counts each element with its weight; ``density=True`` divides the counts by their sum and by each bin's
    width, so that the histogram integrates to 1."""
    x = input._data
    if not input.dtype.is_floating_point:
        raise NotImplementedError(f"\"histogramdd\" not implemented for '{_TYPE_NAMES[input.dtype.name]}'")
    if isinstance(bins, Tensor):
        if bins.dim() != 1:
            raise RuntimeError(f"minigrad.histogramdd: bins tensor should have one dimension, but got {bins.dim()} "
                               f"dimensions in the bins tensor for dimension 0")
        if bins.numel() < 2:
            raise RuntimeError(f"minigrad.histogram(): bins must be > 0, but got {bins.numel() - 1} for dimension 0")
        if bins.dtype != input.dtype:
            raise RuntimeError(f"minigrad.histogramdd: input tensor and bins tensors should have the same dtype, but "
                               f"got input with dtype {C_NAMES[input.dtype.name]} and bins for dimension 0 with "
                               f"dtype {C_NAMES[bins.dtype.name]}")
        edges = bins._data.copy()
    else:
        if bins <= 0:
            raise RuntimeError(f"minigrad.histogram(): bins must be > 0, but got {bins} for dimension 0")
        lo, hi = _outer_edges(x, range)
        edges = creation.linspace(lo, hi, bins + 1, dtype=input.dtype)._data
    if weight is not None:
        if weight.shape != input.shape:
            raise RuntimeError(f"minigrad.histogramdd: if weight tensor is provided it should have the same shape as "
                               f"the input tensor excluding its innermost dimension, but got input with shape "
                               f"[{x.size}, 1] and weight with shape {list(weight.shape)}")
        if weight.dtype != input.dtype:
            raise RuntimeError(f"minigrad.histogramdd: if weight tensor is provided, input tensor and weight tensor "
                               f"should have the same dtype, but got input({C_NAMES[input.dtype.name]}), and "
                               f"weight({C_NAMES[weight.dtype.name]})")
    values = x.reshape(-1)
    inside = (values >= edges[0]) & (values <= edges[-1])
    # the bin of each element: the last edge not above it (the right edge of the last bin counts in it)
    position = np.minimum(np.searchsorted(edges, values[inside], side="right") - 1, len(edges) - 2)
    hist = np.zeros(len(edges) - 1, x.dtype)
    np.add.at(hist, position, weight._data.reshape(-1)[inside] if weight is not None else x.dtype.type(1))
    if density:
        hist = hist / hist.sum()
        hist = hist / np.diff(edges)
    return HistogramResult((Tensor(hist), Tensor(edges)))
