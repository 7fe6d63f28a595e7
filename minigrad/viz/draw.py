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
    c ()              green box        the output tensor ``c`` itself

The arrows point the way the gradients of ``c.backward()`` flow: from the output at the bottom up to
the leaves, i.e. along ``next_functions`` (from a node to the nodes it sends gradients to).  That is
the one convention of every drawing here, ``BackwardStepper``'s too, and a line under each drawing
says so (``ARROWS``).  The forward pass computed the values the other way, from the top down.
torchviz lays the graph out the same way but puts the arrowheads at the other end (forward).
A constant an op captured gets no gradient: its dashed line has no arrowhead.

Colours are torchviz's: light blue for leaves, dark olive green for the output, orange for saved
tensors (``show_saved=True``), grey for backward nodes.  Two more: pale green for an intermediate
tensor you named, white (dashed) for a constant an op captured.

Options:

- ``names={c: "c", h: "h"}`` names tensors (the other way round, ``{"c": c}``, works too, as does
  ``params=dict(model.named_parameters())``).  A named intermediate tensor gets a box of its own
  on the edge it travels: made by its ``grad_fn``, used by the next node.  (PyTorch's graph does
  not keep intermediate tensors, only their ``grad_fn`` and ``output_nr``; the drawing finds them
  because you passed them in.)
- ``show_values=True``: every tensor box shows its numbers (all of them for a few, a short summary
  for more) and, once it has one, its ``.grad`` -- as micrograd's ``draw_dot`` shows data and grad.
  It also draws the constants an op captured: the ``A`` of ``A @ x`` when ``A`` needs no gradient
  (the ``(None, 0)`` entry of ``next_functions``), or the ``2`` of ``x * 2``.  They are read from
  what the node saved for backward, so once ``backward()`` freed that they are no longer drawn
  (draw before, or use ``retain_graph=True``).
- ``show_saved=True`` draws what each node saved (``freed`` after backward); ``show_grads=True``
  writes the leaves' ``.grad``; ``legend=True`` adds a legend of the colours below the graph (never
  on top of it).  Without it, a line below the graph still says which way the arrows point.
- ``show_ids``: the DOT ids (``n0, n1, ...``) in the boxes.  By default they are shown where the text
  summary needs them, i.e. on nodes of the same name (``MulBackward0 (n4)``).

What ``draw`` reads -- ``grad_fn``, ``next_functions``, ``variable``, ``name()`` and the tensors'
values, so it also draws PyTorch's graphs and a student's own engine -- is listed in ``layout.py``.

How it differs from torchviz:

- torchviz walks the graph recursively and names the DOT nodes ``str(id(obj))``, so a deep graph
  hits Python's recursion limit and the DOT text changes on every run.  Here the walk is an
  iterative breadth-first search from the output, nodes are called ``n0, n1, ...`` in that order,
  and at most ``max_nodes`` backward nodes are drawn (a note says how many were left out).
- torchviz reads saved tensors from PyTorch's ``_saved_self``-style attributes, which have names;
  minigrad keeps them in ``node._saved``, so they are labelled ``saved[i]`` -- with the tensor's
  name when it has one, or ``result`` when the node saved its own output.
- The returned graph prints as a short text summary (see ``__repr__``), which is also what the
  notebook tests compare, since the SVG itself depends on the Graphviz version and fonts.  In a
  notebook the picture comes with that summary as its alt text.

The drawing is a snapshot: draw again after ``backward()`` to see freed saved tensors or grads.
"""
import html

from .format import (_dot_text, plural, shape_list, shape_tuple, short_values, tensor_shape, value_lines,
                     values_text)
from .layout import Layout, grad_of, is_accumulator, saved_entries

COLORS = {
    "leaf": "lightblue",          # torchviz: leaves and parameters
    "output": "darkolivegreen1",  # torchviz: the tensor(s) you called draw on
    "saved": "orange",            # torchviz: tensors saved for backward
    "function": "lightgrey",      # torchviz leaves fillcolor unset: Graphviz's default fill is lightgrey
    "intermediate": "honeydew2",  # a tensor you named that is neither a leaf nor an output
    "constant": "white",          # a tensor or number an op captured that needs no gradient
    "note": "white",
}

# the line under every drawing (and the last row of its legend): which way the arrows point
ARROWS = "arrows: the way gradients flow, from the output to the leaves"

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


def draw(root, params=None, show_saved=False, show_grads=False, legend=False, max_nodes=500, *,
         names=None, show_values=False, show_ids=None):
    """Draw the backward graph that ends at ``root``; returns a ``graphviz.Digraph``.

    ``root``        a tensor (usually the loss), a list of tensors, or a ``grad_fn`` node.
    ``params``      ``{name: tensor}``, e.g. ``dict(model.named_parameters())``, to label leaves.
    ``names``       ``{tensor: name}`` (or ``{name: tensor}``) for any tensor: leaves, outputs,
                    intermediates (drawn on their edge), constants.  Matched by identity; otherwise
                    a tensor's ``.name`` is used when set.
    ``show_values`` every tensor box shows its numbers and its ``.grad``; constants are drawn.
    ``show_saved``  also draw what each node saved for backward (``freed`` once backward ran).
    ``show_grads``  write the first values of each leaf's ``.grad`` in its box.
    ``legend``      add a small legend of the colours, below the graph (the line that says which
                    way the arrows point is there either way).
    ``max_nodes``   draw at most this many backward nodes (a note counts the others).
    ``show_ids``    True: every node shows its id (n0, n1, ...); False: none; None: where two
                    nodes share a name.

    In a notebook the result shows as an SVG picture; ``print(graph)`` gives a text summary and
    ``graph.source`` the DOT text.  (torchviz: ``make_dot``; micrograd: ``draw_dot``.)
    """
    layout = Layout(root, params, max_nodes, show_saved, names=names, show_values=show_values)
    return build(layout, show_saved=show_saved, show_grads=show_grads, show_values=show_values,
                 legend=legend, show_ids=show_ids)


# ---- building the drawing -------------------------------------------------------------------
def build(lay, show_saved=False, show_grads=False, show_values=False, legend=False, show_ids=None,
          node_attrs=None, edge_attrs=None, leaf_grads=None, legend_extra=(), alt=None):
    """The drawing of ``lay`` (a ``Layout``), with the extras ``BackwardStepper`` uses.

    ``node_attrs``      {backward node: {DOT attribute: value}} overriding the default style
    ``edge_attrs``      {(backward node, k): {...}} for the edge of ``node.next_functions[k]``;
                        {(AccumulateGrad node, "leaf"): {...}} for the edge into the leaf
    ``leaf_grads``      {leaf tensor: gradient} shown instead of the leaves' ``.grad`` (implies show_grads)
    ``legend_extra``    more (label, fillcolor) rows for the legend
    ``alt``             the alt text of the picture (default: the text summary)
    """
    graph_type = graph_class()  # (needs the graphviz package)
    node_attrs = node_attrs or {}
    edge_attrs = edge_attrs or {}
    if leaf_grads is not None:
        show_grads = True

    nodes, edges = [], []   # (id, label, attrs), (tail, head, attrs): in the order they are added
    emitted = set()         # ids of the tensor boxes already added
    lines = []              # the text summary
    value_rows = []         # its show_values part

    def leaf_grad(t):
        if leaf_grads is not None:
            return leaf_grads.get(t)
        return grad_of(t)

    def tensor_box(t, extra=(), leaf=False, default="tensor"):
        """The label of a tensor's box; with show_values its numbers and .grad, and a summary row."""
        name = lay.tensor_name(t)
        rows = ([_dot_text(name)] if name else []) + [shape_tuple(tensor_shape(t))] + list(extra)
        if show_values:
            rows += [_dot_text(("data " if i == 0 else "     ") + line)
                     for i, line in enumerate(value_lines(t))]
            g = leaf_grad(t) if leaf else grad_of(t)  # (the stepper: what the leaf got so far)
            is_leaf = getattr(t, "grad_fn", None) is None and getattr(t, "requires_grad", False)
            if g is not None or is_leaf:
                rows += ["grad None"] if g is None else [
                    _dot_text(("grad " if i == 0 else "     ") + line) for i, line in enumerate(value_lines(g))]
            text = lay.tensor_text(t, default="leaf" if is_leaf else default) + " = " + values_text(t)
            if g is not None or is_leaf:
                text += "  grad " + ("None" if g is None else values_text(g))
            value_rows.append(text)
        return "\\n".join(rows)

    def show_id(node):
        return show_ids or (show_ids is None and node in lay.duplicates)

    def node_label(node, nid):
        label = lay.node_label(node)
        if not show_id(node):
            return label
        return (f'<{html.escape(label)}<BR/><FONT POINT-SIZE="8" COLOR="#555555">{nid}</FONT>>')

    # where an edge starts: a node's id, or the box of a named intermediate tensor on that edge
    def edge_tail(nxt, nr):
        t = lay.intermediates.get((nxt, nr))
        if t is not None:
            return lay.id(("inter", id(t)))
        return lay.node_id(nxt) if nxt in lay.drawn_set else "more"

    # the output tensors: a green box each, below the node that made it
    for t in lay.outputs:
        tid = lay.id(("tensor", id(t)))
        if tid in emitted:  # the same tensor passed twice
            continue
        emitted.add(tid)
        nodes.append((tid, tensor_box(t, default="output"), {"fillcolor": COLORS["output"]}))
        text = lay.tensor_text(t, default="output")
        if t.grad_fn is not None:
            text += " <- " + lay.text(t.grad_fn)
            if t.grad_fn in lay.drawn_set:
                edges.append((lay.node_id(t.grad_fn), tid, {}))
        lines.append(text)

    # named intermediate tensors: a pale green box on their edge; the edge into the box looks like
    # the (first) edge out of it, so a highlighted edge stays highlighted all the way
    through = {}
    for node in lay.drawn:
        for (maker, nr), t in lay.intermediates.items():
            if maker is not node:
                continue
            tid = lay.id(("inter", id(t)))
            nodes.append((tid, tensor_box(t), {"fillcolor": COLORS["intermediate"]}))
            edges.append((lay.node_id(node), tid, through.setdefault(tid, {})))
            lines.append(lay.tensor_text(t) + " <- " + lay.text(node) + (f" output {nr}" if nr else ""))

    grad_lines = []
    for node in lay.drawn:
        nid = lay.node_id(node)
        nodes.append((nid, node_label(node, nid),
                      {"fillcolor": COLORS["function"], **node_attrs.get(node, {})}))
        if is_accumulator(node):
            # the leaf tensor itself, above its AccumulateGrad (torchviz: fn.variable)
            var = node.variable
            vid = lay.id(("tensor", id(var)))
            extra, g = [], leaf_grad(var)
            if show_grads and not show_values:
                extra = ["grad " + ("None" if g is None else _dot_text(short_values(g, 4)))]
                grad_lines.append(f"{lay.tensor_text(var, default='leaf')} grad: "
                                  + ("None" if g is None else short_values(g)))
            if vid not in emitted:  # the leaf may be one of the outputs as well
                emitted.add(vid)
                nodes.append((vid, tensor_box(var, extra, leaf=True),
                              {"fillcolor": COLORS["leaf"]}))
            edges.append((vid, nid, edge_attrs.get((node, "leaf"), {})))
            if node in lay.starts:  # draw(leaf_grad_fn): say something in the summary too
                lines.append(lay.text(node))
        else:
            inputs = []
            for k, (nxt, nr) in enumerate(node.next_functions):
                inputs.append(lay.text(nxt))
                if nxt is None:
                    continue  # an input that needs no gradient: PyTorch keeps (None, 0) in next_functions
                tail, attrs = edge_tail(nxt, nr), edge_attrs.get((node, k), {})
                if tail in through and attrs and not through[tail]:
                    through[tail].update({key: v for key, v in attrs.items() if key != "label"})
                edges.append((tail, nid, attrs))
            lines.append(lay.text(node) + " <- " + (", ".join(inputs) if inputs else "(nothing)"))
        for i, kind, tensor, data, freed in saved_entries(node):
            if show_saved:
                sid = lay.id(("saved", id(node), i))
                label, text = _saved_label(lay, kind, tensor, data, freed, i, show_values)
                nodes.append((sid, label, {"fillcolor": COLORS["saved"], "fontsize": "8"}))
                edges.append((nid, sid, {"dir": "none"}))  # torchviz: edge(fn, saved, dir="none")
                lines.append(f"    {text}")
            elif lay.has_id(("const", id(node), i)) and not freed:  # (freed since the layout was made)
                cid = lay.id(("const", id(node), i))
                label, text = _constant_label(lay, tensor, data)
                nodes.append((cid, label, {"fillcolor": COLORS["constant"], "style": "filled,dashed"}))
                edges.append((cid, nid, {"style": "dashed", "dir": "none"}))  # no gradient goes into it
                lines.append(f"    {text}")
    lines.extend(grad_lines)
    lines.extend(value_rows)

    note = None
    if lay.hidden:
        note = f"… {lay.hidden} more nodes not drawn (max_nodes={len(lay.drawn)})"
        lines.append(note)

    header = f"<minigrad graph: {plural(len(nodes), 'node')}, {plural(len(edges), 'edge')}>"
    summary = "\n".join([header] + lines)

    # torchviz's style: filled boxes, small monospace text. Every edge is written tail -> head the way
    # torchviz writes it (input above, output below); dir=back puts the arrowhead at the tail, so every
    # arrow points the way the gradient flows and the layout stays torchviz's.
    graph = graph_type(
        graph_attr={"size": _size(len(nodes) + len(edges))},
        node_attr={"style": "filled", "shape": "box", "fontsize": "10", "height": "0.2",
                   "fontname": "monospace"},
        edge_attr={"fontname": "monospace", "dir": "back"},
        summary=summary, alt=alt)
    for nid, label, attrs in nodes:
        graph.node(nid, label, **attrs)
    if note is not None:
        graph.node("more", note, shape="note", fillcolor=COLORS["note"], style="filled,dashed")
    for tail, head, attrs in edges:
        graph.edge(tail, head, **{**({"style": "dashed"} if tail == "more" else {}), **attrs})
    if legend:
        constants = any(n.startswith("c") and n[1:].isdigit() for n, _, _ in nodes)  # drawn ones only
        _add_legend(graph, show_saved, bool(lay.intermediates), constants, legend_extra)
    elif edges:  # no legend asked for: still say which way the arrows point
        graph.attr(label=ARROWS, labelloc="b", labeljust="l", fontsize="8", fontname="monospace")
    return graph


def _saved_label(lay, kind, tensor, data, freed, i, show_values=False):
    """(DOT label, summary text) of entry ``i`` of what a node saved."""
    name = lay.tensor_name(tensor) if tensor is not None else ("result" if kind == "output" else None)
    title = f"saved[{i}]" + (f" {name}" if name else "")
    if freed:
        return f"{_dot_text(title)}\\nfreed", f"{title}: freed"
    values = tensor if tensor is not None else data
    shape = tensor_shape(values)
    label = f"{_dot_text(title)}\\n{shape_tuple(shape)}"
    text = f"{title}: {shape_list(shape)}"
    if show_values:
        label += "".join("\\n" + _dot_text(line) for line in value_lines(values))
        text += " = " + values_text(values)
    return label, text


def _constant_label(lay, tensor, data):
    """(DOT label, summary text) of a constant an op captured: ``A (2, 2) [[1, 2], [3, 4]]`` or ``2``."""
    values = tensor if tensor is not None else data
    name = lay.tensor_name(tensor) if tensor is not None else None
    title = name or "constant"
    label = "\\n".join([_dot_text(title), shape_tuple(tensor_shape(values))]
                       + [_dot_text(line) for line in value_lines(values)])
    return label, f"constant {(name + ' ') if name else ''}{shape_list(tensor_shape(values))} = {values_text(values)}"


def _size(rows):
    """torchviz's ``resize_graph``: 0.15 inch per DOT line, at least 12 inches."""
    size = max(12, round(rows * 0.15, 2))
    return f"{size},{size}"


def _add_legend(graph, show_saved, named, constants, extra):
    """A small table (a Graphviz HTML-like label) as the graph's own label, below the drawing: the
    colours, four to a row, then the line that says which way the arrows point (``ARROWS``).

    A graph label gets a place of its own under everything, so it can never cover a node or an
    edge label (a legend drawn as one more node could sit next to an edge label and crowd it).
    """
    rows = [("leaf / parameter", COLORS["leaf"]), ("backward node", COLORS["function"]),
            ("output tensor", COLORS["output"])]
    if named:
        rows.append(("named tensor", COLORS["intermediate"]))
    if constants:
        rows.append(("constant (needs no grad)", COLORS["constant"]))
    if show_saved:
        rows.append(("saved tensor", COLORS["saved"]))
    rows.extend(extra)
    cells = [f'<TD BGCOLOR="{color}">{html.escape(label)}</TD>' for label, color in rows]
    lines = ["".join(cells[i:i + 4]) for i in range(0, len(cells), 4)]  # four to a row: not wider than the graph
    lines.append(f'<TD BORDER="0" COLSPAN="4" ALIGN="LEFT">{html.escape(ARROWS)}</TD>')
    table = ('<<TABLE BORDER="0" CELLBORDER="1" CELLSPACING="2" CELLPADDING="4"><TR><TD BORDER="0">legend</TD>'
             + '</TR><TR><TD BORDER="0"></TD>'.join(lines) + '</TR></TABLE>>')
    graph.attr(label=table, labelloc="b", labeljust="l", fontsize="8", fontname="monospace")


# ---- the graphviz.Digraph subclass ------------------------------------------------------------
_graph_class = None


def svg_with_alt(svg, alt):
    """An SVG document for inside HTML: no XML prologue, ``role="img"`` and ``aria-label`` set."""
    svg = svg[svg.find("<svg"):]
    return '<svg role="img" aria-label="' + html.escape(alt, quote=True) + '"' + svg[len("<svg"):]


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
        returns the SVG, the summary as ``text/plain`` (what nbval compares), and the SVG inside
        ``text/html`` with the summary as its alt text (``aria-label``): JupyterLab and nbconvert
        prefer that one, and an exported notebook then has no picture without a description.
        """

        def __init__(self, *args, summary="<minigrad graph>", alt=None, **kwargs):
            super().__init__(*args, **kwargs)
            self.summary = summary
            self.alt = alt

        def _copy_kwargs(self, **kwargs):  # for .copy(); graphviz's Dot drops extra kwargs, so add after
            return dict(super()._copy_kwargs(**kwargs), summary=self.summary, alt=self.alt)

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

        def _repr_html_(self):
            return svg_with_alt(self._repr_image_svg_xml(), self.alt or self.summary)

        def _repr_mimebundle_(self, include=None, exclude=None, **kwargs):
            bundle = {}
            wanted = set(include) if include is not None else {"image/svg+xml", "text/html", "text/plain"}
            wanted -= set(exclude or ())
            try:
                svg = self._repr_image_svg_xml() if wanted & {"image/svg+xml", "text/html"} else None
            except DotNotFoundError:
                bundle["text/plain"] = self.summary + "\n\n" + DOT_MISSING
                return bundle
            if "image/svg+xml" in wanted:
                bundle["image/svg+xml"] = svg
            if "text/html" in wanted:
                bundle["text/html"] = svg_with_alt(svg, self.alt or self.summary)
            if "text/plain" in wanted:
                bundle["text/plain"] = self.summary
            return bundle

    MinigradGraph.__module__ = __name__
    _graph_class = MinigradGraph
    return _graph_class
