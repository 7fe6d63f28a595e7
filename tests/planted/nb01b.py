"""Wrong answers planted in the checks of ``01b_dynamic_graph.ipynb`` (see ``__init__.py``)."""
from . import Wrong

WRONG = {
    "nb01b.check_q_huber": [
        Wrong("fitted", "q_huber = 1",
              "which branch runs for r = -3",
              "the slope at r = 3, the notebook's worked example, without the sign of r"),
        Wrong("common", "q_huber = -3",
              "which branch runs for r = -3",
              "the slope r of the square branch, which does not run for |r| > 1"),
        Wrong("other", "q_huber = 2.5",
              "is not it",
              "the value huber(-3), not its slope"),
    ],
    "nb01b.check_q_nodes": [
        Wrong("fitted", "q_nodes = 2",
              "write the values down",
              "the two nodes of grow(3.0), the notebook's example"),
        Wrong("common", "q_nodes = 5",
              "write the values down",
              "the five values 0.7 ... 11.2 counted, not the four doublings between them"),
        Wrong("other", "q_nodes = 16",
              "is not it",
              "dy/dx = 2**4 instead of the number of nodes"),
    ],
    "nb01b.check_grow_grad": [
        Wrong("fitted",
              "import math\n"
              "def grow_grad(x0):\n"
              "    return 2.0 ** math.ceil(math.log2(10 / x0))\n",
              "wrong derivative for x0 = 25.0",
              "the number of doublings as ceil(log2(10 / x0)): right for every start below 20, "
              "a negative count (0.5) from 20 on"),
        Wrong("fitted",
              "import math\n"
              "def grow_grad(x0):\n"
              "    return 2.0 ** (math.floor(math.log2(10 / x0)) + 1)\n",
              "wrong derivative for x0 = 5.0",
              "floor + 1 for the count: right unless x0 doubles to exactly 10 (5.0)"),
        Wrong("common",
              "def grow_grad(x0):\n"
              "    grad = 1.0\n"
              "    while x0 <= 10:\n"
              "        x0, grad = x0 * 2, grad * 2\n"
              "    return grad\n",
              "y = 10 itself is not doubled",
              "<= instead of <: one doubling too many when the values reach exactly 10"),
        Wrong("common",
              "def grow_grad(x0):\n"
              "    y = x0\n"
              "    while y < 10:\n"
              "        y = y * 2\n"
              "    return y\n",
              "that is the value of grow(x0)",
              "the value grow(x0), not its derivative"),
        Wrong("common",
              "def grow_grad(x0):\n"
              "    count = 0\n"
              "    while x0 < 10:\n"
              "        x0, count = x0 * 2, count + 1\n"
              "    return 2.0 * count\n",
              "multiplies the local derivatives",
              "the factors 2 added, not multiplied"),
        Wrong("common",
              "def grow_grad(x0):\n"
              "    count = 0\n"
              "    while x0 < 10:\n"
              "        x0, count = x0 * 2, count + 1\n"
              "    return count\n",
              "how many times the loop body runs",
              "the number of doublings, not the product of their factors"),
    ],
    "nb01b.check_sum_until": [
        Wrong("fitted",
              "def sum_until(x, limit):\n"
              "    return x[0] + x[1]\n",
              "wrong total for x = [8.0, 1.0, 2.0]",
              "the notebook's example, 2 + 5, as a formula: two elements always"),
        Wrong("fitted",
              "import numpy as np\n"
              "def sum_until(x, limit):\n"
              "    k = int((np.cumsum(x.detach().numpy()) <= limit).sum()) + 1\n"
              "    return x[:k].sum()\n",
              "x has a negative element here",
              "counts the running totals not larger than limit: right while the total only grows "
              "(positive elements), wrong once it falls again"),
        Wrong("common",
              "import minigrad\n"
              "def sum_until(x, limit):\n"
              "    total = minigrad.tensor(0.0)\n"
              "    for v in x:\n"
              "        if (total + v).item() > limit:\n"
              "            break\n"
              "        total = total + v\n"
              "    return total\n",
              "one element early",
              "stops before adding the element that passes the limit"),
        Wrong("common",
              "import minigrad\n"
              "def sum_until(x, limit):\n"
              "    total = minigrad.tensor(0.0)\n"
              "    for v in x:\n"
              "        total = total + v\n"
              "        if total >= limit:\n"
              "            break\n"
              "    return total\n",
              "not larger than it",
              ">= instead of >: stops at a total equal to the limit"),
        Wrong("common",
              "import minigrad\n"
              "def sum_until(x, limit):\n"
              "    total = 0.0\n"
              "    for v in x.tolist():\n"
              "        total += v\n"
              "        if total > limit:\n"
              "            break\n"
              "    return minigrad.tensor(total)\n",
              "no grad_fn",
              "the total added up as Python floats: right value, no graph"),
        Wrong("common",
              "def sum_until(x, limit):\n"
              "    total, i = x[0], 1\n"
              "    while total.item() <= limit:\n"
              "        total = total + x[i]\n"
              "        i += 1\n"
              "    return total\n",
              "your loop went past the last element",
              "no stop at the end of x: IndexError when the total never passes the limit"),
    ],
    "nb01b.check_q_twice": [
        Wrong("fitted", "q_twice = 0",
              "the gradient of each path is added",
              "a.grad at 100 in notebook 01's sigmoid section (sigmoid's path alone), relu's path left out"),
        Wrong("common", "q_twice = 2",
              "the gradient of each path is added",
              "sigmoid's value at 100 (1) taken for its slope, plus relu's 1"),
        Wrong("other", "q_twice = 101",
              "is not it",
              "the values sigmoid(100) + relu(100), not the slopes"),
    ],
    "nb01b.check_tanh_grad": [
        Wrong("fitted",
              "import minigrad\n"
              "def my_tanh_grad(a):\n"
              "    return minigrad.zeros_like(a)\n",
              "0 is tanh's slope only where it is flat",
              "zeros: right in float32 on the notebook's linspace(-100, 100, 10), where tanh is flat"),
        Wrong("fitted",
              "def my_tanh_grad(a):\n"
              "    return (-a * a).exp()\n",
              "check your formula at a = 0",
              "a bell curve: 1 at 0 and 0 far away, as tanh's slope, but not it in between"),
        Wrong("common",
              "def my_tanh_grad(a):\n"
              "    t = a.tanh()\n"
              "    return t * (1 - t)\n",
              "sigmoid's formula",
              "sigmoid's s (1 - s), with tanh in it"),
        Wrong("common",
              "def my_tanh_grad(a):\n"
              "    return 1 - a.tanh()\n",
              "where is the square",
              "1 - t: the square forgotten"),
        Wrong("common",
              "def my_tanh_grad(a):\n"
              "    e, f = a.exp(), (-a).exp()\n"
              "    return 1 - ((e - f) / (e + f)) ** 2\n",
              "nan",
              "tanh computed from exp: inf / inf at +-100"),
        Wrong("common",
              "def my_tanh_grad(a):\n"
              "    return a.tanh()\n",
              "that is tanh(a) itself",
              "tanh, not its slope"),
        Wrong("other",
              "def my_tanh_grad(a):\n"
              "    t = a.tanh()\n"
              "    return (1 - t * t).sum()\n",
              "one number per element",
              "the gradient summed to one number"),
    ],
    "nb01b.check_q_clamp": [
        Wrong("fitted", "q_clamp = 'a'",
              "is not it",
              "relu's convention taken for clamp's, since the two have the same values"),
        Wrong("common", "q_clamp = 'c'",
              "is not it",
              "the average of the two one-sided slopes, the split max() makes for ties"),
        Wrong("other", "q_clamp = 'd'",
              "is not it",
              "as if no number could be returned where there is no derivative"),
    ],
}
