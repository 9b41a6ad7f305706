"""The report: one JSON document (machine, policy, columns, one row per column and case) and its
Markdown rendering, a table per environment with a ratio column, and notes for what is missing."""
from __future__ import annotations

import copy
import json
import math
import statistics
from pathlib import Path

from .cases import BY_ID, CASES

SCHEMA = 1
UNIT_LABELS = {"us/op": "µs/op", "ms/step": "ms/step", "ms": "ms", "GFLOP/s": "GFLOP/s ↑", "s": "s"}
ENVIRONMENTS = {
    "native": "Native (CPython, one thread)",
    "chromium": "Headless Chromium (WebAssembly; one thread but in the \"all threads\" columns)",
}
# Per environment: the ratios shown, each (the column it is taken for, the one it is compared with):
# tapegrad against its peer, and in Chromium also all threads against one, and against TF.js's.
RATIO = {"native": [("tapegrad", "torch")],
         "chromium": [("pyodide-tapegrad", "tfjs-wasm"), ("pyodide-tapegrad-threads", "pyodide-tapegrad"),
                      ("pyodide-tapegrad-threads", "tfjs-wasm-threads")]}
# Check values are compared with this column's (hand-written derivatives), else the first one.
CHECK_REFERENCE = {"native": "numpy", "chromium": "pyodide-numpy"}
CHECK_TOLERANCE = 1e-3


def _round_value(info: dict, case_id: str) -> float | None:
    if info.get("status") in ("missing", "failed"):
        return None
    return next((r.get("value") for r in info.get("results", []) if r.get("case") == case_id), None)


def median_of_rounds(infos: list[dict]) -> dict:
    """One column's rounds as one run: each case's value the median of its rounds' values (kept
    in "rounds", one entry per round in order, None where that round measured nothing, so that
    round i of two columns pairs up); the rest (checks, repetition counts) from the first round
    that measured it."""
    ok = [i for i in infos if i.get("status") not in ("missing", "failed")]
    if not ok:
        return infos[0]
    merged = copy.deepcopy(ok[0])
    for row in merged.get("results", []):
        per_round = [_round_value(i, row.get("case")) for i in infos]
        values = [v for v in per_round if v is not None]
        if values:
            row["value"] = statistics.median(values)
            row["rounds"] = per_round
    return merged


def column(id: str, label: str, where: str, info: dict) -> dict:
    """A column of the report from what a peer run returned (run_peer.run's dict, or a browser's)."""
    col = {"id": id, "label": label, "where": where, "status": info.get("status", "failed")}
    for key in ("version", "notes", "reason", "kernels"):
        if info.get(key):
            col[key] = info[key]
    return col


def rows_of(column_id: str, info: dict) -> list[dict]:
    """The per-case rows of one peer run, tagged with the column."""
    keep = ("case", "unit", "value", "rounds", "median_s", "min_s", "reps", "warmup", "check", "na", "error")
    return [{"column": column_id, **{k: r[k] for k in keep if k in r}} for r in info.get("results", [])]


def make_report(machine: dict, policy: dict, columns: list[dict], rows: list[dict], command: str = "",
                cases: dict | None = None) -> dict:
    """``cases``: per environment, the case ids that were asked for (rows for missing peers)."""
    return {"schema": SCHEMA, "command": command, "machine": machine, "policy": policy,
            "cases": cases or {}, "columns": columns, "results": rows}


def ratio(case_id: str, mine: float | None, theirs: float | None) -> float | None:
    """How many times tapegrad's cost is the peer's: > 1 means tapegrad is slower."""
    if not mine or not theirs:
        return None
    return theirs / mine if BY_ID[case_id].higher_is_better else mine / theirs


FASTER, SLOWER, NOISE = "faster", "slower", "within noise"


def paired_ratio(case_id: str, mine: dict, theirs: dict) -> dict | None:
    """The ratio of two cells from their paired rounds: round i of one column with round i of the
    other (the columns run in turns within a round), one ratio per pair. Returns the median of the
    pairs' ratios, their range, the number of pairs and the verdict: "faster" only when tapegrad
    was faster in every pair, "slower" when it was slower in every pair, else "within noise"; no
    verdict (None) from a single pair. None when no round has both cells."""
    def per_round(row):
        rounds = row.get("rounds")
        return rounds if rounds else [row.get("value")]       # (a report from before rounds)
    ratios = [r for r in (ratio(case_id, a, b) for a, b in zip(per_round(mine), per_round(theirs)))
              if r is not None]
    if not ratios:
        return None
    verdict = None
    if len(ratios) > 1:
        verdict = FASTER if max(ratios) < 1 else SLOWER if min(ratios) > 1 else NOISE
    return {"ratio": statistics.median(ratios), "low": min(ratios), "high": max(ratios),
            "pairs": len(ratios), "verdict": verdict}


def ratio_cells(paired: dict | None) -> list[str]:
    """The table's ratio and verdict cells: "0.93× (0.88–1.02)" and "within noise"."""
    if paired is None:
        return ["–", "–"]
    text = f"{paired['ratio']:.2f}×"
    if paired["pairs"] > 1:
        text += f" ({paired['low']:.2f}–{paired['high']:.2f})"
    return [text, paired["verdict"] or "one pair"]


def fmt(value: float) -> str:
    if value is None or math.isnan(value):
        return "–"
    a = abs(value)
    if a >= 100:
        return f"{value:,.0f}"
    if a >= 10:
        return f"{value:.1f}"
    if a >= 1:
        return f"{value:.2f}"
    return f"{value:.3g}"


def check_mismatches(report: dict) -> list[str]:
    """Cells whose check value (first loss, gradient element...) differs from the reference column's."""
    out = []
    for where, ref_id in CHECK_REFERENCE.items():
        cols = [c["id"] for c in report["columns"] if c["where"] == where]
        by_case: dict[str, dict[str, float]] = {}
        for r in report["results"]:
            if r["column"] in cols and r.get("check") is not None:
                by_case.setdefault(r["case"], {})[r["column"]] = r["check"]
        for case_id, checks in by_case.items():
            ref_col = ref_id if ref_id in checks else next(iter(checks))
            ref = checks[ref_col]
            for col, val in checks.items():
                if abs(val - ref) > CHECK_TOLERANCE * max(abs(ref), 1e-3):
                    out.append(f"{col} {case_id}: check value {val:.6g} differs from {ref_col}'s {ref:.6g}")
    return out


def _cell(row: dict | None, col: dict) -> str:
    if col["status"] != "ok":
        return col["status"]
    if row is None:
        return "–"
    if "error" in row:
        return "error"
    if "na" in row:
        return "n/a"
    return fmt(row.get("value"))


def render_table(report: dict, where: str) -> str:
    cols = [c for c in report["columns"] if c["where"] == where]
    if not cols:
        return ""
    ids = {c["id"] for c in cols}
    cell = {(r["column"], r["case"]): r for r in report["results"] if r["column"] in ids}
    asked = set(report.get("cases", {}).get(where, ())) | {case for _, case in cell}
    cases = [c for c in CASES if c.id in asked]
    pairs = [(mine, theirs) for mine, theirs in RATIO[where] if mine in ids and theirs in ids]
    label = {c["id"]: c["label"] for c in cols}
    head = ["workload", "unit", *[c["label"] for c in cols]]
    for mine, theirs in pairs:
        head += [f"{label[mine]} ÷ {label[theirs]}", "verdict"]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * 2 + "---:|" * (len(head) - 2)]
    for case in cases:
        cells = [f"{case.id} {case.title}", UNIT_LABELS.get(case.unit, case.unit)]
        cells += [_cell(cell.get((c["id"], case.id)), c) for c in cols]
        for mine, theirs in pairs:
            a, b = cell.get((mine, case.id), {}), cell.get((theirs, case.id), {})
            cells += ratio_cells(paired_ratio(case.id, a, b))
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def render_notes(report: dict) -> list[str]:
    notes = []
    for c in report["columns"]:
        bits = [b for b in (c.get("version"), c.get("notes"), c.get("kernels") and f"kernels {c['kernels']}") if b]
        if c["status"] != "ok":
            bits.insert(0, f"**{c['status'].upper()}**: {c.get('reason', 'no reason given')}")
        notes.append(f"- {c['label']} ({c['where']}): " + "; ".join(bits))
    seen = set()
    for r in report["results"]:
        for kind in ("na", "error"):
            if kind in r and (r["column"], r[kind]) not in seen:
                seen.add((r["column"], r[kind]))
                cases = [x["case"] for x in report["results"]
                         if x["column"] == r["column"] and x.get(kind) == r[kind]]
                label = "n/a" if kind == "na" else "error"
                notes.append(f"- {label} for {r['column']} in {', '.join(cases)}: {r[kind]}")
    notes += [f"- mismatch: {m}" for m in check_mismatches(report)]
    return notes


def render_markdown(report: dict) -> str:
    m, p = report["machine"], report["policy"]
    rounds = p.get("rounds", p.get("native_rounds", 1))   # "native_rounds": reports before browser rounds
    parts = [f"Measured {m.get('date', '?')} on {m.get('cpu', '?')}, nproc {m.get('nproc', '?')}, "
             f"{m.get('memory_gib', '?')} GiB; load average {m.get('loadavg_start', '?')} at the start, "
             f"{m.get('loadavg_end', '?')} at the end. Medians of timed repetitions after "
             f"{p.get('warmup')} warm-up calls: {p.get('min_reps')}–{p.get('max_reps')} repetitions, "
             f"stopping after {p.get('max_seconds')} s of timed calls (counts per cell in the JSON)"
             + (f"; each cell the median of {rounds} rounds, native and browser, the columns run one after "
                f"another in alternating order (each round's value in the JSON; the first-gradient times are "
                f"medians of their own fresh profiles). " if rounds > 1 else ". ") +
             "Every peer one thread, but the browser's \"all threads\" columns. ↑ = higher is better; ratio > 1 = tapegrad slower. Each ratio is "
             "paired: round i of tapegrad's column against round i of the peer's (the first-gradient "
             "rows: run i against run i), the median of those ratios with their range in brackets; "
             "the verdict is \"faster\" only when tapegrad was faster in every pair, \"slower\" when "
             "slower in every pair, else \"within noise\"."]
    for where, title in ENVIRONMENTS.items():
        table = render_table(report, where)
        if table:
            parts.append(f"### {title}\n\n{table}")
    notes = render_notes(report)
    if notes:
        parts.append("Notes:\n" + "\n".join(notes))
    return "\n\n".join(parts) + "\n"


def write(report: dict, out_dir: Path, stem: str = "latest") -> tuple[Path, Path]:
    out_dir.mkdir(parents=True, exist_ok=True)
    json_path, md_path = out_dir / f"{stem}.json", out_dir / f"{stem}.md"
    json_path.write_text(json.dumps(report, indent=1, ensure_ascii=False) + "\n")
    md_path.write_text(render_markdown(report))
    return json_path, md_path
