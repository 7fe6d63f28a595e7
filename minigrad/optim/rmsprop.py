"""RMSprop: divide each step by a running root-mean-square of the gradient.

PyTorch: ``torch/optim/rmsprop.py`` (``_single_tensor_rmsprop``).  For each parameter ``p`` with
gradient ``g``::

    g = -g                                  if maximize
    g = g + weight_decay * p                if weight_decay != 0
    v = alpha * v + (1 - alpha) * g * g     running mean of g**2   ("square_avg", starts at 0)
    avg = sqrt(v) + eps                     centered: sqrt(v - m * m) + eps, with m the running mean of g
    p = p - lr * g / avg                    momentum > 0: b = momentum * b + g / avg;  p = p - lr * b
"""
from .. import creation
from ..autograd import grad_mode
from .optimizer import Optimizer, _check_plain_loop


class RMSprop(Optimizer):
    def __init__(self, params, lr=1e-2, alpha=0.99, eps=1e-8, weight_decay=0, momentum=0, centered=False,
                 capturable=False, foreach=None, maximize=False, differentiable=False):
        if not 0.0 <= lr:
            raise ValueError(f"Invalid learning rate: {lr}")
        if not 0.0 <= eps:
            raise ValueError(f"Invalid epsilon value: {eps}")
        if not 0.0 <= momentum:
            raise ValueError(f"Invalid momentum value: {momentum}")
        if not 0.0 <= weight_decay:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        if not 0.0 <= alpha:
            raise ValueError(f"Invalid alpha value: {alpha}")
        _check_plain_loop(None, differentiable, capturable)
        defaults = dict(lr=lr, momentum=momentum, alpha=alpha, eps=eps, centered=centered, weight_decay=weight_decay,
                        capturable=capturable, foreach=foreach, maximize=maximize, differentiable=differentiable)
        super().__init__(params, defaults)

    @grad_mode.no_grad()
    def step(self, closure=None):
        """One update of every parameter that has a gradient; returns ``closure()``'s loss if given."""
        loss = self._closure_loss(closure)
        for group in self.param_groups:
            lr, alpha, eps, momentum = group["lr"], group["alpha"], group["eps"], group["momentum"]
            for p, grad, state in self._params_with_grad(group):
                if len(state) == 0:  # first step for this parameter
                    state["step"] = creation.tensor(0.0)
                    state["square_avg"] = creation.zeros_like(p)
                    if momentum > 0:
                        state["momentum_buffer"] = creation.zeros_like(p)
                    if group["centered"]:
                        state["grad_avg"] = creation.zeros_like(p)
                state["step"] += 1
                if group["weight_decay"] != 0:
                    grad = grad.add(p, alpha=group["weight_decay"])

                square_avg = state["square_avg"]
                square_avg.mul_(alpha).add_(grad * grad, alpha=1 - alpha)
                if group["centered"]:
                    grad_avg = state["grad_avg"]
                    grad_avg.add_(grad - grad_avg, alpha=1 - alpha)  # (PyTorch: grad_avg.lerp_(grad, 1 - alpha))
                    avg = (square_avg - grad_avg * grad_avg).sqrt()
                else:
                    avg = square_avg.sqrt()
                avg.add_(eps)

                if momentum > 0:
                    buf = state["momentum_buffer"]
                    buf.mul_(momentum).add_(grad / avg)
                    p.add_(buf, alpha=-lr)
                else:
                    p.add_(grad / avg, alpha=-lr)
        return loss
