"""Convolution, and unfold/fold (im2col/col2im).  PyTorch: ``aten/src/ATen/native/Convolution.cpp``,
``Im2Col.cpp``, ``Col2Im.cpp``; formulas in ``tools/autograd/derivatives.yaml``.

Every op here works on 2-d images ``(N, C, H, W)``; a 1-d op (``conv1d``) is the 2-d one on images of height 1,
done inside the kernel, so its node keeps 1-d parameters as PyTorch's does.

The forward is one BLAS product: ``windows`` views the padded input as ``(N, C, OH, OW, kh, kw)`` (numpy's
``sliding_window_view``, no copy) and ``np.tensordot`` multiplies it with the kernel.  The adjoint of taking
windows, ``add_windows``, adds the windows back into an image with one loop over the kernel's offsets.

Each op's backward is an op too, with the node PyTorch records for it under ``create_graph=True``
(``ConvolutionBackwardBackward0``; unfold and fold are each other's backward), so gradients of gradients work.
"""
import numpy as np
from numpy.lib.stride_tricks import sliding_window_view

from .dispatch import Op
from .._core.tensor_base import TensorBase as Tensor


# ------------------------------------------------------------------ windows of an image and their adjoint
def out_size(size, kernel, stride, padding, dilation):
    """How many windows fit along a dim: ``(size + 2p - d(k-1) - 1) // s + 1``."""
    return (size + 2 * padding - dilation * (kernel - 1) - 1) // stride + 1


def as_2d(values, one):
    """A 1-d op's parameter ``(v,)`` as the 2-d ``(one, v)`` (height 1: kernel 1, stride 1, padding 0...)."""
    return tuple(values) if len(values) == 2 else (one,) + tuple(values)


def padded(x, padding, value=0):
    """``x`` (N, C, H, W) with ``padding`` (ph, pw) places of ``value`` on each side of H and W."""
    ph, pw = padding
    if ph == 0 and pw == 0:
        return x
    return np.pad(x, ((0, 0), (0, 0), (ph, ph), (pw, pw)), constant_values=value)


def windows(xp, kernel, stride, dilation, out):
    """The windows of the (padded) image ``xp``: a view ``(N, C, OH, OW, kh, kw)``."""
    (kh, kw), (sh, sw), (dh, dw), (oh, ow) = kernel, stride, dilation, out
    view = sliding_window_view(xp, (dh * (kh - 1) + 1, dw * (kw - 1) + 1), axis=(2, 3))
    return view[:, :, :sh * (oh - 1) + 1:sh, :sw * (ow - 1) + 1:sw, ::dh, ::dw]


def add_windows(cols, shape, stride, dilation):
    """The adjoint of ``windows``: each window of ``cols`` (N, C, OH, OW, kh, kw) added into its place in a
    zero image of ``shape`` (N, C, Hp, Wp), one strided add per kernel offset (PyTorch: ``col2im``)."""
    (sh, sw), (dh, dw) = stride, dilation
    _, _, oh, ow, kh, kw = cols.shape
    image = np.zeros(shape, cols.dtype)
    for i in range(kh):
        for j in range(kw):
            image[:, :, i * dh:i * dh + sh * (oh - 1) + 1:sh, j * dw:j * dw + sw * (ow - 1) + 1:sw] += cols[..., i, j]
    return image


def cropped(image, padding):
    """``image`` (N, C, Hp, Wp) without ``padding`` (ph, pw) places on each side."""
    ph, pw = padding
    return image[:, :, ph:image.shape[2] - ph, pw:image.shape[3] - pw]


# ------------------------------------------------------------------ convolution
_NO_BIAS = Tensor(np.zeros(0, np.float32))  # (bias=None: the node still has an edge for it, (None, 0), as PyTorch's)


def columns(x, kernel, stride, padding, dilation, out):
    """The windows of ``x`` (N, C, H, W) as the columns of one matrix: (C*kh*kw, N*OH*OW), a copy laid out
    channel, kernel offset, then sample and place (the order that copies fastest; PyTorch: ``im2col``)."""
    cols = windows(padded(x, padding), kernel, stride, dilation, out)  # (N, C, OH, OW, kh, kw), a view
    return np.ascontiguousarray(cols.transpose(1, 4, 5, 0, 2, 3)).reshape(x.shape[1] * kernel[0] * kernel[1], -1)


def conv_forward(x, w, b, stride, padding, dilation, groups):
    """``conv2d`` of arrays: x (N, C, H, W), w (O, C/groups, kh, kw), b (O,) or None.
    One matrix product per group: the kernel (O, C*kh*kw) times the input's windows (C*kh*kw, N*OH*OW)."""
    n, c, h, wd = x.shape
    o, cg, kh, kw = w.shape
    out = (out_size(h, kh, stride[0], padding[0], dilation[0]), out_size(wd, kw, stride[1], padding[1], dilation[1]))
    cols = columns(x, (kh, kw), stride, padding, dilation, out)
    og, rows = o // groups, cg * kh * kw
    y = np.concatenate([w[g * og:(g + 1) * og].reshape(og, rows) @ cols[g * rows:(g + 1) * rows]
                        for g in range(groups)]) if groups > 1 else w.reshape(o, rows) @ cols
    y = y.reshape(o, n, *out)  # (O, N, OH, OW)
    if b is not None:
        y += b[:, None, None, None]
    return np.ascontiguousarray(y.transpose(1, 0, 2, 3))


def conv_input_grad(grad, w, input_shape, stride, padding, dilation, groups):
    """dL/dx of ``conv2d``: each output's gradient times the kernel (one product per group: (C*kh*kw, O) times
    (O, N*OH*OW)), each column added back into the window it came from, one strided add per kernel offset."""
    n, c, h, wd = input_shape
    o, cg, kh, kw = w.shape
    og, rows = o // groups, cg * kh * kw
    (sh, sw), (dh, dw), (oh, ow) = stride, dilation, grad.shape[2:]
    g = grad.transpose(1, 0, 2, 3).reshape(o, -1)  # (O, N*OH*OW)
    cols = np.concatenate([w[k * og:(k + 1) * og].reshape(og, rows).T @ g[k * og:(k + 1) * og]
                           for k in range(groups)]) if groups > 1 else w.reshape(o, rows).T @ g
    cols = cols.reshape(c, kh, kw, n, oh, ow)
    image = np.zeros((c, n, h + 2 * padding[0], wd + 2 * padding[1]), grad.dtype)  # (channels first, as cols)
    for i in range(kh):
        for j in range(kw):
            image[:, :, i * dh:i * dh + sh * (oh - 1) + 1:sh, j * dw:j * dw + sw * (ow - 1) + 1:sw] += cols[:, i, j]
    return np.ascontiguousarray(cropped(image, padding).transpose(1, 0, 2, 3))


def conv_weight_grad(grad, x, weight_shape, stride, padding, dilation, groups):
    """dL/dw of ``conv2d``: each output's gradient times the window it came from, summed over samples and places:
    one product per group, (O, N*OH*OW) times the windows (N*OH*OW, C*kh*kw)."""
    o, cg, kh, kw = weight_shape
    og, rows = o // groups, cg * kh * kw
    cols = columns(x, (kh, kw), stride, padding, dilation, grad.shape[2:])
    g = grad.transpose(1, 0, 2, 3).reshape(o, -1)
    if groups == 1:
        return (g @ cols.T).reshape(weight_shape)
    return np.concatenate([g[k * og:(k + 1) * og] @ cols[k * rows:(k + 1) * rows].T
                           for k in range(groups)]).reshape(weight_shape)


def _empty_output_shape(input, weight, stride, padding, dilation):
    """The output of an input without channels: its samples, no channels, and the usual number of windows."""
    sizes = zip(input._data.shape[2:], weight._data.shape[2:], stride, padding, dilation)
    return (input._data.shape[0], 0) + tuple(out_size(*size) for size in sizes)


def image_2d(a):
    """A tensor's numbers as 2-d images: (N, C, L) becomes (N, C, 1, L)."""
    return a._data if a._data.ndim == 4 else a._data[:, :, None, :]


class Convolution(Op):
    """``F.conv1d``/``F.conv2d`` (PyTorch: ``at::convolution``, node ``ConvolutionBackward0``).

    ``y[n, o] = b[o] + sum over c, i, j of w[o, c, i, j] * x_padded[n, c, s*h + d*i, s*w + d*j]``, the channels
    ``c`` of ``o``'s group only.  dL/dx: each ``grad[n, o, h, w] * w[o]`` added into the window it came from;
    dL/dw: each ``grad[n, o, h, w] * window``, summed; dL/db: ``grad`` summed over all but the channels.
    """
    node_name = "ConvolutionBackward0"
    saved_names = {"input": 0, "weight": 1, "stride": "stride", "padding": "padding", "dilation": "dilation",
                   "groups": "groups", "transposed": "transposed", "output_padding": "output_padding",
                   "bias_sym_sizes_opt": "bias_sizes"}

    @staticmethod
    def forward(ctx, input, weight, bias, stride, padding, dilation, groups):
        ctx.save_for_backward(input, weight)
        ctx.stride, ctx.padding, ctx.dilation, ctx.groups = stride, padding, dilation, groups
        ctx.transposed, ctx.output_padding = False, (0,) * len(stride)
        ctx.bias_sizes = (0,) if bias is _NO_BIAS else tuple(bias._data.shape)  # (PyTorch's, without a bias)
        ctx.input_shape, ctx.one_d = input._data.shape, input._data.ndim == 3
        if input._data.shape[1] == 0:  # (no channels: PyTorch's "Empty" backend gives an output without any either)
            return Tensor(np.zeros(_empty_output_shape(input, weight, stride, padding, dilation), input._data.dtype))
        y = conv_forward(image_2d(input), image_2d(weight), None if bias is _NO_BIAS else bias._data,
                         as_2d(stride, 1), as_2d(padding, 0), as_2d(dilation, 1), groups)
        return Tensor(y[:, :, 0] if ctx.one_d else y)

    @staticmethod
    def backward(ctx, grad):
        input, weight = ctx.saved_tensors
        mask = ctx.needs_input_grad
        grad_input, grad_weight, grad_bias = ConvolutionBackward.apply(
            grad, input, weight, ctx.input_shape, ctx.bias_sizes, ctx.stride, ctx.padding, ctx.dilation, ctx.groups,
            mask)
        return grad_input, grad_weight, grad_bias, None, None, None, None


class ConvolutionBackward(Op):
    """The gradients of a convolution, as an op of its own so that they can be differentiated again
    (PyTorch: ``convolution_backward``, node ``ConvolutionBackwardBackward0``).

    Its inputs are ``grad_output``, ``input`` and ``weight``; its outputs ``(dx, dw, db)`` (None where not wanted).
    Each is linear in ``grad_output`` and in the other input, so its backward is convolutions again
    (PyTorch's ``_convolution_double_backward``): with ``ggx, ggw, ggb`` the gradients of the three outputs,
    d/d(grad_output) = conv(ggx, w) + conv(x, ggw) + ggb, d/dx = dx-formula(grad_output, ggw),
    d/dw = dw-formula(ggx, grad_output).
    """
    node_name = "ConvolutionBackwardBackward0"
    saved_names = {"grad_output": 0, "input": 1, "weight": 2, "stride": "stride", "padding": "padding",
                   "dilation": "dilation", "groups": "groups", "transposed": "transposed",
                   "output_padding": "output_padding"}

    @staticmethod
    def forward(ctx, grad, input, weight, input_shape, bias_sizes, stride, padding, dilation, groups, mask):
        ctx.save_for_backward(grad, input, weight)
        ctx.stride, ctx.padding, ctx.dilation, ctx.groups = stride, padding, dilation, groups
        ctx.transposed, ctx.output_padding = False, (0,) * len(stride)
        ctx.input_shape, ctx.bias_sizes = input_shape, bias_sizes
        s2, p2, d2 = as_2d(stride, 1), as_2d(padding, 0), as_2d(dilation, 1)
        g = image_2d(grad)
        one_d = len(input_shape) == 3
        shape_2d = input_shape if not one_d else input_shape[:2] + (1,) + input_shape[2:]
        grad_input = grad_weight = grad_bias = None
        if input_shape[1] == 0:  # (no channels: zeros of each shape, the bias's too, as PyTorch's "Empty" backend)
            zeros = [np.zeros(shape, grad._data.dtype) for shape in (input_shape, weight._data.shape, bias_sizes)]
            return tuple(Tensor(z) if need else None for z, need in zip(zeros, mask))
        if mask[0]:
            gx = conv_input_grad(g, image_2d(weight), shape_2d, s2, p2, d2, groups)
            grad_input = Tensor(gx[:, :, 0] if one_d else gx)
        if mask[1]:
            gw = conv_weight_grad(g, image_2d(input), image_2d(weight).shape, s2, p2, d2, groups)
            grad_weight = Tensor(np.ascontiguousarray(gw[:, :, 0] if one_d else gw))
        if mask[2]:
            grad_bias = Tensor(g.sum(axis=(0, 2, 3)))
        return grad_input, grad_weight, grad_bias

    @staticmethod
    def backward(ctx, gg_input, gg_weight, gg_bias):
        grad, input, weight = ctx.saved_tensors
        need_grad, need_input, need_weight = ctx.needs_input_grad[:3]
        params = (ctx.stride, ctx.padding, ctx.dilation, ctx.groups)
        d_grad = d_input = d_weight = None
        if need_grad:
            terms = []
            if gg_input is not None:
                terms.append(Convolution.apply(gg_input, weight, _NO_BIAS, *params))
            if gg_weight is not None:
                terms.append(Convolution.apply(input, gg_weight, _NO_BIAS, *params))
            if gg_bias is not None:
                terms.append(gg_bias.view(gg_bias.shape[0], *(1,) * (grad.dim() - 2)))
            for term in terms:
                d_grad = term if d_grad is None else d_grad + term
        if need_input and gg_weight is not None:
            d_input = ConvolutionBackward.apply(grad, input, gg_weight, ctx.input_shape, None, *params,
                                                (True, False, False))[0]
        if need_weight and gg_input is not None:
            d_weight = ConvolutionBackward.apply(grad, gg_input, weight, ctx.input_shape, None, *params,
                                                 (False, True, False))[1]
        return (d_grad, d_input, d_weight) + (None,) * 7


# ------------------------------------------------------------------ unfold (im2col) and fold (col2im)
class Im2Col(Op):
    """``F.unfold(x, kernel_size, dilation, padding, stride)``: (N, C, H, W) -> (N, C*kh*kw, L), each column one
    window, L the number of windows (PyTorch: ``im2col``, node ``Im2ColBackward0``).  Its gradient adds each
    column back into its window: ``col2im`` (``F.fold``) of ``grad``."""
    node_name = "Im2ColBackward0"
    saved_names = {"kernel_size": "kernel_size", "dilation": "dilation", "padding": "padding", "stride": "stride",
                   "self_sym_argsize_minus_2": "height", "self_sym_argsize_minus_1": "width"}

    @staticmethod
    def forward(ctx, input, kernel_size, dilation, padding, stride):
        x = input._data if input._data.ndim == 4 else input._data[None]
        n, c, h, w = x.shape
        out = (out_size(h, kernel_size[0], stride[0], padding[0], dilation[0]),
               out_size(w, kernel_size[1], stride[1], padding[1], dilation[1]))
        ctx.kernel_size, ctx.dilation, ctx.padding, ctx.stride = kernel_size, dilation, padding, stride
        ctx.height, ctx.width = h, w
        cols = windows(padded(x, padding), kernel_size, stride, dilation, out)  # (N, C, OH, OW, kh, kw)
        cols = np.array(cols.transpose(0, 1, 4, 5, 2, 3), order="C").reshape(  # (a copy always: never the input's memory)
            n, c * kernel_size[0] * kernel_size[1], out[0] * out[1])
        return Tensor(cols if input._data.ndim == 4 else cols[0])

    @staticmethod
    def backward(ctx, grad):
        return Col2Im.apply(grad, (ctx.height, ctx.width), ctx.kernel_size, ctx.dilation, ctx.padding,
                            ctx.stride), None, None, None, None


class Col2Im(Op):
    """``F.fold(cols, output_size, kernel_size, dilation, padding, stride)``: the adjoint of ``unfold``, each
    column added into its window of an (N, C, H, W) image (PyTorch: ``col2im``, node ``Col2ImBackward0``).
    Its gradient takes the windows again: ``im2col`` (``F.unfold``) of ``grad``."""
    node_name = "Col2ImBackward0"
    saved_names = {"kernel_size": "kernel_size", "dilation": "dilation", "padding": "padding", "stride": "stride"}

    @staticmethod
    def forward(ctx, input, output_size, kernel_size, dilation, padding, stride):
        cols = input._data if input._data.ndim == 3 else input._data[None]
        (h, w), (kh, kw) = output_size, kernel_size
        out = (out_size(h, kh, stride[0], padding[0], dilation[0]), out_size(w, kw, stride[1], padding[1], dilation[1]))
        ctx.kernel_size, ctx.dilation, ctx.padding, ctx.stride = kernel_size, dilation, padding, stride
        n = cols.shape[0]
        c = cols.shape[1] // (kh * kw)
        cols = cols.reshape(n, c, kh, kw, out[0], out[1]).transpose(0, 1, 4, 5, 2, 3)
        image = add_windows(cols, (n, c, h + 2 * padding[0], w + 2 * padding[1]), stride, dilation)
        image = np.ascontiguousarray(cropped(image, padding))
        return Tensor(image if input._data.ndim == 3 else image[0])

    @staticmethod
    def backward(ctx, grad):
        return Im2Col.apply(grad, ctx.kernel_size, ctx.dilation, ctx.padding, ctx.stride), None, None, None, None, None
