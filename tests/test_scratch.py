"""The "Build it yourself" reference engines (minigrad_course/scratch/stage1..6) give minigrad's numbers.

Each stage runs the seed programs of its notebook; values, gradients, node names, the
next_functions structure, error messages and (stage 6) the order nodes run in are compared with
minigrad, which the parity tests compare with PyTorch.
"""
import importlib

import numpy as np
import pytest

import minigrad
from minigrad.autograd.engine import GraphTask

STAGES = {n: importlib.import_module(f"minigrad_course.scratch.stage{n}") for n in range(1, 7)}


def structure(node):
    """The next_functions tree as nested (name, children) tuples; None for a missing edge."""
    if node is None:
        return None
    return (node.name(), tuple(structure(n) for n, _ in node.next_functions))


def data(t):
    return np.asarray(t.data if not isinstance(t, minigrad.Tensor) else t.detach().numpy())


@pytest.mark.parametrize("n", range(1, 7))
def test_seed_program_relu_of_linspace(n):
    s = STAGES[n]
    a = s.linspace(-100, 100, 10, requires_grad=True)
    out = s.relu(a).sum()
    out.backward()
    ma = minigrad.linspace(-100, 100, 10, requires_grad=True)
    mout = minigrad.relu(ma).sum()
    mout.backward()
    assert np.array_equal(data(a.grad), data(ma.grad))
    assert data(a.grad).dtype == np.float32
    assert float(out.data) == pytest.approx(mout.item())
    assert structure(out.grad_fn) == structure(mout.grad_fn)


@pytest.mark.parametrize("n", range(1, 7))
def test_fan_out_and_numbers_match_minigrad(n):
    s = STAGES[n]
    x0 = np.array([0.5, -1.5, 2.0], np.float32)
    x, mx = s.Tensor(x0, requires_grad=True), minigrad.tensor(x0, requires_grad=True)
    y = (x * 3 + x * x).relu() * x + 2
    my = (mx * 3 + mx * mx).relu() * mx + 2
    y.sum().backward()
    my.sum().backward()
    assert np.allclose(data(y), data(my))
    assert np.allclose(data(x.grad), data(mx.grad))
    assert structure(y.grad_fn) == structure(my.grad_fn)
    assert y.grad_fn.next_functions[1] == (None, 0)  # the number 2: a constant, no edge


def _error(fn):
    try:
        fn()
    except RuntimeError as e:
        return str(e).replace("minigrad.Size", "torch.Size")
    raise AssertionError("no error")


@pytest.mark.parametrize("n", range(2, 7))
def test_non_scalar_backward_errors_and_vjp(n):
    s = STAGES[n]
    x0 = np.array([1.0, 2.0, 3.0], np.float32)
    x, mx = s.Tensor(x0, requires_grad=True), minigrad.tensor(x0, requires_grad=True)
    y, my = x * x, mx * mx
    assert _error(lambda: y.backward()) == _error(lambda: my.backward())
    assert _error(lambda: y.backward(s.Tensor([1.0, 2.0]))) == _error(lambda: my.backward(minigrad.tensor([1.0, 2.0])))
    c, mc = s.Tensor(x0), minigrad.tensor(x0)
    assert _error(lambda: c.backward()) == _error(lambda: mc.sum().backward())
    v = np.array([1.0, 0.0, -2.0], np.float32)
    y.backward(s.Tensor(v))
    my.backward(minigrad.tensor(v))
    assert np.array_equal(data(x.grad), data(mx.grad))  # v times the Jacobian diag(2x)


@pytest.mark.parametrize("n", range(3, 7))
def test_accumulation_retain_graph_freed_and_no_grad(n):
    s = STAGES[n]
    x0 = np.array([1.0, 2.0], np.float32)
    x, mx = s.Tensor(x0, requires_grad=True), minigrad.tensor(x0, requires_grad=True)
    y, my = (x * x).sum(), (mx * mx).sum()
    y.backward(retain_graph=True)
    y.backward()
    my.backward(retain_graph=True)
    my.backward()
    assert np.array_equal(data(x.grad), data(mx.grad))  # accumulated: 2 * 2x
    assert _error(lambda: y.backward()) == _error(lambda: my.backward())
    x.grad.zero_()
    assert np.array_equal(data(x.grad), [0, 0])
    z = (x + 1).sum()  # a graph that saved nothing may run twice, as in PyTorch
    z.backward()
    z.backward()
    assert np.array_equal(data(x.grad), [2, 2])
    with s.no_grad():
        w = x * 2
    assert w.grad_fn is None and not w.requires_grad


def _mm_inputs():
    rng = np.random.default_rng(4)
    return rng.standard_normal((3, 2)).astype(np.float32), rng.standard_normal((3, 2)).astype(np.float32)


class MinigradMMFunction(minigrad.autograd.Function):
    @staticmethod
    def forward(ctx, input, weight):
        ctx.save_for_backward(input, weight)
        return input.mm(weight.t())

    @staticmethod
    def backward(ctx, grad_output):
        input, weight = ctx.saved_tensors
        return grad_output.mm(weight), grad_output.t().mm(input)


@pytest.mark.parametrize("n", range(4, 7))
def test_mmfunction_on_the_scratch_engine(n):
    s = STAGES[n]
    a, w = _mm_inputs()
    x, W = s.Tensor(a, requires_grad=True), s.Tensor(w, requires_grad=True)
    mx, mW = minigrad.tensor(a, requires_grad=True), minigrad.tensor(w, requires_grad=True)
    f = s.MMFunction.apply(x, W)
    mf = MinigradMMFunction.apply(mx, mW)
    assert f.grad_fn.name() == "MMFunctionBackward"
    assert [e[0].name() for e in f.grad_fn.next_functions] == [e[0].name() for e in mf.grad_fn.next_functions]
    (f * f).sum().backward()
    (mf * mf).sum().backward()
    assert np.allclose(data(x.grad), data(mx.grad), atol=1e-6)
    assert np.allclose(data(W.grad), data(mW.grad), atol=1e-6)
    x2 = s.Tensor(a)  # needs_input_grad: no gradient is computed for an input that needs none
    f2 = s.MMFunction.apply(x2, W)
    assert f2.grad_fn.needs_input_grad == (False, True)


@pytest.mark.parametrize("n", [5, 6])
def test_mmul_module_trains_like_minigrad(n):
    s = STAGES[n]
    a, _ = _mm_inputs()
    m = s.MMul(3, 2)
    assert [name for name, _ in m.named_parameters()] == ["weight"]
    assert m.weight.requires_grad and m.weight.is_leaf
    opt = s.SGD(m.parameters(), lr=0.1)
    mw = minigrad.nn.Parameter(minigrad.ones(3, 2))
    mopt = minigrad.optim.SGD([mw], lr=0.1)
    x, mx = s.Tensor(a), minigrad.tensor(a)
    for _ in range(3):
        opt.zero_grad()
        out = m(x)
        loss = (out * out).sum()
        loss.backward()
        opt.step()
        mopt.zero_grad()
        mout = MinigradMMFunction.apply(mx, mw)
        mloss = (mout * mout).sum()
        mloss.backward()
        mopt.step()
        assert float(loss.data) == pytest.approx(mloss.item(), rel=1e-6)
    assert np.allclose(data(m.weight), data(mw), atol=1e-6)
    m.zero_grad()
    assert m.weight.grad is None


def test_stage6_runs_nodes_in_minigrads_order():
    s = STAGES[6]
    rng = np.random.default_rng(7)
    x0, y0 = rng.standard_normal(4).astype(np.float32), rng.standard_normal(4).astype(np.float32)

    def program(T, x, y):
        a = x * y
        b = (a + x).relu()
        c = b * a + y * 3
        return (c * b + a).sum()

    ran = []
    original = s.BackwardNode.apply

    def logging_apply(node, grad):
        ran.append(node.name())
        return original(node, grad)

    x, y = s.Tensor(x0, requires_grad=True), s.Tensor(y0, requires_grad=True)
    out = program(s, x, y)
    s.BackwardNode.apply = logging_apply
    try:
        out.backward()
    finally:
        s.BackwardNode.apply = original
    mx, my = minigrad.tensor(x0, requires_grad=True), minigrad.tensor(y0, requires_grad=True)
    mout = program(minigrad, mx, my)
    task = GraphTask([mout], [minigrad.ones(())])
    expected = [st.node.name() for st in task.steps() if "AccumulateGrad" not in st.node.name()]
    assert ran == expected
    assert np.allclose(data(x.grad), data(mx.grad)) and np.allclose(data(y.grad), data(my.grad))


def test_stage6_backward_of_a_100000_op_chain_does_not_recurse():
    s = STAGES[6]
    x = s.Tensor([1.0, 2.0], requires_grad=True)
    y = x
    for _ in range(100_000):
        y = y * 1.0
    y.sum().backward()
    assert np.array_equal(data(x.grad), [1, 1])


def test_stage5b_layers_record_pytorchs_nodes_and_give_minigrads_gradients():
    """Stage 5b's Linear and Tanh record what nn.Linear and nn.Tanh record (AddmmBackward0 with the bias's
    AccumulateGrad, no edge for the data, TBackward0 for the weight; TanhBackward0), in float64, with
    minigrad's values and gradients; its fused CrossEntropy gives F.cross_entropy's loss and gradient."""
    from minigrad_course.scratch import stage5b
    r = np.random.default_rng(5)
    x0, w0, b0 = r.normal(size=(4, 3)), r.normal(size=(2, 3)), r.normal(size=2)
    y0 = np.array([1, 0, 1, 1])
    layer, mlayer = stage5b.Linear(3, 2), minigrad.nn.Linear(3, 2).double()
    layer.weight.data, layer.bias.data = w0.copy(), b0.copy()
    with minigrad.no_grad():
        mlayer.weight.copy_(minigrad.tensor(w0))
        mlayer.bias.copy_(minigrad.tensor(b0))
    out = stage5b.Tanh()(layer(stage5b.Tensor(x0)))
    mout = minigrad.nn.Tanh()(mlayer(minigrad.tensor(x0)))
    assert structure(out.grad_fn) == (
        "TanhBackward0", (("AddmmBackward0", (("minigrad::autograd::AccumulateGrad", ()), None,
                                              ("TBackward0", (("minigrad::autograd::AccumulateGrad", ()),)))),))
    assert structure(out.grad_fn) == structure(mout.grad_fn)
    loss = stage5b.CrossEntropyLoss()(out, stage5b.Tensor(y0.astype(np.float64)))
    mloss = minigrad.nn.CrossEntropyLoss()(mout, minigrad.tensor(y0))
    loss.backward()
    mloss.backward()
    assert data(loss).dtype == np.float64 and abs(float(data(loss)) - mloss.item()) < 1e-15
    for p, mp in [(layer.weight, mlayer.weight), (layer.bias, mlayer.bias)]:
        assert np.allclose(data(p.grad), data(mp.grad), rtol=1e-13, atol=1e-15)
