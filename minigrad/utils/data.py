"""``minigrad.utils.data``: datasets and mini-batches (PyTorch: ``torch.utils.data``).

- ``TensorDataset(x, y)``: item ``i`` is ``(x[i], y[i])``;
- ``DataLoader(dataset, batch_size, shuffle)``: iterate over mini-batches, each item's tensors
  stacked along a new first dim (PyTorch's ``default_collate``);
- ``random_split(dataset, [0.8, 0.2])``: disjoint random subsets.

- ``ConcatDataset([a, b])`` (or ``a + b``): the items of ``a``, then those of ``b``.

Shuffling draws from minigrad's generator (``minigrad.manual_seed`` or ``generator=``), which is PyTorch's: after
the same seed the order is PyTorch's.  No worker processes, samplers or pinned memory.
"""
import bisect
import math

from .. import random as _random
from ..tensor import Tensor


class Dataset:
    """A map-style dataset: subclasses define ``__getitem__(i)`` and ``__len__()``."""

    def __getitem__(self, index):
        raise NotImplementedError("Subclasses of Dataset should implement __getitem__.")

    def __add__(self, other):
        return ConcatDataset([self, other])


class TensorDataset(Dataset):
    """Item ``i`` is ``tuple(t[i] for t in tensors)``; all tensors must have the same first dim."""

    def __init__(self, *tensors):
        if any(tensors[0].size(0) != t.size(0) for t in tensors):
            raise AssertionError("Size mismatch between tensors")
        self.tensors = tensors

    def __getitem__(self, index):
        return tuple(t[index] for t in self.tensors)

    def __len__(self):
        return self.tensors[0].size(0)


class Subset(Dataset):
    """The items of ``dataset`` at ``indices``, in that order."""

    def __init__(self, dataset, indices):
        self.dataset, self.indices = dataset, indices

    def __getitem__(self, index):
        return self.dataset[self.indices[index]]

    def __len__(self):
        return len(self.indices)


class ConcatDataset(Dataset):
    """The items of several datasets one after the other; ``cumulative_sizes[i]`` is how many the first ``i + 1``
    hold together."""

    def __init__(self, datasets):
        self.datasets = list(datasets)
        if not self.datasets:
            raise AssertionError("datasets should not be an empty iterable")
        self.cumulative_sizes, total = [], 0
        for d in self.datasets:
            total += len(d)
            self.cumulative_sizes.append(total)

    def __len__(self):
        return self.cumulative_sizes[-1]

    def __getitem__(self, index):
        if index < 0:
            if -index > len(self):
                raise ValueError("absolute value of index should not exceed dataset length")
            index += len(self)
        which = bisect.bisect_right(self.cumulative_sizes, index)  # (the first dataset that ends after index)
        before = self.cumulative_sizes[which - 1] if which else 0
        return self.datasets[which][index - before]


def random_split(dataset, lengths, generator=None):
    """Split ``dataset`` into random disjoint ``Subset``s of the given lengths (or fractions summing to 1)."""
    n = len(dataset)
    if math.isclose(sum(lengths), 1) and sum(lengths) <= 1:  # fractions: floor each, hand out the rest one by one
        counts = [int(math.floor(n * f)) for f in lengths]
        for i in range(n - sum(counts)):
            counts[i % len(counts)] += 1
        lengths = counts
    if sum(lengths) != n:
        raise ValueError("Sum of input lengths does not equal the length of the input dataset!")
    order = _random.randperm(n, generator=generator).tolist()
    out, start = [], 0
    for length in lengths:
        out.append(Subset(dataset, order[start:start + length]))
        start += length
    return out


def default_collate(batch):
    """Stack a list of items into one batch (PyTorch: ``default_collate``): tensors along a new dim 0,
    numbers into a tensor, tuples (and lists) field by field, dicts key by key."""
    from .. import _dtype
    from ..creation import stack, tensor
    first = batch[0]
    if isinstance(first, Tensor):
        return stack(batch, 0)
    if isinstance(first, float):  # (PyTorch: Python floats become float64 here, not the default dtype)
        return tensor(batch, dtype=_dtype.float64)
    if isinstance(first, int):
        return tensor(batch)
    if isinstance(first, dict):
        return {key: default_collate([item[key] for item in batch]) for key in first}
    if isinstance(first, (tuple, list)):
        return [default_collate(list(field)) for field in zip(*batch)]
    return batch


class DataLoader:
    """Mini-batches of ``dataset``: ``for xb, yb in DataLoader(ds, batch_size=32, shuffle=True): ...``."""

    def __init__(self, dataset, batch_size=1, shuffle=False, sampler=None, batch_sampler=None, num_workers=0,
                 collate_fn=None, pin_memory=False, drop_last=False, timeout=0, worker_init_fn=None,
                 generator=None, **kwargs):
        if sampler is not None or batch_sampler is not None:
            raise NotImplementedError("minigrad's DataLoader has no samplers: use shuffle=True or a Subset")
        self.dataset, self.batch_size, self.shuffle, self.drop_last = dataset, batch_size, shuffle, drop_last
        self.collate_fn = collate_fn or default_collate
        self.generator = generator
        self.num_workers = num_workers  # (accepted; minigrad loads in the main process)

    def __iter__(self):
        n = len(self.dataset)
        # PyTorch draws a seed for its worker processes each time a loop starts (with no workers too), and
        # shuffles with a generator seeded from the default one when it was given none: so do we, and the
        # batches are PyTorch's after the same manual_seed.
        source = self.generator or _random.default_generator()
        source.random64(1)  # (the workers' base seed)
        order = range(n)
        if self.shuffle:
            shuffler = self.generator or _random.Generator(int(source.random64(1)[0]) % 2 ** 63)
            order = _random.randperm(n, generator=shuffler).tolist()
        if self.batch_size is None:  # no batching: one item at a time
            for i in order:
                yield self.dataset[i]
        else:
            for start in range(0, n, self.batch_size):
                indices = order[start:start + self.batch_size]
                if self.drop_last and len(indices) < self.batch_size:
                    break
                yield self.collate_fn([self.dataset[i] for i in indices])
        if self.shuffle:  # PyTorch's RandomSampler ends with one more randperm, of which it takes none
            _random.randperm(n, generator=shuffler)

    def __len__(self):
        n = len(self.dataset)
        return n // self.batch_size if self.drop_last else math.ceil(n / self.batch_size)
