"""``linalg.inv`` and ``inverse``: values, LAPACK's column-major layout, ``LinalgInvExBackward0`` with its saved
inverse, first and second derivatives, and PyTorch's errors (a singular matrix: ``linalg.LinAlgError`` naming the zero
pivot).  The expected lines were printed by this same program under torch 2.13 (its module's name replaced); with torch
importable it is run live too."""
import pytest
from recorded_programs import printed_by

import minigrad

PROGRAM = """\
def show(name, f):
    try: r = f()
    except Exception as e: r = f"{type(e).__name__}: {e}"
    print(f"{name}: {r}")
A = T.tensor([[2., 1.], [1., 3.]], requires_grad=True)
y = T.linalg.inv(A)
show("values", lambda: [[round(v, 6) for v in row] for row in y.tolist()])
show("stride", lambda: (y.stride(), T.inverse(T.ones(3,2,2) * T.eye(2)).stride(), T.linalg.inv(T.eye(3).double()).stride()))
show("node", lambda: (y.grad_fn.name(), [n.name() for n, _ in y.grad_fn.next_functions], sorted(x for x in dir(y.grad_fn) if x.startswith("_saved"))))
show("saved", lambda: (y.grad_fn._saved_inverse.tolist() == y.tolist(), y.grad_fn._saved_inverse.stride()))
g, = T.autograd.grad((y * T.tensor([[1., 2.], [3., 4.]])).sum(), A, create_graph=True)
show("grad", lambda: ([[round(v, 6) for v in row] for row in g.tolist()], g.stride(), g.grad_fn.name()))
g2, = T.autograd.grad(g.sum(), A)
show("grad2", lambda: [[round(v, 5) for v in row] for row in g2.tolist()])
B = T.tensor([[[2., 1.], [1., 3.]], [[1., 0.], [0., 4.]]], requires_grad=True)
yb = B.inverse(); yb.sum().backward()
show("batched", lambda: ([[[round(v, 6) for v in r] for r in m] for m in B.grad.tolist()], yb.grad_fn.name()))
show("t input", lambda: (lambda x: (T.linalg.inv(x.t()).stride(), T.autograd.grad(T.linalg.inv(x.t()).sum(), x)[0].stride()))(T.tensor([[2., 1.], [1., 3.]], requires_grad=True)))
show("singular", lambda: T.linalg.inv(T.tensor([[1., 2.], [2., 4.]])))
show("singular type", lambda: isinstance((lambda: None)(), type(None)))
show("zeros", lambda: T.inverse(T.zeros(2, 2)))
show("batch singular", lambda: T.linalg.inv(T.stack([T.eye(3), T.tensor([[1., 2, 3], [2, 4, 6], [1, 1, 1]])])))
show("1d", lambda: T.linalg.inv(T.ones(3)))
show("rect", lambda: T.linalg.inv(T.ones(2, 3, 3)[..., :2]))
show("half", lambda: T.linalg.inv(T.eye(2).half()))
show("long", lambda: T.inverse(T.ones(2, 2, dtype=T.int64)))
show("list", lambda: T.inverse([[1.]]))
show("empty", lambda: (T.linalg.inv(T.zeros(0, 0)).shape, T.linalg.inv(T.ones(2, 0, 0)).shape))
show("nan", lambda: T.linalg.inv(T.tensor([[float('nan'), 1.], [1., 1.]])).tolist())
show("perm", lambda: T.linalg.inv(T.tensor([[0., 1.], [1., 0.]])).tolist())
try:
    T.linalg.inv(T.tensor([[1., 2.], [2., 4.]]))
except T.linalg.LinAlgError as e:
    print("caught as linalg.LinAlgError", isinstance(e, RuntimeError), type(e).__name__)
"""

EXPECTED = [
    'values: [[0.6, -0.2], [-0.2, 0.4]]',
    'stride: ((1, 2), (4, 1, 2), (1, 3))',
    "node: ('LinalgInvExBackward0', ['minigrad::autograd::AccumulateGrad'], ['_saved_inverse'])",
    'saved: (True, (1, 2))',
    "grad: ([[0.08, -0.16], [-0.36, -0.28]], (2, 1), 'NegBackward0')",
    'grad2: [[0.144, 0.192], [0.312, 0.216]]',
    "batched: ([[[-0.16, -0.08], [-0.08, -0.04]], [[-1.0, -0.25], [-0.25, -0.0625]]], 'LinalgInvExBackward0')",
    't input: ((1, 2), (1, 2))',
    'singular: _LinAlgError: linalg.inv: The diagonal element 2 is zero, the inversion could not be completed because the input matrix is singular.',
    'singular type: True',
    'zeros: _LinAlgError: linalg.inv: The diagonal element 1 is zero, the inversion could not be completed because the input matrix is singular.',
    'batch singular: _LinAlgError: linalg.inv: (Batch element 1): The diagonal element 3 is zero, the inversion could not be completed because the input matrix is singular.',
    '1d: RuntimeError: linalg.inv: The input tensor A must have at least 2 dimensions.',
    'rect: RuntimeError: linalg.inv: A must be batches of square matrices, but they are 3 by 2 matrices',
    'half: RuntimeError: linalg.inv: Low precision dtypes not supported. Got Half',
    'long: RuntimeError: linalg.inv: Expected a floating point or complex tensor as input. Got Long',
    "list: TypeError: inverse(): argument 'input' (position 1) must be Tensor, not list",
    'empty: (minigrad.Size([0, 0]), minigrad.Size([2, 0, 0]))',
    'nan: [[nan, nan], [nan, nan]]',
    'perm: [[0.0, 1.0], [1.0, 0.0]]',
    'caught as linalg.LinAlgError True _LinAlgError',
]


def run(T):
    return printed_by(T, PROGRAM)


def test_inv_gives_pytorchs_values_layout_nodes_gradients_and_errors():
    assert run(minigrad) == EXPECTED


def test_the_recorded_lines_are_what_torch_prints_now():
    torch = pytest.importorskip("torch")
    assert run(torch) == EXPECTED


def test_inv_passes_gradcheck_and_gradgradcheck():
    a = minigrad.tensor([[[2.0, 0.5, 0.1], [0.3, 1.5, -0.2], [0.0, 0.4, 3.0]]] * 2, dtype=minigrad.float64,
                        requires_grad=True)
    assert minigrad.autograd.gradcheck(minigrad.linalg.inv, (a,))
    assert minigrad.autograd.gradgradcheck(minigrad.linalg.inv, (a,))
    assert minigrad.allclose(minigrad.linalg.inv(a) @ a, minigrad.eye(3, dtype=minigrad.float64).expand(2, 3, 3))
