"""Sizes from which a kernel beats NumPy, per environment (None: never, NumPy is as fast).

Measured with ``python -m tapegrad.kernels.measure`` natively and
``npm run pyodide -- engine/tapegrad/kernels/measure.py`` inside Pyodide (Node): for each family
it times kernel and NumPy on growing sizes and prints the smallest size from which the kernel is
faster at every larger size, which is what goes here (rounded). Sizes count elements of the
output (of the input for reductions; multiply-adds m*n*k*batch for matmul).

Natively NumPy runs BLAS (matmul) and its own SIMD loops, and a ctypes call costs about 1 us;
inside Pyodide NumPy has neither BLAS nor SIMD, and a ctypes call costs about 10 us.
"""
# Measured on the 2-core development machine (load average about 2.5, shared), Pyodide under
# Node with the plain-SIMD module; rounded towards NumPy where the crossover was close.
NATIVE = {
    "matmul": None,        # OpenBLAS wins (kernel 21 us vs 8 us at 64^3; ctypes alone costs ~5 us)
    "binary": None,        # NumPy's own SIMD loops: equal from 256k elements on, slower below
    "unary": None,
    "relu": 16384,         # NumPy's maximum(x, 0) takes a slower loop (692k float32: 0.20 vs
                           # 0.62 ms; 16k: 12 vs 15 us); the same bits (NaN kept, max(-0.0, 0) 0)
    "reduce": 16384,       # row sums: NumPy's pairwise sum per short row is slower
    "reduce_cols_numpy": 64,  # sums/means over leading axes with rows of >= 64 elements: NumPy
                           # adds the rows in the kernel's order (same bits) and without the call
                           # (64x256: 4 vs 10 us; 1024x1024: 110 vs 122 us); shorter rows: kernel
    "fused": 16384,        # one pass instead of two or three temporaries
    "fused_exp": None,     # softplus backward: NumPy's SIMD exp is about as fast (1.2-1.4x)
    "softmax_xent": 1024,  # elements of the logits (backward of SoftmaxCrossEntropyWithLogits)
    "optimizer": 1024,
    "windows": 4096,       # Col2Im and max pooling (conv_ops.py): one pass in C instead of one
                           # NumPy call per window entry (64x11x11x3x3x16 Col2Im: 2.8 vs 6.7 ms,
                           # 2x2 pooling of 64x26x26x16: 1.2 vs 3.6 ms, at load 8)
    "im2col": None,        # NumPy's strided copy of the windows is as fast or faster (0.4 vs 0.6
                           # ms for 16 channels, 0.4 vs 1.0 ms for one)
}

PYODIDE = {
    "matmul": 32768,       # multiply-adds (32^3): a call with 16 arguments costs about 30 us
    "binary": 65536,
    "unary": 16384,
    "reduce": 65536,
    "reduce_cols_numpy": None,  # (NumPy has no SIMD here: the kernel at any row length)
    "fused": 16384,
    "fused_exp": 8192,     # NumPy's exp there is scalar libm: the kernel is 6-10x faster
    "softmax_xent": 256,
    "optimizer": 1024,
    "windows": 4096,       # 64x11x11x3x3x16 Col2Im 12-16 -> 1-2.4 ms, 2x2 pooling of 64x26x26x16
                           # 14-21 -> 0.7-1.1 ms, its gradient 14-16 -> 1.5 ms (wall clock, Node)
    "im2col": 4096,        # more than one channel (dispatch.py)
}


def for_environment(in_pyodide):
    return dict(PYODIDE if in_pyodide else NATIVE)
