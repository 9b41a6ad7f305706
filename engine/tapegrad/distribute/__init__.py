"""``tf.distribute``: data-parallel training (listed in api_index.py; docs/distributed.md).

``MirroredStrategy`` runs one replica per logical device in this process; ``OneDeviceStrategy``
one replica; ``MultiWorkerMirroredStrategy`` one replica per MPI process (the optional extra
``tapegrad[mpi]``); ``DistributedGradientTape`` (tapegrad's own, as Horovod's) all-reduces a
custom loop's gradients.
"""
from .. import api_index as _api_index
from . import context as _context, cross_device_ops as _cross_device_ops  # noqa: F401
from . import gradient_tape as _gradient_tape  # noqa: F401
from . import input as _input, reduce_op as _reduce_op, strategies as _strategies  # noqa: F401
from . import values as _values  # noqa: F401

_api_index.bind(globals(), "tf.distribute")


class experimental:  # noqa: N801 - a namespace, as tf.distribute.experimental
    """``tf.distribute.experimental``: the names tapegrad has of it."""

    MultiWorkerMirroredStrategy = _strategies.MultiWorkerMirroredStrategy
    ValueContext = _strategies.ValueContext


class cluster_resolver:  # noqa: N801 - a namespace, as tf.distribute.cluster_resolver
    """``tf.distribute.cluster_resolver``: accepted by MultiWorkerMirroredStrategy and kept
    (MPI decides the workers)."""

    SimpleClusterResolver = _cross_device_ops.SimpleClusterResolver
    TFConfigClusterResolver = _cross_device_ops.TFConfigClusterResolver
