"""The problem every MPI script trains: a linear model on 12 rows (split evenly over 2 or 3
workers), its full-batch training in one process, and where a worker saves its weights."""
import sys

import numpy as np

ROWS, STEPS, LR = 12, 6, 0.1


def data():
    rng = np.random.default_rng(7)
    x = rng.normal(size=(ROWS, 3)).astype(np.float32)
    y = (x @ np.array([[1.0], [-2.0], [0.5]], np.float32) + 0.25).astype(np.float32)
    return x, y


def initial():
    return np.full((3, 1), 0.5, np.float32), np.zeros(1, np.float32)


def full_batch(tf):
    """The weights after STEPS steps of full-batch gradient descent in one process."""
    x, y = data()
    w0, b0 = initial()
    w, b = tf.Variable(w0), tf.Variable(b0)
    for _ in range(STEPS):
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean((x @ w + b - y) ** 2)
        for v, g in zip((w, b), tape.gradient(loss, (w, b))):
            v.assign_sub(LR * g)
    return w.numpy(), b.numpy()


def save(rank, w, b):
    np.savez(f"{sys.argv[1]}.rank{rank}.npz", w=w, b=b)
