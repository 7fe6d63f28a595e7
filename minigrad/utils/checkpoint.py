"""Gradient checkpointing: save less for backward, compute it again when backward needs it.

PyTorch: ``minigrad.utils.checkpoint``.  ``checkpoint(f, x)`` returns ``f(x)``, but the tensors that the ops inside
``f`` save for backward (notebook 06) are not kept: when backward needs them, ``f`` runs again.  Memory for time.
There are two ways to do it, and PyTorch has both:

- ``use_reentrant=False`` (recommended): ``f`` runs with its graph recorded as usual, under ``saved_tensors_hooks``
  whose pack hook keeps only a placeholder.  The first unpack in a backward runs ``f`` again on the same inputs,
  with hooks that collect what it saves, in the same order; every placeholder then gets its tensor.
- ``use_reentrant=True``: ``f`` runs under ``no_grad`` inside a custom Function, ``CheckpointFunction``, so nothing
  is recorded; its backward runs ``f`` again with grad mode on and calls ``backward()`` on that new graph: a
  backward inside a backward, hence "reentrant".  It cannot serve ``autograd.grad`` or ``backward(inputs=...)``.

Random ops (dropout) draw the same numbers again: the generator's state is saved and restored
(``preserve_rng_state``).  minigrad simplifies: no ``debug=True`` logs, no selective checkpointing, no devices.
"""
import contextlib
import warnings

from .. import random as _random
from ..autograd import engine, grad_mode, graph
from ..autograd.engine import _is_checkpoint_valid
from ..autograd.function import Function, SavedTensor, current_hooks
from ..tensor import Tensor

_DEBUG_TIP = """
Tip: To see a more detailed error message, either pass `debug=True` to
`minigrad.utils.checkpoint.checkpoint(...)` or wrap the code block
with `with minigrad.utils.checkpoint.set_checkpoint_debug_enabled(True):` to
enable checkpoint‑debug mode globally.

If this error occurs under minigrad.compile with automatic_dynamic_shapes enabled,
it may be because the recomputation selected a different compiled graph than the
forward pass (e.g., a dynamic graph instead of the original static graph).
To fix this, either:
  - Use minigrad._dynamo.mark_dynamic() to explicitly mark varying dimensions as
    dynamic upfront, avoiding the static-to-dynamic transition.
  - Call minigrad._C._dynamo.eval_frame._set_lru_cache(False) to disable LRU cache
    reordering, which can change which graph is checked first between forward
    and recompute.
See https://github.com/pytorch/pytorch/issues/166926 for more details and
workaround examples.
"""


class CheckpointError(RuntimeError):
    """What a recomputation that does not save what the forward saved raises."""


def detach_variable(inputs):
    """Each tensor of the tuple ``inputs`` detached, with its ``requires_grad`` kept."""
    if not isinstance(inputs, tuple):
        raise RuntimeError(f"Only tuple of tensors is supported. Got Unsupported input type: {type(inputs).__name__}")
    out = []
    for inp in inputs:
        if isinstance(inp, Tensor):
            x = inp.detach()
            x.requires_grad = inp.requires_grad
            inp = x
        out.append(inp)
    return tuple(out)


def check_backward_validity(inputs):
    if not any(inp.requires_grad for inp in inputs if isinstance(inp, Tensor)):
        warnings.warn("None of the inputs have requires_grad=True. Gradients will be None", stacklevel=2)


@contextlib.contextmanager
def _same_random_numbers(state):
    """Run the block with the generator in ``state`` (None: as it is), then put the generator back as it was
    (PyTorch: ``torch.random.fork_rng`` and ``set_rng_state``)."""
    if state is None:
        yield
        return
    current = _random.get_rng_state()
    _random.set_rng_state(state)
    try:
        yield
    finally:
        _random.set_rng_state(current)


# ---- use_reentrant=True: a custom Function that runs a backward inside its backward -----------------------
class CheckpointFunction(Function):
    @staticmethod
    def forward(ctx, run_function, preserve_rng_state, *args):
        check_backward_validity(args)
        ctx.run_function = run_function
        ctx.rng_state = _random.get_rng_state() if preserve_rng_state else None
        ctx.inputs = [None if isinstance(a, Tensor) else a for a in args]  # the tensors are saved for backward
        ctx.tensor_indices = [i for i, a in enumerate(args) if isinstance(a, Tensor)]
        ctx.save_for_backward(*[a for a in args if isinstance(a, Tensor)])
        with grad_mode.no_grad():
            return run_function(*args)

    @staticmethod
    def backward(ctx, *grads):
        if not _is_checkpoint_valid():
            raise RuntimeError("When use_reentrant=True, minigrad.utils.checkpoint is incompatible with .grad() or "
                               "passing an `inputs` parameter to .backward(). To resolve this error, you can either "
                               "set use_reentrant=False, or call .backward() without passing the `inputs` argument.")
        inputs = list(ctx.inputs)
        for i, t in zip(ctx.tensor_indices, ctx.saved_tensors):
            inputs[i] = t
        with _same_random_numbers(ctx.rng_state):
            detached = detach_variable(tuple(inputs))
            with grad_mode.enable_grad():  # the forward again, recorded this time
                outputs = ctx.run_function(*detached)
        outputs = (outputs,) if isinstance(outputs, Tensor) else outputs
        pairs = [(out, g) for out, g in zip(outputs, grads) if isinstance(out, Tensor) and out.requires_grad]
        if not pairs:
            raise RuntimeError("none of output has requires_grad=True, this checkpoint() is not necessary")
        from ..autograd import backward
        backward([out for out, _ in pairs], [g for _, g in pairs])  # a backward inside this backward
        return (None, None) + tuple(x.grad if isinstance(x, Tensor) else None for x in detached)


# ---- use_reentrant=False: placeholders in saved_tensors_hooks, filled by running the function again -----------
def _metadata(t):
    return {"shape": t.shape, "dtype": t.dtype, "device": t.device}


_METADATA = {"default": _metadata, "none": lambda t: None}


class _Stop(Exception):
    """The recomputation has given every saved tensor: the rest of the function need not run (early_stop)."""


class _Checkpoint:
    """One non-reentrant checkpoint (PyTorch: ``_CheckpointFrame`` with ``_checkpoint_hook``).

    The forward's pack hook hands out placeholders ``0, 1, 2 ...`` and notes each tensor's shape and dtype.  The
    first unpack in a backward runs the function again under ``_recording``: the n-th tensor it saves is the value
    of placeholder n.  Each placeholder is unpacked once per backward (PyTorch keys them by the graph task's id).
    """

    def __init__(self, function, args, kwargs, rng_state, metadata, early_stop, recompute_context):
        self.function, self.kwargs, self.rng_state = function, kwargs, rng_state
        # the inputs are saved tensors (version checked), packed by the saved-tensor hooks in force outside the
        # checkpoint (PyTorch saves them with its _NoopSaveInputs before it installs its own hooks)
        self.inputs = [SavedTensor(a, None, current_hooks()) if isinstance(a, Tensor) else a for a in args]
        self.metadata_fn, self.early_stop, self.recompute_context = metadata, early_stop, recompute_context
        self.saved_metadata = []  # one per tensor the forward saved
        self.recomputed = {}      # graph task id -> {placeholder: the tensor the recomputation saved}

    def pack(self, t):
        with grad_mode.no_grad():
            self.saved_metadata.append(self.metadata_fn(t))
        return len(self.saved_metadata) - 1

    def unpack(self, placeholder):
        task = engine.current_graph_task_id()
        if task == -1 or task not in self.recomputed:  # (outside backward, every unpack recomputes)
            self.recomputed[task] = self.recompute()
        values = self.recomputed[task]
        if placeholder not in values:
            raise CheckpointError("minigrad.utils.checkpoint: Unpack is being triggered for a tensor that was already "
                                  "unpacked once. If you are calling ctx.saved_tensors in backward, make sure to do "
                                  "so only once. Otherwise please open an issue with details on your use case.")
        return values.pop(placeholder)

    def recompute(self):
        values = {}

        def keep(t):  # the pack hook of the recomputation
            if len(values) >= len(self.saved_metadata):
                raise CheckpointError("minigrad.utils.checkpoint: trying to save more tensors during recomputation "
                                      "than during the original forward pass.\n" + _DEBUG_TIP)
            values[len(values)] = t.detach() if t.requires_grad else t
            if self.early_stop and len(values) == len(self.saved_metadata):
                raise _Stop
            return t

        inputs = [a.unpack(None) if isinstance(a, SavedTensor) else a for a in self.inputs]
        try:
            with _same_random_numbers(self.rng_state), graph.saved_tensors_hooks(keep, lambda t: t), \
                    grad_mode.enable_grad(), self.recompute_context:
                self.function(*inputs, **self.kwargs)
        except _Stop:
            pass
        self.check(values)
        return values

    def check(self, values):
        """The recomputation must save as many tensors as the forward did, of the same shapes and dtypes."""
        if len(values) != len(self.saved_metadata):
            raise CheckpointError("minigrad.utils.checkpoint: A different number of tensors was saved during the "
                                  "original forward and recomputation.\nNumber of tensors saved during forward: "
                                  f"{len(self.saved_metadata)}\nNumber of tensors saved during recomputation: "
                                  f"{len(values)}.\n{_DEBUG_TIP}")
        different = ""
        for i, meta in enumerate(self.saved_metadata):
            again = self.metadata_fn(values[i])
            if again != meta:
                different += f"tensor at position {i}:\nsaved metadata: {meta}\nrecomputed metadata: {again}\n"
        if different:
            raise CheckpointError("minigrad.utils.checkpoint: Recomputed values for the following tensors have "
                                  f"different metadata than during the forward pass.\n{different}.\n{_DEBUG_TIP}")


def _without_reentrant(function, preserve_rng_state, context_fn, determinism_check, debug, early_stop, args,
                       kwargs):
    if debug:
        raise NotImplementedError("minigrad.utils.checkpoint has no debug mode (PyTorch logs every operator of the "
                                  "forward and of the recomputation to compare them)")
    if determinism_check not in _METADATA:
        raise ValueError(f"determinism_check should be one of {list(_METADATA)}, but got {determinism_check}")
    forward_context, recompute_context = context_fn()
    if not grad_mode.is_grad_enabled():  # nothing is saved for backward: a plain call
        return function(*args, **kwargs)
    frame = _Checkpoint(function, args, kwargs, _random.get_rng_state() if preserve_rng_state else None,
                        _METADATA[determinism_check], early_stop, recompute_context)
    with graph.saved_tensors_hooks(frame.pack, frame.unpack), forward_context:
        return function(*args, **kwargs)


# ---- the two functions users call ---------------------------------------------------------------------------
def noop_context_fn():
    return contextlib.nullcontext(), contextlib.nullcontext()


def checkpoint(function, *args, use_reentrant=None, context_fn=noop_context_fn, determinism_check="default",
               debug=False, early_stop=True, **kwargs):
    """``function(*args, **kwargs)``, keeping for backward only the inputs (see the top of this file)."""
    if use_reentrant is None:
        warnings.warn("minigrad.utils.checkpoint: the use_reentrant parameter should be passed explicitly. Starting in "
                      "PyTorch 2.9, calling checkpoint without use_reentrant will raise an exception. "
                      "use_reentrant=False is recommended, but if you need to preserve the current default behavior, "
                      "you can pass use_reentrant=True. Refer to docs for more details on the differences between "
                      "the two variants.", stacklevel=2)
        use_reentrant = True
    preserve = kwargs.pop("preserve_rng_state", True)
    if kwargs and use_reentrant:
        raise ValueError("Unexpected keyword arguments: " + ",".join(arg for arg in kwargs))
    if use_reentrant:
        if context_fn is not noop_context_fn or debug is not False:
            raise ValueError("Passing `context_fn` or `debug` is only supported when use_reentrant=False.")
        return CheckpointFunction.apply(function, preserve, *args)
    return _without_reentrant(function, preserve, context_fn, determinism_check, debug, early_stop, args, kwargs)


def checkpoint_sequential(functions, segments, input, use_reentrant=None, **kwargs):  # noqa: A002
    """Run ``functions`` (a list or an ``nn.Sequential``) one after the other, checkpointing all but the last of
    ``segments`` equal parts."""
    from ..nn import Sequential
    if use_reentrant is None:
        warnings.warn("minigrad.utils.checkpoint.checkpoint_sequential: the use_reentrant parameter should be passed "
                      "explicitly. In version 2.9 we will raise an exception if use_reentrant is not passed. "
                      "use_reentrant=False is recommended, but if you need to preserve the current default behavior, "
                      "you can pass use_reentrant=True. Refer to docs for more details on the differences between "
                      "the two variants.", stacklevel=2)
        use_reentrant = True
    preserve = kwargs.pop("preserve_rng_state", True)
    if kwargs:
        raise ValueError("Unexpected keyword arguments: " + ",".join(arg for arg in kwargs))

    def run(start, end):
        def forward(x):
            for j in range(start, end + 1):
                x = functions[j](x)
            return x
        return forward

    if isinstance(functions, Sequential):
        functions = list(functions.children())
    size = len(functions) // segments
    end = -1
    for start in range(0, size * (segments - 1), size):  # the last part runs as usual: its output needs a graph
        end = start + size - 1
        input = checkpoint(run(start, end), input, use_reentrant=use_reentrant, preserve_rng_state=preserve)
    return run(end + 1, len(functions) - 1)(input)
