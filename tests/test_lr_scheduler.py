"""minigrad.optim.lr_scheduler: the rates of every schedule, its warnings and errors, as PyTorch 2.13.

``_schedules`` runs on either library; its answers with torch are recorded in ``RECORDED`` (so the test
needs no torch) and compared live when torch is importable.  The chainable rates are compared exactly:
minigrad computes them with PyTorch's formulas, in the same order."""
import warnings

import pytest

import minigrad

def _schedules(T):
    S, out = T.optim.lr_scheduler, []
    makers = [lambda o: S.StepLR(o, step_size=3, gamma=0.5), lambda o: S.MultiStepLR(o, milestones=[2, 5, 5], gamma=0.1),
              lambda o: S.ExponentialLR(o, gamma=0.9), lambda o: S.CosineAnnealingLR(o, T_max=4, eta_min=0.001),
              lambda o: S.LambdaLR(o, [lambda e: 0.5 ** e, lambda e: e + 1])]
    for make in makers:
        w, b = T.zeros(2, requires_grad=True), T.zeros(1, requires_grad=True)
        opt = T.optim.SGD([{"params": [w]}, {"params": [b], "lr": 0.3}], lr=0.1, momentum=0.9)
        sched = make(opt)
        lrs = [sched.get_last_lr()]
        for _ in range(10):
            (w.sum() + b.sum()).backward()
            opt.step()
            opt.zero_grad()
            sched.step()
            lrs.append(sched.get_last_lr())
        out += [lrs, [g["initial_lr"] for g in opt.param_groups], sched.base_lrs]
    return out


def _warnings_and_errors(T):
    S, out = T.optim.lr_scheduler, []
    opt = T.optim.SGD([T.zeros(1, requires_grad=True)], lr=1.0)
    sched = S.StepLR(opt, 1)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        sched.step()  # before any optimizer.step(): warns once
        sched.step()
        sched.get_lr()  # outside step(): warns
        sched.step(5)  # the deprecated epoch argument: warns, and jumps by the closed form
    out += [[str(c.message)[:60] for c in caught], sched.get_last_lr(), sched.last_epoch]
    for bad in [lambda: S.StepLR(T.optim.SGD([T.zeros(1, requires_grad=True)], lr=1.0), 2, last_epoch=3),
                lambda: S.StepLR("sgd", 2), lambda: S.LambdaLR(opt, [lambda e: 1, lambda e: 2])]:
        try:
            bad()
        except (KeyError, TypeError, ValueError) as e:
            out += [type(e).__name__, str(e)[:60]]
    return out


def _plateau(T):
    S, out = T.optim.lr_scheduler, []
    losses = [1.0, 0.9, 0.9, 0.95, 0.91, 0.9, 0.89999, 0.7, 0.71, 0.72, 0.73, 0.74, 0.75, 0.76]
    for kwargs in [{}, {"patience": 2}, {"patience": 1, "cooldown": 2, "factor": 0.5}, {"mode": "max", "patience": 0},
                   {"threshold_mode": "abs", "threshold": 0.05, "patience": 1, "min_lr": [0.02, 0.001]}]:
        opt = T.optim.SGD([{"params": [T.zeros(1, requires_grad=True)]},
                           {"params": [T.zeros(1, requires_grad=True)], "lr": 0.01}], lr=0.1)
        sched = S.ReduceLROnPlateau(opt, **kwargs)
        rates = []
        for loss in losses:
            sched.step(T.tensor(loss))
            rates.append(sched.get_last_lr())
        out += [rates, sched.best, sched.num_bad_epochs, sched.last_epoch,
                sorted(k for k in sched.state_dict() if not k.startswith("_"))]
    opt = T.optim.SGD([T.zeros(1, requires_grad=True)], lr=0.1)
    for bad in [lambda: S.ReduceLROnPlateau(opt, factor=1.0), lambda: S.ReduceLROnPlateau(opt, mode="up"),
                lambda: S.ReduceLROnPlateau(opt, threshold_mode="x"), lambda: S.ReduceLROnPlateau(opt, min_lr=[0, 0])]:
        try:
            bad()
        except ValueError as e:
            out += [str(e)]
    return out


RECORDED = {'plateau': [[[0.1, 0.01], [0.1, 0.01], [0.1, 0.01], [0.1, 0.01], [0.1, 0.01], [0.1, 0.01], [0.1, 0.01],
              [0.1, 0.01], [0.1, 0.01], [0.1, 0.01], [0.1, 0.01], [0.1, 0.01], [0.1, 0.01], [0.1, 0.01]],
             0.699999988079071, 6, 14,
             ['best', 'cooldown', 'cooldown_counter', 'default_min_lr', 'eps', 'factor', 'last_epoch', 'min_lrs',
              'mode', 'mode_worse', 'num_bad_epochs', 'patience', 'threshold', 'threshold_mode'],
             [[0.1, 0.01], [0.1, 0.01], [0.1, 0.01], [0.1, 0.01], [0.010000000000000002, 0.001],
              [0.010000000000000002, 0.001], [0.010000000000000002, 0.001], [0.010000000000000002, 0.001],
              [0.010000000000000002, 0.001], [0.010000000000000002, 0.001], [0.0010000000000000002, 0.0001],
              [0.0010000000000000002, 0.0001], [0.0010000000000000002, 0.0001], [0.00010000000000000003, 1e-05]],
             0.699999988079071, 0, 14,
             ['best', 'cooldown', 'cooldown_counter', 'default_min_lr', 'eps', 'factor', 'last_epoch', 'min_lrs',
              'mode', 'mode_worse', 'num_bad_epochs', 'patience', 'threshold', 'threshold_mode'],
             [[0.1, 0.01], [0.1, 0.01], [0.1, 0.01], [0.05, 0.005], [0.05, 0.005], [0.05, 0.005], [0.05, 0.005],
              [0.05, 0.005], [0.05, 0.005], [0.025, 0.0025], [0.025, 0.0025], [0.025, 0.0025], [0.025, 0.0025],
              [0.0125, 0.00125]],
             0.699999988079071, 0, 14,
             ['best', 'cooldown', 'cooldown_counter', 'default_min_lr', 'eps', 'factor', 'last_epoch', 'min_lrs',
              'mode', 'mode_worse', 'num_bad_epochs', 'patience', 'threshold', 'threshold_mode'],
             [[0.1, 0.01], [0.010000000000000002, 0.001], [0.0010000000000000002, 0.0001],
              [0.00010000000000000003, 1e-05], [1.0000000000000004e-05, 1.0000000000000002e-06],
              [1.0000000000000004e-06, 1.0000000000000002e-07], [1.0000000000000005e-07, 1.0000000000000004e-08],
              [1.0000000000000005e-08, 1.0000000000000004e-08], [1.0000000000000005e-08, 1.0000000000000004e-08],
              [1.0000000000000005e-08, 1.0000000000000004e-08], [1.0000000000000005e-08, 1.0000000000000004e-08],
              [1.0000000000000005e-08, 1.0000000000000004e-08], [1.0000000000000005e-08, 1.0000000000000004e-08],
              [1.0000000000000005e-08, 1.0000000000000004e-08]],
             1.0, 0, 14,
             ['best', 'cooldown', 'cooldown_counter', 'default_min_lr', 'eps', 'factor', 'last_epoch', 'min_lrs',
              'mode', 'mode_worse', 'num_bad_epochs', 'patience', 'threshold', 'threshold_mode'],
             [[0.1, 0.01], [0.1, 0.01], [0.1, 0.01], [0.02, 0.001], [0.02, 0.001], [0.02, 0.001], [0.02, 0.001],
              [0.02, 0.001], [0.02, 0.001], [0.02, 0.001], [0.02, 0.001], [0.02, 0.001], [0.02, 0.001],
              [0.02, 0.001]],
             0.699999988079071, 0, 14,
             ['best', 'cooldown', 'cooldown_counter', 'default_min_lr', 'eps', 'factor', 'last_epoch', 'min_lrs',
              'mode', 'mode_worse', 'num_bad_epochs', 'patience', 'threshold', 'threshold_mode'],
             'Factor should be < 1.0.', 'mode up is unknown!', 'threshold mode x is unknown!',
             'expected 1 min_lrs, got 2'],
 'schedules': [[[0.1, 0.3], [0.1, 0.3], [0.1, 0.3], [0.05, 0.15], [0.05, 0.15], [0.05, 0.15], [0.025, 0.075],
                [0.025, 0.075], [0.025, 0.075], [0.0125, 0.0375], [0.0125, 0.0375]],
               [0.1, 0.3], [0.1, 0.3],
               [[0.1, 0.3], [0.1, 0.3], [0.010000000000000002, 0.03], [0.010000000000000002, 0.03],
                [0.010000000000000002, 0.03], [0.00010000000000000005, 0.00030000000000000003],
                [0.00010000000000000005, 0.00030000000000000003], [0.00010000000000000005, 0.00030000000000000003],
                [0.00010000000000000005, 0.00030000000000000003], [0.00010000000000000005, 0.00030000000000000003],
                [0.00010000000000000005, 0.00030000000000000003]],
               [0.1, 0.3], [0.1, 0.3],
               [[0.1, 0.3], [0.09000000000000001, 0.27], [0.08100000000000002, 0.24300000000000002],
                [0.07290000000000002, 0.21870000000000003], [0.06561000000000002, 0.19683000000000003],
                [0.05904900000000002, 0.17714700000000003], [0.05314410000000002, 0.15943230000000003],
                [0.04782969000000002, 0.14348907000000002], [0.043046721000000024, 0.12914016300000003],
                [0.03874204890000002, 0.11622614670000003], [0.03486784401000002, 0.10460353203000003]],
               [0.1, 0.3], [0.1, 0.3],
               [[0.1, 0.3], [0.0855017856687341, 0.2562124637873888], [0.0505, 0.1505],
                [0.0154982143312659, 0.044787536212611154], [0.001, 0.001],
                [0.015498214331265896, 0.04478753621261114], [0.05050000000000001, 0.15050000000000002],
                [0.08550178566873413, 0.25621246378738893], [0.10000000000000003, 0.3000000000000001],
                [0.08550178566873413, 0.256212463787389], [0.05050000000000003, 0.1505000000000001]],
               [0.1, 0.3], [0.1, 0.3],
               [[0.1, 0.3], [0.05, 0.6], [0.025, 0.8999999999999999], [0.0125, 1.2], [0.00625, 1.5],
                [0.003125, 1.7999999999999998], [0.0015625, 2.1], [0.00078125, 2.4],
                [0.000390625, 2.6999999999999997], [0.0001953125, 3.0], [9.765625e-05, 3.3]],
               [0.1, 0.3], [0.1, 0.3]],
 'warnings_and_errors': [['Detected call of `lr_scheduler.step()` before `optimizer.ste',
                          'To get the last learning rate computed by the scheduler, ple',
                          'The epoch parameter in `scheduler.step()` was not necessary '],
                         [1.0000000000000003e-05], 5, 'KeyError',
                         '"param \'initial_lr\' is not specified in param_groups[0] when', 'TypeError',
                         'str is not an Optimizer', 'ValueError', 'Expected 1 lr_lambdas, but got 2']}


def test_chainable_rates_are_pytorchs():
    assert _schedules(minigrad) == RECORDED["schedules"]  # (exactly: the same floats)


def test_warnings_and_errors():
    assert _warnings_and_errors(minigrad) == RECORDED["warnings_and_errors"]


def test_the_optimizer_is_not_kept_alive_by_its_scheduler():
    import gc
    import weakref
    opt = minigrad.optim.SGD([minigrad.zeros(1, requires_grad=True)], lr=1.0)
    minigrad.optim.lr_scheduler.StepLR(opt, 1)
    ref = weakref.ref(opt)
    gc.disable()
    try:
        del opt
        assert ref() is None  # (the wrapped step holds the optimizer weakly: no cycle)
    finally:
        gc.enable()


def test_reduce_on_plateau():
    assert _plateau(minigrad) == RECORDED["plateau"]


@pytest.mark.parametrize("run", [_schedules, _warnings_and_errors, _plateau])
def test_live_against_torch(run):
    torch = pytest.importorskip("torch")
    assert run(minigrad) == run(torch)
