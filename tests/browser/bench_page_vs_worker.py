"""What the playground page's own work costs a `fit` (issue 34 item 2: at most 10% of a step
against a bare worker; issue 28 item 3: the live graph at most 5%).

The same two fits run, in headless Chromium, in
  bare   a bare Web Worker: the dist's Pyodide and tapegrad wheel (the kernel pool attached, as
         the page does), no playground runtime; Keras's output goes to a line callback;
  off    the playground page, its live graph off (LiveSteps.EVERY_S = inf);
  on     the playground page as shipped (live graph at most once a second);
rounds interleaved, the order of the three rotated each round. Programs:
  mlp    web/examples/17_mlp_digits.py's model (64 -> 32 -> 10) on the bundled digits, batch 32;
  cnn    Conv2D 16 3x3 -> pool -> Conv2D 32 3x3 -> pool -> Dense 10 on 2,048 seeded 28x28
         images, batch 64 (issue 34's CNN).
Each run is timed inside Python (perf_counter around model.fit); the figure is ms per step. The
wall clock of this shared machine moves 2-4x, so besides per-round ratios (paired, each round's
three runs back to back) two load-proof figures are printed:
  extras   in the page, the worker's own time inside the runtime's hooks (the training feed,
           the graph capture, the live graph's exports, the output batcher), timed in place by
           wrappers installed before the run, as a share of the fit's time;
  main     the page's main thread's busy time during the run (Chrome's TaskDuration through the
           DevTools protocol): the charts and the console, which take a core from the worker.
and the load average at each round, and the Pyodide heap's size after each run.

  .venv/bin/python tests/browser/bench_page_vs_worker.py [--dist DIR] [--rounds N]
      [--mlp-epochs N] [--cnn-epochs N] [--only mlp,cnn]
A benchmark, not a test: the figures are printed, nothing is asserted.
"""
from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_kernels import start_server  # noqa: E402
from conftest import CHROMIUM, CHROMIUM_ARGS, DIST, Playground  # noqa: E402

# The gallery's digits MLP (web/examples/17_mlp_digits.py) up to its fit, fitted here with the
# bench's own batch size and epochs.
_EXAMPLE = (Path(__file__).resolve().parents[2] / "web" / "examples" / "17_mlp_digits.py").read_text()
MLP = _EXAMPLE[:_EXAMPLE.index("model.fit(")] + """
BATCH = 32
FIT = lambda: model.fit(x_train, y_train, epochs=EPOCHS, batch_size=BATCH)
STEPS = EPOCHS * -(-len(x_train) // BATCH)
"""
CNN = """
import numpy as np
import tensorflow as tf
tf.keras.utils.set_random_seed(0)
rng = np.random.default_rng(0)
x_train = rng.random((2048, 28, 28, 1), dtype=np.float32)
y_train = rng.integers(0, 10, 2048).astype(np.int32)
model = tf.keras.Sequential([
    tf.keras.Input(shape=(28, 28, 1)),
    tf.keras.layers.Conv2D(16, 3, activation="relu"), tf.keras.layers.MaxPooling2D(2),
    tf.keras.layers.Conv2D(32, 3, activation="relu"), tf.keras.layers.MaxPooling2D(2),
    tf.keras.layers.Flatten(), tf.keras.layers.Dense(10),
], name="cnn")
model.compile(optimizer="adam", loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True),
              metrics=["accuracy"])
BATCH = 64
FIT = lambda: model.fit(x_train, y_train, epochs=EPOCHS, batch_size=BATCH)
STEPS = EPOCHS * -(-len(x_train) // BATCH)
"""
TIMED = """
import time as _time
_started = _time.perf_counter()
FIT()
_took = _time.perf_counter() - _started
try:
    import pyodide_js
    _heap = pyodide_js._module.HEAP8.length / 2**20
except Exception:
    _heap = 0.0
import sys as _sys
_extras = getattr(_sys, "_bench_extras", {})
print("BENCH " + __import__("json").dumps({"s": _took, "steps": STEPS, "heap_mb": _heap,
                                           "extras": dict(_extras)}))
"""

# Run in the page before each timed run: the live graph on or off, and wrappers that add the
# time spent inside the runtime's per-step hooks to sys._bench_extras (installed once, reset at
# each run). Outermost hooks only, so that nothing is counted twice.
EXTRAS = """
import sys, time
import playground_runtime.graph as graph
import playground_runtime.output as output
import playground_runtime.training as training
import tapegrad.graph.capturing as capturing
import tapegrad.graph.training_view as training_view
training_view.LiveSteps.EVERY_S = {every}
sys._bench_extras = {{}}
HOOKS = {{
    "feed": [(training._FitObserver, n) for n in ("on_train_batch_end", "on_epoch_end",
              "on_train_begin", "on_train_end", "on_epoch_begin", "on_test_begin", "on_test_end")],
    "capture": [(capturing.Capture, "on_gradient"), (capturing.Capture, "_on_tape")],
    "live": [(training_view.LiveSteps, "after_gradient"), (training_view.LiveSteps, "on_tape")],
    "output": [(output.OutputBatcher, "write"), (output.OutputBatcher, "due")],
}}
def wrap(owner, name, key):
    f = owner.__dict__[name]
    if getattr(f, "_bench", False):
        return
    def timed(*a, **k):
        t = time.perf_counter()
        try:
            return f(*a, **k)
        finally:
            box = sys._bench_extras
            box[key] = box.get(key, 0.0) + time.perf_counter() - t
    timed._bench = True
    setattr(owner, name, timed)
for key, hooks in HOOKS.items():
    for owner, name in hooks:
        if name in owner.__dict__:
            wrap(owner, name, key)
"""

# The bare worker: Pyodide from the dist, the tapegrad wheel, the kernel pool attached as the
# playground's worker attaches it; runs each program it is sent, its stdout and stderr batched
# into lines (the program's BENCH line is kept).
WORKER = r"""
importScripts(self.origin + "/PYODIDE/pyodide.js");
importScripts(self.origin + "/assets/kernel-pool.js");
const pool = tapegradKernelPool.createKernelPool(self.origin + "/assets/kernel-pool-worker.js");
let lines = [];
const ready = loadPyodide({
  indexURL: self.origin + "/PYODIDE/", packages: ["tapegrad"],
  stdout: (line) => lines.push(line), stderr: (line) => lines.push(line),
}).then((pyodide) => {
  if (pool) {
    pool.attach(pyodide);
    pyodide.pyimport("tapegrad.kernels.threads").attach(pool);
  }
  pyodide.runPython("import sys, tapegrad; sys.modules['tensorflow'] = tapegrad");
  return pyodide;
});
onmessage = async ({ data }) => {
  try {
    const pyodide = await ready;
    lines = [];
    pyodide.runPython(data.code, { globals: pyodide.toPy({ __name__: "__main__" }) });
    postMessage({ done: true, lines });
  } catch (err) {
    postMessage({ done: true, error: String(err), lines });
  }
};
"""
START_WORKER = """(source) => {
  const url = URL.createObjectURL(new Blob([source], { type: "text/javascript" }));
  window.__worker = new Worker(url);
  window.__run = (code) => new Promise((resolve) => {
    window.__worker.onmessage = ({ data }) => resolve(data);
    window.__worker.postMessage({ code });
  });
}"""


def program(name: str, epochs: int) -> str:
    return (MLP if name == "mlp" else CNN).replace("EPOCHS", str(epochs)) + TIMED


def figures(lines: list[str]) -> dict:
    for line in reversed(lines):
        if line.startswith("BENCH "):
            return json.loads(line[6:])
    raise RuntimeError("no BENCH line in the run's output:\n" + "\n".join(lines[-30:]))


class Bare:
    def __init__(self, browser, origin: str, pyodide_dir: str):
        self.page = browser.new_page()
        # A blank same-origin document hosts the worker, cross-origin isolated as the playground
        # (the served pages' Content-Security-Policy refuses blob: workers).
        self.page.route(origin + "/bare-bench", lambda route: route.fulfill(
            status=200, content_type="text/html", body="<!doctype html><title>bare</title>",
            headers={"Cross-Origin-Opener-Policy": "same-origin",
                     "Cross-Origin-Embedder-Policy": "require-corp"}))
        self.page.goto(origin + "/bare-bench")
        self.page.evaluate(START_WORKER, WORKER.replace("PYODIDE", pyodide_dir))
        self.cdp = self.page.context.new_cdp_session(self.page)
        self.cdp.send("Performance.enable")

    def run(self, code: str) -> dict:
        out = self.page.evaluate("(code) => window.__run(code)", code)
        if out.get("error"):
            raise RuntimeError(out["error"] + "\n" + "\n".join(out["lines"][-20:]))
        return figures(out["lines"])


class Page:
    def __init__(self, browser, origin: str):
        self.page = browser.new_page(viewport={"width": 1366, "height": 768})
        self.page.goto(origin + "/")
        self.play = Playground(self.page)
        self.play.wait_ready(300_000)
        self.cdp = self.page.context.new_cdp_session(self.page)
        self.cdp.send("Performance.enable")

    def main_busy(self) -> float:
        metrics = self.cdp.send("Performance.getMetrics")["metrics"]
        return next(m["value"] for m in metrics if m["name"] == "TaskDuration")

    def run(self, code: str, live: bool) -> dict:
        self.play.set_code(EXTRAS.format(every="1.0" if live else "float('inf')"))
        assert self.play.run(300_000) == "ok", self.play.last_run_output()
        self.play.set_code(code)
        busy = self.main_busy()
        assert self.play.run(600_000) == "ok", self.play.last_run_output()
        out = figures(self.play.last_run_output().splitlines())
        out["main_s"] = self.main_busy() - busy
        return out


def per_step_ms(r: dict) -> float:
    return 1000 * r["s"] / r["steps"]


def spread(xs: list[float]) -> str:
    xs = sorted(xs)
    return f"median {statistics.median(xs):.3f} (min {xs[0]:.3f}, max {xs[-1]:.3f}; {', '.join(f'{x:.3f}' for x in xs)})"


def summary(name: str, runs: dict) -> dict:
    """runs: {mode: [figures per round]} -> printed and returned figures."""
    ms = {mode: [per_step_ms(r) for r in rs] for mode, rs in runs.items()}
    out = {"ms_per_step": {m: round(statistics.median(v), 3) for m, v in ms.items()}}
    print(f"\n== {name}: ms per step, median over rounds: "
          + ", ".join(f"{m} {statistics.median(v):.2f}" for m, v in ms.items()))
    for a, b in (("off", "bare"), ("on", "bare"), ("on", "off")):
        ratios = [x / y for x, y in zip(ms[a], ms[b])]
        out[f"{a}/{b}"] = round(statistics.median(ratios), 3)
        print(f"   {a}/{b} per round: {spread(ratios)}")
    for mode in ("off", "on"):
        shares = [100 * sum(r["extras"].values()) / r["s"] for r in runs[mode]]
        parts = {k: statistics.median(100 * r["extras"].get(k, 0) / r["s"] for r in runs[mode])
                 for k in ("feed", "capture", "live", "output")}
        main = [100 * r["main_s"] / r["s"] for r in runs[mode]]
        out[f"extras_pct_{mode}"] = round(statistics.median(shares), 2)
        out[f"main_pct_{mode}"] = round(statistics.median(main), 2)
        print(f"   page {mode}: the worker's extras {statistics.median(shares):.2f}% of the fit "
              f"(" + ", ".join(f"{k} {v:.2f}%" for k, v in parts.items()) + "); "
              f"the main thread busy {statistics.median(main):.1f}% of the fit's time")
    heaps = {m: max(r["heap_mb"] for r in rs) for m, rs in runs.items()}
    out["heap_mb"] = heaps
    print("   Pyodide heap after the fit, MB (largest): "
          + ", ".join(f"{m} {h:.0f}" for m, h in heaps.items()))
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--dist", type=Path, default=DIST)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--mlp-epochs", type=int, default=6)
    ap.add_argument("--cnn-epochs", type=int, default=3)
    ap.add_argument("--only", default="mlp,cnn")
    ap.add_argument("--reduced-motion", action="store_true",
                    help="the page emulates prefers-reduced-motion (the graph's marching edges stop)")
    args = ap.parse_args()
    names = args.only.split(",")
    epochs = {"mlp": args.mlp_epochs, "cnn": args.cnn_epochs}
    pyodide_dir = next(p.name for p in args.dist.iterdir() if p.name.startswith("pyodide-"))
    from playwright.sync_api import sync_playwright
    server, origin = start_server(args.dist.resolve())
    results = {name: {"bare": [], "off": [], "on": []} for name in names}
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
            print(f"## headless Chromium {browser.version}, dist {args.dist}", flush=True)
            bare, page = Bare(browser, origin, pyodide_dir), Page(browser, origin)
            if args.reduced_motion:
                page.page.emulate_media(reduced_motion="reduce")
            for name in names:     # a first run of each, not counted: imports, warm-up
                bare.run(program(name, 1))
                page.run(program(name, 1), True)
            modes = ["bare", "off", "on"]
            for r in range(args.rounds):
                order = modes[r % 3:] + modes[:r % 3]
                for name in names:
                    code = program(name, epochs[name])
                    line = []
                    for mode in order:
                        got = bare.run(code) if mode == "bare" else page.run(code, mode == "on")
                        results[name][mode].append(got)
                        line.append(f"{mode} {per_step_ms(got):.2f}")
                    print(f"round {r + 1} {name}: ms/step " + ", ".join(line)
                          + f"  (load {os.getloadavg()[0]:.1f})", flush=True)
            browser.close()
    finally:
        server.terminate()
    print(json.dumps({name: summary(name, runs) for name, runs in results.items()}))


if __name__ == "__main__":
    main()
