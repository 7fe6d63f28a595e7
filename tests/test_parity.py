"""minigrad against PyTorch, case by case (the cases are in ``tests/parity/cases.py``).

- ``test_fixture``: run the case with minigrad, compare with PyTorch's recorded answers in
  ``tests/fixtures/parity.json`` (regenerate them with ``make fixtures``).  Needs no torch.
- ``test_live``: run the case with both minigrad and torch and compare (skipped without torch).

Values are compared with rtol 1e-5 / atol 1e-6 for float32 (rtol 1e-7 / atol 1e-10 for float64)
unless the case declares looser tolerances; names, next_functions trees, flags and messages exactly.
"""
import json
import os
import warnings

import pytest

import minigrad
from parity import CASES, compare, run_case
from parity import cases as _cases  # noqa: F401  (registers the cases)

FIXTURE = os.path.join(os.path.dirname(__file__), "fixtures", "parity.json")
with open(FIXTURE) as _f:
    EXPECTED = json.load(_f)
NAMES = sorted(CASES)


def _run_minigrad(c):
    missing = c.missing(minigrad)
    if missing:
        pytest.skip(f"minigrad has no {', '.join(missing)} yet")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        warnings.simplefilter("ignore", DeprecationWarning)
        return run_case(c, minigrad)


def _check(name, got, want):
    c = CASES[name]
    result = compare(got, want, c.rtol, c.atol)
    assert result.checks > 0
    if result.mismatches:
        pytest.fail(f"{name}: {len(result.mismatches)} of {result.checks} checks differ from PyTorch:\n  "
                    + "\n  ".join(result.mismatches), pytrace=False)


def test_fixture_covers_every_case():
    recorded = set(EXPECTED) - {"_meta"}
    assert recorded == set(CASES), ("tests/fixtures/parity.json is out of date, run `make fixtures`: "
                                    f"missing {sorted(set(CASES) - recorded)}, extra {sorted(recorded - set(CASES))}")


@pytest.mark.parametrize("name", NAMES)
def test_fixture(name):
    if name not in EXPECTED:
        pytest.fail(f"case {name} has no recorded answer: run `make fixtures`")
    _check(name, _run_minigrad(CASES[name]), EXPECTED[name])


@pytest.mark.parametrize("name", NAMES)
def test_live(name):
    torch = pytest.importorskip("torch")
    got = _run_minigrad(CASES[name])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        want = run_case(CASES[name], torch)
    assert "__crash__" not in want, f"the case itself fails under torch: {want['__crash__']}"
    _check(name, got, want)
