"""Small helpers the notebooks use: show minigrad's own source, and run the same code in PyTorch.

``show_source(obj)`` reads the code from the installed package (so a notebook never shows a stale
copy) and renders it as a highlighted Python block in JupyterLab.

``side_by_side(program)`` runs ``program(torch_like_module)`` with minigrad and, when PyTorch is
installed, with PyTorch too, and prints both results (or says that PyTorch was skipped).
"""
import inspect
import os
import textwrap


class Source:
    """Source code that JupyterLab shows highlighted (markdown) and plain text shows as is."""

    def __init__(self, code, title):
        self.code = code
        self.title = title

    def _repr_markdown_(self):
        return f"**{self.title}**\n\n```python\n{self.code}\n```"

    def __repr__(self):
        return f"# {self.title}\n{self.code}"


def show_source(obj, start=None, end=None):
    """The source of a minigrad function, class or method (optionally lines ``start:end`` of it)."""
    code = textwrap.dedent(inspect.getsource(obj)).rstrip("\n")
    if start is not None or end is not None:
        code = "\n".join(code.splitlines()[start:end])
    package_root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # the folder holding minigrad/
    path = os.path.relpath(inspect.getsourcefile(obj), package_root).replace(os.sep, "/")
    return Source(code, f"{path} — {getattr(obj, '__qualname__', getattr(obj, '__name__', ''))}")


def _torch():
    try:
        import torch
        return torch
    except ImportError:
        return None


def side_by_side(program):
    """Print what ``program(module)`` returns with minigrad and with PyTorch (if installed)."""
    import minigrad
    print("minigrad:", _clean(repr(program(minigrad))))
    torch = _torch()
    if torch is None:
        print("PyTorch:  not installed here, skipped (pip install torch==2.13.0 to compare)")
    else:
        print("PyTorch: ", _clean(repr(program(torch))).replace("torch.", "minigrad.").replace("torch::", "minigrad::"))


def _clean(text):
    return text.replace("\n", "\n          ")
