"""Checks for notebook 04 (custom Functions): ``MMFunction.backward`` and a ``Tanh`` Function.

Every check runs the student's Function on hidden random inputs (float64, fixed seeds) and
compares with minigrad's own ops, so an answer hard-coded for the notebook's example fails.
Every failure names what is wrong and gives hint tiers: the idea, where to look, a partial step;
never a line of the solution.
"""
import numpy as np

from minigrad.autograd import Function, GradcheckError, gradcheck
from minigrad.tensor import Tensor
from . import _check


def _hinted(report, hint):
    """Add hint tiers (one string, or a list from a nudge to a partial step) to a failed Report that
    has none yet (e.g. one made by ``_check.call``)."""
    if report is None or report.ok or not hint or "Hint:" in report.text:
        return report
    for tier in [hint] if isinstance(hint, str) else hint:
        _check.add_hint(report, tier)
    return report


def _tiers(report):
    return ("   Hint: " in report.text) + len(report.more)


def _at_least_two_tiers(report, fallback):
    """A failed Report keeps its own hints, and gets tiers from ``fallback`` until it has two."""
    if report is None or report.ok:
        return report
    for tier in fallback[_tiers(report):]:
        if _tiers(report) >= 2:
            break
        _check.add_hint(report, tier)
    return report


def _is_function(cls, title, name):
    if not (isinstance(cls, type) and issubclass(cls, Function)):
        return _check.failed(title, f"pass the class itself: {name} should be a subclass of "
                                    f"minigrad.autograd.Function, got {cls!r}",
                             hint=[f"the check reads the name {name}: it must be the class that your "
                                   f"`class {name}(Function):` cell defines.",
                                   f"did a later cell give {name} another value (an instance, {name}.apply, a "
                                   "function)? Run the exercise cell again, then the check."])
    return None


def _named(name, t):
    """``   name = tensor(...)`` with the continuation lines lined up under the value."""
    prefix = f"   {name} = "
    return prefix + repr(t).replace("\n", "\n" + " " * len(prefix))


def _t(generator, shape, requires_grad):
    return _check.random_tensor(generator, shape, requires_grad=requires_grad, dtype=np.float64)


def error_tiers(text, example):
    """Hint tiers for an error the student's backward raised that no rule below names."""
    if "'tuple' object" in text or "of type 'tuple'" in text or "and 'tuple'" in text:
        return ["ctx.saved_tensors is a tuple of everything forward saved, not a tensor: take the tensors "
                "out of it.",
                "unpack it into one name per saved tensor, in the order forward passed them to "
                "save_for_backward (a single name needs a trailing comma)."]
    if "0-d" in text:
        return ["your backward fails on a 0-d tensor (a single number): it works element by element or row by "
                "row, and a 0-d tensor has neither.",
                "write the gradient with whole-tensor operations (*, -, .mm, ...): they work for every shape."]
    return ["the error comes from the line of your code named above: check what each name holds there.",
            f"run your Function by hand in a new cell ({example}) to see the whole traceback."]


def gradcheck_failed(title, error, formula):
    """A failed Report for a ``GradcheckError``: which of gradcheck's checks failed, and what to look at."""
    text = str(error)
    if "not reentrant" in text:
        tiers = ["gradcheck ran your backward twice with the same grad_output and got different numbers: "
                 "something in it changes between calls.",
                 "look for something your backward keeps from one call to the next (on ctx, on the class, in "
                 "a global), or for random numbers.",
                 "compute each gradient from the saved tensors and grad_output only, the same way every time."]
    elif "not multiplied by grad_output" in text:
        tiers = ["gradcheck called your backward with grad_output all zeros and got a gradient that is not "
                 "zero: every term of a gradient must be multiplied by grad_output (the chain rule).",
                 "look for a term added without grad_output, or for ones used in place of grad_output."]
    elif "undefined" in text:
        tiers = ["gradcheck called backward with no gradient for the output (your backward gets zeros then), "
                 "and your backward did not give zeros (or None).",
                 "with grad_output all zeros, every gradient your backward returns must be zero."]
    else:
        tiers = ["compare the two Jacobians: is every column wrong in the same way (how you use grad_output), "
                 "or by a factor (the formula)?"] + list(formula)
    shown = text.split("\n\nNOTE:")[0].strip()  # (PyTorch's note after it is for authors of PyTorch's own ops)
    return _check.failed(title, "gradcheck failed:\n   " + shown.replace("\n", "\n   "), hint=tiers)


def gradcheck_step(title, fn, inputs, formula, example):
    """``gradcheck(fn, inputs)`` as a check step: None when it passes, else a failed Report."""
    try:
        gradcheck(fn, inputs)
    except GradcheckError as e:
        return gradcheck_failed(title, e, formula)
    except Exception as e:  # noqa: BLE001  (any other error in the student's code)
        return _check.failed(title, f"gradcheck raised {type(e).__name__}: {e}", hint=error_tiers(str(e), example))
    return None


def _prediction(question, answer, ask, fingerprint, options=None, hints=(), why="", mistakes=None):
    """``_check.prediction``, with a diagnosis of its own for each common wrong answer (``mistakes``:
    the wrong answer -> the tier that names its mistake, shown before the usual hints)."""
    plain = _check.prediction(question, answer, ask, fingerprint, options=options, hints=hints, why=why)
    mistakes = {_check._normal(k): v for k, v in (mistakes or {}).items()}

    @_check.exercise(answer)
    def check_prediction(given):
        report = plain.__wrapped__(given)
        try:
            mistake = mistakes.get(_check._normal(given))
        except (TypeError, ValueError):
            mistake = None
        if report.ok or mistake is None:
            return report
        return _check.failed(question, f"{given!r} is not it. {ask}", hint=[mistake] + list(hints))
    check_prediction.__doc__ = ask
    return check_prediction


# ---------------------------------------------------------------------------- exercise 1
_MM_CASES = [
    # (what the case is, input shape, weight shape, input requires grad, weight requires grad)
    ("input (4x3), weight (2x3), both require grad", (4, 3), (2, 3), True, True),
    ("input (3x3), weight (3x3): square, so a wrong transpose is not caught by the shapes", (3, 3), (3, 3),
     True, True),
    ("input (5x2) without grad, weight (3x2) with grad -- the usual case in a model", (5, 2), (3, 2), False, True),
    ("input (2x4) with grad, weight (3x4) without grad", (2, 4), (3, 4), True, False),
]

# hint tiers: the idea, where to look, a partial step (never a line of the solution)
_HINT_INPUT = ["the gradient for input has input's shape, N x D. grad_output is N x M and weight is M x D: which "
               "product of the two has that shape?",
               "look at the first sum of section 3, dL/dx_ik = sum_j G_ij W_jk: a sum over the index that G and "
               "W share is one matrix product.",
               "sum_j G_ij W_jk is entry (i, k) of the product G W, (N x M) times (M x D): no transpose "
               "needed."]
_HINT_WEIGHT = ["the gradient for weight has weight's shape, M x D. grad_output is N x M and input is N x D: "
                "which product of the two, with one of them transposed, has that shape?",
                "look at the second sum of section 3, dL/dW_jk = sum_i G_ij x_ik: the index summed over, i, "
                "comes first in both G and x, so one of them has to be transposed.",
                "sum_i G_ij x_ik is entry (j, k) of G^T x, (M x N) times (N x D)."]
_MM_EXAMPLE = ("x = minigrad.randn(3, 2, requires_grad=True); w = minigrad.randn(4, 2, requires_grad=True); "
               "MMFunction.apply(x, w).backward(minigrad.randn(3, 4))")
_MM_START = ["start from the two sums of section 3 (The gradients): each is one matrix product of grad_output "
             "with weight or with input.",
             "each gradient has the shape of its input: input's N x D, weight's M x D; ctx.needs_input_grad says "
             "which of the two are wanted."]


def _same(d, make):
    """Is the array ``d`` equal to ``make()``? (False when the formula does not even fit the shapes.)"""
    try:
        e = make()
    except ValueError:
        return False
    return d.shape == e.shape and np.allclose(d, e)


def _mm_wrong_value_hint(which, got, x, w, g):
    """Hint tiers that name the mistake when ``got`` is one of the usual wrong formulas."""
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
        if _same(d, lambda: gd.T @ xd):
            return ["that is the weight's gradient: backward returns the gradients in the order of forward's "
                    "arguments, input first."] + _HINT_INPUT[1:]
        return _HINT_INPUT
    if _same(d, lambda: xd.T @ gd):
        return ["that is the gradient of weight.t() (input^T G): transpose it back."] + _HINT_WEIGHT[1:]
    if _same(d, lambda: ones.T @ xd):
        return ["that is the gradient for grad_output = all ones (a .sum() loss): use the grad_output you are "
                "given."] + _HINT_WEIGHT[1:]
    if _same(d, lambda: gd @ wd):
        return ["that is the input's gradient: backward returns the gradients in the order of forward's "
                "arguments, weight second."] + _HINT_WEIGHT[1:]
    return _HINT_WEIGHT


def _mm_backward_error(err):
    """Hint tiers for an error raised while backward ran."""
    text = err.text
    if "not written yet" in text:
        return _hinted(err, _MM_START)
    if "incorrect number of gradients" in text:
        return _hinted(err, ["backward returns one value per argument of forward (input, weight), in that "
                             "order, None for one that is not wanted.",
                             "a single value is one gradient: return the two values separated by a comma."])
    if "invalid gradient at index 0" in text:
        return _hinted(err, ["the first gradient is for input and must have input's shape."] + _HINT_INPUT)
    if "invalid gradient at index 1" in text:
        return _hinted(err, ["the second gradient is for weight and must have weight's shape."] + _HINT_WEIGHT)
    if "UnboundLocalError" in text or "referenced before assignment" in text:
        return _hinted(err, ["a name is returned that was never set: when ctx.needs_input_grad skips an "
                             "`if`, the gradient inside it is never assigned.",
                             "give both gradients the value None before the two `if`s, so that both names "
                             "exist whatever needs_input_grad says."])
    if "cannot be multiplied" in text:
        return _hinted(err, ["check the shapes: grad_output is N x M, input N x D, weight M x D.",
                             _HINT_INPUT[2] + " " + _HINT_WEIGHT[2]])
    return _hinted(err, error_tiers(text, _MM_EXAMPLE))


@_check.exercise("MMFunction")
def check_mm_backward(MMFunction):
    """Exercise 1: ``MMFunction.backward`` returns G @ weight and G^T @ input, each when it is wanted."""
    return _at_least_two_tiers(_check_mm_backward(MMFunction), error_tiers("", _MM_EXAMPLE))


def _check_mm_backward(MMFunction):
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
            return _hinted(err, ["the forward was given: it returns input.mm(weight.t()). Did something "
                                 "change it?", "copy the forward from section 3 back into the exercise cell."])
        bad = _check.check_tensor(title, y, Tensor(x._data @ w._data.T), "forward output", where,
                                  hint=["keep the given forward: it returns input.mm(weight.t()).",
                                        "copy the forward from section 3 back into the exercise cell."])
        if bad is not None:
            return bad

        _, err = _check.call(title, y.backward, g)
        if err is not None:
            return _mm_backward_error(err)

        for which, t, req, expected in (("input", x, x_req, g._data @ w._data),
                                        ("weight", w, w_req, g._data.T @ x._data)):
            if not req:
                continue
            got = t._grad
            if got is None:
                return _check.failed(
                    title, f"backward returned None for {which}, although ctx.needs_input_grad says it needs "
                           f"a gradient{where}",
                    hint=[f"ctx.needs_input_grad[{0 if which == 'input' else 1}] is True here: is the `if` for "
                          f"{which}'s gradient reading the right entry, and is its gradient returned in the "
                          "right place?"] + (_HINT_INPUT if which == "input" else _HINT_WEIGHT)[1:])
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
    bad = gradcheck_step(title, MMFunction.apply, (x, w), [_HINT_INPUT[2] + " " + _HINT_WEIGHT[2]], _MM_EXAMPLE)
    if bad is not None:
        return bad
    return _check.passed(title, f"correct gradients for input and weight on {len(_MM_CASES)} hidden random cases "
                                "(including ones where only one of them requires grad), and gradcheck passes.")


# ---------------------------------------------------------------------------- exercise 2
_TANH_SHAPES = [(5,), (2, 3), ()]
_TANH_FORMULA = ["differentiate tanh, write the result with y = tanh(x), and apply the chain rule.",
                 "d tanh(x)/dx = 1 - tanh(x)**2: written with the output y, that is 1 minus y squared.",
                 "the chain rule multiplies that local derivative by grad_output, element by element."]
_TANH_EXAMPLE = "x = minigrad.randn(3, requires_grad=True); Tanh.apply(x).sum().backward()"
_TANH_START = ["forward computes y = tanh(x) and keeps what backward needs on ctx; backward turns grad_output "
               "into the gradient of x.",
               "section 1 (Cube) has both methods: save with ctx.save_for_backward in forward, read back with "
               "ctx.saved_tensors in backward."]


def _tanh_wrong_value_hint(gd, g, x, y):
    if gd.shape != y.shape:
        return _TANH_FORMULA
    if np.allclose(gd, 1 - y ** 2):
        return ["you returned the local derivative only: the chain rule multiplies it by grad_output "
                "(dL/dx = dL/dy * dy/dx)."] + _TANH_FORMULA[1:]
    if np.allclose(gd, g * (1 - x ** 2)):
        return ["you used x where the derivative needs tanh(x). Which tensor did forward save?",
                "1 - tanh(x)**2, not 1 - x**2: save the output in forward, not the input, and build the "
                "derivative from it."]
    if np.allclose(gd, g * (1 - y)):
        return ["close: one power is missing in the derivative."] + _TANH_FORMULA[1:]
    if np.allclose(gd, g * y ** 2) or np.allclose(gd, -g * (1 - y ** 2)):
        return ["check the sign: tanh rises everywhere, so its slope is positive (1 at x = 0)."] \
            + _TANH_FORMULA[1:]
    return _TANH_FORMULA


@_check.exercise("Tanh")
def check_tanh_function(Tanh):
    """Exercise 2: a ``Tanh`` Function whose backward is grad_output * (1 - tanh(x)**2), and passes gradcheck."""
    return _at_least_two_tiers(_check_tanh_function(Tanh), error_tiers("", _TANH_EXAMPLE))


def _check_tanh_function(Tanh):
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
            if "not written yet" in err.text:
                return _hinted(err, _TANH_START)
            return _hinted(err, ["forward gets a tensor and returns a new one, tanh of it; what backward needs "
                                 "goes on ctx with ctx.save_for_backward(...)."] + error_tiers(err.text,
                                                                                               _TANH_EXAMPLE))
        bad = _check.check_tensor(title, y, Tensor(expected_y), "forward output", where,
                                  hint=["forward should return tanh of its input.",
                                        "the exercise's first bullet says how to compute it; return that "
                                        "tensor, not x or another one."])
        if bad is not None:
            return bad
        if y.grad_fn is None or type(y.grad_fn).__name__ != Tanh.__name__ + "Backward":
            return _check.failed(title, f"the output's grad_fn is {y.grad_fn!r}, expected a {Tanh.__name__}Backward "
                                        "node",
                                 hint=["the check calls Tanh.apply(x): its output's node is made by apply.",
                                       "return a tensor computed from x in forward, not x itself or a tensor "
                                       "made elsewhere."])

        _, err = _check.call(title, y.backward, g)
        if err is not None:
            if "not written yet" in err.text:
                return _hinted(err, _TANH_START)
            if "incorrect number of gradients" in err.text:
                return _hinted(err, ["forward has one argument (x), so backward returns exactly one gradient.",
                                     "return the gradient of x alone, not a tuple with more values."])
            if "NoneType" in err.text:
                return _hinted(err, ["backward found None where it expected a tensor: did forward save what "
                                     "backward reads?",
                                     "ctx.saved_tensors holds what forward passed to ctx.save_for_backward, in "
                                     "that order; it is a tuple, even with one tensor in it."])
            return _hinted(err, error_tiers(err.text, _TANH_EXAMPLE))
        got = x._grad
        if got is None:
            return _check.failed(title, f"backward returned None{where}", hint=_TANH_FORMULA)
        bad = _check.check_tensor(title, got, Tensor(g._data * (1 - expected_y ** 2)), "gradient",
                                  f"{where}\n{_named('grad_output', g)}",
                                  hint=_tanh_wrong_value_hint(got._data, g._data, x._data, expected_y))
        if bad is not None:
            return bad

    x = _check.random_tensor(generator, (4,), requires_grad=True, low=-2, high=2, dtype=np.float64)
    bad = gradcheck_step(title, Tanh.apply, (x,), _TANH_FORMULA[1:], _TANH_EXAMPLE)
    if bad is not None:
        return bad
    return _check.passed(title, f"forward and backward correct on {len(_TANH_SHAPES)} hidden random inputs, "
                                "and gradcheck passes.")


# ---------------------------------------------------------------------------- prediction questions
# (the fingerprints: python -m minigrad_course.exercises digest QUESTION ANSWER)
check_q_needs = _prediction(
    "nb04-q-needs", "q_needs",
    "data does not require grad and weight does: what is out.grad_fn.needs_input_grad?",
    "1ef814ed453c4792",
    options={"a": "(True, True)", "b": "(False, True)", "c": "(True,)", "d": "(False, False)"},
    hints=["needs_input_grad has one entry per argument of forward, in order: (input, weight).",
           "an entry is True when that argument is a tensor that requires grad."],
    why="One entry per argument of forward: data needs no gradient, weight does.",
    mistakes={"a": "being a tensor is not enough: an entry says whether that argument needs a gradient.",
              "c": "needs_input_grad does not list only the inputs that need a gradient: it has an entry for "
                   "every argument of forward.",
              "d": "look at how weight was made: with requires_grad=True."})

check_q_backward_calls = _prediction(
    "nb04-q-backward-calls", "q_backward_calls",
    "xd has 4 elements, and so does Cube's output. How many times will gradcheck call Cube's backward?",
    "f94393c2417835b7",
    hints=["one backward call gives one column of the analytical Jacobian: how many columns does it have, and "
           "how many times does gradcheck build it?",
           "add the calls of the two zero checks that come after the comparison (all-zero grad_output, and no "
           "gradient at all): one backward each."],
    why="4 calls for the analytical Jacobian (one per output element, one-hot grad_output), twice to check that "
        "backward gives the same numbers again, then one with grad_output all zeros and one with no gradient.",
    mistakes={4: "that is the analytical Jacobian built once: gradcheck builds it twice, and calls backward "
                 "for two more checks.",
              8: "the Jacobian twice, yes; but the two zero checks after it call backward too.",
              9: "one zero check is missing: gradcheck calls backward with grad_output all zeros, and again with "
                 "no gradient at all.",
              16: "backward runs once per output element (a one-hot grad_output gives a whole column), not once "
                  "per (input, output) pair.",
              0: "gradcheck needs backward for the analytical Jacobian: the numerical one alone would check "
                 "nothing."})
