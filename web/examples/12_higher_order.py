# Gradient rules are recorded like any other computation, so an outer tape
# can differentiate what an inner tape computed: second derivatives.
import tensorflow as tf

x = tf.Variable(2.0, name="x")

with tf.GradientTape() as outer:
    with tf.GradientTape() as inner:
        y = x ** 3                   # y   = x^3
    dy_dx = inner.gradient(y, x)     # y'  = 3x^2 = 12
d2y_dx2 = outer.gradient(dy_dx, x)   # y'' = 6x   = 12

print("first derivative: ", dy_dx.numpy())
print("second derivative:", d2y_dx2.numpy())
