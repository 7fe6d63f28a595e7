"""Pooling layers: ``F.max_pool1d/2d``, ``F.avg_pool1d/2d``, ``F.adaptive_avg_pool1d/2d``,
``F.adaptive_max_pool2d`` and their modules.  PyTorch: ``torch/nn/modules/pooling.py`` and the checks of
``aten/src/ATen/native/Pool.h``.

The numbers are the ops of ``ops/pool.py`` on 2-d images; a 1-d pool is the 2-d one on images of height 1,
recorded as PyTorch records it: ``unsqueeze(-2)``, the 2-d op, ``squeeze(-2)``.  An adaptive average pool
to a single place is a ``mean`` over the last two dims (``MeanBackward1``), as in PyTorch.
"""
from ..ops import pool
from .conv import per_dim
from .module import Module

_NAMES = {"int64": "Long", "int32": "Int", "int16": "Short", "int8": "Char", "uint8": "Byte", "bool": "Bool"}


def pair(value, what, name, allow_empty=False):
    """``kernel_size``, ``stride``, ``padding``, ``dilation`` of a 2-d pool: an int or one or two ints."""
    if isinstance(value, int):
        return (value, value)
    value = tuple(value)
    if len(value) == 1:
        return value * 2
    if len(value) == 2 or (allow_empty and not value):
        return value
    omitted = "omitted, " if allow_empty else ""
    raise RuntimeError(f"{name}: {what} must either be {omitted}a single int, or a tuple of two ints")


def pool_geometry(input, kernel, stride, padding, dilation, ceil_mode):
    """The output size (OH, OW) of a pool, with PyTorch's checks (``pooling_output_shape``, ``pool2d_shape_check``)."""
    _check_images(input)
    steps = stride or kernel
    for k, s, p, d in zip(kernel, steps, padding, dilation):
        if s == 0:
            raise RuntimeError("stride should not be zero")
        if p < 0:
            raise RuntimeError(f"pad must be non-negative, but got pad: {p}")
        if p > ((k - 1) * d + 1) // 2:
            raise RuntimeError(f"pad should be at most half of effective kernel size, but got pad={p}, "
                               f"kernel_size={k} and dilation={d}")
    out = tuple(pool.pooled_size(size, k, s, p, d, ceil_mode)
                for size, k, s, p, d in zip(input.shape[-2:], kernel, steps, padding, dilation))
    if kernel[0] <= 0 or kernel[1] <= 0:
        raise RuntimeError(f"kernel size should be greater than zero, but got kH: {kernel[0]} kW: {kernel[1]}")
    if dilation[0] <= 0 or dilation[1] <= 0:
        raise RuntimeError(f"dilation should be greater than zero, but got dilationH: {dilation[0]} dilationW: "
                           f"{dilation[1]}")
    if out[0] < 1 or out[1] < 1:
        c, h, w = input.shape[-3:]
        raise RuntimeError(f"Given input size: ({c}x{h}x{w}). Calculated output size: ({c}x{out[0]}x{out[1]}). "
                           "Output size is too small")
    return out


def _check_images(input):
    """A pool's input: (C, H, W) or (N, C, H, W), no empty dim but the batch."""
    if input.dim() not in (3, 4):
        raise RuntimeError("non-empty 3D or 4D (batch mode) tensor expected for input")
    if 0 in input.shape[-3:]:
        raise RuntimeError(f"Expected 3D or 4D (batch mode) tensor with optional 0 dim batch size for input, but "
                           f"got:{list(input.shape)}")


def max_pool2d(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False, return_indices=False):
    """``F.max_pool2d``: the maximum of each window (node ``MaxPool2DWithIndicesBackward0``); with
    ``return_indices`` also where it is, ``h * W + w`` of the input."""
    kernel = pair(kernel_size, "kernel_size", "max_pool2d")
    stride = pair(() if stride is None else stride, "stride", "max_pool2d", allow_empty=True)
    padding, dilation = pair(padding, "padding", "max_pool2d"), pair(dilation, "dilation", "max_pool2d")
    out = pool_geometry(input, kernel, stride, padding, dilation, ceil_mode)
    values, indices = pool.MaxPool2d.apply(input, kernel, stride, padding, dilation, ceil_mode, out)
    return (values, indices) if return_indices else values


def max_pool1d(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False, return_indices=False):
    """``F.max_pool1d``: ``max_pool2d`` on images of height 1 (``unsqueeze(-2)`` before, ``squeeze(-2)`` after)."""
    if input.dim() not in (2, 3):
        raise RuntimeError(f"max_pool1d: Expected 2D or 3D (batch mode) tensor with optional 0 dim batch size for "
                           f"input, but got:{list(input.shape)}")
    kernel, = per_dim(kernel_size, 1, "kernel_size")
    step, = per_dim(kernel if stride is None or stride == () else stride, 1, "stride")
    pad, = per_dim(padding, 1, "padding")
    dil, = per_dim(dilation, 1, "dilation")
    out = pool.pooled_size(input.shape[-1], kernel, step, pad, dil, ceil_mode) if step > 0 else 0
    for what, value, ok in (("kernel_size must be greater than zero", kernel, kernel > 0),
                            ("stride must be greater than zero", step, step > 0),
                            ("padding must be non-negative", pad, pad >= 0),
                            ("dilation must be greater than zero", dil, dil > 0)):
        if not ok:
            raise RuntimeError(f"max_pool1d() {what}, but got {value}")
    if pad > kernel // 2:
        raise RuntimeError(f"max_pool1d() padding should be at most half of kernel size, but got padding={pad} and "
                           f"kernel_size={kernel}")
    if out < 1:
        raise RuntimeError(f"max_pool1d() Invalid computed output size: {out}")
    values, indices = pool.MaxPool2d.apply(input.unsqueeze(-2), (1, kernel), (1, step), (0, pad), (1, dil),
                                           ceil_mode, (1, out))
    if return_indices:
        return values.squeeze(-2), indices.squeeze(-2)
    return values.squeeze(-2)


def avg_pool2d(input, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True,
               divisor_override=None):
    """``F.avg_pool2d``: the mean of each window (node ``AvgPool2DBackward0``); ``count_include_pad=False``
    divides by the places inside the input only, ``divisor_override`` by that number."""
    kernel = pair(kernel_size, "kernel_size", "avg_pool2d")
    stride = pair(() if stride is None else stride, "stride", "avg_pool2d", allow_empty=True)
    padding = pair(padding, "padding", "avg_pool2d")
    if input.dim() < 3:  # (PyTorch asks for the size of dim -3 first)
        raise IndexError(f"Dimension out of range (expected to be in range of [{-input.dim()}, {input.dim() - 1}], "
                         "but got -3)")
    if divisor_override is not None and divisor_override == 0:
        raise RuntimeError("divisor must be not zero")
    out = pool_geometry(input, kernel, stride, padding, (1, 1), ceil_mode)
    return pool.AvgPool2d.apply(input, kernel, stride, padding, ceil_mode, count_include_pad, divisor_override, out)


def avg_pool1d(input, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True):
    """``F.avg_pool1d``: ``avg_pool2d`` on images of height 1 (``unsqueeze(-2)`` before, ``squeeze(-2)`` after)."""
    if input.dim() not in (2, 3):
        raise RuntimeError(f"Expected 2 to 3 dimensions, but got {input.dim()}-dimensional tensor for argument #1 "
                           "'self' (while checking arguments for avg_pool1d)")
    kernel, = per_dim(kernel_size, 1, "kernel_size")
    step, = per_dim(kernel if stride is None or stride == () else stride, 1, "stride")
    pad, = per_dim(padding, 1, "padding")
    return avg_pool2d(input.unsqueeze(-2), (1, kernel), (1, step), (0, pad), ceil_mode, count_include_pad).squeeze(-2)


def adaptive_size(output_size, input):
    """``output_size`` as two ints: an int for both, ``None`` for the input's own size."""
    size = (output_size, output_size) if isinstance(output_size, int) else tuple(output_size)
    if len(size) != 2:
        return size
    return tuple(input.shape[-2 + i] if s is None else s for i, s in enumerate(size))


def adaptive_avg_pool2d(input, output_size):
    """``F.adaptive_avg_pool2d``: ``output_size`` windows, each averaged (node ``AdaptiveAvgPool2DBackward0``; to
    a single place, ``input.mean((-1, -2), keepdim=True)``, node ``MeanBackward1``)."""
    size = adaptive_size(output_size, input)
    if len(size) != 2:
        raise RuntimeError("adaptive_avg_pool2d: output_size must be 2")
    if input.dim() not in (3, 4):
        raise RuntimeError(f"adaptive_avg_pool2d(): Expected 3D or 4D tensor, but got {list(input.shape)}")
    if not input.is_floating_point():
        raise NotImplementedError(f"\"adaptive_avg_pool2d\" not implemented for '{_NAMES.get(input.dtype.name)}'")
    if size == (1, 1):
        return input.mean((-1, -2), keepdim=True)
    return pool.AdaptiveAvgPool2d.apply(input, size)


def adaptive_avg_pool1d(input, output_size):
    """``F.adaptive_avg_pool1d``: ``adaptive_avg_pool2d`` to (1, output_size) of images of height 1."""
    if input.dim() not in (2, 3):
        raise RuntimeError(f"Expected 2 to 3 dimensions, but got {input.dim()}-dimensional tensor for argument #1 "
                           "'self' (while checking arguments for adaptive_avg_pool1d)")
    size, = per_dim(output_size, 1, "output_size")
    return adaptive_avg_pool2d(input.unsqueeze(-2), (1, size)).squeeze(-2)


def adaptive_max_pool2d(input, output_size, return_indices=False):
    """``F.adaptive_max_pool2d``: ``output_size`` windows, the maximum of each (node ``AdaptiveMaxPool2DBackward0``)."""
    size = adaptive_size(output_size, input)
    if input.dim() not in (3, 4):
        raise RuntimeError(f"adaptive_max_pool2d(): Expected 3D or 4D tensor, but got: {list(input.shape)}")
    if len(size) != 2:
        raise RuntimeError("adaptive_max_pool2d(): internal error: output_size.size() must be 2")
    values, indices = pool.AdaptiveMaxPool2d.apply(input, size)
    return (values, indices) if return_indices else values


# ------------------------------------------------------------------ modules
class _MaxPoolNd(Module):
    """What ``MaxPool1d`` and ``MaxPool2d`` keep: the arguments as given, ``stride`` the kernel's when omitted."""

    def __init__(self, kernel_size, stride=None, padding=0, dilation=1, return_indices=False, ceil_mode=False):
        super().__init__()
        self.kernel_size = kernel_size
        self.stride = stride if (stride is not None) else kernel_size
        self.padding, self.dilation = padding, dilation
        self.return_indices, self.ceil_mode = return_indices, ceil_mode

    def extra_repr(self):
        return (f"kernel_size={self.kernel_size}, stride={self.stride}, padding={self.padding}, "
                f"dilation={self.dilation}, ceil_mode={self.ceil_mode}")


class MaxPool1d(_MaxPoolNd):
    """``nn.MaxPool1d``: ``F.max_pool1d`` with the arguments it was made with."""

    def forward(self, input):
        return max_pool1d(input, self.kernel_size, self.stride, self.padding, self.dilation, ceil_mode=self.ceil_mode,
                          return_indices=self.return_indices)


class MaxPool2d(_MaxPoolNd):
    """``nn.MaxPool2d``: ``F.max_pool2d`` with the arguments it was made with."""

    def forward(self, input):
        return max_pool2d(input, self.kernel_size, self.stride, self.padding, self.dilation, ceil_mode=self.ceil_mode,
                          return_indices=self.return_indices)


class AvgPool1d(Module):
    """``nn.AvgPool1d``: ``F.avg_pool1d``; keeps its arguments as 1-tuples, as PyTorch's does."""

    def __init__(self, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True):
        super().__init__()
        self.kernel_size = per_dim(kernel_size, 1, "kernel_size")
        self.stride = per_dim(stride if stride is not None else kernel_size, 1, "stride")
        self.padding = per_dim(padding, 1, "padding")
        self.ceil_mode, self.count_include_pad = ceil_mode, count_include_pad

    def forward(self, input):
        return avg_pool1d(input, self.kernel_size, self.stride, self.padding, self.ceil_mode, self.count_include_pad)

    def extra_repr(self):
        return f"kernel_size={self.kernel_size}, stride={self.stride}, padding={self.padding}"


class AvgPool2d(Module):
    """``nn.AvgPool2d``: ``F.avg_pool2d`` with the arguments it was made with."""

    def __init__(self, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True,
                 divisor_override=None):
        super().__init__()
        self.kernel_size = kernel_size
        self.stride = stride if (stride is not None) else kernel_size
        self.padding, self.ceil_mode = padding, ceil_mode
        self.count_include_pad, self.divisor_override = count_include_pad, divisor_override

    def forward(self, input):
        return avg_pool2d(input, self.kernel_size, self.stride, self.padding, self.ceil_mode, self.count_include_pad,
                          self.divisor_override)

    def extra_repr(self):
        return f"kernel_size={self.kernel_size}, stride={self.stride}, padding={self.padding}"


class _AdaptivePoolNd(Module):
    """What the adaptive pools keep: ``output_size`` as given."""

    def __init__(self, output_size):
        super().__init__()
        self.output_size = output_size

    def extra_repr(self):
        return f"output_size={self.output_size}"


class AdaptiveAvgPool1d(_AdaptivePoolNd):
    """``nn.AdaptiveAvgPool1d``: ``F.adaptive_avg_pool1d(input, output_size)``."""

    def forward(self, input):
        return adaptive_avg_pool1d(input, self.output_size)


class AdaptiveAvgPool2d(_AdaptivePoolNd):
    """``nn.AdaptiveAvgPool2d``: ``F.adaptive_avg_pool2d(input, output_size)``."""

    def forward(self, input):
        return adaptive_avg_pool2d(input, self.output_size)


class AdaptiveMaxPool2d(_AdaptivePoolNd):
    """``nn.AdaptiveMaxPool2d``: ``F.adaptive_max_pool2d(input, output_size, return_indices)``."""

    def __init__(self, output_size, return_indices=False):
        super().__init__(output_size)
        self.return_indices = return_indices

    def forward(self, input):
        return adaptive_max_pool2d(input, self.output_size, self.return_indices)
