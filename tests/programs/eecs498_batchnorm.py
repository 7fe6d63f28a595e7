"""After the BatchNorm part of UMich EECS 498-007 / 598-005 (Justin Johnson), assignment 3
(``convolutional_networks.py``: ``BatchNorm.forward``, ``BatchNorm.backward``, ``BatchNorm.backward_alt``):
batch normalisation written by hand in float64 tensors -- the forward in training (batch statistics, running
averages updated with momentum) and in test mode, the backward through the computational graph and the
simplified one -- checked against PyTorch's own F.batch_norm and its autograd, as the assignment's checks do
(``rel_error``).  Data from numpy."""
import numpy as np
import torch
import torch.nn.functional as F


def rel_error(x, y, eps=1e-10):
    """The assignment's relative error: max |x - y| / max(|x| + |y|)."""
    top = (x - y).abs().max().item()
    bot = (x.abs() + y.abs()).clamp(min=eps).max().item()
    return top / bot


class BatchNorm(object):

    @staticmethod
    def forward(x, gamma, beta, bn_param):
        mode = bn_param["mode"]
        eps = bn_param.get("eps", 1e-5)
        momentum = bn_param.get("momentum", 0.9)
        N, D = x.shape
        running_mean = bn_param.get("running_mean", torch.zeros(D, dtype=x.dtype, device=x.device))
        running_var = bn_param.get("running_var", torch.zeros(D, dtype=x.dtype, device=x.device))
        out, cache = None, None
        if mode == "train":
            mu = x.mean(dim=0)
            xc = x - mu
            var = (xc ** 2).mean(dim=0)
            std = torch.sqrt(var + eps)
            xn = xc / std
            out = gamma * xn + beta
            cache = (mode, x, gamma, xc, std, xn, out)
            running_mean = momentum * running_mean + (1 - momentum) * mu
            running_var = momentum * running_var + (1 - momentum) * var
        elif mode == "test":
            xn = (x - running_mean) / torch.sqrt(running_var + eps)
            out = gamma * xn + beta
            cache = (mode, x, gamma, None, None, xn, out)
        else:
            raise ValueError('Invalid forward batchnorm mode "%s"' % mode)
        bn_param["running_mean"] = running_mean.detach()
        bn_param["running_var"] = running_var.detach()
        return out, cache

    @staticmethod
    def backward(dout, cache):
        """Through the graph, node by node."""
        mode, x, gamma, xc, std, xn, out = cache
        N = x.shape[0]
        dbeta = dout.sum(dim=0)
        dgamma = (xn * dout).sum(dim=0)
        dxn = gamma * dout
        dxc = dxn / std
        dstd = -((dxn * xc) / (std * std)).sum(dim=0)
        dvar = 0.5 * dstd / std
        dxc += (2.0 / N) * xc * dvar
        dmu = dxc.sum(dim=0)
        dx = dxc - dmu / N
        return dx, dgamma, dbeta

    @staticmethod
    def backward_alt(dout, cache):
        """The simplified formula, in one expression."""
        mode, x, gamma, xc, std, xn, out = cache
        N = dout.shape[0]
        dbeta = dout.sum(dim=0)
        dgamma = (xn * dout).sum(dim=0)
        dx = (gamma / std / N) * (N * dout - xn * dgamma - dbeta)
        return dx, dgamma, dbeta


rng = np.random.default_rng(498)
N, D1, D2, D3 = 200, 50, 60, 3
X = torch.tensor(rng.standard_normal((N, D1)), dtype=torch.float64)
W1 = torch.tensor(rng.standard_normal((D1, D2)), dtype=torch.float64)
W2 = torch.tensor(rng.standard_normal((D2, D3)), dtype=torch.float64)
a = X.matmul(W1).clamp(min=0.).matmul(W2)
print("Before batch normalization:")
print("  means: ", a.mean(dim=0))
print("  stds:  ", a.std(dim=0))

gamma = torch.ones(D3, dtype=torch.float64)
beta = torch.zeros(D3, dtype=torch.float64)
out, _ = BatchNorm.forward(a, gamma, beta, {"mode": "train"})
print("After batch normalization (gamma=1, beta=0)")
print("  mean ~ 0: ", (out.mean(dim=0).abs() < 1e-12).tolist())
print("  std:  ", out.std(dim=0))
gamma = torch.tensor([1.0, 2.0, 3.0], dtype=torch.float64)
beta = torch.tensor([11.0, 12.0, 13.0], dtype=torch.float64)
out, _ = BatchNorm.forward(a, gamma, beta, {"mode": "train"})
print("After batch normalization (gamma=", gamma.tolist(), ", beta=", beta.tolist(), ")")
print("  means: ", out.mean(dim=0))
print("  stds:  ", out.std(dim=0))

# the same forward with PyTorch's F.batch_norm (its momentum is 1 minus the assignment's)
running_mean, running_var = torch.zeros(D3, dtype=torch.float64), torch.ones(D3, dtype=torch.float64)
ref = F.batch_norm(a, running_mean, running_var, gamma, beta, training=True, momentum=0.1, eps=1e-5)
print("forward vs F.batch_norm:", rel_error(out, ref) < 1e-12, ref.grad_fn)

# running averages: the assignment's mode="test" after 50 training batches, against F.batch_norm in eval mode
bn_param = {"mode": "train"}
W1 = torch.tensor(rng.standard_normal((D1, D2)), dtype=torch.float64)
W2 = torch.tensor(rng.standard_normal((D2, D3)), dtype=torch.float64)
gamma, beta = torch.ones(D3, dtype=torch.float64), torch.zeros(D3, dtype=torch.float64)
running_mean, running_var = torch.zeros(D3, dtype=torch.float64), torch.zeros(D3, dtype=torch.float64)
for t in range(50):
    X = torch.tensor(rng.standard_normal((N, D1)), dtype=torch.float64)
    a = X.matmul(W1).clamp(min=0.).matmul(W2)
    BatchNorm.forward(a, gamma, beta, bn_param)
    F.batch_norm(a, running_mean, running_var, gamma, beta, training=True, momentum=0.1, eps=1e-5)
print("running mean, hand-written:", bn_param["running_mean"])
print("running mean, F.batch_norm:", running_mean)
print("running var (biased, unbiased):", bn_param["running_var"], running_var)
bn_param["mode"] = "test"
X = torch.tensor(rng.standard_normal((N, D1)), dtype=torch.float64)
a_norm, _ = BatchNorm.forward(X.matmul(W1).clamp(min=0.).matmul(W2), gamma, beta, bn_param)
print("After batch normalization (test-time):")
print("  means: ", a_norm.mean(dim=0))
print("  stds:  ", a_norm.std(dim=0))
ref = F.batch_norm(X.matmul(W1).clamp(min=0.).matmul(W2), running_mean, running_var, gamma, beta, training=False)
print("  F.batch_norm in eval mode: means", ref.mean(dim=0))

# the backward: both hand-written ones against autograd through F.batch_norm
N, D = 4, 5
x = torch.tensor(5 * rng.standard_normal((N, D)) + 12, dtype=torch.float64, requires_grad=True)
gamma = torch.tensor(rng.standard_normal(D), dtype=torch.float64, requires_grad=True)
beta = torch.tensor(rng.standard_normal(D), dtype=torch.float64, requires_grad=True)
dout = torch.tensor(rng.standard_normal((N, D)), dtype=torch.float64)
out, cache = BatchNorm.forward(x, gamma, beta, {"mode": "train"})
y = F.batch_norm(x, None, None, gamma, beta, training=True)
y.backward(dout)
print(y.grad_fn, x.grad)
with torch.no_grad():
    dx, dgamma, dbeta = BatchNorm.backward(dout, cache)
    dx2, dgamma2, dbeta2 = BatchNorm.backward_alt(dout, cache)
for name, mine, alt, auto in (("dx", dx, dx2, x.grad), ("dgamma", dgamma, dgamma2, gamma.grad),
                              ("dbeta", dbeta, dbeta2, beta.grad)):
    print(name, "error:", rel_error(mine, auto) < 1e-10, rel_error(alt, auto) < 1e-10, auto.abs().sum().item())

# gradient check of F.batch_norm itself
print(torch.autograd.gradcheck(lambda x, g, b: F.batch_norm(x, None, None, g, b, training=True), (x, gamma, beta)))
