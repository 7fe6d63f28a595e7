"""minigrad's speed, measured against PyTorch (and micrograd) in the same process (`make bench`).

Each benchmark runs minigrad and the comparison interleaved, several times, and keeps the best
time of each; the ratio is minigrad / other (lower is better).  `--readme README.md` writes the
table between the `<!-- bench:start -->` and `<!-- bench:end -->` markers.

1. small ops: a chain of 2,000 elementwise ops (mul by a number, tanh, add, sub) on a 16-element
   float32 tensor, forward + backward;
2. MLP: batch 256, 256-512-512-10 with ReLU and cross-entropy, 10 SGD steps, float32;
3. a 100,000-op chain, forward + backward;
4. memory: a graph that saves 20 intermediates of 1 MB; what is still held after backward();
5. micrograd: MLP(2, [16, 16, 1]) on 100 two-moons points, 10 steps, micrograd (scalar Values)
   vs minigrad (vectorised); and the deepest chain each can backward through.
"""
import argparse
import gc
import re
import sys
import time
import tracemalloc

import numpy as np

sys.setrecursionlimit(10_000)

import minigrad  # noqa: E402


def best_of(repeats, *fns):
    """Run the functions interleaved ``repeats`` times; the best time of each."""
    best = [float("inf")] * len(fns)
    for _ in range(repeats):
        for i, fn in enumerate(fns):
            gc.collect()
            t0 = time.perf_counter()
            fn()
            best[i] = min(best[i], time.perf_counter() - t0)
    return best


# ---- 1. and 3. chains of small ops ----------------------------------------------------
def chain(T, n, size=16):
    x = T.ones(size, requires_grad=True)
    y = x
    for i in range(n // 4):
        y = (y * 0.999).tanh() + 0.5 - 0.25  # four ops
    y.sum().backward()
    return x.grad


def bench_small_ops(torch, repeats):
    return best_of(repeats, lambda: chain(minigrad, 2000), lambda: chain(torch, 2000))


def bench_long_chain(torch, repeats):
    def long(T):
        x = T.ones(4, requires_grad=True)
        y = x
        for _ in range(100_000):
            y = y * 1.0
        y.sum().backward()
    return best_of(repeats, lambda: long(minigrad), lambda: long(torch))


# ---- 2. MLP training ----------------------------------------------------------------------
def mlp_setup(T, rng_weights, x_np, y_np):
    nn = T.nn
    model = nn.Sequential(nn.Linear(256, 512), nn.ReLU(), nn.Linear(512, 512), nn.ReLU(), nn.Linear(512, 10))
    with T.no_grad():
        for p, w in zip(model.parameters(), rng_weights):
            p.copy_(T.tensor(w))
    opt = T.optim.SGD(model.parameters(), lr=0.01)
    return model, opt, T.tensor(x_np), T.tensor(y_np)


def mlp_steps(T, model, opt, x, y, steps=10):
    loss_fn = T.nn.CrossEntropyLoss()
    for _ in range(steps):
        opt.zero_grad()
        loss = loss_fn(model(x), y)
        loss.backward()
        opt.step()
    return loss.item()


def bench_mlp(torch, repeats):
    rng = np.random.default_rng(0)
    shapes = [(512, 256), (512,), (512, 512), (512,), (10, 512), (10,)]
    weights = [(rng.standard_normal(s) * 0.05).astype(np.float32) for s in shapes]
    x = rng.standard_normal((256, 256)).astype(np.float32)
    y = rng.integers(0, 10, 256)
    mg = mlp_setup(minigrad, weights, x, y)
    tc = mlp_setup(torch, weights, x, y)
    loss_mg, loss_tc = mlp_steps(minigrad, *mg), mlp_steps(torch, *tc)
    assert abs(loss_mg - loss_tc) < 1e-3 * max(1.0, abs(loss_tc)), (loss_mg, loss_tc)
    return best_of(repeats, lambda: mlp_steps(minigrad, *mg), lambda: mlp_steps(torch, *tc))


# ---- 4. memory held after backward ------------------------------------------------------
def bench_memory():
    n = 262_144  # float32: 1 MB each
    x = minigrad.ones(n, requires_grad=True)
    gc.collect()
    tracemalloc.start()
    base = tracemalloc.get_traced_memory()[0]
    y = x
    for _ in range(20):
        y = (y * 1.0001).exp() * 0.5  # Exp saves its output, Mul saves the number: 20 saved MB
    loss = y.sum()
    del y  # only the graph (through `loss`) keeps things alive now
    saved_bytes = sum(d.nbytes for d in _saved_arrays(loss) if d.size > 1)  # the 1 MB ones, not the numbers
    loss.backward()
    gc.collect()
    # what the graph still holds: everything traced minus the gradient that backward produced
    held = tracemalloc.get_traced_memory()[0] - base - x.grad._data.nbytes
    tracemalloc.stop()
    del loss
    return held, saved_bytes


def _saved_arrays(t):
    for node in _nodes(t):
        for s in getattr(node, "_saved", ()):
            if isinstance(s, np.ndarray):  # a saved number, kept as its value
                yield s
            elif s is not None:
                yield s.data if s.data is not None else s.tensor._data


def _nodes(t):
    seen, stack = set(), [t.grad_fn]
    while stack:
        n = stack.pop()
        if n is None or n in seen:
            continue
        seen.add(n)
        yield n
        stack.extend(m for m, _ in n.next_functions)


# ---- 5. micrograd ---------------------------------------------------------------------------
def moons(n=100, seed=0):
    rng = np.random.default_rng(seed)
    t = rng.uniform(0, np.pi, n // 2)
    a = np.stack([np.cos(t), np.sin(t)], 1)
    b = np.stack([1 - np.cos(t), 0.5 - np.sin(t)], 1)
    X = np.concatenate([a, b]) + rng.normal(0, 0.1, (n, 2))
    y = np.concatenate([np.ones(n // 2), -np.ones(n // 2)])
    return X.astype(np.float32), y.astype(np.float32)


def micrograd_train(X, y, steps=10):
    from micrograd.nn import MLP
    from micrograd.engine import Value
    import random
    random.seed(0)
    model = MLP(2, [16, 16, 1])
    for _ in range(steps):
        scores = [model([Value(float(a)) for a in row]) for row in X]
        losses = [(1 + -yi * s).relu() for yi, s in zip(y, scores)]
        loss = sum(losses) * (1.0 / len(losses))
        model.zero_grad()
        loss.backward()
        for p in model.parameters():
            p.data -= 0.05 * p.grad


def minigrad_train(X, y, steps=10):
    nn = minigrad.nn
    minigrad.manual_seed(0)
    model = nn.Sequential(nn.Linear(2, 16), nn.ReLU(), nn.Linear(16, 16), nn.ReLU(), nn.Linear(16, 1))
    opt = minigrad.optim.SGD(model.parameters(), lr=0.05)
    xt, yt = minigrad.tensor(X), minigrad.tensor(y)
    for _ in range(steps):
        loss = (1 - yt * model(xt).squeeze(1)).relu().mean()
        opt.zero_grad()
        loss.backward()
        opt.step()


def deepest_micrograd(limit=1_000_000):
    from micrograd.engine import Value
    n = 100
    while n <= limit:
        x = Value(1.0)
        y = x
        for _ in range(n):
            y = y * 1.0
        try:
            y.backward()
        except RecursionError:
            return n // 2
        n *= 2
    return limit


def deepest_minigrad(n=1_000_000):
    x = minigrad.ones(1, requires_grad=True)
    y = x
    for _ in range(n):
        y = y * 1.0
    y.sum().backward()
    return n


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--readme", help="write the table into this README")
    parser.add_argument("--quick", action="store_true", help="fewer repeats, no 1M-op chain")
    args = parser.parse_args()
    import torch
    torch.manual_seed(0)
    r = 2 if args.quick else args.repeats
    rows = []

    # The short benchmarks get 4x the runs (under a second each): with 5, the small-op ratio moved
    # between 0.85 and 1.44 from one `make bench` to the next on a shared machine.
    mg, tc = bench_small_ops(torch, 4 * r)
    rows.append(("small-op chain (2,000 ops, fwd+bwd)", mg, "torch", tc, "<= 1.0"))
    mg, tc = bench_mlp(torch, 4 * r)
    rows.append(("MLP 256-512-512-10, batch 256, 10 SGD steps", mg, "torch", tc, "<= 1.1"))
    mg, tc = bench_long_chain(torch, r)  # (a few seconds per run, but fewer runs gave ratios 1.1 to 1.6)
    rows.append(("100,000-op chain (fwd+bwd)", mg, "torch", tc, "<= 1.0"))
    X, y = moons()
    mg, mc = best_of(max(1, r // 2), lambda: minigrad_train(X, y), lambda: micrograd_train(X, y))
    rows.append(("MLP(2,[16,16,1]) on 100 moons, 10 steps", mg, "micrograd", mc, ">= 100x faster"))
    held, saved = bench_memory()

    lines = ["| benchmark | minigrad | compared with | ratio | target |", "|---|---|---|---|---|"]
    for name, a, other, b, target in rows:
        ratio = a / b
        shown = f"{1 / ratio:.0f}x faster" if other == "micrograd" else f"{ratio:.2f}"
        lines.append(f"| {name} | {a * 1e3:.1f} ms | {other} {b * 1e3:.1f} ms | {shown} | {target} |")
    lines.append(f"| memory held after backward (20 saved MB) | {held / 2**20:.2f} MB | saved "
                 f"{saved / 2**20:.1f} MB | {held / saved:.1%} | <= 5% |")
    deep_mc = deepest_micrograd()
    deep_mg = deepest_minigrad(100_000 if args.quick else 1_000_000)
    lines.append(f"| deepest chain that backward handles | {deep_mg:,}+ ops | micrograd about {deep_mc:,} ops "
                 f"(RecursionError, limit {sys.getrecursionlimit():,}) | | no RecursionError |")
    import platform
    lines.append("")
    lines.append(f"Measured by `make bench` on {platform.machine()}, {platform.python_version()}, numpy "
                 f"{np.__version__}, torch {torch.__version__} (CPU, {torch.get_num_threads()} threads), best of "
                 f"{4 * r} interleaved runs ({r} for the 100,000-op chain, {max(1, r // 2)} against micrograd).")
    table = "\n".join(lines)
    print(table)
    if args.readme:
        text = open(args.readme, encoding="utf-8").read()
        text = re.sub(r"<!-- bench:start -->.*<!-- bench:end -->",
                      "<!-- bench:start -->\n" + table + "\n<!-- bench:end -->", text, flags=re.S)
        open(args.readme, "w", encoding="utf-8").write(text)


if __name__ == "__main__":
    main()
