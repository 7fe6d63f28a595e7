"""dtypes and Size: the small value types every Tensor carries.

PyTorch's dtypes are objects such as ``torch.float32`` that print as ``torch.float32``;
minigrad's print as ``minigrad.float32`` and each wraps the numpy dtype that stores the data.
"""
import numpy as np


class dtype:
    """A tensor element type (PyTorch: ``torch.dtype``)."""

    def __init__(self, name, numpy_dtype, is_floating_point):
        self.name = name
        self.numpy = np.dtype(numpy_dtype)
        self.is_floating_point = is_floating_point
        self.itemsize = self.numpy.itemsize

    def __repr__(self):
        return "minigrad." + self.name

    def __reduce__(self):  # pickling keeps the singletons unique
        return (_from_name, (self.name,))


float16 = dtype("float16", np.float16, True)
float32 = dtype("float32", np.float32, True)
float64 = dtype("float64", np.float64, True)
int8 = dtype("int8", np.int8, False)
uint8 = dtype("uint8", np.uint8, False)
int16 = dtype("int16", np.int16, False)
int32 = dtype("int32", np.int32, False)
int64 = dtype("int64", np.int64, False)
bool_ = dtype("bool", np.bool_, False)

_ALL = [float16, float32, float64, int8, uint8, int16, int32, int64, bool_]
_BY_NUMPY = {d.numpy: d for d in _ALL}
_BY_NAME = {d.name: d for d in _ALL}


def _from_name(name):
    return _BY_NAME[name]


_default_dtype = float32


def get_default_dtype():
    return _default_dtype


def set_default_dtype(d):
    """Set the dtype of new floating-point tensors (float32 or float64)."""
    global _default_dtype
    if d not in (float32, float64):
        raise TypeError("only floating-point types are supported as the default type")
    _default_dtype = d


def from_numpy_dtype(np_dtype):
    try:
        return _BY_NUMPY[np.dtype(np_dtype)]
    except KeyError:
        raise TypeError(f"can't convert np.ndarray of type {np.dtype(np_dtype)}. The only supported "
                        "types are: float64, float32, float16, int64, int32, int16, int8, uint8, and bool.") from None


def to_dtype(d):
    """Accept a minigrad dtype (or, for convenience, a numpy dtype / Python type) and return a dtype."""
    if d is None or isinstance(d, dtype):
        return d
    if d is float:
        return _default_dtype
    if d is int:
        return int64
    if d is bool:
        return bool_
    return from_numpy_dtype(d)


def _kind(d):
    """0 for bool, 1 for integers, 2 for floating point: PyTorch's promotion categories."""
    if d is bool_:
        return 0
    return 2 if d.is_floating_point else 1


def result_type(a, b):
    """The dtype of ``a op b`` (PyTorch's type promotion, for the dtypes minigrad has).

    ``a`` and ``b`` are Tensors or Python numbers.  A Python number never widens a tensor of
    its own category (``float32_tensor * 2.5`` stays float32); an integer tensor combined with a
    float number becomes the default float dtype.  A 0-dim tensor behaves like a number when the
    other operand is a tensor with dimensions (PyTorch's rule for "wrapped" scalars).
    """
    from .tensor import Tensor

    def describe(x):
        if isinstance(x, Tensor):
            return x.dtype, (2 if x._data.ndim > 0 else 1)
        if isinstance(x, bool):
            return bool_, 0
        if isinstance(x, int):
            return int64, 0
        return _default_dtype, 0

    (da, pa), (db, pb) = describe(a), describe(b)
    ka, kb = _kind(da), _kind(db)
    if ka != kb:  # a higher category wins; a float number over an int tensor gives the default float
        hi, hp = (da, pa) if ka > kb else (db, pb)
        if hp == 0 and hi.is_floating_point:
            return _default_dtype
        return hi
    if pa != pb:  # same category: the operand with more "presence" (tensor > 0-dim > number) decides
        return da if pa > pb else db
    return _BY_NUMPY[np.promote_types(da.numpy, db.numpy)]


class Size(tuple):
    """The shape of a tensor: a tuple that prints like ``torch.Size([2, 3])``."""

    def __repr__(self):
        return f"minigrad.Size({list(self)})"

    __str__ = __repr__

    def numel(self):
        n = 1
        for s in self:
            n *= s
        return n
