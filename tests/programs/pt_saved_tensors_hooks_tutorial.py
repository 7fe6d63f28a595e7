"""After PyTorch's tutorial "Hooks for autograd saved tensors" (intermediate): the ``_saved_*``
attributes, pack/unpack hooks that print, that scale, that keep an index or a tuple, ``save_on_cpu``
inside a module, and the tutorial's last step, a module that saves to disk wrapped in
``nn.DataParallel`` (on a machine without GPUs it just runs the module)."""
import os
import tempfile
import uuid

import numpy as np
import torch
import torch.nn as nn

rng = np.random.default_rng(3)
torch.manual_seed(0)

a = torch.tensor(rng.standard_normal(4), dtype=torch.float32, requires_grad=True)
b = torch.ones(4, requires_grad=True)
y = a * b
print(y.grad_fn._saved_self is a, y.grad_fn._saved_other is b)
y = torch.exp(a)
print(y.grad_fn._saved_result.equal(y), y.grad_fn._saved_result is y)


def pack_hook(x):
    print("Packing", x)
    return x


def unpack_hook(x):
    print("Unpacking", x)
    return x


a = torch.ones(3, requires_grad=True)
b = torch.ones(3, requires_grad=True) * 2
with torch.autograd.graph.saved_tensors_hooks(pack_hook, unpack_hook):
    y = a * b
y.sum().backward()
print(a.grad)

storage = []


def pack(x):
    storage.append(x)
    return len(storage) - 1


def unpack(i):
    return storage[i]


x = torch.tensor(rng.standard_normal(4), dtype=torch.float32, requires_grad=True)
with torch.autograd.graph.saved_tensors_hooks(pack, unpack):
    y = x * x
y.sum().backward()
print(len(storage), x.grad.equal(2 * x))

x.grad = None
with torch.autograd.graph.saved_tensors_hooks(lambda t: t * 4, lambda t: t / 4):
    y = torch.pow(x, 2)
y.sum().backward()
print(x.grad.equal(2 * x))


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.w = nn.Parameter(torch.tensor(rng.standard_normal(4), dtype=torch.float32))

    def forward(self, x):
        with torch.autograd.graph.save_on_cpu(pin_memory=True):
            return self.w * x


model = Model()
model(torch.ones(4) * 3).sum().backward()
print(model.w.grad)

tmp_dir = tempfile.mkdtemp()


class SelfDeletingTempFile:
    def __init__(self):
        self.name = os.path.join(tmp_dir, str(uuid.uuid4()))

    def __del__(self):
        os.remove(self.name)


def pack_to_disk(tensor):
    if tensor.numel() < 3:
        return tensor
    temp_file = SelfDeletingTempFile()
    torch.save(tensor, temp_file.name)
    return temp_file


def unpack_from_disk(tensor_or_file):
    if isinstance(tensor_or_file, torch.Tensor):
        return tensor_or_file
    return torch.load(tensor_or_file.name)


class SaveToDisk(nn.Module):
    def __init__(self, module):
        super().__init__()
        self.module = module

    def forward(self, *args, **kwargs):
        with torch.autograd.graph.saved_tensors_hooks(pack_to_disk, unpack_from_disk):
            return self.module(*args, **kwargs)


class Scale(nn.Module):
    def __init__(self):
        super().__init__()
        self.w = nn.Parameter(torch.tensor(rng.standard_normal(4), dtype=torch.float32))

    def forward(self, x):
        return self.w * x * x


net = nn.DataParallel(SaveToDisk(Scale()))
print(net, net.device_ids, [name for name, _ in net.named_parameters()])
x = torch.tensor(rng.standard_normal(4), dtype=torch.float32, requires_grad=True)
out = net(x)
print(len(os.listdir(tmp_dir)), out.grad_fn)
out.sum().backward()
del out
print(len(os.listdir(tmp_dir)), x.grad, net.module.module.w.grad)
