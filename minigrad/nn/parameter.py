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
