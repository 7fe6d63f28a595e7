"""The feedback every exercise check gives: what is wrong, for which input, expected vs got, a hint.

A check prints one short report. In JupyterLab it is a coloured label with words (no emoji font
needed), in plain text the same words:

    PASSED  sigmoid backward: correct on 5 hidden random inputs.

    FAILED  sigmoid backward: wrong gradient for input x = tensor([-1.0000, 0.5000, 2.0000])
       expected: tensor([0.1966, 0.2350, 0.1050])
       got:      tensor([0.2689, 0.6225, 0.8808])
       Hint: which function's slope is this? Compare it with sigmoid itself.
       More help: run hint()

Hints come in tiers: a failure shows the first one (what is wrong and a nudge, never the answer);
``hint()`` shows the next tier of the last check run, one per call (in JupyterLab, "More help" folds
out the next tier, one at a time). After a check passes, ``hint()`` says so.

Checks compare against minigrad's own ops (which are tested against PyTorch) on hidden random
inputs, so an answer hard-coded for the example in the notebook does not pass.

Grading with nbgrader. nbgrader gives a graded cell its points when the cell does not raise, and
runs a notebook with ``NBGRADER_EXECUTION`` set (``autograde`` or ``validate``). This module reads
that variable once, when it is imported (the notebook's first cell), so changing it later from a
notebook cell changes nothing. Under nbgrader a failing check raises ``ExerciseFailed``, whose
traceback is its message and hints and nothing else; a passing check prints its report and
returns None (a returned value would be read as partial credit).
"""
import functools
import hashlib
import html
import os
import sys
import traceback
import warnings

import numpy as np

import minigrad
import minigrad_course
from minigrad.tensor import Tensor

# "autograde", "validate" or "" (not under nbgrader), read once, when the checks are imported.
GRADING = os.environ.get("NBGRADER_EXECUTION", "")


# ---- the report ---------------------------------------------------------------------------------
class Report:
    """The outcome of a check: truthy when it passed; shows itself in the notebook.

    ``text`` is the plain-text report; ``more`` holds the hint tiers not shown yet, for ``hint()``;
    ``shown`` counts the tiers shown so far (the first one is in ``text``).
    """

    def __init__(self, ok, text, more=(), title=""):
        self.ok = ok
        self.text = text
        self.more = list(more)
        self.title = title
        self.notes = []
        self.shown = 1

    def __bool__(self):
        return self.ok

    def full_text(self):
        """The report with its notes (warnings the student's code gave)."""
        return "\n".join([self.text] + [f"   Note: {n}" for n in self.notes])

    def __repr__(self):
        more = "\n   More help: run hint()" if self.more else ""
        return self.full_text() + more

    def _repr_pretty_(self, p, cycle):  # IPython shows the text, not "Report(...)"
        p.text(repr(self))

    def _repr_html_(self):
        """A green PASSED or red FAILED label with the report; the next hint tiers fold out."""
        word, colour = ("PASSED", "#1a7f37") if self.ok else ("FAILED", "#cf222e")
        body = self.full_text()
        if body.startswith(word):
            body = body[len(word):].lstrip()
        label = (f'<span style="background:{colour};color:#fff;font-weight:bold;padding:1px 6px;'
                 f'border-radius:3px">{word}</span>')
        more = ""
        for number, tier in reversed(list(enumerate(self.more, self.shown + 1))):  # each folds out of the one before
            more = (f'<details style="margin-left:1.5em"><summary>More help (hint {number})</summary>'
                    f'<div style="white-space:pre-wrap">{html.escape(tier)}</div>{more}</details>')
        return (f'<div>{label} <span style="white-space:pre-wrap;font-family:monospace">{html.escape(body)}'
                f'</span>{more}</div>')


def passed(title, detail=""):
    return Report(True, f"PASSED  {title}: {detail}" if detail else f"PASSED  {title}", title=title)


def failed(title, problem, expected=None, got=None, hint=None):
    """A failed Report: the problem, expected vs got, and the first hint tier.

    ``hint`` is one string, or a list of tiers from a nudge to (at most) the answer: the report
    shows the first; ``hint()`` shows the others, one at a time.
    """
    tiers = [hint] if isinstance(hint, str) else list(hint or [])
    lines = [f"FAILED  {title}: {problem}"]
    if expected is not None or got is not None:
        lines.append(f"   expected: {_show(expected)}")
        lines.append(f"   got:      {_show(got)}")
    if tiers:
        lines.append(f"   Hint: {tiers[0]}")
    return Report(False, "\n".join(lines), more=tiers[1:], title=title)


def add_hint(report, hint):
    """Add a hint tier to a failed Report: the first tier if it has none yet, else the next one."""
    if report is None or report.ok:
        return report
    if "   Hint: " in report.text:
        report.more.append(hint)
    else:
        report.text += f"\n   Hint: {hint}"
    return report


def _show(x):
    text = repr(x)
    return text.replace("\n", "\n" + " " * 13)


# ---- failing under nbgrader ---------------------------------------------------------------------
class ExerciseFailed(AssertionError):
    """Raised under nbgrader when a check fails; the message is the feedback.

    IPython draws an exception with ``_render_traceback_`` from its lines instead of a traceback,
    so the student (and nbgrader's feedback) sees only the report, not the checker's internals.
    """

    def _render_traceback_(self):
        return str(self).splitlines()


_last_report = [None]   # the Report of the last check run: hint() goes on with its tiers


def hint():
    """Show the next hint tier of the last check run (in the notebook: ``hint()``)."""
    report = _last_report[0]
    if report is None:
        print("No check has run yet: run a check cell first.")
    elif report.ok:
        print(f"The last check you ran passed ({report.title}): it needs no hint.")
    elif not report.more:
        print("No more hints for this check: reread the hints above, or ask your instructor.")
    else:
        tier = report.more.pop(0)
        report.shown += 1
        print(f"Hint: {tier}" + ("\n(more help: run hint() again)" if report.more else ""))


def _finish(report):
    """What a check cell does with its Report: show it, or under nbgrader print it / raise."""
    _last_report[0] = report
    if not GRADING:
        return report
    if report.ok:
        print(report.full_text())
        return None
    text = report.full_text()
    if report.more and GRADING == "autograde":   # feedback after the deadline: every hint tier
        text += "".join(f"\n   Hint {n}: {tier}" for n, tier in enumerate(report.more, 2))
    elif report.more:
        text += "\n   More help: run hint() in the notebook"
    raise ExerciseFailed(text)


def _warning_note(w):
    return f"your code warned: {w.category.__name__}: {w.message} (line {w.lineno})"


def _run_collecting_warnings(check, answer):
    """Run a check; warnings from the student's code become notes on the Report, not stderr output."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        report = check(answer)
    for note in dict.fromkeys(_warning_note(w) for w in caught):  # each distinct warning once
        report.notes.append(note)
    return report


def exercise(answer):
    """Make ``check_...(answer_function)`` a check for the notebook's ``answer`` (a name).

    The check cell calls it without an argument, ``nb01.check_sigmoid_grad()``, and the check takes
    the notebook's ``my_sigmoid_grad`` (the globals of the cell that called it); when there is none
    yet it says to run the exercise cell first. Tests pass the answer: ``check_sigmoid_grad(f)``.
    """
    def decorate(check):
        @functools.wraps(check)
        def run_check(*given):
            if given:
                value = given[0]
            else:
                notebook = sys._getframe(1).f_globals  # the variables of the cell that ran the check
                if answer not in notebook:
                    return _finish(Report(False, f"FAILED  {answer}: `{answer}` is not defined yet: write it in "
                                                 "the exercise cell above and run that cell first, then this one.",
                                      title=answer))
                value = notebook[answer]
            report = _run_collecting_warnings(check, value)
            if not isinstance(report, Report):
                raise TypeError(f"{check.__name__} returned {report!r}, not a Report")
            return _finish(report)
        run_check.answer_name = answer
        reference(check)      # the student's code may not call a check (to probe it for the answer)
        reference(run_check)
        return run_check
    return decorate


def demo(check, answer):
    """Run a check only to show its feedback (the demo in notebook 00): a Report, never an error,
    even under nbgrader, so the demo costs no points and puts no traceback in the feedback.
    The demo is the last check run, so ``hint()`` goes on with its hints."""
    report = _run_collecting_warnings(getattr(check, "__wrapped__", check), answer)
    _last_report[0] = report
    return report


# ---- prediction questions -----------------------------------------------------------------------
def digest(question, answer):
    """The fingerprint a prediction question stores instead of its answer (so reading the module
    does not give the answer away): ``python -m minigrad_course.exercises digest QUESTION ANSWER``."""
    return hashlib.sha256(f"{question}:{_normal(answer)}".encode()).hexdigest()[:16]


def _normal(answer):
    """A choice as its lower-case letter; a number rounded to 3 significant digits."""
    if isinstance(answer, str):
        return answer.strip().lower()
    return f"{float(answer):.3g}"


def prediction(question, answer, ask, fingerprint, options=None, hints=(), why=""):
    """A prediction question: multiple choice (``options``: letter -> text) or a number.

    The notebook's answer cell sets the variable ``answer`` (a letter, or a number, matched to 3
    significant digits); its check cell calls the check this returns. ``fingerprint`` is
    ``digest(question, the right answer)``; ``why`` is shown once the answer is right.
    """
    tiers = list(hints) or None  # every failure gets them: an answer that is no choice yet too

    @exercise(answer)
    def check_prediction(given):
        if given is None or given is ...:
            return failed(question, f"set `{answer}` to your prediction first ({_what(options)}).", hint=tiers)
        if options is not None:
            if not isinstance(given, str) or given.strip().lower() not in options:
                return failed(question, f"`{answer}` should be {_what(options)}, got {given!r}.", hint=tiers)
        else:
            try:
                given = float(given)
            except (TypeError, ValueError):
                return failed(question, f"`{answer}` should be a number, got {given!r}.", hint=tiers)
        if digest(question, given) != fingerprint:
            return failed(question, f"{given!r} is not it. {ask}", hint=tiers)
        return passed(question, f"{given!r} is right. {why}".rstrip())
    check_prediction.__doc__ = ask
    return check_prediction


def _what(options):
    return "one of " + ", ".join(repr(k) for k in options) if options else "a number"


# ---- helpers for writing checks -----------------------------------------------------------------
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


# ---- running the student's code ----------------------------------------------------------------
_ANSWER_KEYS = set()   # (file, first line) of every function that knows an answer: see reference()


def _key(code):
    return code.co_filename, code.co_firstlineno


def reference(fn):
    """Mark a function that computes an answer (a reference solution, the expected values).

    The student's code may not call it: ``call`` watches the calls the student's code makes and
    fails the check if one reaches a reference (or a check). The mark is the function's file and
    line, so it holds for every copy of the module, the fresh one nbgrader's regrading loads too.
    """
    _ANSWER_KEYS.add(_key(fn.__code__))
    return fn


def call(title, fn, *args, returns=None, **kwargs):
    """Run the student's code: ``(result, None)``, or ``(None, failed Report)`` if it raised.

    ``returns`` says what the function should return, in the task's words ("the gradient, a tensor
    shaped like a"): then a returned None is a failure that says so. A failed Report is falsy, so
    test the second value with ``if err is not None``, not ``if err``.
    """
    called = []

    def watch(frame, event, arg):  # Python calls this on every function call while fn runs
        if event == "call" and _key(frame.f_code) in _ANSWER_KEYS:
            called.append(frame.f_code.co_name)

    before = sys.getprofile()
    sys.setprofile(watch)
    try:
        result = fn(*args, **kwargs)
    except NotImplementedError:
        return None, failed(title, "not written yet: replace `raise NotImplementedError()` with your code.")
    except Exception as e:  # show the error without a long traceback into minigrad
        where = ""
        tb = traceback.extract_tb(e.__traceback__)
        ours = [os.path.dirname(os.path.abspath(m.__file__)) + os.sep for m in (minigrad, minigrad_course)]
        mine = [f for f in tb if not os.path.abspath(f.filename).startswith(tuple(ours))]
        if mine:
            where = f" (line {mine[-1].lineno}: {mine[-1].line})"
        return None, failed(title, f"your code raised {type(e).__name__}: {e}{where}")
    finally:
        switched_off = sys.getprofile() is not watch
        sys.setprofile(before)
    if called or switched_off:
        what = f"the checker's {called[0]}" if called else "sys.setprofile, which the check uses to watch it"
        return None, failed(title, f"your code called {what}: the answer has to be your own code.")
    if result is None and returns:
        name = getattr(fn, "__name__", "your function")
        return None, failed(title, f"{name} returned None; it should return {returns}.",
                            hint=["is the `return` line missing, or inside an `if` that was not taken?",
                                  "print what your code gives for the notebook's example: a function that ends "
                                  "without reaching a `return` gives None."])
    return result, None


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
