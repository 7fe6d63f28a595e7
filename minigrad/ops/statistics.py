"""More reductions: var, std, norm, prod, cumsum, cumprod, logsumexp, amax/amin (and argmax, argmin, all, any);
nansum/nanmean, aminmax, cummax/cummin, logcumsumexp, var_mean/std_mean, dist, cdist, vdot, inner, trapezoid,
cov, corrcoef.

Like ``reduce.py``: forward reduces a numpy array over ``dims``; backward gives the gradient its
reduced dims back (``_unreduce``) and spreads it with the derivative of the reduction, as written
in PyTorch's ``tools/autograd/derivatives.yaml`` (``var_backward``, ``norm_backward``, ...).
The results are row-major (``order="C"``), as PyTorch allocates them (see ``reduce.py``).
"""
import math
import warnings
from collections import namedtuple

import numpy as np

from .. import _dtype
from ..autograd import grad_mode
from .dispatch import Op
from .._core.tensor_base import _TYPE_NAMES, TensorBase as Tensor
from .._core.layout import row_major
from ._util import _wrap_dim, check_not_bool, constant, reduced_dims, sum_to, unsigned
from .promotion import broadcast_shape, result_type
from .elementwise import DivScalar, MulScalar, Where
from .linalg import Dot, tensordot
from .reduce import _return_type, _unreduce
from .select import broadcast_shapes
from .shape import Cat


def _count(shape, dims):
    return int(np.prod([shape[d] for d in dims])) if dims else 1


def _float_only(a, what):
    if not a.dtype.is_floating_point:
        raise RuntimeError(what)


# ------------------------------------------------------------------ variance and standard deviation
class Var(Op):
    """``x.var(dim, correction=1)``: mean squared distance from the mean, divided by ``N - correction``.

    d var / dx = 2 (x - mean) / (N - correction)  (PyTorch: ``var_backward``).
    """
    node_name = "VarBackward0"

    @staticmethod
    def forward(ctx, a, dims, correction, keepdim, name="var"):
        ctx.save_for_backward(a)
        ctx.every_element = dims is None  # (no dim given: PyTorch's backward differs at N - correction <= 0)
        dims = ctx.dims = reduced_dims(dims, a._data.ndim)
        ctx.correction, ctx.keepdim = correction, keepdim
        return Tensor(_variance(a._data, dims, correction, keepdim, name))

    @staticmethod
    def backward(ctx, grad):
        a, = ctx.saved_tensors
        return _var_backward(grad, a, ctx), None, None, None


class Std(Op):
    """``x.std(...)``: the square root of ``var``; d std = d var / (2 std), 0 where std is 0."""
    node_name = "StdBackward0"

    @staticmethod
    def forward(ctx, a, dims, correction, keepdim, name="std"):
        ctx.every_element = dims is None
        dims = ctx.dims = reduced_dims(dims, a._data.ndim)
        out = Tensor(np.sqrt(_variance(a._data, dims, correction, keepdim, name)))
        ctx.save_for_backward(a, out)
        ctx.correction, ctx.keepdim = correction, keepdim
        return out

    @staticmethod
    def backward(ctx, grad):
        a, out = ctx.saved_tensors
        grad_var = (grad / MulScalar.apply(out, 2)).masked_fill_(out == 0, 0)  # (in place, as PyTorch's std_backward)
        return _var_backward(grad_var, a, ctx), None, None, None


def _variance(x, dims, correction, keepdim, name):
    n = _count(x.shape, dims)
    out_numel = x.size // n if n else int(np.prod([s for d, s in enumerate(x.shape) if d not in dims]))
    if (x.size // out_numel if out_numel else 0) - correction <= 0:  # (PyTorch's n: input numel / output numel)
        warnings.warn(f"{name}(): degrees of freedom is <= 0. Correction should be strictly less than the reduction "
                      "factor (input numel divided by output numel).", UserWarning, stacklevel=5)
    x64 = x.astype(np.float64)  # (PyTorch accumulates float32 in double too)
    sq = ((x64 - x64.sum(axis=dims, keepdims=True) / n) ** 2).sum(axis=dims, keepdims=keepdim)
    return np.asarray(sq / max(n - correction, 0), dtype=x.dtype, order="C")


def _var_backward(grad, a, ctx):
    """PyTorch's ``var_backward``: ``2 / (N - correction) * grad * (x - mean)``, the division in double
    (2 / 0 is inf, so where x is its mean the gradient is nan). Without a dim (or for a 0-dim tensor)
    and ``N - correction <= 0`` it is ``grad * (nan where x == mean, else inf)``."""
    dims, correction = ctx.dims, ctx.correction
    n = _count(a._data.shape, dims)
    whole = ctx.every_element or a._data.ndim == 0  # (PyTorch's path without a dim)
    # (PyTorch unsqueezes the gradient only for a dim given to a tensor of 2 or more dims)
    g = _unreduce(grad, a._data.shape, dims, ctx.keepdim or whole or a._data.ndim < 2)
    if n - correction <= 0 and whole:
        x = a._data
        mean = x.sum() / x.size
        # (PyTorch: grad * at::where(self == self.mean(), nan, inf), a where of two Scalars: of the default
        # dtype, float32, which a float64 0-dim grad does not widen: a float32 gradient, cast back to float64
        # by the engine, ToCopyBackward0)
        return g * constant(np.where(x == mean, np.nan, np.inf).astype(_dtype.get_default_dtype().numpy))
    scale = 2.0 / (n - correction) if n != correction else math.inf
    return MulScalar.apply(g, scale) * (a - (a.mean() if whole else a.mean(dims, True)))


def var_or_std(fn, a, dim=None, unbiased=None, keepdim=False, correction=None, name="var"):
    """The arguments of ``var``/``std``: ``dim``, ``unbiased`` (True: correction 1) or ``correction``."""
    _float_only(a, "std and var only support floating point and complex dtypes")
    if isinstance(dim, bool):  # x.var(False): the old positional `unbiased`
        dim, unbiased = None, dim
    if correction is None:
        correction = 0 if unbiased is False else 1
    return fn.apply(a, None if dim in (None, (), []) else dim, correction, keepdim)  # (None: every dim)


# ------------------------------------------------------------------ norm
class Norm(Op):
    """``x.norm(p)``: ``(sum |x|^p) ^ (1/p)`` (PyTorch: ``linalg.vector_norm``).

    Its derivative (PyTorch: ``norm_backward``, in its order of steps): for p = 2,
    ``grad * x / norm``; for p = 1, ``sgn(x) * grad``; for p = inf, the gradient goes to the largest
    ``|x|`` (shared by ties); otherwise ``x |x|^(p-2) grad / norm^(p-1)``; 0 where the norm is 0
    (for p < 1: where x is 0).
    """
    node_name = "LinalgVectorNormBackward0"
    saved_names = {"self": 0, "result": 1, "ord": "ord", "dim": "saved_norm_dim", "keepdim": "keepdim"}

    @staticmethod
    def forward(ctx, a, p, dims, keepdim, dim=None):
        """``p`` as given (``grad_fn._saved_ord``), ``dims`` checked and wrapped, ``dim`` as given."""
        ctx.ord, p = p, float(p)
        ctx.saved_norm_dim = None if dim is None else unsigned((dim,) if isinstance(dim, int) else dim)
        out = Tensor(vector_norm(a._data, p, dims, keepdim))
        ctx.save_for_backward(a, out)
        ctx.p, ctx.dims, ctx.keepdim = p, dims, keepdim
        return out

    @staticmethod
    def backward(ctx, grad):
        a, out = ctx.saved_tensors
        p = ctx.p
        # PyTorch unsqueezes only the dims it was given: without ``dim`` the gradient broadcasts as it is
        dims = ctx.dims if ctx.saved_norm_dim else ()
        g = _unreduce(grad, a._data.shape, dims, ctx.keepdim or a._data.ndim == 0)
        norm = _unreduce(out, a._data.shape, dims, ctx.keepdim or a._data.ndim == 0)
        if p == 0:
            return None, None, None, None, None  # (PyTorch: no gradient for the count of non-zeros)
        return norm_backward(g, a, norm, p, ctx.dims), None, None, None, None


def vector_norm(x, p, dims, keepdim):
    """The numbers of ``||x||_p`` over ``dims`` (a float numpy array ``x``), in ``x``'s dtype."""
    dtype, x = x.dtype, np.abs(x)
    if p == 2:
        out = np.sqrt((x.astype(np.float64) ** 2).sum(axis=dims, keepdims=keepdim))
    elif p == math.inf:
        out = x.max(axis=dims, keepdims=keepdim, initial=0)
    elif p == -math.inf:
        out = x.min(axis=dims, keepdims=keepdim)
    elif p == 0:
        out = (x != 0).sum(axis=dims, keepdims=keepdim)
    else:
        out = (x.astype(np.float64) ** p).sum(axis=dims, keepdims=keepdim) ** (1.0 / p)
    return np.asarray(out, dtype=dtype, order="C")


def norm_backward(g, a, norm, p, dims):
    """PyTorch's ``norm_backward`` for p != 0: the gradient of ``norm = ||a||_p`` over ``dims`` (``g`` and
    ``norm`` already broadcast against ``a``). Also ``dist``'s, with ``a = x - y``."""
    if p == 1:
        return a.sgn() * g
    if p == 2:  # (in place, as PyTorch: a ZeroTensor gradient then raises as there)
        return g * (a / norm).masked_fill_(norm == 0, 0)
    if math.isinf(p):  # amax's (amin's) backward of |x|; a nan counts as chosen, and sgn(nan) is 0
        mask = (a.abs() == norm) | a.isnan()
        return a.sgn() * ((g / mask.sum(dims, True)) * mask)
    if p < 1:
        scaled = a.sgn() * a.abs().pow_(p - 1).masked_fill_(a == 0, 0)
        return scaled * g * norm.pow(1 - p)
    scaled = a.sgn() * a.abs().pow_(p - 1) if p < 2 else a * a.abs().pow_(p - 2)
    return scaled * (g / norm.pow(p - 1)).masked_fill_(norm == 0, 0)


def norm(a, p="fro", dim=None, keepdim=False, dtype=None):
    """``x.norm()``, ``x.norm(p=1, dim=0)``, ``torch.norm(x)``: vector norms ("fro" is p = 2)."""
    if not a.dtype.is_floating_point:
        raise RuntimeError("linalg.vector_norm: Expected a floating point or complex tensor as input. Got "
                           f"{_TYPE_NAMES.get(a.dtype.name, a.dtype.name)}")
    if p == "fro" or p is None:
        p = 2
    if isinstance(p, str):
        raise NotImplementedError(f"minigrad has vector norms only, not the matrix norm p={p!r}")
    if a._data.size == 0 and (p < 0 or p == math.inf):  # a min or max over nothing: PyTorch refuses
        _check_empty_norm(a, p, dim)
    if dtype is not None:
        a = a.to(dtype)
    return Norm.apply(a, p, reduced_dims(dim, a._data.ndim), keepdim, dim)


def _check_empty_norm(a, p, dim):
    """PyTorch's checks of ``linalg_vector_norm`` on a tensor without elements, for the norms (inf, and p < 0)
    that are a max or a min, which has no value over nothing: neither over all dims nor over an empty one."""
    shown = p if isinstance(p, int) else "%g" % p  # (a Scalar as C++ prints it: -1, -0.5, inf)
    dims = () if dim is None else (dim,) if isinstance(dim, int) else tuple(dim)
    if not dims:
        raise RuntimeError(f"linalg.vector_norm cannot compute the {shown} norm on an empty tensor because the "
                           "operation does not have an identity")
    for d in dims:
        if a.size(d) == 0:
            raise RuntimeError(f"linalg.vector_norm cannot compute the {shown} norm on the dimension {d}because "
                               "this dimension is empty and the operation does not have an identity")


# ------------------------------------------------------------------ product
class Prod(Op):
    """``x.prod()`` / ``x.prod(dim)``: d prod / dx_i is the product of all the other elements.

    Without zeros that is ``prod / x_i`` (PyTorch's formula too); with zeros, where dividing fails,
    PyTorch multiplies the others directly (``prod_safe_zeros_backward``), and so does minigrad.
    """
    node_name = "ProdBackward0"

    @staticmethod
    def forward(ctx, a, dim=None, keepdim=False):
        x = a._data
        ctx.dim, ctx.keepdim = dim, keepdim
        out = Tensor(np.asarray(x.prod(axis=dim, keepdims=keepdim, dtype=_sum_dtype(x.dtype)), order="C"))
        ctx.save_for_backward(a, out)
        return out

    @staticmethod
    def backward(ctx, grad):
        a, out = ctx.saved_tensors
        if a._data.ndim == 0:  # the product of one number is that number (PyTorch: ``return grad``)
            return grad, None, None
        dims = (ctx.dim,) if ctx.dim is not None else ()  # (the product of all: the gradient broadcasts as it is)
        g = _unreduce(grad, a._data.shape, dims, ctx.keepdim)
        zeros = int((a._data == 0).sum())
        if zeros == 0:
            return g * (_unreduce(out, a._data.shape, dims, ctx.keepdim) / a), None, None
        if ctx.dim is None and zeros > 1 and not grad_mode.is_grad_enabled():
            return Tensor(np.zeros_like(a._data)), None, None  # two zeros: every product of others is 0 (PyTorch's shortcut)
        if ctx.dim is None:
            return prod_safe_zeros_backward(g, a.contiguous().view(-1), 0).view_as(a), None, None
        return prod_safe_zeros_backward(g, a, ctx.dim), None, None


class ProdDim(Prod):
    node_name = "ProdBackward1"


def prod_safe_zeros_backward(grad, x, dim):
    """PyTorch's ``prod_safe_zeros_backward``: for each element, the product of the others along ``dim``,
    (the product of those before it) * (the product of those after it), made of recorded ops."""
    if x._data.size == 0:
        return grad.expand_as(x)
    n = x._data.shape[dim]
    if n == 1:  # one element: no others, the gradient passes as it is
        return grad
    ones_shape = list(x._data.shape)
    ones_shape[dim] = 1
    ones = Tensor(np.ones(ones_shape, grad._data.dtype))
    before = Cat.apply(dim, ones, x.narrow(dim, 0, n - 1)).cumprod(dim)                # x_0 ... x_(i-1)
    after = Cat.apply(dim, ones, x.narrow(dim, 1, n - 1).flip(dim)).cumprod(dim).flip(dim)  # x_(i+1) ... x_(n-1)
    return grad * (before * after)


def _sum_dtype(d):
    """Sums and products of integers and bools are int64 in PyTorch."""
    return np.int64 if d.kind in "biu" else d


# ------------------------------------------------------------------ cumulative sum
_CPU_ACC = {"float32": np.float64, "float16": np.float32}  # at::acc_type<scalar_t, /*is_cuda=*/false>


class Cumsum(Op):
    """``x.cumsum(dim, dtype=None)``: out_i = x_0 + ... + x_i (in ``dtype`` if given), so d/dx_i gets the
    sum of the gradients from i on: the reversed cumulative sum of the gradient (PyTorch: ``cumsum_backward``)."""
    node_name = "CumsumBackward0"

    @staticmethod
    def forward(ctx, a, dim, dtype):
        ctx.dim = dim
        ctx.dtype = a.dtype  # (the input's: its gradient is cast back to it first)
        x = a._data if dtype is None else a._data.astype(dtype.numpy)
        if x.ndim == 0:
            return Tensor(x.astype(_sum_dtype(x.dtype)))
        out = _sum_dtype(x.dtype)
        acc = _CPU_ACC.get(np.dtype(out).name, out)  # (PyTorch's CPU kernel: acc_type, each partial sum rounded)
        sums = np.cumsum(x, axis=dim, dtype=acc) + 0  # (PyTorch's sum starts at 0: a leading -0.0 is +0.0)
        return Tensor(np.asarray(sums, dtype=out, order="C"))

    @staticmethod
    def backward(ctx, grad):
        # derivatives.yaml: self: cumsum_backward(grad.to(self.scalar_type()), dim); cumsum_backward returns
        # the gradient as it is when it has at most one element or the dim has size 1, else
        # grad.flip(dim).cumsum(dim).flip(dim)
        grad = grad.to(ctx.dtype)
        if grad._data.size <= 1 or grad._data.shape[ctx.dim] == 1:
            return grad, None, None
        return grad.flip(ctx.dim).cumsum(ctx.dim).flip(ctx.dim), None, None


# ------------------------------------------------------------------ cumulative product
class Cumprod(Op):
    """``x.cumprod(dim)``: out_i = x_0 * ... * x_i, so d/dx_k gets ``sum over i >= k of grad_i * out_i / x_k``:
    the reversed cumulative sum of ``grad * out``, divided by ``x`` (PyTorch: ``cumprod_backward``).

    With zeros that division fails; PyTorch then multiplies the other elements directly: with numpy when
    no graph is recorded, and with recorded ops under ``create_graph=True`` (``cumprod_backward``'s O(n^2)
    path), so that the second derivative is there too.
    """
    node_name = "CumprodBackward0"

    @staticmethod
    def forward(ctx, a, dim, dtype=None):  # (dtype=: computed in that dtype, in this node, as in PyTorch)
        ctx.dim = dim
        x = a._data if dtype is None else a._data.astype(dtype.numpy)
        dtype = _sum_dtype(x.dtype)
        acc = _CPU_ACC.get(np.dtype(dtype).name, dtype)  # (PyTorch's CPU kernel: acc_type, each product rounded)
        out = Tensor(x.astype(dtype) if x.ndim == 0 else
                     np.asarray(np.cumprod(x, axis=dim, dtype=acc), dtype=dtype, order="C"))
        ctx.save_for_backward(a, out)
        return out

    @staticmethod
    def backward(ctx, grad):
        a, out = ctx.saved_tensors
        d = ctx.dim
        if a._data.size <= 1 or a._data.shape[d] == 1:  # (PyTorch: with one element or none along dim, or in
            return grad, None, None                      # all, the gradient passes as it is)
        if not (a._data == 0).any():
            return (out * grad).flip(d).cumsum(d).flip(d) / a, None, None  # (PyTorch: w = output * grad)
        if grad_mode.is_grad_enabled():
            return cumprod_backward_with_zeros(grad, a, d), None, None
        return Tensor(_cumprod_grad(a._data, grad._data, out._data, d)), None, None


_C_TYPES = {"float32": "float", "float64": "double", "float16": "c10::Half", "int64": "long int", "int32": "int",
            "int16": "short int", "int8": "signed char", "uint8": "unsigned char", "bool": "bool"}


def _in_place_arguments(a, dim, dtype):
    """``x.cumsum_(dim, dtype)``: the dim must be one of ``x``'s, and, as the result goes into ``x``, ``dtype`` may
    only be ``x``'s (PyTorch's message names the C++ types).  Checked in this order after autograd's checks and
    before the written-to memory is (``ops/inplace.py`` calls it as ``check_in_place_arguments``), as PyTorch does."""
    dim = _wrap_dim(dim, a._data.ndim)
    if dtype is not None and _dtype.to_dtype(dtype) is not a.dtype:
        raise RuntimeError(f"Bad in-place call: input tensor dtype {_C_TYPES[a.dtype.name]} and output tensor dtype "
                           f"{_C_TYPES[_dtype.to_dtype(dtype).name]} should match")
    return dim


class CumsumInPlace(Cumsum):
    """``x.cumsum_(dim)``: the same node as ``cumsum``."""
    node_name = "CumsumBackward0"
    check_in_place_arguments = staticmethod(_in_place_arguments)

    @staticmethod
    def forward(ctx, a, dim, dtype):
        return Cumsum.forward(ctx, a, _wrap_dim(dim, a._data.ndim), None)  # (inplace() checked the arguments)


class CumprodInPlace(Cumprod):
    """``x.cumprod_(dim)``: the same node as ``cumprod``."""
    node_name = "CumprodBackward0"
    check_in_place_arguments = staticmethod(_in_place_arguments)

    @staticmethod
    def forward(ctx, a, dim, dtype):
        return Cumprod.forward(ctx, a, _wrap_dim(dim, a._data.ndim), None)  # (inplace() checked the arguments)


def cumprod_backward_with_zeros(grad, x, dim):
    """PyTorch's ``cumprod_backward`` for zeros in ``x`` under ``create_graph=True``: for each k, the
    gradient of x_k is the sum over i >= k of grad_i times the product of x_0 .. x_i without x_k, made of
    recorded ops and written into slice k of a zero tensor (``CopySlices``)."""
    n = x._data.shape[dim]
    ones_shape = list(x._data.shape)
    ones_shape[dim] = 1
    ones = Tensor(np.ones(1, grad._data.dtype)).expand(ones_shape)
    grad_input = Tensor(np.zeros(x._data.shape, grad._data.dtype))
    for k in range(n):
        if k == 0:
            omitted = Cat.apply(dim, ones, x.narrow(dim, 1, n - 1).cumprod(dim))
        elif k == n - 1:
            omitted = x.narrow(dim, 0, k).prod(dim, keepdim=True)
        else:
            until_k = x.narrow(dim, 0, k).prod(dim, keepdim=True)
            from_k = x.narrow(dim, k + 1, n - k - 1).cumprod(dim)
            omitted = Cat.apply(dim, until_k, until_k.expand_as(from_k) * from_k)
        grad_input.select(dim, k).copy_((grad.narrow(dim, k, n - k) * omitted).sum(dim))
    return grad_input


def _cumprod_grad(x, g, out, axis):
    """PyTorch's O(n) ``cumprod_backward`` for an input with zeros, with numbers only (no graph is recorded).

    Along each line, with z1 the first zero of ``x`` and z2 the second: for k < z1 the gradient is the reversed
    cumulative sum of ``out * g`` over [0, z1) divided by x_k; for k = z1 it is
    prod(x_0 .. x_(z1-1)) * sum over j in [z1, z2) of g_j * prod(x_(z1+1) .. x_j); after z1 it is 0.  (What lies
    beyond a zero never enters a sum: an inf there gives no nan.)"""
    x, g, out = np.moveaxis(x, axis, -1), np.moveaxis(g, axis, -1), np.moveaxis(out, axis, -1)
    zeros_so_far = np.cumsum(x == 0, axis=-1)
    grad_input = np.zeros(np.broadcast_shapes(x.shape, g.shape), g.dtype)
    before = zeros_so_far == 0                                      # k < z1
    w = np.where(before, out * g, 0)
    acc = _CPU_ACC.get(w.dtype.name, w.dtype)  # (cumsum and cumprod of float32 add and multiply in float64)
    from_end = np.flip(np.cumsum(np.flip(w, -1), axis=-1, dtype=acc).astype(w.dtype), -1)
    grad_input[before] = (from_end / x)[before]
    first_run = zeros_so_far == 1                                   # [z1, z2)
    z1 = np.argmax(first_run, axis=-1)[..., None]                   # (0 where a line has no zero)
    at_z1 = (np.arange(x.shape[-1]) == z1) & first_run
    inside = first_run & ~at_z1                                     # (z1, z2)
    products = np.cumprod(np.where(inside, x, 1), axis=-1, dtype=acc).astype(x.dtype)
    summed = (products * np.where(first_run, g, 0)).sum(-1, keepdims=True)
    prefix = np.where(z1 == 0, 1, np.take_along_axis(out, np.maximum(z1 - 1, 0), -1))
    grad_input[at_z1] = np.broadcast_to(summed * prefix, grad_input.shape)[at_z1]
    return row_major(np.moveaxis(grad_input, -1, axis))  # (PyTorch fills a new row-major tensor of zeros)


# ------------------------------------------------------------------ logsumexp
class Logsumexp(Op):
    """``log(sum(exp(x)))`` over ``dims``, computed as ``m + log(sum(exp(x - m)))`` with ``m = max x``
    so that it does not overflow.  Its derivative is softmax: ``grad * exp(x - out)``."""
    node_name = "LogsumexpBackward0"

    @staticmethod
    def forward(ctx, a, dims, keepdim):
        x = a._data if a._data.dtype.kind == "f" else a._data.astype(_dtype.get_default_dtype().numpy)
        m = x.max(axis=dims, keepdims=True) if x.size else np.zeros((1,) * x.ndim, x.dtype)
        m = np.where(np.isinf(m), 0, m)  # all -inf (or an inf): shift by 0 instead
        out = np.log(np.exp(x - m).sum(axis=dims, keepdims=True)) + m
        if not keepdim:
            out = out.squeeze(dims)
        out = Tensor(np.asarray(out, dtype=x.dtype, order="C"))
        ctx.save_for_backward(a, out)
        ctx.dims, ctx.keepdim = dims, keepdim
        return out

    @staticmethod
    def backward(ctx, grad):
        a, out = ctx.saved_tensors
        shape = a._data.shape
        g = _unreduce(grad, shape, ctx.dims, ctx.keepdim)
        return g * (a - _unreduce(out, shape, ctx.dims, ctx.keepdim)).exp(), None, None


# ------------------------------------------------------------------ amax / amin
class Amax(Op):
    """``x.amax(dim)``: the largest values; the gradient is shared evenly by the elements that tie
    for it (PyTorch: ``scale_grad_by_count``)."""
    node_name = "AmaxBackward0"
    numpy_fn = np.max

    @classmethod
    def forward(cls, ctx, a, dim, keepdim):
        dims, name = reduced_dims(dim, a._data.ndim), "a" + cls.numpy_fn.__name__
        if a._data.size == 0 and dim in (None, (), []):
            raise RuntimeError(f"{name}(): Expected reduction dim to be specified for input.numel() == 0. "
                               "Specify the reduction dim with the 'dim' argument.")
        given = (dim,) if isinstance(dim, int) else dim or dims  # (PyTorch names the dim as it was given)
        for d in given if a._data.ndim else ():
            if a._data.shape[d] == 0:
                raise IndexError(f"{name}(): Expected reduction dim {d} to have non-zero size.")
        out = Tensor(np.asarray(cls.numpy_fn(a._data, axis=dims, keepdims=keepdim), order="C"))
        ctx.save_for_backward(a, out)
        ctx.dims, ctx.keepdim = dims, keepdim
        ctx.given = [] if dim in (None, (), []) else [d % max(a._data.ndim, 1) for d in given]  # (as PyTorch has them)
        return out

    @staticmethod
    def backward(ctx, grad):
        a, out = ctx.saved_tensors
        grad, out = _restore_reduced_dims(grad, a, ctx), _restore_reduced_dims(out, a, ctx)
        mask = (a == out).to(grad.dtype)
        return grad / mask.sum(ctx.dims, True) * mask, None, None


def _restore_reduced_dims(t, a, ctx):
    """PyTorch's ``restore_reduced_dims``: a reduced result with a dim of size 1 put back for each dim the call
    named (none for ``x.amax()``; one for ``amax(0)`` of a 0-dim tensor), in one ``view`` (``ViewBackward0``)."""
    if ctx.keepdim:
        return t
    shape, sizes = [0] * (t._data.ndim + len(ctx.given)), iter(t._data.shape)
    for d in ctx.given:
        shape[d] = 1
    return t.view([s or next(sizes) for s in shape])


class Amin(Amax):
    node_name = "AminBackward0"
    numpy_fn = np.min


# ------------------------------------------------------------------ not differentiable: argmax, argmin, all, any
def argmax_or_argmin(fn, a, dim=None, keepdim=False):
    """``x.argmax(dim)`` / ``x.argmin(dim)``: int64 indices (``fn`` is ``np.argmax`` or ``np.argmin``).
    A nan counts as the largest and the smallest value, in PyTorch as in numpy."""
    name = fn.__name__
    if a.dtype.name == "bool":
        raise RuntimeError(f"{name}(): does not support bool input")
    if dim is None:  # over all elements; keepdim keeps every dim, of size 1
        if a._data.size == 0:
            raise IndexError(f"{name}(): Expected reduction dim to be specified for input.numel() == 0.")
        return Tensor(np.asarray(fn(a._data, keepdims=keepdim)))
    if a._data.ndim == 0:
        _wrap_dim(dim, 0)  # (dim 0 or -1: the only element)
        return Tensor(np.asarray(0))
    d = _wrap_dim(dim, a._data.ndim)
    if a._data.shape[d] == 0:
        raise IndexError(f"{name}(): Expected reduction dim {d} to have non-zero size.")
    return Tensor(np.asarray(fn(a._data, axis=d, keepdims=keepdim), order="C"))


def all_or_any(fn, a, dim=None, keepdim=False):
    """``x.all()`` / ``x.any(dim)``: a bool tensor (``fn`` is ``np.all`` or ``np.any``)."""
    axis = None if dim is None else reduced_dims(dim, a._data.ndim)
    return Tensor(np.asarray(fn(a._data != 0, axis=axis, keepdims=keepdim), order="C"))


# ------------------------------------------------------------------ sums and means that skip nan
class Nansum(Op):
    """``x.nansum(dim)``: the sum with every nan counted as 0; the nans get no gradient
    (PyTorch: ``nansum_backward``, ``sum_backward(grad) * self.isnan().logical_not()``)."""
    node_name = "NansumBackward0"

    @staticmethod
    def forward(ctx, a, dim, keepdim, dtype):
        x = a._data
        ctx.dims, ctx.keepdim, ctx.dtype = reduced_dims(dim, x.ndim), keepdim, a.dtype
        ctx.save_for_backward(a)
        if x.dtype.kind == "f":
            x = np.where(np.isnan(x), 0, x)
        out = _sum_dtype(x.dtype) if dtype is None else dtype.numpy
        return Tensor(np.asarray(x.sum(axis=ctx.dims, keepdims=keepdim, dtype=out), order="C"))

    @staticmethod
    def backward(ctx, grad):
        a, = ctx.saved_tensors
        g = _unreduce(grad.to(ctx.dtype), a._data.shape, ctx.dims, ctx.keepdim).expand(a._data.shape)
        return g * a.isnan().logical_not(), None, None, None


def nansum(a, dim=None, keepdim=False, dtype=None):
    return Nansum.apply(a, dim, keepdim, None if dtype is None else _dtype.to_dtype(dtype))


def nanmean(a, dim=None, keepdim=False, dtype=None):
    """``x.nanmean(dim)``: PyTorch's composition, ``nansum / (number of non-nan)`` (so ``DivBackward0``)."""
    if not a.dtype.is_floating_point:
        raise RuntimeError("nanmean(): expected input to have floating point or complex dtype but got "
                           f"{_TYPE_NAMES[a.dtype.name]}")
    count = a.isnan().logical_not().sum(dim, keepdim)
    return nansum(a, dim, keepdim, dtype).div(count)


# ------------------------------------------------------------------ aminmax
AminmaxReturnType = namedtuple("aminmax", ["min", "max"])
AminmaxReturnType.__repr__ = lambda self: f"minigrad.return_types.aminmax(\nmin={self.min!r},\nmax={self.max!r})"


class Aminmax(Op):
    """``x.aminmax(dim=None)``: ``(amin, amax)`` in one op; each gradient is shared by the elements that tie
    for its value, as in ``amin`` and ``amax`` (PyTorch: ``aminmax_backward``; the two added when both come)."""
    node_name = "AminmaxBackward0"

    @staticmethod
    def forward(ctx, a, dim, keepdim):
        x = a._data
        if dim is None and x.size == 0:
            raise RuntimeError("aminmax(): cannot compute aminmax over an empty dimension as the operation has no "
                               "identity.")
        if dim is not None:
            d = _wrap_dim(dim, x.ndim)
            if x.ndim and x.shape[d] == 0:
                raise IndexError(f"aminmax: Expected reduction dim {d} to have non-zero size.")
        ctx.dims = reduced_dims(dim, x.ndim)
        ctx.keepdim = keepdim
        ctx.given = [] if dim is None else [d]  # (for _restore_reduced_dims, as amax keeps it)
        ctx.set_materialize_grads(False)  # (an output nobody used sends no gradient: None, not zeros)
        lo, hi = (Tensor(np.asarray(fn(x, axis=ctx.dims, keepdims=keepdim), order="C")) for fn in (np.min, np.max))
        ctx.save_for_backward(a, lo, hi)
        return lo, hi

    @staticmethod
    def backward(ctx, grad_min, grad_max):
        a, lo, hi = ctx.saved_tensors
        out = None
        for grad, value in ((grad_min, lo), (grad_max, hi)):
            if grad is None:
                continue
            grad, value = _restore_reduced_dims(grad, a, ctx), _restore_reduced_dims(value, a, ctx)
            mask = a == value
            g = grad / mask.sum(ctx.dims, True) * mask  # (PyTorch: scale_grad_by_count)
            out = g if out is None else out + g
        return out, None, None


def aminmax(a, *, dim=None, keepdim=False):
    return AminmaxReturnType(*Aminmax.apply(a, dim, keepdim))


# ------------------------------------------------------------------ running max / min, logcumsumexp
class Cummax(Op):
    """``x.cummax(dim)``: (values, indices) of the largest element so far along ``dim``: a tie moves the index on
    (``>=``), and so does every nan: once one is met, the value stays nan (PyTorch's ``cummax_cummin_helper``). Each gradient goes back to the element
    its value came from, summed there (``cummaxmin_backward``: zeros ``.scatter_add(dim, indices, grad)``)."""
    node_name = "CummaxBackward0"
    saved_names = {"self": 0, "indices": 1, "dim": "saved_dim"}  # (grad_fn._saved_*; the dim as passed)
    op_name, takes_over = "cummax", np.greater_equal

    @classmethod
    def forward(cls, ctx, a, dim):
        x = a._data
        if x.ndim == 0 and dim not in (0, -1):
            raise IndexError(f"{cls.op_name}(): Expected reduction dim -1 or 0 for scalar but got {dim}")
        ctx.dim_arg = dim
        if x.size:  # (PyTorch checks the dim only when there is something to run over)
            dim = _wrap_dim(dim, x.ndim)
        if x.size == 0:  # (backward hands back the input itself, as PyTorch)
            values, idx = x.copy(), np.zeros(x.shape, np.int64)
        elif x.ndim == 0:
            values, idx = x.copy(), np.zeros((), np.int64)
        else:
            lines = np.moveaxis(x, dim, 0)
            values, idx = np.empty_like(lines), np.zeros(lines.shape, np.int64)
            best, best_i = lines[0].copy(), np.zeros(lines.shape[1:], np.int64)
            for i, line in enumerate(lines):
                take = _isnan(line) | (~_isnan(best) & cls.takes_over(line, best))
                best, best_i = np.where(take, line, best), np.where(take, i, best_i)
                values[i], idx[i] = best, best_i
            values, idx = np.moveaxis(values, 0, dim), np.moveaxis(idx, 0, dim)
        ctx.dim = dim
        indices = Tensor(row_major(np.asarray(idx)))  # (PyTorch: new contiguous tensors)
        ctx.mark_non_differentiable(indices)
        ctx.save_for_backward(a, indices)  # (PyTorch saves both: changing either in place is an error in backward)
        return Tensor(row_major(values)), indices

    @staticmethod
    def backward(ctx, grad, _grad_indices):
        from .select import ScatterAdd
        a, indices = ctx.saved_tensors
        if a._data.size == 0:  # (PyTorch's cummaxmin_backward: "if (input.sym_numel() == 0) return input;")
            return a, None
        return ScatterAdd.apply(Tensor(np.zeros(a._data.shape, grad._data.dtype)), ctx.dim, indices._data, grad), None


class Cummin(Cummax):
    node_name = "CumminBackward0"
    op_name, takes_over = "cummin", np.less_equal


def _isnan(x):
    return np.isnan(x) if x.dtype.kind == "f" else np.zeros(x.shape, bool)


CummaxReturnType, CumminReturnType = _return_type("cummax"), _return_type("cummin")


def cummax(a, dim):
    return CummaxReturnType(*Cummax.apply(a, dim))


def cummin(a, dim):
    return CumminReturnType(*Cummin.apply(a, dim))


class Logcumsumexp(Op):
    """``x.logcumsumexp(dim)``: out_i = log(exp(x_0) + ... + exp(x_i)), computed pairwise without overflow.

    Backward (PyTorch's ``logcumsumexp_backward``): d out_i / d x_k = exp(x_k - out_i) for i >= k, so the
    gradient of x_k is exp(x_k) * sum over i >= k of grad_i exp(-out_i): a reversed logcumsumexp of
    ``log|grad| - out``, done apart for the positive and the negative gradients (a log needs positive numbers)."""
    node_name = "LogcumsumexpBackward0"

    @staticmethod
    def forward(ctx, a, dim):
        if not a.dtype.is_floating_point:
            raise NotImplementedError(f'"logcumsumexp_out_cpu" not implemented for \'{_TYPE_NAMES[a.dtype.name]}\'')
        dim = ctx.dim = _wrap_dim(dim, a._data.ndim)
        x = a._data
        out = x.copy() if x.ndim == 0 else np.logaddexp.accumulate(x.astype(np.float64), axis=dim)
        out = Tensor(np.asarray(out, dtype=x.dtype, order="C"))
        ctx.save_for_backward(a, out)
        return out

    @staticmethod
    def backward(ctx, grad):
        a, out = ctx.saved_tensors
        if grad._data.ndim == 0 or grad._data.size == 0:
            return grad, None
        d = ctx.dim
        lowest = Tensor(np.asarray(np.finfo(grad._data.dtype).min, grad._data.dtype))  # (PyTorch: not -inf)
        log_abs_grad = grad.abs().log()
        positive = Where.apply((grad > 0)._data, log_abs_grad, lowest)
        negative = Where.apply((grad < 0)._data, log_abs_grad, lowest)

        def reverse_logcumsumexp(t):
            return t.flip(d).logcumsumexp(d).flip(d)
        return (reverse_logcumsumexp(positive - out) + a).exp() - (reverse_logcumsumexp(negative - out) + a).exp(), None


# ------------------------------------------------------------------ var_mean, std_mean
class VarMean(Op):
    """``torch.var_mean(x, dim)``: (var, mean) in one op; the two gradients add up (``var_mean_backward``)."""
    node_name = "VarMeanBackward0"
    root = False  # (StdMean: the square root of the variance)

    @classmethod
    def forward(cls, ctx, a, dims, correction, keepdim):
        name = "std_mean" if cls.root else "var_mean"
        variance = (Std if cls.root else Var).forward(ctx, a, dims, correction, keepdim, name)  # (saves theirs)
        ctx.set_materialize_grads(False)
        x, n = a._data, _count(a._data.shape, ctx.dims)
        mean = np.asarray(x.sum(axis=ctx.dims, keepdims=keepdim) / n, dtype=x.dtype, order="C")
        if np.isinf(mean).any():  # PyTorch's mean here is Welford's running one: see _running_mean
            mean = np.where(np.isinf(mean), _running_mean(x, ctx.dims, keepdim), mean)
        return variance, Tensor(mean)

    @classmethod
    def backward(cls, ctx, grad_var, grad_mean):
        shape = ctx.saved_tensors[0]._data.shape
        out = None
        if grad_var is not None:
            out = (Std if cls.root else Var).backward(ctx, grad_var)[0]
        if grad_mean is not None:  # (PyTorch's mean_backward: expanded and divided by the count, a plain number)
            g = _unreduce(grad_mean, shape, ctx.dims, ctx.keepdim).expand(shape)
            g = DivScalar.apply(g, _count(shape, ctx.dims))
            out = g if out is None else out + g
        return out, None, None, None


def _running_mean(x, dims, keepdim):
    """The mean as PyTorch's var_mean computes it, one element after the other (Welford: ``mean += (x - mean) / k``).
    It is ``sum / n`` but where an inf is followed by another number: ``inf + (1 - inf) / 2`` is nan."""
    lines = np.moveaxis(x, dims, tuple(range(x.ndim - len(dims), x.ndim)))
    lines = lines.reshape(lines.shape[:x.ndim - len(dims)] + (-1,))
    mean = np.zeros(lines.shape[:-1], x.dtype)
    for k in range(lines.shape[-1]):
        mean = mean + (lines[..., k] - mean) / x.dtype.type(k + 1)
    return np.expand_dims(mean, dims) if keepdim else mean


class StdMean(VarMean):
    """``torch.std_mean(x, dim)``: (std, mean) in one op (``std_mean_backward``)."""
    node_name = "StdMeanBackward0"
    root = True


def var_mean(a, dim=None, unbiased=None, keepdim=False, *, correction=None):
    _float_only(a, "var_mean only support floating point and complex dtypes")
    return var_or_std(VarMean, a, dim, unbiased, keepdim, correction)


def std_mean(a, dim=None, unbiased=None, keepdim=False, *, correction=None):
    _float_only(a, "std_mean only support floating point and complex dtypes")
    return var_or_std(StdMean, a, dim, unbiased, keepdim, correction)


# ------------------------------------------------------------------ distances and products
class Dist(Op):
    """``x.dist(y, p)``: the p-norm of ``x - y`` (broadcast), a 0-dim tensor; its gradient is ``norm``'s
    (derivatives.yaml: ``norm_backward(grad, self - other, p, result)``, and the same formula again, negated, for
    ``other``: under create_graph=True the two are two graphs, as in PyTorch)."""
    node_name = "DistBackward0"

    @staticmethod
    def forward(ctx, a, b, p):
        dtype = result_type(a, b)
        if not dtype.is_floating_point:
            raise RuntimeError(f"norm(): input dtype should be either floating point or complex. Got "
                               f"{_TYPE_NAMES[dtype.name]} instead.")
        broadcast_shape(a, b)
        diff = a._data.astype(dtype.numpy) - b._data.astype(dtype.numpy)
        out = Tensor(vector_norm(diff, float(p), None, False))
        ctx.save_for_backward(a, b, out)
        ctx.p = float(p)
        return out

    @staticmethod
    def backward(ctx, grad):
        a, b, out = ctx.saved_tensors
        if ctx.p == 0:  # (the count of non-zeros: no gradient; PyTorch's formula then negates that missing gradient
            if ctx.needs_input_grad[1]:  # for ``other``, which fails)
                raise RuntimeError("Expected a proper Tensor but got None (or an undefined Tensor in C++) for "
                                   "argument #0 'self'")
            return None, None, None
        def gradient():
            diff = a - b
            return norm_backward(grad, diff, out, ctx.p, tuple(range(diff._data.ndim)))
        return (gradient() if ctx.needs_input_grad[0] else None,
                -gradient() if ctx.needs_input_grad[1] else None, None)


def dist(a, b, p=2):
    check_not_bool(a, b, "Subtraction")  # (PyTorch: norm(a - b), and the subtraction refuses bools first)
    return Dist.apply(a, b, p)


class Vdot(Dot):
    """``torch.vdot(a, b)``: the dot product (of real vectors: ``dot``), its own node."""
    node_name = "VdotBackward0"
    saved_names = {"self": 0, "other": 1}


def inner(a, b):
    """``torch.inner(a, b)``: sums of products over the last dims (``tensordot``, so ``ViewBackward0``); with a
    0-dim operand, the product."""
    if a._data.ndim == 0 or b._data.ndim == 0:
        return a * b
    if a._data.shape[-1] != b._data.shape[-1]:
        raise RuntimeError(f"inner() the last dimension must match on both input tensors but got shapes "
                           f"{list(a._data.shape)} and {list(b._data.shape)}")
    if a._data.dtype != b._data.dtype:
        raise RuntimeError("both inputs should have same dtype")
    return tensordot(a, b, ([-1], [-1]))


class Cdist(Op):
    """``torch.cdist(x1, x2, p)``: the p-norm distance of every row of ``x1`` to every row of ``x2`` (in each
    batch). Its backward is PyTorch's ``_cdist_backward``, once for each input (for ``x2`` with the roles swapped);
    PyTorch has no derivative of that one: it can't be differentiated twice."""
    node_name = "CdistBackward0"

    @staticmethod
    def forward(ctx, x1, x2, p):
        diff = x1._data[..., :, None, :] - x2._data[..., None, :, :]
        out = Tensor(vector_norm(diff, p, -1, False))
        ctx.save_for_backward(x1, x2, out)
        ctx.p = p
        return out

    @staticmethod
    def backward(ctx, grad):
        x1, x2, out = ctx.saved_tensors
        g1 = CdistGrad.apply(grad.contiguous(), x1, x2, out, ctx.p) if ctx.needs_input_grad[0] else None
        g2 = CdistGrad.apply(grad.mT.contiguous(), x2, x1, out.mT.contiguous(), ctx.p) if ctx.needs_input_grad[1] \
            else None
        return g1, g2, None


class CdistGrad(Op):
    """PyTorch's ``_cdist_backward(grad, x1, x2, p, cdist)``: the gradient of ``cdist`` for ``x1``. Each distance
    d_ij = ||x1_i - x2_j||_p sends grad_ij * d d_ij / d x1_i back to row i: ``sign(diff)`` for p = 1,
    ``diff / d`` for p = 2, ``diff |diff|^(p-2) / d^(p-1)`` in general (0 where d is 0)."""
    node_name = "CdistBackwardBackward0"

    @staticmethod
    def forward(ctx, grad, x1, x2, dist, p):
        g, d = grad._data[..., None], dist._data[..., None]
        diff = x1._data[..., :, None, :] - x2._data[..., None, :, :]
        if p == 0:
            step = np.zeros_like(diff)
        elif p == 1:
            step = np.sign(diff)
        elif p == 2:
            step = np.where(d == 0, 0, diff / d)
        elif math.isinf(p):
            step = np.sign(diff) * (np.abs(diff) == d)
        elif p < 2:
            step = np.where((d == 0) | (diff == 0), 0, np.sign(diff) * (np.abs(diff) / d) ** (p - 1))
        else:
            step = np.where(d == 0, 0, diff * np.abs(diff) ** (p - 2) / d ** (p - 1))
        return sum_to(Tensor(np.asarray((step * g).sum(-2), x1._data.dtype)), x1._data.shape)  # (its output is x1's shape)

    @staticmethod
    def backward(ctx, grad):
        raise NotImplementedError("the derivative for '_cdist_backward' is not implemented.")


class EuclideanDist(Op):
    """``cdist`` for p = 2 by matrix products (PyTorch's ``_euclidean_dist``, taken by default when either side
    has more than 25 rows): ``|a - b|^2 = -2 a.b + |a|^2 + |b|^2`` for all pairs at once, in one ``matmul`` of
    ``[-2a, |a|^2, 1]`` with ``[b, 1, |b|^2]``, clamped at 0 and square-rooted. Its backward
    (``_euclidean_dist_backward``) is written with differentiable ops."""
    node_name = "EuclideanDistBackward0"

    @staticmethod
    def forward(ctx, x1, x2):
        a, b = x1._data, x2._data
        a_norm, b_norm = (a * a).sum(-1, keepdims=True), (b * b).sum(-1, keepdims=True)
        left = np.concatenate([a * a.dtype.type(-2), a_norm, np.ones_like(a_norm)], -1)
        right = np.concatenate([b, np.ones_like(b_norm), b_norm], -1)
        out = Tensor(np.sqrt(np.maximum(left @ np.swapaxes(right, -1, -2), 0)))
        ctx.save_for_backward(x1, x2, out)
        return out

    @staticmethod
    def backward(ctx, grad):
        x1, x2, out = ctx.saved_tensors
        ratio = (grad / out).masked_fill_(out == 0, 0)  # (in place, as PyTorch's)
        return (x1 * ratio.sum(-1, True) - ratio.matmul(x2),
                x2 * ratio.sum(-2).unsqueeze(-1) - ratio.mT.matmul(x1))


_CDIST_MODES = ("use_mm_for_euclid_dist_if_necessary", "use_mm_for_euclid_dist", "donot_use_mm_for_euclid_dist")


def cdist(x1, x2, p=2.0, compute_mode="use_mm_for_euclid_dist_if_necessary"):
    if compute_mode not in _CDIST_MODES:
        raise ValueError(f"{compute_mode} is not a valid value for compute_mode")
    for name, t in (("X1", x1), ("X2", x2)):
        if t._data.ndim < 2:
            raise RuntimeError(f"cdist only supports at least 2D tensors, {name} got: {t._data.ndim}D")
    for name, t in (("X1", x1), ("X2", x2)):
        if not t.dtype.is_floating_point:
            raise RuntimeError(f"cdist only supports floating-point dtypes, {name} got: {_TYPE_NAMES[t.dtype.name]}")
    if x1._data.shape[-1] != x2._data.shape[-1]:
        raise RuntimeError(f"X1 and X2 must have the same number of columns. X1: {x1._data.shape[-1]} X2: "
                           f"{x2._data.shape[-1]}")
    if p < 0:
        raise RuntimeError("cdist only supports non-negative p values")
    if x1.dtype != x2.dtype:
        raise RuntimeError(f"expected scalar type {_TYPE_NAMES[x1.dtype.name]} but found {_TYPE_NAMES[x2.dtype.name]}")
    r1, r2 = x1._data.shape[-2], x2._data.shape[-2]
    by_mm = compute_mode == _CDIST_MODES[1] or (compute_mode == _CDIST_MODES[0] and (r1 > 25 or r2 > 25))
    if p != 2 or not by_mm or x1._data.size == 0 or x2._data.size == 0:
        return Cdist.apply(x1, x2, float(p))
    if x1._data.ndim == 2 and x2._data.ndim == 2:
        return EuclideanDist.apply(x1, x2).view(r1, r2)
    # batches: both expanded to the common batch shape, made contiguous and seen as (batch, rows, columns)
    batch = tuple(broadcast_shapes(x1._data.shape[:-2], x2._data.shape[:-2]))
    n = int(np.prod(batch))
    a, b = (t.expand(batch + t._data.shape[-2:]).contiguous() for t in (x1, x2))
    return EuclideanDist.apply(a.view(n, r1, -1), b.view(n, r2, -1)).view(batch + (r1, r2))


# ------------------------------------------------------------------ the trapezoid rule
# PyTorch's compositions (aten/src/ATen/native/Integration.cpp), so the same nodes: with a spacing ``dx``,
# ``(y.sum(dim) - (y[0] + y[-1]) * 0.5) * dx``; with sample points ``x``, ``(dx * (y[1:] + y[:-1])).sum(dim) / 2``.
def _trapezoid_spacing(name, y, x, dim):
    """``dx``: the differences of the sample points ``x`` along ``dim``, ready to broadcast against ``y``."""
    if y.dtype.name == "bool" or x.dtype.name == "bool":
        raise RuntimeError(f"{name}: received a bool input for `x` or `y`, but bool is not supported")
    if x._data.ndim == 1:
        if x._data.shape[0] != y._data.shape[dim]:
            raise RuntimeError(f"{name}: There must be one `x` value for each sample point")
        shape = [1] * y._data.ndim
        shape[dim] = x._data.shape[0]
        x = x.view(shape)
    elif x._data.ndim < y._data.ndim:
        x = x.view((1,) * (y._data.ndim - x._data.ndim) + x._data.shape)
    n = x._data.shape[dim]
    return x.narrow(dim, 1, max(n - 1, 0)) - x.narrow(dim, 0, max(n - 1, 0))


def _trapezoid_args(name, y, x, dx, dim):
    """``dim`` wrapped, and the spacing: a tensor of differences (from ``x``) or a number (``dx``)."""
    if x is not None and not isinstance(x, Tensor):  # (PyTorch's message from its argument parser)
        raise TypeError(f"{name}() received an invalid combination of arguments - got (Tensor, {type(x).__name__}), "
                        f"but expected one of:\n * (Tensor y, Tensor x, *, int dim = -1)\n * (Tensor y, *, Number "
                        "dx = 1, int dim = -1)\n")
    if y._data.ndim == 0:
        raise IndexError(f"Dimension specified as {dim} but tensor has no dimensions" if name == "trapezoid" else
                         "slice() cannot be applied to a 0-dim tensor.")
    dim = _wrap_dim(dim, y._data.ndim)
    if x is not None:
        return dim, _trapezoid_spacing(name, y, x, dim)
    if y.dtype.name == "bool":
        raise RuntimeError(f"{name}: received a bool input for `y`, but bool is not supported")
    if isinstance(dx, bool):
        raise RuntimeError(f"{name}: Currently, we only support dx as a real number.")
    return dim, 1.0 if dx is None else float(dx)


def _scaled(t, number, fn=MulScalar):
    """``t * number`` as C++ writes it (``MulBackward1``; with ``fn=DivScalar``, ``t / number``,
    ``DivBackward1``); an integer ``t`` (no gradient) becomes the default float dtype, as PyTorch promotes it."""
    if not t.dtype.is_floating_point:
        return t * number if fn is MulScalar else t / number
    return fn.apply(t, number)


def _ends(y, dim):
    n = y._data.shape[dim]
    return y.narrow(dim, 1, n - 1) + y.narrow(dim, 0, n - 1)


def trapezoid(y, x=None, *, dx=None, dim=-1):
    """``torch.trapezoid(y, x=None, dx=1, dim=-1)``: the area under the samples ``y`` by the trapezoid rule."""
    dim, spacing = _trapezoid_args("trapezoid", y, x, dx, dim)
    if y._data.shape[dim] == 0:  # (no samples: zeros, as numpy)
        shape = y._data.shape[:dim] + y._data.shape[dim + 1:]
        return Tensor(np.zeros(shape, y._data.dtype if y.dtype.is_floating_point else _dtype.get_default_dtype().numpy))
    if isinstance(spacing, Tensor):
        return _scaled((spacing * _ends(y, dim)).sum(dim), 2.0, DivScalar)
    # (PyTorch's C++, (y.sum(dim) - (y.select(dim, 0) + y.select(dim, -1)) * 0.5) * dx, evaluates the right-hand
    # operands first: the same order of nodes here, so that create_graph=True gives PyTorch's graph)
    last = y.select(dim, -1)
    ends = _scaled(y.select(dim, 0) + last, 0.5)
    return _scaled(y.sum(dim) - ends, spacing)


def trapz(y, x=None, *, dx=None, dim=-1):  # (PyTorch's older name)
    return trapezoid(y, x, dx=dx, dim=dim)


def cumulative_trapezoid(y, x=None, *, dx=None, dim=-1):
    """``torch.cumulative_trapezoid``: the running areas (one fewer than the samples along ``dim``)."""
    dim, spacing = _trapezoid_args("cumulative_trapezoid", y, x, dx, dim)
    if y._data.shape[dim] == 0:
        return Tensor(np.zeros(y._data.shape, y._data.dtype if y.dtype.is_floating_point else
                               _dtype.get_default_dtype().numpy))
    if isinstance(spacing, Tensor):
        return _scaled((spacing * _ends(y, dim)).cumsum(dim), 2.0, DivScalar)
    return _scaled(_ends(y, dim), spacing / 2.0).cumsum(dim)


# ------------------------------------------------------------------ covariance, correlation
def cov(a, *, correction=1, fweights=None, aweights=None):
    """``torch.cov(x)``: the covariance of the variables (rows) of ``x`` over its observations (columns).
    PyTorch's composition (``aten/src/ATen/native/Correlation.cpp``): the rows' (weighted) means, centred rows
    ``c = x - mean``, then ``mm(c, (c * w).t()) / (N - correction)``, squeezed. ``fweights`` (integer counts) and
    ``aweights`` (float importances) weigh the observations; their product is ``w``, their sum ``N``."""
    if a._data.ndim > 2:
        raise RuntimeError(f"cov(): expected input to have two or fewer dimensions but got an input with "
                           f"{a._data.ndim} dimensions")
    if a.dtype.name == "bool":
        raise RuntimeError("cov(): bool dtype is not supported for input")
    x = a.view(1, -1) if a._data.ndim < 2 else a
    n = x._data.shape[1]
    w = None
    for name, weights, kind in (("fweights", fweights, "integral"), ("aweights", aweights, "floating point")):
        if weights is None:
            continue
        if weights._data.ndim > 1:
            raise RuntimeError(f"cov(): expected {name} to have one or fewer dimensions but got {name} with "
                               f"{weights._data.ndim} dimensions")
        if weights.dtype.is_floating_point != (kind == "floating point") or weights.dtype.name == "bool":
            raise RuntimeError(f"cov(): expected {name} to have {kind} dtype but got {name} with "
                               f"{_TYPE_NAMES[weights.dtype.name]} dtype")
        if weights._data.size != n:
            raise RuntimeError(f"cov(): expected {name} to have the same numel as there are observations in the "
                               f"input but got {weights._data.size} != {n}")
        if n and weights._data.min() < 0:
            raise RuntimeError(f"cov(): {name} cannot be negative")
        w = weights if w is None else w * weights
    # the number of observations (PyTorch: a 0-dim int64 tensor), or the sum of the weights
    w_sum = Tensor(np.asarray(n, np.int64)) if w is None else w.sum()
    if w is not None and not w_sum._data != 0:
        raise RuntimeError("cov(): weights sum to zero, can't be normalized")
    avg = (x if w is None else x * w).sum(1) / w_sum
    if w is not None and aweights is not None and correction != 0:
        norm_factor = w_sum - MulScalar.apply((w * aweights).sum(), correction) / w_sum
    else:  # (PyTorch records no subtraction of a correction of 0)
        norm_factor = w_sum - correction if correction else w_sum
    if norm_factor._data <= 0:
        warnings.warn("cov(): degrees of freedom is <= 0. Correction should be strictly less than the number of "
                      "observations.", UserWarning, stacklevel=3)
        norm_factor = Tensor(np.zeros_like(norm_factor._data))
    x = x - avg.unsqueeze(1)
    return x.mm((x if w is None else x * w).t()).true_divide(norm_factor).squeeze()


def corrcoef(a):
    """``torch.corrcoef(x)``: ``cov`` divided by the standard deviations of both variables, clipped to [-1, 1]."""
    if a._data.ndim > 2:
        raise RuntimeError(f"corrcoef(): expected input to have two or fewer dimensions but got an input with "
                           f"{a._data.ndim} dimensions")
    c = cov(a)
    if c._data.ndim == 0:  # (one variable: nan where the covariance is nan, inf or 0; else 1)
        return c / c
    stddev = c.diagonal().sqrt()
    c = c / stddev.view(-1, 1)
    c = c / stddev.view(1, -1)
    return c.clip(-1, 1)


def logcumsumexp(a, dim):
    return Logcumsumexp.apply(a, dim)


def vdot(a, b):
    return Vdot.apply(a, b)
