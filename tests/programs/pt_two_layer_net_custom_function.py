"""After the older "Learning PyTorch with Examples": two_layer_net_custom_function.py (MyReLU)."""
import numpy as np
import torch


class MyReLU(torch.autograd.Function):
    @staticmethod
    def forward(ctx, input):
        ctx.save_for_backward(input)
        return input.clamp(min=0)

    @staticmethod
    def backward(ctx, grad_output):
        input, = ctx.saved_tensors
        grad_input = grad_output.clone()
        grad_input[input < 0] = 0
        return grad_input


dtype = torch.float
device = torch.device("cpu")
N, D_in, H, D_out = 16, 20, 10, 3
rng = np.random.default_rng(2)
x = torch.tensor(rng.standard_normal((N, D_in)), device=device, dtype=dtype)
y = torch.tensor(rng.standard_normal((N, D_out)), device=device, dtype=dtype)
w1 = torch.tensor(rng.standard_normal((D_in, H)), device=device, dtype=dtype, requires_grad=True)
w2 = torch.tensor(rng.standard_normal((H, D_out)), device=device, dtype=dtype, requires_grad=True)

learning_rate = 1e-4
for t in range(300):
    relu = MyReLU.apply
    y_pred = relu(x.mm(w1)).mm(w2)
    loss = (y_pred - y).pow(2).sum()
    if t % 100 == 99:
        print(t, round(loss.item(), 3))
    loss.backward()
    with torch.no_grad():
        w1 -= learning_rate * w1.grad
        w2 -= learning_rate * w2.grad
        w1.grad.zero_()
        w2.grad.zero_()
print(y_pred.grad_fn, type(y_pred.grad_fn.next_functions[0][0]).__name__)
# tolerance: 1e-3
