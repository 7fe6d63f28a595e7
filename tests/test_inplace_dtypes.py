"""An in-place op keeps its tensor's dtype, so PyTorch refuses a result that does not fit
(``long_tensor.add_(1.5)``) instead of truncating it silently.  Expected values and messages are
torch 2.13's; with torch installed they are also compared live."""
import pytest

import minigrad

CASES = [  # (expression, what torch gives: a list of values, or "Error: message")
    ("L().add_(1.5)", "RuntimeError: result type Float can't be cast to the desired output type Long"),
    ("L().mul_(T.ones(2))", "RuntimeError: result type Float can't be cast to the desired output type Long"),
    ("L().div_(2)", "RuntimeError: result type Float can't be cast to the desired output type Long"),
    ("L().__iadd__(1.5)", "RuntimeError: result type Float can't be cast to the desired output type Long"),
    ("L().__itruediv__(2)", "RuntimeError: result type Float can't be cast to the desired output type Long"),
    ("L().sub_(T.tensor(0.5))", "RuntimeError: result type Float can't be cast to the desired output type Long"),
    ("L().add_(T.ones(2), alpha=2)", "RuntimeError: result type Float can't be cast to the desired output type Long"),
    ("B().add_(1)", "RuntimeError: result type Long can't be cast to the desired output type Bool"),
    ("B().mul_(2)", "RuntimeError: result type Long can't be cast to the desired output type Bool"),
    ("T.ones(2, dtype=T.int32).mul_(T.tensor(2.5))",
     "RuntimeError: result type Float can't be cast to the desired output type Int"),
    ("T.ones(2, dtype=T.int32).add_(2.0)", "RuntimeError: result type Float can't be cast to the desired output type Int"),
    ("L().sigmoid_()", "RuntimeError: result type Float can't be cast to the desired output type Long"),
    ("L().exp_()", "RuntimeError: result type Float can't be cast to the desired output type Long"),
    ("L().sin_()", "RuntimeError: result type Float can't be cast to the desired output type Long"),
    ("L().sqrt_()", "RuntimeError: result type Float can't be cast to the desired output type Long"),
    ("L().reciprocal_()", "RuntimeError: result type Float can't be cast to the desired output type Long"),
    ("L().remainder_(1.5)", "RuntimeError: result type Float can't be cast to the desired output type Long"),
    ("L().pow_(0.5)", "RuntimeError: result type Float can't be cast to the desired output type Long"),
    ("L().pow_(T.tensor(2.))", "RuntimeError: result type Float can't be cast to the desired output type Long"),
    ("L().clamp_(0.5)", "RuntimeError: result type Float can't be cast to the desired output type long int"),
    ("L().clamp_min_(0.5)", "RuntimeError: result type Float can't be cast to the desired output type long int"),
    ("T.ones(2, dtype=T.uint8).clamp_(0.5)",
     "RuntimeError: result type Float can't be cast to the desired output type unsigned char"),
    ("L().clamp_(T.tensor(0.5))", "RuntimeError: result type Float can't be cast to the desired output type Long"),
    # what fits, and what converts
    ("L().pow_(2)", [1, 1]),
    ("L().clamp_(0, 1)", [1, 1]),
    ("T.ones(2, dtype=T.uint8).add_(T.ones(2, dtype=T.long))", [2, 2]),
    ("T.ones(2, dtype=T.uint8).sub_(3)", [254, 254]),
    ("B().add_(True)", [True, True]),
    ("L().copy_(T.ones(2) * 1.5)", [1, 1]),
    ("L().fill_(2.7)", [2, 2]),
    ("L().masked_fill_(T.ones(2, dtype=T.bool), 1.5)", [1, 1]),
    ("T.ones(2).add_(T.ones(2, dtype=T.float64))", [2.0, 2.0]),
]


def outcome(T, expression):
    env = {"T": T, "L": lambda: T.ones(2, dtype=T.long), "B": lambda: T.ones(2, dtype=T.bool)}
    try:
        return eval(expression, env).tolist()
    except Exception as e:  # noqa: BLE001
        return f"{type(e).__name__}: {e}"


@pytest.mark.parametrize("expression, want", CASES)
def test_an_inplace_result_must_fit_the_tensors_dtype(expression, want):
    assert outcome(minigrad, expression) == want


@pytest.mark.parametrize("expression, want", CASES)
def test_the_table_is_torchs(expression, want):
    torch = pytest.importorskip("torch")
    assert outcome(torch, expression) == want


def test_setitem_converts_like_torch():
    x = minigrad.ones(3, dtype=minigrad.long)
    x[0] = 2.5
    x[1:] = minigrad.tensor([3.7, -1.2])
    assert x.tolist() == [2, 3, -1] and x.dtype is minigrad.long


def test_pow_in_place():
    x = minigrad.tensor([1.0, 2.0], requires_grad=True)
    y = x * 1
    y **= 2
    assert y._version == 1 and y.grad_fn.name() == "PowBackward0"
    z = x * 1
    z.pow_(minigrad.tensor([2.0, 3.0]))
    assert z.grad_fn.name() == "PowBackward1"
    (y.sum() + z.sum()).backward()
    assert x.grad.tolist() == [4.0, 16.0]
    a = minigrad.ones(2)
    b = a
    a **= 3
    assert a is b and a._version == 1


def test_a_comparison_written_in_place_takes_gradients_of_the_tensors_dtype():
    """The node of ``v.eq_(w)`` takes the gradient of ``v`` (float32), not of the comparison (bool): the engine casts
    each gradient to the input metadata of the node it goes to (PyTorch's ``validate_outputs``)."""
    v1 = minigrad.tensor([[-1.17, -0.82]], requires_grad=True)
    v4 = v1.clone().eq_(v1)
    v4.retain_grad()
    v4.amin().sum().backward(inputs=[v1])
    assert v4.dtype == minigrad.float32 and v4.grad.dtype == minigrad.float32
    assert v4.grad.tolist() == [[0.5, 0.5]] and v1.grad.tolist() == [[0.0, 0.0]]
    x = minigrad.tensor([[1., -2.], [3., 4.]], requires_grad=True)
    y = x.clone()
    y[0].lt_(0.0)  # (a view: CopySlices takes the base's gradient)
    y.sum().backward()
    assert y.grad_fn.name() == "minigrad::autograd::CopySlices"
    assert x.grad.dtype == minigrad.float32 and x.grad.tolist() == [[0.0, 0.0], [1.0, 1.0]]
