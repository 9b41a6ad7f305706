# A functional model with a skip connection: the input of the second Dense block is added back to
# its output (a residual block). In the Tape pane the Add joins two paths, and both carry gradients
# back to the first layer.
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(2)
x = rng.normal(size=(256, 4)).astype("float32")
y = (np.sin(x[:, :1]) + 0.5 * x[:, 1:2] * x[:, 2:3]).astype("float32")

inputs = tf.keras.Input(shape=(4,), name="features")
h = tf.keras.layers.Dense(16, activation="tanh", name="embed")(inputs)
r = tf.keras.layers.Dense(16, activation="tanh", name="block")(h)
h = tf.keras.layers.Add(name="skip")([h, r])
outputs = tf.keras.layers.Dense(1, name="out")(h)
model = tf.keras.Model(inputs=inputs, outputs=outputs, name="residual")

model.compile(optimizer=tf.keras.optimizers.Adam(0.02), loss="mse")
history = model.fit(x, y, epochs=4, batch_size=64, verbose=2)
print(f"loss fell: {history.history['loss'][-1] < history.history['loss'][0]}")
