"""Sizes from which a kernel beats NumPy, per environment (None: never, NumPy is as fast).

Measured with ``python -m tapegrad.kernels.measure`` natively and
``npm run pyodide -- engine/tapegrad/kernels/measure.py`` inside Pyodide (Node): for each family
it times kernel and NumPy on growing sizes and prints the smallest size from which the kernel is
faster at every larger size, which is what goes here (rounded). Sizes count elements of the
output (of the input for reductions; multiply-adds m*n*k*batch for matmul).

Natively NumPy runs BLAS (matmul) and its own SIMD loops, and a ctypes call costs about 1 us;
inside Pyodide NumPy has neither BLAS nor SIMD, and a ctypes call costs about 10 us.
"""
NATIVE = {
    "matmul": None,        # OpenBLAS wins at every size
    "binary": None,        # NumPy's SIMD loops: memory-bound either way
    "unary": None,
    "reduce": None,
    "fused": 4096,         # one pass instead of two to three temporaries
    "softmax_xent": 2048,
    "optimizer": 4096,
}

PYODIDE = {
    "matmul": 8192,        # about 20^3 multiply-adds
    "binary": 4096,
    "unary": 4096,
    "reduce": 4096,
    "fused": 1024,
    "softmax_xent": 512,
    "optimizer": 1024,
}


def for_environment(in_pyodide):
    return dict(PYODIDE if in_pyodide else NATIVE)
