"""RaggedTensor through the ops TensorFlow dispatches for it, in the spirit of the "Ragged
tensors" guide: a dense operand broadcast against ragged rows, lookups with ragged ids, rows of
a uniform length, string rows padded to a dense tensor, and elementwise math, comparisons and
string functions on the values."""


def _speeds(tf):
    return tf.ragged.constant([[1, 2], [3], [4, 5, 6]])


def case_add_dense_column_per_row(tf):
    out = _speeds(tf) + [[1000], [2000], [3000]]
    print(out)
    return out.to_list()


def case_broadcast_scalar_and_inner_axis(tf):
    rt = tf.ragged.constant([[[1, 2], [3, 4]], [[5, 6]]], ragged_rank=1)
    a, b = rt + [10, 20], rt * [[[100]], [[200]]]
    print(a)
    print(b)
    return [a.to_list(), b.to_list()]


def case_math_ops_broadcast_dense(tf):
    rt = _speeds(tf)
    outs = [tf.maximum(rt, tf.constant([[3]])), tf.subtract(rt, [[1], [2], [3]]),
            tf.math.equal(rt, [[2], [3], [5]])]
    for o in outs:
        print(o)
    return [o.to_list() for o in outs]


def case_broadcast_mismatch_is_an_error(tf):
    try:
        _speeds(tf) + [[1, 2], [3, 4], [5, 6]]
    except Exception as e:   # noqa: BLE001  (the class is what is compared)
        return type(e).__name__


def case_gather_with_ragged_ids(tf):
    words = tf.constant(["a", "b", "c", "d", "e", "f", "g"])
    ids = _speeds(tf)
    out = tf.gather(words, ids)
    print(out)
    return out.to_list()


def case_embedding_lookup_ragged_ids(tf):
    table = tf.reshape(tf.range(14, dtype=tf.float32), [7, 2])
    out = tf.nn.embedding_lookup(table, _speeds(tf))
    print(out)
    return [out.to_list(), out.ragged_rank]


def case_from_uniform_row_length(tf):
    rt = tf.RaggedTensor.from_uniform_row_length([1, 2, 3, 4, 5, 6], uniform_row_length=2)
    print(rt)
    return [rt.to_list(), rt.shape.as_list()[0]]


def case_string_rows_to_tensor(tf):
    rt = tf.ragged.constant([["hi", "there"], ["you"], []])
    a, b = rt.to_tensor(default_value=""), rt.to_tensor(default_value="<pad>")
    print(a)
    print(b)
    return [a.numpy().tolist(), b.numpy().tolist()]


def case_unary_math_on_values(tf):
    rt = tf.ragged.constant([[1.0, 4.0], [], [9.0]])
    outs = [tf.math.sqrt(rt), tf.math.square(rt), tf.math.negative(rt), tf.nn.relu(rt - 2.0)]
    return [o.to_list() for o in outs]


def case_strings_on_values(tf):
    rt = tf.ragged.constant([["Hello", "World"], ["tf"]])
    outs = [tf.strings.upper(rt), tf.strings.length(rt), tf.strings.substr(rt, 0, 2)]
    return [o.to_list() for o in outs]


def case_where_on_ragged(tf):
    rt = _speeds(tf)
    out = tf.where(rt > 2, rt, tf.zeros_like(rt))
    print(out)
    return out.to_list()
