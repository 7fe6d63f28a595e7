"""Record PyTorch's random draws of ``tests/random_cases.py`` in ``tests/fixtures/random.json``.

    .venv/bin/python scripts/make_random_fixtures.py
"""
import json
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tests"))

import torch  # noqa: E402

import random_cases  # noqa: E402

OUT = os.path.join(ROOT, "tests", "fixtures", "random.json")


def main():
    out = {case: random_cases.run(torch, case) for case in random_cases.CASES}
    with open(OUT, "w") as f:
        json.dump(out, f, indent=1, sort_keys=True)
        f.write("\n")
    print(f"wrote {len(out)} cases to {os.path.relpath(OUT, ROOT)}")


if __name__ == "__main__":
    main()
