# A custom training loop: 40 steps of a tf.function that records about 50 ops each, some 2,000 ops
# in all. The Tape pane shows the last step, grouped by the tf.function call and its name scopes
# (click a box to open it).
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)
rng = np.random.default_rng(3)
x = tf.constant(rng.normal(size=(64, 3)).astype("float32"))
y = tf.constant((x.numpy() @ np.array([[1.5], [-2.0], [0.5]]) + 0.3).astype("float32"))

w = tf.Variable(tf.zeros((3, 1)), name="w")
b = tf.Variable(0.0, name="b")
optimizer = tf.keras.optimizers.SGD(0.1)


@tf.function
def train_step():
    with tf.GradientTape() as tape:
        with tf.name_scope("model"):
            pred = x @ w + b
        with tf.name_scope("loss"):
            err = pred - y
            mse = tf.reduce_mean(err ** 2)
        with tf.name_scope("penalty"):
            total = mse
            for k in range(9):      # small terms: a longer tape to explore
                total = total + 1e-4 * tf.reduce_sum(tf.square(w * (1.0 + 0.01 * k)))
    grads = tape.gradient(total, [w, b])
    optimizer.apply_gradients(zip(grads, [w, b]))
    return mse


for step in range(40):
    mse = train_step()
print(f"final loss below 0.01: {float(mse) < 0.01}")
print("w ~", np.round(w.numpy().ravel(), 1).tolist())
