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


def compare(expected, actual, tol=(None, None), path="result"):
    """Every difference between two described outcomes, as readable lines (empty: equal)."""
    out = []
    _compare(expected, actual, tol, path, out)
    return out


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
    """(rtol, atol, float32_work): the third says float32 numbers may differ by float32 ulps."""
    rtol, atol = TOLERANCES.get(dtype, (0.0, 0.0))
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
