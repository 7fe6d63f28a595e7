"""``TensorBase``: a tensor's numbers and what autograd keeps about it, with no methods yet.

PyTorch keeps these fields in C++ (``TensorImpl`` and its ``AutogradMeta``) and shows them to Python
as ``torch._C.TensorBase``; ``torch/_tensor.py`` then defines ``torch.Tensor`` over it with the
methods written in Python, and registers it, so that every tensor C++ hands back is a
``torch.Tensor``. minigrad does the same: ``Tensor`` in ``minigrad/tensor.py`` subclasses
``TensorBase`` and calls ``register_tensor_class(Tensor)`` once, and from then on ``TensorBase(data)``,
which the autograd and ops layers below ``Tensor`` call to make their results, makes a ``Tensor``.

Also here, because every layer needs them: a tensor's version counter and the inference-mode flag
that marks it, the handles hooks return, and the type names PyTorch's messages use.
"""
import threading
import warnings

import numpy as np

from .. import _dtype
from .layout import contiguous_strides, empty_strided


# ---- inference mode's mark on a tensor (the context manager is autograd/inference.py) ----------
class _InferenceMode(threading.local):
    enabled = False  # inference mode belongs to the thread, as PyTorch's


inference_state = _InferenceMode()
_threads_in_inference_mode = 0  # in all threads together: while none is, a new tensor need not look at its thread's flag


def set_inference_mode(enabled):
    """Turn inference mode on or off for this thread (``autograd/inference.py``: ``inference_mode``)."""
    global _threads_in_inference_mode
    _threads_in_inference_mode += bool(enabled) - inference_state.enabled
    inference_state.enabled = bool(enabled)


class InferenceCounter(list):
    """The version counter of a tensor made in inference mode: its type is the mark (PyTorch keeps none)."""


def new_counter():
    """A new tensor's version counter: ``[0]``, or an ``InferenceCounter`` inside inference mode."""
    return InferenceCounter([0]) if _threads_in_inference_mode and inference_state.enabled else [0]


# ---- the tensor's fields --------------------------------------------------------------------------
_tensor_class = []  # the class TensorBase(...) makes: Tensor, once minigrad/tensor.py registered it


def register_tensor_class(cls):
    """``Tensor`` registers itself here (PyTorch: ``torch._C._set_tensor_class`` ... in ``torch/_tensor.py``)."""
    _tensor_class[:] = [cls]


class TensorBase:
    # the values, their version counter, and what autograd keeps about every tensor (set in __init__)
    __slots__ = ("_data", "_vc", "_requires_grad", "_grad_fn", "_output_nr", "_grad", "_wrapped_number", "_base",
                 "_zerotensor", "__weakref__", "__dict__")

    # What autograd keeps about some tensors (PyTorch: its AutogradMeta, made only when needed). A new tensor
    # has the values below, kept on the class; a tensor that sets one keeps its own.
    _retains_grad = False              # retain_grad() was called
    _hooks = None                      # a leaf's hooks (register_hook), run by its AccumulateGrad
    _grad_accumulator = None           # a weak reference to the leaf's AccumulateGrad node
    _post_accumulate_grad_hooks = None  # a leaf's hooks that run after its .grad was updated
    _grad_dtype = None                 # the numpy dtype set with t.grad_dtype = ... (None: the tensor's own dtype)
    _allow_grad_dtype_mismatch = False  # True once t.grad_dtype = None was set: a .grad of any dtype
    # a view's (PyTorch: DifferentiableViewMeta; its _base is set in __init__)
    _view_version = 0                  # the version at which its grad_fn was last set
    _creation_meta = "default"         # how it was made ("no_grad", "inference", "multi_output": see
    #                                    ops/inplace.py, view_rebase_message)
    # marks a few tensors carry
    name = None                        # (named tensors: minigrad has none)

    def __new__(cls, *args, **kwargs):
        """``TensorBase(data)`` makes the registered ``Tensor``; a subclass (``Parameter``) makes itself."""
        return object.__new__(_tensor_class[0] if cls is TensorBase and _tensor_class else cls)

    def __init__(self, data, requires_grad=False):
        """A tensor of ``data`` (a numpy array, kept as it is, or numbers), with its own version counter."""
        self._data = data if type(data) is np.ndarray and data.size else _as_array(data)
        self._vc = [0] if not _threads_in_inference_mode else new_counter()  # the version counter, shared with
        #                                views: bumped by in-place ops
        self._grad_fn = None           # the node that made this tensor (None for a leaf): see grad_fn
        self._output_nr = 0            # which output of grad_fn this tensor is
        self._grad = None              # .grad
        self._requires_grad = False    # a leaf's requires_grad (requires_grad=True or requires_grad_())
        self._wrapped_number = None    # the Python number a 0-dim tensor stands for in x * 2 (ops/promotion.py)
        self._base = None              # the tensor this one is a view of (PyTorch: DifferentiableViewMeta)
        self._zerotensor = False       # PyTorch's ZeroTensor: zeros never written to memory (ops/zerotensor.py)
        if requires_grad:
            _require_grad(self)


def _as_array(data):
    """The array behind a new tensor: a tensor's, a numpy scalar with its dtype, numbers in the default dtype
    (``torch.Tensor([1, 2])`` is float); an empty array gets PyTorch's row-major strides (numpy's new empty
    arrays have zero strides)."""
    if isinstance(data, TensorBase):
        data = data._data
    elif not isinstance(data, np.ndarray):
        data = np.asarray(data) if isinstance(data, np.generic) else np.asarray(data, _dtype.get_default_dtype().numpy)
    if data.size == 0 and data.base is None and not any(data.strides):
        data = empty_strided(data.shape, contiguous_strides(data.shape, data.itemsize), data.dtype)
    return data


def _require_grad(t):
    """``requires_grad=True`` for a new tensor: only floating-point ones may."""
    if not _dtype.from_numpy_dtype(t._data.dtype).is_floating_point:
        raise RuntimeError("Only Tensors of floating point and complex dtype can require gradients")
    t._requires_grad = True


# ---- what every layer's messages and hooks need -----------------------------------------------
class RemovableHandle:
    """What ``register_hook`` returns: ``handle.remove()`` unregisters the hook."""
    _next_id = 0

    def __init__(self, hooks_dict, hook):
        RemovableHandle._next_id += 1
        self.id = RemovableHandle._next_id
        self._dict = hooks_dict
        hooks_dict[self.id] = hook

    def remove(self):
        self._dict.pop(self.id, None)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.remove()


_TYPE_NAMES = {"int64": "Long", "int32": "Int", "bool": "Bool", "float32": "Float", "float64": "Double",
               "uint8": "Byte", "int8": "Char", "int16": "Short", "float16": "Half"}


C_NAMES = {"float32": "float", "float64": "double", "float16": "c10::Half", "int64": "long int", "int32": "int",
            "int16": "short int", "int8": "signed char", "uint8": "unsigned char", "bool": "bool"}  # (how C++ names the dtypes: some of PyTorch's messages use them)


def cpp_type_name(t):
    """How PyTorch's C++ errors name a tensor's type: ``torch.FloatTensor``..., but ``CPUBoolType`` for bool."""
    return "CPUBoolType" if t._data.dtype == np.bool_ else t.type()


def _wrap_dim(dim, ndim):
    """Turn a possibly negative dim into 0..ndim-1, with PyTorch's error when it is out of range."""
    n = max(ndim, 1)
    if not -n <= dim < n:
        raise IndexError(f"Dimension out of range (expected to be in range of [{-n}, {n - 1}], but got {dim})")
    return dim + n if dim < 0 else dim


def unsigned(value):
    """An int64 (or a tuple of them) as ``grad_fn._saved_*`` shows it: PyTorch shows saved dims, indices and sizes
    as unsigned (-1: 2**64 - 1)."""
    if isinstance(value, (tuple, list)):
        return tuple([int(v) % 2 ** 64 for v in value])
    return int(value) % 2 ** 64


_warned = set()  # the messages _warn_once gave already


SCALAR_OF_GRAD = (  # float(x), x.item(), tensor([x]) of an x that requires grad
    "Converting a tensor with requires_grad=True to a scalar may lead to unexpected behavior.\n"
    "Consider using tensor.detach() first. (Triggered internally at "
    "/__w/pytorch/pytorch/torch/csrc/autograd/generated/python_variable_methods.cpp:822.)")


def _warn_once(message, stacklevel=2):
    """A warning PyTorch gives once per process (``TORCH_WARN_ONCE``). ``stacklevel`` counts from the function that
    calls this one, as ``warnings.warn``'s does (2: the line that called it)."""
    if message not in _warned:
        _warned.add(message)
        warnings.warn(message, UserWarning, stacklevel=stacklevel + 1)
