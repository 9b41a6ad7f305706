"""Runs the engine test suite (tests/engine) with pytest inside Pyodide.

Started by build/test.sh as `node build/run_in_pyodide.mjs tests/pyodide/run_engine_tests.py [pytest args]`:
the runner mounts the repository, installs tapegrad from dist/ (the built wheel, not engine/) and
loads pytest from dist/'s local wheels. Tests that cannot run in Pyodide are skipped by the engine
suite with `pytest.mark.skipif(sys.platform == "emscripten", reason=...)`; -rs lists them.
"""
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
args = [
    "-p", "no:cacheprovider",  # no .pytest_cache writes into the host tree
    "-rfEs",                   # name every failed, erroring and skipped test (with reasons)
    "--rootdir", str(ROOT), str(ROOT / "tests" / "engine"), *sys.argv[1:],
]
print(f"pytest {pytest.__version__} in Pyodide ({sys.platform}, Python {sys.version.split()[0]})", flush=True)
sys.exit(pytest.main(args))
