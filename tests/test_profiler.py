"""``torch.autograd.profiler.profile`` (and ``torch.profiler``): the names, counts, nesting and table of
PyTorch's profiler, and nothing left behind when it is off.

The table's frame and the op names were recorded from PyTorch 2.13 (CPU build); where torch is
installed, one test runs the same ops on it.
"""
import numpy as np
import pytest

import minigrad as torch
from minigrad.autograd.function import AccumulateGrad, BackwardNode, Function

# torch 2.13: `prof.key_averages().table()` for rows named aten::div and aten::mul
FRAME = ["-------------  ------------  ------------  ------------  ------------  ------------  ------------  ",
         "         Name    Self CPU %      Self CPU   CPU total %     CPU total  CPU time avg    # of Calls  ",
         "-------------  ------------  ------------  ------------  ------------  ------------  ------------  "]


def _inputs():
    rng = np.random.default_rng(0)
    x = torch.tensor(rng.uniform(1, 2, (2, 3)), dtype=torch.float32, requires_grad=True)
    y = torch.tensor(rng.uniform(0.5, 1, (2, 3)), dtype=torch.float32, requires_grad=True)
    return x, y, torch.ones(2, 3, requires_grad=True)


def _tutorial(n=50):
    x, y, z = _inputs()
    with torch.autograd.profiler.profile(use_cuda=False) as prf:
        for _ in range(n):
            z = (z / x) * y
    return prf


def _counts(prof):
    return {e.key: e.count for e in prof.key_averages()}


class Twice(torch.autograd.Function):  # a Function of one's own whose forward runs two ops
    @staticmethod
    def forward(ctx, x):
        return (x * 2).exp()

    @staticmethod
    def backward(ctx, g):
        return g


def test_the_tutorials_loop_gives_aten_div_and_aten_mul_once_per_step():
    prf = _tutorial(50)
    assert _counts(prf) == {"aten::div": 50, "aten::mul": 50}
    assert [e.name for e in prf.events()[:4]] == ["aten::div", "aten::mul", "aten::div", "aten::mul"]
    lines = prf.key_averages().table(sort_by="self_cpu_time_total").splitlines()
    assert lines[:3] == FRAME and lines[5] == FRAME[0] and lines[6].startswith("Self CPU time total: ")
    assert sorted((row.split()[0], row.split()[-1]) for row in lines[3:5]) == [("aten::div", "50"), ("aten::mul", "50")]


def test_ops_are_named_as_pytorch_names_them():
    x, y, _ = _inputs()
    with torch.autograd.profiler.profile() as prof:
        x + y, x - y, x @ y.t(), x.exp(), x.sum(), x.mean(), torch.relu(x), x.pow(2), x.view(6)
        Twice.apply(x)
    assert set(_counts(prof)) == {"aten::add", "aten::sub", "aten::mm", "aten::t", "aten::exp", "aten::sum",
                                  "aten::mean", "aten::relu", "aten::pow", "aten::view", "aten::mul", "Twice"}


def test_an_op_inside_another_is_its_child_so_self_is_total_less_children():
    x, _, _ = _inputs()
    with torch.autograd.profiler.profile() as prof:
        Twice.apply(x)
    twice, mul, exp = prof.events()
    assert (twice.name, mul.name, exp.name) == ("Twice", "aten::mul", "aten::exp")
    assert twice.cpu_children == [mul, exp] and mul.cpu_parent is twice and twice.cpu_parent is None
    assert twice.self_cpu_time_total == pytest.approx(twice.cpu_time_total - mul.cpu_time_total - exp.cpu_time_total)
    for e in prof.events() + prof.key_averages():
        assert 0 <= e.self_cpu_time_total <= e.cpu_time_total


def test_backward_steps_are_rows_too():
    x, y, _ = _inputs()
    with torch.autograd.profiler.profile() as prof:
        (x * y).sum().backward()
    counts = _counts(prof)
    assert counts["SumBackward0"] == counts["MulBackward0"] == 1
    assert counts["torch::autograd::AccumulateGrad"] == 2
    mul_backward = next(e for e in prof.events() if e.name == "MulBackward0")
    assert {c.name for c in mul_backward.cpu_children} == {"aten::mul"}  # its backward is made of ops


def test_sort_by_and_row_limit():
    x, _, _ = _inputs()
    with torch.autograd.profiler.profile() as prof:
        for _ in range(3):
            x.exp()
        x.sum()
    averages = prof.key_averages()
    for key in ("self_cpu_time_total", "cpu_time_total", "cpu_time", "count"):
        rows = averages.table(sort_by=key).splitlines()[3:-2]
        names = [row.split()[0] for row in rows]
        assert names == [e.key for e in sorted(averages, key=lambda e: getattr(e, key), reverse=True)]
    assert [r.split()[0] for r in averages.table(sort_by="count").splitlines()[3:-2]] == ["aten::exp", "aten::sum"]
    assert len(averages.table(sort_by="count", row_limit=1).splitlines()) == 6
    assert averages.table(sort_by="cuda_time_total")  # (no GPU: all zero, as in a CPU build)
    with pytest.raises(AttributeError):
        averages.table(sort_by="no_such_column")


def test_a_long_name_is_cut_at_55_columns_and_percentages_add_up():
    with torch.autograd.profiler.profile() as prof:
        with torch.autograd.profiler.record_function("a" * 60):
            pass
    row = prof.key_averages().table().splitlines()[3]
    assert row.startswith("a" * 52 + "...  ") and "100.00%" in row


def test_record_function_adds_a_row_around_its_ops_and_does_nothing_outside_a_profile():
    x, _, _ = _inputs()

    @torch.autograd.profiler.record_function("decorated")
    def f(t):
        return t.exp()

    with torch.autograd.profiler.record_function("outside"):
        f(x)
    with torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CPU]) as prof:
        with torch.profiler.record_function("block"):
            f(x)
    block, decorated, exp = prof.events()
    assert (block.name, decorated.name, exp.name) == ("block", "decorated", "aten::exp")
    assert exp.cpu_parent is decorated and decorated.cpu_parent is block


def test_a_decorated_function_that_calls_itself_nests_its_rows():
    @torch.autograd.profiler.record_function("fact")
    def fact(n):
        return torch.ones(1) if n == 0 else fact(n - 1) * n

    with torch.autograd.profiler.profile() as prof:
        fact(2)
    outer, inner, innermost, mul1, mul2 = prof.events()
    assert [e.name for e in (outer, inner, innermost, mul1, mul2)] == ["fact"] * 3 + ["aten::mul"] * 2
    assert innermost.cpu_parent is inner and inner.cpu_parent is outer and mul1.cpu_parent is inner
    assert outer.cpu_children == [inner, mul2]


def test_the_profiler_leaves_nothing_behind():
    originals = [cls.__dict__["apply"] for cls in (Function, BackwardNode, AccumulateGrad)]
    _tutorial(2)
    with pytest.raises(ValueError):
        with torch.autograd.profiler.profile():
            raise ValueError
    assert [cls.__dict__["apply"] for cls in (Function, BackwardNode, AccumulateGrad)] == originals
    with torch.autograd.profiler.profile(enabled=False) as prof:
        assert Function.__dict__["apply"] is originals[0]
        torch.ones(2, requires_grad=True).exp()
    with pytest.raises(RuntimeError, match="enabled=False"):
        prof.key_averages()


def test_errors():
    with pytest.raises(AssertionError, match="Torch not compiled with CUDA enabled"):
        torch.autograd.profiler.profile(use_cuda=True)
    with pytest.raises(AssertionError, match="Torch not compiled with CUDA enabled"):
        torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CUDA])
    with torch.autograd.profiler.profile() as prof:
        with pytest.raises(RuntimeError, match="already enabled"):
            with torch.autograd.profiler.profile():
                pass
        with pytest.raises(RuntimeError, match="didn't finish running"):
            prof.key_averages()
    assert prof.key_averages().table() == ""  # nothing ran: PyTorch prints nothing either


def test_names_and_counts_match_torch():
    real = pytest.importorskip("torch")
    got = {}
    for lib in (torch, real):
        rng = np.random.default_rng(1)
        x = lib.tensor(rng.uniform(1, 2, (2, 3)), dtype=lib.float32, requires_grad=True)
        y = lib.tensor(rng.uniform(1, 2, (2, 3)), dtype=lib.float32, requires_grad=True)
        with lib.autograd.profiler.profile() as prof:
            for _ in range(3):
                (x / y * x + y).exp()  # (a Python number or a sum adds inner rows in PyTorch: aten::to, fill_)
            x - y
        got[lib.__name__] = _counts(prof)
    assert got["minigrad"] == got["torch"]
