"""tf.ragged beyond the basics (ops/ragged_array_ops.py) and the RaggedTensor methods added to
ops/ragged_ops.py."""
import numpy as np
import pytest

import tapegrad as tf
from tapegrad.test_util import check_gradients


def _rt():
    return tf.ragged.constant([[1, 2, 3], [], [4, 5]])


def test_masks_stacks_and_partitions():
    rt = _rt()
    mask = tf.ragged.constant([[True, False, True], [], [False, True]])
    assert tf.ragged.boolean_mask(rt, mask).to_list() == [[1, 3], [], [5]]
    assert tf.ragged.boolean_mask(rt, [True, False, True]).to_list() == [[1, 2, 3], [4, 5]]
    assert tf.ragged.stack([rt, tf.ragged.constant([[9]])]).to_list() == \
        [[[1, 2, 3], [], [4, 5]], [[9]]]
    assert tf.ragged.stack([rt, rt], axis=1).to_list()[2] == [[4, 5], [4, 5]]
    assert tf.ragged.stack_dynamic_partitions([1, 2, 3], [1, 0, 1], 3).to_list() == \
        [[2], [1, 3], []]
    with pytest.raises(tf.errors.InvalidArgumentError):
        tf.ragged.stack_dynamic_partitions([1], [5], 2)


def test_row_partition_round_trip():
    ids = tf.ragged.row_splits_to_segment_ids([0, 2, 2, 5])
    assert ids.numpy().tolist() == [0, 0, 2, 2, 2] and ids.dtype == tf.int64
    assert tf.ragged.segment_ids_to_row_splits(ids).numpy().tolist() == [0, 2, 2, 5]


def test_concat_slices_and_shapes():
    rt = _rt()
    assert tf.concat([rt, rt], axis=1).to_list() == [[1, 2, 3, 1, 2, 3], [], [4, 5, 4, 5]]
    assert tf.concat([rt, rt], axis=0).nrows().numpy() == 6
    assert tf.concat([tf.constant([1]), tf.constant([2])], 0).numpy().tolist() == [1, 2]
    assert rt[1:].to_list() == [[], [4, 5]] and rt[:, 1:].to_list() == [[2, 3], [], [5]]
    assert rt.to_tensor(default_value=-1, shape=[2, 4]).numpy().tolist() == \
        [[1, 2, 3, -1], [-1, -1, -1, -1]]
    r3 = tf.ragged.constant([[[1, 2], [3]], [[4]]])
    assert r3.merge_dims(1, 2).to_list() == [[1, 2, 3], [4]]
    assert r3.merge_dims(0, 1).to_list() == [[1, 2], [3], [4]]
    assert rt.with_values(rt.values * 10).to_list() == [[10, 20, 30], [], [40, 50]]


def test_crosses_and_specs():
    c = tf.ragged.cross([tf.ragged.constant([["a", "b"], ["c"]]), tf.constant([["x"], ["y"]])])
    assert c.to_list() == [[b"a_X_x", b"b_X_x"], [b"c_X_y"]]
    assert repr(tf.RaggedTensorSpec([None, None], tf.int32)) == \
        "RaggedTensorSpec(TensorShape([None, None]), tf.int32, 1, tf.int64)"
    assert tf.RaggedTensorSpec([None, None], tf.int32).is_compatible_with(_rt())
    assert repr(tf.SparseTensorSpec([3, 4], tf.float32)) == \
        "SparseTensorSpec(TensorShape([3, 4]), tf.float32)"


def test_gradients_through_ragged_ops_match_finite_differences():
    def f(v):
        rt = tf.RaggedTensor.from_row_lengths(v, [3, 0, 2])
        joined = tf.concat([rt, rt[:, :1]], axis=1)
        return tf.ragged.boolean_mask(joined, tf.ragged.constant(
            [[True, True, False, True], [], [True, False, True]])).flat_values ** 2

    check_gradients(f, [np.array([1.0, 2.0, 3.0, 4.0, 5.0])], order=1, modes=("rev",))


def test_ragged_fill_empty_rows():
    out = tf.ragged_fill_empty_rows([0, 0, 2], [1, 2, 3], 4, -1)
    assert out.output_value_rowids.numpy().tolist() == [0, 0, 1, 2, 3]
    assert out.output_values.numpy().tolist() == [1, 2, -1, 3, -1]
    assert out.empty_row_indicator.numpy().tolist() == [False, True, False, True]
    assert out.reverse_index_map.numpy().tolist() == [0, 1, 3]


def test_elementwise_ops_dispatch_on_ragged_values():
    rt = _rt()
    assert tf.add(rt, 3).to_list() == [[4, 5, 6], [], [7, 8]]
    assert tf.math.multiply(rt, rt).to_list() == [[1, 4, 9], [], [16, 25]]
    assert (rt > 2).to_list() == [[False, False, True], [], [True, True]]
    assert tf.add is tf.math.add and tf.add(1, 2).numpy() == 3
    words = tf.ragged.constant([["ab", "cde"], []])
    assert tf.strings.length(words).to_list() == [[2, 3], []]
    with pytest.raises(tf.errors.InvalidArgumentError, match="row partitions"):
        tf.add(rt, tf.ragged.constant([[1], [2], [3, 4, 5, 6]]))
    with pytest.raises(tf.errors.InvalidArgumentError, match="broadcast"):   # TensorFlow's class
        tf.add(rt, [1, 2, 3])
    assert tf.add(rt, [[10], [20], [30]]).to_list() == [[11, 12, 13], [], [34, 35]]
    v = tf.Variable([1.0, 2.0, 3.0])
    with tf.GradientTape() as tape:
        y = tf.reduce_sum(tf.math.square(tf.RaggedTensor.from_row_lengths(v, [2, 1])).flat_values)
    assert tape.gradient(y, v).numpy().tolist() == [2.0, 4.0, 6.0]


def test_sparse_round_trip_and_row_bounds():
    rt = _rt()
    st = rt.to_sparse()
    assert st.indices.numpy().tolist() == [[0, 0], [0, 1], [0, 2], [2, 0], [2, 1]]
    assert tf.RaggedTensor.from_sparse(st).to_list() == rt.to_list()
    assert rt.row_starts().numpy().tolist() == [0, 3, 3]
    assert rt.row_limits().numpy().tolist() == [3, 3, 5]
