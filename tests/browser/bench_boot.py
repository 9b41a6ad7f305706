"""Boot benchmark in headless Chromium: time from navigation to a first computed gradient.

Serves dist/ with build/serve.mjs on a free 127.0.0.1 port and opens the boot-check page (dist/boot/), which
boots Pyodide in a Web Worker, loads tapegrad (+ numpy, networkx) and computes d(x*x)/dx.
  cold: a new browser profile (empty HTTP and code caches);
  warm: the same page opened again in that profile (HTTP cache and V8's wasm code cache warm).
Prints the figures, checks that no request left 127.0.0.1, saves a screenshot.

  .venv/bin/python tests/browser/bench_boot.py [--runs N] [--screenshot PATH]
Needs /usr/bin/chromium and Python Playwright (bash build/setup_browser.sh installs both).
"""
from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from urllib.parse import urlparse

from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM_ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
    "--disable-default-apps", "--disable-extensions",
]


def start_server(dist: Path) -> tuple[subprocess.Popen, str]:
    proc = subprocess.Popen(["node", str(ROOT / "build" / "serve.mjs"), "--dir", str(dist), "--port", "0"],
                            stdout=subprocess.PIPE, text=True)
    line = proc.stdout.readline()
    if "http://" not in line:
        proc.kill()
        raise SystemExit(f"bench: server did not start: {line!r}")
    return proc, line[line.index("http://"):].strip().rstrip("/") + "/boot/"


def load_once(context, url: str, external: list[str]) -> dict:
    page = context.new_page()
    page.goto(url)
    page.wait_for_selector("#state[data-state=ready], #state[data-state=error]", timeout=120_000)
    boot = page.evaluate("window.__boot")
    page.close()
    if boot.get("type") != "ready":
        raise SystemExit(f"bench: the page failed to boot: {boot.get('text')}")
    return boot


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=3, help="fresh profiles (each: one cold + one warm load)")
    ap.add_argument("--screenshot", type=Path, default=ROOT / "test-results" / "boot.png")
    ap.add_argument("--dist", type=Path, default=ROOT / "dist", help="the dist/ folder to serve (to compare builds)")
    args = ap.parse_args()
    if not (args.dist / "build-info.json").is_file():
        raise SystemExit(f"bench: {args.dist} has no build; run: npm run build")

    server, url = start_server(args.dist.resolve())
    cold, warm, external = [], [], []
    try:
        with sync_playwright() as p:
            for i in range(args.runs):
                with tempfile.TemporaryDirectory(prefix="tapegrad-chromium-") as profile:
                    ctx = p.chromium.launch_persistent_context(
                        profile, executable_path="/usr/bin/chromium", headless=True, args=CHROMIUM_ARGS)
                    ctx.on("request", lambda r: external.append(r.url)
                           if urlparse(r.url).hostname not in ("127.0.0.1", None) else None)
                    c = load_once(ctx, url, external)
                    w = load_once(ctx, url, external)
                    cold.append(c)
                    warm.append(w)
                    if i == 0:
                        page = ctx.new_page()
                        page.goto(url)
                        page.wait_for_selector("#state[data-state=ready]", timeout=120_000)
                        args.screenshot.parent.mkdir(parents=True, exist_ok=True)
                        page.screenshot(path=str(args.screenshot), full_page=True)
                        isolated = page.evaluate("self.crossOriginIsolated")
                    ctx.close()
    finally:
        server.terminate()
        server.wait()

    def row(name: str, runs: list[dict]) -> str:
        def ms(key: str) -> list[float]:
            return [r["marks"][key] - (r["marks"]["gradient"] - r["firstGradientMs"]) for r in runs]

        def med(key: str) -> float:
            return statistics.median(r["marks"].get(key, float("nan")) for r in runs)

        total = [r["firstGradientMs"] for r in runs]
        return (f"  {name:5s} first gradient: median {statistics.median(total) / 1000:.2f} s  "
                f"(runs: {', '.join(f'{t / 1000:.2f}' for t in total)}; worker started at "
                f"{statistics.median(ms('workerStart')):.0f} ms, interpreter up at "
                f"{statistics.median(ms('interpreter')):.0f} ms, packages installed at "
                f"{statistics.median(ms('booted')):.0f} ms)\n"
                f"        wheels downloaded at {statistics.median(ms('downloaded')):.0f} ms; unpacking "
                f"{med('unpackMs'):.0f} ms, loading shared libraries {med('sharedLibrariesMs'):.0f} ms "
                f"(compiling them {med('dynlibMs'):.0f} ms, {med('dynlibs'):.0f} loaded); "
                f"then import numpy {med('importNumpyMs'):.0f} ms, import tapegrad {med('importTapegradMs'):.0f} ms")

    print(f"Chromium headless ({url}, dist/ from {args.dist})")
    print(row("cold", cold))
    print(row("warm", warm))
    print(f"  result: {cold[0]['text']}")
    print(f"  boot snapshot used: {all(r['marks'].get('snapshot') for r in cold + warm)}; "
          f"unpacked in JavaScript: {cold[0]['marks'].get('fastInstall') or 'nothing'}")
    print(f"  crossOriginIsolated: {isolated}; requests outside 127.0.0.1: {len(external)}")
    for u in sorted(set(external))[:10]:
        print(f"    {u}")
    print(f"  screenshot: {args.screenshot}")
    print(json.dumps({"chromium_cold_s": [round(r["firstGradientMs"] / 1000, 3) for r in cold],
                      "chromium_warm_s": [round(r["firstGradientMs"] / 1000, 3) for r in warm]}))
    return 1 if external else 0


if __name__ == "__main__":
    sys.exit(main())
