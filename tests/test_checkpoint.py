"""utils.checkpoint: what the parity cases (``ag_checkpoint*``) can't show with PyTorch's different random numbers
and memory: dropout draws the same mask again, and the checkpointed function's saved tensors are not kept."""
import gc

import numpy as np
import pytest

import minigrad
from minigrad import nn
from minigrad.utils.checkpoint import checkpoint


def block(x, layer):
    return nn.functional.dropout(layer(x).tanh(), p=0.5, training=True)


@pytest.mark.parametrize("reentrant", [True, False])
def test_dropout_draws_the_same_mask_in_the_recomputation(reentrant):
    minigrad.manual_seed(0)
    layer = nn.Linear(4, 4)
    x = minigrad.randn(3, 4, requires_grad=True)
    minigrad.manual_seed(1)
    plain = block(x, layer)
    plain.sum().backward()
    expected = x.grad.clone()
    x.grad = None
    minigrad.manual_seed(1)
    out = checkpoint(block, x, layer, use_reentrant=reentrant)
    np.testing.assert_array_equal(out.detach().numpy(), plain.detach().numpy())
    before = minigrad.rand(1)  # the recomputation must not move the generator on
    minigrad.manual_seed(1)
    checkpoint(block, x, layer, use_reentrant=reentrant)
    out.sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), expected.numpy())
    np.testing.assert_array_equal(minigrad.rand(1).numpy(), before.numpy())


def test_without_preserve_rng_state_the_mask_differs():
    minigrad.manual_seed(2)
    x = minigrad.ones(200, requires_grad=True)
    out = checkpoint(lambda t: nn.functional.dropout(t * 1, p=0.5), x, use_reentrant=False, preserve_rng_state=False)
    out.sum().backward()
    # the recomputed mask (used by dropout's backward) is not the one of the forward
    assert not np.array_equal(x.grad.numpy() != 0, out.detach().numpy() != 0)


@pytest.mark.parametrize("reentrant", [True, False])
def test_the_saved_activations_are_not_kept(reentrant):
    big = minigrad.ones(1000, 1000, requires_grad=True)

    def f(x):
        return ((x * 2).exp() * 3).sin().sum()
    out = checkpoint(f, big, use_reentrant=reentrant)
    gc.collect()
    saved = []
    stack = [out.grad_fn]
    seen = set()
    while stack:  # every tensor any node of the graph keeps for backward
        node = stack.pop()
        if node is None or id(node) in seen:
            continue
        seen.add(id(node))
        for s in getattr(node, "_saved", ()):
            if s is not None and s.data is not None:
                saved.append(s.data.nbytes)
        stack += [n for n, _ in node.next_functions]
    assert sum(saved) == 0  # (without checkpoint: four 4 MB arrays)
    out.backward()
    assert np.allclose(big.grad.numpy(), 6 * np.cos(3 * np.exp(2.0)) * np.exp(2.0))


def _outer_hooks_program(T, checkpoint_fn):
    """A non-reentrant checkpoint inside outer saved-tensor hooks: its inputs go through them (what torch 2.13 logs)."""
    log = []

    def pack(t):
        log.append(("pack", tuple(t.shape)))
        return t

    def unpack(t):
        log.append(("unpack", tuple(t.shape)))
        return t

    x, w = T.ones(3, requires_grad=True), T.full((2,), 2.0)
    with T.autograd.graph.saved_tensors_hooks(pack, unpack):
        y = checkpoint_fn(lambda a, b: (a.tanh() * 2).sum() * b, x, w, use_reentrant=False)
        log.append("forward done")
        y.sum().backward()
    return log, [round(v, 4) for v in x.grad.tolist()]


OUTER_HOOKS = ([("pack", (3,)), ("pack", (2,)), "forward done", ("unpack", (3,)), ("unpack", (2,))],
               [3.3598, 3.3598, 3.3598])


def test_outer_saved_tensor_hooks_pack_the_checkpoints_inputs():
    assert _outer_hooks_program(minigrad, checkpoint) == OUTER_HOOKS


def test_outer_saved_tensor_hooks_pack_the_checkpoints_inputs_as_torch():
    torch = pytest.importorskip("torch")
    import torch.utils.checkpoint
    assert _outer_hooks_program(torch, torch.utils.checkpoint.checkpoint) == OUTER_HOOKS
