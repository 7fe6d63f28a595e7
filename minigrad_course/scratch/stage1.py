"""Build it yourself, stage 1 (after notebook 01): a tensor that remembers how it was made.

- A ``Tensor`` holds ``data`` (a numpy array), ``requires_grad``, ``grad`` and ``grad_fn``.
- Every op computes its value with numpy and, when some input requires grad, makes a node
  (``MulBackward0``, ...) whose ``next_functions`` hold one ``(node, 0)`` pair per input: the node
  that made the input, ``AccumulateGrad`` for a leaf, ``None`` for a constant.
- ``backward()`` orders the nodes so that each runs before the nodes it sends gradients to, and
  runs them; a leaf's ``AccumulateGrad`` adds into ``.grad``.
Gradients flow as numpy arrays; ``.grad`` is a Tensor.  float32, one shape (or a tensor and a number).
"""
import numpy as np


class Tensor:
    def __init__(self, data, requires_grad=False):
        self.data = np.asarray(data, dtype=np.float32)
        self.requires_grad = requires_grad
        self.grad = None          # the gradient backward() leaves in a leaf
        self.grad_fn = None       # the node that made this tensor; None for a leaf
        self._accumulator = None  # a leaf's AccumulateGrad node, made the first time an op uses it

    @property
    def is_leaf(self):
        return self.grad_fn is None

    def __repr__(self):
        return f"tensor({self.data}, grad_fn={self.grad_fn.name() if self.grad_fn else None})"

    # ops: the value now, and a node for backward
    def __add__(self, other):
        other = as_tensor(other)
        return record(self.data + other.data, AddBackward0(self, other))

    def __mul__(self, other):
        other = as_tensor(other)
        return record(self.data * other.data, MulBackward0(self, other))

    __radd__, __rmul__ = __add__, __mul__

    def sum(self):
        return record(self.data.sum(), SumBackward0(self))

    def relu(self):
        return record(np.maximum(self.data, 0), ReluBackward0(self))

    def backward(self):
        """Run every node once, in an order where a node runs after all nodes that feed it."""
        order, seen = [], set()

        def visit(node):  # depth first: a node is listed after everything it sends gradients to
            if node is not None and node not in seen:
                seen.add(node)
                for nxt, _ in node.next_functions:
                    visit(nxt)
                order.append(node)

        visit(self.grad_fn)
        grads = {self.grad_fn: np.ones_like(self.data)}  # d loss / d loss = 1
        for node in reversed(order):
            grad = grads.pop(node)
            for (nxt, _), g in zip(node.next_functions, node.apply(grad)):
                if nxt is not None:  # two paths to one node: their gradients add up
                    grads[nxt] = grads[nxt] + g if nxt in grads else g


def as_tensor(x):
    """A Python number next to a tensor becomes a constant tensor (no gradient, no edge)."""
    return x if isinstance(x, Tensor) else Tensor(x)


def linspace(start, end, steps, requires_grad=False):
    return Tensor(np.linspace(start, end, steps), requires_grad=requires_grad)


def relu(t):
    return t.relu()


# ---- the nodes of the backward graph -----------------------------------------------------------
def edge(t):
    """The ``(node, 0)`` pair a consumer of ``t`` keeps in its next_functions."""
    if t.grad_fn is not None:
        return (t.grad_fn, 0)
    if t.requires_grad:  # a leaf: its AccumulateGrad node, one per leaf
        if t._accumulator is None:
            t._accumulator = AccumulateGrad(t)
        return (t._accumulator, 0)
    return (None, 0)  # a constant: no gradient goes there


def record(data, node):
    """The op's result; it gets ``node`` as grad_fn when some input requires grad."""
    out = Tensor(data)
    if any(nxt is not None for nxt, _ in node.next_functions):
        out.grad_fn, out.requires_grad = node, True
    return out


class Node:
    """``apply(grad)`` gets d loss/d output and returns d loss/d input, one per next_functions entry."""

    def __init__(self, *inputs):
        self.next_functions = tuple(edge(t) for t in inputs)

    def name(self):
        return type(self).__name__


class AccumulateGrad(Node):
    def __init__(self, variable):
        self.next_functions = ()
        self.variable = variable  # the leaf

    def name(self):
        return "minigrad::autograd::AccumulateGrad"

    def apply(self, grad):
        v = self.variable
        v.grad = Tensor(grad.copy()) if v.grad is None else Tensor(v.grad.data + grad)
        return ()


class AddBackward0(Node):  # out = a + b
    def apply(self, grad):
        return grad, grad


class MulBackward0(Node):  # out = a * b
    def __init__(self, a, b):
        super().__init__(a, b)
        self.a, self.b = a.data, b.data  # saved for backward

    def apply(self, grad):
        return grad * self.b, grad * self.a


class SumBackward0(Node):  # out = a.sum()
    def __init__(self, a):
        super().__init__(a)
        self.shape = a.data.shape

    def apply(self, grad):
        return (np.broadcast_to(grad, self.shape).copy(),)


class ReluBackward0(Node):  # out = max(a, 0)
    def __init__(self, a):
        super().__init__(a)
        self.positive = a.data > 0

    def apply(self, grad):
        return (grad * self.positive,)
