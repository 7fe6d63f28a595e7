"""Functions behind the layers (PyTorch: ``torch.nn.functional``, usually imported as ``F``)."""
import numpy as np

from .. import ops
from ..tensor import Tensor


_TYPE_NAMES = {"float32": "Float", "float64": "Double", "int32": "Int", "bool": "Bool", "float16": "Half"}


def relu(input, inplace=False):
    """``max(0, input)``; ``inplace=True`` overwrites ``input`` and returns it (``input.relu_()``)."""
    return input.relu_() if inplace else input.relu()


def threshold(input, threshold, value, inplace=False):
    """``input`` where ``input > threshold``, else ``value`` (PyTorch: ``F.threshold``, node ``ThresholdBackward0``)."""
    if inplace:
        return ops.inplace(input, ops.ThresholdInPlace, threshold, value)
    return ops.Threshold.apply(input, threshold, value)


def sigmoid(input):
    return input.sigmoid()


def tanh(input):
    return input.tanh()


def softmax(input, dim=None, dtype=None):
    if dim is None:
        dim = 0 if input.dim() in (0, 1, 3) else 1  # PyTorch's legacy implicit choice
    return input.softmax(dim)


def log_softmax(input, dim=None, dtype=None):
    if dim is None:
        dim = 0 if input.dim() in (0, 1, 3) else 1
    return input.log_softmax(dim)


def linear(input, weight, bias=None):
    """``input @ weight.T + bias``; for a 2-D input with a bias this is one ``AddmmBackward0`` node."""
    if input.dim() == 0 or weight.dim() == 0:
        raise RuntimeError(f"both arguments to linear need to be at least 1D, but they are {input.dim()}D and "
                           f"{weight.dim()}D")
    if bias is None:
        return input.matmul(weight.t())
    if input.dim() == 2:
        return ops.Addmm.apply(bias, input, weight.t())
    # other shapes: fold the leading dims into one batch dim, addmm, unfold (as PyTorch does)
    out = ops.Addmm.apply(bias, input.reshape(-1, input.shape[-1]), weight.t())
    return out.view(*input.shape[:-1], weight.shape[0])


def mse_loss(input, target, size_average=None, reduce=None, reduction="mean"):
    if input.shape != target.shape:
        import warnings
        warnings.warn(f"Using a target size ({target.shape}) that is different to the input size ({input.shape}). "
                      "This will likely lead to incorrect results due to broadcasting. Please ensure they have the "
                      "same size.", UserWarning, stacklevel=2)
        shape = ops.broadcast_shape(input, target)  # (PyTorch's broadcast_tensors: only what needs it is expanded)
        input = input if input.shape == shape else input.expand(shape)
        target = target if target.shape == shape else target.expand(shape)
    return ops.MseLoss.apply(input, target, reduction)


def nll_loss(input, target, weight=None, size_average=None, ignore_index=-100, reduce=None, reduction="mean"):
    t = target._data if isinstance(target, Tensor) else np.asarray(target)
    if not np.issubdtype(t.dtype, np.integer):
        raise RuntimeError(f"expected target dtype to be Long or Byte, but got {_TYPE_NAMES.get(t.dtype.name, t.dtype.name)}")
    w = weight._data if weight is not None else None
    if input.dim() == 3 and t.shape == (input.shape[0], input.shape[2]):
        # PyTorch sees (N, C, d) as the image (N, C, d, 1), and the loss per position back as (N, d)
        out = ops.loss.NllLoss2d.apply(input.view(*input.shape, 1), t[..., None], w, reduction, ignore_index)
        return out.view(t.shape) if reduction == "none" else out
    if input.dim() == 4:
        return ops.loss.NllLoss2d.apply(input, t, w, reduction, ignore_index)
    return ops.NllLoss.apply(input, t, w, reduction, ignore_index)


def cross_entropy(input, target, weight=None, size_average=None, ignore_index=-100, reduce=None,
                  reduction="mean", label_smoothing=0.0):
    """``nll_loss(log_softmax(input, 1), target)``: the graph shows both nodes, as in PyTorch."""
    if label_smoothing:
        raise NotImplementedError("minigrad's cross_entropy does not support label_smoothing")
    if target.shape == input.shape:  # PyTorch reads a target of the input's shape as class probabilities
        if not target.is_floating_point():
            raise RuntimeError(f"Expected floating point type for target with class probabilities, got "
                               f"{_TYPE_NAMES.get(target.dtype.name, 'Long')}")
        raise NotImplementedError("minigrad's cross_entropy takes class indices as targets, not class probabilities")
    dim = 0 if input.dim() == 1 else 1
    return nll_loss(input.log_softmax(dim), target, weight, ignore_index=ignore_index, reduction=reduction)


# more activations, dropout, one_hot and losses (issue 19): see functional_more.py
from .functional_more import (binary_cross_entropy, binary_cross_entropy_with_logits, dropout, elu, gelu,  # noqa: E402
                              hardtanh, huber_loss, l1_loss, leaky_relu, logsigmoid, one_hot, relu6, silu,
                              smooth_l1_loss, softplus)


def __getattr__(name):  # F.conv2d and the other functions of the layers minigrad leaves out (see _absent.py)
    from ._absent import FUNCTIONS, missing
    raise missing("minigrad.nn.functional", name, FUNCTIONS)
