"""minigrad.nn.utils against PyTorch 2.13: gradient clipping and the parameter-vector helpers.

Each program runs with ``T`` as the library and sets ``out``; next to it is what torch 2.13 gave
(recorded once by running the program with torch).  ``test_nn_utils`` checks minigrad against that
answer, ``test_nn_utils_live`` checks that torch, when installed, still gives it.
"""
import warnings

import pytest

import minigrad
from recorded_programs import INF, NAN, run_program, same

_PROGRAMS = {
    # a small Linear model after backward: clipping below the norm scales the grads, above it leaves them
    "clip_norm_linear_below_and_above": ("""
T.manual_seed(0)
model = T.nn.Linear(3, 2)
x = T.tensor([[1., 2., 3.], [-1., 0.5, 2.]])
def fresh():
    model.zero_grad()
    (model(x) ** 2).sum().backward()
out = []
for max_norm in [0.5, 1e6]:
    fresh()
    n = T.nn.utils.clip_grad_norm_(model.parameters(), max_norm)
    out += [n, n.dim(), str(n.dtype), n.requires_grad, model.weight.grad, model.bias.grad]
""", [11.231579780578613, 0, 'minigrad.float32', False, [[-0.00171449885237962, -0.1820835918188095, -0.3624526858329773], [-0.09157410264015198, 0.057496123015880585, 0.20656633377075195]], [-0.14463816583156586, 0.10094135999679565], 11.231579780578613, 0, 'minigrad.float32', False, [[-0.03851306438446045, -4.090173244476318, -8.141833305358887], [-2.0570437908172607, 1.2915446758270264, 4.640132904052734]], [-3.249030590057373, 2.2674620151519775]]),
    # norm types 1, 2, inf, 3.0 (and "inf" spelled as a string, and an int 2)
    "clip_norm_types": ("""
out = []
for norm_type in [1, 2, 2.0, float("inf"), "inf", 3.0]:
    a = T.tensor([[1., -2.], [3., 0.5]], requires_grad=True)
    b = T.tensor([-4., 0.25], requires_grad=True)
    (a * T.tensor([[1., 2.], [-3., 4.]])).sum().backward()
    (b * b).sum().backward()
    n = T.nn.utils.clip_grad_norm_([a, b], 1.5, norm_type=norm_type)
    out += [n, a.grad, b.grad]
""", [18.5, [[0.08108107000589371, 0.16216214001178741], [-0.24324321746826172, 0.32432428002357483]], [-0.6486485600471497, 0.040540535002946854], 9.708244323730469, [[0.1545078307390213, 0.3090156614780426], [-0.4635235071182251, 0.6180313229560852]], [-1.2360626459121704, 0.07725391536951065], 9.708244323730469, [[0.1545078307390213, 0.3090156614780426], [-0.4635235071182251, 0.6180313229560852]], [-1.2360626459121704, 0.07725391536951065], 8.0, [[0.1874999701976776, 0.3749999403953552], [-0.5624998807907104, 0.7499998807907104]], [-1.499999761581421, 0.0937499850988388], 8.0, [[0.1874999701976776, 0.3749999403953552], [-0.5624998807907104, 0.7499998807907104]], [-1.499999761581421, 0.0937499850988388], 8.490763664245605, [[0.17666253447532654, 0.3533250689506531], [-0.5299875736236572, 0.7066501379013062]], [-1.4133002758026123, 0.08833126723766327]]),
    # float64 parameters: the norm and the scaled grads are float64
    "clip_norm_float64": ("""
a = T.tensor([0.1, 0.2, 0.3], dtype=T.float64, requires_grad=True)
(a * T.tensor([3., -4., 12.], dtype=T.float64)).sum().backward()
n = T.nn.utils.clip_grad_norm_(a, 2.0)
out = [n, str(n.dtype), str(a.grad.dtype), a.grad]
""", [13.0, 'minigrad.float64', 'minigrad.float64', [0.46153842603550577, -0.615384568047341, 1.846153704142023]]),
    # mixed float32 and float64 grads: the total norm is float64, each grad keeps its dtype
    "clip_norm_mixed_dtypes": ("""
a = T.tensor([1., 2.], requires_grad=True)
b = T.tensor([3.], dtype=T.float64, requires_grad=True)
(a * 3).sum().backward()
(b * b).sum().backward()
n = T.nn.utils.clip_grad_norm_([a, b], 1.0)
out = [n, str(n.dtype), a.grad, str(a.grad.dtype), b.grad, str(b.grad.dtype)]
""", [7.348469117602789, 'minigrad.float64', [0.40824824571609497, 0.40824824571609497], 'minigrad.float32', [0.8164964821218208], 'minigrad.float64']),
    # a parameter without grad is skipped; an empty list, a list of no grads and an empty generator give tensor(0.)
    "clip_norm_missing_grads": ("""
import warnings
a = T.tensor([3., 4.], requires_grad=True)
b = T.tensor([1., 1.], requires_grad=True)
(a * a).sum().backward()
n = T.nn.utils.clip_grad_norm_([a, b], 5.0)
e = T.nn.utils.clip_grad_norm_([], 1.0)
none = T.nn.utils.clip_grad_norm_([b], 1.0)
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    g = T.nn.utils.clip_grad_norm_((p for p in []), 1.0)
out = [n, a.grad, b.grad is None, e, str(e.dtype), e.dim(), none, g,
       [(w.category.__name__, str(w.message)) for w in caught]]
""", [10.0, [2.999999761581421, 3.999999761581421], True, 0.0, 'minigrad.float32', 0, 0.0, 0.0, [('UserWarning', '`parameters` is an empty generator, no gradient clipping will occur.')]]),
    # a single tensor instead of a list
    "clip_norm_single_tensor": ("""
a = T.tensor([[3., 4.], [0., 12.]], requires_grad=True)
(a * a / 2).sum().backward()
n = T.nn.utils.clip_grad_norm_(a, 6.5, norm_type=2)
out = [n, a.grad]
""", [13.0, [[1.4999998807907104, 1.9999998807907104], [0.0, 5.999999523162842]]]),
    # error_if_nonfinite: an inf grad raises PyTorch's RuntimeError; without it the grads are scaled by 0 (nan for inf)
    "clip_norm_nonfinite": ("""
def err(f):
    try:
        return f()
    except RuntimeError as e:
        return type(e).__name__ + ": " + str(e)
a = T.tensor([1., 2.], requires_grad=True)
(a * T.tensor([float("inf"), 1.])).sum().backward()
raised = err(lambda: T.nn.utils.clip_grad_norm_([a], 1.0, error_if_nonfinite=True))
kept = a.grad.clone()
n = T.nn.utils.clip_grad_norm_([a], 1.0)
b = T.tensor([1., 2.], requires_grad=True)
(b * T.tensor([float("nan"), 1.])).sum().backward()
raised_nan = err(lambda: T.nn.utils.clip_grad_norm_(b, 1.0, norm_type=1, error_if_nonfinite=True))
out = [raised, kept, n, a.grad, raised_nan]
""", ['RuntimeError: The total norm of order 2.0 for gradients from `parameters` is non-finite, so it cannot be clipped. To disable this error and scale the gradients by the non-finite norm anyway, set `error_if_nonfinite=False`', [INF, 1.0], INF, [NAN, 0.0], 'RuntimeError: The total norm of order 1.0 for gradients from `parameters` is non-finite, so it cannot be clipped. To disable this error and scale the gradients by the non-finite norm anyway, set `error_if_nonfinite=False`']),
    # clip_grad_norm (no underscore) is the deprecated name: a FutureWarning, then the same clipping
    "clip_norm_deprecated_alias": ("""
import warnings
a = T.tensor([3., 4.], requires_grad=True)
(a * a / 2).sum().backward()
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    n = T.nn.utils.clip_grad_norm(a, 1.0)
out = [n, a.grad, len(caught), caught[0].category.__name__, str(caught[0].message)]
""", [5.0, [0.5999999046325684, 0.7999998331069946], 1, 'FutureWarning', '`minigrad.nn.utils.clip_grad_norm` is now deprecated in favor of `minigrad.nn.utils.clip_grad_norm_`.']),
    # get_total_norm and clip_grads_with_norm_: the two halves of clip_grad_norm_
    "total_norm_then_clip": ("""
a = T.tensor([1., -2., 2.], requires_grad=True)
b = T.tensor([4.], requires_grad=True)
(a * a / 2).sum().backward()
(b * b / 2).sum().backward()
n = T.nn.utils.get_total_norm([a.grad, b.grad])
n_inf = T.nn.utils.get_total_norm(a.grad, norm_type="inf")
r = T.nn.utils.clip_grads_with_norm_([a, b], 2.5, n)
out = [n, n_inf, r is None, a.grad, b.grad]
""", [5.0, 2.0, True, [0.49999988079071045, -0.9999997615814209, 0.9999997615814209], [1.9999995231628418]]),
    # clip_grad_value_: each element clamped into [-v, v], in place, returns None; params without grad skipped
    "clip_value": ("""
T.manual_seed(0)
model = T.nn.Linear(3, 2)
(model(T.tensor([[1., 2., 3.]])) * 10).sum().backward()
w = model.weight.grad
r = T.nn.utils.clip_grad_value_(model.parameters(), 4)
a = T.tensor([0.5, -3.], requires_grad=True)
(a * a).sum().backward()
T.nn.utils.clip_grad_value_([a, T.zeros(2, requires_grad=True)], clip_value=1.5)
out = [r is None, w is model.weight.grad, model.weight.grad, model.bias.grad, a.grad]
""", [True, True, [[4.0, 4.0, 4.0], [4.0, 4.0, 4.0]], [4.0, 4.0], [1.0, -1.5]]),
    # clipping records nothing: the grads stay leaves without grad_fn, even with create_graph
    "clip_records_no_graph": ("""
a = T.tensor([3., 4.], requires_grad=True)
(a * a).sum().backward(create_graph=True)
n = T.nn.utils.clip_grad_norm_(a, 1.0)
out = [n.requires_grad, n.grad_fn is None, a.grad.requires_grad, a.grad.grad_fn is None]
""", [False, True, True, False]),
    # parameters_to_vector / vector_to_parameters: a round trip, and the parameters share the vector afterwards
    "vector_round_trip": ("""
T.manual_seed(0)
model = T.nn.Linear(2, 3)
v = T.nn.utils.parameters_to_vector(model.parameters())
info = [list(v.shape), type(v.grad_fn).__name__, v.requires_grad]
new = T.arange(9.)
T.nn.utils.vector_to_parameters(new, model.parameters())
new[0] = 100.
out = [v] + info + [model.weight, model.bias, type(model.weight).__name__, model.weight.requires_grad,
       list(model.weight.shape), T.nn.utils.parameters_to_vector(model.parameters())]
""", [[-0.005293981172144413, 0.37932288646698, -0.5819807648658752, -0.5203874707221985, -0.27234524488449097, 0.1896158903837204, -0.014010033570230007, 0.5606575012207031, -0.06275151669979095], [9], 'CatBackward0', True, [[100.0, 1.0], [2.0, 3.0], [4.0, 5.0]], [6.0, 7.0, 8.0], 'Parameter', True, [3, 2], [100.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0]]),
    # their errors: a vector that is not a tensor (PyTorch's TypeError), no parameters, a vector too short
    "vector_errors": ("""
def err(f):
    try:
        f()
        return "no error"
    except (TypeError, ValueError, RuntimeError) as e:
        return type(e).__name__ + ": " + str(e)
p = [T.nn.Parameter(T.zeros(2, 2)), T.nn.Parameter(T.zeros(3))]
out = [err(lambda: T.nn.utils.vector_to_parameters([1., 2.], p)),
       err(lambda: T.nn.utils.vector_to_parameters(3.0, p)),
       err(lambda: T.nn.utils.parameters_to_vector([])),
       err(lambda: T.nn.utils.vector_to_parameters(T.zeros(5), p)),
       err(lambda: T.nn.utils.vector_to_parameters(T.zeros(9), p))]
""", ['TypeError: expected minigrad.Tensor, but got: list', 'TypeError: expected minigrad.Tensor, but got: float', 'ValueError: minigrad.cat(): expected a non-empty list of Tensors', "RuntimeError: shape '[3]' is invalid for input of size 1", 'no error']),
}


@pytest.mark.parametrize("name", sorted(_PROGRAMS))
def test_nn_utils(name):
    source, want = _PROGRAMS[name]
    got = run_program(minigrad, source)
    assert same(got, want), f"{name}: minigrad {got}, torch printed {want}"


@pytest.mark.parametrize("name", sorted(_PROGRAMS))
def test_nn_utils_live(name):
    torch = pytest.importorskip("torch")
    source, want = _PROGRAMS[name]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # (torch's warning about backward(create_graph=True))
        got = run_program(torch, source)
    assert same(got, want), f"{name}: torch now prints {got}, the test has {want}"
