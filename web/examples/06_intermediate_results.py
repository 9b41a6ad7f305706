# A gradient can be taken with respect to any value computed on the tape,
# not only with respect to the variables it started from.
import tensorflow as tf

x = tf.constant(2.0)
with tf.GradientTape() as tape:
    tape.watch(x)
    u = x * x          # u = 4
    v = u * u          # v = x**4 = 16

print("dv/du:", tape.gradient(v, u).numpy())    # 2u = 8
