"""Per-step cost of the small steps W2, W3-b64 (and -b256), W6-hvp and W5-tanh (issue 18), natively,
and of W2 and W3-b64 under ``@tf.function`` (issue 29: ``W2-fn``, ``W3-b64-fn``, the bench's row ids;
also named ``W2-tf.function``, ``W3-b64-tf.function``).

    python engine/bench/step_cost.py [--case W2|W3-b64|W3-b256|W6-hvp|W5-tanh|W2-fn|W3-b64-fn] \
        [--steps 200] [--repeat 7]
    valgrind --tool=callgrind --instr-atstart=no python engine/bench/step_cost.py --case W2 \
        --steps N --repeat 0 --callgrind-on

Builds the step exactly as peerbench's tapegrad peer does (``peers/tf_style.py``), warms it
up, then prints the median over ``--repeat`` runs of ``--steps`` steps in ms per step. For
instruction counts run it under callgrind (as above) with ``--steps N`` and ``--steps 2N`` and
divide the difference of the totals by N (the toggles' own cost cancels): the counts repeat, where
wall clock on a shared machine does not.
"""
import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path
from types import SimpleNamespace

sys.path.insert(0, str(Path(__file__).resolve().parent))

from peerbench.threads import limit_this_process  # noqa: E402

limit_this_process()            # one thread, as peerbench runs every peer

from peerbench.cases import (MLP_W2, MLP_W3, W1_OPS, W5_CE_SHAPE, W5_ELEMENTS,  # noqa: E402
                             W6_HVP_PARAMS, W6_HVP_ROWS, W6_JACOBIAN_WIDTH)

CASES = {"W2": dict(sizes=MLP_W2, batch=32), "W3-b64": dict(sizes=MLP_W3, batch=64),
         "W3-b256": dict(sizes=MLP_W3, batch=256),
         "W6-hvp": dict(params=W6_HVP_PARAMS, rows=W6_HVP_ROWS),
         "W5-tanh": dict(size=W5_ELEMENTS), "W1": dict(ops=W1_OPS, size=16),
         "W6-jacobian": dict(width=W6_JACOBIAN_WIDTH), "W5-softmax": dict(shape=W5_CE_SHAPE)}


# The same steps under ``@tf.function``: after the first call (the trace) each call replays the
# recorded graph without running the Python body.
TRACED = {"W2-fn": "W2", "W3-b64-fn": "W3-b64", "W2-tf.function": "W2",
          "W3-b64-tf.function": "W3-b64"}


def make_step(case_id):
    from peerbench.peers.tapegrad_peer import PEER
    eager_id = TRACED.get(case_id, case_id)
    step = PEER.builder_for(eager_id)(SimpleNamespace(id=eager_id, params=CASES[eager_id]))
    if case_id in TRACED:
        import tapegrad as tf
        step = tf.function(step)
    return step


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--case", default="W2", choices=sorted([*CASES, *TRACED]))
    p.add_argument("--steps", type=int, default=200)
    p.add_argument("--repeat", type=int, default=7)
    p.add_argument("--warmup", type=int, default=20)
    p.add_argument("--callgrind-on", action="store_true",
                   help="turn callgrind's instrumentation on around the steps only")
    a = p.parse_args()
    step = make_step(a.case)
    for _ in range(a.warmup if a.steps else 0):
        step()
    if a.repeat == 0:           # callgrind: just the steps
        if a.callgrind_on:      # started with --instr-atstart=no: instrument the steps only
            subprocess.run(["callgrind_control", "-i", "on", str(os.getpid())], check=True,
                           stdout=subprocess.DEVNULL)
        for _ in range(a.steps):
            step()
        if a.callgrind_on:
            subprocess.run(["callgrind_control", "-i", "off", str(os.getpid())], check=True,
                           stdout=subprocess.DEVNULL)
        return
    runs = []
    for _ in range(a.repeat):
        t = time.perf_counter()
        for _ in range(a.steps):
            step()
        runs.append((time.perf_counter() - t) / a.steps * 1e3)
    print(f"{a.case}: median {statistics.median(runs):.3f} ms/step over {a.repeat} runs of {a.steps}")


if __name__ == "__main__":
    main()
