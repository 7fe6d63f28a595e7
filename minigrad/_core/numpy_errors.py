"""numpy's floating-point warnings off inside minigrad's kernels (PyTorch's kernels make inf and nan silently).

``quiet()`` turns them off and returns what ``restore`` needs to turn them back as they were; the dispatcher calls
both around every op (``ops/dispatch.py``), the engine around a whole backward (``autograd/engine.py``).

numpy 2 keeps its error state (what ``np.errstate`` and ``np.seterr`` change) in a context variable.  ``quiet()`` sets
it to a quiet copy of the user's state (every warning off; the rest, such as ``np.seterrcall``, kept), made once per
state of the user's.  An op run inside another op, or inside a backward, finds one of those copies in force and
changes nothing.  (numpy 1 keeps the state elsewhere: ``np.seterr`` then does the same, more slowly.)
"""
import numpy as np

try:
    from numpy._core._ufunc_config import _extobj_contextvar as _state  # numpy 2
except ImportError:
    _state = None

_quiet_of = {}         # the user's state -> its quiet copy
_quiet_copies = set()  # the copies made: in force, numpy is quiet already


def quiet():
    """Turn numpy's floating-point warnings off; returns what ``restore`` needs (None: they were off already)."""
    if _state is None:  # (numpy 1)
        return None if np.geterr() == _ALL_OFF else np.seterr(all="ignore")
    users = _state.get()
    if users in _quiet_copies:
        return None
    return _state.set(_quiet_of.get(users) or _quiet_copy(users))


def restore(was):
    """numpy's error state back as ``quiet()`` found it (``was`` is what ``quiet()`` returned, not None)."""
    if _state is None:
        np.seterr(**was)
    else:
        _state.reset(was)


def _quiet_copy(users):
    """A copy of the user's state ``users`` (in force now) with every warning off, kept for the next time."""
    if len(_quiet_of) > 64:  # (a program that makes a new np.errstate in a loop: start again)
        _quiet_of.clear()
        _quiet_copies.clear()
    with np.errstate(all="ignore"):
        quiet_state = _state.get()
    _quiet_of[users] = quiet_state
    _quiet_copies.add(quiet_state)
    return quiet_state


_ALL_OFF = {"divide": "ignore", "over": "ignore", "under": "ignore", "invalid": "ignore"}
