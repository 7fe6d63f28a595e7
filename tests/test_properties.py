"""Property tests: every differentiable op's backward against central finite differences (float64).

For an op ``f`` and random float64 inputs (random shapes, broadcasting for binary ops), the
gradient of ``L = sum(f(inputs) * W)`` (``W`` a fixed random weight, so that every output element
matters differently) from ``L.backward()`` must match ``(L(x + eps e_i) - L(x - eps e_i)) / 2 eps``
for every element ``i`` of every input.  The finite differences are computed here with numpy
(independent of ``minigrad.autograd.gradcheck``, which gets its own small test).  Inputs are kept
away from kinks and poles (relu/abs at 0, log/sqrt/div near 0, ties in max).
"""
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import minigrad as torch
import minigrad.nn.functional as F

SETTINGS = settings(max_examples=10, deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
EPS = 1e-6
RTOL, ATOL = 1e-5, 1e-7


# ---------------------------------------------------------------------------------- helpers
def values(rng, shape, kind):
    """Random float64 values for one input: 'any', 'pos' (for log, sqrt, pow) or 'nonzero' (|x| >= 0.2)."""
    u = rng.uniform(-1.5, 1.5, size=shape)
    if kind == "pos":
        return np.abs(u) + 0.3
    if kind == "nonzero":
        return np.sign(u + 1e-12) * (np.abs(u) + 0.2)
    return u


def check_grads(fn, arrays, seed=0):
    """Compare minigrad's gradients of ``sum(fn(*xs) * W)`` with central finite differences."""
    arrays = [np.array(a, dtype=np.float64) for a in arrays]  # 0-d arrays, not numpy scalars
    xs = [torch.tensor(a, dtype=torch.float64, requires_grad=True) for a in arrays]
    out = fn(*xs)
    w = np.random.RandomState(seed + 1).uniform(0.5, 1.5, size=tuple(out.shape))
    loss = (out * torch.tensor(w, dtype=torch.float64)).sum()
    loss.backward()

    def L(arrs):  # inputs require grad so that fns that differentiate inside (second derivatives) work
        o = fn(*[torch.tensor(a, dtype=torch.float64, requires_grad=True) for a in arrs])
        return float((o.detach().numpy() * w).sum())

    for i, a in enumerate(arrays):
        assert xs[i].grad is not None, f"input {i} got no gradient"
        got = xs[i].grad.numpy()
        assert got.shape == a.shape, f"input {i}: grad shape {got.shape} != {a.shape}"
        num = np.zeros(a.shape)
        flat = num.reshape(-1)
        for k in range(a.size):
            plus = [b.copy() for b in arrays]
            minus = [b.copy() for b in arrays]
            plus[i].reshape(-1)[k] += EPS
            minus[i].reshape(-1)[k] -= EPS
            flat[k] = (L(plus) - L(minus)) / (2 * EPS)
        np.testing.assert_allclose(got, num, rtol=RTOL, atol=ATOL, err_msg=f"gradient of input {i}")


shapes = hnp.array_shapes(min_dims=0, max_dims=3, min_side=1, max_side=4)
shapes_nd = hnp.array_shapes(min_dims=1, max_dims=3, min_side=1, max_side=4)
shapes_2d_up = hnp.array_shapes(min_dims=2, max_dims=3, min_side=1, max_side=4)
broadcast_pairs = hnp.mutually_broadcastable_shapes(num_shapes=2, min_dims=0, max_dims=3, min_side=1, max_side=3)
seeds = st.integers(0, 2 ** 31 - 1)


# ---------------------------------------------------------------------------------- unary ops
UNARY = {
    "neg": (lambda x: -x, "any"),
    "exp": (lambda x: x.exp(), "any"),
    "log": (lambda x: x.log(), "pos"),
    "sqrt": (lambda x: x.sqrt(), "pos"),
    "abs": (lambda x: x.abs(), "nonzero"),
    "tanh": (lambda x: x.tanh(), "any"),
    "sigmoid": (lambda x: x.sigmoid(), "any"),
    "relu": (lambda x: x.relu(), "nonzero"),
    "reciprocal": (lambda x: x.reciprocal(), "nonzero"),
    "pow2": (lambda x: x ** 2, "any"),
    "pow3": (lambda x: x.pow(3), "any"),
    "pow_half": (lambda x: x ** 0.5, "pos"),
    "pow_neg_1.5": (lambda x: x ** -1.5, "pos"),
    "rpow": (lambda x: 2.0 ** x, "any"),
    "rsub": (lambda x: 3.0 - x, "any"),
    "rdiv": (lambda x: 3.0 / x, "nonzero"),
    "scalar_ops": (lambda x: (x * 2.5 + 1) / 4 - 0.5, "any"),
    "clamp": (lambda x: x.clamp(-0.55, 0.45), "any"),
    "clamp_min": (lambda x: x.clamp(min=0.05), "any"),
    "sum": (lambda x: x.sum(), "any"),
    "mean": (lambda x: x.mean(), "any"),
    "max": (lambda x: x.max(), "any"),
    "min": (lambda x: x.min(), "any"),
    "clone": (lambda x: x.clone(), "any"),
    "flatten": (lambda x: x.flatten(), "any"),
    "reshape": (lambda x: x.reshape(-1), "any"),
    "T": (lambda x: x.T * 1.0, "any"),
    "unsqueeze_squeeze": (lambda x: x.unsqueeze(0).squeeze(), "any"),
    "expand": (lambda x: x.expand(2, *x.shape), "any"),
    "F_relu": (lambda x: F.relu(x), "nonzero"),
    "chain": (lambda x: (x.tanh() * x.sigmoid() + x.exp() / 3).sum(), "any"),
}


@pytest.mark.parametrize("name", sorted(UNARY))
@SETTINGS
@given(shape=shapes, seed=seeds)
def test_unary_gradient(name, shape, seed):
    fn, kind = UNARY[name]
    check_grads(fn, [values(np.random.RandomState(seed), shape, kind)], seed)


# ---------------------------------------------------------------------------------- ops along a dim
DIM_OPS = {
    "sum_dim": lambda x, d: x.sum(d),
    "sum_keepdim": lambda x, d: x.sum(d, keepdim=True),
    "mean_dim": lambda x, d: x.mean(d),
    "mean_keepdim": lambda x, d: x.mean(d, keepdim=True),
    "max_dim": lambda x, d: x.max(d).values,
    "max_dim_keepdim": lambda x, d: x.max(d, keepdim=True)[0],
    "min_dim": lambda x, d: x.min(d).values,
    "softmax": lambda x, d: x.softmax(d),
    "log_softmax": lambda x, d: x.log_softmax(d),
    "F_softmax": lambda x, d: F.softmax(x, dim=d),
    "unsqueeze": lambda x, d: x.unsqueeze(d),
    "select": lambda x, d: x.select(d, -1),
    "slice": lambda x, d: x[(slice(None),) * (d % x.dim()) + (slice(0, None, 2),)],
    "cat": lambda x, d: torch.cat([x, x * 2], d),
    "stack": lambda x, d: torch.stack([x, x.exp()], d),
}


@pytest.mark.parametrize("name", sorted(DIM_OPS))
@SETTINGS
@given(shape=shapes_nd, seed=seeds, data=st.data())
def test_dim_op_gradient(name, shape, seed, data):
    d = data.draw(st.integers(-len(shape), len(shape) - 1), label="dim")
    check_grads(lambda x: DIM_OPS[name](x, d), [values(np.random.RandomState(seed), shape, "any")], seed)


@SETTINGS
@given(shape=shapes_2d_up, seed=seeds, data=st.data())
def test_transpose_permute_gradient(shape, seed, data):
    n = len(shape)
    d0, d1 = data.draw(st.integers(0, n - 1)), data.draw(st.integers(0, n - 1))
    perm = data.draw(st.permutations(range(n)))
    a = values(np.random.RandomState(seed), shape, "any")
    check_grads(lambda x: x.transpose(d0, d1) * x.permute(*perm).permute(*np.argsort(perm).tolist()).transpose(d0, d1),
                [a], seed)


@SETTINGS
@given(shape=shapes_nd, seed=seeds, data=st.data())
def test_advanced_indexing_gradient(shape, seed, data):
    idx = data.draw(st.lists(st.integers(0, shape[0] - 1), min_size=1, max_size=5), label="index")
    a = values(np.random.RandomState(seed), shape, "any")
    check_grads(lambda x: x[idx] * 2 + x[torch.tensor(idx[::-1])], [a], seed)


# ---------------------------------------------------------------------------------- binary ops, broadcasting
BINARY = {
    "add": (lambda a, b: a + b, "any", "any"),
    "sub": (lambda a, b: a - b, "any", "any"),
    "mul": (lambda a, b: a * b, "any", "any"),
    "div": (lambda a, b: a / b, "any", "nonzero"),
    "pow": (lambda a, b: a ** b, "pos", "any"),
    "maximum": (lambda a, b: torch.maximum(a, b), "any", "any"),
    "add_alpha": (lambda a, b: a.add(b, alpha=-1.5), "any", "any"),
    "where": (lambda a, b: torch.where(a > 0, a, b), "nonzero", "any"),
    "mixed": (lambda a, b: (a * b).exp() / (1 + b * b) - a.tanh(), "any", "any"),
}


@pytest.mark.parametrize("name", sorted(BINARY))
@SETTINGS
@given(shapes=broadcast_pairs, seed=seeds)
def test_binary_gradient_broadcasting(name, shapes, seed):
    fn, ka, kb = BINARY[name]
    rng = np.random.RandomState(seed)
    sa, sb = shapes.input_shapes
    check_grads(fn, [values(rng, sa, ka), values(rng, sb, kb)], seed)


# ---------------------------------------------------------------------------------- matrix products
mat_sizes = st.integers(1, 4)


@SETTINGS
@given(n=mat_sizes, k=mat_sizes, m=mat_sizes, seed=seeds)
def test_mm_gradient(n, k, m, seed):
    rng = np.random.RandomState(seed)
    check_grads(lambda a, b: a.mm(b), [values(rng, (n, k), "any"), values(rng, (k, m), "any")], seed)


@SETTINGS
@given(n=mat_sizes, k=mat_sizes, m=mat_sizes, seed=seeds, data=st.data())
def test_matmul_gradient(n, k, m, seed, data):
    """1D.1D, 2D.1D, 1D.2D, 2D.2D and batched (with broadcast batch dims) products."""
    rng = np.random.RandomState(seed)
    batch = data.draw(st.sampled_from([(), (2,), (1, 2), (3, 1)]), label="batch_a")
    batch_b = data.draw(st.sampled_from([(), (2,), (3, 2), (1,)]), label="batch_b")
    ka = data.draw(st.sampled_from(["vec", "mat"]), label="a_kind")
    kb = data.draw(st.sampled_from(["vec", "mat"]), label="b_kind")
    sa = (k,) if ka == "vec" else batch + (n, k)
    sb = (k,) if kb == "vec" else batch_b + (k, m)
    if len(sa) > 2 and len(sb) > 2:
        try:
            np.broadcast_shapes(sa[:-2], sb[:-2])
        except ValueError:
            sb = sa[:-2] + (k, m)
    check_grads(lambda a, b: a @ b, [values(rng, sa, "any"), values(rng, sb, "any")], seed)


# ---------------------------------------------------------------------------------- losses
@SETTINGS
@given(n=st.integers(1, 4), c=st.integers(2, 4), seed=seeds, data=st.data())
def test_loss_gradients(n, c, seed, data):
    rng = np.random.RandomState(seed)
    target = torch.tensor(rng.randint(0, c, size=n).tolist())
    reduction = data.draw(st.sampled_from(["mean", "sum", "none"]), label="reduction")
    weight = torch.tensor(rng.uniform(0.5, 2.0, size=c), dtype=torch.float64)
    check_grads(lambda x: F.cross_entropy(x, target, reduction=reduction), [values(rng, (n, c), "any")], seed)
    check_grads(lambda x: F.cross_entropy(x, target, weight=weight), [values(rng, (n, c), "any")], seed)
    check_grads(lambda x: F.nll_loss(x.log_softmax(1), target, reduction=reduction), [values(rng, (n, c), "any")],
                seed)
    check_grads(lambda x, t: F.mse_loss(x, t, reduction=reduction),
                [values(rng, (n, c), "any"), values(rng, (n, c), "any")], seed)


# ---------------------------------------------------------------------------------- minigrad's gradcheck
@pytest.mark.parametrize("fn", [lambda a, b: (a * b).sigmoid(), lambda a, b: a.mm(b.t()).log_softmax(1)],
                         ids=["mul_sigmoid", "mm_log_softmax"])
def test_minigrad_gradcheck(fn):
    rng = np.random.RandomState(0)
    a = torch.tensor(rng.uniform(-1, 1, (3, 4)), dtype=torch.float64, requires_grad=True)
    b = torch.tensor(rng.uniform(-1, 1, (3, 4)), dtype=torch.float64, requires_grad=True)
    assert torch.autograd.gradcheck(fn, (a, b))


def test_minigrad_gradcheck_catches_a_wrong_backward():
    class Wrong(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * x

        @staticmethod
        def backward(ctx, g):
            return g  # should be 2 x g

    x = torch.tensor([0.5, 1.5], dtype=torch.float64, requires_grad=True)
    assert torch.autograd.gradcheck(Wrong.apply, (x,), raise_exception=False) is False


# ---------------------------------------------------------------------------------- algebraic properties
@SETTINGS
@given(shape=shapes, seed=seeds)
def test_backward_of_sum_is_sum_of_backwards(shape, seed):
    a = values(np.random.RandomState(seed), shape, "any")
    f = lambda x: (x.exp() * x).sum()  # noqa: E731
    g = lambda x: (x.tanh() ** 2).sum()  # noqa: E731
    x = torch.tensor(a, dtype=torch.float64, requires_grad=True)
    (f(x) + g(x)).backward()
    together = x.grad.numpy().copy()
    x1 = torch.tensor(a, dtype=torch.float64, requires_grad=True)
    f(x1).backward()
    x2 = torch.tensor(a, dtype=torch.float64, requires_grad=True)
    g(x2).backward()
    np.testing.assert_allclose(together, x1.grad.numpy() + x2.grad.numpy(), rtol=1e-12, atol=1e-12)


@SETTINGS
@given(shape=shapes, seed=seeds)
def test_grad_accumulates_across_backwards(shape, seed):
    a = values(np.random.RandomState(seed), shape, "any")
    x = torch.tensor(a, dtype=torch.float64, requires_grad=True)
    (x.sigmoid() * 3).sum().backward()
    first = x.grad.numpy().copy()
    (x * x).sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), first + 2 * a, rtol=1e-12, atol=1e-12)
    y = (x * x).sum()
    y.backward(retain_graph=True)
    y.backward()
    np.testing.assert_allclose(x.grad.numpy(), first + 6 * a, rtol=1e-12, atol=1e-12)


@SETTINGS
@given(shape=shapes, seed=seeds)
def test_backward_is_linear_in_gradient(shape, seed):
    rng = np.random.RandomState(seed)
    a, g = values(rng, shape, "any"), values(rng, shape, "any")
    grads = []
    for scale in (1.0, -2.5):
        x = torch.tensor(a, dtype=torch.float64, requires_grad=True)
        (x.exp() * x.tanh()).backward(torch.tensor(g * scale, dtype=torch.float64))
        grads.append(x.grad.numpy())
    np.testing.assert_allclose(grads[1], -2.5 * grads[0], rtol=1e-12, atol=1e-12)


@SETTINGS
@given(shape=shapes, seed=seeds)
def test_autograd_grad_matches_backward(shape, seed):
    a = values(np.random.RandomState(seed), shape, "pos")
    x = torch.tensor(a, dtype=torch.float64, requires_grad=True)
    y = (x.log() * x.sqrt()).sum()
    (g,) = torch.autograd.grad(y, x, retain_graph=True)
    assert x.grad is None
    y.backward()
    np.testing.assert_array_equal(g.numpy(), x.grad.numpy())


@SETTINGS
@given(shape=shapes, seed=seeds)
def test_second_derivative_of_cube(shape, seed):
    a = values(np.random.RandomState(seed), shape, "any")
    x = torch.tensor(a, dtype=torch.float64, requires_grad=True)
    (g,) = torch.autograd.grad((x ** 3).sum(), x, create_graph=True)
    np.testing.assert_allclose(g.detach().numpy(), 3 * a ** 2, rtol=1e-12, atol=1e-12)
    (g2,) = torch.autograd.grad(g.sum(), x)
    np.testing.assert_allclose(g2.numpy(), 6 * a, rtol=1e-12, atol=1e-12)


@SETTINGS
@given(shape=shapes, seed=seeds)
def test_second_derivative_by_finite_differences(shape, seed):
    """d/dx of the create_graph gradient of sum(tanh(x) * exp(x)) against finite differences of the gradient."""
    a = values(np.random.RandomState(seed), shape, "any")

    def first(x):
        (g,) = torch.autograd.grad((x.tanh() * x.exp()).sum(), x, create_graph=True)
        return g

    check_grads(first, [a], seed)


# ---------------------------------------------------------------------------------- issue 19: the everyday ops (b19c)
UNARY_19C = {
    "sort": (lambda x: x.reshape(-1).sort().values, "any"),
    "sort_desc": (lambda x: x.reshape(-1).sort(descending=True).values * torch.arange(x.numel()), "any"),
    "topk": (lambda x: x.reshape(-1).topk(1).values, "any"),
    "median": (lambda x: x.median(), "any"),
    "nan_to_num": (lambda x: x.nan_to_num(), "any"),
    "fmod_number": (lambda x: x.fmod(0.7), "any"),
    "take": (lambda x: x.take(torch.tensor([0, -1, 0])), "any"),
    "masked_select": (lambda x: x.masked_select(x > 0.1) * 2, "nonzero"),
    "roll_flat": (lambda x: x.roll(1) * torch.arange(x.numel()).reshape(x.shape), "any"),
    "repeat_interleave": (lambda x: x.repeat_interleave(2), "any"),
    "tile": (lambda x: x.tile((2, 1)), "any"),
    "aliases": (lambda x: torch.multiply(torch.subtract(x, 1.5), torch.true_divide(x, 2.0)), "any"),
    "lerp_number": (lambda x: torch.lerp(x, x * x, 0.3), "any"),
    "lerp_tensor": (lambda x: x.lerp(x.exp(), x.sigmoid()), "any"),
    "addcmul": (lambda x: torch.addcmul(x, x, x.sin(), value=0.5), "any"),
    "addcdiv": (lambda x: x.addcdiv(x.cos(), x.abs() + 0.5, value=-2), "any"),
    "meshgrid": (lambda x: torch.meshgrid(x.reshape(-1), x.reshape(-1) ** 2, indexing="xy")[1] * torch.meshgrid(
        x.reshape(-1), x.reshape(-1), indexing="ij")[0], "any"),
    "broadcast_tensors": (lambda x: torch.broadcast_tensors(x, torch.ones(2, *x.shape))[0] * 3, "any"),
    "kron": (lambda x: torch.kron(x, x.sigmoid()), "any"),
}


@pytest.mark.parametrize("name", sorted(UNARY_19C))
@SETTINGS
@given(shape=shapes, seed=seeds)
def test_unary_gradient_19c(name, shape, seed):
    fn, kind = UNARY_19C[name]
    check_grads(fn, [values(np.random.RandomState(seed), shape, kind)], seed)


DIM_OPS_19C = {
    "sort_dim": lambda x, d: x.sort(d).values,
    "topk_dim": lambda x, d: x.topk(1, d, largest=False).values,
    "median_dim": lambda x, d: x.median(d).values,
    "median_keepdim": lambda x, d: x.median(d, keepdim=True)[0],
    "cumprod": lambda x, d: x.cumprod(d),
    "cumprod_with_zero": lambda x, d: (x * (x.abs() > 0.9)).cumprod(d),
    "roll": lambda x, d: x.roll(-1, d),
    "repeat_interleave_dim": lambda x, d: x.repeat_interleave(2, dim=d),
}


@pytest.mark.parametrize("name", sorted(DIM_OPS_19C))
@SETTINGS
@given(shape=shapes_nd, seed=seeds, data=st.data())
def test_dim_op_gradient_19c(name, shape, seed, data):
    d = data.draw(st.integers(-len(shape), len(shape) - 1), label="dim")
    check_grads(lambda x: DIM_OPS_19C[name](x, d), [values(np.random.RandomState(seed), shape, "any")], seed)


MATRIX_OPS_19C = {
    "tril": lambda x: x.tril(),
    "triu_1": lambda x: x.triu(1),
    "diag": lambda x: torch.diag(x, -1 if x.shape[0] > 1 else 0),
    "diag_embed": lambda x: torch.diag(x[0], 1),
    "trace": lambda x: x.trace(),
    "addmm": lambda x: torch.addmm(x[0], x.t(), x, beta=0.5, alpha=2),
    "cross": lambda x: torch.cross(x[:, :3], x[:, :3].exp(), dim=1),
}


@pytest.mark.parametrize("name", sorted(MATRIX_OPS_19C))
@SETTINGS
@given(n=st.integers(1, 4), m=st.integers(3, 4), seed=seeds)
def test_matrix_op_gradient_19c(name, n, m, seed):
    check_grads(MATRIX_OPS_19C[name], [values(np.random.RandomState(seed), (n, m), "any")], seed)


@pytest.mark.parametrize("name", ["fmod", "lerp", "addcmul", "addcdiv"])
@SETTINGS
@given(shapes=broadcast_pairs, seed=seeds)
def test_pointwise_gradient_broadcasting_19c(name, shapes, seed):
    fns = {"fmod": lambda a, b: a.fmod(b.abs() + 2.0), "lerp": lambda a, b: torch.lerp(a, b, b.sigmoid()),
           "addcmul": lambda a, b: torch.addcmul(a, b, a * b), "addcdiv": lambda a, b: a.addcdiv(b, a * a + 1)}
    rng = np.random.RandomState(seed)
    check_grads(fns[name], [values(rng, s, "any") for s in shapes.input_shapes], seed)


# ---------------------------------------------------------------------------------- the tutorials' leftovers
DIM_OPS_19T = {
    "index_fill": lambda x, d: x.index_fill(d, torch.tensor([0, x.shape[d] - 1]), 0.5),
    "index_copy": lambda x, d: x.index_copy(d, torch.tensor([x.shape[d] - 1]), x.narrow(d, 0, 1).exp()),
    "diff": lambda x, d: x.diff(dim=d),
    "diff_2_prepend": lambda x, d: torch.diff(x, n=2, dim=d, prepend=x.exp()),
    "kthvalue": lambda x, d: x.kthvalue((x.shape[d] + 1) // 2, d).values,
    "mode": lambda x, d: x.mode(d, keepdim=True).values,
    "pad": lambda x, d: F.pad(x, (1, -1) * (d % x.dim() + 1), value=0.5),
    "selu": lambda x, d: F.selu(x * (d + 3)),
}


@pytest.mark.parametrize("name", sorted(DIM_OPS_19T))
@SETTINGS
@given(shape=shapes_nd, seed=seeds, data=st.data())
def test_dim_op_gradient_19t(name, shape, seed, data):
    d = data.draw(st.integers(-len(shape), len(shape) - 1), label="dim")
    kind = "nonzero" if name == "selu" else "any"
    check_grads(lambda x: DIM_OPS_19T[name](x, d), [values(np.random.RandomState(seed), shape, kind)], seed)


@pytest.mark.parametrize("dims, b_shape", [(0, (3,)), (1, (3, 2)), (2, (2, 3)), (([0], [1]), (3, 2)),
                                            (([1, 0], [0, 1]), (3, 2)), (([1], [0]), (1, 4))])
@SETTINGS
@given(seed=seeds)
def test_tensordot_gradient(dims, b_shape, seed):
    rng = np.random.RandomState(seed)
    check_grads(lambda a, b: torch.tensordot(a, b, dims), [values(rng, (2, 3), "any"), values(rng, b_shape, "any")], seed)


# ---------------------------------------------------------------------------------- embeddings and normalisation (issue 41)
NORM_OPS = {  # each takes an input of at least two dims and a weight and a bias of its last dim
    "layer_norm": lambda x, w, b: F.layer_norm(x, x.shape[-1:], w, b),
    "layer_norm_no_affine": lambda x, w, b: F.layer_norm(x, x.shape[-1:], eps=0.1) * w + b,
    "rms_norm": lambda x, w, b: F.rms_norm(x, x.shape[-1:], w, eps=1e-3) + b,
    "batch_norm_training": lambda x, w, b: F.batch_norm(x.movedim(-1, 1), None, None, w, b, training=True),
    "batch_norm_eval": lambda x, w, b: F.batch_norm(x.movedim(-1, 1), torch.full(w.shape, 0.3, dtype=w.dtype),
                                                    torch.full(w.shape, 0.7, dtype=w.dtype), w, b, training=False),
    "embedding": lambda x, w, b: F.embedding(torch.tensor([[0, 1], [1, 1]]), x.reshape(x.shape[0], -1)) * (w * b).sum(),
}


@pytest.mark.parametrize("name", sorted(NORM_OPS))
@SETTINGS
@given(shape=hnp.array_shapes(min_dims=2, max_dims=3, min_side=2, max_side=4), seed=seeds)
def test_norm_gradient(name, shape, seed):
    rng = np.random.RandomState(seed)
    arrays = [values(rng, shape, "any"), values(rng, shape[-1:], "nonzero"), values(rng, shape[-1:], "any")]
    check_grads(NORM_OPS[name], arrays, seed)
