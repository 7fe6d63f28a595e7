"""Custom autograd.Functions, gradcheck and the legacy Variable (expected texts are PyTorch 2.13's)."""
import warnings

import numpy as np
import pytest

import minigrad
from seed_programs import MMFunction
from minigrad.autograd import Function, GradcheckError, gradcheck, gradgradcheck


def rand(*shape, dtype=np.float32, requires_grad=True, seed=0):
    return minigrad.tensor(np.random.default_rng(seed).standard_normal(shape).astype(dtype),
                           requires_grad=requires_grad)


def test_mmfunction_records_a_node_named_without_suffix():
    x, w = rand(3, 2), rand(4, 2, seed=1)
    y = MMFunction.apply(x, w)
    assert y.grad_fn.name() == "MMFunctionBackward" and type(y.grad_fn).__name__ == "MMFunctionBackward"
    assert [type(n).__name__ for n, _ in y.grad_fn.next_functions] == ["AccumulateGrad", "AccumulateGrad"]
    assert y.grad_fn.next_functions[0][0].variable is x
    assert y.grad_fn.needs_input_grad == (True, True)
    y.sum().backward()
    ref_x, ref_w = rand(3, 2), rand(4, 2, seed=1)
    ref_x.mm(ref_w.t()).sum().backward()
    assert np.allclose(x.grad.tolist(), ref_x.grad.tolist()) and np.allclose(w.grad.tolist(), ref_w.grad.tolist())


def test_forward_runs_with_grad_mode_off_and_needs_input_grad_is_per_input():
    seen = {}

    class Spy(Function):
        @staticmethod
        def forward(ctx, a, b):
            seen["grad_enabled"] = minigrad.is_grad_enabled()
            seen["needs"] = ctx.needs_input_grad
            return a * b

        @staticmethod
        def backward(ctx, g):
            return g, None

    Spy.apply(rand(2), rand(2, requires_grad=False))
    assert seen == {"grad_enabled": False, "needs": (True, False)}


def test_saved_tensors_are_freed_with_the_core_error_and_saved_variables_warns():
    x, w = rand(3, 2), rand(4, 2, seed=1)
    y = MMFunction.apply(x, w)
    with pytest.warns(DeprecationWarning, match="'saved_variables' is deprecated; use 'saved_tensors'"):
        assert y.grad_fn.saved_variables[0] is x
    y.sum().backward()
    with pytest.raises(RuntimeError, match="Trying to backward through the graph a second time"):
        y.grad_fn.saved_tensors


def test_wrong_number_of_gradients():
    class Bad(Function):
        @staticmethod
        def forward(ctx, a, b):
            return a * b

        @staticmethod
        def backward(ctx, g):
            return g

    with pytest.raises(RuntimeError, match=r"^function BadBackward returned an incorrect number of gradients "
                                           r"\(expected 2, got 1\)$"):
        Bad.apply(rand(2), rand(2)).sum().backward()


def test_wrong_gradient_shape():
    class Shape(Function):
        @staticmethod
        def forward(ctx, a, b):
            return a.mm(b.t())

        @staticmethod
        def backward(ctx, g):
            return g, g

    with pytest.raises(RuntimeError, match=r"^Function ShapeBackward returned an invalid gradient at index 0 - got "
                                           r"\[3, 3\] but expected shape compatible with \[3, 2\]$"):
        Shape.apply(minigrad.ones(3, 2, requires_grad=True), minigrad.ones(3, 2, requires_grad=True)).sum().backward()


def test_non_tensor_arguments_pass_through_and_need_none():
    class Scale(Function):
        @staticmethod
        def forward(ctx, a, k):
            ctx.k = k
            return a * k

        @staticmethod
        def backward(ctx, g):
            return g * ctx.k, None

    x = rand(2)
    y = Scale.apply(x, 3.0)
    assert len(y.grad_fn.next_functions) == 1
    y.sum().backward()
    assert x.grad.tolist() == [3.0, 3.0]

    class Wrong(Scale):
        @staticmethod
        def backward(ctx, g):
            return g, g

    with pytest.raises(RuntimeError, match="function WrongBackward returned a gradient different than None at "
                                           "position 2, but the corresponding forward input was not a Variable"):
        Wrong.apply(rand(2), 3.0).sum().backward()


def test_multiple_outputs_materialize_grads_and_non_differentiable():
    class Two(Function):
        @staticmethod
        def forward(ctx, a):
            ctx.set_materialize_grads(False)
            return a * 2, a * 3

        @staticmethod
        def backward(ctx, g1, g2):
            assert g2 is None
            return g1 * 2

    x = minigrad.ones(2, requires_grad=True)
    u, v = Two.apply(x)
    assert u.grad_fn is v.grad_fn and v._output_nr == 1
    u.sum().backward()
    assert x.grad.tolist() == [2.0, 2.0]

    class ArgMax(Function):
        @staticmethod
        def forward(ctx, a):
            idx = a.argmax()
            ctx.mark_non_differentiable(idx)
            return a * 1, idx

        @staticmethod
        def backward(ctx, g, g_idx):
            return g

    y, i = ArgMax.apply(x)
    assert y.requires_grad and not i.requires_grad


def test_returning_an_input_gives_a_new_tensor_in_the_graph():
    class Same(Function):
        @staticmethod
        def forward(ctx, a):
            return a

        @staticmethod
        def backward(ctx, g):
            return g * 2

    x = minigrad.ones(2, requires_grad=True)
    z = Same.apply(x)
    assert z is not x and z.grad_fn.name() == "SameBackward" and not z.is_leaf
    z.sum().backward()
    assert x.grad.tolist() == [2.0, 2.0]


def test_builtin_ops_are_functions_too():
    y = minigrad.ones(2, requires_grad=True).exp()
    assert isinstance(y.grad_fn, minigrad.autograd.BackwardNode)
    assert issubclass(y.grad_fn._forward_cls, Function) and y.grad_fn._forward_cls is minigrad.ops.Exp


def test_instantiating_a_function_warns_like_pytorch():
    with pytest.warns(DeprecationWarning, match="should not be instantiated. Methods on autograd functions are all "
                                                "static"):
        MMFunction()


def test_gradcheck_passes_and_reports_a_wrong_backward():
    x = rand(3, 2, dtype=np.float64)
    w = rand(4, 2, dtype=np.float64, seed=1)
    assert gradcheck(MMFunction.apply, (x, w))

    class Wrong(MMFunction):
        @staticmethod
        def backward(ctx, grad_output):
            input, weight = ctx.saved_tensors
            return grad_output.mm(weight) * 2, grad_output.t().mm(input)

    with pytest.raises(GradcheckError, match=r"^Jacobian mismatch for output 0 with respect to input 0,\nnumerical:"
                                             r"tensor\(") as info:
        gradcheck(Wrong.apply, (x, w))
    assert "analytical:tensor(" in str(info.value)
    assert gradcheck(Wrong.apply, (x, w), raise_exception=False) is False


def test_gradcheck_warns_about_float32_and_needs_an_input_that_requires_grad():
    with pytest.warns(UserWarning, match="Input #0 requires gradient and is not a double precision"):
        gradcheck(lambda t: t * 2, (rand(2),), atol=1e-2, rtol=1e-2)
    with pytest.raises(ValueError, match="gradcheck expects at least one input tensor to require gradient"):
        gradcheck(lambda t: t * 2, (rand(2, requires_grad=False),))


def test_gradgradcheck_second_order():
    x = rand(3, dtype=np.float64)
    assert gradgradcheck(lambda t: (t ** 3).sum(), (x,))
    assert gradgradcheck(lambda t: t.tanh() * t.sigmoid(), (x,))


def test_variable_is_the_legacy_alias():
    v = minigrad.autograd.Variable(minigrad.ones(2), requires_grad=True)
    assert isinstance(v, minigrad.Tensor) and v.requires_grad and v.is_leaf


@pytest.mark.parametrize("a_grad, b_grad", [(True, True), (True, False), (False, True)])
def test_mm_saves_only_what_a_wanted_gradient_needs(a_grad, b_grad):
    """PyTorch's MmBackward0 keeps mat2 only for self's gradient and self only for mat2's."""
    a, b = rand(2, 3, requires_grad=a_grad), rand(3, 4, requires_grad=b_grad)
    saved_a, saved_b = a.mm(b).grad_fn.saved_tensors
    assert (saved_a is a) == b_grad and (saved_a is None) == (not b_grad)
    assert (saved_b is b) == a_grad and (saved_b is None) == (not a_grad)
    try:
        import torch
    except ImportError:
        return
    ta = torch.ones(2, 3, requires_grad=a_grad)
    tb = torch.ones(3, 4, requires_grad=b_grad)
    node = ta.mm(tb).grad_fn
    assert (node._saved_self is not None) == b_grad and (node._saved_mat2 is not None) == a_grad


def test_save_for_backward_takes_tensors_only():
    class Scale(Function):
        @staticmethod
        def forward(ctx, x, factor):
            ctx.save_for_backward(x, factor)
            return x * factor

        @staticmethod
        def backward(ctx, grad):
            return grad, None
    with pytest.raises(TypeError, match="save_for_backward can only save variables, but argument 1 is of type float"):
        Scale.apply(rand(2), 2.0)
    assert Scale.apply(rand(2, requires_grad=False), 2.0).grad_fn is None  # not recorded: nothing is saved


def test_a_saved_tensor_shows_as_pytorchs():
    x = minigrad.tensor([1., 2.], requires_grad=True)
    y = x.exp()
    assert repr(y.grad_fn._raw_saved_result).startswith("<minigrad._C._autograd.SavedTensor object at 0x")
