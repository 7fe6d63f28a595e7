"""Faithful gaps closed in the fifteenth session.  Each program below is run with minigrad and, when torch is
importable, with torch too; the expected lines were printed by torch 2.13."""
from math import inf

import pytest

import minigrad
from recorded_programs import checks_against_torch


def _name(node):
    """A node's ``name()``, PyTorch's C++ namespace written as minigrad's."""
    return None if node is None else node.name().replace("torch::", "minigrad::")


def _edges(node):
    return [(_name(nxt), nr) for nxt, nr in node.next_functions]


def not_implemented_node_edges(T):
    """A formula PyTorch has no derivative for records ``NotImplemented``, a C++ node (``torch::autograd::``), with
    an edge to each of its inputs that requires grad: under ``create_graph=True`` the incoming gradient is one
    (seed 1012869)."""
    F = T.nn.functional
    seen = []
    x = T.tensor([[-1.51, 0.3, 0.2], [0.5, -0.25, 1.0]], requires_grad=True)
    target = T.tensor([1, 0])
    for reduction in ("mean", "sum", "none"):
        loss = F.multi_margin_loss(x, target, reduction=reduction)
        g, = T.autograd.grad((loss ** 3).sum(), [x], create_graph=True)  # (the incoming gradient requires grad)
        seen.append([_name(g.grad_fn), _edges(g.grad_fn), [round(v, 6) for v in g.flatten().tolist()]])
        g, = T.autograd.grad(loss.sum(), [x], create_graph=True)  # (it does not)
        seen.append([_name(g.grad_fn), _edges(g.grad_fn)])
    seen.append(_name((x // 2).grad_fn))
    try:
        g.sum().backward()
    except RuntimeError as e:
        seen.append(str(e))
    return seen


def binary_cross_entropy_names_the_first_bad_element(T):
    """binary_cross_entropy checks element by element, the input before the target, in the order PyTorch's
    TensorIterator walks the loss (laid out like the input): the first element out of [0, 1] is the one named
    (seed 1017165)."""
    F = T.nn.functional
    nan = float("nan")
    seen = []

    def check(x, t):
        try:
            F.binary_cross_entropy(x, t)
            seen.append("ok")
        except RuntimeError as e:
            seen.append(str(e))

    check(T.tensor([2., 0.5]), T.tensor([0.5, 2.]))
    check(T.tensor([0.5, 2.]), T.tensor([2., 0.5]))
    check(T.tensor([0.5, 2.]), T.tensor([0.5, 2.]))
    check(T.tensor([0.5, nan]), T.tensor([nan, 0.5]))
    x, t = T.tensor([[0.5, 0.5], [2., 0.5]]), T.tensor([[0.5, 2.], [0.5, 0.5]])
    check(x, t)
    check(x.t(), t.t())  # (both transposed: walked in memory order, the target's bad element first)
    check(T.tensor([[0.5], [2.]]).expand(2, 2), t)  # (an expanded input: the loss is row-major)
    check(T.tensor([[0.5, 0.25]]), T.tensor([[0.5, 1.]]))
    return seen


def updates_in_place(T):
    """``add_``, ``sub_``, ``mul_``, ``div_`` by a tensor: the plain update (same shape and float dtype, nothing
    recorded) writes straight through; everything else still meets PyTorch's checks, in its order."""
    seen = []

    def attempt(fn):
        try:
            seen.append(fn())
        except RuntimeError as e:
            seen.append(str(e)[:90])

    x, y = T.tensor([1., 2., 3.]), T.tensor([0.5, 0.5, 0.5])
    attempt(lambda: [x.add_(y).tolist(), x._version])
    attempt(lambda: [x.add_(y, alpha=2).tolist(), x._version])
    attempt(lambda: [x.sub_(y, alpha=-1.5).tolist(), x._version])
    attempt(lambda: [x.mul_(y).tolist(), x._version])
    attempt(lambda: [x.div_(T.tensor([0., 1., -0.])).tolist(), x._version])
    z = T.arange(6.)
    attempt(lambda: z[1:].add_(z[:-1]))  # (partly the same memory)
    attempt(lambda: z.add_(z).tolist())  # (wholly the same: fine)
    w = T.ones(3, requires_grad=True)
    attempt(lambda: w.add_(y))
    with T.no_grad():
        attempt(lambda: [w.add_(y).tolist(), w._version, w.requires_grad])
        attempt(lambda: [w[1:].mul_(T.tensor([2., 2.])).tolist(), w.tolist(), w._version])
    with T.inference_mode():
        made_in_inference = T.ones(3)
    attempt(lambda: made_in_inference.add_(y))
    seen.append(made_in_inference.tolist())  # (written before the error, as in PyTorch)
    attempt(lambda: x.add_(y, alpha=True))
    attempt(lambda: T.tensor([1., 2.]).add_(T.tensor([1., 1.], dtype=T.float64)).tolist())
    attempt(lambda: T.ones(2, 3).add_(T.ones(3)).tolist())
    attempt(lambda: T.ones(3).add_(T.ones(2, 3)))
    attempt(lambda: T.ones(3).expand(2, 3).add_(T.ones(2, 3)))
    p = T.ones(2, 2, requires_grad=True)
    p.grad = T.ones(2, 2)
    for _ in range(2):
        p.data += -0.1 * p.grad  # (makemore's update)
    seen.append([p.tolist(), p._version])
    return seen


def convolution_of_an_empty_input(T):
    """An input without numbers is fine with 0 samples or 0 channels (then the output has no channels either),
    else PyTorch's ``select_conv_backend`` refuses it, after the shape checks, naming the shape it runs on (a 1-d
    input as its 2-d view) (seed 1031484)."""
    F = T.nn.functional
    seen = []

    def attempt(fn):
        try:
            seen.append(list(fn().shape))
        except RuntimeError as e:
            seen.append(str(e))

    for shape in [(1, 1, 0), (2, 1, 0), (0, 1, 0), (1, 0, 0), (1, 1, 0, 3)]:
        weight = T.ones(2, shape[1], *[1] * (len(shape) - 2))
        attempt(lambda: (F.conv1d if len(shape) == 3 else F.conv2d)(T.zeros(shape), weight, None, 1, 1))
    attempt(lambda: F.conv1d(T.zeros(1, 1, 0), T.ones(2, 1, 1)))  # (the padded size is checked first)
    attempt(lambda: F.conv1d(T.zeros(1, 2, 0), T.ones(2, 1, 1), None, 1, 1, 1, 2))
    attempt(lambda: F.conv1d(T.zeros(1, 0), T.ones(2, 1, 1), None, 1, 1))  # (one sample without a batch dim)
    x, w, b = T.zeros(2, 0, 5, requires_grad=True), T.ones(4, 0, 3, requires_grad=True), T.ones(4, requires_grad=True)
    y = F.conv1d(x, w, b, stride=2)  # (no channels in: none out, and zeros for every gradient)
    seen.append([list(y.shape), list(y.stride()), y.grad_fn.name()])
    seen.append([[list(g.shape), g.tolist()] for g in T.autograd.grad(y.sum(), [x, w, b])])
    return seen


def as_strided_in_place(T):
    """``x.as_strided_`` (``AsStridedBackward1``), and the global average pool of a channels-last image, which PyTorch
    lays out channels-last again with it (seed 1031665)."""
    F = T.nn.functional
    seen = []

    def attempt(fn):
        try:
            seen.append(fn())
        except (RuntimeError, TypeError) as e:
            seen.append(f"{type(e).__name__}: {e}")

    w = T.arange(6.).reshape(2, 3).requires_grad_()
    v = w * 1
    attempt(lambda: [v.as_strided_((3, 2), (1, 3)).tolist(), v.stride(), v._version, v.grad_fn.name(),
                     [v.grad_fn._saved_size, v.grad_fn._saved_stride, v.grad_fn._saved_storage_offset]])
    attempt(lambda: T.autograd.grad((v * T.tensor([[1., 2.], [3., 4.], [5., 6.]])).sum(), [w])[0].tolist())
    for bad in [((2,), (1,), 1.5), ([2.0], (1,)), (2, (1,)), ((7,), (1,))]:
        attempt(lambda: T.ones(6).as_strided_(*bad))
    attempt(lambda: T.ones(4, requires_grad=True).as_strided_((2,), (1,)))
    image = T.arange(24.).reshape(1, 2, 3, 4).permute(0, 2, 3, 1).contiguous().permute(0, 3, 1, 2).requires_grad_()
    for x in (image, image.detach().contiguous().requires_grad_()):
        y = F.adaptive_avg_pool2d(x, 1)
        seen.append([y.flatten().tolist(), y.stride(), y._version, y.grad_fn.name(),
                     [_name(nxt) for nxt, _ in y.grad_fn.next_functions]])
        y.sum().backward()
        seen.append([x.grad.stride(), x.grad.flatten().tolist()[:4]])
    return seen


def a_stale_view_is_renewed_before_the_op_runs(T):
    """An op on a view whose base changed in place: PyTorch collects the op's edges (renewing the view's node, or
    refusing it) before its kernel runs, so the refusal comes before the kernel's own warning or error
    (seed 1037969)."""
    import warnings
    seen = []
    x = T.tensor([[1.], [3.]], requires_grad=True)
    for op in (lambda v: v.std(), lambda v: v.mm(T.ones(3, 3)), lambda v: v[0].std()):  # (one number: a warning)
        y = x * 1
        first, _ = y.split(1)
        y.mul_(2)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                seen.append(op(first).tolist())
            except RuntimeError as e:
                seen.append(str(e)[:80])
        seen.append([str(w.message)[:40] for w in caught])
    z = x * 1
    view = z[:, 0]
    z.mul_(2)  # (a view that can be renewed: it is, and the op runs)
    seen.append([view.std().item(), view.grad_fn.name()])
    y = x * 1
    first, _ = y.split(1)
    y.mul_(2)
    with T.no_grad():  # (nothing recorded: no edges, no refusal)
        seen.append(first.sum().item())
    return seen


NOT_IMPLEMENTED, ACCUMULATE = "minigrad::autograd::NotImplemented", "minigrad::autograd::AccumulateGrad"
EXPECTED = {  # printed by torch 2.13
    a_stale_view_is_renewed_before_the_op_runs: [
        'Output 0 of Split is a view and its base or another view of its base has been mo',
        [],
        'Output 0 of Split is a view and its base or another view of its base has been mo',
        [],
        'Output 0 of Split is a view and its base or another view of its base has been mo',
        [],
        [2.8284270763397217, 'AsStridedBackward0'],
        2.0,
    ],
    as_strided_in_place: [
        [[[0.0, 3.0], [1.0, 4.0], [2.0, 5.0]], (1, 3), 1, 'AsStridedBackward1', [(3, 2), (1, 3), None]],
        [[1.0, 3.0, 5.0], [2.0, 4.0, 6.0]],
        "TypeError: as_strided_(): argument 'storage_offset' (position 3) must be int, not float",
        "TypeError: as_strided_(): argument 'size' (position 1) must be tuple of ints, but found "
        'element of type float at pos 0',
        "TypeError: as_strided_(): argument 'size' (position 1) must be tuple of ints, not int",
        'RuntimeError: setStorage: sizes [7], strides [1], storage offset 0, and itemsize 4 '
        'requiring a storage size of 28 are out of bounds for storage of size 24',
        'RuntimeError: a leaf Variable that requires grad is being used in an in-place operation.',
        [[5.5, 17.5], (2, 1, 2, 2), 1, 'AsStridedBackward1', ['MeanBackward1']],
        [(24, 1, 8, 2), [0.0833333358168602, 0.0833333358168602, 0.0833333358168602, 0.0833333358168602]],
        [[5.5, 17.5], (2, 1, 1, 1), 0, 'MeanBackward1', ['minigrad::autograd::AccumulateGrad']],
        [(24, 12, 4, 1), [0.0833333358168602, 0.0833333358168602, 0.0833333358168602, 0.0833333358168602]],
    ],
    convolution_of_an_empty_input: [
        'Only zero batch or zero channel inputs are supported, but got input shape: [1, 1, 1, 0]',
        'Only zero batch or zero channel inputs are supported, but got input shape: [2, 1, 1, 0]',
        [0, 2, 2],
        [1, 0, 2],
        'Only zero batch or zero channel inputs are supported, but got input shape: [1, 1, 0, 3]',
        "Calculated padded input size per channel: (0). Kernel size: (1). Kernel size can't be "
        'greater than actual input size',
        'Only zero batch or zero channel inputs are supported, but got input shape: [1, 2, 1, 0]',
        'Only zero batch or zero channel inputs are supported, but got input shape: [1, 1, 1, 0]',
        [[2, 0, 2], [2, 2, 1], 'ConvolutionBackward0'],
        [[[2, 0, 5], [[], []]], [[4, 0, 3], [[], [], [], []]], [[4], [0.0, 0.0, 0.0, 0.0]]],
    ],
    updates_in_place: [
        [[1.5, 2.5, 3.5], 1],
        [[2.5, 3.5, 4.5], 2],
        [[3.25, 4.25, 5.25], 3],
        [[1.625, 2.125, 2.625], 4],
        [[inf, 2.125, -inf], 5],
        'unsupported operation: some elements of the input tensor and the written-to tensor refer t',
        [0.0, 2.0, 4.0, 6.0, 8.0, 10.0],
        'a leaf Variable that requires grad is being used in an in-place operation.',
        [[1.5, 1.5, 1.5], 1, True],
        [[3.0, 3.0], [1.5, 3.0, 3.0], 2],
        'Inplace update to inference tensor outside InferenceMode is not allowed.You can make a clo',
        [1.5, 1.5, 1.5],
        'Boolean alpha only supported for Boolean results.',
        [2.0, 3.0],
        [[2.0, 2.0, 2.0], [2.0, 2.0, 2.0]],
        "output with shape [3] doesn't match the broadcast shape [2, 3]",
        'unsupported operation: more than one element of the written-to tensor refers to a single m',
        [[[0.7999999523162842, 0.7999999523162842], [0.7999999523162842, 0.7999999523162842]], 0],
    ],
    not_implemented_node_edges: [
        [NOT_IMPLEMENTED, [('MulBackward0', 0), (ACCUMULATE, 0)],
         [0.0, -0.097535, 0.097535, -0.195069, 0.097535, 0.097535]],
        [NOT_IMPLEMENTED, [(ACCUMULATE, 0)]],
        [NOT_IMPLEMENTED, [('MulBackward0', 0), (ACCUMULATE, 0)],
         [0.0, -0.780278, 0.780278, -1.560556, 0.780278, 0.780278]],
        [NOT_IMPLEMENTED, [(ACCUMULATE, 0)]],
        [NOT_IMPLEMENTED, [('MulBackward0', 0), (ACCUMULATE, 0)],
         [0.0, -0.09, 0.09, -0.680556, 0.340278, 0.340278]],
        [NOT_IMPLEMENTED, [(ACCUMULATE, 0)]],
        NOT_IMPLEMENTED,
        'derivative for aten::multi_margin_loss_backward is not implemented',
    ],
    binary_cross_entropy_names_the_first_bad_element: [
        'all elements of input should be between 0 and 1',
        'all elements of target should be between 0 and 1',
        'all elements of input should be between 0 and 1',
        'all elements of target should be between 0 and 1',
        'all elements of target should be between 0 and 1',
        'all elements of target should be between 0 and 1',
        'all elements of target should be between 0 and 1',
        'ok',
    ],
}


test_minigrad_prints_what_torch_printed, test_torch_still_prints_it = checks_against_torch(EXPECTED)


def test_the_layers_minigrad_leaves_out_say_so_at_the_top_level_too():
    """``torch.conv_transpose2d`` and the other functions of left-out layers that PyTorch has at its top level."""
    from minigrad.nn._absent import FUNCTIONS, TOP_LEVEL
    assert set(TOP_LEVEL) <= {name for names in FUNCTIONS.values() for name in names}
    for name in TOP_LEVEL:
        assert not hasattr(minigrad, name)
    with pytest.raises(AttributeError, match=r"^minigrad has no conv_transpose2d: minigrad leaves out some convolution "
                                             r"layers, this one among them; PyTorch has torch.conv_transpose2d$"):
        minigrad.conv_transpose2d
    with pytest.raises(AttributeError, match=r"^module 'minigrad' has no attribute 'interpolate'$"):
        minigrad.interpolate  # (F.interpolate only: torch has no torch.interpolate)


def test_pytorch_has_each_of_them_at_its_top_level():
    torch = pytest.importorskip("torch")
    from minigrad.nn._absent import FUNCTIONS, TOP_LEVEL
    names = {name for names in FUNCTIONS.values() for name in names}
    assert {name for name in names if hasattr(torch, name)} == set(TOP_LEVEL)
