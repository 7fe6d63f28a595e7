"""minigrad.nn: Parameter, Module (registration, names, state_dict, printing), the layers, init.

Tests that compare with PyTorch import it inside the test (``pytest.importorskip``); the others
run without torch, against strings and numbers recorded from PyTorch 2.13.
"""
from collections import OrderedDict
import copy
import math

import numpy as np
import pytest

import minigrad
from minigrad import nn
from minigrad.nn import functional as F
from minigrad.nn import init


def _torch():
    return pytest.importorskip("torch")


class Net(nn.Module):
    """A small custom module: a parameter, a buffer, two submodules and a plain attribute."""

    def __init__(self):
        super().__init__()
        self.scale = nn.Parameter(minigrad.ones(1))
        self.register_buffer("running", minigrad.zeros(3))
        self.layer = nn.Linear(2, 3)
        self.head = nn.Sequential(nn.ReLU(), nn.Linear(3, 1))
        self.cache = minigrad.zeros(2)  # a plain tensor attribute: not registered

    def forward(self, x):
        return self.head(self.layer(x) * self.scale)


# ---------------------------------------------------------------- Parameter
def test_parameter_is_a_leaf_tensor_that_requires_grad_and_shares_data():
    t = minigrad.tensor([1.0, 2.0])
    p = nn.Parameter(t)
    assert isinstance(p, minigrad.Tensor) and isinstance(p, nn.Parameter)
    assert p.requires_grad and p.is_leaf and p.grad_fn is None
    assert p._data is t._data  # no copy
    assert not nn.Parameter(t, requires_grad=False).requires_grad
    assert nn.Parameter().shape == (0,)


def test_parameter_of_a_computed_tensor_is_a_leaf():
    x = minigrad.tensor([1.0, 2.0], requires_grad=True)
    p = nn.Parameter(x * 2)
    assert p.is_leaf and p.requires_grad and p.grad_fn is None


def test_parameter_repr():
    p = nn.Parameter(minigrad.tensor([1.0, 2.0]))
    assert repr(p) == "Parameter containing:\ntensor([1., 2.], requires_grad=True)"
    q = nn.Parameter(minigrad.tensor([[0.5, -1.25]]), requires_grad=False)
    assert repr(q) == "Parameter containing:\ntensor([[ 0.5000, -1.2500]])"


def test_ops_on_a_parameter_give_plain_tensors():
    p = nn.Parameter(minigrad.tensor([1.0, 2.0]))
    for out in (p * 2, p + p, p.sum(), p.detach(), p.data):
        assert type(out) is minigrad.Tensor
    assert (p * 2).grad_fn.name() == "MulBackward0"


def test_parameter_deepcopy_copies_values():
    p = nn.Parameter(minigrad.tensor([1.0, 2.0]))
    q = copy.deepcopy(p)
    assert type(q) is nn.Parameter and q.requires_grad and q._data is not p._data
    assert q.tolist() == [1.0, 2.0]


def test_parameter_repr_matches_torch():
    torch = _torch()
    values = [[0.1234, -2.0], [3.5, 0.0]]
    assert repr(nn.Parameter(minigrad.tensor(values))) == repr(torch.nn.Parameter(torch.tensor(values)))


# ---------------------------------------------------------------- registration and names
def test_named_parameters_use_dotted_names():
    net = Net()
    names = [n for n, _ in net.named_parameters()]
    assert names == ["scale", "layer.weight", "layer.bias", "head.1.weight", "head.1.bias"]
    assert [p.shape for p in net.parameters()] == [(1,), (3, 2), (3,), (1, 3), (1,)]
    assert [n for n, _ in net.named_parameters(recurse=False)] == ["scale"]
    assert len(list(net.parameters(recurse=False))) == 1
    assert [n for n, _ in net.named_buffers()] == ["running"]
    assert len(list(net.buffers())) == 1
    assert "cache" not in dict(net.named_parameters()) and "cache" not in dict(net.named_buffers())


def test_children_and_modules():
    net = Net()
    assert [n for n, _ in net.named_children()] == ["layer", "head"]
    assert list(net.children()) == [net.layer, net.head]
    assert [n for n, _ in net.named_modules()] == ["", "layer", "head", "head.0", "head.1"]
    assert [type(m).__name__ for m in net.modules()] == ["Net", "Linear", "Sequential", "ReLU", "Linear"]


def test_shared_parameters_and_modules_are_listed_once():
    lin = nn.Linear(2, 2)
    seq = nn.Sequential(lin, nn.ReLU(), lin)
    assert [n for n, _ in seq.named_parameters()] == ["0.weight", "0.bias"]
    assert [n for n, _ in seq.named_modules()] == ["", "0", "1"]


def test_attribute_access_and_getattr_error():
    net = Net()
    assert net.layer.weight is net._modules["layer"]._parameters["weight"]
    assert net.running is net._buffers["running"]
    with pytest.raises(AttributeError, match=r"^'Linear' object has no attribute 'foo'$"):
        net.layer.foo
    del net.layer
    assert "layer" not in net._modules
    with pytest.raises(AttributeError, match="'Net' object has no attribute 'layer'"):
        net.layer


def test_reassigning_and_replacing_attributes():
    net = Net()
    with pytest.raises(TypeError, match=r"cannot assign 'minigrad.FloatTensor' as parameter 'scale' "
                                        r"\(minigrad.nn.Parameter or None expected\)"):
        net.scale = minigrad.ones(1)
    with pytest.raises(TypeError, match=r"cannot assign 'int' as child module 'layer'"):
        net.layer = 3
    net.scale = None  # allowed: a placeholder, no longer listed
    assert "scale" not in dict(net.named_parameters())
    net.running = minigrad.ones(3)  # a buffer stays a buffer
    assert net._buffers["running"].tolist() == [1.0, 1.0, 1.0]
    net.cache = nn.Parameter(minigrad.zeros(2))  # a plain attribute becomes a parameter
    assert "cache" in dict(net.named_parameters()) and "cache" not in net.__dict__


def test_register_errors():
    class Early(nn.Module):
        def __init__(self):
            self.w = nn.Parameter(minigrad.zeros(1))

    with pytest.raises(AttributeError, match=r"cannot assign parameters before Module.__init__\(\) call"):
        Early()
    m = nn.Linear(2, 2)
    with pytest.raises(KeyError, match=r"parameter name can.*t contain"):
        m.register_parameter("a.b", nn.Parameter(minigrad.zeros(1)))
    with pytest.raises(KeyError, match="attribute 'forward' already exists"):
        m.register_parameter("forward", nn.Parameter(minigrad.zeros(1)))
    with pytest.raises(TypeError, match=r"cannot assign 'minigrad.FloatTensor' object to parameter 'w'"):
        m.register_parameter("w", minigrad.zeros(1))
    with pytest.raises(TypeError, match="int is not a Module subclass"):
        m.add_module("x", 3)
    m.add_module("sub", nn.ReLU())
    assert m.sub is m._modules["sub"]
    m.register_buffer("tmp", minigrad.ones(1), persistent=False)
    assert "tmp" not in m.state_dict() and [n for n, _ in m.named_buffers()] == ["tmp"]


def test_module_without_forward():
    with pytest.raises(NotImplementedError, match=r'Module \[Module\] is missing the required "forward" function'):
        nn.Module()(minigrad.ones(1))


# ---------------------------------------------------------------- modes, grads, apply, dtypes
def test_zero_grad_sets_grads_to_none_or_zero():
    net = Net()
    net(minigrad.ones(4, 2)).sum().backward()
    assert all(p.grad is not None for p in net.parameters())
    net.zero_grad(set_to_none=False)
    assert all(p.grad is not None and not p.grad._data.any() for p in net.parameters())
    net(minigrad.ones(4, 2)).sum().backward()
    net.zero_grad()
    assert all(p.grad is None for p in net.parameters())


def test_train_eval():
    net = Net()
    assert net.training and net.head[1].training
    assert net.eval() is net
    assert not any(m.training for m in net.modules())
    net.train()
    assert all(m.training for m in net.modules())
    with pytest.raises(ValueError, match="training mode is expected to be boolean"):
        net.train(1)


def test_apply_and_requires_grad():
    net = Net()
    seen = []

    def fill(m):
        seen.append(type(m).__name__)
        if isinstance(m, nn.Linear):
            init.constant_(m.weight, 0.5)
            init.zeros_(m.bias)

    assert net.apply(fill) is net
    assert seen == ["Linear", "ReLU", "Linear", "Sequential", "Net"]
    assert net.layer.weight.tolist() == [[0.5, 0.5]] * 3 and net.layer.weight.is_leaf
    net.requires_grad_(False)
    assert not any(p.requires_grad for p in net.parameters())


def test_double_and_to_keep_the_parameter_objects():
    net = Net()
    w = net.layer.weight
    net(minigrad.ones(1, 2)).sum().backward()
    assert net.double() is net
    assert net.layer.weight is w and w.dtype is minigrad.float64 and w.grad.dtype is minigrad.float64
    assert net.running.dtype is minigrad.float64
    assert net(minigrad.ones(1, 2, dtype=minigrad.float64)).dtype is minigrad.float64
    net.to(minigrad.float32)
    assert w.dtype is minigrad.float32 and net.layer.weight is w
    net.to("cpu")
    assert net.float().layer.weight.dtype is minigrad.float32
    with pytest.raises(TypeError, match="nn.Module.to only accepts floating point"):
        net.to(minigrad.int64)


def test_forward_hooks():
    lin = nn.Linear(2, 2)
    calls = []
    h1 = lin.register_forward_pre_hook(lambda m, args: calls.append(("pre", args[0].shape)))
    h2 = lin.register_forward_hook(lambda m, args, out: out * 0)
    out = lin(minigrad.ones(3, 2))
    assert calls == [("pre", (3, 2))] and out.tolist() == [[0.0, 0.0]] * 3
    h1.remove()
    h2.remove()
    assert lin(minigrad.ones(3, 2)).tolist() != [[0.0, 0.0]] * 3 and len(calls) == 1


# ---------------------------------------------------------------- state_dict
def test_state_dict_keys_values_and_sharing():
    net = Net()
    sd = net.state_dict()
    assert isinstance(sd, OrderedDict)
    assert list(sd) == ["scale", "running", "layer.weight", "layer.bias", "head.1.weight", "head.1.bias"]
    for t in sd.values():
        assert type(t) is minigrad.Tensor and not t.requires_grad and t.grad_fn is None
    assert sd["layer.weight"]._data is net.layer.weight._data  # detached, not copied
    assert net.state_dict(keep_vars=True)["layer.weight"] is net.layer.weight


def test_state_dict_round_trip():
    a, b = Net(), Net()
    params_b = list(b.parameters())
    result = b.load_state_dict(copy.deepcopy(a.state_dict()))
    assert repr(result) == "<All keys matched successfully>"
    assert result.missing_keys == [] and result.unexpected_keys == []
    for (na, ta), (nb, tb) in zip(a.state_dict().items(), b.state_dict().items()):
        assert na == nb and np.array_equal(ta._data, tb._data)
    assert all(x is y for x, y in zip(b.parameters(), params_b))  # copied in place
    x = minigrad.randn(5, 2)
    assert np.array_equal(a(x)._data, b(x)._data)


def test_load_state_dict_missing_and_unexpected_keys():
    m = nn.Sequential(nn.Linear(2, 3))
    bad = {"0.weight": minigrad.zeros(3, 2), "extra": minigrad.zeros(1), "0.foo.bar": minigrad.zeros(1)}
    with pytest.raises(RuntimeError) as e:
        m.load_state_dict(bad)
    assert str(e.value) == ('Error(s) in loading state_dict for Sequential:\n\tMissing key(s) in state_dict: '
                            '"0.bias". \n\tUnexpected key(s) in state_dict: "extra", "0.foo.bar". ')
    result = m.load_state_dict({"0.weight": minigrad.zeros(3, 2)}, strict=False)
    assert repr(result) == "_IncompatibleKeys(missing_keys=['0.bias'], unexpected_keys=[])"
    assert not m[0].weight._data.any()


def test_load_state_dict_size_mismatch():
    m = nn.Sequential(nn.Linear(2, 3))
    with pytest.raises(RuntimeError) as e:
        m.load_state_dict({"0.weight": minigrad.zeros(2, 2), "0.bias": minigrad.zeros(3)})
    assert str(e.value) == ("Error(s) in loading state_dict for Sequential:\n\tsize mismatch for 0.weight: copying "
                            "a param with shape minigrad.Size([2, 2]) from checkpoint, the shape in current model "
                            "is minigrad.Size([3, 2]).")


def test_load_state_dict_errors_match_torch():
    torch = _torch()
    for strict_dict in ({"0.weight": [[0.0] * 2] * 3, "extra": [0.0]}, {"0.bias": [0.0] * 3}):
        tm, mm = torch.nn.Sequential(torch.nn.Linear(2, 3)), nn.Sequential(nn.Linear(2, 3))
        with pytest.raises(RuntimeError) as te:
            tm.load_state_dict({k: torch.tensor(v) for k, v in strict_dict.items()})
        with pytest.raises(RuntimeError) as me:
            mm.load_state_dict({k: minigrad.tensor(v) for k, v in strict_dict.items()})
        assert str(me.value) == str(te.value)


# ---------------------------------------------------------------- printing
SEQ_REPR = ("Sequential(\n"
            "  (0): Linear(in_features=2, out_features=3, bias=True)\n"
            "  (1): ReLU()\n"
            ")")

NET_REPR = ("Net(\n"
            "  (layer): Linear(in_features=2, out_features=3, bias=True)\n"
            "  (head): Sequential(\n"
            "    (0): ReLU()\n"
            "    (1): Linear(in_features=3, out_features=1, bias=True)\n"
            "  )\n"
            ")")


def test_repr_strings():
    assert repr(nn.Sequential(nn.Linear(2, 3), nn.ReLU())) == SEQ_REPR
    assert repr(Net()) == NET_REPR
    assert repr(nn.Linear(4, 1, bias=False)) == "Linear(in_features=4, out_features=1, bias=False)"
    assert [repr(m) for m in (nn.ReLU(), nn.ReLU(inplace=True), nn.Sigmoid(), nn.Tanh(), nn.Softmax(dim=1),
                              nn.LogSoftmax(dim=-1), nn.Flatten(), nn.Identity(), nn.MSELoss(),
                              nn.CrossEntropyLoss(), nn.NLLLoss(), nn.Sequential(), nn.ModuleList())] == \
        ["ReLU()", "ReLU(inplace=True)", "Sigmoid()", "Tanh()", "Softmax(dim=1)", "LogSoftmax(dim=-1)",
         "Flatten(start_dim=1, end_dim=-1)", "Identity()", "MSELoss()", "CrossEntropyLoss()", "NLLLoss()",
         "Sequential()", "ModuleList()"]
    assert repr(nn.ModuleList([nn.Linear(2, 2), nn.Linear(2, 2), nn.ReLU()])) == (
        "ModuleList(\n  (0-1): 2 x Linear(in_features=2, out_features=2, bias=True)\n  (2): ReLU()\n)")


def test_extra_repr_multiline():
    class Custom(nn.Module):
        def __init__(self):
            super().__init__()
            self.fc = nn.Linear(1, 1)

        def extra_repr(self):
            return "alpha=1\nbeta=2"

    assert repr(Custom()) == ("Custom(\n  alpha=1\n  beta=2\n"
                              "  (fc): Linear(in_features=1, out_features=1, bias=True)\n)")


def test_reprs_match_torch():
    torch = _torch()

    def build(lib):
        class Net(lib.nn.Module):
            def __init__(self):
                super().__init__()
                self.body = lib.nn.Sequential(OrderedDict(fc1=lib.nn.Linear(4, 8), act=lib.nn.Tanh()))
                self.blocks = lib.nn.ModuleList([lib.nn.Linear(8, 8) for _ in range(3)] + [lib.nn.Sigmoid()])
                self.out = lib.nn.Sequential(lib.nn.Flatten(0), lib.nn.Linear(8, 2, bias=False),
                                             lib.nn.LogSoftmax(dim=1), lib.nn.Identity(), lib.nn.ReLU(True))
                self.loss = lib.nn.CrossEntropyLoss(reduction="sum")
        return Net()

    assert repr(build(minigrad)) == repr(build(torch))
    assert repr(nn.Softmax()) == repr(torch.nn.Softmax())


# ---------------------------------------------------------------- Linear
def test_linear_shapes_and_init_bounds():
    minigrad.manual_seed(0)
    lin = nn.Linear(16, 32)
    assert lin.weight.shape == (32, 16) and lin.bias.shape == (32,)
    assert isinstance(lin.weight, nn.Parameter) and lin.weight.is_leaf and lin.weight.dtype is minigrad.float32
    bound = 1 / math.sqrt(16)
    for p in (lin.weight, lin.bias):
        assert np.abs(p._data).max() <= bound and np.abs(p._data).max() > 0.8 * bound
    assert lin(minigrad.randn(5, 16)).shape == (5, 32)
    assert lin(minigrad.randn(16)).shape == (32,)
    assert lin(minigrad.randn(2, 3, 16)).shape == (2, 3, 32)
    no_bias = nn.Linear(3, 2, bias=False)
    assert no_bias.bias is None and [n for n, _ in no_bias.named_parameters()] == ["weight"]
    assert nn.Linear(2, 2, dtype=minigrad.float64).weight.dtype is minigrad.float64


def test_linear_graph_is_addmm():
    lin = nn.Linear(3, 2)
    y = lin(minigrad.randn(4, 3))
    assert y.grad_fn.name() == "AddmmBackward0"
    names = [None if fn is None else fn.name() for fn, _ in y.grad_fn.next_functions]
    assert names == ["minigrad::autograd::AccumulateGrad", None, "TBackward0"]
    assert y.grad_fn.next_functions[0][0].variable is lin.bias
    assert y.grad_fn.next_functions[2][0].next_functions[0][0].variable is lin.weight


def test_linear_forward_backward_match_torch():
    torch = _torch()
    rng = np.random.default_rng(1)
    w, b = rng.standard_normal((3, 4)).astype(np.float32), rng.standard_normal(3).astype(np.float32)
    x = rng.standard_normal((5, 4)).astype(np.float32)
    results = []
    for lib in (torch, minigrad):
        lin = lib.nn.Linear(4, 3)
        with lib.no_grad():
            lin.weight.copy_(lib.tensor(w))
            lin.bias.copy_(lib.tensor(b))
        y = lin(lib.tensor(x))
        y.pow(2).sum().backward()
        names = [None if fn is None else fn.name().replace("torch::", "minigrad::")
                 for fn, _ in y.grad_fn.next_functions]
        results.append((y.grad_fn.name(), names, y.detach().numpy(), lin.weight.grad.numpy(), lin.bias.grad.numpy()))
    (tn, tnames, *tvals), (mn, mnames, *mvals) = results
    assert (tn, tnames) == (mn, mnames)
    for t, m in zip(tvals, mvals):
        np.testing.assert_allclose(m, t, rtol=1e-5, atol=1e-6)


def _second_order_graph(lib):
    """The graph recorded for Linear's gradients with create_graph=True, as indented node names."""
    lib.manual_seed(0)
    lin = lib.nn.Linear(3, 2)
    x = lib.ones(4, 3, requires_grad=True)
    gw, gx = lib.autograd.grad((lin(x) ** 2).sum(), (lin.weight, x), create_graph=True)

    def walk(fn, depth):
        if fn is None or depth > 3:
            return []
        lines = ["  " * depth + fn.name().split("::")[-1]]
        for nxt, _ in fn.next_functions:
            lines += walk(nxt, depth + 1)
        return lines
    return walk(gw.grad_fn, 0), walk(gx.grad_fn, 0), gw.is_contiguous()


# recorded from PyTorch 2.13: the weight's gradient is computed as (grad^T @ x)^T because weight.t() is
# column-major (mm_mat2_backward), so it arrives in weight's own row-major layout
LINEAR_SECOND_ORDER = (
    ["TBackward0", "  TBackward0", "    MmBackward0", "      TBackward0", "      AccumulateGrad"],
    ["MmBackward0", "  MulBackward0", "    MulBackward1", "      PowBackward0", "  TBackward0", "    TBackward0",
     "      AccumulateGrad"],
    True)


def test_linear_weight_gradient_is_computed_in_the_weights_layout():
    assert _second_order_graph(minigrad) == LINEAR_SECOND_ORDER
    lin = nn.Linear(3, 2)
    lin(minigrad.randn(4, 3)).sum().backward()
    assert lin.weight.grad._data.flags.c_contiguous


def test_linear_second_order_graph_matches_torch():
    assert _second_order_graph(minigrad) == _second_order_graph(_torch())


# ---------------------------------------------------------------- Sequential, ModuleList
def test_sequential_indexing_and_forward():
    a, b, c = nn.Linear(2, 3), nn.ReLU(), nn.Linear(3, 1)
    seq = nn.Sequential(a, b, c)
    assert len(seq) == 3 and list(seq) == [a, b, c]
    assert seq[0] is a and seq[-1] is c and seq[-3] is a
    sub = seq[1:]
    assert type(sub) is nn.Sequential and list(sub) == [b, c]
    assert [n for n, _ in sub.named_parameters()] == ["2.weight", "2.bias"]  # names are kept, as in PyTorch
    with pytest.raises(IndexError, match="index 3 is out of range"):
        seq[3]
    with pytest.raises(IndexError, match="index -4 is out of range"):
        seq[-4]
    x = minigrad.randn(4, 2)
    assert np.array_equal(seq(x)._data, c(b(a(x)))._data)
    assert seq.append(nn.Sigmoid()) is seq and len(seq) == 4 and "3" in seq._modules
    named = nn.Sequential(OrderedDict([("fc", nn.Linear(2, 2)), ("act", nn.Tanh())]))
    assert [n for n, _ in named.named_parameters()] == ["fc.weight", "fc.bias"] and named.fc is named[0]
    del seq[1]
    assert list(seq._modules) == ["0", "1", "2"] and seq[1] is c
    seq[0] = nn.Identity()
    assert type(seq[0]) is nn.Identity


def test_module_list():
    layers = nn.ModuleList([nn.Linear(2, 2) for _ in range(3)])
    assert len(layers) == 3 and layers[-1] is layers[2]
    layers.append(nn.ReLU())
    layers += [nn.Tanh()]
    assert len(layers) == 5 and [n for n, _ in layers.named_parameters()][:2] == ["0.weight", "0.bias"]
    assert type(layers[1:3]) is nn.ModuleList and len(layers[1:3]) == 2
    with pytest.raises(IndexError, match="index 5 is out of range"):
        layers[5]


# ---------------------------------------------------------------- activations, Flatten, losses
def test_activation_and_shape_modules():
    x = minigrad.randn(2, 3, 4)
    for module, expected in ((nn.ReLU(), x.relu()), (nn.Sigmoid(), x.sigmoid()), (nn.Tanh(), x.tanh()),
                             (nn.Softmax(dim=-1), x.softmax(-1)), (nn.LogSoftmax(dim=1), x.log_softmax(1)),
                             (nn.Identity(3, bias=True), x)):
        assert np.array_equal(module(x)._data, expected._data)
    assert nn.Identity()(x) is x
    assert nn.Flatten()(x).shape == (2, 12) and nn.Flatten(0)(x).shape == (24,)
    assert nn.Flatten(0, 1)(x).shape == (6, 4)
    assert nn.ReLU()(x.requires_grad_()).grad_fn.name() == "ReluBackward0"


def test_loss_modules():
    logits = minigrad.tensor([[1.0, 2.0, 0.5], [0.1, -1.0, 2.0]], requires_grad=True)
    target = minigrad.tensor([1, 2])
    w = minigrad.tensor([1.0, 2.0, 0.5])
    assert np.allclose(nn.CrossEntropyLoss()(logits, target)._data, F.cross_entropy(logits, target)._data)
    ce = nn.CrossEntropyLoss(weight=w, reduction="sum", ignore_index=2)
    assert ce.weight is w and list(ce.state_dict()) == ["weight"]
    assert np.allclose(ce(logits, target)._data, F.cross_entropy(logits, target, weight=w, reduction="sum",
                                                                 ignore_index=2)._data)
    logp = logits.log_softmax(1)
    assert np.allclose(nn.NLLLoss()(logp, target)._data, F.nll_loss(logp, target)._data)
    assert nn.NLLLoss()(logp, target).grad_fn.name() == "NllLossBackward0"
    a, b = minigrad.tensor([1.0, 2.0, 3.0]), minigrad.tensor([1.5, 2.0, 1.0])
    assert nn.MSELoss()(a, b).item() == pytest.approx((0.25 + 0 + 4) / 3)
    assert nn.MSELoss(reduction="sum")(a, b).item() == pytest.approx(4.25)
    assert nn.MSELoss(reduction="none")(a, b).tolist() == [0.25, 0.0, 4.0]
    with pytest.warns(UserWarning, match="size_average and reduce args will be deprecated"):
        assert nn.MSELoss(size_average=False).reduction == "sum"


def test_losses_match_torch():
    torch = _torch()
    logits = [[1.0, 2.0, 0.5], [0.1, -1.0, 2.0], [0.3, 0.3, -0.2]]
    target, weight = [1, 2, 0], [1.0, 2.0, 0.5]
    for kwargs in ({}, {"reduction": "sum"}, {"ignore_index": 2}, {"weight": weight}):
        out = []
        for lib in (torch, minigrad):
            kw = {k: (lib.tensor(v) if k == "weight" else v) for k, v in kwargs.items()}
            x = lib.tensor(logits, requires_grad=True)
            loss = lib.nn.CrossEntropyLoss(**kw)(x, lib.tensor(target))
            loss.backward()
            out.append((loss.item(), x.grad.numpy()))
        assert out[1][0] == pytest.approx(out[0][0], rel=1e-6)
        np.testing.assert_allclose(out[1][1], out[0][1], rtol=1e-5, atol=1e-7)


# ---------------------------------------------------------------- init
def test_calculate_gain_and_fans():
    assert init.calculate_gain("linear") == 1 and init.calculate_gain("sigmoid") == 1
    assert init.calculate_gain("tanh") == 5.0 / 3 and init.calculate_gain("relu") == math.sqrt(2.0)
    assert init.calculate_gain("leaky_relu") == math.sqrt(2.0 / (1 + 0.01 ** 2))
    assert init.calculate_gain("leaky_relu", math.sqrt(5)) == math.sqrt(1 / 3)
    assert init.calculate_gain("selu") == 0.75
    with pytest.raises(ValueError, match="Unsupported nonlinearity foo"):
        init.calculate_gain("foo")
    assert init._calculate_fan_in_and_fan_out(minigrad.empty(5, 3)) == (3, 5)
    assert init._calculate_fan_in_and_fan_out(minigrad.empty(8, 4, 3, 3)) == (36, 72)
    with pytest.raises(ValueError, match="Fan in and fan out can not be computed for tensor with fewer than 2"):
        init._calculate_fan_in_and_fan_out(minigrad.empty(5))


def test_init_functions_fill_in_place_without_recording():
    minigrad.manual_seed(0)
    w = nn.Parameter(minigrad.empty(200, 100))
    data = w._data
    for fn, bound in ((init.xavier_uniform_, math.sqrt(6 / 300)),
                      (lambda t: init.kaiming_uniform_(t, nonlinearity="relu"), math.sqrt(6 / 100)),
                      (lambda t: init.kaiming_uniform_(t, mode="fan_out", nonlinearity="relu"), math.sqrt(6 / 200)),
                      (lambda t: init.uniform_(t, -0.3, 0.3), 0.3)):
        assert fn(w) is w
        assert w._data is data and w.is_leaf and w.requires_grad
        assert np.abs(w._data).max() <= bound and np.abs(w._data).max() > 0.95 * bound
    for fn, std in ((init.xavier_normal_, math.sqrt(2 / 300)),
                    (lambda t: init.kaiming_normal_(t, nonlinearity="relu"), math.sqrt(2 / 100)),
                    (lambda t: init.normal_(t, 1.0, 0.5), 0.5)):
        fn(w)
        assert w._data.std() == pytest.approx(std, rel=0.05) and w.is_leaf
    assert init.normal_(w, 1.0, 0.5)._data.mean() == pytest.approx(1.0, abs=0.02)
    assert init.zeros_(w)._data.max() == 0 and init.ones_(w)._data.min() == 1
    assert (init.constant_(w, 0.25)._data == 0.25).all()
    with pytest.raises(ValueError, match="Mode fan_avg not supported"):
        init.kaiming_uniform_(w, mode="fan_avg")


def test_init_gain_and_bounds_match_torch():
    torch = _torch()
    for args in (("linear",), ("tanh",), ("relu",), ("leaky_relu", 0.2), ("selu",)):
        assert init.calculate_gain(*args) == torch.nn.init.calculate_gain(*args)
    for shape in ((3, 5), (4, 2, 3, 3)):
        assert init._calculate_fan_in_and_fan_out(minigrad.empty(*shape)) == \
            torch.nn.init._calculate_fan_in_and_fan_out(torch.empty(*shape))


def test_the_layers_minigrad_leaves_out_say_so():
    import minigrad.nn.functional as F
    assert not hasattr(nn, "Conv3d") and not hasattr(F, "conv3d") and hasattr(nn, "Conv2d") and hasattr(nn, "Linear")
    with pytest.raises(AttributeError, match=r"^minigrad.nn has no LSTM: minigrad teaches autograd on fully connected "
                                             r"networks and leaves out recurrent layers; PyTorch has torch.nn.LSTM$"):
        nn.LSTM(3, 4)
    with pytest.raises(AttributeError, match=r"leaves out normalisation layers; PyTorch has "
                                             r"torch.nn.functional.group_norm$"):
        F.group_norm
    with pytest.raises(AttributeError, match=r"^module 'minigrad.nn' has no attribute 'Lineer'$"):
        nn.Lineer
    torch = pytest.importorskip("torch")
    from minigrad.nn._absent import FUNCTIONS, LAYERS
    for table, mine, theirs in ((LAYERS, nn, torch.nn), (FUNCTIONS, F, torch.nn.functional)):
        for names in table.values():
            for name in names:  # each one is a real PyTorch name, and one minigrad really lacks
                assert hasattr(theirs, name) and not hasattr(mine, name), name
