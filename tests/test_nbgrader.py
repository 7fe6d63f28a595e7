"""Real nbgrader 0.9.6 on the course ``python -m minigrad_course.classroom course`` writes.

For every notebook in ``notebooks/``: ``generate_assignment``, then ``autograde`` of four
submissions made from the released notebook, ``validate`` of two, and ``generate_feedback`` of
the solution:

- ``solution``: the instructor's answers                  -> every point; validate passes
- ``blank``: the released notebook as it is                -> 0; validate fails
- ``mixed``: the answers, one of them wrong and another one written so that it warns (as
  ``ctx.saved_variables`` does)                            -> every point but the wrong one's
- ``tamper``: no answers, and the tampering of issue 22 in the answer cells -> 0
- ``planted``: the answers, and in every second exercise that is not a ``%%writefile`` cell the first
  wrong answer planted for its check (``tests/planted/``) after the solution -> every point but those

The exercises are found from the notebooks' nbgrader metadata, so the test follows the notebooks
as exercises are added. Scores are read from nbgrader's gradebook, check cell by check cell.
"""
import json
import os
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile

import pytest

import planted

nbgrader_api = pytest.importorskip("nbgrader.api")
from nbgrader.validator import Validator  # noqa: E402
from traitlets.config.loader import PyFileConfigLoader  # noqa: E402

from minigrad_course.classroom import make_course  # noqa: E402
from minigrad_course.classroom.release import BEGIN, END  # noqa: E402

ROOT = pathlib.Path(__file__).resolve().parents[1]
KINDS = ("solution", "blank", "mixed", "tamper", "planted")
CHECK_CALL = re.compile(r"^([A-Za-z_]\w*)\.(check_\w+)\(", re.M)   # nb01.check_...(), build.check_...()
# nbgrader runs `alembic` and the kernel's `python` from PATH: the ones next to this Python
os.environ["PATH"] = os.path.dirname(sys.executable) + os.pathsep + os.environ.get("PATH", "")


def _nbgrader(course_dir, *args):
    """Start the nbgrader command line in the course; returns the process (stdout and stderr as one)."""
    env = {k: v for k, v in os.environ.items() if k != "NBGRADER_EXECUTION"}
    return subprocess.Popen([sys.executable, "-m", "nbgrader", *args], cwd=course_dir, env=env, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT)


def _finish(process):
    log, _ = process.communicate(timeout=3600)
    assert process.returncode == 0, log
    return log


def _text(cell):
    return "".join(cell["source"]) if isinstance(cell["source"], list) else cell["source"]


def _exercises(nb):
    """[(solution cell, check cell's grade_id, module, check, answer name)], one per check call."""
    import importlib
    found, last_solution = [], None
    for i, cell in enumerate(nb["cells"]):
        meta = cell.get("metadata", {}).get("nbgrader", {})
        if meta.get("solution"):
            last_solution = i
        elif meta.get("grade") and cell["cell_type"] == "code":
            for module, check in CHECK_CALL.findall(_text(cell)):
                fn = getattr(importlib.import_module(f"minigrad_course.exercises.{module}"), check)
                found.append((last_solution, meta["grade_id"], module, check, fn.answer_name))
    return found


def _answers(instructor):
    """grade_id -> the instructor's code of each solution cell, the markers taken out."""
    answers = {}
    for cell in instructor["cells"]:
        meta = cell.get("metadata", {}).get("nbgrader", {})
        if meta.get("solution"):
            lines = [line for line in _text(cell).splitlines() if line.strip() not in (BEGIN, END)]
            answers[meta["grade_id"]] = "\n".join(lines) + "\n"
    return answers


def _warning_variant(code, name):
    """The answer ``name`` written so that it warns, as an old spelling would, and still right."""
    if re.search(rf"^def {re.escape(name)}\(", code, re.M):
        return code + (f"\nimport warnings\n_{name}_without_warning = {name}\n\n"
                       f"def {name}(*args, **kwargs):\n"
                       f"    warnings.warn('an old spelling (a test)', DeprecationWarning)\n"
                       f"    return _{name}_without_warning(*args, **kwargs)\n")
    if "ctx.saved_tensors" in code:
        return code.replace("ctx.saved_tensors", "ctx.saved_variables")
    return None


def _submissions(released, instructor):
    """{kind: notebook} made from the released notebook, and {kind: {check grade_id: points}}."""
    answers = _answers(instructor)
    exercises = _exercises(released)
    checks = [grade_id for _, grade_id, _, _, _ in exercises]
    solution = json.loads(json.dumps(released))
    for cell in solution["cells"]:
        meta = cell.get("metadata", {}).get("nbgrader", {})
        if meta.get("solution"):
            cell["source"] = answers[meta["grade_id"]]
    made = {"solution": solution, "blank": json.loads(json.dumps(released))}
    expected = {"solution": dict.fromkeys(checks, 1), "blank": dict.fromkeys(checks, 0),
                "tamper": dict.fromkeys(checks, 0)}

    mixed = json.loads(json.dumps(solution))
    expected["mixed"] = dict.fromkeys(checks, 1)
    warned = None
    plain = [e for e in exercises if not _text(solution["cells"][e[0]]).startswith("%%")]  # not %%writefile cells
    for cell_index, grade_id, _, _, name in plain:
        variant = _warning_variant(_text(mixed["cells"][cell_index]), name)
        if variant is not None:
            mixed["cells"][cell_index]["source"] = variant
            warned = cell_index
            break
    cell_index, grade_id, _, _, name = next(e for e in plain if e[0] != warned)
    mixed["cells"][cell_index]["source"] += f"\n{name} = None   # a wrong answer\n"
    for index, other, _, _, _ in exercises:
        if index == cell_index:
            expected["mixed"][other] = 0
    made["mixed"] = mixed

    tamper = json.loads(json.dumps(released))
    first = exercises[0][0]
    lines = ["import os", "os.environ['NBGRADER_EXECUTION'] = 'off'",
             "from minigrad_course.exercises import _check", "_check.GRADING = ''", "_check._finish = lambda report: None"]
    lines += [f"from minigrad_course.exercises import {module}; {module}.{check} = lambda *args, **kwargs: None"
              for _, _, module, check, _ in exercises]
    tamper["cells"][first]["source"] = "\n".join(lines) + "\n" + _text(tamper["cells"][first])
    import importlib
    for cell_index, _, module, _, name in exercises:
        if hasattr(importlib.import_module(f"minigrad_course.exercises.{module}"), f"reference_{name}"):
            tamper["cells"][cell_index]["source"] = f"{name} = {module}.reference_{name}\n"
    made["tamper"] = tamper

    wrong = json.loads(json.dumps(solution))
    expected["planted"] = dict.fromkeys(checks, 1)
    registry = planted.registry()
    for cell_index, grade_id, module, check, _ in plain[::2]:   # every second exercise, as they come
        if not registry.get(f"{module}.{check}"):
            continue  # none planted yet (tests/test_planted.py requires one for every check)
        first = registry[f"{module}.{check}"][0]
        wrong["cells"][cell_index]["source"] = _text(wrong["cells"][cell_index]) + "\n" + first.code
        expected["planted"][grade_id] = 0
    made["planted"] = wrong
    return made, expected, warned is not None


@pytest.fixture(scope="module")
def graded():
    """The course, generated, every kind of submission autograded and two validated."""
    root = pathlib.Path(tempfile.mkdtemp(prefix="minigrad-course-"))
    try:
        assignments = make_course(root, ROOT / "notebooks")
        log = _finish(_nbgrader(root, "generate_assignment", "*", "--force"))
        expected, warns = {}, {}
        for assignment in assignments:
            notebook = f"{assignment}.ipynb"
            released = json.loads((root / "release" / assignment / notebook).read_text())
            instructor = json.loads((root / "source" / assignment / notebook).read_text())  # the same snapshot
            made, expected[assignment], warns[assignment] = _submissions(released, instructor)
            for kind, nb in made.items():
                folder = root / "submitted" / kind / assignment
                folder.mkdir(parents=True)
                (folder / notebook).write_text(json.dumps(nb, indent=1))
        autograde = _nbgrader(root, "autograde", "*", "--force")
        # meanwhile, in this process: nbgrader's validator (what `nbgrader validate` runs), on copies
        config = PyFileConfigLoader("nbgrader_config.py", path=str(root)).load_config()
        validated = {}
        for assignment in assignments:
            for kind in ("solution", "blank"):
                folder = root / "validate" / kind
                folder.mkdir(parents=True, exist_ok=True)
                path = folder / f"{assignment}.ipynb"
                shutil.copy(root / "submitted" / kind / assignment / path.name, path)
                validated[assignment, kind] = Validator(config=config).validate(str(path))
        log += _finish(autograde)
        feedback_log = _finish(_nbgrader(root, "generate_feedback", "*", "--student", "solution", "--force"))
        feedback = sorted(p.relative_to(root / "feedback").parts[1] for p in (root / "feedback").glob("*/*/*.html"))
        scores = {}
        with nbgrader_api.Gradebook(f"sqlite:///{root / 'gradebook.db'}") as gradebook:
            for assignment in assignments:
                for kind in KINDS:
                    scores[assignment, kind] = {
                        grade_id: gradebook.find_grade(grade_id, assignment, assignment, kind).score
                        for grade_id in expected[assignment][kind]}
        outputs = {p.parts[-3:-1]: json.loads(p.read_text()) for p in (root / "autograded").glob("*/*/*.ipynb")}
        yield {"assignments": assignments, "log": log, "expected": expected, "scores": scores, "warns": warns,
               "validated": validated, "autograded": outputs, "feedback": feedback, "feedback_log": feedback_log}
    finally:
        shutil.rmtree(root, ignore_errors=True)


@pytest.mark.parametrize("kind", KINDS)
def test_every_kind_of_submission_gets_its_score(graded, kind):
    got = {a: graded["scores"][a, kind] for a in graded["assignments"]}
    wanted = {a: graded["expected"][a][kind] for a in graded["assignments"]}
    totals = {a: f"{sum(got[a].values()):g}/{len(got[a])}" for a in got}
    print(f"\n{kind}: {totals}")
    assert got == wanted


def test_the_planted_submission_plants_wrong_answers(graded):
    zeros = {a: [g for g, points in graded["expected"][a]["planted"].items() if points == 0]
             for a in graded["assignments"]}
    print(f"\nplanted wrong answers: {zeros}")
    assert any(zeros.values()), "no wrong answer was planted: the planted kind tests nothing"


def test_an_answer_that_warns_keeps_its_points_and_the_warning_is_a_note(graded):
    warned = [a for a, warns in graded["warns"].items() if warns]
    print(f"\nan answer that warns in: {warned}")
    assert warned, "no exercise could be written to warn: the mixed case tests no warning"
    for assignment in warned:
        text = json.dumps(graded["autograded"]["mixed", assignment])
        assert "Note: your code warned: DeprecationWarning" in text, assignment


def test_no_partial_credit_warnings_and_feedback_is_the_report_alone(graded):
    assert "partial credit" not in graded["log"].lower(), graded["log"]
    for (kind, assignment), nb in graded["autograded"].items():
        for cell in nb["cells"]:
            if not cell["metadata"].get("nbgrader", {}).get("grade"):
                continue
            for output in cell.get("outputs", []):
                where = (kind, assignment, "".join(cell["source"])[:60])
                assert output["output_type"] != "execute_result", where   # read as partial credit
                assert output.get("name") != "stderr", (where, output)
                if output["output_type"] == "error":
                    text = "\n".join(output["traceback"])
                    assert text.startswith("FAILED") and "Traceback" not in text, (where, text)
                    assert "minigrad_course/exercises" not in text, (where, text)


def test_a_full_marks_submission_has_no_error_in_its_feedback(graded):
    """Only cells that show an error on purpose (tagged raises-exception) may raise; the demo of a
    failing check in notebook 00 does not."""
    for assignment in graded["assignments"]:
        for cell in graded["autograded"]["solution", assignment]["cells"]:
            errors = [o for o in cell.get("outputs", []) if o["output_type"] == "error"]
            if "raises-exception" not in cell["metadata"].get("tags", []):
                assert not errors, (assignment, "".join(cell["source"])[:80], errors[0]["traceback"][-1:])


def test_validate_fails_on_the_blank_notebook_and_passes_the_solution(graded):
    for assignment in graded["assignments"]:
        assert graded["validated"][assignment, "solution"] == {}, graded["validated"][assignment, "solution"]
        failed = graded["validated"][assignment, "blank"].get("failed", [])
        assert len(failed) == len(graded["expected"][assignment]["blank"]), graded["validated"][assignment, "blank"]


def test_feedback_pages_have_alt_text_on_every_image(graded):
    assert graded["feedback"] == graded["assignments"], graded["feedback_log"]
    assert "Alternative text is missing" not in graded["feedback_log"], graded["feedback_log"]
