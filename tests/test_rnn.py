"""The recurrent layers (``nn.RNN``, ``nn.LSTM``, ``nn.GRU``, the cells) and packed sequences: parameters, graphs,
versions, errors and warnings as PyTorch 2.13 has them (recorded from it), and gradients by ``gradcheck``."""
import math
import warnings

import numpy as np
import pytest

import minigrad
from minigrad import nn
from minigrad.autograd import gradcheck, gradgradcheck
from minigrad.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence, pad_sequence
from minigrad.ops.recurrent import mkldnn_rnn_layer

# test_onednn_layers_gradient_can_be_differentiated_again, recorded from PyTorch 2.13
G_RECORDED = [-0.031368013, -0.020865873, -0.016770111, -0.011933503]
XGRAD_RECORDED = [-0.00048562587, -9.9774901e-05, -0.0002676454, -0.00016214134]
# test_the_onednn_layers_second_graph_is_pytorchs: one step, recorded from PyTorch 2.13 (breadth-first, each node once)
SECOND_GRAPH_RECORDED = """
CatBackward0 UnsqueezeBackward0 MmBackward0 CatBackward0 AccumulateGrad MulBackward0 MulBackward0 MulBackward0
MulBackward0 MulBackward0 SubBackward0 MulBackward0 SubBackward0 MulBackward0 SubBackward0 MulBackward0 SubBackward0
MulBackward0 SigmoidBackward0 MulBackward0 SigmoidBackward0 AddBackward0 MulBackward0 MulBackward0 SigmoidBackward0
TanhBackward0 UnsafeSplitBackward0 MulBackward0 TanhBackward0 AddBackward0 MulBackward0 SubBackward0 AddBackward0
AddmmBackward0 AddmmBackward0 MulBackward0 MulBackward0 MulBackward0 AccumulateGrad SelectBackward0 TBackward0
AccumulateGrad TBackward0 TanhBackward0 TanhBackward0 AccumulateGrad AccumulateGrad""".split()
G_ONE_STEP_RECORDED = [-0.024133347, -0.015701395]
XGRAD_ONE_STEP_RECORDED = [-0.0002592059, -2.4223242e-05]
# (bidirectional, 2 steps, loss (out * out).sum(): the counts of each node in the gradient's graph)
BI_COUNTS_RECORDED = {"AccumulateGrad": 9, "AddBackward0": 18, "AddmmBackward0": 8, "CatBackward0": 7,
                      "CloneBackward0": 2, "MkldnnRnnLayerBackward0": 2, "MmBackward0": 6, "MulBackward0": 74,
                      "SelectBackward0": 8, "SigmoidBackward0": 12, "SliceBackward0": 2, "SubBackward0": 20,
                      "TBackward0": 8, "TanhBackward0": 18, "UnsafeSplitBackward0": 4, "UnsqueezeBackward0": 4}


def _tensor(seed, *shape, dtype=minigrad.float64, requires_grad=True):
    values = np.random.default_rng(seed).uniform(-1, 1, shape)
    return minigrad.tensor(values, dtype=dtype, requires_grad=requires_grad)


def _names(fn):
    return [None if f is None else type(f).__name__ for f, _ in fn.next_functions]


# ------------------------------------------------------------------ parameters
def test_parameter_names_shapes_and_initialisation():
    lstm = nn.LSTM(3, 4, num_layers=2, bidirectional=True, proj_size=2)
    shapes = [(n, tuple(p.shape)) for n, p in lstm.named_parameters()]
    assert shapes[:5] == [("weight_ih_l0", (16, 3)), ("weight_hh_l0", (16, 2)), ("bias_ih_l0", (16,)),
                          ("bias_hh_l0", (16,)), ("weight_hr_l0", (2, 4))]
    assert [n for n, _ in shapes[5:10]] == ["weight_ih_l0_reverse", "weight_hh_l0_reverse", "bias_ih_l0_reverse",
                                           "bias_hh_l0_reverse", "weight_hr_l0_reverse"]
    assert shapes[10] == ("weight_ih_l1", (16, 4)) and len(shapes) == 20
    gru = nn.GRU(5, 6, bias=False)
    assert [(n, tuple(p.shape)) for n, p in gru.named_parameters()] == [("weight_ih_l0", (18, 5)),
                                                                        ("weight_hh_l0", (18, 6))]
    cell = nn.LSTMCell(3, 5)
    assert [(n, tuple(p.shape)) for n, p in cell.named_parameters()] == [
        ("weight_ih", (20, 3)), ("weight_hh", (20, 5)), ("bias_ih", (20,)), ("bias_hh", (20,))]
    assert nn.RNNCell(3, 4, bias=False).bias_ih is None
    for module, hidden in ((lstm, 4), (gru, 6), (cell, 5)):
        bound = 1 / math.sqrt(hidden)
        for p in module.parameters():
            assert p.requires_grad and float(p.detach().abs().max()) <= bound


def test_a_state_dict_of_numbers_loads_and_flatten_parameters_does_nothing():
    rnn = nn.RNN(2, 3, nonlinearity="relu", batch_first=True)
    state = {k: minigrad.tensor(np.full(tuple(v.shape), 0.1, np.float32)) for k, v in rnn.state_dict().items()}
    rnn.load_state_dict(state)
    rnn.flatten_parameters()
    assert float(rnn.weight_hh_l0.detach().sum()) == pytest.approx(0.9)
    assert rnn.all_weights[0][0] is rnn.weight_ih_l0
    assert repr(rnn) == "RNN(2, 3, batch_first=True)"
    assert repr(nn.LSTM(3, 4, num_layers=2, dropout=0.25, bidirectional=True, proj_size=2)) == \
        "LSTM(3, 4, proj_size=2, num_layers=2, dropout=0.25, bidirectional=True)"
    assert repr(nn.RNNCell(3, 4, bias=False, nonlinearity="relu")) == "RNNCell(3, 4, bias=False, nonlinearity=relu)"


# ------------------------------------------------------------------ graphs (recorded from PyTorch 2.13)
def test_float64_layers_record_the_per_step_graph():
    rnn = nn.RNN(3, 4, dtype=minigrad.float64)
    out, h = rnn(_tensor(0, 2, 2, 3))
    assert type(out.grad_fn).__name__ == "StackBackward0" and _names(out.grad_fn) == ["TanhBackward0"] * 2
    add = out.grad_fn.next_functions[0][0].next_functions[0][0]
    assert type(add).__name__ == "AddBackward0" and _names(add) == ["AddmmBackward0", "UnbindBackward0"]
    assert _names(add.next_functions[0][0]) == ["AccumulateGrad", None, "TBackward0"]  # h0: zeros
    assert _names(add.next_functions[1][0]) == ["ViewBackward0"]
    assert type(h.grad_fn).__name__ == "StackBackward0"
    lstm = nn.LSTM(3, 4, dtype=minigrad.float64)
    out, (h, c) = lstm(_tensor(1, 1, 2, 3))
    mul = out.grad_fn.next_functions[0][0]
    assert _names(mul) == ["SigmoidBackward0", "TanhBackward0"]
    assert type(mul.next_functions[0][0].next_functions[0][0]).__name__ == "UnsafeSplitBackward0"
    assert mul.next_functions[0][0].next_functions[0][1] == 3  # the output gate: the 4th chunk
    assert _names(c.grad_fn) == ["AddBackward0"]
    gru = nn.GRU(3, 4, dtype=minigrad.float64, batch_first=True)
    out, h = gru(_tensor(2, 2, 1, 3))
    assert type(out.grad_fn).__name__ == "TransposeBackward1"  # (transposed in place)
    assert _names(out.grad_fn.next_functions[0][0].next_functions[0][0]) == ["MulBackward0", "TanhBackward0"]


def test_a_float32_lstm_is_one_onednn_node_per_layer_and_direction():
    lstm = nn.LSTM(3, 4, num_layers=2, bidirectional=True)
    out, (h, c) = lstm(_tensor(3, 2, 2, 3, dtype=minigrad.float32, requires_grad=False))
    assert type(out.grad_fn).__name__ == "CatBackward0"
    assert _names(out.grad_fn) == ["MkldnnRnnLayerBackward0", "MkldnnRnnLayerBackward0"]
    layer = out.grad_fn.next_functions[0][0]
    assert _names(layer) == ["CatBackward0"] + ["AccumulateGrad"] * 4 + [None, None]
    assert layer._saved_reverse is False and out.grad_fn.next_functions[1][0]._saved_reverse is True
    assert layer._saved_hidden_size == 4 and layer._saved_mode == 2 and layer._saved_train is True
    assert [i for _, i in h.grad_fn.next_functions] == [1, 1, 1, 1] and c.grad_fn.next_functions[0][1] == 2
    out, _ = nn.LSTM(3, 4, bias=False)(_tensor(4, 2, 2, 3, dtype=minigrad.float32, requires_grad=False))
    assert _names(out.grad_fn) == [None, "AccumulateGrad", "AccumulateGrad", None, None, None, None]
    out, _ = nn.LSTM(3, 4, batch_first=True)(_tensor(5, 2, 2, 3, dtype=minigrad.float32))
    assert type(out.grad_fn).__name__ == "TransposeBackward0"
    assert _names(out.grad_fn.next_functions[0][0])[0] == "CloneBackward0"


def test_the_cells_write_in_place_as_pytorchs_do():
    x, h = _tensor(6, 2, 3), _tensor(7, 2, 4)
    out = nn.GRUCell(3, 4, dtype=minigrad.float64)(x, h)
    assert out._version == 2 and type(out.grad_fn).__name__ == "AddBackward0"
    hy, cy = nn.LSTMCell(3, 4, dtype=minigrad.float64)(x, (h, h))
    assert hy._version == 0 and cy._version == 1
    assert nn.RNNCell(3, 4, dtype=minigrad.float64)(x)._version == 0
    assert _names(minigrad.rnn_tanh_cell(x, h, _tensor(8, 4, 3), _tensor(9, 4, 4)).grad_fn) == ["AddBackward0"]


def test_dropout_between_layers_and_its_warning():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        nn.LSTM(3, 4, dropout=0.5)
    assert [str(w.message) for w in caught] == [
        "dropout option adds dropout after all but last recurrent layer, so non-zero dropout expects num_layers "
        "greater than 1, but got dropout=0.5 and num_layers=1"]
    gru = nn.GRU(3, 4, num_layers=2, dropout=0.5, dtype=minigrad.float64)
    x = minigrad.ones(2, 1, 3, dtype=minigrad.float64)
    assert ["StackBackward0", None] in [_names(n) for n in _nodes(gru(x)[0]) if type(n).__name__ == "MulBackward0"]
    gru.eval()  # no dropout: no product of the first layer's output with a mask
    assert ["StackBackward0", None] not in [_names(n) for n in _nodes(gru(x)[0]) if type(n).__name__ == "MulBackward0"]
    assert minigrad.equal(gru(x)[0], gru(x)[0])


def _nodes(t):
    seen, todo = [], [t.grad_fn]
    while todo:
        node = todo.pop()
        if node is not None and all(node is not s for s in seen):
            seen.append(node)
            todo.extend(f for f, _ in node.next_functions)
    return seen


def test_onednn_layers_gradient_can_be_differentiated_again():
    """Under create_graph=True the oneDNN layer's backward is made of tensor ops (numbers recorded from PyTorch)."""
    lstm = nn.LSTM(2, 2)
    with minigrad.no_grad():
        for i, p in enumerate(lstm.parameters()):
            p.copy_(minigrad.linspace(-0.5, 0.5, p.numel()).reshape(p.shape) * (i + 1))
    x = minigrad.tensor([[[0.5, -1.0]], [[1.5, 0.25]]], requires_grad=True)
    out, _ = lstm(x)
    g, = minigrad.autograd.grad(out.sum(), [x], create_graph=True)
    assert g.requires_grad and g.grad_fn is not None
    g.pow(2).sum().backward()
    assert np.allclose(g.detach().numpy().ravel(), G_RECORDED, rtol=1e-4, atol=1e-8)
    assert np.allclose(x.grad.numpy().ravel(), XGRAD_RECORDED, rtol=1e-4, atol=1e-8)


def _graph_names(t):
    """The names of the nodes under ``t.grad_fn``, each once, in breadth-first order."""
    order = [t.grad_fn]
    for node in order:  # (order grows while it is walked)
        for f, _ in node.next_functions:
            if f is not None and all(f is not s for s in order):
                order.append(f)
    return [type(n).__name__ for n in order]


def _linspace_lstm(**kw):
    lstm = nn.LSTM(2, 2, **kw)
    with minigrad.no_grad():
        for i, p in enumerate(lstm.parameters()):
            p.copy_(minigrad.linspace(-0.5, 0.5, p.numel()).reshape(p.shape) * (i + 1))
    return lstm


def test_the_onednn_layers_second_graph_is_pytorchs():
    """create_graph=True records PyTorch's mkldnn_rnn_layer_differentiable_backward op for op: the gates again
    (AddmmBackward0, UnsafeSplitBackward0, SigmoidBackward0, TanhBackward0), then the step's backward
    (MulBackward0, ``1 - t`` as SubBackward0 with no edge for the ones, CatBackward0, MmBackward0,
    UnsqueezeBackward0)."""
    x = minigrad.tensor([[[0.5, -1.0]]], requires_grad=True)
    out, _ = _linspace_lstm()(x)
    g, = minigrad.autograd.grad(out.sum(), [x], create_graph=True)
    assert _graph_names(g) == SECOND_GRAPH_RECORDED
    subs = [n for n in _nodes(g) if type(n).__name__ == "SubBackward0"]
    assert len(subs) == 5 and all(n.next_functions[0] == (None, 0) for n in subs)
    g.pow(2).sum().backward()
    assert np.allclose(g.detach().numpy().ravel(), G_ONE_STEP_RECORDED, rtol=1e-5, atol=1e-8)
    assert np.allclose(x.grad.numpy().ravel(), XGRAD_ONE_STEP_RECORDED, rtol=1e-5, atol=1e-10)


def test_a_bidirectional_layers_sliced_gradient_is_copied_contiguous():
    """Each direction's output gradient is a slice of the joined output's: PyTorch's ``grad_output.contiguous()``
    copies it (CloneBackward0 over SliceBackward0)."""
    x = minigrad.tensor([[[0.5, -1.0]], [[1.5, 0.25]]], requires_grad=True)
    out, _ = _linspace_lstm(bidirectional=True)(x)
    g, = minigrad.autograd.grad((out * out).sum(), [x], create_graph=True)
    names = _graph_names(g)
    assert {n: names.count(n) for n in set(names)} == BI_COUNTS_RECORDED
    clones = [n for n in _nodes(g) if type(n).__name__ == "CloneBackward0"]
    assert [_names(n) for n in clones] == [["SliceBackward0"]] * 2


# ------------------------------------------------------------------ errors (PyTorch's messages)
@pytest.mark.parametrize("make, error, message", [
    (lambda: nn.LSTM(3, 4)(minigrad.zeros(2, 2, 5)), RuntimeError,
     "input.size(-1) must be equal to input_size. Expected 3, got 5"),
    (lambda: nn.LSTM(3, 4)(minigrad.zeros(2, 2, 3, 1)), ValueError,
     "LSTM: Expected input to be 2D or 3D, got 4D instead"),
    (lambda: nn.RNN(3, 4)(minigrad.zeros(2, 2, 2, 3)), ValueError,
     "RNN: Expected input to be 2D or 3D, got 4D tensor instead"),
    (lambda: nn.RNN(3, 4)(minigrad.zeros(2, 2, 3), minigrad.zeros(1, 3, 4)), RuntimeError,
     "Expected hidden size (1, 2, 4), got [1, 3, 4]"),
    (lambda: nn.GRU(3, 4)(minigrad.zeros(2, 2, 3), minigrad.zeros(3, 4)), RuntimeError,
     "For batched 3-D input, hx should also be 3-D but got 2-D tensor"),
    (lambda: nn.LSTM(3, 4)(minigrad.zeros(2, 2, 3), (minigrad.zeros(1, 2, 4), minigrad.zeros(1, 2, 5))),
     RuntimeError, "Expected hidden[1] size (1, 2, 4), got [1, 2, 5]"),
    (lambda: nn.LSTM(3, 4)(minigrad.zeros(2, 3), (minigrad.zeros(1, 1, 4), minigrad.zeros(1, 1, 4))), RuntimeError,
     "For unbatched 2-D input, hx and cx should also be 2-D but got (3-D, 3-D) tensors"),
    (lambda: nn.RNNCell(3, 4)(minigrad.zeros(2, 5)), RuntimeError,
     "input has inconsistent input_size: got 5 expected 3"),
    (lambda: nn.RNNCell(3, 4)(minigrad.zeros(2, 3), minigrad.zeros(3, 4)), RuntimeError,
     "Input batch size 2 doesn't match hidden0 batch size 3"),
    (lambda: nn.LSTMCell(3, 4)(minigrad.zeros(2, 3), (minigrad.zeros(2, 4), minigrad.zeros(3, 4))), RuntimeError,
     "Input batch size 2 doesn't match hidden1 batch size 3"),
    (lambda: nn.GRUCell(3, 4)(minigrad.zeros(2, 3), minigrad.zeros(2, 6)), RuntimeError,
     "hidden0 has inconsistent hidden_size: got 6, expected 4"),
    (lambda: nn.GRUCell(3, 4)(minigrad.zeros(2, 3, 1)), ValueError,
     "GRUCell: Expected input to be 1D or 2D, got 3D instead"),
    (lambda: nn.LSTMCell(3, 4)(minigrad.zeros(2, 3), (minigrad.zeros(2, 4), minigrad.zeros(1, 2, 4))), ValueError,
     "LSTMCell: Expected hx[1] to be 1D or 2D, got 3D instead"),
    (lambda: nn.RNNCell(3, 4, nonlinearity="foo")(minigrad.zeros(2, 3)), RuntimeError, "Unknown nonlinearity: foo"),
    (lambda: nn.RNN(3, 4, nonlinearity="sigmoid"), ValueError,
     "Unknown nonlinearity 'sigmoid'. Select from 'tanh' or 'relu'."),
    (lambda: nn.GRU(3, 4, proj_size=2), ValueError, "proj_size argument is only supported for LSTM, not RNN or GRU"),
    (lambda: nn.LSTM(3, 4, proj_size=4), ValueError, "proj_size has to be smaller than hidden_size"),
    (lambda: nn.LSTM(3, 4, dropout=1.5), ValueError,
     "dropout should be a number in range [0, 1] representing the probability of an element being zeroed"),
    (lambda: nn.LSTM(3, 4.0), TypeError, "hidden_size should be of type int, got: float"),
    (lambda: nn.LSTM(3, 4, num_layers=0), ValueError, "num_layers must be greater than zero"),
    (lambda: pack_padded_sequence(minigrad.zeros(3, 2, 1), [3, 2, 1]), RuntimeError,
     "Expected `len(lengths)` to be equal to batch_size, but got 3 (batch_size=2)"),
    (lambda: pack_padded_sequence(minigrad.zeros(3, 2, 1), [1, 3]), RuntimeError,
     "`lengths` array must be sorted in decreasing order when `enforce_sorted` is True. You can pass "
     "`enforce_sorted=False` to pack_padded_sequence and/or pack_sequence to sidestep this requirement if you do not "
     "need ONNX exportability."),
    (lambda: pad_sequence([]), RuntimeError, "received an empty list of sequences"),
])
def test_errors(make, error, message):
    with pytest.raises(error) as info:
        make()
    assert str(info.value) == message


# ------------------------------------------------------------------ packed sequences
def test_packed_sequences_round_trip_and_skip_the_padding():
    x = _tensor(11, 3, 3, 2)
    packed = pack_padded_sequence(x, [1, 3, 2], enforce_sorted=False)
    assert packed.batch_sizes.tolist() == [3, 2, 1] and packed.sorted_indices.tolist() == [1, 2, 0]
    assert packed.unsorted_indices.tolist() == [2, 0, 1]
    assert type(packed.data.grad_fn).__name__ == "PackPaddedSequenceBackward0"
    padded, lengths = pad_packed_sequence(packed, batch_first=False)
    assert lengths.tolist() == [1, 3, 2]
    keep = np.array([[1, 1, 1], [0, 1, 1], [0, 1, 0]], bool)[:, :, None]
    assert np.array_equal(padded.detach().numpy(), np.where(keep, x.detach().numpy(), 0.0))
    padded.sum().backward()
    assert np.array_equal(x.grad.numpy(), np.broadcast_to(keep, (3, 3, 2)).astype(float))
    out, h = nn.GRU(2, 3, dtype=minigrad.float64)(packed)
    assert isinstance(out, nn.utils.rnn.PackedSequence) and tuple(h.shape) == (1, 3, 3)


# ------------------------------------------------------------------ gradients (float64, gradcheck)
@pytest.mark.parametrize("kind, kw", [("RNN", {}), ("RNN", dict(nonlinearity="relu", bias=False)),
                                      ("LSTM", dict(num_layers=2, bidirectional=True)), ("LSTM", dict(proj_size=1)),
                                      ("GRU", dict(batch_first=True))])
def test_layers_gradcheck(kind, kw):
    module = getattr(nn, kind)(2, 2, dtype=minigrad.float64, **kw)
    x = _tensor(12, 2, 2, 2)
    params = list(module.parameters())[-4:]  # (the last layer's, or its reverse direction's: fewer to nudge)

    def run(x, *weights):
        out, hidden = module(x)
        hidden = hidden if isinstance(hidden, tuple) else (hidden,)
        return (out,) + hidden
    assert gradcheck(run, (x, *params))


@pytest.mark.parametrize("cell", ["rnn_tanh_cell", "rnn_relu_cell", "lstm_cell", "gru_cell"])
def test_cells_gradcheck(cell):
    gates = {"lstm_cell": 4, "gru_cell": 3}.get(cell, 1)
    x, h, c = _tensor(13, 2, 3), _tensor(14, 2, 4), _tensor(15, 2, 4)
    w_ih, w_hh, b_ih, b_hh = _tensor(16, gates * 4, 3), _tensor(17, gates * 4, 4), _tensor(18, gates * 4), \
        _tensor(19, gates * 4)
    fn = getattr(minigrad, cell)
    if cell == "lstm_cell":
        assert gradcheck(lambda x, h, c, *w: fn(x, (h, c), *w), (x, h, c, w_ih, w_hh, b_ih, b_hh))
    else:
        assert gradcheck(fn, (x, h, w_ih, w_hh, b_ih, b_hh))


@pytest.mark.parametrize("reverse", [False, True])
def test_the_onednn_layers_backward_gradcheck(reverse):
    """The op a float32 LSTM records, run in float64 so that its backpropagation through time can be checked."""
    inputs = (_tensor(20, 3, 1, 2), _tensor(21, 8, 2), _tensor(22, 8, 2), _tensor(23, 8), _tensor(24, 8),
              _tensor(25, 1, 2), _tensor(26, 1, 2))
    assert gradcheck(lambda *t: mkldnn_rnn_layer(*t, reverse, 1, True, False, True, False), inputs)
    assert gradgradcheck(lambda *t: mkldnn_rnn_layer(*t, reverse, 1, True, False, True, False), inputs)


def test_packed_gradcheck():
    module = nn.LSTM(2, 3, bidirectional=True, dtype=minigrad.float64)
    x = _tensor(27, 3, 3, 2)

    def run(x):
        out, (h, c) = module(pack_padded_sequence(x, [3, 1, 2], enforce_sorted=False))
        return pad_packed_sequence(out)[0], h, c
    assert gradcheck(run, (x,))


def test_pack_padded_sequences_backward_copies_into_views_of_zeros():
    """PyTorch's _pack_padded_sequence_backward under create_graph: CopySlices per step (recorded from 2.13)."""
    x = _tensor(11, 3, 2, 2)
    packed = pack_padded_sequence(x, [3, 2])
    g, = minigrad.autograd.grad((packed.data ** 3).sum(), [x], create_graph=True)
    assert _graph_names(g) == ["CopySlices", "CopySlices", "SliceBackward0", "CopySlices", "SliceBackward0",
                               "MulBackward0", "SliceBackward0", "MulBackward1", "PowBackward0",
                               "PackPaddedSequenceBackward0", "AccumulateGrad"]
    expected = 3 * x.detach().numpy() ** 2
    expected[2, 1] = 0  # (the second sequence has 2 steps: its third is padding)
    assert np.allclose(g.detach().numpy(), expected)
