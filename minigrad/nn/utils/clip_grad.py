"""Gradient clipping (PyTorch: ``torch/nn/utils/clip_grad.py``).

Between ``loss.backward()`` and ``optimizer.step()`` a training loop may shrink the gradients so
that one bad batch cannot throw the weights far away:

- ``clip_grad_norm_(params, max_norm)`` scales all gradients by one number, so that their total
  norm (the norm of all of them laid end to end) is at most ``max_norm``;
- ``clip_grad_value_(params, clip_value)`` clamps every gradient element into
  ``[-clip_value, clip_value]``.

Both change the ``.grad`` tensors in place and record nothing in the graph (they run under
``no_grad``).  ``clip_grad_norm_`` is ``get_total_norm`` followed by ``clip_grads_with_norm_``;
PyTorch 2.13 offers those two steps on their own as well.

PyTorch groups the gradients by device and dtype and, by default, uses its "foreach" kernels that
treat a whole list of tensors at once.  minigrad has one device and no foreach kernels: it goes
through the tensors one by one, and accepts ``foreach`` only so that programs passing it still run.
"""
import math
import types
import warnings

from ...autograd import no_grad
from ...creation import stack, tensor
from ...tensor import Tensor


def _as_list(tensors):
    """A single tensor becomes a list of one; any other iterable (a generator too) becomes a list."""
    if isinstance(tensors, Tensor):
        return [tensors]
    return list(tensors)


@no_grad()
def get_total_norm(tensors, norm_type=2.0, error_if_nonfinite=False, foreach=None):
    """The norm of ``tensors`` taken as one long vector: the norm of the norms of each tensor.

    For a p-norm, ``(sum_i |x_i|^p)^(1/p)`` over all elements equals the p-norm of the per-tensor
    p-norms, and likewise for the inf norm (the largest ``|x_i|``), so PyTorch never joins the tensors.
    """
    tensors = _as_list(tensors)
    norm_type = float(norm_type)  # (so that 2, "inf" and math.inf all work)
    if len(tensors) == 0:
        return tensor(0.0)
    norms = [t.norm(norm_type) for t in tensors]
    # (stack promotes: a float32 norm next to a float64 one gives a float64 total, as in PyTorch)
    total_norm = stack(norms).norm(norm_type)
    if error_if_nonfinite and not math.isfinite(total_norm.item()):
        raise RuntimeError(
            f"The total norm of order {norm_type} for gradients from `parameters` is non-finite, so it cannot be "
            "clipped. To disable this error and scale the gradients by the non-finite norm anyway, set "
            "`error_if_nonfinite=False`")
    return total_norm


@no_grad()
def clip_grads_with_norm_(parameters, max_norm, total_norm, foreach=None):
    """Multiply every ``.grad`` by ``min(max_norm / (total_norm + 1e-6), 1)``, in place; returns None."""
    grads = [p.grad for p in _as_list(parameters) if p.grad is not None]
    if len(grads) == 0:
        return
    # The 1e-6 keeps the division finite when the norm is 0.  The coefficient is a 0-dim tensor
    # (of total_norm's dtype); clamped to 1 it never makes a gradient larger.  PyTorch multiplies
    # even when the coefficient is exactly 1 (it avoids asking the GPU "is it below 1?").
    clip_coef = float(max_norm) / (total_norm + 1e-6)
    clip_coef_clamped = clip_coef.clamp(max=1.0)
    for g in grads:
        g.mul_(clip_coef_clamped)


@no_grad()
def clip_grad_norm_(parameters, max_norm, norm_type=2.0, error_if_nonfinite=False, foreach=None):
    """Scale the gradients of ``parameters`` so that their total norm is at most ``max_norm``.

    Parameters whose ``.grad`` is None are skipped.  Returns the total norm *before* clipping, a
    0-dim tensor (``tensor(0.)`` when there is no gradient at all).
    """
    if isinstance(parameters, types.GeneratorType):
        parameters = list(parameters)  # (read the generator once: it is needed twice below)
        if len(parameters) == 0:
            warnings.warn("`parameters` is an empty generator, no gradient clipping will occur.", stacklevel=3)
    parameters = _as_list(parameters)
    grads = [p.grad for p in parameters if p.grad is not None]
    total_norm = get_total_norm(grads, norm_type, error_if_nonfinite, foreach)
    clip_grads_with_norm_(parameters, max_norm, total_norm, foreach)
    return total_norm


def clip_grad_norm(parameters, max_norm, norm_type=2.0, error_if_nonfinite=False, foreach=None):
    """The old name of ``clip_grad_norm_``: it warns (a FutureWarning, as in PyTorch), then clips."""
    warnings.warn("`minigrad.nn.utils.clip_grad_norm` is now deprecated in favor of "
                  "`minigrad.nn.utils.clip_grad_norm_`.", FutureWarning, stacklevel=2)
    return clip_grad_norm_(parameters, max_norm, norm_type, error_if_nonfinite, foreach)


@no_grad()
def clip_grad_value_(parameters, clip_value, foreach=None):
    """Clamp every gradient element into ``[-clip_value, clip_value]``, in place; returns None."""
    clip_value = float(clip_value)
    for p in _as_list(parameters):
        if p.grad is not None:
            p.grad.clamp_(min=-clip_value, max=clip_value)
