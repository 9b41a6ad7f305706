"""Time to export a ~1,000-node tape as the page's graph JSON (issue 4's "under a second").

    python engine/bench/graph_export.py [--ops 333] [--runs 5]
    npm run pyodide -- engine/bench/graph_export.py        (the same inside Pyodide)
"""
import argparse
import statistics
import sys
import time

import numpy as np

import tapegrad as tf
from tapegrad.graph import capture
from tapegrad.graph.export import to_json


def export_once(ops: int) -> tuple[int, float]:
    with capture() as cap:
        x = tf.Variable(np.ones(4, np.float32))
        with tf.GradientTape() as tape:
            y = x
            for _ in range(ops):          # each op adds an op node, its output and a constant
                y = y * 1.0001
            loss = tf.reduce_sum(y)
        tape.gradient(loss, x)
    t0 = time.perf_counter()
    doc = cap.to_dict(max_nodes=10 * ops)
    to_json(doc)
    return len(doc["nodes"]), time.perf_counter() - t0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--ops", type=int, default=333)
    ap.add_argument("--runs", type=int, default=5)
    args = ap.parse_args()
    export_once(10)                       # warm-up: imports, caches
    results = [export_once(args.ops) for _ in range(args.runs)]
    nodes = results[0][0]
    times = [t for _, t in results]
    print(f"graph export, {nodes} nodes ({sys.platform}, Python {sys.version.split()[0]}): "
          f"median {statistics.median(times) * 1000:.0f} ms over {args.runs} runs "
          f"(min {min(times) * 1000:.0f}, max {max(times) * 1000:.0f})")


if __name__ == "__main__":
    main()
