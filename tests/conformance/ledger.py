"""The ledger of known error-message differences: cases where tapegrad raises TensorFlow's error
class but its message does not yet say what TensorFlow's says (``outcome.message_matches``).

Each entry holds our message as it was when listed, so a listed case still fails when it starts
raising something else (its message changes), and fails when it comes to match TensorFlow (then
it leaves the ledger). A case whose message differs on purpose is marked ``@message_differs`` with
its reason instead. Every entry is a debt: fixing one means making the message say what
TensorFlow's says, then running this file to rewrite the ledger.

    .venv/bin/python tests/conformance/ledger.py     # rewrites message_ledger.json (native run)
"""
import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
PATH = HERE / "message_ledger.json"


def load():
    if not PATH.exists():
        return {"conformance": {}, "property": {}, "fuzz": {}}
    return json.loads(PATH.read_text())


def property_key(call):
    return json.dumps(call, sort_keys=True)


def _mismatch(recorded, got, message=None):
    import outcome
    if "error" not in recorded or recorded.get("error") != got.get("error") or message is not None:
        return None
    if outcome.message_matches(recorded.get("message", ""), got.get("message", "")):
        return None
    return got.get("message", "")


def _conformance_entries(tf):
    import cases
    import outcome
    out = {}
    for area in cases.areas():
        recorded = json.loads(cases.fixture_path(area).read_text())["cases"]
        for name, fn in cases.case_functions(cases.load(area)).items():
            if name in recorded and "error" in recorded[name]:
                tf.keras.backend.clear_session()
                got = outcome.run(fn, tf)
                msg = _mismatch(recorded[name], got, getattr(fn, "message_differs", None))
                if msg is not None:
                    out[f"{area}::{name}"] = msg
    return out


def _property_entries(tf):
    sys.path.insert(0, str(HERE.parent / "property"))
    import calls
    rows = json.loads((HERE.parent / "property" / "fixtures" / "calls.json").read_text())["calls"]
    out = {}
    for row in rows:
        if "error" in row["outcome"]:
            marker = calls.MESSAGE_DIFFERS.get(row["call"]["op"], ("\0",))[0]
            mark = True if marker in row["outcome"].get("message", "") else None
            msg = _mismatch(row["outcome"], calls.outcome_of(tf, row["call"]), mark)
            if msg is not None:
                out[property_key(row["call"])] = msg
    return out


def _fuzz_entries(tf):
    sys.path.insert(0, str(HERE.parent / "fuzz"))
    import known
    import programs
    rows = json.loads((HERE.parent / "fuzz" / "fixtures" / "programs.json").read_text())["programs"]
    out = {}
    for row in rows:
        if "error" in row["outcome"]:
            tf.keras.backend.clear_session()
            msg = _mismatch(row["outcome"], programs.outcome_of(tf, row["program"]))
            if msg is not None:
                out[known.key(row["program"])] = msg
    return out


def main():
    sys.path.insert(0, str(HERE))
    import tapegrad
    doc = {"about": __doc__.split("\n\n")[0].replace("\n", " "),
           "conformance": dict(sorted(_conformance_entries(tapegrad).items())),
           "property": dict(sorted(_property_entries(tapegrad).items())),
           "fuzz": dict(sorted(_fuzz_entries(tapegrad).items()))}
    PATH.write_text(json.dumps(doc, indent=1, ensure_ascii=False) + "\n")
    print(f"{PATH.name}: {len(doc['conformance'])} conformance cases, "
          f"{len(doc['property'])} property calls, {len(doc['fuzz'])} fuzz programs with "
          f"messages still to match")


if __name__ == "__main__":
    main()
