"""Prints the tape's cost per op: a 1,000-op chain recorded and differentiated.

    python engine/bench/tape_overhead.py [--ops 1000] [--repeat 30]

x is a float32[16] variable; y = y * 1.0001 is recorded 1,000 times, then the gradient of
reduce_sum(y) is taken. Reports the median over repeats, after a warm-up, in µs per op for the
forward (recording) part, the backward part, and both together.
"""
import argparse
import statistics
import time

import numpy as np

import tapegrad as tf


def run(n_ops):
    x = tf.Variable(np.ones(16, np.float32))
    t0 = time.perf_counter()
    with tf.GradientTape() as tape:
        y = x
        for _ in range(n_ops):
            y = y * 1.0001
        loss = tf.reduce_sum(y)
    t1 = time.perf_counter()
    g = tape.gradient(loss, x)
    t2 = time.perf_counter()
    expected = 1.0001 ** n_ops
    assert abs(float(g[0]) - expected) < 1e-3 * expected, (float(g[0]), expected)
    return t1 - t0, t2 - t1


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--ops", type=int, default=1000)
    ap.add_argument("--repeat", type=int, default=30)
    ap.add_argument("--no-source-lines", action="store_true",
                    help="do not capture the user's source line per op")
    args = ap.parse_args(argv)
    if args.no_source_lines:
        import tapegrad.recording as recording
        recording.capture_source_lines = False
    for _ in range(3):
        run(args.ops)
    fwd, bwd = [], []
    for _ in range(args.repeat):
        f, b = run(args.ops)
        fwd.append(f)
        bwd.append(b)
    us = 1e6 / args.ops
    f, b = statistics.median(fwd) * us, statistics.median(bwd) * us
    print(f"tape overhead, {args.ops}-op chain, median of {args.repeat}:")
    print(f"  forward (record) {f:6.2f} us/op")
    print(f"  backward         {b:6.2f} us/op")
    print(f"  total            {f + b:6.2f} us/op")


if __name__ == "__main__":
    main()
