"""``tf.train``: checkpoints and moving averages.

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
from .moving_average import ExponentialMovingAverage  # noqa: F401
