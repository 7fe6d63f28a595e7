"""``embedding``: look up rows of a weight matrix by index (PyTorch: ``torch.embedding``, ``aten/src/ATen/native/Embedding.cpp``).

The forward is plain indexing, ``weight[indices]``.  The backward is where the idea is: every time row ``k``
was looked up, the gradient of that output row flows back to row ``k``, so an index that appears twice gets
the sum of two gradients (``embedding_dense_backward``: ``grad_weight[k] += grad[i]`` for each ``i`` in turn).
The row ``padding_idx`` gets none; ``scale_grad_by_freq`` divides each row's gradient by how often it was used.
"""
import numpy as np

from .dispatch import Op
from ._util import NoEdge
from .._core.tensor_base import TensorBase as Tensor, cpp_type_name, unsigned


def check_indices(indices, function):
    """Indices (an array) are Long or Int (PyTorch's ``checkScalarTypes``)."""
    if indices.dtype.name not in ("int64", "int32"):
        raise RuntimeError(f"Expected tensor for argument #1 'indices' to have one of the following scalar types: "
                           f"Long, Int; but got {cpp_type_name(Tensor(indices))} instead (while checking arguments "
                           f"for {function})")


class Embedding(Op):
    """``weight[indices]``: one row of ``weight`` per index (PyTorch: ``EmbeddingBackward0``).

    ``indices`` comes wrapped in ``NoEdge``, not as an input tensor: it gets no edge, as in PyTorch, where the node
    has one ``next_functions`` entry (the weight's); the node saves it (changed in place before backward, it
    raises)."""
    node_name = "EmbeddingBackward0"
    saved_names = {"indices": 0, "padding_idx": "shown_padding_idx", "scale_grad_by_freq": "scale_grad_by_freq",
                   "sparse": "sparse", "weight_sym_argsize_0": "num_weights"}  # (grad_fn._saved_*)

    @staticmethod
    def forward(ctx, weight, indices, padding_idx, scale_grad_by_freq, sparse):
        indices = indices.tensor
        idx = indices._data
        if weight._data.ndim != 2:
            raise RuntimeError("'weight' must be 2-D")
        check_indices(idx, "embedding")
        if idx.size and (idx.min() < 0 or idx.max() >= weight._data.shape[0]):
            raise IndexError("index out of range in self")
        ctx.save_for_backward(indices)
        ctx.padding_idx, ctx.num_weights = padding_idx, weight._data.shape[0]
        ctx.scale_grad_by_freq, ctx.sparse = scale_grad_by_freq, sparse
        ctx.shown_padding_idx = unsigned(padding_idx)  # (PyTorch shows its "none", -1, as an unsigned 64-bit number)
        return Tensor(weight._data[idx])

    @staticmethod
    def backward(ctx, grad):
        indices, = ctx.saved_tensors
        return (EmbeddingDenseBackward.apply(grad, NoEdge(indices), ctx.num_weights, ctx.padding_idx,
                                             ctx.scale_grad_by_freq), None, None, None, None)


class EmbeddingDenseBackward(Op):
    """embedding's backward formula as one op (PyTorch: ``embedding_dense_backward``): a zero matrix of the
    weight's shape, then ``grad_weight[k] += grad[i] * scale`` for each looked-up index ``k = indices[i]`` in
    turn, skipping ``padding_idx``; ``scale`` is 1, or 1 / (how often ``k`` was looked up) with
    ``scale_grad_by_freq``.  Its own backward (``EmbeddingDenseBackwardBackward0``, PyTorch's
    ``embedding_dense_double_backward``) looks the rows up again: ``gg.index_select(0, indices)`` with the
    padding rows zeroed (without the frequency scale, as in PyTorch)."""
    node_name = "EmbeddingDenseBackwardBackward0"
    saved_names = {"indices": 0, "padding_idx": "shown_padding_idx"}  # (grad_fn._saved_*)

    @staticmethod
    def forward(ctx, grad, indices, num_weights, padding_idx, scale_grad_by_freq):
        ctx.save_for_backward(indices.tensor)
        ctx.padding_idx = padding_idx
        ctx.shown_padding_idx = unsigned(padding_idx)  # (as in Embedding)
        idx = indices.tensor._data.reshape(-1)
        g = grad._data.reshape(idx.size, -1)
        grad_weight = np.zeros((num_weights, g.shape[1]), g.dtype)
        kept = idx != padding_idx
        idx, g = idx[kept], g[kept]
        if scale_grad_by_freq:  # (the scale is a double, cast to the gradient's dtype as the add's alpha is)
            counts = np.bincount(idx, minlength=num_weights)
            g = g * (1.0 / counts[idx]).astype(g.dtype)[:, None]
        # in order of appearance: repeated indices add up (np.add.at(grad_weight, idx, g), as one add.at over the
        # numbers of the flattened matrix, which numpy runs much faster than one over its rows)
        columns = g.shape[1]
        np.add.at(grad_weight.reshape(-1), (idx.astype(np.int64)[:, None] * columns + np.arange(columns)).reshape(-1),
                  g.reshape(-1))
        return Tensor(grad_weight)

    @staticmethod
    def backward(ctx, gg):
        indices, = ctx.saved_tensors
        rows = gg.index_select(0, indices.reshape(-1))
        if ctx.padding_idx >= 0:
            rows.masked_fill_((indices == ctx.padding_idx).reshape(-1, 1), 0)
        return rows.view(*indices.shape, -1), None, None, None, None


def embedding_renorm_(weight, indices, max_norm, norm_type):
    """``torch.embedding_renorm_``: each row of ``weight`` that ``indices`` looks up (once per distinct index,
    in sorted order) whose ``norm_type``-norm exceeds ``max_norm`` is scaled in place by
    ``max_norm / (norm + 1e-7)``.  ``F.embedding`` calls it under ``no_grad`` on ``weight.detach()``: the
    numbers of the weight change, and its version, not its graph."""
    if weight.dim() != 2:
        raise RuntimeError(f"Expected 2-dimensional tensor, but got {weight.dim()}-dimensional tensor for argument "
                           "#1 'self' (while checking arguments for embedding_renorm_)")
    check_indices(indices._data, "embedding_renorm_")
    for k in np.unique(indices._data):
        row = weight[int(k)]
        norm = row.norm(norm_type).item()
        if norm > max_norm:
            row.mul_(max_norm / (norm + 1e-7))
    return weight
