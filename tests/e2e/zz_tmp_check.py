import json
from pathlib import Path
from test_lab import check_notebook, Expect

SRC = '''import minigrad as torch
from minigrad.viz import BackwardStepper, draw
x = torch.tensor([1., -2., 3.], requires_grad=True)
w = torch.tensor([0.5, 0.5, 0.5], requires_grad=True)
loss = (x * w).relu().sum()
stepper = BackwardStepper(loss)
stepper'''

def test_real_stepper(tab, lab, served_dir, tmp_path):
    nb = {"cells": [{"cell_type": "code", "metadata": {}, "source": SRC, "execution_count": None, "outputs": []},
                    {"cell_type": "code", "metadata": {}, "source": "draw(loss)", "execution_count": None, "outputs": []}],
          "metadata": {"kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"}},
          "nbformat": 4, "nbformat_minor": 5}
    (Path(served_dir) / "real_stepper.ipynb").write_text(json.dumps(nb))
    check_notebook(tab, lab, "real_stepper.ipynb", Expect(labels=("SumBackward0", "AccumulateGrad"), stepper=True), tmp_path)
