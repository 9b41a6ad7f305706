"""Counts: ``one_hot``'s depth, ``split``'s number of pieces, ``eye``'s rows.

    >>> count("OneHot", 3, "depth")
    3
"""
import numbers

from ..backend import xp
from ._errors import describe, invalid, python_type_error


def count(op, value, arg, minimum=0):
    """An integer ``>= minimum`` (any integer when ``minimum`` is None); a float is a
    ``TypeError`` (as TensorFlow's int32 conversion)."""
    array = getattr(value, "_value", value)
    if isinstance(array, xp.ndarray) and array.ndim == 0 and array.dtype.kind in "iu":
        value = int(array)
    if isinstance(value, bool) or not isinstance(value, (numbers.Integral, xp.integer)):
        converting = f" (Cannot convert {value!r} to EagerTensor of dtype int32)" \
            if isinstance(value, float) else ""      # TensorFlow's words for a Python float
        raise python_type_error(f"{op}: {arg} must be an integer, got {describe(value)}"
                                f"{converting}")
    value = int(value)
    if minimum is not None and value < minimum:
        raise invalid(op, f"{op}: {arg} must be >= {minimum}, got {value}")
    return value
