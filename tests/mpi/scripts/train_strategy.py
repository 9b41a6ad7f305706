"""MultiWorkerMirroredStrategy with strategy.run, as TensorFlow code writes it: the global batch
split across the workers, the gradients all-reduced in the replica context, the loss reduced."""
import tapegrad as tf
from common import LR, ROWS, STEPS, data, initial, save

strategy = tf.distribute.MultiWorkerMirroredStrategy()
rank = strategy.cluster_resolver.task_id
w0, b0 = initial()
with strategy.scope():   # rank 0's initial values win at the first step
    w, b = tf.Variable(w0 * (rank + 1)), tf.Variable(b0 + rank)
x, y = data()
dataset = tf.data.Dataset.from_tensor_slices((x, y)).batch(ROWS).repeat(STEPS)


def step(xb, yb):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean((xb @ w + b - yb) ** 2)
    ctx = tf.distribute.get_replica_context()
    grads = ctx.all_reduce("MEAN", tape.gradient(loss, [w, b]))
    for v, g in zip((w, b), grads):
        v.assign_sub(LR * g)
    return loss


losses = []
for xb, yb in strategy.experimental_distribute_dataset(dataset):
    losses.append(float(strategy.reduce("MEAN", strategy.run(step, args=(xb, yb)), axis=None)))
assert strategy.num_replicas_in_sync > 1 and losses[-1] < losses[0], losses
save(rank, w.numpy(), b.numpy())
