"""What values a distribution's parameters and samples may take (PyTorch: ``torch.distributions.constraints``).

A constraint answers ``check(value)`` with a bool tensor (per sample: the last dims of an event are checked
together) and prints as PyTorch prints it, for the error messages of ``Distribution``."""


class Constraint:
    is_discrete = False
    event_dim = 0

    def check(self, value):
        raise NotImplementedError

    def __repr__(self):
        return type(self).__name__[1:] + "()"


class _Real(Constraint):
    """Any real number but nan."""

    def check(self, value):
        return value == value


class _GreaterThan(Constraint):
    def __init__(self, lower_bound):
        self.lower_bound = lower_bound

    def check(self, value):
        return self.lower_bound < value

    def __repr__(self):
        return f"GreaterThan(lower_bound={self.lower_bound})"


class _IntegerInterval(Constraint):
    is_discrete = True

    def __init__(self, lower_bound, upper_bound):
        self.lower_bound, self.upper_bound = lower_bound, upper_bound

    def check(self, value):
        return (value % 1 == 0) & (self.lower_bound <= value) & (value <= self.upper_bound)

    def __repr__(self):
        return f"IntegerInterval(lower_bound={self.lower_bound}, upper_bound={self.upper_bound})"


class _Simplex(Constraint):
    """Vectors (the last dim) of non-negative numbers that sum to 1."""
    event_dim = 1

    def check(self, value):
        return (value >= 0).all(-1) & ((value.sum(-1) - 1).abs() < 1e-6)


class _IndependentConstraint(Constraint):
    """``base`` on every element, the last ``reinterpreted_batch_ndims`` dims checked together (all must pass)."""

    def __init__(self, base, reinterpreted_batch_ndims):
        self.base_constraint, self.reinterpreted_batch_ndims = base, reinterpreted_batch_ndims
        self.event_dim = base.event_dim + reinterpreted_batch_ndims

    def check(self, value):
        result = self.base_constraint.check(value)
        for _ in range(self.reinterpreted_batch_ndims):
            result = result.all(-1)
        return result

    def __repr__(self):
        return f"IndependentConstraint({self.base_constraint!r}, {self.reinterpreted_batch_ndims})"


real = _Real()
positive = _GreaterThan(0.0)
simplex = _Simplex()
real_vector = _IndependentConstraint(real, 1)
integer_interval = _IntegerInterval
greater_than = _GreaterThan
