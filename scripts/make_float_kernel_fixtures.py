"""Record PyTorch's results for ``tests/float_kernels.py`` into ``tests/fixtures/float_kernels.json`` (needs torch):
each as the hex of its bytes, so that the test compares bit for bit."""
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "tests"))

import torch  # noqa: E402

import float_kernels  # noqa: E402


def main():
    out = {f"{name}/{dtype}": float_kernels.run(torch, name, dtype).tobytes().hex()
           for name in float_kernels.CASES for dtype in float_kernels.DTYPES}
    path = os.path.join(HERE, "..", "tests", "fixtures", "float_kernels.json")
    with open(path, "w") as f:
        json.dump({"torch": torch.__version__, "results": out}, f, indent=0)
        f.write("\n")
    print(f"wrote {len(out)} cases to {path}")


if __name__ == "__main__":
    main()
