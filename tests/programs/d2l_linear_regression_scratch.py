"""After d2l.ai (PyTorch), "Linear Regression Implementation from Scratch" and "Weight Decay"."""
import random

import numpy as np
import torch

rng = np.random.default_rng(6)


def synthetic_data(w, b, num_examples):
    """y = Xw + b + noise (d2l draws with torch.normal; here numpy, so both libraries see the same data)."""
    X = torch.tensor(rng.normal(0, 1, (num_examples, len(w))), dtype=torch.float32)
    y = torch.matmul(X, w) + b
    y += torch.tensor(rng.normal(0, 0.01, tuple(y.shape)), dtype=torch.float32)
    return X, y.reshape((-1, 1))


true_w = torch.tensor([2, -3.4])
true_b = 4.2
features, labels = synthetic_data(true_w, true_b, 200)
print("features:", features[0], "\nlabel:", labels[0])


def data_iter(batch_size, features, labels):
    num_examples = len(features)
    indices = list(range(num_examples))
    random.shuffle(indices)
    for i in range(0, num_examples, batch_size):
        batch_indices = torch.tensor(indices[i: min(i + batch_size, num_examples)])
        yield features[batch_indices], labels[batch_indices]


w = torch.tensor(rng.normal(0, 0.01, (2, 1)), dtype=torch.float32, requires_grad=True)
b = torch.zeros(1, requires_grad=True)


def linreg(X, w, b):
    return torch.matmul(X, w) + b


def squared_loss(y_hat, y):
    return (y_hat - y.reshape(y_hat.shape)) ** 2 / 2


def l2_penalty(w):
    return torch.sum(w.pow(2)) / 2


def sgd(params, lr, batch_size):
    with torch.no_grad():
        for param in params:
            param -= lr * param.grad / batch_size
            param.grad.zero_()


random.seed(0)
lr, num_epochs, batch_size, lambd = 0.03, 3, 10, 0.1
for epoch in range(num_epochs):
    for X, y in data_iter(batch_size, features, labels):
        l = squared_loss(linreg(X, w, b), y) + lambd * l2_penalty(w)  # noqa: E741
        l.sum().backward()
        sgd([w, b], lr, batch_size)
    with torch.no_grad():
        train_l = squared_loss(linreg(features, w, b), labels)
        print(f"epoch {epoch + 1}, loss {float(train_l.mean()):f}")
print(f"error in estimating w: {true_w - w.reshape(true_w.shape)}")
print(f"error in estimating b: {true_b - b}")
print("w's L2 norm:", torch.norm(w).item())
# tolerance: 1e-3
