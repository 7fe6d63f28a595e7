"""``minigrad.testing.assert_close``: are two results the same up to rounding?  (PyTorch: ``torch.testing``,
``torch/testing/_comparison.py``.)

Tests and exercises compare a result with the one expected: tensors of the same shape, dtype and device whose
values agree within ``atol + rtol * |expected|`` (each dtype has its default tolerances, the rounding error its
arithmetic makes), Python numbers, numpy arrays, and lists, tuples and dicts of them, item by item.  The failure
says how many elements differ and where the greatest difference is, in PyTorch's words.
"""
import collections.abc
import math

import numpy as np

from . import _dtype
from .tensor import Tensor

# (rtol, atol) per dtype: PyTorch's default_tolerances; integers and bools must be equal
_TOLERANCES = {"float16": (1e-3, 1e-5), "float32": (1.3e-6, 1e-5), "float64": (1e-7, 1e-7)}


def assert_close(actual, expected, *, allow_subclasses=True, rtol=None, atol=None, equal_nan=False,
                 check_device=True, check_dtype=True, check_layout=True, check_stride=False, msg=None):
    """Raise ``AssertionError`` unless ``actual`` and ``expected`` are close (see the module's docstring).
    ``rtol`` and ``atol`` go together (both given, or neither: the dtype's defaults); ``equal_nan``: nan equals nan;
    ``msg``: the message instead of the one made (or a function of it)."""
    if (rtol is None) != (atol is None):
        raise ValueError(f"Both 'rtol' and 'atol' must be either specified or omitted, but got no "
                         f"{'rtol' if rtol is None else 'atol'}.")
    options = dict(rtol=rtol, atol=atol, equal_nan=equal_nan, check_dtype=check_dtype, check_stride=check_stride)
    failure = _compare(actual, expected, (), options)
    if failure is None:
        return
    message, where = failure
    if where:
        message += f"\n\nThe failure occurred for item {''.join(f'[{k!r}]' for k in where)}"
    if msg is not None:
        message = msg(message) if callable(msg) else msg
    raise AssertionError(message)


def _compare(actual, expected, where, options):
    """None when ``actual`` and ``expected`` are close, else (the message, the keys that lead to them)."""
    if _is_sequence(actual) and _is_sequence(expected):
        if len(actual) != len(expected):
            return (f"The length of the sequences mismatch: {len(actual)} != {len(expected)}", where)
        for i, (a, e) in enumerate(zip(actual, expected)):
            failure = _compare(a, e, where + (i,), options)
            if failure is not None:
                return failure
        return None
    if isinstance(actual, collections.abc.Mapping) and isinstance(expected, collections.abc.Mapping):
        if set(actual) != set(expected):
            return (f"The keys of the mappings do not match:\nMissing keys in the actual mapping: "
                    f"{sorted(set(expected) - set(actual))}\nAdditional keys in the actual mapping: "
                    f"{sorted(set(actual) - set(expected))}", where)
        for key in expected:
            failure = _compare(actual[key], expected[key], where + (key,), options)
            if failure is not None:
                return failure
        return None
    kinds = (_kind(actual), _kind(expected))
    if kinds == ("number", "number"):
        message = _compare_numbers(actual, expected, options)
    elif kinds[0] == kinds[1] and kinds[0] in ("tensor", "array"):
        message = _compare_tensors(Tensor(np.asarray(actual)) if kinds[0] == "array" else actual,
                                   Tensor(np.asarray(expected)) if kinds[0] == "array" else expected, options)
    else:
        raise TypeError(f"No comparison pair was able to handle inputs of type {type(actual)} and {type(expected)}.")
    return None if message is None else (message, where)


def _is_sequence(x):
    return isinstance(x, collections.abc.Sequence) and not isinstance(x, str)


def _kind(x):
    if isinstance(x, Tensor):
        return "tensor"
    if isinstance(x, np.ndarray):
        return "array"
    if isinstance(x, (bool, int, float, np.number, np.bool_)):
        return "number"
    return None


def _compare_numbers(actual, expected, options):
    """Two Python numbers: bools must be equal; an int and a float do not compare (unless ``check_dtype=False``); a
    float's tolerances are float64's, an int's zero."""
    if isinstance(actual, (bool, np.bool_)) and isinstance(expected, (bool, np.bool_)):
        return None if actual == expected else f"Booleans mismatch: {actual} is not {expected}"
    if options["check_dtype"] and type(actual) is not type(expected):
        return f"The (d)types do not match: {type(actual)} != {type(expected)}."
    rtol, atol = _tolerances(options, "float64" if isinstance(actual, float) or isinstance(expected, float) else None)
    if actual == expected or options["equal_nan"] and math.isnan(actual) and math.isnan(expected):
        return None
    if abs(actual - expected) <= atol + rtol * abs(expected):
        return None
    return _scalar_mismatch(actual, expected, rtol, atol)


def _compare_tensors(actual, expected, options):
    """Two tensors: shape, (stride,) dtype, then the values."""
    if actual.shape != expected.shape:
        return _attribute_mismatch("shape", actual.shape, expected.shape)
    if options["check_stride"] and actual.stride() != expected.stride():
        return _attribute_mismatch("stride()", actual.stride(), expected.stride())
    if options["check_dtype"] and actual.dtype != expected.dtype:
        return _attribute_mismatch("dtype", actual.dtype, expected.dtype)
    a, e = actual.detach()._data, expected.detach()._data
    if a.dtype != e.dtype:  # (check_dtype=False: compared in the dtype both promote to, with the looser tolerances)
        common = _dtype.promote_types(actual.dtype, expected.dtype).numpy
        a, e = a.astype(common), e.astype(common)
    rtol, atol = _tolerances(options, actual.dtype.name, expected.dtype.name)
    with np.errstate(all="ignore"):
        matches = np.isclose(a, e, rtol=rtol, atol=atol, equal_nan=options["equal_nan"]) if a.dtype.kind == "f" \
            else a == e
    if matches.all():
        return None
    if a.ndim == 0:
        return _scalar_mismatch(a.item(), e.item(), rtol, atol)
    return _tensor_mismatch(a, e, matches, rtol, atol)


def _tolerances(options, *dtype_names):
    """The ``(rtol, atol)`` given, else the loosest defaults of the dtypes named (0 for integers and bools)."""
    if options["rtol"] is not None:
        return options["rtol"], options["atol"]
    pairs = [_TOLERANCES.get(name, (0.0, 0.0)) for name in dtype_names if name is not None] or [(0.0, 0.0)]
    return max(p[0] for p in pairs), max(p[1] for p in pairs)


def _attribute_mismatch(name, actual, expected):
    return f"The values for attribute '{name}' do not match: {actual} != {expected}."


def _scalar_mismatch(actual, expected, rtol, atol):
    abs_diff = abs(actual - expected)
    rel_diff = float("inf") if expected == 0 else abs_diff / abs(expected)
    return _mismatch("Scalars", f"Expected {expected} but got {actual}.", abs_diff, None, atol, rel_diff, None, rtol)


def _tensor_mismatch(a, e, matches, rtol, atol):
    """PyTorch's ``make_tensor_mismatch_msg``: differences in the tensors' dtype (integers as int64), the greatest
    among the elements that do not match, and its index."""
    total, mismatched = matches.size, int(matches.size - matches.sum())
    extra = f"Mismatched elements: {mismatched} / {total} ({mismatched / total:.1%})"
    if a.dtype.kind != "f":
        a, e = a.astype(np.int64), e.astype(np.int64)
    with np.errstate(all="ignore"):
        abs_diff = np.abs(a - e).ravel()
        abs_diff[matches.ravel()] = 0
        rel_diff = (abs_diff / np.abs(e).ravel()).astype(abs_diff.dtype if a.dtype.kind == "f"
                                                         else _dtype.get_default_dtype().numpy)
        rel_diff[matches.ravel()] = 0
    i, j = _argmax(abs_diff), _argmax(rel_diff)
    return _mismatch("Tensor-likes", extra, abs_diff[i].item(), np.unravel_index(i, a.shape), atol, rel_diff[j].item(),
                     np.unravel_index(j, a.shape), rtol)


def _argmax(x):
    """Where the greatest element is; a nan counts as the greatest (as ``torch.max`` takes it)."""
    nans = np.flatnonzero(np.isnan(x)) if x.dtype.kind == "f" else ()
    return int(nans[0]) if len(nans) else int(np.argmax(x))


def _mismatch(identifier, extra, abs_diff, abs_index, atol, rel_diff, rel_index, rtol):
    """PyTorch's ``_make_mismatch_msg``."""
    lines = [f"{identifier} are not {'equal' if rtol == 0 and atol == 0 else 'close'}!", "", extra]
    for kind, diff, index, tol in (("absolute", abs_diff, abs_index, atol), ("relative", rel_diff, rel_index, rtol)):
        line = (f"{kind.title()} difference: {diff}" if index is None else
                f"Greatest {kind} difference: {diff} at index {tuple(int(k) for k in index)}")
        lines.append(line + (f" (up to {tol} allowed)" if tol > 0 else ""))
    return "\n".join(lines)
