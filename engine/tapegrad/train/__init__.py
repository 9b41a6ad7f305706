"""``tf.train``: checkpoints, their state and options, moving averages, tf.train.Example's
messages, and ClusterSpec / Coordinator.

>>> import tapegrad as tf
>>> sorted(n for n in ("Checkpoint", "CheckpointManager", "latest_checkpoint") if hasattr(tf.train, n))
['Checkpoint', 'CheckpointManager', 'latest_checkpoint']
"""
from .checkpoint import (  # noqa: F401
    Checkpoint, CheckpointLoadStatus, CheckpointManager, CheckpointReader, latest_checkpoint,
    list_variables, load_checkpoint, load_variable,
)
from ..io_example.messages import (  # noqa: F401  (tf.train's protocol messages)
    BytesList, Example, Feature, FeatureList, FeatureLists, Features, FloatList, Int64List,
    SequenceExample,
)
from .checkpoint_state import (  # noqa: F401
    CheckpointOptions, CheckpointState, checkpoints_iterator, get_checkpoint_state,
)
from .cluster import ClusterSpec, Coordinator  # noqa: F401
from .moving_average import ExponentialMovingAverage  # noqa: F401
