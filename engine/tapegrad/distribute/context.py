"""Where code runs: in *cross-replica* context (inside ``strategy.scope()``, outside
``strategy.run``), in a *replica* context (inside ``strategy.run``), or in neither (the default
strategy's default replica context).

>>> import tapegrad as tf
>>> tf.distribute.has_strategy(), tf.distribute.in_cross_replica_context()
(False, False)
"""
import threading

from .. import nest
from ..tensor import constant
from . import allreduce
from .reduce_op import as_reduce_op
from .values import DistributedValues, per_replica


class _Local(threading.local):
    replica = None       # this thread's ReplicaContext inside strategy.run


local = _Local()
scopes = []              # strategies whose scope() is open, innermost last
DEFAULT = []             # [the default strategy] (strategies.py puts it there)


class ReplicaContext:
    """``tf.distribute.ReplicaContext``: one replica's view inside ``strategy.run``."""

    def __init__(self, strategy, replica_id_in_sync_group, group=0, rendezvous=None):
        self._strategy = strategy
        self._replica_id = replica_id_in_sync_group
        self._group = group
        self._rendezvous = rendezvous

    @property
    def strategy(self):
        return self._strategy

    @property
    def num_replicas_in_sync(self):
        return self._strategy.num_replicas_in_sync

    @property
    def replica_id_in_sync_group(self):
        return constant(self._replica_id, "int32")

    @property
    def devices(self):
        return (self._strategy.extended.worker_devices[self._local_index()],)

    def _local_index(self):
        return self._replica_id if self._rendezvous is not None else 0

    def all_reduce(self, reduce_op, value, options=None):
        """``value`` (a tensor or a nest of them) combined over every replica, in one fused
        buffer per dtype; every replica gets the result."""
        op = as_reduce_op(reduce_op).value
        flat = nest.flatten(value)
        return nest.pack_sequence_as(value, allreduce.all_reduce_fused(flat, self._group, op))

    def merge_call(self, merge_fn, args=(), kwargs=None):
        """``merge_fn(strategy, *args, **kwargs)`` run once in cross-replica context, with each
        argument a ``PerReplica`` of the replicas' values; each replica gets its result."""
        kwargs = kwargs or {}
        if self._rendezvous is None:
            return _cross_replica(self._strategy, merge_fn, args, kwargs)
        everyone = self._rendezvous.exchange((args, kwargs))
        result = None
        if self._replica_id == 0:
            try:
                merged = per_replica(everyone)
                result = _cross_replica(self._strategy, merge_fn, *merged)
            except Exception as e:   # noqa: BLE001 - every replica raises it below
                result = _Raised(e)
        result = self._rendezvous.exchange(result)[0]
        if isinstance(result, _Raised):
            raise result.error
        return result

    def __repr__(self):
        return f"<tapegrad.distribute.ReplicaContext replica {self._replica_id} of " \
               f"{self.num_replicas_in_sync}>"


class _Raised:
    def __init__(self, error):
        self.error = error


def _cross_replica(strategy, fn, args, kwargs):
    saved = local.replica
    local.replica = None
    scopes.append(strategy)
    try:
        return fn(strategy, *args, **kwargs)
    finally:
        scopes.pop()
        local.replica = saved


def in_replica(context, fn, args, kwargs):
    """``fn(*args, **kwargs)`` run in the replica context ``context``."""
    saved = local.replica
    local.replica = context
    try:
        return fn(*args, **kwargs)
    finally:
        local.replica = saved


def experimental_set_strategy(strategy):
    """Makes ``strategy`` the one in use everywhere, as if its scope were entered for good
    (``None``: back to the default strategy)."""
    if scopes and getattr(scopes[0], "_set_for_good", False):
        scopes[0]._set_for_good = False
        scopes.pop(0)
    if strategy is not None:
        strategy._set_for_good = True
        scopes.insert(0, strategy)


def get_strategy():
    """The strategy in use: that of the replica running, or of the innermost open scope, or
    the default strategy."""
    if local.replica is not None:
        return local.replica.strategy
    return scopes[-1] if scopes else DEFAULT[0]


def has_strategy():
    """Whether a strategy other than the default one is in use."""
    return get_strategy() is not DEFAULT[0]


def in_cross_replica_context():
    """True inside a strategy's scope and outside ``strategy.run``."""
    return local.replica is None and bool(scopes)


def get_replica_context():
    """The running replica's context; ``None`` in cross-replica context; outside any strategy,
    the default strategy's one replica."""
    if local.replica is not None:
        return local.replica
    if scopes:
        return None
    return ReplicaContext(DEFAULT[0], 0)


def is_distributed(value):
    return isinstance(value, DistributedValues)
