"""The PyTorch-parity cases: small programs written against PyTorch's API.

Each case is ``def name(T, F, o)``: ``T`` is ``torch`` or ``minigrad``, ``F`` its ``nn.functional``
and ``o`` the observation dict (see ``tests/parity/__init__.py`` for the helpers and how values,
names, trees and messages are encoded and compared).  Inputs are built from literal lists or from
a fixed ``numpy.random.RandomState`` through ``T.tensor(list, dtype=..., requires_grad=...)``, never
from ``T.randn`` (minigrad's random numbers deliberately differ from PyTorch's).

``scripts/make_fixtures.py`` runs every case with PyTorch and records ``tests/fixtures/parity.json``;
``tests/test_parity.py`` runs them with minigrad and compares (and, when torch is installed, also
compares live).  Where minigrad deliberately differs, the aspect is left out with a comment.
"""
import numpy as np

from . import case


# ---------------------------------------------------------------------------------- inputs
def arr(seed, *shape, lo=-2.0, hi=2.0):
    """Deterministic values in [lo, hi), rounded to 4 decimals (readable in the fixture)."""
    return np.round(np.random.RandomState(seed).uniform(lo, hi, size=shape), 4)


def leaf(T, seed, *shape, lo=-2.0, hi=2.0, dtype="float32", rg=True):
    return T.tensor(arr(seed, *shape, lo=lo, hi=hi).tolist(), dtype=getattr(T, dtype), requires_grad=rg)


def const(T, seed, *shape, lo=-2.0, hi=2.0, dtype="float32"):
    return leaf(T, seed, *shape, lo=lo, hi=hi, dtype=dtype, rg=False)


def fwd_bwd(T, o, y, name="y", depth=3, **leaves):
    """Record ``y`` (value, grad_fn, tree), backprop a fixed non-uniform gradient, record the leaves' grads."""
    o.all(y, name, depth)
    g = T.tensor(arr(99, *tuple(y.shape)).tolist(), dtype=y.dtype) if y.dim() else None
    y.backward(g)
    o.grads("", **leaves)


# ---------------------------------------------------------------------------------- binary ops, broadcasting
_BINARY = {
    "add": (lambda a, b: a + b, None),
    "sub": (lambda a, b: a - b, None),
    "mul": (lambda a, b: a * b, None),
    "div": (lambda a, b: a / b, "b>0"),
    "pow": (lambda a, b: a ** b, "a>0"),
    "maximum": (lambda a, b: a.maximum(b), None),
}
_SHAPES = [((3,), (3,)), ((2, 3), (3,)), ((2, 1), (1, 3)), ((2, 3), ()), ((4, 1, 3), (2, 1)), ((), (2, 2))]


def _binary_case(op, fn, cond, sa, sb, dtype):
    def c(T, F, o):
        a = leaf(T, 1, *sa, lo=0.5 if cond == "a>0" else -2.0, dtype=dtype)
        b = leaf(T, 2, *sb, lo=0.5 if cond == "b>0" else -2.0, dtype=dtype)
        fwd_bwd(T, o, fn(a, b), a=a, b=b)
    return c


for _op, (_fn, _cond) in _BINARY.items():
    for _i, (_sa, _sb) in enumerate(_SHAPES):
        case(_binary_case(_op, _fn, _cond, _sa, _sb, "float32"), name=f"binary_{_op}_{_i}")
    case(_binary_case(_op, _fn, _cond, (2, 3), (2, 1), "float64"), name=f"binary_{_op}_f64")


# Python scalars on both sides (int and float): the scalar becomes a wrapped number, (None, 0) in the tree
_SCALAR = {
    "add_r": lambda x, s: x + s, "add_l": lambda x, s: s + x,
    "sub_r": lambda x, s: x - s, "sub_l": lambda x, s: s - x,
    "mul_r": lambda x, s: x * s, "mul_l": lambda x, s: s * x,
    "div_r": lambda x, s: x / s, "div_l": lambda x, s: s / x,
    "pow_r": lambda x, s: x ** s, "pow_l": lambda x, s: s ** x,
}


def _scalar_case(fn, s):
    def c(T, F, o):
        x = leaf(T, 3, 2, 3, lo=0.5)
        fwd_bwd(T, o, fn(x, s), x=x)
    return c


for _name, _fn in _SCALAR.items():
    case(_scalar_case(_fn, 2.5), name=f"scalar_{_name}_float")
    case(_scalar_case(_fn, 2), name=f"scalar_{_name}_int")


# ---------------------------------------------------------------------------------- unary ops
_UNARY = {
    "neg": (lambda T, x: -x, -2.0),
    "neg_method": (lambda T, x: x.neg(), -2.0),
    "exp": (lambda T, x: x.exp(), -2.0),
    "log": (lambda T, x: x.log(), 0.2),
    "sqrt": (lambda T, x: x.sqrt(), 0.2),
    "abs": (lambda T, x: x.abs(), -2.0),
    "tanh": (lambda T, x: x.tanh(), -2.0),
    "sigmoid": (lambda T, x: x.sigmoid(), -2.0),
    "relu": (lambda T, x: x.relu(), -2.0),
    "reciprocal": (lambda T, x: x.reciprocal(), 0.5),
    "pow2": (lambda T, x: x ** 2, -2.0),
    "pow3": (lambda T, x: x.pow(3), -2.0),
    "pow_half": (lambda T, x: x ** 0.5, 0.2),
    "pow_neg1": (lambda T, x: x ** -1, 0.5),
    "pow0": (lambda T, x: x ** 0, -2.0),
    "torch_exp": (lambda T, x: T.exp(x), -2.0),
    "torch_log": (lambda T, x: T.log(x), 0.2),
    "torch_sigmoid": (lambda T, x: T.sigmoid(x), -2.0),
    "torch_tanh": (lambda T, x: T.tanh(x), -2.0),
    "torch_relu": (lambda T, x: T.relu(x), -2.0),
    "torch_pow": (lambda T, x: T.pow(x, 3), -2.0),
    "torch_abs": (lambda T, x: T.abs(x), -2.0),
    "torch_sqrt": (lambda T, x: T.sqrt(x), 0.2),
    "F_relu": (lambda T, x: T.nn.functional.relu(x), -2.0),
    "F_sigmoid": (lambda T, x: T.nn.functional.sigmoid(x), -2.0),
    "F_tanh": (lambda T, x: T.nn.functional.tanh(x), -2.0),
    "clamp_both": (lambda T, x: x.clamp(-0.5, 0.5), -2.0),
    "clamp_min": (lambda T, x: x.clamp(min=0.0), -2.0),
    "clamp_max": (lambda T, x: T.clamp(x, max=0.3), -2.0),
    "clip": (lambda T, x: x.clip(-1, 1), -2.0),
}


def _unary_case(fn, lo, dtype):
    def c(T, F, o):
        x = leaf(T, 4, 2, 3, lo=lo, dtype=dtype)
        fwd_bwd(T, o, fn(T, x), x=x)
    return c


for _name, (_fn, _lo) in _UNARY.items():
    case(_unary_case(_fn, _lo, "float32"), name=f"unary_{_name}")
    case(_unary_case(_fn, _lo, "float64"), name=f"unary_{_name}_f64")


# ---------------------------------------------------------------------------------- elementwise specifics
@case
def kinks_at_zero(T, F, o):
    """relu, abs and clamp exactly at their kinks: PyTorch's subgradient choices."""
    x = T.tensor([-1.0, 0.0, 1.0, 0.5, -0.5], requires_grad=True)
    for name, f in [("relu", lambda v: v.relu()), ("abs", lambda v: v.abs()),
                    ("clamp", lambda v: v.clamp(-0.5, 0.5)), ("sqrt_pos", lambda v: (v * v).sqrt())]:
        x.grad = None
        y = f(x)
        y.sum().backward()
        o[f"{name}.y"] = y
        o[f"{name}.grad"] = x.grad


@case
def maximum_ties(T, F, o):
    a = T.tensor([1.0, 2.0, 3.0], requires_grad=True)
    b = T.tensor([1.0, 3.0, 2.0], requires_grad=True)
    fwd_bwd(T, o, T.maximum(a, b), a=a, b=b)


@case
def clamp_none_error(T, F, o):
    x = leaf(T, 5, 3)
    o.err("error", lambda: x.clamp())


@case
def where_broadcast(T, F, o):
    a = leaf(T, 6, 2, 3)
    b = leaf(T, 7, 3)
    cond = T.tensor([[True, False, True], [False, False, True]])
    fwd_bwd(T, o, T.where(cond, a, b), a=a, b=b)


@case
def where_scalar_and_mask(T, F, o):
    x = leaf(T, 8, 5)
    y = T.where(x > 0, x, 0.0)
    fwd_bwd(T, o, y, x=x)


@case
def add_sub_alpha(T, F, o):
    a, b = leaf(T, 9, 3), leaf(T, 10, 3)
    o["add"] = a.add(b, alpha=2)
    y = a.sub(b, alpha=0.5)
    fwd_bwd(T, o, y, a=a, b=b)


@case
def self_mul_fanin(T, F, o):
    """x * x: both edges of MulBackward0 lead to the same AccumulateGrad."""
    x = leaf(T, 11, 3)
    y = x * x
    o["same_node"] = y.grad_fn.next_functions[0][0] is y.grad_fn.next_functions[1][0]
    o["variable_is_x"] = y.grad_fn.next_functions[0][0].variable is x
    fwd_bwd(T, o, y, x=x)


@case
def mixed_dtype_promotion(T, F, o):
    a = leaf(T, 12, 3)
    b = leaf(T, 13, 3, dtype="float64")
    y = a * b
    o["dtype"] = y.dtype
    fwd_bwd(T, o, y, a=a, b=b)


@case
def promotion_table(T, F, o):
    i = T.tensor([1, 2, 3])
    f = T.tensor([0.5, 1.5, 2.5])
    d = T.tensor([0.5, 1.5, 2.5], dtype=T.float64)
    bo = T.tensor([True, False, True])
    o["int*2"] = i * 2
    o["int*2.5"] = i * 2.5
    o["int/2"] = i / 2
    o["int+float"] = i + f
    o["float+double"] = f + d
    o["float*double0d"] = f * T.tensor(2.0, dtype=T.float64)
    o["double*float0d"] = d * T.tensor(2.0)
    o["bool+int"] = bo + i
    o["bool*1.5"] = bo * 1.5
    o["int0d*2.5"] = T.tensor(3) * 2.5
    o["int-1"] = 1 - i
    o["int**2"] = i ** 2
    o["cmp"] = f > 1.0
    o["eq"] = i == T.tensor([1, 0, 3])


@case
def to_dtype_grad(T, F, o):
    x = leaf(T, 14, 3)
    y = x.to(T.float64)
    o["y.dtype"] = y.dtype
    z = (y * y).sum()
    fwd_bwd(T, o, z, name="z", depth=4, x=x)
    o["same"] = x.to(T.float32) is x
    o["double"] = x.double().grad_fn.name()
    o["float_of_double"] = x.double().float().dtype


# ---------------------------------------------------------------------------------- reductions
_REDUCE = {
    "sum": lambda x: x.sum(),
    "sum_dim0": lambda x: x.sum(0),
    "sum_dim1": lambda x: x.sum(1),
    "sum_dim_neg": lambda x: x.sum(-1),
    "sum_keepdim": lambda x: x.sum(1, keepdim=True),
    "sum_tuple": lambda x: x.sum((0, 2)),
    "sum_list_keepdim": lambda x: x.sum([0, 1], keepdim=True),
    "sum_dim_kw": lambda x: x.sum(dim=2),
    "mean": lambda x: x.mean(),
    "mean_dim": lambda x: x.mean(1),
    "mean_keepdim": lambda x: x.mean(-1, keepdim=True),
    "mean_tuple": lambda x: x.mean((1, 2)),
    "max": lambda x: x.max(),
    "max_dim_values": lambda x: x.max(1)[0],
    "max_dim_keepdim": lambda x: x.max(2, keepdim=True).values,
    "min": lambda x: x.min(),
    "min_dim_values": lambda x: x.min(0).values,
}


def _reduce_case(fn):
    def c(T, F, o):
        x = leaf(T, 15, 2, 3, 4)
        fwd_bwd(T, o, fn(x), x=x)
    return c


for _name, _fn in _REDUCE.items():
    case(_reduce_case(_fn), name=f"reduce_{_name}")


@case
def max_dim_namedtuple(T, F, o):
    x = leaf(T, 16, 3, 4)
    r = x.max(1)
    o["type"] = type(r).__name__
    o["values"] = r.values
    o["indices"] = r.indices
    o["indices.requires_grad"] = r.indices.requires_grad
    o["values.fn"] = r[0].grad_fn.name()
    o.repr("repr", T.tensor([[1.0, 5.0], [7.0, 2.0]]).max(1))
    v, i = T.tensor([[1.0, 5.0], [7.0, 2.0]]).min(dim=0)
    o["min.values"], o["min.indices"] = v, i


@case
def max_ties(T, F, o):
    """All-reduce max splits the gradient between ties; max(dim) picks one index."""
    x = T.tensor([[1.0, 3.0, 3.0], [2.0, 0.0, 2.0]], requires_grad=True)
    x.max().backward()
    o["max.grad"] = x.grad
    x.grad = None
    x.max(1).values.sum().backward()
    o["max_dim.grad"] = x.grad
    o["argmax"] = x.argmax()
    o["argmax1"] = x.argmax(1)
    o["argmax1k"] = x.argmax(dim=1, keepdim=True)


@case
def reduce_0d_and_empty(T, F, o):
    s = T.tensor(2.5, requires_grad=True)
    o.val("0d.sum", lambda: s.sum())
    o.val("0d.sum_dim", lambda: s.sum(0))
    o.val("0d.sum_dim_neg", lambda: s.sum(-1, keepdim=True))
    o.val("0d.mean", lambda: s.mean())
    o.val("0d.mean_dim", lambda: s.mean(0))
    o.val("0d.max", lambda: s.max())
    o.val("0d.softmax", lambda: s.softmax(0))
    e = T.tensor([])
    o.val("empty.sum", lambda: e.sum())
    o.val("empty.shape", lambda: e.shape)
    o.err("empty.max", lambda: e.max())


@case
def mean_int_error(T, F, o):
    o.err("error", lambda: T.tensor([1, 2, 3]).mean())
    o["sum_int"] = T.tensor([1, 2, 3]).sum()
    o["sum_bool"] = T.tensor([True, True, False]).sum()
    o["sum_dtype"] = T.tensor([1, 2, 3]).sum(dtype=T.float64)


@case
def reduce_dim_errors(T, F, o):
    x = leaf(T, 17, 2, 3)
    o.err("sum2", lambda: x.sum(2))
    o.err("sum-3", lambda: x.sum(-3))
    o.err("mean5", lambda: x.mean(5))
    o.err("max2", lambda: x.max(2))
    o.err("softmax3", lambda: x.softmax(3))
    o.err("transpose", lambda: x.transpose(0, 5))
    o.err("unsqueeze", lambda: x.unsqueeze(4))
    o.err("squeeze", lambda: x.squeeze(3))
    o.err("size", lambda: x.size(5))
    o.err("cat", lambda: T.cat([x, x], dim=2))
    o.err("0d", lambda: T.tensor(1.0).sum(1))


# ---------------------------------------------------------------------------------- softmax family
_SOFTMAX = {
    "softmax1": lambda T, F, x: x.softmax(1),
    "softmax0": lambda T, F, x: x.softmax(dim=0),
    "softmax_neg": lambda T, F, x: T.softmax(x, -1),
    "log_softmax1": lambda T, F, x: x.log_softmax(1),
    "log_softmax0": lambda T, F, x: T.log_softmax(x, 0),
    "F_softmax": lambda T, F, x: F.softmax(x, dim=1),
    "F_log_softmax": lambda T, F, x: F.log_softmax(x, dim=-1),
    "softmax_3d": lambda T, F, x: x.reshape(2, 2, 3).softmax(1),
}


def _softmax_case(fn, dtype):
    def c(T, F, o):
        x = leaf(T, 18, 4, 3, lo=-3.0, hi=3.0, dtype=dtype)
        fwd_bwd(T, o, fn(T, F, x), x=x)
    return c


for _name, _fn in _SOFTMAX.items():
    case(_softmax_case(_fn, "float32"), name=f"softmax_{_name}")
case(_softmax_case(_SOFTMAX["log_softmax1"], "float64"), name="softmax_log_softmax1_f64")


@case
def softmax_large_values(T, F, o):
    x = T.tensor([[1000.0, 1001.0, 999.0], [-1000.0, -1000.0, -990.0]], requires_grad=True)
    y = F.log_softmax(x, dim=1)
    fwd_bwd(T, o, y, x=x)
    o["softmax"] = x.softmax(1)


# ---------------------------------------------------------------------------------- losses
@case
def mse_loss_mean(T, F, o):
    x, t = leaf(T, 19, 4, 2), const(T, 20, 4, 2)
    fwd_bwd(T, o, F.mse_loss(x, t), x=x)


@case
def mse_loss_reductions(T, F, o):
    x, t = leaf(T, 21, 3), leaf(T, 22, 3)
    fwd_bwd(T, o, F.mse_loss(x, t, reduction="sum"), x=x, t=t)
    y = F.mse_loss(x, t, reduction="none")
    o.all(y, "none")
    o.err("bad", lambda: F.mse_loss(x, t, reduction="avg"))


@case
def mse_loss_broadcast_warning(T, F, o):
    x, t = leaf(T, 23, 3, 1), const(T, 24, 3)
    y = o.warns("warnings", lambda: F.mse_loss(x, t))
    fwd_bwd(T, o, y, x=x)


@case
def cross_entropy_basic(T, F, o):
    x = leaf(T, 25, 4, 3)
    t = T.tensor([0, 2, 1, 2])
    fwd_bwd(T, o, F.cross_entropy(x, t), depth=4, x=x)


@case
def cross_entropy_options(T, F, o):
    x = leaf(T, 26, 5, 4)
    t = T.tensor([3, 0, 1, 3, 2])
    w = T.tensor([1.0, 2.0, 0.5, 1.5])
    o["weighted"] = F.cross_entropy(x, t, weight=w)
    o["sum"] = F.cross_entropy(x, t, reduction="sum")
    o["none"] = F.cross_entropy(x, t, reduction="none")
    o["ignore"] = F.cross_entropy(x, T.tensor([3, -100, 1, -100, 2]))
    o["ignore_idx"] = F.cross_entropy(x, t, ignore_index=3)
    y = F.cross_entropy(x, t, weight=w, reduction="none")
    fwd_bwd(T, o, y, name="weighted_none", x=x)


@case
def cross_entropy_1d(T, F, o):
    x = leaf(T, 27, 4)
    fwd_bwd(T, o, F.cross_entropy(x, T.tensor(2)), x=x)


@case
def nll_loss_basic(T, F, o):
    x = leaf(T, 28, 3, 4)
    lp = F.log_softmax(x, dim=1)
    y = F.nll_loss(lp, T.tensor([1, 0, 3]))
    fwd_bwd(T, o, y, depth=4, x=x)
    o["raw"] = F.nll_loss(x, T.tensor([1, 0, 3]), reduction="sum")


@case
def loss_errors(T, F, o):
    x = leaf(T, 29, 3, 4)
    o.err("out_of_bounds", lambda: F.cross_entropy(x, T.tensor([0, 4, 1])))
    o.err("batch", lambda: F.nll_loss(x, T.tensor([0, 1])))
    o.err("float_target", lambda: F.nll_loss(x, T.tensor([0.0, 1.0, 2.0])))


# ---------------------------------------------------------------------------------- linear algebra
@case
def mm_basic(T, F, o):
    a, b = leaf(T, 30, 2, 3), leaf(T, 31, 3, 4)
    fwd_bwd(T, o, a.mm(b), a=a, b=b)


@case
def mm_one_side(T, F, o):
    a, b = const(T, 32, 2, 3), leaf(T, 33, 3, 4)
    fwd_bwd(T, o, T.mm(a, b), b=b)
    o["a.grad"] = a.grad


@case
def matmul_1d_1d(T, F, o):
    a, b = leaf(T, 34, 4), leaf(T, 35, 4)
    fwd_bwd(T, o, a @ b, a=a, b=b)


@case
def matmul_2d_1d(T, F, o):
    a, b = leaf(T, 36, 3, 4), leaf(T, 37, 4)
    fwd_bwd(T, o, T.matmul(a, b), a=a, b=b)


@case
def matmul_1d_2d(T, F, o):
    a, b = leaf(T, 38, 3), leaf(T, 39, 3, 2)
    fwd_bwd(T, o, a.matmul(b), depth=4, a=a, b=b)


@case
def matmul_2d_2d(T, F, o):
    a, b = leaf(T, 40, 2, 3), leaf(T, 41, 3, 2)
    fwd_bwd(T, o, a @ b, a=a, b=b)


@case
def matmul_batched_3d_3d(T, F, o):
    a, b = leaf(T, 42, 2, 2, 3), leaf(T, 43, 2, 3, 4)
    fwd_bwd(T, o, a @ b, a=a, b=b)


@case
def matmul_batched_3d_2d(T, F, o):
    a, b = leaf(T, 44, 2, 2, 3), leaf(T, 45, 3, 4)
    fwd_bwd(T, o, a @ b, depth=5, a=a, b=b)


@case
def matmul_batched_broadcast(T, F, o):
    a, b = leaf(T, 46, 2, 1, 2, 3), leaf(T, 47, 3, 3, 2)
    fwd_bwd(T, o, T.matmul(a, b), depth=5, a=a, b=b)


@case
def matmul_batched_1d(T, F, o):
    a, b = leaf(T, 48, 2, 3, 4), leaf(T, 49, 4)
    o["ab"] = a @ b
    c = leaf(T, 50, 3)
    fwd_bwd(T, o, c @ a, a=a, c=c)


@case
def dot_and_mv(T, F, o):
    a, b = leaf(T, 51, 3), leaf(T, 52, 3)
    fwd_bwd(T, o, a.dot(b), a=a, b=b)
    m = leaf(T, 53, 2, 3)
    o["mv"] = T.matmul(m, a).detach()
    o["torch_dot"] = T.dot(a, b)


@case
def mm_errors(T, F, o):
    a, b = leaf(T, 54, 2, 3), leaf(T, 55, 2, 3)
    o.err("shape", lambda: a.mm(b))
    o.err("1d", lambda: a.mm(T.ones(3)))
    o.err("1d_self", lambda: T.ones(3).mm(b))
    o.err("dtype", lambda: a.mm(T.ones(3, 2, dtype=T.float64)))
    o.err("matmul_2d", lambda: a @ b)
    o.err("matmul_mv", lambda: a @ T.ones(2))
    o.err("matmul_0d", lambda: a @ T.tensor(2.0))
    o.err("dot_len", lambda: T.ones(3).dot(T.ones(4)))
    o.err("dot_2d", lambda: a.dot(b))
    o.err("bmm", lambda: T.ones(2, 2, 3) @ T.ones(2, 2, 3))


@case
def transpose_family(T, F, o):
    x = leaf(T, 56, 2, 3)
    o.all(x.t(), "t")
    o.all(x.T, "T")
    o.all(x.mT, "mT")
    o.all(T.t(x), "torch_t")
    o.all(x.transpose(0, 1), "transpose")
    o["t_is_contiguous"] = x.t().is_contiguous()
    z = x.t().mm(x) + x.T.sum()
    fwd_bwd(T, o, z, name="z", x=x)


@case
def transpose_3d(T, F, o):
    x = leaf(T, 57, 2, 3, 4)
    o.all(x.T, "T")
    o.all(x.transpose(-1, 0), "tr")
    o.all(x.permute(2, 0, 1), "perm")
    o.all(x.permute((1, 2, 0)), "perm_tuple")
    o.err("t3d", lambda: x.t())
    o.err("permute_len", lambda: x.permute(0, 1))
    fwd_bwd(T, o, x.permute(2, 0, 1) * x.transpose(0, 2).transpose(1, 2), name="z", x=x)


# ---------------------------------------------------------------------------------- shapes and views
_SHAPE = {
    "view": lambda x: x.view(4, 6),
    "view_neg": lambda x: x.view(-1, 3),
    "view_tuple": lambda x: x.view((6, 4)),
    "view_size": lambda x: x.view(x.shape),
    "reshape": lambda x: x.reshape(3, 8),
    "reshape_tuple": lambda x: x.reshape((-1,)),
    "reshape_noncontig": lambda x: x.transpose(0, 2).reshape(4, 6),
    "flatten": lambda x: x.flatten(),
    "flatten1": lambda x: x.flatten(1),
    "flatten_0_1": lambda x: x.flatten(0, 1),
    "unsqueeze0": lambda x: x.unsqueeze(0),
    "unsqueeze_neg": lambda x: x.unsqueeze(-1),
    "squeeze": lambda x: x.view(2, 1, 3, 1, 4).squeeze(),
    "squeeze_dim": lambda x: x.view(2, 1, 12).squeeze(1),
    "squeeze_noop": lambda x: x.squeeze(0),
    "expand": lambda x: x.view(2, 1, 3, 4).expand(2, 5, 3, 4),
    "expand_neg": lambda x: x[:, :1].expand(-1, 3, -1),
    "expand_new": lambda x: x.expand(2, 2, 3, 4),
    "expand_as": lambda x: x[:1].expand_as(x),
    "select": lambda x: x.select(1, 2),
    "contiguous": lambda x: x.t().contiguous() if x.dim() == 2 else x.transpose(0, 1).contiguous(),
    "clone": lambda x: x.clone(),
}


def _shape_case(fn):
    def c(T, F, o):
        x = leaf(T, 58, 2, 3, 4)
        y = fn(x)
        o["shape"] = y.shape
        fwd_bwd(T, o, y, depth=4, x=x)
    return c


for _name, _fn in _SHAPE.items():
    case(_shape_case(_fn), name=f"shape_{_name}")


@case
def view_shares_memory(T, F, o):
    x = leaf(T, 59, 2, 3, rg=False)
    v = x.view(6)
    v[0] = 100.0
    o["x"] = x
    o["version"] = [x._version, v._version]
    t = x.t()
    x.add_(1)
    o["t"] = t
    o["version2"] = [x._version, t._version]


@case
def view_errors(T, F, o):
    x = leaf(T, 60, 2, 3)
    o.err("noncontig", lambda: x.t().view(-1))
    o.err("size", lambda: x.view(4, 4))
    o.err("two_inferred", lambda: x.view(-1, -1))
    o.err("reshape_size", lambda: x.reshape(5))
    o.err("expand", lambda: x.expand(2, 4))
    o.err("expand_fewer", lambda: x.expand(3))
    o.err("expand_lead", lambda: x.expand(-1, 2, 3))
    o["reshape_noncontig_ok"] = x.t().reshape(-1)


@case
def size_and_shape(T, F, o):
    x = leaf(T, 61, 2, 3, 4)
    o["shape"] = x.shape
    o["size"] = x.size()
    o["size1"] = x.size(1)
    o["size_neg"] = x.size(-1)
    o["dim"] = x.dim()
    o["ndim"] = x.ndim
    o["numel"] = x.numel()
    o["len"] = len(x)
    o.repr("shape.repr", x.shape)
    o.str("shape.str", x.shape)
    o["shape_eq_tuple"] = x.shape == (2, 3, 4)
    o["shape.numel"] = x.shape.numel()
    o["dtype"] = x.dtype
    o.repr("dtype.repr", x.dtype)
    o["is_floating_point"] = x.is_floating_point()
    o["device"] = str(x.device)
    o["type"] = x.type()
    o["type_long"] = T.tensor([1]).type()
    o["type_double"] = x.double().type()
    o.err("len0d", lambda: len(T.tensor(1.0)))


# ---------------------------------------------------------------------------------- indexing
_INDEX = {
    "int": lambda x: x[1],
    "neg_int": lambda x: x[-1],
    "int_int": lambda x: x[0, 2],
    "col": lambda x: x[:, 1],
    "slice": lambda x: x[1:3],
    "slice_step": lambda x: x[::2],
    "slice_neg": lambda x: x[-2:],
    "slice_2d": lambda x: x[1:, :2],
    "ellipsis": lambda x: x[..., 0],
    "none": lambda x: x[None],
    "none_mid": lambda x: x[:, None, 1:],
    "full": lambda x: x[:],
    "list": lambda x: x[[0, 2]],
    "list_repeat": lambda x: x[[0, 0, 3]],
    "mask": lambda x: x[x > 0],
    "mixed": lambda x: x[1:, [0, 2]],
    "two_lists": lambda x: x[[0, 1, 3], [2, 0, 1]],
}


def _index_case(fn):
    def c(T, F, o):
        x = leaf(T, 62, 4, 3)
        y = fn(x)
        o["shape"] = y.shape
        fwd_bwd(T, o, y, depth=4, x=x)
    return c


for _name, _fn in _INDEX.items():
    case(_index_case(_fn), name=f"index_{_name}")


@case
def index_with_long_tensor(T, F, o):
    x = leaf(T, 63, 4, 3)
    idx = T.tensor([2, 1, 2])
    fwd_bwd(T, o, x[idx], x=x)


@case
def index_bool_tensor(T, F, o):
    x = leaf(T, 64, 4, 3)
    m = T.tensor([True, False, True, False])
    fwd_bwd(T, o, x[m], x=x)


@case
def index_errors(T, F, o):
    x = leaf(T, 65, 4, 3)
    o.err("out_of_range", lambda: x[4])
    o.err("out_of_range_dim1", lambda: x[0, 3])
    o.err("too_many", lambda: x[0, 0, 0])
    o.err("0d", lambda: T.tensor(1.0)[0])


@case
def item_tolist(T, F, o):
    x = T.tensor([[1.5, 2.0], [3.0, 4.25]], requires_grad=True)
    o["item"] = x[1, 1].item()
    o["item_type"] = type(x[0, 0].item()).__name__
    o["tolist"] = x.tolist()
    o["int_item"] = T.tensor([7]).item()
    o["int_item_type"] = type(T.tensor(7).item()).__name__
    o["float"] = float(x[0, 1])
    o.err("item_many", lambda: x.item())
    o.err("numpy_rg", lambda: x.numpy())
    o["numpy_detached"] = x.detach().numpy().tolist()
    o.err("bool", lambda: bool(x))
    o["bool1"] = bool(T.tensor([1.0]))


# ---------------------------------------------------------------------------------- cat / stack
@case
def cat_dim0(T, F, o):
    a, b = leaf(T, 66, 2, 3), leaf(T, 67, 1, 3)
    fwd_bwd(T, o, T.cat([a, b]), a=a, b=b)


@case
def cat_dim1_mixed(T, F, o):
    a, b, c = leaf(T, 68, 2, 2), const(T, 69, 2, 1), leaf(T, 70, 2, 3)
    fwd_bwd(T, o, T.cat((a, b, c), dim=1), a=a, c=c)
    o["cat_neg"] = T.cat([a, b], -1).shape


@case
def stack_dims(T, F, o):
    a, b = leaf(T, 71, 2, 3), leaf(T, 72, 2, 3)
    o["stack1"] = T.stack([a, b], 1).shape
    o["stack2"] = T.stack([a, b], dim=2).shape
    fwd_bwd(T, o, T.stack([a, b, a]), depth=3, a=a, b=b)


@case
def cat_stack_errors(T, F, o):
    a, b = leaf(T, 73, 2, 3), leaf(T, 74, 2, 2)
    o.err("stack", lambda: T.stack([a, b]))
    o.err("cat", lambda: T.cat([a, b]))
    o.err("cat_dims", lambda: T.cat([a, T.ones(3)]))


# ---------------------------------------------------------------------------------- creation
@case
def creation_dtypes(T, F, o):
    o["float_list"] = T.tensor([1.0, 2.0])
    o["int_list"] = T.tensor([1, 2])
    o["mixed_list"] = T.tensor([1, 2.5])
    o["bool_list"] = T.tensor([True, False])
    o["scalar"] = T.tensor(2.5)
    o["int_scalar"] = T.tensor(3)
    o["zeros"] = T.zeros(2, 3)
    o["ones_tuple"] = T.ones((2, 2), dtype=T.float64)
    o["arange"] = T.arange(5)
    o["arange_f"] = T.arange(0, 1, 0.25)
    o["linspace"] = T.linspace(0, 1, 5)
    o["eye"] = T.eye(3)
    o["full"] = T.full((2, 2), 7.0)
    o["full_int"] = T.full((2,), 3)
    o["zeros_like"] = T.zeros_like(T.tensor([1, 2]))
    o["ones_like_rg"] = T.ones_like(T.tensor([1.0, 2.0]), requires_grad=True)
    o["Tensor"] = T.Tensor([1, 2])
    o["from_numpy"] = T.from_numpy(np.array([1.0, 2.0]))
    o["nested"] = T.tensor([[1.0, 2.0], [3.0, 4.0]])
    o["zeros_rg"] = T.zeros(2, requires_grad=True)


@case
def default_dtype_float64(T, F, o):
    T.set_default_dtype(T.float64)
    o["tensor"] = T.tensor([1.0, 2.0])
    o["ones"] = T.ones(2)
    o["int"] = T.tensor([1, 2])
    o["get"] = T.get_default_dtype()
    o["int*0.5"] = T.tensor([1, 2]) * 0.5


# ---------------------------------------------------------------------------------- in-place
@case
def inplace_no_grad_leaf(T, F, o):
    """The optimizer-step pattern: in-place on a leaf under no_grad."""
    w = leaf(T, 75, 3)
    (w * 2).sum().backward()
    with T.no_grad():
        w.sub_(0.1 * w.grad)
        w.add_(1)
        w.mul_(2)
    o.flags("flags", w)
    o["w"] = w
    o["version"] = w._version
    w.grad.zero_()
    o["grad_zeroed"] = w.grad
    with T.no_grad():
        w.zero_()
    o["zeroed"] = w
    o["version2"] = w._version
    with T.no_grad():
        w += 1.5
        w -= 0.25
        w *= 3
        w /= 2
    o["ops"] = w
    o.flags("flags2", w)


@case
def inplace_on_nonleaf(T, F, o):
    x = leaf(T, 76, 3)
    y = x * 2
    y.add_(1)
    o.flags("after_add", y)
    y.mul_(x)
    o.flags("after_mul", y)
    o["version"] = y._version
    fwd_bwd(T, o, y, depth=4, x=x)


@case
def inplace_zero_on_nonleaf(T, F, o):
    x = leaf(T, 77, 3)
    y = x * 2
    y.zero_()
    o.flags("after_zero", y)
    z = y + x
    fwd_bwd(T, o, z, depth=4, x=x)


@case
def inplace_fill_sub_div_nonleaf(T, F, o):
    x = leaf(T, 78, 4, lo=0.5)
    y = x + 1
    y.sub_(0.5)
    o.fn("sub_", y)
    y.div_(2)
    o.fn("div_", y)
    y += x
    o.fn("iadd", y)
    y *= 3
    o.fn("imul", y)
    fwd_bwd(T, o, y, depth=3, x=x)
    z = x * 1
    z.fill_(2.0)
    o.fn("fill_", z)


@case
def inplace_leaf_error(T, F, o):
    x = leaf(T, 79, 3)
    o.err("add_", lambda: x.add_(1))
    o.err("mul_", lambda: x.mul_(2))
    o.err("zero_", lambda: x.zero_())
    o.err("iadd", lambda: x.__iadd__(1))
    o["unchanged"] = x
    o["version"] = x._version


@case
def inplace_view_of_leaf_error(T, F, o):
    x = leaf(T, 80, 3)
    o.err("setitem", lambda: x.__setitem__(0, 1.0))


@case
def setitem_nonleaf(T, F, o):
    x = leaf(T, 81, 4)
    y = x * 3
    y[1] = 0.0
    o["y"] = y
    # PyTorch records y[1] = 0 as CopySlices (a rewrite of y's graph around the view y[1])
    o.fn("y.grad_fn", y)
    y.backward(T.tensor([1.0, 2.0, 3.0, 4.0]))
    o["x.grad"] = x.grad


@case
def version_counter_error_input(T, F, o):
    x = leaf(T, 82, 3)
    y = x * 2
    z = y * y  # MulBackward0 saves y
    y.add_(1)
    o["version"] = y._version
    o.err("error", lambda: z.sum().backward())


@case
def version_counter_error_output(T, F, o):
    x = leaf(T, 83, 3)
    y = x.exp()  # ExpBackward0 saves its output y
    y.add_(1)
    o.err("error", lambda: y.sum().backward())


@case
def version_counter_error_sigmoid(T, F, o):
    x = leaf(T, 84, 2, 2)
    a = x.sigmoid()
    b = a * 1
    a.mul_(2)
    o.err("error", lambda: b.sum().backward())


@case
def version_counter_error_leaf_under_no_grad(T, F, o):
    w = leaf(T, 85, 3)
    y = (w * w).sum()
    with T.no_grad():
        w.add_(1)
    o["version"] = w._version
    o.err("error", lambda: y.backward())


@case
def inplace_ok_when_not_saved(T, F, o):
    x = leaf(T, 86, 3)
    y = x + 1  # AddBackward0 saves nothing
    z = y * 2
    y.add_(5)
    z.sum().backward()
    o["x.grad"] = x.grad


@case
def data_and_detach(T, F, o):
    x = leaf(T, 87, 3)
    d = x.detach()
    o.flags("detach", d)
    d.add_(1)
    o["x_after_detach_add"] = x
    o["versions"] = [x._version, d._version]
    x.data.mul_(2)
    o["x_after_data_mul"] = x
    o.flags("x", x)
    y = x * 2
    o.flags("y", y)
    o.flags("y.detach", y.detach())
    y.detach_()
    o.flags("y.detach_", y)
    e = x * 2
    e.data = T.tensor([9.0, 9.0, 9.0])
    o["e.data_set"] = e


@case
def copy_into_parameter(T, F, o):
    w = T.zeros(2, 3, requires_grad=True)
    with T.no_grad():
        w.copy_(T.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]))
    o.flags("w", w)
    o["w"] = w
    o["version"] = w._version
    with T.no_grad():
        w.copy_(T.tensor([7.0, 8.0, 9.0]))
        w.fill_(0.5)
        w.clamp_(max=0.25)
    o["w2"] = w
    o.err("copy_shape", lambda: T.zeros(2, 3).copy_(T.ones(4)))
    o.err("copy_grad", lambda: w.copy_(T.ones(2, 3)))


# ---------------------------------------------------------------------------------- engine
@case
def fan_out_accumulation(T, F, o):
    x = leaf(T, 88, 3)
    a = x * 2
    b = x.exp()
    c = x ** 2
    y = (a + b * c).sum()
    fwd_bwd(T, o, y, depth=5, x=x)


@case
def diamond(T, F, o):
    x = leaf(T, 89, 2, 2)
    h = x.tanh()
    y = (h * h.sigmoid() + h.t()).sum()
    fwd_bwd(T, o, y, depth=6, x=x)


@case
def retain_graph_twice(T, F, o):
    x = leaf(T, 90, 3)
    y = (x.exp() * x).sum()
    y.backward(retain_graph=True)
    o["grad1"] = x.grad
    y.backward()
    o["grad2"] = x.grad
    o.err("third", lambda: y.backward())


@case
def second_backward_error(T, F, o):
    x = leaf(T, 91, 3)
    y = (x * x).sum()
    y.backward()
    o.err("error", lambda: y.backward())
    z = x.sigmoid().sum()
    z.backward()
    o.err("error_sigmoid", lambda: z.backward())


@case
def saved_nothing_backward_twice(T, F, o):
    x = leaf(T, 92, 3)
    y = (x + 2).sum()
    y.backward()
    y.backward()
    o["x.grad"] = x.grad
    z = (x - 1).view(3, 1).t().sum()
    z.backward()
    z.backward()
    o["x.grad2"] = x.grad


@case
def explicit_gradient(T, F, o):
    x = leaf(T, 93, 2, 3)
    y = x * 3
    y.backward(gradient=T.tensor([[1.0, 0.0, 2.0], [0.5, -1.0, 3.0]]))
    o["x.grad"] = x.grad
    s = (x * 2).sum()
    s.backward(T.tensor(4.0))
    o["x.grad2"] = x.grad


@case
def backward_errors(T, F, o):
    x = leaf(T, 94, 3)
    o.err("non_scalar", lambda: (x * 2).backward())
    o.err("shape", lambda: (x * 2).backward(T.ones(2)))
    o.err("shape_2d", lambda: (x * 2).backward(T.ones(3, 1)))
    o.err("no_grad_fn", lambda: T.tensor([1.0, 2.0]).sum().backward())
    o.err("int_out", lambda: T.tensor([1, 2]).sum().backward())
    with T.no_grad():
        y = (x * 2).sum()
    o.err("under_no_grad", lambda: y.backward())


@case
def autograd_backward_weights(T, F, o):
    x = leaf(T, 95, 3)
    y1 = (x * x).sum()
    y2 = x.exp().sum()
    T.autograd.backward([y1, y2], grad_tensors=[T.tensor(2.0), T.tensor(-1.0)])
    o["x.grad"] = x.grad
    x.grad = None
    z = x * 2
    T.autograd.backward(z, grad_tensors=T.tensor([1.0, 2.0, 3.0]))
    o["x.grad2"] = x.grad
    x.grad = None
    T.autograd.backward([(x * 3).sum(), (x * 5).sum()])
    o["x.grad3"] = x.grad


@case
def backward_inputs_arg(T, F, o):
    x, w = leaf(T, 96, 3), leaf(T, 97, 3)
    y = (x * w).sum()
    y.backward(inputs=[x])
    o["x.grad"] = x.grad
    o["w.grad"] = w.grad


@case
def autograd_grad_basic(T, F, o):
    x, w = leaf(T, 98, 3), leaf(T, 99, 3)
    y = (x * w).sum()
    g = T.autograd.grad(y, [x, w])
    o["type"] = type(g).__name__
    o["g"] = g
    o["x.grad"] = x.grad
    o["w.grad"] = w.grad
    y2 = (x ** 2).sum()
    (gx,) = T.autograd.grad(y2, x)
    o["gx"] = gx
    o.err("again", lambda: T.autograd.grad(y2, x))


@case
def autograd_grad_outputs(T, F, o):
    x = leaf(T, 100, 3)
    y = x * x
    (g,) = T.autograd.grad(y, x, grad_outputs=T.tensor([1.0, 0.5, -2.0]))
    o["g"] = g
    o.err("non_scalar", lambda: T.autograd.grad(x * 2, x))


@case
def autograd_grad_unused(T, F, o):
    x, z = leaf(T, 101, 3), leaf(T, 102, 3)
    y = (x * 2).sum()
    o.err("unused", lambda: T.autograd.grad(y, [x, z], retain_graph=True))
    g = T.autograd.grad(y, [x, z], allow_unused=True, retain_graph=True)
    o["allow_unused"] = g
    g2 = T.autograd.grad(y, [x, z], allow_unused=True, materialize_grads=True, retain_graph=True)
    o["materialize"] = g2
    o.err("no_rg", lambda: T.autograd.grad(y, [T.tensor([1.0])], retain_graph=True))
    o.err("unused_first", lambda: T.autograd.grad(y, [z, x]))


@case
def create_graph_second_derivative(T, F, o):
    x = leaf(T, 103, 3)
    y = (x ** 3).sum()
    (g,) = T.autograd.grad(y, x, create_graph=True)
    o.flags("g", g)
    o["g"] = g
    o.tree("g.tree", g, 3)
    (g2,) = T.autograd.grad(g.sum(), x)
    o["g2"] = g2
    o["expected"] = 6 * x.detach()


@case
def create_graph_backward(T, F, o):
    x = leaf(T, 104, 3)
    y = (x.tanh() * x).sum()
    y.backward(create_graph=True)
    o.flags("x.grad", x.grad)
    o["x.grad"] = x.grad
    g = x.grad
    x.grad = None
    g.sum().backward()
    o["second"] = x.grad


@case
def gradgrad_through_mul_and_exp(T, F, o):
    x = T.tensor([0.5, -1.0, 2.0], dtype=T.float64, requires_grad=True)
    w = T.tensor([1.5, 0.25, -0.75], dtype=T.float64, requires_grad=True)
    y = (x.exp() * w * x).sum()
    gx, gw = T.autograd.grad(y, [x, w], create_graph=True)
    o["gx"], o["gw"] = gx, gw
    h = T.autograd.grad((gx * gx).sum() + gw.sum(), [x, w])
    o["h"] = h


@case
def grad_accumulation_across_backwards(T, F, o):
    x = leaf(T, 105, 3)
    (x * 2).sum().backward()
    o["g1"] = x.grad
    g_before = x.grad
    (x * x).sum().backward()
    o["g2"] = x.grad
    o["same_tensor"] = x.grad is g_before
    x.grad = None
    (x * 4).sum().backward()
    o["g3"] = x.grad
    o.err("bad_grad_shape", lambda: setattr(x, "grad", T.ones(2)))


@case
def requires_grad_propagation(T, F, o):
    a = leaf(T, 106, 2)
    b = const(T, 107, 2)
    o.flags("a", a)
    o.flags("b", b)
    o.flags("a+b", a + b)
    o.flags("b*2", b * 2)
    o.tree("tree", a * b, 2)
    o.tree("tree_rev", b * a, 2)
    b.requires_grad_()
    o.flags("b_after", b)
    c = a + b
    o.err("set_nonleaf", lambda: setattr(c, "requires_grad", False))
    o.err("set_nonleaf_true", lambda: setattr(c, "requires_grad", True))
    o.flags("c", c)
    d = T.tensor([1.0, 2.0])
    d.requires_grad = True
    o.flags("d", d)


@case
def int_requires_grad_errors(T, F, o):
    o.err("tensor", lambda: T.tensor([1, 2], requires_grad=True))
    o.err("requires_grad_", lambda: T.tensor([1, 2]).requires_grad_())
    o.err("setattr", lambda: setattr(T.tensor([1, 2]), "requires_grad", True))
    o.err("ones", lambda: T.ones(2, dtype=T.int64, requires_grad=True))
    o.err("bool", lambda: T.tensor([True]).requires_grad_())
    o["false_ok"] = T.tensor([1, 2]).requires_grad_(False).requires_grad


@case
def accumulate_grad_nodes(T, F, o):
    x = leaf(T, 108, 2)
    y = x * 2
    acc = y.grad_fn.next_functions[0][0]
    o["type"] = type(acc).__name__
    o["name"] = acc.name()
    o["variable_is_x"] = acc.variable is x
    o["next"] = [list(e) for e in acc.next_functions]
    o["same_acc"] = (x * 3).grad_fn.next_functions[0][0] is acc
    o["grad_fn_name"] = y.grad_fn.name()
    o["leaf_grad_fn"] = x.grad_fn
    z = x.sum()
    o["nf_len"] = len(z.grad_fn.next_functions)
    o["nf_type"] = type(z.grad_fn.next_functions).__name__
    o["edge_type"] = type(z.grad_fn.next_functions[0]).__name__
    o.repr("node_repr", y.grad_fn)


@case
def next_functions_trees(T, F, o):
    x, w, b = leaf(T, 109, 2, 3), leaf(T, 110, 3, 4), leaf(T, 111, 4)
    c = const(T, 112, 2, 4)
    y = ((x.mm(w) + b).relu() * c - 1).mean()
    o.tree("tree", y, 8)
    y2 = (x @ w).sum(1).exp() / 3
    o.tree("tree2", y2, 6)
    y3 = T.cat([x.t(), w], dim=1)
    o.tree("tree3", y3, 3)


# ---------------------------------------------------------------------------------- hooks, retain_grad
@case
def hook_on_leaf_changes_grad(T, F, o):
    x = leaf(T, 113, 3)
    seen = []

    def hook(g):
        seen.append(g.clone())
        return g * 2
    h = x.register_hook(hook)
    (x * x).sum().backward()
    o["seen"] = seen
    o["x.grad"] = x.grad
    h.remove()
    x.grad = None
    (x * x).sum().backward()
    o["x.grad_removed"] = x.grad


@case
def hook_on_intermediate(T, F, o):
    x = leaf(T, 114, 3)
    y = x * 3
    calls = []
    y.register_hook(lambda g: calls.append("observe"))
    y.register_hook(lambda g: g + 1)
    y.register_hook(lambda g: calls.append(g.tolist()))
    z = (y * y).sum()
    z.backward()
    o["calls"] = calls
    o["x.grad"] = x.grad


@case
def hook_errors(T, F, o):
    o.err("no_grad", lambda: T.tensor([1.0]).register_hook(lambda g: g))


@case
def node_hooks(T, F, o):
    x = leaf(T, 115, 3)
    y = x.exp()
    s = y.sum()
    got = []
    y.grad_fn.register_hook(lambda gi, go: got.append(["post", len(gi), len(go)]))
    y.grad_fn.register_prehook(lambda go: got.append(["pre", len(go)]))
    s.backward()
    o["got"] = got
    o["x.grad"] = x.grad


@case
def retain_grad(T, F, o):
    x = leaf(T, 116, 3)
    y = x * 2
    y.retain_grad()
    z = y.exp()
    o["retains"] = [x.retains_grad, y.retains_grad, z.retains_grad]
    z.sum().backward()
    o["y.grad"] = y.grad
    o["x.grad"] = x.grad
    o.err("retain_no_grad", lambda: T.tensor([1.0]).retain_grad())


@case
def nonleaf_grad_warning(T, F, o):
    x = leaf(T, 117, 3)
    y = x * 2
    y.sum().backward()
    g = o.warns("warnings", lambda: y.grad)
    o["y.grad"] = g
    o.warns("leaf_no_warning", lambda: x.grad)


@case
def is_leaf_flags(T, F, o):
    a = T.tensor([1.0, 2.0], requires_grad=True)
    b = T.tensor([1.0, 2.0])
    o.flags("a", a)
    o.flags("b", b)
    o.flags("b*2", b * 2)
    o.flags("a*2", a * 2)
    o.flags("a.detach", a.detach())
    o.flags("a.clone", a.clone())
    o.flags("a[0]", a[0])
    o.flags("a.sum", a.sum())
    o.flags("a.float", a.float())
    o.flags("a.double", a.double())
    with T.no_grad():
        o.flags("no_grad_a*2", a * 2)


# ---------------------------------------------------------------------------------- grad mode
@case
def grad_modes(T, F, o):
    x = leaf(T, 118, 3)
    with T.no_grad():
        y = x * 2
        o["in_no_grad"] = T.is_grad_enabled()
        with T.enable_grad():
            z = x * 2
            o["in_enable"] = T.is_grad_enabled()
    o.flags("y", y)
    o.flags("z", z)
    with T.set_grad_enabled(False):
        w = x * 2
    o.flags("w", w)
    o["after"] = T.is_grad_enabled()
    T.set_grad_enabled(False)
    v = x * 2
    o["fn_off"] = T.is_grad_enabled()
    T.set_grad_enabled(True)
    o.flags("v", v)

    @T.no_grad()
    def f(t):
        return t * 2
    o.flags("decorated", f(x))
    o["enabled_after_decorator"] = T.is_grad_enabled()
    with T.no_grad():
        p = T.ones(2, requires_grad=True)
    o.flags("created_in_no_grad", p)


# ---------------------------------------------------------------------------------- reprs
@case
def repr_seed(T, F, o):
    a = T.linspace(-100, 100, 10)
    o.repr("linspace", a)
    o.repr("sigmoid", T.sigmoid(a))
    o.repr("relu_sum", T.relu(a).sum())
    o.repr("F_relu_sum", F.relu(a).sum())
    b = T.linspace(-100, 100, 10, requires_grad=True)
    o.repr("linspace_rg", b)
    o.repr("sigmoid_rg", b.sigmoid())
    s = F.relu(b).sum()
    o.repr("relu_sum_rg", s)
    s.backward()
    o.repr("grad", b.grad)


_REPRS = {
    "int": lambda T: T.tensor([1, 2, 3]),
    "int_neg": lambda T: T.tensor([[-10, 200], [3, 4]]),
    "bool": lambda T: T.tensor([True, False, True]),
    "float64": lambda T: T.tensor([1.5, 2.25], dtype=T.float64),
    "float64_int_valued": lambda T: T.tensor([1.0, 2.0], dtype=T.float64),
    "float64_scalar": lambda T: T.tensor(3.5, dtype=T.float64),
    "int32": lambda T: T.tensor([1, 2], dtype=T.int32),
    "scalar": lambda T: T.tensor(3.14159),
    "scalar_int": lambda T: T.tensor(7),
    "int_valued_float": lambda T: T.tensor([1.0, 2.0, -3.0]),
    "empty": lambda T: T.tensor([]),
    "empty_2d": lambda T: T.zeros(0, 3),
    "empty_int": lambda T: T.tensor([], dtype=T.int64),
    "large_1d": lambda T: T.arange(2000),
    "large_float": lambda T: T.arange(1500) / 7,
    "large_2d": lambda T: T.arange(10000).reshape(100, 100),
    "large_3d": lambda T: T.ones(20, 20, 20),
    "sci_small": lambda T: T.tensor([1e-5, 1.0, 2.0]),
    "sci_large": lambda T: T.tensor([1e5, 1.0]),
    "sci_huge": lambda T: T.tensor([1e10, 2e10]),
    "sci_tiny": lambda T: T.tensor([1e-7, 2e-7]),
    "no_sci_1000x": lambda T: T.tensor([1.0, 999.0]),
    "nan_inf": lambda T: T.tensor([float("nan"), float("inf"), -float("inf"), 1.5]),
    "nan_only": lambda T: T.tensor([float("nan"), 0.0]),
    "neg_zero": lambda T: T.tensor([-0.0, 1.0]),
    "zeros": lambda T: T.zeros(2, 3),
    "wide_row": lambda T: T.tensor(np.round(np.linspace(-5, 5, 20), 3).tolist()),
    "2d": lambda T: T.tensor([[1.25, -2.5], [3.0, 4.125]]),
    "3d": lambda T: T.arange(12.0).reshape(2, 3, 2),
    "big_ints": lambda T: T.tensor([123456789, -1]),
    "float_big": lambda T: T.tensor([123456.789, 1.5]),
    "rg": lambda T: T.tensor([1.0, 2.0], requires_grad=True),
    "rg_f64": lambda T: T.tensor([1.0, 2.0], dtype=T.float64, requires_grad=True),
    "grad_fn": lambda T: T.tensor([1.0, 2.0], requires_grad=True) * 2,
    "grad_fn_f64_scalar": lambda T: (T.tensor([1.0, 2.0], dtype=T.float64, requires_grad=True) ** 2).sum(),
    "mean_scalar": lambda T: T.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True).mean(),
    "seed_mm": lambda T: T.ones(2, 3, requires_grad=True).mm(T.ones(3, 2)),
}


def _repr_case(fn):
    def c(T, F, o):
        t = fn(T)
        o.repr("repr", t)
        o.str("str", t)
    return c


for _name, _fn in _REPRS.items():
    case(_repr_case(_fn), name=f"repr_{_name}")


@case
def repr_misc(T, F, o):
    x = T.tensor([1.0, 2.0], requires_grad=True)
    y = (x * 2).sum()
    o.repr("grad_fn", y.grad_fn)  # PyTorch prints an address; the normaliser drops it
    o.repr("dtype", T.float32)
    o.repr("dtype64", T.float64)
    o.repr("int64", T.int64)
    o.repr("bool_dtype", T.bool)
    o.repr("size", T.Size([2, 3]))
    o.repr("size_empty", T.Size([]))
    o.str("format_0d", f"{T.tensor(2.5):.2f}")
    o["dtype_aliases"] = [T.float is T.float32, T.double is T.float64, T.long is T.int64]


# ---------------------------------------------------------------------------------- custom Functions (the seed)
def _mmfunction(T, backward_kind="ok"):
    class MMFunction(T.autograd.Function):
        @staticmethod
        def forward(ctx, input, weight):
            ctx.save_for_backward(input, weight)
            return input.mm(weight.t())

        @staticmethod
        def backward(ctx, grad_output):
            input, weight = ctx.saved_tensors
            ctx.seen_needs = list(ctx.needs_input_grad)
            grad_input = grad_weight = None
            if ctx.needs_input_grad[0]:
                grad_input = grad_output.mm(weight)
            if ctx.needs_input_grad[1]:
                grad_weight = grad_output.t().mm(input)
            if backward_kind == "one":
                return grad_input
            if backward_kind == "bad_shape":
                return grad_input.t(), grad_weight
            if backward_kind == "extra_none":
                return grad_input, grad_weight, None
            if backward_kind == "three":
                return grad_input, grad_weight, grad_weight
            return grad_input, grad_weight
    return MMFunction


@case
def custom_mmfunction(T, F, o):
    MMFunction = _mmfunction(T)
    x, w = leaf(T, 119, 2, 3), leaf(T, 120, 4, 3)
    y = MMFunction.apply(x, w)
    o["type_name"] = type(y.grad_fn).__name__
    o["name"] = y.grad_fn.name()
    o.flags("y", y)
    fwd_bwd(T, o, y, x=x, w=w)
    o["needs"] = y.grad_fn.seen_needs
    o["matches_mm"] = bool(T.allclose(y, x.mm(w.t())))


@case
def custom_mmfunction_partial(T, F, o):
    MMFunction = _mmfunction(T)
    x, w = const(T, 121, 2, 3), leaf(T, 122, 4, 3)
    y = MMFunction.apply(x, w)
    fwd_bwd(T, o, y, w=w)
    o["needs"] = y.grad_fn.seen_needs
    o["x.grad"] = x.grad
    with T.no_grad():
        o.flags("no_grad", MMFunction.apply(x, w))
    o.flags("no_inputs_need", MMFunction.apply(x, T.ones(4, 3)))


@case
def custom_mmfunction_in_graph(T, F, o):
    MMFunction = _mmfunction(T)
    x, w = leaf(T, 123, 2, 3), leaf(T, 124, 4, 3)
    y = MMFunction.apply(x.relu(), w * 2).sigmoid().sum()
    fwd_bwd(T, o, y, depth=5, x=x, w=w)


@case
def custom_function_wrong_count(T, F, o):
    MMFunction = _mmfunction(T, "one")
    x, w = leaf(T, 125, 2, 3), leaf(T, 126, 4, 3)
    y = MMFunction.apply(x, w)
    o.err("error", lambda: y.sum().backward())


@case
def custom_function_too_many(T, F, o):
    MMFunction = _mmfunction(T, "three")
    x, w = leaf(T, 127, 2, 3), leaf(T, 128, 4, 3)
    o.err("error", lambda: MMFunction.apply(x, w).sum().backward())
    MMFunction = _mmfunction(T, "extra_none")
    MMFunction.apply(x, w).sum().backward()
    o["x.grad"] = x.grad


@case
def custom_function_bad_shape(T, F, o):
    MMFunction = _mmfunction(T, "bad_shape")
    x, w = leaf(T, 129, 2, 3), leaf(T, 130, 4, 3)
    y = MMFunction.apply(x, w)
    o.err("error", lambda: y.sum().backward())


@case
def custom_function_saved_freed(T, F, o):
    MMFunction = _mmfunction(T)
    x, w = leaf(T, 131, 2, 3), leaf(T, 132, 4, 3)
    y = MMFunction.apply(x, w)
    y.sum().backward(retain_graph=True)
    o["saved_len"] = len(y.grad_fn.saved_tensors)
    y.sum().backward()
    o.err("freed", lambda: y.grad_fn.saved_tensors)
    o.err("again", lambda: y.sum().backward())


@case
def custom_function_scalar_arg(T, F, o):
    class Scale(T.autograd.Function):
        @staticmethod
        def forward(ctx, x, k):
            ctx.k = k
            return x * k

        @staticmethod
        def backward(ctx, g):
            return g * ctx.k, None

    class BadScale(T.autograd.Function):
        @staticmethod
        def forward(ctx, x, k):
            return x * k

        @staticmethod
        def backward(ctx, g):
            return g, g

    x = leaf(T, 133, 3)
    y = Scale.apply(x, 3.0)
    o.tree("tree", y, 3)
    fwd_bwd(T, o, y, x=x)
    o.err("bad", lambda: BadScale.apply(x, 2.0).sum().backward())


@case
def custom_function_broadcast_grad(T, F, o):
    """A gradient that is expandable to the input's shape is summed to it."""
    class Add(T.autograd.Function):
        @staticmethod
        def forward(ctx, a, b):
            return a + b

        @staticmethod
        def backward(ctx, g):
            return g, g

    a, b = leaf(T, 134, 2, 3), leaf(T, 135, 3)
    fwd_bwd(T, o, Add.apply(a, b), a=a, b=b)


@case
def custom_function_non_differentiable(T, F, o):
    class SortLike(T.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            idx = x.argmax(0)
            ctx.mark_non_differentiable(idx)
            ctx.save_for_backward(x)
            return x * 2, idx

        @staticmethod
        def backward(ctx, g, g_idx):
            return g * 2

    x = leaf(T, 136, 4)
    y, i = SortLike.apply(x)
    o.flags("y", y)
    o.flags("i", i)
    o["i"] = i
    fwd_bwd(T, o, y, x=x)


# ---------------------------------------------------------------------------------- nn / optim (the seed)
@case(requires=("nn.Module", "nn.Parameter"))
def nn_mmul_module(T, F, o):
    nn = T.nn

    class MMul(nn.Module):
        def __init__(self, W, H):
            super().__init__()
            self.weight = nn.Parameter(T.ones(W, H))

        def forward(self, x):
            return x.mm(self.weight)

    m = MMul(3, 2)
    x = T.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], requires_grad=True)
    y = m(x)
    o.all(y, "y", 3)
    o["n_params"] = len(list(m.parameters()))
    o["names"] = [n for n, _ in m.named_parameters()]
    o.flags("weight", m.weight)
    o["weight_type"] = type(m.weight).__name__
    o["is_tensor"] = isinstance(m.weight, T.Tensor)
    o.repr("weight_repr", m.weight)
    y.sum().backward()
    o["weight.grad"] = m.weight.grad
    o["x.grad"] = x.grad
    o.repr("module_repr", m)


@case(requires=("nn.Linear",))
def nn_linear_graph(T, F, o):
    lin = T.nn.Linear(3, 2)
    with T.no_grad():
        lin.weight.copy_(T.tensor(arr(137, 2, 3).tolist()))
        lin.bias.copy_(T.tensor([0.5, -0.5]))
    x = const(T, 138, 4, 3)
    y = lin(x)
    o.tree("tree", y, 4)
    fwd_bwd(T, o, y, weight=lin.weight, bias=lin.bias)
    o["x1d"] = lin(T.tensor([1.0, 2.0, 3.0]))
    o.fn("x1d.fn", lin(T.tensor([1.0, 2.0, 3.0])))
    o.repr("repr", lin)
    o["shapes"] = [lin.weight.shape, lin.bias.shape]
    o["no_bias"] = T.nn.Linear(3, 2, bias=False).bias


@case(requires=("nn.Linear", "nn.MSELoss", "optim.SGD"))
def nn_linear_regression_sgd(T, F, o):
    xs = np.linspace(-1, 1, 16).reshape(16, 1)
    ys = 2.0 * xs + 0.5 + np.random.RandomState(139).normal(0, 0.1, (16, 1))
    X, Y = T.tensor(xs.tolist()), T.tensor(np.round(ys, 4).tolist())
    model = T.nn.Linear(1, 1)
    with T.no_grad():
        model.weight.copy_(T.tensor([[0.3]]))
        model.bias.copy_(T.tensor([-0.2]))
    loss_fn = T.nn.MSELoss()
    opt = T.optim.SGD(model.parameters(), lr=0.1)
    losses = []
    for _ in range(25):
        opt.zero_grad()
        loss = loss_fn(model(X), Y)
        loss.backward()
        opt.step()
        losses.append(loss.item())
    o["losses"] = losses
    o["weight"] = model.weight
    o["bias"] = model.bias
    o.fn("loss_fn", loss)
    opt.zero_grad()
    o["grad_after_zero"] = model.weight.grad


@case(requires=("nn.Linear", "optim.SGD"), rtol=1e-4, atol=1e-5)
def nn_sgd_momentum_weight_decay(T, F, o):
    lin = T.nn.Linear(3, 2)
    with T.no_grad():
        lin.weight.copy_(T.tensor(arr(140, 2, 3).tolist()))
        lin.bias.copy_(T.tensor([0.1, 0.2]))
    X, Y = const(T, 141, 5, 3), const(T, 142, 5, 2)
    opt = T.optim.SGD(lin.parameters(), lr=0.05, momentum=0.9, weight_decay=0.01)
    losses = []
    for _ in range(10):
        opt.zero_grad()
        loss = F.mse_loss(lin(X), Y)
        loss.backward()
        opt.step()
        losses.append(loss.item())
    o["losses"] = losses
    o["weight"] = lin.weight
    o["bias"] = lin.bias


@case(requires=("nn.Linear", "nn.ReLU", "nn.Sequential", "nn.CrossEntropyLoss", "optim.Adam"), rtol=1e-4,
      atol=1e-5)
def nn_mlp_adam(T, F, o):
    model = T.nn.Sequential(T.nn.Linear(4, 8), T.nn.ReLU(), T.nn.Linear(8, 3))
    with T.no_grad():
        for i, p in enumerate(model.parameters()):
            p.copy_(T.tensor(arr(150 + i, *tuple(p.shape), lo=-0.5, hi=0.5).tolist()))
    X = const(T, 160, 12, 4)
    Y = T.tensor([0, 1, 2, 1, 0, 2, 2, 1, 0, 0, 1, 2])
    loss_fn = T.nn.CrossEntropyLoss()
    opt = T.optim.Adam(model.parameters(), lr=0.05)
    losses = []
    for _ in range(15):
        opt.zero_grad()
        loss = loss_fn(model(X), Y)
        loss.backward()
        opt.step()
        losses.append(loss.item())
    o["losses"] = losses
    o["params"] = list(model.parameters())
    o.tree("loss_tree", loss_fn(model(X), Y), 5)
    o.repr("repr", model)
    o["names"] = [n for n, _ in model.named_parameters()]


@case
def torch_function_forms(T, F, o):
    """The ``torch.xxx(t)`` spellings of the methods."""
    x = leaf(T, 170, 2, 3)
    o.all(T.sum(x, 1), "sum_dim")
    o.all(T.mean(x), "mean")
    o.all(T.add(x, 1), "add")
    o.all(T.mul(x, x), "mul")
    o.all(T.sub(x, 2, alpha=3), "sub")
    o.all(T.div(x, 4), "div")
    o.all(T.neg(x), "neg")
    o.all(T.transpose(x, 0, 1), "transpose")
    o.all(T.reshape(x, (3, 2)), "reshape")
    o.all(T.flatten(x), "flatten")
    o.all(T.unsqueeze(x, 1), "unsqueeze")
    o.all(T.squeeze(x.view(1, 6)), "squeeze")
    o.all(x.view_as(T.zeros(6)), "view_as")
    o.all(x.reshape_as(T.zeros(3, 2)), "reshape_as")
    o.all(T.clone(x), "clone")
    o.val("max", lambda: T.max(x))
    o.val("min_dim", lambda: T.min(x, 1).values)
    o.val("argmax", lambda: T.argmax(x))
    o.val("numel", lambda: T.numel(x))
    o.val("is_tensor", lambda: [T.is_tensor(x), T.is_tensor([1])])
    o.val("equal", lambda: T.equal(x, x.clone()))
    o.val("allclose", lambda: T.allclose(x, x + 1e-9))
    o.val("isclose", lambda: T.isclose(x, x + 1e-9))


@case
def F_activations_and_linear(T, F, o):
    x, w, b = leaf(T, 171, 4, 3), leaf(T, 172, 2, 3), leaf(T, 173, 2)
    o.all(F.sigmoid(x), "sigmoid")
    o.all(F.tanh(x), "tanh")
    o.all(F.linear(x, w), "linear_nobias", 4)
    o.all(F.linear(x[0], w, b), "linear_1d", 4)
    y = F.linear(x, w, b)
    fwd_bwd(T, o, y, depth=4, x=x, w=w, b=b)
    o.all(F.linear(x.view(2, 2, 3), w, b), "linear_3d", 4)


@case
def grad_attribute_errors(T, F, o):
    x = leaf(T, 174, 3)
    o.err("type", lambda: setattr(x, "grad", 3))
    o.err("shape", lambda: setattr(x, "grad", T.ones(3, 1)))
    x.grad = T.tensor([1.0, 2.0, 3.0])
    (x * 2).sum().backward()
    o["accumulated_onto_assigned"] = x.grad


@case
def autograd_grad_wrt_intermediate(T, F, o):
    x = leaf(T, 175, 3)
    h = x.exp()
    y = (h * h).sum()
    gh, gx = T.autograd.grad(y, [h, x], retain_graph=True)
    o["gh"], o["gx"] = gh, gx
    o.flags("gh", gh)
    y.backward(inputs=[x])
    o["x.grad"] = x.grad


@case
def empty_tensor_backward(T, F, o):
    x = T.zeros(0, 3, requires_grad=True)
    y = (x * 2).sum()
    o["y"] = y
    y.backward()
    o["x.grad"] = x.grad
    z = T.zeros(2, 0, requires_grad=True)
    o["mean"] = z.mean()


@case
def same_function_twice(T, F, o):
    MMFunction = _mmfunction(T)
    x, w = leaf(T, 176, 2, 3), leaf(T, 177, 3, 3)
    y1 = MMFunction.apply(x, w)
    y2 = MMFunction.apply(y1, w)
    o["distinct_nodes"] = y1.grad_fn is not y2.grad_fn
    fwd_bwd(T, o, y2, depth=4, x=x, w=w)


@case
def long_chain(T, F, o):
    """A 2000-node chain: backward must not recurse."""
    x = T.tensor([1.0, -0.5], requires_grad=True)
    y = x
    for i in range(1000):
        y = y * 1.001
        y = y + 0.001
    fwd_bwd(T, o, y.sum(), name="y", depth=3, x=x)


@case
def hooks_order_and_leaf_grad_seen(T, F, o):
    x = leaf(T, 178, 2)
    order = []
    x.register_hook(lambda g: order.append("first") or None)
    x.register_hook(lambda g: g * 10)
    x.register_hook(lambda g: order.append(["third", g.tolist()]) or None)
    (x * 3).sum().backward()
    o["order"] = order
    o["x.grad"] = x.grad


@case(requires=("nn.Module", "nn.Linear", "nn.Sequential", "nn.ReLU", "nn.MSELoss", "nn.CrossEntropyLoss"))
def nn_module_api(T, F, o):
    nn = T.nn
    model = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 2))
    o["names"] = [n for n, _ in model.named_parameters()]
    o["shapes"] = [p.shape for p in model.parameters()]
    o["state_dict_keys"] = list(model.state_dict().keys())
    o["training"] = model.training
    o["eval_returns_self"] = model.eval() is model
    o["training_after_eval"] = [model.training, model[0].training]
    model.train()
    o["n_children"] = len(list(model.children()))
    o.repr("relu", nn.ReLU())
    o.repr("mse", nn.MSELoss())
    o.repr("mse_sum", nn.MSELoss(reduction="sum"))
    o.repr("ce", nn.CrossEntropyLoss())
    o.repr("linear_nobias", nn.Linear(2, 5, bias=False))
    p = nn.Parameter(T.tensor([1.0, 2.0]))
    o.flags("param", p)
    o.repr("param_repr", p)
    q = nn.Parameter(T.tensor([1.0, 2.0]), requires_grad=False)
    o.flags("param_no_grad", q)
    o.flags("param_times_2", p * 2)
    o["param_times_2_type"] = type(p * 2).__name__
    with T.no_grad():
        for i, prm in enumerate(model.parameters()):
            prm.copy_(T.tensor(arr(180 + i, *tuple(prm.shape)).tolist()))
    x = const(T, 190, 5, 3)
    y = model(x)
    o.tree("tree", y, 6)
    loss = nn.MSELoss(reduction="sum")(y, const(T, 191, 5, 2))
    loss.backward()
    o["grads"] = [prm.grad for prm in model.parameters()]
    model.zero_grad()
    o["grads_after_zero_grad"] = [prm.grad for prm in model.parameters()]


@case(requires=("nn.Linear", "optim.SGD", "optim.Adam"))
def optim_api(T, F, o):
    lin = T.nn.Linear(2, 1)
    with T.no_grad():
        lin.weight.copy_(T.tensor([[0.5, -0.5]]))
        lin.bias.copy_(T.tensor([0.25]))
    opt = T.optim.SGD(lin.parameters(), lr=0.5)
    o["param_groups"] = [len(g["params"]) for g in opt.param_groups]
    o["lr"] = opt.param_groups[0]["lr"]
    opt.step()  # no grads yet: nothing changes
    o["weight_no_grad_step"] = lin.weight
    lin(T.tensor([[1.0, 2.0]])).sum().backward()
    opt.step()
    o["weight"] = lin.weight
    o.flags("weight", lin.weight)
    o["version"] = lin.weight._version
    opt.zero_grad()
    o["grad"] = lin.weight.grad
    adam = T.optim.Adam([lin.weight], lr=0.1, betas=(0.8, 0.99))
    for _ in range(3):
        adam.zero_grad()
        (lin.weight ** 2).sum().backward()
        adam.step()
    o["adam_weight"] = lin.weight
    o.err("bad_lr", lambda: T.optim.SGD(lin.parameters(), lr=-1))


# ---------------------------------------------------------------------------------- issue 19: more ops
# Elementwise math: value, grad_fn, next_functions and the gradient, on float32 and on integers.
_UNARY19 = {
    "sin": (lambda x: x.sin(), None), "cos": (lambda x: x.cos(), None), "tan": (lambda x: x.tan(), "small"),
    "sinh": (lambda x: x.sinh(), None), "cosh": (lambda x: x.cosh(), None),
    "asin": (lambda x: x.asin(), "unit"), "acos": (lambda x: x.acos(), "unit"), "atan": (lambda x: x.atan(), None),
    "square": (lambda x: x.square(), None), "log1p": (lambda x: x.log1p(), "pos"),
    "expm1": (lambda x: x.expm1(), None), "log2": (lambda x: x.log2(), "pos"), "log10": (lambda x: x.log10(), "pos"),
    "exp2": (lambda x: x.exp2(), None), "rsqrt": (lambda x: x.rsqrt(), "pos"), "erf": (lambda x: x.erf(), None),
    "floor": (lambda x: x.floor(), None), "ceil": (lambda x: x.ceil(), None), "round": (lambda x: x.round(), None),
    "round_decimals": (lambda x: x.round(decimals=2), None), "trunc": (lambda x: x.trunc(), None),
    "frac": (lambda x: x.frac(), None), "clamp_min": (lambda x: x.clamp_min(0.25), None),
    "clamp_max": (lambda x: x.clamp_max(-0.5), None), "floordiv_number": (lambda x: x // 0.75, "nograd"),
    "mod_number": (lambda x: x % 0.75, None), "number_mod": (lambda x: 2.5 % x, "posnograd"),
    "fn_sin": (lambda x, T=None: x.sin().cos(), None),
}
_RANGES19 = {None: (-2.0, 2.0), "small": (-1.2, 1.2), "unit": (-0.9, 0.9), "pos": (0.2, 3.0),
             "nograd": (-2.0, 2.0), "posnograd": (0.5, 3.0)}


def _unary19_case(fn, kind):
    def c(T, F, o):
        lo, hi = _RANGES19[kind]
        x = leaf(T, 19, 2, 3, lo=lo, hi=hi)
        y = fn(x)
        if kind in ("nograd", "posnograd"):  # PyTorch records a node that raises when backward reaches it
            o.all(y)
            o.err("backward", lambda: y.sum().backward())
        else:
            fwd_bwd(T, o, y, x=x)
        o.val("int", lambda: fn(T.tensor([[1, 2, 3], [4, 5, 6]])) if kind not in ("unit",) else None)
    return c


for _name, (_fn, _kind) in _UNARY19.items():
    case(_unary19_case(_fn, _kind), name=f"b19_unary_{_name}")


@case
def b19_remainder_and_floordiv_tensors(T, F, o):
    a = leaf(T, 20, 2, 3)
    b = leaf(T, 21, 3, lo=0.5)
    fwd_bwd(T, o, a % b, "mod", a=a, b=b)
    o["ints_mod"] = T.tensor([5, -5, 7]) % T.tensor([3, 3, -2])
    o["ints_floordiv"] = T.tensor([5, -5, 7]) // T.tensor([3, 3, -2])
    o["ints_floordiv_number"] = T.tensor([5, -5, 7]) // 2
    o["floordiv_fn"] = T.floor_divide(T.tensor([5.5, -5.5]), 2)
    o["remainder_fn"] = T.remainder(T.tensor([5.5, -5.5]), 2)
    o.err("int_div_zero", lambda: T.tensor([1, 2]) // T.tensor([0, 1]))
    o.err("frac_int", lambda: T.tensor([1, 2]).frac())


@case
def b19_inplace_unary(T, F, o):
    x = leaf(T, 22, 2, 3)
    y = x * 1
    o["sin_"] = y.sin_() is y
    o.all(y, "y")
    o["version"] = y._version
    z = x * 2
    z.clamp_min_(0.0)
    o.all(z, "z")
    (y.sum() + z.sum()).backward()
    o.grads("", x=x)
    o.err("leaf", lambda: x.cos_())
    w = T.tensor([1.7, -2.3])
    w.floor_()
    o["floor_"] = w



@case
def b19_inplace_at_module_level(T, F, o):
    """``torch.sin_(x)`` is ``x.sin_()``: the same node, version bump and leaf check (the introyt tutorial)."""
    x = leaf(T, 24, 2, 3, lo=0.1, hi=0.9)
    y = x * 1
    o["sin_"] = T.sin_(y) is y
    o.all(y, "y")
    z = x * 3
    T.clamp_(z, min=0.5, max=2.0)
    T.exp_(z)
    o.all(z, "z")
    u = x * 1
    T.round_(u, decimals=1)
    T.clip_(u, 0.2, 0.6)
    o.all(u, "u")
    (y.sum() + z.sum() + u.sum()).backward()
    o.grads("", x=x)
    o.err("leaf", lambda: T.sin_(x))
    w = T.tensor([1.7, -2.3, 0.4])
    for name in ("floor_", "ceil_", "trunc_", "frac_", "abs_", "neg_", "sqrt_", "log_", "tanh_", "sigmoid_",
                 "relu_", "square_", "rsqrt_", "reciprocal_", "erf_", "exp2_", "expm1_", "log1p_", "log2_",
                 "log10_", "cos_", "tan_", "sinh_", "cosh_", "asin_", "acos_", "atan_"):
        v = w.clone()
        getattr(T, name)(v)
        o[name] = v
    v = w.clone()
    o["clamp_min_"] = T.clamp_min_(v, 0.0) is v
    o["clamp_max_"] = T.clamp_max_(v, 0.3)
    o["fill_"] = T.fill_(w.clone(), 2.5)
    o["zero_"] = T.zero_(w.clone())
    d = x * 1
    T.detach_(d)
    o["detach_"] = (d.requires_grad, d.grad_fn is None)


@case
def b19_numpy_axis_names(T, F, o):
    """PyTorch takes numpy's ``axis=``/``keepdims=`` wherever an op takes ``dim=``/``keepdim=`` (d2l's
    ``Y_hat.argmax(axis=1)``), and ``dims=`` by name for flip."""
    x = leaf(T, 25, 2, 3, lo=0.5)
    o["argmax"] = x.argmax(axis=1)
    o["argmax_keepdims"] = x.argmax(axis=0, keepdims=True)
    o["argmin"] = x.argmin(axis=1, keepdims=True)
    o["all"] = (x > 1).all(axis=1)
    o["any"] = (x > 1).any(axis=0, keepdims=True)
    y = (x.amax(axis=1) + x.amin(axis=0, keepdims=True).sum() + x.prod(axis=1, keepdims=True).sum()
         + x.logsumexp(axis=1, keepdims=True).sum() + x.cumsum(axis=1).sum() + x.softmax(axis=1)[:, 0].sum()
         + x.log_softmax(axis=0)[0].sum() + x.unsqueeze(axis=1).squeeze(axis=1).flip(dims=(0,))[0].sum())
    fwd_bwd(T, o, y, x=x)
    for name in ("cumsum", "softmax", "log_softmax", "unsqueeze", "logsumexp"):
        o.err(f"{name}_no_dim", lambda name=name: getattr(x, name)())


@case
def b19_modified_saved_tensor_names_its_node(T, F, o):
    """The "modified by an inplace operation" message names the node without "Backward" and a final 0:
    ExpBackward0 -> Exp, ProdBackward1 -> Prod1, ClampBackward1 -> Clamp1 (found by the differential tester)."""
    for name, make in (("exp", lambda v: v.exp()), ("prod_dim", lambda v: v.prod(0, keepdim=True)),
                       ("prod", lambda v: v.prod()), ("sigmoid", lambda v: v.sigmoid())):
        x = leaf(T, 26, 3, lo=0.5)
        y = make(x * 1)
        z = y.exp()
        y.mul_(2)
        o.err(name, lambda: z.sum().backward())
    for name, change in (("round_", lambda v: v.round_(decimals=1)), ("clamp_", lambda v: v.clamp_(0, 1)),
                         ("pow_", lambda v: v.pow_(2))):
        x = leaf(T, 27, 3, lo=0.5)
        y = x * 1
        z = y * y
        change(y)
        o.err(name, lambda: z.sum().backward())


@case
def b19_inplace_result_must_fit_the_dtype(T, F, o):
    """An in-place op whose result is a wider kind of number than the tensor raises (PyTorch's canCast):
    ``int_tensor.mul_(0.5)`` does not truncate; copies and fills cast; clamp by numbers names the C++ type."""
    i, b = (lambda: T.tensor([2, -3])), (lambda: T.tensor([True, False]))
    for name, fn in (("mul_", lambda: i().mul_(0.5)), ("div_", lambda: i().div_(2)), ("iadd", lambda: i().__iadd__(0.5)),
                     ("add_tensor", lambda: i().add_(T.tensor([0.5, 1.0]))), ("sqrt_", lambda: i().sqrt_()),
                     ("sin_", lambda: i().sin_()), ("exp_", lambda: i().exp_()), ("sigmoid_", lambda: i().sigmoid_()),
                     ("reciprocal_", lambda: i().reciprocal_()), ("pow_half", lambda: i().pow_(0.5)),
                     ("clamp_", lambda: i().clamp_(0.5, 2.5)), ("clamp_min_", lambda: i().clamp_min_(2.5)),
                     ("clamp_tensor", lambda: i().clamp_(T.tensor(0.5))),
                     ("clamp_int32", lambda: T.tensor([1, 2], dtype=T.int32).clamp_(0.5)),
                     ("clamp_bool", lambda: b().clamp_(1)), ("clamp_max_uint8", lambda: T.tensor([1, 2], dtype=T.uint8).clamp_max_(0.5)),
                     ("mul_int32", lambda: T.tensor([1, 2], dtype=T.int32).mul_(0.5)),
                     ("bool_add_", lambda: b().add_(1)), ("bool_add_tensor", lambda: b().add_(T.tensor([1])))):
        o.err(name, fn)
    o["fill_"] = i().fill_(2.5)
    o["copy_"] = i().copy_(T.tensor([0.5, 1.5]))
    o["masked_fill_"] = i().masked_fill_(T.tensor([True, False]), 1.5)
    t = i()
    t[0] = 1.5
    o["setitem"] = t
    o["bool_mul_bool"] = b().mul_(T.tensor([True, True]))
    o["int_add_bool"] = i().add_(True)
    o["relu_"] = i().relu_()
    o["square_"] = i().square_()
    o["floor_"] = i().floor_()
    o["pow_int"] = i().pow_(2)
    o["float_add_double"] = T.tensor([2.0, 3.0]).add_(T.tensor([1.0], dtype=T.float64))

_REDUCE19 = {
    "var": lambda x: x.var(), "var_dim": lambda x: x.var(1), "var_unbiased_false": lambda x: x.var(0, unbiased=False),
    "var_correction": lambda x: x.var(dim=1, correction=0, keepdim=True), "std": lambda x: x.std(),
    "std_dim": lambda x: x.std(0, keepdim=True), "norm": lambda x: x.norm(), "norm_dim": lambda x: x.norm(dim=1),
    "norm_p1": lambda x: x.norm(p=1), "norm_p3": lambda x: x.norm(p=3, dim=0), "norm_inf": lambda x: x.norm(p=float("inf")),
    "prod": lambda x: x.prod(), "prod_dim": lambda x: x.prod(1, keepdim=True), "cumsum": lambda x: x.cumsum(1),
    "cumsum0": lambda x: x.cumsum(-2), "logsumexp": lambda x: x.logsumexp(1),
    "logsumexp_all": lambda x: x.logsumexp((0, 1)), "amax": lambda x: x.amax(1), "amin": lambda x: x.amin(),
    "amax_keep": lambda x: x.amax(0, keepdim=True), "sum_axis_keepdims": lambda x: x.sum(axis=1, keepdims=True),
    "mean_axis": lambda x: x.mean(axis=0), "fn_var": lambda x: x.var(1, True, True),
}


def _reduce19_case(fn):
    def c(T, F, o):
        x = leaf(T, 23, 2, 3)
        fwd_bwd(T, o, fn(x), x=x)
    return c


for _name, _fn in _REDUCE19.items():
    case(_reduce19_case(_fn), name=f"b19_reduce_{_name}")


@case
def b19_reduce_ties_zeros_and_dtypes(T, F, o):
    x = T.tensor([[1.0, 3.0, 3.0], [2.0, 0.0, 2.0]], requires_grad=True)
    fwd_bwd(T, o, x.amax(1), "amax", x=x)
    x2 = T.tensor([[1.0, 3.0, 3.0], [2.0, 0.0, 2.0]], requires_grad=True)
    fwd_bwd(T, o, x2.prod(1), "prod_zero", x2=x2)
    x3 = T.tensor([[1.0, 3.0, 3.0], [2.0, 0.0, 2.0]], requires_grad=True)
    fwd_bwd(T, o, x3.prod(), "prod_all_zero", x3=x3)
    x4 = T.tensor([[0.0, 0.0], [1.0, 2.0]], requires_grad=True)
    fwd_bwd(T, o, x4.norm(dim=1), "norm_zero_row", x4=x4)
    x5 = T.tensor([[1.0, 1.0], [1.0, 2.0]], requires_grad=True)
    fwd_bwd(T, o, x5.std(1), "std_zero_row", x5=x5)
    i = T.tensor([[1, 2, 3], [4, 5, 6]])
    for name, fn in {"prod": lambda: i.prod(), "cumsum": lambda: i.cumsum(0), "amax": lambda: i.amax(1),
                     "argmin": lambda: i.argmin(), "argmin_dim": lambda: i.argmin(1, keepdim=True),
                     "all": lambda: i.all(), "any_dim": lambda: (i > 4).any(1), "all_dim": lambda: i.all(0),
                     "logsumexp": lambda: i.logsumexp(1), "sum_dtype": lambda: i.sum(dtype=T.float32),
                     "mean_dtype": lambda: i.mean(dtype=T.float64), "int32_cumsum": lambda: i.int().cumsum(1)}.items():
        o.val(f"int_{name}", fn)
    o.err("var_int", lambda: i.var())
    o.err("norm_int", lambda: i.norm())
    o.warns("var_one", lambda: T.tensor([1.0]).var())
    o["lse_inf"] = T.tensor([[-float("inf"), -float("inf")], [float("inf"), 1.0]]).logsumexp(1)


def _fb19(T, o, out, name, **leaves):
    """``fwd_bwd`` with the leaves' gradients recorded under ``name`` (and reset for the next use)."""
    o.all(out, name, 3)
    g = T.tensor(arr(99, *tuple(out.shape)).tolist(), dtype=out.dtype) if out.dim() else None
    out.backward(g)
    o.grads(name + ".", **leaves)
    for t in leaves.values():
        t.grad = None


@case
def b19_select_ops(T, F, o):
    x = leaf(T, 24, 3, 4)
    _fb19(T, o, x.masked_fill(x > 0.5, -1.0), "masked_fill", x=x)
    _fb19(T, o, x.index_select(1, T.tensor([3, 0, 3])), "index_select", x=x)
    _fb19(T, o, x.gather(1, T.tensor([[0, 0], [3, 1], [2, 2]])), "gather", x=x)
    src = leaf(T, 25, 3, 2)
    _fb19(T, o, x.scatter(1, T.tensor([[0, 1], [3, 2], [1, 0]]), src), "scatter", x=x, src=src)
    _fb19(T, o, x.scatter(0, T.tensor([[2, 0, 1, 0]]), 7.5), "scatter_value", x=x)
    _fb19(T, o, x.scatter_add(1, T.tensor([[0, 0], [3, 1], [2, 2]]), src), "scatter_add", x=x, src=src)
    _fb19(T, o, x.flip(0), "flip", x=x)
    _fb19(T, o, x.flip((0, 1)), "flip01", x=x)
    _fb19(T, o, x.narrow(1, 1, 2), "narrow", x=x)
    _fb19(T, o, x.repeat(2, 1, 3), "repeat", x=x)
    _fb19(T, o, x[range(2)], "range_index", x=x)
    _fb19(T, o, x[None].squeeze((0,)), "squeeze_tuple", x=x)
    _fb19(T, o, x.permute(dims=(1, 0)), "permute_dims", x=x)
    v = leaf(T, 26)
    _fb19(T, o, x.masked_fill(x > 0, v), "masked_fill_tensor", v=v)
    o.err("masked_fill_float_mask", lambda: x.masked_fill(x, 0.0))
    o.err("gather_float_index", lambda: x.gather(1, T.tensor([[0.0]])))
    o.err("repeat_too_few", lambda: x.repeat(2))


@case
def b19_split_chunk_unbind(T, F, o):
    x = leaf(T, 27, 5, 2)
    parts = x.split(2)
    o["split_shapes"] = [p.shape for p in parts]
    o["split_fn"] = [p.grad_fn for p in parts]
    (parts[0].sum() * 2 + parts[2].sum()).backward()  # the middle piece gets no gradient: zeros
    o.grads("split_", x=x)
    x.grad = None
    parts = x.split([1, 4], 0)
    o["split_sizes"] = [p.grad_fn for p in parts]
    _fb19(T, o, parts[1], "split_sizes_1", x=x)
    x.grad = None
    ch = x.chunk(3, 0)
    o["chunk_shapes"] = [c.shape for c in ch]
    o["chunk_fn"] = [c.grad_fn for c in ch]
    (ch[1] * ch[2][:2]).sum().backward()
    o.grads("chunk_", x=x)
    x.grad = None
    rows = x.unbind(1)
    o["unbind"] = list(rows)
    (rows[0] * 3 - rows[1]).sum().backward()
    o.grads("unbind_", x=x)
    o.err("split_bad_sizes", lambda: x.split([1, 2]))
    o["chunk_odd"] = [c.shape for c in T.arange(7).chunk(3)]
    o["fn_split"] = [p.shape for p in T.split(T.arange(7), 3)]


@case
def b19_linalg_and_misc(T, F, o):
    a = leaf(T, 28, 2, 3)
    b = leaf(T, 29, 4, 3)
    y = T.einsum("ij,kj->ik", a, b)
    o["einsum"] = y
    y.backward(T.ones(2, 4))
    o.grads("einsum_", a=a, b=b)
    a.grad = None
    v = leaf(T, 30, 3)
    y = T.einsum("ij,j->i", a, v)
    o["einsum_mv"] = y
    y.sum().backward()
    o.grads("einsum_mv_", a=a, v=v)
    a.grad = v.grad = None
    y = T.einsum("ij->", a) + T.einsum("ij->j", a).sum()
    y.backward()
    o.grads("einsum_sum_", a=a)
    a.grad = None
    w = leaf(T, 31, 3)
    _fb19(T, o, T.outer(v, w), "outer", v=v, w=w)
    _fb19(T, o, T.mv(a, v), "mv", a=a, v=v)
    m = leaf(T, 32, 2, 3, 4)
    n = leaf(T, 33, 2, 4, 2)
    _fb19(T, o, T.bmm(m, n), "bmm", m=m, n=n)
    _fb19(T, o, T.dot(v, w), "dot")
    o["minimum"] = T.minimum(T.tensor([1.0, 5.0]), T.tensor([3.0, 2.0]))
    o["maximum"] = T.maximum(T.tensor([1.0, 5.0]), T.tensor([3.0, 2.0]))
    o["square"] = T.square(T.tensor([1.5, -2.0]))
    o["permute"] = T.permute(T.ones(2, 3), (1, 0)).shape
    o["equal"] = [T.equal(T.ones(2), T.ones(2)), T.equal(T.ones(2), T.zeros(2)), T.equal(T.ones(2), T.ones(3))]
    o["stride"] = [T.ones(2, 3, 4).stride(), T.ones(2, 3).t().stride(), T.ones(2, 3).stride(1)]
    o["nelement"] = T.ones(2, 3, 4).nelement()
    f = T.ones(2, dtype=T.float64)
    o["new"] = [f.new_ones(3), f.new_zeros((2, 2)), f.new_tensor([1, 2]), f.new_full((2,), 7)]
    o["type_as"] = T.tensor([1, 2]).type_as(f)
    o["typed"] = [T.LongTensor([1, 2]), T.FloatTensor([1, 2]), T.FloatTensor(2, 3).shape, T.DoubleTensor([1.5]),
                  T.BoolTensor([1, 0]), T.IntTensor([3])]


@case
def b19_arange_float_step(T, F, o):
    o["a"] = T.arange(-8, 8, 0.1)
    o["b"] = T.arange(0, 1, 0.1)
    o["c"] = T.arange(-3, 3, 0.01)
    o["d"] = T.arange(5, 0, -0.3)
    o["e"] = T.arange(0.1, 7.3, 0.37, dtype=T.float64)
    o["f"] = T.arange(1, 2.5, 0.5)
    o["relu_grad_at_zero"] = [(T.arange(-8, 8, 0.1) > 0).sum()]
    o.err("zero_step", lambda: T.arange(0, 1, 0))
    o.err("bad_sign", lambda: T.arange(0, 1, -0.1))


_ACT19 = {
    "leaky_relu": lambda F, x: F.leaky_relu(x), "leaky_relu_02": lambda F, x: F.leaky_relu(x, 0.2),
    "gelu": lambda F, x: F.gelu(x), "gelu_tanh": lambda F, x: F.gelu(x, approximate="tanh"),
    "silu": lambda F, x: F.silu(x), "softplus": lambda F, x: F.softplus(x),
    "softplus_beta": lambda F, x: F.softplus(x * 10, beta=2, threshold=5), "elu": lambda F, x: F.elu(x),
    "elu_alpha": lambda F, x: F.elu(x, 0.5), "relu6": lambda F, x: F.relu6(x * 4),
    "hardtanh": lambda F, x: F.hardtanh(x), "logsigmoid": lambda F, x: F.logsigmoid(x * 10),
}


def _act19_case(fn):
    def c(T, F, o):
        x = leaf(T, 40, 2, 4)
        fwd_bwd(T, o, fn(F, x), x=x)
    return c


for _name, _fn in _ACT19.items():
    case(_act19_case(_fn), name=f"b19_act_{_name}")


@case
def b19_losses(T, F, o):
    p = leaf(T, 41, 2, 3, lo=0.05, hi=0.95)
    t = T.tensor([[1.0, 0.0, 1.0], [0.0, 0.0, 1.0]])
    _fb19(T, o, F.binary_cross_entropy(p, t), "bce", p=p)
    _fb19(T, o, F.binary_cross_entropy(p, t, reduction="sum"), "bce_sum", p=p)
    _fb19(T, o, F.binary_cross_entropy(p, t, weight=T.tensor([1.0, 2.0, 0.5]), reduction="none"), "bce_w", p=p)
    x = leaf(T, 42, 2, 3, lo=-4, hi=4)
    _fb19(T, o, F.binary_cross_entropy_with_logits(x, t), "bcel", x=x)
    _fb19(T, o, F.binary_cross_entropy_with_logits(x, t, pos_weight=T.tensor([2.0, 1.0, 0.5])), "bcel_pw", x=x)
    _fb19(T, o, F.binary_cross_entropy_with_logits(x, t, weight=T.tensor([[2.0], [0.5]]), reduction="sum"),
          "bcel_w", x=x)
    y = leaf(T, 43, 2, 3)
    _fb19(T, o, F.l1_loss(x, y), "l1", x=x, y=y)
    _fb19(T, o, F.l1_loss(x, y, reduction="sum"), "l1_sum", x=x)
    _fb19(T, o, F.smooth_l1_loss(x, y), "smooth_l1", x=x, y=y)
    _fb19(T, o, F.smooth_l1_loss(x, y, beta=0.5, reduction="none"), "smooth_l1_beta", x=x)
    _fb19(T, o, F.huber_loss(x, y, delta=0.7), "huber", x=x, y=y)
    o["modules"] = [T.nn.BCELoss()(p, t), T.nn.BCEWithLogitsLoss()(x, t), T.nn.L1Loss()(x, y),
                    T.nn.SmoothL1Loss()(x, y), T.nn.HuberLoss()(x, y)]
    o["bce_edges"] = [T.nn.BCELoss()(p, t)]
    o.tree("bce_tree", F.binary_cross_entropy(p, t))
    o["bce_saturated"] = F.binary_cross_entropy(T.tensor([0.0, 1.0]), T.tensor([1.0, 0.0]), reduction="none")
    o.err("bce_range", lambda: F.binary_cross_entropy(T.tensor([1.5]), T.tensor([1.0])))
    o.err("bce_size", lambda: F.binary_cross_entropy(T.tensor([0.5]), T.tensor([1.0, 0.0])))


@case
def b19_one_hot_dropout_modules(T, F, o):
    o["one_hot"] = F.one_hot(T.tensor([0, 2, 1]))
    o["one_hot_n"] = F.one_hot(T.tensor([[0], [3]]), 5)
    o.err("one_hot_big", lambda: F.one_hot(T.tensor([0, 5]), 3))
    o.err("one_hot_neg", lambda: F.one_hot(T.tensor([-1]), 3))
    o.err("one_hot_empty", lambda: F.one_hot(T.tensor([], dtype=T.int64)))  # (no class to count from)
    o["one_hot_empty_n"] = F.one_hot(T.tensor([], dtype=T.int64).reshape(0, 3), 4)
    o.err("one_hot_float", lambda: F.one_hot(T.tensor([1.0])))
    x = leaf(T, 44, 3, 4)
    o["eval_is_input"] = F.dropout(x, 0.5, training=False) is x
    o["p0_is_input"] = F.dropout(x, 0.0) is x
    y = F.dropout(x, 0.5)
    o.fn("dropout_fn", y)
    o["dropout_kept_scaled"] = bool(((y == 0) | ((y - 2 * x).abs() < 1e-6)).all())
    o["dropout_p1"] = F.dropout(x, 1.0)
    o.err("dropout_bad_p", lambda: F.dropout(x, 1.5))
    o.err("dropout_module_bad_p", lambda: T.nn.Dropout(-0.1))
    m = T.nn.Dropout(0.3)
    m.eval()
    o["module_eval"] = m(x) is x
    o.repr("reprs", [T.nn.LeakyReLU(), T.nn.LeakyReLU(0.2, True), T.nn.GELU(), T.nn.GELU("tanh"), T.nn.SiLU(),
                     T.nn.Softplus(), T.nn.Softplus(2, 10), T.nn.ELU(), T.nn.ELU(0.5), T.nn.ReLU6(), T.nn.Dropout(),
                     T.nn.Dropout(0.2), T.nn.BCELoss(), T.nn.BCEWithLogitsLoss(), T.nn.L1Loss(), T.nn.SmoothL1Loss(),
                     T.nn.HuberLoss(), T.nn.Hardtanh(), T.nn.LogSigmoid(), T.nn.LazyLinear(3)])
    lazy = T.nn.LazyLinear(2)
    out = lazy(T.ones(4, 3))
    o["lazy"] = [out.shape, lazy.weight.shape, lazy.in_features, type(lazy).__name__]
    o.repr("lazy_repr", lazy)
    seq = T.nn.Sequential(T.nn.Linear(2, 3), T.nn.GELU(), T.nn.Dropout(0.5), T.nn.Linear(3, 1), T.nn.Sigmoid())
    seq.eval()
    with T.no_grad():
        for prm, v in zip(seq.parameters(), ([[0.5, -0.5], [1.0, 0.25], [-1.0, 2.0]], [0.1, 0.2, 0.3],
                                             [[1.0, -1.0, 0.5]], [0.05])):
            prm.copy_(T.tensor(v))
    o["seq_eval"] = seq(T.tensor([[1.0, 2.0], [-1.0, 0.5]]))


# ---------------------------------------------------------------------------------- issue 18: op-level classes
def _grads_of(T, o, key, y, *leaves, gradient=None):
    """Backward from ``y`` (summed unless a gradient is given) and record the leaves' gradients."""
    for t in leaves:
        t.grad = None
    (y if gradient is not None else y.sum()).backward(gradient)
    o[key] = [t.grad for t in leaves]


@case
def f18_reductions(T, F, o):
    x = leaf(T, 181, 2, 3)
    y = x.sum(dtype=T.float64)
    o.all(y, "sum_dtype")
    _grads_of(T, o, "sum_dtype.grad", y, x)
    o.all(x.sum(1, dtype=T.float64), "sum_dim_dtype")
    o.err("sum_dtype_int", lambda: x.sum(dtype=T.int64))
    with T.no_grad():
        o["sum_dtype_int_no_grad"] = x.sum(dtype=T.int64)
    o.err("sum_repeated_dims", lambda: x.sum((0, -2)))
    o.err("mean_repeated_dims", lambda: x.mean((1, 1)))
    z = T.tensor(1.5, requires_grad=True)
    for name in ("max", "min"):
        values, indices = getattr(z, name)(0)
        o.all(values, f"0d.{name}0")
        o[f"0d.{name}0.indices"] = indices
        _grads_of(T, o, f"0d.{name}0.grad", values, z)
    o.err("0d.max1", lambda: z.max(1))
    o.err("0d.mean_m2", lambda: z.mean(-2))
    o.err("0d.sum1", lambda: z.sum(1))
    o.err("max_empty_dim", lambda: T.zeros(0, 3).max(0))
    o.err("min_empty_dim", lambda: T.zeros(2, 0).min(1))
    n = T.tensor([1.0, float("nan"), 3.0, float("nan")], requires_grad=True)
    o.warns("max_nan.warnings", lambda: n.max())
    _grads_of(T, o, "max_nan.grad", n.max(), n)
    i = T.tensor([[1, 2], [3, 4]])
    for name in ("softmax", "log_softmax"):
        o.err(f"{name}_int_dim0", lambda: getattr(i, name)(0))
        o.err(f"{name}_int_dim1", lambda: getattr(i, name)(1))
        o.err(f"{name}_bool", lambda: getattr(T.tensor(True), name)(0))
    s = T.tensor([[float("-inf"), float("-inf")], [0.5, float("inf")]], requires_grad=True)
    o["softmax_inf"] = o.warns("softmax_inf.warnings", lambda: s.softmax(1))
    o["log_softmax_inf"] = o.warns("log_softmax_inf.warnings", lambda: s.log_softmax(1))
    o["0d.softmax"] = z.softmax(0)
    o["0d.log_softmax"] = z.log_softmax(-1)
    o["sum_inf"] = o.warns("sum_inf.warnings", lambda: [s.sum(), s.sum(1), s.mean(), s.mean(0)])
    o.err("argmax_bool", lambda: T.tensor([True, False]).argmax())
    o["0d.argmax0"] = z.argmax(0)


@case
def f18_losses(T, F, o):
    a, b = T.tensor([1, 2]), T.tensor([1.0, 2.5])
    o.err("mse_int", lambda: F.mse_loss(a, a))
    o.err("mse_bool_int", lambda: F.mse_loss(T.tensor([True]), T.tensor([1])))
    o["mse_int_float"] = F.mse_loss(a, b)
    x = leaf(T, 182, 1, 2)
    t = leaf(T, 183, 2, 1, 2)
    y = o.warns("mse_broadcast.warnings", lambda: F.mse_loss(x, t))
    o.all(y, "mse_broadcast")
    _grads_of(T, o, "mse_broadcast.grad", y, x, t)
    logits = leaf(T, 184, 2, 3)
    o.err("nll_n1_target", lambda: F.nll_loss(logits, T.tensor([[0], [1]])))
    o.err("ce_n1_target", lambda: F.cross_entropy(logits, T.tensor([[0], [1]])))
    o.err("ce_same_shape_int", lambda: F.cross_entropy(logits, T.tensor([[0, 1, 2], [1, 1, 1]])))
    o.err("nll_0d", lambda: F.nll_loss(T.tensor(0.5), T.tensor(0)))
    o.err("nll_batch_0d_target", lambda: F.nll_loss(logits, T.tensor(1)))
    o.err("nll_1d_target_size", lambda: F.nll_loss(logits[0], T.tensor([0, 1])))
    o.err("nll_int_input", lambda: F.nll_loss(T.tensor([[1, 2]]), T.tensor([0])))
    o.err("nll_spatial_target", lambda: F.nll_loss(leaf(T, 185, 2, 3, 1), T.tensor([0, 1])))
    o.err("nll_4d_target", lambda: F.nll_loss(T.zeros(2, 3, 1, 1), T.tensor([0, 1])))
    for red in ("mean", "sum", "none"):
        ignored = o.warns(f"ce_all_ignored_{red}.warnings",
                          lambda: F.cross_entropy(logits, T.tensor([-100, -100]), reduction=red))
        o[f"ce_all_ignored_{red}"] = ignored
        _grads_of(T, o, f"ce_all_ignored_{red}.grad", ignored, logits)
    sp = leaf(T, 186, 2, 3, 2)
    target = T.tensor([[0, 2], [1, -100]])
    for red in ("mean", "sum", "none"):
        y = F.nll_loss(sp, target, reduction=red)
        o.all(y, f"nll_spatial_{red}")
        _grads_of(T, o, f"nll_spatial_{red}.grad", y, sp)
    y = F.cross_entropy(sp, T.tensor([[0, 2], [1, 1]]), weight=T.tensor([1.0, 2.0, 0.5]))
    o.all(y, "ce_spatial_weight")
    _grads_of(T, o, "ce_spatial_weight.grad", y, sp)
    o["nll_inf_ignored"] = F.nll_loss(T.tensor([[float("inf"), 0.0], [1.0, 2.0]]), T.tensor([-100, 1]))


@case
def f18_indexing(T, F, o):
    x = leaf(T, 187, 2, 3)
    z = T.tensor(1.5, requires_grad=True)
    for name, key in (("ellipsis", ...), ("whole_tuple", (slice(None), slice(0, None))),
                      ("whole_slice_then_int", (slice(0, None), 0)), ("lone_slice", slice(None)),
                      ("whole_stop", (slice(0, 2), [0, 1])), ("none_ellipsis_int", (None, ..., 0)),
                      ("bool_true", True), ("bool_tensor", T.tensor(True))):
        y = x[key]
        o.all(y, f"x[{name}]")
        _grads_of(T, o, f"x[{name}].grad", y, x)
    for name, key in (("ellipsis", ...), ("mask", z > 0), ("true", True), ("false", False), ("none", None)):
        o.all(z[key], f"z[{name}]")
    o.err("z[slice]", lambda: z[:])
    o.err("z[0]", lambda: z[0])
    o.err("x[[5]]", lambda: x[[5]])
    o.err("x[:, [5]]", lambda: x[:, [5]])
    o.err("x[[0], [5]]", lambda: x[[0], [5]])
    o.err("x[5]", lambda: x[5])
    o.err("x[:, 5]", lambda: x[:, 5])
    o.err("select_range", lambda: x.select(0, 5))
    o.err("select_neg_range", lambda: x.select(1, -4))
    o.err("select_0d", lambda: z.select(0, 0))
    o["sequence_as_tuple"] = o.warns("sequence_as_tuple.warnings", lambda: x[[[0], [1]]])
    o["list_index"] = x[[1, 0]]


@case
def f18_setitem(T, F, o):
    x = leaf(T, 188, 2, 3)
    v = leaf(T, 189, 3)
    z = T.tensor(0.7, requires_grad=True)
    writes = {
        "mask_number": lambda g: g.__setitem__(g > 0, 0.5),
        "list_number": lambda g: g.__setitem__([0, 1], 0.5),
        "list_cols": lambda g: g.__setitem__((slice(None), [0, 2]), 0.5),
        "list_tensor": lambda g: g.__setitem__([0, 1], v),
        "mask_0d_tensor": lambda g: g.__setitem__(g > 0, z),
        "row_int_list": lambda g: g.__setitem__((0, [0, 2]), 1.0),
        "all_number": lambda g: g.__setitem__(slice(None), 0.5),
        "all_from_0": lambda g: g.__setitem__(slice(0, None), 0.5),
        "all_ellipsis_0d": lambda g: g.__setitem__(Ellipsis, z),
        "all_tuple": lambda g: g.__setitem__((slice(None), slice(None)), 0.5),
        "all_tensor": lambda g: g.__setitem__(slice(None), v),
        "all_same_shape": lambda g: g.__setitem__(Ellipsis, x * 2),
        "row": lambda g: g.__setitem__(0, v),
        "row_slice_expand": lambda g: g.__setitem__(slice(0, 1), v),
        "row_leading_one": lambda g: g.__setitem__(0, v.reshape(1, 3)),
        "col": lambda g: g.__setitem__((slice(None), 0), 0.25),
    }
    for name, write in writes.items():
        g = x.clone()
        write(g)
        o.all(g, f"{name}", depth=5)
        o[f"{name}.version"] = g._version
        _grads_of(T, o, f"{name}.grad", g * T.tensor([1.0, 2.0, 3.0]), x, v, z)
    y = z.clone()
    y[y > 0] = -1.0
    o.all(y, "0d_mask")
    y = z.clone()
    y[...] = 2.0
    o.all(y, "0d_ellipsis")
    o.err("leaf_view", lambda: x.__setitem__(0, 1.0))
    o.err("leaf_whole", lambda: x.__setitem__(slice(None), 1.0))


@case
def f18_shapes(T, F, o):
    i, f, d = T.tensor([1, 2, 3]), leaf(T, 190, 3), leaf(T, 191, 3, dtype="float64")
    b = T.tensor([True, False, True])
    for name, ts in (("int_float", [i, f]), ("float_double", [f, d]), ("int_bool", [i, b]), ("bool_float", [b, f])):
        o.all(T.cat(ts), f"cat_{name}")
        o.all(T.stack(ts), f"stack_{name}")
    y = T.cat([d, f])
    _grads_of(T, o, "cat_float_double.grad", y, f, d)
    z = T.tensor(1.5, requires_grad=True)
    o.err("cat_0d", lambda: T.cat([z, z]))
    o.err("cat_0d_second", lambda: T.cat([f, z]))
    o.err("cat_empty", lambda: T.cat([]))
    o.err("stack_empty", lambda: T.stack([]))
    o.all(T.stack([z, z * 2]), "stack_0d")
    o.all(z.transpose(0, -1), "0d.transpose")
    o.all(z.mT, "0d.mT")
    o.err("1d.mT", lambda: f.mT)
    o.err("permute_none", lambda: f.permute())
    o.all(z.permute(()), "0d.permute")
    o.err("expand_float", lambda: f.expand(1.5))
    o.err("expand_none", lambda: f.expand())
    m = leaf(T, 192, 2, 3, dtype="float64")
    o.err("expand_fewer_double", lambda: m.expand(3))
    o.err("expand_fewer_long", lambda: T.tensor([[1, 2]]).expand(3))
    o.err("0d.flatten1", lambda: z.flatten(1))
    o.all(z.flatten(-1, 0), "0d.flatten")
    o.err("flatten_backwards", lambda: m.flatten(1, 0))
    o.all(m.t().reshape(3, 2), "reshape_alias")
    o.all(m.t().reshape(6), "reshape_copy")
    o.all(m.reshape(3, 2), "reshape_view")


@case
def f18_casts(T, F, o):
    x = T.tensor([1.5, float("nan"), -2.7, float("inf")], requires_grad=True)
    h = x * 2
    for name, fn in (("long", lambda t: t.long()), ("bool", lambda t: t.bool()), ("int", lambda t: t.int()),
                     ("to_int64", lambda t: t.to(T.int64)), ("double", lambda t: t.double())):
        for src_name, src in (("leaf", x), ("nonleaf", h)):
            y = o.warns(f"{name}.{src_name}.warnings", lambda: fn(src))
            o[f"{name}.{src_name}"] = y
            o.flags(f"{name}.{src_name}", y)


def _optim19(T, make, steps=4):
    w = T.tensor([[0.5, -1.0], [1.5, 0.25]], requires_grad=True)
    b = T.tensor([0.1, -0.2], requires_grad=True)
    opt = make([w, b])
    x = T.tensor([[1.0, 2.0], [-0.5, 0.3], [2.0, -1.0]])
    losses = []
    for _ in range(steps):
        opt.zero_grad()
        loss = ((x @ w + b) ** 2).mean()
        loss.backward()
        opt.step()
        losses.append(loss.item())
    return w, b, losses, opt


_OPTIM19 = {
    "rmsprop": lambda T, p: T.optim.RMSprop(p), "rmsprop_momentum": lambda T, p: T.optim.RMSprop(p, lr=0.05, momentum=0.9),
    "rmsprop_centered": lambda T, p: T.optim.RMSprop(p, lr=0.02, centered=True, weight_decay=0.1),
    "rmsprop_alpha": lambda T, p: T.optim.RMSprop(p, lr=0.01, alpha=0.9, eps=1e-6, maximize=True),
    "adagrad": lambda T, p: T.optim.Adagrad(p, lr=0.1),
    "adagrad_decay": lambda T, p: T.optim.Adagrad(p, lr=0.1, lr_decay=0.5, weight_decay=0.2,
                                                  initial_accumulator_value=0.1),
}


def _optim19_case(make):
    def c(T, F, o):
        w, b, losses, opt = _optim19(T, lambda p: make(T, p))
        o["w"], o["b"], o["losses"] = w, b, losses
        o["state_keys"] = sorted(opt.state_dict()["state"][0])
        o["state"] = {k: v for k, v in opt.state_dict()["state"][0].items()}
        o["defaults"] = sorted(opt.defaults)
    return c


for _name, _make in _OPTIM19.items():
    case(_optim19_case(_make), name=f"b19_optim_{_name}", requires=("optim.RMSprop", "optim.Adagrad"))


@case(requires=("optim.RMSprop", "optim.Adagrad"))
def b19_optim_errors(T, F, o):
    p = [T.ones(2, requires_grad=True)]
    o.err("rms_lr", lambda: T.optim.RMSprop(p, lr=-1))
    o.err("rms_alpha", lambda: T.optim.RMSprop(p, alpha=-0.5))
    o.err("rms_momentum", lambda: T.optim.RMSprop(p, momentum=-1))
    o.err("ada_decay", lambda: T.optim.Adagrad(p, lr_decay=-1))
    o.err("ada_init", lambda: T.optim.Adagrad(p, initial_accumulator_value=-1))
    o.err("ada_eps", lambda: T.optim.Adagrad(p, eps=-1))
    o.str("ada_repr", T.optim.Adagrad(p).__class__.__name__)


@case(requires=("autograd.functional",))
def b19_autograd_functional(T, F, o):
    from importlib import import_module
    AF = import_module(T.__name__ + ".autograd.functional")
    x = leaf(T, 50, 3, lo=0.5)
    y = leaf(T, 51, 3)
    f = lambda a: a ** 3 + a.sin()  # noqa: E731
    o["jacobian"] = AF.jacobian(f, x)
    o["jacobian_2in"] = AF.jacobian(lambda a, b: a * b.exp(), (x, y))
    o["jacobian_2out"] = AF.jacobian(lambda a: (a * 2, a.sum()), x)
    o["jacobian_matrix"] = AF.jacobian(lambda a: a.reshape(3, 1) @ a.reshape(1, 3), x)
    o["jacobian_const"] = AF.jacobian(lambda a: T.ones(2), x)
    o.err("jacobian_strict", lambda: AF.jacobian(lambda a: T.ones(2), x, strict=True))
    o["hessian"] = AF.hessian(lambda a: (a ** 3).sum() + (a[0] * a[1]), x)
    o["hessian_2in"] = AF.hessian(lambda a, b: (a * b * b).sum(), (x, y))
    o["vjp"] = AF.vjp(f, x, T.tensor([1.0, -2.0, 0.5]))
    o["vjp_scalar"] = AF.vjp(lambda a: (a * a).sum(), x)
    o.err("vjp_no_v", lambda: AF.vjp(f, x))
    o["jvp"] = AF.jvp(f, x, T.tensor([1.0, -2.0, 0.5]))
    o["jvp_2in"] = AF.jvp(lambda a, b: a * b, (x, y), (T.ones(3), T.tensor([0.0, 1.0, 2.0])))
    o.err("jvp_no_v", lambda: AF.jvp(f, x))
    o["hvp"] = AF.hvp(lambda a: (a ** 3).sum(), x, T.tensor([1.0, 0.0, 2.0]))
    o["vhp"] = AF.vhp(lambda a: (a ** 3).sum(), x, T.tensor([1.0, 0.0, 2.0]))
    o["inputs_untouched"] = [x.grad, x.requires_grad]
    j = AF.jacobian(f, x, create_graph=True)
    o.flags("jacobian_create_graph", j)


@case(requires=("utils.data.DataLoader",))
def b19_utils_data(T, F, o):
    from importlib import import_module
    D = import_module(T.__name__ + ".utils.data")
    x = T.tensor(arr(52, 7, 2).tolist())
    y = T.tensor([0, 1, 1, 0, 1, 0, 0])
    ds = D.TensorDataset(x, y)
    o["len"] = len(ds)
    o["item"] = list(ds[3])
    loader = D.DataLoader(ds, batch_size=3)
    o["n_batches"] = len(loader)
    o["batches"] = [list(b) for b in loader]
    o["drop_last"] = [len(D.DataLoader(ds, batch_size=3, drop_last=True)), [xb.shape for xb, _ in
                                                                             D.DataLoader(ds, 3, drop_last=True)]]
    o["shuffled_sizes"] = sorted(int(yb.shape[0]) for _, yb in D.DataLoader(ds, batch_size=2, shuffle=True))
    o["shuffled_all"] = sorted(i for _, yb in D.DataLoader(ds, batch_size=2, shuffle=True) for i in yb.tolist())
    parts = D.random_split(ds, [5, 2])
    o["split"] = [len(p) for p in parts]
    o["split_frac"] = [len(p) for p in D.random_split(range(10), [0.33, 0.33, 0.34])]
    o["split_disjoint"] = sorted(parts[0].indices + parts[1].indices) == list(range(7))
    o.err("split_bad", lambda: D.random_split(ds, [3, 3]))
    o.err("size_mismatch", lambda: D.TensorDataset(x, y[:3]))
    o["numbers"] = list(D.DataLoader([1.5, 2.5, 3.5], batch_size=2))


# ---------------------------------------------------------------------------------- issue 18: engine-level classes
def _none_edge_function(T, which):
    class Half(T.autograd.Function):  # backward gives a gradient to one input only
        @staticmethod
        def forward(ctx, a, b):
            return a * 1.0 + b

        @staticmethod
        def backward(ctx, g):
            return (g * 2, None) if which == 0 else (None, g * 2)
    return Half


@case
def e18_none_gradient_edges(T, F, o):
    """A None gradient on one edge still counts: the node behind it runs (also in second order)."""
    x = leaf(T, 200, 3)
    _none_edge_function(T, 0).apply(x * 3, x).sum().backward()
    o.grads("a.", x=x)
    x = leaf(T, 201, 3)
    _none_edge_function(T, 1).apply(x.exp(), x * x).sum().backward()
    o.grads("b.", x=x)
    x, w = leaf(T, 202, 3), leaf(T, 203, 3)
    (_none_edge_function(T, 0).apply(w * 3, x) + x).sum().backward()  # x's AccumulateGrad gets None and a gradient
    o.grads("c.", x=x, w=w)
    x = leaf(T, 204, 3)
    g, = T.autograd.grad(_none_edge_function(T, 0).apply(x ** 3, x).sum(), x, create_graph=True)
    o.all(g, "second.g")
    g2, = T.autograd.grad(g.sum(), x)
    o["second.g2"] = g2
    x = leaf(T, 205, 3)
    _none_edge_function(T, 1).apply(x * 3, x.sin()).sum().backward(create_graph=True)
    g = x.grad
    x.grad = None
    g.sum().backward()
    o.grads("third.", x=x)


@case
def e18_second_backward_raises(T, F, o):
    """Every op that saves something refuses a second backward without retain_graph; the others run twice."""
    progs = {
        "max_dim": lambda x: x.max(1)[0], "min_dim": lambda x: x.min(0).values, "index_list": lambda x: x[[0, 1, 1]],
        "index_mask": lambda x: x[x > 0], "where_number": lambda x: T.where(x > 0, x, 2.0),
        "where_tensors": lambda x: T.where(x > 0, x, x * 2), "mul_number": lambda x: x * 2.0,
        "nll_loss": lambda x: F.nll_loss(x.log_softmax(1), T.tensor([0, 2])),
        "cross_entropy": lambda x: F.cross_entropy(x, T.tensor([1, 0])), "gather": lambda x: x.gather(1, T.tensor([[0], [2]])),
        "clamp": lambda x: x.clamp(-0.5, 0.5), "masked_fill": lambda x: x.masked_fill(x > 0, 0.0),
        "relu": lambda x: x.relu(), "abs": lambda x: x.abs(), "max": lambda x: x.max(),
        "sum": lambda x: x.sum(), "slice": lambda x: x[:, 1:], "add_number": lambda x: x + 1,
        "expand": lambda x: x[:1].expand(3, 3), "neg": lambda x: -x, "view": lambda x: x.view(6),
    }
    for name, f in progs.items():
        x = leaf(T, 210, 2, 3)
        y = f(x).sum()
        y.backward()
        o.err(f"{name}.again", lambda: y.backward())
        o.grads(f"{name}.", x=x)


@case
def e18_second_order_piecewise(T, F, o):
    """relu/threshold/abs keep a zero second derivative with a graph; sign is differentiable (zero)."""
    progs = {
        "relu": lambda x: x.relu(), "relu_f": lambda x: F.relu(x), "threshold": lambda x: F.threshold(x, 0.5, -1.0),
        "abs": lambda x: x.abs(), "sign": lambda x: x.sign(), "sign_times_x": lambda x: x.sign() * x,
        "max": lambda x: x.max(), "max_dim": lambda x: x.max(0)[0], "clamp": lambda x: x.clamp(-1, 1),
        "maximum": lambda x: T.maximum(x, x * 0.5), "relu_sq": lambda x: x.relu() * x, "abs_sq": lambda x: x.abs() * x,
    }
    for name, f in progs.items():
        x = T.tensor([1.5, -2.0, 0.3, -0.7, 0.0], requires_grad=True)
        y = f(x)
        o.fn(f"{name}.grad_fn", y)
        g, = T.autograd.grad(y.sum(), x, create_graph=True)
        o.all(g, f"{name}.g")
        if g.requires_grad:
            g2, = T.autograd.grad(g.sum(), x, allow_unused=True)
            o[f"{name}.g2"] = None if g2 is None else g2.detach() + 0  # (+ 0: PyTorch's zeros may have no storage)
    x = T.tensor([float("nan"), -0.0, 0.0, 2.0, -3.0], requires_grad=True)
    o.all(x.sign(), "sign_values")
    x.abs().sum().backward()
    o.grads("abs_nan.", x=x)
    x = T.tensor([float("nan"), -1.0, 0.0, 2.0], requires_grad=True)
    x.relu().sum().backward()
    o.grads("relu_nan.", x=x)


@case
def e18_retain_grad_with_grad_and_inputs(T, F, o):
    """retain_grad() fills .grad whenever the tensor's gradient is computed: autograd.grad, backward(inputs=...)."""
    x = leaf(T, 220, 2)
    y = x * 2
    y.retain_grad()
    z = (y * y).sum()
    T.autograd.grad(z, x, retain_graph=True)
    o.grads("grad_x.", y=y, x=x)
    T.autograd.grad(z, x, retain_graph=True)
    o.grads("grad_x_again.", y=y, x=x)
    T.autograd.grad(z, y)
    o.grads("grad_y.", y=y)
    x = leaf(T, 221, 2)
    y = x * 2
    y.retain_grad()
    w = y * 3
    w.retain_grad()
    z = (w * y).sum()
    z.backward(inputs=[x], retain_graph=True)
    o.grads("inputs_x.", y=y, w=w, x=x)
    z.backward(inputs=[y], retain_graph=True)
    o.grads("inputs_y.", y=y, w=w, x=x)
    u = y.exp()
    u.retain_grad()
    (u + y).sum().backward(inputs=[u])
    o.grads("inputs_u.", u=u, y=y)


@case
def e18_inplace_activations(T, F, o):
    """F.relu(x, inplace=True), nn.ReLU(inplace=True) and the x.op_() variants change x itself."""
    makers = {
        "F.relu": lambda a: F.relu(a, inplace=True), "nn.ReLU": lambda a: T.nn.ReLU(inplace=True)(a),
        "relu_": lambda a: a.relu_(), "threshold": lambda a: F.threshold(a, 0.5, -1.0, inplace=True),
        "sigmoid_": lambda a: a.sigmoid_(), "tanh_": lambda a: a.tanh_(), "exp_": lambda a: a.exp_(),
        "abs_": lambda a: a.abs_(), "neg_": lambda a: a.neg_(), "sign_": lambda a: a.sign_(),
        "reciprocal_": lambda a: a.reciprocal_(), "log_": lambda a: a.log_(), "sqrt_": lambda a: a.sqrt_(),
    }
    for name, make in makers.items():
        x = leaf(T, 230, 4, lo=0.1 if name in ("log_", "sqrt_") else -2.0)
        a = x * 1.0
        before = a._version
        r = make(a)
        o[f"{name}.same"] = r is a
        o[f"{name}.version"] = a._version - before
        o.all(a, name)
        (a * T.tensor([1.0, 2.0, 3.0, 4.0])).sum().backward()
        o.grads(f"{name}.", x=x)
    x = leaf(T, 231, 3)
    o.err("leaf.F.relu", lambda: F.relu(x, inplace=True))
    o.err("leaf.nn.ReLU", lambda: T.nn.ReLU(inplace=True)(x))
    o.err("leaf.sigmoid_", lambda: x.sigmoid_())
    with T.no_grad():
        y = leaf(T, 232, 3)
        o["no_grad.same"] = F.relu(y, inplace=True) is y
        o["no_grad.version"] = y._version
        o.all(y, "no_grad")
    x = leaf(T, 233, 3)
    a = x.exp()
    F.relu(a, inplace=True)  # exp saved its output, which relu_ overwrote
    o.err("saved_then_changed", lambda: a.sum().backward())
    x = leaf(T, 234, 3)
    a = T.nn.Sequential(T.nn.Linear(3, 4), T.nn.ReLU(inplace=True))
    with T.no_grad():
        for i, p in enumerate(a.parameters()):
            p.copy_(T.tensor(arr(235 + i, *p.shape).tolist()))
    y = a(x.unsqueeze(0))
    o.all(y, "module_out", depth=4)
    y.sum().backward()
    o.grads("module.", x=x)


@case
def e18_views_after_inplace(T, F, o):
    """An in-place change of a view rebases its base (CopySlices); views see the new history (AsStridedBackward0)."""
    w = T.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    programs = {
        "view_mul_": lambda a: a[0].mul_(2),
        "view_add_tensor": lambda a: a[:, 1].add_(a[:, 0] * 3),
        "view_setitem": lambda a: a[1:].__setitem__((0, 0), 7.0),
        "base_mul_": lambda a: a.mul_(3),
        "transpose_exp_": lambda a: a.t()[1].exp_(),
        "view_of_view": lambda a: a.view(6)[2:4].mul_(a[0, 0].clone()),
        "view_copy_": lambda a: a[0].copy_(T.tensor([9.0, 8.0, 7.0])),
        "two_changes": lambda a: (a[0].mul_(2), a[:, 2].add_(1.0)),
        "no_grad": lambda a: _no_grad(T, lambda: a[0].mul_(2)),
    }
    for name, change in programs.items():
        x = leaf(T, 240, 2, 3)
        a = x * 1.0
        row, col, flat = a[0], a[:, 1], a.view(6)
        change(a)
        o.all(a, f"{name}.base", depth=3)
        for vname, v in (("row", row), ("col", col), ("flat", flat)):
            o.fn(f"{name}.{vname}.grad_fn", v)
        loss = (a * w).sum() + (row * 10).sum() + (col * 100).sum() + (flat * T.arange(6.0)).sum()
        loss.backward()
        o.grads(f"{name}.", x=x)
    x = leaf(T, 241, 4)
    a = T.zeros(4)
    a[1:3].copy_(x[:2] * 2)  # a needed no gradient before: now it does, through CopySlices
    o.all(a, "zeros_base")
    (a * T.arange(4.0)).sum().backward()
    o.grads("zeros_base.", x=x)
    x = leaf(T, 242, 3)
    o.err("leaf_view", lambda: x[0].mul_(2))
    x = leaf(T, 243, 3)
    a = x.exp()
    a[0].mul_(2)  # exp saved its output, which the view changed
    o.err("saved_output_changed", lambda: a.sum().backward())
    x = leaf(T, 244, 2, 2)
    a = x * 1.0
    a[0].mul_(x[1])
    g, = T.autograd.grad((a * a).sum(), x, create_graph=True)
    o["second_order.g"] = g  # (values only: the double-backward graph's node names differ, see CopySlices)
    o["second_order.g2"] = T.autograd.grad(g.sum(), x)[0]


def _no_grad(T, fn):
    with T.no_grad():
        return fn()


@case
def f18_elementwise_dtypes_and_bools(T, F, o):
    i, b = T.tensor([-1, 0, 2]), T.tensor([True, False])
    for name, fn in (("exp", lambda t: t.exp()), ("log", lambda t: t.log()), ("sqrt", lambda t: t.sqrt()),
                     ("tanh", lambda t: t.tanh()), ("sigmoid", lambda t: t.sigmoid()),
                     ("reciprocal", lambda t: t.reciprocal()), ("rdiv", lambda t: 2 / t), ("rsub", lambda t: 0.5 - t),
                     ("rpow_float", lambda t: 0.5 ** t), ("rpow_int", lambda t: 3 ** t),
                     ("clamp_float", lambda t: t.clamp(-0.5, 0.5)), ("clamp_int", lambda t: t.clamp(0, 1)),
                     ("sign", lambda t: t.sign()), ("neg", lambda t: -t), ("abs", lambda t: t.abs()),
                     ("relu", lambda t: t.relu()), ("sub_num", lambda t: t - 1), ("pow_neg", lambda t: t ** -1)):
        o.val(f"int.{name}", lambda: o.warns(f"int.{name}.warnings", lambda: fn(i)))
        o.val(f"bool.{name}", lambda: o.warns(f"bool.{name}.warnings", lambda: fn(b)))
    o.err("bool_minus_bool", lambda: b - b)
    o.err("bool_minus_true", lambda: b - True)
    x = T.tensor([1.0, float("nan"), 2.0, 3.0], requires_grad=True)
    y = T.tensor([1.0, 0.0, float("nan"), 1.0], requires_grad=True)
    for name in ("maximum", "minimum"):
        out = getattr(x, name)(y)
        o.all(out, name)
        _grads_of(T, o, f"{name}.grad", out, x, y)
    out = x.min(y)
    o.all(out, "min_other")
    o.err("compare_shapes", lambda: T.ones(3) > T.ones(4))
    o.err("where_shapes", lambda: T.where(T.ones(2, 2) > 0, T.ones(2, 2), T.ones(3)))
    o.err("pow_shapes", lambda: T.ones(3) ** T.ones(4))


@case
def f18_matmul_graphs_and_errors(T, F, o):
    shapes = [((1, 2), (1, 2, 2), False, True), ((2, 1, 3), (3,), True, True), ((3, 1), (1, 1, 2), True, True),
              ((2, 3), (2, 3, 2), True, True), ((2, 2, 3), (3, 2), True, False), ((2, 2, 3), (2, 3, 2), True, True),
              ((4, 2, 2, 3), (2, 3, 2), True, True), ((3,), (2, 3, 2), True, True), ((3,), (2, 3, 2), False, True),
              ((2, 1, 2, 3), (3, 3, 1), True, True)]
    for n, (sa, sb, ga, gb) in enumerate(shapes):
        a, b = leaf(T, 200 + n, *sa, rg=ga), leaf(T, 220 + n, *sb, rg=gb)
        y = a @ b
        o.all(y, f"matmul{n}", depth=6)
        _grads_of(T, o, f"matmul{n}.grad", y, *[t for t in (a, b) if t.requires_grad])
    t = leaf(T, 240, 2, 2, 3).transpose(0, 1)
    o.all(t @ const(T, 241, 3, 2), "matmul_noncontiguous", depth=6)
    f, d = T.ones(2, 3), T.ones(3, 2, dtype=T.float64)
    o.err("mm_dtypes", lambda: f.mm(d))
    o.err("mv_dtypes", lambda: f.mv(T.ones(3, dtype=T.float64)))
    o.err("bmm_dtypes", lambda: T.ones(2, 2, 3).bmm(T.ones(2, 3, 2, dtype=T.float64)))
    o.err("dot_dtypes", lambda: T.ones(3).dot(T.ones(3, dtype=T.float64)))
    o.err("linear_dtypes", lambda: F.linear(f, T.ones(4, 3, dtype=T.float64)))
    o.err("bmm_1d", lambda: T.ones(1).bmm(T.ones(1, 1, 1)))
    o.err("bmm_2d", lambda: T.ones(1, 1, 1).bmm(T.ones(1, 1)))
    o.err("mv_vector", lambda: T.ones(3).mv(T.ones(3)))
    o.err("matmul_fold_shapes", lambda: T.ones(2, 2, 3) @ T.ones(4, 2))
    o.err("matmul_batch_shapes", lambda: T.ones(2, 2, 3) @ T.ones(3, 3, 2))
    o.err("matmul_2d_3d_shapes", lambda: T.ones(2, 3) @ T.ones(2, 4, 2))
    o.err("linear_0d", lambda: F.linear(T.tensor(1.0), T.ones(1, 3)))


@case
def f18_hooks_and_double_backward(T, F, o):
    for name, hook in (("size", lambda g: g.sum()), ("type", lambda g: g.double()), ("number", lambda g: 3)):
        for where in ("leaf", "nonleaf"):
            x = T.tensor([1.0, 2.0], requires_grad=True)
            y = x * 2
            (x if where == "leaf" else y).register_hook(hook)
            o.err(f"hook_{name}_{where}", lambda: y.sum().backward())
    x = leaf(T, 242, 2, 3)
    for red in ("mean", "sum", "none"):
        y = F.cross_entropy(x * x, T.tensor([0, 2]), reduction=red)
        g, = T.autograd.grad((y * 1.5).sum(), x, create_graph=True)
        # (values and flags: PyTorch's LogSoftmaxBackwardDataBackward0 is formula ops in minigrad, see LogSoftmax)
        o[f"ce_grad_{red}"] = g
        h, = T.autograd.grad(g.sum(), x)
        o[f"ce_grad_grad_{red}"] = h
    sp = leaf(T, 243, 2, 3, 2)
    y = F.nll_loss(sp.log_softmax(1), T.tensor([[0, 1], [2, 2]]))
    g, = T.autograd.grad(y * 2, sp, create_graph=True)
    o["nll2d_grad"] = g
    o["nll2d_grad_grad"] = T.autograd.grad(g.sum(), sp)[0]


# ---------------------------------------------------------------------------------- issue 18, second round
@case
def f18b_var_std_no_degrees_of_freedom(T, F, o):
    """var/std with correction >= N: nan (or -0, inf) gradients as PyTorch's var_backward gives, no error."""
    for fn in ("var", "std"):
        for i, (shape, dim, corr) in enumerate([((1,), 0, 1), ((1,), None, 1), ((3,), 0, 3), ((3,), 0, 5),
                                                 ((3,), None, 5), ((2, 3), 1, 4), ((2, 3), (0, 1), 7), ((), None, 1),
                                                 ((2,), 0, 2), ((0,), 0, 1), ((2, 2), None, 4)]):
            x = leaf(T, 250 + i, *shape) if shape != (1,) else T.tensor([0.5], requires_grad=True)
            y = o.warns(f"{fn}{i}.warns", lambda: getattr(x, fn)(dim, correction=corr) if dim is not None
                        else getattr(x, fn)(correction=corr))
            o[f"{fn}{i}"] = y
            y.sum().backward()
            o[f"{fn}{i}.grad"] = x.grad
            z = T.tensor([1.0, 1.0, 2.0], requires_grad=True)  # where x is its mean and where not
            getattr(z, fn)(correction=3).backward()
            o[f"{fn}_mean{i}.grad"] = z.grad


@case
def f18b_inplace_operand_errors(T, F, o):
    """Every in-place op taking a tensor: a non-tensor operand, shapes that do not broadcast or broadcast
    to a bigger shape, operands overlapping the written-to tensor: PyTorch's exception and message."""
    ops = {"copy_": lambda x, v: x.copy_(v), "add_": lambda x, v: x.add_(v), "sub_": lambda x, v: x.sub_(v),
           "mul_": lambda x, v: x.mul_(v), "div_": lambda x, v: x.div_(v), "clamp_min": lambda x, v: x.clamp_(v),
           "iadd": lambda x, v: _iadd(x, v)}
    operands = {"list": lambda T: [1.0, 2.0, 3.0], "none": lambda T: None, "str": lambda T: "a",
                "rank": lambda T: T.ones(2, 3), "dim": lambda T: T.ones(4), "row": lambda T: T.ones(1, 3),
                "column": lambda T: T.ones(3, 1), "number": lambda T: 2.0}
    for name, fn in ops.items():
        for what, v in operands.items():
            if name == "clamp_min" and what in ("list", "none", "str"):
                continue  # (clamp_'s overloads: a long message of its own)
            for grad in (False, True, "leaf"):  # (on a leaf that requires grad: that error first)
                x = T.zeros(3, requires_grad=True) if grad == "leaf" else T.zeros(3, requires_grad=grad) * 1
                o.val(f"{name}_{what}_{grad}", lambda: fn(x, v(T)))
        o.val(f"{name}_0d", lambda: fn(T.zeros(()), T.ones(2)))
        o.val(f"{name}_wrong_dim", lambda: fn(T.zeros(2, 3, 4), T.ones(5, 4)))
    # overlapping memory: a view of the written-to tensor that is not the same elements in the same places
    a = T.arange(4.0)
    o.val("overlap_shift", lambda: a[1:].copy_(a[:3]))
    o.val("overlap_same", lambda: a.copy_(a))
    m = T.arange(4.0).reshape(2, 2)
    o.val("overlap_t", lambda: m.add_(m.t()))
    o.val("overlap_row", lambda: m.mul_(m[0]))
    o.val("overlap_rows", lambda: m[0].copy_(m[1]))
    s = T.tensor(0.5)
    o.val("overlap_0d", lambda: s.copy_(s.flatten(-1, -1)))
    o.val("fill_tensor_1d", lambda: T.zeros(3).fill_(T.ones(2)))
    v = T.tensor(2.0, requires_grad=True)
    y = T.ones(3).fill_(v)
    o.all(y, "fill_tensor")
    y.sum().backward()
    o["fill_tensor.grad"] = v.grad


def _iadd(x, v):
    x += v
    return x


@case
def f18b_linalg_ranks(T, F, o):
    """Every matrix product with every rank (0-d to 3-d, size 1) on either side: PyTorch's result or error."""
    shapes = [(), (3,), (2, 3), (3, 2), (2, 3, 3), (1,)]
    ops = {"mm": lambda a, b: a.mm(b), "mv": lambda a, b: a.mv(b), "dot": lambda a, b: a.dot(b),
           "bmm": lambda a, b: a.bmm(b), "matmul": lambda a, b: a @ b, "outer": lambda a, b: T.outer(a, b),
           "linear": lambda a, b: F.linear(a, b)}
    for name, fn in ops.items():
        for i, sa in enumerate(shapes):
            for j, sb in enumerate(shapes):
                o.val(f"{name}_{i}_{j}", lambda: fn(T.ones(sa), T.ones(sb)))


@case
def f18b_setitem_value_shapes(T, F, o):
    """x[mask] = v, x[list] = v, x[tensor] = v, x[:, list] = v, x[int, list] = v with values of every
    shape (fits, broadcasts, leading 1s, too many dims, wrong size), masks of the wrong shape, indices
    out of range: PyTorch's result, graph and error (shape errors before the index's range, as there)."""
    keys = {"mask": lambda a: a == a, "no_mask": lambda a: a != a, "list": lambda a: [0, 1],
            "tensor": lambda a: T.tensor([0, 1]), "pair": lambda a: (T.tensor([0, 1]), T.tensor([0, 2])),
            "colon_list": lambda a: (slice(None), [0, 2]), "int_list": lambda a: (0, [0, 2]),
            "out_of_range": lambda a: [5], "wrong_mask": lambda a: T.ones(3, dtype=T.bool),
            "wrong_mask_2d": lambda a: T.ones(2, 2, dtype=T.bool)}
    values = [(2, 3), (4,), (6,), (1, 6), (1, 1, 6), (6, 1), (1,), (1, 3), (2, 1), (3, 2), (2,), ()]
    for kname, key in keys.items():
        for i, vshape in enumerate(values):
            for grad in (False, True, "leaf"):
                a = T.zeros(2, 3, requires_grad=True) if grad == "leaf" else T.zeros(2, 3, requires_grad=grad) * 1
                v = leaf(T, 260 + i, *vshape)

                def put():
                    a[key(a)] = v
                    return a
                if o.val(f"{kname}_{i}_{grad}", put) is not None and grad is True:
                    o.fn(f"{kname}_{i}.grad_fn", a)
    o.val("getitem_wrong_mask", lambda: T.zeros(2, 3)[T.ones(3, dtype=T.bool)])
    o.val("getitem_wrong_mask_dim1", lambda: T.zeros(2, 3)[:, T.ones(2, dtype=T.bool)])


@case
def f18b_modified_output_names(T, F, o):
    """The version-counter error names the node that saved the output by PyTorch's short name
    (``Exp`` for ExpBackward0, ``Max1`` for MaxBackward1, ``Pow1``): for every op that saves its output."""
    ops = {"max": lambda x, y: x.max(), "min": lambda x, y: x.min(), "amax": lambda x, y: x.amax(0),
           "relu": lambda x, y: x.relu(), "exp": lambda x, y: x.exp(), "std": lambda x, y: x.std(),
           "std_dim": lambda x, y: x.std(0), "prod": lambda x, y: x.prod(), "logsumexp": lambda x, y: x.logsumexp(0),
           "softmax": lambda x, y: x.softmax(0), "log_softmax": lambda x, y: x.log_softmax(0),
           "sigmoid": lambda x, y: x.sigmoid(), "tanh": lambda x, y: x.tanh(), "sqrt": lambda x, y: x.sqrt(),
           "pow_tensor": lambda x, y: x.pow(y), "norm": lambda x, y: x.norm(), "reciprocal": lambda x, y: x.reciprocal(),
           "rsqrt": lambda x, y: x.rsqrt(), "exp2": lambda x, y: x.exp2(), "expm1": lambda x, y: x.expm1()}
    for name, fn in ops.items():
        x, y = T.tensor([0.5, 1.0], requires_grad=True), T.tensor([0.2, 2.0])
        out = fn(x, y)
        out.mul_(2)
        o.err(name, lambda: out.sum().backward())


@case
def b18b_einsum_graphs(T, F, o):
    # PyTorch has no einsum node: at::einsum is permute/unsqueeze/sum/bmm/view, and so is minigrad's
    for n, (eq, shapes) in enumerate([("ij->ji", [(3, 1)]), ("ij,jk->ik", [(2, 3), (3, 4)]), ("i,i->", [(3,), (3,)]),
                                      ("ij->", [(2, 3)]), ("ij->j", [(2, 3)]), ("i,j->ij", [(3,), (2,)]),
                                      ("bij,bjk->bik", [(2, 2, 3), (2, 3, 2)]), ("ij,kj->ik", [(2, 3), (4, 3)]),
                                      ("ij,jk->k", [(2, 1), (3, 4)]), ("ijk,ikl->jl", [(2, 3, 4), (2, 4, 1)]),
                                      ("ab,ab->b", [(1, 3), (2, 3)])]):
        xs = [leaf(T, 250 + k, *s) for k, s in enumerate(shapes)]
        fwd_bwd(T, o, T.einsum(eq, *xs), f"einsum{n}", depth=16, **{f"einsum{n}_x{k}": x for k, x in enumerate(xs)})
    o.err("einsum_sizes", lambda: T.einsum("ij,jk->ik", T.ones(2, 3), T.ones(4, 2)))


@case
def b18b_matmul_graphs(T, F, o):
    # _matmul_impl: a 3-D batch of one that requires grad is squeezed, then folded; the fold's stride
    # check looks at the batch dims only, so (1,) @ (1, 1, 3) is an mv
    for n, (sa, sb, ra, rb) in enumerate([((2, 1, 3), (1, 3, 2), True, True), ((2, 1, 3), (1, 3, 2), False, True),
                                          ((1, 1, 3), (2, 3, 2), True, False), ((1, 1, 3), (3, 3, 2), True, True),
                                          ((1,), (1, 1, 3), False, True), ((2,), (2, 2, 3), False, True),
                                          ((1, 2, 3), (2, 3, 1), True, True)]):
        a, b = leaf(T, 260 + n, *sa, rg=ra), leaf(T, 270 + n, *sb, rg=rb)
        fwd_bwd(T, o, a @ b, f"mm_b18b{n}", depth=10, **{f"mm_b18b{n}_{k}": v for k, v in (("a", a), ("b", b))
                                                         if v.requires_grad})
        a.grad = b.grad = None


@case
def b18b_double_backward_nodes(T, F, o):
    # backward formulas PyTorch implements as one aten op are one Function: their node names under
    # create_graph=True, their own backward the second derivative (values compared too)
    x = leaf(T, 280, 2, 3)
    t = leaf(T, 281, 2, 3)
    fns = {"softmax": lambda a: a.softmax(1), "log_softmax": lambda a: a.log_softmax(0),
           "mse": lambda a: F.mse_loss(a, t), "mse_none": lambda a: F.mse_loss(a, t * 2, reduction="none"),
           "leaky_relu": lambda a: F.leaky_relu(a, 0.2), "hardtanh": lambda a: F.hardtanh(a, -0.5, 0.5),
           "relu6": lambda a: F.relu6(a * 4), "ce": lambda a: F.cross_entropy(a, T.tensor([0, 2]))}
    for name, fn in fns.items():
        y = fn(x)
        g = T.autograd.grad((y * y).sum(), [x, t], create_graph=True, allow_unused=True)
        for k, gk in zip("xt", g):
            if gk is not None:
                o.all(gk, f"dbl_{name}_{k}", depth=4)
        o[f"dbl_{name}_grad2"] = T.autograd.grad(sum((gk * gk).sum() for gk in g if gk is not None), [x, t],
                                                 allow_unused=True)


@case
def b18b_inplace_activations(T, F, o):
    x = leaf(T, 282, 2, 3)
    for name, fn in {"hardtanh": lambda a: F.hardtanh(a, inplace=True), "relu6": lambda a: F.relu6(a, inplace=True),
                     "leaky_relu": lambda a: F.leaky_relu(a, 0.3, inplace=True),
                     "module": lambda a: T.nn.LeakyReLU(0.1, inplace=True)(a)}.items():
        c = x * 2
        y = fn(c)
        o[f"inplace_{name}_same"] = y is c
        o[f"inplace_{name}_version"] = c._version
        o.all(y, f"inplace_{name}", depth=3)
        g, = T.autograd.grad((y * y).sum(), x, create_graph=True)
        o.all(g, f"inplace_{name}_grad", depth=4)
        o[f"inplace_{name}_grad2"] = T.autograd.grad(g.sum(), x)[0]
    o.err("inplace_hardtanh_leaf", lambda: F.hardtanh(x, inplace=True))
    y = F.leaky_relu(x * 1, -0.5, inplace=True)
    o.err("inplace_leaky_negative_slope", lambda: y.sum().backward())


@case
def b18b_pair_loss_double_backward(T, F, o):
    # smooth_l1/huber backward: one op for the input and one (swapped) for the target, as PyTorch
    a = T.tensor([0.1, -2.0, 0.4, 0.3], requires_grad=True)
    b = T.tensor([0.3, 0.2, -0.5, 1.0], requires_grad=True)
    for name, fn in {"smooth_l1": lambda: F.smooth_l1_loss(a, b, beta=0.5),
                     "smooth_l1_none": lambda: F.smooth_l1_loss(a, b, reduction="none"),
                     "smooth_l1_beta0": lambda: F.smooth_l1_loss(a, b, reduction="none", beta=0.0),
                     "huber": lambda: F.huber_loss(a, b, delta=0.7, reduction="sum"),
                     "huber_none": lambda: F.huber_loss(a, b, reduction="none")}.items():
        y = fn()
        ga, gb = T.autograd.grad((y * y).sum(), [a, b], create_graph=True)
        o.all(ga, f"{name}_ga", depth=3)
        o.all(gb, f"{name}_gb", depth=3)
        o[f"{name}_grad2"] = T.autograd.grad((ga * ga).sum() + (gb * a).sum(), [a, b])
        o.err(f"{name}_grad2_twice", lambda: T.autograd.grad((gb * gb).sum(), [a, b]))


@case
def b18b_bmm_mv_double_backward(T, F, o):
    # bmm's backward is bmm again, mv's is ger (outer) and mv: no matmul nodes under create_graph
    m, v = leaf(T, 283, 2, 3), leaf(T, 284, 3)
    a, b = leaf(T, 285, 2, 2, 3), leaf(T, 286, 2, 3, 2)
    for name, y, ins in (("mv", m.mv(v), [m, v]), ("bmm", a.bmm(b), [a, b])):
        gs = T.autograd.grad((y * y).sum(), ins, create_graph=True)
        for k, g in enumerate(gs):
            o.all(g, f"{name}_dbl{k}", depth=5)
        o[f"{name}_grad2"] = T.autograd.grad(sum((g * g).sum() for g in gs), ins)


# ---------------------------------------------------------------------------------- autograd.Function as "Extending
# PyTorch" teaches it (setup_context, once_differentiable, mark_dirty, ...) and saved tensors ("Autograd mechanics")
def _linear_setup_context(T, seen):
    class LinearFunction(T.autograd.Function):
        @staticmethod
        def forward(input, weight, bias=None):
            return input.mm(weight.t()) if bias is None else input.mm(weight.t()) + bias

        @staticmethod
        def setup_context(ctx, inputs, output):
            seen.append([len(inputs), list(ctx.needs_input_grad), output.grad_fn is None, output.requires_grad,
                         T.is_grad_enabled()])
            ctx.save_for_backward(*inputs)

        @staticmethod
        def backward(ctx, g):
            input, weight, bias = ctx.saved_tensors
            return (g.mm(weight) if ctx.needs_input_grad[0] else None, g.t().mm(input),
                    g.sum(0) if bias is not None else None)
    return LinearFunction


@case
def function_setup_context(T, F, o):
    seen = []
    LinearFunction = _linear_setup_context(T, seen)
    x, w, b = leaf(T, 301, 3, 2), leaf(T, 302, 4, 2), leaf(T, 303, 4)
    y = LinearFunction.apply(x, w, b)
    fwd_bwd(T, o, y, x=x, w=w, b=b)
    y = LinearFunction.apply(x.detach(), w)  # bias bound from forward's default
    o["saved_bias"] = y.grad_fn.saved_tensors[2]
    o["edges"] = len(y.grad_fn.next_functions)
    with T.no_grad():
        o.flags("no_grad", LinearFunction.apply(x, w, b))
    o["seen"] = seen
    o["repr"] = repr(y.grad_fn)
    o["type"] = [type(y.grad_fn).__name__, type(y.grad_fn).__module__, y.grad_fn.name()]

    class Neither(T.autograd.Function):
        @staticmethod
        def forward(x):
            return x * 2

    class Both(T.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def setup_context(ctx, inputs, output):
            pass

    o.err("neither", lambda: Neither.apply(x))
    o.err("both", lambda: Both.apply(x))
    o.err("no_forward", lambda: type("Empty", (T.autograd.Function,), {}).apply(x))


def _exp_once(T):
    class ExpOnce(T.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x.exp()

        @staticmethod
        @T.autograd.function.once_differentiable
        def backward(ctx, g):
            x, = ctx.saved_tensors
            ctx.seen = [T.is_grad_enabled(), x.requires_grad, g.requires_grad]
            return g * x.exp()
    return ExpOnce


@case
def function_once_differentiable(T, F, o):
    ExpOnce = _exp_once(T)
    x = leaf(T, 304, 3)
    y = ExpOnce.apply(x)
    g, = T.autograd.grad(y.sum(), x, create_graph=True)
    o["plain"] = g
    o["seen"] = y.grad_fn.seen
    y = ExpOnce.apply(x)
    g, = T.autograd.grad(y, x, T.ones(3, requires_grad=True), create_graph=True)
    o["wrapped"] = g
    o["wrapped_node"] = [type(g.grad_fn).__name__, g.grad_fn.name(), repr(g.grad_fn), g.is_leaf]
    o.tree("wrapped_tree", g)
    o.err("twice", lambda: g.sum().backward())
    o.err("grad_of_it", lambda: T.autograd.grad(g.sum(), x))
    y = ExpOnce.apply(x * 1)
    g, = T.autograd.grad(y.pow(2).sum(), x, create_graph=True)
    o["through_pow"] = g
    o.err("through_pow_twice", lambda: g.sum().backward())
    o["name"] = ExpOnce.backward.__name__


@case
def function_mark_dirty(T, F, o):
    class AddOne_(T.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            x.add_(1)
            ctx.mark_dirty(x)
            return x

        @staticmethod
        def backward(ctx, g):
            return g * 1

    class NotReturned(AddOne_):
        @staticmethod
        def forward(ctx, x):
            x.add_(1)
            ctx.mark_dirty(x)
            return x * 1

    class NoMark(AddOne_):
        @staticmethod
        def forward(ctx, x):
            x.add_(1)
            return x

    a = leaf(T, 305, 3)
    h = a * 2
    v0 = h._version
    saved = h * h  # saved h at version v0
    r = AddOne_.apply(h)
    o["same_object"] = r is h
    o["versions"] = h._version - v0
    o.fn("h.grad_fn", h)
    o["h"] = h
    o.err("stale_saved", lambda: saved.sum().backward())
    (h * 3).sum().backward()
    o.grads("", a=a)
    o.err("leaf", lambda: AddOne_.apply(leaf(T, 306, 2)))
    o.err("not_returned", lambda: NotReturned.apply(a * 1))
    n = NoMark.apply(a * 1)
    o.fn("no_mark.grad_fn", n)
    o["no_mark"] = n


@case
def function_materialize_grads_and_clear_on_access(T, F, o):
    class Two(T.autograd.Function):
        @staticmethod
        def forward(ctx, x, materialize):
            ctx.set_materialize_grads(materialize)
            return x.clone(), x * 2

        @staticmethod
        def backward(ctx, g1, g2):
            ctx.got = [g1, g2]
            return g1 + (0 if g2 is None else 2 * g2), None

    x = leaf(T, 307, 2)
    for m in (True, False):
        a, _ = Two.apply(x, m)
        a.sum().backward()
        o[f"got_{m}"] = a.grad_fn.got

    class ReadOnce(T.autograd.Function):
        clear_saved_tensors_on_access = True

        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x * x

        @staticmethod
        def backward(ctx, g):
            x, = ctx.saved_tensors
            return 2 * x * g

    y = ReadOnce.apply(x)
    o["first"] = y.grad_fn.saved_tensors
    o.err("second", lambda: y.grad_fn.saved_tensors)
    y = ReadOnce.apply(x)
    y.sum().backward(retain_graph=True)
    o.err("second_backward", lambda: y.sum().backward())
    o["default"] = T.autograd.Function.clear_saved_tensors_on_access
    y = _exp_once(T).apply(x)
    y.sum().backward()
    o.err("freed", lambda: y.grad_fn.saved_tensors)
    o.err("freed_raw", lambda: y.grad_fn._raw_saved_tensors)


@case
def saved_attributes_of_builtin_nodes(T, F, o):
    x, m, k = leaf(T, 308, 4), leaf(T, 309, 2, 3), leaf(T, 310, 3, 4)
    z = x * 2.0
    o["mul_number"] = [z.grad_fn._saved_other, z.grad_fn._saved_self]
    o["mul_int"] = (x * 3).grad_fn._saved_other
    o["mul_bool"] = (x * True).grad_fn._saved_other
    o["div_number"] = (x / 4).grad_fn._saved_other
    c = T.tensor(2.0)
    z = x * c
    o["mul_tensor"] = [z.grad_fn._saved_other is c, z.grad_fn._saved_self]
    z = x * x
    o["mul_self"] = [z.grad_fn._saved_self is x, z.grad_fn._saved_other is x]
    h = x + 1
    z = x / h
    o["div"] = [z.grad_fn._saved_self is x, z.grad_fn._saved_other is h]
    o["alpha"] = [(x + x).grad_fn._saved_alpha, x.add(x, alpha=3).grad_fn._saved_alpha, x.sub(x, alpha=2).grad_fn._saved_alpha]
    for name in ("sin", "cos", "log", "abs", "log1p", "tan", "sinh", "cosh", "atan", "erf", "exp2", "rsqrt", "expm1"):
        t = getattr(x.abs() + 0.5, name)()
        keys = sorted(a for a in dir(t.grad_fn) if a.startswith("_saved"))
        o[f"{name}_keys"] = keys
        o[f"{name}_saved"] = [getattr(t.grad_fn, a) for a in keys]
    for name in ("exp", "tanh", "sigmoid", "relu", "sqrt", "reciprocal"):
        t = getattr(x.abs() if name in ("sqrt",) else x, name)()
        r = t.grad_fn._saved_result
        o[f"{name}_result"] = [t.grad_fn.name(), r.equal(t), r is t, r.grad_fn is t.grad_fn, r.requires_grad]
    o["relu_functional"] = F.relu(m).grad_fn._saved_result
    o["pow"] = [(x ** 2).grad_fn._saved_exponent, (x ** 0.5).grad_fn._saved_exponent, (x ** 2).grad_fn._saved_self is x]
    p = x ** x
    o["pow_tensor"] = [p.grad_fn._saved_self is x, p.grad_fn._saved_exponent is x, p.grad_fn._saved_result.equal(p)]
    q = 2 ** x
    o["pow_number_base"] = [q.grad_fn._saved_self, q.grad_fn._saved_result.equal(q)]
    mm = m.mm(k)
    o["mm"] = [mm.grad_fn._saved_self is m, mm.grad_fn._saved_mat2 is k, mm.grad_fn._saved_self_sym_sizes,
               mm.grad_fn._saved_mat2_sym_sizes]
    o["mm_half"] = [m.mm(k.detach()).grad_fn._saved_self, m.detach().mm(k).grad_fn._saved_mat2]
    lin = F.linear(m, k.t(), leaf(T, 311, 4))
    o["addmm"] = [lin.grad_fn.name(), lin.grad_fn._saved_mat1 is m, lin.grad_fn._saved_mat2]
    lin = F.linear(m, k.t().detach(), leaf(T, 312, 4))
    o["addmm_frozen_weight"] = [lin.grad_fn._saved_mat1, lin.grad_fn._saved_mat2]
    o["dot_mv_bmm"] = [x.dot(x).grad_fn._saved_tensor is x, m.mv(k[:, 0]).grad_fn._saved_vec,
                       m.unsqueeze(0).bmm(k.unsqueeze(0)).grad_fn._saved_mat2]
    o["sum"] = [m.sum().grad_fn._saved_self_sym_sizes, m.sum(1).grad_fn._saved_dim, m.sum(0, keepdim=True).grad_fn._saved_keepdim,
                m.sum((0, 1)).grad_fn._saved_dim]
    o["mean"] = [m.mean().grad_fn._saved_self_sym_sizes, m.mean().grad_fn._saved_self_sym_numel, m.mean(1).grad_fn._saved_dim,
                 m.mean(1).grad_fn._saved_self_sym_numel]
    o["view"] = [m.view(6).grad_fn._saved_self_sym_sizes, m.reshape(3, 2).grad_fn._saved_self_sym_sizes]
    o["max"] = [m.max().grad_fn._saved_result, m.max().grad_fn._saved_self is m, m.max(1)[0].grad_fn._saved_dim,
                m.max(1, keepdim=True)[0].grad_fn._saved_keepdim, m.max(1)[0].grad_fn._saved_self_sym_sizes]
    o["softmax"] = [m.softmax(1).grad_fn._saved_dim, m.log_softmax(0).grad_fn._saved_dim, m.softmax(1).grad_fn._saved_result]
    # the dim as passed: PyTorch shows a negative one as an unsigned 64-bit number
    o["negative_dims"] = [m.softmax(-1).grad_fn._saved_dim, m.log_softmax(-2).grad_fn._saved_dim,
                          m.max(-1)[0].grad_fn._saved_dim, m.sum(-1).grad_fn._saved_dim, m.mean((0, -1)).grad_fn._saved_dim,
                          m.sum((1, 0)).grad_fn._saved_dim, m.sort().values.grad_fn._saved_dim]
    o["neg_keys"] = [a for a in dir((-x).grad_fn) if a.startswith("_saved")]
    o["exp_keys"] = [a for a in dir(x.exp().grad_fn) if a.startswith("_saved") or a.startswith("_raw_saved")]
    o["raw_type"] = type(x.exp().grad_fn._raw_saved_result).__name__
    o.err("missing", lambda: x.exp().grad_fn._saved_self)
    y = x.pow(3)
    y.sum().backward()
    o.err("after_backward", lambda: y.grad_fn._saved_self)
    o["number_after_backward"] = y.grad_fn._saved_exponent
    s = m.sum(0)
    s.sum().backward()
    o["sizes_after_backward"] = s.grad_fn._saved_self_sym_sizes
    z = x * 2.0
    z.sum().backward()
    o.err("wrapped_after_backward", lambda: z.grad_fn._saved_other)
    o["unsaved_after_backward"] = z.grad_fn._saved_self
    y = x.exp()
    y.sum().backward(retain_graph=True)
    o["retained"] = y.grad_fn._saved_result.equal(y)


@case
def saved_tensors_hooks_pack_unpack(T, F, o):
    log = []

    def pack(t):
        log.append(["pack", t.shape[0], t.requires_grad, None if t.grad_fn is None else type(t.grad_fn).__name__,
                    t.is_leaf])
        return ("packed", t * 1)

    def unpack(p):
        log.append(["unpack", p[0]])
        return p[1]

    a, x = leaf(T, 313, 3), leaf(T, 314, 2)
    b = leaf(T, 315, 3) * 2
    with T.autograd.graph.saved_tensors_hooks(pack, unpack):
        y = a * b
        e = a.exp()
        n = a * 3.0  # a Python number is not packed
        T.ones(2).exp()  # nothing requires grad: nothing is saved
    o["log_forward"] = list(log)
    o["exp_saved"] = [e.grad_fn._saved_result.equal(e), e.grad_fn._saved_result is e,
                      e.grad_fn._saved_result.grad_fn is e.grad_fn]
    o["mul_saved"] = [y.grad_fn._saved_other is a, y.grad_fn._saved_other.equal(a), y.grad_fn._saved_self.is_leaf,
                      y.grad_fn._saved_other.requires_grad, n.grad_fn._saved_other]
    y.sum().backward()
    o.grads("", a=a)
    o["log"] = log

    class Square(T.autograd.Function):
        @staticmethod
        def forward(ctx, t):
            ctx.save_for_backward(t)
            return t * t

        @staticmethod
        def backward(ctx, g):
            t, = ctx.saved_tensors
            return 2 * t * g

    log.clear()
    with T.autograd.graph.saved_tensors_hooks(pack, unpack):
        y = Square.apply(x)
    o["function_saved"] = [y.grad_fn.saved_tensors[0] is x, y.grad_fn.saved_tensors[0].equal(x)]
    y.sum().backward()
    o.grads("square_", x=x)
    o["function_log"] = log
    store = {}
    with T.autograd.graph.saved_tensors_hooks(lambda t: store.setdefault(len(store), t.detach() * 10) is None or
                                              len(store) - 1, lambda i: store[i] / 10):
        y = (x * x).sum()
    g, = T.autograd.grad(y, x, create_graph=True)  # double backward through unpacked tensors reaches x
    o["double"] = [g, T.autograd.grad(g.sum(), x)[0], sorted(store)]
    with T.autograd.graph.saved_tensors_hooks(lambda t: 3, lambda p: p):
        y = x.exp()
    o.err("unpack_number", lambda: y.grad_fn._saved_result)
    o.err("unpack_number_backward", lambda: y.sum().backward())
    log.clear()
    with T.autograd.graph.saved_tensors_hooks(lambda t: log.append("outer") or t, lambda p: p):
        with T.autograd.graph.saved_tensors_hooks(lambda t: log.append("inner") or t, lambda p: p):
            x.sin()
        x.cos()
    o["nested"] = log
    with T.autograd.graph.save_on_cpu():
        y = x.pow(2)
    o["save_on_cpu"] = [y.grad_fn._saved_self is x, y.grad_fn._saved_self.equal(x)]
    with T.autograd.graph.disable_saved_tensors_hooks("hooks are off here"):
        o.err("while_disabled", lambda: T.autograd.graph.save_on_cpu().__enter__())
        x.pow(2)
    with T.autograd.graph.saved_tensors_hooks(pack, unpack):
        o.err("disable_while_on", lambda: T.autograd.graph.disable_saved_tensors_hooks("not now").__enter__())


@case
def saved_tensor_register_hooks(T, F, o):
    x = leaf(T, 316, 2)
    y = x.pow(2)
    y.grad_fn._raw_saved_self.register_hooks(lambda t: t * 10, lambda t: t)
    o["unpacked"] = y.grad_fn._saved_self
    y.sum().backward()
    o.grads("", x=x)
    y = x.pow(2)
    y.grad_fn._raw_saved_self.register_hooks(lambda t: t, lambda t: t)
    o.err("twice", lambda: y.grad_fn._raw_saved_self.register_hooks(lambda t: t, lambda t: t))
    o.err("none", lambda: (x * 2.0).grad_fn._raw_saved_self.register_hooks(lambda t: t, lambda t: t))
    with T.autograd.graph.saved_tensors_hooks(lambda t: t, lambda t: t):
        y = x.pow(2)
    o.err("under_default_hooks", lambda: y.grad_fn._raw_saved_self.register_hooks(lambda t: t, lambda t: t))
    seen = []
    y = x.exp()
    y.grad_fn._raw_saved_result.register_hooks(lambda t: seen.append([t.requires_grad, t.grad_fn is None]) or t,
                                               lambda t: t)
    o["result_pack_sees"] = seen
    o["result_unpacked"] = [y.grad_fn._saved_result.grad_fn is y.grad_fn, y.grad_fn._saved_result.equal(y)]
    y.sum().backward()
    o.err("raw_after_backward", lambda: y.grad_fn._raw_saved_result.register_hooks(lambda t: t, lambda t: t))


@case
def node_hooks_get_tuples_and_sort_index_add(T, F, o):
    x = leaf(T, 317, 3)
    y = x * 3
    seen = []
    y.grad_fn.register_hook(lambda gin, gout: seen.append([type(gin).__name__, type(gout).__name__, gin, gout]))
    y.sum().backward()
    o["post_hook"] = seen
    m = leaf(T, 318, 2, 4)
    s = m.sort()
    o.repr("sort_repr", s)
    (s.values * T.arange(4.0)).sum().backward()
    o.grads("", m=m)
    o["sort_desc"] = list(m.sort(0, descending=True))
    o["argsort"] = T.argsort(m.detach(), 1)
    o["sort_saved_dim"] = m.sort(0).values.grad_fn._saved_dim
    src = leaf(T, 319, 3, 2)
    y = T.zeros(4, 2).index_add(0, T.tensor([0, 3, 0]), src, alpha=2)
    y.pow(2).sum().backward()
    o.all(y, grads={"src": src})
    z = T.zeros(4, 2)
    z.index_add_(0, T.tensor([1, 1, 2]), T.ones(3, 2))
    o["index_add_"] = z


# ---------------------------------------------------------------------------------- issue 19: the everyday ops (b19c)
@case
def b19c_aliases_and_tests(T, F, o):
    x = leaf(T, 300, 2, 3)
    b = leaf(T, 301, 3, lo=0.5)
    _fb19(T, o, T.multiply(x, b), "multiply", x=x, b=b)
    _fb19(T, o, x.subtract(b, alpha=2), "subtract", x=x, b=b)
    _fb19(T, o, T.divide(x, b), "divide", x=x, b=b)
    _fb19(T, o, T.divide(x, b, rounding_mode="floor"), "divide_floor", x=x, b=b)
    _fb19(T, o, x.divide(2, rounding_mode="trunc"), "divide_trunc", x=x)
    _fb19(T, o, T.true_divide(x, b), "true_divide", x=x, b=b)
    _fb19(T, o, x.half(), "half", x=x)
    i = T.tensor([[1, -2, 0], [7, 0, -3]])
    o["int_divide_modes"] = [i.divide(2, rounding_mode="floor"), i.divide(2, rounding_mode="trunc"), i.true_divide(2)]
    o.err("divide_mode", lambda: x.divide(b, rounding_mode="round"))
    o.err("subtract_bool", lambda: T.subtract(i, True))
    o["compare"] = [T.eq(x, b), T.ne(i, 0), T.lt(x, 0.5), T.le(i, 0), T.gt(x, b), T.ge(i, 1)]
    o["logical"] = [T.logical_not(i), T.logical_and(i, x), T.logical_or(i > 0, x < 0), T.logical_xor(i, x > 0)]
    z = T.tensor([1.0, float("nan"), float("inf"), -float("inf"), 0.0])
    o["tests"] = [T.isnan(z), T.isinf(z), T.isfinite(z), z.isnan(), T.isfinite(i), T.count_nonzero(z),
                  T.count_nonzero(i, dim=1), i.count_nonzero((0, 1)), T.nonzero(i), list(T.nonzero(i, as_tuple=True)),
                  T.nonzero(T.tensor(3.0)), T.nan_to_num(z), z.nan_to_num(nan=1.5, posinf=2.0, neginf=-2.0),
                  T.nan_to_num(i)]
    y = T.tensor([1.0, float("nan"), float("inf"), -2.0], requires_grad=True)
    _fb19(T, o, T.nan_to_num(y * 2), "nan_to_num", y=y)


@case
def b19c_triangles_and_diagonals(T, F, o):
    x = leaf(T, 302, 3, 4)
    v = leaf(T, 303, 3)
    for k in (0, 1, -1):
        _fb19(T, o, x.tril(k), f"tril{k}", x=x)
        _fb19(T, o, T.triu(x, k), f"triu{k}", x=x)
        _fb19(T, o, T.diag(x, k), f"diag2d{k}", x=x)
        _fb19(T, o, T.diag(v, k), f"diag1d{k}", v=v)
    _fb19(T, o, T.trace(x), "trace", x=x)
    _fb19(T, o, leaf(T, 304, 2, 2, 3).triu(), "triu_batched")
    o["ints"] = [T.tril(T.tensor([[1, 2], [3, 4]])), T.diag(T.tensor([1, 2]), -1), T.trace(T.tensor([[1, 2], [3, 4]]))]
    o.err("tril_1d", lambda: v.tril())
    o.err("diag_3d", lambda: T.diag(T.ones(2, 2, 2)))
    o.err("trace_1d", lambda: T.trace(v))
    o.err("trace_bool", lambda: T.trace(T.ones(2, 2).bool()))


@case
def b19c_sort_topk_median_unique(T, F, o):
    x = leaf(T, 305, 3, 4)
    _fb19(T, o, x.sort().values, "sort", x=x)
    _fb19(T, o, T.sort(x, 0, descending=True).values, "sort_desc", x=x)
    _fb19(T, o, x.sort(stable=True, dim=0).values, "sort_stable", x=x)
    o["sort_indices"] = [x.sort().indices, x.sort(0, True).indices, T.argsort(x, 0), x.argsort(descending=True)]
    _fb19(T, o, x.topk(2).values, "topk", x=x)
    _fb19(T, o, T.topk(x, 2, dim=0, largest=False).values, "topk_small", x=x)
    o["topk_indices"] = [x.topk(2).indices, x.topk(3, 0, largest=False).indices]
    _fb19(T, o, x.median(), "median", x=x)
    _fb19(T, o, x.median(1).values, "median_dim", x=x)
    _fb19(T, o, T.median(x, 0, keepdim=True).values, "median_keep", x=x)
    o["median_indices"] = [x.median(1).indices, x.median(0, keepdim=True).indices]
    t = T.tensor([[1.0, 3.0, 3.0, 1.0], [2.0, 2.0, 5.0, 2.0]], requires_grad=True)
    _fb19(T, o, t.median(), "median_ties", t=t)  # ties share the gradient, as for max()
    i = T.tensor([[2, 1, 2, 3, 1, 2, 2], [0, 0, 0, 0, 0, 0, 0]])
    o["int_sort"] = [i.sort(1), i.sort(1, descending=True), i.median(1), i.argsort(1), i.median()]
    n = T.tensor([[1.0, float("nan"), 3.0, float("nan")]])
    o["nan_sort"] = [n.sort(1), n.sort(1, descending=True), n.median(1), n.median()]
    o["bool_sort"] = T.tensor([True, False, True]).sort()
    o["returns"] = [x.sort(), x.topk(1), x.median(0)]
    o.err("topk_k", lambda: x.topk(5))
    o.err("topk_bool", lambda: T.tensor([True, False]).topk(1))
    o.err("sort_dim", lambda: x.sort(2))
    o["unique"] = [T.unique(i), list(T.unique(i, return_inverse=True, return_counts=True)),
                   list(T.unique(T.tensor([[3, 1], [2, 3], [3, 1]]), dim=0, return_inverse=True, return_counts=True)),
                   T.unique(T.tensor([2.0, float("nan"), 1.0, float("nan")]))]
    u = T.unique(x * 1)
    o.all(u, "unique_float")
    o.err("unique_backward", lambda: u.sum().backward())


@case
def b19c_select_and_rearrange(T, F, o):
    x = leaf(T, 306, 3, 4)
    v = leaf(T, 307, 4)
    _fb19(T, o, x.masked_select(x > 0), "masked_select", x=x)
    _fb19(T, o, T.masked_select(x, v > 0), "masked_select_bc", x=x)
    _fb19(T, o, x.take(T.tensor([[0, 5], [11, 5]])), "take", x=x)
    _fb19(T, o, x.roll(1), "roll_flat", x=x)
    _fb19(T, o, T.roll(x, (1, -2), (0, 1)), "roll_dims", x=x)
    _fb19(T, o, x.repeat_interleave(2), "repeat_interleave", x=x)
    _fb19(T, o, v.repeat_interleave(3), "repeat_interleave_1d", v=v)
    _fb19(T, o, x.repeat_interleave(2, dim=1), "repeat_interleave_dim", x=x)
    _fb19(T, o, x.repeat_interleave(T.tensor([1, 0, 2]), dim=0), "repeat_interleave_tensor", x=x)
    _fb19(T, o, x.tile(2), "tile", x=x)
    _fb19(T, o, T.tile(v, (2, 1, 2)), "tile_more", v=v)
    _fb19(T, o, x.cumprod(1), "cumprod", x=x)
    _fb19(T, o, T.cumprod(x, 0, dtype=T.float64), "cumprod_dtype", x=x)
    z = T.tensor([[2.0, 0.0, 3.0, 0.5], [0.0, 1.5, 0.0, 2.0]], requires_grad=True)
    _fb19(T, o, z.cumprod(1), "cumprod_zeros", z=z)
    o["ints"] = [T.tensor([1, 2, 3]).cumprod(0), T.tensor([True, True]).cumprod(0), T.take(T.tensor([[1, 2], [3, 4]]),
                 T.tensor([-1])), T.tensor([1, 2]).roll(1), T.tensor([1, 2]).repeat_interleave(2)]
    o.err("masked_select_float", lambda: x.masked_select(x))
    o.err("masked_select_shape", lambda: x.masked_select(T.ones(3).bool()))
    o.err("take_range", lambda: x.take(T.tensor([12])))
    o.err("take_float", lambda: x.take(T.tensor([1.0])))
    o.err("roll_align", lambda: x.roll((1, 2), 0))
    o.err("roll_0d", lambda: T.tensor(1.0).roll(1, 0))
    o.err("repeat_interleave_size", lambda: x.repeat_interleave(T.tensor([1, 2]), dim=0))
    o.err("repeat_interleave_negative", lambda: x.repeat_interleave(-1))


@case
def b19c_pointwise_three(T, F, o):
    x = leaf(T, 308, 2, 3)
    b = leaf(T, 309, 3, lo=0.5)
    _fb19(T, o, x.fmod(0.7), "fmod_number", x=x)
    _fb19(T, o, T.fmod(x, b), "fmod", x=x, b=b)
    o["fmod_ints"] = [T.fmod(T.tensor([-3, 5]), 2), T.fmod(T.tensor([-3.0, 5.0]), T.tensor([2.0, -3.0])),
                      T.fmod(T.tensor([1, 2]), 1.5)]
    o.err("fmod_zero", lambda: T.fmod(T.tensor([1]), 0))
    for w in (0.3, 0.75):
        _fb19(T, o, T.lerp(x, b, w), f"lerp{w}", x=x, b=b)
    w = leaf(T, 310, 2, 1)
    _fb19(T, o, x.lerp(b, w), "lerp_tensor", x=x, b=b, w=w)
    o.err("lerp_dtype", lambda: x.lerp(T.tensor([1, 2, 3]), 0.5))
    _fb19(T, o, T.addcmul(x, b, x, value=0.5), "addcmul", x=x, b=b)
    _fb19(T, o, x.addcdiv(x, b, value=-2), "addcdiv", x=x, b=b)
    o["int_addcmul"] = T.addcmul(T.tensor([1, 2]), T.tensor([1, 2]), T.tensor([1, 2]), value=2)
    o.err("int_addcdiv", lambda: T.addcdiv(T.tensor([1, 2]), T.tensor([1, 2]), T.tensor([1, 2])))
    y = x * 1
    y.addcmul_(b, b, value=2)
    y.lerp_(b, 0.25)
    y.fmod_(0.9)
    o.all(y, "inplace")
    y.sum().backward()
    o.grads("inplace_", x=x, b=b)


@case
def b19c_addmm_cross_kron_grids(T, F, o):
    x = leaf(T, 311, 3, 3)
    m = leaf(T, 312, 3, 2)
    c = leaf(T, 313, 2)
    _fb19(T, o, T.addmm(c, x, m), "addmm", c=c, x=x, m=m)
    _fb19(T, o, T.addmm(c, x, m, beta=0.5, alpha=2), "addmm_scaled", c=c, x=x, m=m)
    _fb19(T, o, x.addmm(x, x, beta=0), "addmm_beta0", x=x)
    o.err("addmm_1d", lambda: T.addmm(c, c, m))
    o.err("addmm_shapes", lambda: T.addmm(c, m, x))
    o.err("addmm_bias", lambda: T.addmm(T.ones(3), x, m))
    o.err("addmm_dtype", lambda: T.addmm(c, x, m.double()))
    _fb19(T, o, T.cross(x, x * x, dim=1), "cross", x=x)
    _fb19(T, o, x.cross(x.flip(0), dim=0), "cross_dim0", x=x)
    o.val("cross_no_dim", lambda: T.cross(x, x))  # (its warning comes once per process: test_faithful_gaps.py)
    o.err("cross_length", lambda: T.cross(m, m, dim=1))
    _fb19(T, o, T.kron(m, c), "kron", m=m, c=c)
    _fb19(T, o, T.kron(c, x), "kron_1d_2d", c=c, x=x)
    a, bb = T.meshgrid(c, x[0] * 2, indexing="ij")
    o.all(a, "mesh_ij_0")
    o.all(bb, "mesh_ij_1")
    a, bb = T.meshgrid([c, x[0]], indexing="xy")
    o.all(a, "mesh_xy_0")
    (a * bb).sum().backward()
    o.grads("mesh_", c=c, x=x)
    o.val("mesh_no_indexing", lambda: T.meshgrid(c, c))  # (its warning too)
    o.err("mesh_indexing", lambda: T.meshgrid(c, c, indexing="zz"))
    p, q = T.broadcast_tensors(x, c[:1])
    o["broadcast_is_self"] = p is x
    o.all(q, "broadcast")
    o.err("broadcast_error", lambda: T.broadcast_tensors(x, T.ones(2)))


def f18b_cross_entropy_probabilities_and_smoothing(T, F, o):
    """F.cross_entropy with class-probability targets (the target gets a gradient) and with label
    smoothing (both kinds of target): every reduction, weights, 1-D/2-D/3-D inputs, PyTorch's graph
    and its errors; nll_loss refuses weights that require grad (with grad mode on)."""
    inputs = {"1d": ((4,), (), 2), "2d": ((3, 4), (3,), [0, 3, 1]), "3d": ((2, 4, 2), (2, 2), [[0, 1], [3, 2]])}
    for name, (shape, _, index_target) in inputs.items():
        for i, kw in enumerate([{}, {"reduction": "sum"}, {"reduction": "none"}, {"weight": True},
                                {"weight": True, "reduction": "none"}, {"label_smoothing": 0.3},
                                {"label_smoothing": 0.2, "weight": True, "reduction": "sum"},
                                {"label_smoothing": -0.1}, {"ignore_index": 1}, {"ignore_index": 1, "label_smoothing": 0.3},
                                {"ignore_index": 1, "label_smoothing": 0.3, "weight": True},
                                {"ignore_index": 1, "label_smoothing": 0.3, "reduction": "none"},
                                {"label_smoothing": 1.5}, {"reduction": "avg"}]):
            for kind in ("probabilities", "indices"):
                x = leaf(T, 270 + i, *shape)
                w = leaf(T, 290 + i, 4, lo=0.1, hi=1.0, rg=kind == "probabilities")
                t = (leaf(T, 280 + i, *shape, lo=0.0, hi=1.0) if kind == "probabilities" else T.tensor(index_target))
                args = dict(kw, weight=w) if kw.get("weight") else kw
                y = o.val(f"{name}_{i}_{kind}", lambda: F.cross_entropy(x, t, **args))
                if y is None:
                    continue
                o.fn(f"{name}_{i}_{kind}.grad_fn", y)
                o.tree(f"{name}_{i}_{kind}.tree", y, depth=8)
                y.backward(T.ones(y.shape) if y.dim() else None)
                o.grads(f"{name}_{i}_{kind}.", x=x, w=w, **({"t": t} if kind == "probabilities" else {}))
    x, p = leaf(T, 300, 2, 3), leaf(T, 301, 2, 3, lo=0.0, hi=1.0, rg=False)
    o.val("target_float64", lambda: F.cross_entropy(x, p.double()))
    o.val("weight_shape", lambda: F.cross_entropy(x, p, weight=T.ones(2)))
    o.val("weight_2d", lambda: F.cross_entropy(x, p, weight=T.ones(1, 3)))
    o.val("zero_d", lambda: F.cross_entropy(T.tensor(0.5), T.tensor(0.2)))
    o.val("no_samples", lambda: F.cross_entropy(T.zeros(0, 3), T.zeros(0, 3)))
    o.val("int_target_of_input_shape", lambda: F.cross_entropy(x, T.ones(2, 3, dtype=T.int64)))
    wg = T.ones(3, requires_grad=True)
    o.val("nll_weight_requires_grad", lambda: F.nll_loss(x, T.tensor([0, 1]), weight=wg))
    o.val("nll2d_weight_requires_grad", lambda: F.nll_loss(leaf(T, 302, 2, 3, 2), T.tensor([[0, 1], [2, 2]]), weight=wg))
    with T.no_grad():
        o.val("nll_weight_requires_grad_no_grad", lambda: F.nll_loss(x, T.tensor([0, 1]), weight=wg))
    g, = T.autograd.grad(F.cross_entropy(x * x, p), x, create_graph=True)  # second order, values only
    o["second_order"] = T.autograd.grad(g.sum(), x)[0]


@case
def f18b_nll_loss_check_order(T, F, o):
    """nll_loss / cross_entropy with every input rank and target shape, float and integer targets:
    PyTorch's checks in its order (shapes first, the target's dtype last, 1-D input's size after it)."""
    inputs = [(3,), (2, 3), (2, 3, 2), (2, 3, 2, 2), (2, 3, 2, 2, 2), ()]
    targets = [(), (2,), (3,), (2, 2), (2, 2, 2), (1,), (2, 3), (2, 2, 2, 2, 2), (2, 3, 2, 2)]
    for i, xs in enumerate(inputs):
        for j, ts in enumerate(targets):
            for dtype in ("float32", "int64"):
                x, t = T.zeros(xs), T.zeros(ts, dtype=getattr(T, dtype))
                o.val(f"nll_{i}_{j}_{dtype}", lambda: F.nll_loss(x, t))
                o.val(f"ce_{i}_{j}_{dtype}", lambda: F.cross_entropy(x, t))
    # no classes (softmax over an empty dim is empty, the target is then out of bounds)
    o.val("log_softmax_empty", lambda: T.zeros(2, 0).log_softmax(1))
    o.val("softmax_empty", lambda: T.zeros(0).softmax(0))
    o.val("ce_no_classes", lambda: F.cross_entropy(T.zeros(0), T.tensor(2)))
    o.val("ce_no_classes_smoothed", lambda: F.cross_entropy(T.zeros(0), T.tensor(2), label_smoothing=0.2))
    o.val("ce_no_classes_probabilities", lambda: F.cross_entropy(T.zeros(0), T.zeros(0)))


@case
def f18b_zero_dim_mask_setitem(T, F, o):
    """y[y > 0] = v on a 0-dim y (a 0-dim mask): the graph, and the gradients of y's history and of v."""
    for i, start in enumerate([1.5, -0.45]):
        for second in (False, True):
            x, v = T.tensor(start, requires_grad=True), T.tensor(-1.24, requires_grad=True)
            y = x * 2
            y[y > 0] = v
            o.all(y, f"y{i}_{second}")
            if second:
                g = T.autograd.grad(y.exp(), [x, v], create_graph=True)
                o[f"grad{i}"] = g
                o[f"grad_grad{i}"] = T.autograd.grad(g[1], [v], allow_unused=True)
            else:
                y.backward()
                o.grads(f"{i}.", x=x, v=v)


@case
def f18b_prod_zero_dim(T, F, o):
    """prod over a dim of a 0-dim tensor (0 or not), keepdim or not: the gradient is 1, as in PyTorch."""
    for i, v in enumerate((0.0, 0.7)):
        for d in (0, -1):
            x = T.tensor(v, requires_grad=True)
            y = x.prod(d, keepdim=d == 0)
            o.all(y, f"y{i}{d}")
            y.backward()
            o[f"y{i}{d}.grad"] = x.grad


@case
def f18b_zero_dim_keys(T, F, o):
    """x[key] and x[key] = 2.0 on a 0-dim x for every kind of key, and select() of a 0-dim tensor:
    PyTorch's result, node or error (a lone slice or int has its own message, other keys are counted)."""
    keys = {"slice": lambda x: slice(None), "slice1": lambda x: slice(1, None), "int": lambda x: 0,
            "ellipsis": lambda x: Ellipsis, "none": lambda x: None, "true": lambda x: True, "list": lambda x: [0],
            "ellipsis_slice": lambda x: (Ellipsis, slice(None)), "none_int": lambda x: (None, 0),
            "tuple_int": lambda x: (0,), "mask": lambda x: x > 0, "tensor0": lambda x: T.tensor(0)}
    for name, key in keys.items():
        x = T.tensor(0.5, requires_grad=True) * 1
        y = o.val(f"get_{name}", lambda: x[key(x)])
        if y is not None:
            o.fn(f"get_{name}.grad_fn", y)
        z = T.tensor(0.5, requires_grad=True) * 1

        def put():
            z[key(z)] = 2.0
            return z
        if o.val(f"put_{name}", put) is not None:
            o.fn(f"put_{name}.grad_fn", z)
    for d in (0, 1, -1, -2):
        o.val(f"select_{d}", lambda: T.tensor(0.5).select(d, 0))


@case
def f18b_losses_at_nan_and_weight_dtypes(T, F, o):
    """smooth_l1/huber gradients where the difference is nan or inf (PyTorch's kernels give nan there,
    l1 gives 0); nll_loss with weights of another dtype (after its other checks, as in PyTorch)."""
    for name, fn in (("smooth_l1", lambda x, t: F.smooth_l1_loss(x, t, reduction="none")),
                     ("smooth_l1_beta0", lambda x, t: F.smooth_l1_loss(x, t, reduction="none", beta=0.0)),
                     ("huber", lambda x, t: F.huber_loss(x, t, reduction="none")),
                     ("l1", lambda x, t: F.l1_loss(x, t, reduction="none"))):
        x = T.tensor([-1.3, 1.32, 1.63, 0.5, float("inf")], requires_grad=True)
        t = T.tensor([float("nan"), 1.91, 0.97, float("nan"), float("inf")])
        y = o.warns(f"{name}.warns", lambda: fn(x, t))
        o[name] = y
        y.sum().backward()
        o[f"{name}.grad"] = x.grad
    for i, w in enumerate((T.ones(3), T.ones(3, dtype=T.float64))):
        for j, t in enumerate((T.tensor([0, 1]), T.tensor([0.0, 1.0]), T.tensor([0, 1, 2]))):
            o.val(f"nll_weight_{i}_{j}", lambda: F.nll_loss(T.zeros(2, 3, dtype=T.float64), t, weight=w))


@case
def f18b_index_put_overlap(T, F, o):
    """x[mask] = v / x[list] = v where v shares memory with x: PyTorch's overlap error (x[slice] = v is a copy_)."""
    for k in ("mask", "list", "slice"):
        for src in ("graph", "same"):
            v1 = T.tensor([[0.63, -1.95], [1.53, 1.77]], requires_grad=True)
            v3 = v1.round()
            v4 = v3.detach()
            key = (v4 > 0) if k == "mask" else [0] if k == "list" else slice(0, 1)
            value = (v3 if src == "graph" else v4)
            value = value[value > 0] if k == "mask" and src == "graph" else value if k == "mask" else value[0]

            def put():
                v4[key] = value
                return v4
            o.val(f"{k}_{src}", put)


@case
def f18b_zero_base_pow(T, F, o):
    """0.0 ** x: PyTorch's gradient is 0 where x >= 0 (not 0 * log 0 = nan), -inf where x < 0; second order too."""
    for base in (0.0, 0, 2.0):
        x = T.tensor([[0.33], [0.0], [1.01], [-1.0]], requires_grad=True)
        g, = T.autograd.grad((base ** x).sum(), x, create_graph=True)
        o.all(g, f"grad_{base!r}")
        o[f"grad_grad_{base!r}"] = T.autograd.grad(g.sum(), x)[0]


@case
def f19_movedim_swapaxes_unflatten_diagonal(T, F, o):
    """movedim/moveaxis (a permute), swapaxes/swapdims (a transpose), unflatten (a view), diagonal (its own
    view, DiagonalBackward0; its backward's backward is DiagonalBackwardBackward0): values, graphs, errors."""
    x = leaf(T, 58, 2, 3, 4)
    o.all(x.movedim(0, 2), "movedim")
    o.all(T.moveaxis(x, (0, 1), (2, 0)), "moveaxis_tuple")
    o.all(x.movedim(1, 1), "movedim_same")
    o.all(x.swapaxes(0, -1), "swapaxes")
    o.all(T.swapdims(x, 1, 2), "swapdims")
    o.all(x.unflatten(-1, (2, -1)), "unflatten")
    o.all(T.unflatten(x, 0, [1, 2]), "unflatten_torch")
    o.all(x.diagonal(), "diagonal")
    o.all(T.diagonal(x, offset=1, dim1=-1, dim2=1), "diagonal_kw")
    o.all(x.diagonal(-1, 2, 1), "diagonal_neg")
    o.all(x.diagonal(7), "diagonal_empty")
    o.err("movedim_repeated", lambda: x.movedim((0, -3), (1, 2)))
    o.err("movedim_repeated_dst", lambda: x.movedim((0, 1), (2, -1)))
    o.err("movedim_count", lambda: x.movedim((0,), (1, 2)))
    o.err("movedim_range", lambda: x.movedim(0, 3))
    o.err("unflatten_sizes", lambda: x.unflatten(2, (3, 2)))
    o.err("unflatten_empty", lambda: x.unflatten(2, ()))
    o.err("unflatten_two_inferred", lambda: x.unflatten(2, (-1, -1)))
    o.err("diagonal_same", lambda: x.diagonal(0, 1, -2))
    o.err("diagonal_1d", lambda: T.ones(3).diagonal())
    y = x.movedim((0, 1), (2, 0)).unflatten(2, (1, 2)).swapaxes(0, 1)
    fwd_bwd(T, o, y * y.diagonal(0, 1, 3).sum(), name="chain", depth=5, x=x)
    m = leaf(T, 59, 3, 4)
    g, = T.autograd.grad((m.diagonal(1) ** 3).sum(), m, create_graph=True)
    o.all(g, "second_order.g")
    o["second_order.gg"] = T.autograd.grad((g * g).sum(), m)[0]
    h = m * 1
    d = h.diagonal()
    d.mul_(2)
    o.all(h, "inplace_on_diagonal.base")
    o.all(d, "inplace_on_diagonal.view")
    h.sum().backward()
    o["inplace_on_diagonal.m.grad"] = m.grad
    nodes = m.diagonal(1, 0, 1).grad_fn
    o["saved"] = [nodes._saved_offset, nodes._saved_dim1, nodes._saved_dim2, list(nodes._saved_self_sym_sizes)]


@case
def f19_tutorial_leftovers(T, F, o):
    """The ops a tutorial reaches for that minigrad lacked: F.pad (ConstantPadNdBackward0, whose backward is
    itself), F.selu / nn.SELU (one elu with a scale: EluBackward0, EluBackward1 in place), index_fill (number:
    IndexFillBackward0, 0-dim tensor: IndexFillBackward1), index_copy, diff (narrow and sub), tensordot
    (permute, mm, view), logspace, kthvalue and mode: values, graphs, gradients, second order, errors."""
    x = leaf(T, 61, 2, 3)
    _fb19(T, o, F.pad(x, (1, 2, 0, 1), value=0.5), "pad", x=x)
    _fb19(T, o, F.pad(x, (-1, 2)), "pad_cut", x=x)
    o["pad_int"] = F.pad(T.tensor([1, 2]), (1, 1), value=2.5)
    o.err("pad_odd", lambda: F.pad(x, (1, 2, 3)))
    o.err("pad_long", lambda: F.pad(x, (1,) * 6))
    o.err("pad_cut_too_much", lambda: F.pad(x, (-4, 0)))
    g, = T.autograd.grad(F.pad(x, (1, 1)).pow(3).sum(), x, create_graph=True)
    o.all(g, "pad_second.g")
    o["pad_second.gg"] = T.autograd.grad(g.sum(), x)[0]
    _fb19(T, o, F.selu(x * 2), "selu", x=x)
    _fb19(T, o, T.nn.SELU()(x), "SELU", x=x)
    o["SELU_repr"] = [repr(T.nn.SELU()), repr(T.nn.SELU(inplace=True))]
    y = x * 1
    F.selu(y, inplace=True)
    o.all(y, "selu_inplace")
    g, = T.autograd.grad(F.selu(x).pow(2).sum(), x, create_graph=True)
    o.all(g, "selu_second.g")
    o["selu_second.gg"] = T.autograd.grad(g.sum(), x)[0]
    idx = T.tensor([2, 0, 2])
    _fb19(T, o, x.index_fill(1, idx, -1.5), "index_fill", x=x)
    v = T.tensor(0.25, requires_grad=True)
    _fb19(T, o, T.index_fill(x, 1, idx, v), "index_fill_tensor", x=x, v=v)
    _fb19(T, o, x.index_fill(0, T.tensor(-1), 3.0), "index_fill_negative", x=x)
    s = leaf(T, 62, 2, 1)
    _fb19(T, o, x.index_copy(1, T.tensor([1]), s), "index_copy", x=x, s=s)
    _fb19(T, o, T.index_copy(x, 0, T.tensor([1, 0]), x.exp()), "index_copy_rows", x=x)
    z = T.zeros(2, 3)
    o["in_place"] = [z.index_fill_(1, T.tensor([0]), 2.0), z.index_copy_(0, T.tensor([1]), T.ones(1, 3)), z._version]
    o.err("index_fill_range", lambda: x.index_fill(1, T.tensor([5]), 0.0))
    o.err("index_fill_2d", lambda: x.index_fill(1, T.tensor([[0]]), 0.0))
    o.err("index_fill_float_index", lambda: x.index_fill(1, T.tensor([0.0]), 0.0))
    o.err("index_fill_value_dims", lambda: x.index_fill(1, T.tensor([0]), T.ones(2)))
    o.err("index_copy_range", lambda: x.index_copy(1, T.tensor([-1]), T.ones(2, 1)))
    o.err("index_copy_count", lambda: x.index_copy(1, T.tensor([0, 1]), T.ones(2, 1)))
    o.err("index_copy_dtype", lambda: x.index_copy(1, T.tensor([0]), T.ones(2, 1, dtype=T.float64)))
    m = leaf(T, 63, 3, 4)
    _fb19(T, o, m.diff(), "diff", m=m)
    p = leaf(T, 64, 1, 4)
    _fb19(T, o, T.diff(m, n=2, dim=0, prepend=p, append=p), "diff_twice", m=m, p=p)
    o["diff_other"] = [T.diff(T.tensor([True, False, False])), T.diff(T.tensor([1, 4, 9]), n=5),
                       T.tensor([1.0, 2.0]).diff(n=0)]
    o.err("diff_0d", lambda: T.diff(T.tensor(1.0)))
    o.err("diff_append_dims", lambda: T.ones(3).diff(append=T.tensor(2.0)))
    a3 = leaf(T, 65, 2, 3, 4)
    b3 = leaf(T, 66, 4, 2, 5)
    _fb19(T, o, T.tensordot(a3, b3, dims=([0, 2], [1, 0])), "tensordot_lists", a3=a3, b3=b3)
    _fb19(T, o, T.tensordot(x, m, dims=1), "tensordot_1", x=x, m=m)
    _fb19(T, o, T.tensordot(x, x, dims=2), "tensordot_2", x=x)
    _fb19(T, o, T.tensordot(x[:, :1], m, dims=([1], [0])), "tensordot_broadcast", x=x, m=m)
    o.err("tensordot_sizes", lambda: T.tensordot(x, m.t(), dims=1))
    o.err("tensordot_too_many", lambda: T.tensordot(x, m, dims=3))
    o["logspace"] = [T.logspace(-2, 2, 5), T.logspace(0, 1, 7, base=2), T.logspace(-8, 8, 33),
                     T.logspace(0, 10, 3, dtype=T.int64), T.logspace(1, 2, 1), T.logspace(0.5, 3.5, 9, dtype=T.float64)]
    _fb19(T, o, m.kthvalue(2, 1).values, "kthvalue", m=m)
    _fb19(T, o, T.kthvalue(m, 3, 0, True).values, "kthvalue_keepdim", m=m)
    o["kthvalue_returns"] = [m.kthvalue(1), T.tensor(5.0).kthvalue(1), T.tensor([3, 1, 2]).kthvalue(2)]
    o.err("kthvalue_k", lambda: m.kthvalue(5))
    t = T.tensor([[1.0, 3.0, 3.0, 1.0, 2.0], [2.0, 5.0, 5.0, 7.0, 7.0]], requires_grad=True)
    _fb19(T, o, t.mode(1).values, "mode", t=t)
    o["mode_returns"] = [t.mode(0), T.tensor([3.0, 3, 1, 1, 2]).mode(), T.tensor(5.0).mode(), T.tensor([1, 2, 2, 7]).mode()]
    o.err("mode_empty", lambda: T.ones(2, 0).mode(1))
    n = m.kthvalue(1, 0).values.grad_fn
    o["saved"] = [n._saved_dim, n._saved_keepdim, n._saved_indices, list(n._saved_self_sym_sizes)]


@case
def f19_index_tensors_that_do_not_broadcast(T, F, o):
    """Index tensors whose shapes do not broadcast (makemore part 2 meets one): PyTorch's message names the
    shapes as lists; reading and writing alike."""
    x = leaf(T, 67, 5, 4)
    o.err("get", lambda: x[T.arange(3), T.tensor([0, 1])])
    o.err("get_lists", lambda: x[[0, 1, 2], [0, 1]])
    o.err("get_2d", lambda: x[T.ones(2, 3).long(), T.ones(3, 2).long()])
    o.err("get_apart", lambda: leaf(T, 68, 5, 4, 3)[T.arange(3), :, T.arange(2)])
    y = x.detach().clone()
    o.err("set", lambda: y.__setitem__((T.arange(3), T.tensor([0, 1])), 1.0))
    o.err("index_put", lambda: y.index_put_((T.arange(3), T.tensor([0, 1])), T.tensor(1.0)))


@case
def f20_second_order_graphs_and_layouts(T, F, o):
    """The classes the last differential runs found: second-order graphs (mean of all divides by a plain
    number; mm of a column-major operand; index_copy's source gradient is expanded; CopySlices' own backward),
    prod with zeros (a differentiable gradient, PyTorch's shortcut for two zeros), gelu at +inf in float32,
    mode's index among ties and nans (std::sort's order), and the layout of elementwise results."""
    x = leaf(T, 70, 2, 3)
    g, = T.autograd.grad(F.selu(x.mean()), x, create_graph=True)
    o.all(g, "mean_all", 3)
    a = leaf(T, 71, 3, 1)  # a (3, 1) and its column-major transpose-of-a-row
    w = leaf(T, 72, 2, 4)
    for name, m1, m2 in (("mm_col_major_mat1", a.t().t(), leaf(T, 73, 1, 2)), ("mm_col_major_mat2", w.t()[:1], w.t()[:2].t()),
                         ("mm_one_by_one", leaf(T, 74, 1, 1), leaf(T, 75, 1, 3))):
        y = m1.mm(m2)
        gs = T.autograd.grad((y * y).sum(), [m1, m2], create_graph=True)
        o.all(gs[0], name + ".g1", 4)
        o.all(gs[1], name + ".g2", 4)
    v = leaf(T, 76, 3, 2)
    out = v.index_copy(0, T.tensor([2, 0]), v.index_select(0, T.tensor([0, 1])) * 2).reciprocal()
    g, = T.autograd.grad(out.sum(), v, create_graph=True)
    o.all(g, "index_copy_source", 5)
    for k, (view, op) in enumerate(((lambda y: y[0], lambda t, w: t.mul_(w)), (lambda y: y[:, 1], lambda t, w: t.copy_(w.exp())),
                                    (lambda y: y.diagonal(), lambda t, w: t.sin_()), (lambda y: y.t()[1], lambda t, w: t.add_(w, alpha=2)))):
        x = leaf(T, 77, 3, 3)
        w = leaf(T, 78, 3)
        y = x * 1.0
        op(view(y), w)
        gx, gw = T.autograd.grad((y * y * y).sum(), [x, w], create_graph=True, allow_unused=True)
        o.all(gx, f"copy_slices{k}.gx", 5)
        (gx.sin().sum() + (0 if gw is None else gw.sum())).backward()
        o.grads(f"copy_slices{k}.", x=x, w=w)
    for name, values, dim in (("prod_one_zero", [[0.0, 2.0, 3.0], [1.0, 2.0, 3.0]], None),
                              ("prod_two_zeros", [[0.0, 2.0, 0.0], [1.0, 2.0, 3.0]], None),
                              ("prod_dim_zeros", [[0.0, 2.0, 3.0], [0.0, 0.0, 3.0]], 1),
                              ("prod_dim_of_one", [[0.0], [2.0]], 1)):
        p = T.tensor(values, requires_grad=True)
        y = p.prod() if dim is None else p.prod(dim)
        g, = T.autograd.grad(y.sum(), p, create_graph=True)
        o.all(g, name, 3)
        if g.requires_grad:
            g.pow(2).sum().backward()
            o.grads(name + ".", p=p)
        p.grad = None
        (p.t().prod() if dim is None else p.prod(dim)).sum().backward()
        o.grads(name + ".first_order.", p=p)
    inf = float("inf")
    # (+inf in a float32 tensor of 2 or more elements is left out: PyTorch's vectorised kernel gives nan
    # there with AVX-512 and inf with AVX2, so the answer depends on the CPU: README, "knowingly differs")
    o["gelu_inf"] = [F.gelu(T.tensor([-inf, 1.0])), F.gelu(T.tensor([inf])), F.gelu(T.full((3, 3), inf)[:, :2]),
                     F.gelu(T.tensor([inf, 1.0], dtype=T.float64)), F.gelu(T.tensor([inf, 1.0]), approximate="tanh")]
    nan = float("nan")
    rows = T.tensor([[nan, 3.93, -2.7, 1.0], [2.0, nan, 2.0, nan], [1.0, 1.0, 2.0, 2.0]])
    long_row = T.tensor([float(i % 5) for i in range(37)])
    o["mode"] = [rows.mode(1), long_row.mode(), long_row.flip(0).mode(), T.tensor([3, 1, 3, 1, 2] * 4).mode()]
    base = T.arange(24.0).reshape(2, 3, 4)
    results = [base.permute(1, 0, 2) * base.permute(1, 0, 2).contiguous(),  # (the first operand's layout wins)
               base.transpose(0, 2) + base.permute(2, 1, 0).contiguous(),
               T.maximum(base.transpose(1, 2), base.transpose(1, 2).contiguous()),
               base.permute(0, 2, 1).contiguous().permute(0, 2, 1) * base.transpose(1, 2).transpose(1, 2),
               base.transpose(0, 1)[:, :, :1] + base.transpose(0, 1), base[0].t() * T.ones(3),
               base.permute(2, 0, 1)[:, :1] + base.permute(2, 0, 1)]
    o["layouts"] = [[list(r.shape), list(r.stride()), r.is_contiguous()] for r in results]
    o.err("view_of_permuted_result", lambda: (base.transpose(0, 2) * 2).view(-1))
    strided = [base[:, 1:2].view(2, 1, 1, 4), base.permute(1, 0, 2)[:1].view(2, 4), base[:, :, :1].view(2, 3),
               base.transpose(1, 2)[:, :1].reshape(2, 3, 1), base.view(6, 1, 4), base.view(1, 24), base[0:1, :1].view(4),
               base.unsqueeze(3), base.t().unsqueeze(0) if base.dim() == 2 else base.transpose(0, 2).unsqueeze(1),
               base[0].t().unsqueeze(2), base[0].expand(1, 3, 4), T.tensor(1.0).expand(3, 1), base[:, :1].expand(1, 2, 5, 4),
               base[:, :, ::2].clone(), base.transpose(0, 1)[:, :1].clone(), base[0, :1].expand(3, 4).clone(),
               base.transpose(0, 1)[:1] * 2, base[:, :1].transpose(1, 2) + base[:1, :1].transpose(1, 2)]
    o["strides"] = [[list(r.shape), list(r.stride())] for r in strided]
    o.err("view_across_a_gap", lambda: base[:, :, ::2].view(2, 6))


@case
def f20_ties_nans_and_zeros(T, F, o):
    """Which index wins among equal values and nans is the algorithm's: PyTorch's sort (unless stable=True)
    is C++'s std::sort, topk std::partial_sort or std::nth_element, kthvalue a quickselect. And cumprod of
    zeros keeps a second derivative (PyTorch's O(n^2) formula under create_graph)."""
    nan = float("nan")
    row = T.tensor([float(i * 7 % 3) for i in range(40)])
    rows = T.tensor([[float(i * 5 % 4) for i in range(24)], [nan if i % 6 == 0 else float(i % 2) for i in range(24)]])
    o["sort"] = [row.sort().indices, row.sort(descending=True).indices, row.sort(stable=True).indices,
                 rows.sort(1).indices, rows.sort(1, descending=True).indices, rows.t().sort(0).indices,
                 T.argsort(rows, 1), T.argsort(rows, dim=1, stable=True), T.tensor([2.0, 1.0]).expand(20, 2).sort(0).indices]
    o["topk"] = [row.topk(3).indices, row.topk(30).indices, row.topk(30, largest=False).indices,
                 row.topk(30, sorted=False).indices, rows.topk(5, 1).indices, rows.topk(20, 1, sorted=False).indices,
                 T.tensor([float(i % 5) for i in range(200)]).topk(2).indices]
    o["kthvalue"] = [rows.kthvalue(k, 1) for k in (1, 5, 12, 24)] + [row.kthvalue(20)]
    m = T.tensor([[nan, 1.0, 2.0, 2.0], [nan, nan, nan, nan], [3.0, nan, 1.0, 3.0]], requires_grad=True)
    o["nanmedian"] = [m.nanmedian(1), T.nanmedian(m, 0, keepdim=True), m.nanmedian(), T.tensor([nan] * 7).nanmedian(0),
                      T.tensor([1, 3, 2]).nanmedian()]
    m.nanmedian(1).values.sum().backward()
    o.grads("nanmedian.", m=m)
    o.err("nanmedian_bool", lambda: T.tensor([True]).nanmedian(0))
    s = T.tensor([[2.0, 1.0, 2.0, 1.0], [1.0, 1.0, 1.0, 1.0]], requires_grad=True)
    values, _ = s.sort(1)
    (values * T.tensor([1.0, 2.0, 3.0, 4.0])).sum().backward()
    o.grads("sort_grad.", s=s)
    for name, values, dim in (("cumprod_one_zero", [[1.5, 0.0, 2.0, -1.0]], 1), ("cumprod_zeros", [[0.0, 2.0, 0.0, 3.0]], 1),
                              ("cumprod_dim0", [[0.0, 2.0], [3.0, 0.0], [4.0, 5.0]], 0)):
        c = T.tensor(values, requires_grad=True)
        g, = T.autograd.grad((c.cumprod(dim) * T.arange(1.0, c.numel() + 1).reshape(c.shape)).sum(), c, create_graph=True)
        o.all(g, name, 3)
        g.pow(2).sum().backward()
        o.grads(name + ".", c=c)


@case
def f20_no_derivative_order_and_empty_edges(T, F, o):
    """PyTorch numbers a NotImplemented node (``x // 2``) UINT64_MAX like AccumulateGrad, so when both are
    ready it runs first and a leaf beside it may get no gradient; and the empty-tensor edges of median,
    var, mse_loss and topk."""
    for k, combine in enumerate((lambda a, b: a * b, lambda a, b: b * a, lambda a, b: T.cat([a, b]))):
        x = leaf(T, 80, 3)
        w = leaf(T, 81, 3)
        o.err(f"floor_divide_backward{k}", lambda: combine(x // 0.75, w).sum().backward())
        o.grads(f"floor_divide{k}.", w=w)
    o["empty_median"] = [T.ones(0, dtype=T.bool).median(), T.ones(0, dtype=T.bool).nanmedian(),
                         T.ones(0, dtype=T.int64).median(), T.ones(0).nanmedian()]
    o.warns("var_empty_warns", lambda: [T.ones(2, 0, 3).var(0), T.ones(2, 0).var(0), T.ones(3, 0).std(1)])
    e = T.ones(0, requires_grad=True)
    t = T.tensor(0.5, requires_grad=True)
    loss = o.warns("mse_empty_warns", lambda: F.mse_loss(e, t))
    o["mse_empty"] = loss
    (loss * 2).backward()
    o.grads("mse_empty.", e=e, t=t)
    o.err("topk_bool_k", lambda: T.tensor([True, False]).topk(3))
    o.err("topk_bool", lambda: T.tensor([True, False]).topk(1))


@case
def f21b_none_grad_hooks_bool_pow_stale_views(T, F, o):
    # tensor hooks are called with None for an undefined gradient (vector_norm with ord 0 gives none)
    seen = []
    x = leaf(T, 81, 2, 3)
    x.register_hook(lambda g: seen.append(("leaf", g is None)))
    y = x.clone()
    y.sin_()
    y.register_hook(lambda g: seen.append(("y", g is None)))
    T.linalg.vector_norm(y, 0, dim=1).sum().backward()
    o["none_grad_hooks_seen"] = seen
    o["none_grad_hooks_grad"] = x.grad
    v = leaf(T, 82, 2, 3)
    v.register_hook(lambda g: g.sum())
    o.err("hook_sums_none", lambda: T.linalg.vector_norm(v, 0, dim=1).sum().backward(retain_graph=True))
    w = leaf(T, 83, 2, 3)
    u = w * 2
    u.register_hook(lambda g: T.ones(2, 3))
    o.err("hook_replaces_none", lambda: T.autograd.grad(T.linalg.vector_norm(u, 0).sum(), w, allow_unused=True))
    z = leaf(T, 84, 3)
    parts = (z * 2).unbind()
    parts[1].register_hook(lambda g: seen.append(("part1", g is None)))
    parts[0].backward()
    o["unbind_part_hook"] = seen[-1]
    # pow's backward computes exponent - 1: refused for a bool exponent, as at::sub refuses it
    p = leaf(T, 85, 2, 2)
    o.err("pow_bool_exponent", lambda: (p ** T.tensor([True, False])).sum().backward())
    o.err("pow_bool_exponent_0dim", lambda: T.autograd.grad((p ** T.tensor(True)).sum(), p, create_graph=True))
    o.err("pow_all_false_exponent", lambda: (p ** T.tensor([False, False])).sum().backward())
    o.val("pow_bool_scalar_exponent", lambda: T.autograd.grad((p ** True).sum(), p))
    # a view made before its base got a history is a leaf to the in-place check until its grad_fn is read
    src = leaf(T, 86, 3, 2)
    results = []
    for k, use in enumerate((None, "grad_fn", "op", "no_grad_op", "setitem", "setitem_all", "setitem_0dim_tensor")):
        base = T.zeros(3, 2)
        view = T.einsum("ij->ji", base.reshape(-1, 1)) if k == 0 else base.t()
        base.copy_(src)
        if use == "grad_fn":
            view.grad_fn
        elif use == "op":
            view * 2
        elif use == "no_grad_op":
            with T.no_grad():
                view * 2
        if use == "setitem":
            def act(view=view): view[0] = 1.0
        elif use == "setitem_all":
            def act(view=view): view[:] = 1.0
        elif use == "setitem_0dim_tensor":
            def act(view=view): view[T.tensor(1)] = 1.0
        else:
            def act(view=view): F.relu(view, inplace=True)
        results.append(o.err(f"stale_view.{use}", act) is None)
        if results[-1]:
            o.all(view, f"stale_view.{use}.value")
            o["stale_view." + str(use) + ".grad_fn"] = [view.grad_fn.name(), [n and n.name() for n, _ in view.grad_fn.next_functions]]
    c = leaf(T, 87, 3, 2).clone()
    c[T.tensor(0)] = 1.0
    c[T.tensor(1), [1]] = 2.0
    o["setitem_0dim_index_graph"] = [c.grad_fn.name(), c.grad_fn.next_functions[0][0].name()]


@case
def f21a_second_order_formulas_as_pytorch_writes_them(T, F, o):
    """Second-order graphs (and third) of the differential run's classes "grad: next_functions" / "grad_fn":
    mse_loss_backward keeps its input's dtype (a float32 target next to a float64 input: no ToCopyBackward0) and
    its own backward multiplies by plain numbers; repeat's backward sums the added leading dims one at a time;
    softplus_backward's backward multiplies by beta as a Scalar; expand of a 0-dim tensor sums in backward;
    var/std with no degrees of freedom (a where of two Scalars: float32); masked_fill's backward is a
    masked_fill (a value tensor's: masked_select().sum()); cumsum's backward casts first and is the gradient
    itself along a dim of size 1; trace's backward is index_fill_ on zeros, then a view."""
    t32 = leaf(T, 80, 3)
    x64 = leaf(T, 81, 3, dtype="float64")
    for red in ("mean", "none", "sum"):
        loss = F.mse_loss(x64, t32, reduction=red).sum()
        g64, g32 = T.autograd.grad(loss ** 3, [x64, t32], create_graph=True)
        o.all(g32, f"mse_{red}.target", 6)
        o.all(g64, f"mse_{red}.input", 6)
        h = T.autograd.grad((g32 * g32).sum() + g64.sum(), [x64, t32], create_graph=True)
        o.all(h[0], f"mse_{red}.input2", 8)
        o.all(h[1], f"mse_{red}.target2", 8)
    a = leaf(T, 82, 3, 2)
    for k, reps in enumerate(((2, 1), (1, 1), (3, 2, 2), (2, 0), (2, 3, 1))):
        y = F.softplus(a.repeat(*reps), beta=2)
        g, = T.autograd.grad(y.sum(), [a], create_graph=True)
        o.all(g, f"repeat{k}", 8)
        if g.requires_grad:
            o.all(T.autograd.grad((g * g).sum(), [a], create_graph=True)[0], f"repeat{k}.second", 10)
    s = leaf(T, 83)
    for k, y in enumerate((F.normalize(s, dim=0), s.expand(()) * s)):
        o.all(T.autograd.grad((y ** 3).sum(), [s], create_graph=True)[0], f"expand_0d{k}", 10)
    v = leaf(T, 84, 1, dtype="float64")
    w = v.clone()
    w.sin_()
    for name, f, x in (("std_no_dof", w.std, v), ("var_no_dof", v.var, v), ("var_0d", s.var, s)):
        y = o.warns(name + ".warnings", f)
        o.all(T.autograd.grad(y * 3, [x], create_graph=True)[0], name, 6)
    m = leaf(T, 85, 3, 1)
    val = leaf(T, 86)
    for k, (mask, value) in enumerate(((m > 0, -1.5), (T.tensor([True, False, True]), 2.0), (m < 0, val),
                                       (T.tensor([[True, False]]), val * 3))):
        y = m.masked_fill(mask, value)
        gs = T.autograd.grad((y * y * y).sum(), [m, val], create_graph=True, allow_unused=True)
        o.all(gs[0], f"masked_fill{k}.self", 4)
        if gs[1] is not None:
            o.all(gs[1], f"masked_fill{k}.value", 4)
    c = m * 1
    c.masked_fill_(m > 0, 2.0)
    o.all(T.autograd.grad((c * c).sum(), [m], create_graph=True)[0], "masked_fill_inplace", 4)
    b = leaf(T, 87, 1)
    for k, (x, d, dtype) in enumerate(((b, 0, None), (m, 1, None), (m, 0, None), (m, 0, T.float64), (b, 0, T.float64))):
        g, = T.autograd.grad((x.cumsum(d, dtype=dtype) ** 3).sum(), [x], create_graph=True)
        o.all(g, f"cumsum{k}", 8)
    o["cumsum_float32_accumulates_in_double"] = T.tensor(arr(88, 200, lo=-1000.0, hi=1000.0).tolist()).cumsum(0)
    for k, shape in enumerate(((2, 3), (3, 2), (4, 1), (1, 1))):
        p = leaf(T, 89 + k, *shape, dtype="float64")
        g, = T.autograd.grad(p.trace() ** 3, [p], create_graph=True)
        o.all(g, f"trace{k}", 4)
        o.all(T.autograd.grad((g * g).sum(), [p], create_graph=True)[0], f"trace{k}.second", 8)


@case
def f21c_signed_zeros_pow_kernels_and_fresh_views(T, F, o):
    """The classes of a differential run: remainder's zero keeps fmod's sign (a's), nll_loss's ignored
    targets lose +0, pow by 0.5/-0.5/-1/2/3/-2 goes to sqrt/rsqrt/reciprocal/products (rsqrt(-0.0) is -inf,
    of -inf nan; the gradient of x ** 0.5 at -0.0 is -inf), float32 gelu rounds 1 + erf in float32,
    softmax of an empty bool tensor, a view whose base later gets a history (backward straight away;
    a piece of split made in grad mode refuses). (Not copied: PyTorch's AccumulateGrad keeps a gradient
    no one else holds instead of copying it, so the 0-dim .grad of leaves stacked and summed can share
    one number; minigrad cannot see who holds a tensor without reference counts and always copies.)"""
    inf, nan = float("inf"), float("nan")
    a = T.tensor([-1.52, 1.52, -1.5, 3.0, -1.0, 1.0, 0.0, -0.0])
    b = T.tensor([0.76, 0.76, -0.75, -1.5, inf, -inf, -2.0, 2.0])
    o["remainder"] = [1 / (a % b), 1 / (a % 0.76), 1 / a.remainder(-0.75), 1 / T.remainder(-1.5, b), 1 / (a.double() % b.double())]
    x = T.tensor([[0.43, -1.0], [0.16, 2.0], [1.69, 3.0]])
    o["nll_ignored"] = [1 / F.nll_loss(x, T.tensor(t), ignore_index=0, reduction=r)
                        for t in ([0, 0, 0], [1, 0, 1]) for r in ("none", "sum")]
    p = T.tensor([-inf, -2.5, -1.0, -0.0, 0.0, 1e-45, 1.0, 2.5, inf, nan, 3e38, 1e-20, 0.3])
    o["pow_kernels"] = [p ** e for e in (-0.5, -1, -1.0, 2, 3, 3.0, -2, 0, 1)] + [p.double() ** e for e in (-0.5, 0.5, -2, 3)]
    z = T.tensor([[[-1.98], [1.81], [-0.0]]], dtype=T.float64, requires_grad=True)
    (z.tril(2) ** 0.5).sum().backward()
    o.grads("sqrt_of_minus_zero.", z=z)
    c = T.tensor([[-0.39, -1.23], [0.47, -1.76], [1.34, -1.65]]) ** 3
    o["gelu_float32_tail"] = [1 / F.gelu(c).tanh(), F.gelu(c[1:2, 1]), F.gelu(c.double())]
    e = T.tensor([1.0, 2.0])[T.tensor([False, False])] == 0
    o["softmax_empty_bool"] = [e.softmax(-1), e.log_softmax(0), T.zeros(0, 3, dtype=T.int64).softmax(1)]
    o.err("softmax_bool", lambda: (T.tensor([True]).softmax(0)))
    v0 = leaf(T, 80, 3)
    v1 = const(T, 81, 2, 3)
    v3 = v1.T
    v1[0, ...] = v0
    v3.backward(gradient=T.ones_like(v3) * 0.5)
    o.grads("view_then_base_history.", v0=v0)
    s2 = const(T, 82, 2, 1, 3, dtype="float64")
    piece = s2.split(1, -1)[-1]
    w9 = leaf(T, 83, 2, 1, 3, dtype="float64")
    s2.__iadd__(w9).sum().backward(retain_graph=True)
    o.err("split_piece_after_base_history", lambda: piece.grad_fn)
    o.val("split_piece_requires_grad", lambda: piece.requires_grad)


@case
def f22_setitem_index_put_diag_diff_nan_to_num(T, F, o):
    """x[key] = v with a basic key writes into the view x[key] by copy_/fill_ (CopySlices over CopyBackwards or
    FillBackward, whose own backward runs under create_graph); index_put's gradient is grad.index_put(indices,
    zeros); diag's second order takes the diagonal view; diff builds x[:-1] before x[1:], as PyTorch's C++;
    nan_to_num's gradient is grad * isfinite(x) (an infinite gradient at inf gives nan)."""
    for k, (key, val) in enumerate([((0,), 2.0), ((0,), "vec"), ((slice(1, None),), 2.0), ((None,), -1.0),
                                    ((0, 1), "scalar_t"), ((Ellipsis, 1), "vec2"), (([0, 2],), "row"),
                                    ((slice(None), [1, 0]), "col")]):
        x = leaf(T, 90, 3, 3)
        w = leaf(T, 91, 3)
        y = x * 1.0
        y[key] = {"vec": w * 2, "scalar_t": w[0] * 3, "vec2": w.exp(), "row": w.reshape(1, 3) * 1.0,
                  "col": w[:2] * 1.0}.get(val, val)
        o.all(y, f"setitem{k}", 2)
        gx, gw = T.autograd.grad((y * y * y).sum(), [x, w], create_graph=True, allow_unused=True)
        o.all(gx, f"setitem{k}.gx", 5)
        (gx.sin().sum() + (0 if gw is None else gw.sum())).backward()
        o.grads(f"setitem{k}.", x=x, w=w)
    v = leaf(T, 92, 3)
    g, = T.autograd.grad((T.diag(v, 1) ** 2).sum(), v, create_graph=True)
    o.all(g, "diag_embed_second", 4)
    d = leaf(T, 93, 4)
    g, = T.autograd.grad(d.diff(n=2).prod(), d, create_graph=True)
    o.all(g, "diff_second", 6)
    n = T.tensor([1.0, float("inf"), float("nan"), -float("inf")], requires_grad=True)
    n.nan_to_num(posinf=2.0).backward(T.tensor([2.0, float("inf"), 3.0, 1.0]))
    o.grads("nan_to_num.", n=n)
    g, = T.autograd.grad((n.nan_to_num() * 2).sum(), n, create_graph=True)
    o.all(g, "nan_to_num_second", 3)
    a, b = leaf(T, 94, 3), leaf(T, 95, 3)
    ga, gb = T.autograd.grad((T.where(a > 0, a * a, b) * b).sum(), [a, b], create_graph=True)
    o.all(ga, "where_self_second", 4)  # (where(cond, grad, 0) and where(cond, 0, grad): the 0 has no edge)
    o.all(gb, "where_other_second", 4)
    o.err("take_from_empty", lambda: T.ones(0).take(T.tensor([0])))
    for k, key in enumerate((([0, 0], 0), (0, [1, 2]), (slice(1, None), [0]))):
        m = T.meshgrid(T.arange(6.0), T.tensor([1.0, 2.0]), indexing="xy")[0]  # (expanded: rows share memory)
        o.warns(f"expanded_setitem{k}.warns", lambda: m.__setitem__(key, -1.0))
        o[f"expanded_setitem{k}"] = [m, m._version]


@case
def f23_zerotensor(T, F, o):
    """PyTorch's ZeroTensor: sgn's gradient is zeros never written to memory. It flows back through mul, div,
    add, views and the ZeroTensor kernels (not through neg, a cast, expand's stride 0 or ops that materialize it);
    a leaf keeps it as .grad, so a second backward (or zero_(), an optimizer's zero_grad(set_to_none=False),
    backward(inputs=...)) that writes into it raises, as do tolist() and numpy(); a second order through abs
    and l1_loss gives one; the kernels' dtypes (a 0-dim ZeroTensor times 2.5 is float64), inf and nan."""
    x = T.tensor([1.5, -2.0, 0.0])
    programs = {"sgn": lambda v: v.sgn(), "mul": lambda v: (v * 2).sgn(), "div": lambda v: (v / 2).sgn(),
                "add": lambda v: (v + 2).sgn(), "rsub": lambda v: (2 - v).sgn(), "neg": lambda v: (-v).sgn(),
                "sum": lambda v: v.sum().sgn(), "mean": lambda v: v.mean().sgn(), "exp": lambda v: v.exp().sgn(),
                "view": lambda v: v.view(3, 1).sgn(), "t": lambda v: v.view(3, 1).t().sgn(),
                "square": lambda v: (v * v).sgn(), "cast": lambda v: v.double().sgn(),
                "expand": lambda v: v[:1].expand(3).sgn(), "scalar_mul": lambda v: (v[0] * 2.5).sgn()}
    for name, f in programs.items():
        v = x.detach().requires_grad_()
        f(v).sum().backward()
        o[f"{name}.grad"] = v.grad
    v = x.detach().requires_grad_()
    v.sgn().sum().backward()
    g = v.grad
    o.err("second_backward", lambda: v.sgn().sum().backward())
    o["after_second_backward"] = v.grad
    o.err("zero_", lambda: g.zero_())
    o.err("add_", lambda: g.add_(1))
    o.err("copy_", lambda: g.copy_(x))
    o.err("fill_", lambda: g.fill_(1.0))
    o.err("setitem", lambda: g.__setitem__(0, 1.0))
    o.err("tolist", lambda: g.tolist())
    o.err("numpy", lambda: g.numpy())
    o["numpy_force"] = g.numpy(force=True).tolist()
    o["item"] = g[0].item()
    o["views"] = [g.view(3, 1), g[1:], g.detach(), g.data, g.expand(2, 3), g.clone(), g.contiguous()]
    y = T.tensor([-1.0, float("inf"), -0.0])
    o["kernels"] = [g * y, y * g, g / y, y / g, g / g, g + y, y + g, g - y, y - g, g * 2.5, g + 2.5, 2.5 - g, -g,
                    g.exp(), g.sum(), T.where(y > 0, g, y), T.cat([g, y])]
    o["in_place_operand"] = [y.clone().mul_(g), y.clone().add_(g), y.clone().sub_(g), y.clone().copy_(g)]
    s = T.tensor(1.5, requires_grad=True)
    s.sgn().backward()
    o["scalar_kernels"] = [s.grad * 2.5, s.grad + 2.5, s.grad / 2, s.grad * 2, s.grad * True, s.grad - 1]
    w = leaf(T, 100, 3)
    ga, = T.autograd.grad(w.abs().sum(), w, create_graph=True)
    o.all(ga, "abs_first", 3)
    gg, = T.autograd.grad(ga.sum(), w)
    o["abs_second"] = gg
    w2, t2 = leaf(T, 101, 3), leaf(T, 102, 3)
    gl, = T.autograd.grad(F.l1_loss(w2, t2), t2, create_graph=True)
    gl.sum().backward()
    o.grads("l1_second.", w2=w2, t2=t2)
    o.err("l1_then_backward", lambda: F.l1_loss(w2, t2).backward())
    o.grads("l1_after.", w2=w2, t2=t2)
    p = leaf(T, 103, 3)
    p.sgn().sum().backward()
    p2 = leaf(T, 104, 3)
    (p2 * 2).sum().backward()
    opt = T.optim.SGD([p, p2], lr=0.1, momentum=0.9)
    opt.step()
    o["after_step"] = [p, p2]
    o.err("zero_grad_keep", lambda: opt.zero_grad(set_to_none=False))
    opt.zero_grad()
    o.val("zero_grad_none", lambda: [p.grad, p2.grad])
    q = leaf(T, 105, 3)
    q.sgn().sum().backward(inputs=[q])
    o["inputs_first"] = q.grad
    o.err("inputs_second", lambda: (q * 3).sum().backward(inputs=[q]))
    r = leaf(T, 106, 3)
    r.sgn().sum().backward()
    (r * r).sum().backward(create_graph=True)  # (recording: .grad + new, a copy of the new gradient)
    o.all(r.grad, "create_graph_accumulate", 3)
    m = leaf(T, 107, 3)
    ym = m * 2
    ym.retain_grad()
    ym.sgn().sum().backward()
    o.grads("retained.", ym=ym, m=m)
    z = T._efficientzerotensor(2, 3)
    o["factory"] = [z, T._efficientzerotensor((2,), dtype=T.float64), T._efficientzerotensor(3, dtype=T.int64) * 2]
    o.err("factory_write", lambda: z.mul_(2))


@case
def f24_shared_writes_saved_guards_mixed_setitem(T, F, o):
    """tril_/triu_ write straight into an expanded tensor of up to 3 dims (zeros wherever any of the elements that
    share a place is outside the triangle; 4 dims copy back and refuse); fills and index puts into an expanded view
    of a tensor that requires grad record CopySlices and refuse only in backward; masked_fill_ with a 0-dim tensor
    is MaskedFillBackward1; a loss's mean over no elements has a gradient; an op with two differentiable inputs
    saves each for the other's gradient only (dot, mv, bmm, cross, addcdiv's tensor1, rounding div's self), and
    reads what it saved in backward (2 ** x keeps x); x[0, [1, 2]] = v is a view and index_put_ into it (CopySlices
    over IndexPutBackward0, under create_graph too)."""
    rows = T.tensor([1.0, 2.0, 3.0])
    o["tril_expanded"] = [rows.clone().expand(3, 3).tril_(), rows.clone().expand(3, 3).triu_(1),
                          T.tensor([[1.0, 2.0], [3.0, 4.0]]).expand(3, 2, 2).tril_(),
                          T.arange(4.0).reshape(2, 2)[None, None].expand(3, 1, 2, 2).triu_()]
    o.err("tril_expanded_4d", lambda: rows.clone().expand(2, 2, 3, 3).tril_())
    for name, write in [("fill", lambda y: y.fill_(1.5)), ("zero", lambda y: y.zero_()), ("tril", lambda y: y.tril_()),
                        ("masked", lambda y: y.masked_fill_(T.tensor([True, False, True]), 2.0)),
                        ("index_put", lambda y: y.__setitem__(([0, 1],), T.tensor([4.0, 5.0, 6.0])))]:
        x = leaf(T, 110, 3)
        y = (x * 1).expand(3, 3)
        write(y)
        o.all(y, f"expanded_{name}", 3)
        o.err(f"expanded_{name}_backward", lambda: y.sum().backward())
    o.err("mul_into_expanded", lambda: (leaf(T, 111, 3) * 1).expand(3, 3).mul_(2))
    x, v = leaf(T, 112, 3), T.tensor(5.0, requires_grad=True)
    y = x * 1
    y.masked_fill_(T.tensor([True, False, True]), v)
    fwd_bwd(T, o, y, "masked_fill_tensor", x=x, v=v)
    o.err("masked_fill_1d_value", lambda: (x * 1).masked_fill_(T.tensor([True, False, True]), T.tensor([1.0, 2.0, 3.0])))
    for name, loss in [("huber", F.huber_loss), ("smooth_l1", F.smooth_l1_loss), ("mse", F.mse_loss), ("l1", F.l1_loss)]:
        a, b = T.zeros(0, 2, requires_grad=True), T.zeros(0, 2, requires_grad=True)
        o[f"empty_mean_{name}"] = [loss(a, b)] + list(T.autograd.grad(loss(a, b), [a, b]))
    pairs = {"dot": lambda a, b: a[0].dot(b[0]), "mv": lambda a, b: a.mv(b[0]), "bmm": lambda a, b: a[None].bmm(b.t()[None]),
             "cross": lambda a, b: T.cross(a, b, dim=1), "addcdiv": lambda a, b: b.addcdiv(a, b.abs() + 1, value=2.0),
             "div_trunc": lambda a, b: T.divide(b, a.abs() + 0.5, rounding_mode="trunc"), "rpow": lambda a, b: 2.0 ** a,
             "rpow0": lambda a, b: 0.0 ** (a - 1)}
    for name, f in pairs.items():
        for changed in ("a", "b"):
            a, b = leaf(T, 113, 2, 3) * 1, const(T, 114, 2, 3) * 1
            y = f(a, b)
            with T.no_grad():
                (a if changed == "a" else b).mul_(2)
            o.err(f"saved_{name}_changed_{changed}", lambda: y.sum().backward())
    for k, key in enumerate([(0, [1, 2]), (slice(1, None), [0]), (None, [0, 1]), (True, [0]), ([0, 1], 1, [0, 1])]):
        x = leaf(T, 115, 2, 3, 3)
        y = x * 1
        target = y.detach()[key].shape
        w = T.tensor(arr(116, *target).tolist(), requires_grad=True)
        y[key] = w * 2
        o.all(y, f"mixed_setitem{k}", 3)
        gx, gw = T.autograd.grad((y * y * y).sum(), [x, w], create_graph=True)
        o.all(gx, f"mixed_setitem{k}.gx", 5)
        o[f"mixed_setitem{k}.second"] = list(T.autograd.grad(gx.sin().sum() + gw.sum(), [x, w]))


@case
def f25_no_grad_views_cross_rounding_cumsum(T, F, o):
    """A view made under no_grad (or inference_mode) of a tensor that requires grad requires grad too, is a leaf
    whose uses get no edge, and may not be changed in place (nor see its base changed, even under no_grad) with
    grad mode on: PyTorch's CreationMeta messages, also for a view of such a view and a split piece made under
    no_grad. cross rounds as PyTorch's fused multiply-subtract (cross(a, a) of equal components is the rounding
    error, not 0); float32 exp/log/tanh/cosh/... are the float64 result rounded once; cumsum starts from +0;
    expand names the last dim that does not fit; x[1:] = v into an expanded view of a leaf refuses as a leaf view;
    diag's second order is DiagonalBackwardBackward0; x ** y takes the log of x in the result's dtype."""
    def fresh():
        x = leaf(T, 120, 4)
        return x, x * 1

    def attempt(name, make_view, change, read=None):
        x, y = fresh()
        with T.no_grad():
            v = make_view(x, y)
        o.flags(name, v)
        o.err(f"{name}.change", lambda: change(v, y))
        if read:
            o.err(f"{name}.read", lambda: read(v))

    def change_base_under_no_grad(v, y):
        with T.no_grad():
            y.mul_(2)

    attempt("view", lambda x, y: y[:2], lambda v, y: v.mul_(2))
    attempt("view_of_leaf", lambda x, y: x[:2], lambda v, y: v.mul_(2))
    attempt("base_changed", lambda x, y: y[:2], lambda v, y: y.mul_(2), read=lambda v: v.grad_fn)
    attempt("base_changed_no_grad", lambda x, y: y[:2], change_base_under_no_grad, read=lambda v: v.grad_fn)
    attempt("view_of_view", lambda x, y: y.view(4), lambda v, y: v[:2].mul_(2))
    attempt("split_piece", lambda x, y: y.split(2)[0], lambda v, y: v.mul_(2))
    x = leaf(T, 121, 4)
    with T.no_grad():
        v = x[:2]
    z = v * 3
    o.flags("leaf_view", v)
    o.all(z, "use_of_no_grad_view", 3)
    z.sum().backward()
    o.grads("use_of_no_grad_view.", x=x, v=v)
    o.val("hook_on_no_grad_view", lambda: v.register_hook(lambda g: g) is not None)
    o.err("leaf_view_change", lambda: v.mul_(2))
    x, y = fresh()
    with T.inference_mode():
        w = y[:2]
    o.err("inference_view_change", lambda: w.mul_(2))
    o.val("inference_view_requires_grad", lambda: (w.requires_grad, (w * 2).requires_grad))
    a = T.tensor([[1.04, 1.04, 1.04], [0.47, 1.82, 1.01], [3.0, -1.5, 0.25]], dtype=T.float32)
    b = T.tensor([[0.7, 0.7, 0.7], [-1.82, -float("inf"), -1.97], [0.1, 0.2, 0.3]], dtype=T.float32)
    o["cross"] = [T.cross(a, b, dim=1), T.cross(a.double(), b.double(), dim=1), T.cross(a, a, dim=1).bool()]
    p = T.tensor([-7.414875, 0.3, 2.7, 11.0, -3.3, 0.05], dtype=T.float32)
    o["float32_rounding"] = [p.exp(), p.cosh(), p.sinh(), p.tanh(), p.sin(), p.cos(), p.abs().log(), p.abs().log10(),
                             p.abs().log2(), p.expm1(), p.abs().log1p(), (p / 12).asin(), (p / 12).acos(), p.atan(),
                             p.exp2(), p.cosh() % 0.75]
    z0 = T.tensor([[-0.0, -0.0, 1.0], [-0.0, 2.0, -0.0]])
    o["cumsum_zeros"] = [1 / z0.cumsum(0), 1 / z0.cumsum(1), 1 / z0.double().cumsum(1)]
    o.err("expand_last_dim", lambda: T.ones(2, 2, 2).expand(1, 1, 2))
    e = leaf(T, 122, 2, 1, 3)
    o.err("setitem_expanded_leaf_view", lambda: e.expand(2, 3, 3).__setitem__(slice(1, None), T.ones(3)))
    m = leaf(T, 123, 3, 2)
    g, = T.autograd.grad(T.diag(m, 0).exp().sum(), m, create_graph=True)
    o.all(g, "diag_second", 4)
    base, expo = leaf(T, 124, 3, lo=0.5), leaf(T, 125, 3, dtype="float64")
    g = T.autograd.grad((base ** expo).sum(), [base, expo], create_graph=True)
    o.all(g[1], "pow_exponent_grad", 6)


@case
def f26_inplace_view_ops(T, F, o):
    """unsqueeze_/squeeze_/t_/transpose_/swapdims_ change the tensor itself (same memory, new shape and strides),
    record UnsqueezeBackward1, SqueezeBackward3/4/5, TBackward1, TransposeBackward1 as its history (a view keeps its
    base, whose history does not change), bump the version, and refuse a leaf that requires grad; matmul's
    vector @ matrix squeezes its product in place (version 1)."""
    ops = {"unsqueeze_": lambda y: y.unsqueeze_(0), "unsqueeze_last": lambda y: y.unsqueeze_(-1),
           "squeeze_": lambda y: y.squeeze_(), "squeeze_1": lambda y: y.squeeze_(1), "squeeze_0": lambda y: y.squeeze_(0),
           "squeeze_dims": lambda y: y.squeeze_((0, 1)), "t_": lambda y: y.view(2, 3).t_(),
           "transpose_": lambda y: y.transpose_(0, 2), "swapdims_": lambda y: y.swapdims_(0, 1),
           "swapaxes_": lambda y: y.swapaxes_(1, 2), "view_unsqueeze_": lambda y: y[0].unsqueeze_(0)}
    for name, f in ops.items():
        x = leaf(T, 130, 2, 1, 3)
        y = x * 1
        r = f(y)
        o.val(f"{name}.same", lambda: r is y)
        o.all(r, name, 3)
        o[f"{name}.meta"] = [list(r.stride()), r._version, y._version]
        o.fn(f"{name}.base_fn", y)
        (r * T.arange(float(r.numel())).reshape(r.shape)).sum().backward()
        o.grads(f"{name}.", x=x)
    o.err("t_3d", lambda: (leaf(T, 131, 2, 1, 3) * 1).t_())
    o.err("unsqueeze_out_of_range", lambda: (leaf(T, 131, 2, 3) * 1).unsqueeze_(5))
    o.err("leaf", lambda: leaf(T, 132, 2).unsqueeze_(0))
    z = leaf(T, 133, 2)
    with T.no_grad():
        z.unsqueeze_(0)
    o.flags("leaf_under_no_grad", z)
    o["leaf_under_no_grad.meta"] = [list(z.shape), z._version]
    v, m = leaf(T, 134, 3), leaf(T, 135, 3, 2)
    p = v @ m
    o.all(p, "vector_matrix", 3)
    o["vector_matrix.version"] = p._version


@case
def f27_expanded_layouts_and_index_put_overlap(T, F, o):
    """A one-input op on an expanded tensor lays its result out as PyTorch's TensorIterator (the expanded dim keeps
    its place: row-major here, where numpy's astype puts it last), casts and clone too; kron of such a result views
    it. index_put_ refuses a value that shares memory with the tensor (or the view it writes into), except when it
    fills by a mask with one value (masked_fill_)."""
    u = T.tensor([[0.5, -1.0, 2.0]]).expand(4, 3)
    w = T.tensor([[1, 2, 3]]).expand(2, 3)
    results = [u.exp(), u.log(), u.sin(), u.tanh(), u.rsqrt(), u.erf(), u.nan_to_num(), u.clamp(0, 1), u.flip(0),
               u.double(), u.long(), u.bool(), u.half(), u.clone(), u.to(T.float64), w.exp(), w.sqrt(), w.float()]
    o["strides"] = [list(r.stride()) for r in results]
    o["contiguous"] = [r.is_contiguous() for r in results]
    v = T.tensor([[[[-0.02, 1.74], [-1.32, 0.25]]], [[[1.97, -1.55], [-1.78, 1.62]]]], dtype=T.float64,
                 requires_grad=True)
    k = T.kron(v.expand(2, 2, 1, 2, 2).nan_to_num(), leaf(T, 140, 2, 1, 1, 2, 2, dtype="float64"))
    o.all(k, "kron_of_expanded", 3)
    a = T.tensor([-1.87, 2.0], dtype=T.float64) * 1
    a[a > 5] = a[0:1]  # (one value through a mask: masked_fill_, no overlap check)
    o["mask_fill_self"] = [a, a._version]
    o.err("index_put_self", lambda: a.__setitem__(([0],), a[1:]))
    b = T.tensor([[[1.0, 2.0], [3.0, 4.0]], [[5.0, 6.0], [7.0, 8.0]]])
    o.err("index_put_view_overlap", lambda: b.__setitem__(([0, 0], 0), b))
    o.err("index_put_list_overlap", lambda: b.__setitem__(([0, 1],), b[0]))
    o["after"] = [b, b._version]
    x = T.arange(24.0).reshape(2, 3, 4)
    m = T.tensor([[True, False, True], [False, True, True]])
    picked = [x[:, [0, 0]], x[[0, 1]], x[:, :, [1, 2]], x[[0, 1], :, [1, 2]], x.transpose(0, 2)[:, [0, 1]],
              x.transpose(0, 2)[[0, 1]], x[..., [0, 3]], x[:, x[0, :, 0] > 0], x[:, [[0, 1], [1, 2]]],
              x.permute(1, 2, 0)[:, [0, 2]], x[:, [0, 1], [1, 2]], x[1:, [0, 2]], x[m], x.transpose(0, 2)[:, m.t()],
              x[T.tensor([[0, 1], [1, 0]]).t()], x[[0, 1], 1:, [1, 2]]]
    o["index_strides"] = [[list(p.shape), list(p.stride())] for p in picked]  # (advanced indexing: TensorIterator's)


@case
def f28_mixed_dtype_operands(T, F, o):
    """An op on operands of two dtypes computes in the result dtype (PyTorch's TensorIterator casts both first):
    float32 % a float64 0-dim tensor is a float32 remainder, int / int divides in float32, int64 + float32 adds in
    float32 (2**24 + 1 is not a float32). setitem checks autograd's rules before the shared places, and an index
    put names the shape before the dtype."""
    x = T.tensor([[[0.01, -0.8, 1.51]], [[-1.6, -0.6, -1.53]]], dtype=T.float32)
    d = T.tensor(0.1, dtype=T.float64).abs() + 0.5
    o["float32_with_float64_0dim"] = [1 / (x % d), x // d, x * d, x - d, x / d, x ** d, T.maximum(x, d),
                                       T.where(x > 0, x, d), x.fmod(d), x.clamp_min(d)]
    big = T.tensor([2 ** 24 + 1, 3, 7, 16777219], dtype=T.int64)
    f = T.tensor([0.5, 1.0, 3.0, 0.0], dtype=T.float32)
    o["int_with_float32"] = [big + f, big * f, big / T.tensor([3, 7, 9, 11]), big - f, T.maximum(big, f)]
    e = leaf(T, 150, 2, 1, 3)
    g = T.meshgrid(e.reshape(-1), e.reshape(-1)[:2] * 2, indexing="xy")[0]
    o.err("setitem_expanded_leaf_view_basic", lambda: g.__setitem__((slice(None), None), 0.0))
    h = T.tensor([[1.28, -0.37]]).repeat(2, 1, 1)
    o.err("index_put_shape_before_dtype", lambda: h.__setitem__(([5],), T.tensor([[-1, 2], [0, 0], [0, 1]])))


@case
def f29_as_strided_backward_and_reduced_dims(T, F, o):
    """A view whose base changed in place gets AsStridedBackward0, whose backward is PyTorch's as_strided_backward
    (squeeze and sum of the gradient, a fresh storage written through an as_strided view: CopySlices, or index_add_
    where the view repeats places), so second-order graphs match; an in-place op's saved result that is a view
    unpacks with the view's new node; amax/amin's backward views the gradient back even for a 0-dim input (and for
    amin(0) of one, summed back by the engine); a bool tensor is CPUBoolType in the version error."""
    def tree_of_second(name, make, *leaves):
        g = T.autograd.grad(make().sum(), list(leaves), create_graph=True, allow_unused=True)
        for k, gk in enumerate(g):
            if gk is not None:
                o.all(gk, f"{name}.g{k}", 8)

    v0 = leaf(T, 160, 1, 3, 1)
    def flatten_then_exp_():
        s = T.einsum("ij->", v0.reshape(1, -1))
        f = s.flatten(-1, 0)
        T.exp_(s)
        return f.exp2()
    tree_of_second("flatten_exp_", flatten_then_exp_, v0)
    a, b = leaf(T, 161, 1, 1, 2), leaf(T, 162, 1, 1, 2)
    def einsum_exp_():
        y = T.einsum("ij,jk->ik", a.reshape(1, -1), b.reshape(-1, 1))
        return T.exp_(y)
    tree_of_second("einsum_exp_", einsum_exp_, b)
    c = leaf(T, 163, 3, 2)
    def expanded_view_add_():
        y = c * 1
        v = y[:, :1].expand(3, 4)  # (a view whose elements repeat places)
        y.add_(1)
        return v * v
    tree_of_second("expanded_view", expanded_view_add_, c)
    d = leaf(T, 164, 4, 3)
    def strided_view_mul_():
        y = d * 1
        v = y.t()[::2]
        y.mul_(2)
        return v.sin()
    tree_of_second("strided_view", strided_view_mul_, d)
    for k, f in enumerate([lambda s: s.amin(), lambda s: s.amin(0), lambda s: s.amax(-1, keepdim=True),
                           lambda s: s.amin(()), lambda s: leaf(T, 165, 2, 3).amax(1) * s]):
        s = T.tensor(-0.07, dtype=T.float64, requires_grad=True)
        g, = T.autograd.grad((s * f(s)).sum(), s, create_graph=True)
        o.all(g, f"amin_0dim{k}", 8)
    m = T.tensor([[False, True, True]])
    x = leaf(T, 166, 3, dtype="float64")
    y = x.maximum(m[0])
    m.fill_(True)
    o.err("bool_version_message", lambda: y.sum().backward())
    inf = float("inf")
    o.warns("trace_of_inf_and_minus_inf", lambda: T.tensor([[inf, 0.0], [0.0, -inf]]).trace())


@case
def f30_gradient_layout(T, F, o):
    """A leaf's first gradient is stored like the leaf (PyTorch's clone_obey_contract: the gradient of ``x.t()``
    arrives transposed, ``x.grad`` is row-major like ``x``; a column-major leaf keeps its layout; a leaf whose
    elements repeat places gets a row-major clone, CloneBackward0 under create_graph); a retained gradient is a
    row-major clone; later gradients are added into the first."""
    import warnings
    x = leaf(T, 170, 4, 3)
    (x.t() * const(T, 171, 3, 4)).sum().backward()
    o["t_grad"] = x.grad
    o.raw("t_grad.stride", list(x.grad.stride()))
    (x.t() * 2).sum().backward()
    o["t_grad_twice"] = x.grad
    o.raw("t_grad_twice.stride", list(x.grad.stride()))
    w = leaf(T, 172, 3, 4).t().detach().requires_grad_()  # column-major leaf, like nn.Linear's weight.t()
    (w * const(T, 173, 4, 3)).sum().backward()
    o.raw("column_major_leaf.stride", [list(w.stride()), list(w.grad.stride())])
    e = leaf(T, 174, 3).detach().expand(2, 3).requires_grad_()  # a leaf with stride 0
    (e.t() * const(T, 175, 3, 2)).sum().backward()
    o["expanded_leaf_grad"] = e.grad
    o.raw("expanded_leaf.stride", [list(e.stride()), list(e.grad.stride())])
    c = leaf(T, 176, 2, 3)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # (backward(create_graph=True) warns once per process: see test_engine)
        (c.t() * const(T, 177, 3, 2)).sum().backward(create_graph=True)
        e2 = leaf(T, 178, 3).detach().expand(2, 3).requires_grad_()
        (e2 * e2).sum().backward(create_graph=True)
    o.raw("create_graph.stride", [list(c.grad.stride()), list(e2.grad.stride())])
    o.fn("create_graph_copy.grad_fn", c.grad)
    o.fn("create_graph_clone.grad_fn", e2.grad)
    y = leaf(T, 179, 4, 3) * 2
    y.retain_grad()
    (y.t() * const(T, 180, 3, 4)).sum().backward()
    o["retained"] = y.grad
    o.raw("retained.stride", list(y.grad.stride()))
    z = leaf(T, 181, 4, 3) * 2
    (z.t().exp()).sum().backward(inputs=[z])
    o.raw("inputs_nonleaf.stride", list(z.grad.stride()))


@case
def f31_result_layouts(T, F, o):
    """Results laid out as PyTorch lays them out (``x.stride()``; ``make fuzz`` compares strides too): sort and
    argsort like their input; nonzero column-major; a new tensor without elements row-major (numpy's are all
    zeros); ``*_like`` keep the input's layout (preserve_format) unless told; ops of two or three tensors
    (lerp, addcmul, addcdiv, xlogy, comparisons) by PyTorch's TensorIterator; ``number ** t`` row-major;
    clones inside pad (cuts only), index_fill and the rounding of integers keep the input's layout."""
    def strides(name, t):
        o.raw(name, [list(t.shape), list(t.stride())])
    x = leaf(T, 190, 2, 3, 4).transpose(0, 2)
    for k, t in enumerate([x.sort(1).values, x.sort(dim=1, descending=True, stable=True).indices, x.argsort(0),
                           x[:, ::2].sort(-1).values, x.topk(2, 1).values]):
        strides(f"sort{k}", t)
    for k, t in enumerate([T.tensor([[1.0, 0.0], [1.0, 1.0]]).nonzero(), T.zeros(2, 3).nonzero(),
                           T.tensor(1.0).nonzero(), T.zeros(2, 0, 3), T.zeros(2, 0, 3).transpose(0, 2),
                           T.ones(3)[T.zeros(3, dtype=T.bool)], T.zeros(2, 0, 3) + 1]):
        strides(f"empty{k}", t)
    for k, t in enumerate([T.zeros_like(x), T.ones_like(x), T.full_like(x, 2.0), T.empty_like(x[:, ::2]),
                           T.zeros_like(x, memory_format=T.contiguous_format), T.zeros_like(x[None].expand(2, 4, 3, 2))]):
        strides(f"like{k}", t)
    y, w = leaf(T, 191, 4, 3, 2), leaf(T, 192, 4, 3, 2, lo=0.1, hi=0.9)
    for k, t in enumerate([x.lerp(y, w), x.lerp(y, 0.3), x.addcmul(y, w), x.addcdiv(y, w + 1, value=-2),
                           T.xlogy(x, w), x > y, x.abs() + 1 <= w, 2.0 ** x, 0.5 ** x[:, :1]]):
        strides(f"iter{k}", t)
    i = T.tensor([[1, 2], [3, 4]]).t()
    for k, t in enumerate([F.pad(x, ()), F.pad(x, (0, -1)), F.pad(x, (1, 0)), x.index_fill(1, T.tensor([0]), 2.0),
                           i.trunc(), i.floor(), i.round(), x.diff(n=0, dim=1)]):
        strides(f"copy{k}", t)


# ---------------------------------------------------------------------------------- more cases, one module per area
from . import cases_autograd_api, cases_math, cases_misc, cases_nn_act, cases_nn_more, cases_optim  # noqa: E402,F401
from . import cases_norm  # noqa: E402,F401
from . import cases_rnn  # noqa: E402,F401
from . import cases_conv  # noqa: E402,F401
from . import cases_attention  # noqa: E402,F401
from . import cases_api42  # noqa: E402,F401
from . import cases_layouts  # noqa: E402,F401
from . import cases_s10f1  # noqa: E402,F401
from . import cases_norm_gaps  # noqa: E402,F401
from . import cases_unfold  # noqa: E402,F401
from . import cases_index_reduce  # noqa: E402,F401
