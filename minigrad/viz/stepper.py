"""``BackwardStepper(loss)``: step through ``loss.backward()`` one node at a time.

The steps are not a re-enactment: they come from the real engine (``autograd/engine.py``)::

    task = GraphTask([loss], [seed], keep_graph=True, accumulate=False)
    steps = list(task.steps())      # one Step per node, in the order backward() runs them

Each ``Step`` records the node, the gradients that flowed *in* (one per output of the forward op,
summed over every path that reached it) and the gradients it sent *out* (one per entry of
``node.next_functions``).  Two settings make the run harmless:

- ``keep_graph=True``: the saved tensors are not freed, so you can still call ``loss.backward()``.
- ``accumulate=False``: the ``AccumulateGrad`` nodes are not run; their incoming gradient is only
  captured, so ``.grad`` of your tensors does not change.  ``apply_grads()`` adds the captured
  gradients into ``.grad`` exactly as ``backward()`` would have.

In PyTorch you cannot pause the engine like this: it runs in C++ (see ``torch/csrc/autograd/
engine.cpp``).  Hooks registered on tensors (``register_hook``) do run while the steps are
collected, as they would during backward; gradients of ``retain_grad()`` tensors are only stored
by ``apply_grads()``.

The drawing is ``draw``'s, with the same arrows: every arrow points the way the gradient flows (from
the node that runs to the node that receives its gradient), and a constant an op captured has no
arrowhead (it gets no gradient); the legend under the picture says so.  The arrows of the current
step are red and labelled with the gradient's numbers; every node shows its id (``n4``), the name
the trace and the side panel use.

Without a browser use the plain-text side: ``stepper.trace()``, ``stepper.steps``,
``stepper.next()`` / ``prev()`` / ``goto(i)`` / ``reset()`` and ``stepper.current``.

In a notebook it shows two outputs: a static picture of the current step, and the widget.  While
the widget is alive the picture is hidden; in a notebook opened without running it (where the
widget cannot work: there is no kernel behind its buttons) the picture shows instead.  A few CSS
rules in the picture's output do that, see ``STATIC_CSS``.
"""
import html

from .draw import DOT_MISSING, DotNotFoundError, INSTALL_PACKAGES, build, svg_with_alt
from .format import plural, shape_list, short_values, values_text
from .layout import Layout, is_accumulator

CURRENT = "gold"       # the node running at this step
DONE = "thistle"       # nodes that already ran
FLOW = "red"           # the edges this step sends gradients along
FLOWED = "mediumpurple"  # edges that carried a gradient at an earlier step

# The widget's text/plain (what nbval compares; it must not hold the widget's changing repr).
WIDGET_TEXT = "(BackwardStepper's buttons: run the cell to use them)"

# Lab and nbconvert put each output of a cell in a `.jp-OutputArea-child`, the static picture
# first, the widget next.  A live widget hides the picture; no live widget ("Loading widget...",
# "Error displaying widget: model not found", or the text nbconvert writes in its place) is hidden.
STATIC_CSS = """<style>
.jp-OutputArea-child:has(.minigrad-stepper-static):has(+ .jp-OutputArea-child .minigrad-stepper-live) {display: none;}
.jp-OutputArea-child:has(.minigrad-stepper-static) + .jp-OutputArea-child:not(:has(.minigrad-stepper-live)) {display: none;}
</style>"""


class BackwardStepper:
    """Prev / Next / Reset buttons and a slider over the steps of ``root.backward(gradient)``.

    ``root``      the tensor you would call ``.backward()`` on
    ``gradient``  its gradient, required when ``root`` is not a scalar (as for ``backward``)
    ``params``    ``{name: tensor}`` to label the leaves, e.g. ``dict(model.named_parameters())``
    ``names``     ``{tensor: name}`` for any tensor, as in ``draw``
    ``show_values`` the tensor boxes show their numbers, as in ``draw``
    """

    def __init__(self, root, gradient=None, params=None, *, names=None, show_values=False):
        from ..autograd import GraphTask
        from ..autograd.run_backward import _make_grads, _check_roots
        from ..autograd.function import grad_accumulator
        seed = _make_grads([root], [gradient])[0]  # same checks and messages as backward()
        _check_roots([root], [seed])
        self.root = root
        self.params = params
        self.show_values = show_values
        drawn = root
        if root.grad_fn is None and root.requires_grad:  # backward() on a leaf: just its AccumulateGrad
            drawn = [root, grad_accumulator(root)]
        self.layout = Layout(drawn, params, names=names, show_values=show_values)
        # the engine would also fill .grad of retain_grad() tensors: hide those while we collect
        shielded = {node: node._retained for node in self.layout.order if node._retained}
        for node in shielded:
            node._retained = None
        try:
            self._task = GraphTask([root], [seed], keep_graph=True, accumulate=False)
            self.steps = list(self._task.steps())
        finally:
            for node, retained in shielded.items():
                node._retained = retained
        self.position = 0
        self._widget = None
        self._svg_cache = {}

    # ---- plain-text side -----------------------------------------------------------------
    @property
    def current(self):
        """The ``Step`` at the current position."""
        return self.steps[self.position]

    def goto(self, i):
        """Move to step ``i`` (clamped to the valid range); returns the current ``Step``."""
        i = max(0, min(int(i), len(self.steps) - 1))
        self.position = i
        if self._widget is not None:
            if self._slider.value != i:
                self._slider.value = i  # its observer calls goto again, which refreshes the view
            else:
                self._refresh()
        return self.current

    def next(self):
        return self.goto(self.position + 1)

    def prev(self):
        return self.goto(self.position - 1)

    def reset(self):
        return self.goto(0)

    def leaf_grads(self, upto=None):
        """{leaf tensor: gradient} captured by the ``AccumulateGrad`` steps (up to step ``upto``).

        With ``upto=None`` these are the gradients ``root.backward()`` adds into the leaves' ``.grad``.
        """
        result = {}
        for step in self.steps[: None if upto is None else upto + 1]:
            if self.layout.is_acc(step.node) and step.grads_in and step.grads_in[0] is not None:
                result[step.node.variable] = step.grads_in[0]
        return result

    def apply_grads(self):
        """Accumulate the captured gradients into ``.grad``, as ``root.backward()`` would have.

        The ``AccumulateGrad`` nodes run now (with their hooks), and tensors that called
        ``retain_grad()`` get their gradient.  Calling it twice accumulates twice, like calling
        ``backward(retain_graph=True)`` twice.
        """
        for step in self.steps:
            node = step.node
            if not step.executed and self.layout.is_acc(node) and step.grads_in[0] is not None:
                self._task._call(node, [step.grads_in[0]])  # the engine's own call: hooks, grad mode
            retained = node._retained or {}
            for nr, ref in retained.items():
                tensor = ref()
                if tensor is not None and nr < len(step.grads_in) and step.grads_in[nr] is not None:
                    g = step.grads_in[nr].detach()
                    tensor._grad = g.clone() if tensor._grad is None else tensor._grad + g

    def describe(self, step):
        """One line: ``2  ReluBackward0  in=[10] [1, 1, …]  out=[10] [0, 0, …] -> AccumulateGrad(a [10])``."""
        lay = self.layout
        name = lay.text(step.node)
        grads_in = "; ".join(_grad_text(g) for g in step.grads_in)
        if not step.executed:
            var = step.node.variable
            target = lay.tensor_text(var, default="leaf").split(" [")[0] if lay.tensor_name(var) else "leaf"
            return f"{step.index:<3d} {name}  in={grads_in}  -> {target}.grad (captured, not accumulated)"
        outs = []
        for (nxt, _), g in zip(step.node.next_functions, step.grads_out):
            outs.append(f"{_grad_text(g)} -> {lay.text(nxt)}")
        return f"{step.index:<3d} {name}  in={grads_in}  out=" + ("; ".join(outs) if outs else "()")

    def trace(self):
        """Every step on one line each, in the order the engine ran them."""
        return "\n".join(self.describe(step) for step in self.steps)

    def __repr__(self):
        lines = [f"<BackwardStepper: {plural(len(self.steps), 'step')}, at step {self.position} "
                 f"({self.layout.text(self.current.node)})>"]
        for step in self.steps:
            lines.append(("> " if step.index == self.position else "  ") + self.describe(step))
        return "\n".join(lines)

    # ---- the drawing ---------------------------------------------------------------------
    def graph(self, position=None):
        """The drawing at ``position`` (default: the current one).

        The current node is gold, the ones that ran thistle; every arrow points the way gradients
        flow; the arrows of this step are red, labelled with the gradient each one carries.
        """
        i = self.position if position is None else position
        node_attrs, edge_attrs = {}, {}
        for step in self.steps[:i]:
            node_attrs[step.node] = {"fillcolor": DONE}
            for key, g in _sent(step):
                edge_attrs[key] = {"color": FLOWED}
        step = self.steps[i]
        node_attrs[step.node] = {"fillcolor": CURRENT, "penwidth": "3", "class": "current"}
        for key, g in _sent(step):
            edge_attrs[key] = {"color": FLOW, "penwidth": "2", "fontcolor": FLOW, "fontsize": "9",
                               "label": " " + values_text(g, limit=6), "class": "flow"}
        return build(self.layout, show_values=self.show_values, legend=True, show_ids=True,
                     node_attrs=node_attrs, edge_attrs=edge_attrs,
                     leaf_grads=self.leaf_grads(upto=i - 1) if i else {},
                     legend_extra=[("done", DONE), ("current", CURRENT)], alt=self.describe(step))

    def _svg(self, i):
        if i not in self._svg_cache:
            try:
                graph = self.graph(i)
                svg = svg_with_alt(graph.pipe(format="svg", encoding="utf-8"), graph.alt)
            except DotNotFoundError:
                svg = "<pre>" + html.escape(DOT_MISSING) + "</pre>"
            self._svg_cache[i] = svg
        return self._svg_cache[i]

    def panel_html(self, position=None):
        """The side panel: gradients in, gradients out, what the leaves got so far."""
        i = self.position if position is None else position
        step, lay = self.steps[i], self.layout
        esc = html.escape
        parts = [f"<h4>Step {i} of {len(self.steps) - 1}: <code>{esc(lay.text(step.node))}</code></h4>"]
        parts.append("<b>Gradient flowing in</b> (dLoss/d output of the forward op):<ul>")
        for nr, g in enumerate(step.grads_in):
            parts.append(f"<li>output {nr}: <code>{esc(_grad_text(g, 8))}</code></li>")
        parts.append("</ul>")
        if step.executed:
            parts.append("<b>Gradients flowing out</b> (one per <code>next_functions</code> entry):<ul>")
            if not step.node.next_functions:
                parts.append("<li>(none)</li>")
            for k, ((nxt, nr), g) in enumerate(zip(step.node.next_functions, step.grads_out)):
                where = "None (this input needs no gradient)" if nxt is None else f"{lay.text(nxt)}, input {nr}"
                parts.append(f"<li>[{k}] &rarr; <code>{esc(where)}</code>: <code>{esc(_grad_text(g, 8))}</code></li>")
            parts.append("</ul>")
        else:
            name = lay.tensor_text(step.node.variable, default="leaf")
            parts.append(f"<p><b>AccumulateGrad</b>: <code>backward()</code> would add this gradient into "
                         f"<code>.grad</code> of <code>{esc(name)}</code>. The stepper only captures it "
                         f"(call <code>apply_grads()</code> to accumulate).</p>")
        got = self.leaf_grads(upto=i)
        parts.append("<b>Accumulated into the leaves so far</b>:<ul>")
        if not got:
            parts.append("<li>(nothing yet)</li>")
        for leaf, g in got.items():
            parts.append(f"<li><code>{esc(lay.tensor_text(leaf, default='leaf'))}</code>: "
                         f"<code>{esc(short_values(g, 8))}</code></li>")
        parts.append("</ul>")
        return "\n".join(parts)

    # ---- the widget ----------------------------------------------------------------------
    @property
    def widget(self):
        """The ipywidgets box (built on first use)."""
        if self._widget is None:
            self._build_widget()
        return self._widget

    def _build_widget(self):
        try:
            import ipywidgets as widgets
        except ImportError as e:
            raise ImportError(f"BackwardStepper needs ipywidgets: {INSTALL_PACKAGES}  "
                              "(stepper.trace() works without it)") from e
        last = len(self.steps) - 1
        self._prev_button = widgets.Button(description="◀ Prev", tooltip="previous step")
        self._next_button = widgets.Button(description="Next ▶", tooltip="next step")
        self._reset_button = widgets.Button(description="Reset", tooltip="back to step 0")
        self._slider = widgets.IntSlider(value=self.position, min=0, max=last, description="step",
                                         continuous_update=False)
        self._graph_html = widgets.HTML(layout=widgets.Layout(overflow="auto", flex="3 1 0%"))
        self._panel_html = widgets.HTML(layout=widgets.Layout(flex="2 1 0%", padding="0 0 0 12px"))
        self._prev_button.on_click(lambda _: self.prev())
        self._next_button.on_click(lambda _: self.next())
        self._reset_button.on_click(lambda _: self.reset())
        self._slider.observe(lambda change: self.goto(change["new"]), names="value")
        controls = widgets.HBox([self._prev_button, self._next_button, self._reset_button, self._slider])
        body = widgets.HBox([self._graph_html, self._panel_html])
        self._widget = widgets.VBox([controls, body])
        self._widget.add_class("minigrad-stepper-live")  # see STATIC_CSS
        self._refresh()

    def _refresh(self):
        i = self.position
        self._prev_button.disabled = i == 0
        self._next_button.disabled = i == len(self.steps) - 1
        try:
            self._graph_html.value = self._svg(i)
            self._panel_html.value = self.panel_html(i)
        except Exception as e:  # a button's callback has no cell to show its error in: show it here
            self._graph_html.value = f"<pre>{html.escape(f'{type(e).__name__}: {e}')}</pre>"
            raise

    def static_html(self, position=None):
        """The picture of one step (default: the current one) as HTML: what a notebook shows when
        the widget cannot run, e.g. one that was opened without running it, or exported to HTML."""
        i = self.position if position is None else position
        step = self.steps[i]
        return (STATIC_CSS + '<div class="minigrad-stepper-static">'
                + f"<p>Step {i} of {len(self.steps) - 1}: <code>{html.escape(self.layout.text(step.node))}"
                + "</code> (run this cell to step through backward with Prev / Next)</p>"
                + self._svg(i) + "</div>")

    def _ipython_display_(self):
        """Two outputs: the static picture of this step (its text/plain is the trace, stable for
        nbval), then the widget (its text/plain a fixed line, not the widget's changing repr)."""
        from IPython.display import display
        try:
            widget = self.widget
        except ImportError as e:  # no ipywidgets: the text is all we can show
            display({"text/plain": f"{self!r}\n\n({e})"}, raw=True)
            return
        display({"text/html": self.static_html(), "text/plain": repr(self)}, raw=True)
        bundle = widget._repr_mimebundle_() or {}
        bundle["text/plain"] = WIDGET_TEXT
        display(bundle, raw=True)


def _sent(step):
    """[(edge key for ``build``, gradient)]: the gradients ``step`` sent, one per drawn edge."""
    if is_accumulator(step.node):  # AccumulateGrad: into the leaf's .grad
        g = step.grads_in[0] if step.grads_in else None
        return [] if g is None else [((step.node, "leaf"), g)]
    return [((step.node, k), g) for k, g in enumerate(step.grads_out) if g is not None]


def forget_widget_state(nb):
    """Drop the saved state of the steppers' widgets from a notebook (an ``nbformat`` node).

    A notebook executed by nbclient stores the state of every widget; JupyterLab then rebuilds a
    stepper from it, buttons and all, although no kernel is behind them.  Without the state the
    widget cannot be rebuilt and the stepper's static picture shows instead.  Other widgets keep
    their state.  Returns how many widget models were dropped.
    """
    key = "application/vnd.jupyter.widget-state+json"
    state = nb.get("metadata", {}).get("widgets", {}).get(key, {}).get("state")
    if not state:
        return 0
    todo = []
    for cell in nb.get("cells", []):
        for out in cell.get("outputs", []):
            data = out.get("data", {})
            if data.get("text/plain") == WIDGET_TEXT and "application/vnd.jupyter.widget-view+json" in data:
                todo.append(data["application/vnd.jupyter.widget-view+json"]["model_id"])
    dropped = 0
    while todo:  # the stepper's box, and every model it refers to ("IPY_MODEL_<id>")
        model = state.pop(todo.pop(), None)
        if model is None:
            continue
        dropped += 1
        text = str(model.get("state", {}))
        todo.extend(part.split("'")[0] for part in text.split("IPY_MODEL_")[1:])
    if not state:
        del nb["metadata"]["widgets"]
    return dropped


def _grad_text(g, limit=6):
    """``[10] [0, 0, 0, 0, 0, 1, …]``: the shape and the first values of a gradient."""
    if g is None:
        return "None"
    return f"{shape_list(g.shape)} {short_values(g, limit)}"
