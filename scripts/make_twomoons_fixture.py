"""Record PyTorch's training of notebook 05b's two-moons network, for the comparison with the student's
engine (``build.check_stage5b`` and notebook 05b, which then run without torch):
``minigrad_course/data/two_moons_pytorch.json``.

    PYTHONPATH=$PWD .venv/bin/python scripts/make_twomoons_fixture.py

The record holds the 200 points of notebook 05b's ``make_moons(200, noise=0.2, seed=1)`` (float32 values,
stored as float64), their classes, PyTorch's own initial weights of the network (``torch.manual_seed(0)``,
``nn.Linear``'s default initialisation, in ``parameters()`` order), the learning rate and the number of
full-batch SGD steps, and the float64 loss of every step, as ``build.train_two_moons(torch, record)`` gives it.
"""
import json

import numpy as np
import torch

from minigrad_course.exercises import build

LR, STEPS = 0.3, 300   # a learning rate where the loss falls at every step (0.5 has a bumpy phase where
                      # rounding differences of 1e-16 grow past 1e-6)


def make_moons(n, noise, seed):
    """Notebook 05b's recipe (section 5): n points on two interleaved half circles, float32, and their classes."""
    rng = np.random.default_rng(seed)
    label = rng.integers(0, 2, n)
    angle = rng.uniform(0, np.pi, n)
    x = np.where(label == 0, np.cos(angle), 1 - np.cos(angle))
    y = np.where(label == 0, np.sin(angle), 0.5 - np.sin(angle))
    points = np.stack([x, y], axis=1) + noise * rng.normal(size=(n, 2))
    return points.astype(np.float32), label


def main():
    points, labels = make_moons(200, noise=0.2, seed=1)
    torch.manual_seed(0)
    init = [p.detach().double().tolist() for p in build.make_mlp(torch).parameters()]
    record = {"torch": torch.__version__, "program": "minigrad_course.exercises.build.train_two_moons(torch, record)",
              "points": points.astype(np.float64).tolist(), "labels": labels.tolist(),
              "init": init, "lr": LR, "steps": STEPS}
    record["losses"] = build.train_two_moons(torch, record)
    with open(build.TWO_MOONS, "w") as f:
        json.dump(record, f)
        f.write("\n")
    print(f"{STEPS} steps, loss {record['losses'][0]:.6f} -> {record['losses'][-1]:.6f}")


if __name__ == "__main__":
    main()
