"""Checks for the "Build it yourself" sections of the notebooks (stages 1-6 here; 5b with nb05).

Your engine lives in one file of your own, ``my_autograd.py`` beside the notebooks: each build
section's exercise cell writes it (``%%writefile my_autograd.py``), and its check cell loads it
again and runs it on the seed programs and on hidden random inputs.  What it must give is computed
by minigrad at checking time: values, gradients, node names, the ``next_functions`` structure,
error messages and (stage 6) the order in which the nodes run.  ``minigrad_course/scratch/stageN.py`` is a
reference for each stage: start the next notebook from it if you like.  Stage 5b (notebook 05b) is a second
file, ``my_mlp.py``, on top of your engine: its check is ``nb05.check_my_mlp``, which calls ``stage5b``.

The checks ask for what the notebooks' texts ask for.  A leaf's node may be named ``AccumulateGrad``
(as the text says), ``torch::autograd::AccumulateGrad`` (as PyTorch prints it) or
``minigrad::autograd::AccumulateGrad`` (as minigrad does); an error message may say ``torch.Size``
or ``minigrad.Size``.

    my_autograd = build.load()   # (re)import my_autograd.py
    build.check_stage1()
"""
import importlib.util
import json
import os
import re
import sys

import numpy as np

import minigrad

from ._check import add_hint, call, exercise, failed, passed, reference, rng

TITLE = "Build it yourself, stage {}"
# a leaf's node, as notebook 01 asks for it, as PyTorch prints it and as minigrad prints it
ACCUMULATE_GRAD = ("AccumulateGrad", "torch::autograd::AccumulateGrad", "minigrad::autograd::AccumulateGrad")


def load(path="my_autograd.py"):
    """Import ``path`` afresh: the module, or the exception that importing it raised."""
    name = os.path.splitext(os.path.basename(path))[0]
    sys.modules.pop(name, None)
    try:
        spec = importlib.util.spec_from_file_location(name, path)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
    except FileNotFoundError:
        return FileNotFoundError(f"there is no {path} yet: run the exercise cell above (it writes the file)")
    except Exception as e:  # a NotImplementedError, a syntax error...: the check reports it
        return e
    return module


# ---- comparing with minigrad ---------------------------------------------------------------------
def node_name(node):
    """A node's name; every accepted spelling of a leaf's node is ``AccumulateGrad``."""
    name = node.name()
    return "AccumulateGrad" if name in ACCUMULATE_GRAD else name


def structure(node):
    """A graph's next_functions as nested ``(name, (children...))``; None for an edge to nothing."""
    if node is None:
        return None
    return (node_name(node), tuple(structure(n) for n, _ in node.next_functions))


def values(t):
    return np.asarray(t.detach().numpy() if isinstance(t, minigrad.Tensor) else t.data)


def array(t):
    """The numbers of a tensor of yours (or of a numpy array), or None if there are none."""
    if t is None:
        return None
    try:
        return np.asarray(getattr(t, "data", t), dtype=np.float64)
    except (TypeError, ValueError):
        return None


def message(e):
    """An exception as the checks compare it: ``Type: message``, with ``torch.Size`` for ``minigrad.Size``."""
    return f"{type(e).__name__}: " + re.sub(r"\b(?:minigrad|torch)\.Size\(", "torch.Size(", str(e))


@reference
def _error(fn):
    """What minigrad's ``fn()`` raises, as ``message``, or None."""
    try:
        fn()
    except Exception as e:
        return message(e)
    return None


def _raised(t, fn):
    """What your ``fn()`` raises, as ``message`` (None if nothing), and None; or (None, a failed Report)."""
    caught = []

    def run():
        try:
            fn()
        except Exception as e:
            caught.append(e)
    _, err = call(t, run)
    if err is not None:
        return None, err
    return (message(caught[0]) if caught else None), None


@reference
def _expected_grads(program, *arrays):
    """Run ``program`` on minigrad leaves: its output and the leaves' gradients."""
    leaves = [minigrad.tensor(a, requires_grad=True) for a in arrays]
    out = program(minigrad, *leaves)
    out.backward()
    return out, [values(x.grad) for x in leaves]


def _hinted(report, tiers):
    for tier in tiers:
        add_hint(report, tier)
    return report


# ---- the seed programs, as functions of a library (minigrad or yours) ---------------------------
def seed_relu(lib, a):                  # notebook 01's seed: relu(linspace(-100, 100, 10)).sum()
    return lib.relu(a).sum()


def fan_out(lib, x):                    # x reaches the output along three paths
    return ((x * 3 + x * x).relu() * x + 2).sum()


GRAPH_HINTS = [
    "compare the two trees from the top: the first node whose name, or whose number of next_functions, "
    "differs is the op that builds its node differently from PyTorch.",
    "each op's node has PyTorch's name (AddBackward0, MulBackward0, SumBackward0, ReluBackward0) and one "
    "(node, 0) pair per input in next_functions: the node that made the input, AccumulateGrad for a leaf "
    "(one per leaf, made the first time an op uses it), (None, 0) for a number.",
]


SHAPE_HINTS = [
    "a gradient of the wrong shape reached a node: each node must send every input a gradient shaped like "
    "that input. Which node's gradient has the wrong shape here?",
    "SumBackward0 gets a one-number gradient and spreads it over the shape of its input, whatever that "
    "shape is; the other nodes keep the shape they are given.",
]


def _run(t, mod, program, arrays, hint):
    """Compare ``program`` on ``mod`` with minigrad: output, gradients, graph; a Report or None."""
    expected, grads = _expected_grads(program, *arrays)
    name = program.__name__
    leaves = [mod.Tensor(a, requires_grad=True) for a in arrays]
    out, err = call(t, lambda: program(mod, *leaves))
    if err is not None:
        err.text = err.text.replace("your code raised", f"{name} raised (building the graph)", 1)
        return _hinted(err, [f"the message names the line of your ops that {name} ran into.",
                             "run the program in a cell on your engine with a small input and print what "
                             "each op returns: every op should return a new Tensor."])
    got = array(out)
    if got is None or got.shape != tuple(expected.shape) or not np.allclose(got, values(expected), atol=1e-4):
        return failed(t, f"the value of {name} is wrong for {', '.join(repr(a) for a in arrays)}",
                      expected=values(expected), got=got if got is not None else out,
                      hint=["each op computes its value with numpy from its inputs' data, before any backward.",
                            "relu keeps the entries above 0 and puts 0 elsewhere; sum adds up every element into "
                            "a tensor of one number; a number beside a tensor counts as a constant tensor."])
    got, err = call(t, lambda: structure(out.grad_fn))
    if err is not None:
        return _hinted(err, ["the result of the program should be a Tensor whose grad_fn is a node; every node "
                             "needs name() and next_functions.",
                             GRAPH_HINTS[1]])
    if got != structure(expected.grad_fn):
        return failed(t, f"the graph of {name} is not PyTorch's", expected=structure(expected.grad_fn),
                      got=got, hint=GRAPH_HINTS)
    _, err = call(t, out.backward)
    if err is not None:
        err.text = err.text.replace("your code raised", f"backward() of {name} raised", 1)
        return _hinted(err, SHAPE_HINTS if "could not be broadcast" in err.text else hint)
    for i, (x, g) in enumerate(zip(leaves, grads)):
        got = array(x.grad)
        if got is None or got.shape != g.shape or not np.allclose(got, g, atol=1e-5):
            return failed(t, f"the gradient of input {i} of {name} is wrong for {arrays[i]!r}",
                          expected=g, got=got, hint=hint)
    return None


FAN_OUT_HINTS = [
    "a node that the output reaches along two paths must run ONCE, after the gradients of both paths "
    "arrived and were added up. Does your walk visit a shared node twice, or run it too early?",
    "list each node only the first time your walk meets it, in an order where every node comes before the "
    "nodes it sends gradients to; when a second gradient reaches a node, add it to the one waiting there.",
]


# ---- the stages: each runs the checks of the stages before it ------------------------------------
def _stage1_checks(t, mod):
    r = rng(2100)
    yield lambda: _run(t, mod, seed_relu, [np.linspace(-100, 100, 10, dtype=np.float32)],
                       ["the gradient of relu is 1 where the input is > 0 and 0 elsewhere; the sum passes its "
                        "gradient (1) to every element.",
                        "check that backward() starts with a gradient of ones shaped like the output, and that "
                        "AccumulateGrad stores what reaches it in the leaf's .grad."])
    yield lambda: _run(t, mod, fan_out, [r.uniform(-3, 3, size=(5,)).astype(np.float32)], FAN_OUT_HINTS)

    def twice():  # gradients accumulate over two backward calls
        x0 = r.uniform(-2, 2, size=(3,)).astype(np.float32)
        x = mod.Tensor(x0, requires_grad=True)
        for _ in range(2):
            _, err = call(t, lambda: (x * 2).sum().backward())
            if err is not None:
                return _hinted(err, ["the first backward() worked in the checks before: what is different the "
                                     "second time? The leaf's .grad is set now.",
                                     "AccumulateGrad must handle both cases: .grad is None, or .grad holds a "
                                     "gradient already."])
        got = array(x.grad)
        if got is None or got.shape != (3,) or not np.allclose(got, 4):
            return failed(t, "after two calls of (x * 2).sum().backward() x.grad should be 4 everywhere",
                          expected=np.full(3, 4.0, np.float32), got=got,
                          hint=["AccumulateGrad ADDS into .grad when there is one already; it does not overwrite it.",
                                "make a new .grad only when the leaf has none yet; otherwise the new gradient is "
                                "the sum of the old one and what arrived."])
    yield twice


ERROR_HINTS = [
    "check the gradient argument before walking the graph: first whether the output needs a gradient at all, "
    "then (without a gradient) whether it has one element, or (with one) whether its shape is the output's.",
    "the messages are PyTorch's, word for word (torch.Size or minigrad.Size both do): run the same line on "
    "minigrad in a cell and compare.",
]


def _stage2_checks(t, mod):
    yield from _stage1_checks(t, mod)
    r = rng(2200)
    n = int(r.integers(4, 8))                                      # hidden sizes
    m = int(r.choice([k for k in range(2, 8) if k != n]))
    x0 = r.uniform(-2, 2, size=(n,)).astype(np.float32)

    def errors():
        x, mx = mod.Tensor(x0, requires_grad=True), minigrad.tensor(x0, requires_grad=True)
        ones = np.ones(m, np.float32)
        cases = [(f"backward() of a {n}-element output", lambda: (x * x).backward(), lambda: (mx * mx).backward()),
                 (f"backward(gradient) of shape ({m},) for an output of shape ({n},)",
                  lambda: (x * x).backward(mod.Tensor(ones)), lambda: (mx * mx).backward(minigrad.tensor(ones))),
                 (f"backward() of a {n}-element tensor that needs no gradient", lambda: mod.Tensor(x0).backward(),
                  lambda: minigrad.tensor(x0).backward())]
        for what, mine, theirs in cases:
            got, err = _raised(t, mine)
            if err is not None:
                return err
            expected = _error(theirs)
            if got != expected:
                return failed(t, f"{what} should raise PyTorch's error", expected=expected, got=got,
                              hint=ERROR_HINTS)

    def vjp():
        v = r.uniform(-2, 2, size=(n,)).astype(np.float32)
        x, mx = mod.Tensor(x0, requires_grad=True), minigrad.tensor(x0, requires_grad=True)
        _, err = call(t, lambda: (x * x).backward(mod.Tensor(v)))
        if err is not None:
            return _hinted(err, ["backward(gradient) takes the gradient as a Tensor shaped like the output.",
                                 "start the walk with the gradient you were given, not with ones."])
        (mx * mx).backward(minigrad.tensor(v))
        got = array(x.grad)
        if got is None or got.shape != (n,) or not np.allclose(got, values(mx.grad)):
            return failed(t, f"(x * x).backward(v) for v = {v!r}: x.grad should be v times the Jacobian",
                          expected=values(mx.grad), got=got,
                          hint=["start the walk with the gradient you were given, not with ones.",
                                "the Jacobian of x * x is diagonal, with 2x on the diagonal: v times it is the "
                                "elementwise product of v and 2x."])
    yield errors
    yield vjp


def _stage3_checks(t, mod):
    yield from _stage2_checks(t, mod)
    x0 = rng(2300).uniform(-2, 2, size=(3,)).astype(np.float32)

    def second_backward():
        x, mx = mod.Tensor(x0, requires_grad=True), minigrad.tensor(x0, requires_grad=True)
        y, my = (x * x).sum(), (mx * mx).sum()
        _, err = call(t, lambda: (y.backward(retain_graph=True), y.backward()))
        if err is not None:
            err.text = err.text.replace("your code raised", "y.backward(retain_graph=True), then y.backward(), "
                                                            "raised", 1)
            return _hinted(err, ["with retain_graph=True a node keeps what it saved after it ran, so the next "
                                 "backward can run it again.",
                                 "drop what a node saved only when the backward that ran it had "
                                 "retain_graph=False (the default)."])
        my.backward(retain_graph=True)
        my.backward()
        got, err = _raised(t, lambda: y.backward())
        if err is not None:
            return err
        expected = _error(lambda: my.backward())
        if got != expected:
            return failed(t, "a third backward (the last one did not retain the graph) should raise PyTorch's error",
                          expected=expected, got=got,
                          hint=["after a node ran, drop what it saved unless retain_graph=True.",
                                "a node whose saved values are gone raises RuntimeError with PyTorch's message when "
                                "it runs again (notebook 03 shows it)."])
        got = array(x.grad)
        if got is None or got.shape != (3,) or not np.allclose(got, values(mx.grad)):
            return failed(t, "after two backward() calls x.grad should hold the sum of both gradients",
                          expected=values(mx.grad), got=got,
                          hint=["AccumulateGrad adds into .grad.", "a retained graph gives the same gradient "
                                                                    "again: x.grad doubles."])
        before = x.grad
        _, err = call(t, lambda: x.grad.zero_())
        if err is not None:
            return _hinted(err, ["x.grad is a Tensor of yours: it needs a zero_() method.",
                                 "zero_() fills the tensor's own numbers with zeros and returns the tensor."])
        got = array(x.grad)
        if x.grad is not before or got is None or not np.array_equal(got, np.zeros(3)):
            return failed(t, "x.grad.zero_() should set the gradient to zeros in place", expected=np.zeros(3),
                          got=got, hint=["in place means the same Tensor object, with its numbers changed.",
                                         "write zeros into the tensor's data array itself, not into a new array."])

    def no_grad():
        x = mod.Tensor(x0, requires_grad=True)
        ops = [("x * 2", lambda: x * 2), ("x + 1", lambda: x + 1), ("x * x", lambda: x * x),
               ("x.relu()", lambda: x.relu()), ("x.sum()", lambda: x.sum())]
        for what, op in ops:
            def inside(op=op):
                with mod.no_grad():
                    return op()
            w, err = call(t, inside)
            if err is not None:
                return _hinted(err, ["no_grad() is a context manager: a class with __enter__ and __exit__.",
                                     "__enter__ switches recording off, __exit__ puts back what was there before."])
            if w.grad_fn is not None or w.requires_grad:
                return failed(t, f"{what} inside `with no_grad():` should record nothing",
                              expected="grad_fn None, requires_grad False",
                              got=f"grad_fn {w.grad_fn}, requires_grad {w.requires_grad}",
                              hint=["every op, not only some, must look at the grad-mode flag.",
                                    "the place where an op attaches its node to the result is the one place that "
                                    "needs to look at the flag."])
        w = x * 2
        if w.grad_fn is None or not w.requires_grad:
            return failed(t, "after the `with no_grad():` block ops should record again",
                          expected="x * 2 has a grad_fn", got=f"grad_fn {w.grad_fn}",
                          hint=["__exit__ must switch recording back on.",
                                "keep the flag's value in __enter__ and put it back in __exit__ (blocks can nest)."])
    yield second_backward
    yield no_grad


MM_HINTS = [
    "out = input @ weight.T, with input (N, in) and weight (out, in): grad_output is (N, out). The gradient "
    "of each input has that input's shape: which product of grad_output with weight, or with input, has it?",
    "derive it for one element: out[n, o] = sum over i of input[n, i] * weight[o, i]; then d/d input[n, i] and "
    "d/d weight[o, i] collect grad_output[n, o] times the other factor.",
]
FUNCTION_NAMES = ["Triple", "Scale3", "TimesThree", "Thrice"]


def _stage4_checks(t, mod):
    yield from _stage3_checks(t, mod)
    r = rng(2400)

    def mmfunction():
        a, w = r.standard_normal((3, 2)).astype(np.float32), r.standard_normal((4, 2)).astype(np.float32)
        x, W = mod.Tensor(a, requires_grad=True), mod.Tensor(w, requires_grad=True)
        f, err = call(t, lambda: mod.MMFunction.apply(x, W), returns="a tensor")
        if err is not None:
            return _hinted(err, ["MMFunction.apply(input, weight) makes the node, runs forward(ctx, input, weight) "
                                 "without recording and returns its result.",
                                 "forward computes input.mm(weight.t()): your Tensor needs mm and t as ops."])
        if getattr(f, "grad_fn", None) is None or f.grad_fn.name() != "MMFunctionBackward":
            return failed(t, "the node of MMFunction.apply should be named MMFunctionBackward",
                          got=None if getattr(f, "grad_fn", None) is None else f.grad_fn.name(),
                          hint=["apply must make the result's grad_fn the node (the ctx) when an input requires grad.",
                                "a Function's node is named after the class: its name plus 'Backward'."])
        _, err = call(t, lambda: (f * f).sum().backward())
        if err is not None:
            return _hinted(err, ["backward(ctx, grad_output) reads ctx.saved_tensors and returns one gradient "
                                 "per input.", MM_HINTS[0]])
        mx, mW = minigrad.tensor(a, requires_grad=True), minigrad.tensor(w, requires_grad=True)
        mf = mx.mm(mW.t())
        (mf * mf).sum().backward()
        for name, mine, theirs in [("input", x, mx), ("weight", W, mW)]:
            got = array(mine.grad)
            if got is None or got.shape != tuple(theirs.shape) or not np.allclose(got, values(theirs.grad),
                                                                                   atol=1e-5):
                return failed(t, f"the gradient of MMFunction's {name} is wrong", expected=values(theirs.grad),
                              got=got, hint=MM_HINTS)
        ctx = mod.MMFunction.apply(mod.Tensor(a), W).grad_fn
        if tuple(ctx.needs_input_grad) != (False, True):
            return failed(t, "ctx.needs_input_grad should say which inputs require grad",
                          expected=(False, True), got=tuple(ctx.needs_input_grad),
                          hint=["Function.apply fills it before forward runs: one flag per input.",
                                "the flag of an input is whether that input requires grad."])

        def backward():
            with mod.no_grad():
                return mod.MMFunction.backward(ctx, mod.Tensor(np.ones((3, 4), np.float32)))
        grads, err = call(t, backward, returns="one gradient per input")
        if err is not None:
            return _hinted(err, ["backward(ctx, grad_output) is a static method: the check calls it with the node "
                                 "of MMFunction.apply(input, weight), where input needs no gradient.",
                                 "return one value per input: a gradient, or None."])
        if grads[0] is not None:
            return failed(t, "MMFunction.backward computed a gradient for an input that needs none",
                          expected=None, got=grads[0],
                          hint=["look at ctx.needs_input_grad[0] before computing grad_input.",
                                "leave grad_input None when ctx.needs_input_grad[0] is False."])

    def own_function():  # a Function of yours gets a node named <YourClass>Backward
        name = FUNCTION_NAMES[int(r.integers(len(FUNCTION_NAMES)))]

        def forward(ctx, a):
            return a * 3.0

        def backward(ctx, grad):
            return (grad * 3.0,)
        cls = type(name, (mod.Function,), {"forward": staticmethod(forward), "backward": staticmethod(backward)})
        x0 = r.standard_normal(3).astype(np.float32)
        x = mod.Tensor(x0, requires_grad=True)
        y, err = call(t, lambda: cls.apply(x), returns="a tensor")
        if err is not None:
            return _hinted(err, [f"the check made a Function of its own, {name}, with forward(ctx, a) = a * 3.0.",
                                 "apply must work for any subclass of your Function, not only for MMFunction."])
        got = None if getattr(y, "grad_fn", None) is None else y.grad_fn.name()
        if got != f"{name}Backward":
            return failed(t, f"the node of a Function named {name} should be named {name}Backward",
                          expected=f"{name}Backward", got=got,
                          hint=["the name comes from the Function's class, whichever it is.",
                                "the node knows which Function made it: ask that class for its __name__."])
        _, err = call(t, lambda: y.sum().backward())
        if err is not None:
            return _hinted(err, [f"{name}.backward returns a tuple with one gradient for its one input.",
                                 "the engine should take the gradients a Function's backward returns, one per "
                                 "input, and send each along its edge."])
        got = array(x.grad)
        if got is None or not np.allclose(got, 3):
            return failed(t, f"x.grad after {name}.apply(x).sum().backward() should be 3 everywhere",
                          expected=np.full(3, 3.0, np.float32), got=got,
                          hint=["the node must call its Function's backward with the gradient that reached it.",
                                "send what backward returns along the node's next_functions."])
    yield mmfunction
    yield own_function


def _stage5_checks(t, mod):
    yield from _stage4_checks(t, mod)

    def module():
        m, err = call(t, lambda: mod.MMul(3, 2), returns="a module")
        if err is not None:
            return _hinted(err, ["MMul(W, H) is a Module whose __init__ calls the Module's __init__ and then "
                                 "assigns self.weight = a Parameter of ones, shaped (W, H).",
                                 "Module.__init__ sets up where the module keeps its Parameters and sub-modules."])
        params = list(m.parameters())
        if len(params) != 1 or params[0] is not m.weight:
            return failed(t, "MMul(3, 2).parameters() should give its one Parameter, the weight",
                          got=params, hint=["Module.__setattr__ must notice a Parameter and keep it.",
                                            "parameters() yields the module's own Parameters, then its sub-modules'."])

        class Outer(mod.Module):  # a Parameter, a plain tensor and a sub-module, assigned
            def __init__(self):
                super().__init__()
                self.scale = mod.MMul(1, 2).weight
                self.plain = mod.Tensor(np.ones(2, np.float32))
                self.inner = mod.MMul(2, 3)
        outer, err = call(t, Outer, returns="a module")
        if err is not None:
            return _hinted(err, ["the check assigned a Parameter, a plain Tensor and an MMul to a Module of its own.",
                                 "__setattr__ must accept any value: it files Parameters and Modules, and stores "
                                 "every value as an attribute."])
        got, wanted = list(outer.parameters()), [outer.scale, outer.inner.weight]
        if len(got) != 2 or {id(p) for p in got} != {id(p) for p in wanted}:
            return failed(t, "a Module with a Parameter, a plain Tensor and a sub-module MMul: parameters() "
                             "should give the Parameter and the sub-module's weight, nothing else",
                          expected=wanted, got=got,
                          hint=["parameters() finds the Parameters assigned to the module and, in each "
                                "sub-module assigned to it, that module's parameters().",
                                "__setattr__ files a Parameter and a Module in two places; a plain Tensor in "
                                "neither."])
        a = rng(2500).standard_normal((3, 2)).astype(np.float32)
        opt = mod.SGD(m.parameters(), lr=0.1)
        mw = minigrad.nn.Parameter(minigrad.ones(3, 2))
        mopt = minigrad.optim.SGD([mw], lr=0.1)
        for step in range(3):
            out = None

            def train_step():
                nonlocal out
                m.zero_grad()
                out = m(mod.Tensor(a))
                (out * out).sum().backward()
                opt.step()
            _, err = call(t, train_step)
            if err is not None:
                return _hinted(err, ["one step: m.zero_grad(), out = m(x), (out * out).sum().backward(), "
                                     "opt.step().",
                                     "module(x) calls forward(x); step() runs under no_grad."])
            mopt.zero_grad()
            mout = minigrad.tensor(a).mm(mw.t())
            (mout * mout).sum().backward()
            mopt.step()
        if not np.allclose(array(m.weight), values(mw), atol=1e-5):
            return failed(t, "three SGD steps of MMul should give minigrad's weights", expected=values(mw),
                          got=array(m.weight),
                          hint=["each step: zero_grad() sets every .grad to None, backward fills it, step() moves "
                                "each parameter by -lr times its gradient.",
                                "change the Parameter in place, under no_grad, so that the module keeps the same "
                                "object and sees the new numbers."])
    yield module


def _tagged_program(lib, function_base, x, y, plan=None):
    """A graph with fan-out whose Functions log the order they run in: notebook 06's example, or the
    program of ``plan``: ``(steps, total)``, each step ``(op, i, j)`` a new value (value i op value j,
    tagged), ``total`` the order in which the tagged values are added up for the output."""
    order = []

    def tag(label, t):
        class Tag(function_base):
            @staticmethod
            def forward(ctx, a):
                return a * 1.0

            @staticmethod
            def backward(ctx, grad):
                order.append(label)
                return (grad,)
        return Tag.apply(t)

    if plan is None:
        a = tag("a", x * y)
        b = tag("b", (a + x).relu())
        c = tag("c", b * a + y * 3)
        return tag("out", c * b + a).sum(), order
    steps, total_order = plan
    made = [x, y]
    for k, (op, i, j) in enumerate(steps):
        made.append(tag(f"t{k}", made[i] * made[j] if op == "*" else made[i] + made[j]))
    total = made[2 + total_order[0]]
    for k in total_order[1:]:
        total = total + made[2 + k]
    return total.sum(), order


def _plan(r, n):
    """A random program of ``n`` tagged steps for ``_tagged_program``."""
    steps = [("*" if r.random() < 0.5 else "+", int(r.integers(0, 2 + k)), int(r.integers(0, 2 + k)))
             for k in range(n)]
    return steps, [int(k) for k in r.permutation(n)]


ORDER_HINTS = [
    "count the edges into every node first; run a node when its count reaches 0. Among the nodes ready at the "
    "same time, which one runs first?",
    "among the ready nodes run the newest first: keep them in a heap ordered by sequence number, highest first "
    "(AccumulateGrad counts as the highest, PyTorch's UINT64_MAX).",
]


def _stage6_checks(t, mod):
    yield from _stage5_checks(t, mod)
    r = rng(2600)

    def long_chain():
        x = mod.Tensor(np.ones(2, np.float32), requires_grad=True)
        y = x
        for _ in range(100_000):
            y = y * 1.0
        _, err = call(t, y.sum().backward)
        if err is not None:
            return add_recursion_hint(err)
        if x.grad is None or not np.array_equal(array(x.grad), [1, 1]):
            return failed(t, "backward of a 100,000-op chain gave the wrong gradient", expected=[1.0, 1.0],
                          got=array(x.grad), hint=["the chain is y = x * 1.0, 100,000 times: every node passes "
                                                   "the gradient on unchanged.",
                                                   "does every node of the chain run once, and the leaf's "
                                                   "AccumulateGrad last?"])

    def order(plan=None):
        x0, y0 = r.standard_normal(4).astype(np.float32), r.standard_normal(4).astype(np.float32)
        mine, ran = _tagged_program(mod, mod.Function, mod.Tensor(x0, requires_grad=True),
                                    mod.Tensor(y0, requires_grad=True), plan)
        _, err = call(t, mine.backward)
        if err is not None:
            return _hinted(err, ["the check's Functions return a tuple of one gradient from backward.",
                                 ORDER_HINTS[0]])
        theirs, expected = _tagged_program(minigrad, minigrad.autograd.Function,
                                           minigrad.tensor(x0, requires_grad=True),
                                           minigrad.tensor(y0, requires_grad=True), plan)
        theirs.backward()
        if ran != expected:
            what = "notebook 06's graph with fan-out" if plan is None else "a hidden random graph"
            return failed(t, f"the nodes ran in another order than PyTorch's engine runs them, on {what}",
                          expected=expected, got=ran, hint=ORDER_HINTS)
    yield long_chain
    yield order
    for _ in range(2):
        yield lambda plan=_plan(r, 8): order(plan)


def add_recursion_hint(report):
    """Two hint tiers for a walk that ran out of Python's stack (a RecursionError)."""
    if "RecursionError" in report.text:
        _hinted(report, ["a recursive walk needs one Python frame per node, and Python's stack holds about 1,000: "
                         "walk the graph with a loop and a list used as a stack instead.",
                         "both steps need it: counting the dependencies (pop a node, push the nodes it points to "
                         "that you have not seen), and running the nodes (a heap of the ready ones)."])
    return report


def _check(stage, checks, mod, done="your engine gives minigrad's values, gradients, graphs and errors on the seed "
                                   "programs and on hidden random inputs.", file="my_autograd.py"):
    t = TITLE.format(stage)
    if isinstance(mod, NotImplementedError):
        return failed(t, "not written yet: replace `raise NotImplementedError()` in the cell above with your engine.")
    if isinstance(mod, BaseException):
        return failed(t, f"{file} did not import: {type(mod).__name__}: {mod}",
                      hint=[f"run the exercise cell above; it writes {file}.",
                            f"the message names the line of {file}: fix it there, run the exercise cell, "
                            "then this one."])
    for run in checks(t, mod):
        try:
            report = run()
        except Exception as e:  # the check used a name your module has not, or got something it cannot use
            report = failed(t, f"the check could not use your engine: {type(e).__name__}: {e}",
                            hint=[f"the check uses what the text of stage {stage} lists (and what the stages before "
                                  "it list): is a name missing, spelled differently, or of another kind?",
                                  f"minigrad_course/scratch/stage{stage}.py has every name the check uses: compare your "
                                  "names and signatures with it."])
        if report is not None:
            return report
    return passed(t, done)


@exercise("my_autograd")
def check_stage1(mod):
    return _check(1, _stage1_checks, mod)


@exercise("my_autograd")
def check_stage2(mod):
    return _check(2, _stage2_checks, mod)


@exercise("my_autograd")
def check_stage3(mod):
    return _check(3, _stage3_checks, mod)


@exercise("my_autograd")
def check_stage4(mod):
    return _check(4, _stage4_checks, mod)


@exercise("my_autograd")
def check_stage5(mod):
    return _check(5, _stage5_checks, mod)


@exercise("my_autograd")
def check_stage6(mod):
    return _check(6, _stage6_checks, mod)


# ---- stage 5b: your engine trains notebook 05b's two-moons network -----------------------------------
TWO_MOONS = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "data", "two_moons_pytorch.json")
MOONS_TOLERANCE = 1e-6    # |your loss - PyTorch's| at every step


def two_moons_record():
    """PyTorch's run that ``scripts/make_twomoons_fixture.py`` recorded: the 200 points and their classes,
    PyTorch's initial weights (in ``parameters()`` order), the learning rate, the steps and the losses."""
    with open(TWO_MOONS) as f:
        return json.load(f)


def make_mlp(lib):
    """Notebook 05b's network on ``lib`` (minigrad, torch, or an engine of stage 5b; ``lib.nn`` if it has one)."""
    nn = getattr(lib, "nn", lib)
    return nn.Sequential(nn.Linear(2, 16), nn.Tanh(), nn.Linear(16, 16), nn.Tanh(), nn.Linear(16, 2))


def train_two_moons(lib, record):
    """Full-batch SGD on the two moons from the recorded initial weights, in float64: the loss of every step.
    ``lib`` is an engine of stage 5b (yours or the reference), or minigrad or torch."""
    model, torch_like = make_mlp(lib), hasattr(lib, "nn")
    if torch_like:
        X = lib.tensor(record["points"], dtype=lib.float64)
        y = lib.tensor(record["labels"])
        loss_fn, optimizer = lib.nn.CrossEntropyLoss(), lib.optim.SGD(model.parameters(), lr=record["lr"])
        with lib.no_grad():
            for p, w in zip(model.parameters(), record["init"]):
                p.data = lib.tensor(w, dtype=lib.float64)
    else:
        X = lib.Tensor(np.array(record["points"], dtype=np.float64))
        y = lib.Tensor(np.array(record["labels"], dtype=np.float64))   # one class per row, as numbers
        loss_fn, optimizer = lib.CrossEntropyLoss(), lib.SGD(model.parameters(), lr=record["lr"])
        for p, w in zip(model.parameters(), record["init"]):
            p.data = np.array(w, dtype=np.float64)
    losses = []
    for step in range(record["steps"]):
        loss = loss_fn(model(X), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        losses.append(float(loss.item() if torch_like else loss.data))
    return losses


CE_ENGINE_TIERS = [
    "CrossEntropy.forward gets the logits (rows, classes) and a Tensor of one class per row (as numbers: "
    "convert them with .astype(np.int64)); it returns a Tensor of one number, the mean over the rows.",
    "backward(ctx, grad) returns one gradient per input: the logits' (a Tensor shaped like the logits, times "
    "grad) and None for the classes, which need none.",
]


def _stage5b_checks(t, mod):
    def written():  # (first: an unwritten CrossEntropy is "not written yet", whatever the engine under it)
        try:
            mod.CrossEntropy.apply(mod.Tensor(np.zeros((1, 2))), mod.Tensor(np.zeros(1)))
        except NotImplementedError:
            return failed(t, "not written yet: replace `raise NotImplementedError()` in CrossEntropy with your code.")
        except Exception:  # (the checks below say what is wrong)
            return None

    yield written
    yield from _stage5_checks(t, mod)
    from .nb05 import CE_TIERS, _ce_backward, _ce_cases, _ce_diagnosis

    def cross_entropy():
        for z, y in _ce_cases():
            where = f" for logits of shape {z.shape} (largest |z| = {np.abs(z).max():g})"
            logits = mod.Tensor(z.copy(), requires_grad=True)

            def run():
                mod.CrossEntropy.apply(logits, mod.Tensor(y.astype(np.float64))).backward()
                return logits.grad
            got, err = call(t, run, returns="a gradient in logits.grad")
            if err is not None:
                return _hinted(err, CE_ENGINE_TIERS)
            zt = minigrad.tensor(z, requires_grad=True)
            expected_loss = minigrad.nn.functional.cross_entropy(zt, minigrad.tensor(y)).item()
            out = array(mod.CrossEntropy.apply(mod.Tensor(z.copy()), mod.Tensor(y.astype(np.float64))))
            if out is None or out.size != 1 or not np.isfinite(out).all() or abs(float(out) - expected_loss) > 1e-9 * max(1, abs(expected_loss)):
                return failed(t, f"the loss of CrossEntropy is wrong{where}", expected=expected_loss, got=out,
                              hint=["-log softmax(z)_y = -z_y + log(sum_j exp(z_j)), averaged over the rows; "
                                    "exp of a logit in the thousands overflows: which number can you subtract "
                                    "from every logit of a row without changing its softmax?"] + CE_TIERS[1:])
            expected, got = values(_ce_backward(z, y)), array(got)
            if got is None or got.shape != z.shape or not np.allclose(got, expected, atol=1e-9, rtol=1e-7):
                tiers = _ce_diagnosis(got, z, y, expected) if got is not None and got.shape == z.shape else CE_TIERS
                return failed(t, f"the gradient of CrossEntropy is wrong{where}", expected=expected, got=got,
                              hint=tiers)

    def float64():
        dtype = mod.Tensor(np.zeros(2)).data.dtype
        if dtype != np.float64:
            return failed(t, f"your Tensor turns a float64 array into {dtype}: stage 5b's checks and the comparison "
                             "with PyTorch run in float64",
                          hint=["PyTorch's torch.tensor keeps a float64 numpy array float64; float32 is only the "
                                "default for Python numbers and lists.",
                                "in Tensor.__init__, choose the dtype from the data: float64 if the data's dtype is "
                                "float64, float32 otherwise (stage 4's reference does)."])

    def two_moons():
        record = two_moons_record()
        losses, err = call(t, lambda: train_two_moons(mod, record), returns="the losses")
        if err is not None:
            return _hinted(err, ["the check builds Sequential(Linear(2, 16), Tanh(), Linear(16, 16), Tanh(), "
                                 "Linear(16, 2)) of your engine, sets each parameter's .data, and runs "
                                 "CrossEntropyLoss(), zero_grad(), backward() and SGD's step().",
                                 "run notebook 05b's comparison cell: it trains your network and shows the error."])
        gap = np.abs(np.array(losses) - np.array(record["losses"]))
        if gap.max() > MOONS_TOLERANCE:
            step = int(np.argmax(gap > MOONS_TOLERANCE))
            return failed(t, f"training the two-moons network, your loss leaves PyTorch's at step {step + 1}: "
                             f"|difference| = {gap[step]:.3g} > {MOONS_TOLERANCE:g}",
                          expected=record["losses"][step], got=losses[step],
                          hint=["at step 1 the loss depends only on the forward pass; after it, on every gradient "
                                "too: which step is the first to differ?",
                                "Linear's bias gets the gradient summed over the rows; Tanh's derivative is "
                                "1 - tanh(x)^2; the loss is a mean, so its gradient divides by the rows."])
    yield float64
    yield cross_entropy
    yield two_moons


def stage5b(mod):
    """The check of stage 5b on ``mod`` (notebook 05b calls it as ``nb05.check_my_mlp()``), a Report."""
    return _check("5b", _stage5b_checks, mod,
                  done=f"your engine passes stages 1-5 again, your CrossEntropy gives minigrad's loss and gradient "
                       f"(logits in the thousands too), and it trains the two-moons network on PyTorch's losses: "
                       f"|difference| <= {MOONS_TOLERANCE:g} at each of the recorded steps.", file="my_mlp.py")
