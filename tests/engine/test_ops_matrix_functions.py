"""sqrtm / matrix_square_root and logm (ops/matrix_functions.py)."""
import doctest

import numpy as np
import pytest

import tapegrad as tf
from tapegrad.ops import matrix_functions
from tapegrad.test_util import check_gradients

rng = np.random.default_rng(8)


def test_sqrtm_squares_back_including_defective_and_rotations():
    a = rng.standard_normal((4, 4))
    spd = a @ a.T + np.eye(4)
    for m in (spd, np.array([[1.0, 1.0], [0.0, 1.0]]), np.array([[0.0, 1.0], [-1.0, 0.0]]),
              rng.standard_normal((3, 3)) + 4 * np.eye(3)):
        r = tf.linalg.sqrtm(m).numpy()
        np.testing.assert_allclose(r @ r, m, atol=1e-10)
    assert tf.matrix_square_root is not None
    np.testing.assert_allclose(tf.matrix_square_root(spd).numpy(), tf.linalg.sqrtm(spd).numpy())


def test_sqrtm_of_a_real_matrix_with_a_negative_eigenvalue_is_nan():
    assert np.all(np.isnan(tf.linalg.sqrtm([[-1.0, 0.0], [0.0, 4.0]]).numpy()))
    z = tf.linalg.sqrtm(tf.constant([[-1.0, 0.0], [0.0, 4.0]], tf.complex128)).numpy()
    np.testing.assert_allclose(z, [[1j, 0], [0, 2]], atol=1e-12)


def test_sqrtm_gradients_match_finite_differences():
    a = rng.standard_normal((3, 3))
    check_gradients(tf.linalg.sqrtm, [a @ a.T + np.eye(3)])
    # eigenvalues near 3: a real square root exists (with a negative real eigenvalue sqrtm is
    # NaN, and its gradient's solve refuses the NaN system as TensorFlow's does)
    batch = 0.3 * rng.standard_normal((2, 3, 3)) + 3 * np.eye(3)
    assert np.isfinite(tf.linalg.sqrtm(batch).numpy()).all()
    check_gradients(tf.linalg.sqrtm, [batch], order=1)


def test_logm_inverts_the_exponential_and_has_no_gradient():
    a = 0.3 * (rng.standard_normal((3, 3)) + 1j * rng.standard_normal((3, 3)))
    e, v = np.linalg.eig(a)
    expa = (v * np.exp(e)) @ np.linalg.inv(v)
    np.testing.assert_allclose(tf.linalg.logm(expa).numpy(), a, atol=1e-10)
    np.testing.assert_allclose(tf.linalg.logm(tf.constant([[1.0, 1.0], [0.0, 1.0]],
                                                          tf.complex128)).numpy(),
                               [[0, 1], [0, 0]], atol=1e-12)
    with pytest.raises(tf.errors.InvalidArgumentError, match="complex64, complex128"):
        tf.linalg.logm([[1.0, 0.0], [0.0, 1.0]])
    z = tf.constant(expa)
    with tf.GradientTape() as tape:
        tape.watch(z)
        y = tf.math.real(tf.reduce_sum(tf.linalg.logm(z)))
    with pytest.raises(LookupError):
        tape.gradient(y, z)


def test_docstring_examples():
    assert doctest.testmod(matrix_functions).failed == 0
