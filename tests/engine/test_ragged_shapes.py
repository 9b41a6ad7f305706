"""Ragged shapes (ops/ragged_shape.py): tf.tile and tf.shape on a RaggedTensor, the
DynamicRaggedShape they and tf.ones/zeros/fill/broadcast_to/reshape use, the composite dispatch
they register, and RaggedTensors as tf.function arguments (function/keys.py, signatures.py).
What TensorFlow prints and returns is checked by the ``ragged_shapes`` conformance area; these
tests check what it does not: the registry, gradients by finite differences, and replays."""
import numpy as np
import pytest

import tapegrad as tf
from tapegrad.function.keys import RaggedParts, flat_inputs, map_leaves, trace_key
from tapegrad.ops import composite_dispatch
from tapegrad.ops.ragged_ops import RaggedTensor
from tapegrad.ops.ragged_shape import DynamicRaggedShape
from tapegrad.test_util import check_gradients


def test_forms_are_registered_in_the_one_registry():
    ragged = composite_dispatch.FORMS[RaggedTensor]
    shapes = composite_dispatch.FORMS[DynamicRaggedShape]
    assert tf.tile.__wrapped__ in ragged and tf.shape.__wrapped__ in ragged
    assert {tf.ones.__wrapped__, tf.zeros.__wrapped__, tf.fill.__wrapped__,
            tf.broadcast_to.__wrapped__, tf.reshape.__wrapped__} <= set(shapes)
    assert tf.tile is tf.tile and tf.shape(tf.constant([[1, 2]])).numpy().tolist() == [1, 2]


def test_dense_calls_are_unchanged():
    x = tf.constant([[1.0, 2.0]])
    assert tf.tile(x, [2, 1]).shape == (2, 2)
    assert tf.ones([2]).numpy().tolist() == [1.0, 1.0]
    assert tf.reshape(x, [2]).shape == (2,)
    assert tf.broadcast_to(1, [2, 2]).shape == (2, 2)


def test_tile_gradient_matches_finite_differences():
    def f(v):
        rt = tf.RaggedTensor.from_row_lengths(v, [2, 0, 1])
        tiled = tf.tile(rt, [2, 3])
        return tf.reduce_sum(tiled.flat_values ** 2 * tf.range(18, dtype=tf.float64))
    check_gradients(f, [np.array([0.5, -1.0, 2.0])])


def test_tile_of_two_ragged_axes_keeps_values_order():
    rt = tf.ragged.constant([[[1], [2, 3]], [[4]]])
    out = tf.tile(rt, [1, 2, 1])
    assert out.to_list() == [[[1], [2, 3], [1], [2, 3]], [[4], [4]]]


def test_shape_lengths_round_trip():
    s = DynamicRaggedShape.from_lengths([3, (2, 0, 1), 2])
    assert s.static_lengths() == [3, (2, 0, 1), 2]
    ones = tf.ones(s)
    assert tf.shape(ones).static_lengths() == s.static_lengths()
    assert tf.reshape(tf.range(6), s).to_list() == [[[0, 1], [2, 3]], [], [[4, 5]]]


def test_shape_slices_that_do_not_start_at_zero_are_refused():
    with pytest.raises(ValueError):
        tf.shape(tf.ragged.constant([[1], [2, 3]]))[1:]


def test_ragged_key_ignores_row_lengths_but_not_rows_dtype_or_rank():
    a = trace_key(tf.ragged.constant([[1, 2], [3]]))
    assert a == trace_key(tf.ragged.constant([[1], [2, 3, 4]]))
    assert a != trace_key(tf.ragged.constant([[1], [2], [3]]))
    assert a != trace_key(tf.ragged.constant([[1.0], [2.0]]))
    assert a != trace_key(tf.ragged.constant([[[1]], [[2]]]))
    spec = tf.RaggedTensorSpec([2, None], tf.int32)
    assert trace_key(spec) == a


def test_map_leaves_walks_and_rebuilds_components():
    rt = tf.ragged.constant([[[1], [2, 3]], [[4]]])
    assert len(flat_inputs([rt])) == 3
    parts = map_leaves(lambda t: t.shape, rt)
    assert isinstance(parts, RaggedParts) and len(parts) == 3
    again = map_leaves(lambda t: t, rt)
    assert isinstance(again, RaggedTensor) and again.to_list() == rt.to_list()


def test_replayed_trace_reads_the_new_ragged_values():
    @tf.function(input_signature=[tf.RaggedTensorSpec([None, None], tf.float32)])
    def f(x):
        return x.flat_values * 2.0, x
    outs = [f(tf.ragged.constant(rows)) for rows in ([[1.0], [2.0, 3.0]], [[4.0, 5.0], [6.0]],
                                                    [[7.0], [8.0, 9.0]])]
    assert [o[0].numpy().tolist() for o in outs] == [[2, 4, 6], [8, 10, 12], [14, 16, 18]]
    assert [o[1].to_list() for o in outs] == [[[1.0], [2.0, 3.0]], [[4.0, 5.0], [6.0]],
                                             [[7.0], [8.0, 9.0]]]
    assert f.experimental_get_tracing_count() == 1


def test_signature_accepts_only_tensor_and_ragged_specs():
    with pytest.raises(TypeError, match="possibly nested sequence of TensorSpec"):
        tf.function(lambda x: x, input_signature=[3])
    f = tf.function(lambda x: x.row_lengths(),
                    input_signature=[tf.RaggedTensorSpec([None, None], tf.int32)])
    with pytest.raises(TypeError, match="don't have the same nested structure"):
        f(tf.constant([[1, 2]]))
    with pytest.raises(TypeError, match="Can not cast"):
        f(tf.ragged.constant([[1.0]]))
