"""``minigrad.backends``: which hardware back ends exist (PyTorch: ``torch.backends``); none but the CPU."""
from . import cudnn, mps  # noqa: F401
