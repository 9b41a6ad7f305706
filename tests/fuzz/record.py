"""Generates fuzz programs with Hypothesis (fixed seed) and records what TensorFlow 2.21 with
Keras 3 does for each one; the output is committed as ``fixtures/programs.json``.

    .tf-venv/bin/python tests/fuzz/record.py                      # the committed fixture
    .tf-venv/bin/python tests/fuzz/record.py --examples 4000 --seed 7 --out /tmp/fuzz.json

The fixture holds the programs themselves, so replaying them (test_fuzz.py) needs neither
TensorFlow nor Hypothesis. Runs in the separate TensorFlow environment only (never a dependency).
"""
import argparse
import json
import os
import sys
from pathlib import Path

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
os.environ.setdefault("CUDA_VISIBLE_DEVICES", "")
HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

EXAMPLES = 800       # the committed fixture: a bounded count that replays in seconds
SEED = 20261127
FIXTURE = HERE / "fixtures" / "programs.json"


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--examples", type=int, default=EXAMPLES)
    parser.add_argument("--seed", type=int, default=SEED)
    parser.add_argument("--out", type=Path, default=FIXTURE)
    opts = parser.parse_args(argv)

    import logging
    import numpy as np
    import tensorflow as tf
    import keras
    tf.get_logger().setLevel(logging.ERROR)

    import programs
    import strategies

    rows = []
    for program in strategies.draw_programs(opts.examples, opts.seed):
        np.random.seed(0)
        keras.backend.clear_session()
        rows.append({"program": program, "outcome": programs.outcome_of(tf, program)})
    doc = {"recorded_with": f"tensorflow {tf.__version__}, keras {keras.__version__}",
           "seed": opts.seed, "examples": opts.examples, "programs": rows}
    opts.out.parent.mkdir(parents=True, exist_ok=True)
    opts.out.write_text(json.dumps(doc, separators=(",", ":")) + "\n")
    errors = sum(1 for r in rows if "error" in r["outcome"])
    print(f"{len(rows)} programs ({errors} raise in TensorFlow) -> {opts.out}")


if __name__ == "__main__":
    main()
