"""``tf.ragged``'s array ops: masking, stacking, partitioning, row-partition conversions, feature
crosses, ``tf.concat`` on RaggedTensors (its registered ragged form), ``tf.RaggedTensorSpec``,
and the RaggedTensor methods tutorials use beyond the basics (``merge_dims``, ``with_values``,
row slicing, ``to_tensor(shape=...)``, ``from_nested_row_splits``).

Values move through recorded ops (``gather``, ``concat``), so gradients reach them.
"""
from ..backend import xp
from ..dtypes import as_dtype, int64
from ..errors import InvalidArgumentError, UnimplementedError
from ..tensor import Tensor, TensorShape, wrap
from .array_ops import concat as _dense_concat, fill
from .indexing_ops import gather
from .ragged_ops import RaggedTensor, _int64, _tensor, keeps_splits_dtype, ragged_form
from .sparse_array_ops import cross_rows, fingerprint_cross


def _from_lengths(values, lengths):
    return RaggedTensor.from_row_lengths(values, xp.asarray(lengths, xp.int64), validate=False)


def _take(values, keep):
    keep = wrap(xp.asarray(keep, dtype=xp.int64).reshape(-1))
    if isinstance(values, RaggedTensor):
        return _take_rows(values, keep._value)
    return gather(values, keep)


def _take_rows(rt, rows):
    """The rows ``rows`` of a RaggedTensor (a RaggedTensor with those rows, in that order)."""
    splits = rt.row_splits._value
    starts, ends = splits[:-1][rows], splits[1:][rows]
    positions = xp.concatenate([xp.arange(a, b) for a, b in zip(starts.tolist(), ends.tolist())]
                               ) if len(rows) else xp.zeros(0, xp.int64)
    return _from_lengths(_take(rt.values, positions), (ends - starts).tolist())


# -- row partitions ----------------------------------------------------------------------------
def row_splits_to_segment_ids(splits, name=None, out_type=None):
    """The row of each value, from row splits.

    >>> import tapegrad as tf
    >>> tf.ragged.row_splits_to_segment_ids([0, 2, 2, 5]).numpy().tolist()
    [0, 0, 2, 2, 2]
    """
    s = _int64(splits)
    if s.size == 0:
        raise ValueError("Invalid row_splits: []")
    out = xp.repeat(xp.arange(s.size - 1), xp.diff(s).astype(xp.intp))
    return wrap(out.astype(as_dtype(out_type or int64)._np))


def segment_ids_to_row_splits(segment_ids, num_segments=None, out_type=None, name=None):
    """Row splits from the (sorted) row of each value.

    >>> import tapegrad as tf
    >>> tf.ragged.segment_ids_to_row_splits([0, 0, 2, 2, 2]).numpy().tolist()
    [0, 2, 2, 5]
    """
    ids = _int64(segment_ids)
    n = int(num_segments) if num_segments is not None else (int(ids.max()) + 1 if ids.size else 0)
    counts = xp.bincount(ids.astype(xp.intp), minlength=n)[:n]
    return wrap(xp.concatenate([[0], xp.cumsum(counts)]).astype(as_dtype(out_type or int64)._np))


def from_nested_row_splits(flat_values, nested_row_splits, name=None, validate=True):
    """A RaggedTensor with one ragged axis per splits vector (outermost first)."""
    result = flat_values if isinstance(flat_values, RaggedTensor) else _tensor(flat_values)
    for splits in reversed(list(nested_row_splits)):
        result = RaggedTensor.from_row_splits(result, splits, validate=validate)
    return result


def from_nested_row_lengths(flat_values, nested_row_lengths, name=None, validate=True):
    """A RaggedTensor with one ragged axis per row-lengths vector (outermost first)."""
    result = flat_values if isinstance(flat_values, RaggedTensor) else _tensor(flat_values)
    for lengths in reversed(list(nested_row_lengths)):
        result = RaggedTensor.from_row_lengths(result, lengths, validate=validate)
    return result


class RaggedFillEmptyRows(tuple):
    """``(output_value_rowids, output_values, empty_row_indicator, reverse_index_map)``."""
    __slots__ = ()
    _fields = ("output_value_rowids", "output_values", "empty_row_indicator",
               "reverse_index_map")

    def __new__(cls, *parts):
        return super().__new__(cls, parts)

    output_value_rowids = property(lambda self: self[0])
    output_values = property(lambda self: self[1])
    empty_row_indicator = property(lambda self: self[2])
    reverse_index_map = property(lambda self: self[3])

    def __repr__(self):
        return "RaggedFillEmptyRows(" + ", ".join(
            f"{k}={v!r}" for k, v in zip(self._fields, self)) + ")"


def ragged_fill_empty_rows(value_rowids, values, nrows, default_value, name=None):
    """Adds one ``default_value`` to each empty row of a ragged partition given by sorted
    ``value_rowids``; also says which rows were empty and where each old value went.

    >>> import tapegrad as tf
    >>> out = tf.ragged_fill_empty_rows([0, 0, 2], [1, 2, 3], 4, -1)
    >>> out.output_values.numpy().tolist(), out.reverse_index_map.numpy().tolist()
    ([1, 2, -1, 3, -1], [0, 1, 3])
    """
    ids = _int64(value_rowids)
    vals = _tensor(values)
    n = int(_tensor(nrows)._value)
    counts = xp.bincount(ids.astype(xp.intp), minlength=n)[:n]
    empty = counts == 0
    # the new values in row order: old values keep their order, each empty row gets one
    new_ids = xp.sort(xp.concatenate([ids, xp.nonzero(empty)[0]]), kind="stable")
    is_default = xp.concatenate([xp.zeros(ids.size, bool), xp.ones(int(empty.sum()), bool)])
    order = xp.lexsort((~is_default, xp.concatenate([ids, xp.nonzero(empty)[0]])))
    default = fill([int(empty.sum())], _tensor(default_value, vals.dtype))
    joined = _dense_concat([vals, default], axis=0)
    out_values = gather(joined, wrap(order.astype(xp.int64)))
    reverse = xp.empty(ids.size, xp.int64)
    position = xp.empty(order.size, xp.int64)
    position[order] = xp.arange(order.size)
    reverse[:] = position[:ids.size]
    return RaggedFillEmptyRows(wrap(new_ids.astype(xp.int64)), out_values, wrap(empty),
                               wrap(reverse))


# -- masking, stacking, partitioning ------------------------------------------------------------
def _as_ragged(x):
    if isinstance(x, RaggedTensor):
        return x
    t = _tensor(x)
    if t._value.ndim < 2:
        raise ValueError(f"expected a RaggedTensor or a tensor of rank >= 2, got rank "
                         f"{t._value.ndim}")
    return RaggedTensor.from_tensor(t)


@keeps_splits_dtype
def boolean_mask(data, mask, name=None):
    """The entries of ``data`` where ``mask`` is True, keeping the rows: a mask of rows (rank
    1) picks whole rows; a mask shaped like ``data`` picks values within each row.

    >>> import tapegrad as tf
    >>> tf.ragged.boolean_mask([[1, 2], [3, 4]], [[True, False], [True, True]]).to_list()
    [[1], [3, 4]]
    """
    m = mask if isinstance(mask, RaggedTensor) else _tensor(mask)
    if not isinstance(m, RaggedTensor) and m._value.dtype != bool:
        raise TypeError(f"mask must be a bool tensor, got {m.dtype.name}")
    if not isinstance(m, RaggedTensor) and m._value.ndim == 1:
        keep = xp.nonzero(m._value)[0]
        if isinstance(data, RaggedTensor):
            return _take_rows(data, keep)
        return gather(_tensor(data), wrap(keep.astype(xp.int64)))
    rt = _as_ragged(data)
    mr = _as_ragged(m)
    if not xp.array_equal(rt.row_splits._value, mr.row_splits._value):
        raise InvalidArgumentError("boolean_mask: data and mask have different row lengths")
    if isinstance(rt.values, RaggedTensor):
        inner = boolean_mask(rt.values, mr.values)
        return RaggedTensor(inner, rt.row_splits)
    flags = mr.values._value
    keep = xp.nonzero(flags)[0]
    lengths = [int(flags[a:b].sum()) for a, b in zip(rt.row_splits._value[:-1].tolist(),
                                                     rt.row_splits._value[1:].tolist())]
    return _from_lengths(gather(rt.values, wrap(keep.astype(xp.int64))), lengths)


@keeps_splits_dtype
def stack(values, axis=0, name=None):
    """Stacks RaggedTensors (or tensors) along a new ``axis`` (0 or 1).

    >>> import tapegrad as tf
    >>> a = tf.ragged.constant([[1, 2], [3]])
    >>> tf.ragged.stack([a, a], axis=1).to_list()
    [[[1, 2], [1, 2]], [[3], [3]]]
    """
    rts = [v if isinstance(v, RaggedTensor) else _as_ragged(v) for v in values]
    if int(axis) == 0:
        merged = concat(rts, axis=0)
        return _from_lengths(merged, [int(r.nrows()._value) for r in rts])
    if int(axis) == 1:
        n = int(rts[0].nrows()._value)
        if any(int(r.nrows()._value) != n for r in rts):
            raise InvalidArgumentError("Input tensors at index 0 (=x) and 1 (=y) have "
                                       "incompatible shapes.")
        merged = concat(rts, axis=0)
        # row j of input k sits at k * n + j; interleave them row by row
        order = xp.arange(n * len(rts)).reshape(len(rts), n).T.reshape(-1)
        return _from_lengths(_take_rows(merged, order), [len(rts)] * n)
    raise UnimplementedError(f"ragged.stack: axis={axis} (only 0 and 1) is not supported")


def stack_dynamic_partitions(data, partitions, num_partitions, name=None):
    """Row ``p`` holds the items of ``data`` whose partition is ``p``, in their order.

    >>> import tapegrad as tf
    >>> tf.ragged.stack_dynamic_partitions([1, 2, 3, 4], [1, 0, 1, 0], 2).to_list()
    [[2, 4], [1, 3]]
    """
    d = data if isinstance(data, RaggedTensor) else _tensor(data)
    parts = _int64(partitions)
    n = int(num_partitions)
    if parts.size and ((parts < 0) | (parts >= n)).any():
        raise InvalidArgumentError(f"partitions must be in [0, {n})")
    order = xp.argsort(parts, kind="stable")
    counts = xp.bincount(parts.astype(xp.intp), minlength=n)[:n]
    return _from_lengths(_take(d, order), counts.tolist())


# -- concat ------------------------------------------------------------------------------------
@ragged_form(_dense_concat, in_lists=True)
def concat(values, axis, name=None):
    """``tf.concat`` of RaggedTensors (and tensors): along rows (axis 0) or within each row
    (axis 1).

    >>> import tapegrad as tf
    >>> a = tf.ragged.constant([[1], [2, 3]])
    >>> tf.concat([a, a], axis=1).to_list()
    [[1, 1], [2, 3, 2, 3]]
    """
    rts = [v if isinstance(v, RaggedTensor) else _as_ragged(v) for v in values]
    axis = int(axis)
    rank = rts[0].ragged_rank + rts[0].flat_values._value.ndim
    axis = axis % rank if axis < 0 else axis
    if axis == 0:
        inner = rts[0].values
        if isinstance(inner, RaggedTensor):
            merged = concat([r.values for r in rts], axis=0)
        else:
            merged = _dense_concat([r.values for r in rts], axis=0)
        lengths = xp.concatenate([r.row_lengths()._value for r in rts])
        return _from_lengths(merged, lengths.tolist())
    if axis == 1:
        n = int(rts[0].nrows()._value)
        if any(int(r.nrows()._value) != n for r in rts):
            raise InvalidArgumentError("Input tensors have incompatible shapes (different "
                                       "numbers of rows) [Op:ConcatV2]")
        stacked = concat(rts, axis=0)
        order = xp.arange(n * len(rts)).reshape(len(rts), n).T.reshape(-1)
        per_row = _take_rows(stacked, order)
        lengths = sum(r.row_lengths()._value for r in rts)
        return _from_lengths(per_row.values, lengths.tolist())
    raise UnimplementedError(f"concat of RaggedTensors along axis {axis} is not supported")


# -- crosses -----------------------------------------------------------------------------------
def _ragged_rows(x):
    if isinstance(x, RaggedTensor):
        return x.to_list(), x.flat_values._value.dtype
    return None


def cross(inputs, name=None):
    """The feature cross of each row (a RaggedTensor of strings joined with ``"_X_"``).

    >>> import tapegrad as tf
    >>> tf.ragged.cross([tf.ragged.constant([["a", "b"]]), tf.constant([["x"]])]).to_list()
    [[b'a_X_x', b'b_X_x']]
    """
    rows = cross_rows(inputs, lambda combo: b"_X_".join(
        v if isinstance(v, bytes) else str(v).encode() for v in combo), _ragged_rows)
    flat = xp.empty(sum(len(r) for r in rows), dtype=object)
    flat[:] = [v for r in rows for v in r]
    return _from_lengths(wrap(flat), [len(r) for r in rows])


def cross_hashed(inputs, num_buckets=0, hash_key=None, name=None):
    """The hashed feature cross of each row (int64, TensorFlow's FingerprintCat64 chain)."""
    rows = cross_rows(inputs, fingerprint_cross(num_buckets, hash_key), _ragged_rows)
    flat = xp.asarray([v for r in rows for v in r], dtype=xp.int64).reshape(-1)
    return _from_lengths(wrap(flat), [len(r) for r in rows])


# -- tf.RaggedTensorSpec ------------------------------------------------------------------------
class RaggedTensorSpec:
    """The type of a RaggedTensor: shape, dtype, ragged rank and row-splits dtype.

    >>> import tapegrad as tf
    >>> tf.RaggedTensorSpec([None, None], tf.int32)
    RaggedTensorSpec(TensorShape([None, None]), tf.int32, 1, tf.int64)
    """

    def __init__(self, shape=None, dtype=None, ragged_rank=None, row_splits_dtype=int64,
                 flat_values_spec=None):
        self.shape = TensorShape(shape)
        self.dtype = as_dtype("float32" if dtype is None else dtype)
        rank = self.shape.rank
        if ragged_rank is None:
            if rank is None:
                raise ValueError("Must specify ragged_rank or a shape with a known rank.")
            ragged_rank = rank - 1
        self.ragged_rank = int(ragged_rank)
        self.row_splits_dtype = as_dtype(row_splits_dtype)

    @classmethod
    def from_value(cls, value):
        return cls(value.shape, value.dtype, value.ragged_rank, value.row_splits.dtype)

    def is_compatible_with(self, other):
        if isinstance(other, RaggedTensor):
            other = RaggedTensorSpec.from_value(other)
        return isinstance(other, RaggedTensorSpec) and self.dtype == other.dtype and \
            self.ragged_rank == other.ragged_rank and \
            self.shape.is_compatible_with(other.shape)

    def __eq__(self, other):
        return isinstance(other, RaggedTensorSpec) and repr(self) == repr(other)

    def __hash__(self):
        return hash(repr(self))

    def __repr__(self):
        return (f"RaggedTensorSpec({self.shape!r}, {self.dtype!r}, {self.ragged_rank}, "
                f"{self.row_splits_dtype!r})")


