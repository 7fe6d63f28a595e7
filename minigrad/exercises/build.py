"""Checks for the "Build it yourself" sections at the end of notebooks 01-06.

Your engine lives in one file of your own, ``my_autograd.py`` beside the notebooks: each build
section's exercise cell writes it (``%%writefile my_autograd.py``), and its check cell loads it
again and runs it on the seed programs and on hidden random inputs.  What it must give is computed
by minigrad at checking time: values, gradients, node names, the ``next_functions`` structure,
error messages and (stage 6) the order in which the nodes run.  ``minigrad/scratch/stageN.py`` is a
reference for each stage: start the next notebook from it if you like.

    my_autograd = build.load()   # (re)import my_autograd.py
    build.check_stage1()
"""
import importlib.util
import os
import sys

import numpy as np

import minigrad
from minigrad.autograd.engine import GraphTask

from ._check import add_hint, call, exercise, failed, passed, reference, rng

TITLE = "Build it yourself, stage {}"


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


# ---- what minigrad says (computed when the check runs) ------------------------------------------
def structure(node):
    """A graph's next_functions as nested ``(name, (children...))``; None for an edge to nothing."""
    if node is None:
        return None
    return (node.name(), tuple(structure(n) for n, _ in node.next_functions))


def values(t):
    return np.asarray(t.detach().numpy() if isinstance(t, minigrad.Tensor) else t.data)


@reference
def _error(fn):
    """The message of the RuntimeError ``fn()`` raises (with PyTorch's 'torch.Size'), or None."""
    try:
        fn()
    except RuntimeError as e:
        return str(e).replace("minigrad.Size", "torch.Size")
    return None


@reference
def _expected_grads(program, *arrays):
    """Run ``program`` on minigrad leaves: its output and the leaves' gradients."""
    leaves = [minigrad.tensor(a, requires_grad=True) for a in arrays]
    out = program(minigrad, *leaves)
    out.backward()
    return out, [values(x.grad) for x in leaves]


# ---- the seed programs, as functions of a library (minigrad or yours) ---------------------------
def seed_relu(lib, a):                  # notebook 01's seed: relu(linspace(-100, 100, 10)).sum()
    return lib.relu(a).sum()


def fan_out(lib, x):                    # x reaches the output along three paths
    return ((x * 3 + x * x).relu() * x + 2).sum()


def _run(t, mod, program, arrays, hint):
    """Compare ``program`` on ``mod`` with minigrad: output, gradients, graph; a Report or None."""
    expected, grads = _expected_grads(program, *arrays)
    leaves = [mod.Tensor(a, requires_grad=True) for a in arrays]
    out, err = call(t, lambda: program(mod, *leaves), returns="a tensor")
    if err is not None:
        return err
    if structure(out.grad_fn) != structure(expected.grad_fn):
        return failed(t, f"the graph of {program.__name__} is not PyTorch's",
                      expected=structure(expected.grad_fn), got=structure(out.grad_fn),
                      hint=["each op's node needs PyTorch's name (MulBackward0, ...) and one (node, 0) pair per "
                            "input in next_functions: (None, 0) for a number, AccumulateGrad for a leaf.",
                            "a leaf keeps ONE AccumulateGrad node: make it the first time an op uses the leaf."])
    _, err = call(t, out.backward)
    if err is not None:
        err.text = err.text.replace("your code raised", f"backward() of {program.__name__} raised", 1)
        for tier in hint:
            add_hint(err, tier)
        return err
    for i, (x, g) in enumerate(zip(leaves, grads)):
        got = None if x.grad is None else np.asarray(x.grad.data)
        if got is None or got.shape != g.shape or not np.allclose(got, g, atol=1e-5):
            return failed(t, f"the gradient of input {i} of {program.__name__} is wrong for {arrays[i]!r}",
                          expected=g, got=got, hint=hint)
    return None


FAN_OUT_HINTS = [
    "a node that the output reaches along two paths must run ONCE, after the gradients of both paths "
    "arrived and were added up. Does your walk visit a shared node twice, or run it too early?",
    "list each node once (keep a `seen` set) in an order where every node comes before the nodes it "
    "sends gradients to, and add gradients that reach the same node: grads[nxt] = grads[nxt] + g.",
]


def _stage1_checks(t, mod):
    r = rng(2100)
    yield lambda: _run(t, mod, seed_relu, [np.linspace(-100, 100, 10, dtype=np.float32)],
                       ["the gradient of relu is 1 where the input is > 0 and 0 elsewhere; the sum passes its "
                        "gradient (1) to every element.",
                        "check that backward() starts with a gradient of ones and that AccumulateGrad stores it "
                        "in the leaf's .grad."])
    yield lambda: _run(t, mod, fan_out, [r.uniform(-3, 3, size=(5,)).astype(np.float32)], FAN_OUT_HINTS)

    def twice():  # gradients accumulate over two backward calls
        x0 = r.uniform(-2, 2, size=(3,)).astype(np.float32)
        x = mod.Tensor(x0, requires_grad=True)
        for _ in range(2):
            _, err = call(t, lambda: (x * 2).sum().backward())
            if err is not None:
                return err
        got = None if x.grad is None else np.asarray(x.grad.data)
        if got is None or not np.allclose(got, 4):
            return failed(t, "after two calls of (x * 2).sum().backward() x.grad should be 4 everywhere",
                          expected=np.full(3, 4.0, np.float32), got=got,
                          hint=["AccumulateGrad ADDS into .grad when there is one already; it does not overwrite it.",
                                "v.grad = Tensor(g) only when v.grad is None; otherwise v.grad = v.grad + g."])
    yield twice


def _stage2_checks(t, mod):
    yield from _stage1_checks(t, mod)
    x0 = np.array([1.0, 2.0, 3.0], np.float32)

    def errors():
        x, mx = mod.Tensor(x0, requires_grad=True), minigrad.tensor(x0, requires_grad=True)
        cases = [("backward() of a 3-element output", lambda: (x * x).backward(), lambda: (mx * mx).backward()),
                 ("backward(gradient) of the wrong shape", lambda: (x * x).backward(mod.Tensor([1.0, 2.0])),
                  lambda: (mx * mx).backward(minigrad.tensor([1.0, 2.0]))),
                 ("backward() of a tensor that needs no gradient", lambda: mod.Tensor(x0).backward(),
                  lambda: minigrad.tensor(x0).sum().backward())]
        for what, mine, theirs in cases:
            got, expected = _error(mine), _error(theirs)
            if got != expected:
                return failed(t, f"{what} should raise RuntimeError with PyTorch's message", expected=expected,
                              got=got, hint=["check the gradient argument before walking the graph.",
                                             "without a gradient, only a one-element output is allowed; with one, "
                                             "its shape must be the output's."])

    def vjp():
        v = rng(2200).uniform(-2, 2, size=(3,)).astype(np.float32)
        x, mx = mod.Tensor(x0, requires_grad=True), minigrad.tensor(x0, requires_grad=True)
        _, err = call(t, lambda: (x * x).backward(mod.Tensor(v)))
        if err is not None:
            return err
        (mx * mx).backward(minigrad.tensor(v))
        got = None if x.grad is None else np.asarray(x.grad.data)
        if got is None or not np.allclose(got, values(mx.grad)):
            return failed(t, f"(x * x).backward(v) for v = {v!r}: x.grad should be v times the Jacobian",
                          expected=values(mx.grad), got=got,
                          hint=["start the walk with the gradient you were given, not with ones.",
                                "the Jacobian of x * x is diag(2x): v times it is 2 * x * v."])
    yield errors
    yield vjp


def _stage3_checks(t, mod):
    yield from _stage2_checks(t, mod)
    x0 = np.array([1.0, 2.0], np.float32)

    def second_backward():
        x, mx = mod.Tensor(x0, requires_grad=True), minigrad.tensor(x0, requires_grad=True)
        y, my = (x * x).sum(), (mx * mx).sum()
        _, err = call(t, lambda: (y.backward(retain_graph=True), y.backward()))
        if err is not None:
            return failed(t, "y.backward(retain_graph=True) then y.backward() should both work",
                          hint="with retain_graph=True a node keeps what it saved after it ran.")
        my.backward(retain_graph=True)
        my.backward()
        got, expected = _error(lambda: y.backward()), _error(lambda: my.backward())
        if got != expected:
            return failed(t, "a third backward (the last one did not retain the graph) should raise PyTorch's error",
                          expected=expected, got=got,
                          hint=["after a node ran, drop what it saved unless retain_graph=True.",
                                "a node whose saved values are gone raises RuntimeError(FREED) when it runs again."])
        x.grad.zero_()
        if not np.array_equal(np.asarray(x.grad.data), [0, 0]):
            return failed(t, "x.grad.zero_() should set the gradient to zeros in place")

    def no_grad():
        x = mod.Tensor(x0, requires_grad=True)
        with mod.no_grad():
            w = x * 2
        if w.grad_fn is not None or w.requires_grad:
            return failed(t, "an op inside `with no_grad():` should record nothing",
                          expected="grad_fn None, requires_grad False", got=f"grad_fn {w.grad_fn}, "
                          f"requires_grad {w.requires_grad}", hint="check the grad-mode flag where an op records its node.")
    yield second_backward
    yield no_grad


def _stage4_checks(t, mod):
    yield from _stage3_checks(t, mod)

    def mmfunction():
        r = rng(2400)
        a, w = r.standard_normal((3, 2)).astype(np.float32), r.standard_normal((3, 2)).astype(np.float32)
        x, W = mod.Tensor(a, requires_grad=True), mod.Tensor(w, requires_grad=True)
        f, err = call(t, lambda: mod.MMFunction.apply(x, W), returns="a tensor")
        if err is not None:
            return err
        if f.grad_fn is None or f.grad_fn.name() != "MMFunctionBackward":
            return failed(t, "the node of MMFunction.apply should be named MMFunctionBackward",
                          got=None if f.grad_fn is None else f.grad_fn.name(),
                          hint="a Function's node is named after the class: cls.__name__ + 'Backward'.")
        _, err = call(t, lambda: (f * f).sum().backward())
        if err is not None:
            return err
        mx, mW = minigrad.tensor(a, requires_grad=True), minigrad.tensor(w, requires_grad=True)
        mf = mx.mm(mW.t())
        (mf * mf).sum().backward()
        for name, mine, theirs in [("input", x, mx), ("weight", W, mW)]:
            got = None if mine.grad is None else np.asarray(mine.grad.data)
            if got is None or not np.allclose(got, values(theirs.grad), atol=1e-5):
                return failed(t, f"the gradient of MMFunction's {name} is wrong", expected=values(theirs.grad),
                              got=got, hint=["out = input @ weight.T: derive d out / d input and d out / d weight.",
                                             "grad_input = grad_output.mm(weight), grad_weight = grad_output.t().mm(input)."])
        ctx = mod.MMFunction.apply(mod.Tensor(a), W).grad_fn
        if tuple(ctx.needs_input_grad) != (False, True):
            return failed(t, "ctx.needs_input_grad should say which inputs require grad",
                          expected=(False, True), got=tuple(ctx.needs_input_grad),
                          hint="Function.apply fills it: one flag per input, t.requires_grad.")
        with mod.no_grad():
            grads = ctx.apply(mod.Tensor(np.ones((3, 3), np.float32)))
        if grads[0] is not None:
            return failed(t, "MMFunction.backward computed a gradient for an input that needs none",
                          expected=None, got=grads[0],
                          hint="look at ctx.needs_input_grad[0] before computing grad_input.")
    yield mmfunction


def _stage5_checks(t, mod):
    yield from _stage4_checks(t, mod)

    def module():
        m, err = call(t, lambda: mod.MMul(3, 2), returns="a module")
        if err is not None:
            return err
        params = list(m.parameters())
        if len(params) != 1 or params[0] is not m.weight:
            return failed(t, "MMul(3, 2).parameters() should give its one Parameter, the weight",
                          got=params, hint=["Module.__setattr__ must notice a Parameter and keep it in _parameters.",
                                            "parameters() yields the module's own Parameters, then its sub-modules'."])
        a = rng(2500).standard_normal((3, 2)).astype(np.float32)
        opt = mod.SGD(m.parameters(), lr=0.1)
        mw = minigrad.nn.Parameter(minigrad.ones(3, 2))
        mopt = minigrad.optim.SGD([mw], lr=0.1)
        for step in range(3):
            opt.zero_grad()
            out = m(mod.Tensor(a))
            _, err = call(t, lambda: ((out * out).sum().backward(), opt.step()))
            if err is not None:
                return err
            mopt.zero_grad()
            mout = minigrad.tensor(a).mm(mw.t())
            (mout * mout).sum().backward()
            mopt.step()
        if not np.allclose(np.asarray(m.weight.data), values(mw), atol=1e-5):
            return failed(t, "three SGD steps of MMul should give minigrad's weights", expected=values(mw),
                          got=np.asarray(m.weight.data),
                          hint=["zero the gradients before each backward, and step with p -= lr * p.grad under no_grad.",
                                "change the Parameter in place (p.data -= ...), so the module keeps the same object."])
    yield module


def _tagged_program(lib, function_base, x, y):
    """A graph with fan-out whose Functions log the order they run in."""
    order = []

    def tag(label, t):
        class Tag(function_base):
            @staticmethod
            def forward(ctx, a):
                return a * 1.0

            @staticmethod
            def backward(ctx, grad):
                order.append(label)
                return grad
        return Tag.apply(t)

    a = tag("a", x * y)
    b = tag("b", (a + x).relu())
    c = tag("c", b * a + y * 3)
    return tag("out", c * b + a).sum(), order


def _stage6_checks(t, mod):
    yield from _stage5_checks(t, mod)

    def order():
        r = rng(2600)
        x0, y0 = r.standard_normal(4).astype(np.float32), r.standard_normal(4).astype(np.float32)
        mine, ran = _tagged_program(mod, mod.Function, mod.Tensor(x0, requires_grad=True),
                                    mod.Tensor(y0, requires_grad=True))
        _, err = call(t, mine.backward)
        if err is not None:
            return err
        theirs, expected = _tagged_program(minigrad, minigrad.autograd.Function, minigrad.tensor(x0, requires_grad=True),
                                           minigrad.tensor(y0, requires_grad=True))
        GraphTask([theirs], [minigrad.ones(())]).run()
        if ran != expected:
            return failed(t, "the nodes ran in another order than PyTorch's engine runs them",
                          expected=expected, got=ran,
                          hint=["count the edges into every node first; run a node when its count reaches 0.",
                                "among the ready nodes run the newest first: a heap of (-sequence_nr, ...); "
                                "AccumulateGrad's sequence number is the highest (PyTorch: UINT64_MAX)."])

    def long_chain():
        x = mod.Tensor(np.ones(2, np.float32), requires_grad=True)
        y = x
        for _ in range(100_000):
            y = y * 1.0
        _, err = call(t, y.sum().backward)
        if err is not None:
            return add_recursion_hint(err)
        if x.grad is None or not np.array_equal(np.asarray(x.grad.data), [1, 1]):
            return failed(t, "backward of a 100,000-op chain gave the wrong gradient", expected=[1.0, 1.0],
                          got=None if x.grad is None else x.grad.data)
    yield order
    yield long_chain


def add_recursion_hint(report):
    if "RecursionError" in report.text:
        report.text += ("\n   Hint: a recursive walk needs one Python frame per node; use a list as a stack "
                        "to count the dependencies, and a heap of ready nodes to run them.")
    return report


def _check(stage, checks, mod):
    t = TITLE.format(stage)
    if isinstance(mod, NotImplementedError):
        return failed(t, "not written yet: replace `raise NotImplementedError()` in the cell above with your engine.")
    if isinstance(mod, BaseException):
        return failed(t, f"my_autograd.py did not import: {type(mod).__name__}: {mod}",
                      hint="run the exercise cell above; it writes my_autograd.py.")
    for run in checks(t, mod):
        report = run()
        if report is not None:
            return report
    return passed(t, "your engine gives minigrad's values, gradients, graphs and errors on the seed programs "
                     "and on hidden random inputs.")


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
