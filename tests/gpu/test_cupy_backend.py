"""tapegrad on CuPy: values stay on the GPU through forward and backward, the C kernels are off,
and results agree with NumPy on the host. Skipped without a CUDA GPU (see conftest.py)."""
import numpy as np

try:
    import cupy
except Exception:   # the conftest skips every test then, saying why
    cupy = None

import tapegrad as tf
from tapegrad import backend, kernels


def test_the_namespace_is_cupy_on_the_device():
    assert backend.NAME == "cupy" and backend.xp.device
    assert backend.xp.ndarray is cupy.ndarray
    assert not kernels.enabled()


def test_tf_config_lists_the_gpu():
    gpus = tf.config.list_physical_devices("GPU")
    assert len(gpus) == cupy.cuda.runtime.getDeviceCount() >= 1
    assert gpus[0].name == "/physical_device:GPU:0" and gpus[0].device_type == "GPU"


def _mlp_step(x, y, w1, b1, w2, b2):
    with tf.GradientTape() as tape:
        h = tf.nn.relu(tf.matmul(x, w1) + b1)
        logits = tf.matmul(h, w2) + b2
        loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(y, logits))
    return loss, tape.gradient(loss, [w1, b1, w2, b2])


def test_an_mlp_step_stays_on_the_device_and_matches_numpy():
    rng = np.random.default_rng(0)
    host = [rng.standard_normal(s).astype(np.float32) * 0.1
            for s in ((32, 784), (784, 256), (256,), (256, 10), (10,))]
    labels = rng.integers(0, 10, 32).astype(np.int32)
    x = tf.constant(cupy.asarray(host[0]))
    params = [tf.Variable(cupy.asarray(a)) for a in host[1:]]
    loss, grads = _mlp_step(x, tf.constant(cupy.asarray(labels)), *params)
    for t in [loss, *grads, *params]:
        assert isinstance(t._value, cupy.ndarray), type(t._value)   # never copied to the host
    # the same step in plain NumPy on the host
    x0, w1, b1, w2, b2 = (a.astype(np.float64) for a in host)
    h = np.maximum(x0 @ w1 + b1, 0)
    z = h @ w2 + b2
    p = np.exp(z - z.max(1, keepdims=True))
    p /= p.sum(1, keepdims=True)
    expected_loss = -np.log(p[np.arange(32), labels]).mean()
    dz = p.copy()
    dz[np.arange(32), labels] -= 1
    dz /= 32
    dh = (dz @ w2.T) * (h > 0)
    expected = [x0.T @ dh, dh.sum(0), h.T @ dz, dz.sum(0)]
    np.testing.assert_allclose(float(cupy.asnumpy(loss._value)), expected_loss, rtol=1e-4)
    for g, e in zip(grads, expected):
        np.testing.assert_allclose(cupy.asnumpy(g._value), e, rtol=1e-3, atol=1e-5)


def test_second_order_gradients_on_the_device():
    x = tf.Variable(cupy.asarray(np.float32(1.5)))
    with tf.GradientTape() as outer:
        with tf.GradientTape() as inner:
            y = tf.sin(x) * x
        dy = inner.gradient(y, x)
    d2y = outer.gradient(dy, x)
    assert isinstance(d2y._value, cupy.ndarray)
    np.testing.assert_allclose(float(cupy.asnumpy(d2y._value)),
                               2 * np.cos(1.5) - 1.5 * np.sin(1.5), rtol=1e-5)


def test_numpy_and_array_bring_a_value_to_the_host():
    t = tf.constant(cupy.asarray([1.0, 2.0], dtype=cupy.float32))
    v = tf.Variable(cupy.asarray([[3.0]], dtype=cupy.float32))
    assert isinstance(t.numpy(), np.ndarray) and t.numpy().tolist() == [1.0, 2.0]
    assert isinstance(np.asarray(t), np.ndarray) and isinstance(np.asarray(v), np.ndarray)
    assert isinstance(v.numpy(), np.ndarray) and v.numpy().tolist() == [[3.0]]
    assert isinstance(tf.reduce_sum(t).numpy(), np.float32)


def test_values_say_they_are_on_the_gpu():
    assert tf.constant(1.0).device.endswith("device:GPU:0")
    assert tf.Variable(1.0).device.endswith("device:GPU:0")
