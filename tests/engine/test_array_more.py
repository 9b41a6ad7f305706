"""ops/rearrange_ops.py (and shape_ops.py's shape helpers): values against NumPy, gradients
against finite differences, errors."""
import numpy as np
import pytest

import tapegrad as tf
from tapegrad.test_util import check_gradients

RNG = np.random.default_rng(3)
A = RNG.standard_normal((3, 4))


def test_roll_matches_numpy_on_several_axes():
    x = np.arange(24).reshape(2, 3, 4)
    got = tf.roll(x, shift=[1, -2, 5], axis=[0, 2, 1]).numpy()
    np.testing.assert_array_equal(got, np.roll(x, (1, -2, 5), (0, 2, 1)))


@pytest.mark.parametrize("fn", [
    lambda x: tf.roll(x, [1, 3], [0, 1]),
    lambda x: tf.repeat(x, [2, 0, 1], axis=0),
    lambda x: tf.repeat(x, 2),
    lambda x: tf.repeat(x, [1, 2, 0, 1], axis=1),
    lambda x: tf.reverse_sequence(x, [2, 4, 0], seq_axis=1, batch_axis=0),
    lambda x: tf.strided_slice(x, [2, 0], [0, 4], [-1, 3], begin_mask=1),
    lambda x: tf.meshgrid(x[0], x[1])[0] * tf.meshgrid(x[0], x[1])[1],
    lambda x: tf.dynamic_partition(x, [1, 0, 1], 2)[1],
    lambda x: tf.ensure_shape(x, [3, None]),
])
def test_composite_gradients_match_finite_differences(fn):
    check_gradients(fn, [A])


def test_dynamic_stitch_gradients_and_overwritten_entries():
    def stitch(a, b):
        return tf.dynamic_stitch([[0, 1], [1, 2]], [a, b])

    # the true derivative where no entry is overwritten
    check_gradients(lambda a, b: tf.dynamic_stitch([[2, 0], [1]], [a, b]),
                    [np.array([1.0, 2.0]), np.array([3.0])])
    a, b = tf.constant([1.0, 2.0]), tf.constant([3.0, 4.0])
    with tf.GradientTape() as tape:
        tape.watch([a, b])
        y = stitch(a, b)
    assert y.numpy().tolist() == [1.0, 3.0, 4.0]
    # TensorFlow's rule: the overwritten a[1] still gets the gradient at index 1
    assert tape.gradient(y, a).numpy().tolist() == [1.0, 1.0]


@pytest.mark.parametrize("fn", [tf.tensor_scatter_nd_max, tf.tensor_scatter_nd_min,
                                tf.tensor_scatter_nd_sub])
def test_scatter_into_copy_gradients(fn):
    idx = [[0], [2], [3]]
    check_gradients(lambda t, u: fn(t, idx, u), [np.array([1.0, 2.0, 3.0, 4.0]),
                                                 np.array([5.0, 0.5, 3.5])])


def test_scatter_max_splits_ties_as_tensorflow():
    t, u = tf.constant([1.0, 3.0]), tf.constant([3.0])
    with tf.GradientTape() as tape:
        tape.watch([t, u])
        y = tf.tensor_scatter_nd_max(t, [[1]], u)
    gt, gu = tape.gradient(y, [t, u])
    assert gt.numpy().tolist() == [1.0, 0.5] and gu.numpy().tolist() == [0.5]


def test_strided_slice_masks_match_python_indexing():
    x = np.arange(24).reshape(2, 3, 4)
    got = tf.strided_slice(x, [1, 0, 1], [0, 0, 3], [1, 1, 1], ellipsis_mask=2,
                           shrink_axis_mask=1).numpy()
    np.testing.assert_array_equal(got, x[1, ..., 1:3])
    got = tf.strided_slice(x, [0, 0], [0, 2], [1, 1], new_axis_mask=1).numpy()
    np.testing.assert_array_equal(got, x[None, 0:2])


def test_searchsorted_batched_and_sides():
    seq = np.sort(RNG.standard_normal((2, 5)), axis=-1)
    vals = RNG.standard_normal((2, 3))
    for side in ("left", "right"):
        want = np.stack([np.searchsorted(s, v, side=side) for s, v in zip(seq, vals)])
        assert tf.searchsorted(seq, vals, side=side).numpy().tolist() == want.tolist()
    with pytest.raises(ValueError, match="side"):
        tf.searchsorted(seq, vals, side="up")


def test_sequence_mask_and_unique_with_counts():
    assert tf.sequence_mask([0, 2], 3).numpy().tolist() == [[False] * 3, [True, True, False]]
    y, idx, count = tf.unique_with_counts([5, 5, 1, 5])
    assert (y.numpy().tolist(), idx.numpy().tolist(), count.numpy().tolist()) == \
        ([5, 1], [0, 0, 1, 0], [3, 1])


def test_errors_name_the_problem():
    with pytest.raises(tf.errors.InvalidArgumentError, match="same size"):
        tf.roll([1, 2], [1, 1], [0])
    with pytest.raises(tf.errors.InvalidArgumentError, match="not compatible"):
        tf.ensure_shape(tf.zeros([2]), [3])
    with pytest.raises(tf.errors.InvalidArgumentError, match="Missing indices"):
        tf.dynamic_stitch([[0, 2]], [[1.0, 2.0]])
    with pytest.raises(tf.errors.InvalidArgumentError, match="must be non-zero"):
        tf.strided_slice([1, 2], [0], [1], [0])
    with pytest.raises(LookupError):
        x = tf.constant(1.0)
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.guarantee_const(x)
        tape.gradient(y, x)


def test_histogram_counts_every_value_once():
    v = RNG.uniform(-1, 6, size=50)
    h = tf.histogram_fixed_width(v, [0.0, 5.0], nbins=5).numpy()
    assert h.sum() == 50
    bins = tf.histogram_fixed_width_bins(v, [0.0, 5.0], nbins=5).numpy()
    assert np.bincount(bins, minlength=5).tolist() == h.tolist()


def test_broadcast_shapes():
    assert tf.broadcast_dynamic_shape([3, 1], [4]).numpy().tolist() == [3, 4]
    assert tf.broadcast_static_shape(tf.TensorShape([None, 1]), tf.TensorShape([5])).as_list() \
        == [None, 5]
    assert tf.unravel_index([5], [2, 3]).numpy().tolist() == [[1], [2]]
