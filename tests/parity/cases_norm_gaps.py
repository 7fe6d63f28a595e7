"""PyTorch-parity cases for three faithful gaps of the normalisations (session 10; see ``cases.py`` for the
conventions): the layout of batch_norm's output, rms_norm of an input laid out otherwise than row-major, and
batch_norm of an input without elements."""
import itertools

import numpy as np

from . import case
from .cases import arr, fwd_bwd, leaf

# 4-d inputs with dims of size 1, each stored in all 24 orders of its dims (a permuted view of a row-major tensor)
_SHAPES_4D = [(2, 3, 4, 5), (1, 3, 4, 5), (2, 1, 4, 5), (2, 3, 1, 5), (2, 3, 4, 1), (1, 3, 1, 1)]


def _stored_in_order(T, shape, perm, seed=1):
    """A tensor of ``shape`` whose dims lie in memory in the order ``perm`` (a permuted row-major tensor)."""
    base = T.tensor(arr(seed, *[shape[p] for p in perm]).tolist())
    return base.permute(*[int(i) for i in np.argsort(perm)])


def _batch_norm_strides(T, F, x, **params):
    c = x.shape[1]
    args = dict(running_mean=T.zeros(c), running_var=T.ones(c), weight=T.ones(c), bias=T.zeros(c))
    args.update(params)
    modes = (True, False) if x.numel() // c > 1 else (False,)  # (training needs more than one number per channel)
    return [list(F.batch_norm(x, training=training, **args).stride()) for training in modes]


@case
def norm_gaps_batch_norm_layouts_4d(T, F, o):
    """batch_norm_cpu's output: the input's layout when it is dense row-major or channels-last (row-major when
    both), else what its strides suggest (suggest_memory_format), for all 144 orders of the 6 shapes."""
    o["strides"] = [_batch_norm_strides(T, F, _stored_in_order(T, shape, perm))
                    for shape in _SHAPES_4D for perm in itertools.permutations(range(4))]


@case
def norm_gaps_batch_norm_layouts_more(T, F, o):
    """5-d inputs (channels-last-3d), 3-d ones, inputs that are not dense (sliced), and a weight that is not dense
    (then PyTorch goes by the input's suggested layout alone)."""
    o["5d"] = [_batch_norm_strides(T, F, _stored_in_order(T, shape, perm))
               for shape in [(2, 3, 1, 4, 1), (1, 3, 2, 2, 2)] for perm in itertools.permutations(range(5))]
    o["3d"] = [_batch_norm_strides(T, F, _stored_in_order(T, shape, perm))
               for shape in [(2, 3, 4), (1, 3, 4), (2, 3, 1)] for perm in itertools.permutations(range(3))]
    sliced = [_stored_in_order(T, (4, 6, 5, 3), (0, 1, 2, 3))[::2, ::2],
              _stored_in_order(T, (4, 3, 5, 6), (0, 2, 3, 1))[:, :, ::2],
              _stored_in_order(T, (2, 3, 4, 5), (0, 1, 2, 3))[..., ::2],
              _stored_in_order(T, (2, 3, 4, 4), (0, 2, 3, 1))[:, :, ::2]]
    o["sliced"] = [_batch_norm_strides(T, F, x) for x in sliced]
    channels_last = _stored_in_order(T, (2, 3, 1, 1), (0, 2, 3, 1))  # (dense both ways: row-major wins)
    strided = T.ones(6)[::2]
    o["strided_weight"] = [_batch_norm_strides(T, F, x, weight=strided)
                           for x in (channels_last, _stored_in_order(T, (2, 3, 4, 5), (0, 2, 3, 1)))]


@case
def norm_gaps_rms_norm_transposed_in_place(T, F, o):
    """difftest seed 632329: rms_norm of an input transposed in place; PyTorch's rms_norm_composite copies a
    result that is not row-major into row-major (``.contiguous()``: CloneBackward0 at the top)."""
    x = leaf(T, 1, 2, 1, 3, rg=False)
    x.transpose_(0, -1)
    w = leaf(T, 2, 3, 1, 2)
    y = F.rms_norm(x, x.shape[2:], w[0, 0], eps=0.1)
    o["stride"] = list(y.stride())
    fwd_bwd(T, o, y, depth=4, w=w)


@case
def norm_gaps_rms_norm_layouts(T, F, o):
    """Each of the 24 orders of a 4-d input that requires grad: the grad_fn (CloneBackward0 unless the result is
    row-major already or the input is channels-last), the strides and the numbers."""
    results = []
    for perm in itertools.permutations(range(4)):
        x = _stored_in_order(T, (2, 3, 1, 4), perm).requires_grad_()
        y = F.rms_norm(x, (4,), eps=0.1)
        results.append([type(y.grad_fn).__name__, list(y.stride())])
    o["layouts"] = results
    x = leaf(T, 3, 4, 3).t()
    fwd_bwd(T, o, F.rms_norm(x, (4,), eps=0.1), name="t", x=x)


@case
def norm_gaps_batch_norm_empty(T, F, o):
    """batch_norm of an input without elements: a copy (times weight[0], plus bias[0]) before any check of the
    other arguments (running statistics of size 1 for 3 channels, an integer input, none in evaluation)."""
    for i, shape in enumerate([(0, 3), (0, 1), (2, 0), (0, 1, 4), (0,)]):
        for training in (True, False):
            x = T.zeros(shape, requires_grad=True)
            y = F.batch_norm(x, T.zeros(1), T.ones(1), training=training)
            o[f"{i}.{training}"] = [list(y.shape), type(y.grad_fn).__name__]
            w, b = T.ones(1, requires_grad=True), T.zeros(1, requires_grad=True)
            y = F.batch_norm(x, T.zeros(1), T.ones(1), w, b, training=training)
            o.tree(f"{i}.{training}.affine", y)
            o[f"{i}.{training}.affine.y"] = y
            y.sum().backward()
            o.grads(f"{i}.{training}.", w=w, b=b)
    o["integer"] = F.batch_norm(T.zeros(0, 3, dtype=T.int64), T.zeros(1), T.ones(1), training=False)
    o["no_stats_eval"] = F.batch_norm(T.zeros(0, 3), None, None, training=False)
    o.val("float64_input", lambda: F.batch_norm(T.zeros(0, 3, dtype=T.float64), T.zeros(1), T.ones(1), T.ones(1),
                                                T.ones(1), training=False))
    o.err("empty_weight", lambda: F.batch_norm(T.zeros(0, 3), T.zeros(1), T.ones(1), T.zeros(0), training=False))
    o.err("0-dim_weight", lambda: F.batch_norm(T.zeros(0, 3), T.zeros(1), T.ones(1), T.tensor(2.0), training=False))
    o.err("one_per_channel", lambda: F.batch_norm(T.zeros(1, 0), T.zeros(1), T.ones(1), training=True))
    o.err("eps", lambda: F.batch_norm(T.zeros(0, 3), T.zeros(1), T.ones(1), training=True, eps=0.0))
