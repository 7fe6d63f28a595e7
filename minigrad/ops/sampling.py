"""Ops that draw random numbers: ``bernoulli`` and ``bernoulli_`` (PyTorch: ``native/Distributions.cpp``, with the CPU
kernels of ``native/cpu/DistributionTemplates.h``).

Each element is 1 with probability ``p`` (its own, from a tensor of probabilities) and 0 otherwise.  PyTorch's CPU
kernel draws one uniform ``u`` per element, in memory order, from its generator, and writes ``u < p``; the uniform
takes 24 random bits when ``p`` is float32 or float16, 53 when it is float64 (``random.py``).  minigrad does the
same with the same generator, so after ``manual_seed`` the samples are PyTorch's.  (``x.bernoulli_(0.3)``, with a
number, is drawn by PyTorch with Intel MKL's own generator, as dropout is: there minigrad's samples differ.)

The gradient is zero: a sample does not change smoothly with ``p`` (``derivatives.yaml``: ``zeros_like(grad)``).
"""
import numpy as np

from .. import random as _random
from ._out import write_out
from .dispatch import Op
from .._core.tensor_base import _TYPE_NAMES, TensorBase as Tensor

P_OUT_OF_RANGE = ("Expected p_in >= 0 && p_in <= 1 to be true, but got false.  (Could this error message be improved?  "
                  "If so, please report an enhancement request to PyTorch.)")


def draws(p, generator):
    """``u < p`` for one uniform ``u`` per element of the array ``p`` (in ``p``'s memory order), as 0s and 1s."""
    if p.dtype.kind != "f":
        raise NotImplementedError(f"\"bernoulli_tensor_cpu_p_\" not implemented for '{_TYPE_NAMES[p.dtype.name]}'")
    if not ((p >= 0) & (p <= 1)).all():  # (nan fails too)
        raise RuntimeError(P_OUT_OF_RANGE)
    in_order = p.ravel(order="K")
    u = _random._generator(generator).uniform(in_order.size, np.float64 if p.dtype == np.float64 else np.float32)
    hits = np.empty_like(p, order="K")
    hits.ravel(order="K")[...] = u < in_order  # (a dense array's "K" ravel is a view: this writes into hits)
    return hits


def bernoulli(input, p=None, *, generator=None, out=None):  # noqa: A002
    """``minigrad.bernoulli(probabilities)``: 0s and 1s, each 1 with its probability (see the module's docstring)."""
    if not isinstance(input, Tensor):
        raise TypeError(f"bernoulli(): argument 'input' (position 1) must be Tensor, not {type(input).__name__}")
    if out is not None:
        return write_out("bernoulli", out, (input,), lambda: bernoulli(input, p, generator=generator))
    if p is None:
        return Bernoulli.apply(input, generator)
    if input.requires_grad:  # (PyTorch records a node without a formula there)
        raise NotImplementedError("minigrad's bernoulli(input, p) does not take an input that requires grad; "
                                  "use minigrad.bernoulli(input.detach(), p)")
    return input.new_empty(input.shape).bernoulli_(p, generator=generator)


def zeros(grad):
    """PyTorch's ``zeros_like(grad)``: zeros, not ``0 * grad`` (that would keep a nan)."""
    return grad.new_zeros(grad.shape)


class Bernoulli(Op):
    """``minigrad.bernoulli(p)``: a new row-major tensor of p's shape and dtype, each element a sample."""
    node_name = "BernoulliBackward0"

    @staticmethod
    def forward(ctx, p, generator):
        probabilities = p._data if p._data.flags.c_contiguous else p._data.copy(order="C")  # (drawn row by row)
        return Tensor(draws(probabilities, generator).astype(p._data.dtype))

    @staticmethod
    def backward(ctx, grad):
        return zeros(grad), None


class BernoulliFromTensor(Op):
    """``x.bernoulli_(p)`` with a tensor of probabilities, broadcast to x's shape: x takes the samples, in its dtype."""
    node_name = "BernoulliBackward1"

    @staticmethod
    def check_in_place_arguments(a, p, generator):  # (ops/inplace.py: before the memory and the operands are)
        p.expand(a._data.shape)  # PyTorch's expand_inplace, with its errors

    @staticmethod
    def forward(ctx, a, p, generator):
        ctx.p_shape, ctx.p_dtype = p._data.shape, p.dtype
        probabilities = p.expand(a._data.shape)._data  # (PyTorch's expand_inplace, with its errors)
        order = np.empty_like(a._data, dtype=p._data.dtype, order="K")  # (drawn in x's memory order, as the kernel walks x)
        order[...] = probabilities
        return Tensor(draws(order, generator).astype(a._data.dtype))

    @staticmethod
    def backward(ctx, grad):
        return zeros(grad), Tensor(np.zeros(ctx.p_shape, ctx.p_dtype.numpy)), None


class BernoulliFromNumber(Op):
    """``x.bernoulli_(0.3)``: every element 1 with the same probability (not PyTorch's samples: see the docstring)."""
    node_name = "BernoulliBackward2"

    @staticmethod
    def forward(ctx, a, p, generator):
        if not 0 <= p <= 1:
            raise RuntimeError(f"bernoulli_ expects p to be in [0, 1], but got p={p}")
        order = np.empty_like(a._data, dtype=np.float64, order="K")
        order[...] = p
        return Tensor(draws(order, generator).astype(a._data.dtype))

    @staticmethod
    def backward(ctx, grad):
        return zeros(grad), None, None
