"""tf.function over ops whose values are not a function of the graph's inputs alone: random draws
(global seed, op seeds, ``tf.random.Generator``), stateless draws from a seed argument, dropout,
and ops whose output shape depends on the values (``tf.unique``, ``tf.sparse.to_dense`` of a
sparse tensor built inside). In TensorFlow they are graph ops: the Python body runs once per
trace and the op runs again on every call. Written from the guides "Introduction to graphs and
tf.function", "Random number generation" and the API docs of ``tf.random.set_seed``.

Stateful draws are compared by what TensorFlow promises about them (equal or not, shapes,
ranges), not their values: tapegrad's global stream is its own. ``tf.random.Generator`` and the
stateless ops are Philox as TensorFlow's, so their values are compared."""


def _same(a, b):
    return bool(tf_all(a == b))


def tf_all(x):
    import numpy
    return numpy.all(numpy.asarray(x))


def case_draw_in_function_traces_once(tf):
    traces = []

    @tf.function
    def noisy(x):
        traces.append(1)
        return x + tf.random.normal([4])
    a, b, c = noisy(tf.constant(1.0)), noisy(tf.constant(1.0)), noisy(tf.constant(1.0))
    return [len(traces), noisy.experimental_get_tracing_count(), a.shape, a.dtype,
            _same(a, b), _same(b, c)]


def case_uniform_ints_and_shuffle_in_function(tf):
    traces = []

    @tf.function
    def draw(x):
        traces.append(1)
        dice = tf.random.uniform([50], minval=1, maxval=7, dtype=tf.int32)
        return dice, tf.random.shuffle(x)
    x = tf.range(20)
    dice, perm = draw(x)
    dice2, perm2 = draw(x)
    return [len(traces), dice.dtype, bool(tf_all(dice >= 1)), bool(tf_all(dice <= 6)),
            sorted(perm.numpy().tolist()) == list(range(20)),
            sorted(perm2.numpy().tolist()) == list(range(20)), _same(dice, dice2)]


def case_global_seed_gives_each_function_the_same_sequence(tf):
    tf.random.set_seed(1234)

    @tf.function
    def f():
        return tf.random.uniform([3]), tf.random.uniform([3])

    @tf.function
    def g():
        return tf.random.uniform([3]), tf.random.uniform([3])
    f1, f2 = f(), f()
    g1 = g()
    return [_same(f1[0], f1[1]), _same(f1[0], f2[0]), _same(f1[0], g1[0]),
            _same(f1[1], g1[1])]


def case_op_seed_twins_inside_one_function(tf):
    tf.random.set_seed(5)

    @tf.function
    def twins():
        a = tf.random.uniform([3], seed=1)
        b = tf.random.uniform([3], seed=1)
        return a, b
    a1, b1 = twins()
    a2, b2 = twins()
    return [_same(a1, b1), _same(a2, b2), _same(a1, a2)]


def case_set_seed_again_between_calls(tf):
    @tf.function
    def draw():
        return tf.random.normal([3])
    tf.random.set_seed(11)
    first, second = draw(), draw()
    tf.random.set_seed(11)
    third = draw()
    return [_same(first, second), _same(first, third)]


def case_generator_draws_in_function(tf):
    g = tf.random.Generator.from_seed(1234)
    traces = []

    @tf.function
    def draw(scale):
        traces.append(1)
        return g.normal([3]) * scale, g.uniform([2], minval=0, maxval=10, dtype=tf.int32)
    out = [draw(tf.constant(1.0)), draw(tf.constant(2.0)), draw(tf.constant(3.0))]
    return [out, len(traces), g.state.numpy().tolist()]


def case_generator_in_function_matches_eager(tf):
    eager = tf.random.Generator.from_seed(77)
    traced = tf.random.Generator.from_seed(77)

    @tf.function
    def draw():
        return traced.truncated_normal([2, 2])
    e = [eager.truncated_normal([2, 2]) for _ in range(3)]
    t = [draw() for _ in range(3)]
    return [[_same(x, y) for x, y in zip(e, t)], t]


def case_stateless_from_seed_argument(tf):
    traces = []

    @tf.function
    def draw(seed):
        traces.append(1)
        return (tf.random.stateless_normal([3], seed=seed),
                tf.random.stateless_uniform([2], seed=seed, minval=0, maxval=100,
                                            dtype=tf.int32))
    out = [draw(tf.constant([1, 2])), draw(tf.constant([3, 4])), draw(tf.constant([1, 2]))]
    return [out, len(traces)]


def case_dropout_in_function(tf):
    traces = []

    @tf.function
    def drop(x):
        traces.append(1)
        return tf.nn.dropout(x, rate=0.5)
    x = tf.ones([200])
    a, b = drop(x), drop(x)
    values = sorted(set(a.numpy().tolist()) | set(b.numpy().tolist()))
    return [len(traces), values, _same(a, b)]


def case_dropout_gradient_through_traced_call(tf):
    @tf.function
    def drop(x):
        return tf.nn.dropout(x, rate=0.5) * 3.0
    x = tf.ones([100])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = drop(x)
    g = tape.gradient(y, x)
    return [sorted(set(g.numpy().tolist())), _same(g, tf.cast(y > 0, tf.float32) * 6.0)]


def case_unique_in_function(tf):
    traces = []

    @tf.function
    def uniq(x):
        traces.append(1)
        y, idx = tf.unique(x)
        return y * 10, idx, tf.size(y)
    out = [uniq(tf.constant([1, 1, 2, 3])), uniq(tf.constant([5, 6, 7, 8])),
           uniq(tf.constant([4, 4, 4, 4]))]
    return [out, len(traces), uniq.experimental_get_tracing_count()]


def case_unique_with_counts_in_function(tf):
    traces = []

    @tf.function
    def counts(x):
        traces.append(1)
        y, idx, n = tf.unique_with_counts(x)
        return y, n, tf.reduce_sum(n)
    return [counts(tf.constant([3, 1, 3, 2, 1, 3])), counts(tf.constant([9, 9, 9, 9, 9, 9])),
            len(traces)]


def case_sparse_to_dense_in_function(tf):
    traces = []

    @tf.function
    def dense(values):
        traces.append(1)
        st = tf.sparse.SparseTensor(indices=[[0, 1], [2, 0]], values=values, dense_shape=[3, 2])
        return tf.sparse.to_dense(st) * 2.0
    out = [dense(tf.constant([1.0, 2.0])), dense(tf.constant([-3.0, 4.0]))]
    return [out, len(traces)]


def case_keras_dropout_in_train_step(tf):
    tf.random.set_seed(3)
    layer = tf.keras.layers.Dropout(0.5)
    traces = []

    @tf.function
    def step(x):
        traces.append(1)
        return layer(x, training=True)
    x = tf.ones([2, 50])
    a, b = step(x), step(x)
    return [len(traces), sorted(set(a.numpy().ravel().tolist())), _same(a, b)]


def case_tracing_count_and_python_counter_with_draws(tf):
    calls = {"n": 0}

    @tf.function
    def f(x):
        calls["n"] += 1
        return x * tf.random.uniform([], minval=1.0, maxval=2.0)
    outs = [f(tf.constant(2.0)) for _ in range(4)]
    outs.append(f(tf.constant([1.0, 2.0])))
    return [calls["n"], f.experimental_get_tracing_count(),
            all(2.0 <= float(o) <= 4.0 for o in outs[:4]), outs[-1].shape]


def case_open_signature_runs_python_once_for_every_size(tf):
    runs = []

    @tf.function(input_signature=[tf.TensorSpec([None, 3], tf.float32)])
    def scaled_rows(x):
        runs.append(1)
        return tf.reduce_sum(x * 2.0, axis=1) + tf.cast(tf.shape(x)[0], tf.float32)
    out = [scaled_rows(tf.ones([n, 3])) for n in (1, 4, 2, 4)]
    return [out, len(runs), scaled_rows.experimental_get_tracing_count()]


def case_train_step_with_open_batch_and_sparse_labels(tf):
    w = tf.Variable([[0.1, -0.2, 0.3], [0.0, 0.2, -0.1]])
    b = tf.Variable([0.0, 0.1, -0.1])
    runs = []

    @tf.function(input_signature=[tf.TensorSpec([None, 2], tf.float32),
                                  tf.TensorSpec([None], tf.int32)])
    def step(x, y):
        runs.append(1)
        with tf.GradientTape() as tape:
            logits = tf.matmul(x, w) + b
            loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(y, logits))
        gw, gb = tape.gradient(loss, [w, b])
        w.assign_sub(0.5 * gw)
        b.assign_sub(0.5 * gb)
        return loss
    xs = [[[1.0, 2.0], [0.5, -1.0]], [[0.0, 1.0], [2.0, 0.0], [1.0, 1.0]], [[3.0, -1.0]]]
    ys = [[0, 2], [1, 0, 2], [1]]
    losses = [step(tf.constant(x), tf.constant(y)) for x, y in zip(xs * 2, ys * 2)]
    return [losses, w, b, len(runs)]


def case_bad_label_in_a_replayed_step_is_still_an_error(tf):
    @tf.function
    def loss(logits, labels):
        return tf.nn.sparse_softmax_cross_entropy_with_logits(labels, logits)
    ok = loss(tf.zeros([2, 3]), tf.constant([0, 2]))
    try:
        loss(tf.zeros([2, 3]), tf.constant([0, 3]))
        raised = None
    except Exception as e:       # (TensorFlow's message differs in a graph: only the class)
        raised = type(e).__name__
    return [ok, raised]


def case_ragged_signature_runs_python_once(tf):
    runs = []

    @tf.function(input_signature=[tf.RaggedTensorSpec(shape=[None, None], dtype=tf.float32)])
    def totals(rt):
        runs.append(1)
        return tf.reduce_sum(rt, axis=1) * 2.0
    out = [totals(tf.ragged.constant(rows, dtype=tf.float32))
           for rows in ([[1.0], [2.0, 3.0]], [[4.0, 5.0, 6.0]], [[], [1.0], [2.0, 2.0]])]
    return [out, len(runs)]


def case_fit_traces_a_custom_train_step(tf):
    import numpy as np
    calls = []

    class Counting(tf.keras.Model):
        def __init__(self):
            super().__init__()
            self.dense = tf.keras.layers.Dense(1, kernel_initializer="ones")

        def call(self, x):
            return self.dense(x)

        def train_step(self, data):
            calls.append(1)
            print("train_step traced")
            return super().train_step(data)
    model = Counting()
    model.compile(optimizer=tf.keras.optimizers.SGD(0.01), loss="mse", metrics=["mae"])
    x = np.linspace(-1, 1, 30, dtype=np.float32).reshape(10, 3)
    y = x.sum(axis=1, keepdims=True) * 0.5
    history = model.fit(x, y, batch_size=4, epochs=3, shuffle=False, verbose=0)
    even = model.fit(x[:8], y[:8], batch_size=4, epochs=1, shuffle=False, verbose=0)
    return [len(calls), history.history, even.history, model.evaluate(x, y, verbose=0)]
