"""The student edition: solutions become stubs, and the edition runs with only the exercises failing."""
import json
import os
import pathlib
import subprocess
import sys

import pytest

import minigrad
from minigrad_course.classroom import release, release_notebook, strip_solutions
from minigrad_course.classroom.release import ReleaseError

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
    out = subprocess.run([sys.executable, "-m", "minigrad_course.classroom", "release", str(src), "--out",
                          str(tmp_path / "student")], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    written = json.loads((tmp_path / "student" / "a.ipynb").read_text())
    assert "raise NotImplementedError()" in "".join(written["cells"][0]["source"])
    bad = subprocess.run([sys.executable, "-m", "minigrad_course.classroom", "release", str(tmp_path / "none"),
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
    answers "not written yet" (or "not defined yet", for an answer its cell never got to define; or
    "set it to your prediction first") instead of crashing."""
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
            unanswered = ("not written yet", "is not defined yet", "to your prediction first")
            assert any(words in text for words in unanswered), f"check cell {i} said: {text!r}"
        else:
            assert not errors or "raises-exception" in tags, \
                f"cell {i} fails in the student edition: {[(e.ename, e.evalue) for e in errors]}"


def test_checks_raise_under_nbgrader_with_only_their_feedback(monkeypatch, capsys):
    """nbgrader gives a check cell its points when it does not raise: under autograde and validate a
    failing check raises, and its traceback is the report alone; a passing one prints and returns None."""
    from minigrad_course.exercises import _check, nb00
    assert not nb00.check_node_name(lambda t: "wrong")
    for mode in ("autograde", "validate"):
        monkeypatch.setattr(_check, "GRADING", mode)
        with pytest.raises(_check.ExerciseFailed) as failure:
            nb00.check_node_name(lambda t: "wrong")
        lines = failure.value._render_traceback_()
        assert lines[0].startswith("FAILED  node_name: wrong name for t = x.sum()"), lines
        assert any("Hint:" in line for line in lines) and not any("Traceback" in line for line in lines)
        assert failure.value.__cause__ is None and failure.value.__context__ is None
    assert nb00.check_node_name(lambda t: None if t.grad_fn is None else t.grad_fn.name()) is None
    assert capsys.readouterr().out.startswith("PASSED  node_name")


def test_the_grading_mode_is_read_once_when_the_checks_are_imported(tmp_path):
    code = ("import os\n"
            "from minigrad_course.exercises import nb00\n"
            "os.environ['NBGRADER_EXECUTION'] = 'off'\n"
            "from minigrad_course.exercises import nb00\n"
            "try:\n"
            "    nb00.check_node_name(lambda t: 'wrong')\n"
            "except AssertionError:\n"
            "    print('raised')\n")
    env = dict(os.environ, NBGRADER_EXECUTION="validate")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd=tmp_path)
    assert out.stdout.strip() == "raised", out.stderr


def _tiered():
    """A check written as the notebooks' checks are: one answer, hints in three tiers."""
    from minigrad_course.exercises import _check

    @_check.exercise("double")
    def check_double(double):
        got, err = _check.call("double", double, 3, returns="twice its argument, a number")
        if err is not None:
            return err
        if got != 6:
            return _check.failed("double", "wrong value for 3", expected=6, got=got,
                                 hint=["look at the factor.", "twice means times 2.", "return 2 * x"])
        return _check.passed("double", "right")
    return check_double


def test_a_failure_shows_the_first_hint_tier_and_hint_shows_the_next(capsys):
    from minigrad_course.exercises import hint
    report = _tiered()(lambda x: 3 * x)
    assert not report and "Hint: look at the factor." in report.text
    assert "twice means" not in repr(report) and "return 2 * x" not in repr(report)
    assert "More help: run hint()" in repr(report)
    hint()
    assert capsys.readouterr().out == "Hint: twice means times 2.\n(more help: run hint() again)\n"
    hint()
    assert capsys.readouterr().out == "Hint: return 2 * x\n"
    hint()
    assert "No more hints" in capsys.readouterr().out
    page = report._repr_html_()
    assert ">FAILED</span>" in page and "#cf222e" in page and "<details" not in page  # the tiers were used up
    fresh = _tiered()(lambda x: 3 * x)
    assert fresh._repr_html_().count("<details") == 2 and "More help (hint 3)" in fresh._repr_html_()
    good = _tiered()(lambda x: 2 * x)
    assert good and ">PASSED</span>" in good._repr_html_() and "#1a7f37" in good._repr_html_()
    assert not any(ord(c) > 0x2000 for c in good._repr_html_() + repr(good) + repr(fresh))  # no emoji


def test_all_tiers_are_in_the_autograde_feedback(monkeypatch):
    from minigrad_course.exercises import _check
    monkeypatch.setattr(_check, "GRADING", "autograde")
    with pytest.raises(_check.ExerciseFailed) as failure:
        _tiered()(lambda x: 3 * x)
    assert "Hint 2: twice means times 2." in str(failure.value) and "Hint 3: return 2 * x" in str(failure.value)
    monkeypatch.setattr(_check, "GRADING", "validate")
    with pytest.raises(_check.ExerciseFailed) as failure:
        _tiered()(lambda x: 3 * x)
    assert "run hint() in the notebook" in str(failure.value) and "return 2 * x" not in str(failure.value)


def test_a_check_run_before_its_exercise_says_so_and_a_missing_return_too():
    check = _tiered()
    cell = {"check": check}
    exec("report = check()", cell)  # a check cell in a notebook where `double` is not defined yet
    assert not cell["report"] and "`double` is not defined yet: write it in the exercise cell above" in \
        cell["report"].text
    cell["double"] = lambda x: 2 * x
    exec("report = check()", cell)  # the check finds the notebook's `double` by its name
    assert cell["report"]
    report = check(lambda x: None)
    assert "<lambda> returned None; it should return twice its argument, a number." in report.text
    assert "`return` line missing" in report.text


def test_a_warning_from_the_answer_is_a_note_and_costs_nothing(monkeypatch, capsys):
    import warnings as w
    from minigrad_course.exercises import _check

    def warns(x):
        w.warn("saved_variables is deprecated", DeprecationWarning)
        return 2 * x
    report = _tiered()(warns)
    assert report and "Note: your code warned: DeprecationWarning: saved_variables is deprecated" in repr(report)
    monkeypatch.setattr(_check, "GRADING", "autograde")
    assert _tiered()(warns) is None
    out = capsys.readouterr()
    assert "PASSED" in out.out and "DeprecationWarning" in out.out and out.err == ""


def test_demo_shows_a_failure_without_raising_even_under_nbgrader(monkeypatch):
    from minigrad_course.exercises import _check, demo, nb00
    monkeypatch.setattr(_check, "GRADING", "autograde")

    def unfinished(value):
        raise NotImplementedError()
    report = demo(nb00.check_make_x_and_y, unfinished)
    assert not report and "not written yet" in report.text


def test_hint_after_a_failed_demo_gives_the_demos_next_hint(capsys, monkeypatch):
    """Notebook 00's demo says "More help: run hint()": hint() must go on with the demo's hints."""
    from minigrad_course.exercises import _check, demo, hint, nb00
    monkeypatch.setattr(_check, "_last_report", [None])

    def forgot_requires_grad(value):
        x = minigrad.tensor(value)
        return x, x ** 2 + 3 * x
    report = demo(nb00.check_make_x_and_y, forgot_requires_grad)
    assert not report and "More help: run hint()" in repr(report)
    second = report.more[0]
    hint()
    assert capsys.readouterr().out.startswith(f"Hint: {second}")


def test_prediction_questions_store_a_fingerprint_not_the_answer():
    from minigrad_course.exercises import _check
    letter = _check.prediction("q-demo", "q_demo", "Which node runs first?", _check.digest("q-demo", "b"),
                               options={"a": "AccumulateGrad", "b": "SumBackward0"},
                               hints=["the root runs first."], why="backward starts at the root.")
    assert letter("B") and "'B' is right. backward starts at the root." in letter("B").text
    wrong = letter("a")
    assert not wrong and "'a' is not it." in wrong.text and "Hint: the root runs first." in wrong.text
    assert "should be one of 'a', 'b'" in letter("c").text and "set `q_demo`" in letter(None).text
    number = _check.prediction("q-num", "q_num", "What is x.grad?", _check.digest("q-num", 0.25))
    assert number(0.25) and number("0.2500001") and not number(0.26)
    assert "should be a number" in number("a quarter").text
    assert len(_check.digest("q-demo", "b")) == 16 and _check.digest("q-demo", "b") != _check.digest("q-x", "b")
    cli = subprocess.run([sys.executable, "-m", "minigrad_course.exercises", "digest", "q-num", "0.25"],
                         capture_output=True, text=True)
    assert cli.stdout.strip() == _check.digest("q-num", 0.25), cli.stderr


def test_the_students_code_may_not_call_the_checker():
    from minigrad_course.exercises import nb01
    from minigrad_course.exercises._check import call
    report = nb01.check_chain_names(nb01.reference_chain_names)
    assert not report and "your code called the checker's reference_chain_names" in report.text
    probe = nb01.check_chain_names(lambda t: nb01.check_sigmoid_grad(lambda a: a) and [])
    assert not probe and "your code called the checker's" in probe.text
    _, err = call("t", lambda: __import__("sys").setprofile(None))
    assert "your code called sys.setprofile" in err.text


def test_every_check_is_an_exercise_and_every_reference_is_marked():
    """An undecorated check never fails under nbgrader; an unmarked reference_... gives the answer away."""
    import importlib
    import pkgutil

    import minigrad_course.exercises
    from minigrad_course.exercises import _check
    modules = [importlib.import_module(f"minigrad_course.exercises.{m.name}")
               for m in pkgutil.iter_modules(minigrad_course.exercises.__path__) if m.name.startswith("nb")]
    assert len(modules) >= 7
    for module in modules:
        own = {name: obj for name, obj in vars(module).items()
               if callable(obj) and getattr(obj, "__module__", None) == module.__name__}
        for name, obj in own.items():
            if name.startswith("check_"):
                assert isinstance(getattr(obj, "answer_name", None), str), f"{module.__name__}.{name}"
            if name.startswith("reference"):
                assert _check._key(obj.__code__) in _check._ANSWER_KEYS, f"{module.__name__}.{name}"


def test_release_locks_cells_as_nbgrader_does_and_clears_outputs_that_give_answers_away():
    out = [{"output_type": "stream", "name": "stdout", "text": "42\n"}]
    nb = _nb([_code("### BEGIN SOLUTION\nq = 'b'\n### END SOLUTION\n", tags=["exercise"],
                    nbgrader={"solution": True, "grade": False, "grade_id": "q"}),
              _code("nb01.check_q()", out, nbgrader={"grade": True, "points": 1, "locked": True, "grade_id": "c"}),
              _code("print(6 * 7)", out, tags=["reveals-answer"]), _code("print(1)", out)])
    exercise, check, reveal, plain = release_notebook(nb)["cells"]
    assert exercise["metadata"]["deletable"] is False and "editable" not in exercise["metadata"]
    assert check["metadata"]["deletable"] is False and check["metadata"]["editable"] is False
    assert reveal["outputs"] == [] and plain["outputs"] == out and "deletable" not in plain["metadata"]


def _notebook_with_tampering(monkeypatch):
    """The variables of a notebook whose answer cell patched the checker: nb00's checks all pass."""
    from minigrad_course.exercises import _check, nb00
    monkeypatch.setattr(nb00, "check_node_name", lambda *args: None)
    monkeypatch.setattr(_check, "GRADING", "")
    monkeypatch.setattr(_check, "_finish", lambda report: None)
    return {"nb00": nb00, "node_name": lambda t: "wrong"}


def test_the_hidden_block_grades_a_patched_checker_again_on_fresh_modules(monkeypatch):
    from minigrad_course.classroom.course import with_regrade
    from minigrad_course.exercises import nb00
    cell = _code("nb00.check_node_name()\n", nbgrader={"grade": True, "points": 1, "locked": True, "grade_id": "c"})
    source = "".join(with_regrade(_nb([cell]))["cells"][0]["source"])
    assert source.startswith("nb00.check_node_name()\n### BEGIN HIDDEN TESTS\n") and source.endswith(
        "### END HIDDEN TESTS\n")
    assert strip_solutions(source) == "nb00.check_node_name()\n", "students never see the hidden block"
    notebook = _notebook_with_tampering(monkeypatch)
    exec("nb00.check_node_name()", notebook)  # the visible line: patched, it passes
    with pytest.raises(AssertionError) as failure:
        exec(source, notebook)
    assert type(failure.value).__name__ == "ExerciseFailed" and "wrong name for t = x.sum()" in str(failure.value)
    assert sys.modules["minigrad_course.exercises.nb00"] is nb00, "the notebook's own modules are put back"
    importing = _code("from minigrad_course.exercises import nb00\nnb00.check_node_name()\n",
                      nbgrader={"grade": True, "points": 1, "locked": True, "grade_id": "c"})
    with pytest.raises(AssertionError, match="wrong name"):  # a check cell that imports its checker itself
        exec("".join(with_regrade(_nb([importing]))["cells"][0]["source"]), notebook)
    assert sys.modules["minigrad_course.exercises.nb00"] is nb00
    notebook["node_name"] = lambda t: None if t.grad_fn is None else t.grad_fn.name()
    exec(source, notebook)  # a right answer passes the hidden block too


def test_command_line_writes_an_nbgrader_course(tmp_path):
    out = subprocess.run([sys.executable, "-m", "minigrad_course.classroom", "course", str(tmp_path / "course"),
                          "--source", str(ROOT / "notebooks")], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    course = tmp_path / "course"
    assert "c.CourseDirectory.course_id" in (course / "nbgrader_config.py").read_text()
    assert "nbgrader autograde" in (course / "README.md").read_text()
    for path in SERIES:
        nb = json.loads((course / "source" / path.stem / path.name).read_text())
        checks = [c for c in nb["cells"] if c.get("metadata", {}).get("nbgrader", {}).get("grade")]
        assert checks and all("### BEGIN HIDDEN TESTS" in "".join(c["source"]) for c in checks), path.name
