"""After PyTorch's "What is torch.nn really?": logistic regression from scratch (log_softmax and nll
by hand, range indexing, weights.requires_grad_()), then refactored step by step with F.cross_entropy,
nn.Module, nn.Parameter, nn.Linear, optim, TensorDataset, DataLoader, a validation loop and fit()."""
import math

import numpy as np
import torch
import torch.nn.functional as F
from torch import nn, optim
from torch.utils.data import DataLoader, TensorDataset

rng = np.random.default_rng(0)
n, d, c = 256, 20, 4
x_train, x_valid = (torch.tensor(rng.standard_normal((m, d)), dtype=torch.float32) for m in (n, 64))
true_w = rng.standard_normal((d, c))
y_train = torch.tensor((x_train.numpy() @ true_w).argmax(1))
y_valid = torch.tensor((x_valid.numpy() @ true_w).argmax(1))
print(x_train.shape, y_train.min(), y_train.max(), y_train.dtype)

weights = torch.tensor(rng.standard_normal((d, c)), dtype=torch.float32) / math.sqrt(d)
weights.requires_grad_()
bias = torch.zeros(c, requires_grad=True)


def log_softmax(x):
    return x - x.exp().sum(-1).log().unsqueeze(-1)


def model(xb):
    return log_softmax(xb @ weights + bias)


bs = 64
xb = x_train[0:bs]
preds = model(xb)
print(preds[0], preds.shape)


def nll(input, target):
    return -input[range(target.shape[0]), target].mean()


loss_func = nll
yb = y_train[0:bs]
print(loss_func(preds, yb))


def accuracy(out, yb):
    preds = torch.argmax(out, dim=1)
    return (preds == yb).float().mean()


print(accuracy(preds, yb))
lr, epochs = 0.5, 2
for epoch in range(epochs):
    for i in range((n - 1) // bs + 1):
        start_i = i * bs
        end_i = start_i + bs
        xb = x_train[start_i:end_i]
        yb = y_train[start_i:end_i]
        pred = model(xb)
        loss = loss_func(pred, yb)
        loss.backward()
        with torch.no_grad():
            weights -= weights.grad * lr
            bias -= bias.grad * lr
            weights.grad.zero_()
            bias.grad.zero_()
print(loss_func(model(xb), yb), accuracy(model(xb), yb))

loss_func = F.cross_entropy
print("F.cross_entropy", loss_func(xb @ weights + bias, yb))


class Mnist_Logistic(nn.Module):
    def __init__(self):
        super().__init__()
        self.weights = nn.Parameter(torch.tensor(rng.standard_normal((d, c)), dtype=torch.float32) / math.sqrt(d))
        self.bias = nn.Parameter(torch.zeros(c))

    def forward(self, xb):
        return xb @ self.weights + self.bias


model = Mnist_Logistic()
print(loss_func(model(xb), yb))


def fit_by_hand():
    for epoch in range(epochs):
        for i in range((n - 1) // bs + 1):
            xb, yb = x_train[i * bs: i * bs + bs], y_train[i * bs: i * bs + bs]
            loss = loss_func(model(xb), yb)
            loss.backward()
            with torch.no_grad():
                for p in model.parameters():
                    p -= p.grad * lr
                model.zero_grad()


fit_by_hand()
print(loss_func(model(xb), yb))


class Mnist_Linear(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(d, c)

    def forward(self, xb):
        return self.lin(xb)


def get_model():
    model = Mnist_Linear()
    with torch.no_grad():
        model.lin.weight.copy_(torch.tensor(rng.standard_normal((c, d)) * 0.1, dtype=torch.float32))
        model.lin.bias.zero_()
    return model, optim.SGD(model.parameters(), lr=lr)


def loss_batch(model, loss_func, xb, yb, opt=None):
    loss = loss_func(model(xb), yb)
    if opt is not None:
        loss.backward()
        opt.step()
        opt.zero_grad()
    return loss.item(), len(xb)


def fit(epochs, model, loss_func, opt, train_dl, valid_dl):
    for epoch in range(epochs):
        model.train()
        for xb, yb in train_dl:
            loss_batch(model, loss_func, xb, yb, opt)
        model.eval()
        with torch.no_grad():
            losses, nums = zip(*[loss_batch(model, loss_func, xb, yb) for xb, yb in valid_dl])
        val_loss = np.sum(np.multiply(losses, nums)) / np.sum(nums)
        print(epoch, val_loss)


def get_data(train_ds, valid_ds, bs):
    return (DataLoader(train_ds, batch_size=bs, shuffle=False), DataLoader(valid_ds, batch_size=bs * 2))


train_ds, valid_ds = TensorDataset(x_train, y_train), TensorDataset(x_valid, y_valid)
print(len(train_ds), train_ds[0][1], [t.shape for t in train_ds[3:5]])
train_dl, valid_dl = get_data(train_ds, valid_ds, bs)
model, opt = get_model()
fit(3, model, loss_func, opt, train_dl, valid_dl)


class Lambda(nn.Module):
    def __init__(self, func):
        super().__init__()
        self.func = func

    def forward(self, x):
        return self.func(x)


seq = nn.Sequential(Lambda(lambda x: x.view(-1, d)), nn.Linear(d, 32), nn.ReLU(), nn.Linear(32, c))
with torch.no_grad():
    for p in seq.parameters():
        p.copy_(torch.tensor(rng.standard_normal(tuple(p.shape)) * 0.2, dtype=torch.float32))
print(seq)
fit(2, seq, loss_func, optim.SGD(seq.parameters(), lr=0.1, momentum=0.9), train_dl, valid_dl)
