"""What a drawing reads from the graph, and the ids of what it draws (``Layout``).

The drawing reads only these (so it draws any engine shaped like PyTorch's: minigrad's, PyTorch's
itself, or a student's own)::

    tensor  .grad_fn   the node that made it (None for a leaf)
            ._data or .data, .grad, .name, .requires_grad, ._output_nr or .output_nr  (all optional)
    node    .next_functions   ((node or None, input_nr), ...) -- one pair per input
            .name()           its name; without it, type(node).__name__
            .variable         only the leaf's AccumulateGrad has it: the leaf tensor

minigrad's nodes also show what they saved (``node._saved``); for other engines that part is left
out.  No ``isinstance`` check on minigrad's classes: a tensor is whatever has ``grad_fn``, a node
whatever has ``next_functions``.
"""
import warnings

from .format import shape_list, tensor_shape


# ---- reading tensors and nodes ---------------------------------------------------------------
def grad_of(t):
    """``t.grad`` (``None`` when there is none), without PyTorch's warning for a non-leaf's .grad."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return getattr(t, "grad", None)


def is_tensor(x):
    return hasattr(x, "grad_fn") and not hasattr(x, "next_functions")


def is_node(x):
    return hasattr(x, "next_functions")


def is_accumulator(node):
    """The leaf's ``AccumulateGrad`` (PyTorch's and minigrad's have ``.variable``, the leaf)."""
    return getattr(node, "variable", None) is not None


def node_name(node):
    """The name of a backward node: ``node.name()``, as PyTorch's ``grad_fn.name()``."""
    if is_accumulator(node):
        return "AccumulateGrad"  # PyTorch's name() says "torch::autograd::AccumulateGrad"
    name = getattr(node, "name", None)
    return name() if callable(name) else type(node).__name__


def output_nr(t):
    """Which output of its ``grad_fn`` a tensor is (PyTorch: ``t.output_nr``)."""
    nr = getattr(t, "_output_nr", None)
    return getattr(t, "output_nr", 0) if nr is None else nr


def saved_entries(node):
    """What ``node`` saved for backward: [(i, kind, tensor or None, numbers or None, freed)].

    ``kind`` is "output" for the node's own output (which it keeps as numbers only: a reference
    to it would be a cycle) or "tensor".  minigrad keeps ``node._saved``, per entry a
    ``SavedTensor`` or None; nodes of other engines give ``[]``.
    """
    out = []
    for i, saved in enumerate(getattr(node, "_saved", None) or ()):
        if saved is None:
            continue
        tensor = getattr(saved, "tensor", None)
        kind = "output" if tensor is None and getattr(saved, "output_nr", None) is not None else "tensor"
        data = getattr(saved, "data", None) if tensor is None else None
        out.append((i, kind, tensor, data, bool(getattr(saved, "freed", False))))
    return out


def is_constant(kind, tensor):
    """A saved tensor that needs no gradient and came from no op: the ``A`` of ``A @ x``, the 2 of ``x * 2``."""
    return (kind == "tensor" and tensor is not None and getattr(tensor, "grad_fn", None) is None
            and not getattr(tensor, "requires_grad", False))


# ---- walking the graph ----------------------------------------------------------------------
def split_root(root):
    """``root`` -> (output tensors to draw as boxes, backward nodes to start the walk from)."""
    items = list(root) if isinstance(root, (list, tuple)) else [root]
    outputs, starts = [], []
    for item in items:
        if is_tensor(item):
            outputs.append(item)
            if item.grad_fn is not None:
                starts.append(item.grad_fn)
        elif is_node(item):
            starts.append(item)
        else:
            raise TypeError(f"draw() expects a Tensor, a list of Tensors or a grad_fn node, "
                            f"got {type(item).__name__}")
    return outputs, starts


def walk(starts):
    """Every backward node reachable from ``starts``, breadth-first, each once.

    Iterative (a list used as a queue), so a chain of 100,000 nodes needs no recursion.
    ``(None, 0)`` entries of ``next_functions`` -- inputs that need no gradient -- are skipped.
    """
    order, seen = [], set()
    for node in starts:
        if node not in seen:
            seen.add(node)
            order.append(node)
    i = 0
    while i < len(order):
        for nxt, _ in order[i].next_functions:
            if nxt is not None and nxt not in seen:
                seen.add(nxt)
                order.append(nxt)
        i += 1
    return order


def name_map(params=None, names=None):
    """{id(tensor): (name, tensor)} from ``params`` ({name: tensor}) and ``names`` (either way round)."""
    result = {}
    for name, t in (params or {}).items():
        result[id(t)] = (name, t)
    for key, value in (names or {}).items():
        name, t = (key, value) if isinstance(key, str) else (value, key)
        result[id(t)] = (str(name), t)
    return result


class Layout:
    """Names and ids of everything in one drawing; shared by ``draw`` and ``BackwardStepper``.

    DOT ids are handed out in a fixed order -- output tensors, then the backward nodes in
    breadth-first order, each followed by its leaf box -- so the same graph always gives the same
    DOT text.  Named intermediates (``t0, t1``), saved tensors (``s0, s1``) and constants (``c0,
    c1``) are counted apart, so asking for them never renumbers the nodes.
    """

    def __init__(self, root, params=None, max_nodes=500, show_saved=False, names=None, show_values=False):
        self.outputs, self.starts = split_root(root)
        self.order = walk(self.starts)
        self.drawn = self.order[:max(0, int(max_nodes))]
        self.hidden = len(self.order) - len(self.drawn)
        self.drawn_set = set(self.drawn)
        self.names = name_map(params, names)
        self._ids, self._counts = {}, {"n": 0, "s": 0, "t": 0, "c": 0}
        for t in self.outputs:
            self.id(("tensor", id(t)))
        for node in self.drawn:
            self.id(("node", id(node)))
            if is_accumulator(node):
                self.id(("tensor", id(node.variable)))
        # named intermediate tensors, by the edge they travel: (grad_fn, output_nr) -> tensor
        output_ids = {id(t) for t in self.outputs}
        self.intermediates = {}
        for name, t in self.names.values():
            node = getattr(t, "grad_fn", None) if is_tensor(t) else None
            if node in self.drawn_set and id(t) not in output_ids:
                self.intermediates.setdefault((node, output_nr(t)), t)
        for node in self.drawn:  # in walk order, so the t ids are stable
            for nr in range(len(self.intermediates)):
                t = self.intermediates.get((node, nr))
                if t is not None:
                    self.id(("inter", id(t)))
        for node in self.drawn:  # saved tensors and constants get ids of their own (s0, c0, ...)
            for i, kind, tensor, data, freed in saved_entries(node):
                if show_saved:
                    self.id(("saved", id(node), i))
                elif show_values and not freed and is_constant(kind, tensor):
                    self.id(("const", id(node), i))
        self.labels = self._text_labels()

    is_acc = staticmethod(is_accumulator)

    def id(self, key):
        if key not in self._ids:
            prefix = {"saved": "s", "inter": "t", "const": "c"}.get(key[0], "n")
            self._ids[key] = f"{prefix}{self._counts[prefix]}"
            self._counts[prefix] += 1
        return self._ids[key]

    def has_id(self, key):
        return key in self._ids

    def node_id(self, node):
        return self._ids[("node", id(node))]

    def tensor_name(self, t):
        """The name to show: from ``names``/``params`` (by identity), else ``t.name``, else ``None``."""
        entry = self.names.get(id(t))
        if entry is not None:
            return entry[0]
        name = getattr(t, "name", None)
        return name if isinstance(name, str) else None

    def node_label(self, node):
        """What the box of a backward node says (torchviz: the node's class name)."""
        return node_name(node)

    def tensor_text(self, t, default=""):
        """``a [10]`` (or ``[10]`` without a name): a tensor in the text summary."""
        name = self.tensor_name(t) or default
        return (f"{name} " if name else "") + shape_list(tensor_shape(t))

    def _text_labels(self):
        """One unique text name per drawn node: ``AccumulateGrad(a [10])``, ``MulBackward0 (n4)``."""
        base = {}
        for node in self.drawn:
            if is_accumulator(node):
                base[node] = f"AccumulateGrad({self.tensor_text(node.variable)})"
            else:
                base[node] = node_name(node)
        count = {}
        for text in base.values():
            count[text] = count.get(text, 0) + 1
        self.duplicates = {node for node, text in base.items() if count[text] > 1}
        return {node: text if count[text] == 1 else f"{text} ({self.node_id(node)})"
                for node, text in base.items()}

    def text(self, node):
        if node is None:
            return "None"
        if node in self.labels:
            return self.labels[node]
        return f"{self.node_label(node)} (not drawn)"
