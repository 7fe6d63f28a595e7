"""ModuleDict, ParameterList, ParameterDict, Unflatten, the Module path helpers and the losses added with
them: what the parity cases (tests/parity/cases_nn_more.py) cannot express -- whole models built the
same way in both libraries, saving and loading, optimizers, copies, numerical gradient checks.

The tests marked with ``torch`` compare with PyTorch 2.13 when it is installed; the others state the
expected behaviour literally.
"""
import copy
from collections import OrderedDict
import pickle

import numpy as np
import pytest

import minigrad
import minigrad.nn as nn
import minigrad.nn.functional as F


def _model(T):
    """The same nested model, built with ``T`` (minigrad or torch)."""
    class Net(T.nn.Module):
        def __init__(self):
            super().__init__()
            self.blocks = T.nn.ModuleDict(OrderedDict(
                [("enc", T.nn.Sequential(T.nn.Linear(4, 3), T.nn.ReLU())), ("dec", T.nn.Linear(3, 2))]))
            self.scales = T.nn.ParameterList([T.ones(2), T.nn.Parameter(T.zeros(2) + 0.5)])
            self.gates = T.nn.ParameterDict({"out": T.full((2,), 2.0), "in": T.ones(4)})
            self.heads = T.nn.ModuleList([T.nn.ModuleDict({"a": T.nn.Linear(2, 1)})])

        def forward(self, x):
            h = self.blocks["dec"](self.blocks["enc"](x * self.gates["in"]))
            for s in self.scales:
                h = h * s
            return self.heads[0]["a"](h * self.gates["out"])

    return Net()


def _copy_weights(src, dst, T):
    """Give ``dst`` (built with ``T``) the values of ``src``'s parameters, by their state_dict names."""
    dst.load_state_dict({k: T.tensor(v.detach().numpy().tolist()) for k, v in src.state_dict().items()})


EXPECTED_KEYS = ["blocks.enc.0.weight", "blocks.enc.0.bias", "blocks.dec.weight", "blocks.dec.bias", "scales.0",
                 "scales.1", "gates.in", "gates.out", "heads.0.a.weight", "heads.0.a.bias"]


def test_state_dict_names_and_parameter_order():
    model = _model(minigrad)
    assert list(model.state_dict()) == EXPECTED_KEYS  # (a plain dict given to ParameterDict: sorted keys)
    assert [n for n, _ in model.named_parameters()] == EXPECTED_KEYS
    assert all(type(p) is nn.Parameter for p in model.parameters())
    assert model.get_parameter("gates.out") is model.gates["out"]
    assert model.get_parameter("scales.1") is model.scales[1]
    assert model.get_submodule("heads.0.a") is model.heads[0]["a"]


def test_same_model_same_names_shapes_and_outputs_as_torch():
    torch = pytest.importorskip("torch")
    mine, theirs = _model(minigrad), _model(torch)
    assert list(theirs.state_dict()) == EXPECTED_KEYS
    assert [(n, tuple(p.shape)) for n, p in mine.named_parameters()] == \
        [(n, tuple(p.shape)) for n, p in theirs.named_parameters()]
    _copy_weights(theirs, mine, minigrad)
    x = [[1.0, -2.0, 0.5, 3.0], [0.0, 1.0, -1.0, 2.0]]
    y_mine, y_theirs = mine(minigrad.tensor(x)), theirs(torch.tensor(x))
    np.testing.assert_allclose(y_mine.detach().numpy(), y_theirs.detach().numpy(), rtol=1e-6)
    y_mine.sum().backward()
    y_theirs.sum().backward()
    for (name, p), q in zip(mine.named_parameters(), theirs.parameters()):
        np.testing.assert_allclose(p.grad.numpy(), q.grad.numpy(), rtol=1e-5, atol=1e-7, err_msg=name)


def test_reprs_are_torchs():
    torch = pytest.importorskip("torch")

    def build(T):
        return [_model(T), T.nn.ParameterList([T.zeros(2, 3), "text", T.tensor(1.0, dtype=T.float64)]),
                T.nn.ParameterDict(OrderedDict([("w", T.zeros(3)), ("n", 4)])), T.nn.ModuleDict(),
                T.nn.ParameterList(), T.nn.Unflatten(1, (2, 2)), T.nn.KLDivLoss(), T.nn.MultiMarginLoss(),
                T.nn.PairwiseDistance(), T.nn.CosineSimilarity()]

    for mine, theirs in zip(build(minigrad), build(torch)):
        assert repr(mine) == repr(theirs).replace("torch.", "minigrad.")


def test_parameter_list_and_dict_print_dtypes_and_tensor_types():
    p = nn.ParameterList([minigrad.zeros(2, 3), minigrad.zeros((), dtype=minigrad.float64), 7])
    assert repr(p) == ("ParameterList(\n"
                       "    (0): Parameter containing: [minigrad.float32 of size 2x3]\n"
                       "    (1): Parameter containing: [minigrad.float64 of size ]\n"
                       "    (2): Object of type: int\n)")
    d = nn.ParameterDict(OrderedDict([("w", minigrad.zeros(3))]))
    assert repr(d) == "ParameterDict(  (w): Parameter containing: [minigrad.FloatTensor of size 3])"


def test_load_state_dict_round_trip_and_missing_keys():
    a, b = _model(minigrad), _model(minigrad)
    with minigrad.no_grad():
        a.gates["in"].mul_(3.0)
        a.scales[0].add_(1.0)
    b.load_state_dict(a.state_dict())
    assert b.gates["in"].tolist() == [3.0] * 4 and b.scales[0].tolist() == [2.0, 2.0]
    sd = a.state_dict()
    del sd["gates.out"]
    with pytest.raises(RuntimeError, match=r'Missing key\(s\) in state_dict: "gates.out"'):
        b.load_state_dict(sd)


def test_optimizer_trains_the_container_parameters_in_place():
    model = _model(minigrad)
    kept = [model.scales[0], model.gates["out"]]
    opt = minigrad.optim.SGD(model.parameters(), lr=0.1)
    before = [p.detach().clone() for p in kept]
    model(minigrad.ones(1, 4)).sum().backward()
    opt.step()
    assert model.scales[0] is kept[0] and model.gates["out"] is kept[1]  # the same objects, new values
    for old, p in zip(before, kept):
        np.testing.assert_allclose(p.detach().numpy(), (old - 0.1 * p.grad).numpy(), rtol=1e-6)
        assert not np.allclose(p.detach().numpy(), old.numpy())


def test_a_plain_tensor_becomes_a_parameter_sharing_its_numbers():
    t = minigrad.tensor([1.0, 2.0])
    for container, get in ((nn.ParameterList([t]), lambda c: c[0]), (nn.ParameterDict({"t": t}), lambda c: c["t"])):
        p = get(container)
        assert type(p) is nn.Parameter and p.requires_grad and p.is_leaf
        t.add_(1.0)
        assert p.tolist() == t.tolist()
    frozen = nn.Parameter(minigrad.ones(1), requires_grad=False)
    assert nn.ParameterList([frozen])[0] is frozen  # a Parameter is kept as it is
    assert nn.ParameterDict({"x": 1.5})["x"] == 1.5  # and so is any other object (no parameter)


def test_containers_copy_and_pickle():
    model = _model(minigrad)
    clone = copy.deepcopy(model)
    assert list(clone.state_dict()) == EXPECTED_KEYS
    assert clone.gates["out"] is not model.gates["out"]
    assert clone.gates["out"].tolist() == model.gates["out"].tolist()
    again = pickle.loads(pickle.dumps(model.scales))
    assert len(again) == 2 and [p.tolist() for p in again] == [[1.0, 1.0], [0.5, 0.5]]
    d = model.gates.copy()
    assert list(d) == ["in", "out"] and d["in"] is model.gates["in"]


def test_module_dict_update_order_and_replacement():
    md = nn.ModuleDict({"b": nn.ReLU()})
    md.update(OrderedDict([("z", nn.Tanh()), ("a", nn.Sigmoid())]))
    md.update([("b", nn.Identity())])  # replaces in place: the order stays
    assert list(md) == ["b", "z", "a"] and type(md["b"]) is nn.Identity
    with pytest.raises(TypeError, match="^ModuleDict update sequence element #0 should be Iterable; isint$"):
        md.update([1])
    with pytest.raises(NotImplementedError, match='Module \\[ModuleDict\\] is missing the required "forward"'):
        md(minigrad.ones(1))


def test_set_submodule_replaces_and_its_parameters_follow():
    model = _model(minigrad)
    model.set_submodule("blocks.dec", nn.Linear(3, 2, bias=False), strict=True)
    assert "blocks.dec.bias" not in model.state_dict()
    model.set_submodule("blocks.extra", nn.Linear(1, 1))
    assert [k for k in model.state_dict() if k.startswith("blocks.extra")] == ["blocks.extra.weight",
                                                                              "blocks.extra.bias"]
    with pytest.raises(AttributeError, match="^ModuleDict has no attribute `nope`$"):
        model.set_submodule("blocks.nope", nn.ReLU(), strict=True)


def test_unflatten_undoes_flatten():
    x = minigrad.arange(24.0).reshape(2, 3, 4).requires_grad_()
    flat = nn.Flatten()(x)
    back = nn.Unflatten(1, (3, 4))(flat)
    assert back.shape == x.shape and back.tolist() == x.tolist()
    back.sum().backward()
    assert x.grad.tolist() == np.ones((2, 3, 4)).tolist()


def test_new_names_are_public_and_torchs():
    names = ["ModuleDict", "ParameterList", "ParameterDict", "Unflatten", "KLDivLoss", "MarginRankingLoss",
             "HingeEmbeddingLoss", "SoftMarginLoss", "CosineEmbeddingLoss", "TripletMarginLoss", "PoissonNLLLoss",
             "GaussianNLLLoss", "MultiLabelSoftMarginLoss", "MultiMarginLoss", "CosineSimilarity",
             "PairwiseDistance"]
    for name in names:
        assert name in nn.__all__ and hasattr(nn, name), name
    functions = ["margin_ranking_loss", "hinge_embedding_loss", "soft_margin_loss", "cosine_embedding_loss",
                 "triplet_margin_loss", "poisson_nll_loss", "gaussian_nll_loss", "multilabel_soft_margin_loss",
                 "multi_margin_loss", "pairwise_distance"]
    assert all(callable(getattr(F, f)) for f in functions)
    torch = pytest.importorskip("torch")
    assert all(hasattr(torch.nn, n) for n in names) and all(hasattr(torch.nn.functional, f) for f in functions)


# ------------------------------------------------------------------ losses: numerical gradients
def _double(seed, *shape, lo=-2.0, hi=2.0):
    values = np.random.RandomState(seed).uniform(lo, hi, size=shape)
    return minigrad.tensor(values, dtype=minigrad.float64, requires_grad=True)


@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
def test_soft_margin_loss_first_and_second_derivatives_are_numerically_right(reduction):
    target = minigrad.tensor(np.where(np.random.RandomState(1).randn(3, 4) > 0, 1.0, -1.0))
    x = _double(0, 3, 4)

    def fn(x):
        return F.soft_margin_loss(x, target, reduction=reduction)

    assert minigrad.autograd.gradcheck(fn, (x,))
    assert minigrad.autograd.gradgradcheck(fn, (x,))


@pytest.mark.parametrize("build", [
    lambda a, b, c: F.margin_ranking_loss(a[0], b[0], minigrad.tensor([1.0, -1.0, 1.0, -1.0]), margin=0.5),
    lambda a, b, c: F.cosine_embedding_loss(a, b, minigrad.tensor([1, -1, 1]), margin=-0.3),
    lambda a, b, c: F.triplet_margin_loss(a, b, c, margin=3.0, swap=True),
    lambda a, b, c: F.triplet_margin_loss(a, b, c, margin=3.0, p=3),
    lambda a, b, c: F.poisson_nll_loss(a, c.abs() * 2, log_input=True, full=True),
    lambda a, b, c: F.gaussian_nll_loss(a, b, c.abs() + 0.1, full=True),
    lambda a, b, c: F.multilabel_soft_margin_loss(a, (b > 0).double(), reduction="sum"),
    lambda a, b, c: F.hinge_embedding_loss(a, minigrad.tensor(np.sign(b.detach().numpy())), margin=5.0),
    lambda a, b, c: F.pairwise_distance(a, b, p=1.5),
], ids=["margin_ranking", "cosine_embedding", "triplet_swap", "triplet_p3", "poisson_full", "gaussian",
        "multilabel", "hinge", "pairwise_distance"])
def test_composite_losses_have_numerically_right_gradients(build):
    a, b, c = _double(2, 3, 4), _double(3, 3, 4), _double(4, 3, 4)
    assert minigrad.autograd.gradcheck(build, (a, b, c))


@pytest.mark.parametrize("p", [1, 2])
def test_multi_margin_loss_gradient_is_numerically_right_and_has_no_second(p):
    x = _double(5, 3, 4, lo=-1.0, hi=1.0)
    weight = minigrad.tensor([1.0, 0.5, 2.0, 1.5], dtype=minigrad.float64)
    target = minigrad.tensor([0, 2, 3])
    assert minigrad.autograd.gradcheck(lambda x: F.multi_margin_loss(x, target, p=p, margin=0.8, weight=weight,
                                                                     reduction="none"), (x,))
    (g,) = minigrad.autograd.grad(F.multi_margin_loss(x, target, p=p), x, create_graph=True)
    assert type(g.grad_fn).__name__ == "NotImplemented"
    with pytest.raises(RuntimeError, match="^derivative for aten::multi_margin_loss_backward is not implemented$"):
        g.sum().backward()


def test_multi_margin_loss_by_hand():
    # sample 0 (class 0): classes 1 and 2 within the margin 1 of x[0] = 0.5 -> (1 - 0.5 + 0.4) + (1 - 0.5 - 0.2),
    # over 3 classes; sample 1 (class 2): 1 - 2 + 0 < 0 and 1 - 2 + 1.5 = 0.5
    x = minigrad.tensor([[0.5, 0.4, -0.2], [0.0, 1.5, 2.0]], requires_grad=True)
    loss = F.multi_margin_loss(x, minigrad.tensor([0, 2]), reduction="none")
    np.testing.assert_allclose(loss.detach().numpy(), [(0.9 + 0.3) / 3, 0.5 / 3], rtol=1e-6)
    loss.sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), [[-2 / 3, 1 / 3, 1 / 3], [0.0, 1 / 3, -1 / 3]], rtol=1e-6)


def test_loss_modules_are_their_functions():
    a, b, c = _double(6, 3, 4), _double(7, 3, 4), _double(8, 3, 4)
    t = minigrad.tensor([1, -1, 1])
    pairs = [
        (nn.CosineEmbeddingLoss(0.2, reduction="sum")(a, b, t), F.cosine_embedding_loss(a, b, t, 0.2, reduction="sum")),
        (nn.TripletMarginLoss(2.0, 1.0, swap=True)(a, b, c), F.triplet_margin_loss(a, b, c, 2.0, 1.0, swap=True)),
        (nn.GaussianNLLLoss(eps=0.5)(a, b, c.abs()), F.gaussian_nll_loss(a, b, c.abs(), eps=0.5)),
        (nn.PoissonNLLLoss(log_input=False)(a.abs(), b.abs()), F.poisson_nll_loss(a.abs(), b.abs(), log_input=False)),
        (nn.PairwiseDistance(1.0, keepdim=True)(a, b), F.pairwise_distance(a, b, 1.0, keepdim=True)),
    ]
    for module_result, function_result in pairs:
        assert module_result.tolist() == function_result.tolist()
    with pytest.raises(ValueError, match="^TripletMarginLoss: expected margin to be greater than 0, got 0 instead$"):
        nn.TripletMarginLoss(margin=0)
