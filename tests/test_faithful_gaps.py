"""Small faithful gaps (issue 39): each program below runs the same on ``minigrad`` and on ``torch``.

1. ``boxed_grads_call = True`` on a ``Function``: backward gets the gradients as one list it may clear.
2. ``add``/``sub``'s ``alpha``: no float alpha for an integer result, no bool alpha but for a bool one.
3. ``.grad = ...`` checks the dtype against the tensor's ``grad_dtype``, which a leaf may set (or set to None).
4. Warnings PyTorch gives once per process (``TORCH_WARN_ONCE``): ``cross`` without ``dim``, ``meshgrid``
   without ``indexing``.
5. ``backward(inputs=[y])`` calls ``y.retain_grad()``; ``y``'s own node runs, and frees what it saved.

What torch 2.13 gives is recorded here, so the tests pass without torch; with torch installed each program
is also run on torch and compared (the parity cases ``ag_boxed_grads_call``, ``ag_grad_dtype``,
``ag_backward_inputs_retain_grad`` and ``alpha_rules`` check the same with the fixture).
"""
import re
import subprocess
import sys
import warnings

import pytest

import minigrad


def _norm(text):
    """A message as both libraries give it: the library's name as ``T``, without PyTorch's C++ location."""
    text = re.sub(r" \(Triggered internally at [^)]*\)", "", text)
    return re.sub(r"\b(torch|minigrad)\.", "T.", text)


def _plain(value):
    """A result as plain Python: a tensor as ``[values, dtype]``, a dtype as its name."""
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if hasattr(value, "tolist") and hasattr(value, "dtype"):
        return [value.tolist(), str(value.dtype).split(".")[-1]]
    if type(value).__name__ == "dtype":
        return str(value).split(".")[-1]
    return value


def outcome(fn):
    """``fn()``'s result as plain Python, or ``"Error: message"``."""
    try:
        return _plain(fn())
    except Exception as e:  # noqa: BLE001
        return f"{type(e).__name__}: {_norm(str(e))}"


def _torch():
    return pytest.importorskip("torch")


# ---- 1. boxed_grads_call ------------------------------------------------------------------------
def boxed_program(T):
    seen = []  # what each backward received

    class Two(T.autograd.Function):
        boxed_grads_call = True

        @staticmethod
        def forward(ctx, x, materialize):
            ctx.set_materialize_grads(materialize)
            return x.clone(), x * 2

        @staticmethod
        def backward(ctx, grads):
            seen.append([type(grads).__name__, _plain(grads)])
            g1, g2 = grads
            grads.clear()  # the list is backward's own: emptied, each gradient may be freed once used
            return g1 + (0 if g2 is None else 2 * g2), None

    class Once(T.autograd.Function):
        boxed_grads_call = True

        @staticmethod
        def forward(x):
            return x * 3

        @staticmethod
        def setup_context(ctx, inputs, output):
            pass

        @staticmethod
        @T.autograd.function.once_differentiable
        def backward(ctx, grads):
            seen.append([type(grads).__name__, _plain(grads)])
            return grads.pop() * 3

    class ReturnsTheList(T.autograd.Function):
        boxed_grads_call = True

        @staticmethod
        def forward(ctx, x):
            return x * 3

        @staticmethod
        def backward(ctx, grads):
            return grads

    x = T.tensor([1.0, 2.0], requires_grad=True)
    out = {"default": T.autograd.Function.boxed_grads_call}
    for m in (True, False):
        a, _ = Two.apply(x, m)
        a.sum().backward()
    out["grad"] = _plain(x.grad)
    a, b = Two.apply(x, True)
    out["both"] = outcome(lambda: T.autograd.grad(a.sum() + 3 * b.sum(), x))
    out["once"] = outcome(lambda: T.autograd.grad(Once.apply(x).sum(), x))
    g, = T.autograd.grad(Once.apply(x).sum(), x, create_graph=True)
    out["once_create_graph"] = [_plain(g), g.requires_grad]
    y = Two.apply(x, True)[0]
    out["apply_boxed"] = outcome(lambda: y.grad_fn.apply_boxed([T.ones(2), T.ones(2)]))
    out["returns_the_list"] = outcome(lambda: ReturnsTheList.apply(x).sum().backward())
    out["seen"] = seen
    return out


BOXED = {
    "default": False,
    "grad": [[2.0, 2.0], "float32"],
    "both": [[[7.0, 7.0], "float32"]],
    "once": [[[3.0, 3.0], "float32"]],
    "once_create_graph": [[[3.0, 3.0], "float32"], False],
    "apply_boxed": [[[3.0, 3.0], "float32"], None],
    "returns_the_list": "RuntimeError: expected Variable or None (got list)",
    "seen": [["list", [[[1.0, 1.0], "float32"], [[0.0, 0.0], "float32"]]],
             ["list", [[[1.0, 1.0], "float32"], None]],
             ["list", [[[1.0, 1.0], "float32"], [[3.0, 3.0], "float32"]]],
             ["list", [[[1.0, 1.0], "float32"]]],
             ["list", [[[1.0, 1.0], "float32"]]],
             ["list", [[[1.0, 1.0], "float32"], [[1.0, 1.0], "float32"]]]],
}


def test_boxed_grads_call_gives_backward_one_list():
    assert boxed_program(minigrad) == BOXED


def test_boxed_grads_call_is_torchs():
    assert boxed_program(_torch()) == BOXED


# ---- 2. alpha of add and sub ---------------------------------------------------------------------
INTEGRAL = "RuntimeError: For integral input tensors, argument alpha must not be a floating point number."
BOOLEAN = "RuntimeError: Boolean alpha only supported for Boolean results."
ALPHA = [  # (expression, what torch 2.13 gives)
    ("L().add(L(), alpha=1.5)", INTEGRAL),
    ("L().sub(L(), alpha=1.5)", INTEGRAL),
    ("L().add_(L(), alpha=1.5)", INTEGRAL),
    ("L().sub_(L(), alpha=1.5)", INTEGRAL),
    ("T.add(L(), L(), alpha=1.5)", INTEGRAL),
    ("T.sub(L(), L(), alpha=1.5)", INTEGRAL),
    ("T.subtract(L(), L(), alpha=1.5)", INTEGRAL),
    ("T.add(L(), L(), alpha=1.5, out=T.ones(2))", INTEGRAL),  # (the inputs' dtype decides, not out's)
    ("L().add(L(), alpha=2.0)", INTEGRAL),  # (a float, even a whole one)
    ("L().add(1, alpha=1.5)", INTEGRAL),
    ("L().add(T.ones(2, dtype=T.int32), alpha=1.5)", INTEGRAL),
    ("T.ones(2, dtype=T.uint8).add(T.ones(2, dtype=T.uint8), alpha=1.5)", INTEGRAL),
    ("L().add(L(), alpha=T.tensor(1.5))", INTEGRAL),
    ("L().add(L(), alpha=np.float64(1.5))", INTEGRAL),
    ("B().add(B(), alpha=1.5)", INTEGRAL),
    ("B().add(1, alpha=1.5)", INTEGRAL),
    ("L().add(B(), alpha=1.5)", INTEGRAL),
    ("L().add(L(), alpha=True)", BOOLEAN),
    ("L().add(B(), alpha=True)", BOOLEAN),
    ("F().add(F(), alpha=True)", BOOLEAN),
    ("F().sub(F(), alpha=True)", BOOLEAN),
    ("F().add_(L(), alpha=True)", BOOLEAN),
    ("L().add_(L(), alpha=True)", BOOLEAN),
    ("B().add_(B(), alpha=1.5)", INTEGRAL),
    ("T.ones(2, dtype=T.int32).add_(L(), alpha=1.5)", INTEGRAL),
    ("B().add(1, alpha=True)", BOOLEAN),
    ("L().add(T.tensor(1.0), alpha=True)", BOOLEAN),
    # the result's dtype decides: what may pass
    ("L().add(L(), alpha=2)", [[3, 3], "int64"]),
    ("L().add(F(), alpha=1.5)", [[2.5, 2.5], "float32"]),
    ("F().add(L(), alpha=1.5)", [[2.5, 2.5], "float32"]),
    ("L().add(2.5, alpha=1.5)", [[4.75, 4.75], "float32"]),
    ("L().add(T.tensor(1.0), alpha=1.5)", [[2.5, 2.5], "float32"]),
    ("F().add_(L(), alpha=1.5)", [[2.5, 2.5], "float32"]),
    ("B().add(1.5, alpha=1.5)", [[3.25, 2.25], "float32"]),
    ("F().add(F(), alpha=T.tensor(2.0))", [[3.0, 3.0], "float32"]),
    # bools: alpha is read as a bool, and + is "or"
    ("B().add(B2(), alpha=True)", [[True, True], "bool"]),
    ("B().add(B2(), alpha=2)", [[True, True], "bool"]),
    ("B().add(B2(), alpha=-1)", [[True, True], "bool"]),
    ("B().add(B2(), alpha=0)", [[True, False], "bool"]),
    ("B().add(B2(), alpha=False)", [[True, False], "bool"]),
    ("B().add(True, alpha=0)", [[True, False], "bool"]),
    ("B().add_(B2(), alpha=2)", [[True, True], "bool"]),
    ("T.add(B(), B2(), alpha=True, out=L())", [[1, 1], "int64"]),
    # what is checked first
    ("B().sub(B(), alpha=1.5)", "RuntimeError: Subtraction, the `-` operator, with two bool tensors is not supported. "
                                "Use the `^` or `logical_xor()` operator instead."),
    ("L().sub(B(), alpha=1.5)", "RuntimeError: Subtraction, the `-` operator, with a bool tensor is not supported. If "
                                "you are trying to invert a mask, use the `~` or `logical_not()` operator instead."),
    ("L().add_(F(), alpha=True)", "RuntimeError: result type Float can't be cast to the desired output type Long"),
    ("L().add_(F(), alpha=1.5)", "RuntimeError: result type Float can't be cast to the desired output type Long"),
    ("L().add(T.ones(3), alpha=True)", "RuntimeError: The size of tensor a (2) must match the size of tensor b (3) at "
                                       "non-singleton dimension 0"),
]


def alpha_outcome(T, expression):
    import numpy as np
    env = {"T": T, "np": np, "L": lambda: T.ones(2, dtype=T.int64), "F": lambda: T.ones(2),
           "B": lambda: T.tensor([True, False]), "B2": lambda: T.tensor([False, True])}
    return outcome(lambda: eval(expression, env))


@pytest.mark.parametrize("expression, want", ALPHA)
def test_alpha_of_add_and_sub_follows_the_results_dtype(expression, want):
    assert alpha_outcome(minigrad, expression) == want


@pytest.mark.parametrize("expression, want", ALPHA)
def test_the_alpha_table_is_torchs(expression, want):
    assert alpha_outcome(_torch(), expression) == want


# ---- 3. .grad's dtype and grad_dtype -------------------------------------------------------------
def _set(t, name, value):
    setattr(t, name, value)
    return getattr(t, name)


def warned(fn):
    """``[outcome(fn), the start of each warning it gave]``."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = outcome(fn)
    return [result, [_norm(str(w.message))[:43] for w in caught]]


def grad_dtype_program(T):
    out = {}
    L = T.int64
    out["assign"] = [outcome(lambda dt=dt, g=g: _set(T.ones(2, dtype=dt), "grad", T.ones(2, dtype=g)))
                     for dt, g in [(T.float32, T.float64), (T.float64, T.float32), (T.float32, L), (L, T.float32),
                                   (T.float32, T.float16), (T.float16, T.float64), (T.float32, T.bool),
                                   (T.float32, T.uint8), (T.int32, T.int8), (T.int16, T.float32), (L, L)]]
    x = T.ones(2)
    out["own_grad"] = outcome(lambda: _set(x, "grad", x))
    out["dtype_before_size"] = outcome(lambda: _set(T.ones(2), "grad", T.ones(3, dtype=T.float64)))
    out["size"] = outcome(lambda: _set(T.ones(2), "grad", T.ones(3)))
    out["not_a_tensor"] = outcome(lambda: _set(T.ones(2), "grad", [1.0, 2.0]))
    w = T.ones(2, requires_grad=True)
    y = w * 2
    out["defaults"] = [outcome(lambda: w.grad_dtype), outcome(lambda: T.ones(2, dtype=L).grad_dtype),
                       outcome(lambda: y.grad_dtype), outcome(lambda: w.detach().grad_dtype)]
    out["set_errors"] = [warned(lambda: _set(y, "grad_dtype", T.float64)), warned(lambda: _set(y, "grad_dtype", None)),
                         warned(lambda: _set(w, "grad_dtype", "float64")), warned(lambda: _set(w, "grad_dtype", 1))]
    out["set"] = [outcome(lambda: _set(w, "grad_dtype", d)) for d in (T.float16, None, T.float64)]
    (w * 3).sum().backward()
    out["backward"] = _plain(w.grad)
    (w * 3).sum().backward()
    out["accumulated"] = _plain(w.grad)
    out["assign_to_set"] = [outcome(lambda: _set(w, "grad", T.ones(2))),
                            outcome(lambda: _set(w, "grad", T.ones(2, dtype=T.float64)))]
    out["set_with_grad"] = [outcome(lambda d=d: _set(w, "grad_dtype", d)) for d in (T.float32, None, T.float64)]
    # None: any dtype, no cast; set after the graph was made: it counts
    a = T.ones(2, requires_grad=True)
    a.grad_dtype = None
    out["none_assign"] = [outcome(lambda: _set(a, "grad", T.ones(2, dtype=L))), outcome(lambda: _set(a, "grad", None))]

    class Double(T.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 1

        @staticmethod
        def backward(ctx, g):
            return g.double() * 2

    Double.apply(a).sum().backward()
    out["none_keeps_the_dtype"] = _plain(a.grad)
    b = T.ones(2, requires_grad=True)
    Double.apply(b).sum().backward()
    out["default_casts"] = _plain(b.grad)
    c = T.ones(2, requires_grad=True)
    z = c * 3
    c.grad_dtype = T.float64
    seen = []
    c.register_hook(lambda g: seen.append(str(g.dtype).split(".")[-1]))
    z.sum().backward()
    out["set_after_graph"] = [_plain(c.grad), seen]
    out["grad_of_it"] = outcome(lambda: T.autograd.grad((c * c).sum(), c))
    out["root_leaf"] = [outcome(lambda: (c.backward(T.ones(2)), c.grad)[1])]
    d = T.ones(2, requires_grad=True)
    e = d * 2
    d.grad_dtype = T.float64
    d.grad_dtype = None  # (None set after the graph was made: no cast)
    e.sum().backward()
    out["none_after_graph"] = _plain(d.grad)
    # the root's gradient takes the root's dtype (PyTorch's engine validates it too)
    f = T.ones(2, requires_grad=True)
    out["root_cast"] = [outcome(lambda: (f.backward(T.ones(2, dtype=T.float64)), f.grad)[1]),
                        outcome(lambda: T.autograd.grad(f * 1, f, T.ones(2, dtype=T.float64))),
                        outcome(lambda: T.autograd.grad(f, f, T.ones(2, dtype=T.float64)))]
    h = f * 2
    h.retain_grad()
    h.backward(T.ones(2, dtype=T.float64))
    out["root_retained"] = _plain(h.grad)
    # deepcopy assigns the copy's .grad through the setter: a grad_dtype it does not copy refuses it
    import copy
    p = T.ones(2, requires_grad=True)
    p.grad_dtype = T.float64
    p.grad = T.ones(2, dtype=T.float64)
    out["deepcopy"] = outcome(lambda: copy.deepcopy(p))
    return out


ASSIGN = ("RuntimeError: attempting to assign a gradient with dtype '{}' to a tensor with grad_dtype '{}'. The gradient "
          "must match the tensor's grad_dtype (defaults to the tensor's dtype). You can set the tensor's grad_dtype "
          "attribute with a specific dtype, or None to allow any dtype. Set grad_dtype with caution. Diverging the dtypes "
          "of a tensor and its gradient may break downstream systems that assume they match.")
HAS_GRAD = ("RuntimeError: Cannot set grad_dtype to '{}' because there is already a gradient with dtype '{}'. Please "
            "clear the gradient (.grad = None) before changing grad_dtype, or ensure the new grad_dtype matches the "
            "existing gradient's dtype.")
GRAD_DTYPE = {
    'assign': [
        ASSIGN.format('double', 'Float'),
        ASSIGN.format('float', 'Double'),
        ASSIGN.format('long int', 'Float'),
        ASSIGN.format('float', 'Long'),
        ASSIGN.format('c10::Half', 'Float'),
        ASSIGN.format('double', 'Half'),
        ASSIGN.format('bool', 'Float'),
        ASSIGN.format('unsigned char', 'Float'),
        ASSIGN.format('signed char', 'Int'),
        ASSIGN.format('float', 'Short'),
        [[1, 1], 'int64'],
    ],
    'own_grad': "RuntimeError: can't assign Variable as its own grad",
    'dtype_before_size': ASSIGN.format('double', 'Float'),
    'size': ("RuntimeError: attempting to assign a gradient of size '[3]' to a tensor of size '[2]'. Please ensure that "
             "the gradient and the tensor are the same size"),
    'not_a_tensor': 'TypeError: assigned grad expected to be a Tensor or None but got grad of type list',
    'defaults': [
        'float32',
        'int64',
        'RuntimeError: grad_dtype can only be accessed on leaf tensors.',
        'float32',
    ],
    'set_errors': [  # (a non-leaf's .grad is read first: it warns)
        ['RuntimeError: grad_dtype can only be set on leaf tensors.', ['The .grad attribute of a Tensor that is not']],
        ['RuntimeError: grad_dtype can only be set on leaf tensors.', ['The .grad attribute of a Tensor that is not']],
        ['RuntimeError: grad_dtype must be a T.dtype or None, but got str', []],
        ['RuntimeError: grad_dtype must be a T.dtype or None, but got int', []],
    ],
    'set': ['float16', None, 'float64'],
    'backward': [[3.0, 3.0], 'float64'],
    'accumulated': [[6.0, 6.0], 'float64'],
    'assign_to_set': [ASSIGN.format('float', 'Double'), [[1.0, 1.0], 'float64']],
    'set_with_grad': [HAS_GRAD.format('Float', 'double'), None, 'float64'],
    'none_assign': [[[1, 1], 'int64'], None],
    'none_keeps_the_dtype': [[2.0, 2.0], 'float64'],
    'default_casts': [[2.0, 2.0], 'float32'],
    'set_after_graph': [[[3.0, 3.0], 'float64'], ['float64', 'float64', 'float64']],
    'grad_of_it': [[[2.0, 2.0], 'float64']],
    'root_leaf': [[[4.0, 4.0], 'float64']],
    'none_after_graph': [[2.0, 2.0], 'float32'],
    'root_cast': [[[1.0, 1.0], 'float32'], [[[1.0, 1.0], 'float32']], [[[1.0, 1.0], 'float32']]],
    'root_retained': [[1.0, 1.0], 'float32'],
    'deepcopy': ASSIGN.format('double', 'Float'),
}


def test_grad_dtype_and_assigning_grad():
    assert grad_dtype_program(minigrad) == GRAD_DTYPE


def test_grad_dtype_is_torchs():
    assert grad_dtype_program(_torch()) == GRAD_DTYPE


# ---- 4. warnings PyTorch gives once per process --------------------------------------------------
_ONCE = """
import warnings
import {T} as T
for expr in ["T.cross(T.ones(2, 3), T.ones(2, 3))", "T.ones(2, 3).cross(T.ones(2, 3))",
             "T.meshgrid(T.ones(2), T.ones(3))", "T.meshgrid([T.ones(2), T.ones(3)])",
             "T.cross(T.ones(2, 3), T.ones(2, 3), dim=1)", "T.meshgrid(T.ones(2), T.ones(3), indexing='ij')"]:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        eval(expr)
    print(expr, [w.category.__name__ for w in caught])
    for w in caught:
        print(str(w.message))
"""


@pytest.mark.parametrize("lib", ["minigrad", "torch"])
def test_cross_without_dim_and_meshgrid_without_indexing_warn_once_per_process(lib):
    """PyTorch's C++ warns once per process (TORCH_WARN_ONCE): a parity case cannot see it (its two runs share a
    process), so each library runs in a fresh one (``test_everyday_ops.py``: the warning names the line that called)."""
    if lib == "torch":
        _torch()
    out = subprocess.run([sys.executable, "-c", _ONCE.format(T=lib)], capture_output=True, text=True,
                         check=True).stdout
    assert _norm(out).splitlines() == [
        "T.cross(T.ones(2, 3), T.ones(2, 3)) ['UserWarning']",
        "Using T.cross without specifying the dim arg is deprecated.",
        "Please either pass the dim explicitly or simply use T.linalg.cross.",
        "The default value of dim will change to agree with that of linalg.cross in a future release.",
        "T.ones(2, 3).cross(T.ones(2, 3)) []",
        "T.meshgrid(T.ones(2), T.ones(3)) ['UserWarning']",
        "T.meshgrid: in an upcoming release, it will be required to pass the indexing argument.",
        "T.meshgrid([T.ones(2), T.ones(3)]) []",
        "T.cross(T.ones(2, 3), T.ones(2, 3), dim=1) []",
        "T.meshgrid(T.ones(2), T.ones(3), indexing='ij') []"]


# ---- 5. backward(inputs=[y]) retains y's gradient ------------------------------------------------
def inputs_program(T):
    out = {}

    def grad_and_warnings(t):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            g = t.grad
        return [_plain(g), len(caught)]

    x = T.tensor([1.0, 2.0], requires_grad=True)
    y = x * 2
    z = (y * y).sum()
    z.backward(inputs=[y])
    out["first"] = [y.retains_grad, grad_and_warnings(y), _plain(x.grad)]
    out["again_through_y"] = outcome(lambda: y.sum().backward())
    out["again"] = outcome(lambda: z.backward(inputs=[y]))
    x = T.tensor([1.0, 2.0], requires_grad=True)
    y = x * 2
    z = (y * y).sum()
    z.backward(inputs=[y], retain_graph=True)
    out["retain_graph"] = [y.retains_grad, grad_and_warnings(y), _plain(x.grad)]
    y.sum().backward()
    out["retain_graph_through_y"] = [_plain(x.grad), grad_and_warnings(y)]
    out["retain_graph_again"] = outcome(lambda: z.backward(inputs=[y]))
    x = T.tensor([1.0, 2.0], requires_grad=True)
    y = x.exp()
    T.autograd.backward((y * 3).sum(), inputs=[y])
    out["function"] = [y.retains_grad, grad_and_warnings(y), outcome(lambda: y.grad_fn._saved_result)]
    x = T.tensor([1.0, 2.0], requires_grad=True)
    y = x + 1  # (its node saved nothing: a second backward through it is fine)
    (y * y).sum().backward(inputs=[y])
    out["saved_nothing"] = [grad_and_warnings(y), outcome(lambda: (y.sum().backward(), x.grad)[1])]
    x = T.tensor([1.0, 2.0], requires_grad=True)
    y = x * x
    ran = []
    y.grad_fn.register_prehook(lambda grads: ran.append("pre"))
    y.grad_fn.register_hook(lambda grads_in, grads_out: ran.append("post"))
    x.register_hook(lambda g: ran.append("x"))
    (y * 3).sum().backward(inputs=[y])
    out["its_node_runs"] = [ran, _plain(x.grad)]
    x = T.tensor([1.0, 2.0], requires_grad=True)
    y = x * x
    (y * 3).sum().backward(inputs=[y, x])
    out["both"] = [grad_and_warnings(y), _plain(x.grad)]
    x = T.tensor([1.0, 2.0], requires_grad=True)
    y = x * x
    (x * 5).sum().backward(inputs=[y])
    out["unused"] = [y.retains_grad, grad_and_warnings(y), _plain(x.grad)]
    b = x * 1
    v = b[0:1]
    (v * 2).sum().backward(inputs=[v])
    out["view"] = [v.retains_grad, grad_and_warnings(v)]
    r = (x * x).sum()
    r.backward(inputs=[r])
    out["root"] = [r.retains_grad, grad_and_warnings(r), outcome(lambda: r.backward())]
    out["no_grad"] = outcome(lambda: (x * 2).sum().backward(inputs=[T.ones(2)]))
    x = T.tensor([1.0, 2.0], requires_grad=True)
    y = x * x
    (y * y).sum().backward(inputs=[y], create_graph=True)
    out["create_graph"] = [_plain(y.grad), y.grad.requires_grad]
    x = T.tensor([1.0, 2.0], requires_grad=True)
    y = x * x
    (y * 3).sum().backward(inputs=[T.autograd.graph.get_gradient_edge(y)])  # an edge: no retain_grad, but its node runs
    out["edge"] = [y.retains_grad, outcome(lambda: y.sum().backward())]
    return out


FREED = ("RuntimeError: Trying to backward through the graph a second time (or directly access saved tensors after they "
         "have already been freed). Saved intermediate values of the graph are freed when you call .backward() or "
         "autograd.grad(). Specify retain_graph=True if you need to backward through the graph a second time or if you "
         "need to access saved tensors after calling backward.")
INPUTS = {
    'first': [True, [[[4.0, 8.0], 'float32'], 0], None],
    'again_through_y': FREED,
    'again': FREED,
    'retain_graph': [True, [[[4.0, 8.0], 'float32'], 0], None],
    'retain_graph_through_y': [[[2.0, 2.0], 'float32'], [[[5.0, 9.0], 'float32'], 0]],
    'retain_graph_again': FREED,
    'function': [True, [[[3.0, 3.0], 'float32'], 0], FREED],
    'saved_nothing': [[[[4.0, 6.0], 'float32'], 0], [[1.0, 1.0], 'float32']],
    'its_node_runs': [['pre', 'post'], None],
    'both': [[[[3.0, 3.0], 'float32'], 0], [[6.0, 12.0], 'float32']],
    'unused': [True, [None, 0], None],
    'view': [True, [[[2.0], 'float32'], 0]],
    'root': [True, [[1.0, 'float32'], 0], None],
    'no_grad': "RuntimeError: can't retain_grad on Tensor that has requires_grad=False",
    'create_graph': [[[2.0, 8.0], 'float32'], True],
    'edge': [False, FREED],
}


def test_backward_inputs_retains_the_gradient_of_a_non_leaf():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # (backward(create_graph=True) warns once per process)
        assert inputs_program(minigrad) == INPUTS


def test_backward_inputs_is_torchs():
    torch = _torch()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert inputs_program(torch) == INPUTS


# ---- add/sub's alpha must be a number; histc's message for a nan range (torch 2.13's, recorded) ------------------
def alpha_program(T):
    out = {}
    x = T.ones(2)
    cases = {"tensor0": T.tensor(2.0), "tensor1": T.tensor([2.0]), "str": "a", "none": None, "list": [1], "float": 2.5}
    for key, alpha in cases.items():
        for name in ("add", "sub", "add_", "sub_"):
            try:
                out[f"{name}_{key}"] = getattr(x.clone(), name)(T.ones(2), alpha=alpha).tolist()
            except Exception as e:  # noqa: BLE001
                out[f"{name}_{key}"] = f"{type(e).__name__}: {e}"
    try:
        T.add(x, 1, alpha=[1])
    except TypeError as e:
        out["function"] = str(e)
    try:
        T.histc(T.tensor([float("nan"), 1.0]), bins=3)
    except RuntimeError as e:
        out["histc_nan"] = str(e).replace("torch.", "").replace("minigrad.", "")
    return out


def _alpha_expected():
    want = {"function": "add(): argument 'alpha' must be Number, not list",
            "histc_nan": "histc: range of [-nan, -nan] is not finite"}
    for name in ("add", "sub", "add_", "sub_"):
        sign = 1 if name.startswith("add") else -1
        want[f"{name}_tensor0"] = [1 + sign * 2.0] * 2
        want[f"{name}_float"] = [1 + sign * 2.5] * 2
        for key, kind in (("tensor1", "Tensor"), ("str", "str"), ("none", "NoneType"), ("list", "list")):
            want[f"{name}_{key}"] = f"TypeError: {name}(): argument 'alpha' must be Number, not {kind}"
    return want


def test_alpha_must_be_a_number():
    assert alpha_program(minigrad) == _alpha_expected()


def test_alpha_must_be_a_number_in_torch():
    assert alpha_program(_torch()) == _alpha_expected()


# ---- 6. calling a node by hand ---------------------------------------------------------------------
def node_call_program(T):
    """``node(grad)`` runs one node's backward: a tensor for one edge, a tuple for several, () for a leaf's."""
    x = T.ones(3, 1, requires_grad=True)
    y = T.ones(1, 4, requires_grad=True)
    z = x + y
    out = {"add": outcome(lambda: [type(z.grad_fn(T.ones(3, 4))).__name__,
                                   [list(g.shape) for g in z.grad_fn(T.ones(3, 4))]])}  # (not summed: the engine does)
    e = x.exp()
    out["exp"] = outcome(lambda: [type(e.grad_fn(T.ones(3, 1))).__name__, e.grad_fn(T.ones(3, 1)).requires_grad])
    m = x * 2
    out["mul_number"] = outcome(lambda: [type(m.grad_fn(T.ones(3, 1))).__name__, m.grad_fn(T.ones(3, 1))[1]])
    out["accumulate"] = outcome(lambda: [m.grad_fn.next_functions[0][0](T.ones(3, 1)), _plain(x.grad)[0]])
    a, _ = T.ones(2, requires_grad=True).split(1)
    out["split_none"] = outcome(lambda: a.grad_fn(T.ones(1), None))
    out["no_argument"] = outcome(lambda: z.grad_fn())
    out["two_arguments"] = outcome(lambda: z.grad_fn(T.ones(3, 4), T.ones(3, 4)))

    class Double(T.autograd.Function):
        @staticmethod
        def forward(ctx, t):
            return t * 2

        @staticmethod
        def backward(ctx, g):
            return g * 2

    d = Double.apply(x)
    out["custom"] = outcome(lambda: d.grad_fn(T.ones(3, 1)))
    return out


NODE_CALL = {
    "add": ["tuple", [[3, 4], [3, 4]]],
    "exp": ["Tensor", True],
    "mul_number": ["tuple", None],
    "accumulate": [[], [[1.0], [1.0], [1.0]]],
    "split_none": [[1.0, 0.0], "float32"],
    "no_argument": "TypeError: expected 1 arguments, got 0 instead",
    "two_arguments": "TypeError: expected 1 arguments, got 2 instead",
    "custom": "TypeError: 'DoubleBackward' object is not callable",
}


def test_calling_a_node_gives_a_tensor_or_a_tuple():
    assert node_call_program(minigrad) == NODE_CALL


def test_calling_a_node_is_torchs():
    assert node_call_program(_torch()) == NODE_CALL
