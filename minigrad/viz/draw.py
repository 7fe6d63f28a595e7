"""``draw(loss)``: a picture of the backward graph, in the style of torchviz's ``make_dot``.

What is drawn, and how it maps to the objects you can poke at in Python::

    a (10)            light blue box   a leaf tensor (a parameter): ``node.variable`` of ...
      |
    AccumulateGrad    grey box         ... its AccumulateGrad node, which adds into ``a.grad``
      |
    ReluBackward0     grey box         a backward node: ``c.grad_fn.next_functions[0][0]``
      |
    SumBackward0      grey box         ``c.grad_fn``
      |
    (  )              green box        the output tensor ``c`` itself

Arrows follow ``next_functions`` but point the way torchviz draws them: from an input towards the
output, i.e. the direction of the *forward* pass.  The gradients of ``c.backward()`` flow against
the arrows, from the bottom to the top.

Colours are torchviz's: light blue for leaves, dark olive green for the output, orange for saved
tensors (``show_saved=True``), grey for backward nodes.

How it differs from torchviz:

- torchviz walks the graph recursively and names the DOT nodes ``str(id(obj))``, so a deep graph
  hits Python's recursion limit and the DOT text changes on every run.  Here the walk is an
  iterative breadth-first search from the output, nodes are called ``n0, n1, ...`` in that order,
  and at most ``max_nodes`` backward nodes are drawn (a note says how many were left out).
- torchviz reads saved tensors from PyTorch's ``_saved_self``-style attributes, which have names;
  minigrad keeps them in ``node._saved`` (``SavedTensor``s, and numbers as their values), so they are labelled
  ``saved[i]`` -- with the tensor's name when it is a named leaf, or ``result`` when the node saved
  its own output.
- The returned graph prints as a short text summary (see ``__repr__``), which is also what the
  notebook tests compare, since the SVG itself depends on the Graphviz version and fonts.

The drawing is a snapshot: draw again after ``backward()`` to see freed saved tensors or grads.
"""
import numpy as np

COLORS = {
    "leaf": "lightblue",          # torchviz: leaves and parameters
    "output": "darkolivegreen1",  # torchviz: the tensor(s) you called draw on
    "saved": "orange",            # torchviz: tensors saved for backward
    "function": "lightgrey",      # torchviz leaves fillcolor unset: Graphviz's default fill is lightgrey
    "note": "white",
}

INSTALL_PACKAGES = "pip install graphviz ipywidgets"

DOT_MISSING = (
    "Graphviz's `dot` program was not found, so the graph cannot be rendered "
    "(the Python package `graphviz` only writes DOT text; `graph.source` still works).\n"
    "Install the program with one of:\n"
    "  Debian/Ubuntu:  sudo apt-get install graphviz\n"
    "  macOS:          brew install graphviz\n"
    "  conda:          conda install -c conda-forge graphviz\n"
    "then restart the kernel.")


class DotNotFoundError(RuntimeError):
    """Raised when rendering needs Graphviz's ``dot`` program and it is not installed."""


def import_graphviz():
    """Import the ``graphviz`` package only when a drawing is asked for (minigrad does not need it)."""
    try:
        import graphviz
    except ImportError as e:
        raise ImportError("minigrad.viz needs the graphviz Python package (and ipywidgets for "
                          f"BackwardStepper): {INSTALL_PACKAGES}  -- plus Graphviz's `dot` program, "
                          "e.g. apt-get install graphviz / brew install graphviz") from e
    return graphviz


def draw(root, params=None, show_saved=False, show_grads=False, legend=False, max_nodes=500):
    """Draw the backward graph that ends at ``root``; returns a ``graphviz.Digraph``.

    ``root``       a Tensor (usually the loss), a list of Tensors, or a ``grad_fn`` node.
    ``params``     ``{name: tensor}``, e.g. ``dict(model.named_parameters())``, to label leaves
                   (matched by identity); otherwise a tensor's ``.name`` is used when set.
    ``show_saved`` also draw what each node saved for backward (``freed`` once backward ran).
    ``show_grads`` write the first values of each leaf's ``.grad`` in its box.
    ``legend``     add a small legend of the colours.
    ``max_nodes``  draw at most this many backward nodes (a note counts the others).

    In a notebook the result shows as an SVG picture; ``print(graph)`` gives a text summary and
    ``graph.source`` the DOT text.
    """
    return build(root, params=params, show_saved=show_saved, show_grads=show_grads,
                 legend=legend, max_nodes=max_nodes)


# ---- formatting helpers (shared with stepper.py) --------------------------------------------
def shape_list(shape):
    """``[3, 2]``: how PyTorch's messages write a shape."""
    return "[" + ", ".join(str(int(s)) for s in shape) + "]"


def shape_tuple(shape):
    """``(3, 2)``: how torchviz writes a shape in its boxes (``(10)`` for one dimension)."""
    return "(" + ", ".join(str(int(s)) for s in shape) + ")"


def short_values(t, limit=6):
    """The first ``limit`` numbers of a tensor: ``[0, 0, 1, 1, …]``, or ``1`` for a scalar."""
    data = np.asarray(getattr(t, "_data", t))
    if data.ndim == 0:
        return _number(data.item())
    flat = data.reshape(-1)
    text = ", ".join(_number(x) for x in flat[:limit].tolist())
    return "[" + text + (", …" if flat.size > limit else "") + "]"


def plural(n, word):
    return f"{n} {word}" + ("" if n == 1 else "s")


def _number(x):
    if isinstance(x, bool):
        return str(x)
    text = f"{x:.4g}"
    return "0" if text == "-0" else text


def _dot_text(s):
    """User text inside a DOT label: backslashes would start DOT escapes such as ``\\n``."""
    return str(s).replace("\\", "\\\\")


def tensor_shape(t):
    return tuple(t._data.shape)


# ---- walking the graph ----------------------------------------------------------------------
def split_root(root):
    """``root`` -> (output tensors to draw as boxes, backward nodes to start the walk from)."""
    from ..autograd.function import Node
    from ..tensor import Tensor
    items = list(root) if isinstance(root, (list, tuple)) else [root]
    outputs, starts = [], []
    for item in items:
        if isinstance(item, Tensor):
            outputs.append(item)
            if item.grad_fn is not None:
                starts.append(item.grad_fn)
        elif isinstance(item, Node):
            starts.append(item)
        else:
            raise TypeError(f"draw() expects a Tensor, a list of Tensors or a grad_fn node, "
                            f"got {type(item).__name__}")
    return outputs, starts


def walk(starts):
    """Every backward node reachable from ``starts``, breadth-first, each once.

    Iterative (a list used as a queue), so a chain of 100,000 nodes needs no recursion.
    ``(None, 0)`` entries of ``next_functions`` -- inputs that need no gradient -- are skipped.
    """
    order, seen = [], set()
    for node in starts:
        if node not in seen:
            seen.add(node)
            order.append(node)
    i = 0
    while i < len(order):
        for nxt, _ in order[i].next_functions:
            if nxt is not None and nxt not in seen:
                seen.add(nxt)
                order.append(nxt)
        i += 1
    return order


class Layout:
    """Names and ids of everything in one drawing; shared by ``draw`` and ``BackwardStepper``.

    DOT ids are handed out in a fixed order -- output tensors, then the backward nodes in
    breadth-first order, each followed by its leaf box and its saved tensors -- so the same graph
    always gives the same DOT text.
    """

    def __init__(self, root, params=None, max_nodes=500, show_saved=False):
        self.outputs, self.starts = split_root(root)
        self.order = walk(self.starts)
        self.drawn = self.order[:max(0, int(max_nodes))]
        self.hidden = len(self.order) - len(self.drawn)
        self.drawn_set = set(self.drawn)
        self.param_names = {id(t): name for name, t in (params or {}).items()}
        self._ids, self._counts = {}, {"n": 0, "s": 0}
        for t in self.outputs:
            self.id(("tensor", id(t)))
        for node in self.drawn:
            self.id(("node", id(node)))
            if self.is_acc(node):
                self.id(("tensor", id(node.variable)))
        if show_saved:  # saved tensors get ids of their own (s0, s1, ...) so node ids never change
            for node in self.drawn:
                for i, saved in enumerate(getattr(node, "_saved", ()) or ()):
                    if saved is not None:
                        self.id(("saved", id(node), i))
        self.labels = self._text_labels()

    @staticmethod
    def is_acc(node):
        from ..autograd.function import AccumulateGrad
        return isinstance(node, AccumulateGrad)

    def id(self, key):
        if key not in self._ids:
            prefix = "s" if key[0] == "saved" else "n"
            self._ids[key] = f"{prefix}{self._counts[prefix]}"
            self._counts[prefix] += 1
        return self._ids[key]

    def node_id(self, node):
        return self._ids[("node", id(node))]

    def tensor_name(self, t):
        """The name to show: from ``params`` (by identity), else ``t.name``, else ``None``."""
        name = self.param_names.get(id(t))
        return name if name is not None else getattr(t, "name", None)

    def node_label(self, node):
        """What the box of a backward node says (torchviz: the node's class name)."""
        return "AccumulateGrad" if self.is_acc(node) else node.name()

    def tensor_text(self, t, default=""):
        """``a [10]`` (or ``[10]`` without a name): a tensor in the text summary."""
        name = self.tensor_name(t) or default
        return (f"{name} " if name else "") + shape_list(tensor_shape(t))

    def _text_labels(self):
        """One unique text name per drawn node: ``AccumulateGrad(a [10])``, ``MulBackward0 (n4)``."""
        base = {}
        for node in self.drawn:
            if self.is_acc(node):
                base[node] = f"AccumulateGrad({self.tensor_text(node.variable)})"
            else:
                base[node] = node.name()
        count = {}
        for text in base.values():
            count[text] = count.get(text, 0) + 1
        return {node: text if count[text] == 1 else f"{text} ({self.node_id(node)})"
                for node, text in base.items()}

    def text(self, node):
        if node is None:
            return "None"
        if node in self.labels:
            return self.labels[node]
        return f"{self.node_label(node)} (not drawn)"


# ---- building the drawing -------------------------------------------------------------------
def build(root, params=None, show_saved=False, show_grads=False, legend=False, max_nodes=500,
          node_attrs=None, edge_attrs=None, leaf_grads=None, legend_extra=(), layout=None):
    """``draw`` with the extras ``BackwardStepper`` uses to colour the current step.

    ``node_attrs``  {backward node: {DOT attribute: value}} overriding the default style
    ``edge_attrs``  {(backward node, k): {...}} for the edge of ``node.next_functions[k]``
    ``leaf_grads``  {leaf tensor: gradient} shown instead of the leaves' ``.grad`` (implies show_grads)
    ``legend_extra`` more (label, fillcolor) rows for the legend
    """
    graphviz = import_graphviz()
    lay = layout if layout is not None else Layout(root, params, max_nodes, show_saved)
    node_attrs = node_attrs or {}
    edge_attrs = edge_attrs or {}
    if leaf_grads is not None:
        show_grads = True

    nodes, edges = [], []   # (id, label, attrs), (tail, head, attrs): in the order they are added
    emitted = set()         # ids of the tensor boxes already added
    lines = []              # the text summary

    def leaf_grad(t):
        if leaf_grads is not None:
            return leaf_grads.get(t)
        return t._grad

    def tensor_label(t, extra=()):
        name = lay.tensor_name(t)
        rows = ([_dot_text(name)] if name else []) + [shape_tuple(tensor_shape(t))] + list(extra)
        return "\\n".join(rows)

    # the output tensors: a green box each, below the node that made it
    for t in lay.outputs:
        tid = lay.id(("tensor", id(t)))
        if tid in emitted:  # the same tensor passed twice
            continue
        emitted.add(tid)
        nodes.append((tid, tensor_label(t), {"fillcolor": COLORS["output"]}))
        text = lay.tensor_text(t, default="output")
        if t.grad_fn is not None:
            text += " <- " + lay.text(t.grad_fn)
            if t.grad_fn in lay.drawn_set:
                edges.append((lay.node_id(t.grad_fn), tid, {}))
        lines.append(text)

    grad_lines = []
    for node in lay.drawn:
        nid = lay.node_id(node)
        nodes.append((nid, lay.node_label(node), {"fillcolor": COLORS["function"], **node_attrs.get(node, {})}))
        if lay.is_acc(node):
            # the leaf tensor itself, above its AccumulateGrad (torchviz: fn.variable)
            var = node.variable
            vid = lay.id(("tensor", id(var)))
            extra = []
            if show_grads:
                g = leaf_grad(var)
                extra = ["grad " + ("None" if g is None else _dot_text(short_values(g, 4)))]
                grad_lines.append(f"{lay.tensor_text(var, default='leaf')} grad: "
                                  + ("None" if g is None else short_values(g)))
            if vid not in emitted:  # the leaf may be one of the outputs as well
                emitted.add(vid)
                nodes.append((vid, tensor_label(var, extra), {"fillcolor": COLORS["leaf"]}))
            edges.append((vid, nid, {}))
            if node in lay.starts:  # draw(leaf_grad_fn): say something in the summary too
                lines.append(lay.text(node))
        else:
            inputs = []
            for k, (nxt, _) in enumerate(node.next_functions):
                inputs.append(lay.text(nxt))
                if nxt is None:
                    continue  # an input that needs no gradient: PyTorch keeps (None, 0) in next_functions
                tail = lay.node_id(nxt) if nxt in lay.drawn_set else "more"
                edges.append((tail, nid, edge_attrs.get((node, k), {})))
            lines.append(lay.text(node) + " <- " + (", ".join(inputs) if inputs else "(nothing)"))
        if show_saved:
            for i, saved in enumerate(getattr(node, "_saved", ()) or ()):
                if saved is None:
                    continue
                sid = lay.id(("saved", id(node), i))
                label, text = _saved_label(lay, node, saved, i)
                nodes.append((sid, label, {"fillcolor": COLORS["saved"], "fontsize": "8"}))
                edges.append((nid, sid, {"dir": "none"}))  # torchviz: edge(fn, saved, dir="none")
                lines.append(f"    {text}")
    lines.extend(grad_lines)

    note = None
    if lay.hidden:
        note = f"… {lay.hidden} more nodes not drawn (max_nodes={len(lay.drawn)})"
        lines.append(note)

    header = f"<minigrad graph: {plural(len(nodes), 'node')}, {plural(len(edges), 'edge')}>"
    summary = "\n".join([header] + lines)

    # torchviz's style: filled boxes, small monospace text
    graph = graph_class()(
        graph_attr={"size": _size(len(nodes) + len(edges))},
        node_attr={"style": "filled", "shape": "box", "fontsize": "10", "height": "0.2",
                   "fontname": "monospace"},
        summary=summary)
    for nid, label, attrs in nodes:
        graph.node(nid, label, **attrs)
    if note is not None:
        graph.node("more", note, shape="note", fillcolor=COLORS["note"], style="filled,dashed")
    for tail, head, attrs in edges:
        graph.edge(tail, head, **{**({"style": "dashed"} if tail == "more" else {}), **attrs})
    if legend:
        _add_legend(graph, show_saved, legend_extra)
    return graph


def _saved_label(lay, node, saved, i):
    """(DOT label, summary text) of entry ``i`` of ``node._saved``: a ``SavedTensor`` or a saved number."""
    if isinstance(saved, np.ndarray):  # a number (the 2 of `x * 2`), kept as its value
        name, freed, data = None, node._freed, saved
    else:
        own_output = saved.tensor is None and saved.output_nr is not None
        name = lay.tensor_name(saved.tensor) if saved.tensor is not None else ("result" if own_output else None)
        freed, data = saved.freed, (saved.tensor._data if saved.tensor is not None else saved.data)
    title = f"saved[{i}]" + (f" {name}" if name else "")
    if freed:
        return f"{_dot_text(title)}\\nfreed", f"{title}: freed"
    return (f"{_dot_text(title)}\\n{shape_tuple(data.shape)}",
            f"{title}: {shape_list(data.shape)}")


def _size(rows):
    """torchviz's ``resize_graph``: 0.15 inch per DOT line, at least 12 inches."""
    size = max(12, round(rows * 0.15, 2))
    return f"{size},{size}"


def _add_legend(graph, show_saved, extra):
    """One small table node (a Graphviz HTML-like label) with a row per colour."""
    rows = [("leaf / parameter", COLORS["leaf"]), ("backward node", COLORS["function"]),
            ("output tensor", COLORS["output"])]
    if show_saved:
        rows.append(("saved tensor", COLORS["saved"]))
    rows.extend(extra)
    cells = "".join(f'<TR><TD BGCOLOR="{color}">{label}</TD></TR>' for label, color in rows)
    table = f'<<TABLE BORDER="0" CELLBORDER="1" CELLSPACING="2"><TR><TD BORDER="0">legend</TD></TR>{cells}</TABLE>>'
    graph.node("legend", table, shape="plaintext", style="", fontsize="8")


# ---- the graphviz.Digraph subclass ------------------------------------------------------------
_graph_class = None


def graph_class():
    """``MinigradGraph``, a ``graphviz.Digraph`` subclass, created on first use.

    It is made lazily so that ``import minigrad.viz`` works without the graphviz package.
    """
    global _graph_class
    if _graph_class is not None:
        return _graph_class
    graphviz = import_graphviz()

    class MinigradGraph(graphviz.Digraph):
        """A ``graphviz.Digraph`` that prints as a text summary and explains a missing ``dot``.

        Jupyter asks for ``_repr_mimebundle_``: graphviz's own returns only ``image/svg+xml``, so
        the text part would fall back to ``<graphviz.graphs.Digraph object at 0x...>``.  This one
        returns the SVG *and* the summary as ``text/plain`` (what nbval compares).
        """

        def __init__(self, *args, summary="<minigrad graph>", **kwargs):
            super().__init__(*args, **kwargs)
            self.summary = summary

        def _copy_kwargs(self, **kwargs):  # for .copy(); graphviz's Dot drops extra kwargs, so add after
            return dict(super()._copy_kwargs(**kwargs), summary=self.summary)

        def __repr__(self):
            return self.summary

        def pipe(self, *args, **kwargs):
            try:
                return super().pipe(*args, **kwargs)
            except graphviz.ExecutableNotFound as e:
                raise DotNotFoundError(DOT_MISSING) from e

        def render(self, *args, **kwargs):
            try:
                return super().render(*args, **kwargs)
            except graphviz.ExecutableNotFound as e:
                raise DotNotFoundError(DOT_MISSING) from e

        def _repr_mimebundle_(self, include=None, exclude=None, **kwargs):
            bundle = {}
            wanted = set(include) if include is not None else {"image/svg+xml", "text/plain"}
            wanted -= set(exclude or ())
            try:
                bundle.update(super()._repr_mimebundle_(include=wanted - {"text/plain"}, **kwargs))
            except DotNotFoundError:
                bundle["text/plain"] = self.summary + "\n\n" + DOT_MISSING
                return bundle
            if "text/plain" in wanted:
                bundle["text/plain"] = self.summary
            return bundle

    MinigradGraph.__module__ = __name__
    _graph_class = MinigradGraph
    return _graph_class
