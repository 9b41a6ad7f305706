"""An axis or a list of axes: integer type, range against the rank, negative wrap, duplicates.

TensorFlow takes an axis as a Python int, a NumPy integer or an integer tensor; a float is
rejected. Negative axes count from the end (``-1`` is the last). Reductions reject a repeated
axis (``[1, -1]`` on a matrix names axis 1 twice).

    >>> axis("Sum", -1, rank=3)
    2
    >>> axes("Sum", [0, -1], rank=3)
    (0, 2)
"""
import numbers

from ..backend import xp
from ._errors import describe, invalid, python_type_error, type_like


# TensorFlow's words for a Python float axis where they are not the int32 conversion's
_FLOAT_AXIS_WORDS = {"ArgMax": "axis must be int or Tensor with integer datatype",
                     "Unpack": "list indices must be integers or slices, not float"}


def _as_int(op, value, arg, whole_floats=False):
    """One axis as an int, with TensorFlow's conversions: a bool counts as 0/1 and a NumPy
    float holding an integer is accepted; a Python float is a ``TypeError`` (it cannot become
    an int32 tensor) and a float tensor an ``InvalidArgumentError`` (the op's index type)."""
    if isinstance(value, (numbers.Integral, xp.integer)):   # bool included, as in TensorFlow
        return int(value)
    if isinstance(value, (xp.floating, float) if whole_floats else xp.floating) \
            and float(value).is_integer():
        return int(value)
    array = getattr(value, "_value", value)
    if isinstance(array, xp.ndarray) and array.ndim == 0:
        if array.dtype.kind in "iub":
            return int(array)
        raise type_like(op, f"{op}: {arg} must be an int32 or int64 tensor, got a "
                            f"{array.dtype} tensor")
    default = f"Cannot convert {value!r} to EagerTensor of dtype int32"
    converting = f" ({_FLOAT_AXIS_WORDS.get(op, default)})" \
        if isinstance(value, float) else ""      # TensorFlow's words for a Python float
    raise python_type_error(f"{op}: {arg} must be an integer, got {describe(value)}{converting}")


def axis(op, value, rank, arg="axis", extra=0, whole_floats=False):
    """One axis as an int in ``[0, rank + extra)``; ``extra=1`` for ops that insert an axis
    (``expand_dims``, ``stack``), where ``-1`` means after the last. ``whole_floats``: a float
    holding an integer counts (ops whose axis TensorFlow reads in Python, as ``squeeze``)."""
    a = _as_int(op, value, arg, whole_floats)
    bound = rank + extra
    if not -bound <= a < bound:
        raise invalid(op, f"{op}: {arg} {a} is out of range for a tensor of rank {rank} "
                          f"(expected {-bound} <= {arg} < {bound})")
    return a + bound if a < 0 else a


def _items(value):
    array = getattr(value, "_value", value)
    if isinstance(array, xp.ndarray):
        if array.dtype.kind not in "iu":
            return None
        return [int(v) for v in array.reshape(-1)]
    if isinstance(value, (list, tuple)):
        # A list holding a float becomes a float tensor in TensorFlow: the op rejects its type.
        if any(isinstance(a, float) or getattr(getattr(a, "dtype", None), "kind", "i") in "fc"
               for a in value):
            return None
        return list(value)
    return [value]


def axes(op, value, rank, arg="axis", duplicates="reject", whole_floats=False):
    """A list of axes as a tuple of ints in ``[0, rank)``; ``None`` stays ``None`` (all axes).

    ``duplicates``: ``"reject"`` (TensorFlow's reductions), ``"keep"`` (as given).
    """
    if value is None:
        return None
    items = _items(value) if not whole_floats else \
        (list(value) if isinstance(value, (list, tuple)) else [value])
    if items is None:
        dtype = getattr(getattr(value, "_value", None), "dtype", None)
        tf_name = {"float16": "half", "float32": "float", "float64": "double"}.get(
            getattr(dtype, "name", "float32"), getattr(dtype, "name", ""))
        raise type_like(op, f"{op}: {arg} must be an int32 or int64 tensor, got "
                            f"{describe(value)}. Value for attr 'Tidx' of {tf_name} is not in "
                            f"the list of allowed values: int32, int64")
    out = tuple(axis(op, a, rank, arg, whole_floats=whole_floats) for a in items)
    if duplicates == "reject" and len(set(out)) != len(out):
        raise invalid(op, f"{op}: {arg} {list(items)} names the same axis twice")
    return out
