"""Rank 1 is killed (SIGKILL: no exception, no message of its own) while the others wait in an
all-reduce: mpiexec must end them, not leave them waiting."""
import os
import signal

import tapegrad as tf

strategy = tf.distribute.MultiWorkerMirroredStrategy()
rank = strategy.cluster_resolver.task_id
for i in range(3):
    if i == 1 and rank == 1:
        os.kill(os.getpid(), signal.SIGKILL)
    strategy.run(lambda: tf.distribute.get_replica_context().all_reduce("SUM", tf.ones(3)))
raise SystemExit("not reached: the job should have been ended")
