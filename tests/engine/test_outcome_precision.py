"""The conformance comparison judges each value at the precision it was computed in
(tests/conformance/outcome.py): float32 work inside a float64 or Python-float result may differ
by a few float32 ulps between CPUs (AVX2 and AVX-512 machines round the last bit of some float32
sums differently); float64 work may not."""
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "conformance"))
import outcome  # noqa: E402


def _next32(v, steps=1):
    x = np.float32(v)
    for _ in range(steps):
        x = np.nextafter(x, np.float32(np.inf))
    return float(x)


def test_float32_work_in_a_python_float_may_differ_by_an_ulp():
    # Keras's fit history: float32 losses as Python floats (seen on an AMD EPYC with AVX-512)
    assert outcome.compare({"float": 0.6992467045783997}, {"float": 0.6992467641830444}) == []


def test_float32_work_in_a_float64_tensor_may_differ_by_an_ulp():
    # tf.image.adjust_gamma of a float64 image works in float32 (seen on the same machine)
    e = {"tensor": "float64", "shape": [1], "value": [0.027000002562999725]}
    a = {"tensor": "float64", "shape": [1], "value": [0.027000004425644875]}
    assert outcome.compare(e, a) == []


def test_more_than_a_few_float32_ulps_is_a_difference():
    e = 0.6992467045783997
    assert outcome.compare({"float": e}, {"float": _next32(e, outcome.FLOAT32_ULPS)}) == []
    diffs = outcome.compare({"float": e}, {"float": _next32(e, outcome.FLOAT32_ULPS + 1)})
    assert len(diffs) == 1 and "expected, got" in diffs[0]


def test_float64_work_is_held_to_float64():
    e = 0.1 + 0.2                      # not a float32 number: float64 work
    a = e * (1 + 1e-8)
    assert outcome.compare({"float": e}, {"float": a}) != []
    # a float32 number recorded, ours not one: our work was not float32, so no ulp allowance
    e32 = 0.6992467045783997
    assert outcome.compare({"float": e32}, {"float": e32 * (1 + 1e-9)}) != []


def test_sign_and_float32_tensors_are_unchanged():
    assert outcome.compare({"float": 1e-3}, {"float": -1e-3}) != []
    e = {"tensor": "float32", "shape": [], "value": 1.0}
    assert outcome.compare(e, {"tensor": "float32", "shape": [], "value": 1.0 + 1e-4}) != []
    assert outcome.compare(e, {"tensor": "float32", "shape": [], "value": 1.0 + 1e-6}) == []


def test_integers_are_exact_whatever_tolerance_is_asked_for():
    e = {"tensor": "int32", "shape": [], "value": 20000}
    a = {"tensor": "int32", "shape": [], "value": 20001}
    assert outcome.compare(e, a) != []
    assert outcome.compare(e, a, (1e-4, 1e-5)) != []
    assert outcome.compare(e, a, {"float32": (1e-4, 1e-5)}) != []


def test_tolerances_by_dtype():
    loose = {"float32": (1e-4, 1e-5)}
    f32 = {"tensor": "float32", "shape": [], "value": 1.0}
    f64 = {"tensor": "float64", "shape": [], "value": 1.0}
    assert outcome.compare(f32, {**f32, "value": 1.00005}, loose) == []
    assert outcome.compare(f64, {**f64, "value": 1.00005}, loose) != []   # float64 stays tight
    assert outcome.compare(f64, {**f64, "value": 1.00005}, (1e-4, 1e-5)) == []   # one pair: all floats
