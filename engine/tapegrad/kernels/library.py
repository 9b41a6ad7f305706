"""Finding and loading the compiled kernels (wasm_kernels/) with ctypes.

Natively the library is ``libtapegrad_kernels.so`` next to this file (built by
``build/setup_python.sh``); inside Pyodide it is one of two WebAssembly side modules shipped in
the wheel: ``tapegrad_kernels_relaxed.wasm`` (relaxed-SIMD fused multiply-add) when the runtime
validates it, else ``tapegrad_kernels_simd.wasm`` (plain 128-bit SIMD).

``TAPEGRAD_KERNELS``: ``0`` disables the kernels (NumPy only), ``simd`` forces the plain-SIMD
module, ``1``/unset picks automatically. ``TAPEGRAD_MALLOC=0`` leaves the C library's allocator
as it is (see ``keep_freed_memory``).
"""
import ctypes
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
NATIVE_NAME = "libtapegrad_kernels.so"
WASM_NAMES = {"relaxed": "tapegrad_kernels_relaxed.wasm", "simd": "tapegrad_kernels_simd.wasm"}
IN_PYODIDE = sys.platform == "emscripten"

# Codes shared with wasm_kernels/ops.h.
BINARY_OPS = {"add": 0, "sub": 1, "mul": 2, "div": 3, "max": 4, "min": 5}
UNARY_OPS = {"neg": 0, "abs": 1, "square": 2, "sqrt": 3, "relu": 4}
MODES = {"same": 0, "b_scalar": 1, "a_scalar": 2, "b_row": 3, "a_row": 4, "b_col": 5, "a_col": 6}
REDUCE_OPS = {"sum": 0, "max": 1, "mean": 2}
ROWS, COLS = 0, 1

_P, _N, _I, _D = ctypes.c_void_p, ctypes.c_ssize_t, ctypes.c_int, ctypes.c_double
SIGNATURES = {  # name (without the _f32/_f64 suffix): (restype, argtypes)
    "tg_gemm_work": (_N, [_N, _N, _N]),
    "tg_gemm": (None, [_N, _N, _N, _P, _N, _N, _P, _N, _N, _P, _N, _N, _N, _N, _N, _P]),
    "tg_binary": (_I, [_I, _I, _N, _N, _P, _P, _P]),
    "tg_unary": (_I, [_I, _N, _P, _P]),
    "tg_reduce": (_I, [_I, _I, _N, _N, _P, _P]),
    "tg_sigmoid_grad": (None, [_N, _P, _P, _P]),
    "tg_tanh_grad": (None, [_N, _P, _P, _P]),
    "tg_relu_grad": (None, [_N, _P, _P, _P]),
    "tg_softplus_grad": (None, [_N, _P, _P, _P]),
    "tg_softmax_xent_grad": (None, [_N, _N, _P, _P, _P, _P]),
    "tg_sparse_xent_fwd": (None, [_N, _N, _P, _P, _P, _N, _P, _P]),
    "tg_sparse_xent_grad_exp": (None, [_N, _N, _P, _P, _P, _P, _P]),
    "tg_sparse_xent_grad": (None, [_N, _N, _P, _P, _P, _P]),
    "tg_sgd_momentum": (None, [_N, _P, _P, _P, _P, _D, _D, _I]),
    "tg_adam": (None, [_N, _P, _P, _P, _P, _P, _D, _D, _D, _D]),
    "tg_im2col": (None, [_P, _P, _P, _D]),
    "tg_col2im": (None, [_P, _P, _P]),
    "tg_max_pool": (_N, [_P, _P, _P, _P]),
    "tg_max_pool_grad": (_I, [_N, _P, _P, _N, _P, _P]),
}


class Library:
    """The loaded kernels: ``lib.fn("tg_gemm", "float32")`` is the ctypes function for a dtype."""

    def __init__(self, path, variant):
        self.path = path
        self.variant = variant  # "native", "relaxed" or "simd"
        self.cdll = ctypes.CDLL(path)
        self.fns = {}
        for name, (restype, argtypes) in SIGNATURES.items():
            for sfx, dtype in (("f32", "float32"), ("f64", "float64")):
                f = getattr(self.cdll, f"{name}_{sfx}")
                f.restype = restype
                f.argtypes = argtypes
                self.fns[name, dtype] = f

    def fn(self, name, dtype):
        return self.fns[name, dtype]

    def __repr__(self):
        return f"<tapegrad kernels {self.variant}: {self.path}>"


def _relaxed_simd_supported(module_bytes):
    """Whether this WebAssembly runtime accepts the relaxed-SIMD module (Chromium does; Node 20
    only with --experimental-wasm-relaxed-simd)."""
    import js
    from pyodide.ffi import to_js
    return bool(js.WebAssembly.validate(to_js(module_bytes)))


def candidates(setting):
    """(variant, path) pairs to try, best first, for this runtime and TAPEGRAD_KERNELS value."""
    if not IN_PYODIDE:
        return [("native", os.path.join(HERE, NATIVE_NAME))]
    order = ["simd"] if setting == "simd" else ["relaxed", "simd"]
    return [(v, os.path.join(HERE, WASM_NAMES[v])) for v in order]


def setting():
    return os.environ.get("TAPEGRAD_KERNELS", "1")


def present():
    """Whether a kernel library may be loaded here (enabled and a file built), without loading it."""
    return setting() != "0" and any(os.path.isfile(p) for _, p in candidates(setting()))


def load(setting=None):
    """The Library, or (None, reason) when kernels are off or absent."""
    setting = globals()["setting"]() if setting is None else setting
    if setting == "0":
        return None, "disabled by TAPEGRAD_KERNELS=0"
    tried = []
    for variant, path in candidates(setting):
        if not os.path.isfile(path):
            tried.append(f"{os.path.basename(path)} not built")
            continue
        if variant == "relaxed":
            with open(path, "rb") as f:
                if not _relaxed_simd_supported(f.read()):
                    tried.append("relaxed SIMD not supported by this runtime")
                    continue
        try:
            return Library(path, variant), None
        except (OSError, AttributeError) as e:
            tried.append(f"{os.path.basename(path)}: {e}")
    return None, "; ".join(tried)


# glibc's mallopt parameters (malloc.h)
_M_TRIM_THRESHOLD, _M_MMAP_THRESHOLD = -1, -3
MMAP_THRESHOLD = 32 << 20
TRIM_THRESHOLD = 64 << 20


def keep_freed_memory():
    """Natively with glibc: arrays under 32 MB come from the heap and up to 64 MB of freed heap
    stay with the process (``mallopt``), instead of glibc's adaptive defaults, which give large
    arrays back to the system and take them again as fresh pages, zeroed by the kernel page by
    page (``minflt``). A training step allocates and frees the same few sizes each time: the CNN
    step took 2,500-5,500 page faults per step, up to half its CPU time. Returns whether it was
    set (not in Pyodide, not with ``TAPEGRAD_MALLOC=0``, not without glibc)."""
    if IN_PYODIDE or os.environ.get("TAPEGRAD_MALLOC", "1") == "0":
        return False
    try:
        libc = ctypes.CDLL(None)
        mallopt, _ = libc.mallopt, libc.gnu_get_libc_version
    except (OSError, AttributeError):
        return False
    mallopt.argtypes, mallopt.restype = [ctypes.c_int, ctypes.c_int], ctypes.c_int
    return bool(mallopt(_M_MMAP_THRESHOLD, MMAP_THRESHOLD)) and \
        bool(mallopt(_M_TRIM_THRESHOLD, TRIM_THRESHOLD))
