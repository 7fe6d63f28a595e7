"""How ``Module.register_full_backward_hook`` sees a module's gradients (PyTorch: ``torch/utils/hooks.py``).

A module is not a node of the graph: its forward is many ops.  To see "the gradient w.r.t. the
module's inputs and outputs", PyTorch wraps both ends of the module in an identity Function,
``BackwardHookFunction``.  Its backward node, ``BackwardHookFunctionBackward``, shows up in the
graph (``y.grad_fn`` of a hooked module's output is one).  When backward reaches the node at the
outputs, the gradients w.r.t. the outputs are kept (and the backward *pre*-hooks may replace
them); when it reaches the node at the inputs, the user's hooks are called with both and may
replace the gradients w.r.t. the inputs.  minigrad does the same, with PyTorch's messages.
"""
import warnings

from ..autograd import grad_mode
from ..autograd.function import Function
from ..tensor import Tensor


class BackwardHookFunction(Function):
    """Identity: the tensors go through unchanged; the node only marks where the module begins/ends."""

    @staticmethod
    def forward(ctx, *args):
        ctx.mark_non_differentiable(*[arg for arg in args if not arg.requires_grad])
        return args

    @staticmethod
    def backward(ctx, *grads):
        return grads


class BackwardHook:
    """One module call's backward hooks: set up on the inputs before ``forward``, on the outputs after."""

    def __init__(self, module, user_hooks, user_pre_hooks):
        self.module = module
        self.user_hooks = user_hooks
        self.user_pre_hooks = user_pre_hooks
        self.grad_outputs = None
        self.n_inputs = self.n_outputs = -1
        self.input_tensors_index = self.output_tensors_index = None

    def setup_input_hook(self, args):
        """Wrap the inputs; the user's hooks run when the gradient reaches them."""
        res, self.input_tensors_index = self._apply_on_tensors(lambda node: node.register_hook(self._input_hook), args)
        self.n_inputs = len(args)
        return res

    def setup_output_hook(self, result):
        """Wrap the outputs; their gradients are kept (and the pre-hooks run) when backward reaches them."""
        args = result if isinstance(result, tuple) else (result,)
        res, self.output_tensors_index = self._apply_on_tensors(
            lambda node: node.register_hook(self._output_hook), args)
        self.n_outputs = len(args)
        return res if isinstance(result, tuple) else res[0]

    def _output_hook(self, _grad_inputs, grad_outputs):
        self.grad_outputs = _pack_with_none(self.output_tensors_index, grad_outputs, self.n_outputs)
        expected_len = len(self.grad_outputs)
        for user_pre_hook in self.user_pre_hooks:
            new = user_pre_hook(self.module, self.grad_outputs)
            if new is None:
                continue
            if len(new) != expected_len:
                raise RuntimeError("Backward pre hook returned an invalid number of grad_output, "
                                   f"got {len(new)}, but expected {expected_len}")
            self.grad_outputs = new
        local_grad_outputs = self.grad_outputs
        if self.input_tensors_index is None:  # no input needs a gradient: call the user's hooks now
            warnings.warn("Full backward hook is firing when gradients are computed with respect to module outputs "
                          "since no inputs require gradients. See https://docs.pytorch.org/docs/main/generated/"
                          "torch.nn.Module.html#torch.nn.Module.register_full_backward_hook for more details.",
                          stacklevel=5)
            grad_inputs = (None,) * self.n_inputs
            for user_hook in self.user_hooks:
                res = user_hook(self.module, grad_inputs, self.grad_outputs)
                if res is not None and not (isinstance(res, tuple) and all(el is None for el in res)):
                    raise RuntimeError("Backward hook for Modules where no input requires gradient should always "
                                       "return None or None for all gradients.")
            self.grad_outputs = None
        return tuple(local_grad_outputs[i] for i in self.output_tensors_index)

    def _input_hook(self, grad_inputs, _grad_outputs):
        if self.grad_outputs is None:  # the gradient reached the inputs without passing the outputs
            return None
        res = _pack_with_none(self.input_tensors_index, grad_inputs, self.n_inputs)
        for hook in self.user_hooks:
            out = hook(self.module, res, self.grad_outputs)
            if out is None:
                continue
            if len(out) != len(res):
                raise RuntimeError("Backward hook returned an invalid number of grad_input, "
                                   f"got {len(out)}, but expected {len(res)}")
            res = out
        self.grad_outputs = None
        return tuple(res[i] for i in self.input_tensors_index)

    @staticmethod
    def _apply_on_tensors(register, args):
        """Pass the tensors among ``args`` through one ``BackwardHookFunction``; hook its node."""
        index = [i for i, a in enumerate(args) if isinstance(a, Tensor)]
        tensors = [args[i] for i in index]
        if not (any(t.requires_grad for t in tensors) and grad_mode.is_grad_enabled()):
            return args, None
        new_tensors = BackwardHookFunction.apply(*tensors)
        register(next(t.grad_fn for t in new_tensors if t.grad_fn is not None))
        out = list(args)
        for i, t in zip(index, new_tensors):
            out[i] = t
        return tuple(out), index


def _pack_with_none(indices, values, size):
    """``values`` at ``indices`` of a tuple of ``size`` Nones (a module's non-tensor arguments get ``None``)."""
    res = [None] * size
    for i, v in zip(indices, values):
        res[i] = v
    return tuple(res)
