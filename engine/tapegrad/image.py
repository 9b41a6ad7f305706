"""``tf.image``: resizing, crops, flips, colour spaces and adjustments, quality measures,
non-max suppression, patches, the random and stateless-random augmentations, PNG/BMP/GIF codecs
(listed in api_index.py).

``adjust_contrast``, ``adjust_hue`` and ``adjust_saturation`` are primitives with no gradient
registered, exactly as in TensorFlow, so asking a tape for a gradient through one raises
``LookupError`` naming the op (``AdjustContrastv2``, ...).
"""
from . import api_index as _api_index, ops as _ops  # noqa: F401  (_ops: the index's source)

_api_index.bind(globals(), "tf.image")
