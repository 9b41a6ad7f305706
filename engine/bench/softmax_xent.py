"""Times the engine's softmax cross-entropy backward (the logits' gradient of the mean loss over a
batch), natively or in Pyodide (``npm run pyodide -- engine/bench/softmax_xent.py``).

    python engine/bench/softmax_xent.py [--kernels 0|1] [--rows 256] [--classes 1000]

``--kernels 0`` sets ``TAPEGRAD_KERNELS=0`` before the engine is imported (the same as setting it
in the environment, which a Pyodide script cannot inherit). Reports the best and median time per
call of ``tape.gradient`` on a persistent tape (the Mean's backward plus
SoftmaxCrossEntropyWithLogits' backward), and of the primitive's VJP alone; with kernels on, the
same again inside ``kernels.disabled()`` (the table's rule on NumPy).

Natively, glibc maps each fresh 1 MB buffer with mmap and the first writes fault its pages in,
which adds a few hundred microseconds that depend on the process's allocation history; for
figures that compare the computations, pin the allocator:
``MALLOC_MMAP_THRESHOLD_=67108864 MALLOC_TRIM_THRESHOLD_=134217728``.
"""
import argparse
import os
import statistics
import sys
import time


def timed(fn, reps):
    fn()
    times = []
    for _ in range(reps):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return min(times), statistics.median(times)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--kernels", choices=["0", "1"], default=None)
    ap.add_argument("--rows", type=int, default=256)
    ap.add_argument("--classes", type=int, default=1000)
    ap.add_argument("--reps", type=int, default=30)
    args = ap.parse_args()
    if args.kernels is not None:
        os.environ["TAPEGRAD_KERNELS"] = args.kernels
    import numpy as np

    import tapegrad as tf
    from tapegrad import kernels
    from tapegrad.table import TABLE

    rng = np.random.default_rng(0)
    m, n = args.rows, args.classes
    logits = tf.constant(rng.standard_normal((m, n)).astype(np.float32))
    labels = tf.constant(np.eye(n, dtype=np.float32)[rng.integers(0, n, m)])
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(logits)
        per_row = tf.nn.softmax_cross_entropy_with_logits(labels=labels, logits=logits)
        loss = tf.reduce_mean(per_row)
    prim = TABLE["SoftmaxCrossEntropyWithLogits"]
    g = tf.fill((m,), np.float32(1 / m))
    attrs = {"axis": 1}

    def gradient():
        return tape.gradient(loss, logits)

    def vjp():
        return prim.vjp(g, per_row, (logits, labels), attrs, (True, False))

    status = kernels.status()
    where = "pyodide" if sys.platform == "emscripten" else "native"
    print(f"{where}: softmax cross-entropy backward, {m}x{n} float32; kernels "
          f"{'on (' + str(status['variant']) + ')' if status['enabled'] else 'off'}, threshold "
          f"{status['thresholds'].get('softmax_xent')}")
    rows = [("as configured", gradient, vjp)]
    if status["enabled"]:
        def off(fn):
            def run():
                with kernels.disabled():
                    return fn()
            return run
        rows.append(("kernels.disabled()", off(gradient), off(vjp)))
    results = {}
    for label, grad_fn, vjp_fn in rows:
        results[label] = grad_fn().numpy()
        gb, gm = timed(grad_fn, args.reps)
        vb, vm = timed(vjp_fn, args.reps)
        print(f"  {label:20s} tape.gradient best {gb * 1e3:7.3f} ms  median {gm * 1e3:7.3f} ms |"
              f" VJP alone best {vb * 1e3:7.3f} ms  median {vm * 1e3:7.3f} ms")
    if len(results) == 2:
        a, b = results.values()
        print(f"  max |kernel - NumPy| = {float(np.abs(a - b).max()):.3g}")


if __name__ == "__main__":
    main()
