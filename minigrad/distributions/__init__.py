"""``minigrad.distributions`` (PyTorch: ``torch.distributions``): ``Categorical`` and ``Normal``, for policy
gradients (``log_prob`` of the sampled action, times the reward) and variational autoencoders (``rsample``).

The other distributions of PyTorch (``Bernoulli``, ``Uniform``, ``MultivariateNormal``, ...) are not part of
minigrad: asking for one says so."""
from . import constraints  # noqa: F401
from .categorical import Categorical  # noqa: F401
from .distribution import Distribution  # noqa: F401
from .normal import Normal  # noqa: F401


def __getattr__(name):  # (Python asks this for a name the module does not define)
    raise AttributeError(f"minigrad.distributions has no {name}: minigrad has Categorical and Normal; PyTorch has "
                         f"torch.distributions.{name}")
