"""Shared fixtures for the engine tests, and the test log's note of the vector paths taken."""
import ctypes
import io
import logging
import platform
import sys

import pytest

import tapegrad
from tapegrad.kernels import dispatch as kernels
from tapegrad.thread_state import state


def _cpu_name():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.machine() or "unknown CPU"


def simd_paths():
    """Lines saying which SIMD paths NumPy and the C kernels take on this machine: results of
    float32 sums and transcendentals may differ in the last bit between them (AVX2, AVX-512)."""
    import numpy as np
    umath = getattr(np, "_core", None) or np.core
    umath = umath._multiarray_umath
    found = [f for f in getattr(umath, "__cpu_dispatch__", []) if umath.__cpu_features__.get(f)]
    lines = [f"cpu: {_cpu_name()}",
             f"numpy {np.__version__}: baseline {' '.join(getattr(umath, '__cpu_baseline__', []))}"
             f"; dispatched {' '.join(found) or 'none'}"]
    lib = kernels.lib()
    if lib is None:
        lines.append(f"kernels: none loaded ({kernels.reason()})")
    else:
        try:
            path = lib.cdll.tg_simd_path
            path.restype = ctypes.c_char_p
            taken = path().decode()
        except (AttributeError, OSError):
            taken = "a build without tg_simd_path"
        on = "on" if kernels.enabled() else "off (TAPEGRAD_KERNELS=0)"
        lines.append(f"kernels {lib.variant}, {on}: {taken}")
    return lines


def pytest_report_header(config):
    return simd_paths()


def pytest_terminal_summary(terminalreporter):
    """Again at the end, where a quiet run (-q) still prints it."""
    if terminalreporter.config.get_verbosity() < 0:
        for line in simd_paths():
            terminalreporter.write_line(f"vector paths: {line}")


@pytest.fixture(autouse=True)
def no_tape_left_behind():
    """Every test must leave no recorder active, whatever it did (exceptions included)."""
    assert state.active == []
    yield
    leftover = list(state.active)
    state.active.clear()
    assert leftover == [], f"test left recorders active: {leftover}"


@pytest.fixture
def tapegrad_log():
    """What the ``tapegrad`` logger writes to stderr, formatted as users see it.

    The package's handler keeps the stderr it found at import time, so the fixture points that
    handler at a buffer for the test and returns a function giving the lines written so far.
    """
    handlers = [h for h in logging.getLogger("tapegrad").handlers
                if type(h) is logging.StreamHandler]  # not pytest's own capture handlers
    assert handlers, "tapegrad installs a stderr handler on import"
    buffer = io.StringIO()
    saved = [h.setStream(buffer) for h in handlers]
    yield lambda: buffer.getvalue().splitlines()
    for h, stream in zip(handlers, saved):
        h.setStream(stream)


@pytest.fixture
def fresh_layer_names():
    """Layer names restart at ``dense`` (as after ``tf.keras.backend.clear_session()``)."""
    tapegrad.keras.backend.clear_session()
    yield
    tapegrad.keras.backend.clear_session()


@pytest.fixture(scope="module")
def coverage_script():
    """build/coverage.py as a module (the coverage table's generator; it runs natively, from the
    repository: the tests that use it skip elsewhere)."""
    import importlib.util
    from pathlib import Path
    path = Path(__file__).resolve().parents[2] / "build" / "coverage.py"
    if sys.platform == "emscripten" or not path.is_file():
        pytest.skip("build/coverage.py runs natively, from the repository")
    spec = importlib.util.spec_from_file_location("coverage_table", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
