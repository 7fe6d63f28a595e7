"""The ops of issue 19 (sin ... erf, var/std/norm/prod/cumsum/logsumexp/amax, gather/scatter/split/einsum ...).

Their values, names, trees, errors and first gradients against PyTorch are parity cases
(``tests/parity/cases.py``, the ``b19_*`` cases).  Here: every differentiable one's backward against
finite differences (``gradcheck``) and, for the smooth ones, its second derivative
(``gradgradcheck``: the backward formulas are themselves recorded), on float64 inputs of a few
shapes and seeds, kept away from kinks, ties and poles.
"""
import numpy as np
import pytest

import minigrad as torch
from minigrad.autograd import gradcheck, gradgradcheck


def x64(seed, *shape, lo=-1.5, hi=1.5):
    rng = np.random.RandomState(seed)
    return torch.tensor(rng.uniform(lo, hi, size=shape), dtype=torch.float64, requires_grad=True)


def spread(seed, *shape):
    """Distinct values at least 0.1 apart (no ties for amax, no zeros for prod), shuffled."""
    rng = np.random.RandomState(seed)
    n = int(np.prod(shape))
    vals = (np.arange(n) - n / 2 + 0.5) * 0.37 + 0.05
    return torch.tensor(rng.permutation(vals).reshape(shape), dtype=torch.float64, requires_grad=True)


# op: (function, input maker, smooth enough for a second derivative?)
UNARY = {
    "sin": (torch.sin, x64, True), "cos": (torch.cos, x64, True),
    "tan": (torch.tan, lambda s, *sh: x64(s, *sh, lo=-1.2, hi=1.2), True),
    "sinh": (torch.sinh, x64, True), "cosh": (torch.cosh, x64, True),
    "asin": (torch.asin, lambda s, *sh: x64(s, *sh, lo=-0.9, hi=0.9), True),
    "acos": (torch.acos, lambda s, *sh: x64(s, *sh, lo=-0.9, hi=0.9), True),
    "atan": (torch.atan, x64, True), "square": (torch.square, x64, True),
    "log1p": (torch.log1p, lambda s, *sh: x64(s, *sh, lo=-0.5, hi=2.0), True),
    "expm1": (torch.expm1, x64, True),
    "log2": (torch.log2, lambda s, *sh: x64(s, *sh, lo=0.3, hi=3.0), True),
    "log10": (torch.log10, lambda s, *sh: x64(s, *sh, lo=0.3, hi=3.0), True),
    "exp2": (torch.exp2, x64, True), "rsqrt": (torch.rsqrt, lambda s, *sh: x64(s, *sh, lo=0.3, hi=3.0), True),
    "erf": (torch.erf, x64, True), "frac": (torch.frac, spread, False),
    "floor": (torch.floor, spread, False), "round": (torch.round, spread, False),
    "clamp_min": (lambda x: x.clamp_min(0.02), spread, False),
    "clamp_max": (lambda x: x.clamp_max(-0.02), spread, False),
    "mod": (lambda x: x % 0.7, lambda s, *sh: x64(s, *sh, lo=0.05, hi=0.65), False),
}

REDUCE = {
    "var": (lambda x: x.var(), x64, True), "var_dim": (lambda x: x.var(1, keepdim=True), x64, True),
    "var_biased": (lambda x: x.var(0, correction=0), x64, True),
    "std": (lambda x: x.std(), x64, True), "std_dim": (lambda x: x.std(1), x64, True),
    "norm": (lambda x: x.norm(), x64, True), "norm_dim": (lambda x: x.norm(dim=0), x64, True),
    "norm_p1": (lambda x: x.norm(p=1, dim=1), spread, False),
    "norm_p3": (lambda x: x.norm(p=3), spread, True),
    "norm_inf": (lambda x: x.norm(p=float("inf"), dim=1), spread, False),
    "prod": (lambda x: x.prod(), spread, True), "prod_dim": (lambda x: x.prod(0), spread, True),
    "cumsum": (lambda x: x.cumsum(1), x64, True), "cumsum0": (lambda x: x.cumsum(0), x64, True),
    "logsumexp": (lambda x: x.logsumexp(1), x64, True),
    "logsumexp_all": (lambda x: x.logsumexp((0, 1), keepdim=True), x64, True),
    "amax": (lambda x: x.amax(1), spread, False), "amin": (lambda x: x.amin(), spread, False),
}

SELECT = {
    "masked_fill": (lambda x: x.masked_fill(x > 0.1, 2.0), spread, True),
    "index_select": (lambda x: x.index_select(1, torch.tensor([2, 0, 2])), x64, True),
    "gather": (lambda x: x.gather(1, torch.tensor([[0, 0], [2, 1], [1, 2]])), x64, True),
    "scatter_value": (lambda x: x.scatter(1, torch.tensor([[0], [2], [1]]), 0.5), x64, True),
    "scatter_add_self": (lambda x: x.scatter_add(0, torch.tensor([[0, 1, 0]]), torch.ones(1, 3, dtype=torch.float64)),
                         x64, True),
    "flip": (lambda x: x.flip(0, 1), x64, True), "narrow": (lambda x: x.narrow(0, 1, 2), x64, True),
    "repeat": (lambda x: x.repeat(2, 1, 2), x64, True),
    "split": (lambda x: x.split(2, 1)[1] * 3 + x.split(2, 1)[0][:, :1], x64, True),
    "chunk": (lambda x: x.chunk(3)[0] - x.chunk(3)[2], x64, True),
    "unbind": (lambda x: x.unbind(1)[0] * x.unbind(1)[2], x64, True),
    "squeeze_tuple": (lambda x: x[None, :, None].squeeze((0, 2)), x64, True),
    "range_index": (lambda x: x[range(2)], x64, True),
    "einsum": (lambda x: torch.einsum("ij,kj->ik", x, x), x64, True),
    "einsum_sum_one": (lambda x: torch.einsum("ij->j", x), x64, True),
    "outer": (lambda x: torch.outer(x[0], x[1]), x64, True),
}

CASES = {**UNARY, **REDUCE, **SELECT}


@pytest.mark.parametrize("name", sorted(CASES))
@pytest.mark.parametrize("seed", [0, 1])
def test_backward_matches_finite_differences(name, seed):
    fn, make, _ = CASES[name]
    x = make(seed, 3, 3)
    assert gradcheck(fn, (x,), eps=1e-6, atol=1e-5, rtol=1e-4)


@pytest.mark.parametrize("name", sorted(n for n, (_, _, smooth) in CASES.items() if smooth))
def test_second_derivative_matches_finite_differences(name):
    fn, make, _ = CASES[name]
    x = make(3, 3, 3)
    assert gradgradcheck(fn, (x,), eps=1e-6, atol=1e-4, rtol=1e-3)


def test_two_input_ops():
    a, b = x64(5, 2, 3), x64(6, 3, lo=0.5, hi=1.5)
    assert gradcheck(lambda a, b: a % b, (a, spread(7, 3).detach().abs().requires_grad_()), atol=1e-5)
    src = x64(8, 3, 2)
    idx = torch.tensor([[0, 1], [2, 0], [1, 2]])
    assert gradcheck(lambda x, s: x.scatter(1, idx, s), (x64(9, 3, 3), src))
    assert gradcheck(lambda x, s: x.scatter_add(1, idx, s), (x64(9, 3, 3), src))
    assert gradcheck(lambda p, q: torch.einsum("ij,j->i", p, q), (a, b))
    assert gradgradcheck(lambda p, q: torch.einsum("ij,j->i", p, q), (a, b), atol=1e-4)
    v = x64(10)
    assert gradcheck(lambda x, v: x.masked_fill(x > 0, v), (a, v))


def test_a_zero_gradient_where_the_op_is_flat():
    x = spread(11, 2, 3)
    for fn in (torch.floor, torch.ceil, torch.round, torch.trunc, lambda t: t.round(decimals=1)):
        x.grad = None
        fn(x).sum().backward()
        assert x.grad.tolist() == [[0.0] * 3] * 2 and not np.signbit(x.grad.numpy()).any()


def test_prod_with_zeros_multiplies_the_others():
    x = torch.tensor([[2.0, 0.0, 3.0], [0.0, 0.0, 5.0]], requires_grad=True)
    x.prod(1).sum().backward()
    assert x.grad.tolist() == [[0.0, 6.0, 0.0], [0.0, 0.0, 0.0]]
    y = torch.tensor([2.0, 0.0, 3.0], requires_grad=True)
    y.prod().backward()
    assert y.grad.tolist() == [0.0, 6.0, 0.0]


def test_in_place_forms_record_the_ops_node():
    x = x64(12, 2, 2)
    y = x * 1
    for name in ("sin_", "cos_", "tan_", "atan_", "expm1_", "exp2_", "erf_", "square_", "floor_", "frac_"):
        z = x.detach().clone()
        assert getattr(z, name)() is z and z._version == 1
    assert y.sin_() is y and type(y.grad_fn).__name__ == "SinBackward0"
    y.sum().backward()
    assert np.allclose(x.grad.numpy(), np.cos(x.detach().numpy()))
    with pytest.raises(RuntimeError, match="a leaf Variable that requires grad is being used in an in-place"):
        x.cos_()


def test_split_pieces_are_views_and_einsum_checks_its_equation():
    x = torch.arange(6.0).reshape(3, 2)
    a, b = x.split(2)
    a[0, 0] = 100.0
    assert x[0, 0].item() == 100.0 and x._version == a._version
    with pytest.raises(NotImplementedError, match="does not support '...'"):
        torch.einsum("...i,i->...", x, x[0])
    with pytest.raises(RuntimeError, match="2 operands were specified in the equation but 1 were given"):
        torch.einsum("ij,jk->ik", x)


def test_variable_is_a_new_leaf_and_leaves_its_argument_alone():
    x = torch.ones(2)
    v = torch.autograd.Variable(x, requires_grad=True)
    assert v is not x and not x.requires_grad and v.requires_grad and v.is_leaf
    v.data.add_(1)  # the same numbers
    assert x.tolist() == [2.0, 2.0]
    assert not torch.autograd.Variable(torch.ones(1, requires_grad=True)).requires_grad


def test_multinomial_draws_indices_with_the_given_weights():
    torch.manual_seed(0)
    w = torch.tensor([[0.0, 1.0, 3.0], [5.0, 0.0, 0.0]])
    s = torch.multinomial(w, 400, replacement=True)
    assert s.shape == (2, 400) and s.dtype is torch.int64
    assert set(s[1].tolist()) == {0} and 0 not in s[0].tolist()
    assert 0.65 < (s[0] == 2).float().mean().item() < 0.85  # 3 / 4 expected
    g = torch.Generator().manual_seed(5)
    a = torch.multinomial(torch.ones(10), 10, generator=g)
    assert sorted(a.tolist()) == list(range(10))  # without replacement: each index once
    assert torch.multinomial(torch.ones(10), 4, generator=torch.Generator().manual_seed(5)).tolist() == \
        torch.multinomial(torch.ones(10), 4, generator=torch.Generator().manual_seed(5)).tolist()
    with pytest.raises(RuntimeError, match="cannot sample n_sample > prob_dist.size"):
        torch.multinomial(torch.ones(3), 4)
    with pytest.raises(RuntimeError, match=r"invalid multinomial distribution \(sum of probabilities <= 0\)"):
        torch.multinomial(torch.zeros(3), 1)


def test_dataloader_shuffles_reproducibly_with_a_generator():
    from minigrad.utils.data import DataLoader, TensorDataset
    ds = TensorDataset(torch.arange(10.0), torch.arange(10))

    def order(seed):
        return [i for _, yb in DataLoader(ds, batch_size=3, shuffle=True,
                                          generator=torch.Generator().manual_seed(seed)) for i in yb.tolist()]
    assert order(1) == order(1) and sorted(order(1)) == list(range(10)) and order(1) != list(range(10))


def test_what_minigrad_does_not_have_says_so():
    with pytest.raises(NotImplementedError, match="dense tensors only"):
        torch.sparse_coo_tensor([[0]], [1.0], (2,))
    with pytest.raises(NotImplementedError, match="dense tensors only"):
        torch.ones(2).to_sparse()
    with pytest.raises(NotImplementedError, match="no complex numbers"):
        torch.complex(torch.ones(1), torch.ones(1))
    with pytest.raises(NotImplementedError, match="vector norms only"):
        torch.ones(2, 2).norm(p="nuc")
    assert torch.ones(1).is_sparse is False and torch.ones(1).is_complex() is False
    with pytest.raises(AssertionError, match="minigrad runs on the CPU only"):  # (the profiler: tests/test_profiler.py)
        torch.autograd.profiler.profile(use_cuda=True)


def test_numpy_of_a_tensor_that_requires_grad_works_where_grad_mode_is_off():
    y = torch.ones(2, requires_grad=True)
    with pytest.raises(RuntimeError, match=r"Can't call numpy\(\) on Tensor that requires grad"):
        y.numpy()
    with torch.no_grad():
        assert y.numpy().tolist() == [1.0, 1.0]

    class Double(torch.autograd.Function):
        @staticmethod
        def forward(ctx, a):
            return torch.tensor(a.numpy() * 2)  # grad mode is off inside forward

        @staticmethod
        def backward(ctx, g):
            return g * 2

    out = Double.apply(y)
    assert out.tolist() == [2.0, 2.0] and type(out.grad_fn).__name__ == "DoubleBackward"
    assert torch.tensor([True, False]).square().dtype is torch.int64
