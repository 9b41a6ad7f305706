"""What a conformance case produced, as plain JSON data, and how two such outcomes are compared.

The same case function runs once under real TensorFlow (``record.py``, the fixtures) and under
tapegrad (``tests/engine/test_conformance.py``). Both sides describe what came back with
``describe``: a tensor becomes its dtype, shape and values; an exception its class name; nested
lists, tuples and dicts keep their structure. ``compare`` lists every difference.

A case may set its own tolerance with ``@tolerance(rtol=..., atol=...)``.

Values are compared at the precision they were computed in. A float64 tensor or a Python float
can carry float32 work (Keras's loss history, an image op that works in float32 and casts back):
when the recorded value and ours are both exactly float32 numbers, they may differ by
``FLOAT32_ULPS`` float32 ulps, since NumPy's SIMD paths (AVX2 or AVX-512, chosen by CPU) and
TensorFlow's Eigen may round the last bit of a float32 sum or transcendental differently.
"""
import contextlib
import io
import math
import re

import numpy as np

# Default tolerances by dtype name: rtol, atol. float32 transcendental functions differ in the last
# few bits between TensorFlow's Eigen and NumPy.
TOLERANCES = {
    "float16": (2e-3, 2e-3), "bfloat16": (1e-2, 1e-2),
    "float32": (2e-5, 2e-6), "complex64": (2e-5, 2e-6),
    "float64": (1e-10, 1e-12), "complex128": (1e-10, 1e-12),
}
# Float64 results whose values are float32 numbers on both sides: how many float32 ulps apart they
# may be (seen: 1 ulp between an AVX2 and an AVX-512 machine for the same NumPy).
FLOAT32_ULPS = 4
# Dtypes whose values may carry float32 work (see the module's docstring).
_WIDE = {"float64"}


def message_differs(reason, *phrases):
    """Marks a case whose error message is ours, not TensorFlow's, on purpose (clearer, or naming
    values TensorFlow's leaves out): ``reason`` says why; each of ``phrases`` must appear in our
    message, so the case still fails on an unrelated error of the same class."""
    def mark(fn):
        fn.message_differs = (reason, phrases)
        return fn
    return mark


def tolerance(rtol=None, atol=None):
    """Marks a case as needing a looser (or tighter) numerical tolerance."""
    def mark(fn):
        fn.tolerance = (rtol, atol)
        return fn
    return mark


def run(fn, tf):
    """Runs ``fn(tf)`` and describes its result (or the exception it raised) and its stdout."""
    out = io.StringIO()
    try:
        with contextlib.redirect_stdout(out):
            value = fn(tf)
        result = {"value": describe(value)}
    except Exception as e:  # noqa: BLE001 - the exception is the outcome
        result = {"error": type(e).__name__, "message": str(e)[:400]}
    text = out.getvalue()
    if text:
        result["stdout"] = text
    return result


def _number(v):
    if isinstance(v, complex):
        return [_number(v.real), _number(v.imag)]
    if isinstance(v, float):
        if math.isnan(v):
            return "nan"
        if math.isinf(v):
            return "inf" if v > 0 else "-inf"
    if isinstance(v, bytes):
        return v.decode("utf-8", "replace")
    return v


def _values(a):
    return _nested(a.tolist())


def _nested(x):
    if isinstance(x, list):
        return [_nested(v) for v in x]
    return _number(x)


def _is_tensor_like(x):
    return (hasattr(x, "numpy") and callable(getattr(x, "numpy")) and hasattr(x, "dtype")
            and hasattr(x, "shape") and not isinstance(x, np.ndarray))


def describe(x):
    """Plain JSON data for ``x``, the same for TensorFlow's and tapegrad's objects."""
    if x is None or isinstance(x, (bool, int, str)):
        return x
    if isinstance(x, float):
        return {"float": _number(x)}
    if isinstance(x, complex):
        return {"complex": _number(x)}
    if isinstance(x, bytes):
        return {"bytes": x.decode("utf-8", "replace")}
    if isinstance(x, np.ndarray):
        return {"array": str(x.dtype), "shape": list(x.shape), "value": _values(x)}
    if isinstance(x, np.generic):
        return {"scalar": str(x.dtype), "value": _number(x.item())}
    if type(x).__name__ == "TensorShape":
        dims = x.as_list() if getattr(x, "rank", 0) is not None else None
        return {"shape": dims}
    if type(x).__name__ == "DType":
        return {"dtype": x.name}
    if hasattr(x, "to_list") and hasattr(x, "flat_values"):
        return {"ragged": _nested(x.to_list())}
    if hasattr(x, "indices") and hasattr(x, "values") and hasattr(x, "dense_shape"):
        return {"sparse": [describe(x.indices), describe(x.values), describe(x.dense_shape)]}
    if _is_tensor_like(x):
        a = np.asarray(x.numpy())
        return {"tensor": x.dtype.name, "shape": list(a.shape), "value": _values(a)}
    if isinstance(x, dict):
        return {"dict": {str(k): describe(v) for k, v in x.items()}}
    if isinstance(x, tuple):
        return {"tuple": [describe(v) for v in x]}
    if isinstance(x, list):
        return {"list": [describe(v) for v in x]}
    return {"object": type(x).__name__}


# What is not the meaning of a TensorFlow message: where the kernel ran, the op and node names it
# adds, Keras's call wrapper, the wrapper of tf.debugging.Assert's data, dtype spellings,
# temporary paths and function numbers.
_NOISE = [
    (re.compile(r"\{\{function_node [^}]*\}\}\s*"), ""),
    (re.compile(r"Expected '(?:tf\.)?Tensor\(False, shape=\(\), dtype=bool\)' to be true\. "
                r"Summarized data: (.*)", re.S),   # tf.debugging.Assert's wrapper around its data
     lambda m: re.sub(r"\bb'([^'\n]*)'", r"\1", m.group(1)).replace("\n", " ")),
    (re.compile(r"\n\t; NodeDef: .*", re.S), ""),
    (re.compile(r"\s*\[Op:[^\]]*\](?: name: \S*)?"), ""),
    (re.compile(r", node name: [\w/]+"), ""),
    (re.compile(r"Exception encountered when calling [\w.]+\(\)\.\s*\x1b\[1m(.*?)\x1b\[0m.*", re.S), r"\1"),
    (re.compile(r"<dtype: '(\w+)'>"), r"\1"),
    (re.compile(r"\btf\.(?=[A-Za-z])"), ""),
    (re.compile(r"/tmp/[\w./-]*"), "<tmp>"),
    (re.compile(r"(__inference_\S*?)_\d+\b"), r"\1"),
]
_TF_DTYPES = {"half": "float16", "float": "float32", "double": "float64"}
# A ledger entry holds our message; a run matches it on this many leading characters of its
# meaning (the op and the kind of problem: the rest may carry NumPy's wording, which differs
# between the NumPy of CPython and Pyodide's).
LEDGER_PREFIX = 48
# The meaningful part: numbers, quoted names, dtype names.
_TOKEN = re.compile(r"-?\d+(?:\.\d+)?(?:e-?\d+)?|'[^'\s]{1,40}'|`[^`\s]{1,40}`|\b(?:b?float(?:16|32|64)"
                    r"|u?int(?:8|16|32|64)|bool|complex(?:64|128)|string|half|double)\b")


def meaning(message):
    """A TensorFlow (or tapegrad) error message without what does not carry its meaning (runs
    of spaces count as one)."""
    for pattern, repl in _NOISE:
        message = pattern.sub(repl, message)
    return re.sub(r"(?<=\S)  +(?=\S)", " ", message).strip()


def _tokens(message):
    return {_TF_DTYPES.get(t, t) for t in (t.strip("'`") for t in _TOKEN.findall(meaning(message)))}


def message_matches(expected, actual):
    """Whether our message says what TensorFlow's says: the same text once noise is removed, or
    TensorFlow's contained in ours, or every number, quoted name and dtype of TensorFlow's in ours.
    (Recorded messages are cut at 400 characters: a cut one is compared on its first 300.)"""
    if len(expected) >= 400:
        expected = expected[:300]
    e, a = meaning(expected), meaning(actual)
    if e == a or e in a:
        return True
    wanted = _tokens(expected)
    return bool(wanted) and wanted <= _tokens(actual)


def compare(expected, actual, tol=(None, None), path="result", messages=False, message=None,
            known=None):
    """Every difference between two described outcomes, as readable lines (empty: equal).

    ``tol``: (rtol, atol) for every floating dtype, or {dtype name: (rtol, atol)}; None keeps the
    default. Integers, booleans and strings are always compared exactly. An error is compared by
    class and, with ``messages``, by ``message_matches``, or, for a case marked ``@message_differs``, by its phrases
    (``message``: the mark's (reason, phrases)), or, for a case in the ledger of known message
    differences (``ledger.py``), by our message as the ledger holds it (``known``)."""
    out = []
    if messages and isinstance(expected, dict) and "error" in expected and expected.get("error") == (
            actual.get("error") if isinstance(actual, dict) else None):
        _compare_message(expected.get("message", ""), actual.get("message", ""), message, known,
                         path, out)
        return out
    _compare(expected, actual, tol, path, out)
    return out


def _compare_message(expected, actual, message, known, path, out):
    if known is not None:
        if message_matches(expected, actual):
            out.append(f"{path}: the message now says what TensorFlow's says: take the case out of "
                       f"tests/conformance/message_ledger.json (python tests/conformance/ledger.py)")
        elif meaning(actual)[:LEDGER_PREFIX] != meaning(known)[:LEDGER_PREFIX]:
            out.append(f"{path}: tapegrad's message changed from the ledger's {known!r} to "
                       f"{actual!r}, and neither says what TensorFlow's {meaning(expected)!r} says")
        return
    if message is None:
        if not message_matches(expected, actual):
            out.append(f"{path}: TensorFlow's message {meaning(expected)!r} is not what tapegrad "
                       f"says: {actual!r} (the same text, or every number, quoted name and dtype "
                       f"in it; or mark the case @message_differs with a reason)")
        return
    reason, phrases = message
    missing = [p for p in phrases if p not in actual]
    if missing:
        out.append(f"{path}: tapegrad's message {actual!r} lacks {missing} "
                   f"(@message_differs: {reason})")


def _compare(e, a, tol, path, out):
    if isinstance(e, dict) and isinstance(a, dict):
        if "error" in e or "error" in a:
            if e.get("error") != a.get("error"):
                out.append(f"{path}: TensorFlow gave {_show(e)}, tapegrad gave {_show(a)}")
            return
        if "value" in e and set(e) <= {"value", "stdout"}:  # a whole outcome
            _compare(e.get("value"), a.get("value"), tol, path, out)
            if e.get("stdout", "") != a.get("stdout", ""):
                out.append(f"{path}: printed {e.get('stdout', '')!r}, tapegrad printed "
                           f"{a.get('stdout', '')!r}")
            return
        kind_e = next(iter(e), None)
        kind_a = next(iter(a), None)
        if kind_e != kind_a:
            out.append(f"{path}: TensorFlow gave {_show(e)}, tapegrad gave {_show(a)}")
            return
        if kind_e in ("tensor", "array", "scalar"):
            dt = e[kind_e]
            if dt != a[kind_e]:
                out.append(f"{path}: dtype {dt} expected, got {a[kind_e]}")
            if e.get("shape") != a.get("shape"):
                out.append(f"{path}: shape {e.get('shape')} expected, got {a.get('shape')}")
                return
            _compare_values(e["value"], a["value"], _tolerance(dt, tol), path, out)
        elif kind_e == "float":
            _compare_values(e["float"], a["float"], _tolerance("float64", tol), path, out)
        elif kind_e in ("tuple", "list"):
            if len(e[kind_e]) != len(a[kind_e]):
                out.append(f"{path}: {len(e[kind_e])} items expected, got {len(a[kind_e])}")
                return
            for i, (x, y) in enumerate(zip(e[kind_e], a[kind_e])):
                _compare(x, y, tol, f"{path}[{i}]", out)
        elif kind_e == "dict":
            if sorted(e["dict"]) != sorted(a["dict"]):
                out.append(f"{path}: keys {sorted(e['dict'])} expected, got {sorted(a['dict'])}")
                return
            for k in e["dict"]:
                _compare(e["dict"][k], a["dict"][k], tol, f"{path}[{k!r}]", out)
        elif kind_e == "sparse":
            for i, (x, y) in enumerate(zip(e["sparse"], a["sparse"])):
                _compare(x, y, tol, f"{path}.{('indices', 'values', 'dense_shape')[i]}", out)
        elif kind_e == "ragged":
            _compare_values(e["ragged"], a["ragged"], _tolerance("float32", tol), path, out)
        elif e != a:
            out.append(f"{path}: TensorFlow gave {_show(e)}, tapegrad gave {_show(a)}")
        return
    if e != a:
        out.append(f"{path}: TensorFlow gave {_show(e)}, tapegrad gave {_show(a)}")


def _tolerance(dtype, tol):
    """(rtol, atol, float32_work) for values of ``dtype``: integers, booleans and strings exactly
    (a looser tolerance never applies to them: 20000 and 20001 differ); floating and complex
    values by ``TOLERANCES``, or by ``tol``: one (rtol, atol) pair for every floating dtype, or a
    dict of pairs by dtype name. The third item says float32 numbers may differ by float32 ulps."""
    if dtype not in TOLERANCES:
        return (0.0, 0.0, False)
    if isinstance(tol, dict):
        tol = tol.get(dtype, (None, None))
    rtol, atol = TOLERANCES[dtype]
    return (rtol if tol[0] is None else tol[0], atol if tol[1] is None else tol[1],
            dtype in _WIDE)


def _is_float32_number(v):
    return isinstance(v, float) and math.isfinite(v) and float(np.float32(v)) == v


def close(e, a, tol):
    """Whether the numbers ``e`` (recorded) and ``a`` (ours) agree under ``_tolerance``'s ``tol``."""
    rtol, atol, float32_work = tol
    if abs(e - a) <= atol + rtol * abs(e):
        return True
    if float32_work and _is_float32_number(e) and _is_float32_number(a):
        ulps = abs(int(np.float32(e).view(np.int32)) - int(np.float32(a).view(np.int32)))
        return (e > 0) == (a > 0) and ulps <= FLOAT32_ULPS
    return False


def _compare_values(e, a, tol, path, out):
    if isinstance(e, list) or isinstance(a, list):
        if not (isinstance(e, list) and isinstance(a, list)) or len(e) != len(a):
            out.append(f"{path}: values {_short(e)} expected, got {_short(a)}")
            return
        before = len(out)
        for i, (x, y) in enumerate(zip(e, a)):
            _compare_values(x, y, tol, f"{path}[{i}]", out)
            if len(out) - before >= 3:
                out.append(f"{path}: (more differences not shown)")
                return
        return
    if isinstance(e, (int, float)) and isinstance(a, (int, float)) \
            and not isinstance(e, bool) and not isinstance(a, bool):
        if not close(e, a, tol):
            out.append(f"{path}: {e!r} expected, got {a!r}")
        return
    if e != a:
        out.append(f"{path}: {e!r} expected, got {a!r}")


def _short(x, n=200):
    s = repr(x)
    return s if len(s) <= n else s[:n] + "..."


def _show(d):
    if isinstance(d, dict) and "error" in d:
        return f"{d['error']}: {d.get('message', '')[:200]}"
    return _short(d)
