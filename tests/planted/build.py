"""Wrong engines planted in the "Build it yourself" stages: each is a whole ``my_autograd.py``, the
stage's reference (``minigrad_course/scratch/stageN.py``) with one mistake in it."""
import importlib
import inspect

from planted import Wrong


def source(n):
    """The reference of stage ``n`` as a student's file: its relative imports made absolute."""
    src = inspect.getsource(importlib.import_module(f"minigrad_course.scratch.stage{n}"))
    return src.replace("from .stage4 import", "from minigrad_course.scratch.stage4 import")


def mistake(n, *changes):
    """Stage ``n``'s reference with each ``(old, new)`` made once (each ``old`` must be there once)."""
    src = source(n)
    for old, new in changes:
        assert src.count(old) == 1, f"stage{n}.py changed: {old!r} is there {src.count(old)} times"
        src = src.replace(old, new)
    return src


RECURSIVE_COUNT = """        dependencies, seen = {}, {root}

        def count(node):  # a recursive walk: one Python frame per node
            for nxt, _ in node.next_functions:
                if nxt is not None:
                    dependencies[nxt] = dependencies.get(nxt, 0) + 1
                    if nxt not in seen:
                        seen.add(nxt)
                        count(nxt)
        count(root)
"""
STACK_COUNT = """        dependencies, stack, seen = {}, [root], {root}
        while stack:
            for nxt, _ in stack.pop().next_functions:
                if nxt is not None:
                    dependencies[nxt] = dependencies.get(nxt, 0) + 1
                    if nxt not in seen:
                        seen.add(nxt)
                        stack.append(nxt)
"""

WRONG = {
    "build.check_stage1": [
        Wrong("fitted", mistake(1, ("return (np.broadcast_to(grad, self.shape).copy(),)",
                                    "return (np.full(10, grad, dtype=np.float32),)")),
              "backward() of fan_out raised",
              "SumBackward0 sends a gradient of 10 elements, the size of the seed's linspace: right for the seed "
              "program, wrong for any other size"),
        Wrong("common", mistake(1, ("v.grad = Tensor(grad.copy()) if v.grad is None else Tensor(v.grad.data + grad)",
                                    "v.grad = Tensor(grad.copy())")),
              "ADDS into .grad", "AccumulateGrad overwrites .grad instead of adding into it"),
        Wrong("common", mistake(1, ("if node is not None and node not in seen:", "if node is not None:")),
              "visit a shared node twice", "the walk lists a node once per path to it, so a shared node runs twice"),
        Wrong("common", mistake(1, ("class MulBackward0(Node):", "class MulBackward(Node):"),
                                ("MulBackward0(self, other)", "MulBackward(self, other)")),
              "the graph of fan_out is not PyTorch's", "the node of * is named MulBackward, not MulBackward0"),
    ],
    "build.check_stage2": [
        Wrong("fitted", mistake(2, ('raise RuntimeError(f"Mismatch in shape: grad_output[0] has a shape of '
                                    'torch.Size({list(gradient.shape)})"\n                                   '
                                    'f" and output[0] has a shape of torch.Size({list(self.data.shape)}).")',
                                    'raise RuntimeError("Mismatch in shape: grad_output[0] has a shape of '
                                    'torch.Size([2]) and output[0] has a shape of torch.Size([3]).")')),
              "backward(gradient) of shape",
              "the shape error's message is copied from one example (shapes [2] and [3]), not made from the shapes"),
        Wrong("common", mistake(2, ("grads = {root: gradient}", "grads = {root: np.ones_like(self.data)}")),
              "x.grad should be v times the Jacobian", "backward(gradient) starts the walk with ones, not with v"),
        Wrong("common", mistake(2, ("        if self.grad_fn is None and not self.requires_grad:\n"
                                    '            raise RuntimeError("element 0 of tensors does not require grad and '
                                    'does not have a grad_fn")\n', "")),
              "tensor that needs no gradient should raise",
              "no check for a tensor that needs no gradient: it gets the scalar-output error instead"),
    ],
    "build.check_stage3": [
        Wrong("fitted", mistake(3, ("if grad_enabled and any(nxt is not None for nxt, _ in node.next_functions):",
                                    "if any(nxt is not None for nxt, _ in node.next_functions):"),
                                ("        return record(self.data * other.data, MulBackward0(self, other))",
                                 "        out = self.data * other.data\n"
                                 "        return record(out, MulBackward0(self, other)) if grad_enabled "
                                 "else Tensor(out)")),
              "x + 1 inside `with no_grad():` should record nothing",
              "only * looks at no_grad (the op notebook 03's example uses); + and the others still record"),
        Wrong("common", mistake(3, ("if not retain_graph:", "if True:")),
              "y.backward(retain_graph=True), then y.backward(), raised",
              "every backward frees what the nodes saved, retain_graph or not"),
        Wrong("common", mistake(3, ("if not retain_graph:", "if False:")),
              "a third backward", "nothing is ever freed: a second backward without retain_graph raises no error"),
        Wrong("common", mistake(3, ("        self.data[...] = 0\n        return self",
                                    "        return Tensor(np.zeros_like(self.data))")),
              "zero_() should set the gradient to zeros in place",
              "zero_() returns new zeros and leaves .grad as it was"),
    ],
    "build.check_stage4": [
        Wrong("fitted", mistake(4, ('return self.fn.node_name or self.fn.__name__ + "Backward"',
                                    'return self.fn.node_name or "MMFunctionBackward"')),
              "the node of a Function named",
              "every Function of yours gets the node name MMFunctionBackward: right for the one the notebook checks"),
        Wrong("common", mistake(4, ("        if ctx.needs_input_grad[0]:\n"
                                    "            grad_input = grad_output.mm(weight)",
                                    "        grad_input = grad_output.mm(weight)")),
              "needs none", "MMFunction.backward ignores needs_input_grad and computes grad_input anyway"),
        Wrong("common", mistake(4, ("grad_weight = grad_output.t().mm(input)",
                                    "grad_weight = input.t().mm(grad_output)")),
              "the gradient of MMFunction's weight is wrong",
              "grad_weight is the transpose of the right one (it has the shape of weight.t())"),
    ],
    "build.check_stage5": [
        Wrong("fitted", mistake(5, ("        yield from self._parameters.values()\n"
                                    "        for m in self._modules.values():\n"
                                    "            yield from m.parameters()",
                                    "        yield from self._parameters.values()")),
              "parameters() should give the Parameter and the sub-module's weight",
              "parameters() forgets the sub-modules: right for MMul, which has none"),
        Wrong("common", mistake(5, ("p.data -= self.lr * p.grad.data  # in place: the Parameter stays the same object",
                                    "p = Tensor(p.data - self.lr * p.grad.data)  # a new tensor: no module sees it")),
              "three SGD steps of MMul", "step() makes new tensors instead of changing the parameters"),
        Wrong("common", mistake(5, ("    def zero_grad(self):\n"
                                    "        for p in self.parameters():\n"
                                    "            p.grad = None",
                                    "    def zero_grad(self):\n        pass")),
              "three SGD steps of MMul", "Module.zero_grad() does nothing: the gradients of the steps pile up"),
    ],
    "build.check_stage6": [
        Wrong("fitted", mistake(6, ("node = heapq.heappop(ready)[2]", "node = ready.pop()[2]"),
                                ("heapq.heappush(ready, (-nxt.sequence_nr, next(tie), nxt))",
                                 "ready.append((-nxt.sequence_nr, next(tie), nxt))")),
              "on a hidden random graph",
              "the ready nodes run last-ready-first, not newest-first: the same order on notebook 06's graph, "
              "whose dependencies leave no choice, another one where there is a choice"),
        Wrong("common", mistake(6, ("heapq.heappush(ready, (-nxt.sequence_nr, next(tie), nxt))",
                                    "heapq.heappush(ready, (nxt.sequence_nr, next(tie), nxt))")),
              "in another order than PyTorch's engine", "the oldest ready node runs first (the minus sign is missing)"),
        Wrong("common", mistake(6, (STACK_COUNT, RECURSIVE_COUNT)),
              "RecursionError", "the dependencies are counted with a recursive walk: 100,000 nodes are too deep"),
    ],
}
