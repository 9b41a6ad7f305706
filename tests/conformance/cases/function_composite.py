"""tf.function over composite tensors (RaggedTensor, SparseTensor) as arguments: when a call
traces and when it reuses a trace, input signatures of RaggedTensorSpec and SparseTensorSpec and
what they refuse, concrete functions made from such specs (their structured signatures and
outputs, the signatures printed), and a gradient through a call. Written from TensorFlow's guides
"Ragged tensors", "Sparse tensors" and "Introduction to graphs and tf.function"."""


NOTES = {
    "tf.SparseTensorSpec":
        "In a tf.function input signature or get_concrete_function: a SparseTensor is traced as "
        "its indices, values and dense shape and keyed by its spec. A result's static shape that "
        "comes from the dense shape (tf.sparse.to_dense) is unknown, as in TensorFlow; a trace "
        "that densifies reads the dense shape in Python, so its body runs on every call "
        "(engine/tapegrad/function/).",
    "tf.RaggedTensorSpec":
        "In a tf.function input signature or get_concrete_function: a RaggedTensor is traced as "
        "its flat values and row splits and keyed by its spec (rows, dtype, ragged rank), as "
        "TensorFlow does.",
}

def _rt(tf, rows, dtype=None):
    return tf.ragged.constant(rows, dtype=dtype)


def case_ragged_argument_traces_once_per_ragged_rank(tf):
    @tf.function
    def row_totals(x):
        print("tracing with", x)
        return x.row_lengths(), tf.reduce_sum(x.flat_values)
    first = row_totals(_rt(tf, [[1.0, 2.0], [3.0]]))
    second = row_totals(_rt(tf, [[4.0], [5.0, 6.0]]))
    after_same = row_totals.experimental_get_tracing_count()
    third = row_totals(_rt(tf, [[[1.0], [2.0, 3.0]], [[4.0]]]))
    return first, second, third, after_same, row_totals.experimental_get_tracing_count()


def case_ragged_argument_retraces_for_another_dtype(tf):
    @tf.function
    def lengths(x):
        print("tracing", x.dtype.name)
        return x.row_lengths()
    out = [lengths(_rt(tf, [[1, 2], [3]])), lengths(_rt(tf, [[1.0], [2.0]])),
           lengths(_rt(tf, [[7, 8, 9], [1]]))]
    return out, lengths.experimental_get_tracing_count()


def case_ragged_argument_retraces_for_another_row_count(tf):
    @tf.function
    def first_values(x):
        return x.values[:1]
    first_values(_rt(tf, [[1.0], [2.0]]))
    first_values(_rt(tf, [[3.0, 4.0], []]))
    first_values(_rt(tf, [[3.0], [4.0], [5.0]]))
    return first_values.experimental_get_tracing_count()


def case_ragged_returned_from_function(tf):
    @tf.function
    def doubled(x):
        return x * 2.0
    out = doubled(_rt(tf, [[1.0, 2.0], [], [3.0]]))
    return type(out).__name__, out.to_list(), out.ragged_rank


def case_sparse_argument_traces_once_per_dense_shape(tf):
    @tf.function
    def row_sums(s):
        print("tracing with", s)
        return tf.sparse.reduce_sum(s, axis=1)
    a = tf.sparse.SparseTensor(indices=[[0, 0], [1, 2]], values=[1.0, 2.0], dense_shape=[3, 4])
    b = tf.sparse.SparseTensor(indices=[[2, 3]], values=[5.0], dense_shape=[3, 4])
    c = tf.sparse.SparseTensor(indices=[[0, 1]], values=[7.0], dense_shape=[2, 4])
    out = [row_sums(a), row_sums(b)]
    after_same = row_sums.experimental_get_tracing_count()
    out.append(row_sums(c))
    return out, after_same, row_sums.experimental_get_tracing_count()


def case_ragged_input_signature(tf):
    @tf.function(input_signature=[tf.RaggedTensorSpec(shape=[None, None], dtype=tf.float32,
                                                      ragged_rank=1)])
    def scaled(x):
        print("tracing with", x)
        return x * 3.0
    out = [scaled(_rt(tf, [[1.0, 2.0], [3.0]])), scaled(_rt(tf, [[1.0], [], [2.0, 5.0]]))]
    return [o.to_list() for o in out], scaled.experimental_get_tracing_count()


def case_ragged_input_signature_refuses_a_dense_tensor(tf):
    @tf.function(input_signature=[tf.RaggedTensorSpec(shape=[None, None], dtype=tf.float32,
                                                      ragged_rank=1)])
    def scaled(x):
        return x * 3.0
    return scaled(tf.constant([[1.0, 2.0]]))


def case_ragged_input_signature_refuses_another_dtype(tf):
    @tf.function(input_signature=[tf.RaggedTensorSpec(shape=[None, None], dtype=tf.float32,
                                                      ragged_rank=1)])
    def scaled(x):
        return x * 3.0
    return scaled(_rt(tf, [[1, 2], [3]]))


def case_sparse_input_signature(tf):
    @tf.function(input_signature=[tf.SparseTensorSpec(shape=[None, 4], dtype=tf.float32)])
    def densify(s):
        print("tracing with", s)
        return tf.sparse.to_dense(s)
    a = tf.sparse.SparseTensor(indices=[[0, 1], [1, 3]], values=[1.0, 2.0], dense_shape=[2, 4])
    b = tf.sparse.SparseTensor(indices=[[2, 0]], values=[9.0], dense_shape=[3, 4])
    return densify(a), densify(b), densify.experimental_get_tracing_count()


def case_sparse_input_signature_refuses_a_dense_tensor(tf):
    @tf.function(input_signature=[tf.SparseTensorSpec(shape=[None, 4], dtype=tf.float32)])
    def densify(s):
        return tf.sparse.to_dense(s)
    return densify(tf.zeros([2, 4]))


def case_sparse_input_signature_refuses_another_dtype(tf):
    @tf.function(input_signature=[tf.SparseTensorSpec(shape=[None, 4], dtype=tf.float32)])
    def densify(s):
        return tf.sparse.to_dense(s)
    return densify(tf.sparse.SparseTensor(indices=[[0, 0]], values=[1], dense_shape=[2, 4]))


def case_concrete_function_from_ragged_spec(tf):
    @tf.function
    def total(x):
        return tf.reduce_sum(x.values)
    cf = total.get_concrete_function(
        tf.RaggedTensorSpec(shape=[None, None], dtype=tf.float32, ragged_rank=1))
    return (str(cf.structured_input_signature), repr(cf.structured_outputs),
            cf(_rt(tf, [[1.0, 2.0], [3.0, 4.0, 5.0]])), total.experimental_get_tracing_count())


def case_concrete_function_from_ragged_spec_returns_ragged(tf):
    @tf.function
    def plus_one(x):
        return x + 1.0
    cf = plus_one.get_concrete_function(
        tf.RaggedTensorSpec(shape=[None, None], dtype=tf.float32, ragged_rank=1))
    out = cf(_rt(tf, [[1.0], [2.0, 3.0]]))
    return str(cf.structured_input_signature), str(cf.structured_outputs), out.to_list()


def case_concrete_function_from_sparse_spec(tf):
    @tf.function
    def densify(s):
        return tf.sparse.to_dense(s)
    cf = densify.get_concrete_function(tf.SparseTensorSpec(shape=[None, 3], dtype=tf.float32))
    out = cf(tf.sparse.SparseTensor(indices=[[1, 2]], values=[4.0], dense_shape=[2, 3]))
    return str(cf.structured_input_signature), repr(cf.structured_outputs), out


def case_pretty_printed_signatures_of_ragged_traces(tf):
    @tf.function
    def total(x):
        return tf.reduce_sum(x.values)
    total.get_concrete_function(
        tf.RaggedTensorSpec(shape=[None, None], dtype=tf.float32, ragged_rank=1))
    return total.pretty_printed_concrete_signatures()


def case_ragged_and_dense_in_a_nested_argument(tf):
    @tf.function
    def combine(pair):
        print("tracing")
        return tf.reduce_sum(pair["ragged"].values) + tf.reduce_sum(pair["dense"])
    a = combine({"ragged": _rt(tf, [[1.0], [2.0]]), "dense": tf.constant([1.0, 2.0])})
    b = combine({"ragged": _rt(tf, [[3.0, 4.0], []]), "dense": tf.constant([5.0, 6.0])})
    return a, b, combine.experimental_get_tracing_count()


def case_gradient_through_ragged_argument(tf):
    w = tf.Variable(2.0)

    @tf.function
    def loss(x):
        return tf.reduce_sum(x.values * w)
    rt = _rt(tf, [[1.0, 2.0], [3.0]])
    with tf.GradientTape() as tape:
        y = loss(rt)
    return y, tape.gradient(y, w)


def case_gradient_with_respect_to_ragged_values(tf):
    @tf.function
    def loss(x):
        return tf.reduce_sum(x.values * x.values)
    values = tf.constant([1.0, 2.0, 3.0])
    with tf.GradientTape() as tape:
        tape.watch(values)
        rt = tf.RaggedTensor.from_row_splits(values, [0, 2, 3])
        y = loss(rt)
    return y, tape.gradient(y, values)




def case_sparse_returned_from_function(tf):
    @tf.function
    def doubled(s):
        return tf.sparse.SparseTensor(s.indices, s.values * 2.0, s.dense_shape)
    a = tf.sparse.SparseTensor(indices=[[0, 0], [1, 2]], values=[1.0, 2.0], dense_shape=[3, 4])
    out = doubled(a)
    return type(out).__name__, out.indices, out.values, out.dense_shape


def case_concrete_function_returning_sparse(tf):
    @tf.function
    def doubled(s):
        return tf.sparse.SparseTensor(s.indices, s.values * 2.0, s.dense_shape)
    cf = doubled.get_concrete_function(tf.SparseTensorSpec(shape=[None, 4], dtype=tf.float32))
    out = cf(tf.sparse.SparseTensor(indices=[[2, 3]], values=[5.0], dense_shape=[3, 4]))
    return (str(cf.structured_outputs), doubled.pretty_printed_concrete_signatures(),
            out.indices, out.values)


def case_reduce_retracing_relaxes_ragged_rows(tf):
    @tf.function(reduce_retracing=True)
    def total(x):
        return tf.reduce_sum(x.values)
    out = [total(_rt(tf, [[1.0]] * n)) for n in (2, 3, 4, 5)]
    return out, total.experimental_get_tracing_count()


def case_reduce_retracing_relaxes_sparse_shape(tf):
    @tf.function(reduce_retracing=True)
    def total(s):
        return tf.reduce_sum(s.values)
    out = [total(tf.sparse.SparseTensor([[0, 0]], [float(n)], [n, 4])) for n in (2, 3, 4, 5)]
    return out, total.experimental_get_tracing_count(), total.pretty_printed_concrete_signatures()


def case_pretty_printed_signatures_of_call_traces(tf):
    @tf.function
    def scaled(x):
        return x * 2.0
    scaled(_rt(tf, [[1.0, 2.0], [3.0]]))
    scaled(_rt(tf, [[[1.0]]]))
    return scaled.pretty_printed_concrete_signatures()


def case_concrete_function_inputs_of_a_ragged_spec(tf):
    @tf.function
    def total(x):
        return tf.reduce_sum(x.values)
    cf = total.get_concrete_function(
        tf.RaggedTensorSpec(shape=[None, None], dtype=tf.float32, ragged_rank=1))
    return [repr(t) for t in cf.inputs], [repr(t) for t in cf.outputs]


def case_ragged_with_uniform_inner_dimension(tf):
    @tf.function
    def inner_totals(x):
        print("tracing with", x)
        return tf.reduce_sum(x.flat_values, axis=0)
    rt = tf.RaggedTensor.from_row_splits(tf.ones([3, 2]), [0, 1, 3])
    other = tf.RaggedTensor.from_row_splits(tf.ones([4, 2]), [0, 4, 4])
    return inner_totals(rt), inner_totals(other), inner_totals.experimental_get_tracing_count()


def case_ragged_with_int32_row_splits_retraces(tf):
    @tf.function
    def count(x):
        return tf.size(x.flat_values)
    count(tf.ragged.constant([[1.0], [2.0, 3.0]]))
    count(tf.ragged.constant([[1.0], [2.0, 3.0]], row_splits_dtype=tf.int32))
    return count.experimental_get_tracing_count(), count.pretty_printed_concrete_signatures()


def case_ragged_signature_with_known_rows_refuses_other_rows(tf):
    @tf.function(input_signature=[tf.RaggedTensorSpec(shape=[2, None], dtype=tf.float32,
                                                      ragged_rank=1)])
    def f(x):
        return x.values
    f(_rt(tf, [[1.0], [2.0]]))
    return f(_rt(tf, [[1.0], [2.0], [3.0]]))


def case_dense_signature_refuses_a_ragged_tensor(tf):
    @tf.function(input_signature=[tf.TensorSpec([None, None], tf.float32)])
    def f(x):
        return x
    return f(_rt(tf, [[1.0], [2.0, 3.0]]))


def case_concrete_function_from_ragged_rank_two_spec(tf):
    @tf.function
    def total(x):
        print("tracing with", x)
        return tf.reduce_sum(x.flat_values)
    cf = total.get_concrete_function(
        tf.RaggedTensorSpec(shape=[None, None, None], dtype=tf.float32, ragged_rank=2))
    return (str(cf.structured_input_signature), [repr(t) for t in cf.inputs],
            cf(_rt(tf, [[[1.0, 2.0]], [[3.0], []]])))


def case_nested_input_signature_with_ragged_and_dense(tf):
    @tf.function(input_signature=[[tf.RaggedTensorSpec(shape=[None, None], dtype=tf.float32,
                                                       ragged_rank=1),
                                   tf.TensorSpec([None], tf.float32)]])
    def f(pair):
        print("tracing with", pair)
        return tf.reduce_sum(pair[0].values) + tf.reduce_sum(pair[1])
    a = f([_rt(tf, [[1.0], [2.0, 3.0]]), tf.constant([1.0])])
    b = f([_rt(tf, [[4.0]]), tf.constant([1.0, 1.0])])
    cf = f.get_concrete_function()
    return a, b, f.experimental_get_tracing_count(), str(cf.structured_input_signature)


def case_concrete_function_from_example_ragged(tf):
    @tf.function
    def total(x):
        return tf.reduce_sum(x.values)
    cf = total.get_concrete_function(_rt(tf, [[1.0, 2.0], [3.0]]))
    return (str(cf.structured_input_signature), cf(_rt(tf, [[5.0], [6.0, 7.0]])),
            total.experimental_get_tracing_count())


def case_concrete_function_from_example_sparse(tf):
    @tf.function
    def total(s):
        return tf.reduce_sum(s.values)
    a = tf.sparse.SparseTensor(indices=[[0, 0]], values=[1.0], dense_shape=[2, 2])
    cf = total.get_concrete_function(a)
    return str(cf.structured_input_signature), cf(a), total.pretty_printed_concrete_signatures()


def case_concrete_function_sparse_result_shape_fixed_by_a_dense_operand(tf):
    @tf.function
    def shifted(s):
        return tf.sparse.to_dense(s) + tf.ones([2, 3])
    cf = shifted.get_concrete_function(tf.SparseTensorSpec(shape=[2, 3], dtype=tf.float32))
    return repr(cf.structured_outputs), cf(tf.sparse.SparseTensor([[1, 2]], [5.0], [2, 3]))


def case_gradient_with_respect_to_sparse_values(tf):
    @tf.function
    def loss(s):
        return tf.reduce_sum(tf.sparse.to_dense(s) ** 2)
    values = tf.constant([1.0, -2.0])
    with tf.GradientTape() as tape:
        tape.watch(values)
        y = loss(tf.sparse.SparseTensor([[0, 1], [1, 0]], values, [2, 2]))
    return y, tape.gradient(y, values)


def case_gradient_through_sparse_dense_matmul_in_function(tf):
    w = tf.Variable([[1.0], [2.0], [3.0]])

    @tf.function(input_signature=[tf.SparseTensorSpec(shape=[None, 3], dtype=tf.float32)])
    def predict(s):
        return tf.sparse.sparse_dense_matmul(s, w)
    s = tf.sparse.SparseTensor([[0, 0], [1, 2]], [2.0, 1.0], [2, 3])
    with tf.GradientTape() as tape:
        y = tf.reduce_sum(predict(s))
    return y, tape.gradient(y, w), predict.experimental_get_tracing_count()


def _ops(graph):
    return [(op.name, op.type) for op in graph.get_operations()]


def case_graph_of_a_ragged_spec(tf):
    @tf.function
    def scaled(x):
        return x * 3.0
    cf = scaled.get_concrete_function(
        tf.RaggedTensorSpec(shape=[None, None], dtype=tf.float32, ragged_rank=1))
    g = cf.graph
    return (_ops(g), [repr(t) for t in g.inputs], [repr(t) for t in g.outputs],
            [n.op for n in g.as_graph_def().node])


def case_graph_of_a_sparse_spec(tf):
    @tf.function
    def stats(s):
        return tf.reduce_sum(s.values), tf.reduce_max(s.values, axis=0), tf.argmax(s.values)
    g = stats.get_concrete_function(tf.SparseTensorSpec(shape=[None, 3], dtype=tf.float32)).graph
    consts = [repr(op.outputs[0]) for op in g.get_operations() if op.type == "Const"]
    return _ops(g), consts, [repr(t) for t in g.inputs]


def case_graph_reduction_axis_given_as_a_list(tf):
    @tf.function
    def total(x):
        return tf.reduce_sum(x.values, axis=[0])
    g = total.get_concrete_function(
        tf.RaggedTensorSpec(shape=[None, None], dtype=tf.float32, ragged_rank=1)).graph
    return [repr(op.outputs[0]) for op in g.get_operations() if op.type == "Const"]



def case_ragged_concrete_function_refuses_a_dense_tensor(tf):
    @tf.function
    def total(x):
        return tf.reduce_sum(x.values)
    cf = total.get_concrete_function(
        tf.RaggedTensorSpec(shape=[None, None], dtype=tf.float32, ragged_rank=1))
    return cf(tf.constant([[1.0, 2.0]]))


def case_ragged_concrete_function_refuses_another_dtype(tf):
    @tf.function
    def total(x):
        return tf.reduce_sum(x.values)
    cf = total.get_concrete_function(
        tf.RaggedTensorSpec(shape=[None, None], dtype=tf.float32, ragged_rank=1))
    return cf(_rt(tf, [[1, 2], [3]]))


def case_sparse_concrete_function_refuses_a_dense_tensor(tf):
    @tf.function
    def total(s):
        return tf.reduce_sum(s.values)
    cf = total.get_concrete_function(tf.SparseTensorSpec(shape=[None, 3], dtype=tf.float32))
    return cf(tf.zeros([2, 3]))


def case_concrete_function_repr_names_composite_types(tf):
    @tf.function
    def plus_one(x):
        return x + 1.0
    cf = plus_one.get_concrete_function(
        tf.RaggedTensorSpec(shape=[None, None], dtype=tf.float32, ragged_rank=1))
    text = repr(cf)
    return text[:text.rindex(" at 0x")], str(cf)


def case_ragged_input_signature_refuses_another_ragged_rank(tf):
    @tf.function(input_signature=[tf.RaggedTensorSpec(shape=[None, None], dtype=tf.float32,
                                                      ragged_rank=1)])
    def scaled(x):
        return x * 3.0
    return scaled(_rt(tf, [[[1.0]]]))
