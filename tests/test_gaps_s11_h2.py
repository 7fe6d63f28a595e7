"""Faithful gaps of session 11 (brief h2), each as PyTorch 2.13 behaves: empty views keep their place in memory
(``storage_offset()``) and their strides; ``tensor()`` of strings, ``None`` and other objects raises as PyTorch's
does; ``tensor()`` of a list with a tensor and a huge int; the warning of ``tensor([t_requiring_grad, 2.0])``
points at the caller's line.  Each outcome is recorded from torch as a literal; ``test_live_*`` runs the same
scenario with torch when it imports."""
import warnings

import pytest

import minigrad


def outcome(fn, T):
    """What ``fn(T)`` gives: ``("ok", value)`` or ``(exception type, message)``."""
    try:
        return "ok", fn(T)
    except Exception as e:  # noqa: BLE001
        return type(e).__name__, str(e)


def _geometry(make):
    """The shape, storage offset, strides and ``is_contiguous()`` of the view ``make(T)``."""
    def fn(T):
        v = make(T)
        return tuple(v.shape), v.storage_offset(), v.stride(), v.is_contiguous()
    return fn


def _grid(T):
    return T.arange(12.0).reshape(3, 4)


def _cube(T):
    return T.arange(24.0).reshape(2, 3, 4)


def _squares(T):
    return T.arange(18.0).reshape(2, 3, 3)


# ---------------------------------------------------------------------------------- 1. empty views' place
VIEW_CASES = {
    "slice_past_the_end": (lambda T: T.ones(1)[1:], ((0,), 1, (1,), True)),
    "slice_empty_rows": (lambda T: _grid(T)[2:2], ((0, 4), 8, (4, 1), True)),
    "slice_empty_columns": (lambda T: _grid(T)[:, 3:3], ((3, 0), 3, (4, 1), True)),
    "slice_start_clamped": (lambda T: _grid(T)[1:, 5:], ((2, 0), 8, (4, 1), True)),
    "slice_rows_past_the_end": (lambda T: _grid(T)[3:], ((0, 4), 12, (4, 1), True)),
    "slice_stop_before_start": (lambda T: _grid(T)[2:1], ((0, 4), 8, (4, 1), True)),
    "slice_of_slice": (lambda T: _grid(T)[1:][2:], ((0, 4), 12, (4, 1), True)),
    "slices_of_slices": (lambda T: _grid(T)[1:][:, 2:][1:, 3:], ((1, 0), 12, (4, 1), True)),
    "slice_with_step_kept": (lambda T: _grid(T)[:, 1:][:, ::2][:, 2:], ((3, 0), 5, (4, 2), True)),
    "empty_slice_with_step": (lambda T: _grid(T)[:, 3:3:2], ((3, 0), 3, (4, 2), True)),
    "as_strided_past_the_end": (lambda T: T.as_strided(_grid(T), (0,), (1,), 100), ((0,), 100, (1,), True)),
    "as_strided_2d": (lambda T: T.as_strided(_grid(T), (0, 3), (1, 2), 5), ((0, 3), 5, (1, 2), True)),
    "as_strided_of_a_view": (lambda T: _grid(T)[1:].as_strided((0,), (1,), 7), ((0,), 7, (1,), True)),
    "as_strided_default_offset": (lambda T: _grid(T)[1:].as_strided((2, 0), (1, 1)), ((2, 0), 4, (1, 1), True)),
    "slice_of_as_strided": (lambda T: T.as_strided(_grid(T), (0,), (1,), 100)[0:], ((0,), 100, (1,), True)),
    "as_strided_of_empty": (lambda T: _grid(T)[3:].as_strided((0,), (1,)), ((0,), 12, (1,), True)),
    "narrow_at_the_end": (lambda T: _grid(T).narrow(0, 3, 0), ((0, 4), 12, (4, 1), True)),
    "narrow_columns": (lambda T: _grid(T).narrow(1, 2, 0), ((3, 0), 2, (4, 1), True)),
    "narrow_of_empty": (lambda T: T.arange(4.0)[4:].narrow(0, 0, 0), ((0,), 4, (1,), True)),
    "select_of_empty": (lambda T: T.zeros(0, 3).select(1, 2), ((0,), 2, (3,), True)),
    "select_in_empty": (lambda T: T.zeros(2, 0, 3)[1, :, 2], ((0,), 5, (3,), True)),
    "split_with_an_empty_piece": (lambda T: _grid(T).split([1, 0, 2], 0)[1], ((0, 4), 4, (4, 1), True)),
    "split_empty_last_piece": (lambda T: _grid(T).split([3, 0], 0)[1], ((0, 4), 12, (4, 1), True)),
    "split_columns": (lambda T: _grid(T).split([2, 0, 2], 1)[1], ((3, 0), 2, (4, 1), True)),
    "chunk_of_empty": (lambda T: T.zeros(0, 4).chunk(2, 1)[1], ((0, 2), 2, (4, 1), True)),
    "tensor_split_empty_piece": (lambda T: _grid(T).tensor_split(5, 0)[4], ((0, 4), 12, (4, 1), True)),
    "unbind_of_empty": (lambda T: T.zeros(2, 0).unbind(0)[1], ((0,), 1, (1,), True)),
    "unfold_then_slice": (lambda T: T.arange(5.0).unfold(0, 2, 1)[4:], ((0, 2), 4, (1, 1), True)),
    "slice_of_unfold": (lambda T: T.arange(6.0).reshape(2, 3)[1:].unfold(1, 3, 1)[:, 1:], ((1, 0, 3), 4, (3, 1, 1), True)),
    "t": (lambda T: _grid(T)[3:].t(), ((4, 0), 12, (1, 4), True)),
    "view": (lambda T: _grid(T)[3:].view(0, 2), ((0, 2), 12, (2, 1), True)),
    "reshape": (lambda T: _grid(T)[3:].reshape(0), ((0,), 12, (1,), True)),
    "flatten": (lambda T: _grid(T)[:, 4:].flatten(), ((0,), 4, (1,), True)),
    "unsqueeze": (lambda T: _grid(T)[:, 2:2].unsqueeze(0), ((1, 3, 0), 2, (12, 4, 1), True)),
    "expand": (lambda T: _grid(T)[:, 2:2].expand(2, 3, 0), ((2, 3, 0), 2, (0, 4, 1), True)),
    "diagonal": (lambda T: _grid(T)[3:].diagonal(), ((0,), 12, (5,), True)),
    "diagonal_of_empty_columns": (lambda T: _grid(T)[:, 1:1].diagonal(), ((0,), 1, (5,), True)),
    "empty_diagonal_above": (lambda T: _grid(T)[1:].diagonal(5), ((0,), 4, (5,), True)),
    "empty_diagonal_below": (lambda T: _grid(T)[1:].diagonal(-3), ((0,), 4, (5,), True)),
    "empty_diagonal_of_a_batch": (lambda T: _squares(T).diagonal(-4, 1, 2), ((2, 0), 0, (9, 4), True)),
    "empty_diagonal_of_slices": (lambda T: _squares(T)[:, 1:].diagonal(-2, 1, 2), ((2, 0), 3, (9, 4), True)),
    "empty_diagonal_of_an_empty_batch": (lambda T: _squares(T)[2:].diagonal(-4, 1, 2), ((0, 0), 18, (9, 4), True)),
    "diagonal_of_an_empty_batch": (lambda T: _squares(T)[2:].diagonal(1, 1, 2), ((0, 2), 19, (9, 4), True)),
    "empty_diagonal_across_dims": (lambda T: _squares(T)[1:].diagonal(-2, 0, 2), ((3, 0), 9, (3, 10), True)),
    "slice_then_select": (lambda T: _cube(T)[:, 3:, 1], ((2, 0), 13, (12, 4), True)),
    "select_then_slices": (lambda T: _cube(T)[1, 1:1, 2:3], ((0, 1), 18, (4, 1), True)),
    "new_axis_then_slice": (lambda T: _cube(T)[None, 2:], ((1, 0, 3, 4), 24, (24, 12, 4, 1), True)),
    "ellipsis_then_slice": (lambda T: _cube(T)[..., 4:], ((2, 3, 0), 4, (12, 4, 1), True)),
    "swapaxes": (lambda T: _cube(T)[:, 3:].swapaxes(0, 2), ((4, 0, 2), 12, (1, 4, 12), True)),
    "mT": (lambda T: _cube(T)[:, 3:].mT, ((2, 4, 0), 12, (12, 1, 4), True)),
    "unfold_of_empty": (lambda T: _cube(T)[:, 3:].unfold(2, 2, 2), ((2, 0, 2, 2), 12, (12, 4, 2, 1), True)),
    "permute": (lambda T: _grid(T)[:, 3:3].permute(1, 0), ((0, 3), 3, (1, 4), True)),
    "squeeze": (lambda T: _grid(T)[2:, 3:3].squeeze(), ((0,), 11, (1,), True)),
    "transpose": (lambda T: _grid(T)[:, 3:3].transpose(0, 1), ((0, 3), 3, (1, 4), True)),
}


@pytest.mark.parametrize("name", sorted(VIEW_CASES))
def test_empty_view_geometry(name):
    make, expected = VIEW_CASES[name]
    assert outcome(_geometry(make), minigrad) == ("ok", expected)


@pytest.mark.parametrize("name", sorted(VIEW_CASES))
def test_live_empty_view_geometry(name):
    torch = pytest.importorskip("torch")
    make, expected = VIEW_CASES[name]
    assert outcome(_geometry(make), torch) == ("ok", expected)


def _written_in_place(T):
    """In-place changes through empty views: nothing changes, the views keep their offset, the graph is PyTorch's."""
    a = T.arange(6.0, requires_grad=True)
    b = a.clone()
    past_the_end = b[6:]
    past_the_end.mul_(2)
    middle = b[2:2]
    middle.add_(1)
    b.sum().backward()
    c = _grid(T)
    columns = c[:, 4:]
    columns.copy_(T.zeros(3, 0))
    columns.zero_()
    c.diagonal(5).add_(1)
    c.diagonal(-5).fill_(2)
    return (type(past_the_end.grad_fn).__name__, past_the_end.storage_offset(), past_the_end._version,
            type(b.grad_fn).__name__, middle.storage_offset(), middle.stride(), a.grad.tolist(),
            c.sum().item(), columns.storage_offset(), columns.stride())


WRITTEN = ("AsStridedBackward0", 6, 2, "CopySlices", 2, (1,), [1.0] * 6, 66.0, 4, (4, 1))


def test_in_place_through_empty_views():
    assert _written_in_place(minigrad) == WRITTEN


def test_live_in_place_through_empty_views():
    torch = pytest.importorskip("torch")
    assert _written_in_place(torch) == WRITTEN


def _gradient_of_empty_views(T):
    x = T.arange(8.0, requires_grad=True)
    (x[3:3].sum() + x.as_strided((0,), (1,), 50).sum() + x[8:].sum()).backward()
    return x.grad.tolist()


def test_gradient_of_empty_views():
    assert _gradient_of_empty_views(minigrad) == [0.0] * 8


def test_live_gradient_of_empty_views():
    torch = pytest.importorskip("torch")
    assert _gradient_of_empty_views(torch) == [0.0] * 8


# ---------------------------------------------------------------------------------- 2. and 3. tensor() of what it cannot read
def _made(make):
    """The values and dtype name of ``make(T)``."""
    def fn(T):
        t = make(T)
        return t.tolist(), str(t.dtype).split(".")[-1]
    return fn


STR = ("TypeError", "new(): invalid data type 'str'")
DIMS = ("ValueError", "too many dimensions 'str'")
LONG = ("ValueError", "Overflow when unpacking long long")
HUGE = 1180591620717411303424.0  # (2 ** 70 as a float)


def _overflow(name):  # (c10's checked_convert, which names the dtype)
    return "RuntimeError", f"value cannot be converted to type {name} without overflow"


TENSOR_CASES = {
    "str": (lambda T: T.tensor("a"), STR),
    "empty_str": (lambda T: T.tensor(""), STR),
    "list_of_str": (lambda T: T.tensor(["a"]), DIMS),
    "list_of_strs": (lambda T: T.tensor(["a", "b"]), DIMS),
    "tuple_of_str": (lambda T: T.tensor(("a",)), DIMS),
    "nested_str": (lambda T: T.tensor([["a"]]), DIMS),
    "int_then_str": (lambda T: T.tensor([1, "a"]), STR),
    "str_then_int": (lambda T: T.tensor(["a", 1]), DIMS),
    "list_of_empty_str": (lambda T: T.tensor([""]), STR),
    "str_in_a_later_row": (lambda T: T.tensor([[1], ["a"]]), STR),
    "str_after_an_empty_row": (lambda T: T.tensor([[], ["a"]]), STR),
    "str_with_dtype": (lambda T: T.tensor(["a"], dtype=T.float32), DIMS),
    "tensor_then_str": (lambda T: T.tensor([T.tensor(1.0), "a"]), STR),
    "str_then_tensor": (lambda T: T.tensor(["a", T.tensor(1.0)]), DIMS),
    "bytes": (lambda T: T.tensor(b"a"), ("TypeError", "new(): invalid data type 'bytes'")),
    "list_of_bytes": (lambda T: T.tensor([b"a"]), ("TypeError", "new(): invalid data type 'bytes'")),
    "bytes_with_dtype": (lambda T: T.tensor([b"ab"], dtype=T.float32), ("ok", ([[97.0, 98.0]], "float32"))),
    "none": (lambda T: T.tensor(None), ("RuntimeError", "Could not infer dtype of NoneType")),
    "list_of_none": (lambda T: T.tensor([None]), ("RuntimeError", "Could not infer dtype of NoneType")),
    "int_then_none": (lambda T: T.tensor([1, None]), ("RuntimeError", "Could not infer dtype of NoneType")),
    "none_in_a_later_row": (lambda T: T.tensor([[1], [None]]), ("RuntimeError", "Could not infer dtype of NoneType")),
    "none_with_float_dtype": (lambda T: T.tensor([None], dtype=T.float32),
                              ("TypeError", "must be real number, not NoneType")),
    "none_with_int_dtype": (lambda T: T.tensor([None], dtype=T.int64),
                            ("TypeError", "'NoneType' object cannot be interpreted as an integer")),
    "none_with_bool_dtype": (lambda T: T.tensor([None], dtype=T.bool),
                             ("TypeError", "'NoneType' object cannot be interpreted as an integer")),
    "str_with_float_dtype": (lambda T: T.tensor([1, "a"], dtype=T.float32), ("TypeError", "must be real number, not str")),
    "object": (lambda T: T.tensor(object()), ("RuntimeError", "Could not infer dtype of object")),
    "list_of_object": (lambda T: T.tensor([object()]), ("RuntimeError", "Could not infer dtype of object")),
    "object_with_dtype": (lambda T: T.tensor([object()], dtype=T.float32), ("TypeError", "must be real number, not object")),
    "list_of_dict": (lambda T: T.tensor([{}]), ("RuntimeError", "Could not infer dtype of dict")),
    "rows_of_uneven_length": (lambda T: T.tensor([[1], [1, 2]]), ("ValueError", "expected sequence of length 1 at dim 1 (got 2)")),
    "rows_too_short": (lambda T: T.tensor([[1, 2], [1]]), ("ValueError", "expected sequence of length 2 at dim 1 (got 1)")),
    "number_where_a_row_is": (lambda T: T.tensor([[1], 2]), ("TypeError", "not a sequence")),
    "huge_int": (lambda T: T.tensor([2 ** 70]), LONG),
    "huge_int_alone": (lambda T: T.tensor(2 ** 70), LONG),
    "int_2_63": (lambda T: T.tensor([2 ** 63]), LONG),
    "int_2_63_alone": (lambda T: T.tensor(2 ** 63), LONG),
    "int_min": (lambda T: T.tensor([-2 ** 63]), ("ok", ([-2 ** 63], "int64"))),
    "below_int_min": (lambda T: T.tensor([-2 ** 63 - 1]), LONG),
    "huge_int_and_float": (lambda T: T.tensor([2 ** 70, 1.5]), ("ok", ([HUGE, 1.5], "float32"))),
    "int_2_63_and_float": (lambda T: T.tensor([2 ** 63, 1.5]), ("ok", ([9.223372036854776e18, 1.5], "float32"))),
    "int_2_63_as_float": (lambda T: T.tensor([2 ** 63], dtype=T.float64), ("ok", ([9.223372036854776e18], "float64"))),
    "huge_int_as_int32": (lambda T: T.tensor([2 ** 70], dtype=T.int32), LONG),
    "huge_int_as_uint8": (lambda T: T.tensor([2 ** 70], dtype=T.uint8), LONG),
    "huge_int_as_bool": (lambda T: T.tensor([2 ** 70], dtype=T.bool), ("ok", ([True], "bool"))),
    "huge_int_as_float16": (lambda T: T.tensor([2 ** 70], dtype=T.float16), ("ok", ([float("inf")], "float16"))),
    "too_big_for_float16": (lambda T: T.tensor([70000.0], dtype=T.float16), ("ok", ([float("inf")], "float16"))),
    "too_big_for_a_float": (lambda T: T.tensor([2 ** 2000], dtype=T.float32), ("OverflowError", "int too large to convert to float")),
    "tensor_and_huge_int": (lambda T: T.tensor([T.tensor(1.0), 2 ** 70]), ("ok", ([1.0, HUGE], "float32"))),
    "float64_tensor_and_huge_int": (lambda T: T.tensor([T.tensor(1.0, dtype=T.float64), 2 ** 70]),
                                    ("ok", ([1.0, HUGE], "float64"))),
    "float16_tensor_and_huge_int": (lambda T: T.tensor([T.tensor(1.0, dtype=T.float16), 2 ** 70]),
                                    ("ok", ([1.0, float("inf")], "float16"))),
    "int_tensor_and_huge_int": (lambda T: T.tensor([T.tensor(1), 2 ** 70]), LONG),
    "huge_int_then_int_tensor": (lambda T: T.tensor([2 ** 70, T.tensor(1)]), LONG),
    "bool_tensor_and_huge_int": (lambda T: T.tensor([T.tensor(True), 2 ** 70]), LONG),
    "int_tensor_and_2_63": (lambda T: T.tensor([T.tensor(1), 2 ** 63]), LONG),
    "tensor_and_huge_int_in_rows": (lambda T: T.tensor([[T.tensor(1.0)], [2 ** 70]]), ("ok", ([[1.0], [HUGE]], "float32"))),
    "tensor_and_too_big_for_a_float": (lambda T: T.tensor([T.tensor(1.0), 2 ** 2000]),
                                       ("OverflowError", "int too large to convert to float")),
    "int_tensor_and_huge_int_as_float": (lambda T: T.tensor([T.tensor(1), 2 ** 70], dtype=T.float32),
                                         ("ok", ([1.0, HUGE], "float32"))),
    "int_past_int32": (lambda T: T.tensor([2 ** 40], dtype=T.int32), _overflow("int32")),
    "int_past_int32_alone": (lambda T: T.tensor(2 ** 40, dtype=T.int32), _overflow("int32")),
    "int_past_uint8": (lambda T: T.tensor([300], dtype=T.uint8), _overflow("uint8")),
    "minus_one_as_uint8": (lambda T: T.tensor([-1], dtype=T.uint8), ("ok", ([255], "uint8"))),
    "minus_255_as_uint8": (lambda T: T.tensor([-255], dtype=T.uint8), ("ok", ([1], "uint8"))),
    "minus_256_as_uint8": (lambda T: T.tensor([-256], dtype=T.uint8), _overflow("uint8")),
    "negative_float_as_uint8": (lambda T: T.tensor([-3.0, 2], dtype=T.uint8), _overflow("uint8")),
    "int_past_int8": (lambda T: T.tensor([200], dtype=T.int8), _overflow("int8")),
    "int_past_int16": (lambda T: T.tensor([-40000], dtype=T.int16), _overflow("int16")),
    "int8_limits": (lambda T: T.tensor([[-128, 127]], dtype=T.int8), ("ok", ([[-128, 127]], "int8"))),
    "float_past_int32": (lambda T: T.tensor([1e10], dtype=T.int32), _overflow("int32")),
    "float_past_int64": (lambda T: T.tensor([1e30], dtype=T.int64), _overflow("int64")),
    "float_past_uint8": (lambda T: T.tensor([300.5], dtype=T.uint8), _overflow("uint8")),
    "inf_as_int32": (lambda T: T.tensor([float("inf")], dtype=T.int32), _overflow("int32")),
    "nan_as_int64": (lambda T: T.tensor([float("nan")], dtype=T.int64), _overflow("int64")),
    "float_cut_to_int": (lambda T: T.tensor([2.5], dtype=T.int64), ("ok", ([2], "int64"))),
    "tensor_and_int_past_int32": (lambda T: T.tensor([T.tensor(1), 2 ** 40], dtype=T.int32), _overflow("int32")),
    "tensor_past_int8": (lambda T: T.tensor([T.tensor(300), 1], dtype=T.int8), _overflow("int8")),
    "negative_tensor_as_uint8": (lambda T: T.tensor([T.tensor(-1), 1], dtype=T.uint8), ("ok", ([255, 1], "uint8"))),
    "big_ints_as_bool": (lambda T: T.tensor([300, 0], dtype=T.bool), ("ok", ([True, False], "bool"))),
    "FloatTensor_of_str": (lambda T: T.FloatTensor(["a"]), DIMS),
    "FloatTensor_of_none": (lambda T: T.FloatTensor([None]), ("TypeError", "must be real number, not NoneType")),
    "LongTensor_of_huge_int": (lambda T: T.LongTensor([2 ** 70]), LONG),
    "ByteTensor_past_uint8": (lambda T: T.ByteTensor([300]), _overflow("uint8")),
    "new_tensor_of_str": (lambda T: T.ones(1).new_tensor(["a"]), DIMS),
    "new_tensor_of_huge_int": (lambda T: T.ones(1).new_tensor([2 ** 70]), ("ok", ([HUGE], "float32"))),
    "asarray_of_str": (lambda T: T.asarray(["a"]), DIMS),
    "asarray_of_huge_int_and_float": (lambda T: T.asarray([2 ** 70, 1.0]), ("ok", ([HUGE, 1.0], "float32"))),
    "as_tensor_of_str": (lambda T: T.as_tensor(["a"]), DIMS),
    "as_tensor_of_huge_int": (lambda T: T.as_tensor([2 ** 70]), LONG),
    "as_tensor_of_tensor_and_huge_int": (lambda T: T.as_tensor([T.tensor(1.0), 2 ** 70]), ("ok", ([1.0, HUGE], "float32"))),
}


@pytest.mark.parametrize("name", sorted(TENSOR_CASES))
def test_tensor_of(name):
    make, expected = TENSOR_CASES[name]
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # (no numpy warning either: PyTorch gives inf quietly)
        assert outcome(_made(make), minigrad) == expected


@pytest.mark.parametrize("name", sorted(TENSOR_CASES))
def test_live_tensor_of(name):
    torch = pytest.importorskip("torch")
    make, expected = TENSOR_CASES[name]
    assert outcome(_made(make), torch) == expected


# ---------------------------------------------------------------------------------- 4. where the warning points
def _warned_at(T, make):
    """The file name, line and text of the warnings ``make(T, t)`` gives, ``t`` a number that requires grad."""
    t = T.tensor(3.0, requires_grad=True)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        make(T, t)  # (this line is where the warning points)
    return [(w.filename, w.lineno, str(w.message).split("\n")[0]) for w in caught]


HERE = _warned_at.__code__.co_filename
SCALAR = "Converting a tensor with requires_grad=True to a scalar may lead to unexpected behavior."

WARNED_CASES = {  # (each warning points at its lambda's line, which calls minigrad)
    "list": lambda T, t: T.tensor([t, 2.0]),
    "nested": lambda T, t: T.tensor([[1.0], [t]], dtype=T.float64),
    "deeper": lambda T, t: T.tensor([[[t]]]),
    "new_tensor": lambda T, t: T.ones(1).new_tensor([[t]]),
    "as_tensor": lambda T, t: T.as_tensor([t]),
}


@pytest.mark.parametrize("name", sorted(WARNED_CASES))
def test_scalar_warning_points_at_the_caller(name):
    from minigrad._core import tensor_base
    from minigrad.tensor import SCALAR_OF_GRAD
    tensor_base._warned.discard(SCALAR_OF_GRAD)  # (it warns once a process, as PyTorch does)
    make = WARNED_CASES[name]
    assert _warned_at(minigrad, make) == [(HERE, make.__code__.co_firstlineno, SCALAR)]


def test_live_scalar_warning_points_at_the_caller():
    torch = pytest.importorskip("torch")  # (PyTorch warns once a process: only if no test before made it warn)
    make = WARNED_CASES["list"]
    assert _warned_at(torch, make) in ([(HERE, make.__code__.co_firstlineno, SCALAR)], [])
