"""Every exercise check fails the wrong answers planted in ``tests/planted/``, each with its own
diagnosis, and every check the notebooks call has at least a fitted and a common one planted."""
import json
import pathlib
import re

import pytest

import planted

ROOT = pathlib.Path(__file__).resolve().parents[1]
CHECK_CALL = re.compile(r"\b([A-Za-z_]\w*)\.(check_\w+)\(")
WRONG = planted.registry()
CASES = [(name, i, w) for name, answers in WRONG.items() for i, w in enumerate(answers)]


def notebook_checks():
    """Every check a notebook's cell calls, as ``"nb01b.check_tanh_grad"``."""
    found = set()
    for path in sorted((ROOT / "notebooks").glob("*.ipynb")):
        for cell in json.loads(path.read_text())["cells"]:
            if cell["cell_type"] == "code":
                found |= {f"{m}.{c}" for m, c in CHECK_CALL.findall("".join(cell["source"]))}
    return found


def test_every_check_has_a_fitted_and_a_common_wrong_answer():
    missing = {name: sorted({w.kind for w in WRONG.get(name, [])})
               for name in sorted(notebook_checks())
               if not {"fitted", "common"} <= {w.kind for w in WRONG.get(name, [])}}
    assert not missing, f"checks without a fitted and a common planted wrong answer (kinds planted): {missing}"


@pytest.mark.parametrize("name,index,wrong", CASES, ids=[f"{n}-{i}-{w.kind}" for n, i, w in CASES])
def test_a_planted_wrong_answer_fails_with_its_diagnosis(name, index, wrong, tmp_path):
    check = planted.check(name)
    report = check(planted.answer(check, wrong.code, tmp_path))
    assert report is not None and not report.ok, f"{name} passed a wrong answer ({wrong.why}):\n{wrong.code}"
    assert report.text.startswith("FAILED"), report.text
    assert wrong.says in report.full_text(), f"{wrong.says!r} is not in the diagnosis:\n{report.full_text()}"
