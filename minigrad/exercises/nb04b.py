"""Checks for notebook 04b (inside a Function): a Function with a number argument, and a Function
that saves only what its backward needs.

- ``check_scale(Scale)``: ``Scale.apply(x, factor)`` is ``x * factor`` for a Python number
  ``factor``; backward returns the gradient of ``x`` and ``None`` for the number.
- ``check_mul(Mul)``: ``Mul.apply(a, b)`` is ``a * b``; backward computes only the gradients
  ``ctx.needs_input_grad`` asks for, and forward saves only the tensors those gradients need.

Every check runs the student's Function on hidden inputs (fixed seeds) and compares with
minigrad's own operations; hints come in tiers (``hint()`` shows the next one).
"""
import numpy as np

from ..autograd import GradcheckError, gradcheck
from ..tensor import Tensor
from . import _check
from .nb04 import _hinted, _is_function, _named


def _gradcheck(title, fn, inputs, hints):
    """``gradcheck(fn, inputs)`` as a check step: None when it passes, else a failed Report."""
    try:
        gradcheck(fn, inputs)
    except GradcheckError as e:
        return _check.failed(title, "gradcheck failed:\n   " + str(e).strip().replace("\n", "\n   "), hint=hints)
    except Exception as e:  # noqa: BLE001  (any other error in the student's code)
        return _check.failed(title, f"gradcheck raised {type(e).__name__}: {e}")
    return None


# ---------------------------------------------------------------------------- exercise 1
SCALE_TITLE = "Scale, a Function with a number argument"
_SCALE_CASES = [((4,), -1.5), ((2, 3), 3.0), ((), 2)]   # (shape of x, the number factor)

_NUMBER_SLOT = [
    "factor is a plain Python number, not a tensor: no node can receive a gradient for it. What must "
    "backward put in its place?",
    "backward returns one value per argument of forward, in order: the gradient of x, then None for factor.",
]
_KEEP_NUMBER = [
    "save_for_backward keeps tensors only. A plain number can be kept another way: ctx is an ordinary "
    "object.",
    "store it as an attribute in forward (ctx.factor = factor) and read ctx.factor in backward.",
]
_SCALE_FORMULA = [
    "work out d(x * factor)/dx, then apply the chain rule with grad_output.",
    "d(x * factor)/dx = factor at every element, so dL/dx = grad_output * factor.",
]


@_check.exercise("Scale")
def check_scale(Scale):
    """Exercise 1: ``Scale.apply(x, factor)``; backward returns ``grad_output * factor, None``."""
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
            if "can only save" in err.text or "_data" in err.text:
                return _hinted(err, _KEEP_NUMBER)
            return _hinted(err, "forward gets x and the number factor, and returns x * factor.")
        bad = _check.check_tensor(title, y, Tensor(x._data * factor), "forward output", where,
                                  hint="forward should return x * factor.")
        if bad is not None:
            return bad

        _, err = _check.call(title, y.backward, g)
        if err is not None:
            if "incorrect number of gradients" in err.text:
                return _hinted(err, ["forward has two arguments, x and factor, so backward returns two values."]
                               + _NUMBER_SLOT)
            if "different than None" in err.text:
                return _hinted(err, _NUMBER_SLOT)
            if "has no attribute" in err.text:
                return _hinted(err, ["backward reads something forward did not keep on ctx."] + _KEEP_NUMBER)
            return err
        got = x._grad
        if got is None:
            return _check.failed(title, f"backward returned None for x{where}", hint=_SCALE_FORMULA)
        hint = _SCALE_FORMULA
        if got.shape == x.shape:
            if np.allclose(got._data, g._data):
                hint = ["that is grad_output unchanged: the local derivative of x * factor is missing."] \
                    + _SCALE_FORMULA[1:]
            elif np.allclose(got._data, np.full(shape, float(factor))):
                hint = ["that is the local derivative only: multiply it by grad_output (the chain rule)."] \
                    + _SCALE_FORMULA[1:]
            elif np.allclose(got._data, g._data / factor):
                hint = ["you divided by factor: y = x * factor grows factor times as fast as x."] \
                    + _SCALE_FORMULA[1:]
        bad = _check.check_tensor(title, got, Tensor(g._data * factor), "gradient for x",
                                  f"{where}\n{_named('grad_output', g)}", hint=hint)
        if bad is not None:
            return bad
    x = _check.random_tensor(generator, (3,), requires_grad=True, dtype=np.float64)
    bad = _gradcheck(title, lambda t: Scale.apply(t, 1.7), (x,), _SCALE_FORMULA)
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
    "d(a * b)/da = b and d(a * b)/db = a: a's gradient needs b, and b's gradient needs a. Keep a tensor only "
    "if the gradient that needs it is wanted (ctx.needs_input_grad works in forward too).",
    "ctx.save_for_backward(a if ctx.needs_input_grad[1] else None, b if ctx.needs_input_grad[0] else None)",
]
_MUL_FORMULA = [
    "apply the chain rule to each input: dL/da = grad_output * (d(a * b)/da), and the same for b.",
    "dL/da = grad_output * b and dL/db = grad_output * a, each only when ctx.needs_input_grad asks for it.",
]


def _holds(saved, t):
    return any(s is t for s in saved)


@_check.exercise("Mul")
def check_mul(Mul):
    """Exercise 2: ``Mul.apply(a, b)`` saves only what its wanted gradients need, and computes only those."""
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
            return _hinted(err, "forward gets a and b and returns a * b; keep what backward needs with "
                                "ctx.save_for_backward(...).")
        bad = _check.check_tensor(title, y, Tensor(a._data * b._data), "forward output", where,
                                  hint="forward should return a * b.")
        if bad is not None:
            return bad
        saved, err = _check.call(title, lambda: tuple(y.grad_fn.saved_tensors))
        if err is not None:
            return err
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
                                               "it is False here, so that place gets None."] + _MUL_FORMULA[1:])
        _, err = _check.call(title, y.backward, g)
        if err is not None:
            if "incorrect number of gradients" in err.text:
                return _hinted(err, "return one gradient per argument of forward: `return grad_a, grad_b` "
                                    "(None for one that is not wanted).")
            if "NoneType" in err.text or "None" in err.text:
                return _hinted(err, ["backward used a saved slot that holds None: compute a gradient only when "
                                     "ctx.needs_input_grad asks for it."] + _WHICH_NEEDS[1:])
            return err
        for name, t, req, expected in (("a", a, a_req, g._data * b._data), ("b", b, b_req, g._data * a._data)):
            if not req:
                continue
            got = t._grad
            if got is None:
                return _check.failed(title, f"backward returned None for {name}, although "
                                            f"ctx.needs_input_grad asks for it{where}", hint=_MUL_FORMULA)
            hint = _MUL_FORMULA
            own = (a if name == "a" else b)._data
            if got.shape == expected.shape and np.allclose(got._data, g._data * own):
                hint = [f"that is grad_output * {name}: the gradient of {name} is made of the other input."] \
                    + _MUL_FORMULA[1:]
            bad = _check.check_tensor(title, got, Tensor(expected), f"gradient for {name}",
                                      f"{where}, with\n{_named('a', a.detach())}\n{_named('b', b.detach())}\n"
                                      f"{_named('grad_output', g)}", hint=hint)
            if bad is not None:
                return bad
    a = _check.random_tensor(generator, (3,), requires_grad=True, dtype=np.float64)
    b = _check.random_tensor(generator, (3,), requires_grad=True, dtype=np.float64)
    bad = _gradcheck(title, Mul.apply, (a, b), _MUL_FORMULA)
    if bad is not None:
        return bad
    return _check.passed(title, f"right values and gradients in {len(_MUL_CASES)} hidden cases, forward kept only "
                                "the tensors the wanted gradients need, and gradcheck passes.")


# ---------------------------------------------------------------------------- prediction questions
# (the fingerprint: python -m minigrad.exercises digest QUESTION ANSWER)
check_q_mm_saves = _check.prediction(
    "nb04b-q-mm-saves", "q_mm_saves",
    "z = a.mm(b) where only b requires grad: what does Mm's forward save?",
    "ca5eb51898df3841",
    options={"a": "a and b", "b": "only a", "c": "only b", "d": "nothing"},
    hints=["only one gradient is wanted here, b's. Which tensor is that gradient made of?",
           "dL/db = a^T G: it needs a, and nothing needs b."],
    why="The gradient of b is a^T G, which needs a; b's own values are not needed by any wanted gradient.")
