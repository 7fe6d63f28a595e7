"""minigrad: a small numpy autograd that mirrors PyTorch, written to be read.

``import minigrad as torch`` runs the classic autograd examples with the same numbers, the same
``grad_fn`` names and the same error messages as PyTorch, over the subset minigrad supports.

Where to read:
- ``tensor.py``            the Tensor and its methods
- ``autograd/function.py`` Function, backward nodes (``grad_fn``), saved tensors, AccumulateGrad
- ``autograd/engine.py``   the backward engine
- ``ops/``                 every built-in op, forward and backward side by side
- ``nn/``, ``optim/``      modules, parameters, losses and optimizers
- ``viz/``                 drawings of the graph and a step-through of backward
"""
from . import _dtype
from ._dtype import Size, dtype, get_default_dtype, set_default_dtype
from ._dtype import bool_ as bool  # noqa: A001  (PyTorch's names shadow the builtins here, as torch.float does)
from ._dtype import float16, float32, float64, int8, int16, int32, int64, uint8
from .tensor import Tensor
from . import autograd
from .autograd import enable_grad, is_grad_enabled, no_grad, set_grad_enabled
from .creation import (arange, as_tensor, cat, concat, empty, empty_like, eye, from_numpy, full, full_like,
                       linspace, ones, ones_like, stack, tensor, zeros, zeros_like)
from .random import Generator, manual_seed, initial_seed, seed, rand, rand_like, randint, randn, randn_like, randperm, normal
from .random import multinomial
from .devices import device, get_default_device, set_default_device, memory_format, preserve_format, contiguous_format
from . import accelerator, backends, cuda, linalg
from .autograd.inference import inference_mode, is_inference, is_inference_mode_enabled
from .ops import where
from ._out import write_out

float = float32  # noqa: A001
double = float64
half = float16
long = int64
int = int32  # noqa: A001
short = int16

__version__ = "0.1.0"


# ---- functions that mirror the Tensor methods (minigrad.relu(x) is x.relu()) -------------
# (with ``out=``, the result is written into that tensor: see _out.py)
def sigmoid(x, *, out=None):
    if out is not None:
        return write_out("sigmoid", out, (x,), lambda: x.sigmoid())
    return x.sigmoid()


def relu(x):
    return x.relu()


def sign(x, *, out=None):
    if out is not None:
        return write_out("sign", out, (x,), lambda: x.sign())
    return x.sign()


def sgn(x):
    return x.sgn()


def tanh(x, *, out=None):
    if out is not None:
        return write_out("tanh", out, (x,), lambda: x.tanh())
    return x.tanh()


def exp(x, *, out=None):
    if out is not None:
        return write_out("exp", out, (x,), lambda: x.exp())
    return x.exp()


def log(x, *, out=None):
    if out is not None:
        return write_out("log", out, (x,), lambda: x.log())
    return x.log()


def sqrt(x, *, out=None):
    if out is not None:
        return write_out("sqrt", out, (x,), lambda: x.sqrt())
    return x.sqrt()


def abs(x, *, out=None):  # noqa: A001
    if out is not None:
        return write_out("abs", out, (x,), lambda: x.abs())
    return x.abs()


def neg(x, *, out=None):
    if out is not None:
        return write_out("neg", out, (x,), lambda: -x)
    return -x


def pow(x, exponent, *, out=None):  # noqa: A001
    if out is not None:
        return write_out("pow", out, (x, exponent), lambda: pow(x, exponent))
    if not isinstance(x, Tensor):
        return exponent.__rpow__(x)
    return x.pow(exponent)


def sum(x, dim=None, keepdim=False, dtype=None, *, out=None):  # noqa: A001
    if out is not None:
        return write_out("sum", out, (x,), lambda: x.sum(dim, keepdim, dtype=dtype))
    return x.sum(dim, keepdim, dtype=dtype)


def mean(x, dim=None, keepdim=False, *, out=None):
    if out is not None:
        return write_out("mean", out, (x,), lambda: x.mean(dim, keepdim))
    return x.mean(dim, keepdim)


def max(x, dim=None, keepdim=False):  # noqa: A001
    return x.max(dim, keepdim)


def min(x, dim=None, keepdim=False):  # noqa: A001
    return x.min(dim, keepdim)


def argmax(x, dim=None, keepdim=False):
    return x.argmax(dim, keepdim)


def maximum(a, b, *, out=None):
    if out is not None:
        return write_out("maximum", out, (a, b), lambda: a.maximum(b))
    return a.maximum(b)


def clamp(x, min=None, max=None, *, out=None):  # noqa: A002
    if out is not None:
        return write_out("clamp", out, (x,), lambda: x.clamp(min, max))
    return x.clamp(min, max)


def mm(a, b, *, out=None):
    if out is not None:
        return write_out("mm", out, (a, b), lambda: a.mm(b))
    return a.mm(b)


def matmul(a, b, *, out=None):
    if out is not None:
        return write_out("matmul", out, (a, b), lambda: a.matmul(b))
    return a.matmul(b)


def dot(a, b, *, out=None):
    if out is not None:
        return write_out("dot", out, (a, b), lambda: a.dot(b))
    return a.dot(b)


def t(x):
    return x.t()


def transpose(x, dim0, dim1):
    return x.transpose(dim0, dim1)


def reshape(x, shape):
    return x.reshape(shape)


def flatten(x, start_dim=0, end_dim=-1):
    return x.flatten(start_dim, end_dim)


def unsqueeze(x, dim):
    return x.unsqueeze(dim)


def squeeze(x, dim=None):
    return x.squeeze(dim)


def softmax(x, dim):
    return x.softmax(dim)


def log_softmax(x, dim):
    return x.log_softmax(dim)


def add(a, b, alpha=1, *, out=None):
    if out is not None:
        return write_out("add", out, (a, b), lambda: a.add(b, alpha=alpha))
    return a.add(b, alpha=alpha)


def mul(a, b, *, out=None):
    if out is not None:
        return write_out("mul", out, (a, b), lambda: a * b)
    return a * b


def sub(a, b, alpha=1, *, out=None):
    if out is not None:
        return write_out("sub", out, (a, b), lambda: a.sub(b, alpha=alpha))
    return a.sub(b, alpha=alpha)


def div(a, b, *, rounding_mode=None, out=None):
    if out is not None:
        return write_out("div", out, (a, b), lambda: a.div(b, rounding_mode=rounding_mode))
    return a.div(b, rounding_mode=rounding_mode)


def clone(x, *, memory_format=preserve_format):
    return x.clone(memory_format=memory_format)


def detach(x):
    return x.detach()


def numel(x):
    return x.numel()


def is_tensor(x):
    return isinstance(x, Tensor)


def allclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False):
    import numpy as _np
    return _np.allclose(a._data, b._data, rtol=rtol, atol=atol, equal_nan=equal_nan)


def equal(a, b):
    return a.shape == b.shape and (a._data == b._data).all().item()


def isclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False):
    import numpy as _np
    return Tensor(_np.isclose(a._data, b._data, rtol=rtol, atol=atol, equal_nan=equal_nan))


from . import nn  # noqa: E402
from . import optim  # noqa: E402
from . import utils  # noqa: E402
from . import serialization  # noqa: E402
from .serialization import load, save  # noqa: E402
from .functions import (einsum, sin, cos, tan, sinh, cosh, asin, acos, atan, arcsin, arccos, arctan, square,
                        log1p, expm1, log2, log10, exp2, rsqrt, erf, floor, ceil, trunc, frac, round,
                        clamp_min, clamp_max, clip, floor_divide, remainder, xlogy, minimum, var, std, norm, prod,
                        cumsum, logsumexp, amax, amin, argmin, all, any, masked_fill, index_select, index_put, index_put_, gather,
                        index_add, sort, argsort,
                        scatter, scatter_add, flip, narrow, split, chunk, unbind, permute, movedim, moveaxis, swapaxes, swapdims, unflatten,
                        diagonal, outer, mv, bmm,
                        FloatTensor, DoubleTensor, LongTensor, IntTensor, BoolTensor, ByteTensor,
                        sparse_coo_tensor, sparse_csr_tensor, complex, view_as_complex, view_as_real,
                        polar)  # noqa: E402, A004
from .functions import (abs_, acos_, asin_, atan_, ceil_, cos_, cosh_, detach_, erf_, exp2_, exp_, expm1_,  # noqa: E402
                        floor_, frac_, log10_, log1p_, log2_, log_, neg_, reciprocal_, relu_, rsqrt_, sigmoid_,
                        sin_, sinh_, sqrt_, square_, tan_, tanh_, trunc_, zero_, round_, clamp_, clip_,
                        clamp_min_, clamp_max_, fill_)
from .functions import (multiply, subtract, divide, true_divide, eq, ne, lt, le, gt, ge, logical_not,  # noqa: E402
                        logical_and, logical_or, logical_xor, isnan, isinf, isfinite, nan_to_num, count_nonzero,
                        nonzero, tril, triu, diag, trace, sort, argsort, topk, median, unique, cumprod, masked_select,
                        take, roll, repeat_interleave, tile, fmod, lerp, addcmul, addcdiv, addmm, cross, kron,
                        meshgrid, broadcast_tensors)  # noqa: A004

