"""tf.math special functions (incomplete gamma and beta, Hurwitz zeta, lbeta, erfcinv), the exact
small ops (nextafter, invert_permutation, zero_fraction) and approximate top-k, with gradients and
edge values (0, negative, inf, nan, large arguments)."""
import math

NOTES = {
    "tf.math.betainc": "gradient for x only; a and b get None (TensorFlow's rule)",
    "tf.math.zeta": "gradient for q only; x gets None (TensorFlow's rule)",
    "tf.math.igamma": "second derivative in a raises LookupError (IgammaGradA has no gradient)",
    "tf.math.approx_min_k": "raises NotFoundError as TensorFlow's CPU build does (no kernel)",
    "tf.nn.approx_min_k": "raises NotFoundError as TensorFlow's CPU build does (no kernel)",
    "tf.math.approx_max_k": "exact on CPU; reduction_dimension other than -1 raises NotFoundError",
    "tf.math.nextafter": "gradient: ones for x1, zeros for x2 (TensorFlow's rule)",
}

INF, NAN = math.inf, math.nan


def _grads(tf, fn, dtype, *xs):
    xs = [tf.constant(x, dtype) for x in xs]
    with tf.GradientTape() as tape:
        tape.watch(xs)
        y = fn(*xs)
    return [y, tape.gradient(y, xs)]


def case_igamma_values_and_gradients(tf):
    a = [0.5, 1.0, 3.0, 2.0, 10.0, 0.1, 7.5]
    x = [0.3, 1.0, 2.0, 5.0, 12.0, 0.9, 3.0]
    return [_grads(tf, tf.math.igamma, tf.float32, a, x),
            _grads(tf, tf.math.igammac, tf.float32, a, x),
            _grads(tf, tf.math.igamma, tf.float64, a, x),
            _grads(tf, tf.math.igammac, tf.float64, a, x)]


def case_igamma_edges(tf):
    a = [0.0, -1.0, 2.0, 0.5, INF, 1.0, 1.0, NAN, 2.0]
    x = [1.0, 1.0, 0.0, 0.0, 1.0, -1.0, INF, 1.0, NAN]
    return [_grads(tf, tf.math.igamma, tf.float64, a, x),
            _grads(tf, tf.math.igammac, tf.float64, a, x)]


def case_igamma_large_a(tf):
    a = [100.0, 1000.0, 50.0, 0.01]
    x = [90.0, 1010.0, 0.5, 30.0]
    return [_grads(tf, tf.math.igamma, tf.float64, a, x),
            tf.math.igammac(tf.constant(a, tf.float64), tf.constant(x, tf.float64))]


case_igamma_large_a.tolerance = (1e-8, 1e-12)


def case_igamma_broadcasts(tf):
    a = tf.constant([[1.0], [2.5]])
    x = tf.constant([0.5, 1.5, 4.0])
    with tf.GradientTape() as tape:
        tape.watch([a, x])
        y = tf.math.igamma(a, x)
    return [y, tape.gradient(y, [a, x])]


def case_igamma_second_order_in_x(tf):
    x = tf.constant([0.5, 2.0], tf.float64)
    with tf.GradientTape() as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            y = tf.math.igamma(tf.constant(2.0, tf.float64), x)
        dx = inner.gradient(y, x)
    return [dx, outer.gradient(dx, x)]


def case_igamma_second_order_in_a_raises(tf):
    a = tf.constant(2.0, tf.float64)
    with tf.GradientTape() as outer:
        outer.watch(a)
        with tf.GradientTape() as inner:
            inner.watch(a)
            y = tf.math.igamma(a, tf.constant(1.0, tf.float64))
        da = inner.gradient(y, a)
    return outer.gradient(da, a)


def case_betainc_values_and_gradients(tf):
    a = [1.0, 2.0, 0.5, 5.0, 3.0]
    b = [2.0, 3.0, 0.5, 0.1, 7.0]
    x = [0.3, 0.5, 0.9, 0.99, 0.2]
    return [_grads(tf, tf.math.betainc, tf.float32, a, b, x),
            _grads(tf, tf.math.betainc, tf.float64, a, b, x)]


def case_betainc_edges(tf):
    a = [1.0, 1.0, 0.0, -1.0, 1.0, 2.0, 2.0]
    b = [1.0, 1.0, 1.0, 1.0, 0.0, 3.0, 3.0]
    x = [-0.1, 1.1, 0.5, 0.5, 0.5, 0.0, 1.0]
    return tf.math.betainc(tf.constant(a, tf.float64), tf.constant(b, tf.float64),
                           tf.constant(x, tf.float64))


def case_betainc_scalar_parameters_broadcast(tf):
    return tf.math.betainc(2.0, 3.0, tf.constant([0.1, 0.5, 0.9]))


def case_betainc_mismatched_shapes(tf):
    return tf.math.betainc(tf.constant([1.0, 2.0]), tf.constant([1.0, 2.0, 3.0]),
                           tf.constant([0.5, 0.5]))


def case_zeta_values_and_gradients(tf):
    s = [2.0, 3.5, 1.5, 4.0, 30.0]
    q = [1.0, 2.0, 0.5, 10.0, 0.3]
    return [_grads(tf, tf.math.zeta, tf.float32, s, q), _grads(tf, tf.math.zeta, tf.float64, s, q)]


def case_zeta_edges(tf):
    s = [1.0, 0.5, 2.0, 2.0, 2.5, 3.0]
    q = [1.0, 1.0, 0.0, -1.0, -1.5, -1.5]
    return tf.math.zeta(tf.constant(s, tf.float64), tf.constant(q, tf.float64))


def case_lbeta(tf):
    return [_grads(tf, tf.math.lbeta, tf.float32, [[1.0, 2.0, 3.0], [0.5, 0.5, 4.0]]),
            _grads(tf, tf.math.lbeta, tf.float64, [2.0, 3.0]),
            tf.math.lbeta(tf.zeros([2, 0])),
            tf.math.lbeta([[1.0, INF], [0.0, 1.0], [-1.0, 2.0]])]


def case_lbeta_of_a_scalar_raises(tf):
    return tf.math.lbeta(tf.constant(2.0))


def case_erfcinv(tf):
    x = [0.5, 1.0, 1.5, 0.0, 2.0, -0.1, 2.5, 1e-6, 0.01, 1.99]
    return [_grads(tf, tf.math.erfcinv, tf.float32, x),
            _grads(tf, tf.math.erfcinv, tf.float64, x + [1e-30, 1e-300])]


def case_nextafter(tf):
    x1 = tf.constant([1.0, 0.0, -1.0, 2.0])
    x2 = tf.constant([2.0, -1.0, -1.0, 1.0])
    y = tf.math.nextafter(x1, x2)
    with tf.GradientTape() as tape:
        tape.watch([x1, x2])
        z = tf.math.nextafter(x1, x2)
    d = tf.math.nextafter(tf.constant([1.0], tf.float64), tf.constant([2.0], tf.float64))
    return [y - x1, tape.gradient(z, [x1, x2]), d - 1.0, d.dtype]


def case_invert_permutation(tf):
    return [tf.math.invert_permutation([3, 4, 0, 2, 1]),
            tf.math.invert_permutation(tf.constant([1, 0, 2], tf.int64))]


def case_invert_permutation_duplicate(tf):
    return tf.math.invert_permutation([0, 0, 1])


def case_invert_permutation_out_of_range(tf):
    return tf.math.invert_permutation([0, 5, 1])


def case_zero_fraction(tf):
    x = tf.constant([[0.0, 1.0], [2.0, 0.0]], tf.float64)
    with tf.GradientTape() as tape:
        tape.watch(x)
        z = tf.math.zero_fraction(x)
    return [tf.math.zero_fraction([1, 0, 0, 2]), z, tape.gradient(z, x),
            tf.nn.zero_fraction(tf.constant([True, False, False])),
            tf.nn.zero_fraction(tf.zeros([3, 3]))]


def case_approx_max_k(tf):
    w = tf.constant([[1.0, 5.0, 3.0, 5.0], [2.0, 0.0, -1.0, 4.0]])
    with tf.GradientTape() as tape:
        tape.watch(w)
        values, indices = tf.math.approx_max_k(w, 2)
        s = tf.reduce_sum(values * [[1.0, 2.0]])
    v2, i2 = tf.nn.approx_max_k(w, 3, recall_target=0.5)
    top = tf.approx_top_k(w, 1)
    return [values, indices, tape.gradient(s, w), v2, i2, top.values, top.indices]


def case_approx_max_k_other_axis_not_found(tf):
    return tf.math.approx_max_k(tf.constant([[1.0, 2.0], [3.0, 0.0]]), 1, reduction_dimension=0)


def case_approx_min_k_not_found(tf):
    return tf.math.approx_min_k(tf.constant([3.0, 1.0, 2.0]), 1)


def case_approx_max_k_too_many(tf):
    return tf.math.approx_max_k(tf.constant([3.0, 1.0, 2.0]), 5)


def case_approx_max_k_integer_rejected(tf):
    return tf.math.approx_max_k(tf.constant([3, 1, 2]), 1)


def case_integer_inputs_rejected(tf):
    out = []
    for fn in (lambda: tf.math.lbeta([1, 2]), lambda: tf.math.igamma(1, 2),
               lambda: tf.math.erfcinv(1), lambda: tf.math.betainc(1, 1, 0)):
        try:
            fn()
            out.append(None)
        except Exception as e:  # noqa: BLE001 - the class is the outcome
            out.append(type(e).__name__)
    return out


def case_zeta_python_number_follows_tensor(tf):
    return tf.math.zeta(tf.constant([2.0, 3.0]), 1)


# --- where tapegrad's message is its own -----------------------------------------------------------
_KERNELS = ("TensorFlow lists every kernel registered for the op on every device; tapegrad says "
            "which settings its CPU kernel takes")
case_approx_max_k_other_axis_not_found.message_differs = (
    _KERNELS, ("Could not find device for node: {{node ApproxTopK}}", "reduction_dimension=-1"))
case_approx_min_k_not_found.message_differs = (
    _KERNELS, ("Could not find device for node: {{node ApproxTopK}}", "is_max_k=true"))
