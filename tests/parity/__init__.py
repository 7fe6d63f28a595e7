"""Harness for the PyTorch-parity cases (``cases.py``): record, encode and compare observations.

A *case* is a function ``case(T, F, o)`` written against PyTorch's API.  ``T`` is the module
(``torch`` or ``minigrad``), ``F`` its ``nn.functional`` and ``o`` an :class:`Obs`, the dict of
observations the case fills in and the runner returns (``o["y"] = y``, ``o.err("e", fn)``, ...).
Every value is *encoded when it is recorded* (so later in-place changes cannot alter it) into
plain JSON: tensors become ``{"T": dtype, "shape": [...], "data": [...flat...], "rg": requires_grad}``,
sizes ``{"Size": [...]}``, dtypes ``{"dtype": "minigrad.float32"}``, backward nodes
``{"node": type name}``, exceptions ``{"error": type name, "msg": message}``.

Normalising PyTorch's strings (reprs, error and warning messages), applied to the *torch* side only
(minigrad's strings are compared as they are, so a minigrad message that says ``torch.Size`` is
caught):

- ``torch.``  -> ``minigrad.``   (``torch.Size([3])``, ``dtype=torch.float64``, ``torch.FloatTensor``,
  ``torch.autograd.set_detect_anomaly``) and ``torch::autograd::`` -> ``minigrad::autograd::``
  (the C++ name of ``AccumulateGrad``);
- `` (Triggered internally at /path/to/file.cpp:123.)`` (where in PyTorch's C++ a warning was raised)
  is dropped;
- on both sides, memory addresses are dropped: ``<SumBackward0 object at 0x7f..>`` ->
  ``<SumBackward0 object>`` (minigrad deliberately prints no address).

Comparison (:func:`compare`): names, trees, flags, shapes, dtypes and messages must be equal;
floating values must satisfy ``|a - b| <= atol + rtol * |b|`` with, by default, rtol 1e-5 /
atol 1e-6 for float32 and rtol 1e-7 / atol 1e-10 for float64 (a case may declare looser ones).
Every leaf compared counts as one check.
"""
import contextlib
import math
import re
import warnings

import numpy as np

# ---------------------------------------------------------------------------------- registry
CASES = {}


class Case:
    def __init__(self, fn, name, rtol=None, atol=None, requires=(), note=None):
        self.fn, self.name, self.rtol, self.atol, self.requires, self.note = fn, name, rtol, atol, requires, note

    def missing(self, T):
        """Attributes of ``T`` this case needs that do not exist (yet): e.g. ``nn.Linear``."""
        out = []
        for path in self.requires:
            obj = T
            for part in path.split("."):
                obj = getattr(obj, part, None)
                if obj is None:
                    out.append(path)
                    break
        return out


def case(fn=None, *, rtol=None, atol=None, requires=(), note=None, name=None):
    """Register a case: ``@case`` or ``@case(rtol=1e-4, requires=("nn.Linear",))``."""
    def register(f):
        n = name or f.__name__
        if n in CASES:
            raise ValueError(f"duplicate case {n}")
        CASES[n] = Case(f, n, rtol, atol, tuple(requires), note)
        return f
    return register(fn) if fn is not None else register


# ---------------------------------------------------------------------------------- normalising
_ADDR = re.compile(r" at 0x[0-9a-fA-F]+")
_TRIGGERED = re.compile(r" \(Triggered internally at [^)]*\)")


def normalise(s, torch_side):
    s = _ADDR.sub("", s)
    s = _TRIGGERED.sub("", s)  # (minigrad repeats PyTorch's in a few warnings; not compared on either side)
    if torch_side:
        s = s.split("\nException raised from ")[0]  # (the C++ stack trace under some of PyTorch's messages)
        s = s.replace("torch::autograd::", "minigrad::autograd::")
        s = re.sub(r"\btorch\.", "minigrad.", s)
    return s


# ---------------------------------------------------------------------------------- encoding
def _num(v, digits):
    if isinstance(v, bool):
        return v
    if isinstance(v, int):
        return v
    v = float(v)
    if math.isnan(v):
        return "nan"
    if math.isinf(v):
        return "inf" if v > 0 else "-inf"
    return float(f"{v:.{digits}g}") if digits else v


def is_tensor(T, v):
    return isinstance(v, T.Tensor)


def is_node(v):
    return hasattr(v, "next_functions") and hasattr(v, "name") and not isinstance(v, type)


def dtype_name(d):
    return str(d).split(".")[-1]


def encode(T, v, torch_side):
    if v is None or isinstance(v, (bool, str)):
        return normalise(v, torch_side) if isinstance(v, str) else v
    if isinstance(v, (int, np.integer)):
        return int(v)
    if isinstance(v, (float, np.floating)):
        return _num(v, 0)
    if isinstance(v, T.Size):
        return {"Size": [int(s) for s in v]}
    if isinstance(v, T.dtype):
        return {"dtype": normalise(str(v), torch_side)}
    if is_tensor(T, v):
        d = v.detach()
        zero_tensor = d._is_zerotensor()
        if zero_tensor:
            # PyTorch's ZeroTensor: zeros never written to memory (sgn's backward returns one). tolist() refuses
            # it: compare its values as zeros, and that it is one (minigrad/ops/zerotensor.py).
            d = T.zeros(d.shape, dtype=d.dtype)
        name = dtype_name(d.dtype)
        digits = 9 if name in ("float32", "float16", "bfloat16") else 0
        data = [_num(x, digits) for x in np.asarray(d.reshape(-1).tolist()).reshape(-1).tolist()] \
            if d.numel() else []
        out = {"T": name, "shape": [int(s) for s in d.shape], "data": data, "rg": bool(v.requires_grad)}
        if zero_tensor:
            out["zt"] = True
        return out
    if is_node(v):
        return {"node": type(v).__name__}
    if isinstance(v, dict):
        return {str(k): encode(T, x, torch_side) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [encode(T, x, torch_side) for x in v]
    raise TypeError(f"cannot encode {type(v).__name__}")


def edge_tree(edge, depth):
    """``[type name or None, input_nr, *children]`` for a ``(node, input_nr)`` edge, ``depth`` levels deep."""
    node, nr = edge
    if node is None:
        return [None, int(nr)]
    out = [type(node).__name__, int(nr)]
    if depth > 1:
        out += [edge_tree(e, depth - 1) for e in node.next_functions]
    return out


class Obs(dict):
    """The observations of one run of a case (a dict); helpers record encoded values."""

    def __init__(self, T):
        super().__init__()
        self.T = T
        self.torch_side = T.__name__ == "torch"

    def __setitem__(self, key, value):
        if key in self:
            raise KeyError(f"observation {key!r} recorded twice")
        super().__setitem__(key, encode(self.T, value, self.torch_side))

    def raw(self, key, value):
        super().__setitem__(key, value)

    # -- helpers ------------------------------------------------------------------------
    def norm(self, s):
        return normalise(s, self.torch_side)

    def err(self, key, fn):
        """Record the exception ``fn()`` raises (``{"error": None}`` if it raises nothing)."""
        try:
            fn()
        except Exception as e:  # noqa: BLE001
            self.raw(key, {"error": type(e).__name__, "msg": self.norm(str(e))})
            return e
        self.raw(key, {"error": None})
        return None

    def val(self, key, fn):
        """Record ``fn()``'s value, or the exception it raises (so one failure does not hide the rest)."""
        try:
            v = fn()
        except Exception as e:  # noqa: BLE001
            self.raw(key, {"error": type(e).__name__, "msg": self.norm(str(e))})
            return None
        self[key] = v
        return v

    def warns(self, key, fn):
        """Record the warnings ``fn()`` emits (category name and message) and return its result."""
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            result = fn()
        self.raw(key, [[w.category.__name__, self.norm(str(w.message))] for w in caught])
        return result

    def repr(self, key, v):
        self.raw(key, self.norm(repr(v)))

    def str(self, key, v):
        self.raw(key, self.norm(str(v)))

    def fn(self, key, t):
        """The name of ``t.grad_fn`` (``None`` for a leaf)."""
        self.raw(key, None if t.grad_fn is None else type(t.grad_fn).__name__)

    def tree(self, key, t, depth=4):
        self.raw(key, None if t.grad_fn is None else edge_tree((t.grad_fn, 0), depth))

    def flags(self, key, t):
        """requires_grad, is_leaf and grad_fn name of ``t`` (recorded as ``key:flags``)."""
        self.raw(f"{key}:flags", {"requires_grad": bool(t.requires_grad), "is_leaf": bool(t.is_leaf),
                       "grad_fn": None if t.grad_fn is None else type(t.grad_fn).__name__})

    def grads(self, prefix, **leaves):
        """``o.grads("", x=x, w=w)`` records ``x.grad`` and ``w.grad``."""
        for name, t in leaves.items():
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                g = t.grad
            self[f"{prefix}{name}.grad"] = g

    def all(self, t, name="y", depth=3, grads=None):
        """The usual set for one result: value, grad_fn name, next_functions tree (and leaf grads)."""
        self[name] = t
        self.fn(f"{name}.grad_fn", t)
        self.tree(f"{name}.tree", t, depth)
        if grads:
            self.grads("", **grads)


# ---------------------------------------------------------------------------------- running
def run_case(c, T):
    """Run case ``c`` with module ``T``; a crash is recorded as ``__crash__`` next to what was observed."""
    import importlib
    F = importlib.import_module(T.__name__ + ".nn.functional")
    o = Obs(T)
    default = T.get_default_dtype()
    grad_mode = T.is_grad_enabled()
    try:
        c.fn(T, F, o)
    except Exception as e:  # noqa: BLE001
        o.raw("__crash__", {"error": type(e).__name__, "msg": o.norm(str(e))})
    finally:
        T.set_default_dtype(default)
        T.set_grad_enabled(grad_mode)
    return dict(o)


# ---------------------------------------------------------------------------------- comparing
class Comparison:
    def __init__(self, rtol=None, atol=None):
        self.rtol, self.atol = rtol, atol
        self.checks = 0
        self.mismatches = []

    def _tol(self, dtype):
        if dtype == "float64":
            rtol, atol = 1e-7, 1e-10
        else:
            rtol, atol = 1e-5, 1e-6
        return max(rtol, self.rtol or 0), max(atol, self.atol or 0)

    def fail(self, path, got, want):
        if isinstance(got, str) and isinstance(want, str) and len(got) + len(want) > 300:
            i = next((k for k, (a, b) in enumerate(zip(got, want)) if a != b), min(len(got), len(want)))
            start = max(0, i - 40)
            self.mismatches.append(f"{path}: strings differ at char {i}: minigrad ...{got[start:i + 80]!r} "
                                   f"!= torch ...{want[start:i + 80]!r}")
            return
        self.mismatches.append(f"{path}: minigrad {_short(got)} != torch {_short(want)}")

    def close(self, a, b, dtype):
        if isinstance(a, str) or isinstance(b, str) or isinstance(a, bool) or isinstance(b, bool):
            return a == b
        if a is None or b is None:
            return a is b
        if dtype in ("int64", "int32", "int16", "int8", "uint8", "bool", "int"):
            return a == b
        rtol, atol = self._tol(dtype)
        return abs(a - b) <= atol + rtol * abs(b)

    def compare(self, got, want, path="", dtype=None):
        if isinstance(want, dict) and "T" in want and "data" in want:
            if not (isinstance(got, dict) and "T" in got and "data" in got):
                self.checks += 1
                return self.fail(path, got, want)
            for key in ("T", "shape", "rg", "zt"):  # (zt: a PyTorch ZeroTensor, only there when it is one)
                self.checks += 1
                if got.get(key) != want.get(key):
                    self.fail(f"{path}.{key}", got.get(key), want.get(key))
            self.checks += 1
            if got["shape"] != want["shape"] or len(got["data"]) != len(want["data"]):
                return self.fail(f"{path}.data", got["data"], want["data"])
            bad = [i for i, (a, b) in enumerate(zip(got["data"], want["data"])) if not self.close(a, b, want["T"])]
            if bad:
                self.fail(f"{path}.data (at flat indices {bad[:5]}{'...' if len(bad) > 5 else ''})",
                          got["data"], want["data"])
            return None
        if isinstance(want, dict):
            if not isinstance(got, dict):
                self.checks += 1
                return self.fail(path, got, want)
            for key in want:
                if key not in got:
                    self.checks += 1
                    self.fail(f"{path}.{key}" if path else key, "<missing>", want[key])
                else:
                    self.compare(got[key], want[key], f"{path}.{key}" if path else key, dtype)
            for key in got:
                if key not in want:
                    self.checks += 1
                    self.fail(f"{path}.{key}" if path else key, got[key], "<missing>")
            return None
        if isinstance(want, list):
            if not isinstance(got, list) or len(got) != len(want):
                self.checks += 1
                return self.fail(path, got, want)
            if want and all(isinstance(x, (int, float)) and not isinstance(x, bool) for x in want) and \
                    all(isinstance(x, (int, float)) and not isinstance(x, bool) for x in got):
                self.checks += 1
                if not all(self.close(a, b, dtype) for a, b in zip(got, want)):
                    self.fail(path, got, want)
                return None
            for i, (a, b) in enumerate(zip(got, want)):
                self.compare(a, b, f"{path}[{i}]", dtype)
            return None
        self.checks += 1
        if isinstance(want, float) and isinstance(got, (int, float)) and not isinstance(got, bool):
            if not self.close(got, want, dtype):
                self.fail(path, got, want)
        elif type(got) is not type(want) or got != want:
            self.fail(path, got, want)
        return None


def _short(v, n=400):
    s = repr(v)
    return s if len(s) <= n else s[:n] + "..."


def compare(got, want, rtol=None, atol=None):
    """Compare two observation dicts; returns the :class:`Comparison` (``.checks``, ``.mismatches``)."""
    c = Comparison(rtol, atol)
    c.compare(got, want)
    return c


@contextlib.contextmanager
def quiet():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        yield
