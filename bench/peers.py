"""The same workloads written for the libraries a user could pick instead of minigrad.

Each function takes numpy inputs and returns the gradients as numpy arrays, so bench/run.py can
check that every library computes the same numbers before it times them.

- ``numpy_*``: forward and backward written by hand (no autograd): the floor for a numpy library.
- ``hips_*``: HIPS autograd (``autograd.numpy`` records the numpy calls, ``autograd.grad``).
- ``jax_*``: JAX in eager mode (``jax.grad`` without ``jax.jit``: each primitive runs on its own).
"""
import numpy as np


# ---- the small-op chain: y = ((y * 0.999).tanh() + 0.5 - 0.25) repeated, sum, gradient ----------
def chain_fn(xp, n):
    def f(x):
        y = x
        for _ in range(n // 4):
            y = xp.tanh(y * 0.999) + 0.5 - 0.25
        return xp.sum(y)
    return f


def hips_chain(n):
    import autograd
    import autograd.numpy as anp
    g = autograd.grad(chain_fn(anp, n))
    return lambda x: g(x)


def jax_chain(n):
    import jax
    import jax.numpy as jnp
    g = jax.grad(chain_fn(jnp, n))
    return lambda x: np.asarray(g(x))


# ---- an MLP step: X @ W + b, relu, ..., log_softmax, pick the targets, mean, gradient ------------
def mlp_loss_fn(xp, logsumexp):
    def loss(params, X, y):
        h = X
        for i in range(0, len(params) - 2, 2):
            h = xp.maximum(h @ params[i] + params[i + 1], 0.0)
        logits = h @ params[-2] + params[-1]
        logp = logits - logsumexp(logits)
        return -xp.mean(logp[xp.arange(X.shape[0]), y])
    return loss


def _lse_np(xp):
    def lse(z):
        m = xp.max(z, axis=1, keepdims=True)
        return m + xp.log(xp.sum(xp.exp(z - m), axis=1, keepdims=True))
    return lse


def hips_mlp_steps(params, X, y, steps, lr):
    import autograd
    import autograd.numpy as anp
    grad = autograd.grad(mlp_loss_fn(anp, _lse_np(anp)))
    for _ in range(steps):
        gs = grad(params, X, y)
        params = [p - lr * g for p, g in zip(params, gs)]
    return params


def jax_mlp_steps(params, X, y, steps, lr):
    import jax
    import jax.numpy as jnp
    grad = jax.grad(mlp_loss_fn(jnp, lambda z: jax.nn.logsumexp(z, axis=1, keepdims=True)))
    params = [jnp.asarray(p) for p in params]
    X, y = jnp.asarray(X), jnp.asarray(y)
    for _ in range(steps):
        gs = grad(params, X, y)
        params = [p - lr * g for p, g in zip(params, gs)]
    return [np.asarray(p) for p in params]


def numpy_mlp_steps(params, X, y, steps, lr):
    """The same steps with the backward pass written by hand: what any numpy autograd must do."""
    params = [p.copy() for p in params]
    B = X.shape[0]
    rows = np.arange(B)
    for _ in range(steps):
        # forward, keeping what backward needs
        hs, h = [X], X
        for i in range(0, len(params) - 2, 2):
            h = np.maximum(h @ params[i] + params[i + 1], 0)
            hs.append(h)
        logits = h @ params[-2] + params[-1]
        z = logits - logits.max(1, keepdims=True)
        e = np.exp(z)
        p = e / e.sum(1, keepdims=True)
        # backward: d(mean(-log p[y])) / d logits = (softmax - onehot) / B
        g = p
        g[rows, y] -= 1
        g /= B
        for i in range(len(params) - 2, -1, -2):
            a = hs[i // 2]
            gW, gb = a.T @ g, g.sum(0)
            if i:
                g = (g @ params[i].T) * (a > 0)
            params[i] -= lr * gW
            params[i + 1] -= lr * gb
    return params
