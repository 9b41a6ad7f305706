"""Graph export of big tapes: time, peak memory and JSON size, and the page's draw time.

    python engine/bench/graph_export.py                      1k/10k/100k/200k-op tapes
    python engine/bench/graph_export.py --ops 1000 10000     chosen sizes
    python engine/bench/graph_export.py --page               also the page's draw times (each
                                                             size, --page-runs fresh tabs; needs
                                                             dist/ or TAPEGRAD_DIST, Chromium)
    npm run pyodide -- engine/bench/graph_export.py --ops 1000 10000   (inside Pyodide)

Each size runs in a fresh process (natively), so its peak memory is its own: the export's peak is
the process's peak resident memory (VmHWM) less what it held before the export; "CPU s" is the
process's CPU time for it (the wall time less what other processes took). The tape is a
chain ``y = y * 1.0001`` (each op adds an op node, its output and a constant: 3 nodes per op), the
shape of a long training loop's tape. Issue 28's goal: 200k ops under 10 s and 1 GB. The page's
draw times are measured in headless Chromium, each run in a fresh tab: from the run's last printed
line to the first drawing (a big tape's preview, its collapsed view: docs/graph-json.md) and to
the whole document drawn (the export inside Pyodide, the message and the drawing), each with the
panel's own part (``data-render-ms``: the JSON read, indexed and drawn).
"""
import argparse
import json
import os
import subprocess
import sys
import time

import numpy as np

import tapegrad as tf
from tapegrad.graph import capture
from tapegrad.graph.export import to_json

SIZES = (1_000, 10_000, 100_000, 200_000)


def _rss_mb(field):
    """VmRSS or VmHWM of this process in MB (None where /proc is missing: Pyodide, macOS)."""
    try:
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith(field + ":"):
                    return int(line.split()[1]) / 1024
    except OSError:
        return None
    return None


def record_chain(ops: int):
    """The capture of an ``ops``-op tape y = y * 1.0001 ... then its sum, and its gradient call
    (also tests/engine/test_graph_export.py's tape)."""
    with capture() as cap:
        x = tf.Variable(np.ones(4, np.float32), name="x")
        with tf.GradientTape() as tape:
            y = x
            for _ in range(ops - 1):
                y = y * 1.0001
            loss = tf.reduce_sum(y)
        tape.gradient(loss, x)
    return cap


def export_once(ops: int) -> dict:
    """Records an ``ops``-op tape, then exports it; the numbers of the export."""
    cap = record_chain(ops)
    before = _rss_mb("VmRSS")
    t0, c0 = time.perf_counter(), time.process_time()
    doc = cap.to_dict()
    text = to_json(doc)
    seconds, cpu = time.perf_counter() - t0, time.process_time() - c0
    peak = _rss_mb("VmHWM")
    nodes = doc["summarized"]["original_nodes"] if doc.get("summarized") else len(doc["nodes"])
    return {"ops": ops, "nodes": nodes, "seconds": seconds, "cpu": cpu, "json_mb": len(text) / 1e6,
            "peak_mb": None if peak is None else peak - before}


def _in_fresh_process(ops):
    out = subprocess.run([sys.executable, __file__, "--one", str(ops)], capture_output=True,
                         text=True, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def page_draw_times(sizes, runs, idle):
    """{ops: [(ms to the first drawing, the panel's ms for it, ms to the whole document drawn,
    the panel's ms for it)] per run, each in a fresh tab} in headless Chromium; ``idle``: each
    run once the worker has warmed the graph export at idle after its boot."""
    here = os.path.dirname(os.path.abspath(__file__))
    sys.path.insert(0, os.path.join(here, "..", "..", "tests", "browser"))
    from test_graph_export import CHAIN, draw_times  # lazy: Playwright, only with --page
    return draw_times({ops: CHAIN.format(ops=ops) for ops in sizes}, runs=runs, idle=idle)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--ops", type=int, nargs="*", default=list(SIZES))
    ap.add_argument("--page", action="store_true", help="also the page's draw times")
    ap.add_argument("--page-runs", type=int, default=3, help="fresh tabs per size (--page)")
    ap.add_argument("--page-when", choices=("both", "at-once", "idle"), default="both",
                    help="--page: run as soon as the page is ready, once the worker warmed up, or both")
    ap.add_argument("--one", type=int, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.one:
        print(json.dumps(export_once(args.one)))
        return
    fresh = sys.platform != "emscripten"
    print(f"graph export ({sys.platform}, Python {sys.version.split()[0]}):")
    print(f"{'ops':>9} {'nodes':>9} {'export s':>9} {'CPU s':>7} {'peak MB':>8} {'JSON MB':>8} "
          f"{'bytes/node':>10}")
    for ops in args.ops:
        r = _in_fresh_process(ops) if fresh else export_once(ops)
        peak = "?" if r["peak_mb"] is None else f"{r['peak_mb']:.0f}"
        print(f"{r['ops']:>9} {r['nodes']:>9} {r['seconds']:>9.2f} {r['cpu']:>7.2f} {peak:>8} "
              f"{r['json_mb']:>8.2f} "
              f"{r['json_mb'] * 1e6 / r['nodes']:>10.1f}", flush=True)
    if args.page:
        print("page (headless Chromium, a fresh tab each run): ms from the run's last printed line "
              "to the first drawing (a big tape's preview) and to the whole graph drawn, the export "
              "in Pyodide included; in brackets the panel's own part (data-render-ms)")
        print("long task: the longest task on the page's main thread from the first drawing to a "
              "second after the whole graph's (Performance long tasks; input waits that long)")
        print(f"{'ops':>9} {'run':>4} {'first ms':>9} {'(panel)':>8} {'whole ms':>9} {'(panel)':>8} "
              f"{'long task':>9}")
        for idle in {"both": (False, True), "at-once": (False,), "idle": (True,)}[args.page_when]:
            print("run once the worker has warmed up at idle after its boot" if idle else
                  "run at once (the page's Run as soon as it is ready)")
            for ops, runs in page_draw_times(args.ops, args.page_runs, idle).items():
                for i, (first, first_panel, whole, whole_panel, longest) in enumerate(runs, 1):
                    print(f"{ops:>9} {i:>4} {first:>9.0f} {first_panel:>8.0f} {whole:>9.0f} "
                          f"{whole_panel:>8.0f} {longest:>9.0f}", flush=True)


if __name__ == "__main__":
    main()
