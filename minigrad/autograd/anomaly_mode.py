"""Anomaly detection: where did the failing gradient come from? (PyTorch: ``torch.autograd.anomaly_mode``.)

An error in backward names a node (``SqrtBackward0``), not the line of your program that made it.  With anomaly
mode on, every node remembers the Python stack of the forward call that made it, in ``grad_fn.metadata
["traceback_"]``; when backward fails in a node, a warning prints that stack before the error.  With
``check_nan`` (the default) a gradient with a nan in it is an error too::

    with minigrad.autograd.detect_anomaly():
        y = x.sqrt() * 0          # sqrt's gradient at 0 is inf, and inf * 0 is nan
        y.sum().backward()        # RuntimeError: Function 'SqrtBackward0' returned nan values in its 0th output.

PyTorch keeps the switch in C++ (``AnomalyMode``), stores the stack when a node is constructed and checks for nan
in ``Engine::evaluate_function``; minigrad does the same in ``_record`` and ``GraphTask._call``.  PyTorch also
notes, for a node made during a backward with ``create_graph=True``, the node whose backward made it (printed as
"Previous calculation was induced by ..."); minigrad leaves that out.
"""
import os
import traceback
import warnings

import numpy as np



class _Switch:
    """Anomaly mode is on for the whole process, as PyTorch's (``AnomalyMode::_enabled``)."""
    enabled = False   # read as anomaly_mode.state.enabled where a node is made or run
    check_nan = True


state = _Switch()
_PACKAGE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # minigrad/
_NN = os.path.join(_PACKAGE, "nn")


def is_anomaly_enabled():
    """Is anomaly detection on? (PyTorch: ``torch.is_anomaly_enabled``.)"""
    return state.enabled


def is_anomaly_check_nan_enabled():
    """Does anomaly detection also treat a nan gradient as an error? (``torch.is_anomaly_check_nan_enabled``.)"""
    return state.check_nan


def set_anomaly_enabled(enabled, check_nan=True):
    """Switch anomaly detection on or off (PyTorch: ``torch.set_anomaly_enabled``)."""
    state.enabled, state.check_nan = bool(enabled), bool(check_nan)


class detect_anomaly:
    """Context manager that turns anomaly detection on inside it (and warns that it is on, as PyTorch does)."""

    def __init__(self, check_nan=True):
        self.prev, self.prev_check_nan = is_anomaly_enabled(), is_anomaly_check_nan_enabled()
        self.check_nan = check_nan
        warnings.warn("Anomaly Detection has been enabled. This mode will increase the runtime and should only be "
                      "enabled for debugging.", stacklevel=2)

    def __enter__(self):
        set_anomaly_enabled(True, self.check_nan)

    def __exit__(self, *exc):
        set_anomaly_enabled(self.prev, self.prev_check_nan)


class set_detect_anomaly:
    """Turn anomaly detection on or off at once; used as a context manager, the old setting comes back at the end."""

    def __init__(self, mode, check_nan=True):
        self.prev, self.prev_check_nan = is_anomaly_enabled(), is_anomaly_check_nan_enabled()
        set_anomaly_enabled(mode, check_nan)

    def __enter__(self):
        pass

    def __exit__(self, *exc):
        set_anomaly_enabled(self.prev, self.prev_check_nan)


def store_stack(node):
    """Remember the forward call that made ``node`` (PyTorch: ``PyAnomalyMetadata::store_stack``).

    The frames inside minigrad's tensor, op and autograd code are left out: in PyTorch that code is C++ and has no
    Python frames (minigrad's ``nn`` modules stay, as PyTorch's Python ``nn`` modules do).
    """
    frames = traceback.extract_stack()[:-1]
    while frames and _inside_minigrad(frames[-1].filename):
        frames.pop()
    node.metadata["traceback_"] = traceback.format_list(frames)


def _inside_minigrad(filename):
    path = os.path.abspath(filename)
    return path.startswith(_PACKAGE + os.sep) and not path.startswith(_NN + os.sep)


def check_nan(node, grads):
    """A gradient with a nan in it is an error (PyTorch: in ``Engine::evaluate_function``, with check_nan)."""
    if not state.check_nan:
        return
    for i, g in enumerate(grads):
        if g is not None and np.isnan(g._data).any():
            raise RuntimeError(f"Function '{node.name()}' returned nan values in its {i}th output.")


def report_error(node):
    """Backward failed in ``node``: warn with the forward call that made it (PyTorch: ``print_stack``)."""
    if not state.enabled:
        return
    stack = node.metadata.get("traceback_")
    if stack is None:
        warnings.warn(f"Error detected in {node.name()}. No forward pass information available. Enable detect "
                      "anomaly during forward pass for more information. (Triggered internally at "
                      "/__w/pytorch/pytorch/torch/csrc/autograd/python_anomaly_mode.cpp:100.)", stacklevel=2)
    else:
        warnings.warn(f"Error detected in {node.name()}. Traceback of forward call that caused the error:\n"
                      + "".join(stack) + " (Triggered internally at "
                      "/__w/pytorch/pytorch/torch/csrc/autograd/python_anomaly_mode.cpp:122.)", stacklevel=2)
