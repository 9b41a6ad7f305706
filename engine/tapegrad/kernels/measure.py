"""Measures, for this environment, the size from which each kernel family beats NumPy (the
numbers in thresholds.py). Natively: ``python -m tapegrad.kernels.measure``; inside Pyodide:
``npm run pyodide -- engine/tapegrad/kernels/measure.py``. Prints one line per family: the times
per size and the threshold (the smallest size from which the kernel is faster at every larger
size measured; "never" when it never is). Timings are the best of several runs.
"""
import sys
import time

from tapegrad.backend import xp  # absolute: this file also runs as a script in Pyodide
from tapegrad.kernels import calls, dispatch

SIZES = [64, 256, 1024, 4096, 16384, 65536, 262144]


def best_time(fn, budget=0.05, reps=200):
    best = float("inf")
    start = time.perf_counter()
    for _ in range(reps):
        t = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t)
        if time.perf_counter() - start > budget:
            break
    return best


def _sigmoid_pair(n, rng):
    g = rng.standard_normal(n).astype(xp.float32)
    y = rng.random(n).astype(xp.float32)
    one = xp.float32(1)
    return (lambda lib: calls.sigmoid_grad(lib, g, y)), (lambda: g * (y * (one - y)))


def _softplus_pair(n, rng):
    g = rng.standard_normal(n).astype(xp.float32)
    x = (rng.standard_normal(n) * 4).astype(xp.float32)
    one = xp.float32(1)
    # The table's rule: g * sigmoid(x), sigmoid as math_ops computes it (an exp per element).
    return (lambda lib: calls.softplus_grad(lib, g, x)), (lambda: g * (one / (one + xp.exp(-x))))


def _matmul_pair(size, rng):
    n = max(2, round(size ** (1 / 3)))
    a = rng.standard_normal((n, n)).astype(xp.float32)
    b = rng.standard_normal((n, n)).astype(xp.float32)
    return (lambda lib: calls.matmul(lib, a, b)), (lambda: a @ b)


def _binary_pair(n, rng):
    a = rng.standard_normal(n).astype(xp.float32)
    b = rng.standard_normal(n).astype(xp.float32)
    return (lambda lib: calls.binary(lib, "add", a, b)), (lambda: a + b)


def _unary_pair(n, rng):
    a = rng.standard_normal(n).astype(xp.float32)
    return (lambda lib: calls.unary(lib, "neg", a)), (lambda: -a)


def _reduce_pair(n, rng):
    a = rng.standard_normal((n // 64, 64)).astype(xp.float32)
    return (lambda lib: calls.reduce(lib, "sum", a, (1,), False)), (lambda: a.sum(1))


def _xent_pair(n, rng):
    x = rng.standard_normal((max(1, n // 10), 10)).astype(xp.float32)
    z = rng.random(x.shape).astype(xp.float32)
    g = rng.standard_normal(x.shape[0]).astype(xp.float32)

    def chain():
        e = xp.exp(x - x.max(-1, keepdims=True))
        return g[:, None] * (e / e.sum(-1, keepdims=True) - z)
    return (lambda lib: calls.softmax_xent_grad(lib, x, z, g)), chain


def _adam_pair(n, rng):
    w, g = (rng.standard_normal(n).astype(xp.float32) for _ in range(2))
    m, v = xp.zeros(n, xp.float32), xp.zeros(n, xp.float32)
    f = xp.float32

    def numpy_steps():
        m2, v2 = m.copy(), v.copy()  # the kernel updates in place; time comparable work
        m2 += (g - m2) * f(0.1)
        v2 += (g * g - v2) * f(0.001)
        return w - f(0.001) * m2 / (xp.sqrt(v2) + f(1e-7))
    return (lambda lib: calls.adam(lib, w, g, m.copy(), v.copy(), 0.1, 0.001, 0.001, 1e-7),
            numpy_steps)


FAMILIES = {"matmul": _matmul_pair, "binary": _binary_pair, "unary": _unary_pair,
            "reduce": _reduce_pair, "fused": _sigmoid_pair, "fused_exp": _softplus_pair,
            "softmax_xent": _xent_pair,
            "optimizer": _adam_pair}


def measure(lib, family, sizes=SIZES):
    rng = xp.random.default_rng(0)
    rows = []
    for n in sizes:
        kernel, numpy_fn = FAMILIES[family](n, rng)
        rows.append((n, best_time(lambda: kernel(lib)), best_time(numpy_fn)))
    threshold = None
    for n, tk, tn in reversed(rows):
        if tk >= tn:
            break
        threshold = n
    return rows, threshold


def main(argv=None):
    lib = dispatch.lib()
    if lib is None:
        print(f"no kernels: {dispatch.reason()}")
        return 1
    where = "pyodide" if sys.platform == "emscripten" else "native"
    print(f"# thresholds measured {where} ({lib.variant}); times in us: size kernel/numpy")
    for family in (argv or sys.argv[1:] or FAMILIES):
        rows, threshold = measure(lib, family)
        cells = "  ".join(f"{n}:{tk * 1e6:.0f}/{tn * 1e6:.0f}" for n, tk, tn in rows)
        print(f"{family:13s} threshold={threshold if threshold else 'never'}  {cells}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
