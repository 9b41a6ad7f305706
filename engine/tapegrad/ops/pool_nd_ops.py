"""Pooling in 1, 2 and 3 dimensions and the window-maximum ops built like it:
``tf.nn.max_pool3d``, ``avg_pool3d``, ``max_pool``/``avg_pool`` (by rank), ``pool``,
``max_pool_with_argmax``, ``dilation2d``/``erosion2d`` and ``fractional_max_pool``/
``fractional_avg_pool``.

Windows come from ``window_ops``. A window maximum is a gather at the flat index of the window's
first maximum (the gradient goes there only: TensorFlow's MaxPool, MaxPoolWithArgmax,
Dilation2D and FractionalMaxPool convention), or, for ``max_pool3d``, a mask of every entry equal
to the maximum (TensorFlow's MaxPool3D gives each tied maximum the whole gradient).
"""
import collections
import itertools
import math as _math

from .. import convert
from ..checks import check_dtype
from ..checks.dtype_rules import FLOAT, REAL, accepting, composite
from ..backend import xp
from ..errors import InvalidArgumentError
from ..ground import add, multiply, reduce_sum, reshape
from ..tensor import wrap
from .array_ops import transpose
from .arithmetic_ops import negative, realdiv, stop_gradient, subtract
from .conv1d_ops import avg_pool1d, max_pool1d
from .conv_nd_ops import _attr_missing_in_gradient
from .conv_ops import avg_pool2d, max_pool2d
from .indexing_ops import gather
from .space_ops import with_space_to_batch
from .window_ops import (check_channels_last, gather_windows, gather_windows_array, spatial_arg,
                         window_geometry)


def _as_array_text(values):
    """A list printed as TensorFlow's message prints a NumPy array: ``[2 2]``."""
    return "[" + " ".join(str(v) for v in values) + "]"


def _prod(values):
    p = 1
    for v in values:
        p *= int(v)
    return p


# -- window maxima --------------------------------------------------------------------------------
def first_max(v, valid):
    """``v`` of shape ``(P, K, C)``: its maximum over K, the gradient going to the first maximum
    of each window only. ``valid`` (an array broadcastable to ``v``) marks real entries."""
    p, k, c = v._value.shape
    arr = xp.where(valid, v._value, -xp.inf)
    first = xp.argmax(arr, axis=1)                                       # (P, C)
    flat = (xp.arange(p)[:, None] * k + first) * c + xp.arange(c)[None, :]
    picked = gather(reshape(v, (1, -1)), wrap(flat.reshape(-1).astype(xp.int64)), axis=1)
    return reshape(picked, (p, c)), first


def all_max(v, valid):
    """The maximum over K of ``v (P, K, C)``; every entry equal to it gets the whole gradient."""
    arr = xp.where(valid, v._value, -xp.inf)
    top = arr.max(axis=1)
    mask = wrap(((arr == top[:, None, :]) & valid).astype(v._value.dtype))
    # forward: top + 0 exactly; backward: the mask.
    return add(stop_gradient(wrap(top)), reduce_sum(multiply(mask, subtract(v, stop_gradient(v))),
                                                     axis=1))


def _per_batch(valid_windows, n, k):
    """The windows of a batch-1 mask of real entries, as ``(n * positions, k, 1)`` booleans."""
    one = valid_windows.reshape(1, -1, k, 1) > 0
    return xp.broadcast_to(one, (n,) + one.shape[1:]).reshape(-1, k, 1)


def _pool_windows(x, ksize, strides, padding, op, explicit=False):
    rank = len(ksize)
    in_sizes = tuple(x._value.shape[1:1 + rank])
    out, pads = window_geometry(in_sizes, ksize, strides, (1,) * rank, padding, op, explicit)
    cols = gather_windows(x, ksize, strides, (1,) * rank, pads, out)
    ones = xp.ones((1,) + in_sizes + (1,), x._value.dtype)
    valid = gather_windows_array(ones, ksize, strides, (1,) * rank, pads, out)
    k, c = _prod(ksize), x._value.shape[-1]
    lead = (x._value.shape[0],) + out
    return reshape(cols, (-1, k, c)), _per_batch(valid, x._value.shape[0], k), lead


# -- 3-D pools and the by-rank dispatch ----------------------------------------------------------
def _check_rank(x, rank, op):
    if x._value.ndim != rank + 2:
        raise ValueError(f"{op}: input must be {rank + 2}-D, got shape {list(x._value.shape)}")


MAX_POOL3D = composite("MaxPool3D", accepting("float16", "float32").no_kernel("float16"))


def max_pool3d(input, ksize, strides, padding, data_format="NDHWC", name=None):  # noqa: A002
    """Maximum over each ``[d, h, w]`` window of ``[batch, depth, height, width, channels]``;
    as TensorFlow's MaxPool3D, every tied maximum receives the gradient.

    >>> import tapegrad as tf
    >>> tf.nn.max_pool3d(tf.reshape(tf.range(8.0), [1, 2, 2, 2, 1]), 2, 2, "VALID").numpy().ravel().tolist()
    [7.0]
    """
    check_channels_last(data_format, ("NDHWC",), "MaxPool3D", InvalidArgumentError)
    x = convert.tensor(input)
    check_dtype(MAX_POOL3D, x)
    return max_pool_3d_windows(x, ksize, strides, padding)


def max_pool_3d_windows(x, ksize, strides, padding):
    """``max_pool3d`` without TensorFlow's dtype rule (float32 only on its CPU), so that
    float64 gradient checks can run it."""
    _check_rank(x, 3, "MaxPool3D")
    v, valid, lead = _pool_windows(x, spatial_arg(ksize, 3, "ksize", "MaxPool3D"),
                                   spatial_arg(strides, 3, "strides", "MaxPool3D"), padding,
                                   "MaxPool3D")
    return reshape(all_max(v, valid), lead + (x._value.shape[-1],))


AVG_POOL3D = composite("AvgPool3D", FLOAT.no_kernel("float16", "float64"))


def avg_pool3d(input, ksize, strides, padding, data_format="NDHWC", name=None):  # noqa: A002
    """Mean over each ``[d, h, w]`` window; with 'SAME' padding only real entries count."""
    check_channels_last(data_format, ("NDHWC",), "AvgPool3D", InvalidArgumentError)
    x = convert.tensor(input)
    check_dtype(AVG_POOL3D, x)
    return avg_pool_3d_windows(x, ksize, strides, padding)


def avg_pool_3d_windows(x, ksize, strides, padding):
    """``avg_pool3d`` without TensorFlow's dtype rule (float32 only on its CPU)."""
    _check_rank(x, 3, "AvgPool3D")
    v, valid, lead = _pool_windows(x, spatial_arg(ksize, 3, "ksize", "AvgPool3D"),
                                   spatial_arg(strides, 3, "strides", "AvgPool3D"), padding,
                                   "AvgPool3D")
    count = valid.sum(axis=1).astype(x._value.dtype)                   # (P, 1)
    return reshape(realdiv(reduce_sum(v, axis=1), wrap(count)), lead + (x._value.shape[-1],))


def _by_rank(x, fns, ksize, strides, padding, data_format):
    rank = x._value.ndim
    if rank not in (3, 4, 5):
        raise ValueError(f"`input.shape.rank` must be 3, 4 or 5. Received: "
                         f"input.shape={tuple(x._value.shape)} of rank {rank}.")
    fmt = data_format if data_format is not None else {3: "NWC", 4: "NHWC", 5: "NDHWC"}[rank]
    y = fns[rank](x, ksize, strides, padding, data_format=fmt)
    if rank == 5 and data_format is None:
        y = _attr_missing_in_gradient(y)
    return y


def max_pool(input, ksize, strides, padding, data_format=None, name=None):  # noqa: A002
    """``max_pool1d``, ``max_pool2d`` or ``max_pool3d`` by the rank of ``input`` (3, 4 or 5)."""
    x = convert.tensor(input)
    return _by_rank(x, {3: max_pool1d, 4: max_pool2d, 5: max_pool3d}, ksize, strides, padding,
                    data_format)


def avg_pool(input, ksize, strides, padding, data_format=None, name=None):  # noqa: A002
    """``avg_pool1d``, ``avg_pool2d`` or ``avg_pool3d`` by the rank of ``input`` (3, 4 or 5)."""
    x = convert.tensor(input)
    return _by_rank(x, {3: avg_pool1d, 4: avg_pool2d, 5: avg_pool3d}, ksize, strides, padding,
                    data_format)


def pool(input, window_shape, pooling_type, strides=None, padding="VALID",  # noqa: A002
         data_format=None, dilations=None, name=None):
    """N-d max or average pooling (``pooling_type`` 'MAX' or 'AVG'), with dilated windows done
    by space-to-batch as in TensorFlow (dilations need 'VALID' padding and unit strides)."""
    window = [int(k) for k in window_shape]
    n = len(window)
    if pooling_type not in ("MAX", "AVG"):
        raise ValueError(f"{n}-D {pooling_type} pooling is not supported.")
    if n not in (1, 2, 3):
        raise ValueError(f"window_shape must have 1, 2 or 3 entries, got {window}")
    st = [int(s) for s in (strides if strides is not None else [1] * n)]
    dil = [int(d) for d in (dilations if dilations is not None else [1] * n)]
    if len(st) != n or len(dil) != n:
        raise ValueError(f"strides and dilations must have {n} entries like window_shape")
    if any(d > 1 for d in dil):
        if padding == "SAME":
            raise ValueError(f"pooling with 'SAME' padding is not implemented for "
                             f"`dilation_rate` > 1. Received: padding={padding} and "
                             f"dilation_rate={_as_array_text(dil)}")
        if any(s > 1 for s in st):
            raise ValueError(f"`strides > 1` not supported in conjunction with `dilation_rate > "
                             f"1`. Received: strides={_as_array_text(st)} and "
                             f"dilation_rate={_as_array_text(dil)}")
    x = convert.tensor(input)
    if x._value.ndim != n + 2:
        raise ValueError(f"Input tensor must be of rank {n + 2} but was {x._value.ndim}.")
    fn = max_pool if pooling_type == "MAX" else avg_pool
    fmt = {1: "NWC", 2: "NHWC", 3: "NDHWC"}[n]
    check_channels_last(data_format, (fmt,), f"{pooling_type}Pool", InvalidArgumentError)

    def op(converted, num_spatial_dims, converted_padding):
        return fn(converted, window, st, converted_padding, data_format=fmt)

    return with_space_to_batch(x, dil, padding, op, filter_shape=window)


# -- max_pool_with_argmax -------------------------------------------------------------------------
MAX_POOL_WITH_ARGMAX = composite("MaxPoolWithArgmax", REAL)


def max_pool_with_argmax(input, ksize, strides, padding, data_format="NHWC",  # noqa: A002
                         output_dtype="int64", include_batch_in_index=False, name=None):
    """``max_pool2d`` and, for each output, the flat index of its (first) maximum:
    ``(y * width + x) * channels + c`` (plus ``b * height * width * channels`` when
    ``include_batch_in_index``). Returns ``(output, argmax)``."""
    if data_format != "NHWC":
        raise ValueError(f"`data_format` values other  than 'NHWC' are not supported. Received: "
                         f"data_format={data_format}")
    x = convert.tensor(input)
    check_dtype(MAX_POOL_WITH_ARGMAX, x)
    _check_rank(x, 2, "MaxPoolWithArgmax")
    ks = spatial_arg(ksize, 2, "ksize", "MaxPoolWithArgmax")
    st = spatial_arg(strides, 2, "strides", "MaxPoolWithArgmax")
    out, pads = window_geometry(tuple(x._value.shape[1:3]), ks, st, (1, 1), padding,
                                "MaxPoolWithArgmax", explicit=False)
    n, h, w, c = x._value.shape
    v = reshape(gather_windows(x, ks, st, (1, 1), pads, out), (-1, ks[0] * ks[1], c))
    ones = xp.ones((1, h, w, 1), x._value.dtype)
    valid = _per_batch(gather_windows_array(ones, ks, st, (1, 1), pads, out), n, ks[0] * ks[1])
    y, first = first_max(v, valid)
    # the window position of each maximum, back to coordinates in the input
    oy, ox = xp.meshgrid(xp.arange(out[0]), xp.arange(out[1]), indexing="ij")
    oy = xp.tile(oy.reshape(-1), n)[:, None]
    ox = xp.tile(ox.reshape(-1), n)[:, None]
    row = oy * st[0] - pads[0][0] + first // ks[1]
    col = ox * st[1] - pads[1][0] + first % ks[1]
    index = (row * w + col) * c + xp.arange(c)[None, :]
    if include_batch_in_index:
        index = index + xp.repeat(xp.arange(n), out[0] * out[1])[:, None] * (h * w * c)
    dtype = getattr(output_dtype, "name", output_dtype)
    if dtype not in ("int32", "int64"):
        raise TypeError(f"output_dtype must be int32 or int64, got {output_dtype!r}")
    argmax = wrap(index.reshape((n,) + out + (c,)).astype(dtype))
    return MaxPoolWithArgmax(reshape(y, (n,) + out + (c,)), argmax)


# The named tuples TensorFlow returns.
MaxPoolWithArgmax = collections.namedtuple("MaxPoolWithArgmax", ["output", "argmax"])
FractionalMaxPool = collections.namedtuple(
    "FractionalMaxPool", ["output", "row_pooling_sequence", "col_pooling_sequence"])
FractionalAvgPool = collections.namedtuple(
    "FractionalAvgPool", ["output", "row_pooling_sequence", "col_pooling_sequence"])


# -- morphological dilation and erosion -----------------------------------------------------------
DILATION2D = composite("Dilation2D", REAL)


def dilation2d(input, filters, strides, padding, data_format, dilations, name=None):  # noqa: A002
    """Grayscale dilation: ``max`` over each window of ``input + filters`` (``filters`` is
    ``[h, w, channels]``); the gradient goes to the first maximum of each window."""
    if data_format != "NHWC":
        raise ValueError(f"tf.nn.dilation2d only supports NHWC data_format, got {data_format!r}")
    x, f = convert.binary(input, filters, "Dilation2D")
    check_dtype(DILATION2D, x)
    _check_rank(x, 2, "Dilation2D")
    if f._value.ndim != 3 or f._value.shape[2] != x._value.shape[3]:
        raise InvalidArgumentError(f"filter must be 3-D [height, width, {x._value.shape[3]}], got "
                                   f"shape {list(f._value.shape)} [Op:Dilation2D]")
    ks = tuple(f._value.shape[:2])
    st = spatial_arg(strides, 2, "strides", "Dilation2D", allow_short=False)
    rates = spatial_arg(dilations, 2, "rates", "Dilation2D", allow_short=False)
    n, h, w, c = x._value.shape
    out, pads = window_geometry((h, w), ks, st, rates, padding, "Dilation2D", explicit=False)
    cols = gather_windows(x, ks, st, rates, pads, out)                     # (N, OH, OW, kh, kw, C)
    v = reshape(add(cols, f), (-1, ks[0] * ks[1], c))
    ones = xp.ones((1, h, w, 1), x._value.dtype)
    valid = _per_batch(gather_windows_array(ones, ks, st, rates, pads, out), n, ks[0] * ks[1])
    y, _ = first_max(v, valid)
    return reshape(y, (n,) + out + (c,))


def erosion2d(value, filters, strides, padding, data_format, dilations, name=None):
    """Grayscale erosion: ``min`` over each window of ``value - filters`` (mirrored filter),
    i.e. ``-dilation2d(-value, reversed filters)``."""
    f = convert.tensor(filters)
    if f._value.ndim != 3:
        raise InvalidArgumentError(f"filter must be 3-D, got shape {list(f._value.shape)}")
    from_reversed = reshape(gather(reshape(f, (-1, f._value.shape[2])),
                                   wrap(xp.arange(f._value.shape[0] * f._value.shape[1])[::-1]
                                        .astype(xp.int64)), axis=0), f._value.shape)
    return negative(dilation2d(negative(value), from_reversed, strides, padding, data_format,
                               dilations))


# -- fractional pooling ---------------------------------------------------------------------------
def _sequence(n, out, pseudo_random, rng):
    """Cumulative pooling boundaries (``out + 1`` of them, from 0 to ``n``)."""
    if n % out == 0:
        diff = [n // out] * out
    elif pseudo_random:
        alpha = n / out
        k = n // out
        u_max = min((k + 2) / alpha - 1, (n + 1 - k) / alpha - (out - 1))
        u = rng.random() * u_max
        cum = [1] + [int(_math.ceil(alpha * (i + u))) for i in range(1, out)] + [n + 1]
        diff = [b - a for a, b in zip(cum, cum[1:])]
    else:
        diff = [n // out + (1 if i < n % out else 0) for i in range(out)]
        rng.shuffle(diff)
    return xp.asarray([0] + list(itertools.accumulate(diff)), dtype=xp.int64)


_FRACTIONAL_TYPES = accepting("float32", "float64", "int32", "int64")
FRACTIONAL_MAX_POOL = composite("FractionalMaxPool", _FRACTIONAL_TYPES)
FRACTIONAL_AVG_POOL = composite("FractionalAvgPool", _FRACTIONAL_TYPES)


def _fractional(value, pooling_ratio, pseudo_random, overlapping, seed, seed2, op, reduce):
    x = convert.tensor(value)
    check_dtype(FRACTIONAL_MAX_POOL if op == FRACTIONAL_MAX_POOL.name else FRACTIONAL_AVG_POOL, x)
    _check_rank(x, 2, op)
    ratio = [float(r) for r in pooling_ratio]
    if any(r < 1.0 for r in ratio):
        raise ValueError(f"`pooling_ratio` elements should be >= 1.0. Received: "
                         f"pooling_ratio={list(pooling_ratio)}")
    if len(ratio) != 4 or ratio[0] != 1.0 or ratio[3] != 1.0:
        raise InvalidArgumentError(f"pooling_ratio must be [1.0, r_rows, r_cols, 1.0] (no pooling "
                                   f"over batch and channels), got {list(pooling_ratio)} "
                                   f"[Op:{op}]")
    n, h, w, c = x._value.shape
    rng = xp.random.default_rng(None if not seed and not seed2 else [int(seed), int(seed2)])
    seqs, axes_idx, axes_ok = [], [], []
    for size, r in ((h, ratio[1]), (w, ratio[2])):
        o = int(size // r)
        if o <= 0:
            raise InvalidArgumentError(f"{op}: pooling_ratio {r} is too large for size {size}")
        seq = xp.asarray(_sequence(size, o, pseudo_random, rng))
        starts, ends = seq[:-1], seq[1:] + (1 if overlapping else 0)
        ends = xp.minimum(ends, size)
        width = int((ends - starts).max())
        idx = starts[:, None] + xp.arange(width)[None, :]
        ok = idx < ends[:, None]
        seqs.append(seq)
        axes_idx.append(xp.minimum(idx, size - 1).astype(xp.int64))
        axes_ok.append(ok)
    (ri, ci), (rok, cok) = axes_idx, axes_ok
    orow, wr = ri.shape
    ocol, wc = ci.shape
    v = gather(gather(x, wrap(ri.reshape(-1)), axis=1), wrap(ci.reshape(-1)), axis=2)
    v = reshape(v, (n, orow, wr, ocol, wc, c))
    v = reshape(transpose(v, (0, 1, 3, 2, 4, 5)), (-1, wr * wc, c))
    valid = (rok[:, None, :, None] & cok[None, :, None, :]).reshape(orow, ocol, wr * wc)
    valid = xp.broadcast_to(valid[None], (n, orow, ocol, wr * wc)).reshape(-1, wr * wc, 1)
    y = reduce(v, valid, x._value.dtype)
    out = reshape(y, (n, orow, ocol, c))
    return out, wrap(seqs[0]), wrap(seqs[1])


def fractional_max_pool(value, pooling_ratio, pseudo_random=False, overlapping=False, seed=0,
                        name=None):
    """Max pooling over a random grid shrinking rows and columns by ``pooling_ratio`` (floats
    >= 1). Returns ``(output, row_pooling_sequence, col_pooling_sequence)``; a nonzero ``seed``
    makes it repeatable (the sequences are not TensorFlow's random draws)."""
    return FractionalMaxPool(*_fractional(value, pooling_ratio, pseudo_random, overlapping, seed,
                                          0, "FractionalMaxPool",
                                          lambda v, ok, dt: first_max(v, ok)[0]))


def fractional_avg_pool(value, pooling_ratio, pseudo_random=False, overlapping=False, seed=0,
                        name=None):
    """Average pooling over a random grid (see ``fractional_max_pool``)."""
    def mean(v, ok, dtype):
        return realdiv(reduce_sum(multiply(v, wrap(ok.astype(dtype))), axis=1),
                       wrap(ok.sum(axis=1).astype(dtype)))
    return FractionalAvgPool(*_fractional(value, pooling_ratio, pseudo_random, overlapping, seed,
                                          0, "FractionalAvgPool", mean))
