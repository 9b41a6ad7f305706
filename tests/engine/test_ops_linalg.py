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
    with pytest.raises(tf.errors.InvalidArgumentError, match="singular"):
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
