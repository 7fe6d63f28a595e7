"""After PyTorch's "Understanding requires_grad, retain_grad, Leaf, and Non-leaf Tensors"."""
import torch
import torch.nn.functional as F

x = torch.ones(1, 3)
W = torch.ones(3, 2, requires_grad=True)
b = torch.ones(1, 2, requires_grad=True)
y = torch.ones(1, 2)

z = (x @ W) + b
y_pred = F.relu(z)
loss = F.mse_loss(y_pred, y)

for name, t in [("x", x), ("W", W), ("b", b), ("z", z), ("y_pred", y_pred), ("loss", loss)]:
    print(f"{name:7} requires_grad={t.requires_grad} is_leaf={t.is_leaf} retains_grad={t.retains_grad} "
          f"grad_fn={t.grad_fn}")

z.retain_grad()
y_pred.retain_grad()
loss.retain_grad()
loss.backward(retain_graph=True)
print(W.grad)
print(b.grad)
print(z.grad, y_pred.grad, loss.grad)
print(x.grad)
try:
    loss.backward()
    loss.backward()
except RuntimeError as e:
    print("RuntimeError:", str(e)[:60])
print(W.grad)
