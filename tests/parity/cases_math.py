"""PyTorch-parity cases (see ``cases.py`` for the conventions and the input helpers).

The elementwise math of ``minigrad/ops/math_more.py``: asinh ... logit, lgamma/digamma/polygamma, erfc/erfinv,
i0, sinc, atan2, hypot, logaddexp(2), copysign, fmax/fmin, ldexp, frexp, nextafter, heaviside, float_power,
gcd/lcm, the aliases, the in-place comparisons and logical ops, isclose/allclose and the tests of the values.
"""
import numpy as np  # noqa: F401

from . import case  # noqa: F401
from .cases import arr, const, fwd_bwd, leaf  # noqa: F401


def second_order(T, o, y, x, name="g"):
    """``create_graph=True``: the first gradient (value and graph), then the gradient of its sum."""
    g, = T.autograd.grad(y.sum(), x, create_graph=True)
    o.all(g, name, depth=4)
    if g.requires_grad:
        gg, = T.autograd.grad(g.sum(), x)
        o[f"{name}.grad"] = gg


# ---------------------------------------------------------------------------------- one input
# name: (the op, lowest input, highest input)
_UNARY = {
    "asinh": (lambda T, x: x.asinh(), -2.0, 2.0),
    "arcsinh": (lambda T, x: T.arcsinh(x), -2.0, 2.0),
    "acosh": (lambda T, x: T.acosh(x), 1.1, 3.0),
    "arccosh": (lambda T, x: x.arccosh(), 1.1, 3.0),
    "atanh": (lambda T, x: x.atanh(), -0.9, 0.9),
    "arctanh": (lambda T, x: T.arctanh(x), -0.9, 0.9),
    "erfc": (lambda T, x: T.erfc(x), -2.0, 2.0),
    "erfinv": (lambda T, x: x.erfinv(), -0.95, 0.95),
    "lgamma": (lambda T, x: T.lgamma(x), 0.2, 4.0),
    "lgamma_neg": (lambda T, x: x.lgamma(), -2.9, -0.1),
    "digamma": (lambda T, x: T.digamma(x), 0.2, 4.0),
    "digamma_neg": (lambda T, x: x.digamma(), -2.9, -0.1),
    "polygamma1": (lambda T, x: T.polygamma(1, x), 0.2, 4.0),
    "polygamma2": (lambda T, x: x.polygamma(2), 0.2, 4.0),
    "polygamma0": (lambda T, x: T.polygamma(0, x), 0.2, 4.0),
    "i0": (lambda T, x: T.i0(x), -3.0, 3.0),
    "sinc": (lambda T, x: T.sinc(x), -2.0, 2.0),
    "deg2rad": (lambda T, x: T.deg2rad(x), -200.0, 200.0),
    "rad2deg": (lambda T, x: x.rad2deg(), -4.0, 4.0),
    "logit": (lambda T, x: T.logit(x), 0.05, 0.95),
    "logit_eps": (lambda T, x: x.logit(eps=0.2), 0.0, 1.0),
    "logit_eps_pos": (lambda T, x: T.logit(x, 0.1), -0.5, 1.5),
    "absolute": (lambda T, x: T.absolute(x), -2.0, 2.0),
    "negative": (lambda T, x: x.negative(), -2.0, 2.0),
    "fix": (lambda T, x: T.fix(x * 3), -2.0, 2.0),
    "frexp_mantissa": (lambda T, x: T.frexp(x * 5).mantissa, -2.0, 2.0),
}


def _unary_case(fn, lo, hi, dtype):
    def c(T, F, o):
        x = leaf(T, 21, 2, 3, lo=lo, hi=hi, dtype=dtype)
        fwd_bwd(T, o, fn(T, x), x=x)
    return c


def _unary_second_case(fn, lo, hi):
    def c(T, F, o):
        x = leaf(T, 22, 4, lo=lo, hi=hi, dtype="float64")
        second_order(T, o, fn(T, x), x)
    return c


def _unary_int_case(fn):
    def c(T, F, o):  # integer and bool inputs: the default float dtype (or the op's own rule), no gradient
        o.val("int", lambda: fn(T, T.tensor([1, 2, 3, -1])))
        o.val("bool", lambda: fn(T, T.tensor([True, False])))
    return c


for _name, (_fn, _lo, _hi) in _UNARY.items():
    case(_unary_case(_fn, _lo, _hi, "float32"), name=f"mth_unary_{_name}")
    case(_unary_case(_fn, _lo, _hi, "float64"), name=f"mth_unary_{_name}_f64")
    case(_unary_second_case(_fn, _lo, _hi), name=f"mth_unary_{_name}_2nd")
    case(_unary_int_case(_fn), name=f"mth_unary_{_name}_int")


@case
def mth_special_values(T, F, o):
    """Poles, limits and the ends of the domains: PyTorch's infinities and nans."""
    inf, nan = float("inf"), float("nan")
    x = T.tensor([0.0, -0.0, -1.0, -2.5, 1.0, 2.0, 1e30, inf, -inf, nan])
    for name in ("lgamma", "digamma", "erfc", "i0", "sinc", "asinh", "atanh", "acosh", "erfinv", "logit"):
        o[name] = getattr(T, name)(x)
    o["trigamma"] = T.polygamma(1, x)
    o["polygamma3"] = T.polygamma(3, x)
    o["erfinv_ends"] = T.erfinv(T.tensor([1.0, -1.0, 0.999999, -0.5]))
    o["sinc_f32"] = T.sinc(T.tensor([2.0, 3.0, -1.0, 0.5]))


@case
def mth_special_values_grads(T, F, o):
    """Gradients at the awkward points: logit outside [0, 1], sinc and i0 at 0, lgamma at a pole."""
    for name, fn, values in [
        ("logit", lambda x: x.logit(), [-0.5, 0.0, 0.5, 1.0, 1.5]),
        ("logit_eps", lambda x: x.logit(0.25), [-0.5, 0.0, 0.25, 0.5, 0.8]),
        ("sinc", lambda x: x.sinc(), [0.0, 1.0, -0.5, 2.0]),
        ("i0", lambda x: x.i0(), [0.0, 1e-9, -1.0, 3.0]),
        ("lgamma", lambda x: x.lgamma(), [0.0, -1.0, 0.5, 3.0]),
        ("atanh", lambda x: x.atanh(), [1.0, -1.0, 0.0, 0.5]),
    ]:
        x = T.tensor(values, requires_grad=True)
        fn(x).sum().backward()
        o[f"{name}.grad"] = x.grad


@case
def mth_i0_second_order_at_zero(T, F, o):
    """i0's gradient is special.i1 (its own node, SpecialI1Backward0), whose derivative is 0.5 at 0."""
    x = T.tensor([0.0, 0.5, -2.0], dtype=T.float64, requires_grad=True)
    y = x.i0()
    g, = T.autograd.grad(y.sum(), x, create_graph=True)
    o.all(g, "g", depth=3)
    gg, = T.autograd.grad(g.sum(), x, create_graph=True)
    o.all(gg, "gg", depth=3)


@case
def mth_unary_method_and_function_forms(T, F, o):
    x = const(T, 23, 3, lo=0.1, hi=0.9)
    o["erfc"] = T.erfc(x)
    o["erfc_m"] = x.erfc()
    o["lgamma_m"] = x.lgamma()
    o["i0_m"] = x.i0()
    o["sinc_m"] = x.sinc()
    o["deg2rad_m"] = x.deg2rad()
    o["logit_f"] = T.logit(x, eps=0.3)
    o["asinh_f"] = T.asinh(x)
    o["positive_is_self"] = T.positive(x) is x
    o["positive_m_is_self"] = x.positive() is x
    o["fix_int"] = T.fix(T.tensor([3, -2]))


# ---------------------------------------------------------------------------------- two inputs
_BINARY = {
    "atan2": (lambda T, a, b: T.atan2(a, b), None),
    "arctan2": (lambda T, a, b: a.arctan2(b), None),
    "hypot": (lambda T, a, b: T.hypot(a, b), None),
    "logaddexp": (lambda T, a, b: T.logaddexp(a, b), None),
    "logaddexp2": (lambda T, a, b: a.logaddexp2(b), None),
    "copysign": (lambda T, a, b: T.copysign(a, b), None),
    "fmax": (lambda T, a, b: T.fmax(a, b), None),
    "fmin": (lambda T, a, b: a.fmin(b), None),
    "ldexp": (lambda T, a, b: T.ldexp(a, b), None),
    "nextafter": (lambda T, a, b: T.nextafter(a, b), None),
    "float_power": (lambda T, a, b: T.float_power(a, b), "a>0"),
}
_SHAPES = [((2, 3), (2, 3)), ((2, 3), (3,)), ((2, 1), (1, 3)), ((), (2, 2))]


def _binary_case(fn, cond, sa, sb, da, db):
    def c(T, F, o):
        a = leaf(T, 24, *sa, lo=0.2 if cond == "a>0" else -2.0, dtype=da)
        b = leaf(T, 25, *sb, dtype=db)
        fwd_bwd(T, o, fn(T, a, b), a=a, b=b)
    return c


def _binary_second_case(fn, cond):
    def c(T, F, o):
        a = leaf(T, 26, 4, lo=0.2 if cond == "a>0" else -2.0, dtype="float64")
        b = leaf(T, 27, 4, dtype="float64")
        y = fn(T, a, b)
        g = T.autograd.grad(y.sum(), [a, b], create_graph=True)
        for name, gi in zip("ab", g):
            o.all(gi, f"g{name}", depth=4)
        if g[0].requires_grad:
            o["gg"] = list(T.autograd.grad(g[0].sum(), [a, b], allow_unused=True))
    return c


def _binary_int_case(fn):
    def c(T, F, o):  # integer and bool operands, and an integer next to a float tensor
        i, f = T.tensor([1, 2, -3]), T.tensor([0.5, -1.5, 2.0])
        o.val("int_int", lambda: fn(T, i, i))
        o.val("bool_bool", lambda: fn(T, T.tensor([True, False, True]), T.tensor([True, True, False])))
        o.val("int_float", lambda: fn(T, i, f))
        o.val("float_int", lambda: fn(T, f, i))
        o.val("float_0dim_f64", lambda: fn(T, f, T.tensor(2.0, dtype=T.float64)))
        o.val("int_0dim_f64", lambda: fn(T, i, T.tensor(2.0, dtype=T.float64)))
        o.val("number", lambda: fn(T, f, 2))
        o.val("number_float", lambda: fn(T, f, 2.5))
        o.val("bad_shapes", lambda: fn(T, T.ones(2), T.ones(3)))
    return c


for _name, (_fn, _cond) in _BINARY.items():
    for _i, (_sa, _sb) in enumerate(_SHAPES):
        case(_binary_case(_fn, _cond, _sa, _sb, "float32", "float32"), name=f"mth_binary_{_name}_{_i}")
    case(_binary_case(_fn, _cond, (2, 3), (3,), "float64", "float64"), name=f"mth_binary_{_name}_f64")
    case(_binary_case(_fn, _cond, (2, 3), (2, 3), "float32", "float64"), name=f"mth_binary_{_name}_mixed")
    case(_binary_second_case(_fn, _cond), name=f"mth_binary_{_name}_2nd")
    case(_binary_int_case(_fn), name=f"mth_binary_{_name}_int")


@case
def mth_binary_method_number_errors(T, F, o):
    """The tensor-only ops refuse a Python number, naming the argument's position (1 in the method)."""
    x = const(T, 28, 3)
    for name in ("atan2", "hypot", "logaddexp", "logaddexp2", "fmax", "fmin", "ldexp", "nextafter", "gcd", "lcm"):
        o.err(f"{name}_method", lambda: getattr(x, name)(2))
        o.err(f"{name}_function", lambda: getattr(T, name)(x, 2.5))
        o.err(f"{name}_input", lambda: getattr(T, name)(2, x))
    o.err("heaviside", lambda: x.heaviside(0.5))
    o.err("heaviside_f", lambda: T.heaviside(x, 0.5))
    o.err("atan2_none", lambda: T.atan2(x, None))


@case
def mth_atan2_quadrants_and_origin(T, F, o):
    a = T.tensor([0.0, -0.0, 1.0, -1.0, 0.0, 2.0], requires_grad=True)
    b = T.tensor([-1.0, -1.0, 0.0, 0.0, 0.0, -3.0], requires_grad=True)
    fwd_bwd(T, o, T.atan2(a, b), a=a, b=b)


@case
def mth_copysign_number_and_zeros(T, F, o):
    """copysign with a number (CopysignBackward1, one edge); the gradient is 0 where x is 0."""
    x = T.tensor([0.0, -0.0, 1.5, -2.0], requires_grad=True)
    fwd_bwd(T, o, T.copysign(x, -1.0), x=x)
    w = T.tensor([0.0, -0.0, 1.5, -2.0], requires_grad=True)
    b = T.tensor([-0.0, 1.0, -1.0, 0.0], requires_grad=True)
    fwd_bwd(T, o, w.copysign(b), name="t", w=w, b=b)
    o["int_number"] = T.copysign(T.tensor([1, -2]), 2)
    o["neg_zero"] = T.copysign(T.tensor([1.0, 2.0]), T.tensor(-0.0))


@case
def mth_fmax_fmin_nans_and_ties(T, F, o):
    """nan on one side picks the other; a tie gives the gradient to the first (no sharing, unlike maximum)."""
    nan = float("nan")
    for name in ("fmax", "fmin"):
        a = T.tensor([1.0, nan, 2.0, 3.0, nan], requires_grad=True)
        b = T.tensor([nan, 1.0, 2.0, 1.0, nan], requires_grad=True)
        y = getattr(T, name)(a, b)
        o.all(y, name)
        y.backward(T.tensor([1.0, 2.0, 3.0, 4.0, 5.0]))
        o[f"{name}.a.grad"] = a.grad
        o[f"{name}.b.grad"] = b.grad
    o["int"] = T.fmax(T.tensor([1, 5]), T.tensor([3, 2]))
    o["bool"] = T.fmin(T.tensor([True, False]), T.tensor([True, True]))


@case
def mth_hypot_logaddexp_no_integer_kernel(T, F, o):
    i = T.tensor([3, 4])
    for name in ("hypot", "logaddexp", "logaddexp2", "nextafter"):
        o.err(name, lambda: getattr(T, name)(i, i))
        o.err(f"{name}_bool", lambda: getattr(T, name)(T.tensor([True]), T.tensor([False])))


@case
def mth_logaddexp_large(T, F, o):
    """No overflow: log(e^1000 + e^1000) is 1000 + log 2."""
    a = T.tensor([1000.0, -1000.0, 0.0, 50.0], requires_grad=True)
    b = T.tensor([1000.0, -1000.0, -200.0, 49.0], requires_grad=True)
    fwd_bwd(T, o, T.logaddexp(a, b), a=a, b=b)
    o["base2"] = T.logaddexp2(a.detach(), b.detach())


@case
def mth_heaviside(T, F, o):
    x = T.tensor([-1.5, 0.0, 2.0, float("nan"), -0.0])
    o["values"] = T.heaviside(x, T.tensor([0.5]))
    o["method"] = x.heaviside(T.tensor(0.25))
    o["int"] = T.heaviside(T.tensor([-2, 0, 3]), T.tensor([7]))
    o["bool"] = T.heaviside(T.tensor([True, False]), T.tensor([True, True]))
    o.err("dtypes", lambda: T.heaviside(x, T.tensor([0.5], dtype=T.float64)))
    o.err("dtypes_int", lambda: T.heaviside(T.tensor([1]), T.tensor([0.5])))
    w = T.tensor([1.0, -1.0, 0.0], requires_grad=True)
    y = T.heaviside(w, T.tensor(0.5))
    o.fn("node", y)
    o.err("backward", lambda: y.sum().backward())


@case
def mth_nextafter_values(T, F, o):
    a = T.tensor([1.0, 1.0, 0.0, -2.0], requires_grad=True)
    b = T.tensor([2.0, 0.0, -1.0, -2.0])
    fwd_bwd(T, o, T.nextafter(a, b), a=a)
    o["f64"] = T.nextafter(T.tensor([1.0], dtype=T.float64), T.tensor([2.0], dtype=T.float64))
    o["mixed"] = T.nextafter(T.tensor([1.0]), T.tensor([2.0], dtype=T.float64))


@case
def mth_ldexp_integer_exponent(T, F, o):
    x = T.tensor([1.5, -0.25, 3.0], requires_grad=True)
    e = T.tensor([2, -3, 0])
    fwd_bwd(T, o, T.ldexp(x, e), x=x)
    o["int_int"] = T.ldexp(T.tensor([1, 3]), T.tensor([4, -1]))


@case
def mth_frexp(T, F, o):
    x = T.tensor([0.0, 1.0, -3.0, 0.1, 1024.0, -0.75], requires_grad=True)
    m, e = T.frexp(x)
    o.all(m, "mantissa")
    o["exponent"] = e
    o.flags("e", e)
    o["names"] = [T.frexp(x).mantissa, T.frexp(x).exponent]
    m.backward(T.tensor([1.0, 2.0, 3.0, 4.0, 5.0, 6.0]))
    o["x.grad"] = x.grad
    o["f64"] = list(T.frexp(T.tensor([6.0, -0.5], dtype=T.float64)))
    o["method"] = list(T.tensor(3.0).frexp())
    o.err("int", lambda: T.frexp(T.tensor([1, 2])))


@case
def mth_float_power(T, F, o):
    """Computed in float64: ToCopyBackward0 under PowBackward0/1; float_power_ wants a float64 tensor."""
    a = leaf(T, 29, 3, lo=0.2)
    fwd_bwd(T, o, T.float_power(a, 2), name="number", depth=3, a=a)
    c = leaf(T, 29, 3, lo=0.2)
    fwd_bwd(T, o, c.float_power(2.5), name="method", depth=3, c=c)
    o["int"] = T.float_power(T.tensor([2, 3]), 2)
    o["int_neg"] = T.float_power(T.tensor([2, 4]), T.tensor([-1, -2]))
    o.err("inplace_f32", lambda: const(T, 29, 3).float_power_(2))
    d = const(T, 29, 3, lo=0.2, dtype="float64")
    o["inplace_f64"] = d.float_power_(T.tensor(2))
    o.err("out_f32", lambda: T.float_power(d, 2, out=T.empty(3)))
    out = T.empty(3, dtype=T.float64)
    o["out_f64"] = T.float_power(d, 3, out=out)


@case
def mth_gcd_lcm(T, F, o):
    a, b = T.tensor([0, -4, 6, 7, 12]), T.tensor([0, 6, -4, 5, 18])
    o["gcd"] = T.gcd(a, b)
    o["lcm"] = T.lcm(a, b)
    o["gcd_m"] = a.gcd(T.tensor(4))
    o["lcm_broadcast"] = T.lcm(a.view(5, 1), T.tensor([2, 3]))
    o["int32"] = T.gcd(T.tensor([6, 9], dtype=T.int32), T.tensor([4, 6], dtype=T.int32))
    c = T.tensor([4, 9])
    c.gcd_(T.tensor([6, 6]))
    o["gcd_"] = c
    c.lcm_(T.tensor([5, 4]))
    o["lcm_"] = c
    o.err("float", lambda: T.gcd(T.tensor([1.0]), T.tensor([2.0])))
    o.err("bool", lambda: T.lcm(T.tensor([True]), T.tensor([True])))
    o.err("int_float", lambda: T.gcd(T.tensor([1]), T.tensor([2.0])))


# ---------------------------------------------------------------------------------- errors
@case
def mth_errors(T, F, o):
    x = const(T, 30, 3)
    o.err("polygamma_neg", lambda: T.polygamma(-1, x))
    o.err("polygamma_float_n", lambda: T.polygamma(1.5, x))
    o.err("polygamma_method_neg", lambda: x.polygamma(-2))
    o.err("positive_bool", lambda: T.positive(T.tensor([True])))
    o.err("absolute_bool", lambda: T.absolute(T.tensor([True])))
    o.err("negative_bool", lambda: T.tensor([True]).negative())
    o.err("fix_bool", lambda: T.fix(T.tensor([True])))
    o.err("atan2_shapes", lambda: T.atan2(T.ones(2, 3), T.ones(2)))
    o.err("isclose_dtypes", lambda: T.isclose(x, x.double()))
    o.err("allclose_dtypes", lambda: T.allclose(x, x.double()))
    o.err("isclose_number", lambda: T.isclose(x, 1.0))
    o.err("isclose_method_number", lambda: x.isclose(1.0))
    o.err("isclose_int_float", lambda: T.isclose(T.tensor([1]), x))
    o.err("inplace_float_into_int", lambda: T.tensor([1, 2]).atan2_(T.tensor([1.0, 2.0])))
    o.err("inplace_int_float_op", lambda: T.tensor([1, 2]).erfc_())
    o.err("inplace_broadcast", lambda: T.ones(3).hypot_(T.ones(2, 3)))


# ---------------------------------------------------------------------------------- in place
_INPLACE = {
    "erfc_": (lambda x: x.erfc_(), -2.0, 2.0),
    "erfinv_": (lambda x: x.erfinv_(), -0.9, 0.9),
    "lgamma_": (lambda x: x.lgamma_(), 0.2, 3.0),
    "digamma_": (lambda x: x.digamma_(), 0.2, 3.0),
    "polygamma_": (lambda x: x.polygamma_(1), 0.2, 3.0),
    "i0_": (lambda x: x.i0_(), -2.0, 2.0),
    "sinc_": (lambda x: x.sinc_(), -2.0, 2.0),
    "deg2rad_": (lambda x: x.deg2rad_(), -90.0, 90.0),
    "rad2deg_": (lambda x: x.rad2deg_(), -2.0, 2.0),
    "logit_": (lambda x: x.logit_(), 0.1, 0.9),
    "logit_eps_": (lambda x: x.logit_(0.3), 0.0, 1.0),
    "fix_": (lambda x: x.fix_(), -3.0, 3.0),
    "absolute_": (lambda x: x.absolute_(), -2.0, 2.0),
    "negative_": (lambda x: x.negative_(), -2.0, 2.0),
    "sgn_": (lambda x: x.sgn_(), -2.0, 2.0),
    "atan2_": (lambda x: x.atan2_(x * 2 + 1), -2.0, 2.0),
    "arctan2_": (lambda x: x.arctan2_(x * 2 + 1), -2.0, 2.0),
    "hypot_": (lambda x: x.hypot_(x * 2 + 1), -2.0, 2.0),
    "copysign_": (lambda x: x.copysign_(x - 1), -2.0, 2.0),
    "copysign_number_": (lambda x: x.copysign_(-2), -2.0, 2.0),
    "ldexp_": (lambda x: x.ldexp_(x.detach() * 2), -2.0, 2.0),
    "nextafter_": (lambda x: x.nextafter_(x * 0), -2.0, 2.0),
    "xlogy_": (lambda x: x.xlogy_(x.detach() * x.detach() + 1), -2.0, 2.0),
    "xlogy_number_": (lambda x: x.xlogy_(3.0), -2.0, 2.0),
    "multiply_": (lambda x: x.multiply_(x.detach() - 1), -2.0, 2.0),
    "divide_": (lambda x: x.divide_(2.5), -2.0, 2.0),
    "divide_floor_": (lambda x: x.divide_(0.5, rounding_mode="floor"), -2.0, 2.0),
    "true_divide_": (lambda x: x.true_divide_(x.detach() * x.detach() + 1), -2.0, 2.0),
    "subtract_": (lambda x: x.subtract_(x * 3, alpha=2), -2.0, 2.0),
    "eq_": (lambda x: x.eq_(x * 0 + 1), -2.0, 2.0),
    "ne_number_": (lambda x: x.ne_(1.0), -2.0, 2.0),
    "lt_": (lambda x: x.lt_(0), -2.0, 2.0),
    "le_": (lambda x: x.le_(x * 2), -2.0, 2.0),
    "gt_": (lambda x: x.gt_(0.5), -2.0, 2.0),
    "ge_": (lambda x: x.ge_(x.flip(0)), -2.0, 2.0),
    "greater_": (lambda x: x.greater_(0), -2.0, 2.0),
    "less_equal_": (lambda x: x.less_equal_(x * 0), -2.0, 2.0),
    "not_equal_": (lambda x: x.not_equal_(0.0), -2.0, 2.0),
    "logical_and_": (lambda x: x.logical_and_(x > 0), -2.0, 2.0),
    "logical_or_": (lambda x: x.logical_or_(x > 0), -2.0, 2.0),
    "logical_xor_": (lambda x: x.logical_xor_(x > 0), -2.0, 2.0),
    "logical_not_": (lambda x: x.logical_not_(), -2.0, 2.0),
}


def _inplace_case(fn, lo, hi):
    def c(T, F, o):
        w = leaf(T, 31, 4, lo=lo, hi=hi)
        x = w * 1  # (a non-leaf: in-place on a leaf that requires grad is refused)
        y = fn(x)
        o["same"] = y is x
        o["version"] = x._version
        o.all(x, "x", depth=3)
        x.backward(T.tensor([1.0, 2.0, 3.0, 4.0]))
        o["w.grad"] = w.grad
    return c


for _name, (_fn, _lo, _hi) in _INPLACE.items():
    case(_inplace_case(_fn, _lo, _hi), name=f"mth_inplace_{_name}")


@case
def mth_inplace_not_implemented(T, F, o):
    """asinh_, acosh_, atanh_: PyTorch records a node whose backward raises."""
    for name, lo in (("asinh_", -2.0), ("acosh_", 1.5), ("atanh_", -0.5), ("arcsinh_", -2.0)):
        w = leaf(T, 32, 3, lo=lo, hi=lo + 0.4)
        x = w * 1
        getattr(x, name)()
        o[name] = x
        o.fn(f"{name}.node", x)
        o.err(f"{name}.backward", lambda: x.sum().backward())
        o[f"{name}.plain"] = getattr(const(T, 32, 3, lo=lo, hi=lo + 0.4), name)()


@case
def mth_inplace_no_grad_and_dtypes(T, F, o):
    """No recording: only the numbers change; comparisons write 1 and 0 in the tensor's dtype."""
    i = T.tensor([1, 2, -3])
    i.lt_(0.5)
    o["int_lt_"] = i
    b = T.tensor([True, False, True])
    b.lt_(0.5)
    o["bool_lt_"] = b
    f = T.tensor([0.5, -1.5, 0.0])
    f.logical_and_(T.tensor([1.0, 1.0, 0.0]))
    o["float_logical_and_"] = f
    i = T.tensor([1, 0, 3])
    i.logical_or_(T.tensor([0.0, 0.0, 1.0]))
    o["int_logical_or_"] = i
    b = T.tensor([True, False])
    b.sgn_()
    o["bool_sgn_"] = b
    g = T.tensor([1.0, 2.0])
    o.err("eq_broadcast", lambda: g.eq_(T.ones(2, 2)))
    o.err("logical_and_broadcast", lambda: g.logical_and_(T.ones(2, 2)))
    o.err("divide_int", lambda: T.tensor([1, 2]).divide_(2))
    o["torch_fns"] = [T.erfc_(T.tensor([0.5])), T.i0_(T.tensor([0.5])), T.sinc_(T.tensor([0.5])),
                      T.deg2rad_(T.tensor([90.0])), T.rad2deg_(T.tensor([1.0])), T.logit_(T.tensor([0.25])),
                      T.fix_(T.tensor([-1.5])), T.negative_(T.tensor([2.0])), T.asinh_(T.tensor([1.0])),
                      T.xlogy_(T.tensor([2.0]), T.tensor([3.0])), T.ldexp_(T.tensor([2.0]), T.tensor([3.0])),
                      T.gcd_(T.tensor([4]), T.tensor([6])), T.lcm_(T.tensor([4]), T.tensor([6]))]


@case
def mth_logical_inplace_leaf(T, F, o):
    """logical_and_ is not recorded at all: even a leaf that requires grad may be changed, and keeps no history."""
    x = T.tensor([0.5, -1.5, 0.0], requires_grad=True)
    x.logical_and_(T.tensor([1.0, 0.0, 1.0]))
    o["x"] = x
    o.flags("x", x)
    o["version"] = x._version
    o.err("eq_leaf", lambda: x.eq_(0))
    o.err("sgn_leaf", lambda: x.sgn_())


# ---------------------------------------------------------------------------------- aliases, tests of values
@case
def mth_comparison_aliases(T, F, o):
    a = const(T, 33, 2, 3)
    b = const(T, 34, 3)
    for name in ("greater", "greater_equal", "less", "less_equal", "not_equal"):
        o[f"{name}_f"] = getattr(T, name)(a, b)
        o[f"{name}_m"] = getattr(a, name)(0.25)
    out = T.empty(2, 3, dtype=T.bool)
    o["out"] = T.greater(a, b, out=out)
    o["out_same"] = T.less(a, 0, out=out) is out


@case
def mth_signbit_isposinf_isneginf_isreal(T, F, o):
    inf, nan = float("inf"), float("nan")
    x = T.tensor([-0.0, 0.0, -1.5, 2.0, inf, -inf, nan, -nan])
    for name in ("signbit", "isposinf", "isneginf", "isreal"):
        o[name] = getattr(T, name)(x)
        o[f"{name}_m"] = getattr(x, name)()
        o[f"{name}_int"] = getattr(T, name)(T.tensor([-1, 0, 2]))
        o[f"{name}_bool"] = getattr(T, name)(T.tensor([True, False]))
    o["signbit_uint8"] = T.signbit(T.tensor([0, 200], dtype=T.uint8))
    o["out"] = T.signbit(x, out=T.empty(8, dtype=T.bool))
    w = T.tensor([1.0, -2.0], requires_grad=True)
    o.flags("no_grad", T.signbit(w))


@case
def mth_is_signed(T, F, o):
    o["values"] = [T.tensor([1.0]).is_signed(), T.tensor([1]).is_signed(), T.tensor([True]).is_signed(),
                   T.tensor([1], dtype=T.uint8).is_signed(), T.tensor([1], dtype=T.int8).is_signed(),
                   T.is_signed(T.tensor([1.0], dtype=T.float64)), T.tensor([1.0], dtype=T.float16).is_signed()]


@case
def mth_isclose_allclose(T, F, o):
    inf, nan = float("inf"), float("nan")
    a = T.tensor([1.0, 1.0 + 1e-6, 2.0, inf, -inf, nan, 0.0])
    b = T.tensor([1.0, 1.0, 2.1, inf, inf, nan, 1e-9])
    o["isclose"] = T.isclose(a, b)
    o["isclose_m"] = a.isclose(b)
    o["isclose_nan"] = a.isclose(b, equal_nan=True)
    o["isclose_tol"] = T.isclose(a, b, rtol=0.1, atol=0.0)
    o["allclose"] = T.allclose(a[:2], b[:2])
    o["allclose_m"] = a.allclose(b)
    o["allclose_nan"] = a[5:].allclose(b[5:], equal_nan=True)
    o["allclose_type"] = type(a.allclose(b)).__name__
    o["int"] = T.isclose(T.tensor([1, 2]), T.tensor([1, 3]))
    o["broadcast"] = T.isclose(T.ones(2, 3), T.ones(3))


@case
def mth_out_argument(T, F, o):
    x = const(T, 35, 3, lo=0.1, hi=0.9)
    y = const(T, 36, 3)
    for name, fn in [("atan2", lambda out: T.atan2(x, y, out=out)), ("erfc", lambda out: T.erfc(x, out=out)),
                     ("polygamma", lambda out: T.polygamma(1, x, out=out)),
                     ("logit", lambda out: T.logit(x, 0.2, out=out)),
                     ("fmax", lambda out: T.fmax(x, y, out=out)), ("copysign", lambda out: T.copysign(x, y, out=out)),
                     ("ldexp", lambda out: T.ldexp(x, y, out=out)), ("absolute", lambda out: T.absolute(y, out=out)),
                     ("negative", lambda out: T.negative(y, out=out)), ("fix", lambda out: T.fix(y, out=out))]:
        out = T.empty(3)
        r = fn(out)
        o[name] = out
        o[f"{name}_same"] = r is out
    w = leaf(T, 37, 3)
    o.err("requires_grad", lambda: T.atan2(w, y, out=T.empty(3)))
    o.err("int_out", lambda: T.erfc(x, out=T.empty(3, dtype=T.int64)))


@case
def mth_saved_attributes(T, F, o):
    """What each node keeps for backward (``grad_fn._saved_*``), by name and value."""
    x = T.tensor([0.5, 0.25], requires_grad=True)
    y = T.tensor([1.5, -2.0], requires_grad=True)
    for name, r in [("atan2", T.atan2(x, y)), ("hypot", T.hypot(x, y)), ("ldexp", T.ldexp(x, y)),
                    ("copysign", T.copysign(x, y)), ("copysign_number", T.copysign(x, 2.0)),
                    ("logit", T.logit(x, 0.1)), ("logit_none", T.logit(x)), ("polygamma", T.polygamma(2, x)),
                    ("fmax", T.fmax(x, y)), ("logaddexp", T.logaddexp(x, y)), ("asinh", x.asinh()),
                    ("erfinv", x.erfinv()), ("i0", x.i0()), ("frexp", T.frexp(x)[0]), ("nextafter", T.nextafter(x, y)),
                    ("sinc", x.sinc()), ("lgamma", x.lgamma()), ("erfc", x.erfc())]:
        keys = sorted(a for a in dir(r.grad_fn) if a.startswith("_saved"))
        o.raw(f"{name}.keys", keys)
        for k in keys:
            o[f"{name}.{k}"] = getattr(r.grad_fn, k)


@case
def mth_i1_node_second_order(T, F, o):
    """Third derivative of i0 runs through SpecialI1Backward0's own formula (i1_backward)."""
    x = T.tensor([0.0, 0.01, 0.7, -1.5], dtype=T.float64, requires_grad=True)
    g, = T.autograd.grad(x.i0().sum(), x, create_graph=True)
    gg, = T.autograd.grad(g.sum(), x, create_graph=True)
    o.all(gg, "gg", depth=5)
    ggg, = T.autograd.grad(gg.sum(), x)
    o["ggg"] = ggg


@case
def mth_float32_int_promotions(T, F, o):
    """0-dim tensors and integer tensors next to float32: the result dtypes of the two-operand float ops."""
    f = const(T, 38, 3)
    i = T.tensor([1, 2, 3], dtype=T.int32)
    z64 = T.tensor(0.5, dtype=T.float64)
    for name in ("atan2", "copysign", "ldexp", "fmax", "hypot", "logaddexp", "nextafter"):
        o.val(f"{name}.f32_z64", lambda: getattr(T, name)(f, z64))
        o.val(f"{name}.z64_f32", lambda: getattr(T, name)(z64, f))
        o.val(f"{name}.i32_f32", lambda: getattr(T, name)(i, f))
        o.val(f"{name}.i32_z64", lambda: getattr(T, name)(i, z64))
        o.val(f"{name}.i32_i64", lambda: getattr(T, name)(i, T.tensor([2, 3, 4])))


@case
def mth_default_dtype_float64(T, F, o):
    """Integer inputs of float ops take the default dtype: float64 once it is set so."""
    T.set_default_dtype(T.float64)
    i = T.tensor([1, 2, 3])
    o["erfc"] = T.erfc(i)
    o["lgamma"] = T.lgamma(i)
    o["atan2"] = T.atan2(i, i)
    o["deg2rad"] = T.deg2rad(i)
    o["logit"] = T.logit(i, 0.25)
    o["copysign"] = T.copysign(i, -1)


@case
def mth_float_power_number_base_and_logit_wide_eps(T, F, o):
    """``float_power(2, x)``: PowBackward2 over ToCopyBackward0; ``logit`` with eps above 0.5 clamps to eps."""
    x = leaf(T, 39, 3)
    fwd_bwd(T, o, T.float_power(2, x), x=x)
    o["int_exponent"] = T.float_power(2.5, T.tensor([1, 2]))
    w = T.tensor([0.5, 0.1, 0.9], requires_grad=True)
    fwd_bwd(T, o, T.logit(w, 0.6), name="logit", w=w)


@case
def mth_result_layouts(T, F, o):
    """A transposed or expanded input: the result's strides, as PyTorch's TensorIterator lays it out."""
    x = const(T, 40, 3, 4, lo=0.1, hi=0.9).t()
    y = const(T, 41, 4, 1, lo=0.1, hi=0.9).expand(4, 3)
    i = T.tensor([[1, 2, 3], [4, 5, 6]]).t()
    for name, fn in [("erfc", lambda: x.erfc()), ("lgamma", lambda: x.lgamma()), ("sinc", lambda: x.sinc()),
                     ("logit", lambda: x.logit(0.1)), ("deg2rad", lambda: x.deg2rad()), ("i0", lambda: x.i0()),
                     ("polygamma", lambda: x.polygamma(1)), ("atan2", lambda: x.atan2(y)), ("hypot", lambda: y.hypot(x)),
                     ("copysign", lambda: x.copysign(-1)), ("fmax", lambda: x.fmax(y)), ("ldexp", lambda: x.ldexp(y)),
                     ("signbit", lambda: x.signbit()), ("isreal", lambda: x.isreal()), ("isposinf", lambda: x.isposinf()),
                     ("isclose", lambda: x.isclose(y)), ("gcd", lambda: i.gcd(i)), ("frexp", lambda: x.frexp()[0]),
                     ("heaviside", lambda: x.heaviside(y)), ("nextafter", lambda: x.nextafter(y)),
                     ("erfc_int", lambda: i.erfc()), ("float_power", lambda: x.float_power(2))]:
        r = fn()
        o[name] = r
        o[f"{name}.stride"] = r.stride()


@case
def mth_inplace_on_views(T, F, o):
    """In place on a view: the base's history gets CopySlices over the op's node."""
    w = leaf(T, 42, 2, 3, lo=0.2, hi=0.9)
    x = w * 1
    x[0].lgamma_()
    x[1, 1:].atan2_(T.tensor([1.0, -2.0]))
    x[:, 0].eq_(x[:, 0].detach().clone())
    o.all(x, "x", depth=4)
    x.backward(T.tensor(arr(43, 2, 3).tolist()))
    o["w.grad"] = w.grad


@case
def mth_broadcast_second_order(T, F, o):
    """create_graph=True with broadcast operands: the engine sums each gradient back to its input's shape."""
    a = leaf(T, 44, 2, 3, dtype="float64")
    b = leaf(T, 45, 3, dtype="float64")
    for name in ("atan2", "hypot", "logaddexp", "ldexp"):
        ga, gb = T.autograd.grad(getattr(T, name)(a, b).sum(), [a, b], create_graph=True)
        o.all(ga, f"{name}.ga", depth=3)
        o.all(gb, f"{name}.gb", depth=3)
        o[f"{name}.gg"] = list(T.autograd.grad((ga.sum() + gb.sum()), [a, b]))


@case
def mth_argument_type_errors(T, F, o):
    """What PyTorch says when an argument has the wrong type, method by method."""
    f = T.tensor([0.5, -1.5, 2.0])
    for name, fn in [("atan2_", lambda: f.clone().atan2_(2)), ("arctan2_", lambda: f.clone().arctan2_(2)),
                     ("hypot_", lambda: f.clone().hypot_(2.5)), ("ldexp_", lambda: f.clone().ldexp_(1)),
                     ("nextafter_", lambda: f.clone().nextafter_(1.0)), ("heaviside_", lambda: f.clone().heaviside_(1.0)),
                     ("gcd_", lambda: T.tensor([4]).gcd_(2)), ("lcm_", lambda: T.tensor([4]).lcm_(2)),
                     ("polygamma_bool", lambda: f.polygamma(True)), ("polygamma_tensor", lambda: T.polygamma(f, 1)),
                     ("polygamma_float_tensor", lambda: T.polygamma(T.tensor(1.5), f)),
                     ("logit_str", lambda: f.logit("a")), ("copysign_none", lambda: f.copysign(None)),
                     ("copysign__none", lambda: f.clone().copysign_(None)), ("float_power_none", lambda: f.float_power(None)),
                     ("eq__none", lambda: f.clone().eq_(None)), ("lt__str", lambda: f.clone().lt_("a")),
                     ("logical_and__int", lambda: f.clone().logical_and_(2)), ("isclose_none", lambda: f.isclose(None)),
                     ("signbit_number", lambda: T.signbit(2)), ("frexp_number", lambda: T.frexp(2.0)),
                     ("erfc_number", lambda: T.erfc(1.0))]:
        o.err(name, fn)
    o["polygamma_0dim_n"] = T.polygamma(T.tensor(1), f)


@case
def alpha_rules(T, F, o):
    """``add``/``sub``'s alpha: no float alpha for an integer (or bool) result, a bool alpha only for a bool result,
    where alpha is read as a bool (tests/test_faithful_gaps.py has the whole table)."""
    L, Bo = (lambda: T.ones(2, dtype=T.int64)), (lambda: T.tensor([True, False]))
    o.err("long_float", lambda: L().add(L(), alpha=1.5))
    o.err("long_sub_", lambda: L().sub_(L(), alpha=1.5))
    o.err("torch_add", lambda: T.add(L(), L(), alpha=2.0))
    o.err("long_bool", lambda: L().add(L(), alpha=True))
    o.err("float_bool", lambda: leaf(T, 324, 2).add(T.ones(2), alpha=True))
    o.err("in_place_cast_first", lambda: L().add_(T.ones(2), alpha=True))
    o["long_int"] = L().add(L(), alpha=3)
    o["long_float_tensor"] = L().add(T.ones(2), alpha=1.5)
    o["bool_2"] = Bo().add(T.tensor([False, True]), alpha=2)
    o["bool_0"] = Bo().add(T.tensor([False, True]), alpha=0)
    x = leaf(T, 325, 2)
    y = x.add(x * 2, alpha=1.5)
    o["saved_alpha"] = y.grad_fn._saved_alpha
    fwd_bwd(T, o, y, x=x)
