"""A newcomer's ``make test`` runs on a machine that has never seen torch.

pytest must collect every test module under ``tests/`` with ``import torch`` failing: a module that
imports torch at import time (or a program pytest mistakes for a test module) stops the whole run
before a single test, as ``tests/programs/micrograd_engine_test.py`` once did. Tests that need live
torch import it inside the test and skip with a reason.
"""
import os
import pathlib
import re
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parents[1]

# A package named torch that refuses to import, put before site-packages: it hides an installed torch.
HIDDEN_TORCH = 'raise ImportError("torch is hidden: a newcomer running make test has no torch")\n'


def test_every_test_module_is_collected_without_torch(tmp_path):
    (tmp_path / "torch").mkdir()
    (tmp_path / "torch" / "__init__.py").write_text(HIDDEN_TORCH)
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(tmp_path)] + [p for p in [os.environ.get("PYTHONPATH")] if p]))
    run = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider", "tests"],
                         cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
    out = run.stdout + run.stderr
    broken = sorted(set(re.findall(r"^ERROR (?:collecting )?(\S+)", out, re.M)))
    assert not broken and run.returncode == 0, (
        f"without torch, pytest cannot collect {', '.join(broken) or 'the tests'} (exit {run.returncode}): "
        "import torch inside the test (pytest.importorskip), or keep programs out of collection "
        "(pyproject.toml's python_files and norecursedirs)\n" + out[-3000:])


def test_the_hidden_torch_really_hides_it(tmp_path):
    """The guard above is only worth something if its fake torch is what `import torch` finds."""
    (tmp_path / "torch").mkdir()
    (tmp_path / "torch" / "__init__.py").write_text(HIDDEN_TORCH)
    run = subprocess.run([sys.executable, "-c", "import torch"], env=dict(os.environ, PYTHONPATH=str(tmp_path)),
                         capture_output=True, text=True)
    assert run.returncode != 0 and "torch is hidden" in run.stderr
