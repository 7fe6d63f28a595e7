"""The student edition: solutions become stubs, and the edition runs with only the exercises failing."""
import json
import pathlib
import subprocess
import sys

import pytest

from minigrad.classroom import release, release_notebook, strip_solutions
from minigrad.classroom.release import ReleaseError

ROOT = pathlib.Path(__file__).resolve().parents[1]


def test_solution_block_becomes_a_stub_at_its_indentation():
    src = ("def backward(ctx, grad):\n"
           "    x, = ctx.saved_tensors\n"
           "    ### BEGIN SOLUTION\n"
           "    return grad * x\n"
           "    ### END SOLUTION\n")
    assert strip_solutions(src) == ("def backward(ctx, grad):\n"
                                    "    x, = ctx.saved_tensors\n"
                                    "    # YOUR CODE HERE\n"
                                    "    raise NotImplementedError()\n")


def test_hidden_tests_are_removed_and_the_rest_kept():
    src = "a = 1\n### BEGIN HIDDEN TESTS\nassert a == 1\n### END HIDDEN TESTS\nprint(a)"
    assert strip_solutions(src) == "a = 1\nprint(a)"


@pytest.mark.parametrize("src, message", [
    ("### BEGIN SOLUTION\nx = 1\n", "never closed"),
    ("x = 1\n### END SOLUTION\n", "without"),
    ("### BEGIN SOLUTION\n### BEGIN SOLUTION\n### END SOLUTION\n", "inside another"),
])
def test_malformed_markers_are_reported_with_their_place(src, message):
    with pytest.raises(ReleaseError, match=message):
        strip_solutions(src, "nb.ipynb, cell 3")


def _nb(cells):
    return {"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 5}


def _code(source, outputs=(), **metadata):
    return {"cell_type": "code", "source": source, "metadata": metadata, "outputs": list(outputs),
            "execution_count": 1}


def test_release_clears_exercise_and_check_outputs_and_keeps_the_rest():
    out = [{"output_type": "stream", "name": "stdout", "text": "hi\n"}]
    nb = _nb([_code("print('hi')", out),
              _code("### BEGIN SOLUTION\nx = 2\n### END SOLUTION\n", out, tags=["exercise"]),
              _code("check(x)", out, nbgrader={"grade": True, "points": 1, "locked": True})])
    student = release_notebook(nb)
    plain, exercise, check = student["cells"]
    assert plain["outputs"] == out and plain["execution_count"] == 1
    assert "".join(exercise["source"]) == "# YOUR CODE HERE\nraise NotImplementedError()\n"
    assert exercise["outputs"] == [] and exercise["execution_count"] is None
    assert exercise["metadata"]["nbgrader"]["solution"] is True
    assert check["outputs"] == [] and check["metadata"]["nbgrader"]["grade"] is True
    assert nb["cells"][1]["source"].startswith("### BEGIN"), "the instructor notebook is not changed"


def test_command_line_writes_the_student_edition(tmp_path):
    src = tmp_path / "src"
    src.mkdir()
    (src / "a.ipynb").write_text(json.dumps(_nb([_code("### BEGIN SOLUTION\ny = 1\n### END SOLUTION")])))
    out = subprocess.run([sys.executable, "-m", "minigrad.classroom", "release", str(src), "--out",
                          str(tmp_path / "student")], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    written = json.loads((tmp_path / "student" / "a.ipynb").read_text())
    assert "raise NotImplementedError()" in "".join(written["cells"][0]["source"])
    bad = subprocess.run([sys.executable, "-m", "minigrad.classroom", "release", str(tmp_path / "none"),
                          "--out", str(tmp_path / "x")], capture_output=True, text=True)
    assert bad.returncode == 1 and "no notebooks" in bad.stderr


SERIES = sorted((ROOT / "notebooks").glob("*.ipynb"))


def test_every_notebook_has_at_least_two_exercises_with_checks():
    for path in SERIES:
        cells = json.loads(path.read_text())["cells"]
        exercises = [c for c in cells if c["cell_type"] == "code" and "### BEGIN SOLUTION" in "".join(c["source"])]
        checks = [c for c in cells if c["cell_type"] == "code" and
                  c.get("metadata", {}).get("nbgrader", {}).get("grade")]
        assert len(exercises) >= 2, f"{path.name}: {len(exercises)} exercises"
        assert len(checks) >= 2, f"{path.name}: {len(checks)} check cells"


@pytest.mark.parametrize("path", SERIES, ids=[p.stem for p in SERIES])
def test_student_edition_runs_with_only_the_exercises_failing(path, tmp_path):
    """Executed top to bottom, the student edition fails only in exercise cells, with NotImplementedError
    (an exercise that defines a function fails later, when the check calls it), and each check cell
    answers "not written yet" instead of crashing."""
    nbformat = pytest.importorskip("nbformat")
    nbclient = pytest.importorskip("nbclient")
    release(path.parent, tmp_path)
    nb = nbformat.read(tmp_path / path.name, as_version=4)
    client = nbclient.NotebookClient(nb, timeout=300, kernel_name="python3", allow_errors=True,
                                     resources={"metadata": {"path": str(path.parent)}})
    client.execute()
    for i, cell in enumerate(nb.cells):
        if cell.cell_type != "code":
            continue
        errors = [o for o in cell.outputs if o.output_type == "error"]
        tags = cell.metadata.get("tags", [])
        if "### BEGIN SOLUTION" in "".join(json.loads(path.read_text())["cells"][i]["source"]):
            assert all(e.ename == "NotImplementedError" for e in errors), f"cell {i}: {errors}"
        elif cell.metadata.get("nbgrader", {}).get("grade"):
            text = "".join(o.get("text", "") + str(o.get("data", {}).get("text/plain", "")) for o in cell.outputs)
            assert not errors, f"check cell {i} crashed: {[(e.ename, e.evalue) for e in errors]}"
            assert "not written yet" in text, f"check cell {i} said: {text!r}"
        else:
            assert not errors or "raises-exception" in tags, \
                f"cell {i} fails in the student edition: {[(e.ename, e.evalue) for e in errors]}"


def test_checks_raise_under_nbgraders_autograder(monkeypatch):
    """nbgrader gives a check cell its points when it does not raise: a failing check must raise there."""
    from minigrad.exercises import _check, nb00
    assert not nb00.check_node_name(lambda t: "wrong")
    monkeypatch.setenv("NBGRADER_EXECUTION", "autograde")
    with pytest.raises(_check.ExerciseFailed, match="❌"):
        nb00.check_node_name(lambda t: "wrong")
