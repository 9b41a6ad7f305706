"""tf.function over RaggedTensor and SparseTensor arguments: a trace serves later calls with other
row partitions (or other entries) of the same spec, replayed as a graph where nothing read a
value in Python, and gives what the same body gives eagerly, gradients included; concrete
functions made from composite specs check what they are called with.
(TensorFlow's printed forms and tracing counts: tests/conformance/cases/function_composite.py.)"""
import numpy as np
import pytest

import tapegrad as tf

RAGGED_SPEC = tf.RaggedTensorSpec(shape=[None, None], dtype=tf.float32, ragged_rank=1)


def _graphs(fn):
    return [g for by_shape in fn._graphs.values() for g in by_shape.values()]


def _ragged(rng, lengths):
    values = rng.standard_normal(sum(lengths)).astype(np.float32)
    return tf.RaggedTensor.from_row_lengths(values, lengths)


def test_ragged_trace_replays_for_other_row_partitions():
    runs = []

    def body(x):
        runs.append(1)
        return x * 3.0 + 1.0
    traced = tf.function(body)
    rng = np.random.default_rng(0)
    for lengths in ([2, 1], [0, 3], [1, 1]):       # same number of rows: one trace
        x = _ragged(rng, lengths)
        got = traced(x)
        expected = x.values.numpy() * 3.0 + 1.0
        np.testing.assert_allclose(got.values.numpy(), expected, rtol=1e-6)
        np.testing.assert_array_equal(got.row_splits.numpy(), x.row_splits.numpy())
    assert traced.experimental_get_tracing_count() == 1
    assert [g.replayable for g in _graphs(traced)] == [True] * len(_graphs(traced))
    # the body ran once, while tracing, as TensorFlow's: the graph read no shape of the ragged
    # values (their number is open), so it serves every row partition
    assert len(runs) == 1


def test_gradient_through_traced_ragged_call_matches_eager():
    w = tf.Variable([0.5])

    def loss(x):
        return tf.reduce_sum(tf.square(x.values * w))
    traced = tf.function(loss)
    rng = np.random.default_rng(1)
    for lengths in ([3, 1], [2, 2]):
        x = _ragged(rng, lengths)
        with tf.GradientTape() as tape:
            y = traced(x)
        g = tape.gradient(y, w)
        with tf.GradientTape() as tape:
            y_eager = loss(x)
        g_eager = tape.gradient(y_eager, w)
        np.testing.assert_allclose(y.numpy(), y_eager.numpy(), rtol=1e-6)
        np.testing.assert_allclose(g.numpy(), g_eager.numpy(), rtol=1e-6)
        # d/dw sum((v w)^2) = 2 w sum(v^2)
        v = x.values.numpy()
        np.testing.assert_allclose(g.numpy(), [2 * 0.5 * float(np.sum(v * v))], rtol=1e-5)


def test_sparse_signature_serves_every_dense_shape_it_allows():
    @tf.function(input_signature=[tf.SparseTensorSpec(shape=[None, 3], dtype=tf.float32)])
    def densify(s):
        return tf.sparse.to_dense(s) * 2.0
    cases = [([[0, 1]], [1.0], [2, 3]), ([[3, 2], [1, 0]], [4.0, 5.0], [4, 3]), ([], [], [1, 3])]
    for indices, values, shape in cases:
        st = tf.sparse.SparseTensor(indices=np.asarray(indices, np.int64).reshape(-1, 2),
                                    values=np.asarray(values, np.float32), dense_shape=shape)
        expected = np.zeros(shape, np.float32)
        for (i, j), v in zip(indices, values):
            expected[i, j] = 2 * v
        np.testing.assert_array_equal(densify(st).numpy(), expected)
    assert densify.experimental_get_tracing_count() == 1


def test_sparse_argument_key_is_its_dense_shape_and_dtype():
    traced = tf.function(lambda s: tf.reduce_sum(s.values))
    make = tf.sparse.SparseTensor
    traced(make([[0, 0]], [1.0], [2, 2]))
    traced(make([[1, 1], [0, 1]], [1.0, 2.0], [2, 2]))      # other entries: same trace
    assert traced.experimental_get_tracing_count() == 1
    traced(make([[0, 0]], [1.0], [3, 2]))                     # another dense shape
    traced(make([[0, 0]], np.asarray([1.0]), [2, 2]))         # float64 values
    assert traced.experimental_get_tracing_count() == 3


def test_concrete_function_of_ragged_spec_checks_its_argument():
    cf = tf.function(lambda x: tf.reduce_sum(x.values)).get_concrete_function(RAGGED_SPEC)
    assert float(cf(tf.ragged.constant([[1.0, 2.0], [], [4.0]]))) == 7.0
    with pytest.raises(TypeError, match="same nested structure"):
        cf(tf.constant([1.0, 2.0]))
    with pytest.raises(TypeError, match="Can not cast"):
        cf(tf.ragged.constant([[1, 2]]))
    assert [str(t.shape) for t in cf.inputs] == ["(None,)", "(None,)"]


def test_concrete_function_of_sparse_spec_returns_sparse():
    cf = tf.function(lambda s: tf.sparse.SparseTensor(s.indices, s.values + 1.0, s.dense_shape)) \
        .get_concrete_function(tf.SparseTensorSpec(shape=[None, 2], dtype=tf.float32))
    out = cf(tf.sparse.SparseTensor([[0, 1], [2, 0]], [1.0, 2.0], [3, 2]))
    assert isinstance(out, tf.sparse.SparseTensor)
    np.testing.assert_array_equal(out.values.numpy(), [2.0, 3.0])
    np.testing.assert_array_equal(out.dense_shape.numpy(), [3, 2])
    with pytest.raises(TypeError, match="no attribute 'indices'"):
        cf(tf.zeros([3, 2]))


def test_sparse_spec_result_shapes_unknown_unless_the_body_fixes_them():
    """What comes from a SparseTensor's dense shape has no static shape (TensorFlow's graph does
    not know the shape tensor's values); a body that needs the spec's known dimensions (adding a
    dense [2, 3] tensor) still traces, and its result's shape comes from that tensor."""
    spec = tf.SparseTensorSpec(shape=[None, 3], dtype=tf.float32)
    loose = tf.function(tf.sparse.to_dense).get_concrete_function(spec)
    assert str(loose.structured_outputs.shape) == "(None, None)"
    fixed = tf.function(lambda s: tf.sparse.to_dense(s) + tf.ones([2, 3])) \
        .get_concrete_function(tf.SparseTensorSpec(shape=[2, 3], dtype=tf.float32))
    assert str(fixed.structured_outputs.shape) == "(2, 3)"
    out = fixed(tf.sparse.SparseTensor([[1, 2]], [5.0], [2, 3]))
    np.testing.assert_array_equal(out.numpy(), [[1, 1, 1], [1, 1, 6]])
