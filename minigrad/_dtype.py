"""dtypes and Size: the small value types every Tensor carries (and a shape check on Sizes).

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


def is_expandable_to(shape, desired):
    """Can a tensor of ``shape`` be broadcast to ``desired``?  (PyTorch: ``at::is_expandable_to``)"""
    if len(shape) > len(desired):
        return False
    for s, d in zip(reversed(shape), reversed(desired)):
        if s != d and s != 1:
            return False
    return True


def can_cast(src, dst):
    """May a result of numpy dtype ``src`` be written into a tensor of numpy dtype ``dst``?  (PyTorch:
    ``c10::canCast``, checked by in-place ops and ``out=``; ``minigrad.can_cast(from_, to)`` with dtypes.)
    Not a floating-point result into an integer tensor, and nothing but bools into a bool tensor."""
    src, dst = (d.numpy if isinstance(d, dtype) else d for d in (src, dst))
    if dst.kind == "f":
        return True
    if dst.kind == "b":
        return src.kind == "b"
    return src.kind in "iub"


def promote_types(type1, type2):
    """``torch.promote_types``: the dtype both fit in. A floating dtype wins over an integer or bool one as it is
    (``int64`` with ``float16`` is ``float16``: numpy would say float64); within a category, the wider one."""
    f1, f2 = type1.is_floating_point, type2.is_floating_point
    if f1 != f2:
        return type1 if f1 else type2
    return from_numpy_dtype(np.promote_types(type1.numpy, type2.numpy))


# ---- what the dtypes can hold: torch.finfo, torch.iinfo -------------------------------------------
class finfo:  # noqa: N801  (PyTorch's name)
    """``minigrad.finfo(minigrad.float32)``: the limits of a floating dtype (``eps``: the gap from 1 to the next
    number; ``tiny``/``smallest_normal``: the smallest positive normal number; ``resolution``: 10 ** -digits).
    Without an argument, of the default dtype."""

    def __init__(self, type=None):  # noqa: A002
        d = get_default_dtype() if type is None else float64 if type is float else to_dtype(type)  # (float: double)
        if not d.is_floating_point:
            raise TypeError("minigrad.finfo() requires a floating point input type. Use minigrad.iinfo to handle "
                            "'minigrad.finfo'")
        info = np.finfo(d.numpy)
        self.bits, self.dtype = info.bits, d.name
        self.eps, self.max, self.min = float(info.eps), float(info.max), float(info.min)
        self.tiny = self.smallest_normal = float(info.smallest_normal)
        self.resolution = 10.0 ** -int(info.precision)

    def __eq__(self, other):
        return isinstance(other, finfo) and self.dtype == other.dtype

    def __hash__(self):
        return hash(self.dtype)

    def __repr__(self):
        return (f"finfo(resolution={self.resolution:g}, min={self.min:g}, max={self.max:g}, eps={self.eps:g}, "
                f"smallest_normal={self.smallest_normal:g}, tiny={self.tiny:g}, dtype={self.dtype})")


class iinfo:  # noqa: N801
    """``minigrad.iinfo(minigrad.int32)``: the limits of an integer dtype (``bits``, ``min``, ``max``)."""

    def __init__(self, type):  # noqa: A002
        d = to_dtype(type)
        if d is bool_:
            raise TypeError("minigrad.bool is not supported by minigrad.iinfo")
        if d.is_floating_point:
            raise TypeError("minigrad.iinfo() requires an integer input type. Use minigrad.finfo to handle "
                            "'minigrad.iinfo'")
        info = np.iinfo(d.numpy)
        self.bits, self.min, self.max, self.dtype = info.bits, int(info.min), int(info.max), d.name

    def __eq__(self, other):
        return isinstance(other, iinfo) and self.dtype == other.dtype

    def __hash__(self):
        return hash(self.dtype)

    def __repr__(self):
        return f"iinfo(min={self.min:g}, max={self.max:g}, dtype={self.dtype})"


# ---- layouts: minigrad's tensors are all strided (dense) ------------------------------------------
class layout:  # noqa: N801
    """How a tensor's elements are stored (PyTorch: ``torch.layout``). minigrad has dense, strided tensors
    only (``x.layout`` is ``minigrad.strided``); PyTorch also has sparse layouts."""

    def __init__(self, name):
        self.name = name

    def __repr__(self):
        return "minigrad." + self.name

    def __reduce__(self):
        return "strided"


strided = layout("strided")
