"""``put`` / ``put_``, ``scatter_reduce`` / ``scatter_reduce_`` and ``index_reduce`` / ``index_reduce_`` (session 11,
helper h1): values, gradients (gradcheck and gradgradcheck in float64; the tie rule of amax/amin and prod with zeros
against torch 2.13's numbers, recorded below), node names, saved values, in-place use and errors.  More cases, run
against torch, are in ``tests/parity/cases_index_reduce.py``; with torch importable, some cases here run live too."""
import warnings

import numpy as np
import pytest

import minigrad
from minigrad.autograd import gradcheck, gradgradcheck

REDUCES = ("sum", "prod", "mean", "amax", "amin")
SR_INDEX = [[0, 1, 0, 2], [1, 1, 0, 0], [2, 0, 1, 1]]


@pytest.fixture(autouse=True)
def _no_beta_warning():
    """index_reduce warns once that it is in beta (see test_index_reduce_warns_it_is_in_beta)."""
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", "index_reduce\\(\\) is in beta")
        yield


def _leaf(seed, *shape, lo=-2.0, hi=2.0):
    """float64 values without ties (amax/amin have a kink at a tie), requiring grad."""
    values = np.random.RandomState(seed).uniform(lo, hi, size=shape)
    return minigrad.tensor(values, dtype=minigrad.float64, requires_grad=True)


def _long(values):
    return minigrad.tensor(values, dtype=minigrad.int64)


# ---------------------------------------------------------------------------------- gradients
@pytest.mark.parametrize("accumulate", [False, True])
def test_put_gradcheck(accumulate):
    x, s = _leaf(1, 3, 4), _leaf(2, 5)
    f = lambda x, s: x.put(_long([-1, 0, 5, 7, 2]), s, accumulate)  # noqa: E731
    assert gradcheck(f, (x, s))
    assert gradgradcheck(f, (x, s))


@pytest.mark.parametrize("include_self", [True, False])
@pytest.mark.parametrize("reduce", REDUCES)
def test_scatter_reduce_gradcheck(reduce, include_self):
    x, src = _leaf(3, 3, 4, lo=0.5), _leaf(4, 3, 4, lo=0.5)
    f = lambda x, s: x.scatter_reduce(0, _long(SR_INDEX), s, reduce, include_self=include_self)  # noqa: E731
    assert gradcheck(f, (x, src))
    assert gradgradcheck(f, (x, src))


@pytest.mark.parametrize("include_self", [True, False])
@pytest.mark.parametrize("reduce", REDUCES[1:])
def test_index_reduce_gradcheck(reduce, include_self):
    x, src = _leaf(5, 4, 3, lo=0.5), _leaf(6, 4, 5, lo=0.5)
    f = lambda x, s: x.index_reduce(1, _long([2, 0, 2, 1, 2]), s, reduce, include_self=include_self)  # noqa: E731
    assert gradcheck(f, (x, src))
    assert gradgradcheck(f, (x, src))


# ---------------------------------------------------------------------------------- ties and zeros, torch 2.13
# (reduce, include_self, value, x.grad, src.grad) of x.scatter_reduce(1, index, src, reduce) with the gradient
# [[1, 2, 3], [4, 5, 6]]: a tie shares the gradient evenly among x's and src's values equal to the result; prod
# gives a single zero the product of the others, and the others 0
SCATTER_TIES = [
    ("prod", True, [[1.0, 125.0, 0.0], [9.0, 0.0, 16.0]],
     [[1.0, 50.0, 0.0], [12.0, 0.0, 24.0]],
     [[50.0, 50.0, 1.0, 6.0], [12.0, 0.0, 0.0, 24.0]]),
    ("prod", False, [[1.0, 25.0, 0.0], [3.0, 0.0, 4.0]],
     [[0.0, 0.0, 0.0], [0.0, 0.0, 0.0]],
     [[10.0, 10.0, 1.0, 3.0], [4.0, 0.0, 0.0, 6.0]]),
    ("amax", True, [[1.0, 5.0, 2.0], [3.0, 0.0, 4.0]],
     [[0.5, 2 / 3, 3.0], [2.0, 5 / 3, 3.0]],
     [[2 / 3, 2 / 3, 0.5, 0.0], [2.0, 5 / 3, 5 / 3, 3.0]]),
    ("amax", False, [[1.0, 5.0, 0.0], [3.0, 0.0, 4.0]],
     [[0.0, 0.0, 0.0], [0.0, 0.0, 0.0]],
     [[2 / 3, 2 / 3, 0.5, 3.0], [2.0, 5 / 3, 5 / 3, 3.0]]),
    ("amin", True, [[1.0, 5.0, 0.0], [3.0, 0.0, 4.0]],
     [[0.5, 2 / 3, 0.0], [2.0, 5 / 3, 3.0]],
     [[2 / 3, 2 / 3, 0.5, 3.0], [2.0, 5 / 3, 5 / 3, 3.0]]),
    ("amin", False, [[1.0, 5.0, 0.0], [3.0, 0.0, 4.0]],
     [[0.0, 0.0, 0.0], [0.0, 0.0, 0.0]],
     [[2 / 3, 2 / 3, 0.5, 3.0], [2.0, 5 / 3, 5 / 3, 3.0]]),
]


def _ties_scatter():
    x = minigrad.tensor([[1.0, 5.0, 2.0], [3.0, 0.0, 4.0]], dtype=minigrad.float64, requires_grad=True)
    src = minigrad.tensor([[5.0, 5.0, 1.0, 0.0], [3.0, 0.0, 0.0, 4.0]], dtype=minigrad.float64, requires_grad=True)
    return x, src, _long([[1, 1, 0, 2], [0, 1, 1, 2]])


@pytest.mark.parametrize("reduce, include_self, value, x_grad, src_grad", SCATTER_TIES,
                         ids=[f"{c[0]}-{c[1]}" for c in SCATTER_TIES])
def test_scatter_reduce_ties_and_zeros(reduce, include_self, value, x_grad, src_grad):
    x, src, index = _ties_scatter()
    y = x.scatter_reduce(1, index, src, reduce, include_self=include_self)
    y.backward(minigrad.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], dtype=minigrad.float64))
    assert y.tolist() == value
    np.testing.assert_allclose(x.grad.numpy(), x_grad, rtol=1e-15)
    np.testing.assert_allclose(src.grad.numpy(), src_grad, rtol=1e-15)


# the same for x.index_reduce(0, [0, 0, 1, 2], src, reduce) with the gradient [[1, 2], [3, 4], [5, 6]]
INDEX_TIES = [
    ("prod", True, [[1.0, 0.0], [0.0, 0.0], [4.0, 0.0]],
     [[1.0, 0.0], [0.0, 8.0], [10.0, 0.0]],
     [[1.0, 0.0], [1.0, 50.0], [9.0, 0.0], [10.0, 12.0]]),
    ("prod", False, [[1.0, 0.0], [0.0, 2.0], [2.0, 0.0]],
     [[0.0, 0.0], [0.0, 0.0], [0.0, 0.0]],
     [[1.0, 0.0], [1.0, 10.0], [3.0, 4.0], [5.0, 6.0]]),
    ("amax", True, [[1.0, 5.0], [3.0, 2.0], [2.0, 2.0]],
     [[1 / 3, 1.0], [3.0, 0.0], [2.5, 6.0]],
     [[1 / 3, 1.0], [1 / 3, 0.0], [0.0, 4.0], [2.5, 0.0]]),
    ("amax", False, [[1.0, 5.0], [0.0, 2.0], [2.0, 0.0]],
     [[0.0, 0.0], [0.0, 0.0], [0.0, 0.0]],
     [[1 / 3, 1.0], [1 / 3, 0.0], [3.0, 4.0], [2.5, 6.0]]),
    ("amin", True, [[1.0, 0.0], [0.0, 0.0], [2.0, 0.0]],
     [[1 / 3, 0.0], [0.0, 4.0], [2.5, 0.0]],
     [[1 / 3, 0.0], [1 / 3, 2.0], [3.0, 0.0], [2.5, 6.0]]),
    ("amin", False, [[1.0, 0.0], [0.0, 2.0], [2.0, 0.0]],
     [[0.0, 0.0], [0.0, 0.0], [0.0, 0.0]],
     [[1 / 3, 0.0], [1 / 3, 2.0], [3.0, 4.0], [2.5, 6.0]]),
    ("mean", True, [[1.0, 10 / 3], [1.5, 1.0], [2.0, 1.0]],
     [[1 / 3, 2 / 3], [1.5, 2.0], [2.5, 3.0]],
     [[1 / 3, 2 / 3], [1 / 3, 2 / 3], [1.5, 2.0], [2.5, 3.0]]),
    ("mean", False, [[1.0, 2.5], [0.0, 2.0], [2.0, 0.0]],
     [[0.0, 0.0], [0.0, 0.0], [0.0, 0.0]],
     [[0.5, 1.0], [0.5, 1.0], [3.0, 4.0], [5.0, 6.0]]),
]


@pytest.mark.parametrize("reduce, include_self, value, x_grad, src_grad", INDEX_TIES,
                         ids=[f"{c[0]}-{c[1]}" for c in INDEX_TIES])
def test_index_reduce_ties_and_zeros(reduce, include_self, value, x_grad, src_grad):
    x = minigrad.tensor([[1.0, 5.0], [3.0, 0.0], [2.0, 2.0]], dtype=minigrad.float64, requires_grad=True)
    src = minigrad.tensor([[1.0, 5.0], [1.0, 0.0], [0.0, 2.0], [2.0, 0.0]], dtype=minigrad.float64,
                          requires_grad=True)
    y = x.index_reduce(0, _long([0, 0, 1, 2]), src, reduce, include_self=include_self)
    y.backward(minigrad.tensor([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]], dtype=minigrad.float64))
    np.testing.assert_allclose(y.detach().numpy(), value, rtol=1e-15)
    np.testing.assert_allclose(x.grad.numpy(), x_grad, rtol=1e-15)
    np.testing.assert_allclose(src.grad.numpy(), src_grad, rtol=1e-15)


def test_integer_mean_rounds_down_and_empty_places_keep_their_value():
    ints, index, src = _long([-5, 7, 9]), _long([0, 0, 2]), _long([-2, 3, 4])
    assert ints.scatter_reduce(0, index, src, "mean").tolist() == [-2, 7, 6]  # (-5 - 2 + 3) / 3 = -1.33 -> -2
    assert ints.scatter_reduce(0, index, src, "mean", include_self=False).tolist() == [0, 7, 4]
    assert ints.index_reduce(0, index, src, "mean").tolist() == [-2, 7, 6]
    assert ints.scatter_reduce(0, index, src, "amax", include_self=False).tolist() == [3, 7, 4]
    assert ints.index_reduce(0, index, src, "amin", include_self=False).tolist() == [-2, 7, 4]


# ---------------------------------------------------------------------------------- nodes, saved values, in place
def test_put_node_and_saved_values():
    x, s = _leaf(7, 2, 3), _leaf(8, 2, 2)
    index = _long([[1, 1], [-6, 4]])
    y = x.put(index, s, accumulate=True)
    node = y.grad_fn
    assert node.name() == "PutBackward0"
    assert node._saved_accumulate is True and node._saved_index is index and node._saved_source is s
    assert [type(e[0]).__name__ for e in node.next_functions] == ["AccumulateGrad", "AccumulateGrad"]
    assert x.put(_long([0]), minigrad.ones(1, dtype=minigrad.float64)).grad_fn._saved_source is None
    assert y.tolist()[0][1] == pytest.approx(x.tolist()[0][1] + s.tolist()[0][0] + s.tolist()[0][1])


def test_scatter_and_index_reduce_nodes_and_saved_values():
    x, src = _leaf(9, 2, 3), _leaf(10, 2, 3)
    index = _long([[0, 0, 2], [1, 2, 2]])
    y = x.scatter_reduce(-1, index, src, "amax", include_self=False)
    node = y.grad_fn
    assert node.name() == "ScatterReduceBackward0"
    assert (node._saved_dim, node._saved_include_self, node._saved_reduce) == (2 ** 64 - 1, False, "amax")  # (-1)
    assert node._saved_index is index and node._saved_self is x and node._saved_src is src
    assert node._saved_result.tolist() == y.tolist()
    z = x.index_reduce(1, _long([2, 2, 0]), src, "prod")
    node = z.grad_fn
    assert node.name() == "IndexReduceBackward0"
    assert (node._saved_dim, node._saved_include_self, node._saved_reduce) == (1, True, "prod")
    assert node._saved_self is x and node._saved_source is src and node._saved_result.tolist() == z.tolist()


def test_in_place_forms():
    x, src = _leaf(11, 2, 3), _leaf(12, 2, 3)
    index = _long([[0, 0, 2], [1, 2, 2]])
    for method, args, name in [("put_", (_long([0, 5]), src[0, :2]), "PutBackward0"),
                               ("scatter_reduce_", (1, index, src, "mean"), "ScatterReduceBackward0"),
                               ("index_reduce_", (1, _long([1, 1, 0]), src, "amin"), "IndexReduceBackward0")]:
        y = x * 1
        expected = getattr(y, method.rstrip("_"))(*args)
        assert getattr(y, method)(*args) is y
        assert y.grad_fn.name() == name and y._version == 1 and y.tolist() == expected.tolist()
        y.sum().backward()
    with pytest.raises(RuntimeError, match="a leaf Variable that requires grad is being used in an in-place"):
        x.put_(_long([0]), src[0, :1])


def test_top_level_functions():
    x = minigrad.tensor([1.0, 2.0, 3.0])
    assert minigrad.put(x, _long([2, 2]), minigrad.tensor([1.0, 1.0]), True).tolist() == [1.0, 2.0, 5.0]
    assert minigrad.scatter_reduce(x, 0, _long([0, 0]), minigrad.tensor([5.0, 4.0]), "amin").tolist() == [1, 2, 3]
    assert minigrad.index_reduce(x, 0, _long([1]), minigrad.tensor([4.0]), "prod").tolist() == [1.0, 8.0, 3.0]


def test_index_reduce_warns_it_is_in_beta():
    from minigrad._core import tensor_base
    tensor_base._warned.discard("index_reduce() is in beta and the API may change at any time.")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        minigrad.ones(2).index_reduce(0, _long([0]), minigrad.ones(1), "prod")
        minigrad.ones(2).index_reduce(0, _long([0]), minigrad.ones(1), "prod")
    assert [str(w.message) for w in caught] == ["index_reduce() is in beta and the API may change at any time."]


# ---------------------------------------------------------------------------------- errors (torch 2.13's words)
def _x():
    return minigrad.zeros(2, 3)


ERRORS = [
    (lambda: _x().put([0, 1], minigrad.ones(2)), TypeError, "put(): argument 'index' (position 1) must be Tensor, "
     "not list"),
    (lambda: _x().put(_long([0]).int(), minigrad.ones(1)), RuntimeError,
     "put_(): Expected a long tensor for index, but got Int"),
    (lambda: _x().put(_long([0]), minigrad.ones(1, dtype=minigrad.float64)), RuntimeError,
     "put_(): self and source expected to have the same dtype, but got self.dtype = Float and source.dtype = Double"),
    (lambda: _x().put(_long([0, 1, 2]), minigrad.ones(2)), IndexError, "put_(): Expected source and index to have "
     "the same number of elements, but got source.numel() = 2, index.numel() = 3"),
    (lambda: _x().put(_long([6]), minigrad.ones(1)), IndexError,
     "out of range: tried to access index 6 on a tensor of 6 elements."),
    (lambda: minigrad.zeros(0).put(_long([0]), minigrad.ones(1)), IndexError,
     "put_(): Tried to put elements into an empty tensor"),
    (lambda: _x().scatter_reduce(1, _long([[0]]), minigrad.ones(1, 1), "max_"), RuntimeError,
     "reduce argument must be either sum, prod, mean, amax or amin, got max_"),
    (lambda: _x().scatter_reduce(1, _long([[0]]), minigrad.ones(1, 1, dtype=minigrad.float64), "sum"), RuntimeError,
     "scatter(): Expected self.dtype to be equal to src.dtype"),
    (lambda: _x().scatter_reduce(1, _long([[3]]), minigrad.ones(1, 1), "sum"), RuntimeError,
     "index 3 is out of bounds for dimension 1 with size 3"),
    (lambda: _x().scatter_reduce(1, _long([[0, 1, 2]]), minigrad.ones(2, 2), "sum"), RuntimeError,
     "Expected index [1, 3] to be no larger than self [2, 3] apart from dimension 1 and to be no larger size than "
     "src [2, 2]"),
    (lambda: _x().scatter_reduce(1, [[0]], minigrad.ones(1, 1), "sum"), TypeError,
     "scatter_reduce(): argument 'index' (position 2) must be Tensor, not list"),
    (lambda: minigrad.ones(3, requires_grad=True).scatter_reduce(0, _long([0]), minigrad.ones(1), "max").sum()
     .backward(), RuntimeError, "Expected 'reduce' to be one of 'sum', 'prod', 'mean', 'amax', 'amin' but got max."),
    (lambda: _x().index_reduce(0, _long([0]), minigrad.ones(1, 3), "sum"), RuntimeError,
     "index_reduce(): Expected reduce to be one of prod, mean, amax or amin but got sum."),
    (lambda: _x().index_reduce(0, minigrad.tensor([0.0]), minigrad.ones(1, 3), "prod"), RuntimeError,
     "index_reduce_(): Expected dtype int32/int64 for index but got: Float"),
    (lambda: _x().index_reduce(0, _long([0]), minigrad.ones(1, 3, dtype=minigrad.float64), "prod"), RuntimeError,
     "index_reduce_(): self (Float) and source (Double) must have the same scalar type"),
    (lambda: _x().index_reduce(0, _long([0, 1]), minigrad.ones(1, 3), "prod"), RuntimeError,
     "index_reduce_(): Number of indices (2) should be equal to source.size(dim): (1), for dim: 0"),
    (lambda: _x().index_reduce(0, _long([[0]]), minigrad.ones(1, 3), "prod"), IndexError,
     "index_reduce_(): Index is supposed to be a vector, but got dim: 2 with type: Long and size: [1, 1]"),
    (lambda: _x().index_reduce(0, _long([2]), minigrad.ones(1, 3), "prod"), IndexError, "index out of range in self"),
    (lambda: _x().index_reduce(0, _long([0]), minigrad.ones(1, 2), "prod"), RuntimeError,
     "source tensor shape must match self tensor shape, excluding the specified dimension. Got self.shape = [2, 3] "
     "source.shape = [1, 2]"),
]


@pytest.mark.parametrize("fn, kind, message", ERRORS, ids=range(len(ERRORS)))
def test_errors(fn, kind, message):
    with pytest.raises(kind) as e:
        fn()
    assert str(e.value) == message


# ---------------------------------------------------------------------------------- live against torch
@pytest.mark.parametrize("include_self", [True, False])
@pytest.mark.parametrize("reduce", REDUCES)
def test_live_random_against_torch(reduce, include_self):
    torch = pytest.importorskip("torch")
    r = np.random.RandomState(REDUCES.index(reduce) + 10 * include_self)
    x, src = r.randint(-3, 4, size=(4, 5)).astype(float), r.randint(-3, 4, size=(4, 5)).astype(float)  # (ties, zeros)
    index, g = r.randint(0, 5, size=(4, 5)), r.uniform(-1, 1, size=(4, 5))
    results = []
    for T in (minigrad, torch):
        xt, st = (T.tensor(v, dtype=T.float64, requires_grad=True) for v in (x, src))
        ys = [xt.scatter_reduce(1, T.tensor(index), st, reduce, include_self=include_self)]
        if reduce != "sum":
            ys.append(xt.index_reduce(0, T.tensor(index[:, 0] % 4), st, reduce, include_self=include_self))
        ys.append(xt.put(T.tensor(index[0]), st[0], accumulate=include_self))
        out = []
        for y in ys:
            gx, gs = T.autograd.grad(y, (xt, st), T.tensor(g, dtype=T.float64))
            out.append([y.detach().numpy(), gx.numpy(), gs.numpy()])
        results.append(out)
    for got, want in zip(*results):
        for a, b in zip(got, want):
            np.testing.assert_allclose(a, b, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("op, src_name", [("scatter_reduce", "src"), ("index_reduce", "source")])
def test_prod_second_derivative_with_two_zeros_at_a_place_raises(op, src_name):
    """torch 2.13: src's gradient is a DelayedError there (its first derivative is still given, and x's second)."""
    x = minigrad.tensor([1.0, 2.0], dtype=minigrad.float64, requires_grad=True)
    s = minigrad.tensor([0.0, 0.0, 3.0], dtype=minigrad.float64, requires_grad=True)
    y = getattr(x, op)(0, _long([0, 0, 1]), s, "prod")
    gx, gs = minigrad.autograd.grad(y.sum(), (x, s), create_graph=True)
    assert gx.tolist() == [0.0, 3.0] and gs.tolist() == [0.0, 0.0, 2.0]
    assert gs.grad_fn.name() == "minigrad::autograd::Error"
    assert [type(n[0]).__name__ for n in gs.grad_fn.next_functions] == ["WhereBackward0"]
    with pytest.raises(RuntimeError) as e:
        gs.sum().backward()
    assert str(e.value) == (f"{op}(): Double backward is unsupported for {src_name} when >1 zeros in {src_name} are "
                            f"scattered to the same position in self")
    x.grad = s.grad = None
    gx.sum().backward()
    assert x.grad.tolist() == [0.0, 0.0] and s.grad.tolist() == [0.0, 0.0, 1.0]
    assert minigrad.autograd.grad(getattr(x, op)(0, _long([0, 0, 1]), s, "prod").sum(), s)[0].requires_grad is False
