"""``F.unfold`` (im2col) and ``F.fold`` (col2im), ``nn.Unfold`` and ``nn.Fold``.
PyTorch: ``torch/nn/modules/fold.py``, ``aten/src/ATen/native/im2col_shape_check.h``.

``unfold`` turns each window of an image into a column: (N, C, H, W) -> (N, C*kh*kw, L); ``fold`` adds the
columns back into an image, each into its window (overlapping windows add up).  They are each other's
gradient (``ops/conv.py``: ``Im2Col``, ``Col2Im``).
"""
from ..ops.conv import Col2Im, Im2Col, out_size
from .module import Module

_NAMES = {"int64": "Long", "int32": "Int", "int16": "Short", "int8": "Char", "uint8": "Byte", "bool": "Bool"}


def _pair(value, name="kernel_size"):
    if isinstance(value, int):
        return (value, value)
    if len(value) != 2:
        raise RuntimeError(f"It is expected {name} equals to 2, but got size {len(value)}")
    return tuple(value)


def _check_params(kernel, dilation, padding, stride):
    """The checks ``im2col`` and ``col2im`` share, with PyTorch's messages."""
    if kernel[0] <= 0 or kernel[1] <= 0:
        raise RuntimeError(f"kernel size should be greater than zero, but got kernel_height: {kernel[0]} "
                           f"kernel_width: {kernel[1]}")
    if stride[0] <= 0 or stride[1] <= 0:
        raise RuntimeError(f"stride should be greater than zero, but got stride_height: {stride[0]} stride_width: "
                           f"{stride[1]}")
    if dilation[0] <= 0 or dilation[1] <= 0:
        raise RuntimeError(f"dilation should be greater than zero, but got dilation_height: {dilation[0]} "
                           f"dilation_width: {dilation[1]}")
    if padding[0] < 0 or padding[1] < 0:
        raise RuntimeError(f"padding should be non-negative, but got pad_height: {padding[0]} pad_width: "
                           f"{padding[1]}")


def _blocks(size, kernel, dilation, padding, stride):
    return tuple(out_size(s, k, st, p, d) for s, k, st, p, d in zip(size, kernel, stride, padding, dilation))


def unfold(input, kernel_size, dilation=1, padding=0, stride=1):
    """``F.unfold``: each window of (N, C, H, W) or (C, H, W) as a column of C*kh*kw numbers (node
    ``Im2ColBackward0``)."""
    kernel, dilation = _pair(kernel_size), _pair(dilation, "dilation")
    padding, stride = _pair(padding, "padding"), _pair(stride, "stride")
    _check_params(kernel, dilation, padding, stride)
    for d in (1, 2):  # (PyTorch reads the sizes of dims 1 and 2 before it checks the number of dims)
        if d >= input.dim():
            raise IndexError(f"Dimension out of range (expected to be in range of [{-input.dim()}, "
                             f"{input.dim() - 1}], but got {d})")
        if input.shape[d] == 0:
            break
    if input.dim() not in (3, 4) or 0 in input.shape[-3:]:
        raise RuntimeError(f"Expected 3D or 4D (batch mode) tensor with possibly 0 batch size and other non-zero "
                           f"dimensions for input, but got: {list(input.shape)}")
    if not input.is_floating_point():
        raise NotImplementedError(f"\"im2col_out_cpu\" not implemented for '{_NAMES.get(input.dtype.name)}'")
    blocks = _blocks(input.shape[-2:], kernel, dilation, padding, stride)
    if blocks[0] < 1 or blocks[1] < 1:
        raise RuntimeError(f"Given input with spatial size ({input.shape[-2]}, {input.shape[-1]}), kernel_size="
                           f"{kernel}, dilation={dilation}, padding={padding}, calculated shape of the array of "
                           f"sliding blocks as {blocks}, but its components must be at least one.")
    return Im2Col.apply(input, kernel, dilation, padding, stride)


def fold(input, output_size, kernel_size, dilation=1, padding=0, stride=1):
    """``F.fold``: columns (N, C*kh*kw, L) or (C*kh*kw, L) added into the windows of (N, C, H, W) images (node
    ``Col2ImBackward0``)."""
    size, kernel = _pair(output_size, "output_size"), _pair(kernel_size)
    dilation, padding, stride = _pair(dilation, "dilation"), _pair(padding, "padding"), _pair(stride, "stride")
    _check_params(kernel, dilation, padding, stride)
    if input.dim() not in (2, 3) or 0 in input.shape[-2:]:
        raise RuntimeError(f"Expected 2D or 3D (batch mode) tensor for input with possibly 0 batch size and non-zero "
                           f"dimensions for input, but got: {list(input.shape)}")
    if not input.is_floating_point():
        raise NotImplementedError(f"\"col2im_out_cpu\" not implemented for '{_NAMES.get(input.dtype.name)}'")
    if input.shape[-2] % (kernel[0] * kernel[1]):
        raise RuntimeError(f"Expected size of input's dimension 1 to be divisible by the product of kernel_size, but "
                           f"got input.size(1)={input.shape[-2]} and kernel_size={kernel}.")
    blocks = _blocks(size, kernel, dilation, padding, stride)
    if input.shape[-1] != blocks[0] * blocks[1]:
        raise RuntimeError(f"Given output_size={size}, kernel_size={kernel}, dilation={dilation}, padding={padding}, "
                           f"stride={stride}, expected size of input's dimension 2 to match the calculated number of "
                           f"sliding blocks {blocks[0]} * {blocks[1]} = {blocks[0] * blocks[1]}, but got "
                           f"input.size(2)={input.shape[-1]}.")
    return Col2Im.apply(input, size, kernel, dilation, padding, stride)


class Unfold(Module):
    """``nn.Unfold(kernel_size, dilation=1, padding=0, stride=1)``: ``F.unfold``."""

    def __init__(self, kernel_size, dilation=1, padding=0, stride=1):
        super().__init__()
        self.kernel_size, self.dilation, self.padding, self.stride = kernel_size, dilation, padding, stride

    def forward(self, input):
        return unfold(input, self.kernel_size, self.dilation, self.padding, self.stride)

    def extra_repr(self):
        return (f"kernel_size={self.kernel_size}, dilation={self.dilation}, padding={self.padding}, "
                f"stride={self.stride}")


class Fold(Module):
    """``nn.Fold(output_size, kernel_size, dilation=1, padding=0, stride=1)``: ``F.fold``."""

    def __init__(self, output_size, kernel_size, dilation=1, padding=0, stride=1):
        super().__init__()
        self.output_size, self.kernel_size = output_size, kernel_size
        self.dilation, self.padding, self.stride = dilation, padding, stride

    def forward(self, input):
        return fold(input, self.output_size, self.kernel_size, self.dilation, self.padding, self.stride)

    def extra_repr(self):
        return (f"output_size={self.output_size}, kernel_size={self.kernel_size}, dilation={self.dilation}, "
                f"padding={self.padding}, stride={self.stride}")
