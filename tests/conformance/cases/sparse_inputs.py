"""SparseTensor elements in tf.data (the sparse tensor guide's tf.data section) and sparse inputs
to Keras models (keras.Input(sparse=True))."""


def _sparse(tf):
    return tf.sparse.SparseTensor(indices=[[0, 0], [1, 2], [3, 1]], values=[1.0, 2.0, 3.0],
                                  dense_shape=[4, 3])


def _error(fn):
    try:
        fn()
    except Exception as e:  # noqa: BLE001
        return type(e).__name__
    return "no error"


def case_from_tensors_keeps_one_sparse_element(tf):
    ds = tf.data.Dataset.from_tensors(_sparse(tf))
    return [repr(ds.element_spec), ds.cardinality(), list(ds)]


def case_from_tensor_slices_gives_rows(tf):
    ds = tf.data.Dataset.from_tensor_slices(_sparse(tf))
    return [repr(ds.element_spec), ds.cardinality(), list(ds),
            [type(x).__name__ for x in ds]]


def case_slices_of_sparse_with_dense_components(tf):
    ds = tf.data.Dataset.from_tensor_slices({"features": _sparse(tf),
                                             "label": tf.constant([0, 1, 1, 0])})
    return [repr(ds.element_spec), [x for x in ds.take(2)]]


def case_as_numpy_iterator_gives_dense_arrays(tf):
    return list(tf.data.Dataset.from_tensor_slices(_sparse(tf)).as_numpy_iterator())


def case_map_and_filter_over_sparse_rows(tf):
    ds = tf.data.Dataset.from_tensor_slices(_sparse(tf))
    doubled = ds.map(lambda s: s * 2.0)
    dense = ds.map(tf.sparse.to_dense)
    kept = ds.filter(lambda s: tf.reduce_sum(s.values) > 1.5)
    return [repr(doubled.element_spec), list(doubled), repr(dense.element_spec), list(dense),
            list(kept), kept.cardinality()]


def case_map_making_sparse_elements(tf):
    ds = tf.data.Dataset.range(1, 4).map(
        lambda n: tf.sparse.SparseTensor([[0]], [n], [n]))
    batched = ds.batch(3)
    return [repr(ds.element_spec), repr(batched.element_spec), list(batched)]


def case_batch_and_unbatch_sparse(tf):
    ds = tf.data.Dataset.from_tensor_slices(_sparse(tf))
    batched = ds.batch(3)
    dropped = ds.batch(3, drop_remainder=True)
    unbatched = batched.unbatch()
    return [repr(batched.element_spec), batched.cardinality(), list(batched),
            repr(dropped.element_spec), dropped.cardinality(),
            repr(unbatched.element_spec), list(unbatched)]


def case_padded_batch_refuses_sparse(tf):
    tf.data.Dataset.from_tensor_slices(_sparse(tf)).padded_batch(2)


def case_slices_of_sparse_vector(tf):
    tf.data.Dataset.from_tensor_slices(tf.sparse.SparseTensor([[1]], [5], [3]))


def case_sparse_through_other_transforms(tf):
    ds = tf.data.Dataset.from_tensor_slices(_sparse(tf))
    zipped = tf.data.Dataset.zip(ds, tf.data.Dataset.range(10))
    return [repr(zipped.element_spec), zipped.cardinality(),
            ds.concatenate(ds).cardinality(), ds.repeat(2).take(5).cardinality(),
            list(ds.skip(2).cache()), repr(ds.shuffle(4, seed=1).element_spec),
            ds.reduce(0.0, lambda total, s: total + tf.reduce_sum(s.values)),
            tf.data.Dataset.from_tensors(_sparse(tf)).get_single_element()]


def case_empty_rows_and_batches(tf):
    empty = tf.sparse.SparseTensor(tf.zeros([0, 2], tf.int64), tf.zeros([0]), [2, 3])
    ds = tf.data.Dataset.from_tensor_slices(empty)
    return [list(ds), list(ds.batch(2))]


# -- Keras: Input(sparse=True) --------------------------------------------------------------------
def _sparse_model(tf, units=2):
    inp = tf.keras.Input(shape=(3,), sparse=True)
    dense = tf.keras.layers.Dense(units, bias_initializer=tf.keras.initializers.Constant(0.1))
    model = tf.keras.Model(inp, dense(inp))
    dense.kernel.assign(tf.constant([[0.5, -1.0], [2.0, 0.25], [-0.5, 1.5]])[:, :units])
    return inp, model


def _batch_of_rows(tf):
    return tf.sparse.SparseTensor([[0, 0], [0, 2], [2, 1], [3, 0], [3, 1]],
                                  [1.0, 2.0, -1.0, 0.5, 3.0], [4, 3])


def case_keras_sparse_input_tensor(tf):
    inp = tf.keras.Input(shape=(3,), sparse=True)
    out = tf.keras.layers.Dense(2)(inp)
    layer = tf.keras.layers.InputLayer(shape=(3,), sparse=True)
    config = layer.get_config()
    config.pop("name")
    return [inp.sparse, inp.shape, inp.dtype, out.sparse, out.shape,
            tf.keras.Input(shape=(3,), sparse=True, batch_size=4).shape, config,
            tf.keras.Input(shape=(3,)).sparse]


def case_keras_sparse_and_ragged_input(tf):
    tf.keras.Input(shape=(3,), sparse=True, ragged=True)


def case_keras_dense_on_sparse_input_and_its_gradient(tf):
    _, model = _sparse_model(tf)
    x = _batch_of_rows(tf)
    with tf.GradientTape() as tape:
        y = model(x)
        loss = tf.reduce_sum(y * y)
    kernel_grad, bias_grad = tape.gradient(loss, model.trainable_weights)
    return [y, type(y).__name__, type(kernel_grad).__name__,
            tf.convert_to_tensor(kernel_grad), bias_grad,
            model(tf.sparse.to_dense(x))]


def case_keras_predict_fit_evaluate_with_sparse_x(tf):
    _, model = _sparse_model(tf)
    x = _batch_of_rows(tf)
    y = tf.constant([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0], [0.0, 0.0]])
    model.compile(optimizer=tf.keras.optimizers.SGD(0.1), loss="mse")
    predicted = model.predict(x, batch_size=3, verbose=0)
    history = model.fit(x, y, batch_size=2, epochs=2, shuffle=False, verbose=0).history
    return [predicted, history["loss"], model.evaluate(x, y, batch_size=3, verbose=0),
            [w.numpy() for w in model.weights]]


def case_keras_fit_on_dataset_of_sparse_batches(tf):
    _, model = _sparse_model(tf, units=1)
    model.compile(optimizer=tf.keras.optimizers.SGD(0.05), loss="mse")
    labels = tf.constant([[1.0], [2.0], [0.0], [1.0]])
    ds = tf.data.Dataset.from_tensor_slices((_batch_of_rows(tf), labels)).batch(3)
    history = model.fit(ds, epochs=2, verbose=0).history
    return [history["loss"], [w.numpy() for w in model.weights], repr(ds.element_spec[0])]
