"""gradcheck: compare a backward with finite differences (PyTorch: ``torch.autograd.gradcheck``).

minigrad runs PyTorch's steps in PyTorch's order (``torch/autograd/gradcheck.py``, default arguments,
real tensors), so a Function that counts its calls counts PyTorch's numbers:

1. ``func(*inputs)`` once, for the outputs;
2. the **numerical** Jacobian of each output with respect to each input that requires grad, one row
   per input element and one column per output element: nudge one input element by ``-eps``, then
   ``+eps``, and take ``(y(x + eps) - y(x - eps)) / (2 eps)`` (two calls of ``func`` per element);
3. for each output that requires grad, the **analytical** Jacobian, **twice**: backward once per
   output element, with a one-hot ``grad_output``, gives one column. The two runs must agree within
   ``nondet_tol`` (a backward that gives other numbers for the same ``grad_output`` is "not
   reentrant"), and then match the numerical Jacobian within ``atol + rtol * |numerical|``;
4. one backward with ``grad_output`` all zeros: every gradient must be zero;
5. (``check_undefined_grad``) ``func`` once more, its outputs passed through ``UndefinedGrad``, which
   sends back no gradient at all: a custom Function gets zeros instead and must return zeros or None.

``fast_mode=True`` replaces steps 2 and 3 by one random direction ``u`` per input and ``v`` per
output: the number ``v . (J u)`` from two calls of ``func`` per input must match ``(v J) . u`` from
backward (run twice per output, as in step 3). ``u`` and ``v`` come from a ``Generator()`` with
PyTorch's default seed, so they are PyTorch's.

Use float64 inputs: float32 rounding alone is larger than the default tolerances. PyTorch can also
check forward-mode AD and batched gradients (vmap); minigrad has neither, and says so.
"""
import warnings

import numpy as np

from .function import Function
from .run_backward import grad
from .._core.layout import like
from .._core.tensor_base import TensorBase as Tensor
from ..random import Generator, rand  # (the generator is a helper below autograd: random.py imports only _core)


class GradcheckError(RuntimeError):
    """Raised by ``gradcheck`` when a check fails."""


NOT_REENTRANT = (
    "Backward is not reentrant, i.e., running backward with same input and grad_output multiple times gives "
    "different values, although analytical gradient matches numerical gradient.The tolerance for nondeterminism "
    "was {}.\n\n"
    "NOTE: If your op relies on non-deterministic operations i.e., it is listed here:\n"
    "https://pytorch.org/docs/stable/generated/torch.use_deterministic_algorithms.html\n"
    "this failure might be expected.\n\n"
    "If you are adding a new operator, please file an issue and then use one of the\n"
    "workarounds. The workaround depends on how your test invokes gradcheck/gradgradcheck.\n"
    "If the test\n"
    "- manually invokes gradcheck/gradgradcheck, then call gradcheck/gradgradcheck\n"
    "  with `nondet_tol=<tol>` as a keyword argument.\n"
    "- is OpInfo-based (e.g., in test_ops_gradients.py), then modify the OpInfo for the test\n"
    "  to have `gradcheck_nondet_tol=<tol>`.\n"
    "- is a Module test (e.g., in common_nn.py), then modify the corresponding\n"
    "  module_test entry to have `gradcheck_nondet_tol=<tol>`\n")
UNDEFINED_NOTE = 'Please look at "Notes about undefined output gradients" in "tools/autograd/derivatives.yaml"'
FAST_FAIL_SLOW_OK = (
    "Fast gradcheck failed but element-wise differences are small. This means that the\n"
    "test might've passed in slow_mode!\n\n"
    "If you are adding a new operator, please file an issue and then use one of the\n"
    "workarounds. The workaround depends on how your test invokes gradcheck/gradgradcheck:\n\n"
    "If the test\n"
    "- manually invokes gradcheck/gradgradcheck, then call gradcheck/gradgradcheck\n"
    "  with `fast_mode=False` as a keyword argument.\n"
    "- is OpInfo-based (e.g., in test_ops_gradients.py), then modify the OpInfo for the test\n"
    "  to have `gradcheck_fast_mode=False`\n"
    "- is a Module test (e.g., in common_nn.py), then modify the corresponding\n"
    "  module_test entry to have `gradcheck_fast_mode=False`")


def gradcheck(func, inputs, *, eps=1e-6, atol=1e-5, rtol=1e-3, raise_exception=True, nondet_tol=0.0,
              check_undefined_grad=True, check_grad_dtypes=False, check_batched_grad=False,
              check_batched_forward_grad=False, check_forward_ad=False, check_backward_ad=True,
              fast_mode=False, masked=None):
    """True if ``func``'s backward agrees with finite differences; else raise ``GradcheckError``
    (or, with ``raise_exception=False``, return False)."""
    _check_modes(check_forward_ad, check_backward_ad, check_batched_grad, check_batched_forward_grad)
    try:
        inputs = _as_tuple(inputs)
        _check_inputs(inputs)
        func_out = _as_tuple(func(*inputs))
        outputs = _differentiable(func_out)
        if fast_mode:
            _fast_gradcheck(func, func_out, inputs, outputs, eps, rtol, atol, nondet_tol)
        else:
            _slow_gradcheck(func, func_out, inputs, outputs, eps, rtol, atol, nondet_tol)
        _test_backward_mul_by_grad_output(outputs, inputs, masked)
        if check_undefined_grad:
            _test_undefined_backward_mode(func, outputs, inputs)
        return True
    except GradcheckError:
        if raise_exception:
            raise
        return False


def _check_modes(check_forward_ad, check_backward_ad, check_batched_grad, check_batched_forward_grad):
    """PyTorch's checks of the ``check_*`` arguments, then a refusal of what minigrad does not have."""
    if not (check_forward_ad or check_backward_ad):
        raise AssertionError("Expected at least one of check_forward_ad or check_backward_ad to be True")
    if check_batched_grad and not check_backward_ad:
        raise AssertionError("Setting check_batched_grad=True requires check_backward_ad to be True")
    if check_batched_forward_grad and not check_forward_ad:
        raise AssertionError("Setting check_batched_forward_grad=True requires check_forward_ad to be True")
    _refuse_what_minigrad_lacks(check_forward_ad, check_batched_grad)


def _refuse_what_minigrad_lacks(check_forward_ad, check_batched_grad):
    if check_forward_ad:
        raise NotImplementedError("gradcheck(check_forward_ad=True): minigrad has no forward-mode AD (PyTorch: "
                                  "torch.autograd.forward_ad); it checks backward only")
    if check_batched_grad:
        raise NotImplementedError("gradcheck(check_batched_grad=True): minigrad has no vmap (PyTorch: torch.vmap) "
                                  "to batch gradients with")


# ---- inputs and outputs -------------------------------------------------------------------------
def _as_tuple(x):
    if isinstance(x, tuple):
        return x
    return tuple(x) if isinstance(x, list) else (x,)


def _is_tensor(x):
    return isinstance(x, Tensor)


def _differentiable(outputs):
    """The outputs that require grad (PyTorch: ``_differentiable_outputs``)."""
    return tuple(o for o in outputs if o.requires_grad)


def _diff_inputs(inputs):
    return [x for x in inputs if _is_tensor(x) and x.requires_grad]


def _floating(outputs):
    return [o for o in outputs if _is_tensor(o) and o.dtype.is_floating_point]  # (minigrad has no complex)


def _check_inputs(inputs):
    """Warn about inputs that are not float64; refuse overlapping ones; need one that requires grad."""
    found = False
    for idx, x in enumerate(inputs):
        if _is_tensor(x) and x.requires_grad:
            if x.dtype.name != "float64":
                warnings.warn(f"Input #{idx} requires gradient and is not a double precision floating point or "
                              "complex. This check will likely fail if all the inputs are not of double precision "
                              "floating point or complex. ", UserWarning, stacklevel=2)
            if not all(st > 0 or sz <= 1 for st, sz in zip(x.stride(), x.shape)):
                raise RuntimeError(f"The {idx}th input has a dimension with stride 0. gradcheck only supports inputs "
                                   "that are non-overlapping to be able to compute the numerical gradients "
                                   "correctly. You should call .contiguous on the input before passing it to "
                                   "gradcheck.")
            found = True
    if not found:
        raise ValueError("gradcheck expects at least one input tensor to require gradient, but none of them have "
                         "requires_grad=True.")


# ---- step 2: the numerical Jacobian ---------------------------------------------------------------
def _numerical(func, inputs, i, func_out, eps):
    """One Jacobian per floating output of ``func``, with respect to ``inputs[i]``: nudge each element
    of the input by -eps and +eps (in place, as PyTorch nudges ``x.data``) and take the central
    difference of the outputs. Row k is how the outputs move when input element k moves."""
    data = inputs[i]._data
    jacobians = [np.zeros((data.size, o._data.size), o._data.dtype) for o in _floating(func_out)]
    for k, idx in enumerate(np.ndindex(data.shape)):
        orig = data[idx].copy()
        data[idx] = orig - data.dtype.type(eps)
        minus = _output_arrays(func, inputs)
        data[idx] = orig + data.dtype.type(eps)
        plus = _output_arrays(func, inputs)
        data[idx] = orig
        for jac, m, p in zip(jacobians, minus, plus):
            jac[k] = _central_difference(m, p, eps, f"on index {idx} ")
    return jacobians


def _numerical_jacobians(func, inputs, func_out, eps):
    """[input that requires grad][floating output] -> the numerical Jacobian."""
    return [_numerical(func, inputs, i, func_out, eps) for i, x in enumerate(inputs)
            if _is_tensor(x) and x.requires_grad]


def _output_arrays(func, inputs):
    return [o._data.copy() for o in _floating(_as_tuple(func(*inputs)))]


def _central_difference(minus, plus, eps, where=""):
    """(y(x + eps) - y(x - eps)) / (2 eps), in the output's dtype, as one row."""
    from .._dtype import Size, from_numpy_dtype
    for what, a, b in (("shape", Size(minus.shape), Size(plus.shape)),
                       ("dtype", from_numpy_dtype(minus.dtype), from_numpy_dtype(plus.dtype))):
        if a != b:
            raise AssertionError(f"Expected `func` to return outputs with the same {what} when inputs are perturbed "
                                 f"{where}by {eps}, but got: {what}s {a} and {b}.")
    return ((plus - minus) / (2 * eps)).reshape(-1)


def _columns(func_out):
    """For each output that requires grad, its place among the floating outputs (the numerical Jacobians)."""
    return [k for k, o in enumerate(_floating(func_out)) if o.requires_grad]


# ---- step 3: the analytical Jacobian --------------------------------------------------------------
def _analytical(inputs, output, nondet_tol, v=None):
    """Per input that requires grad, the Jacobian that backward gives: one column per element of
    ``output`` (a one-hot ``grad_output`` each), or one column for ``grad_output = v`` (fast mode).

    Computed twice, as PyTorch does, to catch a backward that is not reentrant: one that gives other
    numbers for the same ``grad_output``."""
    first = _jacobian_columns(inputs, output, v)
    second = _jacobian_columns(inputs, output, v)
    for j1, j2 in zip(first, second):
        if j1.size and np.abs(j1 - j2).max() > nondet_tol:
            raise GradcheckError(NOT_REENTRANT.format(nondet_tol))
    return first


def _jacobian_columns(inputs, output, v=None):
    diff = _diff_inputs(inputs)
    seed = Tensor(np.zeros(output._data.shape, output._data.dtype))  # one buffer, set to each one-hot in turn
    flat = seed._data.reshape(-1)
    n_columns = flat.size if v is None else 1
    jacobians = [np.zeros((x._data.size, n_columns), x._data.dtype) for x in diff]
    for j in range(n_columns):
        if v is None:
            flat[:] = 0
            flat[j] = 1
            grad_output = seed
        else:
            grad_output = v.reshape(output.shape)
        grads = grad(output, diff, grad_output, retain_graph=True, allow_unused=True)
        for jac, g in zip(jacobians, grads):
            if g is not None:
                jac[:, j] = g._data.reshape(-1)
    return jacobians


def _slow_gradcheck(func, func_out, inputs, outputs, eps, rtol, atol, nondet_tol):
    """Steps 2 and 3: the Jacobians, element by element."""
    numerical = _numerical_jacobians(func, inputs, func_out, eps)
    if not outputs:  # nothing to backward through: then the outputs must not move either
        if any(np.any(jac != 0) for per_input in numerical for jac in per_input):
            raise GradcheckError("Numerical gradient for function expected to be zero")
        return
    for i, (out, k) in enumerate(zip(outputs, _columns(func_out))):
        analytical = _analytical(inputs, out, nondet_tol)
        for j, a in enumerate(analytical):
            n = numerical[j][k]
            if not np.allclose(a, n, rtol=rtol, atol=atol):
                raise GradcheckError(_mismatch(i, j, n, a))


def _mismatch(output_idx, input_idx, numerical, analytical):
    return (f"Jacobian mismatch for output {output_idx:d} with respect to input {input_idx:d},\n"
            f"numerical:{_tensor(numerical)}\nanalytical:{_tensor(analytical)}\n")


def _tensor(a):
    return Tensor(np.asarray(a))


# ---- steps 2 and 3 in fast mode: one random direction --------------------------------------------
def _fast_gradcheck(func, func_out, inputs, outputs, eps, rtol, atol, nondet_tol):
    """Steps 2 and 3 along random unit vectors: ``v . (J u)`` by finite differences against
    ``(v J) . u`` by backward, for each input (``u``) and output (``v``)."""
    diff = _diff_inputs(inputs)
    generator = Generator()  # PyTorch's default seed, and the user's generator is left alone
    all_u = [_unit_vector(x, generator) for x in diff]
    all_v = [_unit_vector(o, generator) for o in outputs]
    columns = _columns(func_out)
    numerical = []  # [input][output] -> v . Ju
    for x, u in zip(diff, all_u):
        all_ju = _numerical_jvp(func, inputs, x, u, eps)
        numerical.append([float((v._data * all_ju[k]).sum()) for v, k in zip(all_v, columns)])
    if not outputs:
        _check_no_differentiable_outputs_fast(func, inputs, diff, all_u, eps, nondet_tol)
    analytical = []  # [output][input] -> vJ . u
    for out, v in zip(outputs, all_v):
        vjs = _analytical(inputs, out, nondet_tol, v)
        analytical.append([float(np.dot(vj[:, 0], u._data)) for vj, u in zip(vjs, all_u)])
    for i, per_output in enumerate(numerical):
        for j, n in enumerate(per_output):
            a = analytical[j][i]
            tolerance = atol * float(all_u[i].sum()) * float(all_v[j].sum())
            if not np.allclose(a, n, rtol=rtol, atol=tolerance):
                raise GradcheckError(_mismatch(j, i, n, a) + _slow_mode_error(func, func_out, inputs, outputs, i, j,
                                                                              rtol, atol, eps))


def _unit_vector(t, generator):
    """A random vector of ``t.numel()`` elements in ``t``'s dtype, of length 1 (PyTorch's ``_vec_from_tensor``)."""
    vec = rand(t.numel(), generator=generator).to(dtype=t.dtype)
    vec /= vec.norm()
    return vec


def _numerical_jvp(func, inputs, x, u, eps):
    """J u for each floating output: move the whole input by -eps u and +eps u."""
    data = x._data
    step = (u * eps)._data.reshape(data.shape)
    orig = data.copy()
    data[...] = orig - step
    minus = _output_arrays(func, inputs)
    data[...] = orig + step
    plus = _output_arrays(func, inputs)
    data[...] = orig
    return [_central_difference(m, p, eps) for m, p in zip(minus, plus)]


def _check_no_differentiable_outputs_fast(func, inputs, diff, all_u, eps, nondet_tol):
    for x, u in zip(diff, all_u):
        for ju in _numerical_jvp(func, inputs, x, u, eps):
            if ju.size and np.abs(ju).max() > nondet_tol:
                raise GradcheckError("Numerical gradient for function expected to be zero")


def _slow_mode_error(func, func_out, inputs, outputs, input_idx, output_idx, rtol, atol, eps):
    """What fast mode adds to its error: the whole Jacobians of the pair that failed, as slow mode sees them."""
    n = _numerical_jacobians(func, inputs, func_out, eps)[input_idx][_columns(func_out)[output_idx]]
    a = _analytical(inputs, outputs[output_idx], float("inf"))[input_idx]
    msg = ("\nThe above quantities relating the numerical and analytical jacobians are computed \n"
           "in fast mode. See: https://github.com/pytorch/pytorch/issues/53876 for more background \n"
           "about fast mode. Below, we recompute numerical and analytical jacobians in slow mode:\n\n"
           f"Numerical:\n {_tensor(n)}\n"
           f"Analytical:\n{_tensor(a)}\n\n"
           f"The max per-element difference (slow mode) is: {_tensor(np.abs(n - a).max())}.\n")
    if np.allclose(a, n, rtol=rtol, atol=atol):
        msg += FAST_FAIL_SLOW_OK
    return msg


def _zeros_like(t):
    """``zeros_like(t)``: zeros shaped and laid out like ``t``."""
    return Tensor(like(t._data, np.zeros(t._data.shape, t._data.dtype)))


# ---- step 4: zero in, zero out ------------------------------------------------------------------
def _test_backward_mul_by_grad_output(outputs, inputs, masked):
    """A backward must multiply by grad_output: all zeros in gives all zeros out."""
    diff = _diff_inputs(inputs)
    grads = grad(outputs, diff, [_zeros_like(o) for o in outputs], allow_unused=True)
    for gi, di in zip(grads, diff):
        if gi is None:
            continue
        zero = np.allclose(gi._data, 0) if masked else not np.any(gi._data != 0)
        if not zero:
            raise GradcheckError("backward not multiplied by grad_output")
        if gi.dtype != di.dtype:
            raise GradcheckError("grad is incorrect type")
        if gi.shape != di.shape:
            raise GradcheckError("grad is incorrect size")


# ---- step 5: no gradient at all -----------------------------------------------------------------
class UndefinedGrad(Function):
    """PyTorch's ``torch._C._functions.UndefinedGrad``: passes its input on, and its backward sends no
    gradient (None) to it, whatever it receives."""
    node_name = "UndefinedGradBackward"

    @staticmethod
    def forward(ctx, x):
        return x.clone()

    @staticmethod
    def backward(ctx, grad_output):
        return None


def _test_undefined_backward_mode(func, outputs, inputs):
    """Every backward must cope with outputs that get no gradient: a custom Function then gets zeros
    (``materialize_grads``) and must give zeros (or None). With several outputs, each one alone too."""
    outputs_to_check = [[UndefinedGrad.apply(o) for o in _differentiable(_as_tuple(func(*inputs)))]]
    if len(outputs_to_check[0]) > 1:
        for k in range(len(outputs)):
            again = _differentiable(_as_tuple(func(*inputs)))
            outputs_to_check.append([UndefinedGrad.apply(o) if idx == k else o for idx, o in enumerate(again)])
    return all(_undefined_grad_support(outs, _diff_inputs(inputs)) for outs in outputs_to_check)


def _undefined_grad_support(outputs, diff):
    try:
        grads = grad(outputs, diff, [_zeros_like(o) for o in outputs], allow_unused=True)
    except RuntimeError as e:
        _warn_bc_breaking()
        raise GradcheckError(f"Expected backward function to handle undefined output grads. {UNDEFINED_NOTE}") from e
    for gi in grads:
        if gi is not None and np.any(gi._data != 0):
            _warn_bc_breaking()
            raise GradcheckError("Expected all input grads to be undefined or zero when all output grads are "
                                 f"undefined or zero. {UNDEFINED_NOTE}")
    return True


def _warn_bc_breaking():
    warnings.warn("Backwards compatibility: New undefined gradient support checking feature is enabled by default, "
                  "but it may break existing callers of this function. If this is true for you, you can call this "
                  'function with "check_undefined_grad=False" to disable the feature', UserWarning, stacklevel=2)


# ---- second derivatives -------------------------------------------------------------------------
def gradgradcheck(func, inputs, grad_outputs=None, *, eps=1e-6, atol=1e-5, rtol=1e-3,
                  gen_non_contig_grad_outputs=False, raise_exception=True, nondet_tol=0.0,
                  check_undefined_grad=True, check_grad_dtypes=False, check_batched_grad=False,
                  check_fwd_over_rev=False, check_rev_over_rev=True, fast_mode=False, masked=False):
    """gradcheck of the backward pass itself: the gradients of ``func`` (computed with
    ``create_graph=True``) as a function of the inputs and of ``grad_outputs``."""
    if not (check_fwd_over_rev or check_rev_over_rev):
        raise AssertionError("Expected at least one of check_fwd_over_rev or check_rev_over_rev to be True")
    if check_undefined_grad and not check_rev_over_rev:
        raise AssertionError("Setting check_undefined_grad=True requires check_rev_over_rev to be True")
    if check_batched_grad and not check_rev_over_rev:
        raise AssertionError("Setting check_batched_grad=True requires check_rev_over_rev to be True")
    inputs = _as_tuple(inputs)
    if grad_outputs is None:  # random ones, from the global generator (PyTorch: torch.testing.make_tensor)
        grad_outputs = tuple(_random_like(o, gen_non_contig_grad_outputs)
                             for o in _differentiable(_as_tuple(func(*inputs))))
    grad_outputs = _as_tuple(grad_outputs)
    n_out = len(grad_outputs)
    diff_inputs = {i for i, x in enumerate(inputs) if _is_tensor(x) and x.requires_grad}
    diff_grad_outputs = {i for i, g in enumerate(grad_outputs) if g.requires_grad}

    def first_derivatives(*args):
        xs = tuple(x.requires_grad_() if i in diff_inputs else x for i, x in enumerate(args[:-n_out]))
        ys = _differentiable(_as_tuple(func(*xs)))
        gs = tuple(g.requires_grad_() if i in diff_grad_outputs else g for i, g in enumerate(args[-n_out:]))
        d = tuple(x for i, x in enumerate(xs) if i in diff_inputs)
        return tuple(g for g in grad(ys, d, gs, create_graph=True, allow_unused=True) if g is not None)

    return gradcheck(first_derivatives, inputs + grad_outputs, eps=eps, atol=atol, rtol=rtol,
                     raise_exception=raise_exception, nondet_tol=nondet_tol, check_undefined_grad=check_undefined_grad,
                     check_grad_dtypes=check_grad_dtypes, check_batched_grad=check_batched_grad, fast_mode=fast_mode,
                     check_forward_ad=check_fwd_over_rev, check_backward_ad=check_rev_over_rev, masked=masked)


def _random_like(t, noncontiguous):
    """Uniform in [-1, 1), requiring grad, shaped like ``t`` (float64 for an integer ``t``): PyTorch's
    ``torch.testing.make_tensor(..., low=-1, high=1, requires_grad=True)``."""
    from .._dtype import float64
    dtype = t.dtype if t.dtype.is_floating_point else float64
    shape = tuple(t.shape)
    noncontiguous = noncontiguous and int(np.prod(shape)) > 1
    if noncontiguous:  # twice as wide, then every second column
        shape = shape[:-1] + (2 * shape[-1],)
    result = Tensor(np.empty(shape, dtype.numpy)).uniform_(-1, 1)
    if noncontiguous:
        result = result[..., 1::2]
    return result.requires_grad_(True)
