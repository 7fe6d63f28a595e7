"""``minigrad.linalg`` (PyTorch: ``torch.linalg``): vector norms, and the cross product.

Tutorials reach for ``torch.linalg.norm(x)`` and ``torch.linalg.vector_norm(x, ord, dim)``; both are
the ``Norm`` op of ``ops/statistics.py`` (``LinalgVectorNormBackward0``), as in PyTorch.  Of the matrix
functions minigrad has ``inv`` (``ops/linalg.py``); ``det``, ``solve``, ``svd``, matrix norms ... are not part of it.
"""
import numbers

from .ops.linalg import _LinAlgError as LinAlgError, inv  # noqa: F401  (torch.linalg.LinAlgError, torch.linalg.inv)
from .ops.statistics import norm as _norm


def vector_norm(x, ord=2, dim=None, keepdim=False, *, dtype=None):  # noqa: A002  (PyTorch's names)
    """``(sum |x|^ord) ^ (1/ord)`` over ``dim`` (every element when ``dim`` is None)."""
    if not isinstance(ord, numbers.Number):
        raise TypeError(f"linalg_vector_norm(): argument 'ord' (position 2) must be Number, not {type(ord).__name__}")
    return _norm(x, ord, dim, keepdim, dtype)


def cross(input, other, *, dim=-1):  # noqa: A002
    """The cross product of 3-vectors along ``dim``, the last by default (``minigrad.cross`` with that dim)."""
    from .ops.linalg import cross as cross_product
    return cross_product(input, other, dim)


def norm(A, ord=None, dim=None, keepdim=False, *, dtype=None):  # noqa: A002, N803  (PyTorch's names)
    """Without ``ord``: the 2-norm of all elements (or along ``dim``), PyTorch's ``vector_norm(A, 2.0)``.
    With ``ord`` on one dim (or a 1-D tensor): that vector norm.  Matrix norms are not in minigrad."""
    matrix = (dim is None and A.dim() == 2) or (isinstance(dim, (tuple, list)) and len(dim) == 2)
    if ord is not None and matrix:
        raise NotImplementedError(f"minigrad.linalg.norm computes vector norms only, not the matrix norm ord={ord!r} "
                                  "(PyTorch: torch.linalg.matrix_norm)")
    return vector_norm(A, 2.0 if ord is None else ord, dim, keepdim, dtype=dtype)


def __getattr__(name):  # (Python asks this for a name the module does not define)
    raise AttributeError(f"minigrad.linalg has no {name}: minigrad has the vector norms (norm, vector_norm), cross "
                         f"and inv, none of the other matrix functions; PyTorch has torch.linalg.{name}")
