"""The exercise checks of notebooks 00-03: the reference solutions pass, plausible wrong answers fail with
specific feedback (FAILED, what is wrong, expected vs got, a hint), and an unwritten exercise says so."""
import numpy as np
import pytest

import minigrad
from minigrad import autograd
from minigrad_course.exercises import nb00, nb01, nb01b, nb02, nb03, nb03b


def not_written(*args):
    raise NotImplementedError()


def assert_passed(report):
    assert report, report.text
    assert report.text.startswith("PASSED"), report.text


def assert_failed(report, *fragments):
    assert not report, report.text
    assert report.text.startswith("FAILED"), report.text
    assert "Hint:" in report.text, report.text
    for fragment in fragments:
        assert fragment in report.text, f"{fragment!r} not in:\n{report.text}"


def later_hints(report):
    """The hint tiers that hint() reveals after the first one."""
    return "\n".join(report.more)


ALL_CHECKS = [nb00.check_make_x_and_y, nb00.check_node_name, nb01.check_numerical_grad, nb01.check_sigmoid_grad,
              nb01b.check_tanh_grad, nb01.check_chain_names, nb01b.check_grow_grad, nb01b.check_sum_until,
              nb02.check_diff_vjp, nb02.check_seed_for, nb02.check_sum_to, nb02.check_dual, nb03.check_second_derivative,
              nb03.check_train,
              nb03b.check_td_loss, nb03b.check_evaluate]


@pytest.mark.parametrize("check", ALL_CHECKS, ids=lambda c: f"{c.__module__.rsplit('.', 1)[-1]}.{c.__name__}")
def test_not_written_yet(check):
    report = check(not_written)
    assert not report
    assert "not written yet" in report.text
    assert report.text.startswith("FAILED")


@pytest.mark.parametrize("check", ALL_CHECKS, ids=lambda c: f"{c.__module__.rsplit('.', 1)[-1]}.{c.__name__}")
def test_reports_print_as_text_in_notebooks(check):
    report = check(not_written)
    assert repr(report) == report.text


# ---- 00 -------------------------------------------------------------------------------------------
def make_x_and_y(value):
    x = minigrad.tensor(value, requires_grad=True)
    y = x ** 2 + 3 * x
    return x, y


def test_nb00_make_x_and_y_reference():
    assert_passed(nb00.check_make_x_and_y(make_x_and_y))


def test_nb00_make_x_and_y_forgot_requires_grad():
    def wrong(value):
        x = minigrad.tensor(value)
        return x, x ** 2 + 3 * x
    report = nb00.check_make_x_and_y(wrong)
    assert_failed(report, "x does not require grad", "which argument")
    assert "requires_grad=True" not in report.text and "requires_grad=True" in later_hints(report)


def test_nb00_make_x_and_y_left_the_graph():
    def wrong(value):
        x = minigrad.tensor(value, requires_grad=True)
        v = x.item()
        return x, minigrad.tensor(v ** 2 + 3 * v)
    assert_failed(nb00.check_make_x_and_y(wrong), "no grad_fn", "x.item()")


def test_nb00_make_x_and_y_hard_coded_example():
    def wrong(value):
        x = minigrad.tensor(2.0, requires_grad=True)
        return x, x ** 2 + 3 * x
    assert_failed(nb00.check_make_x_and_y(wrong), "does not hold the value", "expected:", "got:", "`value`")


def test_nb00_make_x_and_y_wrong_formula():
    def wrong(value):
        x = minigrad.tensor(value, requires_grad=True)
        return x, x ** 2 + 3
    assert_failed(nb00.check_make_x_and_y(wrong), "wrong value of y", "expected:", "got:")


def test_nb00_make_x_and_y_returns_only_y():
    def wrong(value):
        x = minigrad.tensor(value, requires_grad=True)
        return x ** 2 + 3 * x
    assert_failed(nb00.check_make_x_and_y(wrong), "should return two things, x and y")


def node_name(t):
    if t.grad_fn is None:
        return None
    return t.grad_fn.name()


def test_nb00_node_name_reference():
    assert_passed(nb00.check_node_name(node_name))


def test_nb00_node_name_crashes_on_leaves():
    assert_failed(nb00.check_node_name(lambda t: t.grad_fn.name()), "AttributeError", "grad_fn None")


def test_nb00_node_name_repr_instead_of_name():
    assert_failed(nb00.check_node_name(lambda t: None if t.grad_fn is None else str(t.grad_fn)),
                  "wrong name", "expected: 'SumBackward0'", "got:      '<SumBackward0 object>'", ".name()")


def test_nb00_node_name_node_instead_of_name():
    assert_failed(nb00.check_node_name(lambda t: t.grad_fn), "the node itself", "expected: 'SumBackward0'",
                  "got:      <SumBackward0 object>")


# ---- 01 -------------------------------------------------------------------------------------------
def my_sigmoid_grad(a):
    s = a.sigmoid()
    return s * (1 - s)


def test_nb01_sigmoid_grad_reference():
    assert_passed(nb01.check_sigmoid_grad(my_sigmoid_grad))


def test_nb01_sigmoid_grad_numpy_answer_is_fine():
    def numpy_version(a):
        s = 1 / (1 + np.exp(-a.numpy().astype(np.float64)))
        return s * (1 - s)
    assert_passed(nb01.check_sigmoid_grad(numpy_version))


def test_nb01_sigmoid_grad_forgot_the_derivative():
    assert_failed(nb01.check_sigmoid_grad(lambda a: a.sigmoid()), "wrong gradient", "expected:", "got:",
                  "that is sigmoid(a) itself")


def test_nb01_sigmoid_grad_overflowing_formula():
    def overflowing(a):
        with np.errstate(all="ignore"):
            e = np.exp(-a.numpy())
            return e / (1 + e) ** 2
    assert_failed(nb01.check_sigmoid_grad(overflowing), "linspace(-100, 100, 10)", "nan", "s * (1 - s)")


def test_nb01_sigmoid_grad_used_backward():
    def with_backward(a):
        a.sigmoid().sum().backward()
        return a.grad
    assert_failed(nb01.check_sigmoid_grad(with_backward), "does not require grad", "not with backward()")


def test_nb01_sigmoid_grad_summed():
    assert_failed(nb01.check_sigmoid_grad(lambda a: my_sigmoid_grad(a).sum()), "wrong shape",
                  "one number per element")


def chain_names(t):
    names = []
    node = t.grad_fn
    while node is not None:
        names.append(node.name())
        following = [n for n, _ in node.next_functions if n is not None]
        node = following[0] if following else None
    return names


def test_nb01_chain_names_reference():
    assert_passed(nb01.check_chain_names(chain_names))


def test_nb01_chain_names_agrees_with_pytorch_names_in_the_notebook_example():
    a = minigrad.linspace(-100, 100, 10, requires_grad=True)
    assert chain_names(a.relu().sum()) == ["SumBackward0", "ReluBackward0", "minigrad::autograd::AccumulateGrad"]


def test_nb01_chain_names_stops_before_the_leaf():
    def early(t):
        names, node = [], t.grad_fn
        while node.next_functions:
            names.append(node.name())
            node = node.next_functions[0][0]
        return names
    assert_failed(nb01.check_chain_names(early), "wrong list of names", "expected:", "got:", "one node early",
                  "AccumulateGrad")


def test_nb01_chain_names_always_first_edge():
    def first_edge(t):
        names, node = [], t.grad_fn
        while node is not None:
            names.append(node.name())
            node = node.next_functions[0][0] if node.next_functions else None
        return names
    assert_failed(nb01.check_chain_names(first_edge), "minigrad.ones(3) + x.exp()", "expected:", "got:",
                  "whose node is not None")


def test_nb01_chain_names_crashes_on_none_edge():
    def crash(t):
        names, node = [], t.grad_fn
        while True:
            names.append(node.name())
            if not node.next_functions:
                return names
            node = node.next_functions[0][0]
    assert_failed(nb01.check_chain_names(crash), "NoneType", "(None, 0)")


def test_nb01_chain_names_nodes_instead_of_names():
    def nodes(t):
        out, node = [], t.grad_fn
        while node is not None:
            out.append(node)
            following = [n for n, _ in node.next_functions if n is not None]
            node = following[0] if following else None
        return out
    assert_failed(nb01.check_chain_names(nodes), "not nodes", "node.name()")


def test_nb01_chain_names_later_hint_describes_the_walk():
    report = nb01.check_chain_names(lambda t: [t.grad_fn.name()])
    assert_failed(report, "wrong list of names", "your walk stopped before the leaf")
    assert "the walk in words" not in report.text and "the walk in words" in later_hints(report)


def test_nb01_chain_names_returns_none():
    assert_failed(nb01.check_chain_names(lambda t: None), "returned None", "list of node names")


def numerical_grad(f, x, h=1e-4):
    grad = np.zeros_like(x)
    for i in range(x.size):
        step = np.zeros_like(x)
        step[i] = h
        grad[i] = (f(x + step) - f(x - step)) / (2 * h)
    return grad


def test_nb01_numerical_grad_reference():
    assert_passed(nb01.check_numerical_grad(numerical_grad))


def test_nb01_numerical_grad_all_inputs_at_once():
    def at_once(f, x, h=1e-4):
        return np.full_like(x, (f(x + h) - f(x - h)) / (2 * h))
    assert_failed(nb01.check_numerical_grad(at_once), "wrong gradient", "expected:", "got:", "every input at once")


def test_nb01_numerical_grad_one_sided():
    def one_sided(f, x, h=1e-4):
        grad = np.zeros_like(x)
        for i in range(x.size):
            step = np.zeros_like(x)
            step[i] = h
            grad[i] = (f(x + step) - f(x)) / h
        return grad
    assert_failed(nb01.check_numerical_grad(one_sided), "one-sided difference")


def test_nb01_numerical_grad_changes_x():
    def in_place(f, x, h=1e-4):
        grad = np.zeros_like(x)
        for i in range(x.size):
            x[i] += h
            up = f(x)
            x[i] -= 2 * h
            grad[i] = (up - f(x)) / (2 * h)
        return grad
    assert_failed(nb01.check_numerical_grad(in_place), "changed the x it was given")


def test_nb01_numerical_grad_forgot_the_two():
    def no_two(f, x, h=1e-4):
        return 2 * numerical_grad(f, x, h)
    assert_failed(nb01.check_numerical_grad(no_two), "factor 2")


def test_nb01_numerical_grad_returns_none():
    assert_failed(nb01.check_numerical_grad(lambda f, x, h=1e-4: None), "returned None", "nudged gradient")


def my_tanh_grad(a):
    t = a.tanh()
    return 1 - t * t


def test_nb01b_tanh_grad_reference_and_numpy():
    assert_passed(nb01b.check_tanh_grad(my_tanh_grad))
    assert_passed(nb01b.check_tanh_grad(lambda a: 1 - np.tanh(a.numpy()) ** 2))


def test_nb01b_tanh_grad_sigmoid_formula():
    report = nb01b.check_tanh_grad(lambda a: a.tanh() * (1 - a.tanh()))
    assert_failed(report, "wrong gradient", "sigmoid's formula")
    assert "quotient rule" not in report.text and "split it into two fractions" in later_hints(report)


def test_nb01b_tanh_grad_forgot_the_square():
    assert_failed(nb01b.check_tanh_grad(lambda a: 1 - a.tanh()), "where is the square")


def test_nb01b_tanh_grad_overflowing_formula():
    def overflowing(a):
        e, f = a.exp(), (-a).exp()
        return 1 - ((e - f) / (e + f)) ** 2   # inf / inf at +-100
    assert_failed(nb01b.check_tanh_grad(overflowing), "linspace(-100, 100, 10)", "nan")


def test_nb01_claims_about_pytorch_in_the_text():
    """Notebook 01's claims about PyTorch that no side-by-side cell shows, in both libraries: backward()
    without arguments on any one-element tensor; sgn's gradient a ZeroTensor; a leaf's later gradients
    added in place; the gradient of x.t() stored laid out like x; a post-accumulate hook sees the new
    .grad; relu's and sigmoid's backward formulas are ops of their own (threshold_backward,
    sigmoid_backward)."""
    torch = pytest.importorskip("torch")
    for lib in (torch, minigrad):
        x = lib.ones(1, 1, requires_grad=True)
        (x * 3).backward()
        assert x.grad.tolist() == [[3.0]]
        z = lib.tensor([1.0, -2.0], requires_grad=True)
        lib.sgn(z).sum().backward()
        assert z.grad._is_zerotensor()  # zeros never written to memory
        w = lib.tensor([1.0, 2.0], requires_grad=True)
        (w * w).sum().backward()
        first = w.grad
        (w * w).sum().backward()
        assert w.grad is first and first.tolist() == [4.0, 8.0]
        m = lib.ones(2, 3, requires_grad=True)
        (m.t() @ lib.ones(2, 4)).sum().backward()
        assert m.grad.stride() == m.stride() == (3, 1)
        seen = []
        v = lib.tensor([1.0, 2.0], requires_grad=True)
        v.register_post_accumulate_grad_hook(lambda leaf: seen.append(leaf.grad.tolist()))
        (v * 5).sum().backward()
        assert seen == [[5.0, 5.0]]
        a = lib.tensor([-1.0, 2.0], requires_grad=True)
        g, = lib.autograd.grad(a.relu().sum(), a, create_graph=True)
        assert g.grad_fn.name() == "ThresholdBackwardBackward0"
        g, = lib.autograd.grad(a.sigmoid().sum(), a, create_graph=True)
        assert g.grad_fn.name() == "SigmoidBackwardBackward0"


def grow_grad(x0):
    grad = 1.0
    while x0 < 10:
        x0, grad = x0 * 2, grad * 2
    return grad


def test_nb01b_grow_grad_reference():
    assert_passed(nb01b.check_grow_grad(grow_grad))


def test_nb01b_grow_grad_agrees_with_backward_in_the_notebook_examples():
    for x0, expected in [(3.0, 4.0), (0.7, 16.0), (5.0, 2.0), (12.0, 1.0)]:
        x = minigrad.tensor(x0, requires_grad=True)
        nb01b.grow(x).backward()
        assert x.grad.item() == expected == grow_grad(x0)


def test_nb01b_grow_grad_off_by_one():
    def less_or_equal(x0):
        grad = 1.0
        while x0 <= 10:
            x0, grad = x0 * 2, grad * 2
        return grad
    assert_failed(nb01b.check_grow_grad(less_or_equal), "wrong derivative for x0 = 5.0", "y = 10 itself")


def test_nb01b_grow_grad_value_instead_of_slope():
    assert_failed(nb01b.check_grow_grad(lambda x0: nb01b.grow(minigrad.tensor(x0)).item()),
                  "wrong derivative for x0 = 3.0", "value of grow(x0)")


def test_nb01b_grow_grad_added_instead_of_multiplied():
    def added(x0):
        count = 0
        while x0 < 10:
            x0, count = x0 * 2, count + 1
        return 2.0 * count
    assert_failed(nb01b.check_grow_grad(added), "wrong derivative for x0 = 12.0", "multiplies")


def sum_until(x, limit):
    total = x[0]
    i = 1
    while total.item() <= limit and i < len(x):
        total = total + x[i]
        i += 1
    return total


def test_nb01b_sum_until_reference_and_a_for_loop():
    assert_passed(nb01b.check_sum_until(sum_until))

    def with_for(x, limit):
        total = minigrad.tensor(0.0)
        for v in x:
            total = total + v
            if total > limit:
                break
        return total
    assert_passed(nb01b.check_sum_until(with_for))


def test_nb01b_sum_until_left_the_graph():
    def floats(x, limit):
        total = 0.0
        for v in x.tolist():
            total += v
            if total > limit:
                break
        return minigrad.tensor(total)
    assert_failed(nb01b.check_sum_until(floats), "no grad_fn", ".item()")


def test_nb01b_sum_until_stops_early():
    def early(x, limit):
        total = minigrad.tensor(0.0)
        for v in x:
            if (total + v).item() > limit:
                break
            total = total + v
        return total
    assert_failed(nb01b.check_sum_until(early), "wrong total for x = [2.0, 5.0, 1.0, 4.0]", "one element early")


def test_nb01b_sum_until_greater_or_equal():
    def at_least(x, limit):
        total = minigrad.tensor(0.0)
        for v in x:
            total = total + v
            if total >= limit:
                break
        return total
    assert_failed(nb01b.check_sum_until(at_least), "limit = 6.0", "not larger than it")


def _solution_lines_00_01b(notebook):
    """The lines of a notebook's reference solutions (exercise cells, BEGIN/END SOLUTION; not the build
    stages), without spaces, that its text does not already state (the task may say `return x, y`)."""
    import json
    import pathlib
    import re
    cells = json.loads((pathlib.Path(__file__).parents[1] / "notebooks" / notebook).read_text())["cells"]
    text = "".join(re.sub(r"\s", "", "".join(c["source"])) for c in cells if c["cell_type"] == "markdown")
    lines = set()
    for cell in cells:
        tags = cell.get("metadata", {}).get("tags", [])
        if "exercise" not in tags or "build-it-yourself" in tags:
            continue
        inside = False
        for line in "".join(cell["source"]).splitlines():
            if "### BEGIN SOLUTION" in line or "### END SOLUTION" in line:
                inside = "BEGIN" in line
            elif inside and len(re.sub(r"\s", "", line)) >= 8 and re.sub(r"\s", "", line) not in text:
                lines.add(re.sub(r"\s", "", line))
    return lines


NOTEBOOKS_00_01B = {"nb00": "00_start_here.ipynb", "nb01": "01_scalar_backward.ipynb",
                    "nb01b": "01b_dynamic_graph.ipynb"}


def test_nb00_nb01_nb01b_every_planted_mistake_gets_two_hint_tiers_and_no_solution_line(tmp_path):
    """Each wrong answer planted in tests/planted/nb00.py, nb01.py, nb01b.py fails with at least two hint
    tiers (the first in the report, the others from hint()), and no tier holds a line of the notebook's
    reference solution (a prediction's answer is such a line: `q_grad = 7`)."""
    import re

    import planted
    found = 0
    for name, answers in planted.registry().items():
        module = name.split(".")[0]
        if module not in NOTEBOOKS_00_01B:
            continue
        lines = _solution_lines_00_01b(NOTEBOOKS_00_01B[module])
        assert lines, module
        check = planted.check(name)
        for wrong in answers:
            report = check(planted.answer(check, wrong.code, tmp_path))
            assert not report and "   Hint: " in report.text and report.more, f"{name}: {wrong.why}\n{report.text}"
            everything = re.sub(r"\s", "", report.full_text() + "".join(report.more))
            leaked = [line for line in lines if line in everything]
            assert not leaked, f"{name} ({wrong.why}) shows the solution line(s) {leaked}"
            found += 1
    assert found >= 60


@pytest.mark.parametrize("module, count", [("nb00", 1), ("nb01", 2), ("nb01b", 4)])
def test_nb00_nb01_nb01b_prediction_questions_have_their_scaffold_and_are_named_in_the_text(module, count):
    """Each prediction cell starts with ``q_name = ...   # your prediction``, is followed by its graded check
    cell, and the text above it names ``q_name``."""
    import json
    import pathlib
    import re
    path = pathlib.Path(__file__).parents[1] / "notebooks" / NOTEBOOKS_00_01B[module]
    cells = json.loads(path.read_text())["cells"]
    found = 0
    for i, cell in enumerate(cells[:-1]):
        calls = re.findall(rf"\b{module}\.(check_q_\w+)\(", "".join(cells[i + 1]["source"]))
        if not calls:
            continue
        found += 1
        name = getattr(globals()[module], calls[0]).answer_name
        assert cell["metadata"]["nbgrader"]["solution"] and cells[i + 1]["metadata"]["nbgrader"]["grade"]
        assert "".join(cell["source"]).startswith(f"{name} = ...   # your prediction\n### BEGIN SOLUTION\n")
        text = next("".join(c["source"]) for c in reversed(cells[:i]) if c["cell_type"] == "markdown")
        assert f"`{name}`" in text, f"the text above {name}'s cell does not name it"
    assert found == count


PREDICTIONS = [(nb00.check_q_grad, 7, 9), (nb01.check_q_slope, 1, 0), (nb01.check_q_relu, "b", "a"),
               (nb01b.check_q_twice, 1, 2), (nb01b.check_q_clamp, "b", "a"), (nb01b.check_q_huber, -1, 1),
               (nb01b.check_q_nodes, 4, 5),
               (nb02.check_q_grad, 30, 3), (nb02.check_q_shape, "B", "c")]


@pytest.mark.parametrize("check, right, wrong", PREDICTIONS, ids=lambda c: getattr(c, "answer_name", None))
def test_prediction_questions(check, right, wrong):
    assert_passed(check(right))
    report = check(wrong)
    assert_failed(report, "is not it")
    assert not check(None)


# ---- 02 -------------------------------------------------------------------------------------------
def diff_vjp(v):
    grad = np.zeros(len(v) + 1)
    grad[1:] += v
    grad[:-1] -= v
    return grad


def test_nb02_diff_vjp_reference():
    assert_passed(nb02.check_diff_vjp(diff_vjp))


def test_nb02_diff_vjp_tensor_answer_is_fine():
    assert_passed(nb02.check_diff_vjp(lambda v: minigrad.tensor(diff_vjp(v))))


def test_nb02_diff_vjp_wrong_sign():
    report = nb02.check_diff_vjp(lambda v: -diff_vjp(v))
    assert_failed(report, "wrong x.grad", "expected:", "got:", "sign is flipped")
    assert "v[j-1] - v[j]" not in report.text and "v[j-1] - v[j]" in later_hints(report)


def test_nb02_diff_vjp_one_element_short():
    assert_failed(nb02.check_diff_vjp(lambda v: diff_vjp(v)[1:]), "wrong shape", "one element more than y")


def test_nb02_diff_vjp_ends_forgotten():
    def middle_only(v):
        grad = diff_vjp(v)
        grad[0] = grad[-1] = 0
        return grad
    assert_failed(nb02.check_diff_vjp(middle_only), "the two ends")


def test_nb02_diff_vjp_built_the_jacobian():
    def jacobian(v):
        n = len(v) + 1
        return np.eye(n)[1:] - np.eye(n)[:-1]
    assert_failed(nb02.check_diff_vjp(jacobian), "looks like a Jacobian")


def seed_for(n):
    v = np.zeros(n)
    v[:n // 2] = 1 / (n // 2)
    v[-1] = -3
    return v


def test_nb02_seed_for_reference():
    assert_passed(nb02.check_seed_for(seed_for))


def test_nb02_seed_for_ones():
    assert_failed(nb02.check_seed_for(lambda n: np.ones(n)), "wrong gradient vector for n = 6", "expected:",
                  "got:", "gradient of y.sum()")


def test_nb02_seed_for_forgot_the_mean():
    def no_mean(n):
        v = np.zeros(n)
        v[:n // 2] = 1
        v[-1] = -3
        return v
    assert_failed(nb02.check_seed_for(no_mean), "look at the mean", "mean of 3 numbers")


def test_nb02_seed_for_wrong_sign():
    def plus_three(n):
        v = seed_for(n)
        v[-1] = 3
        return v
    report = nb02.check_seed_for(plus_three)
    assert_failed(report, "what sign does the last weight have")
    assert "the weight -3" in later_hints(report)   # the idea, not the solution's line v[-1] = -3


def test_nb02_seed_for_hard_coded_for_six():
    fixed = seed_for(6)
    assert_failed(nb02.check_seed_for(lambda n: fixed), "n = 5", "wrong shape")


def test_nb02_seed_for_half_of_n_fails_for_odd_n():
    def half(n):
        v = seed_for(n)
        v[:n // 2] = 2 / n   # 1 / (n / 2): right for every even n
        return v
    assert_failed(nb02.check_seed_for(half), "n = 5", "rounded down")


def test_nb02_diff_vjp_worked_out_for_one_length_only():
    report = nb02.check_diff_vjp(lambda v: np.array([-v[0], v[0] - v[1], v[1] - v[2], v[2]]))
    assert_failed(report, "x has 2 elements): your code raised IndexError", "fixed length")
    assert later_hints(report)


def test_nb02_diff_vjp_assigned_instead_of_added():
    def assigned(v):
        grad = np.zeros(len(v) + 1)
        grad[1:] = v
        grad[:-1] = -v
        return grad
    assert_failed(nb02.check_diff_vjp(assigned), "wrong x.grad", "replace the first instead of adding")


def sum_to(grad, shape):
    lead = grad.ndim - len(shape)
    grad = grad.sum(axis=tuple(range(lead)))
    return grad.sum(axis=tuple(i for i, n in enumerate(shape) if n == 1 and grad.shape[i] != 1), keepdims=True)


def test_nb02_sum_to_reference_and_tensor_answers():
    assert_passed(nb02.check_sum_to(sum_to))
    assert_passed(nb02.check_sum_to(lambda grad, shape: minigrad.tensor(sum_to(grad, shape))))


def test_nb02_sum_to_agrees_with_pytorch_engine_sum():
    torch = pytest.importorskip("torch")
    grad = np.arange(24.0).reshape(2, 4, 3)
    x = torch.zeros(2, 1, 3, dtype=torch.float64, requires_grad=True)
    (x + torch.zeros(2, 4, 3, dtype=torch.float64)).backward(torch.tensor(grad))
    assert np.array_equal(x.grad.numpy(), sum_to(grad, (2, 1, 3)))


def test_nb02_sum_to_leading_dims_only():
    report = nb02.check_sum_to(lambda grad, shape: grad.sum(axis=tuple(range(grad.ndim - len(shape)))))
    assert_failed(report, "shape = (4, 1)", "still has the broadcast shape")
    assert "size 1" in later_hints(report)


def test_nb02_sum_to_dims_dropped():
    def dropped(grad, shape):
        return sum_to(grad, shape).reshape([n for n in shape if n != 1])
    assert_failed(nb02.check_sum_to(dropped), "wrong shape", "dims of size 1 are gone")


def test_nb02_sum_to_everything():
    assert_failed(nb02.check_sum_to(lambda grad, shape: grad.sum()), "shape = (3,)", "summed over every dim")


def test_nb02_sum_to_two_dims_assumed():
    report = nb02.check_sum_to(lambda grad, shape: sum_to(grad, shape) if shape[0] else None)  # shape[0]: no scalar
    assert_failed(report, "shape = ()", "your code raised IndexError", "0 to 3 dims")


class Dual:
    """The notebook's dual number, solved; ``rule`` swaps in a wrong tangent for one op."""

    def __init__(self, value, tangent, rule=None):
        self.value, self.tangent, self.rule = value, tangent, rule or {}

    def _new(self, value, tangent):
        return Dual(value, tangent, self.rule)

    def _lift(self, other):
        return other if isinstance(other, Dual) else Dual(other, 0.0, self.rule)

    def __add__(self, other):
        other = self._lift(other)
        return self._new(self.value + other.value, self.tangent + other.tangent)

    def __mul__(self, other):
        o = self._lift(other)
        mul = self.rule.get("mul", lambda a, da, b, db: da * b + a * db)
        return self._new(self.value * o.value, mul(self.value, self.tangent, o.value, o.tangent))

    __radd__, __rmul__ = __add__, __mul__

    def sin(self):
        sin = self.rule.get("sin", lambda a, da: np.cos(a) * da)
        return self._new(np.sin(self.value), sin(self.value, self.tangent))

    def exp(self):
        exp = self.rule.get("exp", lambda a, da: np.exp(a) * da)
        return self._new(np.exp(self.value), exp(self.value, self.tangent))


def dual_with(**rule):
    return lambda value, tangent: Dual(value, tangent, rule)


def test_nb02_dual_reference():
    assert_passed(nb02.check_dual(Dual))


def test_nb02_dual_chain_rule_forgotten_passes_tangent_one_then_fails():
    report = nb02.check_dual(dual_with(sin=lambda a, da: np.cos(a)))
    assert_failed(report, "x.sin() with x = Dual(0.7, -2.5)", "expected:", "got:", "chain rule multiplies")
    assert "product rule" in later_hints(report)


def test_nb02_dual_product_of_tangents():
    assert_failed(nb02.check_dual(dual_with(mul=lambda a, da, b, db: da * db)), "a * b", "not the product of the tangents")


def test_nb02_dual_one_term_of_the_product_rule():
    assert_failed(nb02.check_dual(dual_with(mul=lambda a, da, b, db: a * db)), "two terms")


def test_nb02_dual_exp_sign_and_values():
    assert_failed(nb02.check_dual(dual_with(exp=lambda a, da: -np.exp(a) * da)), "x.exp()", "check the sign")


def test_nb02_dual_a_plain_number_must_become_a_dual():
    class Bare(Dual):
        def _lift(self, other):
            return other
    assert_failed(nb02.check_dual(Bare), "3 * x.exp() + 2 * x", "a plain number next to a Dual")


def test_nb02_dual_returns_something_else():
    class Floats(Dual):
        def sin(self):
            return np.sin(self.value)
    assert_failed(nb02.check_dual(Floats), "should be a Dual")


def test_nb02_forward_ad_record_is_minigrads_jvp_and_the_notebooks_duals():
    version, values, tangents = nb02.recorded_forward_ad()
    assert version.startswith("2.13")
    x = minigrad.tensor(nb02.EXAMPLE_X, dtype=minigrad.float64)
    u = minigrad.tensor(nb02.EXAMPLE_U, dtype=minigrad.float64)
    out, jv = autograd.functional.jvp(lambda x: minigrad.stack(nb02.example_f(x)), x, u)
    assert np.allclose(out.numpy(), values, rtol=1e-12) and np.allclose(jv.numpy(), tangents, rtol=1e-12)
    duals = nb02.example_f([Dual(a, b) for a, b in zip(nb02.EXAMPLE_X, nb02.EXAMPLE_U)])
    assert np.allclose([d.tangent for d in duals], tangents, rtol=1e-12)


def test_nb02_forward_ad_record_is_what_pytorch_gives():
    torch = pytest.importorskip("torch")
    _, values, tangents = nb02.recorded_forward_ad()
    assert nb02.pytorch_forward_ad(torch) == (values, tangents)


def test_nb02_minigrad_has_no_forward_mode():
    assert not hasattr(autograd, "forward_ad")
    with pytest.raises(ModuleNotFoundError):
        __import__("minigrad.autograd.forward_ad")


# ---- 03 -------------------------------------------------------------------------------------------
def second_derivative(f, x):
    x = x.detach().requires_grad_()
    d1, = autograd.grad(f(x).sum(), x, create_graph=True)
    d2, = autograd.grad(d1.sum(), x)
    return d2


def test_nb03_second_derivative_reference():
    assert_passed(nb03.check_second_derivative(second_derivative))


def test_nb03_second_derivative_without_create_graph():
    def no_create_graph(f, x):
        x = x.detach().requires_grad_()
        d1, = autograd.grad(f(x).sum(), x)
        d2, = autograd.grad(d1.sum(), x)
        return d2
    assert_failed(nb03.check_second_derivative(no_create_graph), "does not require grad", "create_graph=True")


def test_nb03_second_derivative_input_not_requiring_grad():
    def no_leaf(f, x):
        d1, = autograd.grad(f(x).sum(), x, create_graph=True)
        return autograd.grad(d1.sum(), x)[0]
    report = nb03.check_second_derivative(no_leaf)
    assert_failed(report, "does not require grad")
    assert "requires_grad_()" not in report.text and "requires_grad_()" in later_hints(report)


def test_nb03_second_derivative_first_derivative_only():
    def once(f, x):
        x = x.detach().requires_grad_()
        return autograd.grad(f(x).sum(), x)[0]
    assert_failed(nb03.check_second_derivative(once), "wrong second derivative", "x**3 - 2*x", "expected:",
                  "got:", "that is f'(x)")


def test_nb03_second_derivative_no_sum():
    def no_sum(f, x):
        x = x.detach().requires_grad_()
        d1, = autograd.grad(f(x), x, create_graph=True)
        return autograd.grad(d1, x)[0]
    report = nb03.check_second_derivative(no_sum)
    assert_failed(report, "scalar outputs", "notebook 02")
    assert ".sum()" in later_hints(report)


def test_nb03_second_derivative_the_formula_of_the_example():
    report = nb03.check_second_derivative(lambda f, x: 6 * x)   # f'' of x**3 - 2*x, whatever f is
    assert_failed(report, "tanh(x)", "that is the second derivative of x**3 - 2*x, not of the f that was passed")


def test_nb03_second_derivative_changes_the_callers_x():
    def in_place(f, x):
        x.requires_grad_()
        d1, = autograd.grad(f(x).sum(), x, create_graph=True)
        return autograd.grad(d1.sum(), x)[0]
    assert_failed(nb03.check_second_derivative(in_place), "your function changed x", "requires grad")


def test_nb03_second_derivative_with_backward_twice():
    def twice(f, x):
        x = x.detach().requires_grad_()
        f(x).sum().backward(create_graph=True)
        x.grad.sum().backward()
        return x.grad.detach()
    assert_failed(nb03.check_second_derivative(twice), "that is f'(x) + f''(x)", "accumulate")


def test_nb03_second_derivative_tells_x_from_the_missing_create_graph():
    def no_leaf(f, x):
        d1, = autograd.grad(f(x).sum(), x, create_graph=True)
        return autograd.grad(d1.sum(), x)[0]

    def no_create_graph(f, x):
        x = x.detach().requires_grad_()
        d1, = autograd.grad(f(x).sum(), x)
        return autograd.grad(d1.sum(), x)[0]
    assert_failed(nb03.check_second_derivative(no_leaf), "x arrives without requires_grad")
    report = nb03.check_second_derivative(no_create_graph)
    assert_failed(report, "the first derivative has no graph of its own")
    assert "create_graph=True" in later_hints(report)


def train(w, xs, ys, lr, steps):
    losses = []
    for _ in range(steps):
        w.grad = None
        loss = ((w * xs - ys) ** 2).mean()
        loss.backward()
        with minigrad.no_grad():
            w -= lr * w.grad
        losses.append(loss.item())
    return losses


def test_nb03_train_reference():
    assert_passed(nb03.check_train(train))


def test_nb03_train_zero_grad_variant_passes():
    def with_zero(w, xs, ys, lr, steps):
        losses = []
        for _ in range(steps):
            loss = ((w * xs - ys) ** 2).mean()
            loss.backward()
            with minigrad.no_grad():
                w -= lr * w.grad
            w.grad.zero_()
            losses.append(loss.item())
        return losses
    assert_passed(nb03.check_train(with_zero))


def test_nb03_train_the_buggy_loop():
    def buggy(w, xs, ys, lr, steps):
        losses = []
        for _ in range(steps):
            loss = ((w * xs - ys) ** 2).mean()
            loss.backward()
            with minigrad.no_grad():
                w -= lr * w.grad
            losses.append(loss.item())
        return losses
    report = nb03.check_train(buggy)
    assert_failed(report, "wrong loss at step 2", "expected:", "got:", "buggy loop")
    # the later tiers say where the reset goes, never the solution's line (w.grad = None)
    assert "before backward() runs" in later_hints(report)
    assert "w.grad = None" not in report.text + later_hints(report)


def test_nb03_train_reset_in_the_wrong_place():
    def reset_too_early(w, xs, ys, lr, steps):
        losses = []
        for _ in range(steps):
            loss = ((w * xs - ys) ** 2).mean()
            loss.backward()
            w.grad = None
            with minigrad.no_grad():
                w -= lr * w.grad
            losses.append(loss.item())
        return losses
    assert_failed(nb03.check_train(reset_too_early), "TypeError", "w.grad is None")


def test_nb03_train_update_outside_no_grad():
    def no_no_grad(w, xs, ys, lr, steps):
        losses = []
        for _ in range(steps):
            w.grad = None
            loss = ((w * xs - ys) ** 2).mean()
            loss.backward()
            w -= lr * w.grad
            losses.append(loss.item())
        return losses
    report = nb03.check_train(no_no_grad)
    assert_failed(report, "in-place operation", "being recorded")
    assert "no_grad()" in later_hints(report)


def test_nb03_train_returns_tensors_is_fine_but_not_nothing():
    def returns_nothing(w, xs, ys, lr, steps):
        train(w, xs, ys, lr, steps)
    assert_failed(nb03.check_train(returns_nothing), "list of losses", "loss.item()")


def test_nb03_train_new_w_each_step():
    def not_in_place(w, xs, ys, lr, steps):
        losses = []
        w = w.detach().requires_grad_()
        for _ in range(steps):
            w.grad = None
            loss = ((w * xs - ys) ** 2).mean()
            loss.backward()
            with minigrad.no_grad():
                w = (w - lr * w.grad).requires_grad_()
            losses.append(loss.item())
        return losses
    assert_failed(nb03.check_train(not_in_place), "never moved", "expected:", "got:", "in place")


def test_nb03_train_w_equals_w_minus_is_diagnosed_with_or_without_no_grad():
    """The commonest mistake, ``w = w - lr * w.grad``: the given w never moves, and the next step fails (under
    no_grad the new w does not require grad; outside it the new w is no leaf and its .grad stays None)."""
    def rebound(under_no_grad):
        def train(w, xs, ys, lr, steps):
            losses = []
            for _ in range(steps):
                w.grad = None
                loss = ((w * xs - ys) ** 2).mean()
                loss.backward()
                if under_no_grad:
                    with minigrad.no_grad():
                        w = w - lr * w.grad
                else:
                    w = w - lr * w.grad
                losses.append(loss.item())
            return losses
        return train
    inside = nb03.check_train(rebound(True))
    assert_failed(inside, "never moved", "made a new tensor and gave it the name w", "does not require grad")
    outside = nb03.check_train(rebound(False))
    assert_failed(outside, "never moved", "made a new tensor and gave it the name w", "fills .grad only for leaves")
    for report in (inside, outside):
        assert "in place" in report.text and len(report.more) >= 2
        assert "w -= lr * w.grad" not in report.text + later_hints(report)   # the idea, not the line


def test_nb03_train_zero_before_the_first_backward():
    def zero_first(w, xs, ys, lr, steps):
        losses = []
        for _ in range(steps):
            w.grad.zero_()
            loss = ((w * xs - ys) ** 2).mean()
            loss.backward()
            with minigrad.no_grad():
                w -= lr * w.grad
            losses.append(loss.item())
        return losses
    assert_failed(nb03.check_train(zero_first), "there is no gradient yet", "also works when there is none yet")


def test_nb03_train_must_use_its_lr_and_steps():
    """The notebook's lr = 0.05 and 12 steps typed in: the hidden runs use other ones too."""
    def typed_in(lr_used=None, steps_used=None):
        def answer(w, xs, ys, lr, steps):
            return train(w, xs, ys, lr_used or lr, steps_used or steps)
        return answer
    assert_failed(nb03.check_train(typed_in(0.05, 12)), "one loss per step (7 steps), got 12", "not the default")
    assert_failed(nb03.check_train(typed_in(lr_used=0.05)), "lr = 0.1", "a correct loop with lr = 0.05")


def td_loss(model, x, r, x_next, gamma):
    target = (r + gamma * model(x_next)).detach()
    return ((model(x) - target) ** 2).mean()


def test_nb03b_td_loss_reference():
    assert_passed(nb03b.check_td_loss(td_loss))


def test_nb03b_td_loss_target_under_no_grad_passes():
    def with_no_grad(model, x, r, x_next, gamma):
        with minigrad.no_grad():
            target = r + gamma * model(x_next)
        return ((model(x) - target) ** 2).mean()
    assert_passed(nb03b.check_td_loss(with_no_grad))


def test_nb03b_td_loss_gradient_through_the_target():
    def through_both(model, x, r, x_next, gamma):
        return ((model(x) - (r + gamma * model(x_next))) ** 2).mean()
    text = nb03b.check_td_loss(through_both).text
    assert_failed(nb03b.check_td_loss(through_both), "wrong gradient for the parameter weight", "expected:",
                  "flows through the target")
    assert "detach" not in text  # the first hint names the problem, not the answer


def test_nb03b_td_loss_the_wrong_term_cut():
    def wrong_term(model, x, r, x_next, gamma):
        return ((model(x).detach() - (r + gamma * model(x_next))) ** 2).mean()
    assert_failed(nb03b.check_td_loss(wrong_term), "wrong gradient", "Swap which term")


def test_nb03b_td_loss_whole_loss_detached():
    def whole(model, x, r, x_next, gamma):
        return ((model(x) - (r + gamma * model(x_next))) ** 2).mean().detach()
    assert_failed(nb03b.check_td_loss(whole), "does not require grad", "Only one of the two terms")


def test_nb03b_td_loss_wrong_value_and_none():
    def no_gamma(model, x, r, x_next, gamma):
        return ((model(x) - (r + model(x_next)).detach()) ** 2).mean()
    assert_failed(nb03b.check_td_loss(no_gamma), "wrong loss value", "expected:")
    assert_failed(nb03b.check_td_loss(lambda *args: None), "returned None", "return loss")
    assert_failed(nb03b.check_td_loss(lambda *args: ((args[0](args[1]) - args[2]) ** 2)), "scalar")


def test_nb03b_td_loss_must_use_its_gamma():
    def fixed_gamma(model, x, r, x_next, gamma):
        return td_loss(model, x, r, x_next, 0.9)
    assert_failed(nb03b.check_td_loss(fixed_gamma), "gamma = 0.5", "that is the loss with gamma = 0.9")


def test_nb03b_td_loss_requires_grad_on_the_computed_target():
    def frozen_target(model, x, r, x_next, gamma):
        target = r + gamma * model(x_next)
        target.requires_grad_(False)
        return ((model(x) - target) ** 2).mean()
    report = nb03b.check_td_loss(frozen_target)
    assert_failed(report, "leaf variables", "works on leaves only")
    assert later_hints(report)


@pytest.mark.parametrize("check, right, wrong", [(nb03.check_q_retain, "c", "d"), (nb03b.check_q_detach, "b", "a"),
                                                 (nb03b.check_q_eval, "a", "b")])
def test_nb03_predictions(check, right, wrong):
    assert_passed(check(right))
    assert_passed(check(right.upper()))
    report = check(wrong)
    assert_failed(report, "is not it")
    assert later_hints(report)
    assert not check("z") and "should be one of" in check("z").text


def evaluate(model, data, targets):
    was_training = model.training
    model.eval()
    with minigrad.no_grad():
        loss = ((model(data) - targets) ** 2).mean()
    model.train(was_training)
    return loss.item()


def test_nb03b_evaluate_reference_and_inference_mode():
    assert_passed(nb03b.check_evaluate(evaluate))

    def with_inference_mode(model, data, targets):
        was_training = model.training
        model.eval()
        with minigrad.inference_mode():
            loss = ((model(data) - targets) ** 2).mean()
        model.train(was_training)
        return loss.item()
    assert_passed(nb03b.check_evaluate(with_inference_mode))


def test_nb03b_evaluate_without_eval():
    def no_eval(model, data, targets):
        with minigrad.no_grad():
            return ((model(data) - targets) ** 2).mean().item()
    report = nb03b.check_evaluate(no_eval)
    assert_failed(report, "ran in training mode", "section 5")
    # the later tiers name the switch, never the solution's line (model.eval())
    assert "evaluation mode before it runs" in later_hints(report)
    assert "model.eval()" not in report.text + later_hints(report)


def test_nb03b_evaluate_eval_is_not_no_grad():
    def no_no_grad(model, data, targets):
        was_training = model.training
        model.eval()
        loss = ((model(data) - targets) ** 2).mean()
        model.train(was_training)
        return loss.item()
    report = nb03b.check_evaluate(no_no_grad)
    assert_failed(report, "recording was on", "not whether autograd records")
    assert "no_grad()" in later_hints(report)


def test_nb03b_evaluate_mode_not_restored():
    def always_train_after(model, data, targets):
        model.eval()
        with minigrad.no_grad():
            loss = ((model(data) - targets) ** 2).mean().item()
        model.train()
        return loss
    assert_failed(nb03b.check_evaluate(always_train_after), "afterwards the model is in training mode",
                  "evaluation mode before the call")

    def left_in_eval(model, data, targets):
        model.eval()
        with minigrad.no_grad():
            return ((model(data) - targets) ** 2).mean().item()
    assert_failed(nb03b.check_evaluate(left_in_eval), "afterwards the model is in evaluation mode")


def test_nb03b_evaluate_returns_a_float_with_the_right_value():
    def tensor_back(model, data, targets):
        model.eval()
        with minigrad.no_grad():
            loss = ((model(data) - targets) ** 2).mean()
        model.train()
        return loss
    assert_failed(nb03b.check_evaluate(tensor_back), "Python float, got a tensor", ".item()")

    def sum_not_mean(model, data, targets):
        was_training = model.training
        model.eval()
        with minigrad.no_grad():
            loss = ((model(data) - targets) ** 2).sum()
        model.train(was_training)
        return loss.item()
    assert_failed(nb03b.check_evaluate(sum_not_mean), "wrong value", "expected:", "got:")
    assert_failed(nb03b.check_evaluate(lambda *args: None), "returned None")


def test_nb03_number_prediction():
    assert_passed(nb03.check_q_accumulate(12))
    assert_passed(nb03.check_q_accumulate(12.0))
    report = nb03.check_q_accumulate(4)
    assert_failed(report, "is not it", "Where does that 4 go")
    assert "AccumulateGrad adds" in later_hints(report)
    assert not nb03.check_q_accumulate("twelve") and "should be a number" in nb03.check_q_accumulate("x").text


# ---- 02, 03, 03b: every wrong answer gets hint tiers, none of them a line of the solution ----------
NOTEBOOKS_02_03 = {"nb02": "02_non_scalar_error.ipynb", "nb03": "03_explicit_gradients.ipynb",
                   "nb03b": "03b_cutting_the_graph.ipynb"}
GENERIC = ("not written yet", "should be one of", "should be a number")   # _check's own reports, without tiers


def _notebook(module):
    import json
    import pathlib
    path = pathlib.Path(__file__).resolve().parents[1] / "notebooks" / NOTEBOOKS_02_03[module]
    return json.loads(path.read_text())["cells"]


def _solution_lines(module):
    """{check name: the code lines between the solution markers of the exercise cell its check cell follows},
    comments dropped (the build stage's %%writefile cell is build.py's, not these modules')."""
    import re
    cells, lines = _notebook(module), {}
    for cell, check_cell in zip(cells, cells[1:]):
        text = "".join(cell["source"])
        if cell["cell_type"] != "code" or "### BEGIN SOLUTION" not in text or text.startswith("%%"):
            continue
        inside, code_lines = False, set()
        for line in text.splitlines():
            if line.strip() in ("### BEGIN SOLUTION", "### END SOLUTION"):
                inside = line.strip() == "### BEGIN SOLUTION"
                continue
            code = line.split("#")[0].strip()
            if inside and len(code) >= 6:
                code_lines.add(code)
        for check in re.findall(rf"\b{module}\.(check_\w+)\(", "".join(check_cell["source"])):
            lines[f"{module}.{check}"] = code_lines
    return lines


def _planted(module):
    import planted
    return [(name, w) for name, answers in planted.registry().items() if name.startswith(module + ".")
            for w in answers]


@pytest.mark.parametrize("module", sorted(NOTEBOOKS_02_03))
def test_every_planted_wrong_answer_gets_two_hint_tiers_and_no_solution_line(module):
    import re
    import planted
    solution_of = _solution_lines(module)
    cases = _planted(module)
    assert cases and {name for name, _ in cases} == set(solution_of)
    for name, wrong in cases:
        solution = solution_of[name]
        assert solution, name
        check = planted.check(name)
        report = check(planted.answer(check, wrong.code))
        assert not report, (name, wrong.code)
        shown = report.text + "\n" + "\n".join(report.more)
        if not any(words in report.text for words in GENERIC):
            assert "Hint:" in report.text and len(report.more) >= 1, f"{name}: fewer than two hint tiers:\n{shown}"
        for line in solution:
            assert not re.search(rf"(?<![\w.]){re.escape(line)}(?![\w(])", shown), \
                f"{name} shows the solution's line {line!r}:\n{shown}"


@pytest.mark.parametrize("module", sorted(NOTEBOOKS_02_03))
def test_prediction_questions_have_their_scaffold_and_are_named_in_the_text(module):
    """Each prediction cell starts with ``q_name = ...`` (as in 00 and 01), is followed by its graded check
    cell (what tests/test_nbgrader.py's ``_exercises`` looks for), and the text above names ``q_name``."""
    import re
    cells = _notebook(module)
    found = 0
    for i, cell in enumerate(cells[:-1]):
        check_cell = "".join(cells[i + 1]["source"])
        calls = re.findall(rf"\b{module}\.(check_q_\w+)\(", check_cell)
        if not calls:
            continue
        found += 1
        name = getattr(globals()[module], calls[0]).answer_name
        assert cell["metadata"]["nbgrader"]["solution"] and cells[i + 1]["metadata"]["nbgrader"]["grade"]
        assert "".join(cell["source"]).startswith(f"{name} = ...   # your prediction\n### BEGIN SOLUTION\n")
        text = next("".join(c["source"]) for c in reversed(cells[:i]) if c["cell_type"] == "markdown")
        assert f"`{name}`" in text, f"the text above {name}'s cell does not name it"
    assert found == 2


def test_nb03_claim_pytorch_may_keep_the_first_gradient_where_minigrad_copies():
    """Notebook 03, section 3: minigrad stores a leaf's first gradient as a copy; PyTorch keeps the tensor
    the engine computed when nothing else holds it (here one tensor, shared by two leaves); both add every
    later gradient in place, so .grad stays the same tensor."""
    torch = pytest.importorskip("torch")
    a, b = torch.tensor(1.0, requires_grad=True), torch.tensor(2.0, requires_grad=True)
    torch.stack([a, b]).sum().backward()
    assert a.grad.data_ptr() == b.grad.data_ptr()
    ma, mb = minigrad.tensor(1.0, requires_grad=True), minigrad.tensor(2.0, requires_grad=True)
    minigrad.stack([ma, mb]).sum().backward()
    ma.grad.add_(5.0)
    assert mb.grad.item() == 1.0
    for lib in (torch, minigrad):
        x = lib.tensor(2.0, requires_grad=True)
        (x * x).backward()
        first = x.grad
        (x * x).backward()
        assert x.grad is first and first.item() == 8.0


def test_nb02_the_notebooks_f_and_point_are_the_recorded_ones():
    """Notebook 02 defines f, x0 and u in its cell; the PyTorch record is of nb02.example_f at EXAMPLE_X, EXAMPLE_U."""
    import inspect
    import json
    import pathlib
    cells = json.loads((pathlib.Path(__file__).resolve().parents[1] / "notebooks" / "02_non_scalar_error.ipynb")
                       .read_text())["cells"]
    source = "".join(next(c for c in cells if c.get("id") == "nb02-fwd-03")["source"])
    body = inspect.getsource(nb02.example_f).strip().splitlines()[-1].strip()
    assert body in source and f"x0, u = {nb02.EXAMPLE_X}, {nb02.EXAMPLE_U}" in source
