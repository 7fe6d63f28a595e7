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


def test_embedding_gradient_adds_repeated_rows_in_order_of_appearance():
    # embedding_dense_backward adds each looked-up row's gradient in turn: the same float32 roundings (and +0.0
    # for rows of -0.0) as a loop over the indices
    rng = np.random.default_rng(2)
    idx = rng.integers(0, 9, (40, 3))
    g = (rng.standard_normal((40, 3, 5)) * 10.0 ** rng.integers(-8, 8, (40, 3, 5))).astype(np.float32)
    g[rng.random(g.shape) < 0.1] = -0.0
    w = torch.zeros(9, 5, requires_grad=True)
    F.embedding(torch.tensor(idx), w).backward(torch.tensor(g))
    expected = np.zeros((9, 5), np.float32)
    for i, row in zip(idx.reshape(-1), g.reshape(-1, 5)):
        expected[i] += row
    assert np.array_equal(w.grad.numpy(), expected) and not np.signbit(w.grad.numpy()[w.grad.numpy() == 0]).any()


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


# ---------------------------------------------------------------------------------- rms_norm
def test_rms_norm_is_the_composite_pytorch_records():
    x = torch.tensor([[1.0, 2.0, 4.0, 7.0], [0.0, -1.0, 3.0, 2.0]], requires_grad=True)
    y = F.rms_norm(x, (4,), torch.tensor([1.0, 0.5, -1.0, 2.0]))
    # (x * rsqrt(mean(x ** 2) + eps)) * weight
    assert type(y.grad_fn).__name__ == "MulBackward0" and names(y) == ["MulBackward0", None]
    node, chain = y.grad_fn.next_functions[0][0], []
    node = node.next_functions[1][0]
    while node.next_functions:
        chain.append(type(node).__name__)
        node = node.next_functions[0][0]
    assert chain == ["RsqrtBackward0", "AddBackward1", "MeanBackward1", "PowBackward0"]
    np.testing.assert_allclose(y.detach().numpy(), [[0.23904572, 0.23904572, -0.95618290, 3.34664011],
                                                    [0.0, -0.26726124, -1.60356736, 2.13808990]], rtol=1e-6)
    y.backward(torch.tensor([[1.0, 2.0, 3.0, 4.0], [-1.0, 0.0, 1.0, 0.5]]))
    np.testing.assert_allclose(x.grad.numpy(), [[0.07854359, -0.08195855, -1.35914564, 0.78885090],
                                                [-0.53452247, -0.03818018, -0.41998196, 0.61088282]], rtol=1e-5)
    m = nn.RMSNorm([2, 4])
    assert repr(m) == "RMSNorm((2, 4), eps=None, elementwise_affine=True)" and list(m.state_dict()) == ["weight"]
    with pytest.raises(RuntimeError, match=r"expected input with shape \[\*3\], but got input of size\[2, 4\]$"):
        F.rms_norm(x, (3,))


def test_rms_norm_gradcheck():
    x = torch.tensor(np.random.RandomState(2).randn(3, 4), requires_grad=True)
    w = torch.tensor(np.random.RandomState(3).randn(4), requires_grad=True)
    assert gradcheck(lambda x, w: F.rms_norm(x, (4,), w, eps=1e-3), (x, w))
    assert gradgradcheck(lambda x, w: F.rms_norm(x, (4,), w), (x, w))


# ---------------------------------------------------------------------------------- batch_norm
def _bn():
    bn = nn.BatchNorm1d(2)
    with torch.no_grad():
        bn.weight.copy_(torch.tensor([2.0, 0.5]))
        bn.bias.copy_(torch.tensor([1.0, -1.0]))
    return bn


def test_batch_norm_training_values_gradients_and_running_statistics():
    bn = _bn()
    x = torch.tensor([[1.0, 2.0], [3.0, -2.0], [0.0, 4.0], [4.0, 0.0]], requires_grad=True)
    y = bn(x)
    assert type(y.grad_fn).__name__ == "NativeBatchNormBackward0" and names(y) == ["AccumulateGrad"] * 3
    assert y.grad_fn._saved_training is True and y.grad_fn._saved_running_mean is not None
    np.testing.assert_allclose(y.detach().numpy(), [[-0.26490855, -0.77639341], [2.26490855, -1.67081976],
                                                    [-1.52981710, -0.32918030], [3.52981710, -1.22360659]], rtol=1e-6)
    y.backward(torch.tensor([[1.0, 0.0], [0.0, 1.0], [2.0, -1.0], [-1.0, 3.0]]))
    np.testing.assert_allclose(x.grad.numpy(), [[-0.25297815, -0.06708218], [0.25297815, -0.24596660],
                                                [0.12649797, -0.08944327], [-0.12649797, 0.40249202]], rtol=1e-5)
    np.testing.assert_allclose(bn.weight.grad.numpy(), [-4.42717981, -4.02491808], rtol=1e-6)
    assert bn.bias.grad.tolist() == [2.0, 3.0]
    # running_mean moves 0.1 of the way to the batch mean; running_var to the unbiased variance (14/3, 20/3)
    np.testing.assert_allclose(bn.running_mean.numpy(), [0.2, 0.1], rtol=1e-6)
    np.testing.assert_allclose(bn.running_var.numpy(), [1.23333335, 1.56666660], rtol=1e-6)
    assert bn.num_batches_tracked.item() == 1 and bn.num_batches_tracked.dtype == torch.int64
    assert not bn.running_mean.requires_grad
    assert list(bn.state_dict()) == ["weight", "bias", "running_mean", "running_var", "num_batches_tracked"]
    assert [name for name, _ in bn.named_buffers()] == ["running_mean", "running_var", "num_batches_tracked"]
    bn.eval()
    y = bn(x)
    np.testing.assert_allclose(y.detach().numpy()[0], [2.44071460, -0.24101377], rtol=1e-6)
    assert y.grad_fn._saved_result1.shape == (0,) and bn.num_batches_tracked.item() == 1


def test_batch_norm_momentum_none_is_the_average_of_the_batches():
    bn = nn.BatchNorm1d(1, momentum=None, affine=False)
    for batch in ([[0.0], [2.0]], [[4.0], [6.0]], [[-1.0], [1.0]]):
        bn(torch.tensor(batch))
    assert bn.running_mean.tolist() == [pytest.approx(2.0)] and bn.num_batches_tracked.item() == 3
    assert bn.running_var.tolist() == [pytest.approx(2.0)]  # unbiased variances 2, 2, 2


def test_batch_norm_without_running_statistics_uses_the_batch_in_eval_mode_too():
    bn = nn.BatchNorm2d(2, track_running_stats=False)
    assert bn.running_mean is None and list(bn.state_dict()) == ["weight", "bias"]
    x = torch.tensor(np.random.RandomState(4).randn(3, 2, 2, 2).astype(np.float32))
    bn.eval()
    y = bn(x).detach().numpy()
    np.testing.assert_allclose(y.mean(axis=(0, 2, 3)), [0, 0], atol=1e-6)
    assert repr(bn) == "BatchNorm2d(2, eps=1e-05, momentum=0.1, affine=True, bias=True, track_running_stats=False)"


@pytest.mark.parametrize("fn, error, message", [
    (lambda: nn.BatchNorm1d(3)(torch.zeros(2, 3, 4, 5)), ValueError, r"^expected 2D or 3D input \(got 4D input\)$"),
    (lambda: nn.BatchNorm2d(3)(torch.zeros(2, 3)), ValueError, r"^expected 4D input \(got 2D input\)$"),
    (lambda: nn.BatchNorm1d(3)(torch.zeros(1, 3)), ValueError,
     r"^Expected more than 1 value per channel when training, got input size minigrad.Size\(\[1, 3\]\)$"),
    (lambda: nn.BatchNorm1d(3)(torch.zeros(2, 4)), RuntimeError, "^running_mean should contain 4 elements not 3$"),
    (lambda: F.batch_norm(torch.zeros(2, 3), None, None), RuntimeError,
     "^running_mean must be defined in evaluation mode$"),
    (lambda: F.batch_norm(torch.zeros(2, 3), None, None, training=True, eps=0), ValueError,
     "^batch_norm eps must be positive during training, but got 0$"),
    (lambda: F.batch_norm(torch.zeros(2, 3, dtype=torch.int64), None, None, training=True), NotImplementedError,
     "^\"batch_norm\" not implemented for 'Long'$"),
])
def test_batch_norm_errors(fn, error, message):
    with pytest.raises(error, match=message):
        fn()


def test_batch_norm_gradcheck_training_and_eval():
    rs = np.random.RandomState(5)
    x = torch.tensor(rs.randn(4, 3, 2), requires_grad=True)
    w, b = torch.tensor(rs.randn(3), requires_grad=True), torch.tensor(rs.randn(3), requires_grad=True)
    assert gradcheck(lambda x, w, b: F.batch_norm(x, None, None, w, b, training=True), (x, w, b))
    assert gradgradcheck(lambda x, w, b: F.batch_norm(x, None, None, w, b, training=True), (x, w, b))
    rm, rv = torch.tensor(rs.randn(3)), torch.tensor(rs.rand(3) + 0.5)
    assert gradcheck(lambda x, w, b: F.batch_norm(x, rm, rv, w, b), (x, w, b))
    assert gradgradcheck(lambda x, w, b: F.batch_norm(x, rm, rv, w, b), (x, w, b))


# ---------------------------------------------------------------------------------- histogram
def test_histogram_counts_edges_weights_and_density():
    x = torch.tensor([1.0, 2.0, 1.0, 4.0, 2.5, -1.0, 7.0])
    hist, edges = torch.histogram(x, 4)
    assert hist.tolist() == [1, 4, 1, 1] and edges.tolist() == [-1, 1, 3, 5, 7] and hist.dtype == torch.float32
    r = x.histogram(3, range=(0.0, 3.0))
    assert r.hist.tolist() == [0, 2, 2] and r.bin_edges.tolist() == [0, 1, 2, 3]
    r = torch.histogram(x, torch.tensor([0.0, 1.0, 3.0, 5.0]), weight=torch.ones(7) * 2, density=True)
    np.testing.assert_allclose(r.hist.numpy(), [0.0, 0.4, 0.1], rtol=1e-6)
    assert repr(torch.histogram(torch.tensor([2.0, 2.0]), 2)) == (
        "minigrad.return_types.histogram(\nhist=tensor([0., 2.]),\nbin_edges=tensor([1.5000, 2.0000, 2.5000]))")
    with pytest.raises(RuntimeError, match=r"^minigrad.histogramdd: min should not exceed max, but got min 3 max 1"):
        torch.histogram(x, 3, range=(3.0, 1.0))
    with pytest.raises(NotImplementedError, match="\"histogramdd\" not implemented for 'Long'"):
        torch.histogram(x.long(), 3)
