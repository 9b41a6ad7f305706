"""Runs the notebook suite with pytest inside Pyodide (from build/test.sh):
``node build/run_in_pyodide.mjs tests/notebooks/run_in_pyodide.py [pytest args]``.
The counts per notebook are printed at the end, as natively (conftest.py)."""
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
args = ["-p", "no:cacheprovider", "-rfEs", "--rootdir", str(ROOT),
        str(ROOT / "tests" / "notebooks"), *sys.argv[1:]]
sys.exit(pytest.main(args))
