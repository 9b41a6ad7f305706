"""Rank 1 makes one variable more than the others: the first step is an error naming it."""
import tapegrad as tf

strategy = tf.distribute.MultiWorkerMirroredStrategy()
rank = strategy.cluster_resolver.task_id
with strategy.scope():
    w = tf.Variable(tf.ones([2, 2]), name="w")
    if rank == 1:
        extra = tf.Variable(tf.zeros([3]), name="extra")
strategy.run(lambda: w * 2.0)
raise SystemExit("not reached: the first step should fail")
