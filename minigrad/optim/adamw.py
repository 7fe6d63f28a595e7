"""AdamW: Adam with *decoupled* weight decay (Loshchilov & Hutter, "Decoupled Weight Decay Regularization").

PyTorch: ``torch/optim/adamw.py``, where ``AdamW`` is ``Adam`` with ``decoupled_weight_decay=True``
and a default ``weight_decay`` of 0.01.  The step is Adam's (see ``adam.py``), except the decay::

    Adam:   g = g + weight_decay * p          the decay goes through m and v, and is rescaled by them
    AdamW:  p = p * (1 - lr * weight_decay)   the weights shrink directly, before the Adam update
"""
from .adam import Adam


class AdamW(Adam):
    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=1e-2, amsgrad=False, *,
                 maximize=False, foreach=None, capturable=False, differentiable=False, fused=None):
        super().__init__(params, lr, betas, eps, weight_decay, amsgrad, foreach=foreach, maximize=maximize,
                         capturable=capturable, differentiable=differentiable, fused=fused,
                         decoupled_weight_decay=True)

    def load_state_dict(self, state_dict):
        super().load_state_dict(state_dict)
        for group in self.param_groups:  # (PyTorch: an AdamW always decouples, whatever the dict says)
            group["decoupled_weight_decay"] = True
