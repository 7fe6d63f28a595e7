"""How fast the small-op chain runs with minigrad's structure and none of its checks (`make bench-bare`).

A reference point for the speed notes in the README, not part of minigrad.  This file builds a
throwaway autograd with the same structure as minigrad (and PyTorch):

- one Function class per op, with static ``forward(ctx, ...)`` and ``backward(ctx, grad)``;
- one ctx object per op, which is also the node of the backward graph;
- backward formulas that are ops themselves (run with recording off, so that they could be recorded);
- PyTorch's engine: count each node's incoming edges, run ready nodes latest-created first from a
  heap, add gradients that meet in a buffer.

It leaves out everything else minigrad does like PyTorch: checking the gradients a node returns,
the inputs' shapes and dtypes kept for that, version counters and saved-tensor checks, hooks,
``retain_grad``, ``autograd.grad``, grad mode as a setting, wrapped numbers with their ``(None, 0)``
edges, broadcasting.  So the difference between its time and minigrad's is what those cost.
"""
import gc
import heapq
import itertools
import os
import sys
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [os.path.join(HERE, ".."), HERE]

import minigrad  # noqa: E402
import run  # noqa: E402  (bench/run.py: best_of and the chain of the benchmark table)


class Tensor:
    __slots__ = ("data", "grad_fn", "requires_grad", "grad")

    def __init__(self, data):
        self.data, self.grad_fn, self.requires_grad, self.grad = data, None, False, None

    # the four ops of the chain
    def __mul__(self, number):
        return Mul.apply(self, number)

    def __add__(self, number):
        return Add.apply(self, number)

    def __sub__(self, number):
        return Add.apply(self, -number)

    def tanh(self):
        return Tanh.apply(self)

    def sum(self):
        return Sum.apply(self)

    def backward(self):
        backward(self)


recording = True
_sequence = itertools.count()


class Node:
    next_nodes = ()


class AccumulateGrad(Node):
    sequence_nr = float("inf")

    def __init__(self, variable):
        self.variable = variable

    def apply(self, grad):
        v = self.variable
        v.grad = Tensor(grad.data.copy()) if v.grad is None else Tensor(v.grad.data + grad.data)
        return ()


class Function:
    def __init_subclass__(cls):
        cls.Node = type(cls.__name__ + "Backward", (Node,), {"apply": lambda node, g: cls.backward(node, g)})

    @classmethod
    def apply(cls, *args):
        global recording
        ctx = cls.Node()
        before, recording = recording, False
        out = cls.forward(ctx, *args)
        recording = before
        if recording and any(isinstance(a, Tensor) and a.requires_grad for a in args):
            ctx.sequence_nr = next(_sequence)
            ctx.next_nodes = tuple(edge(a) if isinstance(a, Tensor) else None for a in args)
            out.grad_fn, out.requires_grad = ctx, True
        return out


def edge(t):
    if t.grad_fn is None and t.requires_grad:
        t.grad_fn = AccumulateGrad(t)  # (a leaf keeps its accumulator here: fine for one backward)
    return t.grad_fn


class Mul(Function):
    @staticmethod
    def forward(ctx, a, number):
        ctx.number = number
        return Tensor(a.data * number)

    @staticmethod
    def backward(ctx, grad):
        return Mul.apply(grad, ctx.number), None


class Add(Function):
    @staticmethod
    def forward(ctx, a, number):
        return Tensor(a.data + number)

    @staticmethod
    def backward(ctx, grad):
        return grad, None


class Tanh(Function):
    @staticmethod
    def forward(ctx, a):
        ctx.out = np.tanh(a.data)
        return Tensor(ctx.out)

    @staticmethod
    def backward(ctx, grad):
        return TanhBackward.apply(grad, ctx.out),


class TanhBackward(Function):
    @staticmethod
    def forward(ctx, grad, out):
        return Tensor(grad.data * (1 - out * out))


class Sum(Function):
    @staticmethod
    def forward(ctx, a):
        ctx.shape = a.data.shape
        return Tensor(a.data.sum())

    @staticmethod
    def backward(ctx, grad):
        return Tensor(np.broadcast_to(grad.data, ctx.shape).copy()),


def backward(root):
    global recording
    deps, seen, stack = {}, {root.grad_fn}, [root.grad_fn]
    while stack:  # count the edges into each node
        for nxt in stack.pop().next_nodes:
            if nxt is not None:
                deps[nxt] = deps.get(nxt, 0) + 1
                if nxt not in seen:
                    seen.add(nxt)
                    stack.append(nxt)
    recording = False
    buffers = {root.grad_fn: Tensor(np.ones_like(root.data))}
    tie = itertools.count()
    ready = [(-root.grad_fn.sequence_nr, next(tie), root.grad_fn)]
    while ready:
        node = heapq.heappop(ready)[2]
        for nxt, g in zip(node.next_nodes, node.apply(buffers.pop(node))):
            if nxt is None or g is None:
                continue
            buffers[nxt] = g if nxt not in buffers else Tensor(buffers[nxt].data + g.data)
            deps[nxt] -= 1
            if deps[nxt] == 0:
                heapq.heappush(ready, (-nxt.sequence_nr, next(tie), nxt))
    recording = True


class Bare:
    """The module-like object run.chain() expects: ``ones(size, requires_grad=True)``."""
    @staticmethod
    def ones(size, requires_grad=False):
        t = Tensor(np.ones(size, np.float32))
        t.requires_grad = requires_grad
        return t


def main():
    import torch
    expected = run.chain(torch, 2000).numpy()
    assert np.allclose(run.chain(Bare, 2000).data, expected, rtol=1e-5)  # the same gradient
    assert np.allclose(run.chain(minigrad, 2000).numpy(), expected, rtol=1e-5)
    gc.collect()
    bare, mg, tc = run.best_of(20, lambda: run.chain(Bare, 2000), lambda: run.chain(minigrad, 2000),
                               lambda: run.chain(torch, 2000))
    print(f"small-op chain, best of 20: torch {tc * 1e3:.1f} ms, minigrad {mg * 1e3:.1f} ms ({mg / tc:.2f}), "
          f"the bare structure {bare * 1e3:.1f} ms ({bare / tc:.2f})")


if __name__ == "__main__":
    main()
