"""Faithful gaps closed in the fourteenth session.  Each program below is run with minigrad and, when torch is
importable, with torch too; the expected lines were printed by torch 2.13."""
from recorded_programs import checks_against_torch


def _hooked(node, seen):
    """Record what ``node``'s post-hook sees: per gradient it sends, its values or None."""
    node.register_hook(lambda grad_inputs, grad_outputs: seen.append(
        [None if g is None else g.tolist() for g in grad_inputs]))


def filtered_post_hooks(T):
    """grad() and backward(inputs=...): a built-in node computes only the gradients of the edges the task runs;
    its post-hook sees None along the others (PyTorch: task_should_compute_output)."""
    seen = []
    x = T.tensor([1., 2.], requires_grad=True)
    w = T.tensor([3., 4.], requires_grad=True)
    y = x * w
    _hooked(y.grad_fn, seen)
    seen.append(T.autograd.grad(y.sum(), [x])[0].tolist())
    y = x * w
    _hooked(y.grad_fn, seen)
    y.sum().backward(inputs=[w])
    seen.append([x.grad, w.grad.tolist()])
    a = x * 3
    b = a * w
    _hooked(b.grad_fn, seen)
    _hooked(a.grad_fn, seen)
    seen.append(T.autograd.grad(b.sum(), [x])[0].tolist())
    y = x * w
    _hooked(y.grad_fn, seen)
    g, = T.autograd.grad(y.sum(), [w], create_graph=True)
    seen.append([g.tolist(), g.grad_fn.name()])
    return seen


def filtered_in_place(T):
    """The same through an in-place op on a view (CopySlices) and in-place index ops."""
    seen = []
    x = T.tensor([1., 2., 3.], requires_grad=True)
    w = T.tensor([3., 4.], requires_grad=True)
    for target in (x, w):
        b = x * 1
        b[1:].mul_(w)
        _hooked(b.grad_fn, seen)
        seen.append(T.autograd.grad(b.sum(), [target])[0].tolist())
    for reduce in ("sum", "prod", "amax"):
        y = x * 1
        y.scatter_reduce_(0, T.tensor([1]), T.tensor([5.], requires_grad=True), reduce)
        _hooked(y.grad_fn, seen)
        seen.append(T.autograd.grad(y.sum(), [x])[0].tolist())
    y = x * 1
    y.index_add_(0, T.tensor([0, 0]), w * 1)
    _hooked(y.grad_fn, seen)
    seen.append(T.autograd.grad(y.sum(), [w])[0].tolist())
    return seen


def custom_function_computes_every_gradient(T):
    """Your own Function's backward is not narrowed: it sees every needs_input_grad flag, and a wrong gradient for
    an edge the task does not run still fails validate_outputs, as in PyTorch."""
    seen = []
    x = T.tensor([1., 2.], requires_grad=True)
    w = T.tensor([3., 4.], requires_grad=True)

    class F(T.autograd.Function):
        @staticmethod
        def forward(ctx, a, b):
            return a * b

        @staticmethod
        def backward(ctx, g):
            seen.append(list(ctx.needs_input_grad))
            return g, g[:1]

    try:
        T.autograd.grad(F.apply(x, w).sum(), [x])
    except RuntimeError as e:
        seen.append(str(e))
    return seen


def zero_gradient_through_a_loss(T):
    """sgn_'s gradient is a ZeroTensor.  binary_cross_entropy_with_logits's formulas begin with a "trivial case" that
    gives ZeroTensors back (for the input and the target), whatever the reduction and weights; a mean's backward
    divides by a number (div.Scalar, which has no ZeroTensor kernel: PyTorch's fallback divides real zeros), so the
    leaf's .grad is no ZeroTensor there, while ``v / 3`` (div.Tensor) keeps one."""
    F = T.nn.functional
    seen = []
    w = T.tensor([[1., -2., 0.5], [0.25, 3., -1.]], requires_grad=True)
    t = T.tensor([[0.1, 0.9, 0.5], [0.3, 0.2, 0.7]], requires_grad=True)
    for weights in ({}, {"pos_weight": T.tensor([1., 2., 3.])}, {"weight": T.tensor([1., 2., 3.])}):
        for reduction in ("mean", "sum", "none"):
            w.grad = t.grad = None
            loss = F.binary_cross_entropy_with_logits(w, t, reduction=reduction, **weights).sum()
            loss.sgn_()
            loss.backward()
            seen.append([(w.grad + 0).tolist(), w.grad._is_zerotensor(), t.grad._is_zerotensor()])
    v = T.tensor([1., 2., 3.], requires_grad=True)
    for f in (lambda v: v.mean(), lambda v: (v / 3).sum(), lambda v: (v * 3).sum(), lambda v: (v - 3).sum()):
        v.grad = None
        y = f(v)
        y.sgn_()
        y.backward()
        seen.append(v.grad._is_zerotensor())
    return seen


def _tree(node, depth=0):
    """A node and everything below it, one name per line, indented by depth."""
    if node is None:
        return []
    lines = ["  " * depth + node.name().replace("torch::", "minigrad::")]
    for nxt, _ in node.next_functions:
        lines += _tree(nxt, depth + 1)
    return lines


def number_times_transposed_matrix(T):
    """sdpa's math path multiplies key.transpose(-2, -1), a (2, 1) matrix with strides (1, 2), by a number: PyTorch's
    TensorIterator keeps the input's dim order then, so the product has strides (1, 2) too, and the matrix product's
    backward takes its column-major formula (the graph under create_graph=True shows it)."""
    F = T.nn.functional
    q = T.tensor([[1.72, 0.35]], requires_grad=True)
    k = T.tensor([[-0.07, -1.56]], requires_grad=True)
    out = F.scaled_dot_product_attention(q * 1, k * 1, k * 0.5, attn_mask=T.ones(1, 1) * -0.5, scale=-0.25)
    mm = out.grad_fn.next_functions[0][0].next_functions[0][0].next_functions[0][0]
    g, = T.autograd.grad(out.sum(), [k], create_graph=True)
    return [mm.name(), list(mm._saved_mat2.stride())] + _tree(g.grad_fn)


def loss_gradients_are_row_major(T):
    """mse_loss_backward, smooth_l1_loss_backward and huber_loss_backward write into zeros_like(input,
    LEGACY_CONTIGUOUS_MEMORY_FORMAT): the gradient of a transposed input is row-major, at first and second order."""
    F = T.nn.functional
    base = T.tensor([[0.3, -1.2, 0.7], [1.5, -0.4, 0.9]])
    seen = []
    for loss in (lambda x, t: F.mse_loss(x, t), lambda x, t: F.smooth_l1_loss(x, t, beta=2.0),
                 lambda x, t: F.huber_loss(x, t, delta=2.0)):
        x = base.t().clone().requires_grad_()
        t = (base.t() * 0.3).clone().requires_grad_()
        gx, gt = T.autograd.grad(loss(x, t), [x, t], create_graph=True)
        hx, ht = T.autograd.grad((gx * gx).sum() + gt.sum(), [x, t])
        seen.append([list(x.stride()), list(gx.stride()), list(gt.stride()), list(hx.stride()), list(ht.stride()),
                     [round(v, 5) for v in hx.flatten().tolist()]])
    return seen


def methods_called_without_sizes(T):
    """x.reshape(), x.view(), x.repeat() ...: PyTorch's TypeError, not an error about the shape."""
    x = T.ones(2, 3)
    seen = []
    for name in ("reshape", "view", "repeat", "tile", "flip", "new_zeros", "new_ones", "new_empty", "permute",
                 "expand", "sum_to_size"):
        try:
            getattr(x, name)()
        except TypeError as e:
            seen.append(str(e).replace("torch.", "minigrad."))
    return seen + [list(x.flip(dims=(0,)).shape), list(x.new_empty(2).shape), list(T.ones(()).permute(()).shape)]


def index_fill_into_an_expanded_tensor(T):
    """index_fill_ writes into an expanded tensor with PyTorch's deprecation warning, as masked_fill_ and index_put_
    do (the places the picked slices share are written too)."""
    import warnings
    seen = []
    for dim, index, value in ((1, [1, 1], 3.0), (1, [-1], T.tensor(7.0)), (0, [1], 2.0)):
        base = T.tensor([[-0.5], [1.5], [2.5]])
        x = base.expand(2, 3, 1) if dim == 1 else T.zeros(1, 3).expand(2, 3)
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            x.index_fill_(dim, T.tensor(index), value)
        seen.append([x.tolist(), [str(m.message) for m in w]])
    return seen


def where_of_a_promoted_expanded_operand(T):
    """where(cond, float64, float32 expanded): PyTorch's TensorIterator casts the float32 operand with .to() first
    (a new row-major tensor), so the result is row-major."""
    v0 = T.tensor([-1.29, -1.79, -1.84])
    v1 = T.tensor([[[-1.03, 1.17, 1.55]], [[1.53, 0.83, -1.01]]], dtype=T.float64)
    return [list(T.where(v1 > 0, v1, v0.expand(2, 3)).stride()), list(T.where(v1 > 0, v0.expand(2, 3), v1).stride())]


INDEX_FILL_EXPANDED = (
    "Use of index_fill_ on expanded tensors is deprecated. Please clone() the tensor before performing this operation. "
    "This also applies to advanced indexing e.g. tensor[mask] = scalar (Triggered internally at "
    "/__w/pytorch/pytorch/aten/src/ATen/native/TensorAdvancedIndexing.cpp:1913.)")
EXPECTED = {  # printed by torch 2.13
    filtered_post_hooks: [
        [[3.0, 4.0], None], [3.0, 4.0],
        [None, [1.0, 2.0]], [None, [1.0, 2.0]],
        [[3.0, 4.0], None], [[9.0, 12.0], None], [9.0, 12.0],
        [None, [1.0, 2.0]], [[1.0, 2.0], "MulBackward0"],
    ],
    filtered_in_place: [
        [[1.0, 3.0, 4.0], None], [1.0, 3.0, 4.0],
        [None, [2.0, 3.0]], [2.0, 3.0],
        [[1.0, 1.0, 1.0], None], [1.0, 1.0, 1.0],
        [[1.0, 5.0, 1.0], None], [1.0, 5.0, 1.0],
        [[1.0, 0.0, 1.0], None], [1.0, 0.0, 1.0],
        [None, [1.0, 1.0]], [1.0, 1.0],
    ],
    zero_gradient_through_a_loss: [[[[0.0] * 3] * 2, True, True]] * 9 + [False, True, True, False],
    number_times_transposed_matrix: [
        "MmBackward0", [1, 2],
        "AddBackward0",
        "  MulBackward0",
        "    MmBackward0",
        "      TBackward0",
        "        SafeSoftmaxBackward0",
        "          AddBackward0",
        "            MmBackward0",
        "              MulBackward1",
        "                MulBackward0",
        "                  minigrad::autograd::AccumulateGrad",
        "              MulBackward1",
        "                TransposeBackward0",
        "                  MulBackward0",
        "                    minigrad::autograd::AccumulateGrad",
        "  MulBackward0",
        "    TransposeBackward0",
        "      MulBackward1",
        "        TBackward0",
        "          MmBackward0",
        "            TBackward0",
        "              SoftmaxBackwardDataBackward0",
        "                TBackward0",
        "                  MmBackward0",
        "                    MulBackward0",
        "                      minigrad::autograd::AccumulateGrad",
        "                SafeSoftmaxBackward0",
        "                  AddBackward0",
        "                    MmBackward0",
        "                      MulBackward1",
        "                        MulBackward0",
        "                          minigrad::autograd::AccumulateGrad",
        "                      MulBackward1",
        "                        TransposeBackward0",
        "                          MulBackward0",
        "                            minigrad::autograd::AccumulateGrad",
        "            MulBackward1",
        "              MulBackward0",
        "                minigrad::autograd::AccumulateGrad",
    ],
    loss_gradients_are_row_major: [
        [[1, 3], [2, 1], [2, 1], [2, 1], [2, 1], [-0.28667, -0.1, -0.52, -0.39556, -0.22444, -0.19333]],
        [[1, 3], [2, 1], [2, 1], [2, 1], [2, 1], [-0.08042, -0.06875, -0.095, -0.08722, -0.07653, -0.07458]],
        [[1, 3], [2, 1], [2, 1], [2, 1], [2, 1], [-0.155, -0.10833, -0.21333, -0.18222, -0.13944, -0.13167]],
    ],
    methods_called_without_sizes: [
        'reshape() missing 1 required positional arguments: "shape"',
        "view() received an invalid combination of arguments - got (), but expected one of:\n"
        " * (minigrad.dtype dtype)\n * (tuple of ints size)\n",
        'repeat() missing 1 required positional arguments: "repeats"',
        'tile() missing 1 required positional arguments: "dims"',
        'flip() missing 1 required positional arguments: "dims"',
        'new_zeros() missing 1 required positional arguments: "size"',
        'new_ones() missing 1 required positional arguments: "size"',
        'new_empty() missing 1 required positional arguments: "size"',
        'permute() missing 1 required positional arguments: "dims"',
        'expand() missing 1 required positional arguments: "size"',
        'sum_to_size() missing 1 required positional arguments: "size"',
        [2, 3], [2], [],
    ],
    index_fill_into_an_expanded_tensor: [
        [[[[-0.5], [3.0], [2.5]], [[-0.5], [3.0], [2.5]]], [INDEX_FILL_EXPANDED]],
        [[[[-0.5], [1.5], [7.0]], [[-0.5], [1.5], [7.0]]], [INDEX_FILL_EXPANDED]],
        [[[2.0, 2.0, 2.0], [2.0, 2.0, 2.0]], [INDEX_FILL_EXPANDED]],
    ],
    where_of_a_promoted_expanded_operand: [[6, 3, 1], [6, 3, 1]],
    custom_function_computes_every_gradient: [
        [True, True],
        "Function FBackward returned an invalid gradient at index 1 - got [1] but expected shape compatible with [2]",
    ],
}


test_minigrad_prints_what_torch_printed, test_torch_still_prints_it = checks_against_torch(EXPECTED)
