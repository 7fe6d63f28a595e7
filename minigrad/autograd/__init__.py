"""minigrad.autograd: ``backward``, ``grad``, ``Function`` and friends (PyTorch: ``torch.autograd``).

The autograd layer sits below the ops (``minigrad/_core/__init__.py`` lists the layers), so this file
gathers only what is made of autograd alone. ``autograd.functional`` (``jacobian``, ``hessian``, ``vjp``,
``jvp``) is built from ops and creation functions too, so it is imported by ``minigrad/__init__.py``.
"""
from . import anomaly_mode, grad_mode, graph, profiler  # noqa: F401  (profiler: times the ops of a block)
from .anomaly_mode import detect_anomaly, set_detect_anomaly
from .engine import GraphTask, Step, _is_checkpoint_valid  # noqa: F401  (torch.autograd._is_checkpoint_valid)
from .gradcheck import GradcheckError, gradcheck, gradgradcheck  # noqa: F401
from .function import AccumulateGrad, BackwardNode, Function, Node, SavedTensor, grad_accumulator  # noqa: F401
from .grad_mode import enable_grad, is_grad_enabled, no_grad, set_grad_enabled  # noqa: F401
from .inference import inference_mode  # noqa: F401
from .run_backward import backward, grad  # noqa: F401
from .._core.tensor_base import TensorBase as Tensor


def Variable(data, requires_grad=False, volatile=False):
    """The pre-0.4 wrapper, kept for old code: today a Variable is just a Tensor.

    As in PyTorch, ``Variable(x, requires_grad=True)`` is a *new* leaf that shares ``x``'s numbers;
    ``x`` itself is left as it was.
    """
    t = data.detach() if isinstance(data, Tensor) else Tensor(data)
    if requires_grad:
        t.requires_grad_(True)
    return t


def __getattr__(name):  # (Python asks this for a name the module does not define)
    if name == "forward_ad":
        raise AttributeError("minigrad has no forward_ad: it computes gradients in reverse mode only (backward); "
                             "autograd.functional.jvp gives a Jacobian-vector product through two backwards; "
                             "PyTorch has torch.autograd.forward_ad")
    raise AttributeError(f"module 'minigrad.autograd' has no attribute '{name}'")
