"""``tf.RaggedTensor``: rows of different lengths, stored as flat ``values`` and ``row_splits``
(row i is ``values[row_splits[i]:row_splits[i + 1]]``); ``values`` may itself be ragged.

Conversions and reductions are built from differentiable ops (``scatter_nd`` for
``to_tensor``, segment reductions for ``reduce_*``), so gradients reach the values. Reducing
over the ragged axis follows TensorFlow: an empty row's sum is 0, its mean NaN, its max the
dtype's lowest finite value and its min the highest.
"""
import functools

from ..backend import xp
from ..dtypes import as_dtype
from ..errors import InvalidArgumentError, UnimplementedError
from ..tensor import Tensor, TensorShape, convert_to_tensor, wrap
from ..tensor import Tensor as _TensorType     # (``Tensor`` itself is not exported)
from ..variables import Variable
from ..ground import add, multiply, reshape
from .arithmetic_ops import abs as abs_, floordiv, floormod, negative, subtract, truediv
from .exponential_ops import pow
from .array_ops import fill
from .composite_dispatch import composite_form
from .indexing_ops import gather, gather_nd, scatter_nd
from .shape_ops import pad
from .sparse_ops import SparseTensor
from .logic_ops import (
    greater, greater_equal, less, less_equal, logical_and, logical_not, logical_or, where,
)


def _tensor(x, dtype=None):
    if isinstance(x, Variable):
        return x.read_value()
    return convert_to_tensor(x, dtype=dtype)


def _int64(x):
    return xp.asarray(getattr(x, "_value", x), dtype=xp.int64).reshape(-1)


# -- the row partition's dtype ---------------------------------------------------------------------
# int64 unless a partition is given as an int32 tensor or ``row_splits_dtype=tf.int32`` asks;
# operations keep it, and refuse ragged inputs whose partitions disagree (as TensorFlow does).
MISMATCHED_SPLITS = ("Input RaggedTensors have mismatched row_splits dtypes; use "
                     "RaggedTensor.with_row_splits_dtype() to convert them to compatible dtypes.")


def _given_kind(x, what):
    """The partition dtype a given ``row_splits``/``row_lengths``/``value_rowids`` asks for: an
    int32 tensor keeps int32, anything else (lists, arrays, int64 tensors) gives int64; a
    tensor of another dtype is refused."""
    value = getattr(x, "_value", None)
    if value is None or not hasattr(x, "dtype"):
        return xp.int64
    if value.dtype not in (xp.int32, xp.int64):
        raise ValueError(f"{what} must have dtype int32 or int64")
    return value.dtype.type


def _splits_kind(rt):
    return rt.row_splits._value.dtype.type


def _ragged_arguments(args, kwargs):
    for a in (*args, *kwargs.values()):
        if isinstance(a, RaggedTensor):
            yield a
        elif type(a) in (list, tuple):
            yield from (b for b in a if isinstance(b, RaggedTensor))


def _in_kind(out, kind):
    if isinstance(out, RaggedTensor):
        return out.with_row_splits_dtype(kind)
    if type(out) in (list, tuple):
        return type(out)(_in_kind(o, kind) for o in out)
    return out


def keeps_splits_dtype(operation):
    """``operation`` on RaggedTensors, refusing inputs whose row partitions differ in dtype and
    giving its ragged results the inputs' int32 partitions where they have them."""
    @functools.wraps(operation)
    def checked(*args, **kwargs):
        kinds = {_splits_kind(rt) for rt in _ragged_arguments(args, kwargs)}
        if len(kinds) > 1:
            raise ValueError(MISMATCHED_SPLITS)
        out = operation(*args, **kwargs)
        return _in_kind(out, xp.int32) if kinds == {xp.int32} else out
    return checked


def ragged_form(*ops, in_lists=False):
    """``composite_form(RaggedTensor, *ops)`` for a form that keeps the partitions' dtype."""
    def register(form):
        composite_form(RaggedTensor, *ops, in_lists=in_lists)(keeps_splits_dtype(form))
        return form
    return register


def dense_against_flat_values(rt, dense):
    """``dense`` lined up with ``rt``'s flat values, as TensorFlow broadcasts a dense operand
    against a RaggedTensor: axes it has beyond the uniform inner ones are repeated per row
    (``[[1000], [2000]]`` gives each row its own number), a ragged axis taking only size 1."""
    dense = _tensor(dense)
    inner = rt.flat_values._value.ndim - 1
    if dense._value.ndim <= inner:
        return dense
    rank = rt.ragged_rank + 1 + inner
    if dense._value.ndim > rank:
        raise InvalidArgumentError(f"Unable to broadcast: a dense operand of rank "
                                   f"{dense._value.ndim} against a RaggedTensor of rank {rank}")
    dense = reshape(dense, [1] * (rank - dense._value.ndim) + list(dense._value.shape))
    level = rt
    while isinstance(level, RaggedTensor):
        rows, shape = int(level.nrows()._value), list(dense._value.shape)
        if shape[0] not in (1, rows) or shape[1] != 1:
            raise InvalidArgumentError(f"Unable to broadcast: dimension size mismatch: a dense "
                                       f"operand of shape {shape} against ragged rows")
        dense = reshape(dense, [shape[0]] + shape[2:])
        ids = level.value_rowids()._value if shape[0] == rows else \
            xp.zeros(int(level.row_splits._value[-1]), xp.int64)
        dense = gather(dense, wrap(ids))
        level = level.values
    return dense


class RaggedTensor:
    """A tensor whose second axis has rows of different lengths.

    >>> import tapegrad as tf
    >>> rt = tf.RaggedTensor.from_row_lengths([1, 2, 3], row_lengths=[2, 0, 1])
    >>> rt.to_list()
    [[1, 2], [], [3]]
    """

    _uniform_row_length = None     # an int for rows made by from_uniform_row_length

    def __init__(self, values, row_splits, splits_dtype=None):
        kind = splits_dtype or _given_kind(row_splits, "row_splits")
        self._values = values
        if isinstance(row_splits, _TensorType) and row_splits._value.ndim == 1 and \
                row_splits._value.dtype == xp.dtype(kind):
            self._row_splits = row_splits    # kept: a trace sees the same tensor, not a copy
        else:
            self._row_splits = wrap(xp.asarray(getattr(row_splits, "_value", row_splits),
                                               dtype=kind).reshape(-1))

    # -- construction -------------------------------------------------------------------------------
    @classmethod
    def from_row_splits(cls, values, row_splits, name=None, validate=True):
        values = values if isinstance(values, RaggedTensor) else _tensor(values)
        kind = _given_kind(row_splits, "row_splits")
        splits = _int64(row_splits)
        if validate:
            n = values.nrows()._value if isinstance(values, RaggedTensor) else \
                values._value.shape[0] if values._value.ndim else 0
            if splits.size == 0 or splits[0] != 0:
                raise InvalidArgumentError("Arguments to from_row_splits do not form a valid "
                                           "RaggedTensor:zero. row_splits[0] must be 0")
            if (xp.diff(splits) < 0).any():
                raise InvalidArgumentError("Arguments to from_row_splits do not form a valid "
                                           "RaggedTensor:monotonic. row_splits must be "
                                           "non-decreasing")
            if splits[-1] != n:
                raise InvalidArgumentError(f"Arguments to from_row_splits do not form a valid "
                                           f"RaggedTensor:nvals. row_splits[-1] = {splits[-1]} "
                                           f"must equal the number of values {n}")
        return cls(values, splits, kind)

    @classmethod
    def from_row_lengths(cls, values, row_lengths, name=None, validate=True):
        kind = _given_kind(row_lengths, "row_lengths")
        lengths = _int64(row_lengths)
        if (lengths < 0).any():
            raise InvalidArgumentError("Arguments to from_row_lengths do not form a valid "
                                       "RaggedTensor: row_lengths must be non-negative")
        splits = xp.concatenate([[0], xp.cumsum(lengths)]).astype(kind)
        return cls.from_row_splits(values, wrap(splits), validate=validate)

    @classmethod
    def from_uniform_row_length(cls, values, uniform_row_length, nrows=None, validate=True,
                                name=None):
        """Rows of ``uniform_row_length`` values each, stored as row splits; the length is kept
        for the shape (``(3, 2)``, not ``(3, None)``), as TensorFlow keeps that axis uniform."""
        size = int(getattr(uniform_row_length, "_value", uniform_row_length))
        n = values.nrows()._value if isinstance(values, RaggedTensor) else \
            _tensor(values)._value.shape[0]
        rows = int(nrows) if nrows is not None else (int(n) // size if size else 0)
        if validate and rows * size != int(n):
            raise InvalidArgumentError(f"uniform_row_length {size} times nrows {rows} must "
                                       f"equal the number of values {int(n)}")
        out = cls.from_row_splits(values, xp.arange(rows + 1) * size, validate=validate)
        out._uniform_row_length = size
        return out

    @classmethod
    def from_value_rowids(cls, values, value_rowids, nrows=None, name=None, validate=True):
        kind = _given_kind(value_rowids, "value_rowids")
        ids = _int64(value_rowids)
        n = int(nrows) if nrows is not None else (int(ids.max()) + 1 if ids.size else 0)
        lengths = xp.bincount(ids.astype(xp.intp), minlength=n)[:n].astype(kind)
        return cls.from_row_lengths(values, wrap(lengths))

    @classmethod
    def from_tensor(cls, tensor, lengths=None, padding=None, ragged_rank=1, name=None,
                    row_splits_dtype=None):
        """Rows of a dense tensor: the first ``lengths[i]`` entries of row i, or everything
        before the trailing run of ``padding`` values, or whole rows."""
        t = _tensor(tensor)
        if int(ragged_rank) != 1:
            raise NotImplementedError("RaggedTensor.from_tensor: only ragged_rank=1")
        if lengths is not None and padding is not None:
            raise ValueError("Specify argument `lengths` or `padding`, but not both.")
        rows, width = t._value.shape[0], t._value.shape[1]
        if lengths is not None:
            row_lengths = xp.minimum(_int64(lengths), width)
        elif padding is not None:
            pad = xp.asarray(getattr(padding, "_value", padding))
            is_pad = t._value == pad
            if is_pad.ndim > 2:
                is_pad = is_pad.reshape(rows, width, -1).all(axis=-1)
            kept = ~is_pad[:, ::-1]
            row_lengths = xp.where(kept.any(axis=1), width - kept.argmax(axis=1), 0)
        else:
            row_lengths = xp.full(rows, width, xp.int64)
        row_ids = xp.repeat(xp.arange(rows), row_lengths.astype(xp.intp))
        starts = xp.concatenate([[0], xp.cumsum(row_lengths)])[:-1]
        cols = xp.arange(row_ids.size) - xp.repeat(starts, row_lengths.astype(xp.intp))
        index = wrap(xp.stack([row_ids, cols], axis=1).astype(xp.int64))
        out = cls.from_row_lengths(gather_nd(t, index), row_lengths)
        return out if row_splits_dtype is None else out.with_row_splits_dtype(row_splits_dtype)

    # -- properties -------------------------------------------------------------------------------
    @property
    def values(self):
        return self._values

    @property
    def row_splits(self):
        return self._row_splits

    @property
    def flat_values(self):
        v = self._values
        while isinstance(v, RaggedTensor):
            v = v.values
        return v

    @property
    def dtype(self):
        return self.flat_values.dtype

    @property
    def ragged_rank(self):
        inner = self._values
        return 1 + (inner.ragged_rank if isinstance(inner, RaggedTensor) else 0)

    @property
    def shape(self):
        """``[nrows, None, ...]``; while a ``tf.function`` traces, nrows as its spec says
        (``None`` for ``RaggedTensorSpec([None, None])``), read from the row splits' traced dims."""
        inner = self._values.shape
        dims = getattr(self._row_splits, "_graph_dims", None)
        rows = None if dims is not None and dims[0] is None else \
            int(self._row_splits._value.size - 1)
        return TensorShape([rows, self._uniform_row_length] + list(inner)[1:])

    def row_lengths(self, axis=1, name=None):
        return wrap(xp.diff(self._row_splits._value))

    def nrows(self, out_type=None, name=None):
        kind = _splits_kind(self) if out_type is None else _as_np(out_type)
        return wrap(xp.asarray(self._row_splits._value.size - 1, dtype=kind))

    def value_rowids(self, name=None):
        return wrap(xp.repeat(xp.arange(self.nrows()._value, dtype=_splits_kind(self)),
                              self.row_lengths()._value.astype(xp.intp)))

    def bounding_shape(self, axis=None, name=None, out_type=None):
        lengths = self.row_lengths()._value
        inner = self._values.bounding_shape()._value[1:] if isinstance(
            self._values, RaggedTensor) else xp.asarray(self._values._value.shape[1:], xp.int64)
        out = xp.concatenate([[lengths.size, lengths.max() if lengths.size else 0], inner])
        return wrap(out.astype(_splits_kind(self) if out_type is None else _as_np(out_type)))

    def with_row_splits_dtype(self, dtype):
        """The same RaggedTensor with every level's row partition in ``dtype`` (int32 or
        int64)."""
        dtype = as_dtype(dtype)
        if dtype.name not in ("int32", "int64"):
            raise ValueError(f"Argument `row_splits` dtype must be int32 or int64. Received "
                             f"{dtype}.")
        kind = dtype.as_numpy_dtype
        values = self._values.with_row_splits_dtype(dtype) \
            if isinstance(self._values, RaggedTensor) else self._values
        if values is self._values and self._row_splits._value.dtype == kind:
            return self
        out = RaggedTensor(values, self._row_splits._value, kind)
        out._uniform_row_length = self._uniform_row_length
        return out

    # -- conversions ------------------------------------------------------------------------------
    def to_list(self):
        splits = self._row_splits._value.tolist()
        inner = self._values.to_list() if isinstance(self._values, RaggedTensor) else \
            self._values._value.tolist()
        return [inner[a:b] for a, b in zip(splits[:-1], splits[1:])]

    def numpy(self):
        """TensorFlow's form: rows of equal length stack into one array, ragged rows make a
        1-D object array of row arrays."""
        values = self._values.numpy() if isinstance(self._values, RaggedTensor) else \
            self._values._value
        splits = self._row_splits._value.tolist()
        rows = [values[a:b] for a, b in zip(splits[:-1], splits[1:])]
        if not rows:
            return xp.zeros((0, 0) + values.shape[1:], dtype=values.dtype)
        if any(len(r) != len(rows[0]) for r in rows):
            out = xp.empty(len(rows), dtype=object)
            out[:] = rows
            return out
        return xp.array(rows)

    def to_tensor(self, default_value=None, name=None, shape=None):
        """The dense tensor, rows padded with ``default_value`` (0 by default); ``shape``
        crops or pads each axis to its size (None keeps an axis as it is)."""
        if shape is not None:
            return _to_shape(self, default_value, shape)
        inner = self._values.to_tensor(default_value) if isinstance(self._values, RaggedTensor) \
            else self._values
        lengths = self.row_lengths()._value
        # repeat counts as intp: wasm32 (Pyodide) refuses int64 counts
        rows = xp.repeat(xp.arange(lengths.size), lengths.astype(xp.intp))
        cols = xp.arange(lengths.sum()) - xp.repeat(self._row_splits._value[:-1],
                                                    lengths.astype(xp.intp))
        width = int(lengths.max()) if lengths.size else 0
        dense_shape = (lengths.size, width) + tuple(inner._value.shape[1:])
        if inner.dtype.name == "string":   # no gradient: padded directly
            dense = xp.full(dense_shape, b"" if default_value is None else
                            xp.asarray(_tensor(default_value)._value).item(), dtype=object)
            dense[rows, cols] = inner._value
            return wrap(dense)
        index = wrap(xp.stack([rows, cols], axis=1).astype(xp.int64))
        dense = scatter_nd(index, inner, dense_shape)
        if default_value is not None:
            filled = xp.zeros((lengths.size, width), bool)
            filled[rows, cols] = True
            mask = wrap(filled.reshape(filled.shape + (1,) * (len(dense_shape) - 2)))
            dense = where(mask, dense, fill(dense_shape, _tensor(default_value, dense.dtype)))
        return dense

    # -- rows and arithmetic ------------------------------------------------------------------------
    @keeps_splits_dtype
    def __getitem__(self, key):
        if isinstance(key, int):
            n = int(self.nrows()._value)
            if not -n <= key < n:
                raise IndexError(f"row {key} is out of range for a RaggedTensor of {n} rows")
            key %= n
            a, b = (int(v) for v in self._row_splits._value[key:key + 2])
            if isinstance(self._values, RaggedTensor):
                splits = self._values.row_splits._value[a:b + 1]
                return RaggedTensor(self._values.values[int(splits[0]):int(splits[-1])],
                                    splits - splits[0])
            return self._values[a:b]
        if isinstance(key, slice):
            rows = xp.arange(int(self.nrows()._value))[key]
            return _rows(self, rows)
        if isinstance(key, tuple) and len(key) == 2 and isinstance(key[1], (int, slice)):
            outer = self[key[0]] if not (isinstance(key[0], slice) and
                                         key[0] == slice(None)) else self
            if isinstance(key[0], int):
                return outer[key[1]]
            return _within_rows(outer, key[1])
        raise TypeError("RaggedTensor indexing supports rt[i], rt[a:b] and rt[rows, cols] with "
                        "integers or slices")

    @keeps_splits_dtype
    def merge_dims(self, outer_axis, inner_axis):
        """Axes ``outer_axis`` to ``inner_axis`` merged into one (``(0, 1)`` gives the values;
        ``(1, 2)`` joins each row's inner lists)."""
        rank = self.ragged_rank + self.flat_values._value.ndim
        outer, inner = outer_axis % rank, inner_axis % rank
        if outer == inner:
            return self
        if outer == 0:
            merged = self._values
            for _ in xp.arange(inner - 1):
                merged = merged.values if isinstance(merged, RaggedTensor) else \
                    reshape(merged, [-1] + list(merged._value.shape[2:]))
            return merged
        if outer == 1 and isinstance(self._values, RaggedTensor):
            return RaggedTensor(self._values.merge_dims(0, inner - 1),
                                self._values.row_splits._value[self._row_splits._value]
                                if inner == 2 else _merged_splits(self, inner))
        raise UnimplementedError(f"merge_dims({outer_axis}, {inner_axis}) is not supported")

    def with_values(self, new_values):
        """The same row partition around ``new_values``."""
        return self._same_rows(new_values if isinstance(new_values, RaggedTensor)
                               else _tensor(new_values))

    def _same_rows(self, values):
        out = RaggedTensor(values, self._row_splits)
        out._uniform_row_length = self._uniform_row_length
        return out

    @classmethod
    def from_nested_row_splits(cls, flat_values, nested_row_splits, name=None, validate=True):
        result = flat_values if isinstance(flat_values, RaggedTensor) else _tensor(flat_values)
        for splits in reversed(list(nested_row_splits)):
            result = cls.from_row_splits(result, splits, validate=validate)
        return result

    @classmethod
    def _from_components(cls, flat_values, nested_row_splits):
        """The RaggedTensor of these component tensors, kept as they are (int64 row splits, not
        checked): how a ``tf.function`` trace rebuilds its ragged arguments and results."""
        result = flat_values
        for splits in reversed(list(nested_row_splits)):
            outer = cls.__new__(cls)
            outer._values, outer._row_splits = result, splits
            result = outer
        return result

    @classmethod
    def from_nested_row_lengths(cls, flat_values, nested_row_lengths, name=None, validate=True):
        result = flat_values if isinstance(flat_values, RaggedTensor) else _tensor(flat_values)
        for lengths in reversed(list(nested_row_lengths)):
            result = cls.from_row_lengths(result, lengths, validate=validate)
        return result

    @property
    def nested_row_splits(self):
        inner = self._values.nested_row_splits if isinstance(self._values, RaggedTensor) else ()
        return (self._row_splits,) + tuple(inner)

    def nested_row_lengths(self, name=None):
        inner = self._values.nested_row_lengths() if isinstance(self._values, RaggedTensor) \
            else ()
        return (self.row_lengths(),) + tuple(inner)

    def get_shape(self):
        return self.shape

    def with_flat_values(self, new_values):
        if isinstance(self._values, RaggedTensor):
            return self._same_rows(self._values.with_flat_values(new_values))
        return self._same_rows(new_values)

    def _binary(self, other, fn, reverse=False):
        if isinstance(other, RaggedTensor):
            if _splits_kind(other) != _splits_kind(self):
                raise ValueError(MISMATCHED_SPLITS)
            if not xp.array_equal(other.row_splits._value, self._row_splits._value):
                raise InvalidArgumentError("RaggedTensors in an elementwise op must have the "
                                           "same row_splits")
            other = other.flat_values
        else:
            other = dense_against_flat_values(
                self, _tensor(other, None if hasattr(other, "dtype") else self.dtype))
        a, b = (other, self.flat_values) if reverse else (self.flat_values, other)
        return self.with_flat_values(fn(a, b))

    def __add__(self, other):
        return self._binary(other, add)

    def __radd__(self, other):
        return self._binary(other, add, reverse=True)

    def __sub__(self, other):
        return self._binary(other, subtract)

    def __rsub__(self, other):
        return self._binary(other, subtract, reverse=True)

    def __mul__(self, other):
        return self._binary(other, multiply)

    def __rmul__(self, other):
        return self._binary(other, multiply, reverse=True)

    def __truediv__(self, other):
        return self._binary(other, truediv)

    def __rtruediv__(self, other):
        return self._binary(other, truediv, reverse=True)

    def __floordiv__(self, other):
        return self._binary(other, floordiv)

    def __mod__(self, other):
        return self._binary(other, floormod)

    def __pow__(self, other):
        return self._binary(other, pow)

    def __lt__(self, other):
        return self._binary(other, less)

    def __le__(self, other):
        return self._binary(other, less_equal)

    def __gt__(self, other):
        return self._binary(other, greater)

    def __ge__(self, other):
        return self._binary(other, greater_equal)

    def __and__(self, other):
        return self._binary(other, logical_and)

    def __or__(self, other):
        return self._binary(other, logical_or)

    def __invert__(self):
        return self.with_flat_values(logical_not(self.flat_values))

    def __abs__(self):
        return self.with_flat_values(abs_(self.flat_values))

    def to_sparse(self, name=None):
        """The SparseTensor of the entries (rank-2 RaggedTensors of scalars)."""
        if self.ragged_rank != 1 or self.flat_values._value.ndim != 1:
            raise UnimplementedError("to_sparse: only 2-D RaggedTensors of scalars are supported")
        idx = xp.stack([self.value_rowids()._value, _column_ids(self)], axis=1).astype(xp.int64)
        return SparseTensor(wrap(idx.reshape(-1, 2)), self.flat_values, self.bounding_shape())

    @classmethod
    def from_sparse(cls, st_input, name=None, row_splits_dtype=None):
        """The rows of a 2-D SparseTensor whose entries are packed to the left of each row
        (in row-major order), as TensorFlow requires."""
        idx = st_input.indices._value
        if idx.shape[1] != 2:
            raise ValueError(f"rank(st_input) must be 2, got {idx.shape[1]}")
        rows = int(st_input.dense_shape._value[0])
        lengths = xp.bincount(idx[:, 0].astype(xp.intp), minlength=rows)[:rows]
        starts = xp.concatenate([[0], xp.cumsum(lengths)])[:-1]
        expected = xp.arange(idx.shape[0]) - xp.repeat(starts, lengths.astype(xp.intp))
        if idx.size and (xp.any(xp.diff(idx[:, 0]) < 0) or
                         not xp.array_equal(idx[:, 1], expected)):
            raise InvalidArgumentError(f"SparseTensor is not right-ragged: SparseTensor.indices"
                                       f" = {idx.tolist()}")
        out = cls.from_row_lengths(st_input.values, lengths)
        return out if row_splits_dtype is None else out.with_row_splits_dtype(row_splits_dtype)

    def row_starts(self, name=None):
        return wrap(self._row_splits._value[:-1].copy())

    def row_limits(self, name=None):
        return wrap(self._row_splits._value[1:].copy())

    def __neg__(self):
        return self.with_flat_values(negative(self.flat_values))

    def __repr__(self):
        if hasattr(self.flat_values, "_graph_name"):     # a traced argument, as TensorFlow's graph
            return _graph_text(self)
        # TensorFlow prints ``numpy()`` with NumPy's array2string, ", " between elements
        with xp.printoptions(formatter={"all": _format_element}):
            text = _format_element(self.numpy())
        return f"<tf.RaggedTensor {text}>"

    __str__ = __repr__

    def __len__(self):
        return int(self.nrows()._value)


def _rows(rt, rows):
    """The RaggedTensor of rows ``rows`` of ``rt`` (gathered: gradients flow to the values)."""
    splits = rt.row_splits._value
    rows = xp.asarray(rows, dtype=xp.int64).reshape(-1)
    starts, ends = splits[:-1][rows], splits[1:][rows]
    pos = xp.concatenate([xp.arange(a, b) for a, b in zip(starts.tolist(), ends.tolist())]) \
        if rows.size else xp.zeros(0, xp.int64)
    pos = pos.astype(xp.int64)
    values = _rows(rt.values, pos) if isinstance(rt.values, RaggedTensor) else \
        gather(rt.values, wrap(pos))
    return RaggedTensor(values, xp.concatenate([[0], xp.cumsum(ends - starts)]))


def _within_rows(rt, key):
    """``rt[:, key]``: the same slice (or index) taken inside every row."""
    splits = rt.row_splits._value
    picks, lengths = [], []
    for a, b in zip(splits[:-1].tolist(), splits[1:].tolist()):
        inside = xp.arange(a, b)[key].tolist() if isinstance(key, slice) else None
        if inside is None:
            if not -(b - a) <= key < b - a:
                raise InvalidArgumentError(f"slice index {key} of dimension 1 out of bounds")
            inside = [a + key % (b - a)]
        picks += inside
        lengths.append(len(inside))
    pos = xp.asarray(picks, dtype=xp.int64)
    values = _rows(rt.values, pos) if isinstance(rt.values, RaggedTensor) else \
        gather(rt.values, wrap(pos))
    if isinstance(key, int):
        return values
    return RaggedTensor(values, xp.concatenate([[0], xp.cumsum(lengths)]).astype(xp.int64))


def _merged_splits(rt, inner):
    splits = rt.row_splits._value
    level = rt.values
    for _ in xp.arange(inner - 1):
        splits = level.row_splits._value[splits]
        level = level.values
    return splits


def _to_shape(rt, default_value, shape):
    """``to_tensor`` cropped or padded to ``shape`` (a None size keeps that axis)."""
    dense = rt.to_tensor(default_value)
    target = [None if d is None else int(d) for d in
              (shape.as_list() if hasattr(shape, "as_list") else list(shape))]
    if len(target) != dense._value.ndim:
        raise ValueError(f"shape {target} must have rank {dense._value.ndim}")
    crop = tuple(slice(0, d) for d in target)
    index = tuple(s if d is not None else slice(None) for s, d in zip(crop, target))
    cropped = dense[index]
    pads = [[0, 0 if d is None else max(d - n, 0)] for d, n in
            zip(target, cropped._value.shape)]
    if not any(p[1] for p in pads):
        return cropped
    fill_value = 0 if default_value is None else default_value
    return pad(cropped, pads, constant_values=fill_value)


def _graph_text(rt):
    """A RaggedTensor of graph tensors as TensorFlow prints it (``tf.RaggedTensor(values=...,
    row_splits=...)``, its components printed with ``str``)."""
    values = _graph_text(rt.values) if isinstance(rt.values, RaggedTensor) else str(rt.values)
    return f"tf.RaggedTensor(values={values}, row_splits={rt.row_splits!s})"


def _format_element(x):
    if isinstance(x, xp.ndarray):
        return xp.array2string(x, separator=", ") if x.size else repr(x.tolist())
    return str(x)


def constant(pylist, dtype=None, ragged_rank=None, inner_shape=None, name=None,
             row_splits_dtype=None):
    """A RaggedTensor from nested Python lists whose lengths differ.

    >>> import tapegrad as tf
    >>> tf.ragged.constant([[1, 2, 3], [], [4, 5]]).row_lengths().numpy().tolist()
    [3, 0, 2]
    """
    def depth(x):
        if isinstance(x, (list, tuple)):
            return 1 + max((depth(v) for v in x), default=0)
        return 0

    levels = depth(pylist)
    rank = levels - 1 if ragged_rank is None else int(ragged_rank)
    if rank < 1:
        raise ValueError(f"ragged.constant needs nested lists (got depth {levels})")

    def build(rows, k):
        lengths = [len(r) for r in rows]
        flat = [v for r in rows for v in r]
        if k == 1:
            values = convert_to_tensor(flat, dtype=dtype) if flat else \
                convert_to_tensor(xp.zeros((0,), xp.float32 if dtype is None else None) if
                                  dtype is None else xp.zeros((0,)), dtype=dtype)
        else:
            values = build(flat, k - 1)
        return RaggedTensor.from_row_lengths(values, lengths, validate=False)

    out = build(list(pylist), rank)
    return out if row_splits_dtype is None else out.with_row_splits_dtype(row_splits_dtype)


def positive_axis(axis, rank, what="axis"):
    """``axis`` in ``[0, rank)``; a ValueError names the range otherwise (as TensorFlow)."""
    axis = int(getattr(axis, "_value", axis))
    if not -rank <= axis < rank:
        raise ValueError(f"{what}={axis} out of bounds: expected {-rank}<={what}<{rank}")
    return axis + rank if axis < 0 else axis


def _column_ids(rt):
    lengths = rt.row_lengths()._value
    return xp.arange(lengths.sum()) - xp.repeat(rt.row_splits._value[:-1],
                                                lengths.astype(xp.intp))


del Tensor


@keeps_splits_dtype
def map_flat_values(op, *args, **kwargs):
    """``op`` applied to the flat values of the RaggedTensor arguments (all with the same
    rows), giving a RaggedTensor with those rows.

    >>> import tapegrad as tf
    >>> tf.ragged.map_flat_values(tf.math.square, tf.ragged.constant([[1, 2], [3]])).to_list()
    [[1, 4], [9]]
    """
    template = next((a for a in list(args) + list(kwargs.values())
                     if isinstance(a, RaggedTensor)), None)
    if template is None:
        return op(*args, **kwargs)

    def flat(a):
        if isinstance(a, RaggedTensor):
            if not xp.array_equal(a.row_splits._value, template.row_splits._value):
                raise ValueError("map_flat_values: the RaggedTensors' rows differ")
            return a.flat_values
        return a

    return template.with_flat_values(op(*[flat(a) for a in args],
                                        **{k: flat(v) for k, v in kwargs.items()}))


def range(starts, limits=None, deltas=1, dtype=None, name=None, row_splits_dtype=None):  # noqa: A001
    """Row i is ``range(starts[i], limits[i], deltas[i])`` (one argument: 0 to starts[i]).

    >>> import tapegrad as tf
    >>> tf.ragged.range([1, 3]).to_list()
    [[0], [0, 1, 2]]
    """
    if limits is None:
        starts, limits = 0, starts
    # TensorFlow's dtypes: Python ints give int32, floats float32
    s, l, d = (_tensor(v)._value for v in (starts, limits, deltas))
    kind = xp.result_type(s, l, d) if dtype is None else xp.dtype(_as_np(dtype))
    if dtype is None and kind == xp.float64 and xp.float64 not in (s.dtype, l.dtype, d.dtype):
        kind = xp.dtype(xp.float32)       # float32 with Python ints stays float32
    s, l, d = xp.broadcast_arrays(xp.atleast_1d(s), xp.atleast_1d(l), xp.atleast_1d(d))
    if (d == 0).any():
        raise InvalidArgumentError("Requires delta != 0 [Op:RaggedRange]")
    rows = [xp.arange(a, b, c) for a, b, c in zip(s.tolist(), l.tolist(), d.tolist())]
    values = (xp.concatenate(rows) if rows else xp.zeros(0)).astype(kind)
    out = RaggedTensor.from_row_lengths(wrap(values), [r.size for r in rows])
    return out if row_splits_dtype is None else out.with_row_splits_dtype(row_splits_dtype)


def _as_np(dtype):
    return as_dtype(dtype).as_numpy_dtype
