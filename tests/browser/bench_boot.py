"""Boot benchmark in headless Chromium, on the playground page itself (dist/index.html as
`npm start` serves it: build/serve.mjs over dist/), as a new visitor meets it:

  editor  navigation -> a key typed into the editor lands in its text (then it is taken out again):
          the page's textarea until CodeMirror takes over (web/src/page-editor.js), then CodeMirror;
  ready   navigation -> the worker reports Ready (Python booted, tapegrad imported; the page
          shows "Ready" in that task, or goes straight to "Running" when Run was pressed already);
  first gradient  navigation -> the default example's gradient ("slope = 24.0") is shown in the
          console, with Run pressed (a click on #run) as soon as the page has enabled it;
  done    navigation -> that run has ended (its tape graph drawn too).
All three are measured from the navigation's start (performance.now() on the page), in
  cold: a new browser profile (empty HTTP cache, V8 code cache and Cache Storage), opened once the
        newly launched browser has finished its own start-up work (a visitor's browser is running
        already; a new headless Chromium spends its first seconds building its own WebUI
        renderers, on the same two cores: seen in a trace as 1.5 s of main-thread work);
  warm: the same page opened again in that profile, after the first visit's page had settled (its
        work after the first run done: the packages' files written and the boot's files kept in
        Cache Storage for the next visit, web/src/boot-cache.js; 1-3 s after the first run).
The worker's boot steps (web/src/worker.js) come back as performance marks ("tapegrad:...") and
are printed as medians, so a slow run shows where its time went. Also checks that no request left
127.0.0.1 and saves a screenshot.

  .venv/bin/python tests/browser/bench_boot.py [--runs N] [--screenshot PATH] [--dist DIR]
Needs /usr/bin/chromium and Python Playwright (bash build/setup_browser.sh installs both).
The last line printed is JSON (engine/bench/peerbench/browser.py reads it).
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
sys.path.insert(0, str(ROOT / "engine" / "bench"))
from peerbench.settle import wait_until_browser_idle  # noqa: E402
CHROMIUM_ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
    "--disable-default-apps", "--disable-extensions",
]
TIMEOUT_MS = 120_000
# The page's editor: its textarea once the page has put its code in (until CodeMirror takes over,
# web/src/page-editor.js), or CodeMirror's editable element (Playwright's locators enter its
# shadow root).
EDITOR = "[data-testid=editor] textarea:not([readonly]), [data-testid=editor] .cm-content"
# The editor's text, whichever editor it is at the moment.
EDITOR_TEXT_JS = """() => {
    const host = document.querySelector('[data-testid=editor] .cm-host');
    if (host) return [...host.shadowRoot.querySelectorAll('.cm-line')].map((l) => l.textContent).join('\\n');
    return document.querySelector('[data-testid=editor] textarea')?.value ?? '';
}"""

# Runs before the page's own scripts: presses Run as soon as the page has enabled it, and notes
# (performance.now(), i.e. ms since navigation) when the gradient is shown and the first run is done.
# The default example (web/examples/01_scalar_gradient.py) prints its gradient on this line.
GRADIENT_TEXT = "slope ="
WATCHER = """
(() => {
  const GRADIENT_TEXT = %s;
  const seen = (window.__ttfg = { runPressedMs: null, shownMs: null, doneMs: null, console: "",
                                  editableMs: null, keyDownStamp: null, keyLandedMs: null });
  // The editor takes typing: the page's textarea once it is no longer read-only, or CodeMirror.
  const editable = () => {
    const area = document.querySelector("[data-testid=editor] textarea");
    return (area && !area.readOnly) || document.querySelector("[data-testid=editor] .cm-host") !== null;
  };
  // The key the benchmark types: when the browser took it in (the event's time stamp) and when
  // it had landed in the editor's text (its input event, which crosses CodeMirror's shadow root).
  addEventListener("keydown", (e) => {
    if (e.key === "#" && seen.keyDownStamp === null) seen.keyDownStamp = e.timeStamp;
  }, true);
  addEventListener("input", () => {
    if (seen.keyDownStamp !== null && seen.keyLandedMs === null) seen.keyLandedMs = performance.now();
  }, true);
  // Event-driven (a MutationObserver), not polled: a 4 ms poll cost the page's main thread 0.3 s
  // of a cold boot in a trace, on the same two cores the boot needs.
  const check = () => {
    const body = document.body;
    if (!body) return;
    if (seen.editableMs === null && editable()) seen.editableMs = performance.now();
    const state = body.dataset.state;
    const run = document.getElementById("run");
    if (seen.runPressedMs === null && run && !run.disabled && state && state !== "loading") {
      seen.runPressedMs = performance.now();
      run.click();
    }
    if (seen.runPressedMs === null) return;    // nothing else to look at before Run is pressed
    const log = document.querySelector("[data-testid=console]");
    if (seen.shownMs === null && log && log.textContent.includes(GRADIENT_TEXT) &&
        [...log.querySelectorAll("[data-stream=stdout]")].some((s) => s.textContent.includes(GRADIENT_TEXT))) {
      seen.shownMs = performance.now();
    }
    if (seen.doneMs === null && body.dataset.runs === "1") {
      seen.doneMs = performance.now();
      seen.lastRun = body.dataset.lastRun;
      seen.console = log?.textContent ?? "";
      observer.disconnect();
    }
  };
  const observer = new MutationObserver(check);
  observer.observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
})();
""" % json.dumps(GRADIENT_TEXT)


def start_server(dist: Path) -> tuple[subprocess.Popen, str]:
    proc = subprocess.Popen(["node", str(ROOT / "build" / "serve.mjs"), "--dir", str(dist), "--port", "0"],
                            stdout=subprocess.PIPE, text=True)
    line = proc.stdout.readline()
    if "http://" not in line:
        proc.kill()
        raise SystemExit(f"bench: server did not start: {line!r}")
    return proc, line[line.index("http://"):].strip().rstrip("/") + "/"


def editor_usable_ms(page) -> tuple[float, float]:
    """Types one key at the end of the editor's text, as soon as Playwright finds the editor.
    Returns (usable, through Playwright), ms since navigation:
      usable: when the editor took typing and was on screen (the later of the watcher's
              editableMs and the page's first contentful paint) plus how long the typed key
              then took from the browser's taking it in to its landing in the text (a busy main
              thread delays it): when a key pressed the moment the editor is there lands;
      through Playwright: when this function saw the key in the text, which adds Playwright's own
              round trips (finding the element, focusing it, sending the key, polling: 0.2-0.5 s
              on two loaded cores) before and after the key."""
    editor = page.locator(EDITOR).first
    editor.wait_for(state="attached", timeout=TIMEOUT_MS)
    editor.focus()
    page.keyboard.press("Control+End")
    page.keyboard.type("#")
    page.wait_for_function(f"() => ({EDITOR_TEXT_JS})().trimEnd().endsWith('#')", polling=5, timeout=TIMEOUT_MS)
    landed = page.evaluate("performance.now()")
    seen = page.evaluate("window.__ttfg")
    page.keyboard.press("Backspace")
    painted = page.evaluate("performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? null")
    if None in (seen["editableMs"], seen["keyDownStamp"], seen["keyLandedMs"], painted):
        return landed, landed      # the key's own events were not seen: the end-to-end time only
    return max(seen["editableMs"], painted) + max(0.0, seen["keyLandedMs"] - seen["keyDownStamp"]), landed


# Slow links and slow phones (issue 33, item 2), through Chromium's own emulation (DevTools'
# protocol: it paces the page's downloads and the worker's alike): download and upload Mbit/s,
# round-trip latency ms, and how many times slower the page's main thread runs (the Python
# worker's thread is not slowed: Chromium throttles the main thread only).
NETWORKS = {"10mbit": {"down": 10, "up": 5, "latency": 40, "cpu": 1},
            "phone": {"down": 20, "up": 10, "latency": 60, "cpu": 4}}


class ByteCounter:
    """Bytes the visit transferred: every request of the context (the page's, its workers' and the
    service worker's), its response's body as it crossed the network (encoded: brotli or gzip
    where served so; 0 for one answered from a cache) and headers, with the time it ended, in ms
    since the navigation, and its file name. Also paces the network (`network`: a key of
    NETWORKS), for the page and its workers alike."""

    def __init__(self, context, page, network):
        self.requests = []
        context.on("requestfinished", self._finished)
        self.context, self.page = context, page
        if network is None:
            return
        cdp = context.new_cdp_session(page)
        cdp.send("Network.enable")
        profile = NETWORKS[network]
        cdp.send("Network.emulateNetworkConditions", {
            "offline": False, "latency": profile["latency"],
            "downloadThroughput": profile["down"] * 1e6 / 8, "uploadThroughput": profile["up"] * 1e6 / 8})
        if profile["cpu"] > 1:
            cdp.send("Emulation.setCPUThrottlingRate", {"rate": profile["cpu"]})

    def _finished(self, request):
        self.requests.append(request)

    def collect(self):
        """[(ms since the navigation, bytes, file name)] of the requests finished so far; call it
        before the page closes."""
        self.context.remove_listener("requestfinished", self._finished)
        origin = self.page.evaluate("performance.timeOrigin")
        done = []
        for r in self.requests:
            sizes, timing = r.sizes(), r.timing
            end = timing["startTime"] + max(timing["responseEnd"], 0) - origin
            name = r.url.split("?")[0].rsplit("/", 1)[-1] or "(page)"
            done.append((end, sizes["responseBodySize"] + sizes["responseHeadersSize"], name))
        return done


def bytes_until(done, ms):
    """Bytes of the responses in `done` (ByteCounter.collect) that ended by `ms`."""
    return sum(b for t, b, _ in done if t <= ms)


def files_until(done, ms):
    """[(file name, bytes)] of the responses in `done` that ended by `ms`, the largest first."""
    return sorted(((n, b) for t, b, n in done if t <= ms and b > 0), key=lambda x: -x[1])


def bytes_after(done, ms):
    """[(file name, bytes)] of the responses in `done` that ended after `ms`, the largest first."""
    return sorted(((n, b) for t, b, n in done if t > ms and b > 0), key=lambda x: -x[1])


def load_once(context, url: str, settle: bool = False, network=None) -> dict:
    """One visit. `settle`: keep the page open until its work after the first run is done (the
    packages' files written, the boot files stored for the next visit: the worker's "settled"
    mark), as a visitor who reads the result would, before the next visit. `network`: a key of
    NETWORKS, or None for the full speed of the loopback."""
    page = context.new_page()
    counter = ByteCounter(context, page, network)
    page.goto(url, wait_until="commit")
    editor, editor_seen = editor_usable_ms(page)
    page.wait_for_function("() => window.__ttfg && window.__ttfg.doneMs !== null", polling=20,
                           timeout=TIMEOUT_MS)
    seen = page.evaluate("window.__ttfg")
    if settle:
        page.wait_for_function("() => performance.getEntriesByName('tapegrad:settled').length > 0",
                               polling=100, timeout=TIMEOUT_MS)
        # and the build kept for offline use (web/src/offline/), unless service workers are blocked
        page.wait_for_function("() => ['ready', 'off'].includes(document.documentElement.dataset.offline)",
                               polling=100, timeout=TIMEOUT_MS)
    marks = page.evaluate("""Object.fromEntries(performance.getEntriesByType('mark')
        .filter((m) => m.name.startsWith('tapegrad:')).map((m) => [m.name.slice(9), m.startTime]))""")
    page.wait_for_timeout(200)       # the last requestfinished events
    done = counter.collect()
    page.close()
    if seen.get("lastRun") != "ok" or seen["shownMs"] is None:
        raise SystemExit(f"bench: the default example did not print {GRADIENT_TEXT!r}: {seen['console'][-500:]!r}")
    return {"editor": editor, "editorSeen": editor_seen, "ready": marks["ready"], "gradient": seen["shownMs"], "done": seen["doneMs"],
            "runPressed": seen["runPressedMs"], "marks": marks, "console": seen["console"],
            "bytesGradient": bytes_until(done, seen["shownMs"]), "bytesReady": bytes_until(done, marks["ready"]),
            "bytesAll": bytes_until(done, float("inf")), "afterReady": bytes_after(done, marks["ready"]),
            "beforeGradient": files_until(done, seen["shownMs"]),
            "files": done}


def summary(name: str, runs: list[dict]) -> str:
    def med(key: str) -> float:
        return statistics.median(r[key] for r in runs) / 1000

    def series(key: str) -> str:
        return ", ".join(f"{r[key] / 1000:.2f}" for r in runs)

    gradient_mb = ", ".join(f"{r['bytesGradient'] / 1e6:.2f}" for r in runs)

    names = sorted({k for r in runs for k in r["marks"]}, key=lambda k: statistics.median(
        r["marks"].get(k, 0) for r in runs))
    steps = ", ".join(f"{k} {statistics.median(r['marks'][k] for r in runs if k in r['marks']):.0f}"
                      for k in names)
    return (f"  {name:4s} first gradient {med('gradient'):.2f} s (runs: {series('gradient')}); "
            f"Ready {med('ready'):.2f} s (runs: {series('ready')}); editor {med('editor'):.2f} s "
            f"(runs: {series('editor')}; through Playwright {med('editorSeen'):.2f} s); Run pressed at {med('runPressed'):.2f} s; run done (graph drawn) "
            f"{med('done'):.2f} s\n"
            f"       bytes transferred (median, MB): before Ready {med('bytesReady') / 1e3:.2f}, before the "
            f"first gradient {med('bytesGradient') / 1e3:.2f}, in all {med('bytesAll') / 1e3:.2f} "
            f"(runs: {gradient_mb}; after Ready: "
            f"{', '.join(f'{n} {b / 1e6:.2f}' for n, b in runs[0]['afterReady'][:6]) or 'nothing'})\n"
            f"       before the first gradient (first run, MB): "
            f"{', '.join(f'{n} {b / 1e6:.2f}' for n, b in runs[0]['beforeGradient'][:8])}\n"
            f"       worker steps, ms since navigation (median): {steps or 'none reported'}")


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=5, help="fresh profiles (each: one cold + one warm load)")
    ap.add_argument("--screenshot", type=Path, default=ROOT / "test-results" / "boot.png")
    ap.add_argument("--dist", type=Path, default=ROOT / "dist", help="the dist/ folder to serve (to compare builds)")
    ap.add_argument("--network", choices=sorted(NETWORKS),
                    help="a slow link (10mbit) or a phone-like profile (phone: 20 Mbit/s, main thread 4x slower)")
    ap.add_argument("--service-workers", choices=("allow", "block"), default="allow",
                    help="block: without the offline service worker (to see what it costs a warm visit)")
    args = ap.parse_args()
    if not (args.dist / "build-info.json").is_file():
        raise SystemExit(f"bench: {args.dist} has no build; run: npm run build")

    server, url = start_server(args.dist.resolve())
    cold, warm, external, settled = [], [], [], []
    isolated = None
    try:
        with sync_playwright() as p:
            for i in range(args.runs):
                with tempfile.TemporaryDirectory(prefix="tapegrad-chromium-") as profile:
                    ctx = p.chromium.launch_persistent_context(
                        profile, executable_path="/usr/bin/chromium", headless=True, args=CHROMIUM_ARGS,
                        viewport={"width": 1280, "height": 800}, service_workers=args.service_workers)
                    settled.append(wait_until_browser_idle())
                    ctx.add_init_script(WATCHER)
                    ctx.on("request", lambda r: external.append(r.url)
                           if urlparse(r.url).hostname not in ("127.0.0.1", None) else None)
                    cold.append(load_once(ctx, url, settle=True, network=args.network))
                    warm.append(load_once(ctx, url, network=args.network))
                    if i == 0:
                        page = ctx.new_page()
                        page.goto(url)
                        page.wait_for_selector("body[data-state=ready]", timeout=TIMEOUT_MS)
                        args.screenshot.parent.mkdir(parents=True, exist_ok=True)
                        page.screenshot(path=str(args.screenshot))
                        isolated = page.evaluate("self.crossOriginIsolated")
                        page.close()
                    ctx.close()
    finally:
        server.terminate()
        server.wait()

    print(f"Chromium headless, the playground page ({url}, dist/ from {args.dist}); "
          f"times from navigation, {args.runs} fresh profile(s), each opened once the new browser had "
          f"settled ({', '.join(f'{t:.1f}' for t in settled)} s after its launch)"
          + (f"; network {args.network}: {NETWORKS[args.network]}" if args.network else ""))
    print(summary("cold", cold))
    print(summary("warm", warm))
    tail = [ln for ln in cold[0]["console"].splitlines() if ln.strip()][-1:]
    print(f"  console after the first run ends with: {tail[0] if tail else '(nothing)'!r}")
    print(f"  crossOriginIsolated: {isolated}; requests outside 127.0.0.1: {len(external)}")
    for u in sorted(set(external))[:10]:
        print(f"    {u}")
    print(f"  screenshot: {args.screenshot}")
    s = lambda runs, key: [round(r[key] / 1000, 3) for r in runs]  # noqa: E731
    print(json.dumps({"chromium_cold_s": s(cold, "gradient"), "chromium_warm_s": s(warm, "gradient"),
                      "ready_cold_s": s(cold, "ready"), "ready_warm_s": s(warm, "ready"),
                      "editor_cold_s": s(cold, "editor"), "editor_warm_s": s(warm, "editor"),
                      "bytes_gradient_cold": [r["bytesGradient"] for r in cold],
                      "bytes_gradient_warm": [r["bytesGradient"] for r in warm]}))
    return 1 if external else 0


if __name__ == "__main__":
    sys.exit(main())
