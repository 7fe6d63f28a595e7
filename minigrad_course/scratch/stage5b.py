"""Build it yourself, stage 5b (after notebook 05b): what the two-moons network needs.

Stage 5 as it is (imported below: your ``my_autograd.py`` in the notebook), plus the pieces of
``nn.Sequential(nn.Linear(2, 16), nn.Tanh(), ..., nn.Linear(16, 2))`` and ``nn.CrossEntropyLoss``:

- ``Addmm``: ``bias + input @ mat2``, PyTorch's ``AddmmBackward0`` (what ``nn.Linear`` records);
  the bias, added to every row, gets the gradient summed over the rows;
- ``TanhFunction``: PyTorch's ``TanhBackward0``, the derivative ``1 - tanh(x)^2`` from the output;
- ``CrossEntropy``: softmax and cross-entropy fused in one Function (log-sum-exp forward, backward
  ``(softmax(z) - onehot(y)) / rows``); PyTorch records two nodes for it (``LogSoftmaxBackward0``
  and ``NllLossBackward0``), which together give the same gradient;
- the modules ``Linear``, ``Tanh``, ``Sequential`` and ``CrossEntropyLoss``.
Notebook 05b's exercise writes ``CrossEntropy``; the rest is given there.
"""
import numpy as np

from .stage5 import *  # noqa: F401,F403  (Tensor, Function, Parameter, Module, SGD, ... from stage 5)
from .stage5 import Function, Module, Parameter, Tensor

rng = np.random.default_rng(0)  # the initial weights' generator (PyTorch has its own: the values differ)


class Addmm(Function):
    node_name = "AddmmBackward0"

    @staticmethod
    def forward(ctx, bias, input, mat2):
        ctx.save_for_backward(input, mat2)
        return Tensor(bias.data + input.data @ mat2.data)

    @staticmethod
    def backward(ctx, grad):
        input, mat2 = ctx.saved_tensors
        return (Tensor(grad.data.sum(axis=0)) if ctx.needs_input_grad[0] else None,  # summed over the rows
                grad.mm(mat2.t()) if ctx.needs_input_grad[1] else None,
                input.t().mm(grad) if ctx.needs_input_grad[2] else None)


class TanhFunction(Function):
    node_name = "TanhBackward0"

    @staticmethod
    def forward(ctx, x):
        out = Tensor(np.tanh(x.data))
        ctx.save_for_backward(out)
        return out

    @staticmethod
    def backward(ctx, grad):
        out, = ctx.saved_tensors
        return grad * Tensor(1 - out.data * out.data)


class CrossEntropy(Function):
    """The mean over the rows of ``-log softmax(logits)[target]``; ``target`` holds one class per row."""

    @staticmethod
    def forward(ctx, logits, target):
        z, y = logits.data, target.data.astype(np.int64)
        shifted = z - z.max(axis=1, keepdims=True)            # log-sum-exp: no exponent above 0
        log_p = shifted - np.log(np.exp(shifted).sum(axis=1, keepdims=True))
        ctx.probs, ctx.target = np.exp(log_p), y
        return Tensor(-log_p[np.arange(len(y)), y].mean())

    @staticmethod
    def backward(ctx, grad):
        g = ctx.probs.copy()
        g[np.arange(len(ctx.target)), ctx.target] -= 1         # softmax(z) - onehot(y)
        return Tensor(g / len(ctx.target) * grad.data), None


class Linear(Module):
    """``input @ weight.t() + bias``; weight and bias uniform on +-1/sqrt(in_features), as PyTorch's."""

    def __init__(self, in_features, out_features):
        super().__init__()
        bound = 1 / np.sqrt(in_features)
        self.weight = Parameter(rng.uniform(-bound, bound, (out_features, in_features)).astype(np.float32))
        self.bias = Parameter(rng.uniform(-bound, bound, out_features).astype(np.float32))

    def forward(self, input):
        return Addmm.apply(self.bias, input, self.weight.t())


class Tanh(Module):
    def forward(self, input):
        return TanhFunction.apply(input)


class Sequential(Module):
    """Calls its modules one after the other; they are registered as ``"0"``, ``"1"``, ..."""

    def __init__(self, *modules):
        super().__init__()
        self.layers = modules
        for i, m in enumerate(modules):
            setattr(self, str(i), m)

    def forward(self, input):
        for m in self.layers:
            input = m(input)
        return input


class CrossEntropyLoss(Module):
    def forward(self, input, target):
        return CrossEntropy.apply(input, target)
