"""Wrong answers planted in the checks of ``03_explicit_gradients.ipynb`` (see ``__init__.py``)."""
from . import Wrong

_LOOP = ("import minigrad\n"
         "def train(w, xs, ys, lr=0.05, steps=12):\n"
         "    losses = []\n"
         "    for step in range({steps}):\n"
         "{body}"
         "        losses.append(loss.item())\n"
         "    return losses\n")


def _loop(body, steps="steps"):
    """A train function: the notebook's loop with ``body`` (8 spaces of indent) as its step."""
    return _LOOP.format(steps=steps, body="".join(f"        {line}\n" for line in body.splitlines()))


WRONG = {
    "nb03.check_q_accumulate": [
        Wrong("fitted", "q_accumulate = 4",
              "is not it",
              "dy/dx of one graph: as if each backward() replaced .grad"),
        Wrong("common", "q_accumulate = 8",
              "is not it",
              "x.grad after the second backward(), not the third"),
        Wrong("other", "q_accumulate = 0",
              "is not it",
              "as if three backward calls cancelled out"),
    ],
    "nb03.check_q_retain": [
        Wrong("fitted", "q_retain = 'b'",
              "is not it",
              "only w2, as if retain_graph=True chose the last parameter"),
        Wrong("common", "q_retain = 'd'",
              "is not it",
              "the myth: retain_graph=True only keeps the graph and computes nothing"),
        Wrong("other", "q_retain = 'a'",
              "is not it",
              "only w1"),
    ],
    "nb03.check_second_derivative": [
        Wrong("fitted",
              "def second_derivative(f, x):\n"
              "    return 6 * x\n",
              "that is the second derivative of x**3 - 2*x, not of the f that was passed",
              "f'' of the notebook's example lambda x: x ** 3 - 2 * x, whatever f is"),
        Wrong("common",
              "from minigrad import autograd\n"
              "def second_derivative(f, x):\n"
              "    x = x.detach().requires_grad_()\n"
              "    (d1,) = autograd.grad(f(x).sum(), x)\n"
              "    (d2,) = autograd.grad(d1.sum(), x)\n"
              "    return d2\n",
              "the first derivative has no graph of its own",
              "no create_graph=True: the first derivative has no graph to differentiate"),
        Wrong("common",
              "from minigrad import autograd\n"
              "def second_derivative(f, x):\n"
              "    x = x.detach().requires_grad_()\n"
              "    return autograd.grad(f(x).sum(), x)[0]\n",
              "that is f'(x), the first derivative",
              "differentiated once"),
        Wrong("common",
              "from minigrad import autograd\n"
              "def second_derivative(f, x):\n"
              "    x.requires_grad_()\n"
              "    (d1,) = autograd.grad(f(x).sum(), x, create_graph=True)\n"
              "    (d2,) = autograd.grad(d1.sum(), x)\n"
              "    return d2\n",
              "your function changed x",
              "right numbers, but the caller's x now requires grad (the task says not to change x)"),
        Wrong("common",
              "from minigrad import autograd\n"
              "def second_derivative(f, x):\n"
              "    x = x.detach().requires_grad_()\n"
              "    (d1,) = autograd.grad(f(x), x, create_graph=True)\n"
              "    (d2,) = autograd.grad(d1, x)\n"
              "    return d2\n",
              "How did notebook 02 get an elementwise derivative",
              "autograd.grad of a vector without a sum (or grad_outputs)"),
        Wrong("other",
              "def second_derivative(f, x):\n"
              "    x = x.detach().requires_grad_()\n"
              "    f(x).sum().backward(create_graph=True)\n"
              "    x.grad.sum().backward()\n"
              "    return x.grad.detach()\n",
              "that is f'(x) + f''(x)",
              "backward() twice: the second adds f'' into the .grad that holds f'"),
        Wrong("other",
              "from minigrad import autograd\n"
              "def second_derivative(f, x):\n"
              "    (d1,) = autograd.grad(f(x).sum(), x, create_graph=True)\n"
              "    return autograd.grad(d1.sum(), x)[0]\n",
              "x arrives without requires_grad, so f(x) has no graph",
              "x used as it arrives, without requires_grad"),
    ],
    "nb03.check_train": [
        Wrong("fitted",
              _loop("w.grad = None\n"
                    "loss = ((w * xs - ys) ** 2).mean()\n"
                    "loss.backward()\n"
                    "with minigrad.no_grad():\n"
                    "    w -= 0.05 * w.grad\n", steps="12"),
              "train should return one loss per step (7 steps), got 12 losses",
              "the notebook's lr = 0.05 and 12 steps typed in instead of the arguments"),
        Wrong("fitted",
              _loop("w.grad = None\n"
                    "loss = ((w * xs - ys) ** 2).mean()\n"
                    "loss.backward()\n"
                    "with minigrad.no_grad():\n"
                    "    w -= 0.05 * w.grad\n"),
              "these are the losses of a correct loop with lr = 0.05",
              "the notebook's lr = 0.05 typed in instead of the argument lr"),
        Wrong("common",
              _loop("loss = ((w * xs - ys) ** 2).mean()\n"
                    "loss.backward()\n"
                    "with minigrad.no_grad():\n"
                    "    w -= lr * w.grad\n"),
              "these are exactly the losses of the buggy loop",
              "the notebook's buggy loop, unchanged: no reset, the gradients pile up"),
        Wrong("common",
              _loop("w.grad = None\n"
                    "loss = ((w * xs - ys) ** 2).mean()\n"
                    "loss.backward()\n"
                    "with minigrad.no_grad():\n"
                    "    w = w - lr * w.grad\n"),
              "the update made a new tensor and gave it the name w",
              "w = w - lr * w.grad under no_grad: w becomes a new tensor that does not require grad, the next "
              "backward fails"),
        Wrong("common",
              _loop("w.grad = None\n"
                    "loss = ((w * xs - ys) ** 2).mean()\n"
                    "loss.backward()\n"
                    "w = w - lr * w.grad\n"),
              "backward() fills .grad only for leaves",
              "w = w - lr * w.grad without no_grad: w becomes a non-leaf whose .grad stays None"),
        Wrong("common",
              _loop("w.grad.zero_()\n"
                    "loss = ((w * xs - ys) ** 2).mean()\n"
                    "loss.backward()\n"
                    "with minigrad.no_grad():\n"
                    "    w -= lr * w.grad\n"),
              "there is no gradient yet",
              "w.grad.zero_() before the first backward, when w.grad is still None"),
        Wrong("common",
              _loop("loss = ((w * xs - ys) ** 2).mean()\n"
                    "loss.backward()\n"
                    "w.grad = None\n"
                    "with minigrad.no_grad():\n"
                    "    w -= lr * w.grad\n"),
              "w.grad is None where the update uses it",
              "the reset between backward and the update throws the gradient away"),
        Wrong("common",
              _loop("w.grad = None\n"
                    "loss = ((w * xs - ys) ** 2).mean()\n"
                    "loss.backward()\n"
                    "w -= lr * w.grad\n"),
              "the update itself is being recorded",
              "the update outside no_grad: autograd refuses to change a leaf in place"),
        Wrong("other",
              _loop("w.grad = None\n"
                    "loss = ((w * xs - ys) ** 2).mean()\n"
                    "loss.backward()\n"
                    "with minigrad.no_grad():\n"
                    "    w = (w - lr * w.grad).requires_grad_()\n"),
              "never moved",
              "new tensors each step: the losses are right, the w passed in never changes"),
    ],
}
