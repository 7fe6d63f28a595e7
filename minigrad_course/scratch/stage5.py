"""Build it yourself, stage 5 (after notebook 05): Module, Parameter and an optimizer step.

Stage 4 as it is (imported below), plus what ``torch.nn`` adds on top of autograd:

- ``Parameter``: a tensor that requires grad by default and that a Module registers;
- ``Module``: its ``__setattr__`` notices Parameters and sub-Modules when you assign them
  (``self.weight = Parameter(...)``), so ``parameters()`` finds them all; ``module(x)`` calls
  ``forward(x)``; ``zero_grad()`` sets every parameter's ``.grad`` to None (PyTorch's default);
- ``SGD``: ``step()`` moves every parameter against its gradient, under ``no_grad``.
A Module has no backward of its own: autograd differentiates the ops its forward ran.
"""
import numpy as np

from .stage4 import *  # noqa: F401,F403  (Tensor, Function, no_grad, MMFunction, ... from stage 4)
from .stage4 import MMFunction, Tensor, no_grad


class Parameter(Tensor):
    def __init__(self, data, requires_grad=True):
        super().__init__(data.data if isinstance(data, Tensor) else data, requires_grad)

    def __repr__(self):
        return "Parameter containing:\n" + super().__repr__()


class Module:
    def __init__(self):
        object.__setattr__(self, "_parameters", {})
        object.__setattr__(self, "_modules", {})

    def __setattr__(self, name, value):
        if isinstance(value, Parameter):
            self._parameters[name] = value
        elif isinstance(value, Module):
            self._modules[name] = value
        object.__setattr__(self, name, value)

    def parameters(self):
        yield from self._parameters.values()
        for m in self._modules.values():
            yield from m.parameters()

    def named_parameters(self, prefix=""):
        for name, p in self._parameters.items():
            yield prefix + name, p
        for name, m in self._modules.items():
            yield from m.named_parameters(prefix + name + ".")

    def zero_grad(self):
        for p in self.parameters():
            p.grad = None

    def __call__(self, *args):
        return self.forward(*args)


class SGD:
    def __init__(self, params, lr):
        self.params, self.lr = list(params), lr

    def zero_grad(self):
        for p in self.params:
            p.grad = None

    def step(self):
        with no_grad():
            for p in self.params:
                if p.grad is not None:
                    p.data -= self.lr * p.grad.data  # in place: the Parameter stays the same object


class MMul(Module):
    """The syllabus's module: MMFunction with a (W, H) weight of ones, ``MMul(W, H)(input)``."""

    def __init__(self, W, H):
        super().__init__()
        self.weight = Parameter(np.ones((W, H), np.float32))

    def forward(self, input):
        return MMFunction.apply(input, self.weight)
