"""The property suite: generated op calls give what TensorFlow 2.21 gave (fixtures/calls.json,
recorded by record.py), and any generated call runs quietly with TensorFlow's error classes.

    .venv/bin/python -m pytest tests/property                      # the committed fixture
    TAPEGRAD_PROPERTY_FIXTURE=/tmp/prop.json .venv/bin/python -m pytest tests/property

(see README.md for the longer run). Replaying the fixture needs neither TensorFlow nor
Hypothesis, so it runs inside Pyodide too; the generating test is skipped where Hypothesis is
not installed.
"""
import contextlib
import io
import json
import os
import sys
import warnings
from pathlib import Path

import pytest

import tapegrad
from tapegrad.checks import numerics

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import calls  # noqa: E402

sys.path.insert(0, str(HERE.parent / "conformance"))
import ledger  # noqa: E402

LEDGER = ledger.load()["property"]

FIXTURE = Path(os.environ.get("TAPEGRAD_PROPERTY_FIXTURE", HERE / "fixtures" / "calls.json"))
ROWS = json.loads(FIXTURE.read_text())["calls"]


def _warnings_of(fn):
    """Runs ``fn`` with the engine's warning filters as an import installs them (pytest resets
    filters between tests) and returns what it gave and every warning that got through."""
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        numerics.silence()
        result = fn()
    return result, [f"{w.category.__name__}: {w.message}" for w in seen]


@pytest.mark.parametrize("row", ROWS, ids=[f"{i}-{r['call']['op']}" for i, r in enumerate(ROWS)])
def test_call_matches_tensorflow(row):
    got, shown = _warnings_of(lambda: calls.outcome_of(tapegrad, row["call"]))
    diffs = calls.compare(row["call"], row["outcome"], got,
                          known=LEDGER.get(ledger.property_key(row["call"])))
    assert not diffs, json.dumps(row["call"]) + "\n" + "\n".join(diffs)
    assert not shown, json.dumps(row["call"]) + f"\nprinted warnings: {shown}"


def test_fixture_is_a_real_recording():
    doc = json.loads(FIXTURE.read_text())
    assert doc["recorded_with"].startswith("tensorflow 2.21")
    ops = {r["call"]["op"] for r in doc["calls"]}
    assert len(ops) >= 40 and len(doc["calls"]) >= 300
    assert any("error" in r["outcome"] for r in doc["calls"])
    assert any("value" in r["outcome"] for r in doc["calls"])


# Errors TensorFlow raises for bad arguments: its own classes, or Python's TypeError/ValueError.
_ALLOWED = (tapegrad.errors.OpError, TypeError, ValueError)

try:
    from hypothesis import HealthCheck, given, seed, settings
    import strategies
except ImportError:        # Pyodide has no Hypothesis wheel: the replay above still runs
    strategies = None

EXAMPLES = int(os.environ.get("TAPEGRAD_PROPERTY_EXAMPLES", "300"))


@pytest.mark.skipif(strategies is None, reason="Hypothesis is not installed here")
def test_generated_calls_are_quiet_and_raise_tensorflow_classes():
    @seed(int(os.environ.get("TAPEGRAD_PROPERTY_SEED", "11")))
    @settings(max_examples=EXAMPLES, database=None, deadline=None,
              suppress_health_check=list(HealthCheck))
    @given(strategies.call_strategy())
    def check(call):
        out, err = io.StringIO(), io.StringIO()

        def run():
            with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
                try:
                    calls.run_call(tapegrad, call)
                except _ALLOWED as e:
                    assert "numpy" not in str(e).lower(), f"NumPy's wording leaked: {e}"

        _, shown = _warnings_of(run)
        assert not shown and out.getvalue() == "" and err.getvalue() == "", (call, shown)

    check()
