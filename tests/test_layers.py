"""minigrad's modules import each other without a cycle, as PyTorch's layers do.

The graph below has an edge for every import of one minigrad module by another, at module level and
inside functions alike (an import inside a function is still a dependency; only imports of optional
packages outside minigrad, such as graphviz or torch, may sit in functions). Importing a submodule
runs its package's ``__init__`` first, so ``from ..autograd.function import Function`` depends on
``minigrad/autograd/__init__.py`` too; only the top package, ``minigrad/__init__.py`` (the API
that gathers every layer), is left out of that rule.

The layers themselves are listed in ``minigrad/_core/__init__.py``.
"""
import ast
import pathlib

ROOT = pathlib.Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "minigrad"


def modules():
    """{"minigrad.ops.shape": path} for every module of the package."""
    found = {}
    for path in PACKAGE.rglob("*.py"):
        parts = list(path.relative_to(ROOT).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        found[".".join(parts)] = path
    return found


def import_graph():
    """{module: {module it imports}} over minigrad's own modules."""
    mods = modules()
    graph = {m: set() for m in mods}
    for name, path in mods.items():
        package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    up = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                    base = ".".join(up + ([node.module] if node.module else []))
                targets = [f"{base}.{a.name}" if f"{base}.{a.name}" in mods else base for a in node.names]
            else:
                continue
            for target in targets:
                while target not in mods and "." in target:  # minigrad.tensor.Tensor -> minigrad.tensor
                    target = target.rsplit(".", 1)[0]
                while target in mods and target != "minigrad":  # the module, and the packages around it
                    if target != name and not name.startswith(target + "."):
                        graph[name].add(target)
                    target = target.rsplit(".", 1)[0]
    return graph


def cycles(graph):
    """The strongly connected components with more than one module (Tarjan's algorithm, iteratively)."""
    index, low, on_stack, stack, found, counter = {}, {}, set(), [], [], [0]
    for root in graph:
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = counter[0]
        counter[0] += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = counter[0]
                    counter[0] += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = set()
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.add(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(component)
    return found


def a_cycle(graph, component):
    """One concrete cycle inside ``component``, as "a -> b -> ... -> a", to name in a failure."""
    start = min(component)
    paths, seen = [[start]], {start}
    while paths:
        path = paths.pop(0)
        for nxt in sorted(graph[path[-1]] & component):
            if nxt == start:
                return " -> ".join(path + [start])
            if nxt not in seen:
                seen.add(nxt)
                paths.append(path + [nxt])
    return ""


def test_the_graph_sees_imports_inside_functions():
    graph = import_graph()
    assert "minigrad.autograd.function" in graph["minigrad.autograd.graph"]   # module level
    assert "minigrad.autograd" in graph["minigrad.ops.dispatch"]   # the package of autograd.function
    assert len(graph) > 50


def test_no_import_cycle():
    graph = import_graph()
    found = cycles(graph)
    assert not found, "import cycles: " + "; ".join(
        f"{a_cycle(graph, c)} (of {len(c)} modules: {', '.join(sorted(c))})" for c in found)


def test_the_lower_layers_never_import_the_tensor_methods_creation_nn_or_the_course():
    """Only imports from above could close a cycle: _core, autograd and the ops reach Tensor's methods,
    creation and nn only by calling methods on the tensors they are handed."""
    graph = import_graph()
    low = [m for m in graph if m.startswith(("minigrad._core", "minigrad.ops")) or m == "minigrad.autograd"
           or m.startswith("minigrad.autograd.") and m != "minigrad.autograd.functional"]
    high = ("minigrad.tensor", "minigrad.creation", "minigrad.functions", "minigrad.nn", "minigrad.optim",
            "minigrad.utils", "minigrad.viz")
    upward = {m: sorted(t for t in graph[m] if t.startswith(high)) for m in low}
    assert not {m: t for m, t in upward.items() if t}


def test_the_cycle_finder_finds_a_cycle():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert cycles(graph) == [{"a", "b", "c"}]
    assert a_cycle(graph, {"a", "b", "c"}) == "a -> b -> c -> a"
