"""minigrad.nn.utils (PyTorch: ``torch.nn.utils``): helpers for a model's parameters and gradients.

- ``clip_grad.py``           ``clip_grad_norm_``, ``clip_grad_value_``, ``get_total_norm``, ``clip_grads_with_norm_``
- ``convert_parameters.py``  ``parameters_to_vector``, ``vector_to_parameters``
- ``rnn.py``                 ``PackedSequence``, ``pack_padded_sequence``, ``pad_packed_sequence``, ``pad_sequence`` ...

PyTorch's ``torch.nn.utils`` has more (``parametrize``, ``prune``, ``weight_norm``,
``spectral_norm``, ``stateless``, ``fusion`` ...); they are about layers minigrad leaves out.
"""
from .clip_grad import clip_grad_norm, clip_grad_norm_, clip_grad_value_, clip_grads_with_norm_, get_total_norm
from .convert_parameters import parameters_to_vector, vector_to_parameters
from . import rnn

__all__ = ["clip_grad_norm", "clip_grad_norm_", "clip_grad_value_", "clip_grads_with_norm_", "get_total_norm",
           "parameters_to_vector", "vector_to_parameters", "rnn"]
