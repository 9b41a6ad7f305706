"""TensorFlow's gradient conventions at kinks and ties, and the gradients of shape ops, each
checked against a value worked out by hand or a NumPy closed form."""
import numpy as np
import pytest

import tapegrad as tf


def grad(f, *xs, output_gradients=None, dtype=tf.float32):
    """Gradients of f at xs (watched constants): one array (or None) per argument."""
    ts = [tf.constant(x, dtype=dtype) for x in xs]
    with tf.GradientTape() as tape:
        tape.watch(ts)
        y = f(*ts)
    gs = tape.gradient(y, ts, output_gradients=output_gradients)
    return [None if g is None else g.numpy() for g in gs]


# -- ties and kinks ----------------------------------------------------------------------------------

def test_maximum_tie_goes_to_the_first_argument():
    gx, gy = grad(tf.maximum, [1.0, 2.0, 3.0], [3.0, 2.0, 1.0])
    assert gx.tolist() == [0.0, 1.0, 1.0] and gy.tolist() == [1.0, 0.0, 0.0]
    gy_first, gx_second = grad(lambda y, x: tf.maximum(y, x), [2.0], [2.0])
    assert gy_first.tolist() == [1.0] and gx_second.tolist() == [0.0]


def test_minimum_tie_goes_to_the_first_argument():
    gx, gy = grad(tf.minimum, [1.0, 2.0, 3.0], [3.0, 2.0, 1.0])
    assert gx.tolist() == [1.0, 1.0, 0.0] and gy.tolist() == [0.0, 0.0, 1.0]


def test_maximum_against_a_broadcast_scalar():
    gx, gz = grad(tf.maximum, [-1.0, 0.0, 2.0], 0.0)
    assert gx.tolist() == [0.0, 1.0, 1.0]
    assert gz.shape == () and float(gz) == 1.0          # only the first entry chose zero


@pytest.mark.parametrize("reduce", [tf.reduce_max, tf.reduce_min])
def test_reduce_max_min_ties_share_equally(reduce):
    data = [1.0, 3.0, 3.0] if reduce is tf.reduce_max else [3.0, 1.0, 1.0]
    (g,) = grad(reduce, data)
    expected = [0.0, 0.5, 0.5]
    assert g.tolist() == expected


def test_reduce_max_along_an_axis_with_ties():
    (g,) = grad(lambda x: tf.reduce_max(x, axis=1), [[5.0, 5.0, 5.0, 5.0], [1.0, 2.0, 3.0, 0.0]])
    assert g.tolist() == [[0.25, 0.25, 0.25, 0.25], [0.0, 0.0, 1.0, 0.0]]
    (g,) = grad(lambda x: tf.reduce_min(x, axis=0, keepdims=True), [[1.0, 4.0], [1.0, 2.0]])
    assert g.tolist() == [[0.5, 0.0], [0.5, 1.0]]


def test_relu_derivative_is_zero_at_zero():
    (g,) = grad(tf.nn.relu, [-1.0, 0.0, 2.0])
    assert g.tolist() == [0.0, 0.0, 1.0]


def test_abs_derivative_is_zero_at_zero():
    (g,) = grad(tf.abs, [-2.0, 0.0, 3.0])
    assert g.tolist() == [-1.0, 0.0, 1.0]


def test_sign_gradient_is_zero_not_none():
    (g,) = grad(tf.sign, [-2.0, 0.0, 3.0])
    assert g is not None and g.tolist() == [0.0, 0.0, 0.0]


@pytest.mark.parametrize("op", [tf.floor, tf.round, tf.math.ceil])
def test_floor_round_ceil_have_no_gradient(op):
    (g,) = grad(op, [0.5, 1.7])
    assert g is None
    (g,) = grad(lambda x: op(x) + x, [0.5, 1.7])          # the other branch still flows
    assert g.tolist() == [1.0, 1.0]


def test_round_is_half_to_even():
    assert tf.round(tf.constant([0.5, 1.5, 2.5, -0.5])).numpy().tolist() == [0.0, 2.0, 2.0, -0.0]


def test_clip_by_value_passes_the_gradient_at_the_bounds():
    (g,) = grad(lambda x: tf.clip_by_value(x, -1.0, 1.0), [-2.0, -1.0, 0.0, 1.0, 2.0])
    assert g.tolist() == [0.0, 1.0, 1.0, 1.0, 0.0]


def test_pow_exponent_gradient_uses_zero_log_where_the_base_is_not_positive():
    x = [-2.0, 0.0, 2.0]
    gx, gy = grad(tf.pow, x, [2.0, 2.0, 2.0])
    assert gx.tolist() == [-4.0, 0.0, 4.0]                 # y x^(y-1)
    np.testing.assert_allclose(gy, [0.0, 0.0, 4.0 * np.log(2.0)], rtol=1e-6)   # x^y log x
    assert not np.isnan(gy).any()


def test_pow_broadcast_scalar_exponent():
    gx, gy = grad(lambda x, y: x ** y, [1.0, 2.0, 3.0], 3.0)
    assert gx.tolist() == [3.0, 12.0, 27.0]
    np.testing.assert_allclose(float(gy), 8 * np.log(2) + 27 * np.log(3), rtol=1e-6)


def test_sqrt_gradient_at_zero_is_infinite():
    (g,) = grad(tf.sqrt, [0.0, 4.0])
    assert g.tolist() == [np.inf, 0.25]


def test_where_routes_the_gradient():
    cond = tf.constant([True, False, True])
    gx, gy = grad(lambda x, y: tf.where(cond, x, y), [1.0, 2.0, 3.0], [4.0, 5.0, 6.0],
                  output_gradients=tf.constant([10.0, 20.0, 30.0]))
    assert gx.tolist() == [10.0, 0.0, 30.0] and gy.tolist() == [0.0, 20.0, 0.0]
    gx, gy = grad(lambda x, y: tf.where(x > 0, x * x, y), [-1.0, 3.0], 0.5)
    assert gx.tolist() == [0.0, 6.0] and float(gy) == 1.0  # y broadcast to the first entry


def test_divide_gradients():
    gx, gy = grad(tf.divide, [1.0, 6.0], [2.0, 3.0])
    np.testing.assert_allclose(gx, [0.5, 1 / 3.0], rtol=1e-6)                # 1 / y
    np.testing.assert_allclose(gy, [-0.25, -6.0 / 9.0], rtol=1e-6)   # -x / y^2


def test_floormod_and_floordiv():
    gx, gy = grad(tf.math.floormod, [7.0, -7.0], [2.0, 2.0])
    assert gx.tolist() == [1.0, 1.0] and gy.tolist() == [-3.0, 4.0]   # -floor(x / y)
    gx, gy = grad(tf.math.floordiv, [7.0], [2.0])
    assert gx is None and gy is None


def test_math_and_nn_aliases_are_the_same_functions():
    assert tf.math.sin is tf.sin and tf.math.exp is tf.exp and tf.math.sigmoid is tf.sigmoid
    assert tf.nn.sigmoid is tf.sigmoid and tf.nn.tanh is tf.tanh
    assert tf.nn.relu(tf.constant([-1.0, 2.0])).numpy().tolist() == [0.0, 2.0]
    assert tf.math.softplus is tf.nn.softplus and tf.math.reduce_sum is tf.reduce_sum
    assert tf.math.multiply is tf.multiply and tf.math.divide is tf.divide


# -- smooth functions against their derivatives ------------------------------------------------------

@pytest.mark.parametrize("op, derivative", [
    (tf.exp, np.exp),
    (tf.math.log, lambda x: 1 / x),
    (tf.math.log1p, lambda x: 1 / (1 + x)),
    (tf.math.expm1, np.exp),
    (tf.sin, np.cos),
    (tf.cos, lambda x: -np.sin(x)),
    (tf.tan, lambda x: 1 / np.cos(x) ** 2),
    (tf.tanh, lambda x: 1 - np.tanh(x) ** 2),
    (tf.sigmoid, lambda x: np.exp(-x) / (1 + np.exp(-x)) ** 2),
    (tf.nn.softplus, lambda x: 1 / (1 + np.exp(-x))),
    (tf.square, lambda x: 2 * x),
    (tf.sqrt, lambda x: 0.5 / np.sqrt(x)),
    (tf.math.rsqrt, lambda x: -0.5 * x ** -1.5),
    (tf.math.reciprocal, lambda x: -1 / x ** 2),
    (tf.negative, lambda x: -np.ones_like(x)),
])
def test_elementwise_derivatives(op, derivative):
    x = np.array([0.3, 0.9, 1.7])
    (g,) = grad(op, x, dtype=tf.float64)
    np.testing.assert_allclose(g, derivative(x), rtol=1e-12)


def test_softplus_and_sigmoid_do_not_overflow():
    (g,) = grad(tf.nn.softplus, [-100.0, 100.0])
    np.testing.assert_allclose(g, [0.0, 1.0], atol=1e-30)
    assert tf.nn.softplus(tf.constant(100.0)).numpy() == 100.0
    (g,) = grad(tf.sigmoid, [-100.0, 100.0])
    assert not np.isnan(g).any() and np.allclose(g, 0.0)


def test_softmax_and_log_softmax():
    logits = np.array([1.0, 2.0, 3.0])
    p = np.exp(logits) / np.exp(logits).sum()
    w = np.array([1.0, 0.0, -2.0])
    (g,) = grad(lambda x: tf.nn.softmax(x), logits, output_gradients=tf.constant(w, tf.float64),
                dtype=tf.float64)
    np.testing.assert_allclose(g, p * (w - p @ w), rtol=1e-12)
    (g,) = grad(lambda x: tf.nn.log_softmax(x), logits,
                output_gradients=tf.constant(w, tf.float64), dtype=tf.float64)
    np.testing.assert_allclose(g, w - p * w.sum(), rtol=1e-12)


# -- broadcasting ------------------------------------------------------------------------------------

def test_broadcasting_is_undone_in_the_gradient():
    gx, gy = grad(tf.add, np.ones((2, 3)), [1.0, 2.0, 3.0])
    assert gx.shape == (2, 3) and gy.tolist() == [2.0, 2.0, 2.0]
    gx, gy = grad(tf.multiply, [[1.0], [2.0]], [[10.0, 20.0, 30.0]])
    assert gx.tolist() == [[60.0], [60.0]] and gy.tolist() == [[3.0, 3.0, 3.0]]
    gx, gy = grad(tf.subtract, 5.0, [[1.0, 2.0], [3.0, 4.0]])
    assert gx.shape == () and float(gx) == 4.0 and gy.tolist() == [[-1.0, -1.0], [-1.0, -1.0]]


# -- matmul ------------------------------------------------------------------------------------------

@pytest.mark.parametrize("ta, tb", [(False, False), (True, False), (False, True), (True, True)])
def test_matmul_with_transposes(ta, tb):
    rng = np.random.default_rng(1)
    a = rng.standard_normal((4, 3) if ta else (3, 4))
    b = rng.standard_normal((5, 4) if tb else (4, 5))
    g = rng.standard_normal((3, 5))
    A = a.T if ta else a
    B = b.T if tb else b
    ga, gb = grad(lambda x, y: tf.matmul(x, y, transpose_a=ta, transpose_b=tb), a, b,
                  output_gradients=tf.constant(g), dtype=tf.float64)
    dA = g @ B.T          # gradient with respect to the product's left factor
    dB = A.T @ g
    np.testing.assert_allclose(ga, dA.T if ta else dA, rtol=1e-12)
    np.testing.assert_allclose(gb, dB.T if tb else dB, rtol=1e-12)


def test_batched_matmul_with_broadcast_batch_dims():
    rng = np.random.default_rng(2)
    a = rng.standard_normal((2, 1, 3, 4))
    b = rng.standard_normal((5, 4, 2))
    g = rng.standard_normal((2, 5, 3, 2))
    ga, gb = grad(tf.matmul, a, b, output_gradients=tf.constant(g), dtype=tf.float64)
    assert ga.shape == a.shape and gb.shape == b.shape
    np.testing.assert_allclose(ga, np.sum(g @ np.swapaxes(b, -1, -2), axis=1, keepdims=True),
                               rtol=1e-12)
    np.testing.assert_allclose(gb, np.sum(np.swapaxes(a, -1, -2) @ g, axis=0), rtol=1e-12)


def test_matmul_operator_in_a_tape():
    w = tf.Variable([[1.0, 2.0], [3.0, 4.0]])
    with tf.GradientTape() as tape:
        y = tf.reduce_sum([[1.0, -1.0]] @ w)
    assert tape.gradient(y, w).numpy().tolist() == [[1.0, 1.0], [-1.0, -1.0]]


# -- reductions --------------------------------------------------------------------------------------

@pytest.mark.parametrize("axis, keepdims, out_shape", [
    (None, False, ()), (0, False, (3,)), (1, True, (2, 1)), (-1, False, (2,)),
    ([0, 1], True, (1, 1)),
])
def test_reduce_sum_and_mean_axes(axis, keepdims, out_shape):
    x = np.arange(6.0).reshape(2, 3)
    y = tf.reduce_sum(tf.constant(x), axis=axis, keepdims=keepdims)
    assert y.shape == out_shape
    (g,) = grad(lambda t: tf.reduce_sum(t, axis=axis, keepdims=keepdims), x)
    assert g.shape == (2, 3) and (g == 1.0).all()
    (g,) = grad(lambda t: tf.reduce_mean(t, axis=axis, keepdims=keepdims), x, dtype=tf.float64)
    n = 6 if axis is None or axis == [0, 1] else (2 if axis == 0 else 3)
    np.testing.assert_allclose(g, np.full((2, 3), 1.0 / n), rtol=1e-15)


def test_reduce_sum_gradient_with_output_gradients_broadcasts_back():
    (g,) = grad(lambda t: tf.reduce_sum(t, axis=0), np.ones((2, 3)),
                output_gradients=tf.constant([1.0, 2.0, 3.0]))
    assert g.tolist() == [[1.0, 2.0, 3.0], [1.0, 2.0, 3.0]]
    (g,) = grad(lambda t: tf.reduce_mean(t, axis=1, keepdims=True), np.ones((2, 2)),
                output_gradients=tf.constant([[2.0], [4.0]]))
    assert g.tolist() == [[1.0, 1.0], [2.0, 2.0]]


def test_reduce_prod_gradient_with_and_without_zeros():
    (g,) = grad(tf.reduce_prod, [2.0, 3.0, 4.0])
    assert g.tolist() == [12.0, 8.0, 6.0]
    (g,) = grad(tf.reduce_prod, [2.0, 0.0, 3.0])
    assert g.tolist() == [0.0, 6.0, 0.0]
    (g,) = grad(tf.reduce_prod, [0.0, 0.0, 3.0])
    assert g.tolist() == [0.0, 0.0, 0.0]
    (g,) = grad(lambda t: tf.reduce_prod(t, axis=1), [[1.0, 2.0], [3.0, 4.0]])
    assert g.tolist() == [[2.0, 1.0], [4.0, 3.0]]


def test_reduction_axis_out_of_range():
    with pytest.raises((ValueError, tf.errors.InvalidArgumentError)):
        tf.reduce_sum(tf.zeros((2, 3)), axis=2)


# -- shape ops ---------------------------------------------------------------------------------------

W23 = np.arange(1.0, 7.0, dtype=np.float32).reshape(2, 3)   # weights to tell entries apart


def test_reshape_gradient():
    (g,) = grad(lambda t: tf.reshape(t, (3, 2)), np.zeros(6),
                output_gradients=tf.constant(W23.reshape(3, 2)))
    assert g.tolist() == [1.0, 2.0, 3.0, 4.0, 5.0, 6.0]
    (g,) = grad(lambda t: tf.reshape(t, (-1,)), np.zeros((2, 3)),
                output_gradients=tf.constant(np.arange(6.0, dtype=np.float32)))
    assert g.tolist() == [[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]]


def test_transpose_gradient():
    (g,) = grad(tf.transpose, np.zeros((2, 3)), output_gradients=tf.constant(W23.T))
    assert g.tolist() == W23.tolist()
    x = np.zeros((2, 3, 4))
    w = np.arange(24.0, dtype=np.float32).reshape(4, 2, 3)
    (g,) = grad(lambda t: tf.transpose(t, perm=[2, 0, 1]), x, output_gradients=tf.constant(w))
    np.testing.assert_array_equal(g, np.transpose(w, (1, 2, 0)))


def test_expand_dims_and_squeeze_gradients():
    (g,) = grad(lambda t: tf.expand_dims(t, 1), [1.0, 2.0],
                output_gradients=tf.constant([[3.0], [4.0]]))
    assert g.tolist() == [3.0, 4.0]
    assert tf.expand_dims(tf.zeros((2, 3)), -1).shape == (2, 3, 1)
    (g,) = grad(lambda t: tf.squeeze(t, axis=0), [[1.0, 2.0]],
                output_gradients=tf.constant([5.0, 6.0]))
    assert g.tolist() == [[5.0, 6.0]]
    assert tf.squeeze(tf.zeros((1, 2, 1))).shape == (2,)


def test_concat_gradient_splits_back():
    ga, gb = grad(lambda a, b: tf.concat([a, b], axis=1), np.zeros((2, 1)), np.zeros((2, 2)),
                  output_gradients=tf.constant(W23))
    assert ga.tolist() == [[1.0], [4.0]] and gb.tolist() == [[2.0, 3.0], [5.0, 6.0]]
    ga, gb = grad(lambda a, b: tf.concat([a, b], axis=0), [1.0], [2.0, 3.0],
                  output_gradients=tf.constant([7.0, 8.0, 9.0]))
    assert ga.tolist() == [7.0] and gb.tolist() == [8.0, 9.0]


def test_concat_of_one_source_with_a_constant():
    x = tf.constant([1.0, 2.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.concat([tf.constant([9.0]), x * x], axis=0)
    assert tape.gradient(y, x).numpy().tolist() == [2.0, 4.0]


def test_stack_gradient():
    ga, gb = grad(lambda a, b: tf.stack([a, b], axis=1), [0.0, 0.0, 0.0], [0.0, 0.0, 0.0],
                  output_gradients=tf.constant(W23.T))
    assert ga.tolist() == [1.0, 2.0, 3.0] and gb.tolist() == [4.0, 5.0, 6.0]
    assert tf.stack([tf.zeros(3), tf.ones(3)]).shape == (2, 3)


@pytest.mark.parametrize("index, expected", [
    ((1,), [[0, 0, 0], [1, 1, 1]]),
    ((slice(None), slice(None, None, 2)), [[1, 0, 1], [1, 0, 1]]),
    ((-1, -1), [[0, 0, 0], [0, 0, 1]]),
    ((slice(None, None, -1), 0), [[1, 0, 0], [1, 0, 0]]),
    ((Ellipsis, 1), [[0, 1, 0], [0, 1, 0]]),
    ((None, 0, slice(1, None)), [[0, 1, 1], [0, 0, 0]]),
])
def test_getitem_gradient_scatters_back(index, expected):
    (g,) = grad(lambda t: t[index], np.zeros((2, 3)))
    assert g.tolist() == expected


def test_getitem_gradient_sums_overlapping_reads():
    x = tf.constant([1.0, 2.0, 3.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = x[0] * x[0] + x[::2] * 10.0 + x[-1]
    # y has two entries: sum = 2 x0^2 + 10 x0 + 10 x2 + 2 x2
    assert tape.gradient(y, x).numpy().tolist() == [14.0, 0.0, 12.0]


def test_identity_and_cast_gradients():
    (g,) = grad(tf.identity, [1.0, 2.0])
    assert g.tolist() == [1.0, 1.0]
    (g,) = grad(lambda t: tf.cast(t, tf.float64) * 3.0, [1.0, 2.0])
    assert g.tolist() == [3.0, 3.0]
    x = tf.constant([1.0, 2.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.cast(tf.cast(x, tf.float16), tf.float32) ** 2
    g = tape.gradient(y, x)
    assert g.dtype == tf.float32 and g.numpy().tolist() == [2.0, 4.0]
    assert tf.cast(tf.constant([-1.7, 2.7]), tf.int32).numpy().tolist() == [-1, 2]   # truncates


# -- second derivatives at kinks ---------------------------------------------------------------------

def _second_derivative(f, values):
    x = tf.constant(values)
    with tf.GradientTape() as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            y = f(x)
        dy = inner.gradient(y, x)
    return dy, outer.gradient(dy, x)


def test_abs_second_derivative_is_zero():
    dy, d2y = _second_derivative(tf.abs, [-2.0, 3.0])
    assert dy.numpy().tolist() == [-1.0, 1.0]
    assert d2y is not None and d2y.numpy().tolist() == [0.0, 0.0]


def test_maximum_second_derivative_is_unconnected():
    dy, d2y = _second_derivative(lambda x: tf.maximum(x, 0.0), [-2.0, 3.0])
    assert dy.numpy().tolist() == [0.0, 1.0] and d2y is None


def test_relu_second_derivative_is_zero_as_in_tensorflow():
    dy, d2y = _second_derivative(tf.nn.relu, [-2.0, 3.0])
    assert dy.numpy().tolist() == [0.0, 1.0]
    assert d2y is not None and d2y.numpy().tolist() == [0.0, 0.0]
