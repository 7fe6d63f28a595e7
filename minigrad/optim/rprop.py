"""Rprop: each weight has its own step size, which grows while its gradient keeps its sign and shrinks when it flips.

PyTorch: ``torch/optim/rprop.py`` (``_single_tensor_rprop``; Riedmiller & Braun, "RPROP").  Only the
*sign* of the gradient is used.  For each parameter ``p`` with gradient ``g``::

    g = -g                                    if maximize
    s = sign(g * g_prev)                      +1: same direction as last step, -1: it flipped, 0: a zero
    step_size = step_size * (etaplus if s > 0, etaminus if s < 0, 1 if s == 0)
    step_size = clamp(step_size, step_size_min, step_size_max)      ("step_size", starts at lr)
    g = 0 where it flipped                    (skip that weight this step)
    p = p - sign(g) * step_size
    g_prev = g                                ("prev", starts at 0)
"""
from .. import creation
from ..autograd import grad_mode
from .optimizer import Optimizer, _check_plain_loop


class Rprop(Optimizer):
    def __init__(self, params, lr=1e-2, etas=(0.5, 1.2), step_sizes=(1e-6, 50), *, capturable=False, foreach=None,
                 maximize=False, differentiable=False):
        if not 0.0 <= lr:
            raise ValueError(f"Invalid learning rate: {lr}")
        if not 0.0 < etas[0] < 1.0 < etas[1]:
            raise ValueError(f"Invalid eta values: {etas[0]}, {etas[1]}")
        _check_plain_loop(None, differentiable, capturable)
        defaults = dict(lr=lr, etas=etas, step_sizes=step_sizes, foreach=foreach, maximize=maximize,
                        differentiable=differentiable, capturable=capturable)
        super().__init__(params, defaults)

    @grad_mode.no_grad()
    def step(self, closure=None):
        """One update of every parameter that has a gradient; returns ``closure()``'s loss if given."""
        loss = self._closure_loss(closure)
        for group in self.param_groups:
            (etaminus, etaplus), (step_size_min, step_size_max) = group["etas"], group["step_sizes"]
            for p, grad, state in self._params_with_grad(group):
                if len(state) == 0:  # first step for this parameter
                    state["step"] = creation.tensor(0.0)
                    state["prev"] = creation.zeros_like(p)
                    state["step_size"] = creation.full_like(grad, group["lr"])
                prev, step_size = state["prev"], state["step_size"]

                state["step"] += 1
                sign = grad.mul(prev).sign()
                sign[sign.gt(0)] = etaplus
                sign[sign.lt(0)] = etaminus
                sign[sign.eq(0)] = 1
                step_size.mul_(sign).clamp_(step_size_min, step_size_max)

                grad = grad.clone()
                grad[sign.eq(etaminus)] = 0  # the sign flipped: no step for that weight now
                p.addcmul_(grad.sign(), step_size, value=-1)
                prev.copy_(grad)
        return loss
