"""Whether tapegrad's C/WASM kernels (issue 7) are loaded in this process, seen from outside the
engine: the shared library in the process's memory map natively, or the side module among
Pyodide's loaded dynamic libraries in the browser."""
from __future__ import annotations

import os
import sys

LIBRARY_STEM = "tapegrad_kernels"


def kernels_loaded() -> bool:
    if sys.platform == "emscripten":
        try:
            import js
            from pyodide_js import _module
            names = js.Object.keys(_module.LDSO.loadedLibsByName).to_py()
        except Exception:
            return False
        return any(LIBRARY_STEM in str(n) for n in names)
    try:
        with open("/proc/self/maps") as f:
            return any(LIBRARY_STEM in line for line in f)
    except OSError:
        return False


def describe() -> dict:
    env = os.environ.get("TAPEGRAD_KERNELS")
    loaded = kernels_loaded()
    if env == "0":
        state = "off (TAPEGRAD_KERNELS=0)" + ("; library still loaded" if loaded else "")
    else:
        state = "on" if loaded else "unavailable (no kernel library loaded)"
    return {"kernels_env": env, "kernels_loaded": loaded, "kernels": state}
