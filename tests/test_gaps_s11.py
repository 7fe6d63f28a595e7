"""Faithful gaps of session 11 (brief r2), each as PyTorch 2.13 behaves: the argument checks of ``backward()`` and
``autograd.grad()`` (their order, types and words), and ``tensor()`` of lists that hold tensors.  Each scenario's
outcome is recorded from torch as a literal; ``test_live_*`` runs the same scenario with torch when it imports.
(``unfold`` and ``as_strided`` are in ``tests/parity/cases_unfold.py``, plus gradchecks at the end here.)"""
import warnings

import numpy as np
import pytest

import minigrad
from minigrad._core import tensor_base


def outcome(fn, T):
    """What ``fn(T)`` gives: ``("ok", value)`` or ``(exception type, message)``, with PyTorch's module name
    written as minigrad's, plus the warnings it gave."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            result = ("ok", fn(T))
        except Exception as e:  # noqa: BLE001
            result = (type(e).__name__, str(e).replace("torch.", "minigrad."))
    said = [f"{w.category.__name__}: {w.message}".replace("torch.", "minigrad.") for w in caught]
    return result, said


def summary(t):
    """A tensor as plain data: values, dtype name, requires_grad, shape."""
    return t.tolist(), str(t.dtype).split(".")[-1], t.requires_grad, tuple(t.shape)


# ---------------------------------------------------------------------------------- 1. backward() / grad()
def _graph(T):
    x = T.tensor([1.0, 2.0, 3.0], requires_grad=True)
    return x, x * 2, x.sum() * 3


def _backward(make):
    """``autograd.backward(*make(T, x, y, s))`` on a fresh graph; the value is ``x.grad``."""
    def fn(T):
        x, y, s = _graph(T)
        args, kwargs = make(T, x, y, s)
        T.autograd.backward(*args, **kwargs)
        return x.grad.tolist() if x.grad is not None else None
    return fn


def _grad(make):
    def fn(T):
        x, y, s = _graph(T)
        args, kwargs = make(T, x, y, s)
        return [g.tolist() for g in T.autograd.grad(*args, **kwargs)]
    return fn


def _method(make):
    def fn(T):
        x, y, s = _graph(T)
        out, args = make(T, x, y, s)
        out.backward(*args)
        return x.grad.tolist()
    return fn


def _ones(T, *shape, dtype=None):
    return T.ones(*shape, dtype=dtype or T.float32)


SHAPE = "Mismatch in shape: grad_output[{}] has a shape of minigrad.Size({}) and output[{}] has a shape of minigrad.Size({})."
SCALAR = "grad can be implicitly created only for scalar outputs"
ELEMENT0 = "element 0 of tensors does not require grad and does not have a grad_fn"

BACKWARD_CASES = {
    # one gradient per output: zip pairs them (extra ones are ignored), then the engine counts
    "grad_fewer_gradients": (_grad(lambda T, x, y, s: (([y, y * 3], [x], [_ones(T, 3)]), {})),
                             ("RuntimeError", "got 2 tensors and 1 gradients")),
    "grad_more_gradients": (_grad(lambda T, x, y, s: (([y], [x], [_ones(T, 3), _ones(T, 3)]), {})),
                            ("ok", [[2.0, 2.0, 2.0]])),
    "grad_no_gradients": (_grad(lambda T, x, y, s: (([s], [x], []), {})), ("RuntimeError", "got 1 tensors and 0 gradients")),
    "grad_one_tensor_for_two_outputs": (_grad(lambda T, x, y, s: (([y, y * 2], x, _ones(T, 3)), {})),
                                        ("RuntimeError", "got 2 tensors and 1 gradients")),
    "grad_2d_tensor_for_two_outputs": (_grad(lambda T, x, y, s: (([y, y * 2], x, _ones(T, 2, 3)), {})),
                                       ("RuntimeError", SHAPE.format(0, "[2, 3]", 0, "[3]"))),
    "backward_more_gradients": (_backward(lambda T, x, y, s: (([y], [_ones(T, 3), _ones(T, 3)]), {})),
                                ("ok", [2.0, 2.0, 2.0])),
    "backward_more_gradients_scalar": (_backward(lambda T, x, y, s: (([s], [None, _ones(T, 3)]), {})),
                                       ("ok", [3.0, 3.0, 3.0])),
    "backward_fewer_gradients": (_backward(lambda T, x, y, s: (([y, y * 2], [_ones(T, 3)]), {})),
                                 ("RuntimeError", "got 2 tensors and 1 gradients")),
    "backward_empty_gradients": (_backward(lambda T, x, y, s: (([y], []), {})),
                                 ("RuntimeError", "got 1 tensors and 0 gradients")),
    "backward_empty_gradients_scalars": (_backward(lambda T, x, y, s: (([s, s * 2], []), {})),
                                         ("RuntimeError", "got 2 tensors and 0 gradients")),
    "backward_no_outputs": (_backward(lambda T, x, y, s: (([], [_ones(T, 3)]), {})), ("ok", None)),
    "backward_none_for_vector": (_backward(lambda T, x, y, s: (([y], [None]), {})), ("RuntimeError", SCALAR)),
    "backward_shape": (_backward(lambda T, x, y, s: (([y], [_ones(T, 2, 3)]), {})),
                       ("RuntimeError", SHAPE.format(0, "[2, 3]", 0, "[3]"))),
    "backward_shape_0d_for_1": (_backward(lambda T, x, y, s: (([s], [_ones(T, 1)]), {})),
                                ("RuntimeError", SHAPE.format(0, "[1]", 0, "[]"))),
    # PyTorch finds the position with list.index, which compares the earlier gradients with ==
    "backward_shape_found_with_index": (_backward(lambda T, x, y, s: (([s, y], [None, _ones(T, 4)]), {})),
                                        ("RuntimeError", "Boolean value of Tensor with more than one value is ambiguous")),
    "backward_float64_gradient": (_backward(lambda T, x, y, s: (([y], [_ones(T, 3, dtype=T.float64)]), {})),
                                  ("ok", [2.0, 2.0, 2.0])),
    "backward_int_gradient": (_backward(lambda T, x, y, s: (([y], [_ones(T, 3, dtype=T.int64)]), {})),
                              ("ok", [2.0, 2.0, 2.0])),
    "backward_bool_gradient": (_backward(lambda T, x, y, s: (([y], [_ones(T, 3, dtype=T.bool)]), {})),
                               ("ok", [2.0, 2.0, 2.0])),
    "backward_list_gradient": (_backward(lambda T, x, y, s: (([y], [[1.0, 1.0, 1.0]]), {})),
                               ("TypeError", "gradients can be either Tensors or None, but got list")),
    "backward_float_gradient": (_backward(lambda T, x, y, s: (([s], [2.0]), {})),
                                ("TypeError", "gradients can be either Tensors or None, but got float")),
    "backward_numpy_gradient": (_backward(lambda T, x, y, s: (([s], [np.float32(2.0)]), {})),
                                ("TypeError", "gradients can be either Tensors or None, but got float32")),
    "backward_str_gradient": (_backward(lambda T, x, y, s: (([y], ["a"]), {})),
                              ("TypeError", "gradients can be either Tensors or None, but got str")),
    "method_float_gradient": (_method(lambda T, x, y, s: (s, (2.0,))), ("TypeError", "'float' object is not iterable")),
    "method_list_gradient": (_method(lambda T, x, y, s: (y, ([1.0, 1.0, 1.0],))),
                             ("TypeError", "gradients can be either Tensors or None, but got float")),
    "method_two_gradients": (_method(lambda T, x, y, s: (y, ([_ones(T, 3), _ones(T, 3)],))), ("ok", [2.0, 2.0, 2.0])),
    # the gradients are checked before the engine checks that every output requires grad
    "backward_no_grad_output_shape": (_backward(lambda T, x, y, s: (([_ones(T, 3)], [_ones(T, 2)]), {})),
                                      ("RuntimeError", SHAPE.format(0, "[2]", 0, "[3]"))),
    "backward_no_grad_output_fewer": (_backward(lambda T, x, y, s: (([_ones(T, 3), y], [_ones(T, 3)]), {})),
                                      ("RuntimeError", "got 2 tensors and 1 gradients")),
    "backward_no_grad_output": (_backward(lambda T, x, y, s: (([_ones(T, 3)], [None]), {})), ("RuntimeError", ELEMENT0)),
    "backward_int_output": (_backward(lambda T, x, y, s: (([_ones(T, 3, dtype=T.int64)], [_ones(T, 3)]), {})),
                            ("RuntimeError", ELEMENT0)),
    "backward_inputs_empty": (_backward(lambda T, x, y, s: (([s],), {"inputs": []})),
                              ("RuntimeError", "`inputs` argument to `backward()` cannot be empty.")),
    "backward_inputs_not_tensor": (_backward(lambda T, x, y, s: (([s],), {"inputs": [1.0]})),
                                   ("RuntimeError", "all inputs have to be Tensors or GradientEdges, but got float")),
    "backward_input_no_grad": (_backward(lambda T, x, y, s: (([s],), {"inputs": [x, _ones(T, 3)]})),
                               ("RuntimeError", "can't retain_grad on Tensor that has requires_grad=False")),
    "backward_input_non_leaf": (_backward(lambda T, x, y, s: (([s],), {"inputs": [y]})), ("ok", None)),
    "grad_inputs_empty": (_grad(lambda T, x, y, s: ((s, []), {})),
                          ("RuntimeError", "`inputs` argument to `grad()` cannot be empty.")),
    "grad_inputs_not_tensor": (_grad(lambda T, x, y, s: ((s, [x, 1.0]), {})),
                               ("RuntimeError", "all inputs have to be Tensors or GradientEdges, but got float")),
    "grad_outputs_not_tensor": (_grad(lambda T, x, y, s: (([1.0], [x]), {})),
                                ("AssertionError", "Expected output to be a minigrad.Tensor")),
    "grad_outputs_none": (_grad(lambda T, x, y, s: (([None], [x]), {})),
                          ("AssertionError", "Expected output to be a minigrad.Tensor")),
    "grad_input_no_grad": (_grad(lambda T, x, y, s: ((s, [_ones(T, 3)]), {})),
                           ("RuntimeError", "One of the differentiated Tensors does not require grad")),
    "grad_output_checked_before_inputs": (_grad(lambda T, x, y, s: ((_ones(T, 3), [_ones(T, 3)], _ones(T, 3)), {})),
                                          ("RuntimeError", ELEMENT0)),
    "grad_non_leaf_input_unused": (_grad(lambda T, x, y, s: ((s, [y]), {})),
                                   ("RuntimeError", "The differentiated Tensor at index 0 appears to not have been used "
                                    "in the graph. Set allow_unused=True if this is the desired behavior.")),
    "grad_none_for_vector": (_grad(lambda T, x, y, s: ((y, [x]), {})), ("RuntimeError", SCALAR)),
    "grad_int_gradient": (_grad(lambda T, x, y, s: ((y, [x], _ones(T, 3, dtype=T.int32)), {})), ("ok", [[2.0, 2.0, 2.0]])),
}


@pytest.mark.parametrize("name", sorted(BACKWARD_CASES))
def test_backward_checks(name):
    fn, expected = BACKWARD_CASES[name]
    assert outcome(fn, minigrad)[0] == expected


@pytest.mark.parametrize("name", sorted(BACKWARD_CASES))
def test_live_backward_checks(name):
    torch = pytest.importorskip("torch")
    fn, expected = BACKWARD_CASES[name]
    assert outcome(fn, torch)[0] == expected


def test_stepper_checks_like_backward():
    from minigrad.viz import BackwardStepper
    with pytest.raises(RuntimeError, match="^" + ELEMENT0 + "$"):
        BackwardStepper(minigrad.ones(3), minigrad.ones(3))
    with pytest.raises(TypeError, match="^gradients can be either Tensors or None, but got list$"):
        BackwardStepper(minigrad.ones(3, requires_grad=True) * 2, [1.0, 1.0, 1.0])


# ---------------------------------------------------------------------------------- 2. tensor() of lists of tensors
COPY = ("UserWarning: To copy construct from a tensor, it is recommended to use sourceTensor.detach().clone() or "
        "sourceTensor.detach().clone().requires_grad_(True), rather than {}(sourceTensor).")
SCALAR_OF_GRAD = ("UserWarning: Converting a tensor with requires_grad=True to a scalar may lead to unexpected "
                  "behavior.\nConsider using tensor.detach() first. (Triggered internally at "
                  "/__w/pytorch/pytorch/torch/csrc/autograd/generated/python_variable_methods.cpp:822.)")
ONE_ELEMENT = ("ValueError", "only one element tensors can be converted to Python scalars")


def _made(make):
    return lambda T: summary(make(T))


TENSOR_CASES = {
    "tensor_of_tensor": (_made(lambda T: T.tensor(T.tensor([1.0, 2.0], requires_grad=True))),
                         ([1.0, 2.0], "float32", False, (2,)), [COPY.format("minigrad.tensor")]),
    "tensor_of_tensor_requires_grad": (_made(lambda T: T.tensor(T.tensor([1.0, 2.0]), requires_grad=True)),
                                       ([1.0, 2.0], "float32", True, (2,)), [COPY.format("minigrad.tensor")]),
    "tensor_of_tensor_dtype": (_made(lambda T: T.tensor(T.tensor(7), dtype=T.float64)),
                               (7.0, "float64", False, ()), [COPY.format("minigrad.tensor")]),
    "new_tensor_of_tensor": (_made(lambda T: T.ones(1).new_tensor(T.tensor([1, 2]))),
                             ([1.0, 2.0], "float32", False, (2,)), [COPY.format("tensor.new_tensor")]),
    "list_with_requires_grad": (_made(lambda T: T.tensor([T.tensor(3.0, requires_grad=True), 2.0])),
                                ([3.0, 2.0], "float32", False, (2,)), [SCALAR_OF_GRAD]),
    "list_with_requires_grad_requires_grad": (
        _made(lambda T: T.tensor([T.tensor([3.0], requires_grad=True) * 1, 2.0], requires_grad=True)),
        ([3.0, 2.0], "float32", True, (2,)), [SCALAR_OF_GRAD]),
    "list_of_0d": (_made(lambda T: T.tensor([T.tensor(4.0), T.tensor(4.0)])), ([4.0, 4.0], "float32", False, (2,)), []),
    "list_of_1_element": (_made(lambda T: T.tensor([T.tensor([5.0]), T.ones(1, 1)])),
                          ([5.0, 1.0], "float32", False, (2,)), []),
    "nested": (_made(lambda T: T.tensor([[T.tensor(4.0), 1.0], [2.0, T.tensor([4.0])]])),
               ([[4.0, 1.0], [2.0, 4.0]], "float32", False, (2, 2)), []),
    "nested_lists_of_1_element": (_made(lambda T: T.tensor([[T.ones(1)], [T.ones(1)]])),
                                  ([[1.0], [1.0]], "float32", False, (2, 1)), []),
    "tensor_where_a_row_is_expected": (_made(lambda T: T.tensor([[1.0, 2.0], T.ones(2)])),
                                       ([[1.0, 2.0], [1.0, 1.0]], "float32", False, (2, 2)), []),
    "float64": (_made(lambda T: T.tensor([T.tensor(1.5, dtype=T.float64), 2.0])), ([1.5, 2.0], "float64", False, (2,)), []),
    "float_then_float64": (_made(lambda T: T.tensor([2.0, T.tensor(1.5, dtype=T.float64)])),
                           ([2.0, 1.5], "float64", False, (2,)), []),
    "int64_and_float": (_made(lambda T: T.tensor([T.tensor(7), 2.5])), ([7.0, 2.5], "float32", False, (2,)), []),
    "int64_and_int": (_made(lambda T: T.tensor([T.tensor(7), 3])), ([7, 3], "int64", False, (2,)), []),
    "bool_and_int": (_made(lambda T: T.tensor([T.tensor(True), 3])), ([1, 3], "int64", False, (2,)), []),
    "float16_and_float": (_made(lambda T: T.tensor([T.tensor(1.0, dtype=T.float16), 3.0])),
                          ([1.0, 3.0], "float32", False, (2,)), []),
    "float16_and_int": (_made(lambda T: T.tensor([T.tensor(1.0, dtype=T.float16), 3])),
                        ([1.0, 3.0], "float16", False, (2,)), []),
    "uint8_and_int8": (_made(lambda T: T.tensor([T.tensor(3, dtype=T.uint8), T.tensor(3, dtype=T.int8)])),
                       ([3, 3], "int16", False, (2,)), []),
    "numpy_float64_and_0d": (_made(lambda T: T.tensor([T.tensor(4.0), np.float64(2.0)])),
                             ([4.0, 2.0], "float64", False, (2,)), []),
    "dtype_given": (_made(lambda T: T.tensor([T.tensor(3.0, requires_grad=True), 2.0], dtype=T.float64)),
                    ([3.0, 2.0], "float64", False, (2,)), [SCALAR_OF_GRAD]),
    "int_tensor_into_float": (_made(lambda T: T.tensor([T.tensor(3), 2], dtype=T.float32)),
                              ([3.0, 2.0], "float32", False, (2,)), []),
    "int_tensor_into_bool": (_made(lambda T: T.tensor([T.tensor(3), True], dtype=T.bool)),
                             ([True, True], "bool", False, (2,)), []),
    "empty_rows": (_made(lambda T: T.tensor([[], T.ones(0)])), ([[], []], "float32", False, (2, 0)), []),
    "as_tensor_other_dtype": (lambda T: type(T.as_tensor(T.ones(2, requires_grad=True), dtype=T.float64).grad_fn).__name__,
                              "ToCopyBackward0", []),
}
TENSOR_ERRORS = {
    "multi_element": (lambda T: T.tensor([T.ones(2), 2.0]), ONE_ELEMENT),
    "two_multi_element": (lambda T: T.tensor([T.ones(2), T.ones(2)]), ONE_ELEMENT),
    "2d_tensors": (lambda T: T.tensor([T.ones(2, 2), T.ones(2, 2)]), ONE_ELEMENT),
    "empty_tensor": (lambda T: T.tensor([T.ones(0)]), ONE_ELEMENT),
    "row_too_long": (lambda T: T.tensor([[1.0, 2.0], T.ones(3)]), ("ValueError", "expected sequence of length 2 at dim 1 (got 3)")),
    "row_too_short": (lambda T: T.tensor([[T.tensor(1.0), 2.0], [3.0]]),
                      ("ValueError", "expected sequence of length 2 at dim 1 (got 1)")),
    "number_where_a_row_is_expected": (lambda T: T.tensor([[T.tensor(1.0), 2.0], 3.0]), ("TypeError", "not a sequence")),
    "row_where_a_number_is_expected": (lambda T: T.tensor([T.tensor(1.0), [2.0]]),
                                       ("TypeError", "must be real number, not list")),
    "float_tensor_into_int": (lambda T: T.tensor([T.tensor(1.5), 2], dtype=T.int64),
                              ("TypeError", "only integer tensors of a single element can be converted to an index")),
    "str_in_list": (lambda T: T.tensor([T.tensor(1.0), "a"]), ("TypeError", "new(): invalid data type 'str'")),
    "none_in_list": (lambda T: T.tensor([T.tensor(1.0), None]), ("RuntimeError", "Could not infer dtype of NoneType")),
    "none": (lambda T: T.tensor(None), ("RuntimeError", "Could not infer dtype of NoneType")),
    "none_in_plain_list": (lambda T: T.tensor([1, None]), ("RuntimeError", "Could not infer dtype of NoneType")),
    "object": (lambda T: T.tensor({}), ("RuntimeError", "Could not infer dtype of dict")),
    "str": (lambda T: T.tensor("a"), ("TypeError", "new(): invalid data type 'str'")),
}


def _fresh_warning():
    """minigrad, as PyTorch, gives the requires-grad scalar warning once per process: forget it was given."""
    tensor_base._warned.discard(SCALAR_OF_GRAD.split(": ", 1)[1])


@pytest.mark.parametrize("name", sorted(TENSOR_CASES))
def test_tensor_of_tensors(name):
    fn, value, warned = TENSOR_CASES[name]
    _fresh_warning()
    assert outcome(fn, minigrad) == (("ok", value), warned)


@pytest.mark.parametrize("name", sorted(TENSOR_CASES))
def test_live_tensor_of_tensors(name):
    torch = pytest.importorskip("torch")
    fn, value, warned = TENSOR_CASES[name]
    got, said = outcome(fn, torch)
    assert got == ("ok", value)
    assert said == warned or (warned == [SCALAR_OF_GRAD] and said == [])  # (torch may have warned before, once)


@pytest.mark.parametrize("name", sorted(TENSOR_ERRORS))
def test_tensor_of_tensors_errors(name):
    fn, expected = TENSOR_ERRORS[name]
    assert outcome(fn, minigrad)[0] == expected


@pytest.mark.parametrize("name", sorted(TENSOR_ERRORS))
def test_live_tensor_of_tensors_errors(name):
    torch = pytest.importorskip("torch")
    fn, expected = TENSOR_ERRORS[name]
    assert outcome(fn, torch)[0] == expected


def test_typed_constructor_does_not_warn():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert minigrad.FloatTensor(minigrad.ones(2)).tolist() == [1.0, 1.0]
        assert minigrad.as_tensor(minigrad.ones(2)).tolist() == [1.0, 1.0]


# ---------------------------------------------------------------------------------- 3. unfold, as_strided: gradcheck
def _x(*shape):
    return minigrad.tensor(np.random.RandomState(11).uniform(-1, 1, shape), dtype=minigrad.float64, requires_grad=True)


@pytest.mark.parametrize("args", [(1, 2, 1), (0, 2, 1), (-1, 3, 2), (1, 4, 1), (1, 1, 3), (1, 0, 1)])
def test_unfold_gradcheck(args):
    x = _x(3, 4)
    assert minigrad.autograd.gradcheck(lambda t: t.unfold(*args), (x,))
    assert minigrad.autograd.gradgradcheck(lambda t: t.unfold(*args) ** 2, (x,))


@pytest.mark.parametrize("size, stride, offset", [((2, 2), (1, 2), 1), ((3, 3), (1, 1), None), ((2, 3), (0, 1), 2),
                                                  ((), (), 5), ((4,), (3,), 0)])
def test_as_strided_gradcheck(size, stride, offset):
    x = _x(3, 4)
    assert minigrad.autograd.gradcheck(lambda t: t.as_strided(size, stride, offset), (x,))
    assert minigrad.autograd.gradgradcheck(lambda t: minigrad.as_strided(t, size, stride, offset) ** 2, (x,))


def test_unfold_overlapping_windows_add_up():
    x = minigrad.arange(5.0, requires_grad=True)
    x.unfold(0, 3, 1).sum().backward()
    assert x.grad.tolist() == [1.0, 2.0, 3.0, 2.0, 1.0]
    b = minigrad.zeros(5)
    u = b.unfold(0, 2, 1)
    assert u.stride() == (1, 1) and u._base is b and not u.is_contiguous()
    u[3, 1] = 7.0  # (written through the view: the base and the version counter they share)
    assert b.tolist() == [0.0, 0.0, 0.0, 0.0, 7.0] and b._version == u._version == 1


@pytest.mark.parametrize("shape, error, message", [
    ((0, 0), IndexError, "Dimension specified as 0 but tensor has no dimensions"),
    ((0, 3), IndexError, "Dimension specified as 0 but tensor has no dimensions"),
    ((0, 3, 4), RuntimeError, "ArrayRef: invalid slice, N = 1; size = 0"),
    ((0, 3, 4, 5), RuntimeError, "only batches of spatial targets supported (3D tensors) but got targets of dimension: 0"),
    ((2, 3), ValueError, "Expected input batch_size (2) to match target batch_size (0)."),
])
def test_nll_loss_of_an_empty_batch_and_a_0dim_target(shape, error, message):
    """torch 2.13's errors (fuzz seed 731605: an empty batch next to a 0-dim target)."""
    with pytest.raises(error) as err:
        minigrad.nn.functional.nll_loss(minigrad.zeros(shape), minigrad.tensor(1))
    assert str(err.value).strip("'") == message


def test_scatter_with_an_empty_index_checks_no_shapes():
    """PyTorch's scatter_shape_check returns at once for an empty index (its dtype check comes first):
    fuzz seed 777479, an empty (0, 2) view scattered into with a 1-d empty source."""
    x = minigrad.zeros(2, 3)
    for fn in ("scatter_add", "scatter"):
        assert getattr(x, fn)(1, minigrad.zeros(0, dtype=minigrad.long), minigrad.zeros(4)).tolist() == [[0.0] * 3] * 2
        with pytest.raises(RuntimeError, match=r"^scatter\(\): Expected self.dtype to be equal to src.dtype$"):
            getattr(x, fn)(1, minigrad.zeros(2, 3, dtype=minigrad.long), minigrad.zeros(4, dtype=minigrad.float64))
    assert x.gather(1, minigrad.zeros(0, dtype=minigrad.long)).shape == (0,)
    empty = minigrad.as_strided(minigrad.tensor(-1.69).clone(), (0, 2), (0, 1))
    assert empty.scatter_add_(1, empty.argsort(1), minigrad.zeros(0)).shape == (0, 2)
