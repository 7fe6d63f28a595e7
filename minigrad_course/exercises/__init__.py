"""Checks for the notebooks' exercises: ``from minigrad_course.exercises import nb01, hint``.

A check cell calls ``nb01.check_...()``: the check finds the notebook's answer by its name, runs
it on hidden inputs and shows a PASSED or FAILED report with a hint; ``hint()`` shows the next,
more detailed hint of the last failed check. See ``_check.py``.
"""
from ._check import demo, hint

__all__ = ["demo", "hint"]
