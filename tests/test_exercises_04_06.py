"""The exercise checks of notebooks 04-06: the reference solutions pass, typical mistakes fail with
specific feedback, and an unwritten exercise says "not written yet"."""
import heapq

import numpy as np
import pytest

import minigrad
from minigrad import nn, optim
from minigrad.autograd import AccumulateGrad, Function
from minigrad_course.exercises import build, nb04, nb04b, nb05, nb06
from minigrad_course.scratch import stage5, stage5b
from planted import nb05 as planted_nb05
from seed_programs import MMFunction


def failed(report, *needles):
    """The report failed, and its text has every needle in it."""
    text = report.text
    assert not report, text
    assert text.startswith("FAILED"), text
    for needle in needles:
        assert needle in text, f"{needle!r} not in:\n{text}"
    return text


def later_hints(report):
    """The hint tiers that hint() shows after the first one (the first never gives the answer)."""
    return "\n".join(report.more)


def has_expected_got(text):
    assert "expected:" in text and "got:" in text, text


# ============================================================================ notebook 04
def make_mm(backward):
    class MMFunction(Function):
        @staticmethod
        def forward(ctx, input, weight):
            ctx.save_for_backward(input, weight)
            return input.mm(weight.t())

    MMFunction.backward = staticmethod(backward)
    return MMFunction


mm_reference = MMFunction.backward  # the seed's backward, shared with the other tests


def test_mm_reference_passes():
    report = nb04.check_mm_backward(make_mm(mm_reference))
    assert report, report.text
    assert report.text.startswith("PASSED")


def test_mm_also_passes_without_needs_input_grad():
    def backward(ctx, g):
        x, w = ctx.saved_tensors
        return g.mm(w), g.t().mm(x)
    assert nb04.check_mm_backward(make_mm(backward))


def test_mm_not_written_yet():
    def backward(ctx, g):
        raise NotImplementedError()
    failed(nb04.check_mm_backward(make_mm(backward)), "not written yet")


def test_mm_gradcheck_runs_at_the_end():
    report = nb04.check_mm_backward(make_mm(mm_reference))
    assert "gradcheck passes" in report.text


def test_mm_one_gradient_only():
    def backward(ctx, g):
        x, w = ctx.saved_tensors
        return g.mm(w)
    failed(nb04.check_mm_backward(make_mm(backward)), "incorrect number of gradients (expected 2, got 1)",
           "Hint:", "one value per argument of forward (input, weight)")


def test_mm_weight_gradient_transposed():
    def backward(ctx, g):
        x, w = ctx.saved_tensors
        return g.mm(w), x.t().mm(g)  # D x M instead of M x D
    report = nb04.check_mm_backward(make_mm(backward))
    text = failed(report, "invalid gradient at index 1", "must have weight's shape")
    assert "G^T x" not in text and "G^T x" in later_hints(report)


def test_mm_transposed_weight_in_square_case():
    def backward(ctx, g):
        x, w = ctx.saved_tensors
        gw = g.t().mm(x)
        if g.shape[1] == x.shape[1]:  # square case only: the shapes cannot give it away
            return g.mm(w.t()), gw
        return g.mm(w), gw
    text = failed(nb04.check_mm_backward(make_mm(backward)), "wrong gradient for input", "square",
                  "you transposed the weight")
    has_expected_got(text)


def test_mm_ignores_grad_output():
    def backward(ctx, g):
        x, w = ctx.saved_tensors
        ones = minigrad.ones_like(g)
        return ones.mm(w), ones.t().mm(x)
    text = failed(nb04.check_mm_backward(make_mm(backward)), "wrong gradient for input", "all ones")
    has_expected_got(text)


def test_mm_unbound_when_only_weight_needs_grad():
    def backward(ctx, g):
        x, w = ctx.saved_tensors
        if ctx.needs_input_grad[0]:
            gi = g.mm(w)
        if ctx.needs_input_grad[1]:
            gw = g.t().mm(x)
        return gi, gw
    report = nb04.check_mm_backward(make_mm(backward))
    failed(report, "UnboundLocalError", "never assigned")
    assert "the value None before the two `if`s" in later_hints(report)


def test_mm_none_when_gradient_needed():
    def backward(ctx, g):
        x, w = ctx.saved_tensors
        return None, g.t().mm(x)
    report = nb04.check_mm_backward(make_mm(backward))
    text = failed(report, "returned None for input", "ctx.needs_input_grad[0] is True here")
    assert "the product G W" not in text and "the product G W" in later_hints(report)


def test_mm_not_a_class():
    failed(nb04.check_mm_backward(mm_reference), "subclass of minigrad.autograd.Function")


class TanhReference(Function):
    @staticmethod
    def forward(ctx, x):
        y = x.tanh()
        ctx.save_for_backward(y)
        return y

    @staticmethod
    def backward(ctx, grad_output):
        y, = ctx.saved_tensors
        return grad_output * (1 - y * y)


def make_tanh(backward, save="output"):
    class Tanh(Function):
        @staticmethod
        def forward(ctx, x):
            y = x.tanh()
            ctx.save_for_backward(y if save == "output" else x)
            return y
    Tanh.backward = staticmethod(backward)
    return Tanh


def test_tanh_reference_passes():
    report = nb04.check_tanh_function(TanhReference)
    assert report, report.text
    assert "gradcheck passes" in report.text


def test_tanh_saving_the_input_also_passes():
    def backward(ctx, g):
        x, = ctx.saved_tensors
        return g * (1 - x.tanh() ** 2)
    assert nb04.check_tanh_function(make_tanh(backward, save="input"))


def test_tanh_not_written_yet():
    class Tanh(Function):
        @staticmethod
        def forward(ctx, x):
            raise NotImplementedError()

        @staticmethod
        def backward(ctx, g):
            raise NotImplementedError()
    failed(nb04.check_tanh_function(Tanh), "not written yet")


def test_tanh_backward_not_written_yet():
    def backward(ctx, g):
        raise NotImplementedError()
    failed(nb04.check_tanh_function(make_tanh(backward)), "not written yet")


def test_tanh_uses_x_instead_of_tanh_x():
    def backward(ctx, g):
        x, = ctx.saved_tensors
        return g * (1 - x * x)
    report = nb04.check_tanh_function(make_tanh(backward, save="input"))
    text = failed(report, "wrong gradient", "you used x where the derivative needs tanh(x)")
    assert "1 - tanh(x)**2, not 1 - x**2" in later_hints(report)
    has_expected_got(text)


def test_tanh_forgets_grad_output():
    def backward(ctx, g):
        y, = ctx.saved_tensors
        return 1 - y * y
    text = failed(nb04.check_tanh_function(make_tanh(backward)), "wrong gradient", "multiplies it by grad_output")
    has_expected_got(text)


def test_tanh_forgets_the_square():
    def backward(ctx, g):
        y, = ctx.saved_tensors
        return g * (1 - y)
    report = nb04.check_tanh_function(make_tanh(backward))
    failed(report, "one power is missing")
    assert "1 - tanh(x)**2" in later_hints(report)


def test_tanh_two_gradients():
    def backward(ctx, g):
        y, = ctx.saved_tensors
        return g * (1 - y * y), g
    failed(nb04.check_tanh_function(make_tanh(backward)), "incorrect number of gradients", "exactly one gradient")


def test_tanh_wrong_forward():
    class Tanh(TanhReference):
        @staticmethod
        def forward(ctx, x):
            y = x.sigmoid()
            ctx.save_for_backward(y)
            return y
    text = failed(nb04.check_tanh_function(Tanh), "wrong forward output", "tanh of its input")
    has_expected_got(text)


def test_nb04_predictions():
    assert nb04.check_q_needs("b") and nb04.check_q_needs(" B ")
    report = nb04.check_q_needs("a")
    failed(report, "is not it", "Hint:", "being a tensor is not enough")
    assert "one entry per argument" in later_hints(report)
    failed(nb04.check_q_needs("e"), "should be one of")
    # PyTorch's gradcheck calls backward 10 times for a 4-element Function (tests/test_gradcheck.py)
    assert nb04.check_q_backward_calls(10) and nb04.check_q_backward_calls(10.0)
    report = nb04.check_q_backward_calls(4)
    failed(report, "is not it", "Hint:", "builds it twice")
    assert "two zero checks" in later_hints(report)
    failed(nb04.check_q_backward_calls(7), "is not it", "Hint:", "how many columns")


def _pytorch_too(program, recorded):
    """``program(minigrad)`` gives ``recorded`` (PyTorch 2.13's result); so does ``program(torch)``
    when torch imports."""
    assert program(minigrad) == recorded
    try:
        import torch
    except ImportError:
        return
    assert program(torch) == recorded


def test_what_notebook_04_says_about_pytorch():
    """After exercise 1: its two methods run unchanged in PyTorch, put in a class with type(...).
    Exercise 2's note: a saved output comes back as a new tensor with the output's values; a saved
    input is the input itself."""
    def program(torch):
        methods = {"forward": staticmethod(MMFunction.forward), "backward": staticmethod(MMFunction.backward)}
        Torch = type("MMFunction", (torch.autograd.Function,), methods)
        x = torch.linspace(-1, 1, 6, dtype=torch.float64).reshape(3, 2).requires_grad_()
        w = torch.linspace(0, 2, 8, dtype=torch.float64).reshape(4, 2).requires_grad_()

        class Exp(torch.autograd.Function):
            @staticmethod
            def forward(ctx, t):
                y = t.exp()
                ctx.save_for_backward(t, y)
                return y

            @staticmethod
            def backward(ctx, grad_output):
                t, y = ctx.saved_tensors
                return grad_output * y

        t = torch.ones(2, requires_grad=True)
        y = Exp.apply(t)
        saved_t, saved_y = y.grad_fn.saved_tensors
        return torch.autograd.gradcheck(Torch.apply, (x, w)), saved_t is t, saved_y is y, torch.equal(saved_y, y)

    _pytorch_too(program, (True, True, False, True))


# ============================================================================ notebook 04b
class ScaleReference(Function):
    @staticmethod
    def forward(ctx, x, factor):
        ctx.factor = factor
        return x * factor

    @staticmethod
    def backward(ctx, grad_output):
        return grad_output * ctx.factor, None


def make_scale(backward=None, forward=None):
    body = {}
    if backward is not None:
        body["backward"] = staticmethod(backward)
    if forward is not None:
        body["forward"] = staticmethod(forward)
    return type("Scale", (ScaleReference,), body)


def test_scale_reference():
    report = nb04b.check_scale(ScaleReference)
    assert report, report.text
    assert report.text.startswith("PASSED") and "gradcheck passes" in report.text


def test_scale_one_gradient_only():
    report = nb04b.check_scale(make_scale(lambda ctx, g: g * ctx.factor))
    text = failed(report, "incorrect number of gradients (expected 2, got 1)", "two values")
    assert "None" not in text.split("Hint:")[1] and "then None for factor" in later_hints(report)


def test_scale_gradient_for_the_number():
    report = nb04b.check_scale(make_scale(lambda ctx, g: (g * ctx.factor, g.sum())))
    failed(report, "different than None at position 2", "plain Python number")
    assert "None for factor" in later_hints(report)


def test_scale_number_in_save_for_backward():
    def forward(ctx, x, factor):
        ctx.save_for_backward(x, factor)
        return x * factor
    report = nb04b.check_scale(make_scale(forward=forward))
    failed(report, "save_for_backward keeps tensors only")
    assert "attribute of ctx" in later_hints(report)


def test_scale_forgets_the_factor():
    report = nb04b.check_scale(make_scale(lambda ctx, g: (g, None)))
    text = failed(report, "wrong gradient for x", "local derivative of x * factor is missing")
    has_expected_got(text)
    assert "multiplies that local derivative by grad_output" in later_hints(report)


def test_scale_divides():
    failed(nb04b.check_scale(make_scale(lambda ctx, g: (g / ctx.factor, None))), "you divided by factor")


def test_scale_not_written_and_not_a_class():
    def backward(ctx, g):
        raise NotImplementedError()
    failed(nb04b.check_scale(make_scale(backward)), "not written yet")
    failed(nb04b.check_scale(ScaleReference.apply), "subclass of minigrad.autograd.Function")


class MulReference(Function):
    @staticmethod
    def forward(ctx, a, b):
        need_a, need_b = ctx.needs_input_grad
        ctx.save_for_backward(a if need_b else None, b if need_a else None)
        return a * b

    @staticmethod
    def backward(ctx, grad_output):
        a, b = ctx.saved_tensors
        grad_a = grad_output * b if ctx.needs_input_grad[0] else None
        grad_b = grad_output * a if ctx.needs_input_grad[1] else None
        return grad_a, grad_b


def make_mul(backward=None, forward=None):
    body = {}
    if backward is not None:
        body["backward"] = staticmethod(backward)
    if forward is not None:
        body["forward"] = staticmethod(forward)
    return type("Mul", (MulReference,), body)


def test_mul_reference():
    report = nb04b.check_mul(MulReference)
    assert report, report.text
    assert "kept only the tensors" in report.text


def test_mul_saves_everything():
    def forward(ctx, a, b):
        ctx.save_for_backward(a, b)
        return a * b
    report = nb04b.check_mul(make_mul(forward=forward))
    text = failed(report, "forward saved a, which no wanted gradient needs", "only a requires grad")
    assert "can be read in forward" not in text and "can be read in forward" in later_hints(report)


def test_mul_saves_the_wrong_one():
    def forward(ctx, a, b):
        need_a, need_b = ctx.needs_input_grad
        ctx.save_for_backward(a if need_a else None, b if need_b else None)
        return a * b
    failed(nb04b.check_mul(make_mul(forward=forward)), "did not save b", "the gradient of a needs it")


def test_mul_computes_an_unwanted_gradient():
    def backward(ctx, g):
        a, b = ctx.saved_tensors
        return (g * b if b is not None else None), (g * a if a is not None else g * 2)   # always one for b
    text = failed(nb04b.check_mul(make_mul(backward)), "computed a gradient for b, which does not require grad",
                  "only a requires grad")
    assert "needs_input_grad" in text


def test_mul_swapped_formula():
    def forward(ctx, a, b):
        ctx.save_for_backward(a, b)
        return a * b

    def backward(ctx, g):
        a, b = ctx.saved_tensors
        return (g * a if ctx.needs_input_grad[0] else None), (g * b if ctx.needs_input_grad[1] else None)
    report = nb04b.check_mul(make_mul(backward, forward))
    text = failed(report, "wrong gradient for a", "both require grad", "made of the other input")
    has_expected_got(text)


def test_nb04b_prediction():
    assert nb04b.check_q_mm_saves("b")
    report = nb04b.check_q_mm_saves("a")
    failed(report, "is not it", "Mm does not always save both inputs")
    assert "Which tensor is that gradient made of?" in later_hints(report) and "a^T G" in later_hints(report)
    failed(nb04b.check_q_mm_saves("c"), "is not it", "made of the other factor")


def test_what_notebook_04b_says_about_pytorch():
    """Section 1: a Function applied inside a backward (without create_graph) records nothing.
    Section 2: a built-in node that gets no gradient still unpacks what it saved, so a tensor changed in
    place raises there. Section 3: the gradient that reaches w.t() is laid out like w.t() (column by column)."""
    def program(torch):
        class Cube(torch.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                ctx.save_for_backward(x)
                return x * x * x

            @staticmethod
            def backward(ctx, grad_output):
                x, = ctx.saved_tensors
                return grad_output * 3 * x ** 2

        class Drop(torch.autograd.Function):       # sends no gradient to its input
            @staticmethod
            def forward(ctx, x):
                return x.clone()

            @staticmethod
            def backward(ctx, grad_output):
                return None

        t = torch.ones(3, requires_grad=True)
        inside = []
        t.register_hook(lambda g: inside.append(Cube.apply(t).grad_fn))
        Cube.apply(t).sum().backward()

        a, b = torch.ones(2, requires_grad=True), torch.ones(2, requires_grad=True)
        dropped = Drop.apply(a * b)                  # MulBackward0 saved a and b
        with torch.no_grad():
            a.add_(1)
        try:
            dropped.sum().backward()
            unpacked = "no error"
        except RuntimeError as error:
            unpacked = str(error).split(":")[0]

        x, w = torch.ones(3, 2, requires_grad=True), torch.ones(4, 2, requires_grad=True)
        wt = w.t()
        strides = []
        wt.register_hook(lambda g: strides.append(g.stride()))
        x.mm(wt).sum().backward()
        return inside, unpacked, strides, w.grad.stride()

    _pytorch_too(program, ([None], "one of the variables needed for gradient computation has been modified by an "
                                   "inplace operation", [(1, 2)], (2, 1)))


# ============================================================================ notebook 05
# ---- 05b: stage 5b, the two-moons network on the student's engine ------------------------------------
def my_mlp_file(tmp_path, *changes, tail=""):
    """Stage 5b's reference as a student's my_mlp.py, with each ``(old, new)`` made, loaded like the notebook."""
    src = planted_nb05.my_mlp(*changes) + tail
    (tmp_path / "my_mlp.py").write_text(src)
    return build.load(str(tmp_path / "my_mlp.py"))


def test_nb05_my_mlp_reference_passes_and_the_record_is_pytorchs():
    assert nb05.check_my_mlp(stage5b)
    record = build.two_moons_record()
    assert np.abs(np.subtract(build.train_two_moons(minigrad, record), record["losses"])).max() <= 1e-12
    torch = pytest.importorskip("torch")
    assert np.abs(np.subtract(build.train_two_moons(torch, record), record["losses"])).max() <= 1e-12
    assert record["losses"][0] > 0.6 and record["losses"][-1] < 0.2 and np.all(np.diff(record["losses"]) < 0)


def test_nb05_my_mlp_the_previous_stage_and_a_blank_fail(tmp_path):
    assert "CrossEntropy" in nb05.check_my_mlp(stage5).text
    blank = my_mlp_file(tmp_path, ("        z, y = logits.data, target.data.astype(np.int64)\n",
                                   "        raise NotImplementedError()\n"))
    assert "not written yet" in nb05.check_my_mlp(blank).text


def test_nb05_my_mlp_mistakes(tmp_path):
    report = nb05.check_my_mlp(my_mlp_file(tmp_path, ("return Tensor(g / len(ctx.target) * grad.data), None",
                                                      "return Tensor(g * grad.data), None")))
    assert not report and "4 times too big" in report.text and "(4, 5)" in report.text
    with np.errstate(all="ignore"):
        report = nb05.check_my_mlp(my_mlp_file(tmp_path, ("shifted = z - z.max(axis=1, keepdims=True)", "shifted = z")))
    assert not report and "overflows" in report.text and "thousands" in report.text
    report = nb05.check_my_mlp(my_mlp_file(tmp_path, ("return Tensor(g / len(ctx.target) * grad.data), None",
                                                      "return Tensor(-g / len(ctx.target) * grad.data), None")))
    assert not report and "sign is flipped" in report.text


def test_nb05_my_mlp_a_float32_engine_and_a_wrong_layer_miss_pytorchs_losses(tmp_path):
    float32 = ("\n\nclass Tensor(Tensor):      # every array made float32\n"
               "    def __init__(self, data, requires_grad=False):\n"
               "        super().__init__(np.asarray(data, dtype=np.float32), requires_grad)\n")
    report = nb05.check_my_mlp(my_mlp_file(tmp_path, tail=float32))
    assert not report and "into float32" in report.text
    report = nb05.check_my_mlp(my_mlp_file(tmp_path, ("return grad * Tensor(1 - out.data * out.data)",
                                                      "return grad * Tensor(1 - out.data)")))
    assert not report and "leaves PyTorch's at step 2" in report.text


def kaiming_std(fan_in, nonlinearity):
    return {"relu": 2 ** 0.5, "tanh": 5 / 3, "linear": 1.0}[nonlinearity] / fan_in ** 0.5


def test_nb05_kaiming_std_reference_passes_and_matches_pytorch_init():
    assert nb05.check_kaiming_std(kaiming_std)
    torch = pytest.importorskip("torch")
    for nonlinearity in ("relu", "tanh", "linear"):
        gain = torch.nn.init.calculate_gain(nonlinearity)
        assert abs(kaiming_std(400, nonlinearity) - gain / 20) < 1e-12


def test_nb05_kaiming_std_mistakes():
    assert "not written yet" in nb05.check_kaiming_std(lambda f, n: (_ for _ in ()).throw(NotImplementedError())).text
    assert "gain is missing" in nb05.check_kaiming_std(lambda f, n: 1 / f ** 0.5).text
    assert "relu's value" in nb05.check_kaiming_std(lambda f, n: (2 / f) ** 0.5).text
    assert "variance" in nb05.check_kaiming_std(lambda f, n: kaiming_std(f, n) ** 2).text
    assert "should return a number" in nb05.check_kaiming_std(lambda f, n: "small").text


import json  # noqa: E402  (the hint rules of notebooks 05-06 read the notebooks)
import pathlib  # noqa: E402
import re  # noqa: E402

NOTEBOOKS_05_06 = ("05_module_wrapping", "05b_training", "06_inside_the_engine")


def _solution_lines():
    """The lines a student writes in the exercises of 05, 05b and 06, without spaces: each code line of
    a solution block (and, for ``x = ...`` or ``return ...``, its right-hand side) of 12 characters or
    more, but calls without arguments such as ``loss.backward()``, which only name an API. The
    build-it-yourself files are left out (``tests/test_build.py`` has their checks)."""
    lines = set()
    root = pathlib.Path(__file__).resolve().parents[1] / "notebooks"
    for name in NOTEBOOKS_05_06:
        for cell in json.loads((root / f"{name}.ipynb").read_text())["cells"]:
            text = "".join(cell["source"])
            if text.startswith("%%writefile"):
                continue
            inside = False
            for line in text.splitlines():
                if "### BEGIN SOLUTION" in line or "### END SOLUTION" in line:
                    inside = "BEGIN" in line
                elif inside:
                    code = line.split("  #")[0].strip()
                    for part in [code] + [code.split(sep, 1)[1] for sep in ("return ", " = ") if sep in code]:
                        part = "".join(part.split())
                        if len(part) >= 12 and not re.fullmatch(r"[\w.]+\(\)", part):
                            lines.add(part)
    return sorted(lines)


SOLUTION_LINES = _solution_lines()


def hinted(report, *needles):
    """The report failed with at least two hint tiers (the first in its text, the others for hint()),
    no tier gives a line of the notebooks' solutions, and the needles are in the report or its tiers."""
    assert not report, report.text
    assert report.text.startswith("FAILED"), report.text
    assert "   Hint: " in report.text and report.more, f"fewer than two hint tiers:\n{report.text}"
    tiers = [report.text.split("   Hint: ", 1)[1]] + report.more
    given_away = [line for line in SOLUTION_LINES for tier in tiers if line in "".join(tier.split())]
    assert not given_away, f"a hint tier gives a solution line {given_away}:\n" + "\n".join(tiers)
    everything = "\n".join([report.full_text()] + report.more)
    for needle in needles:
        assert needle in everything, f"{needle!r} not in:\n{everything}"
    return everything


def test_solution_lines_are_found():
    assert "MMFunction.apply(input,self.weight)+self.bias" in SOLUTION_LINES
    assert "ctx.scale=scale" in SOLUTION_LINES and "grad_output*ctx.scale,None" in SOLUTION_LINES
    assert "waiting[nxt]+gifnxtinwaitingelseg" in SOLUTION_LINES and "optimizer.zero_grad()" not in SOLUTION_LINES


class LinearReference(nn.Module):
    def __init__(self, in_features, out_features):
        super().__init__()
        self.weight = nn.Parameter(minigrad.randn(out_features, in_features) * 0.1)
        self.bias = nn.Parameter(minigrad.zeros(out_features))

    def forward(self, input):
        return MMFunction.apply(input, self.weight) + self.bias


def test_linear_reference_passes():
    report = nb05.check_linear(LinearReference)
    assert report, report.text


def test_linear_not_written_yet():
    class MyLinear(nn.Module):
        def __init__(self, in_features, out_features):
            super().__init__()
            raise NotImplementedError()
    hinted(nb05.check_linear(MyLinear), "not written yet")


def test_linear_forward_not_written_yet():
    class MyLinear(LinearReference):
        def forward(self, input):
            raise NotImplementedError()
    hinted(nb05.check_linear(MyLinear), "not written yet")


def test_linear_plain_tensor_bias_is_not_registered():
    class MyLinear(LinearReference):
        def __init__(self, in_features, out_features):
            super().__init__(in_features, out_features)
            del self.bias
            self.bias = minigrad.zeros(out_features, requires_grad=True)
    hinted(nb05.check_linear(MyLinear), "self.bias is a plain tensor", "nn.Parameter")


def test_linear_weight_shape_swapped():
    class MyLinear(LinearReference):
        def __init__(self, in_features, out_features):
            super().__init__(in_features, out_features)
            self.weight = nn.Parameter(minigrad.randn(in_features, out_features))
    text = hinted(nb05.check_linear(MyLinear), "weight of MyLinear(4, 3) has the wrong shape",
                  "(out_features, in_features)")
    has_expected_got(text)


def test_linear_forgets_bias_in_forward():
    class MyLinear(LinearReference):
        def forward(self, input):
            return MMFunction.apply(input, self.weight)
    text = hinted(nb05.check_linear(MyLinear), "wrong output", "you left out the bias")
    has_expected_got(text)


def test_linear_without_mmfunction():
    class MyLinear(LinearReference):
        def forward(self, input):
            return input.mm(self.weight.t()) + self.bias
    hinted(nb05.check_linear(MyLinear), "no MMFunctionBackward", "MMFunction.apply(input, self.weight)")


def test_linear_hard_coded_sizes():
    class MyLinear(LinearReference):
        def __init__(self, in_features, out_features):
            super().__init__(4, 3)
    hinted(nb05.check_linear(MyLinear), "MyLinear(2, 5)", "wrong shape")


def train_reference(model, X, Y, steps, lr):
    optimizer = optim.SGD(model.parameters(), lr=lr)
    loss_fn = nn.MSELoss()
    losses = []
    for _ in range(steps):
        loss = loss_fn(model(X), Y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        losses.append(loss.item())
    return losses


def test_train_reference_passes():
    report = nb05.check_training_loop(train_reference)
    assert report, report.text
    assert "the loss goes down" in report.text


def test_train_zero_grad_at_the_end_also_passes():
    def train(model, X, Y, steps, lr):
        optimizer, loss_fn, losses = optim.SGD(model.parameters(), lr=lr), nn.MSELoss(), []
        for _ in range(steps):
            loss = loss_fn(model(X), Y)
            loss.backward()
            optimizer.step()
            model.zero_grad()
            losses.append(loss.item())
        return losses
    assert nb05.check_training_loop(train)


def test_train_not_written_yet():
    def train(model, X, Y, steps, lr):
        raise NotImplementedError()
    hinted(nb05.check_training_loop(train), "not written yet")


def test_train_without_zero_grad():
    def train(model, X, Y, steps, lr):
        optimizer, loss_fn, losses = optim.SGD(model.parameters(), lr=lr), nn.MSELoss(), []
        for _ in range(steps):
            loss = loss_fn(model(X), Y)
            loss.backward()
            optimizer.step()
            losses.append(loss.item())
        return losses
    report = nb05.check_training_loop(train)
    hinted(report, "the gradients pile up", "backward() adds into .grad")
    has_expected_got(report.text)
    assert "optimizer.zero_grad()" not in report.text  # the fix is a later tier, not the first
    assert "optimizer.zero_grad() once per step" in report.more[-1]


def test_train_zero_grad_between_backward_and_step():
    def train(model, X, Y, steps, lr):
        optimizer, loss_fn, losses = optim.SGD(model.parameters(), lr=lr), nn.MSELoss(), []
        for _ in range(steps):
            loss = loss_fn(model(X), Y)
            loss.backward()
            optimizer.zero_grad()
            optimizer.step()
            losses.append(loss.item())
        return losses
    report = nb05.check_training_loop(train)
    hinted(report, "the parameters did not change", "at the moment optimizer.step() runs")
    assert "zero_grad(), loss.backward(), then" not in report.text  # the answer is only in the last tier
    assert "optimizer.zero_grad(), loss.backward(), then optimizer.step()" in report.more[-1]


def test_train_hard_coded_lr():
    def train(model, X, Y, steps, lr):
        return train_reference(model, X, Y, steps, 0.1)
    text = hinted(nb05.check_training_loop(train), "these are the losses of lr=0.1", "the lr argument is not used")
    has_expected_got(text)


def test_train_hard_coded_to_the_first_hidden_run():
    """A loop tuned to the check's first problem (its lr and steps) fails on the second."""
    def train(model, X, Y, steps, lr):
        return train_reference(model, X, Y, steps, 0.05)
    hinted(nb05.check_training_loop(train), "hidden problem 2", "the lr argument is not used")

    def train(model, X, Y, steps, lr):
        return train_reference(model, X, Y, 12, lr)
    hinted(nb05.check_training_loop(train), "hidden problem 2", "the number of steps is an argument")


def test_train_a_new_optimizer_every_step_also_passes():
    """Plain SGD keeps no state, so an optimizer made inside the loop gives the same steps."""
    def train(model, X, Y, steps, lr):
        loss_fn, losses = nn.MSELoss(), []
        for _ in range(steps):
            optimizer = optim.SGD(model.parameters(), lr=lr)
            loss = loss_fn(model(X), Y)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            losses.append(loss.item())
        return losses
    assert nb05.check_training_loop(train)


def test_train_returns_tensors():
    def train(model, X, Y, steps, lr):
        optimizer, loss_fn, losses = optim.SGD(model.parameters(), lr=lr), nn.MSELoss(), []
        for _ in range(steps):
            loss = loss_fn(model(X), Y)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            losses.append(loss)
        return losses
    # 0-d tensors convert to floats: accepted
    assert nb05.check_training_loop(train)


def test_train_returns_nothing():
    def train(model, X, Y, steps, lr):
        train_reference(model, X, Y, steps, lr)
    hinted(nb05.check_training_loop(train), "should return a list", "NoneType")


def test_train_returns_the_losses_of_one_step():
    def train(model, X, Y, steps, lr):
        return train_reference(model, X, Y, steps, lr)[:1]
    hinted(nb05.check_training_loop(train), "one loss per step", "got a list of 1")


# ---------------------------------------------------------------------------- 05 exercise 2: GradScale
class GradScaleFunction(Function):
    @staticmethod
    def forward(ctx, x, scale):
        ctx.scale = scale
        return x.clone()

    @staticmethod
    def backward(ctx, grad_output):
        return grad_output * ctx.scale, None


def make_grad_scale(forward):
    class GradScale(nn.Module):
        def __init__(self, scale):
            super().__init__()
            self.scale = scale

    GradScale.forward = forward
    return GradScale


def test_grad_scale_reference_passes():
    report = nb05.check_grad_scale(make_grad_scale(lambda self, x: GradScaleFunction.apply(x, self.scale)))
    assert report, report.text


def test_grad_scale_backward_on_the_module_is_never_called():
    """The mistake the exercise is about: a backward method on the module."""
    GradScale = make_grad_scale(lambda self, x: x.clone())
    GradScale.backward = lambda self, grad_output: grad_output * self.scale
    text = hinted(nb05.check_grad_scale(GradScale), "wrong gradient of x", "never called")
    has_expected_got(text)


def test_grad_scale_scales_the_values_too():
    hinted(nb05.check_grad_scale(make_grad_scale(lambda self, x: x * self.scale)), "wrong output", "x.clone()")


def test_grad_scale_returns_the_input_itself():
    hinted(nb05.check_grad_scale(make_grad_scale(lambda self, x: x.detach())), "no grad_fn")


def test_grad_scale_forgets_none_for_scale():
    class OneGradient(GradScaleFunction):
        @staticmethod
        def backward(ctx, grad_output):
            return grad_output * ctx.scale
    text = hinted(nb05.check_grad_scale(make_grad_scale(lambda self, x: OneGradient.apply(x, self.scale))),
                  "incorrect number of gradients", "return None in its place")
    assert "expected 2, got 1" in text


def test_grad_scale_fixed_minus_one():
    class Reverse(GradScaleFunction):
        @staticmethod
        def backward(ctx, grad_output):
            return -grad_output, None
    hinted(nb05.check_grad_scale(make_grad_scale(lambda self, x: Reverse.apply(x, self.scale))),
           "wrong gradient of x", "not a fixed -1")


def test_grad_scale_not_written_yet():
    def forward(self, x):
        raise NotImplementedError()
    hinted(nb05.check_grad_scale(make_grad_scale(forward)), "not written yet")


def test_grad_scale_forward_may_return_x_itself():
    """PyTorch (and minigrad) give an input returned by forward a new node: `return x` works as x.clone()."""
    class Itself(GradScaleFunction):
        @staticmethod
        def forward(ctx, x, scale):
            ctx.scale = scale
            return x
    assert nb05.check_grad_scale(make_grad_scale(lambda self, x: Itself.apply(x, self.scale)))


def test_grad_scale_scale_kept_on_the_class():
    """Right for one layer at a time; two layers in one graph show that the scale is shared."""
    class Shared(GradScaleFunction):
        @staticmethod
        def forward(ctx, x, scale):
            Shared.scale = scale
            return x.clone()

        @staticmethod
        def backward(ctx, grad_output):
            return grad_output * Shared.scale, None
    text = hinted(nb05.check_grad_scale(make_grad_scale(lambda self, x: Shared.apply(x, self.scale))),
                  "both layers scaled the gradient by 3.0", "one shared scale", "keep the scale on ctx")
    has_expected_got(text)


def test_grad_scale_fitted_to_one_shape():
    """A forward that works for the (2, 3) inputs of the first scale only fails on the other shapes."""
    report = nb05.check_grad_scale(make_grad_scale(lambda self, x: GradScaleFunction.apply(x.reshape(2, 3),
                                                                                          self.scale)))
    hinted(report, "GradScale(3.0)", "RuntimeError")


# ============================================================================ notebook 06
def order_reference(root):
    deps, seen, stack = {}, {root}, [root]
    while stack:
        node = stack.pop()
        for nxt, _ in node.next_functions:
            if nxt is None:
                continue
            deps[nxt] = deps.get(nxt, 0) + 1
            if nxt not in seen:
                seen.add(nxt)
                stack.append(nxt)
    order, ready, tie = [], [(-root._sequence_nr, 0, root)], 1
    while ready:
        node = heapq.heappop(ready)[2]
        order.append(node)
        for nxt, _ in node.next_functions:
            if nxt is None:
                continue
            deps[nxt] -= 1
            if deps[nxt] == 0:
                heapq.heappush(ready, (-nxt._sequence_nr, tie, nxt))
                tie += 1
    return order


def order_kahn_fifo(root):
    """Valid but not the engine's tie-breaking."""
    deps, seen, stack = {}, {root}, [root]
    while stack:
        node = stack.pop()
        for nxt, _ in node.next_functions:
            if nxt is not None:
                deps[nxt] = deps.get(nxt, 0) + 1
                if nxt not in seen:
                    seen.add(nxt)
                    stack.append(nxt)
    order, ready = [], [root]
    while ready:
        node = ready.pop(0)
        order.append(node)
        for nxt, _ in reversed(node.next_functions):
            if nxt is not None:
                deps[nxt] -= 1
                if deps[nxt] == 0:
                    ready.append(nxt)
    return order


def order_dfs(root):
    order, seen, stack = [], set(), [root]
    while stack:
        node = stack.pop()
        if node in seen:
            continue
        seen.add(node)
        order.append(node)
        stack.extend(n for n, _ in node.next_functions if n is not None)
    return order


def order_bfs(root):
    order, seen = [root], {root}
    i = 0
    while i < len(order):
        for nxt, _ in order[i].next_functions:
            if nxt is not None and nxt not in seen:
                seen.add(nxt)
                order.append(nxt)
        i += 1
    return order


def test_order_reference_passes_and_matches_the_engine():
    report = nb06.check_execution_order(order_reference)
    assert report, report.text
    assert "exactly the order" in report.text


def test_order_other_valid_order_passes_with_bonus_note():
    report = nb06.check_execution_order(order_kahn_fifo)
    assert report, report.text
    assert "Bonus" in report.text


def test_order_not_written_yet():
    def execution_order(root):
        raise NotImplementedError()
    hinted(nb06.check_execution_order(execution_order), "not written yet")


def test_order_depth_first_fails_on_the_diamond():
    text = hinted(nb06.check_execution_order(order_dfs), "a diamond", "comes before", "sends it a gradient",
                  "h1 = a * b", "count")
    assert "your order:" in text


def test_order_breadth_first_fails_on_unequal_paths():
    hinted(nb06.check_execution_order(order_bfs), "two paths of different lengths", "comes before",
           "MulBackward0 (loss = h4 * h1)")


def test_order_with_none_entries():
    def execution_order(root):
        order = order_reference(root)
        return order + [None]
    hinted(nb06.check_execution_order(execution_order), "None", "skip the (None, 0)")


def test_order_without_leaves():
    def execution_order(root):
        return [n for n in order_reference(root) if not isinstance(n, AccumulateGrad)]
    hinted(nb06.check_execution_order(execution_order), "the AccumulateGrad nodes are missing",
           "AccumulateGrad (leaf a)")


def test_order_not_skipping_none():
    def execution_order(root):
        deps, seen, stack = {}, {root}, [root]
        while stack:
            node = stack.pop()
            for nxt, _ in node.next_functions:  # bug: the (None, 0) entries are not skipped
                deps[nxt] = deps.get(nxt, 0) + 1
                if nxt not in seen:
                    seen.add(nxt)
                    stack.append(nxt)
        out, ready = [], [root]
        while ready:
            node = ready.pop()
            out.append(node)
            for nxt, _ in node.next_functions:
                deps[nxt] -= 1
                if deps[nxt] == 0:
                    ready.append(nxt)
        return out
    hinted(nb06.check_execution_order(execution_order), "'NoneType' object", "skip the (None, 0) entries")


@pytest.mark.parametrize("change, says", [
    (lambda order: [n.name() for n in order], "not their names"),
    (lambda order: [(n, 0) for n in order], "(node, input number) pairs"),
    (lambda order: order[::-1], "the list should start with the root"),
    (lambda order: order[:1], "missing nodes")])
def test_order_other_mistakes(change, says):
    hinted(nb06.check_execution_order(lambda root: change(order_reference(root))), says)


def test_order_counting_each_node_once():
    """The count is raised once per node instead of once per edge: a shared node runs too early."""
    def execution_order(root):
        deps, seen, stack = {}, {root}, [root]
        while stack:
            node = stack.pop()
            for nxt, _ in node.next_functions:
                if nxt is not None and nxt not in seen:
                    deps[nxt] = 1
                    seen.add(nxt)
                    stack.append(nxt)
        out, ready = [], [root]
        while ready:
            node = ready.pop()
            out.append(node)
            for nxt, _ in node.next_functions:
                if nxt is not None:
                    deps[nxt] -= 1
                    if deps[nxt] == 0:
                        ready.append(nxt)
        return out
    hinted(nb06.check_execution_order(execution_order), "a diamond", "gets gradients along 2 edges")


def test_order_duplicates():
    def execution_order(root):
        # every edge visited, no seen-set: a node used twice shows up twice
        out, stack = [], [root]
        while stack:
            node = stack.pop()
            out.append(node)
            stack.extend(n for n, _ in node.next_functions if n is not None)
        return out
    hinted(nb06.check_execution_order(execution_order), "is in the list twice")


def _sent(grads):
    """What ``node(grad)`` sends along the node's edges, as a tuple (PyTorch returns the gradient itself for one edge)."""
    return grads if isinstance(grads, tuple) else (grads,)


def my_backward_reference(loss, order):
    grads = {loss.grad_fn: minigrad.ones_like(loss)}
    leaf_grads = {}
    with minigrad.no_grad():
        for node in order:
            grad = grads.pop(node)
            if isinstance(node, AccumulateGrad):
                leaf_grads[node.variable] = grad
                continue
            for (nxt, _), g in zip(node.next_functions, _sent(node(grad))):
                if nxt is None or g is None:
                    continue
                grads[nxt] = grads[nxt] + g if nxt in grads else g
    return leaf_grads


def test_my_backward_reference_passes():
    report = nb06.check_my_backward(my_backward_reference)
    assert report, report.text


def test_my_backward_not_written_yet():
    def my_backward(loss, order):
        raise NotImplementedError()
    hinted(nb06.check_my_backward(my_backward), "not written yet")


def test_my_backward_does_not_need_exercise_1():
    """Exercise 2 is graded on its own: the check hands over the engine's order (issue 22)."""
    ns = {"minigrad": minigrad, "AccumulateGrad": AccumulateGrad}
    exec("def execution_order(root):\n"
         "    raise NotImplementedError()\n", ns)
    seen = []

    def my_backward(loss, order):
        seen.append([n.name() for n in order] == [n.name() for n in order_reference(loss.grad_fn)])
        return my_backward_reference(loss, order)
    assert nb06.check_my_backward(my_backward)
    assert seen and all(seen)


def test_my_backward_with_one_argument():
    def my_backward(loss):
        return {}
    hinted(nb06.check_my_backward(my_backward), "positional argument", "my_backward(loss, order)")


def test_my_backward_overwrites_instead_of_summing():
    def my_backward(loss, order):
        grads = {loss.grad_fn: minigrad.ones_like(loss)}
        leaf_grads = {}
        with minigrad.no_grad():
            for node in order:
                grad = grads.pop(node)
                if isinstance(node, AccumulateGrad):
                    leaf_grads[node.variable] = grad
                    continue
                for (nxt, _), g in zip(node.next_functions, _sent(node(grad))):
                    if nxt is not None and g is not None:
                        grads[nxt] = g  # bug: the second path overwrites the first
        return leaf_grads
    text = hinted(nb06.check_my_backward(my_backward), "wrong gradient for leaf", "they add up", "h1 = a * b")
    has_expected_got(text)


def test_my_backward_depth_first_recursion():
    """The classic recursive version: runs a node once per path, before all its gradients arrived."""
    def my_backward(loss, order):
        leaf_grads = {}

        def visit(node, grad):
            if isinstance(node, AccumulateGrad):
                leaf_grads[node.variable] = grad  # bug: overwrites
                return
            for (nxt, _), g in zip(node.next_functions, _sent(node(grad))):
                if nxt is not None:
                    visit(nxt, g)
        with minigrad.no_grad():
            visit(loss.grad_fn, minigrad.ones_like(loss))
        return leaf_grads
    hinted(nb06.check_my_backward(my_backward), "wrong gradient for leaf", "expected:", "got:")


def test_my_backward_calls_the_engine():
    def my_backward(loss, order):
        loss.backward()
        return {}
    hinted(nb06.check_my_backward(my_backward), "RuntimeError", "walk the graph yourself")


def test_my_backward_keys_are_nodes():
    def my_backward(loss, order):
        return {leaf.grad_fn if leaf.grad_fn else AccumulateGrad(leaf): g
                for leaf, g in my_backward_reference(loss, order).items()}
    hinted(nb06.check_my_backward(my_backward), "AccumulateGrad nodes", "node.variable")


def test_my_backward_missing_leaf():
    def my_backward(loss, order):
        result = my_backward_reference(loss, order)
        result.pop(next(iter(result)))
        return result
    hinted(nb06.check_my_backward(my_backward), "no gradient for leaf")


def test_my_backward_calling_accumulate_grad_is_tolerated():
    """Calling AccumulateGrad writes .grad, but if the dict is right the answer is right."""
    def my_backward(loss, order):
        result = my_backward_reference(loss, order)
        for leaf, g in result.items():
            AccumulateGrad(leaf)(g)
        return result
    assert nb06.check_my_backward(my_backward)


def test_my_backward_numbers_instead_of_tensors():
    """Right on the scalar graphs; the hidden graph of vectors shows it."""
    def my_backward(loss, order):
        return {leaf: g.item() for leaf, g in my_backward_reference(loss, order).items()}
    hinted(nb06.check_my_backward(my_backward), "converted to Scalar", "vectors, not numbers")


def test_my_backward_without_no_grad():
    def my_backward(loss, order):
        grads, leaf_grads = {loss.grad_fn: minigrad.ones_like(loss)}, {}
        for node in order:
            grad = grads.pop(node)
            if isinstance(node, AccumulateGrad):
                leaf_grads[node.variable] = grad
                continue
            for (nxt, _), g in zip(node.next_functions, _sent(node(grad))):
                if nxt is not None and g is not None:
                    grads[nxt] = grads[nxt] + g if nxt in grads else g
        return leaf_grads
    hinted(nb06.check_my_backward(my_backward), "has a grad_fn", "own arithmetic was recorded")


def test_my_backward_without_the_seed():
    def my_backward(loss, order):
        grads, leaf_grads = {}, {}
        with minigrad.no_grad():
            for node in order:
                grad = grads.pop(node)
                for (nxt, _), g in zip(node.next_functions, _sent(node(grad))):
                    grads[nxt] = g
        return leaf_grads
    hinted(nb06.check_my_backward(my_backward), "KeyError", "ones_like(loss)")


def test_hidden_graphs_include_vectors_and_constants():
    """The hidden graphs reach every branch of the reference: None entries (a constant), a leaf used twice
    in one node, fan-out, and values that are vectors, as in section 1's graph."""
    cases = dict(nb06._cases())
    assert any(None in [n for n, _ in node.next_functions] for p in cases.values()
               for node in nb06._reachable(p.loss.grad_fn))
    assert cases["vectors, summed into the loss"].values["a"].shape == (3,)
    assert all(p.fan_out for what, p in cases.items() if what != "a chain")


@pytest.mark.parametrize("check", [nb04.check_mm_backward, nb04.check_tanh_function, nb05.check_linear,
                                   nb05.check_training_loop, nb06.check_execution_order, nb06.check_my_backward])
def test_checks_are_deterministic(check):
    """Same hidden inputs every time: the feedback a student sees does not change between runs."""
    def broken(*args, **kwargs):
        raise ValueError("boom")
    if check in (nb04.check_mm_backward, nb04.check_tanh_function):
        args = make_mm(mm_reference) if check is nb04.check_mm_backward else TanhReference
        assert check(args).text == check(args).text
    elif check is nb05.check_linear:
        assert check(LinearReference).text == check(LinearReference).text
    else:
        assert check(broken).text == check(broken).text
        assert "ValueError: boom" in check(broken).text


@pytest.mark.parametrize("check, right, wrong", [
    (nb05.check_q_reverse, "b", "a"), (nb05.check_q_bias_grad, "b", "a"), (nb05.check_q_no_zero_grad, "b", "c"),
    (nb05.check_q_first_loss, 0.6931, 0.7), (nb06.check_q_next_node, "b", "c")])
def test_prediction_questions_of_05_06(check, right, wrong):
    assert check(right), check(right).text
    report = check(wrong)
    hinted(report, "is not it", "Hint:")


# ---- 06, exercise 3: saved tensors on a "disk" ---------------------------------------------------
def disk_hooks(pack_body=None, unpack_body=None):
    """pack_to_disk and unpack_from_disk as the notebook's cell defines them (one namespace, its own disk)."""
    code = ("import minigrad\n\ndisk = {}\n\n\ndef pack_to_disk(tensor):\n"
            + (pack_body or "    key = len(disk)\n    disk[key] = tensor.detach().numpy().copy()\n    return key\n")
            + "\n\ndef unpack_from_disk(key):\n" + (unpack_body or "    return minigrad.from_numpy(disk[key])\n"))
    namespace = {}
    exec(code, namespace)
    return namespace["pack_to_disk"]


def test_disk_hooks_reference_passes():
    report = nb06.check_disk_hooks(disk_hooks())
    assert report and report.text.startswith("PASSED"), report.text


def test_disk_hooks_a_clone_on_the_disk_passes_too():
    pack = "    key = f'tensor {len(disk)}'\n    disk[key] = tensor.detach().clone()\n    return key\n"
    assert nb06.check_disk_hooks(disk_hooks(pack, "    return disk[key]\n"))


def test_disk_hooks_not_written_yet():
    report = nb06.check_disk_hooks(disk_hooks("    raise NotImplementedError()\n", "    raise NotImplementedError()\n"))
    failed(report, "not written yet")


@pytest.mark.parametrize("pack,unpack,says", [
    ("    disk['saved'] = tensor.detach().numpy().copy()\n    return 'saved'\n", None,
     "every packed tensor needs its own key"),
    ("    disk[len(disk)] = tensor.detach().numpy().copy()\n    return tensor\n", None,
     "pack_to_disk returned a tensor"),
    (None, "    return disk[key]\n", "returned ndarray, not a tensor"),
    (None, "    return minigrad.tensor(disk[key].tolist())\n", "gave back a minigrad.float32 tensor"),
    (None, "    return minigrad.from_numpy(disk[0])\n", "wrong gradient for leaf"),
])
def test_disk_hooks_mistakes(pack, unpack, says):
    hinted(nb06.check_disk_hooks(disk_hooks(pack, unpack)), says)


def test_disk_hooks_without_unpack():
    namespace = {}
    exec("disk = {}\n\ndef pack_to_disk(tensor):\n    return 0\n", namespace)
    failed(nb06.check_disk_hooks(namespace["pack_to_disk"]), "`unpack_from_disk` is not defined")
