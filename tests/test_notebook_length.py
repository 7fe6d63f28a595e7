"""Notebooks of a readable length (scripts/notebook_minutes.py estimates the student's minutes).

- each notebook's main path (its cells not tagged "optional") takes at most MAIN_PATH_LIMIT minutes;
- its optional cells take at most OPTIONAL_SHARE of the whole, and each optional section starts with
  a heading that says "Optional";
- the main path stands alone: the notebook runs in a fresh kernel with its optional cells removed.
"""
import os
import pathlib
import sys

import nbformat
import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))
import notebook_minutes as nm  # noqa: E402

NOTEBOOKS = nm.notebooks()
IDS = [p.stem for p in NOTEBOOKS]

# Notebooks still over the limit (issue 43): their main path must not grow while they wait to be
# shortened or split. Remove a notebook from here as soon as it fits.
STILL_OVER = {}


def test_the_estimator_states_its_constants():
    doc = nm.__doc__
    for name in ["WORDS_PER_MINUTE", "CODE_CELL_MINUTES", "EXERCISE_MINUTES", "BUILD_STAGE_MINUTES"]:
        assert f"{name} = {getattr(nm, name)}" in doc.replace("\n", " ").replace("  ", " ") or \
            f"{name}\n= {getattr(nm, name)}" in doc, name


def test_the_estimator_counts_words_cells_and_exercises():
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_markdown_cell(" ".join(["word"] * 400)),
                nbformat.v4.new_code_cell("x = 1"),
                nbformat.v4.new_code_cell("y = ...", metadata={"tags": ["exercise"]}),
                nbformat.v4.new_markdown_cell("## Optional: more\n" + " ".join(["w"] * 197),
                                              metadata={"tags": ["optional"]})]
    minutes = [nm.cell_minutes(c) for c in nb.cells]
    assert minutes == [2.0, nm.CODE_CELL_MINUTES, nm.CODE_CELL_MINUTES + nm.EXERCISE_MINUTES, 1.0]


@pytest.mark.parametrize("path", NOTEBOOKS, ids=IDS)
def test_the_main_path_fits_in_45_minutes(path):
    main = nm.estimate(path)["main"]["minutes"]
    limit = max(nm.MAIN_PATH_LIMIT, STILL_OVER.get(path.stem, 0))
    assert main <= limit, f"{path.name}: main path {main:.1f} min > {limit} min"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=IDS)
def test_optional_sections_are_at_most_a_third_and_say_so(path):
    e = nm.estimate(path)
    total = e["main"]["minutes"] + e["optional"]["minutes"]
    assert e["optional"]["minutes"] <= nm.OPTIONAL_SHARE * total + 1e-9, \
        f"{path.name}: optional {e['optional']['minutes']:.1f} of {total:.1f} min"
    cells = nbformat.read(str(path), as_version=4).cells
    for before, cell in zip([None] + cells[:-1], cells):
        starts_section = nm.is_optional(cell) and (before is None or not nm.is_optional(before))
        if starts_section:
            assert cell.cell_type == "markdown" and cell.source.lstrip().startswith("#") and \
                "Optional" in cell.source.splitlines()[0], \
                f"{path.name}: an optional section must open with a heading naming it optional"


WITH_OPTIONAL = [p for p in NOTEBOOKS if nm.estimate(p)["optional"]["cells"]]


@pytest.mark.parametrize("path", WITH_OPTIONAL, ids=[p.stem for p in WITH_OPTIONAL])
def test_the_main_path_runs_alone(path, tmp_path, monkeypatch):
    from nbclient import NotebookClient
    nb = nbformat.read(str(path), as_version=4)
    nb.cells = [c for c in nb.cells if not nm.is_optional(c)]
    # the kernel imports this checkout's minigrad
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]))
    # run in a scratch folder, so that files a notebook writes do not land in notebooks/
    client = NotebookClient(nb, timeout=300, kernel_name="python3", record_timing=False,
                            resources={"metadata": {"path": str(tmp_path)}})
    client.execute()   # cells tagged raises-exception may raise; any other error fails here


@pytest.mark.parametrize("path", NOTEBOOKS, ids=IDS)
def test_the_build_stages_are_on_the_main_path(path):
    """The student's own engine is the spine of the series (issue 43): no cell of a "Build it yourself" stage is
    tagged optional, and every notebook from 01 to 07 but the four that say why they add nothing has one."""
    cells = nbformat.read(str(path), as_version=4).cells
    build = [c for c in cells if "build-it-yourself" in nm.tags(c)]
    assert not [c for c in build if nm.is_optional(c)], f"{path.name}: a build cell is tagged optional"
    if path.stem[:2] in {"01", "02", "03", "04", "05", "06", "07"} and path.stem[2] != "b":
        assert any(c.cell_type == "code" and "exercise" in nm.tags(c) for c in build), path.name
