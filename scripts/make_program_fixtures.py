"""Record what PyTorch prints for every program in ``tests/programs/`` in ``tests/fixtures/programs.json``.

    .venv/bin/python scripts/make_program_fixtures.py

``tests/test_programs.py`` compares minigrad's output with this file (and with torch live, when installed).
"""
import json
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tests"))

import programs  # noqa: E402

OUT = os.path.join(ROOT, "tests", "fixtures", "programs.json")


def main():
    out = {name: programs.run(programs.source(name), "torch") for name in programs.names()}
    with open(OUT, "w") as f:
        json.dump(out, f, indent=1, sort_keys=True)
        f.write("\n")
    print(f"wrote {len(out)} programs to {os.path.relpath(OUT, ROOT)}")


if __name__ == "__main__":
    main()
