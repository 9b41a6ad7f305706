"""Every C kernel against NumPy (natively and inside Pyodide), on random shapes including 1,
primes, odd tails, zero sizes, NaN and inf; plus the dispatch decisions around them."""
import math

import numpy as np
import pytest

from tapegrad.kernels import calls, dispatch

LIB = dispatch.lib()
pytestmark = pytest.mark.skipif(LIB is None, reason=f"kernels not loaded: {dispatch.reason()}")

DTYPES = [np.float32, np.float64]
SIZES = [0, 1, 2, 3, 5, 7, 8, 13, 31, 64, 97, 257]
TOL = {np.float32: dict(rtol=2e-5, atol=1e-5), np.float64: dict(rtol=1e-12, atol=1e-12)}


def rand(rng, shape, dtype, special=False):
    a = rng.standard_normal(shape).astype(dtype)
    if special and a.size >= 4:
        flat = a.reshape(-1)
        flat[rng.integers(0, a.size, 3)] = [np.nan, np.inf, -np.inf]
    return a


def same(got, want):
    """Equal values (NaN where NaN), same shape and dtype."""
    assert got.shape == np.shape(want) and got.dtype == np.asarray(want).dtype
    np.testing.assert_array_equal(got, want)


# --------------------------------------------------------------------------- matmul

MATMUL_SHAPES = [(1, 1, 1), (1, 7, 1), (7, 1, 5), (5, 3, 2), (13, 17, 11), (6, 8, 4),
                 (64, 64, 64), (97, 31, 257), (73, 300, 9), (0, 4, 3), (4, 0, 3), (4, 3, 0),
                 (130, 67, 520)]


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("m,k,n", MATMUL_SHAPES)
@pytest.mark.parametrize("ta,tb", [(False, False), (True, False), (False, True), (True, True)])
def test_matmul_matches_numpy(dtype, m, k, n, ta, tb):
    rng = np.random.default_rng(m * 1000 + k * 10 + n)
    a = rand(rng, (k, m) if ta else (m, k), dtype)
    b = rand(rng, (n, k) if tb else (k, n), dtype)
    got = calls.matmul(LIB, a, b, ta, tb)
    want = (a.T if ta else a) @ (b.T if tb else b)
    assert got.shape == want.shape and got.dtype == want.dtype
    scale = math.sqrt(max(k, 1))
    np.testing.assert_allclose(got, want, rtol=TOL[dtype]["rtol"] * scale,
                               atol=TOL[dtype]["atol"] * scale)


@pytest.mark.parametrize("dtype", DTYPES)
def test_matmul_batches_and_a_shared_matrix(dtype):
    rng = np.random.default_rng(1)
    a = rand(rng, (2, 3, 5, 7), dtype)
    b = rand(rng, (2, 3, 7, 4), dtype)
    w = rand(rng, (7, 9), dtype)
    x = rand(rng, (3, 7), dtype)
    np.testing.assert_allclose(calls.matmul(LIB, a, b), a @ b, **TOL[dtype])
    np.testing.assert_allclose(calls.matmul(LIB, a, w), a @ w, **TOL[dtype])
    np.testing.assert_allclose(calls.matmul(LIB, x, b), x @ b, **TOL[dtype])
    np.testing.assert_allclose(calls.matmul(LIB, b, a, True, True),
                               np.swapaxes(b, -1, -2) @ np.swapaxes(a, -1, -2), **TOL[dtype])


@pytest.mark.parametrize("dtype", DTYPES)
def test_matmul_strided_views_and_special_values(dtype):
    rng = np.random.default_rng(2)
    big = rand(rng, (40, 30), dtype)
    a, b = big[::2, 1::3], big[1:11, ::-2]          # non-contiguous, negative strides
    np.testing.assert_allclose(calls.matmul(LIB, a, b), a @ b, **TOL[dtype])
    a = rand(rng, (9, 6), dtype)
    a[2, 3], a[5, 0] = np.nan, np.inf
    b = rand(rng, (6, 10), dtype)
    got, want = calls.matmul(LIB, a, b), a @ b
    np.testing.assert_array_equal(np.isnan(got), np.isnan(want))
    np.testing.assert_array_equal(np.isinf(got), np.isinf(want))


def test_matmul_declines_what_it_does_not_take():
    f32 = np.ones((3, 3), np.float32)
    assert calls.matmul(LIB, f32, f32.astype(np.float64)) is None      # mixed dtypes
    assert calls.matmul(LIB, f32.astype(np.int32), f32.astype(np.int32)) is None
    assert calls.matmul(LIB, np.ones(3, np.float32), f32) is None      # 1-D operand
    assert calls.matmul(LIB, np.ones((2, 3, 3), np.float32), np.ones((4, 3, 3), np.float32)) is None


# --------------------------------------------------------------------------- elementwise

BINARY = {"add": np.add, "sub": np.subtract, "mul": np.multiply, "div": np.divide,
          "max": np.maximum, "min": np.minimum}
UNARY = {"neg": np.negative, "abs": np.abs, "square": np.square, "sqrt": np.sqrt,
         "relu": lambda x: np.maximum(x, np.zeros((), x.dtype))}


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("op", sorted(BINARY))
@pytest.mark.parametrize("n", SIZES)
def test_binary_same_shape_and_scalars(dtype, op, n):
    rng = np.random.default_rng(n)
    a, b = rand(rng, (n,), dtype, True), rand(rng, (n,), dtype, True)
    s = np.asarray(rng.standard_normal(), dtype)
    with np.errstate(all="ignore"):
        same(calls.binary(LIB, op, a, b), BINARY[op](a, b))
        same(calls.binary(LIB, op, a, s), BINARY[op](a, s))
        same(calls.binary(LIB, op, s, a), BINARY[op](s, a))
        same(calls.binary(LIB, op, a, s.reshape(1)), BINARY[op](a, s.reshape(1)))


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("op", sorted(BINARY))
@pytest.mark.parametrize("m,n", [(1, 1), (3, 1), (1, 5), (7, 13), (4, 8), (0, 3), (3, 0), (11, 97)])
def test_binary_row_and_column_broadcasts(dtype, op, m, n):
    rng = np.random.default_rng(m * 100 + n)
    x = rand(rng, (m, n), dtype, True)
    row, col = rand(rng, (n,), dtype), rand(rng, (m, 1), dtype)
    cases = [(x, row), (row, x), (x, row.reshape(1, n)), (x, col), (col, x),
             (rand(rng, (2, m, n), dtype), row)]
    with np.errstate(all="ignore"):
        for a, b in cases:
            same(calls.binary(LIB, op, a, b), BINARY[op](a, b))


def test_binary_declines_other_patterns():
    a = np.ones((3, 1), np.float32)
    assert calls.binary(LIB, "add", a, np.ones((1, 4), np.float32)) is None   # outer broadcast
    assert calls.binary(LIB, "add", a, a.astype(np.float64)) is None
    assert calls.binary(LIB, "add", np.ones((4, 4), np.float32)[:, ::2], np.ones((4, 2),
                        np.float32)) is None                                     # not contiguous
    assert calls.binary(LIB, "add", np.ones(3, np.int64), np.ones(3, np.int64)) is None


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("op", sorted(UNARY))
@pytest.mark.parametrize("n", SIZES)
def test_unary_matches_numpy(dtype, op, n):
    rng = np.random.default_rng(n)
    a = rand(rng, (n, 2), dtype, True)
    with np.errstate(all="ignore"):
        same(calls.unary(LIB, op, a), UNARY[op](a))


# --------------------------------------------------------------------------- reductions

REDUCE = {"sum": np.sum, "max": np.max, "mean": np.mean}


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("op", sorted(REDUCE))
@pytest.mark.parametrize("shape,axes", [((1,), None), ((7,), None), ((1000,), (0,)),
                                        ((3, 5), (1,)), ((3, 5), (0,)), ((13, 1), None),
                                        ((4, 6, 9), (1, 2)), ((4, 6, 9), (0, 1)),
                                        ((2, 3, 97), (2,)), ((257, 3), (0,)), ((5, 4097), None)])
@pytest.mark.parametrize("keepdims", [False, True])
def test_reductions_match_numpy(dtype, op, shape, axes, keepdims):
    rng = np.random.default_rng(len(shape) * 31 + shape[-1])
    x = rand(rng, shape, dtype) + dtype(3)   # away from zero: relative tolerance is meaningful
    got = calls.reduce(LIB, op, x, axes, keepdims)
    want = REDUCE[op](x, axis=axes, keepdims=keepdims)
    assert type(got) is type(want) and np.shape(got) == np.shape(want)
    assert np.asarray(got).dtype == np.asarray(want).dtype
    np.testing.assert_allclose(got, want, **TOL[dtype])


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("op", sorted(REDUCE))
def test_reductions_propagate_nan_and_inf(dtype, op):
    x = np.arange(60, dtype=dtype).reshape(6, 10)
    x[1, 3], x[2, 9], x[4, 0] = np.nan, np.inf, -np.inf
    with np.errstate(all="ignore"):
        for axes in [None, (1,), (0,)]:
            np.testing.assert_array_equal(calls.reduce(LIB, op, x, axes, False),
                                          REDUCE[op](x, axis=axes))


def test_reductions_decline_empty_and_middle_axes():
    assert calls.reduce(LIB, "max", np.ones((0, 3), np.float32), (1,), False) is None
    assert calls.reduce(LIB, "sum", np.ones((0,), np.float32), None, False) is None
    assert calls.reduce(LIB, "sum", np.ones((2, 3, 4), np.float32), (1,), False) is None


# --------------------------------------------------------------------------- fused rules

def _sigmoid(x):
    with np.errstate(all="ignore"):
        return (1.0 / (1.0 + np.exp(-x))).astype(x.dtype, copy=False)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("n", SIZES)
def test_activation_backward_rules(dtype, n):
    rng = np.random.default_rng(n + 7)
    g, x = rand(rng, (n,), dtype, True), rand(rng, (n,), dtype, True) * dtype(4)
    one = dtype(1)
    y = _sigmoid(x)
    with np.errstate(all="ignore"):
        same(calls.sigmoid_grad(LIB, g, y), g * (y * (one - y)))
        t = np.tanh(x)
        same(calls.tanh_grad(LIB, g, t), g * (one - t * t))
        same(calls.relu_grad(LIB, g, x), np.where(x > 0, g, np.zeros((), dtype)))
        got, want = calls.softplus_grad(LIB, g, x), g * _sigmoid(x)
    np.testing.assert_allclose(got, want, rtol=4 * np.finfo(dtype).eps, atol=0)


@pytest.mark.parametrize("dtype", DTYPES)
def test_exp_in_softplus_grad_over_its_whole_range(dtype):
    info = np.finfo(dtype)
    x = np.concatenate([np.linspace(-800, 800, 20011), [0, -0.0, info.max, -info.max, info.tiny,
                        np.inf, -np.inf, np.nan, 88.7, -87.3, 709.7, -708.3]]).astype(dtype)
    g = np.ones_like(x)
    with np.errstate(all="ignore"):
        want = _sigmoid(x)
    np.testing.assert_allclose(calls.softplus_grad(LIB, g, x), want,
                               rtol=4 * info.eps, atol=info.tiny)


@pytest.mark.parametrize("dtype", DTYPES)
def test_exp_gives_the_same_bits_at_every_position(dtype):
    """exp runs wide vectors over the bulk of a block and narrow ones over its rest (natively
    with AVX2, vexp.h): an element gets the same bits wherever it lies."""
    rng = np.random.default_rng(3)
    x = np.concatenate([rng.standard_normal(509) * 40, [np.inf, -np.inf, np.nan, 88.7, -87.3,
                        709.7, -708.3, 0.0]]).astype(dtype)
    g = np.ones_like(x)
    whole = calls.softplus_grad(LIB, g, x)
    for start in (1, 3, 5, 8, 13, 32, 37):     # shifts that move elements between the paths
        part = calls.softplus_grad(LIB, g[start:].copy(), x[start:].copy())
        assert part.tobytes() == whole[start:].tobytes(), start


def _softmax_xent_chain(x, z, g):
    """The NumPy chain of TensorFlow's rule for -sum(z * log_softmax(x), -1): g * (softmax - z)."""
    e = np.exp(x - x.max(-1, keepdims=True))
    p = e / e.sum(-1, keepdims=True)
    return g[..., None] * (p - z)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", [(1, 1), (1, 7), (5, 3), (13, 10), (2, 3, 97), (64, 257), (9,)])
def test_softmax_cross_entropy_gradient(dtype, shape):
    rng = np.random.default_rng(shape[-1])
    x = rand(rng, shape, dtype) * dtype(5)
    z = rng.random(shape).astype(dtype) * dtype(2)  # rows need not sum to 1: TF's rule ignores it
    g = rand(rng, shape[:-1], dtype)
    np.testing.assert_allclose(calls.softmax_xent_grad(LIB, x, z, g),
                               _softmax_xent_chain(x, z, g), **TOL[dtype])
    x.reshape(-1, shape[-1])[0, 0] = np.nan
    with np.errstate(all="ignore"):
        np.testing.assert_array_equal(np.isnan(calls.softmax_xent_grad(LIB, x, z, g)),
                                      np.isnan(_softmax_xent_chain(x, z, g)))


def _sparse_chain(x, labels):
    """NumPy: (loss, softmax - onehot) of integer labels along the last axis."""
    shifted = x - x.max(-1, keepdims=True)
    e = np.exp(shifted)
    s = e.sum(-1, keepdims=True)
    picked = np.take_along_axis(shifted, labels[..., None], -1)[..., 0]
    onehot = np.arange(x.shape[-1]) == labels[..., None]
    return np.log(s[..., 0]) - picked, e / s - onehot


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", [(1, 1), (1, 7), (5, 3), (13, 10), (70, 9), (2, 3, 97),
                                   (64, 257), (130, 16), (9,)])
def test_sparse_softmax_cross_entropy(dtype, shape):
    rng = np.random.default_rng(shape[-1] + len(shape))
    x = rand(rng, shape, dtype) * dtype(5)
    labels = rng.integers(0, shape[-1], shape[:-1]).astype(np.int32)
    g = rand(rng, shape[:-1], dtype)
    want_loss, want_backprop = _sparse_chain(x, labels)
    for keep in (False, True):
        loss, exps, sums = calls.sparse_xent_loss(LIB, x, labels, keep)
        np.testing.assert_allclose(loss, want_loss, **TOL[dtype])
        assert loss.dtype == dtype and loss.shape == shape[:-1]
        assert (exps is not None) == keep
    grad = calls.sparse_xent_grad(LIB, x, labels, g)
    np.testing.assert_allclose(grad, g[..., None] * want_backprop, **TOL[dtype])
    # From the kept exponentials: the same bits as recomputing them.
    _, exps, sums = calls.sparse_xent_loss(LIB, x, labels, True)
    same(calls.sparse_xent_grad_exp(LIB, exps, sums, labels, g), grad)


@pytest.mark.parametrize("dtype", DTYPES)
def test_sparse_softmax_cross_entropy_layouts(dtype):
    rng = np.random.default_rng(3)
    x = rand(rng, (6, 11), dtype)
    labels = rng.integers(0, 11, 6)
    g = np.broadcast_to(dtype(0.25), (6,))          # a mean's upstream gradient: a broadcast view
    want = np.ascontiguousarray(g)[:, None] * _sparse_chain(x, labels)[1]
    np.testing.assert_allclose(calls.sparse_xent_grad(LIB, x, labels, g), want, **TOL[dtype])
    assert calls.sparse_xent_grad(LIB, x[:, ::2], labels, g) is None             # strided logits
    assert calls.sparse_xent_grad(LIB, x, labels, g.astype(np.float16)) is None   # mixed dtypes
    assert calls.sparse_xent_grad(LIB, x, labels[:5], g) is None                 # shapes differ
    assert calls.sparse_xent_loss(LIB, x.astype(np.int64), labels) is None        # not floats
    assert calls.sparse_xent_loss(LIB, x[:, :0], labels) is None                 # no classes
    x[2, 4] = np.nan
    with np.errstate(all="ignore"):
        loss = calls.sparse_xent_loss(LIB, x, labels)[0]
        assert np.isnan(loss[2]) and not np.isnan(np.delete(loss, 2)).any()


@pytest.mark.parametrize("dtype", DTYPES)
def test_softmax_cross_entropy_gradient_layouts(dtype):
    rng = np.random.default_rng(8)
    x = rand(rng, (6, 11), dtype)
    z = np.eye(11, dtype=dtype)[rng.integers(0, 11, 6)]
    g = np.broadcast_to(dtype(0.25), (6,))  # the upstream gradient of a mean: a broadcast view
    np.testing.assert_allclose(calls.softmax_xent_grad(LIB, x, z, g),
                               _softmax_xent_chain(x, z, np.ascontiguousarray(g)), **TOL[dtype])
    assert calls.softmax_xent_grad(LIB, x[:, ::2], z[:, ::2], g) is None        # strided logits
    assert calls.softmax_xent_grad(LIB, x, z.astype(np.float16), g) is None     # mixed dtypes
    assert calls.softmax_xent_grad(LIB, x, z[:, :5], g) is None                  # shapes differ
    assert calls.softmax_xent_grad(LIB, x.astype(np.int64), z, g) is None        # not floats
    assert calls.softmax_xent_grad(LIB, x[:, :0], z[:, :0], g) is None           # no classes


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("n", [1, 3, 8, 31, 1000])
@pytest.mark.parametrize("nesterov", [False, True])
def test_sgd_momentum_update_in_place(dtype, n, nesterov):
    rng = np.random.default_rng(n)
    w, g, m = (rand(rng, (n,), dtype) for _ in range(3))
    lr, mom = dtype(0.05), 0.9
    m_ref = m.copy()
    m_ref *= mom
    m_ref -= lr * g
    want = w + mom * m_ref - lr * g if nesterov else w + m_ref
    got = calls.sgd_momentum(LIB, w, g, m, 0.05, mom, nesterov)
    same(got, want)
    same(m, m_ref)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("n", [1, 3, 8, 31, 1000])
def test_adam_update_in_place(dtype, n):
    rng = np.random.default_rng(n)
    w, g, m = (rand(rng, (n,), dtype) for _ in range(3))
    v = np.abs(rand(rng, (n,), dtype))
    b1c, b2c, alpha, eps = dtype(0.1), dtype(0.001), dtype(0.0013), dtype(1e-7)
    m_ref, v_ref = m.copy(), v.copy()
    m_ref += (g - m_ref) * b1c
    v_ref += (g * g - v_ref) * b2c
    want = w - alpha * m_ref / (np.sqrt(v_ref) + eps)
    got = calls.adam(LIB, w, g, m, v, 0.1, 0.001, 0.0013, 1e-7)
    same(got, want)
    same(m, m_ref)
    same(v, v_ref)


# --------------------------------------------------------------------------- dispatch

def test_disabled_block_uses_numpy():
    assert dispatch.enabled()
    with dispatch.disabled():
        assert not dispatch.enabled()
    assert dispatch.enabled()


def test_a_module_missing_at_first_is_loaded_once_retried(monkeypatch):
    """As after the page's snapshot boot: the first call finds no module file (kernels off),
    ``retry_loading`` once the files are written brings the library back."""
    found = dispatch.lib()
    monkeypatch.setattr(dispatch, "_loaded", [])
    monkeypatch.setitem(dispatch._state, "on", True)
    answers = iter([(None, "tapegrad_kernels_simd.wasm not built"), (found, None)])
    monkeypatch.setattr(dispatch.library, "load", lambda: next(answers))
    assert dispatch.lib() is None and not dispatch.enabled()
    assert dispatch.reason() == "tapegrad_kernels_simd.wasm not built"
    dispatch.retry_loading()
    assert dispatch.enabled() and dispatch.lib() is found and dispatch.reason() is None
    dispatch.retry_loading()          # a loaded library stays
    assert dispatch.lib() is found


@pytest.fixture
def kernel_runs(monkeypatch):
    """Names of the kernels that computed a result through dispatch (counted in dispatch._run, which
    every route calls; a kernel that declines its inputs returns None and is not counted)."""
    seen = []
    real = dispatch._run

    def counting(kernel, *args):
        out = real(kernel, *args)
        if out is not None:
            seen.append(kernel.__name__)
        return out
    monkeypatch.setattr(dispatch, "_run", counting)
    return seen


def test_routes_fall_back_for_unfit_inputs(monkeypatch, kernel_runs):
    # Routes built with a threshold of 1 (natively binary and matmul have none: the routes would be
    # the NumPy functions themselves), so the kernel is asked first and must decline unfit inputs.
    monkeypatch.setitem(dispatch.LIMITS, "binary", 1)
    monkeypatch.setitem(dispatch.LIMITS, "matmul", 1)
    impl = dispatch.route_binary("add", np.add)
    mm = dispatch.route_matmul(lambda a, b, ta, tb: np.matmul(a, b))
    a = np.ones((200, 200), np.float32)
    same(impl(a, a), a + a)
    same(mm(a, a, False, False), a @ a)
    assert kernel_runs == ["binary", "matmul"]  # fit inputs: the kernels computed them
    same(impl(a, a.astype(np.float64)), np.add(a, a.astype(np.float64)))
    same(impl(a[:, ::2], a[:, ::2]), a[:, ::2] + a[:, ::2])
    ints = np.ones((100, 100), np.int64)
    same(mm(ints, ints, False, False), ints @ ints)
    assert kernel_runs == ["binary", "matmul"]  # unfit: mixed dtypes, strided views, integers


# --------------------------------------------------------------------------- the engine, both ways

def _both_ways(fn, kernel_runs, *kernels):
    """fn() with kernels on, then with kernels off (NumPy only); asserts that each of ``kernels``
    computed something the first time and that none ran the second."""
    on = fn()
    missing = [k for k in kernels if k not in kernel_runs]
    assert not missing, f"no kernel computed {missing} (ran: {sorted(set(kernel_runs))})"
    del kernel_runs[:]
    with dispatch.disabled():
        off = fn()
    assert not kernel_runs, f"kernels ran while disabled: {kernel_runs}"
    return on, off


def _force_fused(monkeypatch, prim, kernel, family):
    """Where this environment has no threshold for ``family`` (natively softplus's, say), rebuilds
    the fused backward of ``prim`` with one, for this test only, so that the kernel path is tested."""
    if dispatch.LIMITS.get(family) is None:
        monkeypatch.setitem(dispatch.LIMITS, family, 1)
        monkeypatch.setattr(prim, "vjp", prim.vjp)  # restored after the test
        dispatch.fuse_vjp(prim, kernel)


@pytest.mark.parametrize("name", ["sigmoid", "tanh", "softplus", "relu"])
def test_activation_gradients_equal_with_and_without_kernels(name, monkeypatch, kernel_runs):
    import tapegrad as tf
    from tapegrad.table import TABLE
    kernel = "relu_grad" if name == "relu" else f"{name}_grad"
    if name == "relu":
        if dispatch.LIMITS.get("fused") is None:
            monkeypatch.setitem(dispatch.LIMITS, "fused", 1)
            monkeypatch.setattr(TABLE["ReluGrad"], "impl",
                                dispatch.route_relu_grad(TABLE["ReluGrad"].impl))
    else:
        family = "fused_exp" if name == "softplus" else "fused"
        _force_fused(monkeypatch, TABLE[name.capitalize()], kernel, family)
    # 20000 elements: at or above every environment's "fused" and "fused_exp" thresholds
    x = tf.constant(np.random.default_rng(3).standard_normal((40, 500)).astype(np.float32) * 4)

    def grad():
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = getattr(tf.nn, name)(x)
        return tape.gradient(y, x).numpy()
    on, off = _both_ways(grad, kernel_runs, kernel)
    if name == "softplus":  # exp in C: within a few ulp
        np.testing.assert_allclose(on, off, rtol=4 * np.finfo(np.float32).eps, atol=0)
    else:
        np.testing.assert_array_equal(on, off)


def test_second_derivative_through_a_fused_rule():
    """An outer tape records the backward: the table's rule runs, so d2/dx2 exists."""
    import tapegrad as tf
    x = tf.constant(np.linspace(-3, 3, 20000, dtype=np.float32))
    with tf.GradientTape() as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            y = tf.sigmoid(x)
        dy = inner.gradient(y, x)
    d2 = outer.gradient(dy, x).numpy()
    s = 1 / (1 + np.exp(-x.numpy().astype(np.float64)))
    np.testing.assert_allclose(d2, s * (1 - s) * (1 - 2 * s), atol=1e-6)


# Plain SGD (momentum 0) has no kernel: w - lr * g is one NumPy expression, so it is not here.
@pytest.mark.parametrize("make", ["momentum", "nesterov", "adam"])
def test_optimizer_steps_equal_with_and_without_kernels(make, monkeypatch, kernel_runs):
    import tapegrad as tf
    if dispatch.LIMITS.get("optimizer") is None:  # read at each step: a threshold for this test
        monkeypatch.setitem(dispatch.LIMITS, "optimizer", 1)
    rng = np.random.default_rng(4)
    w0 = rng.standard_normal((70, 80)).astype(np.float32)  # 5600 >= every "optimizer" threshold
    grads = [rng.standard_normal(w0.shape).astype(np.float32) for _ in range(3)]

    def train():
        opt = {"momentum": lambda: tf.keras.optimizers.SGD(0.1, momentum=0.9),
               "nesterov": lambda: tf.keras.optimizers.SGD(0.1, momentum=0.9, nesterov=True),
               "adam": lambda: tf.keras.optimizers.Adam(0.01)}[make]()
        w = tf.Variable(w0)
        for g in grads:
            opt.apply_gradients([(tf.constant(g), w)])
        return w.numpy()
    on, off = _both_ways(train, kernel_runs, "adam" if make == "adam" else "sgd_momentum")
    np.testing.assert_array_equal(on, off)


def test_matmul_and_reductions_agree_through_the_engine(monkeypatch, kernel_runs):
    import tapegrad as tf
    from tapegrad.table import TABLE
    if dispatch.LIMITS.get("matmul") is None:  # natively BLAS wins: a matmul route for this test
        monkeypatch.setitem(dispatch.LIMITS, "matmul", 1)
        monkeypatch.setattr(TABLE["MatMul"], "impl", dispatch.route_matmul(TABLE["MatMul"].impl))
    assert dispatch.LIMITS.get("reduce") is not None
    rng = np.random.default_rng(5)
    # a: 76800 elements, at or above every "reduce" threshold (reduce_mean(a) runs in C)
    a = tf.constant(rng.standard_normal((256, 300)).astype(np.float32))
    b = tf.constant(rng.standard_normal((300, 128)).astype(np.float32))

    def run():
        with tf.GradientTape() as tape:
            tape.watch([a, b])
            y = tf.reduce_sum(tf.nn.relu(tf.matmul(a, b) + tf.reduce_mean(a)) * 0.5)
        ga, gb = tape.gradient(y, [a, b])
        return y.numpy(), ga.numpy(), gb.numpy()
    for on, off in zip(*_both_ways(run, kernel_runs, "matmul", "reduce")):
        np.testing.assert_allclose(on, off, rtol=1e-4, atol=1e-4)
