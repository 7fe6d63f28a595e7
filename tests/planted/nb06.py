"""Wrong answers planted in the checks of notebook 06 (``minigrad_course.exercises.nb06``).

Each code is a notebook cell that defines the answer the check reads.
"""
from . import Wrong


def order(body):
    """An execution_order cell with the given body."""
    return "import heapq\nfrom minigrad.autograd import AccumulateGrad\n\n\ndef execution_order(root):\n" + body


def backward(body):
    """A my_backward cell with the given body."""
    return "import minigrad\nfrom minigrad.autograd import AccumulateGrad\n\n\ndef my_backward(loss, order):\n" + body


# the two steps of the exercise, written right: count the edges, then take the ready nodes
COUNT = '''    deps, seen, stack = {}, {root}, [root]
    while stack:
        node = stack.pop()
        for nxt, _ in node.next_functions:
            if nxt is None:
                continue
            deps[nxt] = deps.get(nxt, 0) + 1
            if nxt not in seen:
                seen.add(nxt)
                stack.append(nxt)
'''
RUN = '''    result, ready = [], [root]
    while ready:
        node = ready.pop()
        result.append(node)
        for nxt, _ in node.next_functions:
            if nxt is None:
                continue
            deps[nxt] -= 1
            if deps[nxt] == 0:
                ready.append(nxt)
    return result
'''

# exercise 2, written right but for the marked lines
SEND = '''    waiting = {loss.grad_fn: minigrad.ones_like(loss)}
    leaf_grads = {}
    with minigrad.no_grad():
        for node in order:
            grad = waiting.pop(node)
            if isinstance(node, AccumulateGrad):
                leaf_grads[node.variable] = grad
                continue
            grads = node(grad)
            if not isinstance(grads, tuple):  # one edge: the gradient itself
                grads = (grads,)
            for (nxt, _), g in zip(node.next_functions, grads):
                if nxt is None or g is None:
                    continue
                waiting[nxt] = waiting[nxt] + g if nxt in waiting else g
    return leaf_grads
'''

# exercise 3, written right but for the marked lines
DISK = '''import minigrad

disk = {}


def pack_to_disk(tensor):
    key = len(disk)
    disk[key] = tensor.detach().numpy().copy()
    return key


def unpack_from_disk(key):
    return minigrad.from_numpy(disk[key])
'''

WRONG = {
    "nb06.check_execution_order": [
        Wrong("fitted", order('''    result, seen, i = [root], {root}, 0     # breadth-first: right on section 1's graph
    while i < len(result):
        for nxt, _ in result[i].next_functions:
            if nxt is not None and nxt not in seen:
                seen.add(nxt)
                result.append(nxt)
        i += 1
    return result
'''), "gets gradients along 2 edges",
              "breadth-first: a valid order for section 1's graph, not when two paths to a node differ in length"),
        Wrong("common", order('''    result, seen, stack = [], set(), [root]   # depth-first, each node once
    while stack:
        node = stack.pop()
        if node in seen:
            continue
        seen.add(node)
        result.append(node)
        stack.extend(nxt for nxt, _ in node.next_functions if nxt is not None)
    return result
'''), "gets gradients along 2 edges", "depth-first: reaches a shared node before all its senders"),
        Wrong("common", order(COUNT.replace('''            deps[nxt] = deps.get(nxt, 0) + 1
            if nxt not in seen:''', '''            if nxt not in seen:
                deps[nxt] = 1                 # counts the node once, not every edge''') + RUN),
              "gets gradients along 2 edges", "counts each node once instead of each edge"),
        Wrong("common", order(COUNT + RUN.replace("        result.append(node)\n",
                                                  "        if not isinstance(node, AccumulateGrad):\n"
                                                  "            result.append(node)\n")),
              "the AccumulateGrad nodes are missing", "leaves out the leaves' AccumulateGrad nodes"),
        Wrong("common", order(COUNT + RUN.replace('''        for nxt, _ in node.next_functions:
            if nxt is None:
                continue
            deps[nxt] -= 1''', '''        for nxt in {nxt for nxt, _ in node.next_functions}:   # each next node once
            if nxt is None:
                continue
            deps[nxt] -= 1''')),
              "missing nodes", "lowers the count once per next node, not once per edge: a * a never gets ready"),
        Wrong("common", order('''    result, stack = [], [root]                # every edge followed, no seen set
    while stack:
        node = stack.pop()
        result.append(node)
        stack.extend(nxt for nxt, _ in node.next_functions if nxt is not None)
    return result
'''), "is in the list twice", "a node reached along two edges is listed twice"),
        Wrong("common", order(COUNT.replace('''            if nxt is None:
                continue
            deps''', '''            deps''') + RUN.replace('''            if nxt is None:
                continue
            deps''', '''            deps''')),
              "skip the (None, 0) entries", "the None entries of next_functions listed as nodes"),
        Wrong("other", order(COUNT + RUN.replace("        result.append(node)\n",
                                                 "        result.append(node.name())\n")),
              "not their names", "the nodes' names instead of the nodes"),
        Wrong("other", order(COUNT + RUN).replace("    return result\n", "    return result[::-1]\n"),
              "the list should start with the root", "the order reversed: leaves first"),
    ],
    "nb06.check_my_backward": [
        Wrong("fitted", backward(SEND.replace(
            "                waiting[nxt] = waiting[nxt] + g if nxt in waiting else g\n",
            "                if isinstance(nxt, AccumulateGrad):\n"
            "                    waiting[nxt] = g          # a leaf keeps the last gradient only\n"
            "                else:\n"
            "                    waiting[nxt] = waiting[nxt] + g if nxt in waiting else g\n")),
              "they add up",
              "sums at inner nodes but overwrites at the leaves: right on section 1's graph, wrong when a leaf is "
              "used twice"),
        Wrong("fitted", backward(SEND.replace("                leaf_grads[node.variable] = grad\n",
                                              "                leaf_grads[node.variable] = grad.item()\n")),
              "they are vectors, not numbers", "gradients as Python numbers: right on the scalar graphs only"),
        Wrong("common", backward(SEND.replace(
            "                waiting[nxt] = waiting[nxt] + g if nxt in waiting else g\n",
            "                waiting[nxt] = g        # the last gradient wins\n")),
              "they add up", "a second gradient overwrites the first instead of adding to it"),
        Wrong("common", backward('''    leaf_grads = {}

    def visit(node, grad):                        # one call per path, as in notebook 01's recursive walk
        if isinstance(node, AccumulateGrad):
            leaf_grads[node.variable] = grad
            return
        grads = node(grad)
        for (nxt, _), g in zip(node.next_functions, grads if isinstance(grads, tuple) else (grads,)):
            if nxt is not None:
                visit(nxt, g)

    with minigrad.no_grad():
        visit(loss.grad_fn, minigrad.ones_like(loss))
    return leaf_grads
'''), "wrong gradient for leaf", "recursion along every path, the leaves overwritten"),
        Wrong("common", backward('''    loss.backward()
    return {node.variable: node.variable.grad for node in order if isinstance(node, AccumulateGrad)}
'''), "walk the graph yourself", "the engine's backward() instead of one's own"),
        Wrong("common", backward(SEND.replace("                leaf_grads[node.variable] = grad\n",
                                              "                leaf_grads[node] = grad\n")),
              "the keys are AccumulateGrad nodes", "the AccumulateGrad nodes as keys instead of the leaves"),
        Wrong("common", backward(SEND.replace("    with minigrad.no_grad():\n        for node in order:\n",
                                              "    if True:\n        for node in order:\n")),
              "your backward's own arithmetic was recorded", "no no_grad: the backward formulas are recorded"),
        Wrong("common", backward(SEND.replace("    waiting = {loss.grad_fn: minigrad.ones_like(loss)}\n",
                                              "    waiting = {}\n")),
              "before any gradient was stored", "no seed for the root"),
    ],
    "nb06.check_q_next_node": [
        Wrong("fitted", 'q_next_node = "a"\n', "is not it",
              "the first entry of AddBackward0's next_functions; but the heap takes the node created last"),
        Wrong("common", 'q_next_node = "c"\n', "is not it",
              "h's node, as a depth-first walk would go; but it waits for two gradients"),
    ],
    "nb06.check_disk_hooks": [
        Wrong("fitted", DISK.replace("minigrad.from_numpy(disk[key])", "minigrad.tensor(disk[key].tolist())"),
              "gave back a minigrad.float32 tensor for a tensor packed as minigrad.float64",
              "through a Python list: right for the notebook's float32 example, float32 for a float64 tensor"),
        Wrong("common", DISK.replace("    key = len(disk)\n", "    key = \"saved\"            # one key for all\n"),
              "every packed tensor needs its own key", "one key for every tensor: each pack overwrites the last"),
        Wrong("common", DISK.replace("minigrad.from_numpy(disk[key])", "disk[key]"),
              "returned ndarray, not a tensor", "unpack returns the numpy array, not a tensor"),
        Wrong("common", DISK.replace("    return key\n", "    return tensor\n"),
              "pack_to_disk returned a tensor", "stores a copy, but returns the tensor: the node still keeps it"),
    ],
}
