"""Runs the browser columns in headless Chromium: each peer in a fresh browser context on a page
served from 127.0.0.1 (build/serve.mjs over site.py's folder), then the time to a first gradient,
cold (new profile) and warm (page opened again): tapegrad's with tests/browser/bench_boot.py (the
playground page itself, dist/index.html: navigation to the default example's gradient shown in
its console, Run pressed as soon as it is enabled; also the time to Ready), TF.js's with this
harness's page.

Needs /usr/bin/chromium and Playwright in .venv (build/setup_browser.sh)."""
from __future__ import annotations

import json
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from urllib.parse import urlencode, urlparse

from . import site
from .cases import BY_ID
from .results import median_of_rounds
from .settle import wait_until_browser_idle
from .native import log

ROOT = site.ROOT
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic",
                 "--disable-default-apps", "--disable-extensions"]
PAGE_TIMEOUT_MS = 420_000


class Server:
    """build/serve.mjs on a free 127.0.0.1 port, stopped on exit."""

    def __init__(self, folder: Path):
        # --allow-eval: the TF.js wasm peer's code evaluates strings, which the playground's
        # policy forbids (only this benchmark's peer pages are served so).
        self.proc = subprocess.Popen(["node", str(ROOT / "build" / "serve.mjs"), "--dir", str(folder),
                                      "--port", "0", "--allow-eval"], stdout=subprocess.PIPE, text=True)
        line = self.proc.stdout.readline()
        if "http://" not in line:
            self.proc.kill()
            raise SystemExit(f"bench: the server did not start: {line!r}")
        self.url = line[line.index("http://"):].strip().rstrip("/") + "/"

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.proc.terminate()
        self.proc.wait()


def _open(context, url: str, outside: list[str]) -> dict:
    def leaving(r):
        if urlparse(r.url).hostname not in ("127.0.0.1", None):
            outside.append(r.url)
    # On the context (it also sees the page's workers), removed again below: one listener per page.
    context.on("request", leaving)
    try:
        return _open_page(context, url)
    finally:
        context.remove_listener("request", leaving)


def _open_page(context, url: str) -> dict:
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(url)
    page.wait_for_selector("#state[data-state=done], #state[data-state=error]", timeout=PAGE_TIMEOUT_MS)
    info = page.evaluate("window.__bench")
    page.close()
    if errors and info.get("status") != "ok":
        info["reason"] = f"{info.get('reason', '')} (page errors: {'; '.join(errors[:3])})"
    return info


def _with_figures(info: dict) -> dict:
    for row in info.get("results", []):
        case = BY_ID[row["case"]]
        row["unit"] = case.unit
        if "median_s" in row and "value" not in row:
            row["value"] = case.figure(row["median_s"])
    return info


def _measure(browser, base: str, col, case_ids, policy, outside) -> dict:
    query = urlencode({"peer": col.peer, "cases": ",".join(case_ids), "threads": col.threads,
                       "policy": json.dumps(policy.as_dict()), "env": json.dumps(col.env)})
    context = browser.new_context()
    try:
        return _with_figures(_open(context, f"{base}?{query}", outside))
    finally:
        context.close()


def _first_gradient_tfjs(playwright, base: str, runs: int, outside) -> dict:
    cold, warm = [], []
    for _ in range(runs):
        with tempfile.TemporaryDirectory(prefix="tapegrad-bench-") as profile:
            ctx = playwright.chromium.launch_persistent_context(
                profile, executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
            wait_until_browser_idle()   # as tests/browser/bench_boot.py does for tapegrad's page
            try:
                for times in (cold, warm):
                    info = _open(ctx, f"{base}?peer=tfjs&mode=boot", outside)
                    if info.get("status") != "ok":
                        raise RuntimeError(info.get("reason"))
                    times.append(info["firstGradientMs"] / 1000)
            finally:
                ctx.close()
    return {"cold": cold, "warm": warm}


def _bench_boot(runs: int, *extra: str) -> dict:
    proc = subprocess.run([sys.executable, str(ROOT / "tests" / "browser" / "bench_boot.py"),
                           "--runs", str(runs), "--screenshot", str(site.SITE.parent / "boot.png"), *extra],
                          cwd=ROOT, capture_output=True, text=True, timeout=1800)
    last = (proc.stdout.strip().splitlines() or [""])[-1]
    if not last.startswith("{"):
        raise RuntimeError(f"bench_boot.py exit {proc.returncode}: {(proc.stderr or proc.stdout)[-300:]}")
    return json.loads(last)


def _first_gradient_tapegrad(runs: int) -> dict:
    out = _bench_boot(runs)
    times = {"cold": out["chromium_cold_s"], "warm": out["chromium_warm_s"],
             "ready-cold": out["ready_cold_s"], "ready-warm": out["ready_warm_s"],
             "editor-cold": out["editor_cold_s"], "editor-warm": out["editor_warm_s"]}
    for network in ("10mbit", "phone"):      # slow links and slow phones (issue 33, item 2)
        slow = _bench_boot(runs, "--network", network)
        times[f"{network}-cold"], times[f"{network}-warm"] = slow["chromium_cold_s"], slow["chromium_warm_s"]
    return times


def _first_gradient_rows(times: dict, runs: int) -> list[dict]:
    # "rounds": run i of tapegrad's page pairs with run i of TF.js's (results.paired_ratio)
    return [{"case": f"TTFG-{kind}", "unit": "s", "median_s": statistics.median(t), "min_s": min(t),
             "value": statistics.median(t), "reps": len(t), "warmup": 0, "runs_s": t, "rounds": t}
            for kind, t in times.items()]


def run(cols, case_ids, policy, boot_runs: int = 3, rounds: int = 1):
    """Yields (column, info) for each browser column, info as run_peer.run returns it. The measured
    cases run in `rounds` rounds (the columns in alternating order; each cell the median of its
    rounds: results.median_of_rounds), then each column's times to a first gradient."""
    measured = [c for c in case_ids if not c.startswith("TTFG")]
    want_boot = any(c.startswith("TTFG") for c in case_ids) and boot_runs > 0
    folder = site.assemble(measured, with_tfjs=any(c.peer == "tfjs" for c in cols))
    from playwright.sync_api import sync_playwright
    with Server(folder) as server, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        outside: dict[str, list[str]] = {col.id: [] for col in cols}  # requests that left 127.0.0.1
        runs: dict[str, list[dict]] = {col.id: [] for col in cols}
        for r in range(rounds if measured else 0):
            for col in (cols if r % 2 == 0 else cols[::-1]):
                mine = [c for c in measured if not col.cases or c in col.cases]
                if not mine or (runs[col.id] and runs[col.id][-1].get("status") != "ok"):
                    continue       # nothing of its cases asked, or a column that failed is not tried again
                log(f"chromium {col.id}: {len(mine)} case(s), round {r + 1}/{rounds}")
                runs[col.id].append(_measure(browser, server.url, col, mine, policy, outside[col.id]))
        for col in cols:
            if not runs[col.id] and (measured or col.cases):
                continue           # a column none of whose cases was asked for
            info = median_of_rounds(runs[col.id]) if measured else {"status": "ok", "results": []}
            if want_boot and col.id in ("pyodide-tapegrad", "tfjs-wasm") and info.get("status") == "ok":
                log(f"chromium {col.id}: time to first gradient, {boot_runs} cold + warm runs")
                try:
                    times = _first_gradient_tfjs(p, server.url, boot_runs, outside[col.id]) if col.peer == "tfjs" \
                        else _first_gradient_tapegrad(boot_runs)
                    info["results"] += _first_gradient_rows(times, boot_runs)
                except Exception as e:
                    info["results"] += [{"case": c, "unit": "s", "error": str(e)} for c in ("TTFG-cold", "TTFG-warm")]
            if outside[col.id]:
                info["status"] = "failed"
                info["reason"] = f"requests left 127.0.0.1: {sorted(set(outside[col.id]))[:3]}"
            log(f"chromium {col.id}: {info.get('status')}" + (f" ({info.get('reason')})" if info.get("status") != "ok" else ""))
            yield col, info
        browser.close()
