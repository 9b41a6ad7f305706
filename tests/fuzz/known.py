"""Known divergences of tapegrad from TensorFlow on recorded fuzz programs: program key (see
``key``) -> what differs. Each is a strict xfail in test_fuzz.py: it must still fail, and the
entry goes when the divergence is fixed. Every entry is a defect to fix (or, where the reason
says "clearer", a message or class kept on purpose). Error messages that differ while the class
agrees are not here but in tests/conformance/message_ledger.json.

    .venv/bin/python tests/fuzz/known.py     # rewrites KNOWN below from a native replay
"""
import hashlib
import json
import sys
from pathlib import Path


def key(program):
    """A short stable name of a program: its kind and the first 10 hex of its JSON's sha1."""
    text = json.dumps(program, sort_keys=True)
    return f"{program['kind']}-{hashlib.sha1(text.encode()).hexdigest()[:10]}"


KNOWN = {
}


def main():
    here = Path(__file__).resolve().parent
    sys.path.insert(0, str(here))
    sys.path.insert(0, str(here.parent / "conformance"))
    import outcome
    import programs
    import tapegrad
    rows = json.loads((here / "fixtures" / "programs.json").read_text())["programs"]
    found = {}
    for row in rows:
        tapegrad.keras.backend.clear_session()
        got = programs.outcome_of(tapegrad, row["program"])
        if row["outcome"].get("error") is not None and row["outcome"]["error"] == got.get("error"):
            continue   # the same class: the message ledger follows the message
        diffs = outcome.compare(row["outcome"], got)
        if diffs:
            found[key(row["program"])] = diffs[0].replace("result: ", "", 1)[:160]
    text = Path(__file__).read_text()
    start = text.index("KNOWN = {")
    end = text.index("\n}\n", start) + 3
    body = "".join(f"    {k!r}: {v!r},\n" for k, v in sorted(found.items()))
    Path(__file__).write_text(text[:start] + "KNOWN = {\n" + body + "}\n" + text[end:])
    print(f"known.py: {len(found)} known divergences")


if __name__ == "__main__":
    main()
