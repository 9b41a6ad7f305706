"""More of ``tf.sparse``: concatenating, reshaping, splitting, reducing, masking, softmax,
segment sums, indicators, counts and feature crosses of SparseTensors.

Values pass through recorded ops (``gather``, ``concat``, segment reductions), so gradients
reach a SparseTensor's values wherever TensorFlow has them (``softmax``, ``segment_*`` with
respect to the data, ``concat``, ``reshape``, ``reduce_max``...).
"""
import itertools

from ..backend import xp
from ..dtypes import as_dtype, bool as tf_bool, float32, int64
from ..errors import InvalidArgumentError
from ..tensor import TensorShape, convert_to_tensor, wrap
from ..variables import Variable
from .arithmetic_ops import divide, maximum as _maximum, minimum as _minimum, stop_gradient
from .array_ops import concat as _concat, fill
from .exponential_ops import exp
from .indexing_ops import IndexedSlices, gather
from .logic_ops import where
from .matmul_ops import matmul
from .segment_ops import unsorted_segment_max, unsorted_segment_sum
from .sparse_ops import SparseTensor, groups as _groups, reduce_groups as _reduce, reorder
from .string_hash import fingerprint64
from ..ground import multiply, add, reshape as _reshape


def _sparse(x, op):
    if not isinstance(x, SparseTensor):
        raise TypeError(f"{op}: expected a SparseTensor, got {type(x).__name__}")
    return x


def _tensor(x, dtype=None):
    if isinstance(x, Variable):
        return x.read_value()
    return convert_to_tensor(x, dtype=dtype)


def _shape(sp):
    return [int(d) for d in sp.dense_shape._value]


def _take(values, keep):
    """The values at positions ``keep`` (a recorded gather, so gradients flow back)."""
    return gather(values, wrap(xp.asarray(keep, dtype=xp.int64).reshape(-1)))


def concat(axis, sp_inputs, expand_nonconcat_dims=False, name=None):
    """The SparseTensors joined along ``axis`` (entries re-sorted in row-major order).

    >>> import tapegrad as tf
    >>> a = tf.sparse.SparseTensor([[0, 0]], [1], [1, 2])
    >>> tf.sparse.to_dense(tf.sparse.concat(1, [a, a])).numpy().tolist()
    [[1, 0, 1, 0]]
    """
    sps = [_sparse(s, "sparse.concat") for s in sp_inputs]
    rank = len(_shape(sps[0]))
    axis = int(axis) % rank
    shapes = [_shape(s) for s in sps]
    for s in shapes[1:]:
        if len(s) != rank or (not expand_nonconcat_dims and any(
                s[d] != shapes[0][d] for d in range(rank) if d != axis)):
            raise InvalidArgumentError(f"Input shapes must match: expected {shapes[0]} but got "
                                       f"{s} (except in the concat dimension) [Op:SparseConcat]")
    out_shape = [max(s[d] for s in shapes) for d in range(rank)]
    out_shape[axis] = sum(s[axis] for s in shapes)
    indices, offset = [], 0
    for sp, s in zip(sps, shapes):
        idx = sp.indices._value.copy()
        idx[:, axis] += offset
        offset += s[axis]
        indices.append(idx)
    # TensorFlow's SparseConcat passes no gradient to the values (the tape gives None)
    values = stop_gradient(_concat([s.values for s in sps], axis=0))
    return reorder(SparseTensor(wrap(xp.concatenate(indices)), values, out_shape))


def reshape(sp_input, shape, name=None):
    """The same entries in a dense shape of equal size (one dimension may be -1).

    >>> import tapegrad as tf
    >>> st = tf.sparse.SparseTensor([[1, 2]], [5], [2, 3])
    >>> tf.sparse.reshape(st, [3, 2]).indices.numpy().tolist()
    [[2, 1]]
    """
    sp = _sparse(sp_input, "sparse.reshape")
    old = _shape(sp)
    new = [int(d) for d in xp.asarray(getattr(shape, "_value", shape)).reshape(-1)]
    total = int(xp.prod(old)) if old else 1
    if new.count(-1) > 1:
        raise InvalidArgumentError("only one output dimension may be -1 [Op:SparseReshape]")
    if -1 in new:
        known = int(xp.prod([d for d in new if d != -1])) if len(new) > 1 else 1
        if known == 0 or total % known:
            raise InvalidArgumentError(f"Input to reshape is a SparseTensor with {total} dense "
                                       f"values, but the requested shape requires a multiple of "
                                       f"{known} [Op:SparseReshape]")
        new[new.index(-1)] = total // known
    if int(xp.prod(new)) != total:
        raise InvalidArgumentError(f"Input to reshape is a tensor with {total} dense values, but "
                                   f"the requested shape has {int(xp.prod(new))}. input_shape="
                                   f"[{','.join(map(str, old))}] output_shape="
                                   f"[{','.join(map(str, new))}] [Op:SparseReshape]")
    idx = sp.indices._value
    linear = xp.ravel_multi_index(tuple(idx.T), old) if idx.size else xp.zeros(0, xp.int64)
    new_idx = xp.stack(xp.unravel_index(linear, new), axis=1) if idx.size else \
        xp.zeros((0, len(new)), xp.int64)
    return SparseTensor(wrap(new_idx.astype(xp.int64)), sp.values, new)


def split(sp_input=None, num_split=None, axis=None, name=None):
    """``num_split`` SparseTensors cut along ``axis``; the first ``size % num_split`` pieces
    are one longer."""
    sp = _sparse(sp_input, "sparse.split")
    shape = _shape(sp)
    axis = int(axis) % len(shape)
    n = int(num_split)
    size = shape[axis]
    if n < 1 or n > size:
        raise InvalidArgumentError(f"Requested {n} splits of a dimension of size {size} "
                                   f"[Op:SparseSplit]")
    lengths = [size // n + (1 if i < size % n else 0) for i in range(n)]
    out, start = [], 0
    idx = sp.indices._value
    for length in lengths:
        inside = (idx[:, axis] >= start) & (idx[:, axis] < start + length)
        keep = xp.nonzero(inside)[0]
        piece = idx[inside].copy()
        piece[:, axis] -= start
        piece_shape = list(shape)
        piece_shape[axis] = length
        out.append(SparseTensor(wrap(piece.reshape(-1, len(shape))), _take(sp.values, keep),
                                piece_shape))
        start += length
    return out


def _union(a, b, op):
    a, b = _sparse(a, op), _sparse(b, op)
    if _shape(a) != _shape(b):
        raise InvalidArgumentError(f"Operands do not have the same shape: {_shape(a)} vs "
                                   f"{_shape(b)} [Op:{op}]")
    both = xp.concatenate([a.indices._value, b.indices._value])
    unique, inverse = xp.unique(both, axis=0, return_inverse=True)
    inverse = inverse.reshape(-1)
    n = unique.shape[0]
    dtype = a.values._value.dtype
    av, bv = xp.zeros(n, dtype), xp.zeros(n, dtype)
    av[inverse[:a.indices._value.shape[0]]] = a.values._value
    bv[inverse[a.indices._value.shape[0]:]] = b.values._value
    return unique.astype(xp.int64).reshape(-1, len(_shape(a))), wrap(av), wrap(bv), _shape(a)


def maximum(sp_a, sp_b, name=None):
    """The elementwise maximum of two SparseTensors of one shape, at the union of their
    entries (a missing entry counts as 0).

    >>> import tapegrad as tf
    >>> a = tf.sparse.SparseTensor([[0, 0]], [-1.0], [1, 2])
    >>> tf.sparse.maximum(a, tf.sparse.SparseTensor([[0, 1]], [2.0], [1, 2])).values.numpy().tolist()
    [0.0, 2.0]
    """
    idx, av, bv, shape = _union(sp_a, sp_b, "SparseSparseMaximum")
    return SparseTensor(wrap(idx), _maximum(av, bv), shape)


def minimum(sp_a, sp_b, name=None):
    """The elementwise minimum at the union of the entries (missing entries count as 0)."""
    idx, av, bv, shape = _union(sp_a, sp_b, "SparseSparseMinimum")
    return SparseTensor(wrap(idx), _minimum(av, bv), shape)


def reduce_max(sp_input, axis=None, keepdims=None, output_is_sparse=False, name=None):
    """The maximum of the entries present in each group (empty groups give 0); a
    SparseTensor of the non-empty groups with ``output_is_sparse``.

    >>> import tapegrad as tf
    >>> st = tf.sparse.SparseTensor([[0, 0], [1, 2]], [1.0, -2.0], [2, 3])
    >>> tf.sparse.reduce_max(st, axis=1).numpy().tolist()
    [1.0, -2.0]
    """
    sp = _sparse(sp_input, "sparse.reduce_max")
    return _reduce(sp, axis, bool(keepdims), output_is_sparse, unsorted_segment_max,
                   "SparseReduceMax")


def retain(sp_input, to_retain):
    """The entries where the boolean vector ``to_retain`` is True.

    >>> import tapegrad as tf
    >>> st = tf.sparse.SparseTensor([[0, 0], [1, 1]], [1, 2], [2, 2])
    >>> tf.sparse.retain(st, [False, True]).values.numpy().tolist()
    [2]
    """
    sp = _sparse(sp_input, "sparse.retain")
    keep = xp.asarray(getattr(to_retain, "_value", to_retain), dtype=bool).reshape(-1)
    n = sp.indices._value.shape[0]
    if keep.size != n:
        raise ValueError(f"Shapes ({n},) and ({keep.size},) are incompatible")
    where_kept = xp.nonzero(keep)[0]
    return SparseTensor(wrap(sp.indices._value[keep]), _take(sp.values, where_kept),
                        sp.dense_shape)


def reset_shape(sp_input, new_shape=None):
    """The same entries with dense shape ``new_shape`` (at least the old one), or the
    tightest shape holding them.

    >>> import tapegrad as tf
    >>> st = tf.sparse.SparseTensor([[0, 1]], [1], [5, 5])
    >>> tf.sparse.reset_shape(st).dense_shape.numpy().tolist()
    [1, 2]
    """
    sp = _sparse(sp_input, "sparse.reset_shape")
    idx = sp.indices._value
    if new_shape is None:
        shape = (idx.max(axis=0) + 1) if idx.size else xp.zeros(idx.shape[1], xp.int64)
        return SparseTensor(sp.indices, sp.values, shape.astype(xp.int64))
    shape = xp.asarray(getattr(new_shape, "_value", new_shape), dtype=xp.int64).reshape(-1)
    if shape.size != len(_shape(sp)):
        raise ValueError(f"Shapes must have the same rank: {shape.size} vs {len(_shape(sp))}")
    if (shape < xp.asarray(_shape(sp))).any():
        raise ValueError(f"Requested new_shape should have dimension sizes >= sp_input.shape.  "
                         f"Found new_shape ({shape}), sp_input.shape "
                         f"({xp.asarray(_shape(sp))}).")
    return SparseTensor(sp.indices, sp.values, shape)


def fill_empty_rows(sp_input, default_value, name=None):
    """``(SparseTensor with an entry [row, 0, ...] = default_value in each empty row,
    bool vector telling which rows were empty)``.

    >>> import tapegrad as tf
    >>> st = tf.sparse.SparseTensor([[1, 0]], [5], [3, 2])
    >>> out, empty = tf.sparse.fill_empty_rows(st, -1)
    >>> tf.sparse.to_dense(out).numpy().tolist(), empty.numpy().tolist()
    ([[-1, 0], [5, 0], [-1, 0]], [True, False, True])
    """
    sp = _sparse(sp_input, "sparse.fill_empty_rows")
    shape = _shape(sp)
    idx = sp.indices._value
    has = xp.zeros(shape[0], bool)
    has[idx[:, 0]] = True
    empty = xp.nonzero(~has)[0]
    new_idx = xp.zeros((empty.size, len(shape)), xp.int64)
    new_idx[:, 0] = empty
    default = _tensor(default_value, sp.dtype)
    values = _concat([sp.values, fill([int(empty.size)], default)], axis=0)
    out = reorder(SparseTensor(wrap(xp.concatenate([idx, new_idx])), values, shape))
    return out, wrap(~has)


def mask(a, mask_indices, name=None):
    """The IndexedSlices ``a`` without the slices whose index is in ``mask_indices``."""
    idx = a.indices._value.reshape(-1)
    drop = xp.asarray(getattr(mask_indices, "_value", mask_indices)).reshape(-1)
    keep = xp.nonzero(~xp.isin(idx, drop))[0]
    return IndexedSlices(_take(a.values, keep), wrap(idx[keep]), a._shape)


def map_values(op, *args, **kwargs):
    """``op`` applied to the values of the SparseTensor arguments (all with the same
    indices), keeping those indices.

    >>> import tapegrad as tf
    >>> st = tf.sparse.SparseTensor([[0, 1]], [3.0], [2, 2])
    >>> tf.sparse.map_values(tf.math.square, st).values.numpy().tolist()
    [9.0]
    """
    sparse = [a for a in list(args) + list(kwargs.values()) if isinstance(a, SparseTensor)]
    if not sparse:
        raise ValueError("No SparseTensor in argument list of map_values")
    first = sparse[0]
    for s in sparse[1:]:
        if not xp.array_equal(s.indices._value, first.indices._value) or \
                _shape(s) != _shape(first):
            raise InvalidArgumentError("map_values: SparseTensors have incompatible indices")

    def values(a):
        return a.values if isinstance(a, SparseTensor) else a

    out = op(*[values(a) for a in args], **{k: values(v) for k, v in kwargs.items()})
    return SparseTensor(first.indices, out, first.dense_shape)


def softmax(sp_input, name=None):
    """Softmax over the entries present in each innermost row (absent entries take no part).

    >>> import tapegrad as tf
    >>> st = tf.sparse.SparseTensor([[0, 0], [0, 2]], [1.0, 1.0], [1, 3])
    >>> tf.sparse.softmax(st).values.numpy().tolist()
    [0.5, 0.5]
    """
    sp = _sparse(sp_input, "sparse.softmax")
    _, _, _, ids = _groups(sp, -1, "SparseSoftmax")
    present, compact = xp.unique(ids, return_inverse=True)
    compact = wrap(compact.reshape(-1).astype(xp.int64))
    n = int(present.size)
    # shift by each row's maximum (no gradient through the shift: softmax is invariant to it)
    shifted = sp.values - gather(stop_gradient(unsorted_segment_max(sp.values, compact, n)),
                                 compact)
    e = exp(shifted)
    return SparseTensor(sp.indices, divide(e, gather(unsorted_segment_sum(e, compact, n),
                                                     compact)), sp.dense_shape)


def _segment(data, indices, segment_ids, num_segments, scale, op):
    """``W @ data`` with ``W[s, r]`` the (scaled) count of row ``r`` in segment ``s``: one
    matrix product, so the gradient with respect to ``data`` is the dense ``W^T @ g``, as
    TensorFlow's."""
    data = _tensor(data)
    rows = _tensor(indices)._value.reshape(-1).astype(xp.int64)
    ids = _tensor(segment_ids)._value.reshape(-1).astype(xp.int64)
    if ids.size != rows.size:
        raise InvalidArgumentError(f"segment_ids and indices should have same size [Op:{op}]")
    n_data = data._value.shape[0]
    if rows.size and ((rows < 0) | (rows >= n_data)).any():
        bad = int(rows[(rows < 0) | (rows >= n_data)][0])
        raise InvalidArgumentError(f"Bad: indices = {bad} out of range [0, {n_data}) [Op:{op}]")
    if num_segments is None:
        if ids.size and (xp.diff(ids) < 0).any():
            raise InvalidArgumentError(f"segment ids are not increasing [Op:{op}]")
        n = int(ids.max()) + 1 if ids.size else 0
    else:
        n = int(_tensor(num_segments)._value)
    weights = xp.zeros((n, n_data), data._value.dtype)
    xp.add.at(weights, (ids, rows), 1)
    if scale is not None:
        counts = xp.bincount(ids.astype(xp.intp), minlength=n)[:n]
        weights = weights / scale(xp.maximum(counts, 1)).reshape(n, 1).astype(weights.dtype)
    inner = data._value.shape[1:]
    flat = _reshape(data, [n_data, -1])
    return _reshape(matmul(wrap(weights.astype(data._value.dtype)), flat), [n] + list(inner))


def segment_sum(data, indices, segment_ids, num_segments=None, name=None):
    """Sums of the rows ``data[indices]`` grouped by ``segment_ids`` (sorted unless
    ``num_segments`` is given).

    >>> import tapegrad as tf
    >>> tf.sparse.segment_sum([[1., 2.], [3., 4.]], [0, 1, 1], [0, 0, 1]).numpy().tolist()
    [[4.0, 6.0], [3.0, 4.0]]
    """
    return _segment(data, indices, segment_ids, num_segments, None, "SparseSegmentSum")


def segment_mean(data, indices, segment_ids, num_segments=None, name=None):
    """Means of the rows ``data[indices]`` grouped by ``segment_ids`` (empty segments: 0)."""
    return _segment(data, indices, segment_ids, num_segments, lambda c: c, "SparseSegmentMean")


def segment_sqrt_n(data, indices, segment_ids, num_segments=None, name=None):
    """Sums divided by the square root of each segment's size."""
    return _segment(data, indices, segment_ids, num_segments, xp.sqrt, "SparseSegmentSqrtN")


def to_indicator(sp_input, vocab_size, name=None):
    """A dense bool tensor ``[..., vocab_size]``: True where the row holds that value.

    >>> import tapegrad as tf
    >>> st = tf.sparse.SparseTensor([[0, 0], [0, 1]], [0, 3], [1, 2])
    >>> tf.sparse.to_indicator(st, 4).numpy().tolist()
    [[True, False, False, True]]
    """
    sp = _sparse(sp_input, "sparse.to_indicator")
    if sp.values._value.dtype.kind not in "iu":
        raise TypeError(f"sparse.to_indicator: values must be integers, got {sp.dtype.name}")
    shape = _shape(sp)[:-1] + [int(vocab_size)]
    out = xp.zeros(shape, bool)
    vals = sp.values._value.astype(xp.int64)
    if vals.size and ((vals < 0) | (vals >= int(vocab_size))).any():
        raise InvalidArgumentError(f"Index out of range: values must be in [0, {vocab_size}) "
                                   f"[Op:SparseToDense]")
    if vals.size:
        out[tuple(sp.indices._value[:, :-1].T) + (vals,)] = True
    return wrap(out)


def eye(num_rows, num_columns=None, dtype=float32, name=None):
    """The identity matrix as a SparseTensor (ones on the main diagonal).

    >>> import tapegrad as tf
    >>> tf.sparse.eye(2, 3).indices.numpy().tolist()
    [[0, 0], [1, 1]]
    """
    rows = int(num_rows)
    cols = rows if num_columns is None else int(num_columns)
    n = min(rows, cols)
    idx = xp.stack([xp.arange(n), xp.arange(n)], axis=1).astype(xp.int64).reshape(-1, 2)
    return SparseTensor(wrap(idx), wrap(xp.ones(n, as_dtype(dtype)._np)), [rows, cols])


def bincount(values, weights=None, axis=0, minlength=None, maxlength=None,
             binary_output=False, name=None):
    """Counts of each integer value as a SparseTensor (``axis=-1``: one row of counts per
    row of a 2-D input); ``weights`` sums weights instead, ``binary_output`` marks presence.

    >>> import tapegrad as tf
    >>> tf.sparse.bincount(tf.constant([1, 2, 2])).values.numpy().tolist()
    [1, 2]
    """
    if isinstance(values, SparseTensor):
        v = values.values._value
        rows = values.indices._value[:, 0] if values.indices._value.shape[1] > 1 else None
        dense_rank = len(_shape(values))
    else:
        t = _tensor(values)
        v = t._value.reshape(-1)
        dense_rank = t._value.ndim
        rows = xp.repeat(xp.arange(t._value.shape[0]), t._value.shape[1]) \
            if dense_rank == 2 else None
    w = None if weights is None else (weights.values._value if isinstance(weights, SparseTensor)
                                      else _tensor(weights)._value.reshape(-1))
    if v.size and v.min() < 0:
        raise InvalidArgumentError("Input must be non-negative [Op:DenseBincount]")
    length = int(v.max()) + 1 if v.size else 0
    if minlength is not None:
        length = max(length, int(minlength))
    if maxlength is not None:
        length = min(length, int(maxlength))
    keep = v < length
    per_row = axis is not None and int(axis) in (-1, 1) and dense_rank == 2
    if axis is not None and int(axis) not in (0, -1, 1):
        raise InvalidArgumentError(f"axis must be 0 or -1, got {axis}")
    out_dtype = w.dtype if w is not None else v.dtype
    keys = (rows[keep], v[keep]) if per_row else (v[keep],)
    weight = w[keep] if w is not None else xp.ones(int(keep.sum()), out_dtype)
    table = {}
    for *key, wt in zip(*keys, weight.tolist()):
        k = tuple(int(x) for x in key)
        table[k] = 1 if binary_output else table.get(k, 0) + wt
    ordered = sorted(table)
    idx = xp.asarray(ordered, dtype=xp.int64).reshape(-1, len(keys))
    vals = xp.asarray([table[k] for k in ordered], dtype=out_dtype).reshape(-1)
    shape = [int(_shape(values)[0]) if isinstance(values, SparseTensor) else
             int(_tensor(values)._value.shape[0]), length] if per_row else [length]
    return SparseTensor(wrap(idx), wrap(vals), shape)


# -- feature crosses ---------------------------------------------------------------------------
_HASH_KEY = 0xDECAFCAFFE
_MASK = (1 << 64) - 1


def _fingerprint_cat64(fp1, fp2):
    """TensorFlow's FingerprintCat64: combines two fingerprints into one."""
    mul = 0xC6A4A7935BD1E995

    def shift_mix(v):
        return v ^ (v >> 47)

    r = fp1 ^ mul
    r ^= (shift_mix((fp2 * mul) & _MASK) * mul) & _MASK
    r = (r * mul) & _MASK
    r = (shift_mix(r) * mul) & _MASK
    return shift_mix(r)


def _feature_rows(x):
    """Each input's features per batch row, as lists of Python values."""
    if isinstance(x, SparseTensor):
        n = _shape(x)[0]
        rows = [[] for _ in range(n)]
        for idx, v in zip(x.indices._value.tolist(), x.values._value.tolist()):
            rows[idx[0]].append(v)
        return rows, x.values._value.dtype
    t = _tensor(x)
    if t._value.ndim != 2:
        raise ValueError(f"Expected a 2-D tensor or SparseTensor, got rank {t._value.ndim}")
    return t._value.tolist(), t._value.dtype


def _text(v):
    return v if isinstance(v, bytes) else str(v).encode()


def cross_rows(inputs, combine, other_rows=None):
    """For each batch row, ``combine`` of every combination of one feature per input
    (``other_rows(x)`` may read further input kinds, e.g. RaggedTensors)."""
    columns = []
    for x in inputs:
        read = other_rows(x) if other_rows is not None else None
        columns.append(read if read is not None else _feature_rows(x))
    for _, dt in columns:
        if dt.kind not in "iuO":
            raise TypeError(f"cross: inputs must be int64 or string, got {dt}")
    n = len(columns[0][0])
    if any(len(c[0]) != n for c in columns):
        raise InvalidArgumentError("cross: inputs have different batch sizes")
    return [[combine(combo) for combo in itertools.product(*[c[0][r] for c in columns])]
            for r in range(n)]


def _sparse_rows(rows, out_dtype):
    indices = [[r, j] for r, row in enumerate(rows) for j in range(len(row))]
    values = [v for row in rows for v in row]
    width = max((len(row) for row in rows), default=0)
    idx = xp.asarray(indices, dtype=xp.int64).reshape(-1, 2)
    if out_dtype == object:
        vals = xp.empty(len(values), dtype=object)
        vals[:] = values
    else:
        vals = xp.asarray(values, dtype=out_dtype).reshape(-1)
    return SparseTensor(wrap(idx), wrap(vals), [len(rows), width])


def fingerprint_cross(num_buckets=0, hash_key=None):
    """The hash TensorFlow gives a combination of features: a FingerprintCat64 chain of
    their Fingerprint64 (a string's; an integer feature enters as its own 64-bit value, as
    TensorFlow's SparseCrossHashed reads int64 columns), from ``hash_key``, modulo
    ``num_buckets`` (when > 0)."""
    key = _HASH_KEY if hash_key is None else int(hash_key) & _MASK
    buckets = int(num_buckets)

    def combine(combo):
        h = key
        for v in combo:
            feature = fingerprint64(v) if isinstance(v, bytes) else int(v) & _MASK
            h = _fingerprint_cat64(h, feature)
        return h % buckets if buckets > 0 else h % ((1 << 63) - 1)

    return combine


def cross(inputs, name=None, separator=None):
    """The cross of string or integer features row by row: every combination, one feature
    per input, joined with ``"_X_"``.

    >>> import tapegrad as tf
    >>> tf.sparse.cross([tf.constant([["a"]]), tf.constant([["b", "c"]])]).values.numpy().tolist()
    [b'a_X_b', b'a_X_c']
    """
    sep = b"_X_" if separator is None else _text(separator)
    return _sparse_rows(cross_rows(inputs, lambda combo: sep.join(_text(v) for v in combo)),
                        object)


def cross_hashed(inputs, num_buckets=0, hash_key=None, name=None):
    """The hashed cross: each combination's FingerprintCat64 chain of the features'
    Fingerprint64, modulo ``num_buckets`` (int64), as TensorFlow computes it."""
    return _sparse_rows(cross_rows(inputs, fingerprint_cross(num_buckets, hash_key)), xp.int64)


class SparseTensorSpec:
    """The type of a SparseTensor: its dense shape and dtype.

    >>> import tapegrad as tf
    >>> tf.SparseTensorSpec([3, 4], tf.float32)
    SparseTensorSpec(TensorShape([3, 4]), tf.float32)
    """

    def __init__(self, shape=None, dtype=float32):
        self.shape = TensorShape(shape)
        self.dtype = as_dtype(dtype)

    @classmethod
    def from_value(cls, value):
        return cls(value.shape, value.dtype)

    def is_compatible_with(self, other):
        if isinstance(other, SparseTensor):
            other = SparseTensorSpec.from_value(other)
        return isinstance(other, SparseTensorSpec) and self.dtype == other.dtype and \
            self.shape.is_compatible_with(other.shape)

    def __eq__(self, other):
        return isinstance(other, SparseTensorSpec) and repr(self) == repr(other)

    def __hash__(self):
        return hash(repr(self))

    def __repr__(self):
        return f"SparseTensorSpec({self.shape!r}, {self.dtype!r})"


def sampled_addmm(indices, values, dense_shape, mat1, mat2, beta=1.0, alpha=1.0,
                  output_type=float32):
    """``alpha * (mat1 @ mat2)`` read at ``indices`` plus ``beta * values``; returns
    ``(indices, new values, dense_shape)`` as TensorFlow does.

    >>> import tapegrad as tf
    >>> _, v, _ = tf.sparse.sampled_addmm([[0, 0]], [1.0], [2, 2], tf.ones([2, 3]), tf.ones([3, 2]))
    >>> v.numpy().tolist()
    [4.0]
    """
    idx = _tensor(indices)
    product = matmul(_tensor(mat1, as_dtype(output_type)), _tensor(mat2, as_dtype(output_type)))
    flat = _reshape(product, [-1])
    cols = product._value.shape[-1]
    linear = idx._value[..., -2].astype(xp.int64) * cols + idx._value[..., -1].astype(xp.int64)
    picked = gather(flat, wrap(linear.reshape(-1)))
    out = add(multiply(picked, wrap(xp.asarray(alpha, picked._value.dtype))),
              multiply(_tensor(values, as_dtype(output_type)),
                       wrap(xp.asarray(beta, picked._value.dtype))))
    return idx, out, _tensor(dense_shape)


del tf_bool, int64
