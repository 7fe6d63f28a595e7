"""Apple's Metal GPUs (PyTorch: ``torch.backends.mps``): not in minigrad."""


def is_available():
    return False


def is_built():
    return False
