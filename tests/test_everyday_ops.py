"""Issue 19's everyday ops: what the parity cases cannot see (names, warnings' line, identity, flags).

The values, gradients, node names and messages of these ops are compared with PyTorch in
``tests/parity/cases.py`` (``b19c_*``), the gradients by finite differences in ``tests/test_properties.py``
and random programs in ``tests/difftest/ops_table.py``.
"""
import warnings

import pytest

import minigrad as torch

# (name, a torch.* function, a Tensor method): as in PyTorch 2.13
NAMES = [(n, True, True) for n in (
    "multiply subtract divide true_divide eq ne lt le gt ge logical_not logical_and logical_or logical_xor isnan "
    "isinf isfinite nan_to_num count_nonzero tril triu diag trace topk sort argsort nonzero masked_select take roll "
    "repeat_interleave tile unique cumprod median fmod lerp addcmul addcdiv addmm cross kron").split()]
NAMES += [("meshgrid", True, False), ("broadcast_tensors", True, False), ("half", False, True)]


@pytest.mark.parametrize("name, function, method", NAMES)
def test_the_name_exists_where_pytorch_has_it(name, function, method):
    assert not function or callable(getattr(torch, name, None)), f"minigrad.{name}"
    assert not method or callable(getattr(torch.ones(2), name, None)), f"Tensor.{name}"


def test_warnings_name_the_line_that_called():
    import sys
    v = torch.ones(3)
    warned = sys.modules["minigrad._core.tensor_base"]._warned  # (these two warn once per process, as PyTorch's)
    for call in [lambda: torch.meshgrid(v, v), lambda: torch.cross(torch.ones(2, 3), torch.ones(2, 3)),
                 lambda: torch.ones(2, 3).cross(torch.ones(2, 3))]:
        warned.clear()
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            call()
        assert [w.filename for w in caught] == [__file__]
    warned.clear()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        torch.meshgrid(v, v)
    assert str(caught[0].message) == ("minigrad.meshgrid: in an upcoming release, it will be required to pass the "
                                      "indexing argument. (Triggered internally at "
                                      "/__w/pytorch/pytorch/aten/src/ATen/native/TensorShape.cpp:4215.)")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        torch.meshgrid(v, v, indexing="ij")  # no warning with indexing=
        torch.cross(torch.ones(2, 3), torch.ones(2, 3), dim=1)


def test_integer_outputs_never_require_grad():
    x = torch.tensor([[3.0, 1.0, 2.0], [0.5, 0.0, 4.0]], requires_grad=True)
    outs = [x.sort().indices, x.topk(2).indices, x.median(1).indices, x.argsort(), x.nonzero(), x.count_nonzero(),
            torch.unique(x, return_inverse=True)[1], torch.unique(x, return_counts=True)[1], x.isnan()]
    for out in outs:
        assert not out.requires_grad and out.grad_fn is None
    assert {str(o.dtype) for o in outs[:-1]} == {"minigrad.int64"}
    assert x.sort().values.grad_fn.name() == "SortBackward0"


def test_broadcast_tensors_returns_a_tensor_of_the_shape_itself():
    x, v = torch.ones(2, 3, requires_grad=True), torch.ones(3, requires_grad=True)
    a, b = torch.broadcast_tensors(x, v)
    assert a is x and b.grad_fn.name() == "ExpandBackward0" and b.shape == (2, 3)


def test_unique_records_a_node_that_refuses_backward():
    x = torch.tensor([2.0, 1.0, 2.0], requires_grad=True)
    u = torch.unique(x * 1)
    assert u.grad_fn.name() == "Unique2Backward0" and u.tolist() == [1.0, 2.0]
    with pytest.raises(NotImplementedError, match="the derivative for '_unique2' is not implemented."):
        u.sum().backward()
    with pytest.raises(NotImplementedError, match="the derivative for 'unique_dim' is not implemented."):
        torch.unique(x.reshape(3, 1) * 1, dim=0).sum().backward()


def test_in_place_forms_change_the_tensor_and_record_the_ops_node():
    x = torch.tensor([[1.0, -2.0], [3.0, 0.5]], requires_grad=True)
    y = x * 1
    assert y.addcmul_(x, x, value=0.5) is y and y.grad_fn.name() == "AddcmulBackward0"
    assert y.tril_() is y and y.grad_fn.name() == "TrilBackward0" and y._version == 2
    y.sum().backward()
    assert x.grad.tolist() == [[2.0, 0.0], [4.0, 1.5]]  # d/dx of tril(x + 0.5 x^2)
    with pytest.raises(RuntimeError, match="a leaf Variable that requires grad"):
        x.lerp_(x * 2, 0.5)


def test_what_minigrad_leaves_out_says_so():
    for name, words in [("func", "autograd.functional"), ("fft", "Fourier"), ("special", "minigrad.lgamma"),
                        ("channels_last", "contiguous_format and preserve_format")]:
        with pytest.raises(AttributeError, match=f"minigrad has no {name}: .*{words}.*PyTorch has torch.{name}"):
            getattr(torch, name)
    with pytest.raises(AttributeError, match="reverse mode only"):
        torch.autograd.forward_ad
    with pytest.raises(AttributeError, match="^module 'minigrad' has no attribute 'nothing_like_this'$"):
        torch.nothing_like_this


def test_compile_gives_back_the_model():
    model = torch.nn.Linear(2, 1)
    assert torch.compile(model) is model

    @torch.compile(mode="reduce-overhead")
    def double(x):
        return x * 2
    assert double(torch.ones(1)).item() == 2.0


_ZERO_DIM_TRANSPOSES = """
import warnings
import {T} as T
s = T.tensor(2.0)
for expr in ["s.H", "s.mH", "s.adjoint()", "s.H"]:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert eval(expr) is s
    print(expr, [str(w.message) for w in caught])
"""


@pytest.mark.parametrize("lib", ["minigrad", "torch"])
def test_conjugate_transposes_of_a_number_warn_once_per_process(lib):
    """``x.H``, ``x.mH`` and ``x.adjoint()`` of a 0-dim tensor give it back and warn, once per process (as PyTorch's
    TORCH_WARN_ONCE: the parity case cannot see it, its two runs share one process)."""
    import subprocess
    import sys
    if lib == "torch":
        pytest.importorskip("torch")
    out = subprocess.run([sys.executable, "-c", _ZERO_DIM_TRANSPOSES.format(T=lib)], capture_output=True, text=True,
                         check=True).stdout.splitlines()
    where = "(Triggered internally at /__w/pytorch/pytorch/aten/src/ATen/native/TensorShape.cpp:{}.)"
    assert out == [f"s.H ['Tensor.H is deprecated on 0-D tensors. Consider using x.conj(). {where.format(4335)}']",
                   f"s.mH ['Tensor.mH is deprecated on 0-D tensors. Consider using x.conj(). {where.format(4382)}']",
                   f"s.adjoint() ['adjoint() is deprecated on 0-D tensors. Consider using x.conj(). {where.format(4390)}']",
                   "s.H []"]
