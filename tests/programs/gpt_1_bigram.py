"""After Karpathy's "Let's build GPT: from scratch, in code, spelled out" (nanoGPT lecture, bigram.py): a
character-level bigram language model, an nn.Embedding of vocab x vocab logits, trained with AdamW on
F.cross_entropy of the logits reshaped to (B*T, C).  Batches come from numpy and the table starts from
numpy values, so the losses print the same as PyTorch's; generate() samples with torch.multinomial, whose
draws differ between the two libraries, so only its shape is printed."""
import numpy as np
import torch
import torch.nn as nn
from torch.nn import functional as F

text = ("First Citizen:\nBefore we proceed any further, hear me speak.\n\nAll:\nSpeak, speak.\n\n"
        "First Citizen:\nYou are all resolved rather to die than to famish?\n\nAll:\nResolved. resolved.\n\n"
        "First Citizen:\nFirst, you know Caius Marcius is chief enemy to the people.\n\nAll:\n"
        "We know't, we know't.\n")
chars = sorted(list(set(text)))
vocab_size = len(chars)
print("".join(chars).encode("unicode_escape").decode())
print(vocab_size)
stoi = {ch: i for i, ch in enumerate(chars)}
itos = {i: ch for i, ch in enumerate(chars)}
encode = lambda s: [stoi[c] for c in s]  # noqa: E731
decode = lambda l: "".join([itos[i] for i in l])  # noqa: E731
print(encode("hii there"))
print(decode(encode("hii there")))

data = torch.tensor(encode(text), dtype=torch.long)
print(data.shape, data.dtype)
print(data[:20])
n = int(0.9 * len(data))
train_data = data[:n]
val_data = data[n:]

block_size = 8
batch_size = 4
x = train_data[:block_size]
y = train_data[1:block_size + 1]
for t in range(3):
    context = x[:t + 1]
    target = y[t]
    print(f"when input is {context.tolist()} the target: {target}")

rng = np.random.default_rng(1337)


def get_batch(split):
    d = train_data if split == "train" else val_data
    ix = torch.tensor(rng.integers(0, len(d) - block_size, (batch_size,)))
    x = torch.stack([d[i:i + block_size] for i in ix])
    y = torch.stack([d[i + 1:i + block_size + 1] for i in ix])
    return x, y


xb, yb = get_batch("train")
print("inputs:", xb.shape)
print(xb)
print("targets:", yb.shape)
print(yb)


class BigramLanguageModel(nn.Module):

    def __init__(self, vocab_size):
        super().__init__()
        self.token_embedding_table = nn.Embedding(vocab_size, vocab_size)

    def forward(self, idx, targets=None):
        logits = self.token_embedding_table(idx)  # (B,T,C)
        if targets is None:
            loss = None
        else:
            B, T, C = logits.shape
            logits = logits.view(B * T, C)
            targets = targets.view(B * T)
            loss = F.cross_entropy(logits, targets)
        return logits, loss

    def generate(self, idx, max_new_tokens):
        for _ in range(max_new_tokens):
            logits, loss = self(idx)
            logits = logits[:, -1, :]  # (B, C)
            probs = F.softmax(logits, dim=-1)
            idx_next = torch.multinomial(probs, num_samples=1)  # (B, 1)
            idx = torch.cat((idx, idx_next), dim=1)  # (B, T+1)
        return idx


m = BigramLanguageModel(vocab_size)
with torch.no_grad():
    m.token_embedding_table.weight.copy_(torch.tensor(rng.standard_normal((vocab_size, vocab_size)),
                                                      dtype=torch.float32))
logits, loss = m(xb, yb)
print(logits.shape)
print(loss)
print(logits.grad_fn, loss.grad_fn, loss.grad_fn.next_functions)
print(m.token_embedding_table)
print(m.token_embedding_table.weight.shape)

idx = torch.zeros((1, 1), dtype=torch.long)
print(m.generate(idx, max_new_tokens=20).shape)


@torch.no_grad()
def estimate_loss(eval_iters=5):
    out = {}
    m.eval()
    for split in ["train", "val"]:
        losses = torch.zeros(eval_iters)
        for k in range(eval_iters):
            X, Y = get_batch(split)
            logits, loss = m(X, Y)
            losses[k] = loss.item()
        out[split] = losses.mean()
    m.train()
    return out


optimizer = torch.optim.AdamW(m.parameters(), lr=1e-2)
batch_size = 32
for steps in range(60):
    if steps % 20 == 0:
        losses = estimate_loss()
        print(f"step {steps}: train loss {losses['train']:.4f}, val loss {losses['val']:.4f}")
    xb, yb = get_batch("train")
    logits, loss = m(xb, yb)
    optimizer.zero_grad(set_to_none=True)
    loss.backward()
    optimizer.step()
print(loss.item())
print(m.token_embedding_table.weight[0, :5])
print(m.token_embedding_table.weight.grad[stoi["a"], :5])
