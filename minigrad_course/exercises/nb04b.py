"""Checks for notebook 04b (inside a Function): a Function with a number argument, and a Function
that saves only what its backward needs.

- ``check_scale(Scale)``: ``Scale.apply(x, factor)`` is ``x * factor`` for a Python number
  ``factor``; backward returns the gradient of ``x`` and ``None`` for the number.
- ``check_mul(Mul)``: ``Mul.apply(a, b)`` is ``a * b``; backward computes only the gradients
  ``ctx.needs_input_grad`` asks for, and forward saves only the tensors those gradients need.

Every check runs the student's Function on hidden inputs (fixed seeds) and compares with
minigrad's own operations; hints come in tiers (``hint()`` shows the next one), never a line of
the solution.
"""
import numpy as np

from minigrad.tensor import Tensor
from . import _check
from .nb04 import _at_least_two_tiers, _hinted, _is_function, _named, _prediction, error_tiers, gradcheck_step


# ---------------------------------------------------------------------------- exercise 1
SCALE_TITLE = "Scale, a Function with a number argument"
_SCALE_CASES = [((4,), -1.5), ((2, 3), 3.0), ((), 2)]   # (shape of x, the number factor)

_NUMBER_SLOT = [
    "factor is a plain Python number, not a tensor: no node can receive a gradient for it. What must "
    "backward put in its place?",
    "section 2 (The node checks what backward returns): an argument that is not a tensor must get None.",
    "backward returns one value per argument of forward, in order: the gradient of x, then None for factor.",
]
_KEEP_NUMBER = [
    "save_for_backward keeps tensors only. A plain number can be kept another way: ctx is an ordinary "
    "object.",
    "store the number as an attribute of ctx in forward (any name you like) and read the same attribute in "
    "backward, as notebook 04 did with ctx.grad_mode_in_forward.",
]
_SCALE_FORMULA = [
    "work out d(x * factor)/dx, then apply the chain rule with grad_output.",
    "d(x * factor)/dx is factor at every element of x.",
    "the chain rule multiplies that local derivative by grad_output, element by element.",
]
_SCALE_EXAMPLE = "x = minigrad.randn(3, requires_grad=True); Scale.apply(x, 2.5).sum().backward()"
_SCALE_START = ["forward gets the tensor x and the number factor and returns their product; backward turns "
                "grad_output into one value per argument of forward."] + _KEEP_NUMBER[:1]


def _scale_wrong_value_hint(got, g, x, factor):
    """Hint tiers that name the mistake when ``got`` is one of the usual wrong gradients."""
    if got.shape != x.shape:
        return _SCALE_FORMULA
    ratio = got / np.where(g == 0, 1, g)
    if np.allclose(got, g):
        return ["that is grad_output unchanged: the local derivative of x * factor is missing."] \
            + _SCALE_FORMULA[1:]
    if np.allclose(got, np.full(x.shape, float(factor))):
        return ["that is the local derivative only: multiply it by grad_output (the chain rule)."] \
            + _SCALE_FORMULA[2:] + _SCALE_FORMULA[:1]
    if np.allclose(got, g / factor):
        return ["you divided by factor: y = x * factor grows factor times as fast as x."] + _SCALE_FORMULA[1:]
    if np.allclose(got, g * x):
        return ["that is grad_output * x: the derivative of x * factor with respect to x is factor, not x."] \
            + _SCALE_FORMULA[1:]
    if ratio.size and np.allclose(ratio, ratio.reshape(-1)[0]):
        return [f"your gradient is grad_output times {ratio.reshape(-1)[0]:g}, whatever factor is: keep the factor "
                "that forward got, and use it in backward."] + _KEEP_NUMBER[1:]
    return _SCALE_FORMULA


@_check.exercise("Scale")
def check_scale(Scale):
    """Exercise 1: ``Scale.apply(x, factor)``; backward returns the gradient of x, then None."""
    return _at_least_two_tiers(_check_scale(Scale), error_tiers("", _SCALE_EXAMPLE))


def _check_scale(Scale):
    title = SCALE_TITLE
    bad = _is_function(Scale, title, "Scale")
    if bad is not None:
        return bad
    generator = _check.rng(4040)
    for shape, factor in _SCALE_CASES:
        x = _check.random_tensor(generator, shape, requires_grad=True, dtype=np.float64)
        g = _check.random_tensor(generator, shape, dtype=np.float64)
        where = f" for factor = {factor!r} and\n{_named('x', x.detach())}"

        y, err = _check.call(title, Scale.apply, x, factor)
        if err is not None:
            if "not written yet" in err.text:
                return _hinted(err, _SCALE_START)
            if "can only save" in err.text or "_data" in err.text:
                return _hinted(err, _KEEP_NUMBER)
            return _hinted(err, ["forward gets x and the number factor, and returns their product."]
                           + error_tiers(err.text, _SCALE_EXAMPLE))
        bad = _check.check_tensor(title, y, Tensor(x._data * factor), "forward output", where,
                                  hint=["forward should return x times factor.",
                                        "a tensor times a Python number is a tensor: no conversion needed."])
        if bad is not None:
            return bad

        _, err = _check.call(title, y.backward, g)
        if err is not None:
            if "not written yet" in err.text:
                return _hinted(err, _SCALE_START)
            if "incorrect number of gradients" in err.text:
                return _hinted(err, ["forward has two arguments, x and factor, so backward returns two values."]
                               + _NUMBER_SLOT)
            if "different than None" in err.text:
                return _hinted(err, _NUMBER_SLOT)
            if "has no attribute" in err.text:
                return _hinted(err, ["backward reads something forward did not keep on ctx."] + _KEEP_NUMBER)
            return _hinted(err, error_tiers(err.text, _SCALE_EXAMPLE))
        got = x._grad
        if got is None:
            return _check.failed(title, f"backward returned None for x{where}", hint=_SCALE_FORMULA)
        bad = _check.check_tensor(title, got, Tensor(g._data * factor), "gradient for x",
                                  f"{where}\n{_named('grad_output', g)}",
                                  hint=_scale_wrong_value_hint(got._data, g._data, x._data, factor))
        if bad is not None:
            return bad
    x = _check.random_tensor(generator, (3,), requires_grad=True, dtype=np.float64)
    bad = gradcheck_step(title, lambda t: Scale.apply(t, 1.7), (x,), _SCALE_FORMULA[1:], _SCALE_EXAMPLE)
    if bad is not None:
        return bad
    return _check.passed(title, f"forward and backward correct for {len(_SCALE_CASES)} hidden inputs and "
                                "factors (an int among them), None for the number, and gradcheck passes.")


# ---------------------------------------------------------------------------- exercise 2
MUL_TITLE = "Mul, saving only what backward needs"
_MUL_CASES = [
    # (what the case is, shape, a requires grad, b requires grad)
    ("both require grad", (4,), True, True),
    ("only a requires grad", (3,), True, False),
    ("only b requires grad", (2, 2), False, True),
]

_WHICH_NEEDS = [
    "for each input, ask which tensor its gradient is made of: d(a * b)/da is ..., d(a * b)/db is ...",
    "d(a * b)/da = b and d(a * b)/db = a: a's gradient needs b, and b's gradient needs a.",
    "so keep a tensor only if the gradient that needs it is wanted; ctx.needs_input_grad can be read in "
    "forward too, and save_for_backward takes None in place of a tensor.",
]
_MUL_FORMULA = [
    "apply the chain rule to each input: dL/da = grad_output times d(a * b)/da, and the same for b.",
    "d(a * b)/da = b and d(a * b)/db = a; each gradient multiplies one of them by grad_output, element by "
    "element.",
    "compute a gradient only when ctx.needs_input_grad asks for it, and return None in its place otherwise.",
]
_MUL_EXAMPLE = ("a = minigrad.randn(3, requires_grad=True); b = minigrad.randn(3); "
                "Mul.apply(a, b).sum().backward()")
_MUL_START = ["forward returns a * b and saves what backward needs; backward returns one gradient per input, "
              "None where none is wanted."] + _WHICH_NEEDS[:1]


def _holds(saved, t):
    return any(s is t for s in saved)


def _mul_backward_error(err):
    text = err.text
    if "not written yet" in text:
        return _hinted(err, _MUL_START)
    if "incorrect number of gradients" in text:
        return _hinted(err, ["forward has two arguments, a and b: backward returns two values, in that order.",
                             "return None in the place of a gradient that is not wanted."])
    if "NoneType" in text or "None" in text:
        return _hinted(err, ["backward used a saved slot that holds None: compute a gradient only when "
                             "ctx.needs_input_grad asks for it."] + _WHICH_NEEDS[1:])
    return _hinted(err, error_tiers(text, _MUL_EXAMPLE))


def _mul_wrong_value_hint(name, got, g, a, b):
    own, other = (a, b) if name == "a" else (b, a)
    if got.shape == g.shape:
        if np.allclose(got, g * own):
            return [f"that is grad_output * {name}: the gradient of {name} is made of the other input."] \
                + _MUL_FORMULA[1:]
        if np.allclose(got, other):
            return [f"that is the local derivative only: the chain rule multiplies it by grad_output."] \
                + _MUL_FORMULA[1:]
    return _MUL_FORMULA


@_check.exercise("Mul")
def check_mul(Mul):
    """Exercise 2: ``Mul.apply(a, b)`` saves only what its wanted gradients need, and computes only those."""
    return _at_least_two_tiers(_check_mul(Mul), error_tiers("", _MUL_EXAMPLE))


def _check_mul(Mul):
    title = MUL_TITLE
    bad = _is_function(Mul, title, "Mul")
    if bad is not None:
        return bad
    generator = _check.rng(4041)
    for case, shape, a_req, b_req in _MUL_CASES:
        a = _check.random_tensor(generator, shape, requires_grad=a_req, dtype=np.float64)
        b = _check.random_tensor(generator, shape, requires_grad=b_req, dtype=np.float64)
        g = _check.random_tensor(generator, shape, dtype=np.float64)
        where = f" (case: {case})"

        y, err = _check.call(title, Mul.apply, a, b)
        if err is not None:
            if "not written yet" in err.text:
                return _hinted(err, _MUL_START)
            return _hinted(err, ["forward gets a and b and returns their product; what backward needs goes on "
                                 "ctx with ctx.save_for_backward(...)."] + error_tiers(err.text, _MUL_EXAMPLE))
        bad = _check.check_tensor(title, y, Tensor(a._data * b._data), "forward output", where,
                                  hint=["forward should return a * b, element by element.",
                                        "compute the product of the two tensors forward gets, not of saved ones."])
        if bad is not None:
            return bad
        saved, err = _check.call(title, lambda: tuple(y.grad_fn.saved_tensors))
        if err is not None:
            return _hinted(err, ["the check could not read what your forward saved.",
                                 "call ctx.save_for_backward(...) once in forward, with tensors or None."])
        for name, t, needed in (("a", a, b_req), ("b", b, a_req)):
            if needed and not _holds(saved, t):
                return _check.failed(title, f"forward did not save {name}, but the gradient of "
                                            f"{'b' if name == 'a' else 'a'} needs it{where}",
                                     hint=_WHICH_NEEDS)
        for name, t, needed in (("a", a, b_req), ("b", b, a_req)):
            if not needed and _holds(saved, t):
                return _check.failed(title, f"forward saved {name}, which no wanted gradient needs{where}",
                                     hint=_WHICH_NEEDS)

        # the static backward called directly, as the node does: which gradients does it compute?
        grads, err = _check.call(title, Mul.backward, y.grad_fn, g)
        if err is None and isinstance(grads, tuple) and len(grads) == 2:
            for name, req, grad in (("a", a_req, grads[0]), ("b", b_req, grads[1])):
                if not req and grad is not None:
                    return _check.failed(title, f"backward computed a gradient for {name}, which does not require "
                                                f"grad{where}",
                                         hint=[f"ctx.needs_input_grad says which gradients are wanted; for {name} "
                                               "it is False here, so that place gets None."] + _MUL_FORMULA[2:]
                                         + _MUL_FORMULA[:1])
        _, err = _check.call(title, y.backward, g)
        if err is not None:
            return _mul_backward_error(err)
        for name, t, req, expected in (("a", a, a_req, g._data * b._data), ("b", b, b_req, g._data * a._data)):
            if not req:
                continue
            got = t._grad
            if got is None:
                return _check.failed(title, f"backward returned None for {name}, although "
                                            f"ctx.needs_input_grad asks for it{where}", hint=_MUL_FORMULA)
            bad = _check.check_tensor(title, got, Tensor(expected), f"gradient for {name}",
                                      f"{where}, with\n{_named('a', a.detach())}\n{_named('b', b.detach())}\n"
                                      f"{_named('grad_output', g)}",
                                      hint=_mul_wrong_value_hint(name, got._data, g._data, a._data, b._data))
            if bad is not None:
                return bad
    a = _check.random_tensor(generator, (3,), requires_grad=True, dtype=np.float64)
    b = _check.random_tensor(generator, (3,), requires_grad=True, dtype=np.float64)
    bad = gradcheck_step(title, Mul.apply, (a, b), _MUL_FORMULA[1:], _MUL_EXAMPLE)
    if bad is not None:
        return bad
    return _check.passed(title, f"right values and gradients in {len(_MUL_CASES)} hidden cases, forward kept only "
                                "the tensors the wanted gradients need, and gradcheck passes.")


# ---------------------------------------------------------------------------- prediction questions
# (the fingerprint: python -m minigrad_course.exercises digest QUESTION ANSWER)
check_q_mm_saves = _prediction(
    "nb04b-q-mm-saves", "q_mm_saves",
    "z = a.mm(b) where only b requires grad: what does Mm's forward save?",
    "ca5eb51898df3841",
    options={"a": "a and b", "b": "only a", "c": "only b", "d": "nothing"},
    hints=["only one gradient is wanted here, b's. Which tensor is that gradient made of?",
           "dL/db = a^T G: read the two conditions in Mm's forward (need_a, need_b) with that formula in mind."],
    why="The gradient of b is a^T G, which needs a; b's own values are not needed by any wanted gradient.",
    mistakes={"a": "Mm does not always save both inputs: each one is saved only under a condition (the `if` "
                   "inside save_for_backward's arguments).",
              "c": "a tensor is not saved for its own gradient: the gradient of a product is made of the other "
                   "factor.",
              "d": "one gradient is wanted (b's), and it needs a tensor from forward: something must be saved."})
