"""``inference_mode``: ``no_grad`` for code that will never need a gradient (PyTorch: ``torch.inference_mode``).

Inside ``with minigrad.inference_mode():`` nothing is recorded, exactly as under ``no_grad``, and
every tensor made there is an *inference tensor* (``t.is_inference()``).  PyTorch gives such a
tensor no version counter, so that autograd can never check it later; hence its rules, which
minigrad keeps with PyTorch's messages:

- it cannot be saved for backward (``x * t`` with ``x`` requiring grad): ``InferenceCounter``
  refuses in ``SavedTensor``; ops that save nothing (``x + t``) are fine;
- outside inference mode it cannot be changed in place, nor made to require grad;
- ``t._version`` raises.

A view or a ``detach()`` shares its base's version counter, so it is an inference tensor exactly
when its base is one (a view of a normal tensor taken in inference mode stays normal, as in
PyTorch).  minigrad marks an inference tensor by the type of that counter: ``InferenceCounter``,
still a list with the number in-place ops bump inside inference mode, which nothing reads.
"""
import functools

from . import grad_mode
from .._core.tensor_base import InferenceCounter, inference_state, new_counter, set_inference_mode  # noqa: F401


_state = inference_state  # the flag each thread has (the base layer reads it to mark new tensors)

SAVED_MSG = ("Inference tensors cannot be saved for backward. Please do not use Tensors created in inference mode in "
             "computation tracked by autograd. To work around this, you can make a clone to get a normal tensor and "
             "use it in autograd, or use `torch.no_grad()` instead of `torch.inference_mode()`.")
INPLACE_MSG = ("Inplace update to inference tensor outside InferenceMode is not allowed.You can make a clone to get a "
               "normal tensor before doing inplace update.See https://github.com/pytorch/rfcs/pull/17 for more details.")
REQUIRES_GRAD_MSG = "Setting requires_grad=True on inference tensor outside InferenceMode is not allowed."
VERSION_MSG = "Inference tensors do not track version counter."


def is_inference(input):  # noqa: A002  (torch.is_inference(t) is t.is_inference())
    return type(input._vc) is InferenceCounter


def check_outside(t, msg):
    """Raise ``msg`` for an inference tensor when inference mode is off (in-place updates, requires_grad)."""
    if type(t._vc) is InferenceCounter and not _state.enabled:
        raise RuntimeError(msg)


def is_inference_mode_enabled():
    return _state.enabled


class inference_mode:  # noqa: N801  (PyTorch's name)
    """``with inference_mode():``, ``@inference_mode()`` or ``@inference_mode``; ``inference_mode(False)`` turns grad mode on."""

    def __new__(cls, mode=True):
        if callable(mode):  # used bare as a decorator: @inference_mode
            return cls()(mode)
        return super().__new__(cls)

    def __init__(self, mode=True):
        self.mode = mode

    def __enter__(self):
        self._prev = _state.enabled
        set_inference_mode(self.mode)
        self._grad = grad_mode.no_grad() if self.mode else grad_mode.enable_grad()  # as PyTorch: grad mode = not mode
        self._grad.__enter__()

    def __exit__(self, *exc):
        set_inference_mode(self._prev)
        self._grad.__exit__(*exc)
        return False

    def __call__(self, fn):
        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            with inference_mode(self.mode):
                return fn(*args, **kwargs)
        return wrapper
