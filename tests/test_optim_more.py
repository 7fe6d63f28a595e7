"""minigrad.optim: the optimizers after Adam (AdamW, NAdam, RAdam, Adamax, Adadelta, Rprop, ASGD), the step
hooks and the newer schedulers -- what the parity cases (``tests/parity/cases_optim.py``) cannot express:
first steps checked against the formulas by hand, hooks that belong to one optimizer, the source the
notebooks show, saved schedulers with callable objects, and a small training run with each optimizer."""
import copy
import inspect
import math
import warnings

import numpy as np
import pytest

import minigrad
from minigrad import optim
from minigrad.optim import lr_scheduler as S
from minigrad.optim.optimizer import register_optimizer_step_post_hook, register_optimizer_step_pre_hook

NEW_OPTIMIZERS = [optim.AdamW, optim.NAdam, optim.RAdam, optim.Adamax, optim.Adadelta, optim.Rprop, optim.ASGD]


def _param(values, grad, dtype=minigrad.float32):
    p = minigrad.tensor(values, dtype=dtype, requires_grad=True)
    p.grad = minigrad.tensor(grad, dtype=dtype)
    return p


# ---------------------------------------------------------------------------------- first steps by hand
def test_adamw_with_a_zero_gradient_only_shrinks_the_weights():
    p = _param([1.0, -2.0], [0.0, 0.0])
    optim.AdamW([p], lr=0.1, weight_decay=0.5).step()
    np.testing.assert_allclose(p.detach().numpy(), [0.95, -1.9], rtol=1e-6)  # p * (1 - lr * wd)


def test_adamw_first_step_is_lr_times_the_sign_after_the_decay():
    p = _param([1.0, -2.0], [0.3, -4.0], minigrad.float64)
    optim.AdamW([p], lr=0.1, weight_decay=0.5, eps=0.0).step()
    # m_hat = g and v_hat = g**2 on the first step: the Adam update is lr * sign(g)
    np.testing.assert_allclose(p.detach().numpy(), [0.95 - 0.1, -1.9 + 0.1], rtol=1e-12)


def test_radam_takes_plain_momentum_steps_before_rectifying():
    p = _param([1.0, -2.0], [0.3, -4.0], minigrad.float64)
    optim.RAdam([p], lr=0.1).step()  # rho_1 = 1 <= 5: p - lr * m_hat, and m_hat = g
    np.testing.assert_allclose(p.detach().numpy(), [1.0 - 0.03, -2.0 + 0.4], rtol=1e-12)


def test_nadam_first_step_by_the_formula():
    g, lr, beta1, beta2, psi, eps = np.array([0.3, -4.0]), 0.1, 0.9, 0.999, 4e-3, 1e-8
    p = _param([1.0, -2.0], g.tolist(), minigrad.float64)
    opt = optim.NAdam([p], lr=lr)
    opt.step()
    mu1 = beta1 * (1 - 0.5 * 0.96 ** psi)
    mu2 = beta1 * (1 - 0.5 * 0.96 ** (2 * psi))
    mu_product = float(np.float32(mu1))  # mu_product is a float32 tensor: 1 * mu1, rounded
    m, v = (1 - beta1) * g, (1 - beta2) * g * g
    denom = np.sqrt(v / (1 - beta2)) + eps
    want = np.array([1.0, -2.0]) - lr * (1 - mu1) / (1 - mu_product) * g / denom \
        - lr * mu2 / (1 - mu_product * mu2) * m / denom
    np.testing.assert_allclose(p.detach().numpy(), want, rtol=1e-10)
    assert opt.state[p]["mu_product"].dtype == minigrad.float32
    assert opt.state[p]["mu_product"].item() == mu_product


def test_adamax_divides_by_the_largest_gradient_seen():
    p = _param([0.0], [2.0], minigrad.float64)
    opt = optim.Adamax([p], lr=0.1, betas=(0.5, 0.5), eps=0.0)
    opt.step()  # m = 1, u = 2: p -= 0.1 / (1 - 0.5) * 1 / 2
    assert p.item() == pytest.approx(-0.1)
    p.grad = minigrad.tensor([0.5], dtype=minigrad.float64)
    opt.step()  # m = 0.75, u = max(1, 0.5) = 1
    assert opt.state[p]["exp_inf"].item() == 1.0
    assert p.item() == pytest.approx(-0.1 - 0.1 / 0.75 * 0.75)


def test_adadelta_first_step_by_the_formula():
    p = _param([1.0], [2.0], minigrad.float64)
    optim.Adadelta([p], rho=0.9, eps=1e-6).step()
    v = 0.1 * 4.0
    delta = math.sqrt(1e-6) / math.sqrt(v + 1e-6) * 2.0
    assert p.item() == pytest.approx(1.0 - delta, rel=1e-12)


def test_rprop_grows_the_step_while_the_sign_holds_and_skips_a_flip():
    p = _param([0.0], [1.0])
    opt = optim.Rprop([p], lr=0.1, etas=(0.5, 1.2))
    opt.step()
    assert p.item() == pytest.approx(-0.1)
    opt.step()  # same sign: step 0.12
    assert p.item() == pytest.approx(-0.22)
    p.grad = minigrad.tensor([-1.0])
    opt.step()  # flipped: the step size halves and this weight waits
    assert p.item() == pytest.approx(-0.22)
    assert opt.state[p]["step_size"].item() == pytest.approx(0.06)
    assert opt.state[p]["prev"].item() == 0.0
    opt.step()  # prev is 0: step with the halved size
    assert p.item() == pytest.approx(-0.16)


def test_asgd_averages_the_weights_after_t0():
    p = _param([1.0], [1.0], minigrad.float64)
    opt = optim.ASGD([p], lr=0.1, lambd=0.0, t0=2)
    seen = []
    for _ in range(5):
        opt.step()
        seen.append(p.item())
    # eta stays lr (lambd = 0); step t sets mu = 1 / max(1, t - t0) for the next step: ax copies p up to
    # step 4 (mu is still 1), then averages the weights from step 4 on
    np.testing.assert_allclose(seen, [0.9, 0.8, 0.7, 0.6, 0.5], rtol=1e-6)
    assert opt.state[p]["ax"].item() == pytest.approx((0.6 + 0.5) / 2)
    assert opt.state[p]["mu"].item() == pytest.approx(1 / 3)
    assert opt.state[p]["eta"].dtype == minigrad.float32


@pytest.mark.parametrize("cls", NEW_OPTIMIZERS, ids=lambda c: c.__name__)
def test_each_new_optimizer_fits_a_line(cls):
    rng = np.random.RandomState(0)
    x = minigrad.tensor(rng.uniform(-1, 1, (32, 2)).tolist())
    y = x @ minigrad.tensor([[2.0], [-1.0]]) + 0.5
    minigrad.manual_seed(0)
    lin = minigrad.nn.Linear(2, 1)
    lr = {optim.Adadelta: 10.0, optim.Rprop: 0.01, optim.ASGD: 0.1, optim.RAdam: 0.1}.get(cls, 0.05)
    opt = cls(lin.parameters(), lr=lr)
    losses = []
    for _ in range(150):
        opt.zero_grad()
        loss = ((lin(x) - y) ** 2).mean()
        loss.backward()
        opt.step()
        losses.append(loss.item())
    assert losses[-1] < 0.05 * losses[0]
    assert lin.weight.is_leaf and lin.weight.grad_fn is None


@pytest.mark.parametrize("cls", NEW_OPTIMIZERS, ids=lambda c: c.__name__)
def test_fused_differentiable_and_capturable_are_refused(cls):
    p = [minigrad.zeros(1, requires_grad=True)]
    with pytest.raises(NotImplementedError):
        cls(p, differentiable=True)
    with pytest.raises(NotImplementedError):
        cls(p, capturable=True)


def test_adamw_keeps_decoupling_when_loading_an_adam_state_dict():
    p = _param([1.0], [1.0])
    adam = optim.Adam([p], weight_decay=0.1)
    adam.step()
    adamw = optim.AdamW([p])
    adamw.load_state_dict(adam.state_dict())
    assert adamw.param_groups[0]["decoupled_weight_decay"] is True
    assert adamw.param_groups[0]["weight_decay"] == 0.1


# ---------------------------------------------------------------------------------- step hooks
def test_step_hooks_belong_to_one_optimizer_and_run_in_order():
    p, q = _param([1.0], [1.0]), _param([1.0], [1.0])
    a, b = optim.SGD([p], lr=0.1), optim.SGD([q], lr=0.1)
    log = []
    a.register_step_pre_hook(lambda opt, args, kwargs: log.append(("pre1", p.item())))
    a.register_step_pre_hook(lambda opt, args, kwargs: log.append(("pre2", p.item())))
    a.register_step_post_hook(lambda opt, args, kwargs: log.append(("post", p.item())))
    b.step()
    assert log == []
    a.step()
    assert log == [("pre1", 1.0), ("pre2", 1.0), ("post", pytest.approx(0.9))]


def test_a_handle_removes_its_hook_also_as_a_context_manager():
    p = _param([1.0], [1.0])
    opt = optim.NAdam([p])
    calls = []
    with opt.register_step_post_hook(lambda *args: calls.append("in")):
        opt.step()
    opt.step()
    handle = register_optimizer_step_pre_hook(lambda *args: calls.append("global"))
    try:
        optim.Rprop([_param([1.0], [1.0])]).step()
    finally:
        handle.remove()
    optim.Rprop([_param([1.0], [1.0])]).step()
    assert calls == ["in", "global"]


def test_global_post_hooks_run_after_the_optimizer_s_own():
    p = _param([1.0], [1.0])
    opt = optim.AdamW([p])
    calls = []
    handle = register_optimizer_step_post_hook(lambda *args: calls.append("global"))
    opt.register_step_post_hook(lambda *args: calls.append("own"))
    try:
        opt.step()
    finally:
        handle.remove()
    assert calls == ["own", "global"]


def test_the_hooks_leave_the_shown_step_source_alone():
    optim.SGD([minigrad.zeros(1, requires_grad=True)])
    optim.Adam([minigrad.zeros(1, requires_grad=True)])
    for cls in (optim.SGD, optim.Adam):
        source = inspect.getsource(inspect.unwrap(cls.step))
        assert source.lstrip().startswith("@grad_mode.no_grad()") and "hook" not in source
        assert cls.step.__qualname__ == f"{cls.__name__}.step"


def test_a_scheduler_still_notices_the_optimizer_step_through_the_hooks():
    p = _param([1.0], [1.0])
    opt = optim.AdamW([p])
    calls = []
    opt.register_step_pre_hook(lambda *args: calls.append("pre"))
    sched = S.LinearLR(opt)
    opt.step()
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no "lr_scheduler.step() before optimizer.step()" warning
        sched.step()
    assert calls == ["pre"]


def test_optimizers_with_hooks_deepcopy():
    p = _param([1.0], [1.0])
    opt = optim.RAdam([p])
    opt.register_step_post_hook(lambda *args: None)
    opt.step()
    clone = copy.deepcopy(opt)
    assert len(clone._optimizer_step_post_hooks) == 1
    assert clone.state_dict()["state"][0]["step"].item() == 1.0


# ---------------------------------------------------------------------------------- schedulers
class _Halving:
    """A callable object: its attributes are saved with the scheduler (a lambda is not)."""

    def __init__(self, factor):
        self.factor = factor

    def __call__(self, x):
        return self.factor ** x


def _sgd(lr=0.1):
    return optim.SGD([minigrad.zeros(1, requires_grad=True)], lr=lr, momentum=0.9)


def test_cyclic_saves_a_callable_scale_fn_s_attributes():
    sched = S.CyclicLR(_sgd(), 0.01, 0.1, step_size_up=2, scale_fn=_Halving(0.5))
    state = sched.state_dict()
    assert state["_scale_fn_custom"] == {"factor": 0.5} and "_scale_fn_ref" not in state
    other = S.CyclicLR(_sgd(), 0.01, 0.1, step_size_up=2, scale_fn=_Halving(0.9))
    other.load_state_dict(state)
    assert other._scale_fn_custom.factor == 0.5
    assert S.CyclicLR(_sgd(), 0.01, 0.1).state_dict()["_scale_fn_custom"] is None


def test_multiplicative_saves_a_callable_object_s_attributes():
    sched = S.MultiplicativeLR(_sgd(), _Halving(0.5))
    assert sched.state_dict()["lr_lambdas"] == [{"factor": 0.5}]
    assert S.MultiplicativeLR(_sgd(), lambda e: 0.5).state_dict()["lr_lambdas"] == [None]


def test_sequential_saves_each_scheduler():
    opt = _sgd()
    sched = S.SequentialLR(opt, [S.ConstantLR(opt), S.ExponentialLR(opt, 0.5)], milestones=[2])
    state = sched.state_dict()
    assert [s["gamma"] for s in state["_schedulers"][1:]] == [0.5]
    assert "optimizer" not in state and "optimizer" not in state["_schedulers"][0]


def test_one_cycle_walks_from_max_lr_over_div_factor_to_the_minimum():
    opt = _sgd()
    sched = S.OneCycleLR(opt, max_lr=1.0, total_steps=10, pct_start=0.3, div_factor=10.0, final_div_factor=100.0)
    lrs = [sched.get_last_lr()[0]]
    for _ in range(9):
        opt.step()
        sched.step()
        lrs.append(sched.get_last_lr()[0])
    assert lrs[0] == pytest.approx(0.1) and max(lrs) == pytest.approx(1.0) and lrs.index(max(lrs)) == 2
    assert lrs[-1] == pytest.approx(0.1 / 100.0)
    assert opt.param_groups[0]["momentum"] == pytest.approx(0.95)  # back at max_momentum at the end


def test_warm_restarts_restart_at_base_lr():
    opt = _sgd(1.0)
    sched = S.CosineAnnealingWarmRestarts(opt, T_0=3, T_mult=2)
    lrs = [sched.get_last_lr()[0]]
    for _ in range(9):
        opt.step()
        sched.step()
        lrs.append(sched.get_last_lr()[0])
    assert [i for i, lr in enumerate(lrs) if lr == 1.0] == [0, 3, 9]  # periods 3, then 6
    assert sched._step_count == 0  # (PyTorch's own step() does not count)


# ---------------------------------------------------------------------------------- LBFGS
def _rosenbrock_fit(**options):
    xy = minigrad.tensor([-1.5, 2.0], dtype=minigrad.float64, requires_grad=True)
    opt = optim.LBFGS([xy], **options)
    calls = []

    def closure():
        opt.zero_grad()
        x, y = xy[0], xy[1]
        loss = (1 - x) ** 2 + 100 * (y - x ** 2) ** 2
        loss.backward()
        calls.append(loss.item())
        return loss
    for _ in range(10):
        opt.step(closure)
    return xy, opt, calls


def test_lbfgs_with_strong_wolfe_finds_the_rosenbrock_minimum():
    xy, opt, calls = _rosenbrock_fit(line_search_fn="strong_wolfe", history_size=10, max_iter=50)
    np.testing.assert_allclose(xy.detach().numpy(), [1.0, 1.0], atol=1e-4)
    assert calls[-1] < 1e-9
    state = opt.state[xy]  # everything lives under the first parameter
    assert [state["func_evals"], state["n_iter"], len(calls)] == [59, 49, 59]  # (PyTorch 2.13's counts)
    assert len(state["old_dirs"]) == 10 and xy.is_leaf and xy.grad_fn is None


def test_lbfgs_step_returns_the_first_loss_and_counts_evaluations():
    xy, opt, calls = _rosenbrock_fit(max_iter=3, lr=0.01)
    # one evaluation at the start of step(), one after each fixed step; max_eval = 3 * 5 // 4 = 3 evaluations
    # end each step() after 2 iterations
    assert len(calls) == 30 and opt.state[xy]["func_evals"] == 30 and opt.state[xy]["n_iter"] == 20
    assert calls[0] == 12.5 and calls[-1] == pytest.approx(9.610894692554801)
