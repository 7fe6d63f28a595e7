"""After "Learning PyTorch with Examples": examples_nn/dynamic_net.py (a loop whose length is random,
the same parameter reused; SGD with momentum)."""
import math
import random

import torch


class DynamicNet(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.a = torch.nn.Parameter(torch.tensor(0.1))
        self.b = torch.nn.Parameter(torch.tensor(-0.2))
        self.c = torch.nn.Parameter(torch.tensor(0.05))
        self.d = torch.nn.Parameter(torch.tensor(0.02))
        self.e = torch.nn.Parameter(torch.tensor(0.01))

    def forward(self, x):
        y = self.a + self.b * x + self.c * x ** 2 + self.d * x ** 3
        for exp in range(4, random.randint(4, 6)):
            y = y + self.e * x ** exp
        return y

    def string(self):
        return (f"y = {self.a.item():.4f} + {self.b.item():.4f} x + {self.c.item():.4f} x^2 + "
                f"{self.d.item():.4f} x^3 + {self.e.item():.4f} x^4 ? + {self.e.item():.4f} x^5 ?")


random.seed(0)
x = torch.linspace(-math.pi, math.pi, 500)
y = torch.sin(x)
model = DynamicNet()
criterion = torch.nn.MSELoss(reduction="sum")
optimizer = torch.optim.SGD(model.parameters(), lr=1e-8, momentum=0.9)
for t in range(600):
    y_pred = model(x)
    loss = criterion(y_pred, y)
    if t % 200 == 199:
        print(t, round(loss.item(), 2))
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
print(f"Result: {model.string()}")
print([name for name, _ in model.named_parameters()])
# tolerance: 1e-3
