"""After makemore part 1 (Karpathy): bigram counts, the negative log-likelihood, and the same model as a
one-layer network (one_hot, softmax by hand, regularised loss, W.data += -lr * W.grad)."""
import numpy as np
import torch
import torch.nn.functional as F

words = ["emma", "olivia", "ava", "isabella", "sophia", "charlotte", "mia", "amelia", "harper", "evelyn"]
chars = sorted(list(set("".join(words))))
stoi = {s: i + 1 for i, s in enumerate(chars)}
stoi["."] = 0
itos = {i: s for s, i in stoi.items()}
n = len(stoi)

N = torch.zeros((n, n), dtype=torch.int32)
for w in words:
    chs = ["."] + list(w) + ["."]
    for ch1, ch2 in zip(chs, chs[1:]):
        N[stoi[ch1], stoi[ch2]] += 1
print(N.sum(), N[0].tolist()[:8], N.dtype)

P = (N + 1).float()
P /= P.sum(1, keepdims=True)
print(P[0].sum(), P.shape)

log_likelihood = 0.0
count = 0
for w in words:
    chs = ["."] + list(w) + ["."]
    for ch1, ch2 in zip(chs, chs[1:]):
        log_likelihood += torch.log(P[stoi[ch1], stoi[ch2]])
        count += 1
nll = -log_likelihood
print(f"{nll=}")
print(f"{nll / count}")

xs, ys = [], []
for w in words:
    chs = ["."] + list(w) + ["."]
    for ch1, ch2 in zip(chs, chs[1:]):
        xs.append(stoi[ch1])
        ys.append(stoi[ch2])
xs = torch.tensor(xs)
ys = torch.tensor(ys)
num = xs.nelement()
print("number of examples:", num)

rng = np.random.default_rng(9)
W = torch.tensor(rng.standard_normal((n, n)), dtype=torch.float32, requires_grad=True)
for k in range(50):
    xenc = F.one_hot(xs, num_classes=n).float()
    logits = xenc @ W
    counts = logits.exp()
    probs = counts / counts.sum(1, keepdims=True)
    loss = -probs[torch.arange(num), ys].log().mean() + 0.01 * (W ** 2).mean()
    if k % 10 == 0:
        print(k, loss.item())
    W.grad = None
    loss.backward()
    W.data += -50 * W.grad
print(loss.grad_fn, xenc.dtype, xenc.shape)
# tolerance: 1e-3
