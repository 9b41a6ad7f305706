"""TF-NumPy (``tf.experimental.numpy``) in the style of TensorFlow's NumPy API guide: creating
arrays with NumPy's default dtypes, math and shape functions, NumPy interop both ways, gradients
through a tape, and the NumPy behaviour ``experimental_enable_numpy_behavior`` gives tensors.

TensorFlow's switch is global and one-way, so the cases that need it come last here (recording
runs them in the order written, in one process); under tapegrad each of them turns it on and,
through ``disable_numpy_behavior`` (tapegrad's own), off again, so every case replays alone.
"""
import numpy as np


def _with_numpy_behavior(tf, compute, prefer_float32=False):
    tf.experimental.numpy.experimental_enable_numpy_behavior(prefer_float32=prefer_float32)
    try:
        return compute()
    finally:
        off = getattr(tf.experimental.numpy, "disable_numpy_behavior", None)
        if off is not None:
            off()


# -- before NumPy behaviour is turned on ---------------------------------------------------------

def case_creation_default_dtypes(tf):
    return [tf.experimental.numpy.asarray(1.), tf.experimental.numpy.asarray(1),
            tf.experimental.numpy.arange(3), tf.experimental.numpy.arange(3.),
            tf.experimental.numpy.zeros(2), tf.experimental.numpy.ones([2], dtype=tf.int32),
            tf.experimental.numpy.ones((2, 1), dtype=tf.experimental.numpy.int32)]


def case_creation_from_lists_and_numpy(tf):
    return [tf.experimental.numpy.array([[1, 2], [3, 4]]),
            tf.experimental.numpy.array([1., 2]),
            tf.experimental.numpy.asarray(np.float32(1)),
            tf.experimental.numpy.asarray(np.arange(3, dtype=np.int32)),
            tf.experimental.numpy.array([1, 2], dtype=tf.experimental.numpy.float32)]


def case_creation_filled(tf):
    x = tf.constant([[1, 2, 3]], tf.int32)
    return [tf.experimental.numpy.full([2], 3), tf.experimental.numpy.full((2, 2), 0.5),
            tf.experimental.numpy.zeros_like(x), tf.experimental.numpy.ones_like(x),
            tf.experimental.numpy.full_like(x, 7), tf.experimental.numpy.eye(2),
            tf.experimental.numpy.identity(3, dtype=tf.experimental.numpy.int64)]


def case_creation_ranges(tf):
    return [tf.experimental.numpy.linspace(0, 1, 5), tf.experimental.numpy.arange(1, 7, 2),
            tf.experimental.numpy.arange(0.5, 2.0, 0.5),
            tf.experimental.numpy.arange(4, dtype=tf.experimental.numpy.float32)]


def case_ndarray_is_tensor(tf):
    x = tf.experimental.numpy.ones([2])
    return [isinstance(x, tf.experimental.numpy.ndarray), tf.experimental.numpy.ndarray is tf.Tensor,
            tf.experimental.numpy.float32 is np.float32, tf.experimental.numpy.int64 is np.int64,
            tf.experimental.numpy.bool_ is np.bool_]


def case_math_means_of_ints_are_float64(tf):
    ints = tf.experimental.numpy.arange(4)
    return [tf.experimental.numpy.mean(ints), tf.experimental.numpy.std(ints),
            tf.experimental.numpy.tanh(tf.constant([0.5], tf.float32)),
            tf.experimental.numpy.exp([1., 2.]), tf.experimental.numpy.sign(ints),
            tf.experimental.numpy.square(ints), tf.experimental.numpy.abs(-ints)]


def case_error_float_function_of_ints_before_enable(tf):
    # TensorFlow 2.21 converts with the ndarray method astype, which tensors lack until enabled
    return tf.experimental.numpy.sqrt(tf.experimental.numpy.arange(3))


def case_math_reductions(tf):
    x = tf.experimental.numpy.asarray([[1., 5., 3.], [4., 2., 6.]])
    return [tf.experimental.numpy.sum(x), tf.experimental.numpy.sum(x, axis=0),
            tf.experimental.numpy.mean(x, axis=1), tf.experimental.numpy.max(x),
            tf.experimental.numpy.min(x, axis=0), tf.experimental.numpy.argmax(x),
            tf.experimental.numpy.argmin(x, axis=1), tf.experimental.numpy.prod(x, axis=1),
            tf.experimental.numpy.std(x), tf.experimental.numpy.var(x, axis=0),
            tf.experimental.numpy.sum(x, axis=1, keepdims=True), tf.experimental.numpy.sum([1, 2]),
            tf.experimental.numpy.sum(tf.constant([1, 2], tf.int32)),
            tf.experimental.numpy.amax(x, axis=1), tf.experimental.numpy.all([1, 0]),
            tf.experimental.numpy.any(x > 5)]


def case_math_binary_promotion(tf):
    ints = tf.constant([1, 2], tf.int32)
    floats = tf.constant([0.5, 1.5], tf.float32)
    return [tf.experimental.numpy.add(ints, floats), tf.experimental.numpy.multiply(ints, 2.5),
            tf.experimental.numpy.subtract(floats, 1), tf.experimental.numpy.add(ints, 1),
            tf.experimental.numpy.maximum(ints, floats), tf.experimental.numpy.divide(ints, ints),
            tf.experimental.numpy.power(ints, 2), tf.experimental.numpy.add([1, 2], [0.5, 0.5]),
            tf.experimental.numpy.less(ints, floats)]


def case_products(tf):
    a = tf.experimental.numpy.asarray([[1., 2.], [3., 4.]])
    v = tf.experimental.numpy.asarray([1., -1.])
    return [tf.experimental.numpy.dot([1, 2], [3, 4]), tf.experimental.numpy.dot(a, v),
            tf.experimental.numpy.dot(a, a), tf.experimental.numpy.matmul(a, a),
            tf.experimental.numpy.einsum("ij,j->i", a, v),
            tf.experimental.numpy.einsum("ij,ij->", a, a),
            tf.experimental.numpy.tensordot(a, a, axes=1), tf.experimental.numpy.dot(2, a)]


def case_where_and_clip(tf):
    x = tf.experimental.numpy.arange(6)
    return [tf.experimental.numpy.where(x > 2, x, -x), tf.experimental.numpy.where(x > 3),
            tf.experimental.numpy.clip(x, 1, 4), tf.experimental.numpy.clip(x, 1.5, 4),
            tf.experimental.numpy.where([True, False], 1, 2.5),
            tf.experimental.numpy.clip(tf.constant([0.1, 0.9]), 0.2, None)]


def case_shape_functions(tf):
    x = tf.experimental.numpy.arange(6)
    m = tf.experimental.numpy.reshape(x, (2, 3))
    return [m, tf.experimental.numpy.reshape(x, 6), tf.experimental.numpy.reshape(m, [-1, 2]),
            tf.experimental.numpy.transpose(m), tf.experimental.numpy.ravel(m),
            tf.experimental.numpy.concatenate([m, m], axis=1),
            tf.experimental.numpy.stack([x, x]), tf.experimental.numpy.stack([x, x], axis=1),
            tf.experimental.numpy.expand_dims(x, 0), tf.experimental.numpy.squeeze(m[:1]),
            tf.experimental.numpy.shape(m), tf.experimental.numpy.ndim(m),
            tf.experimental.numpy.size(m), tf.experimental.numpy.vstack([x, x]),
            tf.experimental.numpy.hstack([x, x]), tf.experimental.numpy.tile(x, 2),
            tf.experimental.numpy.broadcast_to(x, [2, 6]),
            tf.experimental.numpy.transpose(tf.experimental.numpy.ones([2, 3, 4]), (1, 0, 2)).shape]


def case_concatenate_mixed_dtypes(tf):
    return tf.experimental.numpy.concatenate([tf.constant([1], tf.int32), tf.constant([2.5])])


def case_numpy_interop_into_numpy(tf):
    x = tf.constant([[1., 2.], [3., 4.]])
    total = np.sum(x)
    return [type(total).__name__, float(total), type(np.exp(x)).__name__, np.exp(x),
            np.asarray(x).dtype.name, np.dot(x, x)]


def case_numpy_interop_from_numpy(tf):
    return [tf.experimental.numpy.sum(np.ones(3, np.float32)),
            tf.experimental.numpy.add(np.ones(2, np.int32), tf.constant([1, 2], tf.int32)),
            tf.experimental.numpy.matmul(np.eye(2), np.ones((2, 1)))]


def case_gradient_through_tnp(tf):
    x = tf.Variable([1., 2., 3.])
    with tf.GradientTape() as tape:
        y = tf.experimental.numpy.sum(tf.experimental.numpy.exp(x) * 2)
    return tape.gradient(y, x)


def case_gradient_through_tnp_products(tf):
    w = tf.Variable([[1., 2.], [3., 4.]], dtype=tf.float64)
    x = tf.experimental.numpy.asarray([1., -1.])
    with tf.GradientTape() as tape:
        y = tf.experimental.numpy.mean(tf.experimental.numpy.tanh(tf.experimental.numpy.dot(w, x)))
        z = tf.experimental.numpy.sum(tf.experimental.numpy.where(w > 2, w * w, 0.))
    return tape.gradient([y, z], w)


def case_gradient_float32_weights(tf):
    w = tf.Variable([0.5, -1.5])
    with tf.GradientTape() as tape:
        loss = tf.experimental.numpy.mean(tf.experimental.numpy.square(
            tf.experimental.numpy.clip(w, -1., 1.)))
    return tape.gradient(loss, w)


def case_more_math(tf):
    a = tf.experimental.numpy.asarray([[1., 2.5, -3.], [4., 5., 6.]])
    return [tf.experimental.numpy.arcsinh(a), tf.experimental.numpy.arctan2(a, 2.),
            tf.experimental.numpy.log2(a * a), tf.experimental.numpy.log10(a * a),
            tf.experimental.numpy.exp2(a), tf.experimental.numpy.reciprocal(a),
            tf.experimental.numpy.hypot(a, 3.), tf.experimental.numpy.deg2rad(a),
            tf.experimental.numpy.signbit(a), tf.experimental.numpy.real(a),
            tf.experimental.numpy.logical_xor(a > 1, a > 4), tf.experimental.numpy.positive(a),
            tf.experimental.numpy.cumprod(a), tf.experimental.numpy.cumprod(a, axis=1),
            tf.experimental.numpy.nansum(a), tf.experimental.numpy.ptp(a),
            tf.experimental.numpy.average(a, axis=0, weights=[1., 3.]),
            tf.experimental.numpy.average(a), tf.experimental.numpy.count_nonzero([0, 1, 2])]


def case_sorting_diagonals_flips(tf):
    a = tf.experimental.numpy.asarray([[1., 2.5, -3.], [4., 5., 6.]])
    i = tf.experimental.numpy.arange(6)
    return [tf.experimental.numpy.sort(a), tf.experimental.numpy.sort(a, axis=0),
            tf.experimental.numpy.argsort(a), tf.experimental.numpy.diagonal(a),
            tf.experimental.numpy.diag(tf.experimental.numpy.asarray([1, 2])),
            tf.experimental.numpy.diag(a), tf.experimental.numpy.trace(a),
            tf.experimental.numpy.tril(a), tf.experimental.numpy.triu(a, 1),
            tf.experimental.numpy.flip(a), tf.experimental.numpy.fliplr(a),
            tf.experimental.numpy.flipud(a), tf.experimental.numpy.roll(i, 2),
            tf.experimental.numpy.roll(a, 1, axis=1), tf.experimental.numpy.repeat(i, 2),
            tf.experimental.numpy.split(i, 3), tf.experimental.numpy.split(i, [1, 4]),
            tf.experimental.numpy.swapaxes(a, 0, 1),
            tf.experimental.numpy.moveaxis(tf.experimental.numpy.ones([2, 3, 4]), 0, -1).shape,
            tf.experimental.numpy.diff(i), tf.experimental.numpy.diff(a, axis=0)]


def case_products_and_comparisons(tf):
    a = tf.experimental.numpy.asarray([[1., 2.5, -3.], [4., 5., 6.]])
    i = tf.experimental.numpy.arange(6)
    return [tf.experimental.numpy.outer([1, 2], [3, 4, 5]), tf.experimental.numpy.inner(a, a),
            tf.experimental.numpy.vdot(a, a), tf.experimental.numpy.isclose(a, a + 1e-9),
            tf.experimental.numpy.allclose(a, a), tf.experimental.numpy.array_equal(a, a),
            tf.experimental.numpy.array_equal(i, a), tf.experimental.numpy.atleast_1d(1.),
            tf.experimental.numpy.atleast_2d(i).shape, tf.experimental.numpy.atleast_3d(i).shape,
            tf.experimental.numpy.atleast_3d(a).shape, tf.experimental.numpy.copy(a),
            tf.experimental.numpy.meshgrid(i[:2], i[:3]), tf.experimental.numpy.nonzero(a > 2),
            tf.experimental.numpy.isscalar(1.)]


def case_gradient_more_functions(tf):
    x = tf.Variable([[1., 2.], [3., 4.]])
    with tf.GradientTape() as tape:
        y = tf.experimental.numpy.sum(tf.experimental.numpy.outer(
            tf.experimental.numpy.diagonal(x), tf.experimental.numpy.flip(x)[0]))
        y = y + tf.experimental.numpy.sum(tf.experimental.numpy.tril(x) *
                                          tf.experimental.numpy.hypot(x, x))
    return tape.gradient(y, x)


def case_error_round_before_enable(tf):
    return tf.experimental.numpy.around(tf.constant([1.25]))


def case_error_ndarray_method_before_enable(tf):
    return tf.constant([1., 2.]).reshape([2, 1])


def case_error_mixed_dtypes_before_enable(tf):
    return tf.constant(1) + tf.constant(1.5)


def case_error_reshape_size(tf):
    return tf.experimental.numpy.reshape(tf.experimental.numpy.arange(6), [4])


def case_random_dtypes_before_enable(tf):
    tf.experimental.numpy.random.seed(1)
    return [tf.experimental.numpy.random.randn(2, 3).shape,
            tf.experimental.numpy.random.randn(2).dtype,
            tf.experimental.numpy.random.uniform(size=[3]).dtype,
            tf.experimental.numpy.random.standard_normal(size=[4]).shape]


# -- after experimental_enable_numpy_behavior (last: TensorFlow's switch stays on) -------------

def case_on_operators_promote(tf):
    return _with_numpy_behavior(tf, lambda: [
        tf.constant(1) + tf.constant(1.5), tf.constant([1, 2]) + 1.5,
        tf.constant([1., 2.]) + 1.5, tf.constant([1, 2]) + 1,
        tf.constant(1.) + np.float64(2), tf.constant([1], tf.int32) + tf.constant([1], tf.int64),
        tf.constant(2) * 2.5, tf.constant(2, tf.int32) / tf.constant(4, tf.int32),
        tf.ones([2]) + tf.experimental.numpy.ones([2]), 3 - tf.constant([1., 2.]),
        tf.constant([1, 2], tf.int32) < 1.5, tf.constant([1, 2], tf.int8) * tf.constant(2, tf.int16)])


def case_on_ndarray_methods(tf):
    def compute():
        x = tf.constant([[1., 2.], [3., 4.]])
        return [x.reshape(4), x.reshape(-1, 1), x.reshape((1, 4)), x.T, x.astype(tf.int32),
                x.astype(tf.experimental.numpy.float64), x.ravel(), x.flatten(), x.transpose(),
                x.transpose([1, 0]), x.tolist(), int(x.size), x.ndim, x.clip(1.5, 3),
                x.mean(axis=0), x.max(), x.min(axis=1), x.mean(), x.data]
    return _with_numpy_behavior(tf, compute)


def case_on_indexing(tf):
    def compute():
        x = tf.constant([[1., 2.], [3., 4.]])
        return [x[x > 2], x[[0, 1], [1, 0]], x[[1, 0]], x[:, None].shape, x[..., 0], x[1],
                x[np.array([True, False])]]
    return _with_numpy_behavior(tf, compute)


def case_on_defaults_prefer_float32(tf):
    return _with_numpy_behavior(tf, lambda: [
        tf.experimental.numpy.asarray(1.).dtype, tf.experimental.numpy.zeros(2).dtype,
        tf.experimental.numpy.linspace(0, 1, 3).dtype, tf.experimental.numpy.arange(3.).dtype,
        (tf.constant([1, 2]) + 1.5).dtype, tf.experimental.numpy.exp(1).dtype,
        tf.experimental.numpy.random.randn(2).dtype, tf.experimental.numpy.eye(2).dtype,
        tf.experimental.numpy.full([2], 0.5).dtype, tf.experimental.numpy.add(1, 2.5).dtype,
        tf.experimental.numpy.asarray(np.float64(1)).dtype,
        (tf.constant([1, 2], tf.int32) * 2.5).dtype], prefer_float32=True)


def case_on_defaults_back_to_float64(tf):
    return _with_numpy_behavior(tf, lambda: [
        tf.experimental.numpy.asarray(1.).dtype, tf.experimental.numpy.zeros(2).dtype,
        (tf.constant([1, 2]) + 1.5).dtype, tf.experimental.numpy.random.randn(2).dtype])


def case_on_gradient_with_methods(tf):
    def compute():
        w = tf.Variable([[1., 2.], [3., 4.]])
        with tf.GradientTape() as tape:
            y = (w.T.reshape(4) * tf.constant([1, 2, 3, 4])).mean()
        return tape.gradient(y, w)
    return _with_numpy_behavior(tf, compute)


def case_on_gradient_through_mask(tf):
    def compute():
        x = tf.constant([[1., -2.], [3., -4.]])
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.reduce_sum(x[x > 0] ** 2)
        return tape.gradient(y, x)
    return _with_numpy_behavior(tf, compute)


def case_on_rounding(tf):
    return _with_numpy_behavior(tf, lambda: [
        tf.experimental.numpy.around(tf.constant([1.25, 2.5, -0.5])),
        tf.experimental.numpy.round(tf.constant([1.234, 5.678], tf.float64), 1),
        tf.experimental.numpy.around(tf.experimental.numpy.arange(3)),
        tf.experimental.numpy.average(tf.experimental.numpy.arange(4))])


def case_on_error_transpose_method_takes_one_argument(tf):
    return _with_numpy_behavior(tf, lambda: tf.constant([[1., 2.]]).transpose(1, 0))


def case_on_float_functions_of_ints(tf):
    return _with_numpy_behavior(tf, lambda: [
        tf.experimental.numpy.exp(1), tf.experimental.numpy.sqrt(tf.experimental.numpy.arange(3)),
        tf.experimental.numpy.log(tf.constant([1, 2], tf.int32)), tf.experimental.numpy.add(1, 2.5),
        tf.experimental.numpy.add(tf.constant([1, 2], tf.int32), [1, 2])])
