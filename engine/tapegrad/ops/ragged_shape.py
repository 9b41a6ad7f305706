"""``tf.experimental.DynamicRaggedShape``: the shape of a RaggedTensor (what ``tf.shape`` returns
for one), and the ops TensorFlow dispatches for ragged shapes: ``tf.shape``, ``tf.tile`` and
``tf.expand_dims`` on a RaggedTensor, ``tf.ones``, ``tf.zeros``, ``tf.fill``, ``tf.broadcast_to``
and ``tf.reshape`` to a DynamicRaggedShape (each registered in ``composite_dispatch.FORMS``).

A shape is its row partitions (one per ragged or partitioned axis, outermost first) and the
inner shape of the flat values (``inner_shape[0]`` counts them). Values move through recorded
ops (``gather``, ``tile``, ``reshape``), so gradients reach them.

>>> import tapegrad as tf
>>> tf.shape(tf.ragged.constant([[1, 2], [3]]))
<DynamicRaggedShape lengths=[2, (2, 1)] num_row_partitions=1>
"""
from .. import dtypes
from ..backend import xp
from ..errors import InvalidArgumentError
from ..ground import broadcast_to, reshape
from ..tensor import wrap
from .array_ops import expand_dims, fill, ones, shape as _dense_shape, zeros
from .composite_dispatch import composite_form
from .indexing_ops import gather
from .ragged_array_ops import _take_rows
from .ragged_ops import RaggedTensor, _tensor, dense_against_flat_values, positive_axis, ragged_form
from .shape_ops import tile


def _ints(x):
    """A list of Python ints from a list, tuple, array or tensor (tensors inside allowed)."""
    x = getattr(x, "_value", x)
    if isinstance(x, (list, tuple)):
        return [int(getattr(v, "_value", v)) for v in x]
    return [int(v) for v in xp.asarray(x).reshape(-1).tolist()]


class RowPartition:
    """How one axis splits the values below it into rows (``tf.RowPartition``): by row splits,
    or by one uniform row length."""

    def __init__(self, splits, dtype=dtypes.int64, uniform_row_length=None):
        self._splits = xp.asarray(splits, dtype=xp.int64).reshape(-1)
        self._dtype = dtypes.as_dtype(dtype)
        self._uniform = uniform_row_length

    def _t(self, array):
        return wrap(xp.asarray(array).astype(self._dtype._np))

    @property
    def dtype(self):
        return self._dtype

    def row_splits(self):
        return self._t(self._splits)

    def row_lengths(self):
        return self._t(xp.diff(self._splits))

    def nrows(self):
        return self._t(self._splits.size - 1)

    def nvals(self):
        return self._t(self._splits[-1])

    def value_rowids(self):
        return self._t(xp.repeat(xp.arange(self._splits.size - 1),
                                 xp.diff(self._splits).astype(xp.intp)))

    def uniform_row_length(self):
        return None if self._uniform is None else self._t(self._uniform)

    def is_uniform(self):
        return self._uniform is not None

    def with_dtype(self, dtype):
        return RowPartition(self._splits, dtype, self._uniform)

    def __repr__(self):
        if self._uniform is not None:
            return (f"tf.RowPartition(nrows={self._splits.size - 1}, "
                    f"uniform_row_length={self._uniform})")
        return f"tf.RowPartition(row_splits={xp.asarray(self._splits)})"


class DynamicRaggedShape:
    """The shape of a RaggedTensor or a tensor: its row partitions and the inner shape of its
    flat values.

    >>> import tapegrad as tf
    >>> s = tf.experimental.DynamicRaggedShape.from_lengths([2, (3, 1), 4])
    >>> s.rank, s.num_row_partitions, s.static_lengths()
    (3, 1, [2, (3, 1), 4])
    >>> tf.ones(s, tf.int32).to_list()
    [[[1, 1, 1, 1], [1, 1, 1, 1], [1, 1, 1, 1]], [[1, 1, 1, 1]]]
    """

    def __init__(self, row_partitions, inner_shape, dtype=None):
        self._dtype = dtypes.as_dtype(dtype if dtype is not None else dtypes.int64)
        self._partitions = tuple(p.with_dtype(self._dtype) for p in row_partitions)
        self._inner = [int(d) for d in _ints(inner_shape)]

    # -- construction ---------------------------------------------------------------------------
    @classmethod
    def from_tensor(cls, t, dtype=None):
        """The shape of a RaggedTensor (its row splits) or of a tensor (no row partitions)."""
        if isinstance(t, RaggedTensor):
            parts, level = [], t
            while isinstance(level, RaggedTensor):
                parts.append(RowPartition(level.row_splits._value,
                                          uniform_row_length=level._uniform_row_length))
                level = level.values
            return cls(parts, level._value.shape, dtype or dtypes.int64)
        return cls((), _tensor(t)._value.shape, dtype or dtypes.int32)

    @classmethod
    def from_lengths(cls, lengths, num_row_partitions=None, dtype=dtypes.int64):
        """A shape from its lengths: an int per uniform axis, a tuple of row lengths per ragged
        one (``[2, (3, 1), 4]``: two rows of 3 and 1 items of 4 values each)."""
        lengths = list(lengths)
        if lengths and isinstance(lengths[0], (list, tuple)):
            raise ValueError(f"Shape ({len(lengths)}, {len(lengths[0])}) must have rank 1")
        ragged = [i for i, d in enumerate(lengths) if isinstance(d, (list, tuple))]
        n = ragged[-1] if num_row_partitions is None and ragged else int(num_row_partitions or 0)
        parts, nvals = [], int(lengths[0]) if lengths else 1
        for d in lengths[1:n + 1]:
            if isinstance(d, (list, tuple)):
                if len(d) != nvals:
                    raise ValueError("Shape not consistent.")
                row, uniform = [int(v) for v in d], None
            else:
                row, uniform = [int(d)] * nvals, int(d)
            parts.append(RowPartition(xp.concatenate([[0], xp.cumsum(row, dtype=xp.int64)]),
                                      uniform_row_length=uniform))
            nvals = int(sum(row))
        inner = ([nvals] + [int(d) for d in lengths[n + 1:]]) if lengths else []
        return cls(parts, inner, dtype)

    def with_dtype(self, dtype):
        return DynamicRaggedShape(self._partitions, self._inner, dtype)

    # -- what notebooks read --------------------------------------------------------------------
    @property
    def dtype(self):
        return self._dtype

    @property
    def rank(self):
        return len(self._partitions) + len(self._inner)

    @property
    def num_row_partitions(self):
        return len(self._partitions)

    @property
    def row_partitions(self):
        return self._partitions

    @property
    def inner_shape(self):
        return wrap(xp.asarray(self._inner, dtype=self._dtype._np).reshape(-1))

    def is_uniform(self, axis):
        return axis == 0 or axis > len(self._partitions) or \
            self._partitions[axis - 1].is_uniform()

    def static_lengths(self, ragged_lengths=True):
        """The lengths of each axis: ints, a tuple of row lengths for a ragged one (None with
        ``ragged_lengths=False``); a uniform partition's length is a NumPy integer of the
        shape's dtype, as in TensorFlow."""
        if not self._partitions:
            return list(self._inner)
        out = [int(self._partitions[0]._splits.size - 1)]
        for p in self._partitions:
            if p.is_uniform():
                out.append(xp.dtype(self._dtype._np).type(p._uniform))
            else:
                out.append(tuple(int(v) for v in xp.diff(p._splits)) if ragged_lengths else None)
        return out + self._inner[1:]

    def __getitem__(self, index):
        if isinstance(index, slice):
            return self._slice(index)
        rank, i = self.rank, int(index)
        i = i + rank if i < 0 else i
        if i >= rank:
            raise IndexError(f"Index is too big: {i}>={rank}")
        if not self.is_uniform(i):
            raise ValueError(f"Index {i} is not uniform")
        lengths = self.static_lengths(ragged_lengths=False)
        return wrap(xp.asarray(lengths[i], dtype=self._dtype._np))

    def _slice(self, index):
        start, stop, step = index.indices(self.rank)
        if start != 0 or step != 1:
            raise ValueError("DynamicRaggedShape slices must start at 0 with step 1")
        if stop > len(self._partitions):
            return DynamicRaggedShape(self._partitions,
                                      self._inner[:stop - len(self._partitions)], self._dtype)
        return DynamicRaggedShape.from_lengths(self.static_lengths()[:stop], dtype=self._dtype)

    def __repr__(self):
        lengths = [d if isinstance(d, tuple) else int(d) for d in self.static_lengths()]
        return (f"<DynamicRaggedShape lengths={lengths} "
                f"num_row_partitions={self.num_row_partitions}>")

    # -- values of this shape -------------------------------------------------------------------
    def _build(self, flat):
        """``flat`` (the flat values, of ``inner_shape``) in this shape's rows."""
        for p in reversed(self._partitions):
            flat = RaggedTensor.from_row_splits(flat, p._splits, validate=False)
        return flat


# -- tf.shape on a RaggedTensor -----------------------------------------------------------------
@ragged_form(_dense_shape)
def ragged_shape(input, out_type=dtypes.int32, name=None):  # noqa: A002
    """``tf.shape`` of a RaggedTensor: its DynamicRaggedShape, of ``out_type``."""
    return DynamicRaggedShape.from_tensor(input, dtype=out_type)


# -- tensors of a DynamicRaggedShape ------------------------------------------------------------
@composite_form(DynamicRaggedShape, ones)
def ragged_ones(shape, dtype=dtypes.float32, name=None):
    return shape._build(ones(shape._inner, dtype))


@composite_form(DynamicRaggedShape, zeros)
def ragged_zeros(shape, dtype=dtypes.float32, name=None):
    return shape._build(zeros(shape._inner, dtype))


@composite_form(DynamicRaggedShape, fill)
def ragged_fill(dims, value, name=None):
    return dims._build(fill(dims._inner, value))


@composite_form(DynamicRaggedShape, broadcast_to)
def ragged_broadcast_to(input, shape, name=None):  # noqa: A002
    """A dense ``input`` broadcast to a ragged shape, as TensorFlow broadcasts a dense operand
    against ragged rows (``[[1], [2]]`` gives each row its own value)."""
    if not shape._partitions:
        return broadcast_to(input, shape._inner)
    template = shape._build(zeros(shape._inner, dtypes.int32))
    lined_up = dense_against_flat_values(template, input)
    return shape._build(broadcast_to(lined_up, shape._inner))


def _reshape_form(tensor, shape, name=None):
    """``tf.reshape`` to a DynamicRaggedShape (a RaggedTensor's values in its rows), or of a
    RaggedTensor to a dense shape (its values in order)."""
    values = tensor.flat_values if isinstance(tensor, RaggedTensor) else tensor
    if isinstance(shape, DynamicRaggedShape):
        return shape._build(reshape(values, shape._inner))
    return reshape(values, shape)


ragged_form(reshape)(_reshape_form)
composite_form(DynamicRaggedShape, reshape)(_reshape_form)


# -- tf.tile on a RaggedTensor ------------------------------------------------------------------
@ragged_form(tile)
def ragged_tile(input, multiples, name=None):  # noqa: A002
    """``tf.tile`` of a RaggedTensor: rows repeated ``multiples[0]`` times, each row's items
    ``multiples[1]`` times, inner axes as a tensor's.

    >>> import tapegrad as tf
    >>> tf.tile(tf.ragged.constant([[1, 2], [3]]), [2, 2]).to_list()
    [[1, 2, 1, 2], [3, 3], [1, 2, 1, 2], [3, 3]]
    """
    m = _ints(multiples)
    rank = input.ragged_rank + input.flat_values._value.ndim
    if len(m) != rank:
        raise InvalidArgumentError(f"Expected multiples argument to be a vector of length "
                                   f"{rank} but got length {len(m)} [Op:Tile]")
    for i, v in enumerate(m):
        if v < 0:
            raise InvalidArgumentError(f"Expected multiples[{i}] >= 0, but got {v} [Op:Tile]")
    return _tile(input, m)


def _tile(x, m):
    """``x`` (a RaggedTensor or a tensor) tiled by ``m``, one multiple per axis."""
    if not isinstance(x, RaggedTensor):
        return x if all(v == 1 for v in m) else tile(x, m)
    values = _tile(x.values, [1] + m[2:])
    splits = x.row_splits._value
    lengths = xp.diff(splits)
    rows = xp.tile(xp.arange(lengths.size), m[0])
    # each output row: its source row's items, m[1] times over
    positions = [xp.tile(xp.arange(splits[r], splits[r + 1]), m[1]) for r in rows.tolist()]
    positions = xp.concatenate(positions).astype(xp.int64) if positions else \
        xp.zeros(0, xp.int64)
    if isinstance(values, RaggedTensor):
        taken = _take_rows(values, positions)
    else:
        taken = gather(values, wrap(positions))
    return RaggedTensor.from_row_lengths(taken, lengths[rows] * m[1], validate=False)


# -- tf.expand_dims of a RaggedTensor (a reduction's keepdims uses it) -------------------------
@ragged_form(expand_dims)
def ragged_expand_dims(input, axis, name=None):  # noqa: A002
    """A new axis of size 1: at 0 one row holding every row, at 1 each row its own row of one,
    deeper in the values."""
    axis = positive_axis(axis, input.shape.rank + 1)
    if axis == 0:
        return RaggedTensor.from_uniform_row_length(input, int(input.nrows()._value), nrows=1,
                                                    validate=False)
    if axis == 1:
        return RaggedTensor.from_uniform_row_length(input, 1, validate=False)
    values = input.values
    deeper = ragged_expand_dims if isinstance(values, RaggedTensor) else expand_dims
    return input.with_values(deeper(values, axis - 1))
