"""minigrad.nn (PyTorch: ``torch.nn``)."""
from . import functional
