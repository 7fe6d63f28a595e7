"""``minigrad.sin(x)``, ``minigrad.var(x, 0)`` ...: the functions that mirror Tensor methods (``torch.sin`` is
``Tensor.sin``).  Each calls the method; the op itself lives in ``minigrad/ops``.  The elementwise ones also take
``out=`` (``minigrad/ops/_out.py``).
"""
from . import _dtype
from .ops import activation as _act
from .ops import unary as _unary
from .ops.math_more import _call  # (checks that input is a tensor, and writes into out= when given)
from .ops.select import broadcast_tensors, einsum, meshgrid  # noqa: F401  (functions only: no Tensor method)
from .tensor import NOT_GIVEN, Tensor

def sin(input, *, out=None):  # noqa: A002
    return _call("sin", Tensor.sin, input, out=out)

def cos(input, *, out=None):  # noqa: A002
    return _call("cos", Tensor.cos, input, out=out)

def tan(input, *, out=None):  # noqa: A002
    return _call("tan", Tensor.tan, input, out=out)

def sinh(input, *, out=None):  # noqa: A002
    return _call("sinh", Tensor.sinh, input, out=out)

def cosh(input, *, out=None):  # noqa: A002
    return _call("cosh", Tensor.cosh, input, out=out)

def asin(input, *, out=None):  # noqa: A002
    return _call("asin", Tensor.asin, input, out=out)

def acos(input, *, out=None):  # noqa: A002
    return _call("acos", Tensor.acos, input, out=out)

def atan(input, *, out=None):  # noqa: A002
    return _call("atan", Tensor.atan, input, out=out)

def arcsin(input, *, out=None):  # noqa: A002
    return _call("arcsin", Tensor.arcsin, input, out=out)

def arccos(input, *, out=None):  # noqa: A002
    return _call("arccos", Tensor.arccos, input, out=out)

def arctan(input, *, out=None):  # noqa: A002
    return _call("arctan", Tensor.arctan, input, out=out)

def square(input, *, out=None):  # noqa: A002
    return _call("square", Tensor.square, input, out=out)

def log1p(input, *, out=None):  # noqa: A002
    return _call("log1p", Tensor.log1p, input, out=out)

def expm1(input, *, out=None):  # noqa: A002
    return _call("expm1", Tensor.expm1, input, out=out)

def log2(input, *, out=None):  # noqa: A002
    return _call("log2", Tensor.log2, input, out=out)

def log10(input, *, out=None):  # noqa: A002
    return _call("log10", Tensor.log10, input, out=out)

def exp2(input, *, out=None):  # noqa: A002
    return _call("exp2", Tensor.exp2, input, out=out)

def rsqrt(input, *, out=None):  # noqa: A002
    return _call("rsqrt", Tensor.rsqrt, input, out=out)

def erf(input, *, out=None):  # noqa: A002
    return _call("erf", Tensor.erf, input, out=out)

def floor(input, *, out=None):  # noqa: A002
    return _call("floor", Tensor.floor, input, out=out)

def ceil(input, *, out=None):  # noqa: A002
    return _call("ceil", Tensor.ceil, input, out=out)

def trunc(input, *, out=None):  # noqa: A002
    return _call("trunc", Tensor.trunc, input, out=out)

def frac(input, *, out=None):  # noqa: A002
    return _call("frac", Tensor.frac, input, out=out)

def reciprocal(input, *, out=None):  # noqa: A002
    return _call("reciprocal", Tensor.reciprocal, input, out=out)

def round(input, decimals=0):  # noqa: A001, A002
    return input.round(decimals)


def clamp_min(input, min):  # noqa: A002
    return input.clamp_min(min)


def clamp_max(input, max):  # noqa: A002
    return input.clamp_max(max)


def clip(input, min=None, max=None):  # noqa: A002
    return input.clamp(min, max)


def floor_divide(input, other):  # noqa: A002
    return input // other if isinstance(input, Tensor) else other.__rfloordiv__(input)


def xlogy(input, other):  # noqa: A002
    return _unary.xlogy(input, other)


def remainder(input, other):  # noqa: A002
    return input % other if isinstance(input, Tensor) else other.__rmod__(input)


def minimum(input, other):  # noqa: A002
    return input.minimum(other)


def var(input, dim=None, unbiased=None, keepdim=False, *, correction=None, axis=None, keepdims=None):  # noqa: A002
    return input.var(dim, unbiased, keepdim, correction=correction, axis=axis, keepdims=keepdims)


def std(input, dim=None, unbiased=None, keepdim=False, *, correction=None, axis=None, keepdims=None):  # noqa: A002
    return input.std(dim, unbiased, keepdim, correction=correction, axis=axis, keepdims=keepdims)


def norm(input, p="fro", dim=None, keepdim=False, dtype=None):  # noqa: A002
    return input.norm(p, dim, keepdim, dtype)


def prod(input, dim=None, keepdim=False, dtype=None, *, axis=None, keepdims=None):  # noqa: A002
    return input.prod(dim, keepdim, dtype, axis=axis, keepdims=keepdims)


def cumsum(input, dim=None, dtype=None, *, axis=None):  # noqa: A002
    return input.cumsum(dim, dtype, axis=axis)


def logsumexp(input, dim=None, keepdim=False, *, axis=None, keepdims=None):  # noqa: A002
    return input.logsumexp(dim, keepdim, axis=axis, keepdims=keepdims)


def amax(input, dim=(), keepdim=False, *, axis=None, keepdims=None):  # noqa: A002
    return input.amax(dim, keepdim, axis=axis, keepdims=keepdims)


def amin(input, dim=(), keepdim=False, *, axis=None, keepdims=None):  # noqa: A002
    return input.amin(dim, keepdim, axis=axis, keepdims=keepdims)


def argmin(input, dim=None, keepdim=False, *, axis=None, keepdims=None):  # noqa: A002
    return input.argmin(dim, keepdim, axis=axis, keepdims=keepdims)


def all(input, dim=None, keepdim=False, *, axis=None, keepdims=None):  # noqa: A001, A002
    return input.all(dim, keepdim, axis=axis, keepdims=keepdims)


def any(input, dim=None, keepdim=False, *, axis=None, keepdims=None):  # noqa: A001, A002
    return input.any(dim, keepdim, axis=axis, keepdims=keepdims)


def masked_fill(input, mask, value):  # noqa: A002
    return input.masked_fill(mask, value)


def index_put(input, indices, values, accumulate=False):  # noqa: A002
    return input.index_put(indices, values, accumulate)


def index_put_(input, indices, values, accumulate=False):  # noqa: A002
    return input.index_put_(indices, values, accumulate)


def index_select(input, dim, index):  # noqa: A002
    return input.index_select(dim, index)


def gather(input, dim, index, *, sparse_grad=False):  # noqa: A002
    return input.gather(dim, index, sparse_grad=sparse_grad)


def index_add(input, dim, index, source, *, alpha=1):  # noqa: A002
    return input.index_add(dim, index, source, alpha=alpha)


def scatter(input, dim, index, src=None, *, value=None):  # noqa: A002
    return input.scatter(dim, index, src, value=value)


def scatter_add(input, dim, index, src):  # noqa: A002
    return input.scatter_add(dim, index, src)


def scatter_reduce(input, dim, index, src, reduce, *, include_self=True):  # noqa: A002
    return input.scatter_reduce(dim, index, src, reduce, include_self=include_self)


def index_reduce(input, dim, index, source, reduce, *, include_self=True):  # noqa: A002
    return input.index_reduce(dim, index, source, reduce, include_self=include_self)


def flip(input, dims):  # noqa: A002
    return input.flip(dims)


def narrow(input, dim, start, length):  # noqa: A002
    return input.narrow(dim, start, length)


def as_strided(input, size, stride, storage_offset=None):  # noqa: A002
    return input.as_strided(size, stride, storage_offset)


def split(tensor, split_size_or_sections, dim=0):
    return tensor.split(split_size_or_sections, dim)


def chunk(input, chunks, dim=0):  # noqa: A002
    return input.chunk(chunks, dim)


def unbind(input, dim=0):  # noqa: A002
    return input.unbind(dim)


def permute(input, dims):  # noqa: A002
    return input.permute(dims)


def movedim(input, source, destination):  # noqa: A002
    return input.movedim(source, destination)


def moveaxis(input, source, destination):  # noqa: A002
    return input.movedim(source, destination)


def swapaxes(input, axis0, axis1):  # noqa: A002
    return input.transpose(axis0, axis1)


def swapdims(input, dim0, dim1):  # noqa: A002
    return input.transpose(dim0, dim1)


def unflatten(input, dim, sizes):  # noqa: A002
    return input.unflatten(dim, sizes)


def diagonal(input, offset=0, dim1=0, dim2=1):  # noqa: A002
    return input.diagonal(offset, dim1, dim2)


def outer(input, vec2):  # noqa: A002
    return input.outer(vec2)


def mv(input, vec):  # noqa: A002
    return input.mv(vec)


def bmm(input, mat2):  # noqa: A002
    return input.bmm(mat2)


# ---- in place at module level: torch.sin_(x) is x.sin_() (the same checks: a leaf that requires grad
# refuses, the version counter moves, grad_fn becomes the op's own node) --------------------------
def abs_(input):  # noqa: A002
    return input.abs_()

def acos_(input):  # noqa: A002
    return input.acos_()

def asin_(input):  # noqa: A002
    return input.asin_()

def atan_(input):  # noqa: A002
    return input.atan_()

def ceil_(input):  # noqa: A002
    return input.ceil_()

def cos_(input):  # noqa: A002
    return input.cos_()

def cosh_(input):  # noqa: A002
    return input.cosh_()

def detach_(input):  # noqa: A002
    return input.detach_()

def erf_(input):  # noqa: A002
    return input.erf_()

def exp2_(input):  # noqa: A002
    return input.exp2_()

def exp_(input):  # noqa: A002
    return input.exp_()

def expm1_(input):  # noqa: A002
    return input.expm1_()

def floor_(input):  # noqa: A002
    return input.floor_()

def frac_(input):  # noqa: A002
    return input.frac_()

def log10_(input):  # noqa: A002
    return input.log10_()

def log1p_(input):  # noqa: A002
    return input.log1p_()

def log2_(input):  # noqa: A002
    return input.log2_()

def log_(input):  # noqa: A002
    return input.log_()

def neg_(input):  # noqa: A002
    return input.neg_()

def reciprocal_(input):  # noqa: A002
    return input.reciprocal_()

def relu_(input):  # noqa: A002
    return input.relu_()

def rsqrt_(input):  # noqa: A002
    return input.rsqrt_()

def sigmoid_(input):  # noqa: A002
    return input.sigmoid_()

def sin_(input):  # noqa: A002
    return input.sin_()

def sinh_(input):  # noqa: A002
    return input.sinh_()

def sqrt_(input):  # noqa: A002
    return input.sqrt_()

def square_(input):  # noqa: A002
    return input.square_()

def tan_(input):  # noqa: A002
    return input.tan_()

def tanh_(input):  # noqa: A002
    return input.tanh_()

def trunc_(input):  # noqa: A002
    return input.trunc_()

def zero_(input):  # noqa: A002
    return input.zero_()

def round_(input, *, decimals=0):  # noqa: A002  (decimals is keyword-only here, as in PyTorch)
    return input.round_(decimals)

def clamp_(input, min=None, max=None):  # noqa: A002
    return input.clamp_(min, max)

def clip_(input, min=None, max=None):  # noqa: A002
    return input.clamp_(min, max)

def clamp_min_(input, min):  # noqa: A002
    return input.clamp_min_(min)

def clamp_max_(input, max):  # noqa: A002
    return input.clamp_max_(max)

def fill_(input, value):  # noqa: A002
    return input.fill_(value)


# ---- issue 19: more everyday ops (the op itself is the Tensor method) ---------------------------
def multiply(input, other):  # noqa: A002
    return input.multiply(other)


def subtract(input, other, *, alpha=1):  # noqa: A002
    return input.subtract(other, alpha=alpha)


def divide(input, other, *, rounding_mode=NOT_GIVEN):  # noqa: A002
    return input.divide(other, rounding_mode=rounding_mode)


def true_divide(input, other):  # noqa: A002
    return input.true_divide(other)


def eq(input, other):  # noqa: A002
    return input.eq(other)


def ne(input, other):  # noqa: A002
    return input.ne(other)


def lt(input, other):  # noqa: A002
    return input.lt(other)


def le(input, other):  # noqa: A002
    return input.le(other)


def gt(input, other):  # noqa: A002
    return input.gt(other)


def ge(input, other):  # noqa: A002
    return input.ge(other)


def logical_not(input):  # noqa: A002
    return input.logical_not()


def logical_and(input, other):  # noqa: A002
    return input.logical_and(other)


def logical_or(input, other):  # noqa: A002
    return input.logical_or(other)


def logical_xor(input, other):  # noqa: A002
    return input.logical_xor(other)


def isnan(input):  # noqa: A002
    return input.isnan()


def isinf(input):  # noqa: A002
    return input.isinf()


def isfinite(input):  # noqa: A002
    return input.isfinite()


def nan_to_num(input, nan=0.0, posinf=None, neginf=None):  # noqa: A002
    return input.nan_to_num(nan, posinf, neginf)


def count_nonzero(input, dim=None):  # noqa: A002
    return input.count_nonzero(dim)


def nonzero(input, *, as_tuple=False):  # noqa: A002
    return input.nonzero(as_tuple=as_tuple)


def tril(input, diagonal=0):  # noqa: A002
    return input.tril(diagonal)


def triu(input, diagonal=0):  # noqa: A002
    return input.triu(diagonal)


def diag(input, diagonal=0):  # noqa: A002
    return input.diag(diagonal)


def trace(input):  # noqa: A002
    return input.trace()


def sort(input, dim=-1, descending=False, *, stable=None):  # noqa: A002
    return input.sort(dim, descending, stable=stable)


def argsort(input, dim=-1, descending=False, *, stable=False):  # noqa: A002
    return input.argsort(dim, descending, stable=stable)


def topk(input, k, dim=-1, largest=True, sorted=True):  # noqa: A002
    return input.topk(k, dim, largest, sorted)


def median(input, dim=None, keepdim=False):  # noqa: A002
    return input.median(dim, keepdim)


def nanmedian(input, dim=None, keepdim=False):  # noqa: A002
    return input.nanmedian(dim, keepdim)


def unique(input, sorted=True, return_inverse=False, return_counts=False, dim=None):  # noqa: A002
    return input.unique(sorted, return_inverse, return_counts, dim)


def cumprod(input, dim, dtype=None):  # noqa: A002
    return input.cumprod(dim, dtype)


def masked_select(input, mask):  # noqa: A002
    return input.masked_select(mask)


def masked_scatter(input, mask, source):  # noqa: A002
    return input.masked_scatter(mask, source)


def take(input, index):  # noqa: A002
    return input.take(index)


def put(input, index, source, accumulate=False):  # noqa: A002
    return input.put(index, source, accumulate)


def roll(input, shifts, dims=None):  # noqa: A002
    return input.roll(shifts, dims)


def repeat_interleave(input, repeats, dim=None):  # noqa: A002
    return input.repeat_interleave(repeats, dim)


def tile(input, dims):  # noqa: A002
    return input.tile(dims)


def fmod(input, other):  # noqa: A002
    return input.fmod(other)


def lerp(input, end, weight):  # noqa: A002
    return input.lerp(end, weight)


def addcmul(input, tensor1, tensor2, *, value=1):  # noqa: A002
    return input.addcmul(tensor1, tensor2, value=value)


def addcdiv(input, tensor1, tensor2, *, value=1):  # noqa: A002
    return input.addcdiv(tensor1, tensor2, value=value)


def addmm(input, mat1, mat2, *, beta=1, alpha=1):  # noqa: A002
    return input.addmm(mat1, mat2, beta=beta, alpha=alpha)


def cross(input, other, dim=None):  # noqa: A002
    from .ops.linalg import cross
    return cross(input, other, dim)  # (directly: its warning names the caller's line)


def kron(input, other):  # noqa: A002
    return input.kron(other)


def diff(input, n=1, dim=-1, prepend=None, append=None):  # noqa: A002
    return input.diff(n, dim, prepend, append)


def tensordot(a, b, dims=2, out=None):
    from .ops.linalg import tensordot
    if out is not None:
        from .ops._out import write_out
        return write_out("tensordot", out, (a, b), lambda: tensordot(a, b, dims), elementwise=False)
    return tensordot(a, b, dims)


def kthvalue(input, k, dim=-1, keepdim=False):  # noqa: A002
    return input.kthvalue(k, dim, keepdim)


def mode(input, dim=-1, keepdim=False):  # noqa: A002
    return input.mode(dim, keepdim)


def index_fill(input, dim, index, value):  # noqa: A002
    return input.index_fill(dim, index, value)


def index_copy(input, dim, index, source):  # noqa: A002
    return input.index_copy(dim, index, source)


def selu(input):  # noqa: A002
    return _act.selu(input)


# ---- the old typed constructors: torch.FloatTensor([1, 2]), torch.LongTensor(2, 3) --------------
def _typed(dtype, args):
    """``FloatTensor(data)`` copies ``data`` into a tensor of that dtype; ``FloatTensor(2, 3)`` makes one of
    that shape (PyTorch leaves its values uninitialised; minigrad fills zeros)."""
    from . import creation
    if len(args) == 1 and not isinstance(args[0], int):
        return creation._copy(args[0], dtype, False)  # (a tensor too, without tensor()'s warning)
    return creation.zeros(*args, dtype=dtype)


def FloatTensor(*args):  # noqa: N802  (PyTorch's names)
    return _typed(_dtype.float32, args)


def DoubleTensor(*args):  # noqa: N802
    return _typed(_dtype.float64, args)


def LongTensor(*args):  # noqa: N802
    return _typed(_dtype.int64, args)


def IntTensor(*args):  # noqa: N802
    return _typed(_dtype.int32, args)


def BoolTensor(*args):  # noqa: N802
    return _typed(_dtype.bool_, args)


def ByteTensor(*args):  # noqa: N802
    return _typed(_dtype.uint8, args)


# ---- what minigrad does not have: a clear error, never an AttributeError -------------------------
def _no_sparse(*args, **kwargs):
    raise NotImplementedError("minigrad has dense tensors only: no sparse layouts")


def _no_complex(*args, **kwargs):
    raise NotImplementedError("minigrad has no complex numbers")


sparse_coo_tensor = sparse_csr_tensor = _no_sparse
complex = view_as_complex = view_as_real = polar = _no_complex  # noqa: A001


def select(input, dim, index):  # noqa: A002
    return input.select(dim, index)


def is_same_size(input, other):  # noqa: A002
    return input.is_same_size(other)


def get_device(input):  # noqa: A002
    return input.get_device()


def nan_to_num_(input, nan=0.0, posinf=None, neginf=None):  # noqa: A002
    return input.nan_to_num_(nan, posinf, neginf)


# the bitwise functions take a number first too (PyTorch's Scalar self overloads): 1 & t is t & 1
def bitwise_and(input, other):  # noqa: A002
    return input.bitwise_and(other) if isinstance(input, Tensor) else other.bitwise_and(input)


def bitwise_or(input, other):  # noqa: A002
    return input.bitwise_or(other) if isinstance(input, Tensor) else other.bitwise_or(input)


def bitwise_xor(input, other):  # noqa: A002
    return input.bitwise_xor(other) if isinstance(input, Tensor) else other.bitwise_xor(input)


def bitwise_not(input):  # noqa: A002
    return input.bitwise_not()
