"""After PyTorch's "A Gentle Introduction to torch.autograd" (the autograd part and freezing a model)."""
import numpy as np
import torch
from torch import nn, optim

a = torch.tensor([2., 3.], requires_grad=True)
b = torch.tensor([6., 4.], requires_grad=True)
Q = 3 * a ** 3 - b ** 2
external_grad = torch.tensor([1., 1.])
Q.backward(gradient=external_grad)
print(9 * a ** 2 == a.grad)
print(-2 * b == b.grad)
print(Q.grad_fn, Q.grad_fn.next_functions)

x = torch.rand(5, 5)
y = torch.rand(5, 5)
z = torch.rand((5, 5), requires_grad=True)
a = x + y
print(f"Does `a` require gradients?: {a.requires_grad}")
b = x + z
print(f"Does `b` require gradients?: {b.requires_grad}")


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(nn.Linear(8, 6), nn.ReLU())
        self.fc = nn.Linear(6, 4)

    def forward(self, x):
        return self.fc(self.features(x))


model = Net()
rng = np.random.default_rng(3)
with torch.no_grad():
    for p in model.parameters():
        p.copy_(torch.tensor(rng.uniform(-0.5, 0.5, p.shape), dtype=torch.float32))
for param in model.parameters():
    param.requires_grad = False
model.fc = nn.Linear(6, 10)  # a new classifier: the only part that trains
with torch.no_grad():
    model.fc.weight.copy_(torch.tensor(rng.uniform(-0.5, 0.5, (10, 6)), dtype=torch.float32))
    model.fc.bias.zero_()
optimizer = optim.SGD(model.parameters(), lr=1e-2, momentum=0.9)
data = torch.tensor(rng.standard_normal((3, 8)), dtype=torch.float32)
labels = torch.tensor(rng.standard_normal((3, 10)), dtype=torch.float32)
prediction = model(data)
loss = (prediction - labels).sum()
loss.backward()
optimizer.step()
print([(name, p.grad is None) for name, p in model.named_parameters()])
print(model.fc.weight.grad.sum(0))
print(prediction.grad_fn, prediction.grad_fn.next_functions)
