"""Checks for ``01_scalar_backward.ipynb``: a gradient by nudging, and walking ``next_functions``
from an output down to its leaf.

- ``check_numerical_grad(numerical_grad)``: ``numerical_grad(f, x, h)`` measures the gradient of a
  function of many inputs by central differences; compared with ``backward()`` on hidden functions.
- ``check_sigmoid_grad(my_sigmoid_grad)``: ``my_sigmoid_grad(a)`` returns the gradient of
  ``sigmoid(a).sum()`` without calling backward; hidden inputs include ``linspace(-100, 100, 10)``
  (notebook 01b's ``check_tanh_grad`` is the same check for tanh).
- ``check_chain_names(chain_names)``: ``chain_names(t)`` lists the node names from ``t.grad_fn``
  to the leaf's AccumulateGrad, following the first entry of ``next_functions`` that is not None.
- ``check_q_slope``, ``check_q_relu``: the notebook's prediction questions.
"""
import numpy as np

from minigrad.tensor import Tensor
from ._check import call, check_tensor, exercise, failed, passed, prediction, reference, rng
from .nb00 import _with_hint, explain

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
CHAIN_WALK = ("the walk in words: start at t.grad_fn; as long as you have a node, add its name to the list, then "
              "move on to the first node of its next_functions pairs (node, number) that is not None; when it has "
              "no such node (AccumulateGrad has none at all), the walk is over.")
ACC = "minigrad::autograd::AccumulateGrad"

# (code, function): unary steps the hidden chains are made of
_STEPS = [
    ("{}.exp()", lambda x: x.exp()), ("{}.sigmoid()", lambda x: x.sigmoid()), ("{}.relu()", lambda x: x.relu()),
    ("{}.tanh()", lambda x: x.tanh()), ("-{}", lambda x: -x), ("({} * 2)", lambda x: x * 2),
    ("({} + 1)", lambda x: x + 1), ("({} ** 2)", lambda x: x ** 2), ("({} / 3)", lambda x: x / 3),
]
_ENDS = [("{}.sum()", lambda x: x.sum()), ("{}.mean()", lambda x: x.mean())]


def _walk(t, choose):
    """The names a walk from ``t.grad_fn`` visits when ``choose(next_functions)`` picks the next node."""
    names, node = [], t.grad_fn
    while node is not None and len(names) < 100:
        names.append(node.name())
        node = choose(node.next_functions)
    return names


@reference
def reference_chain_names(t):
    return _walk(t, lambda pairs: next((n for n, _ in pairs if n is not None), None))


def _chain_cases():
    """(code, tensor) pairs: hidden chains of 1 to 4 steps, one node with two different inputs that need
    gradients (which one is first matters), and one where the first edge is (None, 0)."""
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
    # MulBackward0.next_functions is ((ExpBackward0, 0), (SigmoidBackward0, 0)): the first is the way
    x = Tensor(g.uniform(0.5, 2.0, size=(3,)).astype(np.float32), requires_grad=True)
    cases.append(("(x.exp() * x.sigmoid()).sum()", (x.exp() * x.sigmoid()).sum()))
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
        got, err = call(t, chain_names, out, returns="the list of node names")
        if err is not None:
            return explain(err, [
                ("'NoneType' object has no attribute", [
                    f"for t = {code}, some entry of next_functions is (None, 0): an input that needs no gradient "
                    "(a constant). Skip those and follow the first entry whose node is not None.", CHAIN_WALK]),
                ("index out of range", [
                    f"for t = {code}: AccumulateGrad's next_functions is the empty tuple (), so next_functions[0] "
                    "does not exist there. Stop when there is no next node.", CHAIN_WALK]),
                ("has no attribute 'grad_fn'", [
                    "t.grad_fn is a node, and a node has next_functions, not a grad_fn: after the first step you "
                    "move from node to node.", CHAIN_WALK]),
                ("", [f"print the nodes your walk visits for t = {code} to see where it goes wrong.", CHAIN_WALK]),
            ] if "raised" in err.text else (), example="minigrad.relu(a).sum() of the task")
        if isinstance(got, tuple):
            got = list(got)
        if not isinstance(got, list):
            return failed(t, f"should return a list of names, got {type(got).__name__}{where}",
                          expected=expected, got=got,
                          hint=["start with an empty list, add one name per node you visit, and return the list "
                                "at the end.", CHAIN_WALK])
        if any(not isinstance(n, str) for n in got):
            return failed(t, f"the list should hold names (strings), not nodes{where}", expected=expected,
                          got=[n if isinstance(n, str) else repr(n) for n in got],
                          hint=["add each node's name to the list, not the node: node.name() gives it.", CHAIN_WALK])
        if got == expected:
            continue
        last = _walk(out, lambda pairs: next((n for n, _ in reversed(pairs) if n is not None), None))
        if got == expected[:-1]:
            hint = (f"your list stops one node early: the last node is the leaf's '{ACC}' (its "
                    "next_functions is the empty tuple). Include it, then stop.")
        elif any(n.startswith("<") for n in got):
            hint = "str(node) is the node's repr; node.name() is the bare name."
        elif expected and got[:1] != expected[:1]:
            hint = "start with t.grad_fn itself (the node that made t), then follow next_functions."
        elif got == last:
            hint = ("here a node has two inputs that need gradients, and your walk took the last one; the rule "
                    "is the first entry of next_functions whose node is not None.")
        elif len(got) < len(expected):
            hint = ("your walk stopped before the leaf. Follow the first entry of next_functions whose node is not "
                    "None (in `constant + x` that is the second entry), until a node has none.")
        else:
            hint = "follow the first entry of next_functions whose node is not None, one node at a time."
        return failed(t, f"wrong list of names{where}", expected=expected, got=got, hint=[hint, CHAIN_WALK])
    return passed(t, f"correct for {len(cases)} hidden graphs, including one that starts with a (None, 0) edge "
                     "and one with a node whose two inputs both need gradients.")


# ---- exercise: a gradient by nudging (section 1) -----------------------------------------------
NUDGE_TITLE = "numerical_grad"

# (description, function of a minigrad tensor): the hidden functions the nudged gradient is measured on
_NUDGE_FUNCTIONS = [
    ("f(x) = (x ** 3).sum()", lambda x: (x ** 3).sum()),
    ("f(x) = x[0] * x[1] + x[2].tanh()", lambda x: x[0] * x[1] + x[2].tanh()),
    ("f(x) = (x / 2).exp().mean()", lambda x: (x / 2).exp().mean()),
    ("f(x) = (x ** 2).sum() * x[0]", lambda x: (x ** 2).sum() * x[0]),
]
GIVEN_H = 0.01   # the last case passes h itself: an answer that ignores h (or measures another way) fails it


def _nudge_cases():
    """(description, numpy function for the student, minigrad function, point x, h or None for the default)."""
    g = rng(1102)
    cases = []
    for (text, fn), n in zip(_NUDGE_FUNCTIONS, (3, 3, 4, 5)):
        def numpy_f(arr, fn=fn):
            return float(fn(Tensor(np.array(arr, dtype=np.float64))).item())
        cases.append((text, numpy_f, fn, np.round(g.uniform(-1.5, 1.5, size=n), 3), None))
    text, numpy_f, fn, _, _ = cases[0]
    cases.append((text, numpy_f, fn, np.round(g.uniform(-1.5, 1.5, size=4), 3), GIVEN_H))
    return cases


@reference
def _exact_grad(fn, x):
    """What backward gives (float64): the gradient the nudged one is compared with."""
    leaf = Tensor(x.copy(), requires_grad=True)
    fn(leaf).backward()
    return leaf.grad._data


@reference
def _nudged(f, x, h, both_ways=True):
    """The nudged gradient, central (or one-sided): what the answer must give when h is passed."""
    out = np.zeros_like(x)
    for i in range(x.size):
        e = np.zeros_like(x)
        e[i] = h
        out[i] = (f(x + e) - f(x - e)) / (2 * h) if both_ways else (f(x + e) - f(x)) / h
    return out


NUDGE_TIERS = ["compare one entry with the formula: (f(x + h e_i) - f(x - h e_i)) / (2h), where e_i is 1 at "
               "position i and 0 elsewhere.",
               "for each i, make the nudge as an array of zeros with h at position i; evaluate f at x plus it and at "
               "x minus it, and divide the difference by 2h.",
               "check your function on f(x) = (x ** 3).sum() in a new cell: its exact gradient is 3 x**2."]


@exercise("numerical_grad")
def check_numerical_grad(numerical_grad):
    """``numerical_grad(f, x, h)`` must measure the gradient of ``f`` at ``x`` by central differences."""
    t = NUDGE_TITLE
    cases = _nudge_cases()
    for text, f, fn, x, h in cases:
        where = f" for {text} at x = {np.array2string(x, separator=', ')}" + (f", h = {h}" if h else "")
        given = x.copy()
        args = (f, given) if h is None else (f, given, h)
        got, err = call(t, numerical_grad, *args, returns="the nudged gradient, an array shaped like x")
        if err is not None:
            return explain(err, [("", ["f takes a whole array x and returns one number; nudge one entry of a copy "
                                       "of x at a time."])] if "raised" in err.text else (),
                           example="f from section 1 and x = np.array([1.5])")
        if not np.array_equal(given, x):
            if np.allclose(given, x, rtol=0, atol=1e-12):
                return failed(t, f"your function left x a tiny bit different from what it was given{where}",
                              expected=x, got=given,
                              hint=["adding h to an entry and taking it away again rounds: the entry comes back "
                                    "a last digit off.",
                                    "keep the entry's old value and assign it back, or never change x: nudge a new "
                                    "array, x plus a step."])
            return failed(t, f"your function changed the x it was given{where}",
                          hint=["nudge a copy of x (x + a step makes a new array), or put the entry back after each "
                                "nudge.",
                                "a nudge written into x itself stays there: the next entry is then measured at the "
                                "wrong point, and the caller's x is changed."])
        got = _as_tensor(got)
        expected = _exact_grad(fn, x) if h is None else _nudged(f, x, h)
        if not isinstance(got, Tensor) or tuple(got.shape) != x.shape:
            shape = tuple(got.shape) if isinstance(got, Tensor) else type(got).__name__
            return failed(t, f"should return one number per input, an array of shape {x.shape}{where}",
                          expected=f"shape {x.shape}", got=shape,
                          hint=["entry i of the result is the slope of f when only x[i] moves.",
                                "start with an array of zeros shaped like x and fill in one entry per input."])
        g = got._data.astype(np.float64)
        tol = dict(atol=1e-6, rtol=1e-6) if h is None else dict(atol=1e-9, rtol=1e-9)
        if np.allclose(g, expected, **tol):
            continue
        step = 1e-4 if h is None else h
        tiers = list(NUDGE_TIERS)
        missed = (g == 0) & (expected != 0)
        if x.size > 1 and np.allclose(g, g[0]) and not np.allclose(expected, expected[0]):
            tiers = ["all your entries are the same number: you nudged every input at once, which measures the "
                     "slope along the direction (1, 1, ...), not along one input. Nudge one input at a time."] + tiers
        elif missed.any() and np.allclose(g[~missed], expected[~missed], **tol):
            tiers = [f"entries {np.flatnonzero(missed).tolist()} are still 0: your loop did not reach them. x has "
                     f"{x.size} entries here; loop over all of them, however many there are."] + tiers[1:]
        elif np.allclose(g, _nudged(f, x, step, both_ways=False), atol=1e-9):
            tiers = ["your numbers are off by about h times the curvature: that is the one-sided difference "
                     "(f(x + h) - f(x)) / h. The task asks for the central one."] + tiers[1:]
        elif np.allclose(g, -expected, **tol):
            tiers = ["every entry has the wrong sign: which of f(x + h e_i) and f(x - h e_i) comes first?"] + tiers[1:]
        elif np.allclose(g, 2 * expected, **tol) or np.allclose(g, expected / 2, **tol):
            tiers = ["your numbers are off by a factor 2: x + h and x - h are 2h apart."] + tiers[1:]
        elif h is not None:
            tiers = [f"the check passed h = {h} here and expects the slope nudged by that h, which is a little off "
                     "the exact one: does your function use the h it is given?",
                     "use the argument h for the nudge and in the division; keep 1e-4 only as its default."]
        return failed(t, f"wrong gradient{where}", expected=Tensor(expected), got=Tensor(g), hint=tiers)
    return passed(t, f"correct for {len(cases)} hidden cases: one nudge per input, both ways, with the h it was "
                     "given, and x left as it was. That is also how gradcheck (notebook 04) tests a backward.")


# ---- prediction questions -------------------------------------------------------------------------
# the fingerprints come from `python -m minigrad_course.exercises digest QUESTION ANSWER`
check_q_slope = prediction(
    "nb01-q-slope", "q_slope",
    "At which x > 0 is the slope of f(x) = x**3 - 3*x zero? (a number)",
    "b0e6f44c1b890fb6",
    hints=["the slope is zero where the tangent is flat: at the bottom of the valley of the black curve in the "
           "picture of the secants.",
           "f'(x) = 3x**2 - 3; where is that 0?"],
    why="f'(1) = 3 - 3 = 0: the bottom of the valley. Nudge it with f from above to see.")

check_q_relu = prediction(
    "nb01-q-relu", "q_relu",
    "After c = relu(a).sum(); c.backward(), what is a.grad at a = 11.11 and at a = -11.11?",
    "670bbed06613405f",
    options={"a": "11.11 and 0", "b": "1 and 0", "c": "1 and 1", "d": "0 and 0"},
    hints=["a.grad holds slopes, not values: how much does c change when a_i moves by a little?",
           "relu(x) = x for x > 0 and 0 for x < 0: what is the slope of each piece? The sum passes 1 to every "
           "element."],
    why="relu's slope is 1 where it lets the value through and 0 where it clips it.")
