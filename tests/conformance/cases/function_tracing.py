"""tf.function as graphs: Python side effects once per trace while graph ops run on every call,
retracing with Python scalars, strings and nested structures, concrete functions and the
operations their graphs hold, gradients through a traced call, and what a graph refuses.
Written from TensorFlow's guides "Introduction to graphs and tf.function" and "Better
performance with tf.function"."""


def case_list_append_happens_once_per_trace(tf):
    seen = []

    @tf.function
    def add_one(x):
        seen.append("traced")
        return x + 1
    out = [add_one(tf.constant(1)), add_one(tf.constant(2)), add_one(tf.constant(3))]
    out.append(add_one(tf.constant([1, 2])))
    return out, len(seen), add_one.experimental_get_tracing_count()


def case_python_counter_frozen_in_graph(tf):
    state = {"calls": 0}

    @tf.function
    def stamp(x):
        state["calls"] += 1
        return x * state["calls"]
    out = [stamp(tf.constant(10.0)) for _ in range(4)]
    return out, state["calls"]


def case_variable_updates_run_on_every_call(tf):
    counter = tf.Variable(0)

    @tf.function
    def tick(step):
        counter.assign_add(step)
        return counter.read_value()
    out = [tick(tf.constant(1)), tick(tf.constant(2)), tick(tf.constant(3))]
    return out, counter, tick.experimental_get_tracing_count()


def case_python_number_assigned_each_call(tf):
    v = tf.Variable(1.0)

    @tf.function
    def grow():
        v.assign_add(0.5)
        v.assign_sub(0.25)
        return v * 2.0
    return [grow(), grow(), grow()], v


def case_print_once_graph_ops_every_call(tf):
    calls = tf.Variable(0)

    @tf.function
    def show(x):
        print("python print:", x)
        calls.assign_add(1)
        return x
    show(tf.constant(1))
    show(tf.constant(2))
    show(tf.constant(3))
    return show.experimental_get_tracing_count(), calls


def case_python_scalars_retrace_per_value(tf):
    @tf.function
    def power(x, n):
        print("tracing n =", n)
        return x ** n
    x = tf.constant(3.0)
    out = [power(x, 2), power(x, 2), power(x, 3), power(x, 2.0), power(x, True)]
    return out, power.experimental_get_tracing_count()


def case_string_arguments_retrace_per_value(tf):
    @tf.function
    def tagged(x, mode):
        print("tracing", mode)
        if mode == "double":
            return x * 2
        return x + 100
    x = tf.constant(1)
    out = [tagged(x, "double"), tagged(x, "double"), tagged(x, "shift"), tagged(x, "double")]
    return out, tagged.experimental_get_tracing_count()


def case_string_tensors_trace_by_shape(tf):
    @tf.function
    def length(s):
        print("tracing", s)
        return tf.strings.length(s)
    out = [length(tf.constant("abc")), length(tf.constant("hello")),
           length(tf.constant(["a", "bb"]))]
    return out, length.experimental_get_tracing_count()


def case_nested_structures_trace_by_structure(tf):
    @tf.function
    def total(batch):
        print("tracing keys", sorted(batch))
        return batch["a"] + batch["b"][0] * batch["b"][1]
    one = {"a": tf.constant(1.0), "b": [tf.constant(2.0), tf.constant(3.0)]}
    two = {"a": tf.constant(5.0), "b": [tf.constant(1.0), tf.constant(1.0)]}
    three = {"a": tf.constant([1.0]), "b": [tf.constant(1.0), tf.constant(1.0)]}
    out = [total(one), total(two), total(three)]
    return out, total.experimental_get_tracing_count()


def case_same_signature_new_values_reuse_graph(tf):
    @tf.function
    def affine(x, w, b):
        return tf.matmul(x, w) + b
    x = tf.constant([[1.0, 2.0]])
    out = [affine(x, tf.constant([[1.0], [2.0]]), tf.constant([0.5])),
           affine(x * 2, tf.constant([[3.0], [-1.0]]), tf.constant([1.5]))]
    return out, affine.experimental_get_tracing_count()


def case_python_branch_on_tensor_value(tf):
    @tf.function
    def relu_like(x):
        if x > 0:
            return x
        return -x * 0.1
    out = [relu_like(tf.constant(2.0)), relu_like(tf.constant(-3.0)), relu_like(tf.constant(4.0))]
    return out, relu_like.experimental_get_tracing_count()


def case_random_ops_differ_between_calls(tf):
    @tf.function
    def noisy(x):
        return x + tf.random.uniform([3])
    x = tf.zeros([3])
    a, b = noisy(x), noisy(x)
    return bool(tf.reduce_any(a != b)), noisy.experimental_get_tracing_count()


def case_numpy_inside_function_is_refused(tf):
    @tf.function
    def f(x):
        return x.numpy() + 1
    return f(tf.constant(1.0))


def case_concrete_function_signature_and_outputs(tf):
    @tf.function
    def scale(x, factor):
        return {"scaled": x * factor, "rows": tf.shape(x)[0]}
    cf = scale.get_concrete_function(tf.TensorSpec([None, 2], tf.float32), 3.0)
    outputs = {k: (t.shape, t.dtype) for k, t in cf.structured_outputs.items()}
    return (cf.structured_input_signature, outputs,
            cf(tf.constant([[1.0, 2.0]])), scale.experimental_get_tracing_count())


def case_concrete_function_graph_operations(tf):
    @tf.function
    def f(x):
        return x * x + 1.0
    graph = f.get_concrete_function(tf.TensorSpec([], tf.float32)).graph
    ops = graph.get_operations()
    return ([op.type for op in ops], [t.name for t in graph.inputs],
            [t.name for t in graph.outputs], [t.shape for t in graph.outputs],
            [n.op for n in graph.as_graph_def().node])


def case_concrete_function_graph_shapes_follow_an_open_dimension(tf):
    # Every op's output shape, as graph construction infers it: unknown where it follows the
    # signature's unknown batch size, known elsewhere.
    @tf.function(input_signature=[tf.TensorSpec([None, 3], tf.float32)])
    def f(x):
        h = tf.nn.relu(tf.matmul(x, tf.ones([3, 4])) + 1.0)
        flat = tf.reshape(h, [-1])
        both = tf.concat([h, h], axis=1)
        return tf.reduce_sum(h, axis=1), tf.reduce_mean(h), flat, tf.transpose(both)
    graph = f.get_concrete_function().graph
    return [(op.type, [str(t.shape) for t in op.outputs]) for op in graph.get_operations()]


def case_concrete_function_graph_shapes_of_an_image_batch(tf):
    @tf.function(input_signature=[tf.TensorSpec([None, 8, 8, 1], tf.float32)])
    def f(images):
        h = tf.nn.conv2d(images, tf.ones([3, 3, 1, 2]), 1, "VALID")
        h = tf.nn.max_pool2d(h, 2, 2, "VALID")
        return tf.reduce_max(h, axis=[1, 2])
    graph = f.get_concrete_function().graph
    return [(op.type, [str(t.shape) for t in op.outputs]) for op in graph.get_operations()
            if op.type != "Const"]


def case_concrete_function_graph_reads_variables(tf):
    v = tf.Variable(2.0)

    @tf.function
    def f(x):
        return x * v
    graph = f.get_concrete_function(tf.TensorSpec([3], tf.float32)).graph
    types = [op.type for op in graph.get_operations()]
    return (types.count("ReadVariableOp"), types.count("Mul"), len(graph.inputs),
            [t.dtype.name for t in graph.inputs])


def case_concrete_function_called_after_variable_changes(tf):
    v = tf.Variable(1.0)

    @tf.function
    def f(x):
        return x + v
    cf = f.get_concrete_function(tf.TensorSpec([], tf.float32))
    first = cf(tf.constant(1.0))
    v.assign(10.0)
    return first, cf(tf.constant(1.0)), f(tf.constant(1.0))


def case_concrete_function_with_python_argument(tf):
    @tf.function
    def f(x, label):
        return x * 2
    cf = f.get_concrete_function(tf.TensorSpec([], tf.float32), "train")
    return (cf.structured_input_signature, cf(tf.constant(2.0)),
            f.pretty_printed_concrete_signatures())


def case_gradient_through_traced_call(tf):
    w = tf.Variable([1.0, -2.0])

    @tf.function
    def loss(x):
        return tf.reduce_sum(tf.tanh(x * w) ** 2)
    grads = []
    for value in ([0.5, 0.25], [1.0, -1.0]):
        x = tf.constant(value)
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = loss(x)
        grads.append(tape.gradient(y, [x, w]))
    return grads, loss.experimental_get_tracing_count()


def case_training_step_updates_every_call(tf):
    w = tf.Variable([[0.5], [-0.5]])
    b = tf.Variable([0.0])
    traces = []

    @tf.function
    def train_step(x, y):
        traces.append(1)
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean((tf.matmul(x, w) + b - y) ** 2)
        dw, db = tape.gradient(loss, [w, b])
        w.assign_sub(0.1 * dw)
        b.assign_sub(0.1 * db)
        return loss
    x = tf.constant([[1.0, 2.0], [3.0, 4.0]])
    y = tf.constant([[1.0], [2.0]])
    losses = [train_step(x, y) for _ in range(4)]
    return losses, w, b, len(traces)


def case_input_signature_unknown_batch(tf):
    seen = []

    @tf.function(input_signature=[tf.TensorSpec([None, 2], tf.float32)])
    def row_sums(x):
        seen.append(1)
        return tf.reduce_sum(x, axis=1)
    out = [row_sums(tf.ones([1, 2])), row_sums(tf.ones([3, 2])), row_sums(tf.ones([1, 2]))]
    return out, row_sums.experimental_get_tracing_count()


def case_errors_found_while_building_the_graph(tf):
    """What TensorFlow's graph construction finds from shapes and dtypes alone is raised as
    ValueError or TypeError while tracing; eagerly the same ops raise InvalidArgumentError."""
    out = []

    @tf.function
    def first(x):
        return x[0]

    @tf.function
    def times(x, y):
        return x * y

    for call in (lambda: first(tf.constant(0.5)), lambda: first(tf.constant([[1.0], [2.0]])[0, 0]),
                 lambda: times(tf.constant(1.0, tf.float64), tf.constant(2.0)),
                 lambda: tf.constant(0.5)[0], lambda: tf.constant([1.0, 2.0])[0, 0],
                 lambda: tf.constant(1.0, tf.float64) * tf.constant(2.0)):
        try:
            out.append(call())
        except Exception as e:  # noqa: BLE001 - the class and its message are the outcome
            out.append(type(e).__name__)
    return out


def case_python_strings_returned_become_tensors(tf):
    @tf.function
    def twice(x):
        return x + x
    return [twice("a"), twice(b"b"), twice(2)]


def case_pretty_printed_signatures_list_every_call_trace(tf):
    @tf.function
    def double(x):
        return x * 2
    double(tf.constant([1.0]))
    double(tf.constant([[1.0]]))
    double(3)
    double(tf.constant([2.0]))                  # no new trace
    double.get_concrete_function(tf.TensorSpec([None], tf.float32))
    return double.pretty_printed_concrete_signatures()
