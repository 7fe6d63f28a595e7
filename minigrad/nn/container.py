"""Containers: ``Sequential`` (a pipeline of modules) and ``ModuleList`` (a list of modules).

PyTorch: ``torch/nn/modules/container.py``.  Both store their modules as submodules named
``"0"``, ``"1"``, ...: that is where the names ``"0.weight"`` in a ``state_dict`` come from.
"""
from collections import OrderedDict
import operator

from .module import Module, _addindent


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
    Sequential sharing the same modules).
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
        # renumber, so that the names stay "0", "1", ... (as PyTorch does)
        self.__dict__["_modules"] = dict(zip(map(str, range(len(self._modules))), self._modules.values()))

    def __len__(self):
        return len(self._modules)

    def __iter__(self):
        return iter(self._modules.values())

    def append(self, module):
        self.add_module(str(len(self)), module)
        return self

    def forward(self, input):
        for module in self:
            input = module(input)
        return input


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

    def __len__(self):
        return len(self._modules)

    def __iter__(self):
        return iter(self._modules.values())

    def __iadd__(self, modules):
        return self.extend(modules)

    def append(self, module):
        self.add_module(str(len(self)), module)
        return self

    def extend(self, modules):
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
