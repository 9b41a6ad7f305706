"""tf.sparse and tf.ragged: constructing, converting, reducing, multiplying."""


def _st(tf):
    return tf.sparse.SparseTensor(indices=[[0, 0], [1, 2]], values=[1.0, 2.0], dense_shape=[3, 4])


def case_sparse_basics(tf):
    st = _st(tf)
    return [st.indices, st.values, st.dense_shape, st.shape, st.dtype, tf.sparse.to_dense(st),
            repr(type(st).__name__)]


def case_sparse_from_dense_and_reduce(tf):
    d = tf.constant([[0.0, 3.0], [4.0, 0.0], [0.0, 0.0]])
    st = tf.sparse.from_dense(d)
    return [st.indices, st.values, st.dense_shape, tf.sparse.reduce_sum(st),
            tf.sparse.reduce_sum(st, axis=0), tf.sparse.reduce_sum(st, axis=1, keepdims=True)]


def case_sparse_matmul_and_add(tf):
    st = _st(tf)
    dense = tf.reshape(tf.range(8.0), [4, 2])
    s2 = tf.sparse.SparseTensor([[0, 0], [2, 3]], [10.0, 5.0], [3, 4])
    return [tf.sparse.sparse_dense_matmul(st, dense), tf.sparse.to_dense(tf.sparse.add(st, s2)),
            tf.sparse.add(st, tf.ones([3, 4])),
            tf.sparse.to_dense(tf.sparse.reorder(tf.sparse.SparseTensor([[1, 0], [0, 1]], [1, 2],
                                                                         [2, 2])))]


def case_sparse_matmul_gradient(tf):
    st = _st(tf)
    dense = tf.reshape(tf.range(8.0), [4, 2])
    with tf.GradientTape() as tape:
        tape.watch(dense)
        y = tf.reduce_sum(tf.sparse.sparse_dense_matmul(st, dense) * [[1.0, 2.0]])
    return tape.gradient(y, dense)


def case_sparse_to_dense_default_and_print(tf):
    st = _st(tf)
    print(st)
    return tf.sparse.to_dense(st, default_value=-1.0)


def case_ragged_constant_and_props(tf):
    rt = tf.ragged.constant([[1, 2, 3], [], [4, 5]])
    print(rt)
    return [rt.to_list(), rt.values, rt.row_splits, rt.row_lengths(), rt.nrows(), rt.shape,
            rt.dtype, rt.ragged_rank, repr(rt), str(rt)]


def case_ragged_from_row_lengths_splits(tf):
    a = tf.RaggedTensor.from_row_lengths([3.0, 1.0, 4.0, 1.0, 5.0], row_lengths=[2, 0, 3])
    b = tf.RaggedTensor.from_row_splits([3, 1, 4, 1, 5], row_splits=[0, 4, 4, 5])
    return [a.to_list(), b.to_list(), a.to_tensor(), b.to_tensor(default_value=-1),
            a[0], a[2], b.bounding_shape()]


def case_ragged_reduce(tf):
    rt = tf.ragged.constant([[1.0, 2.0, 3.0], [], [4.0, 5.0]])
    return [tf.reduce_sum(rt, axis=1), tf.reduce_sum(rt, axis=0), tf.reduce_sum(rt),
            tf.reduce_mean(rt, axis=1), tf.reduce_max(rt, axis=1), tf.reduce_min(rt, axis=1)]


def case_ragged_nested_and_strings(tf):
    rt = tf.ragged.constant([[[1, 2], [3]], [[4]]])
    s = tf.ragged.constant([["a", "b"], ["c"]])
    return [rt.to_list(), rt.ragged_rank, rt.shape, rt.to_tensor(), s.to_list(), s.dtype,
            tf.ragged.constant([[1.5], [2.0, 3.0]], dtype=tf.float64).dtype]


def case_ragged_elementwise(tf):
    rt = tf.ragged.constant([[1.0, 2.0], [3.0]])
    return [(rt * 2.0).to_list(), (rt + rt).to_list(), (rt - 1.0).to_list(),
            tf.ragged.constant([[1, 2], [3]]).flat_values]


def case_ragged_bad_splits(tf):
    return tf.RaggedTensor.from_row_splits([1, 2, 3], row_splits=[0, 2, 1])


def case_ragged_from_tensor_and_map(tf):
    t = tf.constant([[1, 2, 0], [3, 0, 0], [4, 5, 6]])
    a = tf.RaggedTensor.from_tensor(t, lengths=[2, 1, 3])
    b = tf.RaggedTensor.from_tensor(t, padding=0)
    c = tf.RaggedTensor.from_tensor(t)
    return [a.to_list(), b.to_list(), c.to_list(),
            tf.ragged.map_flat_values(tf.math.square, tf.ragged.constant([[1, 2], [3]])).to_list(),
            tf.ragged.range([0, 5, 2], [3, 5, 7], 2).to_list(), tf.ragged.range(3).to_list()]


def case_ragged_from_tensor_gradient(tf):
    t = tf.constant([[1.0, 2.0, 0.0], [3.0, 0.0, 0.0]])
    with tf.GradientTape() as tape:
        tape.watch(t)
        rt = tf.RaggedTensor.from_tensor(t, lengths=[2, 1])
        s = tf.reduce_sum(rt * rt)
    return [s, tape.gradient(s, t)]


def case_sparse_transpose_and_slice(tf):
    st = tf.sparse.SparseTensor([[0, 1], [1, 2], [2, 0]], [1.0, 2.0, 3.0], [3, 4])
    t = tf.sparse.transpose(st)
    s = tf.sparse.slice(st, [1, 0], [2, 3])
    return [t.indices, t.values, t.dense_shape, s.indices, s.values, s.dense_shape,
            tf.sparse.to_dense(tf.sparse.expand_dims(st, 0)).shape]


def case_strings_bytes_and_unicode_split(tf):
    return [tf.strings.bytes_split(tf.constant("abc")),
            tf.strings.bytes_split(tf.constant(["ab", "c"])).to_list(),
            tf.strings.unicode_split(tf.constant(["wö", "x"]), "UTF-8").to_list(),
            tf.strings.unicode_split(tf.constant("añ"), "UTF-8")]


# --- where tapegrad's message is its own -----------------------------------------------------------
case_ragged_bad_splits.message_differs = (
    "TensorFlow prints its assertion's data (the splits' differences); tapegrad says the rule",
    ("Arguments to from_row_splits do not form a valid RaggedTensor:monotonic",
     "row_splits must be non-decreasing"))
