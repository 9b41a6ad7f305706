"""``tf.ragged``: building RaggedTensors (listed in api_index.py)."""
from . import api_index as _api_index, ops as _ops  # noqa: F401  (_ops: the index's source)

_api_index.bind(globals(), "tf.ragged")
