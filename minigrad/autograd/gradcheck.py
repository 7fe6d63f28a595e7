"""gradcheck: compare a Function's backward with finite differences (PyTorch: ``torch.autograd.gradcheck``).

For every input ``x_i`` that requires grad and every output ``y_o``, build two Jacobians of shape
``(x_i.numel(), y_o.numel())``:

- numerical: nudge one element of ``x_i`` by ``+eps`` and ``-eps`` and take the central difference
  ``(y(x + eps) - y(x - eps)) / (2 eps)``;
- analytical: run backward once per element of ``y_o`` with a one-hot ``grad_output``.

They must agree within ``atol + rtol * |numerical|``.  Use float64 inputs: float32 rounding alone
is larger than the default tolerances.  PyTorch also checks reentrancy, sparse and complex inputs
and forward-mode AD; minigrad checks the Jacobians.
"""
import warnings

import numpy as np

from .run_backward import grad as autograd_grad
from .._core.tensor_base import TensorBase as Tensor



class GradcheckError(RuntimeError):
    """Raised by ``gradcheck`` when the Jacobians differ."""


def _as_tuple(x):
    return tuple(x) if isinstance(x, (tuple, list)) else (x,)


def _outputs(fn, inputs):
    return tuple(o for o in _as_tuple(fn(*inputs)) if isinstance(o, Tensor))


def _numerical(fn, inputs, i, eps):
    x = inputs[i]
    flat = x._data.reshape(-1)  # a view: writing to it changes x
    # grad mode stays on: for gradgradcheck, fn itself runs a backward pass
    outs = _outputs(fn, inputs)
    jac = [np.zeros((flat.size, o._data.size)) for o in outs]
    for k in range(flat.size):
        orig = flat[k].item()
        flat[k] = orig + eps
        plus = [o._data.astype(np.float64).reshape(-1) for o in _outputs(fn, inputs)]
        flat[k] = orig - eps
        minus = [o._data.astype(np.float64).reshape(-1) for o in _outputs(fn, inputs)]
        flat[k] = orig
        for j, (p, m) in enumerate(zip(plus, minus)):
            jac[j][k] = (p - m) / (2 * eps)
    return jac


def _analytical(fn, inputs, diff_idx):
    outs = _outputs(fn, inputs)
    jacs = {}  # (output, input) -> matrix
    for o, out in enumerate(outs):
        for i in diff_idx:
            jacs[o, i] = np.zeros((inputs[i]._data.size, out._data.size))
        if not out._requires_grad:
            continue
        for j in range(out._data.size):
            seed = np.zeros(out._data.size, out._data.dtype)
            seed[j] = 1
            grads = autograd_grad(out, [inputs[i] for i in diff_idx], Tensor(seed.reshape(out._data.shape)),
                                  retain_graph=True, allow_unused=True)
            for i, g in zip(diff_idx, grads):
                if g is not None:
                    jacs[o, i][:, j] = g._data.astype(np.float64).reshape(-1)
    return outs, jacs


def _fmt(m):
    return repr(Tensor(np.asarray(m, dtype=np.float64)))


def gradcheck(func, inputs, *, eps=1e-6, atol=1e-5, rtol=1e-3, raise_exception=True, **kwargs):
    """Return True if ``func``'s analytical gradients match finite differences, else raise (or return False)."""
    inputs = _as_tuple(inputs)
    diff_idx = [i for i, x in enumerate(inputs) if isinstance(x, Tensor) and x._requires_grad]
    if not diff_idx:
        raise ValueError("gradcheck expects at least one input tensor to require gradient, but none of the them "
                         "have requires_grad=True.")
    for i in diff_idx:
        if inputs[i].dtype.name != "float64":
            warnings.warn(f"Input #{i} requires gradient and is not a double precision floating point or complex. "
                          "This check will likely fail if all the inputs are not of double precision floating "
                          "point or complex. ", UserWarning, stacklevel=2)
    outs, analytical = _analytical(func, inputs, diff_idx)
    for i in diff_idx:
        numerical = _numerical(func, inputs, i, eps)
        for o in range(len(outs)):
            n, a = numerical[o], analytical[o, i]
            if not np.allclose(a, n, rtol=rtol, atol=atol):
                msg = (f"Jacobian mismatch for output {o} with respect to input {i},\n"
                       f"numerical:{_fmt(n)}\nanalytical:{_fmt(a)}\n")
                if raise_exception:
                    raise GradcheckError(msg)
                return False
    return True


def gradgradcheck(func, inputs, grad_outputs=None, *, eps=1e-6, atol=1e-5, rtol=1e-3, raise_exception=True,
                  **kwargs):
    """gradcheck of the backward pass itself: checks second derivatives (needs ``create_graph`` support)."""
    inputs = _as_tuple(inputs)
    diff = [x for x in inputs if isinstance(x, Tensor) and x._requires_grad]
    outs = _outputs(func, inputs)
    if grad_outputs is None:
        rng = np.random.default_rng(0)
        grad_outputs = tuple(Tensor(rng.standard_normal(o._data.shape).astype(o._data.dtype), requires_grad=True)
                             for o in outs)
    grad_outputs = _as_tuple(grad_outputs)
    n_in = len(inputs)

    def first_derivatives(*args):
        xs, gos = args[:n_in], args[n_in:]
        ys = [o for o in _outputs(func, xs) if o._requires_grad]
        d = [x for x in xs if isinstance(x, Tensor) and x._requires_grad]
        return autograd_grad(ys, d, gos[:len(ys)], create_graph=True, allow_unused=True, materialize_grads=True)

    return gradcheck(first_derivatives, inputs + grad_outputs, eps=eps, atol=atol, rtol=rtol,
                     raise_exception=raise_exception)
