"""Convolution layers: ``F.conv1d``, ``F.conv2d`` and ``nn.Conv1d``, ``nn.Conv2d``.
PyTorch: ``torch/nn/modules/conv.py`` and the checks of ``aten/src/ATen/native/Convolution.cpp``.

The numbers are one op, ``ops.conv.Convolution`` (node ``ConvolutionBackward0``); this file reads the
arguments as PyTorch does (an int or a tuple per dim; ``padding="same"`` or ``"valid"``), checks them with
PyTorch's messages, and records what PyTorch records around the op: ``unsqueeze``/``squeeze`` for an input
without a batch dim, a ``ConstantPadNd`` when ``"same"`` needs one more place on one side.
"""
import math

from .. import creation
from .._core.tensor_base import _warn_once
from ..ops.conv import _NO_BIAS, Convolution
from . import init
from .module import Module
from .parameter import Parameter

_TYPES = {"float32": "float", "float64": "double", "float16": "c10::Half", "int64": "long int", "int32": "int"}


def per_dim(value, dims, name):
    """An int, or a list of one per dim, as a tuple of ``dims`` ints (PyTorch's ``expand_param_if_needed``)."""
    if isinstance(value, int):
        return (value,) * dims
    if len(value) == 1 and dims != 1:
        return tuple(value) * dims
    if len(value) != dims:
        raise RuntimeError(f"expected {name} to be a single integer value or a list of {dims} values to match the "
                           f"convolution dimensions, but got {name}={list(value)}")
    return tuple(value)


def _conv(input, weight, bias, stride, padding, dilation, groups, dims):
    """``F.conv1d`` (``dims`` 1) and ``F.conv2d`` (``dims`` 2)."""
    name = f"conv{dims}d"
    if input.dim() not in (dims + 1, dims + 2):
        raise RuntimeError(f"Expected {dims + 1}D (unbatched) or {dims + 2}D (batched) input to {name}, but got "
                           f"input of size: {list(input.shape)}")
    if input.dim() == dims + 1:  # no batch dim: one sample (PyTorch records the unsqueeze and the squeeze)
        return _conv(input.unsqueeze(0), weight, bias, stride, padding, dilation, groups, dims).squeeze(0)
    stride, dilation = per_dim(stride, dims, "stride"), per_dim(dilation, dims, "dilation")
    if isinstance(padding, str):
        input, padding = _padding_string(input, weight, padding, stride, dilation, dims)
    else:
        padding = per_dim(padding, dims, "padding")
    _check(input, weight, bias, stride, padding, dilation, groups)
    return Convolution.apply(input, weight, _NO_BIAS if bias is None else bias, stride, padding, dilation, groups)


def _padding_string(input, weight, padding, stride, dilation, dims):
    """``padding="valid"`` (none) or ``"same"`` (the output as large as the input; PyTorch's
    ``_convolution_mode``): ``d * (k - 1)`` places per dim, half on each side and the odd one at the end, padded
    by a ``ConstantPadNd`` of its own (with PyTorch's warning, once)."""
    if padding == "valid":
        return input, (0,) * dims
    if padding != "same":
        raise RuntimeError(f"Invalid padding string: '{padding}'")
    if any(s != 1 for s in stride):
        raise RuntimeError("padding='same' is not supported for strided convolutions")
    totals = [d * (k - 1) for d, k in zip(dilation, weight.shape[2:])]
    left = tuple(t // 2 for t in totals)
    if any(t % 2 for t in totals):
        _warn_once("Using padding='same' with even kernel lengths and odd dilation may require a zero-padded copy of "
                   "the input be created", stacklevel=4)  # (once per process, as PyTorch's TORCH_WARN_ONCE)
        pad = []
        for t in reversed(totals):  # (F.pad's order: the last dim first)
            pad += [0, t % 2]
        from .functional_more import pad as pad_fn
        input = pad_fn(input, pad)
    return input, left


def _check(input, weight, bias, stride, padding, dilation, groups):
    """PyTorch's ``check_shape_forward`` and type checks, in its order."""
    if input.dtype != weight.dtype:
        raise RuntimeError(f"Input type ({input.type()}) and weight type ({weight.type()}) should be the same or input should be a MKLDNN "
                           "tensor and weight is a dense tensor")
    if bias is not None and bias.dtype != input.dtype:
        raise RuntimeError(f"Input type ({_TYPES.get(input.dtype.name)}) and bias type ({_TYPES.get(bias.dtype.name)}) "
                           "should be the same")
    if weight.dim() != input.dim():
        raise RuntimeError(f"Expected {weight.dim()}-dimensional input for {weight.dim()}-dimensional weight "
                           f"{list(weight.shape)}, but got {input.dim()}-dimensional input of size "
                           f"{list(input.shape)} instead")
    if any(p < 0 for p in padding):
        raise RuntimeError("negative padding is not supported")
    if any(s <= 0 for s in stride):
        raise RuntimeError("non-positive stride is not supported")
    if any(d <= 0 for d in dilation):
        raise RuntimeError("non-positive dilation is not supported")
    if groups <= 0:
        raise RuntimeError("non-positive groups is not supported")
    if weight.shape[0] % groups:
        raise RuntimeError(f"Given groups={groups}, expected weight to be divisible by {groups} at dimension 0, but "
                           f"got weight of size [{list(weight.shape)}] instead")
    if input.shape[1] != weight.shape[1] * groups:
        raise RuntimeError(f"Given groups={groups}, weight of size {list(weight.shape)}, expected input"
                           f"{list(input.shape)} to have {weight.shape[1] * groups} channels, but got "
                           f"{input.shape[1]} channels instead")
    if bias is not None and (bias.dim() != 1 or bias.shape[0] != weight.shape[0]):
        raise RuntimeError(f"Given weight of size {list(weight.shape)}, expected bias to be 1-dimensional with "
                           f"{weight.shape[0]} elements, but got bias of size {list(bias.shape)} instead")
    sizes = [s + 2 * p for s, p in zip(input.shape[2:], padding)]
    kernel = [d * (k - 1) + 1 for d, k in zip(dilation, weight.shape[2:])]
    if any(s < k for s, k in zip(sizes, kernel)):
        raise RuntimeError(f"Calculated padded input size per channel: ({' x '.join(map(str, sizes))}). Kernel size: "
                           f"({' x '.join(map(str, kernel))}). Kernel size can't be greater than actual input size")
    if input.numel() == 0 and input.shape[0] and input.shape[1]:  # (PyTorch's select_conv_backend)
        shape = list(input.shape)
        if input.dim() == 3:  # (a 1-d input is named as the 2-d view PyTorch runs it on)
            shape.insert(2, 1)
        raise RuntimeError(f"Only zero batch or zero channel inputs are supported, but got input shape: {shape}")


def conv1d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    """``F.conv1d``: (N, C, L) or (C, L) with a (O, C/groups, k) kernel (node ``ConvolutionBackward0``)."""
    return _conv(input, weight, bias, stride, padding, dilation, groups, 1)


def conv2d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    """``F.conv2d``: (N, C, H, W) or (C, H, W) with a (O, C/groups, kh, kw) kernel (node ``ConvolutionBackward0``)."""
    return _conv(input, weight, bias, stride, padding, dilation, groups, 2)


class _ConvNd(Module):
    """What ``Conv1d`` and ``Conv2d`` share (PyTorch: ``_ConvNd``): the arguments kept as tuples, the
    parameters ``weight`` (out_channels, in_channels / groups, *kernel_size) and ``bias`` (out_channels,),
    drawn as PyTorch draws them: ``kaiming_uniform_(a=sqrt(5))``, bias uniform in ``+-1/sqrt(fan_in)``."""

    dims = 2

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0, dilation=1, groups=1, bias=True,
                 padding_mode="zeros", device=None, dtype=None):
        super().__init__()
        if groups <= 0:
            raise ValueError("groups must be a positive integer")
        if in_channels % groups != 0:
            raise ValueError("in_channels must be divisible by groups")
        if out_channels % groups != 0:
            raise ValueError("out_channels must be divisible by groups")
        valid_padding_strings = {"same", "valid"}
        if isinstance(padding, str):
            if padding not in valid_padding_strings:
                raise ValueError(f"Invalid padding string {padding!r}, should be one of {valid_padding_strings}")
            if padding == "same" and any(s != 1 for s in per_dim(stride, self.dims, "stride")):
                raise ValueError("padding='same' is not supported for strided convolutions")
        valid_padding_modes = {"zeros", "reflect", "replicate", "circular"}
        if padding_mode not in valid_padding_modes:
            raise ValueError(f"padding_mode must be one of {valid_padding_modes}, but got padding_mode={padding_mode!r}")
        self.in_channels, self.out_channels = in_channels, out_channels
        self.kernel_size = per_dim(kernel_size, self.dims, "kernel_size")
        self.stride = per_dim(stride, self.dims, "stride")
        self.padding = padding if isinstance(padding, str) else per_dim(padding, self.dims, "padding")
        self.dilation = per_dim(dilation, self.dims, "dilation")
        self.transposed, self.output_padding = False, (0,) * self.dims
        self.groups, self.padding_mode = groups, padding_mode
        self.weight = Parameter(creation.empty(out_channels, in_channels // groups, *self.kernel_size, dtype=dtype,
                                               device=device))
        if bias:
            self.bias = Parameter(creation.empty(out_channels, dtype=dtype, device=device))
        else:
            self.register_parameter("bias", None)
        self.reset_parameters()

    def reset_parameters(self):
        init.kaiming_uniform_(self.weight, a=math.sqrt(5))
        if self.bias is not None:
            fan_in, _ = init._calculate_fan_in_and_fan_out(self.weight)
            if fan_in != 0:
                bound = 1 / math.sqrt(fan_in)
                init.uniform_(self.bias, -bound, bound)

    def forward(self, input):
        return self._conv_forward(input, self.weight, self.bias)

    def _conv_forward(self, input, weight, bias):
        """The convolution with a given weight and bias (PyTorch's, which some programs call with their own)."""
        if self.padding_mode != "zeros":  # (PyTorch pads with F.pad's reflect/replicate/circular: minigrad has not)
            raise NotImplementedError(f"minigrad's {type(self).__name__} has only padding_mode='zeros'; "
                                      f"padding_mode='{self.padding_mode}' needs F.pad(mode='{self.padding_mode}'), "
                                      "which minigrad leaves out")
        return _conv(input, weight, bias, self.stride, self.padding, self.dilation, self.groups, self.dims)

    def extra_repr(self):
        s = "{in_channels}, {out_channels}, kernel_size={kernel_size}, stride={stride}"
        if self.padding != (0,) * len(self.padding):
            s += ", padding={padding}"
        if self.dilation != (1,) * len(self.dilation):
            s += ", dilation={dilation}"
        if self.groups != 1:
            s += ", groups={groups}"
        if self.bias is None:
            s += ", bias=False"
        if self.padding_mode != "zeros":
            s += ", padding_mode={padding_mode}"
        return s.format(**self.__dict__)


class Conv1d(_ConvNd):
    """``nn.Conv1d(in_channels, out_channels, kernel_size, stride=1, padding=0, dilation=1, groups=1, bias=True,
    padding_mode="zeros")``: ``F.conv1d`` with its own weight and bias."""
    dims = 1


class Conv2d(_ConvNd):
    """``nn.Conv2d(in_channels, out_channels, kernel_size, stride=1, padding=0, dilation=1, groups=1, bias=True,
    padding_mode="zeros")``: ``F.conv2d`` with its own weight and bias."""
    dims = 2
