"""PyTorch-parity cases for attention (issue 41): ``F.scaled_dot_product_attention`` on the CPU (the flash node
where PyTorch's dispatch picks it, the math composite elsewhere), ``nn.MultiheadAttention`` and
``F.multi_head_attention_forward`` (see ``cases.py`` for the conventions and the input helpers)."""
import numpy as np

from . import case
from .cases import arr, const, fwd_bwd, leaf


# ---------------------------------------------------------------------------------- scaled_dot_product_attention
def _bool_mask(T, seed, *shape):
    m = arr(seed, *shape) > -1.0
    m[..., 0] = True
    return T.tensor(m.tolist())


# name: (query, key, value shapes, keyword builder, which inputs require grad)
_SDPA = {
    "plain": ((2, 3, 4, 8), (2, 3, 5, 8), (2, 3, 5, 8), lambda T: {}),
    "causal": ((2, 3, 4, 8), (2, 3, 5, 8), (2, 3, 5, 8), lambda T: {"is_causal": True}),
    "bool_mask": ((2, 3, 4, 8), (2, 3, 5, 8), (2, 3, 5, 8), lambda T: {"attn_mask": _bool_mask(T, 41, 4, 5)}),
    "float_mask_scale": ((1, 2, 3, 4), (1, 2, 5, 4), (1, 2, 5, 4),
                         lambda T: {"attn_mask": const(T, 42, 3, 5), "scale": 0.3}),
    "mask_4d_negative_scale": ((2, 2, 3, 4), (2, 2, 5, 4), (2, 2, 5, 4),
                               lambda T: {"attn_mask": const(T, 43, 2, 1, 3, 5), "scale": -0.5}),
    "causal_and_mask_flash": ((1, 2, 4, 4), (1, 2, 4, 4), (1, 2, 4, 4),
                              lambda T: {"attn_mask": const(T, 44, 4, 4), "is_causal": True}),
    "gqa_flash": ((1, 4, 3, 4), (1, 2, 5, 4), (1, 2, 5, 4), lambda T: {"enable_gqa": True}),
    "head_dims_differ": ((2, 2, 3, 4), (2, 2, 5, 4), (2, 2, 5, 6), lambda T: {}),
    "math_causal": ((2, 2, 3, 4), (2, 2, 5, 4), (2, 2, 5, 6), lambda T: {"is_causal": True}),
    "math_bool_mask_hidden_row": ((1, 2, 3, 4), (1, 2, 5, 4), (1, 2, 5, 6),
                                  lambda T: {"attn_mask": T.tensor([[True] * 5, [False] * 5, [True, False] * 2 + [True]])}),
    "math_gqa": ((1, 4, 3, 4), (1, 2, 5, 4), (1, 1, 5, 4), lambda T: {"enable_gqa": True}),
    "three_d": ((3, 4, 8), (3, 5, 8), (3, 5, 8), lambda T: {"scale": 0.25}),
    "two_d_causal": ((4, 8), (5, 8), (5, 8), lambda T: {"is_causal": True}),
    "broadcast_batch": ((2, 2, 3, 4), (1, 2, 5, 4), (1, 2, 5, 4), lambda T: {}),
}


def _sdpa_case(qs, ks, vs, kwargs, dtype):
    def c(T, F, o):
        q, k, v = leaf(T, 1, *qs, dtype=dtype), leaf(T, 2, *ks, dtype=dtype), leaf(T, 3, *vs, dtype=dtype)
        y = F.scaled_dot_product_attention(q, k, v, **kwargs(T))
        fwd_bwd(T, o, y, depth=4, q=q, k=k, v=v)
    return c


for _name, (_qs, _ks, _vs, _kw) in _SDPA.items():
    for _dt in ("float32", "float64"):
        case(_sdpa_case(_qs, _ks, _vs, _kw, _dt), name=f"sdpa_{_name}_{_dt}", rtol=1e-5, atol=1e-6)


@case
def sdpa_flash_node_saved(T, F, o):
    """The flash node's saved values, and its NotImplemented double backward."""
    q, k, v = leaf(T, 4, 1, 2, 3, 4), leaf(T, 5, 1, 2, 5, 4), leaf(T, 6, 1, 2, 5, 4)
    y = F.scaled_dot_product_attention(q, k, v, attn_mask=_bool_mask(T, 45, 3, 5), scale=0.5)
    g = y.grad_fn
    o["saved_mask"] = g._saved_attn_mask
    o["saved_lse_shape"] = list(g._saved_logsumexp.shape)
    o["saved_numbers"] = [g._saved_scale, g._saved_is_causal, g._saved_dropout_p]
    o["saved_output_is_y"] = bool((g._saved_output == y).all())
    gq, gk, gv = T.autograd.grad(y.sum(), (q, k, v), create_graph=True)
    o["same_node"] = gq.grad_fn is gv.grad_fn
    o["edges"] = [type(n).__name__ for n, _ in gq.grad_fn.next_functions]
    o.err("double_backward", lambda: T.autograd.grad(gk.sum(), k))


@case
def sdpa_layout_follows_query(T, F, o):
    q = leaf(T, 7, 2, 4, 3, 8).transpose(1, 2)
    k, v = leaf(T, 8, 2, 3, 5, 8), leaf(T, 9, 2, 3, 5, 8)
    o["stride"] = list(F.scaled_dot_product_attention(q, k, v).stride())


@case
def sdpa_dropout_properties(T, F, o):
    """Dropout takes the math path; the masks differ from PyTorch's, so only the graph and p=1 are compared."""
    q, k, v = leaf(T, 10, 1, 2, 3, 4), leaf(T, 11, 1, 2, 5, 4), leaf(T, 12, 1, 2, 5, 4)
    o.tree("tree", F.scaled_dot_product_attention(q, k, v, dropout_p=0.5), depth=4)
    o["p1"] = F.scaled_dot_product_attention(q, k, v, dropout_p=1.0)


@case
def sdpa_errors(T, F, o):
    q, k, v = leaf(T, 13, 1, 2, 3, 4), leaf(T, 14, 1, 2, 5, 4), leaf(T, 15, 1, 2, 5, 4)
    sdpa = F.scaled_dot_product_attention
    o.err("dtypes", lambda: sdpa(q, k.double(), v))
    o.err("one_d", lambda: sdpa(q[0, 0, 0], k[0, 0, 0], v[0, 0, 0]))
    o.err("mask_dtype", lambda: sdpa(q, k, v, attn_mask=T.zeros(3, 5, dtype=T.int64)))
    o.err("mask_shape", lambda: sdpa(q, k, v[..., :3], attn_mask=T.zeros(3, 4)))
    o.err("key_size", lambda: sdpa(q, k[..., :3], v))
    o.err("causal_and_mask_math", lambda: sdpa(q, k, v[..., :3], attn_mask=T.zeros(3, 5), is_causal=True))
    o.err("gqa_heads", lambda: sdpa(leaf(T, 16, 1, 3, 3, 4), k, v, enable_gqa=True))
    o.err("heads_without_gqa", lambda: sdpa(leaf(T, 16, 1, 3, 3, 4), k, v))
    o.err("dropout_above_1", lambda: sdpa(q, k, v, dropout_p=1.5))
    o.err("integers", lambda: sdpa(q.long(), k.long(), v.long()))


# ---------------------------------------------------------------------------------- MultiheadAttention
def _mha(T, embed=8, heads=2, dtype="float32", seed=50, **kwargs):
    """A MultiheadAttention in eval mode with its parameters set from numpy (PyTorch's initial values are
    random, so they are replaced)."""
    m = T.nn.MultiheadAttention(embed, heads, dtype=getattr(T, dtype), **kwargs).eval()
    with T.no_grad():
        for i, (_, p) in enumerate(m.named_parameters()):
            p.copy_(T.tensor((arr(seed + i, *tuple(p.shape)) * 0.3).tolist(), dtype=getattr(T, dtype)))
    return m


@case
def mha_parameters(T, F, o):
    m = T.nn.MultiheadAttention(8, 2)
    o["names"] = [[n, list(p.shape)] for n, p in m.named_parameters()]
    o["in_proj_bias"] = m.in_proj_bias
    o["out_proj_bias"] = m.out_proj.bias
    o["bound"] = bool(m.in_proj_weight.abs().max() <= (6 / 32) ** 0.5)
    o.repr("repr", m)
    m2 = T.nn.MultiheadAttention(8, 4, kdim=6, vdim=5, bias=False, add_bias_kv=True)
    o["names_kv"] = [[n, list(p.shape)] for n, p in m2.named_parameters()]
    o["batch_first"] = [m.batch_first, m.head_dim, m2._qkv_same_embed_dim]
    o.err("indivisible", lambda: T.nn.MultiheadAttention(9, 2))
    o.err("zero_heads", lambda: T.nn.MultiheadAttention(8, 0))


_MHA = {
    "self": ({}, {}, "self"),
    "self_no_weights": ({}, {"need_weights": False}, "self"),
    "batch_first": ({"batch_first": True}, {}, "self"),
    "batch_first_no_weights": ({"batch_first": True}, {"need_weights": False}, "self"),
    "per_head_weights": ({}, {"average_attn_weights": False}, "self"),
    "causal_mask": ({}, {"attn_mask": "causal"}, "self"),
    "causal_mask_is_causal": ({}, {"attn_mask": "causal", "is_causal": True, "need_weights": False}, "self"),
    "key_padding": ({}, {"key_padding_mask": "pad"}, "self"),
    "key_padding_no_weights": ({}, {"key_padding_mask": "pad", "need_weights": False}, "self"),
    "cross": ({}, {}, "cross"),
    "kdim_vdim": ({"kdim": 6, "vdim": 5}, {"need_weights": False}, "kv"),
    "bias_kv_zero_attn": ({"add_bias_kv": True, "add_zero_attn": True}, {"attn_mask": "float"}, "self"),
    "no_bias": ({"bias": False}, {}, "self"),
}


def _mha_case(make_kw, fwd_kw, kind, dtype):
    def c(T, F, o):
        m = _mha(T, dtype=dtype, **make_kw)
        bf = make_kw.get("batch_first", False)
        x = leaf(T, 60, *((3, 4, 8) if bf else (4, 3, 8)), dtype=dtype)
        if kind == "self":
            q = k = v = x
        elif kind == "cross":
            q, k = x, leaf(T, 61, 5, 3, 8, dtype=dtype)
            v = k
        else:
            q, k, v = x, leaf(T, 61, 5, 3, 6, dtype=dtype), leaf(T, 62, 5, 3, 5, dtype=dtype)
        kw = dict(fwd_kw)
        if kw.get("attn_mask") == "causal":
            kw["attn_mask"] = T.tensor(np.triu(np.ones((4, 4), bool), 1).tolist())
        elif kw.get("attn_mask") == "float":
            kw["attn_mask"] = const(T, 63, 4, 4, dtype=dtype)
        if kw.get("key_padding_mask") == "pad":
            kw["key_padding_mask"] = T.tensor([[False, False, True, True], [False] * 4, [False, True, False, True]])
        out, w = m(q, k, v, **kw)
        o.all(out, "out", depth=5)
        o["weights"] = w
        loss = (out * const(T, 64, *tuple(out.shape), dtype=dtype)).sum()
        if w is not None:
            loss = loss + (w * const(T, 65, *tuple(w.shape), dtype=dtype)).sum()
        loss.backward()
        o.grads("", **{n.replace(".", "_"): p for n, p in m.named_parameters()})
        o.grads("", x=x)
    return c


for _name, (_mk, _fk, _kind) in _MHA.items():
    case(_mha_case(_mk, _fk, _kind, "float32"), name=f"mha_{_name}", rtol=1e-5, atol=1e-5)
case(_mha_case({}, {"attn_mask": "causal"}, "self", "float64"), name="mha_causal_mask_float64")


@case
def mha_unbatched_and_functional(T, F, o):
    m = _mha(T)
    x = leaf(T, 70, 4, 8)
    out, w = m(x, x, x, key_padding_mask=T.tensor([False, True, False, False]))
    o.all(out, "out", depth=4)
    o["weights"] = w
    out2, none = F.multi_head_attention_forward(x[:, None], x[:, None], x[:, None], 8, 2, m.in_proj_weight,
                                                m.in_proj_bias, None, None, False, 0.0, m.out_proj.weight,
                                                m.out_proj.bias, need_weights=False)
    o["functional"] = out2
    o["none"] = none


@case
def mha_masks_warn_and_errors(T, F, o):
    m = _mha(T)
    x = leaf(T, 71, 4, 3, 8)
    pad = T.tensor([[False, False, True, True]] * 3)
    o.warns("mismatched", lambda: m(x, x, x, key_padding_mask=pad, attn_mask=const(T, 72, 4, 4)))
    o.err("is_causal_without_mask", lambda: m(x, x, x, is_causal=True))
    o.err("mask_2d_shape", lambda: m(x, x, x, attn_mask=T.zeros(3, 4)))
    o.err("mask_3d_shape", lambda: m(x, x, x, attn_mask=T.zeros(2, 4, 4)))
    o.err("mask_int", lambda: m(x, x, x, attn_mask=T.zeros(4, 4, dtype=T.int64)))
    o.err("embed_dim", lambda: m(x[..., :6], x[..., :6], x[..., :6]))
    o.err("key_value_shapes", lambda: m(x, x, x[:3]))
    o.err("four_d", lambda: m(x[None], x[None], x[None]))
    o.err("padding_shape", lambda: m(x, x, x, key_padding_mask=T.zeros(3, 5, dtype=T.bool)))


# ---------------------------------------------------------------------------------- TransformerEncoderLayer
def _encoder_case(kwargs, fwd):
    def c(T, F, o):
        m = T.nn.TransformerEncoderLayer(8, 2, 16, dropout=0.0, **kwargs)
        with T.no_grad():
            for i, (_, p) in enumerate(m.named_parameters()):
                p.copy_(T.tensor((arr(80 + i, *tuple(p.shape)) * 0.3).tolist()))
        bf = kwargs.get("batch_first", False)
        x = leaf(T, 79, *((3, 4, 8) if bf else (4, 3, 8)))
        kw = {}
        if fwd.get("mask"):
            kw["src_mask"] = T.tensor(np.triu(np.ones((4, 4), bool), 1).tolist())
        if fwd.get("pad"):
            kw["src_key_padding_mask"] = T.tensor([[False, False, True, True], [False] * 4, [False, True, False, False]])
        y = m(x, **kw)
        o.all(y, "y", depth=4)
        (y * const(T, 78, *tuple(y.shape))).sum().backward()
        o.grads("", x=x, **{n.replace(".", "_"): p for n, p in m.named_parameters()})
    return c


for _name, (_kw, _fwd) in {"post_norm": ({}, {}), "pre_norm_batch_first": ({"norm_first": True, "batch_first": True}, {}),
                           "gelu_masks": ({"activation": "gelu"}, {"mask": True, "pad": True})}.items():
    case(_encoder_case(_kw, _fwd), name=f"encoder_layer_{_name}", rtol=1e-5, atol=1e-5)


@case
def encoder_layer_module(T, F, o):
    m = T.nn.TransformerEncoderLayer(8, 2, 16)
    o.repr("repr", m)
    o["names"] = [[n, list(p.shape)] for n, p in m.named_parameters()]
    o["flags"] = [m.norm_first, m.activation_relu_or_gelu, m.self_attn.batch_first, m.dropout.p]
    o.err("activation", lambda: T.nn.TransformerEncoderLayer(8, 2, activation="tanh"))
