"""Measuring one step: warm-up calls, then timed repetitions until a count or a time cap is reached.

The median of the repetitions is what the table shows; the counts are kept with it.
"""
from __future__ import annotations

import statistics
import time
from dataclasses import asdict, dataclass


@dataclass(frozen=True)
class Policy:
    warmup: int = 2            # untimed calls first (JIT compiles, caches, allocator)
    min_reps: int = 5          # always at least this many timed calls...
    max_reps: int = 100        # ...and at most this many,
    max_seconds: float = 1.0   # stopping earlier once the timed calls add up to this

    def as_dict(self) -> dict:
        return asdict(self)


@dataclass
class Measurement:
    median_s: float
    reps: int
    warmup: int
    min_s: float
    check: float | None    # the step's own result (a loss, a sum), to compare peers


def to_check(value) -> float | None:
    """A step's first result as one float: the value itself, or the first element of an array."""
    if value is None:
        return None
    if isinstance(value, (int, float)):
        return float(value)
    import numpy as np
    if hasattr(value, "detach"):      # torch: leave the autograd graph first
        value = value.detach()
    if hasattr(value, "numpy"):       # tensors of TF, tapegrad, torch
        value = value.numpy()
    flat = np.asarray(value).reshape(-1)
    return float(flat[0]) if flat.size else None


def measure(step, policy: Policy, clock=time.perf_counter) -> Measurement:
    """Times ``step()`` under ``policy``. The step returns a value (a loss, an array, a float)
    that must be computed by the time it returns; the first one becomes the check value."""
    first = None
    for _ in range(policy.warmup):
        value = step()
        first = value if first is None else first
    times = []
    spent = 0.0
    while len(times) < policy.max_reps and (len(times) < policy.min_reps or spent < policy.max_seconds):
        t0 = clock()
        value = step()
        dt = clock() - t0
        times.append(dt)
        spent += dt
        first = value if first is None else first
    return Measurement(statistics.median(times), len(times), policy.warmup, min(times),
                       to_check(first))
