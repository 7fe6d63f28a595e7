"""Random tensors from PyTorch's own generator, so ``manual_seed(0)`` gives PyTorch's numbers.

PyTorch's CPU generator is a Mersenne Twister (mt19937) seeded with the low 32 bits of the seed;
numpy's ``RandomState`` is the same twister, seeded the same way, and hands out its 32-bit numbers
one by one.  On top of them minigrad turns the numbers into samples with PyTorch's recipes
(``aten/src/ATen/core/DistributionsHelper.h`` and ``native/cpu/DistributionTemplates.h``):

- uniform in [0, 1): the low 24 bits of one number times 2**-24 (float32), or the low 53 bits of
  two numbers put together times 2**-53 (float64);
- normal: Box-Muller.  For 16 numbers or more PyTorch fills the tensor with uniforms and turns
  each block of 16 into normals (8 cosines, 8 sines); for fewer it draws pairs of float64
  uniforms and keeps the sine of a pair for the next number it is asked for;
- integers in [low, high): a 32-bit number modulo the range, plus low;
- a permutation: Fisher-Yates, each swap picked by a 32-bit number modulo what is left.

So ``rand``, ``randn``, ``randint``, ``randperm``, ``normal``, ``multinomial``, ``bernoulli`` (``ops/sampling.py``), ``uniform_`` /
``normal_`` (and with them ``nn.Linear``'s initial weights) match PyTorch's after the same seed:
exactly, except that float32 normals may differ in the last bit (PyTorch computes them with its
own vectorised log, cos and sin).  Where minigrad simplifies: dropout's masks (PyTorch draws them
with Intel MKL's own generator) are not PyTorch's.
"""
import math

import numpy as np

from . import _dtype
from . import devices as _device
from ._core.layout import like

_DEFAULT_SEED = 67280421310721  # PyTorch's default seed: a fresh process is deterministic


class Generator:
    """A seeded source of random numbers (PyTorch: ``torch.Generator``, the CPU one)."""

    def __init__(self, seed=_DEFAULT_SEED, device="cpu"):  # (PyTorch: Generator(device="cpu"), seeded later)
        _device.check(device)
        self.manual_seed(seed)

    def manual_seed(self, seed):
        self._seed = int(seed)
        self._twister = np.random.RandomState(self._seed & 0xFFFFFFFF)  # mt19937, seeded as PyTorch seeds it
        self._next_normal = None  # the sine of the last Box-Muller pair (PyTorch: next_double_normal_sample)
        return self

    def initial_seed(self):
        return self._seed

    # ---- the state, to save and restore (PyTorch: get_state / set_state, a uint8 tensor) -----------------
    # minigrad's state is its twister's 624 numbers and position, the seed, and the kept Box-Muller sine, as
    # bytes: 2521 of them. PyTorch's are 5056 bytes laid out its own way: the two cannot be swapped.
    _STATE_SIZE = 624 * 4 + 8 + 8 + 1 + 8

    def get_state(self):
        from ._core.tensor_base import TensorBase as Tensor
        _, keys, pos, _, _ = self._twister.get_state()
        parts = [np.asarray(keys, "<u4").tobytes(), np.asarray([pos, self._seed], "<i8").tobytes(),
                 bytes([self._next_normal is not None]), np.asarray([self._next_normal or 0.0], "<f8").tobytes()]
        return Tensor(np.frombuffer(b"".join(parts), np.uint8).copy())

    def set_state(self, new_state):
        from ._core.tensor_base import TensorBase as Tensor
        if not isinstance(new_state, Tensor):
            raise TypeError(f"expected a minigrad.ByteTensor, but got {type(new_state).__name__}")
        if new_state.dtype is not _dtype.uint8:
            raise TypeError("RNG state must be a minigrad.ByteTensor")
        if new_state._data.size != self._STATE_SIZE:
            raise RuntimeError(f"Expected a CPUGeneratorImplState of size {self._STATE_SIZE} but found the input RNG "
                               f"state size to be {new_state._data.size}")
        raw = new_state._data.tobytes()
        keys = np.frombuffer(raw[:2496], "<u4")
        pos, self._seed = (int(v) for v in np.frombuffer(raw[2496:2512], "<i8"))
        self._twister = np.random.RandomState()
        self._twister.set_state(("MT19937", keys, pos))
        self._next_normal = float(np.frombuffer(raw[2513:], "<f8")[0]) if raw[2512] else None
        return self

    def __repr__(self):  # no memory address: notebooks print what manual_seed returns
        return f"<minigrad.Generator seed={self._seed}>"

    # ---- PyTorch's CPUGeneratorImpl::random() and random64() ------------------------------
    def random(self, n):
        """The next ``n`` 32-bit numbers of the twister (as uint64, to compute with)."""
        return self._twister.randint(0, 2 ** 32, size=n, dtype=np.uint32).astype(np.uint64)

    def random64(self, n):
        """``n`` 64-bit numbers, each made of two 32-bit ones (the first is the high half)."""
        r = self.random(2 * n)
        return (r[0::2] << np.uint64(32)) | r[1::2]

    # ---- samples --------------------------------------------------------------------------
    def uniform(self, n, dtype):
        """``n`` uniform numbers in [0, 1) as float64, from as many random bits as ``dtype`` has digits."""
        digits = {"float16": 11, "float32": 24}.get(np.dtype(dtype).name, 53)
        bits = self.random(n) if digits <= 32 else self.random64(n)
        return (bits & np.uint64(2 ** digits - 1)).astype(np.float64) * 2.0 ** -digits

    def normal(self, n, dtype):
        """``n`` standard normal numbers in ``dtype``, drawn the way PyTorch's ``normal_`` draws them."""
        if n < 16:
            return np.array([self._one_normal() for _ in range(n)], dtype)
        data = self.uniform(n, dtype).astype(dtype)
        for start in range(0, n - 15, 16):
            data[start:start + 16] = _box_muller_16(data[start:start + 16])
        if n % 16:  # the last 16 numbers again, from fresh uniforms
            data[n - 16:] = _box_muller_16(self.uniform(16, dtype).astype(dtype))
        return data

    def _one_normal(self):
        """PyTorch's ``normal_distribution<double>``: one number of a Box-Muller pair, the other kept for later."""
        if self._next_normal is not None:
            value, self._next_normal = self._next_normal, None
            return value
        u1, u2 = self.uniform(2, np.float64)
        radius, theta = math.sqrt(-2.0 * math.log1p(-u2)), 2.0 * math.pi * u1
        self._next_normal = radius * math.sin(theta)
        return radius * math.cos(theta)

    def integers(self, low, high, n):
        """``n`` integers in [low, high): a random number modulo the range (PyTorch: ``random_from_to``)."""
        span = high - low
        bits = self.random(n) if span < 2 ** 32 else self.random64(n)
        return (bits % np.uint64(span)).astype(np.int64) + low

    def permutation(self, n):
        """0..n-1 shuffled by Fisher-Yates, as PyTorch's ``randperm`` on the CPU."""
        order = np.arange(n)
        picks = (self.random(max(n - 1, 0)) % np.arange(n, 1, -1, dtype=np.uint64)).astype(np.int64)
        for i, z in enumerate(picks.tolist()):
            order[i], order[i + z] = order[i + z], order[i]
        return order


def _box_muller_16(u):
    """PyTorch's ``normal_fill_16``: 16 uniforms become 16 normals (cosines first, then sines)."""
    radius = np.sqrt(-2.0 * np.log(1.0 - u[:8].astype(np.float64)))
    theta = 2.0 * np.pi * u[8:].astype(np.float64)
    return np.concatenate([radius * np.cos(theta), radius * np.sin(theta)]).astype(u.dtype)


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


def get_rng_state():
    """The default generator's state as a uint8 tensor (``set_rng_state`` puts it back): the same numbers follow."""
    return _default.get_state()


def set_rng_state(new_state):
    _default.set_state(new_state)


def _generator(generator):
    return generator or _default


def default_generator():
    """The generator ``manual_seed`` seeds (PyTorch: ``torch.default_generator``)."""
    return _default


def _size(size, size_kwarg=None):
    """``randn(2, 3)``, ``randn((2, 3))`` and ``randn(size=(2, 3))`` all mean the same."""
    if size_kwarg is not None:
        return tuple(size_kwarg)
    if len(size) == 1 and isinstance(size[0], (tuple, list)):
        return tuple(size[0])
    return tuple(size)


def _make(array, dtype, requires_grad, device=None):
    from ._core.tensor_base import TensorBase as Tensor
    _device.check(device)
    return Tensor(np.asarray(array, dtype=_float_dtype(dtype).numpy), requires_grad=requires_grad)


def _float_dtype(dtype):
    return _dtype.to_dtype(dtype) or _dtype.get_default_dtype()


def randn(*sizes, size=None, dtype=None, device=None, requires_grad=False, generator=None):
    """Standard normal samples."""
    size = _size(sizes, size)
    numbers = _generator(generator).normal(math.prod(size), _float_dtype(dtype).numpy)
    return _make(numbers.reshape(size), dtype, requires_grad, device)


def rand(*sizes, size=None, dtype=None, device=None, requires_grad=False, generator=None):
    """Uniform samples in [0, 1)."""
    size = _size(sizes, size)
    numbers = _generator(generator).uniform(math.prod(size), _float_dtype(dtype).numpy)
    return _make(numbers.reshape(size), dtype, requires_grad, device)


def randint(low, high=None, size=(), generator=None, dtype=None, device=None, requires_grad=False):
    """Integers in [low, high), int64 unless ``dtype`` says otherwise."""
    if high is None or isinstance(high, (tuple, list)):  # randint(high, size) or randint(high, size=...)
        low, high, size = 0, low, high if high is not None else size
    size = tuple(size)
    numbers = _generator(generator).integers(low, high, math.prod(size)).reshape(size)
    return _make(numbers, dtype or _dtype.int64, requires_grad, device)


def randperm(n, generator=None, dtype=None, device=None, requires_grad=False):
    """The numbers 0..n-1 in random order."""
    return _make(_generator(generator).permutation(n), dtype or _dtype.int64, requires_grad, device)


def normal(mean, std, size=None, generator=None, dtype=None, device=None, requires_grad=False):
    """Normal samples: ``normal(0., 1., size=(2, 3))``, or one per element of a ``mean`` / ``std`` tensor."""
    from ._core.tensor_base import TensorBase as Tensor
    tensors = [t for t in (mean, std) if isinstance(t, Tensor)]
    if not tensors:  # PyTorch: a new tensor, then normal_(mean, std)
        new = Tensor(np.empty(tuple(size), _float_dtype(dtype).numpy))
        return _make(normal_values(new, mean, std, generator), dtype, requires_grad, device)
    shape = np.broadcast_shapes(*(t._data.shape for t in tensors))
    dtype = dtype or tensors[0].dtype
    m, s = (t._data if isinstance(t, Tensor) else t for t in (mean, std))
    numbers = _generator(generator).normal(math.prod(shape), dtype.numpy).reshape(shape)
    return _make(numbers * s + m, dtype, requires_grad, device)  # PyTorch: normal_(0, 1), then mul_(std), add_(mean)


def uniform_values(t, low, high, generator=None):
    """The values of ``t.uniform_(low, high)``: PyTorch casts the bounds to ``t``'s dtype, takes their
    difference there, and scales each uniform in float64: ``u * (high - low) + low``."""
    dtype = t._data.dtype
    low, high = dtype.type(low), dtype.type(high)
    u = _generator(generator).uniform(t._data.size, dtype)
    return (u * float(high - low) + float(low)).astype(dtype).reshape(t._data.shape)


def normal_values(t, mean, std, generator=None):
    """The values of ``t.normal_(mean, std)``."""
    n = t._data.size
    z = _generator(generator).normal(n, t._data.dtype).astype(np.float64)
    return (z * std + mean).astype(t._data.dtype).reshape(t._data.shape)


def multinomial(input, num_samples, replacement=False, generator=None):  # noqa: A002
    """Draw ``num_samples`` indices from each row of ``input`` with probability proportional to its values.

    PyTorch: ``torch.multinomial``; makemore samples its names this way.  The weights need not sum to 1.
    PyTorch draws one sample, or samples without replacement, as the largest ``p / q`` with ``q`` from
    an exponential distribution (``-log(1 - u)``); several samples with replacement by finding uniforms
    in the cumulative distribution.  minigrad does the same, so the samples are PyTorch's.
    """
    from ._core.tensor_base import TensorBase as Tensor
    p = input._data
    rows = p.reshape(-1, p.shape[-1])
    if not replacement and num_samples > rows.shape[-1]:
        raise RuntimeError("cannot sample n_sample > prob_dist.size(-1) samples without replacement")
    for row in rows:
        if (row < 0).any() or not np.isfinite(row).all():
            raise RuntimeError("probability tensor contains either `inf`, `nan` or element < 0")
        if row.sum() <= 0:
            raise RuntimeError("invalid multinomial distribution (sum of probabilities <= 0)")
    gen = _generator(generator)
    if not replacement or num_samples == 1:
        q = (-np.log1p(-gen.uniform(rows.size, np.float64))).astype(p.dtype).reshape(rows.shape)  # exponential_()
        ratio = rows / q
        out = np.argsort(-ratio, axis=1, kind="stable")[:, :num_samples]  # the largest first (argmax, or topk)
    else:
        cumulative = np.cumsum(rows, axis=1, dtype=p.dtype)
        cumulative = cumulative / cumulative[:, -1:]
        cumulative[:, -1] = 1
        out = np.stack([np.searchsorted(c, gen.uniform(num_samples, np.float64), side="left") for c in cumulative])
    return Tensor(out.astype(np.int64).reshape(p.shape[:-1] + (num_samples,)))


def _like(t, new):
    """``new`` laid out as PyTorch's ``*_like`` lays out a new tensor like ``t`` (``preserve_format``)."""
    new._data = like(t._data, new._data)
    return new


def randn_like(t, dtype=None, device=None, requires_grad=False):
    return _like(t, randn(*t.shape, dtype=dtype or t.dtype, device=device, requires_grad=requires_grad))


def rand_like(t, dtype=None, device=None, requires_grad=False):
    return _like(t, rand(*t.shape, dtype=dtype or t.dtype, device=device, requires_grad=requires_grad))


def randint_like(t, low=0, high=None, *, dtype=None, device=None, requires_grad=False):
    """Integers in [low, high) shaped like ``t``, in ``t``'s dtype unless ``dtype`` says otherwise
    (``randint_like(t, 10)``: in [0, 10))."""
    if high is None:
        low, high = 0, low
    return _like(t, randint(low, high, tuple(t.shape), dtype=dtype or t.dtype, device=device, requires_grad=requires_grad))
