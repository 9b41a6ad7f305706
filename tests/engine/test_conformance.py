"""Every conformance case (tests/conformance/cases) gives what TensorFlow 2.21 gave when it was
recorded (tests/conformance/fixtures), natively and inside Pyodide."""
import json
import sys
from pathlib import Path

import pytest

import tapegrad

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "conformance"))
import cases  # noqa: E402
import ledger  # noqa: E402
import outcome  # noqa: E402

LEDGER = ledger.load()["conformance"]


def _params():
    out = []
    for area in cases.areas():
        module = cases.load(area)
        for name, fn in cases.case_functions(module).items():
            known = getattr(fn, "known_divergence", None)   # a strict xfail, with its reason
            marks = [pytest.mark.xfail(reason=known, strict=True)] if known else []
            out.append(pytest.param(area, name, id=f"{area}::{name}", marks=marks))
    return out


_fixtures = {}


def _fixture(area):
    if area not in _fixtures:
        path = cases.fixture_path(area)
        _fixtures[area] = json.loads(path.read_text()) if path.exists() else {"cases": {}}
    return _fixtures[area]


_modules = {}


@pytest.mark.parametrize("area,name", _params())
def test_case_matches_tensorflow(area, name, fresh_layer_names):
    recorded = _fixture(area)["cases"]
    assert name in recorded, (f"{area}::{name} has no recorded outcome; run "
                              f".tf-venv/bin/python tests/conformance/record.py {area}")
    if area not in _modules:
        _modules[area] = cases.load(area)
    fn = cases.case_functions(_modules[area])[name]
    got = outcome.run(fn, tapegrad)
    diffs = outcome.compare(recorded[name], got, getattr(fn, "tolerance", (None, None)),
                            messages=True, message=getattr(fn, "message_differs", None),
                            known=LEDGER.get(f"{area}::{name}"))
    assert not diffs, "\n".join(diffs)


def test_every_ledger_entry_is_a_recorded_error_case():
    """tests/conformance/message_ledger.json lists only cases that exist and raise."""
    for key in LEDGER:
        area, name = key.split("::")
        assert "error" in _fixture(area)["cases"].get(name, {}), \
            f"{key} is in the message ledger but is not a recorded error case: rewrite the ledger"


def test_every_recorded_case_still_exists():
    for area in cases.areas():
        names = set(cases.case_functions(cases.load(area)))
        stale = set(_fixture(area)["cases"]) - names
        assert not stale, f"{area}: fixtures for removed cases {sorted(stale)}; record again"
