"""Interleaved peer timings for a busy machine (issue 18): peerbench's native columns run one
after the other for ``--rounds`` rounds, and each cell is the median over the rounds, with its
ratio to the last column (PyTorch by default) taken within each round, so that a load that changes
between rounds moves both sides of a ratio.

    PYTHONPATH=engine/bench .venv/bin/python engine/bench/peer_ab.py \
        --only W2,W3-b64,W6-hvp,W5-tanh --peers tapegrad,torch --rounds 5

``--before DIR`` adds a column ``tapegrad@before``: the tapegrad peer importing the engine from
``DIR/engine`` (an earlier checkout, e.g. ``git archive HEAD~1 engine | tar x -C DIR``).
"""
import argparse
import dataclasses
import json
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from peerbench import cases, columns, native  # noqa: E402
from peerbench.main import INSTALL_STATUS  # noqa: E402
from peerbench.timing import Policy  # noqa: E402


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--only", default="W2,W3-b64,W6-hvp,W5-tanh")
    p.add_argument("--peers", default="tapegrad,torch")
    p.add_argument("--rounds", type=int, default=5)
    p.add_argument("--before", type=Path, help="a folder holding an earlier engine/ to compare")
    p.add_argument("--max-seconds", type=float, default=Policy.max_seconds)
    p.add_argument("--against", help="the column every ratio is taken to (default: the last; "
                                     "'tapegrad@before' with --before compares two checkouts)")
    a = p.parse_args()
    ids = [c.id for c in cases.select(a.only) if c.group in cases.NATIVE_GROUPS]
    cols = columns.select(a.peers, "native")
    if a.before is not None:
        base = next(c for c in cols if c.id == "tapegrad")
        env = dict(base.env, PYTHONPATH=str(a.before.resolve() / "engine"))
        cols.insert(1, dataclasses.replace(base, id="tapegrad@before", env=env))
    if a.against:
        ref = next((c for c in cols if c.id == a.against), None)
        if ref is None:
            p.error(f"--against {a.against}: no such column among {[c.id for c in cols]}")
        cols = [c for c in cols if c is not ref] + [ref]
    policy = Policy(max_seconds=a.max_seconds).as_dict()
    status = json.loads(INSTALL_STATUS.read_text()) if INSTALL_STATUS.exists() else {}
    cells, ratios = {}, {}
    for r in range(a.rounds):
        order = cols if r % 2 == 0 else cols[::-1]     # alternate who goes first
        got = {}
        for col in order:
            info = native.run_column(col, ids, policy, status)
            for row in info.get("results", []):
                if row.get("value") is not None:
                    got[(col.id, row["case"])] = row["value"]
        for (cid, case), v in got.items():
            cells.setdefault((cid, case), []).append(v)
            ref = got.get((cols[-1].id, case))
            if ref:
                ratios.setdefault((cid, case), []).append(v / ref)
        print(f"round {r + 1}/{a.rounds} done", file=sys.stderr, flush=True)
    print("| case | " + " | ".join(c.id for c in cols)
          + f" | each ÷ {cols[-1].id}: median of rounds (lowest–highest) |")
    print("|---|" + "---:|" * (len(cols) + 1))
    for case in ids:
        vals = [statistics.median(cells[(c.id, case)]) if (c.id, case) in cells else None
                for c in cols]
        rat = [_ratio_text(ratios[(c.id, case)]) for c in cols[:-1] if (c.id, case) in ratios]
        print(f"| {case} | " + " | ".join("–" if v is None else f"{v:.3g}" for v in vals)
              + f" | {', '.join(rat)} |")


def _ratio_text(values):
    return f"{statistics.median(values):.2f}× ({min(values):.2f}–{max(values):.2f})"


if __name__ == "__main__":
    main()
