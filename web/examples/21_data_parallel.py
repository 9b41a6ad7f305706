# Data-parallel training: a MirroredStrategy over two logical CPUs. Each global batch is split
# between the replicas; each replica computes the loss of its part, and strategy.reduce joins
# the parts in one AllReduce. The Tape pane shows the last step: one group per replica, the
# AllReduce node joining them, and the backward pass running through both replicas to the one
# shared copy of w and b, which gets one update.
import numpy as np
import tensorflow as tf

cpu = tf.config.list_physical_devices("CPU")[0]
tf.config.set_logical_device_configuration(cpu, [tf.config.LogicalDeviceConfiguration()] * 2)
strategy = tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:1"])
print("replicas in sync:", strategy.num_replicas_in_sync)

rng = np.random.default_rng(0)
x = rng.normal(size=(16, 3)).astype("float32")
y = (x @ np.array([[1.5], [-2.0], [0.5]]) + 0.3).astype("float32")
GLOBAL_BATCH = 8
dataset = tf.data.Dataset.from_tensor_slices((x, y)).repeat().batch(GLOBAL_BATCH)
batches = iter(strategy.experimental_distribute_dataset(dataset))   # 4 rows per replica

with strategy.scope():                       # mirrored: one copy, the same on every replica
    w = tf.Variable(tf.zeros((3, 1)), name="w")
    b = tf.Variable(0.0, name="b")


def replica_loss(x, y):
    """One replica's part of the batch loss (summed, over the global batch size)."""
    error = x @ w + b - y
    return tf.reduce_sum(error ** 2) / GLOBAL_BATCH


def replica_gradients(x, y):
    """TensorFlow's way: a tape in each replica; the gradients are summed across replicas."""
    with tf.GradientTape() as tape:
        loss = replica_loss(x, y)
    return tape.gradient(loss, [w, b])


first_x, first_y = next(iter(strategy.experimental_distribute_dataset(dataset)))
summed = strategy.reduce("SUM", strategy.run(replica_gradients, args=(first_x, first_y)), axis=None)

losses = []
for step in range(40):
    bx, by = next(batches)
    # tapegrad's tape around strategy.run sees every replica (TensorFlow's needs to be inside
    # the replica's function, as above): one tape, one graph of the whole step
    with tf.GradientTape() as tape:
        per_replica = strategy.run(replica_loss, args=(bx, by))
        loss = strategy.reduce("SUM", per_replica, axis=None)      # the AllReduce
    grads = tape.gradient(loss, [w, b])
    if step == 0:
        same = all(np.allclose(g, s) for g, s in zip(grads, summed))
        print("same gradient as a tape in each replica:", same)
    w.assign_sub(0.1 * grads[0])                                   # one update, seen by all
    b.assign_sub(0.1 * grads[1])
    losses.append(float(loss))

# the same steps on one device, in NumPy: full-batch gradient descent on each global batch
nw, nb = np.zeros((3, 1)), 0.0
for step in range(40):
    rows = slice(8 * (step % 2), 8 * (step % 2) + 8)
    err = x[rows] @ nw + nb - y[rows]
    nw, nb = nw - 0.1 * 2 * x[rows].T @ err / 8, nb - 0.1 * 2 * err.sum() / 8
print("loss went down:", losses[-1] < losses[0] / 10)
print("same weights as one device:", np.allclose(w.numpy(), nw, atol=1e-5))
print("w ~", [round(float(v), 1) for v in w.numpy().ravel()])
