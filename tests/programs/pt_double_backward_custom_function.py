"""After PyTorch's "Double Backward with Custom Functions" (saving inputs, saving outputs, gradcheck)."""
import torch


class Square(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)  # an input: its backward is differentiable as it stands
        return x ** 2

    @staticmethod
    def backward(ctx, grad_out):
        x, = ctx.saved_tensors
        return grad_out * 2 * x


class Exp(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        result = torch.exp(x)
        ctx.save_for_backward(result)  # an output: backward uses it through the graph
        return result

    @staticmethod
    def backward(ctx, grad_out):
        result, = ctx.saved_tensors
        return result * grad_out


x = torch.tensor([0.5, -1.5, 2.0], requires_grad=True, dtype=torch.double)
print(torch.autograd.gradcheck(Square.apply, x), torch.autograd.gradgradcheck(Square.apply, x))
print(torch.autograd.gradcheck(Exp.apply, x), torch.autograd.gradgradcheck(Exp.apply, x))

y = Square.apply(x)
(g,) = torch.autograd.grad(y.sum(), x, create_graph=True)
print(g, g.grad_fn)
(gg,) = torch.autograd.grad(g.sum(), x)
print(gg)
y = Exp.apply(x)
(g,) = torch.autograd.grad(y.sum(), x, create_graph=True)
(gg,) = torch.autograd.grad(g.sum(), x)
print(g, gg)
