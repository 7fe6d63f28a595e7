"""PyTorch's ZeroTensor (minigrad/ops/zerotensor.py): sgn's gradient is zeros never written to memory.
(tests/parity/cases.py f23_zerotensor compares the same behaviours with PyTorch.)"""
import numpy as np
import pytest

import minigrad
from minigrad.ops import zerotensor


def sgn_grad(values, op=lambda v: v):
    x = minigrad.tensor(values, requires_grad=True)
    op(x).sgn().sum().backward()
    return x


def test_sgn_gives_a_zero_tensor_that_flows_back_through_mul_but_not_neg():
    assert sgn_grad([1.5, -2.0]).grad._is_zerotensor()
    assert sgn_grad([1.5, -2.0], lambda v: v * 3).grad._is_zerotensor()
    neg = sgn_grad([1.5, -2.0], lambda v: -v).grad
    assert not neg._is_zerotensor() and np.signbit(neg.numpy()).all()  # (-0.0: neg sees ordinary zeros)
    assert not sgn_grad([1.5, -2.0], lambda v: v.sum()).grad._is_zerotensor()  # (expanded: copied)


def test_writes_into_a_zero_tensor_raise_pytorchs_errors():
    x = sgn_grad([1.5, -2.0])
    with pytest.raises(RuntimeError, match=r"^ZeroTensors are immutable. Please use the materialized zero tensor"):
        x.sgn().sum().backward()  # the second backward adds into x.grad in place
    with pytest.raises(RuntimeError, match=r"^ZeroTensors are immutable. Please materialize the tensor using"):
        x.grad.copy_(minigrad.ones(2))
    with pytest.raises(RuntimeError, match="tolist\\(\\) shouldn't be called on a tensor with unallocated storage"):
        x.grad.tolist()
    with pytest.raises(RuntimeError, match="Cannot convert a ZeroTensor to numpy"):
        x.grad.numpy()
    assert x.grad.numpy(force=True).tolist() == [0.0, 0.0] and x.grad.clone().tolist() == [0.0, 0.0]


def test_the_kernels_values_and_dtypes():
    z = zerotensor.zeros((2,), np.float32)
    y = minigrad.tensor([-1.0, float("inf")])
    assert (z * y)._is_zerotensor() and (y / z).tolist() == [float("inf")] * 2
    assert np.isnan((z / z).clone().numpy()).all()
    assert (z - y).tolist() == [1.0, -float("inf")] and not (z - y)._is_zerotensor()
    assert np.signbit((minigrad.tensor([-0.0, 1.0]) + z).numpy()[0])  # (a copy of the other operand)
    s = zerotensor.zeros((), np.float32)
    assert (s * 2.5).dtype == minigrad.float64 and (s * 2).dtype == minigrad.float32  # (PyTorch 2.13's promotion)
    assert y.clone().mul_(z).clone().tolist()[0] == 0.0 and np.isnan(y.clone().mul_(z).numpy()[1])  # (in place: real)


@pytest.mark.parametrize("name", ["silu", "mish"])
def test_one_kernel_backward_gives_ordinary_zeros(name):
    """silu's and mish's backward are one native kernel in PyTorch unless grad mode is on: a ZeroTensor gradient
    reaches it as ordinary zeros (the fallback), so x.grad is an ordinary tensor; with create_graph the composite
    formula keeps the ZeroTensor (torch 2.13, fuzz seed 732551)."""
    fn = getattr(minigrad.nn.functional, name)
    x = minigrad.tensor([0.92, -0.41], requires_grad=True)
    fn(x).sgn().sum().backward()
    assert not x.grad._is_zerotensor() and x.grad.tolist() == [0.0, 0.0]
    x = minigrad.tensor([0.92, -0.41], requires_grad=True)
    g, = minigrad.autograd.grad(fn(x).sgn().sum(), x, create_graph=True)
    assert g._is_zerotensor() and g.grad_fn.name() == "MulBackward0"
