"""The backend seam: engine array math reaches NumPy only through ``tapegrad.backend.xp``, so a
NumPy-compatible library can be put underneath without touching the rules."""
import os
import pathlib
import re
import subprocess
import sys
import warnings

import numpy as np
import pytest

import tapegrad
from tapegrad import backend

PACKAGE = pathlib.Path(tapegrad.__file__).resolve().parent

# Modules allowed to import NumPy directly, and why.
ALLOWED = {
    "backend.py": "the seam itself",
    "backends/array_api.py": "the Array API adapter hands values to and from NumPy",
    "test_util.py": "finite differences run on the host, in float64, by design",
    "dtypes.py": "dtype objects map to NumPy dtypes",
    "graph/capturing.py": "graph export turns values into host lists for JSON",
    "graph/summary.py": "graph export turns values into host lists for JSON",
}
NOT_YET = set()  # every engine module is behind the seam


def test_only_the_backend_imports_numpy():
    offenders = []
    for path in sorted(PACKAGE.rglob("*.py")):
        rel = path.relative_to(PACKAGE).as_posix()
        if rel in ALLOWED or rel in NOT_YET:
            continue
        code = "\n".join(line for line in path.read_text().splitlines()
                         if not line.lstrip().startswith((">>>", "...", "#")))
        if re.search(r"^\s*(import numpy|from numpy)", code, flags=re.M):
            offenders.append(rel)
    assert offenders == [], f"modules importing numpy directly instead of backend.xp: {offenders}"


def test_rules_and_kernels_use_the_backend_module():
    from tapegrad import ground
    from tapegrad.ops import (activation_ops, arithmetic_ops, conv_ops, exponential_ops,
                              indexing_ops, linalg_ops, reduction_ops, shape_ops, trig_ops)
    for mod in (ground, arithmetic_ops, exponential_ops, trig_ops, activation_ops, reduction_ops,
                conv_ops, indexing_ops, linalg_ops, shape_ops):
        assert mod.xp is backend.xp


def test_kernel_dispatch_reaches_arrays_through_the_backend():
    from tapegrad.kernels import calls, measure
    assert calls.xp is backend.xp and measure.xp is backend.xp


# -- the namespace chosen per process (TAPEGRAD_ARRAY_NAMESPACE) -----------------------------------

CHOSEN = os.environ.get("TAPEGRAD_ARRAY_NAMESPACE", "").strip() or "numpy"
NO_SUBPROCESS = pytest.mark.skipif(sys.platform == "emscripten",
                                   reason="Pyodide cannot start a subprocess")


def test_the_chosen_namespace_is_the_one_named_in_the_environment():
    assert backend.NAME == CHOSEN
    if CHOSEN == "numpy":
        assert backend.xp is np   # the default path is NumPy itself: no wrapper, no extra call
    else:
        before = backend.xp.calls()
        assert float(tapegrad.exp(tapegrad.constant(0.0)) + 1.0) == 2.0
        assert backend.xp.__name__ == CHOSEN and backend.xp.calls() > before


@NO_SUBPROCESS
def test_the_default_process_never_loads_array_api_compat():
    env = {k: v for k, v in os.environ.items() if k != "TAPEGRAD_ARRAY_NAMESPACE"}
    code = ("import sys, tapegrad as tf, numpy as np; x = tf.Variable(2.0)\n"
            "with tf.GradientTape() as t: y = x * x\n"
            "assert tf.backend.xp is np if hasattr(tf, 'backend') else True\n"
            "print(t.gradient(y, x).numpy(), 'array_api_compat' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                         timeout=120)
    assert out.stdout.split() == ["4.0", "False"], out.stderr


@NO_SUBPROCESS
def test_an_unimportable_namespace_is_a_clear_error():
    env = dict(os.environ, TAPEGRAD_ARRAY_NAMESPACE="no_such_array_library")
    out = subprocess.run([sys.executable, "-c", "import tapegrad"], env=env,
                         capture_output=True, text=True, timeout=120)
    assert out.returncode != 0
    assert "TAPEGRAD_ARRAY_NAMESPACE=no_such_array_library: cannot import" in out.stderr


@NO_SUBPROCESS
def test_a_tape_runs_on_array_api_strict_with_kernels_off():
    pytest.importorskip("array_api_strict", reason="array-api-strict is not installed here")
    env = dict(os.environ, TAPEGRAD_ARRAY_NAMESPACE="array_api_strict")
    code = ("import tapegrad as tf\n"
            "from tapegrad import backend, kernels\n"
            "w = tf.Variable([[1.0, 2.0], [3.0, 4.0]])\n"
            "with tf.GradientTape() as t:\n"
            "    loss = tf.reduce_sum(tf.tanh(tf.matmul([[1.0, -1.0]], w)) ** 2)\n"
            "g = [[round(v, 4) for v in row] for row in t.gradient(loss, w).numpy().tolist()]\n"
            "print(g, kernels.enabled(),\n"
            "      backend.xp.calls() > 0, sorted(backend.xp.fallbacks()))")
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                         timeout=120)
    # d/dw sum(tanh(x@w)^2) = x^T (2 tanh(v) (1 - tanh(v)^2)), v = x@w = [-2, -2]
    v = np.tanh(-2.0)
    g = round(float(2 * v * (1 - v * v)), 4)
    assert out.stdout.strip() == (f"[[{g}, {g}], [{-g}, {-g}]] False True []"), out.stderr


# -- the adapter itself (array-api-strict refuses anything outside the standard) ------------------

@pytest.fixture
def strict():
    library = pytest.importorskip("array_api_strict",
                                  reason="array-api-strict is not installed here")
    from tapegrad.backends import array_api
    return array_api.Namespace(library, "array_api_strict"), array_api


def test_numpy_names_are_computed_by_the_library_under_the_standard_names(strict):
    ns, _ = strict
    a = np.array([[1.0, 2.0], [3.0, 4.0]], np.float32)
    before = ns.calls()
    np.testing.assert_array_equal(ns.concatenate([a, a], axis=0), np.concatenate([a, a]))
    np.testing.assert_array_equal(ns.transpose(a), a.T)
    np.testing.assert_array_equal(ns.swapaxes(a[None], 0, 2), np.swapaxes(a[None], 0, 2))
    np.testing.assert_allclose(ns.arccos(a / 4), np.arccos(a / 4), rtol=1e-6)
    np.testing.assert_array_equal(ns.power(a, 2), a ** 2)
    zeros = ns.zeros((2, 3), np.int32)          # NumPy's positional dtype
    assert zeros.dtype == np.int32 and zeros.shape == (2, 3)
    assert ns.calls() - before == 6 and ns.fallbacks() == {}
    assert ns.concatenate([a, a]).dtype == np.float32 and isinstance(ns.add(a, a), np.ndarray)


def test_reductions_of_everything_give_a_numpy_scalar_as_numpy_does(strict):
    ns, _ = strict
    total = ns.sum(np.arange(4, dtype=np.float32))
    assert isinstance(total, np.float32) and total == 6.0
    assert ns.reshape(np.float32(1.0), ()).shape == ()


def test_a_function_outside_the_standard_falls_back_to_numpy_once_with_a_warning(strict):
    ns, array_api = strict
    a = np.arange(6.0).reshape(2, 3)
    with pytest.warns(array_api.NumpyFallbackWarning, match="einsum runs on NumPy"):
        first = ns.einsum("ij,kj->ik", a, a)
    np.testing.assert_array_equal(first, a @ a.T)
    with warnings.catch_warnings():
        warnings.simplefilter("error")            # the second call is silent
        ns.einsum("ij->j", a)
    assert ns.fallbacks() == {"einsum": "not in the Array API standard: NumPy fallback"}


def test_numpy_semantics_the_library_refuses_fall_back_and_say_why(strict):
    ns, array_api = strict
    with pytest.warns(array_api.NumpyFallbackWarning, match="add runs on NumPy"):
        mixed = ns.add(np.ones(2, np.int32), np.ones(2, np.float32))   # no cross-kind promotion
    assert mixed.dtype == np.float64 and mixed.tolist() == [2.0, 2.0]
    assert "TypeError" in ns.fallbacks()["add"]


def test_ufunc_methods_and_submodules_fall_back_or_compute(strict):
    ns, array_api = strict
    out = np.zeros(3)
    with pytest.warns(array_api.NumpyFallbackWarning, match="add.at"):
        ns.add.at(out, [0, 0, 2], 1.0)
    assert out.tolist() == [2.0, 0.0, 1.0]
    m = np.array([[2.0, 1.0], [1.0, 3.0]])
    np.testing.assert_allclose(ns.linalg.inv(m), np.linalg.inv(m))
    assert "linalg.inv" not in ns.fallbacks()


def test_types_and_host_machinery_stay_numpys(strict):
    ns, _ = strict
    assert ns.float32 is np.float32 and ns.ndarray is np.ndarray and ns.newaxis is None
    with ns.errstate(all="ignore"):
        assert np.isinf(ns.divide(np.float32(1), np.float32(0)))
    with pytest.raises(AttributeError, match="neither array_api_strict nor NumPy has"):
        ns.no_such_function


def test_device_mode_calls_a_numpy_like_library_directly():
    """CuPy's path (device mode), exercised with NumPy standing in for the GPU library."""
    pytest.importorskip("array_api_compat", reason="array-api-compat is not installed here")
    from tapegrad.backends import array_api
    ns = array_api.Namespace(np, "numpy-as-device")
    assert ns.device and ns.ndarray is np.ndarray and ns.gpu_count() == 0
    a = np.arange(6.0).reshape(2, 3)
    assert ns.concatenate([a, a]).shape == (4, 3) and ns.calls() == 1
    np.testing.assert_array_equal(ns.einsum("ij->ji", a), a.T)   # NumPy has it: no fallback
    assert ns.fallbacks() == {} and ns.to_host(a) is a


def test_device_mode_falls_back_to_numpy_where_the_library_refuses_numpy_semantics():
    """CuPy refuses what NumPy accepts (``prod`` of a tuple, a host array, string dtypes): the
    call runs on NumPy, once with a warning, and a numeric result goes back to the library."""
    pytest.importorskip("array_api_compat", reason="array-api-compat is not installed here")
    import types
    from tapegrad.backends import array_api

    def prod(a, *args, **kwargs):
        if not isinstance(a, np.ndarray):
            raise AttributeError(f"'{type(a).__name__}' object has no attribute 'prod'")
        return np.prod(a, *args, **kwargs)

    def asarray(a, *args, **kwargs):
        out = np.asarray(a, *args, **kwargs)
        if out.dtype.kind in "US":
            raise ValueError(f"Unsupported dtype {out.dtype}")
        return out

    strict_device = types.SimpleNamespace(**{n: getattr(np, n) for n in dir(np)
                                             if not n.startswith("_")})
    strict_device.prod, strict_device.asarray = prod, asarray
    ns = array_api.Namespace(strict_device, "strict-device", device=True)
    with pytest.warns(array_api.NumpyFallbackWarning, match="prod runs on NumPy"):
        assert int(ns.prod((2, 3, 4))) == 24
    assert "AttributeError" in ns.fallbacks()["prod"]
    with pytest.warns(array_api.NumpyFallbackWarning, match="asarray runs on NumPy"):
        words = ns.asarray(["ab", "c"])   # strings have no device form: they stay NumPy's
    assert isinstance(words, np.ndarray) and words.tolist() == ["ab", "c"]
    with pytest.raises(ValueError, match="could not be broadcast"), \
            pytest.warns(array_api.NumpyFallbackWarning):
        ns.add(np.ones(2), np.ones(3))   # a real error is still raised (NumPy's own)
