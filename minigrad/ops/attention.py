"""Scaled dot-product attention (PyTorch: ``F.scaled_dot_product_attention``, ``aten/.../transformers/attention.cpp``).

``softmax(q @ k^T * scale + mask) @ v``.  On the CPU PyTorch picks one of two ways to compute it, and each
records its own graph:

- the *flash* kernel, one node ``ScaledDotProductFlashAttentionForCpuBackward0`` with edges to query, key and
  value, when the inputs allow it (``uses_flash``: 4-D of one batch size, equal head sizes, no dropout, a mask
  that does not require grad, ...).  Its backward is one formula (``FlashAttentionBackward``), which PyTorch
  cannot differentiate again: under ``create_graph=True`` the gradients' node is ``NotImplemented``.
- the *math* composite otherwise (``math_attention`` in ``nn/functional_attention.py``): ``q * sqrt(scale)``, ``k^T * sqrt(scale)``, ``matmul``,
  ``+ mask``, ``_safe_softmax`` (``SafeSoftmaxBackward0``: a row masked everywhere gives zeros, not nan),
  dropout, ``matmul`` with ``v``.
"""
import math

import numpy as np

from .._core.tensor_base import C_NAMES, TensorBase as Tensor
from .dispatch import Op
from .reduce import Softmax
from .unary import NoDerivative


class SafeSoftmax(Softmax):
    """``_safe_softmax(x, dim)``: softmax, but a slice that is ``-inf`` everywhere gives zeros instead of nan
    (attention rows a mask hides entirely).  Its backward is softmax's (derivatives.yaml:
    ``_softmax_backward_data(grad, result, dim)``)."""
    node_name = "SafeSoftmaxBackward0"

    @staticmethod
    def forward(ctx, a, dim):
        out = Softmax.forward(ctx, a, dim)
        hidden = np.isneginf(a._data).all(axis=ctx.dim, keepdims=True)
        if hidden.any():
            out._data[...] = np.where(hidden, 0, out._data)
        return out


# ------------------------------------------------------------------ the flash kernel and its backward
def _scores(q, k, mask, is_causal, scale):
    """``q @ k^T * scale`` with the causal mask and ``mask`` added (numbers; ``k`` repeated over the query's
    heads for grouped-query attention).  As in PyTorch's kernel the causal mask's -inf comes before the scale:
    a negative scale turns it into +inf (and the row into nan)."""
    s = np.matmul(q, np.swapaxes(k, -1, -2))
    if is_causal:
        s = np.where(np.tri(s.shape[-2], s.shape[-1], dtype=bool), s, -np.inf)
    s = s * q.dtype.type(scale)
    if mask is not None:
        s = s + mask
    return s.astype(q.dtype, copy=False)


def _grouped(x, heads):
    """Key or value numbers with their heads repeated to ``heads`` (grouped-query attention)."""
    return x if x.shape[1] == heads else np.repeat(x, heads // x.shape[1], axis=1)


def _ungrouped(g, heads):
    """The gradient of ``_grouped``: the repeated heads summed back to ``heads`` of them."""
    n = g.shape[1] // heads
    return g if n == 1 else g.reshape(g.shape[0], heads, n, *g.shape[2:]).sum(2)


def _float_numbers(t):
    """A tensor's numbers in a type the kernel computes in (float16 in float32, as PyTorch's kernel does)."""
    x = t._data
    return x.astype(np.float32) if x.dtype == np.float16 else x


class FlashAttention(Op):
    """``_scaled_dot_product_flash_attention_for_cpu(q, k, v, dropout_p, is_causal, attn_mask, scale)``: the
    output, and the log-sum-exp of each row of scores, kept for backward (PyTorch's second output, which gets
    no gradient).  ``attn_mask`` (passed in a tuple) is a float mask (``sdpa`` turned a bool one into 0 and -inf) that needs no
    gradient; keys and values may have fewer heads than the query (grouped-query attention)."""
    node_name = "ScaledDotProductFlashAttentionForCpuBackward0"
    saved_names = {"query": 0, "key": 1, "value": 2, "output": 3, "logsumexp": 4, "attn_mask": 5,
                   "dropout_p": "dropout_p", "is_causal": "is_causal", "scale": "scale_arg"}

    @staticmethod
    def forward(ctx, query, key, value, dropout_p, is_causal, masks, scale):
        attn_mask, = masks  # (in a tuple: the mask is no input of the node, which has edges to q, k, v only)
        q, k, v = _float_numbers(query), _float_numbers(key), _float_numbers(value)
        heads = q.shape[1]
        scale_used = default_scale(q.shape[-1]) if scale is None else scale
        mask = None if attn_mask is None else attn_mask._data
        s = _scores(q, _grouped(k, heads), mask, is_causal, scale_used)
        top = s.max(-1, keepdims=True)
        hidden = np.isneginf(top)  # (a row masked everywhere: exp(-inf) = 0 everywhere, and the row gives zeros)
        top = np.where(hidden, 0, top)
        e = np.exp(s - top)
        total = e.sum(-1, keepdims=True)
        p = e / np.where(hidden, 1, total)
        out = np.matmul(p, _grouped(v, heads)).astype(query._data.dtype)
        lse = (np.log(total) + top)[..., 0]
        lse_dtype = np.float32 if query._data.dtype == np.float16 else query._data.dtype
        ctx.dropout_p, ctx.is_causal, ctx.scale_arg, ctx.scale = dropout_p, is_causal, scale, scale_used
        output = np.empty_like(query._data, shape=out.shape) if out.shape == q.shape else np.empty(out.shape, out.dtype)
        output[...] = out  # (laid out as the query is: PyTorch's kernel makes its output with empty_like(query))
        output = Tensor(output)
        ctx.save_for_backward(query, key, value, output, Tensor(lse.astype(lse_dtype)), attn_mask)
        return output

    @staticmethod
    def backward(ctx, grad):
        query, key, value, output, lse, attn_mask = ctx.saved_tensors
        grads = FlashAttentionBackward.apply(grad, query, key, value, output, lse, attn_mask, ctx.is_causal,
                                             ctx.scale, ctx.needs_input_grad[:3])
        return grads + (None,) * 4


class FlashAttentionBackward(NoDerivative):
    """The flash kernel's gradients (PyTorch: ``_scaled_dot_product_flash_attention_for_cpu_backward``), from the
    saved log-sum-exp: ``P = exp(scores - lse)``, ``dV = P^T dO``, ``dS = P * (dO V^T - rowsum(dO * O))``,
    ``dQ = dS K * scale``, ``dK = dS^T Q * scale`` (heads a group shares summed).  PyTorch has no derivative for
    it: one ``NotImplemented`` node for the three gradients, which raises if backward reaches it."""
    node_name = "NotImplemented"

    @classmethod
    def apply(cls, *args):
        out = Op.apply.__func__(cls, *args)  # (several outputs: NoDerivative.apply takes one)
        node = next((t.grad_fn for t in out if isinstance(t, Tensor) and t.grad_fn is not None), None)
        if node is not None:
            node._sequence_nr = float("inf")
            node.next_functions = tuple(e for e in node.next_functions if e[0] is not None)
        return out

    @staticmethod
    def forward(ctx, grad, query, key, value, output, lse, attn_mask, is_causal, scale, needed):
        q, k, v = _float_numbers(query), _float_numbers(key), _float_numbers(value)
        g, o = _float_numbers(grad), _float_numbers(output)
        heads = q.shape[1]
        kk, vv = _grouped(k, heads), _grouped(v, heads)
        s = _scores(q, kk, None if attn_mask is None else attn_mask._data, is_causal, scale)
        hidden = np.isneginf(lse._data)[..., None]  # (rows masked everywhere: no gradient)
        p = np.where(hidden, 0, np.exp(s - np.where(hidden, 0, lse._data[..., None]))).astype(q.dtype)
        dp = np.matmul(g, np.swapaxes(vv, -1, -2))
        ds = p * (dp - (g * o).sum(-1, keepdims=True))
        dq = np.matmul(ds, kk) * q.dtype.type(scale)
        dk = np.matmul(np.swapaxes(ds, -1, -2), q) * q.dtype.type(scale)
        dv = np.matmul(np.swapaxes(p, -1, -2), g)
        dtype = query._data.dtype
        return tuple(Tensor(_heads_inside(x.astype(dtype, copy=False))) if need else None
                     for x, need in zip((dq, _ungrouped(dk, key._data.shape[1]), _ungrouped(dv, value._data.shape[1])),
                                        needed))

    @staticmethod
    def backward(ctx, *grads):
        raise RuntimeError("derivative for aten::_scaled_dot_product_flash_attention_for_cpu_backward is not implemented")


def _heads_inside(x):
    """``x`` (batch, heads, length, dim) laid out as (batch, length, heads, dim), as PyTorch's kernel makes its
    gradients (``grad.stride()`` shows it)."""
    out = np.empty((x.shape[0], x.shape[2], x.shape[1], x.shape[3]), x.dtype).transpose(0, 2, 1, 3)
    out[...] = x
    return out


# ------------------------------------------------------------------ choosing the kernel (sdp_utils_cpp.h)
_FLASH_DTYPES = ("float32", "float64", "float16", "bfloat16")


def _compatible(mask_dim, dim):
    return mask_dim == dim or mask_dim == 1


def _mask_fits_flash(mask, q, k):
    """``check_attn_mask_shape``: no gradient, 2-D or 4-D, each dim the inputs' or 1."""
    if mask is None:
        return True
    m = mask._data.shape
    if mask.requires_grad or mask._data.ndim not in (2, 4):
        return False
    if not (_compatible(m[-2], q.shape[2]) and _compatible(m[-1], k.shape[2])):
        return False
    return mask._data.ndim == 2 or (_compatible(m[0], q.shape[0]) and _compatible(m[1], q.shape[1]))


def _heads_fit_flash(q, k, v, enable_gqa):
    """``check_batch_size_and_num_heads_dense``: one batch size; the same heads, or (grouped-query attention)
    key and value sharing a number of heads that divides the query's."""
    if not q.shape[0] == k.shape[0] == v.shape[0]:
        return False
    if enable_gqa:
        return k.shape[1] == v.shape[1] and q.shape[1] % k.shape[1] == 0
    return q.shape[1] == k.shape[1] == v.shape[1]


def uses_flash(query, key, value, attn_mask, dropout_p, enable_gqa):
    """Does PyTorch's CPU dispatch (``select_sdp_backend_cpp``) choose the flash kernel for these inputs?"""
    q, k, v = query._data, key._data, value._data
    if dropout_p > 0.0 or not q.ndim == k.ndim == v.ndim == 4:
        return False
    if q.size == 0 or k.size == 0 or v.size == 0:  # (an empty batch, heads or head size: the math composite)
        return False
    if not _heads_fit_flash(q, k, v, enable_gqa) or not _mask_fits_flash(attn_mask, q, k):
        return False
    if not q.shape[-1] == k.shape[-1] == v.shape[-1] or q.shape[-2] == 0 or k.shape[-2] == 0:
        return False
    if any(x.strides[-1] != x.itemsize for x in (q, k, v)):  # (check_last_dim_stride_equals_1_dense: a head size of 1
        return False                                           # too, on the CPU)
    return query.dtype == key.dtype == value.dtype and query.dtype.name in _FLASH_DTYPES


def default_scale(head_size):
    """``1 / sqrt(E)`` as PyTorch's ``calculate_scale`` computes it in C++ doubles: ``inf`` for a head size of 0."""
    return 1.0 / math.sqrt(head_size) if head_size else math.inf


# ------------------------------------------------------------------ checks (the math composite: nn/functional_attention.py)
def check_inputs(query, key, value, attn_mask):
    """``validate_sdpa_input``: one dtype, at least 2-D, a bool or float mask."""
    if not query.dtype == key.dtype == value.dtype:
        raise RuntimeError(f"Expected query, key, and value to have the same dtype, but got query.dtype: "
                           f"{C_NAMES[query.dtype.name]} key.dtype: {C_NAMES[key.dtype.name]} and value.dtype: "
                           f"{C_NAMES[value.dtype.name]} instead.")
    if min(query.dim(), key.dim(), value.dim()) < 2:
        raise RuntimeError(f"Expected query, key, and value to all be  at least 2 dimensional, but got query.dim: "
                           f"{query.dim()} key.dim: {key.dim()} and value.dim: {value.dim()} instead.")
    if attn_mask is not None and attn_mask.dtype.name not in ("bool", "float32", query.dtype.name):
        raise RuntimeError(f"Expected attn_mask dtype to be bool or float or to match query dtype, but got "
                           f"attn_mask.dtype: {C_NAMES[attn_mask.dtype.name]} and  query.dtype: "
                           f"{C_NAMES[query.dtype.name]} instead.")


def float_mask(mask, dtype):
    """``convert_boolean_attn_mask``: a bool mask becomes 0 where it is True and -inf where False (a float one
    stays as it is)."""
    if mask is None or mask.dtype.name != "bool":
        return mask
    return Tensor(np.where(mask._data, 0, -np.inf).astype(dtype.numpy))


def causal_mask(rows, columns, dtype):
    """``ones(L, S, dtype=bool).tril()`` as a float mask: 0 on and below the diagonal, -inf above."""
    return float_mask(Tensor(np.tri(rows, columns, dtype=bool)), dtype)


# ------------------------------------------------------------------ baddbmm (MultiheadAttention's scores with a mask)
class Baddbmm(Op):
    """``baddbmm(input, batch1, batch2)``: ``input + batch1 @ batch2`` over a batch (``beta = alpha = 1``), the
    mask added to the scores in one op (PyTorch: ``BaddbmmBackward0``; derivatives.yaml: ``grad`` to ``input``,
    summed to its shape, ``grad.bmm(batch2^T)`` and ``batch1^T.bmm(grad)`` to the batches)."""
    node_name = "BaddbmmBackward0"
    saved_names = {"batch1": 0, "batch2": 1, "alpha": "alpha", "beta": "beta"}

    @staticmethod
    def forward(ctx, input, batch1, batch2):
        ctx.alpha = ctx.beta = 1
        _, need1, need2 = ctx.needs_input_grad
        ctx.save_for_backward(batch1 if need2 else None, batch2 if need1 else None)  # (each for the other's gradient)
        product = np.matmul(batch1._data, batch2._data)
        return Tensor(np.asarray(product + input._data.astype(product.dtype, copy=False)))

    @staticmethod
    def backward(ctx, grad):
        from .linalg import Bmm
        batch1, batch2 = ctx.saved_tensors
        _, need1, need2 = ctx.needs_input_grad
        return (grad if ctx.needs_input_grad[0] else None,
                Bmm.apply(grad, batch2.transpose(1, 2)) if need1 else None,
                Bmm.apply(batch1.transpose(1, 2), grad) if need2 else None)
