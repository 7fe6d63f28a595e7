"""Stochastic gradient descent, with momentum, Nesterov momentum and weight decay.

PyTorch: ``torch/optim/sgd.py`` (``_single_tensor_sgd``).  For each parameter ``p`` with
gradient ``g`` one step does, in this order::

    g = -g                              if maximize
    g = g + weight_decay * p            if weight_decay != 0   (L2 penalty: grad of wd/2 * |p|^2)
    if momentum != 0:
        b = g                           on the first step (a copy: not zeros!)
        b = momentum * b + (1 - dampening) * g     afterwards
        g = g + momentum * b            if nesterov
        g = b                           otherwise
    p = p - lr * g                      (in place)
"""
import numpy as np

from ..autograd import grad_mode
from ..tensor import Tensor
from .optimizer import Optimizer, _check_plain_loop, bump, fma, on_arrays


class SGD(Optimizer):
    def __init__(self, params, lr=1e-3, momentum=0, dampening=0, weight_decay=0, nesterov=False, *,
                 maximize=False, foreach=None, differentiable=False, fused=None):
        if lr < 0.0:
            raise ValueError(f"Invalid learning rate: {lr}")
        if momentum < 0.0:
            raise ValueError(f"Invalid momentum value: {momentum}")
        if weight_decay < 0.0:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        _check_plain_loop(fused, differentiable)
        defaults = dict(lr=lr, momentum=momentum, dampening=dampening, weight_decay=weight_decay,
                        nesterov=nesterov, maximize=maximize, foreach=foreach, differentiable=differentiable,
                        fused=fused)
        if nesterov and (momentum <= 0 or dampening != 0):
            raise ValueError("Nesterov momentum requires a momentum and zero dampening")
        super().__init__(params, defaults)

    @grad_mode.no_grad()
    def step(self, closure=None):
        """One update of every parameter that has a gradient; returns ``closure()``'s loss if given."""
        loss = self._closure_loss(closure)

        for group in self.param_groups:
            for p in group["params"]:
                if p.grad is None:
                    continue
                state = self.state[p] if group["momentum"] != 0 else {}  # (PyTorch keeps no state without momentum)
                if on_arrays(p, p.grad, state):
                    sgd_step_on_arrays(p, p.grad, state, group)
                else:
                    sgd_step(p, p.grad if not group["maximize"] else -p.grad, state, group)
        return loss


def sgd_step(p, grad, state, group):
    """One parameter's update in tensor ops (PyTorch's ``_single_tensor_sgd``)."""
    lr, momentum, dampening = group["lr"], group["momentum"], group["dampening"]
    if group["weight_decay"] != 0:
        grad = grad.add(p, alpha=group["weight_decay"])
    if momentum != 0:
        # the direction with momentum: buf = momentum * buf + (1 - dampening) * grad (grad itself at the first
        # step); Nesterov looks one step ahead, grad + momentum * buf
        buf = state.get("momentum_buffer")
        if buf is None:
            buf = grad.detach().clone()
            state["momentum_buffer"] = buf
        else:
            buf.mul_(momentum).add_(grad, alpha=1 - dampening)
        grad = grad.add(buf, alpha=momentum) if group["nesterov"] else buf
    p.add_(grad, alpha=-lr)


def sgd_step_on_arrays(p, grad, state, group):
    """The same update on the numpy arrays of ``p``, its gradient and its momentum buffer, in PyTorch's CPU kernels'
    order (each ``add(..., alpha=...)`` a fused multiply-add, see ``fma``): for float32, PyTorch's numbers bit for
    bit.  The tensors changed in place get their versions bumped as PyTorch's ops bump them."""
    lr, momentum, dampening = group["lr"], group["momentum"], group["dampening"]
    x, g = p._data, grad._data
    number = x.dtype.type  # (a Python number meets a float32 tensor as a float32)
    if group["maximize"]:
        g = -g
    if group["weight_decay"] != 0:
        g = fma(x, number(group["weight_decay"]), g)  # grad = grad.add(p, alpha=weight_decay)
    if momentum != 0:
        buf = state.get("momentum_buffer")
        if buf is None:  # torch.clone(grad).detach()
            state["momentum_buffer"] = Tensor(g.copy(order="K"))
        else:  # buf.mul_(momentum).add_(grad, alpha=1 - dampening)
            np.multiply(buf._data, number(momentum), out=buf._data)
            fma(g, number(1 - dampening), buf._data, out=buf._data)
            bump(buf, 2)
        b = state["momentum_buffer"]._data
        g = fma(b, number(momentum), g) if group["nesterov"] else b  # grad.add(buf, alpha=momentum), or buf
    fma(g, number(-lr), x, out=x)  # p.add_(grad, alpha=-lr)
    bump(p)
