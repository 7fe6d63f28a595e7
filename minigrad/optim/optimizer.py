"""``Optimizer``: the base class of ``SGD`` and ``Adam``.  PyTorch: ``torch/optim/optimizer.py``.

An optimizer holds
- ``param_groups``: a list of dicts, each with a ``"params"`` list and that group's options
  (``lr``, ``momentum``, ...).  ``SGD(model.parameters(), lr=0.1)`` makes one group;
  ``SGD([{"params": a}, {"params": b, "lr": 0.01}], lr=0.1)`` makes two, and options a group
  leaves out are filled in from the constructor's arguments (``defaults``).
- ``state``: a dict from each parameter to what the optimizer remembers about it between steps
  (SGD's momentum buffer, Adam's running averages).  It is filled in lazily by ``step()``.

The training loop is always the same three calls::

    optimizer.zero_grad()   # forget the last step's gradients (they accumulate otherwise)
    loss.backward()         # fill p.grad for every parameter
    optimizer.step()        # change every p in place, using p.grad

``step()`` runs under ``no_grad``: updating the weights is not part of the model's computation.

Step hooks (``register_step_pre_hook``/``register_step_post_hook``, and the global ones of
``register_optimizer_step_pre_hook``/``register_optimizer_step_post_hook``) run around every ``step()``.
minigrad leaves out the state_dict hooks, parameter names in groups, and the
``foreach``/``fused`` implementations (the options are accepted so that ``param_groups`` and
``print(optimizer)`` look like PyTorch's, but minigrad always runs the plain for-loop).
"""
from collections import OrderedDict, defaultdict
import copy
import functools
import warnings

import numpy as np

from ..autograd import grad_mode
from ..nn.module import zero_grads
from ..ops.inplace import _bump_version, has_internal_overlap
from ..tensor import RemovableHandle, Tensor

# hooks of every optimizer: register_optimizer_step_pre_hook / register_optimizer_step_post_hook
_global_optimizer_pre_hooks = OrderedDict()
_global_optimizer_post_hooks = OrderedDict()


def _typename(obj):
    return obj.type() if isinstance(obj, Tensor) else type(obj).__qualname__


class Optimizer:
    def __init__(self, params, defaults):
        self.defaults = defaults
        self._optimizer_step_pre_hooks = OrderedDict()
        self._optimizer_step_post_hooks = OrderedDict()
        _patch_step_function(type(self))
        if isinstance(params, Tensor):
            raise TypeError("params argument given to the optimizer should be an iterable of Tensors or dicts, "
                            "but got " + _typename(params))
        self.state = defaultdict(dict)
        self.param_groups = []
        param_groups = list(params)
        if len(param_groups) == 0:
            raise ValueError("optimizer got an empty parameter list")
        if not isinstance(param_groups[0], dict):
            param_groups = [{"params": param_groups}]
        for param_group in param_groups:
            self.add_param_group(param_group)

    def add_param_group(self, param_group):
        """Add a group of parameters with its own options (e.g. to unfreeze layers while training)."""
        if not isinstance(param_group, dict):
            raise TypeError(f"param_group must be a dict, but got {type(param_group)}")
        params = param_group["params"]
        if isinstance(params, Tensor):
            param_group["params"] = [params]
        elif isinstance(params, set):
            raise TypeError("optimizer parameters need to be organized in ordered collections, but the ordering "
                            "of tensors in sets will change between runs. Please use a list instead.")
        else:
            param_group["params"] = list(params)

        for param in param_group["params"]:
            if not isinstance(param, Tensor):
                raise TypeError("optimizer can only optimize Tensors, but one of the params is " + _typename(param))
            if not (param.is_leaf or param.retains_grad):
                raise ValueError("can't optimize a non-leaf Tensor")

        for name, default in self.defaults.items():  # options the group does not set come from defaults
            param_group.setdefault(name, default)

        params = param_group["params"]
        if len(params) != len(set(params)):
            warnings.warn("optimizer contains a parameter group with duplicate parameters; in future, this will "
                          "cause an error; see github.com/pytorch/pytorch/issues/40967 for more information",
                          stacklevel=3)
        param_set = set()
        for group in self.param_groups:
            param_set.update(group["params"])
        if not param_set.isdisjoint(params):
            raise ValueError("some parameters appear in more than one parameter group")
        self.param_groups.append(param_group)

    def zero_grad(self, set_to_none=True):
        """Forget every parameter's gradient: ``None`` by default, or zeros in place."""
        zero_grads((p for group in self.param_groups for p in group["params"]), set_to_none)

    def _params_with_grad(self, group, negate=True):
        """Each parameter of ``group`` that has a gradient: ``(p, grad, state)``, the gradient negated for
        ``maximize=True`` unless ``negate=False`` (PyTorch's ``_init_group`` collects the same, as lists)."""
        for p in group["params"]:
            if p.grad is not None:
                yield p, (-p.grad if negate and group.get("maximize") else p.grad), self.state[p]

    @staticmethod
    def _closure_loss(closure):
        """``step(closure)`` re-evaluates the model first (grad mode on) and returns that loss."""
        if closure is None:
            return None
        with grad_mode.enable_grad():
            return closure()

    def step(self, closure=None):
        """Update the parameters once; each optimizer defines this."""
        raise NotImplementedError

    # ------------------------------------------------------------------ step hooks
    def register_step_pre_hook(self, hook):
        """``hook(optimizer, args, kwargs)`` runs before every ``step()``; it may return new ``(args, kwargs)``.
        Returns a handle: ``handle.remove()`` unregisters it."""
        return RemovableHandle(self._optimizer_step_pre_hooks, hook)

    def register_step_post_hook(self, hook):
        """``hook(optimizer, args, kwargs)`` runs after every ``step()``."""
        return RemovableHandle(self._optimizer_step_post_hooks, hook)

    # ------------------------------------------------------------------ saving and loading
    def state_dict(self):
        """``{"state": {0: {...}, 1: {...}}, "param_groups": [{..., "params": [0, 1]}]}``.

        Parameters are replaced by their position (0, 1, ...) across all groups, so that the
        dict can be loaded into an optimizer over *other* parameter objects of the same shapes.
        The state tensors are not copied.
        """
        index = {}
        param_groups = []
        for group in self.param_groups:
            packed = {k: v for k, v in group.items() if k != "params"}
            for p in group["params"]:
                index.setdefault(id(p), len(index))
            packed["params"] = [index[id(p)] for p in group["params"]]
            param_groups.append(packed)
        state = {index[id(p)] if isinstance(p, Tensor) else p: v for p, v in self.state.items()}
        return {"state": state, "param_groups": param_groups}

    def load_state_dict(self, state_dict):
        groups = self.param_groups
        saved_groups = copy.deepcopy(state_dict["param_groups"])
        if len(groups) != len(saved_groups):
            raise ValueError("loaded state dict has a different number of parameter groups")
        if any(len(g["params"]) != len(s["params"]) for g, s in zip(groups, saved_groups)):
            raise ValueError("loaded state dict contains a parameter group that doesn't match the size of "
                             "optimizer's group")
        # position in the saved dict -> our parameter
        id_map = {saved_id: p for g, s in zip(groups, saved_groups) for saved_id, p in zip(s["params"], g["params"])}

        state = defaultdict(dict)
        for k, v in state_dict["state"].items():
            if k in id_map:
                param = id_map[k]
                # tensors take the parameter's dtype, except the step counter
                state[param] = {key: (value.to(param.dtype) if isinstance(value, Tensor) and key != "step"
                                      and param.is_floating_point() else value)
                                for key, value in v.items()}
            else:
                state[k] = v
        for g, s in zip(groups, saved_groups):
            s["params"] = g["params"]
        self.state = state
        self.param_groups = saved_groups

    def __repr__(self):
        format_string = type(self).__name__ + " ("
        for i, group in enumerate(self.param_groups):
            format_string += "\n"
            format_string += f"Parameter Group {i}\n"
            for key in sorted(group.keys()):
                if key != "params":
                    format_string += f"    {key}: {group[key]}\n"
        format_string += ")"
        return format_string


def register_optimizer_step_pre_hook(hook):
    """A pre hook of every optimizer (they run before each optimizer's own pre hooks)."""
    return RemovableHandle(_global_optimizer_pre_hooks, hook)


def register_optimizer_step_post_hook(hook):
    """A post hook of every optimizer (they run after each optimizer's own post hooks)."""
    return RemovableHandle(_global_optimizer_post_hooks, hook)


def _patch_step_function(cls):
    """Make ``cls.step`` run the step hooks around it.  Like PyTorch, the first optimizer of a class
    made wraps its class's ``step`` once, so that ``SGD.step`` itself stays a plain loop."""
    if getattr(cls.step, "hooked", False):
        return
    step = cls.step

    @functools.wraps(step)
    def step_with_hooks(*args, **kwargs):  # (the hooks see args as PyTorch passes them: the optimizer first)
        self = args[0]
        for pre_hook in (*_global_optimizer_pre_hooks.values(), *self._optimizer_step_pre_hooks.values()):
            result = pre_hook(self, args, kwargs)
            if result is not None:
                if isinstance(result, tuple) and len(result) == 2:
                    args, kwargs = result
                else:
                    raise RuntimeError(f"{step} must return None or a tuple of (new_args, new_kwargs), "
                                       f"but got {result}.")
        out = step(*args, **kwargs)
        for post_hook in (*self._optimizer_step_post_hooks.values(), *_global_optimizer_post_hooks.values()):
            post_hook(self, args, kwargs)
        return out

    step_with_hooks.hooked = True
    cls.step = step_with_hooks


def _check_adam_options(lr, betas, eps, weight_decay):
    """The argument checks of Adam, NAdam, RAdam and Adamax (same order, same messages)."""
    if not 0.0 <= lr:
        raise ValueError(f"Invalid learning rate: {lr}")
    if not 0.0 <= eps:
        raise ValueError(f"Invalid epsilon value: {eps}")
    if not 0.0 <= betas[0] < 1.0:
        raise ValueError(f"Invalid beta parameter at index 0: {betas[0]}")
    if not 0.0 <= betas[1] < 1.0:
        raise ValueError(f"Invalid beta parameter at index 1: {betas[1]}")
    if not 0.0 <= weight_decay:
        raise ValueError(f"Invalid weight_decay value: {weight_decay}")


def weight_decayed(p, grad, group):
    """The gradient after the Adam family's weight decay (PyTorch's): decoupled (AdamW's) shrinks the parameter
    itself, ``p *= 1 - lr * weight_decay``; else the decay joins the gradient, ``grad + weight_decay * p``."""
    weight_decay = group["weight_decay"]
    if weight_decay != 0 and group["decoupled_weight_decay"]:
        p.mul_(1 - group["lr"] * weight_decay)
    elif weight_decay != 0:
        grad = grad.add(p, alpha=weight_decay)
    return grad


def _check_plain_loop(fused, differentiable, capturable=False):
    """minigrad runs one simple loop: refuse the options that would change what a step means."""
    if fused or differentiable or capturable:
        raise NotImplementedError("minigrad's optimizers support neither fused=True, differentiable=True "
                                  "nor capturable=True")


# ------------------------------------------------------------------ steps on the numpy arrays
def on_arrays(p, grad, state):
    """Can a step change ``p`` and its ``state`` straight in their numpy arrays?  A float32 or float64
    parameter with a gradient of its shape and dtype, each array written one element per place (no expanded
    tensor, no ZeroTensor), the state's tensors of the parameter's shape and dtype and its step a number."""
    x = p._data
    if x.dtype not in (np.float32, np.float64) or grad._zerotensor or p._zerotensor:
        return False
    arrays = [grad._data] + [t._data for name, t in state.items() if name != "step"]
    return (x.flags.writeable and not has_internal_overlap(x) and all(a.shape == x.shape and a.dtype == x.dtype
                                                                      for a in arrays)
            and all(a.flags.writeable for a in arrays[1:])
            and ("step" not in state or (state["step"]._data.shape == () and state["step"]._data.dtype.kind == "f")))


def fma(a, b, c, out=None):
    """``a * b + c`` rounded once, as PyTorch's CPU kernels compute it with a fused multiply-add (``lerp_``,
    ``addcmul_``, ``add_(alpha=...)``): for float32 in float64, where the product is exact (for float64 in
    float64, the product rounded too)."""
    if c.dtype == np.float32:
        return np.add(a.astype(np.float64) * b, c, out=out, casting="unsafe") if out is not None else \
            (a.astype(np.float64) * b + c).astype(np.float32)
    return np.add(a * b, c, out=out)


def bump(t, times=1):
    """``t`` was changed in place ``times`` times: its version counter moves on (see ops/inplace.py)."""
    for _ in range(times):
        _bump_version(t)
