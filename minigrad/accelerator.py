"""``minigrad.accelerator``: no accelerator, only the CPU (PyTorch: ``torch.accelerator``).

The PyTorch tutorials pick a device with
``torch.accelerator.current_accelerator().type if torch.accelerator.is_available() else "cpu"``.
"""


def is_available():
    return False


def current_accelerator(check_available=False):
    return None


def device_count():
    return 0
