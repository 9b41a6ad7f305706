"""Keras's fit under MultiWorkerMirroredStrategy, as TensorFlow code writes it: the model made in
the strategy's scope (each worker from other initial weights: rank 0's win at the first step),
the global batch split across the workers (shuffled: in one order everywhere, else the parts
would not make up the batch); then evaluate and predict, a ModelCheckpoint (written by the chief
only) and a fit interrupted by an error at epoch 3 that BackupAndRestore resumes there."""
import sys

import numpy as np

import tapegrad as tf
from common import LR, ROWS, STEPS, data, initial

OUT = sys.argv[1]
strategy = tf.distribute.MultiWorkerMirroredStrategy()
rank = strategy.cluster_resolver.task_id
x, y = data()


def make(shift):
    w0, b0 = initial()
    with strategy.scope():
        model = tf.keras.Sequential([tf.keras.Input(shape=(3,)), tf.keras.layers.Dense(1)])
        model.set_weights([w0 + shift, b0 + shift])
        model.compile(optimizer=tf.keras.optimizers.SGD(LR), loss="mse", metrics=["mae"])
    return model


class Interrupt(tf.keras.callbacks.Callback):
    def on_epoch_begin(self, epoch, logs=None):
        if epoch == 3:
            raise RuntimeError("interrupted")


model = make(rank)
checkpoint = tf.keras.callbacks.ModelCheckpoint(f"{OUT}.rank{rank}.weights.h5",
                                                save_weights_only=True)
history = model.fit(x, y, batch_size=ROWS, epochs=STEPS, verbose=0, callbacks=[checkpoint])
evaluated = model.evaluate(x, y, batch_size=5, verbose=0)
predicted = model.predict(x, batch_size=5, verbose=0)

backup = tf.keras.callbacks.BackupAndRestore(f"{OUT}.backup")   # one folder, the chief writes
try:
    make(rank).fit(x, y, batch_size=ROWS, epochs=STEPS, verbose=0,
                   callbacks=[backup, Interrupt()])
except RuntimeError:
    pass
resumed = make(2 * rank)
again = resumed.fit(x, y, batch_size=6, epochs=STEPS, verbose=0, shuffle=False,
                    callbacks=[tf.keras.callbacks.BackupAndRestore(f"{OUT}.backup")])

w, b = model.get_weights()
np.savez(f"{OUT}.rank{rank}.npz", w=w, b=b, loss=history.history["loss"],
         mae=history.history["mae"], evaluated=evaluated, predicted=predicted,
         resumed_epochs=again.epoch, resumed_w=resumed.get_weights()[0])
