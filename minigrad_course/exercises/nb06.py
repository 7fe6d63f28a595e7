"""Checks for notebook 06 (the engine): an execution order by hand, a tiny ``backward()``, and saved-tensor
hooks that keep saved tensors on a "disk" (a dict).

Both run on hidden graphs: a few of scalar operations written out (a chain, a diamond, a value
reaching the loss along two paths of different lengths, a leaf used twice in one node), a few
random ones, and one of vectors summed into the loss, like section 1's.  Feedback quotes the hidden
program, so you can draw it on paper.  Every failure gives hint tiers: the idea first, then where to
look, then a partial step; never a line of the notebook's solution.
"""
import numpy as np

from minigrad.autograd import AccumulateGrad, GraphTask, Node, engine, grad_mode
from minigrad.tensor import Tensor
from . import _check


def _hinted(report, *tiers):
    """Add hint tiers to a failed Report (the first tier if it has none yet, then the next ones)."""
    for tier in tiers:
        _check.add_hint(report, tier)
    return report


# ---------------------------------------------------------------------------- hidden graphs
class _Program:
    """A small scalar program, recorded line by line so that feedback can print it."""

    def __init__(self, seed):
        self.generator = np.random.default_rng(seed)
        self.lines = []
        self.leaves = {}      # name -> leaf tensor that requires grad
        self.labels = {}      # backward node -> "MulBackward0 (h1 = a * b)"
        self.values = {}      # name -> tensor
        self.used = set()
        self.fan_out = False  # does some value feed two operations?
        self._n = 0
        self.loss = None

    def leaf(self, name, requires_grad=True, size=None):
        """A leaf: a number, or with ``size`` a vector of that many numbers."""
        value = np.round(self.generator.uniform(-1.5, 1.5, size), 2)
        t = Tensor(np.asarray(value, dtype=np.float64), requires_grad=requires_grad)
        self.values[name] = t
        if requires_grad:
            self.leaves[name] = t
        shown = f"tensor({value.tolist()})" if size is not None else f"{float(value)}"
        self.lines.append(f"{name} = {shown}" + ("" if requires_grad else "   (a constant: no grad)"))
        return name

    def let(self, expr, fn, *args, name=None):
        for a in args:
            if a in self.used:
                self.fan_out = True
            self.used.add(a)
        if len(args) == 2 and args[0] == args[1]:
            self.fan_out = True
        if name is None:
            self._n += 1
            name = f"h{self._n}"
        out = fn(*(self.values[a] for a in args))
        self.values[name] = out
        self.lines.append(f"{name} = {expr}")
        if out.grad_fn is not None and out.grad_fn not in self.labels:
            self.labels[out.grad_fn] = f"{out.grad_fn.name()} ({name} = {expr})"
        return name

    def finish(self, name):
        self.loss = self.values[name]
        for node in _reachable(self.loss.grad_fn):
            if isinstance(node, AccumulateGrad):
                leaf = next(n for n, t in self.leaves.items() if t is node.variable)
                self.labels[node] = f"AccumulateGrad (leaf {leaf})"
        return self

    def label(self, node):
        return self.labels.get(node, node.name() if isinstance(node, Node) else repr(node))

    def text(self):
        return "\n      ".join(self.lines)


_UNARY = [("tanh({})", lambda x: x.tanh()), ("sigmoid({})", lambda x: x.sigmoid()),
          ("{} * 0.5", lambda x: x * 0.5), ("{} ** 2", lambda x: x ** 2), ("exp({})", lambda x: x.exp())]
_BINARY = [("{} + {}", lambda x, y: x + y), ("{} * {}", lambda x, y: x * y), ("{} - {}", lambda x, y: x - y)]


def _chain(seed):
    p = _Program(seed)
    a, b, c = p.leaf("a"), p.leaf("b"), p.leaf("c")
    h1 = p.let(f"{a} * {b}", lambda x, y: x * y, a, b)
    h2 = p.let(f"tanh({h1})", lambda x: x.tanh(), h1)
    return p.finish(p.let(f"{h2} * {c}", lambda x, y: x * y, h2, c, name="loss"))


def _diamond(seed):
    p = _Program(seed)
    a, b, c = p.leaf("a"), p.leaf("b"), p.leaf("c")
    h1 = p.let(f"{a} * {b}", lambda x, y: x * y, a, b)
    h2 = p.let(f"exp({h1})", lambda x: x.exp(), h1)
    h3 = p.let(f"{h1} * {c}", lambda x, y: x * y, h1, c)
    return p.finish(p.let(f"{h2} + {h3}", lambda x, y: x + y, h2, h3, name="loss"))


def _unbalanced(seed):
    p = _Program(seed)
    a, b = p.leaf("a"), p.leaf("b")
    h1 = p.let(f"{a} + {b}", lambda x, y: x + y, a, b)
    h2 = p.let(f"tanh({h1})", lambda x: x.tanh(), h1)
    h3 = p.let(f"sigmoid({h2})", lambda x: x.sigmoid(), h2)
    h4 = p.let(f"exp({h3})", lambda x: x.exp(), h3)
    return p.finish(p.let(f"{h4} * {h1}", lambda x, y: x * y, h4, h1, name="loss"))


def _twice(seed):
    p = _Program(seed)
    a, b, k = p.leaf("a"), p.leaf("b"), p.leaf("k", requires_grad=False)
    h1 = p.let(f"{a} * {a}", lambda x, y: x * y, a, a)
    h2 = p.let(f"{h1} * {k}", lambda x, y: x * y, h1, k)
    h3 = p.let(f"{h2} + {b}", lambda x, y: x + y, h2, b)
    return p.finish(p.let(f"{h3} * {a}", lambda x, y: x * y, h3, a, name="loss"))


def _vectors(seed):
    """Section 1's kind of graph: vectors, a value used twice, and a sum into the loss."""
    p = _Program(seed)
    a, b = p.leaf("a", size=3), p.leaf("b", size=3)
    h1 = p.let(f"{a} * {b}", lambda x, y: x * y, a, b)
    h2 = p.let(f"tanh({h1})", lambda x: x.tanh(), h1)
    h3 = p.let(f"{h2} * {a}", lambda x, y: x * y, h2, a)
    h4 = p.let(f"{h3} + {h1}", lambda x, y: x + y, h3, h1)
    return p.finish(p.let(f"{h4}.sum()", lambda x: x.sum(), h4, name="loss"))


def _random(seed, n_ops=7):
    """A random program: leaves a, b, c (and sometimes a constant k), then n_ops operations that
    prefer recent values but often reuse older ones; every value left unused is added into the loss."""
    p = _Program(seed)
    r = p.generator
    pool = [p.leaf("a"), p.leaf("b"), p.leaf("c")]
    if r.random() < 0.5:
        pool.append(p.leaf("k", requires_grad=False))
    for _ in range(n_ops):
        def pick():
            weights = np.arange(1, len(pool) + 1, dtype=float) ** 2
            return pool[r.choice(len(pool), p=weights / weights.sum())]
        if r.random() < 0.4:
            expr, fn = _UNARY[r.integers(len(_UNARY))]
            x = pick()
            if not p.values[x]._requires_grad:  # an operation on the constant alone would not be in the graph
                x = "a"
            if "exp" in expr and abs(float(p.values[x]._data)) > 3:
                expr, fn = _UNARY[0]
            pool.append(p.let(expr.format(x), fn, x))
        else:
            expr, fn = _BINARY[r.integers(len(_BINARY))]
            x, y = pick(), pick()
            if x == y and "-" in expr:  # h - h is always 0: use h + h instead
                expr, fn = _BINARY[0]
            if x == y == "k" or (p.values[x]._requires_grad is False and p.values[y]._requires_grad is False):
                y = "a"
            pool.append(p.let(expr.format(x, y), fn, x, y))
    unused = [v for v in pool if v not in p.used and p.values[v]._requires_grad]
    if len(unused) == 1:
        return p.finish(p.let(f"tanh({unused[0]})", lambda x: x.tanh(), unused[0], name="loss"))
    total = unused[0]
    for i, v in enumerate(unused[1:]):
        total = p.let(f"{total} + {v}", lambda x, y: x + y, total, v, name="loss" if i == len(unused) - 2 else None)
    return p.finish(total)


def _cases():
    return [("a chain", _chain(61)), ("a diamond: h1 feeds two operations", _diamond(62)),
            ("a value that reaches the loss along two paths of different lengths", _unbalanced(63)),
            ("a leaf used twice in one multiplication", _twice(64)),
            ("a random graph", _random(65)), ("a random graph", _random(66)), ("a random graph", _random(67)),
            ("vectors, summed into the loss", _vectors(68))]


def _reachable(root):
    order, seen, stack = [], set(), [root] if root is not None else []
    while stack:
        node = stack.pop()
        if node in seen:
            continue
        seen.add(node)
        order.append(node)
        stack.extend(n for n, _ in node.next_functions if n is not None)
    return order


@_check.reference
def _engine_order(loss):
    seed = Tensor(np.ones(loss._data.shape, loss._data.dtype))
    task = GraphTask([loss], [seed], keep_graph=True, accumulate=False)
    return [step.node for step in task.steps()]


class _EngineUsed(RuntimeError):
    pass


class _no_engine:
    """While active, minigrad's own engine refuses to run (``backward()``, ``autograd.grad``, the stepper)."""

    def __enter__(self):
        self.steps = engine.GraphTask.steps

        def refuse(task, trace=True):
            raise _EngineUsed("your code called minigrad's own engine (loss.backward(), minigrad.autograd.grad or "
                              "the stepper): the point of this exercise is to walk the graph yourself")
        engine.GraphTask.steps = refuse

    def __exit__(self, *exc):
        engine.GraphTask.steps = self.steps
        return False


# ---------------------------------------------------------------------------- exercise 1
_ORDER_TIERS = ["visiting the graph depth-first or breadth-first is not enough once a value is used twice. "
                "First count, for every node, how many next_functions edges point at it; then start from the "
                "root and take a node only when its count has dropped to 0.",
                "each node you take lowers, once per edge, the counts of the nodes in its next_functions; a node "
                "whose count reaches 0 is ready, and only ready nodes are taken."]


def _edges_into(node, nodes):
    """How many next_functions entries of ``nodes`` point at ``node``."""
    return sum(1 for m in nodes for n, _ in m.next_functions if n is node)


@_check.exercise("execution_order")
def check_execution_order(execution_order):
    """Exercise 1: ``execution_order(root)`` lists every node once, each after all the nodes that feed it."""
    title = "execution_order"
    same_as_engine = True
    cases = _cases()
    for what, prog in cases:
        root = prog.loss.grad_fn
        program = f" for the hidden graph ({what}):\n      {prog.text()}"
        with _no_engine():
            result, err = _check.call(title, execution_order, root)
        if err is not None:
            if "_EngineUsed" in err.text:
                err.text = err.text.replace("_EngineUsed", "RuntimeError")
            if "'NoneType' object has no attribute" in err.text:
                return _hinted(err, "skip the (None, 0) entries of next_functions: inputs that need no gradient "
                                    "have no node, so there is nothing to count or to visit there.",
                               "a (None, 0) entry stands for an input such as a constant: check each entry for "
                               "None before you use its node.")
            return _hinted(err, "execution_order gets a node (loss.grad_fn) and returns a list of nodes.",
                           "the exercise's two steps, discover and run, are what GraphTask._discover and "
                           "GraphTask.steps do in sections 2 and 3, without the gradients.")
        if not isinstance(result, (list, tuple)):
            return _check.failed(title, f"execution_order should return a list of nodes, got "
                                        f"{type(result).__name__}",
                                 hint=["collect the nodes in a list, in the order you take them, and return it.",
                                       "is the `return` missing, or inside a loop?"])
        result = list(result)
        for item in result:
            if isinstance(item, Node):
                continue
            if item is None:
                hint = ["skip the (None, 0) entries of next_functions: inputs that need no gradient have no node.",
                        "a (None, 0) entry stands for an input such as a constant: nothing runs there, so it is "
                        "neither counted nor listed."]
            elif isinstance(item, tuple):
                hint = ["next_functions holds (node, input number) pairs: the list should hold the nodes alone.",
                        "take the first item of each pair: `for nxt, _ in node.next_functions`."]
            elif isinstance(item, str):
                hint = ["the list should hold the node objects themselves, not their names.",
                        "append the node; the check prints the names for you."]
            else:
                hint = ["the list should hold the backward nodes: root and the nodes reached through "
                        "next_functions.", "do not append tensors or numbers: append the node you just took."]
            return _check.failed(title, f"the list should hold backward nodes, but it has {item!r}" + program,
                                 hint=hint)
        position = {}
        for i, node in enumerate(result):
            if node in position:
                return _check.failed(title, f"{prog.label(node)} is in the list twice" + program,
                                     hint=["every node runs once, after all its gradients have arrived.",
                                           "a node that several edges point at is reached several times: add it to "
                                           "the list only when its count reaches 0, not every time you reach it."])
            position[node] = i
        expected = _reachable(root)
        missing = [n for n in expected if n not in position]
        if missing:
            labels = ", ".join(prog.label(n) for n in missing)
            if all(isinstance(n, AccumulateGrad) for n in missing) and \
                    not any(isinstance(n, AccumulateGrad) for n in result):
                return _check.failed(title, f"the AccumulateGrad nodes are missing: {labels}" + program,
                                     hint=["AccumulateGrad nodes are nodes of the graph too: they store the leaves' "
                                           "gradients, and next_functions points at them like at any other node.",
                                           "skip only the None entries of next_functions."])
            return _check.failed(title, f"missing nodes: {labels}" + program,
                                 hint=["include every node reachable from the root through next_functions.",
                                       "a node is listed when its count reaches 0: did every count reach 0? Count "
                                       "one for every next_functions entry (in a * a the node of a is there "
                                       "twice), and lower the count once for every entry too."])
        extra = [prog.label(n) for n in result if n not in set(expected)]
        if extra:
            return _check.failed(title, f"nodes that are not in this graph: {', '.join(extra)}" + program,
                                 hint=["list only the nodes reachable from the root you are given.",
                                       "does your function keep a list, a dict or a set between calls (a global, "
                                       "a default argument)? Start fresh in every call."])
        if result[0] is not root:
            return _check.failed(title, f"the list should start with the root, {prog.label(root)}; it starts with "
                                        f"{prog.label(result[0])}" + program,
                                 hint=["backward starts at the root: it gets the seed gradient and waits for "
                                       "nothing, so it runs first, and the leaves' AccumulateGrad nodes last.",
                                       "start with the root as the only ready node."])
        for node in result:
            for nxt, _ in node.next_functions:
                if nxt is not None and position[nxt] < position[node]:
                    edges = _edges_into(nxt, expected)
                    first = (f"{prog.label(nxt)} gets gradients along {edges} edges, so it must wait until all "
                             f"{edges} have arrived: count them." if edges > 1 else
                             f"{prog.label(nxt)} gets its gradient from {prog.label(node)}, so it must come "
                             "after it: count the edges into every node.")
                    return _check.failed(
                        title, f"{prog.label(nxt)} comes before {prog.label(node)}, but {prog.label(node)} sends "
                               f"it a gradient, so it must run first" + program +
                               "\n   your order: " + " -> ".join(prog.label(n) for n in result),
                        hint=[first] + _ORDER_TIERS)
        if result != _engine_order(prog.loss):
            same_as_engine = False
    detail = f"a valid order for all {len(cases)} hidden graphs"
    if same_as_engine:
        return _check.passed(title, detail + ", and exactly the order minigrad's engine (and PyTorch's) runs.")
    return _check.passed(title, detail + ". (Bonus, not required: to get the engine's exact order, among the "
                                         "ready nodes take the one with the largest _sequence_nr first.)")


# ---------------------------------------------------------------------------- exercise 2
@_check.exercise("my_backward")
def check_my_backward(my_backward):
    """Exercise 2: ``my_backward(loss, order)`` returns {leaf: gradient} equal to what ``loss.backward()`` gives.

    ``order`` is the engine's own execution order (not the student's exercise 1), so that the two
    exercises are graded independently.
    """
    title = "my_backward"
    cases = _cases()
    for (what, prog), (_, ref) in zip(cases, _cases()):  # the same programs, built twice
        ref.loss.backward()
        program = f" for the hidden graph ({what}):\n      {prog.text()}"
        order = _engine_order(prog.loss)  # keeps the graph: the student's code runs it next
        with _no_engine(), grad_mode.enable_grad():
            result, err = _check.call(title, my_backward, prog.loss, order)
        if err is not None:
            if "positional argument" in err.text:
                return _hinted(err, "the function takes two arguments: def my_backward(loss, order).",
                               "order is the list of nodes to run, in the order to run them: the check passes "
                               "the engine's own.")
            if "_EngineUsed" in err.text:
                err.text = err.text.replace("_EngineUsed", "RuntimeError")
                return _hinted(err, "call each node yourself: node(grad) returns what goes along "
                                    "node.next_functions (one edge: the gradient itself; several: a tuple).",
                               "the exercise's bullet points are the steps: seed the root, then go through order.")
            if "converted to Scalar" in err.text or "converted to Python scalars" in err.text:
                return _hinted(err, "gradients are tensors shaped like the values they belong to: in this graph "
                                    "they are vectors, not numbers.",
                               "keep every gradient the tensor a node returned: no .item(), no float().")
            if "KeyError" in err.text:
                return _hinted(err, "a KeyError means a node was reached before any gradient was stored for it.",
                               "the root starts with the seed, ones_like(loss); every other node gets its gradient "
                               "from nodes earlier in `order`: store each gradient under the node it is sent "
                               "to, and skip the (None, 0) entries.")
            return _hinted(err, "my_backward(loss, order) returns a dict {leaf tensor: gradient}.",
                           "the exercise's bullet points are the steps: seed the root, go through order, call "
                           "every node but AccumulateGrad, and send each result along its edge.")
        if not isinstance(result, dict):
            return _check.failed(title, f"my_backward should return a dict {{leaf tensor: gradient}}, got "
                                        f"{type(result).__name__}",
                                 hint=["collect the leaves' gradients in a dict, and return it after the loop.",
                                       "the leaf of an AccumulateGrad node is node.variable: use it as the key."])
        for key in result:
            if isinstance(key, AccumulateGrad):
                return _check.failed(title, "the keys are AccumulateGrad nodes; use the leaf tensors themselves",
                                     hint=["the result maps each leaf tensor to its gradient, as .grad would.",
                                           "an AccumulateGrad node's leaf is node.variable: use it as the key."])
            if not isinstance(key, Tensor):
                return _check.failed(title, f"the keys should be the leaf tensors, but one is {key!r}",
                                     hint=["the result maps each leaf tensor to its gradient, as .grad would.",
                                           "an AccumulateGrad node's leaf is node.variable: use it as the key."])
        by_id = {id(k): v for k, v in result.items()}
        for name, leaf in prog.leaves.items():
            expected = ref.leaves[name]._grad
            if expected is None:  # this leaf does not reach the loss
                continue
            if id(leaf) not in by_id:
                return _check.failed(title, f"no gradient for leaf {name}" + program,
                                     hint=["every leaf that reaches the loss has an AccumulateGrad node in order.",
                                           "when you reach an AccumulateGrad node, store the gradient that arrived "
                                           "there under node.variable (don't call the node: it would write .grad)."])
            got = by_id[id(leaf)]
            if not isinstance(got, Tensor):
                try:
                    got = Tensor(np.asarray(float(got)))
                except (TypeError, ValueError):
                    return _check.failed(title, f"the gradient of {name} should be a tensor, got {got!r}" + program,
                                         hint=["store the gradient as the tensor a node returned, shaped like the "
                                               "leaf.", "do not turn it into a number or a list."])
            if got._data.shape != expected._data.shape or not np.allclose(got._data, expected._data,
                                                                           rtol=1e-6, atol=1e-9):
                hint = ["run the nodes in the given order, and pass each result along its next_functions edge.",
                        "the root starts with ones_like(loss); a node gets the gradient that arrived for it, and "
                        "returns one gradient per entry of its next_functions, in the same order."]
                if prog.fan_out:
                    hint = ["in this graph a node receives gradients from more than one place: they add up.",
                            "when a gradient arrives for a node that already has one waiting, store their sum, and "
                            "call the node only once, when order reaches it."]
                return _check.failed(title, f"wrong gradient for leaf {name}" + program,
                                     expected=expected.detach(), got=got.detach(), hint=hint)
            if got.requires_grad:
                recorded = got.grad_fn.name() if got.grad_fn is not None else "it requires grad"
                return _check.failed(
                    title, f"the gradient of {name} has a grad_fn ({recorded}): your backward's own arithmetic "
                           f"was recorded" + program,
                    hint=["the engine runs the backward formulas without recording them, so .grad has no grad_fn.",
                          "the exercise's last bullet point says how to switch recording off around your loop."])
    return _check.passed(title, f"the same gradients as loss.backward() on all {len(cases)} hidden graphs.")


# ---------------------------------------------------------------------------- prediction question
check_q_next_node = _check.prediction(
    "nb06-q-next-node", "q_next_node",
    "AddBackward0 has just run in section 1's graph. Which node runs next?",
    "618d4df85ec329cb",
    options={"a": "ExpBackward0 (e = h.exp())", "b": "MulBackward0 n4 (t = h * 3)",
             "c": "MulBackward0 n5 (h = x * w)"},
    hints=["Which nodes are ready (all their gradients have arrived) right after AddBackward0?",
           "Two nodes are ready; among ready nodes, the one created last runs first."],
    why="ExpBackward0 and n4 are both ready; t = h * 3 was created after e = h.exp(), so n4 runs first. "
        "n5 must wait for both.")


# ---------------------------------------------------------------------------- exercise 3: saved tensors on a "disk"
_DISK_TIERS = {
    "key": ["pack runs once for every tensor an op saves, and the node keeps only what pack returns. To move the "
            "tensor out of the graph, store its numbers in `disk` and return something small that finds them again.",
            "a new key for every call: a counter, or how many entries `disk` holds already. A key that is the same "
            "for two tensors makes the second overwrite the first."],
    "tensor": ["unpack must give backward a tensor again, with the numbers and the dtype that were packed.",
               "read the numbers stored under the key and make a tensor of them: minigrad.from_numpy, or "
               "minigrad.tensor of the array (not of a list: that would change a float64 array to float32)."],
}


def _disk_programs():
    """Small hidden programs: (what, a function that builds the loss from fresh leaves, the leaves)."""
    r = _check.rng(606)
    x = r.uniform(-1.0, 1.0, 4)
    a, w = r.uniform(-1.0, 1.0, (3, 4)), r.uniform(-1.0, 1.0, (4, 2))
    return [
        ("exp saves its output, * saves both inputs: (x.exp() * x).sum()",
         lambda t: (t[0].exp() * t[0]).sum(), [x]),
        ("x saved twice: (x * x).tanh().sum()", lambda t: (t[0] * t[0]).tanh().sum(), [x[::-1].copy()]),
        ("a matrix product and a relu, in float64: a.mm(w).relu().sum()",
         lambda t: t[0].mm(t[1]).relu().sum(), [a, w]),
    ]


class _DiskProblem(RuntimeError):
    """Stops backward at the first wrong thing the hooks did (the check reports it)."""


@_check.exercise("pack_to_disk")
def check_disk_hooks(pack_to_disk):
    """Exercise 3: ``pack_to_disk`` stores each saved tensor's numbers in the dict ``disk`` and returns a key;
    ``unpack_from_disk(key)`` gives the tensor back; backward under these hooks gives the usual gradients."""
    from minigrad.autograd.graph import saved_tensors_hooks
    title = "pack_to_disk / unpack_from_disk"
    space = getattr(pack_to_disk, "__globals__", {})
    unpack_from_disk, disk = space.get("unpack_from_disk"), space.get("disk")
    if not callable(unpack_from_disk):
        return _check.failed(title, "`unpack_from_disk` is not defined: write it in the exercise cell, beside "
                                    "pack_to_disk, and run the cell", hint=_DISK_TIERS["tensor"])
    if not isinstance(disk, dict):
        return _check.failed(title, "`disk` should be the dict that the exercise cell makes (disk = {})",
                             hint=["keep the line that makes disk, an empty dict, at the top of the cell.",
                                   "pack stores into that dict and unpack reads from it."])
    for what, build, values in _disk_programs():
        dtype = np.float64 if "float64" in what else np.float32
        program = f" for the hidden program {what}"
        leaves = [Tensor(v.astype(dtype), requires_grad=True) for v in values]
        expected_leaves = [Tensor(v.astype(dtype), requires_grad=True) for v in values]
        build(expected_leaves).backward()
        packed, problem = [], []   # the tensors pack got, with what it returned; the first wrong thing seen

        def pack(t):
            key = pack_to_disk(t)
            packed.append(key)
            if isinstance(key, Tensor) and not problem:
                problem.append(("pack_to_disk returned a tensor, so the node still keeps the tensor in memory",
                                "key"))
            return key

        def unpack(key):
            value = unpack_from_disk(key)
            if not isinstance(value, Tensor):
                problem.append((f"unpack_from_disk returned {type(value).__name__}, not a tensor", "tensor"))
            elif value.dtype != expected_dtype[0] and not problem:
                problem.append((f"unpack_from_disk gave back a {value.dtype} tensor for a tensor packed as "
                                f"{expected_dtype[0]}", "tensor"))
            if problem:
                raise _DiskProblem(problem[0][0])
            return value

        def run():
            with saved_tensors_hooks(pack, unpack):
                loss = build(leaves)
            entries = len(disk)
            loss.backward()
            return entries

        expected_dtype = [leaves[0].dtype]
        before = len(disk)
        entries, err = _check.call(title, run)
        if problem:
            return _check.failed(title, problem[0][0] + program, hint=_DISK_TIERS[problem[0][1]])
        if err is not None:
            if "not written yet" in err.text:
                return err
            return _hinted(err, "pack_to_disk(tensor) returns a key, and unpack_from_disk(key) the tensor stored "
                                "under that key.", *_DISK_TIERS["key"][1:])
        if entries - before < len(packed):
            return _check.failed(title, f"{len(packed)} tensors were packed, but disk holds {entries - before} new "
                                        f"{'entry' if entries - before == 1 else 'entries'}: every packed tensor "
                                        f"needs its own key" + program,
                                 hint=_DISK_TIERS["key"])
        for i, (leaf, ref) in enumerate(zip(leaves, expected_leaves)):
            if leaf._grad is None or not _check.close(leaf._grad, ref._grad, atol=1e-12, rtol=1e-6):
                got = None if leaf._grad is None else leaf._grad.detach()
                return _check.failed(title, f"wrong gradient for leaf {i} under your hooks" + program,
                                     expected=ref._grad.detach(), got=got,
                                     hint=["the numbers unpack gives back must be the very numbers pack got "
                                           "for that key.", *_DISK_TIERS["key"]])
    return _check.passed(title, f"every saved tensor of the {len(_disk_programs())} hidden programs went to disk "
                                f"under its own key, and came back with its numbers and dtype: the gradients are "
                                f"those of a backward without hooks.")
