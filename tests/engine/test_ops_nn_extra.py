"""tf.nn additions (ops/nn_composite_ops.py): values, TF's kinks, and numerical gradients."""
import numpy as np
import pytest

import tapegrad as tf
from tapegrad.test_util import check_gradients

rng = np.random.default_rng(3)


def test_selu_takes_the_positive_branch_at_zero():
    x = tf.constant([0.0, -1.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.nn.selu(x)
    g = tape.gradient(y, x).numpy()
    assert g[0] == pytest.approx(1.0507009873554805)
    assert g[1] == pytest.approx(1.0507009873554805 * 1.6732632423543772 * np.exp(-1.0), rel=1e-6)


def test_relu6_on_integers_clips_and_keeps_dtype():
    y = tf.nn.relu6(tf.constant([-3, 4, 9]))
    assert y.dtype == tf.int32 and y.numpy().tolist() == [0, 4, 6]


@pytest.mark.parametrize("fn", [
    lambda x: tf.nn.crelu(x),
    lambda x: tf.nn.l2_normalize(x, axis=1),
    lambda x: tf.keras.activations.hard_sigmoid(x),
    lambda x: tf.nn.weighted_cross_entropy_with_logits(tf.constant([[0.0, 1.0, 0.3]] * 2,
                                                                   tf.float64), x, 2.5),
    lambda x: tf.nn.log_poisson_loss(tf.constant([[0.0, 2.0, 3.0]] * 2, tf.float64), x, True),
    lambda x: tf.nn.batch_normalization(x, 0.5, 2.0, 0.1, 3.0, 1e-3),
])
def test_composites_match_finite_differences(fn):
    x = rng.uniform(0.3, 1.5, (2, 3)) * rng.choice([-1.0, 1.0], (2, 3))
    check_gradients(fn, [x], order=2)


def test_weighted_cross_entropy_is_sigmoid_cross_entropy_at_weight_one():
    labels, logits = [0.0, 1.0, 0.25], [-3.0, 2.0, 0.5]
    a = tf.nn.weighted_cross_entropy_with_logits(labels, logits, pos_weight=1.0)
    b = tf.nn.sigmoid_cross_entropy_with_logits(labels=labels, logits=logits)
    np.testing.assert_allclose(a.numpy(), b.numpy(), rtol=1e-6)


def test_weighted_cross_entropy_shape_mismatch():
    with pytest.raises(ValueError, match="same shape"):
        tf.nn.weighted_cross_entropy_with_logits([1.0], [1.0, 2.0], 2.0)


def test_embedding_lookup_gives_indexed_slices_and_max_norm():
    params = tf.Variable([[3.0, 4.0], [0.3, 0.4]])
    with tf.GradientTape() as tape:
        e = tf.nn.embedding_lookup(params, [0, 0, 1])
    assert type(tape.gradient(e, params)).__name__ == "IndexedSlices"
    clipped = tf.nn.embedding_lookup(params, [0, 1], max_norm=1.0).numpy()
    np.testing.assert_allclose(clipped, [[0.6, 0.8], [0.3, 0.4]], rtol=1e-6)


def test_activations_reject_integers():
    with pytest.raises(TypeError, match="floating-point"):
        tf.nn.crelu(tf.constant([1, 2]))


def test_moment_helpers_agree_with_moments():
    x = tf.constant(rng.standard_normal((4, 3)))
    mean, var = tf.nn.moments(x, axes=[0])
    counts, s, ss, _ = tf.nn.sufficient_statistics(x, axes=[0])
    m2, v2 = tf.nn.normalize_moments(counts, s, ss, None)
    np.testing.assert_allclose(m2.numpy(), mean.numpy()), np.testing.assert_allclose(
        v2.numpy(), var.numpy())
    m3, v3 = tf.nn.weighted_moments(x, [0], tf.ones_like(x))
    np.testing.assert_allclose(v3.numpy(), var.numpy())
    assert float(tf.nn.compute_average_loss([2.0, 4.0], global_batch_size=4)) == 1.5
