"""tf.function's recorded graphs: later calls replay the trace without running Python, give what
eager code gives (values and gradients, checked against finite differences too), read variables
afresh, and fall back to the Python body where a trace depended on values."""
import numpy as np
import pytest

import tapegrad as tf


def _graphs(fn):
    return [g for by_shape in fn._graphs.values() for g in by_shape.values()]


def _finite_difference(f, x, eps=1e-3):
    x = np.asarray(x, np.float64)
    out = np.zeros_like(x)
    for i in np.ndindex(x.shape):
        up, down = x.copy(), x.copy()
        up[i] += eps
        down[i] -= eps
        out[i] = (f(up) - f(down)) / (2 * eps)
    return out


def _loss(x, w):
    return tf.reduce_sum(tf.tanh(tf.matmul(x, w)) ** 2) + tf.reduce_mean(tf.exp(-x))


def test_later_calls_replay_without_running_python():
    runs = []

    @tf.function
    def f(x):
        runs.append(1)
        return x * x + 1.0
    values = [float(f(tf.constant(v))) for v in (1.0, 2.0, 3.0)]
    assert values == [2.0, 5.0, 10.0]
    assert len(runs) == 1
    (graph,) = _graphs(f)
    assert graph.replayable and graph.reason is None


def test_gradient_through_replayed_call_matches_eager_and_finite_differences():
    w = tf.Variable(np.array([[0.3, -0.2], [0.1, 0.4], [-0.5, 0.2]], np.float32))
    traced = tf.function(lambda x: _loss(x, w))
    rng = np.random.default_rng(0)
    for _ in range(3):                     # the first call traces, the others replay
        x = tf.constant(rng.normal(size=(2, 3)).astype(np.float32))
        results = []
        for fn in (traced, lambda x: _loss(x, w)):
            with tf.GradientTape() as tape:
                tape.watch(x)
                y = fn(x)
            results.append(tape.gradient(y, [x, w]))
        (gx, gw), (ex, ew) = results
        np.testing.assert_allclose(gx.numpy(), ex.numpy(), rtol=1e-6, atol=1e-6)
        np.testing.assert_allclose(gw.numpy(), ew.numpy(), rtol=1e-6, atol=1e-6)
        numeric = _finite_difference(
            lambda a: float(_loss(tf.constant(a), tf.constant(w.numpy().astype(np.float64)))),
            x.numpy())
        np.testing.assert_allclose(gx.numpy(), numeric, rtol=2e-3, atol=2e-3)
    assert traced.experimental_get_tracing_count() == 1
    assert all(g.replayable for g in _graphs(traced))


def test_second_order_gradient_through_replayed_call():
    @tf.function
    def cube(x):
        return x * x * x
    for value in (1.0, 2.0, -3.0):
        x = tf.constant(value)
        with tf.GradientTape() as outer:
            outer.watch(x)
            with tf.GradientTape() as inner:
                inner.watch(x)
                y = cube(x)
            dy = inner.gradient(y, x)
        assert float(dy) == pytest.approx(3 * value ** 2)
        assert float(outer.gradient(dy, x)) == pytest.approx(6 * value)


def test_training_step_inside_function_matches_eager():
    def make():
        w = tf.Variable([[0.5], [-0.25]])
        b = tf.Variable([0.1])

        def step(x, y):
            with tf.GradientTape() as tape:
                loss = tf.reduce_mean(tf.square(tf.matmul(x, w) + b - y))
            dw, db = tape.gradient(loss, [w, b])
            w.assign_sub(0.05 * dw)
            b.assign_sub(0.05 * db)
            return loss
        return step, w, b
    eager, ew, eb = make()
    traced, tw, tb = make()
    traced = tf.function(traced)
    x = tf.constant([[1.0, 2.0], [0.5, -1.0], [2.0, 0.0]])
    y = tf.constant([[1.0], [0.0], [2.0]])
    for _ in range(5):
        np.testing.assert_allclose(float(traced(x, y)), float(eager(x, y)), rtol=1e-6)
    np.testing.assert_allclose(tw.numpy(), ew.numpy(), rtol=1e-6)
    np.testing.assert_allclose(tb.numpy(), eb.numpy(), rtol=1e-6)
    assert all(g.replayable for g in _graphs(traced))


def test_variables_are_read_at_each_call_not_baked():
    v = tf.Variable(1.0)
    f = tf.function(lambda x: x + v)
    assert float(f(tf.constant(1.0))) == 2.0
    v.assign(5.0)
    assert float(f(tf.constant(1.0))) == 6.0


def test_variable_arguments_are_inputs_of_the_graph():
    @tf.function
    def bump(v):
        v.assign_add(1.0)
        return v * 2.0
    a, b = tf.Variable(1.0), tf.Variable(10.0)
    assert float(bump(a)) == 4.0
    assert float(bump(b)) == 22.0        # the same trace, the other variable
    assert (float(a), float(b)) == (2.0, 11.0)
    assert bump.experimental_get_tracing_count() == 1


@pytest.mark.parametrize("body, reason", [
    (lambda x: x if x > 0 else -x, "bool()"),
    (lambda x: x + float(x), "value was read"),
])
def test_value_dependent_traces_run_python_on_every_call(body, reason, capsys):
    f = tf.function(body)
    first = f(tf.constant(2.0))
    second = f(tf.constant(-3.0))
    eager_second = body(tf.constant(-3.0))
    (graph,) = _graphs(f)
    assert not graph.replayable and reason in graph.reason
    assert float(second) == float(eager_second)
    assert float(first) == float(body(tf.constant(2.0)))
    capsys.readouterr()


_ONE_TO_FOUR = tf.constant([1, 2, 3, 4])


@pytest.mark.parametrize("body", [
    lambda x: tf.slice(_ONE_TO_FOUR, [tf.reduce_min(x)], [1]),
    lambda x: tf.tile(tf.constant([1]), [tf.reduce_max(x)]),
    lambda x: tf.fill([tf.reduce_max(x)], 1),
    lambda x: tf.reshape(tf.range(6), [tf.reduce_min(x) + 1, -1]),
    lambda x: tf.roll(_ONE_TO_FOUR, tf.reduce_min(x), 0),
    lambda x: _ONE_TO_FOUR[tf.reduce_min(x):],
    lambda x: tf.broadcast_to(tf.constant(1), [tf.reduce_max(x)]),
    lambda x: tf.range(tf.reduce_max(x)),
    lambda x: tf.math.top_k(_ONE_TO_FOUR, k=tf.reduce_min(x)).values,
    lambda x: tf.pad(tf.constant([1]), [[0, tf.reduce_min(x)]]),
], ids=["slice", "tile", "fill", "reshape", "roll", "getitem", "broadcast_to", "range", "top_k",
        "pad"])
def test_op_settings_taken_from_traced_values_follow_each_call(body):
    """An op whose settings (a slice's begin, tile's multiples, a shape) come from a value the
    trace computed must not keep the first call's settings: the engine reads that value in
    Python before binding the primitive, and the trace is then run as Python on every call."""
    f = tf.function(body)
    for x in ([1, 2], [2, 3], [1, 3]):
        got, want = f(tf.constant(x)), body(tf.constant(x))
        assert got.shape == want.shape and got.numpy().tolist() == want.numpy().tolist(), x


def test_shape_and_dtype_reads_keep_a_trace_replayable():
    w = tf.Variable(tf.ones([3, 2]))

    @tf.function
    def f(x):
        return tf.reduce_sum(tf.matmul(x, w) + tf.zeros([x.shape[0], 1]), axis=1)
    x = tf.ones([4, 3])
    np.testing.assert_allclose(f(x).numpy(), f(x * 2).numpy() / 2)
    (graph,) = _graphs(f)
    assert graph.replayable, graph.reason


def test_numpy_inside_trace_is_refused_as_in_tensorflow():
    @tf.function
    def f(x):
        return (x * 2).numpy()
    with pytest.raises(AttributeError, match="'SymbolicTensor' object has no attribute 'numpy'"):
        f(tf.constant(1.0))
    captured = tf.constant(3.0)
    g = tf.function(lambda x: x + captured.numpy())   # an eager tensor from outside: allowed
    assert float(g(tf.constant(1.0))) == 4.0


def test_unknown_dimensions_get_a_graph_per_concrete_shape():
    runs = []

    @tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
    def f(x):
        runs.append(1)
        return tf.reduce_sum(tf.reshape(x, [-1, 1]), axis=0)
    for n in (1, 2, 1, 2, 3):
        assert float(f(tf.ones([n]))[0]) == n
    assert f.experimental_get_tracing_count() == 1
    assert len(runs) == 3                 # one run per new concrete shape, then replays


def test_aliased_arguments_do_not_replay():
    f = tf.function(lambda a, b: a - b)
    x = tf.constant(1.0)
    assert float(f(x, x)) == 0.0
    assert float(f(x, tf.constant(3.0))) == -2.0


def test_concrete_function_graph_lists_operations():
    v = tf.Variable(2.0)

    @tf.function
    def f(x):
        v.assign_add(1.0)
        return x * v + 1.0
    cf = f.get_concrete_function(tf.TensorSpec([None], tf.float32))
    ops = cf.graph.get_operations()
    assert [op.type for op in ops] == [
        "Placeholder", "Placeholder", "Const", "AssignAddVariableOp", "ReadVariableOp", "Mul",
        "Const", "AddV2", "Identity"]
    assert [n.op for n in cf.graph.as_graph_def().node] == [op.type for op in ops]
    assert [t.name for t in cf.graph.outputs] == ["Identity:0"]
    assert float(v) == 2.0                # the trace's assignment was undone
    np.testing.assert_allclose(cf(tf.constant([1.0, 2.0])).numpy(), [4.0, 7.0])
    assert float(v) == 3.0
    np.testing.assert_allclose(cf(tf.constant([1.0, 2.0])).numpy(), [5.0, 9.0])
    assert float(v) == 4.0


def test_python_scalar_and_string_arguments():
    @tf.function
    def f(x, n, mode):
        return x * n if mode == "mul" else x + n
    x = tf.constant(3.0)
    assert [float(f(x, 2, "mul")), float(f(x, 2, "add")), float(f(x, 2, "mul"))] == [6, 5, 6]
    assert f.experimental_get_tracing_count() == 2
    cf = f.get_concrete_function(tf.TensorSpec([], tf.float32), 4, "add")
    assert float(cf(tf.constant(1.0))) == 5.0


def test_tf_gradients_inside_function_replays():
    @tf.function
    def slope(x):
        y = x * x * x
        return tf.gradients(y, x)[0]
    assert [float(slope(tf.constant(v))) for v in (2.0, 3.0, -1.0)] == [12.0, 27.0, 3.0]
    assert all(g.replayable for g in _graphs(slope))

    @tf.function
    def curvature(x):
        return tf.hessians(tf.reduce_sum(x ** 3), x)[0]
    np.testing.assert_allclose(curvature(tf.constant([3.0, 4.0])).numpy(), [[18, 0], [0, 24]])
    np.testing.assert_allclose(curvature(tf.constant([1.0, 2.0])).numpy(), [[6, 0], [0, 12]])


def test_keras_layers_inside_function_replay_their_forward_pass():
    model = tf.keras.Sequential([tf.keras.layers.Dense(3, activation="relu"),
                                 tf.keras.layers.Dense(1)])
    f = tf.function(lambda x: model(x))
    rng = np.random.default_rng(1)
    for _ in range(3):
        x = tf.constant(rng.normal(size=(4, 2)).astype(np.float32))
        np.testing.assert_allclose(f(x).numpy(), model(x).numpy(), rtol=1e-6)
    assert all(g.replayable for g in _graphs(f))
