"""Runs the native columns: each peer in its own subprocess, single-threaded, results as JSON."""
from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from .columns import Column
from .threads import single_thread_env

ROOT = Path(__file__).resolve().parents[3]
BENCH_DIR = ROOT / "engine" / "bench"
PEER_TIMEOUT_S = 420


def python_of(column: Column) -> Path:
    return ROOT / column.venv / "bin" / "python"


def run_column(column: Column, case_ids: list[str], policy: dict, install_status: dict) -> dict:
    """run_peer's dict for this column: measured, or status missing/failed with the reason."""
    installed = install_status.get(column.family)
    if installed and installed.get("status") != "ok":
        return {"status": "missing", "reason": installed.get("reason", "not installed"), "results": []}
    python = python_of(column)
    if not python.exists():
        return {"status": "missing", "reason": f"{python} does not exist (run build/bench.sh)", "results": []}
    env = single_thread_env()
    env.update(column.env)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(BENCH_DIR), env.get("PYTHONPATH")) if p)
    with tempfile.NamedTemporaryFile(suffix=".json", delete=False) as tmp:
        out = Path(tmp.name)
    cmd = [str(python), "-m", "peerbench.run_peer", column.peer, "--cases", ",".join(case_ids),
           "--policy", json.dumps(policy), "--out", str(out)]
    try:
        proc = subprocess.run(cmd, env=env, cwd=ROOT, capture_output=True, text=True, timeout=PEER_TIMEOUT_S)
        if proc.returncode != 0 or not out.stat().st_size:
            tail = (proc.stderr or proc.stdout).strip().splitlines()[-3:]
            return {"status": "failed", "reason": f"exit {proc.returncode}: " + " / ".join(tail), "results": []}
        return json.loads(out.read_text())
    except subprocess.TimeoutExpired:
        return {"status": "failed", "reason": f"timed out after {PEER_TIMEOUT_S} s", "results": []}
    finally:
        out.unlink(missing_ok=True)


def log(msg: str) -> None:
    print(f"bench: {msg}", file=sys.stderr, flush=True)
