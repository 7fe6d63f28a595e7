"""Record PyTorch's answers to every parity case in ``tests/fixtures/parity.json``.

Regenerate with ``make fixtures`` (which installs torch==2.13.0 into .venv first), or directly::

    .venv/bin/python scripts/make_fixtures.py

The cases are in ``tests/parity/cases.py``; ``tests/test_parity.py`` compares minigrad with this file
(and, when torch is installed, with torch live).  The file is stable: cases sorted by name, one case
per line, float32 values rounded to 9 significant digits, float64 values exact.
"""
import json
import os
import sys
import warnings

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tests"))

import torch  # noqa: E402

from parity import CASES, run_case  # noqa: E402
from parity import cases as _cases  # noqa: E402,F401  (registers the cases)

OUT = os.path.join(ROOT, "tests", "fixtures", "parity.json")


def main():
    results = {}
    crashed = []
    for name in sorted(CASES):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            obs = run_case(CASES[name], torch)
        if "__crash__" in obs:
            crashed.append(f"{name}: {obs['__crash__']}")
        results[name] = obs
    lines = ["{", f' "_meta": {json.dumps({"torch": torch.__version__, "cases": len(results)})},']
    items = [f" {json.dumps(name)}: {json.dumps(results[name], sort_keys=True, allow_nan=False)}"
             for name in sorted(results)]
    lines.append(",\n".join(items))
    lines.append("}")
    os.makedirs(os.path.dirname(OUT), exist_ok=True)
    with open(OUT, "w") as f:
        f.write("\n".join(lines) + "\n")
    print(f"wrote {len(results)} cases to {os.path.relpath(OUT, ROOT)}")
    if crashed:
        print("cases that crashed under torch (fix the case):", *crashed, sep="\n  ")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
