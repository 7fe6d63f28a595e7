"""``minigrad.save`` and ``minigrad.load`` (PyTorch: ``torch.save`` / ``torch.load``).

The tutorials keep a trained model with ``torch.save(model.state_dict(), "model.pth")`` and read
it back with ``model.load_state_dict(torch.load("model.pth", weights_only=True))``.  minigrad does
the same with Python's ``pickle``: a tensor is pickled as its values and its ``requires_grad``
(never its graph), as in PyTorch.  Where minigrad simplifies: PyTorch writes a zip archive with
the tensors' storages beside the pickle, minigrad one plain pickle, so a file saved by one cannot
be loaded by the other.

``load`` unpickles only tensors, numbers, strings and containers (PyTorch's default since 2.6,
``weights_only=True``): a pickle can run any code while it is loaded, a state dict cannot.  A whole
module needs ``weights_only=False``, for a file you trust.
"""
import collections
import os
import pickle

from . import devices
from ._dtype import Size, _from_name
from .nn.parameter import Parameter
from .tensor import _rebuild

DEFAULT_PROTOCOL = 2  # PyTorch's default pickle protocol for torch.save

# what a state dict is made of: tensors (numpy arrays inside), Parameters, sizes, dtypes, containers
_SAFE = {("collections", "OrderedDict"): collections.OrderedDict,
         ("builtins", "set"): set, ("builtins", "bytes"): bytes, ("builtins", "frozenset"): frozenset, ("builtins", "slice"): slice,
         ("minigrad.tensor", "_rebuild"): _rebuild, ("minigrad.nn.parameter", "Parameter"): Parameter,
         ("minigrad._dtype", "Size"): Size, ("minigrad._dtype", "_from_name"): _from_name}
_NUMPY = {"_reconstruct", "ndarray", "dtype", "scalar"}  # how numpy pickles an array of numbers
_added = {}  # add_safe_globals(): (module, name) -> object


def save(obj, f, pickle_module=pickle, pickle_protocol=DEFAULT_PROTOCOL):
    """Write ``obj`` to ``f``: a file name (``str`` or path) or a file opened for writing in binary."""
    if isinstance(f, (str, os.PathLike)):
        with open(f, "wb") as opened:
            return save(obj, opened, pickle_module, pickle_protocol)
    pickle_module.dump(obj, f, protocol=pickle_protocol)


def load(f, map_location=None, pickle_module=None, *, weights_only=None, mmap=None, **pickle_load_args):
    """Read back what ``save`` wrote.  ``map_location`` may name the CPU only (minigrad has no other device)."""
    if isinstance(map_location, (str, devices.device)) and devices.device(map_location).type == "cuda":
        raise RuntimeError("Attempting to deserialize object on a CUDA device but minigrad.cuda.is_available() is "
                           "False. If you are running on a CPU-only machine, please use minigrad.load with "
                           "map_location=minigrad.device('cpu') to map your storages to the CPU.")
    if isinstance(map_location, (str, devices.device)):
        devices.check(map_location)  # the CPU (any other device raises)
    if isinstance(f, (str, os.PathLike)):
        with open(f, "rb") as opened:
            return load(opened, map_location, pickle_module, weights_only=weights_only, **pickle_load_args)
    if weights_only is False:  # anything at all, for a file you trust
        return (pickle_module or pickle).load(f, **pickle_load_args)
    if pickle_module is not None:
        raise RuntimeError("Can not safely load weights when explicit pickle_module is specified")
    try:
        return _WeightsUnpickler(f, **pickle_load_args).load()
    except pickle.UnpicklingError as e:
        raise pickle.UnpicklingError(_weights_only_message(e)) from None


class _WeightsUnpickler(pickle.Unpickler):
    """An unpickler that builds only what a state dict is made of (PyTorch: ``_weights_only_unpickler``)."""

    def find_class(self, module, name):
        if module == "__builtin__":  # (pickle protocol 2 writes the builtins under their Python 2 name)
            module = "builtins"
        if (module, name) in _SAFE:
            return _SAFE[(module, name)]
        if (module, name) in _added:
            return _added[(module, name)]
        if module in ("numpy._core.multiarray", "numpy.core.multiarray", "numpy") and name in _NUMPY:
            return super().find_class(module, name)
        if (module, name) == ("_codecs", "encode"):  # (protocol 2 writes an array's bytes this way; b"" as bytes())
            return super().find_class(module, name)
        raise pickle.UnpicklingError(
            f"Unsupported global: GLOBAL {module}.{name} was not an allowed global by default. Please use "
            f"`minigrad.serialization.add_safe_globals([{module}.{name}])` or the "
            f"`minigrad.serialization.safe_globals([{module}.{name}])` context manager to allowlist this global "
            f"if you trust this class/function.")


def _weights_only_message(error):
    return ("Weights only load failed. This file can still be loaded, to do so you have two options, "
            "\x1b[1mdo those steps only if you trust the source of the checkpoint\x1b[0m. \n\t(1) In PyTorch 2.6, "
            "we changed the default value of the `weights_only` argument in `minigrad.load` from `False` to "
            "`True`. Re-running `minigrad.load` with `weights_only` set to `False` will likely succeed, but it can "
            "result in arbitrary code execution. Do it only if you got the file from a trusted source.\n\t(2) "
            "Alternatively, to load with `weights_only=True` please check the recommended steps in the following "
            f"error message.\n\tWeightsUnpickler error: {error}\n\nCheck the documentation of minigrad.load to "
            "learn more about types accepted by default with weights_only "
            "https://pytorch.org/docs/stable/generated/torch.load.html.")


def add_safe_globals(safe_globals):
    """Allow ``load(..., weights_only=True)`` to build these classes or functions too."""
    for obj in safe_globals:
        _added[(obj.__module__, obj.__qualname__)] = obj


def get_safe_globals():
    return list(_added.values())


def clear_safe_globals():
    _added.clear()


class safe_globals:  # noqa: N801  (PyTorch's name)
    """``with safe_globals([MyClass]):`` allows them for the loads inside the block only."""

    def __init__(self, safe_globals):
        self.safe_globals = safe_globals

    def __enter__(self):
        self._before = dict(_added)
        add_safe_globals(self.safe_globals)

    def __exit__(self, *exc):
        _added.clear()
        _added.update(self._before)
        return False
