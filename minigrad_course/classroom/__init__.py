"""Student and instructor editions from one source (nbgrader's conventions).

The notebooks in ``notebooks/`` are the instructor edition: every exercise cell holds its solution
between ``### BEGIN SOLUTION`` and ``### END SOLUTION``.  ``release`` writes the student edition::

    python -m minigrad_course.classroom release notebooks/ --out student/     (or: make student)

- each solution block becomes ``# YOUR CODE HERE`` / ``raise NotImplementedError()`` at the
  block's indentation; ``### BEGIN HIDDEN TESTS`` ... ``### END HIDDEN TESTS`` blocks are removed;
- the outputs of exercise and check cells, and of cells tagged ``reveals-answer`` (say, the run
  that shows what a prediction question asks), are cleared; everything else is kept as it is;
- exercise cells get ``deletable: false``, check cells ``deletable: false`` and ``editable: false``,
  the locks nbgrader's own release sets, so JupyterLab keeps students from changing them;
- cell metadata stays nbgrader-compatible (``metadata.nbgrader``: ``solution`` for exercise cells,
  ``grade``/``points``/``locked`` for check cells), so an instructor who uses nbgrader can import
  the notebooks into a course as they are.

``make_course`` writes a ready nbgrader course from them (``course.py``)::

    python -m minigrad_course.classroom course course/                        (or: make course)
"""
from .course import make_course
from .release import release, release_notebook, strip_solutions

__all__ = ["make_course", "release", "release_notebook", "strip_solutions"]
