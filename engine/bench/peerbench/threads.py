"""One thread everywhere: the environment a peer process starts with (set before any import)."""
from __future__ import annotations

import os

SINGLE_THREAD_ENV = {
    "OMP_NUM_THREADS": "1",
    "MKL_NUM_THREADS": "1",
    "OPENBLAS_NUM_THREADS": "1",
    "BLIS_NUM_THREADS": "1",
    "VECLIB_MAXIMUM_THREADS": "1",
    "NUMEXPR_NUM_THREADS": "1",
    "TF_NUM_INTRAOP_THREADS": "1",
    "TF_NUM_INTEROP_THREADS": "1",
    "TF_CPP_MIN_LOG_LEVEL": "2",
    "XLA_FLAGS": "--xla_cpu_multi_thread_eigen=false intra_op_parallelism_threads=1",
    "JAX_PLATFORMS": "cpu",
    "CUDA_VISIBLE_DEVICES": "",
}


def single_thread_env(base: dict | None = None) -> dict:
    env = dict(os.environ if base is None else base)
    env.update(SINGLE_THREAD_ENV)
    return env


def limit_this_process() -> None:
    """For a process that has not imported numpy or a framework yet."""
    os.environ.update(SINGLE_THREAD_ENV)
