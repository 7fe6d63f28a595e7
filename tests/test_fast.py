"""minigrad/ops/_fast.py: every speed-up computes exactly what its plain numpy line computes, bit for bit."""
import pathlib
import re

import numpy as np
import pytest

import minigrad
from minigrad.ops import _fast
from minigrad.ops.elementwise import Relu, ThresholdBackward
from minigrad.ops.linalg import Addmm

SPECIAL = [0.0, -0.0, 1.5, -2.25, np.inf, -np.inf, np.nan, 1e-40, -1e-40, 3.4e38]
FLOATS = [np.float16, np.float32, np.float64]


def same_bits(a, b):
    """Equal as stored: the same dtype, shape and bytes (so -0.0 != 0.0 and nan == nan of the same payload)."""
    a, b = np.asarray(a), np.asarray(b)
    return a.dtype == b.dtype and a.shape == b.shape and np.ascontiguousarray(a).tobytes() == np.ascontiguousarray(b).tobytes()


def special_array(dtype, shape=(7, 13), seed=0):
    rng = np.random.default_rng(seed)
    with np.errstate(over="ignore"):
        values = np.concatenate([np.array(SPECIAL, dtype), rng.standard_normal(int(np.prod(shape))).astype(dtype)])
    return rng.permutation(values)[:int(np.prod(shape))].reshape(shape)


@pytest.mark.parametrize("dtype", FLOATS)
def test_keep_or_zero_is_np_where_keep_g_0(dtype):
    g = special_array(dtype)
    for seed in range(3):
        keep = np.random.default_rng(seed).random(g.shape) < 0.5
        assert same_bits(_fast.keep_or_zero(keep, g), np.where(keep, g, dtype(0)))
    assert same_bits(_fast.keep_or_zero(np.ones(g.shape, bool), g), g)  # -0.0, inf and nan kept exactly
    out = _fast.keep_or_zero(np.zeros(g.shape, bool), g)
    assert same_bits(out, np.zeros(g.shape, dtype)) and not np.signbit(out).any()  # +0.0, never -0.0


def test_relu_backward_is_the_plain_formula_on_special_values():
    x = minigrad.tensor(special_array(np.float32), requires_grad=True)
    out = Relu.apply(x)
    grad = minigrad.tensor(special_array(np.float32, seed=1))
    got = ThresholdBackward.apply(grad, out, 0)._data
    assert same_bits(got, np.where(out._data <= 0, np.float32(0), grad._data))


def _integer_matrix(shape, seed, order="C", dtype=np.float32):
    values = np.random.default_rng(seed).integers(-8, 9, size=shape).astype(dtype)  # exact sums in float32
    return np.asfortranarray(values) if order == "F" else np.ascontiguousarray(values)


@pytest.mark.parametrize("order", ["C", "F"])
def test_mm_mat2_backward_is_mat1_t_mm_grad_in_mat2s_layout(order):
    mat1 = minigrad.tensor(_integer_matrix((6, 4), 0))
    mat2 = minigrad.tensor(_integer_matrix((4, 5), 1, order))
    grad = minigrad.tensor(_integer_matrix((6, 5), 2))
    fast = _fast.mm_mat2_backward(grad, mat1, _fast.column_major(mat2))
    assert same_bits(fast._data, mat1.t().mm(grad)._data)
    assert _fast.column_major(fast) == _fast.column_major(mat2) == (order == "F")


def test_linear_weight_grad_is_row_major_like_the_weight():
    x = minigrad.tensor(_integer_matrix((8, 3), 3))
    weight = minigrad.tensor(_integer_matrix((5, 3), 4), requires_grad=True)
    bias = minigrad.zeros(5, requires_grad=True)
    Addmm.apply(bias, x, weight.t()).sum().backward()
    assert weight.grad._data.flags.c_contiguous
    assert same_bits(weight.grad._data, (np.ones((8, 5), np.float32).T @ x._data))


@pytest.mark.parametrize("bias_shape", [(5,), (1, 5), (4, 5), (4, 1), ()])
@pytest.mark.parametrize("bias_dtype", [np.float32, np.float64])
def test_add_bias_is_product_plus_bias(bias_shape, bias_dtype):
    product = special_array(np.float32, (4, 5))
    bias = special_array(bias_dtype, (20,), seed=5)[:int(np.prod(bias_shape))].reshape(bias_shape)
    expected = product + bias
    assert same_bits(_fast.add_bias(product.copy(), bias), expected)


@pytest.mark.parametrize("ufunc", [np.add, np.subtract, np.multiply, np.true_divide])
@pytest.mark.parametrize("alpha", [1, -0.5, 3])
@pytest.mark.parametrize("dtypes", [(np.float32, np.float32), (np.float64, np.float64), (np.float32, np.float64),
                                    (np.float16, np.float32)])
def test_update_in_place_is_copyto_of_the_out_of_place_result(ufunc, alpha, dtypes):
    if alpha != 1 and ufunc in (np.multiply, np.true_divide):
        pytest.skip("mul_ and div_ take no alpha")
    data = special_array(dtypes[0], (4, 5))
    for other in (special_array(dtypes[1], (4, 5), seed=7), special_array(dtypes[1], (5,), seed=8)):
        plain = data.copy()
        with np.errstate(all="ignore"):
            np.copyto(plain, ufunc(plain, alpha * other), casting="unsafe")
            fast = data.copy()
            _fast.update_in_place(fast, ufunc, other, alpha)
        assert same_bits(fast, plain)


def test_optimizer_steps_give_the_plain_formula():
    p = minigrad.tensor(special_array(np.float32, (3, 4)), requires_grad=True)
    start = p._data.copy()
    p.grad = minigrad.tensor(special_array(np.float32, (3, 4), seed=9))
    minigrad.optim.SGD([p], lr=0.1).step()
    with np.errstate(all="ignore"):
        assert same_bits(p._data, start + np.float32(-0.1) * p.grad._data)
    assert p._version == 1


FORBIDDEN = re.compile(r"cycle collector|bytecode|instructions per op|twice as fast|faster trick|"
                       r"from numpy import ndarray|cpython", re.IGNORECASE)


def test_no_talk_of_the_interpreter_outside_fast_py():
    root = pathlib.Path(minigrad.__file__).parent
    offenders = [f"{p.relative_to(root)}:{i}: {line.strip()}"
                 for p in sorted(root.rglob("*.py")) if p.name != "_fast.py"
                 for i, line in enumerate(p.read_text().splitlines(), 1) if FORBIDDEN.search(line)]
    assert offenders == []
