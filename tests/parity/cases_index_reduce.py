"""PyTorch-parity cases for the index ops ``put`` / ``put_``, ``scatter_reduce`` / ``scatter_reduce_`` and
``index_reduce`` / ``index_reduce_`` (see ``cases.py`` for the conventions): values, gradients (ties of amax/amin
share the gradient, prod with zeros), node names, ``next_functions`` trees, saved values, second derivatives and
errors."""
import warnings

from . import case
from .cases import arr, const, fwd_bwd, leaf
from .cases_conv import twice_case

_REDUCES = ("sum", "prod", "mean", "amax", "amin")


def _long(T, values):
    return T.tensor(values, dtype=T.int64)


def _quiet(fn):
    """``fn()`` without index_reduce's "in beta" warning (recorded once, in ``ir_saved``)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return fn()


def _fwd_bwd_named(T, o, y, name, x, src):
    """``fwd_bwd`` for one of several results of the same leaves: their gradients recorded as ``name.x.grad``."""
    o.all(y, name, 2)
    y.backward(T.tensor(arr(99, *tuple(y.shape)).tolist(), dtype=y.dtype))
    o[f"{name}.x.grad"], o[f"{name}.src.grad"] = x.grad, src.grad
    x.grad = src.grad = None


# ---------------------------------------------------------------------------------- put
def _put_case(accumulate, dtype):
    def c(T, F, o):
        x, s = leaf(T, 1, 3, 4, dtype=dtype), leaf(T, 2, 5, dtype=dtype)
        fwd_bwd(T, o, x.put(_long(T, [-1, 0, 5, 7, 2]), s, accumulate),
                depth=3, x=x, s=s)
    return c


for _acc in (False, True):
    case(_put_case(_acc, "float32"), name=f"put_accumulate_{_acc}")
    case(twice_case([(3, 4), (5,)], lambda T, F, x, s, a=_acc: x.put(_long(T, [-1, 0, 5, 7, 2]), s, a)),
         name=f"put_twice_accumulate_{_acc}")


@case
def put_saved_and_in_place(T, F, o):
    x, s = leaf(T, 3, 2, 3), leaf(T, 4, 2, 2)
    y = x.put(_long(T, [[1, 1], [-6, 4]]), s, accumulate=True)
    o["y"] = y
    o["saved.accumulate"], o["saved.index"], o["saved.source"] = (
        y.grad_fn._saved_accumulate, y.grad_fn._saved_index, y.grad_fn._saved_source)
    o["saved.source.nograd"] = x.put(_long(T, [0]), const(T, 5, 1)).grad_fn._saved_source
    z = x * 2
    z.put_(_long(T, [0, 5]), s[0])
    fwd_bwd(T, o, z, name="z", depth=4, x=x, s=s)
    w = (x * 1).t()
    w.put_(_long(T, [1]), const(T, 6, 1))
    o["w"], o["w.stride"] = w, w.stride()
    o["fn"] = T.put(const(T, 7, 4), _long(T, [3, 3]), const(T, 8, 2), accumulate=True)
    o["long"] = T.tensor([1, 2, 3]).put(_long(T, [0, -1]), _long(T, [7, 9]))
    o["scalar"] = T.tensor(2.0).put(_long(T, [0]), T.tensor([5.0]))
    o["empty"] = T.zeros(0).put(_long(T, []), T.zeros(0))


# ---------------------------------------------------------------------------------- scatter_reduce
_SR_INDEX = [[0, 1, 0, 2], [1, 1, 0, 0], [2, 0, 1, 1]]  # (3, 4): dim 0 into a (3, 4) self, several values per place


def _sr_case(reduce, include_self, dim):
    def c(T, F, o):
        x, src = leaf(T, 10, 3, 4), leaf(T, 11, 3, 4, lo=0.5 if reduce == "prod" else -2.0)
        index = _long(T, _SR_INDEX if dim == 0 else [[3, 0, 3, 1], [0, 0, 2, 2], [1, 1, 1, 0]])
        y = x.scatter_reduce(dim, index, src, reduce, include_self=include_self)
        fwd_bwd(T, o, y, depth=3, x=x, src=src)
    return c


for _r in _REDUCES:
    for _inc in (True, False):
        for _dim in (0, 1):
            case(_sr_case(_r, _inc, _dim), name=f"sr_{_r}_self_{_inc}_dim{_dim}")
        case(twice_case([(3, 4), (3, 4)], lambda T, F, x, s, r=_r, i=_inc: x.scatter_reduce(
            0, _long(T, _SR_INDEX), s, r, include_self=i), seed=12), name=f"sr_twice_{_r}_self_{_inc}")


@case
def sr_saved_and_in_place(T, F, o):
    x, src = leaf(T, 13, 2, 3), leaf(T, 14, 2, 3)
    y = x.scatter_reduce(-1, _long(T, [[0, 0, 2], [1, 2, 2]]), src, "amax", include_self=False)
    o["y"] = y
    for name in ("dim", "include_self", "index", "reduce", "result", "self", "src"):
        o[f"saved.{name}"] = getattr(y.grad_fn, f"_saved_{name}")
    z = x * 1
    z.scatter_reduce_(1, _long(T, [[0, 0, 2], [1, 2, 2]]), src, "mean")
    fwd_bwd(T, o, z, name="z", depth=4, x=x, src=src)
    o["fn"] = T.scatter_reduce(const(T, 15, 4), 0, _long(T, [1, 1, 3]), const(T, 16, 3), "prod")
    o["max"] = const(T, 15, 4).scatter_reduce(0, _long(T, [1, 1, 3]), const(T, 16, 3), "max")
    o["min"] = const(T, 15, 4).scatter_reduce(0, _long(T, [1, 1, 3]), const(T, 16, 3), "min")
    o["scalar"] = T.tensor(3.0).scatter_reduce(0, T.tensor(0), T.tensor(2.0), "prod")
    o["int32_index"] = const(T, 15, 4).scatter_reduce(0, T.tensor([0, 0], dtype=T.int32), const(T, 16, 2), "sum")
    o["src_larger"] = const(T, 15, 4).scatter_reduce(0, _long(T, [2, 2]), const(T, 16, 5), "amin")


@case
def sr_ties_zeros_and_ints(T, F, o):
    x = T.tensor([[1.0, 5.0, 2.0], [3.0, 0.0, 4.0]], requires_grad=True)
    src = T.tensor([[5.0, 5.0, 1.0, 0.0], [3.0, 0.0, 0.0, 4.0]], requires_grad=True)
    index = _long(T, [[1, 1, 0, 2], [0, 1, 1, 2]])
    for reduce in _REDUCES:
        for include_self in (True, False):
            y = x.scatter_reduce(1, index, src, reduce, include_self=include_self)
            _fwd_bwd_named(T, o, y, f"{reduce}_{include_self}", x, src)
    ints = T.tensor([5, -7, 9, 2])
    for reduce in _REDUCES:
        for include_self in (True, False):
            o[f"int_{reduce}_{include_self}"] = ints.scatter_reduce(
                0, _long(T, [0, 0, 1, 1, 2]), _long(T, [2, 3, -4, 6, 1]), reduce, include_self=include_self)
    o["bool_sum"] = T.tensor([True, False]).scatter_reduce(0, _long(T, [0, 1]), T.tensor([True, False]), "sum")
    nan = float("nan")
    o["nan_amax"] = T.tensor([1.0, nan, 2.0]).scatter_reduce(0, _long(T, [0, 0, 2]), T.tensor([3.0, nan, 1.0]),
                                                             "amax")


# ---------------------------------------------------------------------------------- index_reduce
def _ir_case(reduce, include_self, dim):
    def c(T, F, o):
        x, src = leaf(T, 20, 3, 4), leaf(T, 21, 4, 4, lo=0.5 if reduce == "prod" else -2.0)
        if dim == 1:
            src = leaf(T, 21, 3, 5, lo=0.5 if reduce == "prod" else -2.0)
        index = _long(T, [0, 2, 0, 1] if dim == 0 else [3, 0, 3, 1, 3])
        y = _quiet(lambda: x.index_reduce(dim, index, src, reduce, include_self=include_self))
        fwd_bwd(T, o, y, depth=3, x=x, src=src)
    return c


for _r in _REDUCES[1:]:
    for _inc in (True, False):
        for _dim in (0, 1):
            case(_ir_case(_r, _inc, _dim), name=f"ir_{_r}_self_{_inc}_dim{_dim}")
        case(twice_case([(3, 4), (4, 4)], lambda T, F, x, s, r=_r, i=_inc: _quiet(lambda: x.index_reduce(
            0, _long(T, [0, 2, 0, 1]), s, r, include_self=i)), seed=22), name=f"ir_twice_{_r}_self_{_inc}")


@case
def ir_saved_and_in_place(T, F, o):
    x, src = leaf(T, 23, 2, 3), leaf(T, 24, 2, 2)
    y = _quiet(lambda: x.index_reduce(-1, _long(T, [2, 2]), src, "amin", include_self=False))
    o["y"] = y
    for name in ("dim", "include_self", "index", "reduce", "result", "self", "source"):
        o[f"saved.{name}"] = getattr(y.grad_fn, f"_saved_{name}")
    z = x * 1
    _quiet(lambda: z.index_reduce_(0, _long(T, [1, 1]), src.t().reshape(2, 2).repeat(1, 2)[:, :3], "prod"))
    fwd_bwd(T, o, z, name="z", depth=4, x=x, src=src)
    o["int32_index"] = _quiet(lambda: const(T, 25, 3).index_reduce(0, T.tensor([1, 1], dtype=T.int32),
                                                                   const(T, 26, 2), "mean"))
    o["scalar"] = _quiet(lambda: T.tensor(3.0).index_reduce(0, T.tensor(0), T.tensor(2.0), "prod"))


@case
def ir_ties_zeros_and_ints(T, F, o):
    x = T.tensor([[1.0, 5.0], [3.0, 0.0], [2.0, 2.0]], requires_grad=True)
    src = T.tensor([[1.0, 5.0], [1.0, 0.0], [0.0, 2.0], [2.0, 0.0]], requires_grad=True)
    index = _long(T, [0, 0, 1, 2])
    for reduce in _REDUCES[1:]:
        for include_self in (True, False):
            y = _quiet(lambda: x.index_reduce(0, index, src, reduce, include_self=include_self))
            _fwd_bwd_named(T, o, y, f"{reduce}_{include_self}", x, src)
    ints = T.tensor([5, -7, 9, 2])
    for reduce in _REDUCES[1:]:
        for include_self in (True, False):
            o[f"int_{reduce}_{include_self}"] = _quiet(lambda: ints.index_reduce(
                0, _long(T, [0, 0, 1, 1, 2]), _long(T, [2, 3, -4, 6, 1]), reduce, include_self=include_self))


# ---------------------------------------------------------------------------------- errors
_ERRORS = {
    "put_index_list": lambda T: const(T, 1, 4).put([0, 1], const(T, 2, 2)),
    "put__index_list": lambda T: const(T, 1, 4).put_([0, 1], const(T, 2, 2)),
    "put_index_int32": lambda T: const(T, 1, 4).put(T.tensor([0, 1], dtype=T.int32), const(T, 2, 2)),
    "put_index_float": lambda T: const(T, 1, 4).put(T.tensor([0.0, 1.0]), const(T, 2, 2)),
    "put_source_dtype": lambda T: const(T, 1, 4).put(_long(T, [0, 1]), const(T, 2, 2, dtype="float64")),
    "put_numel": lambda T: const(T, 1, 4).put(_long(T, [0, 1, 2]), const(T, 2, 2)),
    "put_out_of_range": lambda T: const(T, 1, 4).put(_long(T, [0, 4]), const(T, 2, 2)),
    "put_out_of_range_negative": lambda T: const(T, 1, 4).put(_long(T, [-5, 0]), const(T, 2, 2)),
    "put_empty": lambda T: T.zeros(0).put(_long(T, [0]), const(T, 2, 1)),
    "put_leaf_in_place": lambda T: leaf(T, 1, 4).put_(_long(T, [0]), const(T, 2, 1)),
    "sr_reduce": lambda T: const(T, 1, 2, 3).scatter_reduce(1, _long(T, [[0]]), const(T, 2, 1, 1), "foo"),
    "sr_reduce_and_dtype": lambda T: const(T, 1, 2, 3).scatter_reduce(1, _long(T, [[0]]), const(
        T, 2, 1, 1, dtype="float64"), "foo"),
    "sr_index_list": lambda T: const(T, 1, 2, 3).scatter_reduce(1, [[0]], const(T, 2, 1, 1), "sum"),
    "sr__index_list": lambda T: const(T, 1, 2, 3).scatter_reduce_(1, [[0]], const(T, 2, 1, 1), "sum"),
    "ir__index_list": lambda T: const(T, 1, 3, 2).index_reduce_(0, [0], const(T, 2, 1, 2), "prod"),
    "sr_index_float": lambda T: const(T, 1, 2, 3).scatter_reduce(1, T.tensor([[0.0]]), const(T, 2, 1, 1), "sum"),
    "sr_dtype": lambda T: const(T, 1, 2, 3).scatter_reduce(1, _long(T, [[0]]), const(T, 2, 1, 1, dtype="float64"),
                                                           "sum"),
    "sr_out_of_range": lambda T: const(T, 1, 2, 3).scatter_reduce(1, _long(T, [[3]]), const(T, 2, 1, 1), "sum"),
    "sr_negative": lambda T: const(T, 1, 2, 3).scatter_reduce(1, _long(T, [[-1]]), const(T, 2, 1, 1), "sum"),
    "sr_dim": lambda T: const(T, 1, 2, 3).scatter_reduce(2, _long(T, [[0]]), const(T, 2, 1, 1), "sum"),
    "sr_index_dims": lambda T: const(T, 1, 2, 3).scatter_reduce(1, _long(T, [0]), const(T, 2, 1, 1), "sum"),
    "sr_index_larger": lambda T: const(T, 1, 2, 3).scatter_reduce(1, _long(T, [[0, 1, 2, 0]]), const(T, 2, 2, 2),
                                                                  "sum"),
    "sr_index_larger_than_src": lambda T: const(T, 1, 2, 3).scatter_reduce(1, _long(T, [[0, 1, 2]]), const(
        T, 2, 2, 2), "sum"),
    "sr_src_larger_backward": lambda T: const(T, 1, 3).requires_grad_().scatter_reduce(0, _long(T, [0]), leaf(
        T, 2, 2), "sum").sum().backward(),
    "sr_max_backward": lambda T: const(T, 1, 3).requires_grad_().scatter_reduce(0, _long(T, [0]), const(
        T, 2, 1), "max").sum().backward(),
    "ir_reduce_sum": lambda T: const(T, 1, 3, 2).index_reduce(0, _long(T, [0]), const(T, 2, 1, 2), "sum"),
    "ir_reduce_and_dtype": lambda T: const(T, 1, 3, 2).index_reduce(0, _long(T, [0]), const(
        T, 2, 1, 2, dtype="float64"), "foo"),
    "ir_index_float": lambda T: const(T, 1, 3, 2).index_reduce(0, T.tensor([0.0]), const(T, 2, 1, 2), "prod"),
    "ir_index_list": lambda T: const(T, 1, 3, 2).index_reduce(0, [0], const(T, 2, 1, 2), "prod"),
    "ir_dtype": lambda T: const(T, 1, 3, 2).index_reduce(0, _long(T, [0]), const(T, 2, 1, 2, dtype="float64"),
                                                         "prod"),
    "ir_numel": lambda T: const(T, 1, 3, 2).index_reduce(0, _long(T, [0, 1]), const(T, 2, 1, 2), "prod"),
    "ir_index_2d": lambda T: const(T, 1, 3, 2).index_reduce(0, _long(T, [[0]]), const(T, 2, 1, 2), "prod"),
    "ir_out_of_range": lambda T: const(T, 1, 3, 2).index_reduce(0, _long(T, [3]), const(T, 2, 1, 2), "prod"),
    "ir_negative": lambda T: const(T, 1, 3, 2).index_reduce(0, _long(T, [-1]), const(T, 2, 1, 2), "prod"),
    "ir_shape": lambda T: const(T, 1, 3, 2).index_reduce(0, _long(T, [0]), const(T, 2, 1, 3), "prod"),
    "ir_source_dims": lambda T: const(T, 1, 3, 2).index_reduce(0, _long(T, [0, 1]), const(T, 2, 2), "prod"),
    "ir_self_0d_source_1d": lambda T: T.tensor(3.0).index_reduce(0, _long(T, [0, 0]), T.tensor([2.0, 4.0]), "amax"),
    "ir_self_0d_source_1": lambda T: T.tensor(3.0).index_reduce(0, _long(T, [0]), T.tensor([2.0]), "amax"),
    "ir_self_1d_source_0d": lambda T: T.tensor([3.0, 4.0]).index_reduce(0, _long(T, [1]), T.tensor(2.0), "amax"),
    "ir_self_1d_source_2d": lambda T: T.tensor([3.0, 4.0]).index_reduce(0, _long(T, [1]), T.tensor([[2.0]]), "amax"),
    "ir_dim_past_source": lambda T: T.tensor([[3.0, 4.0]]).index_reduce(-1, _long(T, [0]), T.tensor([2.0, 5.0]),
                                                                        "amax"),
    "ir_dim_and_index_float": lambda T: T.tensor([[3.0, 4.0]]).index_reduce(-1, T.tensor([0.0]), T.tensor([2.0]),
                                                                            "amax"),
    "ir_dim": lambda T: const(T, 1, 3, 2).index_reduce(2, _long(T, [0]), const(T, 2, 1, 2), "prod"),
}


@case
def index_reduce_errors(T, F, o):
    for name, fn in _ERRORS.items():
        o.err(name, lambda: _quiet(lambda: fn(T)))


@case
def index_reduce_layouts_and_bool(T, F, o):
    x = T.tensor([[1, 2, 3], [4, 5, 6]]).t()  # (strides (1, 3): put keeps them, the reductions are row-major)
    for name, y in {"put": x.put(_long(T, [1, 2]), _long(T, [7, 8])),
                    "sr": x.scatter_reduce(0, _long(T, [[0, 0], [2, 1]]), _long(T, [[7, 8], [1, 1]]), "prod"),
                    "ir": _quiet(lambda: x.index_reduce(1, _long(T, [1, 1]), _long(T, [[7, 8], [1, 1], [2, 2]]), "amax",
                                                        include_self=False))}.items():
        o[name], o[f"{name}.stride"] = y, y.stride()
    b = T.tensor([True, False, True])
    for reduce in ("sum", "prod", "amax", "amin"):
        o[f"bool_{reduce}"] = b.scatter_reduce(0, _long(T, [0, 0, 1]), T.tensor([False, True, True]), reduce,
                                               include_self=reduce != "amin")
    o.err("bool_mean", lambda: b.scatter_reduce(0, _long(T, [0, 5]), T.tensor([False, True]), "mean"))
    o.err("bool_index_reduce", lambda: _quiet(lambda: b.index_reduce(0, _long(T, [5]), T.tensor([True]), "amax")))
    o["bool_put"] = b.put(_long(T, [0, 0, 1]), T.tensor([False, True, True]), accumulate=True)
    o["float16_mean"] = T.tensor([1.0, 2.0], dtype=T.float16).scatter_reduce(
        0, _long(T, [0, 0]), T.tensor([3.0, 4.0], dtype=T.float16), "mean")
    o["uint8_amin"] = T.tensor([1, 2], dtype=T.uint8).scatter_reduce(
        0, _long(T, [0, 0]), T.tensor([3, 4], dtype=T.uint8), "amin", include_self=False)
