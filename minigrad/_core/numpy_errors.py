"""numpy's floating-point warnings off inside minigrad's kernels (PyTorch's kernels make inf and nan silently).

``quiet()`` turns them off and returns what ``restore`` needs to turn them back as they were; the dispatcher calls
both around every op (``ops/dispatch.py``), the engine around a whole backward (``autograd/engine.py``).

numpy 2 keeps its error state (what ``np.errstate`` and ``np.seterr`` change) in a context variable.  ``quiet()`` sets
it to a quiet copy of the user's state (every warning off; the rest, such as ``np.seterrcall``, kept), made once per
state of the user's.  An op run inside another op, or inside a backward, finds one of those copies in force and
changes nothing.  (numpy 1 keeps the state elsewhere: ``np.seterr`` then does the same, more slowly.)

``users()`` gives the user's own state back for a while: around a hook or your own Function's ``backward``, run inside
a backward, so that your code's numpy warnings show.
"""
import contextlib
import threading

import numpy as np

try:
    from numpy._core._ufunc_config import _extobj_contextvar as _state  # numpy 2
except ImportError:
    _state = None

_quiet_of = {}         # the user's state -> its quiet copy
_users_of = {}         # a quiet copy -> the user's state it was made from (in force: numpy is quiet already)
_numpy1 = threading.local()  # numpy 1: the state quiet() found, per thread (numpy 1's own state is per thread)


def quiet():
    """Turn numpy's floating-point warnings off; returns what ``restore`` needs (None: they were off already)."""
    if _state is None:  # (numpy 1)
        if np.geterr() == _ALL_OFF:
            return None
        _numpy1.users = np.seterr(all="ignore")
        return _numpy1.users
    users = _state.get()
    if users in _users_of:
        return None
    return _state.set(_quiet_of.get(users) or _quiet_copy(users))


def restore(was):
    """numpy's error state back as ``quiet()`` found it (``was`` is what ``quiet()`` returned, not None)."""
    if _state is None:
        np.seterr(**was)
    else:
        _state.reset(was)


@contextlib.contextmanager
def users():
    """numpy's error state as the user had it before ``quiet()``, for user code run while it is quiet."""
    if _state is None:  # (numpy 1)
        with np.errstate(**getattr(_numpy1, "users", None) or np.geterr()):
            yield
        return
    now = _state.get()
    token = _state.set(_users_of.get(now, now))
    try:
        yield
    finally:
        _state.reset(token)


def _quiet_copy(users):
    """A copy of the user's state ``users`` (in force now) with every warning off, kept for the next time."""
    if len(_quiet_of) > 64:  # (a program that makes a new np.errstate in a loop: start again)
        _quiet_of.clear()
        _users_of.clear()
    with np.errstate(all="ignore"):
        quiet_state = _state.get()
    _quiet_of[users] = quiet_state
    _users_of[quiet_state] = users
    return quiet_state


_ALL_OFF = {"divide": "ignore", "over": "ignore", "under": "ignore", "invalid": "ignore"}

if _state is not None:  # the quiet copy of numpy's state at import, the one most programs keep, made now
    _quiet_copy(_state.get())
