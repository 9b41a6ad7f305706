"""SparseTensor elements in tf.data: slicing, batching, unbatching, the specs and numpy output."""
import numpy as np
import pytest

import tapegrad as tf


def _sp():
    return tf.sparse.SparseTensor([[2, 1], [0, 0], [2, 0]], [3.0, 1.0, 2.0], [3, 2])


def _dense(sp):
    return tf.sparse.to_dense(tf.sparse.reorder(sp)).numpy().tolist()


def test_slices_are_rows_even_for_unordered_indices():
    ds = tf.data.Dataset.from_tensor_slices(_sp())
    assert ds.element_spec == tf.SparseTensorSpec([2], tf.float32)
    assert int(ds.cardinality()) == 3
    assert [_dense(x) for x in ds] == [[1.0, 0.0], [0.0, 0.0], [2.0, 3.0]]
    assert [a.tolist() for a in ds.as_numpy_iterator()] == [[1.0, 0.0], [0.0, 0.0], [2.0, 3.0]]


def test_batch_pads_dense_shape_to_largest_and_unbatch_inverts():
    ds = tf.data.Dataset.range(1, 4).map(lambda n: tf.sparse.SparseTensor([[n - 1]], [n], [n]))
    assert ds.element_spec == tf.SparseTensorSpec([None], tf.int64)
    (batch,) = list(ds.batch(3))
    assert batch.dense_shape.numpy().tolist() == [3, 3]
    assert batch.indices.numpy().tolist() == [[0, 0], [1, 1], [2, 2]]
    back = list(ds.batch(2).unbatch())
    assert [x.dense_shape.numpy().tolist() for x in back] == [[2], [2], [3]]
    assert [x.values.numpy().tolist() for x in back] == [[1], [2], [3]]


def test_mixed_structures_and_the_fast_batch_path_stay_correct():
    labels = np.array([5, 6, 7], np.int32)
    ds = tf.data.Dataset.from_tensor_slices((_sp(), labels)).shuffle(3, seed=2).batch(2)
    assert ds.element_spec[0] == tf.SparseTensorSpec([None, 2], tf.float32)
    rows = {}
    for sp, y in ds:
        for i, label in enumerate(y.numpy().tolist()):
            rows[label] = _dense(sp)[i]
    assert rows == {5: [1.0, 0.0], 6: [0.0, 0.0], 7: [2.0, 3.0]}


def test_errors_as_tensorflow():
    with pytest.raises(TypeError, match="padded_batch"):
        tf.data.Dataset.from_tensors(_sp()).padded_batch(2)
    with pytest.raises(tf.errors.InvalidArgumentError, match="Rank of input SparseTensor"):
        tf.data.Dataset.from_tensor_slices(tf.sparse.SparseTensor([[0]], [1], [2]))
    with pytest.raises(ValueError, match="not compatible"):
        tf.data.Dataset.from_tensor_slices((_sp(), [1, 2]))
    with pytest.raises(ValueError, match="matching leading dimension"):
        tf.data.Dataset.from_tensors((_sp(), tf.constant([1, 2]))).unbatch()
    two_rows = tf.data.Dataset.from_generator(lambda: iter([[1, 2]]),
                                              output_signature=tf.TensorSpec([None], tf.int32))
    rows = tf.data.Dataset.zip(tf.data.Dataset.from_tensors(_sp()), two_rows).unbatch()
    with pytest.raises(tf.errors.InvalidArgumentError, match="same batch size"):
        list(rows)


# -- Keras: Input(sparse=True) --------------------------------------------------------------------
def _model(units=1):
    inp = tf.keras.Input(shape=(2,), sparse=True)
    dense = tf.keras.layers.Dense(units, kernel_initializer="ones", bias_initializer="zeros")
    return tf.keras.Model(inp, dense(inp)), dense


def test_dense_kernel_gradient_is_indexed_slices_of_used_columns():
    model, dense = _model(units=2)
    x = tf.sparse.SparseTensor([[0, 1], [2, 1]], [2.0, 3.0], [3, 2])
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(model(x))
    grad = tape.gradient(loss, dense.kernel)
    assert isinstance(grad, tf.IndexedSlices)
    assert tf.convert_to_tensor(grad).numpy().tolist() == [[0.0, 0.0], [5.0, 5.0]]
    assert model(x).numpy().tolist() == [[2.0, 2.0], [0.0, 0.0], [3.0, 3.0]]


def test_int_sparse_values_are_cast_and_rank3_is_made_dense():
    layer = tf.keras.layers.Dense(1, kernel_initializer="ones")
    x = tf.sparse.SparseTensor([[0, 1]], tf.constant([4], tf.int32), [1, 2])
    assert layer(x).numpy().tolist() == [[4.0]]
    x3 = tf.sparse.SparseTensor([[0, 1, 0]], [2.0], [1, 2, 2])
    assert layer(x3).numpy().tolist() == [[[0.0], [2.0]]]


def test_fit_shuffles_and_splits_sparse_rows():
    model, dense = _model()
    model.compile(optimizer=tf.keras.optimizers.SGD(0.01), loss="mse")
    x = tf.sparse.SparseTensor([[i, i % 2] for i in range(10)], [float(i) for i in range(10)],
                               [10, 2])
    y = np.arange(10, dtype=np.float32).reshape(10, 1)
    history = model.fit(x, y, batch_size=3, epochs=2, shuffle=True, validation_split=0.2,
                        verbose=0).history
    assert sorted(history) == ["loss", "val_loss"] and len(history["loss"]) == 2
    predicted = model.predict(x, batch_size=4, verbose=0)
    assert predicted.shape == (10, 1)
    expected = tf.sparse.to_dense(x).numpy() @ dense.kernel.numpy() + dense.bias.numpy()
    np.testing.assert_allclose(predicted, expected, rtol=1e-6)
    with pytest.raises(ValueError, match="cardinality"):
        model.fit(x, y[:4], verbose=0)


def test_input_flags():
    assert tf.keras.Input((3,), sparse=True).sparse is True
    assert "sparse=True" in repr(tf.keras.Input((3,), sparse=True))
    with pytest.raises(ValueError, match="at the same time"):
        tf.keras.Input((3,), sparse=True, ragged=True)
    config = tf.keras.layers.InputLayer(shape=(3,), sparse=True).get_config()
    assert tf.keras.layers.InputLayer.from_config(config).sparse is True
