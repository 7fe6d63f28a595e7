"""minigrad.optim (PyTorch: ``torch.optim``): optimizers that update parameters from their ``.grad``.

- ``optimizer.py`` ``Optimizer``: param_groups, state, ``zero_grad``, ``state_dict``
- ``sgd.py``       ``SGD``  (momentum, Nesterov, weight decay)
- ``adam.py``      ``Adam`` (bias-corrected running averages, AMSGrad)
"""
from .optimizer import Optimizer
from .sgd import SGD
from .adam import Adam

__all__ = ["Optimizer", "SGD", "Adam"]
