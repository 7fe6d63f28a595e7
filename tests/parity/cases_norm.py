"""PyTorch-parity cases for embeddings and normalisation (issue 41; see ``cases.py`` for the conventions)."""
from . import case
from .cases import arr, fwd_bwd, leaf


def _names(y):
    return [None if n is None else type(n).__name__ for n, _ in y.grad_fn.next_functions]


# ---------------------------------------------------------------------------------- embedding
@case
def norm_embedding_repeated_indices(T, F, o):
    w = leaf(T, 1, 5, 3)
    idx = T.tensor([[0, 2, 2], [4, 1, 0]])
    y = F.embedding(idx, w)
    g = y.grad_fn
    o["saved"] = [g._saved_indices, g._saved_padding_idx, g._saved_scale_grad_by_freq, g._saved_sparse,
                  g._saved_weight_sym_argsize_0]
    fwd_bwd(T, o, y, w=w)


@case
def norm_embedding_padding_idx(T, F, o):
    for pad in (1, -1, 0):
        w = leaf(T, 2, 5, 3)
        y = F.embedding(T.tensor([[0, 1, 4], [4, 1, 3]]), w, padding_idx=pad)
        o[f"saved_{pad}"] = y.grad_fn._saved_padding_idx
        y.backward(T.tensor(arr(99, 2, 3, 3).tolist()))
        o[f"w.grad_{pad}"] = w.grad


@case
def norm_embedding_scale_grad_by_freq(T, F, o):
    w = leaf(T, 3, 5, 2)
    y = F.embedding(T.tensor([1, 1, 3, 1, 0, 3], dtype=T.int32), w, scale_grad_by_freq=True, padding_idx=0)
    fwd_bwd(T, o, y, w=w)


@case
def norm_embedding_max_norm(T, F, o):
    for p in (2.0, 1.0, 3.0):
        w = leaf(T, 4, 5, 3)
        version = w._version
        y = F.embedding(T.tensor([1, 1, 3, 4]), w, max_norm=1.5, norm_type=p)
        o[f"w_{p}"] = w.detach()
        o[f"bumped_{p}"] = w._version > version
        o[f"y_{p}"] = y
        y.backward(T.tensor(arr(98, 4, 3).tolist()))
        o[f"w.grad_{p}"] = w.grad


@case
def norm_embedding_double_backward(T, F, o):
    w = leaf(T, 5, 4, 2, dtype="float64")
    idx = T.tensor([[0, 2], [2, 3], [1, 1]])
    y = F.embedding(idx, w, padding_idx=2)
    g = leaf(T, 6, 3, 2, 2, dtype="float64")
    gw, = T.autograd.grad(y, w, g, create_graph=True)
    o.all(gw, "gw")
    h, = T.autograd.grad(gw, g, T.tensor(arr(7, 4, 2).tolist(), dtype=T.float64))
    o["h"] = h


@case
def norm_embedding_module(T, F, o):
    nn = T.nn
    e = nn.Embedding(6, 3, padding_idx=-2)
    o["pad"] = [e.padding_idx, e.weight[4].tolist(), e.weight.shape, e.weight.requires_grad, list(e.state_dict())]
    o.repr("reprs", [e, nn.Embedding(4, 2, max_norm=1.0, norm_type=1.0, scale_grad_by_freq=True), nn.Embedding(2, 2)])
    pre = T.tensor(arr(8, 3, 2).tolist())
    frozen = nn.Embedding.from_pretrained(pre)
    o["frozen"] = [frozen.weight.requires_grad, frozen(T.tensor([2, 0]))]
    trained = nn.Embedding.from_pretrained(pre, freeze=False, padding_idx=1)
    y = trained(T.tensor([[1, 2], [0, 1]]))
    o["trained"] = [trained.weight.requires_grad, trained.padding_idx, trained.weight[1].tolist()]
    fwd_bwd(T, o, y, w=trained.weight)


@case
def norm_embedding_errors(T, F, o):
    nn = T.nn
    w = leaf(T, 9, 5, 3)
    o.err("pad_high", lambda: nn.Embedding(5, 3, padding_idx=5))
    o.err("pad_low", lambda: nn.Embedding(5, 3, padding_idx=-6))
    o.err("F_pad", lambda: F.embedding(T.tensor([1]), w, padding_idx=7))
    o.err("float_idx", lambda: F.embedding(T.tensor([1.0]), w))
    o.err("bool_idx", lambda: F.embedding(T.tensor([True]), w))
    o.err("out_of_range", lambda: F.embedding(T.tensor([5]), w))
    o.err("negative", lambda: F.embedding(T.tensor([-1]), w))
    o.err("weight_1d", lambda: F.embedding(T.tensor([1]), T.ones(3)))
    o.err("pretrained_1d", lambda: nn.Embedding.from_pretrained(T.ones(3)))
    o.err("weight_shape", lambda: nn.Embedding(3, 2, _weight=T.ones(2, 3)))
    o["scalar_index"] = F.embedding(T.tensor(2), w).shape
    o["empty_index"] = F.embedding(T.tensor([], dtype=T.int64), w).shape


# ---------------------------------------------------------------------------------- layer_norm
@case
def norm_layer_norm_last_dim(T, F, o):
    x, w, b = leaf(T, 10, 2, 3, 4), leaf(T, 11, 4), leaf(T, 12, 4)
    y = F.layer_norm(x, (4,), w, b)
    g = y.grad_fn
    o["saved"] = [g._saved_normalized_shape, g._saved_result1, g._saved_result2, g._saved_weight, g._saved_bias]
    fwd_bwd(T, o, y, x=x, w=w, b=b)


@case
def norm_layer_norm_two_dims_no_affine(T, F, o):
    x = leaf(T, 13, 2, 3, 4, dtype="float64")
    y = F.layer_norm(x, [3, 4], eps=1e-3)
    o["saved_weight"] = [y.grad_fn._saved_weight, y.grad_fn._saved_bias]
    fwd_bwd(T, o, y, x=x)


@case
def norm_layer_norm_only_bias_or_weight(T, F, o):
    x, w, b = leaf(T, 14, 3, 5), leaf(T, 15, 5), leaf(T, 16, 5)
    fwd_bwd(T, o, F.layer_norm(x, (5,), None, b), "yb", x=x, b=b)
    x2 = leaf(T, 14, 3, 5)
    fwd_bwd(T, o, F.layer_norm(x2, (5,), w), "yw", x2=x2, w=w)
    x3 = leaf(T, 17, 5)  # the whole input is one sample
    fwd_bwd(T, o, F.layer_norm(x3, (5,), w.detach(), b.detach()), "y1", x3=x3)


@case
def norm_layer_norm_double_backward(T, F, o):
    x, w, b = leaf(T, 18, 2, 4, dtype="float64"), leaf(T, 19, 4, dtype="float64"), leaf(T, 20, 4, dtype="float64")
    y = F.layer_norm(x, (4,), w, b)
    gx, gw, gb = T.autograd.grad((y ** 3).sum(), (x, w, b), create_graph=True)
    o["first"] = [gx, gw, gb]
    o["second"] = list(T.autograd.grad(gx.sin().sum() + (gw ** 2).sum() + gb.sum(), (x, w, b)))


@case
def norm_layer_norm_module(T, F, o):
    nn = T.nn
    for i, args in enumerate(((4,), ((3, 4),), ([4], 1e-3, False), (4, 1e-5, True, False))):
        m = nn.LayerNorm(*args)
        o.repr(f"repr_{i}", m)
        o[f"state_{i}"] = [[k, v.shape, v] for k, v in m.state_dict().items()]
    m = nn.LayerNorm(4, bias=False)
    x = leaf(T, 21, 3, 4)
    y = m(x)
    o["next"] = _names(y)
    fwd_bwd(T, o, y, x=x, w=m.weight)


@case
def norm_layer_norm_errors(T, F, o):
    x = leaf(T, 22, 2, 3, 4)
    o.err("wrong_shape", lambda: F.layer_norm(x, (3,)))
    o.err("too_many_dims", lambda: F.layer_norm(x, (2, 2, 3, 4)))
    o.err("weight_shape", lambda: F.layer_norm(x, (4,), T.ones(3)))
    o.err("bias_shape", lambda: F.layer_norm(x, (4,), None, T.ones(3)))
    o.err("empty_shape", lambda: F.layer_norm(x, ()))
    o.err("int_input", lambda: F.layer_norm(T.ones(2, 4, dtype=T.int64), (4,)))
    o.err("int_shape", lambda: F.layer_norm(x, 4))
