"""C++'s ``std::sort`` (GNU libstdc++, which PyTorch's Linux builds use), step by step, in Python.

``std::sort`` is not stable: equal values can come out in any order, and which order is fixed by
the algorithm. PyTorch's ``mode`` reports the index of the last of the equal values after such a
sort, and ``sort`` itself (unless ``stable=True``) is such a sort, so to give PyTorch's indices minigrad
sorts the same way. The algorithm is introsort: quicksort
(pivot: the median of three) on pieces longer than 16, heapsort if the quicksort goes too deep, then
one insertion sort over the whole. ``less(i, j)`` compares the elements at positions ``i`` and ``j``
of the list being sorted, as C++'s comparator does (a nan is never less, nor greater).
"""

THRESHOLD = 16  # libstdc++'s _S_threshold: shorter pieces are left to the final insertion sort


def sorted_order(values, before=lambda x, y: x < y):
    """The indices of ``values`` in the order ``std::sort`` leaves them, comparing values with ``before``
    (C++'s comparator: does x go before y?)."""
    items = list(range(len(values)))

    def less(a, b):  # compare two items (indices into values)
        return bool(before(values[a], values[b]))

    if len(items) > 1:
        _introsort_loop(items, 0, len(items), 2 * (len(items).bit_length() - 1), less)
        _final_insertion_sort(items, 0, len(items), less)
    return items


def _introsort_loop(a, first, last, depth_limit, less):
    while last - first > THRESHOLD:
        if depth_limit == 0:
            _heap_sort(a, first, last, less)
            return
        depth_limit -= 1
        cut = _partition_pivot(a, first, last, less)
        _introsort_loop(a, cut, last, depth_limit, less)
        last = cut


def _partition_pivot(a, first, last, less):
    mid = first + (last - first) // 2
    _move_median_to_first(a, first, first + 1, mid, last - 1, less)
    return _unguarded_partition(a, first + 1, last, first, less)


def _move_median_to_first(a, result, x, y, z, less):
    if less(a[x], a[y]):
        if less(a[y], a[z]):
            median = y
        elif less(a[x], a[z]):
            median = z
        else:
            median = x
    elif less(a[x], a[z]):
        median = x
    elif less(a[y], a[z]):
        median = z
    else:
        median = y
    a[result], a[median] = a[median], a[result]


def _unguarded_partition(a, first, last, pivot, less):
    while True:
        while less(a[first], a[pivot]):
            first += 1
        last -= 1
        while less(a[pivot], a[last]):
            last -= 1
        if not first < last:
            return first
        a[first], a[last] = a[last], a[first]
        first += 1


def _final_insertion_sort(a, first, last, less):
    if last - first > THRESHOLD:
        _insertion_sort(a, first, first + THRESHOLD, less)
        for i in range(first + THRESHOLD, last):
            _linear_insert(a, i, less)
    else:
        _insertion_sort(a, first, last, less)


def _insertion_sort(a, first, last, less):
    for i in range(first + 1, last):
        if less(a[i], a[first]):  # smaller than the first: everything before it moves right by one
            a[first:i + 1] = [a[i]] + a[first:i]
        else:
            _linear_insert(a, i, less)


def _linear_insert(a, i, less):
    """Move ``a[i]`` left past the elements greater than it (C++: ``__unguarded_linear_insert``)."""
    value = a[i]
    while i > 0 and less(value, a[i - 1]):  # (C++ checks no bound: a smaller element always stops it before)
        a[i] = a[i - 1]
        i -= 1
    a[i] = value


def _heap_sort(a, first, last, less):
    """``std::partial_sort(first, last, last)``: make a max-heap, then pop the largest to the end."""
    _heap_select(a, first, last, last, less)
    _sort_heap(a, first, last, less)


def _heap_select(a, first, middle, last, less):
    """Make ``a[first:middle]`` a max-heap of the smallest elements of ``a[first:last]``."""
    for parent in range((middle - first - 2) // 2, -1, -1):  # (make_heap)
        _adjust_heap(a, first, parent, middle - first, a[first + parent], less)
    for i in range(middle, last):
        if less(a[i], a[first]):
            _pop_heap(a, first, middle, i, less)


def _sort_heap(a, first, last, less):
    while last - first > 1:
        last -= 1
        _pop_heap(a, first, last, last, less)


def _pop_heap(a, first, last, result, less):
    """The heap's largest goes to ``result``; what was there goes into the heap."""
    value = a[result]
    a[result] = a[first]
    _adjust_heap(a, first, 0, last - first, value, less)


def _adjust_heap(a, first, hole, n, value, less):
    top, child = hole, hole
    while child < (n - 1) // 2:
        child = 2 * (child + 1)
        if less(a[first + child], a[first + child - 1]):
            child -= 1
        a[first + hole] = a[first + child]
        hole = child
    if n % 2 == 0 and child == (n - 2) // 2:
        child = 2 * (child + 1)
        a[first + hole] = a[first + child - 1]
        hole = child - 1
    parent = (hole - 1) // 2
    while hole > top and less(a[first + parent], value):
        a[first + hole] = a[first + parent]
        hole = parent
        parent = (hole - 1) // 2
    a[first + hole] = value


def quick_select_order(values, k):
    """The indices of ``values`` after PyTorch's ``quick_select_template`` (Sedgewick's quickselect, in
    ``aten/src/ATen/native/SortingUtils.h``) has put the k-th smallest (0-based) at place ``k``: what
    ``kthvalue`` reads, index included. A nan counts as larger than any number."""
    items = list(range(len(values)))

    def greater(a, b):  # PyTorch's comparison: a nan is greater than any number, and x > y
        x, y = values[a], values[b]
        return bool((x != x and y == y) or x > y)

    def swap(i, j):
        items[i], items[j] = items[j], items[i]

    low, high = 0, len(items) - 1
    while high > low:
        if high == low + 1:  # two elements
            if greater(items[low], items[high]):
                swap(low, high)
            break
        swap((low + high) // 2, low + 1)  # the median of three becomes the pivot, at low
        if greater(items[low + 1], items[high]):
            swap(low + 1, high)
        if greater(items[low], items[high]):
            swap(low, high)
        if greater(items[low + 1], items[low]):
            swap(low + 1, low)
        i, j, pivot = low + 1, high, items[low]
        while True:
            i += 1
            while greater(pivot, items[i]):
                i += 1
            j -= 1
            while greater(items[j], pivot):
                j -= 1
            if j < i:
                break
            swap(i, j)
        swap(low, j)
        if j <= k:  # keep searching the part that holds place k
            low = i
        if j >= k:
            high = j - 1
    return items


def partial_sorted_order(values, k, before):
    """The indices of ``values`` after ``std::partial_sort(first, first + k, last)``: the k first in order."""
    items = list(range(len(values)))

    def less(a, b):
        return bool(before(values[a], values[b]))

    _heap_select(items, 0, k, len(items), less)
    _sort_heap(items, 0, k, less)
    return items


def nth_element_order(values, nth, before):
    """The indices of ``values`` after ``std::nth_element(first, first + nth, last)``: the element that
    belongs at place ``nth`` is there, the smaller ones before it (in no particular order)."""
    items = list(range(len(values)))

    def less(a, b):
        return bool(before(values[a], values[b]))

    first, last = 0, len(items)
    if nth == last:
        return items
    depth_limit = 2 * (len(items).bit_length() - 1)
    while last - first > 3:  # (introselect: quicksort's partition, into the part that holds nth only)
        if depth_limit == 0:
            _heap_select(items, first, nth + 1, last, less)
            items[first], items[nth] = items[nth], items[first]
            return items
        depth_limit -= 1
        cut = _partition_pivot(items, first, last, less)
        if cut <= nth:
            first = cut
        else:
            last = cut
    _insertion_sort(items, first, last, less)
    return items
