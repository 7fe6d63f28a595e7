"""Parity cases of session 10's small faithful gaps (issue 39, item 6 and after; brief s10/f1): a loss's saved target
changed in place before backward, iterating a tensor (``UnbindBackward0``), the ``_saved_*`` attributes of the shape
ops, ``histc`` with an infinite range, cells with empty weights, ``linspace`` bit for bit."""
from . import case
from .cases import const, leaf


def saved(node):
    """A node's ``_saved_*`` attributes, by name (``dir`` lists them as PyTorch generates them per node class)."""
    return {name: getattr(node, name) for name in dir(node) if name.startswith("_saved_")}


# ---------------------------------------------------------------------------------- losses: the saved target
def _loss_case(kind, create_graph):
    def c(T, F, o):
        x = leaf(T, 1, 3, 4, dtype="float64")
        if kind in ("nll", "cross_entropy", "multi_margin"):
            target = T.tensor([0, 3, 1])
        elif kind == "nll2d":
            x = leaf(T, 1, 2, 3, 5, dtype="float64")
            target = T.tensor([[0, 2, 1, 1, 0], [2, 2, 0, 1, 1]])
        else:
            target = const(T, 2, 3, 4, dtype="float64").sign()
        weight = T.tensor([1.0, 0.5, 2.0, 1.5], dtype=T.float64) if kind in ("nll", "multi_margin") else None
        if kind in ("nll", "nll2d"):
            loss = F.nll_loss(x.log_softmax(1), target, weight=weight, ignore_index=1 if kind == "nll" else -100)
        elif kind == "cross_entropy":
            loss = F.cross_entropy(x, target, reduction="sum")
        elif kind == "multi_margin":
            loss = F.multi_margin_loss(x, target, p=2, margin=0.5, weight=weight)
        else:
            loss = F.soft_margin_loss(x, target, reduction="none").sum()
        node = loss.grad_fn if kind != "soft_margin" else loss.grad_fn.next_functions[0][0]
        o["node"], o["saved"], o["edges"] = node, saved(node), [e[0] for e in node.next_functions]
        if create_graph and kind != "multi_margin":  # (its backward has no derivative in PyTorch)
            g, = T.autograd.grad(loss, x, create_graph=True)
            o["g"], o["g_node"] = g, g.grad_fn
            o["g_saved"] = saved(_loss_backward_node(g.grad_fn))
            target.add_(0)
            o.err("double", lambda: T.autograd.grad(g.sum(), x, allow_unused=True))
        else:
            target.add_(0)
            o.err("backward", loss.backward)
    return c


def _loss_backward_node(node):
    """The loss's backward node (``NllLossBackwardBackward0`` ...) in a gradient's graph: the node itself, or the
    first one it leads to (under log_softmax's backward)."""
    if "LossBackwardBackward" in type(node).__name__ or "Loss2DBackwardBackward" in type(node).__name__:
        return node
    return next(_loss_backward_node(n) for n, _ in node.next_functions if n is not None)


for _kind in ("nll", "nll2d", "cross_entropy", "soft_margin", "multi_margin"):
    for _cg in (False, True):
        case(_loss_case(_kind, _cg), name=f"s10f1_loss_saved_target_{_kind}{'_create_graph' if _cg else ''}")
