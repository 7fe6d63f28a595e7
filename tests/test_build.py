"""The checks of the "Build it yourself" sections: the references pass, typical mistakes fail
with a first hint that points at the mistake (without giving the solution away)."""
import inspect

import pytest

from minigrad.exercises import build
from minigrad.scratch import stage1, stage2, stage3, stage4, stage5, stage6

STAGES = [stage1, stage2, stage3, stage4, stage5, stage6]
CHECKS = [build.check_stage1, build.check_stage2, build.check_stage3, build.check_stage4,
          build.check_stage5, build.check_stage6]


@pytest.mark.parametrize("n", range(1, 7))
def test_each_reference_passes_its_stage_and_the_earlier_ones(n):
    for check in CHECKS[:n]:
        report = check(STAGES[n - 1])
        assert report.ok, report.text


@pytest.mark.parametrize("n", range(2, 7))
def test_the_previous_stage_does_not_pass(n):
    assert not CHECKS[n - 1](STAGES[n - 2]).ok


def mutated(tmp_path, stage, old, new):
    """The reference of ``stage`` with one mistake, written to a file and loaded like a student's."""
    src = inspect.getsource(stage)
    assert old in src, old
    path = tmp_path / "my_autograd.py"
    path.write_text(src.replace(old, new).replace("from .stage4 import", "from minigrad.scratch.stage4 import"))
    return build.load(str(path))


def test_a_walk_that_visits_a_shared_node_twice_fails_on_fan_out(tmp_path):
    mod = mutated(tmp_path, stage1, "if node is not None and node not in seen:", "if node is not None:")
    report = build.check_stage1(mod)
    assert not report.ok
    assert "fan_out" in report.text and "visit a shared node twice" in report.text
    assert "seen" not in report.text  # the set that fixes it is the second tier, not the first


def test_overwriting_instead_of_accumulating_fails_with_its_hint(tmp_path):
    mod = mutated(tmp_path, stage1, "v.grad = Tensor(grad.copy()) if v.grad is None else Tensor(v.grad.data + grad)",
                  "v.grad = Tensor(grad.copy())")
    report = build.check_stage1(mod)
    assert not report.ok and "ADDS into .grad" in report.text


def test_adding_gradients_that_meet_is_needed_too(tmp_path):
    mod = mutated(tmp_path, stage1, "grads[nxt] = grads[nxt] + g if nxt in grads else g", "grads[nxt] = g")
    report = build.check_stage1(mod)
    assert not report.ok and "fan_out" in report.text


def test_a_forgotten_needs_input_grad_fails(tmp_path):
    mod = mutated(tmp_path, stage4, "        if ctx.needs_input_grad[0]:\n            grad_input = grad_output.mm(weight)",
                  "        grad_input = grad_output.mm(weight)")
    report = build.check_stage4(mod)
    assert not report.ok and "needs none" in report.text and "needs_input_grad[0]" in report.text


def test_a_recursive_engine_fails_stage6_with_a_hint_about_the_stack(tmp_path):
    report = build.check_stage6(stage5)  # stage 5 still walks the graph recursively
    assert not report.ok and "RecursionError" in report.text and "stack" in report.text


def test_a_file_that_is_not_written_yet_says_so(tmp_path):
    path = tmp_path / "my_autograd.py"
    path.write_text("# YOUR CODE HERE\nraise NotImplementedError()\n")
    report = build.check_stage1(build.load(str(path)))
    assert not report.ok and "not written yet" in report.text
    report = build.check_stage1(build.load(str(tmp_path / "missing.py")))
    assert not report.ok and "run the exercise cell above" in report.text
