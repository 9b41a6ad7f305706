"""``tf.experimental``: the namespace of TF-NumPy (``tf.experimental.numpy``, in numpy_api/) and
``DynamicRaggedShape`` (ops/ragged_shape.py); ``Optional`` is tf.data's.

``import tapegrad.experimental.numpy as tnp`` (and ``import tensorflow.experimental.numpy`` with
the aliases) finds it through ``sys.modules``.
"""
import sys

from .. import numpy_api as numpy
from ..ops.ragged_shape import DynamicRaggedShape  # noqa: F401

sys.modules[__name__ + ".numpy"] = numpy
sys.modules[__name__ + ".numpy.random"] = numpy.random


def __getattr__(name):
    """``tf.experimental.Optional`` is tf.data's, loaded with tf.data when first asked for
    (``import tapegrad`` does not load tf.data)."""
    if name == "Optional":
        from ..data.experimental import Optional
        return Optional
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
