"""The inputs and ops of ``tests/test_float_kernels.py``, shared with ``scripts/make_float_kernel_fixtures.py``: float
kernels whose every result is compared bit for bit with PyTorch's (``tests/fixtures/float_kernels.json``)."""
import numpy as np

POINTS = 1000  # inputs per case


def inputs(kind, dtype):
    """``POINTS`` numbers, evenly spaced: over [-8, 8] (``"real"``) or [0.01, 50] (``"positive"``)."""
    lo, hi = (-8.0, 8.0) if kind == "real" else (0.01, 50.0)
    return np.linspace(lo, hi, POINTS, dtype=np.float64).astype(dtype)


# name -> (kind of input, the op on a tensor of library T)
CASES = {
    "sigmoid": ("real", lambda T, t: t.sigmoid()),
    "silu": ("real", lambda T, t: T.nn.functional.silu(t)),
    "glu": ("real", lambda T, t: T.nn.functional.glu(t.reshape(-1, 2))),
    "rsqrt": ("positive", lambda T, t: t.rsqrt()),
    "softplus": ("real", lambda T, t: T.nn.functional.softplus(t)),
    "softplus_beta": ("real", lambda T, t: T.nn.functional.softplus(t, beta=2.0, threshold=5.0)),
    "elu": ("real", lambda T, t: T.nn.functional.elu(t, alpha=0.5)),
    "selu": ("real", lambda T, t: T.nn.functional.selu(t)),
    "celu": ("real", lambda T, t: T.nn.functional.celu(t, alpha=2.0)),
    "mish": ("real", lambda T, t: T.nn.functional.mish(t)),
}
DTYPES = ("float32", "float16")


def run(T, name, dtype):
    """The op's results, as a numpy array."""
    kind, op = CASES[name]
    return op(T, T.tensor(inputs(kind, dtype).tolist(), dtype=getattr(T, dtype))).detach().numpy()
