"""Checks for ``03b_cutting_the_graph.ipynb``: a target that must stay a constant, and an evaluation
that neither records a graph nor leaves the model in the wrong mode.

- ``check_td_loss(td_loss)``: ``td_loss(model, x, r, x_next, gamma)`` returns the TD loss
  ``mean((model(x) - (r + gamma * model(x_next))) ** 2)`` whose backward treats the target as a
  constant; compared parameter by parameter on two hidden models, each with its own ``gamma``.
- ``check_evaluate(evaluate)``: ``evaluate(model, data, targets)`` returns the mean squared error as
  a float, with the model in evaluation mode and recording off while it runs, and the model's mode
  restored afterwards; run on a model in training mode and on one in evaluation mode.
- ``check_q_detach``, ``check_q_eval``: the notebook's prediction questions.

Every failure gives at least two hint tiers (the idea, then where to look, then a partial step);
none of them is a line of the notebook's solution.
"""
import numpy as np

from minigrad import autograd, is_grad_enabled, no_grad
from minigrad.nn import Linear, Module, Sequential, Tanh
from minigrad.tensor import Tensor
from ._check import call, check_tensor, exercise, failed, passed, prediction, rng
from .nb02 import _raised


# ---- exercise 1 ---------------------------------------------------------------------------------
TD_TITLE = "a target that stays fixed"


def _td_cases():
    """Hidden models and data: (model, x, r, x_next, gamma), with weights set from a fixed seed."""
    g = rng(1302)
    cases = []
    for model, n_in, gamma in ((Linear(3, 1), 3, 0.9), (Sequential(Linear(2, 4), Tanh(), Linear(4, 1)), 2, 0.5)):
        with no_grad():
            for p in model.parameters():
                p.copy_(Tensor(g.uniform(-1, 1, size=p.shape).astype(np.float32)))
        x = Tensor(g.uniform(-2, 2, size=(5, n_in)).astype(np.float32))
        x_next = Tensor(g.uniform(-2, 2, size=(5, n_in)).astype(np.float32))
        r = Tensor(g.uniform(0, 1, size=(5, 1)).astype(np.float32))
        cases.append((model, x, r, x_next, gamma))
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


TD_TIERS = [
    "only the target r + gamma * model(x_next) should be a constant for backward; model(x) keeps its graph.",
    "section 1: detach() gives a tensor with the same numbers and no graph, and a value computed under no_grad() "
    "is a constant too. Which of the two terms of the loss should be one?",
    "the loss value does not change when you cut the graph; only where the gradient flows does.",
]


def _same(grads, other):
    return all(g is not None and np.allclose(g._data, e._data, atol=1e-5, rtol=1e-4) for g, e in zip(grads, other))


@exercise("td_loss")
def check_td_loss(td_loss):
    """``td_loss(model, x, r, x_next, gamma)``: the TD loss whose backward treats the target as a constant."""
    t = TD_TITLE
    for number, (model, x, r, x_next, gamma) in enumerate(_td_cases(), 1):
        params = list(model.parameters())
        where = f" (hidden case {number}: {type(model).__name__}, gamma = {gamma})"
        got, err = call(t, td_loss, model, x, r, x_next, gamma)
        if err is not None:
            return _raised(err, where, [
                ("you can only change requires_grad flags of leaf variables", [
                    "requires_grad_(False) works on leaves only (section 2), and the target is computed: it has "
                    "a grad_fn. The error message names the tool that cuts a computed tensor out of the graph.",
                    "section 1 shows that tool; it returns a new tensor, so use what it returns."]),
                ("", ["the check calls td_loss with two hidden models (a Linear and a small Sequential), x and "
                      "x_next of shape (5, n), r of shape (5, 1) and a gamma: does your code work for both?"]
                 + TD_TIERS[1:]),
            ])
        if got is None:
            return failed(t, f"td_loss returned None{where}", hint=[
                "end the function with `return loss`, the scalar mean of the squared errors.",
                "is the return line missing, or inside an if that was not taken?"])
        if not isinstance(got, Tensor):
            return failed(t, f"td_loss should return a minigrad Tensor, got {type(got).__name__}{where}", hint=[
                "return the loss tensor itself: backward needs its graph (no .item(), no numpy).",
                "the mean of the squared errors is already a 0-dim tensor."])
        if got.dim() != 0:
            return failed(t, f"the loss should be a scalar (a 0-dim tensor), got shape {tuple(got.shape)}{where}",
                          hint=["take the mean of the squared errors, over all of them.",
                                "((prediction - target) ** 2) has one number per example; .mean() makes it one."])
        with no_grad():
            right_value = ((model(x) - (r + gamma * model(x_next))) ** 2).mean()
            fixed_gamma = ((model(x) - (r + 0.9 * model(x_next))) ** 2).mean()
            summed = ((model(x) - (r + gamma * model(x_next))) ** 2).sum()
        hint = ["loss = mean((model(x) - (r + gamma * model(x_next))) ** 2), with the gamma you are given.",
                "cutting the graph changes no number, only where the gradient flows: compute the value first, "
                "then decide which term to cut."]
        if gamma != 0.9 and np.allclose(got.item(), fixed_gamma.item(), rtol=1e-4, atol=1e-6):
            hint = [f"that is the loss with gamma = 0.9, but this case passed gamma = {gamma}: use the gamma you "
                    "are given, not a fixed number."] + hint[1:]
        elif np.allclose(got.item(), summed.item(), rtol=1e-4, atol=1e-6):
            hint = ["that is the sum of the squared errors; the loss is their mean."] + hint
        bad = check_tensor(t, got, right_value, "loss value", where, hint=hint)
        if bad is not None:
            return bad
        if not got.requires_grad:
            return failed(t, f"the loss does not require grad, so backward cannot train anything{where}", hint=[
                "the graph was cut in front of the whole loss (or everything ran under no_grad). Only one of the "
                "two terms should be a constant; the other must keep its graph.",
                "cut the graph of the target alone, before it meets model(x)."])
        grads = autograd.grad(got, params, allow_unused=True)
        right = _td_grads(model, x, r, x_next, gamma)
        if _same(grads, right):
            continue
        if _same(grads, _td_grads(model, x, r, x_next, gamma, cut_target=False)):
            hint = ["the gradient also flows through the target: backward differentiates model(x_next) as well, "
                    "so an update would move the target too. Make the target a constant for the graph."] + TD_TIERS[1:]
        elif _same(grads, _td_grads(model, x, r, x_next, gamma, cut_target=False, cut_prediction=True)):
            hint = ["you made the prediction model(x) the constant, and the target keeps its graph: the update "
                    "would move the target towards the prediction. Swap which term you cut."] + TD_TIERS[1:]
        else:
            hint = TD_TIERS
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
            return _raised(err, where, [
                "the check calls evaluate with a small model, data of shape (6, 3) and targets of shape (6, 1), "
                "once with the model in training mode and once in evaluation mode: does your code work for both?",
                "section 5's table says which tool does which part: one for how the layers behave, one for "
                "recording."])
        if not model.runs:
            return failed(t, f"evaluate never ran the model{where}", hint=[
                "compute model(data) inside evaluate, and compare it with targets.",
                "the error is the mean, over all elements, of the squared differences."])
        if any(mode for mode, _ in model.runs):
            return failed(t, f"the model ran in training mode, so its layers behaved as in training{where}", hint=[
                "which tool in section 5's table changes how the layers behave?",
                "switch the model to evaluation mode before it runs: the Module method that sets training = False "
                "on every submodule (section 5).",
                "that method is eval(), called on the model; afterwards, train(mode) sets a mode again."])
        if any(recording for _, recording in model.runs):
            return failed(t, f"recording was on while the model ran: a graph was built and kept for nothing{where}",
                          hint=["eval() changes how layers behave, not whether autograd records (section 5).",
                                "run the model inside a no_grad() block (or an inference_mode() one): sections 3 "
                                "and 4."])
        if isinstance(got, Tensor):
            return failed(t, f"evaluate should return a Python float, got a tensor{where}", hint=[
                "a one-element tensor gives its number with .item().",
                "compute the mean squared error as a tensor, then return its number."])
        if not isinstance(got, float):
            return failed(t, f"evaluate should return a Python float, got {type(got).__name__}{where}", hint=[
                "return the number of the loss, a float: the mean of the squared errors.",
                "a one-element tensor gives its number with .item()."])
        if not np.isclose(got, expected, rtol=1e-5, atol=1e-6):
            return failed(t, f"wrong value{where}", expected=expected, got=got,
                          hint=["compare model(data) with targets: the mean of the squared differences, in "
                                "evaluation mode.",
                                "square every difference model(data) - targets, then take the mean over all of "
                                "them (not the sum)."])
        if model.training != training:
            now, before = ("evaluation", "training") if training else ("training", "evaluation")
            return failed(t, f"afterwards the model is in {now} mode, but it was in {before} mode before the call",
                          hint=["the training code that calls evaluate expects the model back as it gave it. "
                                "What must you note before switching?",
                                "model.training holds the mode: keep its value before switching to evaluation, "
                                "and give it back to the model at the end.",
                                "train(mode) takes that value: True puts the model in training mode, False in "
                                "evaluation mode."])
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
