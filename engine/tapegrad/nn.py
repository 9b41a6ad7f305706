"""``tf.nn``: activations and neural-network ops under TensorFlow's names (listed in
api_index.py)."""
from . import api_index as _api_index, ops as _ops  # noqa: F401  (the index's sources)
from . import candidate_sampling as _cs, random as _random, rnn_cell_wrappers as _rcw  # noqa: F401
from . import nn_experimental as experimental  # noqa: F401  (tf.nn.experimental)

_api_index.bind(globals(), "tf.nn")
