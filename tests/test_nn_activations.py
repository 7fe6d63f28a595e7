"""The activations celu, mish, hardswish, hardsigmoid, softsign, tanhshrink, softshrink, hardshrink, glu,
prelu, rrelu (and the in-place forms of F), and their modules: what the parity cases
(``tests/parity/cases_nn_act.py``) cannot say.  Derivatives are checked against finite differences
(``gradcheck``, ``gradgradcheck``), rrelu's random slopes against minigrad's own generator, PReLU's weight
through an optimizer step.
"""
import numpy as np
import pytest

import minigrad
from minigrad import nn
from minigrad.autograd import gradcheck, gradgradcheck
from minigrad.nn import functional as F

# away from the kinks (-3, 3, +-lambd, 0), where a finite difference straddles two pieces
_X = [[-3.7, -2.2, -1.3, -0.7, 0.2, 0.9, 1.6, 2.8], [3.4, -0.3, 0.65, -0.85, 2.2, -1.9, 1.1, 0.35]]
_SMOOTH = {
    "celu": lambda x: F.celu(x), "celu_alpha": lambda x: F.celu(x, 0.4), "mish": F.mish, "hardswish": F.hardswish,
    "softsign": F.softsign, "tanhshrink": F.tanhshrink, "softshrink": F.softshrink, "hardshrink": F.hardshrink,
    "glu": F.glu, "glu_dim0": lambda x: F.glu(x, 0), "rrelu_eval": F.rrelu,
    "prelu": lambda x: F.prelu(x, minigrad.tensor(np.linspace(-0.4, 0.5, 8))),  # (one slope per column)
}


def _x():
    return minigrad.tensor(_X, dtype=minigrad.float64, requires_grad=True)


@pytest.mark.parametrize("name", sorted(_SMOOTH))
def test_first_and_second_derivatives_match_finite_differences(name):
    fn = _SMOOTH[name]
    assert gradcheck(fn, (_x(),))
    assert gradgradcheck(fn, (_x(),))


def test_hardsigmoid_first_derivative_and_no_second():
    assert gradcheck(F.hardsigmoid, (_x(),))
    x = _x()
    g, = minigrad.autograd.grad(F.hardsigmoid(x).sum(), x, create_graph=True)
    assert type(g.grad_fn).__name__ == "NotImplemented"
    with pytest.raises(RuntimeError, match="^derivative for aten::hardsigmoid_backward is not implemented$"):
        g.sum().backward()


def test_prelu_weight_derivatives_match_finite_differences():
    x = _x()
    w = minigrad.tensor(np.linspace(-0.4, 0.5, 8), requires_grad=True)
    assert gradcheck(F.prelu, (x, w))
    assert gradgradcheck(F.prelu, (x, w))
    one = minigrad.tensor([0.7], dtype=minigrad.float64, requires_grad=True)
    assert gradgradcheck(F.prelu, (x, one))


def test_formulas_by_hand():
    x = minigrad.tensor([-4.0, -1.0, 0.0, 1.5, 4.0])
    np.testing.assert_allclose(F.hardswish(x)._data, [0, -1 / 3, 0, 1.5 * 4.5 / 6, 4])
    np.testing.assert_allclose(F.hardsigmoid(x)._data, [0, 1 / 3, 0.5, 0.75, 1])
    np.testing.assert_allclose(F.softsign(x)._data, [-0.8, -0.5, 0, 0.6, 0.8])
    np.testing.assert_allclose(F.softshrink(x, 1.0)._data, [-3, 0, 0, 0.5, 3])
    np.testing.assert_allclose(F.hardshrink(x, 1.0)._data, [-4, 0, 0, 1.5, 4])
    np.testing.assert_allclose(F.celu(x, 2.0)._data, [2 * np.expm1(-2), 2 * np.expm1(-0.5), 0, 1.5, 4], rtol=1e-6)
    np.testing.assert_allclose(F.mish(x)._data, x._data * np.tanh(np.log1p(np.exp(x._data))), rtol=1e-6)
    np.testing.assert_allclose(F.glu(minigrad.tensor([2.0, 0.0]))._data, [1.0])
    np.testing.assert_allclose(F.rrelu(x, 0.1, 0.3)._data, [-0.8, -0.2, 0, 1.5, 4], rtol=1e-6)
    np.testing.assert_allclose(F.prelu(x, minigrad.tensor([0.5]))._data, [-2, -0.5, 0, 1.5, 4])


def test_rrelu_training_slopes_come_from_minigrads_generator():
    x = -minigrad.ones(2000)
    minigrad.manual_seed(3)
    a = F.rrelu(x, 0.1, 0.3, training=True)
    minigrad.manual_seed(3)
    b = F.rrelu(x, 0.1, 0.3, training=True)
    c = F.rrelu(x, 0.1, 0.3, training=True)
    assert minigrad.equal(a, b) and not minigrad.equal(b, c)
    slopes = -a._data
    assert slopes.min() >= 0.1 and slopes.max() <= 0.3
    assert abs(slopes.mean() - 0.2) < 0.01 and abs(slopes.std() - 0.2 / np.sqrt(12)) < 0.01  # uniform on [0.1, 0.3]
    y = minigrad.tensor([-1.0, 2.0, -3.0], requires_grad=True)
    out = F.rrelu(y, 0.1, 0.3, training=True)
    out.sum().backward()
    np.testing.assert_allclose(y.grad._data, [-out._data[0], 1.0, out._data[2] / -3.0], rtol=1e-6)


def test_rrelu_module_follows_train_and_eval():
    m = nn.RReLU(0.1, 0.3)
    x = -minigrad.ones(100)
    assert len(set(m(x)._data.tolist())) > 1
    m.eval()
    np.testing.assert_allclose(m(x)._data, -0.2, rtol=1e-6)


def test_prelu_weight_learns_with_sgd():
    m = nn.PReLU(2, init=0.25)
    assert [n for n, _ in m.named_parameters()] == ["weight"] and m.weight.requires_grad
    x = minigrad.tensor([[-2.0, 1.0], [-1.0, -3.0]])
    opt = minigrad.optim.SGD(m.parameters(), lr=0.1)
    m(x).sum().backward()
    np.testing.assert_allclose(m.weight.grad._data, [-3.0, -3.0])  # the sum of the non-positive inputs per channel
    opt.step()
    np.testing.assert_allclose(m.weight._data, [0.55, 0.55], rtol=1e-6)
    m.reset_parameters()
    np.testing.assert_allclose(m.weight._data, [0.25, 0.25])
    assert nn.PReLU(dtype=minigrad.float64).weight.dtype == minigrad.float64


def test_inplace_forms_overwrite_their_input():
    for fn in (F.relu_, F.elu_, F.selu_, F.celu_, F.leaky_relu_, F.hardtanh_, F.rrelu_,
               lambda t: F.threshold_(t, 0.5, -1.0), lambda t: F.mish(t, inplace=True),
               lambda t: F.hardswish(t, inplace=True), lambda t: F.hardsigmoid(t, inplace=True)):
        t = minigrad.tensor([-2.0, 0.7, 3.0])
        before = t._version
        assert fn(t) is t and t._version == before + 1
    t = minigrad.tensor([-2.0, 0.7, 3.0])
    F.mish(t, inplace=True)
    np.testing.assert_allclose(t._data, F.mish(minigrad.tensor([-2.0, 0.7, 3.0]))._data)


def test_softmin_without_dim_warns_at_the_callers_line():
    with pytest.warns(UserWarning, match="^Implicit dimension choice for softmin has been deprecated") as record:
        y = F.softmin(minigrad.tensor([[1.0, 2.0]]))
    assert record[0].filename == __file__
    np.testing.assert_allclose(y._data, [[1 / (1 + np.exp(-1)), 1 / (1 + np.exp(1))]], rtol=1e-6)  # (along dim 1)


def test_the_new_names_are_public():
    for name in ("CELU", "Mish", "Hardswish", "Hardsigmoid", "Softsign", "Tanhshrink", "Softshrink", "Hardshrink",
                 "GLU", "PReLU", "Threshold", "Softmin", "RReLU", "Softmax2d"):
        assert name in nn.__all__ and issubclass(getattr(nn, name), nn.Module), name
    for name in ("celu", "celu_", "mish", "hardswish", "hardsigmoid", "softsign", "tanhshrink", "softshrink",
                 "hardshrink", "glu", "prelu", "rrelu", "rrelu_", "relu_", "elu_", "selu_", "leaky_relu_",
                 "hardtanh_", "threshold_"):
        assert callable(getattr(F, name)), name


def test_matches_torch_on_random_inputs():
    torch = pytest.importorskip("torch")
    rng = np.random.RandomState(5)
    for dtype in ("float32", "float64"):
        v = (rng.standard_normal((6, 10)) * 3).astype(dtype)
        for name, fn in _SMOOTH.items():
            if name == "prelu":
                continue
            for T in (minigrad, torch):
                x = T.tensor(v.tolist(), dtype=getattr(T, dtype), requires_grad=True)
                y = fn.__call__(x) if T is minigrad else _torch_fn(torch, name)(x)
                g, = T.autograd.grad((y * y).sum(), x)
                if T is minigrad:
                    mine = (y.detach().numpy(), g.numpy())
                else:
                    tol = 1e-5 if dtype == "float32" else 1e-12
                    np.testing.assert_allclose(mine[0], y.detach().numpy(), rtol=tol, atol=tol, err_msg=name)
                    np.testing.assert_allclose(mine[1], g.numpy(), rtol=tol, atol=tol, err_msg=name)


def _torch_fn(torch, name):
    TF = torch.nn.functional
    return {"celu": TF.celu, "celu_alpha": lambda x: TF.celu(x, 0.4), "mish": TF.mish, "hardswish": TF.hardswish,
            "softsign": TF.softsign, "tanhshrink": TF.tanhshrink, "softshrink": TF.softshrink,
            "hardshrink": TF.hardshrink, "glu": TF.glu, "glu_dim0": lambda x: TF.glu(x, 0),
            "rrelu_eval": TF.rrelu}[name]
