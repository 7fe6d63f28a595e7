"""gradcheck and gradgradcheck run PyTorch 2.13's steps in PyTorch's order: the same calls of forward and
backward (counted, with the grad_output each backward got), the same errors and warnings.

Each program runs on minigrad and must give the numbers recorded here from PyTorch 2.13; when torch
imports, the test runs it on PyTorch too and compares live.
"""
import warnings

import pytest

import minigrad


def _torch():
    try:
        import torch
    except ImportError:
        return None
    return torch


def _same_in_both(program, recorded):
    """``program(minigrad)`` gives ``recorded``; so does ``program(torch)`` when torch is there."""
    assert program(minigrad) == recorded
    torch = _torch()
    if torch is not None:
        assert program(torch) == recorded


def _counting(torch, outputs=1):
    """A Function (y = x ** 3, or x * 2 and x * 3) that logs every forward ("f") and every backward
    (its grad_outputs, rounded) into ``calls``."""
    calls = []

    class Cube(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            calls.append("f")
            ctx.save_for_backward(x)
            return x ** 3

        @staticmethod
        def backward(ctx, grad_output):
            calls.append(tuple(round(v, 6) for v in grad_output.reshape(-1).tolist()))
            x, = ctx.saved_tensors
            return grad_output * 3 * x ** 2

    class Two(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            calls.append("f")
            return x * 2, x * 3

        @staticmethod
        def backward(ctx, g1, g2):
            calls.append((tuple(g1.reshape(-1).tolist()), tuple(g2.reshape(-1).tolist())))
            return g1 * 2 + g2 * 3

    return (Cube if outputs == 1 else Two), calls


# ---- how often, and with what, gradcheck calls a Function ----------------------------------------------
ONE_HOT = [(1, 0, 0, 0), (0, 1, 0, 0), (0, 0, 1, 0), (0, 0, 0, 1)]
ZERO = (0, 0, 0, 0)
V = (0.590323, 0.343194, 0.053951, 0.728578)  # fast mode's v: torch.rand(4) of Generator() after u, normed


def test_gradcheck_calls_forward_and_backward_as_pytorch_does():
    """4 elements: forward 1 + 2 * 4 + 1 times, backward 4 + 4 (the Jacobian twice) + 1 (zeros) + 1 (undefined);
    fast_mode: forward 1 + 2 + 1, backward 1 + 1 (v J twice) + 1 + 1."""
    def program(torch):
        result = []
        for fast in (False, True):
            Cube, calls = _counting(torch)
            x = torch.linspace(-1, 1, 4, dtype=torch.float64, requires_grad=True)
            result.append((torch.autograd.gradcheck(Cube.apply, (x,), fast_mode=fast), calls))
        return result

    _same_in_both(program, [
        (True, ["f"] * 9 + ONE_HOT + ONE_HOT + [ZERO, "f", ZERO]),
        (True, ["f"] * 3 + [V, V, ZERO, "f", ZERO]),
    ])


def test_the_call_counts_of_notebook_04():
    """The counts notebook 04 shows and its prediction question asks for (forward, backward)."""
    def program(torch):
        counts = []
        for fast in (False, True):
            Cube, calls = _counting(torch)
            x = torch.randn(4, dtype=torch.float64, requires_grad=True)
            torch.autograd.gradcheck(Cube.apply, (x,), fast_mode=fast)
            counts.append((calls.count("f"), len(calls) - calls.count("f")))
        return counts

    _same_in_both(program, [(10, 10), (4, 4)])


def test_fast_mode_draws_from_its_own_generator():
    """u and v come from a fresh Generator(): the global random numbers go on as if gradcheck had not run."""
    def program(torch):
        Cube, _ = _counting(torch)
        x = torch.linspace(-1, 1, 4, dtype=torch.float64, requires_grad=True)
        torch.manual_seed(0)
        torch.autograd.gradcheck(Cube.apply, (x,), fast_mode=True)
        return round(torch.rand(1).item(), 6)

    _same_in_both(program, 0.496257)  # torch.manual_seed(0); torch.rand(1)


def test_with_two_outputs_each_is_also_left_without_a_gradient_on_its_own():
    def program(torch):
        result = []
        for fast in (False, True):
            Two, calls = _counting(torch, outputs=2)
            x = torch.linspace(-1, 1, 3, dtype=torch.float64, requires_grad=True)
            assert torch.autograd.gradcheck(Two.apply, (x,), fast_mode=fast)
            backwards = [c for c in calls if c != "f"]
            result.append((calls.count("f"), len(backwards), backwards[-4:]))
        return result

    zero = (0.0, 0.0, 0.0)
    _same_in_both(program, [(10, 16, [(zero, zero)] * 4), (6, 8, [(zero, zero)] * 4)])


def test_gradgradcheck_draws_its_grad_outputs_from_the_global_generator():
    def program(torch):
        Cube, calls = _counting(torch)
        torch.manual_seed(0)
        x = torch.linspace(-1, 1, 3, dtype=torch.float64, requires_grad=True)
        ok = torch.autograd.gradgradcheck(Cube.apply, (x,))
        return ok, "".join(c if c == "f" else "b" for c in calls), round(torch.rand(1).item(), 6)

    _same_in_both(program, (True, "ff" + "bf" * 13 + "b", 0.490093))


# ---- what each check catches ---------------------------------------------------------------------------
def _function(torch, backward, materialize=True):
    """A Function for x * 2 with the given backward."""
    def forward(ctx, x):
        ctx.set_materialize_grads(materialize)
        return x * 2
    return type("F", (torch.autograd.Function,), {"forward": staticmethod(forward), "backward": staticmethod(backward)})


def _outcome(torch, fn, inputs, **kwargs):
    """gradcheck's result, or its error's type and first line; and the warnings it gave."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            result = torch.autograd.gradcheck(fn, inputs, **kwargs)
        except Exception as e:  # noqa: BLE001
            result = (type(e).__name__, str(e).split("\n")[0])
    return result, [str(w.message)[:40] for w in caught if w.category is UserWarning]


def _x(torch):
    return torch.linspace(-1, 1, 3, dtype=torch.float64, requires_grad=True)


def test_each_check_fails_what_it_is_for():
    def program(torch):
        counter = iter(range(100))
        cases = {
            "not reentrant": (_function(torch, lambda ctx, g: g * 2 + next(counter) * 1e-9).apply, {}),
            "tolerated": (_function(torch, lambda ctx, g: g * 2 + next(counter) * 1e-9).apply, {"nondet_tol": 1e-6}),
            "zeros give non-zero": (_function(torch, lambda ctx, g: g * 2 + (g == 0).all().to(g.dtype) * 1e-7).apply,
                                    {}),
            "None raises": (_function(torch, lambda ctx, g: g * 2, materialize=False).apply, {}),
            "None raises RuntimeError": (_function(torch, lambda ctx, g: g * 2 if g is not None else
                                                   torch.ones(2).mm(torch.ones(3)), materialize=False).apply, {}),
            "None gives ones": (_function(torch, lambda ctx, g: g * 2 if g is not None else
                                          torch.ones(3, dtype=torch.float64), materialize=False).apply, {}),
            "not checked": (_function(torch, lambda ctx, g: g * 2 if g is not None else
                                      torch.ones(3, dtype=torch.float64), materialize=False).apply,
                            {"check_undefined_grad": False}),
            "output without grad": (lambda t: t.detach() * 2, {}),
            "output without grad, fast": (lambda t: t.detach() * 2, {"fast_mode": True}),
        }
        return {name: _outcome(torch, fn, (_x(torch),), **kw) for name, (fn, kw) in cases.items()}

    undefined_warning = ["Backwards compatibility: New undefined g"]
    _same_in_both(program, {
        "not reentrant": (("GradcheckError", "Backward is not reentrant, i.e., running backward with same input and "
                                             "grad_output multiple times gives different values, although analytical "
                                             "gradient matches numerical gradient.The tolerance for nondeterminism "
                                             "was 0.0."), []),
        "tolerated": (("GradcheckError", "backward not multiplied by grad_output"), []),
        "zeros give non-zero": (("GradcheckError", "backward not multiplied by grad_output"), []),
        "None raises": (("TypeError", "unsupported operand type(s) for *: 'NoneType' and 'int'"), []),
        "None raises RuntimeError": (("GradcheckError", 'Expected backward function to handle undefined output grads. '
                                                        'Please look at "Notes about undefined output gradients" in '
                                                        '"tools/autograd/derivatives.yaml"'), undefined_warning),
        "None gives ones": (("GradcheckError", "Expected all input grads to be undefined or zero when all output "
                                               'grads are undefined or zero. Please look at "Notes about undefined '
                                               'output gradients" in "tools/autograd/derivatives.yaml"'),
                            undefined_warning),
        "not checked": (True, []),
        "output without grad": (("GradcheckError", "Numerical gradient for function expected to be zero"), []),
        "output without grad, fast": (("GradcheckError", "Numerical gradient for function expected to be zero"), []),
    })


def test_inputs_are_checked_first():
    def program(torch):
        x = _x(torch)
        return [_outcome(torch, lambda t: t * 2, (x.detach(),)),
                _outcome(torch, lambda t: t * 2, (torch.ones(1, dtype=torch.float64, requires_grad=True).expand(3),)),
                _outcome(torch, lambda t: t * 2, (x.detach().float().requires_grad_(),), raise_exception=False),
                _outcome(torch, lambda t: t * 2, (x,), foo=1),
                _outcome(torch, lambda t: t * 2, (x,), check_backward_ad=False)]

    _same_in_both(program, [
        (("ValueError", "gradcheck expects at least one input tensor to require gradient, but none of them have "
                        "requires_grad=True."), []),
        (("RuntimeError", "The 0th input has a dimension with stride 0. gradcheck only supports inputs that are "
                          "non-overlapping to be able to compute the numerical gradients correctly. You should call "
                          ".contiguous on the input before passing it to gradcheck."), []),
        (False, ["Input #0 requires gradient and is not a "]),
        (("TypeError", "gradcheck() got an unexpected keyword argument 'foo'"), []),
        (("AssertionError", "Expected at least one of check_forward_ad or check_backward_ad to be True"), []),
    ])


def test_a_wrong_backward_names_output_and_input_among_those_that_require_grad():
    """The input index counts the inputs that require grad only (the number 2.0 is not one)."""
    def program(torch):
        class Wrong(torch.autograd.Function):
            @staticmethod
            def forward(ctx, s, a):
                return a * s

            @staticmethod
            def backward(ctx, g):
                return None, g

        x = torch.linspace(-1, 1, 3, dtype=torch.float64, requires_grad=True)
        out = []
        for fast in (False, True):
            try:
                torch.autograd.gradcheck(Wrong.apply, (2.0, x), fast_mode=fast)
            except RuntimeError as e:
                text = str(e).replace("torch.", "").replace("minigrad.", "")
                out.append([line for line in text.split("\n") if not line.startswith("analytical:0.97927456820799")])
        return out

    slow = ["Jacobian mismatch for output 0 with respect to input 0,",
            "numerical:tensor([[2.0000, 0.0000, 0.0000],",
            "        [0.0000, 2.0000, 0.0000],",
            "        [0.0000, 0.0000, 2.0000]], dtype=float64)",
            "analytical:tensor([[1., 0., 0.],",
            "        [0., 1., 0.],",
            "        [0., 0., 1.]], dtype=float64)",
            ""]
    fast = ["Jacobian mismatch for output 0 with respect to input 0,",
            "numerical:1.9585491364983376",
            # (the analytical number is a dot product: PyTorch's ends in ...49, numpy's in ...47)
            "",
            "The above quantities relating the numerical and analytical jacobians are computed ",
            "in fast mode. See: https://github.com/pytorch/pytorch/issues/53876 for more background ",
            "about fast mode. Below, we recompute numerical and analytical jacobians in slow mode:",
            "",
            "Numerical:",
            " tensor([[2.0000, 0.0000, 0.0000],",
            "        [0.0000, 2.0000, 0.0000],",
            "        [0.0000, 0.0000, 2.0000]], dtype=float64)",
            "Analytical:",
            "tensor([[1., 0., 0.],",
            "        [0., 1., 0.],",
            "        [0., 0., 1.]], dtype=float64)",
            "",
            "The max per-element difference (slow mode) is: 1.0.",
            ""]
    _same_in_both(program, [slow, fast])


def test_what_minigrad_cannot_check_says_so():
    x = _x(minigrad)
    with pytest.raises(NotImplementedError, match="no forward-mode AD"):
        minigrad.autograd.gradcheck(lambda t: t * 2, (x,), check_forward_ad=True)
    with pytest.raises(NotImplementedError, match="no vmap"):
        minigrad.autograd.gradcheck(lambda t: t * 2, (x,), check_batched_grad=True)


def test_a_non_contiguous_input_is_nudged_in_place():
    """The nudges reach the input's own numbers, whatever its layout (a transposed input here)."""
    def program(torch):
        w = torch.arange(6, dtype=torch.float64).reshape(2, 3).t().requires_grad_()
        return (torch.autograd.gradcheck(lambda t: (t * t).sum(0), (w,)),
                torch.autograd.gradcheck(lambda t: t.sum(0) * 3, (w,), fast_mode=True))

    _same_in_both(program, (True, True))
