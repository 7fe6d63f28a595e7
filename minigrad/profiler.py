"""``minigrad.profiler`` (PyTorch: ``torch.profiler``): the newer front door to the same profiler.

    with torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CPU]) as prof:
        ...
    print(prof.key_averages().table(sort_by="cpu_time_total", row_limit=10))

It is ``minigrad.autograd.profiler.profile`` (read that module for how it works) with PyTorch's
``activities=`` argument; the CPU is the only activity minigrad can time.
"""
import enum

from .autograd.profiler import profile as _profile
from .autograd.profiler import record_function  # noqa: F401  (torch.profiler.record_function)


class ProfilerActivity(enum.Enum):
    CPU = 0
    XPU = 1
    MTIA = 2
    CUDA = 3


class profile(_profile):  # noqa: N801  (PyTorch's name)
    """``torch.profiler.profile(activities=...)``: asking for anything but the CPU raises."""

    def __init__(self, *, activities=None, **ignored):
        from .devices import check
        for activity in activities or ():
            if activity is not ProfilerActivity.CPU:
                check(activity.name.lower())  # raises: minigrad runs on the CPU only
        super().__init__()

    def step(self):
        """(A schedule's step: minigrad records every step.)"""
