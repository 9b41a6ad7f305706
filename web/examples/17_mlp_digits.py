# A multilayer perceptron on the 8x8 handwritten digits that ship with the page: each image
# flattened to 64 numbers, two Dense layers, trained with fit. The Tape pane shows one training
# step: the model's layers as boxes (click one to open it), the loss and the gradients flowing back.
import tensorflow as tf

tf.keras.utils.set_random_seed(0)   # the same weights and batches on every Run

(x_train, y_train), (x_test, y_test) = tf.keras.datasets.digits.load_data()
x_train = x_train.reshape(-1, 64).astype("float32") / 16.0   # (1437, 64)
x_test = x_test.reshape(-1, 64).astype("float32") / 16.0
print("training inputs:", x_train.shape)

model = tf.keras.Sequential([
    tf.keras.Input(shape=(64,)),
    tf.keras.layers.Dense(32, activation="relu", name="hidden"),
    tf.keras.layers.Dense(10, name="logits"),
], name="digits_mlp")
model.compile(optimizer=tf.keras.optimizers.Adam(0.01),
              loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True),
              metrics=["accuracy"])
model.fit(x_train, y_train, epochs=3, batch_size=128, verbose=2)

loss, accuracy = model.evaluate(x_test, y_test, verbose=0)
print(f"test accuracy above 0.85: {accuracy > 0.85}")
