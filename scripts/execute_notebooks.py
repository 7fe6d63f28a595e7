"""Execute notebooks in place from a fresh kernel and save their outputs (`make notebooks`).

Cells tagged `raises-exception` may fail (their error is the point); any other error stops.
Timing metadata is not recorded, so re-running an unchanged notebook gives an identical file.
"""
import os
import subprocess
import sys
import time

import nbformat
from nbclient import NotebookClient


def execute(path):
    nb = nbformat.read(path, as_version=4)
    client = NotebookClient(nb, timeout=300, kernel_name="python3", record_timing=False,
                            resources={"metadata": {"path": os.path.dirname(os.path.abspath(path))}})
    start = time.perf_counter()
    client.execute()
    for cell in nb.cells:  # keep the files small and stable
        cell.get("metadata", {}).pop("execution", None)
    # a BackwardStepper opened without running shows its static picture, not dead buttons
    from minigrad.viz.stepper import forget_widget_state
    forget_widget_state(nb)
    nbformat.write(nb, path)
    return time.perf_counter() - start


def main(paths):
    total = 0.0
    for p in paths:
        seconds = execute(p)
        total += seconds
        print(f"executed {p} in {seconds:.1f} s")
    print(f"all {len(paths)} notebooks in {total:.1f} s")
    subprocess.run([os.path.join(os.path.dirname(sys.executable), "jupyter"), "trust", *paths],
                   check=False, capture_output=True)


if __name__ == "__main__":
    main(sys.argv[1:])
