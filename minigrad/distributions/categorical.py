"""``Categorical``: one of K classes, with probabilities ``probs`` or log-probabilities ``logits`` (the last dim).

PyTorch: ``torch/distributions/categorical.py``.  Either is normalised along the last dim; the other is computed
from it when first asked for (``probs = softmax(logits)``, ``logits = log(probs)`` with ``probs`` kept inside
``[eps, 1 - eps]``).  Samples come from ``multinomial``, so they are PyTorch's after the same seed."""
from .. import random as _random
from .._dtype import Size, finfo
from ..ops.select import broadcast_tensors
from . import constraints
from .distribution import Distribution


class Categorical(Distribution):
    arg_constraints = {"probs": constraints.simplex, "logits": constraints.real_vector}

    def __init__(self, probs=None, logits=None, validate_args=None):
        if (probs is None) == (logits is None):
            raise ValueError("Either `probs` or `logits` must be specified, but not both.")
        if probs is not None:
            if probs.dim() < 1:
                raise ValueError("`probs` parameter must be at least one-dimensional.")
            self.probs = probs / probs.sum(-1, keepdim=True)
        else:
            if logits.dim() < 1:
                raise ValueError("`logits` parameter must be at least one-dimensional.")
            self.logits = logits - logits.logsumexp(dim=-1, keepdim=True)
        self._param = self.probs if probs is not None else self.logits
        self._num_events = self._param.size()[-1]
        batch_shape = self._param.size()[:-1] if self._param.dim() > 1 else Size()
        super().__init__(batch_shape, validate_args=validate_args)

    def __getattr__(self, name):  # probs from logits, or logits from probs, computed once when first asked for
        if name == "probs":
            self.probs = self.logits.softmax(-1)
            return self.probs
        if name == "logits":
            eps = finfo(self.probs.dtype).eps
            self.logits = self.probs.clamp(min=eps, max=1 - eps).log()
            return self.logits
        raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")

    @property
    def support(self):
        return constraints.integer_interval(0, self._num_events - 1)

    @property
    def param_shape(self):
        return self._param.size()

    @property
    def mode(self):
        return self.probs.argmax(dim=-1)

    @property
    def mean(self):  # (a class index has no mean: nan, as in PyTorch)
        return self.probs.new_full(self._extended_shape(), float("nan"))

    @property
    def variance(self):
        return self.probs.new_full(self._extended_shape(), float("nan"))

    def expand(self, batch_shape):
        """The same distribution repeated over ``batch_shape``: views of the parameters it has, not normalised
        again."""
        new = Categorical.__new__(Categorical)
        for name in ("probs", "logits"):
            if name in vars(self):
                setattr(new, name, vars(self)[name].expand(tuple(batch_shape) + (self._num_events,)))
        new._param = vars(new)["probs" if "probs" in vars(self) else "logits"]
        new._num_events = self._num_events
        Distribution.__init__(new, batch_shape, validate_args=False)
        new._validate_args = self._validate_args
        return new

    def sample(self, sample_shape=Size()):
        """Class indices (int64) of shape ``sample_shape + batch_shape``, drawn with replacement by ``multinomial``."""
        sample_shape = Size(sample_shape)
        rows = self.probs.reshape(-1, self._num_events)
        drawn = _random.multinomial(rows, sample_shape.numel(), True).T
        return drawn.reshape(self._extended_shape(sample_shape))

    def log_prob(self, value):
        """The log-probability of each class index in ``value`` (broadcast with the batch)."""
        if self._validate_args:
            self._validate_sample(value)
        value, log_pmf = broadcast_tensors(value.long().unsqueeze(-1), self.logits)
        return log_pmf.gather(-1, value[..., :1]).squeeze(-1)

    def entropy(self):
        """``-sum(p log p)`` along the classes (a log-probability of ``-inf`` counts as the dtype's lowest number)."""
        logits = self.logits.clamp(min=finfo(self.logits.dtype).min)
        return -(logits * self.probs).sum(-1)

    def enumerate_support(self, expand=True):
        from ..creation import arange
        values = arange(self._num_events).view((-1,) + (1,) * len(self._batch_shape))
        return values.expand((-1,) + tuple(self._batch_shape)) if expand else values

