"""Pooling: max, average and adaptive pools over 2-d images.  PyTorch: ``aten/src/ATen/native/Pooling.cpp``,
``DilatedMaxPool2d.cpp``, ``AveragePool2d.cpp``, ``AdaptiveAveragePooling.cpp``, ``AdaptiveMaxPooling2d.cpp``.

Each op takes ``(N, C, H, W)`` or ``(C, H, W)``; the 1-d pools are these on images of height 1, with the
``unsqueeze`` and ``squeeze`` PyTorch records around them (``pool1d`` in ``nn/pooling.py``).
A max pool's backward sends each gradient to the place its maximum came from (the first maximum of the window);
an average pool's backward spreads it evenly over the window.  Each backward is an op with the node PyTorch
records for it under ``create_graph=True`` (``MaxPool2DWithIndicesBackwardBackward0``, ...).
"""
import numpy as np

from .dispatch import Op
from ._util import NoEdge
from .._core.tensor_base import TensorBase as Tensor
from .conv import add_windows, windows
from .._core.layout import channels_last_order, suggested_order, with_strides


def pooled_size(size, kernel, stride, padding, dilation, ceil_mode):
    """How many windows a pool takes along a dim (PyTorch: ``pooling_output_shape``): with ``ceil_mode`` a last
    window that sticks out past the end counts too, if it starts inside the input or its left padding."""
    span = size + 2 * padding - dilation * (kernel - 1) - 1 + (stride - 1 if ceil_mode else 0)
    out = span // stride + 1
    if ceil_mode and (out - 1) * stride >= size + padding:
        out -= 1
    return out


def as_images(x):
    """The numbers of ``x`` as (N, C, H, W): a (C, H, W) input is one image."""
    return x if x.ndim == 4 else x[None]


def as_input(y, x):
    """An (N, C, H', W') result back as the rank of the input ``x`` (an array), laid out as PyTorch's CPU pooling
    kernels lay out what they make: channels-last when a 4-d ``x`` suggests it (``x.suggest_memory_format()``),
    else row-major."""
    if x.ndim != 4:
        return np.ascontiguousarray(y[0])
    if not suggests_channels_last(x):
        return np.ascontiguousarray(y)
    n, c, h, w = y.shape
    return with_strides(y, tuple(y.itemsize * s for s in (h * w * c, 1, w * c, c)))  # (get_channels_last_strides_2d)


def suggests_channels_last(x):
    """Does PyTorch's ``suggest_memory_format()`` of the 4-d array ``x`` give ChannelsLast (``_core/layout.py``)?"""
    return suggested_order(x) == channels_last_order(4)


def pool_pads(sizes, kernel, stride, padding, dilation, out):
    """The (before, after) padding of each dim: ``padding``, and at the end as many more places as a last window
    in ceil mode needs."""
    return tuple((p, max((o - 1) * s + d * (k - 1) + 1 - size - p, p))
                 for size, k, s, p, d, o in zip(sizes, kernel, stride, padding, dilation, out))


def padded_for_pool(x, kernel, stride, padding, dilation, out, value):
    """``x`` (N, C, H, W) padded with ``value`` as ``pool_pads`` says."""
    pads = pool_pads(x.shape[2:], kernel, stride, padding, dilation, out)
    return np.pad(x, ((0, 0), (0, 0)) + pads, constant_values=value)


def lowest(dtype):
    """The padding of a max pool: a value no number beats (-inf, or the integer type's smallest)."""
    return -np.inf if dtype.kind == "f" else np.iinfo(dtype).min


# ------------------------------------------------------------------ max pool
def window_max(cols, place):
    """The maximum of each window of ``cols`` (..., K) and where it is, 0..K-1: the first maximum, or a nan
    (PyTorch's kernel keeps a value when it is greater than the maximum so far, or nan)."""
    arg = cols.argmax(axis=-1)
    if cols.dtype.kind == "f":
        nan = np.isnan(cols)
        if nan.any():  # (the last nan of the window)
            last_nan = cols.shape[-1] - 1 - nan[..., ::-1].argmax(axis=-1)
            arg = np.where(nan.any(axis=-1), last_nan, arg)
    values = np.take_along_axis(cols, arg[..., None], axis=-1)[..., 0]
    return values, place(arg)


def running_max(cols, stride, padding, dilation):
    """The maximum of each window of ``cols`` (N, C, OH, OW, kh, kw) and its offset ``i * kw + j`` in the window,
    as PyTorch's kernel finds it: from the window's first place inside the input, one kernel offset after the
    other, a value replaces the maximum when it is greater, or nan (so the first maximum, or the last nan)."""
    n, c, oh, ow, kh, kw = cols.shape
    first_i = np.maximum(-(-(padding[0] - np.arange(oh) * stride[0]) // dilation[0]), 0)  # first row inside
    first_j = np.maximum(-(-(padding[1] - np.arange(ow) * stride[1]) // dilation[1]), 0)
    best = np.ascontiguousarray(cols[:, :, np.arange(oh)[:, None], np.arange(ow), first_i[:, None], first_j])
    offset = np.broadcast_to((first_i[:, None] * kw + first_j).astype(np.int32), best.shape).copy()
    for k in range(kh * kw):
        value = cols[..., k // kw, k % kw]
        better = value > best
        if cols.dtype.kind == "f":
            better |= np.isnan(value)
        offset += better * (k - offset)  # (arithmetic, not a masked copy: numpy does it many times faster)
        best = np.maximum(best, value)  # (a nan stays, and a nan in value comes in: as the comparisons above)
    zeros = np.nonzero(best == 0)  # (of 0.0 and -0.0 the maximum is the one at the offset found)
    if zeros[0].size:
        best[zeros] = cols[zeros + (offset[zeros] // kw, offset[zeros] % kw)]
    return best, offset


class MaxPool2d(Op):
    """``F.max_pool2d(x, kernel_size, stride, padding, dilation, ceil_mode, return_indices)``: the maximum of
    each window, and its place in the input as ``h * W + w`` (PyTorch: ``max_pool2d_with_indices``, node
    ``MaxPool2DWithIndicesBackward0``).  dL/dx: each gradient added at its maximum's place."""
    node_name = "MaxPool2DWithIndicesBackward0"
    saved_names = {"self": 0, "kernel_size": "kernel_size", "stride": "stride", "padding": "padding",
                   "dilation": "dilation", "ceil_mode": "ceil_mode", "result1": 1}

    @staticmethod
    def forward(ctx, input, kernel_size, stride, padding, dilation, ceil_mode, out):
        ctx.kernel_size, ctx.stride, ctx.padding, ctx.dilation, ctx.ceil_mode = (kernel_size, stride, padding,
                                                                                 dilation, ceil_mode)
        x = as_images(input._data)
        stride = stride or kernel_size  # (no stride given: the kernel's size)
        xp = padded_for_pool(x, kernel_size, stride, padding, dilation, out, lowest(x.dtype))
        values, offset = running_max(windows(xp, kernel_size, stride, dilation, out), stride, padding, dilation)
        (kh, kw), (sh, sw), (ph, pw), (dh, dw), width = kernel_size, stride, padding, dilation, x.shape[3]
        offsets = (np.arange(kh)[:, None] * dh * width + np.arange(kw) * dw).ravel()  # offset k -> h * W + w
        corners = (np.arange(out[0])[:, None] * sh - ph) * width + np.arange(out[1]) * sw - pw
        indices = corners + offsets[offset]
        indices = Tensor(as_input(indices.astype(np.int64), input._data))
        ctx.mark_non_differentiable(indices)
        ctx.save_for_backward(input, indices)  # (the indices too: changed in place before backward, they raise)
        return Tensor(as_input(values, input._data)), indices

    @staticmethod
    def backward(ctx, grad, _grad_indices):
        input, indices = ctx.saved_tensors
        return (MaxPoolBackward.apply(grad, input, NoEdge(indices)),) + (None,) * 6


def scattered(grad, indices, shape):
    """A zero array of ``shape`` (N, C, H, W) or (C, H, W), each ``grad`` added at its place ``indices`` (h * W + w)
    of its image: one ``np.bincount`` (PyTorch's kernel adds them one by one)."""
    planes = int(np.prod(shape[:-2]))
    area = shape[-2] * shape[-1]
    places = indices.shape[-2] * indices.shape[-1]
    flat = indices.reshape(planes, places) + (np.arange(planes) * area)[:, None]
    total = np.bincount(flat.ravel(), weights=grad.reshape(planes, places).ravel(), minlength=planes * area)
    # (a dilated window that misses the image has the place just past its row, which PyTorch's kernel writes to as
    # to one flat array: into the next image, or nowhere past the last one; minigrad does the same)
    return total[:planes * area].astype(grad.dtype).reshape(shape)


class MaxPoolBackward(Op):
    """dL/dx of a max pool as an op (PyTorch: ``max_pool2d_with_indices_backward``, node
    ``MaxPool2DWithIndicesBackwardBackward0``).  It is linear in ``grad``: its own gradient picks, for each
    window, the gradient at its maximum's place (``gather``)."""
    node_name = "MaxPool2DWithIndicesBackwardBackward0"
    saved_names = {"indices": 0}  # (grad_fn._saved_indices)

    @staticmethod
    def forward(ctx, grad, input, indices):  # (indices: a NoEdge, so no edge for it; saved)
        ctx.save_for_backward(indices.tensor)
        ctx.input_meta = (input._data.shape, input._data.dtype)
        return Tensor(as_input(as_images(scattered(grad._data, indices.tensor._data, input._data.shape)), input._data))

    @staticmethod
    def backward(ctx, gg):
        indices, = ctx.saved_tensors
        if not ctx.needs_input_grad[0]:  # (as PyTorch: no gather, which a window missing the image would fail)
            return None, zeros_for_input(ctx), None
        picked = gg.flatten(-2).gather(-1, indices.flatten(-2)).view(indices.shape)
        return picked, zeros_for_input(ctx), None


# ------------------------------------------------------------------ average pool
def divisors(size, kernel, stride, padding, out, count_include_pad):
    """What each window's sum is divided by along one dim (PyTorch's ``avg_pool2d`` kernel): the window's length
    within the input and its padding, or with ``count_include_pad=False`` within the input only."""
    start = np.arange(out) * stride - padding
    end = np.minimum(start + kernel, size + padding)
    if count_include_pad:
        return end - start
    return np.minimum(end, size) - np.maximum(start, 0)


def avg_divisor(shape, kernel, stride, padding, out, count_include_pad, divisor_override):
    """The divisor of each output place, (OH, OW), or the number ``divisor_override``."""
    if divisor_override:
        return divisor_override
    rows = divisors(shape[0], kernel[0], stride[0], padding[0], out[0], count_include_pad)
    columns = divisors(shape[1], kernel[1], stride[1], padding[1], out[1], count_include_pad)
    return np.outer(rows, columns)


def divided(total, divisor, dtype):
    """``total / divisor`` in ``dtype`` (an integer average is cut toward zero, as in C++)."""
    if np.dtype(dtype).kind == "f":
        return (total / np.asarray(divisor, dtype)).astype(dtype)
    return np.trunc(total / divisor).astype(dtype)


class AvgPool2d(Op):
    """``F.avg_pool2d(x, kernel_size, stride, padding, ceil_mode, count_include_pad, divisor_override)``: each
    window's sum divided by its size (PyTorch: ``avg_pool2d``, node ``AvgPool2DBackward0``).
    dL/dx: each gradient divided by the same divisor, added to every place of its window."""
    node_name = "AvgPool2DBackward0"
    saved_names = {"self": 0, "kernel_size": "kernel_size", "stride": "stride", "padding": "padding",
                   "ceil_mode": "ceil_mode", "count_include_pad": "count_include_pad",
                   "divisor_override": "divisor_override"}

    @staticmethod
    def forward(ctx, input, kernel_size, stride, padding, ceil_mode, count_include_pad, divisor_override, out):
        ctx.save_for_backward(input)
        ctx.kernel_size, ctx.stride, ctx.padding, ctx.ceil_mode = kernel_size, stride, padding, ceil_mode
        ctx.count_include_pad, ctx.divisor_override, ctx.out = count_include_pad, divisor_override, out
        x = as_images(input._data)
        stride_ = stride or kernel_size
        xp = padded_for_pool(x, kernel_size, stride_, padding, (1, 1), out, 0)
        total = windows(xp, kernel_size, stride_, (1, 1), out).sum(axis=(-2, -1))
        divisor = avg_divisor(x.shape[2:], kernel_size, stride_, padding, out, count_include_pad, divisor_override)
        return Tensor(as_input(divided(total, divisor, x.dtype), input._data))

    @staticmethod
    def backward(ctx, grad):
        input, = ctx.saved_tensors
        return (AvgPoolBackward.apply(grad, input, ctx.kernel_size, ctx.stride, ctx.padding, ctx.ceil_mode,
                                      ctx.count_include_pad, ctx.divisor_override, ctx.out),) + (None,) * 7


class AvgPoolBackward(Op):
    """dL/dx of an average pool as an op (PyTorch: ``avg_pool2d_backward``, node ``AvgPool2DBackwardBackward0``).
    It is the average pool's adjoint, so its own gradient is the average pool of ``gg``."""
    node_name = "AvgPool2DBackwardBackward0"
    saved_names = {"kernel_size": "kernel_size", "stride": "stride", "padding": "padding", "ceil_mode": "ceil_mode",
                   "count_include_pad": "count_include_pad", "divisor_override": "divisor_override"}

    @staticmethod
    def forward(ctx, grad, input, kernel_size, stride, padding, ceil_mode, count_include_pad, divisor_override, out):
        ctx.kernel_size, ctx.stride, ctx.padding, ctx.ceil_mode = kernel_size, stride, padding, ceil_mode
        ctx.count_include_pad, ctx.divisor_override, ctx.out = count_include_pad, divisor_override, out
        ctx.input_meta = input._data.shape, input._data.dtype
        x = as_images(input._data)
        stride_ = stride or kernel_size
        divisor = avg_divisor(x.shape[2:], kernel_size, stride_, padding, out, count_include_pad, divisor_override)
        share = as_images(grad._data) / np.asarray(divisor, grad._data.dtype)
        cols = np.broadcast_to(share[..., None, None], share.shape + tuple(kernel_size))
        pads = pool_pads(x.shape[2:], kernel_size, stride_, padding, (1, 1), out)
        shape = x.shape[:2] + tuple(size + before + after for size, (before, after) in zip(x.shape[2:], pads))
        image = add_windows(cols, shape, stride_, (1, 1))  # (the padded image, cut below)
        (ph, pw), (h, w) = padding, x.shape[2:]
        return Tensor(as_input(np.ascontiguousarray(image[:, :, ph:ph + h, pw:pw + w]), input._data))

    @staticmethod
    def backward(ctx, gg):
        return (AvgPool2d.apply(gg, ctx.kernel_size, ctx.stride, ctx.padding, ctx.ceil_mode, ctx.count_include_pad,
                                ctx.divisor_override, ctx.out), zeros_for_input(ctx)) + (None,) * 7


# ------------------------------------------------------------------ adaptive pools
def adaptive_ranges(size, out):
    """The windows of an adaptive pool along a dim: ``[floor(i * size / out), ceil((i + 1) * size / out))``."""
    return [(i * size // out, -(-(i + 1) * size // out)) for i in range(out)]


class AdaptiveAvgPool2d(Op):
    """``F.adaptive_avg_pool2d(x, output_size)``: the input cut into ``output_size`` windows (overlapping
    where the sizes do not divide), each averaged (PyTorch: ``_adaptive_avg_pool2d``, node
    ``AdaptiveAvgPool2DBackward0``).  dL/dx: each gradient spread evenly over its window."""
    node_name = "AdaptiveAvgPool2DBackward0"
    saved_names = {"self": 0}

    @staticmethod
    def forward(ctx, input, output_size):
        ctx.save_for_backward(input)
        x = as_images(input._data)
        y = np.empty(x.shape[:2] + tuple(output_size), x.dtype)
        for i, (h0, h1) in enumerate(adaptive_ranges(x.shape[2], output_size[0])):
            for j, (w0, w1) in enumerate(adaptive_ranges(x.shape[3], output_size[1])):
                y[:, :, i, j] = divided(x[:, :, h0:h1, w0:w1].sum(axis=(2, 3)), (h1 - h0) * (w1 - w0), x.dtype)
        return Tensor(as_input(y, input._data))

    @staticmethod
    def backward(ctx, grad):
        input, = ctx.saved_tensors
        return AdaptiveAvgPoolBackward.apply(grad, input), None


class AdaptiveAvgPoolBackward(Op):
    """dL/dx of an adaptive average pool as an op (PyTorch: ``_adaptive_avg_pool2d_backward``, node
    ``AdaptiveAvgPool2DBackwardBackward0``); its own gradient is the adaptive average pool of ``gg``."""
    node_name = "AdaptiveAvgPool2DBackwardBackward0"
    saved_names = {"grad_output_sym_argsize_minus_2": "height", "grad_output_sym_argsize_minus_1": "width"}

    @staticmethod
    def forward(ctx, grad, input):
        g, x = as_images(grad._data), as_images(input._data)
        ctx.height, ctx.width = g.shape[2:]
        ctx.input_meta = input._data.shape, input._data.dtype
        dx = np.zeros(x.shape, g.dtype)
        for i, (h0, h1) in enumerate(adaptive_ranges(x.shape[2], ctx.height)):
            for j, (w0, w1) in enumerate(adaptive_ranges(x.shape[3], ctx.width)):
                dx[:, :, h0:h1, w0:w1] += g[:, :, i, j, None, None] / np.asarray((h1 - h0) * (w1 - w0), g.dtype)
        return Tensor(as_input(dx, input._data))

    @staticmethod
    def backward(ctx, gg):
        return AdaptiveAvgPool2d.apply(gg, (ctx.height, ctx.width)), zeros_for_input(ctx)


def zeros_for_input(ctx):
    """A pool's backward is linear in ``grad`` and does not depend on the input's values: the input's gradient is
    zeros (derivatives.yaml: ``self: zeros_like(self)``), not undefined."""
    return Tensor(np.zeros(*ctx.input_meta))


class AdaptiveMaxPool2d(Op):
    """``F.adaptive_max_pool2d(x, output_size, return_indices)``: the maximum of each adaptive window and its
    place ``h * W + w`` (PyTorch: ``adaptive_max_pool2d``, node ``AdaptiveMaxPool2DBackward0``)."""
    node_name = "AdaptiveMaxPool2DBackward0"
    saved_names = {"self": 0, "result1": 1}

    @staticmethod
    def forward(ctx, input, output_size):
        x = as_images(input._data)
        width = x.shape[3]
        values = np.empty(x.shape[:2] + tuple(output_size), x.dtype)
        indices = np.empty(values.shape, np.int64)
        for i, (h0, h1) in enumerate(adaptive_ranges(x.shape[2], output_size[0])):
            for j, (w0, w1) in enumerate(adaptive_ranges(x.shape[3], output_size[1])):
                window = x[:, :, h0:h1, w0:w1].reshape(x.shape[:2] + ((h1 - h0) * (w1 - w0),))
                values[:, :, i, j], indices[:, :, i, j] = window_max(
                    window, lambda arg: (h0 + arg // (w1 - w0)) * width + w0 + arg % (w1 - w0))
        indices = Tensor(as_input(indices, input._data))
        ctx.mark_non_differentiable(indices)
        ctx.save_for_backward(input, indices)  # (the indices too: changed in place before backward, they raise)
        return Tensor(as_input(values, input._data)), indices

    @staticmethod
    def backward(ctx, grad, _grad_indices):
        input, indices = ctx.saved_tensors
        return AdaptiveMaxPoolBackward.apply(grad, input, NoEdge(indices)), None


class AdaptiveMaxPoolBackward(MaxPoolBackward):
    """dL/dx of an adaptive max pool (node ``AdaptiveMaxPool2DBackwardBackward0``): as a max pool's."""
    node_name = "AdaptiveMaxPool2DBackwardBackward0"
