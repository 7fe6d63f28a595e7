"""Small faithful gaps closed in the thirteenth session; the expected values were read from torch 2.13."""
import numpy as np
import pytest

import minigrad


@pytest.mark.parametrize("make, strides", [
    (lambda: minigrad.zeros(4, 6)[:, :0], (6, 1)),       # a view without elements keeps its strides
    (lambda: minigrad.zeros(4, 6)[:, :0].t(), (1, 6)),
    (lambda: minigrad.zeros(3, 0).t(), (1, 1)),
    (lambda: minigrad.zeros(0, 3).t(), (1, 3)),
    (lambda: minigrad.zeros(2, 5, 3)[:, :0].permute(2, 0, 1), (1, 15, 3)),
])
def test_preserve_format_keeps_the_strides_of_a_tensor_without_elements(make, strides):
    # PyTorch counts a tensor without elements contiguous, so preserve_format keeps its strides whatever they are
    x = make()
    for copy in (x.clone(), x.to(minigrad.float64), x.double(), x.contiguous(), x.detach().clone(),
                 minigrad.zeros_like(x), minigrad.empty_like(x), minigrad.ones_like(x)):
        assert copy.stride() == strides
    assert x.clone(memory_format=minigrad.contiguous_format).stride() == x.new_zeros(x.shape).stride()
    assert x.exp().stride() == minigrad.empty(x.shape).stride()  # (an op's result: row-major)


def test_data_ptr_of_a_tensor_without_elements_is_0_and_its_storage_offset_is_still_known():
    assert minigrad.empty(0).data_ptr() == 0
    assert minigrad.zeros(2, 0).data_ptr() == 0
    v = minigrad.zeros(4, 6)[1:, :0]
    assert v.data_ptr() == 0 and v.storage_offset() == 6
    x = minigrad.ones(3)
    assert x[1:].data_ptr() - x.data_ptr() == x.element_size()
    assert x[1:].storage_offset() == 1


def test_is_view():
    b = minigrad.ones(4, 3)
    v = b[1:]
    assert v._is_view() and v._base is b
    assert not b._is_view()
    assert not v.detach()._is_view() and v.detach()._base is None
    assert v.view(-1)._base is b
    assert not np.shares_memory(v.clone().numpy(), b.numpy())


F = minigrad.nn.functional


@pytest.mark.parametrize("call, message", [
    # max_pool2d's checks in PyTorch's order: the input's dims, pooling_output_shape, then pool2d_shape_check
    (lambda: F.max_pool2d(minigrad.ones(1, 3, 3), 2, stride=-1), "stride should be greater than zero, but got dH: -1 dW: -1"),
    (lambda: F.max_pool2d(minigrad.ones(1, 0, 3), 3, 1, 2),
     "pad should be at most half of effective kernel size, but got pad=2, kernel_size=3 and dilation=1"),
    (lambda: F.max_pool2d(minigrad.ones(1, 0, 3), 0, 1, 0), "kernel size should be greater than zero, but got kH: 0 kW: 0"),
    (lambda: F.max_pool2d(minigrad.ones(1, 0, 3), 3, 1, 1),
     "Expected 3D or 4D (batch mode) tensor with optional 0 dim batch size for input, but got:[1, 0, 3]"),
    (lambda: F.avg_pool2d(minigrad.ones(1, 0, 3), 3, 1, 2),
     "pad should be at most half of effective kernel size, but got pad=2, kernel_size=3 and dilation=1"),
    (lambda: F.max_pool1d(minigrad.ones(1, 1, 0), 3, 2, 2, 1, True, return_indices=True),
     "pad should be at most half of effective kernel size, but got pad=2, kernel_size=3 and dilation=1"),
    (lambda: F.max_pool2d(minigrad.ones(0, 3), 3, 1, 2), "non-empty 3D or 4D (batch mode) tensor expected for input"),
])
def test_pool_checks_run_in_pytorchs_order(call, message):
    with pytest.raises(RuntimeError) as e:
        call()
    assert str(e.value) == message


def test_the_node_a_view_gets_after_an_in_place_change_shows_its_geometry():
    a = minigrad.ones(3, 4, requires_grad=True)
    v = a.clone()[1:, ::2]
    v.mul_(2)
    node = v.grad_fn
    assert node.name() == "AsStridedBackward0"
    assert sorted(n for n in dir(node) if n.startswith("_saved")) == ["_saved_size", "_saved_storage_offset",
                                                                        "_saved_stride"]
    assert (node._saved_size, node._saved_stride, node._saved_storage_offset) == ((2, 2), (4, 2), 4)


@pytest.mark.parametrize("make, strides", [
    (lambda: minigrad.zeros(0), (1,)),
    (lambda: minigrad.zeros(4, 6)[:, :0], (6, 1)),
    (lambda: minigrad.zeros(3, 0).t(), (1, 1)),
    (lambda: minigrad.arange(12.).reshape(3, 4).t(), (1, 4)),
    (lambda: minigrad.arange(12.).reshape(3, 4)[:, ::2], (4, 2)),
    (lambda: minigrad.arange(3.).expand(2, 3), (0, 1)),
    (lambda: minigrad.arange(24.).reshape(2, 3, 4).permute(2, 0, 1), (1, 12, 4)),
    (lambda: minigrad.nn.Parameter(minigrad.arange(6.).reshape(2, 3).t()), (1, 3)),
])
def test_save_and_load_keep_values_and_strides_also_without_elements(make, strides):
    import io
    t = make()
    buf = io.BytesIO()
    minigrad.save(t, buf)
    loaded = minigrad.load(io.BytesIO(buf.getvalue()))  # (weights_only: an empty array's b"" is allowed)
    assert type(loaded) is type(t) and loaded.shape == t.shape and loaded.stride() == strides
    assert loaded.tolist() == t.tolist() and loaded.requires_grad == t.requires_grad


def test_count_nonzero_gives_a_row_major_tensor_whatever_the_layout():
    expanded = minigrad.tensor([-1.62, 1.14, 0.0]).broadcast_to((2, 3)).expand(2, 2, 3)
    assert expanded.count_nonzero(1).stride() == (3, 1)
    assert expanded.count_nonzero(1).tolist() == [[2, 2, 0], [2, 2, 0]]
    assert minigrad.ones(2, 3, 4).permute(2, 0, 1).count_nonzero(1).stride() == (3, 1)


@pytest.mark.parametrize("module, name, reason", [
    ("minigrad", "det", "the matrix functions beyond products"),
    ("minigrad", "baddbmm", "the matrix functions beyond products"),
    ("minigrad", "complex64", "complex numbers and bfloat16"),
    ("minigrad", "bfloat16", "complex numbers and bfloat16"),
    ("minigrad", "vmap", "the function transforms"),
    ("minigrad.distributions", "Bernoulli", "minigrad has Categorical and Normal"),
    ("minigrad.nn", "Bilinear", "leaves out some linear layers"),
    ("minigrad.nn", "CTCLoss", "leaves out some loss layers"),
    ("minigrad.nn", "ReflectionPad1d", "leaves out some image layers"),
    ("minigrad.nn.functional", "alpha_dropout", "leaves out some dropout layers"),
    ("minigrad.nn.functional", "pdist", "leaves out some distance layers"),
])
def test_what_minigrad_leaves_out_says_so(module, name, reason):
    import importlib
    with pytest.raises(AttributeError) as e:
        getattr(importlib.import_module(module), name)
    assert reason in str(e.value)
    assert str(e.value).endswith("PyTorch has " + ".".join(["torch"] + module.split(".")[1:] + [name]))


@pytest.mark.parametrize("op", ["maximum", "minimum", "copysign"])
def test_a_formula_that_fills_in_place_keeps_the_layout_of_what_it_fills(op):
    # PyTorch's formulas: where(...).masked_fill_(...) and ratio.masked_fill_(...), in place: the gradient of a
    # transposed input comes back row-major for the input (strides (2, 1) here), as torch 2.13 gives it
    a = minigrad.tensor([[1., 2.], [3., 4.], [5., 6.]], requires_grad=True)
    b = minigrad.tensor([[1., 0.], [9., 4.], [0., 7.]])
    y = getattr(minigrad, op)(a.t(), b.t())
    g, = minigrad.autograd.grad(y.sum(), a)
    assert g.stride() == (2, 1)
    expected = {"maximum": [[0.5, 1.0], [0.0, 0.5], [1.0, 0.0]], "minimum": [[0.5, 0.0], [1.0, 0.5], [0.0, 1.0]],
                "copysign": [[1.0, 1.0], [1.0, 1.0], [1.0, 1.0]]}[op]
    assert g.tolist() == expected


@pytest.mark.parametrize("query, node", [
    (lambda: minigrad.ones(1, 1, 4, 1), "ScaledDotProductFlashAttentionForCpuBackward0"),
    (lambda: minigrad.ones(1, 1, 1, 4).transpose(-1, -2), "UnsafeViewBackward0"),  # head size 1, stride 4: math
    (lambda: minigrad.ones(1, 1, 2, 3)[..., :1], "ScaledDotProductFlashAttentionForCpuBackward0"),
])
def test_the_cpu_flash_kernel_wants_a_last_stride_of_1_even_for_a_head_size_of_1(query, node):
    k = minigrad.tensor([-1.87, -1.33]).reshape(1, 1, 2, 1)
    out = F.scaled_dot_product_attention(query().requires_grad_(), k, k)
    assert out.grad_fn.name() == node


@pytest.mark.parametrize("op", [lambda y: F.threshold_(y, 0.5, -1.0), lambda y: y.clamp_(0), lambda y: y.abs_(),
                                lambda y: F.hardswish(y, inplace=True), lambda y: F.silu(y, inplace=True),
                                lambda y: y.pow_(2), lambda y: y.clamp_min_(0), lambda y: y.relu_()])
def test_an_in_place_op_that_needs_the_old_values_keeps_them_laid_out_as_they_were(op):
    # PyTorch saves a clone of the old values (preserve_format): the gradient follows their layout, (1, 3) here
    x = minigrad.tensor([[1.47, -1.74, -0.05], [1.42, -0.1, -0.91]]).t().clone().requires_grad_()
    y = x * 1.0
    g, = minigrad.autograd.grad(op(y).sum(), x)
    assert g.stride() == (1, 3)


def test_cumprods_gradient_with_a_zero_is_row_major():
    # PyTorch's cumprod_backward fills a new row-major tensor of zeros when the input holds a zero
    x = minigrad.tensor([[0.0, 1.05], [1.42, 0.32]], dtype=minigrad.float64, requires_grad=True)
    g, = minigrad.autograd.grad(x.cumprod(0).sum(), x)
    assert g.stride() == (2, 1)
    assert np.allclose(g.tolist(), [[2.42, 1.32], [0.0, 1.05]])


TRUNC_NORMAL_AND_CONCAT = """\
import warnings
T.manual_seed(0); print([round(v, 6) for v in T.nn.init.trunc_normal_(T.empty(8)).tolist()])
T.manual_seed(1); print([round(v, 6) for v in T.nn.init.trunc_normal_(T.empty(2, 3), mean=0.5, std=0.02).tolist()[0]])
T.manual_seed(2); print([round(v, 6) for v in T.nn.init.trunc_normal_(T.empty(5, dtype=T.float64), 1.0, 2.0, -1.0, 0.5).tolist()])
with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter("always"); T.nn.init.trunc_normal_(T.empty(2), mean=10.0); print([str(x.message) for x in w])
p = T.nn.Parameter(T.empty(3)); T.nn.init.trunc_normal_(p, std=0.02); print(p.requires_grad, p.grad_fn)
D = T.utils.data
a = D.TensorDataset(T.arange(3)); b = D.TensorDataset(T.arange(10, 14))
c = D.ConcatDataset([a, b]); print(len(c), c.cumulative_sizes, [c[i][0].item() for i in range(len(c))], c[-1][0].item(), c[-7][0].item())
try: c[-8]
except Exception as e: print(type(e).__name__, e)
try: c[7]
except Exception as e: print(type(e).__name__, e)
try: D.ConcatDataset([])
except Exception as e: print(type(e).__name__, e)
print(len(a + b), type(a + b).__name__)
T.manual_seed(0); print([x[0].tolist() for x in D.DataLoader(c, batch_size=3, shuffle=True)])
"""


def test_trunc_normal_draws_pytorchs_numbers_and_concat_dataset_indexes_as_pytorchs():
    # the expected lines were printed by the program above under torch 2.13 (trunc_normal_: its rejection sampling,
    # normals for a wide [a, b], accepted uniforms for a narrow one)
    from recorded_programs import printed_by
    assert printed_by(minigrad, TRUNC_NORMAL_AND_CONCAT) == [
        '[1.540996, -0.293429, -0.596635, 0.568431, -1.084522, -1.398595, 0.403347, 0.838026]',
        '[0.513227, 0.505338, 0.501234]',
        '[0.376341, -0.854627, 0.063127, -0.189608, 0.369887]',
        "['mean is more than 2 std from [a, b] in nn.init.trunc_normal_. The distribution of values may be incorrect.']",
        'True None',
        '7 [3, 7] [0, 1, 2, 10, 11, 12, 13] 13 0',
        'ValueError absolute value of index should not exceed dataset length',
        'IndexError list index out of range',
        'AssertionError datasets should not be an empty iterable',
        '7 ConcatDataset',
        '[[0, 11, 1], [12, 2, 13], [10]]',
    ]


@pytest.mark.parametrize("shape, gain, first_row", [  # (the first row of PyTorch's matrix after manual_seed(0))
    ((3, 5), 1, [0.52223, -0.09944, -0.73837, 0.19264, -0.36754]),
    ((5, 3), 2.0, [1.59004, 0.34062, -0.55709]),
    ((4, 2, 3), 1, [-0.55973, -0.57292, -0.12458, -0.21571, 0.42195, 0.34405]),
])
def test_orthogonal_init_gives_pytorchs_matrix(shape, gain, first_row):
    minigrad.manual_seed(0)
    w = minigrad.nn.init.orthogonal_(minigrad.empty(*shape), gain=gain).reshape(shape[0], -1)
    assert np.allclose(w[0].tolist(), first_row, atol=1e-4)
    rows, cols = w.shape
    small = w @ w.t() if rows <= cols else w.t() @ w
    assert np.allclose(small.numpy(), gain ** 2 * np.eye(min(rows, cols)), atol=1e-5)


def test_pows_exponent_gradient_is_laid_out_as_pytorchs():
    # where(self == 0 & exponent >= 0, zeros({}), result * log(self)): the condition is made of tensors, so the
    # gradient of a transposed base's exponent follows the base (strides (1, 2) here), as torch 2.13 gives it
    a = minigrad.tensor([[0.6, -1.48], [-1.16, 0.05], [1.51, -0.26]]).swapaxes(1, 0).requires_grad_()
    b = minigrad.tensor([[1.89, -0.79, 2.0], [-0.2, -0.84, -1.43]], requires_grad=True)
    ga, gb = minigrad.autograd.grad((a ** b).sum(), [a, b])
    assert (ga.stride(), gb.stride()) == ((3, 1), (1, 2))
