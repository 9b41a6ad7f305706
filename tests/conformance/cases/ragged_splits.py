"""The dtype of a RaggedTensor's row partition: int64 by default, int32 where the splits,
lengths or row ids given are int32 or ``row_splits_dtype=tf.int32`` asks; kept by operations,
converted with ``with_row_splits_dtype``, and refused when two inputs disagree. Also
``tf.gather`` of whole rows of a RaggedTensor."""


def _splits(rt):
    """Each level's row splits dtype and values, outermost first."""
    out = []
    while hasattr(rt, "row_splits"):
        out.append([rt.row_splits.dtype.name, rt.row_splits.numpy().tolist()])
        rt = rt.values
    return out


def _i32(tf):
    return tf.ragged.constant([[1, 2], [3]], row_splits_dtype=tf.int32)


def case_default_is_int64(tf):
    return [_splits(tf.ragged.constant([[1, 2], [3]])),
            _splits(tf.RaggedTensor.from_row_splits([1, 2, 3], [0, 2, 3])),
            _splits(tf.RaggedTensor.from_row_lengths([1, 2, 3], [2, 1])),
            _splits(tf.ragged.constant([[[1], [2, 3]], [[4]]]))]


def case_int32_from_the_partition_given(tf):
    i32 = tf.int32
    return [_splits(tf.RaggedTensor.from_row_splits([1, 2, 3], tf.constant([0, 2, 3], i32))),
            _splits(tf.RaggedTensor.from_row_lengths([1, 2, 3], tf.constant([2, 1], i32))),
            _splits(tf.RaggedTensor.from_value_rowids([1, 2, 3], tf.constant([0, 0, 1], i32))),
            _splits(tf.RaggedTensor.from_nested_row_splits(
                [1, 2, 3], [tf.constant([0, 1, 2], i32), tf.constant([0, 2, 3], i32)]))]


def case_row_splits_dtype_argument(tf):
    i32 = tf.int32
    sparse = tf.sparse.from_dense([[1, 0], [2, 3]])
    return [_splits(_i32(tf)),
            _splits(tf.ragged.constant([[[1], [2, 3]], [[4]]], row_splits_dtype=i32)),
            _splits(tf.RaggedTensor.from_tensor([[1, 2], [3, 4]], row_splits_dtype=i32)),
            _splits(tf.RaggedTensor.from_tensor([[1, 0], [3, 4]], padding=0,
                                                row_splits_dtype=i32)),
            _splits(tf.ragged.range([3, 1], row_splits_dtype=i32)),
            _splits(tf.RaggedTensor.from_sparse(sparse, row_splits_dtype=i32))]


def case_partition_tensors_follow(tf):
    rt = _i32(tf)
    print(rt.row_lengths())
    return [rt.row_lengths(), rt.value_rowids(), rt.nrows(), rt.row_starts(), rt.row_limits(),
            rt.bounding_shape(), rt.nrows(out_type=tf.int64), rt.nested_row_lengths()[0]]


def case_with_row_splits_dtype(tf):
    rt = tf.ragged.constant([[[1], [2, 3]], [[4]]])
    down = rt.with_row_splits_dtype(tf.int32)
    up = down.with_row_splits_dtype(tf.int64)
    same = down.with_row_splits_dtype(tf.int32)
    print(down)
    return [_splits(down), _splits(up), _splits(same), down.to_list()]


def case_with_row_splits_dtype_refuses_others(tf):
    return _error(lambda: _i32(tf).with_row_splits_dtype(tf.float32))


def case_operations_keep_int32(tf):
    rt = _i32(tf)
    mask = tf.ragged.constant([[True, False], [True]], row_splits_dtype=tf.int32)
    outs = [rt + 1, rt * rt, tf.concat([rt, rt], axis=0), tf.concat([rt, rt], axis=1),
            tf.ragged.stack([rt, rt]), tf.ragged.boolean_mask(rt, mask), rt[1:],
            tf.ragged.map_flat_values(tf.math.square, rt), tf.math.abs(rt), rt.with_values(
                tf.constant([7, 8, 9])), tf.cast(rt, tf.float32)]
    return [_splits(o) for o in outs]


def case_spec_of_int32_value(tf):
    spec = tf.type_spec_from_value(_i32(tf))
    return [str(spec), spec.row_splits_dtype.name]


def case_mixed_dtypes_refused(tf):
    a = _i32(tf)
    b = tf.ragged.constant([[4], [5, 6]])
    return [_error(lambda: a + b), _error(lambda: tf.concat([a, b], axis=0)),
            _error(lambda: tf.ragged.stack([a, b])), _error(lambda: tf.add(b, a))]


def case_float_splits_refused(tf):
    return [_error(lambda: tf.RaggedTensor.from_row_splits([1, 2, 3], tf.constant([0., 2., 3.]))),
            _error(lambda: tf.RaggedTensor.from_row_lengths([1, 2, 3], tf.constant([2., 1.])))]


def case_gather_rows(tf):
    rt = tf.ragged.constant([[1, 2], [], [3, 4, 5]])
    a = tf.gather(rt, [2, 0, 2])
    b = tf.gather(rt, tf.constant([[1, 0], [2, 2]]))
    c = tf.gather(_i32(tf), [1, 1])
    print(a)
    return [a.to_list(), _splits(a), b.to_list(), b.ragged_rank, _splits(c),
            tf.gather(rt, tf.constant([], tf.int32)).to_list()]


def case_gather_rows_empty_list(tf):
    # an empty Python list converts to float32 indices, which gather refuses
    return _error(lambda: tf.gather(tf.ragged.constant([[1, 2], [3]]), []))


def case_gather_rows_gradient(tf):
    v = tf.Variable([1., 2., 3., 4.])
    with tf.GradientTape() as tape:
        rt = tf.RaggedTensor.from_row_lengths(v * 1.0, [1, 3])
        out = tf.gather(rt, [1, 1, 0])
        loss = tf.reduce_sum(out.flat_values * tf.constant([1., 2., 3., 4., 5., 6., 7.]))
    return tape.gradient(loss, v)


def case_gather_rows_out_of_range(tf):
    rt = tf.ragged.constant([[1, 2], [3]])
    return tf.gather(rt, [0, 5])


def _error(fn):
    try:
        out = fn()
    except Exception as e:  # noqa: BLE001 - the class and message are the outcome
        return ["error", type(e).__name__, str(e).split("\n")[0][:200]]
    return ["no error", str(out)]
