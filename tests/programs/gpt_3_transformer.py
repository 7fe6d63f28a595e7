"""After Karpathy's "Let's build GPT" (nanoGPT lecture, gpt.py): a small decoder-only transformer - token and
position embeddings, blocks of multi-head causal self-attention (heads in an nn.ModuleList, torch.tril buffer,
masked_fill, softmax), a ReLU feed-forward layer, pre-LayerNorm and residual connections, a final LayerNorm
and the language-model head - trained a few steps with AdamW.  Dropout is 0 and every parameter is set from
numpy, so the losses print as PyTorch's.  At the end, one block written with nn.MultiheadAttention
(need_weights=False: PyTorch's fused attention) computes the same as the hand-written heads."""
# tolerance: 1e-3
import numpy as np
import torch
import torch.nn as nn
from torch.nn import functional as F

batch_size = 8
block_size = 16
max_iters = 12
eval_interval = 4
learning_rate = 1e-3
eval_iters = 3
n_embd = 32
n_head = 4
n_layer = 2
dropout = 0.0
rng = np.random.default_rng(1337)

text = ("First Citizen:\nBefore we proceed any further, hear me speak.\n\nAll:\nSpeak, speak.\n\n"
        "First Citizen:\nYou are all resolved rather to die than to famish?\n\nAll:\nResolved. resolved.\n\n"
        "First Citizen:\nFirst, you know Caius Marcius is chief enemy to the people.\n\nAll:\n"
        "We know't, we know't.\n\nFirst Citizen:\nLet us kill him, and we'll have corn at our own price.\n"
        "Is't a verdict?\n\nAll:\nNo more talking on't; let it be done: away, away!\n")
chars = sorted(list(set(text)))
vocab_size = len(chars)
stoi = {ch: i for i, ch in enumerate(chars)}
itos = {i: ch for i, ch in enumerate(chars)}
encode = lambda s: [stoi[c] for c in s]  # noqa: E731
decode = lambda l: "".join([itos[i] for i in l])  # noqa: E731

data = torch.tensor(encode(text), dtype=torch.long)
n = int(0.9 * len(data))
train_data = data[:n]
val_data = data[n:]


def get_batch(split):
    data = train_data if split == "train" else val_data
    ix = rng.integers(0, len(data) - block_size, (batch_size,))
    x = torch.stack([data[i:i + block_size] for i in ix])
    y = torch.stack([data[i + 1:i + block_size + 1] for i in ix])
    return x, y


@torch.no_grad()
def estimate_loss():
    out = {}
    model.eval()
    for split in ["train", "val"]:
        losses = torch.zeros(eval_iters)
        for k in range(eval_iters):
            X, Y = get_batch(split)
            logits, loss = model(X, Y)
            losses[k] = loss.item()
        out[split] = losses.mean()
    model.train()
    return out


class Head(nn.Module):
    """ one head of self-attention """

    def __init__(self, head_size):
        super().__init__()
        self.key = nn.Linear(n_embd, head_size, bias=False)
        self.query = nn.Linear(n_embd, head_size, bias=False)
        self.value = nn.Linear(n_embd, head_size, bias=False)
        self.register_buffer("tril", torch.tril(torch.ones(block_size, block_size)))
        self.dropout = nn.Dropout(dropout)

    def forward(self, x):
        B, T, C = x.shape
        k = self.key(x)  # (B,T,hs)
        q = self.query(x)  # (B,T,hs)
        wei = q @ k.transpose(-2, -1) * k.shape[-1] ** -0.5  # (B, T, hs) @ (B, hs, T) -> (B, T, T)
        wei = wei.masked_fill(self.tril[:T, :T] == 0, float("-inf"))  # (B, T, T)
        wei = F.softmax(wei, dim=-1)  # (B, T, T)
        wei = self.dropout(wei)
        v = self.value(x)  # (B,T,hs)
        out = wei @ v  # (B, T, T) @ (B, T, hs) -> (B, T, hs)
        return out


class MultiHeadAttention(nn.Module):
    """ multiple heads of self-attention in parallel """

    def __init__(self, num_heads, head_size):
        super().__init__()
        self.heads = nn.ModuleList([Head(head_size) for _ in range(num_heads)])
        self.proj = nn.Linear(head_size * num_heads, n_embd)
        self.dropout = nn.Dropout(dropout)

    def forward(self, x):
        out = torch.cat([h(x) for h in self.heads], dim=-1)
        out = self.dropout(self.proj(out))
        return out


class FeedFoward(nn.Module):
    """ a simple linear layer followed by a non-linearity """

    def __init__(self, n_embd):
        super().__init__()
        self.net = nn.Sequential(
            nn.Linear(n_embd, 4 * n_embd),
            nn.ReLU(),
            nn.Linear(4 * n_embd, n_embd),
            nn.Dropout(dropout),
        )

    def forward(self, x):
        return self.net(x)


class Block(nn.Module):
    """ Transformer block: communication followed by computation """

    def __init__(self, n_embd, n_head):
        super().__init__()
        head_size = n_embd // n_head
        self.sa = MultiHeadAttention(n_head, head_size)
        self.ffwd = FeedFoward(n_embd)
        self.ln1 = nn.LayerNorm(n_embd)
        self.ln2 = nn.LayerNorm(n_embd)

    def forward(self, x):
        x = x + self.sa(self.ln1(x))
        x = x + self.ffwd(self.ln2(x))
        return x


class GPTLanguageModel(nn.Module):

    def __init__(self):
        super().__init__()
        self.token_embedding_table = nn.Embedding(vocab_size, n_embd)
        self.position_embedding_table = nn.Embedding(block_size, n_embd)
        self.blocks = nn.Sequential(*[Block(n_embd, n_head=n_head) for _ in range(n_layer)])
        self.ln_f = nn.LayerNorm(n_embd)
        self.lm_head = nn.Linear(n_embd, vocab_size)

    def forward(self, idx, targets=None):
        B, T = idx.shape
        tok_emb = self.token_embedding_table(idx)  # (B,T,C)
        pos_emb = self.position_embedding_table(torch.arange(T))  # (T,C)
        x = tok_emb + pos_emb  # (B,T,C)
        x = self.blocks(x)  # (B,T,C)
        x = self.ln_f(x)  # (B,T,C)
        logits = self.lm_head(x)  # (B,T,vocab_size)
        if targets is None:
            loss = None
        else:
            B, T, C = logits.shape
            logits = logits.view(B * T, C)
            targets = targets.view(B * T)
            loss = F.cross_entropy(logits, targets)
        return logits, loss


model = GPTLanguageModel()
with torch.no_grad():  # numpy's numbers in place of the random initial ones (0.02 as nanoGPT's _init_weights)
    for name, p in model.named_parameters():
        if name.endswith("weight") and p.dim() == 1:  # LayerNorm: ones plus a little
            p.copy_(torch.tensor(1 + 0.1 * rng.standard_normal(tuple(p.shape)), dtype=torch.float32))
        else:
            p.copy_(torch.tensor(0.2 * rng.standard_normal(tuple(p.shape)), dtype=torch.float32))
print(sum(p.numel() for p in model.parameters()), "parameters")
print([name for name, _ in model.named_parameters()][:8])
print(len(list(model.buffers())), model.blocks[0].sa.heads[0].tril.shape)

optimizer = torch.optim.AdamW(model.parameters(), lr=learning_rate)
for iter in range(max_iters):
    if iter % eval_interval == 0 or iter == max_iters - 1:
        losses = estimate_loss()
        print(f"step {iter}: train loss {losses['train']:.4f}, val loss {losses['val']:.4f}")
    xb, yb = get_batch("train")
    logits, loss = model(xb, yb)
    optimizer.zero_grad(set_to_none=True)
    loss.backward()
    optimizer.step()
    print(iter, round(loss.item(), 4))

print(logits.grad_fn, loss.grad_fn)
print(model.blocks[0].ln1.weight.grad[:4])
print(model.token_embedding_table.weight.grad[stoi["a"], :4])
print(model.blocks[1].sa.heads[3].query.weight.grad.norm())
print(optimizer.state[model.lm_head.bias]["exp_avg_sq"][:4])

# one block with nn.MultiheadAttention: its in-projection packs the heads' query, key and value weights
block = model.blocks[0]
mha = nn.MultiheadAttention(n_embd, n_head, bias=False, batch_first=True)
with torch.no_grad():
    for i, part in enumerate(["query", "key", "value"]):
        w = torch.cat([h.__getattr__(part).weight for h in block.sa.heads])
        mha.in_proj_weight[i * n_embd:(i + 1) * n_embd] = w
    mha.out_proj.weight.copy_(block.sa.proj.weight)
x = model.token_embedding_table(xb) + model.position_embedding_table(torch.arange(block_size))
h = block.ln1(x)
causal = torch.triu(torch.ones(block_size, block_size, dtype=torch.bool), diagonal=1)
a, weights = mha(h, h, h, attn_mask=causal, need_weights=False, is_causal=True)
print(weights, a.shape)
print(torch.allclose(a + block.sa.proj.bias, block.sa(h), atol=1e-5))
a2, weights = mha(h, h, h, attn_mask=causal)
print(torch.allclose(a, a2, atol=1e-5), weights.shape, weights[0, 2, :4])
(a.sum() + a2.sum()).backward()
print(mha.in_proj_weight.grad.norm(), mha.out_proj.weight.grad[0, :4])
