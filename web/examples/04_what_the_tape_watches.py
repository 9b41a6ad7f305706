# By default the tape follows trainable variables only. Constants, plain
# tensors and variables made with trainable=False get no gradient (None).
import tensorflow as tf

trainable = tf.Variable(2.0, name="trainable")
frozen = tf.Variable(2.0, name="frozen", trainable=False)
constant = tf.constant(2.0)

with tf.GradientTape() as tape:
    y = trainable * frozen * constant

grads = tape.gradient(y, [trainable, frozen, constant])
for name, g in zip(["trainable", "frozen", "constant"], grads):
    print(f"{name:9} -> {None if g is None else g.numpy()}")

print(tape.explain(y, frozen))
