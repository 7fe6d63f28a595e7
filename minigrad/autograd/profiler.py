"""``minigrad.autograd.profiler``: not in minigrad (PyTorch: ``torch.autograd.profiler``).

PyTorch's profiler times every op a block of code runs (``with profile() as prof: ...`` then
``prof.key_averages().table(...)``, as in the introyt autograd tutorial).  minigrad keeps no timings,
so entering a profile says so with a clear error rather than an AttributeError.
"""


class profile:  # noqa: N801  (PyTorch's name)
    """``with torch.autograd.profiler.profile(...) as prof:`` raises: minigrad has no profiler."""

    def __init__(self, *args, **kwargs):
        raise NotImplementedError("minigrad has no profiler: torch.autograd.profiler.profile times PyTorch's "
                                  "kernels, which minigrad does not have; time the block with time.perf_counter()")


record_function = emit_nvtx = emit_itt = profile
