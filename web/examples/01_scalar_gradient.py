# The smallest tape: record one computation, then ask for its derivative.
import tensorflow as tf

t = tf.Variable(4.0, name="t")

with tf.GradientTape() as tape:
    # Everything computed from a variable inside the block is recorded.
    area = 0.5 * t ** 3          # d(area)/dt = 1.5 * t**2

d_area = tape.gradient(area, t)
print("area  =", area.numpy())
print("slope =", d_area.numpy())   # 1.5 * 4**2 = 24
