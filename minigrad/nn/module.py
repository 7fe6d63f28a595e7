"""``Module``: the base class of every layer and of every model you write.

A module is an object that
- owns *parameters* (``Parameter`` tensors, the weights an optimizer trains),
- owns *buffers* (tensors that are saved with the model but not trained),
- owns *submodules* (``self.fc1 = Linear(2, 3)``), which own theirs, and so on: a tree,
- computes something in ``forward``; ``module(x)`` calls ``forward(x)``.

The trick that makes ``model.parameters()`` work is ``__setattr__``: assigning a ``Parameter`` or
a ``Module`` to an attribute files it into the ``_parameters`` or ``_modules`` dict instead of the
plain instance ``__dict__``.  ``__getattr__`` (which Python calls only when normal lookup fails)
finds it there again.  Walking the ``_modules`` tree with dotted prefixes gives the names you see
in ``named_parameters()`` and in the ``state_dict``: ``"0.weight"``, ``"encoder.fc1.bias"``.

PyTorch: ``torch/nn/modules/module.py`` (about 3000 lines).  minigrad keeps the same attribute
names, error messages and printing, and leaves out devices, state_dict hooks,
``_metadata``/``_version``, ``get_extra_state``, non-strict shape handling of lazy modules and
``torch.compile`` support.
"""
from collections import OrderedDict, namedtuple
import warnings

from .. import _dtype
from .. import devices as _device
from ..autograd import grad_mode
from ..tensor import RemovableHandle, Tensor
from ..utils.hooks import BackwardHook
from .parameter import Buffer, Parameter


def _typename(obj):
    """``torch.typename``: how error messages name the type of a value."""
    if isinstance(obj, Tensor):
        return obj.type()
    module, name = type(obj).__module__, type(obj).__qualname__
    return name if module == "builtins" else f"{module}.{name}"


def _check_init_called(registry, what):
    """``self.w = Parameter(...)`` before ``super().__init__()`` ran: there is no dict to file it in yet."""
    if registry is None:
        raise AttributeError(f"cannot assign {what} before Module.__init__() call")


def _check_none(value, what, expected):
    """A name that holds a parameter (or submodule) takes only another one, or None."""
    if value is not None:
        raise TypeError(f"cannot assign '{_typename(value)}' as {what} ({expected} or None expected)")


def _remove_from(name, *dicts_or_sets):
    """Forget ``name`` wherever it was filed before (an attribute becomes a parameter, say)."""
    for d in dicts_or_sets:
        if name in d:
            if isinstance(d, dict):
                del d[name]
            else:
                d.discard(name)


def _setup_output_hook(bw_hook, output):
    """Wrap the module's output so that the full backward hooks see its gradient."""
    if not isinstance(output, (Tensor, tuple)):
        warnings.warn("For backward hooks to be called, module output should be a Tensor or a tuple of "
                      f"Tensors but received {type(output)}")
    return bw_hook.setup_output_hook(output)


def _addindent(s, num_spaces):
    """Indent every line but the first: how a child's repr is nested inside its parent's."""
    lines = s.split("\n")
    if len(lines) == 1:
        return s
    first = lines.pop(0)
    lines = [(num_spaces * " ") + line if line.strip() else "" for line in lines]
    return first + "\n" + "\n".join(lines)


class _IncompatibleKeys(namedtuple("IncompatibleKeys", ["missing_keys", "unexpected_keys"])):
    """What ``load_state_dict`` returns."""
    __slots__ = ()

    def __repr__(self):
        if not self.missing_keys and not self.unexpected_keys:
            return "<All keys matched successfully>"
        return super().__repr__()

    __str__ = __repr__


class Module:
    """Base class for all neural network modules; subclass it and define ``forward``.

    Example::

        class Net(nn.Module):
            def __init__(self):
                super().__init__()          # must come first: it creates the dicts below
                self.fc = nn.Linear(2, 1)   # registered in self._modules["fc"]

            def forward(self, x):
                return self.fc(x).relu()
    """

    def __init__(self, *args, **kwargs):
        if args or kwargs:
            raise TypeError(f"{type(self).__name__}.__init__() takes no arguments")
        # object.__setattr__ because our own __setattr__ needs these dicts to exist already
        object.__setattr__(self, "training", True)
        object.__setattr__(self, "_parameters", {})
        object.__setattr__(self, "_buffers", {})
        object.__setattr__(self, "_non_persistent_buffers_set", set())
        object.__setattr__(self, "_modules", {})
        object.__setattr__(self, "_forward_hooks", {})
        object.__setattr__(self, "_forward_hooks_with_kwargs", set())  # ids of hooks that also get kwargs
        object.__setattr__(self, "_forward_pre_hooks", {})
        object.__setattr__(self, "_forward_pre_hooks_with_kwargs", set())
        object.__setattr__(self, "_backward_hooks", {})
        object.__setattr__(self, "_backward_pre_hooks", {})
        object.__setattr__(self, "_is_full_backward_hook", None)  # which kind _backward_hooks holds: None = no hook yet

    def forward(self, *input):
        raise NotImplementedError(f'Module [{type(self).__name__}] is missing the required "forward" function')

    def __call__(self, *args, **kwargs):
        """``module(x)``: forward pre-hooks, ``forward``, forward hooks (PyTorch: ``Module._call_impl``).

        With backward hooks, the inputs and the output also pass through an identity Function whose
        nodes call them during backward (see ``minigrad/utils/hooks.py``).
        """
        args, kwargs = self._run_forward_pre_hooks(args, kwargs)
        bw_hook = self._full_backward_hook()  # None unless the module has (full) backward hooks
        if bw_hook is not None:
            args = bw_hook.setup_input_hook(args)
        output = self.forward(*args, **kwargs)
        output = self._run_forward_hooks(args, kwargs, output)
        if bw_hook is not None:
            output = _setup_output_hook(bw_hook, output)
        if self._backward_hooks and self._is_full_backward_hook is False:
            _register_old_backward_hooks(self, args, output)
        return output

    def _run_forward_pre_hooks(self, args, kwargs):
        """Each forward pre-hook may replace the inputs (and, registered ``with_kwargs``, the keyword arguments)."""
        for hook_id, hook in list(self._forward_pre_hooks.items()):
            if hook_id in self._forward_pre_hooks_with_kwargs:
                result = hook(self, args, kwargs)  # it may replace the inputs and the keyword arguments
                if result is not None:
                    if not (isinstance(result, tuple) and len(result) == 2):
                        raise RuntimeError("forward pre-hook must return None or a tuple of (new_args, new_kwargs), "
                                           f"but got {result}.")
                    args, kwargs = result
            else:
                result = hook(self, args)  # it may replace the inputs
                if result is not None:
                    args = result if isinstance(result, tuple) else (result,)
        return args, kwargs

    def _full_backward_hook(self):
        """The ``BackwardHook`` that calls full backward hooks and backward pre-hooks, if the module has any."""
        full = list(self._backward_hooks.values()) if self._is_full_backward_hook else []
        if full or self._backward_pre_hooks:
            return BackwardHook(self, full, list(self._backward_pre_hooks.values()))
        return None

    def _run_forward_hooks(self, args, kwargs, output):
        """Each forward hook may replace the output."""
        for hook_id, hook in list(self._forward_hooks.items()):
            if hook_id in self._forward_hooks_with_kwargs:
                result = hook(self, args, kwargs, output)
            else:
                result = hook(self, args, output)  # it may replace the output
            if result is not None:
                output = result
        return output

    def register_forward_pre_hook(self, hook, *, prepend=False, with_kwargs=False):
        """``hook(module, args)`` runs before ``forward`` and may return new args; returns a handle with ``.remove()``.

        ``with_kwargs=True``: ``hook(module, args, kwargs)``, returning ``None`` or ``(args, kwargs)``.
        """
        handle = _register(self._forward_pre_hooks, hook, prepend)
        if with_kwargs:
            self._forward_pre_hooks_with_kwargs.add(handle.id)
        return handle

    def register_forward_hook(self, hook, *, prepend=False, with_kwargs=False, always_call=False):
        """``hook(module, args, output)`` runs after ``forward`` and may return a new output.

        ``with_kwargs=True``: ``hook(module, args, kwargs, output)``.  (``always_call``, running the hook
        when forward raised, is accepted and not supported.)
        """
        handle = _register(self._forward_hooks, hook, prepend)
        if with_kwargs:
            self._forward_hooks_with_kwargs.add(handle.id)
        return handle

    def register_full_backward_hook(self, hook, prepend=False):
        """``hook(module, grad_input, grad_output)`` runs when the gradients w.r.t. the module's inputs are
        computed; it may return new ``grad_input``.  ``grad_input`` has ``None`` for inputs without gradient."""
        if self._is_full_backward_hook is False:
            raise RuntimeError(_BOTH_KINDS)
        object.__setattr__(self, "_is_full_backward_hook", True)
        return _register(self._backward_hooks, hook, prepend)

    def register_backward_hook(self, hook):
        """The old, deprecated module backward hook (PyTorch keeps it; use ``register_full_backward_hook``).

        ``hook(module, grad_input, grad_output)`` is hung on the ``grad_fn`` of the module's output
        (``grad_fn.register_hook``), so it sees that one *node*: ``grad_output`` is the gradient of the
        output, but ``grad_input`` holds the gradients of that node's inputs, which are the module's
        inputs only when forward is a single op.  For ``nn.Linear`` (one ``AddmmBackward0``) it is
        ``(grad of bias, grad of input, grad of weight.t())``.  PyTorch warns (``FutureWarning``) when
        the module's forward is several nodes, the case where the hook misses part of ``grad_input``.
        """
        if self._is_full_backward_hook is True:
            raise RuntimeError(_BOTH_KINDS)
        object.__setattr__(self, "_is_full_backward_hook", False)
        return _register(self._backward_hooks, hook, False)

    def register_full_backward_pre_hook(self, hook, prepend=False):
        """``hook(module, grad_output)`` runs when the gradients w.r.t. the module's outputs are known; it
        may return new ``grad_output``."""
        return _register(self._backward_pre_hooks, hook, prepend)

    # ------------------------------------------------------------------ registration
    def register_parameter(self, name, param):
        """Add a parameter (or ``None``, a placeholder such as ``Linear(bias=False).bias``)."""
        if "_parameters" not in self.__dict__:
            raise AttributeError("cannot assign parameter before Module.__init__() call")
        elif not isinstance(name, str):
            raise TypeError(f"parameter name should be a string. Got {_typename(name)}")
        elif "." in name:
            raise KeyError('parameter name can\'t contain "."')
        elif name == "":
            raise KeyError('parameter name can\'t be empty string ""')
        elif hasattr(self, name) and name not in self._parameters:
            raise KeyError(f"attribute '{name}' already exists")

        if param is None:
            self._parameters[name] = None
        elif not isinstance(param, Parameter):
            raise TypeError(f"cannot assign '{_typename(param)}' object to parameter '{name}' "
                            "(minigrad.nn.Parameter or None required)")
        elif param.grad_fn:
            raise ValueError(f"Cannot assign non-leaf Tensor to parameter '{name}'. Model parameters must be "
                             f"created explicitly. To express '{name}' as a function of another Tensor, compute "
                             "the value in the forward() method.")
        else:
            self._parameters[name] = param

    def register_buffer(self, name, tensor, persistent=True):
        """Add a tensor that is saved in the ``state_dict`` (if ``persistent``) but not trained."""
        if "_buffers" not in self.__dict__:
            raise AttributeError("cannot assign buffer before Module.__init__() call")
        elif not isinstance(name, str):
            raise TypeError(f"buffer name should be a string. Got {_typename(name)}")
        elif "." in name:
            raise KeyError('buffer name can\'t contain "."')
        elif name == "":
            raise KeyError('buffer name can\'t be empty string ""')
        elif hasattr(self, name) and name not in self._buffers:
            raise KeyError(f"attribute '{name}' already exists")
        elif tensor is not None and not isinstance(tensor, Tensor):
            raise TypeError(f"cannot assign '{_typename(tensor)}' object to buffer '{name}' "
                            "(minigrad Tensor or None required)")
        self._buffers[name] = tensor
        if persistent:
            self._non_persistent_buffers_set.discard(name)
        else:
            self._non_persistent_buffers_set.add(name)

    def add_module(self, name, module):
        """Add a child module; ``self.name = module`` does the same."""
        if not isinstance(module, Module) and module is not None:
            raise TypeError(f"{_typename(module)} is not a Module subclass")
        elif not isinstance(name, str):
            raise TypeError(f"module name should be a string. Got {_typename(name)}")
        elif hasattr(self, name) and name not in self._modules:
            raise KeyError(f"attribute '{name}' already exists")
        elif "." in name:
            raise KeyError(f'module name can\'t contain ".", got: {name}')
        elif name == "":
            raise KeyError('module name can\'t be empty string ""')
        self._modules[name] = module

    register_module = add_module

    def __setattr__(self, name, value):
        """``self.w = Parameter(...)`` registers a parameter, ``self.fc = Linear(...)`` a submodule."""
        params = self.__dict__.get("_parameters")
        modules = self.__dict__.get("_modules")
        buffers = self.__dict__.get("_buffers")
        if isinstance(value, Parameter):
            _check_init_called(params, "parameters")
            _remove_from(name, self.__dict__, self._buffers, self._modules, self._non_persistent_buffers_set)
            self.register_parameter(name, value)
        elif params is not None and name in params:
            _check_none(value, f"parameter '{name}'", "minigrad.nn.Parameter")
            self.register_parameter(name, value)
        elif isinstance(value, Module):
            _check_init_called(modules, "module")
            _remove_from(name, self.__dict__, self._parameters, self._buffers, self._non_persistent_buffers_set)
            modules[name] = value
        elif modules is not None and name in modules:
            _check_none(value, f"child module '{name}'", "minigrad.nn.Module")
            modules[name] = value
        elif isinstance(value, Buffer) or buffers is not None and name in buffers:
            self._set_buffer(name, value)
        else:  # anything else is an ordinary attribute
            object.__setattr__(self, name, value)

    def _set_buffer(self, name, value):
        """``self.mask = Buffer(t)``, or a tensor (or None) assigned to a name that is a buffer already."""
        if value is not None and not isinstance(value, Tensor):
            raise TypeError(f"cannot assign '{_typename(value)}' as buffer '{name}' "
                            "(minigrad.nn.Buffer, minigrad.Tensor or None expected)")
        persistent = value.persistent if isinstance(value, Buffer) else name not in self._non_persistent_buffers_set
        self.register_buffer(name, value, persistent)

    def __getattr__(self, name):
        # Python calls this only when the ordinary lookup failed: look in our three dicts.
        d = self.__dict__
        if "_parameters" in d and name in d["_parameters"]:
            return d["_parameters"][name]
        if "_buffers" in d and name in d["_buffers"]:
            return d["_buffers"][name]
        if "_modules" in d and name in d["_modules"]:
            return d["_modules"][name]
        raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")

    def __delattr__(self, name):
        if name in self._parameters:
            del self._parameters[name]
        elif name in self._buffers:
            del self._buffers[name]
            self._non_persistent_buffers_set.discard(name)
        elif name in self._modules:
            del self._modules[name]
        else:
            object.__delattr__(self, name)

    def __dir__(self):
        keys = list(dir(type(self))) + list(self.__dict__) + list(self._parameters) + list(self._modules) + \
            list(self._buffers)
        return sorted(k for k in set(keys) if not k[0].isdigit())

    def get_submodule(self, target):
        """``model.get_submodule("0.fc")``: follow a dotted name down the tree."""
        mod = self
        for item in target.split(".") if target else []:
            if not hasattr(mod, item):
                raise AttributeError(f"{mod._get_name()} has no attribute `{item}`")
            mod = getattr(mod, item)
            if not isinstance(mod, Module):
                raise AttributeError(f"`{item}` is not an nn.Module")
        return mod

    def set_submodule(self, target, module, strict=False):
        """``model.set_submodule("0.fc", nn.Linear(2, 2))``: replace (or, unless ``strict``, add) a submodule."""
        if target == "":
            raise ValueError("Cannot set the submodule without a target name!")
        if not isinstance(module, Module):
            raise ValueError(f"`module` is not an nn.Module, found {type(module)}")
        parent_name, _, name = target.rpartition(".")
        parent = self.get_submodule(parent_name)
        if strict and not hasattr(parent, name):
            raise AttributeError(f"{parent._get_name()} has no attribute `{name}`")
        if hasattr(parent, name) and not isinstance(getattr(parent, name), Module):
            raise AttributeError(f"`{name}` is not an nn.Module")
        setattr(parent, name, module)

    def _get_attribute(self, target):
        """The submodule holding the last name of the dotted ``target``, that name, and the attribute."""
        module_path, _, name = target.rpartition(".")
        mod = self.get_submodule(module_path)
        if not hasattr(mod, name):
            raise AttributeError(f"{mod._get_name()} has no attribute `{name}`")
        return mod, name, getattr(mod, name)

    def get_parameter(self, target):
        """``model.get_parameter("0.weight")``: the Parameter at a dotted name."""
        _, name, param = self._get_attribute(target)
        if not isinstance(param, Parameter):
            raise AttributeError(f"`{name}` is not an nn.Parameter")
        return param

    def get_buffer(self, target):
        """``model.get_buffer("loss.weight")``: the buffer at a dotted name."""
        mod, name, buffer = self._get_attribute(target)
        if name not in mod._buffers:
            raise AttributeError(f"`{name}` is not a buffer")
        return buffer

    # ------------------------------------------------------------------ walking the tree
    def named_modules(self, memo=None, prefix="", remove_duplicate=True):
        """This module and every module below it, depth first, with dotted names ("" for self)."""
        if memo is None:
            memo = set()
        if self in memo:  # a module used twice is listed once
            return
        if remove_duplicate:
            memo.add(self)
        yield prefix, self
        for name, module in self._modules.items():
            if module is None:
                continue
            yield from module.named_modules(memo, prefix + ("." if prefix else "") + name, remove_duplicate)

    def modules(self):
        for _, module in self.named_modules():
            yield module

    def named_children(self):
        """The direct submodules, with their names."""
        memo = set()
        for name, module in self._modules.items():
            if module is not None and module not in memo:
                memo.add(module)
                yield name, module

    def children(self):
        for _, module in self.named_children():
            yield module

    def _named_members(self, get_members, prefix="", recurse=True, remove_duplicate=True):
        """Walk the modules and yield ``(dotted name, tensor)``; a shared tensor comes out once."""
        memo = set()
        modules = self.named_modules(prefix=prefix, remove_duplicate=remove_duplicate) if recurse \
            else [(prefix, self)]
        for module_prefix, module in modules:
            for name, value in get_members(module):
                if value is None or value in memo:
                    continue
                if remove_duplicate:
                    memo.add(value)
                yield module_prefix + ("." if module_prefix else "") + name, value

    def named_parameters(self, prefix="", recurse=True, remove_duplicate=True):
        """``("0.weight", Parameter), ("0.bias", Parameter), ...`` for this module and below."""
        yield from self._named_members(lambda m: m._parameters.items(), prefix, recurse, remove_duplicate)

    def parameters(self, recurse=True):
        """Every parameter of this module and its submodules: what you hand to an optimizer."""
        for _, param in self.named_parameters(recurse=recurse):
            yield param

    def named_buffers(self, prefix="", recurse=True, remove_duplicate=True):
        yield from self._named_members(lambda m: m._buffers.items(), prefix, recurse, remove_duplicate)

    def buffers(self, recurse=True):
        for _, buf in self.named_buffers(recurse=recurse):
            yield buf

    def apply(self, fn):
        """Call ``fn`` on every submodule (children first) and then on self, e.g. to initialise weights."""
        for module in self.children():
            module.apply(fn)
        fn(self)
        return self

    # ------------------------------------------------------------------ modes and gradients
    def train(self, mode=True):
        """Set ``training`` on this module and all below (it matters for Dropout and BatchNorm)."""
        if not isinstance(mode, bool):
            raise ValueError("training mode is expected to be boolean")
        self.training = mode
        for module in self.children():
            module.train(mode)
        return self

    def eval(self):
        return self.train(False)

    def requires_grad_(self, requires_grad=True):
        """Switch gradients on or off for all parameters (``False`` freezes the module)."""
        for p in self.parameters():
            p.requires_grad_(requires_grad)
        return self

    def zero_grad(self, set_to_none=True):
        """Forget the gradients of all parameters: ``None`` by default, or zeros in place."""
        zero_grads(self.parameters(), set_to_none)

    # ------------------------------------------------------------------ dtypes
    def _apply(self, fn):
        """Replace every parameter's and buffer's values by ``fn(values)``, keeping the Parameter objects.

        PyTorch does it with ``param.data = fn(param)``: the same Parameter (so an optimizer built
        before still holds it), with new numbers.  Its ``.grad`` is converted the same way.
        """
        for module in self.children():
            module._apply(fn)
        with grad_mode.no_grad():
            for param in self._parameters.values():
                if param is None:
                    continue
                param.data = fn(param)
                if param.grad is not None:
                    param.grad.data = fn(param.grad)
            for key, buf in self._buffers.items():
                if buf is not None:
                    self._buffers[key] = fn(buf)
        return self

    def to(self, *args, **kwargs):
        """``model.to(minigrad.float64)`` casts floating point parameters and buffers; ``model.to("cpu")`` keeps them."""
        dtype = kwargs.get("dtype")
        _device.check(kwargs.get("device"))
        for a in args:
            if isinstance(a, _dtype.dtype):
                dtype = a
            elif isinstance(a, Tensor):
                dtype = a.dtype
            else:
                _device.check(a)  # the CPU, or PyTorch's error for a device minigrad does not have
        if dtype is None:
            return self
        if not dtype.is_floating_point:
            raise TypeError(f"nn.Module.to only accepts floating point or complex dtypes, but got desired "
                            f"dtype={dtype}")
        return self._apply(lambda t: t.to(dtype) if t.is_floating_point() else t)

    def double(self):
        return self._apply(lambda t: t.double() if t.is_floating_point() else t)

    def float(self):
        return self._apply(lambda t: t.float() if t.is_floating_point() else t)

    def cpu(self):
        return self

    def cuda(self, device=None):
        _device.check("cuda" if device is None else device)

    def type(self, dst_type):
        return self._apply(lambda t: t.type(dst_type))

    # ------------------------------------------------------------------ saving and loading
    def state_dict(self, *, destination=None, prefix="", keep_vars=False):
        """An ``OrderedDict`` from dotted names to detached tensors (they share the module's numbers)."""
        if destination is None:
            destination = OrderedDict()
        for name, param in self._parameters.items():
            if param is not None:
                destination[prefix + name] = param if keep_vars else param.detach()
        for name, buf in self._buffers.items():
            if buf is not None and name not in self._non_persistent_buffers_set:
                destination[prefix + name] = buf if keep_vars else buf.detach()
        for name, module in self._modules.items():
            if module is not None:
                module.state_dict(destination=destination, prefix=prefix + name + ".", keep_vars=keep_vars)
        return destination

    def _load_from_state_dict(self, state_dict, prefix, strict, missing_keys, unexpected_keys, error_msgs):
        """Copy this module's own entries (not its children's) out of ``state_dict``."""
        persistent_buffers = {k: v for k, v in self._buffers.items() if k not in self._non_persistent_buffers_set}
        local_state = {k: v for k, v in list(self._parameters.items()) + list(persistent_buffers.items())
                       if v is not None}
        for name, param in local_state.items():
            key = prefix + name
            if key not in state_dict:
                if strict:
                    missing_keys.append(key)
                continue
            input_param = state_dict[key]
            if not isinstance(input_param, Tensor):
                error_msgs.append(f'While copying the parameter named "{key}", expected minigrad.Tensor or '
                                  f"Tensor-like object from checkpoint but received {type(input_param)}")
                continue
            if input_param.shape != param.shape:
                error_msgs.append(f"size mismatch for {key}: copying a param with shape {input_param.shape} from "
                                  f"checkpoint, the shape in current model is {param.shape}.")
                continue
            with grad_mode.no_grad():
                param.copy_(input_param)  # in place: the Parameter objects stay the same

        if strict:
            for key in state_dict:
                if key.startswith(prefix):
                    input_name = key[len(prefix):].split(".", 1)
                    if len(input_name) > 1:  # "child.weight": belongs to a submodule
                        if input_name[0] not in self._modules:
                            unexpected_keys.append(key)
                    elif input_name[0] not in local_state:
                        unexpected_keys.append(key)

    def load_state_dict(self, state_dict, strict=True, assign=False):
        """Copy the values of a ``state_dict`` into this module's parameters and buffers.

        With ``strict=True`` (the default) missing and unexpected keys are errors, reported all at
        once in PyTorch's words.  ``assign=True`` (swap in the tensors instead of copying) is not
        supported by minigrad.
        """
        if assign:
            raise NotImplementedError("minigrad's load_state_dict does not support assign=True")
        if not isinstance(state_dict, dict):
            raise TypeError(f"Expected state_dict to be dict-like, got {type(state_dict)}.")
        missing_keys, unexpected_keys, error_msgs = [], [], []

        def load(module, local_state_dict, prefix=""):
            module._load_from_state_dict(local_state_dict, prefix, True, missing_keys, unexpected_keys, error_msgs)
            for name, child in module._modules.items():
                if child is not None:
                    child_prefix = prefix + name + "."
                    child_state_dict = {k: v for k, v in local_state_dict.items() if k.startswith(child_prefix)}
                    load(child, child_state_dict, child_prefix)

        load(self, OrderedDict(state_dict))

        if strict:
            if unexpected_keys:
                error_msgs.insert(0, "Unexpected key(s) in state_dict: {}. ".format(
                    ", ".join(f'"{k}"' for k in unexpected_keys)))
            if missing_keys:
                error_msgs.insert(0, "Missing key(s) in state_dict: {}. ".format(
                    ", ".join(f'"{k}"' for k in missing_keys)))
        if error_msgs:
            raise RuntimeError("Error(s) in loading state_dict for {}:\n\t{}".format(
                type(self).__name__, "\n\t".join(error_msgs)))
        return _IncompatibleKeys(missing_keys, unexpected_keys)

    # ------------------------------------------------------------------ printing
    def _get_name(self):
        return type(self).__name__

    def extra_repr(self):
        """The text between the parentheses, e.g. ``in_features=2, out_features=3, bias=True``."""
        return ""

    def __repr__(self):
        extra_lines = self.extra_repr().split("\n") if self.extra_repr() else []
        child_lines = ["(" + key + "): " + _addindent(repr(module), 2) for key, module in self._modules.items()]
        lines = extra_lines + child_lines
        main_str = self._get_name() + "("
        if lines:
            if len(extra_lines) == 1 and not child_lines:  # a simple one-liner, like most layers
                main_str += extra_lines[0]
            else:
                main_str += "\n  " + "\n  ".join(lines) + "\n"
        return main_str + ")"


_BOTH_KINDS = ("Cannot use both regular backward hooks and full backward hooks on a single Module. "
               "Please use only one of them.")


def _register_old_backward_hooks(module, args, output):
    """``register_backward_hook``'s hooks go on the grad_fn of the output's first tensor, with PyTorch's
    deprecation warnings where they will miss gradients (PyTorch: ``_call_impl`` and
    ``_maybe_warn_non_full_backward_hook``; PyTorch holds the module by a weak reference)."""
    var = output
    while not isinstance(var, Tensor):
        var = next(v for v in var.values() if isinstance(v, Tensor)) if isinstance(var, dict) else var[0]
    grad_fn = var.grad_fn
    if grad_fn is None:
        return
    for hook in list(module._backward_hooks.values()):
        grad_fn.register_hook(lambda grad_input, grad_output, hook=hook: hook(module, grad_input, grad_output))
    if not isinstance(output, Tensor) and not (isinstance(output, tuple) and all(isinstance(r, Tensor) for r in output)):
        return warnings.warn("Using non-full backward hooks on a Module that does not return a single Tensor or a "
                             "tuple of Tensors is deprecated and will be removed in future versions. This hook will "
                             "be missing some of the grad_output. Please use register_full_backward_hook to get the "
                             "documented behavior.", FutureWarning, stacklevel=3)
    if not all(isinstance(a, Tensor) for a in args):
        return warnings.warn("Using non-full backward hooks on a Module that does not take as input a single Tensor "
                             "or a tuple of Tensors is deprecated and will be removed in future versions. This hook "
                             "will be missing some of the grad_input. Please use register_full_backward_hook to get "
                             "the documented behavior.", FutureWarning, stacklevel=3)
    results = (output,) if isinstance(output, Tensor) else output
    out_grad_fns = {r.grad_fn for r in results if r.grad_fn is not None}
    if len(out_grad_fns) == 1 and grad_fn in out_grad_fns:
        if {a.grad_fn for a in args if a.grad_fn is not None} != {fn for fn, _ in grad_fn.next_functions}:
            warnings.warn("Using a non-full backward hook when the forward contains multiple autograd Nodes is "
                          "deprecated and will be removed in future versions. This hook will be missing some "
                          "grad_input. Please use register_full_backward_hook to get the documented behavior.",
                          FutureWarning, stacklevel=3)
    elif len(out_grad_fns) > 1:
        warnings.warn("Using a non-full backward hook when outputs are generated by different autograd Nodes is "
                      "deprecated and will be removed in future versions. This hook will be missing some "
                      "grad_output. Please use register_full_backward_hook to get the documented behavior.",
                      FutureWarning, stacklevel=3)
    else:
        warnings.warn("Using a non-full backward hook when outputs are nested in python data structure is "
                      "deprecated and will be removed in future versions. This hook will be missing some "
                      "grad_output.", FutureWarning, stacklevel=3)


def _register(hooks, hook, prepend):
    """Add ``hook`` to a module's hook dict, last (or first, with ``prepend``); hooks run in dict order."""
    handle = RemovableHandle(hooks, hook)
    if prepend:
        others = [(k, v) for k, v in hooks.items() if k != handle.id]
        hooks.clear()
        hooks[handle.id] = hook
        hooks.update(others)
    return handle


def _legacy_reduction(size_average, reduce, reduction):
    """Turn the old ``size_average``/``reduce`` arguments of the losses into ``reduction``, with PyTorch's warning."""
    if size_average is None and reduce is None:
        return reduction
    size_average = True if size_average is None else size_average
    reduce = True if reduce is None else reduce
    reduction = "none" if not reduce else ("mean" if size_average else "sum")
    warnings.warn(f"size_average and reduce args will be deprecated, please use reduction='{reduction}' instead.",
                  UserWarning, stacklevel=3)
    return reduction


def zero_grads(params, set_to_none=True):
    """What ``Module.zero_grad`` and ``Optimizer.zero_grad`` do: each ``.grad`` to None, or to zeros."""
    for p in params:
        if p.grad is not None:
            if set_to_none:
                p.grad = None
            else:
                if p.grad.grad_fn is not None:
                    p.grad.detach_()
                else:
                    p.grad.requires_grad_(False)
                p.grad.zero_()
