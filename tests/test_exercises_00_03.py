"""The exercise checks of notebooks 00-03: the reference solutions pass, plausible wrong answers fail with
specific feedback (FAILED, what is wrong, expected vs got, a hint), and an unwritten exercise says so."""
import numpy as np
import pytest

import minigrad
from minigrad import autograd
from minigrad.exercises import nb00, nb01, nb01b, nb02, nb03, nb03b


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
              nb01.check_tanh_grad, nb01.check_chain_names, nb01b.check_grow_grad, nb01b.check_sum_until,
              nb02.check_diff_vjp, nb02.check_seed_for, nb03.check_second_derivative, nb03.check_train,
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
    assert_failed(nb00.check_make_x_and_y(wrong), "return x, y")


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
    assert "while node is not None" not in report.text and "while node is not None" in later_hints(report)


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


def test_nb01_tanh_grad_reference_and_numpy():
    assert_passed(nb01.check_tanh_grad(my_tanh_grad))
    assert_passed(nb01.check_tanh_grad(lambda a: 1 - np.tanh(a.numpy()) ** 2))


def test_nb01_tanh_grad_sigmoid_formula():
    report = nb01.check_tanh_grad(lambda a: a.tanh() * (1 - a.tanh()))
    assert_failed(report, "wrong gradient", "sigmoid's formula")
    assert "1 - t**2" not in report.text and "1 - t**2" in later_hints(report)


def test_nb01_tanh_grad_forgot_the_square():
    assert_failed(nb01.check_tanh_grad(lambda a: 1 - a.tanh()), "where is the square")


def test_nb01_tanh_grad_overflowing_formula():
    def overflowing(a):
        e, f = a.exp(), (-a).exp()
        return 1 - ((e - f) / (e + f)) ** 2   # inf / inf at +-100
    assert_failed(nb01.check_tanh_grad(overflowing), "linspace(-100, 100, 10)", "nan")


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


PREDICTIONS = [(nb00.check_q_grad, 7, 9), (nb01.check_q_slope, 1, 0), (nb01.check_q_relu, "b", "a"),
               (nb01.check_q_twice, 1, 2), (nb01b.check_q_huber, -1, 1), (nb01b.check_q_nodes, 4, 5),
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
    assert "v[-1] = -3" in later_hints(report)


def test_nb02_seed_for_hard_coded_for_six():
    fixed = seed_for(6)
    assert_failed(nb02.check_seed_for(lambda n: fixed), "n = 5", "wrong shape")


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
    assert "w.grad = None" not in report.text and "w.grad = None" in later_hints(report)


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
    assert_failed(nb03.check_train(not_in_place), "did not end where it should", "expected:", "got:", "in place")


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
    assert "model.eval()" not in report.text and "model.eval()" in later_hints(report)


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
