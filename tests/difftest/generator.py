"""A seeded generator of small autograd programs (plain Python source, one statement per step).

``generate(seed)`` returns a program: a list of steps, each ``{"code": "v3 = v1 * v2", "out": "v3",
"watch": [...], "kind": ...}``. It draws leaves (0-d to 4-d, size-1 dims, float32/float64/int64/bool,
with or without ``requires_grad``, now and then a 0, nan or inf among the values), ops from
``ops_table.OPS`` on earlier results (so chains and fan-out happen), hooks and ``retain_grad``, and
ends with a ``backward`` (with or without ``gradient=`` and ``retain_graph``, sometimes twice) or an
``autograd.grad`` (sometimes with ``create_graph`` and a second order), or a custom Function.

To know the shapes and dtypes of what it made, the generator runs each step with torch while it
writes the program (so it needs torch; ``make test`` only runs stored programs).
"""
import random
import warnings

from . import ops_table
from .runner import PRELUDE, namespace

SHAPES = [(), (1,), (3,), (2, 3), (3, 1), (1, 2), (2, 1, 3), (2, 2, 2), (1, 3, 1), (2, 1, 2, 2), (3, 2)]


def _values(r, n, kind):
    if kind == "bool":
        return [r.random() < 0.5 for _ in range(n)]
    if kind == "int64":
        return [r.randint(-3, 3) for _ in range(n)]
    vals = [round(r.uniform(-2, 2), 2) for _ in range(n)]
    if n and r.random() < 0.08:
        vals[r.randrange(n)] = r.choice([0.0, float("nan"), float("inf"), float("-inf"), 0.0])
    return vals


def _nest(vals, shape):
    if not shape:
        return vals[0]
    step = len(vals) // shape[0]
    return [_nest(vals[i * step:(i + 1) * step], shape[1:]) for i in range(shape[0])]


def _literal(v):
    if isinstance(v, list):
        return "[" + ", ".join(_literal(x) for x in v) + "]"
    if isinstance(v, float) and v != v:
        return "nan"
    if isinstance(v, float) and v in (float("inf"), float("-inf")):
        return "inf" if v > 0 else "-inf"
    return repr(v)


class Generator:
    def __init__(self, seed, sample=False):
        self.r = random.Random(seed)
        self.steps = []
        self.n = 0
        self.ops = [op for op in ops_table.OPS if op.sample or not sample]
        import torch
        import torch.nn.functional as F
        self.ns = namespace(torch, F)
        self.torch = torch

    # ---- running while writing
    def _emit(self, code, out=None, watch=(), kind="op"):
        """Add a step and run it with torch; returns False (and drops it) when torch cannot even parse it."""
        step = {"code": code, "out": out, "watch": list(watch), "kind": kind}
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            try:
                exec(code, self.ns)
            except SyntaxError:
                raise
            except Exception:  # noqa: BLE001  (a program torch rejects is a program too)
                if out is not None:
                    self.ns.pop(out, None)
        self.steps.append(step)
        return True

    def _name(self):
        self.n += 1
        return f"v{self.n - 1}"

    def tensors(self, pred=lambda t: True):
        T = self.torch
        return [k for k, v in self.ns.items() if k.startswith("v") and isinstance(v, T.Tensor) and _safe(pred, v)]

    # ---- leaves
    def leaf(self, shape=None, dtype=None, rg=None):
        r = self.r
        shape = r.choice(SHAPES) if shape is None else tuple(shape)
        dtype = dtype or r.choice(["float32"] * 6 + ["float64"] * 2 + ["int64", "bool"])
        if rg is None:
            rg = dtype.startswith("float") and r.random() < 0.75
        n = 1
        for s in shape:
            n *= s
        vals = _nest(_values(r, n, dtype), shape) if n else "[]"
        name = self._name()
        data = _literal(vals) if n else "[]"
        if n == 0 and shape:
            data = f"T.zeros({shape!r}).tolist()"
        rgs = ", requires_grad=True" if rg else ""
        self._emit(f"{name} = T.tensor({data}, dtype=T.{dtype}{rgs})", name, kind="leaf")
        return name

    def _dtype_of(self, name):
        return str(self.ns[name].dtype).split(".")[-1]

    def pick(self, dtypes):
        def ok(t):
            if dtypes == "float":
                return t.dtype.is_floating_point
            if dtypes == "int":
                return not t.dtype.is_floating_point
            return True
        names = self.tensors(ok)
        if not names or self.r.random() < 0.15:
            if dtypes == "int":
                return self.leaf(dtype=self.r.choice(["int64", "bool"]))
            return self.leaf(dtype=None if dtypes == "any" else self.r.choice(["float32"] * 3 + ["float64"]))
        recent = names[-3:]
        return self.r.choice(recent if self.r.random() < 0.6 else names)

    def partner(self, a, rule):
        r, t = self.r, self.ns[a]
        shape, dtype = tuple(t.shape), self._dtype_of(a)
        if not dtype.startswith("float"):
            dtype = "float32"
        wrong = r.random() < 0.05
        if rule == "broadcast":
            names = [k for k in self.tensors() if k != a and _broadcasts(tuple(self.ns[k].shape), shape)]
            if names and r.random() < 0.4 and not wrong:
                return r.choice(names)
            if wrong and shape:
                return self.leaf(shape=(shape[-1] + 1,))
            tail = shape[r.randint(0, len(shape)):] if shape else ()
            tail = tuple(1 if r.random() < 0.3 else s for s in tail)
            if r.random() < 0.15:
                tail = (2,) + shape
            return self.leaf(shape=tail, dtype=dtype if r.random() < 0.8 else None)
        if rule == "same" or rule == "cat":
            other = dtype if r.random() < 0.8 or rule == "same" else r.choice(["float64", "int64", "float32"])
            return self.leaf(shape=shape if not wrong else shape + (2,), dtype=other)
        if rule == "target":
            if t.dim() == 0 or t.dim() > 2 or not shape[-1]:  # (no classes: a 0-dim target, PyTorch raises)
                return self.leaf(shape=(), dtype="int64", rg=False)
            k = shape[-1]
            n = shape[0] if t.dim() == 2 else None
            vals = [r.randrange(k) for _ in range(n or 1)]
            if wrong:
                vals[0] = k
            name = self._name()
            lit = repr(vals) if n is not None else repr(vals[0])
            if n is not None and r.random() < 0.05:
                lit = repr([[v] for v in vals])  # an (N, 1) target: PyTorch raises
            self._emit(f"{name} = T.tensor({lit})", name, kind="leaf")
            return name
        k = shape[-1] if shape else 2
        m = r.choice([1, 2, 3]) + (1 if wrong else 0) * 0
        if wrong:
            k += 1
        if rule == "mm" or rule == "linear":
            other = (k, m) if rule == "mm" else (m, k)
            return self.leaf(shape=other, dtype=dtype if r.random() < 0.95 else "float64")
        if rule == "dot" or rule == "mv":
            return self.leaf(shape=(k,), dtype=dtype)
        if rule == "bmm":
            b = shape[0] if len(shape) == 3 else 2
            return self.leaf(shape=(b, k, m), dtype=dtype)
        if rule == "matmul":
            choices = [(k,), (k, m), (2, k, m), (1, k, m)]
            if len(shape) >= 3:
                choices.append(shape[:-2] + (k, m))
            return self.leaf(shape=r.choice(choices), dtype=dtype if r.random() < 0.95 else "float64")
        raise ValueError(rule)

    # ---- ops
    def op(self):
        r = self.r
        op = r.choice(self.ops)
        a = self.pick(op.dtypes)
        if op.kind == "inplace" and r.random() < 0.7 and _leaf_that_requires_grad(self.ns[a]):
            b0 = self._name()  # mostly on a non-leaf copy (on the leaf itself PyTorch raises)
            self._emit(f"{b0} = {a}.clone()", b0)
            a = b0
        if a not in self.ns or (op.torch_bug and op.torch_bug(self.ns[a])):
            return
        fields = {"a": a}
        if op.pair:
            fields["b"] = self.partner(a, op.pair)
            if fields["b"] not in self.ns:
                return
        if op.args:
            fields.update({k: str(v) for k, v in op.args(r, self.ns[a]).items()})
        code = op.code.format(**fields).replace("{a}", a)
        try:
            compile(code, "<op>", "eval")
            out = self._name()
            self._emit(f"{out} = {code}", out, watch=[a] if op.kind == "inplace" else [], kind=op.name)
        except SyntaxError:  # a statement, e.g. x[0] = 1.0
            self._emit(code, None, watch=[a], kind=op.name)

    def hook_or_retain(self):
        # (not on a view whose base was changed in place: torch 2.13 can crash there, e.g. a hook on
        # y.transpose(0, 0) after y.sub_(that view), y the output of a custom Function)
        names = self.tensors(lambda t: t.requires_grad and not (t._is_view() and t._version > 0))
        if not names:
            return
        v = self.r.choice(names)
        choice = self.r.random()
        if choice < 0.4:
            self._emit(f"{v}.retain_grad()", None, watch=[v], kind="retain_grad")
        elif choice < 0.8:
            self._emit(f"h = {v}.register_hook(lambda g: g * 2)", None, kind="hook")
        else:
            self._emit(f"h = {v}.register_hook(lambda g: g.sum())", None, kind="hook_bad")  # changes the shape

    def custom(self):
        a = self.pick("float")
        b = self.pick("float")
        fn = self.r.choice(["Twice", "Cube", "Pair"])
        out = self._name()
        code = f"{fn}.apply({a}, {b})" if fn != "Cube" else f"Cube.apply({a})"
        if fn == "Pair":
            code = f"Pair.apply({a} * 3, {a})"
        self._emit(f"{out} = {code}", out, kind="custom")

    def finish(self):
        """A backward or an autograd.grad at the end (or in the middle: programs go on after it)."""
        r = self.r
        names = self.tensors(lambda t: t.requires_grad)
        if not names:
            return
        y = r.choice(names[-3:])
        leaves = self.tensors(lambda t: t.requires_grad and t.is_leaf)
        choice = r.random()
        retain = ", retain_graph=True" if r.random() < 0.3 else ""
        if choice < 0.35:
            self._emit(f"{y}.sum().backward({retain[2:]})", None, kind="backward")
        elif choice < 0.5:
            self._emit(f"{y}.backward()", None, kind="backward_nonscalar")
        elif choice < 0.65:
            self._emit(f"{y}.backward(gradient=T.ones_like({y}) * 0.5{retain})", None, kind="backward_gradient")
        elif choice < 0.75 and leaves:
            inp = r.choice(leaves)
            self._emit(f"{y}.sum().backward(inputs=[{inp}]{retain})", None, kind="backward_inputs")
        elif leaves:
            inputs = r.sample(leaves, min(len(leaves), r.randint(1, 2)))
            out = self._name()
            cg = r.random() < 0.6
            self._emit(f"{out} = T.autograd.grad({y}.sum(), [{', '.join(inputs)}], allow_unused=True"
                       f"{', create_graph=True' if cg else ''}{retain})", out, kind="grad")
            if cg and r.random() < 0.7:
                g = f"{out}[0]"
                if r.random() < 0.5:
                    self._emit(f"{g}.sum().backward()", None, kind="backward2")
                else:
                    out2 = self._name()
                    self._emit(f"{out2} = T.autograd.grad({g}.sum(), [{', '.join(inputs)}], allow_unused=True)",
                               out2, kind="grad2")
        if r.random() < 0.2:  # a second backward: PyTorch raises unless the graph was retained
            self._emit(f"{y}.sum().backward()", None, kind="backward_again")


def _safe(pred, t):
    """``pred(t)``, False where asking raises (torch refuses even ``is_leaf`` of some views changed in place)."""
    try:
        return pred(t)
    except Exception:  # noqa: BLE001
        return False


def _broadcasts(s1, s2):
    for x, y in zip(reversed(s1), reversed(s2)):
        if x != y and x != 1 and y != 1:
            return False
    return True


def generate(seed, sample=False):
    """The program for ``seed`` (``sample=True`` leaves out the ops marked ``sample=False``)."""
    g = Generator(seed, sample)
    r = g.r
    for _ in range(r.randint(1, 3)):
        g.leaf()
    for _ in range(r.randint(2, 7)):
        x = r.random()
        if x < 0.8:
            g.op()
        elif x < 0.9:
            g.hook_or_retain()
        else:
            g.custom()
        if r.random() < 0.1:
            g.finish()
    g.finish()
    return g.steps


__all__ = ["generate", "PRELUDE"]


def _leaf_that_requires_grad(t):
    """Is torch tensor ``t`` a leaf that requires grad?  (Asking raises for a view of a multi-output op, such as a
    piece of ``split``, whose base was changed in place: torch cannot make its ``grad_fn``; it is no leaf.)"""
    try:
        return t.requires_grad and t.is_leaf
    except RuntimeError:
        return False
