"""minigrad.nn (PyTorch: ``torch.nn``): modules, parameters, layers and losses.

- ``parameter.py``  ``Parameter``, the tensor a module trains
- ``module.py``     ``Module``: registration, ``parameters()``, ``state_dict()``, printing
- ``linear.py``     ``Linear``, ``Identity``;  ``flatten.py``  ``Flatten``
- ``activation.py`` ``ReLU``, ``Sigmoid``, ``Tanh``, ``Softmax``, ``LogSoftmax``
- ``loss.py``       ``MSELoss``, ``CrossEntropyLoss``, ``NLLLoss``
- ``container.py``  ``Sequential``, ``ModuleList``
- ``init.py``       weight initialisation (``nn.init.kaiming_uniform_`` ...)
- ``functional.py`` the functions behind the layers (``import minigrad.nn.functional as F``)
"""
from . import functional
from . import init
from .parameter import Parameter
from .module import Module
from .linear import Identity, Linear
from .flatten import Flatten
from .activation import LogSoftmax, ReLU, Sigmoid, Softmax, Tanh
from .loss import CrossEntropyLoss, MSELoss, NLLLoss
from .container import ModuleList, Sequential

__all__ = ["Module", "Parameter", "Linear", "Sequential", "ModuleList", "ReLU", "Sigmoid", "Tanh", "Softmax",
           "LogSoftmax", "Flatten", "Identity", "MSELoss", "CrossEntropyLoss", "NLLLoss", "functional", "init"]
