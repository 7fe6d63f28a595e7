"""Hooks on saved tensors (PyTorch: ``torch.autograd.graph``).

When an op saves a tensor for backward (``ctx.save_for_backward`` in a Function, the input of
``x.pow(2)``, the output of ``x.exp()``), the innermost ``saved_tensors_hooks`` in force gets
it: ``pack_hook(tensor)`` returns whatever should be kept instead (a copy, a file name, a key
into a dict), and ``unpack_hook(packed)`` turns that back into a tensor when backward (or
``grad_fn._saved_self``) reads it::

    with minigrad.autograd.graph.saved_tensors_hooks(pack, unpack):
        y = x.pow(2)        # pack(x) runs here
    y.sum().backward()      # unpack(...) runs here

PyTorch keeps the stack of hooks in C++ per thread; minigrad keeps it per thread beside ``SavedTensor``
(``function.py``, ``saved_hooks``), which reads it.
"""
from . import engine
from .._core.tensor_base import TensorBase as Tensor
from .function import GradientEdge, Node, SavedTensor, edge_of  # noqa: F401  (torch.autograd.graph's names)
from .function import current_hooks, saved_hooks  # noqa: F401  (current_hooks: the pair in force)
from .function import pop_saved_hooks, push_saved_hooks
from .inference import InferenceCounter

class saved_tensors_hooks:
    """Context manager: tensors saved for backward inside it go through ``pack_hook`` and, when
    backward reads them, ``unpack_hook`` (PyTorch: ``torch.autograd.graph.saved_tensors_hooks``).

    ``unpack_hook`` must return a tensor with the values that were packed.  Only the innermost
    pair applies.  A Python number next to a tensor (the 2 of ``x * 2.0``) is not packed, as in
    PyTorch.
    """

    def __init__(self, pack_hook, unpack_hook):
        self.pack_hook = pack_hook
        self.unpack_hook = unpack_hook

    def __enter__(self):
        if saved_hooks.disabled:  # PyTorch: SavedTensorDefaultHooks::push_hooks checks the "disabled" message first
            raise RuntimeError(saved_hooks.disabled[-1])
        push_saved_hooks(self.pack_hook, self.unpack_hook)

    def __exit__(self, *exc):
        pop_saved_hooks()
        return False


class save_on_cpu(saved_tensors_hooks):
    """Keep saved tensors in CPU memory (PyTorch moves CUDA tensors there and back to their device).

    minigrad runs on the CPU only, so ``tensor.cpu()`` is the tensor itself, as in PyTorch for a
    CPU tensor; ``pin_memory=True`` (a page-locked copy in PyTorch) makes a plain copy here.
    """

    def __init__(self, pin_memory=False, device_type="cuda"):
        def pack_to_cpu(tensor):
            if not pin_memory:
                return (tensor.device, tensor.cpu())
            return (tensor.device, tensor.detach().clone())

        def unpack_from_cpu(packed):
            device, tensor = packed
            return tensor.to(device)

        super().__init__(pack_to_cpu, unpack_from_cpu)


class disable_saved_tensors_hooks:
    """Inside it, entering ``saved_tensors_hooks`` raises ``RuntimeError(error_message)``; entering it
    while such hooks are in force raises the same (PyTorch: ``disable_saved_tensors_hooks``)."""

    def __init__(self, error_message):
        self.error_message = error_message

    def __enter__(self):
        if saved_hooks.hooks:
            raise RuntimeError(self.error_message)
        saved_hooks.disabled.append(self.error_message)

    def __exit__(self, *exc):
        saved_hooks.disabled.pop()
        return False


def get_gradient_edge(tensor):
    """The edge where ``tensor``'s gradient arrives: its ``grad_fn`` and ``output_nr`` (a leaf: its AccumulateGrad)."""
    if not tensor.requires_grad:
        raise RuntimeError("It is not possible to get the gradient edge for a Tensor that does not require gradients")
    node, output_nr = edge_of(tensor)
    return GradientEdge(node, output_nr)


def increment_version(tensor):
    """Note that ``tensor`` (or each tensor of a list) was changed in place behind autograd's back, e.g. through
    ``.numpy()``: backward then refuses the saved copies of its old values, as after any in-place op."""
    for t in (tensor,) if isinstance(tensor, Tensor) else tensor:
        if type(t._vc) is not InferenceCounter:  # (an inference tensor has no version to bump, as in PyTorch)
            t._vc[0] += 1


class _MultiHandle:
    """The handle ``register_multi_grad_hook`` returns: ``remove()`` removes the hook from every tensor."""

    def __init__(self, handles):
        self.handles = handles

    def remove(self):
        for handle in self.handles:
            handle.remove()


def register_multi_grad_hook(tensors, fn, *, mode="all"):
    """Call ``fn`` once per backward when the gradients of several tensors are known (PyTorch's own).

    ``mode="all"``: ``fn(grads)`` once the gradients of all of ``tensors`` that this backward computes have arrived
    (``None`` for those it does not compute).  ``mode="any"``: ``fn(grad)`` with the first gradient that arrives.
    Both are built from ordinary tensor hooks that count, per backward (``current_graph_task_id``), what arrived.
    """
    if mode not in ("all", "any"):
        raise ValueError(f"Expects mode to be one of {('all', 'any')} but got {mode}")
    if mode == "any":
        seen = set()  # the backwards that already called fn

        def first(grad):
            task = engine.current_graph_task_id()
            if task not in seen:
                seen.add(task)
                fn(grad)
        return _MultiHandle(tuple(t.register_hook(first) for t in tensors if t.requires_grad))

    nodes = [edge_of(t)[0] for t in tensors]  # (a leaf's: its AccumulateGrad)
    arrived = {}  # backward's id -> [how many hooks ran, the gradients so far (one slot per tensor)]

    def hook_for(i):
        def hook(grad):
            task = engine.current_graph_task_id()
            if task not in arrived:
                arrived[task] = [0, [None] * len(tensors)]
            arrived[task][0] += 1
            arrived[task][1][i] = grad
            if arrived[task][0] == sum(1 for node in nodes if engine.will_execute(node)):
                fn(arrived.pop(task)[1])
        return hook
    return _MultiHandle(tuple(t.register_hook(hook_for(i)) for i, t in enumerate(tensors)))
