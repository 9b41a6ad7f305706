"""What the live graph costs a training run (issue 28, item 3): the digits CNN's `fit`
(web/examples/16_conv_digits.py, EPOCHS epochs) and a custom training loop, timed inside Python
(time.perf_counter around the training only), in the playground page in headless Chromium, with
the live graph on (as shipped) and off, runs alternated so that a slower moment of the machine
falls on both. Prints each run, the medians, the slowdown and how many step graphs the page drew
while the run went on (with the worker's export times); natively (the same runtime Session, no
page) the same figures follow.

  .venv/bin/python tests/browser/bench_live_graph.py [--rounds N] [--epochs N] [--no-native]
Needs /usr/bin/chromium, Python Playwright and a built dist/ (npm run build). A benchmark, not a
test: the figures are printed, nothing is asserted.
"""
from __future__ import annotations

import argparse
import contextlib
import io
import json
import re
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(Path(__file__).resolve().parent))
from conftest import CHROMIUM, CHROMIUM_ARGS, Playground, load_runtime  # noqa: E402
from test_live_graph import LOOP  # noqa: E402

FIT_TIMED = (   # put around the training: the time it took, printed
    "import time as _time\n_started = _time.perf_counter()\n",
             "\nprint(f'trained in {_time.perf_counter() - _started:.3f} s')\n")
# Run before a timed run: the live graph off (it never comes) or on (as shipped), from the next run.
SWITCH = "from tapegrad.graph.training_view import LiveSteps\nLiveSteps.EVERY_S = {}\n"
WATCH = """() => {
  window.__live = [];
  const box = document.querySelector('[data-testid=graph]');
  new MutationObserver(() => {
    const step = box.dataset.liveStep;
    if (step && document.body.dataset.state === 'running' && window.__live.at(-1)?.step !== step)
      window.__live.push({ step, ms: +box.dataset.liveExportMs });
  }).observe(box, { attributes: true });
}"""


def loop_code(steps: int) -> str:
    """The browser test's custom loop, its training timed."""
    start, end = FIT_TIMED
    code = LOOP.replace("STEPS", str(steps))
    at = code.index("for step in")
    return start + code[:at] + "_started = _time.perf_counter()\n" + code[at:] + end


def fit_code(epochs: int) -> str:
    code = (ROOT / "web" / "examples" / "16_conv_digits.py").read_text()
    code = code.replace("epochs=4,", f"epochs={epochs},")
    start, end = FIT_TIMED
    fit = code.index("model.fit(")
    line_end = code.index("\n", code.index("validation_data", fit))
    return start + code[:fit] + "_started = _time.perf_counter()\n" + code[fit:line_end] + end + code[line_end:]


def seconds(out: str) -> float:
    return float(re.findall(r"trained in ([\d.]+) s", out)[-1])


def page_runs(play, programs: dict, rounds: int) -> dict:
    """{program: {"on": [s], "off": [s], "live": [[{step, ms}]]}} from the page."""
    page = play.pg
    results = {name: {"on": [], "off": [], "live": []} for name in programs}
    for r in range(rounds):
        for name, code in programs.items():
            for mode in (("off", "on") if r % 2 == 0 else ("on", "off")):
                play.set_code(SWITCH.format("float('inf')" if mode == "off" else "1.0"))
                assert play.run() == "ok", play.last_run_output()
                play.set_code(code)
                page.evaluate(WATCH)
                assert play.run() == "ok", play.last_run_output()
                took = seconds(play.last_run_output())
                results[name][mode].append(took)
                live = page.evaluate("window.__live")
                if mode == "on":
                    results[name]["live"].append(live)
                spent = sum(e["ms"] for e in live) / 1000
                print(f"  page {name:5} live {mode:3}: {took:7.3f} s"
                      + (f"  ({len(live)} step graphs drawn while running; exports "
                         f"{', '.join(str(round(e['ms'])) for e in live)} ms: {spent:.3f} s, "
                         f"{100 * spent / took:.1f}% of the training)" if mode == "on" else ""),
                      flush=True)
    return results


def native_runs(programs: dict, rounds: int) -> dict:
    runtime = load_runtime()
    results = {name: {"on": [], "off": [], "live": []} for name in programs}
    for r in range(rounds):
        for name, code in programs.items():
            for mode in (("off", "on") if r % 2 == 0 else ("on", "off")):
                sent = []
                session = runtime.Session(lambda kind, payload: sent.append(kind))
                session.live_graph.EVERY_S = float("inf") if mode == "off" else 1.0
                out = io.StringIO()
                with contextlib.redirect_stdout(out):
                    assert session.run(code)["ok"]
                took = seconds(out.getvalue())
                results[name][mode].append(took)
                print(f"  native {name:5} live {mode:3}: {took:7.3f} s"
                      + (f"  ({sent.count('live-graph')} step graphs sent)" if mode == "on" else ""),
                      flush=True)
    return results


def summary(where: str, results: dict) -> dict:
    out = {}
    for name, r in results.items():
        on, off = statistics.median(r["on"]), statistics.median(r["off"])
        slower = 100 * (on / off - 1)
        best = 100 * (min(r["on"]) / min(r["off"]) - 1)
        out[name] = {"on_s": round(on, 3), "off_s": round(off, 3), "slower_pct": round(slower, 1),
                     "best_slower_pct": round(best, 1)}
        # paired: each round ran the program with and without, back to back (order alternated)
        ratios = sorted(a / b for a, b in zip(r["on"], r["off"]))
        mid = statistics.median(ratios)
        quart = statistics.quantiles(ratios, n=4) if len(ratios) >= 2 else [mid, mid, mid]
        out[name].update(paired_median=round(mid, 3), paired_q1=round(quart[0], 3),
                         paired_q3=round(quart[2], 3))
        line = (f"{where} {name}: median {on:.3f} s with the live graph, {off:.3f} s without: "
                f"{slower:+.1f}%; fastest runs {best:+.1f}% ({len(r['on'])} runs each); paired "
                f"on/off median {mid:.3f} (quartiles {quart[0]:.3f}-{quart[2]:.3f}, "
                f"{ratios[0]:.3f}-{ratios[-1]:.3f} in all, {sum(x > 1 for x in ratios)} of "
                f"{len(ratios)} rounds slower)")
        if r["live"]:      # the page's: the worker's own export times, summed over each run
            shares = [100 * sum(e["ms"] for e in live) / 1000 / took
                      for live, took in zip(r["live"], r["on"])]
            out[name]["export_pct"] = round(statistics.median(shares), 2)
            line += f"; the exports took a median {statistics.median(shares):.2f}% of a run's training"
        print(line)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--epochs", type=int, default=8)
    ap.add_argument("--loop-steps", type=int, default=1500)
    ap.add_argument("--no-native", action="store_true")
    args = ap.parse_args()
    programs = {"fit": fit_code(args.epochs), "loop": loop_code(args.loop_steps)}
    from playwright.sync_api import sync_playwright
    server = subprocess.Popen(["node", str(ROOT / "build" / "serve.mjs"), "--dir", str(ROOT / "dist"),
                               "--port", "0"], stdout=subprocess.PIPE, text=True)
    url = server.stdout.readline().split("http://", 1)[1].strip()
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
            page = browser.new_page(viewport={"width": 1366, "height": 768})
            page.goto(f"http://{url}")
            play = Playground(page)
            play.wait_ready()
            for code in programs.values():      # a first run of each: imports, warm-up
                play.set_code(code)
                assert play.run() == "ok", play.last_run_output()
            figures = {"page": summary("page", page_runs(play, programs, args.rounds))}
            browser.close()
    finally:
        server.terminate()
    if not args.no_native:
        figures["native"] = summary("native", native_runs(programs, args.rounds))
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
