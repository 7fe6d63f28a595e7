"""PyTorch-parity cases (see ``cases.py`` for the conventions and the input helpers)."""
import numpy as np  # noqa: F401

from . import case  # noqa: F401
from .cases import arr, const, fwd_bwd, leaf  # noqa: F401


# ---------------------------------------------------------------------------------- losses, every reduction
# Each entry builds a loss from fresh inputs: (T, F, reduction, dtype) -> (loss, {name: leaf}).
def _pm1(T, seed, *shape, dtype="float32"):
    """Targets of +1 / -1."""
    return T.tensor(np.where(arr(seed, *shape) > 0, 1.0, -1.0).tolist(), dtype=getattr(T, dtype))


def _margin_ranking(T, F, red, dt):
    a, b = leaf(T, 1, 5, dtype=dt), leaf(T, 2, 5, dtype=dt)
    t = T.tensor([1.0, -1.0, 1.0, -1.0, 1.0], dtype=getattr(T, dt), requires_grad=True)
    return F.margin_ranking_loss(a, b, t, margin=0.3, reduction=red), dict(a=a, b=b, t=t)


def _hinge(T, F, red, dt):
    x = leaf(T, 3, 3, 4, lo=-1.0, dtype=dt)
    return F.hinge_embedding_loss(x, _pm1(T, 4, 3, 4, dtype=dt), margin=0.8, reduction=red), dict(x=x)


def _soft_margin(T, F, red, dt):
    x = leaf(T, 5, 3, 4, lo=-3.0, hi=3.0, dtype=dt)
    return F.soft_margin_loss(x, _pm1(T, 6, 3, 4, dtype=dt), reduction=red), dict(x=x)


def _cosine_embedding(T, F, red, dt):
    x1, x2 = leaf(T, 7, 3, 4, dtype=dt), leaf(T, 8, 3, 4, dtype=dt)
    t = T.tensor([1, -1, -1])
    return F.cosine_embedding_loss(x1, x2, t, margin=-0.5, reduction=red), dict(x1=x1, x2=x2)


def _triplet(T, F, red, dt):
    a, p, n = leaf(T, 9, 3, 4, dtype=dt), leaf(T, 10, 3, 4, dtype=dt), leaf(T, 11, 3, 4, dtype=dt)
    return F.triplet_margin_loss(a, p, n, margin=2.0, reduction=red), dict(a=a, p=p, n=n)


def _triplet_swap_p1(T, F, red, dt):
    a, p, n = leaf(T, 12, 3, 4, dtype=dt), leaf(T, 13, 3, 4, dtype=dt), leaf(T, 14, 3, 4, dtype=dt)
    return F.triplet_margin_loss(a, p, n, margin=3.0, p=1, swap=True, reduction=red), dict(a=a, p=p, n=n)


def _poisson(T, F, red, dt):
    x = leaf(T, 15, 3, 4, dtype=dt)
    t = T.tensor([[0.0, 1.0, 2.0, 3.0], [4.0, 0.0, 1.0, 5.0], [2.0, 2.0, 0.0, 1.0]], dtype=getattr(T, dt))
    return F.poisson_nll_loss(x, t, reduction=red), dict(x=x)


def _poisson_full(T, F, red, dt):
    x = leaf(T, 16, 3, 4, lo=0.1, hi=3.0, dtype=dt)
    t = leaf(T, 17, 3, 4, lo=0.2, hi=4.0, dtype=dt)
    return F.poisson_nll_loss(x, t, log_input=False, full=True, reduction=red), dict(x=x, t=t)


def _gaussian(T, F, red, dt):
    x, t = leaf(T, 18, 3, 4, dtype=dt), leaf(T, 19, 3, 4, dtype=dt)
    var = leaf(T, 20, 3, 4, lo=0.1, hi=2.0, dtype=dt)
    return F.gaussian_nll_loss(x, t, var, reduction=red), dict(x=x, t=t, var=var)


def _gaussian_full_per_sample(T, F, red, dt):
    x, t = leaf(T, 21, 3, 4, dtype=dt), leaf(T, 22, 3, 4, dtype=dt)
    var = leaf(T, 23, 3, lo=0.1, hi=2.0, dtype=dt)
    return F.gaussian_nll_loss(x, t, var, full=True, reduction=red), dict(x=x, t=t, var=var)


def _multilabel(T, F, red, dt):
    x = leaf(T, 24, 3, 4, lo=-3.0, hi=3.0, dtype=dt)
    t = leaf(T, 25, 3, 4, lo=0.0, hi=1.0, dtype=dt)
    w = T.tensor([1.0, 0.5, 2.0, 1.5], dtype=getattr(T, dt))
    return F.multilabel_soft_margin_loss(x, t, weight=w, reduction=red), dict(x=x, t=t)


def _multi_margin(T, F, red, dt):
    x = leaf(T, 26, 3, 4, lo=-1.0, hi=1.0, dtype=dt)
    return F.multi_margin_loss(x, T.tensor([0, 2, 3]), reduction=red), dict(x=x)


def _multi_margin_p2_weight(T, F, red, dt):
    x = leaf(T, 27, 3, 4, lo=-1.0, hi=1.0, dtype=dt)
    w = T.tensor([1.0, 0.5, 2.0, 1.5], dtype=getattr(T, dt))
    return F.multi_margin_loss(x, T.tensor([1, 1, 3]), p=2, margin=0.7, weight=w, reduction=red), dict(x=x)


def _kl_div_module(T, F, red, dt):
    x = leaf(T, 28, 3, 4, dtype=dt)
    t = leaf(T, 29, 3, 4, lo=0.0, hi=1.0, dtype=dt)
    return T.nn.KLDivLoss(reduction=red)(x.log_softmax(1), t), dict(x=x, t=t)


_LOSSES = {
    "margin_ranking": _margin_ranking, "hinge": _hinge, "soft_margin": _soft_margin,
    "cosine_embedding": _cosine_embedding, "triplet": _triplet, "triplet_swap_p1": _triplet_swap_p1,
    "poisson": _poisson, "poisson_full": _poisson_full, "gaussian": _gaussian,
    "gaussian_full_per_sample": _gaussian_full_per_sample, "multilabel": _multilabel,
    "multi_margin": _multi_margin, "multi_margin_p2_weight": _multi_margin_p2_weight, "kl_div_module": _kl_div_module,
}


def _loss_case(build, red, dt):
    def c(T, F, o):
        y, leaves = build(T, F, red, dt)
        fwd_bwd(T, o, y, depth=4, **leaves)
    return c


def _second_order_case(build):
    """The gradients with create_graph=True (their nodes and values), then backward through them."""
    def c(T, F, o):
        y, leaves = build(T, F, "mean", "float64")
        names = list(leaves)
        grads = T.autograd.grad(y, [leaves[k] for k in names], create_graph=True)
        for k, g in zip(names, grads):
            o.all(g, f"d{k}", depth=2)
        total = sum((g * T.tensor(arr(98 + i, *g.shape).tolist(), dtype=g.dtype)).sum()
                    for i, g in enumerate(grads))
        o.err("backward", lambda: total.backward())
        o.grads("2nd.", **leaves)
    return c


for _name, _build in _LOSSES.items():
    for _red in ("mean", "sum", "none"):
        case(_loss_case(_build, _red, "float32"), name=f"nnx_loss_{_name}_{_red}")
    case(_loss_case(_build, "mean", "float64"), name=f"nnx_loss_{_name}_f64")
    case(_loss_case(_build, "batchmean" if _name.startswith("kl") else "sum", "float64"),
         name=f"nnx_loss_{_name}_f64_other")
    case(_second_order_case(_build), name=f"nnx_loss_{_name}_second_order")


# ---------------------------------------------------------------------------------- loss errors, dtypes, broadcasting
@case
def nnx_loss_errors(T, F, o):
    x, t = const(T, 30, 2, 3), _pm1(T, 31, 2, 3)
    for name, fn in [
        ("mrl_dims", lambda: F.margin_ranking_loss(T.zeros(3), T.zeros(3), T.zeros(1, 3))),
        ("mrl_reduction", lambda: F.margin_ranking_loss(T.zeros(3), T.zeros(3), T.zeros(1, 3), reduction="x")),
        ("mrl_shapes", lambda: F.margin_ranking_loss(T.zeros(3), T.zeros(2), T.zeros(3))),
        ("hinge_reduction", lambda: F.hinge_embedding_loss(x, t, reduction="avg")),
        ("hinge_int_mean", lambda: F.hinge_embedding_loss(T.tensor([1, 2, 3]), T.tensor([1, -1, 1]))),
        ("soft_int", lambda: F.soft_margin_loss(T.tensor([1, 2]), T.tensor([1, -1]))),
        ("soft_reduction", lambda: F.soft_margin_loss(x, t, reduction="avg")),
        ("soft_shapes", lambda: F.soft_margin_loss(T.zeros(2), T.zeros(3))),
        ("soft_bigger_target", lambda: F.soft_margin_loss(T.zeros(2), T.zeros(3, 2))),
        ("soft_target_grad", lambda: F.soft_margin_loss(x, t.clone().requires_grad_())),
        ("cos_2d_target", lambda: F.cosine_embedding_loss(x, x, T.ones(2, 1))),
        ("cos_0d_target", lambda: F.cosine_embedding_loss(x, x, T.tensor(1.0))),
        ("cos_1d_target", lambda: F.cosine_embedding_loss(T.ones(3), x, T.ones(2))),
        ("cos_reduction", lambda: F.cosine_embedding_loss(x, x, T.ones(2), reduction="q")),
        ("triplet_dims", lambda: F.triplet_margin_loss(x, x, T.ones(3))),
        ("triplet_margin", lambda: F.triplet_margin_loss(x, x, x, margin=0)),
        ("triplet_reduction_first", lambda: F.triplet_margin_loss(x, x, x, margin=0, reduction="q")),
        ("triplet_module", lambda: T.nn.TripletMarginLoss(margin=-1.0)),
        ("poisson_reduction", lambda: F.poisson_nll_loss(x, t, reduction="q")),
        ("gauss_negative", lambda: F.gaussian_nll_loss(x, x, -1.0)),
        ("gauss_negative_tensor", lambda: F.gaussian_nll_loss(x, x, T.tensor([1.0, -1.0, 1.0]))),
        ("gauss_size", lambda: F.gaussian_nll_loss(x, x, T.ones(3, 2))),
        ("gauss_reduction", lambda: F.gaussian_nll_loss(x, x, 1.0, reduction="q")),
        ("multilabel_reduction", lambda: F.multilabel_soft_margin_loss(x, t, reduction="q")),
        ("multilabel_0d", lambda: F.multilabel_soft_margin_loss(T.tensor(1.0), T.tensor(0.0))),
        ("mm_p", lambda: F.multi_margin_loss(x, T.tensor([0, 1]), p=3)),
        ("mm_weight_dim", lambda: F.multi_margin_loss(x, T.tensor([0, 1]), weight=T.ones(1, 3))),
        ("mm_weight_size", lambda: F.multi_margin_loss(x, T.tensor([0, 1]), weight=T.ones(2))),
        ("mm_weight_dtype", lambda: F.multi_margin_loss(x, T.tensor([0, 1]), weight=T.ones(3, dtype=T.float64))),
        ("mm_weight_grad", lambda: F.multi_margin_loss(x, T.tensor([0, 1]), weight=T.ones(3, requires_grad=True))),
        ("mm_3d", lambda: F.multi_margin_loss(T.zeros(2, 3, 1), T.tensor([0, 1]))),
        ("mm_no_classes", lambda: F.multi_margin_loss(T.zeros(2, 0), T.tensor([0, 1]))),
        ("mm_target_size", lambda: F.multi_margin_loss(x, T.tensor([0, 1, 1]))),
        ("mm_target_2d", lambda: F.multi_margin_loss(x, T.tensor([[0], [1]]))),
        ("mm_out_of_range", lambda: F.multi_margin_loss(x, T.tensor([0, 3]))),
        ("mm_negative", lambda: F.multi_margin_loss(x, T.tensor([0, -1]))),
        ("mm_int", lambda: F.multi_margin_loss(T.zeros(2, 3, dtype=T.int64), T.tensor([0, 1]))),
        ("mm_float_target", lambda: F.multi_margin_loss(x, T.tensor([0.0, 1.0]))),
        ("mm_int32_target", lambda: F.multi_margin_loss(x, T.tensor([0, 1], dtype=T.int32))),
        ("mm_reduction", lambda: F.multi_margin_loss(x, T.tensor([0, 1]), reduction="bad")),
        ("mm_module_p", lambda: T.nn.MultiMarginLoss(p=3)),
        ("mm_module_weight", lambda: T.nn.MultiMarginLoss(weight=T.ones(2, 2))),
        ("pdist_shapes", lambda: F.pairwise_distance(T.ones(2, 3), T.ones(2))),
    ]:
        o.err(name, fn)


@case
def nnx_loss_dtypes_and_shapes(T, F, o):
    """Integer inputs where PyTorch accepts them, mixed float dtypes, broadcasting, 0-dim and 1-D inputs."""
    o["mrl_int"] = F.margin_ranking_loss(T.tensor([1, 2, 3]), T.tensor([0, 5, 1]), T.tensor([1, -1, 1]), margin=1)
    o["mrl_broadcast"] = F.margin_ranking_loss(T.tensor([1.0, 2.0, 3.0]), T.zeros(3), T.tensor([-1.0]))
    o["hinge_int_sum"] = F.hinge_embedding_loss(T.tensor([1, 2, 3]), T.tensor([1, -1, -1]), margin=2.5,
                                                reduction="sum")
    o["hinge_broadcast"] = F.hinge_embedding_loss(T.tensor([0.3, 2.0, 3.0]), T.tensor([-1.0]))
    o["hinge_broadcast_input"] = F.hinge_embedding_loss(T.tensor([0.3]), T.tensor([-1.0, 1.0]))
    o["hinge_target_0_2"] = F.hinge_embedding_loss(T.tensor([0.3, 2.0]), T.tensor([0.0, 2.0]), reduction="none")
    o["soft_int_target"] = F.soft_margin_loss(T.tensor([1.0, 2.0]), T.tensor([1, -1]))
    o["soft_f64_target"] = F.soft_margin_loss(T.tensor([1.0, 2.0]), T.tensor([1.0, -1.0], dtype=T.float64))
    o["soft_f64_input"] = F.soft_margin_loss(T.tensor([1.0, 2.0], dtype=T.float64), T.tensor([1.0, -1.0]))
    o["soft_broadcast"] = F.soft_margin_loss(T.tensor([[1.0, 2.0]]), T.tensor([1.0, -1.0]), reduction="none")
    o["soft_empty"] = F.soft_margin_loss(T.zeros(0), T.zeros(0))
    big = T.tensor([-100.0, 100.0, 50.0], requires_grad=True)
    y = F.soft_margin_loss(big, T.tensor([1.0, 1.0, -1.0]), reduction="none")
    o["soft_big"] = y
    y.sum().backward()
    o["soft_big.grad"] = big.grad
    o["cos_int"] = F.cosine_embedding_loss(T.tensor([[1, 2, 3]]), T.tensor([[1, 0, 1]]), T.tensor([1]))
    o["cos_0d_target"] = F.cosine_embedding_loss(T.tensor([1.0, 2.0, 3.0]), T.tensor([1.0, 0.0, 1.0]),
                                                 T.tensor(-1), margin=0.2)
    o["cos_target_0"] = F.cosine_embedding_loss(T.tensor([[1.0, 2, 3]]), T.tensor([[1.0, 0, 1]]), T.tensor([0]))
    o["cos_zero_vector"] = F.cosine_embedding_loss(T.zeros(1, 3), T.ones(1, 3), T.tensor([1]))
    o["triplet_1d"] = F.triplet_margin_loss(T.tensor([1.0, 2.0]), T.tensor([0.0, 2.0]), T.tensor([3.0, 1.0]))
    o["poisson_int"] = F.poisson_nll_loss(T.tensor([1, 2]), T.tensor([1, 3]))
    o["poisson_broadcast"] = F.poisson_nll_loss(T.tensor([1.0, 2.0]), T.tensor([1.0]), reduction="none")
    o["poisson_full_small_targets"] = F.poisson_nll_loss(T.tensor([1.0, 2.0, 0.5]), T.tensor([0.0, 1.0, 3.0]),
                                                         full=True, reduction="none")
    o["gauss_float_var"] = F.gaussian_nll_loss(T.ones(2, 3), T.zeros(2, 3), 0.5, full=True, reduction="none")
    o["gauss_var_per_sample_keepdim"] = F.gaussian_nll_loss(T.ones(2, 3), T.zeros(2, 3), T.full((2, 1), 2.0))
    o["gauss_var_tiny"] = F.gaussian_nll_loss(T.ones(2), T.zeros(2), T.tensor([0.0, 1e-9]), reduction="none")
    o["gauss_target_broadcast"] = F.gaussian_nll_loss(T.ones(2, 3), T.zeros(3), T.ones(2, 3))
    o["multilabel_1d"] = F.multilabel_soft_margin_loss(T.tensor([1.0, -1.0, 0.5]), T.tensor([1.0, 0.0, 1.0]),
                                                       reduction="none")
    o["mm_1d"] = F.multi_margin_loss(T.tensor([0.1, 0.5, 0.2]), T.tensor([1]), reduction="none")
    o["mm_1d_0d_target"] = F.multi_margin_loss(T.tensor([0.1, 0.5, 0.2]), T.tensor(1), reduction="none")
    o["mm_0d"] = F.multi_margin_loss(T.tensor(0.1), T.tensor(0), reduction="none")
    # (no samples, reduced: PyTorch returns a number it never wrote, whatever was in memory; minigrad 0)
    o["mm_no_samples_none"] = F.multi_margin_loss(T.zeros(0, 3), T.zeros(0, dtype=T.int64), reduction="none")
    o["mm_f64"] = F.multi_margin_loss(T.tensor([[0.1, 0.5, 0.2]], dtype=T.float64), T.tensor([2]), margin=2)
    o["pdist_0d"] = F.pairwise_distance(T.tensor(1.0), T.tensor(3.0))
    o["pdist_int"] = F.pairwise_distance(T.tensor([1, 2]), T.tensor([3, 5]))
    o["pdist_broadcast"] = F.pairwise_distance(T.ones(2, 3), T.tensor([1.0, 2.0, 3.0]))
    o["pdist_broadcast_rank"] = F.pairwise_distance(T.ones(3), T.ones(2, 1, 3))
    o["pdist_p1_keepdim"] = F.pairwise_distance(T.ones(2, 3), T.tensor([1.0, 2.0, 3.0]), p=1, keepdim=True)
    o["pdist_pinf"] = F.pairwise_distance(T.ones(2, 3), T.tensor([1.0, 2.0, 3.0]), p=float("inf"))
    o["pdist_p0"] = F.pairwise_distance(T.ones(2, 3), T.tensor([1.0, 2.0, 3.0]), p=0)
    o["pdist_f64"] = F.pairwise_distance(T.ones(2, 3, dtype=T.float64), T.tensor([1.0, 2.0, 3.0]), eps=0.0)


@case
def nnx_pairwise_distance_grads(T, F, o):
    for name, kw in [("p2", {}), ("p1", dict(p=1.0)), ("p3_keepdim", dict(p=3, keepdim=True)),
                     ("pinf", dict(p=float("inf")))]:
        x1, x2 = leaf(T, 32, 3, 4), leaf(T, 33, 4)
        fwd_bwd(T, o, F.pairwise_distance(x1, x2, **kw), name=name, **{f"{name}_x1": x1, f"{name}_x2": x2})
    x1, x2 = leaf(T, 34, 3, 4, dtype="float64"), leaf(T, 35, 3, 4, dtype="float64")
    g1, g2 = T.autograd.grad(T.nn.PairwiseDistance()(x1, x2).sum(), [x1, x2], create_graph=True)
    o.all(g1, "d1", depth=2)
    o.all(g2, "d2", depth=2)
    (g1 * g1).sum().backward()
    o.grads("2nd.", x1=x1, x2=x2)
    y = F.pairwise_distance(x1, x2)
    o["saved"] = [y.grad_fn._saved_p, y.grad_fn._saved_dim, y.grad_fn._saved_keepdim,
                  sorted(a for a in dir(y.grad_fn) if a.startswith("_saved"))]


@case
def nnx_cosine_similarity_module(T, F, o):
    x1, x2 = leaf(T, 36, 3, 4), leaf(T, 37, 3, 4)
    fwd_bwd(T, o, T.nn.CosineSimilarity()(x1, x2), x1=x1, x2=x2)
    o["dim0"] = T.nn.CosineSimilarity(dim=0, eps=1e-3)(x1, x2)
    o.repr("reprs", [T.nn.CosineSimilarity(), T.nn.PairwiseDistance(p=1.0, keepdim=True)])
    m = T.nn.PairwiseDistance(3.0, 1e-3, True)
    o["attrs"] = [m.norm, m.eps, m.keepdim, T.nn.CosineSimilarity(0, 0.5).dim, T.nn.CosineSimilarity(0, 0.5).eps]


@case
def nnx_kl_div_checks(T, F, o):
    o.err("int_input", lambda: F.kl_div(T.tensor([1, 2]), T.tensor([1.0, 2.0]), reduction="sum"))
    o.err("int_target", lambda: F.kl_div(T.tensor([1.0, 2.0]), T.tensor([1, 2]), reduction="sum"))
    o.err("reduction", lambda: F.kl_div(T.tensor([1.0, 2.0]), T.tensor([1.0, 2.0]), reduction="q"))
    x, t = leaf(T, 38, 2, 3), leaf(T, 39, 2, 3)
    m = T.nn.KLDivLoss(reduction="batchmean", log_target=True)
    fwd_bwd(T, o, m(x, t), x=x, t=t)
    o.repr("repr", m)
    o["mean_warning"] = o.warns("warnings", lambda: T.nn.KLDivLoss()(x, t))


# ---------------------------------------------------------------------------------- loss modules
def _loss_modules(T):
    nn = T.nn
    return [nn.KLDivLoss(), nn.MarginRankingLoss(0.5), nn.HingeEmbeddingLoss(margin=2.0), nn.SoftMarginLoss(),
            nn.CosineEmbeddingLoss(0.1), nn.TripletMarginLoss(swap=True), nn.PoissonNLLLoss(False, True),
            nn.GaussianNLLLoss(full=True), nn.MultiLabelSoftMarginLoss(weight=T.ones(3)),
            nn.MultiMarginLoss(p=2, weight=T.ones(3))]


@case
def nnx_loss_modules(T, F, o):
    """The modules call the functions with their options; their printout, attributes and buffers."""
    o.repr("reprs", _loss_modules(T))
    o["attrs"] = [[m.reduction] + [getattr(m, a) for a in ("margin", "p", "eps", "swap", "log_input", "full",
                                                             "log_target") if hasattr(m, a)]
                  for m in _loss_modules(T)]
    o["buffers"] = [[n for n, _ in m.named_buffers()] for m in _loss_modules(T)]
    o["state_dict"] = [list(m.state_dict()) for m in _loss_modules(T)]
    nn = T.nn
    a, b, c = const(T, 40, 2, 3), const(T, 41, 2, 3), const(T, 42, 2, 3)
    pm = _pm1(T, 43, 2)
    o["values"] = [
        nn.MarginRankingLoss(0.5, reduction="sum")(a[0], b[0], _pm1(T, 44, 3)),
        nn.HingeEmbeddingLoss(2.0)(a, _pm1(T, 45, 2, 3)),
        nn.SoftMarginLoss(reduction="none")(a, _pm1(T, 46, 2, 3)),
        nn.CosineEmbeddingLoss(0.1)(a, b, pm),
        nn.TripletMarginLoss(swap=True, p=1)(a, b, c),
        nn.PoissonNLLLoss(False, True)(a.abs(), b.abs() * 3),
        nn.GaussianNLLLoss(full=True)(a, b, c.abs()),
        nn.MultiLabelSoftMarginLoss(weight=T.tensor([1.0, 2.0, 0.5]))(a, (b > 0).float()),
        nn.MultiMarginLoss(p=2, margin=0.5, weight=T.tensor([1.0, 2.0, 0.5]))(a, T.tensor([2, 0])),
        nn.KLDivLoss(reduction="sum")(a.log_softmax(1), b.softmax(1)),
    ]


@case
def nnx_loss_legacy_arguments(T, F, o):
    """``size_average``/``reduce``: the reduction they stand for, with PyTorch's warning."""
    nn = T.nn
    a, b = const(T, 47, 2, 3), const(T, 48, 2, 3)
    t = _pm1(T, 49, 2, 3)
    for name, make in [("mrl", lambda: nn.MarginRankingLoss(size_average=False)),
                       ("hinge", lambda: nn.HingeEmbeddingLoss(reduce=False)),
                       ("soft", lambda: nn.SoftMarginLoss(size_average=True, reduce=True)),
                       ("triplet", lambda: nn.TripletMarginLoss(reduce=False)),
                       ("poisson", lambda: nn.PoissonNLLLoss(size_average=False)),
                       ("multilabel", lambda: nn.MultiLabelSoftMarginLoss(reduce=False)),
                       ("mm", lambda: nn.MultiMarginLoss(size_average=False)),
                       ("kl", lambda: nn.KLDivLoss(reduce=False))]:
        m = o.warns(f"{name}.warnings", make)
        o[f"{name}.reduction"] = m.reduction
    fns = [("mrl", lambda **k: F.margin_ranking_loss(a[0], b[0], t[0], **k)),
           ("hinge", lambda **k: F.hinge_embedding_loss(a, t, **k)),
           ("soft", lambda **k: F.soft_margin_loss(a, t, **k)),
           ("cos", lambda **k: F.cosine_embedding_loss(a, b, t[:, 0], **k)),
           ("triplet", lambda **k: F.triplet_margin_loss(a, b, t, **k)),
           ("poisson", lambda **k: F.poisson_nll_loss(a, b.abs(), **k)),
           ("multilabel", lambda **k: F.multilabel_soft_margin_loss(a, (b > 0).float(), **k)),
           ("mm", lambda **k: F.multi_margin_loss(a, T.tensor([0, 2]), **k))]
    for name, fn in fns:
        o[f"F.{name}.sum"] = o.warns(f"F.{name}.sum.warnings", lambda: fn(size_average=False))
        o[f"F.{name}.none"] = o.warns(f"F.{name}.none.warnings", lambda: fn(reduce=False))


# ---------------------------------------------------------------------------------- containers
def _fixed(T, module):
    """``module`` with its parameters set to fixed numbers (minigrad's random ones differ from PyTorch's)."""
    with T.no_grad():
        for i, p in enumerate(module.parameters()):
            p.copy_(T.tensor(arr(60 + i, *p.shape).tolist()))
    return module


def _net(T):
    nn = T.nn

    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.ps = nn.ParameterList([T.zeros(2), nn.Parameter(T.ones(3))])
            self.pd = nn.ParameterDict({"b": T.zeros(1), "a": T.ones(2)})  # (a plain dict: sorted keys)
            self.md = nn.ModuleDict([("z", nn.Linear(2, 2)), ("y", nn.ReLU())])
            self.head = nn.Linear(2, 1)

    return _fixed(T, Net())


@case
def nnx_containers_registration(T, F, o):
    net = _net(T)
    o["state_dict"] = list(net.state_dict())
    o["named_parameters"] = [n for n, _ in net.named_parameters()]
    o["named_modules"] = [n for n, _ in net.named_modules()]
    o["types"] = [type(p).__name__ for p in net.parameters()]
    o.repr("repr", net)
    o["get_parameter"] = net.get_parameter("pd.a")
    o["get_parameter_list"] = net.get_parameter("ps.1")
    o.err("get_parameter_missing", lambda: net.get_parameter("md.z.nothing"))
    o.err("get_parameter_module", lambda: net.get_parameter("md.z"))
    o.err("get_parameter_path", lambda: net.get_parameter("mx.weight"))
    net.register_buffer("scale", T.tensor([2.0]))
    o["get_buffer"] = net.get_buffer("scale")
    o.err("get_buffer_param", lambda: net.get_buffer("head.weight"))
    o.err("get_buffer_missing", lambda: net.get_buffer("head.nope"))
    o.err("set_empty", lambda: net.set_submodule("", T.nn.ReLU()))
    o.err("set_not_module", lambda: net.set_submodule("head", 3))
    o.err("set_strict_missing", lambda: net.set_submodule("md.x", T.nn.ReLU(), strict=True))
    o.err("set_over_parameter", lambda: net.set_submodule("head.weight", T.nn.ReLU()))
    o.err("set_bad_parent", lambda: net.set_submodule("nope.x", T.nn.ReLU()))
    net.set_submodule("md.z", T.nn.Tanh(), strict=True)
    net.set_submodule("md.new", T.nn.Sigmoid())
    net.set_submodule("extra", T.nn.Identity())
    o.repr("after_set", net)
    # training the container's parameters: they are what an optimizer gets
    x = T.tensor([[1.0, -2.0]])
    y = (net.head(net.md["y"](x)) * net.pd["a"]).sum() + net.ps[0].sum() * 2
    y.backward()
    o.grads("", a=net.pd["a"], ps0=net.ps[0], w=net.head.weight)


@case
def nnx_parameter_list(T, F, o):
    nn = T.nn
    w = T.tensor([[1.0, 2.0], [3.0, 4.0]])
    pl = nn.ParameterList([w, nn.Parameter(T.zeros(3)), "hello", T.tensor(1.0, dtype=T.float64)])
    o.repr("repr", pl)
    o["types"] = [type(p).__name__ for p in pl]
    o["names"] = [n for n, _ in pl.named_parameters()]
    w.add_(10)  # (the Parameter shares the tensor's numbers)
    o["shares_numbers"] = [pl[0], pl[0].requires_grad, pl[0].is_leaf]
    o["len"] = len(pl)
    o["last"] = pl[-1]
    o.err("out_of_range", lambda: pl[4])
    o.err("negative_out_of_range", lambda: pl[-5])
    o.err("str_index", lambda: pl["a"])
    o.repr("slice", pl[1:3])
    o.repr("slice_step", pl[::-2])
    o.err("extend_tensor", lambda: pl.extend(T.zeros(2)))
    o.err("extend_int", lambda: pl.extend(3))
    pl[2] = T.ones(1)
    o.repr("after_set", pl)
    o.err("set_object_over_parameter", lambda: pl.__setitem__(0, 5))
    o.err("set_out_of_range", lambda: pl.__setitem__(9, T.ones(1)))
    o.err("call", lambda: pl(1))
    pl.append(T.ones(2, 2)).extend([T.zeros(1)])
    pl += [nn.Parameter(T.ones(5))]
    o["after_append"] = [n for n, _ in pl.named_parameters()]
    o["dir_has_digits"] = [k for k in dir(pl) if k[0].isdigit()]
    o.repr("one_line", nn.ParameterList([T.zeros(2)]))
    o.repr("empty", nn.ParameterList())
    o["state_dict"] = list(pl.state_dict())


@case
def nnx_parameter_dict(T, F, o):
    nn = T.nn
    from collections import OrderedDict
    pd = nn.ParameterDict(OrderedDict([("b", T.zeros(1)), ("a", nn.Parameter(T.ones(2, 3))), ("o", 3)]))
    o.repr("repr", pd)
    o["keys"] = list(pd.keys())
    o["items"] = [(k, type(v).__name__) for k, v in pd.items()]
    o["values"] = [type(v).__name__ for v in pd.values()]
    o["iter_len"] = [list(pd), len(pd), "a" in pd, "q" in pd, list(reversed(pd))]
    o["sorted_plain_dict"] = list(nn.ParameterDict({"b": T.zeros(1), "a": T.ones(1)}))
    o["pairs_keep_order"] = list(nn.ParameterDict([("b", T.zeros(1)), ("a", T.ones(1))]))
    o.err("missing", lambda: pd["zz"])
    o.err("int_key", lambda: pd[1])
    bad = nn.ParameterDict()  # (a refused key stays in PyTorch's list of keys: not in ``pd``)
    o.err("dotted_key", lambda: bad.__setitem__("a.b", T.zeros(1)))
    o.err("int_key_set", lambda: bad.__setitem__(1, T.zeros(1)))
    o["bad_keys"] = list(bad.keys())
    o["get"] = [pd.get("zz", 5), pd.get("o"), pd.get("zz")]
    o["setdefault"] = [type(pd.setdefault("n", T.zeros(4))).__name__, list(pd)]
    o["setdefault_existing"] = pd.setdefault("n", T.ones(1))
    del pd["n"]
    o["after_del"] = [list(pd), [n for n, _ in pd.named_parameters()]]
    o.err("del_missing", lambda: pd.__delitem__("n"))
    o.err("update_int", lambda: pd.update(3))
    o.err("update_element", lambda: pd.update([3]))
    o.err("update_length", lambda: pd.update([("a", 1, 2)]))
    merged = pd | nn.ParameterDict({"x": T.zeros(1)})
    o["or"] = [list(merged), list(pd), merged["a"] is pd["a"]]
    pd |= {"y": T.ones(1)}
    o["ior"] = list(pd)
    o.repr("fromkeys", pd.fromkeys(["p", "q"], T.zeros(2)))
    o["copy"] = [list(pd.copy()), pd.copy()["a"] is pd["a"]]
    o["pop"] = [pd.pop("a").shape, list(pd)]
    o["popitem"] = [pd.popitem()[0], list(pd)]
    o.err("call", lambda: pd(1))
    pd.clear()
    o["clear"] = [len(pd), list(pd.named_parameters())]
    o.err("popitem_empty", lambda: pd.popitem())


@case
def nnx_module_dict(T, F, o):
    nn = T.nn
    md = nn.ModuleDict({"lin": nn.Linear(2, 3), "act": nn.ReLU()})
    o.repr("repr", md)
    o["keys"] = [list(md.keys()), [type(v).__name__ for v in md.values()], [k for k, _ in md.items()]]
    o["iter"] = [list(md), len(md), "lin" in md, "x" in md]
    o["state_dict"] = list(md.state_dict())
    o.err("missing", lambda: md["x"])
    o.err("set_not_module", lambda: md.__setitem__("x", 3))
    o.err("set_int_key", lambda: md.__setitem__(1, nn.ReLU()))
    o.err("set_dotted_key", lambda: md.__setitem__("a.b", nn.ReLU()))
    o.err("update_int", lambda: md.update(5))
    o.err("update_element", lambda: md.update([5]))
    o.err("update_length", lambda: md.update([("a",)]))
    md.update([("b", nn.Tanh()), ("a", nn.Sigmoid())])
    md.update(nn.ModuleDict({"lin": nn.Linear(3, 1)}))
    o["after_update"] = [list(md), md["lin"].out_features]
    o["pop"] = [type(md.pop("b")).__name__, list(md)]
    del md["a"]
    o["after_del"] = list(md)
    o.err("del_missing", lambda: md.__delitem__("a"))
    o.err("forward", lambda: md(1))
    x = leaf(T, 50, 2, 2)
    fwd_bwd(T, o, _fixed(T, nn.ModuleDict({"f": nn.Linear(2, 2)}))["f"](x), x=x)
    md.clear()
    o["clear"] = [len(md), list(md.state_dict())]


@case
def nnx_unflatten(T, F, o):
    nn = T.nn
    x = leaf(T, 51, 2, 12)
    y = nn.Unflatten(1, (3, 4))(x)
    fwd_bwd(T, o, y, x=x)
    o["stride"] = y.stride()
    o["minus_one"] = nn.Unflatten(-1, [2, -1])(T.zeros(2, 12)).shape
    o["round_trip"] = nn.Flatten()(nn.Unflatten(1, (3, 2, 2))(T.arange(24).reshape(2, 12))).tolist()
    o.repr("reprs", [nn.Unflatten(1, (3, 4)), nn.Unflatten(-1, [2, -1]), nn.Flatten(0)])
    o.err("not_tuple", lambda: nn.Unflatten(1, 3))
    o.err("float_size", lambda: nn.Unflatten(1, (3, 4.0)))
    o.err("wrong_size", lambda: nn.Unflatten(1, (5, 4))(T.zeros(2, 12)))


@case
def nnx_module_list_edits(T, F, o):
    nn = T.nn
    ml = nn.ModuleList([nn.ReLU(), nn.Tanh(), nn.Sigmoid(), nn.Identity()])
    ml.insert(1, nn.Linear(2, 2))
    o["insert"] = [type(m).__name__ for m in ml]
    o["pop"] = [type(ml.pop(0)).__name__, type(ml.pop(-1)).__name__, [type(m).__name__ for m in ml]]
    del ml[0]
    o["del"] = [list(ml._modules), [type(m).__name__ for m in ml]]
    ml.extend([nn.ReLU(), nn.ReLU(), nn.Tanh()])
    del ml[::2]
    o["del_slice"] = [list(ml._modules), [type(m).__name__ for m in ml]]
    both = ml + nn.ModuleList([nn.GELU()])
    o["add"] = [type(both).__name__, list(both._modules), [type(m).__name__ for m in both]]
    o.repr("repr", both)
    o["dir_digits"] = [k for k in dir(both) if k[0].isdigit()]
    o.err("extend_int", lambda: ml.extend(3))
    o.err("pop_out_of_range", lambda: ml.pop(10))
    o.err("del_out_of_range", lambda: ml.__delitem__(-10))


@case
def nnx_sequential_edits(T, F, o):
    nn = T.nn

    def names(seq):
        return [list(seq._modules), [type(m).__name__ for m in seq]]

    seq = nn.Sequential(nn.ReLU(), nn.Tanh())
    seq.insert(0, nn.Sigmoid()).insert(-1, nn.Identity()).insert(4, nn.GELU())
    o["insert"] = names(seq)
    o.err("insert_out_of_range", lambda: seq.insert(9, nn.ReLU()))
    o["insert_not_module"] = _error_type(lambda: seq.insert(0, 3))
    o["pop"] = [type(seq.pop(1)).__name__, type(seq.pop(-1)).__name__] + names(seq)
    seq.extend([nn.ELU()])
    o["extend"] = names(seq)
    lin = nn.Linear(2, 2)
    both = nn.Sequential(lin) + nn.Sequential(nn.ReLU())
    o["add"] = names(both) + [both[0] is lin]
    both += nn.Sequential(nn.Tanh())
    o["iadd"] = names(both)
    tripled = nn.Sequential(lin, nn.ReLU()) * 3
    o["mul"] = names(tripled) + [tripled[2] is lin, [n for n, _ in tripled.named_parameters()],
                                 list(tripled.state_dict())]
    o["rmul"] = names(2 * nn.Sequential(nn.ReLU()))
    again = nn.Sequential(lin, nn.Tanh())
    again *= 2
    o["imul"] = names(again)
    o.repr("repr", tripled)
    o["dir_digits"] = [k for k in dir(tripled) if k[0].isdigit()]
    o["bad_operands"] = [_error_type(lambda: both + [nn.ReLU()]), _error_type(lambda: both.__iadd__([nn.ReLU()])),
                         _error_type(lambda: both * 2.0), _error_type(lambda: both * 0),
                         _error_type(lambda: both.__imul__(-1))]


def _error_type(fn):
    """The type of the exception ``fn()`` raises: for messages that name a class by its module path
    (``torch.nn.modules.container.Sequential``, ``minigrad.nn.container.Sequential``), not compared."""
    try:
        fn()
    except Exception as e:  # noqa: BLE001
        return type(e).__name__
    return None


@case
def nnx_buffer(T, F, o):
    nn = T.nn

    class M(nn.Module):
        def __init__(self):
            super().__init__()
            self.a = nn.Buffer(T.ones(2))
            self.b = nn.Buffer(T.zeros(1), persistent=False)
            self.c = T.ones(3)

    m = M()
    o["state_dict"] = list(m.state_dict())
    o["named_buffers"] = [n for n, _ in m.named_buffers()]
    o["flags"] = [isinstance(m.a, nn.Buffer), type(m.a).__name__, isinstance(T.ones(1), nn.Buffer),
                  isinstance(nn.Parameter(T.ones(1)), nn.Buffer), m.a.persistent, m.b.persistent]
    src = T.ones(2, requires_grad=True)
    b = nn.Buffer(src * 2)
    o["detached"] = [b.requires_grad, b.is_leaf, b.grad_fn is None, type(b).__name__]
    o["empty"] = nn.Buffer()
    m.b = T.full((4,), 2.0)  # a plain tensor into a buffer's name: still a buffer, still not persistent
    o["reassigned"] = [list(m.state_dict()), [n for n, _ in m.named_buffers()], m.b]
    o.err("over_attribute", lambda: setattr(m, "c", nn.Buffer(T.ones(1))))
    o.err("not_tensor", lambda: setattr(m, "a", 3))

    class Early(nn.Module):
        def __init__(self):
            self.x = nn.Buffer(T.ones(1))

    o.err("before_init", Early)
    m.a = None
    o["none"] = [list(m.state_dict()), list(m._buffers)]
