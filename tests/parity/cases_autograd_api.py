"""PyTorch-parity cases (see ``cases.py`` for the conventions and the input helpers)."""
import numpy as np  # noqa: F401

from . import case  # noqa: F401
from .cases import arr, const, fwd_bwd, leaf  # noqa: F401
import os
import re
import warnings


def _last_frame(stack_text):
    """The innermost frame of this file in a forward traceback (``File "cases_autograd_api.py", line N, in f\\n
    code``): the outer frames are the test runner's, which differ between recording and testing, and an inner one
    may be torch's own Python (a device mode that another test left on)."""
    frames = [f for f in re.findall(r'  File "[^"]*", line \d+, in .*\n.*\n', stack_text) if __file__ in f
              or os.path.basename(__file__) in f]
    return re.sub(r'File "([^"]*)"', lambda m: f'File "{os.path.basename(m.group(1))}"', frames[-1]) if frames else None


def _anomaly_warnings(o, key, fn):
    """Run ``fn`` (a backward that fails); record the error, and the anomaly warnings with only their innermost frame."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        o.err(key, fn)
    seen = []
    for w in caught:
        msg = o.norm(str(w.message))
        head = msg.split("\n")[0]
        seen.append([w.category.__name__, head, _last_frame(msg)])
    o.raw(f"{key}.warnings", seen)


@case
def ag_anomaly_mode(T, F, o):
    """detect_anomaly: the nodes remember the line that made them; a failing node warns with it; nan is an error."""
    A = T.autograd
    o.raw("initial", [T.is_anomaly_enabled(), T.is_anomaly_check_nan_enabled()])
    ctx = o.warns("detect_anomaly.warns", lambda: A.detect_anomaly())
    with ctx:
        o.raw("inside", [T.is_anomaly_enabled(), T.is_anomaly_check_nan_enabled()])
        x = leaf(T, 1, 3)
        y = x.exp()
        y.add_(1)
        o.raw("metadata", [sorted(y.grad_fn.metadata), _last_frame("".join(y.grad_fn.metadata["traceback_"]))])
        _anomaly_warnings(o, "inplace", lambda: y.sum().backward())
        z = T.tensor([0.0, 1.0], requires_grad=True)
        w = z.sqrt() * 0
        _anomaly_warnings(o, "nan", lambda: w.sum().backward())
    o.raw("after", [T.is_anomaly_enabled(), T.is_anomaly_check_nan_enabled()])
    z = T.tensor([0.0, 1.0], requires_grad=True)
    w = z.sqrt() * 0  # made with anomaly mode off: no traceback to show
    with A.set_detect_anomaly(True):
        _anomaly_warnings(o, "no_forward_info", lambda: w.sum().backward())
    with A.set_detect_anomaly(True, check_nan=False):
        o.raw("check_nan_off", [T.is_anomaly_enabled(), T.is_anomaly_check_nan_enabled()])
        w = z.sqrt() * 0
        w.sum().backward()
        o["nan_grad"] = z.grad
    A.set_detect_anomaly(True)  # a plain call switches it on at once
    o.raw("called", T.is_anomaly_enabled())
    A.set_detect_anomaly(False)
    o.raw("off", T.is_anomaly_enabled())
    x = leaf(T, 2, 3)
    y = x.exp()
    y.add_(1)
    o.err("inplace_without", lambda: y.sum().backward())  # the hint says how to switch anomaly mode on

    def helper(t):
        return t * 3
    with A.set_detect_anomaly(True):
        v = helper(leaf(T, 3, 2))[0:1]
        v.mul_(2)  # CopySlices remembers its line too
        o.raw("views", [v.grad_fn.name(), _last_frame("".join(v.grad_fn.metadata["traceback_"])),
                        sorted(v._base.grad_fn.metadata), _last_frame("".join(v._base.grad_fn.metadata["traceback_"]))])
        u = leaf(T, 4, 2)
        m = u * 2
        m.register_hook(lambda g: g * float("nan"))  # the nan shows up in the next node's output
        _anomaly_warnings(o, "hook_nan", lambda: m.sum().backward())


@case
def ag_node_metadata(T, F, o):
    """grad_fn.metadata is a dict of one's own per node, empty without anomaly mode."""
    x = leaf(T, 5, 2)
    y = x * 2
    o.raw("empty", dict(y.grad_fn.metadata))
    y.grad_fn.metadata["note"] = 1
    o.raw("kept", [y.grad_fn.metadata["note"], y.grad_fn.metadata is y.grad_fn.metadata,
                   "note" in (y * 1).grad_fn.next_functions[0][0].metadata])


@case
def ag_post_accumulate_grad_hook(T, F, o):
    """register_post_accumulate_grad_hook: called with the leaf after its .grad was updated (an SGD step in backward)."""
    v = T.tensor([0.0, 0.0, 0.0], requires_grad=True)
    h = v.register_post_accumulate_grad_hook(lambda p: p.add_(p.grad, alpha=-0.01))
    v.backward(T.tensor([1.0, 2.0, 3.0]))
    o["after_first"] = v.detach()
    (v * 2).sum().backward()
    o["after_second"] = v.detach()
    o["grad"] = v.grad
    h.remove()
    (v * 2).sum().backward()
    o["after_remove"] = v.detach()
    o.err("no_grad_tensor", lambda: T.ones(2).register_post_accumulate_grad_hook(print))
    o.err("non_leaf", lambda: (T.ones(2, requires_grad=True) * 2).register_post_accumulate_grad_hook(print))
    x = leaf(T, 6, 2)
    seen = []
    x.register_hook(lambda g: seen.append(["pre", g.tolist()]) or g * 2)
    x.register_post_accumulate_grad_hook(lambda t: seen.append(["post", t.grad.tolist(), T.is_grad_enabled()]))
    (x * 3).sum().backward()
    T.autograd.grad((x * 3).sum(), x)  # grad() accumulates nothing: no post hook
    (x * 3).sum().backward(inputs=[x])
    with T.no_grad():
        pass
    o.raw("order", [[s[0]] + [[round(v, 4) for v in s[1]]] + s[2:] for s in seen])


@case
def ag_output_nr_and_edges(T, F, o):
    """output_nr; GradientEdge / get_gradient_edge as inputs of grad() and backward(); increment_version."""
    G = T.autograd.graph
    x = leaf(T, 7, 2)
    a, b = (x * 1).unbind()
    o.raw("output_nr", [x.output_nr, a.output_nr, b.output_nr])
    y = x * 3
    e = G.get_gradient_edge(y)
    o.raw("edge", [e.node.name(), e.output_nr, e.ownership_token, len(e), G.get_gradient_edge(b).output_nr,
                   o.norm(G.get_gradient_edge(x).node.name())])
    o.val("grad_edge", lambda: T.autograd.grad((y * y).sum(), [e, G.get_gradient_edge(x)], retain_graph=True))
    o.err("edge_of_constant", lambda: G.get_gradient_edge(T.ones(2)))
    z = leaf(T, 8, 1)
    o.err("edge_unused", lambda: T.autograd.grad((x * x).sum(), [G.get_gradient_edge(z)]))
    o.err("edge_materialize", lambda: T.autograd.grad((x * x).sum(), [G.get_gradient_edge(z)], materialize_grads=True))
    T.autograd.backward((x * x).sum(), inputs=[G.get_gradient_edge(x)])
    o["backward_edge.grad"] = x.grad
    T.autograd.backward((y * 1).sum(), inputs=e)  # a non-leaf edge: nothing to fill
    o["backward_nonleaf_edge.grad"] = x.grad
    v = leaf(T, 9, 2) * 1
    G.increment_version(v)
    G.increment_version([v, v])
    o.raw("version", v._version)
    w = v.exp()
    G.increment_version(w)
    o.err("changed_behind_autograd", lambda: w.sum().backward())
    G.increment_version(T.ones(1))
    with T.inference_mode():
        q = T.ones(1)
    o.err("inference", lambda: G.increment_version(q))


@case
def ag_grad_arguments(T, F, o):
    """autograd.grad and backward: dict inputs, empty inputs, deprecated arguments, materialize_grads."""
    x, z = leaf(T, 10, 2), leaf(T, 11, 1)
    o.val("dict", lambda: sorted(T.autograd.grad((x * x).sum(), {"b": x, "a": x}).items()))
    o.err("empty", lambda: T.autograd.grad((x * x).sum(), []))
    o.err("empty_backward", lambda: T.autograd.backward((x * x).sum(), inputs=[]))
    o.err("mapping", lambda: T.autograd.grad((x * x).sum(), __import__("collections").OrderedDict(a=x)))
    o.val("only_inputs", lambda: o.warns("only_inputs.warns",
                                         lambda: T.autograd.grad((x * x).sum(), x, only_inputs=False)))
    o.err("materialize_not_unused", lambda: T.autograd.grad((x * x).sum(), z, materialize_grads=True,
                                                              allow_unused=False))
    gx, gz = T.autograd.grad((x * x).sum(), [x, z], materialize_grads=True, create_graph=True)
    o.raw("materialized", [gz.tolist(), gz.requires_grad, gz.is_leaf, gx.requires_grad])
    gz2, = T.autograd.grad((x * x).sum(), [z], materialize_grads=True)
    o.raw("materialized_no_graph", [gz2.tolist(), gz2.requires_grad])
    T.autograd.backward((x * x).sum(), inputs={"x": x})
    o["dict_backward.grad"] = x.grad
    o.warns("grad_variables", lambda: T.autograd.backward((x * 2).sum(), grad_variables=[T.tensor(2.0)]))
    o["grad_variables.grad"] = x.grad
    o.err("both", lambda: T.autograd.backward((x * 2).sum(), grad_tensors=[T.tensor(1.0)],
                                              grad_variables=[T.tensor(2.0)]))


def _checkpoint_module(T):
    import importlib
    return importlib.import_module(T.__name__ + ".utils.checkpoint")


@case
def ag_checkpoint(T, F, o):
    """utils.checkpoint, both kinds: the same values and gradients, fewer saved tensors, the function run again in
    backward; reentrant refuses grad() and inputs=; the warnings and errors."""
    C = _checkpoint_module(T)
    calls = []

    def f(x, w):
        calls.append(1)
        return (x * w).tanh().exp()

    for kind in [True, False]:
        calls.clear()
        x, w = leaf(T, 20, 3), leaf(T, 21, 3)
        y = C.checkpoint(f, x, w, use_reentrant=kind)
        o.all(y, f"{kind}.y")
        y.backward(const(T, 22, 3))
        o.grads(f"{kind}.", x=x, w=w)
        o.raw(f"{kind}.calls", len(calls))
        o.err(f"{kind}.second_backward", lambda: y.sum().backward())
        y = C.checkpoint(f, x, w, use_reentrant=kind)
        o.val(f"{kind}.grad", lambda: T.autograd.grad(y.sum(), [x]))
        y = C.checkpoint(f, x, w, use_reentrant=kind)
        x.grad = w.grad = None
        o.err(f"{kind}.inputs", lambda: y.sum().backward(inputs=[w]))
        o.grads(f"{kind}.inputs.", w=w)
        y2 = C.checkpoint(f, x, w, use_reentrant=kind).sum() * 2
        y2.backward(retain_graph=True)
        y2.backward()
        o.grads(f"{kind}.retained.", x=x)
        o.raw(f"{kind}.calls_after", len(calls))
    o.warns("default.warns", lambda: C.checkpoint(f, leaf(T, 23, 2), leaf(T, 24, 2)))
    o.warns("no_grad_inputs.warns", lambda: C.checkpoint(f, const(T, 23, 2), const(T, 24, 2), use_reentrant=True))
    o.err("kwargs_reentrant", lambda: C.checkpoint(f, const(T, 23, 2), w=const(T, 24, 2), use_reentrant=True))
    o.val("kwargs", lambda: C.checkpoint(f, leaf(T, 23, 2), w=const(T, 24, 2), use_reentrant=False))
    o.err("context_reentrant", lambda: C.checkpoint(f, leaf(T, 23, 2), leaf(T, 24, 2), use_reentrant=True,
                                                    context_fn=lambda: 1))
    o.err("determinism", lambda: C.checkpoint(f, leaf(T, 23, 2), leaf(T, 24, 2), use_reentrant=False,
                                              determinism_check="exact"))
    with T.no_grad():
        o.raw("no_grad", [C.checkpoint(f, leaf(T, 23, 2), leaf(T, 24, 2), use_reentrant=k).requires_grad
                          for k in [True, False]])

    def multi(x, scale, flag):
        return x * scale, (x + 1) if flag else x
    for kind in [True, False]:
        x = leaf(T, 25, 2)
        a, b = C.checkpoint(multi, x, 3.0, True, use_reentrant=kind)
        o.fn(f"{kind}.multi.a", a)
        o.fn(f"{kind}.multi.b", b)
        (a.sum() + b.sum()).backward()
        o.grads(f"{kind}.multi.", x=x)


@case
def ag_checkpoint_errors(T, F, o):
    """A recomputation that saves other tensors than the forward did is an error (CheckpointError); an input changed
    in place before backward is caught by its version."""
    C = _checkpoint_module(T)
    state = {"n": 0}

    def grows(x):
        state["n"] += 1
        return (x[:state["n"]] * x[:state["n"]]).sum()

    def shrinks(x):
        state["n"] += 1
        y = x * x
        return (y * y).sum() if state["n"] == 1 else y.sum()

    def longer(x):
        state["n"] += 1
        y = x.exp()
        return y if state["n"] == 1 else y.exp() * y

    for name, fn, kw in [("metadata", grows, {}), ("fewer", shrinks, {}), ("more", longer, {"early_stop": False})]:
        state["n"] = 0
        x = leaf(T, 26, 3)
        e = o.err(name, lambda: C.checkpoint(fn, x, use_reentrant=False, **kw).sum().backward())
        o.raw(f"{name}.type", type(e).__name__)
    a = leaf(T, 27, 2) * 1
    out = C.checkpoint(lambda t: t.exp(), a, use_reentrant=False)
    a.add_(1)
    o.err("input_changed", lambda: out.sum().backward())


@case
def ag_checkpoint_sequential(T, F, o):
    """checkpoint_sequential over an nn.Sequential: the same output and gradients as without checkpoints."""
    C = _checkpoint_module(T)
    nn = T.nn
    net = nn.Sequential(nn.Linear(3, 4), nn.Tanh(), nn.Linear(4, 4), nn.Tanh(), nn.Linear(4, 1))
    with T.no_grad():
        for i, p in enumerate(net.parameters()):
            p.copy_(T.linspace(-0.5, 0.5, p.numel()).reshape(p.shape) * (i + 1))
    for kind in [True, False]:
        x = leaf(T, 28, 2, 3)
        out = C.checkpoint_sequential(net, 2, x, use_reentrant=kind)
        o.all(out, f"{kind}.out")
        out.sum().backward()
        o.grads(f"{kind}.", x=x)
        o[f"{kind}.weight.grad"] = net[0].weight.grad
        net.zero_grad()
    o.warns("default.warns", lambda: C.checkpoint_sequential(net, 2, leaf(T, 28, 2, 3)))
    o.err("kwargs", lambda: C.checkpoint_sequential(net, 2, leaf(T, 28, 2, 3), use_reentrant=False, other=1))


@case
def ag_multi_grad_hook(T, F, o):
    """autograd.graph.register_multi_grad_hook: "all" waits for every gradient this backward computes, "any" takes
    the first; grad() with a leaf among the tensors is refused, as in PyTorch."""
    G = T.autograd.graph
    a, b = leaf(T, 30, 2, 3), leaf(T, 31, 2, 3)
    c, d = a * b, a * b
    seen = []
    h = G.register_multi_grad_hook((a, b, c, d), lambda grads: seen.append(
        [None if g is None else g.tolist() for g in grads]))
    c.sum().backward(retain_graph=True)
    c.sum().backward(inputs=(a,), retain_graph=True)
    o.err("grad_with_leaf", lambda: T.autograd.grad(c.sum(), [b], retain_graph=True))
    o.val("grad_of_c", lambda: T.autograd.grad(c.sum(), [c], retain_graph=True))
    (c.sum() + d.sum()).backward(retain_graph=True)
    h.remove()
    c.sum().backward(retain_graph=True)
    o.raw("all", [[None if g is None else [[round(v, 4) for v in row] for row in g] for g in call] for call in seen])
    first = []
    G.register_multi_grad_hook((a, b, c), lambda g: first.append(g.tolist()), mode="any")
    (c * 2).sum().backward(retain_graph=True)
    (c * 3).sum().backward()
    o.raw("any", first)
    o.err("mode", lambda: G.register_multi_grad_hook((a,), print, mode="some"))


@case
def ag_boxed_grads_call(T, F, o):
    """``boxed_grads_call = True``: backward gets the gradients as one list (zeros, or None without materializing, for
    an output that got none), which it may empty; the node's apply_boxed takes that list (test_faithful_gaps.py)."""
    class Two(T.autograd.Function):
        boxed_grads_call = True

        @staticmethod
        def forward(ctx, x, materialize):
            ctx.set_materialize_grads(materialize)
            return x.clone(), x * 2

        @staticmethod
        def backward(ctx, grads):
            ctx.got = [type(grads).__name__, list(grads)]
            g1, g2 = grads
            grads.clear()
            return g1 + (0 if g2 is None else 2 * g2), None

    x = leaf(T, 320, 3)
    o["default"] = T.autograd.Function.boxed_grads_call
    for m in (True, False):
        a, b = Two.apply(x, m)
        a.sum().backward()
        o[f"got_{m}"] = a.grad_fn.got
    a, b = Two.apply(x, True)
    (a * b).sum().backward()
    o["both"] = a.grad_fn.got
    o.grads("", x=x)
    o.fn("grad_fn", a)
    o["apply_boxed"] = a.grad_fn.apply_boxed([T.ones(3), T.ones(3)])


@case
def ag_grad_dtype(T, F, o):
    """``t.grad_dtype``: the dtype ``.grad`` must have (the tensor's own by default, None for any); a leaf may set it,
    and backward casts its gradient to it.  Assigning ``.grad`` of another dtype is refused."""
    x = leaf(T, 321, 3)
    o["default"] = x.grad_dtype
    o.err("assign_double", lambda: setattr(x, "grad", T.ones(3, dtype=T.float64)))
    o.err("assign_long_to_long", lambda: setattr(T.ones(3, dtype=T.int64), "grad", T.ones(3, dtype=T.int64)))
    y = x * 2
    o.err("non_leaf", lambda: y.grad_dtype)
    o.err("set_non_leaf", lambda: setattr(y, "grad_dtype", T.float64))
    o.err("set_str", lambda: setattr(x, "grad_dtype", "float64"))
    x.grad_dtype = T.float64
    o["set"] = x.grad_dtype
    (x * x).sum().backward()
    o.grads("", x=x)
    o.err("set_with_grad", lambda: setattr(x, "grad_dtype", T.float16))
    x.grad_dtype = None
    o["none"] = x.grad_dtype
    o.err("assign_long", lambda: setattr(x, "grad", T.ones(3, dtype=T.int64)))
    o["assigned"] = x.grad
    z = leaf(T, 322, 3)
    z.backward(T.ones(3, dtype=T.float64))  # (a root's gradient takes the root's dtype)
    o.grads("", z=z)


@case
def ag_backward_inputs_retain_grad(T, F, o):
    """``backward(inputs=[y])`` with a non-leaf ``y``: PyTorch calls ``y.retain_grad()``, and runs y's own node, which
    frees what it saved; the leaves below get nothing (tests/test_faithful_gaps.py has more)."""
    x = leaf(T, 323, 3)
    y = x * x
    z = (y * 3).sum()
    z.backward(inputs=[y])
    o["retains_grad"] = y.retains_grad
    o.warns("y.grad.warns", lambda: y.grad)
    o["y.grad"] = y.grad
    o.grads("", x=x)
    o.err("again_through_y", lambda: y.sum().backward())
    w = x.exp()
    T.autograd.backward((w * 2).sum(), inputs=[w], retain_graph=True)
    o["w.grad"] = w.grad
    w.sum().backward()
    o.grads("after.", x=x)
    o.err("no_grad", lambda: (x * 2).sum().backward(inputs=[T.ones(3)]))
