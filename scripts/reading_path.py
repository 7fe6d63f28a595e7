"""``make reading-path``: how much of minigrad a newcomer's first program runs.

In a fresh process it imports minigrad, then runs, for the first time::

    x = minigrad.tensor([1., 2.], requires_grad=True)
    (x * 2).sum().backward()

and counts the distinct statements executed under ``minigrad/`` while it runs (a statement written over
several lines counts once; code that minigrad made with ``exec`` counts under the file it was made in).  It prints the count per file
and fails (exit 1) when the total is over the target or a line of a machinery module runs: the
ZeroTensor kernels, the layout contract, anomaly mode, the profiler, views made without grad.
"""
import ast
import os
import sys
from collections import Counter

TARGET = 200
MACHINERY = {  # (file, what it is): none of these may run for the program above
    "minigrad/ops/zerotensor.py": "ZeroTensor kernels",
    "minigrad/_core/layout.py": "PyTorch's layout contract",
    "minigrad/autograd/anomaly_mode.py": "anomaly mode",
    "minigrad/autograd/profiler.py": "the profiler",
    "minigrad/profiler.py": "the profiler",
    "minigrad/ops/views_no_grad.py": "views made without grad",
}
PROGRAM = "x = minigrad.tensor([1., 2.], requires_grad=True)\n(x * 2).sum().backward()\n"


def trace_program(root):
    """The set of (relative file, line) pairs under ``root/minigrad`` that ``PROGRAM`` runs."""
    package = os.path.join(root, "minigrad") + os.sep
    lines = set()

    def local(frame, event, arg):
        if event == "line":
            lines.add((frame.f_code.co_filename, frame.f_lineno))
        return local

    def global_(frame, event, arg):
        filename = frame.f_code.co_filename
        if filename.startswith(package) or _made_by_minigrad(frame, package):
            return local
        return None

    sys.path.insert(0, root)
    import minigrad  # noqa: F401  (the import itself is not the program)
    code = compile(PROGRAM, "<program>", "exec")
    sys.settrace(global_)
    try:
        exec(code, {"minigrad": minigrad})
    finally:
        sys.settrace(None)
    return {(os.path.relpath(f, root) if f.startswith(package) else f, _statement(f, n)) for f, n in lines}


_starts = {}  # file -> {line: the first line of the statement it belongs to}


def _statement(filename, line):
    """The first line of the innermost statement that line ``line`` of ``filename`` belongs to."""
    if filename not in _starts:
        starts = {}
        try:
            tree = ast.parse(open(filename).read())
        except (OSError, SyntaxError):  # (code made by exec: its lines as they are)
            tree = None
        for node in ast.walk(tree) if tree is not None else ():
            if isinstance(node, ast.stmt):
                body_start = min((b.lineno for field in ("body", "orelse", "finalbody", "handlers")
                                  for b in getattr(node, field, ()) or ()), default=node.end_lineno + 1)
                for n in range(node.lineno, min(node.end_lineno, body_start - 1) + 1):
                    if n not in starts or starts[n] < node.lineno:  # (the innermost statement wins)
                        starts[n] = node.lineno
        _starts[filename] = starts
    return _starts[filename].get(line, line)


def _made_by_minigrad(frame, package):
    """Code compiled from a string (``exec``) by a function of minigrad: its caller's frame is in the package."""
    name = frame.f_code.co_filename
    if not name.startswith("<") or name.startswith("<frozen") or name == "<program>":
        return False
    caller = frame.f_back
    return caller is not None and caller.f_code.co_filename.startswith(package)


def main():
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    lines = trace_program(root)
    per_file = Counter(f for f, _ in lines)
    width = max(len(f) for f in per_file)
    for f, n in sorted(per_file.items(), key=lambda kv: (-kv[1], kv[0])):
        print(f"{f:<{width}}  {n:4d}")
    total = len(lines)
    print(f"{'total':<{width}}  {total:4d}  statements in {len(per_file)} files (target <= {TARGET})")
    problems = [f"{f} ran ({MACHINERY[f]}): lines {sorted(n for g, n in lines if g == f)}"
                for f in sorted(per_file) if f in MACHINERY]
    if total > TARGET:
        problems.append(f"{total} statements is over the target of {TARGET}")
    for p in problems:
        print("FAIL:", p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
