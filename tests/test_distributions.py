"""``minigrad.distributions``: ``Categorical`` and ``Normal`` as torch 2.13 gives them (reprs, samples after the same
seed, log-probabilities, entropies, the gradients of a policy gradient and of ``rsample``, the errors of
``validate_args``).  The expected lines were printed by this same program under torch 2.13 (its module's name
replaced); with torch importable it is run live too."""
import numpy as np
import pytest
from recorded_programs import printed_by

import minigrad

PROGRAM = """\
D = T.distributions
def show(name, f):
    try: r = f()
    except Exception as e: r = f"{type(e).__name__}: {e}"
    print(f"{name}: {r}")
def r(t, n=5): return [round(v, n) for v in t.reshape(-1).tolist()]
c = D.Categorical(T.tensor([0.2, 0.3, 0.5]))
show("repr", lambda: (repr(c), c.batch_shape, c.event_shape, repr(c.support), c.param_shape))
T.manual_seed(0); show("sample", lambda: (c.sample().item(), c.sample((2, 3)).tolist(), c.sample().dtype))
show("log_prob", lambda: r(c.log_prob(T.tensor([0, 1, 2]))))
show("entropy", lambda: r(c.entropy()))
show("logits", lambda: r(c.logits))
show("mode", lambda: c.mode.item())
cl = D.Categorical(logits=T.tensor([[1., 2., 3.], [0., 0., 0.]]))
show("logits repr", lambda: (repr(cl), cl.batch_shape, r(cl.probs), r(cl.logits)))
T.manual_seed(1); show("batch sample", lambda: (cl.sample().tolist(), cl.sample((4,)).shape))
show("batch log_prob", lambda: r(cl.log_prob(T.tensor([2, 0]))))
show("bcast log_prob", lambda: r(cl.log_prob(T.tensor([[2], [1]]))))
show("enumerate", lambda: cl.enumerate_support().tolist())
show("bad probs", lambda: D.Categorical(T.tensor([0.2, -0.3, 0.5])))
show("nan logits", lambda: D.Categorical(logits=T.tensor([0.2, float('nan')])))
show("out of support", lambda: c.log_prob(T.tensor(3)))
show("not tensor", lambda: c.log_prob(1))
show("bad shape", lambda: cl.log_prob(T.tensor([0, 1, 2])))
show("none", lambda: D.Categorical())
show("0-dim", lambda: D.Categorical(T.tensor(0.5)))
show("no validate", lambda: r(D.Categorical(T.tensor([0.2, -0.3, 0.5]), validate_args=False).probs))
# a policy gradient
logits = T.tensor([0.5, -0.2, 0.1], requires_grad=True)
T.manual_seed(3)
m = D.Categorical(logits=logits)
action = m.sample()
loss = -m.log_prob(action) * 2.0
loss.backward()
show("pg", lambda: (action.item(), r(logits.grad), loss.grad_fn.name()))
show("pg graph", lambda: [n.name() if n else None for n, _ in m.log_prob(action).grad_fn.next_functions])
p = T.tensor([0.2, 0.3, 0.5], requires_grad=True)
cp = D.Categorical(probs=p); e = cp.entropy(); e.backward()
show("entropy grad", lambda: (r(e), r(p.grad)))
n = D.Normal(0., 1.)
show("normal repr", lambda: (repr(n), n.batch_shape, n.loc, n.scale, repr(n.support), n.has_rsample))
T.manual_seed(0); show("normal sample", lambda: (r(n.sample()), r(n.sample((3,))), n.sample().dtype))
show("normal log_prob", lambda: r(n.log_prob(T.tensor([0., 1., -2.]))))
show("normal entropy", lambda: r(n.entropy()))
show("normal cdf icdf", lambda: (r(n.cdf(T.tensor([0., 1.]))), r(n.icdf(T.tensor([0.5, 0.8])))))
loc = T.tensor([0.0, 1.0], requires_grad=True); scale = T.tensor([1.0, 2.0], requires_grad=True)
nn_ = D.Normal(loc, scale)
show("normal batch", lambda: (repr(nn_), nn_.batch_shape, r(nn_.mean), r(nn_.stddev), r(nn_.variance)))
T.manual_seed(0); z = nn_.rsample((2,))
show("rsample", lambda: (r(z), z.grad_fn.name(), z.shape))
z.sum().backward()
show("rsample grads", lambda: (r(loc.grad), r(scale.grad)))
loc.grad = None; scale.grad = None
lp = nn_.log_prob(T.tensor([0.5, 0.5])).sum(); lp.backward()
show("log_prob grads", lambda: (r(lp), r(loc.grad), r(scale.grad)))
T.manual_seed(0); show("sample no grad", lambda: (nn_.sample().requires_grad, r(nn_.sample((2,)))))
show("bad scale", lambda: D.Normal(0., -1.))
show("bad scale t", lambda: D.Normal(T.zeros(2), T.tensor([1., 0.])))
show("mixed", lambda: (repr(D.Normal(T.zeros(2), 1.)), D.Normal(T.zeros(2, dtype=T.float64), 1.).scale.dtype))
show("nan value", lambda: n.log_prob(T.tensor(float('nan'))))
"""

EXPECTED = [
    "repr: ('Categorical(probs: minigrad.Size([3]))', minigrad.Size([]), minigrad.Size([]), 'IntegerInterval(lower_bound=0, upper_bound=2)', minigrad.Size([3]))",
    'sample: (2, [[2, 2, 2], [0, 1, 2]], minigrad.int64)',
    'log_prob: [-1.60944, -1.20397, -0.69315]',
    'entropy: [1.02965]',
    'logits: [-1.60944, -1.20397, -0.69315]',
    'mode: 2',
    "logits repr: ('Categorical(logits: minigrad.Size([2, 3]))', minigrad.Size([2]), [0.09003, 0.24473, 0.66524, 0.33333, 0.33333, 0.33333], [-2.40761, -1.40761, -0.40761, -1.09861, -1.09861, -1.09861])",
    'batch sample: ([2, 2], minigrad.Size([4, 2]))',
    'batch log_prob: [-0.40761, -1.09861]',
    'bcast log_prob: [-0.40761, -1.09861, -1.40761, -1.09861]',
    'enumerate: [[0, 0], [1, 1], [2, 2]]',
    'bad probs: ValueError: Expected parameter probs (Tensor of shape (3,)) of distribution Categorical(probs: minigrad.Size([3])) to satisfy the constraint Simplex(), but found invalid values:',
    'tensor([ 0.5000, -0.7500,  1.2500])',
    'nan logits: ValueError: Expected parameter logits (Tensor of shape (2,)) of distribution Categorical(logits: minigrad.Size([2])) to satisfy the constraint IndependentConstraint(Real(), 1), but found invalid values:',
    'tensor([nan, nan])',
    'out of support: ValueError: Expected value argument (Tensor of shape ()) to be within the support (IntegerInterval(lower_bound=0, upper_bound=2)) of the distribution Categorical(probs: minigrad.Size([3]), logits: minigrad.Size([3])), but found invalid values:',
    '3',
    'not tensor: ValueError: The value argument to log_prob must be a Tensor',
    'bad shape: ValueError: Value is not broadcastable with batch_shape+event_shape: minigrad.Size([3]) vs minigrad.Size([2]).',
    'none: ValueError: Either `probs` or `logits` must be specified, but not both.',
    '0-dim: ValueError: `probs` parameter must be at least one-dimensional.',
    'no validate: [0.5, -0.75, 1.25]',
    "pg: (0, [-1.07702, 0.45834, 0.61869], 'MulBackward0')",
    "pg graph: ['GatherBackward0']",
    'entropy grad: ([1.02965], [0.57978, 0.17432, -0.33651])',
    "normal repr: ('Normal(loc: 0.0, scale: 1.0)', minigrad.Size([]), tensor(0.), tensor(1.), 'Real()', True)",
    'normal sample: ([1.541], [-0.29343, -2.17879, 0.56843], minigrad.float32)',
    'normal log_prob: [-0.91894, -1.41894, -2.91894]',
    'normal entropy: [1.41894]',
    'normal cdf icdf: ([0.5, 0.84134], [0.0, 0.84162])',
    "normal batch: ('Normal(loc: minigrad.Size([2]), scale: minigrad.Size([2]))', minigrad.Size([2]), [0.0, 1.0], [1.0, 2.0], [1.0, 4.0])",
    "rsample: ([1.541, 0.41314, -2.17879, 2.13686], 'AddBackward0', minigrad.Size([2, 2]))",
    'rsample grads: ([2.0, 2.0], [-0.63779, 0.275])',
    'log_prob grads: ([-2.68727], [0.5, -0.125], [-0.75, -0.46875])',
    'sample no grad: (False, [-2.17879, 2.13686, -1.08452, -1.79719])',
    'bad scale: ValueError: Expected parameter scale (Tensor of shape ()) of distribution Normal(loc: 0.0, scale: -1.0) to satisfy the constraint GreaterThan(lower_bound=0.0), but found invalid values:',
    '-1.0',
    'bad scale t: ValueError: Expected parameter scale (Tensor of shape (2,)) of distribution Normal(loc: minigrad.Size([2]), scale: minigrad.Size([2])) to satisfy the constraint GreaterThan(lower_bound=0.0), but found invalid values:',
    'tensor([1., 0.])',
    "mixed: ('Normal(loc: minigrad.Size([2]), scale: minigrad.Size([2]))', minigrad.float64)",
    'nan value: ValueError: Expected value argument (Tensor of shape ()) to be within the support (Real()) of the distribution Normal(loc: 0.0, scale: 1.0), but found invalid values:',
    'nan',
]


def test_categorical_and_normal_behave_as_pytorchs():
    assert printed_by(minigrad, PROGRAM) == EXPECTED


def test_the_recorded_lines_are_what_torch_prints_now():
    torch = pytest.importorskip("torch")
    assert printed_by(torch, PROGRAM) == EXPECTED


def test_a_distribution_minigrad_leaves_out_says_so():
    with pytest.raises(AttributeError, match="minigrad has Categorical and Normal; PyTorch has "
                                             "torch.distributions.Bernoulli"):
        minigrad.distributions.Bernoulli


def test_expand_mean_and_variance_as_pytorchs():
    D = minigrad.distributions
    c = D.Categorical(minigrad.tensor([0.2, 0.8])).expand((3, 2))
    assert repr(c) == "Categorical(probs: minigrad.Size([3, 2, 2]))" and c.batch_shape == (3, 2)
    assert c.log_prob(minigrad.tensor([0, 1])).shape == (3, 2)
    logits = D.Categorical(logits=minigrad.tensor([1., 2., 3.]))
    e = logits.expand((2,))
    assert e.logits.tolist() == [logits.logits.tolist()] * 2  # (views of the normalised logits, not normalised again)
    three = D.Categorical(minigrad.ones(2, 3))
    assert minigrad.isnan(three.mean).all() and three.variance.shape == (2,)
    n = D.Normal(minigrad.tensor(0.5), minigrad.tensor(2.)).expand((2,))
    assert repr(n) == "Normal(loc: minigrad.Size([2]), scale: minigrad.Size([2]))"
    assert np.allclose(n.log_prob(minigrad.zeros(2)).tolist(), [-1.6433357000350952] * 2)
