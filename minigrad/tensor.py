"""The Tensor: a numpy array plus the bookkeeping autograd needs.

A minigrad Tensor holds
- ``_data``: the numpy array with the values (PyTorch: the storage),
- ``requires_grad``: whether gradients should flow back to it,
- ``grad_fn``: the backward node that created it (``None`` for a leaf),
- ``_output_nr``: which output of ``grad_fn`` it is (most nodes have one output, number 0),
- ``_grad``: the accumulated gradient of a leaf (read it as ``.grad``),
- ``_vc``: the version counter, a one-element list shared by a tensor and its views; every
  in-place change bumps it so that backward can notice saved tensors that were overwritten.

Every operation below is a one-liner that calls a Function from ``minigrad.ops``: the forward
and backward of each op live side by side there.  Where PyTorch does more (strides, storage
offsets, devices, sparse layouts, named dims), minigrad keeps to what teaching autograd needs.
"""
import numbers
import warnings
import weakref

import numpy as np

from . import _dtype
from . import autograd as _autograd
from . import creation as _creation
from . import devices as _device
from . import ops as _ops
from . import random as _random
from ._core import layout as _layout
from ._core.tensor_base import (_TYPE_NAMES, C_NAMES, SCALAR_OF_GRAD, RemovableHandle, TensorBase, _warn_once, _wrap_dim,  # noqa: F401
                                cpp_type_name, register_tensor_class)  # (RemovableHandle, cpp_type_name: minigrad.tensor's)
from ._dtype import Size
from ._format import tensor_repr
from .autograd import function as _autograd_function
from .autograd import grad_mode
from .autograd import inference as _inference
from .devices import contiguous_format, numpy_order, preserve_format
from .ops import math_more as _math


class _NotGiven:
    """The default of ``rounding_mode=``: PyTorch tells ``x.div(y)`` from ``x.div(y, rounding_mode=None)`` (another
    overload, whose node is ``DivBackward2``), so minigrad must tell a missing argument from None."""

    def __repr__(self):
        return "None"


NOT_GIVEN = _NotGiven()

NON_LEAF_GRAD = ("The .grad attribute of a Tensor that is not a leaf Tensor is being accessed. Its .grad attribute "
                 "won't be populated during autograd.backward(). If you indeed want the .grad field to be populated for "
                 "a non-leaf Tensor, use .retain_grad() on the non-leaf Tensor. If you access the non-leaf Tensor by "
                 "mistake, make sure you access the leaf Tensor instead. See github.com/pytorch/pytorch/pull/30531 for "
                 "more information.")

MATRIX_FUNCTIONS = ("det", "pinverse", "logdet", "slogdet", "svd", "cholesky", "cholesky_solve", "cholesky_inverse",
                    "lu", "qr", "eig", "lstsq", "triangular_solve", "matrix_power", "matrix_exp", "orgqr", "geqrf",
                    "ormqr", "chain_matmul", "addbmm", "baddbmm", "addmv", "addr", "ger")
MATRIX_FUNCTIONS_LEFT_OUT = ("the matrix functions beyond products (inverse, determinant, decompositions, batched and "
                             "fused products); minigrad has mm, bmm, matmul, addmm, inverse and the vector norms")
LEFT_OUT_METHODS = {  # the methods of torch.Tensor a learner may meet that minigrad leaves out, and why
    **dict.fromkeys([n for n in MATRIX_FUNCTIONS if n != "chain_matmul"] + ["addbmm_", "baddbmm_", "addmv_", "addr_"],
                    MATRIX_FUNCTIONS_LEFT_OUT),
    "stft": "Fourier transforms", "istft": "Fourier transforms",
}


class _LeftOut:
    """A method of ``torch.Tensor`` that minigrad leaves out: reading it raises an AttributeError that says so.
    (A descriptor per name, not ``Tensor.__getattr__``: that would slow every attribute a tensor reads.)"""

    def __init__(self, name):
        self.name = name

    def __get__(self, tensor, owner=None):
        raise AttributeError(f"minigrad's Tensor has no {self.name}: {LEFT_OUT_METHODS[self.name]}; PyTorch has "
                             f"torch.Tensor.{self.name}")


class Tensor(TensorBase):
    """A tensor: ``TensorBase``'s fields (``_core/tensor_base.py``) with the methods you call."""

    # ------------------------------------------------------------------ basic facts
    @property
    def dtype(self):
        return _dtype.from_numpy_dtype(self._data.dtype)

    @property
    def shape(self):
        return Size(self._data.shape)

    def size(self, dim=None):
        if dim is None:
            return Size(self._data.shape)
        if self._data.ndim == 0:  # (PyTorch: a 0-dim tensor has no size along any dim)
            raise IndexError(f"Dimension specified as {dim} but tensor has no dimensions")
        return self._data.shape[_wrap_dim(dim, self._data.ndim)]

    def dim(self):
        return self._data.ndim

    ndim = property(dim)

    def numel(self):
        return self._data.size

    def __len__(self):
        if self._data.ndim == 0:
            raise TypeError("len() of a 0-d tensor")
        return self._data.shape[0]

    def is_floating_point(self):
        return self.dtype.is_floating_point

    @property
    def device(self):
        """Always the CPU: minigrad keeps every tensor's numbers in a numpy array (see ``devices.py``)."""
        return _device.CPU

    is_cuda = False

    @property
    def grad_fn(self):
        """The backward node that made this tensor (``None`` for a leaf).

        A view whose base was changed in place since (through the base or another view) first
        gets a new node on the base's new history (``AsStridedBackward0``), as in PyTorch.
        """
        if self._base is not None and self._view_version != self._vc[0]:
            _ops.inplace_view_refresh(self)
        return self._grad_fn

    @grad_fn.setter
    def grad_fn(self, node):
        self._grad_fn = node
        if self._base is not None:  # a view's history is up to date with its base's from now on
            self._view_version = self._vc[0]

    @property
    def output_nr(self):
        """Which output of ``grad_fn`` this tensor is (0 for a leaf): the number in its consumers' ``next_functions``."""
        return self._output_nr

    @property
    def is_leaf(self):
        """A tensor is a leaf when no recorded operation created it (``grad_fn is None``)."""
        return self.grad_fn is None

    @property
    def _version(self):
        if type(self._vc) is _inference.InferenceCounter:
            raise RuntimeError(_inference.VERSION_MSG)
        return self._vc[0]

    def is_inference(self):
        """Was this tensor made in inference mode (or is it a view of one)?  See ``autograd/inference.py``."""
        return type(self._vc) is _inference.InferenceCounter

    @property
    def T(self):
        if self._data.ndim == 0:
            _warn_once("Tensor.T is deprecated on 0-D tensors. This function is the identity in these cases. "
                       "(Triggered internally at /__w/pytorch/pytorch/aten/src/ATen/native/TensorShape.cpp:4321.)")
        elif self._data.ndim != 2:
            _warn_once("The use of `x.T` on tensors of dimension other than 2 to reverse their shape is deprecated "
                       "and it will throw an error in a future release. Consider `x.mT` to transpose batches of "
                       "matrices or `x.permute(*torch.arange(x.ndim - 1, -1, -1))` to reverse the dimensions of a "
                       "tensor. (Triggered internally at "
                       "/__w/pytorch/pytorch/aten/src/ATen/native/TensorShape.cpp:4314.)")
        return _ops.Permute.apply(self, tuple(reversed(range(self._data.ndim))))

    @property
    def mT(self):
        if self._data.ndim == 0:  # PyTorch: a 0-dim tensor is its own transpose (no node)
            _warn_once("Tensor.mT is deprecated on 0-D tensors. This function is the identity in these cases. "
                       "(Triggered internally at /__w/pytorch/pytorch/aten/src/ATen/native/TensorShape.cpp:4373.)")
            return self
        if self._data.ndim == 1:
            raise RuntimeError("tensor.mT is only supported on matrices or batches of matrices. Got 1-D tensor.")
        return self.transpose(-2, -1)

    # the conjugate transposes: minigrad's numbers are real, so they are the transposes (PyTorch's nodes too)
    @property
    def H(self):
        if self._data.ndim == 0:
            return self._conjugate_of_a_number("Tensor.H", 4335)
        if self._data.ndim != 2:
            raise RuntimeError(f"tensor.H is only supported on matrices (2-D tensors). Got {self._data.ndim}-D tensor."
                               + (" For batches of matrices, consider using tensor.mH" if self._data.ndim > 2 else ""))
        return self.transpose(0, 1)

    @property
    def mH(self):
        return self._matrix_conjugate_transpose("Tensor.mH", "tensor.mH", 4382)

    def adjoint(self):
        return self._matrix_conjugate_transpose("adjoint()", "tensor.adjoint()", 4390)

    def _matrix_conjugate_transpose(self, deprecated, name, line):
        if self._data.ndim == 0:
            return self._conjugate_of_a_number(deprecated, line)
        if self._data.ndim == 1:
            raise RuntimeError(f"{name} is only supported on matrices or batches of matrices. Got 1-D tensor.")
        return self.transpose(-2, -1)

    def _conjugate_of_a_number(self, name, line):
        _warn_once(f"{name} is deprecated on 0-D tensors. Consider using x.conj(). (Triggered internally at "
                   f"/__w/pytorch/pytorch/aten/src/ATen/native/TensorShape.cpp:{line}.)")
        return self

    # ------------------------------------------------------------------ requires_grad
    @property
    def requires_grad(self):
        if self._base is not None:  # a view requires grad when its base does (PyTorch's DifferentiableViewMeta),
            return self._requires_grad or self._grad_fn is not None or self._base.requires_grad  # made in no_grad too
        return self._requires_grad

    @requires_grad.setter
    def requires_grad(self, value):
        if self.grad_fn is not None:
            if value:
                raise RuntimeError("you can only change requires_grad flags of leaf variables.")
            raise RuntimeError(
                "you can only change requires_grad flags of leaf variables. If you want to use a computed "
                "variable in a subgraph that doesn't require differentiation use var_no_grad = var.detach().")
        if value and not self.dtype.is_floating_point:
            raise RuntimeError("only Tensors of floating point and complex dtype can require gradients")
        if value:
            _inference.check_outside(self, _inference.REQUIRES_GRAD_MSG)
        self._requires_grad = bool(value)

    def requires_grad_(self, requires_grad=True):
        if self.grad_fn is not None:
            if not requires_grad:
                self.requires_grad = False  # PyTorch's error
            return self  # a non-leaf already requires grad
        if requires_grad and not self.dtype.is_floating_point:
            raise RuntimeError("only Tensors of floating point dtype can require gradients")
        if requires_grad:
            _inference.check_outside(self, _inference.REQUIRES_GRAD_MSG)
        self._requires_grad = bool(requires_grad)
        return self

    # ------------------------------------------------------------------ gradients
    @property
    def grad(self):
        if self.grad_fn is not None and not self._retains_grad:
            warnings.warn(NON_LEAF_GRAD, UserWarning, stacklevel=2)
        return self._grad

    @grad.setter
    def grad(self, value):
        """``t.grad = value``, with PyTorch's checks (``THPVariable_set_grad``), in its order."""
        if value is not None:
            if not isinstance(value, Tensor):
                raise TypeError(f"assigned grad expected to be a Tensor or None but got grad of type "
                                f"{type(value).__name__}")
            if value is self:
                raise RuntimeError("can't assign Variable as its own grad")
            want = _autograd_function.grad_dtype(self)
            if want is not None and value._data.dtype != want:
                raise RuntimeError(
                    f"attempting to assign a gradient with dtype '{C_NAMES[value._data.dtype.name]}' to a tensor with "
                    f"grad_dtype '{_TYPE_NAMES[want.name]}'. The gradient must match the tensor's grad_dtype (defaults "
                    "to the tensor's dtype). You can set the tensor's grad_dtype attribute with a specific dtype, or "
                    "None to allow any dtype. Set grad_dtype with caution. Diverging the dtypes of a tensor and its "
                    "gradient may break downstream systems that assume they match.")
            if value._data.shape != self._data.shape:
                raise RuntimeError(
                    f"attempting to assign a gradient of size '{list(value._data.shape)}' to a tensor of size "
                    f"'{list(self._data.shape)}'. Please ensure that the gradient and the tensor are the same size")
        self._grad = value

    @property
    def grad_dtype(self):
        """The dtype ``.grad`` must have: the tensor's own until set to another one, or to None for any dtype. Backward
        casts a leaf's gradient to it (PyTorch's ``Tensor.grad_dtype``; only a leaf has one)."""
        if self.grad_fn is not None:
            raise RuntimeError("grad_dtype can only be accessed on leaf tensors.")
        dtype = _autograd_function.grad_dtype(self)
        return None if dtype is None else _dtype.from_numpy_dtype(dtype)

    @grad_dtype.setter
    def grad_dtype(self, value):
        """PyTorch's checks (``THPVariable_set_grad_dtype``), then ``AutogradMeta::set_grad_dtype``."""
        if value is not None and not isinstance(value, _dtype.dtype):
            raise RuntimeError(f"grad_dtype must be a minigrad.dtype or None, but got {type(value).__name__}")
        if self.grad_fn is not None and not self._retains_grad:  # (PyTorch reads .grad here: a non-leaf warns, and is
            warnings.warn(NON_LEAF_GRAD, UserWarning, stacklevel=2)  # refused below)
        if value is not None and self._grad is not None and self._grad._data.dtype != value.numpy:
            raise RuntimeError(
                f"Cannot set grad_dtype to '{_TYPE_NAMES[value.name]}' because there is already a gradient with dtype "
                f"'{C_NAMES[self._grad._data.dtype.name]}'. Please clear the gradient (.grad = None) before changing "
                "grad_dtype, or ensure the new grad_dtype matches the existing gradient's dtype.")
        _autograd_function.set_grad_dtype(self, None if value is None else value.numpy)

    @property
    def retains_grad(self):
        return self._retains_grad

    def retain_grad(self):
        """Keep ``.grad`` for this non-leaf tensor too (leaves keep theirs anyway)."""
        if not self.requires_grad:
            raise RuntimeError("can't retain_grad on Tensor that has requires_grad=False")
        if self.grad_fn is None or self._retains_grad:
            return
        self._retains_grad = True
        self.grad_fn._hook_dict("_retained")[self._output_nr] = weakref.ref(self)

    def register_hook(self, hook):
        """Call ``hook(grad)`` when the gradient for this tensor is computed; it may return a new grad."""
        if not self.requires_grad:
            raise RuntimeError("cannot register a hook on a tensor that doesn't require gradient")
        if self.grad_fn is None:  # a leaf: AccumulateGrad runs these before accumulating
            if self._hooks is None:
                self._hooks = {}
            return RemovableHandle(self._hooks, hook)
        return RemovableHandle(self.grad_fn._hook_dict("_tensor_pre_hooks").setdefault(self._output_nr, {}), hook)

    def register_post_accumulate_grad_hook(self, hook):
        """Call ``hook(tensor)`` after backward has added this leaf's gradient into ``.grad`` (the hook gets the
        tensor, not the gradient: it may read ``.grad`` and change the tensor, e.g. an optimizer step per parameter)."""
        if not self.requires_grad:
            raise RuntimeError("cannot register a hook on a tensor that doesn't require gradient")
        if self.grad_fn is not None:
            raise RuntimeError("post accumulate grad hooks cannot be registered on non-leaf tensors")
        if self._post_accumulate_grad_hooks is None:
            self._post_accumulate_grad_hooks = {}
        return RemovableHandle(self._post_accumulate_grad_hooks, hook)

    def backward(self, gradient=None, retain_graph=None, create_graph=False, inputs=None):
        """Compute the gradient of this tensor w.r.t. the graph leaves (see ``minigrad.autograd.backward``)."""
        _autograd.backward(self, gradient, retain_graph, create_graph, inputs=inputs)

    def detach(self):
        """A tensor with the same data (and version counter) that is cut out of the graph."""
        out = Tensor(self._data)
        out._vc = self._vc
        out._zerotensor = self._zerotensor
        return out

    def detach_(self):
        if self._base is not None and self._base._requires_grad:
            raise RuntimeError("Can't detach views in-place. Use detach() instead.")
        self.grad_fn = None
        self._requires_grad = False
        return self

    @property
    def data(self):
        """The values as a tensor outside the graph; unlike ``detach()``, changes to it are not tracked."""
        out = Tensor(self._data)
        if type(self._vc) is _inference.InferenceCounter:  # the .data of an inference tensor is one too
            out._vc = _inference.InferenceCounter([0])
        out._zerotensor = self._zerotensor
        return out

    @data.setter
    def data(self, value):
        self._data = value._data

    # ------------------------------------------------------------------ conversions
    def item(self):
        if self._data.size != 1:
            raise RuntimeError(f"a Tensor with {self._data.size} elements cannot be converted to Scalar")
        return self._data.item()

    def tolist(self):
        if self._zerotensor:
            raise RuntimeError("tolist() shouldn't be called on a tensor with unallocated storage")
        return self._data.tolist()

    def numpy(self, force=False):
        # PyTorch refuses only while grad mode is on: under no_grad and inside a Function's forward it works
        if self._requires_grad and not force and grad_mode.is_grad_enabled():
            raise RuntimeError("Can't call numpy() on Tensor that requires grad. Use tensor.detach().numpy() "
                               "instead.")
        if self._zerotensor:
            if not force:
                raise RuntimeError(" Cannot convert a ZeroTensor to numpy. Set force=True if you need the zero array.")
            return self._data.copy()
        return self._data

    def __array__(self, dtype=None, copy=None):
        return self.numpy() if dtype is None else self.numpy().astype(dtype)

    def __float__(self):
        return float(self._python_number())

    def __int__(self):
        return int(self._python_number())

    def _python_number(self):
        """What ``float(t)`` and ``int(t)`` read, after PyTorch's warning and check (in its generated
        ``python_variable_methods.cpp``): the one element of ``t``."""
        if self._requires_grad:
            _warn_once(SCALAR_OF_GRAD, stacklevel=3)
        if self._data.size != 1:
            raise ValueError("only one element tensors can be converted to Python scalars")
        return self.item()

    def __index__(self):
        if self.dtype.is_floating_point or self._data.size != 1:
            raise TypeError("only integer tensors of a single element can be converted to an index")
        return int(self.item())

    def __bool__(self):
        return self.is_nonzero()

    def is_nonzero(self):
        if self._data.size == 0:
            raise RuntimeError("Boolean value of Tensor with no values is ambiguous")
        if self._data.size > 1:
            raise RuntimeError("Boolean value of Tensor with more than one value is ambiguous")
        return bool(self._data.item())

    def to(self, *args, dtype=None, device=None, non_blocking=False, copy=False):
        """``x.to(float64)``, ``x.to("cpu")``, ``x.to(device, float64)``, ``x.to(other)`` (other's dtype)."""
        for a in args:
            if isinstance(a, Tensor):
                dtype = a.dtype
            elif _device.is_device(a) or isinstance(a, int) and not isinstance(a, bool):
                device = a
            else:
                dtype = a
        _device.check(device)
        dtype = self.dtype if dtype is None else _dtype.to_dtype(dtype)
        if dtype is self.dtype:
            return self.clone() if copy else self
        if not dtype.is_floating_point:  # PyTorch: an integer or bool copy is not differentiable, no grad_fn
            with np.errstate(invalid="ignore"):  # (nan and inf cast to integers silently, as in PyTorch)
                return Tensor(_layout.cast(self._data, dtype.numpy))
        return _ops.ToCopy.apply(self, dtype)

    def type(self, dtype=None):
        if dtype is None:
            return "minigrad." + {"float32": "FloatTensor", "float64": "DoubleTensor", "int64": "LongTensor",
                                  "int32": "IntTensor", "bool": "BoolTensor",
                                  "float16": "HalfTensor"}.get(self.dtype.name, "Tensor")
        return self.to(dtype)

    def float(self):
        return self.to(_dtype.float32)

    def double(self):
        return self.to(_dtype.float64)

    def long(self):
        return self.to(_dtype.int64)

    def int(self):
        return self.to(_dtype.int32)

    def bool(self):
        return self.to(_dtype.bool_)

    def cpu(self):
        return self

    def cuda(self, device=None, non_blocking=False):
        _device.check("cuda" if device is None else device)

    def contiguous(self, memory_format=contiguous_format):
        numpy_order(memory_format)  # (only the formats minigrad has)
        return self if self._data.flags.c_contiguous else self.clone(memory_format=contiguous_format)

    def _is_zerotensor(self):
        """Is this one of PyTorch's ZeroTensors (zeros never written to memory, see ops/zerotensor.py)?"""
        return self._zerotensor

    def is_contiguous(self):
        return bool(self._data.flags.c_contiguous)

    def clone(self, *, memory_format=preserve_format):
        return _ops.Clone.apply(self, numpy_order(memory_format))

    def __repr__(self):
        return tensor_repr(self)

    def __format__(self, spec):
        if self._data.ndim == 0:
            return self.item().__format__(spec)
        return object.__format__(self, spec)

    def __hash__(self):
        return id(self)

    def __reduce_ex__(self, proto):
        x = self._data
        if x.strides == _layout.contiguous_strides(x.shape, x.itemsize):
            return (_rebuild, (x, self._requires_grad))
        return (_rebuild, (x, self._requires_grad, self.stride()))  # (PyTorch saves the strides too: x.t() stays so)

    def __deepcopy__(self, memo):
        if not self.is_leaf:
            raise RuntimeError("Only Tensors created explicitly by the user (graph leaves) support the deepcopy "
                               "protocol at the moment.  If you were attempting to deepcopy a module, this may "
                               "be because of a torch.nn.utils.weight_norm usage, see "
                               "https://github.com/pytorch/pytorch/pull/103001")
        new = type(self).__new__(type(self))
        Tensor.__init__(new, self._data.copy(), self._requires_grad)
        if self._grad is not None:  # (through the setter and its checks, as PyTorch's __deepcopy__)
            new.grad = self._grad.clone()
        memo[id(self)] = new
        return new

    def __iter__(self):
        if self._data.ndim == 0:
            raise TypeError("iteration over a 0-d tensor")
        return iter(self.unbind(0))  # (PyTorch: one UnbindBackward0 shared by the pieces, output_nr 0, 1, ...)

    # ------------------------------------------------------------------ arithmetic
    # An operand that is neither a tensor nor a number: NotImplemented, so Python raises PyTorch's
    # TypeError ("unsupported operand type(s) for *: 'Tensor' and 'NoneType'").
    def __add__(self, other):
        if not isinstance(other, OPERANDS):
            return NotImplemented
        return _ops.binary(_ops.Add, self, other)

    __radd__ = __add__

    def __sub__(self, other):
        if not isinstance(other, OPERANDS):
            return NotImplemented
        return _ops.binary(_ops.Sub, self, other)

    def __rsub__(self, other):
        if not isinstance(other, OPERANDS):
            return NotImplemented
        return _ops.Rsub.apply(self, other)

    def __mul__(self, other):
        if not isinstance(other, OPERANDS):
            return NotImplemented
        return _ops.binary(_ops.Mul, self, other)

    __rmul__ = __mul__

    def __truediv__(self, other):
        if not isinstance(other, OPERANDS):
            return NotImplemented
        return _ops.binary(_ops.Div, self, other)

    def __rtruediv__(self, other):  # 2 / x is 2 * x.reciprocal() in PyTorch
        if not isinstance(other, OPERANDS):
            return NotImplemented
        return _ops.binary(_ops.Mul, _ops.Reciprocal.apply(self), other)

    def __neg__(self):
        return _ops.Neg.apply(self)

    def __pos__(self):
        return self

    def __pow__(self, exponent):
        if not isinstance(exponent, OPERANDS):
            return NotImplemented
        return self.pow(exponent)

    def __rpow__(self, base):
        if not isinstance(base, OPERANDS):
            return NotImplemented
        return _ops.PowScalarBase.apply(base, self)

    def __matmul__(self, other):
        if not isinstance(other, OPERANDS):
            return NotImplemented
        return _ops.matmul(self, other)

    def __rmatmul__(self, other):
        if not isinstance(other, OPERANDS):
            return NotImplemented
        return _ops.matmul(other, self)

    def __abs__(self):
        return self.abs()

    # comparisons give bool tensors and are not differentiable
    def __eq__(self, other):
        return _ops._util.compare(np.equal, self, other)

    def __ne__(self, other):
        return _ops._util.compare(np.not_equal, self, other)

    def __lt__(self, other):
        return _ops._util.compare(np.less, self, other)

    def __le__(self, other):
        return _ops._util.compare(np.less_equal, self, other)

    def __gt__(self, other):
        return _ops._util.compare(np.greater, self, other)

    def __ge__(self, other):
        return _ops._util.compare(np.greater_equal, self, other)

    eq, ne, lt, le, gt, ge = __eq__, __ne__, __lt__, __le__, __gt__, __ge__

    def add(self, other, alpha=1):
        _check_other("add", other)
        _check_alpha("add", alpha)
        return _ops.binary(_ops.Add, self, other, alpha)

    def sub(self, other, alpha=1):
        _check_other("sub", other)
        _check_alpha("sub", alpha)
        return _ops.binary(_ops.Sub, self, other, alpha)

    def mul(self, other):
        _check_other("mul", other)
        return self * other

    def div(self, other, *, rounding_mode=NOT_GIVEN):
        _check_other("div", other)
        if rounding_mode is NOT_GIVEN:
            return self / other
        if rounding_mode is None:  # (PyTorch's div with a rounding_mode argument is another node: DivBackward2)
            return _ops.binary(_ops.DivMode, self, other, None)
        return _ops.binary(_ops.unary.DivRounded, self, other, _rounding_mode(rounding_mode))

    def neg(self):
        return -self

    def pow(self, exponent):
        if isinstance(exponent, Tensor):
            return _ops.binary(_ops.PowTensor, self, exponent)
        return _ops.Pow.apply(self, exponent)

    def reciprocal(self):
        return _ops.Reciprocal.apply(self)

    def exp(self):
        return _ops.Exp.apply(self)

    def log(self):
        return _ops.Log.apply(self)

    def sqrt(self):
        return _ops.Sqrt.apply(self)

    def abs(self):
        return _ops.Abs.apply(self)

    def tanh(self):
        return _ops.Tanh.apply(self)

    def sigmoid(self):
        return _ops.Sigmoid.apply(self)

    def relu(self):
        return _ops.Relu.apply(self)

    def sign(self):
        return _ops.Sign.apply(self)

    def sgn(self):
        return _ops.Sgn.apply(self)

    def angle(self):
        return _ops.Angle.apply(self)

    def clamp(self, min=None, max=None):
        return _ops.Clamp.apply(self, min, max)

    clip = clamp

    def maximum(self, other):
        return _ops.binary(_ops.Maximum, self, other)

    # ------------------------------------------------------------------ reductions
    def sum(self, dim=None, keepdim=False, dtype=None, *, axis=None, keepdims=None):
        if dim is None and axis is None and dtype is None:  # (the usual case: all the elements, in x's dtype)
            return _ops.Sum.apply(self, None)
        dim, keepdim = _numpy_names(dim, keepdim, axis, keepdims)
        dtype = None if dtype is None else _dtype.to_dtype(dtype)
        _ops.reduce.check_sum_dtype(self, dtype)
        if dim is None:
            return _ops.Sum.apply(self, dtype)
        return _ops.SumDim.apply(self, dim, keepdim, dtype)

    def mean(self, dim=None, keepdim=False, dtype=None, *, axis=None, keepdims=None):
        dim, keepdim = _numpy_names(dim, keepdim, axis, keepdims)
        if dtype is not None:
            return self.to(dtype).mean(dim, keepdim)
        if not self.dtype.is_floating_point:
            raise RuntimeError(
                "mean(): could not infer output dtype. Input dtype must be either a floating point or complex "
                f"dtype. Got: {_TYPE_NAMES.get(self.dtype.name, self.dtype.name)}")
        if dim is None:
            return _ops.Mean.apply(self)
        return _ops.MeanDim.apply(self, dim, keepdim)

    def max(self, dim=None, keepdim=False, *, axis=None, keepdims=None):
        dim, keepdim = _numpy_names(dim, keepdim, axis, keepdims)
        if isinstance(dim, Tensor):
            return self.maximum(dim)
        if dim is None:
            return _ops.Max.apply(self)
        values, indices = _ops.MaxDim.apply(self, dim, keepdim)
        return _ops.ReturnTypes(values, indices)

    def min(self, dim=None, keepdim=False, *, axis=None, keepdims=None):
        dim, keepdim = _numpy_names(dim, keepdim, axis, keepdims)
        if isinstance(dim, Tensor):
            return self.minimum(dim)
        if dim is None:
            return _ops.Min.apply(self)
        values, indices = _ops.MinDim.apply(self, dim, keepdim)
        return _ops.MinReturnTypes(values, indices)

    def argmax(self, dim=None, keepdim=False, *, axis=None, keepdims=None):
        dim, keepdim = _numpy_names(dim, keepdim, axis, keepdims)
        return _ops.statistics.argmax_or_argmin(np.argmax, self, dim, keepdim)

    def softmax(self, dim=None, dtype=None, *, axis=None):
        dim = _required_dim("softmax", dim, axis)
        return _ops.Softmax.apply(self if dtype is None else self.to(dtype), dim)  # (dtype: cast first, as PyTorch)

    def log_softmax(self, dim=None, dtype=None, *, axis=None):
        dim = _required_dim("log_softmax", dim, axis)
        return _ops.LogSoftmax.apply(self if dtype is None else self.to(dtype), dim)

    def hardshrink(self, lambd=0.5):
        return _ops.activation.Hardshrink.apply(self, lambd)

    def prelu(self, weight):
        return _ops.activation.prelu(self, weight)

    # ------------------------------------------------------------------ linear algebra
    def mm(self, other):
        return _ops.Mm.apply(self, other)

    def matmul(self, other):
        return _ops.matmul(self, other)

    def dot(self, other):
        return _ops.Dot.apply(self, other)

    def t(self):
        if self._data.ndim > 2:
            raise RuntimeError(f"t() expects a tensor with <= 2 dimensions, but self is {self._data.ndim}D")
        return _ops.T.apply(self)

    def transpose(self, dim0, dim1):
        return _ops.Transpose.apply(self, dim0, dim1)

    # in-place view ops: the tensor itself takes the view's shape and strides (ops.inplace_view)
    def t_(self):
        return _ops.inplace_view(self, _ops.shape.TInPlace)

    def transpose_(self, dim0, dim1):
        return _ops.inplace_view(self, _ops.shape.TransposeInPlace, dim0, dim1)

    swapdims_ = swapaxes_ = transpose_

    def unsqueeze_(self, dim):  # (the dims are checked after the in-place checks, as in PyTorch)
        return _ops.inplace_view(self, _ops.shape.UnsqueezeInPlace, dim)

    def squeeze_(self, dim=None):
        if dim is None:
            return _ops.inplace_view(self, _ops.shape.SqueezeInPlace)
        if isinstance(dim, (tuple, list)):
            return _ops.inplace_view(self, _ops.select.SqueezeDimListInPlace, tuple(dim))
        return _ops.inplace_view(self, _ops.shape.SqueezeDimInPlace, dim)

    def permute(self, *dims, **kwargs):
        dims = kwargs.pop("dims", dims)  # x.permute(1, 0), x.permute((1, 0)) and x.permute(dims=(1, 0))
        _required(dims, "permute", "dims")  # (x.permute(()) is fine for a 0-dim tensor)
        dims = dims[0] if len(dims) == 1 and isinstance(dims[0], (tuple, list)) else dims
        return _ops.Permute.apply(self, tuple(dims))

    def swapaxes(self, axis0, axis1):  # (numpy's name for transpose)
        return self.transpose(axis0, axis1)

    def swapdims(self, dim0, dim1):
        return self.transpose(dim0, dim1)

    def movedim(self, source, destination):
        """Moves the dims ``source`` to the places ``destination``; the others keep their order (a permute)."""
        src = [source] if isinstance(source, int) else list(source)
        dst = [destination] if isinstance(destination, int) else list(destination)
        if len(src) != len(dst):
            raise RuntimeError(f"movedim: Invalid source or destination dims: source ({src} dims) should contain the "
                               f"same number of dims as destination ({dst} dims)")
        n = self._data.ndim
        wrapped_src, wrapped_dst = [_wrap_dim(d, n) for d in src], [_wrap_dim(d, n) for d in dst]
        if len(set(wrapped_src)) < len(src):
            raise RuntimeError(f"movedim: repeated dim in `source` ({src})")
        if len(set(wrapped_dst)) < len(dst):
            raise RuntimeError(f"movedim: repeated dim in `destination` ({dst})")
        if n == 0:
            return _ops.shape.Alias.apply(self)
        order = [None] * n
        for s, d in zip(wrapped_src, wrapped_dst):
            order[d] = s
        rest = iter([d for d in range(n) if d not in wrapped_src])
        return self.permute([next(rest) if d is None else d for d in order])

    def moveaxis(self, source, destination):
        return self.movedim(source, destination)

    def diagonal(self, offset=0, dim1=0, dim2=1):
        return _ops.Diagonal.apply(self, offset, dim1, dim2)

    # ------------------------------------------------------------------ shapes
    def view(self, *shape):
        if not shape:
            raise TypeError("view() received an invalid combination of arguments - got (), but expected one of:\n"
                            " * (minigrad.dtype dtype)\n * (tuple of ints size)\n")
        return _ops.View.apply(self, _shape_arg(shape))

    def reshape(self, *shape):
        shape = _shape_arg(_required(shape, "reshape", "shape"))
        if self.is_contiguous():  # PyTorch: a view (a contiguous tensor takes any shape of its size)
            return _ops.View.apply(self, shape)
        if _ops.can_view(self._data, shape):  # PyTorch: _reshape_alias, a view of a tensor that is not contiguous
            return _ops.shape.ReshapeAlias.apply(self, shape)
        return _ops.UnsafeView.apply(self.clone(memory_format=contiguous_format), shape)  # PyTorch: a copy, then a view of the copy

    def view_as(self, other):
        return self.view(other.shape)

    def reshape_as(self, other):
        return self.reshape(other.shape)

    def flatten(self, start_dim=0, end_dim=-1):
        n = self._data.ndim
        s, e = _wrap_dim(start_dim, n), _wrap_dim(end_dim, n)
        if n == 0:
            return self.reshape(1)
        if s > e:
            raise RuntimeError("flatten() has invalid args: start_dim cannot come after end_dim")
        if s == e:
            return self
        shape = self._data.shape
        return self.reshape(shape[:s] + (-1,) + shape[e + 1:])

    def unflatten(self, dim, sizes):
        """Splits dim ``dim`` into ``sizes`` (one of them may be -1): a view."""
        dim = _wrap_dim(dim, self._data.ndim)
        if self._data.ndim == 0:  # (PyTorch's message, without its C++ trace)
            raise RuntimeError("unflatten got an unexpected error:\nDimension specified as 0 but tensor has no dimensions")
        if len(sizes) == 0:
            raise RuntimeError("unflatten: sizes must be non-empty")
        size = self._data.shape[dim]
        if list(sizes).count(-1) > 1:
            raise RuntimeError("unflatten got an unexpected error:\nonly one dimension can be inferred")
        known = int(np.prod([s for s in sizes if s != -1]))
        if (known != size) if -1 not in sizes else (known == 0 or size % known):
            raise RuntimeError(f"unflatten: Provided sizes {list(sizes)} don't multiply up to the size of dim {dim} "
                               f"({size}) in the input tensor")
        sizes = tuple(size // known if s == -1 else s for s in sizes)
        shape = self._data.shape
        return self.view(shape[:dim] + sizes + shape[dim + 1:])

    def unsqueeze(self, dim=None, *, axis=None):
        dim = _required_dim("unsqueeze", dim, axis)
        return _ops.Unsqueeze.apply(self, dim)  # (the op wraps the dim: grad_fn._saved_dim shows it as passed)

    def squeeze(self, dim=None, *, axis=None):
        dim = dim if axis is None else axis
        if dim is None:
            return _ops.Squeeze.apply(self)
        if isinstance(dim, (tuple, list)):
            return _ops.select.SqueezeDimList.apply(self, tuple(dim))
        return _ops.SqueezeDim.apply(self, dim)

    def select(self, dim, index):  # (of a 0-dim tensor: Select's own error, before the dim's)
        return _ops.Select.apply(self, dim, index)

    def expand(self, *sizes):
        if len(sizes) == 1 and isinstance(sizes[0], (tuple, list)):  # expand((2, 3)), expand(x.shape)
            sizes = sizes[0]
        elif not sizes:
            raise TypeError('expand() missing 1 required positional arguments: "size"')
        if not all(type(s) is int for s in sizes):
            sizes = _expand_sizes(sizes)
        return _ops.Expand.apply(self, tuple(sizes))

    def expand_as(self, other):
        return self.expand(other.shape)

    def sum_to_size(self, *shape):
        return _ops.sum_to(self, _shape_arg(_required(shape, "sum_to_size", "size")))

    def __getitem__(self, key):
        return _ops.index(self, _ops.select.remove_ranges(key))

    def __setitem__(self, key, value):
        _ops.setitem(self, key, value)

    # ------------------------------------------------------------------ in-place (see ops.inplace)
    def add_(self, other, alpha=1):
        _check_other("add_", other)
        _check_alpha("add_", alpha)
        return _ops.inplace(self, _ops.Add, _ops.as_operand(other, self), alpha)

    def sub_(self, other, alpha=1):
        _check_other("sub_", other)
        _check_alpha("sub_", alpha)
        return _ops.inplace(self, _ops.Sub, _ops.as_operand(other, self), alpha)

    def mul_(self, other):
        _check_other("mul_", other)
        return _ops.inplace(self, _ops.Mul, _ops.as_operand(other, self))

    def div_(self, other, *, rounding_mode=NOT_GIVEN):
        _check_other("div_", other)
        if rounding_mode is NOT_GIVEN:
            return _ops.inplace(self, _ops.Div, _ops.as_operand(other, self))
        if rounding_mode is None:
            return _ops.inplace(self, _ops.DivMode, _ops.as_operand(other, self), None)
        return _ops.inplace(self, _ops.unary.DivRounded, _ops.as_operand(other, self), _rounding_mode(rounding_mode))

    def pow_(self, exponent):
        if isinstance(exponent, Tensor):
            return _ops.inplace(self, _ops.PowTensor, exponent)
        return _ops.inplace(self, _ops.Pow, exponent)

    def copy_(self, other, non_blocking=False):  # (PyTorch names the source `other` too)
        _check_other("copy_", other)
        return _ops.inplace(self, _ops.CopyFrom, other)

    def zero_(self):
        return _ops.inplace(self, _ops.Zero, 0)

    def fill_(self, value):
        if isinstance(value, Tensor):  # PyTorch's fill_.Tensor: FillBackward3, the value gets the gradient's sum
            if value._data.ndim:
                raise RuntimeError(f"fill_ only supports 0-dimension value tensor but got tensor with "
                                   f"{value._data.ndim} dimensions.")
            return _ops.inplace(self, _ops.shape.FillTensor, value)
        return _ops.inplace(self, _ops.Fill, value)

    def clamp_(self, min=None, max=None):
        return _ops.inplace(self, _ops.Clamp, min, max)

    def relu_(self):
        return _ops.inplace(self, _ops.Relu)

    def sigmoid_(self):
        return _ops.inplace(self, _ops.Sigmoid)

    def tanh_(self):
        return _ops.inplace(self, _ops.Tanh)

    def exp_(self):
        return _ops.inplace(self, _ops.Exp)

    def log_(self):
        return _ops.inplace(self, _ops.Log)

    def sqrt_(self):
        return _ops.inplace(self, _ops.Sqrt)

    def abs_(self):
        return _ops.inplace(self, _ops.Abs)

    def neg_(self):
        return _ops.inplace(self, _ops.Neg)

    def sign_(self):
        return _ops.inplace(self, _ops.Sign)

    def reciprocal_(self):
        return _ops.inplace(self, _ops.Reciprocal)

    def uniform_(self, a=0.0, b=1.0, *, generator=None):
        with grad_mode.no_grad():
            return _ops.inplace(self, _ops.CopyFrom, Tensor(_random.uniform_values(self, a, b, generator)))

    def normal_(self, mean=0.0, std=1.0, *, generator=None):
        with grad_mode.no_grad():
            return _ops.inplace(self, _ops.CopyFrom, Tensor(_random.normal_values(self, mean, std, generator)))

    def exponential_(self, lambd=1.0, *, generator=None):
        """``-log(1 - u) / lambd`` for uniforms ``u`` (PyTorch's CPU formula, in float64)."""
        with grad_mode.no_grad():
            u = _random._generator(generator).uniform(self._data.size, np.float64)
            values = (-np.log1p(-u) / lambd).astype(self._data.dtype).reshape(self._data.shape)
            return _ops.inplace(self, _ops.CopyFrom, Tensor(values))

    # x += y is x.add_(y); for anything but a tensor or a number Python's own TypeError, as in PyTorch
    def __iadd__(self, other):
        return self.add_(other) if isinstance(other, OPERANDS) else NotImplemented

    def __isub__(self, other):
        return self.sub_(other) if isinstance(other, OPERANDS) else NotImplemented

    def __imul__(self, other):
        return self.mul_(other) if isinstance(other, OPERANDS) else NotImplemented

    def __itruediv__(self, other):
        return self.div_(other) if isinstance(other, OPERANDS) else NotImplemented

    def __ipow__(self, other):
        return self.pow_(other) if isinstance(other, OPERANDS) else NotImplemented

    # ------------------------------------------------------------------ more math (ops/unary.py)
    def sin(self):
        return _ops.unary.Sin.apply(self)

    def cos(self):
        return _ops.unary.Cos.apply(self)

    def tan(self):
        return _ops.unary.Tan.apply(self)

    def sinh(self):
        return _ops.unary.Sinh.apply(self)

    def cosh(self):
        return _ops.unary.Cosh.apply(self)

    def asin(self):
        return _ops.unary.Asin.apply(self)

    def acos(self):
        return _ops.unary.Acos.apply(self)

    def atan(self):
        return _ops.unary.Atan.apply(self)

    arcsin, arccos, arctan = asin, acos, atan

    def square(self):  # PyTorch: pow(x, 2), so the node is PowBackward0 (and a bool tensor becomes int64)
        return (self.long() if self.dtype is _dtype.bool_ else self).pow(2)

    def log1p(self):
        return _ops.unary.Log1p.apply(self)

    def expm1(self):
        return _ops.unary.Expm1.apply(self)

    def log2(self):
        return _ops.unary.Log2.apply(self)

    def log10(self):
        return _ops.unary.Log10.apply(self)

    def exp2(self):
        return _ops.unary.Exp2.apply(self)

    def rsqrt(self):
        return _ops.unary.Rsqrt.apply(self)

    def erf(self):
        return _ops.unary.Erf.apply(self)

    def floor(self):
        return _ops.unary.Floor.apply(self)

    def ceil(self):
        return _ops.unary.Ceil.apply(self)

    def round(self, decimals=0):
        if decimals:
            return _ops.unary.RoundDecimals.apply(self, decimals)
        return _ops.unary.Round.apply(self)

    def trunc(self):
        return _ops.unary.Trunc.apply(self)

    def frac(self):
        return _ops.unary.Frac.apply(self)

    def clamp_min(self, min):  # noqa: A002
        return _ops.elementwise.ClampMin.apply(self, min)

    def clamp_max(self, max):  # noqa: A002
        return _ops.elementwise.ClampMax.apply(self, max)

    def floor_divide(self, other):
        if isinstance(other, Tensor):
            return _ops.binary(_ops.unary.FloorDivide, self, other)
        return _ops.unary.FloorDivide.apply(self, other)

    def __rfloordiv__(self, other):
        return _ops.unary.FloorDivide.apply(_ops.as_operand(other, self), self)

    def xlogy(self, other):
        return _ops.unary.xlogy(self, other)

    def remainder(self, other):
        if isinstance(other, Tensor):
            return _ops.binary(_ops.unary.Remainder, self, other)
        return _ops.unary.RemainderScalar.apply(self, other)

    def __rmod__(self, other):
        return _ops.unary.RemainderOfNumber.apply(other, self)

    __floordiv__ = floor_divide
    __mod__ = remainder

    # in place: x.sin_() is x.copy_(x.sin()) recorded as the op's own node, as in PyTorch
    def sin_(self):
        return _ops.inplace(self, _ops.unary.Sin)

    def cos_(self):
        return _ops.inplace(self, _ops.unary.Cos)

    def tan_(self):
        return _ops.inplace(self, _ops.unary.Tan)

    def sinh_(self):
        return _ops.inplace(self, _ops.unary.Sinh)

    def cosh_(self):
        return _ops.inplace(self, _ops.unary.Cosh)

    def asin_(self):
        return _ops.inplace(self, _ops.unary.Asin)

    def acos_(self):
        return _ops.inplace(self, _ops.unary.Acos)

    def atan_(self):
        return _ops.inplace(self, _ops.unary.Atan)

    def square_(self):
        return _ops.inplace(self, _ops.Pow, 2)

    def log1p_(self):
        return _ops.inplace(self, _ops.unary.Log1p)

    def expm1_(self):
        return _ops.inplace(self, _ops.unary.Expm1)

    def log2_(self):
        return _ops.inplace(self, _ops.unary.Log2)

    def log10_(self):
        return _ops.inplace(self, _ops.unary.Log10)

    def exp2_(self):
        return _ops.inplace(self, _ops.unary.Exp2)

    def rsqrt_(self):
        return _ops.inplace(self, _ops.unary.Rsqrt)

    def erf_(self):
        return _ops.inplace(self, _ops.unary.Erf)

    def floor_(self):
        return _ops.inplace(self, _ops.unary.Floor)

    def ceil_(self):
        return _ops.inplace(self, _ops.unary.Ceil)

    def round_(self, decimals=0):
        if decimals:
            return _ops.inplace(self, _ops.unary.RoundDecimals, decimals)
        return _ops.inplace(self, _ops.unary.Round)

    def trunc_(self):
        return _ops.inplace(self, _ops.unary.Trunc)

    def frac_(self):
        return _ops.inplace(self, _ops.unary.Frac)

    def clamp_min_(self, min):  # noqa: A002
        return _ops.inplace(self, _ops.elementwise.ClampMin, min)

    def clamp_max_(self, max):  # noqa: A002
        return _ops.inplace(self, _ops.elementwise.ClampMax, max)

    clip_ = clamp_

    def floor_divide_(self, other):
        return _ops.inplace(self, _ops.unary.FloorDivide, other)

    def remainder_(self, other):
        if isinstance(other, Tensor):
            return _ops.inplace(self, _ops.unary.Remainder, other)
        return _ops.inplace(self, _ops.unary.RemainderScalar, other)

    __ifloordiv__ = floor_divide_
    __imod__ = remainder_

    def minimum(self, other):
        return _ops.binary(_ops.elementwise.Minimum, self, other)

    # bitwise and logical ops give integer or bool tensors and are not differentiable
    def __and__(self, other):
        return _bitwise(np.bitwise_and, "bitwise_and", self, other)

    def __or__(self, other):
        return _bitwise(np.bitwise_or, "bitwise_or", self, other)

    def __xor__(self, other):
        return _bitwise(np.bitwise_xor, "bitwise_xor", self, other)

    __rand__, __ror__, __rxor__ = __and__, __or__, __xor__
    bitwise_and, bitwise_or, bitwise_xor = __and__, __or__, __xor__

    def __invert__(self):
        if self._data.dtype.kind == "f":
            raise TypeError("~ (operator.invert) is only implemented on integer and Boolean-type tensors")
        return self.bitwise_not()

    def bitwise_not(self):
        if self._data.dtype.kind == "f":
            raise NotImplementedError(f'"bitwise_not_cpu" not implemented for \'{_TYPE_NAMES[self.dtype.name]}\'')
        return Tensor(np.invert(self._data))

    def bitwise_not_(self):
        return _math.unrecorded_inplace(self, self.bitwise_not())

    def logical_and(self, other):
        return _ops._util.compare(np.logical_and, self, other)

    def logical_or(self, other):
        return _ops._util.compare(np.logical_or, self, other)

    def logical_xor(self, other):
        return _ops._util.compare(np.logical_xor, self, other)

    def logical_not(self):
        return Tensor(np.logical_not(self._data))

    # ------------------------------------------------------------------ more reductions (ops/statistics.py)
    def var(self, dim=None, unbiased=None, keepdim=False, *, correction=None, axis=None, keepdims=None):
        dim, keepdim = _numpy_names(dim, keepdim, axis, keepdims)
        return _ops.statistics.var_or_std(_ops.statistics.Var, self, dim, unbiased, keepdim, correction)

    def std(self, dim=None, unbiased=None, keepdim=False, *, correction=None, axis=None, keepdims=None):
        dim, keepdim = _numpy_names(dim, keepdim, axis, keepdims)
        return _ops.statistics.var_or_std(_ops.statistics.Std, self, dim, unbiased, keepdim, correction)

    def norm(self, p="fro", dim=None, keepdim=False, dtype=None):
        return _ops.statistics.norm(self, p, dim, keepdim, dtype)

    def prod(self, dim=None, keepdim=False, dtype=None, *, axis=None, keepdims=None):
        dim, keepdim = _numpy_names(dim, keepdim, axis, keepdims)
        src = self if dtype is None else self.to(dtype)
        if dim is None:
            return _ops.statistics.Prod.apply(src)
        return _ops.statistics.ProdDim.apply(src, _wrap_dim(dim, self._data.ndim), keepdim)

    def cumsum(self, dim=None, dtype=None, *, axis=None):
        dim = _required_dim("cumsum", dim, axis)
        return _ops.statistics.Cumsum.apply(self, _wrap_dim(dim, self._data.ndim), dtype)

    def logsumexp(self, dim=None, keepdim=False, *, axis=None, keepdims=None):
        dim, keepdim = _numpy_names(_required_dim("logsumexp", dim, axis), keepdim, None, keepdims)
        return _ops.statistics.Logsumexp.apply(self, _ops._util.reduced_dims(dim, self._data.ndim), keepdim)

    def amax(self, dim=(), keepdim=False, *, axis=None, keepdims=None):
        dim, keepdim = _numpy_names(dim, keepdim, axis, keepdims)
        return _ops.statistics.Amax.apply(self, dim, keepdim)

    def amin(self, dim=(), keepdim=False, *, axis=None, keepdims=None):
        dim, keepdim = _numpy_names(dim, keepdim, axis, keepdims)
        return _ops.statistics.Amin.apply(self, dim, keepdim)

    def argmin(self, dim=None, keepdim=False, *, axis=None, keepdims=None):
        dim, keepdim = _numpy_names(dim, keepdim, axis, keepdims)
        return _ops.statistics.argmax_or_argmin(np.argmin, self, dim, keepdim)

    def all(self, dim=None, keepdim=False, *, axis=None, keepdims=None):
        dim, keepdim = _numpy_names(dim, keepdim, axis, keepdims)
        return _ops.statistics.all_or_any(np.all, self, dim, keepdim)

    def any(self, dim=None, keepdim=False, *, axis=None, keepdims=None):
        dim, keepdim = _numpy_names(dim, keepdim, axis, keepdims)
        return _ops.statistics.all_or_any(np.any, self, dim, keepdim)

    # ------------------------------------------------------------------ selecting and rearranging (ops/select.py)
    def masked_fill(self, mask, value):
        return _ops.select.masked_fill(self, mask, value)

    def masked_fill_(self, mask, value):
        return _ops.inplace(self, _ops.select.masked_fill_fn(value), _ops.select.mask_array(mask), value)

    def index_put_(self, indices, values, accumulate=False):
        return _ops.shape.index_put(self, indices, values, accumulate, in_place=True)

    def index_put(self, indices, values, accumulate=False):
        return _ops.shape.index_put(self, indices, values, accumulate)

    def index_select(self, dim, index):
        idx = _ops.select.index_array(index, "index_select")
        return _ops.select.IndexSelect.apply(self, dim, idx)

    def index_add(self, dim, index, source, *, alpha=1):
        idx = _ops.select.index_array(index, "index_add_")
        return _ops.select.IndexAdd.apply(self, dim, idx, source, alpha)

    def index_add_(self, dim, index, source, *, alpha=1):
        idx = _ops.select.index_array(index, "index_add_")
        return _ops.inplace(self, _ops.select.IndexAdd, dim, idx, source, alpha)

    def index_reduce(self, dim, index, source, reduce, *, include_self=True):
        return _ops.select.index_reduce(self, dim, index, source, reduce, include_self)

    def index_reduce_(self, dim, index, source, reduce, *, include_self=True):
        return _ops.select.index_reduce(self, dim, index, source, reduce, include_self, in_place=True)

    def index_fill(self, dim, index, value):
        return _ops.select.index_fill(self, dim, index, value)

    def index_fill_(self, dim, index, value):
        return _ops.select.index_fill(self, dim, index, value, in_place=True)

    def index_copy(self, dim, index, source):
        idx = _ops.select.index_array(index, "index_copy_")
        return _ops.select.IndexCopy.apply(self, dim, idx, source)

    def index_copy_(self, dim, index, source):
        idx = _ops.select.index_array(index, "index_copy_")
        return _ops.inplace(self, _ops.select.IndexCopy, dim, idx, source)

    def gather(self, dim, index, *, sparse_grad=False):
        if sparse_grad:
            raise NotImplementedError("minigrad has dense tensors only: no sparse layouts, so no sparse gradient for "
                                      "gather (sparse_grad=True); sparse_grad=False gives the same numbers as a dense "
                                      "gradient")
        idx = _ops.select.index_array(index, "gather")
        return _ops.select.Gather.apply(self, dim, idx)

    def scatter(self, dim, index, src=None, *, value=None):
        return _ops.select.scatter(self, dim, index, src, value)

    def scatter_(self, dim, index, src=None, *, value=None):
        fn = _ops.select.scatter_function(self, src, value)
        return _ops.inplace(self, fn, *_ops.select.scatter_args(self, dim, index, src, value))

    def scatter_add(self, dim, index, src):
        idx = _ops.select.index_array(index, "scatter_add")
        return _ops.select.ScatterAdd.apply(self, dim, idx, src)

    def scatter_add_(self, dim, index, src):
        idx = _ops.select.index_array(index, "scatter_add")
        return _ops.inplace(self, _ops.select.ScatterAdd, dim, idx, src)

    def scatter_reduce(self, dim, index, src, reduce, *, include_self=True):
        return _ops.select.scatter_reduce(self, dim, index, src, reduce, include_self)

    def scatter_reduce_(self, dim, index, src, reduce, *, include_self=True):
        return _ops.select.scatter_reduce(self, dim, index, src, reduce, include_self, in_place=True)

    def flip(self, *dims, **kwargs):
        # x.flip(0), x.flip((0, 1)) and x.flip(dims=(0,))
        dims = kwargs.pop("dims") if "dims" in kwargs else _required(dims, "flip", "dims")
        dims = dims[0] if len(dims) == 1 and isinstance(dims[0], (tuple, list)) else dims
        return _ops.select.Flip.apply(self, tuple(dims))

    def narrow(self, dim, start, length):  # a view: x[:, start:start + length] for dim=1
        if self._data.ndim == 0:  # (PyTorch's checks, in its order)
            raise RuntimeError("narrow() cannot be applied to a 0-dim tensor.")
        if length < 0:
            raise RuntimeError("narrow(): length must be non-negative.")
        size = self._data.shape[_wrap_dim(dim, self._data.ndim)]
        if not -size <= start <= size:
            raise IndexError(f"start out of range (expected to be in range of [{-size}, {size}], but got {start})")
        start = start + size if start < 0 else start
        if start + length > size:
            raise RuntimeError(f"start ({start}) + length ({length}) exceeds dimension size ({size}).")
        return _ops.Slice.apply(self, dim, slice(start, start + length))

    def split(self, split_size, dim=0):
        return _ops.select.split(self, split_size, dim)

    def chunk(self, chunks, dim=0):
        return _ops.select.chunk(self, chunks, dim)

    def unsafe_chunk(self, chunks, dim=0):
        return _ops.recurrent.unsafe_chunk(self, chunks, dim)

    def unbind(self, dim=0):
        return _ops.select.Unbind.apply(self, dim)

    def repeat(self, *sizes):
        return _ops.select.Repeat.apply(self, _shape_arg(_required(sizes, "repeat", "repeats")))

    def type_as(self, other):
        return self.to(other.dtype)

    def new_tensor(self, data, dtype=None, device=None, requires_grad=False):
        if device is not None:
            _device.check(device)
        if isinstance(data, TensorBase):  # (PyTorch warns, as minigrad.tensor(t) does)
            warnings.warn(_creation.COPY_CONSTRUCT.format("tensor.new_tensor"), UserWarning, stacklevel=2)
        return _creation._copy(data, _dtype.to_dtype(dtype) or self.dtype, requires_grad)

    def new_zeros(self, *size, dtype=None, device=None, requires_grad=False):
        return _creation.zeros(*_required(size, "new_zeros", "size"), dtype=dtype or self.dtype, device=device,
                               requires_grad=requires_grad)

    def new_ones(self, *size, dtype=None, device=None, requires_grad=False):
        return _creation.ones(*_required(size, "new_ones", "size"), dtype=dtype or self.dtype, device=device,
                              requires_grad=requires_grad)

    def new_full(self, size, fill_value, dtype=None, device=None, requires_grad=False):
        return _creation.full(size, fill_value, dtype=dtype or self.dtype, device=device, requires_grad=requires_grad)

    def new_empty(self, *size, dtype=None, device=None, requires_grad=False):
        return _creation.empty(*_required(size, "new_empty", "size"), dtype=dtype or self.dtype, device=device,
                               requires_grad=requires_grad)

    def nelement(self):
        return self.numel()

    def ndimension(self):
        return self.dim()

    @property
    def itemsize(self):
        return self._data.itemsize

    @property
    def nbytes(self):  # (of the elements this tensor shows: an expanded tensor counts its repeats)
        return self._data.size * self._data.itemsize

    @property
    def is_cpu(self):
        return True

    @property
    def layout(self):
        return _dtype.strided

    def is_same_size(self, other):
        return self._data.shape == other._data.shape

    def data_ptr(self):
        """The address of the first element: equal for tensors that start at the same place in memory
        (a tensor and its view ``x[0]``; not ``x[1]``).  0 for a tensor without elements, as in PyTorch."""
        return _address(self._data) if self._data.size else 0

    def _is_view(self):
        """Is this tensor a view of another (``x._base`` is that one)?"""
        return self._base is not None

    def storage_offset(self):
        """Where the first element is, counted in elements from the start of the memory of the tensor this one is
        a view of (0 for a tensor that is no view)."""
        if self._base is None:
            return 0
        return (_address(self._data) - _address(self._base._data)) // self._data.itemsize

    def new_empty_strided(self, size, stride, dtype=None, device=None, requires_grad=False):
        return _creation.empty_strided(size, stride, dtype=dtype or self.dtype, device=device, requires_grad=requires_grad)

    def element_size(self):
        return self._data.itemsize

    def stride(self, dim=None):
        """Steps between neighbours, in elements (numpy counts bytes)."""
        strides = tuple(s // self._data.itemsize for s in self._data.strides)
        return strides if dim is None else strides[_wrap_dim(dim, self._data.ndim)]

    def unfold(self, dimension, size, step):
        """The windows of ``size`` elements along ``dimension``, ``step`` apart, in a new last dim: a view."""
        return _ops.shape.Unfold.apply(self, dimension, size, step)

    def as_strided(self, size, stride, storage_offset=None):
        """A view of this tensor's memory with these sizes and strides (in elements), from ``storage_offset``."""
        return _ops.shape.as_strided(self, size, stride, storage_offset)

    def as_strided_(self, size, stride, storage_offset=None):
        """This tensor itself takes these sizes and strides over its memory (its values are not copied)."""
        arguments = _ops.shape.as_strided_arguments("as_strided_", size, stride, storage_offset)
        return _ops.inplace_view(self, _ops.shape.AsStridedInPlace, *arguments)

    def equal(self, other):
        return self.shape == other.shape and bool((self._data == other._data).all())

    def mv(self, vec):
        return _ops.Mv.apply(self, vec)

    def bmm(self, other):
        return _ops.Bmm.apply(self, other)

    def outer(self, other):  # PyTorch: self.reshape(-1, 1) * other, for two vectors
        for name, t in (("self", self), ("vec2", other)):
            if t.dim() != 1:
                raise RuntimeError(f"outer: Expected 1-D argument {name}, but got {t.dim()}-D")
        return self.reshape(-1, 1) * other

    def is_complex(self):
        return False

    @property
    def is_sparse(self):
        return False

    def to_sparse(self, *args, **kwargs):
        raise NotImplementedError("minigrad has dense tensors only: no sparse layouts")

    def __complex__(self):
        raise NotImplementedError("minigrad has no complex numbers")

    # ------------------------------------------------------------------ issue 19: more everyday ops
    # aliases (PyTorch's names for the same ops and nodes)
    def multiply(self, other):
        return self.mul(other)

    def subtract(self, other, alpha=1):
        return self.sub(other, alpha=alpha)

    def divide(self, other, *, rounding_mode=NOT_GIVEN):
        return self.div(other, rounding_mode=rounding_mode)

    def true_divide(self, other):
        return self.div(other)

    def half(self):
        return self.to(_dtype.float16)

    # tests of the values: bool tensors, not differentiable
    def isnan(self):
        return Tensor(np.isnan(self._data))

    def isinf(self):
        return Tensor(np.isinf(self._data))

    def isfinite(self):
        return Tensor(np.isfinite(self._data))

    def count_nonzero(self, dim=None):
        return _ops.select.count_nonzero(self, dim)

    def nonzero(self, *, as_tuple=False):
        return _ops.select.nonzero(self, as_tuple)

    def nan_to_num(self, nan=0.0, posinf=None, neginf=None):
        return _ops.unary.NanToNum.apply(self, nan, posinf, neginf)

    def nan_to_num_(self, nan=0.0, posinf=None, neginf=None):
        return _ops.inplace(self, _ops.unary.NanToNum, nan, posinf, neginf)

    # triangles, diagonals
    def tril(self, diagonal=0):
        return _ops.select.Tril.apply(self, diagonal)

    def triu(self, diagonal=0):
        return _ops.select.Triu.apply(self, diagonal)

    def tril_(self, diagonal=0):
        return _ops.inplace(self, _ops.select.Tril, diagonal)

    def triu_(self, diagonal=0):
        return _ops.inplace(self, _ops.select.Triu, diagonal)

    def diag(self, diagonal=0):
        return _ops.select.diag(self, diagonal)

    def trace(self):
        return _ops.select.Trace.apply(self)

    # ordering (ops/sorting.py)
    def sort(self, dim=-1, descending=False, *, stable=None):
        fn = _ops.sorting.Sort if stable is None else _ops.sorting.SortStable  # (PyTorch: two overloads)
        values, indices = fn.apply(self, dim, descending, bool(stable))
        return _ops.sorting.SortReturnTypes(values, indices)

    def argsort(self, dim=-1, descending=False, *, stable=False):
        return _ops.sorting.argsort(self, dim, descending, stable)

    def topk(self, k, dim=-1, largest=True, sorted=True):  # noqa: A002
        values, indices = _ops.sorting.Topk.apply(self, k, dim, largest, sorted)
        return _ops.sorting.TopkReturnTypes(values, indices)

    def median(self, dim=None, keepdim=False):
        if dim is None:
            return _ops.sorting.Median.apply(self)
        values, indices = _ops.sorting.MedianDim.apply(self, dim, keepdim)
        return _ops.sorting.MedianReturnTypes(values, indices)

    def nanmedian(self, dim=None, keepdim=False):
        if dim is None:
            return _ops.sorting.Nanmedian.apply(self)
        values, indices = _ops.sorting.NanmedianDim.apply(self, dim, keepdim)
        return _ops.sorting.NanmedianReturnTypes(values, indices)

    def kthvalue(self, k, dim=-1, keepdim=False):
        values, indices = _ops.sorting.KthvalueDim.apply(self, k, dim, keepdim)
        return _ops.sorting.KthvalueReturnTypes(values, indices)

    def mode(self, dim=-1, keepdim=False):
        values, indices = _ops.sorting.ModeDim.apply(self, dim, keepdim)
        return _ops.sorting.ModeReturnTypes(values, indices)

    def diff(self, n=1, dim=-1, prepend=None, append=None):
        return _ops.shape.diff(self, n, dim, prepend, append)

    def unique(self, sorted=True, return_inverse=False, return_counts=False, dim=None):  # noqa: A002
        return _ops.sorting.unique(self, sorted, return_inverse, return_counts, dim)

    def cumprod(self, dim, dtype=None):
        dtype = None if dtype is None else _dtype.to_dtype(dtype)
        return _ops.statistics.Cumprod.apply(self, _wrap_dim(dim, self._data.ndim), dtype)

    def cumsum_(self, dim, dtype=None):
        return _ops.inplace(self, _ops.statistics.CumsumInPlace, dim, dtype)

    def cumprod_(self, dim, dtype=None):
        return _ops.inplace(self, _ops.statistics.CumprodInPlace, dim, dtype)

    def argwhere(self):
        """The indices of the non-zero elements, one row each (``x.nonzero()``)."""
        return self.nonzero()

    def diagflat(self, offset=0):
        """A matrix with the flattened values on its diagonal ``offset`` (PyTorch: ``contiguous().view(-1).diag()``)."""
        return self.contiguous().view(-1).diag(offset)

    def inverse(self):
        return _ops.linalg.LinalgInv.apply(self)

    def bernoulli(self, p=None, *, generator=None):
        return _ops.sampling.bernoulli(self, p, generator=generator)

    def bernoulli_(self, p=0.5, *, generator=None):
        """Each element becomes 1 with probability ``p`` (a number, or a tensor broadcast to this one), else 0."""
        if isinstance(p, Tensor):
            return _ops.inplace(self, _ops.sampling.BernoulliFromTensor, p, generator)
        return _ops.inplace(self, _ops.sampling.BernoulliFromNumber, p, generator)

    def multinomial(self, num_samples, replacement=False, *, generator=None):
        return _random.multinomial(self, num_samples, replacement, generator=generator)

    def get_device(self):
        """-1: a CPU tensor (PyTorch gives the GPU's index for a CUDA tensor)."""
        return -1

    def short(self):
        return self.to(_dtype.int16)

    def char(self):
        return self.to(_dtype.int8)

    def byte(self):
        return self.to(_dtype.uint8)

    # selecting and rearranging
    def masked_select(self, mask):
        return _ops.select.masked_select(self, mask)

    def masked_scatter(self, mask, source):
        return _ops.select.masked_scatter(self, mask, source)

    def masked_scatter_(self, mask, source):
        return _ops.select.masked_scatter(self, mask, source, in_place=True)

    def take(self, index):
        return _ops.select.take(self, index)

    def put(self, index, source, accumulate=False):
        return _ops.select.put(self, index, source, accumulate)

    def put_(self, index, source, accumulate=False):
        return _ops.select.put(self, index, source, accumulate, in_place=True)

    def roll(self, shifts, dims=None):
        return _ops.select.roll(self, shifts, dims)

    def repeat_interleave(self, repeats, dim=None):
        return _ops.select.repeat_interleave(self, repeats, dim)

    def tile(self, *dims):
        return _ops.select.tile(self, _shape_arg(_required(dims, "tile", "dims")))

    # elementwise with two or three tensors
    def fmod(self, other):
        if isinstance(other, Tensor):
            return _ops.binary(_ops.unary.Fmod, self, other)
        return _ops.unary.FmodScalar.apply(self, other)

    def fmod_(self, other):
        if isinstance(other, Tensor):
            return _ops.inplace(self, _ops.unary.Fmod, other)
        return _ops.inplace(self, _ops.unary.FmodScalar, other)

    def lerp(self, end, weight):
        return _ops.unary.lerp(self, end, weight)

    def lerp_(self, end, weight):
        fn = _ops.unary.LerpTensor if isinstance(weight, Tensor) else _ops.unary.Lerp
        return _ops.inplace(self, fn, end, weight)

    def addcmul(self, tensor1, tensor2, *, value=1):
        return _ops.unary.pointwise3(_ops.unary.Addcmul, self, tensor1, tensor2, value)

    def addcdiv(self, tensor1, tensor2, *, value=1):
        return _ops.unary.pointwise3(_ops.unary.Addcdiv, self, tensor1, tensor2, value)

    def addcmul_(self, tensor1, tensor2, *, value=1):
        return _ops.inplace(self, _ops.unary.Addcmul, tensor1, tensor2, value)

    def addcdiv_(self, tensor1, tensor2, *, value=1):
        return _ops.inplace(self, _ops.unary.Addcdiv, tensor1, tensor2, value)

    # matrix products
    def addmm(self, mat1, mat2, *, beta=1, alpha=1):
        return _ops.linalg.addmm(self, mat1, mat2, beta, alpha)

    def cross(self, other, dim=None):
        return _ops.linalg.cross(self, other, dim)

    def kron(self, other):
        return _ops.linalg.kron(self, other)

    # ------------------------------------------------------------------ still more elementwise math (ops/math_more.py)
    def asinh(self):
        return _math.Asinh.apply(self)

    def acosh(self):
        return _math.Acosh.apply(self)

    def atanh(self):
        return _math.Atanh.apply(self)

    arcsinh, arccosh, arctanh = asinh, acosh, atanh

    def asinh_(self):  # (PyTorch records a node whose backward raises: derivatives.yaml has no formula)
        return _ops.inplace(self, _math.AsinhInPlace)

    def acosh_(self):
        return _ops.inplace(self, _math.AcoshInPlace)

    def atanh_(self):
        return _ops.inplace(self, _math.AtanhInPlace)

    arcsinh_, arccosh_, arctanh_ = asinh_, acosh_, atanh_

    def erfc(self):
        return _math.Erfc.apply(self)

    def erfc_(self):
        return _ops.inplace(self, _math.Erfc)

    def erfinv(self):
        return _math.Erfinv.apply(self)

    def erfinv_(self):
        return _ops.inplace(self, _math.Erfinv)

    def lgamma(self):
        return _math.Lgamma.apply(self)

    def lgamma_(self):
        return _ops.inplace(self, _math.Lgamma)

    def digamma(self):
        return _math.Digamma.apply(self)

    def digamma_(self):
        return _ops.inplace(self, _math.Digamma)

    def polygamma(self, n):
        return _math.Polygamma.apply(self, _math.check_polygamma_order(n))

    def polygamma_(self, n):
        return _ops.inplace(self, _math.PolygammaInPlace, _math.check_polygamma_order(n))

    def i0(self):
        return _math.I0.apply(self)

    def i0_(self):
        return _ops.inplace(self, _math.I0)

    def sinc(self):
        return _math.Sinc.apply(self)

    def sinc_(self):
        return _ops.inplace(self, _math.Sinc)

    def deg2rad(self):
        return _math.Deg2Rad.apply(self)

    def deg2rad_(self):
        return _ops.inplace(self, _math.Deg2Rad)

    def rad2deg(self):
        return _math.Rad2Deg.apply(self)

    def rad2deg_(self):
        return _ops.inplace(self, _math.Rad2Deg)

    def logit(self, eps=None):
        return _math.LogitEps.apply(self, eps)

    def logit_(self, eps=None):
        return _ops.inplace(self, _math.LogitEps, eps)

    def atan2(self, other):
        return _math.tensor_binary(_math.Atan2, "atan2", self, other)

    def atan2_(self, other):
        return _math.inplace_binary(_math.Atan2, "atan2_", self, other)

    def arctan2(self, other):
        return _math.tensor_binary(_math.Atan2, "arctan2", self, other)

    def arctan2_(self, other):
        return _math.inplace_binary(_math.Atan2, "arctan2_", self, other)

    def hypot(self, other):
        return _math.tensor_binary(_math.Hypot, "hypot", self, other)

    def hypot_(self, other):
        return _math.inplace_binary(_math.Hypot, "hypot_", self, other)

    def logaddexp(self, other):
        return _math.tensor_binary(_math.Logaddexp, "logaddexp", self, other)

    def logaddexp2(self, other):
        return _math.tensor_binary(_math.Logaddexp2, "logaddexp2", self, other)

    def ldexp(self, other):
        return _math.tensor_binary(_math.Ldexp, "ldexp", self, other)

    def ldexp_(self, other):
        return _math.inplace_binary(_math.Ldexp, "ldexp_", self, other)

    def nextafter(self, other):
        return _math.tensor_binary(_math.Nextafter, "nextafter", self, other)

    def nextafter_(self, other):
        return _math.inplace_binary(_math.Nextafter, "nextafter_", self, other)

    def fmax(self, other):
        return _math.tensor_binary(_math.Fmax, "fmax", self, other)

    def fmin(self, other):
        return _math.tensor_binary(_math.Fmin, "fmin", self, other)

    def heaviside(self, values):
        return _math.heaviside_of(self, values, "heaviside")

    def heaviside_(self, values):
        return _math.heaviside_of(self, values, "heaviside_", in_place=True)

    def copysign(self, other):
        _math.check_tensor_or_number("copysign", other)
        if isinstance(other, Tensor):
            return _ops.binary(_math.Copysign, self, other)
        return _math.CopysignScalar.apply(self, other)

    def copysign_(self, other):
        _math.check_tensor_or_number("copysign_", other)
        return _ops.inplace(self, _math.Copysign if isinstance(other, Tensor) else _math.CopysignScalar, other)

    def float_power(self, exponent):
        return _math.float_power_of(self, exponent)

    def float_power_(self, exponent):
        return _math.float_power_into(self, exponent)

    def frexp(self):
        return _math.FrexpResult(_math.Frexp.apply(self))

    def xlogy_(self, other):
        if isinstance(other, Tensor):
            return _ops.inplace(self, _ops.unary.Xlogy, other)
        return _ops.inplace(self, _ops.unary.XlogyOfNumber, other)

    def gcd(self, other):
        return _math.gcd_values(self, _math.check_tensor("gcd", other, 1))

    def gcd_(self, other):
        return self.copy_(self.gcd(_math.check_tensor("gcd_", other, 1)))

    def lcm(self, other):
        return _math.lcm_values(self, _math.check_tensor("lcm", other, 1))

    def lcm_(self, other):
        return self.copy_(self.lcm(_math.check_tensor("lcm_", other, 1)))

    # aliases (PyTorch's names for the same ops and nodes)
    def absolute(self):
        return self.abs()

    def absolute_(self):
        return self.abs_()

    def negative(self):
        return self.neg()

    def negative_(self):
        return self.neg_()

    def positive(self):  # (PyTorch returns the tensor itself)
        if self._data.dtype == np.bool_:
            raise RuntimeError("The `+` operator, on a bool tensor is not supported.")
        return self

    def fix(self):
        return self.trunc()

    def fix_(self):
        return self.trunc_()

    def sgn_(self):
        return _ops.inplace(self, _ops.Sgn)

    def multiply_(self, other):
        return self.mul_(other)

    def divide_(self, other, *, rounding_mode=NOT_GIVEN):
        return self.div_(other, rounding_mode=rounding_mode)

    def true_divide_(self, other):
        return self.div_(other)

    def subtract_(self, other, alpha=1):
        return self.sub_(other, alpha=alpha)

    greater, greater_equal, less, less_equal, not_equal = __gt__, __ge__, __lt__, __le__, __ne__

    # in-place comparisons: x takes the values of x < y (1 and 0 in its own dtype)
    def eq_(self, other):
        return _math.compare_inplace("eq_", self, _math.Eq, _math.EqScalar, other)

    def ne_(self, other):
        return _math.compare_inplace("ne_", self, _math.Ne, _math.NeScalar, other)

    def lt_(self, other):
        return _math.compare_inplace("lt_", self, _math.Lt, _math.LtScalar, other)

    def le_(self, other):
        return _math.compare_inplace("le_", self, _math.Le, _math.LeScalar, other)

    def gt_(self, other):
        return _math.compare_inplace("gt_", self, _math.Gt, _math.GtScalar, other)

    def ge_(self, other):
        return _math.compare_inplace("ge_", self, _math.Ge, _math.GeScalar, other)

    greater_, greater_equal_, less_, less_equal_, not_equal_ = gt_, ge_, lt_, le_, ne_

    # in-place logical ops: not recorded in the graph (see math_more.unrecorded_inplace)
    def logical_and_(self, other):
        return _math.unrecorded_inplace(self, self.logical_and(_math.check_tensor("logical_and_", other, 1)))

    def logical_or_(self, other):
        return _math.unrecorded_inplace(self, self.logical_or(_math.check_tensor("logical_or_", other, 1)))

    def logical_xor_(self, other):
        return _math.unrecorded_inplace(self, self.logical_xor(_math.check_tensor("logical_xor_", other, 1)))

    def logical_not_(self):
        return _math.unrecorded_inplace(self, self.logical_not())

    # tests of the values: bool tensors (or a bool), not differentiable
    def signbit(self):
        return _math.signbit_values(self)

    def isposinf(self):
        return _math.isposinf_values(self)

    def isneginf(self):
        return _math.isneginf_values(self)

    def isreal(self):
        return _math.isreal_values(self)

    def is_signed(self):
        return _math.dtype_is_signed(self)

    def isclose(self, other, rtol=1e-05, atol=1e-08, equal_nan=False):
        return _math.isclose(self, other, rtol, atol, equal_nan)

    def allclose(self, other, rtol=1e-05, atol=1e-08, equal_nan=False):
        return _math.allclose(self, other, rtol, atol, equal_nan)

    # ------------------------------------------------------------------ numpy-style shape helpers (ops/select.py)
    def broadcast_to(self, size):
        return _ops.select.broadcast_to(self, size)

    def ravel(self):
        return _ops.select.ravel(self)

    def fliplr(self):
        return _ops.select.fliplr(self)

    def flipud(self):
        return _ops.select.flipud(self)

    def rot90(self, k=1, dims=(0, 1)):
        return _ops.select.rot90(self, k, dims)

    def tensor_split(self, indices_or_sections, dim=0):
        return _ops.select.tensor_split(self, indices_or_sections, dim)

    def hsplit(self, indices_or_sections):
        return _ops.select.hsplit(self, indices_or_sections)

    def vsplit(self, indices_or_sections):
        return _ops.select.vsplit(self, indices_or_sections)

    def dsplit(self, indices_or_sections):
        return _ops.select.dsplit(self, indices_or_sections)

    def split_with_sizes(self, split_sizes, dim=0):
        return _ops.select.split_with_sizes(self, split_sizes, dim)

    def diag_embed(self, offset=0, dim1=-2, dim2=-1):
        return _ops.select.diag_embed(self, offset, dim1, dim2)

    def take_along_dim(self, indices, dim=None):
        return _ops.select.take_along_dim(self, indices, dim)

    def where(self, condition, y):  # x.where(cond, y) is torch.where(cond, x, y)
        return _ops.where(condition, self, y)

    # reductions and scans (ops/statistics.py), quantiles and counting (ops/sorting.py)
    def nansum(self, dim=None, keepdim=False, *, dtype=None):
        return _ops.statistics.nansum(self, dim, keepdim, dtype)

    def nanmean(self, dim=None, keepdim=False, *, dtype=None):
        return _ops.statistics.nanmean(self, dim, keepdim, dtype)

    def aminmax(self, *args, dim=None, keepdim=False):
        if args:  # (dim and keepdim are keywords only, as in PyTorch, which names no class in its message)
            raise TypeError(f"aminmax() takes 0 positional arguments but {len(args)} was given")
        return _ops.statistics.aminmax(self, dim=dim, keepdim=keepdim)

    def cummax(self, dim):
        return _ops.statistics.cummax(self, dim)

    def cummin(self, dim):
        return _ops.statistics.cummin(self, dim)

    def logcumsumexp(self, dim):
        return _ops.statistics.logcumsumexp(self, dim)

    def inner(self, other):
        return _ops.statistics.inner(self, other)

    def dist(self, other, p=2):
        return _ops.statistics.dist(self, other, p)

    def vdot(self, other):
        return _ops.statistics.vdot(self, other)

    def cov(self, *, correction=1, fweights=None, aweights=None):
        return _ops.statistics.cov(self, correction=correction, fweights=fweights, aweights=aweights)

    def corrcoef(self):
        return _ops.statistics.corrcoef(self)

    def msort(self):
        return _ops.sorting.msort(self)

    def quantile(self, q, dim=None, keepdim=False, *, interpolation="linear"):
        return _ops.sorting.quantile(self, q, dim, keepdim, interpolation)

    def nanquantile(self, q, dim=None, keepdim=False, *, interpolation="linear"):
        return _ops.sorting.nanquantile(self, q, dim, keepdim, interpolation)

    def histc(self, bins=100, min=0, max=0):  # noqa: A002
        return _ops.sorting.histc(self, bins, min, max)

    def histogram(self, bins=100, *, range=None, weight=None, density=False):  # noqa: A002
        return _ops.histogram.histogram(self, bins, range=range, weight=weight, density=density)

    def bincount(self, weights=None, minlength=0):
        return _ops.sorting.bincount(self, weights, minlength)



def _rebuild(data, requires_grad, strides=None):
    """A tensor pickled by ``__reduce_ex__`` (``minigrad.save``), made again; with its strides if it had others than
    row-major ones."""
    if strides is not None:
        data = _layout.with_strides(data, tuple(s * data.itemsize for s in strides))
    return Tensor(data, requires_grad)


def _numpy_names(dim, keepdim, axis, keepdims):
    """PyTorch also accepts numpy's names for the reduction arguments: ``x.sum(axis=1, keepdims=True)``."""
    return (dim if axis is None else axis), (keepdim if keepdims is None else keepdims)


def _required_dim(op, dim, axis):
    """``dim`` (or numpy's ``axis``) of an op that needs one, with PyTorch's error when neither is given."""
    if dim is None and axis is None:
        raise TypeError(f'{op}() missing 1 required positional arguments: "dim"')
    return dim if axis is None else axis


def _expand_sizes(sizes):
    """``expand``'s sizes when they are not all plain ints: a bool or a 0-dim tensor stands for an int, anything else
    is PyTorch's error."""
    for s in sizes:
        if not isinstance(s, int) and not (isinstance(s, Tensor) and s._data.ndim == 0):
            raise TypeError(f"expand(): argument 'size' (position 1) must be tuple of ints, not {type(s).__name__}")
    return tuple(int(s) for s in sizes)


def _required(args, method, name):
    """``args``, or PyTorch's TypeError when a method that takes sizes or dims got none (``x.reshape()``)."""
    if not args:
        raise TypeError(f'{method}() missing 1 required positional arguments: "{name}"')
    return args


def _shape_arg(shape):
    """view(2, 3), view((2, 3)) and view(minigrad.Size([2, 3])) all mean the same."""
    if len(shape) == 1 and isinstance(shape[0], (tuple, list)):
        shape = shape[0]
    return tuple(int(s) for s in shape)


def _bitwise(fn, name, a, b):
    """``a & b``, ``a | b``, ``a ^ b`` on bool or integer tensors (PyTorch has no float kernel for them)."""
    from .ops.promotion import as_operand, result
    b = as_operand(b, a)
    for t in (a, b):
        if t._data.dtype.kind == "f":
            raise NotImplementedError(f'"{name}_cpu" not implemented for \'{_TYPE_NAMES[t.dtype.name]}\'')
    return result(a, b, fn(a._data, b._data))


OPERANDS = (Tensor, bool, int, float, np.ndarray, np.generic)  # what an operator takes next to a tensor


def _rounding_mode(mode):
    if mode not in ("trunc", "floor"):
        raise RuntimeError(f"div expected rounding_mode to be one of None, 'trunc', or 'floor' but found '{mode}'")
    return mode


def _check_other(name, other):
    """The method forms (``x.mul(other)``) raise PyTorch's TypeError for anything else."""
    if not isinstance(other, OPERANDS):
        raise TypeError(f"{name}(): argument 'other' (position 1) must be Tensor, not {type(other).__name__}")


def _check_alpha(name, alpha):
    """``alpha`` of add and sub: a number (or a tensor of one), else PyTorch's TypeError."""
    if type(alpha) is not int and not isinstance(alpha, (numbers.Number, np.bool_)) and not (
            isinstance(alpha, Tensor) and alpha._data.ndim == 0):
        raise TypeError(f"{name}(): argument 'alpha' must be Number, not {type(alpha).__name__}")


for _name in LEFT_OUT_METHODS:
    setattr(Tensor, _name, _LeftOut(_name))
register_tensor_class(Tensor)


def _address(array):
    """Where the first element of ``array`` is in memory."""
    return array.__array_interface__["data"][0]
