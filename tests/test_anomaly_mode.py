"""Anomaly mode (``minigrad.autograd.detect_anomaly``): what the parity cases can't show.

The parity case ``ag_anomaly_mode`` compares the messages, the warnings and the stored line with PyTorch; here:
which frames a node remembers, that the mode costs nothing when off, and that the setting comes back.
"""
import warnings

import pytest

import minigrad
from minigrad import nn


def test_a_node_remembers_the_callers_frames_not_minigrads_own():
    x = minigrad.ones(2, 3, requires_grad=True)
    layer = nn.Linear(3, 2)
    with minigrad.autograd.set_detect_anomaly(True):
        y = layer(x).relu()          # relu: made here; the Linear's node: inside nn/linear.py, as in PyTorch's nn
    stack = y.grad_fn.metadata["traceback_"]
    assert "test_anomaly_mode.py" in stack[-1] and "y = layer(x).relu()" in stack[-1]
    assert not any("minigrad/tensor.py" in f or "minigrad/ops/" in f or "minigrad/autograd/" in f for f in stack)
    linear_stack = y.grad_fn.next_functions[0][0].metadata["traceback_"]
    assert "minigrad/nn/" in linear_stack[-1].replace("\\", "/")  # Linear.forward's line, like torch/nn/modules/linear.py
    assert any("y = layer(x).relu()" in f for f in linear_stack)


def test_off_by_default_and_nothing_is_stored():
    assert not minigrad.is_anomaly_enabled() and minigrad.is_anomaly_check_nan_enabled()
    y = minigrad.ones(2, requires_grad=True) * 2
    assert y.grad_fn.metadata == {}


def test_the_setting_comes_back_after_an_error():
    z = minigrad.tensor([0.0, 1.0], requires_grad=True)
    with pytest.raises(RuntimeError, match=r"Function 'SqrtBackward0' returned nan values in its 0th output\."):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            with minigrad.autograd.detect_anomaly(check_nan=True):
                (z.sqrt() * 0).sum().backward()
    assert not minigrad.is_anomaly_enabled()
    (z.sqrt() * 0).sum().backward()  # off again: the nan flows into .grad silently, as in PyTorch
    assert minigrad.isnan(z.grad[0])


def test_a_failing_hook_is_reported_with_the_nodes_line():
    x = minigrad.ones(2, requires_grad=True)
    with minigrad.autograd.set_detect_anomaly(True):
        y = x * 2
        y.grad_fn.register_prehook(lambda grads: 1 / 0)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            with pytest.raises(ZeroDivisionError):
                y.sum().backward()
    assert str(caught[0].message).startswith("Error detected in MulBackward0. Traceback of forward call")
    assert "y = x * 2" in str(caught[0].message)


def test_the_stepper_runs_the_same_checks():
    from minigrad.viz import BackwardStepper
    z = minigrad.tensor([0.0, 1.0], requires_grad=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with minigrad.autograd.set_detect_anomaly(True):
            y = (z.sqrt() * 0).sum()
            with pytest.raises(RuntimeError, match="SqrtBackward0' returned nan"):
                BackwardStepper(y).steps

