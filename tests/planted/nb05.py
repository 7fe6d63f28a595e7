"""Wrong answers planted in the checks of notebooks 05 and 05b (``minigrad_course.exercises.nb05``).

Each code is a notebook cell that defines the answer the check reads. The cells of 05 need the
notebook's ``MMFunction``; they define it again, as section 1 does, so that they also run alone.
The answers of 05b's stage 5b are whole ``my_mlp.py`` files.
"""
import importlib
import inspect

from . import Wrong

NOTEBOOK_05 = '''import minigrad
from minigrad import nn
from minigrad.autograd import Function


class MMFunction(Function):          # notebook 05, section 1
    @staticmethod
    def forward(ctx, input, weight):
        ctx.save_for_backward(input, weight)
        return input.mm(weight.t())

    @staticmethod
    def backward(ctx, grad_output):
        input, weight = ctx.saved_tensors
        grad_input = grad_weight = None
        if ctx.needs_input_grad[0]:
            grad_input = grad_output.mm(weight)
        if ctx.needs_input_grad[1]:
            grad_weight = grad_output.t().mm(input)
        return grad_input, grad_weight

'''


def linear(init, forward):
    """A MyLinear cell with the given bodies of __init__ and forward."""
    return NOTEBOOK_05 + f'''
class MyLinear(nn.Module):
    def __init__(self, in_features, out_features):
{init}

    def forward(self, input):
{forward}
'''


RIGHT_INIT = '''        super().__init__()
        self.weight = nn.Parameter(minigrad.randn(out_features, in_features) * 0.1)
        self.bias = nn.Parameter(minigrad.zeros(out_features))'''
RIGHT_FORWARD = '''        return MMFunction.apply(input, self.weight) + self.bias'''


def grad_scale(forward, backward, module_forward="        return GradScaleFunction.apply(x, self.scale)"):
    """A GradScale cell with the given bodies of the Function's forward and backward and the module's forward."""
    return f'''from minigrad import nn
from minigrad.autograd import Function


class GradScaleFunction(Function):
    @staticmethod
    def forward(ctx, x, scale):
{forward}

    @staticmethod
    def backward(ctx, grad_output):
{backward}


class GradScale(nn.Module):
    def __init__(self, scale):
        super().__init__()
        self.scale = scale

    def forward(self, x):
{module_forward}
'''


def train(body):
    """A train cell: optimizer, loss function and list as in the solution, then ``body`` (the loop)."""
    return f'''from minigrad import nn, optim


def train(model, X, Y, steps, lr):
    optimizer = optim.SGD(model.parameters(), lr=lr)
    loss_fn = nn.MSELoss()
    losses = []
{body}
    return losses
'''


def my_mlp(*changes):
    """05b's ``my_mlp.py`` (stage 5b's reference as a student's file, on stage 5's engine) with each
    ``(old, new)`` made once."""
    src = inspect.getsource(importlib.import_module("minigrad_course.scratch.stage5b"))
    src = src.replace("from .stage5 import", "from minigrad_course.scratch.stage5 import")
    for old, new in changes:
        assert src.count(old) == 1, f"stage5b.py changed: {old!r} is there {src.count(old)} times"
        src = src.replace(old, new)
    return src


WRONG = {
    "nb05.check_linear": [
        Wrong("fitted", linear('''        super().__init__()
        self.weight = nn.Parameter(minigrad.randn(2, 3) * 0.1)     # the sizes of the notebook's nn.Linear(3, 2)
        self.bias = nn.Parameter(minigrad.zeros(2))''', RIGHT_FORWARD),
              "weight of MyLinear(4, 3) has the wrong shape",
              "the sizes of the notebook's nn.Linear(3, 2), not the arguments: right only for a layer of 3 inputs "
              "and 2 outputs"),
        Wrong("fitted", linear(RIGHT_INIT,
                               '''        return (MMFunction.apply(input, self.weight) + self.bias).squeeze(0)'''),
              "the output of MyLinear(2, 5) has the wrong shape",
              "squeezes the batch dimension: right for every batch but a batch of one row"),
        Wrong("common", linear(RIGHT_INIT, '''        return MMFunction.apply(input, self.weight)'''),
              "you left out the bias", "forward forgets the bias"),
        Wrong("common", linear('''        super().__init__()
        self.weight = nn.Parameter(minigrad.randn(out_features, in_features) * 0.1)
        self.bias = minigrad.zeros(out_features, requires_grad=True)''', RIGHT_FORWARD),
              "self.bias is a plain tensor", "the bias is a plain tensor, so the module does not register it"),
        Wrong("common", linear(RIGHT_INIT, '''        return input @ self.weight.t() + self.bias'''),
              "no MMFunctionBackward node", "right numbers, but the product does not go through MMFunction"),
        Wrong("common", linear('''        super().__init__()
        self.weight = nn.Parameter(minigrad.randn(in_features, out_features) * 0.1)
        self.bias = nn.Parameter(minigrad.zeros(out_features))''',
                               '''        return MMFunction.apply(input, self.weight.t()) + self.bias'''),
              "the two sizes swapped", "weight of shape (in, out), as in x @ W, transposed back in forward"),
        Wrong("common", linear('''        self.weight = nn.Parameter(minigrad.randn(out_features, in_features) * 0.1)
        self.bias = nn.Parameter(minigrad.zeros(out_features))''', RIGHT_FORWARD),
              "dictionaries that Module.__init__ creates", "super().__init__() left out"),
        Wrong("common", linear(RIGHT_INIT, '''        return MMFunction.apply(self.weight, input) + self.bias'''),
              "the shapes do not fit", "the two arguments of MMFunction swapped"),
        Wrong("other", linear(RIGHT_INIT, '''        return MMFunction(input, self.weight) + self.bias'''),
              "a Function is not called directly", "the Function called instead of .apply"),
    ],
    "nb05.check_grad_scale": [
        Wrong("fitted", grad_scale('''        GradScaleFunction.scale = scale              # one place for every call
        return x.clone()''', '''        return grad_output * GradScaleFunction.scale, None'''),
              "the two backward calls used one shared scale",
              "the scale kept on the Function class: right for one layer at a time, wrong for two in one graph"),
        Wrong("common", '''from minigrad import nn


class GradScale(nn.Module):                   # notebook 05's GradScaleBroken
    def __init__(self, scale):
        super().__init__()
        self.scale = scale

    def forward(self, x):
        return x.clone()

    def backward(self, grad_output):
        return grad_output * self.scale
''', "never called", "a backward method on the module, which autograd never calls"),
        Wrong("common", grad_scale('''        ctx.scale = scale
        return x * scale''', '''        return grad_output * ctx.scale, None'''),
              "the values were multiplied by scale", "forward scales the values too"),
        Wrong("common", grad_scale('''        ctx.scale = scale
        return x.clone()''', '''        return grad_output * ctx.scale'''),
              "incorrect number of gradients", "no None for scale: one gradient for two inputs"),
        Wrong("common", grad_scale('''        ctx.save_for_backward(scale)
        return x.clone()''', '''        scale, = ctx.saved_tensors
        return grad_output * scale, None'''),
              "save_for_backward keeps tensors only", "the number saved with save_for_backward"),
        Wrong("common", grad_scale('''        ctx.scale = scale
        return x.clone()''', '''        return -grad_output, None'''),
              "not a fixed -1", "the gradient reversal of section 5 instead of the scale"),
        Wrong("common", grad_scale('''        ctx.scale = scale
        return x.clone()''', '''        return None, grad_output * ctx.scale'''),
              "x first, then scale", "the two gradients in the wrong order"),
        Wrong("other", grad_scale('''        ctx.scale = scale
        return x.clone()''', '''        return grad_output * ctx.scale, None''',
                                  module_forward="        return GradScaleFunction(x, self.scale)"),
              "a Function is not called directly", "the Function called instead of .apply"),
        Wrong("other", grad_scale('''        ctx.scale = scale
        return x.clone()''', '''        return grad_output * ctx.scale, None''',
                                  module_forward="        return GradScaleFunction.apply(x, self.scale).detach()"),
              "has no grad_fn", "the result detached from the graph"),
    ],
    "nb05.check_training_loop": [
        Wrong("fitted", train('''    optimizer = optim.SGD(model.parameters(), lr=0.05)   # the check's first lr
    for step in range(steps):
        loss = loss_fn(model(X), Y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        losses.append(loss.item())'''),
              "the lr argument is not used", "a fixed learning rate, the one of the check's first problem"),
        Wrong("fitted", train('''    for step in range(12):                   # the check's first number of steps
        loss = loss_fn(model(X), Y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        losses.append(loss.item())'''),
              "the number of steps is an argument", "a fixed number of steps, the one of the check's first problem"),
        Wrong("common", train('''    for step in range(steps):
        loss = loss_fn(model(X), Y)
        loss.backward()
        optimizer.zero_grad()
        optimizer.step()
        losses.append(loss.item())'''),
              "the parameters did not change", "the colleague's loop: zero_grad between backward and step"),
        Wrong("common", train('''    for step in range(steps):
        loss = loss_fn(model(X), Y)
        loss.backward()
        optimizer.step()
        losses.append(loss.item())'''),
              "the gradients pile up", "no zero_grad at all"),
        Wrong("common", train('''    for step in range(steps):
        loss = loss_fn(model(X), Y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        losses.append(loss_fn(model(X), Y).item())'''),
              "the one after that step's update", "each loss recorded after the update"),
        Wrong("common", train('''    for step in range(steps):
        loss = loss_fn(model(X), Y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        losses.append(loss.item())
        return losses'''),
              "one loss per step", "return inside the loop: one step only"),
        Wrong("common", train('''    loss_fn = nn.MSELoss(reduction="sum")
    for step in range(steps):
        loss = loss_fn(model(X), Y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        losses.append(loss.item())'''),
              "the first loss, before any update, is already different", "the summed loss instead of the mean"),
        Wrong("other", train('''    model = nn.Linear(3, 2)                  # a new model, not the one given
    optimizer = optim.SGD(model.parameters(), lr=lr)
    for step in range(steps):
        loss = loss_fn(model(X), Y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        losses.append(loss.item())'''),
              "the loop trained another model", "trains a model of its own instead of the argument"),
    ],
    "nb05.check_q_reverse": [
        Wrong("fitted", 'q_reverse = "a"\n', "is not it",
              "what the module's backward method says it does: but autograd never calls it"),
        Wrong("common", 'q_reverse = "c"\n', "is not it", "an error: but nothing calls the method at all"),
    ],
    "nb05.check_q_bias_grad": [
        Wrong("fitted", 'q_bias_grad = "a"\n', "is not it", "the gradient of one row, as if the batch had one"),
        Wrong("common", 'q_bias_grad = "c"\n', "is not it", "the weight's gradient depends on x; the bias's does not"),
    ],
    "nb05.check_q_first_loss": [
        Wrong("fitted", 'q_first_loss = 0.5\n', "is not it", "the probability itself, not -ln of it"),
        Wrong("common", 'import numpy as np\nq_first_loss = np.log10(2)\n', "is not it",
              "the logarithm to base 10, not the natural one"),
        Wrong("other", 'import numpy as np\nq_first_loss = np.log(0.5)\n', "is not it", "the minus sign left out"),
    ],
    "nb05.check_q_no_zero_grad": [
        Wrong("fitted", 'q_no_zero_grad = "a"\n', "is not it", "as if backward() replaced .grad"),
        Wrong("common", 'q_no_zero_grad = "c"\n', "is not it",
              "the error of a second backward through one graph; here every step has a new graph"),
    ],
    "nb05.check_my_mlp": [
        Wrong("fitted", my_mlp(("return Tensor(g / len(ctx.target) * grad.data), None",
                                "return Tensor(g * grad.data), None")),
              "times too big",
              "the gradient of one row's loss, right for a batch of one, the mean's 1 / rows left out"),
        Wrong("common", my_mlp(("shifted = z - z.max(axis=1, keepdims=True)", "shifted = z")),
              "overflows",
              "softmax straight from its formula: exp of a logit in the thousands is inf, and so is the loss"),
        Wrong("common", my_mlp(("        g[np.arange(len(ctx.target)), ctx.target] -= 1         # softmax(z) - onehot(y)\n",
                                "")),
              "softmax alone",
              "the -1 at the right class forgotten"),
        Wrong("other", my_mlp(("return Tensor(g / len(ctx.target) * grad.data), None",
                               "return Tensor(-g / len(ctx.target) * grad.data), None")),
              "every sign is flipped",
              "the gradient of the log-probability, not of its negative"),
    ],
    "nb05.check_kaiming_std": [
        Wrong("fitted",
              "import math\n"
              "def kaiming_std(fan_in, nonlinearity):\n"
              "    return math.sqrt(2 / fan_in)\n",
              "that is relu's value",
              "relu's formula for every nonlinearity: right for the first hidden layer, a relu one"),
        Wrong("common",
              "import math\n"
              "def kaiming_std(fan_in, nonlinearity):\n"
              "    return 1 / math.sqrt(fan_in)\n",
              "the nonlinearity's gain is missing",
              "the linear layer's value, without the gain"),
        Wrong("common",
              "def kaiming_std(fan_in, nonlinearity):\n"
              "    gain = {'relu': 2 ** 0.5, 'tanh': 5 / 3, 'linear': 1.0}[nonlinearity]\n"
              "    return (gain / fan_in ** 0.5) ** 2\n",
              "looks like a variance",
              "the variance returned for the standard deviation"),
        Wrong("other",
              "def kaiming_std(fan_in, nonlinearity):\n"
              "    gain = {'relu': 2 ** 0.5, 'tanh': 5 / 3, 'linear': 1.0}[nonlinearity]\n"
              "    return gain / fan_in ** 0.5 * fan_in\n",
              "smaller as fan_in grows",
              "multiplied by fan_in where it divides by its square root"),
    ],
}
