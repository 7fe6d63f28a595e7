"""Grad mode: whether operations record themselves into the graph.

PyTorch keeps this flag per thread; minigrad keeps one global flag (no threads here).
"""
import functools

_enabled = True


def is_grad_enabled():
    return _enabled


def _set(mode):
    global _enabled
    _enabled = bool(mode)


class _GradModeContext:
    """Base of ``no_grad`` / ``enable_grad`` / ``set_grad_enabled``: a context manager and a decorator."""
    mode = None

    def __enter__(self):
        global _enabled
        self._prev, _enabled = _enabled, self.mode
        return None

    def __exit__(self, *exc):
        global _enabled
        _enabled = self._prev
        return False

    def __call__(self, fn):  # used as a decorator: the mode holds while fn runs
        mode = self.mode

        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            prev = _enabled
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
        global _enabled
        self._prev = _enabled
        self.mode = _enabled = bool(mode)

    def __enter__(self):
        return None
