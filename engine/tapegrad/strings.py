"""``tf.strings``: operations on string tensors (listed in api_index.py). The per-string
functions also take RaggedTensors of strings: their ragged forms are registered in
ops/ragged_elementwise_ops.py."""
from . import api_index as _api_index, ops as _ops  # noqa: F401  (_ops: the index's source)

_api_index.bind(globals(), "tf.strings")
