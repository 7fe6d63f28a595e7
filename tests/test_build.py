"""The checks of the "Build it yourself" sections: the references pass, typical mistakes fail
with a first hint that points at the mistake (without giving the solution away), and what the
notebooks' texts ask for passes even where the references do it another way (more wrong engines
are planted in tests/planted/build.py)."""
import inspect

import pytest

from minigrad_course.exercises import build
from minigrad_course.scratch import stage1, stage2, stage3, stage4, stage5, stage6

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
    path.write_text(src.replace(old, new).replace("from .stage4 import", "from minigrad_course.scratch.stage4 import"))
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


@pytest.mark.parametrize("name", ["AccumulateGrad", "torch::autograd::AccumulateGrad"])
def test_a_leaf_node_named_as_the_notebook_or_pytorch_names_it_passes(tmp_path, name):
    """Notebook 01 asks for `AccumulateGrad`; PyTorch prints torch::autograd::..., minigrad minigrad::autograd::..."""
    mod = mutated(tmp_path, stage1, 'return "minigrad::autograd::AccumulateGrad"', f'return "{name}"')
    assert build.check_stage1(mod).ok


def test_a_leaf_node_with_another_name_fails(tmp_path):
    mod = mutated(tmp_path, stage1, 'return "minigrad::autograd::AccumulateGrad"', 'return "Accumulate"')
    report = build.check_stage1(mod)
    assert not report.ok and "is not PyTorch's" in report.text and "'Accumulate'" in report.text


def test_the_shape_error_may_say_minigrad_size_as_minigrad_prints_it(tmp_path):
    mod = mutated(tmp_path, stage2, "torch.Size(", "minigrad.Size(")
    assert inspect.getsource(stage2).count("torch.Size(") == 2
    assert build.check_stage2(mod).ok
    mod = mutated(tmp_path, stage2, "torch.Size(", "Size(")
    report = build.check_stage2(mod)
    assert not report.ok and "backward(gradient) of shape" in report.text


def test_an_error_of_another_type_fails_the_check_without_crashing_it(tmp_path):
    mod = mutated(tmp_path, stage2, 'raise RuntimeError("grad can be implicitly', 'raise ValueError("grad can be implicitly')
    report = build.check_stage2(mod)
    assert not report.ok and "got:      'ValueError: grad can be implicitly created" in report.text


def test_a_node_called_instead_of_apply_passes_stage4(tmp_path):
    """The text of stage 4 asks for a static backward(ctx, grad), not for a node's apply method."""
    src = inspect.getsource(stage4)
    assert src.count("def apply(self, grad):") == 2 and src.count("node.apply(grads.pop(node))") == 1
    path = tmp_path / "my_autograd.py"
    path.write_text(src.replace("def apply(self, grad):", "def __call__(self, grad):")
                    .replace("node.apply(grads.pop(node))", "node(grads.pop(node))"))
    report = build.check_stage4(build.load(str(path)))
    assert report.ok, report.text


def test_an_optimizer_without_zero_grad_passes_stage5(tmp_path):
    """The text of stage 5 asks for Module.zero_grad() and SGD.step(), not for SGD.zero_grad()."""
    src = inspect.getsource(stage5).replace("from .stage4 import", "from minigrad_course.scratch.stage4 import")
    sgd_zero_grad = "    def zero_grad(self):\n        for p in self.params:\n            p.grad = None\n\n"
    assert sgd_zero_grad in src
    path = tmp_path / "my_autograd.py"
    path.write_text(src.replace(sgd_zero_grad, ""))
    report = build.check_stage5(build.load(str(path)))
    assert report.ok, report.text


def test_a_module_without_a_name_the_check_uses_fails_with_hints(tmp_path):
    path = tmp_path / "my_autograd.py"
    path.write_text("import numpy as np\n\n\ndef relu(t):\n    return t\n")  # no Tensor
    report = build.check_stage1(build.load(str(path)))
    assert not report.ok and "could not use your engine: AttributeError" in report.text and "Tensor" in report.text
    assert "Hint: " in report.text and report.more
    path.write_text(inspect.getsource(stage4))  # no MMul
    report = build.check_stage5(build.load(str(path)))
    assert not report.ok and "has no attribute 'MMul'" in report.text and "Hint: " in report.text and report.more


def test_a_wrong_value_fails_even_when_the_gradients_are_right(tmp_path):
    mod = mutated(tmp_path, stage1, "return record(self.data.sum(), SumBackward0(self))",
                  "return record(self.data.sum() + 1, SumBackward0(self))")
    report = build.check_stage1(mod)
    assert not report.ok and "the value of seed_relu is wrong" in report.text and report.more
