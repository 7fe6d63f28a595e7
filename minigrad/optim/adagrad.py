"""Adagrad: each weight's step shrinks with the sum of all its squared gradients so far.

PyTorch: ``torch/optim/adagrad.py`` (``_single_tensor_adagrad``).  For each parameter ``p`` with
gradient ``g`` at step ``t`` (1, 2, ...)::

    g = -g                                  if maximize
    g = g + weight_decay * p                if weight_decay != 0
    clr = lr / (1 + (t - 1) * lr_decay)
    s = s + g * g                           ("sum", starts at initial_accumulator_value)
    p = p - clr * g / (sqrt(s) + eps)
"""
from .. import creation
from ..autograd import grad_mode
from .optimizer import Optimizer, _check_plain_loop


class Adagrad(Optimizer):
    def __init__(self, params, lr=1e-2, lr_decay=0, weight_decay=0, initial_accumulator_value=0, eps=1e-10,
                 foreach=None, *, maximize=False, differentiable=False, fused=None):
        if not 0.0 <= lr:
            raise ValueError(f"Invalid learning rate: {lr}")
        if not 0.0 <= lr_decay:
            raise ValueError(f"Invalid lr_decay value: {lr_decay}")
        if not 0.0 <= weight_decay:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        if not 0.0 <= initial_accumulator_value:
            raise ValueError(f"Invalid initial_accumulator_value value: {initial_accumulator_value}")
        if not 0.0 <= eps:
            raise ValueError(f"Invalid epsilon value: {eps}")
        _check_plain_loop(fused, differentiable)
        defaults = dict(lr=lr, lr_decay=lr_decay, eps=eps, weight_decay=weight_decay,
                        initial_accumulator_value=initial_accumulator_value, foreach=foreach, maximize=maximize,
                        differentiable=differentiable, fused=fused)
        super().__init__(params, defaults)
        for group in self.param_groups:  # PyTorch makes Adagrad's state at once, not at the first step
            for p in group["params"]:
                self.state[p]["step"] = creation.tensor(0.0)
                self.state[p]["sum"] = creation.full_like(p, initial_accumulator_value)

    @grad_mode.no_grad()
    def step(self, closure=None):
        """One update of every parameter that has a gradient; returns ``closure()``'s loss if given."""
        loss = self._closure_loss(closure)
        for group in self.param_groups:
            for p, grad, state in self._params_with_grad(group):
                state["step"] += 1
                step = state["step"].item()
                if group["weight_decay"] != 0:
                    grad = grad.add(p, alpha=group["weight_decay"])
                clr = group["lr"] / (1 + (step - 1) * group["lr_decay"])
                state["sum"].add_(grad * grad)
                std = state["sum"].sqrt().add_(group["eps"])
                p.add_(grad / std, alpha=-clr)
        return loss
