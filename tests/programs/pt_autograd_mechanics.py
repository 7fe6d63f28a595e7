"""After PyTorch's "Autograd mechanics" note (docs/source/notes/autograd.rst): saved tensors and
their ``grad_fn._saved_*`` attributes, ``saved_tensors_hooks`` (pack/unpack, keeping the packed
tensors in a list or a dict, on built-in ops and on ``ctx.save_for_backward``), ``save_on_cpu``,
hooks on a saved tensor (``_raw_saved_self.register_hooks``), backward hooks on tensors and on
nodes (``register_hook``, ``register_prehook``), the order they run in, and ``retain_graph``."""
import numpy as np
import torch


def show(what, f):
    try:
        print(what, f())
    except Exception as e:  # noqa: BLE001
        print(what, type(e).__name__, e)


rng = np.random.default_rng(1)
data = rng.standard_normal(5).astype(np.float32)

# Saved tensors: an input is saved as itself, an output as a new tensor with the same numbers
x = torch.tensor(data, requires_grad=True)
y = x.pow(2)
print(y.grad_fn._saved_self.equal(x), y.grad_fn._saved_self is x, y.grad_fn._saved_exponent)
y = x.exp()
print(y.grad_fn._saved_result.equal(y), y.grad_fn._saved_result is y, y.grad_fn._saved_result.grad_fn is y.grad_fn)

# what each built-in node keeps, under the names of derivatives.yaml
m = torch.tensor(rng.standard_normal((2, 3)).astype(np.float32), requires_grad=True)
k = torch.tensor(rng.standard_normal((3, 4)).astype(np.float32), requires_grad=True)
z = x * 2.0
print(z.grad_fn._saved_other, z.grad_fn._saved_self)
z = x * x
print(z.grad_fn._saved_self is x, z.grad_fn._saved_other is x)
z = x / 4
print(z.grad_fn._saved_other, z.grad_fn._saved_self)
z = x / (x + 1)
print(z.grad_fn._saved_self is x, z.grad_fn._saved_other.grad_fn)
print((x + x).grad_fn._saved_alpha, x.add(x, alpha=3).grad_fn._saved_alpha, (x - x).grad_fn._saved_alpha)
print(x.sin().grad_fn._saved_self is x, x.cos().grad_fn._saved_self is x, x.log().grad_fn._saved_self is x)
for t in (x.tanh(), x.sigmoid(), x.relu(), x.abs().sqrt(), torch.relu(m), x.reciprocal()):
    print(t.grad_fn.name(), t.grad_fn._saved_result.equal(t), t.grad_fn._saved_result is t)
print(x.abs().grad_fn._saved_self is x, (x ** 0.5).grad_fn._saved_exponent, (2 ** x).grad_fn._saved_self)
p = x ** x
print(p.grad_fn.name(), p.grad_fn._saved_self is x, p.grad_fn._saved_exponent is x, p.grad_fn._saved_result.equal(p))
mm = m.mm(k)
print(mm.grad_fn._saved_self is m, mm.grad_fn._saved_mat2 is k, mm.grad_fn._saved_self_sym_sizes,
      mm.grad_fn._saved_mat2_sym_sizes)
mm = m.mm(k.detach())
print(mm.grad_fn._saved_self, mm.grad_fn._saved_mat2.equal(k))
mat = m @ k
print(mat.grad_fn.name(), mat.grad_fn._saved_self is m)
lin = torch.nn.functional.linear(m, k.t(), torch.zeros(4, requires_grad=True))
print(lin.grad_fn.name(), lin.grad_fn._saved_mat1 is m, lin.grad_fn._saved_mat2.equal(k))
print(m.sum().grad_fn._saved_self_sym_sizes, m.sum(1).grad_fn._saved_dim, m.sum(1, keepdim=True).grad_fn._saved_keepdim)
print(m.mean().grad_fn._saved_self_sym_sizes, m.mean().grad_fn._saved_self_sym_numel, m.mean(0).grad_fn._saved_dim)
print(m.view(6).grad_fn._saved_self_sym_sizes, m.reshape(3, 2).grad_fn._saved_self_sym_sizes)
print(m.max().grad_fn._saved_result, m.max(1)[0].grad_fn._saved_dim, m.max(1)[0].grad_fn._saved_keepdim)
print(m.softmax(1).grad_fn._saved_dim, m.log_softmax(-1).grad_fn._saved_dim, m.softmax(1).grad_fn._saved_result.shape)
print(x.dot(x).grad_fn._saved_tensor is x, m.mv(k[:, 0]).grad_fn._saved_vec.shape)
print(sorted(a for a in dir(x.exp().grad_fn) if a.startswith("_saved")), [a for a in dir((-x).grad_fn)
                                                                         if a.startswith("_saved")])

# after backward the saved tensors are gone; the numbers (sizes, dims, exponents) stay
y = x.pow(3)
y.sum().backward()
show("_saved_self after backward", lambda: y.grad_fn._saved_self)
print(y.grad_fn._saved_exponent, x.grad)
s = m.sum(0)
s.sum().backward()
print(s.grad_fn._saved_self_sym_sizes)
y = x.exp()
y.sum().backward(retain_graph=True)
print(y.grad_fn._saved_result.equal(y))
y.sum().backward()
show("_saved_result after the second backward", lambda: y.grad_fn._saved_result)
show("backward a third time", lambda: y.sum().backward())


# Hooks for saved tensors
def pack_hook(t):
    print("Packing", t)
    return t


def unpack_hook(t):
    print("Unpacking", t)
    return t


a = torch.ones(5, requires_grad=True)
b = torch.ones(5, requires_grad=True) * 2
with torch.autograd.graph.saved_tensors_hooks(pack_hook, unpack_hook):
    y = a * b
y.sum().backward()
print(a.grad)

storage = []  # keep the packed tensors in a list; the graph keeps an index only


def pack_to_list(t):
    storage.append(t.detach().clone())
    return len(storage) - 1


def unpack_from_list(i):
    return storage[i]


x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
with torch.autograd.graph.saved_tensors_hooks(pack_to_list, unpack_from_list):
    y = x.pow(2).exp()
print(len(storage), [type(t).__name__ for t in storage], storage[0].requires_grad)
print(y.grad_fn._saved_result.equal(y), y.grad_fn._saved_result is y, y.grad_fn._saved_result.grad_fn is y.grad_fn)
print(y.grad_fn.next_functions[0][0]._saved_self is x, y.grad_fn.next_functions[0][0]._saved_self.equal(x))
y.sum().backward()
print(x.grad)

store = {}  # or a dict keyed by a name, as the note's SelfDeletingTempFile example keeps a file


def pack_to_dict(t):
    name = f"t{len(store)}"
    store[name] = t.detach() * 10  # the unpacked tensor is what backward computes with
    return name


def unpack_from_dict(name):
    return store[name] / 10


x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
with torch.autograd.graph.saved_tensors_hooks(pack_to_dict, unpack_from_dict):
    y = (x * x).sum()
(g,) = torch.autograd.grad(y, x, create_graph=True)
print(sorted(store), g, g.grad_fn)
g.sum().backward()
print(x.grad)


class Square(torch.autograd.Function):  # hooks see what ctx.save_for_backward keeps too
    @staticmethod
    def forward(ctx, t):
        ctx.save_for_backward(t)
        return t * t

    @staticmethod
    def backward(ctx, grad):
        t, = ctx.saved_tensors
        return 2 * t * grad


x = torch.tensor([1.0, -2.0], requires_grad=True)
with torch.autograd.graph.saved_tensors_hooks(lambda t: ("packed", t * 1), lambda p: print("unpack", p[0]) or p[1]):
    y = Square.apply(x)
    print("in the block", x.pow(2).grad_fn._saved_self is x)
print(y.grad_fn.saved_tensors[0] is x, y.grad_fn.saved_tensors[0].equal(x))
y.sum().backward()
print(x.grad)

with torch.autograd.graph.saved_tensors_hooks(lambda t: 3, lambda p: p):
    y = x.exp()
show("unpack returns a number", lambda: y.grad_fn._saved_result)
show("and backward", lambda: y.sum().backward())
with torch.autograd.graph.saved_tensors_hooks(lambda t: print("outer") or t, lambda p: p):
    with torch.autograd.graph.saved_tensors_hooks(lambda t: print("inner") or t, lambda p: p):
        y = x.sin()
    y = x.cos()
with torch.autograd.graph.saved_tensors_hooks(pack_hook, unpack_hook):
    y = x * 3.0  # a Python number is not packed
    print("saved other", y.grad_fn._saved_other)
    y = torch.ones(2).exp()  # nothing requires grad: nothing is saved
print("nothing packed")
with torch.autograd.graph.save_on_cpu():
    y = x.pow(2)
print(y.grad_fn._saved_self is x, y.grad_fn._saved_self.equal(x))
y.sum().backward()
print(x.grad)
with torch.autograd.graph.disable_saved_tensors_hooks("saved tensors default hooks are disabled"):
    show("hooks while disabled", lambda: torch.autograd.graph.save_on_cpu().__enter__())
with torch.autograd.graph.saved_tensors_hooks(pack_hook, unpack_hook):
    show("disable while hooks", lambda: torch.autograd.graph.disable_saved_tensors_hooks("not now").__enter__())

# hooks for one saved tensor
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x.pow(2)
y.grad_fn._raw_saved_self.register_hooks(lambda t: t * 10, lambda t: t)
print(y.grad_fn._saved_self)
y.sum().backward()
print(x.grad)
y = x.pow(2)
y.grad_fn._raw_saved_self.register_hooks(lambda t: t, lambda t: t)
show("register twice", lambda: y.grad_fn._raw_saved_self.register_hooks(lambda t: t, lambda t: t))
show("register on None", lambda: (x * 2.0).grad_fn._raw_saved_self.register_hooks(lambda t: t, lambda t: t))
y = x.exp()
y.grad_fn._raw_saved_result.register_hooks(lambda t: print("pack result", t.requires_grad, t.grad_fn) or t, lambda t: t)
print(y.grad_fn._saved_result.grad_fn is y.grad_fn)

# Backward hooks: on a tensor, on its node before (prehook) and after (hook) it runs
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x * 3
y.retain_grad()
z = y.exp().sum()
y.register_hook(lambda g: print("tensor hook", g))
y.grad_fn.register_prehook(lambda gout: print("node prehook", gout))
y.grad_fn.register_hook(lambda gin, gout: print("node hook", gin, gout))
y.register_hook(lambda g: print("second tensor hook (doubles)", g) or g * 2)
x.register_hook(lambda g: print("leaf hook", g))
z.backward(retain_graph=True)
print(x.grad, y.grad)
z.backward()
print(x.grad, y.grad)
show("third time", lambda: z.backward())

x = torch.tensor(2.0, requires_grad=True)
y = x * x
y.grad_fn.register_prehook(lambda gout: (gout[0] * 10,))
y.grad_fn.register_hook(lambda gin, gout: (gin[0] + 1, gin[1]))
y.backward()
print(x.grad)
