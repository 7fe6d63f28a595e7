"""Record torch's answers for the differential tester's fixed sample in ``tests/fixtures/difftest.json``.

    .venv/bin/python scripts/make_difftest_fixtures.py [--n 300]

The sample is the first N seeded programs of ``tests/difftest`` made from the ops marked
``sample=True`` in ``tests/difftest/ops_table.py``. A program on which minigrad disagrees with torch
today is left out of the sample (so ``make test`` stays green) and listed, with its class, in the
file's ``_meta.left_out`` and on the terminal: those are the known disagreements ``make fuzz``
reports. ``tests/test_difftest.py`` runs the stored programs with minigrad and compares.
"""
import argparse
import collections
import json
import os
import sys
import warnings

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tests"))

import minigrad  # noqa: E402
import torch  # noqa: E402

from difftest.generator import generate  # noqa: E402
from difftest.runner import compare, klass, run  # noqa: E402

OUT = os.path.join(ROOT, "tests", "fixtures", "difftest.json")


def main(argv=None):
    p = argparse.ArgumentParser()
    p.add_argument("--n", type=int, default=300)
    args = p.parse_args(argv)
    warnings.simplefilter("ignore")
    kept, left_out, seed = [], collections.Counter(), 0
    while len(kept) < args.n:
        program = generate(seed, sample=True)
        want = run(program, torch)
        mism = compare(run(program, minigrad), want)
        if mism:
            left_out[klass(program, mism)] += 1
        else:
            kept.append({"seed": seed, "program": program, "torch": want})
        seed += 1
    meta = {"torch": torch.__version__, "programs": len(kept), "seeds_tried": seed,
            "left_out": dict(sorted(left_out.items()))}
    with open(OUT, "w") as f:
        f.write("{\n" + f' "_meta": {json.dumps(meta, sort_keys=True)},\n "programs": [\n')
        f.write(",\n".join("  " + json.dumps(k, sort_keys=True, allow_nan=False) for k in kept))
        f.write("\n ]\n}\n")
    print(f"wrote {len(kept)} programs to {os.path.relpath(OUT, ROOT)} "
          f"({seed - len(kept)} of {seed} seeds left out: minigrad disagrees)")
    for name, n in left_out.most_common():
        print(f"  {n:4d}  {name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
