"""scatter_/scatter_add_ in place, and the shape and dtype rules of scatter and gather, as torch 2.13
(expected values from torch; compared live when torch is installed)."""
import pytest

import minigrad

CASES = [
    ("T.zeros(5).scatter_(0, T.tensor(3), value=1)", [0.0, 0.0, 0.0, 1.0, 0.0]),  # the one-hot of the tutorials
    ("T.zeros(3).scatter(0, T.tensor(1), 5.)", [0.0, 5.0, 0.0]),
    ("T.zeros(3).gather(0, T.tensor(1))", 0.0),
    ("T.tensor(0.).scatter(0, T.tensor(0), 5.)", 5.0),
    ("T.zeros(3).scatter_add(0, T.tensor(1), T.tensor(2.))", [0.0, 2.0, 0.0]),
    ("T.zeros(3).scatter(0, T.tensor([1]), T.tensor(2.))", [0.0, 2.0, 0.0]),
    ("T.zeros(2, 3).scatter_add_(1, T.tensor([[0, 0], [1, 2]]), T.ones(2, 2))", [[2.0, 0.0, 0.0], [0.0, 1.0, 1.0]]),
    ("T.zeros(3, dtype=T.long).scatter_(0, T.tensor([0]), value=1.5)", [1, 0, 0]),
    ("T.zeros(3, 2).scatter(0, T.tensor([1]), 5.)",
     "RuntimeError: Index tensor must have the same number of dimensions as self tensor"),
    ("T.zeros(3).scatter(0, T.tensor([[1]]), 5.)",
     "RuntimeError: Index tensor must have the same number of dimensions as self tensor"),
    ("T.zeros(3).gather(0, T.tensor([[1]]))",
     "RuntimeError: Index tensor must have the same number of dimensions as input tensor"),
    ("T.zeros(3, dtype=T.long).scatter_(0, T.tensor([0]), T.tensor([1.5]))",
     "RuntimeError: scatter(): Expected self.dtype to be equal to src.dtype"),
    ("T.zeros(3).scatter_add(0, T.tensor([0]), T.tensor([1.5], dtype=T.float64))",
     "RuntimeError: scatter(): Expected self.dtype to be equal to src.dtype"),
    ("T.ones(2, requires_grad=True).scatter_(0, T.tensor([0]), 1.0)",
     "RuntimeError: a leaf Variable that requires grad is being used in an in-place operation."),
]


def outcome(T, expression):
    try:
        return eval(expression, {"T": T}).tolist()
    except Exception as e:  # noqa: BLE001
        return f"{type(e).__name__}: {e}"


@pytest.mark.parametrize("expression, want", CASES)
def test_scatter(expression, want):
    assert outcome(minigrad, expression) == want


@pytest.mark.parametrize("expression, want", CASES)
def test_the_table_is_torchs(expression, want):
    torch = pytest.importorskip("torch")
    assert outcome(torch, expression) == want


def test_scatter_in_place_records_its_node_and_both_gradients():
    w = minigrad.ones(3, 4, requires_grad=True)
    y = w * 1
    src = minigrad.arange(6.0).view(3, 2).requires_grad_()
    assert y.scatter_(1, minigrad.tensor([[1, 0], [2, 3], [0, 0]]), src) is y
    assert y._version == 1 and y.grad_fn.name() == "ScatterBackward0"
    assert y.tolist() == [[1.0, 0.0, 1.0, 1.0], [1.0, 1.0, 2.0, 3.0], [5.0, 1.0, 1.0, 1.0]]
    (y * minigrad.arange(12.0).view(3, 4)).sum().backward()
    assert w.grad.tolist() == [[0.0, 0.0, 2.0, 3.0], [4.0, 5.0, 0.0, 0.0], [0.0, 9.0, 10.0, 11.0]]
    assert src.grad.tolist() == [[1.0, 0.0], [6.0, 7.0], [8.0, 8.0]]
    w2 = minigrad.ones(2, 3, requires_grad=True)
    z = w2 * 2
    s = minigrad.ones(2, 2, requires_grad=True)
    z.scatter_add_(1, minigrad.tensor([[0, 0], [1, 2]]), s)
    assert z.grad_fn.name() == "ScatterAddBackward0"
    z.pow(2).sum().backward()
    assert w2.grad.tolist() == [[16.0, 8.0, 8.0], [8.0, 12.0, 12.0]] and s.grad.tolist() == [[8.0, 8.0], [6.0, 6.0]]
