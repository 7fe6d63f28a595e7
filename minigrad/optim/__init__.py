"""minigrad.optim (PyTorch: ``torch.optim``): optimizers that update parameters from their ``.grad``.

- ``optimizer.py`` ``Optimizer``: param_groups, state, ``zero_grad``, ``state_dict``
- ``sgd.py``       ``SGD``  (momentum, Nesterov, weight decay)
- ``adam.py``      ``Adam`` (bias-corrected running averages, AMSGrad)
- ``rmsprop.py``   ``RMSprop``;  ``adagrad.py``  ``Adagrad``
"""
from .optimizer import Optimizer
from .sgd import SGD
from .adam import Adam
from .rmsprop import RMSprop
from .adagrad import Adagrad

__all__ = ["Optimizer", "SGD", "Adam", "RMSprop", "Adagrad"]
