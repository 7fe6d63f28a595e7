"""After makemore part 5 (Karpathy, "Building makemore Part 5: Building a WaveNet"): characters embedded with
nn.Embedding, then a tree of FlattenConsecutive (written here as in the lecture) -> Linear -> BatchNorm1d ->
Tanh blocks in an nn.Sequential.  The lecture's own BatchNorm1d normalises a (B, T, C) activation over dims
(0, 1); PyTorch's nn.BatchNorm1d takes a 3-d input as (N, C, L), so the port transposes around it.  Weights
and batches come from numpy, so the numbers match PyTorch's; sampling takes the most likely character."""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

words = ["emma", "olivia", "ava", "isabella", "sophia", "charlotte", "mia", "amelia", "harper", "evelyn",
         "abigail", "emily", "elizabeth", "mila", "ella", "avery", "sofia", "camila", "aria", "scarlett",
         "victoria", "madison", "luna", "grace", "chloe", "penelope", "layla", "riley", "zoey", "nora"]
chars = sorted(list(set("".join(words))))
stoi = {s: i + 1 for i, s in enumerate(chars)}
stoi["."] = 0
itos = {i: s for s, i in stoi.items()}
vocab_size = len(stoi)
block_size = 8


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


Xtr, Ytr = build_dataset(words[:26])
Xdev, Ydev = build_dataset(words[26:])
for x, y in zip(Xtr[:9], Ytr[:9]):
    print("".join(itos[ix.item()] for ix in x), "-->", itos[y.item()])


class FlattenConsecutive(nn.Module):
    """(B, T, C) -> (B, T // n, C * n): n consecutive positions side by side (squeezed when one is left)."""

    def __init__(self, n):
        super().__init__()
        self.n = n

    def forward(self, x):
        B, T, C = x.shape
        x = x.view(B, T // self.n, C * self.n)
        if x.shape[1] == 1:
            x = x.squeeze(1)
        return x


class BatchNormLastDim(nn.Module):
    """nn.BatchNorm1d over the last dim of a (B, T, C) input (and of a (B, C) one)."""

    def __init__(self, dim):
        super().__init__()
        self.bn = nn.BatchNorm1d(dim)

    def forward(self, x):
        if x.ndim == 3:
            return self.bn(x.transpose(1, 2)).transpose(1, 2).contiguous()
        return self.bn(x)


n_embd, n_hidden = 8, 32
model = nn.Sequential(
    nn.Embedding(vocab_size, n_embd),
    FlattenConsecutive(2), nn.Linear(n_embd * 2, n_hidden, bias=False), BatchNormLastDim(n_hidden), nn.Tanh(),
    FlattenConsecutive(2), nn.Linear(n_hidden * 2, n_hidden, bias=False), BatchNormLastDim(n_hidden), nn.Tanh(),
    FlattenConsecutive(2), nn.Linear(n_hidden * 2, n_hidden, bias=False), BatchNormLastDim(n_hidden), nn.Tanh(),
    nn.Linear(n_hidden, vocab_size),
)
rng = np.random.default_rng(5)
with torch.no_grad():
    for name, p in model.named_parameters():
        if p.ndim == 2:
            scale = 1.0 if name.startswith("0.") else (5 / 3) / p.shape[1] ** 0.5
            p.copy_(torch.tensor(rng.standard_normal(tuple(p.shape)) * scale, dtype=torch.float32))
    model[-1].weight *= 0.1
    model[-1].bias.zero_()
print(model)
print(sum(p.nelement() for p in model.parameters()))

ix = torch.tensor(rng.integers(0, Xtr.shape[0], 4))
x = Xtr[ix]
for layer in model:
    x = layer(x)
    print(layer.__class__.__name__, ":", tuple(x.shape))

optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
batches = rng.integers(0, Xtr.shape[0], (200, 32))
for i in range(200):
    ix = torch.tensor(batches[i])
    logits = model(Xtr[ix])
    loss = F.cross_entropy(logits, Ytr[ix])
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    if i % 40 == 0:
        print(f"{i:4d}/200: {loss.item():.4f}")

bn = model[3].bn
print(bn.running_mean[:4], bn.running_var[:4], bn.num_batches_tracked.item())
print(list(model.state_dict())[:6])
model.eval()
with torch.no_grad():
    for split, (X, Y) in (("train", (Xtr, Ytr)), ("val", (Xdev, Ydev))):
        print(split, F.cross_entropy(model(X), Y).item())
    for start in ("e", "so", "a"):
        context = [0] * (block_size - len(start)) + [stoi[c] for c in start]
        out = list(start)
        for _ in range(8):
            probs = F.softmax(model(torch.tensor([context])), dim=1)
            ix = torch.argmax(probs, dim=1).item()
            if ix == 0:
                break
            context = context[1:] + [ix]
            out.append(itos[ix])
        print("".join(out), round(probs.max().item(), 4))
# tolerance: 2e-3
