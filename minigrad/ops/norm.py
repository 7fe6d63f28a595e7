"""Normalisation: ``layer_norm`` and ``batch_norm`` (PyTorch: ``native_layer_norm``, ``native_batch_norm``,
``aten/src/ATen/native/layer_norm.cpp`` and ``Normalization.cpp``).

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

Batch norm (below) is the same normalisation per channel, over the batch and the positions.  Each backward
formula is an op of its own too (``NativeLayerNormBackwardBackward0``, ``NativeBatchNormBackwardBackward0``
under ``create_graph=True``), whose backward is ``norm_double_backward``.  That one differentiates the
statistics as well, so third derivatives are exact (gradgradcheck of a gradient passes); PyTorch 2.13 keeps
the saved mean and rstd as constants there, and its third derivatives of the normalisations are off.
"""
import numpy as np

from .dispatch import Op
from .._core.tensor_base import _TYPE_NAMES, TensorBase as Tensor
from .._core.layout import channels_last_order, dense_in_order, row_major_order, suggested_order


def undefined():
    """What PyTorch passes for an optional tensor left out (``weight=None``): an input that needs no gradient
    (its ``next_functions`` entry is ``(None, 0)``) and that the op does not read."""
    return Tensor(np.zeros(0, np.float32))


def defined(t):
    """``t``, or ``undefined()`` for None."""
    return t if t is not None else undefined()


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
        mean, centred, rstd = _mean_rstd(x.astype(np.float64), axes, eps)
        y = centred
        y *= rstd  # (x - mean) * rstd, then * weight + bias, in place in the float64 array
        if has_weight:
            y *= weight._data
        if has_bias:
            y += bias._data
        mean_t, rstd_t = Tensor(mean.astype(x.dtype)), Tensor(rstd.astype(x.dtype))
        ctx.normalized_shape, ctx.axes, ctx.eps = tuple(normalized_shape), axes, eps
        ctx.stats = mean, rstd  # (in float64, for the backward: the saved float32 ones would not cancel exactly)
        ctx.save_for_backward(input, weight if has_weight else None, bias if has_bias else None, mean_t, rstd_t)
        return Tensor(np.asarray(y, dtype=x.dtype, order="C"))  # (PyTorch: row-major, whatever the input's layout)

    @staticmethod
    def backward(ctx, grad):
        input, weight, bias, mean, rstd = ctx.saved_tensors
        dx, dw, db = NativeLayerNormBackward.apply(grad, input, mean, rstd, defined(weight), defined(bias), ctx.axes,
                                                   ctx.eps, ctx.needs_input_grad[:3], weight is not None, ctx.stats)
        return dx, dw, db, None, None, None, None


class NativeLayerNormBackward(Op):
    """layer_norm's backward formula as one op (PyTorch: ``native_layer_norm_backward``; under
    ``create_graph=True`` the node ``NativeLayerNormBackwardBackward0``, with edges to grad, input, mean, rstd,
    weight and bias).  ``need`` says which of ``(dx, dweight, dbias)`` to compute.  Its own backward is
    ``norm_double_backward``."""
    node_name = "NativeLayerNormBackwardBackward0"

    @staticmethod
    def forward(ctx, grad, input, mean, rstd, weight, bias, axes, eps, need, has_weight, stats):
        dx, dw, db = _layer_norm_backward(grad._data, input._data, weight._data if has_weight else None, stats, axes,
                                          need)
        ctx.save_for_backward(grad, input, weight if has_weight else None)
        ctx.axes, ctx.eps = axes, eps
        ctx.set_materialize_grads(False)  # (an output that gets no gradient: None, as PyTorch's undefined one)
        return dx if need[0] else None, dw if need[1] else None, db if need[2] else None

    @staticmethod
    def backward(ctx, ggx, ggw, ggb):
        grad, input, weight = ctx.saved_tensors
        weight_axes = tuple(range(input.dim() - len(ctx.axes)))  # (the samples: dweight sums over them)
        g_grad, x_grad, w_grad = norm_double_backward(ggx, ggw, ggb, grad, input, weight, ctx.axes, weight_axes,
                                                      ctx.eps)
        return g_grad, x_grad, None, None, w_grad, None, None, None, None, None, None


def _mean_rstd(x64, axes, eps):
    """The mean, ``x64 - mean`` and 1 / sqrt(biased variance + eps) over ``axes``; for a group without elements
    PyTorch's 0 and nan (numpy's mean would warn of an empty slice)."""
    n = int(np.prod([x64.shape[a] for a in axes]))
    mean = x64.sum(axis=axes, keepdims=True) / max(n, 1)
    centred = x64 - mean
    var = np.square(centred).sum(axis=axes, keepdims=True) / n if n else np.full(mean.shape, np.nan)
    return mean, centred, 1.0 / np.sqrt(var + eps)


def _layer_norm_backward(g, x, w, stats, axes, need):
    """PyTorch's ``layer_norm_backward`` on arrays (float64 inside, with the forward's float64 ``stats``, the mean
    and rstd; the results in ``g``'s dtype, None where ``need`` says no)."""
    batch_axes = tuple(range(x.ndim - len(axes)))
    mean, rstd = stats
    g64, x64 = g.astype(np.float64), x.astype(np.float64)
    dx = dw = db = None
    if need[0]:
        dxhat = g64 * w if w is not None else g64
        # dx = rstd * (dxhat - mean(dxhat) - xhat * mean(dxhat * xhat)), in the order PyTorch's CPU kernel computes
        # it (dx = rstd * dxhat + b * x + c), which gives its nan where a weight or gradient is infinite
        n = int(np.prod([x.shape[a] for a in axes]))
        ds, db_ = (dxhat * x64).sum(axis=axes, keepdims=True), dxhat.sum(axis=axes, keepdims=True)
        b = (db_ * mean - ds) * rstd ** 3 / n
        dx = rstd * dxhat
        dx += b * x64
        dx += -b * mean - db_ * rstd / n
        dx = Tensor(dx.astype(g.dtype))
    if need[1]:
        dw = Tensor((g64 * ((x64 - mean) * rstd)).sum(axis=batch_axes).astype(g.dtype))  # sum of grad * xhat
    if need[2]:
        db = Tensor(g64.sum(axis=batch_axes).astype(g.dtype))
    return dx, dw, db


def norm_double_backward(ggx, ggw, ggb, grad, input, weight, axes, weight_axes, eps, view=None, running=None):
    """The derivative of the normalisations' backward formula (``dx``, ``dweight``, ``dbias`` as functions of
    ``grad``, ``input`` and ``weight``) against the incoming ``ggx``, ``ggw``, ``ggb``, in tensor ops (so a
    third derivative is recorded too).  With ``xhat = (x - mean) * rstd`` over ``axes`` and the projection
    ``P(a) = a - mean(a) - xhat * mean(a * xhat)`` (symmetric, and ``d xhat = rstd * P(dx)``):

        dx = rstd * P(grad * w),   dweight = sum(grad * xhat),   dbias = sum(grad)

    so, with ``v = grad * w`` and ``c = mean(v * xhat)``:

        to grad:   w * rstd * P(ggx) + ggw * xhat + ggb
        to weight: sum(grad * rstd * P(ggx))
        to input:  -rstd**2 * (mean(ggx * P(v)) * xhat + c * P(ggx) + mean(ggx * xhat) * P(v)) + rstd * P(grad * ggw)

    ``running`` (batch norm in evaluation): the statistics are those constants, so ``P`` is the identity and the
    first term to the input is 0.  ``view``: the shape a per-channel weight is seen in (batch norm)."""
    if running is None:  # the statistics of the input itself, computed again so that they are differentiated
        centred = input - input.mean(axes, keepdim=True)
        rstd = ((centred * centred).mean(axes, keepdim=True) + eps).rsqrt()
    else:
        centred = input - running[0].view(view)
        rstd = (running[1].view(view) + eps).rsqrt()
    xhat = centred * rstd

    def project(a):
        if running is not None:
            return a
        return a - a.mean(axes, keepdim=True) - xhat * (a * xhat).mean(axes, keepdim=True)

    def seen(t):  # a per-channel tensor broadcast against the input
        return t.view(view) if view is not None else t

    g_grad = x_grad = w_grad = None
    if ggx is not None:
        p_ggx = project(ggx)
        g_grad = p_ggx * rstd * seen(weight) if weight is not None else p_ggx * rstd
        if weight is not None:
            w_grad = _sum_over(grad * rstd * p_ggx, weight_axes)
        if running is None:
            v = grad * seen(weight) if weight is not None else grad
            p_v = project(v)
            c = (v * xhat).mean(axes, keepdim=True)
            x_grad = -(rstd * rstd) * ((ggx * p_v).mean(axes, keepdim=True) * xhat + c * p_ggx
                                       + (ggx * xhat).mean(axes, keepdim=True) * p_v)
    if ggw is not None:
        g_grad = _plus(g_grad, seen(ggw) * xhat)
        x_grad = _plus(x_grad, rstd * project(grad * seen(ggw)))
    if ggb is not None:
        g_grad = _plus(g_grad, seen(ggb).expand_as(grad))
    return g_grad, x_grad, w_grad


def _sum_over(t, axes):
    return t.sum(axes) if axes else t


def _plus(a, b):
    return b if a is None else a + b


def layer_norm(input, normalized_shape, weight=None, bias=None, eps=1e-5):
    """``torch.layer_norm``: PyTorch's checks, then one ``NativeLayerNorm`` node."""
    check_layer_norm(input, normalized_shape, weight, bias)
    return NativeLayerNorm.apply(input, defined(weight), defined(bias), tuple(normalized_shape), eps,
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
        x64 = x.astype(np.float64)  # (in the input's layout)
        if training:  # the statistics in double, as PyTorch's kernel accumulates them
            n = x.size // x.shape[1]
            mean = x64.sum(axis=axes, keepdims=True) / n  # (what x.mean(axes, dtype=float64) and x.var(...) compute)
            var = np.square(x64 - mean).sum(axis=axes) / n
            mean = mean.reshape(-1)
            if running_mean is not None:
                running_mean._data[...] = momentum * mean + (1 - momentum) * running_mean._data
            if running_var is not None:
                running_var._data[...] = momentum * (var * n / (n - 1)) + (1 - momentum) * running_var._data
            mean, invstd = mean.astype(x.dtype), (1.0 / np.sqrt(var + eps)).astype(x.dtype)
            save_mean, save_invstd = Tensor(mean), Tensor(invstd)
        else:
            mean, invstd = running_mean._data, 1 / np.sqrt(running_var._data + x.dtype.type(eps))
            save_mean, save_invstd = Tensor(np.zeros(0, x.dtype)), Tensor(np.zeros(0, x.dtype))
        # y = x * alpha + beta per channel, alpha and beta in the input's dtype, as PyTorch's
        # batch_norm_cpu_transform_input computes it with a fused multiply-add (one rounding: float64 inside)
        alpha = invstd * weight._data if has_weight else invstd
        beta = bias._data - mean * alpha if has_bias else -mean * alpha
        y = np.asarray(x64 * alpha.reshape(shape) + beta.reshape(shape), dtype=x.dtype)
        ctx.training, ctx.eps, ctx.axes, ctx.shape = training, eps, axes, shape
        ctx.save_for_backward(input, weight if has_weight else None, running_mean, running_var, save_mean, save_invstd)
        return Tensor(dense_in(y, batch_norm_order(x, (weight, bias, running_mean, running_var))))

    @staticmethod
    def backward(ctx, grad):
        input, weight, running_mean, running_var, save_mean, save_invstd = ctx.saved_tensors
        dx, dw, db = NativeBatchNormBackward.apply(grad, input, defined(weight), defined(running_mean),
                                                   defined(running_var), (save_mean, save_invstd), ctx.training,
                                                   ctx.eps, ctx.needs_input_grad[:3], weight is not None)
        return dx, dw, db, None, None, None, None, None, None


class NativeBatchNormBackward(Op):
    """batch_norm's backward formula as one op (PyTorch: ``native_batch_norm_backward``; under
    ``create_graph=True`` the node ``NativeBatchNormBackwardBackward0``, with edges to grad, input, weight,
    running_mean and running_var).  ``saved`` is the pair ``(save_mean, save_invstd)`` of the forward (no edges).
    Its own backward is ``norm_double_backward`` over each channel's numbers."""
    node_name = "NativeBatchNormBackwardBackward0"

    @staticmethod
    def forward(ctx, grad, input, weight, running_mean, running_var, saved, training, eps, need, has_weight):
        x = input._data
        axes = (0,) + tuple(range(2, x.ndim))
        shape = [1, x.shape[1]] + [1] * (x.ndim - 2)
        if training:
            mean, invstd = saved[0]._data, saved[1]._data
        else:
            mean, invstd = running_mean._data, 1.0 / np.sqrt(running_var._data.astype(np.float64) + eps)
        dx, dw, db = _batch_norm_backward(grad._data, x, weight._data if has_weight else None, mean, invstd,
                                          training, axes, shape)
        ctx.save_for_backward(grad, input, weight if has_weight else None,
                              None if training else running_mean, None if training else running_var)
        ctx.training, ctx.eps, ctx.axes, ctx.shape = training, eps, axes, shape
        ctx.set_materialize_grads(False)  # (as in NativeLayerNormBackward)
        return dx if need[0] else None, dw if need[1] else None, db if need[2] else None

    @staticmethod
    def backward(ctx, ggx, ggw, ggb):
        grad, input, weight, running_mean, running_var = ctx.saved_tensors
        g_grad, x_grad, w_grad = norm_double_backward(ggx, ggw, ggb, grad, input, weight, ctx.axes, ctx.axes, ctx.eps,
                                                      ctx.shape, None if ctx.training else (running_mean, running_var))
        return g_grad, x_grad, w_grad, None, None, None, None, None, None, None


def _batch_norm_backward(g, x, w, mean, invstd, training, axes, shape):
    """PyTorch's ``batch_norm_backward_cpu`` on arrays: per channel, with ``xmu = x - mean``,
    ``dotp = sum(grad * xmu)`` and ``gsum = sum(grad)``: ``dweight = dotp * invstd``, ``dbias = gsum``, and
    ``dx = (grad - gsum / n - xmu * dotp * invstd**2 / n) * invstd * weight`` in training (the mean and the
    variance depend on x), ``grad * invstd * weight`` in evaluation (they are constants)."""
    g64 = g.astype(np.float64)
    invstd = invstd.astype(np.float64)
    xmu = x - mean.astype(np.float64).reshape(shape)
    gsum = g64.sum(axis=axes)
    dotp = (g64 * xmu).sum(axis=axes)
    scale = invstd * w if w is not None else invstd
    if training:
        n = x.size // x.shape[1]
        dx = (g64 - (gsum / n).reshape(shape) - xmu * (dotp * invstd * invstd / n).reshape(shape)) * scale.reshape(shape)
    else:
        dx = g64 * scale.reshape(shape)
    return Tensor(dx.astype(g.dtype)), Tensor((dotp * invstd).astype(g.dtype)), Tensor(gsum.astype(g.dtype))


def batch_norm(input, running_mean, running_var, weight, bias, training, momentum, eps):
    """``torch.batch_norm``: PyTorch's checks (``_batch_norm_impl_index``), then one ``NativeBatchNorm`` node."""
    if input.numel() == 0:  # no numbers: PyTorch returns a copy (times weight[0], plus bias[0]: C++'s select(0, 0)),
        out = input.clone()  # before any check of the other arguments' sizes or of the dtype
        out = out * weight.select(0, 0) if weight is not None else out
        return out + bias.select(0, 0) if bias is not None else out
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
    return NativeBatchNorm.apply(input, defined(weight), defined(bias), (running_mean, running_var), training,
                                 momentum, eps, weight is not None, bias is not None)


def batch_norm_order(x, params):
    """The layout of batch_norm's output (PyTorch's ``batch_norm_cpu``): when the input is dense row-major or
    channels-last and the 1-d ``params`` (weight, bias, running statistics) are dense, that layout (row-major if it
    is both); otherwise what the input's strides suggest."""
    params_dense = all(t is None or t._data.ndim != 1 or dense_in_order(t._data, (0,)) for t in params)
    if params_dense and dense_in_order(x, row_major_order(x.ndim)):
        return row_major_order(x.ndim)
    if params_dense and x.ndim in (4, 5) and dense_in_order(x, channels_last_order(x.ndim)):
        return channels_last_order(x.ndim)
    return suggested_order(x)


def dense_in(y, order):
    """The numbers of ``y`` in a new array laid out densely in ``order`` (``y`` itself if it is already: the strides
    of its dims of size 1 too, as PyTorch's ``empty_like(input, memory_format)`` gives them)."""
    slowest_first = order[::-1]
    z = y.transpose(slowest_first)
    stride, dense = z.itemsize, []
    for size in z.shape[::-1]:  # (each dim's stride: the product of the later sizes)
        dense.insert(0, stride)
        stride *= size
    if z.strides != tuple(dense):
        z = z.copy()
    return z.transpose(np.argsort(slowest_first)) if slowest_first != tuple(range(y.ndim)) else z
