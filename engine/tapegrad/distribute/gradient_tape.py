"""``DistributedGradientTape``: a ``GradientTape`` whose gradients are all-reduced over the
workers in one fused buffer per dtype (as Horovod's ``hvd.DistributedGradientTape``), for
custom training loops under ``mpiexec``.

>>> import tapegrad as tf
>>> w = tf.Variable([1.0, 2.0])
>>> with tf.GradientTape() as tape:
...     loss = tf.reduce_sum(w * w)
>>> tape = tf.distribute.DistributedGradientTape(tape)    # one process: the plain gradient
>>> print(tape.gradient(loss, [w])[0])
tf.Tensor([2. 4.], shape=(2,), dtype=float32)
"""
from .. import nest
from ..tensor import convert_to_tensor
from . import allreduce, collective, context
from .reduce_op import ReduceOp, as_reduce_op
from .strategies import MultiWorkerMirroredStrategy, synchronize_variables


def _group_of(strategy):
    """The all-reduce group: the running replica's; else the strategy's (given, or in use);
    with none, every MPI process when this one was started by ``mpiexec``; else one replica
    alone. Also the MPI group whose variables the tape checks, if any."""
    replica = context.local.replica
    if replica is not None and strategy is None:
        return replica._group, getattr(replica.strategy, "_mpi", None)
    strategy = strategy or context.get_strategy()
    if strategy is not context.DEFAULT[0]:
        return strategy._group, getattr(strategy, "_mpi", None)
    if collective.launched():
        mpi = collective.world()
        return mpi.key, mpi
    return 0, None


class DistributedGradientTape:
    """Wraps ``tape``: ``gradient`` gives the gradients averaged (``op=ReduceOp.SUM``: summed)
    over every worker. On its first call (and whenever new ones appear) the sources' variables
    are checked to be the same on every worker and take rank 0's values."""

    def __init__(self, tape, op=ReduceOp.MEAN, strategy=None):
        self._tape = tape
        self._op = as_reduce_op(op).value
        self._strategy = strategy
        self._seen = []

    def __getattr__(self, name):
        return getattr(self._tape, name)

    def __enter__(self):
        self._tape.__enter__()
        return self

    def __exit__(self, *exc):
        return self._tape.__exit__(*exc)

    def gradient(self, target, sources, output_gradients=None, unconnected_gradients=None,
                 **kwargs):
        if unconnected_gradients is not None:
            kwargs["unconnected_gradients"] = unconnected_gradients
        grads = self._tape.gradient(target, sources, output_gradients, **kwargs)
        group, mpi = _group_of(self._strategy)
        self._check_sources(mpi, sources)
        flat = nest.flatten(grads)
        present = [i for i, g in enumerate(flat) if g is not None]
        reduced = allreduce.all_reduce_fused([convert_to_tensor(flat[i]) for i in present],
                                             group, self._op)
        for i, g in zip(present, reduced):
            flat[i] = g
        return nest.pack_sequence_as(grads, flat)

    def _check_sources(self, mpi, sources):
        if mpi is None or isinstance(context.get_strategy(), MultiWorkerMirroredStrategy):
            return   # (a strategy syncs its own variables before each step)
        known = {id(v) for v in self._seen}
        fresh = [v for v in nest.flatten(sources) if id(v) not in known and hasattr(v, "assign")]
        self._seen.extend(fresh)
        # every step, on every worker (a worker with other variables fails here, not in a hang)
        synchronize_variables(mpi, self._seen, len(self._seen) - len(fresh))
