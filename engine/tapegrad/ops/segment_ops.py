"""Segment reductions: ``segment_*`` (sorted ids) and ``unsorted_segment_*`` (any ids).

``out[k]`` reduces the rows of ``data`` whose id is ``k``. Sums and means are composed from the
``UnsortedSegmentSum`` primitive; max, min and prod are primitives with TensorFlow's rules:
max/min share the gradient equally among the entries tied for the extreme, prod gives each
entry the product of the others (zeros handled without dividing by zero).

Empty segments, as in TensorFlow: sum/mean/sqrt_n give 0 and prod 1; ``unsorted_segment_max``
gives the dtype's lowest finite value (-3.4e38 for float32) and ``unsorted_segment_min`` its
highest,
while the sorted ``segment_max``/``segment_min`` give 0. A negative id in an unsorted op drops
its row.
"""
from ..backend import xp
from ..errors import InvalidArgumentError
from ..recording import bind
from ..table import defjvp, defvjp, primitive
from ..checks.dtype_rules import NUMBER, REAL
from .. import shape_rules
from ..table import defshape
from ..tensor import convert_to_tensor, wrap
from ..variables import Variable
from ..ground import multiply, reshape
from .arithmetic_ops import cast, divide, maximum, realdiv
from .array_ops import ones_like, zeros_like
from .exponential_ops import sqrt
from .indexing_ops import gather, unsorted_segment_sum as _unsorted_sum_nonneg
from .logic_ops import equal, greater, where
from ..batching import rows_last


def _tensor(x):
    return x.read_value() if isinstance(x, Variable) else convert_to_tensor(x)


def _fmt(shape):
    return "[" + ",".join(map(str, shape)) + "]"


def _ids(segment_ids, data, op):
    ids = _tensor(segment_ids)
    if ids.dtype.is_integer is False:
        raise TypeError(f"{op}: segment_ids must be int32 or int64, got {ids.dtype.name}")
    if tuple(ids._value.shape) != tuple(data._value.shape[:ids._value.ndim]):
        raise InvalidArgumentError(f"data.shape = {_fmt(data._value.shape)} does not start with "
                                   f"segment_ids.shape = {_fmt(ids._value.shape)} [Op:{op}]")
    return ids


def _flat(data, ids):
    """data with the id axes flattened into one, and the ids flattened to match."""
    k = ids._value.ndim
    if k == 1:
        return data, ids
    return (reshape(data, (-1,) + tuple(data._value.shape[k:])),
            wrap(ids._value.reshape(-1)))


def _extreme_impl(data, ids, num_segments, find_max):
    out_shape = (num_segments,) + data.shape[1:]
    info = xp.finfo(data.dtype) if data.dtype.kind == "f" else xp.iinfo(data.dtype)
    start = info.min if find_max else info.max       # finite, as TensorFlow's lowest()
    out = xp.full(out_shape, start, data.dtype)
    keep = ids >= 0
    (xp.maximum if find_max else xp.minimum).at(out, ids[keep], data[keep])
    return out


def _prod_impl(data, ids, num_segments):
    out = xp.ones((num_segments,) + data.shape[1:], data.dtype)
    keep = ids >= 0
    xp.multiply.at(out, ids[keep], data[keep])
    return out


SEGMENT_MAX = primitive("UnsortedSegmentMax",
                        lambda data, ids, num_segments: _extreme_impl(data, ids, num_segments, True),
                        dtypes=REAL)
defshape(SEGMENT_MAX, shape_rules.segments)
SEGMENT_MIN = primitive("UnsortedSegmentMin",
                        lambda data, ids, num_segments: _extreme_impl(data, ids, num_segments, False),
                        dtypes=REAL)
defshape(SEGMENT_MIN, shape_rules.segments)
SEGMENT_PROD = primitive("UnsortedSegmentProd", _prod_impl, dtypes=NUMBER)
defshape(SEGMENT_PROD, shape_rules.segments)


def _safe_ids(ids):
    """Ids with the dropped (negative) rows pointed at segment 0, and a mask of the kept rows."""
    v = ids._value
    return wrap(xp.maximum(v, 0)), v >= 0


def _row_mask(mask, like):
    """A (rows, 1, 1, ...) bool tensor from a per-row mask, to broadcast against ``like``."""
    return wrap(mask.reshape(mask.shape + (1,) * (like._value.ndim - 1)))


def _segment_sum(data, ids, num_segments):
    """Sum of rows by id, dropping negative ids (differentiable through UnsortedSegmentSum)."""
    v = ids._value
    if (v < 0).any():
        safe, kept = _safe_ids(ids)
        data = where(_row_mask(kept, data), data, zeros_like(data))
        ids = safe
    return _unsorted_sum_nonneg(data, ids, num_segments)


def _extreme_vjp(prim):
    def vjp(g, ans, data, ids, num_segments):
        # TensorFlow: the gradient is split equally among the entries equal to the extreme.
        safe, kept = _safe_ids(ids)
        chosen = equal(data, gather(ans, safe))
        chosen = cast(chosen, data.dtype)
        if not kept.all():
            chosen = multiply(chosen, cast(_row_mask(kept, data), data.dtype))
        count = _segment_sum(chosen, ids, num_segments)
        share = divide(gather(g, safe), gather(maximum(count, ones_like(count)), safe))
        return multiply(chosen, share)
    return vjp


def _extreme_jvp(t, ans, data, ids, num_segments):
    safe, kept = _safe_ids(ids)
    chosen = cast(equal(data, gather(ans, safe)), data.dtype)
    if not kept.all():
        chosen = multiply(chosen, cast(_row_mask(kept, data), data.dtype))
    count = _segment_sum(chosen, ids, num_segments)
    return divide(_segment_sum(multiply(chosen, t), ids, num_segments),
                  maximum(count, ones_like(count)))


for _prim in (SEGMENT_MAX, SEGMENT_MIN):
    defvjp(_prim, _extreme_vjp(_prim), None)
    defjvp(_prim, _extreme_jvp, None)


def _prod_others(ans, data, ids, num_segments):
    """d prod / d data[i]: the product of the other rows of i's segment (TensorFlow's rule:
    prod / data[i] without zeros; with one zero only that entry gets the rest's product; with
    two or more zeros every entry gets 0)."""
    safe, _ = _safe_ids(ids)
    is_zero = equal(data, zeros_like(data))
    zeros_in_segment = _segment_sum(cast(is_zero, data.dtype), ids, num_segments)
    nonzero_data = where(is_zero, ones_like(data), data)
    nonzero_prod = bind(SEGMENT_PROD, (nonzero_data, ids), {"num_segments": num_segments})
    others = where(is_zero, gather(nonzero_prod, safe),
                   realdiv(gather(ans, safe), nonzero_data))
    many_zeros = greater(gather(zeros_in_segment, safe), ones_like(data))
    return where(many_zeros, zeros_like(data), others)


def _prod_vjp(g, ans, data, ids, num_segments):
    safe, kept = _safe_ids(ids)
    out = multiply(gather(g, safe), _prod_others(ans, data, ids, num_segments))
    if not kept.all():
        out = where(_row_mask(kept, data), out, zeros_like(out))
    return out


defvjp(SEGMENT_PROD, _prod_vjp, None)
defjvp(SEGMENT_PROD, lambda t, ans, data, ids, num_segments: _segment_sum(
    multiply(t, _prod_others(ans, data, ids, num_segments)), ids, num_segments), None)


# -- the public functions ---------------------------------------------------------------------
def _prepare(data, segment_ids, num_segments, op, sorted_ids):
    d = _tensor(data)
    ids = _ids(segment_ids, d, op)
    if sorted_ids:
        v = ids._value
        if v.ndim != 1:
            raise InvalidArgumentError(f"segment_ids should be a vector. [Op:{op}]")
        if v.size and (xp.diff(v) < 0).any():
            raise InvalidArgumentError(f"segment ids are not increasing [Op:{op}]")
        if v.size and v[0] < 0:
            raise InvalidArgumentError(f"segment ids must be >= 0 [Op:{op}]")
        n = int(v[-1]) + 1 if v.size else 0
    else:
        n = int(_tensor(num_segments)._value) if not isinstance(num_segments, int) \
            else num_segments
        if n < 0:
            raise InvalidArgumentError(f"num_segments must be non-negative, got {n} [Op:{op}]")
        bad = ids._value >= n
        if bad.any():
            pos = ",".join(map(str, xp.argwhere(bad)[0]))
            raise InvalidArgumentError(f"segment_ids[{pos}] = {int(ids._value[bad][0])} is out "
                                       f"of range [0, {n}) [Op:{op}]")
    d, ids = _flat(d, ids)
    return d, ids, n


def _count(ids, n, like):
    v = ids._value
    counts = xp.bincount(v[v >= 0].astype(xp.intp), minlength=n)[:n].astype(like._value.dtype)
    return wrap(counts.reshape((n,) + (1,) * (like._value.ndim - 1)))


def _sum(data, segment_ids, num_segments, op, sorted_ids):
    d, ids, n = _prepare(data, segment_ids, num_segments, op, sorted_ids)
    return _segment_sum(d, ids, n)


def _mean(data, segment_ids, num_segments, op, sorted_ids, root=False):
    d, ids, n = _prepare(data, segment_ids, num_segments, op, sorted_ids)
    count = _count(ids, n, d)
    count = wrap(xp.maximum(count._value, 1))
    if root:
        count = sqrt(count)
    return divide(_segment_sum(d, ids, n), count)


def _extreme(prim, data, segment_ids, num_segments, op, sorted_ids):
    d, ids, n = _prepare(data, segment_ids, num_segments, op, sorted_ids)
    out = bind(prim, (d, ids), {"num_segments": n})
    if sorted_ids:
        # the sorted ops give 0 for a segment no id names
        empty = _count(ids, n, d)._value == 0
        if empty.any():
            out = where(wrap(xp.broadcast_to(empty, out._value.shape)), zeros_like(out), out)
    return out


def _prod(data, segment_ids, num_segments, op, sorted_ids):
    d, ids, n = _prepare(data, segment_ids, num_segments, op, sorted_ids)
    return bind(SEGMENT_PROD, (d, ids), {"num_segments": n})


def segment_sum(data, segment_ids, name=None):
    """Sums of the rows of ``data`` sharing an id; ids sorted, ``max(id) + 1`` segments.

    >>> import tapegrad as tf
    >>> tf.math.segment_sum([1.0, 2.0, 3.0], [0, 0, 2]).numpy().tolist()
    [3.0, 0.0, 3.0]
    """
    return _sum(data, segment_ids, None, "SegmentSum", True)


def segment_mean(data, segment_ids, name=None):
    """Means of the rows sharing an id (ids sorted); empty segments give 0."""
    return _mean(data, segment_ids, None, "SegmentMean", True)


def segment_max(data, segment_ids, name=None):
    """Maxima of the rows sharing an id (ids sorted); empty segments give 0."""
    return _extreme(SEGMENT_MAX, data, segment_ids, None, "SegmentMax", True)


def segment_min(data, segment_ids, name=None):
    """Minima of the rows sharing an id (ids sorted); empty segments give 0."""
    return _extreme(SEGMENT_MIN, data, segment_ids, None, "SegmentMin", True)


def segment_prod(data, segment_ids, name=None):
    """Products of the rows sharing an id (ids sorted); empty segments give 1."""
    return _prod(data, segment_ids, None, "SegmentProd", True)


def unsorted_segment_sum(data, segment_ids, num_segments, name=None):
    """Sums of the rows sharing an id, for ``num_segments`` segments (ids in any order).

    >>> import tapegrad as tf
    >>> tf.math.unsorted_segment_sum([1.0, 2.0, 3.0], [1, 0, 1], 2).numpy().tolist()
    [2.0, 4.0]
    """
    return _sum(data, segment_ids, num_segments, "UnsortedSegmentSum", False)


def unsorted_segment_mean(data, segment_ids, num_segments, name=None):
    """Means of the rows sharing an id; empty segments give 0."""
    return _mean(data, segment_ids, num_segments, "UnsortedSegmentMean", False)


def unsorted_segment_sqrt_n(data, segment_ids, num_segments, name=None):
    """Sums of the rows sharing an id divided by sqrt(number of rows); empty segments give 0."""
    return _mean(data, segment_ids, num_segments, "UnsortedSegmentSqrtN", False, root=True)


def unsorted_segment_max(data, segment_ids, num_segments, name=None):
    """Maxima of the rows sharing an id; empty segments give the dtype's lowest value."""
    return _extreme(SEGMENT_MAX, data, segment_ids, num_segments, "UnsortedSegmentMax", False)


def unsorted_segment_min(data, segment_ids, num_segments, name=None):
    """Minima of the rows sharing an id; empty segments give the dtype's highest value."""
    return _extreme(SEGMENT_MIN, data, segment_ids, num_segments, "UnsortedSegmentMin", False)


def unsorted_segment_prod(data, segment_ids, num_segments, name=None):
    """Products of the rows sharing an id; empty segments give 1."""
    return _prod(data, segment_ids, num_segments, "UnsortedSegmentProd", False)


# -- batched rules (batching.py): every row of a jacobian in one pass --------------------------
rows_last(SEGMENT_MAX, SEGMENT_MIN, SEGMENT_PROD)
