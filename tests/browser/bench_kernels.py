"""Kernel benchmark in headless Chromium: runs engine/bench/kernels.py inside Pyodide in a Web
Worker (where the engine runs in the playground), from dist/ served by build/serve.mjs on a free
127.0.0.1 port, and prints its table as it comes.

  .venv/bin/python tests/browser/bench_kernels.py [--dist DIR] [--env TAPEGRAD_KERNELS=simd] [-- ARGS]
ARGS go to the benchmark (e.g. --quick, --only matmul). With --threads it runs
tests/browser/bench_threads_pyodide.py instead, with the kernel pool (web/src/kernel-pool.js)
attached: one thread against all (ARGS: the number of rounds). Needs /usr/bin/chromium and Python
Playwright (bash build/setup_browser.sh installs both).
"""
from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parents[2]
BENCH = ROOT / "engine" / "bench" / "kernels.py"
THREADS_BENCH = Path(__file__).with_name("bench_threads_pyodide.py")
CHROMIUM_ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
    "--disable-default-apps", "--disable-extensions",
]

# The worker: boots Pyodide from the served dist/, installs tapegrad from dist's wheel (with the
# WebAssembly kernels inside), runs the benchmark script and posts each line of its output.
WORKER = r"""
importScripts(self.origin + "/pyodide-0.27.7/pyodide.js");
onmessage = async ({ data }) => {
  try {
    // --threads: the kernel pool (its workers start now, as the playground's do), attached below
    let pool = null;
    if (data.pool) {
      importScripts(self.origin + "/assets/kernel-pool.js");
      pool = tapegradKernelPool.createKernelPool(self.origin + "/assets/kernel-pool-worker.js");
    }
    const pyodide = await loadPyodide({
      indexURL: self.origin + "/pyodide-0.27.7/", packages: ["tapegrad"], env: data.env,
      stdout: (line) => postMessage({ line }), stderr: (line) => postMessage({ line }),
    });
    if (pool) {
      pool.attach(pyodide);
      pyodide.pyimport("tapegrad.kernels.threads").attach(pool);
    }
    pyodide.FS.writeFile("/tmp/bench_kernels.py", data.script);
    pyodide.globals.set("_argv", pyodide.toPy(data.argv));
    pyodide.runPython(`
import runpy, sys
sys.argv = ["bench_kernels.py", *_argv]
try:
    runpy.run_path("/tmp/bench_kernels.py", run_name="__main__")
except SystemExit as e:
    if e.code not in (None, 0):
        raise
`);
    postMessage({ done: true });
  } catch (err) {
    postMessage({ done: true, error: String(err) });
  }
};
"""

START = """([worker, script, argv, env, pool]) => {
  window.__lines = []; window.__done = null;
  const url = URL.createObjectURL(new Blob([worker], { type: "text/javascript" }));
  const w = new Worker(url);
  w.onmessage = ({ data }) => {
    if (data.line !== undefined) window.__lines.push(data.line);
    if (data.done) window.__done = data;
  };
  w.onerror = (e) => { window.__done = { done: true, error: `worker error: ${e.message} (${e.filename}:${e.lineno})` }; };
  w.postMessage({ script, argv, env, pool });
}"""


def start_server(dist: Path) -> tuple[subprocess.Popen, str]:
    proc = subprocess.Popen(["node", str(ROOT / "build" / "serve.mjs"), "--dir", str(dist),
                             "--port", "0"], stdout=subprocess.PIPE, text=True)
    line = proc.stdout.readline()
    if "http://" not in line:
        proc.kill()
        raise SystemExit(f"bench: server did not start: {line!r}")
    return proc, line[line.index("http://"):].strip().rstrip("/")


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--dist", type=Path, default=ROOT / "dist")
    ap.add_argument("--env", action="append", default=[], help="NAME=VALUE for Pyodide's os.environ")
    ap.add_argument("--timeout", type=float, default=900, help="seconds for the whole run")
    ap.add_argument("--threads", action="store_true",
                    help="run tests/browser/bench_threads_pyodide.py (one thread against all, through "
                         "the kernel pool) instead of engine/bench/kernels.py")
    ap.add_argument("args", nargs="*", help="arguments of the benchmark script")
    args = ap.parse_args()
    if not (args.dist / "build-info.json").is_file():
        raise SystemExit(f"bench: {args.dist} has no build; run: npm run build")
    env = dict(kv.split("=", 1) for kv in args.env)
    server, origin = start_server(args.dist.resolve())
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path="/usr/bin/chromium", headless=True,
                                        args=CHROMIUM_ARGS)
            page = browser.new_page()
            page.on("console", lambda m: m.type == "error" and print("console:", m.text, flush=True))
            # A blank same-origin document hosts the worker: cross-origin isolated as the
            # playground, without the server's Content-Security-Policy (which refuses blob: workers).
            page.route(origin + "/kernel-bench", lambda route: route.fulfill(
                status=200, content_type="text/html", body="<!doctype html><title>kernel bench</title>",
                headers={"Cross-Origin-Opener-Policy": "same-origin",
                         "Cross-Origin-Embedder-Policy": "require-corp"}))
            page.goto(origin + "/kernel-bench")
            print(f"## headless Chromium {browser.version}")
            script = (THREADS_BENCH if args.threads else BENCH).read_text()
            isolated = page.evaluate("self.crossOriginIsolated")
            print(f"## cross-origin isolated: {isolated}")
            page.evaluate(START, [WORKER, script, args.args, env, args.threads])
            shown, deadline, done = 0, time.monotonic() + args.timeout, None
            while done is None and time.monotonic() < deadline:
                time.sleep(0.5)
                lines, done = page.evaluate("[window.__lines, window.__done]")
                for line in lines[shown:]:
                    print(line, flush=True)
                shown = len(lines)
            browser.close()
    finally:
        server.kill()
    if done is None:
        print("bench: timed out", file=sys.stderr)
        return 1
    if done.get("error"):
        print(f"bench: {done['error']}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
