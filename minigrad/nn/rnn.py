"""Recurrent layers: ``RNN``, ``LSTM``, ``GRU`` and one step of each, ``RNNCell``, ``LSTMCell``, ``GRUCell``.
PyTorch: ``torch/nn/modules/rnn.py`` (the modules) and ``aten/src/ATen/native/RNN.cpp`` (what ``_VF.lstm`` runs).

On the CPU PyTorch composes a layer from ordinary ops, step by step, and minigrad composes the same ones, so
the graph has the same nodes: the input projection of all the time steps first (one ``linear``, then
``unbind(0)``), then per step the hidden projection (``AddmmBackward0``), the gates (``UnsafeSplitBackward0``,
``SigmoidBackward0``, ``TanhBackward0`` ...), and at the end ``stack`` of the steps' outputs.  A float32 LSTM
is different: PyTorch hands each layer and direction to oneDNN whole (one ``MkldnnRnnLayerBackward0`` node),
and minigrad has one op for it too (``ops/recurrent.py``).
"""
import math
import numbers
import warnings

from .. import creation
from .._core.tensor_base import _warn_once
from ..ops.recurrent import mkldnn_rnn_layer, unsafe_chunk
from ..ops.shape import cat, stack
from . import functional as F
from . import init
from .module import Module
from .parameter import Parameter
from .utils.rnn import PackedSequence


# ------------------------------------------------------------------ one step (PyTorch's cells in RNN.cpp)
# The cells write into the tensors they just made (add_, sigmoid_, tanh_, mul_), as PyTorch's do: the nodes are the
# same as out of place, and so are the results' versions (a GRU cell's result is at version 2).
def _input_gates(input, w_ih, b_ih, pre_computed):
    """A cell's input projection: ``input`` itself when the layer projected all the steps at once."""
    return input if pre_computed else F.linear(input, w_ih, b_ih)


def simple_cell(input, hidden, params, nonlinearity, pre_computed=False):
    """One step of an Elman RNN: ``act(hidden @ w_hh^T + b_hh + input @ w_ih^T + b_ih)`` (``SimpleCell``)."""
    w_ih, w_hh, b_ih, b_hh = params[:4]
    gates = F.linear(hidden, w_hh, b_hh).add_(_input_gates(input, w_ih, b_ih, pre_computed))
    return gates.tanh() if nonlinearity == "tanh" else gates.relu()


def lstm_cell_step(input, hidden, params, pre_computed=False):
    """One step of an LSTM (``LSTMCell`` in RNN.cpp): the gates ``i, f, g, o`` from one sum of projections,
    ``cy = f * cx + i * g``, ``hy = o * tanh(cy)`` (times ``w_hr^T`` when the LSTM has projections)."""
    w_ih, w_hh, b_ih, b_hh, w_hr = params
    hx, cx = hidden
    gates = F.linear(hx, w_hh, b_hh).add_(_input_gates(input, w_ih, b_ih, pre_computed))
    ingate, forgetgate, cellgate, outgate = unsafe_chunk(gates, 4, 1)
    ingate, forgetgate = ingate.sigmoid_(), forgetgate.sigmoid_()
    cellgate, outgate = cellgate.tanh_(), outgate.sigmoid_()
    cy = (forgetgate * cx).add_(ingate * cellgate)
    hy = outgate * cy.tanh()
    if w_hr is not None:
        hy = hy.matmul(w_hr.t())
    return hy, cy


def gru_cell_step(input, hidden, params, pre_computed=False):
    """One step of a GRU (``GRUCell`` in RNN.cpp): reset gate ``r``, update gate ``z``, new gate
    ``n = tanh(x_n + r * h_n)``; ``hy = (hidden - n) * z + n``."""
    w_ih, w_hh, b_ih, b_hh = params[:4]
    chunked_igates = unsafe_chunk(_input_gates(input, w_ih, b_ih, pre_computed), 3, 1)
    chunked_hgates = unsafe_chunk(F.linear(hidden, w_hh, b_hh), 3, 1)
    reset_gate = chunked_hgates[0].add_(chunked_igates[0]).sigmoid_()
    input_gate = chunked_hgates[1].add_(chunked_igates[1]).sigmoid_()
    new_gate = chunked_igates[2].add(chunked_hgates[2].mul_(reset_gate)).tanh_()
    return (hidden - new_gate).mul_(input_gate).add_(new_gate)


def _cell(mode):
    """The step function of a layer of kind ``mode``."""
    if mode == "LSTM":
        return lstm_cell_step
    if mode == "GRU":
        return gru_cell_step
    nonlinearity = "tanh" if mode == "RNN_TANH" else "relu"
    return lambda input, hidden, params, pre_computed=False: simple_cell(input, hidden, params, nonlinearity,
                                                                         pre_computed)


# ------------------------------------------------------------------ a whole sequence
def _full_layer(cell, input, hidden, params, reverse):
    """One layer and direction over all the steps (``FullLayer``/``ReversedFullLayer``): the input projection of
    every step in one product, then a loop over the recurrence only; the outputs stacked in time order."""
    w_ih, b_ih = params[0], params[2]
    steps = F.linear(input, w_ih, b_ih).unbind(0)
    outputs = [None] * len(steps)
    for t in (reversed(range(len(steps))) if reverse else range(len(steps))):
        hidden = cell(steps[t], hidden, params, True)
        outputs[t] = hidden[0] if isinstance(hidden, tuple) else hidden
    return stack(outputs, 0), hidden


def _mkldnn_layer(input, hidden, params, reverse, num_layers, bidirectional, train, batch_first):
    """A float32 LSTM's layer and direction, as oneDNN runs it (``MkldnnRnnLayerBackward0``)."""
    w_ih, w_hh, b_ih, b_hh, _ = params
    has_biases = b_ih is not None
    if not has_biases:  # (PyTorch passes zeros)
        b_ih = b_hh = creation.zeros(w_ih.shape[0], dtype=w_ih.dtype)
    output, hy, cy = mkldnn_rnn_layer(input, w_ih, w_hh, b_ih, b_hh, hidden[0], hidden[1], reverse, num_layers,
                                      has_biases, bidirectional, train, batch_first)
    return output, (hy, cy)


def _layers(mode, input, hiddens, params, num_layers, dropout, train, bidirectional, mkldnn, batch_first=False):
    """The layers one on another (``apply_layer_stack``): each direction over the sequence, the two directions'
    outputs joined (``cat``), dropout between layers in training; the final hiddens of every layer."""
    cell, directions = _cell(mode), 2 if bidirectional else 1
    layer_input, finals = input, []
    for layer in range(num_layers):
        outputs = []
        for direction in range(directions):
            index = layer * directions + direction
            if mkldnn:
                output, final = _mkldnn_layer(layer_input, hiddens[index], params[index], direction == 1,
                                              num_layers, bidirectional, train, batch_first)
            else:
                output, final = _full_layer(cell, layer_input, hiddens[index], params[index], direction == 1)
            outputs.append(output)
            finals.append(final)
        layer_input = cat(outputs, outputs[0].dim() - 1) if bidirectional else outputs[0]
        if dropout != 0 and train and layer < num_layers - 1:
            layer_input = F.dropout(layer_input, dropout, True)
    return layer_input, finals


def _use_mkldnn(mode, input, params):
    """PyTorch's ``use_mkldnn``: a float32 LSTM without projections on the CPU, with some numbers in it."""
    if mode != "LSTM" or input.dtype.name != "float32" or input.numel() == 0:
        return False
    if params[0][4] is not None:
        _warn_once("LSTM with projections is not supported with oneDNN. Using default implementation.")
        return False
    return True


def rnn_forward(mode, input, hx, params, num_layers, dropout, train, bidirectional, batch_first):
    """``_VF.rnn_tanh``/``rnn_relu``/``gru``/``lstm`` for a padded ``input`` (PyTorch's ``_rnn_impl_with_concat``
    and ``lstm_mkldnn``): ``(output, h_n)`` or, for an LSTM, ``(output, (h_n, c_n))``."""
    mkldnn = _use_mkldnn(mode, input, params)
    if mkldnn:  # (oneDNN takes the time-major input in one piece, and each layer's state by select)
        input = input.transpose(0, 1).contiguous() if batch_first else input
        count = hx[0].shape[0]
        hiddens = [(hx[0].select(0, i), hx[1].select(0, i)) for i in range(count)]
    else:
        input = input.transpose(0, 1) if batch_first else input
        hiddens = list(zip(hx[0].unbind(0), hx[1].unbind(0))) if mode == "LSTM" else hx.unbind(0)
    output, finals = _layers(mode, input, hiddens, params, num_layers, dropout, train, bidirectional, mkldnn,
                             batch_first)
    if batch_first:  # (PyTorch transposes an RNN's or a GRU's result in place, an LSTM's not)
        output = output.transpose(0, 1) if mode == "LSTM" else output.transpose_(0, 1)
    if mode == "LSTM":
        return output, (stack([h for h, c in finals], 0), stack([c for h, c in finals], 0))
    return output, stack(finals, 0)


# ------------------------------------------------------------------ the modules
class RNNBase(Module):
    """What ``RNN``, ``LSTM`` and ``GRU`` share: the parameters of every layer and direction, named as PyTorch
    names them (``weight_ih_l0``, ``weight_hh_l0``, ``bias_ih_l0``, ``bias_hh_l0``, ``weight_hr_l0`` with
    projections, ``..._reverse`` for the second direction), all uniform in ``[-1/sqrt(hidden), 1/sqrt(hidden)]``."""

    def __init__(self, mode, input_size, hidden_size, num_layers=1, bias=True, batch_first=False, dropout=0.0,
                 bidirectional=False, proj_size=0, device=None, dtype=None):
        super().__init__()
        self.mode = mode
        self.input_size = input_size
        self.hidden_size = hidden_size
        self.num_layers = num_layers
        self.bias = bias
        self.batch_first = batch_first
        self.dropout = float(dropout)
        self.bidirectional = bidirectional
        self.proj_size = proj_size
        _check_arguments(input_size, hidden_size, num_layers, bias, batch_first, dropout, proj_size)
        gate_size = {"LSTM": 4, "GRU": 3, "RNN_TANH": 1, "RNN_RELU": 1}[mode] * hidden_size
        directions = 2 if bidirectional else 1
        real_hidden_size = proj_size if proj_size > 0 else hidden_size
        self._flat_weights_names, self._all_weights = [], []
        for layer in range(num_layers):
            for direction in range(directions):
                layer_input_size = input_size if layer == 0 else real_hidden_size * directions
                shapes = [(gate_size, layer_input_size), (gate_size, real_hidden_size)]
                names = ["weight_ih_l{}{}", "weight_hh_l{}{}"]
                if bias:
                    shapes += [(gate_size,), (gate_size,)]
                    names += ["bias_ih_l{}{}", "bias_hh_l{}{}"]
                if proj_size > 0:
                    shapes.append((proj_size, hidden_size))
                    names.append("weight_hr_l{}{}")
                names = [name.format(layer, "_reverse" if direction == 1 else "") for name in names]
                for name, shape in zip(names, shapes):
                    setattr(self, name, Parameter(creation.empty(*shape, dtype=dtype, device=device)))
                self._flat_weights_names.extend(names)
                self._all_weights.append(names)
        self.reset_parameters()

    def reset_parameters(self):
        stdv = 1.0 / math.sqrt(self.hidden_size) if self.hidden_size > 0 else 0
        for weight in self.parameters():
            init.uniform_(weight, -stdv, stdv)

    def flatten_parameters(self):
        """Lays the weights out in one block for cuDNN; on the CPU (and in minigrad) it does nothing."""

    @property
    def _flat_weights(self):
        return [getattr(self, name, None) for name in self._flat_weights_names]

    @property
    def all_weights(self):
        return [[getattr(self, name) for name in names] for names in self._all_weights]

    def _layer_params(self):
        """Per layer and direction: ``(w_ih, w_hh, b_ih, b_hh, w_hr)``, None for what the layer does not have."""
        params = []
        for names in self._all_weights:
            weights = [getattr(self, name) for name in names]
            w_ih, w_hh = weights[:2]
            b_ih, b_hh = weights[2:4] if self.bias else (None, None)
            params.append((w_ih, w_hh, b_ih, b_hh, weights[-1] if self.proj_size > 0 else None))
        return params

    def check_input(self, input, batch_sizes):
        if input.dtype != self._flat_weights[0].dtype:
            weight_dtype = self._flat_weights[0].dtype
            raise ValueError(f"RNN input dtype ({input.dtype}) does not match weight dtype ({weight_dtype}). "
                             f"Convert input: input.to({weight_dtype}), or convert model: model.to({input.dtype})")
        expected_input_dim = 2 if batch_sizes is not None else 3
        if input.dim() != expected_input_dim:
            raise RuntimeError(f"input must have {expected_input_dim} dimensions, got {input.dim()}")
        if self.input_size != input.size(-1):
            raise RuntimeError(f"input.size(-1) must be equal to input_size. Expected {self.input_size}, "
                               f"got {input.size(-1)}")

    def get_expected_hidden_size(self, input, batch_sizes):
        if batch_sizes is not None:
            mini_batch = int(batch_sizes[0])
        else:
            mini_batch = input.size(0) if self.batch_first else input.size(1)
        directions = 2 if self.bidirectional else 1
        size = self.proj_size if self.proj_size > 0 else self.hidden_size
        return (self.num_layers * directions, mini_batch, size)

    def check_hidden_size(self, hx, expected_hidden_size, msg="Expected hidden size {}, got {}"):
        if hx.size() != expected_hidden_size:
            raise RuntimeError(msg.format(expected_hidden_size, list(hx.size())))

    def check_forward_args(self, input, hidden, batch_sizes):
        self.check_input(input, batch_sizes)
        self.check_hidden_size(hidden, self.get_expected_hidden_size(input, batch_sizes))

    def permute_hidden(self, hx, permutation):
        if permutation is None:
            return hx
        return hx.index_select(1, permutation)

    def _run_layers(self, input, hx, batch_sizes, sorted_indices, unsorted_indices):
        """Check the arguments and run the layers; a packed input (``batch_sizes``) gives a ``PackedSequence`` back
        and the hidden state in the caller's order."""
        self.check_forward_args(input, hx, batch_sizes)
        if batch_sizes is not None:
            output, hidden = packed_forward(self.mode, input, batch_sizes, hx, self._layer_params(),
                                            self.num_layers, self.dropout, self.training, self.bidirectional)
            return (PackedSequence(output, batch_sizes, sorted_indices, unsorted_indices),
                    self.permute_hidden(hidden, unsorted_indices))
        return rnn_forward(self.mode, input, hx, self._layer_params(), self.num_layers, self.dropout,
                           self.training, self.bidirectional, self.batch_first)

    def _zeros(self, input, max_batch_size, size):
        directions = 2 if self.bidirectional else 1
        return creation.zeros(self.num_layers * directions, max_batch_size, size, dtype=input.dtype)

    def _forward_one_hidden(self, name, input, hx):
        """``RNN.forward`` and ``GRU.forward``: one hidden state."""
        orig_input = input
        if isinstance(orig_input, PackedSequence):
            input, batch_sizes, sorted_indices, unsorted_indices = input
            hx = self._zeros(input, int(batch_sizes[0]), self.hidden_size) if hx is None else \
                self.permute_hidden(hx, sorted_indices)
        else:
            batch_sizes = sorted_indices = unsorted_indices = None
            if input.dim() not in (2, 3):
                raise ValueError(f"{name}: Expected input to be 2D or 3D, got {input.dim()}D "
                                 f"{'tensor ' if name == 'RNN' else ''}instead")
            is_batched = input.dim() == 3
            batch_dim = 0 if self.batch_first else 1
            if not is_batched:
                input = input.unsqueeze(batch_dim)
                if hx is not None:
                    if hx.dim() != 2:
                        raise RuntimeError(f"For unbatched 2-D input, hx should also be 2-D but got {hx.dim()}-D "
                                           "tensor")
                    hx = hx.unsqueeze(1)
            elif hx is not None and hx.dim() != 3:
                raise RuntimeError(f"For batched 3-D input, hx should also be 3-D but got {hx.dim()}-D tensor")
            max_batch_size = input.size(0) if self.batch_first else input.size(1)
            hx = self._zeros(input, max_batch_size, self.hidden_size) if hx is None else hx
        output, hidden = self._run_layers(input, hx, batch_sizes, sorted_indices, unsorted_indices)
        if batch_sizes is None and not is_batched:
            output = output.squeeze(batch_dim)
            hidden = hidden.squeeze(1)
        return output, hidden

    def extra_repr(self):
        s = "{input_size}, {hidden_size}"
        if self.proj_size != 0:
            s += ", proj_size={proj_size}"
        if self.num_layers != 1:
            s += ", num_layers={num_layers}"
        if self.bias is not True:
            s += ", bias={bias}"
        if self.batch_first is not False:
            s += ", batch_first={batch_first}"
        if self.dropout != 0:
            s += ", dropout={dropout}"
        if self.bidirectional is not False:
            s += ", bidirectional={bidirectional}"
        return s.format(**self.__dict__)


def _check_arguments(input_size, hidden_size, num_layers, bias, batch_first, dropout, proj_size):
    """``RNNBase.__init__``'s checks, with PyTorch's errors and its warning about dropout with one layer."""
    if not isinstance(dropout, numbers.Number) or not 0 <= dropout <= 1 or isinstance(dropout, bool):
        raise ValueError("dropout should be a number in range [0, 1] representing the probability of an element "
                         "being zeroed")
    if dropout > 0 and num_layers == 1:
        warnings.warn("dropout option adds dropout after all but last recurrent layer, so non-zero dropout expects "
                      f"num_layers greater than 1, but got dropout={dropout} and num_layers={num_layers}",
                      stacklevel=4)
    for name, value, kind in (("bias", bias, bool), ("batch_first", batch_first, bool),
                              ("input_size", input_size, int), ("hidden_size", hidden_size, int)):
        if not isinstance(value, kind):
            raise TypeError(f"{name} should be of type {kind.__name__}, got: {type(value).__name__}")
        if kind is int and value <= 0:
            raise ValueError(f"{name} must be greater than zero")
    if num_layers <= 0:
        raise ValueError("num_layers must be greater than zero")
    if proj_size < 0:
        raise ValueError("proj_size should be a positive integer or zero to disable projections")
    if proj_size >= hidden_size:
        raise ValueError("proj_size has to be smaller than hidden_size")


class RNN(RNNBase):
    """An Elman RNN: ``h_t = tanh(x_t @ W_ih^T + b_ih + h_{t-1} @ W_hh^T + b_hh)`` (or relu), per layer.
    PyTorch: ``torch.nn.RNN``; returns ``(output, h_n)``."""

    def __init__(self, *args, **kwargs):
        if "proj_size" in kwargs:
            raise ValueError("proj_size argument is only supported for LSTM, not RNN or GRU")
        if len(args) > 3:
            self.nonlinearity = args[3]
            args = args[:3] + args[4:]
        else:
            self.nonlinearity = kwargs.pop("nonlinearity", "tanh")
        if self.nonlinearity == "tanh":
            mode = "RNN_TANH"
        elif self.nonlinearity == "relu":
            mode = "RNN_RELU"
        else:
            raise ValueError(f"Unknown nonlinearity '{self.nonlinearity}'. Select from 'tanh' or 'relu'.")
        super().__init__(mode, *args, **kwargs)

    def forward(self, input, hx=None):
        return self._forward_one_hidden("RNN", input, hx)


class GRU(RNNBase):
    """A gated recurrent unit layer (PyTorch: ``torch.nn.GRU``); returns ``(output, h_n)``."""

    def __init__(self, *args, **kwargs):
        if "proj_size" in kwargs:
            raise ValueError("proj_size argument is only supported for LSTM, not RNN or GRU")
        super().__init__("GRU", *args, **kwargs)

    def forward(self, input, hx=None):
        return self._forward_one_hidden("GRU", input, hx)


class LSTM(RNNBase):
    """A long short-term memory layer (PyTorch: ``torch.nn.LSTM``); returns ``(output, (h_n, c_n))``."""

    def __init__(self, *args, **kwargs):
        super().__init__("LSTM", *args, **kwargs)

    def get_expected_cell_size(self, input, batch_sizes):
        if batch_sizes is not None:
            mini_batch = int(batch_sizes[0])
        else:
            mini_batch = input.size(0) if self.batch_first else input.size(1)
        directions = 2 if self.bidirectional else 1
        return (self.num_layers * directions, mini_batch, self.hidden_size)

    def check_forward_args(self, input, hidden, batch_sizes):
        self.check_input(input, batch_sizes)
        self.check_hidden_size(hidden[0], self.get_expected_hidden_size(input, batch_sizes),
                               "Expected hidden[0] size {}, got {}")
        self.check_hidden_size(hidden[1], self.get_expected_cell_size(input, batch_sizes),
                               "Expected hidden[1] size {}, got {}")

    def permute_hidden(self, hx, permutation):
        if permutation is None:
            return hx
        return hx[0].index_select(1, permutation), hx[1].index_select(1, permutation)

    def forward(self, input, hx=None):
        orig_input = input
        real_hidden_size = self.proj_size if self.proj_size > 0 else self.hidden_size
        if isinstance(orig_input, PackedSequence):
            input, batch_sizes, sorted_indices, unsorted_indices = input
            max_batch_size = int(batch_sizes[0])
            if hx is None:
                hx = (self._zeros(input, max_batch_size, real_hidden_size),
                      self._zeros(input, max_batch_size, self.hidden_size))
            else:
                hx = self.permute_hidden(hx, sorted_indices)
        else:
            batch_sizes = sorted_indices = unsorted_indices = None
            if input.dim() not in (2, 3):
                raise ValueError(f"LSTM: Expected input to be 2D or 3D, got {input.dim()}D instead")
            is_batched = input.dim() == 3
            batch_dim = 0 if self.batch_first else 1
            if not is_batched:
                input = input.unsqueeze(batch_dim)
            max_batch_size = input.size(0) if self.batch_first else input.size(1)
            if hx is None:
                hx = (self._zeros(input, max_batch_size, real_hidden_size),
                      self._zeros(input, max_batch_size, self.hidden_size))
            else:
                dims = (hx[0].dim(), hx[1].dim())
                if is_batched and dims != (3, 3):
                    raise RuntimeError(f"For batched 3-D input, hx and cx should also be 3-D but got "
                                       f"({dims[0]}-D, {dims[1]}-D) tensors")
                if not is_batched:
                    if dims != (2, 2):
                        raise RuntimeError(f"For unbatched 2-D input, hx and cx should also be 2-D but got "
                                           f"({dims[0]}-D, {dims[1]}-D) tensors")
                    hx = (hx[0].unsqueeze(1), hx[1].unsqueeze(1))
        output, hidden = self._run_layers(input, hx, batch_sizes, sorted_indices, unsorted_indices)
        if batch_sizes is None and not is_batched:
            output = output.squeeze(batch_dim)
            hidden = (hidden[0].squeeze(1), hidden[1].squeeze(1))
        return output, hidden


# ------------------------------------------------------------------ packed sequences
def packed_forward(mode, data, batch_sizes, hx, params, num_layers, dropout, train, bidirectional):
    """A layer stack over a ``PackedSequence``'s ``data`` (PyTorch's ``PackedLayer``): step ``t`` takes the first
    ``batch_sizes[t]`` sequences; a sequence that ends leaves its last hidden state behind."""
    cell, directions = _cell(mode), 2 if bidirectional else 1
    lstm = mode == "LSTM"
    hiddens = list(zip(hx[0].unbind(0), hx[1].unbind(0))) if lstm else list(hx.unbind(0))
    sizes = [int(b) for b in batch_sizes]
    layer_input, finals = data, []
    for layer in range(num_layers):
        outputs = []
        for direction in range(directions):
            index = layer * directions + direction
            run = _packed_reversed_layer if direction == 1 else _packed_layer
            output, final = run(cell, layer_input, sizes, hiddens[index], params[index], lstm)
            outputs.append(output)
            finals.append(final)
        layer_input = cat(outputs, 1) if bidirectional else outputs[0]
        if dropout != 0 and train and layer < num_layers - 1:
            layer_input = F.dropout(layer_input, dropout, True)
    if lstm:
        return layer_input, (stack([h for h, c in finals], 0), stack([c for h, c in finals], 0))
    return layer_input, stack(finals, 0)


def _narrow(hidden, size, lstm):
    return (hidden[0].narrow(0, 0, size), hidden[1].narrow(0, 0, size)) if lstm else hidden.narrow(0, 0, size)


def _packed_layer(cell, data, sizes, hidden, params, lstm):
    """``PackedLayer``: forwards in time; the batch shrinks, and the rows that drop out are final states.  Each
    step's rows of the input projection are taken (``narrow``) in the loop, as PyTorch does: the order the nodes
    are made in is the order backward runs them in."""
    projected = F.linear(data, params[0], params[2])
    outputs, left = [], []
    last, offset = sizes[0], 0
    for size in sizes:
        step = projected.narrow(0, offset, size)
        offset += size
        if size < last:  # sequences that ended: keep their last hidden state
            left.append(_slice(hidden, size, last, lstm))
            hidden = _narrow(hidden, size, lstm)
        last = size
        hidden = cell(step, hidden, params, True)
        outputs.append(hidden[0] if lstm else hidden)
    left.append(hidden)
    left.reverse()
    output = cat(outputs, 0)  # (before the final states, as PyTorch: the order its backward runs them in)
    if lstm:
        final = (cat([h for h, c in left], 0), cat([c for h, c in left], 0))
    else:
        final = cat(left, 0)
    return output, final


def _slice(hidden, start, end, lstm):
    if lstm:
        return hidden[0].narrow(0, start, end - start), hidden[1].narrow(0, start, end - start)
    return hidden.narrow(0, start, end - start)


def _packed_reversed_layer(cell, data, sizes, hidden, params, lstm):
    """``ReversedPackedLayer``: backwards in time; the batch grows, the new rows start from the initial state."""
    projected = F.linear(data, params[0], params[2])
    initial = hidden
    outputs = [None] * len(sizes)
    hidden = _narrow(initial, sizes[-1], lstm)
    last, offset = sizes[-1], projected.shape[0]
    for t in range(len(sizes) - 1, -1, -1):
        size = sizes[t]
        if size > last:  # sequences that start here join with the initial state
            extra = _slice(initial, last, size, lstm)
            hidden = (cat([hidden[0], extra[0]], 0), cat([hidden[1], extra[1]], 0)) if lstm else cat([hidden, extra], 0)
        last = size
        step = projected.narrow(0, offset - size, size)
        offset -= size
        hidden = cell(step, hidden, params, True)
        outputs[t] = hidden[0] if lstm else hidden
    return cat(outputs, 0), hidden


# ------------------------------------------------------------------ the cells
class RNNCellBase(Module):
    """What the cells share: ``weight_ih``, ``weight_hh``, ``bias_ih``, ``bias_hh``, uniform in
    ``[-1/sqrt(hidden), 1/sqrt(hidden)]``."""

    def __init__(self, input_size, hidden_size, bias, num_chunks, device=None, dtype=None):
        super().__init__()
        self.input_size = input_size
        self.hidden_size = hidden_size
        self.bias = bias
        self.weight_ih = Parameter(creation.empty(num_chunks * hidden_size, input_size, dtype=dtype, device=device))
        self.weight_hh = Parameter(creation.empty(num_chunks * hidden_size, hidden_size, dtype=dtype, device=device))
        if bias:
            self.bias_ih = Parameter(creation.empty(num_chunks * hidden_size, dtype=dtype, device=device))
            self.bias_hh = Parameter(creation.empty(num_chunks * hidden_size, dtype=dtype, device=device))
        else:
            self.register_parameter("bias_ih", None)
            self.register_parameter("bias_hh", None)
        self.reset_parameters()

    def extra_repr(self):
        s = "{input_size}, {hidden_size}"
        if "bias" in self.__dict__ and self.bias is not True:
            s += ", bias={bias}"
        if "nonlinearity" in self.__dict__ and self.nonlinearity != "tanh":
            s += ", nonlinearity={nonlinearity}"
        return s.format(**self.__dict__)

    def reset_parameters(self):
        stdv = 1.0 / math.sqrt(self.hidden_size) if self.hidden_size > 0 else 0
        for weight in self.parameters():
            init.uniform_(weight, -stdv, stdv)

    def _batched(self, name, input, hx, hidden_name="hidden"):
        """The cells' checks of dimensions, and an unbatched (1-D) input made a batch of one."""
        if input.dim() not in (1, 2):
            raise ValueError(f"{name}: Expected input to be 1D or 2D, got {input.dim()}D instead")
        for i, value in enumerate(hx if isinstance(hx, tuple) else (hx,)):
            if value is not None and value.dim() not in (1, 2):
                label = f"hx[{i}]" if isinstance(hx, tuple) else hidden_name
                raise ValueError(f"{name}: Expected {label} to be 1D or 2D, got {value.dim()}D instead")
        is_batched = input.dim() == 2
        if not is_batched:
            input = input.unsqueeze(0)
        return input, is_batched

    def _zeros(self, input):
        return creation.zeros(input.size(0), self.hidden_size, dtype=input.dtype)


def _check_cell(input, hiddens, w_ih, w_hh):
    """PyTorch's ``check_rnn_cell_forward_input`` and ``check_rnn_cell_forward_hidden``."""
    if input.size(1) != w_ih.size(1):
        raise RuntimeError(f"input has inconsistent input_size: got {input.size(1)} expected {w_ih.size(1)}")
    for i, hx in enumerate(hiddens):
        if input.size(0) != hx.size(0):
            raise RuntimeError(f"Input batch size {input.size(0)} doesn't match hidden{i} batch size {hx.size(0)}")
        if hx.size(1) != w_hh.size(1):
            raise RuntimeError(f"hidden{i} has inconsistent hidden_size: got {hx.size(1)}, expected {w_hh.size(1)}")


def rnn_tanh_cell(input, hx, w_ih, w_hh, b_ih=None, b_hh=None):
    """``torch.rnn_tanh_cell``: one step of an Elman RNN with tanh."""
    _check_cell(input, [hx], w_ih, w_hh)
    return simple_cell(input, hx, (w_ih, w_hh, b_ih, b_hh), "tanh")


def rnn_relu_cell(input, hx, w_ih, w_hh, b_ih=None, b_hh=None):
    """``torch.rnn_relu_cell``: one step of an Elman RNN with relu."""
    _check_cell(input, [hx], w_ih, w_hh)
    return simple_cell(input, hx, (w_ih, w_hh, b_ih, b_hh), "relu")


def lstm_cell(input, hx, w_ih, w_hh, b_ih=None, b_hh=None):
    """``torch.lstm_cell``: one step of an LSTM, ``(hy, cy)`` from ``hx = (h, c)``."""
    _check_cell(input, list(hx), w_ih, w_hh)
    return lstm_cell_step(input, tuple(hx), (w_ih, w_hh, b_ih, b_hh, None))


def gru_cell(input, hx, w_ih, w_hh, b_ih=None, b_hh=None):
    """``torch.gru_cell``: one step of a GRU."""
    _check_cell(input, [hx], w_ih, w_hh)
    return gru_cell_step(input, hx, (w_ih, w_hh, b_ih, b_hh))


class RNNCell(RNNCellBase):
    """One step of an Elman RNN (PyTorch: ``torch.nn.RNNCell``): ``h' = tanh(x W_ih^T + b_ih + h W_hh^T + b_hh)``."""

    def __init__(self, input_size, hidden_size, bias=True, nonlinearity="tanh", device=None, dtype=None):
        super().__init__(input_size, hidden_size, bias, num_chunks=1, device=device, dtype=dtype)
        self.nonlinearity = nonlinearity

    def forward(self, input, hx=None):
        input, is_batched = self._batched("RNNCell", input, hx)
        hx = self._zeros(input) if hx is None else (hx if is_batched else hx.unsqueeze(0))
        if self.nonlinearity not in ("tanh", "relu"):
            raise RuntimeError(f"Unknown nonlinearity: {self.nonlinearity}")
        cell = rnn_tanh_cell if self.nonlinearity == "tanh" else rnn_relu_cell
        ret = cell(input, hx, self.weight_ih, self.weight_hh, self.bias_ih, self.bias_hh)
        return ret if is_batched else ret.squeeze(0)


class LSTMCell(RNNCellBase):
    """One step of an LSTM (PyTorch: ``torch.nn.LSTMCell``); returns ``(h', c')``."""

    def __init__(self, input_size, hidden_size, bias=True, device=None, dtype=None):
        super().__init__(input_size, hidden_size, bias, num_chunks=4, device=device, dtype=dtype)

    def forward(self, input, hx=None):
        input, is_batched = self._batched("LSTMCell", input, tuple(hx) if hx is not None else None)
        if hx is None:
            zeros = self._zeros(input)
            hx = (zeros, zeros)
        elif not is_batched:
            hx = (hx[0].unsqueeze(0), hx[1].unsqueeze(0))
        hy, cy = lstm_cell(input, hx, self.weight_ih, self.weight_hh, self.bias_ih, self.bias_hh)
        return (hy, cy) if is_batched else (hy.squeeze(0), cy.squeeze(0))


class GRUCell(RNNCellBase):
    """One step of a GRU (PyTorch: ``torch.nn.GRUCell``)."""

    def __init__(self, input_size, hidden_size, bias=True, device=None, dtype=None):
        super().__init__(input_size, hidden_size, bias, num_chunks=3, device=device, dtype=dtype)

    def forward(self, input, hx=None):
        input, is_batched = self._batched("GRUCell", input, hx)
        hx = self._zeros(input) if hx is None else (hx if is_batched else hx.unsqueeze(0))
        ret = gru_cell(input, hx, self.weight_ih, self.weight_hh, self.bias_ih, self.bias_hh)
        return ret if is_batched else ret.squeeze(0)
