"""NAdam: Adam with Nesterov momentum (Dozat, "Incorporating Nesterov Momentum into Adam").

PyTorch: ``torch/optim/nadam.py`` (``_single_tensor_nadam``).  For each parameter ``p`` with
gradient ``g`` at step ``t`` (1, 2, ...)::

    g = -g                                    if maximize
    g = g + weight_decay * p                  if weight_decay != 0   (decoupled: p = p * (1 - lr * weight_decay))
    mu_t = beta1 * (1 - 0.5 * 0.96 ** (t * momentum_decay))          the momentum of step t, rising to beta1
    mu_product = mu_product * mu_t            ("mu_product", starts at 1)
    m = beta1 * m + (1 - beta1) * g           ("exp_avg");  v = beta2 * v + (1 - beta2) * g * g ("exp_avg_sq")
    denom = sqrt(v / (1 - beta2**t)) + eps
    p = p - lr * (1 - mu_t) / (1 - mu_product) * g / denom                       the gradient's share...
    p = p - lr * mu_{t+1} / (1 - mu_product * mu_{t+1}) * m / denom              ...and the look-ahead momentum's

``mu_product`` is a float32 tensor (float64 if that is the default dtype), as in PyTorch.
"""
from .. import creation
from ..autograd import grad_mode
from .optimizer import Optimizer, weight_decayed, _check_adam_options, _check_plain_loop


class NAdam(Optimizer):
    def __init__(self, params, lr=2e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0, momentum_decay=4e-3,
                 decoupled_weight_decay=False, *, foreach=None, maximize=False, capturable=False,
                 differentiable=False):
        _check_adam_options(lr, betas, eps, weight_decay)
        if not 0.0 <= momentum_decay:
            raise ValueError(f"Invalid momentum_decay value: {momentum_decay}")
        _check_plain_loop(None, differentiable, capturable)
        defaults = dict(lr=lr, betas=betas, eps=eps, weight_decay=weight_decay, momentum_decay=momentum_decay,
                        decoupled_weight_decay=decoupled_weight_decay, maximize=maximize, foreach=foreach,
                        capturable=capturable, differentiable=differentiable)
        super().__init__(params, defaults)

    @grad_mode.no_grad()
    def step(self, closure=None):
        """One update of every parameter that has a gradient; returns ``closure()``'s loss if given."""
        loss = self._closure_loss(closure)
        for group in self.param_groups:
            lr, (beta1, beta2), eps = group["lr"], group["betas"], group["eps"]
            momentum_decay = group["momentum_decay"]
            for p, grad, state in self._params_with_grad(group):
                if len(state) == 0:  # first step for this parameter
                    state["step"] = creation.tensor(0.0)
                    state["mu_product"] = creation.tensor(1.0)
                    state["exp_avg"] = creation.zeros_like(p)
                    state["exp_avg_sq"] = creation.zeros_like(p)
                exp_avg, exp_avg_sq, mu_product = state["exp_avg"], state["exp_avg_sq"], state["mu_product"]

                state["step"] += 1
                step = state["step"].item()
                bias_correction2 = 1 - beta2 ** step

                grad = weight_decayed(p, grad, group)

                # the momentum of this step and of the next one
                mu = beta1 * (1.0 - 0.5 * (0.96 ** (step * momentum_decay)))
                mu_next = beta1 * (1.0 - 0.5 * (0.96 ** ((step + 1) * momentum_decay)))
                mu_product *= mu

                exp_avg.lerp_(grad, 1 - beta1)
                exp_avg_sq.mul_(beta2).addcmul_(grad, grad, value=1 - beta2)
                denom = exp_avg_sq.div(bias_correction2).sqrt()

                mu_product_next = mu_product.item() * mu_next
                denom.add_(eps)
                p.addcdiv_(grad, denom, value=-lr * (1.0 - mu) / (1.0 - mu_product.item()))
                p.addcdiv_(exp_avg, denom, value=-lr * mu_next / (1.0 - mu_product_next))
        return loss
