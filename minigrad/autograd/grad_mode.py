"""Grad mode: whether operations record themselves into the graph.

The flag belongs to the thread, as PyTorch's (its ``GradMode`` is thread-local): a thread that
updates its weights under ``no_grad`` does not stop another thread's forward pass from recording.
"""
import functools
import threading


class _GradMode(threading.local):
    enabled = True  # every thread starts with grad mode on


state = _GradMode()


def is_grad_enabled():
    return state.enabled


def _set(mode):
    state.enabled = bool(mode)


class _GradModeContext:
    """Base of ``no_grad`` / ``enable_grad`` / ``set_grad_enabled``: a context manager and a decorator."""
    mode = None

    def __enter__(self):
        self._prev, state.enabled = state.enabled, self.mode
        return None

    def __exit__(self, *exc):
        state.enabled = self._prev
        return False

    def __call__(self, fn):  # used as a decorator: the mode holds while fn runs
        mode = self.mode

        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            prev = state.enabled
            _set(mode)
            try:
                return fn(*args, **kwargs)
            finally:
                _set(prev)
        return wrapper


class no_grad(_GradModeContext):
    """``with minigrad.no_grad():`` computes without recording a graph (for evaluation, optimizer steps)."""
    mode = False


class enable_grad(_GradModeContext):
    """Turns recording back on inside a ``no_grad`` block."""
    mode = True


class set_grad_enabled(_GradModeContext):
    """``set_grad_enabled(False)`` switches recording off at once; as a context manager, for the block."""

    def __init__(self, mode):
        self._prev = state.enabled
        self.mode = state.enabled = bool(mode)

    def __enter__(self):
        return None
