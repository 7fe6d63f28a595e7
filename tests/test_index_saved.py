"""The index ops save their index tensors as PyTorch does (issue 39, session 11, helper f).

PyTorch's nodes of ``x[idx]``, ``x[idx] = v``, ``index_put``, ``index_select``, ``gather``, ``scatter``,
``scatter_add``, ``masked_fill``, ``masked_select``, ``masked_scatter``, ``take``, ``index_add``, ``index_fill``,
``index_copy``, ``put``, ``scatter_reduce``, ``index_reduce``, ``sort`` and ``topk`` keep their index (or mask) as a
saved tensor: changed in place before backward, it raises; ``grad_fn._saved_index`` (``_saved_indices``,
``_saved_mask``) shows it, and after backward it is freed.  The cases are in ``index_saved_cases.py``; ``EXPECTED``
was recorded from torch 2.13 with them (each node's ``_saved_*`` as plain data, the names of its ``_raw_saved_*``,
its edges, and what the changed index makes backward raise: the tensor kind and shape, and its version).  With
torch importable, the same cases run live."""
import warnings

import numpy as np
import pytest

import minigrad
from index_saved_cases import CASES, NO_SOURCE_GRAD, make_inputs, saved_summary

MODIFIED = ("one of the variables needed for gradient computation has been modified by an inplace operation: "
            "[{}] is at version {}; expected version 0 instead. Hint: enable anomaly detection to find the operation "
            "that failed to compute its gradient, with minigrad.autograd.set_detect_anomaly(True, check_nan=False).")
FREED = ("Trying to backward through the graph a second time (or directly access saved tensors after they have "
         "already been freed). Saved intermediate values of the graph are freed when you call .backward() or "
         "autograd.grad(). Specify retain_graph=True if you need to backward through the graph a second time or if "
         "you need to access saved tensors after calling backward.")


def _change_in_place(t):
    """The index changed in place: an int one by ``add_(0)`` (version 1), a mask by two ``logical_not_`` (2)."""
    if t.dtype == minigrad.bool:
        t.logical_not_().logical_not_()
    else:
        t.add_(0)


def _run(name):
    x, s, indices = make_inputs(minigrad)
    y, which = CASES[name](minigrad, x, s, indices)
    return y, indices[which]


@pytest.mark.parametrize("name", sorted(CASES))
def test_saved_values_node_and_edges(name):
    y, _ = _run(name)
    node = y.grad_fn
    expected = EXPECTED[name]
    assert node.name() == expected["node"]
    assert len(node.next_functions) == expected["edges"]  # (the index: no edge)
    summary = saved_summary(node)
    assert summary["raw"] == expected["raw"]
    assert summary["saved"] == expected["saved"]


@pytest.mark.parametrize("name", sorted(CASES))
def test_index_changed_in_place_raises_in_backward(name):
    y, index = _run(name)
    _change_in_place(index)
    with pytest.raises(RuntimeError) as e:
        y.sum().backward()
    assert str(e.value) == MODIFIED.format(*EXPECTED[name]["error"])


@pytest.mark.parametrize("name", sorted(CASES))
def test_saved_index_freed_after_backward(name):
    y, _ = _run(name)
    node = y.grad_fn
    names = [n for n in dir(node) if n in ("_saved_index", "_saved_indices", "_saved_mask")]
    assert names
    y.sum().backward()
    for n in names:
        with pytest.raises(RuntimeError) as e:
            getattr(node, n)
        assert str(e.value) == FREED
    with pytest.raises(RuntimeError) as e:
        y.sum().backward()
    assert str(e.value) == FREED


@pytest.mark.parametrize("name", sorted(NO_SOURCE_GRAD))
def test_index_saved_only_for_the_source_gradient(name):
    x, s, indices = make_inputs(minigrad)
    y = NO_SOURCE_GRAD[name](minigrad, x, s, indices)
    assert saved_summary(y.grad_fn) == EXPECTED_NO_SOURCE_GRAD[name]
    if name != "index_copy":  # (x's gradient of index_copy needs the index: it is saved, see above)
        indices["idx"].add_(0)
        indices["gi"].add_(0)
        y.sum().backward()  # (nothing saved: no error)
        assert x.grad.tolist() == [[1.0, 1.0, 1.0]] * 4


def test_the_saved_index_is_the_callers_tensor():
    x = minigrad.ones(4, 3, requires_grad=True)
    idx, gi, m = minigrad.tensor([0, 2]), minigrad.tensor([[0], [1], [2], [0]]), minigrad.tensor([[True, False, True]])
    assert x[idx].grad_fn._saved_indices[0] is idx
    assert x[:, idx].grad_fn._saved_indices[1] is idx
    assert x.index_select(0, idx).grad_fn._saved_index is idx
    assert x.gather(1, gi).grad_fn._saved_index is gi
    assert x.masked_fill(m, 0.0).grad_fn._saved_mask is m
    assert x.masked_select(m).grad_fn._saved_mask is m
    assert x.index_put((idx,), minigrad.ones(3)).grad_fn._saved_indices[0] is idx
    raw = x[:, idx].grad_fn._raw_saved_indices
    assert len(raw) == 2 and all(type(r).__name__ == "SavedTensor" for r in raw)


def test_list_and_numpy_indices_become_new_tensors():
    """PyTorch makes a tensor of a list or numpy index: shown in _saved_indices, and nobody else can change it."""
    x = minigrad.ones(4, 3, requires_grad=True)
    for key in ([0, 2], np.array([0, 2])):
        saved, = x[key].grad_fn._saved_indices
        assert saved.dtype == minigrad.int64 and saved.tolist() == [0, 2]
    mask = [True, False, True, False]
    saved, = x[mask].grad_fn._saved_indices
    assert saved.dtype == minigrad.bool and saved.tolist() == mask
    y = x[[0, 0, 2]]
    y.sum().backward()
    assert x.grad[:, 0].tolist() == [2.0, 0.0, 1.0, 0.0]


# PyTorch's _saved_indices and _saved_self_sym_sizes of x[key] (x of shape (2, 3, 4)), and _saved_indices of
# x[key] = 5.0 (IndexPutBackward0; a key with an int, a part of a dim or None is a CopySlices there), torch 2.13
_I, _M2, _M = [0, 1], [[True, False, True], [False, True, True]], [True, False, True, True]
KEYS = [
    ("(:, idx)", lambda i, m2, m: (slice(None), i), [None, _I], (2, 3, 4), True),
    ("(..., idx)", lambda i, m2, m: (Ellipsis, i), [None, None, _I], (2, 3, 4), True),
    ("(idx, ...)", lambda i, m2, m: (i, Ellipsis), [_I], (2, 3, 4), True),
    ("(idx, :, idx)", lambda i, m2, m: (i, slice(None), i), [_I, None, _I], (2, 3, 4), True),
    ("(:, idx, :)", lambda i, m2, m: (slice(None), i, slice(None)), [None, _I], (2, 3, 4), True),
    ("mask2d", lambda i, m2, m: m2, [_M2], (2, 3, 4), True),
    ("(..., mask)", lambda i, m2, m: (Ellipsis, m), [None, None, _M], (2, 3, 4), True),
    ("(idx, idx[:, None])", lambda i, m2, m: (i, i[:, None]), [_I, [[0], [1]]], (2, 3, 4), True),
    ("(None, idx)", lambda i, m2, m: (None, i), [None, _I], (1, 2, 3, 4), False),
    ("(0, idx)", lambda i, m2, m: (0, i), [_I], (3, 4), False),
    ("(idx, 1:)", lambda i, m2, m: (i, slice(1, None)), [_I], (2, 2, 4), False),
    ("True", lambda i, m2, m: True, [[0]], (1, 2, 3, 4), False),
    ("(idx, None, idx)", lambda i, m2, m: (i, None, i), [_I, None, _I], (2, 1, 3, 4), False),
]


@pytest.mark.parametrize("name, key, indices, sizes, put", KEYS, ids=[k[0] for k in KEYS])
def test_saved_indices_of_keys(name, key, indices, sizes, put):
    x = minigrad.arange(24.).reshape(2, 3, 4).requires_grad_()
    k = key(minigrad.tensor([0, 1]), minigrad.tensor(_M2), minigrad.tensor(_M))
    node = x[k].grad_fn
    assert node.name() == "IndexBackward0"
    assert [None if i is None else i.tolist() for i in node._saved_indices] == indices
    assert node._saved_self_sym_sizes == sizes
    z = x * 1
    z[k] = 5.0
    if put:
        assert z.grad_fn.name() == "IndexPutBackward0" and z.grad_fn._saved_accumulate is False
        assert [None if i is None else i.tolist() for i in z.grad_fn._saved_indices] == indices
    else:
        assert z.grad_fn.name() == "minigrad::autograd::CopySlices"


def test_mask_with_another_index_names_its_nonzero_shapes():
    x = minigrad.zeros(2, 3, 4)
    with pytest.raises(IndexError) as e:
        x[minigrad.tensor(_M2), minigrad.tensor([0, 1])]
    assert str(e.value) == "shape mismatch: indexing tensors could not be broadcast together with shapes [4], [4], [2]"


def test_sort_and_topk_save_their_indices():
    x = minigrad.tensor([[3.0, 1.0, 2.0], [0.0, 5.0, 4.0]], requires_grad=True)
    values, indices = x.sort(1)
    node = values.grad_fn
    assert node.name() == "SortBackward0" and node._saved_indices is indices
    assert (node._saved_dim, node._saved_self_sym_sizes) == (1, (2, 3))
    assert [n for n in dir(node) if n.startswith("_raw_saved_")] == ["_raw_saved_indices"]
    values, indices = x.sort(dim=-1, stable=True)
    assert values.grad_fn.name() == "SortBackward1" and values.grad_fn._saved_dim == 2 ** 64 - 1
    values, indices = x.topk(2, 0)
    node = values.grad_fn
    assert node.name() == "TopkBackward0" and node._saved_indices is indices
    assert (node._saved_dim, node._saved_self_sym_sizes) == (0, (2, 3))
    assert indices.tolist() == [[0, 1, 1], [1, 0, 0]]
    indices.add_(0)
    with pytest.raises(RuntimeError) as e:
        values.sum().backward()
    assert str(e.value) == MODIFIED.format("minigrad.LongTensor [2, 3]", 1)
    values, _ = x.sort(1)
    (values * values).sum().backward()
    assert x.grad.tolist() == [[6.0, 2.0, 4.0], [0.0, 10.0, 8.0]]
    with pytest.raises(RuntimeError, match="Trying to backward through the graph a second time"):
        values.grad_fn._saved_indices


def test_scatter_and_index_fill_show_the_dim_as_passed():
    """PyTorch shows a negative dim unsigned (-1: 2**64 - 1), in place and out of place."""
    x = minigrad.ones(4, 3, requires_grad=True)
    gi, idx = minigrad.tensor([[0], [1], [2], [0]]), minigrad.tensor([0, 2])
    assert x.scatter(-1, gi, 1.0).grad_fn._saved_dim == 2 ** 64 - 1
    assert x.clone().scatter_(-1, gi, minigrad.ones(4, 1)).grad_fn._saved_dim == 2 ** 64 - 1
    assert x.index_fill(-1, idx, 1.0).grad_fn._saved_dim == 2 ** 64 - 1
    assert x.clone().index_fill_(-2, idx, 1.0).grad_fn._saved_dim == 2 ** 64 - 2
    y = x.scatter(-1, gi, 0.0)
    y.sum().backward()
    assert x.grad.tolist() == [[0.0, 1.0, 1.0], [1.0, 0.0, 1.0], [1.0, 1.0, 0.0], [0.0, 1.0, 1.0]]


# the node of each backward formula (create_graph=True) saves the index too, torch 2.13: its name, edges (the zeros
# it writes into need no gradient), _saved_* (tensors as lists) and _raw_saved_* names
_IDX, _GI, _M3 = [0, 2], [[0], [1], [2], [0]], [[True, False, True]] * 4
DOUBLE = [
    ("x[idx]", lambda x, i: x[i["idx"]], "IndexPutImplBackward0",
     {"_saved_accumulate": True, "_saved_indices": [_IDX]}, ["_raw_saved_indices"]),
    ("x[:, idx]", lambda x, i: x[:, i["idx"]], "IndexPutImplBackward0",
     {"_saved_accumulate": True, "_saved_indices": [None, _IDX]}, ["_raw_saved_indices"]),
    ("x[mask]", lambda x, i: x[i["m"].expand(4, 3)], "IndexPutImplBackward0",
     {"_saved_accumulate": True, "_saved_indices": [_M3]}, ["_raw_saved_indices"]),
    ("gather", lambda x, i: x.gather(1, i["gi"]), "ScatterAddBackward0",
     {"_saved_dim": 1, "_saved_index": _GI}, ["_raw_saved_index"]),
    ("index_select", lambda x, i: x.index_select(1, i["idx"]), "IndexAddBackward0",
     {"_saved_alpha": 1, "_saved_dim": 1, "_saved_index": _IDX, "_saved_source_dim": 2},
     ["_raw_saved_index", "_raw_saved_source"]),
    ("masked_select", lambda x, i: x.masked_select(i["m"]), "MaskedScatterBackward0",
     {"_saved_mask": [[True, False, True]], "_saved_source_sym_sizes": (8,)}, ["_raw_saved_mask"]),
    ("take", lambda x, i: x.take(i["idx"]), "PutBackward0",
     {"_saved_accumulate": True, "_saved_index": _IDX}, ["_raw_saved_index", "_raw_saved_source"]),
    ("sort", lambda x, i: x.sort(1)[0], "ScatterBackward0",
     {"_saved_dim": 1, "_saved_index": [[0, 1, 2]] * 4}, ["_raw_saved_index"]),
]


def _plain(v):
    if isinstance(v, tuple) and any(hasattr(i, "tolist") or i is None for i in v):
        return [_plain(i) for i in v]
    return v.tolist() if hasattr(v, "tolist") else v


@pytest.mark.parametrize("name, f, node_name, saved, raw", DOUBLE, ids=[d[0] for d in DOUBLE])
def test_backward_formula_nodes_save_the_index(name, f, node_name, saved, raw):
    x, _, indices = make_inputs(minigrad)
    y = f(x, indices)
    g, = minigrad.autograd.grad((y * y).sum(), x, create_graph=True)
    node = g.grad_fn
    assert node.name() == node_name
    assert [e[0] is None for e in node.next_functions] == [True, False]
    shown_saved = {n: _plain(getattr(node, n)) for n in dir(node)
                   if n.startswith("_saved_") and n not in ("_saved_self", "_saved_source")}
    assert shown_saved == saved
    assert [n for n in dir(node) if n.startswith("_raw_saved_")] == raw


def test_backward_formulas_twice_match_torch():
    """Second derivatives through the index ops' backward nodes (values recorded from torch 2.13)."""
    x = minigrad.arange(6.).reshape(2, 3).requires_grad_()
    cases = [(lambda: x.masked_select(minigrad.tensor([True, False, True])), [[0.0, 0.0, 12.0], [18.0, 0.0, 30.0]]),
             (lambda: x[minigrad.tensor([1, 1])], [[0.0, 0.0, 0.0], [36.0, 48.0, 60.0]]),
             (lambda: x.index_select(1, minigrad.tensor([2, 2, 0])), [[0.0, 0.0, 24.0], [18.0, 0.0, 60.0]]),
             (lambda: x.take(minigrad.tensor([-1, 0, -1])), [[0.0, 0.0, 0.0], [0.0, 0.0, 60.0]])]
    for f, expected in cases:
        g, = minigrad.autograd.grad((f() ** 3).sum(), x, create_graph=True)
        gg, = minigrad.autograd.grad(g.sum(), x)
        assert gg.tolist() == expected
    a = minigrad.tensor(2.0, requires_grad=True)
    g, = minigrad.autograd.grad((a.index_select(0, minigrad.tensor([0])) ** 2).sum(), a, create_graph=True)
    assert g.grad_fn.name() == "IndexAddBackward0" and g.item() == 4.0


def test_embedding_saves_its_indices():
    import minigrad.nn.functional as F
    w, idx = minigrad.ones(5, 3, requires_grad=True), minigrad.tensor([[0, 2], [4, 4]])
    y = F.embedding(idx, w)
    node = y.grad_fn
    assert node._saved_indices is idx and len(node.next_functions) == 1
    assert [n for n in dir(node) if n.startswith("_raw_saved_")] == ["_raw_saved_indices"]
    g, = minigrad.autograd.grad((y * y).sum(), w, create_graph=True)
    assert g.grad_fn.name() == "EmbeddingDenseBackwardBackward0" and g.grad_fn._saved_indices is idx
    assert [n for n in dir(g.grad_fn) if n.startswith("_raw_saved_")] == ["_raw_saved_indices"]
    idx.add_(0)
    with pytest.raises(RuntimeError) as e:
        y.sum().backward()
    assert str(e.value) == MODIFIED.format("minigrad.LongTensor [2, 2]", 1)


@pytest.mark.parametrize("pool", ["max_pool2d", "adaptive_max_pool2d"])
def test_max_pools_save_their_indices(pool):
    import minigrad.nn.functional as F
    x = minigrad.arange(16.).reshape(1, 1, 4, 4).requires_grad_()
    y, indices = getattr(F, pool)(x, 2, return_indices=True)
    node = y.grad_fn
    assert node._saved_result1 is indices and "_raw_saved_result1" in dir(node)
    g, = minigrad.autograd.grad((y * y).sum(), x, create_graph=True)
    assert g.grad_fn.name() in ("MaxPool2DWithIndicesBackwardBackward0", "AdaptiveMaxPool2DBackwardBackward0")
    assert g.grad_fn._saved_indices.tolist() == [[[[5, 7], [13, 15]]]]
    assert [n for n in dir(g.grad_fn) if n.startswith("_raw_saved_")] == ["_raw_saved_indices"]
    gg, = minigrad.autograd.grad(g.sum(), x)
    assert gg.tolist() == [[[[0.0, 0.0, 0.0, 0.0], [0.0, 2.0, 0.0, 2.0], [0.0, 0.0, 0.0, 0.0], [0.0, 2.0, 0.0, 2.0]]]]
    y, indices = getattr(F, pool)(x, 2, return_indices=True)
    indices.add_(0)
    with pytest.raises(RuntimeError) as e:
        y.sum().backward()
    assert str(e.value) == MODIFIED.format("minigrad.LongTensor [1, 1, 2, 2]", 1)


def test_masked_scatter_backward_backward_saves_the_mask():
    x, m, s = minigrad.ones(4, 3, requires_grad=True), minigrad.tensor([[True, False, True]]), minigrad.ones(8)
    s.requires_grad_()
    y = x.masked_scatter(m, s)
    g, = minigrad.autograd.grad((y * y).sum(), s, create_graph=True)
    assert g.grad_fn.name() == "MaskedScatterBackwardBackward0" and g.grad_fn._saved_mask is m
    assert [n for n in dir(g.grad_fn) if n.startswith("_raw_saved_")] == ["_raw_saved_mask"]


def test_an_index_made_in_inference_mode_cannot_be_saved():
    with minigrad.inference_mode():
        idx, mask = minigrad.tensor([0, 2]), minigrad.tensor([True, False, True, False])
    x = minigrad.ones(4, 3, requires_grad=True)
    for f in (lambda: x[idx], lambda: x.index_select(0, idx), lambda: x[mask], lambda: x.masked_fill(mask[:, None], 0.0)):
        with pytest.raises(RuntimeError, match="^Inference tensors cannot be saved for backward"):
            f()


def test_saved_tensor_hooks_pack_the_index_in_pytorchs_order():
    """torch 2.13 packs the index (or mask) before the input it saves too."""
    x, s, i = make_inputs(minigrad)
    x4 = minigrad.arange(16.).reshape(1, 1, 4, 4).requires_grad_()
    import minigrad.nn.functional as F
    cases = [(lambda: x[:, i["idx"]], [("int64", (2,))]),
             (lambda: x.gather(1, i["gi"]), [("int64", (4, 1)), ("float32", (4, 3))]),
             (lambda: x.masked_select(i["m"]), [("bool", (1, 3)), ("float32", (4, 3))]),
             (lambda: x.take(i["idx"]), [("int64", (2,)), ("float32", (4, 3))]),
             (lambda: x.index_add(0, i["idx"], s), [("int64", (2,)), ("float32", (2, 3))]),
             (lambda: F.max_pool2d(x4, 2), [("float32", (1, 1, 4, 4)), ("int64", (1, 1, 2, 2))]),
             (lambda: x.sort(1)[0], [("int64", (4, 3))])]
    for f, expected in cases:
        packed = []

        def pack(t):
            packed.append((str(t.dtype).split(".")[-1], tuple(t.shape)))
            return t
        with minigrad.autograd.graph.saved_tensors_hooks(pack, lambda t: t):
            y = f()
        assert packed == expected
        y.sum().backward()


def test_take_along_dim_gathers_with_a_copy_of_the_indices():
    """PyTorch's take_along_dim with a dim gathers with a new row-major copy of the broadcast indices: changing
    the indices afterwards raises nothing (without a dim, a view: it raises)."""
    x = minigrad.ones(4, 3, requires_grad=True)
    gi = minigrad.tensor([[0], [1], [2], [0]])
    y = minigrad.take_along_dim(x, gi, 0)
    saved = y.grad_fn._saved_index
    assert saved.shape == (4, 3) and saved.stride() == (3, 1)
    gi.add_(0)
    y.sum().backward()
    assert x.grad.sum().item() == 12.0


def test_writes_into_an_expanded_tensor_still_warn_and_write():
    x = minigrad.zeros(3)
    with pytest.warns(UserWarning, match="Use of masked_fill_ on expanded tensors is deprecated"):
        x.expand(2, 3).masked_fill_(minigrad.tensor([[True, False, False], [False, False, True]]), 5.0)
    assert x.tolist() == [5.0, 0.0, 5.0]
    x = minigrad.zeros(3)
    with pytest.warns(UserWarning, match="Use of index_put_ on expanded tensors is deprecated"):
        x.expand(2, 3).index_put_((minigrad.tensor([0, 1]), minigrad.tensor([1, 2])), minigrad.tensor([4.0, 6.0]))
    assert x.tolist() == [0.0, 4.0, 6.0]
    x = minigrad.zeros(3)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        x.expand(2, 3).index_put_((minigrad.tensor([0, 1]), minigrad.tensor([1, 1])), minigrad.tensor([4.0, 6.0]),
                                  accumulate=True)
    assert x.tolist() == [0.0, 10.0, 0.0]


@pytest.mark.parametrize("f", [
    lambda x, i: x[i["idx"]], lambda x, i: x[:, i["idx"]], lambda x, i: x.gather(1, i["gi"]),
    lambda x, i: x.index_select(1, i["idx"]), lambda x, i: x.masked_fill(i["m"], 0.5),
    lambda x, i: x.masked_select(i["m"]), lambda x, i: x.take(i["idx"]),
    lambda x, i: x.scatter(1, i["gi"], 0.5), lambda x, i: x.index_fill(1, i["idx"], 0.5),
    lambda x, i: x.sort(1)[0] ** 2, lambda x, i: x.topk(2, 1)[0] ** 2,
])
def test_gradients_check_twice(f):
    _, _, indices = make_inputs(minigrad)
    x = minigrad.tensor(np.linspace(-1.0, 1.0, 12).reshape(4, 3) ** 3, requires_grad=True)
    assert minigrad.autograd.gradcheck(lambda t: f(t, indices), (x,))
    assert minigrad.autograd.gradgradcheck(lambda t: f(t, indices), (x,))


def test_live_against_torch():
    torch = pytest.importorskip("torch")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for name, case in CASES.items():
            results = []
            for T in (torch, minigrad):
                x, s, indices = make_inputs(T)
                y, which = case(T, x, s, indices)
                summary = saved_summary(y.grad_fn)
                t = indices[which]
                t.add_(0) if t.dtype != T.bool else t.logical_not_().logical_not_()
                with pytest.raises(RuntimeError) as e:
                    y.sum().backward()
                results.append((y.grad_fn.name(), len(y.grad_fn.next_functions), summary,
                                str(e.value).replace("torch.", "minigrad.")))
            assert results[0] == results[1], name


EXPECTED = {'gather': {'edges': 1,
            'error': ['minigrad.LongTensor [4, 1]', 1],
            'node': 'GatherBackward0',
            'raw': ['_raw_saved_index', '_raw_saved_self'],
            'saved': {'_saved_dim': 1,
                      '_saved_index': ['int64', [4, 1], [[0], [1], [2], [0]], False],
                      '_saved_self': ['float32',
                                      [4, 3],
                                      [[1.0, 1.0, 1.0], [1.0, 1.0, 1.0], [1.0, 1.0, 1.0], [1.0, 1.0, 1.0]],
                                      True],
                      '_saved_sparse_grad': False}},
 'index_add': {'edges': 2,
               'error': ['minigrad.LongTensor [2]', 1],
               'node': 'IndexAddBackward0',
               'raw': ['_raw_saved_index', '_raw_saved_source'],
               'saved': {'_saved_alpha': 2,
                         '_saved_dim': 0,
                         '_saved_index': ['int64', [2], [0, 2], False],
                         '_saved_source': ['float32', [2, 3], [[1.0, 1.0, 1.0], [1.0, 1.0, 1.0]], True],
                         '_saved_source_dim': 2}},
 'index_add_': {'edges': 2,
                'error': ['minigrad.LongTensor [2]', 1],
                'node': 'IndexAddBackward0',
                'raw': ['_raw_saved_index', '_raw_saved_source'],
                'saved': {'_saved_alpha': 1,
                          '_saved_dim': 0,
                          '_saved_index': ['int64', [2], [0, 2], False],
                          '_saved_source': ['float32', [2, 3], [[1.0, 1.0, 1.0], [1.0, 1.0, 1.0]], True],
                          '_saved_source_dim': 2}},
 'index_copy': {'edges': 2,
                'error': ['minigrad.LongTensor [2]', 1],
                'node': 'IndexCopyBackward0',
                'raw': ['_raw_saved_index', '_raw_saved_source'],
                'saved': {'_saved_dim': 0,
                          '_saved_index': ['int64', [2], [0, 2], False],
                          '_saved_source': ['float32', [2, 3], [[1.0, 1.0, 1.0], [1.0, 1.0, 1.0]], True],
                          '_saved_source_dim': 2}},
 'index_fill': {'edges': 1,
                'error': ['minigrad.LongTensor [2]', 1],
                'node': 'IndexFillBackward0',
                'raw': ['_raw_saved_index'],
                'saved': {'_saved_dim': 1, '_saved_index': ['int64', [2], [0, 2], False]}},
 'index_fill tensor': {'edges': 2,
                       'error': ['minigrad.LongTensor [2]', 1],
                       'node': 'IndexFillBackward1',
                       'raw': ['_raw_saved_index'],
                       'saved': {'_saved_dim': 1, '_saved_index': ['int64', [2], [0, 2], False]}},
 'index_put': {'edges': 2,
               'error': ['minigrad.LongTensor [2]', 1],
               'node': 'IndexPutBackward0',
               'raw': ['_raw_saved_indices'],
               'saved': {'_saved_accumulate': False, '_saved_indices': [['int64', [2], [0, 2], False]]}},
 'index_put accumulate': {'edges': 2,
                          'error': ['minigrad.LongTensor [2]', 1],
                          'node': 'IndexPutBackward0',
                          'raw': ['_raw_saved_indices'],
                          'saved': {'_saved_accumulate': True,
                                    '_saved_indices': [['int64', [2], [0, 2], False],
                                                       ['int64', [2], [0, 2], False]]}},
 'index_select': {'edges': 1,
                  'error': ['minigrad.LongTensor [2]', 1],
                  'node': 'IndexSelectBackward0',
                  'raw': ['_raw_saved_index'],
                  'saved': {'_saved_dim': 0,
                            '_saved_index': ['int64', [2], [0, 2], False],
                            '_saved_self_sym_sizes': [4, 3]}},
 'index_select dim 1': {'edges': 1,
                        'error': ['minigrad.LongTensor [2]', 1],
                        'node': 'IndexSelectBackward0',
                        'raw': ['_raw_saved_index'],
                        'saved': {'_saved_dim': 1,
                                  '_saved_index': ['int64', [2], [0, 2], False],
                                  '_saved_self_sym_sizes': [4, 3]}},
 'masked_fill': {'edges': 1,
                 'error': ['CPUBoolType [1, 3]', 2],
                 'node': 'MaskedFillBackward0',
                 'raw': ['_raw_saved_mask'],
                 'saved': {'_saved_mask': ['bool', [1, 3], [[True, False, True]], False]}},
 'masked_fill tensor': {'edges': 2,
                        'error': ['CPUBoolType [1, 3]', 2],
                        'node': 'MaskedFillBackward1',
                        'raw': ['_raw_saved_mask'],
                        'saved': {'_saved_mask': ['bool', [1, 3], [[True, False, True]], False]}},
 'masked_fill_': {'edges': 1,
                  'error': ['CPUBoolType [1, 3]', 2],
                  'node': 'MaskedFillBackward0',
                  'raw': ['_raw_saved_mask'],
                  'saved': {'_saved_mask': ['bool', [1, 3], [[True, False, True]], False]}},
 'masked_scatter': {'edges': 2,
                    'error': ['CPUBoolType [1, 3]', 2],
                    'node': 'MaskedScatterBackward0',
                    'raw': ['_raw_saved_mask'],
                    'saved': {'_saved_mask': ['bool', [1, 3], [[True, False, True]], False],
                              '_saved_source_sym_sizes': [4, 6]}},
 'masked_select': {'edges': 1,
                   'error': ['CPUBoolType [1, 3]', 2],
                   'node': 'MaskedSelectBackward0',
                   'raw': ['_raw_saved_mask', '_raw_saved_self'],
                   'saved': {'_saved_mask': ['bool', [1, 3], [[True, False, True]], False],
                             '_saved_self': ['float32',
                                             [4, 3],
                                             [[1.0, 1.0, 1.0], [1.0, 1.0, 1.0], [1.0, 1.0, 1.0], [1.0, 1.0, 1.0]],
                                             True]}},
 'scatter': {'edges': 2,
             'error': ['minigrad.LongTensor [4, 1]', 1],
             'node': 'ScatterBackward0',
             'raw': ['_raw_saved_index'],
             'saved': {'_saved_dim': 1, '_saved_index': ['int64', [4, 1], [[0], [1], [2], [0]], False]}},
 'scatter value': {'edges': 1,
                   'error': ['minigrad.LongTensor [4, 1]', 1],
                   'node': 'ScatterBackward1',
                   'raw': ['_raw_saved_index'],
                   'saved': {'_saved_dim': 1, '_saved_index': ['int64', [4, 1], [[0], [1], [2], [0]], False]}},
 'scatter_': {'edges': 1,
              'error': ['minigrad.LongTensor [4, 1]', 1],
              'node': 'ScatterBackward1',
              'raw': ['_raw_saved_index'],
              'saved': {'_saved_dim': 1, '_saved_index': ['int64', [4, 1], [[0], [1], [2], [0]], False]}},
 'scatter_add': {'edges': 2,
                 'error': ['minigrad.LongTensor [4, 1]', 1],
                 'node': 'ScatterAddBackward0',
                 'raw': ['_raw_saved_index'],
                 'saved': {'_saved_dim': 1, '_saved_index': ['int64', [4, 1], [[0], [1], [2], [0]], False]}},
 'take': {'edges': 1,
          'error': ['minigrad.LongTensor [2]', 1],
          'node': 'TakeBackward0',
          'raw': ['_raw_saved_index', '_raw_saved_self'],
          'saved': {'_saved_index': ['int64', [2], [0, 2], False],
                    '_saved_self': ['float32',
                                    [4, 3],
                                    [[1.0, 1.0, 1.0], [1.0, 1.0, 1.0], [1.0, 1.0, 1.0], [1.0, 1.0, 1.0]],
                                    True]}},
 'take_along_dim no dim': {'edges': 1,
                           'error': ['minigrad.LongTensor [2]', 1],
                           'node': 'GatherBackward0',
                           'raw': ['_raw_saved_index', '_raw_saved_self'],
                           'saved': {'_saved_dim': 0,
                                     '_saved_index': ['int64', [2], [0, 2], False],
                                     '_saved_self': ['float32',
                                                     [12],
                                                     [1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0],
                                                     True],
                                     '_saved_sparse_grad': False}},
 'x[..., idx]': {'edges': 1,
                 'error': ['minigrad.LongTensor [2]', 1],
                 'node': 'IndexBackward0',
                 'raw': ['_raw_saved_indices'],
                 'saved': {'_saved_indices': [None, ['int64', [2], [0, 2], False]], '_saved_self_sym_sizes': [4, 3]}},
 'x[:, idx]': {'edges': 1,
               'error': ['minigrad.LongTensor [2]', 1],
               'node': 'IndexBackward0',
               'raw': ['_raw_saved_indices'],
               'saved': {'_saved_indices': [None, ['int64', [2], [0, 2], False]], '_saved_self_sym_sizes': [4, 3]}},
 'x[:, idx] = s': {'edges': 2,
                   'error': ['minigrad.LongTensor [2]', 1],
                   'node': 'IndexPutBackward0',
                   'raw': ['_raw_saved_indices'],
                   'saved': {'_saved_accumulate': False, '_saved_indices': [None, ['int64', [2], [0, 2], False]]}},
 'x[:, mask[0]]': {'edges': 1,
                   'error': ['CPUBoolType [3]', 2],
                   'node': 'IndexBackward0',
                   'raw': ['_raw_saved_indices'],
                   'saved': {'_saved_indices': [None, ['bool', [3], [True, False, True], False]],
                             '_saved_self_sym_sizes': [4, 3]}},
 'x[None, idx]': {'edges': 1,
                  'error': ['minigrad.LongTensor [2]', 1],
                  'node': 'IndexBackward0',
                  'raw': ['_raw_saved_indices'],
                  'saved': {'_saved_indices': [None, ['int64', [2], [0, 2], False]],
                            '_saved_self_sym_sizes': [1, 4, 3]}},
 'x[idx, 1:]': {'edges': 1,
                'error': ['minigrad.LongTensor [2]', 1],
                'node': 'IndexBackward0',
                'raw': ['_raw_saved_indices'],
                'saved': {'_saved_indices': [['int64', [2], [0, 2], False]], '_saved_self_sym_sizes': [4, 2]}},
 'x[idx, idx]': {'edges': 1,
                 'error': ['minigrad.LongTensor [2]', 1],
                 'node': 'IndexBackward0',
                 'raw': ['_raw_saved_indices'],
                 'saved': {'_saved_indices': [['int64', [2], [0, 2], False], ['int64', [2], [0, 2], False]],
                           '_saved_self_sym_sizes': [4, 3]}},
 'x[idx]': {'edges': 1,
            'error': ['minigrad.LongTensor [2]', 1],
            'node': 'IndexBackward0',
            'raw': ['_raw_saved_indices'],
            'saved': {'_saved_indices': [['int64', [2], [0, 2], False]], '_saved_self_sym_sizes': [4, 3]}},
 'x[idx] = 1.0': {'edges': 2,
                  'error': ['minigrad.LongTensor [2]', 1],
                  'node': 'IndexPutBackward0',
                  'raw': ['_raw_saved_indices'],
                  'saved': {'_saved_accumulate': False, '_saved_indices': [['int64', [2], [0, 2], False]]}},
 'x[mask]': {'edges': 1,
             'error': ['CPUBoolType [4, 3]', 2],
             'node': 'IndexBackward0',
             'raw': ['_raw_saved_indices'],
             'saved': {'_saved_indices': [['bool',
                                           [4, 3],
                                           [[True, False, True],
                                            [True, False, True],
                                            [True, False, True],
                                            [True, False, True]],
                                           False]],
                       '_saved_self_sym_sizes': [4, 3]}}}

EXPECTED_NO_SOURCE_GRAD = {'index_add': {'raw': ['_raw_saved_index', '_raw_saved_source'],
               'saved': {'_saved_alpha': 1,
                         '_saved_dim': 0,
                         '_saved_index': None,
                         '_saved_source': None,
                         '_saved_source_dim': 2}},
 'index_copy': {'raw': ['_raw_saved_index', '_raw_saved_source'],
                'saved': {'_saved_dim': 0,
                          '_saved_index': ['int64', [2], [0, 2], False],
                          '_saved_source': None,
                          '_saved_source_dim': 2}},
 'scatter_add': {'raw': ['_raw_saved_index'], 'saved': {'_saved_dim': 1, '_saved_index': None}}}


# ---- where's condition, max/min(dim)'s indices, and the dims the Tensor methods pass (the lead, after the merge)
WHERE_CHANGED = MODIFIED.format("CPUBoolType [4]", 1)  # (recorded from torch 2.13: PyTorch names a bool tensor so)


def test_where_saves_its_condition():
    x = minigrad.ones(4, requires_grad=True)
    cond = minigrad.tensor([True, False, True, False])
    y = minigrad.where(cond, x, 0.0)
    assert y.grad_fn._saved_condition.tolist() == [True, False, True, False]
    assert len(y.grad_fn.next_functions) == 2  # (x and the number: the condition has no edge)
    cond.logical_not_()
    with pytest.raises(RuntimeError) as err:
        y.sum().backward()
    assert str(err.value) == WHERE_CHANGED


def test_where_gradient_unchanged_by_saving():
    x = minigrad.tensor([1.0, -2.0, 3.0], requires_grad=True)
    w = minigrad.tensor([5.0, 6.0, 7.0], requires_grad=True)
    minigrad.where(x > 0, x * 2, w * 3).sum().backward()
    assert x.grad.tolist() == [2.0, 0.0, 2.0] and w.grad.tolist() == [0.0, 3.0, 0.0]


@pytest.mark.parametrize("reduction", ["max", "min"])
def test_max_min_dim_save_their_indices(reduction):
    x = minigrad.tensor([[1.0, 5.0, 3.0], [4.0, 2.0, 6.0]], requires_grad=True)
    values, indices = getattr(x, reduction)(1)
    assert values.grad_fn._saved_indices.tolist() == ([1, 2] if reduction == "max" else [0, 1])
    assert values.grad_fn._raw_saved_indices is not None
    indices.add_(0)
    with pytest.raises(RuntimeError) as err:
        values.sum().backward()
    assert str(err.value) == MODIFIED.format("minigrad.LongTensor [2]", 1)


def test_methods_pass_the_dim_as_given():
    x = minigrad.ones(3, 4, requires_grad=True)
    index, column = minigrad.tensor([0]), minigrad.tensor([[0]] * 3)
    nodes = [x.index_select(-1, index).grad_fn, x.gather(-1, column).grad_fn,
             x.scatter_add(-1, column, minigrad.ones(3, 1)).grad_fn,
             x.index_add(-1, index, minigrad.ones(3, 1)).grad_fn, x.index_copy(-1, index, minigrad.ones(3, 1)).grad_fn,
             x.topk(2, -1)[0].grad_fn]
    assert [n._saved_dim for n in nodes] == [2 ** 64 - 1] * 6  # (PyTorch shows -1 unsigned)
    with pytest.raises(IndexError, match=r"expected to be in range of \[-2, 1\], but got 5"):
        x.index_select(5, index)


def test_gather_has_no_sparse_gradient():
    x = minigrad.ones(3, requires_grad=True)
    assert x.gather(0, minigrad.tensor([0, 1]), sparse_grad=False).grad_fn._saved_sparse_grad is False
    with pytest.raises(NotImplementedError, match="no sparse gradient for gather"):
        minigrad.gather(x, 0, minigrad.tensor([0, 1]), sparse_grad=True)


# put, scatter_reduce and index_reduce (session 11, helper h1), recorded as EXPECTED above (test_live_against_torch
# checks them against torch 2.13)
EXPECTED.update({'index_reduce': {'edges': 2,
                  'error': ['minigrad.LongTensor [2]', 1],
                  'node': 'IndexReduceBackward0',
                  'raw': ['_raw_saved_index',
                          '_raw_saved_result',
                          '_raw_saved_self',
                          '_raw_saved_source'],
                  'saved': {'_saved_dim': 0,
                            '_saved_include_self': True,
                            '_saved_index': ['int64', [2], [0, 2], False],
                            '_saved_reduce': 'prod',
                            '_saved_result': ['float32',
                                              [4, 3],
                                              [[1.0, 1.0, 1.0],
                                               [1.0, 1.0, 1.0],
                                               [1.0, 1.0, 1.0],
                                               [1.0, 1.0, 1.0]],
                                              True],
                            '_saved_self': ['float32',
                                            [4, 3],
                                            [[1.0, 1.0, 1.0],
                                             [1.0, 1.0, 1.0],
                                             [1.0, 1.0, 1.0],
                                             [1.0, 1.0, 1.0]],
                                            True],
                            '_saved_source': ['float32',
                                              [2, 3],
                                              [[1.0, 1.0, 1.0], [1.0, 1.0, 1.0]],
                                              True]}},
 'put': {'edges': 2,
         'error': ['minigrad.LongTensor [2]', 1],
         'node': 'PutBackward0',
         'raw': ['_raw_saved_index', '_raw_saved_source'],
         'saved': {'_saved_accumulate': False,
                   '_saved_index': ['int64', [2], [0, 2], False],
                   '_saved_source': ['float32', [2], [1.0, 1.0], True]}},
 'put_ accumulate': {'edges': 2,
                     'error': ['minigrad.LongTensor [2]', 1],
                     'node': 'PutBackward0',
                     'raw': ['_raw_saved_index', '_raw_saved_source'],
                     'saved': {'_saved_accumulate': True,
                               '_saved_index': ['int64', [2], [0, 2], False],
                               '_saved_source': ['float32', [2], [1.0, 1.0], True]}},
 'scatter_reduce': {'edges': 2,
                    'error': ['minigrad.LongTensor [4, 1]', 1],
                    'node': 'ScatterReduceBackward0',
                    'raw': ['_raw_saved_index',
                            '_raw_saved_result',
                            '_raw_saved_self',
                            '_raw_saved_src'],
                    'saved': {'_saved_dim': 1,
                              '_saved_include_self': True,
                              '_saved_index': ['int64', [4, 1], [[0], [1], [2], [0]], False],
                              '_saved_reduce': 'amax',
                              '_saved_result': ['float32',
                                                [4, 3],
                                                [[1.0, 1.0, 1.0],
                                                 [1.0, 1.0, 1.0],
                                                 [1.0, 1.0, 1.0],
                                                 [1.0, 1.0, 1.0]],
                                                True],
                              '_saved_self': ['float32',
                                              [4, 3],
                                              [[1.0, 1.0, 1.0],
                                               [1.0, 1.0, 1.0],
                                               [1.0, 1.0, 1.0],
                                               [1.0, 1.0, 1.0]],
                                              True],
                              '_saved_src': ['float32',
                                             [4, 1],
                                             [[1.0], [1.0], [1.0], [1.0]],
                                             True]}},
 'scatter_reduce_': {'edges': 2,
                     'error': ['minigrad.LongTensor [4, 1]', 1],
                     'node': 'ScatterReduceBackward0',
                     'raw': ['_raw_saved_index',
                             '_raw_saved_result',
                             '_raw_saved_self',
                             '_raw_saved_src'],
                     'saved': {'_saved_dim': 1,
                               '_saved_include_self': False,
                               '_saved_index': ['int64', [4, 1], [[0], [1], [2], [0]], False],
                               '_saved_reduce': 'mean',
                               '_saved_result': ['float32',
                                                 [4, 3],
                                                 [[1.0, 1.0, 1.0],
                                                  [1.0, 1.0, 1.0],
                                                  [1.0, 1.0, 1.0],
                                                  [1.0, 1.0, 1.0]],
                                                 True],
                               '_saved_self': ['float32',
                                               [4, 3],
                                               [[1.0, 1.0, 1.0],
                                                [1.0, 1.0, 1.0],
                                                [1.0, 1.0, 1.0],
                                                [1.0, 1.0, 1.0]],
                                               True],
                               '_saved_src': ['float32',
                                              [4, 1],
                                              [[1.0], [1.0], [1.0], [1.0]],
                                              True]}}})
