"""``Flatten``: reshape ``(N, C, H, W)`` to ``(N, C*H*W)``.  PyTorch: ``torch/nn/modules/flatten.py``."""
from .module import Module


class Flatten(Module):
    """Flattens dims ``start_dim..end_dim`` into one; by default all but the batch dim (0)."""

    def __init__(self, start_dim=1, end_dim=-1):
        super().__init__()
        self.start_dim = start_dim
        self.end_dim = end_dim

    def forward(self, input):
        return input.flatten(self.start_dim, self.end_dim)

    def extra_repr(self):
        return f"start_dim={self.start_dim}, end_dim={self.end_dim}"
