"""``F.linear``, the function behind ``nn.Linear`` (PyTorch: ``at::linear``), in a file of its own so that the other
functional files (attention's) can use it without importing ``functional.py``, which imports them."""
from .. import ops


def linear(input, weight, bias=None):
    """``input @ weight.T + bias``; for a 2-D input with a bias this is one ``AddmmBackward0`` node."""
    if input.dim() == 0 or weight.dim() == 0:
        raise RuntimeError(f"both arguments to linear need to be at least 1D, but they are {input.dim()}D and "
                           f"{weight.dim()}D")
    if bias is None:
        return input.matmul(weight.t())
    if input.dim() == 2:
        return ops.Addmm.apply(bias, input, weight.t())
    if not input.is_contiguous():  # (PyTorch: matmul, then the bias added in place, AddBackward0)
        return input.matmul(weight.t()).add_(bias)
    # other shapes: fold the leading dims into one batch dim, addmm, unfold (as PyTorch does)
    out = ops.Addmm.apply(bias, input.reshape(-1, input.shape[-1]), weight.t())
    return out.view(*input.shape[:-1], weight.shape[0])
