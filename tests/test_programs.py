"""The programs of ``tests/programs/`` run unchanged (but for the import line) on minigrad and print
what PyTorch prints.

- ``test_fixture``: minigrad's output against PyTorch's, recorded in ``tests/fixtures/programs.json``
  (regenerate with ``.venv/bin/python scripts/make_program_fixtures.py``); needs no torch.
- ``test_live``: the same against torch itself, when it is installed.
"""
import json
import os

import pytest

import programs

FIXTURE = os.path.join(os.path.dirname(__file__), "fixtures", "programs.json")
with open(FIXTURE) as _f:
    EXPECTED = json.load(_f)


_RUNS = {}  # each program runs once on minigrad per session; its output is compared with both


def _check(name, want):
    src = programs.source(name)
    if name not in _RUNS:
        _RUNS[name] = programs.run(src, "minigrad")
    got = _RUNS[name]
    diffs = programs.differences(got, want, programs.tolerance(src))
    if diffs:
        pytest.fail(f"{name}: minigrad prints differently from PyTorch:\n" + "\n".join(diffs[:10]), pytrace=False)


def test_every_program_is_recorded():
    assert sorted(EXPECTED) == programs.names(), "run scripts/make_program_fixtures.py"


@pytest.mark.parametrize("name", programs.names())
def test_fixture(name):
    _check(name, EXPECTED[name])


@pytest.mark.parametrize("name", programs.names())
def test_live(name):
    pytest.importorskip("torch")
    _check(name, programs.run(programs.source(name), "torch"))


def test_the_import_line_is_the_only_change():
    src = "import torch\nimport torch.nn as nn\nfrom torch import optim\nfrom torch.utils.data import DataLoader\nx = 1\n"
    assert programs.on_minigrad(src) == ("import minigrad as torch\nimport minigrad.nn as nn\nfrom minigrad import optim\n"
                                         "from minigrad.utils.data import DataLoader\nx = 1\n")


def test_the_comparison_catches_a_wrong_number_and_a_wrong_name():
    want = "tensor([1.0000, 2.0000], grad_fn=<MulBackward0>)\nloss 0.5"
    assert programs.differences(want, want, 1e-4) == []
    assert programs.differences("tensor([1.0000, 2.0100], grad_fn=<MulBackward0>)\nloss 0.5", want, 1e-4)
    assert programs.differences("tensor([1.0000, 2.0000], grad_fn=<AddBackward0>)\nloss 0.5", want, 1e-4)
    assert programs.differences("tensor([1.0000, 2.0000], grad_fn=<MulBackward0>)", want, 1e-4)
