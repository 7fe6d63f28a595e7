"""Attention as functions: ``scaled_dot_product_attention``'s math composite and the choice of path, and
multi-head attention (PyTorch: ``F.multi_head_attention_forward`` in ``torch/nn/functional.py``).

``scaled_dot_product_attention`` runs PyTorch's CPU flash kernel (``ops/attention.py``: one node) where PyTorch's
dispatch picks it, else the composite PyTorch records (``math_attention``).

PyTorch writes it in Python out of other ops, so minigrad composes the same ops in the same order and the same
nodes appear: the packed in-projection (one ``linear``, then ``unflatten``/``transpose``/``contiguous``), heads
made by ``view`` and ``transpose``, then either the explicit path when the attention weights are asked for
(``need_weights=True``: ``bmm`` or ``baddbmm`` with the mask, ``softmax``, ``bmm``), or
``scaled_dot_product_attention`` when they are not.  The out-projection is a ``linear``.
"""
import math
import warnings

from .. import creation
from ..ops.attention import Baddbmm, FlashAttention, SafeSoftmax, causal_mask, check_inputs, default_scale, float_mask, uses_flash
from ..ops.elementwise import MulScalar
from ..ops.linalg import matmul
from ..ops.shape import cat
from .functional_linear import linear
from .functional_more import dropout, pad


# ------------------------------------------------------------------ scaled_dot_product_attention
def _repeated_heads(query, key, value, enable_gqa):
    """``pre_process_group_query_attention_input``: key and value heads repeated (``repeat_interleave``) to the
    query's number."""
    if not enable_gqa:
        return key, value
    heads = query.shape[-3]
    if heads % key.shape[-3] or heads % value.shape[-3]:
        raise RuntimeError("Number of heads in key and value must divide the number of heads in ")
    if key.shape[-3] != heads:
        key = key.repeat_interleave(heads // key.shape[-3], -3)
    if value.shape[-3] != heads:
        value = value.repeat_interleave(heads // value.shape[-3], -3)
    return key, value


def _times(t, number):
    """``t * number`` as C++ writes it: ``MulBackward1``; an integer tensor becomes a float one."""
    return MulScalar.apply(t, number) if t.is_floating_point() else t * number


def math_attention(query, key, value, attn_mask, dropout_p, is_causal, scale, enable_gqa):
    """``_scaled_dot_product_attention_math``: the composite PyTorch records when the flash kernel does not
    apply.  The scale is split as ``sqrt(scale)`` on each side of the product (for stability)."""
    factor = math.sqrt(default_scale(query.shape[-1]) if scale is None else abs(scale))
    q = _times(query, -factor if scale is not None and scale < 0 else factor)
    if is_causal:
        if attn_mask is not None:
            raise RuntimeError("_scaled_dot_product_attention: Explicit attn_mask should not be set when is_causal=True")
        attn_mask = causal_mask(query.shape[-2], key.shape[-2], query.dtype)
    key, value = _repeated_heads(query, key, value, enable_gqa)
    attn = matmul(q, _times(key.transpose(-2, -1), factor))
    if attn_mask is not None:
        attn = attn.add_(attn_mask)  # (in place, as PyTorch: on a view of the product that is CopySlices)
    attn = SafeSoftmax.apply(attn, -1)
    if dropout_p > 0.0:
        if dropout_p > 1.0:
            raise RuntimeError(f"dropout probability has to be between 0 and 1, but got {dropout_p}")
        attn = dropout(attn, dropout_p)
    return matmul(attn, value)


def scaled_dot_product_attention(query, key, value, attn_mask=None, dropout_p=0.0, is_causal=False, scale=None,
                                 enable_gqa=False):
    """``softmax(q @ k^T * scale + mask) @ v`` over the last two dims, as PyTorch's CPU computes and records it."""
    check_inputs(query, key, value, attn_mask)
    if query.shape[-2] == 0 or value.numel() == 0:  # no query, or nothing to attend to
        return _nothing_to_attend(query, key, value)
    flash = uses_flash(query, key, value, attn_mask, dropout_p, enable_gqa)
    attn_mask = float_mask(attn_mask, query.dtype)
    if flash:
        return FlashAttention.apply(query, key, value, dropout_p, is_causal, (attn_mask,), scale)
    if query.dtype.name in ("float16", "bfloat16"):  # (PyTorch computes these in float32, then converts back)
        mask = None if attn_mask is None else attn_mask.float()
        out = math_attention(query.float(), key.float(), value.float(), mask, dropout_p, is_causal, scale, enable_gqa)
        return out.to(query.dtype)
    return math_attention(query, key, value, attn_mask, dropout_p, is_causal, scale, enable_gqa)



def _nothing_to_attend(query, key, value):
    """What PyTorch's CPU gives when there is no query or no value: zeros of the output's shape, tied to the graph of
    ``q``, k and v by ``(q.sum() + k.sum() + v.sum()) * 0`` (each then gets a zero gradient).  No other check runs."""
    zeros = creation.zeros(query.shape[:-1] + (value.shape[-1],), dtype=query.dtype)
    return zeros + _times(query.sum() + key.sum() + value.sum(), 0)


# ------------------------------------------------------------------ multi-head attention
def _canonical_mask(mask, mask_name, other_type, other_name, target_type, check_other=True):
    """A bool mask (True: leave out) as a float one of ``target_type``, 0 or -inf; a float mask as it is."""
    if mask is None:
        return None
    if mask.dtype.name != "bool" and not mask.is_floating_point():
        raise AssertionError(f"only bool and floating types of {mask_name} are supported")
    if check_other and other_type is not None and mask.dtype != other_type:
        warnings.warn(f"Support for mismatched {mask_name} and {other_name} is deprecated. Use same type for both "
                      "instead.", stacklevel=3)
    if not mask.is_floating_point():
        mask = creation.zeros_like(mask, dtype=target_type).masked_fill_(mask, float("-inf"))
    return mask


def _none_or_dtype(input):  # noqa: A002
    return None if input is None else input.dtype


def _mha_shape_check(query, key, value, key_padding_mask, attn_mask, num_heads):
    """Is the input batched (3-D) or not (2-D)?  The other tensors must agree; else an AssertionError as PyTorch's."""
    if query.dim() not in (2, 3):
        raise AssertionError(f"query should be unbatched 2D or batched 3D tensor but received {query.dim()}-D query "
                             "tensor")
    batched = query.dim() == 3
    kind = "batched (3-D)" if batched else "unbatched (2-D)"
    if key.dim() != query.dim() or value.dim() != query.dim():
        raise AssertionError(f"For {kind} `query`, expected `key` and `value` to be {query.dim()}-D but found "
                             f"{key.dim()}-D and {value.dim()}-D tensors respectively")
    if key_padding_mask is not None and key_padding_mask.dim() != query.dim() - 1:
        raise AssertionError(f"For {kind} `query`, expected `key_padding_mask` to be `None` or {query.dim() - 1}-D "
                             f"but found {key_padding_mask.dim()}-D tensor instead")
    if attn_mask is not None:
        if attn_mask.dim() not in (2, 3):
            raise AssertionError(f"For {kind} `query`, expected `attn_mask` to be `None`, 2-D or 3-D but found "
                                 f"{attn_mask.dim()}-D tensor instead")
        expected = (num_heads, query.shape[0], key.shape[0])
        if not batched and attn_mask.dim() == 3 and tuple(attn_mask.shape) != expected:
            raise AssertionError(f"Expected `attn_mask` shape to be {expected} but got {attn_mask.shape}")
    return batched


def _in_projection_packed(q, k, v, w, b=None):
    """q, k and v projected by one weight packed along dim 0 (q's rows, then k's, then v's): one ``linear`` for
    self-attention (q, k and v the same tensor), two when k is v, else three."""
    E = q.size(-1)
    if k is v:
        if q is k:
            proj = linear(q, w, b)
            proj = proj.unflatten(-1, (3, E)).unsqueeze(0).transpose(0, -2).squeeze(-2).contiguous()
            return proj[0], proj[1], proj[2]
        w_q, w_kv = w.split([E, E * 2])
        b_q, b_kv = (None, None) if b is None else b.split([E, E * 2])
        kv_proj = linear(k, w_kv, b_kv).unflatten(-1, (2, E)).unsqueeze(0).transpose(0, -2).squeeze(-2).contiguous()
        return linear(q, w_q, b_q), kv_proj[0], kv_proj[1]
    w_q, w_k, w_v = w.chunk(3)
    b_q, b_k, b_v = (None, None, None) if b is None else b.chunk(3)
    return linear(q, w_q, b_q), linear(k, w_k, b_k), linear(v, w_v, b_v)


def _in_projection(q, k, v, w_q, w_k, w_v, b_q=None, b_k=None, b_v=None):
    """Three separate projections (``kdim`` or ``vdim`` differ from ``embed_dim``), their shapes checked."""
    Eq, Ek, Ev = q.size(-1), k.size(-1), v.size(-1)
    for name, w, shape in (("query", w_q, (Eq, Eq)), ("key", w_k, (Eq, Ek)), ("value", w_v, (Eq, Ev))):
        if tuple(w.shape) != shape:
            raise AssertionError(f"expecting {name} weights shape of {shape}, but got {w.shape}")
    for name, b in (("query", b_q), ("key", b_k), ("value", b_v)):
        if b is not None and tuple(b.shape) != (Eq,):
            raise AssertionError(f"expecting {name} bias shape of {(Eq,)}, but got {b.shape}")
    return linear(q, w_q, b_q), linear(k, w_k, b_k), linear(v, w_v, b_v)


def _three_d_mask(attn_mask, tgt_len, src_len, heads):
    """The attention mask as (1 or batch * heads, L, S), its shape checked."""
    if attn_mask.dim() == 2:
        if tuple(attn_mask.shape) != (tgt_len, src_len):
            raise RuntimeError(f"The shape of the 2D attn_mask is {attn_mask.shape}, but should be "
                               f"{(tgt_len, src_len)}.")
        return attn_mask.unsqueeze(0)
    if attn_mask.dim() == 3:
        if tuple(attn_mask.shape) != (heads, tgt_len, src_len):
            raise RuntimeError(f"The shape of the 3D attn_mask is {attn_mask.shape}, but should be "
                               f"{(heads, tgt_len, src_len)}.")
        return attn_mask
    raise RuntimeError(f"attn_mask's dimension {attn_mask.dim()} is not supported")


def _heads(x, length, batch_heads, head_dim, static, name):
    """(length, batch, embed) -> (batch * heads, length, head_dim), or the given static key or value."""
    if static is None:
        return x.view(length, batch_heads, head_dim).transpose(0, 1)
    if static.size(0) != batch_heads:
        raise AssertionError(f"expecting {name}.size(0) of {batch_heads}, but got {static.size(0)}")
    if static.size(2) != head_dim:
        raise AssertionError(f"expecting {name}.size(2) of {head_dim}, but got {static.size(2)}")
    return static


def multi_head_attention_forward(query, key, value, embed_dim_to_check, num_heads, in_proj_weight, in_proj_bias,
                                 bias_k, bias_v, add_zero_attn, dropout_p, out_proj_weight, out_proj_bias,
                                 training=True, key_padding_mask=None, need_weights=True, attn_mask=None,
                                 use_separate_proj_weight=False, q_proj_weight=None, k_proj_weight=None,
                                 v_proj_weight=None, static_k=None, static_v=None, average_attn_weights=True,
                                 is_causal=False):
    """Attention over (L, N, E) inputs (or unbatched (L, E)): returns the output and, with ``need_weights``,
    the attention weights (averaged over the heads with ``average_attn_weights``), else None."""
    is_batched = _mha_shape_check(query, key, value, key_padding_mask, attn_mask, num_heads)
    if not is_batched:  # (a batch of one, squeezed again at the end)
        query, key, value = query.unsqueeze(1), key.unsqueeze(1), value.unsqueeze(1)
        if key_padding_mask is not None:
            key_padding_mask = key_padding_mask.unsqueeze(0)
    tgt_len, bsz, embed_dim = query.shape
    src_len = key.shape[0]
    key_padding_mask = _canonical_mask(key_padding_mask, "key_padding_mask", _none_or_dtype(attn_mask), "attn_mask",
                                       query.dtype)
    if is_causal and attn_mask is None:
        raise RuntimeError("Need attn_mask if specifying the is_causal hint. You may use the Transformer module "
                           "method `generate_square_subsequent_mask` to create this mask.")
    if is_causal and key_padding_mask is None and not need_weights:
        attn_mask = None  # (scaled_dot_product_attention makes the causal mask itself)
    else:
        attn_mask = _canonical_mask(attn_mask, "attn_mask", None, "", query.dtype, check_other=False)
        if key_padding_mask is not None:
            is_causal = False  # (the merged mask is no longer causal)
    if embed_dim != embed_dim_to_check:
        raise AssertionError(f"was expecting embedding dimension of {embed_dim_to_check}, but got {embed_dim}")
    head_dim = embed_dim // num_heads
    if head_dim * num_heads != embed_dim:
        raise AssertionError(f"embed_dim {embed_dim} not divisible by num_heads {num_heads}")
    if use_separate_proj_weight:
        if key.shape[:2] != value.shape[:2]:
            raise AssertionError(f"key's sequence and batch dims {key.shape[:2]} do not match value's "
                                 f"{value.shape[:2]}")
    elif key.shape != value.shape:
        raise AssertionError(f"key shape {key.shape} does not match value shape {value.shape}")

    # in-projection
    if not use_separate_proj_weight:
        if in_proj_weight is None:
            raise AssertionError("use_separate_proj_weight is False but in_proj_weight is None")
        q, k, v = _in_projection_packed(query, key, value, in_proj_weight, in_proj_bias)
    else:
        for name, w in (("q", q_proj_weight), ("k", k_proj_weight), ("v", v_proj_weight)):
            if w is None:
                raise AssertionError(f"use_separate_proj_weight is True but {name}_proj_weight is None")
        b_q, b_k, b_v = (None, None, None) if in_proj_bias is None else in_proj_bias.chunk(3)
        q, k, v = _in_projection(query, key, value, q_proj_weight, k_proj_weight, v_proj_weight, b_q, b_k, b_v)
    if attn_mask is not None:
        attn_mask = _three_d_mask(attn_mask, tgt_len, src_len, bsz * num_heads)

    # the learned bias_k and bias_v as one more key and value
    if bias_k is not None and bias_v is not None:
        if static_k is not None:
            raise AssertionError("bias cannot be added to static key.")
        if static_v is not None:
            raise AssertionError("bias cannot be added to static value.")
        k = cat([k, bias_k.repeat(1, bsz, 1)])
        v = cat([v, bias_v.repeat(1, bsz, 1)])
        attn_mask = None if attn_mask is None else pad(attn_mask, (0, 1))
        key_padding_mask = None if key_padding_mask is None else pad(key_padding_mask, (0, 1))
    elif bias_k is not None:
        raise AssertionError("bias_k is set but bias_v is None")
    elif bias_v is not None:
        raise AssertionError("bias_v is set but bias_k is None")

    # heads: (batch * heads, length, head_dim)
    q = q.view(tgt_len, bsz * num_heads, head_dim).transpose(0, 1)
    k = _heads(k, k.shape[0], bsz * num_heads, head_dim, static_k, "static_k")
    v = _heads(v, v.shape[0], bsz * num_heads, head_dim, static_v, "static_v")
    if add_zero_attn:
        zeros = (bsz * num_heads, 1, head_dim)
        k = cat([k, creation.zeros(zeros, dtype=k.dtype)], dim=1)
        v = cat([v, creation.zeros(zeros, dtype=v.dtype)], dim=1)
        attn_mask = None if attn_mask is None else pad(attn_mask, (0, 1))
        key_padding_mask = None if key_padding_mask is None else pad(key_padding_mask, (0, 1))
    src_len = k.size(1)

    # the key padding mask merged into the attention mask
    if key_padding_mask is not None:
        if key_padding_mask.shape[0] != bsz:
            raise AssertionError(f"Expected key_padded_mask.shape[0] to be {bsz}, but got {key_padding_mask.shape[0]}")
        if key_padding_mask.shape[1] != src_len:
            raise AssertionError(f"Expected key_padded_mask.shape[1] to be {src_len}, but got "
                                 f"{key_padding_mask.shape[1]}")
        key_padding_mask = (key_padding_mask.view(bsz, 1, 1, src_len).expand(-1, num_heads, -1, -1)
                            .reshape(bsz * num_heads, 1, src_len))
        attn_mask = key_padding_mask if attn_mask is None else attn_mask + key_padding_mask
    if not training:
        dropout_p = 0.0

    if need_weights:  # the weights written out: scores, softmax, product with v
        q_scaled = q * math.sqrt(1.0 / float(q.shape[2]))
        if is_causal and attn_mask is None:
            raise AssertionError("FIXME: is_causal not implemented for need_weights")
        if attn_mask is not None:
            weights = Baddbmm.apply(attn_mask, q_scaled, k.transpose(-2, -1))
        else:
            weights = q_scaled.bmm(k.transpose(-2, -1))
        weights = weights.softmax(dim=-1)  # (F.softmax with a dim)
        if dropout_p > 0.0:
            weights = dropout(weights, p=dropout_p)
        attn_output = weights.bmm(v).transpose(0, 1).reshape(tgt_len * bsz, embed_dim)
        attn_output = linear(attn_output, out_proj_weight, out_proj_bias)
        attn_output = attn_output.view(tgt_len, bsz, attn_output.size(1))
        weights = weights.view(bsz, num_heads, tgt_len, src_len)
        if average_attn_weights:
            weights = weights.mean(dim=1)
        if not is_batched:
            attn_output, weights = attn_output.squeeze(1), weights.squeeze(0)
        return attn_output, weights

    # no weights: scaled_dot_product_attention over (batch, heads, length, head_dim)
    if attn_mask is not None:
        if attn_mask.size(0) == 1 and attn_mask.dim() == 3:
            attn_mask = attn_mask.unsqueeze(0)
        else:
            attn_mask = attn_mask.view(bsz, num_heads, -1, src_len)
    q = q.view(bsz, num_heads, tgt_len, head_dim)
    k = k.view(bsz, num_heads, src_len, head_dim)
    v = v.view(bsz, num_heads, src_len, head_dim)
    attn_output = scaled_dot_product_attention(q, k, v, attn_mask, dropout_p, is_causal)
    attn_output = attn_output.permute(2, 0, 1, 3).reshape(bsz * tgt_len, embed_dim)
    attn_output = linear(attn_output, out_proj_weight, out_proj_bias)
    attn_output = attn_output.view(tgt_len, bsz, attn_output.size(1))
    if not is_batched:
        attn_output = attn_output.squeeze(1)
    return attn_output, None

