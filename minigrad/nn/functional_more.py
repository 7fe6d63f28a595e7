"""More of ``torch.nn.functional``: activations, dropout, one_hot and the losses beyond MSE and NLL.

``minigrad.nn.functional`` imports all of these, so write ``F.gelu(x)`` as in PyTorch.  The ops
themselves (forward and backward) are in ``minigrad/ops/activation.py`` and
``minigrad/ops/elementwise_loss.py``.
"""
import warnings

import numpy as np

from .. import random as _random
from ..autograd import grad_mode
from ..ops import activation as _act
from ..ops import elementwise_loss as _loss
from ..tensor import Tensor


# ------------------------------------------------------------------ activations
def implicit_softmax_dim(name, ndim, stacklevel):
    """Without ``dim``, PyTorch warns and picks its old default: dim 0 for 0, 1 or 3 dims, else dim 1."""
    warnings.warn(f"Implicit dimension choice for {name} has been deprecated. Change the call to include dim=X as "
                  "an argument.", stacklevel=stacklevel)
    return 0 if ndim in (0, 1, 3) else 1


def leaky_relu(input, negative_slope=0.01, inplace=False):  # noqa: A002
    """``inplace=True`` overwrites ``input`` and returns it (``LeakyReluBackward1``), as ``F.relu`` does."""
    _act.float_only(input, "leaky_relu_cpu")
    if inplace:
        from ..ops import inplace as _inplace
        return _inplace(input, _act.LeakyReluInPlace, negative_slope)
    return _act.LeakyRelu.apply(input, negative_slope)


def gelu(input, approximate="none"):  # noqa: A002
    if approximate not in ("none", "tanh"):
        raise RuntimeError(f"approximate argument must be either none or tanh.")
    _act.float_only(input, "GeluKernelImpl")
    return _act.Gelu.apply(input, approximate)


def silu(input, inplace=False):  # noqa: A002
    _act.float_only(input, "silu_cpu")
    if inplace:
        from ..ops import inplace as _inplace
        return _inplace(input, _act.Silu)
    return _act.Silu.apply(input)


def softplus(input, beta=1.0, threshold=20.0):  # noqa: A002
    _act.float_only(input, "softplus_cpu")
    return _act.Softplus.apply(input, beta, threshold)


def elu(input, alpha=1.0, inplace=False):  # noqa: A002
    """``inplace=True`` overwrites ``input`` and returns it (``EluBackward1``)."""
    _act.float_only(input, "elu_cpu")
    if inplace:
        from ..ops import inplace as _inplace
        return _inplace(input, _act.EluInPlace, alpha, 1.0)
    return _act.Elu.apply(input, alpha, 1.0)


# SELU's constants (Klambauer et al. 2017), as PyTorch writes them
def hardtanh(input, min_val=-1.0, max_val=1.0, inplace=False):  # noqa: A002
    """``inplace=True`` overwrites ``input`` and returns it (``HardtanhBackward0``, saving a clone of the
    old values)."""
    if min_val > max_val:
        raise ValueError("min_val cannot be greater than max_val")
    return _hardtanh(input, min_val, max_val, inplace)


def _hardtanh(input, min_val, max_val, inplace):  # noqa: A002
    """hardtanh without the bounds check of PyTorch's Python ``F.hardtanh`` (``F.hardtanh_`` has none)."""
    if input.dtype.name == "bool":  # (integers are clamped, as by PyTorch)
        raise RuntimeError("Bool inputs not supported for hardtanh")
    if inplace:
        from ..autograd import grad_mode
        from ..ops import inplace as _inplace
        old = input.clone() if grad_mode.is_grad_enabled() and input.requires_grad else input
        return _inplace(input, _act.HardtanhInPlace, min_val, max_val, [old])
    return _act.Hardtanh.apply(input, min_val, max_val)


def relu6(input, inplace=False):  # noqa: A002
    """``min(max(0, x), 6)``: PyTorch computes it as ``hardtanh(x, 0, 6)`` (node ``HardtanhBackward0``)."""
    return hardtanh(input, 0.0, 6.0, inplace)


def logsigmoid(input):  # noqa: A002
    _act.float_only(input, "log_sigmoid_cpu")
    return _act.LogSigmoid.apply(input)


def dropout(input, p=0.5, training=True, inplace=False):  # noqa: A002
    """In training, zero each element with probability ``p`` and scale the rest by ``1 / (1 - p)``, so
    that the expected value stays the same; in evaluation (``training=False``), return ``input`` itself.

    The mask is drawn from minigrad's generator (``minigrad.manual_seed``), so it is not PyTorch's mask.
    The graph is PyTorch's: one ``MulBackward0`` by the scaled mask.
    """
    if p < 0.0 or p > 1.0:
        raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
    if not training or p == 0.0:
        return input
    keep = _random.rand(*input.shape)._data >= p
    scale = 0.0 if p == 1.0 else 1.0 / (1.0 - p)
    return input * Tensor(np.asarray(keep * scale, dtype=input._data.dtype))


# ------------------------------------------------------------------ one_hot
def normalize(input, p=2.0, dim=1, eps=1e-12, out=None):  # noqa: A002
    """Each slice along ``dim`` divided by its p-norm (at least ``eps``): PyTorch writes it with these ops,
    ``input / input.norm(p, dim, keepdim=True).clamp_min(eps).expand_as(input)``."""
    if out is not None:
        raise NotImplementedError("minigrad's normalize has no out=; use the returned tensor")
    return input / input.norm(p, dim, keepdim=True).clamp_min(eps).expand_as(input)


def cosine_similarity(x1, x2, dim=1, eps=1e-8):
    """``sum(x1 * x2) / (|x1| |x2|)`` along ``dim``, PyTorch's composite: the two are broadcast, each is
    divided by its norm (raised to ``eps`` without being recorded: the gradient is that of ``x / |x|``),
    then the products are summed."""
    from .. import autograd
    from ..ops.promotion import broadcast_shape, result_type
    from ..tensor import _TYPE_NAMES
    common = result_type(x1, x2)
    if not common.is_floating_point:
        raise RuntimeError(f"expected common dtype to be floating point, yet common dtype is {_TYPE_NAMES[common.name]}")
    shape = broadcast_shape(x1, x2)
    x1, x2 = (x if x.dtype.is_floating_point else x.to(common) for x in (x1, x2))  # (integers: the common dtype)
    # (each step in the order PyTorch's C++ takes it: it decides the order in which backward reaches x1 and x2)
    if x1.shape != x2.shape:  # PyTorch expands both when they differ
        x2 = x2.expand(shape)
        x1 = x1.expand(shape)
    n1 = x1.norm(2, dim, keepdim=True).clone()
    n2 = x2.norm(2, dim, keepdim=True).clone()
    with autograd.no_grad():
        n1.clamp_min_(eps)
        n2.clamp_min_(eps)
    unit2 = x2 / n2
    unit1 = x1 / n1
    return (unit1 * unit2).sum(dim)


def softmin(input, dim=None, _stacklevel=3, dtype=None):  # noqa: A002
    """``softmax(-input)``: the smallest entries get the most weight (PyTorch records both ops).  Without
    ``dim``, PyTorch warns and picks one as ``F.softmax`` does (0 for 0, 1 or 3 dims, else 1); with
    ``dtype``, ``-input`` is cast to it first (``ToCopyBackward0``)."""
    if dim is None:
        dim = implicit_softmax_dim("softmin", input.dim(), _stacklevel)
    return (-input).softmax(dim) if dtype is None else (-input).to(dtype).softmax(dim)


def kl_div(input, target, size_average=None, reduce=None, reduction="mean", log_target=False):  # noqa: A002
    """KL(target || p) with ``input = log p``: ``xlogy(t, t) - t * input`` per element (``log_target``:
    the target given as ``log t``, ``exp(log_t) * (log_t - input)``), as PyTorch computes it.

    PyTorch's C++ (``at::kl_div``) builds the right-hand operand first (``log_t - input``, ``t * input``),
    so its node is older and runs later in backward: a target that requires grad gets its two gradient
    parts summed in that order (``AddBackward0``'s edges under ``create_graph=True``). The same here."""
    from .module import _legacy_reduction
    reduction = _legacy_reduction(size_average, reduce, reduction)
    if reduction == "mean":
        warnings.warn("reduction: 'mean' divides the total loss by both the batch size and the support size."
                      "'batchmean' divides only by the batch size, and aligns with the KL div math definition."
                      "'mean' will be changed to behave the same as 'batchmean' in the next major release.",
                      UserWarning, stacklevel=2)
    if reduction not in ("none", "mean", "sum", "batchmean"):
        raise ValueError(f"{reduction} is not a valid value for reduction")
    if not (input.is_floating_point() and target.is_floating_point()):
        raise RuntimeError("kl_div: Integral inputs not supported.")
    if log_target:
        right = target - input
        terms = target.exp() * right
    else:
        right = target * input
        terms = target.xlogy(target) - right
    if reduction == "none":
        return terms
    if reduction == "mean":
        return terms.mean()
    if reduction == "batchmean":
        return terms.sum() / input.shape[0] if input.dim() != 0 else terms.sum()
    return terms.sum()


def one_hot(tensor, num_classes=-1):
    """``one_hot(tensor([0, 2]), 3)`` is ``[[1, 0, 0], [0, 0, 1]]`` (int64); ``num_classes=-1``: max + 1."""
    if tensor.dtype.name != "int64":
        raise RuntimeError("one_hot is only applicable to index tensor of type LongTensor.")
    idx = tensor._data
    if idx.size == 0 and num_classes == -1:
        raise RuntimeError("Can not infer total number of classes from empty tensor.")
    if idx.size and idx.min() < 0:
        raise RuntimeError("Class values must be non-negative.")
    n = int(idx.max()) + 1 if num_classes == -1 else num_classes
    if idx.size and idx.max() >= n:
        raise RuntimeError("Class values must be smaller than num_classes.")
    out = Tensor(np.ascontiguousarray(idx[..., None] == np.arange(n), dtype=np.int64))
    out._vc[0] = 2  # (PyTorch builds it in place, zeros then scatter_: its _version is 2)
    return out


# ------------------------------------------------------------------ losses
def _same_size(input, target):  # noqa: A002
    if input.shape != target.shape:
        raise ValueError(f"Using a target size ({target.shape}) that is different to the input size "
                         f"({input.shape}) is deprecated. Please ensure they have the same size.")


def _as_tensor(t, like):
    """The target, a tensor: an input of the node (an edge in ``next_functions``, as in PyTorch)."""
    return t if isinstance(t, Tensor) else Tensor(np.asarray(t, dtype=like._data.dtype))


def _kept(t):
    """A weight: no input of the node (no gradient and no edge), but saved by it (``ops.NoEdge``)."""
    return _loss.NoEdge(t if t is None or isinstance(t, Tensor) else Tensor(np.asarray(t)))


def _no_gradient_for(t, argument, function):
    """PyTorch has no derivative for a loss's weights: one that requires grad is refused while recording."""
    if isinstance(t, Tensor) and t.requires_grad and grad_mode.is_grad_enabled():
        raise RuntimeError(f"The function '{function}' is not differentiable with respect to argument '{argument}'. "
                           "This input cannot have requires_grad True.")


def binary_cross_entropy(input, target, weight=None, size_average=None, reduce=None, reduction="mean"):  # noqa: A002
    from .module import _legacy_reduction
    reduction = _legacy_reduction(size_average, reduce, reduction)
    _same_size(input, target)
    _no_gradient_for(weight, "weight", "binary_cross_entropy")
    target = _as_tensor(target, input)
    weight = _kept(weight)
    if weight.tensor is not None:  # (PyTorch: weight.expand(_infer_size(target.size(), weight.size())), a view)
        weight.tensor = weight.tensor.expand(np.broadcast_shapes(target.shape, weight.tensor.shape))
    return _loss.BinaryCrossEntropy.apply(input, target, weight, reduction)


def binary_cross_entropy_with_logits(input, target, weight=None, size_average=None, reduce=None,  # noqa: A002
                                     reduction="mean", pos_weight=None):
    from .module import _legacy_reduction
    reduction = _legacy_reduction(size_average, reduce, reduction)
    if input.shape != target.shape:
        raise ValueError(f"Target size ({target.shape}) must be the same as input size ({input.shape})")
    _no_gradient_for(weight, "weight", "binary_cross_entropy_with_logits")
    _no_gradient_for(pos_weight, "pos_weight", "binary_cross_entropy_with_logits")
    return _loss.BinaryCrossEntropyWithLogits.apply(input, _as_tensor(target, input), _kept(weight), _kept(pos_weight),
                                                    reduction)


def _warn_size(input, target):  # noqa: A002
    if input.shape != target.shape:
        warnings.warn(f"Using a target size ({target.shape}) that is different to the input size ({input.shape}). "
                      "This will likely lead to incorrect results due to broadcasting. Please ensure they have the "
                      "same size.", UserWarning, stacklevel=3)


def l1_loss(input, target, size_average=None, reduce=None, reduction="mean"):  # noqa: A002
    """``|input - target|``, reduced: PyTorch records it as a Sub, an Abs and the reduction."""
    from .module import _legacy_reduction
    reduction = _legacy_reduction(size_average, reduce, reduction)
    _warn_size(input, target)
    input, target = _broadcast(input, target)  # (PyTorch: broadcast_tensors, then the formula)
    loss = (input - target).abs()
    if reduction == "none":
        return loss
    if reduction not in ("mean", "sum"):
        raise ValueError(f"{reduction} is not a valid value for reduction")
    return loss.mean() if reduction == "mean" else loss.sum()


def smooth_l1_loss(input, target, size_average=None, reduce=None, reduction="mean", beta=1.0):  # noqa: A002
    from .module import _legacy_reduction
    reduction = _legacy_reduction(size_average, reduce, reduction)
    if beta == 0.0:  # PyTorch: then it is l1_loss (and records l1_loss's nodes)
        return l1_loss(input, target, reduction=reduction)
    _warn_size(input, target)
    return _loss.SmoothL1Loss.apply(*_broadcast(input, target), reduction, beta)


def huber_loss(input, target, reduction="mean", delta=1.0, weight=None):  # noqa: A002
    _warn_size(input, target)
    return _loss.HuberLoss.apply(*_broadcast(input, target), reduction, delta)


def _broadcast(input, target):  # noqa: A002
    from ..ops import broadcast_shape
    shape = broadcast_shape(input, target)
    return (input if input.shape == shape else input.expand(shape)), \
        (target if target.shape == shape else target.expand(shape))


def pad(input, pad, mode="constant", value=None):  # noqa: A002
    """Pads ``input`` with ``value`` (0 by default): ``pad`` gives (before, after) amounts for the last
    dim, then the one before it ...; negative amounts cut (``ConstantPadNdBackward0``).  PyTorch's
    other modes (reflect, replicate, circular) copy values from the input; minigrad has only the
    constant one."""
    from ..ops.shape import ConstantPadNd
    if mode != "constant":
        if mode in ("reflect", "replicate", "circular"):
            raise NotImplementedError(f"minigrad's F.pad has only mode='constant'; mode='{mode}' (PyTorch's "
                                      f"{mode} padding) is not in minigrad")
        raise NotImplementedError(f"Unrecognised padding mode {mode}")
    if len(pad) % 2:
        raise RuntimeError("Padding length must be divisible by 2")
    if len(pad) > 2 * input.dim():
        raise RuntimeError("Padding length should be less than or equal to two times the input dimension but got "
                           f"padding length {len(pad)} and input of dimension {input.dim()}")
    return ConstantPadNd.apply(input, tuple(pad), 0 if value is None else value)
