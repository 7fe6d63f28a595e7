"""After Karpathy's "Let's build GPT" (nanoGPT lecture), "the mathematical trick in self-attention": averaging
the past with a loop, with a lower-triangular matrix of weights, with masked_fill(-inf) and softmax, then one
head of self-attention (key, query, value Linear layers, scaled scores, the triangular mask), its backward,
and the same head through F.scaled_dot_product_attention(is_causal=True).  Inputs and weights come from numpy."""
import numpy as np
import torch
import torch.nn as nn
from torch.nn import functional as F

rng = np.random.default_rng(1337)

# toy example: the average of the tokens so far
a = torch.tril(torch.ones(3, 3))
a = a / torch.sum(a, 1, keepdim=True)
b = torch.tensor(rng.integers(0, 10, (3, 2)), dtype=torch.float32)
c = a @ b
print("a=")
print(a)
print("--")
print("b=")
print(b)
print("--")
print("c=")
print(c)

B, T, C = 4, 8, 2
x = torch.tensor(rng.standard_normal((B, T, C)), dtype=torch.float32)
print(x.shape)

# version 1: a loop
xbow = torch.zeros((B, T, C))
for b in range(B):
    for t in range(T):
        xprev = x[b, :t + 1]  # (t,C)
        xbow[b, t] = torch.mean(xprev, 0)
print(x[0])
print(xbow[0])

# version 2: a weighted sum, the weights in a lower-triangular matrix
wei = torch.tril(torch.ones(T, T))
wei = wei / wei.sum(1, keepdim=True)
xbow2 = wei @ x  # (B, T, T) @ (B, T, C) ----> (B, T, C)
print(torch.allclose(xbow, xbow2))

# version 3: softmax
tril = torch.tril(torch.ones(T, T))
wei = torch.zeros((T, T))
wei = wei.masked_fill(tril == 0, float("-inf"))
print(wei)
wei = F.softmax(wei, dim=-1)
xbow3 = wei @ x
print(torch.allclose(xbow, xbow3))

# version 4: self-attention
B, T, C = 4, 8, 32
x = torch.tensor(rng.standard_normal((B, T, C)), dtype=torch.float32, requires_grad=True)

head_size = 16
key = nn.Linear(C, head_size, bias=False)
query = nn.Linear(C, head_size, bias=False)
value = nn.Linear(C, head_size, bias=False)
with torch.no_grad():
    for layer in (key, query, value):
        layer.weight.copy_(torch.tensor(rng.standard_normal((head_size, C)) * C ** -0.5, dtype=torch.float32))
k = key(x)  # (B, T, 16)
q = query(x)  # (B, T, 16)
wei = q @ k.transpose(-2, -1) * head_size ** -0.5  # (B, T, 16) @ (B, 16, T) ---> (B, T, T)

tril = torch.tril(torch.ones(T, T))
wei = wei.masked_fill(tril == 0, float("-inf"))
wei = F.softmax(wei, dim=-1)

v = value(x)
out = wei @ v
print(out.shape)
print(wei[0])
print(out[0, :3])
print(out.grad_fn, wei.grad_fn, wei.grad_fn.next_functions)
print(k.var(), q.var(), wei.var())

w = torch.tensor(rng.standard_normal((B, T, head_size)), dtype=torch.float32)
(out * w).sum().backward()
print(x.grad[0, :2, :6])
print(query.weight.grad[:2, :6])
print(key.weight.grad.norm(), value.weight.grad.norm())

# softmax of sharp scores goes towards one-hot: why the scores are scaled by head_size ** -0.5
print(torch.softmax(torch.tensor([0.1, -0.2, 0.3, -0.2, 0.5]), dim=-1))
print(torch.softmax(torch.tensor([0.1, -0.2, 0.3, -0.2, 0.5]) * 8, dim=-1))

# the same head with PyTorch's fused attention
x.grad = None
for layer in (key, query, value):
    layer.weight.grad = None
out2 = F.scaled_dot_product_attention(query(x)[:, None], key(x)[:, None], value(x)[:, None], is_causal=True)[:, 0]
print(out2.shape, out2.grad_fn.next_functions[0][0])
print(torch.allclose(out, out2, atol=1e-6))
(out2 * w).sum().backward()
print(x.grad[0, :2, :6])
print(query.weight.grad[:2, :6])
