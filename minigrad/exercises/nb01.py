"""Checks for ``01_scalar_backward.ipynb``: the gradient of a sum of sigmoids by hand, and walking
``next_functions`` from an output down to its leaf.

- ``check_sigmoid_grad(my_sigmoid_grad)``: ``my_sigmoid_grad(a)`` returns the gradient of
  ``sigmoid(a).sum()`` with respect to ``a`` without calling backward; compared with what
  ``backward()`` gives on hidden inputs (the notebook's ``linspace(-100, 100, 10)`` among them).
- ``check_chain_names(chain_names)``: ``chain_names(t)`` lists the node names from ``t.grad_fn``
  to the leaf's AccumulateGrad, following the first entry of ``next_functions`` that is not None.
"""
import numpy as np

from ..tensor import Tensor
from ._check import call, check_tensor, exercise, failed, passed, reference, rng
from .nb00 import _with_hint

# ---- exercise 1 ---------------------------------------------------------------------------------
SIGMOID_TITLE = "gradient of sigmoid(a).sum() by hand"
SIGMOID_HINT = "d/da sigmoid(a) = s * (1 - s) with s = sigmoid(a), and .sum() passes a 1 to every element."


def _sigmoid_inputs():
    """(description or None, tensor): None means "show the tensor itself" in the feedback."""
    g = rng(1100)
    return [
        (None, Tensor(g.uniform(-3, 3, size=(5,)).astype(np.float32))),
        (None, Tensor(g.uniform(-6, 6, size=(2, 3)).astype(np.float32))),
        # the notebook's a, where exp overflows
        ("minigrad.linspace(-100, 100, 10)", Tensor(np.linspace(-100, 100, 10, dtype=np.float32))),
        (None, Tensor(np.asarray(g.uniform(-2, 2), dtype=np.float32))),  # a 0-d tensor
    ]


def _backward_grad(a):
    """What backward gives: the reference the student's formula is compared with."""
    leaf = a.detach().requires_grad_()
    leaf.sigmoid().sum().backward()
    return leaf.grad


def _as_tensor(x):
    """Accept a Tensor, a numpy array, a list or a number; anything else is returned as it is."""
    if isinstance(x, Tensor):
        return x
    if isinstance(x, (np.ndarray, np.generic, list, tuple, float, int)):
        try:
            return Tensor(np.asarray(x, dtype=np.float64))
        except (TypeError, ValueError):
            return x
    return x


@exercise("my_sigmoid_grad")
def check_sigmoid_grad(my_sigmoid_grad):
    """Compare ``my_sigmoid_grad(a)`` with backward's gradient of ``sigmoid(a).sum()`` on hidden inputs."""
    t = SIGMOID_TITLE
    inputs = _sigmoid_inputs()
    for text, a in inputs:
        got, err = call(t, my_sigmoid_grad, Tensor(a._data.copy()))
        if err is not None:
            return _with_hint(err, [
                ("does not require grad", "compute the gradient with the formula, not with backward(): the hidden "
                 "inputs do not require grad. " + SIGMOID_HINT),
                ("Can't call numpy() on Tensor that requires grad", "use a.detach().numpy()."),
            ])
        got = _as_tensor(got)
        expected = _backward_grad(a)
        where = f" for a = {text or repr(a)}"
        s = 1 / (1 + np.exp(-a._data.astype(np.float64)))
        hint = SIGMOID_HINT
        if isinstance(got, Tensor) and tuple(got.shape) == tuple(expected.shape):
            g = got._data.astype(np.float64)
            if np.isnan(g).any():
                hint = ("your formula gives nan where exp overflows (exp(100) is inf in float32, and inf/inf is "
                        "nan). Write it as s * (1 - s) with s = sigmoid(a): that never divides inf by inf.")
            elif np.allclose(g, s, atol=1e-5):
                hint = "that is sigmoid(a) itself, not its derivative. " + SIGMOID_HINT
            elif np.allclose(g, 1 - s, atol=1e-5):
                hint = "you have 1 - s; multiply by s as well. " + SIGMOID_HINT
        elif isinstance(got, Tensor) and got.numel() == 1 and expected.numel() != 1:
            hint = "the gradient has one number per element of a (the same shape as a), not a single total."
        bad = check_tensor(t, got, expected, "gradient", where, hint=hint, atol=1e-6, rtol=1e-4)
        if bad is not None:
            return bad
    return passed(t, f"correct on {len(inputs)} hidden inputs, including linspace(-100, 100, 10) where most "
                     "gradients vanish.")


# ---- exercise 2 ---------------------------------------------------------------------------------
CHAIN_TITLE = "chain_names"
ACC = "minigrad::autograd::AccumulateGrad"

# (code, function): unary steps the hidden chains are made of
_STEPS = [
    ("{}.exp()", lambda x: x.exp()), ("{}.sigmoid()", lambda x: x.sigmoid()), ("{}.relu()", lambda x: x.relu()),
    ("{}.tanh()", lambda x: x.tanh()), ("-{}", lambda x: -x), ("({} * 2)", lambda x: x * 2),
    ("({} + 1)", lambda x: x + 1), ("({} ** 2)", lambda x: x ** 2), ("({} / 3)", lambda x: x / 3),
]
_ENDS = [("{}.sum()", lambda x: x.sum()), ("{}.mean()", lambda x: x.mean())]


@reference
def reference_chain_names(t):
    names = []
    node = t.grad_fn
    while node is not None:
        names.append(node.name())
        node = next((n for n, _ in node.next_functions if n is not None), None)
    return names


def _chain_cases():
    """(code, tensor) pairs: hidden chains of 1 to 4 steps, plus one where the first edge is (None, 0)."""
    g = rng(1101)
    cases = []
    for length in (1, 2, 3, 4):
        x = Tensor(g.uniform(0.5, 2.0, size=(3,)).astype(np.float32), requires_grad=True)
        code, out = "x", x
        for k in g.choice(len(_STEPS), size=length, replace=False):
            fmt, fn = _STEPS[k]
            code, out = fmt.format(code), fn(out)
        fmt, fn = _ENDS[length % 2]
        cases.append((fmt.format(code), fn(out)))
    # a constant on the left: AddBackward0.next_functions is ((None, 0), (<the x side>, 0))
    x = Tensor(g.uniform(0.5, 2.0, size=(3,)).astype(np.float32), requires_grad=True)
    one = Tensor(np.ones(3, np.float32))
    cases.append(("(minigrad.ones(3) + x.exp()).sum()", (one + x.exp()).sum()))
    return cases


@exercise("chain_names")
def check_chain_names(chain_names):
    """``chain_names(t)`` must list the names from ``t.grad_fn`` down to the leaf's AccumulateGrad."""
    t = CHAIN_TITLE
    cases = _chain_cases()
    for code, out in cases:
        expected = reference_chain_names(out)
        where = f" for t = {code}"
        got, err = call(t, chain_names, out)
        if err is not None:
            return _with_hint(err, [
                ("'NoneType' object has no attribute", f"for t = {code}, some entry of next_functions is "
                 "(None, 0): an input that needs no gradient (a constant). Skip those and follow the first "
                 "entry whose node is not None; stop when there is none (AccumulateGrad has no next_functions)."),
                ("index out of range", f"for t = {code}: AccumulateGrad's next_functions is the empty tuple (), so "
                 "next_functions[0] does not exist there. Stop when there is no next node."),
            ])
        if isinstance(got, tuple):
            got = list(got)
        if not isinstance(got, list):
            return failed(t, f"should return a list of names, got {type(got).__name__}{where}",
                          expected=expected, got=got, hint="collect node.name() of every node into a list and "
                                                           "return the list.")
        if any(not isinstance(n, str) for n in got):
            return failed(t, f"the list should hold names (strings), not nodes{where}", expected=expected,
                          got=[n if isinstance(n, str) else repr(n) for n in got],
                          hint="append node.name(), not node.")
        if got == expected:
            continue
        if got == expected[:-1]:
            hint = (f"your list stops one node early: the last node is the leaf's '{ACC}' (its "
                    "next_functions is the empty tuple). Include it, then stop.")
        elif any(n.startswith("<") for n in got):
            hint = "str(node) is the node's repr; node.name() is the bare name."
        elif expected and got[:1] != expected[:1]:
            hint = "start with t.grad_fn itself (the node that made t), then follow next_functions."
        elif len(got) < len(expected):
            hint = ("your walk stopped before the leaf. Follow the first entry of next_functions whose node is not "
                    "None (in `constant + x` that is the second entry), until a node has none.")
        else:
            hint = "follow the first entry of next_functions whose node is not None, one node at a time."
        return failed(t, f"wrong list of names{where}", expected=expected, got=got, hint=hint)
    return passed(t, f"correct for {len(cases)} hidden graphs, including one that starts with a (None, 0) edge.")
