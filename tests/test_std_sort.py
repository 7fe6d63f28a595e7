"""minigrad/ops/std_sort.py: C++'s std::sort step by step (PyTorch's mode reads the order it leaves ties in).
The indices PyTorch gives are checked in the parity case f20_second_order_graphs_and_layouts; here, that it sorts."""
import random

import numpy as np
import pytest

from minigrad.ops.std_sort import sorted_order


@pytest.mark.parametrize("n", [0, 1, 2, 5, 16, 17, 40, 300])
def test_it_sorts(n):
    r = random.Random(n)
    for _ in range(50):
        values = np.array([r.randrange(6) for _ in range(n)], float)
        order = sorted_order(values)
        assert sorted(order) == list(range(n))  # a permutation
        assert list(values[order]) == sorted(values)  # in order


def test_short_rows_are_an_insertion_sort():
    """Up to 16 elements std::sort is an insertion sort: ties keep their order, a nan stops an element."""
    values = np.array([2.0, 1.0, 2.0, 1.0, 0.0])
    assert sorted_order(values) == [4, 1, 3, 0, 2]
    assert sorted_order(np.array([np.nan, 3.0, -2.0])) == [0, 2, 1]  # -2 moves left past 3, not past the nan


def test_a_long_row_leaves_ties_out_of_order():
    """From 17 elements on, quicksort's partitions reorder equal values (what PyTorch's mode then reports)."""
    values = np.array([float(i % 3) for i in range(40)])
    order = sorted_order(values)
    ties = [k for k in order if values[k] == 0.0]
    assert ties != sorted(ties)


def test_the_heapsort_fallback_sorts():
    """Deep recursion falls back to heapsort (depth limit 2 log2 n); called directly it sorts too."""
    from minigrad.ops.std_sort import _heap_sort
    r = random.Random(1)
    values = [r.random() for _ in range(50)]
    items = list(range(50))
    _heap_sort(items, 0, 50, lambda a, b: values[a] < values[b])
    assert [values[k] for k in items] == sorted(values)
