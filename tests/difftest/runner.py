"""Run a program with one library, compare two runs, shrink a disagreement, print it as Python.

``run(program, T)`` executes the steps one by one in a namespace with ``T`` (``torch`` or
``minigrad``) and ``F`` (its ``nn.functional``), and records after each step (encoded with
``tests/parity``'s encoder, so PyTorch's strings are normalised the same way):

- ``err``: the exception it raised (type name and message), if any;
- ``warn``: the warnings it emitted (category and message), if any; a numpy RuntimeWarning counts;
- ``out`` (and ``watch`` for in-place ops): for each tensor its value, dtype, shape, requires_grad
  (``t``), strides (``st``), ``is_leaf``, the ``grad_fn`` name, the ``next_functions`` DAG (``dag``: nodes in
  breadth-first order, each ``[name, [[node index, input_nr] or None, ...]]``, shared nodes
  shared, ``AccumulateGrad`` nodes named with their leaf) and, for in-place ops, ``_version``;
- ``grads`` after a backward or ``autograd.grad``: ``.grad`` (and its strides) of every leaf that requires
  grad and of every tensor that retains its grad.

``compare`` reports the differences (values with rtol 1e-4 / atol 1e-5: programs chain several
float32 ops), ``klass`` names the first one as ``"<step kind>: <aspect>"``.
"""
import re
import warnings

from parity import Comparison, encode, normalise

RTOL, ATOL = 1e-4, 1e-5
# Warnings PyTorch gives once per process (TORCH_WARN_ONCE), so a second torch run cannot repeat
# them: left out on both sides.
WARN_ONCE = ("The use of `x.T` on tensors of dimension other than 2", "Tensor.T is deprecated on 0-D tensors",
             "Tensor.mT is deprecated on 0-D tensors", "Using backward() with create_graph=True",
             "Tensor.H is deprecated on 0-D tensors", "Tensor.mH is deprecated on 0-D tensors",
             "adjoint() is deprecated on 0-D tensors", "index_reduce() is in beta")

# Custom Functions the programs may call (written against PyTorch's API, defined in both runs).
PRELUDE = '''
class Twice(T.autograd.Function):
    @staticmethod
    def forward(ctx, x, y):
        ctx.save_for_backward(x)
        return x * 2 + y

    @staticmethod
    def backward(ctx, g):
        x, = ctx.saved_tensors
        return g * 2, g


class Cube(T.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x ** 3

    @staticmethod
    def backward(ctx, g):
        x, = ctx.saved_tensors
        return g * 3 * x ** 2


class Pair(T.autograd.Function):
    @staticmethod
    def forward(ctx, x, y):
        return x + y

    @staticmethod
    def backward(ctx, g):
        return g * 2, None
'''


def namespace(T, F):
    ns = {"T": T, "F": F, "nan": float("nan"), "inf": float("inf")}
    exec(PRELUDE, ns)
    return ns


def _functional(T):
    import importlib
    return importlib.import_module(T.__name__ + ".nn.functional")


# ---------------------------------------------------------------------------------- observing
def _leaf_name(ns, T, t):
    for k, v in ns.items():
        if v is t:
            return k
    return "?"


def dag(fn, ns, T, limit=40):
    ids, order, out = {id(fn): 0}, [fn], []
    while len(out) < len(order) and len(out) < limit:
        node = order[len(out)]
        edges = []
        for child, nr in node.next_functions:
            if child is None:
                edges.append(None)
                continue
            if id(child) not in ids:
                ids[id(child)] = len(order)
                order.append(child)
            edges.append([ids[id(child)], int(nr)])
        name = type(node).__name__
        if name == "AccumulateGrad":
            name += ":" + _leaf_name(ns, T, node.variable)
        out.append([name, edges])
    return out


def observe(v, ns, T, torch_side, version=False):
    """What is compared of a step's result ``v``; ``version``: also its ``_version`` (for an in-place
    op and the tensor it changed; a fresh result's version is PyTorch's internal business, e.g.
    ``F.linear`` of a 1-D input or a gradient ``autograd.grad`` accumulated in place)."""
    if isinstance(v, T.Tensor):
        out = {"t": encode(T, v, torch_side), "leaf": bool(v.is_leaf),
               "fn": None if v.grad_fn is None else type(v.grad_fn).__name__,
               "dag": None if v.grad_fn is None else dag(v.grad_fn, ns, T)}
        if version:
            out["ver"] = int(v._version)
        out["st"] = _layout(v)
        return out
    if isinstance(v, (tuple, list)):
        return [observe(x, ns, T, torch_side, version) for x in v]
    if v is None or isinstance(v, (bool, int, float, str)):
        return encode(T, v, torch_side)
    return {"type": "other"}  # a hook handle and the like: not compared


def _layout(t):
    """``t``'s strides, leaving out the dims of size 1 (their stride moves nothing) and those of a tensor without
    elements (README, known differences)."""
    if t.numel() == 0:
        return None
    return [s if n != 1 else None for n, s in zip(t.shape, t.stride())]


def _grads(ns, T, torch_side):
    out = {}
    for k, v in ns.items():
        if k.startswith("v") and isinstance(v, T.Tensor):
            keeps = _safely(lambda: v.requires_grad and (v.is_leaf or v.retains_grad))
            if keeps is True:
                out[k] = _safely(encode, T, v.grad, torch_side)
                if v.grad is not None:
                    out[k + " st"] = _safely(_layout, v.grad)
            elif keeps is not False:
                out[k] = keeps  # (what asking raised)
    return out


def _safely(fn, *args):
    """What cannot be read (torch: "tolist() shouldn't be called on a tensor with unallocated
    storage") is recorded as the error reading it gave."""
    try:
        return fn(*args)
    except Exception as e:  # noqa: BLE001
        return {"unreadable": type(e).__name__}


def run(program, T):
    """Run ``program`` with module ``T``; returns ``{"s0": {...}, "s1": {...}, ...}``."""
    torch_side = T.__name__ == "torch"
    ns = namespace(T, _functional(T))
    default, grad_mode = T.get_default_dtype(), T.is_grad_enabled()
    obs = {}
    try:
        for i, step in enumerate(program):
            o = {}
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                try:
                    exec(step["code"], ns)
                except Exception as e:  # noqa: BLE001
                    o["err"] = {"error": type(e).__name__, "msg": normalise(str(e), torch_side)}
                    if step["out"]:
                        ns.pop(step["out"], None)
            caught = [w for w in caught if not str(w.message).startswith(WARN_ONCE)]
            if caught:
                o["warn"] = [[w.category.__name__, normalise(str(w.message), torch_side)] for w in caught]
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                if step["out"] and step["out"] in ns:
                    o["out"] = _safely(observe, ns[step["out"]], ns, T, torch_side, bool(step["watch"]))
                for name in step["watch"]:
                    if name in ns:
                        o[f"watch {name}"] = _safely(observe, ns[name], ns, T, torch_side, True)
                if step["kind"].startswith(("backward", "grad")):
                    o["grads"] = _grads(ns, T, torch_side)
            obs[f"s{i}"] = o
    finally:
        T.set_default_dtype(default)
        T.set_grad_enabled(grad_mode)
    return obs


# ---------------------------------------------------------------------------------- comparing
def compare(got, want):
    """The differences between minigrad's observations ``got`` and torch's ``want`` (a list of strings)."""
    c = Comparison(RTOL, ATOL)
    for key in want:
        c.compare(got.get(key, "<missing>"), want[key], key)
    return c.mismatches


_ASPECTS = [("err", "exception"), ("warn", "warnings"), ("grads", "gradient"), (".t.data", "value"),
            (".t.T", "dtype"), (".t.shape", "shape"), (".t.rg", "requires_grad"), (".leaf", "is_leaf"),
            (".fn", "grad_fn"), (".dag", "next_functions"), (".ver", "_version")]


def aspect(mismatch):
    path = mismatch.split(":")[0]
    for key, name in _ASPECTS:
        if key in path:
            return name
    return "result"


def klass(program, mismatches):
    """``"<step kind>: <aspect>"`` of the first difference, e.g. ``"sigmoid: dtype"``."""
    first = mismatches[0]
    step = int(re.match(r"s(\d+)", first).group(1))
    return f"{program[step]['kind']}: {aspect(first)}"


def _names_missing(obs):
    return any(o.get("err", {}).get("error") == "NameError" for o in obs.values())


def shrink(program, T, target, budget=300):
    """Drop steps while the program still disagrees in class ``target`` (and every name it uses is
    still defined for torch); returns the smallest program found."""
    import torch
    best = list(program)
    changed = True
    while changed and budget > 0:
        changed = False
        for i in reversed(range(len(best))):
            trial = best[:i] + best[i + 1:]
            budget -= 1
            want = run(trial, torch)
            if _names_missing(want):
                continue
            mism = compare(run(trial, T), want)
            if mism and klass(trial, mism) == target:
                best = trial
                changed = True
            if budget <= 0:
                break
    return best


def to_python(program, mismatches=()):
    """The program as a script for ``torch``: change the import line to ``minigrad`` to see it differ."""
    lines = ["import torch as T  # or: import minigrad as T", "import torch.nn.functional as F",
             "from math import inf, nan"]
    code = "\n".join(s["code"] for s in program)
    for name in ("Twice", "Cube", "Pair"):
        if name + ".apply" in code:
            block = PRELUDE.split("\n\n\nclass ")
            for b in block:
                b = b.strip()
                b = b if b.startswith("class") else "class " + b
                if b.startswith(f"class {name}("):
                    lines.append(b)
    bad = {int(re.match(r"s(\d+)", m).group(1)) for m in mismatches}
    for i, s in enumerate(program):
        lines.append(s["code"])
        for m in mismatches:
            if int(re.match(r"s(\d+)", m).group(1)) == i:
                lines.append("#   ^ " + m[:300])
        if i in bad and s["out"]:
            lines.append(f"print({s['out']})")
    return "\n".join(lines)
