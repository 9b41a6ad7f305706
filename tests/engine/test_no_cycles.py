"""A training step leaves no reference cycles behind: its tensors (gradients included, often the
largest arrays) are freed as soon as the step's names go, not when the cyclic collector runs.
(A recursive closure in nest.pack_sequence_as once kept every step's gradients alive: memory grew
by the gradients' size per step until a collection, and the fresh pages made steps 2-3x slower.)"""
import collections
import gc

import numpy as np
import pytest

import tapegrad as tf


def cycles_left_by(step):
    """Objects that only the cyclic collector would free after a second call of `step`."""
    step()
    gc.collect()
    gc.disable()
    try:
        step()
        gc.set_debug(gc.DEBUG_SAVEALL)
        gc.collect()
        found = collections.Counter(type(o).__name__ for o in gc.garbage)
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
        gc.enable()
    return found


X = tf.Variable(np.ones((4, 3), np.float32), name="x")
W = tf.Variable(np.ones((3, 2), np.float32), name="w")


def gradient_of_a_list():
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(tf.tanh(X * 2.0 + 1.0))
    tape.gradient(loss, [X, W])


def gradient_of_a_dict_and_sgd():
    with tf.GradientTape() as tape:
        logits = tf.nn.relu(tf.matmul(X, W))
        loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(
            labels=tf.constant([0, 1, 0, 1]), logits=logits))
    grads = tape.gradient(loss, {"x": X, "w": W})
    for name, v in (("x", X), ("w", W)):
        v.assign_sub(0.1 * grads[name])


LAYER = tf.keras.layers.Dense(2)
ADAM = tf.keras.optimizers.Adam(0.01)


def keras_step():
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(LAYER(X) ** 2)
    grads = tape.gradient(loss, LAYER.trainable_variables)
    ADAM.apply_gradients(zip(grads, LAYER.trainable_variables))


def persistent_and_nested_tapes():
    with tf.GradientTape() as outer:
        with tf.GradientTape(persistent=True) as inner:
            y = tf.reduce_sum(X ** 3)
        g = inner.gradient(y, X)
        inner.jacobian(X * X, X)
        del inner
    outer.gradient(g, X)


@pytest.mark.parametrize("step", [gradient_of_a_list, gradient_of_a_dict_and_sgd, keras_step,
                                  persistent_and_nested_tapes], ids=lambda f: f.__name__)
def test_a_step_leaves_no_reference_cycles(step):
    assert cycles_left_by(step) == collections.Counter()
