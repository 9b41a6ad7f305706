"""The C kernels load wherever they should: natively after `npm test`'s setup built them, and in
Pyodide from the wheel. Only TAPEGRAD_KERNELS=0 turns them off; a library that is missing or
fails to load is a failure here, not a quiet fall-back to NumPy (the kernel tests would skip)."""
import os

from tapegrad.kernels import dispatch, library


def test_the_kernel_library_loads_unless_turned_off():
    if os.environ.get("TAPEGRAD_KERNELS", "1") == "0":
        assert dispatch.lib() is None and dispatch.reason() == "disabled by TAPEGRAD_KERNELS=0"
        return
    assert dispatch.lib() is not None, f"the kernel library did not load: {dispatch.reason()}"
    assert dispatch.enabled()
    expected = "native" if not library.IN_PYODIDE else ("relaxed", "simd")
    assert dispatch.lib().variant in expected
