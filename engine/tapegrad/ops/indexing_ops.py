"""Gathering and scattering by integer indices, and ``IndexedSlices``.

The primitives come in transpose pairs, so each one's rule is its partner:
``GatherV2`` <-> ``UnsortedSegmentSum`` and ``GatherNd`` <-> ``ScatterNd``. As in TensorFlow, the
gradient of ``gather`` along axis 0 is an ``IndexedSlices`` (the gathered rows and their
indices); ``tf.convert_to_tensor`` turns it into the dense tensor it stands for.
"""
from ..backend import xp
from ..checks import check_dtype
from .. import checks, convert, dtypes
from ..errors import InvalidArgumentError
from ..ground import add, as_shape as _as_shape, reshape
from ..recording import bind
from ..table import deflinear, defvjp, defjvp, primitive
from ..checks.dtype_rules import ANY, NOT_STRING, NUMBER, composite
from ..tensor import Tensor, TensorShape, wrap
from .arithmetic_ops import negative
from .logic_ops import where
from .. import batching
from ..ground import reshape_to
from ..batching import own_vjp
from .. import shape_rules
from ..table import defshape


def _contiguous(a):
    """A C-ordered array of the same shape (``ascontiguousarray`` would make 0-d arrays 1-d)."""
    a = xp.asarray(a)
    return a if a.ndim == 0 or a.flags.c_contiguous else xp.ascontiguousarray(a)


def _indices(x, op):
    t = convert.tensor(x)
    kind = t._value.dtype.kind
    if kind == "b":        # TensorFlow cannot convert bools to an index type: a TypeError
        raise TypeError(f"{op}: indices must be int32 or int64, got bool")
    if kind not in "iu":   # a float or complex index tensor: the op does not accept its type
        attr, allowed = _INDEX_ATTR.get(op, (None, None))
        tf_words = (f". Value for attr '{attr}' of {convert.tf_type_name(t.dtype.name)} "
                    f"is not in the list of allowed values: {allowed}" if attr else "")
        raise checks.invalid(op, f"{op}: indices must be integers, got {t.dtype.name}"
                             f"{tf_words}", TypeError)
    return t


# The index attribute and its allowed types, in TensorFlow's registration of the op
_INDEX_ATTR = {"GatherV2": ("Tindices", "int16, int32, int64"),
               "GatherNd": ("Tindices", "int16, int32, int64"),
               "OneHot": ("TI", "uint8, int8, int32, int64")}


def _fmt(shape):
    return "[" + ",".join(map(str, shape)) + "]"


# -- IndexedSlices -----------------------------------------------------------------------------
class IndexedSlices:
    """A sparse gradient: ``values[i]`` is the slice at row ``indices[i]`` of a tensor of shape
    ``dense_shape`` (repeated indices add up). ``tf.convert_to_tensor`` makes it dense.

    >>> import tapegrad as tf
    >>> s = tf.IndexedSlices(tf.constant([[1., 2.]]), tf.constant([1]), (3, 2))
    >>> tf.convert_to_tensor(s).numpy().tolist()
    [[0.0, 0.0], [1.0, 2.0], [0.0, 0.0]]
    """

    __slots__ = ("values", "indices", "_shape", "_dense", "__weakref__")

    def __init__(self, values, indices, dense_shape):
        self.values = convert.tensor(values)
        self.indices = convert.tensor(indices)
        self._shape = tuple(int(d) for d in (dense_shape._value.tolist()
                                              if isinstance(dense_shape, Tensor) else dense_shape))
        # The dense tensor it stands for, computed by a recorded op (so an outer tape connects it).
        self._dense = bind(UNSORTED_SEGMENT_SUM, (self.values, self.indices),
                           {"num_segments": self._shape[0], "axis": 0})

    # the engine reads these like a tensor's
    @property
    def _value(self):
        return self._dense._value

    @property
    def _id(self):
        return self._dense._id

    def _as_tensor(self):
        return self._dense

    @property
    def dense_shape(self):
        return wrap(xp.asarray(self._shape, dtype=xp.int32))

    @property
    def shape(self):
        return TensorShape(self._shape)

    @property
    def dtype(self):
        return self.values.dtype

    def numpy(self):
        return self._dense.numpy()

    def __array__(self, dtype=None, copy=None):
        v = self._dense._value
        return v if dtype is None else v.astype(dtype)

    def __neg__(self):
        return IndexedSlices(negative(self.values), self.indices, self._shape)

    def __repr__(self):
        return (f"IndexedSlices(indices={self.indices!s}, values={self.values!s}, "
                f"dense_shape={self.dense_shape!s})")


# -- UnsortedSegmentSum (with an axis) <-> GatherV2 ---------------------------------------------
def _segment_sum_impl(data, ids, num_segments, axis):
    pre = data.shape[:axis]
    post = data.shape[axis + ids.ndim:]
    p = 1
    for d in pre:
        p *= d
    d3 = data.reshape((p, ids.size) + tuple(post))
    out = xp.zeros((p, num_segments) + tuple(post), data.dtype)
    xp.add.at(out, (slice(None), ids.reshape(-1)), d3)
    return out.reshape(tuple(pre) + (num_segments,) + tuple(post))


def _gather_impl(params, indices, axis):
    # intp is int32 on wasm32 (Pyodide): take() refuses int64 indices there unless converted
    return xp.take(params, indices.astype(xp.intp, copy=False), axis=axis)


UNSORTED_SEGMENT_SUM = primitive("UnsortedSegmentSum", _segment_sum_impl, dtypes=NUMBER)
defshape(UNSORTED_SEGMENT_SUM, shape_rules.segments)
GATHER = primitive("GatherV2", _gather_impl, dtypes=ANY)
defshape(GATHER, shape_rules.gather)


def _gather_vjp(g, ans, params, indices, axis):
    """The segment sum of ``g`` at ``axis`` (at axis 0 as ``IndexedSlices``, which a backward
    pass densifies by the same segment sum over the flattened indices). Rows of ``g`` beyond
    ``ans`` (``own_vjp``) stay in front, summed densely."""
    lead = batching.lead_of(g, ans)
    if axis == 0:
        n = int(indices._value.size)
        g = reshape_to(g, g._value.shape[:lead] + (n,) + tuple(params._value.shape[1:]))
        indices = wrap(indices._value.reshape(-1))
        if not lead:
            return IndexedSlices(g, indices, params._value.shape)
    return bind(UNSORTED_SEGMENT_SUM, (g, indices),
                {"num_segments": params._value.shape[axis], "axis": axis + lead})


defvjp(GATHER, _gather_vjp, None)
defjvp(GATHER, lambda t, ans, params, indices, axis: bind(GATHER, (t, indices), {"axis": axis}),
       None)
defvjp(UNSORTED_SEGMENT_SUM, lambda g, ans, data, ids, num_segments, axis: bind(
    GATHER, (g, ids), {"axis": axis + batching.lead_of(g, ans)}), None)
defjvp(UNSORTED_SEGMENT_SUM,
       lambda t, ans, data, ids, num_segments, axis: bind(UNSORTED_SEGMENT_SUM, (t, ids),
                                                          {"num_segments": num_segments,
                                                           "axis": axis}), None)


def gather(params, indices, validate_indices=None, axis=None, batch_dims=0, name=None):
    """Slices of ``params`` along ``axis`` at ``indices``: shape
    ``params.shape[:axis] + indices.shape + params.shape[axis+1:]``.

    >>> import tapegrad as tf
    >>> tf.gather([10., 20., 30.], [2, 0, 2]).numpy().tolist()
    [30.0, 10.0, 30.0]
    """
    p = convert.tensor(params)
    idx = _indices(indices, "GatherV2")
    if batch_dims not in (0, None):
        raise NotImplementedError(f"GatherV2: batch_dims={batch_dims} is not implemented (only 0)")
    nd = p._value.ndim
    axis = 0 if axis is None else int(axis)
    if not -nd <= axis < nd:
        raise InvalidArgumentError(f"Expected axis in the range [{-nd}, {nd}), but got {axis} "
                                   f"[Op:GatherV2]")
    axis %= nd
    shape = p._value.shape
    if xp.prod(shape[:axis]) * xp.prod(shape[axis + 1:]) == 0:
        # Empty slices: TensorFlow gives the empty result without looking at the indices.
        return wrap(xp.zeros(shape[:axis] + idx._value.shape + shape[axis + 1:], p._value.dtype))
    checks.indices_in_range("GatherV2", idx._value, shape[axis])
    return bind(GATHER, (p, idx), {"axis": axis})


def unsorted_segment_sum(data, segment_ids, num_segments, name=None):
    """``out[k] = sum of data[i]`` over ``segment_ids[i] == k``; ids index the leading axes."""
    d = convert.tensor(data)
    ids = _indices(segment_ids, "UnsortedSegmentSum")
    n = int(num_segments)
    if ids._value.shape != d._value.shape[:ids._value.ndim]:
        raise InvalidArgumentError(f"data.shape = {_fmt(d._value.shape)} does not start with "
                                   f"segment_ids.shape = {_fmt(ids._value.shape)} "
                                   f"[Op:UnsortedSegmentSum]")
    checks.indices_in_range("UnsortedSegmentSum", ids._value, n, "segment_ids")
    return bind(UNSORTED_SEGMENT_SUM, (d, ids), {"num_segments": n, "axis": 0})


# -- GatherNd <-> ScatterNd ------------------------------------------------------------------------
def _nd_index(indices):
    return tuple(xp.moveaxis(indices, -1, 0))


def _gather_nd_impl(params, indices):
    return _contiguous(params[_nd_index(indices)])


def _scatter_nd_impl(indices, updates, shape):
    out = xp.zeros(shape, updates.dtype)
    xp.add.at(out, _nd_index(indices), updates)
    return out


GATHER_ND = primitive("GatherNd", _gather_nd_impl, dtypes=ANY)
defshape(GATHER_ND, shape_rules.gather_nd)
SCATTER_ND = primitive("ScatterNd", _scatter_nd_impl, dtypes=ANY)
defshape(SCATTER_ND, shape_rules.fixed_shape("shape"))
defvjp(GATHER_ND, lambda g, ans, params, indices: bind(SCATTER_ND, (indices, g), {
    "shape": tuple(params._value.shape[:indices._value.shape[-1]]
                   + g._value.shape[indices._value.ndim - 1:])}), None)   # (rows_last: g's last axes)
defjvp(GATHER_ND, lambda t, ans, params, indices: bind(GATHER_ND, (t, indices), {}), None)
defvjp(SCATTER_ND, None, lambda g, ans, indices, updates, shape: bind(GATHER_ND, (g, indices), {}))
defjvp(SCATTER_ND, None, lambda t, ans, indices, updates, shape: bind(
    SCATTER_ND, (indices, t), {"shape": shape}))


def _check_nd(indices, shape, op):
    k = indices.shape[-1] if indices.ndim else 0
    if indices.ndim < 1 or k > len(shape):
        raise InvalidArgumentError(f"{op}: indices.shape[-1] must be <= rank of the indexed "
                                   f"tensor: indices shape {_fmt(indices.shape)}, tensor shape "
                                   f"{_fmt(shape)} [Op:{op}]")
    bad = xp.zeros(indices.shape[:-1], bool)
    for j in range(k):
        bad |= (indices[..., j] < 0) | (indices[..., j] >= shape[j])
    if bad.any():   # GatherNd names the last bad row and the "param shape", as TensorFlow's
        gather = op == "GatherNd"
        pos = tuple(int(i) for i in xp.argwhere(bad)[-1 if gather else 0])
        raise InvalidArgumentError(f"indices{list(pos)} = {indices[pos].tolist()} does not "
                                   f"index into {'param ' if gather else ''}shape "
                                   f"{_fmt(shape)} [Op:{op}]")


def gather_nd(params, indices, batch_dims=0, name=None):
    """``out[i...] = params[indices[i...]]`` with the last axis of ``indices`` a coordinate."""
    if batch_dims != 0:
        raise NotImplementedError(f"GatherNd: batch_dims={batch_dims} is not implemented (only 0)")
    p = convert.tensor(params)
    idx = _indices(indices, "GatherNd")
    _check_nd(idx._value, p._value.shape, "GatherNd")
    return bind(GATHER_ND, (p, idx), {})


def scatter_nd(indices, updates, shape, name=None):
    """A zero tensor of ``shape`` with ``updates`` added at ``indices`` (duplicates add up)."""
    idx = _indices(indices, "ScatterNd")
    u = convert.tensor(updates)
    shape = _as_shape(shape)
    _check_nd(idx._value, shape, "ScatterNd")
    k = idx._value.shape[-1]
    expected = tuple(idx._value.shape[:-1]) + tuple(shape[k:])
    if tuple(u._value.shape) != expected:
        raise InvalidArgumentError(f"ScatterNd: updates shape {_fmt(u._value.shape)} must be "
                                   f"{_fmt(expected)} for indices {_fmt(idx._value.shape)} and "
                                   f"shape {_fmt(shape)} [Op:ScatterNd]")
    return bind(SCATTER_ND, (idx, u), {"shape": shape})


TENSOR_SCATTER_ADD = composite("TensorScatterAdd", NOT_STRING.no_kernel("bool"))


def tensor_scatter_nd_add(tensor, indices, updates, name=None):
    t = convert.tensor(tensor)
    check_dtype(TENSOR_SCATTER_ADD, t)
    return add(t, scatter_nd(indices, convert.same_dtype([t, updates], "TensorScatterAdd")[1],
                             t._value.shape))


def tensor_scatter_nd_update(tensor, indices, updates, name=None):
    """A copy of ``tensor`` with the entries at ``indices`` replaced by ``updates``.

    The gradient reaches ``tensor`` everywhere except at the replaced entries, and ``updates``
    through the entries they replaced.
    """
    t, u = convert.same_dtype([tensor, updates], "TensorScatterUpdate")
    idx = _indices(indices, "TensorScatterUpdate")
    placed = scatter_nd(idx, u, t._value.shape)
    hit = _scatter_nd_impl(idx._value, xp.ones(u._value.shape, xp.int32), t._value.shape) > 0
    return where(wrap(hit), placed, t)


# -- masks and one-hot ----------------------------------------------------------------------------
def boolean_mask(tensor, mask, axis=None, name=None):
    """The entries (or slices) of ``tensor`` where ``mask`` is true, flattened over the mask's
    axes: ``tf.boolean_mask([[1, 2], [3, 4]], [[True, False], [False, True]])`` -> ``[1, 4]``."""
    t = convert.tensor(tensor)
    m = convert.tensor(mask)   # a number mask selects its nonzero entries, as in TensorFlow
    axis = 0 if axis is None else int(axis) % max(t._value.ndim, 1)
    k = m._value.ndim
    if k == 0:
        raise ValueError("boolean_mask: mask cannot be a scalar")
    shape = tuple(t._value.shape)
    if shape[axis:axis + k] != tuple(m._value.shape):
        raise ValueError(f"boolean_mask: shapes {shape[axis:axis + k]} (of tensor, from axis "
                         f"{axis}) and {tuple(m._value.shape)} (of mask) are incompatible")
    n = 1
    for d in shape[axis:axis + k]:
        n *= d
    flat = reshape(t, shape[:axis] + (n,) + shape[axis + k:])
    keep = wrap(xp.flatnonzero(m._value).astype(xp.int64))
    return bind(GATHER, (flat, keep), {"axis": axis})


def one_hot(indices, depth, on_value=None, off_value=None, axis=None, dtype=None, name=None):
    """A tensor with ``on_value`` at each index along a new axis of size ``depth`` (a constant)."""
    depth = checks.count("OneHot", depth, "depth")   # TensorFlow checks depth first
    if isinstance(indices, (list, tuple)) and not indices:   # TF: no indices, no rows
        indices = xp.zeros([0], xp.int32)
    idx = _indices(indices, "OneHot")
    dt = dtypes.as_dtype(dtype)._np if dtype is not None else None
    on = convert.tensor(1 if on_value is None else on_value)
    off = convert.tensor(0 if off_value is None else off_value)
    if dt is None:
        dt = on._value.dtype if on_value is not None else (
            off._value.dtype if off_value is not None else xp.float32)
    hot = idx._value[..., None] == xp.arange(depth)
    out = xp.where(hot, on._value.astype(dt), off._value.astype(dt))
    nd = out.ndim
    if axis is not None and int(axis) != -1:
        a = int(axis) % nd
        out = xp.moveaxis(out, -1, a)
    return wrap(_contiguous(out))


# -- batched rules (batching.py): every row of a jacobian in one pass --------------------------
own_vjp(GATHER, UNSORTED_SEGMENT_SUM)
batching.rows_last(GATHER_ND, SCATTER_ND, data=())   # the rows as the last axis of the updates
