"""Every excerpt a notebook shows is short and whole (issue 39).

A notebook shows minigrad's code with ``show_source(obj)``. Two rules keep those excerpts readable:

- the call shows a whole function or class: exactly one argument, no ``start``/``end`` (an excerpt
  cut out of a longer function leaves the reader guessing what the hidden lines do);
- a function is at most 25 lines without its docstring (signature, decorators, comments and blank
  lines count); a class shown whole has every method within 25 lines and is at most 60 lines
  without its docstrings. PyTorch's edge cases live in helpers the function calls by name.

The notebooks are read as JSON and their cells parsed with ``ast``; each call's argument is
evaluated in a namespace made by running that notebook's own import statements. No torch here.
"""
import ast
import importlib
import inspect
import json
import pathlib
import sys
import textwrap

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1]
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))
MAX_FUNCTION = 25
MAX_CLASS = 60


def _code(cell):
    """A code cell's source with IPython magics and shell lines blanked, so ``ast`` can parse it."""
    source = "".join(cell["source"]) if isinstance(cell["source"], list) else cell["source"]
    return "\n".join("" if line.lstrip().startswith(("%", "!")) else line for line in source.split("\n"))


def _trees(path):
    """The parsed code cells of a notebook (cells that still do not parse are left out)."""
    for cell in json.loads(path.read_text())["cells"]:
        if cell["cell_type"] == "code":
            try:
                yield ast.parse(_code(cell))
            except SyntaxError:
                continue


def _is_show_source(node):
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "show_source"


def notebook_namespace(trees):
    """The names the notebook's import statements bind (``import *`` and failing imports skipped)."""
    namespace = {}
    for tree in trees:
        for node in ast.walk(tree):
            if isinstance(node, (ast.Import, ast.ImportFrom)) and not any(a.name == "*" for a in node.names):
                try:
                    exec(compile(ast.Module([node], []), "<notebook imports>", "exec"), namespace)
                except ImportError:
                    continue
    return namespace


def _docstring_lines(node):
    """The line numbers of a def's or class's docstring statement (empty set if it has none)."""
    body = node.body
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) \
            and isinstance(body[0].value.value, str):
        return set(range(body[0].lineno, body[0].end_lineno + 1))
    return set()


def _shown_lines(obj):
    """The lines ``show_source(obj)`` shows, as it finds them (a property shows its getter)."""
    target = obj.fget if isinstance(obj, property) else obj
    target = inspect.unwrap(getattr(target, "__func__", target))
    lines, _ = inspect.getsourcelines(target)
    return textwrap.dedent("".join(lines)).rstrip("\n").split("\n")


def measure(lines):
    """(lines without docstrings, {method: lines without its docstring}) for a def or a class."""
    top = ast.parse("\n".join(lines)).body[0]
    if not isinstance(top, ast.ClassDef):
        return len(lines) - len(_docstring_lines(top)), {}
    docstrings = _docstring_lines(top)
    methods = {}
    for node in top.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            first = min([node.lineno] + [d.lineno for d in node.decorator_list])
            own = _docstring_lines(node)
            docstrings |= own
            methods[node.name] = node.end_lineno - first + 1 - len(own)
    return len(lines) - len(docstrings), methods


def excerpt_problems(call, obj):
    """What is wrong with one ``show_source(...)`` call showing ``obj`` (an empty list if nothing)."""
    total, methods = measure(_shown_lines(obj))
    problems = []
    if len(call.args) != 1 or call.keywords:
        problems.append(f"shows a part (start/end arguments) of {total} lines: show a whole function or class")
    if inspect.isclass(obj):
        problems += [f"method {name} has {n} lines without its docstring (at most {MAX_FUNCTION})"
                     for name, n in methods.items() if n > MAX_FUNCTION]
        if total > MAX_CLASS:
            problems.append(f"the class has {total} lines without docstrings (at most {MAX_CLASS})")
    elif total > MAX_FUNCTION:
        problems.append(f"{total} lines without its docstring (at most {MAX_FUNCTION})")
    return problems


def show_source_calls(path):
    """(argument text, call node, object shown) for each ``show_source`` call in a notebook."""
    trees = list(_trees(path))
    namespace = notebook_namespace(trees)
    for tree in trees:
        for node in ast.walk(tree):
            if _is_show_source(node) and node.args:
                text = ast.unparse(node.args[0])
                yield text, node, eval(text, dict(namespace))


def test_the_notebooks_show_source():
    calls = [c for path in NOTEBOOKS for c in show_source_calls(path)]
    assert len(calls) > 30, "show_source calls not found: has the notebook format changed?"


def test_every_excerpt_is_whole_and_short():
    bad = []
    for path in NOTEBOOKS:
        for text, call, obj in show_source_calls(path):
            bad += [f"{path.name}: show_source({text}): {p}" for p in excerpt_problems(call, obj)]
    assert not bad, "excerpts that break the rules:\n" + "\n".join(bad)


def test_the_rules_can_fail(tmp_path, monkeypatch):
    body = "\n".join(f"    x{i} = {i}" for i in range(28))
    (tmp_path / "long_excerpt_module.py").write_text(
        f'def long(x):\n    """A docstring, not counted."""\n{body}\n    return x\n\n\n'
        'def short(x):\n    """Two lines\n    of docstring."""\n    return x\n\n\n'
        "class Big:\n" + "".join(f"    def m{i}(self):\n{textwrap.indent(body, '    ')}\n        return 1\n\n" for i in range(2))
        + "class Wide:\n" + "".join(f"    def m{i}(self):\n        return {i}\n\n" for i in range(30)))
    monkeypatch.syspath_prepend(str(tmp_path))
    module = importlib.import_module("long_excerpt_module")
    try:
        whole = ast.parse("show_source(f)").body[0].value
        part = ast.parse('show_source(f, "start", end="return")').body[0].value
        assert excerpt_problems(whole, module.short) == []
        assert excerpt_problems(whole, module.long) == ["30 lines without its docstring (at most 25)"]
        assert excerpt_problems(part, module.short) == [
            "shows a part (start/end arguments) of 2 lines: show a whole function or class"]
        assert excerpt_problems(whole, module.Big)[:2] == [
            "method m0 has 30 lines without its docstring (at most 25)",
            "method m1 has 30 lines without its docstring (at most 25)"]
        assert excerpt_problems(whole, module.Wide) == ["the class has 90 lines without docstrings (at most 60)"]
    finally:
        sys.modules.pop("long_excerpt_module", None)
