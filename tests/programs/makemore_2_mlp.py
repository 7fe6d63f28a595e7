"""After makemore part 2 (Karpathy): a character-level MLP with an embedding table C[X], tanh,
F.cross_entropy, minibatches and a learning-rate step."""
import numpy as np
import torch
import torch.nn.functional as F

words = ["emma", "olivia", "ava", "isabella", "sophia", "charlotte", "mia", "amelia", "harper", "evelyn",
         "abigail", "emily", "elizabeth", "mila", "ella", "avery", "sofia", "camila", "aria", "scarlett"]
chars = sorted(list(set("".join(words))))
stoi = {s: i + 1 for i, s in enumerate(chars)}
stoi["."] = 0
vocab = len(stoi)
block_size = 3


def build_dataset(words):
    X, Y = [], []
    for w in words:
        context = [0] * block_size
        for ch in w + ".":
            ix = stoi[ch]
            X.append(context)
            Y.append(ix)
            context = context[1:] + [ix]
    return torch.tensor(X), torch.tensor(Y)


Xtr, Ytr = build_dataset(words[:16])
Xdev, Ydev = build_dataset(words[16:])
print(Xtr.shape, Ytr.shape, Xdev.shape, Xtr.dtype)

rng = np.random.default_rng(10)


def param(*shape, scale=1.0):
    return torch.tensor(rng.standard_normal(shape) * scale, dtype=torch.float32)


C = param(vocab, 2)
W1 = param(6, 50, scale=0.3)
b1 = param(50, scale=0.1)
W2 = param(50, vocab, scale=0.1)
b2 = param(vocab, scale=0)
parameters = [C, W1, b1, W2, b2]
print(sum(p.nelement() for p in parameters))
for p in parameters:
    p.requires_grad = True

batches = rng.integers(0, Xtr.shape[0], (200, 32))
for i in range(200):
    ix = torch.tensor(batches[i])
    emb = C[Xtr[ix]]
    h = torch.tanh(emb.view(-1, 6) @ W1 + b1)
    logits = h @ W2 + b2
    loss = F.cross_entropy(logits, Ytr[ix])
    for p in parameters:
        p.grad = None
    loss.backward()
    lr = 0.1 if i < 150 else 0.01
    for p in parameters:
        p.data += -lr * p.grad
    if i % 50 == 0:
        print(i, loss.item())

with torch.no_grad():
    emb = C[Xdev]
    h = torch.tanh(emb.view(emb.shape[0], -1) @ W1 + b1)
    logits = h @ W2 + b2
    print("dev loss", F.cross_entropy(logits, Ydev).item())
print(emb.shape, logits.shape, C.grad.shape)
# tolerance: 2e-3
