"""Runs the fuzz suite with pytest inside Pyodide (from build/test.sh):
``node build/run_in_pyodide.mjs tests/fuzz/run_in_pyodide.py [pytest args]``."""
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
args = ["-p", "no:cacheprovider", "-rfEs", "--rootdir", str(ROOT),
        str(ROOT / "tests" / "fuzz"), *sys.argv[1:]]
sys.exit(pytest.main(args))
