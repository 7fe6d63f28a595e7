"""minigrad.optim (PyTorch: ``torch.optim``): optimizers that update parameters from their ``.grad``.

- ``optimizer.py`` ``Optimizer``: param_groups, state, ``zero_grad``, ``state_dict``
- ``sgd.py``       ``SGD``  (momentum, Nesterov, weight decay)
- ``adam.py``      ``Adam`` (bias-corrected running averages, AMSGrad)
- ``rmsprop.py``   ``RMSprop``;  ``adagrad.py``  ``Adagrad``
- ``lr_scheduler.py``  learning-rate schedules: ``StepLR``, ``MultiStepLR``, ``ExponentialLR``, ``CosineAnnealingLR``,
  ``LambdaLR``, ``ReduceLROnPlateau``
"""
from .optimizer import Optimizer
from .sgd import SGD
from .adam import Adam
from .rmsprop import RMSprop
from .adagrad import Adagrad
from . import lr_scheduler

__all__ = ["Optimizer", "SGD", "Adam", "RMSprop", "Adagrad", "lr_scheduler"]
