"""minigrad.optim (PyTorch: ``torch.optim``): optimizers that update parameters from their ``.grad``.

- ``optimizer.py`` ``Optimizer``: param_groups, state, ``zero_grad``, ``state_dict``, step hooks
- ``sgd.py``       ``SGD``  (momentum, Nesterov, weight decay)
- ``adam.py``      ``Adam`` (bias-corrected running averages, AMSGrad);  ``adamw.py``  ``AdamW`` (decoupled decay)
- ``nadam.py`` ``NAdam``, ``radam.py`` ``RAdam``, ``adamax.py`` ``Adamax``: Adam's relatives
- ``rmsprop.py``   ``RMSprop``;  ``adagrad.py``  ``Adagrad``;  ``adadelta.py``  ``Adadelta``
- ``rprop.py``     ``Rprop`` (sign-based steps);  ``asgd.py``  ``ASGD`` (averaged SGD)
- ``lbfgs.py``     ``LBFGS`` (quasi-Newton, ``step(closure)``)
- ``lr_scheduler.py``  learning-rate schedules: ``StepLR``, ``MultiStepLR``, ``ExponentialLR``, ``CosineAnnealingLR``,
  ``LambdaLR``, ``MultiplicativeLR``, ``LinearLR``, ``ConstantLR``, ``PolynomialLR``, ``SequentialLR``,
  ``ChainedScheduler``, ``CosineAnnealingWarmRestarts``, ``CyclicLR``, ``OneCycleLR``, ``ReduceLROnPlateau``
"""
from .optimizer import Optimizer
from .sgd import SGD
from .adam import Adam
from .adamw import AdamW
from .nadam import NAdam
from .radam import RAdam
from .adamax import Adamax
from .rmsprop import RMSprop
from .adagrad import Adagrad
from .adadelta import Adadelta
from .rprop import Rprop
from .asgd import ASGD
from .lbfgs import LBFGS
from . import lr_scheduler

__all__ = ["Optimizer", "SGD", "Adam", "AdamW", "NAdam", "RAdam", "Adamax", "RMSprop", "Adagrad", "Adadelta",
           "Rprop", "ASGD", "LBFGS", "lr_scheduler"]
