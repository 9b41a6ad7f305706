"""Linear algebra against closed forms on small matrices worked out by hand, and gradients
against the textbook identities."""
import math

import numpy as np
import pytest

import tapegrad as tf

A = np.array([[4.0, 2.0], [1.0, 3.0]])        # det 10, inverse [[3, -2], [-1, 4]] / 10


def test_inv_det_slogdet():
    np.testing.assert_allclose(tf.linalg.inv(A).numpy(), [[0.3, -0.2], [-0.1, 0.4]])
    np.testing.assert_allclose(tf.linalg.inv(A, adjoint=True).numpy(), [[0.3, -0.1], [-0.2, 0.4]])
    assert float(tf.linalg.det(A)) == pytest.approx(10.0)
    sign, logdet = tf.linalg.slogdet(-A)          # a 2x2 negated keeps its determinant: 10
    assert float(sign) == 1.0 and float(logdet) == pytest.approx(math.log(10))
    sign, _ = tf.linalg.slogdet(A[::-1])
    assert float(sign) == -1.0
    batch = tf.linalg.det(np.stack([A, 2 * A]))
    np.testing.assert_allclose(batch.numpy(), [10.0, 40.0])


def test_det_gradient_is_cofactor_matrix():
    a = tf.constant(A)
    with tf.GradientTape() as tape:
        tape.watch(a)
        d = tf.linalg.det(a)
    # d det / d a_ij = cofactor: [[3, -1], [-2, 4]]
    np.testing.assert_allclose(tape.gradient(d, a).numpy(), [[3.0, -1.0], [-2.0, 4.0]])


def test_solve_and_triangular_solve():
    b = np.array([[10.0], [5.0]])
    np.testing.assert_allclose(tf.linalg.solve(A, b).numpy(), [[2.0], [1.0]])   # 4*2+2=10, 2+3=5
    np.testing.assert_allclose(tf.linalg.solve(A, b, adjoint=True).numpy(), [[2.5], [0.0]])
    lower = np.array([[2.0, 99.0], [1.0, 4.0]])      # 99 lies outside the triangle: ignored
    np.testing.assert_allclose(tf.linalg.triangular_solve(lower, [[4.0], [10.0]]).numpy(),
                               [[2.0], [2.0]])
    np.testing.assert_allclose(
        tf.linalg.triangular_solve(lower.T, [[4.0], [10.0]], lower=False, adjoint=True).numpy(),
        [[2.0], [2.0]])
    with pytest.raises(tf.errors.InvalidArgumentError, match="same number of rows"):
        tf.linalg.solve(A, [[1.0], [2.0], [3.0]])
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"Input matrix is not invertible\. \[Op:MatrixSolve\]"):
        tf.linalg.solve(np.zeros((2, 2)), b)


def test_solve_gradients():
    a, b = tf.constant(A), tf.constant([[10.0], [5.0]], tf.float64)
    with tf.GradientTape() as tape:
        tape.watch([a, b])
        x = tf.linalg.solve(a, b)
        y = tf.reduce_sum(x)
    ga, gb = tape.gradient(y, [a, b])
    gb_expected = np.linalg.inv(A).T @ np.ones((2, 1))      # A^-T 1
    np.testing.assert_allclose(gb.numpy(), gb_expected)
    np.testing.assert_allclose(ga.numpy(), -gb_expected @ np.array([[2.0, 1.0]]))   # -gb x^T


def test_cholesky():
    spd = np.array([[4.0, 2.0], [2.0, 5.0]])             # L = [[2, 0], [1, 2]]
    np.testing.assert_allclose(tf.linalg.cholesky(spd).numpy(), [[2.0, 0.0], [1.0, 2.0]])
    with pytest.raises(tf.errors.InvalidArgumentError, match="Cholesky"):
        tf.linalg.cholesky(np.array([[1.0, 2.0], [2.0, 1.0]]))
    x = tf.constant(spd)
    with tf.GradientTape() as tape:
        tape.watch(x)
        logdet = 2 * tf.reduce_sum(tf.math.log(tf.linalg.diag_part(tf.linalg.cholesky(x))))
    # d log det / dA = A^-1 (symmetric)
    np.testing.assert_allclose(tape.gradient(logdet, x).numpy(), np.linalg.inv(spd), rtol=1e-12)
    np.testing.assert_allclose(tf.linalg.cholesky_solve(tf.linalg.cholesky(spd),
                                                        [[8.0], [9.0]]).numpy(),
                               np.linalg.solve(spd, [[8.0], [9.0]]))


def test_transpose_trace_diag():
    m = np.arange(6.0).reshape(2, 3)
    assert tf.linalg.matrix_transpose(m).numpy().tolist() == [[0, 3], [1, 4], [2, 5]]
    assert float(tf.linalg.trace(np.arange(9.0).reshape(3, 3))) == 12.0
    assert tf.linalg.diag([1.0, 2.0]).numpy().tolist() == [[1, 0], [0, 2]]
    assert tf.linalg.diag_part(m).numpy().tolist() == [0, 4]
    assert tf.linalg.diag_part(m.T).numpy().tolist() == [0, 4]
    assert tf.linalg.band_part(np.ones((3, 3)), 0, -1).numpy().tolist() == [
        [1, 1, 1], [0, 1, 1], [0, 0, 1]]
    x = tf.constant(np.arange(9.0).reshape(3, 3))
    with tf.GradientTape() as tape:
        tape.watch(x)
        t = tf.linalg.trace(x)
    np.testing.assert_array_equal(tape.gradient(t, x).numpy(), np.eye(3))
    with pytest.raises(NotImplementedError, match="k=0"):
        tf.linalg.diag([1.0], k=1)


# -- complex adjoints: conjugate transposes, with TensorFlow's gradient convention -----------------
ZA = np.array([[1 + 2j, 3 - 1j, 0.5j], [0.5 - 0.5j, 2 + 0j, 1 + 1j], [-1j, 0.25 + 0.5j, 3 - 0.5j]])
ZB = np.array([[1j, 2.0], [3.0, 4 - 1j], [0.5 + 0.5j, -1.0]])


def _real_loss(y):
    w = np.arange(np.prod(y.shape), dtype=np.float64).reshape(y.shape) * (0.5 - 0.25j) + 1j
    return tf.math.real(tf.reduce_sum(y * w)) + tf.reduce_sum(tf.abs(y) ** 2)


def _complex_fd_grad(fn, args, i, eps=1e-6):
    """TensorFlow's gradient of a real loss in a complex input z = x + iy: dL/dx + i dL/dy."""
    g = np.zeros(args[i].shape, complex)
    for idx in np.ndindex(args[i].shape):
        for unit in (1.0, 1j):
            hi, lo = [a.copy() for a in args], [a.copy() for a in args]
            hi[i][idx] += eps * unit
            lo[i][idx] -= eps * unit
            d = (float(_real_loss(fn(*hi))) - float(_real_loss(fn(*lo)))) / (2 * eps)
            g[idx] += d * unit
    return g


@pytest.mark.parametrize("fn, want", [
    (lambda a, b: tf.matmul(a, b, adjoint_a=True), lambda a, b: a.conj().T @ b),
    (lambda a, b: tf.matmul(b, a, adjoint_a=True, adjoint_b=True),
     lambda a, b: b.conj().T @ a.conj().T),
    (lambda a, b: tf.linalg.solve(a, b, adjoint=True),
     lambda a, b: np.linalg.solve(a.conj().T, b)),
    (lambda a, b: tf.linalg.triangular_solve(a, b, adjoint=True),
     lambda a, b: np.linalg.solve(np.tril(a).conj().T, b)),
    (lambda a, b: tf.linalg.triangular_solve(a, b, lower=False, adjoint=True),
     lambda a, b: np.linalg.solve(np.triu(a).conj().T, b)),
    (lambda a, b: tf.matmul(tf.linalg.inv(a, adjoint=True), b),
     lambda a, b: np.linalg.inv(a.conj().T) @ b),
])
def test_complex_adjoints_conjugate_and_differentiate(fn, want):
    np.testing.assert_allclose(fn(tf.constant(ZA), tf.constant(ZB)).numpy(), want(ZA, ZB))
    a, b = tf.constant(ZA), tf.constant(ZB)
    with tf.GradientTape() as tape:
        tape.watch([a, b])
        loss = _real_loss(fn(a, b))
    grads = tape.gradient(loss, [a, b])
    for i in range(2):
        np.testing.assert_allclose(grads[i].numpy(), _complex_fd_grad(fn, [ZA, ZB], i), atol=1e-5)


def test_complex_transposes_conjugate_only_when_asked():
    z = tf.constant(ZB)
    np.testing.assert_array_equal(tf.linalg.adjoint(z).numpy(), ZB.conj().T)
    np.testing.assert_array_equal(tf.transpose(z, conjugate=True).numpy(), ZB.conj().T)
    np.testing.assert_array_equal(tf.linalg.matrix_transpose(z, conjugate=True).numpy(),
                                  ZB.conj().T)
    np.testing.assert_array_equal(tf.linalg.matrix_transpose(z).numpy(), ZB.T)
    np.testing.assert_array_equal(tf.linalg.matvec(tf.constant(ZA), [1j, 2, 3], adjoint_a=True)
                                  .numpy(), ZA.conj().T @ [1j, 2, 3])
    real = tf.transpose(tf.constant([[1.0, 2.0]]), conjugate=True)
    assert real.dtype == tf.float32 and real.numpy().tolist() == [[1.0], [2.0]]


def test_real_adjoint_paths_check_gradients():
    from tapegrad.test_util import check_gradients
    a, b = A + np.eye(2), np.array([[1.0, 2.0, 0.5], [3.0, -1.0, 2.0]])
    check_gradients(lambda x, y: tf.matmul(x, y, adjoint_a=True), [a, b])
    check_gradients(lambda x, y: tf.linalg.triangular_solve(x, y, adjoint=True), [a, b])
    check_gradients(lambda x: tf.linalg.inv(x, adjoint=True), [a])
