"""Notebook 07's checks and helpers: the notebook's answers pass, a missing answer fails without a
traceback, ``im2col``/``col2im`` are PyTorch's unfold and fold, the digits are the 1,797 images of
the UCI set, and the stage 7 reference passes its check. (The planted wrong answers of
``tests/planted/nb07.py`` run in ``test_planted.py`` and ``test_hints.py``.)"""
import json
import pathlib

import numpy as np
import pytest

import minigrad
import minigrad.nn.functional as F
from minigrad_course.exercises import nb07
from minigrad_course.scratch import stage6, stage7
from planted import nb07 as planted_nb07

ROOT = pathlib.Path(__file__).resolve().parents[1]


def _defined(code, name):
    namespace = {"__name__": "__test__"}
    exec(compile(code, f"<answer {name}>", "exec"), namespace)
    return namespace[name]


ANSWERS = [(nb07.check_embedding, planted_nb07.EMBEDDING, "Embedding"),
           (nb07.check_batch_norm, planted_nb07.BATCH_NORM, "BatchNorm"),
           (nb07.check_max_pool, planted_nb07.MAX_POOL, "MaxPool"),
           (nb07.check_conv2d, planted_nb07.CONV, "Conv2d")]


@pytest.mark.parametrize("check,code,name", ANSWERS, ids=[a[2] for a in ANSWERS])
def test_the_notebooks_answer_passes(check, code, name):
    report = check(_defined(code, name))
    assert report.ok, report.text


def test_the_planted_answers_are_the_notebooks():
    """tests/planted/nb07.py plants its mistakes in the notebook's own answers."""
    cells = json.loads((ROOT / "notebooks" / "07_layers_are_functions.ipynb").read_text())["cells"]
    solutions = ["".join(c["source"]) for c in cells if c.get("metadata", {}).get("nbgrader", {}).get("solution")]
    for _, code, name in ANSWERS:
        body = code.split(f"class {name}(Function):", 1)[1]
        cell = next(s for s in solutions if s.startswith(f"class {name}(Function):"))
        answer = "\n".join(line for line in cell.splitlines() if "### " not in line)
        assert "".join(body.split()) == "".join(answer.split(f"class {name}(Function):", 1)[1].split()), name


@pytest.mark.parametrize("check,code,name", ANSWERS, ids=[a[2] for a in ANSWERS])
def test_a_missing_answer_says_not_written_yet(check, code, name):
    blank = code.replace("    def backward(ctx, grad_output):\n", "    def backward(ctx, grad_output):\n"
                                                                    "        raise NotImplementedError()\n")
    report = check(_defined(blank, name))
    assert not report.ok and "not written yet" in report.text, report.text


def test_im2col_is_unfold_and_col2im_is_fold():
    x = minigrad.randn(2, 3, 5, 6, dtype=minigrad.float64)
    cols = nb07.im2col(x, 3)
    assert cols.shape == (2, 27, 12)
    assert np.array_equal(cols.numpy(), F.unfold(x, 3).numpy())
    c = minigrad.randn(2, 27, 12, dtype=minigrad.float64)
    assert np.allclose(nb07.col2im(c, x.shape, 3).numpy(), F.fold(c, (5, 6), 3).numpy())
    # col2im is the transpose of im2col: <im2col(x), c> = <x, col2im(c)>
    assert np.isclose((cols * c).sum().item(), (x * nb07.col2im(c, x.shape, 3)).sum().item())


def test_the_conv_answer_is_conv2d():
    Conv2d = _defined(planted_nb07.CONV, "Conv2d")
    x = minigrad.randn(2, 3, 6, 5, dtype=minigrad.float64, requires_grad=True)
    w = minigrad.randn(4, 3, 3, 3, dtype=minigrad.float64, requires_grad=True)
    g = minigrad.randn(2, 4, 4, 3, dtype=minigrad.float64)
    mine = minigrad.autograd.grad(Conv2d.apply(x, w), (x, w), g)
    theirs = minigrad.autograd.grad(F.conv2d(x, w), (x, w), g)
    assert np.allclose(Conv2d.apply(x, w).detach().numpy(), F.conv2d(x, w).detach().numpy())
    for a, b in zip(mine, theirs):
        assert np.allclose(a.numpy(), b.numpy())


def test_the_max_pool_answer_is_max_pool2d_on_ties_too():
    MaxPool = _defined(planted_nb07.MAX_POOL, "MaxPool")
    x = minigrad.tensor(np.random.default_rng(3).integers(0, 3, (2, 2, 4, 6)).astype(np.float64), requires_grad=True)
    mine = minigrad.autograd.grad(MaxPool.apply(x).sum(), x)[0]
    theirs = minigrad.autograd.grad(F.max_pool2d(x, 2).sum(), x)[0]
    assert np.array_equal(mine.numpy(), theirs.numpy())


def test_the_digits():
    images, labels = nb07.load_digits()
    assert images.shape == (1797, 1, 8, 8) and images.dtype == np.float32
    assert labels.shape == (1797,) and labels.dtype == np.int64
    assert images.min() == 0 and images.max() == 1
    assert np.bincount(labels).tolist() == [178, 182, 177, 183, 181, 182, 181, 179, 174, 180]
    assert (images[0, 0, 0] * 16).tolist() == [0, 0, 5, 13, 9, 1, 0, 0]   # sklearn's digits.images[0][0]
    licence = (ROOT / "minigrad_course" / "data" / "LICENSE.md").read_text()
    assert "CC BY 4.0" in licence and "Alpaydin" in licence


def test_the_split():
    x_train, y_train, x_test, y_test = nb07.digits_split()
    assert len(y_train) == 1500 and len(y_test) == 297
    counts = np.bincount(y_train, minlength=10) + np.bincount(y_test, minlength=10)
    assert counts.tolist() == np.bincount(nb07.load_digits()[1]).tolist()


def test_stage7_reference_passes_and_stage6_does_not():
    assert nb07.check_stage7(stage7).ok
    report = nb07.check_stage7(stage6)
    assert not report.ok and "embedding" in report.text


def test_the_cnn_trains_as_pytorch_recorded_it():
    """Notebook 07's CNN (conv, batch norm, relu, max pool, linear) from the same weights and batches:
    minigrad's losses lie on PyTorch's recorded ones, and both classify the test digits alike."""
    losses, accuracy = nb07.train_cnn(minigrad)
    pytorch = json.loads(pathlib.Path(nb07.CNN_PYTORCH).read_text())
    assert len(losses) == len(pytorch["losses"]) == 60
    assert max(abs(a - b) for a, b in zip(losses, pytorch["losses"])) < 1e-4
    assert losses[-1] < losses[0] / 10
    assert abs(accuracy - pytorch["accuracy"]) <= 2 / 297 and accuracy > 0.95


@pytest.mark.parametrize("check,code,name", ANSWERS, ids=[a[2] for a in ANSWERS])
def test_an_answer_that_is_no_function_fails_without_a_traceback(check, code, name):
    for answer in (None, 3, lambda x: x):
        report = check(answer)
        assert not report.ok and "should be a Function class" in report.text, report.text
