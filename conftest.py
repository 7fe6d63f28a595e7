"""pytest's settings for the whole repository: which tests must run in one process, in order.

`make test` runs the tests on every core (pytest-xdist).  Most tests stand alone and go to whichever worker is
free.  Two sets are each given to a single worker, in the order they were collected:

- ``notebooks``: nbval runs the notebooks in order, each one writing the stage of ``my_autograd.py`` (and
  ``my_mlp.py``) in ``notebooks/`` that the later ones import, and the student-edition test of
  ``tests/test_classroom.py`` runs the notebooks in that folder too.  Side by side, one would read a stage of
  those files that another has just overwritten.
- ``nbgrader``: ``tests/test_nbgrader.py`` grades one course, made once for the module (its ``graded``
  fixture, the longest part of the run): on two workers it would be made and graded twice.

pytest-xdist schedules "scopes" (``--dist loadscope``: a module's tests); here a scope is one of these sets, or
else a single test.  The scopes with the most tests start first, so both sets start at once, on two workers.
"""
import pytest

SHARING_NOTEBOOKS = "::test_student_edition_runs_with_only_the_exercises_failing["  # (tests/test_classroom.py)


def scope(nodeid):
    """The set a test belongs to (by its id, e.g. ``notebooks/01_scalar_backward.ipynb::Cell 3``), or the test."""
    if nodeid.startswith("tests/test_nbgrader.py::"):
        return "nbgrader"
    if nodeid.startswith("notebooks/") or SHARING_NOTEBOOKS in nodeid:
        return "notebooks"
    return nodeid


@pytest.hookimpl(optionalhook=True, tryfirst=True)  # (a hook of pytest-xdist's: without it, never called)
def pytest_xdist_make_scheduler(config, log):
    from xdist.scheduler import LoadScopeScheduling

    class Sets(LoadScopeScheduling):
        def _split_scope(self, nodeid):
            return scope(nodeid)

    return Sets(config, log)
