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


def check_layer_norm(input, normalized_shape, weight, bias, kernel="LayerNormKernelImpl", star="*, "):
    """PyTorch's ``_check_layer_norm_inputs``: the shapes of ``weight`` and ``bias`` and the last dims of
    ``input`` are ``normalized_shape`` (rms_norm's message writes ``[*3]`` where layer_norm's has ``[*, 3]``)."""
    shape = list(normalized_shape)
    if not shape:
        raise RuntimeError(f"Expected normalized_shape to be at least 1-dimensional, i.e., containing at least one "
                           f"element, but got normalized_shape = {shape}")
    for name, t in (("weight", weight), ("bias", bias)):
        if t is not None and list(t.shape) != shape:
            raise RuntimeError(f"Expected {name} to be of same shape as normalized_shape, but got {name} of shape "
                               f"{list(t.shape)} and normalized_shape = {shape}")
    if list(input.shape[input.dim() - len(shape):]) != shape or input.dim() < len(shape):
        raise RuntimeError(f"Given normalized_shape={shape}, expected input with shape [{star}"
                           f"{', '.join(str(s) for s in shape)}], but got input of size{list(input.shape)}")
    if input.dtype.name not in ("float32", "float64", "float16"):
        raise NotImplementedError(f"\"{kernel}\" not implemented for '{_TYPE_NAMES[input.dtype.name]}'")


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


# ---------------------------------------------------------------------------------- batch_norm
class NativeBatchNorm(Op):
    """Batch norm over the channels (dim 1) of an ``(N, C, *)`` input (PyTorch: ``native_batch_norm``, node
    ``NativeBatchNormBackward0``, edges to input, weight and bias).

    Training: each channel normalised with the mean and the biased variance of its ``n = N * (spatial size)``
    numbers, ``save_mean`` and ``save_invstd = 1 / sqrt(var + eps)`` kept for backward, and the running
    statistics (if given) updated in place, ``running = momentum * batch + (1 - momentum) * running``, with the
    unbiased variance ``var * n / (n - 1)`` for ``running_var``.  Evaluation: normalised with the running
    statistics; nothing is updated and ``save_mean``, ``save_invstd`` are empty.

    ``running`` is the pair ``(running_mean, running_var)`` (each may be None): not inputs of the node (no
    edges, as in PyTorch), but kept as ``_saved_running_mean``, ``_saved_running_var``.  The statistics are
    computed in float64, as PyTorch's CPU kernel accumulates them in double."""
    node_name = "NativeBatchNormBackward0"
    saved_names = {"input": 0, "weight": 1, "running_mean": 2, "running_var": 3, "result1": 4, "result2": 5,
                   "training": "training", "eps": "eps"}  # (grad_fn._saved_*)

    @staticmethod
    def forward(ctx, input, weight, bias, running, training, momentum, eps, has_weight, has_bias):
        running_mean, running_var = running
        x = input._data
        axes = (0,) + tuple(range(2, x.ndim))
        shape = [1, x.shape[1]] + [1] * (x.ndim - 2)  # a channel's number, broadcast over its positions
        if training:
            n = x.size // x.shape[1]
            mean = x.mean(axis=axes, dtype=np.float64)
            centred = x - mean.reshape(shape)
            var = (centred * centred).sum(axis=axes) / n
            invstd = 1.0 / np.sqrt(var + eps)
            if running_mean is not None:
                running_mean._data[...] = momentum * mean + (1 - momentum) * running_mean._data
            if running_var is not None:
                running_var._data[...] = momentum * (var * n / (n - 1)) + (1 - momentum) * running_var._data
            save_mean, save_invstd = Tensor(mean.astype(x.dtype)), Tensor(invstd.astype(x.dtype))
        else:
            mean, invstd = running_mean._data.astype(np.float64), 1.0 / np.sqrt(running_var._data.astype(np.float64) + eps)
            centred = x - mean.reshape(shape)
            save_mean, save_invstd = Tensor(np.zeros(0, x.dtype)), Tensor(np.zeros(0, x.dtype))
        y = centred * invstd.reshape(shape)
        if has_weight:
            y = y * weight._data.reshape(shape)
        if has_bias:
            y = y + bias._data.reshape(shape)
        ctx.training, ctx.eps, ctx.axes, ctx.shape = training, eps, axes, shape
        ctx.save_for_backward(input, weight if has_weight else None, running_mean, running_var, save_mean, save_invstd)
        return Tensor(y.astype(x.dtype))

    @staticmethod
    def backward(ctx, grad):
        input, weight, running_mean, running_var, save_mean, save_invstd = ctx.saved_tensors
        need_input, need_weight, need_bias = ctx.needs_input_grad[:3]
        if ctx.training:
            mean, invstd = save_mean._data, save_invstd._data
        else:
            mean, invstd = running_mean._data, 1.0 / np.sqrt(running_var._data.astype(np.float64) + ctx.eps)
        if grad_mode.is_grad_enabled():  # create_graph=True: the formula from tensor ops, so that it is recorded
            dx, dw, db = _batch_norm_backward_recorded(grad, input, weight, ctx)
        else:
            dx, dw, db = _batch_norm_backward(grad._data, input._data, weight._data if weight is not None else None,
                                              mean, invstd, ctx)
        return (dx if need_input else None, dw if need_weight else None, db if need_bias else None,
                None, None, None, None, None, None)


def _batch_norm_backward(g, x, w, mean, invstd, ctx):
    """PyTorch's ``batch_norm_backward_cpu`` on arrays: per channel, with ``xmu = x - mean``,
    ``dotp = sum(grad * xmu)`` and ``gsum = sum(grad)``: ``dweight = dotp * invstd``, ``dbias = gsum``, and
    ``dx = (grad - gsum / n - xmu * dotp * invstd**2 / n) * invstd * weight`` in training (the mean and the
    variance depend on x), ``grad * invstd * weight`` in evaluation (they are constants)."""
    shape, axes = ctx.shape, ctx.axes
    g64 = g.astype(np.float64)
    invstd = invstd.astype(np.float64)
    xmu = x - mean.astype(np.float64).reshape(shape)
    gsum = g64.sum(axis=axes)
    dotp = (g64 * xmu).sum(axis=axes)
    scale = invstd * w if w is not None else invstd
    if ctx.training:
        n = x.size // x.shape[1]
        dx = (g64 - (gsum / n).reshape(shape) - xmu * (dotp * invstd * invstd / n).reshape(shape)) * scale.reshape(shape)
    else:
        dx = g64 * scale.reshape(shape)
    return Tensor(dx.astype(g.dtype)), Tensor((dotp * invstd).astype(g.dtype)), Tensor(gsum.astype(g.dtype))


def _batch_norm_backward_recorded(grad, input, weight, ctx):
    """The same formula from tensor ops (for ``create_graph=True``); in training the mean and ``invstd`` are
    computed again from ``input``, so that their own dependence on it is differentiated too."""
    shape, axes = ctx.shape, ctx.axes
    running_mean, running_var = ctx.saved_tensors[2:4]
    if ctx.training:
        mean = input.mean(axes, keepdim=True)
        centred = input - mean
        invstd = ((centred * centred).mean(axes, keepdim=True) + ctx.eps).rsqrt()
    else:
        centred = input - running_mean.view(shape)
        invstd = (running_var.view(shape) + ctx.eps).rsqrt()
    xhat = centred * invstd
    dxhat = grad * weight.view(shape) if weight is not None else grad
    if ctx.training:
        dx = invstd * (dxhat - dxhat.mean(axes, keepdim=True) - xhat * (dxhat * xhat).mean(axes, keepdim=True))
    else:
        dx = dxhat * invstd
    return dx, (grad * xhat).sum(axes), grad.sum(axes)


def batch_norm(input, running_mean, running_var, weight, bias, training, momentum, eps):
    """``torch.batch_norm``: PyTorch's checks (``_batch_norm_impl_index``), then one ``NativeBatchNorm`` node."""
    if input.dtype.name not in ("float32", "float64", "float16"):
        raise NotImplementedError(f"\"batch_norm\" not implemented for '{_TYPE_NAMES[input.dtype.name]}'")
    num_features = input.shape[1] if input.dim() > 1 else 0  # (PyTorch reads a size 1 that is not there as 0)
    for name, t in (("running_mean", running_mean), ("running_var", running_var)):
        if t is not None:
            if t.numel() != num_features:
                raise RuntimeError(f"{name} should contain {num_features} elements not {t.numel()}")
        elif not training:
            raise RuntimeError(f"{name} must be defined in evaluation mode")
    for name, t in (("weight", weight), ("bias", bias)):
        if t is not None and t.numel() != num_features:
            raise RuntimeError(f"{name} should contain {num_features} elements not {t.numel()}")
    if any(t is not None and t.dtype != input.dtype for t in (weight, bias, running_mean, running_var)):
        raise RuntimeError("mixed dtype (CPU): all inputs must share same datatype.")
    if input.dim() < 2:
        raise IndexError("Dimension out of range (expected to be in range of [-1, 0], but got 1)")
    if input.numel() == 0:  # no numbers: PyTorch returns a copy (times weight[0], plus bias[0]), no statistics
        out = input.clone()
        out = out * weight[0] if weight is not None else out
        return out + bias[0] if bias is not None else out
    return NativeBatchNorm.apply(input, weight if weight is not None else undefined(),
                                 bias if bias is not None else undefined(), (running_mean, running_var), training,
                                 momentum, eps, weight is not None, bias is not None)
