"""More of tf.sparse: concat, reshape, split, maximum/minimum, reduce_max, retain, reset_shape,
fill_empty_rows, mask, map_values, softmax, segment sums, to_indicator, eye, bincount, crosses,
sampled_addmm; and gradients reaching a SparseTensor's values; SparseTensor's ``*`` and ``/``
with a dense operand, and the elementwise ops TensorFlow dispatches for a SparseTensor."""

NOTES = {
    "tf.sparse.SparseTensor": "`st * x` and `st / x` with a scalar `x`: a tape asked through "
                              "them raises TensorFlow 2.21's InvalidArgumentError (its gradient "
                              "gathers from the scalar; a TensorFlow bug, kept)",
}


def _st(tf, values=None):
    return tf.sparse.SparseTensor([[0, 0], [1, 2], [2, 1]],
                                  [1.0, -2.0, 3.0] if values is None else values, [3, 4])


def _parts(st):
    return [st.indices, st.values, st.dense_shape]


def case_concat(tf):
    st = _st(tf)
    other = tf.sparse.SparseTensor([[0, 1], [2, 0]], [7.0, 8.0], [3, 2])
    wide = tf.sparse.SparseTensor([[0, 0]], [4.0], [1, 5])
    out = tf.sparse.concat(1, [st, other])
    print(out)
    return [_parts(out), _parts(tf.sparse.concat(0, [st, st])),
            _parts(tf.sparse.concat(0, [st, wide], expand_nonconcat_dims=True))]


def case_concat_shape_mismatch(tf):
    return tf.sparse.concat(0, [_st(tf), tf.sparse.SparseTensor([[0, 0]], [1.0], [1, 5])])


def case_reshape(tf):
    st = _st(tf)
    return [_parts(tf.sparse.reshape(st, [2, -1])), _parts(tf.sparse.reshape(st, [12])),
            _parts(tf.sparse.reshape(st, [2, 3, 2]))]


def case_reshape_bad_size(tf):
    return tf.sparse.reshape(_st(tf), [5, 2])


def case_split(tf):
    parts = tf.sparse.split(sp_input=_st(tf), num_split=3, axis=1)
    rows = tf.sparse.split(sp_input=_st(tf), num_split=2, axis=0)
    return [[_parts(p) for p in parts], [_parts(p) for p in rows]]


def case_maximum_minimum(tf):
    a = _st(tf)
    b = tf.sparse.SparseTensor([[0, 0], [0, 3]], [5.0, -1.0], [3, 4])
    return [_parts(tf.sparse.maximum(a, b)), _parts(tf.sparse.minimum(a, b))]


def case_reduce_max(tf):
    st = _st(tf)
    return [tf.sparse.reduce_max(st), tf.sparse.reduce_max(st, axis=1),
            tf.sparse.reduce_max(st, axis=0), tf.sparse.reduce_max(st, axis=1, keepdims=True),
            _parts(tf.sparse.reduce_max(st, axis=1, output_is_sparse=True)),
            _parts(tf.sparse.reduce_max(st, axis=0, output_is_sparse=True))]


def case_reduce_sum_output_is_sparse(tf):
    st = _st(tf)
    return [_parts(tf.sparse.reduce_sum(st, axis=0, output_is_sparse=True)),
            _parts(tf.sparse.reduce_sum(st, axis=1, keepdims=True, output_is_sparse=True))]


def case_retain_and_reset_shape(tf):
    st = _st(tf)
    return [_parts(tf.sparse.retain(st, [True, False, True])),
            _parts(tf.sparse.reset_shape(st)), _parts(tf.sparse.reset_shape(st, [5, 6]))]


def case_reset_shape_too_small(tf):
    return tf.sparse.reset_shape(_st(tf), [2, 2])


def case_fill_empty_rows(tf):
    st = tf.sparse.SparseTensor([[0, 0], [2, 1]], [1, 2], [4, 3])
    out, empty = tf.sparse.fill_empty_rows(st, -1)
    full, none_empty = tf.sparse.fill_empty_rows(_st(tf), 0.5)
    return [_parts(out), empty, _parts(full), none_empty]


def case_mask(tf):
    s = tf.IndexedSlices(tf.constant([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]),
                         tf.constant([12, 26, 37]), tf.constant([40, 2]))
    m = tf.sparse.mask(s, [12, 37])
    return [m.values, m.indices]


def case_map_values(tf):
    st = _st(tf)
    return [_parts(tf.sparse.map_values(tf.math.square, st)),
            _parts(tf.sparse.map_values(tf.add, st, st)),
            _parts(tf.sparse.map_values(tf.multiply, st, 10.0))]


def case_softmax(tf):
    st = tf.sparse.SparseTensor([[0, 0], [0, 2], [1, 1], [2, 0], [2, 1], [2, 3]],
                                [1.0, 2.0, 5.0, 0.0, 1.0, 3.0], [3, 4])
    return _parts(tf.sparse.softmax(st))


def case_softmax_gradient(tf):
    v = tf.constant([1.0, 2.0, 5.0, 0.0, 1.0, 3.0])
    with tf.GradientTape() as tape:
        tape.watch(v)
        st = tf.sparse.SparseTensor([[0, 0], [0, 2], [1, 1], [2, 0], [2, 1], [2, 3]], v, [3, 4])
        out = tf.sparse.softmax(st)
        y = tf.reduce_sum(out.values * tf.constant([1.0, 3.0, 2.0, 1.0, -1.0, 4.0]))
    return tape.gradient(y, v)


def case_segment_ops(tf):
    data = tf.constant([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
    return [tf.sparse.segment_sum(data, [0, 1, 2, 2], [0, 0, 1, 1]),
            tf.sparse.segment_mean(data, [0, 1, 2], [0, 0, 2]),
            tf.sparse.segment_sqrt_n(data, [0, 1, 2], [0, 0, 1]),
            tf.sparse.segment_sum(data, [0, 2], [1, 3], num_segments=5),
            tf.sparse.segment_mean(data, [0, 2], [1, 1], num_segments=3)]


def case_segment_gradients(tf):
    data = tf.constant([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(data)
        s = tf.reduce_sum(tf.sparse.segment_sum(data, [0, 1, 2, 2], [0, 0, 1, 1]) * [[1.0, 2.0]])
        m = tf.reduce_sum(tf.sparse.segment_mean(data, [0, 1, 2], [0, 0, 1]) * [[1.0, 2.0]])
        q = tf.reduce_sum(tf.sparse.segment_sqrt_n(data, [0, 1, 2], [0, 0, 1]))
    return [tape.gradient(s, data), tape.gradient(m, data), tape.gradient(q, data)]


def case_unsorted_segment_ids_rejected(tf):
    return tf.sparse.segment_sum(tf.constant([[1.0], [2.0]]), [0, 1], [1, 0])


def case_to_indicator(tf):
    st = tf.sparse.SparseTensor([[0, 0], [0, 1], [1, 0]], [0, 3, 2], [2, 4])
    return tf.sparse.to_indicator(st, 5)


def case_eye(tf):
    return [_parts(tf.sparse.eye(2, 3)), _parts(tf.sparse.eye(3, dtype=tf.int32)),
            tf.sparse.to_dense(tf.sparse.eye(3, 2))]


def case_bincount(tf):
    x = tf.constant([[1, 2, 2], [0, 5, 5]])
    return [_parts(tf.sparse.bincount(x, axis=-1)), _parts(tf.sparse.bincount(x)),
            _parts(tf.sparse.bincount(x, axis=-1, binary_output=True)),
            _parts(tf.sparse.bincount(x, minlength=8)),
            _parts(tf.sparse.bincount(x, maxlength=3)),
            _parts(tf.sparse.bincount(x, weights=tf.constant([[0.5, 1.0, 2.0], [1.0, 1.0, 3.0]]),
                                      axis=-1))]


def case_cross(tf):
    a = tf.constant([["a"], ["b"]])
    b = tf.constant([["x", "y"], ["z", "w"]])
    sp = tf.sparse.SparseTensor([[0, 0], [1, 0], [1, 1]], ["p", "q", "r"], [2, 2])
    out = tf.sparse.cross([a, b])
    print(out)
    return [_parts(out), _parts(tf.sparse.cross([sp, a, b])),
            _parts(tf.sparse.cross([a, tf.constant([[1], [2]], tf.int64)]))]


def case_cross_hashed(tf):
    a = tf.constant([["a"], ["b"]])
    b = tf.constant([["x", "y"], ["z", "w"]])
    sp = tf.sparse.SparseTensor([[0, 0], [1, 0], [1, 1]], ["p", "q", "r"], [2, 2])
    return [_parts(tf.sparse.cross_hashed([a, b], 100)),
            _parts(tf.sparse.cross_hashed([sp, a], 1000, hash_key=123)),
            _parts(tf.sparse.cross_hashed([a, b]))]


def case_sampled_addmm(tf):
    idx, vals, shape = tf.sparse.sampled_addmm([[0, 0], [1, 1]], [1.0, 2.0], [2, 2],
                                               tf.ones([2, 3]), tf.ones([3, 2]))
    _, v2, _ = tf.sparse.sampled_addmm([[0, 1], [1, 0]], [1.0, 2.0], [2, 2],
                                       tf.reshape(tf.range(6.0), [2, 3]),
                                       tf.reshape(tf.range(6.0), [3, 2]), beta=0.5, alpha=2.0)
    return [idx, vals, shape, v2]


def case_gradients_through_values(tf):
    v = tf.constant([1.0, -2.0, 3.0])
    dense = tf.reshape(tf.range(8.0), [4, 2])
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(v)
        st = _st(tf, v)
        mm = tf.reduce_sum(tf.sparse.sparse_dense_matmul(st, dense))
        rs = tf.sparse.reduce_sum(st) * 2.0
        added = tf.reduce_sum(tf.sparse.add(st, st).values * [1.0, 2.0, 3.0])
        cat = tf.reduce_sum(tf.sparse.concat(1, [st, st]).values * [1.0, 2.0, 3.0, 4.0, 5.0, 6.0])
    return [tape.gradient(mm, v), tape.gradient(rs, v), tape.gradient(added, v),
            tape.gradient(cat, v)]


NOTES = {
    "tf.sparse.reduce_max": "only the entries present take part; a group with none gives 0, "
                            "as TensorFlow's kernel does",
    "tf.sparse.concat": "the values get no gradient through it (None), as in TensorFlow",
    "tf.sparse.reset_shape": "a too small new_shape is a ValueError (TensorFlow's static "
                             "check), not an InvalidArgumentError",
    "tf.sparse.cross_hashed": "FingerprintCat64 chain of FarmHash fingerprints: buckets match "
                              "TensorFlow's",
}


def case_times_and_divided_by_dense(tf):
    st = _st(tf)
    row = tf.constant([1.0, 2.0, 3.0, 4.0])
    return [_parts(st * 2.0), _parts(st / 4.0), _parts(st * row), _parts(st * tf.ones((3, 4))),
            _parts(st / tf.constant([[1.0], [2.0], [4.0]]))]


def case_reflected_times_is_refused(tf):
    return 2.0 * _st(tf)


def case_plus_is_refused(tf):
    return _st(tf) + _st(tf)


def case_times_sparse_is_refused(tf):
    return _st(tf) * _st(tf)


def case_times_gradient(tf):
    values = tf.Variable([1.0, -2.0, 3.0])
    scale = tf.Variable([[1.0], [2.0], [3.0]])
    with tf.GradientTape() as tape:
        out = tf.sparse.reduce_sum(_st(tf, values) * scale / tf.constant([2.0]))
    return [out, tape.gradient(out, [values, scale])]


def case_times_scalar_gradient_fails_as_in_tensorflow(tf):
    """TensorFlow's gradient of a SparseTensor times a scalar gathers from the scalar and fails
    (a TensorFlow bug, kept); forward the product works."""
    values = tf.Variable([1.0, -2.0, 3.0])
    with tf.GradientTape() as tape:
        out = tf.sparse.reduce_sum(_st(tf, values) * 2.0)
    print(out.numpy())
    return tape.gradient(out, values)


def case_zero_keeping_ops_dispatch(tf):
    st = _st(tf, [0.25, -0.5, 0.75])
    ops = [tf.abs, tf.negative, tf.sign, tf.square, tf.math.sqrt, tf.sin, tf.tan, tf.asin,
           tf.atan, tf.tanh, tf.asinh, tf.atanh, tf.math.erf]
    return [_parts(op(st)) for op in ops] + [_parts(tf.cast(st, tf.float64)),
                                             _parts(tf.math.abs(x=st))]


def case_zero_changing_op_is_refused(tf):
    return tf.exp(_st(tf))


def case_unary_gradient_reaches_values(tf):
    values = tf.Variable([1.0, -2.0, 3.0])
    with tf.GradientTape() as tape:
        out = tf.sparse.reduce_sum(tf.square(_st(tf, values)))
    return [out, tape.gradient(out, values)]


def case_scalar_sparse_tensors(tf):
    none = tf.sparse.SparseTensor(indices=tf.zeros([0, 0], tf.int64), values=tf.zeros([0]),
                                  dense_shape=tf.zeros([0], tf.int64))
    one = tf.sparse.SparseTensor(indices=tf.zeros([1, 0], tf.int64), values=[5.0],
                                 dense_shape=tf.zeros([0], tf.int64))
    return [none.shape, none.indices, tf.sparse.to_dense(none), one.shape,
            tf.sparse.to_dense(one), tf.sparse.to_dense(none, default_value=2.0)]
