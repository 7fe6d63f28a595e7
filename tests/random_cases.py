"""Random draws after a seed, run on torch and on minigrad: the same numbers (tests/test_random.py).

Each case is a program of a few lines that leaves its draws in ``out`` (a list of tensors).  The
cases run one after another on one generator state per case (each starts with a seed), so what a
draw leaves behind (Box-Muller's kept sine) counts too.
"""
import importlib

import numpy as np

CASES = {
    "rand float32 and float64": "T.manual_seed(0); out = [T.rand(3), T.rand(2, dtype=T.float64), T.rand(2, 3, 4)]",
    "randn below 16 (pairs, the sine kept)": "T.manual_seed(0); out = [T.randn(3), T.randn(5), T.randn(1), T.randn(2, 2)]",
    "randn of 16 and more": "T.manual_seed(0); out = [T.randn(16), T.randn(20), T.randn(4, 5)]",
    "randn float64": "T.manual_seed(1); out = [T.randn(33, dtype=T.float64), T.randn(3, dtype=T.float64)]",
    "randint and randperm": "T.manual_seed(0); out = [T.randint(0, 10, (5,)), T.randint(5, (2, 2)), T.randperm(7), "
                            "T.randint(-3, 2**33, (3,)), T.randint(3, 10, size=(4,)), T.randperm(1)]",
    "normal": "T.manual_seed(0); out = [T.normal(2., 3., size=(4,)), T.normal(T.zeros(20), T.ones(20) * 2), "
              "T.normal(T.tensor([1., 2.]), 0.5)]",
    "nn.Linear's initial weights": "T.manual_seed(0); l = T.nn.Linear(4, 3); m = T.nn.Linear(20, 10); "
                                   "out = [l.weight, l.bias, m.weight, m.bias]",
    "nn.init": "T.manual_seed(0); w = T.empty(3, 5); out = [T.nn.init.xavier_uniform_(w).clone(), "
               "T.nn.init.kaiming_uniform_(w).clone(), T.nn.init.normal_(w, 0, 0.02).clone(), "
               "T.nn.init.kaiming_normal_(w).clone(), T.nn.init.uniform_(T.empty(2, dtype=T.float64), -1, 1)]",
    "uniform_ normal_ exponential_": "T.manual_seed(0); out = [T.empty(4).uniform_(-2, 3), "
                                     "T.empty(3, dtype=T.float64).uniform_(), T.empty(18).normal_(1, 2), "
                                     "T.empty(5).exponential_(), T.empty(3, dtype=T.float64).exponential_(2.)]",
    "a Generator of its own, multinomial (makemore)":
        "g = T.Generator().manual_seed(2147483647); p = T.rand(3, generator=g); p = p / p.sum(); "
        "out = [p, T.multinomial(p, num_samples=20, replacement=True, generator=g), "
        "T.multinomial(p, num_samples=1, replacement=True, generator=g), T.multinomial(p, 2, generator=g), "
        "T.multinomial(T.tensor([[0.1, 0.5, 0.4], [0.9, 0.05, 0.05]]), 1, generator=g), "
        "T.randn((27, 27), generator=g)]",
    "randint for batches": "T.manual_seed(3); out = [T.randint(0, 27, (32,)), T.randint(0, 1000, (4, 8))]",
    "the default seed of a fresh generator": "g = T.Generator(); out = [T.rand(4, generator=g), T.randn(3, generator=g)]",
    "DataLoader(shuffle=True) and random_split": (
        "ds = data.TensorDataset(T.arange(10)); T.manual_seed(0); "
        "out = [b[0] for b in data.DataLoader(ds, batch_size=4, shuffle=True)] + [T.rand(2)] + "
        "[b[0] for b in data.DataLoader(ds, batch_size=5, shuffle=True, drop_last=True)]; "
        "g = T.Generator().manual_seed(5); "
        "out += [b[0] for b in data.DataLoader(ds, batch_size=4, shuffle=True, generator=g)] + [T.rand(1, generator=g)]; "
        "out += [b[0] for b in data.DataLoader(ds, batch_size=4)] + [T.rand(1)]; "
        "out += [T.tensor(s.indices) for s in data.random_split(ds, [7, 3])]"),
}


def run(T, case):
    env = {"T": T, "np": np, "data": importlib.import_module(T.__name__ + ".utils.data")}
    exec(CASES[case], env)
    return [t.detach().numpy().tolist() if t.dtype.is_floating_point else t.tolist() for t in env["out"]]
