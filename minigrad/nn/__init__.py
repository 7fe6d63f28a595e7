"""minigrad.nn (PyTorch: ``torch.nn``): modules, parameters, layers and losses.

- ``parameter.py``  ``Parameter``, the tensor a module trains
- ``module.py``     ``Module``: registration, ``parameters()``, ``state_dict()``, printing
- ``linear.py``     ``Linear``, ``Identity``;  ``flatten.py``  ``Flatten``, ``Unflatten``
- ``activation.py`` ``ReLU``, ``Sigmoid``, ``Tanh``, ``Softmax``, ``LogSoftmax``, ``GELU``, ``Dropout`` ...
- ``loss.py``       ``MSELoss``, ``CrossEntropyLoss``, ``NLLLoss``, ``BCELoss``, ``L1Loss`` ...
- ``container.py``  ``Sequential``, ``ModuleList``, ``ModuleDict``, ``ParameterList``, ``ParameterDict`` ...
- ``rnn.py``        ``RNN``, ``LSTM``, ``GRU``, ``RNNCell``, ``LSTMCell``, ``GRUCell``
- ``distance.py``   ``PairwiseDistance``, ``CosineSimilarity``
- ``attention.py``  ``MultiheadAttention``, ``TransformerEncoderLayer`` (the functions: ``functional_attention.py``)
- ``sparse.py``     ``Embedding``;  ``normalization.py``  ``LayerNorm``, ``RMSNorm``, ``BatchNorm1d`` ...
- ``conv.py``       ``Conv1d``, ``Conv2d``;  ``pooling.py``  max, average and adaptive pools;  ``fold.py``  ``Unfold``, ``Fold``
- ``init.py``       weight initialisation (``nn.init.kaiming_uniform_`` ...)
- ``functional.py`` the functions behind the layers (``import minigrad.nn.functional as F``)
"""
from . import functional
from . import init
from . import utils
from .parameter import Buffer, Parameter, UninitializedParameter
from .module import Module
from .linear import Identity, LazyLinear, Linear
from .flatten import Flatten, Unflatten
from .activation import LogSoftmax, ReLU, Sigmoid, Softmax, Tanh
from .activation import ELU, GELU, SELU, Dropout, Hardtanh, LeakyReLU, LogSigmoid, ReLU6, SiLU, Softplus
from .activation import (CELU, GLU, Hardshrink, Hardsigmoid, Hardswish, Mish, PReLU, RReLU, Softmax2d, Softmin,
                         Softshrink, Softsign, Tanhshrink, Threshold)
from .loss import CrossEntropyLoss, MSELoss, NLLLoss
from .loss import BCELoss, BCEWithLogitsLoss, HuberLoss, L1Loss, SmoothL1Loss
from .loss import (CosineEmbeddingLoss, GaussianNLLLoss, HingeEmbeddingLoss, KLDivLoss, MarginRankingLoss,
                   MultiLabelSoftMarginLoss, MultiMarginLoss, PoissonNLLLoss, SoftMarginLoss, TripletMarginLoss)
from .rnn import GRU, LSTM, RNN, GRUCell, LSTMCell, RNNBase, RNNCell, RNNCellBase
from .conv import Conv1d, Conv2d
from .pooling import (AdaptiveAvgPool1d, AdaptiveAvgPool2d, AdaptiveMaxPool1d, AdaptiveMaxPool2d, AvgPool1d,
                      AvgPool2d, MaxPool1d, MaxPool2d)
from .fold import Fold, Unfold
from .distance import CosineSimilarity, PairwiseDistance
from .attention import MultiheadAttention, TransformerEncoderLayer
from .sparse import Embedding
from .normalization import BatchNorm1d, BatchNorm2d, BatchNorm3d, LayerNorm, RMSNorm
from .container import DataParallel, ModuleDict, ModuleList, ParameterDict, ParameterList, Sequential

__all__ = ["Module", "Parameter", "Buffer", "Linear", "Sequential", "ModuleList", "ReLU", "Sigmoid", "Tanh", "Softmax",
           "LogSoftmax", "Flatten", "Identity", "MSELoss", "CrossEntropyLoss", "NLLLoss", "functional", "init",
           "LazyLinear", "ELU", "GELU", "Dropout", "Hardtanh", "LeakyReLU", "LogSigmoid", "ReLU6", "SiLU", "Softplus",
           "BCELoss", "BCEWithLogitsLoss", "HuberLoss", "L1Loss", "SmoothL1Loss", "DataParallel", "SELU",
           "UninitializedParameter", "ModuleDict", "ParameterList", "ParameterDict", "Unflatten", "KLDivLoss",
           "MarginRankingLoss", "HingeEmbeddingLoss", "SoftMarginLoss", "CosineEmbeddingLoss", "TripletMarginLoss",
           "PoissonNLLLoss", "GaussianNLLLoss", "MultiLabelSoftMarginLoss", "MultiMarginLoss", "CosineSimilarity",
           "PairwiseDistance", "CELU", "GLU", "Hardshrink", "Hardsigmoid", "Hardswish", "Mish", "PReLU", "RReLU",
           "Softmax2d", "Softmin", "Softshrink", "Softsign", "Tanhshrink", "Threshold", "Embedding", "LayerNorm",
           "RNNBase", "RNN", "LSTM", "GRU", "RNNCellBase", "RNNCell", "LSTMCell", "GRUCell"]
__all__ += ["Conv1d", "Conv2d", "MaxPool1d", "MaxPool2d", "AvgPool1d", "AvgPool2d", "AdaptiveAvgPool1d",
            "AdaptiveAvgPool2d", "AdaptiveMaxPool1d", "AdaptiveMaxPool2d", "Unfold", "Fold"]
__all__ += ["MultiheadAttention", "TransformerEncoderLayer", "RMSNorm", "BatchNorm1d", "BatchNorm2d", "BatchNorm3d"]


def __getattr__(name):  # (Python asks this for a name the module does not define)
    from ._absent import LAYERS, missing
    raise missing("minigrad.nn", name, LAYERS)
