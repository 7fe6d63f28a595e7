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
import numpy as np

from .. import creation
from ..autograd import grad_mode
from .optimizer import Optimizer, weight_decayed, _check_adam_options, _check_plain_loop, bump, fma, on_arrays


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
            for p, grad, state in self._params_with_grad(group, negate=False):
                if len(state) == 0:  # first step for this parameter
                    state["step"] = creation.tensor(0.0)
                    state["exp_avg"] = creation.zeros_like(p)
                    state["exp_avg_sq"] = creation.zeros_like(p)
                    if group["amsgrad"]:
                        state["max_exp_avg_sq"] = creation.zeros_like(p)
                if on_arrays(p, grad, state):
                    adam_step_on_arrays(p, grad, state, group)
                else:
                    adam_step(p, -grad if group["maximize"] else grad, state, group)
        return loss


def adam_step(p, grad, state, group):
    """One parameter's update in tensor ops (PyTorch's ``_single_tensor_adam``)."""
    lr, (beta1, beta2), eps = group["lr"], group["betas"], group["eps"]
    amsgrad = group["amsgrad"]
    exp_avg, exp_avg_sq = state["exp_avg"], state["exp_avg_sq"]

    state["step"] += 1
    step = state["step"].item()

    grad = weight_decayed(p, grad, group)

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


def adam_step_on_arrays(p, grad, state, group):
    """The same update on the numpy arrays of ``p``, its gradient and its state, in PyTorch's CPU kernels' order
    (what each in-place op of ``_single_tensor_adam`` computes, written into the arrays; see ``fma``).  Each tensor
    PyTorch changes in place gets its version bumped as many times as PyTorch's ops do."""
    lr, (beta1, beta2), eps = group["lr"], group["betas"], group["eps"]
    weight_decay = group["weight_decay"]
    x, g = p._data, grad._data
    m, v, t = state["exp_avg"]._data, state["exp_avg_sq"]._data, state["step"]._data
    number = x.dtype.type  # (a Python number meets a float32 tensor as a float32)

    t += 1  # step_t += 1
    bump(state["step"])
    step = float(t)
    if group["maximize"]:
        g = -g
    if weight_decay != 0:
        if group["decoupled_weight_decay"]:
            np.multiply(x, number(1 - lr * weight_decay), out=x)  # p.mul_(1 - lr * weight_decay)
            bump(p)
        else:
            g = fma(x, number(weight_decay), g)  # grad = grad.add(p, alpha=weight_decay)
    # exp_avg.lerp_(grad, 1 - beta1): start + weight * (end - start), or end - (1 - weight) * (end - start)
    weight = number(1 - beta1)
    if weight < 0.5:
        fma(g - m, weight, m, out=m)
    else:
        fma(g - m, weight - 1, g, out=m)
    bump(state["exp_avg"])
    np.multiply(v, number(beta2), out=v)  # exp_avg_sq.mul_(beta2).addcmul_(grad, grad, value=1 - beta2)
    fma(number(1 - beta2) * g, g, v, out=v)
    bump(state["exp_avg_sq"], 2)

    bias_correction1 = 1 - beta1 ** step
    bias_correction2 = 1 - beta2 ** step
    step_size = lr / bias_correction1
    bias_correction2_sqrt = bias_correction2 ** 0.5

    if group["amsgrad"]:
        np.maximum(state["max_exp_avg_sq"]._data, v, out=state["max_exp_avg_sq"]._data)
        bump(state["max_exp_avg_sq"])
        v = state["max_exp_avg_sq"]._data
    denom = np.sqrt(v) / number(bias_correction2_sqrt) + number(eps)
    x += number(-step_size) * m / denom  # p.addcdiv_(exp_avg, denom, value=-step_size)
    bump(p)
