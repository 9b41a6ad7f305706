"""Traced functions replayed by their compiled program (function/compiled.py) while nothing
records, with the reverse rules of a gradient taken inside traced through to primitives
(function/graph.py): the same numbers as eager, bit for bit, eager's errors and variable updates,
and a tape around the call still differentiates through the graph."""
import numpy as np
import pytest

import tapegrad as tf
from tapegrad.function import compiled


def _graph(fn):
    (graph,) = [g for by_shape in fn._graphs.values() for g in by_shape.values()]
    return graph


def _mlp(seed, loss_kind):
    rng = np.random.default_rng(seed)
    sizes = (3, 8, 8, 2)
    variables = []
    for a, b in zip(sizes[:-1], sizes[1:]):
        variables += [tf.Variable(rng.uniform(-0.5, 0.5, (a, b)).astype(np.float32)),
                      tf.Variable(rng.uniform(-0.1, 0.1, b).astype(np.float32))]
    x = tf.constant(rng.standard_normal((16, 3)).astype(np.float32))
    y = tf.constant(rng.standard_normal((16, 2)).astype(np.float32))

    def step():
        with tf.GradientTape() as tape:
            h = x
            for i in range(0, len(variables), 2):
                h = tf.matmul(h, variables[i]) + variables[i + 1]
                if i + 2 < len(variables):
                    h = tf.tanh(h) if loss_kind == "mse" else tf.nn.sigmoid(h)
            if loss_kind == "mse":
                loss = tf.reduce_mean(tf.square(h - y))
            else:
                loss = tf.reduce_mean(tf.nn.softmax_cross_entropy_with_logits(
                    labels=tf.nn.softmax(y), logits=h))
        grads = tape.gradient(loss, variables)
        for v, g in zip(variables, grads):
            v.assign_sub(0.1 * g)
        return loss
    return step, variables


@pytest.mark.parametrize("loss_kind", ["mse", "xent"])
def test_compiled_step_gives_eager_numbers_exactly(loss_kind):
    runs = []
    for traced in (False, True):
        step, variables = _mlp(3, loss_kind)
        fn = tf.function(step) if traced else step
        losses = [fn().numpy() for _ in range(5)]
        runs.append((losses, [v.numpy() for v in variables]))
        if traced:
            graph = _graph(fn)
            assert isinstance(graph._program, compiled.Program)
    (eager_losses, eager_vars), (losses, traced_vars) = runs
    np.testing.assert_array_equal(losses, eager_losses)
    for got, want in zip(traced_vars, eager_vars):
        np.testing.assert_array_equal(got, want)


def test_reverse_rules_become_the_graphs_primitives():
    step, _ = _mlp(4, "mse")
    fn = tf.function(step)
    fn()
    graph = _graph(fn)
    kinds = {node[0] for node in graph.nodes}
    assert compiled.VJP not in kinds
    names = [node[1].name for node in graph.nodes if node[0] is compiled.OP]
    assert names.count("MatMul") == 3 + 5          # forward, and the rules' products
    assert "TanhGrad" in names or "Mul" in names


def test_rule_with_its_own_array_path_or_a_python_value_stays_one_node():
    labels = tf.constant([0, 1, 1, 0])
    w = tf.Variable(np.linspace(-1, 1, 6, dtype=np.float32).reshape(3, 2))
    x = tf.constant(np.arange(12, dtype=np.float32).reshape(4, 3) / 10)

    def segments(logits):
        return tf.math.unsorted_segment_max(logits, [0, 1, 1, 0], 2)

    @tf.function
    def step():
        with tf.GradientTape() as tape:
            logits = tf.matmul(x, w)
            loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(
                labels=labels, logits=logits)) + tf.reduce_sum(segments(logits))
        return tape.gradient(loss, w)

    first, again = step(), step()
    np.testing.assert_array_equal(first.numpy(), again.numpy())
    rules = sorted(node[6] for node in _graph(step).nodes if node[0] is compiled.VJP)
    # the cross-entropy's rule has a NumPy formula while nothing records; the segments' makes
    # a tensor in Python (from the segment ids' array)
    assert rules == ["SparseSoftmaxCrossEntropyWithLogits", "UnsortedSegmentMax"]
    with tf.GradientTape() as tape:
        logits = tf.matmul(x, w)
        loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(
            labels=labels, logits=logits)) + tf.reduce_sum(segments(logits))
    np.testing.assert_array_equal(again.numpy(), tape.gradient(loss, w).numpy())


def test_failing_op_after_an_assignment_raises_eagers_error_once():
    v = tf.Variable([1.0, 2.0])

    @tf.function
    def f(m):
        v.assign_sub(tf.constant([0.5, 0.5]))
        return tf.linalg.inv(m) * 2.0

    good = tf.constant([[2.0, 1.0], [1.0, 2.0]])
    f(good)
    f(good)
    assert isinstance(_graph(f)._program, compiled.Program)
    singular = tf.constant([[1.0, 2.0], [2.0, 4.0]])
    with pytest.raises(tf.errors.InvalidArgumentError) as eager:
        tf.linalg.inv(singular)
    with pytest.raises(tf.errors.InvalidArgumentError) as traced:
        f(singular)
    assert str(traced.value) == str(eager.value)
    np.testing.assert_array_equal(v.numpy(), [-0.5, 0.5])    # three calls, three updates


def test_ops_of_constants_are_computed_when_compiling():
    @tf.function
    def f(x):
        return x * (tf.constant(2.0) * tf.constant(3.0) + 1.0)

    x = tf.constant([1.0, 2.0])
    f(x)
    np.testing.assert_array_equal(f(x).numpy(), [7.0, 14.0])
    program = _graph(f)._program
    assert len(program.folded) == 2                           # the product and the sum
    source_ops = [n for n in _graph(f).nodes if n[0] is compiled.OP]
    assert len(source_ops) == 3


def test_replaced_implementation_compiles_again():
    @tf.function
    def f(x):
        return tf.math.log(x)

    f(tf.constant([1.0]))
    f(tf.constant([2.0]))
    first = _graph(f)._program
    tf.debugging.enable_check_numerics()
    try:
        with pytest.raises(tf.errors.InvalidArgumentError) as eager:
            tf.math.log(tf.constant([-1.0]))
        with pytest.raises(tf.errors.InvalidArgumentError) as traced:
            f(tf.constant([-1.0]))
        assert type(traced.value) is type(eager.value)
        assert _graph(f)._program is not first
    finally:
        tf.debugging.disable_check_numerics()
    np.testing.assert_array_equal(f(tf.constant([1.0])).numpy(), [0.0])


def test_variable_argument_and_an_input_returned():
    @tf.function
    def f(x, v):
        v.assign_add(x)
        return x, v.read_value() * 2.0

    v = tf.Variable([1.0, 1.0])
    x = tf.constant([1.0, 2.0])
    f(x, v)
    got_x, doubled = f(x, v)
    assert isinstance(_graph(f)._program, compiled.Program)
    assert got_x is x
    np.testing.assert_array_equal(doubled.numpy(), [6.0, 10.0])
    np.testing.assert_array_equal(v.numpy(), [3.0, 5.0])


def test_tape_around_the_call_differentiates_a_gradient_taken_inside():
    @tf.function
    def slope(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = x * x * x
        return tape.gradient(y, x)                      # 3 x^2, traced through

    x = tf.constant([1.0, 2.0])
    np.testing.assert_array_equal(slope(x).numpy(), [3.0, 12.0])
    with tf.GradientTape() as outer:
        outer.watch(x)
        s = slope(x)
    np.testing.assert_array_equal(outer.gradient(s, x).numpy(), [6.0, 12.0])   # 6 x


def test_graph_with_a_cond_runs_the_prepared_steps():
    @tf.function
    def f(x):
        if tf.reduce_sum(x) > 0:
            y = x * 2.0
        else:
            y = x - 1.0
        return y

    np.testing.assert_array_equal(f(tf.constant([1.0])).numpy(), [2.0])
    np.testing.assert_array_equal(f(tf.constant([-1.0])).numpy(), [-2.0])
    graph = _graph(f)
    assert graph._program is False and graph._prepared is not None


def test_only_the_engines_own_rules_are_run_a_second_time_while_tracing():
    # A rule with its own array path is found by running it again, unseen; a gradient the user
    # registered (an engine wrapper around the user's function) never is: its side effects
    # happen once per trace.
    from types import SimpleNamespace

    from tapegrad import custom
    from tapegrad.function.graph import _engine_rule
    from tapegrad.primitives import TABLE

    def users_gradient(op, grad):
        return grad

    stand_in = SimpleNamespace(name="StandIn", vjp=None, jvp=None)   # (not put in the table)
    custom._install_registered(users_gradient)(stand_in)
    assert stand_in.vjp.__code__.co_filename == custom.__file__     # the engine's wrapper
    assert not _engine_rule(stand_in.vjp)
    for name in ("MatMul", "AddV2", "Relu", "Mean", "SparseSoftmaxCrossEntropyWithLogits"):
        assert _engine_rule(TABLE[name].vjp)
