"""Type promotion and broadcasting: the dtype and shape of ``a op b`` (PyTorch: ``c10/core/ScalarType.h``'s
``promoteTypes``, ``at::native::result_type``, ``infer_size``), as the dispatcher and the ZeroTensor kernels use them."""
import numpy as np

from .. import _dtype
from .._core.tensor_base import TensorBase as Tensor
from .._core.layout import cast, laid_out


def as_operand(x, like):
    """A Python number next to a tensor becomes a 0-dim tensor that needs no gradient (as in PyTorch).

    PyTorch calls it a "wrapped number" and makes a new one for every ``x * 2``; it shows up in
    ``next_functions`` as ``(None, 0)``.  minigrad gives it the dtype of the result at once
    (``float32_tensor * 2.5`` stays float32); PyTorch keeps it as float64 (``grad_fn._saved_other``
    shows it so) and casts it inside the kernel, which gives the same numbers.  A numpy array becomes a tensor as it is.
    """
    if isinstance(x, Tensor):
        return x
    if (type(x) is float or type(x) is int) and like._data.dtype.kind == "f":  # (the usual case: x * 0.5, x * 2)
        t = Tensor(np.asarray(x, like._data.dtype))
        t._wrapped_number = x
        return t
    if isinstance(x, np.ndarray):
        return Tensor(x)
    if isinstance(x, (int, float)) and like._data.dtype.kind == "f":  # a number next to a float tensor: its dtype
        t = Tensor(np.asarray(x, like._data.dtype))
    else:
        t = Tensor(np.asarray(x, dtype=result_type(like, x).numpy))
    if isinstance(x, (bool, int, float)):
        t._wrapped_number = x  # grad_fn._saved_other shows it as PyTorch keeps it (autograd/function.py: _shown)
    return t



def result_type(a, b):
    """The dtype of ``a op b`` (PyTorch's type promotion, for the dtypes minigrad has).

    ``a`` and ``b`` are Tensors or Python numbers.  A Python number never widens a tensor of
    its own category (``float32_tensor * 2.5`` stays float32); an integer tensor combined with a
    float number becomes the default float dtype.  A 0-dim tensor behaves like a number when the
    other operand is a tensor with dimensions (PyTorch's rule for "wrapped" scalars).
    """
    def describe(x):  # (dtype, category: 0 bool, 1 integer, 2 floating point, presence: 2 tensor, 1 0-dim, 0 number)
        if isinstance(x, Tensor):
            d = x.dtype
            kind = 2 if d.is_floating_point else (0 if d is _dtype.bool_ else 1)
            return d, kind, (2 if x._data.ndim > 0 else 1)
        if isinstance(x, bool):
            return _dtype.bool_, 0, 0
        if isinstance(x, int):
            return _dtype.int64, 1, 0
        return _dtype.get_default_dtype(), 2, 0

    (da, ka, pa), (db, kb, pb) = describe(a), describe(b)
    if ka != kb:  # a higher category wins; a float number over an int tensor gives the default float
        hi, hp = (da, pa) if ka > kb else (db, pb)
        if hp == 0 and hi.is_floating_point:
            return _dtype.get_default_dtype()
        return hi
    if pa != pb:  # same category: the operand with more "presence" (tensor > 0-dim > number) decides
        return da if pa > pb else db
    return _dtype.from_numpy_dtype(np.promote_types(da.numpy, db.numpy))



def operands(a, b):
    """``a``'s and ``b``'s numbers in the dtype PyTorch computes ``a op b`` in: its ``TensorIterator`` casts both to
    the result dtype first, so ``float32_tensor % float64_0dim_tensor`` is computed in float32 (numpy would compute
    in float64 and round the result, which can differ in the last bit, or across a discontinuity)."""
    x, y = a._data, b._data
    if x.dtype == y.dtype:
        return x, y
    dtype = result_type(a, b).numpy  # (each cast as PyTorch's .to(dtype): laid out by preserve_format)
    return (x if x.dtype == dtype else cast(x, dtype)), (y if y.dtype == dtype else cast(y, dtype))



def result(a, b, out):
    """numpy's result ``out`` of ``a op b`` as PyTorch's: in PyTorch's layout (``_core/layout.py``, only when an
    operand is not plainly row-major), cast to PyTorch's result dtype when the operands' dtypes differ."""
    if out.ndim > 1 and not (plainly_row_major(a._data) and plainly_row_major(b._data)):
        out = laid_out(out, a._data, b._data)
    if a._data.dtype == b._data.dtype:
        return Tensor(out)
    return Tensor(np.asarray(out, dtype=result_type(a, b).numpy))



def broadcast_shape(a, b):
    """The broadcast shape of two tensors, with PyTorch's error message when there is none."""
    sa, sb = a._data.shape, b._data.shape
    if sa == sb or not sb:  # (a 0-dim tensor, like a number, broadcasts to any shape)
        return sa
    if not sa:
        return sb
    n = max(len(sa), len(sb))
    pa, pb = (1,) * (n - len(sa)) + sa, (1,) * (n - len(sb)) + sb
    for i in reversed(range(n)):  # (PyTorch's infer_size checks from the last dim: the message names that one)
        x, y = pa[i], pb[i]
        if x != y and x != 1 and y != 1:
            raise RuntimeError(f"The size of tensor a ({x}) must match the size of tensor b ({y}) at non-singleton "
                               f"dimension {i}")
    return tuple(max(x, y) if 0 not in (x, y) else 0 for x, y in zip(pa, pb))




def plainly_row_major(x):
    """Row-major with no dim of size 1 (or a 0-dim operand): numpy and PyTorch lay out such a result alike."""
    return x.ndim == 0 or (x.flags.c_contiguous and 1 not in x.shape)
