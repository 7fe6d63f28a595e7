"""Small faithful gaps the differential tester found (issue 39, item 6 and after; session 10, brief f1), each
asserted as PyTorch 2.13 behaves (values, node names, saved attributes, error types and messages)."""
import re

import numpy as np
import pytest

import minigrad
import minigrad.nn.functional as F

MODIFIED = ("one of the variables needed for gradient computation has been modified by an inplace operation: "
            "[minigrad.LongTensor [{n}]] is at version 1; expected version 0 instead. Hint: enable anomaly detection "
            "to find the operation that failed to compute its gradient, with "
            "minigrad.autograd.set_detect_anomaly(True, check_nan=False).")


# ---------------------------------------------------------------------------------- 1. a loss's saved target
def _x():
    return minigrad.tensor([[-0.5, 1.0, 0.25, 2.0], [0.5, -1.5, 1.0, 0.0], [1.0, 1.0, -2.0, 0.5]], requires_grad=True)


@pytest.mark.parametrize("loss", [lambda x, t: F.nll_loss(x.log_softmax(1), t), F.cross_entropy,
                                  lambda x, t: F.multi_margin_loss(x, t)])
def test_target_changed_in_place_before_backward_raises(loss):
    target = minigrad.tensor([0, 3, 1])
    out = loss(_x(), target)
    target.add_(0)
    with pytest.raises(RuntimeError) as e:
        out.backward()
    assert str(e.value) == MODIFIED.format(n=3)


def test_target_changed_in_place_before_double_backward_raises():
    """Difftest seed 629917: the target, changed after the forward, raises in the backward under create_graph=True
    (``NllLossBackward0`` unpacks its saved target)."""
    x = minigrad.tensor([[-0.56, -1.34]], requires_grad=True)
    target = minigrad.tensor([0])
    loss = F.nll_loss(x.log_softmax(-1), target, reduction="sum")
    target.transpose_(0, 0)
    with pytest.raises(RuntimeError) as e:
        minigrad.autograd.grad(loss.sum(), [x], create_graph=True)
    assert str(e.value) == MODIFIED.format(n=1)


def test_target_changed_after_first_backward_raises_in_second():
    x, target = _x(), minigrad.tensor([0, 3, 1])
    g, = minigrad.autograd.grad(F.nll_loss(x, target), x, create_graph=True)
    node = g.grad_fn
    assert type(node).__name__ == "NllLossBackwardBackward0"
    assert node._saved_target is target and node._saved_weight is None
    assert (node._saved_reduction, node._saved_ignore_index) == (1, 2 ** 64 - 100)
    target.add_(0)
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        minigrad.autograd.grad(g.sum(), x, allow_unused=True)


def test_nll_loss_saved_attributes():
    x, target, weight = _x(), minigrad.tensor([0, 3, 1]), minigrad.tensor([1.0, 0.5, 2.0, 1.5])
    node = F.nll_loss(x, target, weight=weight, reduction="sum", ignore_index=3).grad_fn
    assert [n for n in dir(node) if n.startswith("_saved_")] == [
        "_saved_ignore_index", "_saved_reduction", "_saved_self", "_saved_target", "_saved_total_weight",
        "_saved_weight"]
    assert node._saved_self is x and node._saved_target is target and node._saved_weight is weight
    assert (node._saved_reduction, node._saved_ignore_index) == (2, 3)
    assert node._saved_total_weight.item() == 1.5 and node._saved_total_weight.dtype == minigrad.float32
    assert len(node.next_functions) == 1  # (target and weight: no edges)
    none = F.nll_loss(x, target, reduction="none").grad_fn
    assert none._saved_total_weight.item() == 0.0 and none._saved_reduction == 0


def test_nll_loss_of_a_sequence_saves_the_image_view():
    """PyTorch sees (N, C, d) as (N, C, 1, d): the saved input and target have those shapes."""
    x = minigrad.zeros(2, 3, 5, requires_grad=True)
    target = minigrad.zeros(2, 5, dtype=minigrad.int64)
    node = F.nll_loss(x, target).grad_fn
    assert type(node).__name__ == "NllLoss2DBackward0"
    assert node._saved_self.shape == (2, 3, 1, 5) and node._saved_target.shape == (2, 1, 5)
    target.add_(0)
    with pytest.raises(RuntimeError, match=r"\[minigrad.LongTensor \[2, 1, 5\]\] is at version 1"):
        node._saved_target


def test_soft_margin_and_multi_margin_save_their_targets():
    x, signs = _x(), minigrad.tensor([1.0, -1.0, 1.0, 1.0])
    node = F.soft_margin_loss(x, signs).grad_fn
    assert node._saved_target is signs and node._saved_reduction == 1 and len(node.next_functions) == 1
    signs.mul_(1)
    with pytest.raises(RuntimeError, match=r"\[minigrad.FloatTensor \[4\]\] is at version 1"):
        node._saved_target
    target, weight = minigrad.tensor([0, 3, 1]), minigrad.ones(4)
    node = F.multi_margin_loss(x, target, p=2, margin=0.5, weight=weight, reduction="sum").grad_fn
    assert (node._saved_p, node._saved_margin, node._saved_reduction) == (2, 0.5, 2)
    assert node._saved_target is target and node._saved_weight is weight


def test_regression_losses_saved_attributes():
    x, y = _x(), minigrad.zeros(3, 4)
    node = F.mse_loss(x, y, reduction="none").grad_fn
    assert node._saved_self is x and node._saved_target is y and node._saved_reduction == 0
    node = F.smooth_l1_loss(x, y, beta=2).grad_fn
    assert (node._saved_beta, type(node._saved_beta), node._saved_reduction) == (2.0, float, 1)
    node = F.huber_loss(x, y, reduction="sum", delta=0.5).grad_fn
    assert (node._saved_delta, node._saved_reduction) == (0.5, 2) and node._saved_target is y


# ---------------------------------------------------------------------------------- 3. the shape ops' _saved_*
def _saved(node):
    return {name: getattr(node, name) for name in dir(node) if name.startswith("_saved_")}


def test_squeeze_and_unsqueeze_saved_attributes():
    x = minigrad.zeros(2, 3, 1, 4, requires_grad=True)
    sizes = (2, 3, 1, 4)
    assert _saved(x.squeeze().grad_fn) == {"_saved_self_sym_sizes": sizes}  # SqueezeBackward0
    assert _saved(x.squeeze(2).grad_fn) == {"_saved_dim": 2, "_saved_self_sym_sizes": sizes}  # SqueezeBackward1
    assert _saved(x.squeeze((2, 0)).grad_fn) == {"_saved_dim": (2, 0), "_saved_self_sym_sizes": sizes}  # ...2
    assert _saved((x * 1).squeeze_(-2).grad_fn) == {"_saved_dim": 2 ** 64 - 2, "_saved_self_sym_sizes": sizes}
    assert _saved((x * 1).squeeze_((0, -2)).grad_fn) == {"_saved_dim": (0, 2 ** 64 - 2), "_saved_self_sym_sizes": sizes}
    assert _saved(x.unsqueeze(1).grad_fn) == {"_saved_dim": 1}  # UnsqueezeBackward0
    assert _saved((x * 1).unsqueeze_(-1).grad_fn) == {"_saved_dim": 2 ** 64 - 1}  # UnsqueezeBackward1
    assert [type(n).__name__ for n in (x.squeeze().grad_fn, x.squeeze(2).grad_fn, x.squeeze((2,)).grad_fn)] == [
        "SqueezeBackward0", "SqueezeBackward1", "SqueezeBackward2"]


def test_view_ops_saved_attributes():
    x = minigrad.zeros(2, 3, 1, 4, requires_grad=True)
    assert _saved(x.transpose(0, -1).grad_fn) == {"_saved_dim0": 0, "_saved_dim1": 2 ** 64 - 1}
    assert _saved(x.permute(3, 0, -2, 1).grad_fn) == {"_saved_dims": (3, 0, 2 ** 64 - 2, 1)}
    assert _saved(x[:, :, 0].expand(5, -1, -1, 4).grad_fn) == {"_saved_self_sym_sizes": (2, 3, 4)}
    assert _saved(x.select(1, -2).grad_fn) == {"_saved_dim": 1, "_saved_index": 2 ** 64 - 2,
                                               "_saved_self_sym_sizes": (2, 3, 1, 4)}
    assert _saved(x[..., -3:-1].grad_fn) == {"_saved_dim": 3, "_saved_start": 2 ** 64 - 3, "_saved_end": 2 ** 64 - 1,
                                             "_saved_step": 1, "_saved_self_sym_sizes": (2, 3, 1, 4)}
    assert x[1:].grad_fn._saved_end == 2 ** 63 - 1  # (an open end: INT64_MAX)
    assert _saved(x.split(3, -1)[0].grad_fn) == {"_saved_dim": 2 ** 64 - 1, "_saved_split_size": 3,
                                                 "_saved_self_sym_sizes": (2, 3, 1, 4)}
    assert x.split([1, 2], 1)[0].grad_fn._saved_split_sizes == (1, 2)
    assert x.chunk(2, 1)[0].grad_fn._saved_split_size == 2
    assert _saved(x.unbind(1)[0].grad_fn) == {"_saved_dim": 1}
    assert _saved(x[0].repeat(2, 1, 3, 1).grad_fn) == {"_saved_repeats": (2, 1, 3, 1), "_saved_self_sym_sizes": (3, 1, 4)}
    assert minigrad.cat([x, x], -1).grad_fn._saved_dim == 2 ** 64 - 1


# ---------------------------------------------------------------------------------- 4. histc's range
F32_MAX = 3.4028234663852886e38


@pytest.mark.parametrize("data, lo, hi, message", [
    ([1.0, 2.0], float("-inf"), F32_MAX, "minigrad.histc: range of [-inf, 3.40282e+38] is not finite"),
    ([1.0, 2.0], 0, float("-inf"), "minigrad.histc: range of [0, -inf] is not finite"),  # (not "max must be larger")
    ([1.0, 2.0], 0, float("nan"), "minigrad.histc: range of [0, nan] is not finite"),
    ([float("nan"), 1.0], 0, 0, "minigrad.histc: range of [-nan, -nan] is not finite"),
    ([1.0, float("inf")], 0, 0, "minigrad.histc: range of [1, inf] is not finite"),
    ([1.0, 2.0], 0, 1e39, "value cannot be converted to type float without overflow"),
    ([1.0, 2.0], 1e39, 0, "minigrad.histc: max must be larger than min"),
])
def test_histc_range_checks(data, lo, hi, message):
    with pytest.raises(RuntimeError) as e:
        minigrad.histc(minigrad.tensor(data), 3, lo, hi)
    assert str(e.value) == message


def test_histc_float_max_range_and_half_overflow():
    assert minigrad.histc(minigrad.tensor([1.0, 2.0]), 3, 0, F32_MAX).tolist() == [2.0, 0.0, 0.0]
    assert minigrad.histc(minigrad.tensor([1.0, 2.0]), 3, 1e39, 1e39).tolist() == [1.0, 0.0, 1.0]
    with pytest.raises(RuntimeError, match=r"^value cannot be converted to type c10::Half without overflow$"):
        minigrad.histc(minigrad.tensor([1.0, 2.0], dtype=minigrad.float16), 3, 0, F32_MAX)


# ---------------------------------------------------------------------------------- 5. cells with empty weights
@pytest.mark.parametrize("kind, gates", [("LSTMCell", 4), ("GRUCell", 3)])
def test_cell_with_hidden_size_0(kind, gates):
    """PyTorch's unsafe_chunk of the empty gates: ``gates`` empty pieces (``UnsafeSplitWithSizesBackward0``)."""
    cell = getattr(minigrad.nn, kind)(3, 0)
    out = cell(minigrad.ones(2, 3))
    h = out[0] if isinstance(out, tuple) else out
    assert h.shape == (2, 0) and h.requires_grad
    todo, node = [h.grad_fn], None
    while type(node).__name__ != "UnsafeSplitWithSizesBackward0":  # (the first one, breadth first)
        node = todo.pop(0)
        todo += [n for n, _ in node.next_functions if n is not None]
    assert (node._saved_split_sizes, node._saved_dim, node._saved_self_sym_sizes) == ((0,) * gates, 1, (2, 0))
    h.sum().backward()
    assert cell.weight_ih.grad.shape == (0, 3)


def test_cell_with_input_size_0():
    cell = minigrad.nn.LSTMCell(0, 2)
    with minigrad.no_grad():
        for p in cell.parameters():
            p.fill_(0.5)
    h, c = cell(minigrad.ones(2, 0))
    assert h.shape == (2, 2) and type(h.grad_fn).__name__ == "MulBackward0"
    h.sum().backward()
    assert cell.weight_ih.grad.shape == (8, 0) and cell.bias_ih.grad.shape == (8,)


# ---------------------------------------------------------------------------------- 6. linspace and arange, bit for bit
def _bits(t):
    return t.numpy().tobytes().hex()


def test_linspace_is_fused_multiply_add_from_either_end():
    """PyTorch's kernel: ``start + step * i`` for the first half, ``end - step * (steps - 1 - i)`` for the rest, each
    one fused multiply-add (the last bit of linspace(0, 1, 10)[6] shows it: 0.6666667, not 0.6666666)."""
    assert minigrad.linspace(0.0, 1.0, 10)[6].item() == np.float32(0.6666667)
    assert _bits(minigrad.linspace(0.0, 1.0, 10)) == (
        "00000000398ee33d398e633eabaaaa3e398ee33ee4380e3fabaa2a3f721c473f398e633f0000803f")
    x = minigrad.linspace(-1e30, 7.77, 33)  # (float32 rounded once, through float64 rounded to odd)
    assert (x[1].item(), x[-2].item(), x[-1].item()) == (-9.687500381890653e+29, -3.125000047023332e+28,
                                                         7.769999980926514)


def test_linspace_integer_dtypes():
    assert minigrad.linspace(-1, 10, 5, dtype=minigrad.uint8).tolist() == [255, 193, 132, 71, 10]
    assert minigrad.linspace(0, -129, 3, dtype=minigrad.uint8).tolist() == [0, 63, 127]
    for start, end in [(0, 1000), (-3.7, 3), (-256, 0)]:
        with pytest.raises(RuntimeError, match=r"^value cannot be converted to type uint8_t without overflow$"):
            minigrad.linspace(start, end, 5, dtype=minigrad.uint8)
    with pytest.raises(RuntimeError, match=r"^value cannot be converted to type int without overflow$"):
        minigrad.linspace(0, 1e40, 3, dtype=minigrad.int32)


def test_integer_arange_truncates_as_pytorch():
    assert minigrad.arange(0, 10, 2.5, dtype=minigrad.int32).tolist() == [0, 2, 4, 6]  # (length from 2.5, step 2)
    assert minigrad.arange(0, 10, 2.5, dtype=minigrad.int64).tolist() == [0, 2, 4, 6, 8]  # (length from the step 2)
    assert minigrad.arange(0, 3, 0.5, dtype=minigrad.int16).tolist() == [0] * 6
    assert minigrad.arange(-3.5, 7.9, 1.5, dtype=minigrad.uint8).tolist() == [253, 254, 255, 0, 1, 2, 3, 4]
    with pytest.raises(ValueError, match="^step must be nonzero$"):
        minigrad.arange(0, 3, 0.9, dtype=minigrad.int64)
    with pytest.raises(RuntimeError, match="^upper bound and lower bound inconsistent with step sign$"):
        minigrad.arange(0, 5, -0.7, dtype=minigrad.int64)
    with pytest.raises(RuntimeError, match=r"^unsupported range: 0 -> inf$"):
        minigrad.arange(0, float("inf"), 1.0)


# ---------------------------------------------------------------------------------- 1b. binary cross-entropy's weights
def test_binary_cross_entropy_saves_its_weights():
    p = minigrad.tensor([[0.2, 0.7, 0.5], [0.9, 0.1, 0.4]], requires_grad=True)
    target, weight = minigrad.tensor([[0.0, 1.0, 1.0], [1.0, 0.0, 0.0]]), minigrad.tensor([1.0, 2.0, 0.5])
    node = F.binary_cross_entropy(p, target, weight).grad_fn
    assert node._saved_weight.shape == (2, 3) and node._saved_weight._base is weight  # (PyTorch: weight.expand(...))
    assert node._saved_reduction == 1 and node._saved_target is target and len(node.next_functions) == 2
    weight.add_(0)
    with pytest.raises(RuntimeError, match=r"\[minigrad.FloatTensor \[2, 3\]\] is at version 1"):
        node._saved_weight
    pos_weight = minigrad.tensor([1.0, 2.0, 3.0])
    loss = F.binary_cross_entropy_with_logits(p, target, pos_weight=pos_weight)
    assert loss.grad_fn._saved_pos_weight is pos_weight and loss.grad_fn._saved_weight is None
    pos_weight.mul_(1)
    with pytest.raises(RuntimeError, match=r"\[minigrad.FloatTensor \[3\]\] is at version 1"):
        loss.backward()


def test_softmax_backward_data_saved_attributes():
    x = minigrad.tensor([[0.5, -1.0, 2.0], [1.0, 0.0, -0.5]], requires_grad=True)
    for fn, name in (("softmax", "SoftmaxBackwardDataBackward0"), ("log_softmax", "LogSoftmaxBackwardDataBackward0")):
        y = getattr(x, fn)(-1)
        upstream = minigrad.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
        g, = minigrad.autograd.grad((y * upstream).sum(), x, create_graph=True)
        node = g.grad_fn
        assert type(node).__name__ == name and node._saved_dim == 2 ** 64 - 1  # (the dim as passed)
        assert node._saved_output.grad_fn is y.grad_fn and node._saved_output.tolist() == y.tolist()
        assert node._saved_grad_output.tolist() == upstream.tolist()


# ---------------------------------------------------------------------------------- 2. iterating over a tensor
def test_iterating_unbinds_the_tensor_once_as_pytorch():
    """``for row in x`` is ``iter(x.unbind(0))`` in PyTorch: one UnbindBackward0 shared by the pieces."""
    a = minigrad.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
    rows = list(a)
    assert [(r.grad_fn.name(), r.output_nr) for r in rows] == [("UnbindBackward0", 0), ("UnbindBackward0", 1)]
    assert rows[0].grad_fn is rows[1].grad_fn and rows[0].grad_fn._saved_dim == 0
    sum(r.sum() * i for i, r in enumerate(rows)).backward()
    assert a.grad.tolist() == [[0.0, 0.0], [1.0, 1.0]]
    with minigrad.no_grad():
        assert [r.grad_fn for r in a] == [None, None]
    assert list(minigrad.ones(0, 2)) == []
    with pytest.raises(TypeError, match="^iteration over a 0-d tensor$"):
        list(minigrad.tensor(2.0))


# ---------------------------------------------------------------------------------- 3. negative dims, as passed
def test_negative_dims_show_as_pytorch_shows_them():
    """The shape ops keep a dim as it was passed; PyTorch shows a negative one unsigned (-1: 2**64 - 1)."""
    x = minigrad.ones(2, 3, 1, requires_grad=True)
    m1, m2 = 2 ** 64 - 1, 2 ** 64 - 2
    assert x.unsqueeze(-1).grad_fn._saved_dim == m1
    assert x.squeeze(-1).grad_fn._saved_dim == m1 and x.squeeze((-1, 0)).grad_fn._saved_dim == (m1, 0)
    assert (x.select(-2, 1).grad_fn._saved_dim, x.select(-2, 1).grad_fn._saved_index) == (m2, 1)
    assert x.flip(-1, 0).grad_fn._saved_dims == (m1, 0)
    g = x.narrow(-2, 1, 2).grad_fn
    assert (g.name(), g._saved_dim, g._saved_start, g._saved_end, g._saved_step) == ("SliceBackward0", m2, 1, 3, 1)
    assert x.unbind(-2)[1].grad_fn._saved_dim == m2
    for bad, message in [(lambda: x.unsqueeze(5), "[-4, 3], but got 5"), (lambda: x.squeeze(7), "[-3, 2], but got 7"),
                         (lambda: x.select(4, 0), "[-3, 2], but got 4"), (lambda: x.unbind(3), "[-3, 2], but got 3")]:
        with pytest.raises(IndexError, match=re.escape(f"Dimension out of range (expected to be in range of {message})")):
            bad()


def test_a_0_dim_tensor_wraps_its_dim_as_1_dim_first():
    """unbind, squeeze and the other shape ops of a 0-dim tensor: a dim out of [-1, 0] is PyTorch's range error;
    in range, each op's own answer (unbind: "no dimensions"; squeeze((0,)): the tensor itself)."""
    x = minigrad.tensor(1.5, requires_grad=True)
    with pytest.raises(IndexError, match=re.escape("Dimension out of range (expected to be in range of [-1, 0], but got 1)")):
        x.unbind(1)
    with pytest.raises(IndexError, match="^Dimension specified as 0 but tensor has no dimensions$"):
        x.unbind(-1)
    y = x.squeeze((-1,))
    assert y.shape == () and y.grad_fn.name() == "SqueezeBackward2" and y.grad_fn._saved_dim == (2 ** 64 - 1,)


@pytest.mark.parametrize("data, dtype, edges", [
    ([float("-inf")], minigrad.float32, "-inf, -3.40282e+38"), ([float("inf")], minigrad.float64, "1.79769e+308, inf"),
    ([float("-inf"), float("-inf")], minigrad.float64, "-inf, -1.79769e+308"), ([float("nan")], minigrad.float32, "nan, nan"),
    ([1.0, float("nan")], minigrad.float32, "-nan, -nan"), ([float("inf"), float("-inf")], minigrad.float32, "-inf, inf")])
def test_histc_of_infinite_data_names_pytorchs_edges(data, dtype, edges):
    """(Recorded from PyTorch 2.13: equal infinite edges move to the dtype's largest number on the other side; a nan
    of one element keeps its sign, of several is negative.)"""
    with pytest.raises(RuntimeError, match=re.escape(f"minigrad.histc: range of [{edges}] is not finite")):
        minigrad.histc(minigrad.tensor(data, dtype=dtype), 3, 0, 0)
