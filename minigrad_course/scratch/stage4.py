"""Build it yourself, stage 4 (after notebook 04): every op is a Function, as in PyTorch.

Stage 3's engine, with the ops rewritten the way ``torch.autograd.Function`` writes them:
``forward(ctx, *inputs)`` computes the value and keeps what backward needs with
``ctx.save_for_backward``; ``backward(ctx, grad)`` reads ``ctx.saved_tensors`` and returns one
gradient per input (``None`` where ``ctx.needs_input_grad`` says none is wanted).  ``Op.apply``
runs forward without recording and makes the node, which is also the ``ctx``: its name is
PyTorch's (``MulBackward0``) for built-in ops, ``<YourClass>Backward`` for yours.  Gradients
are now Tensors, and backward formulas are ops themselves (run under ``no_grad``).
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
        # float32, PyTorch's default; numpy's float64 stays float64, as torch.tensor keeps it
        float64 = getattr(data, "dtype", None) == np.float64
        self.data = np.asarray(data, dtype=np.float64 if float64 else np.float32)
        self.requires_grad = requires_grad
        self.grad = None          # the gradient backward() leaves in a leaf
        self.grad_fn = None       # the node that made this tensor; None for a leaf
        self._accumulator = None  # a leaf's AccumulateGrad node, made the first time an op uses it

    @property
    def is_leaf(self):
        return self.grad_fn is None

    def __repr__(self):
        return f"tensor({self.data}, grad_fn={self.grad_fn.name() if self.grad_fn else None})"

    def __add__(self, other):
        return Add.apply(self, as_tensor(other))

    def __mul__(self, other):
        return Mul.apply(self, as_tensor(other))

    __radd__, __rmul__ = __add__, __mul__

    def sum(self):
        return Sum.apply(self)

    def relu(self):
        return Relu.apply(self)

    def mm(self, other):
        return Mm.apply(self, other)

    def t(self):
        return T.apply(self)

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
            gradient = Tensor(np.ones_like(self.data))  # d loss / d loss = 1
        elif as_tensor(gradient).data.shape != self.data.shape:
            raise RuntimeError(f"Mismatch in shape: grad_output[0] has a shape of torch.Size("
                               f"{list(as_tensor(gradient).data.shape)}) and output[0] has a shape of "
                               f"torch.Size({list(self.data.shape)}).")
        root, _ = edge(self)  # (a leaf's own AccumulateGrad when backward() is called on a leaf)
        order, seen = [], set()

        def visit(node):  # depth first: a node is listed after everything it sends gradients to
            if node is not None and node not in seen:
                seen.add(node)
                for nxt, _ in node.next_functions:
                    visit(nxt)
                order.append(node)

        visit(root)
        grads = {root: as_tensor(gradient)}
        with no_grad():  # the backward formulas are ops too: nothing to record
            for node in reversed(order):
                grads_out = node.apply(grads.pop(node))
                if not retain_graph:
                    node.saved = None  # free what the node saved: a second backward cannot run it
                for (nxt, _), g in zip(node.next_functions, grads_out):
                    if nxt is not None and g is not None:  # two paths to one node: gradients add up
                        grads[nxt] = grads[nxt] + g if nxt in grads else g


def as_tensor(x):
    """A Python number next to a tensor becomes a constant tensor (no gradient, no edge)."""
    return x if isinstance(x, Tensor) else Tensor(x)


def linspace(start, end, steps, requires_grad=False):
    return Tensor(np.linspace(start, end, steps, dtype=np.float32), requires_grad=requires_grad)


def relu(t):
    return t.relu()


# ---- the graph: edges, AccumulateGrad, and the node of a Function ----------------------------
def edge(t):
    """The ``(node, 0)`` pair a consumer of ``t`` keeps in its next_functions."""
    if t.grad_fn is not None:
        return (t.grad_fn, 0)
    if t.requires_grad:  # a leaf: its AccumulateGrad node, one per leaf
        if t._accumulator is None:
            t._accumulator = AccumulateGrad(t)
        return (t._accumulator, 0)
    return (None, 0)  # a constant: no gradient goes there


class AccumulateGrad:
    def __init__(self, variable):
        self.next_functions, self.saved = (), ()
        self.variable = variable  # the leaf

    def name(self):
        return "minigrad::autograd::AccumulateGrad"

    def apply(self, grad):
        v = self.variable
        v.grad = Tensor(grad.data.copy()) if v.grad is None else v.grad + grad
        return ()


class BackwardNode:
    """The node of one ``Function.apply`` call, and the ``ctx`` its forward and backward get."""

    def __init__(self, fn, inputs):
        self.fn = fn  # the Function subclass
        self.next_functions = tuple(edge(t) for t in inputs)
        self.needs_input_grad = tuple(t.requires_grad for t in inputs)
        self.saved = ()  # what backward will need; None once backward freed it

    def name(self):
        return self.fn.node_name or self.fn.__name__ + "Backward"

    def save_for_backward(self, *tensors):
        self.saved = tensors

    @property
    def saved_tensors(self):
        if self.saved is None:
            raise RuntimeError(FREED)
        return self.saved

    def apply(self, grad):
        grads = self.fn.backward(self, grad)
        return grads if isinstance(grads, tuple) else (grads,)


class Function:
    node_name = None  # built-in ops set PyTorch's node name

    @classmethod
    def apply(cls, *inputs):
        ctx = BackwardNode(cls, inputs)
        with no_grad():  # forward's own ops are not recorded
            out = cls.forward(ctx, *inputs)
        if grad_enabled and any(ctx.needs_input_grad):
            out.grad_fn, out.requires_grad = ctx, True
        return out


# ---- built-in ops: the formula, forward and backward side by side -----------------------------
class Add(Function):
    node_name = "AddBackward0"

    @staticmethod
    def forward(ctx, a, b):
        return Tensor(a.data + b.data)

    @staticmethod
    def backward(ctx, grad):
        return grad, grad


class Mul(Function):
    node_name = "MulBackward0"

    @staticmethod
    def forward(ctx, a, b):
        ctx.save_for_backward(a, b)
        return Tensor(a.data * b.data)

    @staticmethod
    def backward(ctx, grad):
        a, b = ctx.saved_tensors
        return grad * b, grad * a


class Sum(Function):
    node_name = "SumBackward0"

    @staticmethod
    def forward(ctx, a):
        ctx.shape = a.data.shape
        return Tensor(a.data.sum())

    @staticmethod
    def backward(ctx, grad):
        return Tensor(np.broadcast_to(grad.data, ctx.shape))


class Relu(Function):
    node_name = "ReluBackward0"

    @staticmethod
    def forward(ctx, a):
        out = Tensor(np.maximum(a.data, 0))
        ctx.save_for_backward(out)
        return out

    @staticmethod
    def backward(ctx, grad):
        out, = ctx.saved_tensors
        return grad * Tensor(out.data > 0)


class Mm(Function):
    node_name = "MmBackward0"

    @staticmethod
    def forward(ctx, a, b):
        ctx.save_for_backward(a, b)
        return Tensor(a.data @ b.data)

    @staticmethod
    def backward(ctx, grad):
        a, b = ctx.saved_tensors
        return (grad.mm(b.t()) if ctx.needs_input_grad[0] else None,
                a.t().mm(grad) if ctx.needs_input_grad[1] else None)


class T(Function):
    node_name = "TBackward0"

    @staticmethod
    def forward(ctx, a):
        return Tensor(a.data.T)

    @staticmethod
    def backward(ctx, grad):
        return grad.t()


class MMFunction(Function):
    """The syllabus's example: ``input.mm(weight.t())``; its node is named ``MMFunctionBackward``."""

    @staticmethod
    def forward(ctx, input, weight):
        ctx.save_for_backward(input, weight)
        return input.mm(weight.t())

    @staticmethod
    def backward(ctx, grad_output):
        input, weight = ctx.saved_tensors
        grad_input = grad_weight = None
        if ctx.needs_input_grad[0]:
            grad_input = grad_output.mm(weight)
        if ctx.needs_input_grad[1]:
            grad_weight = grad_output.t().mm(input)
        return grad_input, grad_weight
