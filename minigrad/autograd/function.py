"""Nodes of the backward graph, and ``Function``: how an operation records itself.

Every differentiable operation in minigrad -- ``x + y`` as much as your own ``MMFunction`` -- is a
subclass of ``Function`` with two static methods side by side::

    class Exp(Function):
        @staticmethod
        def forward(ctx, x):                    # numbers in, numbers out (grad mode is off here)
            out = Tensor(np.exp(x._data))
            ctx.save_for_backward(out)          # keep what backward will need
            return out

        @staticmethod
        def backward(ctx, grad):                # dL/d(out) in, dL/d(input) out
            out, = ctx.saved_tensors
            return grad * out

PyTorch 2 also lets ``forward(x)`` go without ``ctx`` and a third static method,
``setup_context(ctx, inputs, output)``, save what backward needs ("Extending PyTorch" teaches both).
A backward written with numbers only can be marked ``@once_differentiable`` (at the end of this
file); tensors saved by any op can be packed and unpacked by ``autograd.graph.saved_tensors_hooks``.

``Exp.apply(x)`` runs ``forward`` and, when some input requires grad, creates a *backward node*
named ``ExpBackward`` (PyTorch builds the same class for every Function subclass: the node of a
custom ``MMFunction`` is ``MMFunctionBackward``; built-in ops choose PyTorch's names such as
``SumBackward0``).  The node is also the ``ctx`` that forward saw, so what forward saved is there
when backward runs.  The node's ``next_functions`` point at the nodes of the inputs: that is the
graph ``loss.backward()`` walks (see ``engine.py``).
"""
import functools
import inspect
import itertools
import operator
import re
import threading
import warnings
import weakref
from typing import NamedTuple

import numpy as np

from . import anomaly_mode
from . import grad_mode
from . import inference
from .inference import SAVED_MSG as INFERENCE_SAVED_MSG, InferenceCounter
from .._core import numpy_errors
from .._core.layout import dense, empty_strided, obeys_layout_contract, preserve_format_strides
from .._core.tensor_base import RemovableHandle, TensorBase as Tensor, cpp_type_name, unsigned  # (TensorBase(data) makes a Tensor)
from ..devices import contiguous_format

_sequence = itertools.count()  # creation order; the engine runs later-created nodes first


def next_sequence_nr():
    return next(_sequence)

NO_ANOMALY_HINT = ("Hint: enable anomaly detection to find the operation that failed to compute its gradient, with "
                   "minigrad.autograd.set_detect_anomaly(True, check_nan=False).")
ANOMALY_HINT = ("Hint: the backtrace further above shows the operation that failed to compute its gradient. The "
                "variable in question was changed in there or anywhere later. Good luck!")
FREED_MSG = (
    "Trying to backward through the graph a second time (or directly access saved tensors after they have "
    "already been freed). Saved intermediate values of the graph are freed when you call .backward() or "
    "autograd.grad(). Specify retain_graph=True if you need to backward through the graph a second time or if "
    "you need to access saved tensors after calling backward.")


class Node:
    """A node of the backward graph (PyTorch: ``torch::autograd::Node``).

    ``next_functions`` is a tuple with one ``(node, input_nr)`` pair per input of the forward
    operation: the node that produced that input (``AccumulateGrad`` for a leaf, ``None`` when the
    input needs no gradient) and which of that node's outputs it was.  These pairs are the edges
    of the graph; the engine follows nothing else.
    """

    next_functions = ()  # one (node, input_nr) pair per input of the forward op (set when recorded)
    # what most nodes never change is kept on the class; a node that sets one keeps its own value
    _sequence_nr = -1    # creation order, set when the node is recorded into a graph
    _num_inputs = 1      # how many gradients flow into this node (= outputs of the forward op)
    _retained = None     # {output_nr: weakref(tensor)}: outputs that called retain_grad()
    _pre_hooks = None    # {id: hook(grad_outputs)}
    _post_hooks = None   # {id: hook(grad_inputs, grad_outputs)}
    _tensor_pre_hooks = None  # {output_nr: {id: hook(grad)}}: hooks registered on output tensors
    _saved = ()          # what the node saved for backward (see BackwardNode)
    _metadata = None     # the dict behind .metadata, made on first use
    _output_meta = ()    # per output of the forward op: (shape, numpy dtype) (see input_metadata)
    _user_code = False   # True for your own Function's node: the engine runs it in your numpy error state

    def name(self):
        return type(self).__name__

    def apply(self, *grad_outputs):
        raise NotImplementedError

    def input_metadata(self, nr):
        """The ``(shape, numpy dtype)`` the gradient for input ``nr`` of this node must have (dtype None: any),
        or ``(None, None)`` when the node does not say (PyTorch: ``Node::input_metadata``)."""
        meta = self._output_meta  # (the node's inputs are the outputs of the forward op)
        return meta[nr] if nr < len(meta) else (None, None)

    def __call__(self, *grad_outputs):
        """``node(grad)``: run this node's backward by hand (PyTorch: ``Node::operator()``; the engine calls ``apply``).
        One gradient per edge: the tensor itself when there is one edge, else a tuple.  (The node of your own
        Function cannot be called, as in PyTorch.)"""
        if self._user_code:
            raise TypeError(f"'{type(self).__name__}' object is not callable")
        if len(grad_outputs) != self._num_inputs:
            raise TypeError(f"expected {self._num_inputs} arguments, got {len(grad_outputs)} instead")
        grads = self.apply(*grad_outputs)
        return grads[0] if len(grads) == 1 else tuple(grads)

    @property
    def metadata(self):
        """A dict kept with the node for your own notes; anomaly mode keeps the forward traceback in it."""
        if self._metadata is None:
            self._metadata = {}
        return self._metadata

    # hooks -----------------------------------------------------------------------------
    def _hook_dict(self, attr):
        """The dict of hooks kept in attribute ``attr``, created on first use."""
        if getattr(self, attr) is None:
            setattr(self, attr, {})
        return getattr(self, attr)

    def register_hook(self, fn):
        """``fn(grad_inputs, grad_outputs)`` runs after this node computed its gradients."""
        return RemovableHandle(self._hook_dict("_post_hooks"), fn)

    def register_prehook(self, fn):
        """``fn(grad_outputs)`` runs before this node; it may return replacement gradients."""
        return RemovableHandle(self._hook_dict("_pre_hooks"), fn)

    def _release_saved(self):
        pass

    def __repr__(self):
        return f"<{type(self).__name__} object>"


# ---- saved-tensor hooks in force (autograd/graph.py's saved_tensors_hooks pushes them) ----------------
class _HookStacks(threading.local):
    """The saved-tensor hooks in force belong to the thread, as PyTorch's (``SavedTensorDefaultHooks``)."""

    def __init__(self):
        self.hooks = []     # the saved_tensors_hooks in force, innermost last: (pack_hook, unpack_hook)
        self.disabled = []  # the messages of the disable_saved_tensors_hooks in force, innermost last


saved_hooks = _HookStacks()


class _HooksAnywhere:
    """How many saved-tensor hooks are in force in all threads together: while none are, no thread need look at its
    own stack (the dispatcher reads ``hooks_anywhere.count``)."""
    count = 0


hooks_anywhere = _HooksAnywhere()


def push_saved_hooks(pack_hook, unpack_hook):
    """``saved_tensors_hooks.__enter__``: the pair applies to what this thread saves, until ``pop_saved_hooks``."""
    saved_hooks.hooks.append((pack_hook, unpack_hook))
    hooks_anywhere.count += 1


def pop_saved_hooks():
    saved_hooks.hooks.pop()
    hooks_anywhere.count -= 1


def current_hooks():
    """The ``(pack_hook, unpack_hook)`` pair a tensor saved now gets, or None."""
    return saved_hooks.hooks[-1] if saved_hooks.hooks else None


class SavedTensor:
    """One tensor saved for backward, with the version it had when it was saved.

    PyTorch: ``SavedVariable`` (``grad_fn._raw_saved_self`` is one).  A node never keeps a strong
    reference to its own output (that would be a reference cycle output -> node -> output), so an
    output is saved as its data and rebuilt, with ``grad_fn`` set back to the node, when backward
    unpacks it.  With ``saved_tensors_hooks`` in force (see ``graph.py``) only what ``pack_hook``
    returned is kept, and ``unpack_hook`` gives the numbers back.
    """
    __slots__ = ("tensor", "data", "output_nr", "vc", "version", "__dict__")  # (what every saved tensor keeps)
    # what some keep, kept on the class until set
    hooks = packed = None  # saved_tensors_hooks: the (pack_hook, unpack_hook) pair and what pack_hook returned
    grad_fn = leaf = None  # ... and, for a packed input, where its gradient goes
    view_node = None       # an in-place op's output that is a view: a weak reference to the view's new node
    undefined = False      # PyTorch keeps an undefined SavedVariable where an op saved nothing (None)

    def __init__(self, t, node, hooks=None):
        """Save ``t`` for ``node``'s backward: the tensor, or for one of ``node``'s own outputs only its numbers."""
        if t is None:
            self.tensor = self.data = self.output_nr = self.vc = None
            self.undefined = True
            return
        check_not_inference(t)
        self.vc, self.version = t._vc, t._vc[0]  # the counter itself (shared with the tensor) and its value now
        if t._grad_fn is node:  # one of the node's own outputs: no reference back to it (no cycle)
            self.tensor, self.data, self.output_nr = None, t._data, t._output_nr
        else:
            self.tensor, self.data, self.output_nr = t, None, None
        if hooks is not None and t._wrapped_number is None:  # saved_tensors_hooks in force (not for a wrapped number)
            self._pack(hooks, t)

    def _pack(self, hooks, t):
        """Keep ``pack_hook(t)`` instead of the tensor, and where its gradient goes (PyTorch: ``set_hooks_and_pack_data``)."""
        if self.tensor is not None:  # an input: its place in the graph (an output's is the node itself)
            self.grad_fn, self.output_nr = t.grad_fn, (t._output_nr if t.grad_fn is not None else None)
            self.leaf = t if t.grad_fn is None and t._requires_grad else None
        self.hooks = hooks
        self.packed = hooks[0](t)
        self.tensor = self.data = None

    def register_hooks(self, pack_hook, unpack_hook):
        """``grad_fn._raw_saved_self.register_hooks(pack, unpack)``: hooks for this one saved tensor."""
        if self.undefined:
            raise RuntimeError("Calling register_hooks on a saved tensor with value None is forbidden")
        if self.vc is None:
            raise RuntimeError("Calling register_hooks on a saved tensor after it has been freed. Saved intermediate "
                               "values of the graph are freed when you call .backward() or autograd.grad(). Specify "
                               "retain_graph=True if you need to backward through the graph a second time or if you "
                               "need to access saved variables after calling backward.")
        if self.hooks is not None:
            raise RuntimeError("Calling register_hooks on a saved tensor whose hooks have already been set. "
                               "Hint: only one pair of hooks is allowed at a time.")
        # PyTorch packs the saved data: the tensor itself for an input, its numbers alone for an output
        self._pack((pack_hook, unpack_hook), self.tensor if self.tensor is not None else _alias(self.data, self.vc))

    @property
    def freed(self):
        return self.vc is None and not self.undefined

    def unpack(self, node):
        """The saved tensor for ``node``'s backward, if it was neither freed nor changed in place since."""
        if self.undefined:
            return None
        if self.vc is None:  # freed
            raise RuntimeError(FREED_MSG)
        if self.vc[0] != self.version:
            raise RuntimeError(self._modified_message(node))
        if self.hooks is not None:
            return self._unpack_hooked(node)
        if self.tensor is not None:
            return self.tensor
        return self._rebuilt_output(node)

    def _rebuilt_output(self, node):
        """One of ``node``'s own outputs, a new tensor on the saved numbers with ``grad_fn`` set back to ``node`` (for a
        view changed in place, to the view's new node)."""
        out = _alias(self.data, self.vc)
        maker = node if self.view_node is None else self.view_node()
        out.grad_fn, out._output_nr, out._requires_grad = maker, self.output_nr, True
        return out

    def _unpack_hooked(self, node):
        """``unpack_hook(packed)``, made a tensor of the graph again (a new one: ``is`` the saved one is False)."""
        with numpy_errors.users():  # (your hook: its numpy warnings show)
            value = self.hooks[1](self.packed)
        if not isinstance(value, Tensor):
            raise TypeError(f"Output of saved tensor unpack_hook expected to be a Tensor but got result of type "
                            f"{type(value).__name__}")
        out = _alias(value._data, self.vc)
        if self.grad_fn is not None:  # an input made by an op
            out.grad_fn, out._output_nr, out._requires_grad = self.grad_fn, self.output_nr, True
        elif self.output_nr is not None:  # the node's own output
            out.grad_fn, out._output_nr, out._requires_grad = node, self.output_nr, True
        elif self.leaf is not None:  # a leaf: gradients flow to its own AccumulateGrad
            out._requires_grad, out._grad_accumulator = True, weakref.ref(grad_accumulator(self.leaf))
        return out

    def _modified_message(self, node):
        # PyTorch names the node that made the tensor: for a saved output, the node that saved it (for a view
        # changed in place, the view's node then, while it lives); for a saved input, the tensor's grad_fn now
        # (after an in-place op, that op's node).
        t = self.tensor if self.tensor is not None else Tensor(self.data if self.data is not None else np.empty(0))
        data, kind = t._data, cpp_type_name(t)
        view_node = self.view_node() if self.view_node is not None else None
        maker, nr = (view_node or node, self.output_nr) if self.tensor is None else (t.grad_fn, t._output_nr)
        where = ""
        if maker is not None:
            # PyTorch drops "Backward" from a generated node's name, and a final 0: ExpBackward0 -> Exp,
            # MaxBackward1 -> Max1; its hand-written nodes keep theirs (minigrad::autograd::CopyBackwards)
            name = maker.name()
            where = f", which is output {nr} of {name if '::' in name else re.sub(r'Backward(0$)?', '', name)},"
        return (f"one of the variables needed for gradient computation has been modified by an inplace operation: "
                f"[{kind} {list(data.shape)}]{where} is at version {self.vc[0]}; expected version {self.version} "
                f"instead. {ANOMALY_HINT if anomaly_mode.state.enabled else NO_ANOMALY_HINT}")

    def free(self):
        self.tensor = self.data = self.vc = None
        if self.hooks is not None:  # (what only a packed tensor keeps)
            self.packed = self.grad_fn = self.leaf = None

    def __repr__(self):
        return f"<minigrad._C._autograd.SavedTensor object at {hex(id(self))}>"


def check_not_inference(t):
    """A tensor made in inference mode has no version to check against later: it cannot be saved."""
    if type(t._vc) is InferenceCounter:
        raise RuntimeError(INFERENCE_SAVED_MSG)


def _alias(data, vc):
    """A new tensor on the same numbers and version counter (what PyTorch's ``tensor_data()`` gives)."""
    out = Tensor(data)
    out._vc = vc
    return out


class BackwardNode(Node):
    """The node of a ``Function`` call, which is also the ``ctx`` its forward and backward receive.

    PyTorch: ``BackwardCFunction`` (the Python object) wrapped in a ``PyNode`` (the C++ node).
    """
    _forward_cls = None  # the Function subclass this node belongs to (set per node class)

    def name(self):
        if type(self).__name__ in ("CopyBackwards", "NotImplemented"):  # written by hand in PyTorch's C++, so
            return "minigrad::autograd::" + type(self).__name__  # name() has the namespace (torch::autograd::)
        return type(self).__name__

    needs_input_grad = ()      # per forward argument: is it a tensor that requires grad?
    to_save = ()               # what forward passed to save_for_backward ...
    _saved = ()                # ... kept as SavedTensors (or None) once the node is recorded
    _freed = False             # True once backward dropped them (PyTorch: has_freed_buffers)
    _non_differentiable = ()
    _dirty = ()
    _materialize_grads = True
    _is_tensor_input = ()      # per forward argument: was it a Tensor?
    _output_meta = ()          # per output: (shape, numpy dtype), for zeros when no gradient arrives
    _released = False          # True once backward ran through the node without retain_graph
    _cleared = False           # True once saved_tensors was read with clear_saved_tensors_on_access
    _unpacked = None           # while a built-in op's formula runs: what forward saved, unpacked once

    # ---- used inside forward ------------------------------------------------------------
    def save_for_backward(self, *tensors):
        """Keep tensors for backward; read them back with ``ctx.saved_tensors``."""
        self.to_save = tensors

    def mark_non_differentiable(self, *tensors):
        """Outputs that get no gradient (e.g. the indices of a max): they will not require grad."""
        self._non_differentiable = tensors

    def mark_dirty(self, *tensors):
        self._dirty = tensors

    def set_materialize_grads(self, value):
        """With True (the default) backward gets zeros instead of ``None`` for outputs without a gradient."""
        self._materialize_grads = bool(value)

    # ---- used inside backward -----------------------------------------------------------
    @property
    def saved_tensors(self):
        if self.to_save:  # still inside forward
            return self.to_save
        if self._unpacked is not None:  # inside a built-in op's formula: what its node unpacked before (BuiltinNode)
            return self._unpacked
        if self._freed:
            raise RuntimeError(FREED_MSG)
        if self._forward_cls.clear_saved_tensors_on_access:  # PyTorch: ctx.maybe_clear_saved_tensors()
            if self._cleared:
                raise RuntimeError("saved_tensors can only be accessed once when clear_saved_tensors_on_access=True "
                                   "is set on the autograd.Function. Either access saved_tensors only once, or set "
                                   "clear_saved_tensors_on_access=False.")
            tensors = tuple([s.unpack(self) if s is not None else None for s in self._saved])
            self._saved, self._cleared = (), True
            return tensors
        return tuple([s.unpack(self) if s is not None else None for s in self._saved])

    @property
    def _raw_saved_tensors(self):
        """The ``SavedTensor`` objects behind ``saved_tensors`` (each has ``register_hooks``)."""
        if self._freed:
            raise RuntimeError(FREED_MSG)
        return tuple(s if s is not None else SavedTensor(None, self) for s in self._saved)

    # ---- grad_fn._saved_self, ._saved_result ... of a built-in op --------------------------
    def _unpacked_at(self, i):
        """``grad_fn._saved_<name>`` of what forward saved at position ``i`` (see ``_saved_properties``)."""
        saved = self._saved[i] if i < len(self._saved) else None
        return _shown(saved.unpack(self)) if saved is not None else None

    def _object_saved_at(self, i):
        """``grad_fn._raw_saved_<name>``: the ``SavedTensor`` itself (an undefined one where nothing was saved)."""
        saved = self._saved[i] if i < len(self._saved) else None
        return saved if saved is not None else SavedTensor(None, self)

    def __dir__(self):
        custom = self._forward_cls is None or self._forward_cls.node_name is None
        hidden = {"_saved"} if custom else {"_saved", "_raw_saved_tensors"}  # (minigrad's own attributes)
        return sorted(set(super().__dir__()) - hidden)

    @property
    def saved_dim(self):  # `_saved_dim`: the dim(s) as passed; PyTorch shows a negative dim as unsigned (-1: 2**64 - 1)
        return unsigned(self.dim_arg)

    @property
    def self_numel(self):  # `_saved_self_sym_numel` of mean
        return int(np.prod(self.shape, dtype=np.int64))

    def __repr__(self):
        if self._forward_cls is not None and self._forward_cls.node_name is None:  # your own Function's node
            return f"<minigrad.autograd.function.{type(self).__name__} object at {hex(id(self))}>"
        return super().__repr__()

    @property
    def saved_variables(self):
        warnings.warn("'saved_variables' is deprecated; use 'saved_tensors'", DeprecationWarning, stacklevel=2)
        return self.saved_tensors

    def _release_saved(self):
        """Drop what forward saved (PyTorch: ``release_variables``); ``saved_tensors`` raises from now on."""
        saved = self._saved
        if saved:
            for s in saved:
                if s is not None:
                    s.free()
            self._freed = saved.count(None) < len(saved)  # (only None saved: nothing to miss)
        self._released = True

    def _kept_arrays(self):
        """Did forward keep an index array or a mask on ctx (``ctx.index`` of ``max(dim)``, ``ctx.cond`` of
        ``where``)?  PyTorch keeps those as saved tensors, so a second backward through the node raises.  (The
        ``positions`` of ``AsStridedBackward0`` stand for PyTorch's sizes and strides, numbers: not saved tensors.)"""
        return any(_is_saved_array(value) for name, value in vars(self).items() if name != "positions")

    # ---- called by the engine -----------------------------------------------------------
    def apply(self, *grad_outputs):
        """Run the Function's backward: one gradient per tensor input, in the order of ``next_functions``
        (PyTorch: ``PyNode::apply`` for your own Function; a generated node such as ``MulBackward0`` for an op)."""
        if self._released:
            self._check_not_freed()
        if any(g is None for g in grad_outputs):  # some output got no gradient
            grad_outputs = self._fill_missing(grad_outputs)
            if grad_outputs is None:  # a built-in op: no gradient in, none out
                return [None] * len(self.next_functions)
        if self._forward_cls.boxed_grads_call:  # backward(ctx, grads): the gradients as one list
            grads = self.apply_boxed(list(grad_outputs))
        else:
            grads = self._forward_cls.backward(self, *grad_outputs)
        if not isinstance(grads, tuple):
            grads = (grads,)
        if self._forward_cls.node_name is None:  # your own Function: PyTorch checks what its backward returned
            return self._check_grads(grads)
        return self._per_edge(grads)

    def _per_edge(self, grads):
        """A built-in op's gradients, one per forward argument (maybe fewer: the last ones None), as one per edge."""
        if len(grads) == len(self.next_functions) == len(self._is_tensor_input):  # (every argument a tensor)
            return list(grads)
        per_edge = [g for g, is_tensor in zip(grads, self._is_tensor_input) if is_tensor]
        return per_edge + [None] * (len(self.next_functions) - len(per_edge))

    def _check_not_freed(self):
        """A built-in op reads what it saved first thing, as PyTorch's nodes do: after a backward without
        ``retain_graph`` it raises."""
        if self._forward_cls.node_name is not None and (self._freed or self._kept_arrays()):
            raise RuntimeError(FREED_MSG)

    def _fill_missing(self, grad_outputs):
        """Gradients for the outputs that got none: zeros (``set_materialize_grads``), or None when a built-in op
        got no gradient at all (it then sends none)."""
        if self._forward_cls.node_name is not None and all(g is None for g in grad_outputs):
            self.saved_tensors  # PyTorch's nodes unpack what they saved first: a changed one raises even here
            return None
        if not self._materialize_grads:
            return grad_outputs
        return [Tensor(np.zeros(shape, dtype)) if g is None and dtype is not None else g
                for g, (shape, dtype) in zip(grad_outputs, self._output_meta)]

    def apply_boxed(self, *args):
        """Run the backward of a Function that set ``boxed_grads_call = True``: ``args`` is one list of the gradients,
        which backward may empty as it goes, so that each can be freed once used (PyTorch:
        ``BackwardCFunction.apply_boxed``)."""
        return self._forward_cls.backward(self, *args)

    def _check_grads(self, grads):
        """What your own Function's backward returned (PyTorch: ``PyNode::apply``'s checks): one gradient per forward
        argument, None for one that is not a tensor; the gradients of the tensor inputs, in edge order."""
        expected = len(self._is_tensor_input)
        while len(grads) > expected and grads[-1] is None:
            grads = grads[:-1]  # extra Nones at the end are allowed
        if len(grads) != expected:
            raise RuntimeError(f"function {self.name()} returned an incorrect number of gradients "
                               f"(expected {expected}, got {len(grads)})")
        checked = []
        for position, (g, is_tensor) in enumerate(zip(grads, self._is_tensor_input)):
            if not is_tensor and g is not None:  # a number, a dim, a flag...: it cannot have a gradient
                raise RuntimeError(f"function {self.name()} returned a gradient different than None at position "
                                   f"{position + 1}, but the corresponding forward input was not a Variable")
            if is_tensor and g is not None and not isinstance(g, Tensor):
                raise RuntimeError(f"expected Variable or None (got {type(g).__name__})")
            if is_tensor:
                checked.append(g)
        return checked


class BuiltinNode(BackwardNode):
    """The node of a built-in op (PyTorch: a node class generated from ``derivatives.yaml``, e.g. ``MulBackward0``)."""

    def apply(self, *grad_outputs):
        """The op's backward formula: one gradient per tensor input, in the order of ``next_functions``."""
        if self._released:  # a second backward through it without retain_graph
            self._check_not_freed()
        if self._saved:  # PyTorch's generated node unpacks every saved tensor first, whether its formula reads it or
            self._unpacked = self.saved_tensors  # not (grad() of one input): a changed one raises, hooks run once
        try:
            if grad_outputs[0] is None or len(grad_outputs) > 1 and _some_missing(grad_outputs):
                grad_outputs = self._fill_missing(grad_outputs)  # some output got no gradient
                if grad_outputs is None:  # none at all: none out
                    return [None] * len(self.next_functions)
            grads = self._forward_cls.backward(self, *grad_outputs)
        finally:
            if self._unpacked is not None:
                del self._unpacked
        if not isinstance(grads, tuple):
            grads = (grads,)
        if len(grads) >= len(self.next_functions) == len(self._is_tensor_input):  # (every argument a tensor; the
            return list(grads[:len(self.next_functions)])  # gradients past them are None, for unused defaults)
        return self._per_edge(grads)


def _some_missing(grads):
    """Is some gradient None?"""
    return any(g is None for g in grads)


def _saved_properties(saved_names):
    """``grad_fn._saved_<name>`` for each name ``derivatives.yaml`` gives what a built-in op saved (``self``, ``other``,
    ``result``, ``dim``, ``self_sym_sizes``...), and ``_raw_saved_<name>`` (the ``SavedTensor``) for a saved tensor,
    as PyTorch generates them per node class. ``saved_names`` maps each name to a position in ``save_for_backward`` or
    to the attribute of ctx that keeps it (a number, a dim, a shape)."""
    properties = {}
    for key, where in saved_names.items():
        if isinstance(where, str):
            properties[f"_saved_{key}"] = property(operator.attrgetter(where))
        else:
            properties[f"_saved_{key}"] = property(lambda node, i=where: node._unpacked_at(i))
            properties[f"_raw_saved_{key}"] = property(lambda node, i=where: node._object_saved_at(i))
    return properties


def _shown(t):
    """A saved tensor as ``grad_fn._saved_*`` shows it.  PyTorch saves a Python number next to a tensor
    (the 2.0 of ``x * 2.0``) as a 0-dim float64 (int: int64, bool: bool) "wrapped number"; minigrad
    computed with it in the result's dtype, and shows it as PyTorch keeps it."""
    number = t._wrapped_number
    if number is None:
        return t
    return Tensor(np.asarray(number, np.bool_ if isinstance(number, bool) else
                             np.int64 if isinstance(number, int) else np.float64))


def _is_saved_array(value):
    """An array or tensor (or a tuple holding one) that a built-in op kept on its ctx for backward."""
    if isinstance(value, tuple):
        return any(isinstance(v, (np.ndarray, Tensor)) for v in value)
    return isinstance(value, (np.ndarray, Tensor))


class Function:
    """Base class of every differentiable operation (PyTorch: ``torch.autograd.Function``).

    Subclasses define ``forward(ctx, *args)`` and ``backward(ctx, *grad_outputs)`` as static
    methods and are called with ``.apply(*args)``.  ``backward`` returns one gradient per argument
    of ``forward`` (``None`` for arguments that are not tensors or need no gradient).
    """
    node_name = None  # built-in ops set PyTorch's node names (e.g. "SumBackward0")
    saved_names = {}  # built-in ops: derivatives.yaml's name -> position in save_for_backward or ctx attribute
    clear_saved_tensors_on_access = False  # True: ctx.saved_tensors can be read once (PyTorch 2.13)
    boxed_grads_call = False  # True: backward(ctx, grads) gets the gradients as one list it may clear (PyTorch 2.13)
    _node_base = BackwardNode  # (a built-in op's: BuiltinNode)

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        # Build the node class for this Function, named like PyTorch's: MMFunction -> MMFunctionBackward.
        name = cls.__dict__.get("node_name") or cls.__name__ + "Backward"
        module = cls.__module__ if cls.__dict__.get("node_name") else "minigrad.autograd.function"  # (as PyTorch's)
        cls._backward_cls = type(name, (cls._node_base,), {"_forward_cls": cls, "__module__": module,
                                                         "_user_code": cls.node_name is None,
                                                         **_saved_properties(cls.saved_names)})

    def __init__(self, *args, **kwargs):
        warnings.warn(f"{type(self)} should not be instantiated. Methods on autograd functions are all static, so "
                      "you should invoke them on the class itself. Instantiating an autograd function will raise an "
                      "error in a future version of PyTorch.", DeprecationWarning, stacklevel=2)

    @staticmethod
    def forward(ctx, *args):
        raise NotImplementedError("You must implement the forward function for custom autograd.Function.")

    @staticmethod
    def backward(ctx, *grad_outputs):
        raise NotImplementedError("You must implement either the backward or vjp method for your custom "
                                  "autograd.Function to use it with backward mode AD.")

    @staticmethod
    def setup_context(ctx, inputs, output):
        """The other way to write a Function: ``forward(*args)`` without ``ctx`` computes the output, then
        ``setup_context(ctx, inputs, output)`` saves what backward needs (PyTorch 2's style)."""
        raise NotImplementedError("setup_context is not implemented.")

    @classmethod
    def apply(cls, *args):
        """Run forward with recording off, then (if an input requires grad) record one node.

        PyTorch's ``THPFunction_apply`` does the same steps: make the node (which is also ``ctx``),
        note which inputs need a gradient, run forward under no_grad, and connect the node into
        the graph when grad mode is on and some input requires grad.
        """
        separate = cls.setup_context is not Function.setup_context  # PyTorch 2's style: forward(*args) without ctx
        if separate:
            args = _bound_args(cls, args)
        ctx = cls._backward_cls()
        ctx.needs_input_grad = tuple([isinstance(a, Tensor) and a.requires_grad for a in args])
        recording = grad_mode.is_grad_enabled() and any(ctx.needs_input_grad)
        with grad_mode.no_grad():  # the operations inside forward are not recorded
            if separate:
                result = cls.forward(*args)
                cls.setup_context(ctx, args, result)  # (before the outputs are connected, as in PyTorch)
            else:
                result = cls.forward(ctx, *args)
        if not grad_mode.is_grad_enabled():
            note_views_made_without_grad(result, args)
        if not recording:
            return result
        return _record(ctx, args, result)


def _bound_args(cls, args):
    """The inputs as ``forward``'s signature binds them, defaults included (PyTorch: ``bind_default_args``)."""
    bound = inspect.signature(cls.forward).bind(*args)
    bound.apply_defaults()
    return bound.args


def note_views_made_without_grad(outputs, inputs):
    """Views made while grad mode is off remember it (PyTorch's ``CreationMeta::NO_GRAD_MODE``, or
    ``INFERENCE_MODE``): they still require grad when their base does, but may not be changed in place, nor
    see their base changed, with grad mode on (``ops/inplace.py``: ``view_rebase_message``)."""
    for t in outputs if isinstance(outputs, tuple) else (outputs,):
        if isinstance(t, Tensor) and t._base is not None and t._creation_meta != "inference" and not any(
                t is a for a in inputs):
            t._creation_meta = "inference" if inference.is_inference_mode_enabled() else "no_grad"


def _record(ctx, args, result):
    """Connect ``ctx`` into the graph: edges to the inputs, ``grad_fn`` on the outputs, saved tensors."""
    ctx._sequence_nr = next_sequence_nr()  # PyTorch numbers nodes as they are created
    if anomaly_mode.state.enabled:  # detect_anomaly: remember which line of the program made the node
        anomaly_mode.store_stack(ctx)
    ctx._is_tensor_input = tuple([isinstance(a, Tensor) for a in args])
    ctx.next_functions = tuple([edge_of(a) for a in args if isinstance(a, Tensor)])  # where each input's gradient goes
    if ctx._dirty:  # mark_dirty: the inputs forward changed in place
        check_dirty_returned(ctx, result)
    if isinstance(result, tuple):  # several outputs: the node gets one gradient per output
        result = connect_outputs(ctx, args, result)
    elif isinstance(result, Tensor):
        result = _connect_output(ctx, args, result, 0)
        ctx._output_meta = ((result._data.shape, result._data.dtype),)
    if ctx.to_save:  # (after connecting the outputs: a SavedTensor recognises the node's own outputs by grad_fn)
        save_tensors(ctx)
    return result


def record_plain(ctx, args, result):
    """``_record`` for the common case, straight through: one new output, no ``mark_dirty`` or
    ``mark_non_differentiable``, no anomaly mode, no saved-tensor hooks in force (the dispatcher checks:
    ``ops/dispatch.py``, ``is_plain``).  The node it builds is the one ``_record`` builds."""
    ctx._sequence_nr = next(_sequence)
    needs = ctx.needs_input_grad = _flags.setdefault(ctx.needs_input_grad, ctx.needs_input_grad)
    edges = [edge_of(a) if need else (None, 0) for a, need in zip(args, needs) if isinstance(a, Tensor)]
    ctx.next_functions = tuple(edges)
    is_tensor = (True,) * len(args) if len(edges) == len(args) else tuple([isinstance(a, Tensor) for a in args])
    ctx._is_tensor_input = _flags.setdefault(is_tensor, is_tensor)
    result._grad_fn, result._requires_grad = ctx, True
    if result._base is not None:  # (a view: Tensor.grad_fn's setter)
        result.grad_fn = ctx
    ctx._output_meta = interned(((result._data.shape, result._data.dtype),))
    if ctx.to_save:
        ctx._saved = tuple([SavedTensor(t, ctx) if t is not None else None for t in ctx.to_save])
        ctx.to_save = ()
    return result


_flags = {}  # one shared copy of each tuple of flags (needs_input_grad, _is_tensor_input): few, and alike in many nodes
_interned = {}


def interned(t):
    """One shared copy of a small tuple that many nodes keep alike (an output's shape and dtype), kept once instead
    of once per node."""
    return _interned.setdefault(t, t) if len(_interned) < 4096 else _interned.get(t, t)


def check_dirty_returned(ctx, result):
    """The inputs forward changed in place (``mark_dirty``) must come back as outputs."""
    returned = result if isinstance(result, tuple) else (result,)
    if not all(any(t is out for out in returned) for t in ctx._dirty):
        raise RuntimeError("Some elements marked as dirty during the forward method were not returned as output. "
                           "The inputs that are modified inplace must all be outputs of the Function.")


def connect_outputs(ctx, args, result):
    """Each output of a Function with several is output ``i`` of ``ctx``; the node takes one gradient per output."""
    result = tuple([_connect_output(ctx, args, out, i) for i, out in enumerate(result)])
    ctx._num_inputs = len(result)
    ctx._output_meta = [(o._data.shape, o._data.dtype) if isinstance(o, Tensor) else ((), None) for o in result]
    return result


def save_tensors(ctx):
    """What forward passed to ``save_for_backward``, kept as ``SavedTensor``s (packed by the saved-tensor hooks
    in force, if any)."""
    if ctx._user_code:  # (your own Function: the built-in ops save only tensors)
        _check_only_tensors(ctx.to_save)
    hooks = current_hooks()
    ctx._saved = tuple([SavedTensor(t, ctx, hooks) if t is not None else None for t in ctx.to_save])
    ctx.to_save = ()


def _check_only_tensors(to_save):
    """``save_for_backward`` keeps tensors (or None); a number is kept as an attribute of ctx instead."""
    for i, t in enumerate(to_save):
        if t is not None and not isinstance(t, Tensor):
            raise TypeError(f"save_for_backward can only save variables, but argument {i} is of type "
                            f"{type(t).__name__}")


def _connect_output(ctx, args, out, i):
    """Make ``out`` output number ``i`` of ``ctx`` (its ``grad_fn``)."""
    if not isinstance(out, Tensor):
        return out
    if ctx._dirty and any(out is t for t in ctx._dirty):  # an input changed in place: it is the output itself
        if out.grad_fn is None and out._requires_grad:  # (PyTorch: check_inplace)
            raise RuntimeError("a leaf Variable that requires grad has been used in an in-place operation.")
        out._vc[0] += 1  # PyTorch bumps the version of a dirty tensor once more
    elif any(out is a for a in args):  # forward returned an input as-is: output a new alias of it
        out = _alias(out._data, out._vc)
    if ctx._non_differentiable and any(out is t for t in ctx._non_differentiable):
        out._requires_grad = False
    else:
        rebase_history(out, ctx, i)
    return out


def rebase_history(t, node, output_nr=0):
    """Make ``t`` output ``output_nr`` of ``node`` (PyTorch: ``set_history`` / ``rebase_history``).

    After an in-place op the tensor is the op's output now.  If it called ``retain_grad()``, its
    ``.grad`` is that of the new value: the request moves to the new node, as in PyTorch (hooks from
    ``register_hook`` stay with the old value).
    """
    old, old_nr = t._grad_fn, t._output_nr
    t.grad_fn, t._output_nr, t._requires_grad = node, output_nr, True
    if t._retains_grad and old is not None and old is not node and old._retained:
        retained = old._retained.pop(old_nr, None)
        if retained is not None:
            node._hook_dict("_retained")[output_nr] = retained


class GradientEdge(NamedTuple):
    """One edge of the graph, ``(node, output_nr)``: where the gradient of a tensor arrives (PyTorch's own).

    ``autograd.grad(loss, get_gradient_edge(x))`` gives the same gradient as ``autograd.grad(loss, x)``, and needs
    only the edge, not the tensor.  minigrad takes edges among the ``inputs`` of ``grad()`` and ``backward()``.
    (PyTorch's third field keeps a graph made of Python nodes alive; minigrad's nodes are all Python objects that the
    edge itself keeps alive, so it stays None.)
    """
    node: Node
    output_nr: int
    ownership_token: Node = None


def edge_of(t):
    """The ``(node, input_nr)`` pair a consumer of tensor ``t`` stores in its ``next_functions``."""
    node = t._grad_fn if t._base is None else t.grad_fn  # (a view's grad_fn may need renewing: Tensor.grad_fn)
    if node is not None:
        return (node, t._output_nr)
    if t._requires_grad:
        return (grad_accumulator(t), 0)
    return (None, 0)


def grad_accumulator(t):
    """The leaf's ``AccumulateGrad`` node: one per leaf while a graph uses it (the leaf holds it weakly)."""
    acc = t._grad_accumulator() if t._grad_accumulator is not None else None
    if acc is None:
        acc = AccumulateGrad(t)
        t._grad_accumulator = weakref.ref(acc)
    return acc


def grad_dtype(t):
    """The numpy dtype ``t.grad`` must have, None for any (PyTorch: ``AutogradMeta::grad_dtype``): the tensor's own
    dtype until ``t.grad_dtype = ...`` set another one, or None."""
    if t._allow_grad_dtype_mismatch:
        return None
    return t._grad_dtype if t._grad_dtype is not None else t._data.dtype


def set_grad_dtype(t, dtype):
    """``t.grad_dtype = dtype`` (a numpy dtype, or None) on a leaf (PyTorch: ``AutogradMeta::set_grad_dtype``). The
    leaf's ``AccumulateGrad``, if it has one, takes gradients of that dtype from now on."""
    if t.grad_fn is not None:
        raise RuntimeError("grad_dtype can only be set on leaf tensors.")
    if dtype is None:
        t._allow_grad_dtype_mismatch = True
    else:
        t._grad_dtype, t._allow_grad_dtype_mismatch = dtype, False
    acc = t._grad_accumulator() if t._grad_accumulator is not None else None
    if acc is not None:
        acc.grad_dtype = dtype


class AccumulateGrad(Node):
    """The node at a leaf: adds the incoming gradient into ``variable.grad``.

    In PyTorch it is the last node on every path, has no ``next_functions`` and runs as soon as its
    gradient is complete.  ``variable`` is the leaf tensor; ``grad_dtype`` the dtype the gradients
    reaching it are cast to (None: left as they are), the leaf's ``grad_dtype`` when the node was made
    or later set (PyTorch keeps it in the node's ``input_metadata(0)``).
    """

    def __init__(self, variable):
        self._sequence_nr = float("inf")  # PyTorch gives it UINT64_MAX: run it as soon as it is ready
        self.variable = variable
        self.grad_dtype = grad_dtype(variable)

    def name(self):
        return "minigrad::autograd::AccumulateGrad"

    @property
    def _tensor_pre_hooks(self):
        hooks = self.variable._hooks  # hooks registered on the leaf tensor itself
        return {0: hooks} if hooks else None

    def input_metadata(self, nr):
        return self.variable._data.shape, self.grad_dtype

    def apply(self, grad):
        """``variable.grad += grad`` (PyTorch: ``AccumulateGrad::accumulateGrad``)."""
        v = self.variable
        if grad is None:  # no gradient arrived along any edge
            return ()
        if v._grad is None:  # the first gradient: kept as .grad
            v._grad = first_grad(grad, v)
        elif grad_mode.is_grad_enabled():  # create_graph=True: the sum is recorded too
            v._grad = v._grad + grad
        else:
            v._grad.add_(grad)  # in place, as PyTorch does
        if v._post_accumulate_grad_hooks:  # register_post_accumulate_grad_hook: they see the updated .grad
            run_post_accumulate_grad_hooks(v)
        return ()


def run_post_accumulate_grad_hooks(leaf):
    """The hooks ``leaf.register_post_accumulate_grad_hook`` registered, each called with the leaf (in your own
    numpy error state: their warnings show)."""
    with numpy_errors.users():
        for hook in list(leaf._post_accumulate_grad_hooks.values()):
            hook(leaf)


def first_grad(grad, variable):
    """A leaf's first ``.grad``: a copy of the gradient of its own (the same one may reach several leaves), laid out
    as the leaf (PyTorch's ``clone_obey_contract``); a ZeroTensor kept as it is."""
    v = variable._data
    if grad_mode.is_grad_enabled() or grad._zerotensor or not v.flags.c_contiguous or 1 in v.shape:
        return clone_obey_contract(grad, variable)  # (create_graph=True records the copy; a ZeroTensor; strides)
    return Tensor(np.array(grad._data, order="C"))  # (the usual case: a row-major leaf, a row-major copy)


def clone_obey_contract(grad, variable):
    """A copy of ``grad`` laid out as PyTorch's ``clone_obey_contract`` lays out a leaf's first gradient: with the
    leaf's own strides where it has no gaps and no repeats (``x.t()``'s gradient is stored like ``x``), else
    row-major, in the gradient's dtype (the leaf's own, or its ``grad_dtype``).  ``copy_`` into an empty tensor, or
    ``clone``: with create_graph=True the copy is recorded too (CopyBackwards, CloneBackward0).  A ZeroTensor that
    already has the leaf's layout is kept itself (PyTorch: zeros with no memory to share)."""
    v, dtype = variable._data, grad._data.dtype
    if grad._zerotensor and obeys_layout_contract(grad._data, v) and not grad_mode.is_grad_enabled():
        return grad.detach()
    if dense(v):
        return Tensor(empty_strided(v.shape, preserve_format_strides(v, dtype.itemsize), dtype)).copy_(grad)
    return grad.clone(memory_format=contiguous_format)


class Error(Node):
    """A node whose backward raises (PyTorch: ``torch::autograd::Error``, made by ``DelayedError``)."""

    def __init__(self, msg, next_functions, num_inputs):
        self.msg, self.next_functions, self._num_inputs = msg, next_functions, num_inputs
        self._sequence_nr = next_sequence_nr()

    def name(self):
        return "minigrad::autograd::Error"

    def apply(self, *grad_outputs):
        raise RuntimeError(self.msg)


def once_differentiable(backward):
    """Decorator for a Function's ``backward`` written with numbers only, that cannot be differentiated again.

    PyTorch (``torch.autograd.function.once_differentiable``) runs it under ``no_grad``; when
    ``create_graph=True`` asked for a graph of the gradients (a gradient arriving that requires
    grad), each result is given an ``Error`` node, so that differentiating it raises.
    """
    @functools.wraps(backward)
    def wrapper(ctx, *args):
        with grad_mode.no_grad():
            outputs = backward(ctx, *args)
        if not grad_mode.is_grad_enabled() or not any(isinstance(a, Tensor) and a._requires_grad for a in args):
            return outputs
        single = not isinstance(outputs, tuple)
        outputs = (outputs,) if single else outputs
        fakes = [Tensor(o._data).requires_grad_(True) if o is not None else None for o in outputs]  # detached copies
        err = Error("trying to differentiate twice a function that was marked with @once_differentiable",
                    tuple([edge_of(f) if f is not None else (None, 0) for f in fakes]), len(fakes))
        wrapped = []
        for i, f in enumerate(fakes):  # PyTorch: DelayedError's outputs, each with the Error node as grad_fn
            if f is not None:
                f = _alias(f._data, f._vc)
                f.grad_fn, f._output_nr, f._requires_grad = err, i, True
            wrapped.append(f)
        return wrapped[0] if single else tuple(wrapped)
    return wrapper
