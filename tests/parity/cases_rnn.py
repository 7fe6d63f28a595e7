"""PyTorch-parity cases for the recurrent layers: ``nn.RNN``, ``nn.LSTM``, ``nn.GRU``, their cells and packed
sequences (see ``cases.py`` for the conventions and the input helpers).

Weights are set from fixed values (``arr``), never from the generator.  float64 layers record PyTorch's per-step
graph, node for node; a float32 LSTM records one ``MkldnnRnnLayerBackward0`` per layer and direction, whose numbers
(oneDNN's, summed in another order) agree to rtol 1e-4 / atol 1e-5.
"""
from . import case
from .cases import arr, fwd_bwd, leaf


def _set_weights(T, module, seed):
    with T.no_grad():
        for i, p in enumerate(module.parameters()):
            p.copy_(T.tensor(arr(seed + i, *tuple(p.shape), lo=-0.6, hi=0.6).tolist(), dtype=p.dtype))


def _layer_case(kind, dtype, kw, hx, unbatched):
    def c(T, F, o):
        module = getattr(T.nn, kind)(3, 4, dtype=getattr(T, dtype), **kw)
        o.raw("params", [[n, list(p.shape)] for n, p in module.named_parameters()])
        _set_weights(T, module, 10)
        batch_first = kw.get("batch_first", False)
        shape = (3, 3) if unbatched else (2, 3, 3) if batch_first else (3, 2, 3)
        x = leaf(T, 1, *shape, dtype=dtype)
        leaves = dict(x=x)
        args = [x]
        if hx:
            layers = kw.get("num_layers", 1) * (2 if kw.get("bidirectional") else 1)
            size = kw.get("proj_size", 0) or 4
            lead = (layers,) if unbatched else (layers, 2)
            h = leaf(T, 2, *lead, size, dtype=dtype)
            leaves["h"] = h
            if kind == "LSTM":
                cx = leaf(T, 3, *lead, 4, dtype=dtype)
                leaves["c"] = cx
                args.append((h, cx))
            else:
                args.append(h)
        output, hidden = module(*args)
        o.all(output, "output", depth=8)
        for i, t in enumerate(hidden if isinstance(hidden, tuple) else (hidden,)):
            o.all(t, f"hidden{i}", depth=4)
        total = output.sum() + sum((t * t).sum() for t in (hidden if isinstance(hidden, tuple) else (hidden,)))
        fwd_bwd(T, o, total * 1.0, name="total", depth=1, **leaves, **dict(module.named_parameters()))
    return c


_CONFIGS = [
    ("plain", {}, False, False),
    ("no_bias", dict(bias=False), False, False),
    ("hx", {}, True, False),
    ("two_layers_bi", dict(num_layers=2, bidirectional=True), True, False),
    ("batch_first", dict(batch_first=True), False, False),
    ("unbatched", {}, True, True),
]
for _kind in ("RNN", "LSTM", "GRU"):
    for _dtype in ("float64", "float32"):
        for _name, _kw, _hx, _unbatched in _CONFIGS:
            tol = dict(rtol=1e-4, atol=1e-5) if _dtype == "float32" else {}
            case(_layer_case(_kind, _dtype, _kw, _hx, _unbatched), name=f"rnn_{_kind}_{_name}_{_dtype}", **tol)
    if _kind == "RNN":
        case(_layer_case(_kind, "float64", dict(nonlinearity="relu"), True, False), name="rnn_RNN_relu_float64")
    if _kind == "LSTM":
        for _dtype in ("float64", "float32"):
            case(_layer_case(_kind, _dtype, dict(proj_size=2, num_layers=2), True, False),
                 name=f"rnn_LSTM_proj_{_dtype}", rtol=1e-4, atol=1e-5)


def _cell_case(kind, dtype, hx, unbatched, bias=True):
    def c(T, F, o):
        module = getattr(T.nn, kind)(3, 4, bias=bias, dtype=getattr(T, dtype))
        o.raw("params", [[n, list(p.shape)] for n, p in module.named_parameters()])
        _set_weights(T, module, 20)
        x = leaf(T, 1, *((3,) if unbatched else (2, 3)), dtype=dtype)
        leaves = dict(x=x)
        args = [x]
        if hx:
            h = leaf(T, 2, *((4,) if unbatched else (2, 4)), dtype=dtype)
            leaves["h"] = h
            if kind == "LSTMCell":
                cx = leaf(T, 3, *((4,) if unbatched else (2, 4)), dtype=dtype)
                leaves["c"] = cx
                args.append((h, cx))
            else:
                args.append(h)
        out = module(*args)
        outs = out if isinstance(out, tuple) else (out,)
        for i, t in enumerate(outs):
            o.all(t, f"out{i}", depth=8)
        total = sum((t * t).sum() for t in outs)
        fwd_bwd(T, o, total * 1.0, name="total", depth=1, **leaves, **dict(module.named_parameters()))
    return c


for _kind in ("RNNCell", "LSTMCell", "GRUCell"):
    for _dtype in ("float64", "float32"):
        case(_cell_case(_kind, _dtype, False, False), name=f"rnn_{_kind}_plain_{_dtype}")
        case(_cell_case(_kind, _dtype, True, False), name=f"rnn_{_kind}_hx_{_dtype}")
        case(_cell_case(_kind, _dtype, True, True, bias=False), name=f"rnn_{_kind}_unbatched_no_bias_{_dtype}")


def _packed_case(kind, enforce_sorted, bidirectional):
    def c(T, F, o):
        module = getattr(T.nn, kind)(3, 4, bidirectional=bidirectional, dtype=T.float64)
        _set_weights(T, module, 30)
        x = leaf(T, 1, 4, 3, 3, dtype="float64")
        lengths = [4, 2, 1] if enforce_sorted else [2, 4, 1]
        packed = T.nn.utils.rnn.pack_padded_sequence(x, lengths, enforce_sorted=enforce_sorted)
        o["data"] = packed.data
        o.fn("data.grad_fn", packed.data)
        o["batch_sizes"] = packed.batch_sizes
        o["sorted_indices"] = packed.sorted_indices
        out, hidden = module(packed)
        padded, lens = T.nn.utils.rnn.pad_packed_sequence(out, total_length=5)
        o["lengths"] = lens
        o.all(padded, "padded", depth=6)
        h = hidden[0] if isinstance(hidden, tuple) else hidden
        o.all(h, "h_n", depth=6)
        fwd_bwd(T, o, padded.sum() + (h * h).sum(), name="total", depth=1, x=x, w=module.weight_hh_l0)
    return c


for _kind in ("RNN", "LSTM", "GRU"):
    case(_packed_case(_kind, True, False), name=f"rnn_packed_{_kind}")
    case(_packed_case(_kind, False, True), name=f"rnn_packed_unsorted_bi_{_kind}")


@case
def rnn_pad_sequence(T, F, o):
    a, b, c = leaf(T, 1, 3, 2), leaf(T, 2, 1, 2), leaf(T, 3, 2, 2)
    for batch_first in (False, True):
        for side in ("right", "left"):
            out = T.nn.utils.rnn.pad_sequence([a, b, c], batch_first=batch_first, padding_value=-1.0,
                                              padding_side=side)
            o.all(out, f"pad_{batch_first}_{side}", depth=3)
    packed = T.nn.utils.rnn.pack_sequence([b, a, c], enforce_sorted=False)
    o["packed.data"] = packed.data
    o["packed.batch_sizes"] = packed.batch_sizes
    o["packed.unsorted_indices"] = packed.unsorted_indices
    fwd_bwd(T, o, T.nn.utils.rnn.pad_packed_sequence(packed, batch_first=True)[0], name="unpacked", a=a, b=b, c=c)


@case
def rnn_errors(T, F, o):
    nn = T.nn
    o.err("nonlinearity", lambda: nn.RNN(3, 4, nonlinearity="sigmoid"))
    o.err("proj_rnn", lambda: nn.RNN(3, 4, proj_size=2))
    o.err("proj_too_big", lambda: nn.LSTM(3, 4, proj_size=4))
    o.err("dropout_range", lambda: nn.LSTM(3, 4, dropout=1.5))
    o.err("layers", lambda: nn.GRU(3, 4, num_layers=0))
    o.err("hidden_type", lambda: nn.LSTM(3, 4.0))
    o.err("input_size", lambda: nn.LSTM(3, 4)(T.zeros(2, 2, 5)))
    o.err("input_dim", lambda: nn.LSTM(3, 4)(T.zeros(2, 2, 3, 1)))
    o.err("rnn_input_dim", lambda: nn.RNN(3, 4)(T.zeros(2, 2, 2, 3)))
    o.err("hidden_size", lambda: nn.RNN(3, 4)(T.zeros(2, 2, 3), T.zeros(1, 3, 4)))
    o.err("hidden_dim", lambda: nn.GRU(3, 4)(T.zeros(2, 2, 3), T.zeros(3, 4)))
    o.err("cell_size", lambda: nn.LSTM(3, 4)(T.zeros(2, 2, 3), (T.zeros(1, 2, 4), T.zeros(1, 2, 5))))
    o.err("lstm_unbatched_hx", lambda: nn.LSTM(3, 4)(T.zeros(2, 3), (T.zeros(1, 1, 4), T.zeros(1, 1, 4))))
    o.err("cell_input_size", lambda: nn.RNNCell(3, 4)(T.zeros(2, 5)))
    o.err("cell_batch", lambda: nn.LSTMCell(3, 4)(T.zeros(2, 3), (T.zeros(2, 4), T.zeros(3, 4))))
    o.err("cell_hidden_size", lambda: nn.GRUCell(3, 4)(T.zeros(2, 3), T.zeros(2, 6)))
    o.err("cell_input_dim", lambda: nn.GRUCell(3, 4)(T.zeros(2, 3, 1)))
    o.err("pack_len", lambda: nn.utils.rnn.pack_padded_sequence(T.zeros(3, 2, 1), [3, 2, 1]))
    o.err("pack_zero", lambda: nn.utils.rnn.pack_padded_sequence(T.zeros(3, 2, 1), [3, 0]))
    o.err("pack_unsorted", lambda: nn.utils.rnn.pack_padded_sequence(T.zeros(3, 2, 1), [1, 3]))
    o.err("pad_empty", lambda: nn.utils.rnn.pad_sequence([]))
    o.warns("dropout_one_layer", lambda: nn.LSTM(3, 4, dropout=0.5))
    o.repr("repr", nn.LSTM(3, 4, num_layers=2, batch_first=True, dropout=0.25, bidirectional=True, proj_size=2))
    o.repr("repr_cell", nn.RNNCell(3, 4, bias=False, nonlinearity="relu"))


@case
def rnn_dropout_graph(T, F, o):
    for kind in ("LSTM", "GRU"):
        for name in ("float32", "float64"):
            dtype = getattr(T, name)
            module = getattr(T.nn, kind)(3, 4, num_layers=2, dropout=0.5, dtype=dtype)
            out = module(T.ones(2, 1, 3, dtype=dtype))[0]
            o.tree(f"{kind}_{name}", out, depth=3)
            module.eval()
            o.tree(f"{kind}_{name}_eval", module(T.ones(2, 1, 3, dtype=dtype))[0], depth=3)


# ------------------------------------------------------------------ a float32 LSTM differentiated twice
def _graph(t):
    """The whole graph under ``t.grad_fn``, each node once, numbered in the order a breadth-first walk of
    ``next_functions`` meets it: ``[[name, [[node number or None, input_nr], ...]], ...]`` (``o.tree`` would
    repeat a shared node under every parent; this graph shares them as the real one does)."""
    if t.grad_fn is None:
        return None
    order, number, out = [t.grad_fn], {id(t.grad_fn): 0}, []
    for node in order:  # (order grows while it is walked)
        edges = []
        for f, nr in node.next_functions:
            if f is not None and id(f) not in number:
                number[id(f)] = len(order)
                order.append(f)
            edges.append([None if f is None else number[id(f)], int(nr)])
        out.append([type(node).__name__, edges])
    return out


def _second_order_case(kw, hx, steps, loss, unbatched=False):
    """Gradients of a float32 LSTM with ``create_graph=True``: PyTorch's ``MkldnnRnnLayerBackward0`` then records
    ``mkldnn_rnn_layer_differentiable_backward``, a composite of tensor ops (``AddmmBackward0``,
    ``UnsafeSplitBackward0``, ``SubBackward0`` ...); the graph of each gradient, node for node, its value, and the
    gradients of the gradients' squares (to rtol 1e-4 / atol 1e-5)."""
    def c(T, F, o):
        module = T.nn.LSTM(3, 4, dtype=T.float32, **kw)
        _set_weights(T, module, 40)
        batch_first = kw.get("batch_first", False)
        shape = (steps, 3) if unbatched else (2, steps, 3) if batch_first else (steps, 2, 3)
        leaves = dict(x=leaf(T, 1, *shape, lo=-1, hi=1))
        leaves.update(module.named_parameters())
        args = [leaves["x"]]
        if hx:
            layers = kw.get("num_layers", 1) * (2 if kw.get("bidirectional") else 1)
            lead = (layers,) if unbatched else (layers, 2)
            leaves["h"] = leaf(T, 2, *lead, kw.get("proj_size", 0) or 4, lo=-1, hi=1)
            leaves["c"] = leaf(T, 3, *lead, 4, lo=-1, hi=1)
            args.append((leaves["h"], leaves["c"]))
        out, (hn, cn) = module(*args)
        total = {"all": lambda: (out * out).sum() + (hn * hn).sum() + cn.sum(), "out": lambda: (out * out).sum(),
                 "hn": lambda: (hn * hn).sum()}[loss]()
        last = f"weight_hh_l{kw.get('num_layers', 1) - 1}" + ("_reverse" if kw.get("bidirectional") else "")
        _record_twice(T, o, leaves, total, ("x", "weight_ih_l0", "weight_hh_l0", "bias_hh_l0", last, "h", "c"))
    return c


def _record_twice(T, o, leaves, loss, graphed):
    """The gradients of ``loss`` with a graph (their values; for the leaves named in ``graphed``, the whole graph too)
    and the gradients of their squares."""
    grads = T.autograd.grad(loss, list(leaves.values()), create_graph=True, allow_unused=True)
    for name, g in zip(leaves, grads):
        o[f"grad.{name}"] = g
        if name in graphed:
            o.raw(f"grad.{name}.graph", _graph(g))
    total = sum((g * g).sum() for g in grads if g is not None and g.requires_grad)
    for name, g in zip(leaves, T.autograd.grad(total, list(leaves.values()), allow_unused=True)):
        o[f"second.{name}"] = g


_SECOND_ORDER = [
    ("plain", {}, False, 3, "all", False),
    ("one_step_out", {}, False, 1, "out", False),
    ("no_bias_hx", dict(bias=False), True, 2, "all", False),
    ("only_hn", {}, True, 3, "hn", False),
    ("two_layers_bi", dict(num_layers=2, bidirectional=True), True, 2, "all", False),
    ("batch_first_bi", dict(batch_first=True, bidirectional=True), False, 2, "all", False),
    ("unbatched", {}, True, 2, "all", True),
    ("proj", dict(proj_size=2), True, 2, "all", False),  # (no oneDNN with projections: PyTorch's per-step graph)
]
for _name, _kw, _hx, _steps, _loss, _unbatched in _SECOND_ORDER:
    case(_second_order_case(_kw, _hx, _steps, _loss, _unbatched), name=f"rnn_LSTM_float32_create_graph_{_name}",
         rtol=1e-4, atol=1e-5)


@case
def rnn_packed_create_graph(T, F, o):
    """``pack_padded_sequence``'s backward with ``create_graph=True``: PyTorch copies each step's rows into views of
    zeros (``CopySlices`` over ``CopySlices``), then transposes for ``batch_first``."""
    for batch_first, lengths in ((False, [3, 2]), (True, [2, 2, 1])):
        x = leaf(T, 1, 3, 2, 2, dtype="float64")
        packed = T.nn.utils.rnn.pack_padded_sequence(x, lengths, batch_first=batch_first)
        g, = T.autograd.grad((packed.data ** 3).sum(), [x], create_graph=True)
        o[f"grad_{batch_first}"] = g
        o.raw(f"grad_{batch_first}.graph", _graph(g))
        o[f"second_{batch_first}"], = T.autograd.grad((g * g).sum(), [x])


def _packed_second_order_case(kind, dtype, batch_first, bidirectional, lengths):
    """A packed sequence through a recurrent layer, differentiated twice (PyTorch's per-step graph, no oneDNN):
    the whole graph of the input's and a weight's gradient; which of two gradients reaching a node comes first
    (the operands of the AddBackward0 that sums them) follows the order the forward made its nodes in."""
    def c(T, F, o):
        module = getattr(T.nn, kind)(3, 4, bidirectional=bidirectional, dtype=getattr(T, dtype))
        _set_weights(T, module, 50)
        x = leaf(T, 1, *((len(lengths), 3, 3) if batch_first else (3, len(lengths), 3)), lo=-1, hi=1, dtype=dtype)
        packed = T.nn.utils.rnn.pack_padded_sequence(x, lengths, batch_first=batch_first, enforce_sorted=False)
        out, hidden = module(packed)
        h = hidden[0] if isinstance(hidden, tuple) else hidden
        leaves = dict(x=x, **dict(module.named_parameters()))
        loss = (out.data ** 2).sum() + (h * h).sum()
        _record_twice(T, o, leaves, loss, ("x", "weight_hh_l0", "weight_hh_l0_reverse"))
    return c


for _name, _args in [("LSTM_float32", ("LSTM", "float32", False, False, [3, 2])),
                     ("LSTM_float32_bf_bi_unsorted", ("LSTM", "float32", True, True, [2, 3, 1])),
                     ("GRU_float64_bi", ("GRU", "float64", False, True, [3, 1])),
                     ("RNN_float64_bf", ("RNN", "float64", True, False, [1, 3]))]:
    case(_packed_second_order_case(*_args), name=f"rnn_packed_create_graph_{_name}", rtol=1e-4, atol=1e-5)


def _per_step_second_order_case(kind, cell):
    """A float64 layer (PyTorch's per-step graph) or a cell, differentiated twice: the whole graph of the input's
    and of ``weight_hh``'s gradient, their values and the gradients of their squares."""
    def c(T, F, o):
        if cell:
            module = getattr(T.nn, kind)(3, 4, dtype=T.float64)
            x, h = leaf(T, 1, 2, 3, lo=-1, hi=1, dtype="float64"), leaf(T, 2, 2, 4, lo=-1, hi=1, dtype="float64")
        else:
            module = getattr(T.nn, kind)(3, 4, num_layers=2, bidirectional=True, dtype=T.float64)
            x, h = leaf(T, 1, 2, 2, 3, lo=-1, hi=1, dtype="float64"), leaf(T, 2, 4, 2, 4, lo=-1, hi=1, dtype="float64")
        _set_weights(T, module, 60)
        out = module(x, (h, h * 0.5) if kind.startswith("LSTM") else h)
        if cell:  # (a cell's h, or an LSTM cell's (h, c))
            outs = list(out) if isinstance(out, tuple) else [out]
        else:  # (a layer's output and its final h, or (h, c))
            outs = [out[0]] + (list(out[1]) if isinstance(out[1], tuple) else [out[1]])
        leaves = dict(x=x, h=h, **dict(module.named_parameters()))
        _record_twice(T, o, leaves, sum((t * t).sum() for t in outs), ("x", "weight_hh", "weight_hh_l0"))
    return c


for _kind in ("RNN", "GRU", "LSTM"):
    case(_per_step_second_order_case(_kind, False), name=f"rnn_{_kind}_float64_create_graph")
    case(_per_step_second_order_case(_kind + "Cell", True), name=f"rnn_{_kind}Cell_float64_create_graph")
