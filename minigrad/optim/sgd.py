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
from ..autograd import grad_mode
from .optimizer import Optimizer, _check_plain_loop


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
            lr, momentum, dampening = group["lr"], group["momentum"], group["dampening"]
            weight_decay, nesterov = group["weight_decay"], group["nesterov"]
            for p in group["params"]:
                if p.grad is None:
                    continue
                grad = p.grad if not group["maximize"] else -p.grad

                if weight_decay != 0:
                    grad = grad.add(p, alpha=weight_decay)

                if momentum != 0:
                    grad = self._momentum_step(p, grad, momentum, dampening, nesterov)

                p.add_(grad, alpha=-lr)
        return loss

    def _momentum_step(self, p, grad, momentum, dampening, nesterov):
        """The direction with momentum: ``buf = momentum * buf + (1 - dampening) * grad`` (``grad`` itself at the
        first step), kept in ``self.state[p]``; Nesterov looks one step ahead, ``grad + momentum * buf``."""
        state = self.state[p]
        buf = state.get("momentum_buffer")
        if buf is None:
            buf = grad.detach().clone()
            state["momentum_buffer"] = buf
        else:
            buf.mul_(momentum).add_(grad, alpha=1 - dampening)
        if nesterov:
            return grad.add(buf, alpha=momentum)
        return buf
