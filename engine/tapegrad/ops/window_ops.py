"""Kernel windows in any number of spatial dimensions, the ground of N-d convolution and pooling.

``GatherWindows`` copies every kernel window of a channels-last input ``(N, *spatial, C)`` into
one array ``(N, *out, *ksize, C)`` (im2col generalised to 1-, 2- and 3-D); ``ScatterWindows``
adds such windows back into an input (col2im). Each is linear and the transpose of the other,
so each one's rule is the other. The copy loops over kernel taps, never over pixels.

``window_geometry`` computes output sizes and paddings with TensorFlow's rules for ``"SAME"``,
``"VALID"`` and explicit padding lists.
"""
import itertools
import math as _math

from ..backend import xp
from ..errors import InvalidArgumentError, UnimplementedError
from ..recording import bind
from ..table import deflinear, primitive
from ..checks.dtype_rules import INTERNAL
from .. import shape_rules
from ..table import defshape
from ..batching import folded


def spatial_arg(value, rank, name, op, allow_short=True):
    """strides/dilations/ksize as ``rank`` ints from an int, a list of 1 or ``rank`` ints, or
    TensorFlow's long form of ``rank + 2`` ints whose batch and channel entries are 1."""
    if isinstance(value, int) or (hasattr(value, "__index__") and not hasattr(value, "__len__")):
        return (int(value),) * rank
    v = [int(a) for a in value]
    if len(v) == 1 and allow_short:
        return tuple(v) * rank
    if len(v) == rank and allow_short:
        return tuple(v)
    if len(v) == rank + 2:
        if v[0] != 1 or v[-1] != 1:
            raise InvalidArgumentError(f"Current implementation does not yet support {name} in "
                                       f"the batch and depth dimensions. [Op:{op}]")
        return tuple(v[1:-1])
    raise ValueError(f"{op}: '{name}' must be an int or a list of 1, {rank} or {rank + 2} ints, "
                     f"got {value!r}")


def explicit_pads(padding, rank, op):
    """Explicit padding ``[[0, 0], [b, a], ..., [0, 0]]`` (``rank + 2`` pairs) as ``rank`` pairs."""
    pairs = [tuple(int(a) for a in p) for p in padding]
    if len(pairs) != rank + 2 or any(len(p) != 2 for p in pairs):
        raise ValueError(f"{op}: explicit padding must have {rank + 2} [before, after] pairs, "
                         f"got {padding!r}")
    if pairs[0] != (0, 0) or pairs[-1] != (0, 0):
        raise ValueError(f"{op}: explicit padding in the batch and channel dimensions must be 0, "
                         f"got {padding!r}")
    if any(a < 0 for p in pairs for a in p):
        raise ValueError(f"{op}: explicit padding must be non-negative, got {padding!r}")
    return tuple(pairs[1:-1])


def window_geometry(in_sizes, ksize, strides, dilations, padding, op, explicit=True):
    """Output sizes and ``(before, after)`` padding per spatial axis, as TensorFlow computes
    them. ``padding`` is ``"SAME"``, ``"VALID"`` or (where ``explicit``) a list of pairs."""
    rank = len(in_sizes)
    if isinstance(padding, str):
        mode = padding.upper()
        if mode not in ("SAME", "VALID"):
            raise ValueError(f"{op}: 'padding' must be 'SAME', 'VALID' or a list of pairs, got "
                             f"{padding!r}")
        given = None
    elif explicit:
        mode, given = "EXPLICIT", explicit_pads(padding, rank, op)
    else:
        raise TypeError(f"Expected string for argument 'padding' not {padding!r}.")
    out, pads = [], []
    for axis, (n, k, s, d) in enumerate(zip(in_sizes, ksize, strides, dilations)):
        if s < 1 or d < 1 or k < 1:
            raise InvalidArgumentError(f"{op}: window sizes, strides and dilations must be "
                                       f"positive, got ksize {list(ksize)}, strides "
                                       f"{list(strides)}, dilations {list(dilations)} [Op:{op}]")
        eff = (k - 1) * d + 1
        if mode == "VALID":
            p = (0, 0)
        elif mode == "SAME":
            total = max((_math.ceil(n / s) - 1) * s + eff - n, 0)
            p = (total // 2, total - total // 2)
        else:
            p = given[axis]
        o = (n + p[0] + p[1] - eff) // s + 1 if n + p[0] + p[1] >= eff else 0
        if mode == "SAME":
            o = _math.ceil(n / s)
        if o <= 0:
            raise InvalidArgumentError(f"Computed output size would be negative: {o - 1} [input: "
                                       f"{n}, effective filter size: {eff}, stride: {s}] [Op:{op}]")
        out.append(o)
        pads.append(p)
    return tuple(out), tuple(pads)


def check_channels_last(data_format, allowed, op, error=UnimplementedError):
    """TensorFlow's CPU kernels take channels-last data only; others get the kernel's error."""
    if data_format is None or data_format in allowed:
        return
    words = {"DepthwiseConv2dNative": "Depthwise convolution on CPU is only supported for "
                                      "NHWC format. "}.get(op, "")   # TensorFlow's, where known
    raise error(f"{op}: {words}data_format={data_format!r} is not supported on CPU "
                f"(TensorFlow's CPU kernel accepts only {allowed[0]})")


# -- the window primitives ------------------------------------------------------------------------
def _taps(ksize, strides, dilations, out):
    """For each kernel tap, its index and the strided slices of the padded input it reads."""
    for tap in itertools.product(*(range(k) for k in ksize)):
        yield tap, tuple(slice(t * d, t * d + (o - 1) * s + 1, s)
                         for t, d, s, o in zip(tap, dilations, strides, out))


def _gather_impl(x, ksize, strides, dilations, pads, out, fill=0):
    padded = xp.pad(x, ((0, 0),) + tuple(pads) + ((0, 0),), constant_values=fill)
    cols = xp.empty((x.shape[0],) + tuple(out) + tuple(ksize) + (x.shape[-1],), x.dtype)
    rank = len(ksize)
    for tap, where in _taps(ksize, strides, dilations, out):
        cols[(slice(None),) * (rank + 1) + tap] = padded[(slice(None),) + where]
    return cols


def _scatter_impl(cols, ksize, strides, dilations, pads, out, in_sizes, fill=0):
    rank = len(ksize)
    padded_shape = tuple(n + p[0] + p[1] for n, p in zip(in_sizes, pads))
    padded = xp.zeros((cols.shape[0],) + padded_shape + (cols.shape[-1],), cols.dtype)
    for tap, where in _taps(ksize, strides, dilations, out):
        padded[(slice(None),) + where] += cols[(slice(None),) * (rank + 1) + tap]
    inner = tuple(slice(p[0], p[0] + n) for n, p in zip(in_sizes, pads))
    return xp.ascontiguousarray(padded[(slice(None),) + inner])


GATHER_WINDOWS = primitive("GatherWindows", _gather_impl, exempt=INTERNAL)
defshape(GATHER_WINDOWS, shape_rules.windows)
SCATTER_WINDOWS = primitive("ScatterWindows", _scatter_impl, exempt=INTERNAL)
defshape(SCATTER_WINDOWS, shape_rules.image_sizes("in_sizes"))
deflinear(GATHER_WINDOWS,
          lambda g, ans, x, **a: bind(SCATTER_WINDOWS, (g,), dict(a, in_sizes=x._value.shape[1:-1])))
deflinear(SCATTER_WINDOWS,
          lambda g, ans, cols, in_sizes, **a: bind(GATHER_WINDOWS, (g,), a))


def gather_windows(x, ksize, strides, dilations, pads, out):
    """``(N, *spatial, C)`` -> ``(N, *out, *ksize, C)``: every kernel window, zero-padded."""
    return bind(GATHER_WINDOWS, (x,), {"ksize": tuple(ksize), "strides": tuple(strides),
                                       "dilations": tuple(dilations), "pads": tuple(pads),
                                       "out": tuple(out)})


def scatter_windows(cols, in_sizes, ksize, strides, dilations, pads, out):
    """The transpose of ``gather_windows``: windows summed back into ``(N, *in_sizes, C)``."""
    return bind(SCATTER_WINDOWS, (cols,), {"ksize": tuple(ksize), "strides": tuple(strides),
                                           "dilations": tuple(dilations), "pads": tuple(pads),
                                           "out": tuple(out), "in_sizes": tuple(in_sizes)})


def gather_windows_array(x, ksize, strides, dilations, pads, out, fill=0):
    """The same gather on a plain array, with ``fill`` in the padding (for argmax searches)."""
    return _gather_impl(x, ksize, strides, dilations, pads, out, fill=fill)


# -- batched rules (batching.py): every row of a jacobian in one pass --------------------------
folded(GATHER_WINDOWS, SCATTER_WINDOWS)   # the windows of N-d ops
