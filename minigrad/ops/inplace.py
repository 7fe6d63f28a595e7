"""In-place ops (``add_``, ``mul_``, ``zero_``, ``x[i] = v``, ``p -= lr * g`` ...).

Under ``no_grad`` (optimizer steps) an in-place op just overwrites the numbers and bumps the
version counter.  With grad mode on, PyTorch records it in the graph: the tensor's ``grad_fn``
becomes the in-place op's node (``AddBackward0`` for ``add_``).  minigrad does the same by running
the out-of-place op on a snapshot of the old values and then moving the result into the tensor.

What PyTorch forbids, minigrad forbids with the same words: in-place changes to a leaf that
requires grad while recording.  An in-place change of a *view* also changes its base, so, as in
PyTorch, the base's history gets a ``CopySlices`` node (the op applied to the viewed part), and
every view of that base gets a new node onto it (``AsStridedBackward0``) the next time its
``grad_fn`` is read.
"""
import re
import warnings
import weakref

import numpy as np

from .._dtype import can_cast, is_expandable_to
from ..autograd import anomaly_mode, grad_mode, inference
from ..devices import contiguous_format
from ..autograd.function import FREED_MSG, Node, SavedTensor, edge_of, next_sequence_nr, rebase_history
from .dispatch import kernel_mode, Op
from .._core.tensor_base import _TYPE_NAMES, C_NAMES, TensorBase as Tensor
from ._fast import update_in_place
from .._core.layout import cast, dense, empty_strided
from ._util import alpha_check, check_not_bool, view_of
from .promotion import broadcast_shape, result_type
from . import zerotensor
from .elementwise import Add, Clamp, ClampMax, ClampMin, Clone, CopyFrom, Div, Mul, Sub

_UFUNCS = {Add: np.add, Sub: np.subtract, Mul: np.multiply, Div: np.true_divide}  # (for update_in_place)


def _bump_version(t):
    """One more in-place change of ``t`` (PyTorch: ``increment_version``).  A tensor made in inference mode
    has no version to bump: outside inference mode PyTorch raises here, after the values were written."""
    inference.check_outside(t, inference.INPLACE_MSG)
    t._vc[0] += 1


def inplace(t, fn, *args):
    """``t.add_(x)`` and friends: ``t`` takes the values of ``fn(t, *args)``, and its place in the graph."""
    if _plain_update(t, fn, args):  # the common case, straight through: learners' `p.data += -lr * p.grad`
        update_in_place(t._data, _UFUNCS[fn], args[0]._data, *args[1:])
        _bump_version(t)
        return t
    recording = grad_mode.is_grad_enabled() and (
        t.requires_grad or any(isinstance(a, Tensor) and a.requires_grad for a in args))
    base = t._base
    if recording:
        check_inplace(t)
    args, shared = _check_write(t, fn, args)  # ZeroTensor, memory shared within t, the operands
    if not recording:  # under no_grad (an optimizer step) or without gradients: only the numbers change
        _set_values(t, fn, args, shared)
        _bump_version(t)
        return t

    snapshot = Tensor(cast(t._data))  # the old values (laid out as t: PyTorch's clone), with the old place in the graph
    snapshot.grad_fn, snapshot._output_nr, snapshot._requires_grad = t.grad_fn, t._output_nr, t.requires_grad
    out = fn.apply(snapshot, *args)
    _save_old_values_as_clone(out, snapshot)
    _write(t, out, fn, args)
    _bump_version(t)
    _saved_output_is_now(out, t)
    if base is None:
        rebase_history(t, out.grad_fn)
    else:  # the base changed too: its history gets CopySlices, and the view is seen anew from it
        _rebase_view(base, t, out)
    return t


def _plain_update(t, fn, args):
    """Is ``t.add_(other)`` (``sub_``, ``mul_``, ``div_``; an ``alpha`` number) a plain update that none of the
    checks below can refuse: nothing to record, ``other`` a tensor of ``t``'s float dtype and shape, neither a
    ZeroTensor, ``t`` row-major and writable, and no memory shared between them?"""
    if fn not in _UFUNCS or not (len(args) == 1 or len(args) == 2 and type(args[1]) in (int, float)):
        return False
    other = args[0]
    if not isinstance(other, Tensor) or t._zerotensor or other._zerotensor:
        return False
    x, y = t._data, other._data
    if x.dtype != y.dtype or x.dtype.kind != "f" or x.shape != y.shape:
        return False
    if not (x.flags.c_contiguous and x.flags.writeable):
        return False
    if grad_mode.state.enabled and (t.requires_grad or other.requires_grad):
        return False
    return not np.may_share_memory(x, y)


def _check_write(t, fn, args):
    """PyTorch's checks before an in-place op writes into ``t``, in its order. Returns the operands (a ZeroTensor
    among them as ordinary zeros) and whether some elements of ``t`` are one place in memory (``t`` is expanded)."""
    zerotensor.check_writable(t, copy=fn is CopyFrom)
    args = zerotensor.materialized(args)  # (a ZeroTensor operand counts as ordinary zeros)
    if hasattr(fn, "check_in_place_arguments"):  # (cumsum_'s dim and dtype: before the memory is looked at)
        fn.check_in_place_arguments(t, *args)
    if fn is Sub:  # (before the operands' shapes: PyTorch refuses bools first)
        check_not_bool(t, args[0], "Subtraction")
    shared = has_internal_overlap(t._data)  # an expanded tensor: some of its elements are one place in memory
    how = _expanded_write(fn)
    if shared and how in (None, "triangle") and not (how == "triangle" and _triangle_in_place(t._data)):
        raise RuntimeError(SHARED_PLACE)  # (then the operands, as in PyTorch)
    if shared and how in _INDEX_PUTS:  # (they warn first, then check their operands)
        _warn_expanded(fn, args)
    for other in args:  # (after those checks, as in PyTorch, where the kernel checks its operands)
        # (x[key] = value: IndexPut checks; fill_ reads its 0-dim value as a number first: x.fill_(x[0]) is fine)
        if isinstance(other, Tensor) and not getattr(fn, "indexed", False) and _expanded_write(fn) != "fill":
            _check_operand(t, other)
    if fn in (Add, Sub) and len(args) > 1:  # add_(other, alpha=...)
        _check_alpha_in_place(t, args[0], args[1])
    return args, shared


def _save_old_values_as_clone(out, snapshot):
    """Where the op's node saved the old values, PyTorch saves a recorded clone of them (``original_self``: a
    ``CloneBackward0`` node), so that the write into ``t`` does not change them."""
    for s in out.grad_fn._saved:
        if s is not None and s.tensor is snapshot and s.packed is None:
            s.tensor = Clone.apply(snapshot)
            s.vc, s.version = s.tensor._vc, s.tensor._vc[0]


def _saved_output_is_now(out, t):
    """The op's output is now ``t``: what its node saved of it is ``t``'s numbers and version counter, and the
    gradient it takes is of ``t``'s dtype (a comparison written into a float ``t``: PyTorch's input metadata)."""
    out.grad_fn._output_meta = ((t._data.shape, t._data.dtype),)
    for s in out.grad_fn._saved:
        if s is not None and s.tensor is None and s.data is out._data:
            s.vc, s.version, s.data = t._vc, t._vc[0], t._data


def _rebase_view(base, view, out):
    """``view`` was changed in place, so its base changed too: the base's history gets ``CopySlices``, and the view a
    new node onto it (which PyTorch keeps with the saved output, weakly)."""
    rebase_history(base, CopySlices(base, out.grad_fn, view))
    view._requires_grad = True
    inplace_view_refresh(view)
    for s in out.grad_fn._saved:
        if s is not None and s.tensor is None and s.data is view._data:
            s.view_node, s.output_nr = weakref.ref(view._grad_fn), 0


def _check_alpha_in_place(t, other, alpha):
    """``t.add_(other, alpha=...)``: PyTorch's ``alpha_check`` on the dtype of ``t + other``, once that dtype was found
    to fit ``t`` (its TensorIterator refuses a result that does not fit first: ``check_fits`` raises that later)."""
    if type(alpha) is int or (type(alpha) is float and t._data.dtype.kind == "f"):
        return  # (any dtype takes an integer alpha, a float result a float one: an optimizer's p.add_(g, alpha=-lr))
    dtype = result_type(t, other)
    if can_cast(dtype.numpy, t._data.dtype):
        alpha_check(dtype, alpha)


def check_inplace(t):
    """PyTorch's ``check_inplace``: what may not be changed in place while the change is recorded."""
    if t._base is not None and t._creation_meta != "default":
        raise RuntimeError(view_rebase_message(t, indirect=False))
    if t._base is not None and t._base.requires_grad and t._base.grad_fn is None:
        raise RuntimeError("a view of a leaf Variable that requires grad is being used in an in-place operation.")
    # (PyTorch asks the C++ is_leaf, which reads the stored grad_fn: a view made before its base got a history is
    # still a leaf here until its grad_fn is read or it is used by an op)
    if t.requires_grad and t._grad_fn is None:
        raise RuntimeError("a leaf Variable that requires grad is being used in an in-place operation.")


def inplace_view(t, fn, *args):
    """``t.unsqueeze_(0)``, ``t.t_()``, ``t.squeeze_()``, ``t.transpose_(0, 1)``: ``t`` itself takes the shape and
    strides of the view ``fn`` makes (its memory does not change). PyTorch records the view op's node
    (``UnsqueezeBackward1``...) as ``t``'s own history, leaves a base alone, and bumps the version."""
    recording = grad_mode.is_grad_enabled() and t.requires_grad
    if recording:
        check_inplace(t)
    out = fn.apply(t, *args)
    t._data = out._data
    _bump_version(t)
    if recording:
        t.grad_fn, t._output_nr = out._grad_fn, 0
    return t


OVERLAP = ("unsupported operation: some elements of the input tensor and the written-to tensor refer to a single "
           "memory location. Please clone() the tensor before performing the operation.")


def _check_operand(t, other):
    """PyTorch's checks of a tensor operand of an in-place op (its TensorIterator), in its order:
    first that the operand does not partly overlap the written-to tensor, then the shapes."""
    if _partial_overlap(t._data, other._data):
        raise RuntimeError(OVERLAP)
    if t._data.shape != other._data.shape:
        shape = broadcast_shape(t, other)  # "The size of tensor a (3) must match the size of tensor b (4) ..."
        if shape != t._data.shape:
            raise RuntimeError(f"output with shape {list(t._data.shape)} doesn't match the broadcast shape {list(shape)}")


def overlaps(a, b):
    """PyTorch's ``get_overlap_status(a, b)`` is Full or Partial (``assert_no_overlap`` refuses both): both arrays
    are dense and their memory ranges meet.  An expanded array is "too hard" to judge, and passes."""
    if a is b:
        return True
    if a.size == 0 or b.size == 0 or not np.may_share_memory(a, b) or not (dense(a) and dense(b)):
        return False
    a_begin, b_begin = a.__array_interface__["data"][0], b.__array_interface__["data"][0]
    return a_begin < b_begin + b.nbytes and b_begin < a_begin + a.nbytes


def _partial_overlap(a, b):
    """PyTorch's ``get_overlap_status(a, b) == Partial``: both arrays are dense (no gaps, no repeats) and their
    memory ranges meet, without being the same elements in the same places (``x.add_(x)`` is fine).
    An expanded operand is "too hard" for PyTorch to judge, so it is not refused here."""
    if a is b or not overlaps(a, b):
        return False
    same_range = a.__array_interface__["data"][0] == b.__array_interface__["data"][0] and a.nbytes == b.nbytes
    return not same_range or a.strides != b.strides  # (the same range with the same strides: Full, not Partial)


class CopySlices(Node):
    """The base's node after an in-place op on one of its views (PyTorch: ``CopySlices``).

    Its edges: the base's old history, then the op's other inputs.  Backward, as PyTorch's
    ``CopySlices::apply``: copy the gradient into a new tensor laid out like the base, run the op's
    own backward (``fn``) on the part where the view was, and write what it returns for the old
    values back into that part; the rest of the base passes its gradient unchanged.  With
    ``create_graph=True`` these steps are recorded, so the gradient's graph is PyTorch's too
    (``CopySlices`` again, over the op's backward).
    """

    def name(self):
        return "minigrad::autograd::CopySlices"  # (PyTorch's: torch::autograd::CopySlices, a C++ node)

    def __init__(self, base, fn, view):
        self.next_functions = (edge_of(base),) + fn.next_functions[1:]
        self._sequence_nr = next_sequence_nr()
        if anomaly_mode.state.enabled:  # (as every node: see autograd/anomaly_mode.py)
            anomaly_mode.store_stack(self)
        self.fn = fn
        self.base_shape, self.base_strides = base._data.shape, base._data.strides
        self._output_meta = ((base._data.shape, base._data.dtype),)  # (the gradient it takes: the base's)
        self.view_geometry = geometry_of(view, base)  # (view.sizes(), strides(), storage offset)

    def apply(self, grad):
        if self.fn is None:
            raise RuntimeError(FREED_MSG)
        if grad is None:
            return [None] * len(self.next_functions)
        result = Tensor(empty_strided(self.base_shape, self.base_strides, grad._data.dtype))
        result.copy_(grad)
        grad_slice = AsStrided.apply(result, self.view_geometry)  # where the view was
        grads = list(self.fn.apply(grad_slice.clone(memory_format=contiguous_format)))  # the op's backward there
        if grads[0] is not None:  # (a None from a custom Function: PyTorch gives the base no gradient at all)
            grad_slice.copy_(grads[0])  # written into result
            grads[0] = result
        return grads

    def _release_saved(self):  # (PyTorch drops the op's node, fn = nullptr: a second backward raises)
        self.fn = None


def view_rebase_message(view, indirect):
    """PyTorch's refusal (``handle_view_on_rebase``) to give a new history to a view that cannot take one: a piece
    of ``split``/``chunk``/``unbind`` (its node stands for all the pieces at once), or a view made in no_grad or
    inference mode (its history was not recorded: whether the in-place change should be is ambiguous).
    ``indirect``: the base or another view of it was changed, not this view."""
    meta, node = view._creation_meta, view._grad_fn
    what = "its base or another view of its base has been" if indirect else "is being"
    name = None if node is None else re.sub(r"Backward(0$)?", "", node.name())
    if meta in ("no_grad", "inference") or node is None:
        start = (f"Output {view._output_nr} of {name} is a view of a view which was created in" if node is not None
                 else "A view was created in")
        start += (f" inference mode and {what} modified inplace in normal mode." if meta == "inference" else
                  f" no_grad mode and {what} modified inplace with grad mode enabled.")
    else:
        start = f"Output {view._output_nr} of {name} is a view and {what} modified inplace."
    if meta == "multi_output":
        return start + (" This view is the output of a function that returns multiple views. Such functions do not "
                        "allow the output views to be modified inplace. You should replace the inplace operation by an "
                        "out-of-place one.")
    mode = "inference_mode" if meta == "inference" else "no_grad"
    return start + (" Given that this use case is ambiguous and error-prone, it is forbidden. You can clarify your code "
                    f"by moving both the view and the inplace either both inside the {mode} block (if you don't want "
                    "the inplace to be tracked) or both outside (if you want the inplace to be tracked).")


def inplace_view_refresh(view):
    """Give ``view`` a node onto its base's present history (PyTorch regenerates a view's grad_fn so).
    A view of a base that requires grad requires grad too, even if the base only got a history by
    the in-place change (``view = x[1:]; x.add_(w)``)."""
    base = view._base
    # PyTorch (VariableHooks::grad_fn): a view with no node whose base does not require grad is left
    # alone; otherwise a view made in no_grad mode or a piece of split/chunk/unbind cannot be given a new node
    # (handle_view_on_rebase), even when the change was made under no_grad
    if view._creation_meta != "default" and (view._grad_fn is not None or base.requires_grad):
        raise RuntimeError(view_rebase_message(view, indirect=True))
    if base.requires_grad:
        with grad_mode.enable_grad():
            out = AsStrided.apply(base, geometry_of(view, base))
        rebase_history(view, out.grad_fn)
    view._view_version = view._vc[0]


def geometry_of(view, base):
    """``view``'s sizes, strides and storage offset in elements, counted from ``base``'s first element (the two
    share memory; PyTorch's strides are never negative)."""
    itemsize = base._data.itemsize
    offset = view._data.__array_interface__["data"][0] - base._data.__array_interface__["data"][0]
    return view._data.shape, tuple(s // itemsize for s in view._data.strides), offset // itemsize


class AsStrided(Op):
    """``base.as_strided(sizes, strides, offset)``, the geometry in elements from ``base``'s first element: a view
    (PyTorch: ``AsStridedBackward0``).  A view whose base was changed in place gets this node onto the base's new
    history (``inplace_view_refresh``); ``CopySlices`` finds the viewed part of a gradient with it."""
    node_name = "AsStridedBackward0"
    saved_names = {"size": "size", "stride": "stride", "storage_offset": "storage_offset"}  # (grad_fn._saved_*)

    @staticmethod
    def forward(ctx, base, geometry):
        ctx.geometry, ctx.base_geometry = geometry, geometry_of(base, base)
        sizes, strides, offset = ctx.size, ctx.stride, ctx.storage_offset = geometry
        x = base._data
        if x.size == 0 or 0 in sizes:
            return view_of(base, np.empty(sizes, x.dtype))
        memory = np.lib.stride_tricks.as_strided(x, (offset + 1,), (x.itemsize,))  # from the first element on
        return view_of(base, np.lib.stride_tricks.as_strided(memory[offset:], sizes,
                                                                   tuple(n * x.itemsize for n in strides)))

    @staticmethod
    def backward(ctx, grad):
        return as_strided_backward(grad, ctx.base_geometry, ctx.geometry), None


def as_strided_backward(grad, input_geometry, geometry):
    """PyTorch's ``as_strided_backward``, step by step (its ops are recorded under ``create_graph``, as PyTorch's):
    the gradient's dims of size 1 are squeezed and its dims of stride 0 (repeated places) summed; it is written into
    a fresh 1-d "storage" at the view's places (added, where the view's elements share places); where the input's own
    elements share places, each place is divided by how often the input sees it; the input's geometry reads it back."""
    (in_sizes, in_strides, in_offset), (sizes, strides, offset) = input_geometry, geometry
    out_dims = []  # the (size, stride) of the dims left
    for i in reversed(range(len(sizes))):
        if sizes[i] == 0:
            return grad.new_zeros(in_sizes)
        if sizes[i] == 1:
            grad = grad.squeeze(i)
        elif strides[i] == 0:
            grad = grad.sum(i)
        else:
            out_dims.insert(0, (sizes[i], strides[i]))
    if 0 in in_sizes:
        return grad.new_zeros(in_sizes)
    in_dims = [(n, s) for n, s in zip(in_sizes, in_strides) if n != 1]
    shared = min(in_offset, offset)  # (the storage starts at the first place either of them uses)
    in_offset, offset = in_offset - shared, offset - shared
    size = max(_storage_size(in_dims, in_offset), _storage_size(out_dims, offset))
    storage = grad.new_zeros(size)
    out_geometry = tuple(n for n, _ in out_dims), tuple(s for _, s in out_dims), offset
    if _may_overlap(out_dims):  # (then storage.index_add_ of the gradient at the places, which adds up repeats)
        places = AsStrided.apply(Tensor(np.arange(size)), out_geometry)
        storage.index_add_(0, places.reshape(-1), grad.reshape(-1))
    else:
        AsStrided.apply(storage, out_geometry).copy_(grad)
    if _may_overlap(in_dims):
        seen = np.zeros(size, storage._data.dtype)
        places = AsStrided.apply(Tensor(np.arange(size)), ([n for n, _ in in_dims], [s for _, s in in_dims], in_offset))
        np.add.at(seen, places._data.reshape(-1), 1)
        storage.div_(Tensor(seen))  # (nan where the input sees nothing: never read back)
    return AsStrided.apply(storage, (in_sizes, in_strides, in_offset))


def _storage_size(dims, offset):
    """The storage a geometry needs (PyTorch's ``_min_storage_size``)."""
    return offset + 1 + sum((n - 1) * s for n, s in dims)


def _may_overlap(dims):
    """Can two elements of this geometry share a place (PyTorch's ``_maybe_overlapping_memory``)?  Going through
    the dims from the smallest stride, each stride must step past everything the smaller dims reach."""
    reach = 0
    for n, s in sorted(dims, key=lambda d: d[1]):
        if s <= reach:
            return True
        reach += s * (n - 1)
    return False


def _set_values(t, fn, args, shared):
    """Write ``fn(t, *args)`` into ``t`` without recording anything (``shared``: ``t`` is an expanded tensor)."""
    other = args[0] if args else None
    if (isinstance(other, Tensor) and is_expandable_to(other._data.shape, t._data.shape) and t._data.flags.writeable
            and not shared):
        if fn is CopyFrom:
            np.copyto(t._data, other._data, casting="unsafe")
            return
        if fn in _UFUNCS and t._data.dtype.kind == "f":
            update_in_place(t._data, _UFUNCS[fn], other._data, *args[1:])
            return
    with grad_mode.no_grad():
        out = fn.apply(t, *args)
    _write(t, out, fn, args)


def _write(t, out, fn, args):
    check_fits(t, out, fn, args)
    if out._data.shape != t._data.shape:
        raise RuntimeError(f"output with shape {list(t._data.shape)} doesn't match the broadcast shape "
                           f"{list(out._data.shape)}")
    if not t._data.flags.writeable:
        raise RuntimeError(SHARED_PLACE)
    if has_internal_overlap(t._data):
        _write_expanded(t, out, fn, args)
    else:
        np.copyto(t._data, out._data, casting="unsafe")


SHARED_PLACE = ("unsupported operation: more than one element of the written-to tensor refers to a single memory "
                "location. Please clone() the tensor before performing the operation.")
EXPANDED_WRITE = ("Use of {op} on expanded tensors is deprecated. Please clone() the tensor before performing this "
                  "operation. This also applies to advanced indexing e.g. {example} (Triggered internally at "
                  "/__w/pytorch/pytorch/aten/src/ATen/native/TensorAdvancedIndexing.cpp:{line}.)")


def has_internal_overlap(a):
    """PyTorch's ``has_internal_overlap(t) == YES``: a dim of stride 0 and more than one element, as in
    ``x.expand(3, 4)``, where the three rows are one row of ``x`` in memory.  (A tensor without elements
    shares nothing.)"""
    return a.size > 0 and any(stride == 0 and size > 1 for size, stride in zip(a.shape, a.strides))


# The in-place ops PyTorch lets write into an expanded tensor say how, in their class attribute expanded_write (see
# _write_expanded): "fill" (fill_, zero_), "same_place" (threshold_'s kernel does not check: each place gets its own
# new value), "index_put", "index_put_accumulate", "masked_fill" and "index_fill" (with a warning), "triangle" (tril_,
# triu_).
_INDEX_PUTS = ("index_put", "index_put_accumulate", "masked_fill", "index_fill")


def _expanded_write(fn):
    return getattr(fn, "expanded_write", None)


def _triangle_in_place(a):
    """Does PyTorch's ``tril_``/``triu_`` write straight into ``a`` (``checkTrilTriuBatchContiguous``)?  It
    does for up to 3 dims, and where the batch dims are laid out one matrix after the other (the first may
    repeat); otherwise it computes into a contiguous copy and ``copy_``s it back, which refuses shared places."""
    if a.ndim <= 3:
        return True
    expected = a.shape[-1] * a.shape[-2] * a.itemsize
    for i in range(a.ndim - 3, -1, -1):
        if i == 0 and (a.strides[0] == 0 or a.shape[0] == 1):
            continue
        if a.strides[i] != expected:
            return False
        expected *= a.shape[i]
    return True


def _write_expanded(t, out, fn, args):
    """Write into a tensor whose elements share places in memory, as PyTorch does: ``fill_`` and ``zero_``
    write one value everywhere; ``index_put_`` and ``masked_fill_`` (``x[key] = v`` with a list, tensor or
    mask) write the places they pick (``inplace`` warned that this is deprecated); ``tril_``/``triu_`` zero
    every place outside the triangle; ``threshold_`` writes each place from its own old value.  (Every other op refused before it began: ``inplace``.)"""
    how = _expanded_write(fn)
    if how in ("fill", "same_place"):
        np.copyto(t._data, out._data, casting="unsafe")
        return
    if how == "triangle":  # zeros into every place outside the triangle, whichever element it belongs to
        keep = fn.numpy_fn(np.ones(t._data.shape[-2:], bool), args[0])
        t._data[~np.broadcast_to(keep, t._data.shape)] = 0
        return
    if how == "index_fill":  # the slices picked along dim, and every place they share
        np.copyto(t._data, out._data, casting="unsafe", where=fn.filled_places(t, args[0], args[1]))
        return
    key, value = fn.key_numbers(args[0]), args[1]
    if how == "index_put_accumulate":  # every indexed element adds its value, into shared places too
        with kernel_mode():  # (numpy quiet about inf and nan, as PyTorch's kernels)
            np.add.at(t._data, key, value._data)
        return
    if how == "index_put":  # one index after the other: where two share a place, the last stays
        t._data[key] = value._data.astype(t._data.dtype)
        return
    np.copyto(t._data, out._data, casting="unsafe", where=np.broadcast_to(key, t._data.shape))  # masked_fill_


def _warn_expanded(fn, args):
    """``index_put_``, ``masked_fill_`` and ``index_fill_`` into an expanded tensor: PyTorch warns that it is
    deprecated."""
    if _expanded_write(fn) == "index_fill":
        warnings.warn(EXPANDED_WRITE.format(op="index_fill_", example="tensor[mask] = scalar", line=1913),
                      UserWarning, stacklevel=6)
        return
    key, value = fn.key_numbers(args[0]), args[1]
    keys = key if isinstance(key, tuple) else (key,)
    masked = _expanded_write(fn) == "masked_fill"
    if not masked:
        warnings.warn(EXPANDED_WRITE.format(op="index_put_", example="tensor[indices] = tensor", line=976),
                      UserWarning, stacklevel=6)
    if masked or (len(keys) == 1 and np.asarray(keys[0]).dtype == bool and value._data.size == 1):
        warnings.warn(EXPANDED_WRITE.format(op="masked_fill_", example="tensor[mask] = scalar", line=2450),
                      UserWarning, stacklevel=6)  # (x[mask] = number is index_put_ filling: both warn)


# how PyTorch's clamp_ with a number bound names the integer types (C++'s names)
def check_fits(t, out, fn=None, args=()):
    """An in-place op keeps ``t``'s dtype, so its result must fit in it, as PyTorch checks: no floating-point
    result into an integer tensor (``long_tensor.add_(1.5)``), nothing but bools into a bool tensor.
    (``copy_``, ``fill_`` and ``x[i] = v`` convert the value to ``t``'s dtype first, so they always fit;
    ``out=`` follows the same rule.)"""
    have, want = out._data.dtype, t._data.dtype
    if can_cast(have, want):
        return
    name = _TYPE_NAMES[want.name]
    if fn in (Clamp, ClampMin, ClampMax) and any(isinstance(a, (int, float)) for a in args):
        name = C_NAMES[want.name]  # (clamp_ with a number takes another path inside PyTorch)
    raise RuntimeError(f"result type {_TYPE_NAMES[have.name]} can't be cast to the desired output type {name}")
