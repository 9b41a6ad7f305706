"""Kernel benchmark: each C kernel against the NumPy code it replaces, in the Python it runs in
(CPython natively, or Pyodide: ``npm run pyodide -- engine/bench/kernels.py``). ``npm run
bench:kernels`` runs it natively, in Pyodide under Node and in headless Chromium.

Prints a table: time per call (best of several), the rate (GFLOP/s for matmul, GB/s of memory
traffic for the rest) for kernel and NumPy, and the speedup. Fused rules are timed against the
NumPy chain the engine's rules run (several temporaries).

    python engine/bench/kernels.py [--quick] [--only matmul,fused,...]
"""
import argparse
import sys
import time

import numpy as np

from tapegrad.kernels import calls, dispatch


def best_time(fn, budget, max_reps=50):
    """Best time per call over up to max_reps samples within about `budget` seconds (at least
    two). A sample runs the call enough times to last 2 ms: browsers coarsen their clock."""
    # Warm-up: V8 runs a wasm function in its baseline tier until it has been called (and
    # looped) enough to be optimized, which takes effect at a later call; a training loop gets
    # there in its first steps.
    start = time.perf_counter()
    calls_made = 0
    while calls_made < 5 and (calls_made == 0 or time.perf_counter() - start < budget / 2):
        fn()
        calls_made += 1
    per_call = max((time.perf_counter() - start) / calls_made, 1e-7)
    inner = max(1, min(10_000, int(0.002 / per_call)))
    best, start, reps = float("inf"), time.perf_counter(), 0
    while reps < 2 or (reps < max_reps and time.perf_counter() - start < budget):
        t = time.perf_counter()
        for _ in range(inner):
            fn()
        best = min(best, (time.perf_counter() - t) / inner)
        reps += 1
    return max(best, 1e-9)


def cases(quick):
    """(group, label, work, unit, kernel(lib), numpy_fn); work in flops or bytes."""
    rng = np.random.default_rng(0)
    f32, f64 = np.float32, np.float64
    one = f32(1)
    out = []
    for n in ([64, 256, 512] if quick else [64, 128, 256, 512, 1024]):
        a, b = (rng.standard_normal((n, n)).astype(f32) for _ in range(2))
        out.append(("matmul", f"f32 n={n}", 2 * n ** 3, "GFLOP/s",
                    lambda lib, a=a, b=b: calls.matmul(lib, a, b), lambda a=a, b=b: a @ b))
    for n in [256] if quick else [256, 512]:
        a, b = (rng.standard_normal((n, n)) for _ in range(2))
        out.append(("matmul", f"f64 n={n}", 2 * n ** 3, "GFLOP/s",
                    lambda lib, a=a, b=b: calls.matmul(lib, a, b), lambda a=a, b=b: a @ b))
    a, b = (rng.standard_normal((128, 256)).astype(f32) for _ in range(2))
    out.append(("matmul", "f32 128x256 @ (128x256)^T, batch 8", 2 * 8 * 128 * 128 * 256, "GFLOP/s",
                lambda lib: calls.matmul(lib, np.stack([a] * 8), b, False, True),
                lambda: np.stack([a] * 8) @ b.T))
    for n in [100_000] if quick else [10_000, 1_000_000]:
        x, y = (rng.standard_normal(n).astype(f32) for _ in range(2))
        rows = x.reshape(-1, 100)
        bias = y[:100].copy()
        out += [
            ("elementwise", f"add n={n}", 12 * n, "GB/s",
             lambda lib, x=x, y=y: calls.binary(lib, "add", x, y), lambda x=x, y=y: x + y),
            ("elementwise", f"add row bias n={n}", 8 * n, "GB/s",
             lambda lib, r=rows, b=bias: calls.binary(lib, "add", r, b), lambda r=rows, b=bias: r + b),
            ("elementwise", f"mul scalar n={n}", 8 * n, "GB/s",
             lambda lib, x=x: calls.binary(lib, "mul", x, np.asarray(one)), lambda x=x: x * one),
            ("elementwise", f"relu n={n}", 8 * n, "GB/s",
             lambda lib, x=x: calls.unary(lib, "relu", x),
             lambda x=x: np.maximum(x, np.zeros((), f32))),
            ("reduce", f"sum all n={n}", 4 * n, "GB/s",
             lambda lib, x=x: calls.reduce(lib, "sum", x, None, False), lambda x=x: x.sum()),
            ("reduce", f"sum rows of 100 n={n}", 4 * n, "GB/s",
             lambda lib, r=rows: calls.reduce(lib, "sum", r, (1,), False), lambda r=rows: r.sum(1)),
            ("reduce", f"sum columns n={n}", 4 * n, "GB/s",
             lambda lib, r=rows: calls.reduce(lib, "sum", r, (0,), False), lambda r=rows: r.sum(0)),
            ("reduce", f"max rows of 100 n={n}", 4 * n, "GB/s",
             lambda lib, r=rows: calls.reduce(lib, "max", r, (1,), False), lambda r=rows: r.max(1)),
        ]
    for n in [100_000] if quick else [100_000, 1_000_000]:
        g, x = (rng.standard_normal(n).astype(f32) for _ in range(2))
        y = (1 / (1 + np.exp(-x))).astype(f32)
        t = np.tanh(x)
        out += [
            ("fused", f"sigmoid backward n={n}", 12 * n, "GB/s",
             lambda lib, g=g, y=y: calls.sigmoid_grad(lib, g, y),
             lambda g=g, y=y: g * (y * (one - y))),
            ("fused", f"tanh backward n={n}", 12 * n, "GB/s",
             lambda lib, g=g, t=t: calls.tanh_grad(lib, g, t), lambda g=g, t=t: g * (one - t * t)),
            ("fused", f"relu backward n={n}", 12 * n, "GB/s",
             lambda lib, g=g, x=x: calls.relu_grad(lib, g, x),
             lambda g=g, x=x: np.where(x > 0, g, np.zeros((), f32))),
            ("fused", f"softplus backward n={n}", 12 * n, "GB/s",
             lambda lib, g=g, x=x: calls.softplus_grad(lib, g, x),
             lambda g=g, x=x: g * (1.0 / (1.0 + np.exp(-x))).astype(f32)),
        ]
    for m, n in [(256, 10), (256, 1000)] if quick else [(1024, 10), (256, 1000)]:
        x = rng.standard_normal((m, n)).astype(f32)
        z = np.eye(n, dtype=f32)[rng.integers(0, n, m)]
        g = np.full(m, 1 / m, f32)

        def chain(x=x, z=z, g=g):
            e = np.exp(x - x.max(-1, keepdims=True))
            return g[:, None] * (e / e.sum(-1, keepdims=True) - z)
        out.append(("fused", f"softmax xent backward {m}x{n}", 12 * m * n, "GB/s",
                    lambda lib, x=x, z=z, g=g: calls.softmax_xent_grad(lib, x, z, g), chain))
    n = 1_000_000
    w, g = (rng.standard_normal(n).astype(f32) for _ in range(2))
    m, v = np.zeros(n, f32), np.zeros(n, f32)
    lr = f32(0.01)

    def sgd_numpy():
        m2 = m  # the same in-place steps as keras/optimizers.py
        m2 *= 0.9
        m2 -= lr * g
        return w + m2

    def adam_numpy(m=m, v=v):
        m += (g - m) * f32(0.1)
        v += (g * g - v) * f32(0.001)
        return w - f32(0.001) * m / (np.sqrt(v) + f32(1e-7))
    out += [("optimizer", f"SGD momentum n={n}", 20 * n, "GB/s",
             lambda lib: calls.sgd_momentum(lib, w, g, m, 0.01, 0.9, False), sgd_numpy),
            ("optimizer", f"Adam n={n}", 28 * n, "GB/s",
             lambda lib: calls.adam(lib, w, g, m, v, 0.1, 0.001, 0.001, 1e-7), adam_numpy)]
    return out


def runtime():
    if sys.platform == "emscripten":
        import pyodide
        return f"Pyodide {pyodide.__version__}"
    return f"CPython {sys.version.split()[0]}"


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="fewer sizes, shorter timings")
    ap.add_argument("--only", default="", help="comma-separated groups: matmul,elementwise,...")
    args = ap.parse_args(argv)
    lib = dispatch.lib()
    if lib is None:
        print(f"kernel benchmark: no kernels ({dispatch.reason()})")
        return 1
    budget = 0.2 if args.quick else 0.5
    groups = set(filter(None, args.only.split(",")))
    print(f"## kernels in {runtime()}, NumPy {np.__version__}, library: {lib.variant}")
    print(f"{'kernel':40s} {'kernel':>10s} {'NumPy':>10s} {'kernel':>9s} {'NumPy':>9s} {'speedup':>8s}")
    for group, label, work, unit, kernel, numpy_fn in cases(args.quick):
        if groups and group not in groups:
            continue
        tk = best_time(lambda: kernel(lib), budget)
        # NumPy's slowest cases (a 1024^3 matmul in Pyodide takes seconds): fewer runs
        tn = best_time(numpy_fn, budget, max_reps=3 if work > 1e9 else 50)
        scale = 1e9
        print(f"{group + ': ' + label:40s} {tk * 1e3:8.3f}ms {tn * 1e3:8.3f}ms "
              f"{work / tk / scale:9.2f} {work / tn / scale:9.2f} {tn / tk:7.1f}x  {unit}",
              flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
