"""Record PyTorch's run of notebook 07's CNN (``nb07.train_cnn(torch)``) for the notebook, which shows it
beside minigrad's without needing torch: ``minigrad_course/data/digits_cnn_pytorch.json``.

    PYTHONPATH=$PWD .venv/bin/python scripts/record_digits_cnn.py
"""
import json

import torch

from minigrad_course.exercises import nb07


def main():
    torch.manual_seed(0)     # nothing here draws from torch's generator; set for good measure
    losses, accuracy = nb07.train_cnn(torch)
    record = {"torch": torch.__version__, "program": "minigrad_course.exercises.nb07.train_cnn(torch)",
              "losses": [round(x, 7) for x in losses], "accuracy": accuracy}
    with open(nb07.CNN_PYTORCH, "w") as f:
        json.dump(record, f, indent=1)
        f.write("\n")
    print(f"{len(losses)} steps, loss {losses[0]:.4f} -> {losses[-1]:.4f}, test accuracy {accuracy:.4f}")


if __name__ == "__main__":
    main()
