"""The losses of ``torch.nn.functional`` that PyTorch writes as a composite of ordinary ops: margin
ranking, hinge embedding, cosine embedding, triplet margin, Poisson and Gaussian NLL, multi-label soft
margin; with ``pairwise_distance``, and the two losses that are one op each (``soft_margin_loss``,
``multi_margin_loss``, in ``minigrad/ops/``).

``minigrad.nn.functional`` imports all of these, so write ``F.triplet_margin_loss(a, p, n)``.  Each
composite takes PyTorch's steps in PyTorch's order (``aten/src/ATen/native/Loss.cpp`` for the C++
ones, ``torch/nn/functional.py`` for the Python ones), so the graph has PyTorch's nodes: a C++
``tensor * 0.5`` is ``MulBackward1``, written here with ``MulScalar``; a C++ ``1 - tensor`` is
``empty_like(tensor).fill_(1).sub_(tensor)``, ``SubBackward0``, written with ``filled(1, t).sub_(t)``.
"""
import math

import numpy as np

from .. import _dtype, creation, functions, ops
from ..autograd import grad_mode
from ..ops import elementwise_loss as _elementwise_loss
from ..ops import loss as _loss
from ..ops.elementwise import AddScalar, MulScalar, SubScalar, filled
from ..ops._util import reduced_dims
from ..tensor import _TYPE_NAMES
from .functional_more import _no_gradient_for, logsigmoid
from .module import _legacy_reduction

# Loss.cpp's EPSILON is a C++ float: 1e-12 rounded to float32, added as a double
_EPSILON = float(np.float32(1e-12))


def _reduction(size_average, reduce, reduction):
    """``reduction`` (from the legacy ``size_average``/``reduce`` if given), checked as PyTorch's
    ``_Reduction.get_enum`` does."""
    reduction = _legacy_reduction(size_average, reduce, reduction)
    _loss._check_reduction(reduction)
    return reduction


def _reduce(loss, reduction):
    """PyTorch's ``apply_loss_reduction``: the mean, the sum, or the loss of every element."""
    if reduction == "mean":
        return loss.mean()
    if reduction == "sum":
        return loss.sum()
    return loss


def _rsub(number, t):
    """C++'s ``number - t``: a tensor of ``t``'s dtype filled with ``number``, minus ``t`` (``SubBackward0``)."""
    return filled(number, t).sub_(t)


def _scalar(op, t, number):
    """C++'s ``t + number``, ``t - number``, ``t * number`` (``op``: ``AddScalar``, ...: ``AddBackward1`` ...).
    The number is a C++ double: next to an integer tensor the result has the default float dtype
    (an integer tensor has no gradient, so converting it first records nothing)."""
    if not t.is_floating_point():
        t = t.to(_dtype.get_default_dtype())
    return op.apply(t, float(number))


def pairwise_distance(x1, x2, p=2.0, eps=1e-6, keepdim=False):
    """The p-norm of ``x1 - x2 + eps`` along the last dim: the distance between the rows of ``x1`` and
    ``x2`` (broadcast); ``eps`` keeps the gradient finite when two rows are equal (``NormBackward1``)."""
    last = max(x1.dim(), x2.dim()) - 1
    diff = _scalar(AddScalar, x1 - x2, eps)
    return _loss.NormDim.apply(diff, p, reduced_dims(last, diff.dim()), keepdim, last)


def margin_ranking_loss(input1, input2, target, margin=0, size_average=None, reduce=None, reduction="mean"):
    """``max(0, -target * (input1 - input2) + margin)``: ``target = 1`` asks for ``input1`` ranked
    higher than ``input2`` by ``margin``, ``-1`` for the opposite."""
    reduction = _reduction(size_average, reduce, reduction)
    if input1.dim() != input2.dim() or input1.dim() != target.dim():
        raise RuntimeError(f"margin_ranking_loss : All input tensors should have same dimension but got sizes: "
                           f"input1: {input1.size()}, input2: {input2.size()}, target: {target.size()} ")
    diff = input1 - input2  # (C++ computes the right operand of ``*`` first: its node is the older one)
    loss = _scalar(AddScalar, -target * diff, margin)
    return _reduce(loss.clamp_min_(0), reduction)


def hinge_embedding_loss(input, target, margin=1.0, size_average=None, reduce=None, reduction="mean"):  # noqa: A002
    """``input`` where ``target`` is 1, ``max(0, margin - input)`` where it is -1 (``input``: a distance)."""
    reduction = _reduction(size_average, reduce, reduction)
    zeros = creation.zeros_like(input)
    margin_clamp = _rsub(margin, input).clamp_min_(0)
    output_margin = ops.where(target != 1, margin_clamp, zeros)
    output_self = ops.where(target != -1, input, zeros)
    return _reduce(output_margin + output_self, reduction)


def soft_margin_loss(input, target, size_average=None, reduce=None, reduction="mean"):  # noqa: A002
    """``log(1 + exp(-target * input))`` for targets ``1`` or ``-1``; one op (``SoftMarginLossBackward0``)."""
    reduction = _reduction(size_average, reduce, reduction)
    _no_gradient_for(target, "target", "soft_margin_loss")
    shape = ops.broadcast_shape(input, target)  # (the target broadcasts to the input, not the other way)
    if shape != input.shape:
        raise RuntimeError(f"output with shape {list(input.shape)} doesn't match the broadcast shape {list(shape)}")
    return _elementwise_loss.SoftMarginLoss.apply(input, ops.NoEdge(target), reduction)


def cosine_embedding_loss(input1, input2, target, margin=0, size_average=None, reduce=None, reduction="mean"):
    """``1 - cos(input1, input2)`` where ``target`` is 1, ``max(0, cos - margin)`` where it is -1."""
    reduction = _reduction(size_average, reduce, reduction)
    dim = target.dim()
    if dim not in (0, 1):
        raise RuntimeError("0D or 1D target tensor expected, multi-target not supported")
    if input1.dim() != dim + 1 or input2.dim() != dim + 1:
        raise RuntimeError(f"{dim}D target tensor expects {dim + 1}D input tensors, but found inputs with sizes "
                           f"{list(input1.shape)} and {list(input2.shape)}.")
    prod_sum = (input1 * input2).sum(dim)
    mag_square1 = _scalar(AddScalar, (input1 * input1).sum(dim), _EPSILON)
    mag_square2 = _scalar(AddScalar, (input2 * input2).sum(dim), _EPSILON)
    denom = (mag_square1 * mag_square2).sqrt_()
    cos = prod_sum / denom
    zeros = creation.zeros_like(cos)
    pos = _rsub(1, cos)
    neg = _scalar(SubScalar, cos, margin).clamp_min_(0)
    output_pos = ops.where(target == 1, pos, zeros)
    output_neg = ops.where(target == -1, neg, zeros)
    return _reduce(output_pos + output_neg, reduction)


def triplet_margin_loss(anchor, positive, negative, margin=1.0, p=2, eps=1e-6, swap=False, size_average=None,
                        reduce=None, reduction="mean"):
    """``max(0, margin + d(anchor, positive) - d(anchor, negative))`` with ``d`` the ``pairwise_distance``;
    ``swap=True`` uses the smaller of ``d(anchor, negative)`` and ``d(positive, negative)``."""
    reduction = _reduction(size_average, reduce, reduction)
    if margin <= 0:
        raise ValueError(f"margin must be greater than 0, got {margin}")
    if not anchor.dim() == positive.dim() == negative.dim():
        raise RuntimeError(f"The anchor, positive, and negative tensors are expected to have the same number of "
                           f"dimensions, but got: anchor {anchor.dim()}D, positive {positive.dim()}D, and negative "
                           f"{negative.dim()}D inputs")
    dist_pos = pairwise_distance(anchor, positive, p, eps)
    dist_neg = pairwise_distance(anchor, negative, p, eps)
    if swap:
        dist_neg = functions.minimum(dist_neg, pairwise_distance(positive, negative, p, eps))
    return _reduce((_scalar(AddScalar, dist_pos, margin) - dist_neg).clamp_min(0), reduction)


def poisson_nll_loss(input, target, log_input=True, full=False, size_average=None, eps=1e-8, reduce=None,  # noqa: A002
                     reduction="mean"):
    """The negative log-likelihood of ``target`` counts under a Poisson distribution of rate
    ``exp(input)`` (``log_input=True``: ``exp(input) - target * input``) or ``input``
    (``input - target * log(input + eps)``); ``full`` adds Stirling's approximation of ``log(target!)``
    where ``target > 1``."""
    reduction = _legacy_reduction(size_average, reduce, reduction)
    _loss._check_reduction(reduction)
    # (C++ computes the right operand of a binary operator first: its nodes are the older ones, which
    # decides the order in which backward adds up a gradient that arrives by two paths)
    if log_input:
        right = target * input
        loss = input.exp() - right
    else:
        right = target * _scalar(AddScalar, input, eps).log()
        loss = input - right
    if full:  # target * log(target) - target + 0.5 * log(2 pi target)
        half_log = _scalar(MulScalar, _scalar(MulScalar, target, 2 * math.pi).log(), 0.5)
        stirling = target * target.log() - target + half_log
        loss += stirling.masked_fill(target <= 1, 0)
    return _reduce(loss, reduction)


def gaussian_nll_loss(input, target, var, full=False, eps=1e-6, reduction="mean"):  # noqa: A002
    """The negative log-likelihood of ``target`` under a Gaussian of mean ``input`` and variance ``var``:
    ``0.5 * (log(var) + (input - target)**2 / var)`` (plus ``0.5 log(2 pi)`` if ``full``).  ``var``
    (a number, one per element, or one per sample) is raised to ``eps`` without being recorded."""
    if isinstance(var, float):
        if var < 0:
            raise ValueError("var has negative entry/entries")
        var = var * creation.ones_like(input)
    elif functions.any(var < 0):
        raise ValueError("var has negative entry/entries")
    if var.size() != input.size():
        if input.size()[:-1] == var.size():  # one variance per sample: it broadcasts over the last dim
            var = var.unsqueeze(-1)
        elif not (input.dim() == var.dim() and sum(v for i, v in zip(input.size(), var.size()) if i != v) == 1):
            raise ValueError("var is of incorrect size")
    if reduction not in ("none", "mean", "sum"):
        raise ValueError(reduction + " is not valid")
    var = var.clone()
    with grad_mode.no_grad():
        var.clamp_(min=eps)
    loss = 0.5 * (var.log() + (input - target) ** 2 / var)
    if full:
        loss += 0.5 * math.log(2 * math.pi)
    return _reduce(loss, reduction)


def multilabel_soft_margin_loss(input, target, weight=None, size_average=None, reduce=None,  # noqa: A002
                                reduction="mean"):
    """Binary cross-entropy of ``sigmoid(input)`` for each of ``C`` labels (targets 0 or 1), averaged
    over the labels: one loss per sample, then reduced."""
    reduction = _legacy_reduction(size_average, reduce, reduction)
    loss = -(target * logsigmoid(input) + (1 - target) * logsigmoid(-input))
    if weight is not None:
        loss = loss * weight
    class_dim = input.dim() - 1
    loss = loss.sum(dim=class_dim) / input.size(class_dim)
    if reduction not in ("none", "mean", "sum"):
        raise ValueError(reduction + " is not valid")
    return _reduce(loss, reduction)


def multi_margin_loss(input, target, p=1, margin=1.0, weight=None, size_average=None, reduce=None,  # noqa: A002
                      reduction="mean"):
    """The multi-class hinge loss: ``sum over j != y of max(0, margin - x[y] + x[j]) ** p / C`` for each
    sample ``x`` of class ``y`` (``p``: 1 or 2); one op (``MultiMarginLossBackward0``)."""
    reduction = _reduction(size_average, reduce, reduction)
    if p != 1 and p != 2:
        raise ValueError("only p == 1 and p == 2 supported")
    if weight is not None and weight.dim() != 1:
        raise ValueError("weight must be one-dimensional")
    _no_gradient_for(weight, "weight", "multi_margin_loss")
    # PyTorch's checks (MultiMarginCriterion.cpp), in its order and words
    ndim = input.dim()
    if not ((ndim == 2 and input.shape[1] != 0) or (ndim == 1 and input.shape[0] != 0) or ndim == 0):
        raise RuntimeError(f"Expected non-empty vector or matrix with optional 0-dim batch size, but got: "
                           f"{list(input.shape)}")
    n_samples = 1 if ndim <= 1 else input.shape[0]
    n_classes = 1 if ndim == 0 else input.shape[-1]
    if target.dim() > 1 or target.numel() != n_samples:
        raise RuntimeError(f"multi_margin_loss: target tensor should be 1-D with size equal to the number of input "
                           f"samples (batch size). Expected target size [{n_samples}], but got "
                           f"{list(target.shape)}. Input has shape {list(input.shape)}.")
    if weight is not None and weight.numel() != n_classes:
        raise RuntimeError(f"inconsistent weight size, expected {n_classes} but got {list(weight.shape)}")
    if not input.is_floating_point():
        raise NotImplementedError(f'"multi_margin_loss_cpu_kernel" not implemented for '
                                  f"'{_TYPE_NAMES[input.dtype.name]}'")
    for t, expected in ((target, "int64"), (weight, input.dtype.name)):
        if t is not None and t.dtype.name != expected:
            raise RuntimeError(f"expected scalar type {_TYPE_NAMES[expected]} but found {_TYPE_NAMES[t.dtype.name]}")
    if ((target._data < 0) | (target._data >= n_classes)).any():
        raise RuntimeError("target out of range")
    return _loss.MultiMarginLoss.apply(input, ops.NoEdge(target), p, float(margin), ops.NoEdge(weight), reduction)
