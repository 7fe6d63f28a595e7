"""The elementwise math of ``minigrad/ops/math_more.py``, where the parity cases (``tests/parity/cases_math.py``)
cannot reach: the special functions against known values in float64, every gradient and second derivative
against finite differences, and the in-place bookkeeping."""
import math

import numpy as np
import pytest

import minigrad
from minigrad.ops import math_more

EULER = 0.57721566490153286061


# ---------------------------------------------------------------------------------- special functions, float64
@pytest.mark.parametrize("fn, x, want", [
    (math_more._digamma, 1.0, -EULER),
    (math_more._digamma, 0.5, -EULER - 2 * math.log(2)),
    (math_more._digamma, 10.0, -EULER + sum(1 / k for k in range(1, 10))),
    (math_more._digamma, -0.5, -EULER - 2 * math.log(2) + 2),  # psi(1 - x) - pi / tan(pi x), x = -0.5
    (lambda x: math_more._zeta(2.0, x), 1.0, math.pi ** 2 / 6),
    (lambda x: math_more._zeta(4.0, x), 1.0, math.pi ** 4 / 90),
    (lambda x: math_more._zeta(3.0, x), 1.0, 1.2020569031595942854),
    (math_more._erfinv, math.erf(0.3), 0.3),
    (math_more._erfinv, math.erf(-2.5), -2.5),
    (math_more._erfinv, 0.0, 0.0),
    (math_more._i1, 1.0, 0.56515910399248502721),
    (math_more._i1, -2.0, -1.5906368546373290634),
    (math_more._i1, 10.0, 2670.9883037012546543),
    (math_more._lgamma, 0.5, math.log(math.sqrt(math.pi))),
    (math_more._lgamma, -1.0, math.inf),
])
def test_special_functions_in_float64(fn, x, want):
    got = fn(x)
    if math.isinf(want):
        assert got == want
    else:
        assert got == pytest.approx(want, rel=1e-14, abs=1e-15)


def test_trigamma_is_pytorchs_series():
    """PyTorch's trigamma stops its series early (about 1e-9 relative in float64); minigrad computes the same."""
    assert math_more._trigamma(1.0) == pytest.approx(math.pi ** 2 / 6, rel=1e-9)
    assert math_more._trigamma(1.0) != pytest.approx(math.pi ** 2 / 6, rel=1e-12)
    assert math_more._trigamma(0.5) == pytest.approx(math.pi ** 2 / 2, rel=1e-9)


def test_polygamma_agrees_with_the_derivative_of_the_one_below():
    x = np.linspace(0.3, 6.0, 23)
    for n in (0, 1, 2, 3):
        h = 1e-5
        below = np.vectorize(lambda v: math_more._polygamma(n)(v, float))
        above = np.vectorize(lambda v: math_more._polygamma(n + 1)(v, float))
        numeric = (below(x + h) - below(x - h)) / (2 * h)
        np.testing.assert_allclose(above(x), numeric, rtol=1e-6)


# ---------------------------------------------------------------------------------- gradients, finite differences
def _numeric_grad(fn, values, h=1e-6):
    """d sum(fn(x)) / dx by central differences, one element at a time (float64)."""
    grads = np.zeros_like(values)
    for i in range(values.size):
        up, down = values.copy(), values.copy()
        up.flat[i] += h
        down.flat[i] -= h
        grads.flat[i] = (fn(minigrad.tensor(up)).sum().item() - fn(minigrad.tensor(down)).sum().item()) / (2 * h)
    return grads


UNARY = {
    "asinh": (lambda x: x.asinh(), (-2, 2)),
    "acosh": (lambda x: x.acosh(), (1.2, 3)),
    "atanh": (lambda x: x.atanh(), (-0.8, 0.8)),
    "erfc": (lambda x: x.erfc(), (-2, 2)),
    "erfinv": (lambda x: x.erfinv(), (-0.9, 0.9)),
    "lgamma": (lambda x: x.lgamma(), (0.3, 4)),
    "digamma": (lambda x: x.digamma(), (0.3, 4)),
    "polygamma2": (lambda x: x.polygamma(2), (0.3, 4)),
    "i0": (lambda x: x.i0(), (-3, 3)),
    "sinc": (lambda x: x.sinc(), (-2, 2)),
    "deg2rad": (lambda x: x.deg2rad(), (-90, 90)),
    "rad2deg": (lambda x: x.rad2deg(), (-2, 2)),
    "logit": (lambda x: x.logit(), (0.1, 0.9)),
    "logit_eps": (lambda x: x.logit(0.05), (0.1, 0.9)),
}


@pytest.mark.parametrize("name", sorted(UNARY))
def test_unary_gradient_and_second_derivative_match_finite_differences(name):
    fn, (lo, hi) = UNARY[name]
    values = np.random.RandomState(0).uniform(lo, hi, 5)
    x = minigrad.tensor(values, requires_grad=True)
    g, = minigrad.autograd.grad(fn(x).sum(), x, create_graph=True)
    np.testing.assert_allclose(g.detach().numpy(), _numeric_grad(fn, values), rtol=1e-6, atol=1e-8)
    if g.requires_grad:  # (deg2rad's gradient is a constant: nothing to differentiate)
        gg, = minigrad.autograd.grad(g.sum(), x)

        def first(t):
            t.requires_grad_()
            return minigrad.autograd.grad(fn(t).sum(), t)[0]
        np.testing.assert_allclose(gg.numpy(), _numeric_grad(first, values), rtol=1e-5, atol=1e-7)


BINARY = {
    "atan2": lambda a, b: a.atan2(b),
    "hypot": lambda a, b: a.hypot(b),
    "logaddexp": lambda a, b: a.logaddexp(b),
    "logaddexp2": lambda a, b: a.logaddexp2(b),
    "ldexp": lambda a, b: a.ldexp(b),
    "copysign": lambda a, b: a.copysign(b),
    "float_power": lambda a, b: a.abs().float_power(b),
}


@pytest.mark.parametrize("name", sorted(BINARY))
def test_binary_gradients_match_finite_differences(name):
    fn = BINARY[name]
    rs = np.random.RandomState(1)
    av, bv = rs.uniform(0.3, 2, (2, 3)) * rs.choice([-1, 1], (2, 3)), rs.uniform(-2, 2, 3)
    a, b = minigrad.tensor(av, requires_grad=True), minigrad.tensor(bv, requires_grad=True)
    fn(a, b).sum().backward()
    np.testing.assert_allclose(a.grad.numpy(), _numeric_grad(lambda t: fn(t, minigrad.tensor(bv)), av), rtol=1e-6,
                               atol=1e-8)
    want_b = _numeric_grad(lambda t: fn(minigrad.tensor(av), t), bv)
    np.testing.assert_allclose(b.grad.numpy(), want_b, rtol=1e-6, atol=1e-8)  # (summed over the broadcast rows)


# ---------------------------------------------------------------------------------- float32: rounded once
def test_float32_results_are_the_float64_result_rounded_once():
    values = np.random.RandomState(2).uniform(0.1, 0.9, 50).astype(np.float32)
    x32, x64 = minigrad.tensor(values), minigrad.tensor(values.astype(np.float64))
    for name in ("erfc", "erfinv", "lgamma", "asinh", "atanh"):
        got = getattr(x32, name)()
        assert got.dtype is minigrad.float32
        np.testing.assert_array_equal(got.numpy(), getattr(x64, name)().numpy().astype(np.float32), err_msg=name)


def test_float32_digamma_is_computed_in_float32_as_pytorch():
    """PyTorch's float32 digamma adds up float32 roundings over its recurrence: these are its numbers (torch 2.13),
    each an ulp or more from the float64 value rounded."""
    x = minigrad.tensor([0.7, 2.7, 0.05])
    want = np.array([-1.220023512840271, 0.7967831492424011, -20.49784278869629], np.float32)
    np.testing.assert_array_equal(x.digamma().numpy(), want)
    assert not (x.double().digamma().numpy().astype(np.float32) == want).any()


# ---------------------------------------------------------------------------------- in place, bookkeeping
def test_logical_inplace_changes_values_and_version_but_not_the_graph():
    w = minigrad.tensor([0.5, -1.5, 0.0], requires_grad=True)
    x = w * 2
    node = x.grad_fn
    x.logical_or_(minigrad.tensor([False, False, True]))
    assert x.grad_fn is node and x._version == 1
    assert x.tolist() == [1.0, 1.0, 1.0]
    x.backward(minigrad.tensor([1.0, 2.0, 3.0]))
    assert w.grad.tolist() == [2.0, 4.0, 6.0]  # (the gradient of w * 2, as if logical_or_ had not happened)


def test_inplace_comparison_records_its_node_and_gives_zero_gradients():
    w = minigrad.tensor([0.5, -1.5, 2.0], requires_grad=True)
    other = minigrad.tensor([0.5, 0.0, 3.0], requires_grad=True)
    x = w * 1
    x.eq_(other)
    assert type(x.grad_fn).__name__ == "EqBackward1"
    assert x.tolist() == [1.0, 0.0, 0.0]
    x.sum().backward()
    assert w.grad.tolist() == [0.0, 0.0, 0.0] and other.grad.tolist() == [0.0, 0.0, 0.0]


def test_inplace_comparison_under_no_grad_only_writes():
    x = minigrad.tensor([1, 5, -2])
    assert x.ge_(1) is x
    assert x.tolist() == [1, 1, 0] and x.dtype is minigrad.int64 and x.grad_fn is None


def test_out_writes_into_the_given_tensor():
    x = minigrad.tensor([0.25, 0.5])
    out = minigrad.empty(2, dtype=minigrad.float64)
    assert minigrad.erfinv(x, out=out) is out
    np.testing.assert_allclose(out.numpy(), [0.2253120550121781, 0.4769362762044699], rtol=1e-6)


def test_frexp_recombines_and_its_exponent_needs_no_gradient():
    x = minigrad.tensor([3.0, -0.1, 1e-30, 0.0], dtype=minigrad.float64, requires_grad=True)
    mantissa, exponent = x.frexp()
    assert exponent.dtype is minigrad.int32 and not exponent.requires_grad
    np.testing.assert_array_equal((mantissa.detach() * exponent.exp2().double()).numpy(), x.detach().numpy())


# ---------------------------------------------------------------------------------- gradcheck, gradgradcheck
def _x64(seed, *shape, lo=-1.5, hi=1.5):
    values = np.random.RandomState(seed).uniform(lo, hi, size=shape)
    return minigrad.tensor(values, dtype=minigrad.float64, requires_grad=True)


@pytest.mark.parametrize("name, fn, smooth", [
    ("atan2", lambda a, b: a.atan2(b), True),
    ("hypot", lambda a, b: a.hypot(b), True),
    ("logaddexp", lambda a, b: a.logaddexp(b), True),
    ("logaddexp2", lambda a, b: a.logaddexp2(b), True),
    ("ldexp", lambda a, b: a.ldexp(b), True),
    ("float_power", lambda a, b: (a * a + 0.5).float_power(b), True),
    ("copysign", lambda a, b: a.copysign(b), False),  # (its second derivative is 0: the ratio is +-1)
    ("fmax", lambda a, b: a.fmax(b), False),
])
def test_binary_gradcheck_with_broadcasting(name, fn, smooth):
    from minigrad.autograd import gradcheck, gradgradcheck
    a, b = _x64(3, 2, 3), _x64(4, 3)
    assert gradcheck(fn, (a, b))
    if smooth:
        assert gradgradcheck(fn, (a, b))
