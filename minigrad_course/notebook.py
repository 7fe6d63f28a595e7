"""Small helpers the notebooks use: show minigrad's own source, show a figure with alt text, and run
the same code in PyTorch.

``show_source(obj)`` reads the code from the installed package (so a notebook never shows a stale
copy) and renders it as a highlighted Python block in JupyterLab; ``show_source(obj, "start text",
"end text")`` shows only the part between two lines.  The notebooks show whole functions and classes,
each short enough to read (``tests/test_excerpts.py`` checks both).

``show_figure(fig, alt)`` shows a matplotlib figure as a picture with alt text (a description for
screen readers and for exported notebooks, which otherwise say "No description has been provided
for this image").

``side_by_side(program)`` runs ``program(torch_like_module)`` with minigrad and, when PyTorch is
installed, with PyTorch too, and prints both results (or says that PyTorch was skipped).
"""
import base64
import html
import inspect
import io
import os
import textwrap

# Long source lines scroll sideways instead of wrapping (JupyterLab wraps code in Markdown output,
# at any letter when a line has no space left).  Scoped to this class: nothing else changes.
SOURCE_CSS = ("<style>.minigrad-source pre, .minigrad-source code "
              "{white-space: pre !important; overflow-wrap: normal !important; word-break: normal !important;} "
              ".minigrad-source pre {overflow-x: auto;}</style>")


class Source:
    """Source code that JupyterLab shows highlighted (markdown) and plain text shows as is."""

    def __init__(self, code, title):
        self.code = code
        self.title = title

    def _repr_markdown_(self):
        return (f'{SOURCE_CSS}\n<div class="minigrad-source">\n\n**{self.title}**\n\n'
                f"```python\n{self.code}\n```\n\n</div>")

    def __repr__(self):
        return f"# {self.title}\n{self.code}"


def show_source(obj, start=None, end=None):
    """The source of a minigrad function, class or method, or a part of it.

    ``start`` and ``end`` pick the part: a number is a line of the shown code (counted from 0, as
    in a slice: ``show_source(f, 0, 5)`` is the first five lines); a string is a marker, the first
    line that contains it (``end``'s line is included).  The title names the file and its line
    numbers, e.g. ``minigrad/optim/sgd.py, lines 36-52 — SGD.step``.

    A decorated function is shown from its own file, not the decorator's (``functools.wraps``
    leaves the original in ``__wrapped__``); a property shows its getter.
    """
    target = obj.fget if isinstance(obj, property) else obj
    target = inspect.unwrap(getattr(target, "__func__", target))
    lines, first = inspect.getsourcelines(target)
    lines = textwrap.dedent("".join(lines)).rstrip("\n").split("\n")
    n = len(lines)
    lo = _find(lines, start, 0) if isinstance(start, str) else slice(start, None).indices(n)[0]
    hi = _find(lines, end, lo) + 1 if isinstance(end, str) else slice(None, end).indices(n)[1]
    part = lines[lo:hi]
    while len(part) > 1 and not part[-1].strip():  # no blank lines at the end of an excerpt
        part.pop()
    package_root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # the folder holding minigrad/
    path = os.path.relpath(inspect.getsourcefile(target), package_root).replace(os.sep, "/")
    where = f"lines {first + lo}-{first + lo + len(part) - 1}" if (lo, hi) != (0, n) else ""
    name = getattr(obj, "__qualname__", getattr(target, "__qualname__", getattr(target, "__name__", "")))
    return Source(textwrap.dedent("\n".join(part)), f"{path}{', ' + where if where else ''} — {name}")


def _find(lines, marker, after):
    """The first line at or after ``after`` that contains ``marker``."""
    for i in range(after, len(lines)):
        if marker in lines[i]:
            return i
    raise ValueError(f"show_source: no line contains {marker!r}")


class Figure:
    """A matplotlib figure as a PNG with alt text; made by ``show_figure``."""

    def __init__(self, png, alt):
        self.png = png
        self.alt = alt

    def _repr_mimebundle_(self, include=None, exclude=None):
        data = base64.b64encode(self.png).decode("ascii")
        bundle = {
            # JupyterLab and nbconvert prefer text/html: an <img> with its alt text
            "text/html": f'<img alt="{html.escape(self.alt, quote=True)}" src="data:image/png;base64,{data}">',
            "image/png": data,
            "text/plain": f"<figure: {self.alt}>",
        }
        return bundle, {"image/png": {"alt": self.alt}}


def show_figure(fig, alt, dpi=100):
    """Show a matplotlib figure with alt text (say what it shows: "loss falls from 0.7 to 0.1").

    Use it as a cell's last line, or ``display(show_figure(fig, alt))``; for a plot that updates
    while a loop runs, ``handle = display(show_figure(fig, alt), display_id=True)`` once and
    ``handle.update(show_figure(fig, alt))`` after each redraw.  The figure is closed, so the
    notebook does not show it a second time.
    """
    import matplotlib.pyplot as plt
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=dpi, bbox_inches="tight")
    plt.close(fig)
    return Figure(buffer.getvalue(), alt)


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
        print("PyTorch:  not installed here, skipped (`make lab WITH_TORCH=1` installs torch 2.13.0 to compare)")
    else:
        print("PyTorch: ", _clean(repr(program(torch))).replace("torch.", "minigrad.").replace("torch::", "minigrad::"))


def _clean(text):
    return text.replace("\n", "\n          ")
