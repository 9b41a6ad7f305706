"""Reductions of RaggedTensors (``tf.reduce_sum`` and the others TensorFlow dispatches for ragged
inputs: prod, min, max, mean, variance, std, all, any), over any axis of any ragged rank, as
TensorFlow computes them:

- ``axis=None``: the flat values reduced as a dense tensor.
- axis 0 (the rows): each column position across the rows is a segment of ``rt.values``.
- axis 1 (a ragged axis): each row is a segment of ``rt.values``.
- a deeper axis: the same reduction of ``rt.values`` one axis up, in ``rt``'s rows.
- a list of axes: one axis at a time, the last first.

Segments of ragged data make ragged results: a segment's row is as long as its longest member
row, and member rows add up position by position (``_segments``). Values move through
``unsorted_segment_*`` ops, so gradients reach them. Mean is sum ÷ count; variance is
``max(mean(x²) − mean(x)², 0)`` and all/any are a product/sum of 0/1 integers, as in TensorFlow
(its variance loses precision for values far from zero; it is matched, see docs/coverage.md).
"""
from .. import dtypes
from ..backend import xp
from ..ground import reshape
from ..replayed import replayed
from ..tensor import wrap
from .arithmetic_ops import cast as _cast, divide, maximum as _maximum, subtract as _subtract
from .array_ops import expand_dims as _expand_dims
from .composite_dispatch import public_op
from .exponential_ops import square as _square, sqrt as _sqrt
from .ragged_ops import RaggedTensor, _column_ids, map_flat_values, positive_axis, ragged_form
from .reduction_ops import (reduce_all, reduce_any, reduce_max, reduce_mean, reduce_min,
                            reduce_prod, reduce_std, reduce_sum, reduce_variance)
from . import segment_ops

# the public ops, which take RaggedTensors too (their forms are registered by the ragged modules)
cast, expand_dims, maximum, subtract, square, sqrt = map(
    public_op, (_cast, _expand_dims, _maximum, _subtract, _square, _sqrt))

DENSE = {"sum": reduce_sum, "max": reduce_max, "min": reduce_min, "prod": reduce_prod}
SEGMENT = {"sum": segment_ops.unsorted_segment_sum, "max": segment_ops.unsorted_segment_max,
           "min": segment_ops.unsorted_segment_min, "prod": segment_ops.unsorted_segment_prod}


def _axes(axis):
    """None, an int, or a list of ints, from what a user gives (a tensor, a tuple)."""
    axis = getattr(axis, "_value", axis)
    if axis is None:
        return None
    if hasattr(axis, "ndim"):
        return int(axis) if axis.ndim == 0 else [int(a) for a in axis.tolist()]
    if isinstance(axis, (list, tuple)):
        return [int(getattr(a, "_value", a)) for a in axis]
    return int(axis)


def reduce(kind, x, axis=None, keepdims=False):
    """``kind`` ('sum', 'max', 'min', 'prod') of ``x`` (ragged or dense) over ``axis``."""
    if not isinstance(x, RaggedTensor):
        return DENSE[kind](x, axis=axis, keepdims=keepdims)
    axis, rank = _axes(axis), x.shape.rank
    if axis is None:
        out = DENSE[kind](x.flat_values, keepdims=keepdims)
        return reshape(out, [1] * rank) if keepdims else out
    if isinstance(axis, list):
        if not axis:
            return x
        if len(axis) > 1:
            axes = sorted(positive_axis(a, rank) for a in axis)
            inner = reduce(kind, x, axes[-1], keepdims)
            return reduce(kind, inner, axes[:-1], keepdims)
        axis = axis[0]
    axis = positive_axis(axis, rank)
    if axis == 0:
        lengths = x.row_lengths()._value
        width = max(int(lengths.max()), 0) if lengths.size else 0
        out = _segments(kind, x.values, _column_ids(x), width)
    elif axis == 1:
        out = _segments(kind, x.values, x.value_rowids()._value, int(x.nrows()._value))
    else:
        return x.with_values(reduce(kind, x.values, axis - 1, keepdims))
    return expand_dims(out, axis) if keepdims else out


def _segments(kind, data, ids, n):
    """``kind`` of the rows of ``data`` grouped by ``ids`` into ``n`` segments; ragged rows add
    up position by position into a row as long as the segment's longest."""
    if not isinstance(data, RaggedTensor):
        return SEGMENT[kind](data, wrap(ids.astype(xp.int64)), n)
    lengths = data.row_lengths()._value
    out_lengths = xp.zeros(n, xp.int64)
    xp.maximum.at(out_lengths, ids.astype(xp.intp), lengths)
    splits = xp.concatenate([[0], xp.cumsum(out_lengths)]).astype(xp.int64)
    starts = splits[ids.astype(xp.intp)]
    positions = _column_ids(data) + xp.repeat(starts, lengths.astype(xp.intp))
    values = _segments(kind, data.values, positions, int(splits[-1]))
    return RaggedTensor.from_row_splits(values, wrap(splits.astype(data.row_splits._value.dtype)),
                                        validate=False)


def mean(x, axis=None, keepdims=False):
    total = reduce("sum", x, axis, keepdims)
    ones = x.with_flat_values(wrap(xp.ones_like(x.flat_values._value)))
    return map_flat_values(divide, total, reduce("sum", ones, axis, keepdims))


def variance(x, axis=None, keepdims=False):
    if x.dtype.is_complex:
        raise ValueError("reduce_variance is not supported for RaggedTensors with complex dtypes.")
    mean_of_square = mean(square(x), axis, keepdims)
    square_of_mean = square(mean(x, axis, keepdims))
    return maximum(subtract(mean_of_square, square_of_mean), 0)


def _as_flags(kind):
    def reduce_flags(x, axis=None, keepdims=False):
        return cast(reduce(kind, cast(x, dtypes.int32), axis, keepdims), dtypes.bool)
    return reduce_flags


def _form(compute, name):
    """The ragged form of ``tf.<name>``. It reads the row partition in Python, so in a traced
    function it is one node called again on every call (``replayed.py``), its result's shape
    depending on the row lengths."""
    def form(input_tensor, axis=None, keepdims=False, name=None):
        return compute(input_tensor, axis, keepdims)
    form.__name__ = form.__qualname__ = f"ragged_{name}"
    op = "Ragged" + "".join(part.title() for part in name.split("_"))
    return replayed(op, dynamic_shape=True)(form)


FORMS = {reduce_sum: lambda x, a, k: reduce("sum", x, a, k),
         reduce_max: lambda x, a, k: reduce("max", x, a, k),
         reduce_min: lambda x, a, k: reduce("min", x, a, k),
         reduce_prod: lambda x, a, k: reduce("prod", x, a, k),
         reduce_mean: mean,
         reduce_variance: variance,
         reduce_std: lambda x, a, k: sqrt(variance(x, a, k)),
         reduce_all: _as_flags("prod"),
         reduce_any: _as_flags("sum")}
for _op, _compute in FORMS.items():
    ragged_form(_op)(_form(_compute, _op.__name__))
del _op, _compute
