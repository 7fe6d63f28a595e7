"""How PyTorch lays out the result of an elementwise op: its strides (``x.stride()``, ``is_contiguous()``).

The layout is invisible in the numbers, but it decides whether a later ``view`` works or raises, whether
``reshape`` copies (``UnsafeViewBackward0``) or views (``ViewBackward0``), and which formula a matrix product's
backward takes. PyTorch's ``TensorIterator`` (``aten/src/ATen/TensorIterator.cpp``) decides it like this:

1. inputs of one shape, all row-major (contiguous): a row-major result (all 4-d and channels-last: channels-last);
2. inputs of one shape, all with the same strides and no gaps or repeats: those strides;
3. otherwise order the dims from fastest to slowest by the inputs' strides, the first input deciding
   where it can (a broadcast dim, stride 0, has no say; equal strides put the smaller dim first), and
   lay the result out densely in that order (``reorder_dimensions``).

numpy's own choice (``order="K"``) agrees mostly; ``laid_out`` fixes the result where it does not.
"""
import numpy as np

CHANNELS_LAST = [1, 3, 2, 0]  # (N, C, H, W) stored with C fastest, then W, H, N


def laid_out(out, *inputs):
    """``out`` (numpy's result of an elementwise op on the numpy arrays ``inputs``) with PyTorch's strides."""
    if out.ndim < 2:  # (one dim: a fresh result is contiguous in both)
        return out
    tensors = [x for x in inputs if isinstance(x, np.ndarray) and x.ndim > 0]  # (a number: a 0-dim operand)
    if all(x.flags.c_contiguous and 1 not in x.shape for x in tensors):  # (the usual case: both give row-major)
        return out
    return with_strides(out, result_strides(out.shape, out.itemsize, tensors, same_shape=len(tensors) == len(inputs)))


def with_strides(out, strides):
    """``out``'s values laid out with these byte ``strides``."""
    if strides == out.strides:
        return out
    if same_strides(out, strides):  # (only the strides of dims of size 1 differ: they move nothing, set them)
        return np.lib.stride_tricks.as_strided(out, strides=strides)
    want = empty_strided(out.shape, strides, out.dtype)
    want[...] = out
    return want


def result_strides(shape, itemsize, inputs, same_shape=True):
    """The byte strides PyTorch's ``TensorIterator`` gives the result (``same_shape=False``: a 0-dim operand was
    left out of ``inputs``, so the operands' shapes are not all the same)."""
    if same_shape and all(x.shape == shape for x in inputs):
        if all(x.flags.c_contiguous for x in inputs):  # 1. row-major
            return contiguous_strides(shape, itemsize)
        if len(shape) == 4 and all(same_strides(x, dense_strides(shape, x.itemsize, CHANNELS_LAST)) for x in inputs):
            return dense_strides(shape, itemsize, CHANNELS_LAST)  # (images stored pixel by pixel: channels_last)
        if all(x.strides == inputs[0].strides for x in inputs) and all(dense(x) for x in inputs):
            return tuple(s // inputs[0].itemsize * itemsize for s in inputs[0].strides)  # 2. the inputs' own
    order = dims_fastest_first(shape, inputs)  # 3.
    if order == list(range(len(shape)))[::-1]:  # (row-major after all: PyTorch then allocates a new contiguous tensor)
        return contiguous_strides(shape, itemsize)
    return dense_strides(shape, itemsize, order)


def row_major(out):
    """``out`` laid out row-major as PyTorch lays out a new contiguous tensor: dims of size 1 included (numpy calls an
    array row-major whatever the strides of those dims, so ``np.ascontiguousarray`` may leave them)."""
    return with_strides(out, contiguous_strides(out.shape, out.itemsize))


def cast(x, dtype=None):
    """A copy of ``x`` (in ``dtype``) laid out as PyTorch's ``preserve_format`` (``clone``, ``to``, ``empty_like``)."""
    dtype = np.dtype(x.dtype if dtype is None else dtype)
    if x.flags.c_contiguous and 1 not in x.shape and x.size:  # (the usual case: row-major stays row-major)
        return x.astype(dtype)
    out = empty_strided(x.shape, preserve_format_strides(x, dtype.itemsize), dtype)
    np.copyto(out, x, casting="unsafe")
    return out


def like(x, out):
    """``out``, new values shaped like the array ``x``, laid out as PyTorch's ``preserve_format`` lays out a new tensor
    like ``x`` (``zeros_like``, ``empty_like``, ...)."""
    return with_strides(out, preserve_format_strides(x, out.itemsize))


def preserve_format_strides(x, itemsize):
    """The byte strides PyTorch's ``preserve_format`` gives a new tensor like ``x`` (``clone``, ``to``, ``empty_like``,
    ``sort``'s outputs): a dense ``x``'s strides are kept, any other's dims keep their order (``infer_dense_strides``:
    an expanded dim stays where it is; numpy's ``astype`` would put it last)."""
    if dense(x):
        return tuple(s // x.itemsize * itemsize for s in x.strides)
    return dense_strides(x.shape, itemsize, dims_fastest_first(x.shape, [x]))


def empty_strided(shape, strides, dtype):
    """An uninitialised array with these byte ``strides`` (PyTorch: ``empty_strided``), over a fresh block of memory
    just big enough for them (PyTorch's strides are never negative)."""
    dtype = np.dtype(dtype)
    extent = sum((n - 1) * s for n, s in zip(shape, strides)) // dtype.itemsize + 1 if 0 not in shape else 0
    return np.ndarray(shape, dtype, buffer=np.empty(extent, dtype), strides=strides)


def contiguous_strides(shape, itemsize):
    """Row-major byte strides, as PyTorch gives a new tensor (``empty_tensor_restride``: a dim of size 0 counts as
    1 there, so a tensor without elements still has distinct strides; numpy gives it zeros)."""
    strides, step = [], itemsize
    for n in reversed(shape):
        strides.append(step)
        step *= max(n, 1)
    return tuple(reversed(strides))


def obeys_layout_contract(grad, variable):
    """May the array ``grad`` be the ``.grad`` of the array ``variable`` as it is (PyTorch's "gradient layout
    contract")?  Where the variable has no gaps and no repeats, the gradient must have its strides (a dim of size 1
    must not have stride 0: a view); otherwise the gradient must be row-major."""
    if not dense(variable):
        return bool(grad.flags.c_contiguous)
    return all(gs == vs if n != 1 else gs != 0 for n, gs, vs in zip(grad.shape, grad.strides, variable.strides))


def dense_strides(shape, itemsize, order):
    """Strides that lay ``shape`` out without gaps, ``order[0]`` the fastest dim (PyTorch: ``compatible_stride``)."""
    strides, step = [0] * len(shape), itemsize
    for d in order:
        strides[d] = step
        step *= shape[d]
    return tuple(strides)


def dims_fastest_first(shape, inputs):
    """The dims of the result from the fastest-moving to the slowest, as ``TensorIterator::reorder_dimensions``
    sorts them."""
    ndim = len(shape)
    strides = [_broadcast_strides(x, shape) for x in inputs]

    def should_swap(dim0, dim1):  # 1: dim0 has the bigger step, it goes after dim1; -1: before; 0: no input can tell
        for s in strides:
            if s[dim0] == 0 or s[dim1] == 0:
                continue
            if s[dim0] != s[dim1]:
                return 1 if s[dim0] > s[dim1] else -1
            if shape[dim0] > shape[dim1]:
                return 1
        return 0

    perm = list(range(ndim))[::-1]  # row-major: the last dim fastest
    for i in range(1, ndim):  # PyTorch's insertion sort, which stops at the first "goes before"
        dim1 = i
        for dim0 in range(i - 1, -1, -1):
            comparison = should_swap(perm[dim0], perm[dim1])
            if comparison > 0:
                perm[dim0], perm[dim1] = perm[dim1], perm[dim0]
                dim1 = dim0
            elif comparison < 0:
                break
    return perm


def _broadcast_strides(x, shape):
    """``x``'s strides seen in the broadcast ``shape``: 0 for the dims it is broadcast along."""
    lead = len(shape) - x.ndim
    return [0] * lead + [0 if size == 1 and shape[lead + d] != 1 else stride
                         for d, (size, stride) in enumerate(zip(x.shape, x.strides))]


def dense(x):
    """No gaps and no repeats: some order of the dims makes ``x`` contiguous (``is_non_overlapping_and_dense``).  A
    tensor without elements is (PyTorch counts it contiguous whatever its strides)."""
    if x.size == 0:
        return True
    step = x.itemsize
    for stride, size in sorted((stride, size) for size, stride in zip(x.shape, x.strides) if size != 1):
        if stride != step:
            return False
        step *= size
    return True


def same_strides(array, strides):
    """The same layout, not looking at dims of size 1 (their stride moves nothing)."""
    return all(a == b for a, b, n in zip(array.strides, strides, array.shape) if n > 1)


# ---- memory formats
# PyTorch's layouts of an (N, C, ...) tensor (c10/core/MemoryFormat.h), each an order of the dims from the one
# whose neighbours are next to each other in memory to the farthest apart: row-major (contiguous), and for 4-d and
# 5-d tensors channels-last (the channels of a pixel next to each other).
def row_major_order(ndim):
    return tuple(range(ndim - 1, -1, -1))


def channels_last_order(ndim):
    return (1, 3, 2, 0) if ndim == 4 else (1, 4, 3, 2, 0)


def dense_in_order(x, order):
    """Is the array ``x`` laid out densely in ``order`` (PyTorch's ``is_contiguous(memory_format)``: dims of size 1
    may have any stride)?"""
    expected = x.itemsize
    for d in order:
        if x.shape[d] != 1:
            if x.strides[d] != expected:
                return False
            expected *= x.shape[d]
    return True


def suggested_order(x):
    """PyTorch's ``suggest_memory_format()``: channels-last for a 4-d or 5-d array whose strides grow in that order
    (``is_channels_last_strides_2d``/``_3d``: a dim of size 1 counts as one step, and where that is ambiguous, a
    channel stride of 0 or N's stride equal to C's, row-major), else row-major."""
    if x.ndim not in (4, 5) or x.strides[1] == 0:
        return row_major_order(x.ndim)
    smallest = 0
    for d in channels_last_order(x.ndim):
        if x.shape[d] == 0 or x.strides[d] < smallest or (d == 0 and smallest == x.strides[1]):
            return row_major_order(x.ndim)
        smallest = x.strides[d] * max(x.shape[d], 1)
    return channels_last_order(x.ndim)
