"""Checks for notebooks 05 and 05b: ``MyLinear`` and ``GradScale`` (05), a training loop (05b).

``check_linear`` builds the student's layer at hidden sizes, gives it hidden random weights and
compares forward and backward with ``x @ W.T + b``.  ``check_grad_scale`` runs the student's
gradient scaler at hidden scales and checks that values pass through and gradients are scaled.
``check_training_loop`` runs the student's ``train`` on a hidden regression problem and compares
with a correct loop (and with the loop that forgot ``zero_grad``, to say so when that is the mistake).
"""
import numpy as np

from ..autograd import grad_mode
from ..tensor import Tensor
from . import _check


def _hinted(report, hint):
    if report is not None and hint and "Hint:" not in report.text and "not written yet" not in report.text:
        report.text += f"\n   Hint: {hint}"
    return report


def _node_names(root):
    """Names of every backward node reachable from ``root`` (a grad_fn), in a stable order."""
    order, seen = [], set()
    stack = [root] if root is not None else []
    while stack:
        node = stack.pop()
        if node in seen:
            continue
        seen.add(node)
        order.append(node.name())
        stack.extend(n for n, _ in node.next_functions if n is not None)
    return order


# ---------------------------------------------------------------------------- exercise 1
_LINEAR_CASES = [(4, 3, 5), (2, 5, 1)]  # in_features, out_features, batch size

_SHAPE_HINT = ("like nn.Linear: weight has shape (out_features, in_features) -- MMFunction computes "
               "input @ weight.t() -- and bias has shape (out_features,).")


@_check.exercise("MyLinear")
def check_linear(MyLinear):
    """Exercise 1: ``MyLinear(in, out)`` has Parameters weight (out, in) and bias (out,), uses MMFunction."""
    from ..nn import Module
    title = "MyLinear"
    if not (isinstance(MyLinear, type) and issubclass(MyLinear, Module)):
        return _check.failed(title, f"pass the class itself, a subclass of nn.Module; got {MyLinear!r}",
                             hint="write `class MyLinear(nn.Module):` and call the check with MyLinear")
    generator = _check.rng(505)
    for in_f, out_f, batch in _LINEAR_CASES:
        made = f"MyLinear({in_f}, {out_f})"
        layer, err = _check.call(title, MyLinear, in_f, out_f)
        if err is not None:
            return _hinted(err, "in __init__, call super().__init__() first, then create self.weight and "
                                "self.bias as nn.Parameter(...).")
        params = dict(layer.named_parameters())
        for name, shape in (("weight", (out_f, in_f)), ("bias", (out_f,))):
            if name not in params:
                attr = layer.__dict__.get(name)
                if isinstance(attr, Tensor):
                    return _check.failed(
                        title, f"self.{name} is a plain tensor, so the module does not register it: "
                               f"{made}.named_parameters() gives {list(params)}",
                        hint=f"wrap it: self.{name} = nn.Parameter(...). An optimizer only sees parameters.")
                return _check.failed(title, f"{made} has no parameter called '{name}' "
                                            f"(named_parameters() gives {list(params)})",
                                     hint=f"in __init__: self.{name} = nn.Parameter(...); " + _SHAPE_HINT)
            if tuple(params[name].shape) != shape:
                return _check.failed(title, f"{name} of {made} has the wrong shape",
                                     expected=shape, got=tuple(params[name].shape), hint=_SHAPE_HINT)

        weight, bias = params["weight"], params["bias"]
        W = generator.uniform(-1, 1, (out_f, in_f))
        b = generator.uniform(-1, 1, (out_f,))
        with grad_mode.no_grad():  # hidden values, so that a layer tuned for the notebook does not pass
            weight.copy_(Tensor(W.astype(weight._data.dtype)))
            bias.copy_(Tensor(b.astype(bias._data.dtype)))
        weight.grad = bias.grad = None
        W, b = weight._data.astype(np.float64), bias._data.astype(np.float64)

        x = _check.random_tensor(generator, (batch, in_f), requires_grad=True, dtype=weight._data.dtype)
        xd = x._data.astype(np.float64)
        out, err = _check.call(title, layer, x)
        if err is not None:
            return _hinted(err, "forward: MMFunction.apply(input, self.weight) + self.bias")
        where = f" of {made} for input = {_check._show(x.detach())}"
        hint = "forward is MMFunction.apply(input, self.weight) + self.bias"
        if isinstance(out, Tensor) and out._data.shape == (batch, out_f) and \
                np.allclose(out._data, xd @ W.T, atol=1e-4):
            hint = "you left out the bias: add self.bias to the product."
        bad = _check.check_tensor(title, out, Tensor(xd @ W.T + b), "output", where, hint=hint, atol=1e-4)
        if bad is not None:
            return bad
        names = _node_names(out.grad_fn)
        if "MMFunctionBackward" not in names:
            return _check.failed(
                title, f"the output's graph has no MMFunctionBackward node (it has: {', '.join(names) or 'none'})",
                hint="do the matrix product with MMFunction.apply(input, self.weight), so that the backward "
                     "you wrote in notebook 04 is the one that runs.")

        g = _check.random_tensor(generator, (batch, out_f), dtype=weight._data.dtype)
        gd = g._data.astype(np.float64)
        _, err = _check.call(title, out.backward, g)
        if err is not None:
            return err
        for what, t, expected, hint in (
                ("gradient of weight", weight, gd.T @ xd, "dL/dW = grad.t() @ input: MMFunction's backward gives it"),
                ("gradient of bias", bias, gd.sum(0), "the bias is added to every row, so its gradient is the "
                                                      "column sum of the output's gradient; autograd does this "
                                                      "for you when forward adds self.bias"),
                ("gradient of the input", x, gd @ W, "dL/dinput = grad @ W: MMFunction's backward gives it")):
            if t._grad is None:
                return _check.failed(title, f"no {what} after backward{where}",
                                     hint="is it used in forward? " + hint)
            bad = _check.check_tensor(title, t._grad, Tensor(expected), what, where, hint=hint, atol=1e-4)
            if bad is not None:
                return bad
    return _check.passed(title, f"weight and bias are registered with the right shapes, and forward and backward "
                                f"match x @ W.T + b for {len(_LINEAR_CASES)} hidden layers.")


# ---------------------------------------------------------------------------- notebook 05b: the loop
_STEPS, _LR = 12, 0.05


def _problem():
    generator = _check.rng(5050)
    X = generator.normal(size=(16, 3)).astype(np.float32)
    W_true = generator.uniform(-2, 2, (2, 3))
    b_true = generator.uniform(-1, 1, (2,))
    Y = (X @ W_true.T + b_true).astype(np.float32)
    W0 = generator.uniform(-0.5, 0.5, (2, 3)).astype(np.float32)
    b0 = np.zeros(2, np.float32)
    return Tensor(X), Tensor(Y), W0, b0


def _model(W0, b0):
    from ..nn import Linear
    model = Linear(3, 2)
    with grad_mode.no_grad():
        model.weight.copy_(Tensor(W0))
        model.bias.copy_(Tensor(b0))
    return model


@_check.reference
def _reference(model, X, Y, zero_grad=True):
    from ..nn import MSELoss
    from ..optim import SGD
    optimizer, loss_fn, losses = SGD(model.parameters(), lr=_LR), MSELoss(), []
    for _ in range(_STEPS):
        loss = loss_fn(model(X), Y)
        if zero_grad:
            optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        losses.append(loss.item())
    return losses


def _fmt(losses):
    return "[" + ", ".join(f"{v:.4f}" for v in losses) + "]"


@_check.exercise("train")
def check_training_loop(train):
    """Notebook 05b: ``train(model, X, Y, steps, lr)`` zeroes the gradients every step and returns the losses."""
    title = "train"
    X, Y, W0, b0 = _problem()
    model = _model(W0, b0)
    result, err = _check.call(title, train, model, X, Y, _STEPS, _LR)
    if err is not None:
        return _hinted(err, "train(model, X, Y, steps, lr): build optim.SGD(model.parameters(), lr=lr) and "
                            "nn.MSELoss(), loop `steps` times, return the list of loss.item() values.")
    if not isinstance(result, (list, tuple)) or len(result) != _STEPS:
        got = f"{type(result).__name__}" + (f" of length {len(result)}" if isinstance(result, (list, tuple)) else "")
        return _check.failed(title, f"train should return a list with one loss per step ({_STEPS} here), "
                                    f"got a {got}", hint="append loss.item() to a list in every step and return it")
    try:
        losses = [float(v) for v in result]
    except (TypeError, ValueError, RuntimeError):
        return _check.failed(title, "the list should hold numbers: append loss.item(), not loss",
                             hint="loss.item() turns a one-element tensor into a Python float")

    moved = not (np.array_equal(model.weight._data, W0) and np.array_equal(model.bias._data, b0))
    if not moved:
        return _check.failed(
            title, "the parameters did not change during training: optimizer.step() had nothing to work with",
            hint=["what is in each parameter's .grad at the moment optimizer.step() runs?",
                  "zero_grad() sets .grad to None; backward() fills it; step() reads it. Which order lets step() "
                  "see this step's gradient?",
                  "in every step: optimizer.zero_grad(), loss.backward(), then optimizer.step()."])

    reference = _model(W0, b0)
    expected = _reference(reference, X, Y)
    if not np.allclose(losses, expected, rtol=1e-4, atol=1e-5):
        piled = _reference(_model(W0, b0), X, Y, zero_grad=False)
        if np.allclose(losses, piled, rtol=1e-4, atol=1e-5):
            return _check.failed(
                title, "the gradients pile up from step to step: each .grad is the sum of all the steps so far",
                expected=_fmt(expected), got=_fmt(losses),
                hint=["backward() adds into .grad: what does .grad hold at the second step?",
                      "call optimizer.zero_grad() once per step, before loss.backward()."])
        first = next(i for i, (a, e) in enumerate(zip(losses, expected)) if not np.isclose(a, e, rtol=1e-4, atol=1e-5))
        return _check.failed(title, f"the losses differ from a correct loop's from step {first} on "
                                    f"(hidden problem, {_STEPS} steps, lr={_LR})",
                             expected=_fmt(expected), got=_fmt(losses),
                             hint="use the lr argument (not a fixed number), one optimizer.step() per step, and "
                                  "record the loss of the step before the update.")
    for name in ("weight", "bias"):
        got, ref = getattr(model, name)._grad, getattr(reference, name)._grad
        if got is not None and not np.allclose(got._data, 0) and not np.allclose(got._data, ref._data, atol=1e-5):
            return _check.failed(title, f"after the loop, {name}.grad is not the gradient of the last step alone",
                                 expected=ref.detach(), got=got.detach(),
                                 hint="call optimizer.zero_grad() in every step, before loss.backward().")
    if not losses[-1] < losses[0]:
        return _check.failed(title, "the loss did not go down", expected="last loss < first loss",
                             got=_fmt(losses))
    return _check.passed(title, f"the loss goes down ({losses[0]:.3f} -> {losses[-1]:.3f} in {_STEPS} steps on a "
                                "hidden problem), and every step uses only its own gradient.")


# ---------------------------------------------------------------------------- exercise 2: GradScale
_SCALES = (-0.5, 3.0, 0.25, -2.0)


@_check.exercise("GradScale")
def check_grad_scale(GradScale):
    """Exercise 2: ``GradScale(scale)`` passes values through and multiplies the gradient by ``scale``."""
    from ..nn import Module
    title = "GradScale"
    if not (isinstance(GradScale, type) and issubclass(GradScale, Module)):
        return _check.failed(title, f"pass the class itself, a subclass of nn.Module; got {GradScale!r}",
                             hint="write `class GradScale(nn.Module):` and call the check with GradScale")
    generator = _check.rng(5052)
    for scale in _SCALES:
        made = f"GradScale({scale})"
        layer, err = _check.call(title, GradScale, scale)
        if err is not None:
            return _hinted(err, "__init__ calls super().__init__() and keeps the number: self.scale = scale")
        x = _check.random_tensor(generator, (2, 3), requires_grad=True)
        out, err = _check.call(title, layer, x)
        if err is not None:
            return _hinted(err, "forward returns GradScaleFunction.apply(x, self.scale); in the Function's "
                                "forward, keep scale on ctx (ctx.scale = scale) and return x.clone().")
        where = f" of {made} for x = {_check._show(x.detach())}"
        bad = _check.check_tensor(title, out, x.detach(), "output", where,
                                  hint="the forward pass must not change the values: only the gradient is "
                                       "scaled, so forward returns a copy of x (x.clone()), not x * scale.")
        if bad is not None:
            return bad
        if out.grad_fn is None:
            return _check.failed(title, f"the output{where} has no grad_fn, so no backward can run for it",
                                 hint="return the result of GradScaleFunction.apply(x, self.scale): apply "
                                      "records the Function's node in the graph.")
        g = _check.random_tensor(generator, (2, 3))
        _, err = _check.call(title, out.backward, g)
        if err is not None:
            if "incorrect number of gradients" in err.text:
                return _hinted(err, "backward returns one value per input of forward, and forward gets two, "
                                    "x and scale. scale is a plain number with no gradient: return None for it.")
            return _hinted(err, "backward(ctx, grad_output) gets the scale back from ctx (ctx.scale)")
        if x._grad is None:
            return _check.failed(title, f"no gradient reached x{where}",
                                 hint="backward's first return value is the gradient for x")
        expected = Tensor(g._data * np.float32(scale))
        hint = ["the gradient that reaches x should be the incoming gradient times scale.",
                "backward gets scale back from ctx, where forward left it.",
                "backward returns grad_output * ctx.scale, None"]
        if _check.close(x._grad, g):
            hint = ["the gradient came through unscaled, as if your module were not there: is your backward "
                    "ever called? A backward method on the module is never called.",
                    "autograd calls only the backward of the Functions in the graph: put it in "
                    "GradScaleFunction.backward, and call GradScaleFunction.apply(x, self.scale) in forward."]
        elif _check.close(x._grad, Tensor(-g._data)):
            hint = ["the gradient was negated, not multiplied by scale: use the scale the module was made with, "
                    "not a fixed -1.", "forward keeps it on ctx (ctx.scale = scale); backward reads ctx.scale."]
        bad = _check.check_tensor(title, x._grad, expected, "gradient of x", where + f" and gradient {_check._show(g)}",
                                  hint=hint)
        if bad is not None:
            return bad
    return _check.passed(title, f"the values pass through unchanged and the gradient is multiplied by scale, "
                                f"for scales {', '.join(str(s) for s in _SCALES)}.")


# ---------------------------------------------------------------------------- prediction questions
check_q_reverse = _check.prediction(
    "nb05-q-reverse", "q_reverse",
    "What does loss.backward() leave in x.grad when the module's backward method flips the sign?",
    "6191b89b6f18ec48", options={"a": "[-2, -4, -6]", "b": "[2, 4, 6]", "c": "an error"},
    hints=["Which objects does the engine call during backward: modules, or the nodes of the graph?",
           "The graph holds one node per operation; a module is not an operation."],
    why="autograd never calls a backward method on a module: the gradient is the derivative of what forward "
        "computed, 2 * x.")

check_q_first_loss = _check.prediction(
    "nb05b-q-first-loss", "q_first_loss",
    "What is the cross-entropy loss when the network gives the right class probability 1/2 for every point?",
    "18c28e07399eb43b",
    hints=["Cross-entropy is the mean of -ln(probability of the right class).",
           "Every point contributes -ln(1/2); you may write the answer as an expression, e.g. with np.log."],
    why="-ln(1/2) = ln 2 = 0.693 for every point, so the mean is ln 2 too.")

check_q_no_zero_grad = _check.prediction(
    "nb05b-q-no-zero-grad", "q_no_zero_grad",
    "What does the loss do in a loop without optimizer.zero_grad()?",
    "a5aac265b3ab18d7",
    options={"a": "the same as with zero_grad", "b": "it goes down at first, then swings up and down",
             "c": "the loop raises an error at the second backward()"},
    hints=["backward() adds into .grad; what is in .grad at the second step, at the tenth?",
           "each graph is new, so a second backward() is allowed; but .grad keeps every earlier gradient."],
    why="every step uses the sum of all gradients so far, so old directions keep pushing the weight "
        "past the minimum.")

check_q_bias_grad = _check.prediction(
    "nb05-q-bias-grad", "q_bias_grad",
    "For a Linear(3, 2) layer and a batch x of 5 rows, what is bias.grad after layer(x).sum().backward()?",
    "7172b9e0d1a25699", options={"a": "[1, 1]", "b": "[5, 5]", "c": "it depends on the values in x"},
    hints=["The bias is added to every one of the 5 rows: how many times does each bias entry reach the sum?",
           "When a value is used several times, its gradient is the sum of the gradients of every use."],
    why="each bias entry is added to all 5 rows, and each use sends back a gradient of 1: the engine sums "
        "the broadcast gradient over the rows.")
