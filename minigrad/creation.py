"""Making tensors: ``tensor``, ``zeros``, ``ones``, ``arange``, ``linspace``, ``cat``, ``stack`` ..."""
import functools
import math
import numbers
import operator
import warnings

import numpy as np

from . import _dtype
from . import devices as _device
from ._core.tensor_base import TensorBase as Tensor
from .ops import zerotensor
from .ops._util import fused_multiply_add, linspace_array
from ._core.layout import empty_strided as empty_strided_array, like
from ._core.tensor_base import _TYPE_NAMES, SCALAR_OF_GRAD, _warn_once
from .ops.shape import cat, concat, stack  # noqa: F401  (torch.cat, torch.concat, torch.stack)


def _infer_dtype(data, read=None):
    """PyTorch's rule: a tensor or numpy array keeps its dtype; numbers: bools stay bool, ints become int64, anything
    with a float becomes the default float.  ``read``: the dtype numpy reads ``data`` as, when known."""
    if isinstance(data, (Tensor, np.ndarray, np.generic)):
        return _dtype.from_numpy_dtype(data._data.dtype if isinstance(data, Tensor) else data.dtype)
    if isinstance(data, (str, bytes)):
        raise TypeError(f"new(): invalid data type '{type(data).__name__}'")
    if isinstance(data, int) and not isinstance(data, bool):  # (however big: storing it checks that it fits)
        return _dtype.int64
    kind = (read or _numpy_dtype(data)).kind
    if kind not in _INFERRED:
        if isinstance(data, (list, tuple)):  # (PyTorch's element-by-element rule names the element it cannot read)
            return _sequence_dtype(data)
        raise RuntimeError(f"Could not infer dtype of {type(data).__name__}")
    return _INFERRED[kind] if kind != "f" else _dtype.get_default_dtype()


_INFERRED = {"b": _dtype.bool_, "i": _dtype.int64, "u": _dtype.int64, "f": None}  # numpy's kind -> dtype


def _numpy_dtype(data):
    """The dtype numpy reads ``data`` as: ``object`` for nested lists of uneven lengths."""
    try:
        return np.asarray(data).dtype
    except ValueError:
        return np.dtype(object)


def _numpy_reading(data):
    """The dtype numpy reads ``data`` as, or None where numpy reads it otherwise than PyTorch: nested lists that
    hold tensors (each one number), strings, ``None`` or other objects, lists of uneven lengths, ints past int64
    (numpy reads ``2**63`` as uint64).  Those are read element by element as PyTorch reads them
    (``_from_sequence``), with its errors."""
    if isinstance(data, (np.ndarray, np.generic)):
        return data.dtype
    if isinstance(data, (list, tuple)) and _holds_tensor(data):
        return None
    dtype = _numpy_dtype(data)
    return None if dtype.kind in "OSU" or dtype == np.uint64 else dtype


def _check_sizes(data):
    """PyTorch's first look at nested lists (``compute_sizes``) follows the first element down, and a string there
    never ends: each of its characters is a string again."""
    first = data
    while isinstance(first, (list, tuple)) and first:
        first = first[0]
    if isinstance(first, str) and first:
        raise ValueError("too many dimensions 'str'")


COPY_CONSTRUCT = ("To copy construct from a tensor, it is recommended to use sourceTensor.detach().clone() or "
                  "sourceTensor.detach().clone().requires_grad_(True), rather than {}(sourceTensor).")


def tensor(data, dtype=None, device=None, requires_grad=False):
    """A new leaf tensor holding a copy of ``data`` (a number, nested lists, a numpy array or a tensor)."""
    if device is not None:  # (None: the default device, the CPU)
        _device.check(device)
    if isinstance(data, Tensor):  # (PyTorch warns, every time)
        warnings.warn(COPY_CONSTRUCT.format("minigrad.tensor"), UserWarning, stacklevel=2)
    return _copy(data, _dtype.to_dtype(dtype), requires_grad)


def _copy(data, d, requires_grad, stacklevel=3):
    """``tensor(data)`` without the device check and the warning: the data copied into an array of dtype ``d``
    (``None``: inferred), as a new leaf.  ``stacklevel`` (as ``warnings.warn``'s, counted from here: 3 is the
    line that called the caller) is where the warning of a tensor in the lists that requires grad points."""
    if isinstance(data, Tensor):
        data = data._data
    if isinstance(data, (str, bytes)):  # (PyTorch's first check; a string in a list gets through)
        raise TypeError(f"new(): invalid data type '{type(data).__name__}'")
    with np.errstate(over="ignore"):  # (a number past the dtype's range is inf, quietly, as in PyTorch)
        if d is None and type(data) is list and all(type(x) is float for x in data):  # (the usual case: [1., 2.])
            d = _dtype.get_default_dtype()
            arr = np.array(data, dtype=d.numpy)
        else:
            d, arr = _read(data, d, stacklevel + 1)
    if requires_grad and not d.is_floating_point:
        raise RuntimeError("Only Tensors of floating point and complex dtype can require gradients")
    return Tensor(arr, requires_grad=requires_grad)


def _read(data, d, stacklevel):
    """``data`` (a number, nested lists, a numpy array) read into an array: numpy reads it where it reads it as
    PyTorch does, else element by element (``_from_sequence``).  Returns the dtype (``d``, or inferred) and the array."""
    if isinstance(data, (list, tuple)):
        _check_sizes(data)
    read = _numpy_reading(data)
    if read is None:
        d = d or _sequence_dtype(data)
        return d, _from_sequence(data, d, stacklevel + 1)
    d = d or _infer_dtype(data, read)
    try:
        return d, np.array(data, dtype=d.numpy)
    except (OverflowError, ValueError):  # (past an integer dtype's range, or nan: PyTorch's error)
        return d, _from_sequence(data, d, stacklevel + 1)


def _holds_tensor(data):
    """Is there a tensor in these nested lists?  (By the types at each level: a long list of numbers is quick.)"""
    kinds = set(map(type, data))
    if any(issubclass(k, Tensor) for k in kinds):
        return True
    return any(issubclass(k, (list, tuple)) for k in kinds) and \
        any(_holds_tensor(x) for x in data if isinstance(x, (list, tuple)))


# ---- tensor() of what numpy reads otherwise (PyTorch: internal_new_from_data in torch/csrc/utils/tensor_new.cpp) --
def _from_sequence(data, d, stacklevel):
    """Nested lists (with tensors in them, ``None``, huge ints, rows of uneven lengths, ...: see ``_numpy_reading``)
    or a number, read as PyTorch reads them: each tensor is ONE number (``float(t)``, so
    it must have one element, and one that requires grad gives a warning, not a graph); the shape comes from the
    first element at each depth (``compute_sizes``); the dtype, unless given, promotes the dtypes of all the
    elements (``infer_scalar_type``: a tensor's own, a Python float's the default one, see ``_sequence_dtype``)."""
    shape, first = [], data
    while isinstance(first, (list, tuple, bytes)):  # (a tensor ends the shape: it is not a sequence there)
        shape.append(len(first))
        if not first:
            break
        first = first[0]
    out = np.empty(shape, d.numpy)
    _store(out, (), data, d, stacklevel + 1)
    return out


def _sequence_dtype(data):
    if isinstance(data, (list, tuple)):
        return functools.reduce(_dtype.promote_types, map(_sequence_dtype, data)) if data else \
            _dtype.get_default_dtype()
    return _infer_dtype(data)


def _store(out, index, x, d, stacklevel):
    """PyTorch's ``recursive_store``: ``x`` fills ``out[index]``; where ``out`` has more dimensions it must be a
    sequence of the right length (a tensor there is iterated: its rows).  ``stacklevel``: counted from the first
    ``_store``, where a warning points."""
    if len(index) == out.ndim:
        out[index] = _number(x, d, stacklevel + len(index) + 1)
        return
    try:
        items = list(x)
    except TypeError:
        raise TypeError("not a sequence") from None
    n = out.shape[len(index)]
    if len(items) != n:
        raise ValueError(f"expected sequence of length {n} at dim {len(index)} (got {len(items)})")
    for i, item in enumerate(items):
        _store(out, index + (i,), item, d, stacklevel)


def _number(x, d, stacklevel):
    """One element (PyTorch's ``store_scalar``): a tensor through ``float()``, or ``operator.index()`` for an
    integer or bool dtype (so a float tensor there raises); what is no number raises; an integer dtype takes
    what fits it (``_integer``).  A tensor that requires grad warns (once), at ``stacklevel`` counted from here."""
    if isinstance(x, Tensor):
        if x.requires_grad:
            _warn_once(SCALAR_OF_GRAD, stacklevel)  # (float(x) then says nothing)
        if d.is_floating_point:
            return float(x)
        x = operator.index(x)
    if d.is_floating_point:
        if not isinstance(x, numbers.Real):
            raise TypeError(f"must be real number, not {type(x).__name__}")
        return float(x) if isinstance(x, int) else x  # (a huge int: its nearest float, or OverflowError)
    if not isinstance(x, numbers.Real):
        raise TypeError(f"'{type(x).__name__}' object cannot be interpreted as an integer")
    return x if d is _dtype.bool_ else _integer(x, d)


def _integer(x, d):
    """A number stored in integer dtype ``d`` (PyTorch's ``unpackIntegral``): an int must fit int64, then the number
    must fit ``d`` (c10's ``checked_convert``; an unsigned dtype takes an int down to -max, wrapping around); a
    float is cut toward zero."""
    if isinstance(x, int) and not -2 ** 63 <= x < 2 ** 63:
        raise ValueError("Overflow when unpacking long long")
    info = np.iinfo(d.numpy)
    low = -int(info.max) if info.min == 0 and isinstance(x, numbers.Integral) else int(info.min)
    if not low <= x <= int(info.max):  # (nan: False)
        raise RuntimeError(f"value cannot be converted to type {info.dtype.name} without overflow")
    return int(x) % (int(info.max) + 1) if info.min == 0 else int(x)


def as_tensor(data, dtype=None, device=None):
    _device.check(device)
    if isinstance(data, Tensor):  # (a tensor of another dtype: converted, in the graph, as by ``to()``)
        return data if dtype is None else data.to(dtype)
    if isinstance(data, np.ndarray) and dtype is None:
        return from_numpy(data)
    return _copy(data, _dtype.to_dtype(dtype), False)


def asarray(obj, *, dtype=None, device=None, copy=None, requires_grad=False):
    """``minigrad.asarray(obj)``: ``obj`` as a tensor, sharing its memory where it can (a tensor of the asked dtype is
    returned as it is, a numpy array is seen as a tensor) unless ``copy=True``; ``copy=False`` refuses to copy."""
    _device.check(device)
    d = _dtype.to_dtype(dtype)
    if requires_grad and not (d or _infer_dtype(obj)).is_floating_point:
        raise RuntimeError("Only Tensors of floating point and complex dtype can require gradients")
    if isinstance(obj, (Tensor, np.ndarray)) and not copy:
        here = obj.dtype if isinstance(obj, Tensor) else _dtype.from_numpy_dtype(obj.dtype)
        if d is None or d is here:
            out = obj if isinstance(obj, Tensor) else from_numpy(obj)
            return out.detach().requires_grad_() if requires_grad else out
        if copy is False:
            raise ValueError(f"can't alias tensor with dtype '{_TYPE_NAMES[here.name]}' into dtype "
                             f"'{_TYPE_NAMES[d.name]}'.")
    out = obj.detach().to(d, copy=True) if isinstance(obj, Tensor) else tensor(obj, dtype=d)
    return out.requires_grad_() if requires_grad else out


def scalar_tensor(s, *, dtype=None, device=None, requires_grad=False):
    """``minigrad.scalar_tensor(3)``: a 0-dim tensor of the default float dtype (not int64) unless ``dtype`` says."""
    return _filled(s, (), dtype, requires_grad, device)


def empty_strided(size, stride, *, dtype=None, device=None, requires_grad=False):
    """A tensor of ``size`` laid out with these ``stride`` (in elements): ``x.stride()`` gives them back. PyTorch
    leaves the values uninitialised; minigrad fills zeros."""
    _device.check(device)
    d = _dtype.to_dtype(dtype) or _dtype.get_default_dtype()
    data = empty_strided_array(tuple(size), tuple(s * d.itemsize for s in stride), d.numpy)
    data[...] = 0
    return Tensor(data, requires_grad=requires_grad)


def from_numpy(array):
    """A tensor that shares memory with a numpy array."""
    _dtype.from_numpy_dtype(array.dtype)
    return Tensor(array)


def _size(size):
    if len(size) == 1 and isinstance(size[0], (tuple, list)):
        return tuple(size[0])
    return tuple(size)


def _filled(value, size, dtype, requires_grad, device=None):
    _device.check(device)
    d = _dtype.to_dtype(dtype) or _dtype.get_default_dtype()
    return Tensor(np.full(size, value, dtype=d.numpy), requires_grad=requires_grad)


def zeros(*size, dtype=None, device=None, requires_grad=False):
    return _filled(0, _size(size), dtype, requires_grad, device)


def _efficientzerotensor(*size, dtype=None, device=None, requires_grad=False):
    """PyTorch's ZeroTensor: zeros never written to memory, which refuse to be written to (ops/zerotensor.py)."""
    _device.check(device)
    out = zerotensor.zeros(_size(size), (_dtype.to_dtype(dtype) or _dtype.get_default_dtype()).numpy)
    return out.requires_grad_() if requires_grad else out


def ones(*size, dtype=None, device=None, requires_grad=False):
    return _filled(1, _size(size), dtype, requires_grad, device)


def empty(*size, dtype=None, device=None, requires_grad=False):
    return _filled(0, _size(size), dtype, requires_grad, device)


def full(size, fill_value, dtype=None, device=None, requires_grad=False):
    if dtype is None and isinstance(fill_value, bool):
        dtype = _dtype.bool_
    elif dtype is None and isinstance(fill_value, int):
        dtype = _dtype.int64
    return _filled(fill_value, tuple(size), dtype, requires_grad, device)


def zeros_like(t, dtype=None, device=None, requires_grad=False, memory_format=_device.preserve_format):
    return _filled_like(0, t, dtype, requires_grad, device, memory_format)


def ones_like(t, dtype=None, device=None, requires_grad=False, memory_format=_device.preserve_format):
    return _filled_like(1, t, dtype, requires_grad, device, memory_format)


def full_like(t, fill_value, dtype=None, device=None, requires_grad=False, memory_format=_device.preserve_format):
    return _filled_like(fill_value, t, dtype, requires_grad, device, memory_format)


def empty_like(t, dtype=None, device=None, requires_grad=False, memory_format=_device.preserve_format):
    return zeros_like(t, dtype, device, requires_grad, memory_format)


def _filled_like(value, t, dtype, requires_grad, device, memory_format):
    """``zeros_like(t)`` and friends: ``t``'s shape, laid out like ``t`` (PyTorch's default ``preserve_format``:
    ``t``'s strides when it is dense, else its dims' order) or row-major (``contiguous_format``)."""
    out = _filled(value, t.shape, dtype or t.dtype, requires_grad, device)
    if _device.numpy_order(memory_format) == "K":
        out._data = like(t._data, out._data)
    return out


def eye(n, m=None, dtype=None, device=None, requires_grad=False):
    _device.check(device)
    d = _dtype.to_dtype(dtype) or _dtype.get_default_dtype()
    return Tensor(np.eye(n, m, dtype=d.numpy), requires_grad=requires_grad)


def arange(start, end=None, step=1, dtype=None, device=None, requires_grad=False):
    """``arange(5)`` -> 0..4 (int64); with any float argument, the default float dtype."""
    _device.check(device)
    if end is None:
        start, end = 0, start
    if dtype is None:
        floats = any(isinstance(v, float) for v in (start, end, step))
        dtype = _dtype.get_default_dtype() if floats else _dtype.int64
    d = _dtype.to_dtype(dtype)
    if not d.is_floating_point:
        return Tensor(_integer_arange(start, end, step, d.numpy), requires_grad=requires_grad)
    _check_range(start, end, step)
    n = int(math.ceil((end - start) / step))  # PyTorch's length, computed in double
    return Tensor(_arange_values(float(start), float(step), n, d.numpy), requires_grad=requires_grad)


def _check_range(start, end, step):
    """arange's checks, in PyTorch's order, on the numbers as its dtype's kernel reads them."""
    if step == 0:
        raise RuntimeError("step must be nonzero")
    if not (math.isfinite(start) and math.isfinite(end)):
        raise RuntimeError(f"unsupported range: {start:g} -> {end:g}")
    if (end - start) * step < 0:
        raise RuntimeError("upper bound and lower bound inconsistent with step sign")


def _integer_arange(start, end, step, dtype):
    """An integer ``arange`` as PyTorch's kernel makes it: ``start``, ``end`` and ``step`` truncated to integers
    (int64, its accumulating type), the values ``start + step * i``.  The checks read the numbers as given; for
    int64 the length reads the truncated ones (``(end - start + step - sign) / step``), for the other integer dtypes
    the numbers as given (a step of 0.5 passes, and counts by 0)."""
    _check_range(start, end, step)
    first, last, stride = int(start), int(end), int(step)
    if dtype == np.int64:
        if stride == 0:  # (a step between -1 and 1: PyTorch's ValueError)
            raise ValueError("step must be nonzero")
        span = last - first + stride - (1 if stride > 0 else -1)
        n = abs(span) // abs(stride)  # (C's division: toward zero; the span and the step have one sign)
    else:
        n = int(math.ceil((float(end) - float(start)) / float(step)))
    return (first + stride * np.arange(n, dtype=np.int64)).astype(dtype)  # (an unsigned dtype wraps around)


def _arange_values(start, step, n, dtype):
    """The numbers of a float ``arange``, rounded exactly as PyTorch's CPU kernel rounds them.

    ``start + i * step`` is computed in double precision, but PyTorch's kernel (aten's
    RangeFactoriesKernel.cpp) fills groups of 8 float32 (4 float64) values at once: each group starts
    at ``base = start + step * i0``, cast to the dtype, and its values are ``base + lane * step``;
    the last values that do not fill two groups are computed one by one as ``start + step * i``.
    Each ``a + b * c`` is one fused multiply-add (rounded once).  ``arange(-8, 8, 0.1)`` is
    bit-identical to PyTorch's this way; ``start + i * step`` alone differs in 35 of its 160
    values by one unit in the last place, enough to flip a relu gradient at 0.  (Above 32,768
    values PyTorch splits the work between threads; minigrad does not, and may then differ in the
    last bit.)
    """
    width = 8 if dtype == np.float32 else 4
    i = np.arange(n)
    base = _fma(step, i - i % width, start).astype(dtype).astype(np.float64)
    out = _fma(i % width, step, base)
    whole = n - n % (2 * width)
    out[whole:] = _fma(step, i[whole:], start)
    return out.astype(dtype)


def _fma(a, b, c):
    """``a * b + c`` rounded once, in double (PyTorch's accumulating type for float32 and float64)."""
    return fused_multiply_add(np.float64(a), np.asarray(b, np.float64), np.asarray(c, np.float64))


def linspace(start, end, steps, dtype=None, device=None, requires_grad=False):
    """``steps`` evenly spaced values from ``start`` to ``end``.

    Computed as PyTorch's CPU kernel does (in the tensor's dtype, the first half counted up from
    ``start`` and the second half down from ``end``) so that the values match bit for bit.
    """
    _device.check(device)
    d = _dtype.to_dtype(dtype) or _dtype.get_default_dtype()
    if steps < 0:
        raise RuntimeError("number of steps must be non-negative")
    return Tensor(linspace_array(start, end, steps, d.numpy), requires_grad=requires_grad)


def logspace(start, end, steps, base=10.0, dtype=None, device=None, requires_grad=False):
    """``steps`` values from ``base ** start`` to ``base ** end``, evenly spaced in the exponent.

    Computed as PyTorch's CPU code does: ``start`` and ``end`` in the tensor's dtype, the step and
    the powers in double precision (``std::pow``), the first half counted up from ``start`` and the
    second half down from ``end``, each value then rounded to the dtype.
    """
    _device.check(device)
    d = _dtype.to_dtype(dtype) or _dtype.get_default_dtype()
    if steps < 0:
        raise RuntimeError("number of steps must be non-negative")
    t = d.numpy.type
    first, last = t(start), t(end)
    step = float(last - first) / (steps - 1) if steps > 1 else 0.0
    exponents = [float(first) + step * i if i < steps // 2 else float(last) - step * (steps - 1 - i)
                 for i in range(steps)]
    if steps == 1:
        exponents = [float(start)]
    out = np.array([math.pow(base, e) for e in exponents], dtype=np.float64).astype(d.numpy)
    return Tensor(out, requires_grad=requires_grad)
