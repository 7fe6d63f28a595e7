"""Hooks on saved tensors (PyTorch: ``torch.autograd.graph``).

When an op saves a tensor for backward (``ctx.save_for_backward`` in a Function, the input of
``x.pow(2)``, the output of ``x.exp()``), the innermost ``saved_tensors_hooks`` in force gets
it: ``pack_hook(tensor)`` returns whatever should be kept instead (a copy, a file name, a key
into a dict), and ``unpack_hook(packed)`` turns that back into a tensor when backward (or
``grad_fn._saved_self``) reads it::

    with minigrad.autograd.graph.saved_tensors_hooks(pack, unpack):
        y = x.pow(2)        # pack(x) runs here
    y.sum().backward()      # unpack(...) runs here

PyTorch keeps the stack of hooks in C++ per thread; minigrad keeps it in this module.
"""
from .function import Node, SavedTensor  # noqa: F401  (torch.autograd.graph.Node; grad_fn._raw_saved_* objects)

_hooks = []       # the saved_tensors_hooks in force, innermost last: (pack_hook, unpack_hook)
_disabled = []    # the messages of the disable_saved_tensors_hooks in force, innermost last


def current_hooks():
    """The ``(pack_hook, unpack_hook)`` pair a tensor saved now gets, or None."""
    return _hooks[-1] if _hooks else None


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
        if _disabled:  # PyTorch: SavedTensorDefaultHooks::push_hooks checks the "disabled" message first
            raise RuntimeError(_disabled[-1])
        _hooks.append((self.pack_hook, self.unpack_hook))

    def __exit__(self, *exc):
        _hooks.pop()
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
        if _hooks:
            raise RuntimeError(self.error_message)
        _disabled.append(self.error_message)

    def __exit__(self, *exc):
        _disabled.pop()
        return False
