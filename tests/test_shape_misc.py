"""Shape helpers, reductions and utilities (vstack, rot90, tensor_split, aminmax, cummax, quantile, finfo,
set_printoptions, rng state ...): what the parity cases (tests/parity/cases_misc.py) cannot express --
memory shared by views, version counters, numerical gradient checks, state that must be restored."""
import math

import numpy as np
import pytest

import minigrad as torch
from minigrad.autograd import gradcheck, gradgradcheck


def _leaf(*shape, seed=0):
    return torch.tensor(np.random.RandomState(seed).uniform(-2, 2, shape), dtype=torch.float64, requires_grad=True)


# ---------------------------------------------------------------------------------- views share memory
@pytest.mark.parametrize("make", [
    lambda x: x.broadcast_to((4, 2, 3)),
    lambda x: x.ravel(),
    lambda x: x.tensor_split(3, dim=1)[1],
    lambda x: x.hsplit([1])[1],
    lambda x: x.split_with_sizes([1, 1])[0],
    lambda x: torch.atleast_3d(x),
    lambda x: x.vsplit(2)[0],
])
def test_views_share_memory_and_version(make):
    x = torch.arange(6.0).view(2, 3).clone()
    y = make(x)
    assert y._base is x
    version, values = y._version, y.clone()
    x.add_(1)  # an in-place change of the base shows in the view, and moves its version counter
    assert y._version == version + 1
    assert torch.equal(y, values + 1)


def test_copies_do_not_share_memory():
    x = torch.arange(6.0).view(2, 3)
    for y in (x.rot90(), x.fliplr(), torch.vstack([x, x]), torch.block_diag(x), x.diag_embed(), x.msort()):
        assert y._base is None and y.data_ptr() != x.data_ptr()


def test_ravel_of_a_transposed_tensor_is_a_view_of_a_copy():
    x = torch.arange(6.0).view(2, 3)
    y = x.t().ravel()
    assert y.tolist() == [0.0, 3.0, 1.0, 4.0, 2.0, 5.0]
    assert y._base is not None and y.data_ptr() != x.data_ptr()


def test_unravel_index_round_trips_with_flat_indices():
    shape = (3, 4, 5)
    flat = torch.arange(60)
    coords = torch.unravel_index(flat, shape)
    back = (coords[0] * 4 + coords[1]) * 5 + coords[2]
    assert torch.equal(back, flat)


def test_tril_triu_indices_select_the_triangles():
    m = torch.arange(12.0).view(3, 4)
    r, c = torch.tril_indices(3, 4, 1)
    assert m[r, c].sum().item() == torch.tril(m, 1).sum().item()
    r, c = torch.triu_indices(3, 4, -1)
    assert m[r, c].sum().item() == torch.triu(m, -1).sum().item()


# ---------------------------------------------------------------------------------- numerical gradients
@pytest.mark.parametrize("fn", [
    lambda x: x.rot90(1, (0, 1)),
    lambda x: torch.block_diag(x, x[0]),
    lambda x: x.diag_embed(1, 0, 2),
    lambda x: x.take_along_dim(torch.tensor([[2, 0, 1], [1, 1, 0]]), 1),
    lambda x: torch.cartesian_prod(x[0], x[1]),
    lambda x: x.logcumsumexp(1),
    lambda x: x.cummax(1).values,
    lambda x: x.cummin(0).values,
    lambda x: x.nansum(0),
    lambda x: torch.var_mean(x, 1)[0] * torch.var_mean(x, 1)[1],
    lambda x: torch.std_mean(x)[0],
    lambda x: x.quantile(torch.tensor([0.2, 0.7], dtype=torch.float64), 1),
    lambda x: x.dist(x.flip(0), 3),
    lambda x: torch.cdist(x, x[:1] * 2),
    lambda x: x[0].vdot(x[1]),
    lambda x: x.inner(x),
    lambda x: torch.trapezoid(x, torch.tensor([0.0, 0.5, 2.0], dtype=torch.float64)),
    lambda x: torch.cumulative_trapezoid(x, dx=0.5),
    lambda x: x.cov(),
    lambda x: torch.corrcoef(x),
])
def test_gradients_match_finite_differences(fn):
    x = _leaf(2, 3, seed=1)
    assert gradcheck(fn, (x,))


@pytest.mark.parametrize("fn", [
    lambda x: x.rot90(),
    lambda x: x.logcumsumexp(1),
    lambda x: x.aminmax(dim=1).max * 2,
    lambda x: torch.std_mean(x, 0)[0],
    lambda x: x.dist(x.flip(1)),
    lambda x: torch.corrcoef(x),
])
def test_second_derivatives_match_finite_differences(fn):
    x = _leaf(2, 3, seed=2)
    assert gradgradcheck(fn, (x,))


def test_aminmax_gradient_is_shared_between_ties():
    x = torch.tensor([[1.0, 3.0, 3.0], [2.0, 0.0, 2.0]], requires_grad=True)
    r = x.aminmax(dim=1)
    (r.min.sum() + r.max.sum()).backward()
    assert x.grad.tolist() == [[1.0, 0.5, 0.5], [0.5, 1.0, 0.5]]


def test_logcumsumexp_does_not_overflow():
    x = torch.tensor([1000.0, 1000.0, -1000.0], requires_grad=True)
    y = x.logcumsumexp(0)
    assert np.allclose(y.tolist(), [1000.0, 1000.0 + math.log(2), 1000.0 + math.log(2)])
    y.sum().backward()
    assert np.isfinite(x.grad.numpy()).all()


def test_quantile_matches_numpy():
    x = np.random.RandomState(3).randn(4, 7)
    q = [0.0, 0.1, 0.5, 0.9, 1.0]
    for mode in ("linear", "lower", "higher", "nearest", "midpoint"):
        got = torch.tensor(x).quantile(torch.tensor(q, dtype=torch.float64), 1, interpolation=mode).numpy()
        assert np.allclose(got, np.quantile(x, q, axis=1, method=mode))


def test_nanquantile_and_nanmean_skip_nans():
    x = torch.tensor([[1.0, float("nan"), 3.0], [2.0, 4.0, float("nan")]])
    assert x.nanmean(1).tolist() == [2.0, 3.0]
    assert x.nanquantile(0.5, 1).tolist() == [2.0, 3.0]
    assert math.isnan(x.quantile(0.5, 1)[0].item())


# ---------------------------------------------------------------------------------- counting against numpy
def test_histc_bincount_searchsorted_match_numpy():
    rs = np.random.RandomState(4)
    x = rs.uniform(-3, 3, 200).astype(np.float32)
    counts, _ = np.histogram(x, bins=7, range=(-2.0, 2.0))
    assert torch.tensor(x).histc(7, -2, 2).tolist() == counts.astype(float).tolist()
    ints = rs.randint(0, 9, 50)
    assert torch.tensor(ints).bincount().tolist() == np.bincount(ints).tolist()
    seq = np.sort(rs.uniform(-3, 3, 20))
    for side in ("left", "right"):
        got = torch.searchsorted(torch.tensor(seq), torch.tensor(x.astype(np.float64)), side=side)
        assert got.tolist() == np.searchsorted(seq, x.astype(np.float64), side=side).tolist()


# ---------------------------------------------------------------------------------- utilities and state
def test_finfo_fields_agree_with_numpy():
    for d in (torch.float16, torch.float32, torch.float64):
        f = torch.finfo(d)
        assert f.eps == float(np.finfo(d.numpy).eps) and f.max == float(np.finfo(d.numpy).max)
        assert 1.0 + f.eps != 1.0 and torch.tensor(1.0, dtype=d) + f.eps / 4 == 1.0
    assert torch.iinfo(torch.int64).max == 2 ** 63 - 1


def test_set_printoptions_changes_printing_until_reset():
    x = torch.tensor([1.123456, 2.0])
    try:
        torch.set_printoptions(precision=1)
        assert repr(x) == "tensor([1.1, 2.0])"
        torch.set_printoptions(sci_mode=True, precision=2)
        assert repr(x) == "tensor([1.12e+00, 2.00e+00])"
    finally:
        torch.set_printoptions(profile="default")
    assert repr(x) == "tensor([1.1235, 2.0000])"


def test_rng_state_of_a_generator_restores_its_numbers():
    g = torch.Generator().manual_seed(11)
    torch.randn(3, generator=g)  # (leaves half a Box-Muller pair behind: part of the state)
    state = g.get_state()
    first = torch.randn(7, generator=g), torch.randint(0, 100, (5,), generator=g)
    g.manual_seed(0)
    g.set_state(state)
    again = torch.randn(7, generator=g), torch.randint(0, 100, (5,), generator=g)
    assert all(torch.equal(a, b) for a, b in zip(first, again))
    assert g.initial_seed() == 11
    with pytest.raises(RuntimeError, match="RNG state size to be 3"):
        g.set_state(torch.zeros(3, dtype=torch.uint8))


def test_set_num_threads_is_remembered():
    n = torch.get_num_threads()
    try:
        torch.set_num_threads(3)
        assert torch.get_num_threads() == 3
    finally:
        torch.set_num_threads(n)


def test_asarray_shares_numpy_memory_unless_copied():
    a = np.array([1.0, 2.0])
    t, c = torch.asarray(a), torch.asarray(a, copy=True)
    a[0] = 9.0
    assert t[0].item() == 9.0 and c[0].item() == 1.0


def test_empty_strided_and_storage_offset():
    e = torch.empty_strided((2, 3), (1, 2))
    assert e.stride() == (1, 2) and e.tolist() == [[0.0] * 3] * 2
    x = torch.arange(12.0).view(3, 4)
    y = x[1:, 2:]
    assert y.storage_offset() == 6 and y.data_ptr() - x.data_ptr() == 6 * x.itemsize


def test_cov_with_weights_matches_numpy():
    rs = np.random.RandomState(5)
    x, fw, aw = rs.randn(3, 6), rs.randint(0, 4, 6), rs.uniform(0.1, 2, 6)
    for ddof in (0, 1, 2):
        got = torch.cov(torch.tensor(x), correction=ddof, fweights=torch.tensor(fw), aweights=torch.tensor(aw))
        assert np.allclose(got.numpy(), np.cov(x, ddof=ddof, fweights=fw, aweights=aw))


# x[idx] with a transposed index: PyTorch reshapes the index to the result's dims (reshape_indexer) and its
# TensorIterator orders the result's dims by those strides, size-1 dims included (recorded from torch 2.13)
INDEX_LAYOUTS = [((4, 3, 1), (2, 3), True, (2, 3, 3, 1), (1, 6, 2, 6)),
                 ((1, 4, 1), (3, 2), True, (3, 2, 4, 1), (1, 12, 3, 12)),
                 ((1, 1, 4), (3,), False, (3, 1, 4), (4, 4, 1)),
                 ((1, 4, 1), (2, 2, 2), False, (2, 2, 2, 4, 1), (16, 8, 4, 1, 1)),
                 ((5, 3), (2, 4), True, (2, 4, 3), (3, 6, 1))]


@pytest.mark.parametrize("x_shape, index_shape, transposed, shape, strides", INDEX_LAYOUTS)
def test_index_result_is_laid_out_as_torchs(x_shape, index_shape, transposed, shape, strides):
    x = torch.arange(int(np.prod(x_shape)), dtype=torch.float32).reshape(x_shape)
    index = np.arange(int(np.prod(index_shape))).reshape(index_shape) % x_shape[0]
    i = torch.tensor(index.T.copy()).t() if transposed else torch.tensor(index)
    out = x[i]
    assert (tuple(out.shape), out.stride()) == (shape, strides)
    np.testing.assert_array_equal(out.numpy(), x.numpy()[i.numpy()])
