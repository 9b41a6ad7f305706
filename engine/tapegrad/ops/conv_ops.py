"""Convolution and pooling on NHWC images.

``Im2Col`` gathers every kernel window of an image into one array (N, OH, OW, KH, KW, C) and
``Col2Im`` adds such windows back into an image; each is linear and the transpose of the other,
so their rules are each other. ``Conv2D`` is one primitive (a window gather followed by one
matrix product) whose rules are written with ``Im2Col``/``Col2Im`` and ``matmul``, so every order
of derivative is available. Max pooling routes the gradient to the first maximum of each window
(as TensorFlow's CPU kernel does) with ``MaxPoolGrad`` and its transpose ``MaxPoolGradGrad``,
at the positions the forward found.
"""
import threading
import weakref

from ..backend import xp
from ..checks import check_dtype
from ..errors import InvalidArgumentError, UnimplementedError
from ..kernels import dispatch as kernels
from ..recording import bind
from ..table import defjvp, deflinear, defvjp, primitive
from ..checks.dtype_rules import FLOAT, FLOAT_NAMES, INTERNAL, REAL, UNSIGNED_NAMES, accepting, composite
from .. import convert
from ..ground import reduce_sum
from ..tensor import wrap
from .arithmetic_ops import realdiv
from .matmul_ops import matmul
from .window_ops import check_channels_last, window_geometry
from .. import batching
from ..batching import folded, own_vjp
from ..ground import reshape_to
from .. import shape_rules
from ..table import defshape
from ..thread_state import anywhere


def _pair(value, name, op):
    """strides/dilations/ksize as (h, w) from an int, a pair, or TF's 4-list [1, h, w, 1]."""
    if isinstance(value, int):
        return (value, value)
    v = [int(a) for a in value]
    if len(v) == 1:
        return (v[0], v[0])
    if len(v) == 2:
        return (v[0], v[1])
    if len(v) == 4:
        if v[0] != 1 or v[3] != 1:
            raise NotImplementedError(f"{op}: '{name}' in the batch and depth dimensions must be "
                                      f"1, got {list(value)}")
        return (v[1], v[2])
    raise ValueError(f"{op}: '{name}' must be an int or a list of 1, 2 or 4 ints, got {value!r}")


def _geometry(in_hw, ksize, strides, dilations, padding, op):
    """Output size and (before, after) padding per spatial axis, as TensorFlow computes them
    ('SAME', 'VALID' or, except for AvgPool, an explicit list of pairs)."""
    return window_geometry(in_hw, ksize, strides, dilations, padding, op,
                           explicit=op != "AvgPool")


# -- what a forward keeps for its rules ---------------------------------------------------------
# While something records, MaxPool's forward keeps each window's winning position and Conv2D's
# its gathered windows, with its output (``_kept``: id of the output array -> weak references to
# it and to the input array, and what was kept); the rules hand that on to the op that would
# compute it again (``_given``): MaxPoolGrad and MaxPoolGradGrad scatter or gather without
# searching the windows, the filter gradient's Im2Col returns the forward's windows. Any other
# call computes.
_kept = {}
_given = threading.local()


def _keep(out, x, what):
    key = id(out)

    def forget(ref):
        if _kept.get(key, (None,))[0] is ref:
            del _kept[key]
    _kept[key] = (weakref.ref(out, forget), weakref.ref(x), what)


def _window_key(a):
    return (a["ksize"], a["strides"], a["dilations"], a["pads"], a["out_hw"])


def _handing_on(prim, inputs, ans, x, a, kind):
    """``bind(prim, inputs, a)``, telling it what the forward kept for ``ans`` (when ``ans`` and
    ``x`` are that forward's output and input: a batched rule passes other inputs)."""
    entry = _kept.get(id(ans._value))
    if entry is None or entry[0]() is not ans._value or entry[1]() is not x._value:
        return bind(prim, inputs, a)
    _given.kept = (kind, x._value, _window_key(a), entry[2])
    try:
        return bind(prim, inputs, a)
    finally:
        _given.kept = None


def _given_for(kind, x, a):
    """What the forward kept for ``x`` (its windows or its winners), when a rule hands it on to
    this call, else None."""
    given = getattr(_given, "kept", None)
    if given is not None and given[0] == kind and given[1] is x and given[2] == _window_key(a):
        return given[3]
    return None


# -- window gathering ---------------------------------------------------------------------------
# (NumPy's; an array library without it gathers window entry by window entry)
_sliding_windows = getattr(getattr(getattr(xp, "lib", None), "stride_tricks", None),
                           "sliding_window_view", None)


def _im2col_impl(x, ksize, strides, dilations, pads, out_hw, in_hw, fill=0):
    cols = kernels.im2col(x, ksize, strides, dilations, pads, out_hw, fill)
    if cols is not None:
        return cols
    return _im2col_numpy(x, ksize, strides, dilations, pads, out_hw, in_hw, fill)


def _im2col_given(x, **a):
    """Im2Col, or the windows Conv2D's forward gathered from ``x`` when its rule hands them on."""
    cols = _given_for("windows", x, a)
    return _im2col_impl(x, **a) if cols is None else cols


def _im2col_numpy(x, ksize, strides, dilations, pads, out_hw, in_hw, fill):
    padded = xp.pad(x, ((0, 0), pads[0], pads[1], (0, 0)), constant_values=fill) \
        if any(pads[0]) or any(pads[1]) else x
    (kh, kw), (sh, sw), (dh, dw), (oh, ow) = ksize, strides, dilations, out_hw
    span = ((kh - 1) * dh + 1, (kw - 1) * dw + 1)
    if (x.shape[3] > 1 and _sliding_windows is not None and oh > 0 and ow > 0
            and padded.shape[1] >= span[0] and padded.shape[2] >= span[1]):
        # One copy of a strided view of every window (for one channel, whose entries are
        # single numbers, the window entry by window entry loop below is faster).
        windows = _sliding_windows(padded, span, axis=(1, 2))     # (n, h', w', c, kh', kw')
        windows = windows[:, :(oh - 1) * sh + 1:sh, :(ow - 1) * sw + 1:sw, :, ::dh, ::dw]
        return windows.transpose(0, 1, 2, 4, 5, 3).copy()
    cols = xp.empty((x.shape[0], oh, ow, kh, kw, x.shape[3]), x.dtype)
    for i in range(kh):
        for j in range(kw):
            cols[:, :, :, i, j, :] = padded[:, i * dh:i * dh + (oh - 1) * sh + 1:sh,
                                            j * dw:j * dw + (ow - 1) * sw + 1:sw, :]
    return cols


def _col2im_impl(cols, ksize, strides, dilations, pads, out_hw, in_hw):
    img = kernels.col2im(cols, ksize, strides, dilations, pads, out_hw, in_hw)
    if img is not None:
        return img
    (kh, kw), (sh, sw), (dh, dw), (oh, ow) = ksize, strides, dilations, out_hw
    h, w = in_hw
    n, c = cols.shape[0], cols.shape[5]
    padded = xp.zeros((n, h + sum(pads[0]), w + sum(pads[1]), c), cols.dtype)
    for i in range(kh):
        for j in range(kw):
            padded[:, i * dh:i * dh + (oh - 1) * sh + 1:sh,
                   j * dw:j * dw + (ow - 1) * sw + 1:sw, :] += cols[:, :, :, i, j, :]
    return xp.ascontiguousarray(padded[:, pads[0][0]:pads[0][0] + h, pads[1][0]:pads[1][0] + w, :])


IM2COL = primitive("Im2Col", _im2col_given, exempt=INTERNAL)
defshape(IM2COL, lambda x, ksize, out_hw, **a: shape_rules.windows(x, ksize, out_hw))
COL2IM = primitive("Col2Im", _col2im_impl, exempt=INTERNAL)
defshape(COL2IM, shape_rules.image_sizes("in_hw"))
deflinear(IM2COL, lambda g, ans, x, **a: bind(COL2IM, (g,), a))
deflinear(COL2IM, lambda g, ans, cols, **a: bind(IM2COL, (g,), a))


# -- Conv2D ---------------------------------------------------------------------------------------
# The windows times the filter: routed as MatMul's products are (its gradients' products are
# MatMul), so where this environment sends products of this size to the SIMD kernel (Pyodide),
# the forward goes there too; natively matmul has no kernel threshold and this is ``a @ b``.
_windows_times_filter = kernels.route_matmul(lambda a, b, transpose_a, transpose_b: a @ b)


def _conv_impl(x, w, ksize, strides, dilations, pads, out_hw, in_hw):
    cols = _im2col_impl(x, ksize, strides, dilations, pads, out_hw, in_hw)
    n = x.shape[0]
    k = ksize[0] * ksize[1] * x.shape[3]
    out = _windows_times_filter(cols.reshape(n * out_hw[0] * out_hw[1], k),
                                w.reshape(k, w.shape[3]), False, False)
    out = out.reshape(n, out_hw[0], out_hw[1], w.shape[3])
    if anywhere:
        _keep(out, x, cols)     # (for the filter's gradient)
    return out


CONV2D = primitive("Conv2D", _conv_impl,
                   dtypes=accepting(*FLOAT_NAMES, "int8", "int16", "int32", *UNSIGNED_NAMES))
defshape(CONV2D, shape_rules.convolution("out_hw"))


# (Any rows of g, beyond ans, stay in front: the matmuls once per row, a stack of the loop's
# products, then the window op over rows times examples; ``own_vjp`` below.)
def _conv_vjp_x(g, ans, x, w, **a):
    lead, (n, oh, ow, o) = g._value.shape[:-4], g._value.shape[-4:]
    kh, kw, c, _ = w._value.shape
    cols = matmul(reshape_to(g, lead + (n * oh * ow, o)), reshape_to(w, (kh * kw * c, o)),
                  transpose_b=True)
    rows = int(xp.prod(lead, dtype=int))
    out = bind(COL2IM, (reshape_to(cols, (rows * n, oh, ow, kh, kw, c)),), a)
    return reshape_to(out, lead + x._value.shape) if lead else out


def _conv_vjp_w(g, ans, x, w, **a):
    lead, (n, oh, ow, o) = g._value.shape[:-4], g._value.shape[-4:]
    k = int(w._value.size) // o
    cols = reshape_to(_handing_on(IM2COL, (x,), ans, x, a, "windows"), (n * oh * ow, k))
    return reshape_to(matmul(cols, reshape_to(g, lead + (n * oh * ow, o)), transpose_a=True),
                      lead + w._value.shape)


defvjp(CONV2D, _conv_vjp_x, _conv_vjp_w)
CONV2D.hands_on = True        # (its filter's gradient takes the forward's windows)
defjvp(CONV2D, lambda t, ans, x, w, **a: bind(CONV2D, (t, w), a),
       lambda t, ans, x, w, **a: bind(CONV2D, (x, t), a))


def _check_format(data_format, op):
    # TensorFlow's CPU kernels take NHWC only: Conv2D refuses others as unimplemented, the
    # pools as invalid arguments.
    check_channels_last(data_format, ("NHWC",), op,
                        UnimplementedError if op == "Conv2D" else InvalidArgumentError)


def conv2d(input, filters, strides, padding, data_format="NHWC", dilations=None,  # noqa: A002
           name=None):
    """2-D convolution (cross-correlation, as in TensorFlow) of NHWC images with HWIO filters.

    >>> import tapegrad as tf
    >>> x = tf.reshape(tf.range(9.0), (1, 3, 3, 1))
    >>> w = tf.ones((2, 2, 1, 1))
    >>> tf.nn.conv2d(x, w, strides=1, padding="VALID")[0, :, :, 0].numpy().tolist()
    [[8.0, 12.0], [20.0, 24.0]]
    """
    _check_format(data_format, "Conv2D")
    x, w = convert.binary(input, filters, "Conv2D")
    if x._value.ndim != 4:
        raise ValueError(f"Conv2D: input must be 4-D [batch, height, width, channels], got shape "
                         f"{x.shape}")
    if w._value.ndim != 4:
        raise ValueError(f"Conv2D: filters must be 4-D [height, width, in, out], got shape "
                         f"{w.shape}")
    if w._value.shape[2] != x._value.shape[3]:
        raise InvalidArgumentError(f"input depth must be evenly divisible by filter depth: "
                                   f"{x._value.shape[3]} vs {w._value.shape[2]} [Op:Conv2D]")
    ksize = tuple(w._value.shape[:2])
    st = _pair(strides, "strides", "Conv2D")
    dil = _pair(dilations if dilations is not None else 1, "dilations", "Conv2D")
    in_hw = tuple(x._value.shape[1:3])
    out_hw, pads = _geometry(in_hw, ksize, st, dil, padding, "Conv2D")
    return bind(CONV2D, (x, w), {"ksize": ksize, "strides": st, "dilations": dil, "pads": pads,
                                 "out_hw": out_hw, "in_hw": in_hw})


def _pool_attrs(x, ksize, strides, padding, op):
    if x._value.ndim != 4:
        raise ValueError(f"{op}: input must be 4-D [batch, height, width, channels], got shape "
                         f"{x.shape}")
    k = _pair(ksize, "ksize", op)
    st = _pair(strides, "strides", op)
    in_hw = tuple(x._value.shape[1:3])
    out_hw, pads = _geometry(in_hw, k, st, (1, 1), padding, op)
    return {"ksize": k, "strides": st, "dilations": (1, 1), "pads": pads, "out_hw": out_hw,
            "in_hw": in_hw}


AVG_POOL = composite("AvgPool", FLOAT)


def avg_pool2d(input, ksize, strides, padding, data_format="NHWC", name=None):  # noqa: A002
    """Mean over each window; with 'SAME' padding only the real (unpadded) entries count."""
    _check_format(data_format, "AvgPool")
    x = convert.tensor(input)
    check_dtype(AVG_POOL, x)
    a = _pool_attrs(x, ksize, strides, padding, "AvgPool")
    ones = xp.ones((1,) + a["in_hw"] + (1,), x._value.dtype)
    count = _im2col_impl(ones, **a).sum(axis=(3, 4))
    return realdiv(reduce_sum(bind(IM2COL, (x,), a), axis=(3, 4)), wrap(count))


# -- max pooling ------------------------------------------------------------------------------------
_bases = {}   # (x's shape, window) -> each output's flat index of its window's top-left entry


def _window_base(shape, strides, pads, out_hw):
    key = (shape, strides, pads, out_hw)
    base = _bases.get(key)
    if base is None:
        n, h_in, w_in, c = shape
        (oh, ow), (sh, sw) = out_hw, strides
        h = xp.arange(oh).reshape(1, oh, 1, 1) * sh - pads[0][0]
        w = xp.arange(ow).reshape(1, 1, ow, 1) * sw - pads[1][0]
        b = xp.arange(n).reshape(n, 1, 1, 1)
        base = ((b * h_in + h) * w_in + w) * c + xp.arange(c).reshape(1, 1, 1, c)
        base.setflags(write=False)
        if len(_bases) >= 64:
            _bases.clear()
        _bases[key] = base
    return base


def _searched_index(x, ksize, strides, dilations, pads, out_hw, in_hw):
    """For each output entry, the flat index into ``x`` of its window's first maximum (NaN
    counts as the largest, as ``argmax`` has it), from a gathered copy of the windows."""
    fill = -xp.inf if x.dtype.kind == "f" else xp.iinfo(x.dtype).min
    cols = _im2col_impl(x, ksize, strides, dilations, pads, out_hw, in_hw, fill=fill)
    n, oh, ow, kh, kw, c = cols.shape
    k = xp.argmax(cols.reshape(n, oh, ow, kh * kw, c), axis=3)           # (n, oh, ow, c)
    i, j = k // kw, k % kw
    return _window_base(x.shape, strides, pads, out_hw) + (i * in_hw[1] + j) * c


def _first_max(x, ksize, strides, dilations, pads, out_hw, in_hw):
    """The flat index of each window's first maximum, or None where ``x`` has a NaN (then
    ``_searched_index``): the window's entries in row-major order, each taking over only when
    strictly greater than the maximum so far, so ties go to the first, as ``argmax`` has them.
    (Positions rise along the loop, so "where greater, this position" is a maximum.)"""
    if x.dtype.kind == "f" and x.size and xp.isnan(xp.min(x)):   # (min: a NaN wins it)
        return None
    (kh, kw), (sh, sw), (dh, dw), (oh, ow) = ksize, strides, dilations, out_hw
    padded = x
    if any(pads[0]) or any(pads[1]):
        fill = -xp.inf if x.dtype.kind == "f" else xp.iinfo(x.dtype).min
        padded = xp.pad(x, ((0, 0), pads[0], pads[1], (0, 0)), constant_values=fill)
    best = padded[:, 0:(oh - 1) * sh + 1:sh, 0:(ow - 1) * sw + 1:sw, :].copy()
    k_type = xp.min_scalar_type(kh * kw)
    k, at, more = (xp.zeros(best.shape, k_type), xp.empty(best.shape, k_type),
                   xp.empty(best.shape, bool))
    for pos in range(1, kh * kw):
        i, j = divmod(pos, kw)
        v = padded[:, i * dh:i * dh + (oh - 1) * sh + 1:sh,
                   j * dw:j * dw + (ow - 1) * sw + 1:sw, :]
        xp.greater(v, best, out=more)
        xp.maximum(best, v, out=best)     # (which zero a tie of 0.0 and -0.0 keeps: no matter)
        xp.multiply(more, k_type.type(pos), out=at)
        xp.maximum(k, at, out=k)
    step = xp.array([(i * dh * in_hw[1] + j * dw) * x.shape[3] for i in range(kh) for j in range(kw)])
    return _window_base(x.shape, strides, pads, out_hw) + step.take(k)


def _found(x, a):
    """``(maxima or None, index)``: from the kernel (both at once) where it takes ``x``, else
    NumPy's running comparison, or its search where ``x`` has a NaN."""
    found = kernels.max_pool(x, a["ksize"], a["strides"], a["dilations"], a["pads"], a["out_hw"])
    if found is not None:
        return found
    idx = _first_max(x, **a)
    return None, _searched_index(x, **a) if idx is None else idx


def _argmax_index(x, ksize, strides, dilations, pads, out_hw, in_hw):
    """For each output entry, the flat index into ``x`` of its window's first maximum: the
    positions the forward found, when its rule passes them on, else searched."""
    a = {"ksize": ksize, "strides": strides, "dilations": dilations, "pads": pads,
         "out_hw": out_hw, "in_hw": in_hw}
    idx = _given_for("winners", x, a)
    return _found(x, a)[1] if idx is None else idx


def _max_pool_impl(x, **a):
    idx = _given_for("winners", x, a)
    out, idx = _found(x, a) if idx is None else (None, idx)
    if out is None:
        out = x.reshape(-1).take(idx)
    if anywhere:
        _keep(out, x, idx)
    return out


def _take_at_max(x, t, **a):
    return t.reshape(-1)[_argmax_index(x, **a)]


def _scatter_to_max(x, g, **a):
    idx = _argmax_index(x, **a).reshape(-1)
    (kh, kw), (sh, sw), pads = a["ksize"], a["strides"], a["pads"]
    apart = sh >= kh and sw >= kw and not any(pads[0]) and not any(pads[1])
    dx = kernels.max_pool_grad(idx, g, x.shape, apart)
    if dx is not None:
        return dx
    if g.dtype.kind == "f" and apart:
        # Windows apart: each entry wins at most once, so the sum is one store (+ 0 makes a
        # -0.0 gradient 0.0, as the sum from zero does).
        dx = xp.zeros(x.size, g.dtype)
        dx[idx] = g.reshape(-1) + 0
        return dx.reshape(x.shape)
    return xp.bincount(idx, weights=g.reshape(-1), minlength=x.size).astype(g.dtype).reshape(x.shape)


MAX_POOL = primitive("MaxPool", _max_pool_impl, dtypes=REAL)
defshape(MAX_POOL, shape_rules.image_sizes("out_hw"))
MAX_POOL_GRAD = primitive("MaxPoolGrad", _scatter_to_max, exempt=INTERNAL)          # (x, g) -> dx
defshape(MAX_POOL_GRAD, shape_rules.same)
MAX_POOL_GRAD_GRAD = primitive("MaxPoolGradGrad", _take_at_max,
                               exempt=INTERNAL)    # (x, t) -> t at the maxima
defshape(MAX_POOL_GRAD_GRAD, shape_rules.image_sizes("out_hw"))
defvjp(MAX_POOL, lambda g, ans, x, **a: _handing_on(MAX_POOL_GRAD, (x, g), ans, x, a, "winners"))
MAX_POOL.hands_on = True      # (its gradient scatters to the forward's winners)
defjvp(MAX_POOL, lambda t, ans, x, **a: _handing_on(MAX_POOL_GRAD_GRAD, (x, t), ans, x, a,
                                                    "winners"))
# The window's winner is piecewise constant in x: no gradient flows to it.
defvjp(MAX_POOL_GRAD, None, lambda g, ans, x, dy, **a: bind(MAX_POOL_GRAD_GRAD, (x, g), a))
defjvp(MAX_POOL_GRAD, None, lambda t, ans, x, dy, **a: bind(MAX_POOL_GRAD, (x, t), a))
defvjp(MAX_POOL_GRAD_GRAD, None, lambda g, ans, x, t, **a: bind(MAX_POOL_GRAD, (x, g), a))
defjvp(MAX_POOL_GRAD_GRAD, None, lambda t, ans, x, tx, **a: bind(MAX_POOL_GRAD_GRAD, (x, t), a))


def max_pool2d(input, ksize, strides, padding, data_format="NHWC", name=None):  # noqa: A002
    """Maximum over each window; the gradient goes to the first maximum of the window.

    >>> import tapegrad as tf
    >>> x = tf.reshape(tf.range(16.0), (1, 4, 4, 1))
    >>> tf.nn.max_pool2d(x, 2, 2, "VALID")[0, :, :, 0].numpy().tolist()
    [[5.0, 7.0], [13.0, 15.0]]
    """
    _check_format(data_format, "MaxPool")
    x = convert.tensor(input)
    return bind(MAX_POOL, (x,), _pool_attrs(x, ksize, strides, padding, "MaxPool"))


def max_pool_grad(x, dy, attrs):
    """The gradient routing of ``max_pool2d`` (for tests and the gradient checker)."""
    return bind(MAX_POOL_GRAD, (convert.tensor(x), convert.tensor(dy)), attrs)


def max_pool_grad_grad(x, t, attrs):
    return bind(MAX_POOL_GRAD_GRAD, (convert.tensor(x), convert.tensor(t)), attrs)


def pool_attrs(x, ksize, strides, padding):
    return _pool_attrs(convert.tensor(x), ksize, strides, padding, "MaxPool")


# -- batched rules (batching.py): every row of a jacobian in one pass --------------------------
folded(IM2COL, COL2IM)   # the windows of 2-D convolutions
folded(MAX_POOL, MAX_POOL_GRAD, MAX_POOL_GRAD_GRAD, per_example=(0,))   # x: where the maxima are
own_vjp(CONV2D)
