"""ASGD: averaged stochastic gradient descent (Polyak & Juditsky): SGD, plus a running average of the weights.

PyTorch: ``torch/optim/asgd.py`` (``_single_tensor_asgd``).  The parameters follow SGD with a
decaying step ``eta`` and a decay term; ``state["ax"]`` holds the average of the parameters since step
``t0`` (the average is what one evaluates, e.g. by copying it into the model).  For each ``p`` at step ``t``::

    g = -g                                    if maximize
    g = g + weight_decay * p                  if weight_decay != 0
    p = p * (1 - lambd * eta)
    p = p - eta * g
    ax = ax + mu * (p - ax)                   (ax = p while mu is 1, that is until step t0)
    eta = lr / (1 + lambd * lr * t) ** alpha  ("eta", starts at lr)
    mu = 1 / max(1, t - t0)                   ("mu", starts at 1)

``eta`` and ``mu`` are float32 tensors (float64 if that is the default dtype), as in PyTorch.
"""
from .. import creation
from ..autograd import grad_mode
from .optimizer import Optimizer, _check_plain_loop


class ASGD(Optimizer):
    def __init__(self, params, lr=1e-2, lambd=1e-4, alpha=0.75, t0=1e6, weight_decay=0, foreach=None,
                 maximize=False, differentiable=False, capturable=False):
        if not 0.0 <= lr:
            raise ValueError(f"Invalid learning rate: {lr}")
        if not 0.0 <= weight_decay:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        _check_plain_loop(None, differentiable, capturable)
        defaults = dict(lr=lr, lambd=lambd, alpha=alpha, t0=t0, weight_decay=weight_decay, foreach=foreach,
                        maximize=maximize, differentiable=differentiable, capturable=capturable)
        super().__init__(params, defaults)

    @grad_mode.no_grad()
    def step(self, closure=None):
        """One update of every parameter that has a gradient; returns ``closure()``'s loss if given."""
        loss = self._closure_loss(closure)
        for group in self.param_groups:
            lr, lambd, alpha, t0 = group["lr"], group["lambd"], group["alpha"], group["t0"]
            for p, grad, state in self._params_with_grad(group):
                if len(state) == 0:  # first step for this parameter
                    state["step"] = creation.tensor(0.0)
                    state["eta"] = creation.tensor(float(lr))
                    state["mu"] = creation.tensor(1.0)
                    state["ax"] = creation.zeros_like(p)
                eta, mu, ax = state["eta"], state["mu"], state["ax"]

                state["step"] += 1
                if group["weight_decay"] != 0:
                    grad = grad.add(p, alpha=group["weight_decay"])

                eta_value = eta.item()
                p.mul_(1 - lambd * eta_value)  # decay term
                p.add_(grad, alpha=-eta_value)

                if mu.item() != 1:  # averaging
                    ax.add_(p.sub(ax).mul_(mu))
                else:
                    ax.copy_(p)

                step = state["step"].item()
                eta.fill_(lr / ((1 + lambd * lr * step) ** alpha))
                mu.fill_(1 / max(1, step - t0))
        return loss
