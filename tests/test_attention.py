"""Attention (issue 41): ``F.scaled_dot_product_attention``, ``nn.MultiheadAttention``, ``F.multi_head_attention_forward``.

Gradients against finite differences (``minigrad.autograd.gradcheck``, float64) on both of PyTorch's CPU paths,
the nodes each path records, and the errors as PyTorch 2.13 words them (recorded here from PyTorch; the
parity cases in ``tests/parity/cases_attention.py`` compare the rest with PyTorch's fixtures).
"""
import numpy as np
import pytest

import minigrad as torch
import minigrad.nn.functional as F
from minigrad.autograd import gradcheck, gradgradcheck


def _leaves(*shapes, seed=0, dtype=torch.float64):
    rng = np.random.RandomState(seed)
    return [torch.tensor(rng.uniform(-1, 1, s), dtype=dtype, requires_grad=True) for s in shapes]


def _tril(n, m):
    return torch.tensor(np.tri(n, m, dtype=bool))


FLASH = "ScaledDotProductFlashAttentionForCpuBackward0"


# ---------------------------------------------------------------------------------- gradients
@pytest.mark.parametrize("shapes, kwargs, node", [
    (((2, 2, 3, 4), (2, 2, 5, 4), (2, 2, 5, 4)), {}, FLASH),
    (((1, 2, 4, 4), (1, 2, 4, 4), (1, 2, 4, 4)), {"is_causal": True}, FLASH),
    (((1, 2, 3, 4), (1, 2, 5, 4), (1, 2, 5, 4)), {"attn_mask": _tril(3, 5), "scale": 0.7}, FLASH),
    (((1, 4, 3, 4), (1, 2, 5, 4), (1, 2, 5, 4)), {"enable_gqa": True}, FLASH),
    (((1, 2, 3, 4), (1, 2, 5, 4), (1, 2, 5, 3)), {"is_causal": True}, "UnsafeViewBackward0"),
    (((1, 4, 3, 4), (1, 1, 5, 4), (1, 2, 5, 3)), {"enable_gqa": True, "scale": -0.4}, "UnsafeViewBackward0"),
    (((3, 4), (5, 4), (5, 4)), {"attn_mask": _tril(3, 5)}, "MmBackward0"),
])
def test_sdpa_gradients_match_finite_differences(shapes, kwargs, node):
    q, k, v = _leaves(*shapes)
    assert type(F.scaled_dot_product_attention(q, k, v, **kwargs).grad_fn).__name__ == node
    assert gradcheck(lambda q, k, v: F.scaled_dot_product_attention(q, k, v, **kwargs), (q, k, v))


def test_a_float_mask_that_requires_grad_takes_the_math_path_and_gets_its_gradient():
    q, k, v, m = _leaves((1, 2, 3, 4), (1, 2, 5, 4), (1, 2, 5, 4), (3, 5), seed=1)
    y = F.scaled_dot_product_attention(q, k, v, attn_mask=m)
    assert type(y.grad_fn).__name__ == "UnsafeViewBackward0"
    assert gradcheck(lambda q, k, v, m: F.scaled_dot_product_attention(q, k, v, attn_mask=m), (q, k, v, m))
    assert gradgradcheck(lambda q, k, v, m: F.scaled_dot_product_attention(q, k, v, attn_mask=m), (q, k, v, m))


def test_the_math_path_has_second_derivatives_the_flash_node_has_none():
    q, k, v = _leaves((1, 1, 2, 3), (1, 1, 3, 3), (1, 1, 3, 2), seed=2)  # (head sizes differ: math)
    assert gradgradcheck(lambda q, k, v: F.scaled_dot_product_attention(q, k, v, is_causal=True), (q, k, v))
    q, k, v = _leaves((1, 1, 2, 3), (1, 1, 3, 3), (1, 1, 3, 3), seed=2)
    y = F.scaled_dot_product_attention(q, k, v)
    gq, gk, gv = torch.autograd.grad(y.sum(), (q, k, v), create_graph=True)
    assert gq.grad_fn is gk.grad_fn is gv.grad_fn and type(gq.grad_fn).__name__ == "NotImplemented"
    assert [type(n).__name__ for n, _ in gq.grad_fn.next_functions] == ["AccumulateGrad"] * 3 + [FLASH]
    with pytest.raises(RuntimeError, match="derivative for aten::_scaled_dot_product_flash_attention_for_cpu_backward "
                                           "is not implemented"):
        torch.autograd.grad(gq.sum(), q)


def test_a_row_masked_everywhere_gives_zeros_on_both_paths():
    mask = torch.tensor([[True, True, False], [False, False, False]])
    for vdim in (3, 2):  # flash, then math (_safe_softmax)
        q, k, v = _leaves((1, 1, 2, 3), (1, 1, 3, 3), (1, 1, 3, vdim), seed=3)
        y = F.scaled_dot_product_attention(q, k, v, attn_mask=mask)
        y.sum().backward()
        assert y[0, 0, 1].tolist() == [0.0] * vdim
        assert q.grad[0, 0, 1].tolist() == [0.0] * 3
        assert not np.isnan(k.grad.numpy()).any()


def test_flash_saves_what_pytorch_saves():
    q, k, v = _leaves((1, 2, 3, 4), (1, 2, 5, 4), (1, 2, 5, 4), dtype=torch.float32)
    y = F.scaled_dot_product_attention(q, k, v, attn_mask=_tril(3, 5), scale=0.5)
    g = y.grad_fn
    assert [a for a in dir(g) if a.startswith("_saved")] == [
        "_saved_attn_mask", "_saved_dropout_p", "_saved_is_causal", "_saved_key", "_saved_logsumexp",
        "_saved_output", "_saved_query", "_saved_scale", "_saved_value"]
    assert g._saved_attn_mask[0].tolist() == [0.0, -float("inf"), -float("inf"), -float("inf"), -float("inf")]
    assert (g._saved_scale, g._saved_is_causal, g._saved_dropout_p) == (0.5, False, 0.0)
    assert g._saved_logsumexp.shape == (1, 2, 3) and g._saved_logsumexp.dtype == torch.float32
    assert len(g.next_functions) == 3


def test_dropout_takes_the_math_path_and_p_1_gives_zeros():
    q, k, v = _leaves((1, 2, 3, 4), (1, 2, 5, 4), (1, 2, 5, 4))
    y = F.scaled_dot_product_attention(q, k, v, dropout_p=0.5)
    softmax_node = y.grad_fn.next_functions[0][0].next_functions[0][0].next_functions[0][0].next_functions[0][0]
    assert softmax_node.name() == "MulBackward0"  # (the dropout mask)
    assert softmax_node.next_functions[0][0].name() == "SafeSoftmaxBackward0"
    assert F.scaled_dot_product_attention(q, k, v, dropout_p=1.0).abs().sum().item() == 0.0


# ---------------------------------------------------------------------------------- errors (PyTorch 2.13's words)
def test_sdpa_errors_as_pytorch():
    q, k, v = _leaves((1, 2, 3, 4), (1, 2, 5, 4), (1, 2, 5, 4), dtype=torch.float32)
    sdpa = F.scaled_dot_product_attention
    cases = [
        (lambda: sdpa(q, k.double(), v), "Expected query, key, and value to have the same dtype, but got "
                                         "query.dtype: float key.dtype: double and value.dtype: float instead."),
        (lambda: sdpa(q[0, 0, 0], k[0, 0, 0], v[0, 0, 0]), "Expected query, key, and value to all be  at least 2 "
                                                           "dimensional, but got query.dim: 1 key.dim: 1 and "
                                                           "value.dim: 1 instead."),
        (lambda: sdpa(q, k, v, attn_mask=torch.zeros(3, 5, dtype=torch.int64)),
         "Expected attn_mask dtype to be bool or float or to match query dtype, but got attn_mask.dtype: long int "
         "and  query.dtype: float instead."),
        (lambda: sdpa(q, k, v[..., :3], attn_mask=torch.zeros(3, 5), is_causal=True),
         "_scaled_dot_product_attention: Explicit attn_mask should not be set when is_causal=True"),
        (lambda: sdpa(_leaves((1, 3, 3, 4))[0].float(), k, v, enable_gqa=True),
         "Number of heads in key and value must divide the number of heads in "),
        (lambda: sdpa(q, k, v, dropout_p=1.5), "dropout probability has to be between 0 and 1, but got 1.5"),
        (lambda: sdpa(q.long(), k.long(), v.long()), "expected scalar type Float but found Long"),
    ]
    for fn, message in cases:
        with pytest.raises(RuntimeError) as info:
            fn()
        assert str(info.value) == message


def test_flash_takes_a_mask_with_is_causal_and_applies_both():
    q, k, v = _leaves((1, 1, 3, 2), (1, 1, 3, 2), (1, 1, 3, 2), seed=5)
    m = torch.tensor(np.array([[0.0, 0.0, 0.0], [-1.0, 0.5, 0.0], [0.3, 0.0, 2.0]]))
    both = F.scaled_dot_product_attention(q, k, v, attn_mask=m, is_causal=True)
    causal = torch.tensor(np.where(np.tri(3, 3, dtype=bool), 0.0, -np.inf))
    assert np.allclose(both.detach().numpy(),
                       F.scaled_dot_product_attention(q, k, v, attn_mask=m + causal).detach().numpy())


# ---------------------------------------------------------------------------------- MultiheadAttention
def _mha(**kwargs):
    m = torch.nn.MultiheadAttention(4, 2, dtype=torch.float64, **kwargs)
    with torch.no_grad():
        rng = np.random.RandomState(7)
        for p in m.parameters():
            p.copy_(torch.tensor(rng.uniform(-0.5, 0.5, tuple(p.shape))))
    return m


def test_multihead_attention_parameters_and_initialisation():
    m = torch.nn.MultiheadAttention(8, 2)
    assert [(n, tuple(p.shape)) for n, p in m.named_parameters()] == [
        ("in_proj_weight", (24, 8)), ("in_proj_bias", (24,)), ("out_proj.weight", (8, 8)), ("out_proj.bias", (8,))]
    assert m.in_proj_bias.abs().sum().item() == 0 and m.out_proj.bias.abs().sum().item() == 0
    assert m.in_proj_weight.abs().max().item() <= (6 / 32) ** 0.5  # xavier_uniform_ of a 24 x 8 weight
    assert type(m.out_proj).__name__ == "NonDynamicallyQuantizableLinear"
    assert repr(m) == ("MultiheadAttention(\n  (out_proj): NonDynamicallyQuantizableLinear(in_features=8, "
                       "out_features=8, bias=True)\n)")
    m2 = torch.nn.MultiheadAttention(8, 4, kdim=6, vdim=5, bias=False, add_bias_kv=True)
    assert [(n, tuple(p.shape)) for n, p in m2.named_parameters()] == [
        ("q_proj_weight", (8, 8)), ("k_proj_weight", (8, 6)), ("v_proj_weight", (8, 5)), ("bias_k", (1, 1, 8)),
        ("bias_v", (1, 1, 8)), ("out_proj.weight", (8, 8))]
    with pytest.raises(AssertionError, match="embed_dim must be divisible by num_heads"):
        torch.nn.MultiheadAttention(9, 2)
    with pytest.raises(ValueError, match="embed_dim and num_heads must be greater than 0, got embed_dim=8 and "
                                         "num_heads=0 instead"):
        torch.nn.MultiheadAttention(8, 0)


@pytest.mark.parametrize("need_weights", [True, False])
def test_multihead_attention_gradients(need_weights):
    m = _mha()
    x, = _leaves((3, 2, 4), seed=8)
    mask = torch.tensor(np.triu(np.ones((3, 3), bool), 1))
    pad = torch.tensor([[False, False, True], [False, False, False]])

    def f(x, *params):
        out, w = m(x, x, x, attn_mask=mask, key_padding_mask=pad, need_weights=need_weights)
        return out if w is None else (out, w)
    assert gradcheck(f, (x,) + tuple(m.parameters()))


def test_multihead_attention_records_the_path_pytorch_takes():
    m = _mha(batch_first=True)
    x, = _leaves((2, 3, 4), seed=9)
    out, w = m(x, x, x)
    assert out.grad_fn.name() == "TransposeBackward0" and w.grad_fn.name() == "MeanBackward1"
    out, w = m(x, x, x, need_weights=False)
    assert w is None
    permute = out.grad_fn.next_functions[0][0].next_functions[0][0].next_functions[1][0].next_functions[0][0]
    assert permute.name() == "PermuteBackward0" and permute.next_functions[0][0].name() == FLASH


def test_multihead_attention_errors_as_pytorch():
    m = _mha()
    x, = _leaves((3, 2, 4))
    with pytest.raises(RuntimeError, match="Need attn_mask if specifying the is_causal hint"):
        m(x, x, x, is_causal=True)
    with pytest.raises(RuntimeError, match=r"The shape of the 2D attn_mask is minigrad.Size\(\[2, 3\]\), but should "
                                           r"be \(3, 3\)."):
        m(x, x, x, attn_mask=torch.zeros(2, 3))
    with pytest.raises(AssertionError, match="only bool and floating types of attn_mask are supported"):
        m(x, x, x, attn_mask=torch.zeros(3, 3, dtype=torch.int64))
    with pytest.raises(AssertionError, match="was expecting embedding dimension of 4, but got 3"):
        m(x[..., :3], x[..., :3], x[..., :3])
    with pytest.raises(AssertionError, match="query should be unbatched 2D or batched 3D tensor but received 4-D"):
        m(x[None], x[None], x[None])
    with pytest.warns(UserWarning, match="Support for mismatched key_padding_mask and attn_mask is deprecated"):
        m(x, x, x, key_padding_mask=torch.zeros(2, 3, dtype=torch.bool), attn_mask=torch.zeros(3, 3))


def test_multi_head_attention_forward_is_the_module_forward():
    m = _mha()
    x, = _leaves((3, 2, 4), seed=10)
    out, w = F.multi_head_attention_forward(x, x, x, 4, 2, m.in_proj_weight, m.in_proj_bias, None, None, False, 0.0,
                                            m.out_proj.weight, m.out_proj.bias)
    out2, w2 = m(x, x, x)
    assert np.allclose(out.detach().numpy(), out2.detach().numpy())
    assert np.allclose(w.detach().numpy(), w2.detach().numpy())
    assert w.shape == (2, 3, 3) and np.allclose(w.detach().numpy().sum(-1), 1)


# ---------------------------------------------------------------------------------- TransformerEncoderLayer
@pytest.mark.parametrize("norm_first", [False, True])
def test_transformer_encoder_layer_gradients(norm_first):
    m = torch.nn.TransformerEncoderLayer(4, 2, 6, dropout=0.0, norm_first=norm_first, dtype=torch.float64)
    x, = _leaves((3, 2, 4), seed=11)
    mask = torch.tensor(np.triu(np.ones((3, 3), bool), 1))
    assert gradcheck(lambda x, *ps: m(x, src_mask=mask), (x,) + tuple(m.parameters()))


def test_transformer_encoder_layer_structure():
    m = torch.nn.TransformerEncoderLayer(8, 2, 16, activation="gelu")
    assert [n for n, _ in m.named_children()] == ["self_attn", "linear1", "dropout", "linear2", "norm1", "norm2",
                                                  "dropout1", "dropout2"]
    assert m.activation is F.gelu and m.activation_relu_or_gelu == 2
    with pytest.raises(RuntimeError, match="activation should be relu/gelu, not tanh"):
        torch.nn.TransformerEncoderLayer(8, 2, activation="tanh")
    x, = _leaves((4, 3, 8), dtype=torch.float32)
    y = m.eval()(x)
    assert y.shape == (4, 3, 8) and y.grad_fn.name() == "NativeLayerNormBackward0"


# ---------------------------------------------------------------------------------- nothing to attend to
_ZERO_PATH = [("AddBackward0", [None, "MulBackward1"]), ("MulBackward1", ["AddBackward0"]),
              ("AddBackward0", ["AddBackward0", "SumBackward0"]), ("AddBackward0", ["SumBackward0", "SumBackward0"])]


@pytest.mark.parametrize("shapes, kwargs, out_shape", [  # (recorded from PyTorch 2.13; torch's own checks too)
    (((3, 0), (3, 0), (3, 0)), {}, (3, 0)),                                # head size 0: no value
    (((3, 2), (0, 2), (0, 3)), {"attn_mask": torch.ones(2, 2)}, (3, 3)),  # no key: the mask's size is not checked
    (((2, 0, 2), (2, 3, 2), (2, 3, 2)), {}, (2, 0, 2)),                    # no query
    (((1, 1, 3, 2), (1, 1, 3, 2), (1, 1, 0, 2)), {"is_causal": True}, (1, 1, 3, 2)),
    (((0, 3, 2), (1, 3, 2), (0, 3, 2)), {}, (0, 3, 2)),
    (((1, 4, 3, 2), (1, 3, 0, 2), (1, 3, 0, 2)), {"enable_gqa": True}, (1, 4, 3, 2)),  # heads that do not divide
])
def test_no_query_or_no_value_gives_zeros_tied_to_every_input(shapes, kwargs, out_shape):
    """PyTorch's CPU answers an attention with no query or no value (any of its sizes 0) with zeros of the output's
    shape plus ``(q.sum() + k.sum() + v.sum()) * 0``, whatever the other sizes; a head size of 0 alone is not that
    case (the math path runs, with scale 1/sqrt(0) = inf)."""
    q, k, v = _leaves(*shapes)
    y = F.scaled_dot_product_attention(q, k, v, **kwargs)
    assert tuple(y.shape) == out_shape and y.stride() == torch.empty(out_shape).stride() and y.dtype == q.dtype
    nodes, stack = [], [y.grad_fn]
    while stack and len(nodes) < 4:
        node = stack.pop(0)
        nodes.append((node.name(), [n.name() if n is not None else None for n, _ in node.next_functions]))
        stack += [n for n, _ in node.next_functions if n is not None and n.name() != "SumBackward0"]
    assert nodes == _ZERO_PATH
    assert y.grad_fn.next_functions[1][0]._saved_other == 0 and type(y.grad_fn.next_functions[1][0]._saved_other) is int
    assert not y.detach().numpy().any()
    y.sum().backward()
    for t in (q, k, v):
        assert t.grad.shape == t.shape and not t.grad.numpy().any()


def test_a_head_size_of_0_with_values_runs_the_math_path_with_an_infinite_scale():
    q, k, v = _leaves((3, 0), (3, 0), (3, 2))
    y = F.scaled_dot_product_attention(q, k, v)
    assert type(y.grad_fn).__name__ == "MmBackward0"
    np.testing.assert_allclose(y.detach().numpy(), np.broadcast_to(v.detach().numpy().mean(0), (3, 2)))
    assert y.grad_fn.next_functions[0][0].next_functions[0][0].next_functions[0][0]._saved_other == float("inf")
    q, k, v = _leaves((1, 1, 3, 0), (1, 1, 3, 0), (1, 1, 3, 0))  # (4-D, nothing to attend: no flash node either)
    assert type(F.scaled_dot_product_attention(q, k, v).grad_fn).__name__ == "AddBackward0"
