"""More of tf.ragged and RaggedTensor: masks, stacking, partitions, row-partition conversions,
crosses, tf.concat on ragged inputs, slicing rows, to_tensor(shape=...), merge_dims,
with_values, nested construction, printing and gradients through the values."""


def _rt(tf):
    return tf.ragged.constant([[1, 2, 3], [], [4, 5]])


def case_boolean_mask(tf):
    rt = _rt(tf)
    out = [tf.ragged.boolean_mask(rt, tf.ragged.constant([[True, False, True], [], [False, True]])),
           tf.ragged.boolean_mask(tf.constant([[1, 2], [3, 4]]),
                                  tf.constant([[True, False], [True, True]])),
           tf.ragged.boolean_mask(rt, tf.constant([True, False, True]))]
    for o in out:
        print(o)
    return [o.to_list() for o in out]


def case_stack(tf):
    rt = _rt(tf)
    a = tf.ragged.stack([rt, tf.ragged.constant([[9]])])
    b = tf.ragged.stack([rt, tf.ragged.constant([[9], [8], [7]])], axis=1)
    print(a)
    print(b)
    return [a.to_list(), b.to_list(), a.shape.as_list(), b.ragged_rank]


def case_stack_dynamic_partitions(tf):
    r = tf.ragged.stack_dynamic_partitions([1, 2, 3, 4, 5], [2, 0, 2, 1, 0], 3)
    s = tf.ragged.stack_dynamic_partitions(tf.constant(["a", "b", "c"]), [1, 1, 0], 3)
    print(r)
    return [r.to_list(), s.to_list()]


def case_row_partition_conversions(tf):
    return [tf.ragged.row_splits_to_segment_ids([0, 2, 2, 5]),
            tf.ragged.segment_ids_to_row_splits([0, 0, 2, 2, 2]),
            tf.ragged.segment_ids_to_row_splits([0, 1], num_segments=4)]


def case_cross(tf):
    a = tf.ragged.constant([["a", "b"], ["c"]])
    b = tf.constant([["x"], ["y"]])
    c = tf.ragged.cross([a, b])
    print(c)
    h = tf.ragged.cross_hashed([a, b], num_buckets=100)
    return [c.to_list(), h.to_list(), tf.ragged.cross_hashed([a, b]).to_list()]


def case_concat_ragged(tf):
    rt = _rt(tf)
    a = tf.concat([rt, rt], axis=0)
    b = tf.concat([rt, tf.ragged.constant([[7], [8, 9], []])], axis=1)
    print(a)
    print(b)
    return [a.to_list(), b.to_list(), tf.concat([rt, rt], axis=-1).to_list()]


def case_row_slices(tf):
    rt = _rt(tf)
    out = [rt[1:], rt[:, :2], rt[:, -1:], rt[::2], rt[0], rt[2, 1]]
    print(out[0])
    return [out[0].to_list(), out[1].to_list(), out[2].to_list(), out[3].to_list(), out[4], out[5]]


def case_to_tensor_with_shape(tf):
    rt = _rt(tf)
    return [rt.to_tensor(default_value=-1, shape=[2, 2]), rt.to_tensor(shape=[4, 4]),
            rt.to_tensor(shape=[None, 2]), rt.to_tensor(default_value=9)]


def case_merge_dims_and_with_values(tf):
    rt = _rt(tf)
    r3 = tf.ragged.constant([[[1, 2], [3]], [[4]]])
    return [rt.merge_dims(0, 1), r3.merge_dims(1, 2).to_list(), r3.merge_dims(0, 1).to_list(),
            r3.merge_dims(0, 2), rt.with_values(rt.values * 2).to_list(), rt.bounding_shape(),
            r3.bounding_shape()]


def case_nested_construction(tf):
    a = tf.RaggedTensor.from_nested_row_splits([1, 2, 3, 4], [[0, 1, 2], [0, 3, 4]])
    b = tf.RaggedTensor.from_nested_row_lengths([1, 2, 3, 4], [[2, 0], [1, 3]])
    c = tf.RaggedTensor.from_value_rowids([5, 6, 7], [0, 0, 2], nrows=4)
    print(a)
    return [a.to_list(), b.to_list(), c.to_list(), [s for s in a.nested_row_splits],
            [x for x in b.nested_row_lengths()], c.nrows(), c.row_lengths()]


def case_elementwise_and_reductions(tf):
    rt = _rt(tf)
    f = tf.ragged.constant([[1.0, 4.0], [9.0]])
    return [(rt + 1).to_list(), (rt * rt).to_list(), (2 - rt).to_list(),
            tf.ragged.map_flat_values(tf.math.sqrt, f).to_list(),
            tf.reduce_sum(rt, axis=1), tf.reduce_max(rt, axis=0), tf.reduce_sum(rt)]


def case_specs(tf):
    return [repr(tf.RaggedTensorSpec([None, None], tf.int32)),
            repr(tf.RaggedTensorSpec([2, None, 3], tf.float32, ragged_rank=1)),
            repr(tf.SparseTensorSpec([3, 4], tf.float32)),
            repr(tf.SparseTensorSpec(None, tf.int64)),
            tf.RaggedTensorSpec([None, None], tf.int32) == tf.RaggedTensorSpec([None, None],
                                                                                tf.int32)]


def case_printing(tf):
    for rt in [tf.ragged.constant([[1, 2], [3, 4]]), tf.ragged.constant([[1.5, 2.0], [3.0]]),
               tf.ragged.constant([["ab", "c"], []]), tf.ragged.constant([[[1], [2, 3]], []]),
               tf.ragged.constant([list(range(12)), list(range(15))])]:
        print(rt)
        print(repr(rt))
    return None


def case_gradients_through_values(tf):
    v = tf.constant([1.0, 2.0, 3.0, 4.0, 5.0])
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(v)
        rt = tf.RaggedTensor.from_row_lengths(v, [3, 0, 2])
        sliced = tf.reduce_sum(rt[:, :2].flat_values * [1.0, 2.0, 3.0, 4.0])
        masked = tf.reduce_sum(tf.ragged.boolean_mask(
            rt, tf.ragged.constant([[True, False, True], [], [False, True]])).flat_values)
        joined = tf.reduce_sum(tf.concat([rt, rt], axis=1).flat_values)
        dense = tf.reduce_sum(rt.to_tensor(shape=[2, 2]) * [[1.0, 2.0], [3.0, 4.0]])
    # compared as dense tensors: TensorFlow hands some of these back as IndexedSlices
    return [tf.convert_to_tensor(tape.gradient(y, v)) for y in (sliced, masked, joined, dense)]


def case_ragged_fill_empty_rows(tf):
    a = tf.ragged_fill_empty_rows(value_rowids=[0, 0, 2], values=[1, 2, 3], nrows=4,
                                  default_value=-1)
    b = tf.ragged_fill_empty_rows([1, 1], [1.5, 2.5], 3, 0.0)
    return [list(a), list(b), a.output_values, b.reverse_index_map]


def case_elementwise_dispatch(tf):
    digits = tf.ragged.constant([[3, 1, 4, 1], [], [5, 9, 2], [6], []])
    words = tf.ragged.constant([["So", "long"], ["thanks", "for", "all", "the", "fish"]])
    out = [tf.add(digits, 3), tf.math.add(digits, digits), tf.multiply(2, digits),
           tf.math.sqrt(tf.cast(digits, tf.float32)), tf.abs(-digits), digits > 2,
           tf.where(digits > 2, digits, 0), tf.maximum(digits, 4), tf.strings.substr(words, 0, 2),
           tf.strings.length(words), tf.strings.upper(words), digits ** 2, digits // 2, digits % 3,
           tf.math.logical_not(digits > 2), abs(tf.ragged.constant([[-1.5], [2.0]]))]
    for o in out:
        print(o)
    return [o.to_list() for o in out]


def case_elementwise_dispatch_mismatched_rows(tf):
    return tf.add(tf.ragged.constant([[1, 2], [3]]), tf.ragged.constant([[1], [2, 3]]))


def case_sparse_conversions_and_row_bounds(tf):
    digits = tf.ragged.constant([[3, 1, 4, 1], [], [5, 9, 2], [6], []])
    st = digits.to_sparse()
    back = tf.RaggedTensor.from_sparse(st)
    return [st.indices, st.values, st.dense_shape, back.to_list(), digits.row_starts(),
            digits.row_limits()]


# --- where tapegrad's message is its own -----------------------------------------------------------
case_elementwise_dispatch_mismatched_rows.message_differs = (
    "TensorFlow prints its assertion's data (the differing row splits); tapegrad says the rows "
    "differ", ("the RaggedTensor arguments have different row partitions",))
