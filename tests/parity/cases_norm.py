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


# ---------------------------------------------------------------------------------- rms_norm (a composite on the CPU)
@case
def norm_rms_norm_weight(T, F, o):
    x, w = leaf(T, 23, 2, 3, 4), leaf(T, 24, 4)
    fwd_bwd(T, o, F.rms_norm(x, (4,), w), depth=8, x=x, w=w)


@case
def norm_rms_norm_two_dims_eps(T, F, o):
    x = leaf(T, 25, 2, 3, 4, dtype="float64")
    fwd_bwd(T, o, F.rms_norm(x, [3, 4], eps=1e-3), depth=8, x=x)
    x2 = leaf(T, 26, 3, 4)
    y2 = F.rms_norm(x2, (4,), leaf(T, 27, 4, dtype="float64"))  # (a float64 weight: the result cast back)
    fwd_bwd(T, o, y2, "y2", depth=4, x2=x2)


@case
def norm_rms_norm_module_and_errors(T, F, o):
    nn = T.nn
    for i, m in enumerate((nn.RMSNorm(4), nn.RMSNorm([3, 4], eps=1e-3, elementwise_affine=False))):
        o.repr(f"repr_{i}", m)
        o[f"state_{i}"] = [[k, v] for k, v in m.state_dict().items()]
    x = leaf(T, 28, 2, 3, 4)
    m = nn.RMSNorm((3, 4), eps=0.5)
    with T.no_grad():
        m.weight.mul_(T.tensor(arr(29, 3, 4).tolist()))
    fwd_bwd(T, o, m(x), depth=3, x=x, w=m.weight)
    o.warns("mixed_dtype", lambda: F.rms_norm(x.detach(), (4,), T.ones(4, dtype=T.float64)).dtype)
    o.err("wrong_shape", lambda: F.rms_norm(x, (3,)))
    o.err("wrong_shape_2", lambda: F.rms_norm(x, (2, 5)))
    o.err("weight_shape", lambda: F.rms_norm(x, (4,), T.ones(3)))
    o.err("empty_shape", lambda: F.rms_norm(x, ()))
    o.err("int_input", lambda: F.rms_norm(T.ones(2, 4, dtype=T.int64), (4,)))
    o.err("int_shape", lambda: F.rms_norm(x, 4))


# ---------------------------------------------------------------------------------- histogram
@case
def norm_histogram(T, F, o):
    x = T.tensor([1.0, 2.0, 1.0, 4.0, 2.5, -1.0, 7.0])
    o.repr("bins", T.histogram(x, 4))
    r = T.histogram(x, bins=3, range=(0.0, 3.0))
    o["fields"] = [r.hist, r.bin_edges, r[0], r[1]]
    o["edges"] = list(T.histogram(x, T.tensor([0.0, 1.0, 3.0, 5.0]), weight=T.ones(7) * 2, density=True))
    o["method"] = list(x.histogram(5, density=True))
    o["default"] = list(T.histogram(T.tensor(arr(30, 50).tolist(), dtype=T.float64)))
    o["weights"] = list(T.histogram(T.tensor(arr(31, 4, 5).tolist()), 6, weight=T.tensor(arr(32, 4, 5).tolist())))
    o["empty"] = list(T.histogram(T.tensor([]), 3))
    o["one_value"] = list(T.histogram(T.tensor([2.0, 2.0]), 3))
    o["int_range"] = list(T.histogram(x, bins=3, range=(0, 3)))
    o["nan_in_range"] = list(T.histogram(T.tensor([1.0, float("nan")]), 2, range=(0.0, 2.0)))
    o["huge"] = list(T.histogram(T.tensor([1e30, -1e30]), 3))
    o["thirds"] = list(T.histogram(T.tensor([0.0, 1.0, 1.0000001, 0.3333333]), 3))


@case
def norm_histogram_errors(T, F, o):
    x = T.tensor([1.0, 2.0, 1.0, 4.0, 2.5, -1.0, 7.0])
    o.err("long", lambda: T.histogram(x.long(), 3))
    o.err("zero_bins", lambda: T.histogram(x, 0))
    o.err("negative_bins", lambda: T.histogram(x, -1))
    o.err("reversed", lambda: T.histogram(x, 3, range=(3.0, 1.0)))
    o.err("infinite", lambda: T.histogram(x, 3, range=(0.0, float("inf"))))
    o.err("nan", lambda: T.histogram(T.tensor([1.0, float("nan")]), 2))
    o.err("range_length", lambda: T.histogram(x, 2, range=(1,)))
    o.err("edges_2d", lambda: T.histogram(x, T.tensor([[0.0, 1.0]])))
    o.err("one_edge", lambda: T.histogram(x, T.tensor([1.0])))
    o.err("edges_dtype", lambda: T.histogram(x, T.tensor([0.0, 1.0], dtype=T.float64)))
    o.err("weight_shape", lambda: T.histogram(x, 3, weight=T.ones(3)))
    o.err("weight_dtype", lambda: T.histogram(x, 3, weight=T.ones(7, dtype=T.float64)))


# ---------------------------------------------------------------------------------- batch_norm
def _set_affine(T, bn, seed):
    with T.no_grad():
        bn.weight.copy_(T.tensor(arr(seed, bn.num_features).tolist()))
        bn.bias.copy_(T.tensor(arr(seed + 1, bn.num_features).tolist()))
    return bn


@case
def norm_batch_norm_1d_training(T, F, o):
    bn = _set_affine(T, T.nn.BatchNorm1d(3), 40)
    x = leaf(T, 41, 5, 3)
    y = bn(x)
    node = y.grad_fn
    o["saved"] = [node._saved_result1, node._saved_result2, node._saved_eps, node._saved_training,
                  node._saved_running_mean is None, node._saved_weight]
    fwd_bwd(T, o, y, x=x, w=bn.weight, b=bn.bias)
    o["buffers"] = [bn.running_mean, bn.running_var, bn.num_batches_tracked, bn.running_mean._version]
    bn(x.detach() * 2 + 1)
    o["buffers_2"] = [bn.running_mean, bn.running_var, bn.num_batches_tracked]
    o["state_dict"] = [[k, v] for k, v in bn.state_dict().items()]


@case
def norm_batch_norm_1d_3d_input_and_eval(T, F, o):
    bn = _set_affine(T, T.nn.BatchNorm1d(3, momentum=0.3), 42)
    x = leaf(T, 43, 4, 3, 5)
    fwd_bwd(T, o, bn(x), x=x, w=bn.weight, b=bn.bias)
    o["buffers"] = [bn.running_mean, bn.running_var]
    bn.eval()
    x2 = leaf(T, 44, 2, 3, 5)
    y = bn(x2)
    o["eval_saved"] = [y.grad_fn._saved_result1, y.grad_fn._saved_training]
    fwd_bwd(T, o, y, "y_eval", x2=x2)
    o["buffers_after_eval"] = [bn.running_mean, bn.num_batches_tracked]
    o["one_sample_in_eval"] = bn(T.tensor(arr(45, 1, 3).tolist()))


@case
def norm_batch_norm_momentum_none_and_untracked(T, F, o):
    bn = T.nn.BatchNorm1d(2, momentum=None)
    for k in range(3):
        bn(T.tensor(arr(46 + k, 6, 2).tolist()))
    o["cumulative"] = [bn.running_mean, bn.running_var, bn.num_batches_tracked]
    free = T.nn.BatchNorm2d(3, affine=False, track_running_stats=False, eps=1e-3)
    o.repr("repr", free)
    o["state"] = list(free.state_dict())
    x = leaf(T, 50, 2, 3, 2, 2, dtype="float64")
    fwd_bwd(T, o, free(x), x=x)
    free.eval()
    o.all(free(x.detach()), "y_eval")
    o.repr("reprs", [T.nn.BatchNorm1d(4, bias=False), T.nn.BatchNorm3d(2, eps=0.1, momentum=None)])


@case
def norm_batch_norm_functional_double_backward(T, F, o):
    x, w, b = leaf(T, 51, 4, 3, dtype="float64"), leaf(T, 52, 3, dtype="float64"), leaf(T, 53, 3, dtype="float64")
    for training in (True, False):
        rm, rv = T.tensor(arr(54, 3).tolist(), dtype=T.float64), T.tensor(arr(55, 3, lo=0.5).tolist(), dtype=T.float64)
        y = F.batch_norm(x, rm, rv, w, b, training=training, momentum=0.25)
        o[f"stats_{training}"] = [rm, rv]
        gx, gw, gb = T.autograd.grad((y ** 3).sum(), (x, w, b), create_graph=True)
        o[f"first_{training}"] = [gx, gw, gb]
        o[f"second_{training}"] = list(T.autograd.grad(gx.sin().sum() + (gw ** 2).sum(), (x, w)))


@case
def norm_batch_norm_errors(T, F, o):
    nn = T.nn
    x = T.tensor(arr(56, 2, 3).tolist())
    o.err("4d_to_1d", lambda: nn.BatchNorm1d(3)(T.zeros(2, 3, 4, 5)))
    o.err("1d_to_1d", lambda: nn.BatchNorm1d(3)(T.zeros(3)))
    o.err("3d_to_2d", lambda: nn.BatchNorm2d(3)(T.zeros(2, 3, 4)))
    o.err("one_value", lambda: nn.BatchNorm1d(3)(T.zeros(1, 3)))
    o.err("one_value_3d", lambda: nn.BatchNorm1d(3)(T.zeros(1, 3, 1)))
    o.err("features", lambda: nn.BatchNorm1d(3)(T.zeros(2, 4)))
    o.err("eval_without_stats", lambda: F.batch_norm(x, None, None))
    o.err("weight_size", lambda: F.batch_norm(x, None, None, training=True, weight=T.ones(4)))
    o.err("stats_size", lambda: F.batch_norm(x, T.zeros(4), T.ones(4)))
    o.err("long", lambda: F.batch_norm(x.long(), None, None, training=True))
    o.err("eps_zero", lambda: F.batch_norm(x, None, None, training=True, eps=0))
    o.err("eps_negative", lambda: F.batch_norm(x, T.zeros(3), T.ones(3), eps=-1.0))
    o.err("mixed", lambda: F.batch_norm(x.double(), T.zeros(3), T.ones(3)))
