"""The project's own promises: environment.yml and pyproject.toml list the same packages, the
package imports with numpy alone, the notebooks exist and are committed executed."""
import json
import os
import pathlib
import re
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1]

# conda-forge names that differ from PyPI names
CONDA_TO_PYPI = {"python-graphviz": "graphviz"}
CONDA_ONLY = {"python", "pip", "graphviz"}  # graphviz (conda) is the `dot` program itself


def _name(requirement):
    return re.split(r"[<>=!~ \[;]", requirement.strip(), maxsplit=1)[0].lower()


def _pyproject_packages():
    import tomllib
    data = tomllib.loads((ROOT / "pyproject.toml").read_text())
    project = data["project"]
    names = {_name(r) for r in project["dependencies"]}
    for extra in project["optional-dependencies"].values():
        names |= {_name(r) for r in extra}
    return names


def _environment_packages():
    names, in_dependencies = set(), False
    for line in (ROOT / "environment.yml").read_text().splitlines():
        if re.match(r"^\S", line):  # a top-level key: name, channels, dependencies
            in_dependencies = line.startswith("dependencies:")
            continue
        m = re.match(r"^\s+-\s+([A-Za-z0-9_.-]+)", line)
        if in_dependencies and m and not line.strip().startswith("- pip:"):
            names.add(m.group(1).lower())
    return {CONDA_TO_PYPI.get(n, n) for n in names if n not in CONDA_ONLY} | (
        {"graphviz"} if "python-graphviz" in names else set())


def test_environment_yml_lists_the_same_packages_as_pyproject():
    pyproject, conda = _pyproject_packages(), _environment_packages()
    assert pyproject == conda, (f"only in pyproject.toml: {sorted(pyproject - conda)}; "
                                f"only in environment.yml: {sorted(conda - pyproject)}")


def test_environment_yml_has_the_dot_program():
    text = (ROOT / "environment.yml").read_text()
    assert re.search(r"^\s+-\s+graphviz\b", text, re.M), "environment.yml must install Graphviz's dot"
    assert "python-graphviz" in text


def test_minigrad_imports_with_numpy_alone():
    """The core must not import graphviz, ipywidgets or matplotlib (they are only for the notebooks)."""
    code = ("import sys\n"
            "for name in ('graphviz', 'ipywidgets', 'matplotlib', 'IPython', 'torch'):\n"
            "    sys.modules[name] = None  # makes `import name` fail\n"
            "import minigrad, minigrad.nn, minigrad.optim, minigrad.autograd, minigrad.nn.functional\n"
            "import minigrad.viz\n"
            "x = minigrad.ones(2, requires_grad=True); (x * x).sum().backward(); print(x.grad.tolist())\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "[2.0, 2.0]"


def test_viz_says_what_to_install_without_graphviz():
    code = ("import sys\nsys.modules['graphviz'] = None\n"
            "import minigrad, minigrad.viz\n"
            "x = minigrad.ones(2, requires_grad=True)\n"
            "try:\n    minigrad.viz.draw((x * x).sum())\nexcept ImportError as e:\n    print(e)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert "pip install" in out.stdout and "graphviz" in out.stdout, out.stdout + out.stderr


NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))


def test_the_series_is_there():
    names = [p.stem for p in NOTEBOOKS]
    for expected in ["00_start_here", "01_scalar_backward", "02_non_scalar_error", "03_explicit_gradients", "03b_cutting_the_graph",
                     "04_custom_function", "04b_inside_a_function", "05_module_wrapping", "05b_training", "06_inside_the_engine",
                     "07_layers_are_functions"]:
        assert expected in names


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_notebook_is_committed_executed_without_unexpected_errors(path):
    nb = json.loads(path.read_text())
    for i, cell in enumerate(nb["cells"]):
        if cell["cell_type"] != "code" or not "".join(cell["source"]).strip():
            continue
        assert cell.get("execution_count") is not None, f"cell {i} was never executed"
        tags = cell.get("metadata", {}).get("tags", [])
        errors = [o for o in cell.get("outputs", []) if o.get("output_type") == "error"]
        if errors:
            assert "raises-exception" in tags, f"cell {i} has an error output but is not tagged raises-exception"


def test_readme_lists_every_notebook():
    readme = (ROOT / "README.md").read_text()
    for p in NOTEBOOKS:
        assert p.name in readme, f"README does not mention {p.name}"


def test_make_lab_with_torch_installs_the_pinned_torch():
    """`make lab WITH_TORCH=1` adds torch 2.13.0, from TORCH_INDEX_URL when it is given."""
    def dry_run(*args):
        return subprocess.run(["make", "-n", "lab", "WITH_TORCH=1", *args], cwd=ROOT, capture_output=True,
                              text=True, env={**os.environ, "VENV": "/nonexistent-venv"}).stdout
    assert re.search(r"pip install --quiet torch==2\.13\.0\s*$", dry_run(), re.M)
    url = "https://download.pytorch.org/whl/cpu"
    assert f"torch==2.13.0 --index-url {url}" in dry_run(f"TORCH_INDEX_URL={url}")


def test_the_skipped_side_by_side_names_the_command(monkeypatch, capsys):
    from minigrad_course import notebook
    monkeypatch.setattr(notebook, "_torch", lambda: None)
    notebook.side_by_side(lambda torch: torch.ones(1).sum().item())
    assert "not installed here, skipped (`make lab WITH_TORCH=1`" in capsys.readouterr().out
    nb00 = (ROOT / "notebooks" / "00_start_here.ipynb").read_text()
    assert "make lab WITH_TORCH=1" in nb00 and "make lab WITH_TORCH=1" in (ROOT / "README.md").read_text()


def test_the_course_lives_beside_minigrad_not_inside_it():
    """``import minigrad as torch`` exposes what torch has: the checkers (with their reference answers),
    the build references and the nbgrader tooling are in ``minigrad_course``, never under ``minigrad.``."""
    code = ("import importlib, sys, minigrad\n"
            "for name in ('exercises', 'classroom', 'scratch', 'notebook'):\n"
            "    assert not hasattr(minigrad, name), name\n"
            "    try:\n"
            "        importlib.import_module('minigrad.' + name)\n"
            "    except ImportError:\n"
            "        continue\n"
            "    raise AssertionError('minigrad.' + name + ' is importable')\n"
            "import minigrad_course.exercises.nb01, minigrad_course.classroom, minigrad_course.scratch.stage6\n"
            "assert not any(m.startswith('minigrad.') and m.split('.')[1] in ('exercises', 'classroom', 'scratch')\n"
            "               for m in sys.modules)\n")
    run = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    assert not (ROOT / "minigrad" / "exercises").exists() and (ROOT / "minigrad_course" / "exercises").is_dir()
