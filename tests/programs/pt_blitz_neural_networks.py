"""After PyTorch's 60-minute blitz, "Neural Networks" (beginner/blitz/neural_networks_tutorial.py): LeNet with
two Conv2d layers, max_pool2d, flatten and three Linear layers; its output shape, the number of parameters,
net.zero_grad() and a backward of random gradients, MSELoss against a target, the grad_fn chain of the loss,
conv1.bias.grad before and after backward, and an SGD step.  The weights are set from a numpy generator so the
printed numbers match PyTorch."""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim


class Net(nn.Module):

    def __init__(self):
        super(Net, self).__init__()
        # 1 input image channel, 6 output channels, 5x5 square convolution kernel
        self.conv1 = nn.Conv2d(1, 6, 5)
        self.conv2 = nn.Conv2d(6, 16, 5)
        # an affine operation: y = Wx + b
        self.fc1 = nn.Linear(16 * 5 * 5, 120)  # 5*5 from image dimension
        self.fc2 = nn.Linear(120, 84)
        self.fc3 = nn.Linear(84, 10)

    def forward(self, input):
        # Convolution layer C1: 1 input image channel, 6 output channels, 5x5 square convolution, RELU
        c1 = F.relu(self.conv1(input))
        # Subsampling layer S2: 2x2 grid, purely functional
        s2 = F.max_pool2d(c1, (2, 2))
        # Convolution layer C3: 6 input channels, 16 output channels, 5x5 square convolution, RELU
        c3 = F.relu(self.conv2(s2))
        # Subsampling layer S4: 2x2 grid, purely functional
        s4 = F.max_pool2d(c3, 2)
        # Flatten operation: purely functional, outputs a (N, 400) Tensor
        s4 = torch.flatten(s4, 1)
        f5 = F.relu(self.fc1(s4))
        f6 = F.relu(self.fc2(f5))
        output = self.fc3(f6)
        return output


net = Net()
print(net)

params = list(net.parameters())
print(len(params))
print(params[0].size())  # conv1's .weight
print(sum(p.numel() for p in params))

rng = np.random.default_rng(0)
with torch.no_grad():
    for p in net.parameters():  # (uniform in +-1/sqrt(fan_in), as PyTorch's default initialisation)
        bound = 1 / np.sqrt(p[0].numel()) if p.dim() > 1 else 0.1
        p.copy_(torch.tensor(rng.uniform(-bound, bound, size=tuple(p.shape)), dtype=torch.float32))

input = torch.tensor(rng.standard_normal((1, 1, 32, 32)), dtype=torch.float32)
out = net(input)
print(out)
print(out.shape, out.grad_fn)

net.zero_grad()
out.backward(torch.tensor(rng.standard_normal((1, 10)), dtype=torch.float32))
print(net.conv1.weight.grad[0, 0])
print(net.conv2.bias.grad)

output = net(input)
target = torch.tensor(rng.standard_normal(10), dtype=torch.float32)  # a dummy target, for example
target = target.view(1, -1)  # make it the same shape as output
criterion = nn.MSELoss()

loss = criterion(output, target)
print(loss)
print(loss.grad_fn)  # MSELoss
print(loss.grad_fn.next_functions[0][0])  # Linear
print(loss.grad_fn.next_functions[0][0].next_functions[0][0])  # ReLU

net.zero_grad()  # zeroes the gradient buffers of all parameters
print('conv1.bias.grad before backward')
print(net.conv1.bias.grad)
loss.backward()
print('conv1.bias.grad after backward')
print(net.conv1.bias.grad)

# create your optimizer
optimizer = optim.SGD(net.parameters(), lr=0.01)

# in your training loop:
for step in range(3):
    optimizer.zero_grad()  # zero the gradient buffers
    output = net(input)
    loss = criterion(output, target)
    loss.backward()
    optimizer.step()  # Does the update
    print(step, loss.item())
print(net.conv1.weight[0, 0, 0])
