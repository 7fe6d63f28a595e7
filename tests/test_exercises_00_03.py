"""The exercise checks of notebooks 00-03: the reference solutions pass, plausible wrong answers fail with
specific feedback (FAILED, what is wrong, expected vs got, a hint), and an unwritten exercise says so."""
import numpy as np
import pytest

import minigrad
from minigrad import autograd
from minigrad.exercises import nb00, nb01, nb02, nb03


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


ALL_CHECKS = [nb00.check_make_x_and_y, nb00.check_node_name, nb01.check_sigmoid_grad, nb01.check_chain_names,
              nb02.check_vjp, nb02.check_seed_for, nb03.check_second_derivative, nb03.check_train]


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
    assert_failed(nb00.check_make_x_and_y(wrong), "x does not require grad", "requires_grad=True")


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


# ---- 02 -------------------------------------------------------------------------------------------
def vjp(J, v):
    return v @ J


def test_nb02_vjp_reference():
    assert_passed(nb02.check_vjp(vjp))


def test_nb02_vjp_tensor_answer_is_fine():
    assert_passed(nb02.check_vjp(lambda J, v: minigrad.tensor(v) @ minigrad.tensor(J)))


def test_nb02_vjp_jacobian_vector_product():
    assert_failed(nb02.check_vjp(lambda J, v: J @ v), "wrong vector-Jacobian product", "expected:", "got:",
                  "that is J @ v")


def test_nb02_vjp_forgot_v():
    assert_failed(nb02.check_vjp(lambda J, v: J.sum(axis=0)), "ones @ J", "v[i]")


def test_nb02_vjp_elementwise_product():
    assert_failed(nb02.check_vjp(lambda J, v: J * v[:, None]), "wrong shape", "one number per input")


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
    assert_failed(nb02.check_seed_for(no_mean), "mean() divides", "1/3")


def test_nb02_seed_for_wrong_sign():
    def plus_three(n):
        v = seed_for(n)
        v[-1] = 3
        return v
    assert_failed(nb02.check_seed_for(plus_three), "-3, not 3")


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
    assert_failed(nb03.check_second_derivative(no_leaf), "does not require grad", "requires_grad_()")


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
    assert_failed(nb03.check_second_derivative(no_sum), "scalar outputs", ".sum()")


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
    assert_failed(nb03.check_train(buggy), "wrong loss at step 2", "expected:", "got:", "buggy loop",
                  "w.grad = None")


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
    assert_failed(nb03.check_train(no_no_grad), "in-place operation", "no_grad()")


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
