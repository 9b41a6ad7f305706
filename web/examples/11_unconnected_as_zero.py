# When a source does not reach the target, ask for zeros instead of None:
# handy when code adds gradients together without checking for None.
import tensorflow as tf

used = tf.Variable([1.0, 2.0], name="used")
unused = tf.Variable([5.0, 6.0, 7.0], name="unused")

with tf.GradientTape(persistent=True) as tape:
    loss = tf.reduce_sum(used * used)

print("default:", tape.gradient(loss, unused))
zeros = tape.gradient(loss, unused,
                      unconnected_gradients=tf.UnconnectedGradients.ZERO)
print("ZERO:   ", zeros.numpy())
del tape
