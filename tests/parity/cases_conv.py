"""PyTorch-parity cases for convolution, pooling and unfold/fold (issue 42; see ``cases.py`` for the
conventions and the input helpers): values, gradients, node names, ``next_functions`` trees, saved values,
gradients of gradients (``create_graph=True``), errors, module reprs."""
from . import case
from .cases import const, fwd_bwd, leaf


# ---------------------------------------------------------------------------------- forward and backward
# name -> (input shapes, fn(F, *leaves)); every leaf requires grad; float32 unless the name ends in _f64
_OPS = {
    "conv2d": ([(2, 3, 6, 7), (4, 3, 3, 2), (4,)], lambda F, x, w, b: F.conv2d(x, w, b)),
    "conv2d_stride_pad": ([(2, 3, 6, 7), (4, 3, 3, 2), (4,)],
                          lambda F, x, w, b: F.conv2d(x, w, b, stride=2, padding=(1, 2))),
    "conv2d_dilation_groups": ([(2, 4, 7, 6), (6, 2, 2, 3), (6,)],
                               lambda F, x, w, b: F.conv2d(x, w, b, stride=(2, 1), dilation=(2, 1), groups=2)),
    "conv2d_same_even": ([(1, 2, 5, 6), (3, 2, 2, 4)], lambda F, x, w: F.conv2d(x, w, padding="same")),
    "conv2d_same_odd": ([(1, 2, 5, 6), (3, 2, 3, 3)], lambda F, x, w: F.conv2d(x, w, padding="same", dilation=2)),
    "conv2d_valid": ([(1, 2, 5, 6), (3, 2, 3, 3)], lambda F, x, w: F.conv2d(x, w, padding="valid")),
    "conv2d_unbatched": ([(2, 5, 6), (3, 2, 3, 3), (3,)], lambda F, x, w, b: F.conv2d(x, w, b, padding=1)),
    "conv2d_f64": ([(2, 3, 6, 7), (4, 3, 3, 2), (4,)], lambda F, x, w, b: F.conv2d(x, w, b, stride=(1, 2))),
    "conv1d": ([(2, 3, 9), (4, 3, 3), (4,)], lambda F, x, w, b: F.conv1d(x, w, b, stride=2, padding=1, dilation=2)),
    "conv1d_groups_same": ([(2, 4, 9), (6, 2, 4)], lambda F, x, w: F.conv1d(x, w, padding="same", groups=2)),
    "conv1d_unbatched": ([(3, 9), (2, 3, 3)], lambda F, x, w: F.conv1d(x, w)),
    "max_pool2d": ([(2, 3, 6, 7)], lambda F, x: F.max_pool2d(x, 2)),
    "max_pool2d_all": ([(2, 3, 7, 8)], lambda F, x: F.max_pool2d(x, (3, 2), stride=(2, 1), padding=1, dilation=(2, 1),
                                                                  ceil_mode=True)),
    "max_pool2d_unbatched": ([(3, 5, 5)], lambda F, x: F.max_pool2d(x, 2, ceil_mode=True)),
    "max_pool1d": ([(2, 3, 9)], lambda F, x: F.max_pool1d(x, 3, stride=2, padding=1)),
    "avg_pool2d": ([(2, 3, 6, 7)], lambda F, x: F.avg_pool2d(x, 2)),
    "avg_pool2d_pad_ceil": ([(2, 3, 7, 8)], lambda F, x: F.avg_pool2d(x, 3, stride=2, padding=1, ceil_mode=True)),
    "avg_pool2d_no_pad_count": ([(2, 3, 7, 8)], lambda F, x: F.avg_pool2d(x, 3, stride=2, padding=1, ceil_mode=True,
                                                                          count_include_pad=False)),
    "avg_pool2d_divisor": ([(2, 3, 7, 8)], lambda F, x: F.avg_pool2d(x, (3, 2), padding=(1, 0), divisor_override=4)),
    "avg_pool1d": ([(2, 3, 9)], lambda F, x: F.avg_pool1d(x, 3, stride=2, padding=1, count_include_pad=False)),
    "adaptive_avg_pool2d": ([(2, 3, 7, 8)], lambda F, x: F.adaptive_avg_pool2d(x, (3, 5))),
    "adaptive_avg_pool2d_1": ([(2, 3, 7, 8)], lambda F, x: F.adaptive_avg_pool2d(x, 1)),
    "adaptive_avg_pool2d_none": ([(3, 7, 8)], lambda F, x: F.adaptive_avg_pool2d(x, (None, 3))),
    "adaptive_avg_pool1d": ([(2, 3, 7)], lambda F, x: F.adaptive_avg_pool1d(x, 3)),
    "adaptive_avg_pool1d_1": ([(2, 3, 7)], lambda F, x: F.adaptive_avg_pool1d(x, 1)),
    "adaptive_max_pool2d": ([(2, 3, 7, 8)], lambda F, x: F.adaptive_max_pool2d(x, (3, 5))),
    "unfold": ([(2, 3, 6, 7)], lambda F, x: F.unfold(x, (2, 3), dilation=(1, 2), padding=1, stride=(2, 1))),
    "unfold_unbatched": ([(2, 5, 5)], lambda F, x: F.unfold(x, 2)),
    "fold": ([(2, 12, 18)], lambda F, x: F.fold(x, (5, 6), (2, 3), padding=1, stride=(2, 1))),
    "fold_unbatched": ([(12, 9)], lambda F, x: F.fold(x, (4, 4), 2)),
}


def _op_case(shapes, fn, dtype):
    def c(T, F, o):
        leaves = [leaf(T, 10 + i, *s, dtype=dtype) for i, s in enumerate(shapes)]
        y = fn(F, *leaves)
        fwd_bwd(T, o, y, depth=4, **{f"in{i}": t for i, t in enumerate(leaves)})
    return c


for _name, (_shapes, _fn) in _OPS.items():
    case(_op_case(_shapes, _fn, "float64" if _name.endswith("_f64") else "float32"), name=f"conv_{_name}")


# ---------------------------------------------------------------------------------- gradients of gradients
_TWICE = {
    "conv2d": ([(2, 2, 5, 6), (4, 1, 3, 2), (4,)], lambda T, F, x, w, b: F.conv2d(x, w, b, stride=2, padding=1, groups=2)),
    "conv1d": ([(2, 2, 7), (3, 2, 3)], lambda T, F, x, w: F.conv1d(x, w, dilation=2)),
    "max_pool2d": ([(2, 2, 5, 6)], lambda T, F, x: F.max_pool2d(x, 3, 2, 1)),
    "avg_pool2d": ([(2, 2, 5, 6)], lambda T, F, x: F.avg_pool2d(x, 3, 2, 1, ceil_mode=True)),
    "adaptive_avg_pool2d": ([(2, 2, 5, 6)], lambda T, F, x: F.adaptive_avg_pool2d(x, (2, 4))),
    "adaptive_max_pool2d": ([(2, 2, 5, 6)], lambda T, F, x: F.adaptive_max_pool2d(x, (2, 4))),
    "unfold": ([(2, 2, 5, 6)], lambda T, F, x: F.unfold(x, 2, stride=2)),
    "fold": ([(2, 8, 9)], lambda T, F, x: F.fold(x, (4, 4), 2)),
}


def twice_case(shapes, fn, seed=20):
    """A case: ``fn(T, F, *leaves)`` on float64 leaves of ``shapes`` (drawn from ``seed`` on), its gradients with a
    graph, and the gradients of their squares (the second-order graph and values)."""
    def c(T, F, o):
        leaves = [leaf(T, seed + i, *s, dtype="float64") for i, s in enumerate(shapes)]
        y = fn(T, F, *leaves)
        grads = T.autograd.grad((y * y).sum(), leaves, create_graph=True)
        for i, g in enumerate(grads):
            o.all(g, f"grad{i}", depth=3)
        total = sum((g * g).sum() for g in grads)
        second = T.autograd.grad(total, leaves)
        for i, g in enumerate(second):
            o[f"second{i}"] = g
    return c


for _name, (_shapes, _fn) in _TWICE.items():
    case(twice_case(_shapes, _fn), name=f"conv_twice_{_name}")


# ---------------------------------------------------------------------------------- indices, saved values, ties
@case
def conv_max_pool_indices_and_ties(T, F, o):
    x = T.tensor([[[[1.0, 3.0, 3.0, 0.0], [3.0, 2.0, 3.0, 1.0], [float("nan"), 0.0, 5.0, 5.0],
                    [1.0, float("nan"), 5.0, 5.0]]]], requires_grad=True)
    y, idx = F.max_pool2d(x, 2, return_indices=True)
    o["y"], o["idx"] = y, idx
    y1, idx1 = F.max_pool2d(x, 3, stride=1, padding=1, return_indices=True)
    o["y1"], o["idx1"] = y1, idx1
    y1.sum().backward()
    o["x.grad"] = x.grad
    v, i = F.max_pool1d(x[0, 0], 2, return_indices=True)
    o["v1d"], o["i1d"] = v, i
    o.tree("v1d.tree", v, 4)
    a, ai = F.adaptive_max_pool2d(x, (3, 2), return_indices=True)
    o["amax"], o["amax_idx"] = a, ai


@case
def conv_saved_values(T, F, o):
    x, w, b = leaf(T, 1, 2, 3, 6, 6), leaf(T, 2, 4, 3, 3, 3), leaf(T, 3, 4)
    y = F.conv2d(x, w, b, stride=2, padding=1)
    n = y.grad_fn
    for name in ("stride", "padding", "dilation", "groups", "transposed", "output_padding", "bias_sym_sizes_opt"):
        o[f"conv.{name}"] = getattr(n, f"_saved_{name}")
    o["conv.input"], o["conv.weight"] = n._saved_input, n._saved_weight
    y1 = F.conv1d(x[:, :, 0], w[:, :, 0])
    for name in ("stride", "padding", "dilation", "output_padding", "bias_sym_sizes_opt"):
        o[f"conv1d.{name}"] = getattr(y1.grad_fn, f"_saved_{name}")
    m = F.max_pool2d(x, 3, padding=1).grad_fn
    for name in ("kernel_size", "stride", "padding", "dilation", "ceil_mode"):
        o[f"max.{name}"] = getattr(m, f"_saved_{name}")
    o["max.result1"] = m._saved_result1
    a = F.avg_pool2d(x, 2, stride=1, count_include_pad=False).grad_fn
    for name in ("kernel_size", "stride", "padding", "ceil_mode", "count_include_pad", "divisor_override"):
        o[f"avg.{name}"] = getattr(a, f"_saved_{name}")
    u = F.unfold(x, 2, padding=1).grad_fn
    for name in ("kernel_size", "dilation", "padding", "stride", "self_sym_argsize_minus_2",
                 "self_sym_argsize_minus_1"):
        o[f"unfold.{name}"] = getattr(u, f"_saved_{name}")
    g = T.autograd.grad(F.conv2d(x, w, b).sum(), x, create_graph=True)[0].grad_fn
    o["convbb"] = type(g).__name__
    for name in ("stride", "padding", "dilation", "groups", "transposed", "output_padding"):
        o[f"convbb.{name}"] = getattr(g, f"_saved_{name}")


# ---------------------------------------------------------------------------------- modules
@case
def conv_modules(T, F, o):
    nn = T.nn
    mods = {
        "conv1d": nn.Conv1d(3, 6, 3),
        "conv2d": nn.Conv2d(3, 6, (3, 5), stride=2, padding=1, dilation=2, groups=3, bias=False),
        "conv2d_same": nn.Conv2d(3, 6, 3, padding="same"),
        "conv2d_valid": nn.Conv2d(3, 6, 3, padding="valid"),
        "maxpool1d": nn.MaxPool1d(3), "maxpool2d": nn.MaxPool2d(2, 1, 1, ceil_mode=True),
        "avgpool1d": nn.AvgPool1d(3), "avgpool2d": nn.AvgPool2d((2, 3), padding=1),
        "aavg1d": nn.AdaptiveAvgPool1d(2), "aavg2d": nn.AdaptiveAvgPool2d((1, 2)), "amax2d": nn.AdaptiveMaxPool2d(3),
        "unfold": nn.Unfold(2), "fold": nn.Fold((4, 4), 2),
    }
    for name, m in mods.items():
        o.repr(f"{name}.repr", m)
        o[f"{name}.params"] = [[k, list(p.shape)] for k, p in m.named_parameters()]
    conv = nn.Conv2d(2, 3, 2)
    with T.no_grad():
        conv.weight.copy_(const(T, 4, 3, 2, 2, 2))
        conv.bias.copy_(const(T, 5, 3))
    x = leaf(T, 6, 1, 2, 4, 4)
    fwd_bwd(T, o, conv(x), name="conv", x=x, w=conv.weight, b=conv.bias)
    o["attrs"] = [conv.kernel_size, conv.stride, conv.padding, conv.dilation, conv.groups, conv.padding_mode,
                  conv.transposed, conv.output_padding]
    p = nn.AvgPool1d(3, 2)
    o["avgpool1d.attrs"] = [p.kernel_size, p.stride, p.padding]
    q = nn.MaxPool2d(3)
    o["maxpool2d.attrs"] = [q.kernel_size, q.stride, q.padding, q.dilation]
    y, i = nn.MaxPool2d(2, return_indices=True)(x)
    o["maxpool.idx"] = i


@case
def conv_init_bounds(T, F, o):
    T.manual_seed(0)
    m = T.nn.Conv2d(4, 6, 3)
    bound = 1 / (4 * 9) ** 0.5  # kaiming_uniform_(a=sqrt(5)) and the bias: both within 1/sqrt(fan_in)
    o["w_in_bound"] = bool(m.weight.abs().max().item() <= bound)
    o["b_in_bound"] = bool(m.bias.abs().max().item() <= bound)
    o["w_spread"] = bool(m.weight.abs().max().item() > 0.8 * bound)


# ---------------------------------------------------------------------------------- errors
_ERRORS = {
    "conv_2d_input": lambda T, F: F.conv2d(const(T, 1, 3, 8), const(T, 2, 4, 3, 3, 3)),
    "conv_channels": lambda T, F: F.conv2d(const(T, 1, 2, 5, 8, 8), const(T, 2, 4, 3, 3, 3)),
    "conv_channels_unbatched": lambda T, F: F.conv2d(const(T, 1, 5, 8, 8), const(T, 2, 4, 3, 3, 3)),
    "conv_kernel_too_big": lambda T, F: F.conv2d(const(T, 1, 2, 3, 2, 2), const(T, 2, 4, 3, 3, 3)),
    "conv_dilated_too_big": lambda T, F: F.conv2d(const(T, 1, 2, 3, 4, 4), const(T, 2, 4, 3, 3, 3), dilation=2),
    "conv_groups_channels": lambda T, F: F.conv2d(const(T, 1, 2, 3, 8, 8), const(T, 2, 4, 3, 3, 3), groups=2),
    "conv_groups_weight": lambda T, F: F.conv2d(const(T, 1, 2, 6, 8, 8), const(T, 2, 3, 3, 3, 3), groups=2),
    "conv_bias": lambda T, F: F.conv2d(const(T, 1, 2, 3, 8, 8), const(T, 2, 4, 3, 3, 3), const(T, 3, 5)),
    "conv_same_strided": lambda T, F: F.conv2d(const(T, 1, 2, 3, 8, 8), const(T, 2, 4, 3, 3, 3), stride=2,
                                               padding="same"),
    "conv_bad_string": lambda T, F: F.conv2d(const(T, 1, 2, 3, 8, 8), const(T, 2, 4, 3, 3, 3), padding="foo"),
    "conv_stride_0": lambda T, F: F.conv2d(const(T, 1, 2, 3, 8, 8), const(T, 2, 4, 3, 3, 3), stride=0),
    "conv_negative_pad": lambda T, F: F.conv2d(const(T, 1, 2, 3, 8, 8), const(T, 2, 4, 3, 3, 3), padding=-1),
    "conv_dilation_0": lambda T, F: F.conv2d(const(T, 1, 2, 3, 8, 8), const(T, 2, 4, 3, 3, 3), dilation=0),
    "conv_groups_0": lambda T, F: F.conv2d(const(T, 1, 2, 3, 8, 8), const(T, 2, 4, 3, 3, 3), groups=0),
    "conv_stride_len": lambda T, F: F.conv2d(const(T, 1, 2, 3, 8, 8), const(T, 2, 4, 3, 3, 3), stride=(1, 2, 3)),
    "conv_dtypes": lambda T, F: F.conv2d(const(T, 1, 2, 3, 8, 8), const(T, 2, 4, 3, 3, 3, dtype="float64")),
    "conv_bias_dtype": lambda T, F: F.conv2d(const(T, 1, 2, 3, 8, 8), const(T, 2, 4, 3, 3, 3),
                                             const(T, 3, 4, dtype="float64")),
    "conv1d_weight_dims": lambda T, F: F.conv1d(const(T, 1, 2, 3, 8), const(T, 2, 4, 3, 3, 3)),
    "conv1d_too_short": lambda T, F: F.conv1d(const(T, 1, 2, 3, 2), const(T, 2, 4, 3, 3)),
    "Conv2d_groups_in": lambda T, F: T.nn.Conv2d(3, 4, 3, groups=2),
    "Conv2d_groups_out": lambda T, F: T.nn.Conv2d(4, 3, 3, groups=2),
    "Conv2d_same_strided": lambda T, F: T.nn.Conv2d(4, 4, 3, padding="same", stride=2),
    "max_pool_pad": lambda T, F: F.max_pool2d(const(T, 1, 2, 3, 8, 8), 3, padding=2),
    "max_pool_1d_input": lambda T, F: F.max_pool2d(const(T, 1, 8), 3),
    "max_pool_too_small": lambda T, F: F.max_pool2d(const(T, 1, 2, 3, 2, 2), 3),
    "max_pool_no_channels": lambda T, F: F.max_pool2d(T.zeros(2, 0, 8, 8), 2),
    "max_pool_stride_0": lambda T, F: F.max_pool2d(const(T, 1, 2, 3, 8, 8), 3, stride=0),
    "max_pool_dilation_0": lambda T, F: F.max_pool2d(const(T, 1, 2, 3, 8, 8), 3, dilation=0),
    "max_pool_kernel_len": lambda T, F: F.max_pool2d(const(T, 1, 2, 3, 8, 8), (1, 2, 3)),
    "max_pool_stride_len": lambda T, F: F.max_pool2d(const(T, 1, 2, 3, 8, 8), 2, stride=(1, 2, 3)),
    "avg_pool_pad": lambda T, F: F.avg_pool2d(const(T, 1, 2, 3, 8, 8), 3, padding=2),
    "avg_pool_too_small": lambda T, F: F.avg_pool2d(const(T, 1, 2, 3, 2, 2), 3),
    "avg_pool_divisor_0": lambda T, F: F.avg_pool2d(const(T, 1, 2, 3, 8, 8), 2, divisor_override=0),
    "avg_pool_2d_input": lambda T, F: F.avg_pool2d(const(T, 1, 8, 8), 2),
    "max_pool1d_1d_input": lambda T, F: F.max_pool1d(const(T, 1, 8), 3),
    "max_pool1d_too_small": lambda T, F: F.max_pool1d(const(T, 1, 2, 3, 2), 3),
    "max_pool1d_pad": lambda T, F: F.max_pool1d(const(T, 1, 2, 3, 8), 3, padding=2),
    "avg_pool1d_1d_input": lambda T, F: F.avg_pool1d(const(T, 1, 8), 3),
    "avg_pool1d_too_small": lambda T, F: F.avg_pool1d(const(T, 1, 2, 3, 2), 3),
    "adaptive_avg_1d_input": lambda T, F: F.adaptive_avg_pool2d(const(T, 1, 8), 3),
    "adaptive_avg_size_len": lambda T, F: F.adaptive_avg_pool2d(const(T, 1, 2, 3, 8, 8), (1, 2, 3)),
    "adaptive_avg_long": lambda T, F: F.adaptive_avg_pool2d(T.zeros(2, 3, 4, 4, dtype=T.int64), 2),
    "adaptive_max_size_len": lambda T, F: F.adaptive_max_pool2d(const(T, 1, 2, 3, 8, 8), (1, 2, 3)),
    "adaptive_max_1d_input": lambda T, F: F.adaptive_max_pool2d(const(T, 1, 8), 1),
    "adaptive_avg1d_1d_input": lambda T, F: F.adaptive_avg_pool1d(const(T, 1, 8), 1),
    "unfold_blocks": lambda T, F: F.unfold(const(T, 1, 2, 3, 4, 4), 5),
    "unfold_kernel_len": lambda T, F: F.unfold(const(T, 1, 2, 3, 4, 4), (2, 2, 2)),
    "unfold_stride_0": lambda T, F: F.unfold(const(T, 1, 2, 3, 4, 4), 2, stride=0),
    "unfold_negative_pad": lambda T, F: F.unfold(const(T, 1, 2, 3, 4, 4), 2, padding=-1),
    "unfold_no_channels": lambda T, F: F.unfold(T.zeros(2, 0, 4, 4), 2),
    "unfold_2d_input": lambda T, F: F.unfold(const(T, 1, 4, 4), 2),
    "unfold_long": lambda T, F: F.unfold(T.zeros(2, 3, 4, 4, dtype=T.int64), 2),
    "fold_4d_input": lambda T, F: F.fold(const(T, 1, 2, 2, 12, 9), (4, 4), 2),
    "fold_kernel_0": lambda T, F: F.fold(const(T, 1, 2, 12, 9), (4, 4), 0),
    "fold_channels": lambda T, F: F.fold(const(T, 1, 2, 13, 9), (4, 4), 2),
    "fold_blocks": lambda T, F: F.fold(const(T, 1, 2, 12, 8), (4, 4), 2),
}


@case
def conv_errors(T, F, o):
    for name, fn in _ERRORS.items():
        o.err(name, lambda: fn(T, F))


@case
def conv_same_even_kernel(T, F, o):  # (its warning comes once per process: see test_conv.py)
    x, w = leaf(T, 1, 1, 2, 5, 5), leaf(T, 2, 3, 2, 2, 2)
    fwd_bwd(T, o, F.conv2d(x, w, padding="same"), depth=4, x=x, w=w)
