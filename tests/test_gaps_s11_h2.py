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
