"""Checks for ``00_start_here.ipynb``: your first tensor that requires grad, and reading ``grad_fn``.

- ``check_make_x_and_y(make_x_and_y)``: ``make_x_and_y(value)`` returns a leaf ``x`` that requires
  grad and ``y = x**2 + 3*x`` computed from it.
- ``check_node_name(node_name)``: ``node_name(t)`` returns ``t.grad_fn.name()``, or ``None`` for a
  tensor that no recorded operation made.
- ``check_q_grad``: the prediction question that shows how prediction questions work.
"""
import numpy as np

from .. import autograd
from ..tensor import Tensor
from ._check import Report, call, close, exercise, failed, passed, prediction, rng


def _with_hint(report, hints):
    """Add the hint of the first ``(text in the message, hint)`` pair that matches a failed Report."""
    if report is None or report.ok:
        return report
    for pattern, hint in hints:
        if pattern in report.text:
            return Report(False, f"{report.text}\n   Hint: {hint}")
    return report


# ---- exercise 1 ---------------------------------------------------------------------------------
MAKE_TITLE = "x and y = x**2 + 3*x"


def _hidden_values():
    """The example value 2.0 first, then four hidden ones (rounded, so the feedback is readable)."""
    return [2.0] + [round(float(v), 2) for v in rng(1000).uniform(-4.0, 4.0, size=4)]


@exercise("make_x_and_y")
def check_make_x_and_y(make_x_and_y):
    """``make_x_and_y(value)`` must return ``(x, y)``: x a leaf requiring grad, y = x**2 + 3*x from x."""
    t = MAKE_TITLE
    values = _hidden_values()
    for value in values:
        out, err = call(t, make_x_and_y, value, returns="x and y: `return x, y`")
        if err is not None:
            return err
        where = f" for value = {value}"
        if not isinstance(out, tuple) or len(out) != 2:
            return failed(t, f"make_x_and_y should return two things, `return x, y`; it returned "
                             f"{type(out).__name__}{where}",
                          hint="end the function with `return x, y`.")
        x, y = out
        if not isinstance(x, Tensor):
            return failed(t, f"x should be a minigrad Tensor, got {type(x).__name__}{where}",
                          hint="make it with minigrad.tensor(value, requires_grad=True).")
        if x.numel() != 1 or not close(float(x._data.reshape(-1)[0]), value):
            return failed(t, f"x does not hold the value it was given{where}",
                          expected=value, got=x.detach(),
                          hint="use the argument `value` (the check calls your function with other numbers).")
        if not x.requires_grad:
            return failed(t, f"x does not require grad{where}",
                          hint=["x is a leaf, but minigrad does not record what is computed from it: which "
                                "argument of minigrad.tensor asks it to?",
                                "pass requires_grad=True when you create x: minigrad.tensor(value, "
                                "requires_grad=True)."])
        if not x.is_leaf:
            return failed(t, f"x should be a leaf (grad_fn None), but it was made by {x.grad_fn.name()}{where}",
                          hint="create x directly with minigrad.tensor(value, requires_grad=True), "
                               "not by computing it from another tensor.")
        if not isinstance(y, Tensor):
            return failed(t, f"y should be a minigrad Tensor, got {type(y).__name__}{where}",
                          hint="compute y from the tensor x (x**2 + 3*x), not from x.item() or a Python float.")
        expected = np.float32(value) ** 2 + 3 * np.float32(value)
        if y.numel() != 1 or not close(float(y._data.reshape(-1)[0]), expected, atol=1e-4):
            return failed(t, f"wrong value of y{where}", expected=round(float(expected), 4), got=y.detach(),
                          hint="y = x**2 + 3*x: x squared, plus three times x.")
        if y.grad_fn is None:
            return failed(t, f"y has the right value but no grad_fn, so it is not connected to x{where}",
                          hint="compute y with tensor operations on x; x.item() or float(x) leave the graph.")
        grad, = autograd.grad(y.sum(), x, allow_unused=True)
        if grad is None:
            return failed(t, f"y was not computed from the x you returned{where}",
                          hint="return the same x that you used to compute y.")
        if not close(grad, 2 * np.float32(value) + 3, atol=1e-4):
            return failed(t, f"y has the right value but not the graph of x**2 + 3*x{where}",
                          expected=f"dy/dx = {2 * value + 3:.4f}", got=f"dy/dx = {grad.item():.4f}",
                          hint="write y = x**2 + 3*x with the tensor x in both terms.")
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
             ("x.exp().mean()", x.exp().mean()), ("x - 1", x - 1), ("x (a leaf you created)", x),
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
            return _with_hint(err, [
                ("'NoneType' object has no attribute", "a leaf (and a tensor that needs no grad) has "
                 "grad_fn None; check `if t.grad_fn is None: return None` first."),
            ]) if expected is None else err
        where = f" for t = {text}"
        if expected is None:
            if got is not None:
                return failed(t, f"expected None{where}", expected=None, got=got,
                              hint="this tensor was not made by a recorded operation, so t.grad_fn is None: "
                                   "return None.")
            continue
        if got is tensor.grad_fn:
            return failed(t, f"returned the node itself, not its name{where}", expected=expected,
                          got=got, hint="call .name() on the node: t.grad_fn.name().")
        if not isinstance(got, str):
            return failed(t, f"should return a string, got {type(got).__name__}{where}", expected=expected,
                          got=got, hint="t.grad_fn.name() returns the name as a string.")
        if got != expected:
            hint = "read the name from the tensor you were given: t.grad_fn.name()."
            if got.startswith("<"):
                hint = "str(t.grad_fn) is the node's repr, with <...> around it; t.grad_fn.name() is the bare name."
            return failed(t, f"wrong name{where}", expected=expected, got=got, hint=hint)
    return passed(t, f"correct for all {len(cases)} tensors, leaves and tensors without grad included.")


# ---- a prediction question ------------------------------------------------------------------------
# the fingerprint comes from `python -m minigrad.exercises digest nb00-q-grad 7`
check_q_grad = prediction(
    "nb00-q-grad", "q_grad",
    "x = minigrad.tensor(2.0, requires_grad=True); y = x**2 + 3*x; y.backward(). What is x.grad? (a number)",
    "91ae8203d256f3cd",
    hints=["x.grad is dy/dx at x = 2, not y itself.", "dy/dx = 2x + 3."],
    why="dy/dx = 2x + 3 = 7 at x = 2.")
