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


# ---------------------------------------------------------------------------------- shape ops: grad_fn._saved_*
# (a negative dim passed to unsqueeze, squeeze, select, narrow, unbind or flip is shown as PyTorch shows it once
# Tensor's methods pass it on unwrapped: those are left out here, see the report of brief s10/f1)
_SHAPE_OPS = {
    "view": lambda T, x: x.view(6, 4), "reshape": lambda T, x: x.reshape(-1, 6), "flatten": lambda T, x: x.flatten(1),
    "t": lambda T, x: x[:, :, 0, 0].t(), "t_": lambda T, x: (x[:, :, 0, 0] * 1).t_(),
    "transpose": lambda T, x: x.transpose(0, -1), "transpose_": lambda T, x: (x * 1).transpose_(-4, 2),
    "swapaxes": lambda T, x: x.swapaxes(1, 2), "mT": lambda T, x: x.mT, "permute": lambda T, x: x.permute(3, 0, -2, 1),
    "movedim": lambda T, x: x.movedim(0, -1), "T": lambda T, x: x[0, :, 0].T,
    "unsqueeze": lambda T, x: x.unsqueeze(2), "unsqueeze_": lambda T, x: (x * 1).unsqueeze_(-1),
    "squeeze": lambda T, x: x.squeeze(), "squeeze_": lambda T, x: (x * 1).squeeze_(),
    "squeeze_dim": lambda T, x: x.squeeze(2), "squeeze_dim_noop": lambda T, x: x.squeeze(0),
    "squeeze_dim_": lambda T, x: (x * 1).squeeze_(-2), "squeeze_dims": lambda T, x: x.squeeze((2, 0)),
    "squeeze_dims_": lambda T, x: (x * 1).squeeze_((0, -2)),
    "expand": lambda T, x: x[:, :, 0].expand(5, -1, -1, 4), "expand_as": lambda T, x: x.expand_as(T.zeros(2, 2, 3, 1, 4)),
    "select": lambda T, x: x[1], "select_neg_index": lambda T, x: x.select(1, -2), "select_last": lambda T, x: x[..., 2],
    "slice": lambda T, x: x[1:], "slice_step": lambda T, x: x[:, ::2], "slice_neg": lambda T, x: x[..., -3:-1],
    "slice_end": lambda T, x: x[:, :2], "narrow": lambda T, x: x.narrow(3, 1, 2),
    "unbind": lambda T, x: x.unbind(1)[2], "split": lambda T, x: x.split(3, -1)[1], "split_big": lambda T, x: x.split(9)[0],
    "split_sizes": lambda T, x: x.split([1, 2], 1)[1], "chunk": lambda T, x: x.chunk(2, 1)[0],
    "repeat": lambda T, x: x[0].repeat(2, 1, 3, 1), "tile": lambda T, x: x[0, :, 0].tile(2),
    "cat": lambda T, x: T.cat([x, x], -1), "cat_fn": lambda T, x: T.cat([x, x]), "stack": lambda T, x: T.stack([x, x], -2),
    "flip": lambda T, x: x.flip(0, 3), "roll": lambda T, x: x.roll((1, -2), (-1, 0)), "roll_flat": lambda T, x: x.roll(5),
    "rot90": lambda T, x: x.rot90(-1, (1, -1)), "pad": lambda T, x: T.nn.functional.pad(x, (1, 2, -1, 0)),
    "tril": lambda T, x: x.tril(-1), "triu": lambda T, x: x.triu(1), "diag": lambda T, x: x[0, :, 0, 0].diag(1),
    "diag_embed": lambda T, x: x.diag_embed(-1, 0, -2), "diagonal": lambda T, x: x.diagonal(1, -1, 1),
}


def _shape_case(fn):
    def c(T, F, o):
        x = leaf(T, 3, 2, 3, 1, 4)
        node = fn(T, x).grad_fn
        o["node"], o["saved"] = node, saved(node)
    return c


for _name, _fn in _SHAPE_OPS.items():
    case(_shape_case(_fn), name=f"s10f1_saved_{_name}")


# ---------------------------------------------------------------------------------- histc's range
@case
def s10f1_histc_ranges(T, F, o):
    big = 3.4028234663852886e38
    for i, (data, lo, hi) in enumerate([([1.0, 2.0], float("-inf"), big), ([1.0, 2.0], 0, float("-inf")),
                                        ([1.0, 2.0], 0, float("nan")), ([float("nan"), 1.0], 0, 0),
                                        ([1.0, 2.0], 0, 1e39), ([1.0, 2.0], 1e39, 0), ([1.0, 2.0], 0, big),
                                        ([1.0, 2.0], 1e39, 1e39), ([-1.0, 0.5, 3.0], -1, 3)]):
        o.val(f"f32_{i}", lambda: T.histc(T.tensor(data), 4, lo, hi))
        o.val(f"f64_{i}", lambda: T.histc(T.tensor(data, dtype=T.float64), 4, lo, hi))


# ---------------------------------------------------------------------------------- cells with empty weights
def _leaf(T, seed, *shape):
    """``leaf``, or zeros for a shape without elements (a nested empty list would lose the shape)."""
    return leaf(T, seed, *shape, lo=-1, hi=1) if all(shape) else T.zeros(*shape, requires_grad=True)


def _empty_cell_case(kind, input_size, hidden_size, functional):
    def c(T, F, o):
        x, h = _leaf(T, 1, 2, input_size), _leaf(T, 2, 2, hidden_size)
        gates = {"LSTMCell": 4, "GRUCell": 3, "RNNCell": 1}[kind]
        w_ih, w_hh = _leaf(T, 3, gates * hidden_size, input_size), _leaf(T, 4, gates * hidden_size, hidden_size)
        b_ih, b_hh = _leaf(T, 5, gates * hidden_size), _leaf(T, 6, gates * hidden_size)
        hx = (h, h * 0.5) if kind == "LSTMCell" else h
        if functional:
            fn = {"LSTMCell": T.lstm_cell, "GRUCell": T.gru_cell, "RNNCell": T.rnn_tanh_cell}[kind]
            out = fn(x, hx, w_ih, w_hh, b_ih, b_hh)
        else:
            cell = getattr(T.nn, kind)(input_size, hidden_size)
            with T.no_grad():
                for p, v in zip(cell.parameters(), (w_ih, w_hh, b_ih, b_hh)):
                    p.copy_(v)
            w_ih, w_hh, b_ih, b_hh = cell.parameters()
            out = cell(x, hx)
        outs = list(out) if isinstance(out, tuple) else [out]
        for i, t in enumerate(outs):
            o.all(t, f"out{i}", 6)
        sum((t * t).sum() for t in outs).backward()
        o.grads("", x=x, h=h, w_ih=w_ih, w_hh=w_hh, b_ih=b_ih, b_hh=b_hh)
    return c


for _kind in ("LSTMCell", "GRUCell", "RNNCell"):
    for _sizes in ((3, 0), (0, 3), (0, 0)):
        for _functional in (False, True):
            case(_empty_cell_case(_kind, *_sizes, _functional), rtol=1e-5, atol=1e-6,
                 name=f"s10f1_empty_{_kind}_{_sizes[0]}_{_sizes[1]}{'_functional' if _functional else ''}")


# ---------------------------------------------------------------------------------- linspace and arange, bit for bit
def _bits(t):
    """A tensor's bytes, as hex: compared exactly (values are compared within a tolerance)."""
    return t.numpy().tobytes().hex()


def _range_case(dtype):
    def c(T, F, o):
        d = getattr(T, dtype)
        for i, (start, end) in enumerate([(0.0, 1.0), (-3.7, 10.0), (2.364324940051347, 3.2137171095757395),
                                          (1.0, 1e30), (123456.789, -0.001), (0.1, 7.77)]):
            for steps in (2, 7, 10, 17, 33, 100):
                o.val(f"linspace_{i}_{steps}", lambda: _bits(T.linspace(start, end, steps, dtype=d)))
        for i, (start, step) in enumerate([(0.0, 0.1), (-8.0, 0.1), (-3.7, 0.3), (2.5, -0.7), (1e-3, 0.0123)]):
            o.val(f"arange_{i}", lambda: _bits(T.arange(start, start + 97 * step, step, dtype=d)))
    return c


for _dtype in ("float32", "float64"):
    case(_range_case(_dtype), name=f"s10f1_linspace_arange_bits_{_dtype}")


@case
def s10f1_integer_linspace_arange(T, F, o):
    for dtype in ("int64", "int32", "uint8"):
        d = getattr(T, dtype)
        for start, end, step in [(0, 10, 2.5), (0.5, 10.7, 2.5), (-3.5, 7.9, 1.5), (0, 3, 0.9), (0, 5, -0.7), (-1, 5, 1)]:
            o.val(f"arange_{dtype}_{start}_{end}_{step}", lambda: T.arange(start, end, step, dtype=d))
        for start, end in [(-1, 10), (0, 1000), (-3.7, 3), (7, -50.0), (0, -129)]:
            o.val(f"linspace_{dtype}_{start}_{end}", lambda: T.linspace(start, end, 5, dtype=d))


# ---------------------------------------------------------------------------------- binary cross-entropy: saved weights
def _bce_case(logits, changed):
    def c(T, F, o):
        x = leaf(T, 1, 2, 3, lo=0.05, hi=0.95, dtype="float64")
        target = const(T, 2, 2, 3, lo=0, hi=1, dtype="float64")
        weight, pos_weight = T.tensor([1.0, 2.0, 0.5], dtype=T.float64), T.tensor([0.5, 1.0, 3.0], dtype=T.float64)
        if logits:
            loss = F.binary_cross_entropy_with_logits(x, target, weight, pos_weight=pos_weight)
        else:
            loss = F.binary_cross_entropy(x, target, weight)
        o["node"], o["saved"] = loss.grad_fn, saved(loss.grad_fn)
        g, = T.autograd.grad(loss, x, create_graph=True)
        o["g"], o["g_saved"] = g, saved(g.grad_fn) if not logits else None
        {"weight": weight, "pos_weight": pos_weight, "target": target}[changed].mul_(1)
        o.err("double", lambda: T.autograd.grad(g.sum(), x))
        o.err("backward", loss.backward)
    return c


for _logits in (False, True):
    for _changed in ("weight", "target") + (("pos_weight",) if _logits else ()):
        case(_bce_case(_logits, _changed), name=f"s10f1_bce{'_logits' if _logits else ''}_saved_{_changed}")


# ---------------------------------------------------------------------------------- softmax's backward under create_graph
def _softmax_data_case(fn, dim):
    def c(T, F, o):
        x = leaf(T, 1, 2, 3)
        y = getattr(x, fn)(dim)
        g, = T.autograd.grad((y * const(T, 2, 2, 3)).sum(), x, create_graph=True)
        o["node"], o["saved"] = g.grad_fn, saved(g.grad_fn)
        gg, = T.autograd.grad((g * g).sum(), x)
        o["gg"] = gg
    return c


for _fn in ("softmax", "log_softmax"):
    for _dim in (1, -1, 0):
        case(_softmax_data_case(_fn, _dim), name=f"s10f1_{_fn}_backward_data_saved_dim{_dim}")
