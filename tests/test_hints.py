"""Hints guide: one tier at a time (``hint()`` and "More help" alike), and never the answer.

The first tests use a small check of their own. The others run every wrong answer planted in
``tests/planted/``: its failed report must have at least two hint tiers (the first in the report,
the others for ``hint()``), and no tier may hold a line of the exercise's solution (the notebooks'
``### BEGIN SOLUTION`` blocks, and ``minigrad_course/scratch/stage*.py`` for the build stages; lines the
notebook shows outside its solutions give nothing away) or, for a prediction question, its answer.
"""
import ast
import json
import pathlib
import re
from html.parser import HTMLParser

import numpy as np
import pytest

import planted
from minigrad_course.exercises import _check, hint

ROOT = pathlib.Path(__file__).resolve().parents[1]
CHECK_CALL = re.compile(r"\b([A-Za-z_]\w*)\.(check_\w+)\(")
TIERS = ["look at the factor (tier one).", "twice means times two (tier two).", "multiply x by 2 (tier three)."]


def _double_check():
    @_check.exercise("double")
    def check_double(double):
        got, err = _check.call("double", double, 3)
        if err is not None:
            return err
        if got != 6:
            return _check.failed("double", "wrong value for 3", expected=6, got=got, hint=TIERS)
        return _check.passed("double", "right")
    return check_double


@pytest.fixture
def fresh_hints(monkeypatch):
    monkeypatch.setattr(_check, "_last_report", [None])
    monkeypatch.setattr(_check, "GRADING", "")


# ---- one tier at a time --------------------------------------------------------------------------
def test_hint_shows_the_next_tier_only(fresh_hints, capsys):
    report = _double_check()(lambda x: 3 * x)
    assert TIERS[0] in repr(report) and TIERS[1] not in repr(report) and TIERS[2] not in repr(report)
    hint()
    out = capsys.readouterr().out
    assert TIERS[1] in out and TIERS[2] not in out and "run hint() again" in out
    hint()
    out = capsys.readouterr().out
    assert TIERS[2] in out and TIERS[1] not in out and "again" not in out
    hint()
    assert "No more hints" in capsys.readouterr().out


class _Folds(HTMLParser):
    """The text of a page with, for each piece, how many <details> must be open to see it."""

    def __init__(self, page):
        super().__init__()
        self.depth, self.summary, self.pieces = 0, False, []
        self.feed(page)

    def handle_starttag(self, tag, attrs):
        self.depth += tag == "details"
        self.summary = self.summary or tag == "summary"

    def handle_endtag(self, tag):
        self.depth -= tag == "details"
        self.summary = self.summary and tag != "summary"

    def handle_data(self, data):  # a <summary> shows when its <details>' parent is open
        self.pieces.append((self.depth - self.summary, data))

    def visible(self, opened):
        return "".join(text for needs, text in self.pieces if needs <= opened)


def test_more_help_in_the_notebook_folds_out_the_next_tier_only(fresh_hints):
    page = _Folds(_double_check()(lambda x: 3 * x)._repr_html_())
    for opened in range(3):  # opened: how many "More help" the student clicked
        seen = page.visible(opened)
        assert [tier in seen for tier in TIERS] == [k <= opened for k in range(3)], (opened, seen)
        if opened < 2:
            assert seen.count("More help") == opened + 1 and f"More help (hint {opened + 2})" in seen


def test_more_help_goes_on_from_the_tiers_hint_showed(fresh_hints, capsys):
    report = _double_check()(lambda x: 3 * x)
    hint()
    page = _Folds(report._repr_html_())
    assert TIERS[1] not in page.visible(3)  # shown by hint() already, and only once
    assert TIERS[2] not in page.visible(0) and TIERS[2] in page.visible(1)
    assert "More help (hint 3)" in page.visible(0)


def test_after_a_check_passes_hint_says_so(fresh_hints, capsys):
    check = _double_check()
    check(lambda x: 3 * x)
    hint()
    assert TIERS[1] in capsys.readouterr().out
    assert check(lambda x: 2 * x)
    hint()
    out = capsys.readouterr().out
    assert "passed" in out and "double" in out and TIERS[2] not in out
    hint()
    assert TIERS[2] not in capsys.readouterr().out


def test_after_a_check_passes_under_nbgrader_hint_says_so_too(fresh_hints, monkeypatch, capsys):
    monkeypatch.setattr(_check, "GRADING", "validate")
    check = _double_check()
    with pytest.raises(_check.ExerciseFailed):
        check(lambda x: 3 * x)
    assert check(lambda x: 2 * x) is None
    capsys.readouterr()
    hint()
    assert "passed" in capsys.readouterr().out


def test_hint_before_any_check_and_after_a_demo(fresh_hints, capsys):
    hint()
    assert "run a check cell first" in capsys.readouterr().out
    _check.demo(_double_check(), lambda x: 3 * x)
    hint()
    assert TIERS[1] in capsys.readouterr().out


# ---- the planted wrong answers --------------------------------------------------------------------
WRONG = planted.registry()
CASES = [(name, i, w) for name, answers in WRONG.items() for i, w in enumerate(answers)]
IDS = [f"{n}-{i}-{w.kind}" for n, i, w in CASES]


def _solution_blocks(source):
    """The code between ``### BEGIN SOLUTION`` and ``### END SOLUTION`` in a cell."""
    return re.findall(r"### BEGIN SOLUTION\n(.*?)^[ \t]*### END SOLUTION", source, re.S | re.M)


def _solutions():
    """{check name: (the solution code of its exercise, what its notebook shows a student)}: the
    solution cells between the check cell before it and it (for a build stage, the references of
    it and the stages before it too); the markdown and the code outside the solutions."""
    found = {}
    for path in sorted((ROOT / "notebooks").glob("*.ipynb")):
        cells = json.loads(path.read_text())["cells"]
        shown = "\n".join(re.sub(r"### BEGIN SOLUTION\n.*?### END SOLUTION", "", "".join(c["source"]), flags=re.S)
                          for c in cells)
        group, last = [], []
        for cell in cells:
            if cell["cell_type"] != "code":
                continue
            source = "".join(cell["source"])
            group += _solution_blocks(source)
            calls = CHECK_CALL.findall(source)
            if calls and not _solution_blocks(source):
                last = group or last          # two check cells after one exercise share its solution
                for module, check in calls:
                    code = "\n".join(last)
                    if module == "build":
                        n = int(check[-1])
                        code += "".join((ROOT / "minigrad_course" / "scratch" / f"stage{k}.py").read_text()
                                        for k in range(1, n + 1))
                    found[f"{module}.{check}"] = (code, shown)
                group = []
    return found


def _normal(text):
    return re.sub(r"\s+", "", text).replace('"', "'")


def _as_code(markdown):
    """The formulas of a notebook's text written as code: $x \\cdot \\text{factor}$ -> x * factor."""
    text = re.sub(r"\\(?:text|mathrm|operatorname)\{([^}]*)\}", r"\1", markdown)
    return re.sub(r"\\(?:cdot|times)", "*", text).replace("$", "")


def secret_lines(name):
    """The solution lines of check ``name`` that its notebook does not show anyway."""
    code, shown = SOLUTIONS[name]
    shown = _normal(_as_code(shown))
    return [line for line in solution_lines(code) if line not in shown]


def solution_lines(code):
    """The lines of a solution worth hiding, normalized: code (no docstrings, comments, imports,
    ``def``/``class`` lines, calls without arguments such as ``loss.backward()``, lines shorter than
    12 characters such as ``return`` or ``pass``), then ``return`` taken off and spaces too."""
    lines, in_docstring = [], False
    for raw in code.splitlines():
        line = raw.strip()
        quotes = line.count('"""') + line.count("'''")
        if in_docstring or line.startswith(('"""', "'''")):
            in_docstring ^= quotes % 2 == 1
            continue
        line = re.sub(r"\s+#.*$", "", line)
        if not line or line.startswith(("#", "import ", "from ", "def ", "class ", "@", "%")):
            continue
        if len(line) < 12 or re.fullmatch(r"(return\s+)?[\w.]+\(\)", line):  # a call without arguments names an API
            continue
        line = _normal(re.sub(r"^return\b", "", line))
        if len(line) >= 5:
            lines.append(line)
    return sorted(set(lines))


def _predictions():
    """{answer name: the right answer} of the prediction questions, from the solution cells."""
    answers = {}
    for path in sorted((ROOT / "notebooks").glob("*.ipynb")):
        for cell in json.loads(path.read_text())["cells"]:
            for block in _solution_blocks("".join(cell["source"])):
                for name, value in re.findall(r"^\s*(q_\w+)\s*=\s*(.+?)\s*(?:#.*)?$", block, re.M):
                    try:
                        answers[name] = ast.literal_eval(value)
                    except (ValueError, SyntaxError):
                        answers[name] = eval(value, {"np": np, "__builtins__": {}})
    return answers


SOLUTIONS = _solutions()
PREDICTIONS = _predictions()


def giveaways(answer):
    """Patterns of a tier that gives a prediction's ``answer`` away."""
    if isinstance(answer, str):
        a = re.escape(answer.strip().lower())
        return [rf"['\"]{a}['\"]", rf"\({a}\)", rf"\banswer (?:is|:)\s*[('\"]?{a}\b"]
    value = float(answer)
    spellings = {repr(value), f"{value:g}", f"{value:.3g}", f"{value:.2f}"}
    if value == int(value):
        spellings.add(str(int(value)))
    return [rf"(?<![\w.]){re.escape(s)}(?![\w]|\.\d)" for s in spellings]


_reports = {}


def failed_report(name, index, wrong, tmp_path):
    if (name, index) not in _reports:
        check = planted.check(name)
        _reports[name, index] = check(planted.answer(check, wrong.code, tmp_path))
    return _reports[name, index]


def tiers(report):
    first = report.text.split("\n   Hint: ", 1)
    return ([first[1]] if len(first) == 2 else []) + list(report.more)


@pytest.mark.parametrize("name,index,wrong", CASES, ids=IDS)
def test_a_planted_wrong_answer_gets_at_least_two_hint_tiers(name, index, wrong, tmp_path):
    report = failed_report(name, index, wrong, tmp_path)
    assert report is not None and not report.ok, f"{name} passed a wrong answer ({wrong.why})"
    assert "\n   Hint: " in report.text, f"no first hint tier in the report:\n{report.text}"
    assert len(tiers(report)) >= 2, f"{name}: one hint tier only for {wrong.why!r}:\n{report.full_text()}"


@pytest.mark.parametrize("name,index,wrong", CASES, ids=IDS)
def test_no_hint_tier_holds_a_line_of_the_solution(name, index, wrong, tmp_path):
    assert name in SOLUTIONS and SOLUTIONS[name][0].strip(), f"no solution found in the notebooks for {name}"
    lines = secret_lines(name)
    report = failed_report(name, index, wrong, tmp_path)
    given = [(tier, line) for tier in tiers(report) for line in lines if line in _normal(tier)]
    assert not given, f"{name}: a hint tier holds a solution line: {given}"


PREDICTION_CASES = [c for c in CASES if planted.check(c[0]).answer_name in PREDICTIONS]


@pytest.mark.parametrize("name,index,wrong", PREDICTION_CASES,
                         ids=[f"{n}-{i}-{w.kind}" for n, i, w in PREDICTION_CASES])
def test_no_hint_tier_of_a_prediction_gives_its_answer(name, index, wrong, tmp_path):
    answer = PREDICTIONS[planted.check(name).answer_name]
    report = failed_report(name, index, wrong, tmp_path)
    given = [(tier, p) for tier in tiers(report) for p in giveaways(answer) if re.search(p, tier, re.I)]
    assert not given, f"{name}: a hint tier gives the answer {answer!r} away: {given}"


def test_the_solutions_and_answers_are_found():
    """The two tests above see something: every build stage and some notebook checks have solution
    lines, and the prediction answers are letters or numbers."""
    for n in range(1, 7):
        assert "grads[nxt]=grads[nxt]+gifnxtingradselseg" in secret_lines(f"build.check_stage{n}")
    assert sum(bool(secret_lines(name)) for name in SOLUTIONS) >= 30
    assert len(PREDICTIONS) >= 5 and all(isinstance(a, (str, int, float)) for a in PREDICTIONS.values())
    assert not solution_lines('"""A docstring\nwith prose lines that are long enough."""\n# a comment line here\n'
                              "import numpy as np\nreturn\npass\noptimizer.zero_grad()\n")
    assert solution_lines("    return grad_output * ctx.scale, None  # the end\n") == ["grad_output*ctx.scale,None"]
    assert solution_lines("    return 1 - t * t\n    x0 = x0 * 2\n    return t.grad_fn.name()\n") == ["1-t*t"]
    assert _normal(_as_code(r"for $y = x \cdot \text{factor}$, where")) == "fory=x*factor,where"
    assert [bool(re.search(p, "the answer is 'b'")) for p in giveaways("b")] == [True, False, True]
    assert any(re.search(p, "it is 0.693") for p in giveaways(float(np.log(2))))
    assert not any(re.search(p, "about 10.693 or 0.6931 x") for p in giveaways(0.693))
