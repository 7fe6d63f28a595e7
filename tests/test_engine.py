"""The backward engine: order, accumulation, freeing, hooks, higher order, no recursion, no cycles."""
import gc
import tracemalloc
import weakref

import numpy as np
import pytest

import minigrad
from minigrad.autograd import Function, GraphTask


def leaf(values, dtype=minigrad.float32):
    return minigrad.tensor(values, dtype=dtype, requires_grad=True)


def test_seed_example_relu_sum():
    a = minigrad.linspace(-100, 100, 10, requires_grad=True)
    c = minigrad.relu(a).sum()
    assert c.grad_fn.name() == "SumBackward0"
    (relu_node, nr), = c.grad_fn.next_functions
    assert relu_node.name() == "ReluBackward0" and nr == 0
    (acc, _), = relu_node.next_functions
    assert type(acc).__name__ == "AccumulateGrad" and acc.variable is a
    c.backward()
    assert a.grad.tolist() == [0.0] * 5 + [1.0] * 5


def test_fan_out_is_summed():
    x = leaf([1.0, 2.0])
    y = x * x + x  # x is used three times
    y.sum().backward()
    assert x.grad.tolist() == [3.0, 5.0]


def test_gradients_accumulate_until_zeroed():
    x = leaf([1.0, 2.0])
    for _ in range(3):
        (x * 2).sum().backward()
    assert x.grad.tolist() == [6.0, 6.0]
    x.grad.zero_()
    (x * 2).sum().backward()
    assert x.grad.tolist() == [2.0, 2.0]


def test_leaf_grads_are_not_shared_between_leaves():
    x, y = leaf([1.0]), leaf([1.0])
    (x + y).sum().backward()
    (x * 3).sum().backward()
    assert x.grad.tolist() == [4.0] and y.grad.tolist() == [1.0]


def test_execution_order_follows_pytorch_later_nodes_first():
    x = leaf([1.0, 2.0])
    a = x.exp()
    b = x.tanh()
    c = a * b
    order = [type(s.node).__name__ for s in GraphTask([c.sum()], [minigrad.tensor(1.0)]).steps()]
    # tanh was created after exp, so it runs first (PyTorch 2.13 gives the same order)
    assert order == ["SumBackward0", "MulBackward0", "TanhBackward0", "ExpBackward0", "AccumulateGrad"]


def test_accumulate_grad_runs_as_soon_as_ready():
    x, w = leaf([1.0]), leaf([2.0])
    y = (x * w).exp()
    names = [type(s.node).__name__ for s in GraphTask([y.sum()], [minigrad.tensor(1.0)]).steps()]
    assert names == ["SumBackward0", "ExpBackward0", "MulBackward0", "AccumulateGrad", "AccumulateGrad"]


def test_saved_tensors_are_freed_and_second_backward_raises():
    x = leaf([1.0, 2.0])
    y = x.sigmoid().sum()
    y.backward()
    with pytest.raises(RuntimeError, match="Trying to backward through the graph a second time"):
        y.backward()


def test_retain_graph_allows_a_second_backward():
    x = leaf([1.0, 2.0])
    y = (x * x).sum()
    y.backward(retain_graph=True)
    y.backward()
    assert x.grad.tolist() == [4.0, 8.0]


def test_graph_that_saved_nothing_can_run_twice():
    x = leaf([1.0, 2.0])
    y = (x + 2).sum()
    y.backward()
    y.backward()
    assert x.grad.tolist() == [2.0, 2.0]


def test_hundred_thousand_op_chain_needs_no_recursion():
    x = leaf([1.0])
    y = x
    for _ in range(100_000):
        y = y * 1.0
    y.sum().backward()
    assert x.grad.tolist() == [1.0]


def test_dropped_graph_is_freed_at_once_without_the_cycle_collector():
    gc.disable()
    try:
        x = leaf(np.ones(1000).tolist())
        y = (x.sigmoid() * 2).exp()
        node = weakref.ref(y.grad_fn)
        saved = weakref.ref(y)
        del y
        assert node() is None and saved() is None, "a node and its output must not form a reference cycle"
    finally:
        gc.enable()


def test_memory_of_saved_tensors_is_released_after_backward():
    x = leaf(np.ones(10_000).tolist())
    y = x.exp().exp()
    mid_node = y.grad_fn
    saved = mid_node._saved[0]
    assert saved.data is not None
    y.sum().backward()
    assert saved.freed and saved.data is None and saved.tensor is None


def test_explicit_gradient_and_shape_check():
    x = leaf([1.0, 2.0, 3.0])
    y = x * 2
    y.backward(minigrad.tensor([1.0, 0.1, 0.01]))
    assert np.allclose(x.grad.tolist(), [2.0, 0.2, 0.02])
    with pytest.raises(RuntimeError, match=r"Mismatch in shape: grad_output\[0\] has a shape of "
                                           r"minigrad.Size\(\[2\]\) and output\[0\] has a shape of "
                                           r"minigrad.Size\(\[3\]\)"):
        (x * 2).backward(minigrad.tensor([1.0, 1.0]))


def test_non_scalar_needs_a_gradient():
    x = leaf([1.0, 2.0])
    with pytest.raises(RuntimeError, match="^grad can be implicitly created only for scalar outputs$"):
        x.sigmoid().backward()


def test_autograd_backward_with_weights():
    x = leaf([1.0, 2.0])
    y1, y2 = x * 2, x * x
    minigrad.autograd.backward([y1, y2], [minigrad.tensor([1.0, 1.0]), minigrad.tensor([0.5, 0.5])])
    assert x.grad.tolist() == [3.0, 4.0]


def test_autograd_grad_does_not_touch_dot_grad_and_runs_only_what_is_needed():
    x, w = leaf([3.0]), leaf([2.0])
    y = (x * w).sum() + w.exp().sum()
    gx, = minigrad.autograd.grad(y, x, retain_graph=True)
    assert gx.tolist() == [2.0] and x.grad is None and w.grad is None
    gx, gw = minigrad.autograd.grad(y, [x, w])
    assert gw.tolist() == pytest.approx([3.0 + np.exp(2.0)], rel=1e-6)


def test_autograd_grad_unused_input():
    x, z = leaf([1.0]), leaf([1.0])
    with pytest.raises(RuntimeError, match="The differentiated Tensor at index 1 appears to not have been used"):
        minigrad.autograd.grad((x * 2).sum(), [x, z])
    gx, gz = minigrad.autograd.grad((x * 2).sum(), [x, z], allow_unused=True)
    assert gz is None and gx.tolist() == [2.0]


def test_create_graph_gives_higher_order_derivatives():
    x = leaf(2.0, minigrad.float64)
    y = x ** 4
    g1, = minigrad.autograd.grad(y, x, create_graph=True)
    g2, = minigrad.autograd.grad(g1, x, create_graph=True)
    g3, = minigrad.autograd.grad(g2, x)
    assert (g1.item(), g2.item(), g3.item()) == (32.0, 48.0, 48.0)
    assert g1.grad_fn is not None and g3.grad_fn is None


def test_create_graph_through_backward_accumulates_a_differentiable_grad():
    x = leaf([1.0, 2.0], minigrad.float64)
    (x ** 3).sum().backward(create_graph=True)
    assert x.grad.requires_grad
    g = x.grad.sum()
    x.grad = None
    g.backward()
    assert x.grad.tolist() == [6.0, 12.0]


def test_hooks_see_and_replace_gradients():
    x = leaf([1.0, 2.0])
    seen = []
    h = x.register_hook(lambda g: seen.append(g.tolist()) or g * 10)
    y = x * 3
    y.register_hook(lambda g: g + 1)
    y.sum().backward()
    assert seen == [[6.0, 6.0]] and x.grad.tolist() == [60.0, 60.0]
    h.remove()
    x.grad = None
    (x * 3).sum().backward()
    assert x.grad.tolist() == [3.0, 3.0]


def test_node_hooks():
    x = leaf([1.0])
    y = x.exp()
    calls = []
    y.grad_fn.register_prehook(lambda gout: calls.append("pre"))
    y.grad_fn.register_hook(lambda gin, gout: calls.append("post"))
    y.sum().backward()
    assert calls == ["pre", "post"]


def test_retain_grad_keeps_a_non_leaf_grad_and_reading_it_otherwise_warns():
    x = leaf([1.0, 2.0])
    y = x * 2
    z = x * 3
    y.retain_grad()
    (y * z).sum().backward()
    assert y.grad.tolist() == [3.0, 6.0]
    with pytest.warns(UserWarning, match="is not a leaf Tensor is being accessed"):
        assert z.grad is None


def test_grad_mode_switches():
    x = leaf([1.0])
    with minigrad.no_grad():
        y = x * 2
        assert not minigrad.is_grad_enabled()
        with minigrad.enable_grad():
            z = x * 2
    assert y.grad_fn is None and not y.requires_grad and z.grad_fn is not None
    minigrad.set_grad_enabled(False)
    try:
        assert (x * 2).grad_fn is None
    finally:
        minigrad.set_grad_enabled(True)

    @minigrad.no_grad()
    def f(t):
        return t * 2
    assert f(x).grad_fn is None and minigrad.is_grad_enabled()


def test_inplace_change_of_a_saved_tensor_is_detected():
    x = leaf([1.0, 2.0])
    y = x.sigmoid()
    y.add_(1)
    with pytest.raises(RuntimeError, match=r"one of the variables needed for gradient computation has been "
                                           r"modified by an inplace operation: \[minigrad.FloatTensor \[2\]\], "
                                           r"which is output 0 of Sigmoid, is at version 1; expected version 0"):
        y.sum().backward()


def test_inplace_on_a_leaf_that_requires_grad_is_refused_but_fine_under_no_grad():
    x = leaf([1.0, 2.0])
    with pytest.raises(RuntimeError, match="a leaf Variable that requires grad is being used in an in-place"):
        x.add_(1)
    with minigrad.no_grad():
        x -= 0.5 * minigrad.ones(2)
    assert x.tolist() == [0.5, 1.5] and x._version == 1 and x.is_leaf


def test_inplace_on_a_non_leaf_is_recorded():
    x = leaf([1.0, 2.0])
    y = x * 1
    y.mul_(3)
    assert y.grad_fn.name() == "MulBackward0"
    y.sum().backward()
    assert x.grad.tolist() == [3.0, 3.0]


def test_element_0_does_not_require_grad():
    with pytest.raises(RuntimeError, match="element 0 of tensors does not require grad and does not have a grad_fn"):
        minigrad.ones(2).sum().backward()


def test_stepper_mode_does_not_accumulate():
    x = leaf([1.0, 2.0])
    y = (x * x).sum()
    steps = list(GraphTask([y], [minigrad.tensor(1.0)], keep_graph=True, accumulate=False).steps())
    assert x.grad is None
    last = steps[-1]
    assert type(last.node).__name__ == "AccumulateGrad" and not last.executed
    assert last.grads_in[0].tolist() == [2.0, 4.0]
    y.backward()  # the graph was kept
    assert x.grad.tolist() == [2.0, 4.0]


def _sequence_numbers(lib):
    """The creation numbers of three recorded nodes, relative to the first, and the leaf's node's."""
    x = lib.ones(2, requires_grad=True)
    a = x * 2
    b = a.exp()
    with lib.no_grad():
        x * 3  # records nothing, so it takes no number
    c = b + 1
    nr = (lambda n: n._sequence_nr()) if lib is not minigrad else (lambda n: n._sequence_nr)
    first = nr(a.grad_fn)
    return [nr(n.grad_fn) - first for n in (a, b, c)], nr(a.grad_fn.next_functions[0][0])


def test_only_recorded_nodes_are_numbered_and_accumulate_grad_takes_no_number():
    assert _sequence_numbers(minigrad) == ([0, 1, 2], float("inf"))  # PyTorch: 0, 1, 2 and UINT64_MAX


def test_sequence_numbers_match_torch():
    torch = pytest.importorskip("torch")
    order, acc = _sequence_numbers(torch)
    assert _sequence_numbers(minigrad) == (order, float("inf")) and acc == 2**64 - 1


def test_run_drains_the_same_steps_without_records():
    x = leaf([1.0, 2.0])
    y = (x * x).sum()
    task = GraphTask([y], [minigrad.tensor(1.0)], keep_graph=True)
    assert list(task.steps(trace=False)) == []  # nothing yielded ...
    assert x.grad.tolist() == [2.0, 4.0]  # ... but every node ran


def test_a_long_graph_holds_two_collector_tracked_objects_per_op():
    """`y * 1.0` keeps only its node and the tuple of its next nodes visible to the cycle collector.

    Python's cycle collector re-scans every such object while a graph grows, which is most of the
    cost of recording a 100,000-op graph (bench/run.py).  The input numbers of the edges and the
    saved number 1.0 are kept in tuples and arrays the collector does not track.
    """
    x = leaf([1.0, 2.0])
    y = x
    gc.collect()
    before = len(gc.get_objects())
    for _ in range(2000):
        y = y * 1.0
    gc.collect()
    assert (len(gc.get_objects()) - before) / 2000 < 2.5  # (it was 7, then 5, then 4)
    gc.collect()  # (a tuple of tuples is let go one collection after the tuples inside it)
    assert not any(gc.is_tracked(v) for v in (y.grad_fn._next_nrs, y.grad_fn._saved, y.grad_fn.input_shapes))
    assert gc.is_tracked(y.grad_fn._next_nodes)  # (it holds nodes: the collector must see it)
    y.sum().backward()
    assert x.grad.tolist() == [1.0, 1.0]


def test_nodes_share_their_small_tuples_of_plain_values():
    """The 2,000 nodes of a chain point at one `(0, 0)`, one `(float32, float32)`, one `(True, False)`."""
    x = leaf([1.0, 2.0])
    y = x * 1.0
    first = y.grad_fn
    gc.collect()  # (garbage of earlier tests freed during the loop would lower the count)
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    for _ in range(2000):
        y = y * 1.0
    per_node = (tracemalloc.get_traced_memory()[0] - before) / 2000
    tracemalloc.stop()
    assert per_node < 420  # (655 bytes before the tuples were shared, 488 before the 1.0 was)
    last = y.grad_fn
    assert last._next_nrs is first._next_nrs and last._next_nrs == (0, 0)
    assert last._input_dtypes is first._input_dtypes and last._input_dtypes == (np.dtype("float32"),) * 2
    assert last.needs_input_grad is first.needs_input_grad and last.needs_input_grad == (True, False)
    assert last.input_shapes == ((2,), ())  # (shapes are not shared: hashing them costs more than it saves)
    y.sum().backward()
    assert x.grad.tolist() == [1.0, 1.0]


def test_shared_input_numbers_stay_numbers_after_flags_of_the_same_value():
    """True == 1, so `(True,)` and `(1,)` must not be shared: next_functions shows input number 1."""

    class Two(Function):
        @staticmethod
        def forward(ctx, a):
            return a * 1.0, a * 2.0

        @staticmethod
        def backward(ctx, g0, g1):
            return g0 + 2 * g1

    x = leaf([1.0])
    (x * 1.0).grad_fn  # a node with needs_input_grad == (True,)
    _, second = Two.apply(x)
    node = (second * 1.0).grad_fn
    nr = node.next_functions[0][1]
    assert nr == 1 and type(nr) is int
    assert type(node.needs_input_grad[0]) is bool


def test_a_full_pool_of_shared_tuples_hands_out_fresh_ones(monkeypatch):
    from minigrad.autograd import function
    monkeypatch.setattr(function, "_NRS", {(i,): (i,) for i in range(-10_001, 0)})
    x = leaf([1.0])
    a, b = (x * 1.0), (x * 1.0)
    assert a.grad_fn._next_nrs == b.grad_fn._next_nrs == (0, 0)
    assert a.grad_fn._next_nrs is not b.grad_fn._next_nrs
    assert len(function._NRS) == 10_001


def test_a_float_number_becomes_one_shared_read_only_tensor():
    """`y * 0.5` twice wraps the 0.5 once (ops/_util.py, _NUMBERS); each node still shows `(None, 0)`."""
    from minigrad.ops import _util
    x = leaf([1.0, 2.0])
    a, b = x * 0.5, x * 0.5
    assert a.grad_fn.next_functions[1] == b.grad_fn.next_functions[1] == (None, 0)
    assert a.grad_fn._saved[0] is b.grad_fn._saved[0]  # one 0-dim array of 0.5 for both nodes
    wrapped = _util.as_operand(0.5, x)
    assert wrapped is _util.as_operand(0.5, x) and wrapped._wrapped_number
    with pytest.raises(ValueError, match="read-only"):
        wrapped._data[...] = 3.0  # nothing can change the 0.5 of later ops
    assert _util.as_operand(0.5, x.double())._data.dtype == np.float64  # one per dtype
    (a + b).sum().backward()
    assert x.grad.tolist() == [1.0, 1.0]


def test_a_number_from_saved_tensors_is_a_copy_of_the_shared_one():
    x = leaf([1.0, 2.0])
    number, _ = (x * 2.5).grad_fn.saved_tensors
    number.add_(1.0)  # the caller's own tensor: the next x * 2.5 is still 2.5 x
    assert number.item() == 3.5
    assert (x * 2.5).tolist() == [2.5, 5.0]


def test_zero_and_nan_are_not_shared():
    """-0.0 == 0.0 (the sign of the result would be lost) and nan != nan (the pool would only grow)."""
    from minigrad.ops import _util
    x = minigrad.ones(2)
    assert not np.signbit((x * 0.0)._data).any()
    assert np.signbit((x * -0.0)._data).all()  # not the tensor of 0.0
    size = len(_util._NUMBERS)
    for _ in range(3):
        assert np.isnan((x * float("nan"))._data).all()
    assert len(_util._NUMBERS) == size


def test_a_full_pool_of_numbers_still_wraps_new_ones(monkeypatch):
    from minigrad.ops import _util
    monkeypatch.setattr(_util, "_NUMBERS", {(float(i), np.dtype("float64")): None for i in range(1, 1001)})
    x = minigrad.ones(2)
    assert (x * 0.25).tolist() == [0.25, 0.25] and (x * 0.25).grad_fn is None
    assert len(_util._NUMBERS) == 1000 and (0.25, np.dtype("float32")) not in _util._NUMBERS


def test_next_functions_is_built_from_the_two_edge_tuples_like_pytorchs_property():
    x = leaf([1.0, 2.0])
    a, b = x[:1], x[1:]
    y = a * b
    node = y.grad_fn
    assert node._next_nodes == (a.grad_fn, b.grad_fn) and node._next_nrs == (0, 0)
    assert node.next_functions == ((a.grad_fn, 0), (b.grad_fn, 0))
    assert node.next_functions is not node.next_functions  # a new tuple per access, as in PyTorch
    z = x * 2
    assert z.grad_fn.next_functions[1] == (None, 0)


def test_a_saved_number_is_kept_as_its_value_and_cannot_be_changed_through_saved_tensors():
    x = leaf([1.0, 2.0])
    y = x * 3.0
    saved_number = y.grad_fn._saved[0]
    assert isinstance(saved_number, np.ndarray) and saved_number.item() == 3.0 and not y.grad_fn._freed

    number = y.grad_fn.saved_tensors[0]
    assert number.tolist() == 3.0 and not number.requires_grad and number.grad_fn is None
    with minigrad.no_grad():
        number.add_(100)  # a copy: the node still multiplies by 3
    y.sum().backward(retain_graph=True)
    assert x.grad.tolist() == [3.0, 3.0]
    y.sum().backward()
    assert x.grad.tolist() == [6.0, 6.0] and y.grad_fn._freed
    with pytest.raises(RuntimeError, match="Trying to backward through the graph a second time"):
        y.grad_fn.saved_tensors
    with pytest.raises(RuntimeError, match="Trying to backward through the graph a second time"):
        y.sum().backward()  # PyTorch raises here too: the number was saved (MulBackward0._saved_other)


def test_a_number_taken_from_saved_tensors_is_an_ordinary_tensor_with_version_checks():
    x = leaf([1.0, 2.0])
    n = (x * 3.0).grad_fn.saved_tensors[0]  # a copy of the saved 3.0, which the user may now reuse
    z = x * n
    with minigrad.no_grad():
        n.add_(1)  # an in-place change of a tensor z's node saved: backward must notice it
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        z.sum().backward()
