"""``Flatten`` and its counterpart ``Unflatten``.  PyTorch: ``torch/nn/modules/flatten.py``.

``Flatten`` reshapes ``(N, C, H, W)`` to ``(N, C*H*W)``; ``Unflatten(1, (C, H, W))`` reshapes it back.
"""
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


class Unflatten(Module):
    """Splits dim ``dim`` into the dims ``unflattened_size`` (one may be -1): ``input.unflatten(dim, sizes)``."""

    def __init__(self, dim, unflattened_size):
        super().__init__()
        if not isinstance(unflattened_size, (tuple, list)):
            raise TypeError(f"unflattened_size must be a tuple of ints, but found type "
                            f"{type(unflattened_size).__name__}")
        for idx, elem in enumerate(unflattened_size):
            if not isinstance(elem, int):
                raise TypeError(f"unflattened_size must be tuple of ints, but found element of type "
                                f"{type(elem).__name__} at pos {idx}")
        self.dim = dim
        self.unflattened_size = unflattened_size

    def forward(self, input):
        return input.unflatten(self.dim, self.unflattened_size)

    def extra_repr(self):
        return f"dim={self.dim}, unflattened_size={self.unflattened_size}"
