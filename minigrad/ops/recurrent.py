"""The two ops of the recurrent layers that are not composites of others (PyTorch: ``aten/src/ATen/native/RNN.cpp``
and ``native/mkldnn/RNN.cpp``).

- ``UnsafeSplit``: ``x.unsafe_chunk(n, dim)``, how a cell cuts its gate pre-activations into the gates
  (``UnsafeSplitBackward0``).
- ``MkldnnRnnLayer``: one layer and direction of a float32 LSTM on the CPU, which PyTorch hands to oneDNN
  whole (``MkldnnRnnLayerBackward0``): forward is a loop over the time steps, backward the loop run backwards
  (backpropagation through time), both in numpy.  Under ``create_graph=True`` its backward is PyTorch's
  composite of tensor ops instead (``mkldnn_rnn_layer_differentiable_backward``), so the gradients' own graph has
  PyTorch's nodes.
"""
import numpy as np

from .dispatch import Op
from .._core.tensor_base import TensorBase as Tensor, _wrap_dim
from ..autograd import grad_mode
from .shape import cat


class UnsafeSplit(Op):
    """``x.unsafe_chunk(n, dim)``: equal pieces along ``dim`` that PyTorch does not track as views of ``x``.
    Backward joins the pieces' gradients (zeros for a piece that got none)."""
    node_name = "UnsafeSplitBackward0"
    saved_names = {"dim": "saved_dim", "split_size": "split_size", "self_sym_sizes": "self_sizes"}  # (dim: as passed)

    @staticmethod
    def forward(ctx, a, chunks, dim):
        ctx.dim_arg, ctx.dim = dim, _wrap_dim(dim, a._data.ndim)
        size = a._data.shape[ctx.dim]
        ctx.split_size, ctx.self_sizes = -(-size // chunks), a._data.shape
        return _pieces(a, [min(ctx.split_size, size - start) for start in range(0, size, ctx.split_size)], ctx.dim)

    @staticmethod
    def backward(ctx, *grads):
        return cat(list(grads), ctx.dim), None, None


class UnsafeSplitWithSizes(UnsafeSplit):
    """``x.unsafe_split_with_sizes(sizes, dim)``: what ``unsafe_chunk`` records for a dim of size 0 (``chunks``
    empty pieces, as PyTorch's ``chunk`` makes them: a cell with ``hidden_size`` 0)."""
    node_name = "UnsafeSplitWithSizesBackward0"
    saved_names = {"dim": "saved_dim", "split_sizes": "split_sizes", "self_sym_sizes": "self_sizes"}

    @staticmethod
    def forward(ctx, a, sizes, dim):
        ctx.dim_arg, ctx.dim = dim, _wrap_dim(dim, a._data.ndim)
        ctx.split_sizes, ctx.self_sizes = tuple(sizes), a._data.shape
        return _pieces(a, sizes, ctx.dim)


def _pieces(a, sizes, dim):
    """The pieces of ``a`` along ``dim`` of ``sizes``, new tensors (not views)."""
    pieces, start = [], 0
    for size in sizes:
        pieces.append(Tensor(a._data[(slice(None),) * dim + (slice(start, start + size),)]))
        start += size
    return tuple(pieces)


def unsafe_chunk(a, chunks, dim=0):
    """``torch.unsafe_chunk``: as ``chunk``, the pieces not tracked as views (PyTorch's cells use it)."""
    if a._data.ndim == 0:
        raise RuntimeError("chunk expects at least a 1-dimensional tensor")
    if chunks <= 0:
        raise RuntimeError(f"chunk expects `chunks` to be greater than 0, got: {chunks}")
    if a._data.shape[_wrap_dim(dim, a._data.ndim)] == 0:  # (PyTorch: `chunks` empty pieces, by unsafe_split_with_sizes)
        return UnsafeSplitWithSizes.apply(a, [0] * chunks, dim)
    return UnsafeSplit.apply(a, chunks, dim)


def _sigmoid(x):
    return 1 / (1 + np.exp(-x))


class MkldnnRnnLayer(Op):
    """One layer and one direction of an LSTM over a whole sequence ``input`` (time, batch, features), from
    ``hx`` and ``cx`` (batch, hidden): outputs ``(output, hy, cy)`` (PyTorch: ``mkldnn_rnn_layer``, what a float32
    LSTM on the CPU records, one node per layer and direction).

    Forward, per step (backwards in time when ``reverse``): ``gates = x_t @ w_ih^T + b_ih + h @ w_hh^T + b_hh``
    cut into input, forget, cell and output gates ``i, f, g, o`` (sigmoid, sigmoid, tanh, sigmoid);
    ``c = f * c + i * g``; ``h = o * tanh(c)``.  The input projection of all steps is one product.

    Backward walks the steps the other way: from ``dh`` (the output's gradient at the step plus the next step's
    ``dh``) and ``dc``: ``do = dh * tanh(c)``, ``dc += dh * o * (1 - tanh(c)^2)``, ``di = dc * g``,
    ``df = dc * c_prev``, ``dg = dc * i``; the gates' pre-activation gradients ``da`` through the sigmoid and tanh
    derivatives; ``dh_prev = da @ w_hh``, ``dc_prev = dc * f``.  The weights' gradients are sums over the steps
    of ``da^T @ h_prev`` and ``da^T @ x_t``, the biases' of ``da``.
    """
    node_name = "MkldnnRnnLayerBackward0"
    saved_names = {"input": 0, "weight0": 1, "weight1": 2, "weight2": 3, "weight3": 4, "hx_": 5, "cx_": 6,
                   "reverse": "reverse", "mode": "mode", "hidden_size": "hidden_size", "num_layers": "num_layers",
                   "has_biases": "has_biases", "bidirectional": "bidirectional", "batch_first": "batch_first",
                   "train": "train", "batch_sizes": "batch_sizes", "result0": 7, "result1": 8, "result2": 9}
    # PyTorch also keeps oneDNN's workspace, ``_saved_result3``: a 1-d uint8 buffer of oneDNN's own layout (its gates
    # and states as raw bytes, padded; 28672 bytes for any small layer, 8736768 for 35 steps, batch 20, hidden 200,
    # a size set by oneDNN's blocking for the CPU it runs on).  Its bytes mean nothing outside oneDNN and no formula
    # reads them (the create_graph backward recomputes the gates), so minigrad leaves it out (AttributeError) and
    # keeps its gates in ctx instead.

    @staticmethod
    def forward(ctx, input, w_ih, w_hh, b_ih, b_hh, hx, cx, reverse, num_layers, has_biases, bidirectional, train,
                batch_first):
        ctx.reverse, ctx.mode, ctx.hidden_size, ctx.num_layers = reverse, 2, hx._data.shape[1], num_layers
        ctx.has_biases, ctx.bidirectional, ctx.batch_first, ctx.train = has_biases, bidirectional, batch_first, train
        ctx.batch_sizes = ()
        x, whh = input._data, w_hh._data
        steps, hidden = x.shape[0], whh.shape[1]
        projected = x @ w_ih._data.T + (b_ih._data + b_hh._data)  # every step's input projection: one product
        gates = np.empty(projected.shape, x.dtype)  # (after the activations: what backward needs)
        cells = np.empty((steps,) + cx._data.shape, x.dtype)
        output = np.empty((steps,) + hx._data.shape, x.dtype)
        h, c = hx._data, cx._data
        for t in (range(steps - 1, -1, -1) if reverse else range(steps)):
            a = projected[t] + h @ whh.T
            i, f = _sigmoid(a[:, :hidden]), _sigmoid(a[:, hidden:2 * hidden])
            g, o = np.tanh(a[:, 2 * hidden:3 * hidden]), _sigmoid(a[:, 3 * hidden:])
            c = f * c + i * g
            h = o * np.tanh(c)
            gates[t] = np.concatenate([i, f, g, o], axis=1)
            cells[t], output[t] = c, h
        ctx.gates, ctx.cells, ctx.output = gates, cells, output
        results = Tensor(output), Tensor(h.copy()), Tensor(c.copy())
        ctx.save_for_backward(input, w_ih, w_hh, b_ih, b_hh, hx, cx, *results)
        return results

    @staticmethod
    def backward(ctx, grad_output, grad_hy, grad_cy):
        if grad_mode.is_grad_enabled():  # create_graph=True: a gradient with a graph of its own
            return _backward_on_graph(ctx, grad_output, grad_hy, grad_cy)
        input, w_ih, w_hh, b_ih, b_hh, hx, cx = ctx.saved_tensors[:7]
        x, whh, gates, cells, output = input._data, w_hh._data, ctx.gates, ctx.cells, ctx.output
        steps, hidden = x.shape[0], whh.shape[1]
        d_gates = np.empty(gates.shape, x.dtype)
        dh, dc = grad_hy._data.copy(), grad_cy._data.copy()
        grad_w_hh = np.zeros(whh.shape, x.dtype)
        order = range(steps) if ctx.reverse else range(steps - 1, -1, -1)
        for t in order:
            before = t + 1 if ctx.reverse else t - 1  # the step that ran before this one
            h_prev = hx._data if before in (-1, steps) else output[before]
            c_prev = cx._data if before in (-1, steps) else cells[before]
            i, f = gates[t, :, :hidden], gates[t, :, hidden:2 * hidden]
            g, o = gates[t, :, 2 * hidden:3 * hidden], gates[t, :, 3 * hidden:]
            dh = dh + grad_output._data[t]
            tanh_c = np.tanh(cells[t])
            dc = dc + dh * o * (1 - tanh_c * tanh_c)
            da = d_gates[t]
            da[:, :hidden] = dc * g * i * (1 - i)
            da[:, hidden:2 * hidden] = dc * c_prev * f * (1 - f)
            da[:, 2 * hidden:3 * hidden] = dc * i * (1 - g * g)
            da[:, 3 * hidden:] = dh * tanh_c * o * (1 - o)
            grad_w_hh += da.T @ h_prev
            dh, dc = da @ whh, dc * f
        flat = d_gates.reshape(-1, d_gates.shape[-1])
        grad_bias = flat.sum(0)
        return (Tensor(d_gates @ w_ih._data), Tensor(flat.T @ x.reshape(-1, x.shape[-1])), Tensor(grad_w_hh),
                Tensor(grad_bias), Tensor(grad_bias.copy()), Tensor(dh), Tensor(dc),
                None, None, None, None, None, None)


def _one_minus(t):
    """``1 - t`` as PyTorch's C++ writes it (``empty_like(t).fill_(1).sub_(t)``): ``SubBackward0`` with no edge
    for the ones, where Python's ``1 - t`` records ``RsubBackward1``."""
    return Tensor(np.ones_like(t._data)) - t  # (ones laid out as t, as ones_like gives them)


def _backward_on_graph(ctx, grad_output, grad_hy, grad_cy):
    """The gradients as tensors with a graph (``create_graph=True``): PyTorch's
    ``mkldnn_rnn_layer_differentiable_backward`` (``torch/csrc/autograd/FunctionsManual.cpp``) op for op, so the
    second graph has its nodes.  First the forward steps again in tensor ops (each step's gates ``i, f, g, o`` and
    states ``h, c``); then backwards through the steps, the numpy backward's formulas written with tensors.
    (PyTorch writes some of these in place, ``add_``, ``sigmoid_``, ``tanh_``, ``+=``: the nodes are the same.)"""
    from .linalg import addmm
    input, w_ih, w_hh, b_ih, b_hh, hx_, cx_ = ctx.saved_tensors[:7]
    steps = input.shape[0]
    # (a bidirectional layer's output gradient is a slice of the joined one: contiguous copies it, CloneBackward0)
    grad_output, grad_hy, grad_cy = grad_output.contiguous(), grad_hy.contiguous(), grad_cy.contiguous()
    gates, states = [None] * steps, [(hx_, cx_)]
    h, c = hx_, cx_
    for seq in range(1, steps + 1):
        t = steps - seq if ctx.reverse else seq - 1
        gate = addmm(b_ih, input[t], w_ih.t()) + addmm(b_hh, h, w_hh.t())  # (at::linear(x, w, b) is addmm)
        i, f, g, o = unsafe_chunk(gate, 4, 1)
        i, f, g, o = i.sigmoid(), f.sigmoid(), g.tanh(), o.sigmoid()
        gates[t] = i, f, g, o
        c = f * c + i * g
        h = o * c.tanh()
        states.append((h, c))
    layer_dx = [None] * steps
    for seq in range(steps - 1, -1, -1):
        t = steps - seq - 1 if ctx.reverse else seq
        i, f, g, o = gates[t]
        cy = states[seq + 1][1]
        hx, cx = states[seq]
        new_grad_hy = grad_output[t] + grad_hy
        d1 = grad_cy + new_grad_hy * o * _one_minus(cy.tanh() * cy.tanh())
        dgp, dip, dprev_c, dfp = d1 * i, d1 * g, d1 * f, d1 * cx
        dop = new_grad_hy * cy.tanh()
        do_ = dop * o * _one_minus(o)
        dg = dgp * _one_minus(g * g)
        df = dfp * f * _one_minus(f)
        di = dip * i * _one_minus(i)
        da = cat([di, df, dg, do_], 1)
        db_ = da.sum(0)
        layer_dx[t] = da.matmul(w_ih).unsqueeze(0)
        dprev_h = da.matmul(w_hh)
        dWx_ = da.transpose(0, 1).matmul(input[t])
        dWh_ = da.transpose(0, 1).matmul(hx)
        if seq == steps - 1:
            db, dWx, dWh = db_, dWx_, dWh_
        else:
            db, dWx, dWh = db + db_, dWx + dWx_, dWh + dWh_
        grad_hy, grad_cy = dprev_h, dprev_c
    return (cat(layer_dx, 0), dWx, dWh, db, db, dprev_h, dprev_c) + (None,) * 6


def mkldnn_rnn_layer(input, w_ih, w_hh, b_ih, b_hh, hx, cx, reverse, num_layers, has_biases, bidirectional, train,
                     batch_first=False):
    """``torch.mkldnn_rnn_layer`` for an LSTM: ``(output, hy, cy)`` of one layer and direction (``input`` is
    time-major; ``batch_first`` only says how the layer's input came)."""
    return MkldnnRnnLayer.apply(input, w_ih, w_hh, b_ih, b_hh, hx, cx, reverse, num_layers, has_biases,
                                bidirectional, train, batch_first)
