"""Checks for ``02_non_scalar_error.ipynb``: vector-Jacobian products.

- ``check_diff_vjp(diff_vjp)``: ``diff_vjp(v)`` returns what ``y.backward(v)`` puts into ``x.grad``
  for ``y = x[1:] - x[:-1]``, worked out from the forward formula, without a Jacobian; compared with
  minigrad's ``backward`` on hidden vectors ``v`` of lengths 3, 1, 4 and 6.
- ``check_seed_for(seed_for)``: ``seed_for(n)`` returns the vector to pass to ``y.backward(...)``
  (``y`` with ``n`` elements) so that the leaves get the gradient of
  ``L = y[:n // 2].mean() - 3 * y[-1]``; checked for hidden sizes ``n`` (even, odd, and 2).
- ``check_sum_to(sum_to)``: ``sum_to(grad, shape)`` sums a numpy gradient of a broadcast result back to
  the shape of the input that was broadcast (what the engine does for every input, as PyTorch's
  ``validate_outputs`` does with ``at::sum_to``); compared with minigrad's ``backward`` of
  ``x + zeros(big)`` for hidden shapes (a bias, a column, a scalar, leading and middle dims, no broadcast).
- ``check_dual(Dual)``: a dual number ``Dual(value, tangent)`` with ``+``, ``*`` (a plain number on either
  side), ``.sin()`` and ``.exp()``, forward mode's one-pass JVP; run on hidden functions, values and
  tangents and compared with minigrad's gradient dotted with the tangents.
- ``check_q_grad``, ``check_q_shape``: the notebook's prediction questions.

``pytorch_forward_ad(torch)`` runs the notebook's example in ``torch.autograd.forward_ad``;
``scripts/record_forward_ad.py`` records it for ``recorded_forward_ad()``, so the notebook shows PyTorch's
numbers without torch.

Every failure gives at least two hint tiers (the idea, then where to look, then a partial step);
none of them is a line of the notebook's solution.
"""
import json
import os

import numpy as np

from minigrad.tensor import Tensor
from ._check import add_hint, call, check_tensor, exercise, failed, passed, prediction, reference, rng
from .nb01 import _as_tensor


def _raised(err, where, tiers):
    """A failure from ``call``: say for which input the student's code raised, and add hint tiers.

    "not written yet" and "called the checker's ..." stay as they are; ``tiers`` is a list, or a
    list of ``(text in the message, [tiers])`` pairs of which the first that matches is used (a pair
    with the pattern "" matches every message)."""
    if "your code raised" in err.text:
        err.text = err.text.replace(": your code raised", f"{where}: your code raised", 1)
    elif "returned None" not in err.text:
        return err
    if tiers and isinstance(tiers[0], tuple):
        tiers = next((more for pattern, more in tiers if pattern in err.text), [])
    for tier in tiers:
        add_hint(err, tier)
    return err


# ---- exercise 2 ---------------------------------------------------------------------------------
SEED_TITLE = "the gradient vector for L = y[:n // 2].mean() - 3 * y[-1]"
SEED_SIZES = [6, 5, 2, 9]   # even, odd (n // 2 rounds down), the smallest, odd again


def loss_of(y):
    n = y.shape[0]
    return y[:n // 2].mean() - 3 * y[-1]


def _expected_seed(n):
    """dL/dy, by autograd: what y.backward(v) needs as v."""
    y = Tensor(np.zeros(n, np.float32), requires_grad=True)
    loss_of(y).backward()
    return y.grad


SEED_TIERS = [
    "v[i] is the weight of y[i] in L, dL/dy[i]: write L out for n = 4 as a sum of the y[i], each with its "
    "factor, and read the factors off.",
    "the mean of the first n // 2 elements gives each of them the weight 1 / (n // 2); the last element has "
    "the weight -3; every other element is not in L, so its weight is 0.",
    "a worked case: for n = 4, L = y[0] / 2 + y[1] / 2 - 3 * y[3], so v = [0.5, 0.5, 0, -3].",
]


def _seed_diagnosis(v, n):
    """The hint tiers for a vector ``v`` of the right length that is not dL/dy."""
    k = n // 2
    e = _expected_seed(n)._data.astype(np.float64)
    if np.allclose(v, 1):
        return ["all ones gives the gradient of y.sum(), not of L: most elements of y are not in L at all."] \
            + SEED_TIERS
    if np.allclose(v, -e) or (np.isclose(v[-1], 3) and np.allclose(v[:-1], e[:-1])):
        return ["L subtracts 3 * y[-1]: what sign does the last weight have?"] + SEED_TIERS[1:]
    if np.allclose(v[:k], 1) and k > 1:
        return [f"look at the mean: how much does the mean of {k} numbers change when one of them grows by 1?"] \
            + SEED_TIERS[1:]
    if n % 2 and np.allclose(v[:k], 2 / n):
        return [f"for odd n the first half is n // 2 elements, rounded down: for n = {n} that is {k} elements, so "
                f"the mean divides by {k}, not by n / 2 = {n / 2}."] + SEED_TIERS[1:]
    if np.allclose(v[:k], 1 / n):
        return [f"the mean is over the first n // 2 = {k} elements only, not over all {n}: each of them has the "
                f"weight 1 / {k}."] + SEED_TIERS[1:]
    if np.allclose(v[:k], e[:k]) and np.isclose(v[-1], 0):
        return ["the first half is right; L also has the term - 3 * y[-1]: what is the weight of the last element?"] \
            + SEED_TIERS[1:]
    if np.allclose(v[:k], e[:k]) and np.isclose(v[-1], -3) and not np.allclose(v[k:-1], 0):
        return ["the elements between the first half and the last one are not in L: what is their weight?"] \
            + SEED_TIERS[1:]
    return SEED_TIERS


@exercise("seed_for")
def check_seed_for(seed_for):
    """``seed_for(n)`` must be dL/dy, so that ``y.backward(seed_for(n))`` equals ``L.backward()``."""
    t = SEED_TITLE
    g = rng(1201)
    for n in SEED_SIZES:
        where = f" for n = {n}"
        got, err = call(t, seed_for, n, returns="the vector v, one number per element of y")
        if err is not None:
            return _raised(err, where, [
                f"the check calls seed_for with n = {', '.join(map(str, SEED_SIZES))}: does your code work for "
                "every n from 2 on, odd ones too?",
                "make a vector of n zeros first, then set the weights of the elements that are in L."])
        got = _as_tensor(got)
        expected = _expected_seed(n)
        if isinstance(got, Tensor) and tuple(got.shape) == (n,):
            hint = _seed_diagnosis(got._data.astype(np.float64), n)
        elif isinstance(got, Tensor):
            hint = [f"v needs one weight per element of y, {n} numbers for n = {n}, with 0 where y[i] is not in L."] \
                + SEED_TIERS
        else:
            hint = ["return a numpy array, a list or a minigrad tensor of numbers."] + SEED_TIERS
        bad = check_tensor(t, got, expected, "gradient vector", where, hint=hint)
        if bad is not None:
            return bad
        # the point of the vector: backward with it gives the same .grad as L.backward()
        a = Tensor(g.uniform(-2, 2, size=(n,)).astype(np.float32), requires_grad=True)
        a.sigmoid().backward(Tensor(got._data.astype(np.float32)))
        b = Tensor(a._data.copy(), requires_grad=True)
        loss_of(b.sigmoid()).backward()
        bad = check_tensor(t, a.grad, b.grad, "a.grad after y.backward(your vector)", where, hint=SEED_TIERS)
        if bad is not None:
            return bad
    return passed(t, f"correct for n = {', '.join(map(str, SEED_SIZES))}: y.backward(v) gives the leaves the same "
                     "gradient as L.backward().")


# ---- exercise 1: a vector-Jacobian product without the Jacobian -------------------------------
DIFF_TITLE = "the gradient of y = x[1:] - x[:-1]"


@reference
def _diff_backward(v):
    """What backward puts in x.grad for y = x[1:] - x[:-1] seeded with v."""
    x = Tensor(np.zeros(len(v) + 1), requires_grad=True)
    (x[1:] - x[:-1]).backward(Tensor(np.asarray(v, dtype=np.float64)))
    return x.grad


def _diff_seeds():
    """v = [1, 10, 100] (readable), then random vectors of 1, 4 and 6 elements: x has 2 to 7 elements."""
    g = rng(1202)
    return [np.array([1.0, 10.0, 100.0])] + [np.round(g.uniform(-3, 3, size=n), 1) for n in (1, 4, 6)]


DIFF_TIERS = [
    "write y out for x with 3 elements: y_0 = x_1 - x_0, y_1 = x_2 - x_1. Which outputs contain x_1, with which "
    "sign? x.grad[1] collects v_i times that sign from each of them.",
    "x_j appears in y_(j-1) with the sign + and in y_j with the sign -, so x.grad[j] = v[j-1] - v[j]; at the two "
    "ends one of the two terms does not exist.",
    "a worked case: for x with 4 elements (v with 3), x.grad = [-v0, v0 - v1, v1 - v2, v2]. Your code must do this "
    "for any length of v.",
]


def _diff_diagnosis(h, v, e):
    """The hint tiers for an ``x.grad`` of the right shape that is wrong (``e`` is the right one)."""
    v = np.asarray(v, dtype=np.float64)
    if np.allclose(h, -e):
        return ["every sign is flipped: in y_i = x_(i+1) - x_i, x_(i+1) comes with + and x_i with -."] + DIFF_TIERS[1:]
    if len(v) > 1 and np.allclose(h[:-1], -v) and np.isclose(h[-1], v[-1]):
        return ["each x_j in the middle is in two outputs, so its entry collects two terms; here it has only one. "
                "Did the second write replace the first instead of adding to it?"] + DIFF_TIERS[1:]
    if len(v) > 1 and np.allclose(h[1:], v) and np.isclose(h[0], -v[0]):
        return ["each x_j in the middle is in two outputs, so its entry collects two terms; here it has only one. "
                "Did one write replace the other instead of adding to it?"] + DIFF_TIERS[1:]
    if len(e) > 2 and np.allclose(h[1:-1], e[1:-1]):
        return ["the middle is right; look at the two ends: x_0 is only in y_0, and the last x is only in the "
                "last y."] + DIFF_TIERS[1:]
    return DIFF_TIERS


@exercise("diff_vjp")
def check_diff_vjp(diff_vjp):
    """``diff_vjp(v)`` must equal ``x.grad`` after ``(x[1:] - x[:-1]).backward(v)``, for hidden ``v``."""
    t = DIFF_TITLE
    seeds = _diff_seeds()
    for v in seeds:
        where = f" for v = {np.array2string(v, separator=', ')} (x has {len(v) + 1} elements)"
        got, err = call(t, diff_vjp, v.copy(), returns="x.grad, an array with one number per element of x")
        if err is not None:
            return _raised(err, where, [
                f"the check tries vectors v of {', '.join(str(len(s)) for s in seeds)} elements: nothing in your "
                "code may assume a fixed length.",
                "make an array of len(v) + 1 zeros, then add each v_i to the two entries of x that y_i contains, "
                "with their signs."])
        got = _as_tensor(got)
        expected = _diff_backward(v)
        tiers = DIFF_TIERS
        if isinstance(got, Tensor) and got.ndim == 1 and got.shape[0] != len(v) + 1:
            tiers = [f"x has one element more than y: y has {len(v)} outputs, x has {len(v) + 1} inputs, and "
                     f"x.grad has the shape of x ({len(v) + 1} numbers; you returned {got.shape[0]})."] + DIFF_TIERS
        elif isinstance(got, Tensor) and got.ndim == 2:
            tiers = ["that looks like a Jacobian: the task asks for v^T J, one number per input, without "
                     "building J."] + DIFF_TIERS
        elif isinstance(got, Tensor) and tuple(got.shape) == tuple(expected.shape):
            tiers = _diff_diagnosis(got._data.astype(np.float64), v, expected._data)
        bad = check_tensor(t, got, expected, "x.grad", where, hint=tiers, atol=1e-8, rtol=1e-6)
        if bad is not None:
            return bad
    return passed(t, f"correct for {len(seeds)} hidden vectors v: x.grad[j] = v[j-1] - v[j], without a Jacobian "
                     "in sight. That is how every backward node works.")


# ---- section 6: broadcasting's backward is a sum -----------------------------------------------------
SUM_TO_TITLE = "sum_to: a broadcast gradient back to the input's shape"
SUM_TO_CASES = [((4, 3), (3,)), ((4, 3), (4, 1)), ((2, 3), ()), ((5, 2, 3), (1, 3)), ((2, 4, 3), (2, 1, 3)),
                ((3, 2), (3, 2))]   # a bias, a column, a scalar, leading + size-1 dims, a middle dim, none


@reference
def _broadcast_backward(grad, shape):
    """x.grad after (x + zeros(grad.shape)).backward(grad), for x of ``shape``: the engine's sum."""
    x = Tensor(np.zeros(shape), requires_grad=True)
    (x + Tensor(np.zeros(grad.shape))).backward(Tensor(grad))
    return x.grad


SUM_TO_TIERS = [
    "broadcasting copies the input along the dims it puts in front and along the input's dims of size 1; "
    "every copy sends its gradient back, and the input's gradient is the sum over its copies.",
    "two kinds of dims to sum over: the grad.ndim - len(shape) dims in front, which the input does not have at "
    "all, and then each dim where shape has a 1 but grad does not; that second kind stays in the result with "
    "size 1.",
    "worked cases: grad of shape (4, 3) to shape (3,) sums over axis 0 and gives 3 numbers; to shape (4, 1) it "
    "sums over axis 1 and keeps that axis, giving shape (4, 1).",
]


def _sum_to_diagnosis(got_shape, big, shape):
    """The hint tiers for a result of the wrong shape."""
    lead = len(big) - len(shape)
    kept = tuple(n for n in shape if n != 1) if shape else ()
    if got_shape == tuple(big) and tuple(big) != tuple(shape):
        return ["your result still has the broadcast shape: a gradient must have the shape of the input it "
                "goes to, so the copies' gradients have to be added up."] + SUM_TO_TIERS
    if got_shape == tuple(big[lead:]) and got_shape != tuple(shape):
        return ["the dims in front are summed, but the input also had dims of size 1 that broadcasting "
                "stretched: sum over those too."] + SUM_TO_TIERS[1:]
    if got_shape == kept and got_shape != tuple(shape):
        return ["the numbers may be right, but the input's dims of size 1 are gone: they must stay, with "
                "size 1 (numpy's sum can keep a dim it sums over)."] + SUM_TO_TIERS[1:]
    if got_shape == ():
        return ["you summed over every dim: only the dims that broadcasting added or stretched are summed."] \
            + SUM_TO_TIERS
    return SUM_TO_TIERS


@exercise("sum_to")
def check_sum_to(sum_to):
    """``sum_to(grad, shape)`` must equal ``x.grad`` after ``(x + zeros(grad.shape)).backward(grad)``."""
    t = SUM_TO_TITLE
    g = rng(1203)
    for big, shape in SUM_TO_CASES:
        grad = np.round(g.uniform(-3, 3, size=big), 1)
        where = f" for grad of shape {big} and shape = {shape}"
        got, err = call(t, sum_to, grad.copy(), shape, returns="the summed gradient, an array of the given shape")
        if err is not None:
            return _raised(err, where, [
                "the check tries inputs with 0 to 3 dims and the shape () of a scalar: nothing may assume two "
                "dims.",
                "sum over the dims in front first; then the result has as many dims as shape, and you can compare "
                "them one by one."])
        got = _as_tensor(got)
        if isinstance(got, Tensor):
            tiers = _sum_to_diagnosis(tuple(got.shape), big, shape)
        else:
            tiers = ["return a numpy array (or a minigrad tensor) of the given shape."] + SUM_TO_TIERS
        bad = check_tensor(t, got, _broadcast_backward(grad, shape), "sum_to(grad, shape)", where, hint=tiers,
                           atol=1e-8, rtol=1e-6)
        if bad is not None:
            return bad
    return passed(t, f"correct for {len(SUM_TO_CASES)} hidden shapes, a scalar and no broadcast at all among them: "
                     "your sum is the one the engine does for every input.")


# ---- prediction questions -------------------------------------------------------------------------
# the fingerprints come from `python -m minigrad_course.exercises digest QUESTION ANSWER`
check_q_grad = prediction(
    "nb02-q-grad", "q_grad",
    "y = A @ x with A = [[1, 2, 0], [0, -1, 3]]; after y.backward(gradient=[1, 10]), what is x.grad[2]? "
    "(a number)",
    "ef5e7966b4437f27",
    hints=["x.grad = v^T J, and the Jacobian of A @ x is A: x.grad[2] takes column 2 of A, one entry per output, "
           "each weighted by that output's v.",
           "x[2] appears in y[0] with the factor A[0, 2] and in y[1] with the factor A[1, 2]; so "
           "x.grad[2] = v[0] * A[0, 2] + v[1] * A[1, 2]."],
    why="1 * 0 + 10 * 3 = 30: column 2 of A, weighted by v.")

check_q_shape = prediction(
    "nb02-q-shape", "q_shape",
    "y = x[1:] - x[:-1] with 4 elements in x: what shape is the Jacobian of y with respect to x?",
    "764f2dc754530389",
    options={"a": "(4, 4)", "b": "(3, 4)", "c": "(4, 3)", "d": "(3, 3)"},
    hints=["J has one row per output and one column per input (J_ij = dy_i / dx_j). How many elements does y "
           "have?",
           "x[1:] and x[:-1] each leave out one element of x, and y is their difference: count y's elements, "
           "then write the shape as (rows, columns)."],
    why="y has 3 elements (rows) and x has 4 (columns).")


# ---- section 7: forward mode with dual numbers ------------------------------------------------------
DUAL_TITLE = "Dual: forward mode with dual numbers"

# (what the check computes, the function, the inputs as (value, tangent) pairs); each function uses only
# +, * and the methods .sin() and .exp(), so that it runs on a Dual, a minigrad tensor and a torch tensor.
DUAL_CASES = [
    ("a + b", lambda a, b: a + b, [(1.5, 1.0), (-0.5, 2.0)]),
    ("a * b", lambda a, b: a * b, [(1.5, 1.0), (-0.5, 0.5)]),
    ("a * b", lambda a, b: a * b, [(1.5, 2.0), (-0.5, -3.0)]),
    ("x.sin()", lambda x: x.sin(), [(0.7, 1.0)]),
    ("x.exp()", lambda x: x.exp(), [(0.7, 1.0)]),
    ("x.sin()", lambda x: x.sin(), [(0.7, -2.5)]),
    ("x.exp()", lambda x: x.exp(), [(0.7, -2.5)]),
    ("(x * x).sin()", lambda x: (x * x).sin(), [(1.2, 1.0)]),
    ("3 * x.exp() + 2 * x", lambda x: 3 * x.exp() + 2 * x, [(-0.4, 1.0)]),
    ("x * y + y.sin()", lambda x, y: x * y + y.sin(), [(1.0, 0.5), (2.0, -1.0)]),
]

DUAL_TIERS = [
    "a Dual is value + tangent * eps with eps * eps = 0: the tangent of a result is how fast its value moves when "
    "the inputs move along their tangents, i.e. the derivative of the op times the incoming tangent(s).",
    "write the op out with value + tangent * eps and drop every eps * eps term: for a sum the tangents add; for a "
    "product you get one term per factor (the product rule); for sin and exp the chain rule multiplies the "
    "derivative at the value by the input's tangent.",
    "a worked case: (2 + 3 eps) * (5 + 7 eps) = 10 + (3 * 5 + 2 * 7) eps = 10 + 29 eps, and for sin at the value "
    "0.5 with the tangent 4 the new tangent is cos(0.5) * 4.",
]


NUMBER_TIERS = ["a plain number next to a Dual (3 * x, x + 2): make it a Dual with the tangent 0 first; the cell "
                "does this for you at the top of __add__ and __mul__ (keep those lines)."] + DUAL_TIERS[1:]


@reference
def _dual_reference(fn, pairs):
    """(value, tangent) of fn at the values, moved along the tangents: minigrad's backward in float64 gives
    the gradient g, and the tangent is g . t (one VJP with v = 1, then a dot product)."""
    xs = [Tensor(np.array(v, dtype=np.float64), requires_grad=True) for v, _ in pairs]
    y = fn(*xs)
    y.backward()
    tangent = sum(float(x.grad.item()) * t for x, (_, t) in zip(xs, pairs) if x.grad is not None)
    return float(y.item()), tangent


def _dual_diagnosis(name, pairs, got, want):
    """The hint tiers for a Dual whose value or tangent is wrong."""
    value, tangent = got
    want_value, want_tangent = want
    if not np.isclose(value, want_value, rtol=1e-6, atol=1e-9):
        return ["the value is wrong, not only the tangent: the value of a Dual is the plain number the op gives."] \
            + DUAL_TIERS[1:]
    (v0, t0), *rest = pairs
    if name == "a + b":
        return ["the tangent of a sum: if a moves at speed a' and b at speed b', how fast does a + b move?"] \
            + DUAL_TIERS[1:]
    if name == "a * b":
        (v1, t1), = rest
        if np.isclose(tangent, t0 * t1):
            return ["the tangent of a product is not the product of the tangents: that is the eps * eps term, which "
                    "is 0."] + DUAL_TIERS[1:]
        if np.isclose(tangent, t0 * v1) or np.isclose(tangent, v0 * t1):
            return ["the product rule has two terms, one for each factor that moves; yours has one."] + DUAL_TIERS[1:]
        return ["write (a + a' eps) * (b + b' eps) out: which terms multiply eps once?"] + DUAL_TIERS[1:]
    if name in ("x.sin()", "x.exp()"):
        slope = np.cos(v0) if name == "x.sin()" else np.exp(v0)
        if np.isclose(tangent, slope) and not np.isclose(t0, 1):
            return [f"right when the input's tangent is 1, but here it is {t0}: the chain rule multiplies the "
                    "derivative by the tangent that comes in."] + DUAL_TIERS[1:]
        if np.isclose(tangent, -slope * t0) or np.isclose(tangent, -slope):
            return ["check the sign: d/dx sin(x) = cos(x), d/dx exp(x) = exp(x)."] + DUAL_TIERS[1:]
        return [f"the derivative of {name[2:-2]} at the value, times the input's tangent."] + DUAL_TIERS[1:]
    return ["the single ops passed, so look at how they combine here: a tangent that is not 1 reaches an op "
            "(chain rule), or a plain number meets a Dual (a number has the tangent 0)."] + DUAL_TIERS[1:]


@exercise("Dual")
def check_dual(Dual):
    """``Dual(value, tangent)`` with ``+``, ``*`` (a number on either side), ``.sin()`` and ``.exp()``: run
    on hidden functions, values and tangents, compared with minigrad's gradient dotted with the tangents."""
    t = DUAL_TITLE
    for name, fn, pairs in DUAL_CASES:
        where = " for " + name + " with " + ", ".join(
            f"{n} = Dual({v}, {tg})" for n, (v, tg) in zip(name_args(fn), pairs))

        def run():
            return fn(*[Dual(v, tg) for v, tg in pairs])

        got, err = call(t, run, returns="a Dual")
        if err is not None:
            return _raised(err, where, [
                *[(pattern, NUMBER_TIERS) for pattern in ("unsupported operand", "no attribute 'value'",
                                                          "no attribute 'tangent'")],
                ("", ["every op returns a new Dual(value, tangent) and leaves its inputs alone; the check uses "
                      "+, * (with a plain number on either side), .sin() and .exp()."] + DUAL_TIERS[1:])])
        if not (hasattr(got, "value") and hasattr(got, "tangent")):
            return failed(t, f"the result{where} should be a Dual, got {type(got).__name__}",
                          hint=["each op returns Dual(new value, new tangent)."] + DUAL_TIERS[1:])
        want = _dual_reference(fn, pairs)
        try:
            have = (float(got.value), float(got.tangent))
        except (TypeError, ValueError):
            return failed(t, f"value and tangent{where} should be numbers", hint=DUAL_TIERS)
        if not np.allclose(have, want, rtol=1e-6, atol=1e-9):
            return failed(t, f"wrong result{where}", expected=f"Dual({want[0]:.6g}, tangent={want[1]:.6g})",
                          got=f"Dual({have[0]:.6g}, tangent={have[1]:.6g})",
                          hint=_dual_diagnosis(name, pairs, have, want))
    return passed(t, f"correct on {len(DUAL_CASES)} hidden functions and tangents: each op carries its derivative "
                     "forward beside its value, the tangent of the output is J u.")


def name_args(fn):
    return fn.__code__.co_varnames[:fn.__code__.co_argcount]


# ---- section 7: the notebook's example, in PyTorch's forward mode ---------------------------------------
FORWARD_AD_PYTORCH = os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, "data",
                                  "forward_ad_pytorch.json")
EXAMPLE_X = [1.0, 2.0]
EXAMPLE_U = [0.5, -1.0]


def example_f(x):
    """The notebook's f: two inputs, two outputs, written with +, *, .sin() and .exp() only."""
    return [x[0] * x[1] + x[0].sin(), x[1].exp() * x[0]]


def pytorch_forward_ad(torch):
    """f's values and J u at EXAMPLE_X along EXAMPLE_U, by ``torch.autograd.forward_ad`` (float64)."""
    import torch.autograd.forward_ad as fwAD
    with fwAD.dual_level():
        x = fwAD.make_dual(torch.tensor(EXAMPLE_X, dtype=torch.float64),
                           torch.tensor(EXAMPLE_U, dtype=torch.float64))
        outputs = [fwAD.unpack_dual(y) for y in example_f(x)]
    return [o.primal.item() for o in outputs], [o.tangent.item() for o in outputs]


def recorded_forward_ad():
    """PyTorch's values and tangents as recorded by ``scripts/record_forward_ad.py``."""
    with open(FORWARD_AD_PYTORCH) as f:
        record = json.load(f)
    return record["torch"], record["values"], record["tangents"]
