"""After d2l.ai (PyTorch) "Implementation of Multilayer Perceptrons": the MLP from scratch
(``nn.Parameter(torch.randn(...) * sigma)``, relu as ``torch.max(X, zeros_like(X))``, cross-entropy,
accuracy with ``argmax(axis=1).type(...)``) and the concise one (``nn.Sequential`` of ``nn.Flatten``,
``nn.LazyLinear`` and ``nn.ReLU``, initialised with ``apply(init_weights)``, ``nn.init.normal_`` and
``zeros_``), trained with ``optim.SGD`` on small synthetic "images" (numpy data instead of Fashion-MNIST)."""
import numpy as np
import torch
import torch.nn.functional as F
from torch import nn

rng = np.random.default_rng(23)
num_inputs, num_outputs, num_hiddens = 4 * 5, 3, 16
centres = rng.standard_normal((num_outputs, num_inputs)) * 0.3
labels = rng.integers(0, num_outputs, 60)
images = centres[labels] + rng.standard_normal((60, num_inputs))
X_all = torch.tensor(images.reshape(60, 1, 4, 5), dtype=torch.float32)
y_all = torch.tensor(labels)
batches = [(X_all[i:i + 12], y_all[i:i + 12]) for i in range(0, 60, 12)]
print(X_all.shape, X_all.dtype, y_all.shape, y_all.dtype)


def like(t, scale=1.0):
    """The same random numbers on both libraries: numpy values copied into the tensor, in place."""
    with torch.no_grad():
        t.copy_(torch.tensor(rng.standard_normal(tuple(t.shape)) * scale, dtype=torch.float32))
    return t


class MLPScratch(nn.Module):
    def __init__(self, num_inputs, num_outputs, num_hiddens, sigma=0.01):
        super().__init__()
        self.num_inputs = num_inputs
        self.W1 = nn.Parameter(torch.randn(num_inputs, num_hiddens) * sigma)
        self.b1 = nn.Parameter(torch.zeros(num_hiddens))
        self.W2 = nn.Parameter(torch.randn(num_hiddens, num_outputs) * sigma)
        self.b2 = nn.Parameter(torch.zeros(num_outputs))
        like(self.W1, sigma * 30)
        like(self.W2, sigma * 30)

    def forward(self, X):
        X = X.reshape((-1, self.num_inputs))
        H = relu(torch.matmul(X, self.W1) + self.b1)
        return torch.matmul(H, self.W2) + self.b2


def relu(X):
    a = torch.zeros_like(X)
    return torch.max(X, a)


X = torch.tensor([[-1.5, 0.0, 2.0]], requires_grad=True)
r = relu(X)
r.sum().backward()
print(r, X.grad)


def loss_fn(Y_hat, Y, averaged=True):
    Y_hat = Y_hat.reshape((-1, Y_hat.shape[-1]))
    Y = Y.reshape((-1,))
    return F.cross_entropy(Y_hat, Y, reduction="mean" if averaged else "none")


def accuracy(Y_hat, Y, averaged=True):
    Y_hat = Y_hat.reshape((-1, Y_hat.shape[-1]))
    preds = Y_hat.argmax(axis=1).type(Y.dtype)
    compare = (preds == Y.reshape(-1)).type(torch.float32)
    return compare.mean() if averaged else compare


def fit(model, lr, epochs):
    optim = torch.optim.SGD(model.parameters(), lr)
    for epoch in range(epochs):
        for X, y in batches:
            loss = loss_fn(model(X), y)
            optim.zero_grad()
            loss.backward()
            optim.step()
        with torch.no_grad():
            Y_hat = model(X_all)
            print(epoch, loss.item(), loss_fn(Y_hat, y_all).item(), accuracy(Y_hat, y_all).item())
    return loss


model = MLPScratch(num_inputs, num_outputs, num_hiddens)
print([(name, p.shape, p.requires_grad) for name, p in model.named_parameters()])
loss = fit(model, lr=0.1, epochs=5)
print(loss.grad_fn, model.W1.grad.shape, model.b2.grad)
print(loss_fn(model(X_all[:4]), y_all[:4], averaged=False))
print(accuracy(model(X_all[:4]), y_all[:4], averaged=False))


class MLP(nn.Module):
    def __init__(self, num_outputs, num_hiddens):
        super().__init__()
        self.net = nn.Sequential(nn.Flatten(), nn.LazyLinear(num_hiddens), nn.ReLU(), nn.LazyLinear(num_outputs))

    def forward(self, X):
        return self.net(X)


def init_weights(m):
    if type(m) == nn.Linear:
        nn.init.normal_(m.weight, std=0.01)
        nn.init.zeros_(m.bias)


model = MLP(num_outputs, num_hiddens)
print([type(m).__name__ for m in model.net])
model(X_all[:1])  # the first batch fixes the lazy layers' input sizes
print([type(m).__name__ for m in model.net])
print(model.net[1].weight.shape, model.net[3].weight.shape)
model.apply(init_weights)
print(model.net[1].bias.abs().sum().item(), (model.net[1].weight.std() < 0.05).item())
like(model.net[1].weight, 0.3)
like(model.net[3].weight, 0.3)
print(model)
loss = fit(model, lr=0.1, epochs=5)
print(loss.grad_fn, model.net[3].bias.grad)
print(sum(p.numel() for p in model.parameters()))
# tolerance: 1e-3
