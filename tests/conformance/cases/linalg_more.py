"""tf.linalg beyond the basics: LU and its helpers, tridiagonal and banded solves, eig/eigvals,
sqrtm/logm, tensor_diag_part, eigh_tridiagonal, and SVD gradients with full_matrices=True;
values and gradients (phase- and sign-independent where the factor's sign is arbitrary)."""

NOTES = {
    'tf.linalg.lu': 'No gradient (LookupError), as in TensorFlow 2.21, which registers none.',
    'tf.linalg.lu_reconstruct':
        'TensorFlow quirk matched: a batch with an int64 perm fails (InvalidArgumentError from '
        'a Pack of int32 and int64), as in lu_solve and lu_matrix_inverse.',
    'tf.linalg.eigh_tridiagonal':
        'Values and vectors match; the gradient is the exact one (tapegrad uses eigh on the '
        'dense matrix), where TensorFlow differentiates through its bisection iterations.',
    'tf.linalg.eig':
        'Eigenvectors are unit columns whose phase may differ from TensorFlow\'s by a unit '
        'factor (as between LAPACK builds); eigenvalues and phase-free uses match.',
    'tf.linalg.logm': 'Complex inputs only and no gradient (LookupError), as in TensorFlow.',
    'tf.linalg.svd':
        'full_matrices=True on a non-square input: TensorFlow\'s gradient when the sides differ '
        'by one, NotImplementedError beyond, as in TensorFlow.',
}

A3 = [[4.0, 1.0, 2.0], [0.5, 3.0, 1.0], [2.0, -1.0, 1.0]]
SPD = [[4.0, 1.0, 0.5], [1.0, 3.0, 0.2], [0.5, 0.2, 2.0]]


def _grad(tf, fn, *xs):
    xs = [tf.constant(x) for x in xs]
    with tf.GradientTape() as tape:
        tape.watch(xs)
        y = fn(*xs)
    return [y, tape.gradient(y, xs)]


def _weights(tf, x):
    return tf.reshape(tf.cos(tf.range(tf.size(x), dtype=tf.float32) * 1.3), tf.shape(x))


def _weighted(tf, y):
    return tf.reduce_sum(y * tf.cast(_weights(tf, y), y.dtype))


def case_lu_values_and_permutation(tf):
    a = tf.constant([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 10.0]])
    batch = tf.stack([a, tf.constant(A3)])
    lu, p = tf.linalg.lu(a)
    lu64, p64 = tf.linalg.lu(tf.cast(batch, tf.float64), output_idx_type=tf.int64)
    return [lu, p, lu64, p64, tf.gather(a, p), tf.linalg.lu_reconstruct(lu, p),
            tf.linalg.lu_reconstruct(*tf.linalg.lu(a, output_idx_type=tf.int64))]


def case_lu_batched_int64_perm_fails(tf):
    lu, p = tf.linalg.lu(tf.stack([tf.constant(A3), tf.eye(3)]), output_idx_type=tf.int64)
    return tf.linalg.lu_reconstruct(lu, p)


def case_lu_solve_and_inverse(tf):
    a = tf.constant(A3)
    lu, p = tf.linalg.lu(a)
    rhs = tf.constant([[1.0, 0.0], [2.0, 1.0], [3.0, -1.0]])
    return [tf.linalg.lu_solve(lu, p, rhs), tf.linalg.lu_matrix_inverse(lu, p),
            tf.linalg.lu_solve(*tf.linalg.lu(tf.stack([a, 2.0 * a])), tf.stack([rhs, rhs]))]


def case_lu_has_no_gradient(tf):
    return _grad(tf, lambda a: _weighted(tf, tf.linalg.lu(a)[0]), A3)


def case_lu_helpers_gradients(tf):
    lu, p = tf.linalg.lu(tf.constant(A3))
    return [_grad(tf, lambda m, b: _weighted(tf, tf.linalg.lu_solve(m, p, b)), lu,
                  [[1.0], [2.0], [3.0]]),
            _grad(tf, lambda m: _weighted(tf, tf.linalg.lu_matrix_inverse(m, p)), lu),
            _grad(tf, lambda m: _weighted(tf, tf.linalg.lu_reconstruct(m, p)), lu)]


def case_lu_errors(tf):
    return tf.linalg.lu(tf.constant([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]))


def case_tridiagonal_solve_formats(tf):
    compact = tf.constant([[1.0, 2.0, 0.0], [4.0, 5.0, 6.0], [0.0, -1.0, 1.0]])
    sup, main, sub = tf.unstack(compact)
    dense = tf.constant([[4.0, 1.0, 9.0], [-1.0, 5.0, 2.0], [9.0, 1.0, 6.0]])
    rhs = tf.constant([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
    return [tf.linalg.tridiagonal_solve(compact, rhs),
            tf.linalg.tridiagonal_solve([sup, main, sub], rhs, diagonals_format='sequence'),
            tf.linalg.tridiagonal_solve(dense, rhs, diagonals_format='matrix'),
            tf.linalg.tridiagonal_solve(compact, tf.transpose(rhs), transpose_rhs=True),
            tf.linalg.tridiagonal_solve(compact, tf.constant([1.0, 2.0, 3.0])),
            tf.linalg.tridiagonal_solve(tf.stack([compact, 2.0 * compact]), tf.stack([rhs, rhs]))]


def case_tridiagonal_gradients(tf):
    compact = [[1.0, 2.0, 0.5], [4.0, 5.0, 6.0], [0.3, -1.0, 1.0]]
    rhs = [[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]
    return [_grad(tf, lambda d, b: _weighted(tf, tf.linalg.tridiagonal_solve(d, b)), compact, rhs),
            _grad(tf, lambda d, b: _weighted(tf, tf.linalg.tridiagonal_matmul(d, b)), compact,
                  rhs),
            _grad(tf, lambda m: _weighted(tf, tf.linalg.tridiagonal_solve(
                m, tf.constant(rhs), diagonals_format='matrix')),
                [[4.0, 1.0, 9.0], [-1.0, 5.0, 2.0], [9.0, 1.0, 6.0]])]


def case_tridiagonal_matmul(tf):
    compact = tf.constant([[1.0, 2.0, 7.0], [4.0, 5.0, 6.0], [7.0, -1.0, 1.0]])
    rhs = tf.constant([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
    return [tf.linalg.tridiagonal_matmul(compact, rhs),
            tf.linalg.tridiagonal_matmul(tf.unstack(compact), rhs, diagonals_format='sequence')]


def case_banded_triangular_solve(tf):
    lower = tf.constant([[2.0, 3.0, 4.0], [1.0, 2.0, 3.0]])
    upper = tf.constant([[2.0, 3.0, 4.0, 5.0], [-1.0, -2.0, -3.0, -4.0]])
    rhs3 = tf.constant([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
    return [tf.linalg.banded_triangular_solve(lower, rhs3),
            tf.linalg.banded_triangular_solve(lower, rhs3, adjoint=True),
            tf.linalg.banded_triangular_solve(upper, tf.ones([4, 1]), lower=False),
            tf.linalg.banded_triangular_solve(upper, tf.ones([4, 1]), lower=False, adjoint=True),
            _grad(tf, lambda b, r: _weighted(tf, tf.linalg.banded_triangular_solve(b, r)),
                  [[2.0, 3.0, 4.0], [1.0, 2.0, 3.0]], [[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])]


def case_eig_values(tf):
    out = []
    for m in (A3, [[0.0, -1.0], [1.0, 0.0]], [[1.0, 5.0, 0.0], [-5.0, 1.0, 0.0], [0.0, 0.0, 3.0]]):
        e, v = tf.linalg.eig(tf.constant(m))
        out += [e, tf.linalg.eigvals(tf.constant(m, tf.float64)), tf.abs(v),
                tf.abs(tf.matmul(tf.cast(m, v.dtype), v) - v * e[tf.newaxis, :]) < 1e-4]
    return out


def case_eig_gradients(tf):
    def values_loss(a):
        e = tf.linalg.eigvals(a)
        return tf.reduce_sum(tf.math.real(e) * [1.0, 2.0, 3.0] + tf.math.imag(e) ** 2)

    def vectors_loss(a):
        e, v = tf.linalg.eig(a)
        return tf.reduce_sum(tf.abs(v) ** 2 * _weights(tf, a)) + tf.reduce_sum(tf.math.real(e))
    return [_grad(tf, values_loss, A3), _grad(tf, vectors_loss, A3),
            _grad(tf, values_loss, [[1.0, 5.0, 0.0], [-5.0, 1.0, 0.0], [0.0, 0.0, 3.0]])]


def case_sqrtm(tf):
    return [tf.linalg.sqrtm(tf.constant(SPD)), tf.linalg.sqrtm(tf.constant(SPD, tf.float64)),
            tf.linalg.sqrtm([[1.0, 1.0], [0.0, 1.0]]), tf.linalg.sqrtm([[0.0, 1.0], [-1.0, 0.0]]),
            tf.linalg.sqrtm([[-1.0, 0.0], [0.0, 4.0]]),
            tf.linalg.sqrtm(tf.constant([[-1.0, 0.0], [0.0, 4.0]], tf.complex64)),
            tf.matrix_square_root(tf.constant([[4.0, 0.0], [0.0, 9.0]])),
            tf.linalg.sqrtm(tf.stack([tf.constant(SPD), tf.constant(SPD) * 2.0]))]


def case_sqrtm_gradient(tf):
    return [_grad(tf, lambda a: _weighted(tf, tf.linalg.sqrtm(a)), SPD),
            _grad(tf, lambda a: _weighted(tf, tf.linalg.sqrtm(a)), A3)]


def case_logm(tf):
    return [tf.linalg.logm(tf.constant([[1.0, 1.0], [0.0, 1.0]], tf.complex64)),
            tf.linalg.logm(tf.cast(tf.constant(SPD), tf.complex128)),
            tf.linalg.logm(tf.constant([[-1.0, 0.0], [0.0, 2.0]], tf.complex64))]


def case_logm_needs_complex(tf):
    return tf.linalg.logm(tf.constant([[1.0, 0.0], [0.0, 1.0]]))


def case_logm_has_no_gradient(tf):
    z = tf.constant([[2.0, 1.0], [1.0, 3.0]], tf.complex64)
    with tf.GradientTape() as tape:
        tape.watch(z)
        y = tf.math.real(tf.reduce_sum(tf.linalg.logm(z)))
    return tape.gradient(y, z)


def case_tensor_diag_part(tf):
    x = tf.reshape(tf.range(36.0), [2, 3, 2, 3])
    return [tf.linalg.tensor_diag_part(x), tf.linalg.tensor_diag_part([[1, 2], [3, 4]]),
            _grad(tf, lambda a: _weighted(tf, tf.linalg.tensor_diag_part(a)),
                  [[1.0, 2.0], [3.0, 4.0]])]


def case_eigh_tridiagonal(tf):
    a, b = tf.constant([1.0, 2.0, 3.0]), tf.constant([0.5, -1.0])
    e, v = tf.linalg.eigh_tridiagonal(a, b, eigvals_only=False)
    return [tf.linalg.eigh_tridiagonal(a, b), e, tf.abs(v),
            tf.linalg.eigh_tridiagonal(a, b, select='i', select_range=[1, 2]),
            tf.linalg.eigh_tridiagonal(a, b, select='v', select_range=[0.0, 2.5]),
            tf.linalg.eigh_tridiagonal(tf.cast(a, tf.float64), tf.cast(b, tf.float64))]


def case_svd_full_matrices_gradients(tf):
    """Squares of U's and V's entries do not depend on the columns' signs."""
    def loss(a, which):
        s, u, v = tf.linalg.svd(a, full_matrices=True)
        f = u if which == 'u' else v
        return tf.reduce_sum(tf.square(f) * _weights(tf, f)) + tf.reduce_sum(s)
    tall = [[1.0, 2.0], [3.0, 4.0], [5.0, 7.0]]
    wide = [[1.0, 2.0, 0.5], [3.0, 4.0, -1.0]]
    return [_grad(tf, lambda a: loss(a, 'u'), tall), _grad(tf, lambda a: loss(a, 'v'), tall),
            _grad(tf, lambda a: loss(a, 'u'), wide), _grad(tf, lambda a: loss(a, 'v'), wide),
            _grad(tf, lambda a: loss(a, 'u'), A3)]


def case_svd_full_matrices_gradient_limit(tf):
    a = tf.constant([[1.0, 2.0], [3.0, 4.0], [5.0, 7.0], [0.0, 1.0]])
    with tf.GradientTape() as tape:
        tape.watch(a)
        s, u, v = tf.linalg.svd(a, full_matrices=True)
        y = tf.reduce_sum(tf.square(u))
    return tape.gradient(y, a)


# --- where tapegrad's message is its own -----------------------------------------------------------
case_svd_full_matrices_gradient_limit.message_differs = (
    "TensorFlow also prints the op's whole input matrix; tapegrad gives the sentence and m, n",
    ("svd gradient is not implemented for abs(m - n) > 1 when full_matrices is True",
     "m=2 and n=4"))
