"""After PyTorch's "What is torch.nn really?", its CNN part: Mnist_CNN (three Conv2d with stride 2 and padding 1,
relu, avg_pool2d, view), then the same network as nn.Sequential with a Lambda layer for the reshapes and
nn.AdaptiveAvgPool2d(1), trained with SGD and momentum through fit() with a validation loss.  The 28x28
"digits" are made by a numpy generator (no MNIST download) and the weights are set from it too."""
import numpy as np
import torch
import torch.nn.functional as F
from torch import nn, optim
from torch.utils.data import DataLoader, TensorDataset

rng = np.random.default_rng(2)
n_train, n_valid = 96, 32
x_all = rng.uniform(0, 1, (n_train + n_valid, 784)) * (rng.uniform(0, 1, (n_train + n_valid, 784)) > 0.7)
score = x_all[:, :392].sum(1) - x_all[:, 392:].sum(1)  # the label: the top half's ink minus the bottom's, ranked
y_all = np.argsort(np.argsort(score)) * 10 // len(score)
x_train, y_train, x_valid, y_valid = map(torch.tensor, (x_all[:n_train].astype(np.float32), y_all[:n_train],
                                                       x_all[n_train:].astype(np.float32), y_all[n_train:]))
print(x_train.shape, y_train.min(), y_train.max())
bs, lr, epochs = 32, 0.1, 2
loss_func = F.cross_entropy
train_ds, valid_ds = TensorDataset(x_train, y_train), TensorDataset(x_valid, y_valid)


def set_weights(model):
    with torch.no_grad():
        for p in model.parameters():
            bound = 1 / np.sqrt(p[0].numel()) if p.dim() > 1 else 0.1
            p.copy_(torch.tensor(rng.uniform(-bound, bound, size=tuple(p.shape)), dtype=torch.float32))


def get_data(train_ds, valid_ds, bs):
    return (DataLoader(train_ds, batch_size=bs, shuffle=False), DataLoader(valid_ds, batch_size=bs * 2))


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
        print(epoch, f"{val_loss:.5f}")


class Mnist_CNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 16, kernel_size=3, stride=2, padding=1)
        self.conv2 = nn.Conv2d(16, 16, kernel_size=3, stride=2, padding=1)
        self.conv3 = nn.Conv2d(16, 10, kernel_size=3, stride=2, padding=1)

    def forward(self, xb):
        xb = xb.view(-1, 1, 28, 28)
        xb = F.relu(self.conv1(xb))
        xb = F.relu(self.conv2(xb))
        xb = F.relu(self.conv3(xb))
        xb = F.avg_pool2d(xb, 4)
        return xb.view(-1, xb.size(1))


model = Mnist_CNN()
set_weights(model)
print(model)
xb = x_train[:4]
out = model(xb)
print(out, out.grad_fn)
opt = optim.SGD(model.parameters(), lr=lr, momentum=0.9)
train_dl, valid_dl = get_data(train_ds, valid_ds, bs)
fit(epochs, model, loss_func, opt, train_dl, valid_dl)
print(model.conv3.bias)


class Lambda(nn.Module):
    def __init__(self, func):
        super().__init__()
        self.func = func

    def forward(self, x):
        return self.func(x)


def preprocess(x):
    return x.view(-1, 1, 28, 28)


model = nn.Sequential(
    Lambda(preprocess),
    nn.Conv2d(1, 16, kernel_size=3, stride=2, padding=1),
    nn.ReLU(),
    nn.Conv2d(16, 16, kernel_size=3, stride=2, padding=1),
    nn.ReLU(),
    nn.Conv2d(16, 10, kernel_size=3, stride=2, padding=1),
    nn.ReLU(),
    nn.AvgPool2d(4),
    Lambda(lambda x: x.view(x.size(0), -1)),
)
set_weights(model)
opt = optim.SGD(model.parameters(), lr=lr, momentum=0.9)
fit(epochs, model, loss_func, opt, train_dl, valid_dl)


def get_model():
    model = nn.Sequential(
        Lambda(preprocess),
        nn.Conv2d(1, 16, kernel_size=3, stride=2, padding=1),
        nn.ReLU(),
        nn.Conv2d(16, 16, kernel_size=3, stride=2, padding=1),
        nn.ReLU(),
        nn.Conv2d(16, 10, kernel_size=3, stride=2, padding=1),
        nn.ReLU(),
        nn.AdaptiveAvgPool2d(1),
        Lambda(lambda x: x.view(x.size(0), -1)),
    )
    set_weights(model)
    return model, optim.SGD(model.parameters(), lr=lr, momentum=0.9)


model, opt = get_model()
print(model)
out = model(x_valid[:2])
print(out, out.grad_fn, out.grad_fn.next_functions[0][0])
fit(epochs, model, loss_func, opt, train_dl, valid_dl)
print(model[5].weight[0, 0])
# tolerance: 1e-3
