"""Printing tensors the way PyTorch does (``tensor([ 0.0000, 11.1111], requires_grad=True)``).

A port of the rules in PyTorch's ``torch/_tensor_str.py``. The default print options:
4 decimals, scientific notation when the magnitudes differ by more than 1000x (or are tiny or
huge), integers-valued floats printed as ``1.``, lines at most 80 characters wide and more than
1000 elements summarised with ``...``; ``set_printoptions`` changes them, as PyTorch's does.
"""
import math

import numpy as np

PRECISION = 4     # decimals of a float
THRESHOLD = 1000  # more elements than this: summarised with ...
EDGEITEMS = 3     # elements shown at each end of a summarised dim
LINEWIDTH = 80    # characters per line
SCI_MODE = None   # True / False: always / never scientific notation; None: decided from the values

_PROFILES = {"default": (4, 1000, 3, 80), "short": (2, 1000, 2, 80), "full": (4, math.inf, 3, 80)}


def set_printoptions(precision=None, threshold=None, edgeitems=None, linewidth=None, profile=None, sci_mode=None):
    """``minigrad.set_printoptions(precision=2)``: how tensors print from now on (PyTorch's
    ``torch.set_printoptions``). ``profile`` ("default", "short", "full") sets the first four at once; each option
    given then overrides it. ``sci_mode`` is set every time: leaving it out means "decide from the values"."""
    global PRECISION, THRESHOLD, EDGEITEMS, LINEWIDTH, SCI_MODE
    if profile in _PROFILES:
        PRECISION, THRESHOLD, EDGEITEMS, LINEWIDTH = _PROFILES[profile]
    if precision is not None:
        PRECISION = precision
    if threshold is not None:
        THRESHOLD = threshold
    if edgeitems is not None:
        EDGEITEMS = edgeitems
    if linewidth is not None:
        LINEWIDTH = linewidth
    SCI_MODE = sci_mode


class _Formatter:
    """Decides, from all the values at once, one width and one style for every element."""

    def __init__(self, values, floating):
        self.floating = floating
        self.int_mode = True
        self.sci_mode = False
        self.max_width = 1
        flat = values.reshape(-1)
        if not floating:
            for v in flat.tolist():
                self.max_width = max(self.max_width, len(str(v)))
            return
        finite = flat[np.isfinite(flat) & (flat != 0)].astype(np.float64)
        if finite.size == 0:
            return  # only zeros, nans and infs: width 1 and int mode, e.g. tensor([0., nan])
        absval = np.abs(finite)
        lo, hi = absval.min(), absval.max()
        self.int_mode = bool(np.all(finite == np.ceil(finite)))
        if self.int_mode:
            self.sci_mode = hi / lo > 1000.0 or hi > 1.0e8
        else:
            self.sci_mode = hi / lo > 1000.0 or hi > 1.0e8 or lo < 1.0e-4
        if SCI_MODE is not None:  # (set_printoptions(sci_mode=...): forced, before the widths are measured)
            self.sci_mode = SCI_MODE
        for v in finite.tolist():
            if self.sci_mode:
                width = len(f"{v:.{PRECISION}e}")
            elif self.int_mode:
                width = len(f"{v:.0f}") + 1
            else:
                width = len(f"{v:.{PRECISION}f}")
            self.max_width = max(self.max_width, width)

    def _plain(self, v):
        if math.isnan(v) or math.isinf(v):
            return str(v)
        return f"{v:.0f}."

    def format(self, v):
        if not self.floating:
            s = str(v)
        elif self.sci_mode:
            s = f"{v:{self.max_width}.{PRECISION}e}"
        elif self.int_mode:
            s = self._plain(v)
        else:
            s = f"{v:.{PRECISION}f}"
        return " " * (self.max_width - len(s)) + s


def _summarized(a):
    """The values that are shown when a tensor is summarised (the 3 first and 3 last along each dim)."""
    if a.ndim == 0:
        return a
    if a.shape[0] > 2 * EDGEITEMS:
        a = np.concatenate([a[:EDGEITEMS], a[-EDGEITEMS:]])
    if a.ndim == 1:
        return a
    return np.stack([_summarized(row) for row in a])


def _vector(a, indent, summarize, fmt):
    per_line = max(1, (LINEWIDTH - indent) // (fmt.max_width + 2))
    if summarize and a.shape[0] > 2 * EDGEITEMS:
        items = [fmt.format(v) for v in a[:EDGEITEMS].tolist()] + [" ..."] + \
                [fmt.format(v) for v in a[-EDGEITEMS:].tolist()]
    else:
        items = [fmt.format(v) for v in a.tolist()]
    lines = [", ".join(items[i:i + per_line]) for i in range(0, len(items), per_line)]
    return "[" + (",\n" + " " * (indent + 1)).join(lines) + "]"


def _nested(a, indent, summarize, fmt):
    if a.ndim == 0:
        return fmt.format(a.item())
    if a.ndim == 1:
        return _vector(a, indent, summarize, fmt)
    n = a.shape[0]
    if summarize and n > 2 * EDGEITEMS:
        rows = [_nested(a[i], indent + 1, summarize, fmt) for i in range(EDGEITEMS)] + ["..."] + \
               [_nested(a[i], indent + 1, summarize, fmt) for i in range(n - EDGEITEMS, n)]
    else:
        rows = [_nested(a[i], indent + 1, summarize, fmt) for i in range(n)]
    return "[" + ("," + "\n" * (a.ndim - 1) + " " * (indent + 1)).join(rows) + "]"


def tensor_repr(t, prefix="tensor("):
    from ._dtype import bool_, get_default_dtype, int64

    a = t._data
    indent = len(prefix)
    suffixes = []
    if a.size == 0:
        if a.ndim != 1:
            suffixes.append(f"size={tuple(a.shape)}")
        if t.dtype is not get_default_dtype():
            suffixes.append(f"dtype={t.dtype}")
        body = "[]"
    else:
        if t.dtype not in (get_default_dtype(), int64, bool_):
            suffixes.append(f"dtype={t.dtype}")
        summarize = a.size > THRESHOLD
        fmt = _Formatter(_summarized(a) if summarize else a, t.dtype.is_floating_point)
        body = _nested(a, indent, summarize, fmt)
    if t.grad_fn is not None:
        suffixes.append(f"grad_fn=<{type(t.grad_fn).__name__}>")
    elif t.requires_grad:
        suffixes.append("requires_grad=True")

    parts = [prefix + body]
    last_line = len(parts[0]) - parts[0].rfind("\n") + 1
    for s in suffixes:
        if last_line + len(s) + 2 > LINEWIDTH:
            parts.append(",\n" + " " * indent + s)
            last_line = indent + len(s)
        else:
            parts.append(", " + s)
            last_line += len(s) + 2
    return "".join(parts) + ")"
