"""Two small notebooks for the browser tests of minigrad's own drawings (test_lab.py).

``e2e_viz.ipynb`` (run in the browser): ``draw(..., show_values=True, names=...)``, a
``BackwardStepper``, ``show_source`` of a function with a very long line, and ``show_figure``.

``e2e_stored_stepper.ipynb`` is executed here, as ``make notebooks`` does (nbclient, then the
steppers' widget state dropped, then trusted), so the test can open it *without* running it and see
what a reader of a freshly opened notebook sees: the stepper's static picture, no dead buttons.
"""
from __future__ import annotations

import json
from pathlib import Path

VIZ = "e2e_viz.ipynb"
STORED = "e2e_stored_stepper.ipynb"
LONG_MODULE = "e2e_long_lines"

# what the cells compute, for the checks
DRAW_TEXTS = ("data [1, -2, 3]", "grad [2, 0, 6]", "h", "c")
FIRST_FLOW = "[1, 2, 3]"  # what MulBackward0 of (x * x).sum(), x = [1, 2, 3], sends along each edge

LONG_SOURCE = '''def long_line():
    """A function whose second line is far wider than a 1280 px browser window."""
    return "supercalifragilisticexpialidocious_" * 3 + "antidisestablishmentarianism_and_more_words_that_are_long_" * 2 + "floccinaucinihilipilification"
'''

_VIZ_CELLS = [
    ("markdown", "# minigrad.viz in the browser\nMade by `tests/e2e/viz_notebook.py`."),
    ("code", "import matplotlib.pyplot as plt\nimport minigrad\nfrom minigrad.viz import BackwardStepper, draw\n"
             f"from minigrad_course.notebook import show_figure, show_source\nimport {LONG_MODULE}"),
    ("code", "a = minigrad.tensor([1.0, -2.0, 3.0], requires_grad=True)\n"
             "h = minigrad.relu(a)\nc = (h * h).sum()\nc.backward()\n"
             "draw(c, names={a: 'a', h: 'h', c: 'c'}, show_values=True, legend=True)"),
    ("code", "x = minigrad.tensor([1.0, 2.0, 3.0], requires_grad=True)\nx.name = 'x'\n"
             "stepper = BackwardStepper((x * x).sum())\nstepper"),
    ("code", f"show_source({LONG_MODULE}.long_line)"),
    ("code", "fig, ax = plt.subplots(figsize=(3, 2))\nax.plot([0, 1, 2, 3], [3, 2, 1, 0])\n"
             "show_figure(fig, 'a straight line falling from 3 to 0')"),
]

_STORED_CELLS = [
    ("markdown", "# a stored stepper\nExecuted by `tests/e2e/viz_notebook.py`, opened without running."),
    ("code", "import minigrad\nfrom minigrad.viz import BackwardStepper\n"
             "x = minigrad.tensor([1.0, 2.0, 3.0], requires_grad=True)\n"
             "BackwardStepper(minigrad.relu(x).sum())"),
]


def _notebook(cells, prefix) -> dict:
    out = []
    for i, (kind, source) in enumerate(cells):
        cell = {"cell_type": kind, "id": f"{prefix}-{i}", "metadata": {}, "source": source}
        if kind == "code":
            cell.update(execution_count=None, outputs=[])
        out.append(cell)
    return {"cells": out, "nbformat": 4, "nbformat_minor": 5,
            "metadata": {"kernelspec": {"display_name": "Python 3 (ipykernel)", "language": "python",
                                        "name": "python3"}, "language_info": {"name": "python"}}}


def write(directory: Path) -> None:
    """Write both notebooks (the second one executed and trusted) and the long-line module."""
    import nbformat
    from nbclient import NotebookClient
    from nbformat.sign import NotebookNotary
    from minigrad.viz.stepper import forget_widget_state

    directory = Path(directory)
    (directory / f"{LONG_MODULE}.py").write_text(LONG_SOURCE)
    (directory / VIZ).write_text(json.dumps(_notebook(_VIZ_CELLS, "viz"), indent=1))
    nb = nbformat.from_dict(_notebook(_STORED_CELLS, "stored"))
    NotebookClient(nb, timeout=120, kernel_name="python3",
                   resources={"metadata": {"path": str(directory)}}).execute()
    forget_widget_state(nb)
    NotebookNotary().sign(nb)  # trusted, as `make notebooks` / `make trust` leave the series
    nbformat.write(nb, str(directory / STORED))
