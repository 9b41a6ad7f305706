"""The window kernels of convolution and max pooling (wasm_kernels/windows_tmpl.h: Im2Col,
Col2Im, max pooling's maxima with their positions, its gradient's scatter) give the NumPy code's
results bit for bit: outputs, gradients and second derivatives of Conv2D and MaxPool compared
with ``kernels.disabled()`` on random values, ties, NaN, +-0 and +-inf, float16/32/64 and integers,
VALID and SAME, strides, dilations and overlapping windows (issue 34, item 2)."""
import numpy as np
import pytest

import tapegrad as tf
from tapegrad import kernels
from tapegrad.kernels import calls, dispatch
from tapegrad.ops import conv_ops

LIB = dispatch.lib()
pytestmark = pytest.mark.skipif(LIB is None or dispatch.LIMITS.get("windows") is None,
                                reason=f"no window kernels here: {dispatch.reason()}")

POOLS = [(2, 2, "VALID"), (2, 2, "SAME"), (3, 2, "VALID"), (3, 2, "SAME"), (3, 1, "SAME"),
         (2, 1, "VALID"), ((2, 3), (1, 2), "SAME"), ((1, 3), (2, 3), "SAME"), ((3, 3), 3, "SAME")]
CONVS = [((3, 3), 1, "VALID", 1), ((3, 3), 1, "SAME", 1), ((3, 2), 2, "SAME", 1),
         ((2, 3), (2, 1), "VALID", 1), ((3, 3), 1, "SAME", 2), ((1, 1), 1, "VALID", 1),
         ((4, 4), 3, "SAME", 1)]


@pytest.fixture(autouse=True)
def every_size(monkeypatch):
    """The kernels for every size (the tests' arrays are small)."""
    monkeypatch.setitem(dispatch.LIMITS, "windows", 1)
    monkeypatch.setitem(dispatch.LIMITS, "im2col", 1)


def _values(dtype, shape, seed=0):
    """Named inputs: random, ties (rounded), signed zeros, infinities, NaNs (floats)."""
    rng = np.random.RandomState(seed)
    x = rng.standard_normal(shape) * 2
    if np.dtype(dtype).kind in "iu":
        return {"random": np.round(x).astype(dtype)}
    out = {"random": x.astype(dtype), "ties": np.round(x).astype(dtype),
           "signed zeros": np.where(rng.rand(*shape) < 0.5, -0.0, 0.0).astype(dtype)}
    inf = x.astype(dtype)
    inf.flat[::3], inf.flat[::5] = -np.inf, np.inf
    out["infinities"] = inf
    nan = np.round(x).astype(dtype)
    nan.flat[::7] = np.nan
    nan.flat[1::11] = -np.inf
    out["nans"] = nan
    minus_inf = np.full(shape, -np.inf, dtype)      # every window's maximum -inf
    minus_inf.flat[::4] = np.nan
    out["minus infinity"] = minus_inf
    return out


def _same_bits(got, want, what):
    got, want = np.asarray(got), np.asarray(want)
    assert got.dtype == want.dtype and got.shape == want.shape, what
    assert got.tobytes() == want.tobytes(), what


def _outcome(fn):
    """fn()'s results, or the error it raised (as its type and message, for comparison)."""
    try:
        return fn()
    except Exception as e:  # noqa: BLE001 (an error must be the same error both ways)
        return [np.array(f"{type(e).__name__}: {e}")]


def _both(fn):
    """fn() with the kernels, then with NumPy only."""
    on = _outcome(fn)
    with kernels.disabled():
        off = _outcome(fn)
    return on, off


def _pool_results(x, config):
    """MaxPool's output, its gradient for a cotangent with -0.0 in it, and second derivatives."""
    xt = tf.constant(x)
    rng = np.random.RandomState(1)
    shape = tf.nn.max_pool2d(xt, *config).shape
    w = tf.constant(np.where(rng.rand(*shape) < 0.2, -0.0, rng.standard_normal(shape))
                    .astype(x.dtype))
    with tf.GradientTape(persistent=True) as outer:
        outer.watch([xt, w])
        with tf.GradientTape() as tape:
            tape.watch(xt)
            y = tf.nn.max_pool2d(xt, *config)
            loss = tf.reduce_sum(y * w)
        g = tape.gradient(loss, xt)
        gg = tf.reduce_sum(g * g)
    results = [y.numpy(), g.numpy()]
    if x.dtype.kind == "f":
        results.append(outer.gradient(gg, w).numpy())     # through MaxPoolGradGrad
        with tf.autodiff.ForwardAccumulator(xt, tf.ones_like(xt)) as acc:
            y2 = tf.nn.max_pool2d(xt, *config)
        results.append(acc.jvp(y2).numpy())
    return results


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("config", POOLS)
def test_max_pool_kernel_gives_numpys_maxima_gradients_and_jvps(dtype, config):
    for name, x in _values(dtype, (2, 7, 6, 3)).items():
        on, off = _both(lambda: _pool_results(x, config))
        assert len(on) == len(off), name
        for i, (a, b) in enumerate(zip(on, off)):
            _same_bits(a, b, f"{name}, result {i}")


@pytest.mark.parametrize("dtype", ["float16", "int32"])
def test_max_pool_of_other_dtypes_keeps_to_numpy(dtype):
    for config in POOLS[:4]:
        for name, x in _values(dtype, (2, 6, 6, 2)).items():
            on, off = _both(lambda: _pool_results(x, config))
            for a, b in zip(on, off):
                _same_bits(a, b, name)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("config", POOLS)
def test_the_pool_kernel_finds_the_numpy_index(dtype, config):
    """Where the kernel answers, its positions are NumPy's; where a maximum lies in the padding
    (a window starting there with nothing real above -inf) it declines, and NumPy answers."""
    answered = 0
    for name, x in _values(dtype, (3, 8, 5, 70), seed=3).items():   # 70 channels: two chunks
        a = conv_ops.pool_attrs(x, *config)
        geometry = [a[k] for k in ("ksize", "strides", "dilations", "pads", "out_hw")]
        found = calls.max_pool(LIB, x, *geometry)
        with kernels.disabled():
            idx = conv_ops._argmax_index(x, **a)
        if found is None:
            assert name == "minus infinity" and any(a["pads"][0] + a["pads"][1]), name
            continue
        answered += 1
        np.testing.assert_array_equal(found[1], idx, err_msg=name)
        _same_bits(found[0], x.reshape(-1).take(idx), name)
    assert answered >= 5


def test_the_overlapping_scatter_sums_in_double_as_bincount():
    rng = np.random.RandomState(4)
    for dtype in ("float32", "float64"):
        idx = rng.randint(0, 50, 400).astype(np.intp)
        g = (rng.standard_normal(400) * 10.0 ** rng.randint(-8, 8, 400)).astype(dtype)
        g[::9] = -0.0
        dx = calls.max_pool_grad(LIB, idx, g, (50,), apart=False)
        _same_bits(dx, np.bincount(idx, weights=g, minlength=50).astype(dtype), dtype)
        assert calls.max_pool_grad(LIB, idx - 1, g, (50,), apart=False) is None   # (-1: NumPy)


def _conv_results(x, w, config):
    """Conv2D's output and its gradients (the input's goes through Col2Im), and a second
    derivative through them."""
    ksize, strides, padding, dilation = config
    xt, wt = tf.constant(x), tf.constant(w)
    with tf.GradientTape(persistent=True) as outer:
        outer.watch([xt, wt])
        with tf.GradientTape() as tape:
            tape.watch([xt, wt])
            y = tf.nn.conv2d(xt, wt, strides, padding, dilations=dilation)
            loss = tf.reduce_sum(y * y)
        gx, gw = tape.gradient(loss, [xt, wt])
        second = tf.reduce_sum(gx * gx) + tf.reduce_sum(gw)
    return [y.numpy(), gx.numpy(), gw.numpy(), *(t.numpy() for t in outer.gradient(second, [xt, wt]))]


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("config", CONVS)
@pytest.mark.parametrize("channels", [1, 3, 8])
def test_conv_windows_on_the_kernels_give_numpys_bits(dtype, config, channels):
    rng = np.random.RandomState(channels)
    w = rng.standard_normal(config[0] + (channels, 4)).astype(dtype)
    for name, x in _values(dtype, (2, 9, 8, channels), seed=5).items():
        if name in ("nans", "minus infinity"):
            continue
        on, off = _both(lambda: _conv_results(x, w, config))
        for i, (a, b) in enumerate(zip(on, off)):
            _same_bits(a, b, f"{name}, result {i}")


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("config", CONVS + [((2, 2), 2, "VALID", 1), ((3, 3), 2, "SAME", 1)])
def test_im2col_and_col2im_kernels_are_the_numpy_loops(dtype, config):
    """The window ops alone, on values with NaN, infinities and -0.0, and a -inf fill."""
    ksize, strides, padding, dilation = config
    for channels in (1, 5, 8):
        x = _values(dtype, (2, 9, 7, channels), seed=channels)["infinities"]
        x.flat[::13] = np.nan
        x.flat[1::17] = -0.0
        st, dil = conv_ops._pair(strides, "strides", "t"), conv_ops._pair(dilation, "d", "t")
        out_hw, pads = conv_ops._geometry((9, 7), ksize, st, dil, padding, "Conv2D")
        a = {"ksize": ksize, "strides": st, "dilations": dil, "pads": pads, "out_hw": out_hw,
             "in_hw": (9, 7)}
        for fill in (0, -np.inf):
            on, off = _both(lambda: conv_ops._im2col_impl(x, **a, fill=fill))
            _same_bits(on, off, f"im2col, {channels} channels, fill {fill}")
            geometry = {k: v for k, v in a.items() if k != "in_hw"}
            _same_bits(calls.im2col(LIB, x, fill=fill, **geometry), off, "the kernel itself")
        cols = on
        cols.reshape(-1)[::7] = -0.0
        on, off = _both(lambda: conv_ops._col2im_impl(np.where(np.isinf(cols), 1.5, cols), **a))
        _same_bits(on, off, f"col2im, {channels} channels")
        assert calls.col2im(LIB, cols, **a) is not None   # (the kernel answered)


def test_positions_from_the_kernel_serve_numpys_gradient():
    """A forward on the kernel and its gradient on NumPy (kernels switched off between them):
    the kept positions are NumPy's index type, so NumPy's scatter takes them as they are."""
    x = tf.constant(_values("float32", (2, 6, 6, 3))["ties"])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.nn.max_pool2d(x, 3, 1, "VALID")          # overlapping: NumPy's bincount
        loss = tf.reduce_sum(y * y)
    with kernels.disabled():
        g = tape.gradient(loss, x).numpy()
        with tf.GradientTape() as tape:
            tape.watch(x)
            loss = tf.reduce_sum(tf.nn.max_pool2d(x, 3, 1, "VALID") ** 2)
        _same_bits(g, tape.gradient(loss, x).numpy(), "kernel forward, NumPy gradient")
