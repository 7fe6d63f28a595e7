"""Short programs run on both libraries, with what torch 2.13 gave recorded next to them.

A program runs with ``T`` as the library and sets ``out`` to a list of tensors, numbers or names;
``run_program`` turns that into plain lists, and ``same`` compares it with the recorded answer (to
float tolerance; nan matches nan, inf the same inf).  ``test_faithful_classes`` and ``test_nn_utils``
keep their programs in this form.
"""
import contextlib
import importlib
import io

import numpy as np
import pytest

INF, NAN = float("inf"), float("nan")


def run_program(T, source):
    """Run ``source`` with ``T`` as the library; it sets ``out`` to a list of tensors, numbers or names."""
    names = {"T": T, "inf": INF, "nan": NAN}
    exec(source, names)
    return [v.detach().tolist() if isinstance(v, T.Tensor) else _named(v) for v in names["out"]]


def _named(v):
    """PyTorch's "torch.FloatTensor" is minigrad's "minigrad.FloatTensor" (the library's name, as in the parity tests)."""
    return v.replace("torch.", "minigrad.") if isinstance(v, str) else v


def same(got, want):
    if isinstance(want, list):
        return isinstance(got, list) and len(got) == len(want) and all(same(g, w) for g, w in zip(got, want))
    if isinstance(want, float):
        if not isinstance(got, (int, float)):
            return False
        if np.isnan(want) or np.isinf(want):  # (nan: got is nan too; inf: the same inf)
            return np.isnan(got) if np.isnan(want) else got == want
        return abs(got - want) <= 1e-6 * max(1, abs(want))
    return got == want


def printed_by(T, source):
    """The lines ``source`` prints when run with ``T`` as the library, torch's names written as minigrad's."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(source, {"T": T})
    return out.getvalue().replace("torch::autograd::", "minigrad::autograd::").replace("torch.", "minigrad.").splitlines()


def checks_against_torch(expected):
    """The two tests of a table ``{program: what torch 2.13 gave}``, each program a function of the library: minigrad
    gives what torch gave, and (when torch is importable) torch still does.  A test module binds them to its own
    names, ``test_minigrad_prints_what_torch_printed, test_torch_still_prints_it = checks_against_torch(EXPECTED)``."""
    programs = pytest.mark.parametrize("program", list(expected), ids=lambda p: p.__name__)

    @programs
    def test_minigrad_prints_what_torch_printed(program):
        import minigrad
        assert program(minigrad) == expected[program]

    @programs
    def test_torch_still_prints_it(program):
        try:
            torch = importlib.import_module("torch")
        except ImportError:
            pytest.skip("torch is not installed: compared with the recorded lines only")
        assert program(torch) == expected[program]

    return test_minigrad_prints_what_torch_printed, test_torch_still_prints_it
