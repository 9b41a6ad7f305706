"""Array ops that rearrange or regroup elements (the top-level ``tf`` namespace): rolling,
repeating, grids, sorted search, sequence masks, partitions and stitches, scatters of extremes,
strided slices with masks, histograms, edit distance. (The shape helpers are in shape_ops.)

Most are composites of gathers, slices and concatenations, so their gradients are the ones
TensorFlow's composites give (dense tensors). ``dynamic_stitch`` and the scatter max/min get
primitives of their own, because TensorFlow's gradients for them are not what the composite gives.
"""
import collections

from ..backend import xp

from .. import checks, convert, dtypes
from ..errors import InvalidArgumentError
from ..ground import add, broadcast_to, multiply, reshape
from ..recording import bind
from ..replayed import replayed
from ..table import defjvp, defvjp, primitive
from ..checks.dtype_rules import ANY, NUMBER, REAL, composite
from .. import shape_rules
from ..table import defshape
from ..tensor import wrap
from .arithmetic_ops import cast, divide, identity, negative
from .array_ops import concat, getitem, stack, transpose
from .indexing_ops import _indices, gather_nd, scatter_nd
from .logic_ops import equal
from .sparse_ops import SparseTensor
from ..batching import rows_last
from ..primitives import NO_GRADIENT, exempt

UniqueWithCounts = collections.namedtuple("UniqueWithCounts", ["y", "idx", "count"])


def _fmt(shape):
    return "[" + ",".join(map(str, shape)) + "]"


def _ints(value, op, arg):
    """An int or a list of ints (a tensor of them too) as a 1-D NumPy array."""
    a = xp.asarray(convert.tensor(value)._value)
    if a.dtype.kind not in "iu":
        raise checks.invalid(op, f"{op}: {arg} must be int32 or int64, got {a.dtype}", TypeError)
    if a.ndim > 1:
        raise InvalidArgumentError(f"{arg} must be a scalar or a 1-D vector, got shape "
                                   f"{_fmt(a.shape)} [Op:{op}]")
    return a.reshape(-1).astype(xp.int64)


# -- roll and repeat ---------------------------------------------------------------------------
def roll(input, shift, axis, name=None):  # noqa: A002
    """Shifts elements along ``axis`` by ``shift`` places, wrapping around (several axes at once
    with lists; shifts of one axis add up).

    >>> import tapegrad as tf
    >>> tf.roll([0, 1, 2, 3, 4], shift=2, axis=0).numpy().tolist()
    [3, 4, 0, 1, 2]
    """
    x = convert.tensor(input)
    shifts, axes = _ints(shift, "Roll", "shift"), _ints(axis, "Roll", "axis")
    if shifts.shape != axes.shape:
        raise InvalidArgumentError(f"shift and axis must have the same size [Op:Roll]")
    nd = x._value.ndim
    total = {}
    for s, a in zip(shifts.tolist(), axes.tolist()):
        if not -nd <= a < nd:
            raise InvalidArgumentError(f"axis {a} is out of range [Op:Roll]")
        total[a % nd] = total.get(a % nd, 0) + s
    out = x
    for a, s in sorted(total.items()):
        n = x._value.shape[a]
        s = s % n if n else 0
        if s:
            head = (slice(None),) * a
            out = concat([getitem(out, head + (slice(n - s, None),)),
                          getitem(out, head + (slice(0, n - s),))], a)
    return identity(out) if out is x else out


def _take_along(x, axis, positions):
    """``x`` with the slices along ``axis`` taken at ``positions`` (a dense gradient, as TF's)."""
    nd = x._value.ndim
    perm = (axis,) + tuple(i for i in range(nd) if i != axis)
    front = transpose(x, perm) if axis else x
    picked = gather_nd(front, wrap(xp.asarray(positions, xp.int64).reshape(-1, 1)))
    back = tuple(int(i) for i in xp.argsort(perm))
    return transpose(picked, back) if axis else picked


def repeat(input, repeats, axis=None, name=None):  # noqa: A002
    """Repeats each slice along ``axis`` (the flattened tensor when ``axis`` is None).

    >>> import tapegrad as tf
    >>> tf.repeat([1, 2], repeats=[3, 1]).numpy().tolist()
    [1, 1, 1, 2]
    """
    x = convert.tensor(input)
    if axis is None:
        x = reshape(x, (-1,))
        axis = 0
    nd = x._value.ndim
    if not -nd <= int(axis) < nd:       # TensorFlow checks this in Python: a ValueError
        raise ValueError(f"axis={int(axis)} out of bounds: expected {-nd}<=axis<{nd}")
    axis = int(axis) % nd
    counts = _ints(repeats, "Repeat", "repeats")
    n = x._value.shape[axis]
    if counts.size == 1:
        counts = xp.repeat(counts, n)
    if counts.size != n:
        raise ValueError(f"Dimensions {n} and {counts.size} are not compatible")
    if (counts < 0).any():
        raise InvalidArgumentError(f"repeats must be >= 0, got {counts.tolist()} [Op:Repeat]")
    # intp: NumPy on wasm32 (Pyodide) refuses int64 repeat counts
    return _take_along(x, axis, xp.repeat(xp.arange(n), counts.astype(xp.intp)))


# -- grids and sorted search -------------------------------------------------------------------
def meshgrid(*args, **kwargs):
    """Coordinate grids from 1-D tensors: ``indexing="xy"`` (Cartesian, the default: the first
    two axes swapped) or ``"ij"`` (matrix).

    >>> import tapegrad as tf
    >>> X, Y = tf.meshgrid([1, 2, 3], [4, 5])
    >>> X.numpy().tolist(), Y.shape
    ([[1, 2, 3], [1, 2, 3]], TensorShape([2, 3]))
    """
    indexing = kwargs.pop("indexing", "xy")
    kwargs.pop("name", None)
    if kwargs:
        raise TypeError(f"'{next(iter(kwargs))}' is an invalid keyword argument for this function")
    if indexing not in ("xy", "ij"):
        raise ValueError("Argument `indexing` parameter must be either 'xy' or 'ij', got "
                         f"'{indexing}'")
    xs = [reshape(convert.tensor(a), (-1,)) for a in args]
    sizes = [x._value.shape[0] for x in xs]
    if indexing == "xy" and len(xs) > 1:
        sizes[0], sizes[1] = sizes[1], sizes[0]
    out = []
    for i, x in enumerate(xs):
        place = i
        if indexing == "xy" and len(xs) > 1 and i < 2:
            place = 1 - i
        shape = [1] * len(xs)
        shape[place] = -1
        out.append(broadcast_to(reshape(x, tuple(shape)), tuple(sizes)))
    return out


def searchsorted(sorted_sequence, values, side="left", out_type=dtypes.int32, name=None):
    """Where each of ``values`` would go in the innermost axis of ``sorted_sequence`` to keep it
    sorted (batched over the leading axes).

    >>> import tapegrad as tf
    >>> tf.searchsorted([0., 1., 2.], [0.5, 2.0], side="right").numpy().tolist()
    [1, 3]
    """
    if side not in ("left", "right"):
        raise ValueError(f"Argument `side` must be either 'right' or 'left'. Received: "
                         f"`side` = '{side}'.")
    s, v = convert.same_dtype([sorted_sequence, values], "SearchSorted")
    a, b = s._value, v._value
    if a.ndim < 1 or b.ndim < 1 or a.shape[:-1] != b.shape[:-1]:
        raise InvalidArgumentError(f"Leading dim_size of both tensors must match. [Op:"
                                   f"{'UpperBound' if side == 'right' else 'LowerBound'}]")
    rows_a, rows_b = a.reshape(-1, a.shape[-1]), b.reshape(-1, b.shape[-1])
    out = xp.stack([xp.searchsorted(r, q, side=side) for r, q in zip(rows_a, rows_b)]) \
        if rows_a.shape[0] else xp.zeros(rows_b.shape, xp.int64)
    return wrap(out.reshape(b.shape).astype(dtypes.as_dtype(out_type)._np))


# -- sequences --------------------------------------------------------------------------------
def sequence_mask(lengths, maxlen=None, dtype=dtypes.bool, name=None):
    """``mask[i..., j] = j < lengths[i...]``, with ``maxlen`` columns (the largest length by
    default).

    >>> import tapegrad as tf
    >>> tf.sequence_mask([1, 3], 4).numpy().astype(int).tolist()
    [[1, 0, 0, 0], [1, 1, 1, 0]]
    """
    n = convert.tensor(lengths)._value
    if n.dtype.kind not in "iuf":
        raise checks.invalid("SequenceMask", f"lengths must be numbers, got {n.dtype}", TypeError)
    if maxlen is None:
        m = int(n.max()) if n.size else 0
    else:
        m_arr = convert.tensor(maxlen)._value
        if m_arr.ndim != 0:
            raise ValueError(f"Argument `maxlen` must be scalar for sequence_mask, received "
                             f"`maxlen` = {m_arr.tolist()} with shape '{_fmt(m_arr.shape)}' instead")
        m = int(m_arr)
    mask = xp.arange(max(m, 0)) < n[..., None]
    return wrap(mask.astype(dtypes.as_dtype(dtype)._np))


def reverse_sequence(input, seq_lengths, seq_axis=None, batch_axis=None, name=None):  # noqa: A002
    """Reverses the first ``seq_lengths[b]`` entries along ``seq_axis`` of each batch entry ``b``.

    >>> import tapegrad as tf
    >>> tf.reverse_sequence([[1, 2, 3], [4, 5, 6]], [2, 3], seq_axis=1, batch_axis=0).numpy().tolist()
    [[2, 1, 3], [6, 5, 4]]
    """
    x = convert.tensor(input)
    lengths = _ints(seq_lengths, "ReverseSequence", "seq_lengths")
    nd = x._value.ndim
    if seq_axis is None:
        raise TypeError("reverse_sequence() missing required argument: 'seq_axis'")
    seq = checks.axis("ReverseSequence", seq_axis, nd, "seq_axis")
    batch = checks.axis("ReverseSequence", 0 if batch_axis is None else batch_axis, nd,
                        "batch_axis")
    shape = x._value.shape
    if seq == batch:
        raise InvalidArgumentError(f"seq_dim == batch_dim == {seq} [Op:ReverseSequence]")
    if lengths.size != shape[batch]:
        raise InvalidArgumentError(f"Length of seq_lengths != input.dims({batch}), ({lengths.size}"
                                   f" vs. {shape[batch]}) [Op:ReverseSequence]")
    if (lengths > shape[seq]).any() or (lengths < 0).any():
        bad = int(xp.argmax((lengths > shape[seq]) | (lengths < 0)))
        raise InvalidArgumentError(f"seq_lens({bad}) > input.dims({seq}) [Op:ReverseSequence]")
    coords = xp.indices(shape)                    # one coordinate grid per axis
    b, j = coords[batch], coords[seq]
    n = lengths[b]
    coords[seq] = xp.where(j < n, n - 1 - j, j)
    return gather_nd(x, wrap(xp.moveaxis(coords, 0, -1).astype(xp.int64)))


# -- unique, partitions, stitches ---------------------------------------------------------------
@replayed("UniqueWithCounts", dynamic_shape=True)
def unique_with_counts(x, out_idx=dtypes.int32, name=None):
    """``(y, idx, count)``: the distinct values of a 1-D tensor in order of first appearance, each
    entry's position in ``y``, and how often each value occurs.

    >>> import tapegrad as tf
    >>> y, idx, count = tf.unique_with_counts([4, 1, 4, 4])
    >>> y.numpy().tolist(), idx.numpy().tolist(), count.numpy().tolist()
    ([4, 1], [0, 1, 0, 0], [3, 1])
    """
    a = convert.tensor(x)._value
    if a.ndim != 1:
        raise InvalidArgumentError("unique expects a 1D vector. [Op:UniqueWithCounts]")
    values, first, inverse, counts = xp.unique(a, return_index=True, return_inverse=True,
                                               return_counts=True)
    order = xp.argsort(first, kind="stable")
    rank = xp.empty_like(order)
    rank[order] = xp.arange(order.size)
    dt = dtypes.as_dtype(out_idx)._np
    return UniqueWithCounts(wrap(xp.ascontiguousarray(values[order])),
                            wrap(rank[inverse.reshape(-1)].astype(dt)),
                            wrap(counts[order].astype(dt)))


def dynamic_partition(data, partitions, num_partitions, name=None):
    """Splits ``data`` into ``num_partitions`` tensors: the slices whose ``partitions`` entry is
    ``i`` go to output ``i``, in order.

    >>> import tapegrad as tf
    >>> [p.numpy().tolist() for p in tf.dynamic_partition([10, 20, 30], [1, 0, 1], 2)]
    [[20], [10, 30]]
    """
    d = convert.tensor(data)
    p = _indices(partitions, "DynamicPartition")._value
    k = checks.count("DynamicPartition", num_partitions, "num_partitions", minimum=1)
    if d._value.shape[:p.ndim] != p.shape:
        raise InvalidArgumentError(f"data.shape must start with partitions.shape, got data.shape "
                                   f"= {_fmt(d._value.shape)}, partitions.shape = "
                                   f"{_fmt(p.shape)} [Op:DynamicPartition]")
    bad = (p < 0) | (p >= k)
    if bad.any():
        pos = tuple(int(i) for i in xp.argwhere(bad)[0])
        raise InvalidArgumentError(f"partitions{list(pos)} = {int(p[pos])} is not in [0, {k}) "
                                   f"[Op:DynamicPartition]")
    return [gather_nd(d, wrap(xp.argwhere(p == i).astype(xp.int64).reshape(-1, p.ndim)))
            for i in range(k)]


def _stitch_impl(*arrays, count):
    indices, data = arrays[:count], arrays[count:]
    size = max((int(i.max()) + 1 for i in indices if i.size), default=0)
    inner = data[0].shape[indices[0].ndim:]
    out = xp.zeros((size,) + tuple(inner), data[0].dtype)
    for idx, values in zip(indices, data):     # later entries win, as TensorFlow's kernel
        out[idx.reshape(-1).astype(xp.intp)] = values.reshape((-1,) + tuple(inner))
    return out


def _stitch_vjp(g, ans, inputs, attrs, wanted):
    # TensorFlow's rule: every data entry gets the gradient at its index, also one that a later
    # entry overwrote.
    count = attrs["count"]
    out = [None] * count
    for idx, w in zip(inputs[:count], wanted[count:]):
        out.append(gather_nd(g, reshape(idx, tuple(idx._value.shape) + (1,))) if w else None)
    return out


def _stitch_jvp(tangents, ans, inputs, attrs):
    count = attrs["count"]
    if all(t is None for t in tangents[count:]):
        return None
    parts = [t if t is not None else wrap(xp.zeros(x._value.shape, x._value.dtype))
             for t, x in zip(tangents[count:], inputs[count:])]
    return bind(DYNAMIC_STITCH, tuple(inputs[:count]) + tuple(parts), attrs)


DYNAMIC_STITCH = primitive("DynamicStitch", _stitch_impl, dtypes=ANY)
defshape(DYNAMIC_STITCH, shape_rules.stitch)
DYNAMIC_STITCH.vjp = _stitch_vjp
DYNAMIC_STITCH.jvp = _stitch_jvp


def dynamic_stitch(indices, data, name=None):
    """Interleaves ``data`` into one tensor: ``merged[indices[m][i]] = data[m][i]`` (a later
    entry wins where indices repeat).

    >>> import tapegrad as tf
    >>> tf.dynamic_stitch([[0, 2], [1]], [[10., 30.], [20.]]).numpy().tolist()
    [10.0, 20.0, 30.0]
    """
    idx = [_indices(i, "DynamicStitch") for i in indices]
    if not idx or len(idx) != len(data):
        raise InvalidArgumentError(f"DynamicStitch needs as many data as indices tensors, got "
                                   f"{len(idx)} and {len(data)} [Op:DynamicStitch]")
    vals = convert.same_dtype(list(data), "DynamicStitch")
    inner = None
    for m, (i, v) in enumerate(zip(idx, vals)):
        ishape, vshape = i._value.shape, v._value.shape
        if vshape[:len(ishape)] != ishape:
            raise InvalidArgumentError(f"data[{m}].shape = {_fmt(vshape)} does not start with "
                                       f"indices[{m}].shape = {_fmt(ishape)} [Op:DynamicStitch]")
        rest = vshape[len(ishape):]
        if inner is not None and rest != inner:
            raise InvalidArgumentError(f"Need data[{m}].shape[{len(ishape)}:] = {_fmt(rest)} to "
                                       f"match data[0].shape[{idx[0]._value.ndim}:] = "
                                       f"{_fmt(inner)} [Op:DynamicStitch]")
        inner = rest
        if (i._value < 0).any():
            raise InvalidArgumentError(f"indices[{m}] holds a negative index "
                                       f"{int(i._value.min())} [Op:DynamicStitch]")
    size = max((int(i._value.max()) + 1 for i in idx if i._value.size), default=0)
    seen = xp.zeros(size, bool)
    for i in idx:
        seen[i._value.reshape(-1).astype(xp.intp)] = True
    if not seen.all():
        missing = int(xp.argmin(seen))
        raise InvalidArgumentError(f"Missing indices: merged[{missing}] is set by no indices "
                                   f"entry [Op:DynamicStitch]")
    return bind(DYNAMIC_STITCH, tuple(idx) + tuple(vals), {"count": len(idx)})


# -- more scatters into a copy ------------------------------------------------------------------
TENSOR_SCATTER_SUB = composite("TensorScatterSub", NUMBER)


def tensor_scatter_nd_sub(tensor, indices, updates, name=None):
    """A copy of ``tensor`` with ``updates`` subtracted at ``indices``.

    >>> import tapegrad as tf
    >>> tf.tensor_scatter_nd_sub([1., 2., 3.], [[1]], [5.]).numpy().tolist()
    [1.0, -3.0, 3.0]
    """
    t, u = convert.same_dtype([tensor, updates], "TensorScatterSub")
    checks.check_dtype(TENSOR_SCATTER_SUB, t)
    return add(t, scatter_nd(indices, negative(u), t._value.shape))


def _scatter_extreme_impl(x, indices, updates, pick):
    out = x.copy()
    getattr(xp, pick).at(out, tuple(xp.moveaxis(indices, -1, 0)), updates)
    return out


def _extreme_shares(x, indices, updates, ans):
    """TensorFlow's split of the gradient at ties: the entries equal to the result share it."""
    x_hit = cast(equal(x, ans), ans.dtype)
    u_hit = cast(equal(updates, gather_nd(ans, indices)), ans.dtype)
    count = add(x_hit, scatter_nd(indices, u_hit, tuple(x._value.shape)))
    return x_hit, u_hit, count


def _extreme_x_vjp(g, ans, x, indices, updates, pick):
    x_hit, _, count = _extreme_shares(x, indices, updates, ans)
    return divide(multiply(g, x_hit), count)


def _extreme_u_vjp(g, ans, x, indices, updates, pick):
    _, u_hit, count = _extreme_shares(x, indices, updates, ans)
    return multiply(gather_nd(divide(g, count), indices), u_hit)


def _extreme_x_jvp(t, ans, x, indices, updates, pick):
    x_hit, _, count = _extreme_shares(x, indices, updates, ans)
    return divide(multiply(t, x_hit), count)


def _extreme_u_jvp(t, ans, x, indices, updates, pick):
    _, u_hit, count = _extreme_shares(x, indices, updates, ans)
    return divide(scatter_nd(indices, multiply(t, u_hit), tuple(x._value.shape)), count)


# TensorFlow's op takes every dtype; its kernels, ordered numbers only
_EXTREME_DTYPES = ANY.no_kernel(*REAL.rejected())
TENSOR_SCATTER_MAX = primitive("TensorScatterMax", _scatter_extreme_impl, dtypes=_EXTREME_DTYPES)
defshape(TENSOR_SCATTER_MAX, shape_rules.same)
TENSOR_SCATTER_MIN = primitive("TensorScatterMin", _scatter_extreme_impl, dtypes=_EXTREME_DTYPES)
defshape(TENSOR_SCATTER_MIN, shape_rules.same)
for _prim in (TENSOR_SCATTER_MAX, TENSOR_SCATTER_MIN):
    defvjp(_prim, _extreme_x_vjp, None, _extreme_u_vjp)
    defjvp(_prim, _extreme_x_jvp, None, _extreme_u_jvp)


def _scatter_extreme(op, prim, pick, tensor, indices, updates):
    t, u = convert.same_dtype([tensor, updates], op)
    checks.check_dtype(prim, t)                  # before scatter_nd runs on the updates
    idx = _indices(indices, op)
    scatter_nd(idx, u, t._value.shape)           # the shape checks of scatter_nd
    return bind(prim, (t, idx, u), {"pick": pick})


def tensor_scatter_nd_max(tensor, indices, updates, name=None):
    """A copy of ``tensor`` with each entry at ``indices`` the maximum of itself and its updates.

    >>> import tapegrad as tf
    >>> tf.tensor_scatter_nd_max([1., 5.], [[0], [1]], [3., 3.]).numpy().tolist()
    [3.0, 5.0]
    """
    return _scatter_extreme("TensorScatterMax", TENSOR_SCATTER_MAX, "maximum", tensor, indices,
                            updates)


def tensor_scatter_nd_min(tensor, indices, updates, name=None):
    """A copy of ``tensor`` with each entry at ``indices`` the minimum of itself and its updates.

    >>> import tapegrad as tf
    >>> tf.tensor_scatter_nd_min([1., 5.], [[0], [1]], [3., 3.]).numpy().tolist()
    [1.0, 3.0]
    """
    return _scatter_extreme("TensorScatterMin", TENSOR_SCATTER_MIN, "minimum", tensor, indices,
                            updates)


# -- strided_slice with TensorFlow's masks -------------------------------------------------------
def _bit(mask, i):
    return bool((int(mask) >> i) & 1)


def strided_slice(input_, begin, end, strides=None, begin_mask=0, end_mask=0, ellipsis_mask=0,
                  new_axis_mask=0, shrink_axis_mask=0, var=None, name=None):
    """``input_[begin:end:strides]`` per axis, with TensorFlow's bit masks: bit ``i`` of
    ``begin_mask``/``end_mask`` ignores ``begin[i]``/``end[i]``, of ``ellipsis_mask`` makes spec
    ``i`` an ellipsis, of ``new_axis_mask`` a new axis, of ``shrink_axis_mask`` a single index.

    >>> import tapegrad as tf
    >>> tf.strided_slice([[1, 2, 3], [4, 5, 6]], [0, 0], [2, 3], [1, 2]).numpy().tolist()
    [[1, 3], [4, 6]]
    """
    x = convert.tensor(input_)
    b = _ints(begin, "StridedSlice", "begin").tolist()
    e = _ints(end, "StridedSlice", "end").tolist()
    s = [1] * len(b) if strides is None else _ints(strides, "StridedSlice", "strides").tolist()
    if not len(b) == len(e) == len(s):
        raise InvalidArgumentError(f"Expected begin, end, and strides to be 1D equal size "
                                   f"tensors, but got shapes [{len(b)}], [{len(e)}], and "
                                   f"[{len(s)}] instead. [Op:StridedSlice]")
    if 0 in s:
        raise InvalidArgumentError("strides[" + str(s.index(0)) + "] must be non-zero "
                                   "[Op:StridedSlice]")
    if bin(int(ellipsis_mask)).count("1") > 1:
        raise InvalidArgumentError("Multiple ellipses in slice spec not allowed [Op:StridedSlice]")
    spec = []
    for i in range(len(b)):
        if _bit(ellipsis_mask, i):
            spec.append(Ellipsis)
        elif _bit(new_axis_mask, i):
            spec.append(None)
        elif _bit(shrink_axis_mask, i):
            spec.append(b[i])
        else:
            spec.append(slice(None if _bit(begin_mask, i) else b[i],
                              None if _bit(end_mask, i) else e[i], s[i]))
    return getitem(x, tuple(spec))


# -- histograms ---------------------------------------------------------------------------------
def histogram_fixed_width_bins(values, value_range, nbins=100, dtype=dtypes.int32, name=None):
    """The bin of each value among ``nbins`` equal bins over ``value_range`` (values outside go
    to the first or last bin).

    >>> import tapegrad as tf
    >>> tf.histogram_fixed_width_bins([-1., 0.5, 2., 9.], [0., 4.], nbins=4).numpy().tolist()
    [0, 0, 2, 3]
    """
    v, r = convert.same_dtype([values, value_range], "HistogramFixedWidth")
    n = checks.count("HistogramFixedWidth", nbins, "nbins", minimum=None)
    if n <= 0:
        raise InvalidArgumentError(f"nbins should be a positive number, but got '{n}' "
                                   f"[Op:HistogramFixedWidth]")
    lo, hi = (float(e) for e in r._value.reshape(-1)[:2])
    if not lo < hi:
        raise InvalidArgumentError(f"value_range should satisfy value_range[0] < value_range[1], "
                                   f"but got '[{lo}, {hi}]' [Op:HistogramFixedWidth]")
    # in the values' float type (float64 for integers), in TensorFlow's order of operations
    ft = v._value.dtype if v._value.dtype.kind == "f" else xp.dtype(xp.float64)
    low, high = r._value.reshape(-1)[:2].astype(ft)
    scaled = ft.type(n) * ((v._value.astype(ft) - low) / (high - low))
    bins = xp.clip(xp.floor(scaled), 0, n - 1)
    return wrap(bins.astype(dtypes.as_dtype(dtype)._np))


def histogram_fixed_width(values, value_range, nbins=100, dtype=dtypes.int32, name=None):
    """How many values fall in each of ``nbins`` equal bins over ``value_range`` (values outside
    count in the first or last bin).

    >>> import tapegrad as tf
    >>> tf.histogram_fixed_width([-1., 0.5, 2., 9.], [0., 4.], nbins=4).numpy().tolist()
    [2, 0, 1, 1]
    """
    bins = histogram_fixed_width_bins(values, value_range, nbins, dtypes.int64)._value
    n = int(nbins)
    counts = xp.bincount(bins.reshape(-1).astype(xp.intp), minlength=n)   # intp: see repeat
    return wrap(counts.astype(dtypes.as_dtype(dtype)._np))


# -- small utilities --------------------------------------------------------------------------
def unravel_index(indices, dims, name=None):
    """The coordinates of flat ``indices`` in an array of shape ``dims``, one row per axis.

    >>> import tapegrad as tf
    >>> tf.unravel_index([1, 5], [2, 3]).numpy().tolist()
    [[0, 1], [1, 2]]
    """
    i = _indices(indices, "UnravelIndex")
    d = _ints(dims, "UnravelIndex", "dims")
    if i._value.dtype != convert.tensor(dims)._value.dtype:
        raise checks.invalid("UnravelIndex", "indices and dims must have the same dtype",
                             TypeError)
    total = int(xp.prod(d))
    bad = (i._value < 0) | (i._value >= total)
    if bad.any():
        raise InvalidArgumentError("index is out of bound as with dims [Op:UnravelIndex]")
    coords = xp.stack(xp.unravel_index(i._value.reshape(-1), tuple(d.tolist())))
    return wrap(coords.reshape((len(d),) + i._value.shape).astype(i._value.dtype))


def tuple_(tensors, control_inputs=None, name=None):
    """``tf.tuple``: the tensors, each passed through ``identity`` (everything has already run).

    >>> import tapegrad as tf
    >>> [int(t) for t in tf.tuple([tf.constant(1), tf.constant(2)])]
    [1, 2]
    """
    return [None if t is None else identity(t) for t in tensors]


GUARANTEE_CONST = primitive("GuaranteeConst", lambda x: x.copy(),
                            dtypes=ANY)   # no gradient, as TF's
exempt(GUARANTEE_CONST, **NO_GRADIENT)
defshape(GUARANTEE_CONST, shape_rules.same)


def guarantee_const(input, name=None):  # noqa: A002
    """``input`` promised constant. As in TensorFlow a gradient through it is a ``LookupError``."""
    return bind(GUARANTEE_CONST, (convert.tensor(input),), {})


def parallel_stack_values(values):
    """What ``tf.parallel_stack`` gives inside a ``tf.function``: ``tf.stack(values)``."""
    return stack(values)


# -- edit distance between sparse sequences ---------------------------------------------------
def _sequences(sp, batch_shape):
    """{batch index tuple: list of values in order} of a SparseTensor whose last axis runs
    along each sequence."""
    idx = sp.indices._value
    vals = sp.values._value
    rows = {}
    order = xp.lexsort(idx.T[::-1]) if idx.size else xp.arange(0)
    for i in order.tolist():
        key = tuple(int(k) for k in idx[i, :-1])
        rows.setdefault(key, []).append(vals[i].item() if hasattr(vals[i], "item") else vals[i])
    return rows


def _levenshtein(a, b):
    prev = list(range(len(b) + 1))
    for i, x in enumerate(a, 1):
        cur = [i] + [0] * len(b)
        for j, y in enumerate(b, 1):
            cur[j] = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (x != y))
        prev = cur
    return prev[-1]


def edit_distance(hypothesis, truth, normalize=True, name="edit_distance"):
    """The Levenshtein distance between the sequences of two ``SparseTensor``s (the last axis
    runs along each sequence), divided by the truth's length when ``normalize``.

    >>> import tapegrad as tf
    >>> h = tf.SparseTensor([[0, 0], [0, 1]], ["a", "b"], [1, 2])
    >>> t = tf.SparseTensor([[0, 0]], ["a"], [1, 1])
    >>> tf.edit_distance(h, t, normalize=False).numpy().tolist()
    [1.0]
    """
    if not isinstance(hypothesis, SparseTensor) or not isinstance(truth, SparseTensor):
        raise TypeError("Hypothesis and truth must be SparseTensors.")
    hk, tk = hypothesis.values._value.dtype, truth.values._value.dtype
    if (hk.kind in "OSU") != (tk.kind in "OSU") or (hk.kind not in "OSU" and hk != tk):
        raise InvalidArgumentError(f"cannot compute EditDistance as the hypothesis values are "
                                   f"{hypothesis.values.dtype.name} and the truth values are "
                                   f"{truth.values.dtype.name} [Op:EditDistance]")
    hs = hypothesis.dense_shape._value.tolist()
    ts = truth.dense_shape._value.tolist()
    if len(hs) != len(ts) or len(hs) < 2:
        raise InvalidArgumentError(f"hypothesis and truth must have the same rank (at least 2), "
                                   f"got {len(hs)} and {len(ts)} [Op:EditDistance]")
    shape = tuple(max(a, b) for a, b in zip(hs[:-1], ts[:-1]))
    hyp, tru = _sequences(hypothesis, shape), _sequences(truth, shape)
    out = xp.zeros(shape, xp.float32)
    with xp.errstate(divide="ignore", invalid="ignore"):
        for key in xp.ndindex(*shape):
            a, b = hyp.get(key, []), tru.get(key, [])
            d = xp.float32(_levenshtein(a, b))
            # two empty sequences: 0 (not 0/0); an empty truth otherwise: inf, as TensorFlow
            out[key] = d / xp.float32(len(b)) if normalize and d else d
    return wrap(out)


# -- batched rules (batching.py): every row of a jacobian in one pass --------------------------
rows_last(TENSOR_SCATTER_MAX, TENSOR_SCATTER_MIN, data=(0, 2))   # (tensor, indices, updates)
rows_last(DYNAMIC_STITCH, data=())   # each data entry gathers the gradient at its indices
