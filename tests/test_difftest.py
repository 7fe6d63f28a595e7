"""The differential tester's fixed sample (``tests/difftest``): stored programs, torch's answers.

- ``test_sample``: each program in ``tests/fixtures/difftest.json`` run with minigrad matches what
  torch 2.13 observed (values, grads, dtypes, shapes, flags, grad_fn names, the next_functions DAG,
  _version, warnings, exceptions). Needs no torch. Regenerate with
  ``scripts/make_difftest_fixtures.py`` (``make fixtures``).
- ``test_sample_live``: the same programs run with torch now give the stored answers (skipped
  without torch), so the fixture is what torch does.
- the tester itself: a disagreement is found, named and printed; the generator is deterministic.
``make fuzz`` runs the long live comparison (20,000 programs).
"""
import json
import os
import warnings

import pytest

import minigrad
from difftest.runner import compare, klass, run, to_python

FIXTURE = os.path.join(os.path.dirname(__file__), "fixtures", "difftest.json")
with open(FIXTURE) as _f:
    SAMPLE = json.load(_f)["programs"]


def _mismatches(program, want):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return compare(run(program, minigrad), want)


def _fail(item, mism):
    pytest.fail(f"seed {item['seed']}: {len(mism)} differences from torch:\n  " + "\n  ".join(mism[:8])
                + "\n\n" + to_python(item["program"], mism[:3]), pytrace=False)


def test_sample_is_large():
    assert len(SAMPLE) >= 300
    assert sum(len(item["program"]) for item in SAMPLE) > 2000


@pytest.mark.parametrize("i", range(len(SAMPLE)))
def test_sample(i):
    item = SAMPLE[i]
    mism = _mismatches(item["program"], item["torch"])
    if mism:
        _fail(item, mism)


@pytest.mark.parametrize("i", range(0, len(SAMPLE), 3))
def test_sample_live(i):
    torch = pytest.importorskip("torch")
    item = SAMPLE[i]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        now = run(item["program"], torch)
    assert compare(now, item["torch"]) == []


def _program(*lines):
    out = []
    for code in lines:
        name = code.split(" = ")[0] if " = " in code else None
        out.append({"code": code, "out": name, "watch": [], "kind": "leaf" if "T.tensor" in code else "mul_num"})
    return out


def test_a_disagreement_is_found_named_and_printed():
    torch_said = run(_program("v0 = T.tensor([1.0, 2.0], requires_grad=True)", "v1 = v0 * 2"), minigrad)
    program = _program("v0 = T.tensor([1.0, 2.0], requires_grad=True)", "v1 = v0 * 3")
    mism = compare(run(program, minigrad), torch_said)
    assert mism == ["s1.out.t.data (at flat indices [0, 1]): minigrad [3.0, 6.0] != torch [2.0, 4.0]"]
    assert klass(program, mism) == "mul_num: value"
    text = to_python(program, mism)
    assert "v1 = v0 * 3\n#   ^ s1.out.t.data" in text and text.endswith("print(v1)")


def test_exceptions_warnings_and_graphs_are_observed():
    obs = run(_program("v0 = T.tensor([1.0, 2.0], requires_grad=True)", "v1 = (v0 * 2).sum()",
                       "v2 = v0.view(3)"), minigrad)
    assert obs["s1"]["out"]["fn"] == "SumBackward0"
    assert obs["s1"]["out"]["dag"] == [["SumBackward0", [[1, 0]]], ["MulBackward0", [[2, 0], None]],
                                       ["AccumulateGrad:v0", []]]
    assert obs["s2"]["err"] == {"error": "RuntimeError", "msg": "shape '[3]' is invalid for input of size 2"}


def test_generator_is_deterministic():
    pytest.importorskip("torch")
    from difftest.generator import generate
    assert generate(7) == generate(7)
    assert generate(7) != generate(8)
    kinds = {s["kind"] for seed in range(40) for s in generate(seed)}
    assert {"leaf", "backward", "grad"} <= kinds and len(kinds) > 30
