"""A small notebook that exercises everything test_lab.py checks, without needing the series.

It draws a graphviz graph (labels SumBackward0, AccumulateGrad), plots with matplotlib, shows a
stepper made of ipywidgets (Prev/Next/Reset buttons, a slider and an HTML widget holding the
graph SVG with the current node highlighted, like ``minigrad.viz.BackwardStepper``), has a cell
tagged ``raises-exception`` that raises, and writes to stderr (which is not an error).
"""
from __future__ import annotations

import json
from pathlib import Path

NAME = "e2e_sample.ipynb"

# Same expectations format as test_lab.EXPECTATIONS.
EXPECT = {"labels": {"SumBackward0", "AccumulateGrad"}, "plot": True, "stepper": True}

_CELLS = [
    ("markdown", "# e2e sample\nA notebook made by `tests/e2e/sample_notebook.py`.", []),
    ("code", """\
import graphviz
g = graphviz.Digraph()
g.attr("node", shape="box", style="filled", fillcolor="white")
g.node("s", "SumBackward0")
g.node("m", "MulBackward0")
g.node("a", "AccumulateGrad")
g.edge("s", "m"); g.edge("m", "a")
g""", []),
    ("code", """\
import matplotlib.pyplot as plt
fig, ax = plt.subplots(figsize=(4, 2.5))
ax.plot([0, 1, 2, 3], [3.0, 1.5, 0.8, 0.3], marker="o")
ax.set_title("loss")
plt.show()""", []),
    ("code", """\
import ipywidgets as W
nodes = [("s", "SumBackward0"), ("m", "MulBackward0"), ("a", "AccumulateGrad")]

def svg(step):
    d = graphviz.Digraph()
    d.attr("node", shape="box", style="filled")
    for i, (key, label) in enumerate(nodes):
        d.node(key, label, fillcolor="gold" if i == step else "white",
               penwidth="3" if i == step else "1")
    d.edge("s", "m"); d.edge("m", "a")
    return d.pipe(format="svg").decode()

slider = W.IntSlider(value=0, min=0, max=len(nodes) - 1, description="step")
view = W.HTML(svg(0))
prev_b, next_b, reset_b = W.Button(description="Prev"), W.Button(description="Next"), W.Button(description="Reset")
slider.observe(lambda ch: setattr(view, "value", svg(ch["new"])), names="value")
prev_b.on_click(lambda _: setattr(slider, "value", max(0, slider.value - 1)))
next_b.on_click(lambda _: setattr(slider, "value", min(slider.max, slider.value + 1)))
reset_b.on_click(lambda _: setattr(slider, "value", 0))
W.VBox([W.HBox([prev_b, next_b, reset_b, slider]), view])""", []),
    ("code", 'raise ValueError("this cell is meant to fail")', ["raises-exception"]),
    ("code", 'import sys\nprint("a warning on stderr is not an error", file=sys.stderr)\nprint("done")', []),
    ("code", "", []),  # an empty cell: Lab does not run it, and that is fine
]


def notebook_json() -> dict:
    cells = []
    for kind, source, tags in _CELLS:
        cell = {"cell_type": kind, "metadata": {"tags": tags} if tags else {}, "source": source}
        if kind == "code":
            cell.update(execution_count=None, outputs=[])
        cells.append(cell)
    return {
        "cells": cells,
        "metadata": {
            "kernelspec": {"display_name": "Python 3 (ipykernel)", "language": "python", "name": "python3"},
            "language_info": {"name": "python"},
        },
        "nbformat": 4,
        "nbformat_minor": 5,
    }


def write(directory: Path) -> Path:
    path = Path(directory) / NAME
    nb = notebook_json()
    for i, cell in enumerate(nb["cells"]):
        cell["id"] = f"e2e-{i}"
    path.write_text(json.dumps(nb, indent=1))
    return path
