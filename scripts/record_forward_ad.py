"""Record PyTorch's forward-mode run of notebook 02's example (``nb02.pytorch_forward_ad(torch)``), which the
notebook shows beside the student's dual numbers without needing torch:
``minigrad_course/data/forward_ad_pytorch.json``.

    PYTHONPATH=$PWD .venv/bin/python scripts/record_forward_ad.py
"""
import json
import pathlib

import torch

from minigrad_course.exercises import nb02


def main():
    values, tangents = nb02.pytorch_forward_ad(torch)
    record = {"torch": torch.__version__, "program": "minigrad_course.exercises.nb02.pytorch_forward_ad(torch)",
              "x": nb02.EXAMPLE_X, "u": nb02.EXAMPLE_U, "values": values, "tangents": tangents}
    pathlib.Path(nb02.FORWARD_AD_PYTORCH).write_text(json.dumps(record, indent=1) + "\n")
    print(f"f(x) = {values}, J u = {tangents}")


if __name__ == "__main__":
    main()
