"""Pooling layers: ``F.max_pool1d/2d``, ``F.avg_pool1d/2d``, ``F.adaptive_avg_pool1d/2d``,
``F.adaptive_max_pool1d/2d`` and their modules, and the pools PyTorch also has at the top level
(``torch.max_pool1d``, ``torch.max_pool2d``, ``torch.max_pool1d_with_indices``, ``torch.adaptive_max_pool1d``).  PyTorch: ``torch/nn/modules/pooling.py`` and the checks of
``aten/src/ATen/native/Pool.h``.

The numbers are the ops of ``ops/pool.py`` on 2-d images; a 1-d pool is the 2-d one on images of height 1,
recorded as PyTorch records it: ``unsqueeze(-2)``, the 2-d op, ``squeeze(-2)``.  An adaptive average pool
to a single place is a ``mean`` over the last two dims (``MeanBackward1``), as in PyTorch.
"""
from .. import devices
from .._core.layout import channels_last_order, suggested_order
from ..autograd import grad_mode
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
    """The output size (OH, OW) of a pool, with PyTorch's checks in its order (``max_pool2d``'s meta function:
    the input's dims, then ``pooling_output_shape`` per dim, then ``pool2d_shape_check``)."""
    if input.dim() not in (3, 4):
        raise RuntimeError("non-empty 3D or 4D (batch mode) tensor expected for input")
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
    if steps[0] <= 0 or steps[1] <= 0:
        raise RuntimeError(f"stride should be greater than zero, but got dH: {steps[0]} dW: {steps[1]}")
    if dilation[0] <= 0 or dilation[1] <= 0:
        raise RuntimeError(f"dilation should be greater than zero, but got dilationH: {dilation[0]} dilationW: "
                           f"{dilation[1]}")
    if 0 in input.shape[-3:]:  # (only the batch may be empty)
        raise RuntimeError(f"Expected 3D or 4D (batch mode) tensor with optional 0 dim batch size for input, but "
                           f"got:{list(input.shape)}")
    if kernel[1] // 2 < padding[1] or kernel[0] // 2 < padding[0]:  # (``pool2d_shape_check``, after the above)
        raise RuntimeError(f"pad should be smaller than or equal to half of kernel size, but got padW = {padding[1]}, "
                           f"padH = {padding[0]}, kW = {kernel[1]}, kH = {kernel[0]}")
    if out[0] < 1 or out[1] < 1:
        c, h, w = input.shape[-3:]
        raise RuntimeError(f"Given input size: ({c}x{h}x{w}). Calculated output size: ({c}x{out[0]}x{out[1]}). "
                           "Output size is too small")
    return out


def max_pool2d(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False, return_indices=False):
    """``F.max_pool2d``: the maximum of each window (node ``MaxPool2DWithIndicesBackward0``); with
    ``return_indices`` also where it is, ``h * W + w`` of the input."""
    kernel = pair(kernel_size, "kernel_size", "max_pool2d")
    stride = pair(() if stride is None else stride, "stride", "max_pool2d", allow_empty=True)
    padding, dilation = pair(padding, "padding", "max_pool2d"), pair(dilation, "dilation", "max_pool2d")
    out = pool_geometry(input, kernel, stride, padding, dilation, ceil_mode)
    values, indices = pool.MaxPool2d.apply(input, kernel, stride, padding, dilation, ceil_mode, out)
    return (values, indices) if return_indices else values


def ints(value, function, name, position):
    """An ``int[]`` argument of a native pool as a tuple: an int is one (PyTorch's argument parser)."""
    if isinstance(value, int) and not isinstance(value, bool):
        return (value,)
    where = f"{function}(): argument '{name}' (position {position}) must be tuple of ints"
    if not isinstance(value, (tuple, list)):
        raise TypeError(f"{where}, not {type(value).__name__}")
    if value and not isinstance(value[0], int):
        raise TypeError(f"{where}, but found element of type {type(value[0]).__name__} at pos 0")
    for v in value:  # (a later element: PyTorch's parser words it another way)
        if not isinstance(v, int):
            raise TypeError(f"{function}(): argument '{name}' failed to unpack the object at pos {position} with "
                            f"error \"type must be tuple of ints,but got {type(v).__name__}\"")
    return tuple(value)


def one_int(value, function, name, position):
    """A 1-d pool's ``int[1]`` argument (PyTorch's ``check1d``): exactly one int."""
    value = ints(value, function, name, position)
    if len(value) != 1:
        raise RuntimeError(f"{function}() argument '{name}' should contain one int (got {len(value)})")
    return value[0]


def check_signal(input, function):
    """A 1-d pool's input: (C, L) or (N, C, L) (PyTorch's ``checkDimRange``)."""
    if input.dim() not in (2, 3):
        raise RuntimeError(f"Expected 2 to 3 dimensions, but got {input.dim()}-dimensional tensor for argument #1 "
                           f"'self' (while checking arguments for {function})")


def max_pool1d_with_indices(input, kernel_size, stride=(), padding=0, dilation=1, ceil_mode=False):
    """``torch.max_pool1d_with_indices``: ``max_pool2d`` with indices on images of height 1 (``unsqueeze(-2)``
    before, ``squeeze(-2)`` after each result), with that op's checks."""
    name = "max_pool1d_with_indices"
    kernel = ints(kernel_size, name, "kernel_size", 2)
    stride = () if stride is None else ints(stride, name, "stride", 3)
    padding, dilation = ints(padding, name, "padding", 4), ints(dilation, name, "dilation", 5)
    if not stride:  # (no stride: the kernel's)
        stride = kernel
    check_signal(input, "max_pool1d")
    kernel, step = one_int(kernel, "max_pool1d", "kernel_size", 2), one_int(stride, "max_pool1d", "stride", 3)
    pad, dil = one_int(padding, "max_pool1d", "padding", 4), one_int(dilation, "max_pool1d", "dilation", 5)
    values, indices = max_pool2d(input.unsqueeze(-2), (1, kernel), (1, step), (0, pad), (1, dil), ceil_mode,
                                 return_indices=True)
    return values.squeeze(-2), indices.squeeze(-2)


def max_pool1d_values(input, kernel_size, stride=(), padding=0, dilation=1, ceil_mode=False):
    """``torch.max_pool1d``: the values of ``max_pool1d_with_indices`` (the op it records), after the checks of
    PyTorch's ``max_pool1d`` (``check_max_pool1d``)."""
    kernel = ints(kernel_size, "max_pool1d", "kernel_size", 2)
    stride = () if stride is None else ints(stride, "max_pool1d", "stride", 3)
    padding, dilation = ints(padding, "max_pool1d", "padding", 4), ints(dilation, "max_pool1d", "dilation", 5)
    shape = list(input.shape)
    if not ((input.dim() == 2 and 0 not in shape) or (input.dim() == 3 and 0 not in shape[1:])):
        raise RuntimeError(f"max_pool1d: Expected 2D or 3D (batch mode) tensor with optional 0 dim batch size for "
                           f"input, but got:{shape}")
    for what, value, kinds in (("kernel_size", kernel, "an int, list of ints or"),
                               ("stride", stride, "None, an int, list of ints, or"),
                               ("padding", padding, "an int, list of ints, or"),
                               ("dilation", dilation, "an int, list of ints or")):
        if len(value) != 1 and not (what == "stride" and not value):
            raise RuntimeError(f"max_pool1d() {what} must be {kinds} tuple of ints of size 1 but got size {len(value)}")
    (k,), (p,), (d,) = kernel, padding, dilation
    s = stride[0] if stride else k
    out = pool.pooled_size(input.shape[-1], k, s, p, d, ceil_mode) if s > 0 else 0
    for what, value, ok in (("kernel_size must be greater than zero", k, k > 0),
                            ("stride must be greater than zero", s, s > 0),
                            ("padding must be non-negative", p, p >= 0),
                            ("dilation must be greater than zero", d, d > 0)):
        if not ok:
            raise RuntimeError(f"max_pool1d() {what}, but got {value}")
    if p > k // 2:
        raise RuntimeError(f"max_pool1d() padding should be at most half of kernel size, but got padding={p} and "
                           f"kernel_size={k}")
    if out < 1:
        raise RuntimeError(f"max_pool1d() Invalid computed output size: {out}")
    if input.requires_grad and grad_mode.is_grad_enabled():  # PyTorch: max_pool1d_with_indices' values, a view
        return max_pool1d_with_indices(input, kernel, (s,), padding, dilation, ceil_mode)[0]
    if not input.is_floating_point():  # (else PyTorch's kernel without indices, max_pool1d_impl: floats only)
        raise NotImplementedError(f"\"max_pool1d_impl\" not implemented for '{_NAMES.get(input.dtype.name)}'")
    values = max_pool1d_with_indices(input, kernel, (s,), padding, dilation, ceil_mode)[0]
    return values.clone(memory_format=devices.contiguous_format)  # (max_pool1d_impl's own new tensor, not a view)


def max_pool1d(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False, return_indices=False):
    """``F.max_pool1d``: ``torch.max_pool1d``, or ``torch.max_pool1d_with_indices`` with ``return_indices``
    (nodes ``SqueezeBackward1``, ``MaxPool2DWithIndicesBackward0``, ``UnsqueezeBackward0``)."""
    stride = () if stride is None else stride
    if return_indices:
        return max_pool1d_with_indices(input, kernel_size, stride, padding, dilation, ceil_mode)
    return max_pool1d_values(input, kernel_size, stride, padding, dilation, ceil_mode)


def max_pool1d_with_indices_fn(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False,
                                return_indices=False):
    """``F.max_pool1d_with_indices``: ``torch.max_pool1d_with_indices`` (both results, whatever ``return_indices``)."""
    return max_pool1d_with_indices(input, kernel_size, () if stride is None else stride, padding, dilation, ceil_mode)


def max_pool2d_with_indices(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False,
                            return_indices=False):
    """``F.max_pool2d_with_indices``: ``F.max_pool2d`` with ``return_indices=True``."""
    return max_pool2d(input, kernel_size, stride, padding, dilation, ceil_mode, return_indices=True)


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
    if isinstance(output_size, int):
        return (output_size, output_size)
    size = tuple(output_size)
    if input.dim() <= len(size):  # (PyTorch's ``_list_with_default``)
        raise ValueError(f"Input dimension should be at least {len(size) + 1}")
    if len(size) != 2:
        return size
    return tuple(input.shape[-2 + i] if s is None else s for i, s in enumerate(size))


def check_sizes(input, dims, function):
    """An adaptive pool's input has no empty dim among ``dims`` (PyTorch names the first empty one)."""
    for i in dims:
        if input.shape[i] == 0:
            raise RuntimeError(f"{function}(): Expected input to have non-zero size for non-batch dimensions, but "
                               f"input has sizes {list(input.shape)} with dimension {i} being empty")


def adaptive_avg_pool2d(input, output_size):
    """``F.adaptive_avg_pool2d``: ``output_size`` windows, each averaged (node ``AdaptiveAvgPool2DBackward0``; to
    a single place, ``input.mean((-1, -2), keepdim=True)``, node ``MeanBackward1``)."""
    size = adaptive_size(output_size, input)
    if len(size) != 2:
        raise RuntimeError("adaptive_avg_pool2d: output_size must be 2")
    if size[0] < 0 or size[1] < 0:
        raise RuntimeError(f"adaptive_avg_pool2d: elements of output_size must be greater than or equal to 0 but "
                           f"received {{{size[0]}, {size[1]}}}")
    if size == (1, 1):  # (PyTorch's shortcut: the mean, laid out channels-last again for a channels-last image)
        out = input.mean((-1, -2), keepdim=True)
        if input.dim() == 4 and suggested_order(input._data) == channels_last_order(4):
            n, c = input.shape[:2]
            out.as_strided_((n, c, 1, 1), (c, 1, c, c))
        return out
    if input.dim() not in (3, 4):
        raise RuntimeError(f"adaptive_avg_pool2d(): Expected 3D or 4D tensor, but got {list(input.shape)}")
    check_sizes(input, (input.dim() - 2, input.dim() - 1), "adaptive_avg_pool2d")
    if not input.is_floating_point():
        raise NotImplementedError(f"\"adaptive_avg_pool2d\" not implemented for '{_NAMES.get(input.dtype.name)}'")
    return pool.AdaptiveAvgPool2d.apply(input, size)


def adaptive_avg_pool1d(input, output_size):
    """``F.adaptive_avg_pool1d``: ``adaptive_avg_pool2d`` to (1, output_size) of images of height 1."""
    size = ints(output_size, "adaptive_avg_pool1d", "output_size", 2)
    check_signal(input, "adaptive_avg_pool1d")
    size = one_int(size, "adaptive_avg_pool1d", "output_size", 2)
    return adaptive_avg_pool2d(input.unsqueeze(-2), (1, size)).squeeze(-2)


def adaptive_max_pool2d(input, output_size, return_indices=False):
    """``F.adaptive_max_pool2d``: ``output_size`` windows, the maximum of each (node ``AdaptiveMaxPool2DBackward0``)."""
    size = adaptive_size(output_size, input)
    if input.dim() not in (3, 4):
        raise RuntimeError(f"adaptive_max_pool2d(): Expected 3D or 4D tensor, but got: {list(input.shape)}")
    check_sizes(input, range(1, input.dim()), "adaptive_max_pool2d")
    if len(size) != 2:
        raise RuntimeError("adaptive_max_pool2d(): internal error: output_size.size() must be 2")
    if size[0] < 0 or size[1] < 0:
        raise RuntimeError(f"Trying to create tensor with negative dimension {next(s for s in size if s < 0)}: "
                           f"{list(input.shape[:-2]) + list(size)}")
    if not input.is_floating_point():
        raise NotImplementedError(f"\"adaptive_max_pool2d\" not implemented for '{_NAMES.get(input.dtype.name)}'")
    values, indices = pool.AdaptiveMaxPool2d.apply(input, size)
    return (values, indices) if return_indices else values


def adaptive_max_pool1d_with_indices(input, output_size):
    """``torch.adaptive_max_pool1d``: the maxima and their places, ``adaptive_max_pool2d`` to (1, output_size) of
    images of height 1 (``unsqueeze(-2)`` before, ``squeeze(-2)`` after each result)."""
    size = ints(output_size, "adaptive_max_pool1d", "output_size", 2)
    check_signal(input, "adaptive_max_pool1d")
    size = one_int(size, "adaptive_max_pool1d", "output_size", 2)
    check_sizes(input, range(1, input.dim()), "adaptive_max_pool1d")
    values, indices = adaptive_max_pool2d(input.unsqueeze(-2), (1, size), return_indices=True)
    return values.squeeze(-2), indices.squeeze(-2)


def adaptive_max_pool1d(input, output_size, return_indices=False):
    """``F.adaptive_max_pool1d``: the maxima of ``torch.adaptive_max_pool1d``, with ``return_indices`` also their
    places (nodes ``SqueezeBackward1``, ``AdaptiveMaxPool2DBackward0``, ``UnsqueezeBackward0``)."""
    values, indices = adaptive_max_pool1d_with_indices(input, output_size)
    return (values, indices) if return_indices else values


def adaptive_max_pool1d_with_indices_fn(input, output_size, return_indices=False):
    """``F.adaptive_max_pool1d_with_indices``: ``torch.adaptive_max_pool1d`` (both results)."""
    return adaptive_max_pool1d_with_indices(input, output_size)


def adaptive_max_pool2d_with_indices(input, output_size, return_indices=False):
    """``F.adaptive_max_pool2d_with_indices``: ``F.adaptive_max_pool2d`` with ``return_indices=True``."""
    return adaptive_max_pool2d(input, output_size, return_indices=True)


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


class _AdaptiveMaxPoolNd(_AdaptivePoolNd):
    """What ``AdaptiveMaxPool1d`` and ``AdaptiveMaxPool2d`` keep: ``output_size`` and ``return_indices``."""

    def __init__(self, output_size, return_indices=False):
        super().__init__(output_size)
        self.return_indices = return_indices


class AdaptiveMaxPool1d(_AdaptiveMaxPoolNd):
    """``nn.AdaptiveMaxPool1d``: ``F.adaptive_max_pool1d(input, output_size, return_indices)``."""

    def forward(self, input):
        return adaptive_max_pool1d(input, self.output_size, self.return_indices)


class AdaptiveMaxPool2d(_AdaptiveMaxPoolNd):
    """``nn.AdaptiveMaxPool2d``: ``F.adaptive_max_pool2d(input, output_size, return_indices)``."""

    def forward(self, input):
        return adaptive_max_pool2d(input, self.output_size, self.return_indices)
