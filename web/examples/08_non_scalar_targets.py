# The gradient of a non-scalar target is the gradient of its sum. For an
# elementwise function that is exactly the derivative at every point, which
# makes plotting a function and its derivative a one-liner.
import matplotlib.pyplot as plt
import tensorflow as tf

x = tf.linspace(-6.0, 6.0, 121)
with tf.GradientTape() as tape:
    tape.watch(x)
    y = tf.nn.sigmoid(x)

dy_dx = tape.gradient(y, x)
print("shape of the gradient:", dy_dx.shape)
print("slope at 0:", dy_dx.numpy()[60])        # sigmoid'(0) = 0.25

plt.plot(x, y, label="sigmoid(x)")
plt.plot(x, dy_dx, label="d sigmoid / dx")
plt.xlabel("x")
plt.legend()
plt.show()

w = tf.Variable(2.0, name="w")
with tf.GradientTape() as tape:
    targets = [w * 3.0, w * w]
# A list of targets: the sum of their gradients, 3 + 2w = 7
print("list of targets:", tape.gradient(targets, w).numpy())
