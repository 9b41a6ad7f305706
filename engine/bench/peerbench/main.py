"""The bench command (build/bench.sh installs the environments, then runs this with .venv's python).

    python -m peerbench.main [--only W1,W3] [--peers tapegrad,torch] [--no-browser | --browser-only]
                             [--max-seconds 1.0] [--rounds 3] [--out bench-results]

Native columns run one subprocess per peer, browser columns in headless Chromium (browser.py), each
in --rounds rounds (the columns one after another, in alternating order; each cell is the median of
its rounds, so that a moment of load on a shared machine moves one round, not the cell). The times
to a first gradient are medians of their own --boot-runs fresh profiles. A ratio between tapegrad
and a peer is paired: one ratio per round (per fresh profile for first-gradient times), the median
of them shown with their range, "faster" or "slower" only when every pair agrees
(results.paired_ratio).
Prints the Markdown tables and writes OUT/latest.json and OUT/latest.md.
"""
from __future__ import annotations

import argparse
import json
import shlex
import sys
import time
from pathlib import Path

from . import cases, columns, machine, native, results
from .timing import Policy

ROOT = native.ROOT
INSTALL_STATUS = ROOT / ".bench-venv" / "peers-status.json"


def parse_args(argv=None):
    ap = argparse.ArgumentParser(prog="npm run bench --", description=__doc__.splitlines()[0])
    ap.add_argument("--only", help=f"workloads or case ids, comma-separated ({', '.join(cases.GROUPS)})")
    ap.add_argument("--peers", help=f"peers, comma-separated ({', '.join(columns.FAMILIES)})")
    where = ap.add_mutually_exclusive_group()
    where.add_argument("--no-browser", action="store_true", help="native peers only")
    where.add_argument("--browser-only", action="store_true", help="browser peers only")
    ap.add_argument("--max-seconds", type=float, default=Policy.max_seconds,
                    help="cap of timed calls per cell, in seconds (default %(default)s)")
    ap.add_argument("--max-reps", type=int, default=Policy.max_reps)
    ap.add_argument("--rounds", type=int, default=3,
                    help="rounds of the measured columns, native and browser (default %(default)s)")
    ap.add_argument("--boot-runs", type=int, default=5, help="fresh browser profiles for first-gradient times")
    ap.add_argument("--out", type=Path, default=ROOT / "bench-results", help="folder for latest.json/.md")
    return ap.parse_args(argv)


def run_native(selected_cases, cols, policy, report_cols, rows, rounds: int = 1) -> None:
    ids = [c.id for c in selected_cases if c.group in cases.NATIVE_GROUPS]
    if not ids or not cols:
        return
    status = json.loads(INSTALL_STATUS.read_text()) if INSTALL_STATUS.exists() else {}
    runs: dict[str, list[dict]] = {col.id: [] for col in cols}
    for r in range(rounds):
        for col in (cols if r % 2 == 0 else cols[::-1]):
            if runs[col.id] and runs[col.id][-1]["status"] in ("missing", "failed"):
                continue   # a peer that is not there is not tried again (its later rounds skipped)
            t0 = time.perf_counter()
            native.log(f"native {col.id}: {len(ids)} case(s), round {r + 1}/{rounds}")
            info = native.run_column(col, ids, policy.as_dict(), status)
            native.log(f"native {col.id}: {info['status']} in {time.perf_counter() - t0:.0f} s"
                       + (f" ({info.get('reason')})" if info["status"] != "ok" else ""))
            runs[col.id].append(info)
    for col in cols:
        info = results.median_of_rounds(runs[col.id])
        report_cols.append(results.column(col.id, col.label, "native", info))
        rows += results.rows_of(col.id, info)


def run_browser(selected_cases, cols, policy, args, report_cols, rows) -> None:
    ids = [c.id for c in selected_cases if c.group in cases.BROWSER_GROUPS]
    if not ids or not cols:
        return
    from . import browser          # needs Playwright (in .venv), only for this part
    for col, info in browser.run(cols, ids, policy, boot_runs=args.boot_runs, rounds=args.rounds):
        report_cols.append(results.column(col.id, col.label, "chromium", info))
        rows += results.rows_of(col.id, info)


def main(argv=None) -> int:
    args = parse_args(argv)
    try:
        selected = cases.select(args.only)
        native_cols = [] if args.browser_only else columns.select(args.peers, "native")
        browser_cols = [] if args.no_browser else columns.select(args.peers, "chromium")
    except ValueError as e:
        print(f"bench: {e}", file=sys.stderr)
        return 2
    policy = Policy(max_seconds=args.max_seconds, max_reps=args.max_reps)
    if args.rounds < 1:
        print("bench: --rounds must be 1 or more", file=sys.stderr)
        return 2
    info = machine.describe()
    report_cols: list[dict] = []
    rows: list[dict] = []
    t0 = time.perf_counter()
    run_native(selected, native_cols, policy, report_cols, rows, rounds=args.rounds)
    run_browser(selected, browser_cols, policy, args, report_cols, rows)
    info["loadavg_end"] = machine.loadavg()
    info["duration_s"] = round(time.perf_counter() - t0)
    command = "npm run bench" + (" -- " + shlex.join(sys.argv[1:]) if len(sys.argv) > 1 else "")
    asked = {"native": [c.id for c in selected if c.group in cases.NATIVE_GROUPS] if native_cols else [],
             "chromium": [c.id for c in selected if c.group in cases.BROWSER_GROUPS] if browser_cols else []}
    report = results.make_report(info, {**policy.as_dict(), "rounds": args.rounds}, report_cols, rows,
                                 command, asked)
    json_path, md_path = results.write(report, args.out)
    print(results.render_markdown(report))
    native.log(f"done in {info['duration_s']} s; wrote {json_path.relative_to(ROOT) if json_path.is_relative_to(ROOT) else json_path}"
               f" and {md_path.name}")
    missing = [c["label"] for c in report_cols if c["status"] != "ok"]
    if missing:
        native.log(f"missing or failed: {', '.join(missing)} (see the notes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
