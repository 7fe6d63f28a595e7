"""The feedback every exercise check gives: what is wrong, for which input, expected vs got, a hint.

A check prints one short report and returns True or False:

    ✅ sigmoid backward: correct on 5 hidden random inputs.

    ❌ sigmoid backward: wrong gradient for input x = tensor([-1.0000, 0.5000, 2.0000])
       expected: tensor([0.1966, 0.2350, 0.1050])
       got:      tensor([0.2689, 0.6225, 0.8808])
       Hint: the derivative of sigmoid is s * (1 - s), where s = sigmoid(x).

Checks compare against minigrad's own ops (which are tested against PyTorch) on hidden random
inputs, so an answer hard-coded for the example in the notebook does not pass.
"""
import os
import traceback

import numpy as np

from ..tensor import Tensor


class Report:
    """The outcome of a check: truthy when it passed; prints itself in the notebook."""

    def __init__(self, ok, text):
        self.ok = ok
        self.text = text

    def __bool__(self):
        return self.ok

    def __repr__(self):
        return self.text

    def _repr_pretty_(self, p, cycle):  # IPython shows the text, not "Report(...)"
        p.text(self.text)


def passed(title, detail=""):
    return Report(True, f"✅ {title}: {detail}" if detail else f"✅ {title}")


def failed(title, problem, expected=None, got=None, hint=None):
    """A failed Report.  Under nbgrader's autograder (``NBGRADER_EXECUTION=autograde``) it raises
    instead, since nbgrader gives a check cell its points when the cell does not raise."""
    lines = [f"❌ {title}: {problem}"]
    if expected is not None or got is not None:
        lines.append(f"   expected: {_show(expected)}")
        lines.append(f"   got:      {_show(got)}")
    if hint:
        lines.append(f"   Hint: {hint}")
    text = "\n".join(lines)
    if os.environ.get("NBGRADER_EXECUTION") == "autograde":
        raise ExerciseFailed(text)
    return Report(False, text)


class ExerciseFailed(AssertionError):
    """Raised (only under nbgrader's autograder) when a check fails; the message is the feedback."""


def _show(x):
    text = repr(x)
    return text.replace("\n", "\n" + " " * 13)


def rng(seed):
    """The random generator behind the hidden inputs (fixed per check, so feedback is reproducible)."""
    return np.random.default_rng(seed)


def random_tensor(generator, shape, requires_grad=False, low=-3.0, high=3.0, dtype=np.float32):
    return Tensor(generator.uniform(low, high, size=shape).astype(dtype), requires_grad=requires_grad)


def close(got, expected, atol=1e-5, rtol=1e-4):
    """Same shape and values within tolerance (numbers or tensors)."""
    g = got._data if isinstance(got, Tensor) else np.asarray(got)
    e = expected._data if isinstance(expected, Tensor) else np.asarray(expected)
    return g.shape == e.shape and np.allclose(g, e, atol=atol, rtol=rtol, equal_nan=True)


def call(title, fn, *args, **kwargs):
    """Run the student's code: ``(result, None)``, or ``(None, failed Report)`` if it raised.

    A failed Report is falsy, so test the second value with ``if err is not None``, not ``if err``.
    """
    try:
        return fn(*args, **kwargs), None
    except NotImplementedError:
        return None, failed(title, "not written yet: replace `raise NotImplementedError()` with your code.")
    except Exception as e:  # show the error without a long traceback into minigrad
        where = ""
        tb = traceback.extract_tb(e.__traceback__)
        package = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # .../minigrad
        mine = [f for f in tb if not os.path.abspath(f.filename).startswith(package + os.sep)]
        if mine:
            where = f" (line {mine[-1].lineno}: {mine[-1].line})"
        return None, failed(title, f"your code raised {type(e).__name__}: {e}{where}")


def check_tensor(title, got, expected, what, inputs="", hint=None, atol=1e-5, rtol=1e-4):
    """A failed Report if ``got`` is not a tensor close to ``expected``, else None."""
    if not isinstance(got, Tensor):
        return failed(title, f"{what} should be a minigrad Tensor, got {type(got).__name__}", hint=hint)
    if tuple(got.shape) != tuple(expected.shape):
        return failed(title, f"{what} has the wrong shape{inputs}", expected=expected.shape, got=got.shape,
                      hint=hint)
    if not close(got, expected, atol, rtol):
        return failed(title, f"wrong {what}{inputs}", expected=expected.detach(), got=got.detach(), hint=hint)
    return None
