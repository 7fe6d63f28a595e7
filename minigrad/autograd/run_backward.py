"""``backward()`` and ``grad()``: check the arguments, make the first gradients, run the engine
(PyTorch: ``torch.autograd.backward`` and ``torch.autograd.grad`` in ``torch/autograd/__init__.py``,
which hand the work to ``_engine_run_backward``). ``minigrad.autograd`` exports both."""
import warnings

import numpy as np

from . import graph
from .engine import GraphTask
from .._core.layout import like
from .._core.tensor_base import TensorBase as Tensor


def _tensors(x):
    return [x] if isinstance(x, Tensor) else [] if x is None else list(x)


def _inputs(inputs, fn):
    """``inputs=`` of ``backward()``/``grad()`` as a list: tensors or ``GradientEdge``s (a dict gives its values)."""
    from collections.abc import Mapping
    if isinstance(inputs, (Tensor, graph.GradientEdge)):
        inputs = [inputs]
    elif type(inputs) is dict:
        inputs = list(inputs.values())
    elif isinstance(inputs, Mapping):
        raise TypeError(f"`inputs` argument to `{fn}()` must be a dict, not {type(inputs).__name__}. Other Mapping "
                        "types are not supported.")
    else:
        inputs = list(inputs)
    if not inputs:
        raise RuntimeError(f"`inputs` argument to `{fn}()` cannot be empty.")
    return inputs


def _renamed_grad_variables(grad_tensors, grad_variables):
    warnings.warn("`grad_variables` is deprecated. Use `grad_tensors` instead.", FutureWarning, stacklevel=3)
    if grad_tensors is not None:
        raise RuntimeError("`grad_tensors` and `grad_variables` (deprecated) arguments both passed to `backward()`. "
                           "Please only use `grad_tensors`.")
    return grad_variables


def _make_grads(outputs, grads):
    """The seed gradients: ``1`` for scalar outputs, or the given ones after a shape check.

    Every output must require grad first (``requires_grad`` is the property: a view whose base was since changed in
    place by a tensor that requires grad requires grad now, as in PyTorch)."""
    for i, out in enumerate(outputs):
        if not out.requires_grad:
            raise RuntimeError(f"element {i} of tensors does not require grad and does not have a grad_fn")
    return [_given_grad(i, out, g) if g is not None else _ones_for(out) for i, (out, g) in enumerate(zip(outputs, grads))]


def _ones_for(out):
    """The implicit seed, ``1``: only for a real scalar output."""
    if out._data.size != 1:
        raise RuntimeError("grad can be implicitly created only for scalar outputs")
    if out._data.dtype.kind != "f":
        raise RuntimeError(f"grad can be implicitly created only for real scalar outputs but got {out.dtype}")
    return Tensor(np.ones(out._data.shape, out._data.dtype))


def _given_grad(i, out, g):
    """The gradient passed for output ``i``, as a tensor in the output's dtype if it was not one, of its shape."""
    if not isinstance(g, Tensor):
        g = Tensor(np.asarray(g, dtype=out._data.dtype))
    if g._data.shape != out._data.shape:
        from .._dtype import Size
        raise RuntimeError(f"Mismatch in shape: grad_output[{i}] has a shape of {Size(g._data.shape)} and "
                           f"output[{i}] has a shape of {Size(out._data.shape)}.")
    return g


def backward(tensors, grad_tensors=None, retain_graph=None, create_graph=False, grad_variables=None, inputs=None):
    """Accumulate into the leaves' ``.grad`` the gradient of ``tensors`` (``loss.backward()`` calls this).

    ``grad_tensors`` holds one gradient per tensor (``None`` allowed for scalars); it is the vector
    in the vector-Jacobian product, so it acts as weights when several outputs are summed.
    ``retain_graph`` defaults to ``create_graph``; without it the saved tensors are freed.
    """
    if grad_variables is not None:  # (the old name of grad_tensors)
        grad_tensors = _renamed_grad_variables(grad_tensors, grad_variables)
    inputs = _inputs(inputs, "backward") if inputs is not None else None  # (only the nodes on the way to them run)
    outputs = _tensors(tensors)
    grads = [None] * len(outputs) if grad_tensors is None else _one_per_output(grad_tensors, outputs)
    retain_graph = create_graph if retain_graph is None else retain_graph
    grads = _make_grads(outputs, grads)
    if inputs is not None:
        _retain_inputs(inputs)
    GraphTask(outputs, grads, retain_graph, create_graph, inputs).run()


def _one_per_output(grad_tensors, outputs):
    """``grad_tensors`` of ``backward()`` as a list, one (or ``None``) per output."""
    grads = _tensors(grad_tensors)
    if len(grads) != len(outputs):
        raise RuntimeError("grad can be implicitly created only for scalar outputs" if not grads else
                           f"got {len(grads)} tensors and {len(outputs)} gradients")
    return grads


def _retain_inputs(inputs):
    """``backward(inputs=...)``: their own nodes run too (a leaf's AccumulateGrad fills its .grad); PyTorch's engine calls
    retain_grad() on each tensor among them, so a non-leaf keeps its gradient in .grad as well."""
    for t in inputs:
        if isinstance(t, Tensor):
            t.retain_grad()


def grad(outputs, inputs, grad_outputs=None, retain_graph=None, create_graph=False, only_inputs=True,
         allow_unused=None, is_grads_batched=False, materialize_grads=False):
    """Return the gradients of ``outputs`` w.r.t. ``inputs`` without touching any ``.grad``."""
    if materialize_grads and allow_unused is False:
        raise ValueError("Expected allow_unused to be True or not passed when materialize_grads=True, but got: "
                         "allow_unused=False.")
    if allow_unused is None:
        allow_unused = materialize_grads
    outputs = _tensors(outputs)
    names = list(inputs) if type(inputs) is dict else None  # a dict of inputs gives a dict of gradients
    inputs = _inputs(inputs, "grad")
    if not only_inputs:
        warnings.warn("only_inputs argument is deprecated and is ignored now (defaults to True). To accumulate "
                      "gradient for other parts of the graph, please use minigrad.autograd.backward.", FutureWarning,
                      stacklevel=2)
    for i, out in enumerate(outputs):  # PyTorch checks the outputs first
        if not out.requires_grad:  # (the property: see _make_grads)
            raise RuntimeError(f"element {i} of tensors does not require grad and does not have a grad_fn")
    for t in inputs:
        if isinstance(t, Tensor) and not t.requires_grad:
            raise RuntimeError("One of the differentiated Tensors does not require grad")
    grads = _tensors(grad_outputs) if grad_outputs is not None else [None] * len(outputs)
    if retain_graph is None:
        retain_graph = create_graph
    task = GraphTask(outputs, _make_grads(outputs, grads), retain_graph, create_graph, inputs, accumulate=False).run()
    result = []
    for i, (t, g) in enumerate(zip(inputs, task.captured)):
        if g is None:
            if not allow_unused:
                raise RuntimeError(f"The differentiated Tensor at index {i} appears to not have been used in the "
                                   "graph. Set allow_unused=True if this is the desired behavior.")
        elif not create_graph:
            g = g.detach()
        result.append(g)
    if materialize_grads:  # unused inputs get zeros (PyTorch does this last, in Python)
        if any(g is None and not isinstance(t, Tensor) for g, t in zip(result, inputs)):
            raise RuntimeError("materialize_grads cannot be used when the given input is a GradientEdge")
        result = [g if g is not None else Tensor(like(t._data, np.zeros(t._data.shape, t._data.dtype)), create_graph)
                  for g, t in zip(result, inputs)]  # (zeros_like(t), laid out like t)
    return dict(zip(names, result)) if names is not None else tuple(result)
