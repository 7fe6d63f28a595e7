"""After fastbook chapter 4 (fast.ai, "Under the Hood: Training a Digit Classifier"): SGD from scratch
on a quadratic, then a linear model with mnist_loss (torch.where, sigmoid), on small numpy "images"."""
import numpy as np
import torch


def f(x):
    return x ** 2


xt = torch.tensor(3.).requires_grad_()
yt = f(xt)
yt.backward()
print(yt, xt.grad)
xt = torch.tensor([3., 4., 10.]).requires_grad_()


def f2(x):
    return (x ** 2).sum()


yt = f2(xt)
yt.backward()
print(xt.grad)

time = torch.arange(0, 20).float()
speed = torch.tensor(np.round(np.random.default_rng(12).standard_normal(20) * 3, 4), dtype=torch.float32) + \
    0.75 * (time - 9.5) ** 2 + 1


def fq(t, params):
    a, b, c = params
    return a * (t ** 2) + (b * t) + c


def mse(preds, targets):
    return ((preds - targets) ** 2).mean()


params = torch.tensor([0.5, -0.3, 1.2]).requires_grad_()
lr = 1e-5
for i in range(10):
    preds = fq(time, params)
    loss = mse(preds, speed)
    loss.backward()
    params.data -= lr * params.grad.data
    params.grad = None
    print(loss.item())

rng = np.random.default_rng(13)
threes = torch.tensor(rng.uniform(0, 1, (30, 16)) + 0.3, dtype=torch.float32)
sevens = torch.tensor(rng.uniform(0, 1, (30, 16)), dtype=torch.float32)
train_x = torch.cat([threes, sevens]).view(-1, 16)
train_y = torch.tensor([1] * len(threes) + [0] * len(sevens)).unsqueeze(1)
dset = list(zip(train_x, train_y))
x, y = dset[0]
print(x.shape, y)


def init_params(size, std=1.0):
    return (torch.tensor(rng.standard_normal(size), dtype=torch.float32) * std).requires_grad_()


weights = init_params((16, 1))
bias = init_params(1)


def linear1(xb):
    return xb @ weights + bias


def mnist_loss(predictions, targets):
    predictions = predictions.sigmoid()
    return torch.where(targets == 1, 1 - predictions, predictions).mean()


def batch_accuracy(xb, yb):
    preds = xb.sigmoid()
    correct = (preds > 0.5) == yb
    return correct.float().mean()


for epoch in range(5):
    for i in range(0, 60, 20):
        xb, yb = train_x[i:i + 20], train_y[i:i + 20]
        loss = mnist_loss(linear1(xb), yb)
        loss.backward()
        for p in weights, bias:
            p.data -= 1.0 * p.grad
            p.grad.zero_()
    print(epoch, round(batch_accuracy(linear1(train_x), train_y).item(), 4), loss.item())
# tolerance: 1e-3
