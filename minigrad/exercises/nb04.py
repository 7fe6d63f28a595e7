"""Checks for notebook 04 (custom Functions): ``MMFunction.backward`` and a ``Tanh`` Function.

Every check runs the student's Function on hidden random inputs (float64, fixed seeds) and
compares with minigrad's own ops, so an answer hard-coded for the notebook's example fails.
"""
import numpy as np

from ..autograd import Function, GradcheckError, gradcheck
from ..tensor import Tensor
from . import _check


def _hinted(report, hint):
    """Add hint tiers (one string, or a list from a nudge to the answer) to a failed Report that has
    none yet (e.g. one made by ``_check.call``)."""
    if report is None or report.ok or not hint or "Hint:" in report.text or "not written yet" in report.text:
        return report
    for tier in [hint] if isinstance(hint, str) else hint:
        _check.add_hint(report, tier)
    return report


def _is_function(cls, title, name):
    if not (isinstance(cls, type) and issubclass(cls, Function)):
        return _check.failed(title, f"pass the class itself: {name} should be a subclass of "
                                    f"minigrad.autograd.Function, got {cls!r}",
                             hint=f"write `class {name}(Function):` and call the check with {name} (no parentheses)")
    return None


def _named(name, t):
    """``   name = tensor(...)`` with the continuation lines lined up under the value."""
    prefix = f"   {name} = "
    return prefix + repr(t).replace("\n", "\n" + " " * len(prefix))


def _t(generator, shape, requires_grad):
    return _check.random_tensor(generator, shape, requires_grad=requires_grad, dtype=np.float64)


# ---------------------------------------------------------------------------- exercise 1
_MM_CASES = [
    # (what the case is, input shape, weight shape, input requires grad, weight requires grad)
    ("input (4x3), weight (2x3), both require grad", (4, 3), (2, 3), True, True),
    ("input (3x3), weight (3x3): square, so a wrong transpose is not caught by the shapes", (3, 3), (3, 3),
     True, True),
    ("input (5x2) without grad, weight (3x2) with grad -- the usual case in a model", (5, 2), (3, 2), False, True),
    ("input (2x4) with grad, weight (3x4) without grad", (2, 4), (3, 4), True, False),
]

# hint tiers: a nudge first, the answer last
_HINT_INPUT = ["the gradient for input has input's shape, N x D. grad_output is N x M and weight M x D: which "
               "product of the two has that shape?",
               "dL/d input = grad_output @ weight: (N x M) @ (M x D) gives N x D, the shape of input.",
               "in code: grad_output.mm(weight)."]
_HINT_WEIGHT = ["the gradient for weight has weight's shape, M x D. grad_output is N x M and input N x D: "
                "which product of the two (transposing one) has that shape?",
                "dL/d weight = grad_output.t() @ input: (M x N) @ (N x D) gives M x D, the shape of weight.",
                "in code: grad_output.t().mm(input)."]


def _same(d, make):
    """Is the array ``d`` equal to ``make()``? (False when the formula does not even fit the shapes.)"""
    try:
        e = make()
    except ValueError:
        return False
    return d.shape == e.shape and np.allclose(d, e)


def _mm_wrong_value_hint(which, got, x, w, g):
    """A hint that names the mistake when ``got`` is one of the usual wrong formulas."""
    d, xd, wd, gd = got._data, x._data, w._data, g._data
    ones = np.ones_like(gd)
    if which == "input":
        if _same(d, lambda: gd):
            return ["you returned grad_output itself: the weight is missing from the chain rule."] + _HINT_INPUT[1:]
        if _same(d, lambda: gd @ wd.T):
            return ["you transposed the weight: forward already used weight.t(), so backward multiplies by the "
                    "weight as it is."] + _HINT_INPUT[1:]
        if _same(d, lambda: ones @ wd):
            return ["that is the gradient for grad_output = all ones (a .sum() loss): use the grad_output you are "
                    "given."] + _HINT_INPUT[1:]
        return _HINT_INPUT
    if _same(d, lambda: xd.T @ gd):
        return ["that is the gradient of weight.t() (input.t() @ grad_output): transpose it back."] \
            + _HINT_WEIGHT[1:]
    if _same(d, lambda: ones.T @ xd):
        return ["that is the gradient for grad_output = all ones (a .sum() loss): use the grad_output you are "
                "given."] + _HINT_WEIGHT[1:]
    return _HINT_WEIGHT


@_check.exercise("MMFunction")
def check_mm_backward(MMFunction):
    """Exercise 1: ``MMFunction.backward`` returns grad_output @ weight and grad_output.t() @ input."""
    title = "MMFunction.backward"
    bad = _is_function(MMFunction, title, "MMFunction")
    if bad is not None:
        return bad
    generator = _check.rng(404)
    for case, xs, ws, x_req, w_req in _MM_CASES:
        x, w = _t(generator, xs, x_req), _t(generator, ws, w_req)
        g = _t(generator, (xs[0], ws[0]), False)
        where = f" (case: {case})"

        y, err = _check.call(title, MMFunction.apply, x, w)
        if err is not None:
            return _hinted(err, "the forward was given: input.mm(weight.t()); did something change it?")
        bad = _check.check_tensor(title, y, Tensor(x._data @ w._data.T), "forward output", where,
                                  hint="keep the given forward: return input.mm(weight.t())")
        if bad is not None:
            return bad

        _, err = _check.call(title, y.backward, g)
        if err is not None:
            text = err.text
            if "incorrect number of gradients" in text:
                return _hinted(err, "return one gradient per argument of forward, in the same order: "
                                    "`return grad_input, grad_weight` (None for one that is not needed).")
            if "invalid gradient at index 0" in text:
                return _hinted(err, ["the first gradient is for input and must have input's shape."] + _HINT_INPUT)
            if "invalid gradient at index 1" in text:
                return _hinted(err, ["the second gradient is for weight and must have weight's shape."]
                               + _HINT_WEIGHT)
            if "UnboundLocalError" in text or "referenced before assignment" in text:
                return _hinted(err, "start with `grad_input = grad_weight = None` so that both names exist even "
                                    "when ctx.needs_input_grad skips one of them.")
            if "cannot be multiplied" in text:
                return _hinted(err, ["check the shapes: grad_output is N x M, input N x D, weight M x D.",
                                     _HINT_INPUT[1] + " " + _HINT_WEIGHT[1]])
            return err

        for which, t, req, expected in (("input", x, x_req, g._data @ w._data),
                                        ("weight", w, w_req, g._data.T @ x._data)):
            if not req:
                continue
            got = t._grad
            if got is None:
                return _check.failed(
                    title, f"backward returned None for {which}, although ctx.needs_input_grad says it needs "
                           f"a gradient{where}",
                    hint=_HINT_INPUT if which == "input" else _HINT_WEIGHT)
            if isinstance(got, Tensor) and _same(got._data, lambda: expected):
                continue
            bad = _check.check_tensor(
                title, got, Tensor(expected), f"gradient for {which}",
                f"{where}, with\n{_named('input', x.detach())}\n{_named('weight', w.detach())}\n"
                f"{_named('grad_output', g)}",
                hint=_mm_wrong_value_hint(which, got, x, w, g))
            if bad is not None:
                return bad
    x = _t(generator, (3, 2), True)
    w = _t(generator, (4, 2), True)
    try:
        gradcheck(MMFunction.apply, (x, w))
    except GradcheckError as e:
        return _check.failed(title, "gradcheck failed:\n   " + str(e).strip().replace("\n", "\n   "),
                             hint=["compare the two Jacobians: is every column wrong in the same way (how you "
                                   "use grad_output), or by a factor (the formula)?",
                                   _HINT_INPUT[1] + " " + _HINT_WEIGHT[1]])
    except Exception as e:  # noqa: BLE001  (any other error in the student's code)
        return _check.failed(title, f"gradcheck raised {type(e).__name__}: {e}")
    return _check.passed(title, f"correct gradients for input and weight on {len(_MM_CASES)} hidden random cases "
                                "(including ones where only one of them requires grad), and gradcheck passes.")


# ---------------------------------------------------------------------------- exercise 2
_TANH_SHAPES = [(5,), (2, 3), ()]
_TANH_FORMULA = ["differentiate tanh, write the result with y = tanh(x), and apply the chain rule.",
                 "d tanh(x)/dx = 1 - tanh(x)**2 = 1 - y**2, so dL/dx = grad_output * (1 - y**2)."]


@_check.exercise("Tanh")
def check_tanh_function(Tanh):
    """Exercise 2: a ``Tanh`` Function whose backward is grad_output * (1 - tanh(x)**2), and passes gradcheck."""
    title = "Tanh"
    bad = _is_function(Tanh, title, "Tanh")
    if bad is not None:
        return bad
    generator = _check.rng(2024)
    for shape in _TANH_SHAPES:
        x = _check.random_tensor(generator, shape, requires_grad=True, low=-2.5, high=2.5, dtype=np.float64)
        g = _t(generator, shape, False)
        where = f" for\n{_named('x', x.detach())}"
        expected_y = np.tanh(x._data)

        y, err = _check.call(title, Tanh.apply, x)
        if err is not None:
            return _hinted(err, "forward gets a tensor and returns a new one: y = x.tanh(), and keep what "
                                "backward needs with ctx.save_for_backward(...).")
        bad = _check.check_tensor(title, y, Tensor(expected_y), "forward output", where,
                                  hint="forward should return tanh of its input: x.tanh()")
        if bad is not None:
            return bad
        if y.grad_fn is None or type(y.grad_fn).__name__ != Tanh.__name__ + "Backward":
            return _check.failed(title, f"the output's grad_fn is {y.grad_fn!r}, expected a {Tanh.__name__}Backward "
                                        "node", hint="call the class's apply: Tanh.apply(x)")

        _, err = _check.call(title, y.backward, g)
        if err is not None:
            if "incorrect number of gradients" in err.text:
                return _hinted(err, "forward has one argument (x), so backward returns exactly one gradient.")
            if "NoneType" in err.text:
                return _hinted(err, "did forward call ctx.save_for_backward(...)? backward reads it back with "
                                    "`y, = ctx.saved_tensors` (note the comma).")
            return err
        got = x._grad
        if got is None:
            return _check.failed(title, f"backward returned None{where}",
                                 hint=_TANH_FORMULA)
        expected = g._data * (1 - expected_y ** 2)
        hint = _TANH_FORMULA
        gd = got._data
        if gd.shape == expected.shape:
            if np.allclose(gd, 1 - expected_y ** 2):
                hint = ["you returned the local derivative only: the chain rule multiplies it by grad_output "
                        "(dL/dx = dL/dy * dy/dx)."] + _TANH_FORMULA[1:]
            elif np.allclose(gd, g._data * (1 - x._data ** 2)):
                hint = ["you used x where the derivative needs tanh(x). Which tensor did forward save?",
                        "1 - tanh(x)**2, not 1 - x**2: save the output in forward (ctx.save_for_backward(y)) and "
                        "use it."]
            elif np.allclose(gd, g._data * (1 - expected_y)):
                hint = ["close: one power is missing in the derivative."] + _TANH_FORMULA[1:]
            elif np.allclose(gd, g._data * expected_y ** 2) or np.allclose(gd, -g._data * (1 - expected_y ** 2)):
                hint = ["check the sign: tanh rises everywhere, so its slope is positive (1 at x = 0)."] \
                    + _TANH_FORMULA[1:]
        bad = _check.check_tensor(title, got, Tensor(expected), "gradient",
                                  f"{where}\n{_named('grad_output', g)}", hint=hint)
        if bad is not None:
            return bad

    x = _check.random_tensor(generator, (4,), requires_grad=True, low=-2, high=2, dtype=np.float64)
    try:
        gradcheck(Tanh.apply, (x,))
    except GradcheckError as e:
        return _check.failed(title, "gradcheck failed:\n   " + str(e).strip().replace("\n", "\n   "),
                             hint=_TANH_FORMULA)
    except Exception as e:  # noqa: BLE001  (any other error in the student's code)
        return _check.failed(title, f"gradcheck raised {type(e).__name__}: {e}")
    return _check.passed(title, f"forward and backward correct on {len(_TANH_SHAPES)} hidden random inputs, "
                                "and gradcheck passes.")


# ---------------------------------------------------------------------------- prediction questions
# (the fingerprints: python -m minigrad.exercises digest QUESTION ANSWER)
check_q_needs = _check.prediction(
    "nb04-q-needs", "q_needs",
    "data does not require grad and weight does: what is out.grad_fn.needs_input_grad?",
    "1ef814ed453c4792",
    options={"a": "(True, True)", "b": "(False, True)", "c": "(True,)", "d": "(False, False)"},
    hints=["needs_input_grad has one entry per argument of forward, in order: (input, weight).",
           "an entry is True when that argument is a tensor that requires grad."],
    why="One entry per argument of forward: data needs no gradient, weight does.")

check_q_backward_calls = _check.prediction(
    "nb04-q-backward-calls", "q_backward_calls",
    "xd has 4 elements, and so does Cube's output. How many times will gradcheck call Cube's backward?",
    "20f38133f72d5605",
    hints=["gradcheck compares two Jacobians. The numerical one needs only forward; how does it get the "
           "analytical one out of backward, which returns one vector-Jacobian product per call?",
           "with grad_output one-hot at output element j, backward returns column j of the Jacobian: one call "
           "per output element."],
    why="One backward per output element, each with a one-hot grad_output: that gives one column of the Jacobian.")
