"""Normalisation: ``layer_norm`` (PyTorch: ``native_layer_norm``, ``aten/src/ATen/native/layer_norm.cpp``).

Layer norm normalises each sample over its last dims (``normalized_shape``): with ``mean`` and ``rstd =
1 / sqrt(var + eps)`` of those numbers (the biased variance),

    xhat = (x - mean) * rstd,        y = xhat * weight + bias.

PyTorch records one node for it, ``NativeLayerNormBackward0``, whose formula is the derivative of the whole
normalisation at once (``layer_norm_backward``): with ``dxhat = grad * weight`` and means over the
normalised numbers,

    dx = rstd * (dxhat - mean(dxhat) - xhat * mean(dxhat * xhat)),
    dweight = sum of grad * xhat over the samples,    dbias = sum of grad over the samples.

The numbers are computed in float64 and rounded once to the input's dtype (PyTorch's float32 kernels
accumulate in float32: the results agree within its rounding).
"""
import numpy as np

from .dispatch import Op
from .._core.tensor_base import _TYPE_NAMES, TensorBase as Tensor
from ..autograd import grad_mode


def undefined():
    """What PyTorch passes for an optional tensor left out (``weight=None``): an input that needs no gradient
    (its ``next_functions`` entry is ``(None, 0)``) and that the op does not read."""
    return Tensor(np.zeros(0, np.float32))


def check_layer_norm(input, normalized_shape, weight, bias):
    """PyTorch's ``_check_layer_norm_inputs``: the shapes of ``weight`` and ``bias`` and the last dims of
    ``input`` are ``normalized_shape``."""
    shape = list(normalized_shape)
    if not shape:
        raise RuntimeError(f"Expected normalized_shape to be at least 1-dimensional, i.e., containing at least one "
                           f"element, but got normalized_shape = {shape}")
    for name, t in (("weight", weight), ("bias", bias)):
        if t is not None and list(t.shape) != shape:
            raise RuntimeError(f"Expected {name} to be of same shape as normalized_shape, but got {name} of shape "
                               f"{list(t.shape)} and normalized_shape = {shape}")
    if list(input.shape[input.dim() - len(shape):]) != shape or input.dim() < len(shape):
        raise RuntimeError(f"Given normalized_shape={shape}, expected input with shape [*, "
                           f"{', '.join(str(s) for s in shape)}], but got input of size{list(input.shape)}")
    if input.dtype.name not in ("float32", "float64", "float16"):
        raise NotImplementedError(f"\"LayerNormKernelImpl\" not implemented for '{_TYPE_NAMES[input.dtype.name]}'")


class NativeLayerNorm(Op):
    """``(x - mean) * rstd * weight + bias`` over the last ``len(normalized_shape)`` dims (PyTorch:
    ``native_layer_norm``, node ``NativeLayerNormBackward0``).  ``weight`` and ``bias`` are tensors, or
    ``undefined()`` when left out (``has_weight``, ``has_bias`` say which).  ``mean`` and ``rstd`` are kept
    with a 1 for each normalised dim (``grad_fn._saved_result1``, ``_saved_result2``)."""
    node_name = "NativeLayerNormBackward0"
    saved_names = {"input": 0, "weight": 1, "bias": 2, "result1": 3, "result2": 4,
                   "normalized_shape": "normalized_shape"}  # (grad_fn._saved_*)

    @staticmethod
    def forward(ctx, input, weight, bias, normalized_shape, eps, has_weight, has_bias):
        x = input._data
        axes = tuple(range(x.ndim - len(normalized_shape), x.ndim))
        x64 = x.astype(np.float64)
        mean = x64.mean(axis=axes, keepdims=True)
        centred = x64 - mean
        rstd = 1.0 / np.sqrt((centred * centred).mean(axis=axes, keepdims=True) + eps)
        y = centred * rstd
        if has_weight:
            y = y * weight._data
        if has_bias:
            y = y + bias._data
        mean_t, rstd_t = Tensor(mean.astype(x.dtype)), Tensor(rstd.astype(x.dtype))
        ctx.normalized_shape, ctx.axes, ctx.eps = tuple(normalized_shape), axes, eps
        ctx.save_for_backward(input, weight if has_weight else None, bias if has_bias else None, mean_t, rstd_t)
        return Tensor(y.astype(x.dtype))

    @staticmethod
    def backward(ctx, grad):
        input, weight, bias, mean, rstd = ctx.saved_tensors
        need_input, need_weight, need_bias = ctx.needs_input_grad[:3]
        if grad_mode.is_grad_enabled():  # create_graph=True: the formula from tensor ops, so that it is recorded
            dx, dw, db = _layer_norm_backward_recorded(grad, input, weight, ctx.axes, ctx.eps)
        else:
            dx, dw, db = _layer_norm_backward(grad._data, input._data, weight._data if weight is not None else None,
                                              mean._data, rstd._data, ctx.axes)
        return (dx if need_input else None, dw if need_weight else None, db if need_bias else None,
                None, None, None, None)


def _layer_norm_backward(g, x, w, mean, rstd, axes):
    """PyTorch's ``layer_norm_backward`` on arrays (float64 inside, the results in ``g``'s dtype)."""
    batch_axes = tuple(range(x.ndim - len(axes)))
    g64, rstd = g.astype(np.float64), rstd.astype(np.float64)
    xhat = (x.astype(np.float64) - mean) * rstd
    dxhat = g64 * w if w is not None else g64
    dx = rstd * (dxhat - dxhat.mean(axis=axes, keepdims=True) - xhat * (dxhat * xhat).mean(axis=axes, keepdims=True))
    dw = (g64 * xhat).sum(axis=batch_axes)
    db = g64.sum(axis=batch_axes)
    return Tensor(dx.astype(g.dtype)), Tensor(dw.astype(g.dtype)), Tensor(db.astype(g.dtype))


def _layer_norm_backward_recorded(grad, input, weight, axes, eps):
    """The same formula from tensor ops (for ``create_graph=True``), ``mean`` and ``rstd`` computed again from
    ``input`` so that their own dependence on it is differentiated too."""
    batch_axes = tuple(range(input.dim() - len(axes)))
    centred = input - input.mean(axes, keepdim=True)
    rstd = ((centred * centred).mean(axes, keepdim=True) + eps).rsqrt()
    xhat = centred * rstd
    dxhat = grad * weight if weight is not None else grad
    dx = rstd * (dxhat - dxhat.mean(axes, keepdim=True) - xhat * (dxhat * xhat).mean(axes, keepdim=True))
    if not batch_axes:
        return dx, grad * xhat, grad
    return dx, (grad * xhat).sum(batch_axes), grad.sum(batch_axes)


def layer_norm(input, normalized_shape, weight=None, bias=None, eps=1e-5):
    """``torch.layer_norm``: PyTorch's checks, then one ``NativeLayerNorm`` node."""
    check_layer_norm(input, normalized_shape, weight, bias)
    return NativeLayerNorm.apply(input, weight if weight is not None else undefined(),
                                 bias if bias is not None else undefined(), tuple(normalized_shape), eps,
                                 weight is not None, bias is not None)
