"""The backward engine: order, accumulation, freeing, hooks, higher order, no recursion, no cycles."""
import gc
import sys
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


def test_next_functions_is_one_tuple_of_node_input_nr_pairs_and_the_engine_walks_it():
    x = leaf([1.0, 2.0])
    a, b = x[:1], x[1:]
    node = (a * b).grad_fn
    assert node.next_functions == ((a.grad_fn, 0), (b.grad_fn, 0))
    assert (x * 2).grad_fn.next_functions[1] == (None, 0)  # the wrapped number 2: no node, input 0
    # the engine follows exactly this field: an edge taken out of it is a gradient that never arrives
    y = x * 3
    z = y.exp()
    z.grad_fn.next_functions = ((None, 0),)
    z.sum().backward()
    assert x.grad is None


def test_a_python_number_becomes_a_fresh_0_dim_tensor_each_time_and_is_saved_like_one():
    x = leaf([1.0, 2.0])
    a, b = x * 0.5, x * 0.5
    na, _ = a.grad_fn.saved_tensors  # MulBackward0 saves the other operand: here the wrapped 0.5
    nb, _ = b.grad_fn.saved_tensors
    assert na is not nb and na.tolist() == nb.tolist() == 0.5
    assert na.dtype == minigrad.float32 and na.shape == () and not na.requires_grad and na.grad_fn is None
    assert (x.double() * 0.5).grad_fn.saved_tensors[0].dtype == minigrad.float64
    assert np.signbit((minigrad.ones(2) * -0.0)._data).all() and not np.signbit((minigrad.ones(2) * 0.0)._data).any()
    (a + b).sum().backward()
    assert x.grad.tolist() == [1.0, 1.0]


def test_a_saved_number_is_freed_by_backward_and_a_second_backward_raises():
    x = leaf([1.0, 2.0])
    y = x * 3.0
    number = y.grad_fn.saved_tensors[0]
    assert number.tolist() == 3.0 and not y.grad_fn._freed
    y.sum().backward(retain_graph=True)
    assert x.grad.tolist() == [3.0, 3.0]
    y.sum().backward()
    assert x.grad.tolist() == [6.0, 6.0] and y.grad_fn._freed
    with pytest.raises(RuntimeError, match="Trying to backward through the graph a second time"):
        y.grad_fn.saved_tensors
    with pytest.raises(RuntimeError, match="Trying to backward through the graph a second time"):
        y.sum().backward()  # PyTorch raises here too: the number was saved (MulBackward0._saved_other)


def test_a_saved_number_matches_torchs_saved_other():
    torch = pytest.importorskip("torch")
    for lib in (minigrad, torch):
        x = lib.ones(2, requires_grad=True)
        other = (x * 2.5).grad_fn._saved_other if lib is torch else (x * 2.5).grad_fn.saved_tensors[0]
        assert other.shape == () and other.item() == 2.5 and other.grad_fn is None and not other.requires_grad
        # (PyTorch's wrapped number is float64 and cast inside the kernel; minigrad's has the result's dtype)
        assert other.dtype == (lib.float64 if lib is torch else lib.float32)


def test_backward_never_recurses_even_under_a_tiny_recursion_limit():
    x = leaf([1.0])
    y = x
    for _ in range(100_000):
        y = y * 1.0
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(200)  # discovery and the run are loops: no call depth grows with the graph
    try:
        y.sum().backward()
    finally:
        sys.setrecursionlimit(limit)
    assert x.grad.tolist() == [1.0]


def test_graphs_form_no_reference_cycles_before_or_after_backward():
    """With the cycle collector off, dropping the last reference frees the whole graph at once."""

    class Two(Function):  # a custom Function with two outputs that saves an input and an output
        @staticmethod
        def forward(ctx, a):
            out = a * 2.0
            ctx.save_for_backward(a, out)
            return out, a * 3.0

        @staticmethod
        def backward(ctx, g0, g1):
            a, out = ctx.saved_tensors
            return g0 * 2 + g1 * 3

    gc.collect()
    gc.disable()
    try:
        for run_backward in (False, True):
            x = leaf([1.0, 2.0])
            u, v = Two.apply(x.relu() * 0.5)
            y = (u.sigmoid() + v).exp().sum()
            refs = [weakref.ref(t) for t in (u, v, y)] + [weakref.ref(t.grad_fn) for t in (u, v, y)]
            if run_backward:
                y.backward()
                assert x.grad is not None
            del u, v, y
            assert all(r() is None for r in refs), "a node and its outputs must not form a reference cycle"
    finally:
        gc.enable()


def test_a_number_taken_from_saved_tensors_is_an_ordinary_tensor_with_version_checks():
    x = leaf([1.0, 2.0])
    n = (x * 3.0).grad_fn.saved_tensors[0]  # a copy of the saved 3.0, which the user may now reuse
    z = x * n
    with minigrad.no_grad():
        n.add_(1)  # an in-place change of a tensor z's node saved: backward must notice it
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        z.sum().backward()


# ---- issue 18: engine-level classes -------------------------------------------------------------
class HalfGrad(Function):
    """backward gives the first input a gradient and the second None."""

    @staticmethod
    def forward(ctx, a, b):
        return a * 1.0 + b

    @staticmethod
    def backward(ctx, g):
        return g * 2, None


def test_a_none_gradient_on_one_edge_does_not_stop_the_node_behind_it():
    x = leaf([1.0, 2.0])
    HalfGrad.apply(x * 3, x).sum().backward()  # x's AccumulateGrad waits for two edges; one brings None
    assert x.grad.tolist() == [6.0, 6.0]
    x, w = leaf([1.0, 2.0]), leaf([1.0, 1.0])
    (HalfGrad.apply(w * 3, x) + x).sum().backward()
    assert x.grad.tolist() == [1.0, 1.0] and w.grad.tolist() == [6.0, 6.0]
    x = leaf([1.0, 2.0], minigrad.float64)  # and in second order
    g, = minigrad.autograd.grad(HalfGrad.apply(x ** 3, x).sum(), x, create_graph=True)
    assert g.tolist() == [6.0, 24.0]
    assert minigrad.autograd.grad(g.sum(), x)[0].tolist() == [12.0, 24.0]


def test_a_builtin_node_that_gets_no_gradient_passes_none_on():
    class Second(Function):
        @staticmethod
        def forward(ctx, a, b):
            return a + b

        @staticmethod
        def backward(ctx, g):
            return None, g

    x, w = leaf([1.0, 2.0]), leaf([1.0, 1.0])
    Second.apply(x * 3, w).sum().backward()
    assert x.grad is None and w.grad.tolist() == [1.0, 1.0]  # MulBackward0 got None and gave None (no zeros)


def test_set_materialize_grads_false_passes_none_to_backward():
    seen = []

    class Two(Function):
        @staticmethod
        def forward(ctx, a):
            ctx.set_materialize_grads(False)
            return a * 1.0, a * 2.0

        @staticmethod
        def backward(ctx, g1, g2):
            seen.append((g1 is None, g2 is None))
            return g1

    x = leaf([1.0, 2.0])
    u, _ = Two.apply(x)
    u.sum().backward()
    assert seen == [(False, True)] and x.grad.tolist() == [1.0, 1.0]


@pytest.mark.parametrize("make", [
    lambda x: x.max(1)[0], lambda x: x.min(0).values, lambda x: x[[0, 1, 1]], lambda x: x[x > 0],
    lambda x: minigrad.where(x > 0, x, 2.0), lambda x: x * 2.0, lambda x: x.clamp(-0.5, 0.5),
    lambda x: minigrad.nn.functional.nll_loss(x.log_softmax(1), minigrad.tensor([0, 2])),
    lambda x: x.gather(1, minigrad.tensor([[0], [2]])), lambda x: x.masked_fill(x > 0, 0.0)])
def test_a_second_backward_through_any_op_that_saved_something_raises(make):
    x = leaf([[1.0, -2.0, 3.0], [-4.0, 5.0, 0.5]])
    y = make(x).sum()
    y.backward()
    first = x.grad.clone()
    with pytest.raises(RuntimeError, match="^Trying to backward through the graph a second time"):
        y.backward()
    assert x.grad.tolist() == first.tolist()  # nothing was added twice


@pytest.mark.parametrize("make", [lambda x: x.sum(), lambda x: x[:, 1:], lambda x: x + 1,
                                  lambda x: x[:1].expand(3, 3), lambda x: -x, lambda x: x.view(6)])
def test_ops_that_saved_nothing_run_twice(make):
    x = leaf([[1.0, -2.0, 3.0], [-4.0, 5.0, 0.5]])
    y = make(x).sum()
    y.backward()
    first = x.grad.clone()
    y.backward()
    assert x.grad.tolist() == (first * 2).tolist()


def test_custom_function_ctx_attributes_are_not_freed():
    class Scale(Function):
        @staticmethod
        def forward(ctx, a):
            ctx.k = minigrad.tensor([3.0, 3.0])  # kept on ctx, not saved: PyTorch runs such a node twice
            return a * 3

        @staticmethod
        def backward(ctx, g):
            return g * ctx.k

    x = leaf([1.0, 2.0])
    y = Scale.apply(x).sum()
    y.backward()
    y.backward()
    assert x.grad.tolist() == [6.0, 6.0]


@pytest.mark.parametrize("make", [lambda x: x.relu(), lambda x: minigrad.nn.functional.threshold(x, 0.5, -1.0),
                                  lambda x: x.abs(), lambda x: x.sign() * x])
def test_second_order_through_piecewise_ops_is_zero_with_a_graph(make):
    x = leaf([1.5, -2.0, 0.3, -0.7])
    g, = minigrad.autograd.grad(make(x).sum(), x, create_graph=True)
    assert g.requires_grad and g.grad_fn is not None
    g2, = minigrad.autograd.grad(g.sum(), x)
    assert g2.clone().tolist() == [0.0, 0.0, 0.0, 0.0]  # (through abs: sgn's ZeroTensor, which tolist() refuses)


def test_sign_is_differentiable_with_a_zero_gradient_and_pytorchs_values():
    x = leaf([float("nan"), -0.0, 0.0, 2.0, -3.0])
    s = x.sign()
    assert s.grad_fn.name() == "SignBackward0" and s.tolist()[1:] == [0.0, 0.0, 1.0, -1.0] and s.tolist()[0] == 0.0
    assert not np.signbit(s._data[:3]).any()
    s.sum().backward()
    assert x.grad.tolist() == [0.0] * 5
    x.grad = None
    x.abs().sum().backward()  # abs' derivative is sgn(x): 0 at nan and at +-0
    assert x.grad.tolist() == [0.0, 0.0, 0.0, 1.0, -1.0]
    x.grad = None
    x.relu().sum().backward()  # PyTorch's threshold_backward: 0 only where x <= 0, so nan lets it through
    assert x.grad.tolist() == [1.0, 0.0, 0.0, 1.0, 0.0]


def test_retain_grad_is_filled_by_autograd_grad_and_backward_inputs():
    x = leaf([1.0, 2.0])
    y = x * 2
    y.retain_grad()
    z = (y * y).sum()
    minigrad.autograd.grad(z, x, retain_graph=True)
    assert y.grad.tolist() == [4.0, 8.0] and x.grad is None
    minigrad.autograd.grad(z, x, retain_graph=True)
    assert y.grad.tolist() == [8.0, 16.0]  # accumulated, as in PyTorch
    x = leaf([1.0, 2.0])
    y = x * 2
    y.retain_grad()
    z = (y * y).sum()
    z.backward(inputs=[y], retain_graph=True)
    assert y.grad.tolist() == [4.0, 8.0] and x.grad is None  # an input that retains grad: filled once, not twice
    z.backward(inputs=[x])
    assert y.grad.tolist() == [8.0, 16.0] and x.grad.tolist() == [8.0, 16.0]


@pytest.mark.parametrize("make, node", [
    (lambda a: minigrad.nn.functional.relu(a, inplace=True), "ReluBackward0"),
    (lambda a: minigrad.nn.ReLU(inplace=True)(a), "ReluBackward0"),
    (lambda a: a.relu_(), "ReluBackward0"), (lambda a: a.sigmoid_(), "SigmoidBackward0"),
    (lambda a: a.tanh_(), "TanhBackward0"), (lambda a: a.exp_(), "ExpBackward0"),
    (lambda a: minigrad.nn.functional.threshold(a, 0.5, -1.0, inplace=True), "ThresholdBackward1")])
def test_inplace_activations_change_the_tensor_itself(make, node):
    x = leaf([1.5, -2.0, 0.3])
    a = x * 1.0
    expected = make(x.detach() * 1.0).tolist()  # (no_grad-free: a tensor that needs no gradient)
    r = make(a)
    assert r is a and a._version == 1 and a.grad_fn.name() == node and a.tolist() == expected
    (a * minigrad.tensor([1.0, 2.0, 3.0])).sum().backward()
    plain = x.detach().requires_grad_()
    out = {"ReluBackward0": plain.relu(), "SigmoidBackward0": plain.sigmoid(), "TanhBackward0": plain.tanh(),
           "ExpBackward0": plain.exp(), "ThresholdBackward1": minigrad.nn.functional.threshold(plain, 0.5, -1.0)}[node]
    (out * minigrad.tensor([1.0, 2.0, 3.0])).sum().backward()
    assert x.grad.tolist() == plain.grad.tolist()


def test_inplace_relu_refuses_a_leaf_that_requires_grad_and_is_plain_under_no_grad():
    x = leaf([1.5, -2.0])
    with pytest.raises(RuntimeError, match="a leaf Variable that requires grad is being used in an in-place"):
        minigrad.nn.ReLU(inplace=True)(x)
    with minigrad.no_grad():
        assert minigrad.nn.functional.relu(x, inplace=True) is x
    assert x.tolist() == [1.5, 0.0] and x._version == 1 and x.grad_fn is None


def test_an_inplace_change_of_a_view_rebases_the_base_with_copyslices():
    x = leaf([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    a = x * 1.0
    row, col = a[0], a[:, 1]
    row.mul_(2)
    assert a.grad_fn.name() == "minigrad::autograd::CopySlices" and row._version == a._version == 1  # (torch::...)
    assert [n.name() if n else None for n, _ in a.grad_fn.next_functions] == ["MulBackward0", None]
    assert row.grad_fn.name() == col.grad_fn.name() == "AsStridedBackward0"  # both views see the new history
    assert row.grad_fn.next_functions[0][0] is a.grad_fn and a.tolist() == [[2.0, 4.0, 6.0], [4.0, 5.0, 6.0]]
    (a.sum() + (row * 10).sum() + (col * 100).sum()).backward()
    assert x.grad.tolist() == [[22.0, 222.0, 22.0], [1.0, 101.0, 1.0]]  # PyTorch 2.13's numbers


def test_a_view_sees_an_inplace_change_of_its_base():
    x = leaf([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    a = x * 1.0
    b, flat = a[0], a.view(6)
    a.mul_(3)  # before: b's gradient would have missed the factor 3 (a stale SelectBackward0)
    assert b.grad_fn.name() == flat.grad_fn.name() == "AsStridedBackward0"
    (b * minigrad.tensor([1.0, 2.0, 3.0])).sum().backward()
    assert x.grad.tolist() == [[3.0, 6.0, 9.0], [0.0, 0.0, 0.0]]


def test_a_base_that_needed_no_gradient_gets_one_through_its_view():
    x = leaf([1.0, 2.0])
    a = minigrad.zeros(4)
    a[1:3].copy_(x * 2)
    assert a.requires_grad and a.grad_fn.name() == "minigrad::autograd::CopySlices"
    (a * minigrad.arange(4.0)).sum().backward()
    assert x.grad.tolist() == [2.0, 4.0]


def test_inplace_on_a_view_of_a_leaf_is_refused_and_under_no_grad_only_the_numbers_change():
    x = leaf([1.0, 2.0, 3.0])
    with pytest.raises(RuntimeError, match="a view of a leaf Variable that requires grad is being used in an in-place"):
        x[0].mul_(2)
    a = x * 1.0
    b = a[0]
    with minigrad.no_grad():
        b.mul_(2)
    assert a.grad_fn.name() == "MulBackward0" and a.tolist() == [2.0, 2.0, 3.0]
    a.sum().backward()
    assert x.grad.tolist() == [1.0, 1.0, 1.0]


def test_a_second_backward_through_a_node_that_saved_nothing_is_allowed_as_in_pytorch():
    """fmod/remainder by a tensor that needs no gradient save nothing (derivatives.yaml), so a second
    backward without retain_graph runs; mul saved the other factor, so it raises."""
    x = leaf([[-0.97, 2.0], [-1.62, 0.2]])
    for f in (minigrad.fmod, minigrad.remainder):
        y = f(x, minigrad.tensor(1.5))
        y.sum().backward()
        y.sum().backward()
    assert x.grad.tolist() == [[4.0, 4.0], [4.0, 4.0]]
    z = x * 2
    z.sum().backward()
    with pytest.raises(RuntimeError, match="Trying to backward through the graph a second time"):
        z.sum().backward()


CREATE_GRAPH_WARNING = ("Using backward() with create_graph=True will create a reference cycle between the parameter "
                        "and its gradient which can cause a memory leak. We recommend using autograd.grad when "
                        "creating the graph to avoid this. If you have to use this function, make sure to reset the "
                        ".grad fields of your parameters to None after use to break the cycle and avoid the leak.")
_WARN_PROGRAM = """
import warnings, {T} as T
warnings.simplefilter("always")
with warnings.catch_warnings(record=True) as caught:
    y = T.ones(2, requires_grad=True)
    T.autograd.grad((y * y).sum(), y, create_graph=True)      # grad(): no warning
    print(len(caught))
    x = T.ones(2, requires_grad=True)
    (x * x).sum().backward(create_graph=True)                 # backward(): the warning
    (x * x).sum().backward(create_graph=True)                 # once per process
    z = T.ones(2, requires_grad=True)
    (z * z).sum().backward(create_graph=True, inputs=[z])
print(len(caught), caught[-1].category.__name__, str(caught[-1].message).split(" (Triggered")[0])
"""


@pytest.mark.parametrize("lib", ["minigrad", "torch"])
def test_backward_with_create_graph_warns_once_per_process(lib):
    """PyTorch's engine warns (TORCH_WARN_ONCE) that backward(create_graph=True) makes a cycle parameter -> .grad
    -> graph -> parameter; autograd.grad makes none and does not warn.  Each run in a fresh process."""
    import subprocess
    if lib == "torch":
        pytest.importorskip("torch")
    out = subprocess.run([sys.executable, "-c", _WARN_PROGRAM.format(T=lib)], capture_output=True, text=True,
                         check=True).stdout.splitlines()
    assert out == ["0", f"1 UserWarning {CREATE_GRAPH_WARNING}"]
