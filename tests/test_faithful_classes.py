"""Issue 18's classes of disagreement with PyTorch 2.13, each tested as a class (not one example).

- no numpy RuntimeWarning from any op of the differential tester's table, forward or backward,
  on inputs with inf, -inf, nan, 0 and numbers whose square overflows (PyTorch warns nothing);
"""
import random
import warnings

import pytest

import minigrad
from difftest.ops_table import OPS
from recorded_programs import INF, NAN, run_program, same

_EDGE_INPUTS = ([[INF, 0.0], [-INF, NAN]], [[0.0, 0.0], [1e30, -1e30]], [[INF, 0.0], [1.0, 3.0]])


def _edge_operands(op, values):
    a = minigrad.tensor(values, requires_grad=True)
    if op.kind == "inplace":
        a = a * 1
    b = minigrad.tensor([[0.0, INF], [0.0, -1.0]], requires_grad=True)
    if op.pair == "target":
        b = minigrad.tensor([0, 1])
    elif op.pair == "dot":
        a, b = minigrad.tensor([INF, 0.0], requires_grad=True), minigrad.tensor([0.0, 1.0], requires_grad=True)
    elif op.pair == "mv":
        b = minigrad.tensor([0.0, INF], requires_grad=True)
    elif op.pair == "bmm":
        a, b = a[None], b[None]
    return a, b


@pytest.mark.parametrize("op", OPS, ids=[op.name for op in OPS])
def test_no_runtime_warning_at_inf_nan_zero(op):
    for trial, values in enumerate(_EDGE_INPUTS * 4):
        a, b = _edge_operands(op, values)
        fields = op.args(random.Random(trial), minigrad.tensor(values)) if op.args else {}
        fields = {k: v.format(a="a") if isinstance(v, str) else v for k, v in fields.items()}
        source = op.code.format(a="a", b="b", **fields)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                names = {"T": minigrad, "F": minigrad.nn.functional, "a": a, "b": b, "inf": INF, "nan": NAN}
                try:
                    out = eval(compile(source, "<op>", "eval"), names)
                except SyntaxError:  # a statement (x[key] = value): then a itself is the result
                    exec(source, names)
                    out = a
                out = out[0] if isinstance(out, tuple) else out
                if isinstance(out, minigrad.Tensor) and out.requires_grad:
                    g, = minigrad.autograd.grad(out.sum(), [a], allow_unused=True, create_graph=True)
                    if g is not None and g.requires_grad:
                        minigrad.autograd.grad(g.sum(), [a], allow_unused=True)
            except (RuntimeError, TypeError, ValueError, IndexError, NotImplementedError):
                pass  # (an error PyTorch raises too is the tester's business; here: warnings only)
        leaked = [str(w.message) for w in caught if issubclass(w.category, RuntimeWarning)]
        assert not leaked, f"{source} at {values}: {leaked}"


# ---- classes found by `make fuzz` (each program: what torch 2.13 printed, and the same run live) -------------
_PROGRAMS = {
    # retain_grad() then an in-place op: .grad is the gradient of the new value (the request follows the tensor)
    "retain_grad_follows_inplace": ("""
x = T.tensor([1., 2.], requires_grad=True)
y = x * 2
y.retain_grad()
y.mul_(3)
(y * 5).sum().backward()
h = x * 1
v = h[0:1]
v.retain_grad()
h.mul_(2)
(v * 7).sum().backward()
out = [y.grad, v.grad, type(v.grad_fn).__name__]
""", [[5.0, 5.0], [7.0], "AsStridedBackward0"]),
    "retain_grad_follows_scatter_": ("""
x = T.tensor([[0.5, 1.0], [2.0, 3.0]], requires_grad=True)
y = x.sin()
y.retain_grad()
y.scatter_(0, T.zeros_like(y, dtype=T.int64), 1.5)
y.sum().backward()
out = [y.grad, x.grad]
""", [[[1.0, 1.0], [1.0, 1.0]], [[0.0, 0.0], [-0.416146844625473, -0.9899924993515015]]]),
    # pow: the gradient of the base is 0 where the exponent is 0, of the exponent 0 where base == 0 and exponent >= 0
    "pow_at_zero": ("""
x = T.tensor([0.0, 2.0, -1.0], requires_grad=True)
e = T.tensor([0.0, 0.0, 2.0], requires_grad=True)
gx, ge = T.autograd.grad((x ** e).sum(), [x, e])
z = T.tensor([inf, 1.0], requires_grad=True)
(z ** 0).backward(T.tensor([inf, nan]))
out = [gx, ge, z.grad]
""", [[0.0, 0.0, -2.0], [0.0, 0.6931471824645996, NAN], [0.0, 0.0]]),
    # zero_, fill_ and copy_ give the overwritten values a gradient of zeros (not grad * 0, nan for inf)
    "overwritten_values_get_zeros": ("""
x = T.tensor([1., 2.], requires_grad=True)
out = []
for f in ["zero_()", "fill_(3.)", "copy_(T.tensor([5., 6.]))", "fill_(T.tensor(2.))"]:
    y = eval("(x * 1)." + f)
    g, = T.autograd.grad((y * T.tensor([inf, 1.])).sum(), [x])
    out.append(g)
""", [[0.0, 0.0]] * 4),
    # lerp with a number weight saves no tensor: backward runs twice; with a tensor weight it saves them
    "lerp_saves_what_it_needs": ("""
a = T.tensor([1., 2.], requires_grad=True)
e = T.tensor([3., 5.], requires_grad=True)
y = a.lerp(e, 0.3)
y.sum().backward()
y.sum().backward()
z = a.lerp(e, T.tensor([0.5, 0.5]))
z.sum().backward()
try:
    z.sum().backward()
    second = "ran"
except RuntimeError as err:
    second = str(err)[:47]
out = [a.grad, e.grad, second]
""", [[1.9, 1.9], [1.1, 1.1], "Trying to backward through the graph a second time"[:47]]),
    # unbind's pieces are views, 0-dim ones too: they see a later in-place change of the base
    "unbind_pieces_are_views": ("""
x = T.tensor([1.97, 1.0, 0.08])
first = x.unbind(0)[0]
col = T.tensor([[1., 2.], [3., 4.]]).unbind(1)[1]
x.fill_(1.0)
out = [first, first._version, col]
""", [1.0, 1, [2.0, 4.0]]),
    # a view of a tensor that gets a history by an in-place op requires grad from then on
    "views_of_a_base_that_got_a_history": ("""
w = T.tensor(-1.29, requires_grad=True)
b = T.zeros(2, 1, 3)
v, row = b.mT, b[0]
b[[[0], [0]]] = w
v.sum().backward()
c = T.zeros(3)
part = c[1:]
c.add_(T.tensor([1., 2., 3.], requires_grad=True))
out = [w.grad, row.requires_grad, type(v.grad_fn).__name__, part.requires_grad, type(part.grad_fn).__name__]
""", [3.0, True, "AsStridedBackward0", True, "AsStridedBackward0"]),
    # div with rounding_mode: values, a zero gradient for the tensor (a graph of DivBackward0), torch.div and div_ alike
    "div_rounding_mode": ("""
def err(f):
    try:
        f()
        return "ran"
    except (RuntimeError, TypeError, ValueError) as e:
        return type(e).__name__ + ": " + str(e)[:60]
a = T.tensor([7., -7., 5.5], requires_grad=True)
b = T.tensor([2., 2., -2.], requires_grad=True)
f = a.div(b, rounding_mode="floor")
t = T.div(a, b, rounding_mode="trunc")
n = a.divide(b, rounding_mode=None)
(f + t + n).sum().backward(retain_graph=True)
c = T.tensor([7, -7])
c.div_(2, rounding_mode="floor")
out = [f, t, n, a.grad, b.grad, type(f.grad_fn).__name__, c, c.dtype == T.int64,
       err(lambda: a.div(b, rounding_mode="round")),
       err(lambda: f.sum().backward()),
       err(lambda: T.tensor([1, 2]).div_(2))]
""", [[3.0, -4.0, -3.0], [3.0, -3.0, -2.0], [3.5, -3.5, -2.75], [0.5, 0.5, -0.5], [-1.75, 1.75, -1.375], 'DivBackward2', [3, -4], True, "RuntimeError: div expected rounding_mode to be one of None, 'trunc', or 'f", 'ran', "RuntimeError: result type Float can't be cast to the desired output type L"]),
    # a[idx] = value checks the dtypes as index_put does; a numpy array is no value
    "setitem_dtypes": ("""
import numpy
def err(f):
    try:
        f()
        return "ran"
    except (RuntimeError, TypeError, ValueError, IndexError) as e:
        return type(e).__name__ + ": " + str(e)
x = T.zeros(3)
def put(key, value):
    x[key] = value
out = [err(lambda: put(T.tensor([0, 1]), T.tensor([1, 2]))),
       err(lambda: put(T.tensor([True, False, True]), T.tensor([1.5, 2.5], dtype=T.float64))),
       err(lambda: put(T.tensor([True, False, True]), T.tensor(2, dtype=T.int64))),
       err(lambda: put(0, T.tensor(4, dtype=T.int64))),
       err(lambda: put(T.tensor([2]), 7)),
       err(lambda: put(slice(0, 2), numpy.ones(2))),
       x]
""", ['RuntimeError: Index put requires the source and destination dtypes match, got Float for the destination and Long for the source.', 'RuntimeError: Index put requires the source and destination dtypes match, got Float for the destination and Double for the source.', 'ran', 'ran', 'ran', "TypeError: can't assign a numpy.ndarray to a minigrad.FloatTensor", [4.0, 0.0, 7.0]]),
    # index_put(_) with accumulate: repeated positions add up; the node is IndexPutBackward0
    "index_put_accumulate": ("""
x = T.zeros(4, requires_grad=True)
v = T.tensor([1., 2., 3.], requires_grad=True)
i = T.tensor([0, 2, 0])
y = x.index_put((i,), v, accumulate=True)
z = T.index_put(x, (i,), v)
(y * T.tensor([1., 2., 3., 4.])).sum().backward()
w = T.ones(4)
w.index_put_((i,), T.tensor(5.), accumulate=True)
out = [y, z, x.grad, v.grad, type(y.grad_fn).__name__, w]
""", [[4.0, 0.0, 2.0, 0.0], [3.0, 0.0, 2.0, 0.0], [1.0, 2.0, 3.0, 4.0], [1.0, 3.0, 1.0], 'IndexPutBackward0', [11.0, 1.0, 6.0, 1.0]]),
    # the pieces of split/unbind/chunk are views that refuse an in-place op while recording
    "multi_output_views": ("""
def err(f):
    try:
        f()
        return "ran"
    except RuntimeError as e:
        return str(e)[:150]
x = T.tensor([[1., 2.], [3., 4.]], requires_grad=True)
h = x * 1
first, second = h.unbind(0)
a, b = h.split(1)
c, d = h.chunk(2, 1)
out = [err(lambda: first.mul_(2)), err(lambda: a.add_(1)), err(lambda: c.zero_())]
with T.no_grad():
    first.mul_(2)
out.append(h)
out.append(err(lambda: second.grad_fn))
""", ['Output 0 of Unbind is a view and is being modified inplace. This view is the output of a function that returns multiple views. Such functions do not a', 'Output 0 of Split is a view and is being modified inplace. This view is the output of a function that returns multiple views. Such functions do not al', 'Output 0 of Split is a view and is being modified inplace. This view is the output of a function that returns multiple views. Such functions do not al', [[2.0, 4.0], [3.0, 4.0]], 'Output 1 of Unbind is a view and its base or another view of its base has been modified inplace. This view is the output of a function that returns mu']),
    # an in-place op checks its operand's overlap before its shape, and only between dense tensors
    "inplace_overlap_before_shape": ("""
def err(f):
    try:
        f()
        return "ran"
    except RuntimeError as e:
        return str(e)[:40]
s = T.tensor(0.5)
v = T.ones(1, 2)
r = T.arange(6.)
out = [err(lambda: s.copy_(s.flatten(-1, -1))), err(lambda: v.add_(v.expand(3, 2))),
       err(lambda: r[:3].add_(r[1:4])), err(lambda: r[::2].add_(r[1::2])), err(lambda: r[:3].mul_(r[:4]))]
""", ['unsupported operation: some elements of ', "output with shape [1, 2] doesn't match t", 'unsupported operation: some elements of ', 'ran', 'unsupported operation: some elements of ']),
    # a second backward raises where a node's saved tensor is gone, after the hooks before it ran (AsStrided's
    # positions are no saved tensor): retain_grad on the base of an in-place view still accumulates
    "second_backward_runs_hooks_before_the_freed_node": ("""
x = T.tensor([[1., 2.], [3., 4.]], requires_grad=True)
b = x.triu()
v = b.swapdims(0, 1)
v.mul_(3)
b.retain_grad()
v.sum().backward()
try:
    v.sum().backward()
    second = "ran"
except RuntimeError as e:
    second = str(e)[:50]
out = [b.grad, x.grad, second]
""", [[[2.0, 2.0], [2.0, 2.0]], [[3.0, 3.0], [0.0, 3.0]], 'Trying to backward through the graph a second time']),
    # the reshape at the end of a batched matmul (and of a copy) is no view: an in-place op records its own node
    "unsafe_view_is_not_a_view": ("""
a = T.tensor([[[1.], [2.]], [[3.], [4.]]], requires_grad=True)
w = T.tensor([[0.5], [2.0]], requires_grad=True)
y = T.nn.functional.linear(a, w)
base_is_none = y._base is None
y.div_(2.0)
z = (a * 1).transpose(0, 1).reshape(-1)
z.mul_(2)
z.sum().backward()
out = [base_is_none, type(y.grad_fn).__name__, [type(f[0]).__name__ for f in y.grad_fn.next_functions if f[0]],
       z._base is None, type(z.grad_fn).__name__, a.grad]
""", [True, 'DivBackward0', ['UnsafeViewBackward0'], True, 'MulBackward0', [[[2.0], [2.0]], [[2.0], [2.0]]]]),
    # a gradient summed to a 0-dim input is a plain sum (SumBackward0), to a smaller one sum(dims) (+ a view
    # only where dims were dropped), as PyTorch's sum_to records it under create_graph
    "sum_to_graphs": ("""
x = T.tensor([[1., 2., 3.], [4., 5., 6.]], requires_grad=True)
s = T.tensor(2., requires_grad=True)
r = T.tensor([[1.], [2.]], requires_grad=True)
c = T.tensor([1., 2., 3.], requires_grad=True)
gs, gr, gc = T.autograd.grad((x * s * r * c).sum(), [s, r, c], create_graph=True)
def chain(g):
    names, node = [], g.grad_fn
    while node is not None and len(names) < 3:
        names.append(type(node).__name__)
        node = node.next_functions[0][0] if node.next_functions else None
    return names
out = [gs, gr, gc, chain(gs), chain(gr), chain(gc)]
""", [78.0, [[28.0], [64.0]], [18.0, 24.0, 30.0], ['SumBackward0', 'MulBackward0', 'MulBackward0'], ['SumBackward1', 'MulBackward0', 'MulBackward0'], ['ViewBackward0', 'SumBackward1', 'MulBackward0']]),
    # amax/amin of an empty tensor: fine over a dim that is not empty, PyTorch's errors otherwise
    "amax_of_empty": ("""
def err(f):
    try:
        return list(f().shape)
    except (RuntimeError, IndexError, ValueError) as e:
        return type(e).__name__ + ": " + str(e)
e = T.zeros(0, 2)
out = [err(lambda: e.amax(-1)), err(lambda: e.amin(1, keepdim=True)), err(lambda: e.amax(0)),
       err(lambda: e.amax()), err(lambda: e.amin((0, 1))), err(lambda: T.ones(2, 3).amax((1, -1)))]
""", [[0], [0, 1], 'IndexError: amax(): Expected reduction dim 0 to have non-zero size.', "RuntimeError: amax(): Expected reduction dim to be specified for input.numel() == 0. Specify the reduction dim with the 'dim' argument.", 'IndexError: amin(): Expected reduction dim 0 to have non-zero size.', 'RuntimeError: dim 1 appears multiple times in the list of dims']),
    # the backward of indexing is named after the op it undoes (select_backward, slice_backward, index_put on
    # zeros, index_add, put_, masked_scatter), with PyTorch's edges; second derivatives through them
    "index_backward_nodes": ("""
x = T.tensor([[1., 2., 3., 4.], [5., 6., 7., 8.], [9., 10., 11., 12.]], requires_grad=True)
out = []
for y in [x[1], x[:, 1:3], x[[0, 2, 0]], x[x > 4], x.index_select(0, T.tensor([0, 2, 2])),
          x.take(T.tensor([[0, 2], [-1, 0]])), x.masked_select(x > 4), x.diagonal()]:
    g, = T.autograd.grad((y * y).sum(), x, create_graph=True)
    gg, = T.autograd.grad((g * g).sum(), x)
    out += [type(g.grad_fn).__name__, [type(f[0]).__name__ if f[0] else None for f in g.grad_fn.next_functions], gg]
""", ['SelectBackwardBackward0', ['AddBackward0'], [[0.0, 0.0, 0.0, 0.0], [40.0, 48.0, 56.0, 64.0], [0.0, 0.0, 0.0, 0.0]], 'SliceBackwardBackward0', ['AddBackward0'], [[0.0, 16.0, 24.0, 0.0], [0.0, 48.0, 56.0, 0.0], [0.0, 80.0, 88.0, 0.0]], 'IndexPutImplBackward0', [None, 'AddBackward0'], [[32.0, 64.0, 96.0, 128.0], [0.0, 0.0, 0.0, 0.0], [72.0, 80.0, 88.0, 96.0]], 'IndexPutImplBackward0', [None, 'AddBackward0'], [[0.0, 0.0, 0.0, 0.0], [40.0, 48.0, 56.0, 64.0], [72.0, 80.0, 88.0, 96.0]], 'IndexAddBackward0', [None, 'AddBackward0'], [[8.0, 16.0, 24.0, 32.0], [0.0, 0.0, 0.0, 0.0], [288.0, 320.0, 352.0, 384.0]], 'PutBackward0', [None, 'AddBackward0'], [[32.0, 0.0, 24.0, 0.0], [0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 96.0]], 'MaskedScatterBackward0', [None, 'AddBackward0'], [[0.0, 0.0, 0.0, 0.0], [40.0, 48.0, 56.0, 64.0], [72.0, 80.0, 88.0, 96.0]], 'DiagonalBackwardBackward0', ['AddBackward0'], [[8.0, 0.0, 0.0, 0.0], [0.0, 48.0, 0.0, 0.0], [0.0, 0.0, 88.0, 0.0]]]),
    # x[0] = v records CopySlices, which drops what it wraps after backward: a second backward raises
    "copy_slices_second_backward": ("""
def err(f):
    try:
        f()
        return "ran"
    except RuntimeError as e:
        return str(e)[:50]
x = T.tensor([-0.45, 2.0], requires_grad=True)
y = x.clone()
y[0] = -1.0
z = x * 1
z[1:].mul_(3)
out = [err(lambda: y.sum().backward()), err(lambda: y.sum().backward()),
       err(lambda: z.sum().backward()), err(lambda: z.sum().backward()), x.grad]
""", ['ran', 'Trying to backward through the graph a second time', 'ran', 'Trying to backward through the graph a second time', [1.0, 4.0]]),
    # hooks and retain_grad run in the backward's grad mode: a second-order backward leaves a plain .grad
    "retain_grad_in_the_tasks_grad_mode": ("""
x = T.tensor([-0.8, 1.5], requires_grad=True)
y = x.clone()
y.retain_grad()
z = (y ** 3).sum()
g, = T.autograd.grad(z, [x], create_graph=True)
first = y.grad.requires_grad
g.sum().backward()
out = [first, y.grad, y.grad.requires_grad, x.grad]
""", [True, [-2.880000114440918, 15.75], False, [-4.800000190734863, 9.0]]),
    # take saves its input (an in-place change before backward is refused); cumprod of one element passes the
    # gradient as it is (no graph behind it)
    "take_saves_self_cumprod_of_one": ("""
x = T.tensor([[1., 2.], [3., 4.]], requires_grad=True)
y = x.clone()
t = y.take(T.tensor([0, -1]))
y.floor_()
try:
    t.sum().backward()
    msg = "ran"
except RuntimeError as e:
    msg = str(e)[:60]
w = T.tensor([1.58], dtype=T.float64, requires_grad=True)
g, = T.autograd.grad((3 + w).cumprod(-1).sum(), w, create_graph=True)
out = [msg, g, g.requires_grad, g.grad_fn is None]
""", ['one of the variables needed for gradient computation has bee', [1.0], False, True]),
    # an index out of range names its place in the key as the "dimension", Ellipsis and None counted
    "index_error_names_the_place_in_the_key": ("""
def err(shape, key):
    try:
        T.zeros(*shape)[key]
        return "ran"
    except IndexError as e:
        return str(e)
out = [err((0,), (Ellipsis, 0)), err((2, 3), (Ellipsis, 1, 5)), err((2, 3, 4), (Ellipsis, 9)),
       err((3,), (None, 7)), err((2, 3), (0, None, 5)), err((2, 3, 4), (0, Ellipsis, 9))]
""", ['index 0 is out of bounds for dimension 1 with size 0', 'index 5 is out of bounds for dimension 2 with size 3', 'index 9 is out of bounds for dimension 1 with size 4', 'index 7 is out of bounds for dimension 1 with size 3', 'index 5 is out of bounds for dimension 2 with size 3', 'index 9 is out of bounds for dimension 2 with size 4']),
    # elu saves its input (a later in-place change of its output is fine), elu/silu with inplace=True work in place
    # (EluBackward1 saves the result); elu, softplus and gelu backward are one node each under create_graph
    "elu_softplus_gelu_backward_nodes": ("""
F = T.nn.functional
x = T.tensor([1.69, -1.88, -0.24, 0.0], requires_grad=True)
y = F.elu(x)
y.mul_(-1)
y.sum().backward()
out = [x.grad]
h = x * 1
z = F.elu(h, alpha=0.5, inplace=True)
out += [z is h, type(z.grad_fn).__name__, z._version]
s = x * 1
out += [F.silu(s, inplace=True) is s, type(s.grad_fn).__name__]
for f in [lambda v: F.elu(v, alpha=0.7), lambda v: F.softplus(v, beta=2.0), F.gelu, lambda v: F.gelu(v, approximate="tanh"),
          lambda v: F.elu(v * 1, alpha=0.5, inplace=True)]:
    g, = T.autograd.grad(f(x).sum(), x, create_graph=True)
    gg, = T.autograd.grad((g * g).sum(), x)
    out += [type(g.grad_fn).__name__, g, gg]
""", [[-1.0, -0.15259011089801788, -0.7866278886795044, -1.0], True, 'EluBackward1', 1, True, 'SiluBackward0', 'EluBackwardBackward0', [1.0, 0.10681307315826416, 0.5506395101547241, 0.699999988079071], [0.0, 0.0228180643171072, 0.6064077615737915, 0.0], 'SoftplusBackwardBackward0', [0.9670736193656921, 0.022753944620490074, 0.38225212693214417, 0.5], [0.12317535281181335, 0.00202384521253407, 0.36105307936668396, 0.5], 'GeluBackwardBackward0', [1.1161459684371948, -0.09805595874786377, 0.3121371269226074, 0.5], [-0.18280638754367828, 0.02050536312162876, 0.4700201749801636, 0.7978845834732056], 'GeluBackwardBackward0', [1.1167268753051758, -0.09886971116065979, 0.31215423345565796, 0.5], [-0.1793261021375656, 0.020521510392427444, 0.46991774439811707, 0.7978845834732056], 'MulBackward0', [1.0, 0.07629504799842834, 0.3933139443397522, 0.5], [0.0, 0.011641868390142918, 0.30939170718193054, 0.0]]),

    # writes into an expanded tensor (rows that share memory): fill_/zero_ and a row that has places of its own
    # write through; index_put_/masked_fill_ warn and write; copy_, add_, a shared column, out= refuse
    "expanded_writes_no_grad": ("""
import warnings
out = []
for src in ["e.fill_(2.)", "e.zero_()", "e[0] = 4.", "e[1].add_(1.)", "e[0, 1] = 4.", "e[1, [1, 2]] = 5.",
            "e.masked_fill_(e > 1, 7.)", "e[e > 1] = 4.", "e[T.tensor([0, 1])] = 4.",
            "e.index_put_((T.tensor([0, 1]),), T.tensor(9.), accumulate=True)", "e[:, [1, 2]] = 5.",
            "e.t()[1].fill_(3.)", "e[:, 0] = 4.", "e.add_(1.)", "e.copy_(T.ones(3, 4))", "e[:] = 3.", "e[1:] = 4.",
            "e[..., 0] = 1.", "e.t()[1] = 3.", "T.add(T.ones(3, 4), 1, out=e)"]:
    x = T.arange(4.)
    e = x.expand(3, 4)
    try:
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            exec(src, {"T": T, "e": e})
        out += [x, [str(m.message).split(" Please")[0] for m in w]]
    except RuntimeError as err:
        out += [str(err)]
""", [[2.0, 2.0, 2.0, 2.0], [], [0.0, 0.0, 0.0, 0.0], [], [4.0, 4.0, 4.0, 4.0], [], [1.0, 2.0, 3.0, 4.0], [], [0.0, 4.0, 2.0, 3.0], [], [0.0, 5.0, 5.0, 3.0], [], [0.0, 1.0, 7.0, 7.0], ['Use of masked_fill_ on expanded tensors is deprecated.'], [0.0, 1.0, 4.0, 4.0], ['Use of index_put_ on expanded tensors is deprecated.', 'Use of masked_fill_ on expanded tensors is deprecated.'], [4.0, 4.0, 4.0, 4.0], ['Use of index_put_ on expanded tensors is deprecated.'], [18.0, 19.0, 20.0, 21.0], ['Use of index_put_ on expanded tensors is deprecated.'], [0.0, 5.0, 5.0, 3.0], ['Use of index_put_ on expanded tensors is deprecated.'], [0.0, 3.0, 2.0, 3.0], [], 'unsupported operation: more than one element of the written-to tensor refers to a single memory location. Please clone() the tensor before performing the operation.', 'unsupported operation: more than one element of the written-to tensor refers to a single memory location. Please clone() the tensor before performing the operation.', 'unsupported operation: more than one element of the written-to tensor refers to a single memory location. Please clone() the tensor before performing the operation.', 'unsupported operation: more than one element of the written-to tensor refers to a single memory location. Please clone() the tensor before performing the operation.', 'unsupported operation: more than one element of the written-to tensor refers to a single memory location. Please clone() the tensor before performing the operation.', 'unsupported operation: more than one element of the written-to tensor refers to a single memory location. Please clone() the tensor before performing the operation.', 'unsupported operation: more than one element of the written-to tensor refers to a single memory location. Please clone() the tensor before performing the operation.', 'unsupported operation: more than one element of the written-to tensor refers to a single memory location. Please clone() the tensor before performing the operation.']),
    # the same with a history: writing into a row (a view of its own) records CopySlices on the base with that
    # row's geometry; writing into the expanded tensor itself refuses, as PyTorch's CopySlices would
    "expanded_writes_recorded": ("""
out = []
for src in ["e[0] = 4.", "e[0, 1] = 4.", "e[1] += 1", "e[0:1] = 4.", "e[1, [1, 2]] = 5.", "e[0].add_(1.)", "e[0].fill_(1.)",
            "e.fill_(2.)", "e.masked_fill_(e > 1, 7.)", "e[:, [1, 2]] = 5.", "e[1:] = 4.",
            "e.index_put_((T.tensor([1]),), T.tensor(9.))"]:
    x0 = T.arange(4., requires_grad=True)
    x = x0 * 1
    e = x.expand(3, 4)
    try:
        exec(src, {"T": T, "e": e})
        (e * T.arange(12.).reshape(3, 4)).sum().backward()
        out += [x, x0.grad, type(x.grad_fn).__name__, type(e.grad_fn).__name__]
    except RuntimeError as err:
        out += [str(err)]
""", [[4.0, 4.0, 4.0, 4.0], [0.0, 0.0, 0.0, 0.0], 'CopySlices', 'AsStridedBackward0', [0.0, 4.0, 2.0, 3.0], [12.0, 0.0, 18.0, 21.0], 'CopySlices', 'AsStridedBackward0', [1.0, 2.0, 3.0, 4.0], [12.0, 15.0, 18.0, 21.0], 'CopySlices', 'AsStridedBackward0', [4.0, 4.0, 4.0, 4.0], [0.0, 0.0, 0.0, 0.0], 'CopySlices', 'AsStridedBackward0', [0.0, 5.0, 5.0, 3.0], [12.0, 0.0, 0.0, 21.0], 'CopySlices', 'AsStridedBackward0', [1.0, 2.0, 3.0, 4.0], [12.0, 15.0, 18.0, 21.0], 'CopySlices', 'AsStridedBackward0', [1.0, 1.0, 1.0, 1.0], [0.0, 0.0, 0.0, 0.0], 'CopySlices', 'AsStridedBackward0', 'unsupported operation: more than one element of the written-to tensor refers to a single memory location. Please clone() the tensor before performing the operation.', 'unsupported operation: more than one element of the written-to tensor refers to a single memory location. Please clone() the tensor before performing the operation.', 'unsupported operation: more than one element of the written-to tensor refers to a single memory location. Please clone() the tensor before performing the operation.', 'unsupported operation: more than one element of the written-to tensor refers to a single memory location. Please clone() the tensor before performing the operation.', 'unsupported operation: more than one element of the written-to tensor refers to a single memory location. Please clone() the tensor before performing the operation.']),

    # a True or False in an index adds a dim (like None) that PyTorch indexes with [0] or []: it takes no dim of x
    "bool_in_key": ("""
x = T.arange(24.).reshape(2, 3, 4).requires_grad_()
out = []
for k in ["x[True, 0]", "x[None, True, 1]", "x[True, 0, 1]", "x[0, 1, True]", "x[True, [0, 1]]", "x[[0, 1], True, [1, 2]]",
          "x[1, False, 2]", "x[T.tensor(True), 0]", "x[:, True, 1:, [0]]", "x[True, ..., True]", "x[0, 1, 2, True, True]"]:
    r = eval(k)
    r.sum().backward()
    out += [list(r.shape), r, type(r.grad_fn).__name__, x.grad]
    x.grad = None
try:
    x[0, 1, 2, 3, True]
except IndexError as err:
    out += [str(err)]
""", [[1, 3, 4], [[[0.0, 1.0, 2.0, 3.0], [4.0, 5.0, 6.0, 7.0], [8.0, 9.0, 10.0, 11.0]]], 'IndexBackward0', [[[1.0, 1.0, 1.0, 1.0], [1.0, 1.0, 1.0, 1.0], [1.0, 1.0, 1.0, 1.0]], [[0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0]]], [1, 1, 3, 4], [[[[12.0, 13.0, 14.0, 15.0], [16.0, 17.0, 18.0, 19.0], [20.0, 21.0, 22.0, 23.0]]]], 'IndexBackward0', [[[0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0]], [[1.0, 1.0, 1.0, 1.0], [1.0, 1.0, 1.0, 1.0], [1.0, 1.0, 1.0, 1.0]]], [1, 4], [[4.0, 5.0, 6.0, 7.0]], 'IndexBackward0', [[[0.0, 0.0, 0.0, 0.0], [1.0, 1.0, 1.0, 1.0], [0.0, 0.0, 0.0, 0.0]], [[0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0]]], [1, 4], [[4.0, 5.0, 6.0, 7.0]], 'IndexBackward0', [[[0.0, 0.0, 0.0, 0.0], [1.0, 1.0, 1.0, 1.0], [0.0, 0.0, 0.0, 0.0]], [[0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0]]], [2, 3, 4], [[[0.0, 1.0, 2.0, 3.0], [4.0, 5.0, 6.0, 7.0], [8.0, 9.0, 10.0, 11.0]], [[12.0, 13.0, 14.0, 15.0], [16.0, 17.0, 18.0, 19.0], [20.0, 21.0, 22.0, 23.0]]], 'IndexBackward0', [[[1.0, 1.0, 1.0, 1.0], [1.0, 1.0, 1.0, 1.0], [1.0, 1.0, 1.0, 1.0]], [[1.0, 1.0, 1.0, 1.0], [1.0, 1.0, 1.0, 1.0], [1.0, 1.0, 1.0, 1.0]]], [2, 4], [[4.0, 5.0, 6.0, 7.0], [20.0, 21.0, 22.0, 23.0]], 'IndexBackward0', [[[0.0, 0.0, 0.0, 0.0], [1.0, 1.0, 1.0, 1.0], [0.0, 0.0, 0.0, 0.0]], [[0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0], [1.0, 1.0, 1.0, 1.0]]], [0, 4], [], 'IndexBackward0', [[[0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0]], [[0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0]]], [1, 3, 4], [[[0.0, 1.0, 2.0, 3.0], [4.0, 5.0, 6.0, 7.0], [8.0, 9.0, 10.0, 11.0]]], 'IndexBackward0', [[[1.0, 1.0, 1.0, 1.0], [1.0, 1.0, 1.0, 1.0], [1.0, 1.0, 1.0, 1.0]], [[0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0]]], [1, 2, 2], [[[4.0, 8.0], [16.0, 20.0]]], 'IndexBackward0', [[[0.0, 0.0, 0.0, 0.0], [1.0, 0.0, 0.0, 0.0], [1.0, 0.0, 0.0, 0.0]], [[0.0, 0.0, 0.0, 0.0], [1.0, 0.0, 0.0, 0.0], [1.0, 0.0, 0.0, 0.0]]], [1, 2, 3, 4], [[[[0.0, 1.0, 2.0, 3.0], [4.0, 5.0, 6.0, 7.0], [8.0, 9.0, 10.0, 11.0]], [[12.0, 13.0, 14.0, 15.0], [16.0, 17.0, 18.0, 19.0], [20.0, 21.0, 22.0, 23.0]]]], 'IndexBackward0', [[[1.0, 1.0, 1.0, 1.0], [1.0, 1.0, 1.0, 1.0], [1.0, 1.0, 1.0, 1.0]], [[1.0, 1.0, 1.0, 1.0], [1.0, 1.0, 1.0, 1.0], [1.0, 1.0, 1.0, 1.0]]], [1], [6.0], 'IndexBackward0', [[[0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 1.0, 0.0], [0.0, 0.0, 0.0, 0.0]], [[0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0]]], 'too many indices for tensor of dimension 3']),

    # split/chunk of an empty dim: split gives one empty piece, chunk `chunks` of them (SplitWithSizesBackward0)
    "split_chunk_empty": ("""
x = T.zeros(2, 0, requires_grad=True)
out = []
for pieces in [x.split(2, 1), x.split(0, 1), x.chunk(3, 1), T.zeros(5, requires_grad=True).chunk(2)]:
    out += [[list(p.shape) for p in pieces], [type(p.grad_fn).__name__ for p in pieces]]
for bad in ["T.zeros(5).split(-1)", "T.zeros(5).split(0)"]:
    try:
        eval(bad)
    except RuntimeError as err:
        out += [str(err)]
""", [[[2, 0]], ['SplitBackward0'], [[2, 0]], ['SplitBackward0'], [[2, 0], [2, 0], [2, 0]], ['SplitWithSizesBackward0', 'SplitWithSizesBackward0', 'SplitWithSizesBackward0'], [[3], [2]], ['SplitBackward0', 'SplitBackward0'], 'split expects split_size be non-negative, but got split_size=-1', 'split_size can only be 0 if dimension size is 0, but got dimension size of 5']),
    # a vector @ a matrix is PyTorch's a.unsqueeze(0).mm(b).squeeze_(0): no view, version 1, so copy_ into it
    # records CopyBackwards on it (not CopySlices on a base)
    "vector_matrix_product_is_no_view": ("""
v = T.tensor([0.5, 1.0, 2.0], requires_grad=True)
w = T.tensor([[0.87, -0.63, -1.89], [-1.09, 1.17, -1.33], [-1.39, -0.01, -1.55]], requires_grad=True)
y = T.nn.functional.linear(v, w)
out = [type(y.grad_fn).__name__, y._version, y._base is None]
y.copy_(v * 3)
y.sum().backward()
out += [type(y.grad_fn).__name__, [type(n).__name__ for n, _ in y.grad_fn.next_functions], v.grad, w.grad]
""", ['SqueezeBackward4', 1, True, 'CopyBackwards', ['SqueezeBackward4', 'MulBackward0'], [3.0, 3.0, 3.0], [[0.0, 0.0, 0.0], [0.0, 0.0, 0.0], [0.0, 0.0, 0.0]]]),
    # masked_select saves its input: changing it in place afterwards makes backward raise
    "masked_select_saves_self": ("""
x = T.tensor([[0.64, -0.76], [1.07, -0.84]], requires_grad=True)
h = x * 2
s = T.masked_select(h, h > 0)
h.round_(decimals=1)
out = []
try:
    s.sum().backward()
except RuntimeError as err:
    out += [str(err).split(". Hint")[0]]
""", ['one of the variables needed for gradient computation has been modified by an inplace operation: [minigrad.FloatTensor [2, 2]], which is output 0 of Round1, is at version 1; expected version 0 instead']),
    # an empty binary cross-entropy is nan without numpy's "Mean of empty slice"; a 0-dim input with label
    # smoothing fails in log_softmax, as in PyTorch; an expanded tensor refuses sub_ before its operand's shape
    "empty_bce_smoothing_0dim_expanded_sub_": ("""
import warnings
F = T.nn.functional
out = []
with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter("always")
    loss = F.binary_cross_entropy(T.zeros(0, requires_grad=True).sigmoid(), T.zeros(0))
    loss.backward()
out += [loss, [str(m.message) for m in w]]
for bad in ["F.cross_entropy(T.tensor(0.15), T.tensor([0.73, 1.24]), label_smoothing=0.1)",
            "T.meshgrid(T.arange(3.), T.arange(2.), indexing='ij')[1].sub_(T.ones(2, 3, 2))"]:
    try:
        eval(bad)
    except (RuntimeError, IndexError) as err:
        out += [type(err).__name__, str(err)]
""", [NAN, [], 'IndexError', 'Dimension out of range (expected to be in range of [-1, 0], but got 1)', 'RuntimeError', 'unsupported operation: more than one element of the written-to tensor refers to a single memory location. Please clone() the tensor before performing the operation.']),

    # PyTorch gives reductions, softmax, cumsum, cat, masked_fill, index_select, repeat, tril and roll a
    # fresh contiguous result; clone and flip keep the input's layout: it decides whether view works
    "result_layouts": ("""
x = T.arange(24.).reshape(2, 3, 4).permute(2, 0, 1)
ops = [x.softmax(0), x.log_softmax(1), x.sum(1), x.mean(1), x.amax(1), x.var(1), x.std(1), x.prod(1),
       x.norm(dim=1), x.logsumexp(1), x.max(1)[0], x.max(1)[1], x.argmax(1), x.cumsum(0), x.cumprod(1),
       T.cat([x, x], 0), x.masked_fill(x > 3, 0.), x.index_select(1, T.tensor([0, 1])), x.repeat(1, 1, 1),
       x.tril(), x.roll(1, 0), x.clone(), x.flip(0), x.exp(), x + 1, x.clone(memory_format=T.contiguous_format),
       x[:, :, ::2].clone(), T.randn(4, 1).expand(4, 3).clone()]
out = [[r.is_contiguous(), list(r.stride())] for r in ops]
y = x.t() if x.dim() == 2 else x.transpose(1, 2)
out += [type(y.log_softmax(0).flatten().grad_fn).__name__ if y.requires_grad else y.softmax(0).view(-1).shape[0]]
try:
    x.clone().view(-1)
except RuntimeError as err:
    out += [str(err)]
out += [str(T.preserve_format), str(T.contiguous_format)]
""", [[True, [6, 3, 1]], [True, [6, 3, 1]], [True, [3, 1]], [True, [3, 1]], [True, [3, 1]], [True, [3, 1]], [True, [3, 1]], [True, [3, 1]], [True, [3, 1]], [True, [3, 1]], [True, [3, 1]], [True, [3, 1]], [True, [3, 1]], [True, [6, 3, 1]], [True, [6, 3, 1]], [True, [6, 3, 1]], [True, [6, 3, 1]], [True, [6, 3, 1]], [True, [6, 3, 1]], [True, [6, 3, 1]], [True, [6, 3, 1]], [False, [1, 12, 4]], [False, [1, 12, 4]], [False, [1, 12, 4]], [False, [1, 12, 4]], [True, [6, 3, 1]], [False, [1, 8, 4]], [True, [3, 1]], 24, "view size is not compatible with input tensor's size and stride (at least one dimension spans across two contiguous subspaces). Use .reshape(...) instead.", 'minigrad.preserve_format', 'minigrad.contiguous_format']),
    "flatten_after_log_softmax": ("""
v = T.tensor([[[[-0.59, 0.45], [1.2, 1.33]]], [[[1.68, -0.97], [-1.46, -0.36]]]], requires_grad=True)
f = v.permute(3, 2, 1, 0).log_softmax(0).flatten()
out = [type(f.grad_fn).__name__, [type(n).__name__ for n, _ in f.grad_fn.next_functions]]
""", ['ViewBackward0', ['LogSoftmaxBackward0']]),
    # index_select, gather, scatter and index_add take no negative index (numpy would count it from the
    # end): PyTorch's bounds errors, in the words of each kernel
    "index_bounds": ("""
I = T.tensor
cases = [lambda: T.zeros(2, 3).index_select(1, I([-1])), lambda: T.zeros(2, 3).index_select(1, I([0, -2, 5])),
         lambda: T.zeros(3, 2).index_select(0, I([5])), lambda: T.zeros(3, 2).index_select(0, I([-1])),
         lambda: T.zeros(2, 3, 4).index_select(2, I([4])), lambda: T.zeros(0, 3).index_select(0, I([0])),
         lambda: T.zeros(3, 0).index_select(0, I([4])), lambda: T.zeros(3).index_select(0, I([-1])),
         lambda: T.tensor(2.).index_select(0, I([1])), lambda: T.zeros(2, 3).gather(1, I([[-1]])),
         lambda: T.zeros(2, 3).gather(0, I([[1, 2, -1]])), lambda: T.tensor(1.).gather(0, I(1)),
         lambda: T.zeros(2, 3).scatter(1, I([[-1]]), 1.), lambda: T.zeros(2, 3).scatter(1, I([[3]]), T.ones(1, 1)),
         lambda: T.zeros(2, 3).scatter_add(1, I([[-1]]), T.ones(1, 1)),
         lambda: T.zeros(2, 3).index_add(1, I([-1]), T.ones(2, 1)), lambda: T.zeros(3).index_add(0, I([-1]), T.ones(1)),
         lambda: T.zeros(0)[[0]], lambda: T.zeros(2, 0)[[0, 1], [0, 0]], lambda: T.zeros(3)[[5]]]
out = []
for case in cases:
    try:
        out += [case()]
    except (RuntimeError, IndexError) as err:
        out += [type(err).__name__, str(err)]
out += [T.zeros(3, 0).index_select(0, I([0])).shape[0], T.zeros(2, 3).index_select(1, I([], dtype=T.int64)).shape[1]]
""", ['RuntimeError', 'INDICES element is out of DATA bounds, id=-1 axis_dim=3', 'RuntimeError', 'INDICES element is out of DATA bounds, id=-2 axis_dim=3', 'IndexError', 'index out of range in self', 'IndexError', 'index out of range in self', 'IndexError', 'index out of range in self', 'RuntimeError', 'index_select(): self indexing axis dim should be positive', 'RuntimeError', 'INDICES element is out of DATA bounds, id=4 axis_dim=3', 'IndexError', 'index out of range in self', 'IndexError', 'index out of range in self', 'RuntimeError', 'index -1 is out of bounds for dimension 1 with size 3', 'RuntimeError', 'index 2 is out of bounds for dimension 0 with size 2', 'RuntimeError', 'index 1 is out of bounds for dimension 0 with size 1', 'RuntimeError', 'index -1 is out of bounds for dimension 1 with size 3', 'RuntimeError', 'index 3 is out of bounds for dimension 1 with size 3', 'RuntimeError', 'index -1 is out of bounds for dimension 1 with size 3', 'RuntimeError', 'index -1 is out of bounds for dimension 1 with size 3', 'IndexError', 'index out of range in self', 'IndexError', 'index is out of bounds for dimension with size 0', 'IndexError', 'index is out of bounds for dimension with size 0', 'IndexError', 'index 5 is out of bounds for dimension 0 with size 3', 1, 0]),
    # errors of empty reductions, in PyTorch's order and words; a cat of legacy empty (0,) tensors only
    "empty_reductions_and_cat": ("""
e = T.zeros(0, requires_grad=True)
out = []
for bad in ["e.argmax(0)", "e.argmin(-1)", "e.argmax()", "T.zeros(3, 0).argmax(1)", "T.zeros(3, 0).amax(-1)",
            "T.zeros(3, 0).amin((0, -1))", "T.zeros(3, 0).amax((-1, 0))", "T.zeros(2, 3, dtype=T.bool).median(3)",
            "T.zeros(3, 2) @ T.zeros(3, dtype=T.float64)", "T.zeros(3) @ T.zeros(2, dtype=T.float64)"]:
    try:
        out += [eval(bad)]
    except (RuntimeError, IndexError) as err:
        out += [type(err).__name__, str(err)]
x = T.randn(2, 3)
out += [list(x.argmax(keepdim=True).shape), list(x.argmin(keepdim=True).shape), T.zeros(3, 0).argmax(0)]
r = T.cat([e, e], 5)
r.sum().backward()
a = T.ones(2, 3, requires_grad=True)
s = T.cat([e, a, e], 1)
s.sum().backward()
out += [r, e.grad, list(s.shape), len(s.grad_fn.next_functions), a.grad, str(T.cat([T.zeros(0, dtype=T.float64), T.ones(0, dtype=T.int64)], 3).dtype)]
""", ['IndexError', 'argmax(): Expected reduction dim 0 to have non-zero size.', 'IndexError', 'argmin(): Expected reduction dim 0 to have non-zero size.', 'IndexError', 'argmax(): Expected reduction dim to be specified for input.numel() == 0.', 'IndexError', 'argmax(): Expected reduction dim 1 to have non-zero size.', 'IndexError', 'amax(): Expected reduction dim -1 to have non-zero size.', 'IndexError', 'amin(): Expected reduction dim -1 to have non-zero size.', 'IndexError', 'amax(): Expected reduction dim -1 to have non-zero size.', 'IndexError', 'Dimension out of range (expected to be in range of [-2, 1], but got 3)', 'RuntimeError', 'size mismatch, got input (3), mat (3x2), vec (3)', 'RuntimeError', 'dot : expected both vectors to have same dtype, but found Float and Double', [1, 1], [1, 1], [], [], [], [2, 3], 3, [[1.0, 1.0, 1.0], [1.0, 1.0, 1.0]], 'minigrad.float64']),
    # the gradient of the inf-norm respects nan (a nan counts as chosen, and sign(nan) is 0); var's
    # backward takes the mean of every element (MeanBackward0) when no dim was given
    "inf_norm_nan_and_var_mean": ("""
out = []
for v in [[0.37, nan], [-0.5, 0.5], [nan, nan], [inf, 1.0], [1.0, -1.0, 0.5]]:
    for p in [inf, -inf]:
        x = T.tensor(v, requires_grad=True)
        x.norm(p=p).backward()
        out += [x.grad]
x = T.tensor([[1.87, -0.41], [-1.65, -1.88], [1.63, -0.28]], dtype=T.float64, requires_grad=True)
g, = T.autograd.grad(x.var().sum(), x, create_graph=True)
names, todo = [], [g.grad_fn]
while todo:
    node = todo.pop()
    names.append(type(node).__name__)
    todo += [n for n, _ in node.next_functions if n is not None]
out += [g, sorted(names)]
F = T.nn.functional
out += [F.cross_entropy(T.zeros(0, requires_grad=True), T.zeros(0), label_smoothing=0.3),
        F.cross_entropy(T.zeros(2, 0, requires_grad=True), T.zeros(2, 0), label_smoothing=0.3, reduction="none")]
""", [[0.0, 0.0], [0.0, 0.0], [-0.5, 0.5], [-0.5, 0.5], [0.0, 0.0], [0.0, 0.0], [1.0, 0.0], [0.0, 1.0], [0.5, -0.5, 0.0], [0.0, -0.0, 1.0], [[0.7960000000000002, -0.11599999999999998], [-0.612, -0.704], [0.7000000000000001, -0.06399999999999999]], ['AccumulateGrad', 'AccumulateGrad', 'MeanBackward0', 'MulBackward0', 'SubBackward0'], NAN, [-0.0, -0.0]]),

    # an expanded tensor without a history takes a value that requires grad by index_put_ and masked_fill_
    # (CopySlices on its base; where two indices share a place the last one's value stays); other writes refuse
    "expanded_writes_of_a_new_value": ("""
import warnings
warnings.simplefilter("ignore")
out = []
for src in ["e.fill_(V)", "e[0] = V", "e[0, 1] = V", "e[1:] = V", "e[:, 1] = V", "e[...] = V", "e.add_(V)",
            "e.masked_fill_(e > 1, V)", "e[[1]] = V", "e[e > 1] = V", "e[:, [0, 0]] = W", "e[[2, 0]] = W[:, 0]"]:
    x = T.arange(4.) * 1
    e = x.expand(3, 4)
    V = T.tensor(5., requires_grad=True)
    W = T.arange(6.).reshape(3, 2).requires_grad_()
    try:
        exec(src, {"T": T, "e": e, "V": V, "W": W})
        (e * T.arange(12.).reshape(3, 4)).sum().backward()
        out += [x, V.grad if V.grad is not None else W.grad, type(x.grad_fn).__name__, type(e.grad_fn).__name__]
    except RuntimeError as err:
        out += [str(err)]
e = (T.arange(4.) * 1).expand(2, 4)
with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter("always")
    try:
        e[:, [0, 0]] = T.ones(2, 2, 6)
    except RuntimeError as err:
        out += [str(err), [str(m.message).split(" (Triggered")[0] for m in w]]
""", ['unsupported operation: more than one element of the written-to tensor refers to a single memory location. Please clone() the tensor before performing the operation.', [5.0, 5.0, 5.0, 5.0], 66.0, 'CopySlices', 'AsStridedBackward0', [0.0, 5.0, 2.0, 3.0], 15.0, 'CopySlices', 'AsStridedBackward0', 'unsupported operation: more than one element of the written-to tensor refers to a single memory location. Please clone() the tensor before performing the operation.', 'unsupported operation: more than one element of the written-to tensor refers to a single memory location. Please clone() the tensor before performing the operation.', 'unsupported operation: more than one element of the written-to tensor refers to a single memory location. Please clone() the tensor before performing the operation.', 'unsupported operation: more than one element of the written-to tensor refers to a single memory location. Please clone() the tensor before performing the operation.', [0.0, 1.0, 5.0, 5.0], 117.0, 'CopySlices', 'AsStridedBackward0', [5.0, 5.0, 5.0, 5.0], 66.0, 'CopySlices', 'AsStridedBackward0', [0.0, 1.0, 5.0, 5.0], 117.0, 'CopySlices', 'AsStridedBackward0', [5.0, 1.0, 2.0, 3.0], [[12.0, 12.0], [12.0, 12.0], [12.0, 12.0]], 'CopySlices', 'AsStridedBackward0', 'shape mismatch: value tensor of shape [3] cannot be broadcast to indexing result of shape [2, 4]', 'shape mismatch: value tensor of shape [2, 2, 6] cannot be broadcast to indexing result of shape [2, 2]', ['Use of index_put_ on expanded tensors is deprecated. Please clone() the tensor before performing this operation. This also applies to advanced indexing e.g. tensor[indices] = tensor']]),
    # what a second backward must refuse: index_put_ saved its indices (a list too); index_add saves its index
    # only for the source's gradient; the product of a 0-dim tensor passes the gradient through
    "second_backward_index_put_and_prod": ("""
out = []
def twice(make):
    y, leaf = make()
    y.sum().backward()
    try:
        y.sum().backward()
        return ["ran twice", leaf.grad]
    except RuntimeError as err:
        return [str(err)[:50], leaf.grad]
def put():
    x, v = T.zeros(3), T.tensor(1., requires_grad=True)
    x[[0]] = v
    return x, v
def put_view():
    x, v = T.zeros(2, 3), T.tensor(1., requires_grad=True)
    y = x[0]
    x[[0]] = v
    return y, v
def add_no_source_grad():
    x = T.randn(3, 4, requires_grad=True)
    return x.index_add(0, T.tensor([0]), T.ones(1, 4)), x
def add_source_grad():
    s = T.ones(1, 4, requires_grad=True)
    return T.zeros(3, 4).index_add(0, T.tensor([0]), s), s
for make in [put, put_view, add_no_source_grad, add_source_grad]:
    out += twice(make)
a = T.tensor(1.0, requires_grad=True)
loss = T.nn.functional.l1_loss(a.clamp(-1, 1), T.tensor(inf))
loss.prod(-1).backward()
b = T.tensor(1.5, requires_grad=True)
g, = T.autograd.grad((b * 2).prod(), b, create_graph=True)
out += [a.grad, g, g.requires_grad]
def setitem(x, key):
    x[key] = 1.
for x, key in [(T.zeros(0), 0), (T.zeros(2, 0), (0, 1)), (T.zeros(3, 2), (1, 5)), (T.zeros(3, 2), (..., 5)), (T.zeros(3), -4)]:
    try:
        setitem(x, key)
    except IndexError as err:
        out += [str(err)]
""", ['Trying to backward through the graph a second time', 1.0, 'Trying to backward through the graph a second time', 3.0, 'ran twice', [[2.0, 2.0, 2.0, 2.0], [2.0, 2.0, 2.0, 2.0], [2.0, 2.0, 2.0, 2.0]], 'Trying to backward through the graph a second time', [[1.0, 1.0, 1.0, 1.0]], -1.0, 2.0, False, 'index 0 is out of bounds for dimension 0 with size 0', 'index 1 is out of bounds for dimension 1 with size 0', 'index 5 is out of bounds for dimension 1 with size 2', 'index 5 is out of bounds for dimension 1 with size 2', 'index -4 is out of bounds for dimension 0 with size 3']),

    # F.normalize is PyTorch's composite: x / x.norm(p, dim, keepdim=True).clamp_min(eps).expand_as(x)
    "normalize": ("""
F = T.nn.functional
x = T.tensor([[3., 4.], [0., 0.], [1., -2.]], requires_grad=True)
y = F.normalize(x)
y.sum().backward()
div = y.grad_fn
expand = div.next_functions[1][0]
out = [y, x.grad, type(div).__name__, type(expand).__name__, type(expand.next_functions[0][0]).__name__,
       type(expand.next_functions[0][0].next_functions[0][0]).__name__,
       F.normalize(T.tensor([1., -2., 2.]), p=1, dim=0), F.normalize(T.tensor([[1., 2.], [3., 4.]]), dim=0, eps=10.)]
for bad in ["F.normalize(T.tensor([3, 4]), dim=0)", "F.normalize(T.tensor([3., 4.]))"]:
    try:
        eval(bad)
    except (RuntimeError, IndexError) as err:
        out += [type(err).__name__, str(err)]
""", [[[0.6000000238418579, 0.800000011920929], [0.0, 0.0], [0.4472135901451111, -0.8944271802902222]], [[0.031999990344047546, -0.024000003933906555], [999999995904.0, 999999995904.0], [0.5366563200950623, 0.26832816004753113]], 'DivBackward0', 'ExpandBackward0', 'ClampMinBackward0', 'LinalgVectorNormBackward0', [0.20000000298023224, -0.4000000059604645, 0.4000000059604645], [[0.10000000149011612, 0.20000000298023224], [0.30000001192092896, 0.4000000059604645]], 'RuntimeError', 'linalg.vector_norm: Expected a floating point or complex tensor as input. Got Long', 'IndexError', 'Dimension out of range (expected to be in range of [-1, 0], but got 1)']),

    # what addmm (nn.Linear) and max/min/median over a dim save, as grad_fn._saved_* shows it: the numbers
    # alpha and beta, the inputs' sizes, their strides only where that input's gradient is wanted, the indices
    "saved_of_addmm_and_max_dim": ("""
a = T.randn(2, 3, requires_grad=True)
b = T.randn(3, 4)
out = []
g = T.addmm(T.zeros(4), a, b).grad_fn
out += [g._saved_mat1 is None, list(g._saved_mat1_sym_sizes), list(g._saved_mat1_sym_strides), list(g._saved_mat2_sym_sizes),
        list(g._saved_mat2_sym_strides), g._saved_alpha, g._saved_beta]
g = T.addmm(T.zeros(4), a.detach(), b.t().contiguous().t().requires_grad_(), beta=0.5, alpha=2).grad_fn
out += [list(g._saved_mat1_sym_strides), list(g._saved_mat2_sym_strides), g._saved_alpha, g._saved_beta]
g = T.nn.Linear(3, 4)(a).grad_fn
out += [type(g).__name__, list(g._saved_mat1_sym_strides), list(g._saved_mat2_sym_strides), list(g._saved_mat2_sym_sizes)]
x = T.tensor([[1., 5., 2.], [7., 0., 3.]], requires_grad=True)
for v in [x.max(1)[0], x.min(0)[0], x.max(-1, keepdim=True)[0], T.tensor(3., requires_grad=True).max(0)[0], x.median(1)[0]]:
    g = v.grad_fn
    out += [type(g).__name__, g._saved_indices, g._saved_dim, g._saved_keepdim]
""", [True, [2, 3], [3, 1], [3, 4], [], 1, 1, [], [1, 3], 2, 0.5, 'AddmmBackward0', [3, 1], [1, 3], [3, 4], 'MaxBackward0', [1, 0], 1, False, 'MinBackward0', [0, 1, 0], 0, False, 'MaxBackward0', [[1], [0]], 18446744073709551615, True, 'MaxBackward0', 0, 0, False, 'MedianBackward1', [2, 2], 1, False]),

    # index_put_ saves its indices however they are written (a list of lists in a tuple too): a second
    # backward through it raises, also from a view taken before the write
    "second_backward_index_put_nested_lists": ("""
import warnings
warnings.simplefilter("ignore")
out = []
for key in ["[[0], [0]]", "([0], [0])", "(slice(None), [0], [1, 2])"]:
    x = T.tensor([[[-0.4, -0.17, -0.06]], [[1.58, 0.77, 1.84]]])
    view = x.mT
    v = T.tensor(-1.29, requires_grad=True)
    x[eval(key)] = v
    view.sum().backward()
    try:
        view.sum().backward()
        out += ["ran twice"]
    except RuntimeError as err:
        out += [str(err)[:50]]
    out += [v.grad]
""", ['Trying to backward through the graph a second time', 3.0, 'Trying to backward through the graph a second time', 3.0, 'Trying to backward through the graph a second time', 4.0]),

    # torch.linalg.norm / vector_norm and Tensor.norm are one op, LinalgVectorNormBackward0, whose
    # grad_fn._saved_* show the ord as it was given (2 from Tensor.norm, 2.0 from linalg.norm) and the dims
    "linalg_norms_and_saved": ("""
a = T.tensor([[1., -2., 3.], [0.5, 0., -1.]], requires_grad=True)
out = []
for f in [lambda: a.norm(), lambda: a.norm(dim=1), lambda: a.norm(p=1, dim=(0, 1), keepdim=True),
          lambda: T.linalg.vector_norm(a, float("inf"), dim=-1), lambda: T.linalg.norm(a), lambda: T.linalg.norm(a, dim=0),
          lambda: T.linalg.norm(a[0], 1), lambda: T.norm(a, 3), lambda: T.linalg.vector_norm(a, True)]:
    y = f()
    g = y.grad_fn
    y.sum().backward(retain_graph=True)
    out += [y, type(g).__name__, g._saved_dim, g._saved_keepdim, g._saved_ord, type(g._saved_ord).__name__,
            list(g._saved_result.shape), list(g._saved_self.shape), a.grad]
    a.grad = None
try:
    T.linalg.vector_norm(a, "fro")
except TypeError as err:
    out += [str(err)]
""", [3.9051249027252197, 'LinalgVectorNormBackward0', None, False, 2, 'int', [], [2, 3], [[0.2560737431049347, -0.5121474862098694, 0.7682212591171265], [0.12803687155246735, 0.0, -0.2560737431049347]], [3.7416574954986572, 1.1180340051651], 'LinalgVectorNormBackward0', (1,), False, 2, 'int', [2], [2, 3], [[0.26726123690605164, -0.5345224738121033, 0.8017836809158325], [0.4472135901451111, 0.0, -0.8944271802902222]], [[7.5]], 'LinalgVectorNormBackward0', (0, 1), True, 1, 'int', [1, 1], [2, 3], [[1.0, -1.0, 1.0], [1.0, 0.0, -1.0]], [3.0, 1.0], 'LinalgVectorNormBackward0', (18446744073709551615,), False, INF, 'float', [2], [2, 3], [[0.0, -0.0, 1.0], [0.0, 0.0, -1.0]], 3.9051249027252197, 'LinalgVectorNormBackward0', None, False, 2.0, 'float', [], [2, 3], [[0.2560737431049347, -0.5121474862098694, 0.7682212591171265], [0.12803687155246735, 0.0, -0.2560737431049347]], [1.1180340051651, 2.0, 3.1622776985168457], 'LinalgVectorNormBackward0', (0,), False, 2.0, 'float', [3], [2, 3], [[0.8944271802902222, -1.0, 0.9486832618713379], [0.4472135901451111, 0.0, -0.3162277638912201]], 6.0, 'LinalgVectorNormBackward0', None, False, 1, 'int', [], [3], [[1.0, -1.0, 1.0], [0.0, 0.0, 0.0]], 3.335970163345337, 'LinalgVectorNormBackward0', None, False, 3, 'int', [], [2, 3], [[0.08985777944326401, -0.35943111777305603, 0.8087199926376343], [0.022464444860816002, 0.0, -0.08985777944326401]], 7.5, 'LinalgVectorNormBackward0', None, False, True, 'bool', [], [2, 3], [[1.0, -1.0, 1.0], [1.0, 0.0, -1.0]], "linalg_vector_norm(): argument 'ord' (position 2) must be Number, not str"]),
    # F.cosine_similarity is PyTorch's composite: both inputs expanded when their shapes differ, each over its
    # norm (clone, then clamped to eps unrecorded), the products summed
    "cosine_similarity": ("""
F = T.nn.functional
def walk(fn, d=0):
    if fn is None:
        return []
    return [d * " " + type(fn).__name__] + [x for n, _ in fn.next_functions for x in walk(n, d + 1)]
a = T.tensor([[1., -2., 3.], [0., 0., 0.]], requires_grad=True)
b = T.tensor([[2., 1., 0.5], [1., 1., 1.]], requires_grad=True)
y = F.cosine_similarity(a, b)
y.sum().backward()
out = [y, a.grad, b.grad, walk(y.grad_fn)]
c = T.ones(2, 3, requires_grad=True)
y = F.cosine_similarity(c, T.tensor([1., 2., 3.]))
out += [y, walk(y.grad_fn), F.cosine_similarity(T.ones(3), T.ones(3), dim=0),
        str(F.cosine_similarity(T.ones(3, dtype=T.float64), T.ones(3), dim=0).dtype)]
for bad in ["F.cosine_similarity(T.ones(3), T.ones(2))", "F.cosine_similarity(T.tensor([1, 2]), T.tensor([2, 3]), dim=0)",
            "F.cosine_similarity(T.ones(3), T.ones(3))"]:
    try:
        eval(bad)
    except (RuntimeError, IndexError) as err:
        out += [type(err).__name__, str(err)]
""", [[0.17496353387832642, 0.0], [[0.22078731656074524, 0.1416371464729309, 0.020828992128372192], [57735028.0, 57735028.0, 57735028.0]], [[0.049989596009254456, -0.26661109924316406, 0.3332638740539551], [0.0, 0.0, 0.0]], ['SumBackward1', ' MulBackward0', '  DivBackward0', '   AccumulateGrad', '   CloneBackward0', '    LinalgVectorNormBackward0', '     AccumulateGrad', '  DivBackward0', '   AccumulateGrad', '   CloneBackward0', '    LinalgVectorNormBackward0', '     AccumulateGrad'], [0.9258200526237488, 0.9258200526237488], ['SumBackward1', ' MulBackward0', '  DivBackward0', '   ExpandBackward0', '    AccumulateGrad', '   CloneBackward0', '    LinalgVectorNormBackward0', '     ExpandBackward0', '      AccumulateGrad'], 0.9999999403953552, 'minigrad.float64', 'RuntimeError', 'The size of tensor a (3) must match the size of tensor b (2) at non-singleton dimension 0', 'RuntimeError', 'expected common dtype to be floating point, yet common dtype is Long', 'IndexError', 'Dimension out of range (expected to be in range of [-1, 0], but got 1)']),

    # torch.xlogy (three overloads: XlogyBackward0/1/2) and F.kl_div / F.softmin as PyTorch composes them
    "xlogy_kl_div_softmin": ("""
import warnings
F = T.nn.functional
def walk(fn, d=0):
    if fn is None:
        return []
    return [d * " " + type(fn).__name__] + [x for n, _ in fn.next_functions for x in walk(n, d + 1)]
a = T.tensor([[-1., -2., -0.5], [-0.3, -1.2, -3.]], requires_grad=True)
t = T.tensor([[0.5, 0.5, 0.], [0.2, 0.3, 0.5]], requires_grad=True)
out = []
with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter("always")
    for red in ["none", "sum", "mean", "batchmean"]:
        y = F.kl_div(a, t, reduction=red)
        out += [y, walk(y.grad_fn)]
out += [[str(m.message) for m in w]]
y = F.kl_div(a, t.log(), reduction="sum", log_target=True)
y.backward()
out += [walk(y.grad_fn), a.grad, t.grad]
a.grad = t.grad = None
F.kl_div(a, t, reduction="batchmean").backward()
out += [a.grad, t.grad]
x = T.tensor([0., 1., 2.], requires_grad=True)
o = T.tensor([0., 3., 0.], requires_grad=True)
y = T.xlogy(x, o)
y.sum().backward()
out += [y, x.grad, o.grad, T.xlogy(T.tensor([0., 2.]), 3.), T.xlogy(2, T.tensor([3.])),
        str(T.xlogy(T.tensor([1, 2]), T.tensor([3, 4])).dtype), T.xlogy(T.tensor([0., nan]), T.tensor([nan, 1.])),
        T.tensor([2., 0.]).xlogy(T.tensor(-1.)), type(T.xlogy(x, 3.).grad_fn).__name__, type(T.xlogy(2, x).grad_fn).__name__]
g, = T.autograd.grad(T.xlogy(x, o).sum(), o, create_graph=True)
s = F.softmin(a, dim=1)
out += [walk(g.grad_fn), s, walk(s.grad_fn)]
""", [[[0.1534264087677002, 0.6534264087677002, 0.0], [-0.2618875801563263, -0.001191854476928711, 1.1534264087677002]], ['SubBackward0', ' XlogyBackward0', '  AccumulateGrad', '  AccumulateGrad', ' MulBackward0', '  AccumulateGrad', '  AccumulateGrad'], 1.697199821472168, ['SumBackward0', ' SubBackward0', '  XlogyBackward0', '   AccumulateGrad', '   AccumulateGrad', '  MulBackward0', '   AccumulateGrad', '   AccumulateGrad'], 0.28286662697792053, ['MeanBackward0', ' SubBackward0', '  XlogyBackward0', '   AccumulateGrad', '   AccumulateGrad', '  MulBackward0', '   AccumulateGrad', '   AccumulateGrad'], 0.848599910736084, ['DivBackward0', ' SumBackward0', '  SubBackward0', '   XlogyBackward0', '    AccumulateGrad', '    AccumulateGrad', '   MulBackward0', '    AccumulateGrad', '    AccumulateGrad'], ["reduction: 'mean' divides the total loss by both the batch size and the support size.'batchmean' divides only by the batch size, and aligns with the KL div math definition.'mean' will be changed to behave the same as 'batchmean' in the next major release."], ['SumBackward0', ' MulBackward0', '  ExpBackward0', '   LogBackward0', '    AccumulateGrad', '  SubBackward0', '   LogBackward0', '    AccumulateGrad', '   AccumulateGrad'], [[-0.5, -0.5, -0.0], [-0.19999998807907104, -0.29999998211860657, -0.5]], [[1.3068528175354004, 2.3068528175354004, NAN], [-0.30943796038627625, 0.9960271716117859, 3.3068528175354004]], [[-0.25, -0.25, -0.0], [-0.10000000149011612, -0.15000000596046448, -0.25]], [[0.6534264087677002, 1.1534264087677002, NAN], [-0.15471896529197693, 0.49801361560821533, 1.6534264087677002]], [0.0, 1.0986123085021973, -INF], [0.0, 1.0986123085021973, -INF], [NAN, 0.3333333432674408, INF], [0.0, 2.1972246170043945], [2.1972246170043945], 'minigrad.float32', [NAN, NAN], [NAN, 0.0], 'XlogyBackward2', 'XlogyBackward1', ['DivBackward0', ' MulBackward0', '  AccumulateGrad', ' AccumulateGrad'], [[0.23122389614582062, 0.6285316944122314, 0.14024437963962555], [0.05452760308980942, 0.1341162770986557, 0.8113561272621155]], ['SoftmaxBackward0', ' NegBackward0', '  AccumulateGrad']]),
    # second derivatives as PyTorch's C++ formulas build them: a plain number added or multiplied is AddBackward1 /
    # MulBackward1 (one edge), `1 - s` and `v / t` fill a tensor (SubBackward0 / DivBackward0 with a (None, 0) edge),
    # norm/prod/std/var unsqueeze only the dims given, in PyTorch's order of steps; remainder/fmod give the divisor a
    # zero gradient with a graph (DivBackward2), so the second order is zeros, not None
    # and, in PyTorch's steps: max/min/median of all (zeros.masked_fill_(mask, grad / count)), of a dim
    # (zeros.scatter_), amax (one reshape), maximum/minimum (where(tie, grad / 2, grad).masked_fill_), pow's base
    # (where(b == 0, 0, ...)), addmm's column-major operands (by the strides), in-place ops saving a recorded clone of
    # the old values, alpha/lerp/rsqrt plain numbers, bce_with_logits' order, squeeze's unsqueeze_to, var of a 0-dim
    # tensor as without a dim (MeanBackward0), mean(dim) over a plain number (DivBackward1); and the errors
    # of squeeze with a repeated dim, addcdiv's integer divisor in backward, and a loss weight that requires grad
    "second_order_graphs": ("""
def walk(fn, d=0):
    if fn is None:
        return []
    return [d * " " + type(fn).__name__] + [x for n, _ in fn.next_functions for x in walk(n, d + 1)]
F = T.nn.functional
x = T.tensor([[0.3, -0.2], [0.5, 0.0]], requires_grad=True)
y = T.tensor([[0.7, 0.4], [-0.3, 0.6]], requires_grad=True)
out = []
for f in ["x.asin()", "x.acos()", "x.atan()", "x.log1p()", "(x + 1).log2()", "(x + 1).log10()", "(x + 1).sqrt()",
          "x.exp2()", "x.expm1()", "x.erf()", "x.tan()", "F.silu(x)", "x.norm()", "x.norm(dim=1)", "x.norm(p=1)",
          "y.norm(p=3, dim=0)", "x.norm(p=1.5, dim=1, keepdim=True)", "x.norm(p=0.5, dim=0)", "x.norm(p=inf)",
          "(x + 1).prod()", "(x + 1).prod(0)", "(x + 1).cumprod(1)", "x.std()", "x.std(1)", "x[0].var(0)",
          "x.var(1, keepdim=True)", "T.addcmul(x, x, y, value=2)", "T.addcdiv(x, x, y, value=0.5)", "y % x[0, 0]",
          "x.fmod(y)", "x.remainder(y)"]:
    z = eval(f)
    gs = T.autograd.grad(z.sum(), [x, y], create_graph=True, allow_unused=True)
    for g in gs:
        if g is None:
            out += [None]
            continue
        if not g.requires_grad:
            out += [f, g, "no graph"]
            continue
        gg = T.autograd.grad(g.sum(), [x, y], allow_unused=True)
        out += [f, g, walk(g.grad_fn), [None if t is None else (T.zeros(t.shape) + t).tolist() for t in gg]]
x = T.tensor([[0.3, 0.7], [0.5, 0.1]], requires_grad=True)
y = T.tensor([[0.7, 0.0], [0.3, 2.0]], requires_grad=True)
c = T.tensor([[[0.3], [0.2]]], requires_grad=True)
e = T.tensor(0.5, requires_grad=True)
for f in ["x.max().sin()", "x.min(0)[0].sin()", "x.max(1, keepdim=True)[0].sin()", "e.max(0)[0].sin()", "x.median().sin()",
          "x.amax(0).sin()", "T.maximum(x, y).sin()", "T.minimum(x, y.t()).sin()", "x ** y", "x.sin() ** y.cos()",
          "T.addmm(e, x.t(), y)", "T.addmm(e, x, y.t())", "x.clone().sin_()", "x.clone().mul_(y)",
          "x.clone().div_(y + 1)", "x.add(y.sin(), alpha=2).sin()", "x.sub(y.sin(), alpha=2).sin()", "x.rsqrt().cosh()",
          "x.lerp(y, 0.25).sin()", "x.lerp(y, y).sin()", "F.binary_cross_entropy_with_logits(x, y.sigmoid())",
          "F.binary_cross_entropy_with_logits(x, y.sigmoid(), pos_weight=T.tensor([1., 2.]), reduction='sum')",
          "c.squeeze() ** 2", "c.squeeze(0) ** 2", "c.squeeze(1) ** 2", "c.squeeze((0, 2)) ** 2", "e.squeeze(0) ** 2",
          "e.var(0, correction=0)", "x.mean(0).sin()"]:
    z = eval(f)
    gs = T.autograd.grad(z.sum(), [x, y, c, e], create_graph=True, allow_unused=True)
    for g in gs:
        if g is not None:
            out += [f, g, walk(g.grad_fn)]
for bad in ["c.squeeze((0, 0))", "c.squeeze((2, 0, -1))", "T.addcdiv(x, x, T.tensor([1, 2])).sum().backward()",
            "F.binary_cross_entropy_with_logits(x, y, pos_weight=y)", "F.binary_cross_entropy(x, y, weight=y)"]:
    try:
        eval(bad)
        out += ["no error"]
    except RuntimeError as err:
        out += [str(err)]
""", ['x.asin()', [[1.048284888267517, 1.0206207036972046], [1.154700517654419, 1.0]], ['MulBackward0', ' RsqrtBackward0', '  AddBackward1', '   MulBackward0', '    NegBackward0', '     AccumulateGrad', '    AccumulateGrad'], [[[0.34558844566345215, -0.2126293033361435], [0.7698003053665161, 0.0]], None], None, 'x.acos()', [[-1.048284888267517, -1.0206207036972046], [-1.154700517654419, -1.0]], ['MulBackward0', ' NegBackward0', '  RsqrtBackward0', '   AddBackward1', '    MulBackward0', '     NegBackward0', '      AccumulateGrad', '     AccumulateGrad'], [[[-0.34558844566345215, 0.2126293033361435], [-0.7698003053665161, 0.0]], None], None, 'x.atan()', [[0.9174311757087708, 0.9615384936332703], [0.800000011920929, 1.0]], ['DivBackward0', ' AddBackward1', '  MulBackward0', '   AccumulateGrad', '   AccumulateGrad'], [[[-0.5050079822540283, 0.36982250213623047], [-0.6399999856948853, 0.0]], None], None, 'x.log1p()', [[0.7692307829856873, 1.25], [0.6666666865348816, 1.0]], ['DivBackward0', ' AddBackward1', '  AccumulateGrad'], [[[-0.5917159914970398, -1.5625], [-0.4444444477558136, -1.0]], None], None, '(x + 1).log2()', [[1.1097655296325684, 1.8033688068389893], [0.9617967009544373, 1.4426950216293335]], ['DivBackward0', ' MulBackward1', '  AddBackward0', '   AccumulateGrad'], [[[-0.8536658883094788, -2.254210948944092], [-0.6411978006362915, -1.4426950216293335]], None], None, '(x + 1).log10()', [[0.33407267928123474, 0.5428680777549744], [0.2895296514034271, 0.4342944622039795]], ['DivBackward0', ' MulBackward1', '  AddBackward0', '   AccumulateGrad'], [[[-0.25697898864746094, -0.6785850524902344], [-0.1930197775363922, -0.4342944622039795]], None], None, '(x + 1).sqrt()', [[0.43852904438972473, 0.5590169429779053], [0.40824827551841736, 0.5]], ['DivBackward0', ' MulBackward1', '  SqrtBackward0', '   AddBackward0', '    AccumulateGrad'], [[[-0.1686650514602661, -0.349385529756546], [-0.1360827535390854, -0.25]], None], None, 'x.exp2()', [[0.8533642888069153, 0.6034196615219116], [0.9802581071853638, 0.6931471824645996]], ['MulBackward1', ' MulBackward0', '  Exp2Backward0', '   AccumulateGrad'], [[[0.591507077217102, 0.4182586371898651], [0.6794631481170654, 0.4804530143737793]], None], None, 'x.expm1()', [[1.3498587608337402, 0.8187307715415955], [1.6487212181091309, 1.0]], ['MulBackward0', ' AddBackward1', '  Expm1Backward0', '   AccumulateGrad'], [[[1.3498587608337402, 0.8187307715415955], [1.6487212181091309, 1.0]], None], None, 'x.erf()', [[1.0312609672546387, 1.084134817123413], [0.8787826299667358, 1.128379225730896]], ['MulBackward0', ' MulBackward1', '  ExpBackward0', '   NegBackward0', '    PowBackward0', '     AccumulateGrad'], [[[-0.6187565922737122, 0.43365392088890076], [-0.8787826299667358, 0.0]], None], None, 'x.tan()', [[1.0956889390945435, 1.0410913228988647], [1.2984464168548584, 1.0]], ['MulBackward0', ' AddBackward1', '  PowBackward0', '   TanBackward0', '    AccumulateGrad'], [[[0.6778726577758789, -0.4220793545246124], [1.4186890125274658, 0.0]], None], None, 'F.silu(x)', [[0.6477799415588379, 0.40066269040107727], [0.7399612069129944, 0.5]], ['MulBackward0', ' MulBackward0', '  SigmoidBackward0', '   AccumulateGrad', ' AddBackward1', '  MulBackward0', '   AccumulateGrad', '   SubBackward0', '    SigmoidBackward0', '     AccumulateGrad'], [[[0.4779977798461914, 0.4900992810726166], [0.441228985786438, 0.5]], None], None, 'x.norm()', [[0.4866642951965332, -0.32444286346435547], [0.8111071586608887, 0.0]], ['MulBackward0', ' MaskedFillBackward0', '  DivBackward0', '   AccumulateGrad', '   LinalgVectorNormBackward0', '    AccumulateGrad'], [[[0.8537968993186951, 2.1344926357269287], [0.3415186405181885, 1.6222143173217773]], None], None, 'x.norm(dim=1)', [[0.8320502638816833, -0.5547001957893372], [1.0, 0.0]], ['MulBackward0', ' MaskedFillBackward0', '  DivBackward0', '   AccumulateGrad', '   UnsqueezeBackward0', '    LinalgVectorNormBackward0', '     AccumulateGrad'], [[[2.133462429046631, 3.200193405151367], [0.0, 2.0]], None], None, 'x.norm(p=1)', [[1.0, -1.0], [1.0, 0.0]], ['MulBackward0', ' SgnBackward0', '  AccumulateGrad'], [[[0.0, 0.0], [0.0, 0.0]], None], None, None, 'y.norm(p=3, dim=0)', [[0.9507396817207336, 0.3738361895084381], [-0.17462566494941711, 0.8411314487457275]], ['MulBackward0', ' MulBackward0', '  AccumulateGrad', '  PowBackward0', '   AbsBackward0', '    AccumulateGrad', ' MaskedFillBackward0', '  DivBackward0', '   PowBackward0', '    UnsqueezeBackward0', '     LinalgVectorNormBackward0', '      AccumulateGrad'], [None, [[0.6607456207275391, 0.4806462526321411], [1.5417401790618896, -0.3204314708709717]]], 'x.norm(p=1.5, dim=1, keepdim=True)', [[0.8651403188705444, -0.7063841223716736], [0.9999999403953552, 0.0]], ['MulBackward0', ' MulBackward0', '  SgnBackward0', '   AccumulateGrad', '  PowBackward0', '   AbsBackward0', '    AccumulateGrad', ' MaskedFillBackward0', '  DivBackward0', '   PowBackward0', '    LinalgVectorNormBackward0', '     AccumulateGrad'], [[[1.2705681324005127, 1.9058524370193481], [0.0, NAN]], None], None, 'x.norm(p=0.5, dim=0)', [[2.29099440574646, -1.0], [1.7745966911315918, 0.0]], ['MulBackward0', ' MulBackward0', '  MulBackward0', '   SgnBackward0', '    AccumulateGrad', '   MaskedFillBackward0', '    PowBackward0', '     AbsBackward0', '      AccumulateGrad', ' PowBackward0', '  UnsqueezeBackward0', '   LinalgVectorNormBackward0', '    AccumulateGrad'], [[[-0.8606629371643066, 0.0], [0.5163977146148682, NAN]], None], None, 'x.norm(p=inf)', [[0.0, -0.0], [1.0, 0.0]], ['MulBackward0', ' SgnBackward0', '  AccumulateGrad'], [[[0.0, 0.0], [0.0, 0.0]], None], None, '(x + 1).prod()', [[1.2000000476837158, 1.9499999284744263], [1.0399999618530273, 1.559999942779541]], ['MulBackward0', ' DivBackward0', '  ProdBackward0', '   AddBackward0', '    AccumulateGrad', '  AddBackward0', '   AccumulateGrad'], [[[3.5, 4.75], [3.1399998664855957, 4.190000057220459]], None], None, '(x + 1).prod(0)', [[1.5, 1.0], [1.2999999523162842, 0.800000011920929]], ['MulBackward0', ' DivBackward0', '  UnsqueezeBackward0', '   ProdBackward1', '    AddBackward0', '     AccumulateGrad', '  AddBackward0', '   AccumulateGrad'], [[[1.0000001192092896, 1.0], [1.0, 1.0]], None], None, '(x + 1).cumprod(1)', [[1.7999999523162842, 1.2999999523162842], [2.0, 1.5]], ['DivBackward0', ' FlipBackward0', '  CumsumBackward0', '   FlipBackward0', '    MulBackward0', '     CumprodBackward0', '      AddBackward0', '       AccumulateGrad', ' AddBackward0', '  AccumulateGrad'], [[[1.0, 0.9999998807907104], [0.9999998807907104, 1.0]], None], None, 'x.std()', [[0.16081689298152924, -0.37523943185806274], [0.37523940205574036, -0.16081689298152924]], ['MulBackward0', ' MulBackward1', '  MaskedFillBackward0', '   DivBackward0', '    MulBackward1', '     StdBackward0', '      AccumulateGrad', ' SubBackward0', '  AccumulateGrad', '  MeanBackward0', '   AccumulateGrad'], [[[1.6526609414313498e-08, -3.856209218611184e-08], [3.856208863339816e-08, -1.6526609414313498e-08]], None], None, 'x.std(1)', [[0.7071067094802856, -0.7071067094802856], [0.7071067690849304, -0.7071067690849304]], ['MulBackward0', ' MulBackward1', '  UnsqueezeBackward0', '   MaskedFillBackward0', '    DivBackward0', '     MulBackward1', '      StdBackward0', '       AccumulateGrad', ' SubBackward0', '  AccumulateGrad', '  MeanBackward1', '   AccumulateGrad'], [[[0.0, 0.0], [0.0, 0.0]], None], None, 'x[0].var(0)', [[0.5, -0.5], [0.0, 0.0]], ['SelectBackwardBackward0', ' MulBackward0', '  SubBackward0', '   SelectBackward0', '    AccumulateGrad', '   MeanBackward1', '    SelectBackward0', '     AccumulateGrad'], [[[0.0, 0.0], [0.0, 0.0]], None], None, 'x.var(1, keepdim=True)', [[0.5, -0.5], [0.5, -0.5]], ['MulBackward0', ' SubBackward0', '  AccumulateGrad', '  MeanBackward1', '   AccumulateGrad'], [[[0.0, 0.0], [0.0, 0.0]], None], None, 'T.addcmul(x, x, y, value=2)', [[2.4000000953674316, 1.7999999523162842], [0.3999999761581421, 2.200000047683716]], ['AddBackward0', ' MulBackward0', '  MulBackward1', '   AccumulateGrad'], [None, [[2.0, 2.0], [2.0, 2.0]]], 'T.addcmul(x, x, y, value=2)', [[0.6000000238418579, -0.4000000059604645], [1.0, 0.0]], ['MulBackward0', ' MulBackward1', '  AccumulateGrad'], [[[2.0, 2.0], [2.0, 2.0]], None], 'T.addcdiv(x, x, y, value=0.5)', [[1.7142857313156128, 2.25], [-0.6666666269302368, 1.8333332538604736]], ['AddBackward0', ' MulBackward0', '  DivBackward0', '   AccumulateGrad'], [None, [[-1.0204081535339355, -3.125], [-5.55555534362793, -1.3888888359069824]]], 'T.addcdiv(x, x, y, value=0.5)', [[-0.30612248182296753, 0.6249999403953552], [-2.777777671813965, -0.0]], ['MulBackward0', ' DivBackward0', '  MulBackward1', '   AccumulateGrad', '  MulBackward0', '   AccumulateGrad', '   AccumulateGrad'], [[[-1.0204081535339355, -3.124999761581421], [-5.55555534362793, -1.3888888359069824]], [[0.874635636806488, -3.124999523162842], [-18.518518447875977, 0.0]]], 'y % x[0, 0]', [[-4.0, 0.0], [0.0, 0.0]], ['SelectBackwardBackward0', ' SelectBackwardBackward0', '  SumBackward0', '   MulBackward0', '    DivBackward2', '     AccumulateGrad', '     SelectBackward0', '      SelectBackward0', '       AccumulateGrad'], [[[0.0, 0.0], [0.0, 0.0]], [[0.0, 0.0], [0.0, 0.0]]], 'y % x[0, 0]', [[1.0, 1.0], [1.0, 1.0]], 'no graph', 'x.fmod(y)', [[1.0, 1.0], [1.0, 1.0]], 'no graph', 'x.fmod(y)', [[-0.0, 0.0], [1.0, -0.0]], ['MulBackward0', ' DivBackward2', '  AccumulateGrad', '  AccumulateGrad'], [[[0.0, 0.0], [0.0, 0.0]], [[0.0, 0.0], [0.0, 0.0]]], 'x.remainder(y)', [[1.0, 1.0], [1.0, 1.0]], 'no graph', 'x.remainder(y)', [[-0.0, 1.0], [2.0, -0.0]], ['MulBackward0', ' DivBackward2', '  AccumulateGrad', '  AccumulateGrad'], [[[0.0, 0.0], [0.0, 0.0]], [[0.0, 0.0], [0.0, 0.0]]], 'x.max().sin()', [[0.0, 0.7648422122001648], [0.0, 0.0]], ['MaskedFillBackward1', ' DivBackward0', '  MulBackward0', '   CosBackward0', '    MaxBackward1', '     AccumulateGrad'], 'x.min(0)[0].sin()', [[0.9553365111351013, 0.0], [0.0, 0.9950041770935059]], ['ScatterBackward0', ' UnsqueezeBackward0', '  MulBackward0', '   CosBackward0', '    MinBackward0', '     AccumulateGrad'], 'x.max(1, keepdim=True)[0].sin()', [[0.0, 0.7648422122001648], [0.8775825500488281, 0.0]], ['ScatterBackward0', ' MulBackward0', '  CosBackward0', '   MaxBackward0', '    AccumulateGrad'], 'e.max(0)[0].sin()', 0.8775825500488281, ['ScatterBackward0', ' MulBackward0', '  CosBackward0', '   MaxBackward0', '    AccumulateGrad'], 'x.median().sin()', [[0.9553365111351013, 0.0], [0.0, 0.0]], ['MaskedFillBackward1', ' DivBackward0', '  MulBackward0', '   CosBackward0', '    MedianBackward0', '     AccumulateGrad'], 'x.amax(0).sin()', [[0.0, 0.7648422122001648], [0.8775825500488281, 0.0]], ['MulBackward0', ' DivBackward0', '  ViewBackward0', '   MulBackward0', '    CosBackward0', '     AmaxBackward0', '      AccumulateGrad'], 'T.maximum(x, y).sin()', [[0.0, 0.7648422122001648], [0.8775825500488281, 0.0]], ['MaskedFillBackward0', ' WhereBackward0', '  DivBackward1', '   MulBackward0', '    CosBackward0', '     MaximumBackward0', '      AccumulateGrad', '      AccumulateGrad', '  MulBackward0', '   CosBackward0', '    MaximumBackward0', '     AccumulateGrad', '     AccumulateGrad'], 'T.maximum(x, y).sin()', [[0.7648422122001648, 0.0], [0.0, -0.416146844625473]], ['MaskedFillBackward0', ' WhereBackward0', '  DivBackward1', '   MulBackward0', '    CosBackward0', '     MaximumBackward0', '      AccumulateGrad', '      AccumulateGrad', '  MulBackward0', '   CosBackward0', '    MaximumBackward0', '     AccumulateGrad', '     AccumulateGrad'], 'T.minimum(x, y.t()).sin()', [[0.9553365111351013, 0.0], [0.0, 0.9950041770935059]], ['MaskedFillBackward0', ' WhereBackward0', '  DivBackward1', '   MulBackward0', '    CosBackward0', '     MinimumBackward0', '      AccumulateGrad', '      TBackward0', '       AccumulateGrad', '  MulBackward0', '   CosBackward0', '    MinimumBackward0', '     AccumulateGrad', '     TBackward0', '      AccumulateGrad'], 'T.minimum(x, y.t()).sin()', [[0.0, 1.0], [0.9553365111351013, 0.0]], ['TBackward0', ' MaskedFillBackward0', '  WhereBackward0', '   DivBackward1', '    MulBackward0', '     CosBackward0', '      MinimumBackward0', '       AccumulateGrad', '       TBackward0', '        AccumulateGrad', '   MulBackward0', '    CosBackward0', '     MinimumBackward0', '      AccumulateGrad', '      TBackward0', '       AccumulateGrad'], 'x ** y', [[1.0045270919799805, 0.0], [0.4873514473438263, 0.20000000298023224]], ['WhereBackward0', ' MulBackward0', '  MulBackward0', '   AccumulateGrad', '   PowBackward1', '    AccumulateGrad', '    SubBackward1', '     AccumulateGrad'], 'x ** y', [[-0.5183243155479431, -0.3566749691963196], [-0.5630104541778564, -0.02302585355937481]], ['MulBackward0', ' WhereBackward0', '  MulBackward0', '   PowBackward1', '    AccumulateGrad', '    AccumulateGrad', '   LogBackward0', '    AccumulateGrad'], 'x.sin() ** y.cos()', [[0.9732485413551331, 0.7648422122001648], [0.8663721084594727, -10.82041072845459]], ['MulBackward0', ' WhereBackward0', '  MulBackward0', '   MulBackward0', '    CosBackward0', '     AccumulateGrad', '    PowBackward1', '     SinBackward0', '      AccumulateGrad', '     SubBackward1', '      CosBackward0', '       AccumulateGrad', ' CosBackward0', '  AccumulateGrad'], 'x.sin() ** y.cos()', [[0.3091188371181488, 0.0], [0.10763519257307053, 5.466182708740234]], ['MulBackward0', ' MulBackward0', '  WhereBackward0', '   MulBackward0', '    PowBackward1', '     SinBackward0', '      AccumulateGrad', '     CosBackward0', '      AccumulateGrad', '    LogBackward0', '     SinBackward0', '      AccumulateGrad', ' NegBackward0', '  SinBackward0', '   AccumulateGrad'], 'T.addmm(e, x.t(), y)', [[0.699999988079071, 0.699999988079071], [2.299999952316284, 2.299999952316284]], ['TBackward0', ' TBackward0', '  MmBackward0', '   AccumulateGrad'], 'T.addmm(e, x.t(), y)', [[1.0, 1.0], [0.6000000238418579, 0.6000000238418579]], ['MmBackward0', ' TBackward0', '  TBackward0', '   AccumulateGrad'], 'T.addmm(e, x.t(), y)', 4.0, [], 'T.addmm(e, x, y.t())', [[1.0, 2.0], [1.0, 2.0]], ['MmBackward0', ' TBackward0', '  TBackward0', '   AccumulateGrad'], 'T.addmm(e, x, y.t())', [[0.800000011920929, 0.800000011920929], [0.800000011920929, 0.800000011920929]], ['TBackward0', ' TBackward0', '  MmBackward0', '   AccumulateGrad'], 'T.addmm(e, x, y.t())', 4.0, [], 'x.clone().sin_()', [[0.9553365111351013, 0.7648422122001648], [0.8775825500488281, 0.9950041770935059]], ['MulBackward0', ' CosBackward0', '  CloneBackward0', '   CloneBackward0', '    AccumulateGrad'], 'x.clone().mul_(y)', [[0.699999988079071, 0.0], [0.30000001192092896, 2.0]], ['MulBackward0', ' AccumulateGrad'], 'x.clone().mul_(y)', [[0.30000001192092896, 0.699999988079071], [0.5, 0.10000000149011612]], ['MulBackward0', ' CloneBackward0', '  CloneBackward0', '   AccumulateGrad'], 'x.clone().div_(y + 1)', [[0.5882352590560913, 1.0], [0.7692307829856873, 0.3333333432674408]], ['DivBackward0', ' AddBackward0', '  AccumulateGrad'], 'x.clone().div_(y + 1)', [[-0.10380622744560242, -0.699999988079071], [-0.2958579957485199, -0.011111111380159855]], ['MulBackward0', ' DivBackward0', '  DivBackward0', '   CloneBackward0', '    CloneBackward0', '     AccumulateGrad', '   AddBackward0', '    AccumulateGrad', '  AddBackward0', '   AccumulateGrad'], 'x.add(y.sin(), alpha=2).sin()', [[-0.01763816922903061, 0.7648422122001648], [0.4615626931190491, -0.34082895517349243]], ['MulBackward0', ' CosBackward0', '  AddBackward0', '   AccumulateGrad', '   SinBackward0', '    AccumulateGrad'], 'x.add(y.sin(), alpha=2).sin()', [[-0.02698083221912384, 1.5296844244003296], [0.8818953633308411, 0.2836697995662689]], ['MulBackward0', ' MulBackward1', '  MulBackward0', '   CosBackward0', '    AddBackward0', '     AccumulateGrad', '     SinBackward0', '      AccumulateGrad', ' CosBackward0', '  AccumulateGrad'], 'x.sub(y.sin(), alpha=2).sin()', [[0.5499972701072693, 0.7648422122001648], [0.9958586692810059, -0.14726094901561737]], ['MulBackward0', ' CosBackward0', '  SubBackward0', '   AccumulateGrad', '   SinBackward0', '    AccumulateGrad'], 'x.sub(y.sin(), alpha=2).sin()', [[-0.8413222432136536, -1.5296844244003296], [-1.9027602672576904, -0.12256436049938202]], ['MulBackward0', ' MulBackward1', '  NegBackward0', '   MulBackward0', '    CosBackward0', '     SubBackward0', '      AccumulateGrad', '      SinBackward0', '       AccumulateGrad', ' CosBackward0', '  AccumulateGrad'], 'x.rsqrt().cosh()', [[-9.199150085449219, -1.2813184261322021], [-2.7365972995758057, -186.43218994140625]], ['MulBackward0', ' MulBackward1', '  MulBackward0', '   SinhBackward0', '    RsqrtBackward0', '     AccumulateGrad', ' PowBackward0', '  RsqrtBackward0', '   AccumulateGrad'], 'x.lerp(y, 0.25).sin()', [[0.6907957196235657, 0.6489929556846619], [0.6753353476524353, 0.6293942332267761]], ['MulBackward1', ' MulBackward0', '  CosBackward0', '   LerpBackward0', '    AccumulateGrad', '    AccumulateGrad'], 'x.lerp(y, 0.25).sin()', [[0.23026524484157562, 0.21633099019527435], [0.22511178255081177, 0.20979808270931244]], ['MulBackward1', ' MulBackward0', '  CosBackward0', '   LerpBackward0', '    AccumulateGrad', '    AccumulateGrad'], 'x.lerp(y, y).sin()', [[0.2509388029575348, 0.7648422122001648], [0.6333261728286743, 0.725932240486145]], ['MulBackward0', ' MulBackward0', '  CosBackward0', '   LerpBackward1', '    AccumulateGrad', '    AccumulateGrad', '    AccumulateGrad', ' SubBackward0', '  AccumulateGrad'], 'x.lerp(y, y).sin()', [[0.9201089143753052, -0.5353895425796509], [0.09047520160675049, -2.8311357498168945]], ['AddBackward0', ' MulBackward0', '  MulBackward0', '   CosBackward0', '    LerpBackward1', '     AccumulateGrad', '     AccumulateGrad', '     AccumulateGrad', '  AccumulateGrad', ' MulBackward0', '  MulBackward0', '   CosBackward0', '    LerpBackward1', '     AccumulateGrad', '     AccumulateGrad', '     AccumulateGrad', '  SubBackward0', '   AccumulateGrad', '   AccumulateGrad'], 'F.binary_cross_entropy_with_logits(x, y.sigmoid())', [[-0.023436307907104492, 0.042046934366226196], [0.01200421154499054, -0.08895446360111237]], ['DivBackward1', ' MulBackward0', '  SubBackward0', '   SigmoidBackward0', '    AccumulateGrad', '   SigmoidBackward0', '    AccumulateGrad'], 'F.binary_cross_entropy_with_logits(x, y.sigmoid())', [[-0.016628466546535492, -0.04374999925494194], [-0.030557289719581604, -0.002624840708449483]], ['SigmoidBackwardBackward0', ' DivBackward1', '  MulBackward0', '   NegBackward0', '    AccumulateGrad', ' SigmoidBackward0', '  AccumulateGrad'], "F.binary_cross_entropy_with_logits(x, y.sigmoid(), pos_weight=T.tensor([1., 2.]), reduction='sum')", [[-0.09374523162841797, 0.002281665802001953], [0.04801684617996216, -0.7742148041725159]], ['MulBackward0', ' SubBackward0', '  MulBackward0', '   SubBackward0', '    AddBackward1', '     MulBackward0', '      SigmoidBackward0', '       AccumulateGrad', '    SigmoidBackward0', '     AccumulateGrad', '   SigmoidBackward0', '    AccumulateGrad', '  MulBackward0', '   SigmoidBackward0', '    AccumulateGrad'], "F.binary_cross_entropy_with_logits(x, y.sigmoid(), pos_weight=T.tensor([1., 2.]), reduction='sum')", [[-0.06651386618614197, -0.0742034763097763], [-0.12222915887832642, 0.057158179581165314]], ['SigmoidBackwardBackward0', ' MulBackward0', '  SubBackward0', '   LogSigmoidBackward0', '    NegBackward0', '     AccumulateGrad', '   MulBackward0', '    LogSigmoidBackward0', '     AccumulateGrad', ' SigmoidBackward0', '  AccumulateGrad'], 'c.squeeze() ** 2', [[[0.6000000238418579], [0.4000000059604645]]], ['UnsqueezeBackward0', ' UnsqueezeBackward0', '  MulBackward0', '   MulBackward1', '    PowBackward0', '     SqueezeBackward0', '      AccumulateGrad'], 'c.squeeze(0) ** 2', [[[0.6000000238418579], [0.4000000059604645]]], ['UnsqueezeBackward0', ' MulBackward0', '  MulBackward1', '   PowBackward0', '    SqueezeBackward1', '     AccumulateGrad'], 'c.squeeze(1) ** 2', [[[0.6000000238418579], [0.4000000059604645]]], ['MulBackward0', ' MulBackward1', '  PowBackward0', '   SqueezeBackward1', '    AccumulateGrad'], 'c.squeeze((0, 2)) ** 2', [[[0.6000000238418579], [0.4000000059604645]]], ['UnsqueezeBackward0', ' UnsqueezeBackward0', '  MulBackward0', '   MulBackward1', '    PowBackward0', '     SqueezeBackward2', '      AccumulateGrad'], 'e.squeeze(0) ** 2', 1.0, ['MulBackward0', ' MulBackward1', '  PowBackward0', '   SqueezeBackward1', '    AccumulateGrad'], 'e.var(0, correction=0)', 0.0, ['MulBackward0', ' SubBackward0', '  AccumulateGrad', '  MeanBackward0', '   AccumulateGrad'], 'x.mean(0).sin()', [[0.46053048968315125, 0.46053048968315125], [0.46053048968315125, 0.46053048968315125]], ['DivBackward1', ' ExpandBackward0', '  UnsqueezeBackward0', '   MulBackward0', '    CosBackward0', '     MeanBackward1', '      AccumulateGrad'], 'dim 0 appears multiple times in the list of dims', 'dim 2 appears multiple times in the list of dims', "result type Float can't be cast to the desired output type Long", "The function 'binary_cross_entropy_with_logits' is not differentiable with respect to argument 'pos_weight'. This input cannot have requires_grad True.", "The function 'binary_cross_entropy' is not differentiable with respect to argument 'weight'. This input cannot have requires_grad True."]),
    # binary_cross_entropy(_with_logits) give a target that requires grad its gradient (-logit(p), -x, or with
    # pos_weight log_sigmoid(-x) - pw log_sigmoid(x)), times weight, over N for "mean"; before, silently none.
    # A target outside [0, 1] is refused as PyTorch refuses it
    "loss_target_gradients": ("""
F = T.nn.functional
p = T.tensor([[0.3, 0.8], [0.5, 0.1]], requires_grad=True)
x = T.tensor([[0.3, -0.8], [2.0, 0.0]], requires_grad=True)
t = T.tensor([[0.2, 0.9], [0.0, 1.0]], requires_grad=True)
w, pw = T.tensor([1.0, 3.0]), T.tensor([1.0, 2.0])
out = []
for red in ["mean", "sum", "none"]:
    out += list(T.autograd.grad(F.binary_cross_entropy(p, t, reduction=red).sum(), [p, t]))
    out += list(T.autograd.grad(F.binary_cross_entropy(p, t, weight=w, reduction=red).sum(), [p, t]))
    out += list(T.autograd.grad(F.binary_cross_entropy_with_logits(x, t, reduction=red).sum(), [x, t]))
    out += list(T.autograd.grad(F.binary_cross_entropy_with_logits(x, t, w, reduction=red, pos_weight=pw).sum(), [x, t]))
gx, gt = T.autograd.grad(F.binary_cross_entropy_with_logits(x, t), [x, t], create_graph=True)
out += list(T.autograd.grad((gx + gt).sum(), [x, t]))
for bad in ["F.binary_cross_entropy(p, t * 2)", "F.binary_cross_entropy(p * 2, t * 2)"]:
    try:
        eval(bad)
        out += ["no error"]
    except RuntimeError as err:
        out += [str(err)]
""", [[[0.1190476268529892, -0.15624994039535522], [0.5, -2.5]], [[0.2118244469165802, -0.3465736210346222], [-0.0, 0.5493061542510986]], [[0.1190476268529892, -0.4687498211860657], [0.5, -7.5]], [[0.2118244469165802, -1.039720892906189], [-0.0, 1.647918462753296]], [[0.09361062943935394, -0.1474936157464981], [0.22019925713539124, -0.125]], [[-0.07500000298023224, 0.20000000298023224], [-0.5, -0.0]], [[0.09361062943935394, -0.9082136750221252], [0.22019925713539124, -0.75]], [[-0.07500000298023224, 1.478325366973877], [-0.5, 0.5198603868484497]], [[0.4761905074119568, -0.6249997615814209], [2.0, -10.0]], [[0.8472977876663208, -1.3862944841384888], [-0.0, 2.1972246170043945]], [[0.4761905074119568, -1.8749992847442627], [2.0, -30.0]], [[0.8472977876663208, -4.158883571624756], [-0.0, 6.591673851013184]], [[0.37444251775741577, -0.5899744629859924], [0.8807970285415649, -0.5]], [[-0.30000001192092896, 0.800000011920929], [-2.0, -0.0]], [[0.37444251775741577, -3.632854700088501], [0.8807970285415649, -3.0]], [[-0.30000001192092896, 5.913301467895508], [-2.0, 2.079441547393799]], [[0.4761905074119568, -0.6249997615814209], [2.0, -10.0]], [[0.8472977876663208, -1.3862944841384888], [-0.0, 2.1972246170043945]], [[0.4761905074119568, -1.8749992847442627], [2.0, -30.0]], [[0.8472977876663208, -4.158883571624756], [-0.0, 6.591673851013184]], [[0.37444251775741577, -0.5899744629859924], [0.8807970285415649, -0.5]], [[-0.30000001192092896, 0.800000011920929], [-2.0, -0.0]], [[0.37444251775741577, -3.632854700088501], [0.8807970285415649, -3.0]], [[-0.30000001192092896, 5.913301467895508], [-2.0, 2.079441547393799]], [[-0.1888854205608368, -0.1965225785970688], [-0.22375158965587616, -0.1875]], [[-0.25, -0.25], [-0.25, -0.25]], 'all elements of target should be between 0 and 1', 'all elements of input should be between 0 and 1']),
    # binary_cross_entropy under create_graph=True: the input's gradient is one BinaryCrossEntropyBackwardBackward0
    # node (edges to grad, input and target), the target's -logit(p) * grad in PyTorch's steps (LogitBackward0,
    # NegBackward0, MulBackward0, the weight, DivBackward1); second derivatives through both
    "bce_second_order": ("""
F = T.nn.functional
def walk(fn, d=0):
    if fn is None:
        return []
    return [d * " " + type(fn).__name__] + [x for n, _ in fn.next_functions for x in walk(n, d + 1)]
x = T.tensor([[0.3, -0.8], [2.0, 0.0]], requires_grad=True)
t = T.tensor([[0.2, 0.9], [0.0, 1.0]], requires_grad=True)
out = []
for red in ["mean", "sum", "none"]:
    for w in [None, T.tensor([1.0, 3.0])]:
        gx, gt = T.autograd.grad(F.binary_cross_entropy(x.sigmoid(), t.sigmoid(), w, reduction=red).sum(), [x, t],
                                 create_graph=True)
        out += [gx, walk(gx.grad_fn), gt, walk(gt.grad_fn)]
        out += list(T.autograd.grad((gx * gx).sum() + gt.sum(), [x, t]))
""", [[[0.006152138113975525, -0.10023099184036255], [0.09519924968481064, -0.057764649391174316]], ['SigmoidBackwardBackward0', ' BinaryCrossEntropyBackwardBackward0', '  SigmoidBackward0', '   AccumulateGrad', '  SigmoidBackward0', '   AccumulateGrad', ' SigmoidBackward0', '  AccumulateGrad'], [[-0.018563739955425262, 0.041100066155195236], [-0.12499997019767761, -0.0]], ['SigmoidBackwardBackward0', ' DivBackward1', '  MulBackward0', '   NegBackward0', '    LogitBackward0', '     SigmoidBackward0', '      AccumulateGrad', ' SigmoidBackward0', '  AccumulateGrad'], [[-0.06112716719508171, -0.0620952732861042], [-0.05750234052538872, -0.056373562663793564]], [[0.0010888311080634594, -0.007041323930025101], [-0.01189990621060133, 0.005678609479218721]], [[0.006152138113975525, -0.30069294571876526], [0.09519924968481064, -0.17329394817352295]], ['SigmoidBackwardBackward0', ' BinaryCrossEntropyBackwardBackward0', '  SigmoidBackward0', '   AccumulateGrad', '  SigmoidBackward0', '   AccumulateGrad', ' SigmoidBackward0', '  AccumulateGrad'], [[-0.018563739955425262, 0.12330020219087601], [-0.12499997019767761, -0.0]], ['SigmoidBackwardBackward0', ' DivBackward1', '  MulBackward0', '   MulBackward0', '    NegBackward0', '     LogitBackward0', '      SigmoidBackward0', '       AccumulateGrad', ' SigmoidBackward0', '  AccumulateGrad'], [[-0.06112716719508171, -0.2506069540977478], [-0.05750234052538872, -0.21244417130947113]], [[0.0010888311080634594, 0.04066852480173111], [-0.01189990621060133, 0.051107488572597504]], [[0.0246085524559021, -0.4009239673614502], [0.38079699873924255, -0.23105859756469727]], ['SigmoidBackwardBackward0', ' BinaryCrossEntropyBackwardBackward0', '  SigmoidBackward0', '   AccumulateGrad', '  SigmoidBackward0', '   AccumulateGrad', ' SigmoidBackward0', '  AccumulateGrad'], [[-0.07425495982170105, 0.16440026462078094], [-0.49999988079071045, -0.0]], ['SigmoidBackwardBackward0', ' MulBackward0', '  NegBackward0', '   LogitBackward0', '    SigmoidBackward0', '     AccumulateGrad', ' SigmoidBackward0', '  AccumulateGrad'], [[-0.2354850322008133, -0.3770233988761902], [-0.17003746330738068, -0.3121412396430969]], [[-0.004781212192028761, 0.09541971236467361], [-0.19039849936962128, 0.09085775166749954]], [[0.0246085524559021, -1.202771782875061], [0.38079699873924255, -0.6931757926940918]], ['SigmoidBackwardBackward0', ' BinaryCrossEntropyBackwardBackward0', '  SigmoidBackward0', '   AccumulateGrad', '  SigmoidBackward0', '   AccumulateGrad', ' SigmoidBackward0', '  AccumulateGrad'], [[-0.07425495982170105, 0.49320080876350403], [-0.49999988079071045, -0.0]], ['SigmoidBackwardBackward0', ' MulBackward0', '  MulBackward0', '   NegBackward0', '    LogitBackward0', '     SigmoidBackward0', '      AccumulateGrad', ' SigmoidBackward0', '  AccumulateGrad'], [[-0.2354850322008133, -2.1602084636688232], [-0.17003746330738068, -1.6295994520187378]], [[-0.004781212192028761, 1.2749390602111816], [-0.19039849936962128, 0.8177198171615601]], [[0.0246085524559021, -0.4009239673614502], [0.38079699873924255, -0.23105859756469727]], ['SigmoidBackwardBackward0', ' BinaryCrossEntropyBackwardBackward0', '  SigmoidBackward0', '   AccumulateGrad', '  SigmoidBackward0', '   AccumulateGrad', ' SigmoidBackward0', '  AccumulateGrad'], [[-0.07425495982170105, 0.16440026462078094], [-0.49999988079071045, -0.0]], ['SigmoidBackwardBackward0', ' MulBackward0', '  NegBackward0', '   LogitBackward0', '    SigmoidBackward0', '     AccumulateGrad', ' SigmoidBackward0', '  AccumulateGrad'], [[-0.2354850322008133, -0.3770233988761902], [-0.17003746330738068, -0.3121412396430969]], [[-0.004781212192028761, 0.09541971236467361], [-0.19039849936962128, 0.09085775166749954]], [[0.0246085524559021, -1.202771782875061], [0.38079699873924255, -0.6931757926940918]], ['SigmoidBackwardBackward0', ' BinaryCrossEntropyBackwardBackward0', '  SigmoidBackward0', '   AccumulateGrad', '  SigmoidBackward0', '   AccumulateGrad', ' SigmoidBackward0', '  AccumulateGrad'], [[-0.07425495982170105, 0.49320080876350403], [-0.49999988079071045, -0.0]], ['SigmoidBackwardBackward0', ' MulBackward0', '  MulBackward0', '   NegBackward0', '    LogitBackward0', '     SigmoidBackward0', '      AccumulateGrad', ' SigmoidBackward0', '  AccumulateGrad'], [[-0.2354850322008133, -2.1602084636688232], [-0.17003746330738068, -1.6295994520187378]], [[-0.004781212192028761, 1.2749390602111816], [-0.19039849936962128, 0.8177198171615601]]]),
    # kl_div with a target that requires grad: PyTorch's C++ builds the right-hand operand first, so the target's
    # two gradient parts are summed in that order (AddBackward0's edges under create_graph=True)
    "kl_div_target_order": ("""
F = T.nn.functional
def walk(fn, d=0):
    if fn is None:
        return []
    return [d * " " + type(fn).__name__] + [x for n, _ in fn.next_functions for x in walk(n, d + 1)]
x = T.tensor([[-0.04, -1.2], [-0.5, -2.0]], requires_grad=True)
t = T.tensor([[0.3, 0.7], [0.6, 0.1]], requires_grad=True)
out = []
for red in ["none", "sum", "batchmean"]:
    for log_target in [False, True]:
        gt, gx = T.autograd.grad(F.kl_div(x, t, reduction=red, log_target=log_target).sum(), [t, x], create_graph=True)
        out += [gt, walk(gt.grad_fn), gx, walk(gx.grad_fn)]
        out += list(T.autograd.grad((gt * gt).sum(), [t, x]))
""", [[[-0.16397282481193542, 1.843325138092041], [0.9891744256019592, 0.6974148750305176]], ['AddBackward0', ' AddBackward0', '  MaskedFillBackward0', '   XlogyBackward0', '    AccumulateGrad', '  DivBackward0', '   MulBackward0', '    AccumulateGrad', '   AccumulateGrad', ' MulBackward0', '  AccumulateGrad'], [[-0.30000001192092896, -0.699999988079071], [-0.6000000238418579, -0.10000000149011612]], ['MulBackward0', ' AccumulateGrad'], [[-1.0931521654129028, 5.266643524169922], [3.2972476482391357, 13.948297500610352]], [[0.32794564962387085, -3.686650276184082], [-1.9783488512039185, -1.3948297500610352]], [[1.8088109493255615, 5.839882850646973], [3.8264498710632324, 3.426029920578003]], ['AddBackward0', ' MulBackward0', '  MulBackward0', '   SubBackward0', '    AccumulateGrad', '    AccumulateGrad', '  ExpBackward0', '   AccumulateGrad', ' MulBackward0', '  ExpBackward0', '   AccumulateGrad'], [[-1.3498588800430298, -2.0137526988983154], [-1.822118878364563, -1.1051709651947021]], ['NegBackward0', ' MulBackward0', '  ExpBackward0', '   AccumulateGrad'], [[11.426872253417969, 91.72862243652344], [43.22793197631836, 31.048057556152344]], [[-4.883278846740723, -23.520158767700195], [-13.944493293762207, -7.572697639465332]], [[-0.16397282481193542, 1.843325138092041], [0.9891744256019592, 0.6974148750305176]], ['AddBackward0', ' AddBackward0', '  MaskedFillBackward0', '   XlogyBackward0', '    AccumulateGrad', '  DivBackward0', '   MulBackward0', '    AccumulateGrad', '   AccumulateGrad', ' MulBackward0', '  AccumulateGrad'], [[-0.30000001192092896, -0.699999988079071], [-0.6000000238418579, -0.10000000149011612]], ['MulBackward0', ' AccumulateGrad'], [[-1.0931521654129028, 5.266643524169922], [3.2972476482391357, 13.948297500610352]], [[0.32794564962387085, -3.686650276184082], [-1.9783488512039185, -1.3948297500610352]], [[1.8088109493255615, 5.839882850646973], [3.8264498710632324, 3.426029920578003]], ['AddBackward0', ' MulBackward0', '  MulBackward0', '   SubBackward0', '    AccumulateGrad', '    AccumulateGrad', '  ExpBackward0', '   AccumulateGrad', ' MulBackward0', '  ExpBackward0', '   AccumulateGrad'], [[-1.3498588800430298, -2.0137526988983154], [-1.822118878364563, -1.1051709651947021]], ['NegBackward0', ' MulBackward0', '  ExpBackward0', '   AccumulateGrad'], [[11.426872253417969, 91.72862243652344], [43.22793197631836, 31.048057556152344]], [[-4.883278846740723, -23.520158767700195], [-13.944493293762207, -7.572697639465332]], [[-0.08198641240596771, 0.9216625690460205], [0.4945872128009796, 0.3487074375152588]], ['AddBackward0', ' AddBackward0', '  MaskedFillBackward0', '   XlogyBackward0', '    AccumulateGrad', '  DivBackward0', '   MulBackward0', '    AccumulateGrad', '   AccumulateGrad', ' MulBackward0', '  AccumulateGrad'], [[-0.15000000596046448, -0.3499999940395355], [-0.30000001192092896, -0.05000000074505806]], ['MulBackward0', ' AccumulateGrad'], [[-0.2732880413532257, 1.3166608810424805], [0.8243119120597839, 3.487074375152588]], [[0.08198641240596771, -0.9216625690460205], [-0.4945872128009796, -0.3487074375152588]], [[0.9044054746627808, 2.9199414253234863], [1.9132249355316162, 1.7130149602890015]], ['AddBackward0', ' MulBackward0', '  MulBackward0', '   SubBackward0', '    AccumulateGrad', '    AccumulateGrad', '  ExpBackward0', '   AccumulateGrad', ' MulBackward0', '  ExpBackward0', '   AccumulateGrad'], [[-0.6749294400215149, -1.0068763494491577], [-0.9110594391822815, -0.5525854825973511]], ['NegBackward0', ' MulBackward0', '  ExpBackward0', '   AccumulateGrad'], [[2.856718063354492, 22.93215560913086], [10.80698299407959, 7.762014389038086]], [[-1.2208197116851807, -5.880039691925049], [-3.4861233234405518, -1.893174409866333]]]),
    # cumprod along a dim of size 1 passes the gradient as it is (PyTorch's cumprod_backward), so under
    # create_graph=True the gradient's node is the incoming gradient's own
    "cumprod_size_one_dim": ("""
def walk(fn, d=0):
    if fn is None:
        return []
    return [d * " " + type(fn).__name__] + [x for n, _ in fn.next_functions for x in walk(n, d + 1)]
x = T.tensor([[[0.37, 1.1]], [[1.29, -1.45]]], requires_grad=True)
out = []
for dim in [0, 1, 2, -2]:
    y = x.cumprod(dim)
    g, = T.autograd.grad((y ** 3).sum(), [x], create_graph=True)
    out += [y, g, walk(g.grad_fn)]
    out += list(T.autograd.grad(g.sum(), [x]))
""", [[[[0.3700000047683716, 1.100000023841858]], [[0.4772999882698059, -1.5950000286102295]]], [[[1.2923451662063599, -7.436509609222412]], [[0.2528749704360962, 8.395282745361328]]], ['DivBackward0', ' FlipBackward0', '  CumsumBackward0', '   FlipBackward0', '    MulBackward0', '     CumprodBackward0', '      AccumulateGrad', '     MulBackward0', '      MulBackward1', '       PowBackward0', '        CumprodBackward0', '         AccumulateGrad', ' AccumulateGrad'], [[[9.035987854003906, 9.375301361083984]], [[2.442391872406006, 11.316524505615234]]], [[[0.3700000047683716, 1.100000023841858]], [[1.2899999618530273, -1.4500000476837158]]], [[[0.4107000231742859, 3.630000114440918]], [[4.992300033569336, 6.307500839233398]]], ['MulBackward0', ' MulBackward1', '  PowBackward0', '   CumprodBackward0', '    AccumulateGrad'], [[[2.2200000286102295, 6.600000381469727]], [[7.739999771118164, -8.700000762939453]]], [[[0.3700000047683716, 0.40700000524520874]], [[1.2899999618530273, -1.8704999685287476]]], [[[0.9573417901992798, 0.1838703751564026]], [[-10.227351188659668, 13.540241241455078]]], ['DivBackward0', ' FlipBackward0', '  CumsumBackward0', '   FlipBackward0', '    MulBackward0', '     CumprodBackward0', '      AccumulateGrad', '     MulBackward0', '      MulBackward1', '       PowBackward0', '        CumprodBackward0', '         AccumulateGrad', ' AccumulateGrad'], [[[6.665661811828613, 1.8251508474349976]], [[15.632572174072266, 12.812740325927734]]], [[[0.3700000047683716, 1.100000023841858]], [[1.2899999618530273, -1.4500000476837158]]], [[[0.4107000231742859, 3.630000114440918]], [[4.992300033569336, 6.307500839233398]]], ['MulBackward0', ' MulBackward1', '  PowBackward0', '   CumprodBackward0', '    AccumulateGrad'], [[[2.2200000286102295, 6.600000381469727]], [[7.739999771118164, -8.700000762939453]]]]),
    # double-backward DAGs compared node by node (shared nodes once): maximum/minimum build where(tie, grad / 2,
    # grad) anew for each input (two WhereBackward0 and DivBackward1 nodes, not one shared); index_add's gradient
    # for source is grad.index_select(dim, index).expand_as(source), times alpha as a plain number
    # (ExpandBackward0, MulBackward1); xlogy(x, a positive number) masks nothing (no MaskedFillBackward0)
    "double_backward_dags": ("""
def nodes(fn, seen):
    if fn is None or any(fn is s for s in seen):
        return seen
    seen.append(fn)
    for n, _ in fn.next_functions:
        nodes(n, seen)
    return seen
def dag(fn):
    seen = nodes(fn, [])
    index = lambda n: None if n is None else [i for i, s in enumerate(seen) if s is n][0]
    return [[type(n).__name__, [index(m) for m, _ in n.next_functions]] for n in seen]
x = T.tensor([0.5, 2.0, 1.0], requires_grad=True)
y = T.tensor([0.5, 1.0, 3.0], requires_grad=True)
out = []
for f in [T.maximum, T.minimum]:
    gx, gy = T.autograd.grad((f(x, y) ** 3).sum(), [x, y], create_graph=True)
    out += [gx, gy, dag((gx + gy).grad_fn)]
    out += list(T.autograd.grad((gx * gy).sum(), [x, y]))
x = T.tensor([[-0.35, 0.52], [0.34, -1.28], [0.75, 1.39]], requires_grad=True)
w = T.tensor([[1.5, -1.2], [1.3, 1.9], [-0.6, 0.2]], requires_grad=True)
i = T.tensor([1, 1])
for alpha in [1, 2.5]:
    y = x.index_add(0, i, x.index_select(0, i) * 2, alpha=alpha)
    g, = T.autograd.grad((y * w).sum(), [x], create_graph=True)
    out += [y, g, dag(g.grad_fn)]
    out += list(T.autograd.grad((g * g).sum(), [w]))
for n in [2.0, 0.5]:
    x = T.tensor([0.0, 1.5, 2.0], requires_grad=True)
    g, = T.autograd.grad((T.xlogy(x, n) ** 3).sum(), [x], create_graph=True)
    out += [g, dag(g.grad_fn)]
    out += list(T.autograd.grad(g.sum(), [x]))
""", [[0.375, 12.0, 0.0], [0.375, 0.0, 27.0], [['AddBackward0', [1, 10]], ['MaskedFillBackward0', [2]], ['WhereBackward0', [3, 4]], ['DivBackward1', [4]], ['MulBackward0', [None, 5]], ['MulBackward1', [6]], ['PowBackward0', [7]], ['MaximumBackward0', [8, 9]], ['AccumulateGrad', []], ['AccumulateGrad', []], ['MaskedFillBackward0', [11]], ['WhereBackward0', [12, 4]], ['DivBackward1', [4]]], [0.5625, 0.0, 0.0], [0.5625, 0.0, 0.0], [0.375, 0.0, 3.0], [0.375, 3.0, 0.0], [['AddBackward0', [1, 10]], ['MaskedFillBackward0', [2]], ['WhereBackward0', [3, 4]], ['DivBackward1', [4]], ['MulBackward0', [None, 5]], ['MulBackward1', [6]], ['PowBackward0', [7]], ['MinimumBackward0', [8, 9]], ['AccumulateGrad', []], ['AccumulateGrad', []], ['MaskedFillBackward0', [11]], ['WhereBackward0', [12, 4]], ['DivBackward1', [4]]], [0.5625, 0.0, 0.0], [0.5625, 0.0, 0.0], [[-0.3499999940395355, 0.5199999809265137], [1.7000000476837158, -6.399999618530273], [0.75, 1.3899999856948853]], [[1.5, -1.2000000476837158], [6.5, 9.5], [-0.6000000238418579, 0.20000000298023224]], [['AddBackward0', [1, 3]], ['MulBackward0', [None, 2]], ['AccumulateGrad', []], ['IndexAddBackward0', [None, 4]], ['MulBackward0', [5, None]], ['ExpandBackward0', [6]], ['IndexSelectBackward0', [1]]], [[3.0, -2.4000000953674316], [65.0, 95.0], [-1.2000000476837158, 0.4000000059604645]], [[-0.3499999940395355, 0.5199999809265137], [3.740000009536743, -14.079999923706055], [0.75, 1.3899999856948853]], [[1.5, -1.2000000476837158], [14.300000190734863, 20.899999618530273], [-0.6000000238418579, 0.20000000298023224]], [['AddBackward0', [1, 3]], ['MulBackward0', [None, 2]], ['AccumulateGrad', []], ['IndexAddBackward0', [None, 4]], ['MulBackward0', [5, None]], ['MulBackward1', [6]], ['ExpandBackward0', [7]], ['IndexSelectBackward0', [1]]], [[3.0, -2.4000000953674316], [314.6000061035156, 459.79998779296875], [-1.2000000476837158, 0.4000000059604645]], [0.0, 2.2479162216186523, 3.996295928955078], [['XlogyBackward2', [1]], ['MulBackward0', [None, 2]], ['MulBackward1', [3]], ['PowBackward0', [4]], ['XlogyBackward2', [5]], ['AccumulateGrad', []]], [0.0, 2.9972219467163086, 3.996295928955078], [0.0, -2.2479162216186523, -3.996295928955078], [['XlogyBackward2', [1]], ['MulBackward0', [None, 2]], ['MulBackward1', [3]], ['PowBackward0', [4]], ['XlogyBackward2', [5]], ['AccumulateGrad', []]], [0.0, -2.9972219467163086, -3.996295928955078]]),
}


@pytest.mark.parametrize("name", sorted(_PROGRAMS))
def test_fuzz_class(name):
    source, want = _PROGRAMS[name]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # (torch's and minigrad's non-tuple index warning)
        got = run_program(minigrad, source)
    assert same(got, want), f"{name}: minigrad {got}, torch printed {want}"


@pytest.mark.parametrize("name", sorted(_PROGRAMS))
def test_fuzz_class_live(name):
    torch = pytest.importorskip("torch")
    source, want = _PROGRAMS[name]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        got = run_program(torch, source)
    assert same(got, want), f"{name}: torch now prints {got}, the test has {want}"
