"""After d2l.ai (PyTorch), "Concise Implementation of Linear Regression" (TensorDataset, DataLoader,
nn.LazyLinear, weight.data.normal_ replaced by numpy values, HuberLoss as in its exercise)."""
import numpy as np
import torch
from torch import nn
from torch.utils import data

rng = np.random.default_rng(7)
true_w, true_b = np.array([2, -3.4]), 4.2
X = rng.normal(0, 1, (120, 2))
features = torch.tensor(X, dtype=torch.float32)
labels = torch.tensor((X @ true_w + true_b + rng.normal(0, 0.01, 120)).reshape(-1, 1), dtype=torch.float32)


def load_array(data_arrays, batch_size, is_train=True):
    dataset = data.TensorDataset(*data_arrays)
    return data.DataLoader(dataset, batch_size, shuffle=False)  # (shuffling draws from each library's RNG)


data_iter = load_array((features, labels), 10)
print(next(iter(data_iter))[0].shape, len(data_iter))

net = nn.Sequential(nn.LazyLinear(1))
net(features[:1])  # the lazy layer learns its input size here
net[0].weight.data = torch.tensor(rng.normal(0, 0.01, (1, 2)), dtype=torch.float32)
net[0].bias.data.fill_(0)
print(net)

for name, loss in [("mse", nn.MSELoss()), ("huber", nn.HuberLoss())]:
    trainer = torch.optim.SGD(net.parameters(), lr=0.03)
    for epoch in range(3):
        for Xb, yb in data_iter:
            l = loss(net(Xb), yb)  # noqa: E741
            trainer.zero_grad()
            l.backward()
            trainer.step()
        l = loss(net(features), labels)  # noqa: E741
        print(f"{name} epoch {epoch + 1}, loss {l:f}")
w = net[0].weight.data
print("error in estimating w:", torch.tensor(true_w, dtype=torch.float32) - w.reshape(2))
print("error in estimating b:", true_b - net[0].bias.data)
print(net[0].weight.grad.shape, [p.shape for p in net.parameters()])
# tolerance: 1e-3
