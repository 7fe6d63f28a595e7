"""Random tensors with a seedable generator (``minigrad.manual_seed``).

minigrad draws from numpy's PCG64 generator, so a seed gives the same numbers every run, but not
the same numbers as PyTorch's generator: to compare with PyTorch, copy the values across.
"""
import numpy as np

from . import _dtype

_DEFAULT_SEED = 67280421310721  # PyTorch's default seed: a fresh process is deterministic


class Generator:
    """A seeded source of random numbers (PyTorch: ``torch.Generator``), backed by numpy's PCG64."""

    def __init__(self, seed=_DEFAULT_SEED):
        self.manual_seed(seed)

    def manual_seed(self, seed):
        self._seed = int(seed)
        self.numpy = np.random.Generator(np.random.PCG64(self._seed))
        return self

    def initial_seed(self):
        return self._seed

    def __repr__(self):  # no memory address: notebooks print what manual_seed returns
        return f"<minigrad.Generator seed={self._seed}>"


_default = Generator()


def manual_seed(seed):
    """Reseed the default generator; returns it, like PyTorch's ``manual_seed``."""
    return _default.manual_seed(seed)


def seed():
    s = int(np.random.SeedSequence().entropy % (2 ** 63))
    manual_seed(s)
    return s


def initial_seed():
    return _default.initial_seed()


def _numpy(generator):
    return (generator or _default).numpy


def _size(size):
    if len(size) == 1 and isinstance(size[0], (tuple, list)):
        return tuple(size[0])
    return tuple(size)


def _make(array, dtype, requires_grad):
    from .tensor import Tensor
    dtype = _dtype.to_dtype(dtype) or _dtype.get_default_dtype()
    return Tensor(np.asarray(array, dtype=dtype.numpy), requires_grad=requires_grad)


def randn(*size, dtype=None, requires_grad=False, generator=None):
    """Standard normal samples."""
    return _make(_numpy(generator).standard_normal(_size(size)), dtype, requires_grad)


def rand(*size, dtype=None, requires_grad=False, generator=None):
    """Uniform samples in [0, 1)."""
    return _make(_numpy(generator).random(_size(size)), dtype, requires_grad)


def randint(low, high=None, size=(), dtype=None, generator=None):
    from .tensor import Tensor
    if high is None:
        low, high = 0, low
    d = _dtype.to_dtype(dtype) or _dtype.int64
    return Tensor(np.asarray(_numpy(generator).integers(low, high, size=tuple(size)), dtype=d.numpy))


def randperm(n, dtype=None, generator=None):
    from .tensor import Tensor
    d = _dtype.to_dtype(dtype) or _dtype.int64
    return Tensor(np.asarray(_numpy(generator).permutation(n), dtype=d.numpy))


def normal(mean, std, size, dtype=None, requires_grad=False):
    return _make((_default.numpy.standard_normal(tuple(size)) * std + mean), dtype, requires_grad)


def randn_like(t, dtype=None, requires_grad=False):
    return randn(*t.shape, dtype=dtype or t.dtype, requires_grad=requires_grad)


def rand_like(t, dtype=None, requires_grad=False):
    return rand(*t.shape, dtype=dtype or t.dtype, requires_grad=requires_grad)
