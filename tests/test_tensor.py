"""Tensor basics: creation, dtypes and promotion, shapes, printing (expected strings are PyTorch 2.13's)."""
import numpy as np
import pytest

import minigrad


def test_dtypes_and_size_print_like_pytorch():
    assert repr(minigrad.float32) == "minigrad.float32" and str(minigrad.float64) == "minigrad.float64"
    s = minigrad.ones(2, 3).size()
    assert isinstance(s, tuple) and s == (2, 3) and repr(s) == "minigrad.Size([2, 3])"
    assert minigrad.ones(2, 3).shape.numel() == 6 and minigrad.ones(2, 3).size(-1) == 3


@pytest.mark.parametrize("data, dtype", [
    ([1.0, 2.0], minigrad.float32), ([1, 2], minigrad.int64), ([True, False], minigrad.bool),
    (np.array([1.0], dtype=np.float64), minigrad.float64), (3.5, minigrad.float32),
])
def test_tensor_infers_pytorch_dtypes(data, dtype):
    assert minigrad.tensor(data).dtype is dtype


@pytest.mark.parametrize("make, dtype", [
    (lambda: minigrad.ones(2) * 2.5, minigrad.float32),
    (lambda: minigrad.tensor([1, 2]) * 2.5, minigrad.float32),
    (lambda: minigrad.tensor([1, 2]) * 2, minigrad.int64),
    (lambda: minigrad.tensor([1, 2]) / 2, minigrad.float32),
    (lambda: minigrad.ones(2, dtype=minigrad.float64) + minigrad.ones(2), minigrad.float64),
    (lambda: minigrad.ones(2) + minigrad.tensor(1.0, dtype=minigrad.float64), minigrad.float32),
    (lambda: minigrad.tensor([1, 2]) + minigrad.ones(2), minigrad.float32),
])
def test_type_promotion(make, dtype):
    assert make().dtype is dtype


def test_linspace_matches_pytorch_bit_for_bit():
    a = minigrad.linspace(-100, 100, 10)
    # torch.linspace(-100, 100, 10).tolist() in PyTorch 2.13
    assert a.tolist() == [-100.0, -77.77777862548828, -55.55555725097656, -33.333335876464844, -11.111114501953125,
                          11.111114501953125, 33.333335876464844, 55.55555725097656, 77.77777862548828, 100.0]
    assert minigrad.linspace(0, 1, 7).tolist() == [0.0, 0.1666666716337204, 0.3333333432674408, 0.5,
                                                   0.6666666269302368, 0.8333333134651184, 1.0]


REPRS = [
    (lambda: minigrad.linspace(-100, 100, 10, requires_grad=True),
     "tensor([-100.0000,  -77.7778,  -55.5556,  -33.3333,  -11.1111,   11.1111,\n"
     "          33.3333,   55.5556,   77.7778,  100.0000], requires_grad=True)"),
    (lambda: minigrad.linspace(-100, 100, 10, requires_grad=True).sigmoid(),
     "tensor([0.0000e+00, 1.6655e-34, 7.4564e-25, 3.3382e-15, 1.4945e-05, 9.9999e-01,\n"
     "        1.0000e+00, 1.0000e+00, 1.0000e+00, 1.0000e+00],\n"
     "       grad_fn=<SigmoidBackward0>)"),
    (lambda: minigrad.relu(minigrad.linspace(-100, 100, 10, requires_grad=True)).sum(),
     "tensor(277.7778, grad_fn=<SumBackward0>)"),
    (lambda: minigrad.tensor([1., 2., 3.]), "tensor([1., 2., 3.])"),
    (lambda: minigrad.tensor([1, 2, 3]), "tensor([1, 2, 3])"),
    (lambda: minigrad.tensor([1.5, 2], dtype=minigrad.float64), "tensor([1.5000, 2.0000], dtype=minigrad.float64)"),
    (lambda: minigrad.tensor(3.), "tensor(3.)"),
    (lambda: minigrad.tensor([1e-5, 1e5]), "tensor([1.0000e-05, 1.0000e+05])"),
    (lambda: minigrad.tensor([[1., 2], [3, 4]], requires_grad=True),
     "tensor([[1., 2.],\n        [3., 4.]], requires_grad=True)"),
    (lambda: minigrad.tensor([True, False]), "tensor([ True, False])"),
    (lambda: minigrad.zeros(0), "tensor([])"),
    (lambda: minigrad.tensor([1e10, 1.]), "tensor([1.0000e+10, 1.0000e+00])"),
    (lambda: minigrad.arange(2000.),
     "tensor([0.0000e+00, 1.0000e+00, 2.0000e+00,  ..., 1.9970e+03, 1.9980e+03,\n        1.9990e+03])"),
    (lambda: minigrad.tensor([float("nan"), float("inf"), 1.5]), "tensor([   nan,    inf, 1.5000])"),
    (lambda: minigrad.tensor(3, dtype=minigrad.int32), "tensor(3, dtype=minigrad.int32)"),
    (lambda: minigrad.tensor([0.1234567, 100.]), "tensor([  0.1235, 100.0000])"),
]


@pytest.mark.parametrize("make, text", REPRS)
def test_repr_matches_pytorch(make, text):
    assert repr(make()) == text


def test_views_share_memory_and_version():
    x = minigrad.arange(6.).view(2, 3)
    row = x[0]
    with minigrad.no_grad():
        row.mul_(10)
    assert x.tolist() == [[0.0, 10.0, 20.0], [3.0, 4.0, 5.0]]
    assert x._version == row._version == 1


def test_indexing_records_pytorch_nodes():
    x = minigrad.arange(10., requires_grad=False).requires_grad_()
    m = x.view(2, 5)
    assert m[0, 1].grad_fn.name() == "SelectBackward0"
    assert m[0, 1].grad_fn.next_functions[0][0].name() == "SelectBackward0"
    assert m[:, 1].grad_fn.next_functions[0][0].name() == "ViewBackward0"
    assert m[..., 1:].grad_fn.name() == "SliceBackward0"
    assert x[[1, 2]].grad_fn.name() == "IndexBackward0"
    assert x[None].grad_fn.name() == "UnsqueezeBackward0"
    y = x[[1, 1, 3]].sum() + m[1, 2:4].sum()
    y.backward()
    assert x.grad.tolist() == [0, 2, 0, 1, 0, 0, 0, 1, 1, 0]


def test_errors_read_like_pytorch():
    with pytest.raises(RuntimeError, match=r"^mat1 and mat2 shapes cannot be multiplied \(2x3 and 2x3\)$"):
        minigrad.ones(2, 3).mm(minigrad.ones(2, 3))
    with pytest.raises(RuntimeError, match=r"The size of tensor a \(3\) must match the size of tensor b \(4\) at "
                                           r"non-singleton dimension 1"):
        minigrad.ones(2, 3) + minigrad.ones(4)
    with pytest.raises(RuntimeError, match=r"shape '\[4\]' is invalid for input of size 6"):
        minigrad.ones(6).view(4)
    with pytest.raises(IndexError, match=r"Dimension out of range \(expected to be in range of \[-2, 1\], but got 2\)"):
        minigrad.ones(2, 2).sum(2)
    with pytest.raises(RuntimeError, match="a Tensor with 2 elements cannot be converted to Scalar"):
        minigrad.ones(2).item()
    with pytest.raises(RuntimeError, match="Only Tensors of floating point and complex dtype can require gradients"):
        minigrad.tensor([1, 2], requires_grad=True)
    with pytest.raises(RuntimeError, match="only Tensors of floating point dtype can require gradients"):
        minigrad.tensor([1, 2]).requires_grad_()
    y = minigrad.ones(2, requires_grad=True) * 2
    with pytest.raises(RuntimeError, match="you can only change requires_grad flags of leaf variables"):
        y.requires_grad = False


def test_detach_and_data():
    x = minigrad.ones(2, requires_grad=True)
    d = x.detach()
    assert not d.requires_grad and d.is_leaf and d._vc is x._vc
    assert not x.data.requires_grad and x.data._data is x._data


def test_reshape_copies_when_a_view_is_impossible():
    x = minigrad.arange(6.).view(2, 3).t()
    with pytest.raises(RuntimeError, match="view size is not compatible"):
        x.view(6)
    assert x.reshape(6).tolist() == [0.0, 3.0, 1.0, 4.0, 2.0, 5.0]


def test_max_over_a_dim_returns_values_and_indices():
    x = minigrad.tensor([[1.0, 5.0, 2.0], [7.0, 0.0, 7.0]], requires_grad=True)
    values, indices = x.max(1)
    assert values.tolist() == [5.0, 7.0] and indices.tolist() == [1, 0]
    assert values.grad_fn.name() == "MaxBackward0" and not indices.requires_grad
    values.sum().backward()
    assert x.grad.tolist() == [[0, 1, 0], [1, 0, 0]]


def test_random_is_seeded():
    g = minigrad.manual_seed(3)
    assert repr(g) == "<minigrad.Generator seed=3>" and minigrad.initial_seed() == 3
    a = minigrad.randn(4)
    minigrad.manual_seed(3)
    assert minigrad.randn(4).tolist() == a.tolist()


def test_a_generator_of_ones_own():
    g = minigrad.Generator(7)
    first = minigrad.randn(3, generator=g).tolist()
    g.manual_seed(7)
    assert minigrad.randn(3, generator=g).tolist() == first
    assert minigrad.randint(0, 5, (4,), generator=g).dtype is minigrad.int64


# ---------------------------------------------------------------- gradients written into zeros
# PyTorch's formulas for relu, where, clamp, maximum, max/min and nll_loss write the gradient into
# zeros, so the places that get no gradient hold 0.0 -- not -0.0 (what a negative gradient times a
# 0/1 mask gives, and what would print as "-0.") and not nan (inf * 0).  Recorded from PyTorch 2.13:
MASKED_GRADS = {
    "relu": (lambda T, x: x.relu(), [0.0, 0.0, -2.0]),
    "where": (lambda T, x: T.where(x > 0, x, T.zeros(3)), [0.0, 0.0, -2.0]),
    "clamp": (lambda T, x: x.clamp(min=0.0), [0.0, -2.0, -2.0]),
    "maximum": (lambda T, x: T.maximum(x, T.zeros(3)), [0.0, -1.0, -2.0]),
    "max": (lambda T, x: x.max(), [0.0, 0.0, -2.0]),
    "min": (lambda T, x: x.min(), [-2.0, 0.0, 0.0]),
    "max_dim": (lambda T, x: x.max(0)[0], [0.0, 0.0, -2.0]),
    "nll_loss": (lambda T, x: T.nn.functional.nll_loss(x.unsqueeze(0), T.tensor([1])), [0.0, 2.0, 0.0]),
}


def _masked_grad(lib, fn):
    x = lib.tensor([-1.0, 0.0, 3.0], requires_grad=True)
    (fn(lib, x) * -2).sum().backward()
    return x.grad


@pytest.mark.parametrize("name", sorted(MASKED_GRADS))
def test_gradients_that_do_not_flow_are_positive_zeros(name):
    fn, expected = MASKED_GRADS[name]
    grad = _masked_grad(minigrad, fn)
    assert grad.tolist() == expected
    assert not np.signbit(grad.numpy()[np.array(expected) == 0]).any(), repr(grad)
    assert "-0." not in repr(grad)


@pytest.mark.parametrize("name", sorted(MASKED_GRADS))
def test_masked_gradients_print_like_torch(name):
    torch = pytest.importorskip("torch")
    fn, _ = MASKED_GRADS[name]
    assert repr(_masked_grad(minigrad, fn)) == repr(_masked_grad(torch, fn)).replace("torch", "minigrad")


def test_relu_and_where_stop_infinite_gradients_like_torch():
    x = minigrad.tensor([-1.0, 0.0, 3.0], requires_grad=True)
    x.relu().backward(minigrad.tensor([float("inf"), float("-inf"), float("nan")]))
    assert repr(x.grad) == "tensor([0., 0., nan])"  # PyTorch 2.13 prints the same
    x = minigrad.tensor([-1.0, 2.0, 3.0], requires_grad=True)
    x.relu().backward(minigrad.tensor([5.0, -0.0, float("nan")]))  # a -0.0 that flows stays -0.0
    assert repr(x.grad) == "tensor([0., -0., nan])"
    assert repr(minigrad.where(minigrad.tensor([True, False]), minigrad.ones(2), -0.0)) == "tensor([1., -0.])"
    x = minigrad.tensor([-1.0, 0.0, 3.0], requires_grad=True)
    minigrad.where(x > 0, x, minigrad.zeros(3)).backward(minigrad.tensor([float("inf"), -1.0, 2.0]))
    assert repr(x.grad) == "tensor([0., 0., 2.])"


# relu, clamp and maximum keep -0.0 where PyTorch keeps it (np.clip and np.maximum(x, 0) would not);
# the strings are PyTorch 2.13's
SIGNED_ZERO_FORWARD = {
    "relu": (lambda T, x: x.relu(), "tensor([-0., 0., 0., 2., nan])"),
    "clamp_min": (lambda T, x: x.clamp(min=0), "tensor([-0., 0., 0., 2., nan])"),
    "clamp_max": (lambda T, x: x.clamp(max=0), "tensor([-0.,  0., -1.,  0., nan])"),
    "clamp_both": (lambda T, x: x.clamp(-0.5, 0.5), "tensor([-0.0000,  0.0000, -0.5000,  0.5000,     nan])"),
    "clamp_crossed": (lambda T, x: x.clamp(min=2, max=1), "tensor([1., 1., 1., 1., nan])"),
    "maximum": (lambda T, x: T.maximum(x, T.zeros(5)), "tensor([-0., 0., 0., 2., nan])"),
    "maximum_swapped": (lambda T, x: T.maximum(T.zeros(5), x), "tensor([0., 0., 0., 2., nan])"),
}


@pytest.mark.parametrize("name", sorted(SIGNED_ZERO_FORWARD))
def test_signed_zeros_and_nan_in_forward_match_torch(name):
    fn, expected = SIGNED_ZERO_FORWARD[name]
    assert repr(fn(minigrad, minigrad.tensor([-0.0, 0.0, -1.0, 2.0, float("nan")]))) == expected
    torch = pytest.importorskip("torch")
    assert repr(fn(torch, torch.tensor([-0.0, 0.0, -1.0, 2.0, float("nan")]))) == expected


def test_transposing_a_vector_or_a_number_warns_once_as_pytorch():
    import warnings as w
    import sys
    sys.modules["minigrad._core.tensor_base"]._warned.clear()
    with w.catch_warnings(record=True) as caught:
        w.simplefilter("always")
        minigrad.ones(3).T, minigrad.ones(2, 3, 4).T, minigrad.ones(3).T   # once for all of them
        minigrad.tensor(1.0).T, minigrad.tensor(1.0).mT, minigrad.tensor(1.0).mT
        minigrad.ones(2, 3).T  # a matrix: no warning
    messages = [str(c.message).split(".")[0] for c in caught]
    assert messages == ["The use of `x", "Tensor", "Tensor"]
    assert [str(c.message)[:38] for c in caught[1:]] == ["Tensor.T is deprecated on 0-D tensors.", "Tensor.mT is deprecated on 0-D tensors"]


_SCALAR_PROGRAM = """
import warnings
import {lib} as torch
for t in (torch.ones(3), torch.ones(0), torch.ones(2, dtype=torch.int64)):
    for f in (float, int):
        try:
            f(t)
        except Exception as e:
            print(f.__name__, type(e).__name__, e)
print(float(torch.tensor([2.5])), int(torch.tensor([2.5])), int(torch.ones(1, 1, dtype=torch.int64)))
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    t = torch.ones(1, requires_grad=True)
    print(float(t), int(t), float(t), t.item())
print(len(caught), str(caught[0].message).splitlines()[0] if caught else None)
"""


def test_float_and_int_of_a_tensor_raise_and_warn_as_pytorch():
    """``float(t)`` / ``int(t)``: PyTorch's ValueError for anything but one element (``item()`` raises a
    RuntimeError), and its warning, once per process, for a tensor that requires grad (run in a fresh process)."""
    import subprocess
    import sys

    def run(lib):
        out = subprocess.run([sys.executable, "-c", _SCALAR_PROGRAM.format(lib=lib)], capture_output=True, text=True)
        assert out.returncode == 0, out.stderr
        return out.stdout
    got = run("minigrad")
    refused = ("float ValueError only one element tensors can be converted to Python scalars\n"
               "int ValueError only one element tensors can be converted to Python scalars\n")
    assert got == refused * 3 + "2.5 2 1\n1.0 1 1.0 1.0\n" + (
        "1 Converting a tensor with requires_grad=True to a scalar may lead to unexpected behavior.\n")
    try:
        import torch  # noqa: F401
    except ImportError:
        return
    assert got == run("torch")
