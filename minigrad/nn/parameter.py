"""``Parameter``: a tensor that a ``Module`` registers as one of its weights.

PyTorch (``torch/nn/parameter.py``): ``Parameter`` is a subclass of ``Tensor`` and differs from
it in two ways only:

- it requires grad by default (``Parameter(t)`` is a leaf with ``requires_grad=True``), and
- assigning one to a module attribute (``self.weight = Parameter(...)``) registers it, so it
  shows up in ``module.parameters()`` and in the ``state_dict`` (see ``module.py``).

A Parameter shares the numbers of the tensor it was made from: no copy is made.  Operations on a
Parameter give ordinary tensors (``(w * 2)`` is a ``Tensor`` with ``grad_fn=<MulBackward0>``).
"""
from ..autograd import inference
from ..creation import empty
from ..tensor import Tensor


class Parameter(Tensor):
    """A leaf tensor that requires grad and that modules collect as their parameters."""

    def __init__(self, data=None, requires_grad=True):
        if data is None:
            data = empty(0)
        # Like PyTorch, the Parameter is a *detached* view of ``data``: same numbers (and the same
        # version counter), but no grad_fn, even if ``data`` came out of an operation.
        super().__init__(data._data, requires_grad=requires_grad)
        self._vc = data._vc
        if requires_grad:  # Parameter(t) of an inference tensor t: PyTorch sets requires_grad on t's alias
            inference.check_outside(self, inference.REQUIRES_GRAD_MSG)

    def __repr__(self):
        return "Parameter containing:\n" + super().__repr__()

    def __deepcopy__(self, memo):
        # PyTorch copies the values (not the .grad) into a new Parameter
        if id(self) not in memo:
            memo[id(self)] = Parameter(self.data.clone(), self.requires_grad)
        return memo[id(self)]

    def __reduce_ex__(self, proto):
        return (Parameter, (Tensor(self._data), self._requires_grad))


class UninitializedParameter(Parameter):
    """A parameter whose shape is not known yet (PyTorch: ``nn.parameter.UninitializedParameter``).

    A lazy module (``nn.LazyLinear``) holds these until its first input tells how large they are;
    then ``materialize(shape)`` gives the parameter its numbers and it *becomes* a ``Parameter`` --
    the same object, so an optimizer made before still holds it.  Until then it has no shape: it
    prints as ``<UninitializedParameter>`` and asking for its shape raises PyTorch's error.  (PyTorch
    also refuses every other operation on it; minigrad refuses only ``shape``.)
    """

    cls_to_become = Parameter

    def __init__(self, requires_grad=True, device=None, dtype=None):
        super().__init__(empty(0, device=device, dtype=dtype), requires_grad)

    def materialize(self, shape, device=None, dtype=None):
        """Give the parameter ``shape`` (uninitialised numbers, as ``torch.empty``); it becomes a Parameter."""
        self._data = empty(shape, dtype=dtype if dtype is not None else self.dtype)._data
        self.__class__ = self.cls_to_become

    @property
    def shape(self):
        raise RuntimeError("Can't access the shape of an uninitialized parameter or buffer. This error usually "
                           "happens in `load_state_dict` when trying to load an uninitialized parameter into an "
                           "initialized one. Call `forward` to initialize the parameters before accessing their "
                           "attributes.")

    def __repr__(self):
        return f"<{type(self).__name__}>"

    def __reduce_ex__(self, proto):
        return (type(self), (self.requires_grad,))


class _BufferMeta(type):
    """``isinstance(t, Buffer)`` is true for any tensor marked as a buffer (PyTorch's ``_BufferMeta``)."""

    def __instancecheck__(cls, instance):
        if cls is Buffer and isinstance(instance, Tensor) and getattr(instance, "_is_buffer", False):
            return True
        return super().__instancecheck__(instance)


class Buffer(Tensor, metaclass=_BufferMeta):
    """A tensor that a module keeps but does not train (PyTorch: ``nn.Buffer``).

    ``self.mask = nn.Buffer(torch.ones(3))`` registers it as ``register_buffer("mask", ...)`` would, with
    ``persistent`` saying whether the ``state_dict`` holds it.  As in PyTorch, ``Buffer(t)`` gives an
    ordinary ``Tensor``, a detached alias of ``t`` (same numbers, same ``requires_grad``), marked as a buffer.
    """

    def __new__(cls, data=None, *, persistent=True):
        if data is None:
            data = empty(0)
        t = data.detach().requires_grad_(data.requires_grad)
        t.persistent = persistent
        t._is_buffer = True
        return t
