"""All-reduce as a primitive: every replica's array goes in, their sum (or mean) comes out on
every replica. Its reverse rule is the all-reduce of the cotangents (the gradient of one
replica's input gathers every replica's upstream gradient), its forward rule the all-reduce of
the tangents, so a tape around a collective step is correct to any order.

The replicas meet in a *group*: ``GROUPS[key]`` has ``all_reduce(array, op) -> array``. Group 0
is a replica alone (the result is its input); a MirroredStrategy's replica threads
(``rendezvous.LocalGroup``) and MPI's processes (``collective.MpiGroup``) register their own.

>>> import tapegrad as tf
>>> from tapegrad.distribute.allreduce import all_reduce
>>> print(all_reduce(tf.constant([1.0, 2.0])))      # group 0: one replica
tf.Tensor([1. 2.], shape=(2,), dtype=float32)
"""
import itertools
import os

from .. import shape_rules
from ..batching import own_vjp
from ..checks.dtype_rules import NUMBER
from ..ops import concat, reshape, split
from ..recording import bind
from ..table import deflinear, defshape, primitive
from ..tensor import convert_to_tensor


class Alone:
    """The group of one replica: all-reducing is the identity."""

    size = 1

    def all_reduce(self, array, op):
        return array


GROUPS = {0: Alone()}
_keys = itertools.count(1)


def register(group):
    """Adds ``group`` to ``GROUPS`` and gives its key."""
    key = next(_keys)
    GROUPS[key] = group
    return key


def _impl(x, group=0, op="SUM"):
    return GROUPS[group].all_reduce(x, op)


ALL_REDUCE = primitive("CollectiveAllReduce", _impl, dtypes=NUMBER)
deflinear(ALL_REDUCE, lambda g, ans, x, group=0, op="SUM": bind(ALL_REDUCE, (g,),
                                                                   {"group": group, "op": op}))
defshape(ALL_REDUCE, shape_rules.same)
own_vjp(ALL_REDUCE)


def _sum_impl(*parts):
    total = parts[0]
    for part in parts[1:]:
        total = total + part
    return total


def _sum_vjp(g, ans, inputs, attrs, wanted):
    return [g if w else None for w in wanted]


# The local replicas' values joined into one (``strategy.reduce``): one node in a tape's graph,
# with an edge from each replica; the gradient of each part is the upstream gradient.
REPLICAS_SUM = primitive("AllReduce", _sum_impl, dtypes=NUMBER)
deflinear(REPLICAS_SUM)
REPLICAS_SUM.vjp = _sum_vjp
defshape(REPLICAS_SUM, shape_rules.same)
own_vjp(REPLICAS_SUM)


def sum_replicas(parts):
    """The sum of the local replicas' tensors (of one shape and dtype), as one op."""
    parts = tuple(convert_to_tensor(p) for p in parts)
    return parts[0] if len(parts) == 1 else bind(REPLICAS_SUM, parts, {})


def all_reduce(x, group=0, op="SUM"):
    """``x`` summed (``op="MEAN"``: averaged) over the replicas of ``group``."""
    return bind(ALL_REDUCE, (convert_to_tensor(x),), {"group": group, "op": op})


def bucket_bytes():
    """The most bytes one fused all-reduce carries (``TAPEGRAD_ALLREDUCE_BUCKET_MB``, default
    25 MB as Horovod's fusion buffer and PyTorch DDP's buckets): a bigger gradient set goes in
    several buffers, so no step needs one copy of every gradient at once."""
    return int(float(os.environ.get("TAPEGRAD_ALLREDUCE_BUCKET_MB", "25")) * 2**20)


def buckets(sizes, limit):
    """Consecutive positions of ``sizes`` (bytes) in groups of at most ``limit`` bytes (a bigger
    one alone).

    >>> buckets([4, 4, 4, 10, 1], 8)
    [[0, 1], [2], [3], [4]]
    """
    out, total = [], 0
    for i, size in enumerate(sizes):
        if out and total + size <= limit:
            out[-1].append(i)
            total += size
        else:
            out.append([i])
            total = size
    return out


def all_reduce_fused(tensors, group=0, op="SUM", limit=None):
    """Each tensor all-reduced, in few buffers: the tensors of one dtype are flattened and joined
    into buffers of at most ``limit`` bytes (default ``bucket_bytes()``), each all-reduced once
    and cut back into their shapes (recorded by a tape like any op). Sums are per element, so
    the buckets change no result."""
    tensors = [convert_to_tensor(t) for t in tensors]
    limit = bucket_bytes() if limit is None else limit
    out = [None] * len(tensors)
    by_dtype = {}
    for i, t in enumerate(tensors):
        by_dtype.setdefault(t.dtype, []).append(i)
    for positions in by_dtype.values():
        sizes = [int(tensors[i].shape.num_elements()) * tensors[i].dtype.size for i in positions]
        for bucket in buckets(sizes, limit):
            _reduce_joined([positions[k] for k in bucket], tensors, out, group, op)
    return out


def _reduce_joined(positions, tensors, out, group, op):
    """All-reduces ``tensors[positions]`` as one flat buffer into ``out[positions]``."""
    parts = [tensors[i] for i in positions]
    if len(parts) == 1:
        out[positions[0]] = all_reduce(parts[0], group, op)
        return
    flat = all_reduce(concat([reshape(t, [-1]) for t in parts], 0), group, op)
    sizes = [int(t.shape.num_elements()) for t in parts]
    for i, piece, t in zip(positions, split(flat, sizes), parts):
        out[i] = reshape(piece, t.shape)
