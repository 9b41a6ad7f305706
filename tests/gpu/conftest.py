"""The GPU suite: tapegrad on CuPy (``TAPEGRAD_ARRAY_NAMESPACE=cupy``), run where a CUDA GPU is.

    .venv/bin/python -m pytest tests/gpu        # sets the namespace itself when a GPU is present

Where CuPy or a CUDA device is missing, every test is skipped, and the skip says which.
"""
import os

import pytest


def _gpu_missing():
    """Why the suite cannot run here, or None when CuPy sees a CUDA device."""
    try:
        import cupy
    except Exception as e:   # ImportError, or CuPy failing to find its CUDA libraries
        return f"CuPy is not importable here ({type(e).__name__}: {e}); no GPU suite"
    try:
        count = cupy.cuda.runtime.getDeviceCount()
    except Exception as e:
        return f"CuPy finds no CUDA driver or device ({type(e).__name__}: {e})"
    return None if count > 0 else "CuPy reports 0 CUDA devices"


WHY_SKIPPED = _gpu_missing()
if WHY_SKIPPED is None:
    # must happen before tapegrad is imported: the namespace is chosen once per process
    os.environ.setdefault("TAPEGRAD_ARRAY_NAMESPACE", "cupy")


def pytest_collection_modifyitems(config, items):
    if WHY_SKIPPED is not None:
        here = os.path.dirname(os.path.abspath(__file__))
        for item in items:   # this suite's own tests only, when one session runs several
            if str(item.path).startswith(here + os.sep):
                item.add_marker(pytest.mark.skip(reason=WHY_SKIPPED))


def pytest_report_header(config):
    return f"GPU suite: {'runs on CuPy' if WHY_SKIPPED is None else 'skipped: ' + WHY_SKIPPED}"
