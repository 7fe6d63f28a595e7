"""``torch.nn.functional``'s embedding and normalisation functions: ``embedding``, ``layer_norm``, ``rms_norm``.

``minigrad.nn.functional`` imports all of these (``F.embedding``, ``F.layer_norm`` ...).  The ops themselves
(forward and backward side by side) are in ``minigrad/ops/embedding.py`` and ``minigrad/ops/norm.py``.
"""
import warnings

from .. import _dtype as dtypes
from .. import ops
from .._core.tensor_base import C_NAMES
from ..autograd import grad_mode
from ..ops import embedding as _embedding
from ..ops import norm as _norm

NO_SPARSE = ("minigrad has dense tensors only: no sparse layouts, so no sparse gradient for an embedding "
             "(sparse=True); sparse=False gives the same numbers as a dense gradient")


def embedding(input, weight, padding_idx=None, max_norm=None, norm_type=2.0, scale_grad_by_freq=False,
              sparse=False):
    """``weight[input]``, one row per index (PyTorch: ``F.embedding``, node ``EmbeddingBackward0``).

    ``padding_idx`` (negative counts from the end) names a row that gets no gradient; ``max_norm`` first
    rescales, in place and without recording, each looked-up row whose ``norm_type``-norm is above it."""
    if sparse:
        raise NotImplementedError(NO_SPARSE)
    if padding_idx is not None:
        if padding_idx > 0:
            if padding_idx >= weight.size(0):
                raise AssertionError("Padding_idx must be within num_embeddings")
        elif padding_idx < 0:
            if padding_idx < -weight.size(0):
                raise AssertionError("Padding_idx must be within num_embeddings")
            padding_idx = weight.size(0) + padding_idx
    else:
        padding_idx = -1
    if max_norm is not None:
        with grad_mode.no_grad():
            _embedding.embedding_renorm_(weight.detach(), input, max_norm, norm_type)
    return _embedding.Embedding.apply(weight, ops.NoEdge(input), padding_idx, scale_grad_by_freq, sparse)


def layer_norm(input, normalized_shape, weight=None, bias=None, eps=1e-5):
    """Normalise each sample over its last dims ``normalized_shape`` (an int or a tuple), then ``* weight +
    bias`` (PyTorch: ``F.layer_norm``, one node ``NativeLayerNormBackward0``)."""
    if isinstance(normalized_shape, int):
        raise TypeError("layer_norm(): argument 'normalized_shape' (position 2) must be tuple of ints, not int")
    return _norm.layer_norm(input, normalized_shape, weight, bias, eps)


def rms_norm(input, normalized_shape, weight=None, eps=None):
    """``input * rsqrt(mean(input ** 2) + eps) * weight``, the mean over the last dims ``normalized_shape``
    (PyTorch: ``F.rms_norm``).  PyTorch 2.13 records it on the CPU as the ops it is made of (``PowBackward0``,
    ``MeanBackward1``, ``AddBackward1``, ``RsqrtBackward0``, ``MulBackward0``, and ``CloneBackward0`` where the
    result is not row-major, as for a transposed input), and so does minigrad.
    ``eps=None`` is the machine epsilon of the dtype computed in (float32 for a float16 input)."""
    if isinstance(normalized_shape, int):
        raise TypeError("rms_norm(): argument 'normalized_shape' (position 2) must be tuple of ints, not int")
    _norm.check_layer_norm(input, normalized_shape, weight, None, kernel="rms_norm", star="*")
    if weight is not None and weight.dtype != input.dtype:
        warnings.warn(f"Mismatch dtype between input and weight: input dtype = {C_NAMES[input.dtype.name]}, weight "
                      f"dtype = {C_NAMES[weight.dtype.name]}, Cannot dispatch to fused implementation.", stacklevel=2)
    compute = input.float() if input.dtype == dtypes.float16 else input  # (PyTorch's opmath type)
    if eps is None:
        eps = dtypes.finfo(compute.dtype).eps
    dims = list(range(input.dim() - len(normalized_shape), input.dim()))
    result = compute.mul(ops.AddScalar.apply(compute.pow(2).mean(dims, keepdim=True), eps).rsqrt())
    if weight is not None:
        result = result.mul(weight)
    if _norm.suggested_order(input._data) == _norm.row_major_order(input.dim()):  # (PyTorch's rms_norm_composite: a result
        result = result.contiguous()  # laid out otherwise is copied row-major, CloneBackward0, unless channels-last)
    return result.type_as(input)


def batch_norm(input, running_mean, running_var, weight=None, bias=None, training=False, momentum=0.1, eps=1e-5):
    """Normalise each channel (dim 1) over the batch and the positions, then ``* weight + bias`` (PyTorch:
    ``F.batch_norm``, one node ``NativeBatchNormBackward0``).  In training the batch's statistics are used and
    ``running_mean``, ``running_var`` (if given) move towards them in place; otherwise the running ones."""
    if training:
        _verify_batch_size(input.size())
    if training and eps <= 0.0:
        raise ValueError(f"batch_norm eps must be positive during training, but got {eps}")
    elif eps < 0.0:
        raise ValueError(f"batch_norm eps must be non-negative, but got {eps}")
    return _norm.batch_norm(input, running_mean, running_var, weight, bias, training, momentum, eps)


def _verify_batch_size(size):
    """Training needs more than one number per channel (else the variance is 0/0)."""
    size_prods = size[0]
    for i in range(len(size) - 2):
        size_prods *= size[i + 2]
    if size_prods == 1:
        raise ValueError(f"Expected more than 1 value per channel when training, got input size {size}")
