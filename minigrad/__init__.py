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
from .tensor import MATRIX_FUNCTIONS, MATRIX_FUNCTIONS_LEFT_OUT, NOT_GIVEN, Tensor
Tensor.__module__ = "minigrad"  # type(x) prints <class 'minigrad.Tensor'>, as PyTorch's <class 'torch.Tensor'>
from . import autograd
from .autograd import enable_grad, is_grad_enabled, no_grad, set_grad_enabled
from .creation import (_efficientzerotensor, arange, as_tensor, cat, concat, empty, empty_like, eye, from_numpy, full, full_like,
                       linspace, logspace, ones, ones_like, stack, tensor, zeros, zeros_like)
from .random import Generator, manual_seed, initial_seed, seed, rand, rand_like, randint, randn, randn_like, randperm, normal
from .random import multinomial
from .random import get_rng_state, randint_like, set_rng_state  # noqa: E402
from .creation import asarray, empty_strided, scalar_tensor  # noqa: E402
from ._dtype import can_cast, finfo, iinfo, layout, promote_types, strided  # noqa: E402
from ._format import set_printoptions  # noqa: E402
from math import e, inf, nan, pi  # noqa: E402  (torch.pi, torch.e, torch.inf, torch.nan are these floats)
newaxis = None  # x[:, minigrad.newaxis] adds a dim, as x[:, None]
from .devices import device, get_default_device, set_default_device, memory_format, preserve_format, contiguous_format
from . import accelerator, backends, cuda, linalg, profiler
from .autograd.inference import inference_mode, is_inference, is_inference_mode_enabled
from .autograd.anomaly_mode import is_anomaly_check_nan_enabled, is_anomaly_enabled, set_anomaly_enabled
from .ops import where
from .ops.select import (atleast_1d, atleast_2d, atleast_3d, block_diag, broadcast_shapes, broadcast_to,  # noqa: E402
                         cartesian_prod, column_stack, diag_embed, dsplit, dstack, fliplr, flipud, hsplit, hstack, ravel,
                         rot90, split_with_sizes, take_along_dim, tensor_split, tril_indices, triu_indices,
                         unravel_index, vsplit, vstack)
from .ops.select import vstack as row_stack  # noqa: E402
from .ops.statistics import (aminmax, corrcoef, cov, cdist, cummax, cummin, cumulative_trapezoid, dist,  # noqa: E402
                             inner, logcumsumexp, nanmean, nansum, std_mean, trapezoid, trapz, var_mean, vdot)
from .ops.sorting import (bincount, bucketize, histc, isin, msort, nanquantile, quantile, searchsorted)  # noqa: E402
from .ops.histogram import histogram  # noqa: E402
from .ops.sampling import bernoulli  # noqa: E402
from .ops.linalg import inverse  # noqa: E402
from .ops._out import write_out

float = float32  # noqa: A001
double = float64
half = float16
long = int64
int = int32  # noqa: A001
short = int16

__version__ = "0.1.0"


# ---- functions that mirror the Tensor methods (minigrad.relu(x) is x.relu()) -------------
# (with ``out=``, the result is written into that tensor: see _out.py)
def sigmoid(input, *, out=None):  # noqa: A002  (PyTorch's argument names, so keywords work: matmul(input=a, other=b))
    if out is not None:
        return write_out("sigmoid", out, (input,), lambda: input.sigmoid())
    return input.sigmoid()


def relu(input):  # noqa: A002
    return input.relu()


def sign(input, *, out=None):  # noqa: A002
    if out is not None:
        return write_out("sign", out, (input,), lambda: input.sign())
    return input.sign()


def sgn(input):  # noqa: A002
    return input.sgn()


def angle(input, *, out=None):  # noqa: A002
    if out is not None:
        return write_out("angle", out, (input,), lambda: input.angle())
    return input.angle()


def tanh(input, *, out=None):  # noqa: A002
    if out is not None:
        return write_out("tanh", out, (input,), lambda: input.tanh())
    return input.tanh()


def exp(input, *, out=None):  # noqa: A002
    if out is not None:
        return write_out("exp", out, (input,), lambda: input.exp())
    return input.exp()


def log(input, *, out=None):  # noqa: A002
    if out is not None:
        return write_out("log", out, (input,), lambda: input.log())
    return input.log()


def sqrt(input, *, out=None):  # noqa: A002
    if out is not None:
        return write_out("sqrt", out, (input,), lambda: input.sqrt())
    return input.sqrt()


def abs(input, *, out=None):  # noqa: A001, A002
    if out is not None:
        return write_out("abs", out, (input,), lambda: input.abs())
    return input.abs()


def neg(input, *, out=None):  # noqa: A002
    if out is not None:
        return write_out("neg", out, (input,), lambda: -input)
    return -input


def pow(input, exponent, *, out=None):  # noqa: A001, A002
    if out is not None:
        return write_out("pow", out, (input, exponent), lambda: pow(input, exponent))
    if not isinstance(input, Tensor):
        return exponent.__rpow__(input)
    return input.pow(exponent)


def sum(input, dim=None, keepdim=False, dtype=None, *, out=None, axis=None, keepdims=None):  # noqa: A001, A002
    if out is not None:
        return write_out("sum", out, (input,), lambda: input.sum(dim, keepdim, dtype, axis=axis, keepdims=keepdims),
                         elementwise=False)
    return input.sum(dim, keepdim, dtype, axis=axis, keepdims=keepdims)


def mean(input, dim=None, keepdim=False, *, out=None, axis=None, keepdims=None):  # noqa: A002
    if out is not None:
        return write_out("mean", out, (input,), lambda: input.mean(dim, keepdim, axis=axis, keepdims=keepdims),
                         elementwise=False)
    return input.mean(dim, keepdim, axis=axis, keepdims=keepdims)


def max(input, dim=None, keepdim=False, *, axis=None, keepdims=None):  # noqa: A001, A002
    return input.max(dim, keepdim, axis=axis, keepdims=keepdims)


def min(input, dim=None, keepdim=False, *, axis=None, keepdims=None):  # noqa: A001, A002
    return input.min(dim, keepdim, axis=axis, keepdims=keepdims)


def argmax(input, dim=None, keepdim=False, *, axis=None, keepdims=None):  # noqa: A002
    return input.argmax(dim, keepdim, axis=axis, keepdims=keepdims)


def maximum(input, other, *, out=None):  # noqa: A002
    if out is not None:
        return write_out("maximum", out, (input, other), lambda: input.maximum(other))
    return input.maximum(other)


def clamp(input, min=None, max=None, *, out=None):  # noqa: A002
    if out is not None:
        return write_out("clamp", out, (input,), lambda: input.clamp(min, max))
    return input.clamp(min, max)


def mm(input, mat2, *, out=None):  # noqa: A002
    if out is not None:
        return write_out("mm", out, (input, mat2), lambda: input.mm(mat2), elementwise=False)
    return input.mm(mat2)


def matmul(input, other, *, out=None):  # noqa: A002
    if out is not None:
        return write_out("matmul", out, (input, other), lambda: input.matmul(other), elementwise=False)
    return input.matmul(other)


def dot(input, tensor, *, out=None):  # noqa: A002
    if out is not None:
        return write_out("dot", out, (input, tensor), lambda: input.dot(tensor), elementwise=False)
    return input.dot(tensor)


def t(input):  # noqa: A002
    return input.t()


def transpose(input, dim0, dim1):  # noqa: A002
    return input.transpose(dim0, dim1)


def reshape(input, shape):  # noqa: A002
    return input.reshape(shape)


def flatten(input, start_dim=0, end_dim=-1):  # noqa: A002
    return input.flatten(start_dim, end_dim)


def unsqueeze(input, dim):  # noqa: A002
    return input.unsqueeze(dim)


def squeeze(input, dim=None):  # noqa: A002
    return input.squeeze(dim)


def softmax(input, dim=None, dtype=None, *, axis=None):  # noqa: A002
    return input.softmax(dim, dtype, axis=axis)


def log_softmax(input, dim=None, dtype=None, *, axis=None):  # noqa: A002
    return input.log_softmax(dim, dtype, axis=axis)


def add(input, other, alpha=1, *, out=None):  # noqa: A002
    if out is not None:
        return write_out("add", out, (input, other), lambda: input.add(other, alpha=alpha))
    return input.add(other, alpha=alpha)


def mul(input, other, *, out=None):  # noqa: A002
    if out is not None:
        return write_out("mul", out, (input, other), lambda: input * other)
    return input * other


def sub(input, other, alpha=1, *, out=None):  # noqa: A002
    if out is not None:
        return write_out("sub", out, (input, other), lambda: input.sub(other, alpha=alpha))
    return input.sub(other, alpha=alpha)


def div(input, other, *, rounding_mode=NOT_GIVEN, out=None):  # noqa: A002
    if out is not None:
        return write_out("div", out, (input, other), lambda: input.div(other, rounding_mode=rounding_mode))
    return input.div(other, rounding_mode=rounding_mode)


def clone(input, *, memory_format=preserve_format):  # noqa: A002
    return input.clone(memory_format=memory_format)


def detach(input):  # noqa: A002
    return input.detach()


def numel(input):  # noqa: A002
    return input.numel()


def is_tensor(obj, /):
    return isinstance(obj, Tensor)


# ---- facts about tensors and dtypes (the rules live in _dtype.py and ops/_util.py) ------------------
from os import cpu_count as _cpu_count  # noqa: E402
def is_floating_point(input, /):  # noqa: A002
    return input.is_floating_point()


def is_complex(input, /):  # noqa: A002
    return input.is_complex()


def is_nonzero(input, /):  # noqa: A002
    return input.is_nonzero()


def result_type(tensor, other):
    """The dtype of ``tensor op other`` (each a tensor or a number), by PyTorch's promotion rules."""
    from .ops.promotion import result_type as _result_type
    return _result_type(tensor, other)


_num_threads = [_cpu_count() or 1]


def get_num_threads():
    """The number PyTorch uses for its parallel CPU loops. minigrad computes with numpy, which it does not tell how
    many threads to use: this only remembers what ``set_num_threads`` was given (at first, the number of CPUs)."""
    return _num_threads[0]


def set_num_threads(int, /):  # noqa: A002  (PyTorch's argument name)
    if int <= 0:
        raise RuntimeError("set_num_threads expects a positive integer")
    _num_threads[0] = int


def allclose(input, other, rtol=1e-05, atol=1e-08, equal_nan=False):  # noqa: A002
    from .ops import math_more
    return math_more.allclose(input, other, rtol, atol, equal_nan, position=2)


def equal(input, other):  # noqa: A002
    return input.shape == other.shape and (input._data == other._data).all().item()


def isclose(input, other, rtol=1e-05, atol=1e-08, equal_nan=False):  # noqa: A002
    from .ops import math_more
    return math_more.isclose(input, other, rtol, atol, equal_nan, position=2)


from . import nn  # noqa: E402
from . import optim  # noqa: E402
from . import utils  # noqa: E402
from .utils import checkpoint as _checkpoint, data as _data, hooks as _hooks  # noqa: E402,F401  (utils.checkpoint ...)
from .autograd import functional as _functional  # noqa: E402,F401  (autograd.functional)
from . import serialization  # noqa: E402
from . import testing  # noqa: E402
from . import distributions  # noqa: E402
from .serialization import load, save  # noqa: E402
from .functions import (einsum, sin, cos, tan, sinh, cosh, asin, acos, atan, arcsin, arccos, arctan, square,
                        log1p, expm1, log2, log10, exp2, rsqrt, erf, floor, ceil, trunc, frac, round,
                        clamp_min, clamp_max, clip, floor_divide, remainder, xlogy, minimum, var, std, norm, prod,
                        cumsum, logsumexp, amax, amin, argmin, all, any, masked_fill, index_select, index_put, index_put_, gather,
                        index_add, sort, argsort,
                        scatter, scatter_add, flip, narrow, as_strided, split, chunk, unbind, permute, movedim, moveaxis, swapaxes, swapdims, unflatten,
                        diagonal, outer, mv, bmm,
                        FloatTensor, DoubleTensor, LongTensor, IntTensor, BoolTensor, ByteTensor,
                        sparse_coo_tensor, sparse_csr_tensor, complex, view_as_complex, view_as_real,
                        polar)  # noqa: E402, A004
from .functions import (abs_, acos_, asin_, atan_, ceil_, cos_, cosh_, detach_, erf_, exp2_, exp_, expm1_,  # noqa: E402
                        floor_, frac_, log10_, log1p_, log2_, log_, neg_, reciprocal_, relu_, rsqrt_, sigmoid_,
                        sin_, sinh_, sqrt_, square_, tan_, tanh_, trunc_, zero_, round_, clamp_, clip_,
                        clamp_min_, clamp_max_, fill_, nan_to_num_, reciprocal, select, is_same_size, get_device,
                        bitwise_and, bitwise_or, bitwise_xor, bitwise_not)
from .functions import (multiply, subtract, divide, true_divide, eq, ne, lt, le, gt, ge, logical_not,  # noqa: E402
                        logical_and, logical_or, logical_xor, isnan, isinf, isfinite, nan_to_num, count_nonzero,
                        nonzero, tril, triu, diag, trace, sort, argsort, topk, median, nanmedian, unique, cumprod, masked_select,
                        masked_scatter,
                        take, put, scatter_reduce, index_reduce, roll, repeat_interleave, tile, fmod, lerp, addcmul, addcdiv, addmm, cross, kron,
                        meshgrid, broadcast_tensors, diff, tensordot, kthvalue, mode, index_fill, index_copy,
                        selu)  # noqa: A004
from .ops.math_more import (asinh, acosh, atanh, arcsinh, arccosh, arctanh, erfc, erfinv, lgamma, digamma,  # noqa: E402
                            polygamma, i0, sinc, deg2rad, rad2deg, logit, atan2, arctan2, hypot, logaddexp, logaddexp2,
                            ldexp, nextafter, fmax, fmin, heaviside, gcd, lcm, copysign, float_power, frexp, signbit,
                            isposinf, isneginf, isreal, is_signed, absolute, negative, positive, fix, greater,
                            greater_equal, less, less_equal, not_equal, asinh_, erfc_, i0_, sinc_, deg2rad_, rad2deg_,
                            logit_, fix_, negative_, xlogy_, ldexp_, gcd_, lcm_, acosh_, atanh_, arcsinh_,
                            arccosh_, arctanh_)
from .nn.functional import celu, celu_, hardshrink, prelu, rrelu, rrelu_, selu_, threshold, threshold_  # noqa: E402
from .nn.rnn import gru_cell, lstm_cell, rnn_relu_cell, rnn_tanh_cell  # noqa: E402
from .ops.recurrent import unsafe_chunk  # noqa: E402
from .nn.conv import conv1d, conv2d  # noqa: E402  (torch.conv1d is F.conv1d, and so on)
from .nn.pooling import adaptive_avg_pool1d, avg_pool1d, max_pool1d_with_indices  # noqa: E402
from .nn import pooling as _pooling  # noqa: E402


def max_pool1d(input, kernel_size, stride=(), padding=0, dilation=1, ceil_mode=False):  # noqa: A002
    """``torch.max_pool1d``: ``F.max_pool1d`` without ``return_indices`` (the same nodes)."""
    return _pooling.max_pool1d_values(input, kernel_size, stride, padding, dilation, ceil_mode)


def max_pool2d(input, kernel_size, stride=(), padding=0, dilation=1, ceil_mode=False):  # noqa: A002
    """``torch.max_pool2d``: ``F.max_pool2d`` without ``return_indices`` (node ``MaxPool2DWithIndicesBackward0``)."""
    return _pooling.max_pool2d(input, kernel_size, stride, padding, dilation, ceil_mode)


def adaptive_max_pool1d(input, output_size):  # noqa: A002
    """``torch.adaptive_max_pool1d``: the maxima and their places, always both (``F.adaptive_max_pool1d`` with
    ``return_indices=True``)."""
    return _pooling.adaptive_max_pool1d_with_indices(input, output_size)


def adjoint(input):  # noqa: A002
    return input.adjoint()


def diagflat(input, offset=0):  # noqa: A002
    return input.diagflat(offset)


def argwhere(input):  # noqa: A002
    return input.argwhere()


def compile(model=None, *, fullgraph=False, dynamic=None, backend="inductor", mode=None, options=None,  # noqa: A001
            disable=False):
    """PyTorch's ``torch.compile`` makes a model or function run faster and gives the same numbers.  minigrad has
    no compiler: it gives back ``model`` itself (used as ``@compile`` or ``@compile(...)``, the function as it is)."""
    if model is None:
        return lambda fn: fn
    return model


_LEFT_OUT = {  # the parts of torch a learner may meet that minigrad does not have, and what to use instead
    "func": "the function transforms (torch.func.grad, vmap, jacrev); minigrad has autograd.grad and "
            "autograd.functional (jacobian, hessian, vjp, jvp)",
    "jit": "TorchScript", "fx": "graph capture", "export": "graph capture", "onnx": "model export",
    "distributed": "several processes or machines", "amp": "mixed precision", "autocast": "mixed precision",
    "fft": "Fourier transforms", "special": "the special functions' module (the common ones are minigrad.lgamma, "
    "minigrad.digamma, minigrad.erfinv, minigrad.i0, ...)", "sparse": "sparse layouts (dense tensors only)",
    "nested": "nested tensors", "masked": "masked tensors", "quantization": "quantized tensors",
    "hub": "downloads of models",
    "channels_last": "the channels-last memory format of 4-d images (for fast convolution kernels); minigrad has contiguous_format and preserve_format, and keeps a channels-last input's layout where PyTorch does",
    "channels_last_3d": "the channels-last memory format of 5-d volumes; minigrad has contiguous_format and preserve_format",
    "vmap": "the function transforms (torch.func.vmap); minigrad has autograd.grad and autograd.functional",
    "poisson": "the Poisson sampler",
}
_LEFT_OUT.update(dict.fromkeys(MATRIX_FUNCTIONS, MATRIX_FUNCTIONS_LEFT_OUT))
_LEFT_OUT.update(dict.fromkeys(("bfloat16", "complex32", "complex64", "complex128", "cfloat", "cdouble", "chalf"),
                               "complex numbers and bfloat16; minigrad has float16, float32, float64, the integer "
                               "dtypes and bool"))


def __getattr__(name):  # (Python asks this for a name the module does not define)
    if name in _LEFT_OUT:
        raise AttributeError(f"minigrad has no {name}: {_LEFT_OUT[name]}; PyTorch has torch.{name}")
    from .nn._absent import FUNCTIONS, TOP_LEVEL, missing
    if name in TOP_LEVEL:  # (torch.conv3d and the like: functions of the layers minigrad leaves out)
        raise missing("minigrad", name, FUNCTIONS)
    raise AttributeError(f"module 'minigrad' has no attribute '{name}'")
