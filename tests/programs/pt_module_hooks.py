"""After PyTorch's docs for nn.Module hooks (register_forward_hook, register_full_backward_hook) and the
forward/backward hook examples of the autograd tutorials: watch activations and gradients of a model."""
import numpy as np
import torch
import torch.nn as nn

model = nn.Sequential(nn.Linear(3, 4), nn.Tanh(), nn.Linear(4, 2))
rng = np.random.default_rng(5)
with torch.no_grad():
    for p in model.parameters():
        p.copy_(torch.tensor(rng.uniform(-1, 1, p.shape), dtype=torch.float32))

activations, grads = {}, {}


def save_activation(name):
    def hook(module, args, output):
        activations[name] = output.detach()
    return hook


def save_grad(name):
    def hook(module, grad_input, grad_output):
        grads[name] = (grad_input[0], grad_output[0])
    return hook


for name, layer in model.named_children():
    layer.register_forward_hook(save_activation(name))
    layer.register_full_backward_hook(save_grad(name))

x = torch.tensor(rng.standard_normal((2, 3)), dtype=torch.float32, requires_grad=True)
out = model(x)
print(type(out.grad_fn).__name__)
out.pow(2).sum().backward()
for name in sorted(activations):
    print(name, activations[name])
for name in sorted(grads):
    gi, go = grads[name]
    print(name, gi, go)
print(x.grad)
