"""The course that goes with minigrad, beside the package students import as ``torch``.

- ``exercises``: the checks of the notebooks' exercises (``nb00`` ... ``nb06``, ``build`` for the
  "Build it yourself" stages), with their hidden inputs and reference answers;
- ``scratch``: the reference engines of the "Build it yourself" stages (``stage1.py`` ... ``stage6.py``);
- ``classroom``: the student edition and the nbgrader course (``python -m minigrad_course.classroom``);
- ``notebook``: the notebooks' helpers (``show_source``, ``side_by_side``, ``show_figure``).

minigrad itself knows nothing of them: ``import minigrad as torch`` exposes what torch has, plus ``viz``.
"""
