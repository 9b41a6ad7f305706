"""Input for the replicas: a dataset of global batches split into one part per replica
(``experimental_distribute_dataset``), or one dataset per input pipeline made by a function
(``distribute_datasets_from_function``) whose batches go to the replicas in turn.

A global batch of ``B`` rows gives the replicas ``ceil(B / N)`` rows each in order (the last
ones fewer), as TensorFlow's rebatching does. Across workers, the auto-shard policies ``AUTO``,
``FILE`` and ``DATA`` give worker ``r`` the ``r``-th part of every global batch (sharding by data:
a dataset here has no files to shard by); ``OFF`` gives every worker all the parts in turn.
"""
from .. import nest
from ..tensor import convert_to_tensor
from .values import per_replica

OFF = -1    # tf.data.experimental.AutoShardPolicy.OFF


class InputContext:
    """``tf.distribute.InputContext``: which input pipeline a dataset function makes.

    >>> import tapegrad as tf
    >>> ctx = tf.distribute.InputContext(num_input_pipelines=2, input_pipeline_id=1,
    ...                                  num_replicas_in_sync=4)
    >>> ctx.get_per_replica_batch_size(16)
    4
    """

    def __init__(self, num_input_pipelines=1, input_pipeline_id=0, num_replicas_in_sync=1):
        self._num_input_pipelines = num_input_pipelines
        self._input_pipeline_id = input_pipeline_id
        self._num_replicas_in_sync = num_replicas_in_sync

    @property
    def num_input_pipelines(self):
        return self._num_input_pipelines

    @property
    def input_pipeline_id(self):
        return self._input_pipeline_id

    @property
    def num_replicas_in_sync(self):
        return self._num_replicas_in_sync

    def get_per_replica_batch_size(self, global_batch_size):
        if global_batch_size % self._num_replicas_in_sync != 0:
            raise ValueError(f"The `global_batch_size` {global_batch_size} is not divisible by "
                             f"`num_replicas_in_sync` {self._num_replicas_in_sync} ")
        return global_batch_size // self._num_replicas_in_sync

    def __str__(self):
        return f"tf.distribute.InputContext(input pipeline id {self._input_pipeline_id}, " \
               f"total: {self._num_input_pipelines})"


class InputOptions:
    """``tf.distribute.InputOptions``: accepted; prefetching has no meaning on one CPU."""

    def __init__(self, experimental_fetch_to_device=None, experimental_replication_mode=None,
                 experimental_place_dataset_on_device=False,
                 experimental_per_replica_buffer_size=1):
        self.experimental_fetch_to_device = experimental_fetch_to_device
        self.experimental_replication_mode = experimental_replication_mode
        self.experimental_place_dataset_on_device = experimental_place_dataset_on_device
        self.experimental_per_replica_buffer_size = experimental_per_replica_buffer_size


def split_rows(element, parts):
    """``element`` (a nest of tensors with rows) cut into ``parts`` consecutive pieces."""
    flat = [convert_to_tensor(t) for t in nest.flatten(element)]
    rows = int(flat[0].shape[0]) if flat and flat[0].shape.rank else 0
    step = -(-rows // parts)
    pieces = []
    for i in range(parts):
        lo, hi = min(i * step, rows), min((i + 1) * step, rows)
        pieces.append(nest.pack_sequence_as(element, [t[lo:hi] for t in flat]))
    return pieces


def _policy(dataset):
    options = getattr(dataset, "options", None)
    if options is None:
        return 0
    distribute = getattr(options(), "experimental_distribute", None)
    policy = getattr(distribute, "auto_shard_policy", None)
    return 0 if policy is None else int(policy)


class DistributedDataset:
    """Iterates a dataset of global batches as one ``PerReplica`` (or, with one local replica,
    one plain value) per step. ``num_replicas`` counts every replica in sync, ``local`` the
    replica ids this process runs."""

    def __init__(self, dataset, num_replicas, local):
        self._dataset = dataset
        self._num_replicas = num_replicas
        self._local = tuple(local)

    def __iter__(self):
        return DistributedIterator(self._steps())

    def _steps(self):
        shared = _policy(self._dataset) == OFF and len(self._local) < self._num_replicas
        for element in self._dataset:
            pieces = split_rows(element, self._num_replicas)
            if shared:   # OFF: every worker reads every part in turn
                for piece in pieces:
                    yield piece
            else:
                yield per_replica([pieces[i] for i in self._local])


class DatasetsFromFunction:
    """The dataset(s) ``dataset_fn(InputContext)`` makes for this process: each step takes one
    batch for each local replica, in turn."""

    def __init__(self, dataset_fn, context, local_replicas):
        self._dataset = dataset_fn(context)
        self._count = local_replicas

    def __iter__(self):
        return DistributedIterator(self._steps())

    def _steps(self):
        batches = iter(self._dataset)
        while True:
            step = []
            for _ in range(self._count):
                try:
                    step.append(next(batches))
                except StopIteration:
                    return
            yield per_replica(step)


class DistributedIterator:
    """``tf.distribute.DistributedIterator``: ``next()`` and ``get_next()``."""

    def __init__(self, steps):
        self._steps = steps

    def __iter__(self):
        return self

    def __next__(self):
        return next(self._steps)

    def get_next(self):
        return next(self._steps)
