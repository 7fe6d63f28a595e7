"""nn.Embedding / F.embedding and nn.LayerNorm / F.layer_norm (issue 41): values, gradients, node names,
errors, against numbers recorded from PyTorch 2.13 (tests/parity/cases_norm.py compares many more)."""
import numpy as np
import pytest

import minigrad as torch
import minigrad.nn as nn
import minigrad.nn.functional as F
from minigrad.autograd import gradcheck, gradgradcheck


def names(t):
    return [None if n is None else type(n).__name__ for n, _ in t.grad_fn.next_functions]


# ---------------------------------------------------------------------------------- embedding
def test_embedding_repeated_indices_add_up_and_the_padding_row_gets_none():
    w = torch.arange(15.0).view(5, 3).requires_grad_()
    y = F.embedding(torch.tensor([[0, 2, 2], [4, 1, 0]]), w, padding_idx=-1)
    assert type(y.grad_fn).__name__ == "EmbeddingBackward0" and names(y) == ["AccumulateGrad"]
    assert y.grad_fn._saved_padding_idx == 4 and y.grad_fn._saved_weight_sym_argsize_0 == 5
    assert y[0, 1].tolist() == [6.0, 7.0, 8.0]
    y.sum().backward()
    assert w.grad.tolist() == [[2.0] * 3, [1.0] * 3, [2.0] * 3, [0.0] * 3, [0.0] * 3]


def test_embedding_without_padding_shows_pytorchs_unsigned_minus_one():
    y = F.embedding(torch.tensor([1]), torch.ones(3, 2, requires_grad=True))
    assert y.grad_fn._saved_padding_idx == 2 ** 64 - 1


def test_embedding_scale_grad_by_freq_divides_by_the_count():
    w = torch.zeros(5, 2, requires_grad=True)
    F.embedding(torch.tensor([1, 1, 3, 1]), w, scale_grad_by_freq=True).sum().backward()
    assert w.grad.tolist() == [[0, 0], [1, 1], [0, 0], [1, 1], [0, 0]]


def test_embedding_max_norm_renormalises_the_rows_looked_up_in_place():
    w = torch.arange(15.0).view(5, 3).requires_grad_()
    version = w._version
    out = F.embedding(torch.tensor([1, 1, 3]), w, max_norm=2.0)
    assert w._version > version and w.grad_fn is None
    np.testing.assert_allclose(w.detach().numpy()[1], [0.8485280871391296, 1.1313707828521729, 1.4142134189605713], rtol=0)
    np.testing.assert_allclose(w.detach().numpy()[3], [1.0357836484909058, 1.150870680809021, 1.2659577131271362], rtol=0)
    assert w[0].tolist() == [0, 1, 2] and out[2].tolist() == w[3].tolist()
    w1 = torch.arange(15.0).view(5, 3)
    F.embedding(torch.tensor([1]), w1, max_norm=2.0, norm_type=1.0)
    np.testing.assert_allclose(w1.numpy()[1], [0.5, 2 / 3, 5 / 6], rtol=1e-6)


def test_embedding_double_backward_looks_the_rows_up_again():
    w = torch.zeros(5, 3, dtype=torch.float64, requires_grad=True)
    idx = torch.tensor([[0, 2, 2], [4, 1, 0]])
    g = torch.ones(2, 3, 3, dtype=torch.float64, requires_grad=True)
    gw, = torch.autograd.grad(F.embedding(idx, w, padding_idx=1), w, g, create_graph=True)
    assert type(gw.grad_fn).__name__ == "EmbeddingDenseBackwardBackward0" and names(gw) == ["AccumulateGrad"]
    h, = torch.autograd.grad(gw, g, torch.arange(15.0, dtype=torch.float64).view(5, 3))
    assert h.tolist() == [[[0, 1, 2], [6, 7, 8], [6, 7, 8]], [[12, 13, 14], [0, 0, 0], [0, 1, 2]]]


def test_embedding_module_and_from_pretrained():
    e = nn.Embedding(5, 3, padding_idx=-2)
    assert e.padding_idx == 3 and e.weight[3].tolist() == [0, 0, 0] and e.weight.requires_grad
    assert repr(e) == "Embedding(5, 3, padding_idx=3)" and list(e.state_dict()) == ["weight"]
    assert repr(nn.Embedding(4, 2, max_norm=1.0, norm_type=1.0, scale_grad_by_freq=True)) == \
        "Embedding(4, 2, max_norm=1.0, norm_type=1.0, scale_grad_by_freq=True)"
    pre = torch.tensor([[1.0, 2.0], [3.0, 4.0]])
    frozen = nn.Embedding.from_pretrained(pre)
    assert not frozen.weight.requires_grad and frozen(torch.tensor([1])).tolist() == [[3, 4]]
    trained = nn.Embedding.from_pretrained(pre, freeze=False, padding_idx=0)
    assert trained.weight.requires_grad and trained.weight[0].tolist() == [1, 2]  # (the padding row kept)
    trained(torch.tensor([0, 1, 1])).sum().backward()
    assert trained.weight.grad.tolist() == [[0, 0], [2, 2]]


@pytest.mark.parametrize("fn, error, message", [
    (lambda: nn.Embedding(5, 3, padding_idx=5), AssertionError, "^Padding_idx must be within num_embeddings$"),
    (lambda: nn.Embedding(5, 3, padding_idx=-6), AssertionError, "^Padding_idx must be within num_embeddings$"),
    (lambda: F.embedding(torch.tensor([1.0]), torch.ones(3, 2)), RuntimeError,
     r"^Expected tensor for argument #1 'indices' to have one of the following scalar types: Long, Int; but got "
     r"minigrad.FloatTensor instead \(while checking arguments for embedding\)$"),
    (lambda: F.embedding(torch.tensor([True]), torch.ones(3, 2)), RuntimeError, "but got CPUBoolType instead"),
    (lambda: F.embedding(torch.tensor([3]), torch.ones(3, 2)), IndexError, "^index out of range in self$"),
    (lambda: F.embedding(torch.tensor([-1]), torch.ones(3, 2)), IndexError, "^index out of range in self$"),
    (lambda: nn.Embedding.from_pretrained(torch.ones(3)), AssertionError,
     "^Embeddings parameter is expected to be 2-dimensional$"),
    (lambda: nn.Embedding(5, 3, sparse=True), NotImplementedError, "^minigrad has dense tensors only"),
    (lambda: F.embedding(torch.tensor([1]), torch.ones(3, 2), sparse=True), NotImplementedError, "sparse=True"),
])
def test_embedding_errors(fn, error, message):
    with pytest.raises(error, match=message):
        fn()


def test_embedding_gradcheck():
    w = torch.tensor(np.random.RandomState(0).randn(6, 3), requires_grad=True)
    idx = torch.tensor([[0, 5, 5], [2, 1, 0]])
    assert gradcheck(lambda w: F.embedding(idx, w), (w,))  # (padding_idx's zero gradient is not the derivative)
    assert gradgradcheck(lambda w: F.embedding(idx, w), (w,))


# ---------------------------------------------------------------------------------- layer_norm
def test_layer_norm_values_gradients_and_node_as_pytorch():
    x = torch.tensor([[1.0, 2.0, 4.0, 7.0], [0.0, -1.0, 3.0, 2.0]], requires_grad=True)
    w = torch.tensor([1.0, 0.5, -1.0, 2.0], requires_grad=True)
    b = torch.tensor([0.0, 1.0, 0.0, -1.0], requires_grad=True)
    y = F.layer_norm(x, (4,), w, b)
    node = y.grad_fn
    assert type(node).__name__ == "NativeLayerNormBackward0" and names(y) == ["AccumulateGrad"] * 3
    assert node._saved_normalized_shape == (4,) and node._saved_result1.shape == (2, 1)
    np.testing.assert_allclose(node._saved_result1.numpy().ravel(), [3.5, 1.0])
    np.testing.assert_allclose(y.detach().numpy(), [[-1.09108841, 0.67267346, -0.21821769, 2.05504751],
                                                    [-0.63245428, 0.36754572, -1.26490855, 0.26490855]], rtol=1e-6)
    y.backward(torch.tensor([[1.0, 2.0, 3.0, 4.0], [-1.0, 0.0, 1.0, 0.5]]))
    np.testing.assert_allclose(x.grad.numpy(), [[0.84169453, 0.37408611, -2.30687237, 1.09109163],
                                                [-0.47434071, 0.15811357, -0.47434071, 0.79056787]], rtol=1e-5)
    np.testing.assert_allclose(w.grad.numpy(), [-0.45863414, -1.30930603, 1.91956174, 6.42632246], rtol=1e-6)
    assert b.grad.tolist() == [0.0, 2.0, 4.0, 4.5]


def test_layer_norm_without_weight_or_bias_has_none_edges():
    x = torch.ones(2, 3, 4, requires_grad=True)
    assert names(F.layer_norm(x, [3, 4])) == ["AccumulateGrad", None, None]
    ln = nn.LayerNorm(4, bias=False)
    assert names(ln(x)) == ["AccumulateGrad"] * 2 + [None] and list(ln.state_dict()) == ["weight"]
    assert repr(ln) == "LayerNorm((4,), eps=1e-05, elementwise_affine=True, bias=False)"
    plain = nn.LayerNorm((3, 4), elementwise_affine=False)
    assert list(plain.state_dict()) == [] and plain.weight is None and plain.bias is None


@pytest.mark.parametrize("fn, error, message", [
    (lambda x: F.layer_norm(x, (3,)), RuntimeError,
     r"^Given normalized_shape=\[3\], expected input with shape \[\*, 3\], but got input of size\[2, 3, 4\]$"),
    (lambda x: F.layer_norm(x, (4,), torch.ones(3)), RuntimeError,
     r"^Expected weight to be of same shape as normalized_shape, but got weight of shape \[3\] and "
     r"normalized_shape = \[4\]$"),
    (lambda x: F.layer_norm(x, ()), RuntimeError, "^Expected normalized_shape to be at least 1-dimensional"),
    (lambda x: F.layer_norm(x.long(), (4,)), NotImplementedError,
     "^\"LayerNormKernelImpl\" not implemented for 'Long'$"),
    (lambda x: F.layer_norm(x, 4), TypeError, "must be tuple of ints, not int$"),
])
def test_layer_norm_errors(fn, error, message):
    with pytest.raises(error, match=message):
        fn(torch.ones(2, 3, 4))


def test_layer_norm_gradcheck_and_gradgradcheck():
    rs = np.random.RandomState(1)
    x = torch.tensor(rs.randn(2, 3, 4), requires_grad=True)
    w, b = torch.tensor(rs.randn(3, 4), requires_grad=True), torch.tensor(rs.randn(3, 4), requires_grad=True)
    assert gradcheck(lambda x, w, b: F.layer_norm(x, (3, 4), w, b), (x, w, b))
    assert gradgradcheck(lambda x, w, b: F.layer_norm(x, (3, 4), w, b), (x, w, b))
    assert gradgradcheck(lambda x: F.layer_norm(x, (4,), eps=0.1), (x,))
