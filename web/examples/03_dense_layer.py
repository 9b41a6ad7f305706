# A Keras-style layer owns its variables. Ask the tape for gradients with
# respect to all of them at once through layer.trainable_variables.
import tensorflow as tf

layer = tf.keras.layers.Dense(
    3, activation="relu",
    kernel_initializer="ones", bias_initializer="zeros")
batch = tf.constant([[1.0, -1.0, 2.0], [0.5, 0.5, 0.5]])

with tf.GradientTape() as tape:
    out = layer(batch)                     # relu(batch @ kernel + bias)
    loss = tf.reduce_mean(out ** 2)

grads = tape.gradient(loss, layer.trainable_variables)
for var, g in zip(layer.trainable_variables, grads):
    print(var.name, "shape", var.shape, "gradient shape", g.shape)
print("bias gradient:", grads[1].numpy())
