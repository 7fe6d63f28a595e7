"""Estimate how many minutes a student spends on each notebook (`python scripts/notebook_minutes.py`).

    minutes = words / WORDS_PER_MINUTE
            + CODE_CELL_MINUTES   * code cells        (read the code, run it, look at the output)
            + EXERCISE_MINUTES    * exercises         (cells tagged "exercise" outside the build stage)
            + BUILD_STAGE_MINUTES * build exercises   (cells tagged "exercise" and "build-it-yourself")

with WORDS_PER_MINUTE = 200 (words of the markdown cells; code is timed by its cell), CODE_CELL_MINUTES
= 0.6, EXERCISE_MINUTES = 4 and BUILD_STAGE_MINUTES = 15.

Calibration: a student who worked through the whole series reported about 8.5 hours without the build
stages; these constants give 8.4 hours for the same notebooks (123 minutes of words, 359 code cells,
42 exercises). The same student needed about 4.5 hours more for the six build stages of that
edition, 40 minutes each; the estimator counts 15 for a stage, which holds only for the small stages
the series is moving to, so recheck it when new reports come in.

A cell tagged "optional" (in its metadata) belongs to an optional section: its minutes are counted
apart. `tests/test_notebook_length.py` holds every notebook's main path to MAIN_PATH_LIMIT minutes
and its optional part to at most OPTIONAL_SHARE of the whole.

Importable: `estimate(path)` returns a dict; `table(paths)` the printed table.
"""
import pathlib
import sys

import nbformat

WORDS_PER_MINUTE = 200
CODE_CELL_MINUTES = 0.6
EXERCISE_MINUTES = 4
BUILD_STAGE_MINUTES = 15
MAIN_PATH_LIMIT = 45
OPTIONAL_SHARE = 1 / 3

ROOT = pathlib.Path(__file__).resolve().parents[1]


def tags(cell):
    return cell.get("metadata", {}).get("tags", [])


def is_optional(cell):
    return "optional" in tags(cell)


def cell_minutes(cell):
    """The minutes one cell costs the student."""
    if cell.cell_type == "markdown":
        return len(cell.source.split()) / WORDS_PER_MINUTE
    if cell.cell_type != "code":
        return 0.0
    minutes = CODE_CELL_MINUTES
    if "exercise" in tags(cell):
        minutes += BUILD_STAGE_MINUTES if "build-it-yourself" in tags(cell) else EXERCISE_MINUTES
    return minutes


def _part(cells):
    return {
        "cells": len(cells),
        "words": sum(len(c.source.split()) for c in cells if c.cell_type == "markdown"),
        "code_cells": sum(c.cell_type == "code" for c in cells),
        "exercises": sum(c.cell_type == "code" and "exercise" in tags(c) for c in cells),
        "minutes": sum(cell_minutes(c) for c in cells),
    }


def estimate(path):
    """{"name", "main": {...}, "optional": {...}} for the notebook at `path`; each part has cells,
    words, code_cells, exercises and minutes."""
    nb = nbformat.read(str(path), as_version=4)
    main = [c for c in nb.cells if not is_optional(c)]
    optional = [c for c in nb.cells if is_optional(c)]
    return {"name": pathlib.Path(path).name, "main": _part(main), "optional": _part(optional)}


def notebooks():
    return sorted((ROOT / "notebooks").glob("[0-9]*.ipynb"))


def table(paths):
    head = f"{'notebook':32} {'cells':>5} {'words':>6} {'code':>5} {'exer':>5} {'main min':>9} {'opt min':>8}"
    lines = [head, "-" * len(head)]
    totals = [0, 0, 0, 0, 0.0, 0.0]
    for p in paths:
        e = estimate(p)
        m, o = e["main"], e["optional"]
        row = [m["cells"] + o["cells"], m["words"] + o["words"], m["code_cells"] + o["code_cells"],
               m["exercises"] + o["exercises"], m["minutes"], o["minutes"]]
        totals = [t + r for t, r in zip(totals, row)]
        lines.append(f"{e['name']:32} {row[0]:5d} {row[1]:6d} {row[2]:5d} {row[3]:5d} {row[4]:9.1f} {row[5]:8.1f}")
    lines.append("-" * len(head))
    lines.append(f"{'total':32} {totals[0]:5d} {totals[1]:6d} {totals[2]:5d} {totals[3]:5d} "
                 f"{totals[4]:9.1f} {totals[5]:8.1f}")
    return "\n".join(lines)


if __name__ == "__main__":
    print(table([pathlib.Path(a) for a in sys.argv[1:]] or notebooks()))
