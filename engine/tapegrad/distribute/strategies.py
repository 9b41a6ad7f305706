"""The strategies: the default one (no distribution), ``OneDeviceStrategy``,
``MirroredStrategy`` (one replica per logical device, each in its own thread) and
``MultiWorkerMirroredStrategy`` (one replica per MPI process).

>>> import tapegrad as tf
>>> strategy = tf.distribute.OneDeviceStrategy("/cpu:0")
>>> with strategy.scope():
...     v = tf.Variable(2.0)
>>> print(strategy.run(lambda: v * 3.0))
tf.Tensor(6.0, shape=(), dtype=float32)
"""
import contextlib
import re

from .. import config, nest, variables
from ..ops import reduce_sum
from ..recording import scope_stack
from ..tensor import convert_to_tensor
from . import allreduce, collective, context
from .input import DatasetsFromFunction, DistributedDataset, InputContext
from .reduce_op import ReduceOp, as_reduce_op
from .rendezvous import LocalGroup
from .values import DistributedValues, local_values, per_replica


class StrategyExtended:
    """``strategy.extended``: the devices the replicas run on."""

    def __init__(self, strategy, worker_devices):
        self._strategy = strategy
        self.worker_devices = tuple(worker_devices)
        self.parameter_devices = self.worker_devices

    @property
    def should_checkpoint(self):
        return self._strategy._is_chief

    should_save_summary = should_checkpoint

    @property
    def experimental_between_graph(self):
        return False


class Strategy:
    """``tf.distribute.Strategy``: what every strategy shares."""

    _is_chief = True
    _group = 0          # the all-reduce group of this strategy's replicas (allreduce.GROUPS)

    def __init__(self, worker_devices):
        self.extended = StrategyExtended(self, worker_devices)
        self._variables = []

    @property
    def num_replicas_in_sync(self):
        return len(self.extended.worker_devices)

    @property
    def _local_replicas(self):
        return range(len(self.extended.worker_devices))

    @contextlib.contextmanager
    def scope(self):
        """Variables made inside belong to the strategy (one copy, the same for every
        replica); ``get_strategy()`` gives it."""
        if context.scopes and context.scopes[-1] is not self and self is not context.DEFAULT[0]:
            raise ValueError("Mixing different tf.distribute.Strategy objects: "
                             f"{self} is not {context.scopes[-1]}")
        context.scopes.append(self)
        variables.ON_CREATE.append(self._variables.append)
        try:
            yield self
        finally:
            variables.ON_CREATE.remove(self._variables.append)
            context.scopes.pop()

    def run(self, fn, args=(), kwargs=None, options=None):
        """``fn(*args, **kwargs)`` on each replica, a ``PerReplica`` argument giving each
        replica its own part; the results, one per replica (``PerReplica``)."""
        kwargs = kwargs or {}
        self._before_step()
        count = len(self._local_replicas)
        if count == 1:
            ctx = context.ReplicaContext(self, self._replica_id(0), self._group)
            with _replica_scope(self._replica_id(0) if self.num_replicas_in_sync > 1 else None):
                return context.in_replica(ctx, fn, *_parts((args, kwargs), 0, 1))
        group = LocalGroup(count, [f"replica:{self._replica_id(i)}" for i in range(count)])

        def replica(i):
            ctx = context.ReplicaContext(self, i, group.key, group)
            return context.in_replica(ctx, fn, *_parts((args, kwargs), i, count))

        return per_replica(group.run(replica))

    def _replica_id(self, local_index):
        return local_index

    def _before_step(self):
        """Called before each step (multi-worker: checks and syncs new variables)."""

    def _barrier(self):
        """Waits for every worker (one process: at once)."""

    def experimental_local_results(self, value):
        """The values on this process's replicas, as a tuple (one nest per replica)."""
        if isinstance(value, DistributedValues):
            return value.values
        if not any(isinstance(v, DistributedValues) for v in nest.flatten(value)):
            return (value,)
        count = len(self._local_replicas)
        return tuple(_parts(value, i, count) for i in range(count))

    def reduce(self, reduce_op, value, axis):
        """``value``'s replicas combined into one tensor: summed or averaged (``MEAN`` over
        every element along ``axis`` too)."""
        op = as_reduce_op(reduce_op)
        return nest.map_structure(lambda v: self._reduce_one(op, v, axis), value)

    def _reduce_one(self, op, value, axis):
        if not isinstance(value, DistributedValues) and self.num_replicas_in_sync > 1 \
                and len(self._local_replicas) > 1:
            raise ValueError(f"A non-DistributedValues value {convert_to_tensor(value)!s} cannot "
                             f"be reduced with the given reduce op {op}.")
        parts = [convert_to_tensor(v) for v in local_values(value, len(self._local_replicas))]
        count = None
        if axis is not None:
            count = sum(int(p.shape[axis]) for p in parts)
            parts = [reduce_sum(p, axis=axis) for p in parts]
        total = self._across_workers(allreduce.sum_replicas(parts))
        if op is ReduceOp.MEAN:
            count = self._across_workers_count(count) if count is not None \
                else self.num_replicas_in_sync
            total = total / _like(count, total)
        return total

    def _across_workers(self, total):
        return total

    def _across_workers_count(self, count):
        return count

    def experimental_distribute_dataset(self, dataset, options=None):
        """The dataset's global batches split across the replicas (see ``input.py``)."""
        return DistributedDataset(dataset, self.num_replicas_in_sync,
                                  [self._replica_id(i) for i in self._local_replicas])

    def distribute_datasets_from_function(self, dataset_fn, options=None):
        """``dataset_fn(InputContext)`` for this process's input pipeline, its batches given
        to the local replicas in turn."""
        workers, me = self._input_pipelines()
        ctx = InputContext(workers, me, self.num_replicas_in_sync)
        return DatasetsFromFunction(dataset_fn, ctx, len(self._local_replicas))

    def _input_pipelines(self):
        return 1, 0

    def experimental_distribute_values_from_function(self, value_fn):
        """``value_fn(ValueContext)`` for each local replica, as one ``PerReplica``."""
        return per_replica([value_fn(ValueContext(self._replica_id(i), self.num_replicas_in_sync))
                            for i in self._local_replicas])

    @property
    def cluster_resolver(self):
        return None


class ValueContext:
    """``tf.distribute.experimental.ValueContext``: which replica a value is made for."""

    def __init__(self, replica_id_in_sync_group=0, num_replicas_in_sync=1):
        self.replica_id_in_sync_group = replica_id_in_sync_group
        self.num_replicas_in_sync = num_replicas_in_sync


@contextlib.contextmanager
def _replica_scope(replica_id):
    """Ops run inside carry the scope ``replica:<id>`` (the graph's replica group); None: no
    scope (one replica in all)."""
    if replica_id is None:
        yield
        return
    scope_stack.append(f"replica:{replica_id}")
    try:
        yield
    finally:
        scope_stack.pop()


def _parts(structure, i, count):
    """``structure`` with each PerReplica leaf replaced by replica ``i``'s part."""
    flat = [local_values(v, count)[i] if isinstance(v, DistributedValues) else v
            for v in nest.flatten(structure)]
    return nest.pack_sequence_as(structure, flat)


def _like(count, tensor):
    return convert_to_tensor(count, dtype=tensor.dtype)


class _DefaultDistributionStrategy(Strategy):
    """What runs when no strategy is in use: one replica, no distribution."""

    def __init__(self):
        super().__init__(["/job:localhost/replica:0/task:0/device:CPU:0"])

    @contextlib.contextmanager
    def scope(self):
        yield self


context.DEFAULT.append(_DefaultDistributionStrategy())


_DEVICE = re.compile(r"^(?:/job:\w+)?(?:/replica:\d+)?(?:/task:\d+)?/?(?:device:)?(cpu|gpu):(\d+)$",
                     re.IGNORECASE)


def canonical_device(name):
    """``"/cpu:1"`` -> ``"/job:localhost/replica:0/task:0/device:CPU:1"``; an unknown logical
    device is a ``ValueError``."""
    match = _DEVICE.match(name.strip())
    if match is None:
        raise ValueError(f"Unknown attribute: '{name}' in '{name}'")
    kind, index = match.group(1).upper(), int(match.group(2))
    known = {d.name for d in config.list_logical_devices(kind)}
    if f"/device:{kind}:{index}" not in known:
        raise ValueError(f"Device /job:localhost/replica:0/task:0/device:{kind}:{index} is not "
                         f"found (the logical devices are {sorted(known)})")
    return f"/job:localhost/replica:0/task:0/device:{kind}:{index}"


class OneDeviceStrategy(Strategy):
    """``tf.distribute.OneDeviceStrategy``: one replica on one device."""

    def __init__(self, device):
        super().__init__([canonical_device(device)])


class MirroredStrategy(Strategy):
    """``tf.distribute.MirroredStrategy``: one replica per device (by default the first CPU; the
    logical CPUs of ``tf.config.set_logical_device_configuration`` for more), each step's
    replicas run in threads and meet in all-reduces."""

    def __init__(self, devices=None, cross_device_ops=None):
        if devices is None:
            gpus = config.list_logical_devices("GPU")
            devices = [d.name for d in gpus] or ["/device:CPU:0"]
        devices = [d.name if hasattr(d, "name") else d for d in devices]
        if not devices:
            raise ValueError("Must specify at least one device.")
        names = [canonical_device(d) for d in devices]
        if len(set(names)) != len(names):
            raise ValueError("No duplicates allowed in `devices` argument: " + str(devices))
        super().__init__(names)


class MultiWorkerMirroredStrategy(Strategy):
    """``tf.distribute.MultiWorkerMirroredStrategy`` over MPI: one replica per process
    (``mpiexec -n N python train.py``). Variables made in its scope take rank 0's values at the
    next step; a worker that made other variables than rank 0 fails that step, naming itself."""

    def __init__(self, cluster_resolver=None, communication_options=None):
        self._mpi = collective.world()
        self._rank, self._size = self._mpi.rank, self._mpi.size
        super().__init__([f"/job:worker/replica:0/task:{self._rank}/device:CPU:0"])
        self._group = self._mpi.key
        self._synced = 0
        self._cluster_resolver = cluster_resolver or MpiClusterResolver(self._rank, self._size)

    _is_chief = property(lambda self: self._rank == 0)

    @property
    def num_replicas_in_sync(self):
        return self._size

    @property
    def _local_replicas(self):
        return range(1)

    def _replica_id(self, local_index):
        return self._rank

    def _input_pipelines(self):
        return self._size, self._rank

    def _before_step(self):
        self._synced = synchronize_variables(self._mpi, self._variables, self._synced)

    def _barrier(self):
        self._mpi.barrier()

    def _across_workers(self, total):
        return allreduce.all_reduce(total, self._group, "SUM")

    def _across_workers_count(self, count):
        return sum(self._mpi.allgather(count))

    @property
    def cluster_resolver(self):
        return self._cluster_resolver


class MpiClusterResolver:
    """The cluster as MPI launched it: ``task_type`` "worker", ``task_id`` the rank (TensorFlow
    reads both from ``TF_CONFIG``; a cluster resolver given to the strategy is kept as is)."""

    task_type = "worker"

    def __init__(self, rank, size):
        self.task_id = rank
        self.num_workers = size

    def cluster_spec(self):
        return {"worker": [f"mpi-rank-{i}" for i in range(self.num_workers)]}


def synchronize_variables(mpi, tracked, done):
    """Checks that every worker made the same variables as rank 0 since the last step (same
    count, shapes and dtypes), then gives them rank 0's values; returns how many are synced."""
    new = tracked[done:]
    mine = [(v.name, tuple(v.shape.as_list()), v.dtype.name) for v in new]
    everyone = mpi.allgather(mine)
    for rank, theirs in enumerate(everyone):
        if theirs != everyone[0]:
            raise ValueError(
                f"tapegrad.distribute: the workers made different variables before this step "
                f"(worker rank {rank} made {_describe(theirs)}, rank 0 made "
                f"{_describe(everyone[0])}); every worker must build the same model")
    for v in new:
        v.assign(mpi.broadcast(v.numpy()))
    return len(tracked)


def _describe(signature):
    shown = ", ".join(f"{n} {list(s)} {d}" for n, s, d in signature[:4])
    more = f" and {len(signature) - 4} more" if len(signature) > 4 else ""
    return f"{len(signature)} variable(s): {shown}{more}" if signature else "no variable"
