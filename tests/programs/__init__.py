"""Short programs after the public ones people learn autograd from, written for PyTorch.

Each file is a plain script that starts with ``import torch`` and prints what it computes; its
docstring names the program it follows.  ``tests/test_programs.py`` runs it twice: as it is, on
PyTorch, and with only its import lines changed to minigrad (``import minigrad as torch``), and
compares what the two print.  Random numbers come from numpy (the two libraries' generators
differ), so both see the same data.
"""
import contextlib
import io
import os
import re
import warnings

HERE = os.path.dirname(os.path.abspath(__file__))
NUMBER = re.compile(r"-?\d+\.\d*(?:e[-+]?\d+)?|-?\d+(?:e[-+]?\d+)?|-?inf|nan")
ADDRESS = re.compile(r" at 0x[0-9a-fA-F]+")


def names():
    return sorted(f[:-3] for f in os.listdir(HERE) if f.endswith(".py") and not f.startswith("_"))


def source(name):
    with open(os.path.join(HERE, name + ".py")) as f:
        return f.read()


def on_minigrad(src):
    """The same program with its import lines pointing at minigrad: the one change a user makes."""
    out = []
    for line in src.split("\n"):
        if re.match(r"\s*import torch\s*$", line):
            line = line.replace("import torch", "import minigrad as torch")
        elif re.match(r"\s*(import|from) torch\b", line):
            line = re.sub(r"\btorch\b", "minigrad", line, count=1)
        out.append(line)
    return "\n".join(out)


def tolerance(src):
    """A program may say ``# tolerance: 1e-3`` (relative) when it trains for many float32 steps."""
    m = re.search(r"#\s*tolerance:\s*([0-9.e-]+)", src)
    return float(m.group(1)) if m else 1e-4


def run(src, lib):
    """Run a program's source with ``lib`` ("torch" or "minigrad") and return what it printed."""
    import importlib
    T = importlib.import_module(lib)
    code = src if lib == "torch" else on_minigrad(src)
    buf = io.StringIO()
    default, grad = T.get_default_dtype(), T.is_grad_enabled()
    try:
        with contextlib.redirect_stdout(buf), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            exec(compile(code, f"<program on {lib}>", "exec"), {"__name__": "__main__"})
    finally:
        T.set_default_dtype(default)
        T.set_grad_enabled(grad)
        T.set_default_device(None)  # (a program may set one: torch's stays in force, and moves where warnings point)
    return normalise(buf.getvalue(), lib == "torch")


def normalise(text, torch_side):
    text = ADDRESS.sub("", text)
    # a tensor's repr breaks the line before `dtype=...`/`grad_fn=...` when it gets too long; "minigrad."
    # is 3 characters longer than "torch.", so where the line breaks is not compared
    text = re.sub(r",\n *(?=(dtype|grad_fn|requires_grad)=)", ", ", text)
    if torch_side:
        text = re.sub(r"\btorch\.", "minigrad.", text).replace("torch::autograd::", "minigrad::autograd::")
    return text


def differences(got, want, rtol):
    """Where minigrad's output differs from torch's: the text between numbers exactly, numbers within
    ``rtol`` (relative, with an absolute floor of ``rtol / 10``)."""
    out = []
    g_lines, w_lines = got.rstrip("\n").split("\n"), want.rstrip("\n").split("\n")
    if len(g_lines) != len(w_lines):
        out.append(f"{len(g_lines)} lines printed, torch printed {len(w_lines)}")
    for i, (g, w) in enumerate(zip(g_lines, w_lines)):
        gt, wt = NUMBER.split(g), NUMBER.split(w)
        gn, wn = NUMBER.findall(g), NUMBER.findall(w)
        same = [a.strip() for a in gt] == [b.strip() for b in wt] and len(gn) == len(wn) and all(
            a == b or (a not in ("nan", "inf", "-inf") and b not in ("nan", "inf", "-inf")
                       and abs(float(a) - float(b)) <= rtol / 10 + rtol * abs(float(b)))
            for a, b in zip(gn, wn))
        if not same:
            out.append(f"line {i + 1}: minigrad {g!r}\n{' ' * (len(str(i + 1)) + 6)}   torch {w!r}")
    return out
