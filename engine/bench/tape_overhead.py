"""Prints the tape's cost per op: issue 8's W1 workload, forward and backward.

    python engine/bench/tape_overhead.py [--ops 1000] [--repeat 30] [--warmup 3]
                                         [--no-source-lines] [--module-level] [--json]

W1: x is a float32[16] tf.Variable; inside a GradientTape, y = y * 1.0001 is recorded 1,000 times
(starting from y = x) and loss = tf.reduce_sum(y); then tape.gradient(loss, x). Reports, after a
warm-up, the median over repeats in µs per op of the forward part (recording, ``with`` block), the
backward part (``gradient``), and both together, which is the W1 figure (issue 8's goal: at most
5 µs natively, 15 µs in Pyodide). By default each record keeps its source line, as the playground
needs for its graph and timeline; ``--no-source-lines`` turns that off to show what it costs.
``--module-level`` runs the chain as top-level code, as the playground runs a user's script.

Inside Pyodide: node build/run_in_pyodide.mjs engine/bench/tape_overhead.py
"""
import argparse
import json
import platform
import statistics
import sys
import time

import numpy as np

import tapegrad as tf

SIZE = 16
FACTOR = 1.0001

_MODULE_LEVEL = compile("""
with tf.GradientTape() as tape:
    y = x
    for _ in range(n_ops):
        y = y * 1.0001
    loss = tf.reduce_sum(y)
""", "<W1 script>", "exec")


def run(n_ops, module_level=False):
    """One W1 run: (forward seconds, backward seconds)."""
    x = tf.Variable(np.ones(SIZE, np.float32))
    if module_level:
        scope = {"tf": tf, "x": x, "n_ops": n_ops}
        t0 = time.perf_counter()
        exec(_MODULE_LEVEL, scope)
        t1 = time.perf_counter()
        tape, loss = scope["tape"], scope["loss"]
    else:
        t0 = time.perf_counter()
        with tf.GradientTape() as tape:
            y = x
            for _ in range(n_ops):
                y = y * FACTOR
            loss = tf.reduce_sum(y)
        t1 = time.perf_counter()
    g = tape.gradient(loss, x)
    t2 = time.perf_counter()
    expected = FACTOR ** n_ops
    assert abs(float(g[0]) - expected) < 1e-3 * expected, (float(g[0]), expected)
    return t1 - t0, t2 - t1


def measure(n_ops=1000, repeat=30, warmup=3, source_lines=True, module_level=False):
    """Medians in µs per op: {"forward", "backward", "total"} (total: median of the sums)."""
    import tapegrad.recording as recording
    saved = recording.capture_source_lines
    recording.capture_source_lines = source_lines
    try:
        for _ in range(warmup):
            run(n_ops, module_level)
        fwd, bwd, tot = [], [], []
        for _ in range(repeat):
            f, b = run(n_ops, module_level)
            fwd.append(f)
            bwd.append(b)
            tot.append(f + b)
    finally:
        recording.capture_source_lines = saved
    us = 1e6 / n_ops
    return {"forward": statistics.median(fwd) * us, "backward": statistics.median(bwd) * us,
            "total": statistics.median(tot) * us}


def _where():
    where = "Pyodide" if sys.platform == "emscripten" else platform.machine()
    text = f"Python {platform.python_version()}, NumPy {np.__version__}, {where}"
    try:
        with open("/proc/loadavg") as f:
            text += ", load " + " ".join(f.read().split()[:3])
    except OSError:
        pass
    return text


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--ops", type=int, default=1000)
    ap.add_argument("--repeat", type=int, default=30)
    ap.add_argument("--warmup", type=int, default=3)
    ap.add_argument("--no-source-lines", action="store_true",
                    help="do not capture the user's source line per op")
    ap.add_argument("--module-level", action="store_true",
                    help="run the chain as top-level code (as the playground runs scripts)")
    ap.add_argument("--json", action="store_true", help="print one JSON object instead")
    args = ap.parse_args(argv)
    r = measure(args.ops, args.repeat, args.warmup, not args.no_source_lines, args.module_level)
    if args.json:
        print(json.dumps({"workload": "W1", "ops": args.ops, "repeat": args.repeat,
                          "source_lines": not args.no_source_lines,
                          "module_level": args.module_level, "us_per_op": r,
                          "environment": _where()}))
        return
    mode = "no source lines" if args.no_source_lines else "with source lines"
    if args.module_level:
        mode += ", module level"
    print(f"tape overhead (W1), {args.ops}-op chain, {mode}, median of {args.repeat}:")
    print(f"  ({_where()})")
    print(f"  forward (record) {r['forward']:6.2f} us/op")
    print(f"  backward         {r['backward']:6.2f} us/op")
    print(f"  total            {r['total']:6.2f} us/op")


if __name__ == "__main__":
    main()
