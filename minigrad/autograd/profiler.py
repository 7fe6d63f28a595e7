"""``minigrad.autograd.profiler``: time the ops a block of code runs (PyTorch: ``torch.autograd.profiler``).

    with torch.autograd.profiler.profile() as prof:
        z = (z / x) * y
    print(prof.key_averages().table(sort_by="self_cpu_time_total"))

How PyTorch does it: every ATen op (``aten::mul``...), every backward node and every
``record_function`` block is wrapped in C++ by a ``RecordFunction`` guard.  While no profiler is on, the
guard costs one check; while one is on, it calls the profiler's callbacks at the start and the end of
the op, which note the name, the thread and the time.  On exit the profiler turns these into
``FunctionEvent``s, nests each event under the one that was running when it started (its
``cpu_parent``), and ``key_averages()`` groups them by name.  An event's *self* time is its total time
less that of its children: ``aten::matmul`` spends most of its time inside ``aten::mm``.

How minigrad simplifies it: every minigrad op goes through one method, ``Op.apply`` (the dispatcher,
``ops/dispatch.py``; a Function of your own: ``Function.apply``), and every
backward step through ``BackwardNode.apply`` (and ``AccumulateGrad.apply`` at the leaves).  Entering a
``profile`` replaces these methods with timing wrappers; leaving it puts the originals back, so the
code that runs when nobody profiles is the plain code, with not even a check added.  The wrapper keeps
a stack of the events running now: an op called inside another op (a backward made of ops, a composite
op) becomes its child, which gives the self and total times.  An op is named as PyTorch names it:
``aten::`` and its node's name in snake case (``DivBackward0`` -> ``aten::div``); a Function of your
own by its class name, as PyTorch does.  Only the CPU, one thread, and no shapes, memory or stacks.
"""
import contextlib
import re
import time

_stack = []  # the events running now, innermost last
_active = [None]  # the profile recording now (PyTorch allows one per thread)


def _op_name(cls):
    """``aten::div`` for minigrad's Div (node ``DivBackward0``); a Function of your own by its name."""
    if not cls.__module__.startswith("minigrad."):
        return cls.__name__
    base = re.sub(r"Backward\d*$", "", getattr(cls, "node_name", None) or cls.__name__)
    return "aten::" + re.sub(r"(?<!^)(?=[A-Z])", "_", base).lower()


class _Event:
    """One timed call (PyTorch: ``FunctionEvent``); times in microseconds, as PyTorch's."""
    count = 1
    device_time_total = self_device_time_total = 0  # (no GPU: so that sort_by="cuda_time_total" works)

    def __init__(self, name, parent):
        self.key = self.name = name
        self.cpu_parent, self.cpu_children = parent, []
        if parent is not None:
            parent.cpu_children.append(self)
        self._start = self._end = time.perf_counter_ns()

    @property
    def cpu_time_total(self):
        return (self._end - self._start) / 1000

    @property
    def self_cpu_time_total(self):
        return self.cpu_time_total - sum(c.cpu_time_total for c in self.cpu_children)

    @property
    def cpu_time(self):  # the average per call
        return self.cpu_time_total / self.count

    def __repr__(self):
        return (f"<FunctionEvent name={self.name} self_cpu_time_total={self.self_cpu_time_total:.3f}us "
                f"cpu_time_total={self.cpu_time_total:.3f}us>")


class _Average(_Event):
    """The events of one name added up (PyTorch: ``FunctionEventAvg``)."""

    def __init__(self, key):
        self.key, self.count, self._total, self._self = key, 0, 0.0, 0.0

    def add(self, ev):
        self.count += 1
        self._total += ev.cpu_time_total
        self._self += ev.self_cpu_time_total

    cpu_time_total = property(lambda self: self._total)
    self_cpu_time_total = property(lambda self: self._self)

    def __repr__(self):
        return (f"<FunctionEventAvg key={self.key} self_cpu_time={self._self:.3f}us cpu_time={self.cpu_time:.3f}us "
                f"count={self.count}>")


def _format_time(us):
    if us >= 1e6:
        return f"{us / 1e6:.3f}s"
    return f"{us / 1e3:.3f}ms" if us >= 1e3 else f"{us:.3f}us"


def _share(us, total):
    return f"{us * 100.0 / total:.2f}%" if total else "NaN"


class EventList(list):
    """A list of events (or of averages) that prints as PyTorch's table."""

    def key_averages(self):
        groups = {}
        for ev in self:
            groups.setdefault(ev.key, _Average(ev.key)).add(ev)
        return EventList(groups.values())

    def table(self, sort_by=None, row_limit=100, max_name_column_width=55, header=None,
              top_level_events_only=False, **ignored):
        """PyTorch's ``_build_table`` with the CPU columns only."""
        if not self:
            return ""
        events = list(self)
        if sort_by is not None:
            attr = sort_by.replace("cuda", "device").replace("xpu", "device")
            events.sort(key=lambda ev: getattr(ev, attr), reverse=True)
        width = min(max(len(ev.key) for ev in events) + 4, max_name_column_width)
        headers = ["Name", "Self CPU %", "Self CPU", "CPU total %", "CPU total", "CPU time avg", "# of Calls"]
        row = "".join("{:>%d}  " % w for w in [width] + [12] * 6)
        line = "".join("-" * w + "  " for w in [width] + [12] * 6)
        total = sum(ev.self_cpu_time_total for ev in events)
        out = ([("=" * (len(line) - 2)), header] if header is not None else []) + [line, row.format(*headers), line]
        if top_level_events_only:
            events = [ev for ev in events if getattr(ev, "cpu_parent", None) is None]
        for ev in events[:row_limit]:
            name = ev.key if len(ev.key) < max_name_column_width - 3 else ev.key[:max_name_column_width - 3] + "..."
            out.append(row.format(name, _share(ev.self_cpu_time_total, total), _format_time(ev.self_cpu_time_total),
                                  _share(ev.cpu_time_total, total), _format_time(ev.cpu_time_total),
                                  _format_time(ev.cpu_time), ev.count))
        out += [line, f"Self CPU time total: {_format_time(total)}"]
        return "\n".join(out) + "\n"

    def __str__(self):
        return self.table()


def _begin(name):
    """Start an event of the active profile, inside the one running now."""
    ev = _Event(name, _stack[-1] if _stack else None)
    _active[0]._events.append(ev)
    _stack.append(ev)
    return ev


def _end(ev):
    ev._end = time.perf_counter_ns()
    _stack.pop()


def _timed(name, run, *args):
    """Run ``run(*args)`` as an event named ``name`` of the active profile."""
    ev = _begin(name)
    try:
        return run(*args)
    finally:
        _end(ev)


_op_classes = []  # classes above this layer whose ``apply`` runs an op: the dispatcher's Op registers itself


def register_op_class(cls):
    """Time ``cls.apply`` too while a profile is on (``ops/dispatch.py`` registers ``Op``)."""
    _op_classes.append(cls)


def _timed_apply(cls):
    """A timing wrapper for the classmethod ``apply`` that ``cls`` defines."""
    apply = cls.__dict__["apply"].__func__
    return classmethod(lambda c, *args: _timed(_op_name(c), apply, c, *args))


def _patches():
    """The methods every op and backward step goes through, and their timing wrappers."""
    from .function import AccumulateGrad, BackwardNode, BuiltinNode, Function
    node_apply, builtin_apply, acc_apply = BackwardNode.apply, BuiltinNode.apply, AccumulateGrad.apply
    return [(cls, _timed_apply(cls)) for cls in [Function] + _op_classes] + [
        (BackwardNode, lambda node, *grads: _timed(node.name(), node_apply, node, *grads)),
        (BuiltinNode, lambda node, *grads: _timed(node.name(), builtin_apply, node, *grads)),
        (AccumulateGrad, lambda node, grad: _timed("torch::autograd::AccumulateGrad", acc_apply, node, grad)),
    ]


class profile:  # noqa: N801  (PyTorch's name)
    """``with profile() as prof:`` times every op inside; then ``prof.key_averages().table()``."""

    def __init__(self, enabled=True, *, use_cuda=False, use_device=None, **ignored):
        from ..devices import check
        if use_cuda:
            check("cuda")  # raises: minigrad runs on the CPU only
        check(use_device)
        self.enabled, self._events, self._saved, self._finished = enabled, [], None, False

    def __enter__(self):
        if not self.enabled:
            return self
        if _active[0] is not None:
            raise RuntimeError("Profiler is already enabled on this thread")
        _active[0], self._saved = self, []
        for owner, wrapper in _patches():
            self._saved.append((owner, owner.__dict__["apply"]))
            owner.apply = wrapper
        return self

    def __exit__(self, *exc):
        if self.enabled:
            for owner, original in self._saved:
                owner.apply = original
            _active[0], self._finished = None, True
            _stack.clear()  # (a record_function still open is left out)
        return False

    def _check_finish(self):
        if not self.enabled:
            raise RuntimeError("the profiler was created with enabled=False: it recorded nothing")
        if not self._finished:
            raise RuntimeError("Profiler didn't finish running")

    def events(self):
        """Every timed call, in the order they started."""
        self._check_finish()
        return EventList(self._events)

    def key_averages(self):
        """One row per name: calls, self and total time (PyTorch groups the same way)."""
        return self.events().key_averages()

    def table(self, *args, **kwargs):
        return self.key_averages().table(*args, **kwargs)

    def __str__(self):
        return self.table()


class record_function(contextlib.ContextDecorator):  # noqa: N801  (PyTorch's name)
    """``with record_function("name"):`` (or ``@record_function("name")``) adds a row for the block to
    the active profile, the parent of the ops inside; outside a profile it does nothing."""

    def __init__(self, name, args=None):
        self.name, self._open = name, []  # (a decorated function may run inside itself: one event per entry)

    def __enter__(self):
        self._open.append(_begin(self.name) if _active[0] is not None else None)
        return self

    def __exit__(self, *exc):
        ev = self._open.pop()
        if ev is not None and _stack and _stack[-1] is ev:
            _end(ev)
        return False
