"""Checks for ``01b_dynamic_graph.ipynb``: the graph a Python loop records.

- ``check_grow_grad(grow_grad)``: ``grow_grad(x0)`` predicts, without autograd, the derivative of
  ``grow(x)`` (double ``x`` while it is below 10) at ``x0``; compared with ``backward()``.
- ``check_sum_until(sum_until)``: ``sum_until(x, limit)`` adds the elements of ``x`` in order until
  the running total is larger than ``limit``, and keeps the graph; the total and ``x.grad`` are
  compared with what they should be, on hidden inputs.
- ``check_tanh_grad(my_tanh_grad)``: ``my_tanh_grad(a)`` returns the gradient of ``tanh(a).sum()``
  without calling backward (the student derives tanh's derivative, the node the recurrent loop
  repeats); hidden inputs include ``linspace(-100, 100, 10)``.
- ``check_q_huber``, ``check_q_nodes``, ``check_q_twice``, ``check_q_clamp``: the notebook's prediction
  questions.
"""
import numpy as np

from minigrad.tensor import Tensor
from ._check import call, check_tensor, close, exercise, failed, passed, prediction, reference, rng
from .nb00 import explain
from .nb01 import _as_tensor, _sigmoid_inputs


# ---- exercise 1 ---------------------------------------------------------------------------------
GROW_TITLE = "the gradient of grow(x)"


def grow(x):
    """The notebook's function: double ``x`` until it reaches 10."""
    y = x
    while y < 10:
        y = y * 2
    return y


@reference
def _grow_backward(x0):
    x = Tensor(np.asarray(x0, dtype=np.float64), requires_grad=True)
    grow(x).backward()
    return x.grad.item()


@reference
def _doublings(x0):
    count = 0
    while x0 < 10:
        x0, count = x0 * 2, count + 1
    return count


def _starts():
    """The notebook's 3.0, then 12.0 and 25.0 (no doubling: a formula in log2(10 / x0) goes wrong above 20),
    5.0 (stops at exactly 10), 0.7, 10.0 (the edge: not doubled), and three hidden random starts."""
    g = rng(1150)
    return [3.0, 12.0, 5.0, 0.7, 25.0, 10.0] + [round(float(v), 3) for v in g.uniform(0.05, 9.0, size=3)]


COUNT_TIERS = ["write the values down for this x0: x0, then 2 x0, ..., and stop at the first one that is not below "
               "10. Each doubling is one run of the loop body.",
               "the chain rule multiplies the local derivatives of the steps: each `y = y * 2` contributes a factor "
               "2, and y = x (no step at all) has derivative 1."]


@exercise("grow_grad")
def check_grow_grad(grow_grad):
    """``grow_grad(x0)`` must equal ``dy/dx`` of ``y = grow(x)`` at ``x0``, for hidden ``x0``."""
    t = GROW_TITLE
    starts = _starts()
    for x0 in starts:
        got, err = call(t, grow_grad, x0)
        if err is not None:
            return explain(err, example="grow_grad(3.0)")
        where = f" for x0 = {x0}"
        if isinstance(got, Tensor):
            got = got.item() if got.numel() == 1 else got
        if isinstance(got, bool) or not isinstance(got, (int, float, np.number)):
            return failed(t, f"should return a number, got {type(got).__name__}{where}",
                          hint=["return dy/dx as a Python number, e.g. 4.0 for x0 = 3.0.",
                                "work the number out with Python arithmetic on x0; no tensor is needed."])
        expected = _grow_backward(x0)
        if close(float(got), expected):
            continue
        k = _doublings(x0)
        value = float(grow(Tensor(np.asarray(x0))).item())
        if close(float(got), value):
            tiers = ["that is the value of grow(x0), not its derivative. Each doubling multiplies dy/dx by 2."]
        elif close(float(got), float(k)) and k != 0:
            tiers = [f"that is how many times the loop body runs for this x0 ({k}); each run is a factor in the "
                     "chain rule, not a term."]
        elif close(float(got), 2.0 * k) and k != 2:
            tiers = [f"the loop body runs {k} time(s) here; the chain rule multiplies the local derivatives "
                     "of the steps, it does not add them."]
        elif x0 >= 10:
            tiers = [f"x0 = {x0} is not below 10, so the loop body never runs and y is x itself: what is the "
                     "derivative of x with respect to x? A formula in log2(10 / x0) goes wrong here, below 1."]
        elif close(float(got), 2.0 ** (k + 1)) or close(float(got), 2.0 ** (k - 1)):
            tiers = ["count the loop runs again: the loop stops as soon as y < 10 is False, so y = 10 "
                     "itself is not doubled, and a start of 10 or more is not doubled at all."]
        else:
            tiers = ["how many times does `y = y * 2` run for this x0? Each run is one factor in the chain rule."]
        return failed(t, f"wrong derivative{where}", expected=expected, got=got, hint=tiers + COUNT_TIERS)
    return passed(t, f"correct for {len(starts)} start values, including 5.0 (the loop stops at exactly 10), "
                     "12.0 and 25.0 (no doubling at all).")


# ---- exercise 2 ---------------------------------------------------------------------------------
SUM_TITLE = "sum_until"


@reference
def _sum_until_reference(x, limit):
    """The total and which elements were added (the gradient: 1 for those, 0 after)."""
    total, used = 0.0, 0
    for v in x:
        total, used = total + float(v), used + 1
        if total > limit:
            break
    return total, used


def _sum_cases():
    """(x, limit) pairs: the notebook's example, a stop at the first element, a total that never
    passes the limit, a total that equals it on the way, one with a negative element (the running total
    falls again after it passed the limit), and hidden random ones."""
    g = rng(1151)
    cases = [([2.0, 5.0, 1.0, 4.0], 6.0), ([8.0, 1.0, 2.0], 3.0), ([1.0, 2.0, 3.0], 100.0),
             ([1.0, 2.0, 3.0, 4.0], 6.0), ([4.0, -3.0, 5.0, 1.0], 3.0)]
    for n in (5, 7):
        x = [float(v) for v in np.round(g.uniform(0.5, 4.0, size=n), 1)]
        cases.append((x, round(sum(x) / 2, 1) + 0.05))  # never equal to a total of one-decimal numbers
    return cases


SUM_TIERS = ["the loop in words: add the next element to the total; if the total is now larger than limit, stop; "
             "otherwise go on, and stop anyway after the last element.",
             "keep the total a tensor built with + from elements of x; only the comparison with limit may use "
             ".item()."]


@exercise("sum_until")
def check_sum_until(sum_until):
    """``sum_until(x, limit)`` must give the running total that first passes ``limit`` and keep the graph."""
    t = SUM_TITLE
    cases = _sum_cases()
    for values, limit in cases:
        x = Tensor(np.array(values, dtype=np.float32), requires_grad=True)
        where = f" for x = {values}, limit = {limit}"
        got, err = call(t, sum_until, x, limit)
        if err is not None:
            return explain(err, [
                ("index", [f"for x = {values}, limit = {limit} your loop went past the last element: here the "
                           "total is never larger than limit, so the loop has to stop at the end of x.",
                           SUM_TIERS[0]]),
            ] if "raised" in err.text else (), example="the example of the task, x = [2, 5, 1, 4] and limit = 6")
        total, used = _sum_until_reference(values, limit)
        if not isinstance(got, Tensor):
            return failed(t, f"should return a tensor, got {type(got).__name__}{where}",
                          hint=["keep the total a tensor: start from an element of x (or a tensor 0) and add "
                                "elements of x, not x[i].item() or float(x[i]).", SUM_TIERS[1]])
        if got.numel() != 1 or not close(float(got.detach()._data.reshape(-1)[0]), total, atol=1e-4):
            hint = "add elements while the total is not larger than limit; add the one that passes it, then stop."
            partial = np.cumsum(values)
            shown = float(got.detach()._data.reshape(-1)[0]) if got.numel() == 1 else None
            if got.numel() != 1:
                hint = "the total is one number; add the elements up one at a time instead of returning several."
            elif min(values) < 0:
                hint = ("x has a negative element here, so the running total can fall again after it passed limit. "
                        "Stop at the first element that makes it larger than limit, whatever comes after.")
            elif used >= 2 and close(shown, partial[used - 2]):
                hint = ("you stopped one element early: the element that makes the total larger than limit "
                        "is added too, then the loop stops (a total equal to limit is not larger than it).")
            elif used < len(values) and close(shown, partial[used]):
                hint = "you added one element too many: stop right after the total becomes larger than limit."
            return failed(t, f"wrong total{where}", expected=round(total, 4), got=got.detach(),
                          hint=[hint] + SUM_TIERS)
        if got.grad_fn is None:
            return failed(t, f"the total has the right value but no grad_fn, so it is not connected to x{where}",
                          hint=["the condition may use .item() (it is only read by Python), but the total must be "
                                "built from tensor elements x[i] with +.", SUM_TIERS[1]])
        got.sum().backward()
        expected = Tensor(np.array([1.0] * used + [0.0] * (len(values) - used), dtype=np.float32))
        if x.grad is None:
            return failed(t, f"backward did not reach x{where}",
                          hint=["build the total from the x you were given.",
                                "a copy of x (x.detach(), x.tolist(), a new tensor) is not connected to it."])
        bad = check_tensor(t, x.grad, expected, "x.grad after backward", where,
                           hint=["every element that was added gets gradient 1, the ones after the stop 0.",
                                 "add each element once, with +, and nothing else: a product or a second use of an "
                                 "element changes its gradient."])
        if bad is not None:
            return bad
    return passed(t, f"correct for {len(cases)} inputs: the right total, and x.grad is 1 for the elements "
                     "that were added and 0 after the stop.")


# ---- exercise: tanh's gradient by hand -----------------------------------------------------------
TANH_TITLE = "gradient of tanh(a).sum() by hand"


@reference
def _tanh_backward(a):
    leaf = a.detach().requires_grad_()
    leaf.tanh().sum().backward()
    return leaf.grad


@exercise("my_tanh_grad")
def check_tanh_grad(my_tanh_grad):
    """Compare ``my_tanh_grad(a)`` with backward's gradient of ``tanh(a).sum()`` on hidden inputs."""
    t = TANH_TITLE
    inputs = _sigmoid_inputs()  # the same hidden inputs as sigmoid's: linspace(-100, 100, 10) among them
    for text, a in inputs:
        got, err = call(t, my_tanh_grad, Tensor(a._data.copy()), returns="the gradient, a tensor shaped like a")
        if err is not None:
            return explain(err, [
                ("does not require grad", ["work the gradient out with a formula, not with backward(): the hidden "
                                           "inputs do not require grad.",
                                           "the task asks for the derivative written with tanh itself."]),
                ("Can't call numpy() on Tensor that requires grad", ["use a.detach().numpy().",
                                                                     "or stay with minigrad's operations on a."]),
            ], example="minigrad.linspace(-100, 100, 10)")
        got = _as_tensor(got)
        expected = _tanh_backward(a)
        where = f" for a = {text or repr(a)}"
        tanh = np.tanh(a._data.astype(np.float64))
        tiers = ["check your formula at a = 0, where tanh is steepest: nudge it, (tanh(h) - tanh(-h)) / (2h) "
                 "is about 1.",
                 "write tanh(a) = (e^a - e^-a) / (e^a + e^-a), differentiate with the quotient rule and simplify: "
                 "the result can be written with t = tanh(a) alone, as sigmoid's was with s.",
                 "with E = e^a and F = e^-a the quotient rule gives ((E + F)**2 - (E - F)**2) / (E + F)**2: split "
                 "it into two fractions and write each with t."]
        if isinstance(got, Tensor) and tuple(got.shape) == tuple(expected.shape):
            g = got._data.astype(np.float64)
            if np.isnan(g).any():
                tiers = ["your formula gives nan where exp overflows (exp(100) is inf in float32, and inf / inf "
                         "is nan). Write the derivative with t = tanh(a), which stays between -1 and 1."] + tiers[1:]
            elif np.allclose(g, tanh, atol=1e-5):
                tiers = ["that is tanh(a) itself, not its slope."] + tiers
            elif np.allclose(g, tanh * (1 - tanh), atol=1e-5):
                tiers = ["that is sigmoid's formula s (1 - s) with tanh in it; tanh has its own derivative."] + tiers[1:]
            elif np.allclose(g, 1 - tanh, atol=1e-5) or np.allclose(g, (1 - tanh) ** 2, atol=1e-5):
                tiers = ["close: where is the square? Compare your formula with a nudged slope at a = 1."] + tiers[1:]
            elif not g.any():
                tiers = ["0 is tanh's slope only where it is flat, far from 0 (as at most points of linspace(-100, "
                         "100, 10)); near 0 tanh is steep."] + tiers
        elif isinstance(got, Tensor) and got.numel() == 1 and expected.numel() != 1:
            tiers = ["the gradient has one number per element of a (the same shape as a), not a single total.",
                     "apply the formula to every element: minigrad's operations and numpy's work element by "
                     "element, so do not add anything up."]
        bad = check_tensor(t, got, expected, "gradient", where, hint=tiers, atol=1e-6, rtol=1e-4)
        if bad is not None:
            return bad
    return passed(t, f"correct on {len(inputs)} hidden inputs, including linspace(-100, 100, 10), where tanh is "
                     "flat and its gradient is 0.")


# ---- prediction questions -------------------------------------------------------------------------
# the fingerprints come from `python -m minigrad_course.exercises digest QUESTION ANSWER`
check_q_huber = prediction(
    "nb01b-q-huber", "q_huber",
    "What is d huber(r) / dr at r = -3? (a number)",
    "ed5ebd7e26ba2dcf",
    hints=["which branch runs for r = -3? |r| is 3, larger than 1.",
           "the branch |r| - 0.5 runs: how does |r| change when r moves from -3 a little to the right, to -2.9?"],
    why="the straight-line branch ran, and |r| falls by 1 for each step r takes to the right.")

check_q_nodes = prediction(
    "nb01b-q-nodes", "q_nodes",
    "How many MulBackward0 nodes does grow(minigrad.tensor(0.7, requires_grad=True)) record? (a number)",
    "47d2644252699a02",
    hints=["write the values down: 0.7, then 1.4, ... and stop when one is not below 10.",
           "one node per run of the loop body `y = y * 2`."],
    why="0.7 -> 1.4 -> 2.8 -> 5.6 -> 11.2: four doublings, four nodes.")

check_q_twice = prediction(
    "nb01b-q-twice", "q_twice",
    "e = (sigmoid(a) + relu(a)).sum(): after e.backward(), what is a.grad at a = 100? (a number)",
    "16930332c144dfa3",
    hints=["two paths lead from e to a; the gradient of each path is added.",
           "take the paths one at a time: notebook 01 worked out sigmoid's slope at a = 100 in float32 (its section 7) "
           "and relu's slope for a positive a (its section 6)."],
    why="0 from sigmoid's path plus 1 from relu's path.")

check_q_clamp = prediction(
    "nb01b-q-clamp", "q_clamp",
    "relu(0) and clamp(0, min=0) are both 0; relu's gradient at 0 is 0. What is clamp(x, min=0)'s gradient at "
    "x = 0?",
    "db1359cb606e2880",
    options={"a": "0, as relu's", "b": "1", "c": "0.5, halfway between the two slopes", "d": "nan"},
    hints=["autograd does not look at the graph of the function: each op's backward has its own test for where "
           "the gradient passes. Look at what clamp(x, min=0) does to x = 0: does it change it?",
           "relu's backward lets the gradient through where x > 0; clamp's lets it through where the value was "
           "not clamped, x >= min. Which of the two tests does x = 0 pass?"],
    why="clamp's backward passes the gradient where x >= min, so at the boundary the slope is 1, where relu's "
        "(x > 0) gives 0. The same function, two conventions; PyTorch has the same two.")
