"""``out=``: the result written into a given tensor, as torch 2.13 does it (values, version, dtype
rules, the resize warning and the errors).  The expected outcomes are torch's; with torch
installed the table is also compared live."""
import re
import warnings

import pytest

import minigrad

RESIZED = ("UserWarning: An output with one or more elements was resized since it had shape [2], which does not "
           "match the required output shape [].")
NO_AUTOGRAD = "RuntimeError: {}(): functions with out=... arguments don't support automatic differentiation, but one of the arguments requires grad."
CASES = [  # (expression, torch's outcome: the result's values and _version, a warning, or the error)
    ("T.mul(a, a, out=o2)", ([1.0, 1.0], 1)),
    ("T.matmul(m, m.T, out=T.zeros(2, 2))", ([[3.0, 3.0], [3.0, 3.0]], 1)),
    ("T.add(a, a, alpha=2, out=o2)", ([3.0, 3.0], 1)),
    ("T.sub(a, 3, out=T.zeros(2, dtype=T.float64))", ([-2.0, -2.0], 1)),
    ("T.div(a, 4, out=o2)", ([0.25, 0.25], 1)),
    ("T.pow(2, a, out=o2)", ([2.0, 2.0], 1)),
    ("T.exp(a * 0, out=o2)", ([1.0, 1.0], 1)),
    ("T.sigmoid(a * 0, out=o2)", ([0.5, 0.5], 1)),
    ("T.maximum(a, a * 2, out=o2)", ([2.0, 2.0], 1)),
    ("T.clamp(a * 3, 0, 2, out=o2)", ([2.0, 2.0], 1)),
    ("T.sum(m, 0, out=T.zeros(3))", ([2.0, 2.0, 2.0], 1)),
    ("T.mean(m, 1, out=T.empty(0))", ([1.0, 1.0], 1)),
    ("T.mm(m, m.T, out=T.empty(0))", ([[3.0, 3.0], [3.0, 3.0]], 1)),
    ("T.cat([a, a], out=T.empty(0))", ([1.0, 1.0, 1.0, 1.0], 1)),
    ("T.stack([a, a], out=T.empty(0))", ([[1.0, 1.0], [1.0, 1.0]], 1)),
    ("T.add(T.ones(2, dtype=T.long), 1, out=o2)", ([2.0, 2.0], 1)),  # an integer result fits a float tensor
    ("T.dot(a, a, out=o2)", RESIZED),
    ("T.mul(a, a, out=[1])", "TypeError: mul(): argument 'out' must be Tensor, not list"),
    ("T.exp(a, out=3)", "TypeError: exp(): argument 'out' must be Tensor, not int"),
    ("T.tanh(a, out=T.zeros(2, dtype=T.long))",
     "RuntimeError: result type Float can't be cast to the desired output type Long"),
    ("T.cat([a, a], out=T.zeros(4, dtype=T.long))",
     "TypeError: minigrad.cat(): input types can't be cast to the desired output type Long"),
    ("T.mul(x, 2, out=o2)", NO_AUTOGRAD.format("mul")),
    ("T.matmul(x, x, out=T.zeros(()))", NO_AUTOGRAD.format("matmul")),
    ("T.cat([a, x], out=T.zeros(4))", NO_AUTOGRAD.format("cat")),
    ("T.exp(a, out=T.zeros(2, requires_grad=True))", NO_AUTOGRAD.format("exp")),
]


def outcome(T, expression):
    env = {"T": T, "a": T.ones(2), "m": T.ones(2, 3), "o2": T.zeros(2), "x": T.ones(2, requires_grad=True)}
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            result = eval(expression, env)
        except Exception as e:  # noqa: BLE001
            return re.sub(r"\btorch\.", "minigrad.", f"{type(e).__name__}: {e}")
    if caught:
        return f"{caught[0].category.__name__}: {str(caught[0].message).split(' This behavior')[0]}"
    return result.tolist(), result._version


@pytest.mark.parametrize("expression, want", CASES)
def test_out(expression, want):
    assert outcome(minigrad, expression) == want


@pytest.mark.parametrize("expression, want", CASES)
def test_the_table_is_torchs(expression, want):
    torch = pytest.importorskip("torch")
    assert outcome(torch, expression) == want


def test_out_is_the_returned_tensor_and_writes_through_a_view():
    a = minigrad.ones(2)
    base = minigrad.zeros(2, 2)
    row = base[0]
    assert minigrad.mul(a, 3, out=row) is row
    assert base.tolist() == [[3.0, 3.0], [0.0, 0.0]] and base._version == 1
    x = minigrad.ones(2, requires_grad=True)
    with minigrad.no_grad():  # not recorded: out keeps its flags and gets no grad_fn
        out = minigrad.mul(x, 2, out=minigrad.zeros(2, requires_grad=True))
    assert out.requires_grad and out.is_leaf and out.grad_fn is None and out.tolist() == [2.0, 2.0]
