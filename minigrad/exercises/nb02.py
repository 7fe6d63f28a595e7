"""Checks for ``02_non_scalar_error.ipynb``: vector-Jacobian products.

- ``check_diff_vjp(diff_vjp)``: ``diff_vjp(v)`` returns what ``y.backward(v)`` puts into ``x.grad``
  for ``y = x[1:] - x[:-1]``, worked out from the forward formula, without a Jacobian; compared with
  minigrad's ``backward`` on hidden vectors ``v``.
- ``check_seed_for(seed_for)``: ``seed_for(n)`` returns the vector to pass to ``y.backward(...)``
  (``y`` with ``n`` elements) so that the leaves get the gradient of
  ``L = y[:n // 2].mean() - 3 * y[-1]``; checked for hidden sizes ``n``.
- ``check_q_grad``, ``check_q_shape``: the notebook's prediction questions.
"""
import numpy as np

from ..tensor import Tensor
from ._check import call, check_tensor, exercise, passed, prediction, reference, rng
from .nb01 import _as_tensor

# ---- exercise 2 ---------------------------------------------------------------------------------
SEED_TITLE = "the gradient vector for L = y[:n // 2].mean() - 3 * y[-1]"


def loss_of(y):
    n = y.shape[0]
    return y[:n // 2].mean() - 3 * y[-1]


def _expected_seed(n):
    """dL/dy, by autograd: what y.backward(v) needs as v."""
    y = Tensor(np.zeros(n, np.float32), requires_grad=True)
    loss_of(y).backward()
    return y.grad


@exercise("seed_for")
def check_seed_for(seed_for):
    """``seed_for(n)`` must be dL/dy, so that ``y.backward(seed_for(n))`` equals ``L.backward()``."""
    t = SEED_TITLE
    sizes = [6, 5, 2, 9]
    g = rng(1201)
    for n in sizes:
        where = f" for n = {n}"
        got, err = call(t, seed_for, n, returns="the vector v, one number per element of y")
        if err is not None:
            return err
        got = _as_tensor(got)
        expected = _expected_seed(n)
        hint = ["v[i] is the weight of y[i] in L, dL/dy[i]: write L out for n = 4 as a sum of the y[i], each "
                "with its factor, and read the factors off.",
                "the mean of the first n // 2 elements gives each of them the weight 1 / (n // 2); the last "
                "element has -3; every other element is not in L.",
                "v = np.zeros(n); v[:n // 2] = 1 / (n // 2); v[-1] = -3"]
        if isinstance(got, Tensor) and tuple(got.shape) == (n,):
            v = got._data.astype(np.float64)
            k = n // 2
            if np.allclose(v, 1):
                hint = ["all ones gives the gradient of y.sum(), not of L."] + hint
            elif np.isclose(v[-1], 3):
                hint = ["L subtracts 3 * y[-1]: what sign does the last weight have?"] + hint[1:]
            elif np.allclose(v[:k], 1) and k > 1:
                hint = [f"look at the mean: how much does the mean of {k} numbers change when one of them grows "
                        "by 1?"] + hint[1:]
            elif np.isclose(v[-1], -3) and np.allclose(v[:k], 1 / k) and not np.allclose(v[k:-1], 0):
                hint = ["the elements between the first half and the last one are not in L: what is their "
                        "weight?"] + hint[2:]
        bad = check_tensor(t, got, expected, "gradient vector", where, hint=hint)
        if bad is not None:
            return bad
        # the point of the vector: backward with it gives the same .grad as L.backward()
        a = Tensor(g.uniform(-2, 2, size=(n,)).astype(np.float32), requires_grad=True)
        a.sigmoid().backward(Tensor(got._data.astype(np.float32)))
        b = Tensor(a._data.copy(), requires_grad=True)
        loss_of(b.sigmoid()).backward()
        bad = check_tensor(t, a.grad, b.grad, "a.grad after y.backward(your vector)", where)
        if bad is not None:
            return bad
    return passed(t, f"correct for n = {', '.join(map(str, sizes))}: y.backward(v) gives the leaves the same "
                     "gradient as L.backward().")


# ---- exercise 1: a vector-Jacobian product without the Jacobian -------------------------------
DIFF_TITLE = "the gradient of y = x[1:] - x[:-1]"


@reference
def _diff_backward(v):
    """What backward puts in x.grad for y = x[1:] - x[:-1] seeded with v."""
    x = Tensor(np.zeros(len(v) + 1), requires_grad=True)
    (x[1:] - x[:-1]).backward(Tensor(np.asarray(v, dtype=np.float64)))
    return x.grad


@exercise("diff_vjp")
def check_diff_vjp(diff_vjp):
    """``diff_vjp(v)`` must equal ``x.grad`` after ``(x[1:] - x[:-1]).backward(v)``, for hidden ``v``."""
    t = DIFF_TITLE
    g = rng(1202)
    seeds = [np.array([1.0, 10.0, 100.0])] + [np.round(g.uniform(-3, 3, size=n), 1) for n in (1, 4, 6)]
    for v in seeds:
        where = f" for v = {np.array2string(v, separator=', ')} (x has {len(v) + 1} elements)"
        got, err = call(t, diff_vjp, v.copy(), returns="x.grad, an array with one number per element of x")
        if err is not None:
            return err
        got = _as_tensor(got)
        expected = _diff_backward(v)
        tiers = ["write y out for x with 3 elements: y_0 = x_1 - x_0, y_1 = x_2 - x_1. Which outputs contain "
                 "x_1, with which sign? x.grad[1] collects v_i times that sign from each of them.",
                 "x_j appears in y_(j-1) with sign + and in y_j with sign -, so x.grad[j] = v[j-1] - v[j]; at the "
                 "two ends one of the terms does not exist.",
                 "g = np.zeros(len(v) + 1); g[1:] += v; g[:-1] -= v; return g"]
        if isinstance(got, Tensor) and tuple(got.shape) == (len(v),):
            tiers = [f"x has one element more than y: y has {len(v)} outputs, x has {len(v) + 1} inputs, and "
                     "x.grad has the shape of x."] + tiers
        elif isinstance(got, Tensor) and got.ndim == 2:
            tiers = ["that looks like a Jacobian: the task asks for v^T J, one number per input, without "
                     "building J."] + tiers
        elif isinstance(got, Tensor) and tuple(got.shape) == tuple(expected.shape):
            e, h = expected._data, got._data.astype(np.float64)
            if np.allclose(h, -e):
                tiers = ["every sign is flipped: in y_i = x_(i+1) - x_i, x_(i+1) comes with + and x_i with -."] + tiers[1:]
            elif np.allclose(h[1:-1], e[1:-1]):
                tiers = ["the middle is right; look at the two ends: x_0 is only in y_0, and the last x is only "
                         "in the last y."] + tiers[1:]
        bad = check_tensor(t, got, expected, "x.grad", where, hint=tiers, atol=1e-8, rtol=1e-6)
        if bad is not None:
            return bad
    return passed(t, f"correct for {len(seeds)} hidden vectors v: x.grad[j] = v[j-1] - v[j], without a Jacobian "
                     "in sight. That is how every backward node works.")


# ---- prediction questions -------------------------------------------------------------------------
# the fingerprints come from `python -m minigrad.exercises digest QUESTION ANSWER`
check_q_grad = prediction(
    "nb02-q-grad", "q_grad",
    "y = A @ x with A = [[1, 2, 0], [0, -1, 3]]; after y.backward(gradient=[1, 10]), what is x.grad[2]? "
    "(a number)",
    "ef5e7966b4437f27",
    hints=["x[2] appears in y[0] with the factor A[0, 2] and in y[1] with the factor A[1, 2].",
           "x.grad[2] = v[0] * A[0, 2] + v[1] * A[1, 2]."],
    why="1 * 0 + 10 * 3 = 30: column 2 of A, weighted by v.")

check_q_shape = prediction(
    "nb02-q-shape", "q_shape",
    "y = x[1:] - x[:-1] with 4 elements in x: what shape is the Jacobian of y with respect to x?",
    "764f2dc754530389",
    options={"a": "(4, 4)", "b": "(3, 4)", "c": "(4, 3)", "d": "(3, 3)"},
    hints=["J has one row per output and one column per input. How many elements does y have?"],
    why="y has 3 elements (rows) and x has 4 (columns).")
