"""Write a ready nbgrader course from the instructor notebooks (``make course``).

    python -m minigrad_course.classroom course course/ [--source notebooks/]

writes ``course/nbgrader_config.py``, ``course/source/<assignment>/<notebook>.ipynb`` (one
assignment per notebook, named after it: ``01_scalar_backward``) and ``course/README.md``, the
instructor's walk-through. Each source notebook is the instructor notebook with one thing added:
every check cell gets a hidden block that runs its check again on a fresh copy of the checker
(see ``regrade.py``).
"""
import copy
import json
import pathlib
import shutil

from .release import BEGIN_HIDDEN, END_HIDDEN, ReleaseError, _is_check, _source

COURSE_ID = "minigrad-notebooks"

CONFIG = '''"""nbgrader's settings for the minigrad notebooks course (written by python -m minigrad_course.classroom course)."""
import os

c = get_config()  # noqa: F821  (nbgrader provides it)
c.CourseDirectory.course_id = "{course_id}"
# A notebook runs top to bottom in one kernel; the training cells need some time on a slow machine.
c.Execute.timeout = 600
'''

# Added to the config when nbgrader is installed: feedback pages from nbgrader's template, with
# alt text on drawings and plots (templates/minigrad_feedback/).
FEEDBACK_CONFIG = '''# Feedback pages: nbgrader's template, with each drawing's and plot's text as its alt text.
c.HTMLExporter.template_name = "minigrad_feedback"
c.HTMLExporter.extra_template_basedirs = [os.path.join(os.path.dirname(os.path.abspath(__file__)), "templates")]
'''

# The feedback template: nbgrader's own (copied next to it as nbgrader_feedback.html.j2), with alt
# text on images: the output's text/plain, a drawing's text summary of its nodes and edges.
FEEDBACK_TEMPLATE = '''{%- extends 'nbgrader_feedback.html.j2' -%}

{% block data_svg scoped -%}
<div class="output_svg output_subarea {{ extra_class }}">
<img src="data:image/svg+xml;base64,{{ output.data['image/svg+xml'] | text_base64 | escape_html }}"
     alt="{{ output.data.get('text/plain', 'a drawing') | escape_html }}">
</div>
{%- endblock data_svg %}

{% block data_png scoped -%}
<div class="output_png output_subarea {{ extra_class }}">
<img src="data:image/png;base64,{{ output.data['image/png'] | escape_html }}"
     alt="{{ output.data.get('text/plain', 'a plot') | escape_html }}">
</div>
{%- endblock data_png %}
'''
FEEDBACK_CONF = '{"base_template": "classic", "mimetypes": {"text/html": true}}\n'


HIDDEN = '''{begin}
# nbgrader runs this cell's check again, on a fresh copy of the checker (minigrad_course/classroom/regrade.py)
import runpy
runpy.run_module("minigrad_course.classroom.regrade", {{"CELL": {cell!r}, "NOTEBOOK": globals()}}, "__regrade__")
del runpy  # (a last line with a value would be read as partial credit)
{end}
'''


def with_regrade(nb, name="notebook"):
    """The notebook with a hidden regrade block at the end of every check cell (a new dict)."""
    nb = copy.deepcopy(nb)
    for i, cell in enumerate(nb.get("cells", [])):
        if cell.get("cell_type") != "code" or not _is_check(cell):
            continue
        text = _source(cell)
        if BEGIN_HIDDEN in text:
            raise ReleaseError(f"{name}, cell {i}: a check cell already has hidden tests")
        visible = text if text.endswith("\n") else text + "\n"
        hidden = HIDDEN.format(begin=BEGIN_HIDDEN, end=END_HIDDEN, cell=visible)
        cell["source"] = (visible + hidden).splitlines(keepends=True)
        cell["outputs"] = []
        cell["execution_count"] = None
    return nb


def make_course(out, src="notebooks"):
    """Write the course directory ``out`` from the notebooks in ``src``; returns the assignments."""
    src, out = pathlib.Path(src), pathlib.Path(out)
    paths = sorted(src.glob("*.ipynb"))
    if not paths:
        raise ReleaseError(f"no notebooks in {src}")
    (out / "source").mkdir(parents=True, exist_ok=True)
    config = CONFIG.format(course_id=COURSE_ID)
    if _feedback_template(out / "templates" / "minigrad_feedback"):
        config += FEEDBACK_CONFIG
    (out / "nbgrader_config.py").write_text(config, encoding="utf-8")
    assignments = []
    for path in paths:
        folder = out / "source" / path.stem
        if folder.exists():
            shutil.rmtree(folder)
        folder.mkdir()
        nb = with_regrade(json.loads(path.read_text(encoding="utf-8")), path.name)
        (folder / path.name).write_text(json.dumps(nb, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
        assignments.append(path.stem)
    (out / "README.md").write_text(README.format(course=out.name, first=assignments[0],
                                                 assignments="\n".join(f"- `{a}`" for a in assignments)),
                                   encoding="utf-8")
    return assignments


def _feedback_template(folder):
    """Write the feedback template into ``folder``; False when nbgrader is not installed."""
    try:
        import nbgrader
    except ImportError:
        return False
    theirs = (pathlib.Path(nbgrader.__file__).parent / "server_extensions" / "formgrader" / "templates" / "feedback"
              / "index.html.j2")
    folder.mkdir(parents=True, exist_ok=True)
    shutil.copy(theirs, folder / "nbgrader_feedback.html.j2")
    (folder / "index.html.j2").write_text(FEEDBACK_TEMPLATE, encoding="utf-8")
    (folder / "conf.json").write_text(FEEDBACK_CONF, encoding="utf-8")
    return True


README = '''# The minigrad notebooks as an nbgrader course

Written by `python -m minigrad_course.classroom course` (or `make course`) from the instructor notebooks.
One assignment per notebook:

{assignments}

Every exercise has a check cell worth 1 point; a check passes or fails as a whole.
Run every command below from this folder (`cd {course}`), in the environment where minigrad and
nbgrader 0.9.6 are installed (the repository's `.venv`: `make test` installs nbgrader there).

## 1. Release

```bash
nbgrader generate_assignment {first}          # or each assignment in turn; --force to redo one
```

This writes `release/{first}/`: solutions replaced by `# YOUR CODE HERE` /
`raise NotImplementedError()`, outputs cleared, check cells locked (not editable, not deletable),
the hidden part of each check cell removed. Hand that folder out (with `nbgrader release_assignment`
and an exchange, through your LMS, or as files).

## 2. Collect

Put each submission at `submitted/<student id>/<assignment>/<notebook>.ipynb`
(`nbgrader collect {first}` does it when you use an exchange; `nbgrader zip_collect` for an LMS's
zip file).

## 3. Autograde

```bash
nbgrader autograde {first}                     # every student; --student ID for one
```

nbgrader puts back the check cells as you released them (students can't change them), adds their
hidden parts, runs each notebook top to bottom in a fresh kernel and gives a check cell its point
when it does not raise. The gradebook is `gradebook.db`; `nbgrader export` writes `grades.csv`.

## 4. Give feedback

```bash
nbgrader generate_feedback {first}             # HTML per student in feedback/
nbgrader release_feedback {first}              # with an exchange
```

A failed check's feedback is its report alone: what is wrong, for which hidden input, expected vs
got, and every hint tier. A passed check shows its PASSED report.

Students can check their work before they hand it in: JupyterLab's Validate button (or
`nbgrader validate NOTEBOOK`) runs the notebook the same way and lists the checks that fail.

## What the checks can and cannot prevent

They prevent:
- answers written for the example in the notebook: checks use hidden random inputs;
- switching grading off from an answer cell (`os.environ["NBGRADER_EXECUTION"] = ...`): the mode
  is read once, when the checks are imported in the notebook's first cells;
- replacing a check or the checker's internals from an answer cell (`nb01.check_... = ...`): the
  hidden part of each check cell runs the check again on a fresh copy of the checker;
- calling the checker's reference answers (or the checks themselves) from an answer: the check
  watches the calls the answer makes and fails it;
- losing points to a warning from a correct answer (a DeprecationWarning, say): the check catches
  it and reports it as a note;
- one mistake costing two exercises: an exercise that builds on an earlier one is checked with the
  reference for the earlier part.

They cannot prevent (read the answer cells of a suspicious submission):
- an answer cell that changes Python itself, or minigrad's own operations, or the standard library
  (`runpy`, `importlib`, `sys.modules`), which all run in the same process as the checks;
- copying: nothing here compares submissions;
- prediction questions answered by trial and error or by running the code: they give instant
  feedback, so they are for learning, not for proof.
'''
