"""Sizes from which a kernel beats NumPy, per environment (None: never, NumPy is as fast).

Measured with ``python -m tapegrad.kernels.measure`` natively and
``npm run pyodide -- engine/tapegrad/kernels/measure.py`` inside Pyodide (Node): for each family
it times kernel and NumPy on growing sizes and prints the smallest size from which the kernel is
faster at every larger size, which is what goes here (rounded). Sizes count elements of the
output (of the input for reductions; multiply-adds m*n*k*batch for matmul).

Natively NumPy runs BLAS (matmul) and its own SIMD loops, and a ctypes call costs about 1 us;
inside Pyodide NumPy has neither BLAS nor SIMD, and a ctypes call costs about 10 us.
"""
# Measured on the 2-core development machine under heavy shared load (loadavg 12), so absolute
# times were 3-5x slower than idle; the crossovers are ratios and move less. Re-measure and update.
NATIVE = {
    "matmul": None,        # OpenBLAS wins at every size (kernel 23 us vs 8 us at 64^3)
    "binary": None,        # NumPy's own SIMD loops: equal from 256k elements on, slower below
    "unary": None,
    "reduce": 16384,       # row sums: NumPy's pairwise sum per short row is slower
    "fused": 16384,        # one pass instead of two or three temporaries
    "fused_exp": None,     # softplus backward: NumPy's own SIMD exp is faster than ours
    "softmax_xent": None,  # (ditto) faster for 10 classes, slower for 1000
    "optimizer": 1024,
}

PYODIDE = {
    "matmul": 32768,       # multiply-adds (32^3); a ctypes call there costs about 10 us
    "binary": 65536,
    "unary": 16384,
    "reduce": 32768,
    "fused": 8192,
    "fused_exp": 8192,
    "softmax_xent": 256,
    "optimizer": 2048,
}


def for_environment(in_pyodide):
    return dict(PYODIDE if in_pyodide else NATIVE)
