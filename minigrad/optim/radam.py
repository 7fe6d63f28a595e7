"""RAdam: Adam whose adaptive step is "rectified" while v has seen too few gradients to be trusted.

PyTorch: ``torch/optim/radam.py`` (``_single_tensor_radam``; Liu et al., "On the Variance of the
Adaptive Learning Rate and Beyond").  For each parameter ``p`` with gradient ``g`` at step ``t``::

    g = -g                                    if maximize
    g = g + weight_decay * p                  if weight_decay != 0   (decoupled: p = p * (1 - lr * weight_decay))
    m = beta1 * m + (1 - beta1) * g           ("exp_avg");  v = beta2 * v + (1 - beta2) * g * g ("exp_avg_sq")
    m_hat = m / (1 - beta1**t)
    rho_inf = 2 / (1 - beta2) - 1             how many gradients v averages, at most
    rho_t = rho_inf - 2 * t * beta2**t / (1 - beta2**t)
    if rho_t > 5:   p = p - lr * m_hat * sqrt(1 - beta2**t) / (sqrt(v) + eps) * rect
                    with rect = sqrt((rho_t - 4) (rho_t - 2) rho_inf / ((rho_inf - 4) (rho_inf - 2) rho_t))
    else:           p = p - lr * m_hat        (plain momentum SGD for the first few steps)
"""
from .. import creation
from ..autograd import grad_mode
from .optimizer import Optimizer, weight_decayed, _check_adam_options, _check_plain_loop


class RAdam(Optimizer):
    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0, decoupled_weight_decay=False,
                 *, foreach=None, maximize=False, capturable=False, differentiable=False):
        _check_adam_options(lr, betas, eps, weight_decay)
        _check_plain_loop(None, differentiable, capturable)
        defaults = dict(lr=lr, betas=betas, eps=eps, weight_decay=weight_decay, maximize=maximize, foreach=foreach,
                        capturable=capturable, decoupled_weight_decay=decoupled_weight_decay,
                        differentiable=differentiable)
        super().__init__(params, defaults)

    @grad_mode.no_grad()
    def step(self, closure=None):
        """One update of every parameter that has a gradient; returns ``closure()``'s loss if given."""
        loss = self._closure_loss(closure)
        for group in self.param_groups:
            lr, (beta1, beta2), eps = group["lr"], group["betas"], group["eps"]
            for p, grad, state in self._params_with_grad(group):
                if len(state) == 0:  # first step for this parameter
                    state["step"] = creation.tensor(0.0)
                    state["exp_avg"] = creation.zeros_like(p)
                    state["exp_avg_sq"] = creation.zeros_like(p)
                exp_avg, exp_avg_sq = state["exp_avg"], state["exp_avg_sq"]

                state["step"] += 1
                step = state["step"].item()

                grad = weight_decayed(p, grad, group)

                exp_avg.lerp_(grad, 1 - beta1)
                exp_avg_sq.mul_(beta2).addcmul_(grad, grad, value=1 - beta2)

                bias_correction1 = 1 - beta1 ** step
                bias_correction2 = 1 - beta2 ** step
                bias_corrected_exp_avg = exp_avg / bias_correction1

                rho_inf = 2 / (1 - beta2) - 1
                rho_t = rho_inf - 2 * step * (beta2 ** step) / bias_correction2
                if rho_t > 5.0:  # enough gradients seen: the rectified Adam step
                    rect = ((rho_t - 4) * (rho_t - 2) * rho_inf / ((rho_inf - 4) * (rho_inf - 2) * rho_t)) ** 0.5
                    adaptive_lr = (bias_correction2 ** 0.5) / exp_avg_sq.sqrt().add_(eps)
                    p.add_(bias_corrected_exp_avg * lr * adaptive_lr * rect, alpha=-1.0)
                else:
                    p.add_(bias_corrected_exp_avg * lr, alpha=-1.0)
        return loss
