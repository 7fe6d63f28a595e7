"""Run a check cell again on a fresh copy of the checker: the hidden part of every check cell.

``python -m minigrad_course.classroom course`` adds to each check cell of the course's source notebooks::

    ### BEGIN HIDDEN TESTS
    import runpy
    runpy.run_module("minigrad_course.classroom.regrade", {"CELL": "nb01.check_sigmoid_grad()\\n",
                     "NOTEBOOK": globals()}, "__regrade__")
    del runpy
    ### END HIDDEN TESTS

Students never see it (nbgrader takes hidden tests out of the release) and nbgrader's autograder
puts it back, with the rest of the check cell, before it runs a submission.

Why: the answer cells run in the same Python as the checks, so an answer cell can replace
``nb01.check_sigmoid_grad``, or change the checker's mode, and the visible line then passes.
``runpy`` runs this file anew every time (it is never taken from the import cache), and this file
imports ``minigrad_course.exercises`` anew: new module objects, which no answer cell has seen. The cell's
check runs on them in grading mode; it raises if the answer is wrong, and prints nothing if it is
right (the visible line has already printed the report). Afterwards the notebook's own modules
are put back, so the cells that follow run as before.
"""
import contextlib
import importlib
import io
import sys
import types

PACKAGE = "minigrad_course.exercises"


def _is_checker(name):
    return name == PACKAGE or name.startswith(PACKAGE + ".")


def regrade(cell, notebook):
    """Run ``cell`` (a check cell's code) with the notebook's variables and fresh checker modules.

    While the cell runs, the fresh modules are the ones ``import`` finds too (a check cell may
    import its checker itself); afterwards the notebook's own modules are put back.
    """
    old = {name: module for name, module in sys.modules.items() if _is_checker(name)}
    parent = sys.modules.get("minigrad_course")
    parent_had = getattr(parent, "exercises", None)
    for name in old:
        del sys.modules[name]
    try:
        new = {name: importlib.import_module(name) for name in sorted(set(old) | {PACKAGE + "._check"})}
        new[PACKAGE + "._check"].GRADING = "autograde"
        namespace = dict(notebook)
        for key, value in notebook.items():
            if isinstance(value, types.ModuleType) and value.__name__ in new:
                namespace[key] = new[value.__name__]
        with contextlib.redirect_stdout(io.StringIO()):  # a pass says nothing: the visible line reported it
            exec(compile(cell, "<check cell>", "exec"), namespace)
    finally:
        for name in [n for n in sys.modules if _is_checker(n)]:
            del sys.modules[name]
        sys.modules.update(old)
        if parent is not None and parent_had is not None:
            parent.exercises = parent_had


if __name__ == "__regrade__":
    regrade(CELL, NOTEBOOK)  # noqa: F821  (given by runpy.run_module)
