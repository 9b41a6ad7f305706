"""Index ranges: gather's indices, unstack's axis, slice's begin and size.

    >>> slice_bounds("Slice", [0, 1], [2, -1], (2, 3))
    ((0, 1), (2, 2))
"""
from ..backend import xp
from ._errors import invalid


def indices_in_range(op, indices, limit, arg="indices"):
    """Every entry of the integer array ``indices`` lies in ``[0, limit)``."""
    if indices.size == 0:
        return
    bad = (indices < 0) | (indices >= limit)
    if bad.any():
        where = tuple(int(i) for i in xp.argwhere(bad)[0])
        at = ",".join(map(str, where))
        raise invalid(op, f"{op}: {arg}[{at}] = {int(indices[where])} is not in [0, {limit})")


def slice_bounds(op, begin, size, shape):
    """``begin`` and ``size`` of ``tf.slice`` checked against ``shape``; ``size`` -1 means to
    the end. Returns the begin and the concrete sizes."""
    rank = len(shape)
    if len(begin) != rank or len(size) != rank:
        raise invalid(op, f"{op}: begin and size must each have one entry per dimension "
                          f"({rank}), got {len(begin)} and {len(size)}")
    sizes = []
    for i, (b, s, d) in enumerate(zip(begin, size, shape)):
        if not 0 <= b <= d:
            if d == 0:   # TensorFlow's words for an empty dimension
                raise invalid(op, f"{op}: Expected begin[{i}] == 0 (got {b}) and size[{i}] == 0 "
                                  f"(got {s if s != -1 else d - b}) when input.dim_size({i}) == 0")
            raise invalid(op, f"{op}: begin[{i}] must be in [0, {d}], got {b}")
        if s == -1:
            s = d - b
        if not 0 <= s <= d - b:
            raise invalid(op, f"{op}: size[{i}] must be in [0, {d - b}], got {s}")
        sizes.append(s)
    return tuple(begin), tuple(sizes)
