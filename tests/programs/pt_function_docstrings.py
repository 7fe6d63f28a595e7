"""After the examples in the docstrings of ``torch.autograd.Function`` (Exp) and of
``torch.autograd.function.FunctionCtx``: ``save_for_backward`` (Func with a non-tensor ``z``),
``mark_dirty`` (Inplace through ``x.numpy()``), ``mark_non_differentiable`` (Func with ``sort``),
``set_materialize_grads`` (SimpleFunc and its None-checking version); each backward is
``@once_differentiable`` as in the docstrings."""
import torch
from torch.autograd import Function
from torch.autograd.function import once_differentiable


def show(what, f):
    try:
        print(what, f())
    except Exception as e:  # noqa: BLE001
        print(what, type(e).__name__, e)


class Exp(Function):
    @staticmethod
    def forward(ctx, i):
        result = i.exp()
        ctx.save_for_backward(result)
        return result

    @staticmethod
    def backward(ctx, grad_output):
        result, = ctx.saved_tensors
        return grad_output * result


input = torch.tensor([0.0, 1.0, -2.0], requires_grad=True)
output = Exp.apply(input)
print(output, output.grad_fn, type(output.grad_fn).__name__, output.grad_fn.name())
print(output.grad_fn.next_functions, output.grad_fn.saved_tensors[0].equal(output))
output.sum().backward()
print(input.grad)
show("saved after backward", lambda: output.grad_fn.saved_tensors)


class SaveFunc(Function):  # FunctionCtx.save_for_backward's Func
    @staticmethod
    def forward(ctx, x, y, z):
        w = x * z
        out = x * y + y * z + w * y
        ctx.save_for_backward(x, y, w, out)
        ctx.z = z  # z is not a tensor
        return out

    @staticmethod
    @once_differentiable
    def backward(ctx, grad_out):
        x, y, w, out = ctx.saved_tensors
        z = ctx.z
        gx = grad_out * (y + y * z)
        gy = grad_out * (x + z + w)
        gz = None
        return gx, gy, gz


a = torch.tensor(1., requires_grad=True, dtype=torch.double)
b = torch.tensor(2., requires_grad=True, dtype=torch.double)
c = 4
d = SaveFunc.apply(a, b, c)
print(d, d.grad_fn.next_functions, d.grad_fn.needs_input_grad, d.grad_fn.z)
print([t.item() for t in d.grad_fn.saved_tensors], d.grad_fn.saved_tensors[3] is d, d.grad_fn.saved_tensors[0] is a)
d.backward()
print(a.grad, b.grad)
print(torch.autograd.gradcheck(lambda x, y: SaveFunc.apply(x, y, c), (a, b)))
d = SaveFunc.apply(a, b, c)
(ga, gb) = torch.autograd.grad(d, (a, b), create_graph=True)
print(ga, gb, ga.requires_grad, ga.grad_fn)  # the gradient that came in needs no grad: no Error node
(ga, gb) = torch.autograd.grad(SaveFunc.apply(a, b, c), (a, b), torch.tensor(1., dtype=torch.double, requires_grad=True),
                               create_graph=True)
print(ga, ga.grad_fn, ga.grad_fn.name())
show("differentiate twice", lambda: ga.backward())


class SaveFuncBad(Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x, 3)
        return x * 1


show("save a number", lambda: SaveFuncBad.apply(a))


class Inplace(Function):  # FunctionCtx.mark_dirty's example
    @staticmethod
    def forward(ctx, x):
        x_npy = x.numpy()  # x_npy shares storage with x
        x_npy += 1
        ctx.mark_dirty(x)
        return x

    @staticmethod
    @once_differentiable
    def backward(ctx, grad_output):
        return grad_output


a = torch.tensor(1., requires_grad=True, dtype=torch.double).clone()
b = a * a
out = Inplace.apply(a)  # This would lead to wrong gradients! but the engine would not know unless we mark_dirty
print(out is a, a, a.grad_fn, a._version)
show("b.backward()", lambda: b.backward())
show("on a leaf", lambda: Inplace.apply(torch.tensor(1., requires_grad=True, dtype=torch.double)))
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = Inplace.apply(x * 1)
y.sum().backward()
print(y, x.grad)


class Func(Function):  # FunctionCtx.mark_non_differentiable's example
    @staticmethod
    def forward(ctx, x):
        sorted, idx = x.sort()
        ctx.mark_non_differentiable(idx)
        ctx.save_for_backward(x, idx)
        return sorted, idx

    @staticmethod
    @once_differentiable
    def backward(ctx, g1, g2):  # still need to accept g2
        x, idx = ctx.saved_tensors
        grad_input = torch.zeros_like(x)
        grad_input.index_add_(0, idx, g1)
        return grad_input


x = torch.tensor([3.0, -1.0, 2.0, 0.5], requires_grad=True)
s, i = Func.apply(x)
print(s, i, s.requires_grad, i.requires_grad, i.grad_fn)
(s * torch.tensor([1.0, 2.0, 3.0, 4.0])).sum().backward()
print(x.grad)
print(x.sort(), x.sort(descending=True).indices)


class SimpleFunc(Function):  # FunctionCtx.set_materialize_grads's example
    @staticmethod
    def forward(ctx, x):
        return x.clone(), x.clone()

    @staticmethod
    @once_differentiable
    def backward(ctx, g1, g2):
        print("SimpleFunc got", g1, g2)
        return g1 + g2  # No check for None necessary


class MaterializeFunc(Function):  # We modify SimpleFunc to handle non-materialized grad outputs
    @staticmethod
    def forward(ctx, x):
        ctx.set_materialize_grads(False)
        ctx.save_for_backward(x)
        return x.clone(), x.clone()

    @staticmethod
    @once_differentiable
    def backward(ctx, g1, g2):
        print("Func got", g1, g2)
        x, = ctx.saved_tensors
        grad_input = torch.zeros_like(x)
        if g1 is not None:  # We must check for None now
            grad_input += g1
        if g2 is not None:
            grad_input += g2
        return grad_input


a = torch.tensor(1., requires_grad=True)
b, _ = SimpleFunc.apply(a)
(b * 3).backward()
print(a.grad)
a = torch.tensor(1., requires_grad=True)
b, _ = MaterializeFunc.apply(a)  # induces g2 to be undefined
(b * 3).backward()
print(a.grad)
