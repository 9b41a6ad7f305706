"""Rank 1 raises after the first step; the others wait in the next all-reduce and must be ended
with an error naming rank 1, not hang."""
import tapegrad as tf

strategy = tf.distribute.MultiWorkerMirroredStrategy()
rank = strategy.cluster_resolver.task_id
for i in range(3):
    if i == 1 and rank == 1:
        raise RuntimeError("worker one gave up")
    strategy.run(lambda: tf.distribute.get_replica_context().all_reduce("SUM", tf.ones(3)))
raise SystemExit("not reached: the job should have been aborted")
