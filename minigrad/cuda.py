"""``minigrad.cuda``: there is no GPU in minigrad (PyTorch: ``torch.cuda`` in a build without CUDA).

Programs ask ``torch.cuda.is_available()`` to pick a device; here the answer is always ``False``,
seeding is accepted and ignored, and anything that needs a GPU raises what PyTorch raises.
"""
from .devices import check


def is_available():
    return False


def device_count():
    return 0


def is_initialized():
    return False


def manual_seed(seed):
    """Accepted and ignored, as in PyTorch when there is no GPU."""


manual_seed_all = manual_seed


def empty_cache():
    """Nothing to free."""


def current_device():
    check("cuda")


def synchronize(device=None):
    check("cuda")


def get_device_name(device=None):
    check("cuda")
