"""The columns of the report: which peer, where it runs, with which interpreter and environment.

``family`` is the name ``--peers`` selects by (tapegrad selects its kernels-on and kernels-off
columns, natively and in the browser; jax selects jax and jax-jit)."""
from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Column:
    id: str
    label: str
    family: str
    where: str                 # "native" or "chromium"
    peer: str = ""             # run_peer's name (native), or the browser page's peer
    venv: str = ".bench-venv"  # native: the environment whose python runs it
    env: dict = field(default_factory=dict)
    threads: str = "1"         # browser: "1", or "all" (navigator.hardwareConcurrency)
    cases: tuple = ()          # the only cases this column runs (empty: every case of its environment)


# The browser cases measured with every thread as well as with one.
THREADED_CASES = ("W3-b256", "CNN-step")

NATIVE = [
    Column("tapegrad", "tapegrad", "tapegrad", "native", "tapegrad", ".venv"),
    Column("tapegrad-nokernels", "tapegrad, kernels off", "tapegrad", "native", "tapegrad", ".venv",
           {"TAPEGRAD_KERNELS": "0"}),
    Column("numpy", "NumPy, hand-written backward", "numpy", "native", "numpy", ".venv"),
    Column("torch", "PyTorch", "torch", "native", "torch"),
    Column("tensorflow", "TF eager", "tensorflow", "native", "tensorflow"),
    Column("jax", "JAX", "jax", "native", "jax"),
    Column("jax-jit", "JAX jit (reference)", "jax", "native", "jax-jit"),
    Column("autograd", "HIPS autograd", "autograd", "native", "autograd"),
    Column("micrograd", "micrograd", "micrograd", "native", "micrograd"),
]

BROWSER = [
    Column("pyodide-tapegrad", "tapegrad (Pyodide)", "tapegrad", "chromium", "tapegrad"),
    Column("pyodide-tapegrad-nokernels", "tapegrad (Pyodide), kernels off", "tapegrad", "chromium",
           "tapegrad", env={"TAPEGRAD_KERNELS": "0"}),
    Column("pyodide-numpy", "Pyodide NumPy, hand-written backward", "numpy", "chromium", "numpy"),
    Column("tfjs-wasm", "TF.js wasm (SIMD, 1 thread)", "tfjs", "chromium", "tfjs"),
    # All cores (issue 34, item 3): tapegrad with the page's kernel pool attached
    # (web/src/kernel-pool.js), TF.js with its threaded SIMD module; only the large-product cases.
    Column("pyodide-tapegrad-threads", "tapegrad (Pyodide), all threads", "tapegrad", "chromium",
           "tapegrad", threads="all", cases=THREADED_CASES),
    Column("tfjs-wasm-threads", "TF.js wasm (SIMD, all threads)", "tfjs", "chromium", "tfjs",
           threads="all", cases=THREADED_CASES),
]

FAMILIES = sorted({c.family for c in NATIVE + BROWSER})


def select(peers: str | None, where: str) -> list[Column]:
    wanted = [p.strip() for p in (peers or "").split(",") if p.strip()]
    unknown = [p for p in wanted if p not in FAMILIES and p not in {c.id for c in NATIVE + BROWSER}]
    if unknown:
        raise ValueError(f"unknown peer(s) {', '.join(unknown)}; choose from {', '.join(FAMILIES)}")
    pool = NATIVE if where == "native" else BROWSER
    return [c for c in pool if not wanted or c.family in wanted or c.id in wanted]
