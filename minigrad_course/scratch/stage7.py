"""Build it yourself, stage 7 (after notebook 07): the first layer, an embedding.

Stage 6 as it is (imported below), plus ``embedding(indices, weight)``, PyTorch's
``F.embedding(input, weight)``: the rows of ``weight`` that ``indices`` name, shape
``[*indices.shape, D]``.  Its node, ``EmbeddingBackward0``, adds every row of the gradient into
the row it was read from (a scatter-add: a row read twice gets both gradients, ``np.add.at``).
``indices`` are whole numbers (a list or a numpy array of ints), not a Tensor: like a plain number
given to a Function in notebook 04b, they get no edge, so the node has one, to the weight.
"""
import numpy as np

from . import stage6
from .stage6 import *  # noqa: F401,F403  (Tensor, Function, no_grad, the engine, ... from stage 6)
from .stage6 import BackwardNode, Function, Tensor, no_grad


class Embedding(Function):
    node_name = "EmbeddingBackward0"

    @classmethod
    def apply(cls, indices, weight):
        """Function.apply with an edge for the weight only: the indices are numbers, not a tensor."""
        ctx = BackwardNode(cls, (weight,))
        with no_grad():
            out = cls.forward(ctx, indices, weight)
        if stage6.grad_enabled and weight.requires_grad:
            out.grad_fn, out.requires_grad = ctx, True
        return out

    @staticmethod
    def forward(ctx, indices, weight):
        ctx.indices = np.asarray(indices, dtype=np.int64)
        ctx.num_rows = weight.data.shape[0]
        return Tensor(weight.data[ctx.indices])

    @staticmethod
    def backward(ctx, grad):
        rows = grad.data.reshape(-1, grad.data.shape[-1])
        grad_weight = np.zeros((ctx.num_rows, rows.shape[1]), dtype=np.float32)
        np.add.at(grad_weight, ctx.indices.reshape(-1), rows)  # a repeated index adds, never overwrites
        return Tensor(grad_weight)


def embedding(indices, weight):
    return Embedding.apply(indices, weight)
