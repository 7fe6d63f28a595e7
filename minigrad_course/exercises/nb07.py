"""Checks for notebook 07 (the layers of a real network are Functions too), and its helpers.

The helpers come first: ``im2col`` and ``col2im``, the two halves of a convolution written as a
matrix product (the notebook shows their source), and ``load_digits``, the 8x8 handwritten
digits the notebook's CNN learns (``minigrad_course/data/digits.npz``, CC BY 4.0).

The checks run each of your layers on hidden inputs and compare its output and gradients with
numbers computed here, then run ``gradcheck`` on it in float64.  Every failure gives hint tiers:
the idea first, then where to look, then a partial step; never a line of the notebook's solution.
"""
import os

import numpy as np

import minigrad
from minigrad.tensor import Tensor
from . import _check
from .nb04 import error_tiers, gradcheck_step

DATA = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "data", "digits.npz")


# ---------------------------------------------------------------------------- helpers the notebook uses
def load_digits():
    """The 1,797 handwritten digits: images as float32 in [0, 1], shape [1797, 1, 8, 8], and labels
    (int64, 0-9). The same numbers as ``sklearn.datasets.load_digits`` (pixels 0-16, divided by 16)."""
    with np.load(DATA) as data:
        images, labels = data["images"], data["labels"]
    return (images.astype(np.float32)[:, None] / 16).astype(np.float32), labels.astype(np.int64)


def patch_index(channels, height, width, k):
    """Where each entry of each k x k patch sits in an image flattened to ``channels * height * width``
    numbers: an int64 tensor of shape [channels * k * k, L], one column per patch (L patches, row by
    row), its rows in the order of a flattened [channels, k, k] weight."""
    c, di, dj = np.meshgrid(np.arange(channels), np.arange(k), np.arange(k), indexing="ij")
    oi, oj = np.meshgrid(np.arange(height - k + 1), np.arange(width - k + 1), indexing="ij")
    within_patch = (c * height * width + di * width + dj).reshape(-1, 1)
    patch_start = (oi * width + oj).reshape(1, -1)
    return minigrad.tensor(within_patch + patch_start)


def im2col(x, k):
    """``x`` of shape [N, C, H, W] -> its k x k patches as columns, shape [N, C*k*k, L] (stride 1, no
    padding): PyTorch's ``F.unfold(x, k)``. One indexing op: its backward adds every column back
    where it was read from."""
    n, c, h, w = x.shape
    return x.reshape(n, c * h * w)[:, patch_index(c, h, w, k)]


def col2im(cols, shape, k):
    """The transpose of ``im2col``: columns [N, C*k*k, L] added back into an image of ``shape``
    [N, C, H, W]; an entry that sits in several patches gets the sum. PyTorch's ``F.fold``."""
    n, c, h, w = shape
    index = patch_index(c, h, w, k).flatten()
    image = minigrad.zeros(n, c * h * w, dtype=cols.dtype)
    return image.index_add(1, index, cols.reshape(n, -1)).reshape(n, c, h, w)


# ---------------------------------------------------------------------------- shared steps
def _hinted(report, *tiers):
    for tier in tiers:
        _check.add_hint(report, tier)
    return report


def _tensor(generator, shape, dtype=np.float64, low=-2.0, high=2.0, requires_grad=True):
    return Tensor(generator.uniform(low, high, size=shape).astype(dtype), requires_grad=requires_grad)


def _array(t):
    return np.asarray(t._data if isinstance(t, Tensor) else t, dtype=np.float64)


def _at(report, where):
    """Name the hidden input in the first line of a Report (``where``: " for x of shape [2, 3]")."""
    first, _, rest = report.text.partition("\n")
    report.text = first + where.split(":")[0] + ("\n" + rest if rest else "")
    return report


def _run(title, fn, inputs, example, returns, where=""):
    """``fn(*inputs)``: the output tensor, or a failed Report."""
    out, err = _check.call(title, fn, *inputs, returns=returns)
    if err is not None:
        return _hinted(_at(err, where), *error_tiers(err.text, example))
    if not isinstance(out, Tensor):
        return _check.failed(title, f"forward should return a minigrad Tensor, got {type(out).__name__}",
                             hint=["forward works on tensors and returns a tensor, as in notebook 04.",
                                   "build the output with tensor operations; don't call .numpy() or .item()."])
    if out.grad_fn is None:
        return _check.failed(title, "the output has no grad_fn: call your Function with .apply(...)",
                             hint=["the check calls YourFunction.apply(...): forward must return the result "
                                   "(a tensor), and apply connects it to the graph.",
                                   "does forward return something computed from its inputs?"])
    return out


def _backward(title, out, inputs, g, example, tiers=None, where=""):
    """Run backward with ``g``; the inputs' gradients (None where no gradient arrived) or a Report
    (with ``tiers``, if given, else tiers made from the error)."""
    for t in inputs:
        if isinstance(t, Tensor):
            t.grad = None
    _, err = _check.call(title, out.backward, g)
    if err is not None:
        err.text = err.text.replace("your code raised", "your backward raised", 1)
        return _hinted(_at(err, where), *(tiers or error_tiers(err.text, example)))
    return [None if not isinstance(t, Tensor) or t.grad is None else _array(t.grad) for t in inputs]


class _Numbers:
    """Numbers as a report shows them: all of a small array, rounded; the first ones of a large one."""

    def __init__(self, values, shown=12):
        self.values, self.shown = np.round(np.asarray(values, dtype=np.float64), 4), shown

    def __repr__(self):
        flat = self.values.reshape(-1)
        if flat.size <= self.shown:
            return repr(self.values)
        return f"{flat[:self.shown].tolist()} ... (the first {self.shown} of {flat.size} numbers, shape {list(self.values.shape)})"


def _not_a_function(title, answer):
    """A failed Report if ``answer`` is not a Function class (a subclass with ``apply``), else None."""
    if isinstance(answer, type) and callable(getattr(answer, "apply", None)):
        return None
    return _check.failed(title, f"{title} should be a Function class (class {title}(Function): ...), got {answer!r}",
                         hint=[f"run the exercise cell that defines class {title}, then this one.",
                               f"the check calls {title}.apply(...): keep the class's name, and don't assign "
                               f"anything else to {title} afterwards."])


def _compare(title, got, expected, what, where, hint, atol=1e-6):
    if got is None:
        return _check.failed(title, f"no gradient reached {what}{where}",
                             hint=["backward returns one gradient per argument of forward, in the same order; "
                                   "None only for an argument that needs none.", hint[0]])
    if got.shape != expected.shape:
        return _check.failed(title, f"the gradient of {what} has the wrong shape{where}",
                             expected=expected.shape, got=got.shape, hint=hint)
    if not np.allclose(got, expected, atol=atol, rtol=1e-5):
        return _check.failed(title, f"wrong gradient for {what}{where}", expected=_Numbers(expected),
                             got=_Numbers(got), hint=hint)
    return None


# ---------------------------------------------------------------------------- exercise 1: embedding
_EMB_TIERS = ["row i of the weight is read once for every position where i appears in indices; each read sends "
              "its own gradient back, and the gradients of the same row add up (the rule of notebook 01: a value "
              "used twice gets the sum).",
              "start from zeros shaped like the weight, and add every row of grad_output into the row its index "
              "names: index_add (or a one-hot matrix product) adds; assigning with [...] = keeps only the last "
              "write for a repeated index."]


@_check.reference
def _embedding_expected(indices, weight_shape, g):
    grad = np.zeros(weight_shape)
    np.add.at(grad, indices.reshape(-1), g.reshape(-1, weight_shape[1]))
    return grad


@_check.exercise("Embedding")
def check_embedding(Embedding):
    """Exercise 1: ``Embedding.apply(indices, weight)`` gives weight's rows; its backward is a scatter-add."""
    title = "Embedding"
    report = _not_a_function(title, Embedding)
    if report is not None:
        return report
    r = _check.rng(700)
    example = "w = minigrad.randn(5, 3, requires_grad=True); Embedding.apply(minigrad.tensor([1, 3, 1]), w).sum().backward()"
    cases = [("indices [1, 3, 1] into a 5x3 weight", np.array([1, 3, 1]), (5, 3)),
             ("indices of shape [2, 4] into a 6x2 weight", r.integers(0, 6, size=(2, 4)), (6, 2)),
             ("the same index four times", np.array([2, 2, 2, 2]), (4, 3)),
             ("hidden indices of shape [3, 5] into a 7x4 weight", r.integers(0, 7, size=(3, 5)), (7, 4))]
    for what, idx, shape in cases:
        where = f" for {what}: indices = {idx.tolist()}"
        weight = _tensor(r, shape)
        indices = minigrad.tensor(idx)
        out = _run(title, Embedding.apply, (indices, weight), example, "the rows of weight that indices pick", where)
        if not isinstance(out, Tensor):
            return out
        expected = _array(weight)[idx]
        if tuple(out.shape) != expected.shape or not np.allclose(_array(out), expected):
            return _check.failed(title, f"wrong output{where}", expected=expected.shape, got=tuple(out.shape),
                                 hint=["the output has one row of weight per index, in the indices' own shape "
                                       "plus the embedding size: [*indices.shape, D].",
                                       "indexing the weight with the indices tensor picks those rows."]) \
                if tuple(out.shape) != expected.shape else \
                _check.failed(title, f"wrong output{where}", expected=_Numbers(expected),
                              got=_Numbers(_array(out)),
                              hint=["the output's row j is weight's row indices[j].",
                                    "index the weight's first dimension with the indices."])
        g = r.uniform(-1, 1, size=expected.shape)
        flat = ["indices can have any shape (a batch of token sequences is [B, T]), and grad_output is "
                "[*indices.shape, D]: every position's row of grad_output goes to the row its index names.",
                "flatten the indices to one dimension and grad_output to [-1, D] before you add the rows up."]
        grads = _backward(title, out, (indices, weight), Tensor(g), example, flat if idx.ndim > 1 else None, where=where)
        if not isinstance(grads, list):
            return grads
        want = _embedding_expected(idx, shape, g)
        got = grads[1]
        if got is not None and got.shape == want.shape and len(set(idx.reshape(-1).tolist())) < idx.size:
            last_write = np.zeros(shape)
            last_write[idx.reshape(-1)] = g.reshape(-1, shape[1])
            if np.allclose(got, last_write) and not np.allclose(got, want):
                return _check.failed(title, f"a row picked twice got only one of its gradients{where}",
                                     expected=_Numbers(want), got=_Numbers(got), hint=_EMB_TIERS)
        report = _compare(title, got, want, "weight", where, _EMB_TIERS)
        if report is not None:
            return report
    idx = r.integers(0, 5, size=6)
    report = gradcheck_step(title, lambda w: Embedding.apply(minigrad.tensor(idx), w), (_tensor(r, (5, 3)),),
                            _EMB_TIERS, example)
    if report is not None:
        return report
    return _check.passed(title, "the rows come out in the indices' shape, and equal indices add their gradients, "
                                "as EmbeddingBackward0 does (gradcheck agrees).")


# ---------------------------------------------------------------------------- exercise 2: batch norm
EPS = 1e-5
_BN_TIERS = ["the mean and the variance are computed from the batch, so they depend on every x in it: x_i reaches "
             "the output along three paths (directly, through the mean, through the variance), and its gradient "
             "adds all three.",
             "in the notation of section 2 (d is the output's gradient times the weight, s is invstd), the two "
             "extra paths subtract the column mean of d, and x-hat times the column mean of d times x-hat; then "
             "everything is multiplied by s.",
             "every mean is over the batch, dimension 0, keepdim=True, so that it broadcasts against [N, C]."]
_BN_PARAM_TIERS = ["the output is x-hat, times weight, plus bias, column by column: the gradient of bias adds grad_output over the "
                   "batch, the gradient of weight adds grad_output * x_hat over the batch.",
                   "both are sums over dimension 0, of shape [C], like the parameters."]


@_check.reference
def _batch_norm_expected(x, w, b, g):
    mean = x.mean(0)
    invstd = 1 / np.sqrt(x.var(0) + EPS)
    xhat = (x - mean) * invstd
    dxhat = g * w
    dx = invstd * (dxhat - dxhat.mean(0) - xhat * (dxhat * xhat).mean(0))
    return xhat * w + b, dx, (g * xhat).sum(0), g.sum(0)


@_check.exercise("BatchNorm")
def check_batch_norm(BatchNorm):
    """Exercise 2: ``BatchNorm.apply(x, weight, bias)`` normalises each column of x over the batch (training
    mode, biased variance, eps=1e-5) and its backward is the classic one."""
    title = "BatchNorm"
    report = _not_a_function(title, BatchNorm)
    if report is not None:
        return report
    r = _check.rng(710)
    example = ("x = minigrad.randn(4, 3, dtype=minigrad.float64, requires_grad=True); "
               "BatchNorm.apply(x, minigrad.ones(3), minigrad.zeros(3)).backward(minigrad.randn(4, 3))")
    for n, c in ((4, 3), (2, 5), (16, 2)):
        x, w, b = _tensor(r, (n, c), low=-3, high=3), _tensor(r, (c,), low=0.5, high=2), _tensor(r, (c,))
        where = f" for x of shape [{n}, {c}]"
        out = _run(title, BatchNorm.apply, (x, w, b), example, "the normalised x, scaled and shifted", where)
        if not isinstance(out, Tensor):
            return out
        y, dx, dw, db = _batch_norm_expected(_array(x), _array(w), _array(b), g := r.uniform(-1, 1, (n, c)))
        got = _array(out)
        if got.shape != y.shape:
            return _check.failed(title, f"the output has the wrong shape{where}", expected=y.shape, got=got.shape,
                                 hint=["the output is shaped like x, [N, C].",
                                       "means over the batch need keepdim=True to broadcast back over [N, C]."])
        if not np.allclose(got, y, atol=1e-6):
            xv = _array(x)
            unbiased = (xv - xv.mean(0)) / np.sqrt(xv.var(0, ddof=1) + EPS) * _array(w) + _array(b)
            if np.allclose(got, unbiased, atol=1e-6):
                return _check.failed(title, f"the output uses the unbiased variance (divided by N - 1){where}",
                                     hint=["training-mode batch norm normalises with the biased variance, the mean "
                                           "of the squared deviations (divided by N).",
                                           "x.var(0) is unbiased by default, as in PyTorch: ask for "
                                           "unbiased=False, or take the mean of (x - mean) ** 2 yourself."])
            return _check.failed(title, f"wrong output{where}", expected=_Numbers(y), got=_Numbers(got),
                                 hint=["each column is normalised on its own: subtract its batch mean, divide by "
                                       "sqrt(batch variance + eps), then times weight plus bias.",
                                       "means and variances over dimension 0, with eps = 1e-5 inside the root."])
        grads = _backward(title, out, (x, w, b), Tensor(g), example, where=where)
        if not isinstance(grads, list):
            return grads
        if grads[0] is not None and grads[0].shape == dx.shape:
            xv = _array(x)
            constant = g * _array(w) / np.sqrt(xv.var(0) + EPS)
            if np.allclose(grads[0], constant, atol=1e-6):
                return _check.failed(title, f"the gradient of x treats the mean and the variance as constants{where}",
                                     expected=_Numbers(dx), got=_Numbers(grads[0]), hint=_BN_TIERS)
        for got_grad, want, what, tiers in ((grads[0], dx, "x", _BN_TIERS), (grads[1], dw, "weight", _BN_PARAM_TIERS),
                                            (grads[2], db, "bias", _BN_PARAM_TIERS)):
            report = _compare(title, got_grad, want, what, where, tiers)
            if report is not None:
                return report
    inputs = (_tensor(r, (5, 3)), _tensor(r, (3,), low=0.5, high=2), _tensor(r, (3,)))
    report = gradcheck_step(title, BatchNorm.apply, inputs, _BN_TIERS, example)
    if report is not None:
        return report
    return _check.passed(title, "your output and all three gradients are batch norm's, in training mode "
                                "(gradcheck agrees): the numbers NativeBatchNormBackward0 gives.")


# ---------------------------------------------------------------------------- exercise 4: max pooling
_POOL_TIERS = ["each output is one entry of its 2x2 window, the largest: its gradient goes to that entry alone, "
               "and the other three entries get 0.",
               "put each window's four entries on a last dimension (a reshape and a permute), take the argmax "
               "there in forward and save it; backward writes grad_output at that position and zeros elsewhere.",
               "a one-hot tensor of the argmax (F.one_hot, or a comparison with torch.arange(4)) times grad_output "
               "with a new last dimension, then the reshape and permute of forward undone in reverse order."]
_TIE_TIERS = ["when a window holds its maximum twice, PyTorch routes the gradient to ONE entry, the first in "
              "reading order (row by row), not to every entry equal to the maximum.",
              "x == max marks every tied entry; argmax gives one position, the first."]


@_check.reference
def _pool_expected(x, g):
    n, c, h, w = x.shape
    windows = x.reshape(n, c, h // 2, 2, w // 2, 2).transpose(0, 1, 2, 4, 3, 5).reshape(n, c, h // 2, w // 2, 4)
    winner = windows.argmax(-1)
    routed = (np.arange(4) == winner[..., None]) * g[..., None]
    grad = routed.reshape(n, c, h // 2, w // 2, 2, 2).transpose(0, 1, 2, 4, 3, 5).reshape(n, c, h, w)
    return windows.max(-1), grad


@_check.exercise("MaxPool")
def check_max_pool(MaxPool):
    """Exercise 4: ``MaxPool.apply(x)``, 2x2 windows with stride 2 on [N, C, H, W] (H and W even); its
    backward routes each gradient to the window's first maximum."""
    title = "MaxPool"
    report = _not_a_function(title, MaxPool)
    if report is not None:
        return report
    r = _check.rng(720)
    example = "x = minigrad.randn(1, 1, 4, 4, requires_grad=True); MaxPool.apply(x).sum().backward()"
    ties = np.array([[[[1., 1., 0., 2.], [0., 1., 2., 2.], [3., -1., 5., 5.], [3., 3., 5., 5.]]]])
    cases = [("x of shape [1, 1, 4, 4]", r.permutation(16).reshape(1, 1, 4, 4) / 4.0),
             ("x of shape [2, 3, 4, 6]", r.uniform(-2, 2, (2, 3, 4, 6))),
             ("a 4x4 x with ties inside windows", ties),
             ("x of shape [3, 2, 2, 8]", r.uniform(-2, 2, (3, 2, 2, 8)))]
    for what, xv in cases:
        where = f" for {what}" + (f":\n      x = {xv[0, 0].tolist()}" if xv.shape[:2] == (1, 1) else "")
        x = Tensor(xv, requires_grad=True)
        out = _run(title, MaxPool.apply, (x,), example, "the maximum of every 2x2 window", where)
        if not isinstance(out, Tensor):
            return out
        y, dx = _pool_expected(xv, g := r.uniform(0.5, 1.5, (xv.shape[0], xv.shape[1], xv.shape[2] // 2,
                                                               xv.shape[3] // 2)))
        got = _array(out)
        if got.shape != y.shape or not np.allclose(got, y):
            return _check.failed(title, f"wrong output{where}",
                                 expected=_Numbers(y) if got.shape == y.shape else y.shape,
                                 got=_Numbers(got) if got.shape == y.shape else got.shape,
                                 hint=["the output has one number per 2x2 window, [N, C, H/2, W/2]: the largest "
                                       "of the four.",
                                       "windows do not overlap: window (i, j) covers rows 2i, 2i+1 and columns 2j, "
                                       "2j+1. Reshape to [N, C, H/2, 2, W/2, 2] to reach them."])
        grads = _backward(title, out, (x,), Tensor(g), example, where=where)
        if not isinstance(grads, list):
            return grads
        got = grads[0]
        if got is not None and got.shape == dx.shape and not np.allclose(got, dx):
            windows = xv.reshape(xv.shape[0], xv.shape[1], xv.shape[2] // 2, 2, xv.shape[3] // 2, 2)
            is_max = windows == windows.max(axis=(3, 5), keepdims=True)
            every_tie = (is_max * g[:, :, :, None, :, None]).reshape(xv.shape)
            if what.startswith("a 4x4") and np.allclose(got, every_tie):
                return _check.failed(title, f"the gradient went to every entry equal to the maximum{where}",
                                     expected=_Numbers(dx[0, 0]), got=_Numbers(got[0, 0]), hint=_TIE_TIERS)
            if np.allclose(got, np.repeat(np.repeat(g, 2, 2), 2, 3) / 4):
                return _check.failed(title, f"the gradient is spread evenly over each window{where}",
                                     expected=_Numbers(dx), got=_Numbers(got),
                                     hint=["that is average pooling's backward: max pooling's output depends on "
                                           "one entry of the window only."] + _POOL_TIERS[1:])
        report = _compare(title, got, dx, "x", where, _POOL_TIERS)
        if report is not None:
            return report
    report = gradcheck_step(title, MaxPool.apply, (_tensor(r, (2, 2, 4, 4)),), _POOL_TIERS, example)
    if report is not None:
        return report
    return _check.passed(title, "each gradient goes to its window's winner (the first one, on a tie), as "
                                "MaxPool2DWithIndicesBackward0 routes it (gradcheck agrees).")


# ---------------------------------------------------------------------------- exercise 3: convolution
_CONV_X_TIERS = ["forward is weight_matrix @ columns, then col2im's transpose, im2col: the gradient of columns is "
                 "weight_matrix transposed times the output's gradient, and it goes back into the image the way "
                 "columns came out of it.",
                 "reshape grad_output to [N, O, L]; weight_matrix.t() @ that is [N, C*k*k, L]; col2im adds it back "
                 "into an [N, C, H, W] image."]
_CONV_W_TIERS = ["the weight is used by every image of the batch and every patch: its gradient adds grad_output "
                 "times the columns over both.",
                 "grad_output [N, O, L] @ columns transposed [N, L, C*k*k] gives one [O, C*k*k] per image: add them "
                 "over the batch and reshape to the weight's [O, C, k, k]."]


@_check.reference
def _conv_expected(x, w, g):
    n, c, h, wd = x.shape
    o, _, k, _ = w.shape
    oh, ow = h - k + 1, wd - k + 1
    out = np.zeros((n, o, oh, ow))
    dx, dw = np.zeros_like(x), np.zeros_like(w)
    for i in range(oh):
        for j in range(ow):
            patch = x[:, :, i:i + k, j:j + k]
            out[:, :, i, j] = np.einsum("nckl,ockl->no", patch, w)
            dw += np.einsum("no,nckl->ockl", g[:, :, i, j], patch)
            dx[:, :, i:i + k, j:j + k] += np.einsum("no,ockl->nckl", g[:, :, i, j], w)
    return out, dx, dw


@_check.exercise("Conv2d")
def check_conv2d(Conv2d):
    """Exercise 3: ``Conv2d.apply(x, weight)``, a convolution (stride 1, no padding, no bias) as im2col and a
    matrix product; backward with the transposed product and col2im."""
    title = "Conv2d"
    report = _not_a_function(title, Conv2d)
    if report is not None:
        return report
    r = _check.rng(730)
    example = ("x = minigrad.randn(1, 2, 5, 5, requires_grad=True); w = minigrad.randn(3, 2, 3, 3, "
               "requires_grad=True); Conv2d.apply(x, w).sum().backward()")
    for xs, ws in (((1, 1, 4, 4), (1, 1, 2, 2)), ((2, 3, 5, 6), (4, 3, 3, 3)), ((3, 2, 4, 5), (2, 2, 2, 2))):
        x, w = _tensor(r, xs), _tensor(r, ws)
        where = f" for x of shape {list(xs)} and weight of shape {list(ws)}"
        out = _run(title, Conv2d.apply, (x, w), example, "the convolution, [N, O, H-k+1, W-k+1]", where)
        if not isinstance(out, Tensor):
            return out
        y, dx, dw = _conv_expected(_array(x), _array(w), g := r.uniform(-1, 1, (xs[0], ws[0], xs[2] - ws[2] + 1,
                                                                                 xs[3] - ws[3] + 1)))
        got = _array(out)
        if got.shape != y.shape or not np.allclose(got, y):
            return _check.failed(title, f"wrong output{where}", expected=y.shape if got.shape != y.shape else
                                 _Numbers(y), got=got.shape if got.shape != y.shape else _Numbers(got),
                                 hint=["im2col(x, k) is [N, C*k*k, L]; the weight flattened to [O, C*k*k] times it "
                                       "is [N, O, L], one row per output channel.",
                                       "reshape [N, O, L] to [N, O, H-k+1, W-k+1]: the L patches run row by row."])
        grads = _backward(title, out, (x, w), Tensor(g), example, where=where)
        if not isinstance(grads, list):
            return grads
        for got_grad, want, what, tiers in ((grads[0], dx, "x", _CONV_X_TIERS), (grads[1], dw, "weight", _CONV_W_TIERS)):
            report = _compare(title, got_grad, want, what, where, tiers)
            if report is not None:
                return report
    report = gradcheck_step(title, Conv2d.apply, (_tensor(r, (2, 2, 4, 4)), _tensor(r, (2, 2, 2, 2))),
                            _CONV_X_TIERS, example)
    if report is not None:
        return report
    return _check.passed(title, "your convolution and both gradients are ConvolutionBackward0's numbers "
                                "(gradcheck agrees): forward im2col then a product, backward the transposed "
                                "product then col2im.")


# ---------------------------------------------------------------------------- the CNN of section 5
CNN_PYTORCH = os.path.join(os.path.dirname(DATA), "digits_cnn_pytorch.json")


def digits_split(test_size=297, seed=0):
    """The digits shuffled once (numpy, ``seed``) and cut into 1,500 training and 297 test images."""
    images, labels = load_digits()
    order = np.random.default_rng(seed).permutation(len(labels))
    test, train = order[:test_size], order[test_size:]
    return images[train], labels[train], images[test], labels[test]


def make_cnn(lib, seed=0):
    """conv 3x3 (1 -> 8 channels) -> batch norm -> relu -> max pool 2x2 -> linear (72 -> 10), in ``lib``
    (minigrad or torch). The conv and linear parameters are drawn by numpy, uniform in
    +-1/sqrt(fan_in) (PyTorch's default range), so that both libraries start from the same weights."""
    nn = lib.nn
    model = nn.Sequential(nn.Conv2d(1, 8, 3), nn.BatchNorm2d(8), nn.ReLU(), nn.MaxPool2d(2),
                          nn.Flatten(), nn.Linear(8 * 3 * 3, 10))
    generator = np.random.default_rng(seed)
    with lib.no_grad():
        for layer in (model[0], model[5]):
            bound = 1 / np.sqrt(layer.weight[0].numel())
            for p in (layer.weight, layer.bias):
                p.copy_(lib.tensor(generator.uniform(-bound, bound, tuple(p.shape)).astype(np.float32)))
    return model


def train_cnn(lib, epochs=4, batch_size=100, lr=0.1):
    """Train ``make_cnn(lib)`` with SGD (momentum 0.9) on minibatches of the training digits, in the same
    order in both libraries; returns the loss of every step and the accuracy on the test digits."""
    x_train, y_train, x_test, y_test = digits_split()
    model = make_cnn(lib)
    optimizer = lib.optim.SGD(model.parameters(), lr=lr, momentum=0.9)
    order = np.random.default_rng(1)
    losses = []
    for epoch in range(epochs):
        shuffled = order.permutation(len(y_train))
        for start in range(0, len(y_train), batch_size):
            batch = shuffled[start:start + batch_size]
            loss = lib.nn.functional.cross_entropy(model(lib.tensor(x_train[batch])), lib.tensor(y_train[batch]))
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            losses.append(loss.item())
    model.eval()                               # batch norm uses its running statistics from here on
    with lib.no_grad():
        predicted = model(lib.tensor(x_test)).argmax(1)
    return losses, float((predicted == lib.tensor(y_test)).float().mean().item())


# ---------------------------------------------------------------------------- build it yourself, stage 7
@_check.reference
def _embedding_program(indices, weight_data, scale):
    """minigrad's ``(relu(embedding(indices, w)) * scale).sum()``: the output, w's gradient and the graph
    (with PyTorch's name for the embedding's node, which F.embedding records)."""
    from . import build
    w = minigrad.tensor(weight_data, requires_grad=True)
    embedding = getattr(minigrad.nn.functional, "embedding", None)
    rows = embedding(minigrad.tensor(indices), w) if embedding else w[minigrad.tensor(indices)]
    out = (rows.relu() * scale).sum()
    out.backward()
    tree = repr(build.structure(out.grad_fn)).replace("'IndexBackward0'", "'EmbeddingBackward0'")
    return out.item(), _array(w.grad), tree


_STAGE7_TIERS = ["embedding reads rows of the weight: a row that indices name twice is used twice, and its two "
                 "gradients must add up.",
                 "np.add.at(grad_weight, flat_indices, rows) adds every row, repeated indices included; "
                 "grad_weight[flat_indices] = rows keeps only the last one."]


def _stage7_checks(t, mod):
    from . import build
    yield from build._stage6_checks(t, mod)
    r = _check.rng(2700)
    cases = [("indices [1, 3, 1] into a 4x2 weight", np.array([1, 3, 1]), (4, 2)),
             ("indices of shape [2, 3] into a 5x3 weight", r.integers(0, 5, size=(2, 3)), (5, 3)),
             ("hidden indices of shape [3, 4] into a 6x2 weight", r.integers(0, 6, size=(3, 4)), (6, 2))]

    def program(what, idx, shape):
        def run():
            data = r.uniform(-1, 1, shape).astype(np.float32)
            value, grad, tree = _embedding_program(idx, data, 3.0)
            w = mod.Tensor(data, requires_grad=True)
            where = f" for {what}: (relu(embedding(indices, w)) * 3.0).sum(), indices = {idx.tolist()}"
            out, err = _check.call(t, lambda: (mod.embedding(idx, w).relu() * 3.0).sum())
            if err is not None:
                return _hinted(_at(err, where), "embedding(indices, weight) takes the indices (a list or numpy "
                                                "array of ints) and a Tensor, and returns a Tensor of rows.",
                               "stage 7's text lists what to add: an Embedding Function whose node is named "
                               "EmbeddingBackward0, and a function embedding(indices, weight).")
            if build.array(out) is None or not np.allclose(build.array(out), value, atol=1e-4):
                return _check.failed(t, "wrong value" + where, expected=value, got=build.array(out),
                                     hint=["the output's row j is the weight's row indices[j].",
                                           "index the weight's numpy data with the indices: data[indices] keeps "
                                           "the indices' shape and adds the row's."])
            got_tree = repr(build.structure(out.grad_fn))
            if got_tree != tree:
                return _check.failed(t, "the graph is not PyTorch's" + where, expected=tree, got=got_tree,
                                     hint=["PyTorch's embedding node is EmbeddingBackward0, with ONE entry in "
                                           "next_functions, the weight's: the indices are whole numbers and get "
                                           "no edge.",
                                           "make the node with the weight as its only input (Function.apply "
                                           "makes an edge for every input it is given)."])
            _, err = _check.call(t, out.backward)
            if err is not None:
                return _hinted(_at(err, where), *_STAGE7_TIERS)
            got = build.array(w.grad)
            if got is None or got.shape != grad.shape or not np.allclose(got, grad, atol=1e-5):
                return _check.failed(t, "wrong gradient of the weight" + where, expected=_Numbers(grad),
                                     got=_Numbers(got) if got is not None else None,
                                     hint=_STAGE7_TIERS)
        return run
    for what, idx, shape in cases:
        yield program(what, idx, shape)


@_check.exercise("my_autograd")
def check_stage7(mod):
    """Build it yourself, stage 7: stage 6's checks, then ``embedding(indices, weight)`` against minigrad."""
    from . import build
    return build._check(7, _stage7_checks, mod)
