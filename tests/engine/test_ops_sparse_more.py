"""tf.sparse beyond the basics (ops/sparse_array_ops.py)."""
import numpy as np
import pytest

import tapegrad as tf
from tapegrad.test_util import check_gradients

_IDX = [[0, 0], [0, 2], [1, 1], [2, 0], [2, 1], [2, 3]]


def _st(values=(1.0, -2.0, 3.0)):
    return tf.sparse.SparseTensor([[0, 0], [1, 2], [2, 1]], list(values), [3, 4])


def test_concat_reshape_split_round_trip():
    st = _st()
    dense = tf.sparse.to_dense(st).numpy()
    joined = tf.sparse.concat(1, [st, st])
    np.testing.assert_array_equal(tf.sparse.to_dense(joined).numpy(), np.concatenate([dense] * 2, 1))
    np.testing.assert_array_equal(tf.sparse.to_dense(tf.sparse.reshape(st, [6, -1])).numpy(),
                                  dense.reshape(6, 2))
    pieces = tf.sparse.split(sp_input=st, num_split=3, axis=1)
    assert [p.dense_shape.numpy().tolist() for p in pieces] == [[3, 2], [3, 1], [3, 1]]
    np.testing.assert_array_equal(
        np.concatenate([tf.sparse.to_dense(p).numpy() for p in pieces], 1), dense)
    with pytest.raises(tf.errors.InvalidArgumentError, match="12 dense values"):
        tf.sparse.reshape(st, [5, 2])


def test_reductions_and_elementwise():
    st = _st()
    assert tf.sparse.reduce_max(st, axis=0).numpy().tolist() == [1.0, 3.0, -2.0, 0.0]
    out = tf.sparse.reduce_max(st, axis=1, output_is_sparse=True)
    assert out.indices.numpy().tolist() == [[0], [1], [2]]
    m = tf.sparse.maximum(st, tf.sparse.SparseTensor([[0, 3]], [-1.0], [3, 4]))
    assert m.values.numpy().tolist() == [1.0, 0.0, 0.0, 3.0]   # absent entries count as 0
    summed = tf.sparse.reduce_sum(st, axis=1, keepdims=True, output_is_sparse=True)
    assert summed.dense_shape.numpy().tolist() == [3, 1]


def test_retain_reset_fill_and_indicator():
    st = _st()
    assert tf.sparse.retain(st, [True, False, True]).values.numpy().tolist() == [1.0, 3.0]
    assert tf.sparse.reset_shape(st).dense_shape.numpy().tolist() == [3, 3]
    with pytest.raises(ValueError, match="new_shape"):
        tf.sparse.reset_shape(st, [2, 2])
    filled, empty = tf.sparse.fill_empty_rows(tf.sparse.SparseTensor([[1, 0]], [4], [3, 2]), 9)
    assert tf.sparse.to_dense(filled).numpy().tolist() == [[9, 0], [4, 0], [9, 0]]
    assert empty.numpy().tolist() == [True, False, True]
    ind = tf.sparse.to_indicator(tf.sparse.SparseTensor([[0, 0], [1, 0]], [2, 0], [2, 1]), 3)
    assert ind.numpy().tolist() == [[False, False, True], [True, False, False]]


def test_softmax_rows_sum_to_one_and_gradients_match_finite_differences():
    st = tf.sparse.SparseTensor(_IDX, [1.0, 2.0, 5.0, 0.0, 1.0, 3.0], [3, 4])
    out = tf.sparse.softmax(st).values.numpy()
    assert np.allclose([out[:2].sum(), out[2], out[3:].sum()], 1.0)

    def f(v):
        return tf.sparse.softmax(tf.sparse.SparseTensor(_IDX, v, [3, 4])).values

    check_gradients(f, [np.array([1.0, 2.0, 5.0, 0.0, 1.0, 3.0])], order=1, modes=("rev",))


def test_segment_ops_values_and_gradients():
    data = np.arange(6.0).reshape(3, 2)
    s = tf.sparse.segment_sum(data, [0, 1, 2, 2], [0, 0, 1, 1]).numpy()
    np.testing.assert_allclose(s, [[2.0, 4.0], [8.0, 10.0]])
    mean = tf.sparse.segment_mean(data, [0, 2], [1, 1], num_segments=3).numpy()
    np.testing.assert_allclose(mean, [[0.0, 0.0], [2.0, 3.0], [0.0, 0.0]])
    for fn in (tf.sparse.segment_sum, tf.sparse.segment_mean, tf.sparse.segment_sqrt_n):
        check_gradients(lambda d, fn=fn: fn(d, [0, 1, 2, 2], [0, 0, 1, 1]), [data], order=2)
    with pytest.raises(tf.errors.InvalidArgumentError, match="not increasing"):
        tf.sparse.segment_sum(data, [0, 1], [1, 0])


def test_concat_passes_no_gradient_as_in_tensorflow():
    v = tf.constant([1.0, 2.0, 3.0])
    with tf.GradientTape() as tape:
        tape.watch(v)
        y = tf.reduce_sum(tf.sparse.concat(0, [_st(v), _st(v)]).values)
    assert tape.gradient(y, v) is None


def test_eye_bincount_cross_and_sampled_addmm():
    assert tf.sparse.to_dense(tf.sparse.eye(2, 3)).numpy().tolist() == [[1, 0, 0], [0, 1, 0]]
    counts = tf.sparse.bincount(tf.constant([[1, 2, 2], [0, 5, 5]]), axis=-1)
    assert counts.indices.numpy().tolist() == [[0, 1], [0, 2], [1, 0], [1, 5]]
    assert counts.values.numpy().tolist() == [1, 2, 1, 2]
    crossed = tf.sparse.cross([tf.constant([["a"]]), tf.constant([["x", "y"]])])
    assert crossed.values.numpy().tolist() == [b"a_X_x", b"a_X_y"]
    hashed = tf.sparse.cross_hashed([tf.constant([["a"], ["b"]]),
                                     tf.constant([["x", "y"], ["z", "w"]])], 100)
    assert hashed.values.numpy().tolist() == [92, 47, 60, 90]   # TensorFlow's buckets
    _, v, _ = tf.sparse.sampled_addmm([[0, 1]], [1.0], [2, 2], tf.ones([2, 3]), tf.ones([3, 2]),
                                      beta=2.0, alpha=0.5)
    assert v.numpy().tolist() == [3.5]
