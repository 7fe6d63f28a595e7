"""PyTorch-parity cases (see ``cases.py`` for the conventions and the input helpers)."""
import math
import warnings

import numpy as np  # noqa: F401

from . import case  # noqa: F401
from .cases import arr, const, leaf  # noqa: F401


# ---------------------------------------------------------------------------------- helpers for this file
def _layout(o, key, t, base=None):
    """Shape facts of a result: strides, and (with ``base``) whether it is a view of it."""
    o.raw(f"{key}.stride", list(t.stride()))
    if base is not None:
        o.raw(f"{key}.view", t._base is base)


def _fb(T, o, y, /, name="y", depth=3, **leaves):
    """``fwd_bwd`` with the leaves' gradients recorded under ``name.`` (so one case may backprop several times)."""
    o.all(y, name, depth)
    g = T.tensor(arr(99, *tuple(y.shape)).tolist(), dtype=y.dtype) if y.dim() else None
    y.backward(g)
    o.grads(f"{name}.", **leaves)


def _second_order(T, o, y, x, key="gg"):
    """A create_graph backward through ``y`` and the grad_fn of the gradient, then the second derivative."""
    w = T.tensor(arr(98, *tuple(y.shape)).tolist(), dtype=y.dtype, requires_grad=True)
    (g,) = T.autograd.grad(y, x, w, create_graph=True)
    o.fn(f"{key}.grad_fn", g)
    (g * g).sum().backward()
    o.grads(f"{key}.", x=x, w=w)


# ---------------------------------------------------------------------------------- shape helpers
@case
def shp_broadcast_to(T, F, o):
    x = leaf(T, 1, 2, 1)
    y = x.broadcast_to((3, 2, 4))
    _layout(o, "y", y, x)
    _fb(T, o, y, x=x)
    o["f"] = T.broadcast_to(const(T, 2, 3), (2, 3))
    o.err("bad", lambda: x.broadcast_to((3, 3)))


@case
def shp_broadcast_shapes(T, F, o):
    o["a"] = T.broadcast_shapes((2, 1), (3,), (1, 1, 1))
    o["b"] = T.broadcast_shapes(5, (2, 1))
    o["c"] = T.broadcast_shapes()
    o["d"] = T.broadcast_shapes((0, 1), (3,))
    o.err("mismatch", lambda: T.broadcast_shapes((2, 3), (4, 3)))
    o.err("int", lambda: T.broadcast_shapes((2, 1), (3,), 5))
    o.err("neg", lambda: T.broadcast_shapes((2, -1)))


@case
def shp_ravel(T, F, o):
    x = leaf(T, 3, 2, 3)
    y = x.ravel()
    _layout(o, "y", y, x)
    _fb(T, o, y, x=x)
    t = x.t()
    z = T.ravel(t)
    o.raw("z.view_of_t", z._base is t)
    o.all(z, "z")
    o["int"] = T.ravel(T.tensor([[1, 2], [3, 4]]))


@case
def shp_stacks(T, F, o):
    a, b = leaf(T, 4, 3), leaf(T, 5, 3)
    m = leaf(T, 6, 2, 3)
    s = leaf(T, 7)
    o.all(T.vstack([a, b, m]), "vstack")
    o.all(T.row_stack((a, m)), "row_stack")
    o.all(T.hstack([a, b]), "hstack1")
    o.all(T.hstack([m, m]), "hstack2")
    o.all(T.dstack([a, b]), "dstack1")
    o.all(T.dstack([m, m]), "dstack2")
    o.all(T.column_stack([a, m.t(), s.expand(3)]), "column_stack")
    y = T.vstack([a, m]) * T.hstack([a, a]).sum()
    y.sum().backward()
    o.grads("", a=a, m=m)
    o["promote"] = T.vstack([T.tensor([1, 2]), T.tensor([0.5, 1.5], dtype=T.float64)])
    o["ints"] = T.dstack([T.tensor([1, 2]), T.tensor([3, 4])])
    for name in ("vstack", "hstack", "dstack", "column_stack"):
        o.err(f"{name}.empty", lambda name=name: getattr(T, name)([]))
    o.err("vstack.bad", lambda: T.vstack([m, a[:2]]))
    o.err("hstack.bad", lambda: T.hstack([m, a]))


@case
def shp_atleast(T, F, o):
    s, v, m = leaf(T, 8), leaf(T, 9, 3), leaf(T, 10, 2, 3)
    for fn in ("atleast_1d", "atleast_2d", "atleast_3d"):
        for name, t in (("s", s), ("v", v), ("m", m)):
            y = getattr(T, fn)(t)
            o.all(y, f"{fn}.{name}")
            _layout(o, f"{fn}.{name}", y)
            o.raw(f"{fn}.{name}.same", y is t)
    pair = T.atleast_2d(s, v)
    o.raw("pair.type", type(pair).__name__)
    o["pair"] = list(pair)
    o["list"] = list(T.atleast_3d([s, m]))
    (T.atleast_3d(v) * T.atleast_3d(s)).sum().backward()
    o.grads("", s=s, v=v)


@case
def shp_fliplr_flipud(T, F, o):
    x = leaf(T, 11, 2, 3)
    _fb(T, o, x.fliplr() * 2, x=x)
    y = T.flipud(x)
    o.all(y, "ud")
    _layout(o, "ud", y)
    o["ud3"] = T.flipud(const(T, 12, 2, 2, 2, dtype="float64"))
    o["lr_int"] = T.fliplr(T.tensor([[1, 2, 3]]))
    o.err("lr1", lambda: const(T, 1, 3).fliplr())
    o.err("ud0", lambda: T.flipud(const(T, 1)))


@case
def shp_rot90(T, F, o):
    x = leaf(T, 13, 2, 3)
    for k in (-1, 0, 1, 2, 3, 5):
        y = x.rot90(k)
        o.all(y, f"k{k}")
        _layout(o, f"k{k}", y)
    z = T.rot90(leaf(T, 14, 2, 3, 4, dtype="float64"), 1, [2, 0])
    o.all(z, "z")
    _layout(o, "z", z)
    _fb(T, o, T.rot90(x, 1, (1, 0)), name="y", x=x)
    o.err("1d", lambda: const(T, 1, 3).rot90())
    o.err("dims", lambda: x.rot90(1, [0]))
    o.err("same", lambda: x.rot90(1, [1, -1]))
    o.err("range", lambda: x.rot90(1, [0, 2]))


@case
def shp_rot90_second_order(T, F, o):
    x = leaf(T, 15, 3, 2, dtype="float64")
    _second_order(T, o, x.rot90() ** 2, x)


@case
def shp_tensor_split(T, F, o):
    x = leaf(T, 16, 3, 7)
    parts = x.tensor_split(3, dim=1)
    for i, p in enumerate(parts):
        o.all(p, f"p{i}")
        _layout(o, f"p{i}", p, x)
    o["idx"] = list(T.tensor_split(x, [1, 4], 1))
    o["idx_past_end"] = list(x.tensor_split([2, 1, 9], 1))
    o["tensor_idx"] = list(x.tensor_split(T.tensor([1, 2]), 0))
    o["tensor_sections"] = list(x.tensor_split(T.tensor(2), 1))
    o["more_than_size"] = list(x.tensor_split(5))
    (parts[0].sum() * 2 + parts[2].sum()).backward()
    o.grads("", x=x)
    o.err("zero", lambda: x.tensor_split(0))
    o.err("scalar", lambda: const(T, 1).tensor_split(2))
    o.err("float_idx", lambda: x.tensor_split(T.tensor([1.0]), 1))


@case
def shp_hvdsplit(T, F, o):
    x = leaf(T, 17, 4, 6, 2)
    o.all(list(x.hsplit(3))[1], "h1")
    o["h"] = list(T.hsplit(x, [1, 4]))
    o["v"] = list(x.vsplit(2))
    o["d"] = list(T.dsplit(x, 2))
    o["h_1d"] = list(const(T, 1, 6).hsplit(3))
    y = x.vsplit([1])[1]
    _layout(o, "v1", y, x)
    (y * 3).sum().backward()
    o.grads("", x=x)
    o.err("h0", lambda: const(T, 1).hsplit(1))
    o.err("hdiv", lambda: x.hsplit(4))
    o.err("v1d", lambda: const(T, 1, 4).vsplit(2))
    o.err("vdiv", lambda: x.vsplit(3))
    o.err("d2d", lambda: const(T, 1, 2, 2).dsplit(1))


@case
def shp_split_with_sizes(T, F, o):
    x = leaf(T, 18, 2, 5)
    a, b = x.split_with_sizes([2, 3], dim=1)
    o.all(a, "a")
    o.all(b, "b")
    _layout(o, "b", b, x)
    (a.sum() + (b * b).sum()).backward()
    o.grads("", x=x)
    o["f"] = list(T.split_with_sizes(const(T, 3, 4), [1, 3]))
    o.err("sum", lambda: x.split_with_sizes([1, 1], 1))


@case
def shp_diag_embed(T, F, o):
    x = leaf(T, 19, 2, 3)
    y = x.diag_embed()
    _layout(o, "y", y)
    _fb(T, o, y, x=x)
    z = T.diag_embed(x, 1, 0, 2)
    o.all(z, "z")
    _layout(o, "z", z)
    o["neg"] = T.diag_embed(const(T, 2, 3, dtype="float64"), -2)
    o["int"] = T.tensor([1, 2]).diag_embed()
    o["diag_still"] = T.diag(const(T, 3, 3), 1)
    o.err("same", lambda: x.diag_embed(0, 1, 1))
    o.err("range", lambda: x.diag_embed(0, 0, 3))


@case
def shp_diag_embed_second_order(T, F, o):
    x = leaf(T, 20, 2, 2, dtype="float64")
    _second_order(T, o, T.diag_embed(x ** 2, 1), x)


@case
def shp_take_along_dim(T, F, o):
    x = leaf(T, 21, 2, 3)
    i = T.tensor([[0, 2, 2], [1, 0, 0]])
    _fb(T, o, x.take_along_dim(i, 1), x=x)
    o.all(T.take_along_dim(x, T.tensor([[0], [2]]), dim=1), "col", depth=4)
    o.all(T.take_along_dim(x, T.tensor([5, 0, 3])), "flat", depth=4)
    o.all(x.take_along_dim(T.tensor([[1]]), 0), "bcast", depth=4)
    o.val("no_bcast", lambda: x.take_along_dim(T.tensor([[1, 0]]), 0))
    o["sorted"] = T.take_along_dim(x, x.argsort(1), 1)
    o.err("float", lambda: x.take_along_dim(T.tensor([[0.0]]), 1))
    o.err("ndim", lambda: x.take_along_dim(T.tensor([0]), 1))


@case
def shp_block_diag(T, F, o):
    a = leaf(T, 22, 2, 2, dtype="float64")
    v = leaf(T, 23, 3)
    s = leaf(T, 24)
    _fb(T, o, T.block_diag(a, v, s), a=a, v=v, s=s)
    o["ints"] = T.block_diag(T.tensor([[1, 2]]), T.tensor(3))
    o["none"] = T.block_diag()
    o["empty"] = T.block_diag(const(T, 1, 2, 0), const(T, 2, 1, 1))
    o.err("3d", lambda: T.block_diag(const(T, 1, 2, 2, 2)))


@case
def shp_block_diag_second_order(T, F, o):
    a = leaf(T, 25, 2, 3, dtype="float64")
    _second_order(T, o, T.block_diag(a ** 2, a), a)


@case
def shp_cartesian_prod(T, F, o):
    a, b = leaf(T, 26, 3), leaf(T, 27, 2)
    _fb(T, o, T.cartesian_prod(a, b), depth=4, a=a, b=b)
    o["three"] = T.cartesian_prod(T.tensor([1, 2]), T.tensor([3]), T.tensor([4, 5]))
    one = T.cartesian_prod(a)
    o.raw("one.same", one is a)
    o.err("none", lambda: T.cartesian_prod())
    o.err("2d", lambda: T.cartesian_prod(const(T, 1, 2, 2), a))


@case
def shp_tril_triu_indices(T, F, o):
    for args in ((3, 3), (3, 4, 1), (4, 3, -1), (3, 3, 5), (3, 3, -5), (0, 2)):
        o[f"tril{args}"] = T.tril_indices(*args)
        o[f"triu{args}"] = T.triu_indices(*args)
    o["dtype"] = T.tril_indices(2, 2, dtype=T.int32)
    o.err("neg_row", lambda: T.tril_indices(-1, 4))
    o.err("neg_col", lambda: T.triu_indices(2, -3))


@case
def shp_unravel_index(T, F, o):
    r = T.unravel_index(T.tensor([4, 1, 5]), (2, 3))
    o.raw("type", type(r).__name__)
    o["r"] = list(r)
    _layout(o, "r0", r[0])
    o["scalar"] = list(T.unravel_index(T.tensor(4), 6))
    o["wrap"] = list(T.unravel_index(T.tensor([[7, -1]]), (2, 3)))
    o["int32"] = list(T.unravel_index(T.tensor([3], dtype=T.int32), T.Size([2, 2])))
    o.err("float", lambda: T.unravel_index(T.tensor([1.0]), (2, 3)))
    o.err("bool", lambda: T.unravel_index(T.tensor([True]), (2, 3)))
    o.err("neg_shape", lambda: T.unravel_index(T.tensor(4), (-2, 3)))


@case
def shp_where_method(T, F, o):
    x = leaf(T, 28, 2, 3)
    b = leaf(T, 29, 3)
    _fb(T, o, x.where(x > 0, b), x=x, b=b)
    o["scalar"] = x.where(x < 0, 0.5)
    o["int"] = T.tensor([1, 2, 3]).where(T.tensor([True, False, True]), T.tensor(0))


# ---------------------------------------------------------------------------------- reductions and scans
def _with_nan(T, dtype="float32"):
    return T.tensor([[1.5, float("nan"), -0.5], [float("nan"), float("nan"), 2.0]], dtype=getattr(T, dtype),
                    requires_grad=True)


@case
def shp_nansum(T, F, o):
    x = _with_nan(T)
    _fb(T, o, x.nansum(), name="all", x=x)
    x2 = _with_nan(T, "float64")
    _fb(T, o, T.nansum(x2, 1, keepdim=True), name="dim", x2=x2)
    o["dims"] = T.nansum(const(T, 1, 2, 3, 2), (0, 2))
    o["int"] = T.tensor([[1, 2], [3, 4]]).nansum(0)
    o["int32"] = T.tensor([1, 2], dtype=T.int32).nansum()
    o["bool"] = T.tensor([True, True, False]).nansum()
    o["dtype"] = const(T, 2, 3).nansum(dtype=T.float64)
    o["plain"] = const(T, 3, 2, 2).nansum(-1)
    o.err("range", lambda: x.nansum(2))


@case
def shp_nansum_second_order(T, F, o):
    x = leaf(T, 4, 2, 3, dtype="float64")
    _second_order(T, o, (x ** 3).nansum(1), x)


@case
def shp_nanmean(T, F, o):
    x = _with_nan(T)
    _fb(T, o, x.nanmean(), name="all", depth=4, x=x)
    x2 = _with_nan(T, "float64")
    _fb(T, o, T.nanmean(x2, 0), name="dim", x2=x2)
    o["keep"] = x.nanmean(1, keepdim=True)
    o["all_nan"] = T.tensor([float("nan")]).nanmean()
    o.err("int", lambda: T.tensor([1, 2]).nanmean())


@case
def shp_aminmax(T, F, o):
    x = T.tensor([[1.0, 3.0, 3.0], [2.0, 0.0, 2.0]], requires_grad=True)
    r = x.aminmax()
    o.raw("type", type(r).__name__)
    o.repr("repr", T.tensor([1.0, 2.0]).aminmax())
    o["min"], o["max"] = r.min, r.max
    o.fn("min.grad_fn", r.min)
    (r.min * 2 + r.max * 3).backward()
    o.grads("both.", x=x)
    x.grad = None
    lo, hi = T.aminmax(x, dim=1)
    o["lo"], o["hi"] = lo, hi
    hi.sum().backward()
    o.grads("hi.", x=x)
    x.grad = None
    lo2, _ = x.aminmax(dim=-2, keepdim=True)
    o["lo2"] = lo2
    lo2.sum().backward()
    o.grads("lo2.", x=x)
    o["int"] = list(T.tensor([[4, 1], [2, 8]]).aminmax(dim=0))
    o["bool"] = list(T.tensor([True, False]).aminmax())
    o["zero_dim"] = list(const(T, 1).aminmax(dim=0))
    o["keep_all"] = list(const(T, 2, 2, 3).aminmax(keepdim=True))
    o["nan"] = list(T.tensor([1.0, float("nan"), 0.0]).aminmax())
    o.err("empty", lambda: T.zeros(0).aminmax())
    o.err("empty_dim", lambda: T.zeros(2, 0).aminmax(dim=1))
    o.err("positional", lambda: x.aminmax(1))


@case
def shp_aminmax_second_order(T, F, o):
    x = leaf(T, 5, 2, 3, dtype="float64")
    w = T.tensor([1.5, -0.5], dtype=T.float64, requires_grad=True)
    lo, hi = (x ** 2).aminmax(dim=1)
    (g,) = T.autograd.grad((lo * w).sum() + hi.sum(), x, create_graph=True)
    o.fn("g.grad_fn", g)
    o.tree("g.tree", g, 4)
    (g * g).sum().backward()
    o.grads("", x=x, w=w)


@case
def shp_cummax_cummin(T, F, o):
    x = T.tensor([[1.0, 3.0, 3.0, 0.5], [2.0, 0.0, 2.0, 4.0]], requires_grad=True)
    for fn in ("cummax", "cummin"):
        r = getattr(x, fn)(1)
        o.raw(f"{fn}.type", type(r).__name__)
        o.all(r.values, f"{fn}.values")
        o[f"{fn}.indices"] = r.indices
        o.flags(f"{fn}.indices", r.indices)
    v, i = T.cummax(x, 0)
    (v * T.tensor([[1.0, 2.0, 3.0, 4.0]])).sum().backward()
    o.grads("max0.", x=x)
    x.grad = None
    (T.cummin(x, -1).values ** 2).sum().backward()
    o.grads("min1.", x=x)
    o.repr("repr", T.tensor([1.0, 2.0]).cummax(0))
    o["nan"] = list(T.tensor([1.0, float("nan"), 3.0, 0.0]).cummax(0))
    o["nan_min"] = list(T.tensor([1.0, float("nan"), 3.0, 0.0]).cummin(0))
    o["ties"] = list(T.tensor([1.0, 1.0, 0.0, 1.0]).cummax(0))
    o["ties_min"] = list(T.tensor([1.0, 1.0, 2.0, 1.0]).cummin(0))
    o["int"] = list(T.tensor([[3, 1, 4], [1, 5, 9]]).cummin(1))
    o["bool"] = list(T.tensor([False, True, False]).cummax(0))
    o["zero_dim"] = list(const(T, 1).cummax(0))
    o["f64"] = list(const(T, 2, 3, 2, dtype="float64").cummax(0))
    o.err("range", lambda: x.cummax(2))


@case
def shp_cummax_second_order(T, F, o):
    x = leaf(T, 6, 2, 4, dtype="float64")
    _second_order(T, o, (x ** 2).cummax(1).values, x)


@case
def shp_logcumsumexp(T, F, o):
    x = leaf(T, 7, 2, 4)
    _fb(T, o, x.logcumsumexp(1), x=x)
    x2 = leaf(T, 8, 3, 2, dtype="float64")
    _fb(T, o, T.logcumsumexp(x2, 0), name="y2", x2=x2)
    o["big"] = T.tensor([1000.0, 1000.0, -1000.0]).logcumsumexp(0)
    o["inf"] = T.tensor([float("-inf"), 0.0, float("-inf")]).logcumsumexp(0)
    o["zero_dim"] = const(T, 1).logcumsumexp(0)
    o.err("int", lambda: T.tensor([1, 2]).logcumsumexp(0))


@case
def shp_logcumsumexp_second_order(T, F, o):
    x = leaf(T, 9, 2, 3, dtype="float64")
    _second_order(T, o, x.logcumsumexp(1), x)


@case
def shp_var_std_mean(T, F, o):
    for fn in ("var_mean", "std_mean"):
        x = leaf(T, 10, 2, 3)
        v, m = getattr(T, fn)(x, 1)
        o.raw(f"{fn}.type", type(getattr(T, fn)(x)).__name__)
        o.all(v, f"{fn}.v")
        o.all(m, f"{fn}.m")
        (v * 2 + m * 3).sum().backward()
        o.grads(f"{fn}.", x=x)
        x2 = leaf(T, 11, 3, 2, dtype="float64")
        v2, m2 = getattr(T, fn)(x2, dim=0, correction=0, keepdim=True)
        o[f"{fn}.v2"], o[f"{fn}.m2"] = v2, m2
        m2.sum().backward()
        o.grads(f"{fn}.mean_only.", x2=x2)
        x3 = leaf(T, 12, 4)
        v3, _ = getattr(T, fn)(x3, unbiased=False)
        o[f"{fn}.v3"] = v3
        v3.backward()
        o.grads(f"{fn}.var_only.", x3=x3)
        o[f"{fn}.pos_unbiased"] = list(getattr(T, fn)(const(T, 13, 2, 3), 1, False))
        o.err(f"{fn}.int", lambda fn=fn: getattr(T, fn)(T.tensor([1, 2])))


@case
def shp_var_std_mean_second_order(T, F, o):
    x = leaf(T, 14, 2, 3, dtype="float64")
    s, m = T.std_mean(x, 1)
    _second_order(T, o, s * m, x)


@case
def shp_msort(T, F, o):
    x = leaf(T, 15, 3, 2)
    _fb(T, o, x.msort(), x=x)
    o["f"] = T.msort(T.tensor([3, 1, 2]))
    o["zero_dim"] = const(T, 1).msort()


@case
def shp_quantile(T, F, o):
    x = leaf(T, 16, 3, 5)
    _fb(T, o, x.quantile(0.3), name="all", depth=5, x=x)
    x.grad = None
    q = T.tensor([0.1, 0.5, 0.95])
    y = T.quantile(x, q, dim=1, keepdim=True)
    _layout(o, "keep", y)
    _fb(T, o, y, name="keep", depth=5, x=x)
    x.grad = None
    _fb(T, o, x.quantile(q, 0), name="dim0", x=x)
    for mode in ("lower", "higher", "nearest", "midpoint"):
        o[mode] = x.quantile(q, 1, interpolation=mode)
    o["with_nan"] = T.tensor([[1.0, float("nan"), 3.0], [1.0, 2.0, 3.0]]).quantile(0.5, 1)
    o["f64"] = const(T, 17, 4, dtype="float64").quantile(T.tensor([0.2, 0.7], dtype=T.float64))
    o["zero_dim"] = const(T, 1).quantile(0.5, 0, keepdim=True)
    o["keep_all"] = const(T, 18, 2, 3).quantile(0.5, keepdim=True)
    o.err("int", lambda: T.tensor([1, 2]).quantile(0.5))
    o.err("range", lambda: x.quantile(1.5))
    o.err("q_dtype", lambda: x.quantile(T.tensor([0.5], dtype=T.float64)))
    o.err("q_2d", lambda: x.quantile(T.tensor([[0.5]])))
    o.err("empty", lambda: T.zeros(0).quantile(0.5))
    o.err("mode", lambda: x.quantile(0.5, interpolation="cubic"))
    o.err("range_tensor", lambda: x.quantile(T.tensor([0.5, 1.5])))
    o.err("range_neg", lambda: T.nanquantile(x, -0.25))
    o.err("dim", lambda: x.quantile(0.5, dim=3))


@case
def shp_nanquantile(T, F, o):
    x = _with_nan(T)
    _fb(T, o, x.nanquantile(0.4, 1), name="y", depth=4, x=x)
    o["all_nan"] = T.tensor([float("nan"), float("nan")]).nanquantile(0.5)
    o["q"] = T.nanquantile(_with_nan(T, "float64"), T.tensor([0.0, 1.0], dtype=T.float64))
    o["mode"] = x.nanquantile(0.5, 1, interpolation="higher")


@case
def shp_quantile_second_order(T, F, o):
    x = leaf(T, 19, 2, 5, dtype="float64")
    _second_order(T, o, (x ** 2).quantile(0.4, 1), x)


@case
def shp_trapezoid(T, F, o):
    y = leaf(T, 20, 2, 4)
    _fb(T, o, T.trapezoid(y), name="plain", y=y)
    y.grad = None
    _fb(T, o, T.trapezoid(y, dx=0.5, dim=0), name="dx", y=y)
    x = leaf(T, 21, 4)
    y.grad = None
    _fb(T, o, T.trapezoid(y, x), name="x", y=y, x=x)
    o["x2d"] = T.trapezoid(y, const(T, 22, 2, 4))
    o["trapz"] = T.trapz(y, dx=2.0)
    o["trapz_x"] = T.trapz(y, x, dim=-1)
    o["int"] = T.trapezoid(T.tensor([[1, 2, 3], [4, 5, 6]]))
    o["int_dx"] = T.trapezoid(T.tensor([1, 2, 4]), dx=2)
    o["int_x"] = T.trapezoid(y, T.tensor([1, 2, 4, 8]))
    o["empty"] = T.trapezoid(T.zeros(2, 0))
    o["one"] = T.trapezoid(const(T, 1, 3, 1))
    o.err("bool", lambda: T.trapezoid(T.tensor([True, False])))
    o.err("x_len", lambda: T.trapezoid(y, const(T, 2, 3)))
    o.err("x_number", lambda: T.trapezoid(y, 2.0))
    o.err("dx_bool", lambda: T.trapezoid(y, dx=True))


@case
def shp_cumulative_trapezoid(T, F, o):
    y = leaf(T, 23, 2, 4)
    _fb(T, o, T.cumulative_trapezoid(y), name="plain", y=y)
    x = leaf(T, 24, 4, dtype="float64")
    y.grad = None
    _fb(T, o, T.cumulative_trapezoid(y, x), name="x", y=y, x=x)
    o["dx"] = T.cumulative_trapezoid(y, dx=3, dim=0)
    o["int"] = T.cumulative_trapezoid(T.tensor([1, 2, 4]))
    o["empty"] = T.cumulative_trapezoid(T.zeros(2, 0))
    o.err("bool", lambda: T.cumulative_trapezoid(T.tensor([True, False])))
    o.err("x_len", lambda: T.cumulative_trapezoid(y, const(T, 2, 3)))


@case
def shp_inner(T, F, o):
    a, b = leaf(T, 25, 2, 3), leaf(T, 26, 4, 3)
    _fb(T, o, a.inner(b), a=a, b=b)
    v = leaf(T, 27, 3)
    o.all(T.inner(v, v), "vv", depth=4)
    o.all(T.inner(leaf(T, 28), a), "scalar")
    o["int"] = T.tensor([[1, 2, 3], [4, 5, 6]]).inner(T.tensor([1, 0, 2]))
    o["3d"] = T.inner(const(T, 29, 2, 2, 3), const(T, 30, 3))
    o.err("shape", lambda: a.inner(const(T, 1, 4)))
    o.err("dtype", lambda: T.tensor([[1, 2]]).inner(const(T, 1, 2)))


@case
def shp_dist(T, F, o):
    a, b = leaf(T, 31, 2, 3), leaf(T, 32, 3)
    for p in (2, 1, 3, 0.5, float("inf")):
        a.grad = b.grad = None
        _fb(T, o, a.dist(b, p), name=f"p{p}", a=a, b=b)
    o["p0"] = a.dist(b, 0)
    o.err("p0_backward", lambda: a.dist(b, 0).backward())
    a.grad = None
    a.dist(b.detach(), 0).backward()
    o.grads("p0.", a=a)
    o["f64"] = T.dist(a, leaf(T, 33, 2, 3, dtype="float64"))
    o["same"] = a.dist(a.detach())
    o.err("int", lambda: T.tensor([1, 2]).dist(T.tensor([3, 4])))
    o.err("shape", lambda: a.dist(const(T, 1, 2)))


@case
def shp_dist_second_order(T, F, o):
    a = leaf(T, 34, 2, 3, dtype="float64")
    b = leaf(T, 35, 2, 3, dtype="float64")
    (g,) = T.autograd.grad(a.dist(b), a, create_graph=True)
    o.fn("g.grad_fn", g)
    (g * g).sum().backward()
    o.grads("", a=a, b=b)


@case
def shp_vdot(T, F, o):
    a, b = leaf(T, 36, 4), leaf(T, 37, 4)
    _fb(T, o, a.vdot(b), a=a, b=b)
    o["int"] = T.vdot(T.tensor([1, 2]), T.tensor([3, 4]))
    o["f64"] = T.vdot(const(T, 1, 3, dtype="float64"), const(T, 2, 3, dtype="float64"))
    o.err("2d", lambda: const(T, 1, 2, 3).vdot(b))
    o.err("size", lambda: a.vdot(const(T, 1, 2)))
    o.err("dtype", lambda: a.vdot(const(T, 1, 4, dtype="float64")))


@case
def shp_vdot_second_order(T, F, o):
    a = leaf(T, 38, 3, dtype="float64")
    _second_order(T, o, T.vdot(a * a, a), a)


@case
def shp_cdist(T, F, o):
    a, b = leaf(T, 39, 3, 4), leaf(T, 40, 2, 4)
    for p in (2.0, 1.0, 3.0, 0.5, float("inf"), 0.0):
        a.grad = b.grad = None
        y = T.cdist(a, b, p=p)
        o.all(y, f"p{p}")
        (y * T.tensor([[1.0, 2.0], [0.5, -1.0], [3.0, 1.0]])).sum().backward()
        o.grads(f"p{p}.", a=a, b=b)
    o["same_rows"] = T.cdist(a, a.detach())
    c = leaf(T, 41, 2, 1, 3, 4, dtype="float64")
    d = leaf(T, 42, 3, 5, 4, dtype="float64")
    _fb(T, o, T.cdist(c, d), name="batch", c=c, d=d)
    o.err("1d", lambda: T.cdist(const(T, 1, 3), const(T, 2, 3)))
    o.err("cols", lambda: T.cdist(a, const(T, 1, 2, 3)))
    o.err("int", lambda: T.cdist(T.tensor([[1, 2]]), T.tensor([[1, 2]])))
    o.err("neg_p", lambda: T.cdist(a, b, p=-1.0))
    o.err("dtype", lambda: T.cdist(a, b.double()))


@case
def shp_cov_corrcoef(T, F, o):
    x = leaf(T, 43, 3, 5)
    _fb(T, o, x.cov(), name="cov", depth=4, x=x)
    x.grad = None
    _fb(T, o, T.corrcoef(x), name="corr", depth=4, x=x)
    x.grad = None
    _fb(T, o, T.cov(x, correction=0), name="cov0", x=x)
    v = leaf(T, 44, 6, dtype="float64")
    _fb(T, o, v.cov(), name="vec", v=v)
    o["corr_vec"] = T.corrcoef(v)
    o["int"] = T.tensor([[1, 2, 4], [2, 3, 7]]).cov()
    o["corr_int"] = T.tensor([[1, 2, 4], [2, 3, 7]]).corrcoef()
    o["one_obs"] = o.warns("one_obs.warn", lambda: T.tensor([[1.0], [2.0]]).cov())
    o.err("3d", lambda: T.zeros(2, 2, 2).cov())
    o.err("bool", lambda: T.tensor([True, False]).cov())
    o.err("corr_3d", lambda: T.zeros(2, 2, 2).corrcoef())


@case
def shp_cov_second_order(T, F, o):
    x = leaf(T, 45, 2, 4, dtype="float64")
    _second_order(T, o, T.corrcoef(x), x)


# ---------------------------------------------------------------------------------- utilities
@case
def shp_constants(T, F, o):
    o["values"] = [T.pi, T.e, T.inf, -T.inf]
    o.raw("nan", T.nan != T.nan)
    o.raw("types", [type(v).__name__ for v in (T.pi, T.e, T.inf, T.nan)])
    o.raw("newaxis", T.newaxis is None)
    o["newaxis_index"] = T.tensor([1.0, 2.0])[:, T.newaxis]
    o.str("strided", T.strided)
    o.str("layout", T.ones(2).layout)
    o.raw("layout_same", T.ones(2).t().layout is T.strided)


@case
def shp_finfo_iinfo(T, F, o):
    for d in ("float16", "float32", "float64"):
        f = T.finfo(getattr(T, d))
        o.raw(f"finfo.{d}", [f.bits, f.eps, f.max, f.min, f.tiny, f.smallest_normal, f.resolution, f.dtype])
        o.repr(f"finfo.{d}.repr", f)
    o.repr("finfo.default", T.finfo())
    o.repr("finfo.float", T.finfo(float))
    o.raw("finfo.eq", T.finfo(T.float32) == T.finfo(T.float32))
    for d in ("uint8", "int8", "int16", "int32", "int64"):
        i = T.iinfo(getattr(T, d))
        o.raw(f"iinfo.{d}", [i.bits, i.min, i.max, i.dtype])
        o.repr(f"iinfo.{d}.repr", i)
    o.repr("iinfo.int", T.iinfo(int))
    o.err("finfo.int", lambda: T.finfo(T.int32))
    o.err("finfo.bool", lambda: T.finfo(T.bool))
    o.err("iinfo.float", lambda: T.iinfo(T.float32))
    o.err("iinfo.bool", lambda: T.iinfo(T.bool))
    # the use in tutorials: a mask filled with the smallest float
    o["masked"] = T.zeros(2).masked_fill(T.tensor([True, False]), T.finfo(T.float32).min)


@case
def shp_dtype_rules(T, F, o):
    o["result_type"] = [T.result_type(T.tensor([1]), 2.5), T.result_type(2, 3), T.result_type(T.tensor([1, 2]), True),
                        T.result_type(T.tensor([1.0]), T.tensor([1.0], dtype=T.float64)),
                        T.result_type(T.tensor([1], dtype=T.int32), T.tensor(5)),
                        T.result_type(T.tensor(1.5, dtype=T.float64), T.tensor([1], dtype=T.int8))]
    names = ("bool", "uint8", "int8", "int16", "int32", "int64", "float16", "float32", "float64")
    o["promote"] = [T.promote_types(getattr(T, a), getattr(T, b)) for a in names for b in names]
    o.raw("can_cast", [T.can_cast(getattr(T, a), getattr(T, b)) for a in names for b in names])
    x, i = const(T, 1, 2), T.tensor([1, 2])
    o.raw("is_float", [T.is_floating_point(x), T.is_floating_point(i), x.is_floating_point()])
    o.raw("is_complex", [T.is_complex(x), i.is_complex()])
    o.raw("is_nonzero", [T.tensor(3).is_nonzero(), T.is_nonzero(T.tensor([0.0])), T.tensor(float("nan")).is_nonzero(),
                         T.tensor([False]).is_nonzero()])
    o.err("nonzero_many", lambda: T.tensor([1, 2]).is_nonzero())
    o.err("nonzero_none", lambda: T.tensor([]).is_nonzero())
    o.err("bool_none", lambda: bool(T.tensor([])))


@case
def shp_tensor_facts(T, F, o):
    x = T.arange(6.0).view(2, 3)
    o.raw("storage_offset", [x.storage_offset(), x[1].storage_offset(), x[:, 1].storage_offset(),
                             x.t()[1:].storage_offset(), x[1, 2].storage_offset(), x.diagonal(1).storage_offset(),
                             x.flip(0).storage_offset(), x.expand(2, 2, 3).storage_offset(),
                             x.narrow(1, 1, 2)[1].storage_offset()])
    o.raw("nbytes", [x.nbytes, x[0].nbytes, T.ones(3, dtype=T.int64).nbytes, T.ones(2, dtype=T.float16).nbytes,
                     x.expand(4, 2, 3).nbytes, T.zeros(0).nbytes])
    o.raw("itemsize", [x.itemsize, T.tensor([True]).itemsize, T.tensor([1]).itemsize, x.double().itemsize])
    o.raw("ndimension", [x.ndimension(), T.tensor(1.0).ndimension()])
    o.raw("is_cpu", x.is_cpu)
    o.raw("same_size", [x.is_same_size(x.t()), x.is_same_size(x + 1), x.is_same_size(T.zeros(2, 3, dtype=T.int64))])
    o.raw("data_ptr", [x.data_ptr() == x[0].data_ptr(), x.data_ptr() == x[1].data_ptr(),
                       x.data_ptr() == x.view(3, 2).data_ptr(), x.data_ptr() == x.clone().data_ptr(),
                       x[1].data_ptr() - x.data_ptr(), x[:, 2].data_ptr() - x.data_ptr(),
                       isinstance(x.data_ptr(), int)])


@case
def shp_printoptions(T, F, o):
    try:
        x = T.tensor([1.5, 2.25, 1000.125])
        T.set_printoptions(precision=2)
        o.repr("precision", x)
        T.set_printoptions(sci_mode=True)
        o.repr("sci", [x, T.tensor([0.0, 0.0]), T.tensor([1.0, 2.0]), T.tensor([1, 2])])
        T.set_printoptions(sci_mode=False)
        o.repr("no_sci", [T.tensor([1e-5, 1.0]), T.tensor([1e10, 1.0]), T.tensor([[1e-3, 123.5]], requires_grad=True)])
        T.set_printoptions(profile="short")
        o.repr("short", [T.arange(2000.0), T.tensor([1.12345]), T.arange(12).view(3, 4)])
        T.set_printoptions(profile="default", threshold=5, edgeitems=1)
        o.repr("threshold", [T.arange(10.0), T.arange(12).view(3, 4)])
        T.set_printoptions(profile="default", linewidth=20)
        o.repr("linewidth", [T.arange(10.0), T.tensor([0.5, 1.25, 2.0], requires_grad=True)])
        T.set_printoptions(profile="full")
        o.raw("full_summarised", "..." in repr(T.arange(1200)))
        T.set_printoptions(profile="default")
        o.repr("default", [T.arange(2000.0), T.tensor([1.12345])])
    finally:
        T.set_printoptions(profile="default")


@case
def shp_num_threads(T, F, o):
    n = T.get_num_threads()
    o.raw("type", type(n).__name__)
    o.raw("positive", n > 0)
    T.set_num_threads(1)
    o.raw("after", T.get_num_threads())
    T.set_num_threads(n)
    o.err("zero", lambda: T.set_num_threads(0))


@case
def shp_rng_state(T, F, o):
    T.manual_seed(7)
    T.randn(3)
    state = T.get_rng_state()
    o.raw("state", [state.dtype == T.uint8, state.dim(), state.requires_grad])
    a, b, c = T.randn(5), T.rand(2, dtype=T.float64), T.randint(0, 9, (4,))
    T.set_rng_state(state)
    o.raw("same", [T.equal(T.randn(5), a), T.equal(T.rand(2, dtype=T.float64), b), T.equal(T.randint(0, 9, (4,)), c)])
    o.err("float", lambda: T.set_rng_state(state.float()))
    o.err("list", lambda: T.set_rng_state([1]))


@case
def shp_creation_misc(T, F, o):
    o["scalar"] = [T.scalar_tensor(3), T.scalar_tensor(True), T.scalar_tensor(2, dtype=T.int64),
                   T.scalar_tensor(1.5, dtype=T.float64)]
    o["scalar_rg"] = T.scalar_tensor(1.5, requires_grad=True)
    t = T.tensor([1.0, 2.0])
    o.raw("asarray_same", T.asarray(t) is t)
    o.raw("asarray_copy", T.asarray(t, copy=True).data_ptr() == t.data_ptr())
    o["asarray_cast"] = T.asarray(t, dtype=T.float64)
    n = np.array([1, 2])
    shared = T.asarray(n)
    n[0] = 5
    o["asarray_numpy"] = shared
    o["asarray_lists"] = [T.asarray([1, 2.5]), T.asarray([1, 2]), T.asarray(3), T.asarray([[True]])]
    o["asarray_rg"] = T.asarray([1.0, 2.0], requires_grad=True)
    o.err("asarray_alias", lambda: T.asarray(t, copy=False, dtype=T.int64))
    o.err("asarray_int_rg", lambda: T.asarray([1, 2], requires_grad=True))
    e = T.empty_strided((2, 3), (1, 2))
    o.raw("empty_strided", [list(e.shape), list(e.stride()), e.is_contiguous()])
    o["empty_strided.dtype"] = e.dtype
    e2 = t.new_empty_strided((2, 2), (1, 2), dtype=T.int32)
    o.raw("new_empty_strided", [list(e2.stride()), list(t.new_empty_strided((3,), (2,)).stride())])
    o["new_empty_strided.dtype"] = e2.dtype
    T.manual_seed(3)
    o["randint_like"] = [T.randint_like(t, 10), T.randint_like(T.tensor([1, 2, 3]), 3, 10)]


# ---------------------------------------------------------------------------------- searching and counting
@case
def shp_isin(T, F, o):
    x = T.tensor([[1, 2, 3], [4, 2, 0]])
    o["basic"] = T.isin(x, T.tensor([2, 4]))
    o["mixed"] = T.isin(x, T.tensor([2.0, 3.5]))
    o["invert"] = T.isin(x, T.tensor([2]), invert=True)
    o["scalar_test"] = T.isin(x, 2)
    o["scalar_elem"] = T.isin(2, T.tensor([1, 2]))
    o["nan"] = T.isin(T.tensor([1.0, float("nan")]), T.tensor([float("nan"), 1.0]))
    o["floats"] = T.isin(const(T, 1, 2, 3), const(T, 1, 3))


@case
def shp_searchsorted_bucketize(T, F, o):
    seq = T.tensor([1, 3, 5, 7])
    v = T.tensor([[3, 6], [0, 9]])
    o["left"] = T.searchsorted(seq, v)
    o["right"] = T.searchsorted(seq, v, right=True)
    o["side"] = T.searchsorted(seq, v, side="right")
    o["scalar"] = T.searchsorted(seq, 3, right=True)
    o["int32"] = T.searchsorted(T.tensor([1.0, 3.0]), T.tensor([2.0]), out_int32=True)
    o["nd"] = T.searchsorted(T.tensor([[1, 3], [2, 4]]), T.tensor([[2, 5], [3, 1]]))
    o["sorter"] = T.searchsorted(T.tensor([3, 1, 5]), T.tensor([2, 4]), sorter=T.tensor([1, 0, 2]))
    o["nan"] = T.searchsorted(T.tensor([1.0, float("nan")]), T.tensor([float("nan"), 2.0, 0.5]))
    o["floats"] = T.searchsorted(T.tensor([0.5, 1.5, 2.5]), const(T, 1, 2, 3))
    o["bucketize"] = T.bucketize(T.tensor([[1, 3, 6]]), seq)
    o["bucketize_right"] = T.bucketize(T.tensor([1, 3, 6]), seq, right=True)
    o["bucketize_scalar"] = T.bucketize(3, seq)
    o["bucketize_int32"] = T.bucketize(const(T, 2, 4), T.tensor([-1.0, 0.0, 1.0]), out_int32=True)
    o.err("nd_mismatch", lambda: T.searchsorted(T.tensor([[1, 3], [2, 4]]), T.tensor([2, 3])))
    o.err("side_right", lambda: T.searchsorted(seq, v, side="left", right=True))
    o.err("zero_dim", lambda: T.searchsorted(T.tensor(1), T.tensor([2])))
    o.err("bucketize_2d", lambda: T.bucketize(T.tensor([1]), T.tensor([[1]])))


@case
def shp_histc(T, F, o):
    x = T.tensor([1.0, 2.0, 2.0, 4.0, 0.5, 3.99])
    o["auto"] = x.histc(3)
    o["range"] = T.histc(x, bins=4, min=1, max=3)
    o["same"] = T.tensor([1.0, 1.0]).histc(4)
    o["default_bins"] = const(T, 1, 50).histc().sum()
    o["f64"] = const(T, 2, 20, dtype="float64").histc(5, -1, 1)
    o["edges"] = T.tensor([0.0, 1.0, 2.0, 3.0]).histc(3, 1, 2)
    o.err("int", lambda: T.tensor([1, 2]).histc(3))
    o.err("bins", lambda: x.histc(0))
    o.err("min_max", lambda: x.histc(3, 3, 1))


@case
def shp_bincount(T, F, o):
    x = T.tensor([1, 2, 2, 5])
    o["plain"] = x.bincount()
    o["minlength"] = T.bincount(x, minlength=8)
    o["weights32"] = x.bincount(T.tensor([0.5, 1.0, 1.0, 2.0]))
    o["weights64"] = x.bincount(weights=T.tensor([0.5, 1.0, 1.0, 2.0], dtype=T.float64))
    o["weights_int"] = x.bincount(T.tensor([1, 2, 3, 4]))
    o["empty"] = T.tensor([], dtype=T.int64).bincount()
    o["uint8"] = T.tensor([3, 0], dtype=T.uint8).bincount()
    o.err("negative", lambda: T.tensor([-1]).bincount())
    o.err("2d", lambda: T.tensor([[1]]).bincount())
    o.err("float", lambda: T.tensor([1.0]).bincount())
    o.err("minlength_neg", lambda: x.bincount(minlength=-1))
    o.err("weights_len", lambda: x.bincount(T.tensor([1.0])))


@case(rtol=1e-4, atol=1e-5)
def shp_cdist_by_mm(T, F, o):
    # more than 25 rows: PyTorch computes p = 2 distances by matrix products (EuclideanDistBackward0)
    a = leaf(T, 46, 30, 3)
    b = leaf(T, 47, 4, 3)
    _fb(T, o, T.cdist(a, b), name="big", depth=3, a=a, b=b)
    a64, b64 = leaf(T, 48, 3, 4, dtype="float64"), leaf(T, 49, 5, 4, dtype="float64")
    _fb(T, o, T.cdist(a64, b64, compute_mode="use_mm_for_euclid_dist"), name="forced", a64=a64, b64=b64)
    c = leaf(T, 50, 2, 26, 3, dtype="float64")
    _fb(T, o, T.cdist(c, b64[:, :3].detach()), name="batch", depth=5, c=c)
    o.all(T.cdist(a, b, compute_mode="donot_use_mm_for_euclid_dist"), "direct")
    o.all(T.cdist(a, b, p=1), "p1")
    o["same_point"] = T.cdist(a64, a64.detach(), compute_mode="use_mm_for_euclid_dist")
    o.err("mode", lambda: T.cdist(a, b, compute_mode="foo"))


@case
def shp_cdist_by_mm_second_order(T, F, o):
    a = leaf(T, 51, 3, 2, dtype="float64")
    b = leaf(T, 52, 4, 2, dtype="float64")
    (g,) = T.autograd.grad(T.cdist(a, b, compute_mode="use_mm_for_euclid_dist").sum(), a, create_graph=True)
    o.tree("g.tree", g, 5)
    (g * g).sum().backward()
    o.grads("", a=a, b=b)


@case
def shp_layout_and_promotion_details(T, F, o):
    # tensor_split's indices follow Python's slicing (negative ones count from the end)
    x = leaf(T, 53, 2, 5)
    o["neg_idx"] = list(x.tensor_split([-2, 1], 1))
    o["neg_idx2"] = list(x.tensor_split([3, -4], 1))
    # gather (and take_along_dim) results are row-major whatever the index's layout
    m = leaf(T, 54, 3, 4)
    i = T.tensor([[0, 1, 2], [1, 1, 0], [3, 2, 1], [0, 0, 0]]).t()
    g = m.gather(1, i)
    o["gather_t"] = g
    _layout(o, "gather_t", g)
    t = m.take_along_dim(T.tensor([[1, 0], [2, 2], [0, 3]]).t()[:1], 1)
    _layout(o, "take_t", t)
    o["take_t"] = t
    # block_diag promotes by category: float32 with int64 stays float32
    o["bd_mix"] = T.block_diag(const(T, 1, 2, 2), T.tensor([[1, 2, 3]]))
    o["bd_int"] = T.block_diag(T.tensor([[1]], dtype=T.int32), T.tensor([[True]]))


@case
def shp_cov_weights(T, F, o):
    x = leaf(T, 55, 2, 4, dtype="float64")
    fw = T.tensor([1, 2, 0, 3])
    aw = T.tensor([0.5, 1.0, 2.0, 0.25], dtype=T.float64, requires_grad=True)
    _fb(T, o, T.cov(x, fweights=fw), name="f", depth=4, x=x)
    x.grad = None
    _fb(T, o, x.cov(aweights=aw), name="a", depth=4, x=x, aw=aw)
    x.grad = aw.grad = None
    _fb(T, o, T.cov(x, correction=0, fweights=fw, aweights=aw), name="fa", x=x, aw=aw)
    o["f32"] = T.cov(const(T, 1, 3, 4), fweights=fw, aweights=T.tensor([1.0, 1.0, 2.0, 1.0]))
    o.err("f_float", lambda: x.cov(fweights=aw))
    o.err("a_int", lambda: x.cov(aweights=fw))
    o.err("f_2d", lambda: x.cov(fweights=fw.view(2, 2)))
    o.err("f_len", lambda: x.cov(fweights=fw[:3]))
    o.err("f_neg", lambda: x.cov(fweights=-fw))
    o.err("a_neg", lambda: x.cov(aweights=-aw))
    o.err("zero_sum", lambda: x.cov(fweights=T.zeros(4, dtype=T.int64)))


@case
def shp_cdist_twice(T, F, o):
    # PyTorch has no second derivative of cdist's direct path: the node is there, its backward raises
    a, b = leaf(T, 56, 3, 2, dtype="float64"), leaf(T, 57, 4, 2, dtype="float64")
    (g,) = T.autograd.grad(T.cdist(a, b, p=3.0).sum(), a, create_graph=True)
    o.tree("g.tree", g, 2)
    o.flags("g", g)
    o.err("twice", lambda: g.sum().backward())
    (g2,) = T.autograd.grad(T.cdist(a, b.detach()).sum(), a)
    o.flags("g2", g2)
    o["g2"] = g2


@case
def shp_where_one_argument_and_softmax_dtype(T, F, o):
    """``where(cond)`` is ``nonzero(as_tuple=True)``; ``where(cond, x)`` is refused; softmax's ``dtype`` casts first
    (ToCopyBackward0); without ``dim``, softmax and log_softmax warn and pick PyTorch's old default."""
    x = leaf(T, 40, 2, 3)
    o.val("where_one", lambda: T.where(x > 0))
    o.val("where_0dim", lambda: T.where(T.tensor(3.0)))
    o.err("where_two", lambda: T.where(x > 0, x))
    o.val("where_keywords", lambda: T.where(x > 0, input=x, other=2.0))
    for name, fn in [("softmax", F.softmax), ("log_softmax", F.log_softmax)]:
        y = fn(x, 1, dtype=T.float64)
        o.all(y, f"{name}.dtype")
        o.all(getattr(x, name)(1, T.float64), f"{name}.method")
        o.all(getattr(T, name)(x, 0, dtype=T.float64), f"{name}.function")
        o.all(getattr(x, name)(1, dtype=T.float32), f"{name}.same_dtype")
        for shape in [(3,), (2, 3), (2, 3, 4)]:
            z = leaf(T, 41, *shape)
            r = o.warns(f"{name}.implicit{len(shape)}.warns", lambda: fn(z))
            o[f"{name}.implicit{len(shape)}"] = r
    o.err("softmax_int", lambda: T.tensor([[1, 2]]).softmax(1))
    o.val("softmax_int_dtype", lambda: T.tensor([[1, 2]]).softmax(1, dtype=T.float32))


@case
def shp_what_the_fuzzer_found(T, F, o):
    """Faithful details ``make fuzz`` found in the new ops (and two older ones): a nan through threshold, threshold_
    into an expanded tensor, fill_ from one of its own elements, ``x[None] = x``, elu of -0.0, cummax/cummin over
    nans, var_mean's mean of an inf, PyTorch's order of checks, NotImplemented nodes' edges, dist's two graphs."""
    from math import inf, nan
    x = T.tensor([nan, 0.5, 0.7, -inf, inf], dtype=T.float64)
    o["threshold_nan"] = F.threshold(x, 0.5, -1.0)
    o["threshold_nan_"] = F.threshold_(x.clone(), 0.5, -1.0)
    e = T.tensor([[0.3, -0.4]]).expand(3, 2)
    o.val("threshold_expanded", lambda: F.threshold_(e, 0.5, -1.0))
    o.err("relu_expanded", lambda: T.tensor([[0.3, -0.4]]).expand(3, 2).relu_())
    y = T.tensor([1.0, 2.0])
    o.val("fill_own_element", lambda: y.fill_(y[0]))
    z = T.tensor(0.36)
    z[None] = z
    o.raw("setitem_zero_dim_itself", [z.item(), z._version])
    zeros = T.tensor([-0.0, 0.0, -1e-8])
    o.raw("elu_signbit", [F.elu(zeros).signbit().tolist(), F.celu(zeros, 0.5).signbit().tolist(),
                          F.selu(zeros).signbit().tolist(), F.relu6(zeros).signbit().tolist(),
                          F.hardtanh(zeros, 0.0, 6.0).signbit().tolist()])
    o.warns("dist_inf.warns", lambda: o.val("dist_inf", lambda: T.dist(T.tensor([inf, 1.0]), T.tensor(inf))))
    w = T.tensor([[1.37], [-0.0], [-0.34], [nan]])
    o.raw("fmax_fmin_zeros", [T.fmax(w, T.tensor([0, 0])).signbit().flatten().tolist(),
                              T.fmin(T.tensor([0, 0]), w).signbit().flatten().tolist()])
    o.raw("ne_two_dtypes", [(T.tensor([-0.58, 1.0]) != T.tensor(-0.58, dtype=T.float64)).tolist(),
                            (T.tensor([16777217, 3]) == T.tensor(16777216.0)).tolist()])
    lx = T.tensor([[[0.2, 0.7], [0.4, 0.9]], [[0.3, 0.6], [0.1, 0.8]]]).transpose(1, 2)
    lt = T.tensor([[[0.5, 0.1], [0.4, 0.2]], [[0.9, 0.6], [0.3, 0.7]]])
    o.raw("loss_layouts", [[list(fn(p, q, reduction="none").stride()) for p, q in [(lx, lt), (lt, lx)]]
                           for fn in [F.mse_loss, F.huber_loss, F.binary_cross_entropy,
                                      F.binary_cross_entropy_with_logits]])
    grid = T.meshgrid(T.tensor([1.0, 2.0, 3.0, 4.0]), T.tensor([1.0, 2.0]), indexing="xy")[0]
    o.raw("one_input_layouts", [list(getattr(grid, f)().stride()) for f in ["erf", "lgamma", "digamma", "erfinv"]])
    o.val("cummin_nan", lambda: T.tensor([nan, 1.0, nan, 0.0]).cummin(0))
    o.val("cummax_nan", lambda: T.tensor([1.0, nan, 2.0, nan]).cummax(0))
    o.err("cummax_dim_of_scalar", lambda: T.tensor(1.0).cummax(1))
    o.val("cummax_empty", lambda: T.zeros(0).cummax(0))
    s = T.tensor(0.5, requires_grad=True)
    g, = T.autograd.grad((s * 2).cummax(0)[0] ** 2, s, create_graph=True)
    o.all(g, "cummax_scalar_second")
    for k, v in enumerate([[inf], [inf, 1.0], [1.0, inf], [inf, inf], [1.0, inf, 2.0]]):
        o.warns(f"var_mean_inf{k}.warns", lambda: o.val(f"var_mean_inf{k}", lambda: T.var_mean(T.tensor(v), 0)))
    o.err("heaviside_dtypes_first", lambda: T.heaviside(T.ones(2, 3, dtype=T.float64), T.ones(3)))
    o.err("dist_bool", lambda: T.dist(leaf(T, 42, 2, 3), T.tensor([True, False, True])))
    o.err("trapezoid_scalar", lambda: T.trapezoid(T.tensor(1.0)))
    o.err("cumulative_trapezoid_scalar", lambda: T.cumulative_trapezoid(T.tensor(1.0)))
    a, v = T.tensor([0.7, -1.0]), leaf(T, 43, 2)
    o.raw("not_implemented_edges", [len(T.heaviside(a, v).grad_fn.next_functions),
                                    len(T.floor_divide(a, v).grad_fn.next_functions)])
    b = leaf(T, 44, 2)
    d = T.dist(b.sigmoid(), b)
    gd, = T.autograd.grad(d, b, create_graph=True)
    o.all(gd, "dist_second", depth=6)
    t = leaf(T, 45, 2, 1, 2, 2)
    gt, = T.autograd.grad((T.trapezoid(t, dim=1).hardshrink(0.0).exp()).sum(), t, create_graph=True)
    o.all(gt, "trapezoid_second", depth=4)


@case
def shp_conjugate_transposes_and_small_methods(T, F, o):
    """H, mH, adjoint (the transposes of real matrices, with PyTorch's errors and 0-dim warnings); diagflat,
    argwhere, cumsum_/cumprod_ (and their dtype check), short/char/byte, get_device, the multinomial method."""
    import warnings
    x = leaf(T, 46, 2, 3)
    for name, fn in [("H", lambda t: t.H), ("mH", lambda t: t.mH), ("adjoint", lambda t: t.adjoint()),
                     ("T.adjoint", lambda t: T.adjoint(t))]:
        o.all(fn(x), name)
        o.raw(f"{name}.stride", list(fn(x).stride()))
        o.err(f"{name}.vector", lambda: fn(T.ones(3)))
    o.err("H.batch", lambda: T.ones(2, 2, 2).H)
    o.raw("mH.batch", list(T.ones(4, 2, 3).mH.shape))
    with warnings.catch_warnings():  # (each warns once per process: tests/test_everyday_ops.py checks the texts)
        warnings.simplefilter("ignore")
        s = T.tensor(2.0)
        o.raw("zero_dim_same", [s.H is s, s.mH is s, s.adjoint() is s])
    v = leaf(T, 47, 3)
    for name, t in [("diagflat", x.diagflat()), ("diagflat1", v.diagflat(1)), ("T.diagflat", T.diagflat(v, -2))]:
        o.all(t, name)
    m = T.tensor([[0, 1, 2], [3, 0, 0]])
    o.val("argwhere", lambda: T.argwhere(m))
    o.val("argwhere_method", lambda: m.argwhere())
    for name in ["cumsum_", "cumprod_"]:
        y = x * 1
        r = getattr(y, name)(1)
        o.raw(f"{name}.same", r is y)
        o.all(y, name)
        o.err(f"{name}.dtype", lambda: getattr(x * 1, name)(0, dtype=T.float64))
        o.err(f"{name}.long", lambda: getattr(x * 1, name)(0, dtype=T.int64))
    o.raw("casts", [o.norm(str(x.short().dtype)), o.norm(str(x.char().dtype)), o.norm(str(x.byte().dtype)),
                    x.get_device()])
    o.val("short_values", lambda: (x * 10).short())
    T.manual_seed(0)
    o.val("multinomial", lambda: T.tensor([0.2, 0.5, 0.3]).multinomial(4, replacement=True))


# ---------------------------------------------------------------------------------- found by make fuzz, 180,000-240,000
@case
def f32_empty_roll_and_norms(T, F, o):
    """``roll`` returns a copy of a tensor without elements before it reads the dims (shifts are still checked);
    ``vector_norm`` refuses the inf and negative norms (a max or a min) over nothing, naming the dim as given."""
    e = T.zeros(2, 0, requires_grad=True)
    y = e.roll(1, 5)
    y.sum().backward()
    o["roll_empty"] = [list(y.shape), list(y.stride()), y.grad_fn.name(), list(e.grad.shape)]
    o["roll_empty_dims"] = list(T.zeros(0).roll((1, 2), (5, 6)).shape)
    o.err("roll_no_shifts", lambda: T.zeros(3).roll((), 0))
    o.err("roll_no_shifts_empty", lambda: T.zeros(0).roll(()))
    o.err("roll_align", lambda: T.zeros(0).roll((1, 2), 0))
    o.err("roll_bad_dim", lambda: T.zeros(3).roll(1, 5))
    z = T.zeros(0, 2)
    for p in [math.inf, -math.inf, -1, -0.5, 2, 0]:
        for dim in [None, 0, 1, -2, (1, 0), ()]:
            o.val(f"norm_{p}_{dim}", lambda: T.linalg.vector_norm(z, p, dim=dim))
    o.val("tensor_norm", lambda: z.norm(math.inf))
    o.val("norm_dim_out_of_range", lambda: T.linalg.vector_norm(T.zeros(0), math.inf, dim=(1, 0)))


@case
def f33_cummax_saves_and_cumprod_zeros(T, F, o):
    """cummax/cummin save the input and the indices (``_saved_self``, ``_saved_indices``): changing either in place
    makes backward raise.  cumprod of float32 multiplies in float64 (PyTorch's CPU acc_type), and its gradient
    over zeros leaves out what lies beyond them (an inf there gives no nan)."""
    x = leaf(T, 200, 3, 4)
    v, i = x.cummin(1)
    o["saved"] = [v.grad_fn._saved_dim, v.grad_fn._saved_indices, v.grad_fn._saved_self is x]
    (v * T.arange(12.0).view(3, 4)).sum().backward()
    o["grad"] = x.grad
    a = x.detach().clone().requires_grad_()
    b = a * 1
    v, i = b.cummax(0)
    b.mul_(2)
    o.err("self_changed", lambda: v.sum().backward())
    v, i = (a * 1).cummax(0)
    i.add_(0)
    o.err("indices_changed", lambda: v.sum().backward())
    c = leaf(T, 201, 40, 3) * 1.5
    o["cumprod_f32"] = c.cumprod(0)
    o["cumprod_f16"] = c.half().cumprod(1)
    w = T.tensor([[1.17, 0.0, math.inf, 2.0], [-0.5, 3.0, 0.0, 0.0], [0.0, math.inf, 2.0, 0.5], [1.5, -2.0, 0.5, 3.0]],
                 requires_grad=True)
    w.cumprod(1).backward(T.full((4, 4), 0.5))
    o["zeros_grad"] = w.grad
    u = T.tensor([[0.0, 2.0, 0.0], [1.0, 0.0, 3.0]], dtype=T.float64, requires_grad=True)
    g, = T.autograd.grad(u.cumprod(1).sum(), u, create_graph=True)
    o["zeros_grad_graph"] = g
    o["zeros_second"] = T.autograd.grad(g.sum(), u)[0]


@case
def f34_out_layouts_and_functions(T, F, o):
    """A resized ``out=`` of an elementwise op takes the result's layout (PyTorch restrides it); of a reduction,
    product, cat or stack it is row-major.  The elementwise functions take ``out=`` and refuse a number."""
    def strides(name, t):
        o.raw(name, [list(t.shape), list(t.stride())])
    x = T.arange(12.0).reshape(3, 4).t()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for name, f in [("mul", lambda out: T.mul(x, 3, out=out)), ("sin", lambda out: T.sin(x, out=out)),
                        ("exp", lambda out: T.exp(x, out=out)), ("floor", lambda out: T.floor(x, out=out)),
                        ("atan2", lambda out: T.atan2(x, x, out=out)), ("sum", lambda out: T.sum(x, 1, True, out=out)),
                        ("stack", lambda out: T.stack([x, x], out=out)), ("mm", lambda out: T.mm(x, x.t(), out=out)),
                        ("reciprocal", lambda out: T.reciprocal(x + 1, out=out))]:
            for k, out in enumerate([T.empty(0), T.empty(2, 2)]):
                r = f(out)
                strides(f"{name}{k}", out)
                o[f"{name}{k}_same"] = r is out
                o[f"{name}{k}_values"] = out
            kept = T.empty(4, 3).t().t()
            strides(f"{name}_kept", kept)
    o.err("sin_number", lambda: T.sin(2.0))
    o.err("sin_out_int", lambda: T.sin(x, out=T.empty(4, 3, dtype=T.int64)))
    i, j = T.tensor([1, 2, 3]), T.tensor([3, 3, 6])
    o["bitwise"] = [T.bitwise_and(i, j), T.bitwise_or(1, i), T.bitwise_xor(i, 2), T.bitwise_not(i)]
    o["small"] = [T.is_same_size(i, j), T.get_device(i), T.select(i, 0, 1), T.nan_to_num_(T.tensor([math.nan, 1.0]))]
    o["inplace_hyperbolic"] = [T.arcsinh_(T.tensor([0.5])), T.arccosh_(T.tensor([2.0])), T.atanh_(T.tensor([0.25]))]


@case
def f35_activation_gradient_layouts(T, F, o):
    """The gradients of activations through a permuted input are laid out as PyTorch's kernels lay them out (their
    TensorIterator, or ``empty_like(grad)`` for log_sigmoid); so is ``x ** 0`` and ``x ** 1``."""
    def strides(name, t):
        o.raw(name, [list(t.shape), list(t.stride())])
    for nm in ["elu", "selu", "celu", "hardsigmoid", "logsigmoid", "leaky_relu", "prelu", "square", "pow1", "pow0"]:
        v = T.tensor([[[-0.18, 1.74, -1.57]], [[0.84, 1.98, 0.93]]], requires_grad=True)
        x = v.permute(2, 1, 0)
        if nm == "prelu":
            y = F.prelu(x, T.tensor([0.25]))
        elif nm == "square":
            y = T.square(x)
        elif nm.startswith("pow"):
            y = x ** int(nm[-1])
            strides(f"{nm}_result", y)
        else:
            y = getattr(F, nm)(x)
        g, = T.autograd.grad(y.sum(), v)
        strides(nm, g)
        o[f"{nm}_grad"] = g
    strides("pow_expanded", T.arange(6.0).reshape(2, 3).expand(2, 2, 3) ** 0)


@case
def f36_inplace_view_saved_output_message(T, F, o):
    """The error for a view's saved output changed again in place names the view's node while it lives (kept by
    the graph with retain_graph/create_graph: AsStrided), else the node that saved it (Relu), as PyTorch's
    SavedVariable does with its weak reference."""
    for shape in [(), (4,)]:
        for keep in (False, True):
            x = T.tensor([[0.5, -1.0], [2.0, 3.0]], dtype=T.float64, requires_grad=True)
            b = (x * 1).sum() if shape == () else x * 1
            v = b.view(shape)
            F.relu(v, inplace=True)
            v.exp_()
            o.err(f"{len(shape)}_{keep}", lambda: T.autograd.grad(v.sum(), [x], create_graph=keep))


@case
def f37_unpack_without_gradient_and_cumsum_checks(T, F, o):
    """A built-in node that gets no gradient still unpacks what it saved (ord-0 norm gives none back, yet a saved
    tensor changed in place raises below it); ``cumsum_``/``cumprod_`` check autograd's rules, then the dim,
    then the dtype, then the written-to memory."""
    x = T.tensor([1.0, 2.0], requires_grad=True)
    y = x.exp()
    z = T.linalg.vector_norm(y, 0)
    y.add_(1)
    o.err("changed_below", lambda: z.backward())
    x = T.tensor([1.0, 2.0], requires_grad=True)
    z = T.linalg.vector_norm(x.exp(), 0)
    z.backward(retain_graph=True)
    o["no_grad_flows"] = x.grad is None
    for name, f in [("leaf_bad_dim", lambda: T.ones(3, requires_grad=True).cumsum_(5)),
                    ("expanded_bad_dim", lambda: T.ones(3, 1).expand(3, 2).cumsum_(5)),
                    ("expanded", lambda: T.ones(3, 1).expand(3, 2).cumprod_(0)),
                    ("expanded_bad_dtype", lambda: T.ones(3, 1).expand(3, 2).cumsum_(0, dtype=T.float64)),
                    ("bad_dim_bad_dtype", lambda: T.ones(3).cumprod_(4, dtype=T.float64)),
                    ("zero_dim", lambda: T.tensor(1.0).cumprod_(3))]:
        o.err(name, f)


@case
def f38_ties_in_the_common_dtype_and_float_power_order(T, F, o):
    """maximum/minimum/fmax/fmin find ties in the dtype of the result (a float64 0-dim and a float32 tensor:
    float32), so -1.94 ties -1.94f; float_power casts the exponent first, so a failing base runs first."""
    for name in ["maximum", "minimum", "fmax", "fmin"]:
        v = T.tensor([-0.14, -1.94, -1.99], requires_grad=True)
        s = T.tensor(-1.94, dtype=T.float64, requires_grad=True)
        o[name] = T.autograd.grad(getattr(T, name)(s, v).sum(), [s, v])
    a = T.tensor([2.0], requires_grad=True)
    b = T.tensor(0.5, requires_grad=True)
    y = T.float_power(a, b)
    o["nodes"] = [e[0].name() for e in y.grad_fn.next_functions]
    v0 = T.tensor([-0.97], requires_grad=True)
    e = T.tensor(0.04, requires_grad=True)
    z = T.float_power((v0 * 3) // 0.5, e)
    o.err("fails_first", lambda: z.backward(T.ones_like(z)))
    o["exponent_grad_untouched"] = e.grad is None


@case
def f39_new_fuzz_ops(T, F, o):
    """What ``make fuzz`` found once it drew the ops it had left out: ``div(rounding_mode=None)`` is PyTorch's
    other overload (DivBackward2); masked_scatter; sgn saves self and result (a second backward raises);
    nextafter saves for self's formula only; PyTorch's errors of narrow, take_along_dim and index_put on a
    0-dim tensor, of sum_to_size() and of a mask that does not broadcast."""
    a = T.tensor([1.5, -2.0], requires_grad=True)
    b = T.tensor([0.5, 3.0], requires_grad=True)
    for k, y in enumerate([a.div(b, rounding_mode=None), a.div(2.0, rounding_mode=None), a.divide(b, rounding_mode=None),
                           T.div(a, b, rounding_mode=None), a.div(b), a / 2, (a * 1).div_(b, rounding_mode=None)]):
        o.fn(f"div{k}", y)
        o[f"div{k}_grads"] = T.autograd.grad(y.sum(), [a, b], allow_unused=True)
    o["div_saved"] = [a.div(b, rounding_mode=None).grad_fn._saved_rounding_mode]
    x = T.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], requires_grad=True)
    src = T.arange(10.0, 16.0).reshape(2, 3).requires_grad_()
    m = T.tensor([[True, False, True], [False, True, False]])
    y = x.masked_scatter(m, src)
    o.all(y, "scatter", grads={"x": x, "src": src})
    o["scatter_sizes"] = list(y.grad_fn._saved_source_sym_sizes)
    o["scatter_rows"] = x.detach().masked_scatter(T.tensor([True, False, True]), src)
    z = (x * 1).masked_scatter_(T.tensor([True, False, True]), src * 2)
    o.fn("scatter_inplace", z)
    o["scatter_inplace_grads"] = T.autograd.grad(z.pow(2).sum(), [x, src])
    for name, f in [("few_source", lambda: x.masked_scatter(m, T.ones(2))),
                    ("float_mask", lambda: x.masked_scatter(m.float(), src)),
                    ("dtypes", lambda: x.masked_scatter(m, src.double())),
                    ("not_expandable", lambda: x.detach().masked_scatter_(T.ones(3, 2, 3, dtype=T.bool), T.arange(18.0))),
                    ("no_broadcast", lambda: x.detach().masked_scatter(T.tensor([True, True]), src)),
                    ("number", lambda: x.masked_scatter(m, 2.0)),
                    ("fill_no_broadcast", lambda: T.ones(2, 1, 2, 2, dtype=T.bool).masked_fill_(T.ones(3) > 0, -1.5)),
                    ("fill_grows", lambda: T.ones(2, 2).masked_fill_(T.ones(3, 2, 2, dtype=T.bool), 1.0)),
                    ("narrow0", lambda: T.tensor(1.5).narrow(0, 0, 1)),
                    ("take0", lambda: T.take_along_dim(T.tensor(1.5), T.tensor(0), 0)),
                    ("index_put0", lambda: T.tensor(1.5).index_put((T.tensor(True),), T.tensor(2.0))),
                    ("sum_to_size", lambda: T.ones(3).sum_to_size())]:
        o.err(name, f)
    s = T.tensor([0.73, -1.0, 0.0], requires_grad=True)
    g = s.sgn()
    o["sgn_saved"] = [g.grad_fn._saved_self is s, g.grad_fn._saved_result]
    g.sum().backward()
    o.err("sgn_twice", lambda: g.sum().backward())
    v = T.tensor([-0.95, 0.24, 0.83], requires_grad=True)
    n = T.tensor(1.36).nextafter(v)
    n.sum().backward()
    n.sum().backward()
    o["nextafter_twice"] = v.grad


@case
def f40_saved_inputs_layouts_and_signs(T, F, o):
    """gather keeps its input (changing it raises), scatter_add its index only for src's gradient (a second
    backward without it works); norm's backward fills in place, so a ZeroTensor gradient raises as in PyTorch;
    addcdiv_ refuses integer division before the shapes; a single sample's unreduced nll_loss is +0.0, not
    -0.0; where lays its result out by the condition first and promotes two numbers as PyTorch; index_put keeps
    the input's layout; masked_scatter's source gradient is one op (MaskedScatterBackwardBackward0)."""
    def strides(name, t):
        o.raw(name, [list(t.shape), list(t.stride())])
    x = T.tensor([[-1.64, 0.49, 1.59], [1.38, 1.23, 0.6]], requires_grad=True)
    y = x * 1
    g = y.gather(1, T.tensor([[0, 2], [1, 1]]))
    o["gather_saved"] = [g.grad_fn._saved_self is y, g.grad_fn._saved_dim]
    y.pow_(2)
    o.err("gather_changed", lambda: g.sum().backward())
    s = T.tensor(-0.68, requires_grad=True)
    c = s.clone()
    z = c.scatter_add_(0, T.tensor(0), T.tensor(1.02))
    c.sum().backward()
    z.backward(T.tensor(0.5))
    o["scatter_add_twice"] = s.grad
    for p in (2, 1.5, 0.5, 3):
        v = T.tensor([0.5, -1.0], requires_grad=True)
        o.val(f"norm_{p}_zerotensor", lambda: T.autograd.grad(v.norm(p).sgn(), v)[0].shape)
    i = T.tensor([[-2, 0, 1], [1, 3, 2]])
    o.err("addcdiv_int", lambda: T.zeros(3).addcdiv_(i, i.abs() + 1))
    o.err("addcdiv_int_leaf", lambda: T.tensor(1.0, requires_grad=True).addcdiv_(i, i))
    o["nll_single"] = [F.nll_loss(T.tensor([0.0]), T.tensor(0), reduction="none"),
                       F.cross_entropy(T.tensor([1.89]), T.tensor(0), reduction="none")]
    o["nll_single_sign"] = [bool(F.nll_loss(T.tensor([0.0]), T.tensor(0), reduction="none").signbit())]
    a = T.arange(8.0).reshape(2, 2, 2)
    at, cond = a.permute(2, 1, 0), a > 3
    for k, t in enumerate([T.where(cond, at, at), T.where(cond.permute(2, 1, 0), a, a), T.where(cond, at, 0.0),
                           T.where(cond[0], at, at), at.index_put((at > 2,), T.tensor(1.5)),
                           at.index_put((T.tensor([0, 0]),), T.tensor(1.5), accumulate=True)]):
        strides(f"layout{k}", t)
    c2 = T.tensor([True, False])
    o["where_numbers"] = [T.where(c2, 1, 2.5), T.where(c2, 1, 2), T.where(c2, True, False), T.where(c2, True, 2)]
    w = T.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], requires_grad=True)
    src = T.arange(10.0, 17.0).requires_grad_()
    m = T.tensor([[True, False, True], [False, True, False]])
    out = (w * w).masked_scatter(m, src * src)
    gw, gs = T.autograd.grad((out ** 3).sum(), [w, src], create_graph=True)
    o.fn("scatter_source_node", gs)
    o["scatter_second"] = T.autograd.grad((gs * T.arange(7.0)).sum() + (gw ** 2).sum(), [w, src])


@case
def f41_unpack_order_cross_narrow(T, F, o):
    """PyTorch's nodes unpack saved inputs in the order of their names (other before self, exponent before
    self): when both were changed, the error names that one.  linalg.cross, and cross's errors with the dim as
    given; narrow's checks in PyTorch's order; std's backward fills in place (a ZeroTensor gradient raises);
    masked_scatter's result is row-major."""
    for op in ["xlogy", "div", "atan2", "hypot", "logaddexp", "fmax", "pow"]:
        x = T.tensor([[0.5, 1.5], [2.0, 0.7]], requires_grad=True)
        a = x * 1
        y = getattr(T, op)(a.unsqueeze(0), a.unsqueeze(-1))
        a.mul_(2)
        o.err(f"changed_{op}", lambda: y.sum().backward())
    a = T.tensor([[1.0, 2, 3], [4, 5, 6]], requires_grad=True)
    b = T.tensor([[0.0, 1, 0], [1, 0, 0]])
    y = T.linalg.cross(a, b)
    o.all(y, "cross", grads={"a": a})
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for name, f in [("linalg_len", lambda: T.linalg.cross(T.ones(2, 4), T.ones(2, 4))),
                        ("no_size3", lambda: T.cross(T.ones(2, 4), T.ones(2, 4))),
                        ("dim_given", lambda: T.cross(T.ones(2, 4), T.ones(2, 4), dim=-1)),
                        ("ndims", lambda: T.linalg.cross(T.ones(3), T.ones(2, 3)))]:
            o.err(name, f)
    x = T.arange(6.0).reshape(2, 3)
    for name, f in [("narrow_past", lambda: T.zeros(1, 0).narrow(1, 0, 1)), ("narrow_start", lambda: x.narrow(1, -4, 1)),
                    ("narrow_length", lambda: x.narrow(1, 1, -1)), ("narrow_end", lambda: x.narrow(1, 2, 2)),
                    ("narrow_dim", lambda: x.narrow(5, 0, 1))]:
        o.err(name, f)
    o["narrow_negative_start"] = x.narrow(1, -1, 1)
    v = T.tensor([[0.3, -0.8], [1.3, -0.8]], requires_grad=True)
    s = v.sqrt().std()
    o.err("std_zerotensor", lambda: T.autograd.grad(s.sgn(), v))
    t = T.tensor([[[-0.39, -0.22], [-0.33, -1.71]], [[-0.58, 1.81], [-0.25, 1.16]]]).clone().transpose_(0, 1)
    o.raw("scatter_layout", list(t.masked_scatter(t > 0, t * 3).stride()))


@case
def f42_histc_one_hot_isclose(T, F, o):
    """histc finds each bin in the input's dtype, as PyTorch's kernel (float32: -0.4 lands in bin 1 of
    [-1, 2] / 5), and prints the range as C++ does; one_hot is row-major and, built in place, at version 2;
    isclose at version 1."""
    o["histc_f32"] = T.histc(T.tensor([[-0.99], [-0.49], [-0.4]]), 5, -1.0, 2)
    o["histc_f64"] = T.histc(T.tensor([-0.99, -0.49, -0.4], dtype=T.float64), 5, -1.0, 2)
    o["histc_auto"] = T.histc(T.tensor([0.1, 0.2, 0.7, 0.3]), 3)
    o.err("histc_inf", lambda: T.histc(T.tensor([[1.14, 1.96], [-0.95, math.inf]]), 5, 0, 0))
    h = F.one_hot(T.tensor([[0, 2], [1, 1]]).t())
    o.raw("one_hot", [list(h.stride()), h._version])
    c = T.tensor([[-1.57], [-0.02]]).isclose(T.tensor([1.34]))
    o.raw("isclose_version", c._version)


@case
def f43_bool_kernels_and_nll_weights(T, F, o):
    """remainder, fmod, floor and trunc division have no bool kernel (PyTorch's NotImplementedError, before any
    zero check); nll_loss checks the weight's size against the classes, and a target over no classes (ignored)
    gives the loss of nothing; a quotient that overflows is inf without a numpy warning."""
    b, z = T.tensor([True, False]), T.tensor([False])
    for name, f in [("remainder", lambda: b.remainder(z)), ("remainder_number", lambda: b % True),
                    ("fmod", lambda: b.fmod(z)), ("floor", lambda: b.div(z, rounding_mode="floor")),
                    ("trunc", lambda: b.div(z, rounding_mode="trunc")), ("floor_divide", lambda: b // z),
                    ("rmod", lambda: True % T.tensor([True])), ("remainder_", lambda: b.remainder_(z)),
                    ("weight_size", lambda: F.nll_loss(T.zeros(2, 3), T.tensor([1, 0]), weight=T.tensor([1.0, 2.0]))),
                    ("weight_2d", lambda: F.nll_loss(T.zeros(2, 3), T.tensor([1, 0]), weight=T.ones(3, 1))),
                    ("weight_spatial", lambda: F.nll_loss(T.zeros(2, 3, 4), T.zeros(2, 4, dtype=T.int64),
                                                          weight=T.ones(2)))]:
        o.err(name, f)
    o["mixed"] = [b.remainder(T.tensor([1, 2])), b.div(T.tensor(2), rounding_mode="floor")]
    x = T.zeros(2, 0, requires_grad=True)
    losses = [F.nll_loss(x, T.tensor([-100, -100]), reduction=r) for r in ("none", "mean", "sum")]
    o["no_classes"] = losses
    losses[2].backward()
    o["no_classes_grad"] = x.grad
    e = T.zeros(0, requires_grad=True)
    o["no_classes_1d"] = F.cross_entropy(e, T.tensor(1), weight=T.tensor([]), ignore_index=1, reduction="none")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        o["overflow"] = T.tensor([1e308], dtype=T.float64).div(T.tensor([1e-10], dtype=T.float64), rounding_mode=None)


# ---------------------------------------------------------------------------------- sixteenth session
@case
def s16_angle(T, F, o):
    x = T.tensor([-1.5, 0.0, -0.0, 2.0, float("nan"), -float("inf"), 0.25], requires_grad=True)
    _fb(T, o, x.angle(), x=x)
    o["int"] = T.angle(T.tensor([-2, 0, 3]))
    o["bool"] = T.tensor([True, False]).angle()
    o["half"] = T.tensor([-1.0, 1.0], dtype=T.float16).angle()


@case
def s16_unsafe_chunk(T, F, o):
    x = leaf(T, 161, 2, 5)
    pieces = x.unsafe_chunk(3, -1)
    o["n"] = len(pieces)
    o.raw("dim", pieces[0].grad_fn._saved_dim)
    _fb(T, o, pieces[0] * 2 + pieces[1], x=x)
    o.err("zero", lambda: x.unsafe_chunk(0))
    o.err("bad_dim", lambda: x.unsafe_chunk(2, 2))
    o.err("scalar", lambda: const(T, 1).sum().unsafe_chunk(2))


@case
def s16_digamma_polygamma(T, F, o):
    for dtype in ("float32", "float64"):
        x = leaf(T, 162, 12, lo=-5.5, hi=11.0, dtype=dtype)
        o[f"digamma.{dtype}"] = x.digamma()
        for n in (1, 2, 3, 4):
            o[f"polygamma{n}.{dtype}"] = T.polygamma(n, x)
        _fb(T, o, T.polygamma(2, x), name=f"pg2.{dtype}", x=x)


@case
def s16_cummax_cummin_dims(T, F, o):
    x = leaf(T, 163, 2, 3)
    v, i = x.cummax(-1)
    o.raw("dim", v.grad_fn._saved_dim)
    _fb(T, o, v, x=x)
    e = T.zeros(1, 0, requires_grad=True)
    v, i = e.cummin(2)
    o["empty.values"], o["empty.indices"] = v, i
    o.raw("empty.dim", v.grad_fn._saved_dim)
    o.err("scalar", lambda: T.tensor(1.0).cummin(3))


@case
def s16_bitwise_not_and_bool_sign(T, F, o):
    b = T.tensor([[[True, False], [False, True]], [[False, False], [True, True]]]).permute(2, 0, 1)
    o["sign"] = b.sign()
    o.raw("sign.stride", list(b.sign().stride()))
    t = T.tensor([1, -2, 0])
    t.bitwise_not_()
    o["inplace"] = t
    o.err("float", lambda: const(T, 164, 2).bitwise_not())
    o.err("invert", lambda: ~const(T, 164, 2))


@case
def s16_numpy_names(T, F, o):
    a = leaf(T, 165, 2, 3)
    o["cat"] = T.cat([a, a], axis=1)
    o["stack"] = T.stack([a, a], axis=2)
    o["sum"] = T.sum(a, axis=1, keepdims=True)
    o["mean"] = T.mean(a, axis=0)
    o["max"] = T.max(a, axis=1).values
    o["argmin"] = T.argmin(a, axis=0, keepdims=True)
    o["softmax"] = T.softmax(a, axis=1)
    o["cumsum"] = T.cumsum(a, axis=1)
    o["var"] = T.var(a, axis=1)
    o["logsumexp"] = T.logsumexp(a, axis=1)
