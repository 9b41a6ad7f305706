"""Horovod-style custom loop: each worker trains on its rows, DistributedGradientTape averages
the gradients (every worker starts from the same weights, as with a shared seed)."""
import numpy as np
from mpi4py import MPI

import tapegrad as tf
from common import LR, STEPS, data, initial, save

rank, size = MPI.COMM_WORLD.Get_rank(), MPI.COMM_WORLD.Get_size()
x, y = data()
rows = len(x) // size
x, y = x[rank * rows:(rank + 1) * rows], y[rank * rows:(rank + 1) * rows]
w0, b0 = initial()
w, b = tf.Variable(w0), tf.Variable(b0)
for _ in range(STEPS):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean((x @ w + b - y) ** 2)
    tape = tf.distribute.DistributedGradientTape(tape)
    for v, g in zip((w, b), tape.gradient(loss, [w, b])):
        v.assign_sub(LR * g)
save(rank, w.numpy(), b.numpy())
assert np.isfinite(w.numpy()).all()
