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

``Exp.apply(x)`` runs ``forward`` and, when some input requires grad, creates a *backward node*
named ``ExpBackward`` (PyTorch builds the same class for every Function subclass: the node of a
custom ``MMFunction`` is ``MMFunctionBackward``; built-in ops choose PyTorch's names such as
``SumBackward0``).  The node is also the ``ctx`` that forward saw, so what forward saved is there
when backward runs.  The node's ``next_functions`` point at the nodes of the inputs: that is the
graph ``loss.backward()`` walks (see ``engine.py``).
"""
import itertools
import re

import numpy as np
from numpy import ndarray  # (see ops/_util.py for why not np.ndarray on the per-op path)
import warnings
import weakref

from . import grad_mode

Tensor = None  # set by minigrad/tensor.py once the Tensor class exists (the two modules need each other)

_sequence = itertools.count()  # creation order; the engine runs later-created nodes first

FREED_MSG = (
    "Trying to backward through the graph a second time (or directly access saved tensors after they have "
    "already been freed). Saved intermediate values of the graph are freed when you call .backward() or "
    "autograd.grad(). Specify retain_graph=True if you need to backward through the graph a second time or if "
    "you need to access saved tensors after calling backward.")


class Node:
    """A node of the backward graph (PyTorch: ``torch::autograd::Node``).

    ``next_functions`` is a tuple with one ``(node, input_nr)`` pair per input of the forward
    operation: the node that produced that input (``AccumulateGrad`` for a leaf, ``None`` when the
    input needs no gradient) and which of that node's outputs it was.

    The node keeps the two halves of those pairs in two tuples, ``_next_nodes`` and ``_next_nrs``,
    and builds ``next_functions`` when you ask for it (PyTorch builds that tuple on each access
    too: its C++ node keeps a vector of edges).  Why not keep the pairs themselves?  Python's cycle
    collector visits every object that can hold other objects, again and again while a graph grows.
    A tuple holding only numbers it stops visiting, and one tuple of nodes is one object to visit
    instead of one pair per edge.  (On a 100,000-op chain its passes took half the recording time.)
    """
    _next_nodes = ()          # per input of the forward op: the node its gradient goes to (or None)
    _next_nrs = ()            # ... and which of that node's gradient slots it fills

    @property
    def next_functions(self):
        return tuple(zip(self._next_nodes, self._next_nrs))

    _num_inputs = 1          # how many gradients flow into this node (= outputs of the forward op)
    _tensor_pre_hooks = None  # {output_nr: {id: hook(grad)}}: hooks registered on output tensors
    _retained = None          # {output_nr: weakref(tensor)}: outputs that called retain_grad()
    _pre_hooks = None         # {id: hook(grad_outputs)}
    _post_hooks = None        # {id: hook(grad_inputs, grad_outputs)}
    _saved = ()               # what the node saved for backward: per entry a SavedTensor, a number's value or None
    _freed = False            # True once backward dropped what the node saved (PyTorch: has_freed_buffers)

    _sequence_nr = -1         # set when the node is recorded into a graph

    def name(self):
        return type(self).__name__

    def apply(self, *grad_outputs):
        raise NotImplementedError

    def __call__(self, *grad_outputs):
        return self.apply(*grad_outputs)

    # hooks -----------------------------------------------------------------------------
    def _hook_dict(self, attr):
        d = self.__dict__.get(attr)
        if d is None:
            d = {}
            setattr(self, attr, d)
        return d

    def register_hook(self, fn):
        """``fn(grad_inputs, grad_outputs)`` runs after this node computed its gradients."""
        from ..tensor import RemovableHandle
        return RemovableHandle(self._hook_dict("_post_hooks"), fn)

    def register_prehook(self, fn):
        """``fn(grad_outputs)`` runs before this node; it may return replacement gradients."""
        from ..tensor import RemovableHandle
        return RemovableHandle(self._hook_dict("_pre_hooks"), fn)

    def _release_saved(self):
        pass

    def __repr__(self):
        return f"<{type(self).__name__} object>"


class SavedTensor:
    """One tensor saved for backward, with the version it had when it was saved.

    PyTorch: ``SavedVariable``.  A node never keeps a strong reference to its own output (that
    would be a reference cycle output -> node -> output), so an output is saved as its data and
    rebuilt, with ``grad_fn`` set back to the node, when backward unpacks it.

    (A saved *number*, the 2 of ``x * 2``, gets no SavedTensor: see ``save_value``.)
    """
    __slots__ = ("tensor", "data", "vc", "version", "output_nr")

    def __init__(self, t, node):
        self.tensor = self.output_nr = None
        self.data = t._data
        self.vc = t._vc  # the version counter itself (a list shared with the tensor): None once freed
        self.version = t._vc[0]
        if t.grad_fn is node:  # one of the node's own outputs
            self.output_nr = t._output_nr
        else:
            self.tensor = t
            self.data = None

    @property
    def freed(self):
        return self.vc is None

    def unpack(self, node):
        if self.vc is None:  # freed
            raise RuntimeError(FREED_MSG)
        if self.vc[0] != self.version:
            raise RuntimeError(self._modified_message(node))
        if self.tensor is not None:
            return self.tensor
        out = Tensor(self.data)
        out._vc = self.vc
        out.grad_fn = node
        out._output_nr = self.output_nr
        out._requires_grad = True
        return out

    def _modified_message(self, node):
        # PyTorch names the node that made the tensor: for a saved output, the node that saved it;
        # for a saved input, the tensor's grad_fn now (after an in-place op, that op's node).
        t = self.tensor if self.tensor is not None else Tensor(self.data)
        data, kind = t._data, t.type()
        maker, nr = (node, self.output_nr) if self.tensor is None else (t.grad_fn, t._output_nr)
        where = ""
        if maker is not None:
            where = f", which is output {nr} of {re.sub(r'Backward[0-9]*$', '', maker.name())},"
        return (f"one of the variables needed for gradient computation has been modified by an inplace operation: "
                f"[{kind} {list(data.shape)}]{where} is at version {self.vc[0]}; expected version {self.version} "
                f"instead. Hint: enable anomaly detection to find the operation that failed to compute its "
                f"gradient, with minigrad.autograd.set_detect_anomaly(True, check_nan=False).")

    def free(self):
        self.tensor = self.data = self.vc = None


def save_value(t, node):
    """What ``node`` keeps of one tensor passed to ``save_for_backward``.

    A tensor becomes a ``SavedTensor``.  A number that an op turned into a tensor (the 2 of
    ``x * 2``, a "wrapped number", see ``ops/_util.py``) is kept as its value alone, a 0-dim numpy
    array: nothing else can reach it, so it can never change and needs no version check.  And a
    numpy array is invisible to Python's cycle collector, which re-visits every SavedTensor of a graph
    again and again while the graph grows (the 100,000-op chain in bench/run.py).
    """
    if t is None:
        return None
    if t._wrapped_number:
        return t._data
    return SavedTensor(t, node)


def unpack_value(saved, node):
    """The tensor ``saved_tensors`` hands back for one entry of ``node._saved``."""
    if saved is None:
        return None
    if type(saved) is ndarray:  # a saved number: a new tensor with a copy of its value
        return Tensor(saved.copy())  # (an ordinary tensor: whoever gets it may change it in place)
    return saved.unpack(node)


class BackwardNode(Node):
    """The node of a ``Function`` call, which is also the ``ctx`` its forward and backward receive.

    PyTorch: ``BackwardCFunction`` (the Python object) wrapped in a ``PyNode`` (the C++ node).
    """
    _forward_cls = None      # the Function subclass this node belongs to
    to_save = ()             # what forward passed to save_for_backward, until then
    _non_differentiable = ()
    _materialize_grads = True
    input_shapes = ()        # the shape of each tensor input (PyTorch keeps them to check the gradients;
    _input_dtypes = ()       # broadcasting ops read them to sum gradients back) and its numpy dtype
    _is_tensor_input = None  # per forward argument: was it a Tensor? (None: every argument was)
    _output_meta = ()        # (shape, numpy dtype) of each output (when there are several)

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
        """With True (the default) backward gets zeros instead of ``None`` for unused outputs."""
        self._materialize_grads = bool(value)

    # ---- used inside backward -----------------------------------------------------------
    @property
    def saved_tensors(self):
        if self.to_save and not self._saved:  # still inside forward
            return self.to_save
        if self._freed:
            raise RuntimeError(FREED_MSG)
        out = []
        for s in self._saved:
            out.append(unpack_value(s, self))
        return tuple(out)

    @property
    def saved_variables(self):
        warnings.warn("'saved_variables' is deprecated; use 'saved_tensors'", DeprecationWarning, stacklevel=2)
        return self.saved_tensors

    def _release_saved(self):
        """Drop what forward saved (PyTorch: ``release_variables``); ``saved_tensors`` raises from now on."""
        for s in self._saved:
            if type(s) is SavedTensor:
                s.free()
        self._freed = True  # (a saved number keeps its few bytes: the drawings still show its shape)

    # ---- called by the engine -----------------------------------------------------------
    def apply(self, *grad_outputs):
        """Run the Function's backward and check what it returns, like PyTorch's ``PyNode::apply``."""
        if self._num_inputs > 1 and self._materialize_grads and any(g is None for g in grad_outputs):
            grad_outputs = tuple(
                Tensor(np.zeros(shape, dtype)) if g is None else g
                for g, (shape, dtype) in zip(grad_outputs, self._output_meta))
        grads = self._forward_cls.backward(self, *grad_outputs)
        if not isinstance(grads, tuple):
            grads = (grads,)
        return self._check_grads(grads)

    def _check_grads(self, grads):
        """One gradient per forward argument, of the input's shape; keep those of the tensor inputs."""
        shapes, dtypes, is_tensor_input = self.input_shapes, self._input_dtypes, self._is_tensor_input
        expected = len(is_tensor_input) if is_tensor_input is not None else len(shapes)
        while len(grads) > expected and grads[-1] is None:
            grads = grads[:-1]  # extra Nones at the end are allowed, as in PyTorch
        if is_tensor_input is None and len(grads) == expected:  # the common case, checked quickly:
            i = 0  # only tensors went in, and each gradient fits (an index, not zip(grads, shapes, dtypes),
            for g in grads:  # which costs as much as the checks themselves)
                if g is not None:
                    if type(g) is not Tensor:
                        break
                    data = g._data
                    if data.shape != shapes[i] or data.dtype != dtypes[i]:
                        break
                i += 1
            else:
                return grads
        if len(grads) != expected:
            raise RuntimeError(f"function {self.name()} returned an incorrect number of gradients "
                               f"(expected {expected}, got {len(grads)})")
        out = []
        for i, is_tensor in enumerate(is_tensor_input or (True,) * expected):
            g = grads[i]
            if not is_tensor:
                if g is not None:
                    raise RuntimeError(f"function {self.name()} returned a gradient different than None at "
                                       f"position {i + 1}, but the corresponding forward input was not a Variable")
                continue
            if g is not None:
                shape, dtype = shapes[len(out)], dtypes[len(out)]
                if type(g) is not Tensor or g._data.shape != shape or g._data.dtype != dtype:
                    g = _validate_grad(self, len(out), g, shape, dtype)
            out.append(g)
        return out


def _validate_grad(node, index, g, shape, dtype):
    """PyTorch's ``validate_outputs``: sum a broadcast gradient back to shape, cast to the input dtype."""
    if not isinstance(g, Tensor):
        raise TypeError(f"function {node.name()} returned a gradient of type {type(g).__name__} at position "
                        f"{index}; expected a Tensor or None")
    if g._data.shape != shape:
        from .. import ops
        if not ops.is_expandable_to(shape, g._data.shape):
            raise RuntimeError(f"Function {node.name()} returned an invalid gradient at index {index} - got "
                               f"{list(g._data.shape)} but expected shape compatible with {list(shape)}")
        g = ops.sum_to(g, shape)
    if g._data.dtype != dtype:
        from .._dtype import from_numpy_dtype
        g = g.to(from_numpy_dtype(dtype))
    return g


class Function:
    """Base class of every differentiable operation (PyTorch: ``torch.autograd.Function``).

    Subclasses define ``forward(ctx, *args)`` and ``backward(ctx, *grad_outputs)`` as static
    methods and are called with ``.apply(*args)``.  ``backward`` returns one gradient per argument
    of ``forward`` (``None`` for arguments that are not tensors or need no gradient).
    """
    node_name = None  # built-in ops set PyTorch's node names (e.g. "SumBackward0")

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        # Build the node class for this Function, named like PyTorch's: MMFunction -> MMFunctionBackward.
        name = cls.__dict__.get("node_name") or cls.__name__ + "Backward"
        cls._backward_cls = type(name, (BackwardNode,), {"_forward_cls": cls, "__module__": cls.__module__})

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

    @classmethod
    def apply(cls, *args):
        """Run forward without recording, then (if any input requires grad) record one backward node."""
        ctx = cls._backward_cls()
        needs = []  # (plain loops, not list comprehensions, on this path: in Python 3.11 a comprehension
        for a in args:  # is a call of a hidden function, which costs as much as the loop itself)
            needs.append(isinstance(a, Tensor) and a._requires_grad)
        needs = ctx.needs_input_grad = tuple(needs)
        if not grad_mode._enabled:  # under no_grad(), or a formula inside backward: nothing to record
            return cls.forward(ctx, *args)
        grad_mode._enabled = False  # forward's own operations are not recorded
        try:
            result = cls.forward(ctx, *args)
        finally:
            grad_mode._enabled = True
        if True not in needs:
            return result
        return _record(ctx, args, result)


# Each node keeps small tuples of plain values: which inputs need a gradient, its edges' input
# numbers, its inputs' dtypes.  In a graph they repeat: the 100,000 nodes of a chain of `y * 1.0`
# all have `_next_nrs == (0, 0)`.  So nodes share one copy of each such tuple, the way Python shares
# small ints and interned strings: a quarter less memory per node and fewer new objects for the
# cycle collector, which made recording that chain 20-30 % faster (bench/run.py).  (Shapes are not
# shared: hashing a tuple of shapes costs more than it saves.)  One pool per kind of tuple, because
# True == 1: in a common pool (True,) and (1,) would be the same key.  `_record` looks a tuple up
# with `pool.get(t) or _remember(pool, t)`: a dict lookup written out, because it runs three times
# per op, and calling a helper for every lookup cost 2 % of the instructions of a small op.
_NEEDS, _NRS, _DTYPES = {}, {}, {}


def _remember(pool, t):
    """Keep tuple ``t`` in ``pool`` the first time it is seen (``pool.get(t) or _remember(pool, t)``)."""
    if len(pool) < 10_000:  # (a safety bound: no program makes 10,000 different ones)
        pool[t] = t
    return t


def _record(ctx, args, result):
    """Connect ``ctx`` into the graph: edges to the inputs, ``grad_fn`` on the outputs, saved tensors."""
    ctx._sequence_nr = next(_sequence)  # PyTorch numbers nodes as they are created
    nodes, nrs, shapes, dtypes = [], [], [], []
    for a in args:
        if isinstance(a, Tensor):
            node = a.grad_fn  # the edge to `a` (edge_of(a), written out: this loop runs for every op)
            if node is None and a._requires_grad:
                node = grad_accumulator(a)
            nodes.append(node)
            nrs.append(a._output_nr)
            shapes.append(a._data.shape)
            dtypes.append(a._data.dtype)
    nrs, dtypes, needs = tuple(nrs), tuple(dtypes), ctx.needs_input_grad
    ctx._next_nodes, ctx._next_nrs = tuple(nodes), _NRS.get(nrs) or _remember(_NRS, nrs)
    ctx.input_shapes, ctx._input_dtypes = tuple(shapes), _DTYPES.get(dtypes) or _remember(_DTYPES, dtypes)
    ctx.needs_input_grad = _NEEDS.get(needs) or _remember(_NEEDS, needs)
    if len(nodes) != len(args):  # some arguments were numbers, dims, flags...: they get no gradient
        ctx._is_tensor_input = tuple([isinstance(a, Tensor) for a in args])

    if isinstance(result, tuple):  # several outputs; their shapes make zeros for those that get no grad
        result = tuple([_connect_output(ctx, args, out, i) for i, out in enumerate(result)])
        ctx._num_inputs = len(result)
        ctx._output_meta = [(o._data.shape, o._data.dtype) if isinstance(o, Tensor) else ((), None) for o in result]
    else:
        result = _connect_output(ctx, args, result, 0)
    if ctx.to_save:  # (after connecting the outputs: SavedTensor recognises an output by its grad_fn)
        # (a tuple, not a list: a list keeps its items in a second block of memory, one more place
        # for Python's cycle collector to visit per node when it scans a big graph)
        saved = []
        for t in ctx.to_save:
            saved.append(save_value(t, ctx))
        ctx._saved = tuple(saved)
        del ctx.to_save  # (back to the class's empty tuple)
    return result


def _connect_output(ctx, args, out, i):
    """Make ``out`` output number ``i`` of ``ctx`` (its ``grad_fn``)."""
    if isinstance(out, Tensor):
        for a in args:
            if out is a:  # forward returned an input as-is: output a new alias of it
                out = Tensor(a._data)
                out._vc = a._vc
                break
        if ctx._non_differentiable and any(out is t for t in ctx._non_differentiable):
            out._requires_grad = False
        else:
            out.grad_fn = ctx
            out._output_nr = i
            out._requires_grad = True
    return out


NO_EDGE = (None, 0)  # the edge to an input that needs no gradient (one shared tuple)


def edge_of(t):
    """The ``(node, input_nr)`` pair a consumer of tensor ``t`` stores in its ``next_functions``."""
    if t.grad_fn is not None:
        return (t.grad_fn, t._output_nr)
    if t._requires_grad:
        return (grad_accumulator(t), 0)
    return NO_EDGE


def grad_accumulator(t):
    """The leaf's ``AccumulateGrad`` node: one per leaf while a graph uses it (the leaf holds it weakly)."""
    acc = t._grad_accumulator() if t._grad_accumulator is not None else None
    if acc is None:
        acc = AccumulateGrad(t)
        t._grad_accumulator = weakref.ref(acc)
    return acc


class AccumulateGrad(Node):
    """The node at a leaf: adds the incoming gradient into ``variable.grad``.

    In PyTorch it is the last node on every path, has no ``next_functions`` and runs as soon as its
    gradient is complete.  ``variable`` is the leaf tensor.
    """

    def __init__(self, variable):
        self._sequence_nr = float("inf")  # PyTorch gives it UINT64_MAX: run it as soon as it is ready
        self.variable = variable

    def name(self):
        return "minigrad::autograd::AccumulateGrad"

    @property
    def _tensor_pre_hooks(self):
        hooks = self.variable._hooks  # hooks registered on the leaf tensor itself
        return {0: hooks} if hooks else None

    def apply(self, grad):
        v = self.variable
        if v._grad is None:
            # own copy: the same gradient tensor may flow to several leaves (x + y sends it to both)
            if grad_mode._enabled:  # create_graph=True: a recorded copy (PyTorch's CopyBackwards node)
                from ..ops import CopyFrom
                v._grad = CopyFrom.apply(Tensor(np.empty_like(grad._data)), grad)
            else:
                v._grad = Tensor(grad._data.copy())
        elif grad_mode._enabled:  # create_graph=True: the sum itself is recorded
            v._grad = v._grad + grad
        else:
            v._grad._data += grad._data
            v._grad._vc[0] += 1
        return ()
