"""Checks for ``03_explicit_gradients.ipynb``: second derivatives with ``create_graph=True``, and a
training loop that must not let gradients pile up.

- ``check_second_derivative(second_derivative)``: ``second_derivative(f, x)`` returns ``f''(x)``
  for an elementwise ``f``; compared with the formulas on hidden functions and inputs.
- ``check_train(train)``: ``train(w, xs, ys, lr, steps)`` runs gradient descent on
  ``((w * xs - ys) ** 2).mean()``, updating ``w`` in place, and returns the list of losses;
  compared step by step with a correct loop on hidden data.
"""
import warnings

import numpy as np

from .. import no_grad
from ..tensor import Tensor
from ._check import add_hint, call, check_tensor, exercise, failed, passed, prediction, reference, rng
from .nb01 import _as_tensor


def _tiered(report, hints):
    """Add the hint tiers of the first ``(text in the message, [tiers])`` pair that matches a failed Report."""
    if report is None or report.ok:
        return report
    for pattern, tiers in hints:
        if pattern in report.text:
            for tier in tiers:
                add_hint(report, tier)
            break
    return report

# ---- exercise 1 ---------------------------------------------------------------------------------
SECOND_TITLE = "second derivative with create_graph=True"


def _sigmoid(x):
    return 1 / (1 + np.exp(-x))


# (text, f on minigrad tensors, f' and f'' on numpy arrays): the hidden functions
FUNCTIONS = [
    ("f(x) = x**3 - 2*x", lambda x: x ** 3 - 2 * x, lambda x: 3 * x ** 2 - 2, lambda x: 6 * x),
    ("f(x) = tanh(x)", lambda x: x.tanh(), lambda x: 1 - np.tanh(x) ** 2,
     lambda x: -2 * np.tanh(x) * (1 - np.tanh(x) ** 2)),
    ("f(x) = sigmoid(x)", lambda x: x.sigmoid(), lambda x: _sigmoid(x) * (1 - _sigmoid(x)),
     lambda x: _sigmoid(x) * (1 - _sigmoid(x)) * (1 - 2 * _sigmoid(x))),
    ("f(x) = exp(-x * x)", lambda x: (-x * x).exp(), lambda x: -2 * x * np.exp(-x * x),
     lambda x: (4 * x * x - 2) * np.exp(-x * x)),
]


@exercise("second_derivative")
def check_second_derivative(second_derivative):
    """``second_derivative(f, x)`` must equal the second derivative of ``f`` at every element of ``x``."""
    t = SECOND_TITLE
    g = rng(1300)
    for text, f, d1, d2 in FUNCTIONS:
        data = np.round(g.uniform(-2, 2, size=(5,)), 2)
        x = Tensor(data.copy())  # float64, no requires_grad: the function must arrange that itself
        where = f" for {text} at x = {x!r}"
        got, err = call(t, second_derivative, f, x)
        if err is not None:
            return _tiered(err, [
                ("One of the differentiated Tensors does not require grad", [
                    "x arrives without requires_grad, so there is nothing to differentiate with respect to.",
                    "make a leaf that requires grad first: x = x.detach().requires_grad_()."]),
                ("element 0 of tensors does not require grad", [
                    "there is no graph to differentiate: either x does not require grad, or the first derivative "
                    "was computed without recording how it was computed.",
                    "x arrives without requires_grad: x = x.detach().requires_grad_(). The first autograd.grad "
                    "needs create_graph=True so that its result has a graph of its own."]),
                ("implicitly created only for scalar outputs", [
                    "autograd.grad needs a scalar output here. How did notebook 02 get an elementwise derivative "
                    "from a scalar?",
                    "every f(x)[i] depends only on x[i], so differentiating f(x).sum() gives f'(x) elementwise; "
                    "do the same with the derivative."]),
            ])
        got = _as_tensor(got)
        expected = Tensor(d2(data))
        hint = ["differentiate twice, and keep the graph of the first derivative so that it can be "
                "differentiated again.",
                "d1, = autograd.grad(f(x).sum(), x, create_graph=True), then d2, = autograd.grad(d1.sum(), x)."]
        if isinstance(got, Tensor) and tuple(got.shape) == tuple(expected.shape):
            values = got._data.astype(np.float64)
            if np.allclose(values, d1(data), atol=1e-6):
                hint = ["that is f'(x), the first derivative: differentiate it once more."] + hint
            elif np.allclose(values, f(Tensor(data))._data, atol=1e-6):
                hint = ["that is f(x) itself: nothing was differentiated."] + hint
        bad = check_tensor(t, got, expected, "second derivative", where, hint=hint, atol=1e-6, rtol=1e-5)
        if bad is not None:
            return bad
    return passed(t, f"correct for {len(FUNCTIONS)} hidden functions ({', '.join(f[0][7:] for f in FUNCTIONS)}).")


# ---- exercise 2 ---------------------------------------------------------------------------------
TRAIN_TITLE = "a training loop without piled-up gradients"


@reference
def reference_train(w, xs, ys, lr, steps, zero=True):
    """The loop of the notebook, fixed (``zero=True``) or with the bug (``zero=False``)."""
    losses = []
    for _ in range(steps):
        if zero:
            w.grad = None
        loss = ((w * xs - ys) ** 2).mean()
        loss.backward()
        with no_grad():
            w -= lr * w.grad
        losses.append(loss.item())
    return losses


def _train_data():
    g = rng(1301)
    xs = Tensor(np.round(g.uniform(-2, 2, size=(8,)), 2).astype(np.float32))
    ys = Tensor((1.5 * xs._data + g.normal(0, 0.1, size=8)).astype(np.float32))
    return xs, ys


def _fmt(v):
    """A loss rounded to 6 significant digits, shown as a plain number in the feedback."""
    return float(f"{v:.6g}")


@exercise("train")
def check_train(train):
    """Run ``train`` and a correct loop side by side on hidden data; compare every loss and the final w."""
    t = TRAIN_TITLE
    xs, ys = _train_data()
    lr, steps = 0.05, 12
    good_w = Tensor(np.zeros((), np.float32), requires_grad=True)
    good = reference_train(good_w, xs, ys, lr, steps)
    bad_w = Tensor(np.zeros((), np.float32), requires_grad=True)
    buggy = reference_train(bad_w, xs, ys, lr, steps, zero=False)

    w = Tensor(np.zeros((), np.float32), requires_grad=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # a non-leaf .grad warning is reported below instead
        got, err = call(t, train, w, xs, ys, lr, steps)
    if err is not None:
        return _tiered(err, [
            ("NoneType", [
                "w.grad is None where you use it: either it was reset after backward() instead of before, "
                "or w stopped being a leaf (w = w - ... makes a new tensor).",
                "reset the gradient at the start of each step and update w in place inside "
                "`with minigrad.no_grad():`."]),
            ("a leaf Variable that requires grad is being used in an in-place operation", [
                "the update itself is being recorded, and autograd refuses to change a leaf in place while it does.",
                "update w inside `with minigrad.no_grad():` so that the step itself is not recorded."]),
        ])
    if isinstance(got, tuple):
        got = list(got)
    if not isinstance(got, list):
        return failed(t, f"train should return the list of losses, got {type(got).__name__}",
                      hint="append loss.item() to a list at every step and return the list.")
    if len(got) != steps:
        return failed(t, f"train should return one loss per step ({steps} steps), got {len(got)} losses",
                      hint="append loss.item() once in every iteration of the loop.")
    try:
        values = [float(v) for v in got]
    except (TypeError, ValueError, RuntimeError):
        return failed(t, "the losses should be numbers", got=got[:3],
                      hint="append loss.item() (a Python float) rather than the tensor.")
    for i, (v, e) in enumerate(zip(values, good)):
        if not np.isclose(v, e, rtol=1e-4, atol=1e-6):
            if i > 0 and np.allclose(values, buggy, rtol=1e-4, atol=1e-6):
                hint = ["these are exactly the losses of the buggy loop. What is in w.grad at step 2, before "
                        "backward() runs?",
                        "each backward() adds its gradient to what is already in w.grad, so from step 1 on w moves "
                        "by the sum of all the gradients so far (section 3).",
                        "reset it every step, before backward(): w.grad = None (or w.grad.zero_())."]
            elif i == 0:
                hint = ("the very first loss already differs, before any update: compute "
                        "loss = ((w * xs - ys) ** 2).mean() with the w, xs and ys you were given.")
            else:
                hint = ["the losses drift apart from a correct loop's after a few steps: look at what happens "
                        "to w.grad from one step to the next.",
                        "reset the gradient once per step before backward(), then update w -= lr * w.grad under "
                        "no_grad(), with the lr you were given."]
            return failed(t, f"wrong loss at step {i} (lr = {lr}, {steps} steps, w starting at 0)",
                          expected=_fmt(e), got=_fmt(v), hint=hint)
    if not w.is_leaf or not np.isclose(w.item(), good_w.item(), rtol=1e-4, atol=1e-6):
        return failed(t, "the losses are right but the w that was passed in did not end where it should",
                      expected=_fmt(good_w.item()), got=_fmt(w.item()),
                      hint="update the w you were given in place (w -= lr * w.grad inside no_grad()), "
                           "instead of making a new tensor.")
    return passed(t, f"all {steps} losses match a correct loop (the buggy loop's losses part from these at "
                     f"step 2 and end at {_fmt(buggy[-1])} instead of {_fmt(good[-1])}).")


# ---- prediction questions -----------------------------------------------------------------------
# (the fingerprints: python -m minigrad.exercises digest QUESTION ANSWER)
check_q_retain = prediction(
    "nb03-q-retain", "q_retain",
    "After loss.backward(retain_graph=True), which of the two weights have a .grad?",
    "8d4deeb04b878b3b",
    options={"a": "only w1", "b": "only w2", "c": "both w1 and w2",
             "d": "neither: with retain_graph=True, backward only keeps the graph"},
    hints=["what does retain_graph keep, and when does it matter: during this backward, or after it?",
           "retain_graph decides whether the saved tensors survive the backward pass (section 4). Which leaves "
           "a backward reaches does not depend on it."],
    why="The flag only keeps the saved tensors for a later pass; backward still computes every gradient.")

check_q_accumulate = prediction(
    "nb03-q-accumulate", "q_accumulate",
    "After three backward() calls on three new graphs of y = x * x at x = 2, what is x.grad?",
    "802da22c98a8c84e",
    hints=["each backward() computes dy/dx = 4 for its own graph. Where does that 4 go: into a fresh .grad, "
           "or into the one that is already there?",
           "AccumulateGrad adds into .grad; nothing resets it between the calls."],
    why="Each backward adds its 4 to what .grad already holds: 4, 8, 12.")
