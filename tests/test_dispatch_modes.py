"""The modes every op runs in, kept cheaply by the dispatcher: numpy quiet inside kernels (by the identity of numpy's
error-state context variable), and inference mode and saved-tensor hooks counted across threads."""
import contextlib
import threading
import warnings

import numpy as np
import pytest

import minigrad
from minigrad._core import numpy_errors, tensor_base
from minigrad.autograd import function


def test_an_op_is_quiet_and_leaves_the_users_numpy_state_as_it_was():
    x = minigrad.tensor([0.0, 1.0], requires_grad=True)
    before = np.geterr()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        y = x.log()  # log(0) = -inf, silently as PyTorch
        (y * 0).sum().backward()  # -inf * 0 = nan in the formulas, silently too
    assert np.geterr() == before
    assert np.isneginf(y.detach().numpy()[0])
    with pytest.warns(RuntimeWarning):  # the user's own numpy still warns
        np.log(np.zeros(1))


def test_the_users_raise_state_is_kept_around_ops_and_restored():
    x = minigrad.tensor([0.0, 2.0])
    with np.errstate(divide="raise"):
        assert np.isneginf(x.log().numpy()[0])  # the op: quiet
        with pytest.raises(FloatingPointError):  # the user's own numpy: as the user set it
            np.log(np.zeros(1))
    assert np.geterr()["divide"] == "warn"


def test_a_hook_runs_in_the_users_numpy_state_during_backward():
    x = minigrad.tensor([1.0, 2.0], requires_grad=True)
    seen = []

    def hook(grad):
        seen.append(np.geterr()["divide"])
        return (grad / 0) * 0  # an op inside the hook: quiet again
    x.register_hook(hook)
    with np.errstate(divide="raise"):
        (x * 2).sum().backward()
    assert seen == ["raise"]
    assert np.isnan(x.grad.numpy()).all()


def test_every_kind_of_hook_runs_in_the_users_numpy_state_during_backward():
    x = minigrad.tensor([1.0, 2.0], requires_grad=True)
    seen = {}

    def note(kind):
        seen[kind] = np.geterr()["divide"]
    x.register_post_accumulate_grad_hook(lambda leaf: note("post accumulate"))
    with minigrad.autograd.graph.saved_tensors_hooks(lambda t: t, lambda t: note("unpack") or t):
        y = x.exp()
    y.grad_fn.register_prehook(lambda grads: note("node pre"))
    y.grad_fn.register_hook(lambda grads_in, grads_out: note("node post"))
    with np.errstate(divide="raise"):
        y.sum().backward()
    assert seen == dict.fromkeys(["unpack", "node pre", "node post", "post accumulate"], "raise")
    with np.errstate(divide="raise"):
        with pytest.raises(FloatingPointError):  # so the user's own numpy in a hook raises as the user asked
            x.register_post_accumulate_grad_hook(lambda leaf: np.log(np.zeros(1)))
            x.exp().sum().backward()


def test_many_user_states_keep_the_cache_small():
    x = minigrad.tensor([0.0])
    for i in range(200):
        with np.errstate(under="ignore" if i % 2 else "warn"):
            with warnings.catch_warnings():
                warnings.simplefilter("error")
                x.log()
    assert len(numpy_errors._quiet_of) <= 65


@contextlib.contextmanager
def another_thread_inside(context):
    """Another thread enters ``context()`` and stays inside it while the ``with`` body runs here; it yields what the
    other thread's ``with`` gave."""
    inside, release, entered = threading.Event(), threading.Event(), []

    def worker():
        with context() as value:
            entered.append(value)
            inside.set()
            release.wait(10)

    t = threading.Thread(target=worker)
    t.start()
    inside.wait(10)
    try:
        yield entered[0]
    finally:
        release.set()
        t.join()


@contextlib.contextmanager
def tensor_made_in_inference_mode():
    with minigrad.inference_mode():
        yield minigrad.ones(1)


def test_a_tensor_made_in_another_thread_is_not_an_inference_tensor():
    with another_thread_inside(tensor_made_in_inference_mode) as made:
        assert tensor_base._threads_in_inference_mode == 1
        assert made.is_inference() and not minigrad.ones(1).is_inference()
    assert tensor_base._threads_in_inference_mode == 0


def test_inference_mode_false_inside_true_counts_back():
    with minigrad.inference_mode():
        with minigrad.inference_mode(False):
            assert tensor_base._threads_in_inference_mode == 0
            assert not minigrad.ones(1).is_inference()
        assert tensor_base._threads_in_inference_mode == 1
        assert minigrad.ones(1).is_inference()
    assert tensor_base._threads_in_inference_mode == 0


def test_saved_tensor_hooks_of_another_thread_do_not_pack_what_this_one_saves():
    packed = []

    def hooks():
        return minigrad.autograd.graph.saved_tensors_hooks(lambda t: packed.append(t) or t, lambda t: t)
    with another_thread_inside(hooks):
        assert function.hooks_anywhere.count == 1
        x = minigrad.tensor([1.0, 2.0], requires_grad=True)
        (x * x).sum().backward()  # takes the general path (a hook is in force somewhere) and packs nothing
        assert packed == [] and x.grad.tolist() == [2.0, 4.0]
    assert function.hooks_anywhere.count == 0
    with hooks():
        y = x * x
    assert len(packed) == 2 and y.grad_fn is not None
