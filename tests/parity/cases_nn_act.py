"""PyTorch-parity cases (see ``cases.py`` for the conventions and the input helpers).

The activations celu, mish, hardswish, hardsigmoid, softsign, tanhshrink, softshrink, hardshrink, glu,
prelu, rrelu, the in-place forms of F (relu_, elu_, celu_, selu_, leaky_relu_, hardtanh_, threshold_,
rrelu_, inplace=True) and their modules: values, gradients, nodes, dtypes, errors, second derivatives.
"""
import numpy as np  # noqa: F401

from . import case  # noqa: F401
from .cases import arr, const, fwd_bwd, leaf  # noqa: F401

# one input per op: the elementwise activations, with their options
_ACT = {
    "celu": lambda F, x: F.celu(x), "celu_alpha": lambda F, x: F.celu(x, 0.5),
    "celu_big_alpha": lambda F, x: F.celu(x, 2.5),
    "celu_alpha_04": lambda F, x: F.celu(x, 0.4),  # (backward: 1 / alpha rounded to float32, as PyTorch)
    "mish": lambda F, x: F.mish(x), "hardswish": lambda F, x: F.hardswish(x),
    "hardsigmoid": lambda F, x: F.hardsigmoid(x),
    "softsign": lambda F, x: F.softsign(x), "tanhshrink": lambda F, x: F.tanhshrink(x),
    "softshrink": lambda F, x: F.softshrink(x), "softshrink_1": lambda F, x: F.softshrink(x, 1.0),
    "hardshrink": lambda F, x: F.hardshrink(x), "hardshrink_2": lambda F, x: F.hardshrink(x, 2),
    "rrelu_eval": lambda F, x: F.rrelu(x), "rrelu_eval_bounds": lambda F, x: F.rrelu(x, 0.1, 0.6),
    "glu": lambda F, x: F.glu(x), "glu_dim0": lambda F, x: F.glu(x, 0),
    "prelu": lambda F, x: F.prelu(x, x.new_tensor([0.25])),
}
# the ones with a second derivative in PyTorch (hardsigmoid has none: see act_hardsigmoid_second)
_SECOND = [n for n in _ACT if n != "hardsigmoid"]


def _act_case(fn, dtype):
    def c(T, F, o):
        x = leaf(T, 70, 2, 4, lo=-4.0, hi=4.0, dtype=dtype)
        fwd_bwd(T, o, fn(F, x), x=x)
    return c


def _second_case(fn):
    def c(T, F, o):
        x = leaf(T, 71, 2, 4, lo=-4.0, hi=4.0)
        g, = T.autograd.grad((fn(F, x) ** 2).sum(), x, create_graph=True)
        o.all(g, "g", depth=4)
        o["gg"] = T.autograd.grad((g * g).sum(), x)[0]
    return c


for _name, _fn in _ACT.items():
    case(_act_case(_fn, "float32"), name=f"act_{_name}")
    case(_act_case(_fn, "float64"), name=f"act_{_name}_f64")
for _name in _SECOND:
    case(_second_case(_ACT[_name]), name=f"act_{_name}_second")


def _fb(T, o, y, name, depth=3, **leaves):
    """``fwd_bwd`` for several results in one case: the leaves' gradients recorded under ``name.``, then reset."""
    o.all(y, name, depth)
    y.backward(T.tensor(arr(99, *tuple(y.shape)).tolist(), dtype=y.dtype) if y.dim() else None)
    o.grads(f"{name}.", **leaves)
    for t in leaves.values():
        t.grad = None


_EDGES = [float("-inf"), -3.0, -2.5, -1.0, -0.5, -0.0, 0.0, 0.5, 1.0, 3.0, 3.5, float("inf"), float("nan")]


@case
def act_edges(T, F, o):
    """At the kinks (-3, 3, +-lambd, 0), at the infinities and at nan: values and gradients."""
    for name, fn in _ACT.items():
        if name.startswith("glu"):
            continue
        x = T.tensor(_EDGES, requires_grad=True)
        y = fn(F, x)
        y.backward(T.ones_like(y))
        o[f"{name}.y"] = y
        o[f"{name}.x.grad"] = x.grad


@case
def act_integer_inputs(T, F, o):
    """PyTorch has float kernels only, and names them in the error; softsign and tanhshrink (composites)
    promote integers; hardtanh and relu6 clamp them; threshold keeps them."""
    i = T.tensor([-4, -1, 0, 2, 5, 6])
    fns = dict(_ACT, elu=lambda F, x: F.elu(x), selu=lambda F, x: F.selu(x), silu=lambda F, x: F.silu(x),
               gelu=lambda F, x: F.gelu(x), leaky_relu=lambda F, x: F.leaky_relu(x),
               softplus=lambda F, x: F.softplus(x), logsigmoid=lambda F, x: F.logsigmoid(x),
               hardtanh=lambda F, x: F.hardtanh(x), relu6=lambda F, x: F.relu6(x),
               rrelu_train=lambda F, x: F.rrelu(x, training=True), threshold=lambda F, x: F.threshold(x, 1, 7))
    for name, fn in fns.items():
        o.val(f"int.{name}", lambda: fn(F, i))
        o.val(f"int32.{name}", lambda: fn(F, i.int()))
    for name in ("celu", "mish", "hardswish", "hardsigmoid", "softsign", "softshrink", "hardshrink", "hardtanh",
                 "relu6", "elu", "gelu", "prelu", "rrelu_eval"):
        o.val(f"bool.{name}", lambda: fns[name](F, i > 0))
    o.val("bool.threshold", lambda: F.threshold(i > 0, 0.5, 2))
    o.val("bool.threshold_", lambda: F.threshold_(i > 0, 0.5, 2))
    o.val("int.threshold_", lambda: F.threshold_(i.clone(), 0, -3))
    o.val("glu_int_even", lambda: F.glu(T.tensor([1, 2, 3, 4])))
    o.val("glu_int_odd", lambda: F.glu(T.tensor([1, 2, 3])))
    o.val("softshrink_int_negative", lambda: F.softshrink(i, -1.0))


@case
def act_errors(T, F, o):
    x = leaf(T, 72, 2, 3)
    o.err("celu_alpha_0", lambda: F.celu(x, 0.0))
    o.err("softshrink_negative", lambda: F.softshrink(x, -0.5))
    o.err("softshrink_negative_f64", lambda: F.softshrink(x.double(), -1.0))
    o.val("hardshrink_negative", lambda: F.hardshrink(x, -0.5))
    o.err("glu_odd", lambda: F.glu(x))
    o.err("glu_odd_dim0", lambda: F.glu(x.t(), 0))
    o.err("glu_negative_dim", lambda: F.glu(x, -1))
    o.err("glu_scalar", lambda: F.glu(T.tensor(1.0)))
    o.err("glu_dim_out_of_range", lambda: F.glu(x, 2))
    o.err("rrelu_bounds", lambda: F.rrelu(x, 0.5, 0.2))
    o.err("rrelu_bounds_training", lambda: F.rrelu(x, 0.5, 0.2, training=True))
    o.err("hardtanh_bounds", lambda: F.hardtanh(x, 1.0, 0.0))
    o.val("hardtanh__bounds_unchecked", lambda: F.hardtanh_(x.detach().clone(), 1.0, 0.0))
    o.err("celu_inplace_negative_alpha", lambda: F.celu(x * 1, -1.0, inplace=True).sum().backward())
    o.err("celu_inplace_leaf", lambda: F.celu(x, inplace=True))
    o.err("mish_inplace_leaf", lambda: F.mish(x, inplace=True))
    o.err("hardsigmoid_second", lambda: T.autograd.grad(
        T.autograd.grad(F.hardsigmoid(x).pow(2).sum(), x, create_graph=True)[0].sum(), x))


@case
def act_hardsigmoid_second(T, F, o):
    """PyTorch has no derivative of hardsigmoid_backward: the gradient's node is NotImplemented."""
    x = leaf(T, 73, 2, 3, lo=-4.0, hi=4.0)
    g, = T.autograd.grad(F.hardsigmoid(x).pow(2).sum(), x, create_graph=True)
    o.all(g, "g", depth=3)
    o.err("gg", lambda: T.autograd.grad(g.sum(), x))


@case
def act_celu_edges_second(T, F, o):
    """celu is elu with an input scale 1/alpha: the second derivative from the input and from the result."""
    x = T.tensor([-2.0, -0.7, -0.0, 0.0, 0.3, 1.5], requires_grad=True)
    for alpha in (0.5, 1.0, 3.0):
        g, = T.autograd.grad(F.celu(x, alpha).pow(3).sum(), x, create_graph=True)
        o.all(g, f"g{alpha}", depth=4)
        o[f"gg{alpha}"] = T.autograd.grad(g.pow(2).sum(), x)[0]
        y = F.celu(x * 2, alpha, inplace=True)
        o.all(y, f"inplace{alpha}", depth=3)
        g, = T.autograd.grad(y.pow(3).sum(), x, create_graph=True)
        o.all(g, f"inplace_g{alpha}", depth=4)
        o[f"inplace_gg{alpha}"] = T.autograd.grad(g.pow(2).sum(), x)[0]


_INPLACE = {
    "relu_": lambda F, a: F.relu_(a), "elu_": lambda F, a: F.elu_(a), "elu__alpha": lambda F, a: F.elu_(a, 0.5),
    "selu_": lambda F, a: F.selu_(a), "celu_": lambda F, a: F.celu_(a), "celu__alpha": lambda F, a: F.celu_(a, 2.0),
    "leaky_relu_": lambda F, a: F.leaky_relu_(a), "leaky_relu__slope": lambda F, a: F.leaky_relu_(a, 0.2),
    "hardtanh_": lambda F, a: F.hardtanh_(a), "hardtanh__bounds": lambda F, a: F.hardtanh_(a, -0.5, 2.0),
    "threshold_": lambda F, a: F.threshold_(a, 0.1, 20.0), "rrelu_": lambda F, a: F.rrelu_(a),
    "rrelu__bounds": lambda F, a: F.rrelu_(a, 0.2, 0.4), "rrelu_inplace": lambda F, a: F.rrelu(a, inplace=True),
    "celu_inplace": lambda F, a: F.celu(a, inplace=True), "mish_inplace": lambda F, a: F.mish(a, inplace=True),
    "hardswish_inplace": lambda F, a: F.hardswish(a, inplace=True),
    "hardsigmoid_inplace": lambda F, a: F.hardsigmoid(a, inplace=True),
}


def _inplace_case(fn):
    def c(T, F, o):
        x = leaf(T, 74, 2, 4, lo=-4.0, hi=4.0)
        a = x * 1.5
        y = fn(F, a)
        o["same"] = y is a
        o["version"] = a._version
        fwd_bwd(T, o, y, x=x)
        with T.no_grad():
            b = x.detach().clone()
            o["no_grad"] = [fn(F, b) is b, b, b._version]
    return c


def _inplace_second_case(fn):
    def c(T, F, o):
        x = leaf(T, 75, 2, 4, lo=-4.0, hi=4.0)
        g, = T.autograd.grad((fn(F, x * 1.5) ** 2).sum(), x, create_graph=True)
        o.all(g, "g", depth=4)
        o["gg"] = T.autograd.grad((g * g).sum(), x)[0]
    return c


for _name, _fn in _INPLACE.items():
    case(_inplace_case(_fn), name=f"act_inplace_{_name}")
    if "hardsigmoid" not in _name:
        case(_inplace_second_case(_fn), name=f"act_inplace_{_name}_second")


@case
def act_glu_shapes(T, F, o):
    """glu along each dim of a 3-D input (negative dims too), float64, and through a third derivative."""
    x = leaf(T, 76, 2, 4, 6)
    for dim in (0, 1, 2, -1, -2):
        y = F.glu(x, dim)
        o.all(y, f"y{dim}")
        o[f"g{dim}"] = T.autograd.grad((y * y.detach().cos()).sum(), x)[0]
    d = leaf(T, 77, 4, 2, dtype="float64")
    g, = T.autograd.grad(F.glu(d, 0).pow(2).sum(), d, create_graph=True)
    o.all(g, "f64.g", depth=4)
    gg, = T.autograd.grad(g.pow(2).sum(), d, create_graph=True)
    o.all(gg, "f64.gg", depth=3)
    o["f64.ggg"] = T.autograd.grad(gg.sum(), d)[0]
    o.all(T.nn.GLU()(x), "module")
    o.all(T.nn.GLU(1)(x), "module_dim1")


@case
def act_prelu_weights(T, F, o):
    """prelu: one slope or one per channel (dim 1), its view into (1, C, 1, ...) and the gradients of both."""
    x = leaf(T, 78, 2, 3, 4)
    w = T.tensor([0.25, -0.5, 0.1], requires_grad=True)
    _fb(T, o, F.prelu(x, w), "channels", depth=3, x=x, w=w)
    x.grad = w.grad = None
    w1 = T.tensor([0.3], requires_grad=True)
    _fb(T, o, F.prelu(x, w1), "one", depth=3, x=x, w1=w1)
    w0 = T.tensor(0.2, requires_grad=True)
    _fb(T, o, F.prelu(x[0], w0), "zero_dim_weight", depth=3, w0=w0)
    v = leaf(T, 79, 5)
    _fb(T, o, F.prelu(v, w1), "one_dim", depth=3, v=v)
    s = T.tensor(-2.0, requires_grad=True)
    _fb(T, o, F.prelu(s, w1), "zero_dim_input", depth=3, s=s)
    z = T.tensor([[-1.0, 0.0, -0.0], [2.0, float("nan"), float("-inf")]], requires_grad=True)
    _fb(T, o, F.prelu(z, w), "edges", depth=2, z=z)
    d = leaf(T, 80, 2, 3, dtype="float64")
    wd = T.tensor([0.1, 0.2, 0.3], dtype=T.float64, requires_grad=True)
    _fb(T, o, F.prelu(d, wd), "f64", depth=2, d=d, wd=wd)
    o.err("mismatch", lambda: F.prelu(x, T.ones(2)))
    o.err("dtype", lambda: F.prelu(x, wd))
    o.err("weight_2d", lambda: F.prelu(x, T.ones(3, 1)))
    o.err("zero_dim_input_channels", lambda: F.prelu(s, w))
    o.err("one_dim_channels", lambda: F.prelu(v, T.ones(5)))
    o.err("int", lambda: F.prelu(T.tensor([-2, 1]), T.tensor([2])))
    o.err("bool", lambda: F.prelu(T.tensor([True]), T.tensor([2])))


@case
def act_prelu_two_results_second(T, F, o):
    """PreluKernelBackward0's backward is one op with two results (PreluKernelBackwardBackward0)."""
    x = leaf(T, 81, 2, 3)
    w = T.tensor([0.25, -0.5, 0.1], requires_grad=True)
    gx, gw = T.autograd.grad(F.prelu(x, w).pow(2).sum(), (x, w), create_graph=True)
    o.all(gx, "gx", depth=4)
    o.all(gw, "gw", depth=4)
    o["gg"] = T.autograd.grad((gx * gx).sum() + gw.pow(3).sum(), (x, w))
    gx, = T.autograd.grad(F.prelu(x, w).pow(2).sum(), x, create_graph=True)
    o["gg_x_only"] = T.autograd.grad(gx.sum(), (x, w))


@case
def act_prelu_module(T, F, o):
    m = T.nn.PReLU()
    o.repr("repr", m)
    o["weight"] = m.weight
    o["params"] = [n for n, _ in m.named_parameters()]
    m3 = T.nn.PReLU(3, init=0.1)
    o.repr("repr3", m3)
    x = leaf(T, 82, 2, 3, 2)
    y = m3(x)
    _fb(T, o, y, "y3", depth=3, x=x, weight=m3.weight)
    o["state"] = list(m3.state_dict().keys())
    o["f64"] = T.nn.PReLU(2, dtype=T.float64).weight
    o.repr("repr0", T.nn.PReLU(0))


@case
def act_rrelu_training(T, F, o):
    """In training the slopes are random (minigrad's generator is not PyTorch's): only the shape, the node,
    the ranges, that positive entries pass unchanged and that the gradient is the slope, are compared."""
    T.manual_seed(0)  # (so that the recorded fixture is the same at every regeneration)
    x = leaf(T, 83, 4, 50, lo=-3.0, hi=3.0)
    y = F.rrelu(x, 0.1, 0.3, training=True)
    o["shape"] = y.shape
    o.fn("node", y)
    neg = x.detach() <= 0
    slope = y.detach() / x.detach()
    o["in_range"] = bool(((slope >= 0.1) & (slope <= 0.3))[neg].all())
    o["varies"] = bool(slope[neg].std() > 0.01)
    o["positive_kept"] = bool((y.detach() == x.detach())[~neg].all())
    y.sum().backward()
    o["grad_is_slope"] = bool(((x.grad - slope).abs() < 1e-6).all())
    o["grad_dtype"] = x.grad.dtype
    g, = T.autograd.grad(F.rrelu(x, 0.1, 0.3, training=True).pow(2).sum(), x, create_graph=True)
    o.fn("second_node", g)
    o.tree("second_tree", g, 3)
    y = F.rrelu(x, 0.2, 0.2 + 1e-7, training=True)  # (bounds nearer than 1e-6: leaky_relu's backward)
    o["narrow_grad"] = T.autograd.grad(y.sum(), x)[0]
    a = x * 1
    y = F.rrelu(a, training=True, inplace=True)
    o["inplace_same"] = y is a
    o.fn("inplace_node", y)
    m = T.nn.RReLU(0.1, 0.3)
    s = (m(x) / x).detach()[neg]
    o["module_training"] = [bool(((s >= 0.1) & (s <= 0.3)).all()), bool(s.std() > 0.01)]
    m.eval()
    o["module_eval"] = m(x)
    d = leaf(T, 84, 3, dtype="float64", lo=-2.0, hi=-1.0)
    o["f64_dtype"] = F.rrelu(d, training=True).dtype


@case
def act_softmin_softmax2d(T, F, o):
    x = leaf(T, 85, 2, 3, 4)
    _fb(T, o, F.softmin(x, 1), "softmin", x=x)
    o.all(F.softmin(x, -1, dtype=T.float64), "softmin_dtype", depth=4)
    o["softmin_int_dtype"] = F.softmin(T.tensor([1, 2, 3]), 0, dtype=T.float64)
    o.err("softmin_int", lambda: F.softmin(T.tensor([1, 2, 3]), 0))
    o.warns("softmin_no_dim", lambda: F.softmin(x[0]))
    o["softmin_no_dim_value"] = [F.softmin(x[0, 0]), F.softmin(x[0]), F.softmin(x)]
    o.all(T.nn.Softmin(1)(x), "Softmin")
    o.repr("Softmin_repr", [T.nn.Softmin(), T.nn.Softmin(1)])
    _fb(T, o, T.nn.Softmax2d()(x), "softmax2d", x=x)
    o.all(T.nn.Softmax2d()(x.unsqueeze(0)), "softmax2d_4d")
    o.err("softmax2d_2d", lambda: T.nn.Softmax2d()(x[0]))
    o.err("softmax2d_5d", lambda: T.nn.Softmax2d()(x.view(1, 1, 2, 3, 4)))
    o.repr("Softmax2d_repr", T.nn.Softmax2d())


_MODULES = {
    "CELU": lambda nn: nn.CELU(), "CELU_args": lambda nn: nn.CELU(0.5), "Mish": lambda nn: nn.Mish(),
    "Hardswish": lambda nn: nn.Hardswish(), "Hardsigmoid": lambda nn: nn.Hardsigmoid(),
    "Softsign": lambda nn: nn.Softsign(), "Tanhshrink": lambda nn: nn.Tanhshrink(),
    "Softshrink": lambda nn: nn.Softshrink(), "Softshrink_args": lambda nn: nn.Softshrink(1),
    "Hardshrink": lambda nn: nn.Hardshrink(), "Hardshrink_args": lambda nn: nn.Hardshrink(lambd=0.3),
    "GLU": lambda nn: nn.GLU(), "Threshold": lambda nn: nn.Threshold(0.1, 20),
    "RReLU_eval": lambda nn: nn.RReLU().eval(),
    "PReLU": lambda nn: nn.PReLU(), "Softmin": lambda nn: nn.Softmin(dim=0),
}


@case
def act_modules(T, F, o):
    """Each module gives what its function gives, and prints as PyTorch's (the constructor's arguments)."""
    for name, make in _MODULES.items():
        x = leaf(T, 86, 2, 4, lo=-4.0, hi=4.0)
        m = make(T.nn)
        _fb(T, o, m(x), name, depth=2, x=x)
        o.repr(f"{name}.repr", m)
    inplace = [T.nn.CELU(0.5, True), T.nn.Mish(True), T.nn.Hardswish(True), T.nn.Hardsigmoid(True),
               T.nn.Threshold(0.1, 20, True), T.nn.RReLU(0.1, 0.3, True), T.nn.Threshold(0.5, -1.0, inplace=True)]
    for i, m in enumerate(inplace):
        o.repr(f"inplace{i}.repr", m)
        x = leaf(T, 87, 2, 4, lo=-4.0, hi=4.0)
        a = x * 1
        m.eval()
        y = m(a)
        o[f"inplace{i}.same"] = y is a
        o.all(y, f"inplace{i}", depth=2)
    o.repr("RReLU", [T.nn.RReLU(), T.nn.RReLU(0.1, 0.3)])
    o.repr("Sequential", T.nn.Sequential(T.nn.Linear(2, 4), T.nn.PReLU(4), T.nn.Hardswish(), T.nn.GLU(),
                                         T.nn.Softshrink(0.2), T.nn.Mish(inplace=True)))
    nn = T.nn
    o["classes"] = [isinstance(nn.Softmin(), nn.Softmax), isinstance(nn.Hardsigmoid(), nn.Hardswish),
                    isinstance(nn.Hardshrink(), nn.Softshrink), isinstance(nn.Mish(), nn.SiLU),
                    isinstance(nn.CELU(), nn.ELU), isinstance(nn.RReLU(), nn.LeakyReLU)]
    o["attributes"] = [T.nn.CELU(0.5).alpha, T.nn.Softshrink(0.2).lambd, T.nn.GLU(0).dim, T.nn.Threshold(1, 2).value,
                       T.nn.RReLU().upper, T.nn.PReLU(3).num_parameters, T.nn.PReLU(init=0.1).init,
                       T.nn.Hardswish().inplace]


@case
def act_tutorial_net(T, F, o):
    """A small net as tutorials write it, trained one step with each of the new activations."""
    rng = np.random.RandomState(88)
    xs = T.tensor(rng.uniform(-2, 2, (5, 3)).round(3).tolist())
    ys = T.tensor(rng.uniform(-1, 1, (5, 1)).round(3).tolist())
    for name, act in (("mish", lambda nn: nn.Mish()), ("hardswish", lambda nn: nn.Hardswish()),
                      ("prelu", lambda nn: nn.PReLU(4, 0.2)), ("celu", lambda nn: nn.CELU(0.7)),
                      ("softsign", lambda nn: nn.Softsign())):
        lin1, lin2 = T.nn.Linear(3, 4), T.nn.Linear(4, 1)
        with T.no_grad():
            lin1.weight.copy_(T.tensor(arr(89, 4, 3, lo=-1, hi=1).tolist()))
            lin1.bias.copy_(T.tensor(arr(90, 4, lo=-1, hi=1).tolist()))
            lin2.weight.copy_(T.tensor(arr(91, 1, 4, lo=-1, hi=1).tolist()))
            lin2.bias.fill_(0.1)
        net = T.nn.Sequential(lin1, act(T.nn), lin2)
        loss = F.mse_loss(net(xs), ys)
        loss.backward()
        o[f"{name}.loss"] = loss
        o[f"{name}.grads"] = [p.grad for p in net.parameters()]


@case
def act_layouts(T, F, o):
    """Results and gradients laid out as PyTorch's (``.stride()``) for a transposed and a sliced input: most
    follow the input, rrelu writes a new row-major result, glu's backward a row-major gradient."""
    fns = dict(_ACT, glu=lambda F, x: F.glu(x, 0), glu_dim0=lambda F, x: F.glu(x, 1),
               rrelu_train=lambda F, x: F.rrelu(x, training=True))
    for name, fn in fns.items():
        x = leaf(T, 92, 4, 8, lo=-4.0, hi=4.0)
        for kind, xin in (("t", x.t()), ("slice", x[:, ::2])):
            y = fn(F, xin)
            g, = T.autograd.grad(y, xin, T.ones_like(y))
            o[f"{name}.{kind}"] = [list(y.stride()), list(g.stride())]


@case
def act_saved(T, F, o):
    """``grad_fn._saved_*``: what each node keeps (the input, alpha, lambd, the viewed prelu weight, the result)."""
    x = leaf(T, 93, 2, 4)
    o["celu"] = [F.celu(x, 0.5).grad_fn._saved_self, F.celu(x, 0.5).grad_fn._saved_alpha]
    o["mish"] = F.mish(x).grad_fn._saved_self
    o["hardswish"] = F.hardswish(x).grad_fn._saved_self
    o["hardsigmoid"] = F.hardsigmoid(x).grad_fn._saved_self
    o["softshrink"] = [F.softshrink(x, 0.3).grad_fn._saved_self, F.softshrink(x, 0.3).grad_fn._saved_lambd]
    o["hardshrink"] = [F.hardshrink(x, 0.3).grad_fn._saved_self, F.hardshrink(x, 0.3).grad_fn._saved_lambd]
    o["glu"] = F.glu(x).grad_fn._saved_self
    node = F.prelu(x, T.tensor([0.1, 0.2], requires_grad=True).repeat(2)).grad_fn
    o["prelu"] = [node._saved_self, node._saved_weight]
    y = F.celu(x * 1, 2.0, inplace=True)
    o["celu_inplace"] = [y.grad_fn._saved_result, y.grad_fn._saved_alpha]


@case
def act_zero_dim_and_empty(T, F, o):
    """A 0-dim input keeps its 0 dims (rrelu too), an empty one its shape and layout."""
    fns = dict(_ACT, rrelu_train=lambda F, x: F.rrelu(x, training=True).detach() * 0 + 1)
    for name, fn in fns.items():
        inputs = [T.zeros(0, 4, requires_grad=True), T.zeros(4, 0, requires_grad=True)]
        if not name.startswith("glu"):
            inputs.append(T.tensor(-1.5, requires_grad=True))
        for i, x in enumerate(inputs):
            y = fn(F, x)
            o[f"{name}.{i}"] = [y, list(y.stride())]
            if y.requires_grad:
                o[f"{name}.{i}.grad"] = T.autograd.grad(y.sum(), x)[0]


@case
def act_torch_level_functions(T, F, o):
    """The activations PyTorch also has as ``torch.xxx`` and as tensor methods."""
    x = leaf(T, 50, 2, 3)
    w = leaf(T, 51, 3, lo=0.1, hi=0.5)
    o.all(T.celu(x, 0.5), "celu")
    o.all(T.hardshrink(x, 1.0), "hardshrink")
    o.all(x.hardshrink(), "hardshrink_method")
    o.all(T.prelu(x, w), "prelu")
    o.all(x.prelu(w), "prelu_method")
    o.all(T.rrelu(x), "rrelu_eval")
    o.all(T.threshold(x, 0.5, -1.0), "threshold")
    for name, fn in [("celu_", lambda t: T.celu_(t)), ("selu_", lambda t: T.selu_(t)),
                     ("threshold_", lambda t: T.threshold_(t, 0.5, -1.0)), ("rrelu_", lambda t: T.rrelu_(t))]:
        y = x.detach() * 1
        r = fn(y)
        o.raw(f"{name}.same", r is y)
        o[name] = y


@case
def act_logsigmoid_second_order(T, F, o):
    """logsigmoid's gradient is its own op (LogSigmoidBackwardBackward0 under create_graph), as PyTorch's."""
    for dtype in ["float32", "float64"]:
        x = leaf(T, 60, 4, lo=-30.0, hi=30.0, dtype=dtype)
        y = F.logsigmoid(x)
        o.all(y, f"{dtype}.y")
        g, = T.autograd.grad(y, x, T.tensor(arr(61, 4).tolist(), dtype=x.dtype), create_graph=True)
        o.all(g, f"{dtype}.g", depth=4)
        g.backward(T.tensor(arr(62, 4).tolist(), dtype=x.dtype))
        o.grads(f"{dtype}.", x=x)
