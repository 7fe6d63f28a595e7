"""Machine instructions per op of the small-op chain, counted by valgrind (`make bench-instructions`).

On a shared machine the wall-clock time of the same code moves by up to 2x between runs, which
hides a change worth 2 %.  The number of instructions the processor executes does not move (to
about half a percent), so this is how to tell whether a change to the per-op path helps.

It runs bench/run.py's chain (2,000 ops: mul by a number, tanh, add, sub; forward + backward)
under valgrind's callgrind twice, after one warm-up chain: once with 1 more chain and once with 3.
The difference, divided by the 4,000 ops of the 2 extra chains, leaves out start-up and imports.
The cycle collector's own passes during a chain are counted (they are part of the op's cost).

A second chain (``other_chain``: mul of two tensors, exp, matmul, sum over a dim, where, indexing)
is counted the same way, so that a fast path for the four ops of the first cannot pass for speed.

    python bench/instructions.py             # the minigrad of this checkout
    python bench/instructions.py OTHER_DIR   # another checkout, e.g. a `git worktree` of main
"""
import gc
import os
import re
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def other_chain(T, n):
    """``n`` ops (a multiple of 6) of other kinds, forward and backward; the values stay small (below 0.5)."""
    x = T.full((4, 4), 0.5, requires_grad=True)
    w = T.full((4, 4), 0.01)
    mask = T.tensor([[True, True, True, False]] * 4)
    rows = T.tensor([1, 2, 3, 0])
    y = x
    for _ in range(n // 6):
        c = (y * y).exp() @ w  # mul of two tensors, exp, matmul
        y = T.where(mask, c, c.sum(1, keepdim=True))[rows]  # sum over a dim, where, indexing
    y.sum().backward()
    return x.grad


CHAINS = {"small-op": lambda T: __import__("run").chain(T, 2000), "other-op": lambda T: other_chain(T, 1998)}
OPS = {"small-op": 2000, "other-op": 1998}


def child(root, name, chains):
    sys.path[:0] = [root, HERE]
    import minigrad
    assert minigrad.__file__.startswith(os.path.abspath(root)), minigrad.__file__
    CHAINS[name](minigrad)  # a warm-up chain
    # From here on the collector leaves the objects of the imports alone, as if collected between
    # runs the way run.py does (gc.collect() before each), but without counting those collections.
    gc.collect()
    gc.freeze()
    for _ in range(chains):
        CHAINS[name](minigrad)


def count(root, name, chains):
    """Instructions of a whole run of python with ``chains`` chains ``name`` after the warm-up."""
    env = dict(os.environ, OPENBLAS_NUM_THREADS="1", PYTHONHASHSEED="0")  # (BLAS threads spin: not steady)
    cmd = ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null",
           sys.executable, __file__, "--child", root, name, str(chains)]
    if shutil.which("setarch"):  # same memory addresses every run (no ASLR): steadier dict and set layouts
        cmd = ["setarch", os.uname().machine, "-R"] + cmd
    proc = subprocess.run(cmd, env=env, capture_output=True, text=True)
    found = re.search(r"Collected : (\d+)", proc.stderr)
    if proc.returncode != 0 or not found:  # (valgrind counts a run that crashed at import too)
        sys.exit(f"the chain did not run under valgrind (exit code {proc.returncode}):\n{proc.stderr[-3000:]}")
    return int(found.group(1))


def main():
    if sys.argv[1:2] == ["--child"]:
        return child(sys.argv[2], sys.argv[3], int(sys.argv[4]))
    if not shutil.which("valgrind"):
        sys.exit("needs valgrind (apt-get install valgrind)")
    root = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(HERE, ".."))
    for name in CHAINS:
        per_op = (count(root, name, 3) - count(root, name, 1)) / (2 * OPS[name])
        print(f"{per_op:,.0f} instructions per op of the {name} chain ({root})")


if __name__ == "__main__":
    main()
