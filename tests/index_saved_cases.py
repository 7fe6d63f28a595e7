"""The index ops of tests/test_index_saved.py, written once for minigrad and for torch (``T`` is either module).

Each case makes ``y`` from ``x`` (4x3, requires grad), a source ``s`` (2x3, requires grad) and the index
tensors ``idx`` ([0, 2]), ``gi`` ([[0], [1], [2], [0]]) and ``m`` ([[True, False, True]]); it returns ``y`` and
the name of the index tensor the node saved (which the test then changes in place)."""


def make_inputs(T):
    x = T.ones(4, 3, requires_grad=True)
    s = T.ones(2, 3, requires_grad=True)
    idx = T.tensor([0, 2])
    gi = T.tensor([[0], [1], [2], [0]])
    m = T.tensor([[True, False, True]])
    return x, s, {"idx": idx, "gi": gi, "m": m}


def _setitem(x, key, value):
    z = x.clone()
    z[key] = value
    return z


CASES = {
    "x[idx]": lambda T, x, s, i: (x[i["idx"]], "idx"),
    "x[:, idx]": lambda T, x, s, i: (x[:, i["idx"]], "idx"),
    "x[..., idx]": lambda T, x, s, i: (x[..., i["idx"]], "idx"),
    "x[None, idx]": lambda T, x, s, i: (x[None, i["idx"]], "idx"),
    "x[idx, 1:]": lambda T, x, s, i: (x[i["idx"], 1:], "idx"),
    "x[idx, idx]": lambda T, x, s, i: (x[i["idx"], i["idx"]], "idx"),
    "x[mask]": lambda T, x, s, i: (x[i["m"].expand(4, 3)], "m"),
    "x[:, mask[0]]": lambda T, x, s, i: (x[:, i["m"][0]], "m"),
    "x[idx] = 1.0": lambda T, x, s, i: (_setitem(x, i["idx"], 1.0), "idx"),
    "x[:, idx] = s": lambda T, x, s, i: (_setitem(x, (slice(None), i["idx"]), s[:, :2].repeat(2, 1)), "idx"),
    "index_put": lambda T, x, s, i: (x.index_put((i["idx"],), s), "idx"),
    "index_put accumulate": lambda T, x, s, i: (x.index_put((i["idx"], i["idx"]), s[0, :2], accumulate=True), "idx"),
    "index_select": lambda T, x, s, i: (x.index_select(0, i["idx"]), "idx"),
    "index_select dim 1": lambda T, x, s, i: (T.index_select(x, 1, i["idx"]), "idx"),
    "gather": lambda T, x, s, i: (x.gather(1, i["gi"]), "gi"),
    "take_along_dim no dim": lambda T, x, s, i: (T.take_along_dim(x, i["idx"]), "idx"),
    "masked_select": lambda T, x, s, i: (x.masked_select(i["m"]), "m"),
    "masked_fill": lambda T, x, s, i: (x.masked_fill(i["m"], 2.0), "m"),
    "masked_fill tensor": lambda T, x, s, i: (x.masked_fill(i["m"], s[0, 0]), "m"),
    "masked_fill_": lambda T, x, s, i: (x.clone().masked_fill_(i["m"], 2.0), "m"),
    "masked_scatter": lambda T, x, s, i: (x.masked_scatter(i["m"], s.repeat(2, 2)), "m"),
    "take": lambda T, x, s, i: (x.take(i["idx"]), "idx"),
    "scatter": lambda T, x, s, i: (x.scatter(1, i["gi"], s[:, :1].repeat(2, 1)), "gi"),
    "scatter value": lambda T, x, s, i: (x.scatter(1, i["gi"], 2.0), "gi"),
    "scatter_": lambda T, x, s, i: (x.clone().scatter_(1, i["gi"], 2.0), "gi"),
    "scatter_add": lambda T, x, s, i: (x.scatter_add(1, i["gi"], s[:, :1].repeat(2, 1)), "gi"),
    "index_add": lambda T, x, s, i: (x.index_add(0, i["idx"], s, alpha=2), "idx"),
    "index_add_": lambda T, x, s, i: (x.clone().index_add_(0, i["idx"], s), "idx"),
    "index_fill": lambda T, x, s, i: (x.index_fill(1, i["idx"], 2.0), "idx"),
    "index_fill tensor": lambda T, x, s, i: (x.index_fill(1, i["idx"], s[0, 0]), "idx"),
    "index_copy": lambda T, x, s, i: (x.index_copy(0, i["idx"], s), "idx"),
    "put": lambda T, x, s, i: (x.put(i["idx"], s[0, :2]), "idx"),
    "put_ accumulate": lambda T, x, s, i: (x.clone().put_(i["idx"], s[0, :2], accumulate=True), "idx"),
    "scatter_reduce": lambda T, x, s, i: (x.scatter_reduce(1, i["gi"], s[:, :1].repeat(2, 1), "amax"), "gi"),
    "scatter_reduce_": lambda T, x, s, i: (x.clone().scatter_reduce_(1, i["gi"], s[:, :1].repeat(2, 1), "mean",
                                                                     include_self=False), "gi"),
    "index_reduce": lambda T, x, s, i: (x.index_reduce(0, i["idx"], s, "prod"), "idx"),
}

# the nodes whose index is saved only for the gradient of the source: without one, nothing is saved
NO_SOURCE_GRAD = {
    "scatter_add": lambda T, x, s, i: x.scatter_add(1, i["gi"], T.ones(4, 1)),
    "index_add": lambda T, x, s, i: x.index_add(0, i["idx"], T.ones(2, 3)),
    "index_copy": lambda T, x, s, i: x.index_copy(0, i["idx"], T.ones(2, 3)),
}


def shown(v):
    """A saved value as plain data: a tensor as (dtype, shape, values, requires_grad), a tuple item by item."""
    if isinstance(v, (tuple, list)):
        return [shown(i) for i in v]
    if hasattr(v, "tolist") and hasattr(v, "dtype"):
        return [str(v.dtype).split(".")[-1], list(v.shape), v.tolist(), bool(v.requires_grad)]
    return v


def saved_summary(node):
    """Every ``_saved_*`` of a node as plain data, and the names of its ``_raw_saved_*``."""
    names = [n for n in dir(node) if n.startswith("_saved_")]
    raw = [n for n in dir(node) if n.startswith("_raw_saved_")]
    return {"saved": {n: shown(getattr(node, n)) for n in names}, "raw": raw}
