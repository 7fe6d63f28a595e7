"""Random tensors with a seedable generator (``minigrad.manual_seed``).

minigrad draws from numpy's PCG64 generator, so a seed gives the same numbers every run, but not
the same numbers as PyTorch's generator: to compare with PyTorch, copy the values across.
"""
import numpy as np

from . import _dtype
from . import devices as _device

_DEFAULT_SEED = 67280421310721  # PyTorch's default seed: a fresh process is deterministic


class Generator:
    """A seeded source of random numbers (PyTorch: ``torch.Generator``), backed by numpy's PCG64."""

    def __init__(self, seed=_DEFAULT_SEED, device="cpu"):  # (PyTorch: Generator(device="cpu"), seeded later)
        _device.check(device)
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


def _size(size, size_kwarg=None):
    """``randn(2, 3)``, ``randn((2, 3))`` and ``randn(size=(2, 3))`` all mean the same."""
    if size_kwarg is not None:
        return tuple(size_kwarg)
    if len(size) == 1 and isinstance(size[0], (tuple, list)):
        return tuple(size[0])
    return tuple(size)


def _make(array, dtype, requires_grad, device=None):
    from .tensor import Tensor
    _device.check(device)
    dtype = _dtype.to_dtype(dtype) or _dtype.get_default_dtype()
    return Tensor(np.asarray(array, dtype=dtype.numpy), requires_grad=requires_grad)


def randn(*sizes, size=None, dtype=None, device=None, requires_grad=False, generator=None):
    """Standard normal samples."""
    size = _size(sizes, size)
    return _make(_numpy(generator).standard_normal(size), dtype, requires_grad, device)


def rand(*sizes, size=None, dtype=None, device=None, requires_grad=False, generator=None):
    """Uniform samples in [0, 1)."""
    size = _size(sizes, size)
    return _make(_numpy(generator).random(size), dtype, requires_grad, device)


def randint(low, high=None, size=(), generator=None, dtype=None, device=None, requires_grad=False):
    """Integers in [low, high), int64 unless ``dtype`` says otherwise."""
    if high is None:
        low, high = 0, low
    return _make(_numpy(generator).integers(low, high, size=tuple(size)), dtype or _dtype.int64, requires_grad,
                 device)


def randperm(n, generator=None, dtype=None, device=None, requires_grad=False):
    """The numbers 0..n-1 in random order."""
    return _make(_numpy(generator).permutation(n), dtype or _dtype.int64, requires_grad, device)


def normal(mean, std, size=None, generator=None, dtype=None, device=None, requires_grad=False):
    """Normal samples: ``normal(0., 1., size=(2, 3))``, or one per element of a ``mean`` / ``std`` tensor."""
    from .tensor import Tensor
    shape = tuple(size) if size is not None else np.broadcast_shapes(
        *(t._data.shape for t in (mean, std) if isinstance(t, Tensor)))
    like = next((t.dtype for t in (mean, std) if isinstance(t, Tensor)), None)
    m, s = (t._data if isinstance(t, Tensor) else t for t in (mean, std))
    return _make(_numpy(generator).standard_normal(shape) * s + m, dtype or like, requires_grad, device)


def multinomial(input, num_samples, replacement=False, generator=None):  # noqa: A002
    """Draw ``num_samples`` indices from each row of ``input`` with probability proportional to its values.

    PyTorch: ``torch.multinomial``; makemore samples its names this way.  The weights need not sum to 1.
    """
    from .tensor import Tensor
    p = np.asarray(input._data, dtype=np.float64)
    rows = p.reshape(-1, p.shape[-1])
    if not replacement and num_samples > rows.shape[-1]:
        raise RuntimeError("cannot sample n_sample > prob_dist.size(-1) samples without replacement")
    out = []
    for row in rows:
        if (row < 0).any() or not np.isfinite(row).all():
            raise RuntimeError("probability tensor contains either `inf`, `nan` or element < 0")
        if row.sum() <= 0:
            raise RuntimeError("invalid multinomial distribution (sum of probabilities <= 0)")
        out.append(_numpy(generator).choice(row.size, num_samples, replace=replacement, p=row / row.sum()))
    return Tensor(np.asarray(out, dtype=np.int64).reshape(p.shape[:-1] + (num_samples,)))


def randn_like(t, dtype=None, device=None, requires_grad=False):
    return randn(*t.shape, dtype=dtype or t.dtype, device=device, requires_grad=requires_grad)


def rand_like(t, dtype=None, device=None, requires_grad=False):
    return rand(*t.shape, dtype=dtype or t.dtype, device=device, requires_grad=requires_grad)
