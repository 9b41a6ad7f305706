"""``tf.math``: the math ops under TensorFlow's names (listed in api_index.py)."""
from . import api_index as _api_index, ops as _ops  # noqa: F401  (_ops: the index's source)

_api_index.bind(globals(), "tf.math")


class special:  # noqa: N801 - a namespace, as tf.math.special
    """``tf.math.special``: the Bessel functions I0 and I1, plain and scaled."""

    bessel_i0 = staticmethod(_ops.bessel_i0)
    bessel_i1 = staticmethod(_ops.bessel_i1)
    bessel_i0e = staticmethod(_ops.bessel_i0e)
    bessel_i1e = staticmethod(_ops.bessel_i1e)
