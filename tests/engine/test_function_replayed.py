"""Engine functions a traced graph calls again on every replay (``tapegrad/replayed.py``): random
draws, dropout, ``tf.unique``, ``tf.sparse.to_dense``. Their traces replay without running
Python, each call draws anew, value-dependent shapes follow each call, a trace that read such a
shape in Python checks it, gradients through them match eager code, concrete functions list
them, and SavedModels keep them. (What TensorFlow does with the same programs is recorded in
tests/conformance/cases/function_stateful.py.)"""
import numpy as np
import pytest

import tapegrad as tf
from tapegrad.function.compiled import CALL


def _graphs(fn):
    return [g for by_shape in fn._graphs.values() for g in by_shape.values()]


def _calls(graph):
    return [node[1].op for node in graph.nodes if node[0] is CALL]


def test_a_draw_is_one_node_called_on_every_replay():
    runs = []

    @tf.function
    def noisy(x):
        runs.append(1)
        return x + tf.random.normal([3])
    outs = [noisy(tf.zeros([3])).numpy() for _ in range(4)]
    (graph,) = _graphs(noisy)
    assert graph.replayable, graph.reason
    assert _calls(graph) == ["RandomStandardNormal"]
    assert len(runs) == 1
    assert len({o.tobytes() for o in outs}) == 4          # a new draw each call


def test_seeded_draws_restart_with_set_seed_and_match_between_functions():
    def body():
        return tf.random.uniform([4]), tf.random.uniform([4], seed=9)
    f, g = tf.function(body), tf.function(body)
    tf.random.set_seed(21)
    f1, f2 = f(), f()
    g1 = g()
    tf.random.set_seed(21)
    f3 = f()
    assert np.array_equal(f1[0], g1[0]) and np.array_equal(f1[1], g1[1])
    assert np.array_equal(f1[0], f3[0]) and np.array_equal(f1[1], f3[1])
    assert not np.array_equal(f1[0], f2[0]) and not np.array_equal(f1[0], f1[1])


def test_a_generator_advances_its_state_on_each_replay_as_eager():
    eager, traced = tf.random.Generator.from_seed(5), tf.random.Generator.from_seed(5)
    draw = tf.function(lambda: traced.normal([2, 3]))
    for _ in range(3):
        np.testing.assert_array_equal(draw().numpy(), eager.normal([2, 3]).numpy())
    assert traced.state.numpy().tolist() == eager.state.numpy().tolist()
    assert all(g.replayable for g in _graphs(draw))


def test_dropout_gradient_through_a_replayed_call_is_its_mask():
    drop = tf.function(lambda x: tf.nn.dropout(x, rate=0.25) * x)
    x = tf.constant(np.linspace(1.0, 2.0, 64, dtype=np.float32))
    masks = []
    for _ in range(3):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = drop(x)
        g = tape.gradient(y, x).numpy()
        kept = y.numpy() != 0
        np.testing.assert_allclose(g[kept], 2 * x.numpy()[kept] / 0.75, rtol=1e-6)
        assert (g[~kept] == 0).all()
        masks.append(kept.tobytes())
    assert len(set(masks)) == 3
    (graph,) = _graphs(drop)
    assert graph.replayable and _calls(graph) == ["RandomUniform"]


def test_unique_sizes_follow_each_call_without_running_python():
    runs = []

    @tf.function
    def summary(x):
        runs.append(1)
        y, idx = tf.unique(x)
        return tf.size(y), tf.shape(y), tf.zeros_like(y) + 1, tf.reduce_sum(y)
    for values in ([1, 1, 2, 3], [7, 7, 7, 7], [4, 3, 2, 1]):
        got = summary(tf.constant(values))
        distinct = list(dict.fromkeys(values))
        assert int(got[0]) == len(distinct)
        assert got[1].numpy().tolist() == [len(distinct)]
        assert got[2].numpy().tolist() == [1] * len(distinct)
        assert int(got[3]) == sum(distinct)
    assert len(runs) == 1
    (graph,) = _graphs(summary)
    assert _calls(graph) == ["Unique", "Size", "Shape", "ZerosLike"]


def test_a_shape_read_in_python_is_checked_on_each_replay():
    runs = []

    @tf.function
    def padded(x):
        runs.append(1)
        y, _ = tf.unique(x)
        return tf.concat([y, tf.zeros([5 - y.shape[0]], y.dtype)], 0)
    assert padded(tf.constant([1, 2, 2])).numpy().tolist() == [1, 2, 0, 0, 0]
    assert padded(tf.constant([3, 4, 4])).numpy().tolist() == [3, 4, 0, 0, 0]
    assert len(runs) == 1                                  # same shape: the graph replays
    assert padded(tf.constant([9, 9, 9])).numpy().tolist() == [9, 0, 0, 0, 0]
    assert len(runs) == 2                                  # another shape: Python runs again
    (graph,) = _graphs(padded)
    assert graph.replayable


def test_a_shape_read_beside_a_variable_update_runs_python_each_call():
    total = tf.Variable(0)

    @tf.function
    def count(x):
        y, _ = tf.unique(x)
        total.assign_add(y.shape[0])
        return total.read_value()
    assert [int(count(tf.constant(v))) for v in ([1, 1], [1, 2], [3, 3])] == [1, 3, 4]
    (graph,) = _graphs(count)
    assert not graph.replayable and "updates variables" in graph.reason


def test_sparse_to_dense_of_a_tensor_built_inside_replays():
    dense = tf.function(lambda v: tf.sparse.to_dense(
        tf.sparse.SparseTensor([[0, 0], [1, 2]], v, [2, 3])))
    for v in ([1.0, 2.0], [-1.0, 5.0]):
        assert dense(tf.constant(v)).numpy().tolist() == [[v[0], 0, 0], [0, 0, v[1]]]
    (graph,) = _graphs(dense)
    assert graph.replayable and _calls(graph) == ["SparseToDense"]


def test_a_gradient_inside_the_body_through_a_draw_stays_right():
    """The tape inside the body differentiates through ops the draw ran unseen by the trace: the
    trace then runs Python on every call rather than keep the first call's draw."""
    @tf.function
    def grad(s):
        with tf.GradientTape() as tape:
            tape.watch(s)
            y = tf.reduce_sum(tf.random.stateless_normal([3], seed=[1, 2], stddev=s))
        return tape.gradient(y, s)
    for s in (1.0, 2.0):
        eager = tf.random.stateless_normal([3], seed=[1, 2])
        np.testing.assert_allclose(float(grad(tf.constant(s))), float(tf.reduce_sum(eager)),
                                   rtol=1e-6)


def test_concrete_function_lists_the_calls_with_unknown_value_dependent_shapes():
    @tf.function
    def f(x):
        y, idx = tf.unique(x)
        return y * 2, tf.random.uniform([2])
    ops = f.get_concrete_function(tf.constant([1, 2, 2])).graph.get_operations()
    by_type = {op.type: op for op in ops}
    assert [o.shape.as_list() for o in by_type["Unique"].outputs] == [[None], [None]]
    assert by_type["Mul"].outputs[0].shape.as_list() == [None]
    assert by_type["RandomUniform"].outputs[0].shape.as_list() == [2]


def test_saved_model_keeps_draws_and_value_dependent_shapes(tmp_path):
    class Noisy(tf.Module):
        def __init__(self):
            self.w = tf.Variable(2.0)

        @tf.function(input_signature=[tf.TensorSpec([4], tf.float32)])
        def noisy(self, x):
            return x * self.w + tf.random.normal([4], seed=3) * 0.0 + \
                tf.cast(tf.random.uniform([4], seed=4) < 2.0, tf.float32)

        @tf.function(input_signature=[tf.TensorSpec([4], tf.int32)])
        def distinct(self, x):
            y, _ = tf.unique(x)
            return y, tf.size(y)
    m = Noisy()
    tf.saved_model.save(m, str(tmp_path))
    loaded = tf.saved_model.load(str(tmp_path))
    assert loaded.noisy(tf.ones([4])).numpy().tolist() == [3.0] * 4
    y, n = loaded.distinct(tf.constant([5, 5, 6, 5]))
    assert y.numpy().tolist() == [5, 6] and int(n) == 2


def test_a_generator_inside_a_saved_function_is_refused_by_name(tmp_path):
    class Drawing(tf.Module):
        def __init__(self):
            self.g = tf.random.Generator.from_seed(1)

        @tf.function(input_signature=[])
        def draw(self):
            return self.g.normal([2])
    with pytest.raises(ValueError, match="StatefulStandardNormalV2"):
        tf.saved_model.save(Drawing(), str(tmp_path))


def test_a_traced_train_step_with_dropout_replays_and_learns():
    """The guides' custom training loop: ``@tf.function`` around a step whose model drops out."""
    tf.random.set_seed(0)
    model = tf.keras.Sequential([tf.keras.layers.Dense(16, activation="relu"),
                                 tf.keras.layers.Dropout(0.2), tf.keras.layers.Dense(1)])
    opt = tf.keras.optimizers.SGD(0.05)
    runs = []

    @tf.function
    def train_step(x, y):
        runs.append(1)
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean((model(x, training=True) - y) ** 2)
        grads = tape.gradient(loss, model.trainable_variables)
        opt.apply_gradients(zip(grads, model.trainable_variables))
        return loss
    x = np.random.default_rng(0).normal(size=(32, 4)).astype(np.float32)
    y = x.sum(axis=1, keepdims=True)
    losses = [float(train_step(x, y)) for _ in range(60)]
    assert len(runs) <= 2                  # (the first call traces twice: it makes variables)
    assert all(g.replayable for g in _graphs(train_step))
    assert "RandomUniform" in _calls(_graphs(train_step)[0])
    assert np.mean(losses[-10:]) < 0.5 * np.mean(losses[:10])


@pytest.mark.parametrize("optimizer", ["sgd", "adam", "rmsprop"])
def test_a_traced_train_step_updates_weights_as_eager_steps_do(optimizer):
    """The optimizer's update is one node of the trace (``Optimizer.apply``): the weights after
    replayed steps are those of the same steps run eagerly."""
    x = np.random.default_rng(1).normal(size=(16, 3)).astype(np.float32)
    y = (x @ np.array([[1.0], [-2.0], [0.5]], np.float32)) + 0.3
    weights = []
    for traced in (False, True):
        tf.keras.utils.set_random_seed(4)
        model = tf.keras.Sequential([tf.keras.Input((3,)), tf.keras.layers.Dense(4),
                                     tf.keras.layers.Dense(1)])
        opt = tf.keras.optimizers.get(optimizer)

        def step(x, y):
            with tf.GradientTape() as tape:
                loss = tf.reduce_mean((model(x) - y) ** 2)
            grads = tape.gradient(loss, model.trainable_variables)
            opt.apply_gradients(zip(grads, model.trainable_variables))
            return loss
        run = tf.function(step) if traced else step
        for _ in range(5):
            run(tf.constant(x), tf.constant(y))
        weights.append([v.numpy() for v in model.trainable_variables] +
                       [int(opt.iterations.numpy())])
        if traced:
            assert all(g.replayable for g in _graphs(run))
    for eager, traced in zip(*weights):
        np.testing.assert_allclose(traced, eager, rtol=1e-6, atol=1e-7)


def test_an_embedding_gradient_of_indexed_slices_keeps_the_step_right():
    table = tf.Variable(np.arange(12, dtype=np.float32).reshape(6, 2))
    opt = tf.keras.optimizers.SGD(0.5)

    @tf.function
    def step(ids):
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum(tf.gather(table, ids))
        opt.apply_gradients([(tape.gradient(loss, table), table)])
    step(tf.constant([0, 1]))
    step(tf.constant([4, 5]))
    want = np.arange(12, dtype=np.float32).reshape(6, 2)
    want[[0, 1, 4, 5]] -= 0.5
    np.testing.assert_array_equal(table.numpy(), want)


def test_a_saved_graph_that_read_a_value_dependent_shape_says_so_when_it_changes(tmp_path):
    class Padded(tf.Module):
        @tf.function(input_signature=[tf.TensorSpec([3], tf.int32)])
        def pad(self, x):
            y, _ = tf.unique(x)
            return tf.concat([y, tf.zeros([4 - y.shape[0]], tf.int32)], 0)
    m = Padded()
    m.pad(tf.constant([1, 2, 2]))
    tf.saved_model.save(m, str(tmp_path))
    loaded = tf.saved_model.load(str(tmp_path))
    assert loaded.pad(tf.constant([7, 7, 7])).numpy().tolist() == [7, 0, 0, 0]   # (traced on zeros)
    with pytest.raises(tf.errors.InvalidArgumentError, match="another shape"):
        loaded.pad(tf.constant([5, 6, 7]))


def test_tf_print_is_a_node_that_prints_on_every_replay(capsys):
    runs = []

    @tf.function
    def show(x):
        runs.append(1)
        tf.print("x:", x, {"twice": x * 2})
        return x + 1
    for v in (1, 2, 3):
        show(tf.constant(v))
    assert capsys.readouterr().out == "x: 1 {'twice': 2}\nx: 2 {'twice': 4}\nx: 3 {'twice': 6}\n"
    assert len(runs) == 1
    (graph,) = _graphs(show)
    assert graph.replayable and _calls(graph) == ["PrintV2"]


def test_a_new_shape_of_a_relaxed_signature_replays_and_prints_nothing(capsys):
    """With an ``input_signature`` leaving a dimension open, a call with a new size records its
    graph by running Python with prints hidden; an argument printed there is the placeholder,
    read without its values, so that graph replays too."""
    @tf.function(input_signature=(tf.TensorSpec([None], tf.int32),))
    def step(x):
        print("tracing", x)
        return x * 2
    for values in ([1, 2], [3, 4, 5], [6, 7, 8]):
        assert step(tf.constant(values)).numpy().tolist() == [2 * v for v in values]
    assert capsys.readouterr().out == 'tracing Tensor("x:0", shape=(None,), dtype=int32)\n'
    assert all(g.replayable for g in _graphs(step))


def test_ragged_reductions_replay_over_other_row_partitions():
    runs = []

    @tf.function(input_signature=[tf.RaggedTensorSpec(shape=[None, None], dtype=tf.float32)])
    def row_means(rt):
        runs.append(1)
        return tf.reduce_mean(rt, axis=1), tf.reduce_max(rt, axis=0)
    for rows in ([[1.0, 3.0], [5.0]], [[2.0], [4.0, 6.0, 8.0], []], [[1.0, 2.0], [3.0, 4.0]]):
        means, col_max = row_means(tf.ragged.constant(rows, dtype=tf.float32))
        eager = tf.reduce_mean(tf.ragged.constant(rows, dtype=tf.float32), axis=1)
        np.testing.assert_array_equal(means.numpy(), eager.numpy())
        width = max(len(r) for r in rows)
        assert col_max.numpy().tolist() == [max(r[i] for r in rows if len(r) > i)
                                            for i in range(width)]
    assert len(runs) == 1
    assert all(g.replayable for g in _graphs(row_means))


def test_dropout_of_a_value_dependent_shape_follows_each_call():
    runs = []

    @tf.function
    def drop_distinct(x):
        runs.append(1)
        y, _ = tf.unique(x)
        return tf.nn.dropout(tf.cast(y, tf.float32), rate=0.5)
    for values, n in (([1, 1, 2], 2), ([3, 4, 5], 3), ([6, 6, 6], 1)):
        assert drop_distinct(tf.constant(values)).shape == (n,)
    assert len(runs) == 1


def test_a_shape_read_beside_a_draw_or_a_print_runs_python_each_call(capsys):
    """A replay that finds another value-dependent shape gives way to the Python body; a draw or
    a print before that point would then run twice, so such a trace runs Python every call."""
    @tf.function
    def f(x):
        tf.print("call")
        y, _ = tf.unique(x)
        return tf.zeros([y.shape[0]]) + tf.random.uniform([])
    for values, n in (([1, 1], 1), ([1, 2], 2)):
        assert f(tf.constant(values)).shape == (n,)
    assert capsys.readouterr().out == "call\ncall\n"
    (graph,) = _graphs(f)
    assert not graph.replayable and "draws or prints" in graph.reason


def test_a_traced_conv_step_keeps_the_forwards_windows_and_winners(monkeypatch):
    """Conv2D's filter gradient and MaxPool's gradient reuse what their forwards kept while
    something records (``Primitive.hands_on``): a trace keeps those rules as nodes and its
    replays keep, so a replayed step gathers each convolution's windows once and searches each
    pool's windows once, as an eager step does."""
    conv_ops = __import__("tapegrad.ops.conv_ops", fromlist=["_im2col_numpy"])
    calls = {"im2col": 0, "pool": 0}
    im2col, pool = conv_ops._im2col_numpy, conv_ops.MAX_POOL.impl

    def counting_im2col(*a, **k):
        calls["im2col"] += 1
        return im2col(*a, **k)

    def counting_pool(*a, **k):
        calls["pool"] += 1
        return pool(*a, **k)
    monkeypatch.setattr(conv_ops, "_im2col_numpy", counting_im2col)
    monkeypatch.setattr(conv_ops.MAX_POOL, "impl", counting_pool)
    w = tf.Variable(np.random.default_rng(0).normal(size=(3, 3, 1, 4)).astype(np.float32))
    x = tf.constant(np.random.default_rng(1).random((2, 8, 8, 1), dtype=np.float32))

    def step():
        with tf.GradientTape() as tape:
            h = tf.nn.max_pool2d(tf.nn.relu(tf.nn.conv2d(x, w, 1, "VALID")), 2, 2, "VALID")
            loss = tf.reduce_sum(h * h)
        return tape.gradient(loss, w)
    eager = step()
    traced = tf.function(step)
    traced()                                       # (the trace)
    calls.update(im2col=0, pool=0)
    got = traced()
    np.testing.assert_array_equal(got.numpy(), eager.numpy())
    assert calls == {"im2col": 1, "pool": 1}, calls
