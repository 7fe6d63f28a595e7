"""Wrong answers planted in the checks of ``00_start_here.ipynb`` (see ``__init__.py``)."""
from . import Wrong

WRONG = {
    "nb00.check_q_grad": [
        Wrong("fitted", "q_grad = 9",
              "not the value of y",
              "2x + 3 at x = 3, the x of the notebook's side-by-side example, not at x = 2"),
        Wrong("common", "q_grad = 10",
              "not the value of y",
              "y itself at x = 2 (4 + 6), not its derivative"),
        Wrong("other", "q_grad = 4",
              "is not it",
              "only the derivative of x**2 (2x at x = 2): the 3*x term forgotten"),
    ],
    "nb00.check_make_x_and_y": [
        Wrong("fitted",
              "import minigrad\n"
              "def make_x_and_y(value):\n"
              "    x = minigrad.tensor(2.0, requires_grad=True)\n"
              "    return x, x ** 2 + 3 * x\n",
              "x does not hold the value it was given for value = ",
              "the example's 2.0 written in, the argument `value` never used: right only for the first value"),
        Wrong("fitted",
              "import minigrad\n"
              "def make_x_and_y(value):\n"
              "    x = minigrad.tensor(value, requires_grad=True)\n"
              "    return x, 5 * x\n",
              "y has the right value but not the graph of x**2 + 3*x for value = 2.0",
              "5 * x is 10 at the example's value 2.0, as x**2 + 3*x is, but its slope is 5, not 7"),
        Wrong("common",
              "import minigrad\n"
              "def make_x_and_y(value):\n"
              "    x = minigrad.tensor(value)\n"
              "    return x, x ** 2 + 3 * x\n",
              "x does not require grad",
              "requires_grad=True forgotten: nothing computed from x is recorded"),
        Wrong("common",
              "import minigrad\n"
              "def make_x_and_y(value):\n"
              "    x = minigrad.tensor(value, requires_grad=True)\n"
              "    v = x.item()\n"
              "    return x, minigrad.tensor(v ** 2 + 3 * v)\n",
              "no grad_fn",
              "y computed from the Python number x.item(): the right value, but no graph back to x"),
        Wrong("common",
              "import minigrad\n"
              "def make_x_and_y(value):\n"
              "    x = minigrad.tensor(value, requires_grad=True)\n"
              "    return x ** 2 + 3 * x\n",
              "should return two things, x and y",
              "only y returned"),
        Wrong("other",
              "import minigrad\n"
              "def make_x_and_y(value):\n"
              "    x = minigrad.tensor(value, requires_grad=True)\n"
              "    return x, x ** 2 + 3\n",
              "wrong value of y for value = 2.0",
              "3 added instead of 3 * x"),
    ],
    "nb00.check_node_name": [
        Wrong("fitted",
              "def node_name(t):\n"
              "    return None if t.grad_fn is None else 'ExpBackward0'\n",
              "wrong name for t = x.sum()",
              "the name of the example above the task (y = x.exp()) for every tensor with a grad_fn"),
        Wrong("fitted",
              "def node_name(t):\n"
              "    if t.grad_fn is None:\n"
              "        return None\n"
              "    return t.grad_fn.name()[:-1] + '0'\n",
              "wrong name for t = x.sum(0)",
              "every name ending in 0, as the ones it was tried on do: wrong for SumBackward1 (x.sum(dim))"),
        Wrong("common",
              "def node_name(t):\n"
              "    return t.grad_fn.name()\n",
              "has grad_fn None",
              "no check for a leaf (or a tensor without grad): None has no name()"),
        Wrong("common",
              "def node_name(t):\n"
              "    return None if t.grad_fn is None else str(t.grad_fn)\n",
              "with <...> around it",
              "the node's repr, '<SumBackward0 object>', not its name"),
        Wrong("common",
              "def node_name(t):\n"
              "    return t.grad_fn\n",
              "returned the node itself, not its name",
              "the node instead of node.name()"),
        Wrong("other",
              "def node_name(t):\n"
              "    if t.grad_fn is None:\n"
              "        return 'None'\n"
              "    return t.grad_fn.name()\n",
              "expected None for t = x (a leaf you created)",
              "the string 'None' instead of None"),
    ],
}
