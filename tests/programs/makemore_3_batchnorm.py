"""After makemore part 3 (Karpathy, "Building makemore Part 3: Activations & Gradients, BatchNorm"): a
character-level MLP whose hidden layer is Linear (no bias, Kaiming-scaled: gain 5/3 for tanh) -> BatchNorm1d ->
tanh, the last layer's scale shrunk at init; training with minibatches, then the lecture's diagnostics: each
layer's activation statistics and ``torch.histogram`` of them, gradient statistics, and the loss in eval mode
(the running statistics).  Weights and batches come from numpy, so the numbers match PyTorch's."""
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
vocab_size = len(stoi)
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


Xtr, Ytr = build_dataset(words[:25])
Xdev, Ydev = build_dataset(words[25:])
print(Xtr.shape, Xdev.shape)

n_embd, n_hidden = 10, 64
rng = np.random.default_rng(2023)


def randn(*shape):
    return torch.tensor(rng.standard_normal(shape), dtype=torch.float32)


C = randn(vocab_size, n_embd)
layers = [nn.Linear(n_embd * block_size, n_hidden, bias=False), nn.BatchNorm1d(n_hidden), nn.Tanh(),
          nn.Linear(n_hidden, n_hidden, bias=False), nn.BatchNorm1d(n_hidden), nn.Tanh(),
          nn.Linear(n_hidden, vocab_size, bias=False), nn.BatchNorm1d(vocab_size)]
with torch.no_grad():
    for layer in layers:
        if isinstance(layer, nn.Linear):  # Kaiming init: std gain / sqrt(fan_in), gain 5/3 for tanh
            layer.weight.copy_(randn(layer.out_features, layer.in_features) * (5 / 3) / layer.in_features ** 0.5)
    layers[-1].weight *= 0.1  # a less confident last layer at init
parameters = [C] + [p for layer in layers for p in layer.parameters()]
print(sum(p.nelement() for p in parameters))
for p in parameters:
    p.requires_grad = True


def forward(X):
    x = C[X].view(X.shape[0], -1)
    for layer in layers:
        x = layer(x)
        layer.out = x
    return x


batches = rng.integers(0, Xtr.shape[0], (300, 32))
ud = []
for i in range(300):
    ix = torch.tensor(batches[i])
    logits = forward(Xtr[ix])
    loss = F.cross_entropy(logits, Ytr[ix])
    for layer in layers:
        layer.out.retain_grad()
    for p in parameters:
        p.grad = None
    loss.backward()
    lr = 0.1 if i < 200 else 0.01
    for p in parameters:
        p.data += -lr * p.grad
    with torch.no_grad():
        ud.append([((lr * p.grad).std() / p.data.std()).log10().item() for p in parameters])
    if i % 50 == 0:
        print(f"{i:4d}/300: {loss.item():.4f}")

# activation statistics of the tanh layers, as in the lecture's plots
for i, layer in enumerate(layers[:-1]):
    if isinstance(layer, nn.Tanh):
        t = layer.out
        print("layer %d (%10s): mean %+.2f, std %.2f, saturated: %.2f%%" % (
            i, layer.__class__.__name__, t.mean(), t.std(), (t.abs() > 0.97).float().mean() * 100))
        hy, hx = torch.histogram(t, density=True)
        print(hx.shape, hy.shape, hx[0].item(), hx[-1].item(), hy.sum().item() * (hx[1] - hx[0]).item())
        hy, hx = torch.histogram(t.detach(), bins=5, range=(-1.0, 1.0))
        print(hy.tolist(), hx.tolist())
        g = layer.out.grad
        print("layer %d (%10s): grad mean %e, std %e" % (i, layer.__class__.__name__, g.mean(), g.std()))
for p in parameters:
    if p.ndim == 2:
        print("weight %10s | mean %e | std %e | grad:data ratio %e" % (
            tuple(p.shape), p.grad.mean(), p.grad.std(), p.grad.std() / p.std()))
print("update:data (log10), last step:", [round(u, 2) for u in ud[-1]])

bn = layers[1]
print(bn)
print(bn.running_mean[:4], bn.running_var[:4], bn.num_batches_tracked)
for layer in layers:
    layer.eval()
with torch.no_grad():
    for name, (X, Y) in (("train", (Xtr, Ytr)), ("dev", (Xdev, Ydev))):
        print(name, F.cross_entropy(forward(X), Y).item())
# tolerance: 2e-3
