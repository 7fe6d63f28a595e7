"""Checks for ``02_non_scalar_error.ipynb``: vector-Jacobian products.

- ``check_vjp(vjp)``: ``vjp(J, v)`` returns ``v @ J`` for a Jacobian ``J`` (``J[i, j] = dy_i/dx_j``)
  and a vector ``v`` with one number per output; compared with what minigrad's ``backward`` gives
  for ``y = J @ x`` seeded with ``v``, on hidden random Jacobians.
- ``check_seed_for(seed_for)``: ``seed_for(n)`` returns the vector to pass to ``y.backward(...)``
  (``y`` with ``n`` elements) so that the leaves get the gradient of
  ``L = y[:n // 2].mean() - 3 * y[-1]``; checked for hidden sizes ``n``.
"""
import numpy as np

from ..tensor import Tensor
from ._check import call, check_tensor, exercise, failed, passed, rng
from .nb00 import _with_hint
from .nb01 import _as_tensor

# ---- exercise 1 ---------------------------------------------------------------------------------
VJP_TITLE = "vector-Jacobian product"
VJP_HINT = "backward computes v @ J: entry j is the sum over the outputs i of v[i] * J[i, j]."


def _vjp_cases():
    g = rng(1200)
    cases = []
    for m, n in [(3, 3), (2, 4), (4, 2), (1, 5)]:
        J = np.round(g.uniform(-3, 3, size=(m, n)), 1)
        v = np.round(g.uniform(-2, 2, size=(m,)), 1)
        cases.append((J, v))
    return cases


def _backward_vjp(J, v):
    """What minigrad's backward gives for y = J @ x seeded with v: the gradient lands in x.grad."""
    x = Tensor(np.zeros(J.shape[1]), requires_grad=True)
    y = Tensor(J) @ x
    y.backward(Tensor(v))
    return x.grad


@exercise("vjp")
def check_vjp(vjp):
    """Compare ``vjp(J, v)`` with ``x.grad`` after ``(J @ x).backward(v)`` for hidden J and v."""
    t = VJP_TITLE
    cases = _vjp_cases()
    for J, v in cases:
        where = (f" for J of shape {J.shape} (m = {J.shape[0]} outputs, n = {J.shape[1]} inputs)\n"
                 f"   J = {np.array2string(J, separator=', ', prefix='   J = ')}\n"
                 f"   v = {np.array2string(v, separator=', ')}")
        got, err = call(t, vjp, J.copy(), v.copy())
        if err is not None:
            shapes = (f"J has shape {J.shape} and v has shape {v.shape}: v has one number per output, "
                      "i.e. per row of J, so it multiplies J from the left: v @ J.")
            return _with_hint(err, [("mismatch", shapes), ("not aligned", shapes)])
        got = _as_tensor(got)
        expected = _backward_vjp(J, v)
        hint = VJP_HINT
        if isinstance(got, Tensor):
            g = got._data.astype(np.float64)
            if J.shape[0] == J.shape[1] and g.shape == (J.shape[0],) and np.allclose(g, J @ v):
                hint = ("that is J @ v, a Jacobian-vector product (what forward-mode AD computes). Backward "
                        "multiplies from the left: v @ J, i.e. J.T @ v.")
            elif g.shape == (J.shape[1],) and np.allclose(g, J.sum(axis=0)):
                hint = "that is ones @ J (the gradient of y.sum()). Weight row i of J by v[i]."
            elif g.shape == J.shape:
                hint = "the result has one number per input x_j (shape (n,)), not the shape of J. " + VJP_HINT
        bad = check_tensor(t, got, expected, "vector-Jacobian product", where, hint=hint, atol=1e-8, rtol=1e-6)
        if bad is not None:
            return bad
    return passed(t, f"correct for {len(cases)} hidden Jacobians, square and not square: your v @ J is exactly "
                     "what backward puts in x.grad.")


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
        got, err = call(t, seed_for, n)
        if err is not None:
            return err
        got = _as_tensor(got)
        expected = _expected_seed(n)
        hint = ("v[i] is the weight of y[i] in L, i.e. dL/dy[i]: 1 / (n // 2) for each of the first n // 2 "
                "elements, -3 for the last one, 0 for the others.")
        if isinstance(got, Tensor) and tuple(got.shape) == (n,):
            v = got._data.astype(np.float64)
            k = n // 2
            if np.allclose(v, 1):
                hint = "all ones gives the gradient of y.sum(), not of L. " + hint
            elif np.isclose(v[-1], 3):
                hint = "L subtracts 3 * y[-1], so the last weight is -3, not 3."
            elif np.allclose(v[:k], 1) and k > 1:
                hint = f"mean() divides by the number of elements: each of the first {k} weights is 1/{k}."
            elif np.isclose(v[-1], -3) and np.allclose(v[:k], 1 / k) and not np.allclose(v[k:-1], 0):
                hint = "the elements between the first half and the last one are not in L: their weight is 0."
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
