"""qr, svd, eigh, norm, matvec, lstsq, pinv, cross, expm (ops/decomposition_ops.py)."""
import numpy as np
import pytest

import tapegrad as tf
from tapegrad.test_util import check_gradients

rng = np.random.default_rng(11)


def test_decompositions_reconstruct_their_input():
    a = rng.standard_normal((2, 4, 3))
    q, r = tf.linalg.qr(a)
    np.testing.assert_allclose(tf.matmul(q, r).numpy(), a, atol=1e-12)
    s, u, v = tf.linalg.svd(a)
    np.testing.assert_allclose(tf.matmul(u * s[:, None, :], v, adjoint_b=True).numpy(), a,
                               atol=1e-12)
    sym = a[0].T @ a[0]
    e, w = tf.linalg.eigh(sym)
    np.testing.assert_allclose((w.numpy() * e.numpy()) @ w.numpy().T, sym, atol=1e-12)


def test_eigh_gradient_is_lower_triangular():
    a = tf.constant([[2.0, 0.5], [0.5, 1.0]], tf.float64)
    with tf.GradientTape() as tape:
        tape.watch(a)
        top = tf.linalg.eigvalsh(a)[1]
    g = tape.gradient(top, a).numpy()
    assert g[0, 1] == 0.0 and g[1, 0] != 0.0


def test_spectral_norm_and_its_gradient():
    m = rng.standard_normal((3, 2))
    assert float(tf.norm(m, ord=2, axis=[0, 1])) == pytest.approx(np.linalg.norm(m, 2))
    check_gradients(lambda x: tf.norm(x, ord=2, axis=[-2, -1]), [m])
    with pytest.raises(ValueError, match="supported matrix norm"):
        tf.norm(m, ord=3, axis=[0, 1])


def test_svd_full_matrices_gradient_needs_sides_within_one():
    a = tf.constant(rng.standard_normal((4, 2)))      # TensorFlow's limit: |m - n| <= 1
    with tf.GradientTape() as tape:
        tape.watch(a)
        _, u, _ = tf.linalg.svd(a, full_matrices=True)
    with pytest.raises(NotImplementedError, match="abs\\(m - n\\) > 1"):
        tape.gradient(u, a)


@pytest.mark.parametrize("fn,shapes", [
    (lambda a, b: tf.linalg.lstsq(a, b), [(4, 2), (4, 1)]),
    (lambda a, b: tf.linalg.lstsq(a, b, l2_regularizer=0.3), [(2, 3), (2, 2)]),
    (lambda a: tf.linalg.pinv(a), [(3, 2)]),
    (lambda a, b: tf.linalg.cross(a, b), [(2, 3), (2, 3)]),
    (lambda a: tf.linalg.expm(a), [(3, 3)]),
    (lambda a, v: tf.linalg.matvec(a, v, transpose_a=True), [(3, 2), (3,)]),
])
def test_composites_match_finite_differences(fn, shapes):
    check_gradients(fn, [rng.standard_normal(s) * 0.7 for s in shapes])


def test_expm_scales_and_squares_large_matrices():
    a = np.array([[0.0, 8.0], [-8.0, 0.0]])
    np.testing.assert_allclose(tf.linalg.expm(a).numpy(),
                               [[np.cos(8), np.sin(8)], [-np.sin(8), np.cos(8)]], atol=1e-10)


def test_errors():
    with pytest.raises(tf.errors.InvalidArgumentError, match="last dimension"):
        tf.linalg.cross([1.0, 2.0], [1.0, 2.0])
    with pytest.raises(tf.errors.InvalidArgumentError, match="square"):
        tf.linalg.eigh(tf.ones((2, 3)))
    with pytest.raises(tf.errors.InvalidArgumentError, match="Incompatible"):
        tf.linalg.lstsq(tf.ones((3, 2)), tf.ones((2, 1)))
