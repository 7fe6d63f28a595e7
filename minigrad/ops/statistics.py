"""More reductions: var, std, norm, prod, cumsum, cumprod, logsumexp, amax/amin (and argmax, argmin, all, any).

Like ``reduce.py``: forward reduces a numpy array over ``dims``; backward gives the gradient its
reduced dims back (``_unreduce``) and spreads it with the derivative of the reduction, as written
in PyTorch's ``tools/autograd/derivatives.yaml`` (``var_backward``, ``norm_backward``, ...).
The results are row-major (``order="C"``), as PyTorch allocates them (see ``reduce.py``).
"""
import math
import warnings

import numpy as np

from .. import _dtype
from ..autograd import grad_mode
from ..autograd.function import Function
from ..tensor import _TYPE_NAMES, Tensor
from ._util import _wrap_dim, constant, dims_arg
from .elementwise import MulScalar
from .reduce import _unreduce, reduce_dims
from .shape import Cat


def reduced_dims(dim, ndim):
    """``dim=None`` (or ``()``, ``[]``) means every dim; otherwise PyTorch's dim checks (``reduce_dims``)."""
    return reduce_dims(() if dim is None or dim == [] else dim, ndim)


def _count(shape, dims):
    return int(np.prod([shape[d] for d in dims])) if dims else 1


def _float_only(a, what):
    if not a.dtype.is_floating_point:
        raise RuntimeError(what)


# ------------------------------------------------------------------ variance and standard deviation
class Var(Function):
    """``x.var(dim, correction=1)``: mean squared distance from the mean, divided by ``N - correction``.

    d var / dx = 2 (x - mean) / (N - correction)  (PyTorch: ``var_backward``).
    """
    node_name = "VarBackward0"

    @staticmethod
    def forward(ctx, a, dims, correction, keepdim):
        ctx.save_for_backward(a)
        ctx.every_element = dims is None  # (no dim given: PyTorch's backward differs at N - correction <= 0)
        dims = ctx.dims = reduced_dims(dims, a._data.ndim)
        ctx.correction, ctx.keepdim = correction, keepdim
        return Tensor(_variance(a._data, dims, correction, keepdim, "var"))

    @staticmethod
    def backward(ctx, grad):
        a, = ctx.saved_tensors
        return _var_backward(grad, a, ctx), None, None, None


class Std(Function):
    """``x.std(...)``: the square root of ``var``; d std = d var / (2 std), 0 where std is 0."""
    node_name = "StdBackward0"

    @staticmethod
    def forward(ctx, a, dims, correction, keepdim):
        ctx.every_element = dims is None
        dims = ctx.dims = reduced_dims(dims, a._data.ndim)
        out = Tensor(np.sqrt(_variance(a._data, dims, correction, keepdim, "std")))
        ctx.save_for_backward(a, out)
        ctx.correction, ctx.keepdim = correction, keepdim
        return out

    @staticmethod
    def backward(ctx, grad):
        a, out = ctx.saved_tensors
        grad_var = (grad / MulScalar.apply(out, 2)).masked_fill(out == 0, 0)
        return _var_backward(grad_var, a, ctx), None, None, None


def _variance(x, dims, correction, keepdim, name):
    n = _count(x.shape, dims)
    out_numel = x.size // n if n else int(np.prod([s for d, s in enumerate(x.shape) if d not in dims]))
    if (x.size // out_numel if out_numel else 0) - correction <= 0:  # (PyTorch's n: input numel / output numel)
        warnings.warn(f"{name}(): degrees of freedom is <= 0. Correction should be strictly less than the reduction "
                      "factor (input numel divided by output numel).", UserWarning, stacklevel=5)
    x64 = x.astype(np.float64)  # (PyTorch accumulates float32 in double too)
    with np.errstate(all="ignore"):
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
        with np.errstate(invalid="ignore"):  # (the mean of no elements is nan)
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
class Norm(Function):
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
        ctx.saved_norm_dim = None if dim is None else tuple(d % 2 ** 64 for d in ((dim,) if isinstance(dim, int) else dim))
        x = np.abs(a._data)
        with np.errstate(all="ignore"):
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
        out = Tensor(np.asarray(out, dtype=a._data.dtype, order="C"))
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
        if p == 1:
            return a.sgn() * g, None, None, None, None
        if p == 2:
            return g * (a / norm).masked_fill(norm == 0, 0), None, None, None, None
        if math.isinf(p):  # amax's (amin's) backward of |x|; a nan counts as chosen, and sgn(nan) is 0
            mask = (a.abs() == norm) | a.isnan()
            return a.sgn() * ((g / mask.sum(ctx.dims, True)) * mask), None, None, None, None
        if p < 1:
            scaled = a.sgn() * a.abs().pow(p - 1).masked_fill(a == 0, 0)
            return scaled * g * norm.pow(1 - p), None, None, None, None
        scaled = a.sgn() * a.abs().pow(p - 1) if p < 2 else a * a.abs().pow(p - 2)
        return scaled * (g / norm.pow(p - 1)).masked_fill(norm == 0, 0), None, None, None, None


def norm(a, p="fro", dim=None, keepdim=False, dtype=None):
    """``x.norm()``, ``x.norm(p=1, dim=0)``, ``torch.norm(x)``: vector norms ("fro" is p = 2)."""
    if not a.dtype.is_floating_point:
        raise RuntimeError("linalg.vector_norm: Expected a floating point or complex tensor as input. Got "
                           f"{_TYPE_NAMES.get(a.dtype.name, a.dtype.name)}")
    if p == "fro" or p is None:
        p = 2
    if isinstance(p, str):
        raise NotImplementedError(f"minigrad has vector norms only, not the matrix norm p={p!r}")
    if dtype is not None:
        a = a.to(dtype)
    return Norm.apply(a, p, reduced_dims(dim, a._data.ndim), keepdim, dim)


# ------------------------------------------------------------------ product
class Prod(Function):
    """``x.prod()`` / ``x.prod(dim)``: d prod / dx_i is the product of all the other elements.

    Without zeros that is ``prod / x_i`` (PyTorch's formula too); with zeros, where dividing fails,
    PyTorch multiplies the others directly (``prod_safe_zeros_backward``), and so does minigrad.
    """
    node_name = "ProdBackward0"

    @staticmethod
    def forward(ctx, a, dim=None, keepdim=False):
        x = a._data
        ctx.dim, ctx.keepdim = dim, keepdim
        with np.errstate(invalid="ignore", over="ignore"):  # inf * 0 is nan, silently, as in PyTorch
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
_CUMSUM_ACC = {"float32": np.float64, "float16": np.float32}  # at::acc_type<scalar_t, /*is_cuda=*/false>


class Cumsum(Function):
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
        acc = _CUMSUM_ACC.get(np.dtype(out).name, out)  # (PyTorch's CPU kernel: acc_type, each partial sum rounded)
        with np.errstate(invalid="ignore", over="ignore"):  # inf - inf is nan, silently, as in PyTorch
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
class Cumprod(Function):
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
        with np.errstate(over="ignore", invalid="ignore"):  # (inf * 0 is nan, silently, as in PyTorch)
            out = Tensor(x.astype(dtype) if x.ndim == 0 else np.asarray(np.cumprod(x, axis=dim, dtype=dtype), order="C"))
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
        return Tensor(_cumprod_grad(a._data, grad._data, d)), None, None


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


def _cumprod_grad(x, g, axis):
    """d/dx_k = prod(x_0 .. x_(k-1)) * (g_k + sum over i > k of g_i * prod(x_(k+1) .. x_i)), without dividing."""
    x, g = np.moveaxis(x, axis, -1), np.moveaxis(g, axis, -1)
    n = x.shape[-1]
    out = np.zeros(np.broadcast_shapes(x.shape, g.shape), np.result_type(x, g))
    for k in range(n):
        before = np.prod(x[..., :k], axis=-1)
        after = np.cumprod(x[..., k + 1:], axis=-1)  # prod(x_(k+1) .. x_i) for i = k+1 .. n-1
        out[..., k] = before * (g[..., k] + (g[..., k + 1:] * after).sum(-1))
    return np.moveaxis(out, -1, axis)


# ------------------------------------------------------------------ logsumexp
class Logsumexp(Function):
    """``log(sum(exp(x)))`` over ``dims``, computed as ``m + log(sum(exp(x - m)))`` with ``m = max x``
    so that it does not overflow.  Its derivative is softmax: ``grad * exp(x - out)``."""
    node_name = "LogsumexpBackward0"

    @staticmethod
    def forward(ctx, a, dims, keepdim):
        x = a._data if a._data.dtype.kind == "f" else a._data.astype(_dtype.get_default_dtype().numpy)
        with np.errstate(all="ignore"):
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
class Amax(Function):
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
