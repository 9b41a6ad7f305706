"""The shape of a RaggedTensor and the ops that take or make one, in the spirit of the "Ragged
tensors" guide and the API pages of tf.tile, tf.shape, tf.experimental.DynamicRaggedShape and
tf.RaggedTensorSpec: tiling rows and items (and its gradient), tf.shape's DynamicRaggedShape
(its lengths, partitions, inner shape, indexing and printing), tensors built to a ragged shape,
and ragged arguments of a tf.function, with and without an input signature."""


def _sentences(tf):
    return tf.ragged.constant([[1, 2], [3]])


# -- tf.tile ------------------------------------------------------------------------------------
def case_tile_rows_and_items(tf):
    rt = _sentences(tf)
    outs = [tf.tile(rt, [2, 1]), tf.tile(rt, [1, 3]), tf.tile(rt, [2, 2]), tf.tile(rt, [0, 2])]
    for o in outs:
        print(o)
    return [o.to_list() for o in outs]


def case_tile_empty_rows_strings_and_floats(tf):
    outs = [tf.tile(tf.ragged.constant([[1], [], [2, 3]]), [2, 2]),
            tf.tile(tf.ragged.constant([["a"], ["b", "c"]]), [1, 2]),
            tf.tile(tf.ragged.constant([[1.5], [2.0, 3.0]]), tf.constant([2, 1]))]
    for o in outs:
        print(o)
    return [o.to_list() for o in outs] + [[o.dtype.name for o in outs]]


def case_tile_deeper_ragged_and_inner_axis(tf):
    two_ragged = tf.ragged.constant([[[1], [2, 3]], [[4]]])
    inner = tf.ragged.constant([[[1, 2], [3, 4]], [[5, 6]]], ragged_rank=1)
    a, b = tf.tile(two_ragged, [2, 1, 2]), tf.tile(inner, [1, 2, 3])
    print(a)
    print(b)
    return [a.to_list(), a.ragged_rank, b.to_list(), b.ragged_rank]


def case_tile_bad_multiples(tf):
    out = []
    for multiples in ([-1, 1], [2, 2, 2]):
        try:
            tf.tile(_sentences(tf), multiples)
        except Exception as e:   # noqa: BLE001  (the class is what is compared)
            out.append(type(e).__name__)
    return out


def case_tile_gradient_reaches_values(tf):
    values = tf.Variable([1.0, 2.0, 3.0])
    with tf.GradientTape() as tape:
        rt = tf.RaggedTensor.from_row_lengths(values, [2, 1])
        tiled = tf.tile(rt, [3, 2])
        loss = tf.reduce_sum(tiled.flat_values * tf.range(18, dtype=tf.float32))
    grad = tf.convert_to_tensor(tape.gradient(loss, values))
    return [tiled.to_list(), grad]


def case_tile_gradient_of_squares(tf):
    x = tf.constant([1.0, 2.0, 3.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.tile(tf.RaggedTensor.from_row_lengths(x, [2, 1]), [2, 3])
        loss = tf.reduce_sum(y * y)
    return tf.convert_to_tensor(tape.gradient(loss, x))


# -- tf.shape and DynamicRaggedShape ------------------------------------------------------------
def case_shape_of_ragged(tf):
    s = tf.shape(_sentences(tf))
    print(s)
    print(repr(s))
    return [type(s).__name__, s.rank, s.num_row_partitions, s.dtype.name, s.inner_shape,
            [p.row_splits() for p in s.row_partitions], str(s.row_partitions[0]),
            s.static_lengths(), s.static_lengths(ragged_lengths=False)]


def case_shape_out_type(tf):
    rt = _sentences(tf)
    a, b = tf.shape(rt, out_type=tf.int32), tf.shape(rt, out_type=tf.int64)
    return [a.dtype.name, b.dtype.name, a.inner_shape, b.inner_shape, b[0],
            b.row_partitions[0].row_lengths()]


def case_shape_indexing(tf):
    rt = tf.ragged.constant([[[1, 2], [3, 4]], [[5, 6]]], ragged_rank=1)
    s = tf.shape(rt)
    print(s)
    out = [s[0], s[2], s[-1], str(s[:1]), str(s[0:2])]
    for index in (1, -2, 5):
        try:
            s[index]
        except Exception as e:   # noqa: BLE001  (the class and message are what is compared)
            out.append(f"{type(e).__name__}: {e}")
    return out


def case_shape_of_two_ragged_axes(tf):
    s = tf.shape(tf.ragged.constant([[[1], [2, 3]], [[4]]]))
    print(s)
    return [s.rank, s.num_row_partitions, s.inner_shape, s.static_lengths(),
            [str(p) for p in s.row_partitions], s.is_uniform(0), s.is_uniform(2)]


def case_dynamic_ragged_shape_from_lengths(tf):
    shape_cls = tf.experimental.DynamicRaggedShape
    s = shape_cls.from_lengths([2, (3, 1), 4])
    u = shape_cls.from_lengths([2, 3, 4], num_row_partitions=1)
    print(s)
    print(u)
    return [s.rank, s.num_row_partitions, s.dtype.name, s.inner_shape, s.static_lengths(),
            s[2], str(s.row_partitions[0]), u.static_lengths(), u[1], u.inner_shape,
            str(u.row_partitions[0]), str(shape_cls.from_lengths([2, (3, 1), 4],
                                                              num_row_partitions=2)),
            str(shape_cls.from_lengths([])), shape_cls.from_lengths([]).rank]


def case_dynamic_ragged_shape_from_lengths_errors(tf):
    out = []
    for lengths in ([2, (3, 1, 5)], [(3, 1)]):
        try:
            tf.experimental.DynamicRaggedShape.from_lengths(lengths)
        except Exception as e:   # noqa: BLE001  (the class and message are what is compared)
            out.append(f"{type(e).__name__}: {e}")
    return out


def case_dynamic_ragged_shape_from_tensor(tf):
    shape_cls = tf.experimental.DynamicRaggedShape
    dense = shape_cls.from_tensor(tf.zeros([2, 3]))
    ragged = shape_cls.from_tensor(_sentences(tf))
    print(dense)
    print(ragged)
    return [dense.dtype.name, dense.inner_shape, dense.num_row_partitions, dense[1],
            dense.static_lengths(), len(dense.row_partitions), ragged.static_lengths()]


def case_shape_of_uniform_rows(tf):
    rt = tf.RaggedTensor.from_uniform_row_length([1, 2, 3, 4, 5, 6], uniform_row_length=2)
    nested = tf.RaggedTensor.from_uniform_row_length(tf.ragged.constant([[1], [2, 3], [4], [5]]),
                                                     2)
    s, t = tf.shape(rt), tf.shape(nested)
    print(s)
    print(t)
    tiled = tf.tile(rt, [1, 2])
    print(tiled)
    return [s[1], s.static_lengths(), rt.shape.as_list(), (rt * 2).shape.as_list(),
            t.static_lengths(), nested.shape.as_list(), tiled.shape.as_list()]


# -- tensors of a ragged shape ------------------------------------------------------------------
def case_ones_zeros_fill_of_ragged_shape(tf):
    s = tf.shape(_sentences(tf))
    lengths = tf.experimental.DynamicRaggedShape.from_lengths([2, (3, 1), 4])
    outs = [tf.ones(s), tf.zeros(s, dtype=tf.int32), tf.fill(s, 7), tf.ones(lengths, tf.int32),
            tf.zeros(lengths, tf.int64)]
    for o in outs:
        print(o)
    dense = tf.ones(tf.experimental.DynamicRaggedShape.from_tensor(tf.zeros([2, 3])))
    return [o.to_list() for o in outs] + [[o.dtype.name for o in outs], dense]


def case_broadcast_to_ragged_shape(tf):
    s = tf.shape(_sentences(tf))
    uniform = tf.experimental.DynamicRaggedShape.from_lengths([2, 3, 2],
                                                               num_row_partitions=1)
    outs = [tf.broadcast_to(3, s), tf.broadcast_to(tf.constant([[1], [2]]), s),
            tf.broadcast_to(1.5, uniform)]
    for o in outs:
        print(o)
    try:
        tf.broadcast_to([1, 2, 3], s)
        error = None
    except Exception as e:   # noqa: BLE001  (the class is what is compared)
        error = type(e).__name__
    return [o.to_list() for o in outs] + [error]


def case_reshape_to_and_from_ragged_shape(tf):
    rt = _sentences(tf)
    s = tf.shape(rt)
    a = tf.reshape(tf.constant([10, 20, 30]), s)
    b = tf.reshape(rt, s)
    c = tf.reshape(rt, [-1])
    d = tf.reshape(tf.range(6), tf.experimental.DynamicRaggedShape.from_lengths([2, 3]))
    print(a)
    try:
        tf.reshape(tf.range(5), s)
        error = None
    except Exception as e:   # noqa: BLE001  (the class is what is compared)
        error = type(e).__name__
    return [a.to_list(), b.to_list(), c, d, error]


# -- RaggedTensorSpec and tf.function -----------------------------------------------------------
def case_ragged_spec_input_signature(tf):
    @tf.function(input_signature=[tf.RaggedTensorSpec(shape=[None, None], dtype=tf.int32)])
    def row_sums(x):
        print("tracing with", x.shape, type(x).__name__, x.ragged_rank)
        return tf.reduce_sum(x, axis=1)
    a = row_sums(tf.ragged.constant([[1, 2], [3]]))
    b = row_sums(tf.ragged.constant([[1, 2, 3], [4], [5, 6]]))
    return [a, b, row_sums.experimental_get_tracing_count(), repr(row_sums.input_signature)]


def case_ragged_spec_input_signature_mismatch(tf):
    @tf.function(input_signature=[tf.RaggedTensorSpec(shape=[2, None], dtype=tf.int32)])
    def lengths(x):
        return x.row_lengths()
    out = [lengths(tf.ragged.constant([[1, 2], [3]]))]
    for bad in (tf.ragged.constant([[1.0], [2.0]]), tf.ragged.constant([[1], [2], [3]]),
                tf.constant([[1, 2], [3, 4]]), tf.ragged.constant([[[1]], [[2]]])):
        try:
            lengths(bad)
        except Exception as e:   # noqa: BLE001  (the class is what is compared)
            out.append(type(e).__name__)
    return out + [lengths.experimental_get_tracing_count()]


def case_ragged_spec_mixed_with_tensor_spec(tf):
    @tf.function(input_signature=[tf.RaggedTensorSpec([None, None], tf.float32),
                                  tf.TensorSpec([], tf.float32)])
    def shift(rt, by):
        return tf.tile(rt, [2, 1]) + by
    out = shift(tf.ragged.constant([[1.0], [2.0, 3.0]]), tf.constant(10.0))
    print(out)
    return out.to_list()


def case_ragged_argument_without_signature(tf):
    @tf.function
    def double(x):
        print("tracing", x.shape)
        return x * 2
    outs = [double(tf.ragged.constant([[1, 2], [3]])),
            double(tf.ragged.constant([[4], [5, 6, 7]])),   # same rows, other lengths: no trace
            double(tf.ragged.constant([[1], [2], [3]])),    # another number of rows
            double(tf.ragged.constant([[1.0], [2.0]])),      # another dtype
            double(tf.ragged.constant([[[1]], [[2, 3]]]))]  # another ragged rank
    return [o.to_list() for o in outs] + [double.experimental_get_tracing_count()]


def case_ragged_argument_values_flow_through_trace(tf):
    @tf.function
    def summary(x):
        return x.flat_values + 1, tf.reduce_max(x, axis=1), x
    out = []
    for rows in ([[1, 2], [3]], [[4], [5, 6]], [[7], [8, 9]]):
        plus, top, same = summary(tf.ragged.constant(rows))
        out.append([plus, top, same.to_list()])
    return out + [summary.experimental_get_tracing_count()]


def case_ragged_result_of_traced_tile(tf):
    @tf.function(input_signature=[tf.RaggedTensorSpec([None, None], tf.float32)])
    def twice(x):
        return tf.tile(x, [1, 2])
    a = twice(tf.ragged.constant([[1.0, 2.0], [3.0]]))
    b = twice(tf.ragged.constant([[4.0], [5.0, 6.0], [7.0]]))
    print(a)
    print(b)
    return [a.to_list(), b.to_list(), twice.experimental_get_tracing_count()]
