"""After PyTorch's "Extending PyTorch" note (docs/source/notes/extending.rst, "Extending torch.autograd"):
LinearFunction with a separate ``setup_context``, MulConstant with a non-tensor argument, MyCube
saving an intermediate for double backward, ``mark_dirty``, ``set_materialize_grads``,
``once_differentiable``, ``clear_saved_tensors_on_access`` and ``gradcheck``."""
import numpy as np
import torch
from torch.autograd import Function
from torch.autograd.function import once_differentiable


def show(what, f):
    try:
        print(what, f())
    except Exception as e:  # noqa: BLE001
        print(what, type(e).__name__, e)


class LinearFunction(Function):
    # forward no longer takes ctx: setup_context does what forward used to do with it
    @staticmethod
    def forward(input, weight, bias=None):
        output = input.mm(weight.t())
        if bias is not None:
            output += bias.unsqueeze(0).expand_as(output)
        return output

    @staticmethod
    def setup_context(ctx, inputs, output):
        input, weight, bias = inputs  # (bias is there even when apply was called without it)
        if SHOW:  # (not while gradcheck calls it: how often it does is its own business)
            print("setup_context: inputs", len(inputs), "needs_input_grad", ctx.needs_input_grad, "output grad_fn",
                  output.grad_fn)
        ctx.save_for_backward(input, weight, bias)

    @staticmethod
    def backward(ctx, grad_output):
        input, weight, bias = ctx.saved_tensors
        grad_input = grad_weight = grad_bias = None
        if ctx.needs_input_grad[0]:
            grad_input = grad_output.mm(weight)
        if ctx.needs_input_grad[1]:
            grad_weight = grad_output.t().mm(input)
        if bias is not None and ctx.needs_input_grad[2]:
            grad_bias = grad_output.sum(0)
        return grad_input, grad_weight, grad_bias


SHOW = True
rng = np.random.default_rng(0)
x = torch.tensor(rng.standard_normal((4, 3)), requires_grad=True)
w = torch.tensor(rng.standard_normal((2, 3)), requires_grad=True)
b = torch.tensor(rng.standard_normal(2), requires_grad=True)
out = LinearFunction.apply(x, w, b)
print(out, type(out.grad_fn).__name__, out.grad_fn.name(), out.grad_fn)
out.pow(2).sum().backward()
print(x.grad, w.grad, b.grad, sep="\n")
out = LinearFunction.apply(x, w)
print(out.grad_fn.saved_tensors[2], len(out.grad_fn.next_functions))
SHOW = False
print(torch.autograd.gradcheck(LinearFunction.apply, (x, w, b), eps=1e-6, atol=1e-4))
print(torch.autograd.gradcheck(LinearFunction.apply, (x, w), eps=1e-6, atol=1e-4))
with torch.no_grad():
    print(LinearFunction.apply(x, w, b).requires_grad)


class MulConstant(Function):
    @staticmethod
    def forward(tensor, constant):
        return tensor * constant

    @staticmethod
    def setup_context(ctx, inputs, output):
        # ctx is a context object that can be used to stash information for backward computation
        tensor, constant = inputs
        ctx.constant = constant

    @staticmethod
    def backward(ctx, grad_output):
        # We return as many input gradients as there were arguments.
        # Gradients of non-Tensor arguments to forward must be None.
        return grad_output * ctx.constant, None


t = torch.tensor([1.0, -2.0, 3.0], requires_grad=True)
y = MulConstant.apply(t, 5.5)
y.sum().backward()
print(y, t.grad, y.grad_fn.constant)


class BadMulConstant(MulConstant):
    @staticmethod
    def backward(ctx, grad_output):
        return grad_output * ctx.constant, grad_output


show("a gradient for the number", lambda: BadMulConstant.apply(t, 2.0).sum().backward())


class MyCube(Function):
    @staticmethod
    def forward(x):
        # We wish to save dx for backward. In order to do so, it must be returned as an output.
        result = x ** 3
        dx = 3 * x ** 2
        return result, dx

    @staticmethod
    def setup_context(ctx, inputs, output):
        x, = inputs
        result, dx = output
        ctx.save_for_backward(x, dx)

    @staticmethod
    def backward(ctx, grad_output, grad_dx):
        x, dx = ctx.saved_tensors
        # In order for the autograd.Function to work with higher-order gradients, we must add the
        # gradient contribution of `dx`, which is grad_dx * 6 * x.
        result = grad_output * dx + grad_dx * 6 * x
        return result


def my_cube(x):
    result, dx = MyCube.apply(x)
    return result


x = torch.tensor([0.5, -1.0, 2.0], dtype=torch.double, requires_grad=True)
y = my_cube(x)
(g,) = torch.autograd.grad(y.sum(), x, create_graph=True)
(gg,) = torch.autograd.grad(g.sum(), x)
print(y, g, gg, sep="\n")
print(torch.autograd.gradcheck(my_cube, x), torch.autograd.gradgradcheck(my_cube, x))


class Neither(Function):  # forward without ctx needs a setup_context
    @staticmethod
    def forward(x):
        return x * 2


class Both(Function):  # forward with ctx and setup_context: apply binds the inputs to forward's signature
    @staticmethod
    def forward(ctx, x):
        return x * 2

    @staticmethod
    def setup_context(ctx, inputs, output):
        pass


show("forward without ctx", lambda: Neither.apply(x))
show("both", lambda: Both.apply(x))
show("no forward", lambda: type("Empty", (Function,), {}).apply(x))


class NoBackward(Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2


show("no backward", lambda: NoBackward.apply(x).sum().backward())


class AddOne_(Function):  # an in-place Function: mark_dirty
    @staticmethod
    def forward(ctx, x):
        x.add_(1)
        ctx.mark_dirty(x)
        return x

    @staticmethod
    def backward(ctx, grad):
        return grad


a = torch.tensor([1.0, 2.0], requires_grad=True)
h = a * 3
v = h._version
r = AddOne_.apply(h)
print(r is h, h, h._version - v)
(h * h).sum().backward()
print(a.grad)


class ForgotDirty(Function):
    @staticmethod
    def forward(ctx, x):
        x.add_(1)
        ctx.mark_dirty(x)
        return x.clone()

    @staticmethod
    def backward(ctx, grad):
        return grad


show("dirty but not returned", lambda: ForgotDirty.apply(a * 1))


class Split(Function):  # set_materialize_grads(False): outputs without a gradient give None
    @staticmethod
    def forward(ctx, x, materialize):
        ctx.set_materialize_grads(materialize)
        return x[:1].clone(), x[1:].clone()

    @staticmethod
    def backward(ctx, g1, g2):
        print("grads in", g1, g2)
        g2 = torch.zeros(1) if g2 is None else g2
        return torch.cat([g1, g2]), None


a = torch.tensor([1.0, 2.0], requires_grad=True)
first, _ = Split.apply(a, True)
first.sum().backward()
first, _ = Split.apply(a, False)
first.sum().backward()
print(a.grad)


class ExpOnce(Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x.exp()

    @staticmethod
    @once_differentiable
    def backward(ctx, grad):
        x, = ctx.saved_tensors
        print("backward sees grad mode", torch.is_grad_enabled(), "saved requires_grad", x.requires_grad)
        return grad * x.exp()


x = torch.tensor([0.0, 1.0], requires_grad=True)
(g,) = torch.autograd.grad(ExpOnce.apply(x).sum(), x, create_graph=True)
print(g, g.requires_grad)
(g,) = torch.autograd.grad(ExpOnce.apply(x).pow(2).sum(), x, create_graph=True)
print(g, g.grad_fn, g.grad_fn.name(), g.grad_fn.next_functions)
show("double backward", lambda: g.sum().backward())
show("grad of it", lambda: torch.autograd.grad(g.sum(), x))


class ReadOnce(Function):
    clear_saved_tensors_on_access = True

    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * x

    @staticmethod
    def backward(ctx, grad):
        x, = ctx.saved_tensors
        show("again", lambda: ctx.saved_tensors)
        return 2 * x * grad


x = torch.tensor([1.0, 3.0], requires_grad=True)
y = ReadOnce.apply(x)
y.sum().backward(retain_graph=True)
print(x.grad)
show("second backward", lambda: y.sum().backward())
