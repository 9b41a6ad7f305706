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
    'function-072e87b9b1': "result['results'][0]['error']: TensorFlow gave 'TypeError', tapegrad gave 'InvalidArgumentError'",
    'function-0e57bed809': "result['results'][0]['error']: TensorFlow gave 'ValueError', tapegrad gave 'IndexError'",
    'function-0f1ff0a7d4': "result['results'][1]['error']: TensorFlow gave 'ValueError', tapegrad gave 'IndexError'",
    'function-1b31133a9d': "result['results'][0]['error']: TensorFlow gave 'ValueError', tapegrad gave 'IndexError'",
    'function-21dc673fde': "result['results'][0]['error']: TensorFlow gave 'ValueError', tapegrad gave 'IndexError'",
    'function-22d3dbbb84': "result['results'][0]['error']: TensorFlow gave 'TypeError', tapegrad gave 'InvalidArgumentError'",
    'function-29fc47b259': "result['results'][0]: TensorFlow gave {'dict': {'tensor': 'string', 'shape': {'list': []}, 'value': 'aa'}}, tapegrad gave 'aa'",
    'function-2ea4c5510a': "result['results'][0]['error']: TensorFlow gave 'ValueError', tapegrad gave 'IndexError'",
    'function-426b34bd0a': "result['results'][0]['error']: TensorFlow gave 'ValueError', tapegrad gave 'IndexError'",
    'function-47cfa5703d': "result['results'][1]['error']: TensorFlow gave 'TypeError', tapegrad gave 'InvalidArgumentError'",
    'function-4bda2ebdeb': "result['results'][0]['error']: TensorFlow gave 'ValueError', tapegrad gave 'IndexError'",
    'function-50500e1c7f': "result['results'][0]['error']: TensorFlow gave 'ValueError', tapegrad gave 'IndexError'",
    'function-53bb6ff23c': "result['results'][1]['error']: TensorFlow gave 'ValueError', tapegrad gave 'IndexError'",
    'function-574f9518a8': "result['results'][1]: TensorFlow gave {'dict': {'tensor': 'string', 'shape': {'list': []}, 'value': 'b'}}, tapegrad gave 'b'",
    'function-5d0da77130': "result['results'][0]['error']: TensorFlow gave 'ValueError', tapegrad gave 'IndexError'",
    'function-69abd2b5b5': "result['results'][1]['error']: TensorFlow gave 'TypeError', tapegrad gave 'InvalidArgumentError'",
    'function-6d70076ce4': "result['results'][1]['error']: TensorFlow gave 'ValueError', tapegrad gave 'IndexError'",
    'function-7a1ec1812d': "result['results'][0]['error']: TensorFlow gave 'TypeError', tapegrad gave 'InvalidArgumentError'",
    'function-7a52f6e56a': "result['results'][0]['error']: TensorFlow gave 'TypeError', tapegrad gave 'InvalidArgumentError'",
    'function-7abffd60dc': "result['results'][0]['error']: TensorFlow gave 'TypeError', tapegrad gave 'InvalidArgumentError'",
    'function-7c49b398c8': "result['results'][1]['error']: TensorFlow gave 'ValueError', tapegrad gave 'IndexError'",
    'function-86e5632b07': "result['results'][1]['error']: TensorFlow gave 'ValueError', tapegrad gave 'IndexError'",
    'function-91be4c09a5': "result['results'][0]['error']: TensorFlow gave 'TypeError', tapegrad gave 'InvalidArgumentError'",
    'function-970ad5776b': "result['results'][1]['error']: TensorFlow gave 'TypeError', tapegrad gave 'InvalidArgumentError'",
    'function-a4282aa070': "result['results'][0]['error']: TensorFlow gave 'TypeError', tapegrad gave 'InvalidArgumentError'",
    'function-a659be0774': "result['results'][0]['error']: TensorFlow gave 'ValueError', tapegrad gave 'IndexError'",
    'function-b5a7dbf281': "result['results'][1]['error']: TensorFlow gave 'ValueError', tapegrad gave 'IndexError'",
    'function-e71fef752b': "result['results'][0]['error']: TensorFlow gave 'TypeError', tapegrad gave 'InvalidArgumentError'",
    'function-ef4b1889ff': "result['results'][0]['error']: TensorFlow gave 'TypeError', tapegrad gave 'InvalidArgumentError'",
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
