"""Checks for notebooks 05 and 05b: ``MyLinear`` and ``GradScale`` (05), a training loop (05b).

``check_linear`` builds the student's layer at hidden sizes, gives it hidden random weights and
compares forward and backward with ``x @ W.T + b``.  ``check_grad_scale`` runs the student's
gradient scaler at hidden scales on inputs of several shapes, then two scalers in one graph, and
checks that values pass through and gradients are scaled.  ``check_training_loop`` runs the
student's ``train`` on two hidden regression problems (different steps and learning rates) and
compares with a correct loop, and with the usual wrong loops, to say which mistake it is.

Every failure gives hint tiers: the idea first, then where to look, then a partial step; never a
line of the notebook's solution.
"""
import numpy as np

from minigrad.autograd import Function, grad_mode
from minigrad.tensor import Tensor
from . import _check


def _hinted(report, *tiers):
    """Add hint tiers to a failed Report (the first tier if it has none yet, then the next ones)."""
    for tier in tiers:
        _check.add_hint(report, tier)
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


def _is_module_class(value, title, name):
    from minigrad.nn import Module
    if isinstance(value, type) and issubclass(value, Module):
        return None
    return _check.failed(title, f"the check needs the class itself, a subclass of nn.Module; got {value!r}",
                         hint=[f"define `class {name}(nn.Module):` in the exercise cell and run it.",
                               f"the check reads the name {name}: do not assign an instance or another value to it."])


# ---------------------------------------------------------------------------- exercise 1
_LINEAR_CASES = [(4, 3, 5), (2, 5, 1)]  # in_features, out_features, batch size

_SHAPE_HINTS = ["like nn.Linear's: weight has shape (out_features, in_features), and bias (out_features,).",
                "check it on the built-in layer: nn.Linear(3, 2).weight.shape is (2, 3), out_features first.",
                "MMFunction computes input @ weight.t(): with weight of shape (out_features, in_features) the "
                "product has out_features columns."]


@_check.exercise("MyLinear")
def check_linear(MyLinear):
    """Exercise 1: ``MyLinear(in, out)`` has Parameters weight (out, in) and bias (out,), uses MMFunction."""
    title = "MyLinear"
    bad = _is_module_class(MyLinear, title, "MyLinear")
    if bad is not None:
        return bad
    generator = _check.rng(505)
    for in_f, out_f, batch in _LINEAR_CASES:
        made = f"MyLinear({in_f}, {out_f})"
        layer, err = _check.call(title, MyLinear, in_f, out_f)
        if err is not None:
            if "before Module.__init__() call" in err.text:
                return _hinted(err, "nn.Module keeps its parameters in dictionaries that Module.__init__ creates; "
                                    "they do not exist yet when your first parameter is assigned.",
                               "look at MMul's __init__ in section 3: what is its first line?")
            return _hinted(err, f"{made} should only create the two parameters, weight and bias.",
                           "MMul's __init__ in section 3 creates one Parameter; yours creates two, of the shapes "
                           "the exercise gives.")
        params = dict(layer.named_parameters())
        for name, shape in (("weight", (out_f, in_f)), ("bias", (out_f,))):
            if name not in params:
                attr = layer.__dict__.get(name)
                if isinstance(attr, Tensor):
                    return _check.failed(
                        title, f"self.{name} is a plain tensor, so the module does not register it: "
                               f"{made}.named_parameters() gives {list(params)}",
                        hint=["a module registers only nn.Parameter values: a plain tensor is invisible to "
                              "parameters() and to an optimizer, even if it requires grad.",
                              "section 3, 'Forgetting to register', shows this mistake.",
                              f"wrap the tensor in nn.Parameter(...) before you assign it to self.{name}."])
                return _check.failed(title, f"{made} has no parameter called '{name}' "
                                            f"(named_parameters() gives {list(params)})",
                                     hint=[f"named_parameters() lists each Parameter under the attribute name it "
                                           f"was assigned to; the check looks for '{name}'.",
                                           f"in __init__: self.{name} = nn.Parameter(...), with a tensor of shape "
                                           f"{shape} for {made}."] + _SHAPE_HINTS[:1])
            got = tuple(params[name].shape)
            if got != shape:
                problem = f"{name} of {made} has the wrong shape"
                if got == shape[::-1] and len(shape) == 2:
                    problem += ": (in_features, out_features), the two sizes swapped"
                return _check.failed(title, problem, expected=shape, got=got, hint=_SHAPE_HINTS)

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
        where = f" of {made} for input = {_check._show(x.detach())}"
        if err is not None:
            if "unsupported operand type" in err.text and "'MMFunction'" in err.text:
                return _hinted(err, "MMFunction(...) makes a Function object and runs nothing: a Function is not "
                                    "called directly.",
                               "MMul's forward in section 3 shows how a Function is run: with .apply(...).")
            if "shapes cannot be multiplied" in err.text or "must match the size" in err.text:
                return _hinted(err, f"the shapes do not fit: in {made} the input is ({batch}, {in_f}) and the "
                                    f"weight ({out_f}, {in_f}).",
                               "MMFunction.apply takes the input first and the weight second, and transposes the "
                               "weight itself (input @ weight.t()).",
                               "pass self.weight as it is, not transposed; the product then has shape "
                               f"({batch}, {out_f}), and the bias ({out_f},) adds to every row.")
            return _hinted(err, f"forward gets a batch of shape ({batch}, {in_f}) and returns ({batch}, {out_f}).",
                           "MMul's forward in section 3 does the product; add the bias to its result.")
        if isinstance(out, Function):
            return _check.failed(title, f"forward returned a {type(out).__name__} object, not a tensor",
                                 hint=["a Function is not called directly: calling the class makes an object "
                                       "and runs nothing.",
                                       "MMul's forward in section 3 shows how a Function is run: with .apply(...)."])
        if isinstance(out, Tensor) and tuple(out.shape) != (batch, out_f):
            return _check.failed(title, f"the output of {made} has the wrong shape, for input = "
                                        f"{_check._show(x.detach())}", expected=(batch, out_f), got=tuple(out.shape),
                                 hint=["forward returns one row per row of the input: shape (batch, out_features).",
                                       "the product and the bias already give that shape: does forward reshape, "
                                       "squeeze or sum the result?"])
        hint = ["the output should be x @ W.T + b, with W = self.weight and b = self.bias.",
                "MMFunction.apply(input, weight) already computes input @ weight.t(): pass the weight as it is.",
                "then add the bias to the product; broadcasting adds it to every row."]
        if isinstance(out, Tensor) and np.allclose(out._data, xd @ W.T, atol=1e-4):
            hint = ["you left out the bias: the output is x @ W.T alone.",
                    "nn.Linear computes x @ weight.t() + bias: add self.bias to the product."]
        bad = _check.check_tensor(title, out, Tensor(xd @ W.T + b), "output", where, hint=hint, atol=1e-4)
        if bad is not None:
            return bad
        names = _node_names(out.grad_fn)
        if "MMFunctionBackward" not in names:
            return _check.failed(
                title, f"the output's graph has no MMFunctionBackward node (it has: {', '.join(names) or 'none'})",
                hint=["the numbers are right, but the product did not go through MMFunction, so the backward you "
                      "wrote in notebook 04 never runs.",
                      "do the product with MMFunction.apply(input, self.weight), as MMul's forward does, then add "
                      "the bias."])

        g = _check.random_tensor(generator, (batch, out_f), dtype=weight._data.dtype)
        gd = g._data.astype(np.float64)
        _, err = _check.call(title, out.backward, g)
        if err is not None:
            return _hinted(err, "the output's backward ran into an error: the graph your forward built is "
                                "not the one of input @ weight.t() + bias.",
                           "draw it: draw(layer(x).sum(), params=dict(layer.named_parameters())).")
        for what, t, expected, tiers in (
                ("gradient of weight", weight, gd.T @ xd,
                 ["dL/dW = grad.t() @ input, which MMFunction's backward computes.",
                  "is self.weight itself (not a copy, not a detached tensor) what forward passes to "
                  "MMFunction.apply?"]),
                ("gradient of bias", bias, gd.sum(0),
                 ["the bias is added to every row, so its gradient is the column sum of the output's gradient: "
                  "autograd does this for you when forward adds self.bias.",
                  "is self.bias itself (not a copy, not a detached tensor) what forward adds?"]),
                ("gradient of the input", x, gd @ W,
                 ["dL/dinput = grad @ W, which MMFunction's backward computes.",
                  "is the input itself (not a detached copy) what forward passes to MMFunction.apply?"])):
            if t._grad is None:
                return _check.failed(title, f"no {what} after backward{where}", hint=tiers)
            bad = _check.check_tensor(title, t._grad, Tensor(expected), what, where, hint=tiers, atol=1e-4)
            if bad is not None:
                return bad
    return _check.passed(title, f"weight and bias are registered with the right shapes, and forward and backward "
                                f"match x @ W.T + b for {len(_LINEAR_CASES)} hidden layers.")


# ---------------------------------------------------------------------------- notebook 05b: the loop
_RUNS = ((12, 0.05, 5050), (7, 0.15, 5051))  # (steps, lr, seed of the problem): no number can be hard-coded
_NOTEBOOK_RUN = (60, 0.1)                     # the notebook's steps and lr


def _problem(seed):
    generator = _check.rng(seed)
    X = generator.normal(size=(16, 3)).astype(np.float32)
    W_true = generator.uniform(-2, 2, (2, 3))
    b_true = generator.uniform(-1, 1, (2,))
    Y = (X @ W_true.T + b_true).astype(np.float32)
    W0 = generator.uniform(-0.5, 0.5, (2, 3)).astype(np.float32)
    b0 = np.zeros(2, np.float32)
    return Tensor(X), Tensor(Y), W0, b0


def _model(W0, b0):
    from minigrad.nn import Linear
    model = Linear(3, 2)
    with grad_mode.no_grad():
        model.weight.copy_(Tensor(W0))
        model.bias.copy_(Tensor(b0))
    return model


@_check.reference
def _reference(model, X, Y, steps, lr, zero_grad=True):
    from minigrad.nn import MSELoss
    from minigrad.optim import SGD
    optimizer, loss_fn, losses = SGD(model.parameters(), lr=lr), MSELoss(), []
    for _ in range(steps):
        loss = loss_fn(model(X), Y)
        if zero_grad:
            optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        losses.append(loss.item())
    return losses


def _fmt(losses):
    return "[" + ", ".join(f"{v:.4f}" for v in losses) + "]"


def _same(a, b):
    return len(a) == len(b) and np.allclose(a, b, rtol=1e-4, atol=1e-5)


_ORDER_TIERS = ["what is in each parameter's .grad at the moment optimizer.step() runs?",
                "zero_grad() sets .grad to None; backward() fills it; step() reads it. Which order lets step() "
                "see this step's gradient?",
                "in every step: optimizer.zero_grad(), loss.backward(), then optimizer.step()."]


@_check.exercise("train")
def check_training_loop(train):
    """Notebook 05b: ``train(model, X, Y, steps, lr)`` zeroes the gradients every step and returns the losses."""
    title = "train"
    for run, (steps, lr, seed) in enumerate(_RUNS):
        other_steps = {s for s, _, _ in _RUNS if s != steps} | {_NOTEBOOK_RUN[0]}
        other_lrs = sorted({r for _, r, _ in _RUNS if r != lr} | {_NOTEBOOK_RUN[1]})
        given = f"hidden problem {run + 1}, steps={steps}, lr={lr}"
        X, Y, W0, b0 = _problem(seed)
        model = _model(W0, b0)
        result, err = _check.call(title, train, model, X, Y, steps, lr)
        if err is not None:
            return _hinted(err, "train(model, X, Y, steps, lr) builds an optimizer and a loss function, runs "
                                "`steps` steps and returns the list of the losses.",
                           "the colleague's train_colleague above has every line you need; only their order is "
                           "wrong.")
        if not isinstance(result, (list, tuple)):
            return _check.failed(title, f"train should return a list with one loss per step, got a "
                                        f"{type(result).__name__}",
                                 hint=["keep a list, append each step's loss to it, and return the list after "
                                       "the loop.", "is the `return` inside the loop, or missing?"])
        if len(result) != steps:
            problem = f"train should return one loss per step ({steps} for {given}), got a list of {len(result)}"
            hint = ["one loss per step: append inside the loop, once per step, and return after the loop.",
                    "is the `return` inside the loop, or the append outside it?"]
            if len(result) in other_steps:
                hint = ["the number of steps is an argument of train: the check asks for different numbers.",
                        "loop over range(steps), not over a fixed number."]
            return _check.failed(title, problem, hint=hint)
        try:
            losses = [float(v) for v in result]
        except (TypeError, ValueError, RuntimeError):
            return _check.failed(title, "the list should hold numbers, one loss per step",
                                 hint=["a loss is a tensor with one element; the list should hold Python floats.",
                                       "loss.item() turns a one-element tensor into a Python float."])

        moved = not (np.array_equal(model.weight._data, W0) and np.array_equal(model.bias._data, b0))
        if not moved:
            if np.ptp(losses) > 1e-6 * (1 + abs(losses[0])):
                return _check.failed(
                    title, f"the losses change, but the parameters of the model train was given did not: the loop "
                           f"trained another model ({given})",
                    hint=["train has to train the model it gets as its argument: the check looks at that model's "
                          "parameters afterwards.",
                          "build the optimizer from model.parameters() of the argument, and compute the loss of "
                          "model(X); do not make a new model inside train."])
            return _check.failed(
                title, "the parameters did not change during training: optimizer.step() had nothing to work with",
                hint=_ORDER_TIERS)

        expected = _reference(_model(W0, b0), X, Y, steps, lr)
        if not _same(losses, expected):
            shown = dict(expected=_fmt(expected), got=_fmt(losses))
            if _same(losses, _reference(_model(W0, b0), X, Y, steps, lr, zero_grad=False)):
                return _check.failed(
                    title, f"the gradients pile up from step to step: each .grad is the sum of all the steps so far "
                           f"({given})", **shown,
                    hint=["backward() adds into .grad: what does .grad hold at the second step?",
                          "section 9 shows this loop and what its loss does.",
                          "call optimizer.zero_grad() once per step, before loss.backward()."])
            for fixed in other_lrs:
                if _same(losses, _reference(_model(W0, b0), X, Y, steps, fixed)):
                    return _check.failed(
                        title, f"these are the losses of lr={fixed}, but train was given lr={lr} ({given}): the "
                               f"lr argument is not used", **shown,
                        hint=["the learning rate is an argument of train: the check asks for different ones.",
                              "pass train's own lr to optim.SGD, not a number."])
            if len(losses) > 1 and _same(losses[:-1], expected[1:]):
                return _check.failed(
                    title, f"each loss is the one after that step's update, not before it ({given})", **shown,
                    hint=["the exercise asks for the loss the step computed, before optimizer.step() changed the "
                          "parameters.",
                          "append the loss of this step's forward pass; do not compute a new one after the step."])
            if not np.isclose(losses[0], expected[0], rtol=1e-4, atol=1e-5):
                return _check.failed(
                    title, f"the first loss, before any update, is already different ({given})", **shown,
                    hint=["the first loss depends only on the model's starting weights, X, Y and the loss function.",
                          "use nn.MSELoss() with its default (the mean), and compare model(X) with Y."])
            first = next(i for i, (a, e) in enumerate(zip(losses, expected)) if not np.isclose(a, e, rtol=1e-4,
                                                                                                 atol=1e-5))
            return _check.failed(title, f"the losses differ from a correct loop's from step {first} on ({given})",
                                 **shown,
                                 hint=["the first loss is right, so the model and the loss are; the updates differ.",
                                       "one optimizer.step() per step, with optim.SGD and train's own lr, and "
                                       "nothing else that changes the parameters."])
        reference = _model(W0, b0)
        _reference(reference, X, Y, steps, lr)
        for name in ("weight", "bias"):
            got, ref = getattr(model, name)._grad, getattr(reference, name)._grad
            if got is not None and not np.allclose(got._data, 0) and not np.allclose(got._data, ref._data, atol=1e-5):
                return _check.failed(title, f"after the loop, {name}.grad is not the gradient of the last step alone "
                                            f"({given})", expected=ref.detach(), got=got.detach(),
                                     hint=["the losses are right, but .grad holds more than one step's gradient at "
                                           "the end.",
                                           "call optimizer.zero_grad() in every step, before loss.backward()."])
        if not losses[-1] < losses[0]:
            return _check.failed(title, f"the loss did not go down ({given})", expected="last loss < first loss",
                                 got=_fmt(losses),
                                 hint=["each step should move the parameters against their gradient.",
                                       "compare your loop with the loop of section 4."])
    runs = ", ".join(f"{s} steps at lr={r}" for s, r, _ in _RUNS)
    return _check.passed(title, f"the loss goes down on {len(_RUNS)} hidden problems ({runs}), and every step "
                                "uses only its own gradient.")


# ---------------------------------------------------------------------------- exercise 2: GradScale
_SCALES = ((-0.5, (2, 3)), (3.0, (4,)), (0.25, (3, 1, 2)), (-2.0, ()))   # (scale, shape of x)
_CHAIN = (-0.5, 3.0)   # two GradScale layers in one graph: the gradient is scaled by both


def _gradient_tiers(g, got):
    """Hint tiers for a wrong gradient of x, from what the gradient ``got`` is."""
    if _check.close(got, g):
        return ["the gradient came through unscaled, as if your module were not there: is your backward ever "
                "called? A backward method on the module is never called.",
                "autograd calls only the backward of the Functions in the graph (section 5): the module's forward "
                "has to run GradScaleFunction with .apply, and the scaling belongs in GradScaleFunction.backward."]
    if _check.close(got, Tensor(-g._data)):
        return ["the gradient was negated, not multiplied by scale: use the scale the module was made with, not a "
                "fixed -1.",
                "forward gets scale as its second argument and can leave it on ctx; backward gets the same ctx."]
    return ["the gradient that reaches x should be the incoming gradient times scale.",
            "backward gets scale back from ctx, where forward left it.",
            "backward returns two values: the incoming gradient multiplied by the scale, and None for scale."]


@_check.exercise("GradScale")
def check_grad_scale(GradScale):
    """Exercise 2: ``GradScale(scale)`` passes values through and multiplies the gradient by ``scale``."""
    title = "GradScale"
    bad = _is_module_class(GradScale, title, "GradScale")
    if bad is not None:
        return bad
    generator = _check.rng(5052)
    for scale, shape in _SCALES:
        made = f"GradScale({scale})"
        layer, err = _check.call(title, GradScale, scale)
        if err is not None:
            return _hinted(err, "GradScale's __init__ is given: run the exercise cell as it is, with your code "
                                "only between the markers.",
                           "the check makes GradScale(scale) with a Python number.")
        x = _check.random_tensor(generator, shape, requires_grad=True)
        where = f" of {made} for x = {_check._show(x.detach())}"
        out, err = _check.call(title, layer, x)
        if err is not None:
            if "save_for_backward can only save" in err.text:
                return _hinted(err, "save_for_backward keeps tensors only, and scale is a Python number.",
                               "ctx is an ordinary Python object, and backward gets the same ctx that forward "
                               "got: anything forward sets on it is still there.")
            return _hinted(err, f"{made} on x of shape {shape}: the module's forward runs the Function on x and "
                                "the module's scale; the Function's forward keeps the scale for backward and "
                                "returns x's values, whatever their shape.",
                           "section 5's ReverseGradLayer shows how a module runs a Function: with .apply(...).")
        if isinstance(out, Function):
            return _check.failed(title, f"forward returned a {type(out).__name__} object, not a tensor",
                                 hint=["a Function is not called directly: calling the class makes an object and "
                                       "runs nothing.",
                                       "section 5's ReverseGradLayer shows how a Function is run: with .apply(...)."])
        hint = ["the forward pass must not change the values: only the gradient is scaled.",
                "the Function's forward returns a copy of x's values, as GradScaleBroken's forward does; scale is "
                "used only in backward."]
        if isinstance(out, Tensor) and out.shape == x.shape and scale != 1 and \
                _check.close(out, Tensor(x._data * np.float32(scale))):
            hint = ["the values were multiplied by scale, but only the gradient should be: forward returns x's "
                    "values unchanged, as a new tensor (x.clone()).",
                    "scale is used only in the Function's backward; forward just keeps it for later."]
        bad = _check.check_tensor(title, out, x.detach(), "output", where, hint=hint)
        if bad is not None:
            return bad
        if out.grad_fn is None:
            return _check.failed(title, f"the output{where} has no grad_fn, so no backward can run for it",
                                 hint=["a result made under no_grad, or by detach(), is not in the graph.",
                                       "the module's forward should return what the Function's .apply(...) "
                                       "returns: apply records the Function's node in the graph."])
        g = _check.random_tensor(generator, shape)
        _, err = _check.call(title, out.backward, g)
        if err is not None:
            if "incorrect number of gradients" in err.text:
                return _hinted(err, "backward returns one value per input of forward, and forward gets two, x and "
                                    "scale.",
                               "scale is a plain number with no gradient: return None in its place.")
            if "different than None at position 2" in err.text:
                return _hinted(err, "backward returns the gradients in the order of forward's inputs: x first, "
                                    "then scale.",
                               "scale is a plain number: its place, the second, gets None.")
            return _hinted(err, "backward(ctx, grad_output) gets the incoming gradient and the ctx that forward "
                                "filled.", "backward gets the scale back from ctx, where forward left it.")
        if x._grad is None:
            return _check.failed(title, f"no gradient reached x{where}",
                                 hint=["backward's first return value is the gradient for x.",
                                       "is the Function's output made from x, and does backward return a tensor "
                                       "first?"])
        bad = _check.check_tensor(title, x._grad, Tensor(g._data * np.float32(scale)), "gradient of x",
                                  where + f" and gradient {_check._show(g)}", hint=_gradient_tiers(g, x._grad))
        if bad is not None:
            return bad

    # two scalers in one graph: each backward must use its own scale
    first_scale, second_scale = _CHAIN
    made = f"GradScale({second_scale})(GradScale({first_scale})(x))"
    layers = []
    for scale in _CHAIN:
        layer, err = _check.call(title, GradScale, scale)
        if err is not None:
            return _hinted(err, "the check makes GradScale(scale) with a Python number.",
                           "GradScale's __init__ is given: keep it as it is.")
        layers.append(layer)
    x = _check.random_tensor(generator, (2, 2), requires_grad=True)
    out, err = _check.call(title, lambda t: layers[1](layers[0](t)), x)
    if err is not None:
        return _hinted(err, "two GradScale layers, one after the other, should work like one.",
                       "does your forward keep anything outside ctx?")
    g = _check.random_tensor(generator, (2, 2))
    _, err = _check.call(title, out.backward, g)
    if err is not None:
        return _hinted(err, "two GradScale layers, one after the other, should work like one.",
                       "does your backward read anything that is not on its own ctx?")
    expected = Tensor(g._data * np.float32(first_scale * second_scale))
    where = f" of {made} for x = {_check._show(x.detach())} and gradient {_check._show(g)}"
    hint = [f"the gradient of x passes through both layers, so it is scaled by {second_scale} and then by "
            f"{first_scale}: {first_scale * second_scale} in all.",
            "each call of the Function has its own ctx: the scale of that call belongs there."]
    if x._grad is not None:
        for shared in _CHAIN:
            if _check.close(x._grad, Tensor(g._data * np.float32(shared * shared))):
                return _check.failed(
                    title, f"both layers scaled the gradient by {shared}{where}: the two backward calls used one "
                           f"shared scale", expected=expected, got=x._grad.detach(),
                    hint=["the scale was kept in one place for all calls (the Function class, a global, ...), so "
                          "the last layer's scale is used by both backward calls.",
                          "each call of the Function gets its own ctx: keep the scale on ctx."])
    if x._grad is None:
        return _check.failed(title, f"no gradient reached x{where}", hint=hint)
    bad = _check.check_tensor(title, x._grad, expected, "gradient of x", where, hint=hint)
    if bad is not None:
        return bad
    return _check.passed(title, f"the values pass through unchanged and the gradient is multiplied by scale, for "
                                f"scales {', '.join(str(s) for s, _ in _SCALES)} and for two layers in one graph.")


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
    hints=["Cross-entropy is the mean of -ln(probability of the right class), and ln is the natural logarithm.",
           "Every point has the same probability, so every point has the same term, and the mean of equal terms "
           "is that term. np.log is the natural logarithm; you may write the answer as an expression."],
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


# ---- 05b, section 7: softmax with cross-entropy (stage 5b's check, build.stage5b, uses these) ------------------------------------------
CE_TITLE = "the gradient of the mean cross-entropy with respect to the logits"


@_check.reference
def _ce_backward(z, y):
    """z.grad after F.cross_entropy(z, y).backward(), in float64."""
    from minigrad.nn import functional as F
    zt = Tensor(np.asarray(z, dtype=np.float64), requires_grad=True)
    F.cross_entropy(zt, Tensor(np.asarray(y, dtype=np.int64))).backward()
    return zt.grad


def _ce_cases():
    """One row (readable), a batch of 4, then logits in the thousands (exp overflows there)."""
    g = _check.rng(1501)
    return [(np.array([[2.0, -1.0, 0.5]]), np.array([0])),
            (np.round(g.normal(size=(4, 5)), 2), g.integers(0, 5, size=4)),
            (np.round(g.normal(scale=800, size=(3, 4)), 1), np.array([2, 0, 3]))]


CE_TIERS = [
    "for one row, -log softmax(z)_y = -z_y + log(sum_j exp(z_j)): differentiate the two terms with respect to "
    "each z_i, then remember that the loss is the mean over the rows.",
    "the derivative of log(sum_j exp(z_j)) with respect to z_i is softmax(z)_i; the term -z_y adds -1 at the "
    "position i = y only; and the mean divides every row's gradient by the number of rows.",
    "a worked case: z = [[0, 0]] with y = [1] has softmax [0.5, 0.5], so its gradient is [[0.5, -0.5]]; with "
    "two such rows each row's gradient is half of that.",
]


def _ce_diagnosis(got, z, y, expected):
    """The hint tiers for a gradient of the right shape that is wrong."""
    n = len(y)
    e = np.exp(z - z.max(axis=1, keepdims=True))
    p = e / e.sum(axis=1, keepdims=True)
    if not np.all(np.isfinite(got)):
        return ["your gradient has inf or nan for logits in the thousands: exp(1000) overflows even in float64. "
                "softmax(z - c) = softmax(z) for any number c per row; which c keeps every exp at most 1?"] \
            + CE_TIERS[1:]
    if n > 1 and np.allclose(got, n * expected):
        return [f"every entry is {n} times too big: the loss is the mean over the {n} rows, not their sum."] \
            + CE_TIERS[1:]
    if np.allclose(got, -expected):
        return ["every sign is flipped: the loss is minus the log-probability of the right class."] + CE_TIERS[1:]
    if np.allclose(got, p / n) or np.allclose(got, p):
        return ["that is softmax alone: the term -z_y of the loss is missing (it lowers the right class's entry "
                "by 1)."] + CE_TIERS[1:]
    return CE_TIERS


# ---- 05b, optional section: initialisation ---------------------------------------------------------
KAIMING_TITLE = "the standard deviation of a Kaiming-initialised weight"
KAIMING_CASES = [(100, "relu"), (100, "tanh"), (784, "relu"), (30, "linear"), (7, "tanh")]

KAIMING_TIERS = [
    "one output of a layer is a sum of fan_in products w * x: its variance is fan_in * Var(w) * Var(x). Which "
    "Var(w) keeps the output's variance equal to the input's?",
    "Var(w) = 1 / fan_in keeps it for a linear layer, so the standard deviation is the square root of that; the "
    "nonlinearity then multiplies it by its gain: sqrt(2) for relu (it zeroes half the values), 5 / 3 for tanh, "
    "1 for linear.",
    "a worked case: fan_in = 16 and tanh give (5 / 3) / 4 = 0.4167.",
]


def _kaiming_diagnosis(got, fan_in, nonlinearity, expected):
    """The hint tiers for a wrong number."""
    import math
    if math.isclose(got, math.sqrt(2 / fan_in)) and nonlinearity != "relu":
        return [f"that is relu's value; {nonlinearity} has another gain."] + KAIMING_TIERS[1:]
    if math.isclose(got, 1 / math.sqrt(fan_in)):
        return ["that is 1 / sqrt(fan_in), right for a linear layer: the nonlinearity's gain is missing."] \
            + KAIMING_TIERS[1:]
    if math.isclose(got, expected ** 2):
        return ["that looks like a variance: the function returns a standard deviation, its square root."] \
            + KAIMING_TIERS[1:]
    if math.isclose(got, expected * fan_in):
        return ["the weight must get smaller as fan_in grows (more terms in each sum), by a factor "
                "1 / sqrt(fan_in)."] + KAIMING_TIERS[1:]
    return KAIMING_TIERS


@_check.exercise("kaiming_std")
def check_kaiming_std(kaiming_std):
    """``kaiming_std(fan_in, nonlinearity)`` must be ``calculate_gain(nonlinearity) / sqrt(fan_in)``."""
    import math
    from minigrad.nn import init
    t = KAIMING_TITLE
    for fan_in, nonlinearity in KAIMING_CASES:
        where = f" for fan_in = {fan_in}, nonlinearity = {nonlinearity!r}"
        got, err = _check.call(t, kaiming_std, fan_in, nonlinearity, returns="a number, the standard deviation")
        if err is not None:
            return _hinted(err, "the check passes fan_in (an int) and nonlinearity, one of 'relu', 'tanh' and "
                                "'linear'.", *KAIMING_TIERS[:2])
        expected = init.calculate_gain(nonlinearity) / math.sqrt(fan_in)
        try:
            got = float(got)
        except (TypeError, ValueError):
            return _check.failed(t, f"kaiming_std should return a number{where}, got {type(got).__name__}",
                                 hint=KAIMING_TIERS)
        if not math.isclose(got, expected, rel_tol=1e-6):
            return _check.failed(t, f"wrong standard deviation{where}", expected=round(expected, 6),
                                 got=round(got, 6), hint=_kaiming_diagnosis(got, fan_in, nonlinearity, expected))
    return _check.passed(t, f"correct for {len(KAIMING_CASES)} hidden layers: gain / sqrt(fan_in), "
                            "the standard deviation of nn.init.kaiming_normal_(w, nonlinearity=...).")


# ---- 05b: your engine trains the two-moons network (stage 5b) ---------------------------------------
@_check.exercise("my_mlp")
def check_my_mlp(my_mlp):
    """``my_mlp.py`` (your CrossEntropy, with the given Linear, Tanh and Sequential, on your engine): the checks
    of stages 1-5 again, CrossEntropy against minigrad's, and the two-moons training against PyTorch's losses."""
    from . import build
    return build.stage5b(my_mlp)
