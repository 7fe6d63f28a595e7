"""Functions behind the layers (PyTorch: ``torch.nn.functional``, usually imported as ``F``)."""
import math
import warnings

import numpy as np

from .. import ops
from ..autograd import grad_mode
from ..tensor import Tensor
from .functional_more import implicit_softmax_dim
# more activations, dropout, one_hot and losses (issue 19): see functional_more.py
from .functional_more import (binary_cross_entropy, binary_cross_entropy_with_logits, cosine_similarity, dropout, elu, gelu,
                              hardtanh, huber_loss, kl_div, l1_loss, leaky_relu, logsigmoid, normalize, one_hot, relu6, silu,
                              smooth_l1_loss, softmin, softplus, pad)
# celu, mish, hardswish, glu, prelu, rrelu ... and the in-place forms (relu_, elu_ ...): see functional_activations.py
from .functional_activations import (celu, celu_, elu_, glu, hardshrink, hardsigmoid, hardswish, hardtanh_,
                                     leaky_relu_, mish, prelu, relu_, rrelu, rrelu_, selu, selu_, softshrink, softsign,
                                     tanhshrink)
# the losses PyTorch writes as composites, pairwise_distance: see functional_losses.py
from .functional_losses import (cosine_embedding_loss, gaussian_nll_loss, hinge_embedding_loss,
                                margin_ranking_loss, multi_margin_loss, multilabel_soft_margin_loss,
                                pairwise_distance, poisson_nll_loss, soft_margin_loss, triplet_margin_loss)
# embedding and normalisation (issue 41): see functional_norm.py
from .functional_norm import batch_norm, embedding, layer_norm, rms_norm
# linear (nn.Linear's function): see functional_linear.py
from .functional_linear import linear
# convolution, pooling, unfold/fold (issue 42): see conv.py, pooling.py, fold.py
from .conv import conv1d, conv2d
from .pooling import (adaptive_avg_pool1d, adaptive_avg_pool2d, adaptive_max_pool1d, adaptive_max_pool2d,
                      avg_pool1d, avg_pool2d, max_pool1d, max_pool2d)
from .pooling import adaptive_max_pool2d_with_indices, max_pool2d_with_indices
from .pooling import adaptive_max_pool1d_with_indices_fn as adaptive_max_pool1d_with_indices
from .pooling import max_pool1d_with_indices_fn as max_pool1d_with_indices
from .fold import fold, unfold


_TYPE_NAMES = {"float32": "Float", "float64": "Double", "int32": "Int", "bool": "Bool", "float16": "Half"}


def relu(input, inplace=False):
    """``max(0, input)``; ``inplace=True`` overwrites ``input`` and returns it (``input.relu_()``)."""
    return input.relu_() if inplace else input.relu()


def threshold(input, threshold, value, inplace=False):
    """``input`` where ``input > threshold``, else ``value`` (PyTorch: ``F.threshold``, node ``ThresholdBackward0``)."""
    if input.dtype.name == "bool":  # (PyTorch's kernel takes numbers of any other dtype)
        raise NotImplementedError("\"threshold_cpu\" not implemented for 'Bool'")
    if inplace:
        return ops.inplace(input, ops.ThresholdInPlace, threshold, value)
    return ops.Threshold.apply(input, threshold, value)


def threshold_(input, threshold, value):  # noqa: A002
    """``F.threshold(input, threshold, value, inplace=True)`` (``ThresholdBackward1``)."""
    return _threshold(input, threshold, value, inplace=True)


_threshold = threshold  # (inside threshold_, the name threshold is the number, as in PyTorch's signature)


def sigmoid(input):
    return input.sigmoid()


def tanh(input):
    return input.tanh()


def softmax(input, dim=None, _stacklevel=3, dtype=None):
    if dim is None:
        dim = implicit_softmax_dim("softmax", input.dim(), _stacklevel)
    return input.softmax(dim, dtype)


def log_softmax(input, dim=None, _stacklevel=3, dtype=None):
    if dim is None:
        dim = implicit_softmax_dim("log_softmax", input.dim(), _stacklevel)
    return input.log_softmax(dim, dtype)


def mse_loss(input, target, size_average=None, reduce=None, reduction="mean"):
    if input.shape != target.shape:
        warnings.warn(f"Using a target size ({target.shape}) that is different to the input size ({input.shape}). "
                      "This will likely lead to incorrect results due to broadcasting. Please ensure they have the "
                      "same size.", UserWarning, stacklevel=2)
        shape = ops.broadcast_shape(input, target)  # (PyTorch's broadcast_tensors: only what needs it is expanded)
        input = input if input.shape == shape else input.expand(shape)
        target = target if target.shape == shape else target.expand(shape)
    return ops.MseLoss.apply(input, target, reduction)


def nll_loss(input, target, weight=None, size_average=None, ignore_index=-100, reduce=None, reduction="mean"):
    target = target if isinstance(target, Tensor) else Tensor(np.asarray(target))  # (its dtype: checked after the shapes)
    t = target._data
    if weight is not None and weight.requires_grad and grad_mode.is_grad_enabled():  # (no gradient for the weights)
        spatial = input.dim() == 4 or (input.dim() == 3 and t.shape == (input.shape[0], input.shape[2]))
        raise RuntimeError(f"The function '{'nll_loss2d_forward' if spatial else 'nll_loss_forward'}' is not "
                           "differentiable with respect to argument 'weight'. This input cannot have requires_grad True.")
    w = ops.NoEdge(weight)  # (target and weight: saved by the node, no edges)
    if input.dim() == 3 and t.shape == (input.shape[0], input.shape[2]):
        # PyTorch sees (N, C, d) as the image (N, C, 1, d), and the loss per position back as (N, d)
        n, c, d = input.shape
        image, targets = input.contiguous().view(n, c, 1, d), target.contiguous().view(n, 1, d)
        out = ops.loss.NllLoss2d.apply(image, ops.NoEdge(targets), w, reduction, ignore_index)
        return out.view(t.shape) if reduction == "none" else out
    if input.dim() == 4:
        return ops.loss.NllLoss2d.apply(input, ops.NoEdge(target), w, reduction, ignore_index)
    return ops.NllLoss.apply(input, ops.NoEdge(target), w, reduction, ignore_index)


def cross_entropy(input, target, weight=None, size_average=None, ignore_index=-100, reduce=None,
                  reduction="mean", label_smoothing=0.0):
    """``nll_loss(log_softmax(input, 1), target)``: the graph shows both nodes, as in PyTorch.

    A target of the input's shape holds class probabilities: see ``_cross_entropy_probabilities``."""
    ops.loss._check_reduction(reduction)
    if target.shape == input.shape:  # PyTorch reads a target of the input's shape as class probabilities
        if not target.is_floating_point():
            raise RuntimeError(f"Expected floating point type for target with class probabilities, got "
                               f"{_TYPE_NAMES.get(target.dtype.name, 'Long')}")
        if ignore_index >= 0:
            raise RuntimeError("ignore_index is not supported for floating point target")
        return _cross_entropy_probabilities(input, target, weight, reduction, label_smoothing)
    if label_smoothing > 0:
        if label_smoothing > 1:
            raise RuntimeError(f"label_smoothing must be between 0.0 and 1.0. Got: {label_smoothing}")
        return _cross_entropy_smoothed(input, target, weight, reduction, ignore_index, label_smoothing)
    dim = 0 if input.dim() == 1 else 1
    return nll_loss(input.log_softmax(dim), target, weight, ignore_index=ignore_index, reduction=reduction)


def _cross_entropy_smoothed(input, target, weight, reduction, ignore_index, label_smoothing):
    """Class indices with label smoothing ``s``: ``(1 - s) * nll_loss + s / C * smooth``, where
    ``smooth`` is ``-log_softmax(input)`` summed over the classes (weighted; 0 where the target is
    ignored), reduced as the loss is (``mean``: divided by the number, or the weights, of the
    targets not ignored). PyTorch's ``cross_entropy_loss_label_smoothing``, op by op."""
    class_dim = 0 if input.dim() == 1 else 1
    log_p = input.log_softmax(class_dim)  # (first, as in PyTorch: a 0-dim input has no dim 1)
    n_classes = input.shape[class_dim]
    nll = nll_loss(log_p, target, weight, ignore_index=ignore_index, reduction=reduction)
    target = target if isinstance(target, Tensor) else Tensor(np.asarray(target))
    ignored = target == ignore_index
    if weight is not None:  # (viewed along the class dim, whatever the rank)
        smooth = -(log_p * weight.view([n_classes if d == class_dim else 1 for d in range(input.dim())])).sum(class_dim)
    else:
        smooth = -log_p.sum(class_dim)
    smooth.masked_fill_(ignored, 0.0)
    if reduction == "mean":
        if weight is not None:
            kept = Tensor(target._data[~ignored._data].reshape(-1))
            smooth = smooth.sum() / weight.gather(0, kept).sum()
        else:
            smooth = smooth.sum() / (~ignored).sum()
    elif reduction == "sum":
        smooth = smooth.sum()
    return ops.MulScalar.apply(nll, 1 - label_smoothing) + ops.MulScalar.apply(smooth, label_smoothing / n_classes)


def _cross_entropy_probabilities(input, target, weight, reduction, label_smoothing):
    """``-(log_softmax(input) * target * weight)`` summed over the classes, then over the samples
    (``sum``), or that sum divided by the number of samples (``mean``: ``DivBackward1``).

    PyTorch's ``cross_entropy_loss_prob_target`` computes it with these ops, so its graph has their
    nodes (``LogSoftmaxBackward0``, ``MulBackward0``, ``SumBackward0``, ``NegBackward0``, ...) and
    the target gets a gradient too. Label smoothing mixes the target with the uniform distribution:
    ``target * (1 - s) + s / C``."""
    class_dim = 0 if input.dim() == 1 else 1
    if input.dim() == 0:  # (PyTorch asks the 0-dim input for its size along dim 1)
        raise IndexError("Dimension specified as 1 but tensor has no dimensions")
    n_classes = input.shape[class_dim]
    if weight is not None and (weight.dim() != 1 or weight.numel() != n_classes):
        raise RuntimeError(f"cross_entropy: weight tensor should be defined either for all {n_classes} classes or no "
                           f"classes but got weight tensor of shape: {list(weight.shape)}")
    log_p = input.log_softmax(class_dim)
    if label_smoothing > 0:
        if label_smoothing > 1:
            raise RuntimeError(f"label_smoothing must be between 0.0 and 1.0. Got: {label_smoothing}")
        uniform = label_smoothing / n_classes if n_classes else math.inf  # (no classes: C++'s s / 0, for no element)
        target = ops.AddScalar.apply(ops.MulScalar.apply(target, 1 - label_smoothing), uniform)
    terms = log_p * target
    if weight is not None:  # one weight per class, viewed along the class dim
        terms = terms * (weight.view([n_classes if d == 1 else 1 for d in range(input.dim())]) if input.dim() > 1
                         else weight)
    if reduction == "none":
        return -terms.sum(class_dim)
    total = terms.sum()
    if reduction == "sum":
        return -total
    if input.numel() == 0:  # the mean of no samples: nan
        return -total.fill_(float("nan"))
    return ops.DivScalar.apply(-total, input.numel() // n_classes)



def __getattr__(name):  # F.conv2d and the other functions of the layers minigrad leaves out (see _absent.py)
    from ._absent import FUNCTIONS, missing
    raise missing("minigrad.nn.functional", name, FUNCTIONS)


# ------------------------------------------------------------------ attention (issue 41)
from .functional_attention import multi_head_attention_forward, scaled_dot_product_attention  # noqa: E402
