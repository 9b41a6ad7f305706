"""Runs one peer's cases in this process and returns JSON-ready results.

Natively the command runs it as a subprocess, one per peer, single-threaded:
    python -m peerbench.run_peer torch --cases W1,W3-b64 [--out FILE] [--policy JSON]
In the browser, the Pyodide worker imports it and calls ``run``.
"""
from __future__ import annotations

import argparse
import importlib
import json
import sys
import traceback

# peer name -> (module, attribute holding its Peer)
PEERS = {
    "tapegrad": ("peerbench.peers.tapegrad_peer", "PEER"),
    "numpy": ("peerbench.peers.numpy_peer", "PEER"),
    "torch": ("peerbench.peers.torch_peer", "PEER"),
    "tensorflow": ("peerbench.peers.tensorflow_peer", "PEER"),
    "jax": ("peerbench.peers.jax_peer", "PEER"),
    "jax-jit": ("peerbench.peers.jax_peer", "PEER_JIT"),
    "autograd": ("peerbench.peers.autograd_peer", "PEER"),
    "micrograd": ("peerbench.peers.micrograd_peer", "PEER"),
}


def load_peer(name: str):
    if name not in PEERS:
        raise ValueError(f"unknown peer {name!r}; known: {', '.join(PEERS)}")
    module, attr = PEERS[name]
    return getattr(importlib.import_module(module), attr)


def run(name: str, case_ids, policy=None) -> dict:
    """{"peer", "version", "notes", "status", "results": [one dict per case]}.

    A peer whose library does not import is status "missing" with the reason."""
    try:
        peer = load_peer(name)
    except ImportError as e:
        return {"peer": name, "status": "missing", "reason": f"import failed: {e}", "results": []}
    return run_cases(peer, case_ids, policy)


def run_cases(peer, case_ids, policy=None) -> dict:
    """Measures each case of ``peer`` (a peer_api.Peer); a case that raises keeps its error."""
    from .cases import BY_ID
    from .timing import Policy, measure
    policy = policy or Policy()
    results = []
    for case_id in case_ids:
        case = BY_ID[case_id]
        row = {"case": case_id, "unit": case.unit}
        builder = peer.builder_for(case_id)
        if builder is None:
            row["na"] = peer.why_not(case_id)
        else:
            try:
                m = measure(builder(case), policy)
                row.update(median_s=m.median_s, min_s=m.min_s, reps=m.reps, warmup=m.warmup,
                           check=m.check, value=case.figure(m.median_s))
            except Exception as e:  # a failing case is reported, and the others still run
                row["error"] = f"{type(e).__name__}: {e}"
                row["traceback"] = traceback.format_exc(limit=6)
        results.append(row)
    info = {"peer": peer.name, "status": "ok", "version": peer.version, "notes": peer.notes,
            "results": results, "policy": policy.as_dict()}
    if hasattr(peer, "describe"):
        info.update(peer.describe())
    return info


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("peer")
    ap.add_argument("--cases", required=True, help="comma-separated case ids")
    ap.add_argument("--policy", default="{}", help="JSON of timing.Policy fields")
    ap.add_argument("--out", help="write the JSON here (default: stdout)")
    args = ap.parse_args(argv)
    from .timing import Policy
    info = run(args.peer, [c for c in args.cases.split(",") if c], Policy(**json.loads(args.policy)))
    text = json.dumps(info, indent=1)
    if args.out:
        with open(args.out, "w") as f:
            f.write(text)
    else:
        print(text)
    return 0


if __name__ == "__main__":
    from .threads import limit_this_process
    limit_this_process()
    sys.exit(main())
