"""Devices, ``inference_mode`` and module hooks: the API the classic PyTorch programs call first.

The expected strings, flags and numbers were recorded from PyTorch 2.13 (CPU build); where torch
is importable the tests also run the same code on it.
"""
import warnings

import numpy as np
import pytest

import minigrad
from minigrad import nn

CUDA_MSG = "Torch not compiled with CUDA enabled"


def _libs():
    """minigrad, and torch when it is installed: the tests below run on both."""
    libs = [minigrad]
    try:
        import torch
        libs.append(torch)
    except ImportError:
        pass
    return libs


LIBS = _libs()
both = pytest.mark.parametrize("T", LIBS, ids=[T.__name__ for T in LIBS])


# ---------------------------------------------------------------- devices
@both
def test_device_objects_print_and_compare_as_in_pytorch(T):
    d = T.device("cpu")
    assert (repr(d), str(d), d.type, d.index) == ("device(type='cpu')", "cpu", "cpu", None)
    assert repr(T.device("cuda:1")) == "device(type='cuda', index=1)"
    assert repr(T.device("cpu", 0)) == "device(type='cpu', index=0)"
    assert d == T.device("cpu") and hash(d) == hash(T.device("cpu"))
    assert d != "cpu"  # PyTorch compares devices with devices only
    assert T.device(d) == d
    with pytest.raises(RuntimeError, match="Expected one of cpu, cuda, ipu, .* device type at start of device "
                                           "string: foo$"):
        T.device("foo")


@both
def test_every_spelling_of_the_cpu_is_accepted(T):
    cpu = T.device("cpu")
    x = T.zeros(2, device="cpu")
    assert x.device == cpu and x.is_cuda is False and str(x.device) == "cpu"
    assert x.to("cpu") is x and x.cpu() is x and x.to(cpu) is x and x.to(device="cpu") is x
    y = x.to("cpu", T.float64)
    assert y.dtype == T.float64 and y.grad_fn is None
    assert x.to(T.zeros(1, dtype=T.float64)).dtype == T.float64
    for make in (lambda: T.ones(2, 3, device=cpu), lambda: T.tensor([1.0], device="cpu"),
                 lambda: T.arange(3, device="cpu"), lambda: T.linspace(0, 1, 3, device="cpu"),
                 lambda: T.full((2,), 1.0, device="cpu"), lambda: T.eye(2, device="cpu"),
                 lambda: T.randn(2, device="cpu"), lambda: T.rand(2, device=cpu),
                 lambda: T.randint(0, 3, (2,), device="cpu"), lambda: T.zeros_like(x, device="cpu"),
                 lambda: T.empty(2, device="cpu")):
        assert make().device == cpu
    m = T.nn.Linear(2, 3, device="cpu")
    assert m.to("cpu") is m and m.cpu() is m and m.weight.device == cpu
    T.set_default_device("cpu")
    try:
        assert T.get_default_device() == cpu
    finally:
        T.set_default_device(None)  # (torch's stays in force otherwise: later tests would see its device mode)


@both
def test_cuda_is_absent_and_asking_for_it_raises(T):
    assert T.cuda.is_available() is False and T.cuda.device_count() == 0
    assert T.accelerator.is_available() is False and T.accelerator.current_accelerator() is None
    assert T.backends.mps.is_available() is False
    T.cuda.manual_seed(0)  # accepted, as in PyTorch without a GPU
    T.cuda.manual_seed_all(0)
    assert T.device("cuda").type == "cuda"  # naming the device is fine; putting a tensor there is not
    x = T.zeros(2)
    for use in (lambda: T.zeros(2, device="cuda"), lambda: x.to("cuda"), lambda: x.cuda(), lambda: x.to("cuda:0"),
                lambda: T.nn.Linear(2, 2).cuda(), lambda: T.nn.Linear(2, 2).to("cuda"),
                lambda: T.tensor([1.0], device=T.device("cuda")), lambda: T.cuda.current_device()):
        with pytest.raises(AssertionError, match=CUDA_MSG):
            use()


def test_minigrad_says_why_a_gpu_device_is_refused():
    with pytest.raises(AssertionError, match=r"\(minigrad runs on the CPU only\)"):
        minigrad.zeros(2, device="cuda")
    with pytest.raises(NotImplementedError, match="minigrad runs on the CPU only: there is no 'mps' device"):
        minigrad.zeros(2, device="mps")


@both
def test_device_selection_idiom_of_the_tutorials(T):
    device = T.accelerator.current_accelerator().type if T.accelerator.is_available() else "cpu"
    device2 = T.device("cuda" if T.cuda.is_available() else "cpu")
    x = T.ones(2, 2, device=device, requires_grad=True)
    (x.to(device2) * 2).sum().backward()
    assert x.grad.tolist() == [[2.0, 2.0], [2.0, 2.0]]


# ---------------------------------------------------------------- requires_grad_
@both
def test_requires_grad_underscore_on_tensors_and_modules(T):
    x = T.zeros(2)
    assert x.requires_grad_() is x and x.requires_grad
    assert x.requires_grad_(False) is x and not x.requires_grad
    y = T.ones(2, requires_grad=True) * 2
    assert y.requires_grad_() is y  # a non-leaf already requires grad
    with pytest.raises(RuntimeError, match="you can only change requires_grad flags of leaf variables."):
        y.requires_grad_(False)
    with pytest.raises(RuntimeError, match="only Tensors of floating point"):
        T.zeros(2, dtype=T.int64).requires_grad_()
    m = T.nn.Sequential(T.nn.Linear(2, 2), T.nn.Linear(2, 1))
    assert m[0].requires_grad_(False) is m[0]  # freeze the first layer, as in fine-tuning
    assert [p.requires_grad for p in m.parameters()] == [False, False, True, True]
    out = m(T.ones(1, 2))
    out.sum().backward()
    assert m[0].weight.grad is None and m[1].weight.grad is not None


# ---------------------------------------------------------------- inference_mode
@both
def test_inference_mode_records_nothing_and_restores_the_mode(T):
    x = T.ones(2, requires_grad=True)
    with T.inference_mode():
        y = x * 2
        assert not T.is_grad_enabled() and T.is_inference_mode_enabled()
    assert not y.requires_grad and y.grad_fn is None
    assert T.is_grad_enabled() and not T.is_inference_mode_enabled()
    with T.inference_mode(False):
        assert T.is_grad_enabled() and not T.is_inference_mode_enabled()
        assert (x * 2).requires_grad
    with T.no_grad():
        with T.inference_mode(False):  # grad mode is "not mode": on again
            assert T.is_grad_enabled()
        assert not T.is_grad_enabled()

    @T.inference_mode()
    def f(t):
        return t * 2

    @T.inference_mode
    def g(t):
        return t * 3

    assert not f(x).requires_grad and not g(x).requires_grad and T.is_grad_enabled()
    assert T.autograd.inference_mode is T.inference_mode



SAVED_MSG = ("Inference tensors cannot be saved for backward. Please do not use Tensors created in inference mode in "
             "computation tracked by autograd. To work around this, you can make a clone to get a normal tensor and "
             "use it in autograd, or use `torch.no_grad()` instead of `torch.inference_mode()`.")
INPLACE_MSG = ("Inplace update to inference tensor outside InferenceMode is not allowed.You can make a clone to get a "
               "normal tensor before doing inplace update.See https://github.com/pytorch/rfcs/pull/17 for more details.")
REQUIRES_GRAD_MSG = "Setting requires_grad=True on inference tensor outside InferenceMode is not allowed."


def _raises(msg, fn):
    with pytest.raises(RuntimeError) as e:
        fn()
    assert str(e.value) == msg


@both
def test_inference_mode_makes_inference_tensors_and_views_follow_their_base(T):
    x = T.ones(2, 3, requires_grad=True)
    n = T.ones(2, 3)
    with T.inference_mode():
        i = T.ones(2, 3)
        j = n * 2
        v = n.view(6)  # a view of a normal tensor stays normal
        k = x * 2
        n.add_(1)  # a normal tensor may change in place inside: its version moves
        i.add_(1)  # and so may an inference tensor
        made_with_grad = T.ones(2, requires_grad=True)
        assert made_with_grad.requires_grad and made_with_grad.is_inference()
    assert (i.is_inference(), j.is_inference(), v.is_inference(), k.is_inference()) == (True, True, False, True)
    assert not k.requires_grad and k.grad_fn is None and n._version == 1 and not n.is_inference()
    assert i.view(6).is_inference() and i.detach().is_inference() and i.data.is_inference() and T.is_inference(i)
    assert not i.clone().is_inference() and not i.exp().is_inference()  # made outside: normal tensors
    with T.no_grad():
        assert not T.ones(2).is_inference()
    with T.inference_mode(False):
        assert not T.ones(1).is_inference()
    assert T.inference_mode()(lambda: T.ones(1))().is_inference()
    _raises("Inference tensors do not track version counter.", lambda: i._version)


@both
def test_an_inference_tensor_cannot_be_saved_for_backward(T):
    x = T.ones(2, 3, requires_grad=True)
    with T.inference_mode():
        i = T.full((2, 3), 2.0)
    _raises(SAVED_MSG, lambda: x * i)  # MulBackward0 saves i for x's gradient
    _raises(SAVED_MSG, lambda: i * x)
    _raises(SAVED_MSG, lambda: x @ i.t())
    _raises(SAVED_MSG, lambda: x ** i)
    _raises(SAVED_MSG, lambda: T.nn.functional.linear(i, T.ones(2, 3, requires_grad=True)))

    class Save(T.autograd.Function):
        @staticmethod
        def forward(ctx, a, b):
            ctx.save_for_backward(a, b)
            return a * b

        @staticmethod
        def backward(ctx, g):
            return g, g

    _raises(SAVED_MSG, lambda: Save.apply(x, i))
    (x + i).sum().backward()  # AddBackward0 saves nothing: fine
    assert x.grad.tolist() == [[1.0] * 3] * 2
    y = i.clone() * x  # the way out that the message gives
    assert type(y.grad_fn).__name__ == "MulBackward0" and not i.clone().is_inference()


@both
def test_outside_inference_mode_an_inference_tensor_is_read_only_and_needs_no_grad(T):
    with T.inference_mode():
        i = T.ones(2, 3)
    _raises(INPLACE_MSG, lambda: i.zero_())  # PyTorch raises after writing: the values did change
    assert i.sum().item() == 0.0
    _raises(INPLACE_MSG, lambda: i.__setitem__(0, 1.0))
    assert i.sum().item() == 3.0
    with T.no_grad():
        _raises(INPLACE_MSG, lambda: i.mul_(2))
    assert i.sum().item() == 6.0
    _raises(REQUIRES_GRAD_MSG, lambda: i.requires_grad_())
    _raises(REQUIRES_GRAD_MSG, lambda: setattr(i, "requires_grad", True))
    _raises(REQUIRES_GRAD_MSG, lambda: T.nn.Parameter(i))
    assert i.requires_grad_(False) is i and not i.requires_grad
    assert T.nn.Parameter(i, requires_grad=False).is_inference()
    with T.inference_mode():
        i.add_(1)  # inside inference mode it is an ordinary tensor again
        assert i.requires_grad_().requires_grad

# ---------------------------------------------------------------- module hooks
@both
def test_forward_hooks_see_and_may_replace_inputs_and_outputs(T):
    m = T.nn.Linear(2, 1)
    with T.no_grad():
        m.weight.fill_(1.0)
        m.bias.fill_(0.0)
    log = []
    h1 = m.register_forward_pre_hook(lambda mod, args: log.append(("pre", mod is m, len(args))))
    h2 = m.register_forward_pre_hook(lambda mod, args: args[0] * 10)  # a single value is wrapped in a tuple
    h3 = m.register_forward_hook(lambda mod, args, out: log.append(("fwd", args[0].tolist(), out.tolist())))
    h4 = m.register_forward_hook(lambda mod, args, out: out + 1)
    h5 = m.register_forward_hook(lambda mod, args, out: log.append(("first",)), prepend=True)
    y = m(T.tensor([[1.0, 2.0]]))
    assert y.tolist() == [[31.0]]
    assert log == [("pre", True, 1), ("first",), ("fwd", [[10.0, 20.0]], [[30.0]])]
    for h in (h1, h2, h3, h4, h5):
        h.remove()
    assert m(T.tensor([[1.0, 2.0]])).tolist() == [[3.0]]


@both
def test_forward_hooks_with_kwargs(T):
    class Scale(T.nn.Module):
        def forward(self, x, factor=1.0):
            return x * factor

    m = Scale()
    m.register_forward_pre_hook(lambda mod, args, kwargs: (args, {"factor": kwargs["factor"] * 2}), with_kwargs=True)
    seen = []
    m.register_forward_hook(lambda mod, args, kwargs, out: seen.append(kwargs["factor"]), with_kwargs=True)
    assert m(T.tensor([1.0]), factor=3.0).tolist() == [6.0]
    assert seen == [6.0]
    m2 = Scale()
    m2.register_forward_pre_hook(lambda mod, args, kwargs: 5, with_kwargs=True)
    with pytest.raises(RuntimeError, match=r"forward pre-hook must return None or a tuple of \(new_args, "
                                           r"new_kwargs\), but got 5."):
        m2(T.tensor([1.0]))


def _linear(T):
    m = T.nn.Linear(3, 2)
    with T.no_grad():
        m.weight.copy_(T.tensor([[1.0, -2.0, 0.5], [0.0, 1.0, 3.0]]))
        m.bias.copy_(T.tensor([0.1, -0.2]))
    return m


@both
def test_full_backward_hook_sees_grad_input_and_grad_output(T):
    m = _linear(T)
    log = []
    m.register_full_backward_hook(lambda mod, gi, go: log.append((mod is m, [g.tolist() for g in gi],
                                                                  [g.tolist() for g in go])))
    x = T.tensor([[1.0, 2.0, 3.0], [0.0, -1.0, 1.0]], requires_grad=True)
    y = m(x)
    assert type(y.grad_fn).__name__ == "BackwardHookFunctionBackward"
    assert type(y.grad_fn.next_functions[0][0]).__name__ == "AddmmBackward0"
    addmm = y.grad_fn.next_functions[0][0]
    assert [type(n).__name__ for n, _ in addmm.next_functions] == \
        ["AccumulateGrad", "BackwardHookFunctionBackward", "TBackward0"]
    (y * T.tensor([[1.0, 2.0], [3.0, 4.0]])).sum().backward()
    assert log == [(True, [[[1.0, 0.0, 6.5], [3.0, -2.0, 13.5]]], [[[1.0, 2.0], [3.0, 4.0]]])]
    assert x.grad.tolist() == [[1.0, 0.0, 6.5], [3.0, -2.0, 13.5]]


@both
def test_full_backward_hook_may_replace_grad_input(T):
    m = _linear(T)
    m.register_full_backward_hook(lambda mod, gi, go: (gi[0] * 0,))
    x = T.ones(1, 3, requires_grad=True)
    m(x).sum().backward()
    assert x.grad.tolist() == [[0.0, 0.0, 0.0]]
    assert m.bias.grad.tolist() == [1.0, 1.0]  # the parameters' gradients are not grad_input
    m2 = _linear(T)
    m2.register_full_backward_hook(lambda mod, gi, go: (gi[0], gi[0]))
    with pytest.raises(RuntimeError, match="Backward hook returned an invalid number of grad_input, got 2, but "
                                           "expected 1"):
        m2(x).sum().backward()


@both
def test_full_backward_hook_when_no_input_requires_grad(T):
    m = _linear(T)
    log = []
    m.register_full_backward_hook(lambda mod, gi, go: log.append((gi, go[0].shape)))
    with pytest.warns(UserWarning, match="Full backward hook is firing when gradients are computed with respect "
                                         "to module outputs since no inputs require gradients."):
        m(T.ones(4, 3)).sum().backward()
    assert log == [((None,), (4, 2))]
    m2 = _linear(T)
    m2.register_full_backward_hook(lambda mod, gi, go: (T.ones(1),))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises(RuntimeError, match="Backward hook for Modules where no input requires gradient should "
                                               "always return None or None for all gradients."):
            m2(T.ones(4, 3)).sum().backward()


@both
def test_full_backward_pre_hook_may_replace_grad_output(T):
    m = _linear(T)
    m.register_full_backward_pre_hook(lambda mod, go: (go[0] * 2,))
    x = T.ones(1, 3, requires_grad=True)
    m(x).sum().backward()
    assert m.bias.grad.tolist() == [2.0, 2.0]
    assert x.grad.tolist() == [[2.0, -2.0, 7.0]]
    m2 = _linear(T)
    m2.register_full_backward_pre_hook(lambda mod, go: (go[0], go[0]))
    with pytest.raises(RuntimeError, match="Backward pre hook returned an invalid number of grad_output, got 2, but "
                                           "expected 1"):
        m2(x).sum().backward()


@both
def test_backward_hooks_in_a_model_run_last_layer_first_and_can_be_removed(T):
    model = T.nn.Sequential(T.nn.Linear(2, 3), T.nn.ReLU(), T.nn.Linear(3, 1))
    order = []
    handles = [layer.register_full_backward_hook(lambda mod, gi, go, i=i: order.append(i))
               for i, layer in enumerate(model)]
    x = T.tensor(np.array([[0.5, -1.0], [2.0, 1.0]], dtype=np.float32), requires_grad=True)
    model(x).sum().backward()
    assert order == [2, 1, 0]
    for h in handles:
        h.remove()
    y = model(x)
    assert type(y.grad_fn).__name__ == "AddmmBackward0"
    with T.no_grad():
        model[0].register_full_backward_hook(lambda *a: None)
        assert model(x).grad_fn is None  # no graph, no hook node


# ---------------------------------------------------------------- the old register_backward_hook
MULTIPLE_NODES = ("Using a non-full backward hook when the forward contains multiple autograd Nodes is deprecated and "
                  "will be removed in future versions. This hook will be missing some grad_input. Please use "
                  "register_full_backward_hook to get the documented behavior.")
BOTH_KINDS = ("Cannot use both regular backward hooks and full backward hooks on a single Module. Please use only "
              "one of them.")


def _warnings_of(fn):
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        fn()
    return [(c.category, str(c.message)) for c in w]


@both
def test_old_backward_hook_sees_the_output_nodes_gradients(T):
    """It hangs on ``y.grad_fn`` (AddmmBackward0): grad_input = (bias, input, weight.t()) gradients, no hook node."""
    m = _linear(T)
    log = []
    m.register_backward_hook(lambda mod, gi, go: log.append((mod is m, [None if g is None else g.tolist() for g in gi],
                                                             [g.tolist() for g in go])))
    x = T.tensor([[1.0, 2.0, 3.0], [0.0, -1.0, 1.0]], requires_grad=True)
    caught = []

    def forward_and_backward():
        y = m(x)
        caught.append(type(y.grad_fn).__name__)
        (y * T.tensor([[1.0, 2.0], [3.0, 4.0]])).sum().backward()

    assert _warnings_of(forward_and_backward) == [(FutureWarning, MULTIPLE_NODES)]  # x is a leaf: not Addmm's input node
    assert caught == ["AddmmBackward0"]
    assert log == [(True, [[4.0, 6.0], [[1.0, 0.0, 6.5], [3.0, -2.0, 13.5]], [[1.0, 2.0], [-1.0, 0.0], [6.0, 10.0]]],
                    [[[1.0, 2.0], [3.0, 4.0]]])]
    assert m._is_full_backward_hook is False


@both
def test_old_backward_hook_may_replace_the_nodes_grad_input(T):
    m = _linear(T)
    m.register_backward_hook(lambda mod, gi, go: (gi[0] * 0, gi[1] * 2, gi[2]))
    x = T.ones(1, 3, requires_grad=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        m(x).sum().backward()
    assert m.bias.grad.tolist() == [0.0, 0.0]  # here the bias's gradient is part of grad_input
    assert x.grad.tolist() == [[2.0, -2.0, 7.0]]


@both
def test_old_backward_hook_on_a_model_sees_only_its_last_node(T):
    model = T.nn.Sequential(T.nn.Linear(3, 2), T.nn.Tanh())
    log = []
    model.register_backward_hook(lambda mod, gi, go: log.append((type(mod).__name__, [g.shape for g in gi])))
    x = T.ones(2, 3, requires_grad=True)
    assert _warnings_of(lambda: model(x).sum().backward()) == [(FutureWarning, MULTIPLE_NODES)]
    assert log == [("Sequential", [(2, 2)])]  # tanh's input, not the model's


@both
def test_old_and_full_backward_hooks_do_not_mix(T):
    m = _linear(T)
    h = m.register_backward_hook(lambda *a: None)
    with pytest.raises(RuntimeError, match=BOTH_KINDS):
        m.register_full_backward_hook(lambda *a: None)
    h.remove()
    with pytest.raises(RuntimeError, match=BOTH_KINDS):  # the module keeps its kind after the hook is removed
        m.register_full_backward_hook(lambda *a: None)
    m2 = _linear(T)
    m2.register_full_backward_hook(lambda *a: None)
    with pytest.raises(RuntimeError, match=BOTH_KINDS):
        m2.register_backward_hook(lambda *a: None)
    with T.no_grad():
        m3 = _linear(T)
        m3.register_backward_hook(lambda *a: None)
        assert _warnings_of(lambda: m3(T.ones(1, 3))) == []  # no grad_fn: nothing to hang the hook on
