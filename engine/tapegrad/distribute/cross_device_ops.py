"""How a MirroredStrategy combines its replicas' values (``cross_device_ops=``), and the options
of a step and of a cluster: accepted, for TensorFlow code that names them. On one CPU every
choice reduces the same way (the replica threads' barrier, ``rendezvous.py``); across processes
MPI does (``collective.py``)."""
import json
import os


class CrossDeviceOps:
    """``tf.distribute.CrossDeviceOps``: the base of the reduction choices."""

    def __init__(self, *args, **kwargs):
        self._args, self._kwargs = args, kwargs


class ReductionToOneDevice(CrossDeviceOps):
    """Reduces on one device, then copies the result back."""


class NcclAllReduce(CrossDeviceOps):
    """NVIDIA's NCCL all-reduce (GPUs); the same reduction here."""


class HierarchicalCopyAllReduce(CrossDeviceOps):
    """Hierarchical copies between GPUs; the same reduction here."""


class RunOptions:
    """``tf.distribute.RunOptions`` for ``strategy.run(..., options=)``: accepted."""

    def __init__(self, experimental_enable_dynamic_batch_size=True,
                 experimental_bucketizing_dynamic_shape=False, experimental_xla_options=None):
        self.experimental_enable_dynamic_batch_size = experimental_enable_dynamic_batch_size
        self.experimental_bucketizing_dynamic_shape = experimental_bucketizing_dynamic_shape
        self.experimental_xla_options = experimental_xla_options


class SimpleClusterResolver:
    """``tf.distribute.cluster_resolver.SimpleClusterResolver``: a cluster given in full."""

    def __init__(self, cluster_spec, master="", task_type=None, task_id=None, environment="",
                 num_accelerators=None, rpc_layer=None):
        self._cluster_spec = cluster_spec
        self.task_type, self.task_id = task_type, task_id
        self.environment, self.rpc_layer = environment, rpc_layer

    def cluster_spec(self):
        return self._cluster_spec

    def master(self, task_type=None, task_id=None, rpc_layer=None):
        return ""


class TFConfigClusterResolver(SimpleClusterResolver):
    """``tf.distribute.cluster_resolver.TFConfigClusterResolver``: the cluster in ``TF_CONFIG``.
    Under MPI the processes come from ``mpiexec``, and this is only read, never used to
    connect."""

    def __init__(self, task_type=None, task_id=None, rpc_layer=None, environment=None):
        config = json.loads(os.environ.get("TF_CONFIG") or "{}")
        task = config.get("task", {})
        super().__init__(config.get("cluster", {}),
                         task_type=task_type if task_type is not None else task.get("type"),
                         task_id=task_id if task_id is not None else task.get("index"),
                         environment=environment or config.get("environment", ""),
                         rpc_layer=rpc_layer)
