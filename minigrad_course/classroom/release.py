"""Turn instructor notebooks into student notebooks (see ``minigrad_course/classroom/__init__.py``)."""
import copy
import json
import pathlib
import re

BEGIN, END = "### BEGIN SOLUTION", "### END SOLUTION"
BEGIN_HIDDEN, END_HIDDEN = "### BEGIN HIDDEN TESTS", "### END HIDDEN TESTS"
STUB = ["# YOUR CODE HERE", "raise NotImplementedError()"]
REVEALS = "reveals-answer"   # the tag of a cell whose output gives an answer away (cleared for students)


class ReleaseError(ValueError):
    """A notebook's solution markers are not well formed."""


def strip_solutions(source, where="cell"):
    """Replace every solution block in ``source`` (a string) by the stub; drop hidden-test blocks."""
    out, inside, hidden, indent = [], False, False, ""
    for number, line in enumerate(source.splitlines(), 1):
        marker = line.strip()
        if marker == BEGIN:
            if inside:
                raise ReleaseError(f"{where}, line {number}: '{BEGIN}' inside another solution block")
            inside, indent = True, re.match(r"\s*", line).group(0)
            out.extend(indent + s for s in STUB)
        elif marker == END:
            if not inside:
                raise ReleaseError(f"{where}, line {number}: '{END}' without '{BEGIN}'")
            inside = False
        elif marker == BEGIN_HIDDEN:
            hidden = True
        elif marker == END_HIDDEN:
            hidden = False
        elif not inside and not hidden:
            out.append(line)
    if inside:
        raise ReleaseError(f"{where}: '{BEGIN}' is never closed by '{END}'")
    return "\n".join(out) + ("\n" if source.endswith("\n") else "")


def _source(cell):
    src = cell.get("source", "")
    return "".join(src) if isinstance(src, list) else src


def _is_exercise(cell):
    return BEGIN in _source(cell) or cell.get("metadata", {}).get("nbgrader", {}).get("solution", False)


def _is_check(cell):
    meta = cell.get("metadata", {})
    return meta.get("nbgrader", {}).get("grade", False) or "check" in meta.get("tags", [])


def release_notebook(nb, name="notebook"):
    """The student edition of one notebook (a dict in nbformat 4 JSON), as a new dict."""
    nb = copy.deepcopy(nb)
    for i, cell in enumerate(nb.get("cells", [])):
        if cell.get("cell_type") != "code":
            continue
        exercise, check = _is_exercise(cell), _is_check(cell)
        if exercise:
            text = strip_solutions(_source(cell), f"{name}, cell {i}")
            cell["source"] = text.splitlines(keepends=True)
            nbg = cell.setdefault("metadata", {}).setdefault("nbgrader", {})
            nbg.update({"solution": True, "grade": nbg.get("grade", False), "locked": False})
            nbg.setdefault("schema_version", 3)
            nbg.setdefault("task", False)
            nbg.setdefault("grade_id", f"cell-{i}")
        elif BEGIN_HIDDEN in _source(cell):
            cell["source"] = strip_solutions(_source(cell), f"{name}, cell {i}").splitlines(keepends=True)
        # the same locks nbgrader's release sets: JupyterLab then refuses to delete an exercise cell,
        # and to edit or delete a check cell
        if exercise:
            cell["metadata"]["deletable"] = False
        elif check:
            cell["metadata"]["deletable"] = False
            cell["metadata"]["editable"] = False
        if exercise or check or REVEALS in cell.get("metadata", {}).get("tags", []):
            cell["outputs"] = []
            cell["execution_count"] = None
    return nb


def release(src, out):
    """Write the student edition of every notebook in folder ``src`` into folder ``out``."""
    src, out = pathlib.Path(src), pathlib.Path(out)
    paths = sorted(src.glob("*.ipynb"))
    if not paths:
        raise ReleaseError(f"no notebooks in {src}")
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for path in paths:
        nb = json.loads(path.read_text(encoding="utf-8"))
        student = release_notebook(nb, path.name)
        target = out / path.name
        target.write_text(json.dumps(student, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
        written.append(target)
    return written
