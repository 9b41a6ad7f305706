# Each way a gradient becomes None, with the tape's own explanation.
import numpy as np
import tensorflow as tf

x = tf.Variable(2.0, name="x")

# 1. A variable replaced by a tensor: x2 = x2 + 1 makes a new Tensor.
x2 = tf.Variable(2.0, name="x2")
for _ in range(2):
    with tf.GradientTape() as tape:
        y = x2 * x2
    print("1. replaced by a tensor:", tape.gradient(y, x2))
    x2 = x2 + 1.0

# 2. A detour through NumPy leaves the tape.
with tf.GradientTape() as tape:
    y = tf.reduce_sum(np.square(x.numpy())) * 1.0
print("2. through NumPy:", tape.gradient(y, x))
print("  ", tape.explain(y, x))

# 3. Integers are not differentiable.
k = tf.constant(5)
with tf.GradientTape() as tape:
    tape.watch(k)
    y = k * k
print("3. integer source:", tape.gradient(y, k))

# 4. A stateful assignment: the tape cannot see through assign_add.
v = tf.Variable(1.0, name="v")
w = tf.Variable(3.0, name="w")
with tf.GradientTape() as tape:
    v.assign_add(w)
    y = v * 1.0
print("4. through assign_add:", tape.gradient(y, w))

# 5. The source is simply not connected to the target.
unrelated = tf.Variable(7.0, name="unrelated")
with tf.GradientTape() as tape:
    y = x * x
print("5. not connected:", tape.gradient(y, unrelated))
print("  ", tape.explain(y, unrelated))
