# An LSTM reads text one character at a time and learns which character comes next. Embedding,
# LSTM and Dense are layers of one model; in the Tape pane the LSTM is one box holding every time
# step it ran (open it to see its cell), and the backward pass lights it while its gradients flow.
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

text = "the tape records what runs; the gradient walks it back. " * 8
chars = sorted(set(text))
ids = np.array([chars.index(c) for c in text])
window = 8
x = np.stack([ids[i:i + window] for i in range(len(ids) - window)])
y = ids[window:]
print("vocabulary:", len(chars), "windows:", x.shape)

model = tf.keras.Sequential([
    tf.keras.Input(shape=(window,)),
    tf.keras.layers.Embedding(len(chars), 8, name="embed"),
    tf.keras.layers.LSTM(16, name="lstm"),
    tf.keras.layers.Dense(len(chars), name="next_char"),
], name="char_lstm")
model.compile(optimizer=tf.keras.optimizers.Adam(0.02),
              loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True))
history = model.fit(x, y, epochs=3, batch_size=64, verbose=2)
print(f"loss fell: {history.history['loss'][-1] < history.history['loss'][0]}")
