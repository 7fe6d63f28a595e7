"""Losses: mean squared error, negative log-likelihood (cross-entropy is log_softmax + nll) and the
multi-class hinge loss (``multi_margin_loss``)."""
import math

import numpy as np

from .dispatch import Op
from .._core.tensor_base import _TYPE_NAMES, TensorBase as Tensor
from ._util import NoEdge, constant, unsigned
from .promotion import result_type
from .elementwise import DivScalar, MulScalar
from .._core.layout import laid_out, row_major
from .statistics import Norm
from .unary import NoDerivative

_REDUCTIONS = ("none", "mean", "sum")


def _check_reduction(reduction):
    if reduction not in _REDUCTIONS:
        raise ValueError(f"{reduction} is not a valid value for reduction")


class MseLoss(Op):
    """``mean((input - target)**2)``.  d/d input = 2 (input - target) / n, d/d target the same formula
    with the two swapped: two ``mse_loss_backward`` ops (``MseLossBackwardBackward0`` under
    ``create_graph=True``), as in PyTorch's derivatives.yaml."""
    node_name = "MseLossBackward0"
    saved_names = {"self": 0, "target": 1, "reduction": "reduction_enum"}

    @staticmethod
    def forward(ctx, input, target, reduction):
        _check_reduction(reduction)
        dtype = result_type(input, target)  # PyTorch's type promotion; its kernel is for floats only
        if not dtype.is_floating_point:
            raise NotImplementedError(f'"mse_cpu" not implemented for \'{_TYPE_NAMES[dtype.name]}\'')
        ctx.save_for_backward(input, target)
        ctx.reduction, ctx.reduction_enum = reduction, _REDUCTIONS.index(reduction)
        diff = input._data.astype(dtype.numpy) - target._data.astype(dtype.numpy)
        sq = diff * diff
        if reduction == "mean":  # (the mean of nothing is nan, without numpy's warning)
            return Tensor(np.asarray(sq.sum() / sq.size if sq.size else np.nan, dtype=sq.dtype))
        if reduction == "sum":
            return Tensor(np.asarray(sq.sum()))
        return Tensor(laid_out(sq, input._data, target._data))  # (PyTorch's layout for an elementwise result)

    @staticmethod
    def backward(ctx, grad):
        input, target = ctx.saved_tensors
        need_input, need_target, _ = ctx.needs_input_grad
        return (MseLossBackward.apply(grad, input, target, ctx.reduction) if need_input else None,
                MseLossBackward.apply(grad, target, input, ctx.reduction) if need_target else None, None)


def _common_float_dtype(*tensors):
    """The common dtype of a TensorIterator's float inputs (PyTorch's result_type over all of them):
    the tensors with dimensions decide; 0-dim tensors only when none has any."""
    deciding = [t._data.dtype for t in tensors if t._data.ndim > 0] or [t._data.dtype for t in tensors]
    return np.result_type(*deciding)


class MseLossBackward(Op):
    """mse_loss's backward formula as one op, ``grad * 2 (input - target)`` (``/ n`` for "mean")
    (PyTorch: ``mse_loss_backward``), of ``input``'s dtype. Its own backward (derivatives.yaml): to ``grad``
    the same op on the incoming ``gg`` (summed to ``grad``'s shape), to ``input`` ``2 * (gg * grad)``
    (``/ n``), to ``target`` the negative of the same formula computed once more."""
    node_name = "MseLossBackwardBackward0"

    @staticmethod
    def forward(ctx, grad, input, target, reduction):
        # PyTorch: grad_input = zeros_like(input), then a TensorIterator over (grad_input; input, target,
        # grad_output) that promotes the inputs to their common dtype, computes ``norm * (a - b) * c`` in
        # it and casts the result to grad_input's dtype: the result has ``input``'s dtype (mse_loss's
        # float32 target next to a float64 input gets a float32 gradient, with no cast of its own).
        ctx.save_for_backward(grad, input, target)
        ctx.reduction = reduction
        n = input._data.size
        ctx.scale = 2.0 if reduction != "mean" else 2.0 / n if n else math.inf  # (PyTorch: 2. / 0 in double is inf)
        common = _common_float_dtype(input, target, grad)
        a, b, c = (t._data.astype(common, copy=False) for t in (input, target, grad))
        # (into zeros_like(input, LEGACY_CONTIGUOUS_MEMORY_FORMAT): row-major whatever the inputs' layout)
        return Tensor(row_major(np.asarray(common.type(ctx.scale) * (a - b) * c, dtype=input._data.dtype)))

    @staticmethod
    def backward(ctx, gg):
        grad, input, target = ctx.saved_tensors
        need_grad, need_input, need_target, _ = ctx.needs_input_grad
        # derivatives.yaml: grad_output: mse_loss_backward(grad, self, target, reduction)  (summed to grad_output's
        #                   shape by the engine), self: mse_loss_double_backward(grad * grad_output, self, reduction),
        #                   target: -mse_loss_double_backward(grad * grad_output, target, reduction)
        return (MseLossBackward.apply(gg, input, target, ctx.reduction)
                if need_grad else None,
                _mse_loss_double_backward(gg * grad, input, ctx.reduction) if need_input else None,
                -_mse_loss_double_backward(gg * grad, target, ctx.reduction) if need_target else None, None)


def _mse_loss_double_backward(grad, input, reduction):
    """PyTorch (FunctionsManual.cpp): ``grad_input = 2 * grad`` (a plain number: MulBackward1), then for
    "mean" ``grad_input /= input.numel()`` (in place, DivBackward1: the same graph as out of place)."""
    grad_input = MulScalar.apply(grad, 2)
    if reduction == "mean":
        grad_input = DivScalar.apply(grad_input, input._data.size)
    return grad_input


class NllLossBackward(Op):
    """nll_loss's backward formula as one op, ``grad * coef`` where the target picked (PyTorch:
    ``nll_loss_backward``, recorded as ``NllLossBackwardBackward0`` under ``create_graph=True``).
    Its own backward: to ``grad`` the same picking of the incoming ``gg``; to the input 0 (the loss is
    linear in it), with an edge to the input as in PyTorch.  It saves ``target`` and ``weight`` (no edges)."""
    node_name = "NllLossBackwardBackward0"
    saved_names = {"target": 0, "weight": 1, "reduction": "reduction_enum", "ignore_index": "ignore_index_shown"}

    @staticmethod
    def forward(ctx, grad, input, target, weight, coef, reduction, ignore_index):
        ctx.save_for_backward(target.tensor, weight.tensor)
        ctx.coef, ctx.reduction, ctx.input_shape = coef, reduction, input._data.shape
        ctx.reduction_enum, ctx.ignore_index_shown = _REDUCTIONS.index(reduction), unsigned(ignore_index)
        g = grad._data
        if reduction == "none" and input._data.ndim > 1:  # one value per (sample, position)
            g = g[:, None]
        out = np.where(coef != 0, g * coef, 0).astype(coef.dtype)
        return Tensor(out.reshape(input._data.shape))

    @staticmethod
    def backward(ctx, gg):
        ctx.saved_tensors  # (PyTorch unpacks target and weight: changed in place since, they raise)
        gg = gg.reshape(ctx.coef.shape) * constant(ctx.coef)
        if ctx.reduction != "none" or len(ctx.input_shape) == 1:
            g_grad = gg.sum()  # grad was one number
        else:
            g_grad = gg.sum(1)  # one value per (sample, position), as grad was
        return g_grad, constant(np.zeros(ctx.input_shape, ctx.coef.dtype)), None, None, None, None, None


class NllLoss2dBackward(NllLossBackward):
    node_name = "NllLoss2DBackwardBackward0"


class NllLoss(Op):
    """``-mean(input[i, target[i]])`` over the batch: picks each row's log-probability of its class.

    ``target`` (class indices) and ``weight`` come wrapped in ``NoEdge``: they get no gradient and no
    edge, as in PyTorch where ``NllLossBackward0`` has a single ``next_functions`` entry, but the node
    saves them (``_saved_target``, ``_saved_weight``): changed in place before backward, they raise.
    """
    node_name = "NllLossBackward0"
    saved_names = {"self": 0, "target": 1, "weight": 2, "total_weight": 3, "reduction": "reduction_enum",
                   "ignore_index": "ignore_index_shown"}
    grad_op = NllLossBackward  # its backward, as one op
    weight_message = ("weight tensor should be defined either for all {classes} classes or no classes but got weight "
                      "tensor of shape: {shape}")

    @classmethod
    def forward(cls, ctx, input, target, weight, reduction, ignore_index):
        _check_reduction(reduction)
        target_tensor, weight_tensor = target, weight
        target, weight = target.tensor._data, weight.tensor._data if weight.tensor is not None else None
        x = _check_nll_shapes(input, target)
        classes = x.shape[0] if x.ndim == 1 else x.shape[1]
        if weight is not None and weight.shape != (classes,):
            raise RuntimeError(cls.weight_message.format(classes=classes, shape=list(weight.shape)))
        if weight is not None and weight.dtype != x.dtype:
            raise RuntimeError(f"expected scalar type {_TYPE_NAMES[x.dtype.name]} but found "
                               f"{_TYPE_NAMES[weight.dtype.name]}")
        ctx.grad_op, ctx.ignore_index = cls.grad_op, ignore_index
        if x.ndim == 1:  # a single sample: (C,) with a 0-dim target
            x, target = x[None], np.asarray(target).reshape(1)
        valid = target != ignore_index
        safe = np.where(valid, target, 0)
        if valid.any() and (safe.min() < 0 or safe.max() >= x.shape[1]):
            raise IndexError(f"Target {int(safe[(safe < 0) | (safe >= x.shape[1])][0])} is out of bounds.")
        w = np.zeros(safe.shape, x.dtype)  # each target's weight, 0 where ignored (an ignored target reads none)
        w[valid] = weight[safe[valid]] if weight is not None else 1
        total = w.sum()
        # PyTorch's total_weight (saved): the weights summed, 0 when the loss is not reduced
        total_weight = Tensor(np.asarray(total if reduction != "none" or input._data.ndim == 1 else 0, x.dtype))
        ctx.save_for_backward(input, target_tensor.tensor, weight_tensor.tensor, total_weight)
        ctx.reduction_enum, ctx.ignore_index_shown = _REDUCTIONS.index(reduction), unsigned(ignore_index)
        # coef[i, c, ...] = how much input[i, c, ...] enters the loss (with the sign): -w (/ total) at the target
        coef = np.zeros(x.shape, x.dtype)
        if classes == 0:  # (no classes: every target was ignored, else the check above raised)
            x = coef = np.zeros(x.shape[:1] + (1,) + x.shape[2:], x.dtype)
        own = -w
        put_at_target(coef, safe, own)
        if reduction == "mean" and total != 0:  # every target ignored: the loss is 0/0 = nan, the gradient 0
            coef /= total
            own = own / total
        coef_shape = input._data.shape if reduction != "none" or classes == 0 else coef.shape
        ctx.coef = np.zeros(coef_shape, coef.dtype) if classes == 0 else coef.reshape(coef_shape)
        ctx.reduction, ctx.shape = reduction, input._data.shape
        # the loss of each (sample, position): coef * input[i, target[i], ...], 0 where ignored
        chosen = np.where(valid, at_target(x, safe), 0)  # (an ignored inf is 0)
        picked = own * chosen
        # PyTorch (nll_loss_out_frame) writes an ignored target's loss as 0, +0.0 (coef * 0 here is -0.0)
        picked = np.where(valid, picked, np.zeros((), x.dtype))
        if reduction == "none" and input._data.ndim > 1:
            return Tensor(np.asarray(picked))
        if reduction == "mean" and total == 0:
            return Tensor(np.asarray(np.nan, dtype=x.dtype))
        # PyTorch's sum starts from 0 (loss_partial_sums = {0}; -= input * w): +0.0, never -0.0 (a single sample's
        # unreduced loss too: nll_loss_out_frame computes it on this path)
        return Tensor(np.asarray(0 + picked.sum(), dtype=x.dtype))

    @staticmethod
    def backward(ctx, grad):
        input, target, weight, _ = ctx.saved_tensors  # (the target or weight changed in place since: raises)
        return (ctx.grad_op.apply(grad, input, NoEdge(target), NoEdge(weight), ctx.coef, ctx.reduction,
                                  ctx.ignore_index), None, None, None, None)


class NllLoss2d(NllLoss):
    """``nll_loss`` of images ``(N, C, H, W)`` with targets ``(N, H, W)``: the same formula, under
    PyTorch's name for it (a 3-D input is viewed as ``(N, C, d, 1)`` first, in ``F.nll_loss``)."""
    node_name = "NllLoss2DBackward0"
    grad_op = NllLoss2dBackward
    weight_message = "weight tensor should be defined either for all or no classes"



def at_target(a, safe):
    """``a[i, safe[i], ...]`` for each sample (and position): ``np.take_along_axis(a, safe[:, None], 1)[:, 0]``."""
    if a.ndim == 2:  # (plain indexing: the same numbers, without take_along_axis's work in Python)
        return a[np.arange(a.shape[0]), safe]
    return np.take_along_axis(a, safe[:, None], axis=1)[:, 0]


def put_at_target(a, safe, values):
    """``a[i, safe[i], ...] = values[i, ...]``: ``np.put_along_axis(a, safe[:, None], values[:, None], 1)``."""
    if a.ndim == 2:
        a[np.arange(a.shape[0]), safe] = values
    else:
        np.put_along_axis(a, safe[:, None], values[:, None], axis=1)


def _check_nll_shapes(input, target):
    """PyTorch's checks of ``nll_loss``'s shapes, in its order and words; returns the input's array."""
    x = input._data
    if x.ndim == 0:
        raise ValueError("Expected 1 or more dimensions (got 0)")
    if not input.dtype.is_floating_point:
        raise NotImplementedError(f'"nll_loss_out_frame" not implemented for \'{_TYPE_NAMES[input.dtype.name]}\'')
    if x.ndim == 1:
        if target.ndim > 1:
            raise RuntimeError("0D or 1D target tensor expected, multi-target not supported")
        _check_target_dtype(x, target)
        if target.ndim == 1 and target.shape[0] != 1:
            raise ValueError(f"For 1D input, 1D target must have size 1, but got target size: {target.shape[0]}")
        return x
    n = target.shape[0] if target.ndim else 0
    if n != x.shape[0]:
        raise ValueError(f"Expected input batch_size ({x.shape[0]}) to match target batch_size ({n}).")
    if target.ndim == 0 and x.ndim in (2, 3):  # (an empty batch and a 0-dim target: PyTorch reads its size anyway)
        raise (IndexError("Dimension specified as 0 but tensor has no dimensions") if x.ndim == 2 else
               RuntimeError("ArrayRef: invalid slice, N = 1; size = 0"))
    if x.ndim == 2 and target.ndim > 1:
        raise RuntimeError("0D or 1D target tensor expected, multi-target not supported")
    if x.ndim > 2 and target.shape != x.shape[:1] + x.shape[2:]:
        if x.ndim == 4 and target.ndim != 3:
            raise RuntimeError("only batches of spatial targets supported (3D tensors) but got targets of "
                               f"dimension: {target.ndim}")
        raise RuntimeError(f"Expected target size {list(x.shape[:1] + x.shape[2:])}, got {list(target.shape)}")
    return _check_target_dtype(x, target)


def _check_target_dtype(x, target):
    """The last of nll_loss's checks (its kernel's): class indices are integers."""
    if not np.issubdtype(target.dtype, np.integer):
        raise RuntimeError(f"expected target dtype to be Long or Byte, but got "
                           f"{_TYPE_NAMES.get(target.dtype.name, target.dtype.name)}")
    return x


def _margins(x, target, margin, weight):
    """multi_margin_loss's pieces, for its forward and its backward: ``z[i, j] = margin - x[i, y_i] + x[i, j]``
    (by how much class ``j`` comes within the margin of sample ``i``'s class ``y_i``), where it counts
    (``j != y_i`` and ``z > 0``) and each sample's weight ``weight[y_i]``.  A vector or a number is one sample."""
    rows = x.reshape(-1, x.shape[-1] if x.ndim else 1)  # (N, C)
    y = target.reshape(-1)
    z = margin - np.take_along_axis(rows, y[:, None], axis=1) + rows
    counts = (np.arange(rows.shape[1]) != y[:, None]) & (z > 0)
    scale = np.ones(len(y), x.dtype) if weight is None else weight[y]
    return y, z, counts, scale


class MultiMarginLoss(Op):
    """The multi-class hinge loss: for each sample ``x`` of class ``y``,
    ``sum over j != y of max(0, margin - x[y] + x[j]) ** p / C`` (times ``weight[y]``), then reduced.

    One node, as in PyTorch (``MultiMarginLossBackward0``); ``target`` and ``weight`` come wrapped in
    ``NoEdge`` (saved, no edges).  PyTorch has no derivative for its backward: under ``create_graph=True``
    the gradient's node is ``NotImplemented`` (``MultiMarginLossBackward``)."""
    node_name = "MultiMarginLossBackward0"
    saved_names = {"self": 0, "target": 1, "weight": 2, "p": "p", "margin": "margin", "reduction": "reduction_enum"}

    @staticmethod
    def forward(ctx, input, target, p, margin, weight, reduction):
        x = input._data
        ctx.save_for_backward(input, target.tensor, weight.tensor)
        target, weight = target.tensor._data, weight.tensor._data if weight.tensor is not None else None
        _, z, counts, scale = _margins(x, target, margin, weight)
        loss = (np.where(counts, z if p == 1 else z * z, 0).sum(1) * scale / z.shape[1]).astype(x.dtype)
        ctx.p, ctx.margin, ctx.reduction, ctx.reduction_enum = p, margin, reduction, _REDUCTIONS.index(reduction)
        if reduction == "none":
            return Tensor(loss.reshape(target.shape))
        if reduction == "mean" and len(loss):
            return Tensor(np.asarray(loss.sum() / len(loss), dtype=x.dtype))
        return Tensor(np.asarray(loss.sum(), dtype=x.dtype))  # (no samples: 0 here, whatever PyTorch's memory held)

    @staticmethod
    def backward(ctx, grad):
        input, target, weight = ctx.saved_tensors  # (the target or weight changed in place since: raises)
        weight = weight._data if weight is not None else None
        # (PyTorch's NotImplemented node has edges to the incoming gradient and the input, where they require grad)
        return (MultiMarginLossBackward.apply(grad, input, target._data, ctx.p, ctx.margin, weight, ctx.reduction),
                None, None, None, None, None)


class MultiMarginLossBackward(NoDerivative):
    """multi_margin_loss's gradient (PyTorch: ``multi_margin_loss_backward``): each class ``j`` within the
    margin gets ``1`` (``p = 1``) or ``2 z`` (``p = 2``), over ``C`` (and ``N`` for "mean"), times the
    weight of the right class, which gets minus their sum; times the incoming gradient."""
    node_name = "NotImplemented"

    @staticmethod
    def forward(ctx, grad, input, target, p, margin, weight, reduction):
        y, z, counts, scale = _margins(input._data, target, margin, weight)
        n, c = z.shape
        norm = 1.0 / (n * c) if reduction == "mean" else 1.0 / c
        g = np.where(counts, norm if p == 1 else 2 * norm * z, 0) * scale[:, None]
        np.put_along_axis(g, y[:, None], -g.sum(1, keepdims=True), axis=1)
        g = g * (grad._data.reshape(-1, 1) if reduction == "none" else grad._data)
        return Tensor(np.asarray(g.reshape(input._data.shape), dtype=input._data.dtype))

    @staticmethod
    def backward(ctx, gg):
        raise RuntimeError("derivative for aten::multi_margin_loss_backward is not implemented")


class NormDim(Norm):
    """``at::norm(x, p, dim, keepdim)``, the C++ function PyTorch's ``pairwise_distance`` calls: the same
    op as ``x.norm(p, dim)`` (whose Python path records ``LinalgVectorNormBackward0``), under its own name."""
    node_name = "NormBackward1"
    saved_names = {"self": 0, "result": 1, "p": "ord", "dim": "saved_norm_dim", "keepdim": "keepdim"}
