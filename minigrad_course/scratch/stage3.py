"""Build it yourself, stage 3 (after notebook 03): stage 2, plus what a second backward meets.

- A ``Tensor`` holds ``data`` (a numpy array), ``requires_grad``, ``grad`` and ``grad_fn``.
- Every op computes its value with numpy and, when some input requires grad, makes a node
  (``MulBackward0``, ...) whose ``next_functions`` hold one ``(node, 0)`` pair per input: the node
  that made the input, ``AccumulateGrad`` for a leaf, ``None`` for a constant.
- ``backward()`` orders the nodes so that each runs before the nodes it sends gradients to, and
  runs them; a leaf's ``AccumulateGrad`` adds into ``.grad``.
- New: ``backward()`` with no gradient only for a one-element output (PyTorch's error otherwise);
  ``backward(gradient=v)`` seeds the walk with ``v``, so each node computes a vector-Jacobian
  product: the leaves get ``v`` times the Jacobian, never the Jacobian itself.
- New: gradients accumulate in ``.grad`` until you ``zero_()`` it or set it to None; a node drops
  what it saved once it ran, so a second backward raises PyTorch's error unless the first one said
  ``retain_graph=True``; under ``with no_grad():`` ops record nothing.
Gradients flow as numpy arrays; ``.grad`` is a Tensor.  float32, one shape (or a tensor and a number).
"""
import numpy as np

FREED = ("Trying to backward through the graph a second time (or directly access saved tensors after they "
         "have already been freed). Saved intermediate values of the graph are freed when you call .backward() "
         "or autograd.grad(). Specify retain_graph=True if you need to backward through the graph a second time "
         "or if you need to access saved tensors after calling backward.")
grad_enabled = True  # False inside `with no_grad():`


class no_grad:
    def __enter__(self):
        global grad_enabled
        self.prev, grad_enabled = grad_enabled, False

    def __exit__(self, *exc):
        global grad_enabled
        grad_enabled = self.prev


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

    def zero_(self):
        self.data[...] = 0
        return self

    def backward(self, gradient=None, retain_graph=False):
        """Run every node once, in an order where a node runs after all nodes that feed it."""
        if self.grad_fn is None and not self.requires_grad:
            raise RuntimeError("element 0 of tensors does not require grad and does not have a grad_fn")
        if gradient is None:
            if self.data.size != 1:
                raise RuntimeError("grad can be implicitly created only for scalar outputs")
            gradient = np.ones_like(self.data)  # d loss / d loss = 1
        else:
            gradient = as_tensor(gradient).data
            if gradient.shape != self.data.shape:
                raise RuntimeError(f"Mismatch in shape: grad_output[0] has a shape of torch.Size({list(gradient.shape)})"
                                   f" and output[0] has a shape of torch.Size({list(self.data.shape)}).")
        root, _ = edge(self)  # (a leaf's own AccumulateGrad when backward() is called on a leaf)
        order, seen = [], set()

        def visit(node):  # depth first: a node is listed after everything it sends gradients to
            if node is not None and node not in seen:
                seen.add(node)
                for nxt, _ in node.next_functions:
                    visit(nxt)
                order.append(node)

        visit(root)
        grads = {root: gradient}
        for node in reversed(order):
            grad = grads.pop(node)
            grads_out = node.apply(grad)
            if not retain_graph:
                node.saved = None  # free what the node saved: a second backward cannot run it
            for (nxt, _), g in zip(node.next_functions, grads_out):
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
    if grad_enabled and any(nxt is not None for nxt, _ in node.next_functions):
        out.grad_fn, out.requires_grad = node, True
    return out


class Node:
    """``apply(grad)`` gets d loss/d output and returns d loss/d input, one per next_functions entry."""

    def __init__(self, *inputs):
        self.next_functions = tuple(edge(t) for t in inputs)
        self.saved = ()  # what backward will need; None once backward freed it

    def name(self):
        return type(self).__name__

    def unpack(self):
        if self.saved is None:
            raise RuntimeError(FREED)
        return self.saved


class AccumulateGrad(Node):
    def __init__(self, variable):
        self.next_functions, self.saved = (), ()
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
        self.saved = (a.data, b.data)

    def apply(self, grad):
        a, b = self.unpack()
        return grad * b, grad * a


class SumBackward0(Node):  # out = a.sum()
    def __init__(self, a):
        super().__init__(a)
        self.shape = a.data.shape

    def apply(self, grad):
        return (np.broadcast_to(grad, self.shape).copy(),)


class ReluBackward0(Node):  # out = max(a, 0)
    def __init__(self, a):
        super().__init__(a)
        self.saved = (a.data > 0,)

    def apply(self, grad):
        positive, = self.unpack()
        return (grad * positive,)
