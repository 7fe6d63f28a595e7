"""The backward engine: how ``loss.backward()`` walks the graph.

1. Discover: starting from the roots, follow ``next_functions`` (iteratively, never by recursion,
   so a 100,000-node chain is fine) and count, for every node, how many edges point at it.  That
   count is the number of gradients it must receive before it can run.
2. Seed: the root gets its gradient (``1`` for a scalar loss, or the ``gradient=`` you passed).
3. Run: take a node whose count reached zero, call its backward with the summed gradients that
   arrived, pass each result along its edge, lower the counts of the nodes it feeds, and repeat.
   Among the nodes that are ready, the one created last runs first, and ``AccumulateGrad`` nodes
   run as soon as they are ready -- the order PyTorch's engine uses on the CPU.
4. Free: unless ``retain_graph=True``, each node drops its saved tensors after it ran.

``GraphTask.steps()`` yields one ``Step`` per node it runs; ``backward()`` just drains it, and
``minigrad.viz.BackwardStepper`` shows the same steps one at a time.  PyTorch's engine is C++ with
worker threads per device, a ready queue per thread and streams; the order on one CPU is the same.
"""
import contextlib
import heapq
import itertools
import threading

from . import anomaly_mode, grad_mode
from .function import AccumulateGrad, GradientEdge, edge_of
from ..devices import contiguous_format
from .._core import numpy_errors
from .._core.tensor_base import _warn_once
from .._dtype import from_numpy_dtype, is_expandable_to

CREATE_GRAPH_CYCLE = ("Using backward() with create_graph=True will create a reference cycle between the parameter and "
                      "its gradient which can cause a memory leak. We recommend using autograd.grad when creating the "
                      "graph to avoid this. If you have to use this function, make sure to reset the .grad fields of "
                      "your parameters to None after use to break the cycle and avoid the leak. (Triggered internally "
                      "at /__w/pytorch/pytorch/torch/csrc/autograd/engine.cpp:1307.)")


class _Running(threading.local):
    """The GraphTasks that run() is running now in this thread, the innermost last (PyTorch keeps
    its ``current_graph_task`` per thread too: each thread's backward is its own)."""

    def __init__(self):
        self.tasks = []


_running = _Running()


def innermost_task():
    """The GraphTask of the innermost backward running in this thread, or None."""
    return _running.tasks[-1] if _running.tasks else None
_task_ids = itertools.count()


def current_graph_task_id():
    """The id of the innermost backward running now, -1 outside backward (PyTorch: ``_current_graph_task_id``)."""
    task = innermost_task()
    return -1 if task is None else task.id


def _is_checkpoint_valid():
    """A reentrant checkpoint needs a plain backward: not ``grad()``, not ``backward(inputs=...)`` (PyTorch:
    ``torch.autograd._is_checkpoint_valid``)."""
    task = innermost_task()
    return task is None or not task.filtered


def will_execute(node):
    """Will the innermost running backward run ``node`` (or capture its gradient)?  (PyTorch:
    ``torch._C._will_engine_execute_node``.)"""
    task = innermost_task()
    if task is None:
        raise RuntimeError("_will_engine_execute_node should only be called during the backward pass")
    executes = node in task.to_run or node in task.capture
    if executes and isinstance(node, AccumulateGrad) and not task.accumulate_grad:
        raise RuntimeError("A leaf node was passed to _will_engine_execute_node but we are currently running "
                           "autograd.grad(). This is currently not supported.")
    return executes


class Step:
    """What one node did: the gradients that came in and the ones it sent along each edge."""
    __slots__ = ("index", "node", "grads_in", "grads_out", "executed")

    def __init__(self, index, node, grads_in, grads_out, executed):
        self.index = index
        self.node = node
        self.grads_in = grads_in      # one per output of the forward op (None if none arrived)
        self.grads_out = grads_out    # one per entry of node.next_functions ((): AccumulateGrad)
        self.executed = executed      # False for a node whose gradient was only captured

    def __repr__(self):
        return f"Step({self.index}, {self.node.name()})"


class GraphTask:
    """One run of backward from some roots (PyTorch: ``GraphTask``).

    ``roots`` are tensors, ``grads`` their gradients (tensors of the same shapes).  With ``inputs``
    only the nodes needed to reach those tensors run: for ``backward(inputs=...)`` the inputs' own nodes
    run too (a leaf's ``AccumulateGrad`` fills its ``.grad``); for ``autograd.grad`` (``accumulate=False``)
    nothing is accumulated into ``.grad``, and the gradients of the inputs end up in ``self.captured``.
    With ``accumulate=False`` and no ``inputs`` leaves are captured instead of accumulated (the stepper
    uses this).
    """

    filtered = False  # only what leads to the inputs runs (PyTorch: a non-empty exec_info_)
    needed = frozenset()  # backward(inputs=...): the nodes of the inputs, which must run
    capture = {}          # autograd.grad(): node -> [(input_nr, index into captured)], where gradients are kept
    captured = ()         # ... the gradients of grad()'s inputs, in order

    def __init__(self, roots, grads, keep_graph=False, create_graph=False, inputs=None, accumulate=True):
        self.keep_graph, self.create_graph = keep_graph, create_graph
        self.root_edges = _root_edges(roots)
        if accumulate and create_graph:  # backward(create_graph=True): PyTorch's engine warns, once per process
            _warn_once(CREATE_GRAPH_CYCLE)
        self.root_grads = [_root_grad(t, node, g) for t, (node, _), g in zip(roots, self.root_edges, grads)]
        self.accumulate = accumulate and inputs is None  # (accumulate: False for autograd.grad(), inputs or not)
        self.accumulate_grad = accumulate
        if inputs is not None:
            self.filtered = True
            self.needed, self.capture, self.captured = _targets(inputs, accumulate)
        self.dependencies, self.to_run = self._discover(self.filtered)
        self.id = next(_task_ids)

    # ---- 1. discover ----------------------------------------------------------------------
    def _discover(self, only_needed):
        """Count incoming edges per node; with ``only_needed``, keep just the nodes that lead to an input."""
        order, seen, deps = [], set(), {}
        stack = [node for node, _ in self.root_edges]
        seen.update(stack)
        while stack:  # an iterative depth-first walk; `order` lists every node after its parents
            node = stack.pop()
            order.append(node)
            for nxt, _ in node.next_functions:
                if nxt is not None:
                    deps[nxt] = deps.get(nxt, 0) + 1  # one more edge `nxt` must wait for
                    if nxt not in seen:
                        seen.add(nxt)
                        stack.append(nxt)
        if only_needed:  # autograd.grad() and backward(inputs=...): only the nodes on the way to the inputs
            return self._only_needed(order)
        # backward(): every node runs (AccumulateGrad only when accumulating)
        to_run = seen if self.accumulate else {n for n in seen if not isinstance(n, AccumulateGrad)}
        return deps, to_run

    def _only_needed(self, order):
        """The nodes that lead to an input, and the edges between them counted again (``order``: every node after
        its parents)."""
        # a node must run if it is needed (backward(inputs=...)) or some node that runs or is captured lies below it;
        # count only those edges
        to_run = set()
        for node in _children_first(order):
            if node in self.needed or any(nxt in to_run or nxt in self.capture
                                          for nxt, _ in node.next_functions if nxt is not None):
                to_run.add(node)
        deps = {}
        for node in to_run:
            for nxt, _ in node.next_functions:
                if nxt is not None and (nxt in to_run or nxt in self.capture):
                    deps[nxt] = deps.get(nxt, 0) + 1
        return deps, to_run

    # ---- 2. and 3. seed and run -------------------------------------------------------------
    def steps(self, trace=True):
        """Run the nodes one by one, yielding a ``Step`` after each (``trace=False``: run, yield nothing; ``run()``
        has set the engine's modes for the whole backward, ``self.mode()``; with ``trace`` each step sets them)."""
        buffers = {}   # node -> the gradients received so far, one slot per output of the forward op
        ready = []     # heap of (priority, tie, node): the node created last comes out first
        tie = itertools.count()
        with self.mode() if trace else _set_already:
            self._seed(buffers, ready, tie)
        deps, to_run, index = self.dependencies, self.to_run, 0
        while ready:
            node = heapq.heappop(ready)[2]
            with self.mode() if trace else _set_already:
                grads = buffers.pop(node)
                if node._tensor_pre_hooks or node._retained or node in self.capture:  # (one test for all three)
                    grads = self._received(node, grads)
                outs = self._call(node, grads) if node in to_run else ()  # (else only captured: a leaf for grad())
                for (nxt, nr), g in zip(node.next_functions, outs):
                    if nxt in deps:  # (not None, nor a node this task does not run)
                        self._add(buffers, nxt, nr, g)  # (g may be None: the edge still counts, as in PyTorch)
                        deps[nxt] -= 1  # one gradient fewer to wait for
                        if deps[nxt] == 0:
                            heapq.heappush(ready, (-nxt._sequence_nr, next(tie), nxt))
            if trace:
                yield Step(index, node, tuple(grads), outs, node in to_run)
            index += 1

    @contextlib.contextmanager
    def mode(self):
        """Grad mode as ``create_graph`` says (the formulas are recorded only then) and numpy quiet (inf * 0 and x / 0
        in backward formulas give nan and inf silently, as in PyTorch)."""
        state = grad_mode.state
        before, state.enabled = state.enabled, self.create_graph
        numpy_was = numpy_errors.quiet()
        try:
            yield
        finally:
            state.enabled = before
            if numpy_was is not None:
                numpy_errors.restore(numpy_was)

    def _seed(self, buffers, ready, tie):
        """2. Each root gets its gradient; a root that waits for no other gradient is ready."""
        for (node, nr), g in zip(self.root_edges, self.root_grads):
            self._add(buffers, node, nr, g)
        for node, _ in self.root_edges:
            if self.dependencies.get(node, 0) == 0 and node in buffers:
                heapq.heappush(ready, (-node._sequence_nr, next(tie), node))
                self.dependencies[node] = -1  # queued

    def _received(self, node, grads):
        """The gradients that reached ``node``, after its tensors' hooks and ``retain_grad`` (in the task's grad mode,
        like the node itself); kept in ``self.captured`` where ``autograd.grad`` asked for them."""
        if node._tensor_pre_hooks or node._retained:
            grads = self._run_tensor_hooks(node, grads)
        if node in self.capture:
            for nr, i in self.capture[node]:
                self.captured[i] = grads[nr]
        return grads

    def run(self):
        _running.tasks.append(self)  # (a node's backward may run a backward of its own: utils.checkpoint does)
        try:
            with self.mode():  # set once for the whole backward
                for _ in self.steps(trace=False):  # (never yields: there is nothing to wait for)
                    pass
        finally:
            _running.tasks.pop()
        return self

    def _add(self, buffers, node, nr, g):
        """Put gradient ``g`` into ``node``'s input slot ``nr``; add it if one is there already."""
        if node not in buffers:  # the first gradient (or None) to reach this node
            buffers[node] = [None] * node._num_inputs
        buf = buffers[node]
        if g is not None:
            buf[nr] = g if buf[nr] is None else self._sum(buf[nr], g)

    def _sum(self, a, b):
        """Two gradients reached the same input of a node (fan-out in the forward pass): add them."""
        return a + b

    def _run_tensor_hooks(self, node, grads):
        """Hooks registered with ``tensor.register_hook`` see (and may replace) the tensor's gradient."""
        for nr in range(len(grads)):
            hooks = node._tensor_pre_hooks.get(nr) if node._tensor_pre_hooks else None
            if hooks:  # (PyTorch calls them with None too, for a gradient that is undefined)
                for hook in list(hooks.values()):
                    with numpy_errors.users():  # (your code: its numpy warnings show)
                        new = hook(grads[nr])
                    if new is not None:
                        _check_hook_result(hook, grads[nr], new)
                        grads[nr] = new
            retained = node._retained.get(nr) if node._retained else None  # (backward, grad() and inputs= alike)
            tensor = retained() if retained is not None else None
            if tensor is not None and grads[nr] is not None:  # retain_grad(): keep a copy in .grad
                g = grads[nr] if self.create_graph else grads[nr].detach()
                tensor._grad = g.clone(memory_format=contiguous_format) if tensor._grad is None else tensor._grad + g
        return grads

    def _call(self, node, grads):
        """Run one node; with create_graph=True its formulas are recorded too."""
        try:
            if node._pre_hooks or node._post_hooks or node._user_code:
                outs = self._call_user_code(node, grads)
            elif self.filtered:  # grad(), backward(inputs=...): only the gradients of the edges this task runs
                outs = validate_outputs(node, self._apply_needed(node, grads))
            else:
                outs = validate_outputs(node, node.apply(*grads))
            if not self.keep_graph:
                node._release_saved()  # 4. free what this node saved
            if anomaly_mode.state.enabled:  # detect_anomaly: a nan among the gradients is an error
                anomaly_mode.check_nan(node, outs)
        except Exception:
            anomaly_mode.report_error(node)  # detect_anomaly: warn with the line of the program that made `node`
            raise
        return outs

    def _call_user_code(self, node, grads):
        """A node with hooks, or your own Function's: the hooks and your backward run in your numpy error state
        (its warnings show), the built-in formulas in the engine's (PyTorch's kernels warn of no inf or nan)."""
        if node._pre_hooks:
            with numpy_errors.users():
                for hook in list(node._pre_hooks.values()):
                    new = hook(tuple(grads))
                    if new is not None:
                        grads = list(new)
        if node._user_code:
            with numpy_errors.users():
                outs = node.apply(*grads)
        else:
            outs = node.apply(*grads) if not self.filtered else self._apply_needed(node, grads)
        outs = validate_outputs(node, outs)
        if node._post_hooks:
            with numpy_errors.users():
                for hook in list(node._post_hooks.values()):
                    new = hook(tuple(outs), tuple(grads))  # (both tuples, as in PyTorch)
                    if new is not None:
                        outs = tuple(new)
        return outs

    def _apply_needed(self, node, grads):
        """``node.apply(*grads)`` of a built-in node in a task that runs only what leads to its inputs (``grad()``,
        ``inputs=``): the node computes the gradients of the edges the task runs, and sends None along the others
        (PyTorch: ``task_should_compute_output``)."""
        runs = [nxt is not None and (nxt in self.to_run or nxt in self.capture) for nxt, _ in node.next_functions]
        if all(runs):
            return node.apply(*grads)
        needs = getattr(node, "needs_input_grad", None)  # (CopySlices has none)
        if needs is not None and len(runs) == node._is_tensor_input.count(True):  # (one edge per tensor argument)
            edges = iter(runs)  # a formula reads ctx.needs_input_grad: one flag per forward argument, tensor or not
            node.needs_input_grad = tuple([next(edges) and need if is_tensor else need
                                           for need, is_tensor in zip(needs, node._is_tensor_input)])
        try:
            outs = node.apply(*grads)
        finally:
            if needs is not None:
                node.needs_input_grad = needs
        return [g if run else None for g, run in zip(outs, runs)]


_set_already = contextlib.nullcontext()  # (steps() run by run(): the modes are set)


def validate_outputs(node, grads):
    """Each gradient ``node`` returned, made to fit the node it goes to (PyTorch: ``validate_outputs``): summed back
    to that input's shape where the op broadcast it, cast to its dtype (a leaf's: its ``grad_dtype``)."""
    for i, (g, (nxt, nr)) in enumerate(zip(grads, node.next_functions)):
        if g is None or nxt is None:
            continue
        shape, dtype = nxt.input_metadata(nr)
        if shape is not None and (g._data.shape != shape or (dtype is not None and g._data.dtype != dtype)):
            grads[i] = _fitted(node, i, g, shape, dtype)
    return grads


def _fitted(node, i, g, shape, dtype):
    """Gradient ``g`` (output ``i`` of ``node``) in ``shape`` and ``dtype`` (see validate_outputs)."""
    if g._data.shape != shape:
        if not is_expandable_to(shape, g._data.shape):
            raise RuntimeError(f"Function {node.name()} returned an invalid gradient at index {i} - got "
                               f"{list(g._data.shape)} but expected shape compatible with {list(shape)}")
        g = g.sum_to_size(shape)
    if dtype is not None and g._data.dtype != dtype:
        g = g.to(from_numpy_dtype(dtype))
    return g


def _root_edges(roots):
    """Where each root's gradient goes: its node (a leaf's AccumulateGrad) and output number."""
    edges = [edge_of(t) for t in roots]
    for i, (node, _) in enumerate(edges):
        if node is None:
            raise RuntimeError(f"element {i} of tensors does not require grad and does not have a grad_fn")
    return edges


def _targets(inputs, accumulate):
    """Where the ``inputs`` of ``backward(inputs=...)`` or ``autograd.grad`` are in the graph: for backward the nodes
    that must run (PyTorch marks them ``needed_`` in ``exec_info_``); for grad() where to capture gradients,
    node -> [(input_nr, index into captured)], and the list the captured gradients go into."""
    needed, capture = set(), {}
    for i, t in enumerate(inputs):
        node, nr = (t.node, t.output_nr) if isinstance(t, GradientEdge) else edge_of(t)
        if node is not None and accumulate:
            needed.add(node)
        elif node is not None:
            capture.setdefault(node, []).append((nr, i))
    return needed, capture, [None] * len(inputs)


def _root_grad(root, node, grad):
    """The gradient of a root in the dtype its node takes: the root's own, a leaf's ``grad_dtype`` (None: any).
    PyTorch's engine runs ``validate_outputs`` on the roots' gradients too, so ``y.backward(float64_gradient)`` of a
    float32 ``y`` reaches ``y``'s node (and its hooks) as float32."""
    dtype = node.grad_dtype if isinstance(node, AccumulateGrad) else root._data.dtype
    if grad is None or dtype is None or grad._data.dtype == dtype:
        return grad
    return grad.to(from_numpy_dtype(dtype))


def _check_hook_result(hook, grad, new):
    """A tensor hook may change the gradient's values, not its type or size (PyTorch's check_variable_result)."""
    from .._core.tensor_base import _TYPE_NAMES, TensorBase as Tensor
    name = getattr(hook, "__name__", type(hook).__name__)
    if grad is None:  # (PyTorch's check_single_result)
        raise RuntimeError("can't replace a None gradient with a non-None value")
    if not isinstance(new, Tensor):
        raise TypeError(f"expected Variable, but hook returned '{type(new).__name__}'")
    if new._data.dtype != grad._data.dtype:
        was, got = (_TYPE_NAMES[from_numpy_dtype(t._data.dtype).name] for t in (grad, new))
        raise RuntimeError(f"hook '{name}' has changed the type of value (was minigrad.{was}Tensor got "
                           f"minigrad.{got}Tensor)")
    if new._data.shape != grad._data.shape:
        raise RuntimeError(f"hook '{name}' has changed the size of value")


def _children_first(order):
    """Reverse of the discovery order, fixed up so that every node comes after all of its children."""
    position = {}
    result = []
    # iterative post-order depth-first walk
    for start in order:
        if start in position:
            continue
        stack = [(start, iter(start.next_functions))]
        position[start] = None
        while stack:
            node, edges = stack[-1]
            for nxt, _ in edges:
                if nxt is not None and nxt not in position:
                    position[nxt] = None
                    stack.append((nxt, iter(nxt.next_functions)))
                    break
            else:
                stack.pop()
                position[node] = len(result)
                result.append(node)
    return result
