"""PyTorch-parity cases for ``Tensor.unfold`` and ``as_strided`` (session 11; see ``cases.py`` for the conventions):
values, strides, views, the nodes and what they save, gradients (overlapping windows add up), double backward and
the errors."""
from . import case
from .cases import fwd_bwd, leaf


def _saved(node):
    return {n: getattr(node, n) for n in dir(node) if n.startswith("_saved_")}


def _layout(t):
    return {"shape": list(t.shape), "stride": list(t.stride()), "contiguous": t.is_contiguous(),
            "offset": t.storage_offset()}


_UNFOLDS = [(1, 2, 1), (0, 2, 1), (-1, 3, 2), (1, 4, 1), (1, 2, 10), (1, 0, 1), (0, 3, 3)]


def _unfold_case(k, dim, size, step):
    def c(T, F, o):
        x = leaf(T, 300 + k, 3, 4)
        u = x.unfold(dim, size, step)
        o["layout"] = _layout(u)
        o["saved"] = _saved(u.grad_fn)
        fwd_bwd(T, o, u * 1.5, x=x)
    return c


for _k, (_d, _s, _st) in enumerate(_UNFOLDS):
    case(_unfold_case(_k, _d, _s, _st), name=f"unfold_{_k}")


@case
def unfold_views(T, F, o):
    """Views of views (a transposed input, unfold twice), a 0-dim input, and writing through the view."""
    x = leaf(T, 310, 3, 4, dtype="float64")
    for name, u in [("t", x.t().unfold(1, 2, 1)), ("twice", x.unfold(1, 2, 1).unfold(0, 2, 1)),
                    ("0d", x[0, 0].unfold(0, 1, 1)), ("0d_empty", x[0, 0].unfold(-1, 0, 5))]:
        o[f"{name}.layout"] = _layout(u)
        o[name] = u
        o.fn(f"{name}.grad_fn", u)
    b = T.zeros(3, 4)
    u = b.unfold(1, 2, 1)
    u[0, 1, 1] = 7.0
    o["written"] = b
    o["versions"] = [b._version, u._version, u._base is b]


@case
def unfold_overlapping_gradients_and_double_backward(T, F, o):
    """Overlapping windows: each element gets the sum of its copies' gradients; under create_graph the gradient
    is recorded as UnfoldBackwardBackward0 (saving dim, size, step), whose backward unfolds again."""
    x = leaf(T, 311, 2, 5, dtype="float64")
    u = x.unfold(1, 3, 1)
    g, = T.autograd.grad((u ** 3).sum(), x, create_graph=True)
    o.all(g, "g", depth=4)
    o["g.saved"] = _saved(g.grad_fn)
    h, = T.autograd.grad((g * g).sum(), x)
    o["h"] = h
    z = leaf(T, 312, 1).sum()
    for name, w in [("0d", z.unfold(0, 1, 1)), ("0d_empty", z.unfold(0, 0, 1))]:
        o[f"{name}.grad"] = T.autograd.grad((w * 2).sum(), z, retain_graph=True)[0]


@case
def unfold_errors(T, F, o):
    x = leaf(T, 313, 3, 4)
    for args in [(1, 5, 1), (1, 2, 0), (1, 2, -1), (2, 2, 1), (-3, 2, 1), (1, -1, 1), (1, -1, 0)]:
        o.err(f"err{args}", lambda: x.unfold(*args))
    z = x[0, 0]
    o.err("0d_size", lambda: z.unfold(0, 2, 1))
    o.err("0d_dim", lambda: z.unfold(1, 1, 1))


_STRIDED = [((2, 2), (1, 2), 1), ((2, 2), (1, 2), None), ((3,), (4,), 1), ((2, 3), (0, 1), 2), ((3, 3), (1, 1), None),
            ((), (), 5), ((2, 2), (2, 1), 0), ((0,), (1,), 3)]


def _strided_case(k, size, stride, offset):
    def c(T, F, o):
        x = leaf(T, 320 + k, 3, 4)
        a = x.as_strided(size, stride, offset) if offset is not None else T.as_strided(x, size, stride)
        o["layout"] = _layout(a)
        o["saved"] = _saved(a.grad_fn)
        fwd_bwd(T, o, a * 1.5, x=x)
    return c


for _k, (_sz, _sd, _off) in enumerate(_STRIDED):
    case(_strided_case(_k, _sz, _sd, _off), name=f"as_strided_{_k}")


@case
def as_strided_of_views(T, F, o):
    """The geometry counts from the storage (the base's memory): by default from where the view starts; an input
    that repeats elements (expand) divides the gradient by how often it sees each place."""
    x = leaf(T, 330, 3, 4, dtype="float64")
    for name, view, args in [("sliced", lambda t: t[1:], ((2, 2), (2, 1))), ("sliced_0", lambda t: t[1:], ((2,), (1,), 0)),
                             ("t", lambda t: t.t(), ((4,), (3,))), ("expanded", lambda t: t[0].expand(3, 4), ((2, 2), (1, 1)))]:
        x.grad = None
        a = view(x).as_strided(*args)
        o[f"{name}.layout"] = _layout(a)
        fwd_bwd(T, o, a * 2, name=name, **{f"{name}_x": x})
    b = T.zeros(6)
    a = b.as_strided((2, 2), (1, 2), 1)
    a.add_(1)
    o["written"] = b
    o["versions"] = [b._version, a._version, a._base is b]


@case
def as_strided_double_backward(T, F, o):
    x = leaf(T, 331, 3, 4, dtype="float64")
    for name, args in [("overlap", ((3, 3), (1, 1))), ("offset", ((2, 2), (1, 2), 1))]:
        g, = T.autograd.grad((x.as_strided(*args) ** 3).sum(), x, create_graph=True)
        o.all(g, f"{name}.g", depth=3)
        o[f"{name}.h"] = T.autograd.grad((g * g).sum(), x)[0]


@case
def as_strided_errors(T, F, o):
    x = leaf(T, 332, 3, 4)
    for k, args in enumerate([((2, 2), (1,)), ((2, 2), (1, -1)), ((20,), (1,)), ((2,), (1,), -1), ((-1,), (1,)),
                              ((3,), (1,), 10), ((2,), (1,), 12), ((-1,), (1,), -1), ((2,), (-1,), -1), ((2.5,), (1,)),
                              (2, 1), ((2,), (1,), 2.5), ((2,), 1)]):
        o.err(f"err{k}", lambda: x.as_strided(*args))
    o.err("view_bounds", lambda: x[1:].as_strided((20,), (1,)))
    o.err("t_bounds", lambda: x.t().as_strided((20,), (1,)))
    o.err("f64_bounds", lambda: x.double().as_strided((20,), (1,)))
