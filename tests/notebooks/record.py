"""Records what TensorFlow gives for every code cell of the notebooks here (see README.md):

    .tf-venv/bin/python tests/notebooks/record.py [name ...]   # all notebooks, or the named ones

Writes fixtures/<name>.json: per code cell its source, what it printed, the repr of its last
expression and the error it raised (cells.py says how a cell runs). Each notebook runs in a process
of its own, as in a new kernel (switches such as tnp.experimental_enable_numpy_behavior() do not
carry over), starts a fresh Keras session (layer names from 'dense' again) and is seeded with
keras.utils.set_random_seed(0); the notebooks print no value that depends on TensorFlow's random
streams (tapegrad's differ), only NumPy's seeded generators.
"""
import json
import os
import subprocess
import sys
from pathlib import Path

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")

import keras  # noqa: E402
import tensorflow as tf  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
import cells  # noqa: E402


def record(notebook):
    keras.backend.clear_session()   # layer names start again at 'dense', as in a new kernel
    keras.utils.set_random_seed(0)
    sources = cells.code_cells(notebook)
    outcomes = cells.run_notebook(notebook)
    doc = {"recorded_with": f"tensorflow {tf.__version__}, keras {keras.__version__}",
           "notebook": notebook.name,
           "cells": [dict(source=s, **o) for s, o in zip(sources, outcomes)]}
    cells.FIXTURES.mkdir(exist_ok=True)
    cells.fixture_path(notebook).write_text(json.dumps(doc, indent=1, ensure_ascii=False) + "\n")
    errors = sum("error" in o for o in outcomes)
    print(f"{notebook.name}: {len(outcomes)} code cells recorded ({errors} raised)")


def main(names):
    chosen = [n for n in cells.NOTEBOOKS if not names or n.stem in names or n.name in names]
    if names and len(chosen) != len(names):
        sys.exit(f"no such notebook among {[n.name for n in cells.NOTEBOOKS]}")
    if len(chosen) == 1:
        record(chosen[0])
        return
    for notebook in chosen:   # each in a process of its own, as each notebook gets a new kernel
        subprocess.run([sys.executable, __file__, notebook.stem], check=True)


if __name__ == "__main__":
    main(sys.argv[1:])
