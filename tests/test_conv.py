"""Convolution, pooling, unfold/fold (issue 42): gradients against finite differences (``gradcheck`` and
``gradgradcheck`` in float64), node names, PyTorch's errors and messages, module reprs and initialisation.
Values, trees and saved values against PyTorch are in ``tests/parity/cases_conv.py``."""
import re
import warnings

import numpy as np
import pytest

import minigrad as torch
import minigrad.nn.functional as F
from minigrad import nn
from minigrad.autograd import gradcheck, gradgradcheck


def leaves(*shapes, seed=0):
    rng = np.random.default_rng(seed)
    return [torch.tensor(rng.uniform(-1, 1, s), dtype=torch.float64, requires_grad=True) for s in shapes]


# ---------------------------------------------------------------------------------- gradients
CONV = {
    "plain": ((2, 3, 5, 6), (4, 3, 3, 2), (4,), {}),
    "stride_padding": ((2, 3, 6, 5), (4, 3, 3, 3), (4,), dict(stride=2, padding=(1, 2))),
    "dilation_groups": ((1, 4, 7, 6), (6, 2, 2, 3), (6,), dict(stride=(2, 1), dilation=(2, 1), groups=2)),
    "same_even": ((1, 2, 5, 5), (3, 2, 2, 4), None, dict(padding="same")),
    "depthwise": ((2, 3, 5, 5), (3, 1, 3, 3), None, dict(padding=1, groups=3)),
}


@pytest.mark.parametrize("name", CONV)
def test_conv2d_gradcheck(name):
    xs, ws, bs, kw = CONV[name]
    args = leaves(*[s for s in (xs, ws, bs) if s is not None])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        fn = lambda *a: F.conv2d(*a, **kw)  # noqa: E731
        assert gradcheck(fn, args)
        assert gradgradcheck(fn, args)


def test_top_level_convolutions_gradcheck():
    x, w, b = leaves((2, 4, 9), (6, 2, 3), (6,))
    fn = lambda x, w, b: torch.conv1d(x, w, b, 2, 1, 2, 2)  # noqa: E731
    assert gradcheck(fn, (x, w, b)) and gradgradcheck(fn, (x, w, b))
    x, w, b = leaves((2, 3, 5, 6), (4, 3, 3, 2), (4,))
    fn = lambda x, w, b: torch.conv2d(x, w, b, (2, 1), (1, 0))  # noqa: E731
    assert gradcheck(fn, (x, w, b)) and gradgradcheck(fn, (x, w, b))
    assert torch.conv1d is F.conv1d and torch.conv2d is F.conv2d and torch.avg_pool1d is F.avg_pool1d


def test_conv1d_gradcheck():
    args = leaves((2, 4, 9), (6, 2, 3), (6,))
    fn = lambda x, w, b: F.conv1d(x, w, b, stride=2, padding=2, dilation=2, groups=2)  # noqa: E731
    assert gradcheck(fn, args)
    assert gradgradcheck(fn, args)


POOLS = {
    "max_pool2d": lambda x: F.max_pool2d(x, (3, 2), stride=(2, 1), padding=1, dilation=(2, 1), ceil_mode=True),
    "max_pool1d": lambda x: F.max_pool1d(x[:, :, 0], 3, stride=2, padding=1),
    "avg_pool2d": lambda x: F.avg_pool2d(x, 3, stride=2, padding=1, ceil_mode=True),
    "avg_pool2d_no_pad_count": lambda x: F.avg_pool2d(x, 3, stride=2, padding=1, count_include_pad=False),
    "avg_pool2d_divisor": lambda x: F.avg_pool2d(x, 2, divisor_override=3),
    "avg_pool1d": lambda x: F.avg_pool1d(x[:, :, 0], 2, ceil_mode=True),
    "adaptive_avg_pool2d": lambda x: F.adaptive_avg_pool2d(x, (3, 4)),
    "adaptive_avg_pool1d": lambda x: F.adaptive_avg_pool1d(x[:, :, 0], 4),
    "adaptive_max_pool2d": lambda x: F.adaptive_max_pool2d(x, (2, 3)),
    "adaptive_max_pool1d": lambda x: F.adaptive_max_pool1d(x[:, :, 0], 3),
    "adaptive_max_pool1d_larger": lambda x: F.adaptive_max_pool1d(x[:, 0], 11),
    "torch.max_pool1d": lambda x: torch.max_pool1d(x[:, :, 1], 3, 2, 1, 2, True),
    "torch.max_pool1d_with_indices": lambda x: torch.max_pool1d_with_indices(x[:, :, 1], 2, 1, 1)[0],
    "torch.max_pool2d": lambda x: torch.max_pool2d(x, (3, 2), (2, 1), 1, (1, 2), True),
    "torch.avg_pool1d": lambda x: torch.avg_pool1d(x[:, :, 2], 3, 2, 1, True, False),
    "torch.adaptive_avg_pool1d": lambda x: torch.adaptive_avg_pool1d(x[:, :, 2], 3),
    "torch.adaptive_max_pool1d": lambda x: torch.adaptive_max_pool1d(x[:, :, 2], 3)[0],
    "unfold": lambda x: F.unfold(x, (2, 3), dilation=(1, 2), padding=1, stride=(2, 1)),
    "fold": lambda x: F.fold(x.reshape(2, 12, 10)[:, :, :9], (4, 4), 2),
}


@pytest.mark.parametrize("name", POOLS)
def test_pool_and_fold_gradcheck(name):
    x, = leaves((2, 3, 5, 8), seed=1)  # (random values: no ties in a max)
    assert gradcheck(POOLS[name], (x,))
    assert gradgradcheck(POOLS[name], (x,))


# ---------------------------------------------------------------------------------- nodes
def test_node_names():
    x, w, b = leaves((2, 3, 6, 6), (4, 3, 3, 3), (4,))
    y = F.conv2d(x, w, b)
    assert type(y.grad_fn).__name__ == "ConvolutionBackward0"
    gx, gw, gb = torch.autograd.grad(y.sum(), (x, w, b), create_graph=True)
    assert gx.grad_fn is gw.grad_fn is gb.grad_fn
    assert type(gx.grad_fn).__name__ == "ConvolutionBackwardBackward0"
    names = {
        "MaxPool2DWithIndicesBackward0": F.max_pool2d(x, 2),
        "AvgPool2DBackward0": F.avg_pool2d(x, 2),
        "AdaptiveAvgPool2DBackward0": F.adaptive_avg_pool2d(x, 2),
        "MeanBackward1": F.adaptive_avg_pool2d(x, 1),
        "AdaptiveMaxPool2DBackward0": F.adaptive_max_pool2d(x, 2),
        "Im2ColBackward0": F.unfold(x, 2),
        "SqueezeBackward1": F.max_pool1d(x[0], 2),
    }
    for name, t in names.items():
        assert type(t.grad_fn).__name__ == name
    inner = F.max_pool1d(x[0], 2).grad_fn.next_functions[0][0]
    assert type(inner).__name__ == "MaxPool2DWithIndicesBackward0"
    assert type(inner.next_functions[0][0]).__name__ == "UnsqueezeBackward0"
    assert type(F.fold(F.unfold(x, 2), (6, 6), 2).grad_fn).__name__ == "Col2ImBackward0"


def test_one_dimensional_pools_record_squeeze_and_unsqueeze():
    x, = leaves((2, 3, 7))
    for y, inner in ((F.adaptive_max_pool1d(x, 3), "AdaptiveMaxPool2DBackward0"),
                     (torch.adaptive_max_pool1d(x, 3)[0], "AdaptiveMaxPool2DBackward0"),
                     (nn.AdaptiveMaxPool1d(3)(x), "AdaptiveMaxPool2DBackward0"),
                     (torch.max_pool1d(x, 2), "MaxPool2DWithIndicesBackward0"),
                     (torch.max_pool1d_with_indices(x, 2)[0], "MaxPool2DWithIndicesBackward0"),
                     (F.max_pool1d(x, 2, return_indices=True)[0], "MaxPool2DWithIndicesBackward0"),
                     (torch.avg_pool1d(x, 2), "AvgPool2DBackward0"),
                     (torch.adaptive_avg_pool1d(x, 2), "AdaptiveAvgPool2DBackward0"),
                     (torch.adaptive_avg_pool1d(x, 1), "MeanBackward1")):
        node = y.grad_fn
        assert type(node).__name__ == "SqueezeBackward1"
        assert type(node.next_functions[0][0]).__name__ == inner
        assert type(node.next_functions[0][0].next_functions[0][0]).__name__ == "UnsqueezeBackward0"
    assert type(torch.max_pool2d(x.unsqueeze(1), 2).grad_fn).__name__ == "MaxPool2DWithIndicesBackward0"


def test_adaptive_max_pool1d_values_and_indices():
    x = torch.tensor([[1.0, 3.0, 3.0, 0.0, 2.0, 5.0, 4.0]], requires_grad=True)
    v, i = F.adaptive_max_pool1d(x, 3, return_indices=True)  # windows [0, 3), [2, 5), [4, 7)
    assert v.tolist() == [[3.0, 3.0, 5.0]] and i.tolist() == [[1, 2, 5]] and i.dtype == torch.int64
    assert torch.adaptive_max_pool1d(x, 3)[1].tolist() == [[1, 2, 5]]
    v.sum().backward()
    assert x.grad.tolist() == [[0.0, 1.0, 1.0, 0.0, 0.0, 1.0, 0.0]]
    assert F.adaptive_max_pool1d(x, 9).shape == (1, 9) and F.adaptive_max_pool1d(x, 0).shape == (1, 0)


def test_a_dilated_window_that_misses_the_image():
    x = torch.arange(2.0).reshape(1, 2, 1).requires_grad_()
    v, i = torch.max_pool1d_with_indices(x, 2, 2, 1, 2)  # (the window's places -1 and 1: none inside)
    assert v.tolist() == [[[-float("inf")], [-float("inf")]]] and i.tolist() == [[[1], [1]]]
    v.sum().backward()
    assert x.grad.tolist() == [[[0.0], [1.0]]]  # (as PyTorch's kernel: place 1 of image 0 is image 1's first)
    g, = torch.autograd.grad(torch.max_pool1d(x, 2, 2, 1, 2).sum(), x, create_graph=True)
    assert torch.autograd.grad((g * g).sum(), x)[0].tolist() == [[[0.0], [0.0]]]  # (no gather: PyTorch's too)


def test_unpad_and_unpack_sequence():
    from minigrad.nn.utils.rnn import pack_sequence, pad_sequence, unpack_sequence, unpad_sequence
    a, b, c = leaves((3, 2), (1, 2), (2, 2))
    padded = pad_sequence([a, b, c])
    out = unpad_sequence(padded, torch.tensor([3, 1, 2]))
    assert padded.shape == (3, 3, 2)  # (transposed in place to batch first, as PyTorch does)
    assert [t.tolist() for t in out] == [a.tolist(), b.tolist(), c.tolist()]
    assert [type(t.grad_fn).__name__ for t in out] == ["IndexBackward0"] * 3
    assert type(out[0].grad_fn.next_functions[0][0]).__name__ == "UnbindBackward0"
    out = unpack_sequence(pack_sequence([a, b, c], enforce_sorted=False))
    assert [t.tolist() for t in out] == [a.tolist(), b.tolist(), c.tolist()]
    sum((t * (i + 1)).sum() for i, t in enumerate(out)).backward()
    assert a.grad.tolist() == [[1.0] * 2] * 3 and c.grad.tolist() == [[3.0] * 2] * 2
    with pytest.raises(ValueError, match="zip\\(\\) argument 2 is shorter than argument 1"):
        unpad_sequence(torch.zeros(4, 3), torch.tensor([1, 2]))
    with pytest.raises(AttributeError, match="'list' object has no attribute 'device'"):
        unpad_sequence(torch.zeros(4, 3), [1, 2, 3])


def test_max_pool_sends_the_gradient_to_the_first_maximum():
    x = torch.tensor([[[[1.0, 3.0], [3.0, 3.0]]]], requires_grad=True)
    y, i = F.max_pool2d(x, 2, return_indices=True)
    y.sum().backward()
    assert i.tolist() == [[[[1]]]] and i.dtype == torch.int64
    assert x.grad.tolist() == [[[[0.0, 1.0], [0.0, 0.0]]]]


def test_same_padding_warns_once():
    x, w = torch.ones(1, 1, 4, 4), torch.ones(1, 1, 2, 2)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        F.conv2d(x, w, padding="same")
        F.conv2d(x, w, padding="same")
    assert len([w for w in caught if "padding='same'" in str(w.message)]) <= 1


# ---------------------------------------------------------------------------------- errors
def z(*shape, dtype=torch.float32):
    return torch.zeros(*shape, dtype=dtype)


ERRORS = [
    (lambda: F.conv2d(z(3, 8), z(4, 3, 3, 3)), RuntimeError,
     "Expected 3D (unbatched) or 4D (batched) input to conv2d, but got input of size: [3, 8]"),
    (lambda: F.conv2d(z(2, 5, 8, 8), z(4, 3, 3, 3)), RuntimeError,
     "Given groups=1, weight of size [4, 3, 3, 3], expected input[2, 5, 8, 8] to have 3 channels, but got 5 "
     "channels instead"),
    (lambda: F.conv2d(z(5, 8, 8), z(4, 3, 3, 3)), RuntimeError,
     "Given groups=1, weight of size [4, 3, 3, 3], expected input[1, 5, 8, 8] to have 3 channels, but got 5 "
     "channels instead"),
    (lambda: F.conv2d(z(2, 3, 2, 2), z(4, 3, 3, 3)), RuntimeError,
     "Calculated padded input size per channel: (2 x 2). Kernel size: (3 x 3). Kernel size can't be greater than "
     "actual input size"),
    (lambda: F.conv2d(z(2, 6, 8, 8), z(3, 3, 3, 3), groups=2), RuntimeError,
     "Given groups=2, expected weight to be divisible by 2 at dimension 0, but got weight of size [[3, 3, 3, 3]] "
     "instead"),
    (lambda: F.conv2d(z(2, 3, 8, 8), z(4, 3, 3, 3), z(5)), RuntimeError,
     "Given weight of size [4, 3, 3, 3], expected bias to be 1-dimensional with 4 elements, but got bias of size "
     "[5] instead"),
    (lambda: F.conv2d(z(2, 3, 8, 8), z(4, 3, 3, 3), stride=2, padding="same"), RuntimeError,
     "padding='same' is not supported for strided convolutions"),
    (lambda: F.conv2d(z(2, 3, 8, 8), z(4, 3, 3, 3), padding="foo"), RuntimeError, "Invalid padding string: 'foo'"),
    (lambda: F.conv2d(z(2, 3, 8, 8), z(4, 3, 3, 3), stride=0), RuntimeError, "non-positive stride is not supported"),
    (lambda: F.conv2d(z(2, 3, 8, 8), z(4, 3, 3, 3), padding=-1), RuntimeError, "negative padding is not supported"),
    (lambda: F.conv2d(z(2, 3, 8, 8), z(4, 3, 3, 3), stride=(1, 2, 3)), RuntimeError,
     "expected stride to be a single integer value or a list of 2 values to match the convolution dimensions, but "
     "got stride=[1, 2, 3]"),
    (lambda: F.conv2d(z(2, 3, 8, 8), z(4, 3, 3, 3, dtype=torch.float64)), RuntimeError,
     "Input type (minigrad.FloatTensor) and weight type (minigrad.DoubleTensor) should be the same or input should "
     "be a MKLDNN tensor and weight is a dense tensor"),
    (lambda: F.conv1d(z(2, 3, 8), z(4, 3, 3, 3)), RuntimeError,
     "Expected 4-dimensional input for 4-dimensional weight [4, 3, 3, 3], but got 3-dimensional input of size "
     "[2, 3, 8] instead"),
    (lambda: nn.Conv2d(3, 4, 3, groups=2), ValueError, "in_channels must be divisible by groups"),
    (lambda: nn.Conv2d(4, 3, 3, groups=2), ValueError, "out_channels must be divisible by groups"),
    (lambda: nn.Conv2d(4, 4, 3, padding="foo"), ValueError,
     "Invalid padding string 'foo', should be one of {'same', 'valid'}"[:26]),
    (lambda: nn.Conv2d(4, 4, 3, padding_mode="reflect")(z(1, 4, 5, 5)), NotImplementedError,
     "minigrad's Conv2d has only padding_mode='zeros'"),
    (lambda: F.max_pool2d(z(2, 3, 8, 8), 3, padding=2), RuntimeError,
     "pad should be at most half of effective kernel size, but got pad=2, kernel_size=3 and dilation=1"),
    (lambda: F.max_pool2d(z(8), 3), RuntimeError, "non-empty 3D or 4D (batch mode) tensor expected for input"),
    (lambda: F.max_pool2d(z(2, 3, 2, 2), 3), RuntimeError,
     "Given input size: (3x2x2). Calculated output size: (3x0x0). Output size is too small"),
    (lambda: F.max_pool2d(z(2, 3, 8, 8), 3, stride=0), RuntimeError, "stride should not be zero"),
    (lambda: F.max_pool2d(z(2, 3, 8, 8), (1, 2, 3)), RuntimeError,
     "max_pool2d: kernel_size must either be a single int, or a tuple of two ints"),
    (lambda: F.avg_pool2d(z(2, 3, 8, 8), 2, divisor_override=0), RuntimeError, "divisor must be not zero"),
    (lambda: F.max_pool1d(z(8), 3), RuntimeError,
     "max_pool1d: Expected 2D or 3D (batch mode) tensor with optional 0 dim batch size for input, but got:[8]"),
    (lambda: F.max_pool1d(z(2, 3, 2), 3), RuntimeError, "max_pool1d() Invalid computed output size: 0"),
    (lambda: F.avg_pool1d(z(8), 3), RuntimeError,
     "Expected 2 to 3 dimensions, but got 1-dimensional tensor for argument #1 'self' (while checking arguments for "
     "avg_pool1d)"),
    (lambda: F.adaptive_avg_pool2d(z(8), 3), RuntimeError, "adaptive_avg_pool2d(): Expected 3D or 4D tensor, but got [8]"),
    (lambda: F.adaptive_avg_pool2d(z(2, 3, 4, 4, dtype=torch.int64), 2), NotImplementedError,
     "\"adaptive_avg_pool2d\" not implemented for 'Long'"),
    (lambda: F.adaptive_max_pool2d(z(2, 3, 8, 8), (1, 2, 3)), RuntimeError,
     "adaptive_max_pool2d(): internal error: output_size.size() must be 2"),
    (lambda: F.adaptive_max_pool1d(z(8), 2), RuntimeError,
     "Expected 2 to 3 dimensions, but got 1-dimensional tensor for argument #1 'self' (while checking arguments for "
     "adaptive_max_pool1d)"),
    (lambda: F.adaptive_max_pool1d(z(2, 5), (2, 2)), RuntimeError,
     "adaptive_max_pool1d() argument 'output_size' should contain one int (got 2)"),
    (lambda: F.adaptive_max_pool1d(z(2, 5), None), TypeError,
     "adaptive_max_pool1d(): argument 'output_size' (position 2) must be tuple of ints, not NoneType"),
    (lambda: F.adaptive_max_pool1d(z(1, 0, 5), 2), RuntimeError,
     "adaptive_max_pool1d(): Expected input to have non-zero size for non-batch dimensions, but input has sizes "
     "[1, 0, 5] with dimension 1 being empty"),
    (lambda: F.adaptive_max_pool1d(z(2, 5), -1), RuntimeError,
     "Trying to create tensor with negative dimension -1: [2, 1, -1]"),
    (lambda: F.adaptive_max_pool1d(z(2, 5, dtype=torch.int64), 2), NotImplementedError,
     "\"adaptive_max_pool2d\" not implemented for 'Long'"),
    (lambda: F.adaptive_max_pool2d(z(2, 3, 3), (1, 2, 3)), ValueError, "Input dimension should be at least 4"),
    (lambda: F.adaptive_avg_pool1d(z(2, 5), -1), RuntimeError,
     "adaptive_avg_pool2d: elements of output_size must be greater than or equal to 0 but received {1, -1}"),
    (lambda: F.adaptive_avg_pool2d(z(2, 0, 3), 2), RuntimeError,
     "adaptive_avg_pool2d(): Expected input to have non-zero size for non-batch dimensions, but input has sizes "
     "[2, 0, 3] with dimension 1 being empty"),
    (lambda: torch.max_pool1d(z(2, 5), (2, 2)), RuntimeError,
     "max_pool1d() kernel_size must be an int, list of ints or tuple of ints of size 1 but got size 2"),
    (lambda: torch.max_pool1d(z(2, 5), 2, (1, 1)), RuntimeError,
     "max_pool1d() stride must be None, an int, list of ints, or tuple of ints of size 1 but got size 2"),
    (lambda: torch.max_pool1d(z(2, 0), 2), RuntimeError,
     "max_pool1d: Expected 2D or 3D (batch mode) tensor with optional 0 dim batch size for input, but got:[2, 0]"),
    (lambda: torch.max_pool1d(z(2, 5, dtype=torch.int64), 2), NotImplementedError,
     "\"max_pool1d_impl\" not implemented for 'Long'"),
    (lambda: torch.max_pool1d(z(2, 5), 2, return_indices=True), TypeError,
     "max_pool1d() got an unexpected keyword argument 'return_indices'"),
    (lambda: torch.max_pool1d_with_indices(z(2, 5), (2, 2)), RuntimeError,
     "max_pool1d() argument 'kernel_size' should contain one int (got 2)"),
    (lambda: torch.max_pool1d_with_indices(z(2, 5), 3, padding=2), RuntimeError,
     "pad should be at most half of effective kernel size, but got pad=2, kernel_size=3 and dilation=1"),
    (lambda: torch.max_pool2d(z(1, 5, 5), 3, 1, 2, 2), RuntimeError,
     "pad should be smaller than or equal to half of kernel size, but got padW = 2, padH = 2, kW = 3, kH = 3"),
    (lambda: F.unfold(z(2, 3, 4, 4), 5), RuntimeError,
     "Given input with spatial size (4, 4), kernel_size=(5, 5), dilation=(1, 1), padding=(0, 0), calculated shape of "
     "the array of sliding blocks as (0, 0), but its components must be at least one."),
    (lambda: F.unfold(z(4, 4), 2), IndexError, "Dimension out of range (expected to be in range of [-2, 1], but got 2)"),
    (lambda: F.fold(z(2, 13, 9), (4, 4), 2), RuntimeError,
     "Expected size of input's dimension 1 to be divisible by the product of kernel_size, but got input.size(1)=13 "
     "and kernel_size=(2, 2)."),
    (lambda: F.fold(z(2, 12, 8), (4, 4), 2), RuntimeError,
     "Given output_size=(4, 4), kernel_size=(2, 2), dilation=(1, 1), padding=(0, 0), stride=(1, 1), expected size of "
     "input's dimension 2 to match the calculated number of sliding blocks 3 * 3 = 9, but got input.size(2)=8."),
]


@pytest.mark.parametrize("i", range(len(ERRORS)))
def test_errors_as_pytorch(i):
    fn, kind, message = ERRORS[i]
    with pytest.raises(kind, match="^" + re.escape(message)):
        fn()


# ---------------------------------------------------------------------------------- modules
def test_module_reprs_and_attributes():
    assert repr(nn.Conv2d(3, 6, (3, 5), stride=2, padding=1, dilation=2, groups=3, bias=False)) == \
        "Conv2d(3, 6, kernel_size=(3, 5), stride=(2, 2), padding=(1, 1), dilation=(2, 2), groups=3, bias=False)"
    assert repr(nn.Conv1d(3, 6, 3)) == "Conv1d(3, 6, kernel_size=(3,), stride=(1,))"
    assert repr(nn.Conv2d(3, 6, 3, padding="same")) == "Conv2d(3, 6, kernel_size=(3, 3), stride=(1, 1), padding=same)"
    assert repr(nn.MaxPool2d(2)) == "MaxPool2d(kernel_size=2, stride=2, padding=0, dilation=1, ceil_mode=False)"
    assert repr(nn.AvgPool1d(3)) == "AvgPool1d(kernel_size=(3,), stride=(3,), padding=(0,))"
    assert repr(nn.AdaptiveAvgPool2d((1, 2))) == "AdaptiveAvgPool2d(output_size=(1, 2))"
    assert repr(nn.AdaptiveMaxPool1d(3, return_indices=True)) == "AdaptiveMaxPool1d(output_size=3)"
    assert repr(nn.Fold((4, 4), 2)) == "Fold(output_size=(4, 4), kernel_size=2, dilation=1, padding=0, stride=1)"
    m = nn.Conv2d(4, 6, 3)
    assert [k for k, _ in m.named_parameters()] == ["weight", "bias"]
    assert m.weight.shape == (6, 4, 3, 3) and m.bias.shape == (6,)
    bound = 1 / 6.0  # 1/sqrt(fan_in), fan_in = 4 * 3 * 3: kaiming_uniform_(a=sqrt(5)) and the bias's bound
    assert m.weight.abs().max().item() <= bound and m.bias.abs().max().item() <= bound
    assert nn.Conv1d(2, 4, 3, bias=False).bias is None


def test_layers_are_no_longer_absent():
    for name in ("Conv1d", "Conv2d", "MaxPool1d", "MaxPool2d", "AvgPool1d", "AvgPool2d", "AdaptiveAvgPool1d",
                 "AdaptiveAvgPool2d", "AdaptiveMaxPool1d", "AdaptiveMaxPool2d", "Unfold", "Fold"):
        assert hasattr(nn, name)
    with pytest.raises(AttributeError, match="leaves out some convolution layers, this one among them"):
        nn.Conv3d


def test_conv_forward_takes_another_weight():
    m = nn.Conv2d(2, 3, 3, padding=1, dtype=torch.float64)
    x, = leaves((1, 2, 4, 4))
    assert m._conv_forward(x, m.weight, m.bias).tolist() == m(x).tolist()
    doubled = m._conv_forward(x, m.weight * 2, None)
    assert np.allclose(doubled.detach().numpy(), 2 * (m(x) - m.bias.view(1, 3, 1, 1)).detach().numpy(), atol=1e-6)


# How PyTorch's CPU pooling kernels lay out what they make (recorded from torch 2.13): channels-last when the
# 4-d input suggests it (suggest_memory_format), else row-major; the input's gradient the same way.
POOL_LAYOUTS = [
    ("max_pool2d", (0, 2, 3, 1), (12, 1, 6, 3), (48, 1, 12, 3)), ("max_pool2d", (3, 2, 1, 0), (12, 4, 2, 1), (48, 16, 4, 1)),
    ("max_pool2d", (0, 1, 3, 2), (12, 4, 2, 1), (48, 16, 4, 1)), ("avg_pool2d", (0, 2, 3, 1), (12, 1, 6, 3), (48, 1, 12, 3)),
    ("avg_pool2d", (3, 2, 1, 0), (12, 4, 2, 1), (48, 16, 4, 1)), ("avg_pool2d", (0, 1, 3, 2), (12, 4, 2, 1), (48, 16, 4, 1)),
    ("adaptive_avg_pool2d", (0, 2, 3, 1), (6, 1, 3, 3), (48, 1, 12, 3)),
    ("adaptive_avg_pool2d", (3, 2, 1, 0), (6, 2, 1, 1), (48, 16, 4, 1)),
    ("adaptive_max_pool2d", (0, 2, 3, 1), (6, 1, 3, 3), (48, 1, 12, 3)),
    ("adaptive_max_pool2d", (0, 1, 3, 2), (6, 2, 1, 1), (48, 16, 4, 1)),
    ("max_pool1d", (0, 2, 3, 1), (6, 1, 3), (48, 16, 4, 1)), ("max_pool1d", (3, 2, 1, 0), (6, 2, 1), (48, 16, 4, 1)),
    ("avg_pool1d", (0, 2, 3, 1), (6, 1, 3), (48, 16, 4, 1)), ("avg_pool1d", (0, 1, 3, 2), (6, 2, 1), (48, 16, 4, 1)),
]
LAID_OUT_POOLS = {"max_pool2d": lambda F, x: F.max_pool2d(x, 2), "avg_pool2d": lambda F, x: F.avg_pool2d(x, 2),
         "adaptive_avg_pool2d": lambda F, x: F.adaptive_avg_pool2d(x, (2, 1)),
         "adaptive_max_pool2d": lambda F, x: F.adaptive_max_pool2d(x, (2, 1)),
         "max_pool1d": lambda F, x: F.max_pool1d(x[:, :, 0], 2), "avg_pool1d": lambda F, x: F.avg_pool1d(x[:, :, 0], 2)}


@pytest.mark.parametrize("name, perm, out_strides, grad_strides", POOL_LAYOUTS)
def test_pools_lay_out_their_results_as_torch(name, perm, out_strides, grad_strides):
    shape = (2, 3, 4, 4)
    base = torch.arange(96.).reshape([shape[p] for p in perm])
    x = base.permute(*np.argsort(perm).tolist()).detach().requires_grad_(True)
    y = LAID_OUT_POOLS[name](torch.nn.functional, x)
    g, = torch.autograd.grad(y, x, torch.ones_like(y))
    assert (y.stride(), g.stride()) == (out_strides, grad_strides)
