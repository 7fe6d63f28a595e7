"""``make fuzz`` / ``python -m difftest -n N``: run N seeded programs on torch and minigrad, compare.

Prints ``K/N programs agree``, then for each class of disagreement (``"<step kind>: <aspect>"``)
how many programs fell in it and one shrunk repro as a plain Python script.
"""
import argparse
import collections
import sys
import time
import warnings

import minigrad
import torch

from .generator import generate
from .runner import compare, klass, run, shrink, to_python


def main(argv=None):
    p = argparse.ArgumentParser(prog="python -m difftest")
    p.add_argument("-n", type=int, default=20000, help="how many programs (seeds 0..n-1 after --start)")
    p.add_argument("--start", type=int, default=0)
    p.add_argument("--sample", action="store_true", help="only the ops of the fixed sample")
    p.add_argument("--repros", type=int, default=1, help="shrunk repros to print per class")
    p.add_argument("--quiet", action="store_true", help="classes and counts only, no repros")
    args = p.parse_args(argv)
    warnings.simplefilter("ignore")
    classes = collections.defaultdict(list)
    t0 = time.time()
    agree = 0
    for seed in range(args.start, args.start + args.n):
        program = generate(seed, sample=args.sample)
        want = run(program, torch)
        mism = compare(run(program, minigrad), want)
        if mism:
            classes[klass(program, mism)].append((seed, program, mism))
        else:
            agree += 1
    print(f"{agree}/{args.n} programs agree ({time.time() - t0:.0f} s)")
    for name, items in sorted(classes.items(), key=lambda kv: -len(kv[1])):
        print(f"\n=== {name}: {len(items)} programs (seeds {', '.join(str(s) for s, _, _ in items[:5])}"
              f"{', ...' if len(items) > 5 else ''})")
        if args.quiet:
            continue
        for seed, program, mism in items[:args.repros]:
            small = shrink(program, minigrad, name)
            mism_small = compare(run(small, minigrad), run(small, torch)) or mism
            print(f"--- seed {seed}, shrunk from {len(program)} to {len(small)} steps:")
            print(to_python(small, mism_small[:3]))
    return 0 if not classes else 1


if __name__ == "__main__":
    sys.exit(main())
