"""Checks for ``03_explicit_gradients.ipynb``: second derivatives with ``create_graph=True``, and a
training loop that must not let gradients pile up.

- ``check_second_derivative(second_derivative)``: ``second_derivative(f, x)`` returns ``f''(x)``
  for an elementwise ``f``, without changing ``x``; compared with the formulas on hidden functions
  and inputs.
- ``check_train(train)``: ``train(w, xs, ys, lr, steps)`` runs gradient descent on
  ``((w * xs - ys) ** 2).mean()``, updating ``w`` in place, and returns the list of losses;
  compared step by step with a correct loop on two hidden runs (different data, ``lr``, ``steps``
  and starting ``w``, so an answer that ignores an argument fails).
- ``check_q_accumulate``, ``check_q_retain``: the notebook's prediction questions.

Every failure gives at least two hint tiers (the idea, then where to look, then a partial step);
none of them is a line of the notebook's solution.
"""
import warnings

import numpy as np

from minigrad import no_grad
from minigrad.tensor import Tensor
from ._check import call, check_tensor, exercise, failed, passed, prediction, reference, rng
from .nb01 import _as_tensor
from .nb02 import _raised


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

SECOND_TIERS = [
    "differentiate twice, and keep the graph of the first derivative so that it can be differentiated again.",
    "section 7 does exactly this, for y = x ** 3 and for tanh on 121 points: autograd.grad twice, the first "
    "time with create_graph=True, each time on a sum (every f(x)[i] depends on x[i] only).",
    "x arrives without requires_grad: first make a new leaf with x's numbers that requires grad (x itself must "
    "not change), then apply f to that leaf.",
]


def _second_diagnosis(values, data, index):
    """The hint tiers for a wrong f''(x) of the right shape, for ``FUNCTIONS[index]`` at ``data``."""
    text, f, d1, d2 = FUNCTIONS[index]
    if np.allclose(values, d1(data), atol=1e-6):
        return ["that is f'(x), the first derivative: differentiate it once more."] + SECOND_TIERS
    if np.allclose(values, d1(data) + d2(data), atol=1e-6):
        return ["that is f'(x) + f''(x): the second backward() added f'' into the .grad that still held f' "
                "(gradients accumulate, section 3). The task asks for autograd.grad, which returns the gradient "
                "instead of adding it to .grad."] + SECOND_TIERS
    if np.allclose(values, f(Tensor(data))._data, atol=1e-6):
        return ["that is f(x) itself: nothing was differentiated."] + SECOND_TIERS
    for other, (other_text, _, _, other_d2) in enumerate(FUNCTIONS):
        if other != index and np.allclose(values, other_d2(data), atol=1e-6):
            return [f"that is the second derivative of {other_text[7:]}, not of the f that was passed "
                    f"({text[7:]}): the answer must come from f, by autograd, not from a formula."] + SECOND_TIERS
    return SECOND_TIERS


def _no_graph_tiers(second_derivative, f, data):
    """The tiers for "element 0 of tensors does not require grad": was it x, or the first derivative?

    The answer runs once more on an x that already requires grad: if it works then, x was the problem."""
    probe = Tensor(data.copy(), requires_grad=True)
    _, err = call(SECOND_TITLE, second_derivative, f, probe)
    if err is None:
        return ["x arrives without requires_grad, so f(x) has no graph and there is nothing to differentiate "
                "with respect to x.",
                "in section 7, x was made with requires_grad=True; here you make such a leaf yourself, without "
                "changing x.",
                "detach() gives a new tensor with x's numbers, and requires_grad_() makes it require grad."]
    if "element 0 of tensors does not require grad" in err.text:
        return ["the first derivative has no graph of its own (no grad_fn), so it cannot be differentiated again: "
                "by default, the backward pass that computes it is not recorded.",
                "section 7: which argument of autograd.grad records the backward pass, so that dy_dx gets a "
                "grad_fn?",
                "create_graph=True, on the first of the two autograd.grad calls."]
    return ["there is no graph to differentiate: either x does not require grad, or the first derivative was "
            "computed without recording how it was computed."] + SECOND_TIERS[1:]


@exercise("second_derivative")
def check_second_derivative(second_derivative):
    """``second_derivative(f, x)`` must equal the second derivative of ``f`` at every element of ``x``."""
    t = SECOND_TITLE
    g = rng(1300)
    for index, (text, f, d1, d2) in enumerate(FUNCTIONS):
        data = np.round(g.uniform(-2, 2, size=(5,)), 2)
        x = Tensor(data.copy())  # float64, no requires_grad: the function must arrange that itself
        where = f" for {text} at x = {x!r}"
        got, err = call(t, second_derivative, f, x)
        if err is not None and "element 0 of tensors does not require grad" in err.text:
            return _raised(err, where, _no_graph_tiers(second_derivative, f, data))
        if err is not None:
            return _raised(err, where, [
                ("One of the differentiated Tensors does not require grad", [
                    "autograd.grad differentiates with respect to the inputs you name, and each of them must "
                    "require grad: x arrives without it.",
                    "name, as the input, the leaf that requires grad and that f was applied to.",
                    "make that leaf from x without changing x: detach() gives a tensor with x's numbers, "
                    "requires_grad_() then makes it require grad."]),
                ("implicitly created only for scalar outputs", [
                    "autograd.grad needs a scalar output here. How did notebook 02 get an elementwise derivative "
                    "from a scalar?",
                    "every f(x)[i] depends only on x[i], so differentiating f(x).sum() gives f'(x) elementwise; "
                    "do the same with the derivative."]),
                ("", ["the check calls your function with four functions f and float64 tensors x of 5 elements "
                      "that do not require grad: does it work for any of them?"] + SECOND_TIERS[1:]),
            ])
        if x.requires_grad or x.grad is not None:
            changed = "requires grad" if x.requires_grad else "has a .grad"
            return failed(t, f"your function changed x{where}: afterwards it {changed}", hint=[
                "the caller's x must stay as it was given: make a new leaf from x that requires grad, and "
                "differentiate with respect to that one.",
                "x.requires_grad_() (or setting x.requires_grad) changes the caller's tensor; detach() gives a new "
                "tensor with the same numbers, which you may change."])
        got = _as_tensor(got)
        expected = Tensor(d2(data))
        hint = SECOND_TIERS
        if isinstance(got, Tensor) and tuple(got.shape) == tuple(expected.shape):
            hint = _second_diagnosis(got._data.astype(np.float64), data, index)
        elif got is None:
            hint = ["second_derivative returned None: is the `return` line missing?"] + SECOND_TIERS
        bad = check_tensor(t, got, expected, "second derivative", where, hint=hint, atol=1e-6, rtol=1e-5)
        if bad is not None:
            return bad
    return passed(t, f"correct for {len(FUNCTIONS)} hidden functions ({', '.join(f[0][7:] for f in FUNCTIONS)}).")


# ---- exercise 2 ---------------------------------------------------------------------------------
TRAIN_TITLE = "a training loop without piled-up gradients"
# the hidden runs: (seed of the data, lr, steps, the w it starts from)
TRAIN_RUNS = [(1301, 0.05, 12, 0.0), (1304, 0.1, 7, 0.5)]
NOT_A_LEAF = "is not a leaf Tensor is being accessed"   # PyTorch's warning on reading a non-leaf's .grad


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


def _train_data(seed=1301):
    g = rng(seed)
    xs = Tensor(np.round(g.uniform(-2, 2, size=(8,)), 2).astype(np.float32))
    ys = Tensor((1.5 * xs._data + g.normal(0, 0.1, size=8)).astype(np.float32))
    return xs, ys


def _fmt(v):
    """A loss rounded to 6 significant digits, shown as a plain number in the feedback."""
    return float(f"{v:.6g}")


def _losses(xs, ys, lr, steps, w0, zero=True):
    """(losses, final w) of a correct loop (or, ``zero=False``, of the notebook's buggy one)."""
    w = Tensor(np.asarray(w0, np.float32), requires_grad=True)
    return reference_train(w, xs, ys, lr, steps, zero=zero), w.item()


IN_PLACE_TIERS = [
    "the update must change the numbers of the tensor you were given, in place, so that w stays the same leaf "
    "from one step to the next; an assignment w = ... only gives the name w to a new tensor.",
    "look at the update line of train_buggy: it already changes w in place, under no_grad(). Keep it as it is; "
    "the bug is elsewhere (section 3).",
    "an augmented assignment such as -= changes a tensor in place; a plain assignment to w never does.",
]
RESET_TIERS = [
    "each step must start from no gradient: reset w's gradient once per step, before backward() runs.",
    "section 3 shows the two ways to reset a gradient; the reset goes at the start of the loop body, and the "
    "update stays after backward().",
    "setting the gradient to None works whether or not there is one yet; zero_() needs a tensor to fill.",
]


def _train_error(err, w, w0, not_a_leaf, where):
    """The diagnosis of a ``train`` that raised, from the error and from what happened to the given ``w``."""
    rebound = w.grad is not None and w.item() == w0   # it got a gradient, but no update ever reached it
    if "a leaf Variable that requires grad is being used in an in-place operation" in err.text:
        return _raised(err, where, [
            "the update itself is being recorded, and autograd refuses to change a leaf in place while it does.",
            "update w inside a no_grad() block, as train_buggy does, so that the step itself is not recorded.",
            "only the update line goes in the block; the loss and backward() stay outside it."])
    if "'NoneType' object has no attribute 'zero_'" in err.text:
        return failed(TRAIN_TITLE, f"at step 0, w.grad.zero_() failed: there is no gradient yet (w.grad is None "
                                   f"until the first backward()){where}", hint=[
            "reset the gradient in a way that also works when there is none yet, or reset it after the update "
            "instead of before backward().",
            "section 3 shows two ways to reset a gradient: which one works when .grad is None?",
            "setting the gradient to None needs no gradient to be there."])
    if rebound and "does not require grad" in err.text:
        return failed(TRAIN_TITLE, "the w you were given never moved: the update made a new tensor and gave it the "
                                   "name w (w = w - ...). Made under no_grad(), that tensor does not require grad, "
                                   "so the next loss has no graph and its backward() failed (element 0 of tensors "
                                   "does not require grad)" + where, hint=IN_PLACE_TIERS)
    if rebound and (not_a_leaf or "NoneType" in err.text):
        return failed(TRAIN_TITLE, "the w you were given never moved: the update made a new tensor and gave it the "
                                   "name w (w = w - ...). Made outside no_grad(), that tensor is the result of an "
                                   "operation, not a leaf; backward() fills .grad only for leaves, so at the next "
                                   "step w.grad was None" + where, hint=IN_PLACE_TIERS)
    if "NoneType" in err.text:
        return _raised(err, where, [
            "w.grad is None where the update uses it: in every step, backward() must run after the reset and "
            "before the update.",
            "look at where your loop resets the gradient: after backward() it throws away the gradient the update "
            "needs."] + RESET_TIERS[1:])
    return _raised(err, where, [
        f"the check runs your loop on hidden data with other values of lr, steps and the starting w: does it work "
        f"for any of them?"] + RESET_TIERS)


def _check_run(train, seed, lr, steps, w0):
    """None if ``train`` matches a correct loop on this run, else a failed Report."""
    t = TRAIN_TITLE
    xs, ys = _train_data(seed)
    good, good_w = _losses(xs, ys, lr, steps, w0)
    buggy, _ = _losses(xs, ys, lr, steps, w0, zero=False)
    where = f" (lr = {lr}, {steps} steps, w starting at {w0})"

    w = Tensor(np.asarray(w0, np.float32), requires_grad=True)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        got, err = call(t, train, w, xs, ys, lr, steps)
    not_a_leaf = False
    for c in caught:  # the warning of a non-leaf's .grad is part of the diagnosis; the others become notes
        if NOT_A_LEAF in str(c.message):
            not_a_leaf = True
        else:
            warnings.warn_explicit(c.message, c.category, c.filename, c.lineno)
    if err is not None:
        return _train_error(err, w, w0, not_a_leaf, where)
    if isinstance(got, tuple):
        got = list(got)
    if not isinstance(got, list):
        return failed(t, f"train should return the list of losses, got {type(got).__name__}{where}", hint=[
            "collect every step's loss.item() in a list, and return the list after the loop.",
            "train_buggy does this already: a list made before the loop, one item appended per step, returned "
            "at the end."])
    if len(got) != steps:
        first = [f"use the number of steps you are given ({steps} here), not the default of 12."] \
            if len(got) == 12 else []
        return failed(t, f"train should return one loss per step ({steps} steps), got {len(got)} losses{where}",
                      hint=first + ["append one loss in every iteration of the loop, and loop `steps` times.",
                                    "train_buggy's loop does both; keep them as they are."])
    try:
        values = [float(v) for v in got]
    except (TypeError, ValueError, RuntimeError):
        return failed(t, f"the losses should be numbers{where}", got=got[:3], hint=[
            "append a Python float per step rather than a tensor.",
            "a one-element tensor gives its number with .item()."])
    for i, (v, e) in enumerate(zip(values, good)):
        if np.isclose(v, e, rtol=1e-4, atol=1e-6):
            continue
        default_lr, _ = _losses(xs, ys, 0.05, steps, w0) if lr != 0.05 else (None, None)
        if i > 0 and np.allclose(values, buggy, rtol=1e-4, atol=1e-6):
            hint = ["these are exactly the losses of the buggy loop. What is in w.grad at step 2, before "
                    "backward() runs?",
                    "each backward() adds its gradient to what is already in w.grad, so from step 1 on w moves "
                    "by the sum of all the gradients so far (section 3)."] + RESET_TIERS
        elif default_lr is not None and np.allclose(values, default_lr, rtol=1e-4, atol=1e-6):
            hint = [f"these are the losses of a correct loop with lr = 0.05, but this run passed lr = {lr}: use "
                    "the lr you are given, not the default.",
                    "the update must scale the gradient by the argument lr."]
        elif i == 0:
            hint = ["the very first loss already differs, before any update: the loss is the mean of the squared "
                    "errors w * xs - ys, computed from the w, xs and ys you were given.",
                    "keep train_buggy's loss line as it is; its bug is elsewhere (section 3)."]
        else:
            hint = ["the losses drift apart from a correct loop's after a few steps: look at what happens to "
                    "w.grad from one step to the next."] + RESET_TIERS
        return failed(t, f"wrong loss at step {i}{where}", expected=_fmt(e), got=_fmt(v), hint=hint)
    if not w.is_leaf or not np.isclose(w.item(), good_w, rtol=1e-4, atol=1e-6):
        moved = "never moved: the update made new tensors (w = ...) instead of changing it" if w.item() == w0 \
            else "did not end where it should"
        return failed(t, f"the losses are right but the w that was passed in {moved}{where}",
                      expected=_fmt(good_w), got=_fmt(w.item()), hint=IN_PLACE_TIERS)
    return None


@exercise("train")
def check_train(train):
    """Run ``train`` and a correct loop side by side on hidden runs; compare every loss and the final w."""
    for run in TRAIN_RUNS:
        bad = _check_run(train, *run)
        if bad is not None:
            return bad
    seed, lr, steps, w0 = TRAIN_RUNS[0]
    xs, ys = _train_data(seed)
    good, _ = _losses(xs, ys, lr, steps, w0)
    buggy, _ = _losses(xs, ys, lr, steps, w0, zero=False)
    return passed(TRAIN_TITLE, f"all losses match a correct loop on {len(TRAIN_RUNS)} hidden runs (on the first, "
                               f"the buggy loop's losses part from these at step 2 and end at {_fmt(buggy[-1])} "
                               f"instead of {_fmt(good[-1])}).")


# ---- prediction questions -----------------------------------------------------------------------
# (the fingerprints: python -m minigrad_course.exercises digest QUESTION ANSWER)
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
