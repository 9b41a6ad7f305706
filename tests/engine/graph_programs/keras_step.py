# One training step of a five-layer Sequential model on a tape: a graph of more than 40 nodes,
# shown with its layers closed into boxes inside the model's frame. Used by
# tests/engine/test_graph_hierarchy.py (the static SVG) and tests/browser/test_graph_export.py
# (the page draws the same view).
import numpy as np
import tapegrad as tf

dense = [tf.keras.layers.Dense(8, activation="relu", name=n) for n in ("hidden", "mid", "deep", "deeper")]
model = tf.keras.Sequential([tf.keras.Input(shape=(3,)), *dense, tf.keras.layers.Dense(1, name="out")],
                            name="net")
x = tf.constant(np.ones((5, 3), "float32"))


def step():
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(tf.square(model(x) - 1.0))
    return tape.gradient(loss, model.trainable_variables)


grads = step()
