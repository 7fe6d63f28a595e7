"""PyTorch-parity cases (see ``cases.py`` for the conventions and the input helpers).

Optimizers (AdamW, NAdam, RAdam, Adamax, Adadelta, Rprop, ASGD), optimizer step hooks and the
learning-rate schedulers: parameters, state and ``state_dict()`` after several steps, learning-rate
(and momentum / betas) sequences over 30 steps with two param groups, warnings and error messages.
An optimizer step runs under ``no_grad`` and is not differentiable: the second-order aspect checked
is that parameters stay leaves when the gradient was made with ``create_graph=True``.
"""
import numpy as np  # noqa: F401

from . import case  # noqa: F401
from .cases import arr, const, fwd_bwd, leaf  # noqa: F401


# ---------------------------------------------------------------------------------- optimizers
def _fit(T, make, dtype="float32", steps=8):
    """A 2x3 linear layer fitted with ``make(param_groups)``: the bias is a second group with its own lr."""
    w = leaf(T, 300, 3, 2, dtype=dtype)
    b = leaf(T, 301, 2, dtype=dtype)
    x = const(T, 302, 5, 3, dtype=dtype)
    y = const(T, 303, 5, 2, dtype=dtype)
    opt = make([{"params": [w]}, {"params": [b], "lr": 0.03}])
    losses = []
    for _ in range(steps):
        opt.zero_grad()
        loss = ((x @ w + b - y) ** 2).mean()
        loss.backward()
        opt.step()
        losses.append(loss.item())
    return w, b, losses, opt


def _optimizer_case(make, dtype):
    def c(T, F, o):
        w, b, losses, opt = _fit(T, lambda groups: make(T, groups), dtype)
        o["w"], o["b"], o["losses"] = w, b, losses
        o.flags("w", w)
        sd = opt.state_dict()
        o["state"] = sd["state"]
        o["param_groups"] = sd["param_groups"]
        o["defaults"] = opt.defaults
        o["state_w_keys"] = list(opt.state[w])
        o.str("repr", opt)
    return c


_OPTIMIZERS = {
    "adamw": lambda T, g: T.optim.AdamW(g, lr=0.05),
    "adamw_amsgrad_maximize": lambda T, g: T.optim.AdamW(g, lr=0.05, amsgrad=True, maximize=True, weight_decay=0.1),
    "adamw_no_decay": lambda T, g: T.optim.AdamW(g, lr=0.02, betas=(0.8, 0.9), eps=1e-6, weight_decay=0),
    "nadam": lambda T, g: T.optim.NAdam(g, lr=0.05),
    "nadam_decay": lambda T, g: T.optim.NAdam(g, lr=0.05, weight_decay=0.1, momentum_decay=0.01, maximize=True),
    "nadam_decoupled": lambda T, g: T.optim.NAdam(g, lr=0.05, weight_decay=0.1, decoupled_weight_decay=True),
    "radam": lambda T, g: T.optim.RAdam(g, lr=0.05, betas=(0.8, 0.9)),  # beta2 0.9: rectified from step 5 on
    "radam_decay": lambda T, g: T.optim.RAdam(g, lr=0.05, betas=(0.8, 0.9), weight_decay=0.1, maximize=True),
    "radam_decoupled": lambda T, g: T.optim.RAdam(g, lr=0.05, betas=(0.8, 0.9), weight_decay=0.1,
                                                  decoupled_weight_decay=True),
    "radam_default": lambda T, g: T.optim.RAdam(g),  # beta2 0.999: never rectified in 8 steps
    "adamax": lambda T, g: T.optim.Adamax(g, lr=0.05),
    "adamax_decay": lambda T, g: T.optim.Adamax(g, lr=0.05, betas=(0.8, 0.9), weight_decay=0.1, maximize=True),
    "adadelta": lambda T, g: T.optim.Adadelta(g),
    "adadelta_decay": lambda T, g: T.optim.Adadelta(g, lr=0.5, rho=0.8, eps=1e-4, weight_decay=0.1, maximize=True),
    "rprop": lambda T, g: T.optim.Rprop(g, lr=0.05),
    "rprop_etas": lambda T, g: T.optim.Rprop(g, lr=0.05, etas=(0.3, 1.1), step_sizes=(0.01, 0.06), maximize=True),
    "asgd": lambda T, g: T.optim.ASGD(g, lr=0.05),
    "asgd_averaging": lambda T, g: T.optim.ASGD(g, lr=0.05, lambd=0.01, alpha=0.5, t0=3, weight_decay=0.1),
    "asgd_maximize": lambda T, g: T.optim.ASGD(g, lr=0.02, t0=0, maximize=True),
}

for _name, _make in _OPTIMIZERS.items():
    case(_optimizer_case(_make, "float32"), name=f"opt_{_name}")
    case(_optimizer_case(_make, "float64"), name=f"opt_{_name}_f64")


@case
def opt_adamw_is_adam_with_decoupled_decay(T, F, o):
    """AdamW(wd) and Adam(wd, decoupled_weight_decay=True) take the same steps; Adam(wd) does not."""
    ws = []
    for make in (lambda g: T.optim.AdamW(g, lr=0.05, weight_decay=0.5),
                 lambda g: T.optim.Adam(g, lr=0.05, weight_decay=0.5, decoupled_weight_decay=True),
                 lambda g: T.optim.Adam(g, lr=0.05, weight_decay=0.5)):
        w, b, losses, opt = _fit(T, make)
        ws.append(w)
    o["adamw"], o["adam_decoupled"], o["adam"] = ws
    o["isinstance_adam"] = isinstance(opt, T.optim.Adam)
    o["adamw_isinstance_adam"] = isinstance(T.optim.AdamW([T.zeros(1, requires_grad=True)]), T.optim.Adam)
    o["adamw_default_wd"] = T.optim.AdamW([T.zeros(1, requires_grad=True)]).defaults["weight_decay"]


@case
def opt_load_state_dict_resumes(T, F, o):
    """Save after 4 steps, load into a fresh optimizer over fresh parameters, take 4 more: same as 8 in a row."""
    for name, make in (("nadam", lambda g: T.optim.NAdam(g, lr=0.05)), ("asgd", lambda g: T.optim.ASGD(g, t0=2)),
                       ("rprop", lambda g: T.optim.Rprop(g, lr=0.05)), ("adamw", lambda g: T.optim.AdamW(g))):
        w, b, _, opt = _fit(T, make, steps=4)
        saved = opt.state_dict()
        w2, b2 = w.detach().clone().requires_grad_(), b.detach().clone().requires_grad_()
        opt2 = make([{"params": [w2]}, {"params": [b2], "lr": 0.03}])
        opt2.load_state_dict(saved)
        x, y = const(T, 302, 5, 3), const(T, 303, 5, 2)
        for _ in range(4):
            opt2.zero_grad()
            ((x @ w2 + b2 - y) ** 2).mean().backward()
            opt2.step()
        o[f"{name}.w"] = w2
        o[f"{name}.state"] = opt2.state_dict()["state"]


@case
def opt_params_without_grad_and_closure(T, F, o):
    """A parameter without .grad is skipped (no state made); step(closure) returns the closure's loss."""
    w, idle = leaf(T, 310, 3), leaf(T, 311, 2)
    for name, make in (("nadam", T.optim.NAdam), ("radam", T.optim.RAdam), ("adamax", T.optim.Adamax),
                       ("adadelta", T.optim.Adadelta), ("rprop", T.optim.Rprop), ("asgd", T.optim.ASGD),
                       ("adamw", T.optim.AdamW)):
        opt = make([w, idle])

        def closure():
            opt.zero_grad()
            loss = (w ** 2).sum()
            loss.backward()
            return loss
        o[f"{name}.loss"] = opt.step(closure)
        o[f"{name}.state_len"] = len(opt.state_dict()["state"])
        o[f"{name}.idle"] = idle


@case
def opt_step_after_create_graph(T, F, o):
    """The gradient may come from create_graph=True (it then requires grad): the step still makes no graph."""
    for name, make in (("adamw", T.optim.AdamW), ("nadam", T.optim.NAdam), ("rprop", T.optim.Rprop),
                       ("adadelta", T.optim.Adadelta)):
        w = leaf(T, 320, 4)
        opt = make([w], lr=0.1)
        for _ in range(3):
            opt.zero_grad()
            (g,) = T.autograd.grad((w ** 3).sum(), w, create_graph=True)
            w.grad = g
            o.flags(f"{name}.grad{_}", w.grad)
            opt.step()
        o[f"{name}.w"] = w
        o.flags(f"{name}.w", w)
        o.flags(f"{name}.exp", list(opt.state[w].values())[-1])


@case
def opt_errors(T, F, o):
    p = [T.zeros(2, requires_grad=True)]
    bad = {
        "adamw_lr": lambda: T.optim.AdamW(p, lr=-1), "adamw_beta0": lambda: T.optim.AdamW(p, betas=(1.0, 0.9)),
        "adamw_beta1": lambda: T.optim.AdamW(p, betas=(0.9, -0.1)), "adamw_eps": lambda: T.optim.AdamW(p, eps=-1e-8),
        "adamw_wd": lambda: T.optim.AdamW(p, weight_decay=-1),
        "nadam_lr": lambda: T.optim.NAdam(p, lr=-0.1), "nadam_eps": lambda: T.optim.NAdam(p, eps=-1),
        "nadam_beta": lambda: T.optim.NAdam(p, betas=(0.9, 1.5)), "nadam_wd": lambda: T.optim.NAdam(p, weight_decay=-2),
        "nadam_mdecay": lambda: T.optim.NAdam(p, momentum_decay=-1),
        "radam_lr": lambda: T.optim.RAdam(p, lr=-0.5), "radam_beta": lambda: T.optim.RAdam(p, betas=(-0.5, 0.9)),
        "radam_wd": lambda: T.optim.RAdam(p, weight_decay=-0.1), "radam_eps": lambda: T.optim.RAdam(p, eps=-1),
        "adamax_lr": lambda: T.optim.Adamax(p, lr=-1), "adamax_beta": lambda: T.optim.Adamax(p, betas=(-0.1, 0.9)),
        "adamax_beta1": lambda: T.optim.Adamax(p, betas=(0.9, 1.0)),
        "adamax_wd": lambda: T.optim.Adamax(p, weight_decay=-1),
        "adadelta_lr": lambda: T.optim.Adadelta(p, lr=-1), "adadelta_rho": lambda: T.optim.Adadelta(p, rho=1.5),
        "adadelta_rho_neg": lambda: T.optim.Adadelta(p, rho=-0.1), "adadelta_eps": lambda: T.optim.Adadelta(p, eps=-1),
        "adadelta_wd": lambda: T.optim.Adadelta(p, weight_decay=-1),
        "rprop_lr": lambda: T.optim.Rprop(p, lr=-1), "rprop_etas": lambda: T.optim.Rprop(p, etas=(0.5, 0.9)),
        "rprop_etas0": lambda: T.optim.Rprop(p, etas=(0, 1.2)),
        "rprop_etas1": lambda: T.optim.Rprop(p, etas=(1.0, 1.2)),
        "asgd_lr": lambda: T.optim.ASGD(p, lr=-1), "asgd_wd": lambda: T.optim.ASGD(p, weight_decay=-1),
        "empty": lambda: T.optim.AdamW([]), "tensor": lambda: T.optim.NAdam(T.zeros(2)),
        "set": lambda: T.optim.Rprop({T.zeros(1, requires_grad=True)}),
        "non_leaf": lambda: T.optim.Adadelta([T.zeros(2, requires_grad=True) * 2]),
    }
    for key, fn in bad.items():
        o.err(key, fn)
    # the checks come in PyTorch's order: the first bad argument is the one reported
    o.err("order", lambda: T.optim.NAdam(p, lr=-1, eps=-1, momentum_decay=-1))
    o.err("order2", lambda: T.optim.Adadelta(p, rho=2, eps=-1))


# ---------------------------------------------------------------------------------- step hooks
@case
def opt_step_hooks(T, F, o):
    from importlib import import_module
    optimizer_module = import_module(T.__name__ + ".optim.optimizer")
    w = leaf(T, 330, 3)
    opt = T.optim.AdamW([w], lr=0.1)
    log = []
    pre = opt.register_step_pre_hook(
        lambda op, args, kwargs: log.append(["pre", op is opt, len(args), args[0] is opt, sorted(kwargs)]))
    post = opt.register_step_post_hook(lambda op, args, kwargs: log.append(["post", op is opt, sorted(kwargs)]))
    gpre = optimizer_module.register_optimizer_step_pre_hook(lambda op, args, kwargs: log.append(["global pre"]))
    gpost = optimizer_module.register_optimizer_step_post_hook(lambda op, args, kwargs: log.append(["global post"]))
    (w ** 2).sum().backward()
    opt.step()

    def closure():
        log.append(["closure"])
        return T.tensor(2.5)
    o["closure_loss"] = opt.step(closure=closure)
    o["w"] = w
    gpre.remove()
    gpost.remove()
    pre.remove()
    opt.step()
    post.remove()
    post.remove()  # removing twice is harmless
    opt.step()
    o.raw("log", [list(entry) for entry in log])
    o["w_after"] = w

    # a pre hook may replace the arguments: (args, kwargs) -- args start with the optimizer
    opt.register_step_pre_hook(lambda op, args, kwargs: ((op,), {"closure": lambda: T.tensor(7.0)}))
    o["replaced_loss"] = opt.step()
    opt2 = T.optim.SGD([w], lr=0.1)
    opt2.register_step_pre_hook(lambda op, args, kwargs: 5)
    o.err("bad_pre_hook", lambda: opt2.step())
    o.raw("handle_type", type(pre).__name__)


# ---------------------------------------------------------------------------------- lr schedulers
def _two_groups(T, adam=False):
    w, b = T.zeros(2, requires_grad=True), T.zeros(1, requires_grad=True)
    groups = [{"params": [w]}, {"params": [b], "lr": 0.3}]
    opt = T.optim.AdamW(groups, lr=0.1) if adam else T.optim.SGD(groups, lr=0.1, momentum=0.9)
    return opt, w, b


def _schedule_case(make, adam=False, steps=30):
    def c(T, F, o):
        S = T.optim.lr_scheduler
        opt, w, b = _two_groups(T, adam)
        sched = o.warns("init_warnings", lambda: make(S, opt))
        lrs, momenta = [sched.get_last_lr()], []
        for _ in range(steps):
            momenta.append([g["betas"][0] if adam else g["momentum"] for g in opt.param_groups])
            (w.sum() + b.sum()).backward()
            opt.step()
            opt.zero_grad()
            sched.step()
            lrs.append(sched.get_last_lr())
        o["lrs"], o["momenta"] = lrs, momenta
        o["group_lrs"] = [g["lr"] for g in opt.param_groups]
        o["group_keys"] = [sorted(k for k in g if k != "params") for g in opt.param_groups]
        o["initial_lr"] = [g.get("initial_lr") for g in opt.param_groups]
        o.val("last_epoch", lambda: sched.last_epoch)  # (ChainedScheduler has none)
        o["w"] = w
        o["state_dict"] = sched.state_dict()
        o.raw("type", [type(sched).__name__, isinstance(sched, S.LRScheduler)])
    return c


_SCHEDULES = {
    "multiplicative": lambda S, o: S.MultiplicativeLR(o, [lambda e: 0.95, lambda e: 0.9 if e % 2 else 1.0]),
    "multiplicative_one": lambda S, o: S.MultiplicativeLR(o, lambda e: 0.97),
    "constant": lambda S, o: S.ConstantLR(o, factor=0.5, total_iters=4),
    "constant_default": lambda S, o: S.ConstantLR(o),
    "linear": lambda S, o: S.LinearLR(o, start_factor=0.25, end_factor=0.9, total_iters=7),
    "linear_default": lambda S, o: S.LinearLR(o),
    "linear_decay": lambda S, o: S.LinearLR(o, start_factor=1.0, end_factor=0.1, total_iters=20),
    "polynomial": lambda S, o: S.PolynomialLR(o, total_iters=12, power=2.0),
    "polynomial_default": lambda S, o: S.PolynomialLR(o),
    "sequential": lambda S, o: S.SequentialLR(o, [S.LinearLR(o, 0.1, total_iters=5), S.CosineAnnealingLR(o, T_max=10),
                                                  S.StepLR(o, 3)], milestones=[5, 15]),
    "sequential_exp": lambda S, o: S.SequentialLR(o, [S.ConstantLR(o, factor=0.2, total_iters=2),
                                                      S.ExponentialLR(o, gamma=0.9)], milestones=[3]),
    "chained": lambda S, o: S.ChainedScheduler([S.ConstantLR(o, factor=0.1, total_iters=3),
                                                S.ExponentialLR(o, gamma=0.9)]),
    "chained_opt": lambda S, o: S.ChainedScheduler([S.LinearLR(o, 0.5, total_iters=4), S.MultiStepLR(o, [6, 12]),
                                                    S.PolynomialLR(o, total_iters=25)], optimizer=o),
    "warm_restarts": lambda S, o: S.CosineAnnealingWarmRestarts(o, T_0=4, T_mult=2, eta_min=0.001),
    "warm_restarts_1": lambda S, o: S.CosineAnnealingWarmRestarts(o, T_0=5),
    "cyclic": lambda S, o: S.CyclicLR(o, base_lr=0.01, max_lr=[0.1, 0.2], step_size_up=4, step_size_down=6),
    "cyclic_triangular2": lambda S, o: S.CyclicLR(o, base_lr=0.01, max_lr=0.1, step_size_up=3, mode="triangular2",
                                                  base_momentum=[0.7, 0.8], max_momentum=0.95),
    "cyclic_exp_range": lambda S, o: S.CyclicLR(o, base_lr=[0.01, 0.02], max_lr=0.1, step_size_up=3, mode="exp_range",
                                                gamma=0.9, cycle_momentum=False),
    "cyclic_scale_fn": lambda S, o: S.CyclicLR(o, 0.01, 0.1, step_size_up=2, scale_fn=lambda x: 0.5 ** x,
                                               scale_mode="iterations"),
    "one_cycle": lambda S, o: S.OneCycleLR(o, max_lr=[0.5, 1.0], total_steps=30),
    "one_cycle_three_phase": lambda S, o: S.OneCycleLR(o, max_lr=0.5, epochs=3, steps_per_epoch=10, three_phase=True,
                                                       anneal_strategy="linear", pct_start=0.25),
    "one_cycle_no_momentum": lambda S, o: S.OneCycleLR(o, max_lr=0.5, total_steps=31, cycle_momentum=False,
                                                       div_factor=10.0, final_div_factor=100.0),
}

for _name, _make in _SCHEDULES.items():
    case(_schedule_case(_make), name=f"opt_sched_{_name}")
for _name in ("cyclic", "one_cycle", "one_cycle_three_phase", "linear", "sequential", "chained", "warm_restarts"):
    case(_schedule_case(_SCHEDULES[_name], adam=True), name=f"opt_sched_{_name}_adam")


@case
def opt_sched_closed_forms(T, F, o):
    """The deprecated step(epoch) jumps with the closed form where there is one (and warns)."""
    S = T.optim.lr_scheduler
    for name, make in (("constant", lambda op: S.ConstantLR(op, factor=0.5, total_iters=4)),
                       ("linear", lambda op: S.LinearLR(op, start_factor=0.2, total_iters=6)),
                       ("polynomial", lambda op: S.PolynomialLR(op, total_iters=8, power=0.5)),
                       ("multiplicative", lambda op: S.MultiplicativeLR(op, lambda e: 0.5))):
        opt, w, b = _two_groups(T)
        sched = make(opt)
        rates = []
        for epoch in (3, 5, 2, 10):
            o.warns(f"{name}.warn{epoch}", lambda: sched.step(epoch))
            rates.append(sched.get_last_lr())
        o[name] = rates


@case
def opt_sched_warm_restarts_epochs(T, F, o):
    """CosineAnnealingWarmRestarts.step(epoch) takes fractional epochs (per batch), without warning."""
    S = T.optim.lr_scheduler
    for t_mult in (1, 2, 3):
        opt, w, b = _two_groups(T)
        sched = S.CosineAnnealingWarmRestarts(opt, T_0=3, T_mult=t_mult, eta_min=0.01)
        rows = []
        for epoch in (0.5, 2.5, 3.0, 7.25, 11.5, 20.0, 1.0):
            o.warns(f"warn{t_mult}_{epoch}", lambda: sched.step(epoch))
            rows.append([sched.get_last_lr(), sched.T_i, sched.T_cur, sched.last_epoch])
        o[f"t_mult{t_mult}"] = rows
        o.err(f"negative{t_mult}", lambda: sched.step(-1))


@case
def opt_sched_warnings(T, F, o):
    """The order warning (scheduler.step() before any optimizer.step()) and get_lr() outside step()."""
    S = T.optim.lr_scheduler
    makers = {"linear": lambda op: S.LinearLR(op), "constant": lambda op: S.ConstantLR(op),
              "polynomial": lambda op: S.PolynomialLR(op),
              "multiplicative": lambda op: S.MultiplicativeLR(op, lambda e: 1),
              "cyclic": lambda op: S.CyclicLR(op, 0.1, 1.0),
              "one_cycle": lambda op: S.OneCycleLR(op, 1.0, total_steps=5),
              "warm_restarts": lambda op: S.CosineAnnealingWarmRestarts(op, 3),
              "sequential": lambda op: S.SequentialLR(op, [S.ConstantLR(op), S.ExponentialLR(op, 0.9)], [2]),
              "chained": lambda op: S.ChainedScheduler([S.ConstantLR(op), S.ExponentialLR(op, 0.9)])}
    for name, make in makers.items():
        opt, w, b = _two_groups(T)
        sched = make(opt)
        o.warns(f"{name}.first", lambda: sched.step())
        o.warns(f"{name}.second", lambda: sched.step())
        # (SequentialLR and ChainedScheduler keep the base class's get_lr: NotImplementedError)
        o.val(f"{name}.get_lr", lambda: o.warns(f"{name}.get_lr_warnings", sched.get_lr))
        o[f"{name}.lrs"] = sched.get_last_lr()
    # in the right order, no warning
    opt, w, b = _two_groups(T)
    sched = S.OneCycleLR(opt, 1.0, total_steps=5)
    (w.sum() + b.sum()).backward()
    opt.step()
    o.warns("right_order", lambda: sched.step())


@case
def opt_sched_one_cycle_past_the_end(T, F, o):
    S = T.optim.lr_scheduler
    opt, w, b = _two_groups(T)
    sched = S.OneCycleLR(opt, 1.0, total_steps=3)
    for i in range(3):
        o.val(f"step{i}", lambda: sched.step())
        o[f"lr{i}"] = sched.get_last_lr()
    o.err("too_many", lambda: sched.step())
    o["last_epoch"] = sched.last_epoch
    o["within_step"] = sched._get_lr_called_within_step


@case
def opt_sched_state_dict_roundtrip(T, F, o):
    """Save a schedule halfway, load it into a new one on a new optimizer: it goes on the same way."""
    S = T.optim.lr_scheduler
    makers = {"sequential": lambda op: S.SequentialLR(op, [S.LinearLR(op, 0.1, total_iters=3),
                                                           S.ExponentialLR(op, 0.8)], [4]),
              "chained": lambda op: S.ChainedScheduler([S.ConstantLR(op, 0.5, 3), S.ExponentialLR(op, 0.9)]),
              "cyclic": lambda op: S.CyclicLR(op, 0.01, 0.1, step_size_up=3, mode="triangular2"),
              "one_cycle": lambda op: S.OneCycleLR(op, 1.0, total_steps=20),
              "warm_restarts": lambda op: S.CosineAnnealingWarmRestarts(op, 3, 2),
              "polynomial": lambda op: S.PolynomialLR(op, 10, 2.0)}
    for name, make in makers.items():
        opt, w, b = _two_groups(T)
        sched = make(opt)
        for _ in range(6):
            opt.step()
            sched.step()
        saved, opt_saved = sched.state_dict(), opt.state_dict()
        opt2, w2, b2 = _two_groups(T)
        sched2 = make(opt2)
        opt2.load_state_dict(opt_saved)
        sched2.load_state_dict(saved)
        rates = []
        for _ in range(6):
            opt2.step()
            sched2.step()
            rates.append(sched2.get_last_lr())
        o[name] = rates


@case
def opt_sched_errors(T, F, o):
    S = T.optim.lr_scheduler
    sgd, w, b = _two_groups(T)
    sgd1 = T.optim.SGD([T.zeros(1, requires_grad=True)], lr=0.1)
    adagrad = T.optim.Adagrad([T.zeros(1, requires_grad=True)])
    bad = {
        "constant_factor": lambda: S.ConstantLR(sgd, factor=1.5),
        "constant_negative": lambda: S.ConstantLR(sgd, factor=-0.5),
        "linear_start": lambda: S.LinearLR(sgd, start_factor=0),
        "linear_end": lambda: S.LinearLR(sgd, end_factor=2),
        "multiplicative_not_callable": lambda: S.MultiplicativeLR(sgd, 0.5),
        "multiplicative_count": lambda: S.MultiplicativeLR(sgd, [lambda e: 1]),
        "multiplicative_resume": lambda: S.MultiplicativeLR(sgd1, lambda e: 1, last_epoch=3),
        "sequential_empty": lambda: S.SequentialLR(sgd, [], []),
        "sequential_milestones": lambda: S.SequentialLR(sgd, [S.StepLR(sgd, 2)], [3]),
        "sequential_plateau": lambda: S.SequentialLR(sgd, [S.StepLR(sgd, 2), S.ReduceLROnPlateau(sgd)], [3]),
        "sequential_other_optimizer": lambda: S.SequentialLR(sgd, [S.StepLR(sgd, 2), S.StepLR(sgd1, 2)], [3]),
        "sequential_not_scheduler": lambda: S.SequentialLR(sgd, [S.StepLR(sgd, 2), 5], [3]),
        "chained_empty": lambda: S.ChainedScheduler([]),
        "chained_other_optimizer": lambda: S.ChainedScheduler([S.StepLR(sgd, 2), S.StepLR(sgd1, 2)]),
        "chained_plateau": lambda: S.ChainedScheduler([S.ReduceLROnPlateau(sgd)]),
        "warm_t0": lambda: S.CosineAnnealingWarmRestarts(sgd, T_0=0),
        "warm_t0_float": lambda: S.CosineAnnealingWarmRestarts(sgd, T_0=2.0),
        "warm_tmult": lambda: S.CosineAnnealingWarmRestarts(sgd, T_0=2, T_mult=0),
        "warm_eta_min": lambda: S.CosineAnnealingWarmRestarts(sgd, T_0=2, eta_min="a"),
        "cyclic_no_momentum": lambda: S.CyclicLR(adagrad, 0.1, 1.0),
        "cyclic_mode": lambda: S.CyclicLR(sgd, 0.1, 1.0, mode="foo"),
        "cyclic_base_lr_count": lambda: S.CyclicLR(sgd, [0.1, 0.2, 0.3], 1.0),
        "cyclic_max_lr_count": lambda: S.CyclicLR(sgd, 0.1, [1.0]),
        "cyclic_not_optimizer": lambda: S.CyclicLR("sgd", 0.1, 1.0),
        "cyclic_momentum_count": lambda: S.CyclicLR(sgd, 0.1, 1.0, base_momentum=[0.1, 0.2, 0.3]),
        "one_cycle_no_momentum": lambda: S.OneCycleLR(adagrad, 1.0, total_steps=5),
        "one_cycle_no_steps": lambda: S.OneCycleLR(sgd, 1.0),
        "one_cycle_only_epochs": lambda: S.OneCycleLR(sgd, 1.0, epochs=3),
        "one_cycle_total_steps": lambda: S.OneCycleLR(sgd, 1.0, total_steps=0),
        "one_cycle_total_steps_float": lambda: S.OneCycleLR(sgd, 1.0, total_steps=5.0),
        "one_cycle_epochs": lambda: S.OneCycleLR(sgd, 1.0, epochs=0, steps_per_epoch=2),
        "one_cycle_steps_per_epoch": lambda: S.OneCycleLR(sgd, 1.0, epochs=2, steps_per_epoch=1.5),
        "one_cycle_pct_start": lambda: S.OneCycleLR(sgd, 1.0, total_steps=5, pct_start=1),
        "one_cycle_pct_start_big": lambda: S.OneCycleLR(sgd, 1.0, total_steps=5, pct_start=1.5),
        "one_cycle_anneal": lambda: S.OneCycleLR(sgd, 1.0, total_steps=5, anneal_strategy="exp"),
        "one_cycle_max_lr_count": lambda: S.OneCycleLR(sgd, [1.0], total_steps=5),
        "one_cycle_not_optimizer": lambda: S.OneCycleLR(None, 1.0, total_steps=5),
        "linear_not_optimizer": lambda: S.LinearLR(object()),
    }
    for key, fn in bad.items():
        o.err(key, fn)


# ---------------------------------------------------------------------------------- LBFGS
def _lbfgs_case(dtype, steps, **options):
    """A smooth non-quadratic loss, a few step(closure) calls.  (Kept away from convergence: there the
    float32 losses of the two libraries differ in the last bit and the tolerance tests may stop at
    different iterations.)"""
    def c(T, F, o):
        X, y = const(T, 340, 20, 3, lo=-1, hi=1, dtype=dtype), const(T, 341, 20, lo=-1, hi=1, dtype=dtype)
        w = T.tensor([0.5, -0.3, 0.1], dtype=getattr(T, dtype), requires_grad=True)
        b = T.tensor(0.2, dtype=getattr(T, dtype), requires_grad=True)
        opt = T.optim.LBFGS([w, b], **options)
        evaluations = []

        def closure():
            opt.zero_grad()
            loss = ((X @ w + b - y) ** 4).mean() + (w ** 2).sum() * 0.01 + (w[0] - 1.0).exp() * 0.1
            loss.backward()
            evaluations.append(loss.item())
            return loss
        o["losses"] = [opt.step(closure) for _ in range(steps)]
        o["w"], o["b"], o["evaluations"] = w, b, evaluations
        o.flags("w", w)
        state = opt.state[w]
        o["state_keys"] = sorted(state)
        o["counts"] = [state["func_evals"], state["n_iter"], len(state["old_dirs"])]
        o["d"], o["t"], o["H_diag"], o["ro"] = state["d"], state["t"], state["H_diag"], state["ro"]
        o["prev_flat_grad"], o["prev_loss"] = state["prev_flat_grad"], state["prev_loss"]
        o["defaults"] = opt.defaults
        o["param_groups"] = opt.state_dict()["param_groups"]
    return c


_LBFGS = {
    "lbfgs": dict(max_iter=4),
    "lbfgs_history": dict(max_iter=3, history_size=2, lr=0.7),
    "lbfgs_wolfe": dict(max_iter=4, line_search_fn="strong_wolfe"),
    "lbfgs_max_eval": dict(max_iter=10, max_eval=6, lr=0.5),
}
for _name, _options in _LBFGS.items():
    # float32: ro = 1 / (y . s) comes from a difference of two close gradients, so a last-bit difference
    # of a loss (the libraries sum in different orders) shows there as ~1e-5: a looser rtol
    case(_lbfgs_case("float32", 2, **_options), name=f"opt_{_name}", rtol=1e-4)
    case(_lbfgs_case("float64", 3, **_options), name=f"opt_{_name}_f64")
case(_lbfgs_case("float64", 3, line_search_fn="strong_wolfe", max_iter=30, history_size=5, lr=0.8),
     name="opt_lbfgs_wolfe_converges_f64")


@case
def opt_lbfgs_errors_and_early_return(T, F, o):
    w = T.zeros(2, requires_grad=True)
    o.err("lr", lambda: T.optim.LBFGS([w], lr=-1))
    o.err("groups", lambda: T.optim.LBFGS([{"params": [w]}, {"params": [T.zeros(1, requires_grad=True)]}]))
    o.err("no_closure", lambda: T.optim.LBFGS([w]).step())

    def closure():
        loss = ((w - 1) ** 2).sum()
        loss.backward()
        return loss
    o.err("line_search", lambda: T.optim.LBFGS([w], line_search_fn="armijo").step(closure))
    opt = T.optim.LBFGS([w])
    o.str("repr", opt)
    o["defaults"] = opt.defaults

    def flat():
        opt.zero_grad()
        loss = (w * 0).sum()
        loss.backward()
        return loss
    o["flat_loss"] = opt.step(flat)  # a zero gradient: returns at once
    o["flat_state"] = dict(opt.state[w])
    o["w"] = w
