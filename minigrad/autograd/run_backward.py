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
    """``tensors``/``outputs`` as a list (PyTorch: a tensor alone, or ``tuple(x)``)."""
    return [x] if isinstance(x, Tensor) else list(x)


def _tensor_or_tensors(grads, n):
    """The gradients as a list (PyTorch's ``_tensor_or_tensors_to_tuple``): ``None`` for each of the ``n`` outputs
    when not given, a tensor alone, or ``list(grads)`` (so ``2.0`` raises "'float' object is not iterable")."""
    if grads is None:
        return [None] * n
    return [grads] if isinstance(grads, Tensor) else list(grads)


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
    """The seed gradients, one per (output, gradient) pair as ``zip`` pairs them: extra gradients are ignored, too
    few are found by ``_check_roots`` (PyTorch's ``_make_grads``). A gradient is a tensor of the output's shape,
    or ``None``: then ``1`` for a scalar output that requires grad."""
    seeds = []
    for out, g in zip(outputs, grads):
        if not isinstance(out, Tensor):
            raise AssertionError("Expected output to be a minigrad.Tensor")
        if isinstance(g, Tensor):
            seeds.append(_given_grad(outputs, grads, out, g))
        elif g is None:
            seeds.append(_ones_for(out) if out.requires_grad else None)
        else:
            raise TypeError(f"gradients can be either Tensors or None, but got {type(g).__name__}")
    return seeds


def _ones_for(out):
    """The implicit seed, ``1``: only for a real scalar output."""
    if out._data.size != 1:
        raise RuntimeError("grad can be implicitly created only for scalar outputs")
    if out._data.dtype.kind != "f":
        raise RuntimeError(f"grad can be implicitly created only for real scalar outputs but got {out.dtype}")
    return Tensor(np.ones(out._data.shape, out._data.dtype))


def _given_grad(outputs, grads, out, g):
    """A gradient passed for ``out``: it must have its shape (any dtype: the engine casts it to the output's)."""
    if g.shape != out.shape:  # (PyTorch finds the positions with .index(), which compares with ==, as here)
        raise RuntimeError(f"Mismatch in shape: grad_output[{grads.index(g)}] has a shape of {g.shape} and "
                           f"output[{outputs.index(out)}] has a shape of {out.shape}.")
    return g


def _check_roots(outputs, seeds):
    """What PyTorch's engine checks before it runs: one gradient per output, every output requires grad."""
    if len(seeds) != len(outputs):
        raise RuntimeError(f"got {len(outputs)} tensors and {len(seeds)} gradients")
    for i, out in enumerate(outputs):
        if not out.requires_grad:  # (the property: a view of a base changed in place may require grad now)
            raise RuntimeError(f"element {i} of tensors does not require grad and does not have a grad_fn")


def _check_inputs(inputs, accumulate):
    """The engine's check of ``inputs=``, one by one: tensors (or ``GradientEdge``s) that require grad.
    ``backward()`` first calls ``retain_grad()`` on each (a non-leaf among them keeps its gradient in .grad too)."""
    for t in inputs:
        if isinstance(t, graph.GradientEdge):
            continue
        if not isinstance(t, Tensor):
            raise RuntimeError(f"all inputs have to be Tensors or GradientEdges, but got {type(t).__name__}")
        if accumulate:
            t.retain_grad()
        if not t.requires_grad:
            raise RuntimeError("One of the differentiated Tensors does not require grad")


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
    grads = _make_grads(outputs, _tensor_or_tensors(grad_tensors, len(outputs)))
    retain_graph = create_graph if retain_graph is None else retain_graph
    _check_roots(outputs, grads)
    if inputs is not None:
        _check_inputs(inputs, accumulate=True)
    GraphTask(outputs, grads, retain_graph, create_graph, inputs).run()


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
    grads = _make_grads(outputs, _tensor_or_tensors(grad_outputs, len(outputs)))
    if retain_graph is None:
        retain_graph = create_graph
    _check_roots(outputs, grads)
    _check_inputs(inputs, accumulate=False)
    task = GraphTask(outputs, grads, retain_graph, create_graph, inputs, accumulate=False).run()
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
