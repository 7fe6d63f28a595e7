"""NVIDIA's cuDNN library (PyTorch: ``torch.backends.cudnn``): not in minigrad.

Programs set ``cudnn.deterministic = True`` / ``cudnn.benchmark = False`` for reproducibility;
those flags are plain attributes here and change nothing.
"""
deterministic = False
benchmark = False
enabled = True


def is_available():
    return False
