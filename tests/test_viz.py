"""minigrad.viz: draw() and BackwardStepper.

Golden DOT files live in tests/golden/; after an intended change of the drawing, regenerate them
with ``.venv/bin/python scripts/update_golden_dot.py`` and review the diff.
"""
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

import minigrad
from seed_programs import MMFunction
from minigrad.autograd.function import AccumulateGrad

graphviz = pytest.importorskip("graphviz")
from minigrad.viz import BackwardStepper, DotNotFoundError, draw  # noqa: E402
from minigrad.viz.draw import ARROWS  # noqa: E402
from minigrad.viz.format import values_text  # noqa: E402

GOLDEN = Path(__file__).parent / "golden"
ROOT = Path(__file__).parent.parent
HAVE_DOT = shutil.which("dot") is not None
needs_dot = pytest.mark.skipif(not HAVE_DOT, reason="Graphviz's dot program is not installed")


# ---- the graphs of the series -------------------------------------------------------------------
def relu_sum():
    a = minigrad.linspace(-100, 100, 10, requires_grad=True)
    a.name = "a"
    c = minigrad.relu(a).sum()
    return c, a


def mm_function():
    minigrad.manual_seed(0)
    input = minigrad.randn(3, 2, requires_grad=True)
    weight = minigrad.randn(3, 2, requires_grad=True)
    input.name, weight.name = "input", "weight"
    return MMFunction.apply(input, weight), input, weight


def mmul_module():
    """``MMul``: a module with one ``weight`` parameter, applied to an input that needs no grad."""
    nn = minigrad.nn
    if hasattr(nn, "Module") and hasattr(nn, "Parameter"):
        class MMul(nn.Module):
            def __init__(self):
                super().__init__()
                self.weight = nn.Parameter(minigrad.ones(3, 2))

            def forward(self, x):
                return MMFunction.apply(x, self.weight)

        m = MMul()
        params = dict(m.named_parameters())
    else:
        # TODO: remove this branch once minigrad.nn.Module / Parameter are in (the DOT is the same)
        weight = minigrad.ones(3, 2, requires_grad=True)
        params = {"weight": weight}

        def m(x):
            return MMFunction.apply(x, weight)
    minigrad.manual_seed(0)
    x = minigrad.randn(3, 2)
    return m(x), params


def golden_cases():
    """{file name: function returning the DOT source}; used by the tests and the update script."""
    def relu_plain():
        return draw(relu_sum()[0]).source

    def relu_after_backward():
        c, _ = relu_sum()
        c.backward()
        return draw(c, show_saved=True, show_grads=True).source

    def mm():
        return draw(mm_function()[0], show_saved=True).source

    def mmul():
        y, params = mmul_module()
        return draw(y, params=params, legend=True).source

    def values_and_names():  # micrograd's draw_dot view: numbers and grads, named intermediates
        a = minigrad.tensor([1.0, -2.0, 3.0], requires_grad=True)
        h = minigrad.relu(a)
        c = (h * h).sum()
        c.backward()
        return draw(c, names={a: "a", h: "h", c: "c"}, show_values=True, legend=True).source

    def constants():
        A = minigrad.tensor([[1.0, 2.0], [3.0, 4.0]])
        x = minigrad.tensor([1.0, 1.0], requires_grad=True)
        return draw((A @ x * 2.0).sum(), names={A: "A", x: "x"}, show_values=True).source

    def stepper_step():
        x = minigrad.tensor([1.0, 2.0, 3.0], requires_grad=True)
        x.name = "x"
        s = BackwardStepper((x * x).sum())
        return s.graph(1).source

    return {"relu_sum.dot": relu_plain, "relu_sum_after_backward.dot": relu_after_backward,
            "mm_function.dot": mm, "mmul_module.dot": mmul, "values_and_names.dot": values_and_names,
            "constants.dot": constants, "stepper_step1.dot": stepper_step}


# ---- golden DOT -----------------------------------------------------------------------------------
@pytest.mark.parametrize("name", sorted(golden_cases()))
def test_golden_dot(name):
    expected = (GOLDEN / name).read_text()
    assert golden_cases()[name]() == expected, f"{name} changed: run scripts/update_golden_dot.py and review"


def test_relu_sum_drawing_and_text():
    c, a = relu_sum()
    g = draw(c)
    assert isinstance(g, graphviz.Digraph)
    assert repr(g) == ("<minigrad graph: 5 nodes, 4 edges>\n"
                       "output [] <- SumBackward0\n"
                       "SumBackward0 <- ReluBackward0\n"
                       "ReluBackward0 <- AccumulateGrad(a [10])")
    src = g.source
    for label, color in [("SumBackward0", "lightgrey"), ("AccumulateGrad", "lightgrey"),
                         ('"a\\n(10)"', "lightblue"), ('"()"', "darkolivegreen1")]:
        assert re.search(rf"label={re.escape(label)} fillcolor={color}", src), label
    # written tail -> head as torchviz writes them (input above, output below), but with dir=back: every
    # arrowhead is at the tail, so the arrows point the way the gradient flows, from c up to a
    assert "n4 -> n3" in src and "n3 -> n2" in src and "n2 -> n1" in src and "n1 -> n0" in src
    assert "edge [dir=back fontname=monospace]" in src
    assert "0x" not in repr(g) and "graphviz.graphs" not in repr(g)


def test_deterministic_across_builds_and_hash_seeds():
    assert draw(mm_function()[0], show_saved=True).source == draw(mm_function()[0], show_saved=True).source
    script = ("import minigrad; from minigrad.viz import draw\n"
              "x = minigrad.ones(3, requires_grad=True); y = minigrad.ones(3, requires_grad=True)\n"
              "h = x * y\n"
              "z = (h + x.exp() * 2).sum()\n"
              "g = draw(z, show_saved=True, legend=True); print(g.source); print(repr(g))\n"
              "z.backward(retain_graph=True)\n"
              "g = draw(z, names={x: 'x', h: 'h'}, show_values=True); print(g.source); print(repr(g))\n")
    outs = set()
    for seed in ("1", "2"):
        env = dict(os.environ, PYTHONHASHSEED=seed)
        outs.add(subprocess.run([sys.executable, "-c", script], cwd=ROOT, env=env, capture_output=True,
                                text=True, check=True).stdout)
    assert len(outs) == 1
    assert re.search(r"\bn\d+ \[", outs.pop())


def test_params_name_leaves_by_identity():
    w = minigrad.ones(3, 2, requires_grad=True)
    w2 = minigrad.ones(3, 2, requires_grad=True)  # equal values, another tensor: not named
    y = (w * w2).sum()
    text = repr(draw(y, params={"fc.weight": w}))
    assert "AccumulateGrad(fc.weight [3, 2])" in text
    assert "AccumulateGrad([3, 2])" in text


def test_none_edges_are_skipped():
    x = minigrad.randn(3, requires_grad=True)
    y = x * 2  # MulBackward0.next_functions == ((AccumulateGrad, 0), (None, 0))
    assert y.grad_fn.next_functions[1] == (None, 0)
    g = draw(y)
    assert "MulBackward0 <- AccumulateGrad([3]), None" in repr(g)
    assert repr(g).startswith("<minigrad graph: 4 nodes, 3 edges>")
    y2, params = mmul_module()  # a custom Function whose first input needs no grad
    assert "MMFunctionBackward <- None, AccumulateGrad(weight [3, 2])" in repr(draw(y2, params=params))


def test_diamond_and_fan_out_draw_each_node_once():
    x = minigrad.randn(4, requires_grad=True)
    x.name = "x"
    h = x.exp()
    z = (h * h + h.tanh()).sum()
    g = draw(z)
    src = g.source
    assert src.count("label=AccumulateGrad") == 1
    assert src.count("label=ExpBackward0") == 1
    exp_id = re.search(r"(n\d+) \[label=ExpBackward0", src).group(1)
    assert len(re.findall(rf"^\s*{exp_id} -> ", src, re.M)) == 3  # h*h uses h twice, + one more
    # x used by two ops: one AccumulateGrad with two consumers
    w = minigrad.randn(3, requires_grad=True)
    y = (w * 2 + w.exp()).sum()
    src = draw(y).source
    acc = re.search(r"(n\d+) \[label=AccumulateGrad", src).group(1)
    assert len(re.findall(rf"^\s*{acc} -> ", src, re.M)) == 2


def test_duplicate_names_are_told_apart_in_text():
    x = minigrad.ones(3, requires_grad=True)
    y = ((x * 2) * 3).sum()
    text = repr(draw(y))
    assert re.search(r"MulBackward0 \(n\d+\) <- MulBackward0 \(n\d+\), None", text)


def test_custom_function_and_saved_tensors_before_and_after_backward():
    y, input, weight = mm_function()
    before = draw(y, show_saved=True)
    assert "MMFunctionBackward <- AccumulateGrad(input [3, 2]), AccumulateGrad(weight [3, 2])" in repr(before)
    assert "saved[0] input: [3, 2]" in repr(before) and "saved[1] weight: [3, 2]" in repr(before)
    assert 'label="saved[0] input\\n(3, 2)" fillcolor=orange' in before.source
    y.sum().backward()
    after = draw(y, show_saved=True)
    assert "saved[0]: freed" in repr(after) and "saved[1]: freed" in repr(after)
    assert 'label="saved[0]\\nfreed" fillcolor=orange' in after.source
    assert "freed" not in draw(y).source  # only with show_saved
    # a node that saved its own output says so
    a = minigrad.ones(2, requires_grad=True)
    assert "saved[0] result: [2]" in repr(draw(a.exp(), show_saved=True))


def test_a_saved_number_is_drawn_with_its_shape_and_freed_after_backward():
    x = minigrad.ones(2, requires_grad=True)
    y = x * 3.0  # MulBackward0 saves the number 3.0 (as its value), not x
    assert "saved[0]: []" in repr(draw(y, show_saved=True))
    y.sum().backward()
    after = draw(y, show_saved=True)
    assert "saved[0]: freed" in repr(after) and 'label="saved[0]\\nfreed"' in after.source


def test_show_grads():
    c, a = relu_sum()
    assert "grad None" in draw(c, show_grads=True).source
    c.backward()
    g = draw(c, show_grads=True)
    assert 'label="a\\n(10)\\ngrad [0, 0, 0, 0, …]"' in g.source
    assert "a [10] grad: [0, 0, 0, 0, 0, 1, …]" in repr(g)
    assert "grad" not in draw(c).source.replace(ARROWS, "")  # no box shows a grad (the line under it says "gradients")


def test_roots_list_and_grad_fn():
    x = minigrad.ones(2, requires_grad=True)
    y1, y2 = x.exp(), (x * 3).sum()
    text = repr(draw([y1, y2]))
    assert text.startswith("<minigrad graph: 7 nodes, 6 edges>")  # 2 outputs, 3 nodes, AccumulateGrad, x
    assert "output [2] <- ExpBackward0" in text and "output [] <- SumBackward0" in text
    g = draw(y2.grad_fn)
    assert repr(g).splitlines()[1] == "SumBackward0 <- MulBackward0"
    assert "darkolivegreen1" not in g.source
    with pytest.raises(TypeError, match="expects a Tensor"):
        draw(3)
    from minigrad.autograd.function import grad_accumulator
    x.name = "x"
    assert repr(draw(grad_accumulator(x))) == "<minigrad graph: 2 nodes, 1 edge>\nAccumulateGrad(x [2])"
    assert repr(draw(x)) == "<minigrad graph: 1 node, 0 edges>\nx [2]"


def test_stepper_on_a_leaf():
    a = minigrad.ones(3, requires_grad=True)
    s = BackwardStepper(a, minigrad.tensor([1.0, 2.0, 3.0]))
    assert repr(s).startswith("<BackwardStepper: 1 step, at step 0 (AccumulateGrad([3]))>")
    assert "fillcolor=gold" in s.graph().source
    assert a.grad is None
    s.apply_grads()
    assert a.grad.tolist() == [1.0, 2.0, 3.0]


def test_long_chain_is_capped_quickly():
    x = minigrad.ones(2, requires_grad=True)
    y = x
    for _ in range(5000):
        y = y * 1.0
    start = time.perf_counter()
    g = draw(y, max_nodes=200)
    src = g.source
    elapsed = time.perf_counter() - start
    assert elapsed < 2.0
    assert src.count("label=<MulBackward0<BR/>") == 200  # all of the same name: each shows its id
    assert "… 4801 more nodes not drawn (max_nodes=200)" in src  # 5000 Mul + 1 AccumulateGrad
    assert repr(g).endswith("… 4801 more nodes not drawn (max_nodes=200)")
    assert "more -> " in src and "style=dashed" in src
    start = time.perf_counter()
    draw(y)  # the default cap (500)
    assert time.perf_counter() - start < 2.0


def test_legend():
    c, _ = relu_sum()
    assert "legend" not in draw(c).source
    src = draw(c, legend=True, show_saved=True).source
    assert "leaf / parameter" in src and "saved tensor" in src and "output tensor" in src


def test_copy_keeps_the_summary():
    g = draw(relu_sum()[0])
    assert repr(g.copy()) == repr(g)


@needs_dot
def test_mimebundle_has_svg_and_our_text():
    g = draw(relu_sum()[0])
    bundle = g._repr_mimebundle_()
    assert bundle["text/plain"] == repr(g)
    assert "<svg" in bundle["image/svg+xml"]
    assert "SumBackward0" in g._repr_image_svg_xml()
    from IPython.core.formatters import DisplayFormatter
    data, _ = DisplayFormatter().format(g)
    assert data["text/plain"] == repr(g) and "<svg" in data["image/svg+xml"]


@needs_dot
def test_png_renders(tmp_path):
    y, params = mmul_module()
    png = draw(y, params=params, legend=True, show_saved=True).pipe(format="png")
    assert png[:4] == b"\x89PNG"


def test_missing_dot_has_a_clear_message(tmp_path, monkeypatch):
    g = draw(relu_sum()[0])
    monkeypatch.setenv("PATH", str(tmp_path))  # no `dot` in there
    with pytest.raises(DotNotFoundError, match="apt-get install graphviz") as info:
        g.pipe(format="svg")
    assert "brew install graphviz" in str(info.value) and "conda install -c conda-forge graphviz" in str(info.value)
    with pytest.raises(DotNotFoundError):
        g._repr_image_svg_xml()
    bundle = g._repr_mimebundle_()  # what Jupyter shows: the summary and how to install dot
    assert "image/svg+xml" not in bundle
    assert bundle["text/plain"].startswith(repr(g)) and "apt-get install graphviz" in bundle["text/plain"]
    assert "SumBackward0" in g.source  # no dot needed for the DOT text


def test_stepper_widget_without_dot(tmp_path, monkeypatch):
    pytest.importorskip("ipywidgets")
    monkeypatch.setenv("PATH", str(tmp_path))
    s = BackwardStepper(relu_sum()[0])
    s.widget
    assert "apt-get install graphviz" in s._graph_html.value
    assert "SumBackward0" in s._panel_html.value


def test_minigrad_imports_without_graphviz_and_ipywidgets():
    script = ("import sys\n"
              "sys.modules['graphviz'] = None; sys.modules['ipywidgets'] = None\n"
              "import minigrad, minigrad.viz\n"
              "c = minigrad.ones(2, requires_grad=True).sum()\n"
              "try:\n"
              "    minigrad.viz.draw(c)\n"
              "except ImportError as e:\n"
              "    print(e)\n"
              "s = minigrad.viz.BackwardStepper(c)\n"
              "print(s.trace())\n"
              "try:\n"
              "    s.widget\n"
              "except ImportError as e:\n"
              "    print(e)\n")
    out = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    assert out.count("pip install graphviz ipywidgets") == 2
    assert "SumBackward0" in out


# ---- BackwardStepper --------------------------------------------------------------------------------
def random_graphs():
    """(root, leaves, gradient) for graphs with fan-out, diamonds, broadcasting and a custom Function."""
    rng = np.random.default_rng(0)

    def leaf(*shape):
        return minigrad.tensor(rng.standard_normal(shape).astype(np.float32), requires_grad=True)

    cases = []
    a = leaf(4)
    cases.append((minigrad.relu(a * 3 - 1).sum(), [a], None))
    x, w, b = leaf(5, 3), leaf(3, 2), leaf(2)
    h = x.mm(w) + b  # broadcasting the bias
    cases.append(((h.tanh() * h).mean(), [x, w, b], None))
    p, q = leaf(3, 1), leaf(1, 4)
    s = p * q + p  # broadcasting both ways, p fans out
    cases.append(((s.exp() + s * s).sum(), [p, q], None))
    u = leaf(3)
    e = u.exp()
    d = (e * 2 + e * e).sigmoid() * e  # a diamond through e
    cases.append((d, [u], minigrad.tensor(rng.standard_normal(3).astype(np.float32))))  # non-scalar root
    i, wt = leaf(3, 2), leaf(3, 2)
    cases.append(((MMFunction.apply(i, wt) * MMFunction.apply(i, wt)).sum(), [i, wt], None))
    for seed in range(3):  # random chains of unary/binary ops over a few leaves
        r = np.random.default_rng(seed)
        leaves = [leaf(2, 3) for _ in range(3)]
        pool = list(leaves)
        for _ in range(12):
            t1, t2 = pool[r.integers(len(pool))], pool[r.integers(len(pool))]
            pool.append([lambda: t1 + t2, lambda: t1 * t2, lambda: t1.tanh(), lambda: t1 - t2 * 0.5,
                         lambda: t1.sigmoid() * t2][r.integers(5)]())
        cases.append((sum(pool[3:], minigrad.zeros(2, 3)).sum(), leaves, None))
    return cases


def _all_nodes(root):
    from minigrad.viz.layout import walk
    return walk([root.grad_fn])


@pytest.mark.parametrize("case", range(len(random_graphs())))
def test_stepper_matches_backward(case):
    root, leaves, gradient = random_graphs()[case]
    before = [None if t._grad is None else t._grad._data.copy() for t in leaves]
    s = BackwardStepper(root, gradient)
    assert [t._grad for t in leaves] == [None] * len(leaves)  # untouched
    captured = s.leaf_grads()

    # the order backward() runs the nodes in, seen by hooks on every node
    order = []
    for node in _all_nodes(root):
        node.register_hook(lambda gi, go, node=node: order.append(node))
    root.backward(gradient)
    assert [step.node for step in s.steps] == order
    assert [step.index for step in s.steps] == list(range(len(order)))
    reached = [t for t in leaves if t._grad is not None]  # a random graph may leave a leaf out
    assert reached and set(captured) == set(reached)
    for t in reached:
        np.testing.assert_allclose(captured[t]._data, t._grad._data, rtol=1e-6, atol=1e-7)
    assert before == [None] * len(leaves)


def test_stepper_does_not_touch_grad_until_apply_grads():
    x = minigrad.tensor([1.0, -2.0, 3.0], requires_grad=True)
    x.grad = minigrad.tensor([10.0, 10.0, 10.0])
    h = x * x
    h.retain_grad()
    loss = h.sum()
    s = BackwardStepper(loss)
    assert x.grad.tolist() == [10.0, 10.0, 10.0] and h.grad is None
    s.next(), s.next()
    assert x.grad.tolist() == [10.0, 10.0, 10.0]
    s.apply_grads()
    assert x.grad.tolist() == [12.0, 6.0, 16.0] and h.grad.tolist() == [1.0, 1.0, 1.0]
    loss.backward()  # the graph was kept: backward still works and agrees
    assert x.grad.tolist() == [14.0, 2.0, 22.0]


def test_stepper_seed_errors_like_backward():
    y = minigrad.ones(3, requires_grad=True) * 2
    with pytest.raises(RuntimeError, match="grad can be implicitly created only for scalar outputs"):
        BackwardStepper(y)
    with pytest.raises(RuntimeError, match="Mismatch in shape"):
        BackwardStepper(y, minigrad.ones(2))
    with pytest.raises(RuntimeError, match="does not require grad"):
        BackwardStepper(minigrad.ones(1).sum())
    s = BackwardStepper(y, minigrad.ones(3))
    assert s.steps[0].grads_in[0].tolist() == [1.0, 1.0, 1.0]


def test_stepper_navigation_and_trace():
    c, a = relu_sum()
    s = BackwardStepper(c, params={"a": a})
    assert [type(st.node).__name__ for st in s.steps] == ["SumBackward0", "ReluBackward0", "AccumulateGrad"]
    assert s.current is s.steps[0] and s.position == 0
    assert s.next() is s.steps[1]
    s.next(), s.next()
    assert s.position == 2  # clamped at the end
    assert s.prev() is s.steps[1]
    s.goto(-5)
    assert s.position == 0
    s.goto(2)
    s.reset()
    assert s.position == 0
    assert s.trace() == (
        "0   SumBackward0  in=[] 1  out=[10] [1, 1, 1, 1, 1, 1, …] -> ReluBackward0\n"
        "1   ReluBackward0  in=[10] [1, 1, 1, 1, 1, 1, …]  "
        "out=[10] [0, 0, 0, 0, 0, 1, …] -> AccumulateGrad(a [10])\n"
        "2   AccumulateGrad(a [10])  in=[10] [0, 0, 0, 0, 0, 1, …]  -> a.grad (captured, not accumulated)")
    assert repr(s).splitlines()[0] == "<BackwardStepper: 3 steps, at step 0 (SumBackward0)>"
    assert repr(s).splitlines()[1].startswith("> 0   SumBackward0")
    assert not s.steps[2].executed and s.steps[2].grads_out == ()
    np.testing.assert_array_equal(s.leaf_grads()[a]._data, [0, 0, 0, 0, 0, 1, 1, 1, 1, 1])
    assert s.leaf_grads(upto=1) == {}
    y = minigrad.ones(3, requires_grad=True) * 2
    assert "out=[3] [2, 2, 2] -> AccumulateGrad([3]); None -> None" in BackwardStepper(y.sum()).trace()


def test_stepper_panel_and_graph_highlight():
    y, input, weight = mm_function()
    s = BackwardStepper(y.sum())
    s.goto(1)  # MMFunctionBackward
    assert s.current.node is y.grad_fn
    panel = s.panel_html()
    assert "Gradient flowing in" in panel and "[3, 3]" in panel
    assert "AccumulateGrad(input [3, 2]), input 0" in panel
    src = s.graph().source
    node_id = s.layout.node_id(y.grad_fn)
    assert re.search(rf'{node_id} \[label=<MMFunctionBackward<BR/><FONT [^>]*>{node_id}</FONT>> '
                     r'class=current fillcolor=gold penwidth=3\]', src)
    assert re.search(r"label=<SumBackward0<BR/>.*> fillcolor=thistle", src)
    g_input, g_weight = s.current.grads_out  # labelled with the gradients' values, not their shapes
    for g in (g_input, g_weight):
        assert g.shape == (3, 2)
        assert f'label=" {values_text(g, limit=6)}" class=flow color=red' in src
    assert "edge [dir=back fontname=monospace]" in src  # every arrow points the way the gradient flows
    s.goto(3)
    assert "would add this gradient" in s.panel_html()
    assert "weight [3, 2]" in s.panel_html()


@needs_dot
def test_widget_buttons_and_slider():
    ipywidgets = pytest.importorskip("ipywidgets")
    c, a = relu_sum()
    s = BackwardStepper(c, params={"a": a})
    w = s.widget
    assert isinstance(w, ipywidgets.VBox)
    assert s._prev_button.disabled and not s._next_button.disabled
    sum_id, relu_id = (s.layout.node_id(st.node) for st in s.steps[:2])

    def fill(node_id):
        m = re.search(rf"<title>{node_id}</title>\s*<polygon fill=\"([^\"]+)\"", s._graph_html.value)
        return m.group(1)

    assert fill(sum_id) == "gold" and fill(relu_id) == "lightgrey"
    s._next_button.click()
    assert s.position == 1 and s._slider.value == 1
    assert fill(sum_id) == "thistle" and fill(relu_id) == "gold"
    assert "ReluBackward0" in s._panel_html.value
    s._slider.value = 2
    assert s.position == 2 and s._next_button.disabled
    assert "AccumulateGrad" in s._panel_html.value
    s._reset_button.click()
    assert s.position == 0 and s._slider.value == 0
    s.next()  # the text API moves the widget too
    assert s._slider.value == 1
    assert a._grad is None


# ---- numbers on the graph, names, constants, ids (issue 20) ----------------------------------------
def test_show_values_before_and_after_backward():
    c, a = relu_sum()
    before = draw(c, show_values=True)
    assert repr(before).splitlines()[-2:] == [
        "output [] = 277.8",
        "a [10] = [-100, -77.78, -55.56, -33.33, -11.11, 11.11, 33.33, 55.56, 77.78, 100]  grad None"]
    # every box shows its numbers: a few in full (a long vector wraps), the leaf's grad once it has one
    assert ('n4 [label="a\\n(10)\\ndata [-100, -77.78, -55.56, -33.33, -11.11, 11.11,\\n'
            '      33.33, 55.56, 77.78, 100]\\ngrad None" fillcolor=lightblue]') in before.source
    assert 'n0 [label="()\\ndata 277.8" fillcolor=darkolivegreen1]' in before.source
    c.backward()
    after = draw(c, show_values=True)
    assert repr(after).splitlines()[-1].endswith("  grad [0, 0, 0, 0, 0, 1, 1, 1, 1, 1]")
    assert "grad [0, 0, 0, 0, 0, 1,\\n      1, 1, 1, 1]" in after.source
    # without show_values the drawing and its text are what they were
    assert repr(draw(c)) == ("<minigrad graph: 5 nodes, 4 edges>\noutput [] <- SumBackward0\n"
                             "SumBackward0 <- ReluBackward0\nReluBackward0 <- AccumulateGrad(a [10])")


def test_large_tensors_get_a_summary_and_matrices_one_row_per_line():
    x = minigrad.arange(100.0).reshape(10, 10).requires_grad_()
    text = repr(draw((x * x).sum(), names={x: "x"}, show_values=True))
    assert "x [10, 10] = [0, 1, 2, …, 98, 99]  grad None" in text
    m = minigrad.tensor([[1.0, -2.5], [3.0, 4.0]], requires_grad=True)
    src = draw(m.exp(), names={m: "m"}, show_values=True).source
    assert 'label="m\\n(2, 2)\\ndata [[1, -2.5],\\n      [3, 4]]\\ngrad None"' in src


def test_names_label_outputs_and_intermediates_on_their_edge():
    c, a = relu_sum()
    h = c.grad_fn  # the relu's output is not reachable from c: name it with the tensor itself
    a2 = minigrad.linspace(-100, 100, 10, requires_grad=True)
    h = minigrad.relu(a2)
    c = h.sum()
    g = draw(c, names={a2: "a", h: "h", c: "c"})
    assert repr(g) == ("<minigrad graph: 6 nodes, 5 edges>\n"
                       "c [] <- SumBackward0\n"
                       "h [10] <- ReluBackward0\n"
                       "SumBackward0 <- ReluBackward0\n"
                       "ReluBackward0 <- AccumulateGrad(a [10])")
    src = g.source
    assert 'n0 [label="c\\n()" fillcolor=darkolivegreen1]' in src
    assert 't0 [label="h\\n(10)" fillcolor=honeydew2]' in src
    assert "n2 -> t0" in src and "t0 -> n1" in src and "n2 -> n1" not in src  # h sits on its edge
    assert draw(c, names={"a": a2, "h": h, "c": c}).source == src  # {name: tensor} works too
    assert draw(c, params={"a": a2}, names={h: "h", c: "c"}).source == src


def test_constants_an_op_captured_are_drawn():
    A = minigrad.tensor([[1.0, 2.0], [3.0, 4.0]])
    x = minigrad.tensor([1.0, 1.0], requires_grad=True)
    y = (A @ x * 2.0).sum()
    g = draw(y, names={A: "A", x: "x"}, show_values=True, legend=True)
    lines = repr(g).splitlines()
    assert lines[3:7] == ["MulBackward0 <- MvBackward0, None", "    constant [] = 2",
                          "MvBackward0 <- None, AccumulateGrad(x [2])", "    constant A [2, 2] = [[1, 2], [3, 4]]"]
    src = g.source
    assert re.search(r'c\d \[label="A\\n\(2, 2\)\\n\[\[1, 2\],\\n \[3, 4\]\]" fillcolor=white style="filled,dashed"\]', src)
    assert re.search(r'c\d \[label="constant\\n\(\)\\n2" fillcolor=white', src)
    assert re.search(r"c\d -> n\d \[dir=none style=dashed\]", src)  # no arrowhead: no gradient goes there
    assert "constant (needs no grad)" in src
    assert "constant" not in draw(y, names={A: "A"}).source  # only with show_values
    y.backward(retain_graph=True)  # the saved tensors are still there: so are the constants
    text = repr(draw(y, names={A: "A", x: "x"}, show_values=True))
    assert "constant A [2, 2]" in text and "x [2] = [1, 1]  grad [8, 12]" in text
    y.backward()  # now backward frees what the nodes saved: the constants are gone with it
    text = repr(draw(y, names={A: "A", x: "x"}, show_values=True))
    assert "constant" not in text and "x [2] = [1, 1]  grad [16, 24]" in text


def test_ids_shown_where_the_text_needs_them():
    x = minigrad.ones(3, requires_grad=True)
    y = ((x * 2) * 3).sum()
    g = draw(y)
    ids = re.findall(r"MulBackward0 \((n\d+)\)", repr(g))
    assert set(ids) == {"n2", "n3"}  # the two Mul nodes, named by their ids
    for nid in set(ids):  # the ids the text names are in the picture
        assert re.search(rf'{nid} \[label=<MulBackward0<BR/><FONT [^>]*>{nid}</FONT>>', g.source)
    assert "label=SumBackward0" in g.source  # a unique name needs no id
    assert 'label=<SumBackward0<BR/><FONT POINT-SIZE="8" COLOR="#555555">n1</FONT>>' in draw(y, show_ids=True).source
    assert "<FONT" not in draw(y, show_ids=False).source


def test_legend_is_the_graph_label_below_everything():
    c, _ = relu_sum()
    src = draw(c, legend=True).source
    assert "labelloc=b" in src and "legend [" not in src  # not a node that could crowd a label


class DuckTensor:
    """A tensor of somebody else's engine: only data, grad, grad_fn, requires_grad."""

    def __init__(self, data, grad_fn=None, requires_grad=False):
        self.data, self.grad_fn, self.requires_grad, self.grad = np.asarray(data, dtype=float), grad_fn, requires_grad, None


class DuckNode:
    def __init__(self, name, *inputs):
        self._name, self.next_functions = name, tuple((i, 0) for i in inputs)

    def name(self):
        return self._name


class DuckAccumulate:
    def __init__(self, variable):
        self.variable, self.next_functions = variable, ()


def test_draws_a_students_own_engine_by_duck_typing():
    a = DuckTensor([1.0, 2.0], requires_grad=True)
    b = DuckTensor([3.0, 4.0], requires_grad=True)
    mul = DuckNode("MulBackward0", DuckAccumulate(a), DuckAccumulate(b))
    c = DuckTensor(11.0, DuckNode("SumBackward0", mul))
    a.grad = np.array([3.0, 4.0])
    g = draw(c, names={a: "a", b: "b", c: "c"}, show_values=True)
    assert repr(g) == ("<minigrad graph: 7 nodes, 6 edges>\n"
                       "c [] <- SumBackward0\n"
                       "SumBackward0 <- MulBackward0\n"
                       "MulBackward0 <- AccumulateGrad(a [2]), AccumulateGrad(b [2])\n"
                       "c [] = 11\n"
                       "a [2] = [1, 2]  grad [3, 4]\n"
                       "b [2] = [3, 4]  grad None")
    # a node without name() is called by its class name
    class ExpBackward:
        next_functions = ()
    assert "ExpBackward <- (nothing)" in repr(draw(DuckTensor(1.0, ExpBackward())))


def test_draws_pytorchs_own_graph_the_same_way():
    torch = pytest.importorskip("torch")
    texts = []
    for lib in (minigrad, torch):
        a = lib.linspace(-100, 100, 10, requires_grad=True)
        h = lib.relu(a)
        c = (h * h).sum()
        c.backward()
        texts.append(repr(draw(c, names={a: "a", h: "h", c: "c"}, show_values=True)))
    assert texts[0] == texts[1]
    assert "a [10] = [-100, -77.78" in texts[1] and "grad [0, 0, 0, 0, 0, 22.22" in texts[1]


@needs_dot
def test_html_output_carries_the_summary_as_alt_text():
    c, _ = relu_sum()
    g = draw(c, show_values=True)
    bundle = g._repr_mimebundle_()
    assert set(bundle) == {"image/svg+xml", "text/html", "text/plain"}
    page = bundle["text/html"]
    assert page.startswith('<svg role="img" aria-label="&lt;minigrad graph: 5 nodes, 4 edges&gt;\n')
    assert "<?xml" not in page and "<img" not in page  # nbconvert warns about an <img> without alt
    assert "SumBackward0" in page and "output [] = 277.8" in page


@needs_dot
def test_legend_never_overlaps_a_label():
    y, input, weight = mm_function()
    s = BackwardStepper((y * y).sum())
    for i in range(len(s.steps)):
        svg = s.graph(i).pipe(format="svg", encoding="utf-8")
        texts = [(float(x), float(yy), t) for x, yy, t in
                 re.findall(r'<text[^>]* x="([-\d.]+)" y="([-\d.]+)"[^>]*>([^<]*)</text>', svg)]
        legend_top = min(yy for _, yy, t in texts if t == "legend")
        others = [yy for _, yy, t in texts if t not in ("legend", "leaf / parameter", "backward node",
                                                       "output tensor", "done", "current", ARROWS)]
        assert others and max(others) + 8 < legend_top  # every node and edge label is above it


# ---- the stepper: gradients flow along the arrows, labelled with their values ------------------------
def test_stepper_arrows_point_the_way_the_gradient_flows():
    x = minigrad.tensor([1.0, 2.0, 3.0], requires_grad=True)
    x.name = "x"
    loss = (x * x).sum()
    s = BackwardStepper(loss)
    s.goto(1)  # MulBackward0 sends 1 * x to x's AccumulateGrad along each of its two edges
    src = s.graph().source
    mul, acc = s.layout.node_id(s.current.node), s.layout.node_id(s.steps[2].node)
    assert "edge [dir=back fontname=monospace]" in src  # the tail->head order is draw()'s; the arrowheads are at the tail
    flow = re.findall(rf'{acc} -> {mul} \[label=" \[1, 2, 3\]" class=flow color=red', src)
    assert len(flow) == 2
    s.goto(2)  # AccumulateGrad puts the sum, 2 * x, into the leaf's .grad
    src = s.graph().source
    leaf = s.layout.id(("tensor", id(x)))
    assert re.search(rf'{leaf} -> {acc} \[label=" \[2, 4, 6\]" class=flow color=red', src)
    assert re.search(rf'{acc} -> {mul} \[color=mediumpurple\]', src)  # earlier steps' edges
    for step in s.steps:  # every node shows the id the trace and the panel use
        nid = s.layout.node_id(step.node)
        assert re.search(rf"{nid} \[label=<[^\n]*<FONT [^>]*>{nid}</FONT>>", src)


def test_stepper_edge_labels_show_values_of_large_gradients_as_a_summary():
    w = minigrad.ones(20, requires_grad=True)
    s = BackwardStepper((w * 3.0).sum())
    s.goto(1)
    assert 'label=" [3, 3, 3, …, 3, 3]"' in s.graph().source


@needs_dot
def test_stepper_static_picture_and_two_outputs():
    pytest.importorskip("ipywidgets")
    from IPython.core.interactiveshell import InteractiveShell
    from minigrad.viz.stepper import WIDGET_TEXT
    c, a = relu_sum()
    s = BackwardStepper(c, params={"a": a})
    static = s.static_html()
    assert "minigrad-stepper-static" in static and "<style>" in static and "<svg role=\"img\"" in static
    assert "Step 0 of 2: <code>SumBackward0</code>" in static
    assert "minigrad-stepper-live" in s.widget._dom_classes
    shown = []
    shell = InteractiveShell.instance()
    old = shell.display_pub.publish
    shell.display_pub.publish = lambda data, metadata=None, **kw: shown.append(data)
    try:
        s._ipython_display_()
    finally:
        shell.display_pub.publish = old
    assert [sorted(d) for d in shown] == [["text/html", "text/plain"],
                                         ["application/vnd.jupyter.widget-view+json", "text/plain"]]
    assert shown[0]["text/plain"] == repr(s) and shown[1]["text/plain"] == WIDGET_TEXT


def test_forget_widget_state_drops_only_the_steppers_models():
    from minigrad.viz.stepper import WIDGET_TEXT, forget_widget_state
    state = {"box": {"state": {"children": ["IPY_MODEL_button", "IPY_MODEL_html"], "layout": "IPY_MODEL_lay"}},
             "button": {"state": {"style": "IPY_MODEL_style"}}, "html": {"state": {}}, "lay": {"state": {}},
             "style": {"state": {}}, "other": {"state": {"layout": "IPY_MODEL_other_lay"}}, "other_lay": {"state": {}}}
    view = "application/vnd.jupyter.widget-view+json"
    nb = {"metadata": {"widgets": {"application/vnd.jupyter.widget-state+json": {"state": dict(state)}}},
          "cells": [{"outputs": [{"data": {view: {"model_id": "box"}, "text/plain": WIDGET_TEXT}}]},
                    {"outputs": [{"data": {view: {"model_id": "other"}, "text/plain": "a slider"}}]}]}
    assert forget_widget_state(nb) == 5
    assert set(nb["metadata"]["widgets"]["application/vnd.jupyter.widget-state+json"]["state"]) == {"other", "other_lay"}
    nb["cells"] = nb["cells"][:1]
    nb["metadata"]["widgets"]["application/vnd.jupyter.widget-state+json"]["state"] = {"box": {"state": {}}}
    assert forget_widget_state(nb) == 1 and "widgets" not in nb["metadata"]


@needs_dot
@pytest.mark.parametrize("template", ["lab", "classic"])
def test_an_exported_notebook_has_no_picture_without_alt_text(template, caplog):
    """nbconvert (and nbgrader's feedback, made with it) warns about every <img> without alt text;
    it renders a drawing's text/html, so it finds none. The stepper's static picture is there too."""
    nbformat = pytest.importorskip("nbformat")
    nbconvert = pytest.importorskip("nbconvert")
    pytest.importorskip("ipywidgets")
    from minigrad.viz.stepper import WIDGET_TEXT
    c, a = relu_sum()
    s = BackwardStepper(c)
    outputs = [nbformat.v4.new_output("display_data", data=draw(c, show_values=True)._repr_mimebundle_()),
               nbformat.v4.new_output("display_data", data={"text/html": s.static_html(), "text/plain": repr(s)}),
               nbformat.v4.new_output("display_data", data={"text/plain": WIDGET_TEXT})]
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("draw(c)", outputs=outputs)])
    exporter = nbconvert.HTMLExporter(template_name=template)
    with caplog.at_level("WARNING"):
        body, _ = exporter.from_notebook_node(nb)
    assert "Alternative text is missing" not in caplog.text
    assert body.count('role="img"') == 2 and "minigrad-stepper-static" in body


def test_a_stepper_still_draws_after_backward_freed_its_constants():
    x = minigrad.tensor([1.0, 2.0], requires_grad=True)
    loss = (x * 3.0).sum()
    s = BackwardStepper(loss, show_values=True)
    assert "constant [] = 3" in repr(s.graph(1))
    loss.backward()  # frees what the nodes saved, the 3 too
    for i in range(len(s.steps)):
        assert "constant" not in repr(s.graph(i))


def test_stepper_leaves_show_what_they_got_so_far_not_a_later_grad():
    x = minigrad.tensor([1.0, 2.0], requires_grad=True)
    x.name = "x"
    loss = (x * 3.0).sum()
    s = BackwardStepper(loss, show_values=True)
    loss.backward(retain_graph=True)  # x.grad is [3, 3] now, but at step 0 nothing reached x yet
    assert "x [2] = [1, 2]  grad None" in repr(s.graph(0))
    assert 'label=" [3, 3]"' in s.graph(len(s.steps) - 1).source  # the last step: on its way into x.grad
    legend = re.search(r"label=<<TABLE.*", s.graph(0).source).group(0)
    assert legend.count("<TR>") == 3  # seven entries, four to a row, then the line about the arrows


# ---- one convention for the arrows, said under every drawing (issue 37) ----------------------------
def _arrow_heads(src):
    """{(tail, head): where the arrowhead is} from DOT text: "tail" under dir=back, "none" under dir=none."""
    default = "tail" if "edge [dir=back" in src else "head"
    heads = {}
    for tail, head, attrs in re.findall(r"^\s*(\w+) -> (\w+)(?: \[(.*)\])?$", src, re.M):
        d = re.search(r"\bdir=(\w+)", attrs or "")
        heads.setdefault((tail, head), []).append(
            {"back": "tail", "none": "none", "forward": "head"}[d.group(1)] if d else default)
    return heads


def test_draw_and_the_stepper_point_their_arrows_the_same_way():
    x = minigrad.tensor([1.0, 2.0, 3.0], requires_grad=True)
    loss = (x.exp() * x).sum()
    drawn, stepped = draw(loss).source, BackwardStepper(loss).graph(0).source
    for src in (drawn, stepped):
        heads = _arrow_heads(src)
        # every edge between tensors and nodes has its arrowhead at the tail: the end nearer the leaves
        assert heads and all(h == ["tail"] * len(h) for h in heads.values()), heads
    assert [e for e in _arrow_heads(drawn)] == [e for e in _arrow_heads(stepped)]  # the same edges


def test_every_drawing_says_which_way_its_arrows_point():
    c, a = relu_sum()
    assert "gradients flow" in ARROWS
    plain = draw(c).source
    assert f'label="{ARROWS}" labeljust=l labelloc=b' in plain and "legend" not in plain
    assert f'<TD BORDER="0" COLSPAN="4" ALIGN="LEFT">{ARROWS}</TD>' in draw(c, legend=True).source
    assert ARROWS in BackwardStepper(c).graph(0).source
    assert repr(draw(c)) == ("<minigrad graph: 5 nodes, 4 edges>\noutput [] <- SumBackward0\n"
                             "SumBackward0 <- ReluBackward0\nReluBackward0 <- AccumulateGrad(a [10])")  # text: as before
    x = minigrad.ones(2, requires_grad=True)
    assert "label=" not in draw(x).source.split("\n")[-2]  # nothing to point at: no line about arrows


def _notebook06_graph():
    """Notebook 06's example: h = x * w used twice, t = h * 3 captures the constant 3."""
    x = minigrad.tensor([1.0, 2.0], requires_grad=True)
    w = minigrad.tensor([0.5, -1.0], requires_grad=True)
    h = x * w
    e, t = h.exp(), h * 3
    s = e + t
    loss = s.sum()
    return loss, dict(x=x, w=w, h=h, e=e, t=t, s=s, loss=loss)


def test_no_gradient_arrow_goes_into_a_constant():
    loss, names = _notebook06_graph()
    s = BackwardStepper(loss, names=names, show_values=True)
    mul_t = s.layout.node_id(names["t"].grad_fn)
    assert s.steps[2].node is names["t"].grad_fn and s.steps[2].grads_out[1] is None  # (None, 0): nothing sent
    for i in range(len(s.steps)):
        src = s.graph(i).source
        const = re.findall(rf"^\s*(c\d+) -> {mul_t} \[(.*)\]$", src, re.M)
        assert len(const) == 1, src
        cid, attrs = const[0]
        assert attrs == "dir=none style=dashed", attrs  # a dashed line without an arrowhead, never red
        assert re.search(rf'{cid} \[label="constant\\n\(\)\\n3"', src)
        assert all(h == ["none"] for (tail, head), h in _arrow_heads(src).items() if cid in (tail, head))
    # draw() draws the constant the same way
    src = draw(loss, names=names, show_values=True).source
    assert re.search(rf"c\d+ -> {mul_t} \[dir=none style=dashed\]", src)


@needs_dot
def test_a_constants_line_has_no_arrowhead_in_the_picture():
    loss, names = _notebook06_graph()
    svg = BackwardStepper(loss, names=names, show_values=True).graph(2).pipe(format="svg", encoding="utf-8")
    edges = re.findall(r'<g id="edge\d+" class="edge[^"]*">\s*<title>([^<]*)</title>(.*?)</g>', svg, re.S)
    const = [body for title, body in edges if title.startswith("c0")]
    assert len(const) == 1 and "<polygon" not in const[0]  # Graphviz draws an arrowhead as a polygon
    assert all("<polygon" in body for title, body in edges if not title.startswith("c0"))
