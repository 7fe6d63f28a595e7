"""minigrad's random draws are PyTorch's after the same seed (recorded in tests/fixtures/random.json by
scripts/make_random_fixtures.py; compared live with torch when it is installed)."""
import json
import os

import numpy as np
import pytest

import minigrad
import random_cases

with open(os.path.join(os.path.dirname(__file__), "fixtures", "random.json")) as _f:
    RECORDED = json.load(_f)


def same(got, want):
    """Equal, except float32 normals of tensors of 16 or more, which may differ in the last bit."""
    for g, w in zip(got, want, strict=True):
        g, w = np.asarray(g), np.asarray(w)
        assert g.shape == w.shape and g.dtype.kind == w.dtype.kind
        if g.dtype.kind == "f":  # (a float32 normal is off by at most a rounding of its Box-Muller radius)
            np.testing.assert_allclose(g, w, rtol=0, atol=2.4e-7 * max(1.0, np.abs(w).max()))
        else:
            assert g.tolist() == w.tolist()


def test_every_case_is_recorded():
    assert sorted(RECORDED) == sorted(random_cases.CASES), "run scripts/make_random_fixtures.py"


@pytest.mark.parametrize("case", sorted(random_cases.CASES))
def test_recorded(case):
    same(random_cases.run(minigrad, case), RECORDED[case])


@pytest.mark.parametrize("case", sorted(random_cases.CASES))
def test_live(case):
    torch = pytest.importorskip("torch")
    same(random_cases.run(minigrad, case), random_cases.run(torch, case))


def test_everything_but_float32_normals_is_exact():
    exact = ["rand float32 and float64", "randn below 16 (pairs, the sine kept)", "randn float64",
             "randint and randperm", "nn.Linear's initial weights", "a Generator of its own, multinomial (makemore)",
             "DataLoader(shuffle=True) and random_split"]
    for case in exact:
        got, want = random_cases.run(minigrad, case), RECORDED[case]
        if case.startswith("a Generator"):
            got, want = got[:-1], want[:-1]  # (its last draw is a float32 randn of 729 numbers)
        assert got == want, case


def test_a_seed_restarts_the_kept_sine():
    minigrad.manual_seed(0)
    first = minigrad.randn(1).item()
    minigrad.randn(1)  # the kept sine
    minigrad.manual_seed(0)
    assert minigrad.randn(1).item() == first
