"""Matrix products: ``mm``, ``dot``, ``mv``, ``bmm``, ``addmm`` (nn.Linear) and ``matmul``."""
import numpy as np

from ..autograd.function import Function
from ..tensor import Tensor
from ._fast import add_bias, column_major, mm_mat2_backward
from ._util import sum_to

_TYPE = {"float32": "float", "float64": "double", "int64": "long", "int32": "int", "float16": "c10::Half"}


def _check_mm(a, b):
    if a._data.ndim != 2:
        raise RuntimeError("self must be a matrix")
    if b._data.ndim != 2:
        raise RuntimeError("mat2 must be a matrix")
    if a._data.shape[1] != b._data.shape[0]:
        (m, k), (k2, n) = a._data.shape, b._data.shape
        raise RuntimeError(f"mat1 and mat2 shapes cannot be multiplied ({m}x{k} and {k2}x{n})")
    if a._data.dtype != b._data.dtype:
        raise RuntimeError(f"expected m1 and m2 to have the same dtype, but got: {_TYPE.get(a.dtype.name)} != "
                           f"{_TYPE.get(b.dtype.name)}")


class Mm(Function):
    """``a.mm(b)``: (m x k) @ (k x n).  dL/da = grad @ b^T, dL/db = a^T @ grad."""
    node_name = "MmBackward0"

    @staticmethod
    def forward(ctx, a, b):
        _check_mm(a, b)
        need_a, need_b = ctx.needs_input_grad
        # a's gradient needs b and b's needs a: keep only what a wanted gradient needs, as PyTorch does
        ctx.save_for_backward(a if need_b else None, b if need_a else None)
        return Tensor(a._data @ b._data)

    @staticmethod
    def backward(ctx, grad):
        a, b = ctx.saved_tensors
        return (grad.mm(b.t()) if ctx.needs_input_grad[0] else None,
                a.t().mm(grad) if ctx.needs_input_grad[1] else None)


class Addmm(Function):
    """``bias + x @ w_t``: what ``nn.Linear`` records for a 2-D input (PyTorch: ``AddmmBackward0``).

    dL/d(bias) = grad summed to bias's shape, dL/dx = grad @ w_t^T, dL/d(w_t) = x^T @ grad.
    """
    node_name = "AddmmBackward0"

    @staticmethod
    def forward(ctx, bias, x, w_t):
        _check_mm(x, w_t)
        ctx.save_for_backward(x, w_t)
        ctx.w_t_column_major = column_major(w_t)  # PyTorch keeps the strides of w_t for its gradient's layout
        return Tensor(add_bias(x._data @ w_t._data, bias._data))  # bias + x @ w_t

    @staticmethod
    def backward(ctx, grad):
        x, w_t = ctx.saved_tensors
        need_bias, need_x, need_w_t = ctx.needs_input_grad
        return (sum_to(grad, ctx.input_shapes[0]) if need_bias else None,
                grad.mm(w_t.t()) if need_x else None,
                mm_mat2_backward(grad, x, ctx.w_t_column_major) if need_w_t else None)  # x.t().mm(grad)


class Dot(Function):
    node_name = "DotBackward0"

    @staticmethod
    def forward(ctx, a, b):
        if a._data.ndim != 1 or b._data.ndim != 1:
            raise RuntimeError(f"1D tensors expected, but got {a._data.ndim}D and {b._data.ndim}D tensors")
        if a._data.shape != b._data.shape:
            raise RuntimeError(f"inconsistent tensor size, expected tensor [{a._data.size}] and src "
                               f"[{b._data.size}] to have the same number of elements, but got {a._data.size} and "
                               f"{b._data.size} elements respectively")
        ctx.save_for_backward(a, b)
        return Tensor(np.asarray(a._data @ b._data))

    @staticmethod
    def backward(ctx, grad):
        a, b = ctx.saved_tensors
        return grad * b, grad * a


class Mv(Function):
    node_name = "MvBackward0"

    @staticmethod
    def forward(ctx, m, v):
        if m._data.shape[1] != v._data.shape[0]:
            raise RuntimeError(f"size mismatch, got input ({m._data.shape[0]}), mat ({m._data.shape[0]}x"
                               f"{m._data.shape[1]}), vec ({v._data.shape[0]})")
        ctx.save_for_backward(m, v)
        return Tensor(m._data @ v._data)

    @staticmethod
    def backward(ctx, grad):
        m, v = ctx.saved_tensors
        return grad.unsqueeze(1).mm(v.unsqueeze(0)), m.t().mm(grad.unsqueeze(1)).squeeze(1)


class Bmm(Function):
    node_name = "BmmBackward0"

    @staticmethod
    def forward(ctx, a, b):
        (n, _, k), (n2, k2, m) = a._data.shape, b._data.shape
        if (n, k) != (n2, k2):
            raise RuntimeError(f"Expected size for first two dimensions of batch2 tensor to be: [{n}, {k}] but got: "
                               f"[{n2}, {k2}].")
        ctx.save_for_backward(a, b)
        return Tensor(a._data @ b._data)

    @staticmethod
    def backward(ctx, grad):
        a, b = ctx.saved_tensors
        return grad @ b.transpose(1, 2), a.transpose(1, 2) @ grad


def matmul(a, b):
    """``a @ b`` following PyTorch's rules and recording the nodes PyTorch records.

    1-D @ 1-D is ``dot``; 2-D @ 1-D is ``mv``; 2-D @ 2-D is ``mm``; a vector on the left is
    unsqueezed to a row; anything with more dims folds the batch dims into one and unfolds the
    result (``UnsafeViewBackward0``): (b, n, k) @ (k, m) is a single ``mm`` of a (b*n, k) matrix,
    and batch @ batch is a ``bmm`` after broadcasting the batch dims.
    """
    from ._util import as_operand
    from .shape import SqueezeDims, UnsafeView
    a, b = as_operand(a, b), as_operand(b, a)
    da, db = a._data.ndim, b._data.ndim
    if da == 0 or db == 0:
        raise RuntimeError(f"both arguments to matmul need to be at least 1D, but they are {da}D and {db}D")
    if da == 1 and db == 1:
        return Dot.apply(a, b)
    if da == 2 and db == 1:
        return Mv.apply(a, b)
    if da == 1 and db == 2:
        return SqueezeDims.apply(Mm.apply(a.unsqueeze(0), b), 0)
    if da == 2 and db == 2:
        return Mm.apply(a, b)
    if da >= 3 and db <= 2:  # fold a's batch dims into its rows
        k = a._data.shape[-1]
        folded = a.reshape(-1, k)
        if db == 1:
            return UnsafeView.apply(Mv.apply(UnsafeView.apply(a, (-1, k)) if a.is_contiguous() else folded, b),
                                    a._data.shape[:-1])
        return UnsafeView.apply(Mm.apply(folded, b), a._data.shape[:-1] + (b._data.shape[-1],))
    if da == 1:  # vector @ batch of matrices: each matrix transposed, folded into rows, times the vector
        k, m = b._data.shape[-2:]
        return UnsafeView.apply(Mv.apply(b.mT.reshape(-1, k), a), b._data.shape[:-2] + (m,))
    # batch @ batch: broadcast the batch dims, fold them into one, bmm, unfold
    batch = np.broadcast_shapes(a._data.shape[:-2], b._data.shape[:-2])
    (n, k), (k2, m) = a._data.shape[-2:], b._data.shape[-2:]
    if k != k2:
        raise RuntimeError(f"Expected size for first two dimensions of batch2 tensor to be: [{int(np.prod(batch))}, "
                           f"{k}] but got: [{int(np.prod(batch))}, {k2}].")
    a3 = (a if a._data.shape[:-2] == batch else a.expand(batch + (n, k))).reshape(-1, n, k)
    b3 = (b if b._data.shape[:-2] == batch else b.expand(batch + (k, m))).reshape(-1, k, m)
    return UnsafeView.apply(Bmm.apply(a3, b3), batch + (n, m))
