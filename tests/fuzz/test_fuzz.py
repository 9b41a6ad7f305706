"""The fuzz suite: generated programs over Keras layers, tf.data pipelines, tf.strings and
tf.function signatures give what TensorFlow 2.21 with Keras 3 gave (fixtures/programs.json,
recorded by record.py): the same values (to a tolerance), the same error classes with messages
that say what TensorFlow's say (tests/conformance/outcome.py), no printed warnings.

    .venv/bin/python -m pytest tests/fuzz                      # the committed fixture
    TAPEGRAD_FUZZ_FIXTURE=/tmp/fuzz.json .venv/bin/python -m pytest tests/fuzz

Known divergences are strict xfails listed with their reasons in known.py. Replaying needs
neither TensorFlow nor Hypothesis, so it runs inside Pyodide too.
"""
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
import known  # noqa: E402
import programs  # noqa: E402

sys.path.insert(0, str(HERE.parent / "conformance"))
import ledger  # noqa: E402
import outcome  # noqa: E402

FIXTURE = Path(os.environ.get("TAPEGRAD_FUZZ_FIXTURE", HERE / "fixtures" / "programs.json"))
ROWS = json.loads(FIXTURE.read_text())["programs"]
LEDGER = ledger.load().get("fuzz", {})


def _param(row):
    name = known.key(row["program"])
    marks = []
    if name in known.KNOWN:
        marks.append(pytest.mark.xfail(reason=known.KNOWN[name], strict=True))
    return pytest.param(row, id=name, marks=marks)


def _outcome(program):
    tapegrad.keras.backend.clear_session()
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        numerics.silence()
        got = programs.outcome_of(tapegrad, program)
    return got, [f"{w.category.__name__}: {w.message}" for w in seen]


@pytest.mark.parametrize("row", [_param(r) for r in ROWS])
def test_program_matches_tensorflow(row):
    got, shown = _outcome(row["program"])
    diffs = outcome.compare(row["outcome"], got, messages=True,
                            known=LEDGER.get(known.key(row["program"])))
    assert not diffs, json.dumps(row["program"]) + "\n" + "\n".join(diffs)
    assert not shown, json.dumps(row["program"]) + f"\nprinted warnings: {shown}"


def test_fixture_is_a_real_recording():
    doc = json.loads(FIXTURE.read_text())
    assert doc["recorded_with"].startswith("tensorflow 2.21")
    kinds = {r["program"]["kind"] for r in doc["programs"]}
    assert kinds == {"layer", "dataset", "strings", "function"}
    assert len(doc["programs"]) >= 400
    assert any("error" in r["outcome"] for r in doc["programs"])


def test_known_divergences_are_programs_of_the_fixture():
    names = {known.key(r["program"]) for r in ROWS}
    stale = set(known.KNOWN) - names
    assert not stale, f"known.py lists programs the fixture does not have: {sorted(stale)}"
