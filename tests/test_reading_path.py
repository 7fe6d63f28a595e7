"""``make reading-path`` (scripts/reading_path.py): what a newcomer's first program runs of minigrad."""
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCRIPT = os.path.join(ROOT, "scripts", "reading_path.py")


def _run(program=None):
    """The script's output in a fresh process (``program`` replaces the newcomer's program)."""
    code = ("import runpy, sys; sys.argv = ['reading_path.py']; ns = runpy.run_path(%r, run_name='rp'); "
            % SCRIPT)
    if program is not None:
        code += "ns['main'].__globals__['PROGRAM'] = %r; " % program
    code += "sys.exit(ns['main']())"
    return subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120)


def test_it_counts_the_statements_per_file_and_the_formulas_are_on_the_path():
    out = _run()
    lines = dict(line.rsplit(None, 1) for line in out.stdout.splitlines() if line.startswith("minigrad/"))
    assert int(lines["minigrad/ops/elementwise.py"]) > 0  # Mul's formula
    assert int(lines["minigrad/autograd/engine.py"]) > 0  # the walk
    total = [line for line in out.stdout.splitlines() if line.startswith("total")][0]
    assert int(total.split()[1]) == sum(int(n) for n in lines.values())
    for machinery in ("zerotensor.py", "layout.py", "anomaly_mode.py", "profiler.py"):
        assert not any(machinery in f for f in lines), out.stdout


def test_it_fails_when_a_machinery_module_runs():
    program = ("minigrad.autograd.set_detect_anomaly(True)\nx = minigrad.tensor([1., 2.], requires_grad=True)\n"
               "(x * 2).sum().backward()\n")
    out = _run(program)
    assert out.returncode == 1
    assert "FAIL: minigrad/autograd/anomaly_mode.py ran (anomaly mode)" in out.stdout
