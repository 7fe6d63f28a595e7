"""Checks for ``03b_cutting_the_graph.ipynb``: a target that must stay a constant, and an evaluation
that neither records a graph nor leaves the model in the wrong mode.

- ``check_td_loss(td_loss)``: ``td_loss(model, x, r, x_next, gamma)`` returns the TD loss
  ``mean((model(x) - (r + gamma * model(x_next))) ** 2)`` whose backward treats the target as a
  constant; compared parameter by parameter on hidden models.
- ``check_evaluate(evaluate)``: ``evaluate(model, data, targets)`` returns the mean squared error as
  a float, with the model in evaluation mode and recording off while it runs, and the model's mode
  restored afterwards.
"""
import numpy as np

from .. import autograd, is_grad_enabled, no_grad
from ..nn import Linear, Module, Sequential, Tanh
from ..tensor import Tensor
from ._check import call, check_tensor, exercise, failed, passed, prediction, rng


# ---- exercise 1 ---------------------------------------------------------------------------------
TD_TITLE = "a target that stays fixed"


def _td_cases():
    """Hidden models and data: (model, x, r, x_next, gamma), with weights set from a fixed seed."""
    g = rng(1302)
    cases = []
    for model, n_in in ((Linear(3, 1), 3), (Sequential(Linear(2, 4), Tanh(), Linear(4, 1)), 2)):
        with no_grad():
            for p in model.parameters():
                p.copy_(Tensor(g.uniform(-1, 1, size=p.shape).astype(np.float32)))
        x = Tensor(g.uniform(-2, 2, size=(5, n_in)).astype(np.float32))
        x_next = Tensor(g.uniform(-2, 2, size=(5, n_in)).astype(np.float32))
        r = Tensor(g.uniform(0, 1, size=(5, 1)).astype(np.float32))
        cases.append((model, x, r, x_next, 0.9))
    return cases


def _td_grads(model, x, r, x_next, gamma, cut_target=True, cut_prediction=False):
    """Parameter gradients of the TD loss, with the target (or, for diagnosis, the prediction) cut."""
    target = r + gamma * model(x_next)
    prediction = model(x)
    if cut_target:
        target = target.detach()
    if cut_prediction:
        prediction = prediction.detach()
    params = list(model.parameters())
    return autograd.grad(((prediction - target) ** 2).mean(), params)


@exercise("td_loss")
def check_td_loss(td_loss):
    """``td_loss(model, x, r, x_next, gamma)``: the TD loss whose backward treats the target as a constant."""
    t = TD_TITLE
    for number, (model, x, r, x_next, gamma) in enumerate(_td_cases(), 1):
        params = list(model.parameters())
        where = f" (hidden case {number}: {type(model).__name__}, gamma = {gamma})"
        got, err = call(t, td_loss, model, x, r, x_next, gamma)
        if err is not None:
            return err
        if got is None:
            return failed(t, f"td_loss returned None{where}",
                          hint="end the function with `return loss`, the scalar mean of the squared errors.")
        if not isinstance(got, Tensor):
            return failed(t, f"td_loss should return a minigrad Tensor, got {type(got).__name__}{where}")
        if got.dim() != 0:
            return failed(t, f"the loss should be a scalar (a 0-dim tensor), got shape {tuple(got.shape)}{where}",
                          hint="take the mean of the squared errors: ((prediction - target) ** 2).mean().")
        with no_grad():
            right_value = ((model(x) - (r + gamma * model(x_next))) ** 2).mean()
        bad = check_tensor(t, got, right_value, "loss value", where,
                           hint="loss = mean((model(x) - (r + gamma * model(x_next))) ** 2); cutting the graph "
                                "changes no number, only where the gradient flows.")
        if bad is not None:
            return bad
        if not got.requires_grad:
            return failed(t, f"the loss does not require grad, so backward cannot train anything{where}",
                          hint="the graph was cut in front of the whole loss (or everything ran under no_grad). "
                               "Only one of the two terms should be a constant; the other must keep its graph.")
        grads = autograd.grad(got, params, allow_unused=True)
        right = _td_grads(model, x, r, x_next, gamma)
        if all(g is not None and np.allclose(g._data, e._data, atol=1e-5, rtol=1e-4) for g, e in zip(grads, right)):
            continue
        through_both = _td_grads(model, x, r, x_next, gamma, cut_target=False)
        wrong_term = _td_grads(model, x, r, x_next, gamma, cut_target=False, cut_prediction=True)

        def same(other):
            return all(g is not None and np.allclose(g._data, e._data, atol=1e-5, rtol=1e-4)
                       for g, e in zip(grads, other))
        if same(through_both):
            hint = ("the gradient also flows through the target: backward differentiates model(x_next) as well, "
                    "so an update would move the target too. Make the target a constant for the graph.")
        elif same(wrong_term):
            hint = ("you made the prediction model(x) the constant, and the target keeps its graph: the update "
                    "would move the target towards the prediction. Swap which term you cut.")
        else:
            hint = "only the target r + gamma * model(x_next) should be a constant; model(x) keeps its graph."
        name, (g, e) = next((n, ge) for n, ge in zip([n for n, _ in model.named_parameters()], zip(grads, right))
                            if ge[0] is None or not np.allclose(ge[0]._data, ge[1]._data, atol=1e-5, rtol=1e-4))
        return failed(t, f"wrong gradient for the parameter {name}{where}", expected=e,
                      got=g if g is not None else "None (no gradient reached it)", hint=hint)
    return passed(t, "the loss has the right value and its gradients treat the target as a constant, "
                     "on 2 hidden models.")

# ---- exercise 2 ---------------------------------------------------------------------------------
EVAL_TITLE = "an evaluation that records nothing"


class _Probe(Module):
    """A small model that notes, every time it runs, (training mode?, recording on?).

    Like dropout, it behaves differently in training: there it scales its output by 2, so a loss
    computed in training mode has a different value."""

    def __init__(self, generator):
        super().__init__()
        self.layer = Linear(3, 1)
        with no_grad():
            for p in self.layer.parameters():
                p.copy_(Tensor(generator.uniform(-1, 1, size=p.shape).astype(np.float32)))
        self.runs = []

    def forward(self, x):
        self.runs.append((self.training, is_grad_enabled()))
        out = self.layer(x)
        return out * 2 if self.training else out


def _eval_case(generator, training):
    model = _Probe(generator)
    model.train(training)
    data = Tensor(generator.uniform(-2, 2, size=(6, 3)).astype(np.float32))
    targets = Tensor(generator.uniform(-1, 1, size=(6, 1)).astype(np.float32))
    with no_grad():
        was = model.training
        model.eval()
        expected = float(((model(data) - targets) ** 2).mean().item())
        model.train(was)
    model.runs.clear()
    return model, data, targets, expected


@exercise("evaluate")
def check_evaluate(evaluate):
    """``evaluate(model, data, targets)``: eval mode and no recording while the model runs, mode restored."""
    t = EVAL_TITLE
    g = rng(1303)
    for training in (True, False):
        model, data, targets, expected = _eval_case(g, training)
        where = f" (the model was in {'training' if training else 'evaluation'} mode before the call)"
        got, err = call(t, evaluate, model, data, targets, returns="the mean squared error, a Python float")
        if err is not None:
            return err
        if not model.runs:
            return failed(t, f"evaluate never ran the model{where}",
                          hint="compute model(data) inside evaluate, and compare it with targets.")
        if any(mode for mode, _ in model.runs):
            return failed(t, f"the model ran in training mode, so its layers behaved as in training{where}", hint=[
                "which tool in section 5's table changes how the layers behave?",
                "call model.eval() before running the model."])
        if any(recording for _, recording in model.runs):
            return failed(t, f"recording was on while the model ran: a graph was built and kept for nothing{where}",
                          hint=["model.eval() changes how layers behave, not whether autograd records (section 5).",
                                "run the model inside `with minigrad.no_grad():` (or inference_mode())."])
        if isinstance(got, Tensor):
            return failed(t, f"evaluate should return a Python float, got a tensor{where}",
                          hint="a one-element tensor gives its number with .item().")
        if not isinstance(got, float):
            return failed(t, f"evaluate should return a Python float, got {type(got).__name__}{where}",
                          hint="return loss.item(), where loss is the mean of the squared errors.")
        if not np.isclose(got, expected, rtol=1e-5, atol=1e-6):
            return failed(t, f"wrong value{where}", expected=expected, got=got,
                          hint=["compare model(data) with targets: the mean of the squared differences.",
                                "((model(data) - targets) ** 2).mean().item()"])
        if model.training != training:
            now, before = ("evaluation", "training") if training else ("training", "evaluation")
            return failed(t, f"afterwards the model is in {now} mode, but it was in {before} mode before the call",
                          hint=["the training code that calls evaluate expects the model back as it gave it. "
                                "What must you note before switching?",
                                "was_training = model.training before model.eval(); model.train(was_training) "
                                "at the end."])
    return passed(t, "the model ran in evaluation mode with recording off, the loss is right, and the model's mode "
                     "was put back (from training and from evaluation mode).")


check_q_detach = prediction(
    "nb03b-q-detach", "q_detach",
    "After cut.backward(), what is x.grad?",
    "5c4bc23dd91a6a08",
    options={"a": "tensor([0., 0., 0.])", "b": "None", "c": "tensor([ 4.,  8., 12.]), as through full"},
    hints=["look at the drawing of cut: is there a path back to x?",
           "a leaf's .grad is written by its AccumulateGrad node, and only when a gradient reaches it."],
    why="No path from cut leads to x, so its AccumulateGrad never runs and x.grad stays None (not zeros).")

check_q_eval = prediction(
    "nb03b-q-eval", "q_eval",
    "After model.eval(), does model(data) record a graph?",
    "e2c054c58ec1d4d4",
    options={"a": "yes: the output has a grad_fn, as in training",
             "b": "no: eval() switches recording off, like no_grad()"},
    hints=["eval() changes one flag on every module. Which flag, and who reads it?",
           "model.training = False changes how layers such as dropout behave; recording is governed by grad "
           "mode, a different switch."],
    why="It only sets module.training = False; grad mode, which decides recording, is untouched.")
