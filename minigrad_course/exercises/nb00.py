"""Checks for ``00_start_here.ipynb``: your first tensor that requires grad, and reading ``grad_fn``.

- ``check_make_x_and_y(make_x_and_y)``: ``make_x_and_y(value)`` returns a leaf ``x`` that requires
  grad and ``y = x**2 + 3*x`` computed from it.
- ``check_node_name(node_name)``: ``node_name(t)`` returns ``t.grad_fn.name()``, or ``None`` for a
  tensor that no recorded operation made.
- ``check_q_grad``: the prediction question that shows how prediction questions work.
"""
import numpy as np

from minigrad import autograd
from minigrad.tensor import Tensor
from ._check import Report, add_hint, call, close, exercise, failed, passed, prediction, rng


def _with_hint(report, hints):
    """Add the hint of the first ``(text in the message, hint)`` pair that matches a failed Report."""
    if report is None or report.ok:
        return report
    for pattern, hint in hints:
        if pattern in report.text:
            return Report(False, f"{report.text}\n   Hint: {hint}")
    return report


def explain(err, specific=(), example="the example of the task"):
    """A failed Report from ``call`` (the student's code did not run through), with at least two hint
    tiers: those of the first ``(text in the report, [tiers])`` pair of ``specific`` that matches,
    then the ones for that kind of failure (raised, called the checker, returned None). A function
    not written yet is left as it is: there is no answer to hint at."""
    if err is None or err.ok or "not written yet" in err.text:  # not an answer yet: nothing to hint at
        return err
    tiers = []
    for pattern, hints in specific:
        if pattern in err.text:
            tiers += [hints] if isinstance(hints, str) else list(hints)
            break
    if "your code raised" in err.text:
        tiers += ["the end of the message, in parentheses, is the line of your code that raised the error.",
                  f"call your function on {example} in a new cell: Python shows you the whole error there."]
    elif "your code called" in err.text:
        tiers += ["the check watches the functions your code calls: the checker's own answers are off limits.",
                  "write the steps yourself, with the operations the notebook used."]
    else:  # returned None (call() gave the first hint)
        tiers += ["every way through your function has to end in a `return` of the result; print the result "
                  "just before you return it to see it."]
    for tier in tiers:
        add_hint(err, tier)
    return err


# ---- exercise 1 ---------------------------------------------------------------------------------
MAKE_TITLE = "x and y = x**2 + 3*x"
FIRST_EXAMPLE = "the notebook's first example, which makes x with `requires_grad=True` and computes y = x * x from it"


def _hidden_values():
    """The example value 2.0 first, then four hidden ones (rounded, so the feedback is readable)."""
    return [2.0] + [round(float(v), 2) for v in rng(1000).uniform(-4.0, 4.0, size=4)]


@exercise("make_x_and_y")
def check_make_x_and_y(make_x_and_y):
    """``make_x_and_y(value)`` must return ``(x, y)``: x a leaf requiring grad, y = x**2 + 3*x from x."""
    t = MAKE_TITLE
    values = _hidden_values()
    for value in values:
        out, err = call(t, make_x_and_y, value, returns="x and y, as two things")
        if err is not None:
            return explain(err, [
                ("only Tensors of floating point", ["gradients need a float tensor: an int value makes an int "
                                                   "tensor.", "the check passes floats; look at what you pass "
                                                   "to minigrad.tensor."]),
            ], example="make_x_and_y(2.0)")
        where = f" for value = {value}"
        if not isinstance(out, tuple) or len(out) != 2:
            return failed(t, f"make_x_and_y should return two things, x and y in that order; it returned "
                             f"{type(out).__name__}{where}",
                          hint=["a function returns two things as a tuple: the two names after `return`, "
                                "with a comma between them.",
                                "the check takes the first as x and the second as y."])
        x, y = out
        if not isinstance(x, Tensor):
            return failed(t, f"x should be a minigrad Tensor, got {type(x).__name__}{where}",
                          hint=["x has to be a tensor for minigrad to record what is computed from it.",
                                f"look at {FIRST_EXAMPLE}."])
        if x.numel() != 1 or not close(float(x._data.reshape(-1)[0]), value):
            return failed(t, f"x does not hold the value it was given{where}",
                          expected=value, got=x.detach(),
                          hint=["use the argument `value` (the check calls your function with other numbers).",
                                "make_x_and_y(value) gets the number as its argument: create x from it, not from "
                                "the 2.0 of the example."])
        if not x.requires_grad:
            return failed(t, f"x does not require grad{where}",
                          hint=["x is a leaf, but minigrad does not record what is computed from it: which "
                                "argument of minigrad.tensor asks it to?",
                                "look at the notebook's first example: what does it give minigrad.tensor besides "
                                "the number?",
                                "pass requires_grad=True to minigrad.tensor when you create x."])
        if not x.is_leaf:
            return failed(t, f"x should be a leaf (grad_fn None), but it was made by {x.grad_fn.name()}{where}",
                          hint=["a leaf is a tensor you create directly; one computed from another tensor has a "
                                "grad_fn and is not a leaf.",
                                "create x with minigrad.tensor from the number `value` and do nothing else to it "
                                "before you return it."])
        if not isinstance(y, Tensor):
            return failed(t, f"y should be a minigrad Tensor, got {type(y).__name__}{where}",
                          hint=["compute y from the tensor x, not from x.item() or a Python float.",
                                "operators such as ** , * and + on a tensor give a tensor."])
        expected = np.float32(value) ** 2 + 3 * np.float32(value)
        if y.numel() != 1 or not close(float(y._data.reshape(-1)[0]), expected, atol=1e-4):
            return failed(t, f"wrong value of y{where}", expected=round(float(expected), 4), got=y.detach(),
                          hint=["y is x squared, plus three times x: compare your formula with the task, term "
                                "by term.",
                                f"work it out by hand for value = {value} and print your y next to it."])
        if y.grad_fn is None:
            return failed(t, f"y has the right value but no grad_fn, so it is not connected to x{where}",
                          hint=["compute y with tensor operations on x; x.item() or float(x) leave the graph.",
                                "y.grad_fn should be the node of the last operation, an AddBackward0."])
        grad, = autograd.grad(y.sum(), x, allow_unused=True)
        if grad is None:
            return failed(t, f"y was not computed from the x you returned{where}",
                          hint=["return the same x that you used to compute y.",
                                "create x once, compute y from it, then return both."])
        if not close(grad, 2 * np.float32(value) + 3, atol=1e-4):
            return failed(t, f"y has the right value but not the graph of x**2 + 3*x{where}",
                          expected=f"dy/dx = {2 * value + 3:.4f}", got=f"dy/dx = {grad.item():.4f}",
                          hint=["both terms have to be computed from the tensor x: x squared, and three times x.",
                                "a term computed from a number (x.item(), or the value itself) has the right "
                                "value but gives no gradient."])
    return passed(t, f"correct for {len(values)} values: x is a leaf that requires grad, and y's graph "
                     "leads back to it.")


# ---- exercise 2 ---------------------------------------------------------------------------------
NAME_TITLE = "node_name"


def _name_cases():
    """(description, tensor, expected) built on hidden random inputs."""
    g = rng(1001)

    def leaf():
        return Tensor(g.uniform(-2, 2, size=(4,)).astype(np.float32), requires_grad=True)

    x = leaf()
    cases = [("x.sum()", x.sum()), ("x * 2", x * 2), ("x.sigmoid()", x.sigmoid()), ("x.relu()", x.relu()),
             ("x.exp().mean()", x.exp().mean()), ("x - 1", x - 1), ("x.sum(0)", x.sum(0)),
             ("x (a leaf you created)", x),
             ("minigrad.tensor([1., 2.]) * 3 (nothing requires grad)", Tensor(np.array([1, 2], np.float32)) * 3)]
    return [(text, t, None if t.grad_fn is None else t.grad_fn.name()) for text, t in cases]


@exercise("node_name")
def check_node_name(node_name):
    """``node_name(t)`` must give ``t.grad_fn.name()`` as a string, or ``None`` when ``t.grad_fn`` is None."""
    t = NAME_TITLE
    cases = _name_cases()
    for text, tensor, expected in cases:
        got, err = call(t, node_name, tensor)
        if err is not None:
            none_first = ["a leaf (and a tensor that needs no grad) has grad_fn None, and None has no name(): "
                          f"this one was t = {text}.",
                          "look at t.grad_fn before you ask it for its name: when there is no node, the answer "
                          "is None."]
            return explain(err, [("'NoneType' object has no attribute", none_first)] if expected is None else (),
                           example="the y and the x of the cell above the task")
        where = f" for t = {text}"
        if expected is None:
            if got is not None:
                return failed(t, f"expected None{where}", expected=None, got=got,
                              hint=["this tensor was not made by a recorded operation, so t.grad_fn is None.",
                                    "when there is no node, the answer is the value None itself, not a name "
                                    "or the string 'None'."])
            continue
        if got is tensor.grad_fn:
            return failed(t, f"returned the node itself, not its name{where}", expected=expected,
                          got=got, hint=["the node is an object; its .name() method gives its name as a string.",
                                         "the cell above the task prints y.grad_fn and y.grad_fn.name(): "
                                         "compare the two lines."])
        if not isinstance(got, str):
            return failed(t, f"should return a string, got {type(got).__name__}{where}", expected=expected,
                          got=got, hint=["the node's .name() method returns the name as a string.",
                                         "the cell above the task prints it for y.grad_fn."])
        if got != expected:
            hints = ["read the name from the tensor you were given, not from an example.",
                     "the cell above the task prints the name of y.grad_fn: do the same with t."]
            if got.startswith("<"):
                hints = ["str(t.grad_fn) is the node's repr, with <...> around it; the node's .name() method "
                         "gives the bare name."] + hints[1:]
            return failed(t, f"wrong name{where}", expected=expected, got=got, hint=hints)
    return passed(t, f"correct for all {len(cases)} tensors, leaves and tensors without grad included.")


# ---- a prediction question ------------------------------------------------------------------------
# the fingerprint comes from `python -m minigrad_course.exercises digest nb00-q-grad 7`
check_q_grad = prediction(
    "nb00-q-grad", "q_grad",
    "x = minigrad.tensor(2.0, requires_grad=True); y = x**2 + 3*x; y.backward(). What is x.grad? (a number)",
    "91ae8203d256f3cd",
    hints=["x.grad is the derivative dy/dx at x = 2, not the value of y.",
           "differentiate y = x**2 + 3*x one term at a time, then put in x = 2.",
           "the derivative of x**2 is 2x; what is the derivative of 3*x?"],
    why="dy/dx = 2x + 3 = 7 at x = 2.")
