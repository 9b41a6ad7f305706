"""Threads in the browser (issue 34, item 3): runs inside Pyodide, in the worker that
tests/browser/bench_kernels.py --threads starts with the kernel pool attached (web/src/kernel-pool.js).
Times bare products, the pool's fixed cost, and the W3 and CNN training steps with one thread and
with all, interleaved round by round; prints the medians and each round's speedup.

  .venv/bin/python tests/browser/bench_kernels.py --threads [--dist DIR] [-- ROUNDS [bare]]
(bare: only the products, without the training steps)
"""
import sys
import time

import numpy as np
import tapegrad as tf
from tapegrad.kernels import calls, dispatch, threads

ROUNDS = int(sys.argv[1]) if len(sys.argv) > 1 else 5
BARE_ONLY = "bare" in sys.argv[2:]     # only the bare products (the pool in isolation)
ALL = threads.count()
lib = dispatch.lib()
print(f"## threads: {ALL} (navigator.hardwareConcurrency), kernels {lib.variant}, pool limit {threads.POOL_LIMIT} multiply-adds")


def per_call(fn, budget=0.25, least=3):
    """Median seconds of fn over at least `least` calls and about `budget` seconds."""
    fn()
    times, start = [], time.perf_counter()
    while len(times) < least or time.perf_counter() - start < budget:
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return float(np.median(times))


def paired(name, unit_ms, fn, budget=0.25):
    """Each round times fn with one thread, then with all (interleaved); prints both medians and
    the per-round speedups."""
    ones, alls = [], []
    for _ in range(ROUNDS):
        threads.set_count(1)
        ones.append(per_call(fn, budget))
        threads.set_count(ALL)
        alls.append(per_call(fn, budget))
    ratios = sorted(o / a for o, a in zip(ones, alls))
    f = (lambda s: f"{s * 1e3:.3f} ms") if unit_ms else (lambda s: f"{s * 1e6:.0f} us")
    print(f"{name:<34} 1 thread {f(np.median(ones)):>11}   {ALL} threads {f(np.median(alls)):>11}"
          f"   speedup median {np.median(ratios):.2f}x (rounds {', '.join(f'{r:.2f}' for r in ratios)})",
          flush=True)


def gemm(m, k, n):
    rng = np.random.default_rng(0)
    a = rng.standard_normal((m, k)).astype(np.float32)
    b = rng.standard_normal((k, n)).astype(np.float32)
    return lambda: calls.matmul(lib, a, b)


def w3_step(batch):
    rng = np.random.default_rng(0)
    sizes = (784, 256, 10)
    layers = []
    for n_in, n_out in zip(sizes[:-1], sizes[1:]):
        lim = np.sqrt(6.0 / (n_in + n_out))
        layers.append((tf.Variable(rng.uniform(-lim, lim, (n_in, n_out)).astype(np.float32)),
                       tf.Variable(np.zeros(n_out, np.float32))))
    variables = [v for layer in layers for v in layer]
    x = tf.constant(rng.standard_normal((batch, 784)).astype(np.float32))
    labels = tf.constant(rng.integers(0, 10, batch).astype(np.int32))

    def step():
        with tf.GradientTape() as tape:
            h = x
            for i, (w, b) in enumerate(layers):
                h = tf.matmul(h, w) + b
                if i < len(layers) - 1:
                    h = tf.nn.relu(h)
            loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=labels, logits=h))
        for v, g in zip(variables, tape.gradient(loss, variables)):
            v.assign_sub(0.01 * g)
    return step


def cnn_step(batch=64):
    rng = np.random.default_rng(0)
    def glorot(shape, fan_in, fan_out):
        lim = np.sqrt(6.0 / (fan_in + fan_out))
        return rng.uniform(-lim, lim, shape).astype(np.float32)
    variables = [tf.Variable(a) for a in (
        glorot((3, 3, 1, 16), 9, 144), np.zeros(16, np.float32),
        glorot((3, 3, 16, 32), 144, 288), np.zeros(32, np.float32),
        glorot((5 * 5 * 32, 10), 800, 10), np.zeros(10, np.float32))]
    w1, b1, w2, b2, w3, b3 = variables
    x = tf.constant(rng.standard_normal((batch, 28, 28, 1)).astype(np.float32))
    labels = tf.constant(rng.integers(0, 10, batch).astype(np.int32))

    def step():
        with tf.GradientTape() as tape:
            h = tf.nn.relu(tf.nn.conv2d(x, w1, 1, "VALID") + b1)
            h = tf.nn.max_pool2d(h, 2, 2, "VALID")
            h = tf.nn.relu(tf.nn.conv2d(h, w2, 1, "VALID") + b2)
            h = tf.nn.max_pool2d(h, 2, 2, "VALID")
            logits = tf.matmul(tf.reshape(h, (h.shape[0], -1)), w3) + b3
            loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=labels, logits=logits))
        for v, g in zip(variables, tape.gradient(loss, variables)):
            v.assign_sub(0.01 * g)
    return step


def products_of(step):
    """(m, k, n, batch, went to the pool, ms) of each kernel product one step makes."""
    seen, real = [], calls.matmul
    def spy(lib_, a, b, transpose_a=False, transpose_b=False):
        before = threads.split()
        t = time.perf_counter()
        out = real(lib_, a, b, transpose_a, transpose_b)
        t = time.perf_counter() - t
        m, n = out.shape[-2:]
        k = a.shape[-2] if transpose_a else a.shape[-1]
        seen.append((m, k, n, out.size // max(m * n, 1), threads.split() > before, round(t * 1e3, 3)))
        return out
    calls.matmul = spy
    try:
        step()
    finally:
        calls.matmul = real
    return seen


print("## bare products (the kernel alone, no tape)")
for m, k, n in [(64, 64, 64), (128, 128, 128), (96, 96, 128), (256, 256, 256), (256, 784, 256),
                (784, 256, 256), (512, 512, 512)]:
    paired(f"gemm {m}x{k} @ {k}x{n}", m * n * k >= 2_000_000, gemm(m, k, n))
print("## pool overhead: a tiny product forced through the pool (limit 0)")
limit, threads.POOL_LIMIT = threads.POOL_LIMIT, 0
paired("gemm 8x8 @ 8x8 forced", False, gemm(8, 8, 8), budget=0.1)
paired("gemm 64x64 @ 64x64 forced", False, gemm(64, 64, 64), budget=0.1)
threads.POOL_LIMIT = limit
print("## training steps")
for name, step in [] if BARE_ONLY else [("W3-b256", w3_step(256)), ("W3-b64", w3_step(64)), ("CNN-step b64", cnn_step())]:
    for count in (1, ALL):
        threads.set_count(count)
        step()
        ps = products_of(step)
        t = time.perf_counter()
        step()
        t = time.perf_counter() - t
        print(f"{name}, {count} thread(s): step {t * 1e3:.2f} ms, of which products "
              f"{sum(p[-1] for p in ps):.2f} ms: (m, k, n, batch, pooled, ms) {ps}")
    paired(f"{name} step", True, step, budget=1.0)
