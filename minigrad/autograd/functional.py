"""Whole derivatives of a function: ``jacobian``, ``hessian``, ``vjp``, ``jvp``, ``hvp``, ``vhp``
(PyTorch: ``torch.autograd.functional``).

All of them are built from ``autograd.grad``, the vector-Jacobian product (VJP) that backward computes:

- ``vjp(f, x, v)``: ``v^T J``, one backward pass;
- ``jacobian(f, x)``: one VJP per output element, with ``v`` a one-hot vector: row by row;
- ``jvp(f, x, u)``: ``J u``, by the "double backward trick": ``g(v) = v^T J`` is linear in ``v``, so its
  own VJP with ``u`` is ``(J^T)^T u = J u``; that needs ``create_graph=True`` on the first pass;
- ``hessian(f, x)``: the Jacobian of the gradient; ``hvp``/``vhp``: the Hessian times a vector.

Inputs are detached copies that require grad (the caller's tensors are not part of the graph), and
the results are detached unless ``create_graph=True``, as in PyTorch.  ``vectorize`` and
``strategy="forward-mode"`` (vmap, forward AD) are not in minigrad.
"""
from .run_backward import grad as _grad
from .grad_mode import enable_grad
from ..creation import ones_like, stack, zeros, zeros_like  # (functional builds on tensors made by creation)


def _as_tuple(x):
    return (tuple(x), True) if isinstance(x, (tuple, list)) else ((x,), False)


def _prepare(inputs, create_graph):
    """Inputs the function will see: leaves of a new graph (views of the given ones with create_graph)."""
    return tuple(x.view_as(x) if create_graph and x.requires_grad else x.detach().requires_grad_(True)
                 for x in inputs)


def _grads(outputs, inputs, grad_outputs, create_graph, strict, what="output"):
    """``autograd.grad`` where an unused input gives zeros (or, with ``strict``, PyTorch's error)."""
    outs = [o for o in outputs if o.requires_grad]
    gos = [g for o, g in zip(outputs, grad_outputs) if o.requires_grad]
    for i, o in enumerate(outputs):
        if strict and not o.requires_grad:
            raise RuntimeError(f"Output {i} of the user-provided function does not require gradients. The outputs "
                               "must be computed in a differentiable manner from the input when running in strict "
                               "mode.")
    got = _grad(outs, inputs, gos, create_graph=create_graph, retain_graph=True, allow_unused=True) if outs \
        else (None,) * len(inputs)
    result = []
    for i, (x, g) in enumerate(zip(inputs, got)):
        if g is None:
            if strict:
                raise RuntimeError(f"The {what} of the user-provided function is independent of input {i}. This "
                                   "is not allowed in strict mode.")
            g = zeros_like(x)
        result.append(g)
    return tuple(result)


def _input_vector(v, inputs):
    """The vector ``v`` of ``jvp``/``hvp`` as a tuple; it may be left out for a single one-element input."""
    if v is None:
        if len(inputs) != 1 or inputs[0].numel() != 1:
            raise RuntimeError("The vector v can only be None if the input to the user-provided function is a "
                               "single Tensor with a single element.")
        return (ones_like(inputs[0]),)
    return _as_tuple(v)[0]


def _finish(t, create_graph):
    return t if create_graph else t.detach()


def vjp(func, inputs, v=None, create_graph=False, strict=False):
    """``(func(inputs), v^T J)``: the gradient of ``sum(v * func(inputs))`` with respect to the inputs."""
    inputs, in_tuple = _as_tuple(inputs)
    with enable_grad():
        xs = _prepare(inputs, create_graph)
        outputs, out_tuple = _as_tuple(func(*xs))
        if v is None:
            if len(outputs) != 1 or outputs[0].numel() != 1:
                raise RuntimeError("The vector v can only be None if the user-provided function returns a single "
                                   "Tensor with a single element.")
            v = (ones_like(outputs[0]),)
        v, _ = _as_tuple(v)
        grads = _grads(outputs, xs, v, create_graph, strict)
    outputs = tuple(_finish(o, create_graph) for o in outputs)
    grads = tuple(_finish(g, create_graph) for g in grads)
    return (outputs if out_tuple else outputs[0]), (grads if in_tuple else grads[0])


def jvp(func, inputs, v=None, create_graph=False, strict=False):
    """``(func(inputs), J v)``, by differentiating a VJP once more (the double backward trick)."""
    inputs, in_tuple = _as_tuple(inputs)
    v = _input_vector(v, inputs)
    with enable_grad():
        xs = _prepare(inputs, create_graph)
        outputs, out_tuple = _as_tuple(func(*xs))
        # g(w) = w^T J for a dummy w that requires grad: linear in w, so d(g . v)/dw = J v
        dummies = tuple(zeros_like(o).requires_grad_(True) for o in outputs)
        g = _grads(outputs, xs, dummies, True, strict)
        jv = _grads(g, dummies, v, create_graph, strict, what="backward")
    outputs = tuple(_finish(o, create_graph) for o in outputs)
    jv = tuple(_finish(t, create_graph) for t in jv)
    return (outputs if out_tuple else outputs[0]), (jv if out_tuple else jv[0])


def jacobian(func, inputs, create_graph=False, strict=False, vectorize=False, strategy="reverse-mode"):
    """``d func(inputs) / d inputs``: for one input and one output a tensor of shape
    ``output.shape + input.shape``; otherwise a tuple (per output) of tuples (per input)."""
    if vectorize or strategy != "reverse-mode":
        raise NotImplementedError("minigrad's jacobian computes row by row: no vectorize, no forward mode")
    inputs, in_tuple = _as_tuple(inputs)
    with enable_grad():
        xs = _prepare(inputs, create_graph)
        outputs, out_tuple = _as_tuple(func(*xs))
        result = []
        for i, out in enumerate(outputs):
            rows = []  # one VJP per element of this output, with a one-hot v
            for k in range(out.numel()):
                onehot = zeros_like(out)
                onehot.view(-1)[k] = 1.0
                v = [onehot if j == i else zeros_like(o) for j, o in enumerate(outputs)]
                rows.append(_grads(outputs, xs, v, create_graph, strict))
            per_input = []
            for j, x in enumerate(xs):
                if rows:
                    jac = stack([r[j] for r in rows]).reshape(tuple(out.shape) + tuple(x.shape))
                else:
                    jac = zeros(*(tuple(out.shape) + tuple(x.shape)), dtype=x.dtype)
                per_input.append(_finish(jac, create_graph))
            result.append(tuple(per_input) if in_tuple else per_input[0])
    return tuple(result) if out_tuple else result[0]


def hessian(func, inputs, create_graph=False, strict=False, vectorize=False, outer_jacobian_strategy="reverse-mode"):
    """The Hessian of a function with a single-element output: the Jacobian of its gradient."""
    inputs, in_tuple = _as_tuple(inputs)

    def gradient(*xs):
        out = func(*xs)
        if out.numel() != 1:
            raise RuntimeError("The function given to hessian should return a single element Tensor")
        g = _grads((out,), xs, (None,), True, strict)
        return g if in_tuple else g[0]

    return jacobian(gradient, inputs if in_tuple else inputs[0], create_graph=create_graph, strict=strict)


def vhp(func, inputs, v=None, create_graph=False, strict=False):
    """``(func(inputs), v^T H)``."""
    return _hessian_vector(func, inputs, v, create_graph, strict)


def hvp(func, inputs, v=None, create_graph=False, strict=False):
    """``(func(inputs), H v)``; the Hessian is symmetric, so it is ``v^T H`` too."""
    return _hessian_vector(func, inputs, v, create_graph, strict)


def _hessian_vector(func, inputs, v, create_graph, strict):
    inputs, in_tuple = _as_tuple(inputs)
    v = _input_vector(v, inputs)
    with enable_grad():
        xs = _prepare(inputs, create_graph)
        out = func(*xs)
        if out.numel() != 1:
            raise RuntimeError("The function given to hvp should return a single element Tensor")
        g = _grads((out,), xs, (None,), True, strict)
        hv = _grads(g, xs, v, create_graph, strict, what="backward")
    hv = tuple(_finish(t, create_graph) for t in hv)
    return _finish(out, create_graph), (hv if in_tuple else hv[0])
