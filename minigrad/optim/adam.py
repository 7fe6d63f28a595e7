"""Adam: gradient descent with per-weight step sizes from running averages of the gradient.

PyTorch: ``torch/optim/adam.py`` (``_single_tensor_adam``).  For each parameter ``p`` with
gradient ``g``, step number ``t`` (1, 2, ...)::

    g = -g                                  if maximize
    g = g + weight_decay * p                if weight_decay != 0   (classic L2; see decoupled below)
    m = beta1 * m + (1 - beta1) * g         running mean of g        ("exp_avg", starts at 0)
    v = beta2 * v + (1 - beta2) * g * g     running mean of g**2     ("exp_avg_sq", starts at 0)
    v_max = max(v_max, v)                   if amsgrad: use v_max instead of v below

    # m and v start at 0, so early on they are too small: divide by (1 - beta**t) to correct
    step_size = lr / (1 - beta1**t)
    denom     = sqrt(v) / sqrt(1 - beta2**t) + eps
    p = p - step_size * m / denom           (in place)

That is ``p -= lr * m_hat / (sqrt(v_hat) + eps)`` of the paper, written the way PyTorch
rounds it.  With ``decoupled_weight_decay=True`` (AdamW) the decay is ``p *= 1 - lr * weight_decay``
instead of being added to the gradient.
"""
from .. import creation
from ..autograd import grad_mode
from .optimizer import Optimizer, _check_adam_options, _check_plain_loop


class Adam(Optimizer):
    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0, amsgrad=False, *,
                 foreach=None, maximize=False, capturable=False, differentiable=False, fused=None,
                 decoupled_weight_decay=False):
        _check_adam_options(lr, betas, eps, weight_decay)
        _check_plain_loop(fused, differentiable, capturable)
        defaults = dict(lr=lr, betas=tuple(betas), eps=eps, weight_decay=weight_decay, amsgrad=amsgrad,
                        maximize=maximize, foreach=foreach, capturable=capturable, differentiable=differentiable,
                        fused=fused, decoupled_weight_decay=decoupled_weight_decay)
        super().__init__(params, defaults)

    @grad_mode.no_grad()
    def step(self, closure=None):
        """One update of every parameter that has a gradient; returns ``closure()``'s loss if given."""
        loss = self._closure_loss(closure)

        for group in self.param_groups:
            lr, (beta1, beta2), eps = group["lr"], group["betas"], group["eps"]
            weight_decay, amsgrad = group["weight_decay"], group["amsgrad"]
            for p, grad, state in self._params_with_grad(group):
                if len(state) == 0:  # first step for this parameter
                    state["step"] = creation.tensor(0.0)
                    state["exp_avg"] = creation.zeros_like(p)
                    state["exp_avg_sq"] = creation.zeros_like(p)
                    if amsgrad:
                        state["max_exp_avg_sq"] = creation.zeros_like(p)
                exp_avg, exp_avg_sq = state["exp_avg"], state["exp_avg_sq"]

                state["step"] += 1
                step = state["step"].item()

                if weight_decay != 0:
                    if group["decoupled_weight_decay"]:
                        p.mul_(1 - lr * weight_decay)
                    else:
                        grad = grad.add(p, alpha=weight_decay)

                # running averages of the gradient and of its square
                # (PyTorch writes the first as exp_avg.lerp_(grad, 1 - beta1): the same formula)
                exp_avg.mul_(beta1).add_(grad, alpha=1 - beta1)
                exp_avg_sq.mul_(beta2).add_(grad * grad, alpha=1 - beta2)

                bias_correction1 = 1 - beta1 ** step
                bias_correction2 = 1 - beta2 ** step
                step_size = lr / bias_correction1
                bias_correction2_sqrt = bias_correction2 ** 0.5

                if amsgrad:
                    max_exp_avg_sq = state["max_exp_avg_sq"]
                    max_exp_avg_sq.copy_(max_exp_avg_sq.maximum(exp_avg_sq))
                    denom = (max_exp_avg_sq.sqrt() / bias_correction2_sqrt).add_(eps)
                else:
                    denom = (exp_avg_sq.sqrt() / bias_correction2_sqrt).add_(eps)

                p.add_(exp_avg / denom, alpha=-step_size)
        return loss
