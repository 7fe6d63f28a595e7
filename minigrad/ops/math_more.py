"""Still more elementwise math: inverse hyperbolic functions, the gamma family, erfc/erfinv, i0, sinc,
atan2, hypot, logaddexp, copysign, fmax/fmin, ldexp, frexp, and the in-place comparisons.

As in ``unary.py``: each op is a Function whose backward is the formula of PyTorch's
``tools/autograd/derivatives.yaml``, written with minigrad's own ops (so ``create_graph=True`` gives
second derivatives and PyTorch's graph), and whose node has PyTorch's name.  Float-only ops give
integer and bool inputs the default float dtype.  A float32 result is computed in float64 and rounded
once (``rounded_once``), as close as that gets to PyTorch's float32 kernels; where PyTorch's float32 kernel
rounds in between in a way that shows (digamma, trigamma, i0, sinc, logit, ldexp), minigrad does it too.

A gradient with a broadcast shape is summed back to its input's shape by the engine
(``autograd/function.py``), as PyTorch's engine does it (``validate_outputs``): the formulas here
need no ``sum_to``.

numpy has no lgamma, digamma, polygamma, erfinv or i1: they are written below from Python's ``math``
module and the algorithms PyTorch's kernels use (``aten/src/ATen/native/Math.h``), in float64.
"""
import functools
import math

import numpy as np

from .. import _dtype
from .dispatch import Op
from .._core.tensor_base import _TYPE_NAMES, TensorBase as Tensor
from ._util import compare, float_data, rounded_once
from .promotion import as_operand, operands, result_type
from .elementwise import AddScalar, MulScalar, PowScalarBase, SubScalar, Where, constant, filled
from .._core.layout import laid_out
from .unary import NoDerivative, _quiet, _SelfUnary

PI = math.pi


# ------------------------------------------------------------------ special functions, one float64 number at a time
def _elementwise(fn):
    """``fn`` (a function of one Python float) applied to each number of a float64 array."""
    vectorized = np.vectorize(fn, otypes=[np.float64])
    return lambda x: vectorized(x) if x.size else np.zeros(x.shape)


def _lgamma(x):
    """log|Gamma(x)|: Python's ``math.lgamma``, and inf at the poles 0, -1, -2 ... (where it raises)."""
    try:
        return math.lgamma(x)
    except ValueError:
        return math.inf


_PSI_10 = 2.25175258906672110764  # digamma(10)
_DIGAMMA_A = (8.33333333333333333333E-2, -2.10927960927960927961E-2, 7.57575757575757575758E-3,
              -4.16666666666666666667E-3, 3.96825396825396825397E-3, -8.33333333333333333333E-3,
              8.33333333333333333333E-2)


def _digamma(x, real=np.float64):
    """psi(x) = d/dx log Gamma(x), as PyTorch's ``calc_digamma``: the reflection formula for negative x,
    the recurrence psi(x) = psi(x + 1) - 1/x up to x >= 10, then the asymptotic series.

    ``real`` is the number type PyTorch's kernel computes in: numpy's float64, or float32 for a float32 tensor
    (its rounding errors, added up over the recurrence, are PyTorch's then).  numpy's numbers also give C's
    ``1 / 0 = inf`` where Python's would raise."""
    x = real(x)
    if x == 0:
        return math.copysign(math.inf, -x)  # (-inf at +0, inf at -0)
    if x < 0:
        if x == np.trunc(x):  # a pole, or -inf
            return math.nan
        reflection = real(PI / math.tan(PI * math.fmod(x, 1.0)))  # (in float64 for either type, as PyTorch)
        return _digamma(1 - x, real) - reflection
    result = real(0)
    while x < 10:
        result -= 1 / x
        x += 1
    if x == 10:
        return result + real(_PSI_10)
    y = real(0)
    if x < 1e17:
        z = 1 / (x * x)
        series = real(0)
        for a in _DIGAMMA_A:  # (Horner's rule, as PyTorch's polevl)
            series = series * z + real(a)
        y = z * series
    return result + real(np.log(np.float64(x))) - real(0.5) / x - y  # (C's logf, as for sin in _trigamma)


def _trigamma(x, real=np.float64):
    """psi'(x), as PyTorch's ``calc_trigamma``: reflection below 0.5, six steps of the recurrence, then the series,
    every step in ``x``'s type (``real``: as for ``_digamma``)."""
    x = real(x)
    sign, result = real(1), real(0)
    if x < 0.5:
        sign = real(-1)
        sin_pi_x = real(np.sin(np.float64(real(PI) * x)))  # (C's sinf: numpy's float32 sin is an ulp off, 1 in 7)
        result -= real(PI) * real(PI) / (sin_pi_x * sin_pi_x)
        x = 1 - x
    for _ in range(6):
        result += 1 / (x * x)
        x += 1
    ixx = 1 / (x * x)
    tail = 1 + 1 / (2 * x) + ixx * (real(1 / 6) - ixx * (real(1 / 30) - ixx * real(1 / 42)))
    return sign * (result + tail / x)


_ZETA_A = (12.0, -720.0, 30240.0, -1209600.0, 47900160.0, -1.8924375803183791606e9, 7.47242496e10,
           -2.950130727918164224e12, 1.1646782814350067249e14, -4.5979787224074726105e15, 1.8152105401943546773e17,
           -7.1661652561756670113e18)


_MACHEP = 1.11022302462515654042e-16


def _zeta(s, q, real=np.float64):
    """The Hurwitz zeta function sum_k (k + q)^-s, for s > 1 (Cephes' ``zeta``, as PyTorch's): a direct sum, then
    the Euler-Maclaurin correction, in float64; the first term ``q^-s`` in ``real``, the input's type (C's ``powf``
    for a float32 tensor, as PyTorch's kernel computes it)."""
    q = np.float64(q)  # (numpy's numbers: 1 / 0 is inf, as in C, where Python's would raise)
    if q <= 0:
        if q == np.floor(q):
            return math.inf
        if s != np.floor(s):
            return math.nan
    total, a, i = np.float64(real(q) ** real(-s)), q, 0
    b = 0.0
    while i < 9 or a <= 9:
        i += 1
        a += 1
        b = a ** -s
        total += b
        if -_MACHEP * total < b < _MACHEP * total:
            return total
    w = a
    total += b * w / (s - 1)
    total -= 0.5 * b
    a, k = 1.0, 0.0
    for coefficient in _ZETA_A:
        a *= s + k
        b /= w
        t = a * b / coefficient
        total += t
        if abs(t / total) < _MACHEP:
            break
        k += 1
        a *= s + k
        b /= w
        k += 1
    return total


def _polygamma(n):
    """The n-th derivative of digamma, as PyTorch computes it: digamma, trigamma, and for n >= 2
    (-1)^(n+1) n! zeta(n + 1, x)."""
    if n == 0:
        return _digamma
    if n == 1:
        return _trigamma
    sign = 1 if n % 2 else -1
    log_factorial = math.log(math.factorial(n))  # (C's lgamma(n + 1): Python's is an ulp off)

    def nth(x, real):  # every step in x's type, as PyTorch's calc_polygamma: exp(lgamma(n + 1)) * zeta(n + 1, x)
        return sign * real(math.exp(real(log_factorial))) * real(_zeta(n + 1.0, x, real))
    return nth


def _in_precision(fn, x):
    """``fn(v, real)`` for each number ``v`` of ``x``, ``real`` the number type PyTorch's kernel computes in:
    float64 for float64 tensors, float32 for the others (PyTorch computes float16 in float32 too)."""
    real = np.float64 if x.dtype == np.float64 else np.float32
    return _quiet(_elementwise(lambda v: fn(v, real)), x)


def _erfinv(y):
    """The inverse of erf, as PyTorch's ``calc_erfinv``: a rational first guess, then two Newton steps."""
    if abs(y) > 1 or math.isnan(y):
        return math.nan
    if abs(y) == 1:
        return math.copysign(math.inf, y)
    if abs(y) <= 0.7:
        z = y * y
        num = ((-0.140543331 * z + 0.914624893) * z - 1.645349621) * z + 0.886226899
        den = (((0.012229801 * z - 0.329097515) * z + 1.442710462) * z - 2.118377725) * z + 1
        x = y * num / den
    else:
        z = math.sqrt(-math.log((1 - abs(y)) / 2))
        num = ((1.641345311 * z + 3.429567803) * z - 1.624906493) * z - 1.970840454
        den = (1.637067800 * z + 3.543889200) * z + 1
        x = math.copysign(num, y) / den
    for _ in range(2):
        x -= (math.erf(x) - y) / (2 / math.sqrt(PI) * math.exp(-x * x))
    return x


def _i1(x):
    """The modified Bessel function I1: its power series sum_k (x/2)^(2k+1) / (k! (k+1)!), every term positive.
    (At +-inf PyTorch's formula, exp(x) * series(32 / x - 2) / sqrt(x), is inf / inf: nan.)"""
    if x in (math.inf, -math.inf):
        return math.nan
    half = x / 2
    term = total = half
    k = 0
    while abs(term) > 1e-17 * abs(total):
        k += 1
        term *= half * half / (k * (k + 1))
        total += term
    return total


# ------------------------------------------------------------------ inverse hyperbolic functions
class Asinh(_SelfUnary):
    node_name = "AsinhBackward0"
    numpy_fn = np.arcsinh

    @staticmethod
    def backward(ctx, grad):  # 1 / sqrt(x^2 + 1)
        x, = ctx.saved_tensors
        return grad * AddScalar.apply(x.pow(2), 1).rsqrt()


class Acosh(_SelfUnary):
    node_name = "AcoshBackward0"
    numpy_fn = np.arccosh

    @staticmethod
    def backward(ctx, grad):  # 1 / sqrt(x^2 - 1)  (PyTorch: (self * self - 1).rsqrt())
        x, = ctx.saved_tensors
        return grad * SubScalar.apply(x * x, 1).rsqrt()


class Atanh(_SelfUnary):
    node_name = "AtanhBackward0"
    numpy_fn = np.arctanh

    @staticmethod
    def backward(ctx, grad):  # 1 / (1 - x^2)  (PyTorch: grad * 1 / (1 - self.pow(2)))
        x, = ctx.saved_tensors
        return MulScalar.apply(grad, 1) / filled(1, x).sub_(x.pow(2))


class NotImplementedInPlace(Op):
    """``x.asinh_()``, ``x.acosh_()``, ``x.atanh_()``: derivatives.yaml says ``not_implemented("inplace version of
    asinh")``, so PyTorch records a node (``AsinhBackward1``) that raises when backward reaches it."""
    op = None

    @classmethod
    def forward(cls, ctx, a):
        return cls.op.forward(ctx, a)

    @classmethod
    def backward(cls, ctx, grad):
        name = cls.node_name[:-len("Backward1")].lower()
        raise NotImplementedError(f"the derivative for 'inplace version of {name}' is not implemented.")


class AsinhInPlace(NotImplementedInPlace):
    node_name, op = "AsinhBackward1", Asinh


class AcoshInPlace(NotImplementedInPlace):
    node_name, op = "AcoshBackward1", Acosh


class AtanhInPlace(NotImplementedInPlace):
    node_name, op = "AtanhBackward1", Atanh


# ------------------------------------------------------------------ erfc, erfinv
_erfc = _elementwise(math.erfc)


class Erfc(_SelfUnary):
    """``1 - erf(x)``, computed without the cancellation (Python's ``math.erfc``)."""
    node_name = "ErfcBackward0"
    numpy_fn = staticmethod(_erfc)

    @staticmethod
    def backward(ctx, grad):  # d erfc x = -2 / sqrt(pi) * e^(-x^2)
        x, = ctx.saved_tensors
        return MulScalar.apply((-x.pow(2)).exp(), -2.0 / math.sqrt(PI)) * grad


class Erfinv(_SelfUnary):
    """The inverse of erf on (-1, 1): ±inf at ±1, nan outside."""
    node_name = "ErfinvBackward0"
    numpy_fn = staticmethod(_elementwise(_erfinv))

    @staticmethod
    def backward(ctx, grad):  # d erfinv y = sqrt(pi) / 2 * e^(erfinv(y)^2)
        x, = ctx.saved_tensors
        return MulScalar.apply(Erfinv.apply(x).pow(2).exp(), 0.5 * math.sqrt(PI)) * grad


# ------------------------------------------------------------------ the gamma function's logarithm and derivatives
class Lgamma(_SelfUnary):
    """``log|Gamma(x)|``; inf at the poles 0, -1, -2 ..."""
    node_name = "LgammaBackward0"
    numpy_fn = staticmethod(_elementwise(_lgamma))

    @staticmethod
    def backward(ctx, grad):  # d log Gamma(x) = digamma(x)
        x, = ctx.saved_tensors
        return grad * Digamma.apply(x)


class Digamma(_SelfUnary):
    node_name = "DigammaBackward0"

    @staticmethod
    def forward(ctx, a):
        ctx.save_for_backward(a)
        return _in_precision(_digamma, float_data(a))

    @staticmethod
    def backward(ctx, grad):  # d digamma = polygamma(1, x)
        x, = ctx.saved_tensors
        return grad * Polygamma.apply(x, 1)


class Polygamma(Op):
    """``polygamma(n, x)``: the n-th derivative of digamma (``n`` a number: no edge)."""
    node_name = "PolygammaBackward0"
    saved_names = {"n": "n", "self": 0}  # (grad_fn._saved_*)

    @staticmethod
    def forward(ctx, a, n):
        ctx.save_for_backward(a)
        ctx.n = n
        return _in_precision(_polygamma(n), float_data(a))

    @staticmethod
    def backward(ctx, grad):
        x, = ctx.saved_tensors
        return grad * Polygamma.apply(x, ctx.n + 1), None


class PolygammaInPlace(Polygamma):
    """``x.polygamma_(n)``: PyTorch names this node ``PolygammaBackward1`` (same formula)."""
    node_name = "PolygammaBackward1"


def check_polygamma_order(n):
    """``n`` must be an int (or a 0-dim integer tensor), and not negative: PyTorch's errors."""
    if isinstance(n, Tensor) and n._data.ndim == 0 and n._data.dtype.kind in "iu":
        n = n.item()
    if not isinstance(n, int) or isinstance(n, bool):
        raise TypeError(f"polygamma(): argument 'n' (position 1) must be int, not {type(n).__name__}")
    if n < 0:
        raise RuntimeError("polygamma(n, x) does not support negative n.")
    return n


# ------------------------------------------------------------------ Bessel's i0, sinc, degrees and radians
class I0(_SelfUnary):
    """The modified Bessel function of order 0: numpy's ``i0``, Cephes' Chebyshev series as PyTorch's, computed in
    the input's dtype as PyTorch's (not rounded once: in float32 that is nearer to PyTorch's numbers)."""
    node_name = "I0Backward0"

    @staticmethod
    def forward(ctx, a):
        ctx.save_for_backward(a)
        return Tensor(np.asarray(np.i0(float_data(a))))

    @staticmethod
    def backward(ctx, grad):  # d i0 = i1 (PyTorch: at::special_i1, its own node)
        x, = ctx.saved_tensors
        return grad * SpecialI1.apply(x)


class SpecialI1(Op):
    """``torch.special.i1``, the derivative of i0; its own derivative is i0(x) - i1(x) / x (0.5 at x = 0)."""
    node_name = "SpecialI1Backward0"
    saved_names = {"self": 0, "result": 1}  # (grad_fn._saved_*)

    @staticmethod
    def forward(ctx, a):
        out = _quiet(_elementwise(_i1), float_data(a))
        ctx.save_for_backward(a, out)
        return out

    @staticmethod
    def backward(ctx, grad):
        # PyTorch's i1_backward: where |x| <= eps it uses x = eps inside and returns 0.5 (the limit) outside
        x, out = ctx.saved_tensors
        eps = np.finfo(x._data.dtype).eps
        not_tiny = np.abs(x._data) > eps
        safe = Where.apply(not_tiny, x, constant(np.asarray(eps, x._data.dtype)))
        gradx = I0.apply(safe) - out * safe.reciprocal()
        return grad * Where.apply(not_tiny, gradx, constant(np.asarray(0.5, x._data.dtype)))


class Sinc(_SelfUnary):
    """``sin(pi x) / (pi x)``, 1 at 0."""
    node_name = "SincBackward0"

    @staticmethod
    def forward(ctx, a):
        ctx.save_for_backward(a)
        x = float_data(a)
        product = np.asarray(PI, x.dtype) * x  # (in x's dtype, as PyTorch: float32 sinc(2.) is 2.8e-08, not 0)
        out = _quiet(lambda p: np.sin(p) / p, product)
        out._data[x == 0] = 1
        return out

    @staticmethod
    def backward(ctx, grad):  # (pi x cos(pi x) - sin(pi x)) / (pi x^2), 0 at 0 (PyTorch's sinc_backward)
        x, = ctx.saved_tensors
        x_pi = MulScalar.apply(x, PI)
        x_squared_pi = MulScalar.apply(x * x, PI)
        out = grad * ((x_pi * x_pi.cos() - x_pi.sin()) / x_squared_pi)
        return Where.apply(x_squared_pi._data == 0, constant(np.zeros((), out._data.dtype)), out)


class Deg2Rad(Op):
    """``x * pi / 180``: an integer tensor becomes the default float dtype."""
    node_name = "Deg2RadBackward0"
    factor = PI / 180

    @classmethod
    def forward(cls, ctx, a):
        x = float_data(a)
        out = np.asarray(x * np.asarray(cls.factor, x.dtype))  # (the factor in x's dtype, as PyTorch's)
        return Tensor(laid_out(out, a._data, np.asarray(cls.factor)))  # (laid out as x times a wrapped number)

    @classmethod
    def backward(cls, ctx, grad):
        return MulScalar.apply(grad, cls.factor)


class Rad2Deg(Deg2Rad):
    node_name = "Rad2DegBackward0"
    factor = 180 / PI


# ------------------------------------------------------------------ logit with eps
class LogitEps(Op):
    """``x.logit(eps=None)``: ``log(x / (1 - x))``, with ``x`` first clamped to ``[eps, 1 - eps]`` when eps is given.

    PyTorch's derivative (derivatives.yaml: ``logit_backward``): ``1 / (x (1 - x))`` where ``x`` is in
    ``[eps, 1 - eps]`` (or ``[0, 1]`` without eps), and outside 0 (with eps) or nan (without).
    (``unary.Logit``, without eps, is the formula binary_cross_entropy's backward uses.)
    """
    node_name = "LogitBackward0"
    saved_names = {"eps": "eps", "self": 0}  # (grad_fn._saved_*)

    @staticmethod
    def forward(ctx, a, eps):
        if eps is not None and not isinstance(eps, (int, float)):
            raise TypeError(f"logit(): argument 'eps' (position 1) must be float, not {type(eps).__name__}")
        ctx.save_for_backward(a)
        ctx.eps = eps
        x = float_data(a)
        if eps is not None and eps >= 0:  # (PyTorch ignores a negative eps)
            lo, hi = np.asarray(eps, x.dtype), np.asarray(1 - eps, x.dtype)
            x = np.where(x < lo, lo, np.where(x > hi, hi, x))  # (PyTorch's order: an eps above 0.5 gives eps)
        ratio = x / (1 - x)  # (in x's dtype, as PyTorch's kernel; only the log is rounded once)
        return _quiet(np.log, ratio)

    @staticmethod
    def backward(ctx, grad):
        x, = ctx.saved_tensors
        eps = ctx.eps if ctx.eps is not None and ctx.eps >= 0 else None
        lo, hi = (0.0, 1.0) if eps is None else (eps, 1 - eps)
        inside = (x._data >= lo) & (x._data <= hi)
        outside = constant(np.asarray(0.0 if eps is not None else np.nan, grad._data.dtype))
        return Where.apply(inside, grad / (x * filled(1.0, x).sub_(x)), outside), None


# ------------------------------------------------------------------ two float operands: atan2, hypot, logaddexp ...
def _float_dtype(a, b, kernel=None):
    """The dtype of a float op of ``a`` and ``b``: their promoted dtype, or the default float dtype for integers and
    bools; ``kernel``: the op has no integer kernel in PyTorch, which says so (``"hypot_cpu" ... 'Long'``)."""
    dtype = result_type(a, b)
    if dtype.is_floating_point:
        return dtype.numpy
    if kernel:
        raise NotImplementedError(f'"{kernel}_cpu" not implemented for \'{_TYPE_NAMES[dtype.name]}\'')
    return _dtype.get_default_dtype().numpy


def _float_result(fn, a, b, dtype):
    """``fn(x, y)`` computed in float64 and rounded once to ``dtype``, laid out as PyTorch's ``TensorIterator``."""
    x, y = a._data, b._data
    out = fn(x.astype(np.float64), y.astype(np.float64)) if dtype != np.float64 else fn(x, y)
    return Tensor(laid_out(np.asarray(out, dtype=dtype), x, y))


class _FloatBinary(Op):
    """An op ``f(x, y)`` of two tensors computed in floats; it saves both inputs (and ``kernel`` names its
    PyTorch kernel when it has none for integers).  PyTorch's nodes unpack their saved inputs in the order of
    their names (``other`` before ``self``): so do these, so that a changed one is named as there."""
    saved_names = {"other": 0, "self": 1}  # (grad_fn._saved_*)
    numpy_fn = None
    kernel = None

    @classmethod
    def forward(cls, ctx, a, b):
        ctx.save_for_backward(b, a)
        return _float_result(cls.numpy_fn, a, b, _float_dtype(a, b, cls.kernel))


class Atan2(_FloatBinary):
    """``atan2(y, x)``: the angle of the point (x, y), in (-pi, pi]."""
    node_name = "Atan2Backward0"
    numpy_fn = np.arctan2

    @staticmethod
    def backward(ctx, grad):
        # PyTorch's atan2_backward: d/dy = x / (x^2 + y^2), d/dx = -y / (x^2 + y^2), and 0 at (0, 0)
        x, y = ctx.saved_tensors
        recip = (y * y + x * x).reciprocal()
        recip = recip.masked_fill(constant(np.isinf(recip._data)), 0)
        return (grad * x * recip if ctx.needs_input_grad[0] else None,
                grad * -y * recip if ctx.needs_input_grad[1] else None)


class Hypot(_FloatBinary):
    """``sqrt(x^2 + y^2)`` without overflow in between (numpy's ``hypot``)."""
    node_name = "HypotBackward0"
    saved_names = {"other": 0, "self": 1, "result": 2}
    numpy_fn, kernel = np.hypot, "hypot"

    @classmethod
    def forward(cls, ctx, a, b):
        out = _float_result(cls.numpy_fn, a, b, _float_dtype(a, b, cls.kernel))
        need_a, need_b = ctx.needs_input_grad
        ctx.save_for_backward(b if need_b else None, a if need_a else None, out)  # (each only for its own formula)
        return out

    @staticmethod
    def backward(ctx, grad):  # x / hypot and y / hypot
        b, a, out = ctx.saved_tensors
        return (grad * a / out if ctx.needs_input_grad[0] else None,
                grad * b / out if ctx.needs_input_grad[1] else None)


class Logaddexp(_FloatBinary):
    """``log(e^x + e^y)``, without overflow (numpy's ``logaddexp``)."""
    node_name = "LogaddexpBackward0"
    numpy_fn, kernel = np.logaddexp, "logaddexp"

    @staticmethod
    def backward(ctx, grad):  # 1 / (1 + e^(y - x)) and 1 / (1 + e^(x - y))
        b, a = ctx.saved_tensors
        return (grad / AddScalar.apply((b - a).exp(), 1) if ctx.needs_input_grad[0] else None,
                grad / AddScalar.apply((a - b).exp(), 1) if ctx.needs_input_grad[1] else None)


class Logaddexp2(_FloatBinary):
    """``log2(2^x + 2^y)``."""
    node_name = "Logaddexp2Backward0"
    numpy_fn, kernel = np.logaddexp2, "logaddexp2"

    @staticmethod
    def backward(ctx, grad):  # 1 / (1 + 2^(y - x)) and 1 / (1 + 2^(x - y))
        b, a = ctx.saved_tensors
        return (grad / AddScalar.apply(PowScalarBase.apply(2, b - a), 1) if ctx.needs_input_grad[0] else None,
                grad / AddScalar.apply(PowScalarBase.apply(2, a - b), 1) if ctx.needs_input_grad[1] else None)


class Ldexp(Op):
    """``x * 2^y`` (PyTorch: ``LdexpBackward0``): d/dx = 2^y, d/dy = result * ln 2."""
    node_name = "LdexpBackward0"
    saved_names = {"other": 1, "result": 2}  # (grad_fn._saved_*)

    @staticmethod
    def forward(ctx, a, b):
        dtype = _float_dtype(a, b)
        x, y = a._data.astype(dtype), b._data.astype(dtype)
        out = Tensor(laid_out(x * rounded_once(np.exp2, y), a._data, b._data))
        ctx.save_for_backward(None, b, out)
        return out

    @staticmethod
    def backward(ctx, grad):
        _, b, out = ctx.saved_tensors
        return (grad * PowScalarBase.apply(2, b) if ctx.needs_input_grad[0] else None,
                MulScalar.apply(grad * out, math.log(2.0)) if ctx.needs_input_grad[1] else None)


class Nextafter(_FloatBinary):
    """The next float after ``x`` towards ``y``; PyTorch lets the gradient through to ``x`` where ``x != y``."""
    node_name = "NextafterBackward0"
    kernel = "nextafter"

    @classmethod
    def forward(cls, ctx, a, b):
        dtype = _float_dtype(a, b, cls.kernel)
        ctx.other_meta = b._data.shape, b._data.dtype  # (for y's zeros)
        if ctx.needs_input_grad[0]:  # (only x's formula reads them: PyTorch saves them for it alone)
            ctx.save_for_backward(b, a)
        x, y = a._data.astype(dtype), b._data.astype(dtype)  # (in the result's dtype: the next float32 is another)
        return Tensor(laid_out(np.nextafter(x, y), a._data, b._data))

    @staticmethod
    def backward(ctx, grad):  # where(x != y, grad, 0) and zeros for y
        g_y = constant(np.zeros(*ctx.other_meta)) if ctx.needs_input_grad[1] else None
        if not ctx.needs_input_grad[0]:
            return None, g_y
        b, a = ctx.saved_tensors
        x, y = operands(a, b)
        return Where.apply(np.asarray(x != y), grad, constant(np.zeros((), grad._data.dtype))), g_y


# ------------------------------------------------------------------ copysign
class Copysign(Op):
    """``|x|`` with the sign of ``y`` (a tensor: ``CopysignBackward0``; a number: ``CopysignBackward1``, one edge).

    d/dx = result / x (+1 or -1), 0 where x is 0 (PyTorch's ``copysign_tensor_self_backward``); y gets zeros.
    """
    node_name = "CopysignBackward0"
    saved_names = {"self": 0, "result": 1}

    @staticmethod
    def forward(ctx, a, b):
        b = as_operand(b, a)  # (a number: no input of the node)
        ctx.other_meta = b._data.shape, b._data.dtype  # (for y's zeros)
        out = _float_result(np.copysign, a, b, _float_dtype(a, b))
        # (PyTorch saves self only for self's formula, the result always: a later in-place change of the result
        # is refused even when only ``other`` needs its (zero) gradient)
        ctx.save_for_backward(a if ctx.needs_input_grad[0] else None, out)
        return out

    @staticmethod
    def backward(ctx, grad):
        a, out = ctx.saved_tensors
        self_grad = other = None
        if ctx.needs_input_grad[0]:
            ratio = out / a
            ratio.masked_fill_(a == 0, 0)  # (in place, as PyTorch's formula: the ratio keeps a's layout)
            self_grad = grad * ratio
        if len(ctx.needs_input_grad) > 1 and ctx.needs_input_grad[1]:
            other = constant(np.zeros(*ctx.other_meta))
        return self_grad, other


class CopysignScalar(Copysign):
    node_name = "CopysignBackward1"


# ------------------------------------------------------------------ fmax, fmin: max and min that ignore nan
class Fmax(Op):
    """``fmax(x, y)``: the larger, and the other one where one is nan (numpy's ``fmax``).

    The gradient goes to ``x`` where ``x >= y`` or ``y`` is nan, else to ``y`` (no sharing of ties, unlike
    ``maximum``): PyTorch's ``grad.masked_fill((self >= other).logical_or_(other.isnan()).logical_not_(), 0)``.
    """
    node_name = "FmaxBackward0"
    saved_names = {"other": 0, "self": 1}
    other_wins, compare = np.greater, np.greater_equal

    @classmethod
    def forward(cls, ctx, a, b):
        ctx.save_for_backward(b, a)  # (PyTorch unpacks other before self)
        dtype = result_type(a, b).numpy
        x, y = a._data.astype(dtype), b._data.astype(dtype)
        out = np.where((x != x) | cls.other_wins(y, x), y, x)  # fmax(-0.0, 0.0) is -0.0; numpy's can give 0.0)
        return Tensor(laid_out(out, a._data, b._data))

    @classmethod
    def backward(cls, ctx, grad):
        b, a = ctx.saved_tensors
        x, y = operands(a, b)  # (compared as PyTorch's comparisons compare them: in the type of a op b)
        to_self = np.broadcast_to(cls.compare(x, y) | np.isnan(y), grad._data.shape)
        return (grad.masked_fill(constant(~to_self), 0) if ctx.needs_input_grad[0] else None,
                grad.masked_fill(constant(to_self), 0) if ctx.needs_input_grad[1] else None)


class Fmin(Fmax):
    node_name = "FminBackward0"
    other_wins, compare = np.less, np.less_equal


# ------------------------------------------------------------------ heaviside, frexp: no derivative / a mantissa
class Heaviside(NoDerivative):
    """``heaviside(x, values)``: 0 where x < 0, 1 where x > 0, ``values`` where x == 0 (and 0 where x is nan).
    PyTorch has no derivative for it: its node is ``NotImplemented``."""
    node_name = "NotImplemented"

    @staticmethod
    def forward(ctx, a, b):
        x, y = a._data, b._data  # (PyTorch's kernel: x == 0 ? y : x > 0, so a nan x gives 0)
        return Tensor(laid_out(np.where(x == 0, y, x > 0).astype(x.dtype), x, y))

    @staticmethod
    def backward(ctx, grad):
        raise RuntimeError("derivative for aten::heaviside is not implemented")


class Frexp(Op):
    """``x.frexp()``: (mantissa, exponent) with ``x = mantissa * 2^exponent``, |mantissa| in [0.5, 1);
    the exponent is int32 and gets no gradient; d mantissa / dx = 2^-exponent."""
    node_name = "FrexpBackward0"
    saved_names = {"exponent": "exponent"}  # (grad_fn._saved_*)

    @staticmethod
    def forward(ctx, a):
        if a._data.dtype.kind != "f":
            raise RuntimeError("minigrad.frexp() only supports floating-point dtypes")
        mantissa, exponent = np.frexp(a._data)
        exponent = Tensor(np.asarray(exponent, np.int32))
        ctx.mark_non_differentiable(exponent)
        ctx.exponent = exponent
        return Tensor(np.asarray(mantissa, a._data.dtype)), exponent

    @staticmethod
    def backward(ctx, grad, _grad_exponent):
        return grad / ctx.exponent.exp2()


# ------------------------------------------------------------------ in-place comparisons: x.eq_(y), x.lt_(0)
class _CompareInPlace(Op):
    """``x.lt_(y)``: ``x`` takes the values of ``x < y`` (1 and 0 in its own dtype).  PyTorch records the
    comparison's node (``LtBackward0`` for a number ``y``, ``LtBackward1`` for a tensor); its gradients are zeros."""
    numpy_fn = None

    @classmethod
    def forward(cls, ctx, a, b):
        ctx.self_shape = a._data.shape
        ctx.other_meta = (b._data.shape, b._data.dtype) if isinstance(b, Tensor) else None  # (for their zeros)
        return compare(cls.numpy_fn, a, b)

    @staticmethod
    def backward(ctx, grad):
        return (constant(np.zeros(ctx.self_shape, grad._data.dtype)),
                constant(np.zeros(*ctx.other_meta)) if ctx.other_meta is not None else None)


class EqScalar(_CompareInPlace):
    node_name, numpy_fn = "EqBackward0", np.equal


class Eq(_CompareInPlace):
    node_name, numpy_fn = "EqBackward1", np.equal


class NeScalar(_CompareInPlace):
    node_name, numpy_fn = "NeBackward0", np.not_equal


class Ne(_CompareInPlace):
    node_name, numpy_fn = "NeBackward1", np.not_equal


class LtScalar(_CompareInPlace):
    node_name, numpy_fn = "LtBackward0", np.less


class Lt(_CompareInPlace):
    node_name, numpy_fn = "LtBackward1", np.less


class LeScalar(_CompareInPlace):
    node_name, numpy_fn = "LeBackward0", np.less_equal


class Le(_CompareInPlace):
    node_name, numpy_fn = "LeBackward1", np.less_equal


class GtScalar(_CompareInPlace):
    node_name, numpy_fn = "GtBackward0", np.greater


class Gt(_CompareInPlace):
    node_name, numpy_fn = "GtBackward1", np.greater


class GeScalar(_CompareInPlace):
    node_name, numpy_fn = "GeBackward0", np.greater_equal


class Ge(_CompareInPlace):
    node_name, numpy_fn = "GeBackward1", np.greater_equal


def compare_inplace(name, t, tensor_fn, number_fn, other):
    """``t.lt_(other)``: the tensor form of the comparison (``Lt``) or the number form (``LtScalar``)."""
    from .inplace import inplace
    check_tensor_or_number(name, other)
    if isinstance(other, Tensor):
        return inplace(t, tensor_fn, other)
    return inplace(t, number_fn, other)


def unrecorded_inplace(t, out):
    """``x.logical_and_(y)``: derivatives.yaml has no formula for it, and PyTorch does not record it: the values
    change (and the version), ``x.grad_fn`` stays, and the gradient passes through as if nothing happened."""
    from .inplace import _bump_version, _write
    _write(t, out, None, ())
    _bump_version(t)
    return t


# ------------------------------------------------------------------ tests of the numbers: bool tensors, no gradient
def signbit_values(a):
    """Is the sign bit set (-0.0 and -nan too)?  Unsigned and bool tensors: never."""
    return Tensor(laid_out(np.signbit(a._data), a._data))


def isposinf_values(a):
    """Is it +inf?  (Integers and bools never are.)"""
    return Tensor(laid_out(np.isposinf(a._data) & (a._data.dtype.kind == "f"), a._data))


def isneginf_values(a):
    return Tensor(laid_out(np.isneginf(a._data) & (a._data.dtype.kind == "f"), a._data))


def isreal_values(a):
    """minigrad has no complex numbers: every element is real."""
    return Tensor(laid_out(np.ones(a._data.shape, bool), a._data))


def _integer_op(fn, name, a, b):
    """gcd and lcm: integer tensors only (PyTorch names the kernel in its error)."""
    from .promotion import broadcast_shape
    dtype = result_type(a, b)
    if dtype.is_floating_point or dtype is _dtype.bool_:
        raise NotImplementedError(f'"{name}_cpu" not implemented for \'{_TYPE_NAMES[dtype.name]}\'')
    broadcast_shape(a, b)
    x, y = a._data.astype(dtype.numpy), b._data.astype(dtype.numpy)
    return Tensor(laid_out(np.abs(fn(x, y)).astype(dtype.numpy), a._data, b._data))


def gcd_values(a, b):
    return _integer_op(np.gcd, "gcd", a, b)


def lcm_values(a, b):
    return _integer_op(np.lcm, "lcm", a, b)


# ------------------------------------------------------------------ what the Tensor methods call
def check_tensor(name, other, position, arg="other"):
    """Ops like ``atan2`` take no Python number: PyTorch's TypeError (``position`` 1 for the method, 2 for the
    function)."""
    if not isinstance(other, Tensor):
        raise TypeError(f"{name}(): argument '{arg}' (position {position}) must be Tensor, not {type(other).__name__}")
    return other


def check_tensor_or_number(name, other, arg="other"):
    """Methods that take a tensor or a number (``x.copysign(y)``, ``x.eq_(y)``): PyTorch's TypeError for anything
    else, which lists the two forms it has."""
    if not isinstance(other, (Tensor, bool, int, float, np.generic)):
        got = type(other).__name__
        why = f"      didn't match because some of the arguments have invalid types: (!{got}!)\n"
        raise TypeError(f"{name}() received an invalid combination of arguments - got ({got}), but expected one of:\n"
                        f" * (Tensor {arg})\n{why} * (Number {arg})\n{why}")
    return other


def tensor_binary(fn, name, a, b, arg="other"):
    """``a.atan2(b)``: ``b`` must be a tensor, and the two shapes must broadcast."""
    from .elementwise import binary
    return binary(fn, a, check_tensor(name, b, 1, arg))


def inplace_binary(fn, name, a, b, arg="other"):
    """``a.atan2_(b)``: as ``tensor_binary``, written into ``a``."""
    from .inplace import inplace
    return inplace(a, fn, check_tensor(name, b, 1, arg))


def heaviside_of(a, values, name, in_place=False):
    """``a.heaviside(values)``: PyTorch checks the dtypes before the shapes."""
    check_tensor(name, values, 1, "values")
    if a._data.dtype != values._data.dtype:
        raise RuntimeError("heaviside is not yet implemented for tensors with different dtypes.")
    return (inplace_binary if in_place else tensor_binary)(Heaviside, name, a, values, "values")


def float_power_of(a, exponent):
    """``x.float_power(y)``: ``x ** y`` computed in float64 (PyTorch converts both to float64 first, so the nodes
    are ``ToCopyBackward0`` and ``PowBackward0`` or ``PowBackward1``)."""
    check_tensor_or_number("float_power", exponent, "exponent")
    if isinstance(exponent, Tensor):  # (PyTorch's C++ casts the exponent first: its node runs after the base's)
        exponent = exponent.to(_dtype.float64)
    return a.to(_dtype.float64).pow(exponent)


def float_power_into(a, exponent):
    """``x.float_power_(y)``: ``x`` must be float64 already."""
    check_tensor_or_number("float_power_", exponent, "exponent")
    if a._data.dtype != np.float64:
        raise RuntimeError(f"the base given to float_power_ has dtype {_TYPE_NAMES[a._data.dtype.name]} but the "
                           "operation's result requires dtype Double")
    return a.pow_(exponent.to(_dtype.float64) if isinstance(exponent, Tensor) else exponent)


class FrexpResult(tuple):
    """What ``x.frexp()`` returns: a named pair ``(mantissa, exponent)`` that prints like PyTorch's."""
    mantissa = property(lambda self: self[0])
    exponent = property(lambda self: self[1])

    def __repr__(self):
        return f"minigrad.return_types.frexp(\nmantissa={self[0]!r},\nexponent={self[1]!r})"




def isclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False, position=1):
    """``|a - b| <= atol + rtol * |b|`` elementwise (and equal infinities); both tensors of one dtype.
    (``position``: of ``b`` in PyTorch's TypeError, 1 for the method, 2 for the function.)"""
    check_tensor("isclose", b, position)
    if a._data.dtype != b._data.dtype:
        raise RuntimeError(f"{_TYPE_NAMES[a._data.dtype.name]} did not match {_TYPE_NAMES[b._data.dtype.name]}")
    from .promotion import broadcast_shape
    broadcast_shape(a, b)
    out = Tensor(laid_out(np.isclose(a._data, b._data, rtol=rtol, atol=atol, equal_nan=equal_nan), a._data, b._data))
    out._vc[0] = 1  # (PyTorch computes a == b, then |= the tolerance test in place: its _version is 1)
    return out


def allclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False, position=1):
    check_tensor("allclose", b, position)
    return bool(isclose(a, b, rtol, atol, equal_nan, position)._data.all())


def dtype_is_signed(a):
    """Can the dtype hold negative numbers?  (Not bool, not uint8.)"""
    return a._data.dtype.kind in "if"


# ------------------------------------------------------------------ the functions: minigrad.atan2(x, y) is x.atan2(y)
def _call(name, method, input, *args, others=(), out=None):  # noqa: A002
    """``minigrad.<name>(input, *args, out=out)``: the Tensor method (a function, or the method's name), its
    result written into ``out`` when given. ``others``: the arguments that must be tensors, as ``(value, argument
    name)``, checked as PyTorch does."""
    check_tensor(name, input, 1, "input")
    for position, (value, arg) in enumerate(others, start=2):
        check_tensor(name, value, position, arg)
    run = getattr(input, method) if isinstance(method, str) else functools.partial(method, input)
    if out is not None:
        from ._out import write_out
        return write_out(name, out, (input,) + args, lambda: run(*args))
    return run(*args)


def asinh(input, *, out=None):  # noqa: A002
    return _call("asinh", "asinh", input, out=out)


def acosh(input, *, out=None):  # noqa: A002
    return _call("acosh", "acosh", input, out=out)


def atanh(input, *, out=None):  # noqa: A002
    return _call("atanh", "atanh", input, out=out)


arcsinh, arccosh, arctanh = asinh, acosh, atanh


def erfc(input, *, out=None):  # noqa: A002
    return _call("erfc", "erfc", input, out=out)


def erfinv(input, *, out=None):  # noqa: A002
    return _call("erfinv", "erfinv", input, out=out)


def lgamma(input, *, out=None):  # noqa: A002
    return _call("lgamma", "lgamma", input, out=out)


def digamma(input, *, out=None):  # noqa: A002
    return _call("digamma", "digamma", input, out=out)


def polygamma(n, input, *, out=None):  # noqa: A002
    check_polygamma_order(n)
    return _call("polygamma", "polygamma", input, n, out=out)


def i0(input, *, out=None):  # noqa: A002
    return _call("i0", "i0", input, out=out)


def sinc(input, *, out=None):  # noqa: A002
    return _call("sinc", "sinc", input, out=out)


def deg2rad(input, *, out=None):  # noqa: A002
    return _call("deg2rad", "deg2rad", input, out=out)


def rad2deg(input, *, out=None):  # noqa: A002
    return _call("rad2deg", "rad2deg", input, out=out)


def logit(input, eps=None, *, out=None):  # noqa: A002
    return _call("logit", "logit", input, eps, out=out)


def atan2(input, other, *, out=None):  # noqa: A002
    return _call("atan2", "atan2", input, other, others=[(other, "other")], out=out)


def arctan2(input, other, *, out=None):  # noqa: A002
    return _call("arctan2", "arctan2", input, other, others=[(other, "other")], out=out)


def hypot(input, other, *, out=None):  # noqa: A002
    return _call("hypot", "hypot", input, other, others=[(other, "other")], out=out)


def logaddexp(input, other, *, out=None):  # noqa: A002
    return _call("logaddexp", "logaddexp", input, other, others=[(other, "other")], out=out)


def logaddexp2(input, other, *, out=None):  # noqa: A002
    return _call("logaddexp2", "logaddexp2", input, other, others=[(other, "other")], out=out)


def ldexp(input, other, *, out=None):  # noqa: A002
    return _call("ldexp", "ldexp", input, other, others=[(other, "other")], out=out)


def nextafter(input, other, *, out=None):  # noqa: A002
    return _call("nextafter", "nextafter", input, other, others=[(other, "other")], out=out)


def fmax(input, other, *, out=None):  # noqa: A002
    return _call("fmax", "fmax", input, other, others=[(other, "other")], out=out)


def fmin(input, other, *, out=None):  # noqa: A002
    return _call("fmin", "fmin", input, other, others=[(other, "other")], out=out)


def heaviside(input, values, *, out=None):  # noqa: A002
    return _call("heaviside", "heaviside", input, values, others=[(values, "values")], out=out)


def gcd(input, other, *, out=None):  # noqa: A002
    return _call("gcd", "gcd", input, other, others=[(other, "other")], out=out)


def lcm(input, other, *, out=None):  # noqa: A002
    return _call("lcm", "lcm", input, other, others=[(other, "other")], out=out)


def copysign(input, other, *, out=None):  # noqa: A002
    return _call("copysign", "copysign", input, other, out=out)


def float_power(input, exponent, *, out=None):  # noqa: A002
    if out is not None and out._data.dtype != np.float64:  # (PyTorch's check, before any other)
        raise RuntimeError(f"the output given to float_power has dtype {_TYPE_NAMES[out._data.dtype.name]} but the "
                           "operation's result requires dtype Double")
    if not isinstance(input, Tensor) and isinstance(exponent, Tensor):  # a number to a tensor power: PowBackward2
        return _call("float_power", _number_to_float_power, exponent, input, out=out)
    return _call("float_power", "float_power", input, exponent, out=out)


def _number_to_float_power(exponent, number):
    """``float_power(2, x)``: the number to the power ``x`` in float64 (``x`` first: the tensor ``_call`` checks)."""
    return number ** exponent.to(_dtype.float64)


def signbit(input, *, out=None):  # noqa: A002
    return _call("signbit", "signbit", input, out=out)


def isposinf(input, *, out=None):  # noqa: A002
    return _call("isposinf", "isposinf", input, out=out)


def isneginf(input, *, out=None):  # noqa: A002
    return _call("isneginf", "isneginf", input, out=out)


def absolute(input, *, out=None):  # noqa: A002
    return _call("absolute", "abs", input, out=out)


def negative(input, *, out=None):  # noqa: A002
    return _call("negative", "neg", input, out=out)


def fix(input, *, out=None):  # noqa: A002
    return _call("fix", "trunc", input, out=out)


def greater(input, other, *, out=None):  # noqa: A002
    return _call("greater", "greater", input, other, out=out)


def greater_equal(input, other, *, out=None):  # noqa: A002
    return _call("greater_equal", "greater_equal", input, other, out=out)


def less(input, other, *, out=None):  # noqa: A002
    return _call("less", "less", input, other, out=out)


def less_equal(input, other, *, out=None):  # noqa: A002
    return _call("less_equal", "less_equal", input, other, out=out)


def not_equal(input, other, *, out=None):  # noqa: A002
    return _call("not_equal", "not_equal", input, other, out=out)


def frexp(input):  # noqa: A002  (PyTorch's out= is a pair of tensors: not here)
    return _call("frexp", "frexp", input)


def is_signed(input):  # noqa: A002
    return _call("is_signed", "is_signed", input)


# (no out=)
def positive(input):  # noqa: A002
    return _call("positive", "positive", input)


def isreal(input):  # noqa: A002
    return _call("isreal", "isreal", input)


# minigrad.xxx_(x) is x.xxx_() (PyTorch has these functions for a few ops)
def asinh_(input):  # noqa: A002
    return input.asinh_()


def acosh_(input):  # noqa: A002
    return input.acosh_()


def atanh_(input):  # noqa: A002
    return input.atanh_()


arcsinh_, arccosh_, arctanh_ = asinh_, acosh_, atanh_


def erfc_(input):  # noqa: A002
    return input.erfc_()


def i0_(input):  # noqa: A002
    return input.i0_()


def sinc_(input):  # noqa: A002
    return input.sinc_()


def deg2rad_(input):  # noqa: A002
    return input.deg2rad_()


def rad2deg_(input):  # noqa: A002
    return input.rad2deg_()


def logit_(input, eps=None):  # noqa: A002
    return input.logit_(eps)


def fix_(input):  # noqa: A002
    return input.fix_()


def negative_(input):  # noqa: A002
    return input.negative_()


def xlogy_(input, other):  # noqa: A002
    return input.xlogy_(other)


def ldexp_(input, other):  # noqa: A002
    return input.ldexp_(other)


def gcd_(input, other):  # noqa: A002
    return input.gcd_(other)


def lcm_(input, other):  # noqa: A002
    return input.lcm_(other)
