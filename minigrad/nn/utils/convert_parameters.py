"""A model's parameters as one flat vector and back (PyTorch: ``torch/nn/utils/convert_parameters.py``).

``parameters_to_vector(model.parameters())`` lays every parameter end to end in one 1-D tensor;
``vector_to_parameters(vec, model.parameters())`` cuts such a vector into pieces of the right
sizes and makes them the parameters' new values.  Optimisers that think of "the weights" as one
point in space (line searches, evolution strategies, second-order methods) use them.

PyTorch also checks that all parameters sit on the same GPU; minigrad's tensors all live on the
CPU, so there is nothing to check.
"""
from ...creation import cat
from ...tensor import Tensor


def parameters_to_vector(parameters):
    """One 1-D tensor holding all of ``parameters``, flattened and joined in order.

    Each piece is a view (``param.view(-1)``), so the result is a new tensor made by ``cat``: it
    takes part in autograd like any other result, and changing it leaves the parameters alone.
    """
    return cat([param.view(-1) for param in parameters])


def vector_to_parameters(vec, parameters):
    """Give each parameter, in turn, the next ``param.numel()`` numbers of ``vec`` as its ``.data``."""
    if not isinstance(vec, Tensor):
        raise TypeError(f"expected minigrad.Tensor, but got: {_typename(vec)}")
    pointer = 0
    for param in parameters:
        num_param = param.numel()
        # The slice is a view of vec: afterwards the parameter shares vec's numbers (as in PyTorch)
        param.data = vec[pointer:pointer + num_param].view_as(param).data
        pointer += num_param


def _typename(obj):
    """The name PyTorch's ``torch.typename`` gives a non-tensor: ``list``, ``numpy.ndarray`` ..."""
    cls = type(obj)
    if cls.__module__ == "builtins":
        return cls.__qualname__
    return f"{cls.__module__}.{cls.__qualname__}"
