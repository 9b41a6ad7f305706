# The graph a tf.function traces: after the run, the graph pane's tab
# "graph of f" draws f's concrete function (its ops: MatMul, AddV2, Tanh)
# and lists its traces. A new input shape traces again: "trace 2 (retrace)".
import tensorflow as tf

w = tf.Variable(tf.ones([3, 2]), name="w")
b = tf.Variable([0.5, -0.5], name="b")


@tf.function
def f(x):
    return tf.tanh(tf.matmul(x, w) + b)


with tf.GradientTape() as tape:
    y = tf.reduce_sum(f(tf.constant([[1.0, 0.0, -1.0]])))
print("dy/db:", tape.gradient(y, b).numpy().round(4))

f(tf.constant([[1.0, 2.0, 3.0], [0.0, 1.0, 0.0]]))   # a new shape: retraces
print("traces:", f.experimental_get_tracing_count())
