"""Adadelta: a step size from running averages of g**2 and of the past updates (no lr needed, in theory).

PyTorch: ``torch/optim/adadelta.py`` (``_single_tensor_adadelta``; Zeiler, "ADADELTA").  For each
parameter ``p`` with gradient ``g``::

    g = -g                                    if maximize
    g = g + weight_decay * p                  if weight_decay != 0
    v = rho * v + (1 - rho) * g * g           ("square_avg", starts at 0)
    delta = sqrt(u + eps) / sqrt(v + eps) * g the update, in the units of p
    u = rho * u + (1 - rho) * delta * delta   ("acc_delta", starts at 0)
    p = p - lr * delta                        (lr is 1 by default)
"""
from .. import creation
from ..autograd import grad_mode
from .optimizer import Optimizer, _check_plain_loop


class Adadelta(Optimizer):
    def __init__(self, params, lr=1.0, rho=0.9, eps=1e-6, weight_decay=0, foreach=None, *, capturable=False,
                 maximize=False, differentiable=False):
        if not 0.0 <= lr:
            raise ValueError(f"Invalid learning rate: {lr}")
        if not 0.0 <= rho <= 1.0:
            raise ValueError(f"Invalid rho value: {rho}")
        if not 0.0 <= eps:
            raise ValueError(f"Invalid epsilon value: {eps}")
        if not 0.0 <= weight_decay:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        _check_plain_loop(None, differentiable, capturable)
        defaults = dict(lr=lr, rho=rho, eps=eps, weight_decay=weight_decay, maximize=maximize, capturable=capturable,
                        foreach=foreach, differentiable=differentiable)
        super().__init__(params, defaults)

    @grad_mode.no_grad()
    def step(self, closure=None):
        """One update of every parameter that has a gradient; returns ``closure()``'s loss if given."""
        loss = self._closure_loss(closure)
        for group in self.param_groups:
            lr, rho, eps, weight_decay = group["lr"], group["rho"], group["eps"], group["weight_decay"]
            for p, grad, state in self._params_with_grad(group):
                if len(state) == 0:  # first step for this parameter
                    state["step"] = creation.tensor(0.0)
                    state["square_avg"] = creation.zeros_like(p)
                    state["acc_delta"] = creation.zeros_like(p)
                square_avg, acc_delta = state["square_avg"], state["acc_delta"]

                state["step"] += 1
                if weight_decay != 0:
                    grad = grad.add(p, alpha=weight_decay)

                square_avg.mul_(rho).addcmul_(grad, grad, value=1 - rho)
                std = square_avg.add(eps).sqrt_()
                delta = acc_delta.add(eps).sqrt_()
                delta.div_(std).mul_(grad)
                acc_delta.mul_(rho).addcmul_(delta, delta, value=1 - rho)
                p.add_(delta, alpha=-lr)
        return loss
