"""PyTorch-parity cases for how elementwise results are laid out (``x.stride()``; see ``cases.py`` for the conventions).

PyTorch lays out a new result in one of three ways, and each op uses the one its kernel uses: ``TensorIterator``'s
rule (a unary op on a row-major input: a row-major result, whatever the strides of its dims of size 1; with a
wrapped number beside it: the input's dim order), ``empty_like`` (``hardtanh``, ``nan_to_num``: the input's own
strides where it has no gaps), or row-major always.  Only dims of size 1 and permuted inputs tell them apart.
"""
from . import case


def _layouts(T):
    """The inputs: dims of size 1 with unusual strides, a permuted dense tensor, a transposed one, one with gaps,
    an expanded one, and a 4-d image stored channels-last (a permutation: minigrad has no channels_last format)."""
    base = T.tensor([[0.3, -1.2, 2.5, 0.7], [1.1, -0.4, 0.2, -2.2], [0.9, 0.05, -0.6, 1.7]])
    return {
        "t(2,1)": T.tensor([[-1.4, -1.37]]).mT,
        "perm(2,1,3)": T.tensor([[[0.5, -0.2]], [[1.5, 0.3]], [[-0.7, 2.0]]]).permute(2, 1, 0),
        "t(3,4)": base.t(),
        "gap": base[:, ::2],
        "expand": base[:, :1].expand(3, 4),
        "t(1,3)": base[:1].t(),
        "image": base.reshape(1, 2, 2, 3).permute(0, 3, 1, 2),
    }


def _record(T, o, ops):
    for iname, x in _layouts(T).items():
        for oname, f in ops.items():
            o[f"{oname}|{iname}"] = list(f(x).stride())


@case
def layouts_activations(T, F, o):
    _record(T, o, {
        "relu6": F.relu6, "hardtanh": F.hardtanh, "elu": F.elu, "selu": F.selu, "celu": F.celu,
        "softplus": F.softplus, "hardshrink": F.hardshrink, "softshrink": F.softshrink, "leaky_relu": F.leaky_relu,
        "threshold": lambda t: F.threshold(t, 0.1, 2.0), "gelu": F.gelu, "silu": F.silu, "mish": F.mish,
        "hardsigmoid": F.hardsigmoid, "hardswish": F.hardswish, "logsigmoid": F.logsigmoid,
        "rrelu_eval": lambda t: F.rrelu(t, training=False), "glu": lambda t: F.glu(t, 0) if t.shape[0] % 2 == 0 else t,
    })


@case
def layouts_unary_and_scalar_ops(T, F, o):
    _record(T, o, {
        "nan_to_num": T.nan_to_num, "clamp": lambda t: t.clamp(-0.5, 0.5), "clamp_min": lambda t: t.clamp_min(0),
        "clamp_max": lambda t: t.clamp_max(0), "lerp": lambda t: t.lerp(t * 2, 0.3), "lerp_t": lambda t: t.lerp(t * 2, t),
        "deg2rad": T.deg2rad, "rad2deg": T.rad2deg, "sub_r": lambda t: 1 - t, "add_s": lambda t: t + 1,
        "mul_s": lambda t: t * 2, "div_s": lambda t: t / 3, "pow_s": lambda t: t ** 3, "rpow": lambda t: 2 ** t,
        "exp": T.exp, "neg": T.neg, "abs": T.abs, "sign": T.sign, "frac": T.frac, "round": T.round,
        "where_s": lambda t: T.where(t > 0, t, 0.0), "masked_fill": lambda t: t.masked_fill(t > 0, 0.0),
        "copysign_s": lambda t: T.copysign(t, -1.0), "fmod_s": lambda t: T.fmod(t, 0.7),
        "remainder_s": lambda t: T.remainder(t, 0.7), "xlogy": lambda t: T.xlogy(t, t.abs() + 1),
    })


@case
def layouts_reductions_indexing_and_joins(T, F, o):
    """(Not recorded: ``sum(keepdim=True)``'s dims of size 1, and channels-last images through cat, stack, roll and
    pad, which PyTorch keeps channels-last: the README lists both.)"""
    _record(T, o, {
        "sum1": lambda t: t.sum(1), "amax0": lambda t: t.amax(0), "max0": lambda t: t.max(0)[0],
        "argmax1k": lambda t: t.argmax(1, keepdim=True), "prod0": lambda t: t.prod(0), "norm1": lambda t: t.norm(dim=1),
        "logsumexp0": lambda t: t.logsumexp(0), "cumsum1": lambda t: t.cumsum(1), "softmax0": lambda t: t.softmax(0),
        "sort1": lambda t: t.sort(1)[0], "sort1i": lambda t: t.sort(1)[1], "topk": lambda t: t.topk(1, 0)[0],
        "cummax": lambda t: t.cummax(1)[0], "cummax_i": lambda t: t.cummax(1)[1], "cummin": lambda t: t.cummin(0)[0],
        "flip": lambda t: t.flip(0), "repeat": lambda t: t.repeat(2, *([1] * (t.dim() - 1))),
        "index0": lambda t: t[T.tensor([0, 0])], "index1": lambda t: t[:, T.tensor([0, 0])],
        "gather": lambda t: t.gather(0, T.zeros(t.shape, dtype=T.long)), "index_select": lambda t: t.index_select(1, T.tensor([0])),
        "index_select0": lambda t: t.index_select(0, T.tensor([0])), "where": lambda t: T.where(t > 0, t, t * 2),
        "matmul": lambda t: t @ t.mT, "to64": lambda t: t.double(), "randn_like": T.randn_like, "rand_like": T.rand_like,
        "randint_like": lambda t: T.randint_like(t, 5), "empty_like": T.empty_like, "layer_norm": lambda t: F.layer_norm(t, t.shape[-1:]),
        "mse": lambda t: F.mse_loss(t, t * 2, reduction="none"), "lerp_w": lambda t: T.lerp(t, t * 2, t.sigmoid()),
    })
    for iname, x in _layouts(T).items():
        if iname != "image":
            o[f"cat|{iname}"] = list(T.cat([x, x], 0).stride())
            o[f"stack|{iname}"] = list(T.stack([x, x], 1).stride())


@case
def layouts_gradients(T, F, o):
    """The gradient ``autograd.grad`` returns laid out as PyTorch's backward kernels lay it out (each kernel's
    ``TensorIterator`` takes its operands in its own order: ``tanh_backward(grad, out)``, ``threshold_backward(self,
    grad)``...).  (Not recorded: two gradients summed in PyTorch's ``InputBuffer``, which adds in place into one it
    alone holds, and ``mse_loss``/``layer_norm``, whose gradients' dims of size 1 differ: the README lists them.)"""
    ops = {
        "relu": F.relu, "relu6": F.relu6, "hardtanh": F.hardtanh, "elu": F.elu, "celu": F.celu, "softplus": F.softplus,
        "hardshrink": F.hardshrink, "softshrink": F.softshrink, "leaky_relu": F.leaky_relu,
        "threshold": lambda t: F.threshold(t, 0.1, 2.0), "gelu": F.gelu, "silu": F.silu, "mish": F.mish,
        "hardsigmoid": F.hardsigmoid, "hardswish": F.hardswish, "logsigmoid": F.logsigmoid, "sigmoid": T.sigmoid,
        "tanh": T.tanh, "clamp": lambda t: t.clamp(-0.5, 0.5), "clamp_min": lambda t: t.clamp_min(0),
        "clamp_max": lambda t: t.clamp_max(0), "where_s": lambda t: T.where(t > 0, t, 0.0), "exp": T.exp,
        "abs": T.abs, "pow_s": lambda t: t ** 3, "mul_s": lambda t: t * 2, "sub_r": lambda t: 1 - t,
        "softmax": lambda t: F.softmax(t, -1), "log_softmax": lambda t: F.log_softmax(t, 0),
        "sum": lambda t: t.sum(0, keepdim=True), "mean": lambda t: t.mean(-1), "cumsum": lambda t: t.cumsum(0),
        "sort": lambda t: t.sort(0)[0], "index_select": lambda t: t.index_select(0, T.tensor([0, 0])),
        "cat": lambda t: T.cat([t, t * 2], 0), "gather": lambda t: t.gather(0, T.zeros(t.shape, dtype=T.long)),
        "flip": lambda t: t.flip(0), "prod": lambda t: t.prod(0), "to64": lambda t: t.double(),
    }
    for iname, x in _layouts(T).items():
        for oname, f in ops.items():
            x = x.detach().requires_grad_()
            y = f(x)
            g = T.ones(y.shape).t().contiguous().t() if y.dim() == 2 else T.ones(y.shape)  # (a column-major one too)
            o[f"{oname}|{iname}"] = list(T.autograd.grad(y, x, g)[0].stride())
