# Python control flow just decides which operations run; the tape records
# only those. A branch not taken leaves no trace and gets no gradient.
import tensorflow as tf

x = tf.constant(1.0)
low = tf.Variable(2.0, name="low")
high = tf.Variable(3.0, name="high")

with tf.GradientTape() as tape:
    tape.watch(x)
    if x > 0.0:
        result = high * x
    else:
        result = low * x
    for _ in range(2):        # a loop unrolls into repeated ops
        result = result * x

d_x, d_low, d_high = tape.gradient(result, [x, low, high])
print("d/dx:   ", d_x.numpy())      # high * 3x^2 = 9
print("d/dlow: ", d_low)            # branch not taken
print("d/dhigh:", d_high.numpy())   # x^3 = 1
