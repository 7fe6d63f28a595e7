"""Distance layers: ``PairwiseDistance`` and ``CosineSimilarity``.  PyTorch: ``torch/nn/modules/distance.py``."""
from . import functional as F
from .module import Module


class PairwiseDistance(Module):
    """The p-norm distance between the rows of ``x1`` and ``x2``: ``F.pairwise_distance``."""

    def __init__(self, p=2.0, eps=1e-6, keepdim=False):
        super().__init__()
        self.norm = p
        self.eps = eps
        self.keepdim = keepdim

    def forward(self, x1, x2):
        return F.pairwise_distance(x1, x2, self.norm, self.eps, self.keepdim)


class CosineSimilarity(Module):
    """The cosine of the angle between ``x1`` and ``x2`` along ``dim``: ``F.cosine_similarity``."""

    def __init__(self, dim=1, eps=1e-8):
        super().__init__()
        self.dim = dim
        self.eps = eps

    def forward(self, x1, x2):
        return F.cosine_similarity(x1, x2, self.dim, self.eps)
