"""Regenerate tests/golden/*.dot, the DOT text minigrad.viz.draw() must produce.

Run after an intended change of the drawing, then review the diff:

    .venv/bin/python scripts/update_golden_dot.py && git diff tests/golden
"""
import importlib.util
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))  # test_viz imports the seed programs from there


def main():
    spec = importlib.util.spec_from_file_location("test_viz", ROOT / "tests" / "test_viz.py")
    test_viz = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(test_viz)
    golden = ROOT / "tests" / "golden"
    golden.mkdir(exist_ok=True)
    for name, make in sorted(test_viz.golden_cases().items()):
        path = golden / name
        source = make()
        old = path.read_text() if path.exists() else None
        path.write_text(source)
        print(f"{'unchanged' if old == source else 'written  '} {path.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
