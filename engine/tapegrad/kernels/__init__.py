"""C kernels beneath the op table (sources in wasm_kernels/): GEMM, elementwise ops, reductions,
fused backward rules and optimizer updates, compiled to a native library and to WebAssembly SIMD
side modules for Pyodide, loaded with ctypes.

The op table stays the one definition of every op: a primitive's implementation calls a kernel
only when it computes the same thing faster here (see dispatch.py), and falls back to NumPy for
anything else. ``TAPEGRAD_KERNELS=0`` turns the kernels off.

>>> from tapegrad import kernels
>>> kernels.status()["enabled"] in (True, False)
True
"""
from . import threads
from .dispatch import LIMITS, disabled, enabled, lib, reason


def status():
    """What is loaded (loading it now) and why: {"enabled", "variant", "path", "reason",
    "thresholds", "threads"} (threads: how many a large product uses, threads.py)."""
    loaded = lib()
    return {"enabled": enabled(), "variant": loaded.variant if loaded else None,
            "path": loaded.path if loaded else None, "reason": reason(),
            "thresholds": dict(LIMITS), "threads": threads.count()}


__all__ = ["disabled", "enabled", "status"]
