"""Devices: ``minigrad.device("cpu")``, the ``device=`` arguments, ``.to("cpu")`` (PyTorch: ``torch.device``).

PyTorch runs a tensor's numbers on a *device*: the CPU, or a GPU (``"cuda"``, ``"mps"``, ...).
minigrad keeps its numbers in numpy arrays, so everything lives on the CPU.  Programs written for
PyTorch still name devices (``x.to(device)``, ``torch.zeros(3, device=device)``), so minigrad
accepts every spelling of the CPU and, like a PyTorch built without CUDA, refuses the others:
``minigrad.device("cuda")`` can be written down, but a tensor cannot be put there.
"""

# PyTorch's list, in the order its error message gives it (c10/core/Device.cpp)
_DEVICE_TYPES = ("cpu", "cuda", "ipu", "xpu", "mkldnn", "opengl", "opencl", "ideep", "hip", "ve", "fpga", "maia",
                 "xla", "lazy", "vulkan", "mps", "meta", "hpu", "mtia", "privateuseone")


class device:  # noqa: N801  (PyTorch's name)
    """``device("cpu")``, ``device("cuda:1")`` or ``device("cuda", 1)``: a device type and an optional index."""

    def __init__(self, type, index=None):  # noqa: A002  (PyTorch's argument name)
        if isinstance(type, device):
            type, index = type.type, type.index
        elif isinstance(type, str) and ":" in type:
            if index is not None:
                raise RuntimeError(f"type (string) must not include an index because index was passed "
                                   f"explicitly: {type}")
            type, _, number = type.partition(":")
            if not number.isdigit():
                raise RuntimeError(f"Invalid device string: '{type}:{number}'")
            index = int(number)
        if type not in _DEVICE_TYPES:
            raise RuntimeError(f"Expected one of {', '.join(_DEVICE_TYPES)} device type at start of device string: "
                               f"{type}")
        self.type = type
        self.index = index

    def __repr__(self):
        if self.index is None:
            return f"device(type='{self.type}')"
        return f"device(type='{self.type}', index={self.index})"

    def __str__(self):
        return self.type if self.index is None else f"{self.type}:{self.index}"

    def __eq__(self, other):  # as in PyTorch, device("cpu") == "cpu" is False: compare devices with devices
        return isinstance(other, device) and (self.type, self.index) == (other.type, other.index)

    def __hash__(self):
        return hash((self.type, self.index))


CPU = device("cpu")


def check(where):
    """The device a tensor may be put on: the CPU.  ``None`` means the default device (the CPU too).

    Anything else raises what a PyTorch built without that device raises, with a word on why.
    """
    if where is None:
        return CPU
    if isinstance(where, int) and not isinstance(where, bool):  # a bare number means a CUDA device in PyTorch
        where = device("cuda", where)
    where = device(where)
    if where.type == "cpu":
        return CPU
    if where.type == "cuda":
        raise AssertionError("Torch not compiled with CUDA enabled (minigrad runs on the CPU only)")
    raise NotImplementedError(f"minigrad runs on the CPU only: there is no '{where.type}' device")


def is_device(x):
    """Is ``x`` a way to name a device (``"cpu"``, ``"cuda:0"``, a ``device``)?  Used by ``.to(...)``."""
    return isinstance(x, (str, device))


def set_default_device(where):
    """``set_default_device("cpu")`` is allowed (it is the default); any other device raises."""
    check(where)


def get_default_device():
    return CPU


class memory_format:  # noqa: N801  (PyTorch's name)
    """How a new tensor lays out its elements: ``preserve_format`` (the source's order, the default of
    ``clone``) or ``contiguous_format`` (row-major, what ``contiguous()`` and ``reshape`` copy into).
    PyTorch's ``channels_last`` formats are for 4-d images on fast kernels; minigrad has none."""

    def __init__(self, name):
        self.name = name

    def __repr__(self):
        return f"minigrad.{self.name}"


preserve_format = memory_format("preserve_format")
contiguous_format = memory_format("contiguous_format")


def numpy_order(fmt):
    """The numpy ``order=`` of a memory format: ``"K"`` keeps the source's order, ``"C"`` is row-major."""
    if fmt is preserve_format:
        return "K"
    if fmt is contiguous_format:
        return "C"
    raise NotImplementedError(f"memory_format={fmt!r}: minigrad has only preserve_format and contiguous_format")
