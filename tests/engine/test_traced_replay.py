"""A traced training step replayed with no tape around the call (the compiled program of
function/compiled.py, or the prepared steps of function/graph.py: implementations run without
``recording.bind``) gives exactly the numbers of the same step run eagerly and of the replay
through ``bind`` (a tape around the call)."""
import numpy as np

import tapegrad as tf
from tapegrad.function import graph as graph_module


def _mlp(seed):
    """A W2-like MLP (2→16→16→2, ReLU, sparse softmax cross-entropy, batch 32)."""
    rng = np.random.default_rng(seed)
    sizes = (2, 16, 16, 2)
    layers = [(tf.Variable(rng.uniform(-0.5, 0.5, (a, b)).astype(np.float32)),
               tf.Variable(rng.uniform(-0.1, 0.1, b).astype(np.float32)))
              for a, b in zip(sizes[:-1], sizes[1:])]
    x = tf.constant(rng.standard_normal((32, 2)).astype(np.float32))
    labels = tf.constant(rng.integers(0, 2, 32).astype(np.int32))
    return layers, x, labels


def _step_of(layers, x, labels):
    variables = [v for layer in layers for v in layer]
    (w1, b1), (w2, b2), (w3, b3) = layers

    def step():
        with tf.GradientTape() as tape:
            h1 = tf.nn.relu(tf.matmul(x, w1) + b1)
            h2 = tf.nn.relu(tf.matmul(h1, w2) + b2)
            logits = tf.matmul(h2, w3) + b3
            loss = tf.reduce_mean(
                tf.nn.sparse_softmax_cross_entropy_with_logits(labels=labels, logits=logits))
        grads = tape.gradient(loss, variables)
        for v, g in zip(variables, grads):
            v.assign_sub(0.05 * g)
        return loss
    return step, variables


def _run(step, variables, calls, outer_tape=False):
    losses = []
    for _ in range(calls):
        if outer_tape:
            with tf.GradientTape():
                losses.append(step().numpy())
        else:
            losses.append(step().numpy())
    return np.array(losses), [v.numpy() for v in variables]


def test_replayed_step_gives_eager_numbers_exactly():
    eager = _run(*_step_of(*_mlp(1)), calls=6)
    step, variables = _step_of(*_mlp(1))
    traced = tf.function(step)
    replayed = _run(traced, variables, calls=6)
    (graph,) = [g for by_shape in traced._graphs.values() for g in by_shape.values()]
    assert graph.replayable and graph._program      # calls 2..6 ran the compiled program
    assert traced.experimental_get_tracing_count() == 1
    np.testing.assert_array_equal(replayed[0], eager[0])
    for got, want in zip(replayed[1], eager[1]):
        np.testing.assert_array_equal(got, want)


def test_prepared_replay_matches_replay_through_bind():
    # A tape around the call makes the replay go through ``bind`` (the tape records its ops).
    results = []
    for outer_tape in (False, True):
        step, variables = _step_of(*_mlp(2))
        traced = tf.function(step)
        traced()                                       # the trace
        results.append(_run(traced, variables, calls=4, outer_tape=outer_tape))
    (loss_a, vars_a), (loss_b, vars_b) = results
    np.testing.assert_array_equal(loss_a, loss_b)
    for a, b in zip(vars_a, vars_b):
        np.testing.assert_array_equal(a, b)


def test_prepared_op_that_fails_raises_the_eager_error():
    # A graph traced for shapes that fit, replayed on values the op refuses: the prepared step
    # hands the op to ``bind``, whose error is the eager one.
    @tf.function
    def gather(params, i):
        return tf.gather(params, i)
    params = tf.constant([1.0, 2.0, 3.0])
    assert float(gather(params, tf.constant(1))) == 2.0
    assert float(gather(params, tf.constant(2))) == 3.0
    try:
        tf.gather(params, tf.constant(7))
    except tf.errors.InvalidArgumentError as e:
        eager_error = str(e)
    try:
        gather(params, tf.constant(7))
    except tf.errors.InvalidArgumentError as e:
        assert str(e) == eager_error
    else:
        raise AssertionError("the replay did not raise")


def test_prepare_keeps_other_nodes_and_unguards_ops():
    @tf.function
    def f(x):
        return tf.nn.relu(x) * 2.0
    f(tf.constant([1.0, -1.0]))
    f(tf.constant([2.0, -2.0]))
    (graph,) = [g for by_shape in f._graphs.values() for g in by_shape.values()]
    prepared = graph_module.prepare(graph.nodes)
    kinds = [step[0] for step in prepared]
    assert kinds == [graph_module.PREPARED_OP] * 2
    for step in prepared:
        prim, impl, raw = step[1], step[2], step[3]
        assert impl is prim.impl and not getattr(raw, "_dtype_rule", False)
