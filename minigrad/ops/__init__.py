"""Every built-in op of minigrad, each a ``Function`` with forward and backward side by side.

- ``elementwise.py``: + - * / ** neg exp log sqrt abs tanh sigmoid relu clamp where ...
- ``reduce.py``: sum, mean, max, softmax, log_softmax
- ``shape.py``: view/reshape, t/transpose/permute, (un)squeeze, expand, indexing, cat/stack
- ``linalg.py``: mm, addmm (nn.Linear, torch.addmm), dot, mv, bmm, matmul, cross, kron, inv
- ``loss.py``: mse_loss, nll_loss, multi_margin_loss; ``elementwise_loss.py``: l1, smooth l1, huber, bce, soft margin
- ``activation.py``: gelu, silu, softplus, elu/celu/selu, hardtanh, hardswish, hardsigmoid, mish, shrinks, glu, prelu,
  rrelu, logsigmoid, dropout
- ``math_more.py``: asinh acosh atanh erfc erfinv lgamma digamma polygamma i0 sinc logit, atan2 hypot logaddexp
  copysign fmax fmin float_power heaviside gcd lcm ldexp nextafter frexp, their in-place forms and aliases
- ``inplace.py``: add_, mul_, zero_, x[i] = v, ...
- ``unary.py``: sin cos tan ..., log1p expm1 log2 log10 exp2 rsqrt erf, floor ceil round trunc frac, // %, clamp_min/max,
  fmod, nan_to_num, lerp, addcmul, addcdiv, div(rounding_mode=)
- ``statistics.py``: var, std, norm, prod, cumsum, cumprod, logsumexp, amax/amin, argmax, argmin, all, any,
  nansum/nanmean, aminmax, cummax/cummin, logcumsumexp, var_mean/std_mean, dist, cdist, trapezoid, cov
- ``select.py``: masked_fill, index_select, gather, scatter, flip, repeat, split/chunk, unbind, einsum,
  tril/triu, diag, trace, masked_select, take, nonzero, roll, repeat_interleave, tile, meshgrid, broadcast_tensors,
  put, scatter_reduce, index_reduce
- ``sorting.py``: sort, argsort, topk, median, unique, msort, quantile, searchsorted, bucketize, isin, histc, bincount
- ``embedding.py``: embedding (nn.Embedding); ``norm.py``: layer_norm, batch_norm; ``histogram.py``: torch.histogram
"""
from .._core.tensor_base import TensorBase as Tensor
from ._util import NoEdge, check_not_bool, is_expandable_to, sum_to
from .promotion import as_operand, broadcast_shape
from .elementwise import (Abs, Add, AddScalar, binary, Clamp, Clone, CopyFrom, Div, DivMode, DivScalar, Exp, Fill, Log, Maximum, Mul,
                          MulScalar, Neg, Pow, PowScalarBase, PowTensor, Reciprocal, Relu, Rsub, Sigmoid, SigmoidBackward,
                          Sqrt, Sub, Tanh,
                          TanhBackward, Threshold, ThresholdBackward, ThresholdInPlace, Sign, Sgn, Angle, ToCopy,
                          Where, Zero, where)
from .inplace import inplace, inplace_view, inplace_view_refresh
from .linalg import Addmm, Bmm, Dot, Mm, Mv, matmul
from .loss import MseLoss, NllLoss
from .reduce import Max, MaxDim, Mean, MeanDim, Min, MinDim, MinReturnTypes, ReturnTypes, LogSoftmax, Softmax, Sum, SumDim
from .shape import (Cat, Diagonal, Expand, Index, IndexGrad, IndexPut, Permute, Select, Slice, Squeeze, SqueezeDim, Stack,
                    T, Transpose, UnsafeView, Unsqueeze, View, can_view, index, setitem)
from . import linalg, sampling, select, sorting, statistics, unary  # more ops (trigonometry, var/std/norm, gather/scatter/split, einsum ...)
