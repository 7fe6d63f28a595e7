"""Grad mode, inference mode, saved-tensor hooks and the running backward belong to the thread, as in
PyTorch: threads that train at the same time each get their own right gradients.

After the multithreading example of PyTorch's "Autograd mechanics" notes (ten threads, each running
its own forward and backward), with an optimizer update under ``no_grad`` in every step, so that a
process-wide grad mode would let one thread's update switch off another thread's recording.
"""
import sys
import threading

import numpy as np
import pytest

import minigrad


def train_fn(steps=20):
    x = minigrad.ones(5, 5, requires_grad=True)
    losses = []
    for _ in range(steps):
        y = (x + 3) * (x + 4) * 0.5
        loss = y.sum()
        losses.append(loss.item())
        loss.backward()
        with minigrad.no_grad():   # the optimizer's update
            x -= 0.01 * x.grad
            x.grad.zero_()
    return losses, x.detach().numpy().copy()


def run_threads(n=10):
    results, errors = [None] * n, []

    def work(i):
        try:
            results[i] = train_fn()
        except Exception as e:  # noqa: BLE001  (reported below, with the thread that raised it)
            errors.append(f"thread {i}: {type(e).__name__}: {e}")

    threads = [threading.Thread(target=work, args=(i,)) for i in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return results, errors


@pytest.fixture
def switch_often():
    """Let the threads take turns every few bytecodes, so their steps interleave."""
    before = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    yield
    sys.setswitchinterval(before)


def test_ten_threads_training_at_once_get_their_own_gradients_20_times_in_a_row(switch_often):
    want_losses, want_x = train_fn()
    for run in range(20):
        results, errors = run_threads()
        assert not errors, f"run {run}: " + "; ".join(errors)
        for i, (losses, x) in enumerate(results):
            assert losses == want_losses, f"run {run}, thread {i}: losses {losses} != {want_losses}"
            np.testing.assert_array_equal(x, want_x, err_msg=f"run {run}, thread {i}")


def test_grad_mode_and_inference_mode_are_per_thread():
    seen = {}
    inside, done = threading.Event(), threading.Event()

    def other():
        inside.wait()
        seen["grad"] = minigrad.is_grad_enabled()
        seen["inference"] = minigrad.is_inference_mode_enabled()
        seen["records"] = (minigrad.ones(2, requires_grad=True) * 2).grad_fn is not None
        done.set()

    t = threading.Thread(target=other)
    t.start()
    with minigrad.inference_mode():
        with minigrad.no_grad():
            inside.set()
            done.wait()
    t.join()
    assert seen == {"grad": True, "inference": False, "records": True}


def test_saved_tensor_hooks_are_per_thread():
    packed = []
    inside, done = threading.Event(), threading.Event()

    def other():
        inside.wait()
        x = minigrad.ones(2, requires_grad=True)
        (x * x).sum()          # saves x twice: no hook of the main thread may see it
        done.set()

    t = threading.Thread(target=other)
    t.start()
    with minigrad.autograd.graph.saved_tensors_hooks(lambda t: packed.append(t) or t, lambda t: t):
        inside.set()
        done.wait()
    t.join()
    assert packed == []


def test_a_backward_in_another_thread_is_not_the_running_one():
    ids = {}
    started, finish = threading.Event(), threading.Event()

    def hook(grad):  # runs inside the main thread's backward, while the other thread looks
        started.set()
        finish.wait()
        ids["main"] = minigrad.autograd.engine.current_graph_task_id()
        return grad

    def other():
        started.wait()
        ids["other"] = minigrad.autograd.engine.current_graph_task_id()
        finish.set()

    t = threading.Thread(target=other)
    t.start()
    x = minigrad.ones(2, requires_grad=True)
    y = x * 2
    y.register_hook(hook)
    y.sum().backward()
    t.join()
    assert ids["other"] == -1 and ids["main"] >= 0
