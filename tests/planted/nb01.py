"""Wrong answers planted in the checks of ``01_scalar_backward.ipynb`` (see ``__init__.py``)."""
from . import Wrong

WRONG = {
    "nb01.check_q_slope": [
        Wrong("fitted", "q_slope = 3.75",
              "the slope is zero where the tangent is flat",
              "the slope at the notebook's x0 = 1.5, not where the slope is zero"),
        Wrong("common", "q_slope = 1.732",
              "the slope is zero where the tangent is flat",
              "sqrt(3), where f itself is zero, not its slope"),
        Wrong("other", "q_slope = 0",
              "is not it",
              "the slope at 0 is -3, and 0 is not > 0"),
    ],
    "nb01.check_q_relu": [
        Wrong("fitted", "q_relu = 'a'",
              "holds slopes, not values",
              "relu's values at the two points (r), read off the drawing, not its slopes"),
        Wrong("common", "q_relu = 'c'",
              "holds slopes, not values",
              "the sum's 1 passed to every element, relu's 0 for negative inputs forgotten"),
        Wrong("other", "q_relu = 'd'",
              "is not it",
              "as if relu let no gradient through"),
    ],
    "nb01.check_numerical_grad": [
        Wrong("fitted",
              "import numpy as np\n"
              "def numerical_grad(f, x, h=1e-4):\n"
              "    grad = np.zeros_like(x)\n"
              "    for i in range(3):\n"
              "        e = np.zeros_like(x)\n"
              "        e[i] = h\n"
              "        grad[i] = (f(x + e) - f(x - e)) / (2 * h)\n"
              "    return grad\n",
              "are still 0: your loop did not reach them",
              "three entries, as in f(x) = x[0] * x[1] + x[2].tanh(): right for every x of length 3 only"),
        Wrong("fitted",
              "import numpy as np\n"
              "def numerical_grad(f, x, h=1e-4):\n"
              "    grad = np.zeros_like(x)\n"
              "    for i in range(x.size):\n"
              "        e = np.zeros_like(x)\n"
              "        e[i] = 1e-8\n"
              "        grad[i] = (f(x + e) - f(x)) / 1e-8\n"
              "    return grad\n",
              "does your function use the h it is given",
              "a one-sided difference with a tiny step of its own: within the tolerance of the exact gradient, "
              "but not the central difference with the h it is given"),
        Wrong("common",
              "import numpy as np\n"
              "def numerical_grad(f, x, h=1e-4):\n"
              "    return np.full_like(x, (f(x + h) - f(x - h)) / (2 * h))\n",
              "nudged every input at once",
              "every input nudged at once: the slope along (1, 1, ...), the same number in every entry"),
        Wrong("common",
              "import numpy as np\n"
              "def numerical_grad(f, x, h=1e-4):\n"
              "    grad = np.zeros_like(x)\n"
              "    for i in range(x.size):\n"
              "        e = np.zeros_like(x)\n"
              "        e[i] = h\n"
              "        grad[i] = (f(x + e) - f(x)) / h\n"
              "    return grad\n",
              "one-sided difference",
              "the one-sided difference of the first cells, not the central one the task asks for"),
        Wrong("common",
              "import numpy as np\n"
              "def numerical_grad(f, x, h=1e-4):\n"
              "    grad = np.zeros_like(x)\n"
              "    for i in range(x.size):\n"
              "        x[i] += h\n"
              "        up = f(x)\n"
              "        x[i] -= 2 * h\n"
              "        grad[i] = (up - f(x)) / (2 * h)\n"
              "    return grad\n",
              "changed the x it was given",
              "nudges written into x and never taken back"),
        Wrong("common",
              "import numpy as np\n"
              "def numerical_grad(f, x, h=1e-4):\n"
              "    grad = np.zeros_like(x)\n"
              "    for i in range(x.size):\n"
              "        x[i] += h\n"
              "        up = f(x)\n"
              "        x[i] -= 2 * h\n"
              "        grad[i] = (up - f(x)) / (2 * h)\n"
              "        x[i] += h\n"
              "    return grad\n",
              "a tiny bit different",
              "x put back by adding h again: rounding leaves some entries a last digit off"),
        Wrong("common",
              "import numpy as np\n"
              "def numerical_grad(f, x, h=1e-4):\n"
              "    grad = np.zeros_like(x)\n"
              "    for i in range(x.size):\n"
              "        e = np.zeros_like(x)\n"
              "        e[i] = h\n"
              "        grad[i] = (f(x + e) - f(x - e)) / h\n"
              "    return grad\n",
              "off by a factor 2",
              "divided by h, not by 2h"),
        Wrong("other",
              "import numpy as np\n"
              "def numerical_grad(f, x, h=1e-4):\n"
              "    grad = np.zeros_like(x)\n"
              "    for i in range(x.size):\n"
              "        e = np.zeros_like(x)\n"
              "        e[i] = h\n"
              "        grad[i] = (f(x - e) - f(x + e)) / (2 * h)\n"
              "    return grad\n",
              "wrong sign",
              "f(x - h e_i) first"),
    ],
    "nb01.check_chain_names": [
        Wrong("fitted",
              "def chain_names(t):\n"
              "    names, node = [], t.grad_fn\n"
              "    while node is not None:\n"
              "        names.append(node.name())\n"
              "        following = [n for n, _ in node.next_functions if n is not None]\n"
              "        node = following[-1] if following else None\n"
              "    return names\n",
              "your walk took the last one",
              "the last entry that is not None: the same as the first wherever a node has only one input "
              "that needs a gradient"),
        Wrong("fitted",
              "def chain_names(t):\n"
              "    names, node = [], t.grad_fn\n"
              "    while node is not None:\n"
              "        names.append(node.name())\n"
              "        node = node.next_functions[0][0] if node.next_functions else None\n"
              "    return names\n",
              "whose node is not None",
              "always the first entry, as in the notebook's relu(a).sum(): wrong when it is (None, 0)"),
        Wrong("common",
              "def chain_names(t):\n"
              "    names, node = [], t.grad_fn\n"
              "    while True:\n"
              "        names.append(node.name())\n"
              "        if not node.next_functions:\n"
              "            return names\n"
              "        node = node.next_functions[0][0]\n",
              "(None, 0)",
              "crashes on a (None, 0) entry: None has no name()"),
        Wrong("common",
              "def chain_names(t):\n"
              "    names, node = [], t.grad_fn\n"
              "    while node.next_functions:\n"
              "        names.append(node.name())\n"
              "        following = [n for n, _ in node.next_functions if n is not None]\n"
              "        node = following[0]\n"
              "    return names\n",
              "one node early",
              "stops before the leaf's AccumulateGrad"),
        Wrong("common",
              "def chain_names(t):\n"
              "    out, node = [], t.grad_fn\n"
              "    while node is not None:\n"
              "        out.append(node)\n"
              "        following = [n for n, _ in node.next_functions if n is not None]\n"
              "        node = following[0] if following else None\n"
              "    return out\n",
              "not nodes",
              "the nodes, not their names"),
        Wrong("other",
              "def chain_names(t):\n"
              "    names, node = [], t.grad_fn\n"
              "    while node is not None:\n"
              "        names.append(str(node))\n"
              "        following = [n for n, _ in node.next_functions if n is not None]\n"
              "        node = following[0] if following else None\n"
              "    return names\n",
              "repr",
              "str(node), '<SumBackward0 object>', not node.name()"),
    ],
}
