"""Adamax: Adam with the infinity norm, a running *maximum* of |g| instead of a mean of g**2.

PyTorch: ``torch/optim/adamax.py`` (``_single_tensor_adamax``).  For each parameter ``p`` with
gradient ``g`` at step ``t`` (1, 2, ...)::

    g = -g                                    if maximize
    g = g + weight_decay * p                  if weight_decay != 0
    m = beta1 * m + (1 - beta1) * g           ("exp_avg", starts at 0)
    u = max(beta2 * u, |g| + eps)             ("exp_inf", starts at 0)
    p = p - lr / (1 - beta1**t) * m / u
"""
from .. import creation
from ..autograd import grad_mode
from .optimizer import Optimizer, _check_adam_options, _check_plain_loop


class Adamax(Optimizer):
    def __init__(self, params, lr=2e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0, foreach=None, *,
                 maximize=False, differentiable=False, capturable=False):
        _check_adam_options(lr, betas, eps, weight_decay)
        _check_plain_loop(None, differentiable, capturable)
        defaults = dict(lr=lr, betas=betas, eps=eps, weight_decay=weight_decay, foreach=foreach, maximize=maximize,
                        differentiable=differentiable, capturable=capturable)
        super().__init__(params, defaults)

    @grad_mode.no_grad()
    def step(self, closure=None):
        """One update of every parameter that has a gradient; returns ``closure()``'s loss if given."""
        loss = self._closure_loss(closure)
        for group in self.param_groups:
            lr, (beta1, beta2), eps, weight_decay = group["lr"], group["betas"], group["eps"], group["weight_decay"]
            for p, grad, state in self._params_with_grad(group):
                if len(state) == 0:  # first step for this parameter
                    state["step"] = creation.tensor(0.0)
                    state["exp_avg"] = creation.zeros_like(p)
                    state["exp_inf"] = creation.zeros_like(p)
                exp_avg, exp_inf = state["exp_avg"], state["exp_inf"]

                state["step"] += 1
                if weight_decay != 0:
                    grad = grad.add(p, alpha=weight_decay)

                exp_avg.lerp_(grad, 1 - beta1)
                # (PyTorch: torch.maximum(exp_inf.mul_(beta2), grad.abs().add_(eps), out=exp_inf))
                exp_inf.copy_(exp_inf.mul_(beta2).maximum(grad.abs().add_(eps)))

                clr = lr / (1 - beta1 ** state["step"].item())
                p.addcdiv_(exp_avg, exp_inf, value=-clr)
        return loss
