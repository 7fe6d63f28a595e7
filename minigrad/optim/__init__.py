"""minigrad.optim (PyTorch: ``torch.optim``)."""
