"""PyTorch's ZeroTensor: zeros that a backward formula hands out without writing them to memory.

For real numbers the derivative of ``sgn`` is zero everywhere, and PyTorch's formula returns
``at::_efficientzerotensor(sizes)`` instead of a tensor filled with zeros.  A student meets one as
``x.grad`` after ``x.sgn().sum().backward()``, or in a second-order gradient through ``abs`` or
``l1_loss`` (their first derivatives use ``sgn``).  It prints and computes as zeros, but PyTorch never
wrote those zeros anywhere, so it refuses to write into it.  What PyTorch 2.13 does with one
(ATen's ``ZeroTensorFallback.cpp`` and the ``*_zerotensor`` kernels in ``BinaryOps.cpp``), minigrad does:

- a view of a ZeroTensor (``view``, ``expand``, ``t``, ``x[0]``, ``detach()``, ``.data``) is one too;
- ``z * y`` and ``z / y`` are ZeroTensors again (no nan from ``0 * inf``), ``y / z`` is inf everywhere
  and ``z / z`` nan; ``z + y`` and ``y - z`` are copies of ``y`` (``z - y`` is ``y * -1``), and ``z + z``
  is a ZeroTensor.  These kernels find their dtype by type promotion in which a Python number counts as
  a 0-dim tensor (float64 for ``2.5``), so a 0-dim float32 ZeroTensor times 2.5 is float64 in PyTorch;
- every other op (and an in-place op with a ZeroTensor operand) sees ordinary zeros;
- an in-place op that would write into one raises ``IMMUTABLE``; ``tolist()`` and ``numpy()`` refuse it;
- ``AccumulateGrad`` keeps one as ``.grad`` (autograd/function.py), so a second ``backward()`` that adds
  into that ``.grad`` raises.

minigrad keeps real zeros (read-only) in a ZeroTensor's ``_data``, so the ordinary ops need nothing
special; ``Tensor._zerotensor`` marks it.
"""
import numpy as np

from .. import _dtype
from ..autograd import grad_mode
from .._core.tensor_base import TensorBase as Tensor
from .promotion import broadcast_shape, result_type

IMMUTABLE = ("ZeroTensors are immutable. Please use the materialized zero tensor obtained using .clone() if you "
             "want a mutable tensor.")
IMMUTABLE_COPY = ("ZeroTensors are immutable. Please materialize the tensor using `.clone()`, if you want a mutable "
                  "zero tensor.")  # (copy_'s own words)


def zeros(shape, dtype):
    """``at::_efficientzerotensor(shape, dtype)``."""
    data = np.zeros(shape, dtype)
    data.flags.writeable = False
    out = Tensor(data)
    out._zerotensor = True
    return out


def _dtype_of(a, b, true_division=False):
    """The result dtype PyTorch's ZeroTensor kernels find: the ordinary promotion, with a Python number taken
    as the 0-dim tensor it was wrapped in (float64 for a float, int64 for an int), not as a number."""
    a, b = [Tensor(np.asarray(t._wrapped_number)) if getattr(t, "_wrapped_number", None) is not None else t
            for t in (a, b)]
    dtype = result_type(a, b)
    if true_division and not dtype.is_floating_point:
        return _dtype.get_default_dtype()
    return dtype


def mul(a, b):
    """``a * b`` where one of them is a ZeroTensor (PyTorch: ``mul_zerotensor``): a ZeroTensor."""
    return zeros(broadcast_shape(a, b), _dtype_of(a, b).numpy)


def div(a, b):
    """``a / b`` where one of them is a ZeroTensor (PyTorch: ``div_zerotensor``)."""
    shape, dtype = broadcast_shape(a, b), _dtype_of(a, b, true_division=True).numpy
    if a._zerotensor and b._zerotensor:
        return Tensor(np.full(shape, np.nan, dtype))  # 0 / 0
    if a._zerotensor:
        return zeros(shape, dtype)                     # 0 / y
    return Tensor(np.full(shape, np.inf, dtype))       # y / 0, whatever the sign of y (as in PyTorch)


def sub(a, b, alpha=1):
    """``a - alpha * b`` where one of them is a ZeroTensor."""
    return add(a, b, -alpha)


def add(a, b, alpha=1):
    """``a + alpha * b`` where one of them is a ZeroTensor (PyTorch: ``maybe_add_maybe_sub``; ``a - b`` is
    ``alpha=-1``): the other operand, copied."""
    shape, dtype = broadcast_shape(a, b), _dtype_of(a, b).numpy
    if a._zerotensor and b._zerotensor:
        return zeros(shape, dtype)
    if a._zerotensor:
        copy = np.array(np.broadcast_to(b._data, shape), dtype)
        return Tensor(copy if alpha == 1 else np.asarray(copy * np.asarray(alpha, dtype), dtype))
    return Tensor(np.array(np.broadcast_to(a._data, shape), dtype))  # (b is ignored, alpha too)


def check_writable(t, copy=False):
    """An in-place op may not write into a ZeroTensor (``copy``: ``copy_``'s own words)."""
    if t._zerotensor:
        raise RuntimeError(IMMUTABLE_COPY if copy else IMMUTABLE)


def as_native_kernel_sees(grad):
    """``grad`` as a native backward kernel of PyTorch's receives it (``silu_backward``, ``mish_backward``:
    derivatives.yaml runs these one-kernel formulas unless grad mode is on, the composite ones otherwise): a ZeroTensor
    becomes ordinary zeros (the fallback), so the kernel's result is an ordinary tensor."""
    if grad._zerotensor and not grad_mode.state.enabled:
        return Tensor(np.zeros(grad._data.shape, grad._data.dtype))
    return grad


def materialized(operands):
    """The operands of an in-place op, each ZeroTensor as PyTorch's fallback gives it (``_materialized``)."""
    return tuple([_materialized(t) for t in operands])


def _materialized(t):
    """What PyTorch's fallback gives an op that writes into another tensor: ordinary zeros in the place of a
    ZeroTensor operand (the same node in the graph)."""
    if not isinstance(t, Tensor) or not t._zerotensor or (t._requires_grad and t.grad_fn is None):
        return t  # (a leaf ZeroTensor that requires grad keeps its place: minigrad then uses the kernels above)
    out = Tensor(np.zeros(t._data.shape, t._data.dtype))
    out._grad_fn, out._output_nr, out._requires_grad = t._grad_fn, t._output_nr, t._requires_grad
    return out
