"""``Distribution``: what every distribution shares (PyTorch: ``torch/distributions/distribution.py``).

A distribution has a ``batch_shape`` (independent distributions side by side: one per row of ``probs``) and an
``event_shape`` (the shape of one sample of one of them).  ``sample(sample_shape)`` draws ``sample_shape +
batch_shape + event_shape`` numbers without a graph; ``rsample`` (where there is one) draws them as a recorded
function of the parameters (the reparameterisation trick), so gradients flow into them.  ``log_prob(value)`` is
differentiable in the parameters: ``-(log_prob(action) * reward).sum().backward()`` is a policy gradient.

As in PyTorch the parameters are checked when the distribution is made and the values given to ``log_prob``
(``validate_args``; on by default), with PyTorch's messages."""
from .._dtype import Size
from ..tensor import Tensor


class Distribution:
    has_rsample = False
    arg_constraints = {}
    _validate_args = True  # (PyTorch: __debug__, so on unless Python runs with -O)

    @staticmethod
    def set_default_validate_args(value):
        if value not in (True, False):
            raise ValueError
        Distribution._validate_args = value

    def __init__(self, batch_shape=Size(), event_shape=Size(), validate_args=None):
        self._batch_shape, self._event_shape = Size(batch_shape), Size(event_shape)
        if validate_args is not None:
            self._validate_args = validate_args
        if self._validate_args:
            for name, constraint in self.arg_constraints.items():
                if name in vars(self):  # (not a parameter computed only when asked for: probs from logits)
                    self._check_parameter(name, constraint, getattr(self, name))

    def _check_parameter(self, name, constraint, value):
        if not bool(constraint.check(value).all()):
            raise ValueError(f"Expected parameter {name} ({type(value).__name__} of shape {tuple(value.shape)}) of "
                             f"distribution {self!r} to satisfy the constraint {constraint!r}, but found invalid "
                             f"values:\n{value}")

    @property
    def batch_shape(self):
        return self._batch_shape

    @property
    def event_shape(self):
        return self._event_shape

    def _extended_shape(self, sample_shape=Size()):
        return Size(tuple(sample_shape) + tuple(self._batch_shape) + tuple(self._event_shape))

    def sample(self, sample_shape=Size()):
        raise NotImplementedError

    def rsample(self, sample_shape=Size()):
        raise NotImplementedError(f"{type(self).__name__} does not implement rsample")

    def _validate_sample(self, value):
        """``log_prob``'s check of ``value``: a tensor that broadcasts with the distribution, inside the support."""
        if not isinstance(value, Tensor):
            raise ValueError("The value argument to log_prob must be a Tensor")
        event_dim_start = len(value.size()) - len(self._event_shape)
        if value.size()[event_dim_start:] != self._event_shape:
            raise ValueError(f"The right-most size of value must match event_shape: {value.size()} vs "
                             f"{self._event_shape}.")
        actual, expected = value.size(), Size(tuple(self._batch_shape) + tuple(self._event_shape))
        for i, j in zip(reversed(actual), reversed(expected)):
            if i != 1 and j != 1 and i != j:
                raise ValueError(f"Value is not broadcastable with batch_shape+event_shape: {actual} vs {expected}.")
        if not bool(self.support.check(value).all()):
            raise ValueError(f"Expected value argument ({type(value).__name__} of shape {tuple(value.shape)}) to be "
                             f"within the support ({self.support!r}) of the distribution {self!r}, but found "
                             f"invalid values:\n{value}")

    def __repr__(self):
        shown = [name for name in self.arg_constraints if name in vars(self)]
        parts = [f"{name}: {v if v.numel() == 1 else v.size()}" for name, v in ((n, vars(self)[n]) for n in shown)]
        return f"{type(self).__name__}({', '.join(parts)})"
