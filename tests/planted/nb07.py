"""Wrong answers planted in the checks of ``07_layers_are_functions.ipynb`` (see ``__init__.py``).

Each is the notebook's answer with one mistake in it (``_mistake``)."""
from . import Wrong

_HEAD = ("import minigrad\n"
         "import minigrad.nn.functional as F\n"
         "from minigrad.autograd import Function\n"
         "from minigrad_course.exercises.nb07 import im2col, col2im\n\n")

EMBEDDING = _HEAD + '''class Embedding(Function):
    @staticmethod
    def forward(ctx, indices, weight):
        ctx.save_for_backward(indices)
        ctx.num_rows = weight.shape[0]
        return weight[indices]

    @staticmethod
    def backward(ctx, grad_output):
        indices, = ctx.saved_tensors
        rows = grad_output.reshape(-1, grad_output.shape[-1])
        grad_weight = minigrad.zeros(ctx.num_rows, rows.shape[1], dtype=grad_output.dtype)
        return None, grad_weight.index_add(0, indices.flatten(), rows)
'''

BATCH_NORM = _HEAD + '''class BatchNorm(Function):
    @staticmethod
    def forward(ctx, x, weight, bias):
        mean = x.mean(0, keepdim=True)
        var = ((x - mean) ** 2).mean(0, keepdim=True)
        invstd = 1 / (var + 1e-5).sqrt()
        x_hat = (x - mean) * invstd
        ctx.save_for_backward(x_hat, invstd, weight)
        return x_hat * weight + bias

    @staticmethod
    def backward(ctx, grad_output):
        x_hat, invstd, weight = ctx.saved_tensors
        dx_hat = grad_output * weight
        grad_x = invstd * (dx_hat - dx_hat.mean(0, keepdim=True)
                           - x_hat * (dx_hat * x_hat).mean(0, keepdim=True))
        return grad_x, (grad_output * x_hat).sum(0), grad_output.sum(0)
'''

MAX_POOL = _HEAD + '''class MaxPool(Function):
    @staticmethod
    def forward(ctx, x):
        n, c, h, w = x.shape
        windows = x.reshape(n, c, h // 2, 2, w // 2, 2).permute(0, 1, 2, 4, 3, 5).reshape(n, c, h // 2, w // 2, 4)
        winner = windows.argmax(-1)
        ctx.save_for_backward(winner)
        ctx.shape = x.shape
        return windows.amax(-1)

    @staticmethod
    def backward(ctx, grad_output):
        winner, = ctx.saved_tensors
        n, c, h, w = ctx.shape
        routed = F.one_hot(winner, 4).to(grad_output.dtype) * grad_output.unsqueeze(-1)
        return routed.reshape(n, c, h // 2, w // 2, 2, 2).permute(0, 1, 2, 4, 3, 5).reshape(n, c, h, w)
'''

CONV = _HEAD + '''class Conv2d(Function):
    @staticmethod
    def forward(ctx, x, weight):
        n, _, h, w = x.shape
        o, _, k, _ = weight.shape
        columns = im2col(x, k)
        ctx.save_for_backward(x, weight, columns)
        return (weight.reshape(o, -1) @ columns).reshape(n, o, h - k + 1, w - k + 1)

    @staticmethod
    def backward(ctx, grad_output):
        x, weight, columns = ctx.saved_tensors
        o, _, k, _ = weight.shape
        g = grad_output.reshape(grad_output.shape[0], o, -1)
        grad_weight = (g @ columns.transpose(1, 2)).sum(0).reshape(weight.shape)
        grad_x = col2im(weight.reshape(o, -1).t() @ g, x.shape, k)
        return grad_x, grad_weight
'''


def _mistake(source, *changes):
    """``source`` with each ``(old, new)`` made once (each ``old`` must be there once)."""
    for old, new in changes:
        assert source.count(old) == 1, f"{old!r} is there {source.count(old)} times"
        source = source.replace(old, new)
    return source


WRONG = {
    "nb07.check_embedding": [
        Wrong("fitted", _mistake(EMBEDDING, ("grad_output.reshape(-1, grad_output.shape[-1])", "grad_output"),
                                 ("indices.flatten()", "indices")),
              "indices can have any shape",
              "right for one-dimensional indices, like the notebook's example; a batch [B, T] of indices fails"),
        Wrong("common", _mistake(EMBEDDING, ("return None, grad_weight.index_add(0, indices.flatten(), rows)",
                                             "grad_weight[indices.flatten()] = rows\n        "
                                             "return None, grad_weight")),
              "a row picked twice got only one of its gradients",
              "assigning with [...] = keeps only the last gradient of a repeated index, instead of adding them"),
        Wrong("common", _mistake(EMBEDDING, ("return None, grad_weight.index_add(0, indices.flatten(), rows)",
                                             "return grad_weight.index_add(0, indices.flatten(), rows), None")),
              "no gradient reached weight",
              "the gradients in the wrong order: the weight's goes to indices, which needs none"),
    ],
    "nb07.check_batch_norm": [
        Wrong("fitted", _mistake(BATCH_NORM, ("dx_hat.mean(0, keepdim=True)\n", "dx_hat.sum(0, keepdim=True) / 4\n"),
                                 ("(dx_hat * x_hat).mean(0, keepdim=True)", "(dx_hat * x_hat).sum(0, keepdim=True) / 4")),
              "wrong gradient for x for x of shape [2, 5]",
              "the batch size of the notebook's example, 4, written in place of N"),
        Wrong("common", _mistake(BATCH_NORM, ("grad_x = invstd * (dx_hat - dx_hat.mean(0, keepdim=True)\n"
                                              "                           - x_hat * (dx_hat * x_hat).mean(0, keepdim=True))",
                                              "grad_x = dx_hat * invstd")),
              "treats the mean and the variance as constants",
              "only the direct path: the mean and the variance depend on x too"),
        Wrong("common", _mistake(BATCH_NORM, ("var = ((x - mean) ** 2).mean(0, keepdim=True)",
                                              "var = x.var(0, keepdim=True)")),
              "unbiased variance",
              "x.var is unbiased (divided by N - 1); training-mode batch norm divides by N"),
        Wrong("common", _mistake(BATCH_NORM, ("(grad_output * x_hat).sum(0), grad_output.sum(0)",
                                              "grad_output.sum(0), grad_output.sum(0)")),
              "wrong gradient for weight",
              "the weight's gradient without the x_hat it multiplies"),
    ],
    "nb07.check_max_pool": [
        Wrong("fitted", _mistake(MAX_POOL, ("x.reshape(n, c, h // 2, 2, w // 2, 2)", "x.reshape(n, c, h // 2, 2, h // 2, 2)"),
                                 ("routed.reshape(n, c, h // 2, w // 2, 2, 2)", "routed.reshape(n, c, h // 2, h // 2, 2, 2)")),
              "x of shape [2, 3, 4, 6]",
              "right for square inputs only, like the notebook's 4x4 example"),
        Wrong("common", _mistake(MAX_POOL, ("winner = windows.argmax(-1)\n        ctx.save_for_backward(winner)",
                                            "winner = windows == windows.amax(-1, keepdim=True)\n"
                                            "        ctx.save_for_backward(winner)"),
                                 ("F.one_hot(winner, 4).to(grad_output.dtype)", "winner.to(grad_output.dtype)")),
              "every entry equal to the maximum",
              "a mask x == max: on a tie every tied entry gets the gradient, PyTorch gives it to the first"),
        Wrong("common", _mistake(MAX_POOL, ("F.one_hot(winner, 4).to(grad_output.dtype) * grad_output.unsqueeze(-1)",
                                            "grad_output.unsqueeze(-1).expand(n, c, h // 2, w // 2, 4) / 4")),
              "spread evenly",
              "average pooling's backward"),
    ],
    "nb07.check_conv2d": [
        Wrong("fitted", _mistake(CONV, ("(g @ columns.transpose(1, 2)).sum(0)", "(g[0] @ columns[0].t())")),
              "wrong gradient for weight",
              "the weight's gradient from the first image only: right for a batch of one, like the first case"),
        Wrong("common", _mistake(CONV, ("return grad_x, grad_weight", "return None, grad_weight")),
              "no gradient reached x",
              "no gradient for the image"),
        Wrong("common", _mistake(CONV, ("weight.reshape(o, -1).t() @ g", "weight.reshape(o, -1) @ g")),
              "your backward raised",
              "the weight matrix not transposed: its shapes do not fit"),
    ],
}


def _stage7(*changes):
    """Stage 7's reference as a student's file (its relative imports made absolute), with ``changes``."""
    import importlib
    import inspect
    src = inspect.getsource(importlib.import_module("minigrad_course.scratch.stage7"))
    src = src.replace("from . import stage6", "from minigrad_course.scratch import stage6")
    src = src.replace("from .stage6 import", "from minigrad_course.scratch.stage6 import")
    return _mistake(src, *changes)


WRONG["nb07.check_stage7"] = [
    Wrong("fitted", _stage7(("rows = grad.data.reshape(-1, grad.data.shape[-1])", "rows = grad.data")),
          "for indices of shape [2, 3]",
          "right for one-dimensional indices (the notebook's example); a [B, T] batch of indices fails"),
    Wrong("common", _stage7(("np.add.at(grad_weight, ctx.indices.reshape(-1), rows)",
                             "grad_weight[ctx.indices.reshape(-1)] = rows")),
          "wrong gradient of the weight",
          "assignment keeps only the last gradient of a repeated index"),
    Wrong("common", _stage7(("ctx = BackwardNode(cls, (weight,))", "ctx = BackwardNode(cls, (Tensor(indices), weight))")),
          "the graph is not PyTorch's",
          "an edge for the indices too: PyTorch's EmbeddingBackward0 has one, to the weight"),
]
