"""Losses computed element by element, then reduced: binary cross-entropy (on probabilities and on
logits), smooth L1, Huber and soft margin.

Each is one node, as in PyTorch (``BinaryCrossEntropyBackward0`` ...): forward computes the loss of
every element and reduces it (``"mean"``, ``"sum"`` or ``"none"``); backward is the derivative of
one element's loss, times the incoming gradient spread back over the elements (divided by their
number for ``"mean"``).
"""
import numpy as np

from .dispatch import Op
from .._core.tensor_base import _TYPE_NAMES, TensorBase as Tensor
from .._core.layout import dims_fastest_first, laid_out, like, row_major
from .activation import LogSigmoid
from .elementwise import AddScalar, DivScalar
from ._util import NoEdge
from . import zerotensor
from .loss import _REDUCTIONS, _check_reduction
from .unary import Logit


def reduce(loss, reduction, *operands):
    """A numpy array of per-element losses, reduced as asked (unreduced: laid out as PyTorch lays out the result of
    its elementwise kernel over the ``operands``)."""
    if reduction == "mean":  # (the mean of no elements is nan)
        return Tensor(np.asarray(loss.mean() if loss.size else np.nan, dtype=loss.dtype))
    if reduction == "sum":
        return Tensor(np.asarray(loss.sum(), dtype=loss.dtype))
    return Tensor(laid_out(loss, *operands))


def _check_probabilities(x, t):
    """PyTorch's kernel checks element by element, the input's number before the target's, in ``TensorIterator``'s
    order (over the loss, laid out like the input): the first element out of [0, 1] (nan too) says which to name."""
    bad_input, bad_target = ~((x >= 0) & (x <= 1)), ~((t >= 0) & (t <= 1))
    if bad_input.any() or bad_target.any():
        slowest_first = dims_fastest_first(x.shape, [like(x, np.empty(x.shape)), x, t])[::-1]
        first = np.flatnonzero((bad_input | bad_target).transpose(slowest_first))[0]
        which = "input" if bad_input.transpose(slowest_first).flat[first] else "target"
        raise RuntimeError(f"all elements of {which} should be between 0 and 1")


class BinaryCrossEntropy(Op):
    """``-w (t log p + (1 - t) log(1 - p))`` for probabilities ``p``; each log is clamped at -100, as in
    PyTorch, so that ``p = 0`` or ``1`` gives a finite loss.  d/dp = w (p - t) / max(p (1 - p), 1e-12).

    A target that requires grad gets ``-logit(p) * grad * w`` (over N for "mean"), in PyTorch's steps
    (``binary_cross_entropy_target_backward``: ``LogitBackward0``, ``NegBackward0``, ``MulBackward0``...).

    The gradient for ``p`` is one op, ``BinaryCrossEntropyBackward`` (recorded as
    ``BinaryCrossEntropyBackwardBackward0`` under ``create_graph=True``, as in PyTorch)."""
    node_name = "BinaryCrossEntropyBackward0"
    saved_names = {"self": 0, "target": 1, "weight": 2, "reduction": "reduction_enum"}  # (weight: NoEdge)

    @staticmethod
    def forward(ctx, p, target, weight, reduction):
        _check_reduction(reduction)
        x, t = p._data, target._data
        ctx.save_for_backward(p, target, weight.tensor)
        weight = numbers(weight, x.dtype)
        _check_probabilities(x, t)
        loss = -(t * np.maximum(np.log(x), -100) + (1 - t) * np.maximum(np.log1p(-x), -100))
        if weight is not None:
            loss = loss * weight
        ctx.reduction, ctx.reduction_enum = reduction, _REDUCTIONS.index(reduction)
        return reduce(np.asarray(loss, dtype=x.dtype), reduction, x, t)

    @staticmethod
    def backward(ctx, grad):
        p, t, weight = ctx.saved_tensors  # (the weight changed in place since: raises)
        gp = gt = None
        if ctx.needs_input_grad[0]:
            gp = BinaryCrossEntropyBackward.apply(grad, p, t, NoEdge(weight), ctx.reduction)
        if ctx.needs_input_grad[1]:  # (PyTorch: binary_cross_entropy_target_backward)
            gt = _weighted_mean(-Logit.apply(p) * grad, weight, ctx.reduction)
        return gp, gt, None, None


class BinaryCrossEntropyBackward(Op):
    """binary_cross_entropy's gradient for its input as one op (PyTorch: ``binary_cross_entropy_backward``):
    ``grad * (p - t) / max((1 - p) p, 1e-12)``, times the weight, over N for "mean".

    Its own backward (PyTorch's ``binary_cross_entropy_double_backward*``, where eps = 1e-12):
    to ``grad`` ``(p - t) / ((p + eps) (1 - p + eps)) * gg`` (summed to grad's shape), to ``p``
    ``(p^2 - 2 p t + t) / ((p + eps)^2 (1 - p + eps)^2) * grad * gg``, to ``t``
    ``-grad * gg / max((1 - p) p, eps)``; each times the weight, over N for "mean"."""
    node_name = "BinaryCrossEntropyBackwardBackward0"
    saved_names = {"grad_output": 0, "self": 1, "target": 2, "weight": 3, "reduction": "reduction_enum"}

    @staticmethod
    def forward(ctx, grad, p, target, weight, reduction):
        x, t = p._data, target._data
        ctx.save_for_backward(grad, p, target, weight.tensor)
        weight = numbers(weight, x.dtype)
        g = grad._data * (x - t) / np.maximum((1 - x) * x, 1e-12)
        if weight is not None:
            g = g * weight
        if reduction == "mean":
            g = g / x.size
        ctx.reduction, ctx.reduction_enum = reduction, _REDUCTIONS.index(reduction)
        return Tensor(np.asarray(g, dtype=x.dtype))

    @staticmethod
    def backward(ctx, gg):
        grad, p, t, weight = ctx.saved_tensors
        need_grad, need_p, need_t, _, _ = ctx.needs_input_grad
        eps = 1e-12
        g_grad = g_p = g_t = None
        if need_grad:
            g_grad = (p - t) / ((p + eps) * (1 - p + eps)) * gg
            g_grad = _weighted_mean(g_grad, weight, ctx.reduction)
        if need_p:
            g_p = (p * p - 2 * p * t + t) / ((p + eps) ** 2 * (1 - p + eps) ** 2) * (grad * gg)
            g_p = _weighted_mean(g_p, weight, ctx.reduction)
        if need_t:  # (PyTorch clamps the denominator without recording it)
            denom = Tensor(np.maximum((1 - p._data) * p._data, eps))
            g_t = _weighted_mean(-grad * gg / denom, weight, ctx.reduction)
        return g_grad, g_p, g_t, None, None


class BinaryCrossEntropyWithLogits(Op):
    """BCE of ``sigmoid(x)``, written so that it cannot overflow:
    ``(1 - t) x + (1 + (pw - 1) t) (log(1 + exp(-|x|)) + max(-x, 0))`` (``pw``: ``pos_weight``, 1 by default).

    d/dx = (pw t + 1 - t) sigmoid(x) - pw t, which is ``sigmoid(x) - t`` without ``pos_weight``;
    d/dt = -x, or ``log(sigmoid(-x)) - pw log(sigmoid(x))`` with ``pos_weight``.
    """
    node_name = "BinaryCrossEntropyWithLogitsBackward0"
    saved_names = {"self": 0, "target": 1, "weight": 2, "pos_weight": 3, "reduction": "reduction_enum"}

    @staticmethod
    def forward(ctx, a, target, weight, pos_weight, reduction):  # (weight, pos_weight: NoEdge, saved)
        _check_reduction(reduction)
        x, t = a._data, target._data
        ctx.save_for_backward(a, target, weight.tensor, pos_weight.tensor)
        weight, pos_weight = numbers(weight, x.dtype), numbers(pos_weight, x.dtype)
        pw = 1.0 if pos_weight is None else pos_weight
        log_sig = np.log1p(np.exp(-np.abs(x))) + np.maximum(-x, 0)  # -log(sigmoid(x))
        loss = (1 - t) * x + (1 + (pw - 1) * t) * log_sig
        if weight is not None:
            loss = loss * weight
        ctx.reduction, ctx.reduction_enum = reduction, _REDUCTIONS.index(reduction)
        # (PyTorch's composite starts from (1 - target): its layout comes first)
        return reduce(np.asarray(loss, dtype=x.dtype), reduction, t, x)

    @staticmethod
    def backward(ctx, grad):
        # in PyTorch's steps: the derivative, times grad (0-dim when reduced: it broadcasts), times the
        # weight, over the number of elements for "mean"
        x, t, weight, pos_weight = ctx.saved_tensors  # (the weights changed in place since: raise)
        if grad._zerotensor:  # PyTorch's formulas for x and for the target begin with a "trivial case": zeros in, out
            need_x, need_t = ctx.needs_input_grad[:2]
            return (zerotensor.zeros(x._data.shape, x._data.dtype) if need_x else None,
                    zerotensor.zeros(t._data.shape, t._data.dtype) if need_t else None, None, None, None)
        pw = _in_dtype(pos_weight, x)
        gx = gt = None
        if ctx.needs_input_grad[0]:
            if pw is None:
                gx = (x.sigmoid() - t) * grad
            else:
                pwt = pw * t
                gx = ((AddScalar.apply(pwt, 1) - t) * x.sigmoid() - pwt) * grad
        if ctx.needs_input_grad[1]:  # (PyTorch: binary_cross_entropy_with_logits_target_backward)
            gt = (-x if pw is None else LogSigmoid.apply(-x) - LogSigmoid.apply(x) * pw) * grad
        return (_weighted_mean(gx, weight, ctx.reduction), _weighted_mean(gt, weight, ctx.reduction),
                None, None, None)


def numbers(kept, dtype):
    """A weight's numbers (a ``NoEdge``) in the input's dtype, or None."""
    return None if kept.tensor is None else np.asarray(kept.tensor._data, dtype)


def _weighted_mean(g, weight, reduction):
    """A loss's gradient times its ``weight`` (the saved tensor), over the number of elements for ``"mean"``
    (PyTorch's last steps)."""
    if g is None:
        return None
    if weight is not None:
        g = g * _in_dtype(weight, g)
    return DivScalar.apply(g, g._data.size) if reduction == "mean" else g


def _in_dtype(weight, like):
    """A saved weight in ``like``'s dtype: itself (changed in place, the graph's next backward raises), else a copy."""
    if weight is None or weight._data.dtype == like._data.dtype:
        return weight
    return Tensor(np.asarray(weight._data, like._data.dtype))


class SmoothL1Loss(Op):
    """``0.5 d^2 / beta`` where ``|d| < beta``, else ``|d| - 0.5 beta`` (``d = input - target``);
    d/d input = ``d / beta`` or ``sign(d)``."""
    node_name = "SmoothL1LossBackward0"
    saved_names = {"self": 0, "target": 1, "reduction": "reduction_enum", "beta": "beta"}

    @staticmethod
    def forward(ctx, a, b, reduction, beta):
        _check_reduction(reduction)
        d = a._data - b._data
        ad = np.abs(d)
        loss = np.where(ad < beta, 0.5 * d * d / beta if beta else 0.0, ad - 0.5 * beta)
        ctx.save_for_backward(a, b)
        ctx.reduction, ctx.reduction_enum, ctx.beta = reduction, _REDUCTIONS.index(reduction), float(beta)
        return reduce(np.asarray(loss, dtype=d.dtype), reduction, a._data, b._data)

    @staticmethod
    def backward(ctx, grad):
        a, b = ctx.saved_tensors
        need_a, need_b, _, _ = ctx.needs_input_grad
        return (SmoothL1LossBackward.apply(grad, a, b, ctx.reduction, ctx.beta) if need_a else None,
                SmoothL1LossBackward.apply(grad, b, a, ctx.reduction, ctx.beta) if need_b else None, None, None)


class HuberLoss(Op):
    """``0.5 d^2`` where ``|d| <= delta``, else ``delta (|d| - 0.5 delta)``; d/d input = ``d`` or ``delta sign(d)``."""
    node_name = "HuberLossBackward0"
    saved_names = {"self": 0, "target": 1, "reduction": "reduction_enum", "delta": "delta"}

    @staticmethod
    def forward(ctx, a, b, reduction, delta):
        _check_reduction(reduction)
        d = a._data - b._data
        ad = np.abs(d)
        loss = np.where(ad <= delta, 0.5 * d * d, delta * (ad - 0.5 * delta))
        ctx.save_for_backward(a, b)
        ctx.reduction, ctx.reduction_enum, ctx.delta = reduction, _REDUCTIONS.index(reduction), float(delta)
        return reduce(np.asarray(loss, dtype=d.dtype), reduction, a._data, b._data)

    @staticmethod
    def backward(ctx, grad):
        a, b = ctx.saved_tensors
        need_a, need_b, _, _ = ctx.needs_input_grad
        return (HuberLossBackward.apply(grad, a, b, ctx.reduction, ctx.delta) if need_a else None,
                HuberLossBackward.apply(grad, b, a, ctx.reduction, ctx.delta) if need_b else None, None, None)


class LossBackward(Op):
    """The backward formula of a loss of ``d = input - target`` as one op, as PyTorch's
    ``smooth_l1_loss_backward(grad, input, target, reduction, beta)`` and ``huber_loss_backward``:
    ``grad * loss'(d)`` (``/ n`` for "mean"). PyTorch calls it once for the input and once, with the
    two swapped, for the target (two nodes). Its own backward: to ``grad`` the same op on the
    incoming ``gg`` (summed to ``grad``'s shape), to ``input`` ``gg * grad * loss''(d)``, to
    ``target`` minus that. A subclass gives ``derivatives(d, param)``: loss' and loss''."""

    @classmethod
    def forward(cls, ctx, grad, input, target, reduction, param):
        d = input._data - target._data
        ctx.scale = 1.0 / d.size if reduction == "mean" and d.size else 1.0  # (an empty input: nothing to scale)
        first, ctx.second = cls.derivatives(d, param)
        ctx.save_for_backward(grad, input, target)
        ctx.reduction, ctx.param, ctx.op = reduction, param, cls
        # (PyTorch writes it into zeros_like(input, LEGACY_CONTIGUOUS_MEMORY_FORMAT): row-major)
        return Tensor(row_major(np.asarray(grad._data * ctx.scale * first, dtype=d.dtype)))

    @staticmethod
    def backward(ctx, gg):
        grad, input, target = ctx.saved_tensors
        need_grad, need_input, need_target, _, _ = ctx.needs_input_grad
        d_input = gg * grad * Tensor(np.asarray(ctx.second * ctx.scale, dtype=input._data.dtype)) \
            if need_input or need_target else None
        return (ctx.op.apply(gg, input, target, ctx.reduction, ctx.param)
                if need_grad else None,
                d_input if need_input else None, -d_input if need_target else None, None, None)


class SmoothL1LossBackward(LossBackward):
    """smooth L1's derivative: ``d / beta`` where ``|d| < beta``, else ``sign(d)``; the second: ``1 / beta`` or 0."""
    node_name = "SmoothL1LossBackwardBackward0"

    @staticmethod
    def derivatives(d, beta):
        small = np.abs(d) < beta
        return (np.where(small, d / beta if beta else 0.0, np.sign(d)),
                np.where(small, 1.0 / beta if beta else 0.0, 0.0))


class HuberLossBackward(LossBackward):
    """Huber's derivative: ``d`` where ``|d| <= delta``, else ``delta sign(d)``; the second: 1 where
    ``|d| < delta`` (strictly, as PyTorch's ``huber_loss_double_backward``), else 0."""
    node_name = "HuberLossBackwardBackward0"

    @staticmethod
    def derivatives(d, delta):
        small = np.abs(d) <= delta
        return np.where(small, d, delta * np.sign(d)), np.where(np.abs(d) < delta, 1.0, 0.0)


class SoftMarginLoss(Op):
    """``log(1 + exp(-target * input))`` for targets ``1`` or ``-1`` (a logistic loss for two classes).

    d/d input = ``-target z / (1 + z)`` with ``z = exp(-target * input)``, as one op,
    ``SoftMarginLossBackward`` (PyTorch: ``soft_margin_loss_backward``).  The target has no derivative in
    PyTorch: it comes wrapped in ``NoEdge`` (no input of the node), saved as it was given (it broadcasts
    to the input's shape), so changing it in place before backward raises."""
    node_name = "SoftMarginLossBackward0"
    saved_names = {"self": 0, "target": 1, "reduction": "reduction_enum"}

    @staticmethod
    def forward(ctx, input, target, reduction):
        x = input._data
        if x.dtype.kind != "f":  # (PyTorch writes the float result into a tensor of the input's dtype)
            raise RuntimeError(f"result type Float can't be cast to the desired output type "
                               f"{_TYPE_NAMES[input.dtype.name]}")
        t = np.broadcast_to(target.tensor._data, x.shape)
        loss = np.log1p(np.exp(np.asarray(-x * t, dtype=x.dtype)))
        ctx.save_for_backward(input, target.tensor)
        ctx.reduction, ctx.reduction_enum = reduction, _REDUCTIONS.index(reduction)
        return reduce(loss, reduction, x, t)

    @staticmethod
    def backward(ctx, grad):
        input, target = ctx.saved_tensors
        return SoftMarginLossBackward.apply(grad, input, NoEdge(target), ctx.reduction), None, None


class SoftMarginLossBackward(Op):
    """soft_margin_loss's gradient as one op: ``-target z / (1 + z) * grad`` (``/ n`` for "mean").

    Its own backward (PyTorch's ``soft_margin_loss_double_backward*`` in FunctionsManual.cpp): to ``grad``
    the same op on the incoming ``gg`` (for a reduced loss: with a gradient of ones, times ``gg``,
    summed), to the input ``gg * grad * target^2 z / (z + 1)^2`` (``/ n`` for "mean")."""
    node_name = "SoftMarginLossBackwardBackward0"
    saved_names = {"grad_output": 0, "self": 1, "target": 2, "reduction": "reduction_enum"}

    @staticmethod
    def forward(ctx, grad, input, target, reduction):
        x = input._data
        t = np.broadcast_to(target.tensor._data, x.shape)
        norm = 1.0 / x.size if reduction == "mean" and x.size else 1.0
        z = np.exp(np.asarray(-t * x, dtype=x.dtype))
        g = np.asarray(-norm * t * z, dtype=x.dtype) / (1 + z) * grad._data
        ctx.save_for_backward(grad, input, target.tensor)
        ctx.reduction, ctx.reduction_enum = reduction, _REDUCTIONS.index(reduction)
        return Tensor(np.asarray(g, dtype=x.dtype))

    @staticmethod
    def backward(ctx, gg):
        grad, input, target = ctx.saved_tensors
        need_grad, need_input, _, _ = ctx.needs_input_grad
        g_grad = g_input = None
        if need_grad:
            if ctx.reduction == "none":
                g_grad = SoftMarginLossBackward.apply(gg, input, NoEdge(target), ctx.reduction)
            else:
                ones = Tensor(np.ones_like(grad._data))
                g_grad = (SoftMarginLossBackward.apply(ones, input, NoEdge(target), ctx.reduction) * gg).sum()
        if need_input:
            target = Tensor(np.asarray(np.broadcast_to(target._data, input._data.shape), dtype=input._data.dtype))
            z = (input * -target).exp()
            zplus1 = z + 1
            g_input = gg * grad * (target * target) * z / (zplus1 * zplus1)
            if ctx.reduction == "mean":
                g_input = DivScalar.apply(g_input, input._data.size)
        return g_grad, g_input, None, None
