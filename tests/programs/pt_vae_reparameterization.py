"""After the reparameterisation trick of pytorch/examples' vae/main.py: an encoder gives ``mu`` and
``log_var``, ``Normal(mu, std).rsample()`` draws ``z = mu + eps * std`` as a recorded function of both, a
decoder reconstructs, and the loss is the reconstruction error plus the KL divergence to ``N(0, 1)``
(on made-up 8-dimensional data instead of MNIST).  The noise comes from the generator, which both
libraries share after ``manual_seed``."""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.distributions import Normal

rng = np.random.default_rng(0)
data = torch.tensor(rng.random((64, 8)).astype(np.float32))


class VAE(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1, self.fc21, self.fc22 = nn.Linear(8, 6), nn.Linear(6, 2), nn.Linear(6, 2)
        self.fc3, self.fc4 = nn.Linear(2, 6), nn.Linear(6, 8)

    def encode(self, x):
        h1 = F.relu(self.fc1(x))
        return self.fc21(h1), self.fc22(h1)

    def decode(self, z):
        return torch.sigmoid(self.fc4(F.relu(self.fc3(z))))

    def forward(self, x):
        mu, logvar = self.encode(x)
        q = Normal(mu, torch.exp(0.5 * logvar))
        z = q.rsample()
        return self.decode(z), mu, logvar, q, z


torch.manual_seed(0)
model = VAE()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
for step in range(1, 101):
    recon, mu, logvar, q, z = model(data)
    bce = F.binary_cross_entropy(recon, data, reduction="sum")
    kld = -0.5 * torch.sum(1 + logvar - mu.pow(2) - logvar.exp())
    loss = bce + kld
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    if step == 1:
        print(q, "z:", z.shape, z.grad_fn.name(), [n.name() for n, _ in z.grad_fn.next_functions])
        print("log_prob of z:", q.log_prob(z).sum().item(), "entropy:", q.entropy().sum().item())
    if step % 20 == 0:
        print(f"step {step}: loss {loss.item():.3f} (reconstruction {bce.item():.3f}, KL {kld.item():.3f})")
# tolerance: 1e-3
