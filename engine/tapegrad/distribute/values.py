"""Distributed values: one component per replica (``PerReplica``), or one value kept the same
on every replica (``Mirrored``), printed as TensorFlow prints them.

>>> import tapegrad as tf
>>> from tapegrad.distribute.values import PerReplica
>>> print(PerReplica((tf.constant(1.0), tf.constant(2.0))))
PerReplica:{
  0: tf.Tensor(1.0, shape=(), dtype=float32),
  1: tf.Tensor(2.0, shape=(), dtype=float32)
}
"""
from .. import nest


class DistributedValues:
    """``tf.distribute.DistributedValues``: the values of one thing on each local replica."""

    def __init__(self, values):
        self._values = tuple(values)

    @property
    def values(self):
        return self._values

    def _listing(self, show):
        lines = [f"  {i}: {show(v)}" for i, v in enumerate(self._values)]
        return f"{type(self).__name__}:{{\n" + ",\n".join(lines) + "\n}"

    def __str__(self):
        return self._listing(str)

    def __repr__(self):
        return self._listing(repr)


class PerReplica(DistributedValues):
    """What each replica computed (``strategy.run``'s result, a distributed dataset's batch)."""


class Mirrored(DistributedValues):
    """One value, the same on every replica."""


def local_values(value, count):
    """The ``count`` per-replica parts of ``value`` (a plain value is the same for each)."""
    if isinstance(value, DistributedValues):
        if len(value.values) != count:
            raise ValueError(f"a distributed value of {len(value.values)} replicas given to a "
                             f"strategy of {count}")
        return value.values
    return (value,) * count


def per_replica(results):
    """Several replicas' results (the same nest each) as one nest with a ``PerReplica`` at each
    leaf; one replica's result is itself."""
    if len(results) == 1:
        return results[0]
    leaves = zip(*(nest.flatten(r) for r in results))
    return nest.pack_sequence_as(results[0], [_regroup(parts) for parts in leaves])


def _regroup(parts):
    """The replicas' values of one leaf: one object when every replica gave that same object
    (a merged result, a Python constant), as TensorFlow regroups them."""
    return parts[0] if all(p is parts[0] for p in parts) else PerReplica(parts)
