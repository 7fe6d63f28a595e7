"""After "Learning PyTorch with Examples": examples_nn/polynomial_nn.py and polynomial_optim.py
(nn.Sequential with Flatten(0, 1), MSELoss(reduction="sum"), then the same with optim.RMSprop)."""
import math

import torch

x = torch.linspace(-math.pi, math.pi, 2000)
y = torch.sin(x)
p = torch.tensor([1, 2, 3])
xx = x.unsqueeze(-1).pow(p)


def make_model():
    model = torch.nn.Sequential(torch.nn.Linear(3, 1), torch.nn.Flatten(0, 1))
    with torch.no_grad():  # (the tutorial's random init, fixed so that both libraries start alike)
        model[0].weight.copy_(torch.tensor([[0.1, -0.2, 0.05]]))
        model[0].bias.fill_(0.3)
    return model


model = make_model()
loss_fn = torch.nn.MSELoss(reduction="sum")
learning_rate = 1e-6
for t in range(1000):
    y_pred = model(xx)
    loss = loss_fn(y_pred, y)
    if t % 250 == 99:
        print(t, round(loss.item(), 3))
    model.zero_grad()
    loss.backward()
    with torch.no_grad():
        for param in model.parameters():
            param -= learning_rate * param.grad
linear_layer = model[0]
print(f"Result: y = {linear_layer.bias.item():.4f} + {linear_layer.weight[:, 0].item():.4f} x + "
      f"{linear_layer.weight[:, 1].item():.4f} x^2 + {linear_layer.weight[:, 2].item():.4f} x^3")

model = make_model()
optimizer = torch.optim.RMSprop(model.parameters(), lr=1e-3)
for t in range(500):  # (the tutorial runs 2000 steps; after ~600 RMSprop's steps amplify float rounding)
    y_pred = model(xx)
    loss = loss_fn(y_pred, y)
    if t % 200 == 99:
        print(t, round(loss.item(), 3))
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
print(model)
print(loss.grad_fn, loss.grad_fn.next_functions)
# tolerance: 1e-3
