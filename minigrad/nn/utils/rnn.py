"""Packed sequences: a batch of sequences of different lengths without the padding (PyTorch:
``torch/nn/utils/rnn.py`` and ``aten/src/ATen/native/PackedSequence.cpp``).

A ``PackedSequence`` keeps the steps one after another: first every sequence's first element, then the
second elements of the sequences that have one, and so on; ``batch_sizes[t]`` says how many sequences
step ``t`` has.  The sequences must come longest first (``enforce_sorted``), or be sorted on the way in
(``sorted_indices``) and back (``unsorted_indices``).
"""
from collections import namedtuple

import numpy as np

from ... import creation
from ...ops.dispatch import Op
from ..._core.tensor_base import TensorBase as Tensor

__all__ = ["PackedSequence", "invert_permutation", "pack_padded_sequence", "pad_packed_sequence", "pad_sequence",
           "unpad_sequence", "pack_sequence", "unpack_sequence"]


class PackedSequence(namedtuple("PackedSequence_", ["data", "batch_sizes", "sorted_indices", "unsorted_indices"])):
    """``(data, batch_sizes, sorted_indices, unsorted_indices)`` (PyTorch: ``torch.nn.utils.rnn.PackedSequence``).
    Made by ``pack_padded_sequence`` and ``pack_sequence``, not by hand."""

    def __new__(cls, data, batch_sizes=None, sorted_indices=None, unsorted_indices=None):
        if unsorted_indices is None:
            unsorted_indices = invert_permutation(sorted_indices)
        if batch_sizes is None:
            if not (isinstance(data, (list, tuple)) and len(data) == 2):
                raise AssertionError("Expected data to be a list or tuple of length 2")
            data, batch_sizes = data
        return super().__new__(cls, data, batch_sizes, sorted_indices, unsorted_indices)

    def to(self, *args, **kwargs):
        data = self.data.to(*args, **kwargs)
        if data is self.data:
            return self
        return type(self)(data, self.batch_sizes, self.sorted_indices, self.unsorted_indices)

    def double(self):
        return self.to(dtype=self.data.double().dtype)

    def float(self):
        return self.to(dtype=self.data.float().dtype)

    @property
    def is_cuda(self):
        return False

    def is_pinned(self):
        return False


def invert_permutation(permutation):
    """The permutation that undoes ``permutation`` (None for None)."""
    if permutation is None:
        return None
    output = np.empty_like(permutation._data)
    output[permutation._data] = np.arange(permutation._data.size)
    return Tensor(output)


class PackPaddedSequence(Op):
    """``_pack_padded_sequence(input, lengths, batch_first)``: the steps of a padded (time, batch, ...) input without
    the padding, and the batch sizes.  Backward puts each step's gradient back in its place, zeros at the padding
    (PyTorch: ``PackPaddedSequenceBackward0``, ``_pack_padded_sequence_backward``)."""
    node_name = "PackPaddedSequenceBackward0"
    saved_names = {"batch_first": "batch_first", "input_sym_sizes": "input_sizes", "result1": "batch_sizes"}

    @staticmethod
    def forward(ctx, input, lengths, batch_first, batch_sizes_out):
        x = np.swapaxes(input._data, 0, 1) if batch_first else input._data
        batch_size = x.shape[1]
        if input._data.size == 0:
            raise RuntimeError("Cannot pack empty tensors.")
        if lengths.shape[0] != batch_size:
            raise RuntimeError(f"Expected `len(lengths)` to be equal to batch_size, but got {lengths.shape[0]} "
                               f"(batch_size={batch_size})")
        if lengths[batch_size - 1] <= 0:
            raise RuntimeError("Length of all samples has to be greater than 0, but found an element in 'lengths' "
                               "that is <= 0")
        if np.any(lengths[1:] > lengths[:-1]):
            raise RuntimeError("`lengths` array must be sorted in decreasing order when `enforce_sorted` is True. "
                               "You can pass `enforce_sorted=False` to pack_padded_sequence and/or pack_sequence to "
                               "sidestep this requirement if you do not need ONNX exportability.")
        batch_sizes = np.array([(lengths > t).sum() for t in range(int(lengths[0]))], dtype=np.int64)
        ctx.batch_first, ctx.input_sizes, ctx.batch_sizes = batch_first, input._data.shape, Tensor(batch_sizes)
        batch_sizes_out.append(ctx.batch_sizes)  # (the second result, not on the graph)
        return Tensor(np.concatenate([x[t, :b] for t, b in enumerate(batch_sizes)], axis=0))

    @staticmethod
    def backward(ctx, grad):
        """PyTorch's ``_pack_padded_sequence_backward``: zeros of the (time, batch, ...) shape, each step's rows
        copied into their place (in place on views of the zeros, so a create_graph gradient records ``CopySlices``)."""
        sizes = list(ctx.input_sizes)
        if ctx.batch_first:
            sizes[0], sizes[1] = sizes[1], sizes[0]
        grad_input = creation.zeros(*sizes, dtype=grad.dtype)
        offset = 0
        for t, b in enumerate(ctx.batch_sizes._data.tolist()):
            grad_input[t][0:b].copy_(grad[offset:offset + b])
            offset += b
        return (grad_input.transpose(0, 1) if ctx.batch_first else grad_input), None, None, None


def pack_padded_sequence(input, lengths, batch_first=False, enforce_sorted=True):
    """Pack a padded batch of sequences of lengths ``lengths`` (PyTorch: ``nn.utils.rnn.pack_padded_sequence``)."""
    if not isinstance(lengths, Tensor):
        lengths = creation.as_tensor(lengths, dtype=_int64())
    else:
        lengths = lengths.to(dtype=_int64())
    if enforce_sorted:
        sorted_indices = None
    else:
        order = np.argsort(-lengths._data, kind="stable")
        lengths, sorted_indices = Tensor(lengths._data[order]), Tensor(order.astype(np.int64))
        input = input.index_select(0 if batch_first else 1, sorted_indices)
    data, batch_sizes = _pack_padded_sequence(input, lengths, batch_first)
    return PackedSequence(data, batch_sizes, sorted_indices, None)


def _pack_padded_sequence(input, lengths, batch_first):
    """``_VF._pack_padded_sequence``: ``(data, batch_sizes)``; only ``data`` is on the graph."""
    batch_sizes = []
    data = PackPaddedSequence.apply(input, lengths._data, batch_first, batch_sizes)
    return data, batch_sizes[0]


def _int64():
    from ... import _dtype
    return _dtype.int64


def pad_packed_sequence(sequence, batch_first=False, padding_value=0.0, total_length=None):
    """The padded batch back from a ``PackedSequence`` and the lengths (PyTorch: ``nn.utils.rnn.pad_packed_sequence``).
    Composed as PyTorch composes ``_pad_packed_sequence``: a full tensor of ``padding_value``, the steps copied in."""
    batch_sizes = sequence.batch_sizes._data.tolist()
    max_seq_length = len(batch_sizes)
    if total_length is not None:
        if total_length < max_seq_length:
            raise ValueError("Expected total_length to be at least the length of the longest sequence in input, but "
                             f"got total_length={total_length} and max sequence length being {max_seq_length}")
        max_seq_length = total_length
    data = sequence.data
    output = creation.full((max_seq_length, batch_sizes[0]) + tuple(data.shape[1:]), padding_value, dtype=data.dtype)
    lengths = np.empty(batch_sizes[0], dtype=np.int64)
    offset, prev_batch, prev_i = 0, batch_sizes[0], 0
    for i in range(len(batch_sizes) + 1):
        batch = batch_sizes[i] if i != len(batch_sizes) else 0
        if batch != prev_batch:  # a block of steps with the same batch size, copied in at once
            count = prev_batch * (i - prev_i)
            block = data.narrow(0, offset, count).view(i - prev_i, prev_batch, *data.shape[1:])
            output[prev_i:i, :prev_batch].copy_(block)
            offset, prev_i = offset + count, i
        lengths[batch:prev_batch] = i
        prev_batch = batch
    if batch_first:
        output = output.transpose(0, 1)
    lengths = Tensor(lengths)
    if sequence.unsorted_indices is not None:
        return (output.index_select(0 if batch_first else 1, sequence.unsorted_indices),
                Tensor(lengths._data[sequence.unsorted_indices._data]))
    return output, lengths


def pad_sequence(sequences, batch_first=False, padding_value=0.0, padding_side="right"):
    """A list of sequences (length, ...) as one padded tensor (PyTorch: ``nn.utils.rnn.pad_sequence``)."""
    if isinstance(sequences, Tensor):
        sequences = sequences.unbind(0)
    if len(sequences) == 0:
        raise RuntimeError("received an empty list of sequences")
    if padding_side not in ("left", "right"):
        raise ValueError(f"Expected padding_side to be one of left or right, but got {padding_side}.")
    max_len = max(s.size(0) for s in sequences)
    trailing = tuple(sequences[0].shape[1:])
    shape = (len(sequences), max_len) + trailing if batch_first else (max_len, len(sequences)) + trailing
    out = creation.full(shape, padding_value, dtype=sequences[0].dtype)
    for i, seq in enumerate(sequences):
        length = seq.size(0)
        start = max_len - length if padding_side == "left" else 0
        if batch_first:
            out.select(0, i).narrow(0, start, length).copy_(seq)
        else:
            out.narrow(0, start, length).select(1, i).copy_(seq)
    return out


def unpad_sequence(padded_sequences, lengths, batch_first=False):
    """A padded batch back as a list of sequences, each cut to its length (PyTorch: ``nn.utils.rnn.unpad_sequence``).
    As PyTorch does, it transposes ``padded_sequences`` itself in place when ``batch_first`` is False, and picks
    each sequence's steps with a mask (nodes ``UnbindBackward0``, ``IndexBackward0``)."""
    unpadded_sequences = []
    if not batch_first:
        padded_sequences.transpose_(0, 1)
    idx = creation.arange(padded_sequences.shape[1], device=lengths.device)
    for seq, length in zip(padded_sequences.unbind(0), lengths, strict=True):  # (PyTorch iterates by unbind)
        unpadded_sequences.append(seq[idx < length])
    return unpadded_sequences


def pack_sequence(sequences, enforce_sorted=True):
    """Pack a list of sequences (PyTorch: ``nn.utils.rnn.pack_sequence``)."""
    lengths = creation.as_tensor([v.size(0) for v in sequences], dtype=_int64())
    return pack_padded_sequence(pad_sequence(sequences), lengths, enforce_sorted=enforce_sorted)


def unpack_sequence(packed_sequences):
    """A ``PackedSequence`` back as a list of sequences (PyTorch: ``nn.utils.rnn.unpack_sequence``): padded, then
    unpadded."""
    padded_sequences, lengths = pad_packed_sequence(packed_sequences, batch_first=True)
    return unpad_sequence(padded_sequences, lengths, batch_first=True)
