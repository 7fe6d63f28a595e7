"""After PyTorch's "Learn the Basics": "Datasets & DataLoaders" (a Dataset subclass with __len__ and
__getitem__, a transform, DataLoader batches) and "Optimizing Model Parameters" (train_loop and
test_loop with model.train()/eval(), loss.item(), accuracy with argmax and .type(torch.float))."""
import numpy as np
import torch
from torch import nn
from torch.utils.data import DataLoader, Dataset

rng = np.random.default_rng(0)
centers = rng.standard_normal((3, 8)) * 2


class Blobs(Dataset):
    """Points around three centres, labelled by their centre: stands in for FashionMNIST."""

    def __init__(self, n, transform=None, target_transform=None):
        self.labels = rng.integers(0, 3, n)
        self.points = (centers[self.labels] + rng.standard_normal((n, 8))).astype(np.float32)
        self.transform, self.target_transform = transform, target_transform

    def __len__(self):
        return len(self.labels)

    def __getitem__(self, idx):
        x, y = torch.from_numpy(self.points[idx]), int(self.labels[idx])
        if self.transform:
            x = self.transform(x)
        if self.target_transform:
            y = self.target_transform(y)
        return x, y


training_data = Blobs(240, transform=lambda x: x / 4)
test_data = Blobs(60, transform=lambda x: x / 4)
print(len(training_data), training_data[0][0].shape, training_data[0][1])
train_dataloader = DataLoader(training_data, batch_size=32)
test_dataloader = DataLoader(test_data, batch_size=32)
features, labels = next(iter(train_dataloader))
print(f"Feature batch shape: {features.size()}")
print(f"Labels batch shape: {labels.size()}", labels.dtype, labels[:5])

onehot = Blobs(4, target_transform=lambda y: torch.zeros(3, dtype=torch.float).scatter_(0, torch.tensor(y), value=1))
print(onehot[0][1], onehot[1][1])


class NeuralNetwork(nn.Module):
    def __init__(self):
        super().__init__()
        self.flatten = nn.Flatten()
        self.stack = nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 3))

    def forward(self, x):
        return self.stack(self.flatten(x))


model = NeuralNetwork()
with torch.no_grad():
    for p in model.parameters():
        p.copy_(torch.tensor(rng.standard_normal(tuple(p.shape)) * 0.3, dtype=torch.float32))
learning_rate, batch_size, epochs = 1e-1, 32, 4
loss_fn = nn.CrossEntropyLoss()
optimizer = torch.optim.SGD(model.parameters(), lr=learning_rate)


def train_loop(dataloader, model, loss_fn, optimizer):
    size = len(dataloader.dataset)
    model.train()
    for batch, (X, y) in enumerate(dataloader):
        pred = model(X)
        loss = loss_fn(pred, y)
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()
        if batch % 3 == 0:
            loss, current = loss.item(), batch * batch_size + len(X)
            print(f"loss: {loss:>7f}  [{current:>5d}/{size:>5d}]")


def test_loop(dataloader, model, loss_fn):
    model.eval()
    size = len(dataloader.dataset)
    num_batches = len(dataloader)
    test_loss, correct = 0, 0
    with torch.no_grad():
        for X, y in dataloader:
            pred = model(X)
            test_loss += loss_fn(pred, y).item()
            correct += (pred.argmax(1) == y).type(torch.float).sum().item()
    test_loss /= num_batches
    correct /= size
    print(f"Test Error: \n Accuracy: {(100*correct):>0.1f}%, Avg loss: {test_loss:>8f} \n")


for t in range(epochs):
    print(f"Epoch {t+1}\n-------------------------------")
    train_loop(train_dataloader, model, loss_fn, optimizer)
    test_loop(test_dataloader, model, loss_fn)
print("Done!", model.training)
