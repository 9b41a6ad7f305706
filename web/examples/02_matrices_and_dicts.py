# Gradients work for tensors of any shape. Sources may be passed as a list
# or a dict; the gradients come back in the same structure, each with the
# shape of its source.
import tensorflow as tf

w = tf.Variable([[1.0, 0.0], [0.0, 2.0], [1.0, 1.0]], name="w")   # 3x2
b = tf.Variable([0.5, -0.5], name="b")
inputs = tf.constant([[1.0, 2.0, 3.0]])                         # 1x3

with tf.GradientTape(persistent=True) as tape:
    scores = inputs @ w + b           # [[4.5, 6.5]]
    loss = tf.reduce_sum(scores ** 2)

grad_w, grad_b = tape.gradient(loss, [w, b])
print("w", w.shape, "-> gradient", grad_w.shape)
print("gradient of b:", grad_b.numpy())       # 2 * scores = [9, 13]

by_name = tape.gradient(loss, {"weights": w, "bias": b})
print("dict keys:", sorted(by_name))
same = tf.reduce_all(by_name["bias"] == grad_b)
print("same as the list form:", bool(same))
del tape   # a persistent tape holds its records until it is deleted
