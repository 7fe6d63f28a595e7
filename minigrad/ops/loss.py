"""Losses: mean squared error and negative log-likelihood (cross-entropy is log_softmax + nll)."""
import numpy as np

from ..autograd.function import Function
from ..tensor import Tensor
from ._util import constant
from .elementwise import grad_where

_REDUCTIONS = ("none", "mean", "sum")


def _check_reduction(reduction):
    if reduction not in _REDUCTIONS:
        raise ValueError(f"{reduction} is not a valid value for reduction")


class MseLoss(Function):
    """``mean((input - target)**2)``.  d/d input = 2 (input - target) / n."""
    node_name = "MseLossBackward0"

    @staticmethod
    def forward(ctx, input, target, reduction):
        _check_reduction(reduction)
        diff = input._data - target._data
        ctx.save_for_backward(input, target)
        ctx.reduction = reduction
        sq = diff * diff
        if reduction == "mean":
            return Tensor(np.asarray(sq.mean(), dtype=sq.dtype))
        if reduction == "sum":
            return Tensor(np.asarray(sq.sum()))
        return Tensor(sq)

    @staticmethod
    def backward(ctx, grad):
        input, target = ctx.saved_tensors
        scale = 2.0 / input._data.size if ctx.reduction == "mean" else 2.0
        g = grad * scale * (input - target)
        return (g if ctx.needs_input_grad[0] else None, -g if ctx.needs_input_grad[1] else None, None)


class NllLoss(Function):
    """``-mean(input[i, target[i]])`` over the batch: picks each row's log-probability of its class.

    ``target`` (class indices) and ``weight`` are passed as numpy arrays: they get no gradient and
    no edge, as in PyTorch where ``NllLossBackward0`` has a single ``next_functions`` entry.
    """
    node_name = "NllLossBackward0"

    @staticmethod
    def forward(ctx, input, target, weight, reduction, ignore_index):
        _check_reduction(reduction)
        x = input._data
        if x.ndim == 1:  # a single sample: (C,) with a 0-dim target
            x, target = x[None], np.asarray(target).reshape(1)
        n, c = x.shape[0], x.shape[1]
        if target.shape[0] != n:
            raise ValueError(f"Expected input batch_size ({n}) to match target batch_size ({target.shape[0]}).")
        valid = target != ignore_index
        safe = np.where(valid, target, 0)
        if valid.any() and (safe.min() < 0 or safe.max() >= c):
            bad = int(safe[(safe < 0) | (safe >= c)][0])
            raise IndexError(f"Target {bad} is out of bounds.")
        w = (weight[safe] if weight is not None else np.ones(n, x.dtype)) * valid
        # coef[i, c] = how much input[i, c] enters the loss (with the sign)
        coef = np.zeros(x.shape, x.dtype)
        coef[np.arange(n), safe] = -w
        if reduction == "mean":
            coef /= w.sum()
        ctx.coef = coef.reshape(input._data.shape) if reduction != "none" else coef
        ctx.reduction, ctx.shape = reduction, input._data.shape
        picked = (coef * x).sum(axis=tuple(range(1, x.ndim)))
        if reduction == "none":
            return Tensor(np.asarray(picked.reshape(x.shape[:1] + x.shape[2:]) if input._data.ndim > 1 else picked[0]))
        return Tensor(np.asarray(picked.sum(), dtype=x.dtype))

    @staticmethod
    def backward(ctx, grad):
        if ctx.reduction == "none":
            g = grad.reshape(-1, *([1] * (len(ctx.coef.shape) - 1))) if len(ctx.shape) > 1 else grad
            out = grad_where(ctx.coef != 0, g * constant(ctx.coef))
            return out.reshape(ctx.shape), None, None, None, None
        return grad_where(ctx.coef != 0, grad * constant(ctx.coef)), None, None, None, None
