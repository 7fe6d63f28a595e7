"""After PyTorch's introyt tutorial "The Fundamentals of Autograd" (beginner/introyt/autogradyt_tutorial):
sin over a linspace and a walk down the grad_fn chain, a tiny model's ``layer2.weight.grad`` before and
after a step, turning autograd off (``requires_grad = False``, ``no_grad``, ``detach``), an in-place op on
a leaf, the device check, the profiler's table (its frame, op names and call counts: not its times), and
``autograd.functional``'s ``jacobian``, ``vjp`` and ``hessian``."""
import math

import numpy as np
import torch

a = torch.linspace(0., 2. * math.pi, steps=25, requires_grad=True)
print(a)
b = torch.sin(a)
print(b)
c = 2 * b
print(c)
d = c + 1
print(d)
out = d.sum()
print(out)

print("d:")
print(d.grad_fn)
print(d.grad_fn.next_functions)
print(d.grad_fn.next_functions[0][0].next_functions)
print(d.grad_fn.next_functions[0][0].next_functions[0][0].next_functions)
print(d.grad_fn.next_functions[0][0].next_functions[0][0].next_functions[0][0].next_functions)
print("c:", c.grad_fn)
print("b:", b.grad_fn)
print("a:", a.grad_fn)
out.backward()
print(a.grad)
print(torch.allclose(a.grad, 2 * torch.cos(a.detach())))

BATCH_SIZE, DIM_IN, HIDDEN_SIZE, DIM_OUT = 16, 100, 20, 10


class TinyModel(torch.nn.Module):
    def __init__(self):
        super(TinyModel, self).__init__()
        self.layer1 = torch.nn.Linear(DIM_IN, HIDDEN_SIZE)
        self.relu = torch.nn.ReLU()
        self.layer2 = torch.nn.Linear(HIDDEN_SIZE, DIM_OUT)

    def forward(self, x):
        x = self.layer1(x)
        x = self.relu(x)
        x = self.layer2(x)
        return x


rng = np.random.default_rng(19)
some_input = torch.tensor(rng.standard_normal((BATCH_SIZE, DIM_IN)), dtype=torch.float32, requires_grad=False)
ideal_output = torch.tensor(rng.standard_normal((BATCH_SIZE, DIM_OUT)), dtype=torch.float32, requires_grad=False)
model = TinyModel()
with torch.no_grad():
    for p in model.parameters():
        p.copy_(torch.from_numpy(rng.uniform(-0.1, 0.1, p.shape).astype(np.float32)))
print(model.layer2.weight[0][0:10])
print(model.layer2.weight.grad)

optimizer = torch.optim.SGD(model.parameters(), lr=0.001)
prediction = model(some_input)
loss = (ideal_output - prediction).pow(2).sum()
print(loss)
loss.backward()
print(model.layer2.weight[0][0:10])
print(model.layer2.weight.grad[0][0:10])
optimizer.step()
print(model.layer2.weight[0][0:10])
print(model.layer2.weight.grad[0][0:10])

for i in range(0, 5):
    prediction = model(some_input)
    loss = (ideal_output - prediction).pow(2).sum()
    loss.backward()
print(model.layer2.weight.grad[0][0:10])
optimizer.zero_grad(set_to_none=False)
print(model.layer2.weight.grad[0][0:10])

a = torch.ones(2, 3, requires_grad=True)
print(a)
b1 = 2 * a
print(b1)
a.requires_grad = False
b2 = 2 * a
print(b2)

a = torch.ones(2, 3, requires_grad=True) * 2
b = torch.ones(2, 3, requires_grad=True) * 3
c1 = a + b
print(c1)
with torch.no_grad():
    c2 = a + b
print(c2)
c3 = a * b
print(c3)


def add_tensors1(x, y):
    return x + y


@torch.no_grad()
def add_tensors2(x, y):
    return x + y


a = torch.ones(2, 3, requires_grad=True) * 2
b = torch.ones(2, 3, requires_grad=True) * 3
c1 = add_tensors1(a, b)
print(c1)
c2 = add_tensors2(a, b)
print(c2)

x = torch.tensor(rng.random(5), dtype=torch.float32, requires_grad=True)
y = x.detach()
print(x)
print(y)

a = torch.linspace(0., 2. * math.pi, steps=25, requires_grad=True)
try:
    torch.sin_(a)
except RuntimeError as e:
    print("RuntimeError:", e)

device = torch.device("cpu")
run_on_gpu = False
if torch.cuda.is_available():
    device = torch.device("cuda")
    run_on_gpu = True
x = torch.tensor(rng.standard_normal((2, 3)), dtype=torch.float32, requires_grad=True, device=device)
y = torch.tensor(rng.random((2, 3)), dtype=torch.float32, requires_grad=True, device=device)
z = torch.ones(2, 3, requires_grad=True, device=device)
print(device, run_on_gpu, x.device)
for _ in range(10):
    z = (z / x) * y
print(z.grad_fn, z.grad_fn.next_functions)

# The tutorial's profiler: the times differ from run to run, so print the table's frame, and per op its
# name and number of calls (in the table's order of names), and whether self time <= total time.
with torch.autograd.profiler.profile(use_cuda=run_on_gpu) as prf:
    for _ in range(1000):
        z = (z / x) * y
table = prf.key_averages().table(sort_by='self_cpu_time_total').splitlines()
print("\n".join(table[:3]))
print(sorted((row.split()[0], int(row.split()[-1])) for row in table[3:-2]), table[-2] == table[0])
print(table[-1].split(": ")[0])
for evt in sorted(prf.key_averages(), key=lambda e: e.key):
    print(evt.key, evt.count, 0 <= evt.self_cpu_time_total <= evt.cpu_time_total)
print(len(prf.key_averages().table(sort_by='cpu_time_total', row_limit=1).splitlines()))

x = torch.tensor([0.3, -1.2, 0.8], requires_grad=True)
y = x * 2
while y.data.norm() < 1000:
    y = y * 2
print(y)
v = torch.tensor([0.1, 1.0, 0.0001], dtype=torch.float)
y.backward(v)
print(x.grad)


def exp_adder(x, y):
    return 2 * x.exp() + 3 * y


inputs = (torch.tensor([0.4]), torch.tensor([0.7]))
print(inputs)
print(torch.autograd.functional.jacobian(exp_adder, inputs))
inputs = (torch.tensor(rng.random(3), dtype=torch.float32), torch.tensor(rng.random(3), dtype=torch.float32))
print(inputs)
print(torch.autograd.functional.jacobian(exp_adder, inputs))


def do_some_doubling(x):
    y = x * 2
    while y.data.norm() < 1000:
        y = y * 2
    return y


inputs = torch.tensor(rng.standard_normal(3), dtype=torch.float32)
my_gradients = torch.tensor([0.1, 1.0, 0.0001])
print(torch.autograd.functional.vjp(do_some_doubling, inputs, v=my_gradients))


def pow_adder_reducer(x, y):
    return (2 * x.pow(2) + 3 * y.pow(2)).sum()


inputs = (torch.tensor([0.5, 1.5]), torch.tensor([2.0, -1.0]))
print(torch.autograd.functional.hessian(pow_adder_reducer, inputs))
