"""Learning-rate schedules (PyTorch: ``torch/optim/lr_scheduler.py``).

A scheduler changes ``group["lr"]`` of an optimizer's param groups once per ``scheduler.step()``,
which a training loop calls after ``optimizer.step()``, usually once per epoch::

    optimizer = optim.SGD(model.parameters(), lr=0.1)
    scheduler = optim.lr_scheduler.StepLR(optimizer, step_size=30, gamma=0.1)
    for epoch in range(100):
        train(...)              # calls optimizer.step() for every batch
        scheduler.step()        # lr 0.1 for epochs 0-29, 0.01 for 30-59, ...

Like PyTorch's, the schedules are *chainable*: each ``get_lr`` computes the new rate from the
current ``group["lr"]`` (``StepLR`` multiplies it by ``gamma`` every ``step_size`` epochs), so the
numbers are PyTorch's to the last bit.  ``base_lrs`` are the rates the optimizer had when the
scheduler was made (kept in ``group["initial_lr"]``).  ``ReduceLROnPlateau`` is the other kind:
it lowers the rate when a metric stops improving.  minigrad has the common schedules (``LambdaLR``,
``StepLR``, ``MultiStepLR``, ``ExponentialLR``, ``CosineAnnealingLR``, ``ReduceLROnPlateau``) and
none of PyTorch's tensor learning rates.
"""
import math
import types
import warnings
import weakref
from bisect import bisect_right
from collections import Counter

from .optimizer import Optimizer

EPOCH_DEPRECATION_WARNING = (
    "The epoch parameter in `scheduler.step()` was not necessary and is being deprecated where possible. Please use "
    "`scheduler.step()` to step the scheduler. During the deprecation, if epoch is different from None, the closed "
    "form is used instead of the new chainable form, where available. Please open an issue if you are unable to "
    "replicate your use case: https://github.com/pytorch/pytorch/issues/new/choose.")
_ORDER_WARNING = (
    "Detected call of `lr_scheduler.step()` before `optimizer.step()`. In PyTorch 1.1.0 and later, you should call "
    "them in the opposite order: `optimizer.step()` before `lr_scheduler.step()`.  Failure to do this will result in "
    "PyTorch skipping the first value of the learning rate schedule. See more details at "
    "https://pytorch.org/docs/stable/optim.html#how-to-adjust-learning-rate")
_OVERRIDDEN_WARNING = (
    "Seems like `optimizer.step()` has been overridden after learning rate scheduler initialization. Please, make "
    "sure to call `optimizer.step()` before `lr_scheduler.step()`. See more details at "
    "https://pytorch.org/docs/stable/optim.html#how-to-adjust-learning-rate")


class LRScheduler:
    """The base class: subclasses define ``get_lr()``, the new rate of every param group."""

    def __init__(self, optimizer, last_epoch=-1):
        if not isinstance(optimizer, Optimizer):
            raise TypeError(f"{type(optimizer).__name__} is not an Optimizer")
        self.optimizer = optimizer
        if last_epoch == -1:  # a new schedule starts from the optimizer's rates
            for group in optimizer.param_groups:
                group.setdefault("initial_lr", group["lr"])
        else:  # resuming: the rates it started from were saved with the optimizer
            for i, group in enumerate(optimizer.param_groups):
                if "initial_lr" not in group:
                    raise KeyError(
                        f"param 'initial_lr' is not specified in param_groups[{i}] when resuming scheduler with "
                        "last_epoch >= 0.\nThis typically happens when:\n1. You're trying to resume training from a "
                        "checkpoint but haven't properly loaded the optimizer state\n2. You're using last_epoch >= 0 "
                        "for a fresh training run (not recommended)")
        self.base_lrs = [group["initial_lr"] for group in optimizer.param_groups]
        self.last_epoch = last_epoch
        _note_optimizer_steps(optimizer)
        # the first step, epoch 0, happens here: it sets the starting rates
        self._step_count = 0
        self._is_initial = True
        self.step()
        self._is_initial = False

    def get_lr(self):
        raise NotImplementedError

    def get_last_lr(self):
        """The rates the last ``step()`` set (a list, one per param group)."""
        return self._last_lr

    def step(self, epoch=None):
        """One more epoch: every param group gets its new rate."""
        if self._step_count == 1:  # the first step() after the one in __init__
            if not hasattr(self.optimizer.step, "_wrapped_by_lr_sched"):
                warnings.warn(_OVERRIDDEN_WARNING, UserWarning, stacklevel=2)
            elif not getattr(self.optimizer, "_opt_called", False):
                warnings.warn(_ORDER_WARNING, UserWarning, stacklevel=2)
        self._step_count += 1
        self._get_lr_called_within_step = True
        if epoch is None:
            self.last_epoch += 1
            values = self.get_lr()
        else:  # (deprecated) jump to an epoch: the closed-form rate where there is one
            warnings.warn(EPOCH_DEPRECATION_WARNING, UserWarning, stacklevel=2)
            self.last_epoch = epoch
            values = self._get_closed_form_lr() if hasattr(self, "_get_closed_form_lr") else self.get_lr()
        self._get_lr_called_within_step = False
        for group, lr in zip(self.optimizer.param_groups, values):
            group["lr"] = lr
        self._last_lr = [group["lr"] for group in self.optimizer.param_groups]

    def _warn_if_called_outside_step(self):
        if not getattr(self, "_get_lr_called_within_step", False):
            warnings.warn("To get the last learning rate computed by the scheduler, please use `get_last_lr()`.",
                          UserWarning, stacklevel=3)

    def _current_lrs(self):
        return [group["lr"] for group in self.optimizer.param_groups]

    def state_dict(self):
        """Everything the scheduler keeps except the optimizer (that one has its own ``state_dict``)."""
        return {key: value for key, value in self.__dict__.items() if key != "optimizer"}

    def load_state_dict(self, state_dict):
        self.__dict__.update(state_dict)


_LRScheduler = LRScheduler  # (PyTorch's old name)


def _note_optimizer_steps(optimizer):
    """Make ``optimizer.step()`` note that it ran, so the scheduler's first ``step()`` can warn when it came
    first (PyTorch wraps the method the same way).  A weak reference: the optimizer does not keep itself alive."""
    if hasattr(optimizer.step, "_wrapped_by_lr_sched"):
        return
    step, ref = type(optimizer).step, weakref.ref(optimizer)

    def step_and_note(*args, **kwargs):
        opt = ref()
        opt._opt_called = True
        return step(opt, *args, **kwargs)

    step_and_note._wrapped_by_lr_sched = True
    optimizer.step = step_and_note


class LambdaLR(LRScheduler):
    """``lr = base_lr * lr_lambda(epoch)``; one function, or one per param group."""

    def __init__(self, optimizer, lr_lambda, last_epoch=-1):
        self.optimizer = optimizer
        if not isinstance(lr_lambda, (list, tuple)):
            self.lr_lambdas = [lr_lambda] * len(optimizer.param_groups)
        else:
            if len(lr_lambda) != len(optimizer.param_groups):
                raise ValueError(f"Expected {len(optimizer.param_groups)} lr_lambdas, but got {len(lr_lambda)}")
            self.lr_lambdas = list(lr_lambda)
        super().__init__(optimizer, last_epoch)

    def get_lr(self):
        self._warn_if_called_outside_step()
        return [base_lr * fn(self.last_epoch) for fn, base_lr in zip(self.lr_lambdas, self.base_lrs)]

    def state_dict(self):
        """The functions are not saved (a lambda cannot be); a callable object's attributes are."""
        state = {key: value for key, value in self.__dict__.items() if key not in ("optimizer", "lr_lambdas")}
        state["lr_lambdas"] = [None if isinstance(fn, types.FunctionType) else fn.__dict__.copy()
                               for fn in self.lr_lambdas]
        return state

    def load_state_dict(self, state_dict):
        state = dict(state_dict)
        lr_lambdas = state.pop("lr_lambdas")
        self.__dict__.update(state)
        for fn, saved in zip(self.lr_lambdas, lr_lambdas):
            if saved is not None:
                fn.__dict__.update(saved)


class StepLR(LRScheduler):
    """Multiply the rate by ``gamma`` every ``step_size`` epochs."""

    def __init__(self, optimizer, step_size, gamma=0.1, last_epoch=-1):
        self.step_size = step_size
        self.gamma = gamma
        super().__init__(optimizer, last_epoch)

    def get_lr(self):
        self._warn_if_called_outside_step()
        if self.last_epoch == 0 or self.last_epoch % self.step_size != 0:
            return self._current_lrs()
        return [lr * self.gamma for lr in self._current_lrs()]

    def _get_closed_form_lr(self):
        return [base_lr * self.gamma ** (self.last_epoch // self.step_size) for base_lr in self.base_lrs]


class MultiStepLR(LRScheduler):
    """Multiply the rate by ``gamma`` at each epoch in ``milestones``."""

    def __init__(self, optimizer, milestones, gamma=0.1, last_epoch=-1):
        self.milestones = Counter(milestones)
        self.gamma = gamma
        super().__init__(optimizer, last_epoch)

    def get_lr(self):
        self._warn_if_called_outside_step()
        if self.last_epoch not in self.milestones:
            return self._current_lrs()
        return [lr * self.gamma ** self.milestones[self.last_epoch] for lr in self._current_lrs()]

    def _get_closed_form_lr(self):
        milestones = sorted(self.milestones.elements())
        return [base_lr * self.gamma ** bisect_right(milestones, self.last_epoch) for base_lr in self.base_lrs]


class ExponentialLR(LRScheduler):
    """Multiply the rate by ``gamma`` every epoch."""

    def __init__(self, optimizer, gamma, last_epoch=-1):
        self.gamma = gamma
        super().__init__(optimizer, last_epoch)

    def get_lr(self):
        self._warn_if_called_outside_step()
        if self._is_initial:
            return self._current_lrs()
        return [lr * self.gamma for lr in self._current_lrs()]

    def _get_closed_form_lr(self):
        return [base_lr * self.gamma ** self.last_epoch for base_lr in self.base_lrs]


class CosineAnnealingLR(LRScheduler):
    """From ``base_lr`` down to ``eta_min`` along half a cosine in ``T_max`` epochs (and back up after)::

        lr = eta_min + (base_lr - eta_min) * (1 + cos(pi * epoch / T_max)) / 2

    PyTorch computes it step by step from the current rate (the ratio of two such cosines), and so
    does minigrad: the closed form is used only for ``step(epoch)``."""

    def __init__(self, optimizer, T_max, eta_min=0.0, last_epoch=-1):  # noqa: N803  (PyTorch's name)
        self.T_max = T_max
        self.eta_min = eta_min
        super().__init__(optimizer, last_epoch)

    def get_lr(self):
        self._warn_if_called_outside_step()
        t, eta = self.last_epoch, self.eta_min
        if self._is_initial:
            return self._current_lrs()
        if self._step_count == 1 and t > 0:  # resumed at epoch t: the closed form
            return [eta + (base_lr - eta) * (1 + math.cos(t * math.pi / self.T_max)) / 2 for base_lr in self.base_lrs]
        if (t - 1 - self.T_max) % (2 * self.T_max) == 0:  # at the bottom: the first step back up
            return [lr + (base_lr - eta) * (1 - math.cos(math.pi / self.T_max)) / 2
                    for base_lr, lr in zip(self.base_lrs, self._current_lrs())]
        return [(1 + math.cos(math.pi * t / self.T_max)) / (1 + math.cos(math.pi * (t - 1) / self.T_max)) * (lr - eta) + eta
                for lr in self._current_lrs()]

    def _get_closed_form_lr(self):
        return [self.eta_min + (base_lr - self.eta_min) * (1 + math.cos(math.pi * self.last_epoch / self.T_max)) / 2
                for base_lr in self.base_lrs]


class ReduceLROnPlateau(LRScheduler):
    """Multiply the rate by ``factor`` when a metric stopped improving: ``scheduler.step(val_loss)``.

    The metric improved when it beat the best so far by more than ``threshold`` (relative, or absolute
    with ``threshold_mode="abs"``; ``mode="max"`` for a metric that should grow).  After ``patience``
    epochs without improvement the rate falls (not below ``min_lr``, and not by less than ``eps``),
    then ``cooldown`` epochs pass before bad epochs count again.  It reads the metric, not the epoch:
    there is no ``get_lr`` and no first step in ``__init__``."""

    def __init__(self, optimizer, mode="min", factor=0.1, patience=10, threshold=1e-4, threshold_mode="rel",
                 cooldown=0, min_lr=0, eps=1e-8):
        if factor >= 1.0:
            raise ValueError("Factor should be < 1.0.")
        if not isinstance(optimizer, Optimizer):
            raise TypeError(f"{type(optimizer).__name__} is not an Optimizer")
        if mode not in ("min", "max"):
            raise ValueError("mode " + mode + " is unknown!")
        if threshold_mode not in ("rel", "abs"):
            raise ValueError("threshold mode " + threshold_mode + " is unknown!")
        n = len(optimizer.param_groups)
        if isinstance(min_lr, (list, tuple)) and len(min_lr) != n:
            raise ValueError(f"expected {n} min_lrs, got {len(min_lr)}")
        self.optimizer, self.factor, self.patience, self.cooldown, self.eps = optimizer, factor, patience, cooldown, eps
        self.default_min_lr = None if isinstance(min_lr, (list, tuple)) else min_lr
        self.min_lrs = list(min_lr) if isinstance(min_lr, (list, tuple)) else [min_lr] * n
        self.mode, self.threshold, self.threshold_mode = mode, threshold, threshold_mode
        self.mode_worse = math.inf if mode == "min" else -math.inf
        self.last_epoch = 0
        self._last_lr = self._current_lrs()
        self.best, self.num_bad_epochs, self.cooldown_counter = self.mode_worse, 0, 0

    @property
    def in_cooldown(self):
        return self.cooldown_counter > 0

    def is_better(self, a, best):
        """Did the metric ``a`` improve on ``best`` by more than the threshold?"""
        if self.mode == "min":
            return a < (best * (1.0 - self.threshold) if self.threshold_mode == "rel" else best - self.threshold)
        return a > (best * (self.threshold + 1.0) if self.threshold_mode == "rel" else best + self.threshold)

    def step(self, metrics, epoch=None):
        current = float(metrics)
        if epoch is not None:
            warnings.warn(EPOCH_DEPRECATION_WARNING, UserWarning, stacklevel=2)
        self.last_epoch = self.last_epoch + 1 if epoch is None else epoch
        if self.is_better(current, self.best):
            self.best, self.num_bad_epochs = current, 0
        else:
            self.num_bad_epochs += 1
        if self.in_cooldown:  # bad epochs in the cooldown do not count
            self.cooldown_counter -= 1
            self.num_bad_epochs = 0
        if self.num_bad_epochs > self.patience:
            self._reduce_lr()
            self.cooldown_counter, self.num_bad_epochs = self.cooldown, 0
        self._last_lr = self._current_lrs()

    def _reduce_lr(self):
        if len(self.optimizer.param_groups) != len(self.min_lrs):  # a param group was added since
            if self.default_min_lr is None:
                raise RuntimeError(
                    f"The number of param groups in the `optimizer` ({len(self.optimizer.param_groups)}) differs from "
                    f"when `ReduceLROnPlateau` was initialized ({len(self.min_lrs)}), usually due to a new param group "
                    "being added to the optimizer. Please modify the `min_lrs` field to match the length of the "
                    "`optimizer` param groups.")
            self.min_lrs = [self.default_min_lr] * len(self.optimizer.param_groups)
        for group, min_lr in zip(self.optimizer.param_groups, self.min_lrs):
            old_lr = float(group["lr"])
            new_lr = max(old_lr * self.factor, min_lr)
            if old_lr - new_lr > self.eps:
                group["lr"] = new_lr
