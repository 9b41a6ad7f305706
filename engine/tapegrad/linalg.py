"""``tf.linalg``: matrix ops and the LinearOperator family under TensorFlow's names (listed in
api_index.py)."""
from . import api_index as _api_index, ops as _ops  # noqa: F401  (the index's sources)
from .linear_operator import (  # noqa: F401
    block as _block, core as _core, diagonal as _diagonal, structured as _structured,
)
from .linear_operator import experimental  # noqa: F401  (tf.linalg.experimental)

_api_index.bind(globals(), "tf.linalg")
