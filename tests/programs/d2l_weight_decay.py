"""After d2l.ai (PyTorch) "Weight Decay": high-dimensional linear regression from scratch with an
``l2_penalty`` added to the squared loss and minibatch SGD by hand, then the concise version where
``optim.SGD`` takes two parameter groups, ``weight_decay`` on the weight only."""
import numpy as np
import torch
from torch import nn
from torch.utils import data

n_train, n_test, num_inputs, batch_size = 20, 100, 200, 5
rng = np.random.default_rng(7)
true_w, true_b = torch.ones((num_inputs, 1)) * 0.01, 0.05


def synthetic_data(w, b, num_examples):
    """y = Xw + b + noise (d2l draws with torch.normal; numpy here so both libraries see the same data)."""
    X = torch.tensor(rng.standard_normal((num_examples, len(w))), dtype=torch.float32)
    y = torch.matmul(X, w) + b
    y += torch.tensor(rng.normal(0, 0.01, tuple(y.shape)), dtype=torch.float32)
    return X, y.reshape((-1, 1))


def load_array(data_arrays, batch_size, is_train=True):
    dataset = data.TensorDataset(*data_arrays)
    return data.DataLoader(dataset, batch_size, shuffle=False)  # d2l shuffles when training


train_data = synthetic_data(true_w, true_b, n_train)
train_iter = load_array(train_data, batch_size)
test_data = synthetic_data(true_w, true_b, n_test)
test_iter = load_array(test_data, batch_size, is_train=False)
print(train_data[0].shape, train_data[1].shape, len(train_iter), len(test_iter))


def init_params():
    w = torch.normal(0, 1, size=(num_inputs, 1), requires_grad=True)
    b = torch.zeros(1, requires_grad=True)
    with torch.no_grad():
        w.copy_(torch.tensor(rng.standard_normal((num_inputs, 1)), dtype=torch.float32))
    return [w, b]


def l2_penalty(w):
    return torch.sum(w.pow(2)) / 2


def linreg(X, w, b):
    return torch.matmul(X, w) + b


def squared_loss(y_hat, y):
    return (y_hat - y.reshape(y_hat.shape)) ** 2 / 2


def sgd(params, lr, batch_size):
    with torch.no_grad():
        for param in params:
            param -= lr * param.grad / batch_size
            param.grad.zero_()


def evaluate_loss(net, data_iter, loss):
    total, n = 0.0, 0
    for X, y in data_iter:
        out = net(X)
        l = loss(out, y.reshape(out.shape))
        total += float(l.sum())
        n += l.numel()
    return total / n


def train(lambd):
    w, b = init_params()
    net, loss = lambda X: linreg(X, w, b), squared_loss
    num_epochs, lr = 100, 0.003
    for epoch in range(num_epochs):
        for X, y in train_iter:
            l = loss(net(X), y) + lambd * l2_penalty(w)
            l.sum().backward()
            sgd([w, b], lr, batch_size)
        if (epoch + 1) % 25 == 0:
            print(epoch + 1, evaluate_loss(net, train_iter, loss), evaluate_loss(net, test_iter, loss))
    print("L2 norm of w:", torch.norm(w).item())
    print(l.grad_fn, l.grad_fn.next_functions)


train(lambd=0)
train(lambd=3)


def train_concise(wd):
    net = nn.Sequential(nn.Linear(num_inputs, 1))
    for param in net.parameters():
        param.data.normal_()
    with torch.no_grad():
        net[0].weight.copy_(torch.tensor(rng.standard_normal((1, num_inputs)), dtype=torch.float32))
        net[0].bias.copy_(torch.tensor(rng.standard_normal(1), dtype=torch.float32))
    loss = nn.MSELoss(reduction="none")
    num_epochs, lr = 100, 0.003
    trainer = torch.optim.SGD([
        {"params": net[0].weight, "weight_decay": wd},
        {"params": net[0].bias}], lr=lr)
    print([(len(g["params"]), g["weight_decay"], g["lr"]) for g in trainer.param_groups])
    for epoch in range(num_epochs):
        for X, y in train_iter:
            trainer.zero_grad()
            l = loss(net(X), y)
            l.mean().backward()
            trainer.step()
        if (epoch + 1) % 25 == 0:
            print(epoch + 1, evaluate_loss(net, train_iter, loss), evaluate_loss(net, test_iter, loss))
    print("L2 norm of w:", net[0].weight.norm().item())


train_concise(0)
train_concise(3)
# tolerance: 1e-3
