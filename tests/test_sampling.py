"""``bernoulli``: PyTorch's samples after the same seed (each element one uniform in memory order, 24 or 53 random
bits as p is float32 or float64), its zero gradients, node names and errors.  The expected lines were printed by
this same program under torch 2.13 (its module's name replaced); with torch importable it is run live too."""
import pytest
from recorded_programs import printed_by

import minigrad

PROGRAM = """\
def show(name, f):
    try: r = f()
    except Exception as e: r = f"{type(e).__name__}: {e}"
    print(f"{name}: {r}")
T.manual_seed(0)
p = T.rand(12, dtype=T.float64)
T.manual_seed(3); show("f64", lambda: T.bernoulli(p).tolist())
T.manual_seed(3); show("f32", lambda: T.bernoulli(p.float()).tolist())
T.manual_seed(3); show("f16", lambda: T.bernoulli(p.half()).tolist())
T.manual_seed(3); show("2d t", lambda: (lambda r: (r.tolist(), r.stride()))(T.bernoulli(p.float().reshape(3,4).t())))
T.manual_seed(3); show("inplace int", lambda: T.empty(12, dtype=T.int64).bernoulli_(p).tolist())
T.manual_seed(3); show("inplace t", lambda: (lambda x: x.bernoulli_(p.float().reshape(4,3)).tolist())(T.empty(3,4).t()))
T.manual_seed(3); show("inplace bcast", lambda: T.empty(2,12).bernoulli_(p).tolist())
T.manual_seed(3); show("method", lambda: p.bernoulli().tolist())
show("int p", lambda: T.bernoulli(T.tensor([1, 0])))
show("bool p", lambda: T.bernoulli(T.tensor([True])))
show("p>1", lambda: T.bernoulli(T.tensor([1.5])))
show("p nan", lambda: T.bernoulli(T.tensor([float('nan')])))
show("num p>1", lambda: T.empty(3).bernoulli_(1.5))
show("bad bcast", lambda: T.empty(3).bernoulli_(T.rand(2)))
x = T.rand(3, requires_grad=True); y = T.bernoulli(x)
show("grad_fn", lambda: (y.grad_fn.name(), y.requires_grad, [type(n).__name__ for n, _ in y.grad_fn.next_functions]))
y.sum().backward(); show("grad", lambda: x.grad.tolist())
z = T.ones(3, requires_grad=True).clone(); q = T.rand(3, requires_grad=True); z.bernoulli_(q)
show("inplace grad_fn", lambda: (z.grad_fn.name(), [type(n).__name__ for n, _ in z.grad_fn.next_functions]))
z.sum().backward(); show("q grad", lambda: q.grad.tolist())
z = T.ones(3, requires_grad=True).clone(); z.bernoulli_(0.3)
show("inplace num grad_fn", lambda: (z.grad_fn.name(), [type(n).__name__ for n, _ in z.grad_fn.next_functions]))
show("gen", lambda: T.bernoulli(p, generator=T.Generator().manual_seed(1)).tolist())
show("scalar", lambda: T.bernoulli(T.tensor(0.5)).shape)
show("out", lambda: T.bernoulli(T.ones(3), out=T.empty(3)).tolist())
show("p overload", lambda: T.bernoulli(T.ones(3), 0.0).tolist())
w = T.tensor([float('nan'), 1.], requires_grad=True); yy = T.bernoulli(T.tensor([0.5, 1.]).requires_grad_()); 
show("f32 dtype", lambda: T.bernoulli(T.ones(2)).dtype)
"""

EXPECTED = [
    'f64: [1.0, 1.0, 0.0, 1.0, 0.0, 1.0, 0.0, 0.0, 1.0, 0.0, 1.0, 0.0]',
    'f32: [1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0]',
    'f16: [1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0]',
    '2d t: ([[1.0, 1.0, 1.0], [1.0, 1.0, 1.0], [0.0, 0.0, 0.0], [1.0, 0.0, 0.0]], (3, 1))',
    'inplace int: [1, 1, 0, 1, 0, 1, 0, 0, 1, 0, 1, 0]',
    'inplace t: [[1.0, 1.0, 0.0], [1.0, 1.0, 0.0], [0.0, 0.0, 1.0], [1.0, 0.0, 0.0]]',
    'inplace bcast: [[1.0, 1.0, 0.0, 1.0, 0.0, 1.0, 0.0, 0.0, 1.0, 0.0, 1.0, 0.0], [1.0, 1.0, 0.0, 1.0, 1.0, 1.0, 0.0, 1.0, 0.0, 0.0, 1.0, 0.0]]',
    'method: [1.0, 1.0, 0.0, 1.0, 0.0, 1.0, 0.0, 0.0, 1.0, 0.0, 1.0, 0.0]',
    'int p: NotImplementedError: "bernoulli_tensor_cpu_p_" not implemented for \'Long\'',
    'bool p: NotImplementedError: "bernoulli_tensor_cpu_p_" not implemented for \'Bool\'',
    'p>1: RuntimeError: Expected p_in >= 0 && p_in <= 1 to be true, but got false.  (Could this error message be improved?  If so, please report an enhancement request to PyTorch.)',
    'p nan: RuntimeError: Expected p_in >= 0 && p_in <= 1 to be true, but got false.  (Could this error message be improved?  If so, please report an enhancement request to PyTorch.)',
    'num p>1: RuntimeError: bernoulli_ expects p to be in [0, 1], but got p=1.5',
    'bad bcast: RuntimeError: The expanded size of the tensor (3) must match the existing size (2) at non-singleton dimension 0.  Target sizes: [3].  Tensor sizes: [2]',
    "grad_fn: ('BernoulliBackward0', True, ['AccumulateGrad'])",
    'grad: [0.0, 0.0, 0.0]',
    "inplace grad_fn: ('BernoulliBackward1', ['CloneBackward0', 'AccumulateGrad'])",
    'q grad: [0.0, 0.0, 0.0]',
    "inplace num grad_fn: ('BernoulliBackward2', ['CloneBackward0'])",
    'gen: [1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0]',
    'scalar: minigrad.Size([])',
    'out: [1.0, 1.0, 1.0]',
    'p overload: [0.0, 0.0, 0.0]',
    'f32 dtype: minigrad.float32',
]


def run(T):
    return printed_by(T, PROGRAM)


def test_bernoulli_gives_pytorchs_samples_gradients_and_errors():
    assert run(minigrad) == EXPECTED


def test_the_recorded_lines_are_what_torch_prints_now():
    torch = pytest.importorskip("torch")
    assert run(torch) == EXPECTED


def test_bernoulli_draws_with_the_frequency_asked_for():
    minigrad.manual_seed(0)
    p = minigrad.tensor([0.0, 0.2, 0.9, 1.0]).expand(20000, 4)
    freq = minigrad.bernoulli(p.contiguous()).mean(0)
    assert freq[0].item() == 0 and freq[3].item() == 1
    assert abs(freq[1].item() - 0.2) < 0.02 and abs(freq[2].item() - 0.9) < 0.02
    x = minigrad.empty(20000).bernoulli_(0.3)
    assert abs(x.mean().item() - 0.3) < 0.02
