"""``inference_mode``: ``no_grad`` for code that will never need a gradient (PyTorch: ``torch.inference_mode``).

Inside ``with minigrad.inference_mode():`` nothing is recorded, exactly as under ``no_grad``.
PyTorch goes one step further: the tensors made inside are *inference tensors*, which skip the
version counter and may never be used in a graph later ("Inference tensors cannot be saved for
backward").  minigrad keeps no such mark: its tensors made in inference mode are ordinary tensors
that need no gradient, as under ``no_grad``.
"""
import functools

from . import grad_mode

_enabled = False


def is_inference_mode_enabled():
    return _enabled


class inference_mode:  # noqa: N801  (PyTorch's name)
    """``with inference_mode():``, ``@inference_mode()`` or ``@inference_mode``; ``inference_mode(False)`` turns grad mode on."""

    def __new__(cls, mode=True):
        if callable(mode):  # used bare as a decorator: @inference_mode
            return cls()(mode)
        return super().__new__(cls)

    def __init__(self, mode=True):
        self.mode = mode

    def __enter__(self):
        global _enabled
        self._prev = _enabled
        _enabled = bool(self.mode)
        self._grad = grad_mode.no_grad() if self.mode else grad_mode.enable_grad()  # as PyTorch: grad mode = not mode
        self._grad.__enter__()

    def __exit__(self, *exc):
        global _enabled
        _enabled = self._prev
        self._grad.__exit__(*exc)
        return False

    def __call__(self, fn):
        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            with inference_mode(self.mode):
                return fn(*args, **kwargs)
        return wrapper
