"""tf.linalg: decompositions (qr, svd, eigh), norms, solvers and products, with gradients."""
A = [[4.0, 1.0, 0.5], [1.0, 3.0, -0.2], [0.5, -0.2, 2.0]]        # symmetric positive definite
B = [[1.0, 2.0], [3.0, 4.0], [5.0, 7.0]]
G = [[2.0, -1.0, 0.3], [0.4, 1.5, 1.0], [-0.6, 0.2, 3.0]]


def _grads(tf, fn, *xs):
    xs = [tf.constant(x, tf.float64) for x in xs]
    with tf.GradientTape() as tape:
        tape.watch(xs)
        y = fn(*xs)
    return [y, tape.gradient(y, xs)]


def case_det_inv_solve_values(tf):
    return [_grads(tf, tf.linalg.det, G), _grads(tf, tf.linalg.inv, G),
            _grads(tf, tf.linalg.solve, G, B), _grads(tf, tf.linalg.logdet, A),
            _grads(tf, lambda a: tf.linalg.slogdet(a)[1], G)]


def case_qr_reduced_and_full(tf):
    q, r = tf.linalg.qr(tf.constant(B, tf.float64))
    qf, rf = tf.linalg.qr(tf.constant(B, tf.float64), full_matrices=True)
    return [q, r, qf.shape, rf.shape, _grads(tf, lambda b: tf.reduce_sum(tf.linalg.qr(b)[0] *
                                                                            [[1.0, 2.0]]) +
                                              tf.reduce_sum(tf.linalg.qr(b)[1]), B)]


def case_svd_forms(tf):
    s = tf.linalg.svd(tf.constant(B, tf.float64), compute_uv=False)
    s2, u, v = tf.linalg.svd(tf.constant(B, tf.float64))
    s3, u3, v3 = tf.linalg.svd(tf.constant(B, tf.float64), full_matrices=True)
    recon = tf.matmul(u * s2, v, adjoint_b=True)
    return [s, s2, tf.abs(u), tf.abs(v), u3.shape, v3.shape, recon,
            _grads(tf, lambda b: tf.linalg.svd(b, compute_uv=False), B)]


def case_svd_gradient_through_vectors(tf):
    def f(b):
        s, u, v = tf.linalg.svd(b)
        return tf.reduce_sum(s) + tf.reduce_sum(tf.square(u[:, 0] * u[:, 0])) + \
            tf.reduce_sum(tf.square(v) * [[1.0, 2.0]])
    return _grads(tf, f, B)


def case_eigh_and_eigvalsh(tf):
    e, v = tf.linalg.eigh(tf.constant(A, tf.float64))
    return [e, tf.abs(v), tf.linalg.eigvalsh(tf.constant(A, tf.float64)),
            _grads(tf, tf.linalg.eigvalsh, A),
            _grads(tf, lambda a: tf.linalg.eigh(a)[1][0, 0] ** 2 + 2 * tf.linalg.eigh(a)[1][1, 2] ** 2,
                   A),
            _grads(tf, lambda a: tf.reduce_sum(tf.linalg.eigh(a)[1][:, 0] ** 4), A)]


def case_norm_orders(tf):
    m = tf.constant(B, tf.float64)
    v = tf.constant([3.0, -4.0, 1.0], tf.float64)
    return [tf.norm(m), tf.norm(m, ord="fro", axis=[0, 1]), tf.norm(m, ord=1, axis=[-2, -1]),
            tf.norm(m, ord=2, axis=[0, 1]), tf.norm(m, ord=float("inf"), axis=[0, 1]),
            tf.norm(v, ord=1), tf.norm(v, ord=2), tf.norm(v, ord=float("inf")), tf.norm(v, ord=3),
            tf.norm(m, axis=1), tf.norm(m, axis=0, keepdims=True), tf.linalg.norm(m, ord=1, axis=1),
            tf.norm(v, ord=0.5)]


def case_norm_gradients(tf):
    return [_grads(tf, lambda m: tf.norm(m, ord=2, axis=[0, 1]), B),
            _grads(tf, lambda m: tf.norm(m, ord=1, axis=[0, 1]), B),
            _grads(tf, lambda m: tf.norm(m, ord=float("inf"), axis=[0, 1]), B),
            _grads(tf, lambda v: tf.norm(v, ord=1), [3.0, -4.0, 0.0]),
            _grads(tf, lambda v: tf.norm(v, ord=float("inf")), [3.0, -4.0, 4.0]),
            _grads(tf, lambda v: tf.norm(v), [0.0, 0.0])]


def case_norm_bad_ord(tf):
    return tf.norm(tf.constant(B), ord=3, axis=[0, 1])


def case_matvec_matmul_adjoint(tf):
    a = tf.constant(G, tf.float64)
    b = tf.constant(B, tf.float64)
    v = tf.constant([1.0, 2.0, 3.0], tf.float64)
    return [tf.linalg.matvec(a, v), tf.linalg.matvec(a, v, transpose_a=True),
            tf.linalg.matvec(a, v, adjoint_a=True), tf.matmul(a, b, adjoint_a=True),
            tf.matmul(b, a, adjoint_a=True, adjoint_b=False, transpose_b=False).shape,
            tf.linalg.matmul(b, b, adjoint_b=True)]


def case_lstsq_and_pinv(tf):
    return [_grads(tf, tf.linalg.lstsq, B, [[1.0], [2.0], [2.5]]),
            tf.linalg.lstsq(tf.constant(B, tf.float64), tf.constant([[1.0], [2.0], [2.5]],
                                                                    tf.float64), l2_regularizer=0.5),
            _grads(tf, tf.linalg.pinv, B)]


def case_cross_and_expm(tf):
    return [_grads(tf, tf.linalg.cross, [1.0, 2.0, 3.0], [-1.0, 0.5, 2.0]),
            tf.linalg.expm(tf.constant([[0.0, 1.0], [-1.0, 0.0]], tf.float64)),
            _grads(tf, tf.linalg.expm, [[0.1, 0.4], [-0.3, 0.2]])]


def case_trace_diag_band_set(tf):
    m = tf.reshape(tf.range(1.0, 10.0), [3, 3])
    return [tf.linalg.trace(m), tf.linalg.diag([1.0, 2.0]), tf.linalg.diag_part(m),
            tf.linalg.band_part(m, 0, -1), tf.linalg.band_part(m, 1, 0),
            tf.linalg.set_diag(m, [0.0, 0.0, 0.0]), tf.linalg.adjoint(m)]


def case_cholesky_and_triangular(tf):
    return [_grads(tf, tf.linalg.cholesky, A),
            _grads(tf, lambda a, b: tf.linalg.cholesky_solve(tf.linalg.cholesky(a), b), A, B),
            _grads(tf, lambda a, b: tf.linalg.triangular_solve(a, b, lower=False), G, B)]


def case_singular_inverse(tf):
    return tf.linalg.inv(tf.constant([[1.0, 2.0], [2.0, 4.0]]))


def case_qr_wide_gradient(tf):
    w = [[1.0, 2.0, 0.5, -1.0], [3.0, 4.0, 2.0, 0.0]]
    return [tf.linalg.qr(tf.constant(w, tf.float64)),
            _grads(tf, lambda a: tf.reduce_sum(tf.linalg.qr(a)[0] * [[1.0, 2.0], [3.0, 4.0]]) +
                   tf.reduce_sum(tf.linalg.qr(a)[1] * [[1.0, -1.0, 2.0, 0.5]]), w)]


def case_normalize_tensor_diag_rank(tf):
    m = tf.constant(B, tf.float64)
    n, norm = tf.linalg.normalize(m)
    n1, norm1 = tf.linalg.normalize(m, ord=1, axis=0)
    return [n, norm, n1, norm1, tf.linalg.tensor_diag([1.0, 2.0]),
            tf.linalg.matrix_rank(m), tf.linalg.matrix_rank(tf.constant([[1.0, 2.0], [2.0, 4.0]])),
            _grads(tf, lambda a: tf.linalg.normalize(a)[0] * [[1.0, 2.0]], B)]


# Matrices holding NaN or infinity: TensorFlow's MatrixInverse and MatrixSolve refuse some as
# "not invertible" and return NaNs for others, by where the NaN meets Eigen's pivoting.
_NAN = float("nan")
_INF = float("inf")


def case_inv_nan_off_the_pivots_gives_nans(tf):
    return tf.linalg.inv(tf.constant([[1.0, _NAN], [0.0, 1.0]]))


def case_inv_nan_as_a_pivot_is_not_invertible(tf):
    return tf.linalg.inv(tf.constant([[_NAN, 1.0], [2.0, 3.0]]))


def case_inv_infinite_pivot(tf):
    return tf.linalg.inv(tf.constant([[_INF, 0.0], [0.0, 1.0]], tf.float64))


def case_inv_nan_in_the_middle_of_a_3x3(tf):
    return tf.linalg.inv(tf.constant([[2.0, 1.0, 0.0], [1.0, _NAN, 1.0], [0.0, 1.0, 2.0]]))


def case_inv_nan_below_a_larger_pivot(tf):
    return tf.linalg.inv(tf.constant([[4.0, 1.0, 0.0], [_NAN, 2.0, 1.0], [1.0, 0.0, 3.0]]))


def case_inv_batch_with_one_bad_matrix(tf):
    return tf.linalg.inv(tf.constant([[[1.0, 2.0], [3.0, 4.0]], [[_NAN, 1.0], [2.0, 3.0]]]))


def case_inv_adjoint_of_a_nan_matrix(tf):
    return tf.linalg.inv(tf.constant([[1.0, _NAN], [0.0, 1.0]]), adjoint=True)


def case_solve_nan_as_a_pivot(tf):
    return tf.linalg.solve(tf.constant([[_NAN, 1.0], [2.0, 3.0]]), tf.ones([2, 1]))


def case_solve_nan_off_the_pivots(tf):
    return tf.linalg.solve(tf.constant([[1.0, _NAN], [0.0, 1.0]]), tf.ones([2, 1]))


def case_solve_singular_matrix(tf):
    return tf.linalg.solve(tf.constant([[1.0, 2.0], [2.0, 4.0]]), tf.ones([2, 1]))
