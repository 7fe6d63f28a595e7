"""Forward values and gradients print exactly as PyTorch prints them (live comparison, needs torch).

The parity suite (test_parity.py) compares numbers with a tolerance, where -0.0 == 0.0; students see
printed tensors, so this compares the strings: signed zeros, nan and inf included.
"""
import warnings

import pytest

import minigrad

VALUES = [-2.0, -0.0, 0.0, 0.5, 3.0]
OPS = {
    "add": lambda T, x: x + 1, "rsub": lambda T, x: 1 - x, "mul": lambda T, x: x * x,
    "div": lambda T, x: 1 / (x + 5), "div_by_zero": lambda T, x: x / 0, "neg": lambda T, x: -x,
    "exp": lambda T, x: x.exp(), "log": lambda T, x: (x * x + 1).log(), "sqrt": lambda T, x: (x * x + 1).sqrt(),
    "abs": lambda T, x: x.abs(), "tanh": lambda T, x: x.tanh(), "sigmoid": lambda T, x: x.sigmoid(),
    "relu": lambda T, x: x.relu(), "pow2": lambda T, x: x ** 2, "pow3": lambda T, x: x ** 3,
    "rpow": lambda T, x: 2 ** x, "clamp": lambda T, x: x.clamp(-1, 1), "sum": lambda T, x: x.sum(),
    "mean": lambda T, x: x.mean(), "max": lambda T, x: x.max(), "min": lambda T, x: x.min(),
    "max_dim": lambda T, x: x.view(5, 1).max(0)[0], "softmax": lambda T, x: x.softmax(0),
    "log_softmax": lambda T, x: x.log_softmax(0), "slice": lambda T, x: x[1:3], "view": lambda T, x: x.view(5, 1),
    "expand": lambda T, x: x.view(5, 1).expand(5, 2), "t": lambda T, x: x.view(5, 1).t(),
    "mse_loss": lambda T, x: T.nn.functional.mse_loss(x, T.zeros(5)),
    "cross_entropy": lambda T, x: T.nn.functional.cross_entropy(x.unsqueeze(0), T.tensor([2])),
    "where": lambda T, x: T.where(x > 0, x, -x), "maximum": lambda T, x: T.maximum(x, T.zeros(5)),
    "cat": lambda T, x: T.cat([x, x]), "stack": lambda T, x: T.stack([x, x]), "dot": lambda T, x: x @ x,
    "times_zero": lambda T, x: x * 0,
}


def _printed(lib, fn, upstream):
    x = lib.tensor(VALUES, requires_grad=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        y = fn(lib, x)
        forward = repr(y)
        y.backward(lib.full(tuple(y.shape), upstream))
    return (forward + "\n" + repr(x.grad)).replace("torch", "minigrad")


@pytest.mark.parametrize("upstream", [1.0, -1.0])
@pytest.mark.parametrize("name", sorted(OPS))
def test_printed_like_torch(name, upstream):
    torch = pytest.importorskip("torch")
    assert _printed(minigrad, OPS[name], upstream) == _printed(torch, OPS[name], upstream)
