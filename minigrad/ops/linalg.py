"""Matrix products: ``mm``, ``dot``, ``mv``, ``bmm``, ``addmm`` (nn.Linear) and ``matmul``; ``cross``, ``kron``."""
import math

import numpy as np

from .dispatch import Op
from .._core.tensor_base import TensorBase as Tensor, _warn_once
from ._fast import add_bias, column_major, mm_mat2_backward

_TYPE = {"float32": "float", "float64": "double", "int64": "long", "int32": "int", "float16": "c10::Half"}
_NAME = {"float32": "Float", "float64": "Double", "int64": "Long", "int32": "Int", "float16": "Half", "bool": "Bool",
         "int16": "Short", "int8": "Char", "uint8": "Byte"}


def _product(x, y):
    """``x @ y`` of two arrays. An inf times a 0 inside the sum is nan, silently, as in PyTorch (numpy would warn)."""
    return x @ y


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


class Mm(Op):
    """``a.mm(b)``: (m x k) @ (k x n).  dL/da = grad @ b^T, dL/db = a^T @ grad."""
    node_name = "MmBackward0"
    saved_names = {"self": 0, "mat2": 1, "self_sym_sizes": "self_sizes", "mat2_sym_sizes": "mat2_sizes"}

    @staticmethod
    def forward(ctx, a, b):
        _check_mm(a, b)
        need_a, need_b = ctx.needs_input_grad
        # a's gradient needs b and b's needs a: keep only what a wanted gradient needs, as PyTorch does
        ctx.save_for_backward(a if need_b else None, b if need_a else None)
        ctx.a_column_major, ctx.b_column_major = column_major(a), column_major(b)  # (each gradient keeps its layout)
        ctx.self_sizes, ctx.mat2_sizes = a._data.shape, b._data.shape
        return Tensor(_product(a._data, b._data))

    @staticmethod
    def backward(ctx, grad):
        a, b = ctx.saved_tensors
        return (mm_mat1_backward(grad, b, ctx.a_column_major) if ctx.needs_input_grad[0] else None,  # grad @ b^T
                mm_mat2_backward(grad, a, ctx.b_column_major) if ctx.needs_input_grad[1] else None)  # a^T @ grad


def mm_mat1_backward(grad, mat2, mat1_column_major):
    """``grad.mm(mat2.t())``: the gradient of ``mat1`` in ``mat1 @ mat2`` (PyTorch's ``mm_mat1_backward``).
    For a column-major ``mat1`` PyTorch computes it as ``(mat2 @ grad.t()).t()`` (see ``mm_mat2_backward``):
    the same numbers, laid out like ``mat1``; under ``create_graph=True`` the graph is ``TBackward0`` over
    ``MmBackward0``, and minigrad records the same."""
    if mat1_column_major:
        return mat2.mm(grad.t()).t()
    return grad.mm(mat2.t())


class Addmm(Op):
    """``beta * bias + alpha * (x @ w_t)``: what ``nn.Linear`` records for a 2-D input, and ``torch.addmm``
    (PyTorch: ``AddmmBackward0``; ``beta`` and ``alpha`` are 1 unless given).

    dL/d(bias) = beta * grad summed to bias's shape, dL/dx = alpha * grad @ w_t^T,
    dL/d(w_t) = alpha * x^T @ grad (PyTorch multiplies only when the number is not 1: ``maybe_multiply``).
    """
    node_name = "AddmmBackward0"
    saved_names = {"mat1": 0, "mat2": 1, "alpha": "alpha", "beta": "beta", "mat1_sym_sizes": "mat1_shape",
                   "mat2_sym_sizes": "mat2_shape", "mat1_sym_strides": "mat1_strides",
                   "mat2_sym_strides": "mat2_strides"}  # (grad_fn._saved_*)

    @staticmethod
    def forward(ctx, bias, x, w_t, beta=1, alpha=1):
        _check_mm(x, w_t)
        _, need_x, need_w_t = ctx.needs_input_grad[:3]
        ctx.save_for_backward(x if need_w_t else None, w_t if need_x else None)  # (as in Mm)
        ctx.beta, ctx.alpha = beta, alpha
        ctx.mat1_shape, ctx.mat2_shape = x._data.shape, w_t._data.shape
        # (PyTorch keeps an input's strides for the layout of its gradient: only when that gradient is wanted)
        ctx.mat1_strides, ctx.mat2_strides = x.stride() if need_x else (), w_t.stride() if need_w_t else ()
        ctx.x_column_major, ctx.w_t_column_major = column_major(x), column_major(w_t)  # (for the gradients' layouts)
        if beta == 1 and alpha == 1:
            return Tensor(add_bias(x._data @ w_t._data, bias._data))  # bias + x @ w_t
        product = (x._data @ w_t._data) * np.asarray(alpha, x._data.dtype)
        if beta == 0:  # PyTorch ignores the bias then (a nan in it does not show)
            return Tensor(np.broadcast_to(np.zeros((), product.dtype), product.shape) + product)
        return Tensor(np.asarray(bias._data * np.asarray(beta, bias._data.dtype) + product, dtype=product.dtype))

    @staticmethod
    def backward(ctx, grad):
        x, w_t = ctx.saved_tensors
        need_bias, need_x, need_w_t = ctx.needs_input_grad[:3]
        return (_times(grad, ctx.beta) if need_bias else None,
                _times(mm_mat1_backward(grad, w_t, ctx.x_column_major), ctx.alpha) if need_x else None,
                # x.t().mm(grad):
                _times(mm_mat2_backward(grad, x, ctx.w_t_column_major), ctx.alpha) if need_w_t else None,
                None, None)


def _times(t, number):
    """PyTorch's ``maybe_multiply``: ``t * number``, or ``t`` itself when the number is 1."""
    from .elementwise import MulScalar
    return t if number == 1 else MulScalar.apply(t, number)


def addmm(bias, mat1, mat2, beta=1, alpha=1):
    """``torch.addmm(input, mat1, mat2, beta=1, alpha=1)``: PyTorch's checks, then one ``Addmm`` node."""
    for name, m in (("mat1", mat1), ("mat2", mat2)):
        if m._data.ndim != 2:
            raise RuntimeError(f"{name} must be a matrix, got {m._data.ndim}-D tensor")
    if mat1._data.dtype != mat2._data.dtype:
        raise RuntimeError(f"self and mat2 must have the same dtype, but got {_NAME[mat1.dtype.name]} and "
                           f"{_NAME[mat2.dtype.name]}")
    _check_mm(mat1, mat2)
    bias.detach().expand(mat1._data.shape[0], mat2._data.shape[1])  # PyTorch expands the input: its error
    return Addmm.apply(bias, mat1, mat2, beta, alpha)


class Dot(Op):
    node_name = "DotBackward0"
    saved_names = {"self": 0, "tensor": 1}  # (grad_fn._saved_*)

    @staticmethod
    def forward(ctx, a, b):
        if a._data.ndim != 1 or b._data.ndim != 1:
            raise RuntimeError(f"1D tensors expected, but got {a._data.ndim}D and {b._data.ndim}D tensors")
        if a._data.dtype != b._data.dtype:
            raise RuntimeError(f"dot : expected both vectors to have same dtype, but found {_NAME[a.dtype.name]} "
                               f"and {_NAME[b.dtype.name]}")
        if a._data.shape != b._data.shape:
            raise RuntimeError(f"inconsistent tensor size, expected tensor [{a._data.size}] and src "
                               f"[{b._data.size}] to have the same number of elements, but got {a._data.size} and "
                               f"{b._data.size} elements respectively")
        need_a, need_b = ctx.needs_input_grad
        ctx.save_for_backward(a if need_b else None, b if need_a else None)  # (each for the other's gradient)
        return Tensor(np.asarray(_product(a._data, b._data)))

    @staticmethod
    def backward(ctx, grad):
        a, b = ctx.saved_tensors
        return (grad * b if ctx.needs_input_grad[0] else None), (grad * a if ctx.needs_input_grad[1] else None)


class Mv(Op):
    node_name = "MvBackward0"
    saved_names = {"self": 0, "vec": 1}  # (grad_fn._saved_*)

    @staticmethod
    def forward(ctx, m, v):
        if m._data.ndim == 0:  # (PyTorch sizes the result m.size(0) first)
            raise IndexError("Dimension specified as 0 but tensor has no dimensions")
        if m._data.ndim != 2 or v._data.ndim != 1:
            raise RuntimeError(f"vector + matrix @ vector expected, got 1, {m._data.ndim}, {v._data.ndim}")
        if m._data.shape[1] != v._data.shape[0]:
            raise RuntimeError(f"size mismatch, got input ({m._data.shape[0]}), mat ({m._data.shape[0]}x"
                               f"{m._data.shape[1]}), vec ({v._data.shape[0]})")
        if m._data.dtype != v._data.dtype:  # (PyTorch's addmv also names the "input", the result: v's dtype)
            raise RuntimeError(f"addmv input tensors must have the same dtype, but got {_NAME[v.dtype.name]}, "
                               f"{_NAME[m.dtype.name]}, and {_NAME[v.dtype.name]}")
        need_m, need_v = ctx.needs_input_grad
        ctx.save_for_backward(m if need_v else None, v if need_m else None)  # (each for the other's gradient)
        return Tensor(_product(m._data, v._data))

    @staticmethod
    def backward(ctx, grad):
        m, v = ctx.saved_tensors  # (derivatives.yaml: grad.ger(vec), self.t().mv(grad))
        return (grad.outer(v) if ctx.needs_input_grad[0] else None,
                Mv.apply(m.t(), grad) if ctx.needs_input_grad[1] else None)


class Bmm(Op):
    node_name = "BmmBackward0"
    saved_names = {"self": 0, "mat2": 1}  # (grad_fn._saved_*)

    @staticmethod
    def forward(ctx, a, b):
        for name, t in (("batch1", a), ("batch2", b)):
            if t._data.ndim != 3:
                raise RuntimeError(f"{name} must be a 3D tensor")
        (n, _, k), (n2, k2, m) = a._data.shape, b._data.shape
        if (n, k) != (n2, k2):
            raise RuntimeError(f"Expected size for first two dimensions of batch2 tensor to be: [{n}, {k}] but got: "
                               f"[{n2}, {k2}].")
        if a._data.dtype != b._data.dtype:
            raise RuntimeError(f"expected scalar type {_NAME[a.dtype.name]} but found {_NAME[b.dtype.name]}")
        need_a, need_b = ctx.needs_input_grad
        ctx.save_for_backward(a if need_b else None, b if need_a else None)  # (each for the other's gradient)
        return Tensor(_product(a._data, b._data))

    @staticmethod
    def backward(ctx, grad):
        a, b = ctx.saved_tensors  # (derivatives.yaml: bmm again, not matmul)
        return (Bmm.apply(grad, b.transpose(1, 2)) if ctx.needs_input_grad[0] else None,
                Bmm.apply(a.transpose(1, 2), grad) if ctx.needs_input_grad[1] else None)


def matmul(a, b, name="matmul"):  # (name: F.linear's messages say "linear")
    """``a @ b`` as PyTorch's ``at::matmul`` computes and records it.

    1-D @ 1-D is ``dot``, 2-D @ 1-D ``mv``, 2-D @ 2-D ``mm``, a vector on the left a row (``mm``
    then squeeze). With more dims PyTorch *folds* when it can do it without a copy (``_should_fold``):
    (b, n, k) @ (k, m) is one ``mm`` of the (b*n, k) matrix, unfolded by ``UnsafeViewBackward0``;
    2-D @ 3-D is folded the other way round (transposed, then ``contiguous``). Otherwise both sides
    are expanded to the broadcast batch (an ``ExpandBackward0`` each, even when nothing changes),
    reshaped into one batch dim and multiplied by ``bmm``; but a 3-D batch of one that requires grad,
    against a larger batch, is squeezed first (``SqueezeBackward1``) and the product folded.
    """
    from .promotion import as_operand
    from .inplace import inplace_view
    from .shape import SqueezeDimInPlace, UnsafeView
    a, b = as_operand(a, b), as_operand(b, a)
    da, db = a._data.ndim, b._data.ndim
    if da == 0 or db == 0:
        raise RuntimeError(f"both arguments to {name} need to be at least 1D, but they are {da}D and {db}D")
    if da == 1 and db == 1:
        return Dot.apply(a, b)
    if da == 2 and db == 1:
        return Mv.apply(a, b)
    if da == 1 and db == 2:  # PyTorch: a.unsqueeze(0).mm(b).squeeze_(0), in place on the product (version 1)
        return inplace_view(Mm.apply(a.unsqueeze(0), b), SqueezeDimInPlace, 0)
    if da == 2 and db == 2:
        return Mm.apply(a, b)
    if _should_fold(a, b):
        transpose = db > da  # fold the larger one: for 2-D @ 3-D that is b, seen transposed
        t1 = b.mT if transpose else a
        t2 = (a.t() if da == 2 else a) if transpose else b
        shape = t1._data.shape[:-1]
        folded = t1.reshape(int(np.prod(shape)), t1._data.shape[-1])
        if t2._data.ndim == 1:
            return UnsafeView.apply(Mv.apply(folded, t2), shape)
        out = UnsafeView.apply(Mm.apply(folded, t2), shape + (t2._data.shape[1],))
        return out.mT.contiguous() if transpose else out
    if da == 3 and db == 3 and a._data.shape[0] != b._data.shape[0]:
        # a batch of one that requires grad is squeezed (SqueezeBackward1) and the product folded
        if a._data.shape[0] == 1 and a.requires_grad:
            return matmul(a.squeeze(0), b, name)
        if b._data.shape[0] == 1 and b.requires_grad:
            return matmul(a, b.squeeze(0), name)
    # batch @ batch: expand both to the broadcast batch, fold it into one dim, bmm, unfold
    n = a._data.shape[-2] if da > 1 else 1
    k = a._data.shape[-1]
    k2 = b._data.shape[-2] if db > 1 else b._data.shape[0]
    p = b._data.shape[-1] if db > 1 else 1
    from .promotion import broadcast_shape
    batch = broadcast_shape(Tensor(np.empty(a._data.shape[:-2])), Tensor(np.empty(b._data.shape[:-2])))
    size = int(np.prod(batch))
    a3 = a.expand(batch + (n, k)).reshape(size, n, k)
    if db == 1:
        b3 = b.expand(batch + (k2,)).reshape(size, k2).unsqueeze(2)
    else:
        b3 = b.expand(batch + (k2, p)).reshape(size, k2, p)
    out_shape = batch + ((n,) if da > 1 else ()) + ((p,) if db > 1 else ())
    out = Bmm.apply(a3, b3)
    return UnsafeView.apply(out.squeeze(-1) if db == 1 else out, out_shape)


def _should_fold(a, b):
    """PyTorch's ``should_fold``: can the larger side (>= 3-D, the other 1-D or 2-D) be seen as one
    matrix without a copy? Always when the smaller side requires grad (a smaller backward)."""
    a_larger = a._data.ndim >= b._data.ndim
    t1 = a._data if a_larger else np.swapaxes(b._data, -1, -2)
    small = b if a_larger else a
    if not (t1.ndim >= 3 and small._data.ndim <= 2):
        return False
    if small.requires_grad:
        return True
    if a._data.ndim == 2:
        return False
    if t1.size == 0:
        return True
    shape, strides = t1.shape, t1.strides
    return all(strides[i] == strides[i + 1] * shape[i + 1] for i in range(len(shape) - 2))  # (the batch dims)


# ------------------------------------------------------------------ cross and Kronecker products
class Cross(Op):
    """``torch.cross(a, b, dim)``: the cross product of 3-vectors along ``dim`` (PyTorch: ``linalg_cross``).

    d/da = cross(b, grad), d/db = cross(grad, a), each summed back to its input's shape (the inputs broadcast).
    """
    node_name = "LinalgCrossBackward0"
    saved_names = {"other": 0, "self": 1, "dim": "dim"}  # (grad_fn._saved_*, in the order PyTorch unpacks them)

    @staticmethod
    def forward(ctx, a, b, dim):
        need_a, need_b, _ = ctx.needs_input_grad
        ctx.save_for_backward(b if need_a else None, a if need_b else None)  # (each for the other's gradient)
        ctx.dim = dim
        dtype = np.result_type(a._data, b._data)
        x, y = np.broadcast_arrays(a._data.astype(dtype), b._data.astype(dtype))
        x, y = np.moveaxis(x, dim, 0), np.moveaxis(y, dim, 0)
        out = [_times_minus(x[1], y[2], x[2] * y[1]),  # a1 b2 - a2 b1
               _times_minus(x[2], y[0], x[0] * y[2]),  # a2 b0 - a0 b2
               _times_minus(x[0], y[1], x[1] * y[0])]  # a0 b1 - a1 b0
        return Tensor(np.stack(out, axis=dim))

    @staticmethod
    def backward(ctx, grad):
        b, a = ctx.saved_tensors
        return (Cross.apply(b, grad, ctx.dim) if ctx.needs_input_grad[0] else None,
                Cross.apply(grad, a, ctx.dim) if ctx.needs_input_grad[1] else None, None)


def _times_minus(x, y, p):
    """``x * y - p`` as PyTorch's compiled cross kernel computes it for floats: the compiler fuses the multiply and
    the subtraction (one FMA instruction), so ``x * y`` is not rounded before ``p`` is taken off; ``cross(a, a)``
    can then be the rounding error of a product instead of 0.  float32: the product is exact in float64.
    float64: the product's rounding error is found by Dekker's split and added back."""
    if x.dtype.kind != "f":
        return x * y - p
    if x.dtype != np.float64:
        return (x.astype(np.float64) * y - p).astype(x.dtype)
    product = x * y
    split = 134217729.0  # 2**27 + 1: splits a float64 into two halves whose products are exact
    xs, ys = x * split, y * split
    x_hi, y_hi = xs - (xs - x), ys - (ys - y)
    x_lo, y_lo = x - x_hi, y - y_hi
    error = ((x_hi * y_hi - product) + x_hi * y_lo + x_lo * y_hi) + x_lo * y_lo  # x * y == product + error, exactly
    difference = product - p  # and product - p == difference + lost, exactly (Knuth's TwoSum)
    back = difference - product
    lost = (product - (difference - back)) - (p + back)
    fused = np.where(np.isfinite(error) & (lost + error != 0), difference + (lost + error), difference)
    # (x * y is never rounded to inf inside the instruction: an infinite p alone decides)
    return np.where(np.isinf(p) & np.isfinite(x) & np.isfinite(y), -p, fused)


def cross(a, b, dim=None):
    from .._core.tensor_base import _wrap_dim
    from .promotion import broadcast_shape
    shape = broadcast_shape(a, b)
    if dim is None:  # the first dim of size 3 (torch.linalg.cross takes the last one); PyTorch warns once per process
        _warn_once("Using minigrad.cross without specifying the dim arg is deprecated.\nPlease either pass the dim "
                   "explicitly or simply use minigrad.linalg.cross.\nThe default value of dim will change to agree "
                   "with that of linalg.cross in a future release. (Triggered internally at "
                   "/__w/pytorch/pytorch/aten/src/ATen/native/Cross.cpp:63.)", stacklevel=3)
        dim = next((i for i, s in enumerate(a._data.shape) if s == 3), None)
        if dim is None:
            raise RuntimeError("no dimension of size 3 in input")
    if a._data.ndim != b._data.ndim:
        raise RuntimeError(f"linalg.cross: inputs must have the same number of dimensions.")
    given, dim = dim, _wrap_dim(dim, len(shape))
    if a._data.shape[dim] != 3 or b._data.shape[dim] != 3:  # (the message names the dim as it was given)
        raise RuntimeError(f"linalg.cross: inputs dimension {given} must have length 3. Got {a._data.shape[dim]} and "
                           f"{b._data.shape[dim]}")
    return Cross.apply(a, b, dim)


def kron(a, b):
    """``torch.kron(a, b)``: every element of ``a`` times the whole of ``b``, block by block.

    Built from other ops, as in PyTorch: ``a`` viewed as (a0, 1, a1, 1), ``b`` as (1, b0, 1, b1), their
    product, viewed as (a0 * b0, a1 * b1); its graph shows ``UnsafeViewBackward0`` and ``MulBackward0``.
    """
    from .shape import UnsafeView
    n = max(a._data.ndim, b._data.ndim)
    sa = (1,) * (n - a._data.ndim) + a._data.shape
    sb = (1,) * (n - b._data.ndim) + b._data.shape
    a_shape, b_shape = [], []
    for x, y in zip(sa, sb):
        a_shape += [x, 1]
        b_shape += [1, y]
    # (a transposed input cannot be viewed so: it raises view's error, as PyTorch's kron does)
    product = UnsafeView.apply(a, tuple(a_shape)) * UnsafeView.apply(b, tuple(b_shape))
    return UnsafeView.apply(product, tuple(x * y for x, y in zip(sa, sb)))


def tensordot(a, b, dims=2):
    """``torch.tensordot``: sums the products over ``dims`` -- the last ``dims`` dims of ``a`` with the
    first ``dims`` of ``b``, or the two lists ``dims = ([dims of a], [dims of b])``.  Built as PyTorch
    builds it: a contracted dim of size 1 on one side is summed away first; both are permuted so the
    contracted dims meet, reshaped to matrices, multiplied by ``mm``, and the product reshaped
    (``ViewBackward0``); when every dim is contracted, a ``dot`` instead."""
    from .._core.tensor_base import _wrap_dim
    if isinstance(dims, int):
        if dims < 0:
            raise RuntimeError(f"tensordot expects dims >= 0, but got dims={dims}")
        if dims > min(a.dim(), b.dim()):
            raise RuntimeError(f"tensordot expects dims < ndim_a or ndim_b, but got dims={dims}")
        dims_a, dims_b = list(range(-dims, 0)), list(range(dims))
    else:
        dims_a, dims_b = ([d] if isinstance(d, int) else list(d) for d in dims)
    if len(dims_a) != len(dims_b):
        raise RuntimeError("both dimension lists should have same length")
    given = list(zip(dims_a, dims_b))  # (the error names the dims as given)
    dims_a = [_wrap_dim(d, a.dim()) for d in dims_a]
    dims_b = [_wrap_dim(d, b.dim()) for d in dims_b]
    contracted = 1
    for (da, db), (ga, gb) in zip(zip(dims_a, dims_b), given):
        sa, sb = a.shape[da], b.shape[db]
        if sb == 1:  # broadcast dims are summed right away
            a = a.sum(da, True)
        elif sa == 1:
            b = b.sum(db, True)
        elif sa != sb:
            raise RuntimeError(f"contracted dimensions need to match, but first has size {sa} in dim {ga} and "
                               f"second has size {sb} in dim {gb}")
        else:
            contracted *= sa
    keep_a = [d for d in range(a.dim()) if d not in dims_a]
    keep_b = [d for d in range(b.dim()) if d not in dims_b]
    size_a = math.prod(a.shape[d] for d in keep_a)
    size_b = math.prod(b.shape[d] for d in keep_b)
    sizes = [a.shape[d] for d in keep_a] + [b.shape[d] for d in keep_b]
    a, b = a.permute(keep_a + dims_a), b.permute(dims_b + keep_b)
    if size_a != 1 or size_b != 1:
        return a.reshape(size_a, contracted).mm(b.reshape(contracted, size_b)).reshape(sizes)
    # a full contraction: PyTorch takes the dot of the two flattened (views when both are contiguous),
    # else multiplies and sums
    if a.is_contiguous() and b.is_contiguous():
        return a.flatten().dot(b.flatten()).reshape(sizes)
    return (a.squeeze() * b.squeeze()).sum(dtype=a.dtype).reshape(sizes)


# ------------------------------------------------------------------ the inverse of a matrix
class _LinAlgError(RuntimeError):
    """PyTorch's ``torch.linalg.LinAlgError`` (``torch._C._LinAlgError``): a matrix function met a matrix it cannot
    work with, such as a singular one for ``inv``.  A ``RuntimeError``, so ``except RuntimeError`` catches it too."""


class LinalgInv(Op):
    """``linalg.inv(A)`` (and ``inverse``): the inverse of each square matrix in the last two dims.
    dL/dA = -A⁻ᵀ @ grad @ A⁻ᵀ (``derivatives.yaml``, ``linalg_inv_ex``: it saves the inverse, its own output)."""
    node_name = "LinalgInvExBackward0"
    saved_names = {"inverse": 0}

    @staticmethod
    def forward(ctx, a):
        _check_square_floats(a, "linalg.inv")
        inverse = Tensor(_column_major_matrices(_inverted(a._data)))  # (LAPACK's layout, as PyTorch returns it)
        ctx.save_for_backward(inverse)
        return inverse

    @staticmethod
    def backward(ctx, grad):
        inverse, = ctx.saved_tensors
        return -(inverse.mH @ (grad @ inverse.mH))


def _check_square_floats(a, name):
    """PyTorch's checks of a matrix function's input: batches of square float32 or float64 matrices."""
    if a._data.ndim < 2:
        raise RuntimeError(f"{name}: The input tensor A must have at least 2 dimensions.")
    if a._data.shape[-1] != a._data.shape[-2]:
        rows, cols = a._data.shape[-2:]
        raise RuntimeError(f"{name}: A must be batches of square matrices, but they are {rows} by {cols} matrices")
    if a._data.dtype == np.float16:
        raise RuntimeError(f"{name}: Low precision dtypes not supported. Got Half")
    if a._data.dtype.kind != "f":
        raise RuntimeError(f"{name}: Expected a floating point or complex tensor as input. Got {_NAME[a.dtype.name]}")


def _inverted(x):
    """numpy's inverse of each matrix of ``x`` (LAPACK's ``gesv``); a singular one is PyTorch's error, naming the
    first zero on the diagonal of its LU factorisation (``getrf``'s ``info``)."""
    if x.size == 0:
        return x.copy()
    try:
        return np.linalg.inv(x)
    except np.linalg.LinAlgError:  # (a singular matrix, or a nan that numpy's check takes for one)
        inverses = []
        for b, matrix in enumerate(x.reshape((-1,) + x.shape[-2:])):
            zero = _first_zero_pivot(matrix)
            if zero:
                where = f"(Batch element {b}): " if x.ndim > 2 else ""
                raise _LinAlgError(f"linalg.inv: {where}The diagonal element {zero} is zero, the inversion could not "
                                   "be completed because the input matrix is singular.") from None
            try:
                inverses.append(np.linalg.inv(matrix))
            except np.linalg.LinAlgError:  # (a nan pivot: LAPACK carries the nan through, PyTorch returns it)
                inverses.append(np.full_like(matrix, np.nan))
        return np.stack(inverses).reshape(x.shape)


def _first_zero_pivot(matrix):
    """LU factorisation with partial pivoting as LAPACK's ``getrf`` does it (the largest magnitude in each column
    becomes the pivot); the position, from 1, of the first pivot that is exactly 0, or 0 when none is."""
    lu = matrix.copy()
    n = lu.shape[0]
    for k in range(n):
        p = k + int(np.argmax(np.abs(lu[k:, k])))
        if lu[p, k] == 0:
            return k + 1
        lu[[k, p]] = lu[[p, k]]
        lu[k + 1:, k] /= lu[k, k]
        lu[k + 1:, k + 1:] -= np.outer(lu[k + 1:, k], lu[k, k + 1:])
    return 0


def _column_major_matrices(x):
    """``x`` with each matrix stored column by column (the batch dims row-major), as LAPACK returns them."""
    return np.ascontiguousarray(np.swapaxes(x, -1, -2)).swapaxes(-1, -2)


def inv(A):  # noqa: N803  (PyTorch's name)
    """``minigrad.linalg.inv(A)``."""
    if not isinstance(A, Tensor):
        raise TypeError(f"linalg_inv(): argument 'A' (position 1) must be Tensor, not {type(A).__name__}")
    return LinalgInv.apply(A)


def inverse(input):  # noqa: A002
    """``minigrad.inverse(x)``: ``linalg.inv``."""
    if not isinstance(input, Tensor):
        raise TypeError(f"inverse(): argument 'input' (position 1) must be Tensor, not {type(input).__name__}")
    return LinalgInv.apply(input)
