"""Containers: ``Sequential`` (a pipeline of modules), ``ModuleList`` and ``ModuleDict`` (a list and a
dict of modules), ``ParameterList`` and ``ParameterDict`` (a list and a dict of parameters).

PyTorch: ``torch/nn/modules/container.py``.  The lists store their entries as submodules (or
parameters) named ``"0"``, ``"1"``, ...: that is where the names ``"0.weight"`` in a ``state_dict``
come from; the dicts name them by their keys.
"""
from collections import OrderedDict
from collections.abc import Iterable, Mapping
import operator

from ..tensor import Tensor
from .module import Module, _addindent, _typename
from .parameter import Parameter


def _renumber(container):
    """After a deletion, name the modules ``"0"``, ``"1"``, ... again, in their order (as PyTorch does)."""
    container.__dict__["_modules"] = dict(zip(map(str, range(len(container._modules))), container._modules.values()))


def _abs_index(idx, n):
    """A possibly negative index as 0..n-1, with PyTorch's IndexError when it is out of range."""
    idx = operator.index(idx)
    if not -n <= idx < n:
        raise IndexError(f"index {idx} is out of range")
    return idx + n if idx < 0 else idx


class Sequential(Module):
    """``Sequential(m0, m1, m2)(x)`` is ``m2(m1(m0(x)))``.

    Build it from modules (named ``"0"``, ``"1"``, ...) or from one ``OrderedDict`` of
    ``name -> module``.  Index it like a list: ``seq[0]``, ``seq[-1]``, ``seq[1:]`` (a new
    Sequential sharing the same modules); edit it like one: ``append``, ``insert``, ``extend``,
    ``pop``, ``del seq[0]``, ``seq1 + seq2``, ``seq * 3`` (the same modules, three times over).
    """

    def __init__(self, *args):
        super().__init__()
        if len(args) == 1 and isinstance(args[0], OrderedDict):
            for key, module in args[0].items():
                self.add_module(key, module)
        else:
            for idx, module in enumerate(args):
                self.add_module(str(idx), module)

    def __getitem__(self, idx):
        if isinstance(idx, slice):
            return type(self)(OrderedDict(list(self._modules.items())[idx]))
        return list(self._modules.values())[_abs_index(idx, len(self))]

    def __setitem__(self, idx, module):
        key = list(self._modules.keys())[_abs_index(idx, len(self))]
        setattr(self, key, module)

    def __delitem__(self, idx):
        if isinstance(idx, slice):
            for key in list(self._modules.keys())[idx]:
                delattr(self, key)
        else:
            delattr(self, list(self._modules.keys())[_abs_index(idx, len(self))])
        _renumber(self)

    def __len__(self):
        return len(self._modules)

    def __iter__(self):
        return iter(self._modules.values())

    def append(self, module):
        self.add_module(str(len(self)), module)
        return self

    def insert(self, index, module):
        """Put ``module`` before position ``index`` (which may be negative, or ``len(self)``)."""
        if not isinstance(module, Module):
            raise AssertionError(f"module should be of type: {Module}")
        n = len(self._modules)
        if not -n <= index <= n:
            raise IndexError(f"Index out of range: {index}")
        index = index + n if index < 0 else index
        for i in range(n, index, -1):
            self._modules[str(i)] = self._modules[str(i - 1)]
        self._modules[str(index)] = module
        return self

    def extend(self, sequential):
        for layer in sequential:
            self.append(layer)
        return self

    def pop(self, key):
        module = self[key]
        del self[key]
        return module

    def __add__(self, other):
        """``seq1 + seq2``: a new Sequential with the modules of both (the same module objects)."""
        _check_sequential(other)
        return Sequential().extend(self).extend(other)

    def __iadd__(self, other):
        _check_sequential(other)
        return self.extend(other)

    def __mul__(self, other):
        """``seq * 3``: a new Sequential with the modules three times over (the same objects, shared)."""
        _check_factor(self, other)
        return Sequential().extend(list(self) * other)

    def __rmul__(self, other):
        return self.__mul__(other)

    def __imul__(self, other):
        _check_factor(self, other)
        return self.extend(list(self) * (other - 1))

    def forward(self, input):
        for module in self:
            input = module(input)
        return input


def _check_sequential(other):
    if not isinstance(other, Sequential):
        raise ValueError(f"add operator supports only objects of Sequential class, but {type(other)} is given.")


def _check_factor(seq, other):
    if not isinstance(other, int):
        raise TypeError(f"unsupported operand type(s) for *: {type(seq)} and {type(other)}")
    if other <= 0:
        raise ValueError(f"Non-positive multiplication factor {other} for {type(seq)}")


class ModuleList(Module):
    """A Python list of modules that the parent module can see (their parameters get registered).

    Unlike ``Sequential`` it has no ``forward``: you decide in your own ``forward`` how to use them.
    """

    def __init__(self, modules=None):
        super().__init__()
        if modules is not None:
            self.extend(modules)

    def __getitem__(self, idx):
        if isinstance(idx, slice):
            return type(self)(list(self._modules.values())[idx])
        return self._modules[str(_abs_index(idx, len(self)))]

    def __setitem__(self, idx, module):
        setattr(self, str(_abs_index(idx, len(self))), module)

    def __delitem__(self, idx):
        if isinstance(idx, slice):
            for k in range(len(self._modules))[idx]:
                delattr(self, str(k))
        else:
            delattr(self, str(_abs_index(idx, len(self))))
        _renumber(self)

    def __len__(self):
        return len(self._modules)

    def __iter__(self):
        return iter(self._modules.values())

    def __iadd__(self, modules):
        return self.extend(modules)

    def __add__(self, other):
        return ModuleList(list(self) + list(other))

    def insert(self, index, module):
        """Put ``module`` before position ``index``; the ones from there move up by one."""
        for i in range(len(self._modules), index, -1):
            self._modules[str(i)] = self._modules[str(i - 1)]
        self._modules[str(index)] = module

    def append(self, module):
        self.add_module(str(len(self)), module)
        return self

    def pop(self, key):
        module = self[key]
        del self[key]
        return module

    def extend(self, modules):
        if not isinstance(modules, Iterable):
            raise TypeError(f"ModuleList.extend should be called with an iterable, but got {type(modules).__name__}")
        for module in modules:
            self.append(module)
        return self

    def __repr__(self):
        # PyTorch compresses repeated entries: "(0-2): 3 x Linear(...)"
        reprs = [repr(m) for m in self]
        if not reprs:
            return self._get_name() + "()"
        blocks = []  # [start, end, repr] of runs of equal reprs
        for i, r in enumerate(reprs):
            if blocks and blocks[-1][2] == r:
                blocks[-1][1] = i
            else:
                blocks.append([i, i, r])
        lines = []
        for start, end, r in blocks:
            line = f"({start}): {r}" if start == end else f"({start}-{end}): {end - start + 1} x {r}"
            lines.append(_addindent(line, 2))
        return self._get_name() + "(\n  " + "\n  ".join(lines) + "\n)"


class DataParallel(Module):
    """Runs the wrapped module on the whole batch (PyTorch: ``nn.DataParallel``).

    PyTorch splits each batch across its GPUs and gathers the outputs.  Without a GPU (always, in
    minigrad) it keeps ``device_ids`` empty and its forward calls the module, which is all this
    does.  The wrapped module is the submodule ``module``, so its parameters are named
    ``module.weight`` ... as in PyTorch.
    """

    def __init__(self, module, device_ids=None, output_device=None, dim=0):
        super().__init__()
        self.module = module
        self.device_ids = []

    def forward(self, *inputs, **kwargs):
        return self.module(*inputs, **kwargs)


class ModuleDict(Module):
    """A Python dict of modules that the parent module can see: ``nn.ModuleDict({"act": nn.ReLU()})``.

    Each module is a submodule named by its key, so its parameters are ``"<key>.weight"`` ...
    Keys keep their order of insertion.  Like ``ModuleList`` it has no ``forward``.
    """

    def __init__(self, modules=None):
        super().__init__()
        if modules is not None:
            self.update(modules)

    def __getitem__(self, key):
        return self._modules[key]

    def __setitem__(self, key, module):
        self.add_module(key, module)

    def __delitem__(self, key):
        del self._modules[key]

    def __len__(self):
        return len(self._modules)

    def __iter__(self):
        return iter(self._modules)

    def __contains__(self, key):
        return key in self._modules

    def clear(self):
        self._modules.clear()

    def pop(self, key):
        module = self[key]
        del self[key]
        return module

    def keys(self):
        return self._modules.keys()

    def items(self):
        return self._modules.items()

    def values(self):
        return self._modules.values()

    def update(self, modules):
        """Add (or replace) the modules of a dict, a ``ModuleDict`` or a list of ``(key, module)`` pairs."""
        for key, module in _pairs(modules, "ModuleDict", "ModuleDict", (Mapping, ModuleDict), ()):
            self[key] = module


def _pairs(other, name, element_name, in_order, sorted_kinds):
    """The ``(key, value)`` pairs ``ModuleDict.update`` and ``ParameterDict.update`` add, one by one, with
    PyTorch's checks and words: a mapping of the kinds ``in_order`` gives its items in order, one of the
    kinds ``sorted_kinds`` (ParameterDict: a plain ``dict``) sorted by key, anything else must be a
    sequence of pairs."""
    if not isinstance(other, Iterable):
        raise TypeError(f"{name}.update should be called with an iterable of key/value pairs, but got "
                        f"{type(other).__name__}")
    if isinstance(other, in_order):
        yield from other.items()
    elif isinstance(other, sorted_kinds):
        yield from sorted(other.items())
    else:
        for j, pair in enumerate(other):
            if not isinstance(pair, Iterable):
                raise TypeError(f"{element_name} update sequence element #{j} should be Iterable; is"
                                f"{type(pair).__name__}")
            if len(pair) != 2:
                raise ValueError(f"{element_name} update sequence element #{j} has length {len(pair)}; "
                                 "2 is required")
            yield pair[0], pair[1]


def _as_parameter(value):
    """ParameterList and ParameterDict turn a plain tensor into a ``Parameter`` (sharing its numbers);
    a Parameter, or any other object, is kept as it is."""
    return Parameter(value) if isinstance(value, Tensor) and not isinstance(value, Parameter) else value


def _entries_repr(items, type_of):
    """The printout of a ParameterList's or ParameterDict's entries, one line each, as PyTorch writes it
    (``type_of(tensor)``: the dtype or the tensor type it names; no device: minigrad's are all CPU)."""
    lines = []
    for key, value in items:
        if isinstance(value, Tensor):
            kind = "Parameter" if isinstance(value, Parameter) else "Tensor"
            size = "x".join(str(s) for s in value.shape)
            lines.append(f"  ({key}): {kind} containing: [{type_of(value)} of size {size}]")
        else:
            lines.append(f"  ({key}): Object of type: {type(value).__name__}")
    return "\n".join(lines)


class ParameterList(Module):
    """A Python list of parameters that the parent module can see: ``nn.ParameterList([w0, w1])``.

    Entry ``i`` is the parameter named ``"i"`` (``"params.0"`` in the parent's ``state_dict``).
    A plain tensor put in it becomes a ``Parameter``; other objects are kept as plain attributes.
    """

    def __init__(self, values=None):
        super().__init__()
        self._size = 0
        if values is not None:
            self += values

    def _abs_key(self, idx):
        return str(_abs_index(idx, len(self)))

    def __getitem__(self, idx):
        if isinstance(idx, slice):
            out = type(self)()
            for i in range(*idx.indices(len(self))):
                out.append(self[i])
            return out
        return getattr(self, self._abs_key(idx))

    def __setitem__(self, idx, param):
        # every way of adding an entry (append, extend, the constructor) ends here: the one place to wrap
        setattr(self, self._abs_key(idx), _as_parameter(param))

    def __len__(self):
        return self._size

    def __iter__(self):
        return iter(self[i] for i in range(len(self)))

    def __iadd__(self, parameters):
        return self.extend(parameters)

    def append(self, value):
        new_idx = len(self)
        self._size += 1
        self[new_idx] = value
        return self

    def extend(self, values):
        if not isinstance(values, Iterable) or isinstance(values, Tensor):  # (a tensor is never unpacked)
            raise TypeError(f"ParameterList.extend should be called with an iterable, but got {type(values).__name__}")
        for value in values:
            self.append(value)
        return self

    def extra_repr(self):
        return _entries_repr(enumerate(self), lambda p: p.dtype)  # (PyTorch: "torch.float32 of size 2x3")

    def __call__(self, *args, **kwargs):
        raise RuntimeError("ParameterList should not be called.")


class ParameterDict(Module):
    """A Python dict of parameters that the parent module can see: ``nn.ParameterDict({"w": w})``.

    The key is the parameter's name (``"params.w"`` in the parent's ``state_dict``).  A plain tensor
    put in it becomes a ``Parameter``; other objects are kept as plain attributes.  Keys must be
    strings.  Careful, as in PyTorch: built from a plain ``dict``, the keys are sorted; an
    ``OrderedDict``, a ``ParameterDict`` or a list of pairs keeps its order.
    """

    def __init__(self, parameters=None):
        super().__init__()
        self._keys = {}  # the keys in order (a dict without values)
        if parameters is not None:
            self.update(parameters)

    def _key_to_attr(self, key):
        if not isinstance(key, str):
            raise TypeError("Index given to ParameterDict cannot be used as a key as it is not a string (type is "
                            f"'{type(key).__name__}'). Open an issue on github if you need non-string keys.")
        return key

    def __getitem__(self, key):
        return getattr(self, self._key_to_attr(key))

    def __setitem__(self, key, value):
        # every way of adding an entry (update, setdefault, the constructor) ends here: the one place to wrap.
        # (PyTorch records the key before checking that it is a string; so does minigrad)
        self._keys[key] = None
        setattr(self, self._key_to_attr(key), _as_parameter(value))

    def __delitem__(self, key):
        del self._keys[key]
        delattr(self, self._key_to_attr(key))

    def __len__(self):
        return len(self._keys)

    def __iter__(self):
        return iter(self._keys)

    def __reversed__(self):
        return reversed(self._keys)

    def __contains__(self, key):
        return key in self._keys

    def copy(self):
        """A new ParameterDict holding the same entries (the same Parameter objects)."""
        return ParameterDict(OrderedDict((k, self[k]) for k in self._keys))

    def setdefault(self, key, default=None):
        if key not in self:
            self[key] = default
        return self[key]

    def clear(self):
        for key in list(self._keys):
            del self[key]

    def pop(self, key):
        value = self[key]
        del self[key]
        return value

    def popitem(self):
        """Remove and return the last ``(key, value)`` added."""
        key, _ = self._keys.popitem()  # (empty: the dict's KeyError, as in PyTorch)
        self._keys[key] = None
        value = self[key]
        del self[key]
        return key, value

    def get(self, key, default=None):
        return self[key] if key in self else default

    def fromkeys(self, keys, default=None):
        return ParameterDict((k, default) for k in keys)

    def keys(self):
        return self._keys.keys()

    def items(self):
        return ((k, self[k]) for k in self._keys)

    def values(self):
        return (self[k] for k in self._keys)

    def update(self, parameters):
        """Add (or replace) the entries of a mapping, a ``ParameterDict`` or a list of ``(key, value)`` pairs."""
        for key, value in _pairs(parameters, "ParametersDict", "ParameterDict", (OrderedDict, ParameterDict),
                                 Mapping):
            self[key] = value

    def extra_repr(self):
        return _entries_repr(self.items(), _typename)  # (PyTorch: "torch.FloatTensor of size 2x3")

    def __call__(self, input):
        raise RuntimeError("ParameterDict should not be called.")

    def __or__(self, other):
        copy = self.copy()
        copy.update(other)
        return copy

    def __ror__(self, other):
        copy = other.copy()
        copy.update(self)
        return copy

    def __ior__(self, other):
        self.update(other)
        return self
