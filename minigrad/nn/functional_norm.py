"""``torch.nn.functional``'s embedding and normalisation functions: ``embedding``, ``layer_norm``.

``minigrad.nn.functional`` imports all of these (``F.embedding``, ``F.layer_norm`` ...).  The ops themselves
(forward and backward side by side) are in ``minigrad/ops/embedding.py`` and ``minigrad/ops/norm.py``.
"""
from ..autograd import grad_mode
from ..ops import embedding as _embedding
from ..ops import norm as _norm

NO_SPARSE = ("minigrad has dense tensors only: no sparse layouts, so no sparse gradient for an embedding "
             "(sparse=True); sparse=False gives the same numbers as a dense gradient")


def embedding(input, weight, padding_idx=None, max_norm=None, norm_type=2.0, scale_grad_by_freq=False,
              sparse=False):
    """``weight[input]``, one row per index (PyTorch: ``F.embedding``, node ``EmbeddingBackward0``).

    ``padding_idx`` (negative counts from the end) names a row that gets no gradient; ``max_norm`` first
    rescales, in place and without recording, each looked-up row whose ``norm_type``-norm is above it."""
    if sparse:
        raise NotImplementedError(NO_SPARSE)
    if padding_idx is not None:
        if padding_idx > 0:
            if padding_idx >= weight.size(0):
                raise AssertionError("Padding_idx must be within num_embeddings")
        elif padding_idx < 0:
            if padding_idx < -weight.size(0):
                raise AssertionError("Padding_idx must be within num_embeddings")
            padding_idx = weight.size(0) + padding_idx
    else:
        padding_idx = -1
    if max_norm is not None:
        with grad_mode.no_grad():
            _embedding.embedding_renorm_(weight.detach(), input, max_norm, norm_type)
    return _embedding.Embedding.apply(weight, input._data, padding_idx, scale_grad_by_freq, sparse)


def layer_norm(input, normalized_shape, weight=None, bias=None, eps=1e-5):
    """Normalise each sample over its last dims ``normalized_shape`` (an int or a tuple), then ``* weight +
    bias`` (PyTorch: ``F.layer_norm``, one node ``NativeLayerNormBackward0``)."""
    if isinstance(normalized_shape, int):
        raise TypeError("layer_norm(): argument 'normalized_shape' (position 2) must be tuple of ints, not int")
    return _norm.layer_norm(input, normalized_shape, weight, bias, eps)
