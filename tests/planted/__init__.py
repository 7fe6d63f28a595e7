"""Wrong answers planted in every exercise check: each must fail, with the diagnosis meant for it.

Each notebook has a module here (``nb00.py``, ``nb01.py``, ...; ``build.py`` for the build stages)
with one dictionary, ``WRONG``: the check's name as the notebook calls it (``"nb01b.check_grow_grad"``)
-> a list of ``Wrong`` answers. Every check has at least two: one **fitted** to the check's inputs
(right on every input a lazy answer could be tuned to, wrong elsewhere: the check's hidden inputs
must reach it) and one **common** mistake (what students really write). ``says`` is a fragment of
the report that diagnoses that mistake, so a check that fails it for the wrong reason fails the test.

``tests/test_planted.py`` runs them; ``tests/test_nbgrader.py`` plants the first of each in a
submission graded by real nbgrader, where each costs exactly its check's point.
"""
import dataclasses
import importlib
import pkgutil
import sys
import types

EXERCISES = "minigrad_course.exercises"   # the package of the checks


@dataclasses.dataclass(frozen=True)
class Wrong:
    kind: str      # "fitted" or "common" (or "other")
    code: str      # a notebook cell's code that defines the answer (for a build stage: my_autograd.py)
    says: str      # a fragment of the failed report meant for this mistake
    why: str = ""  # what is wrong with it, for a reader of this file

    def __post_init__(self):
        assert self.kind in ("fitted", "common", "other"), self.kind


def check(name):
    """``"nb01b.check_grow_grad"`` -> the check function."""
    module, check_name = name.split(".")
    return getattr(importlib.import_module(f"{EXERCISES}.{module}"), check_name)


def registry():
    """{check name: [Wrong, ...]} from every module of this package."""
    wrong = {}
    for info in pkgutil.iter_modules(__path__):
        module = importlib.import_module(f"{__name__}.{info.name}")
        for name, answers in module.WRONG.items():
            assert name not in wrong, f"{name} is planted in two modules"
            wrong[name] = list(answers)
    return wrong


def answer(check_fn, code, tmp_path=None):
    """What the check takes for a planted ``code``: the answer name the code defines, or, for a build
    stage (answer ``my_autograd``, or ``my_mlp`` for stage 5b), the module made by writing the code to a
    file and loading it."""
    name = check_fn.answer_name
    if name in ("my_autograd", "my_mlp"):
        build = importlib.import_module(f"{EXERCISES}.build")
        path = tmp_path / f"{name}.py"
        path.write_text(code)
        return build.load(str(path))
    namespace = {"__name__": "__planted__"}
    exec(compile(code, f"<planted {name}>", "exec"), namespace)
    return namespace[name]
