"""Reductions: sums, means, extremes and products over axes, boolean any/all, arg max/min, and
the composites built from them (log-sum-exp, variance, norms, clipping by norm).

``reduce_max``/``reduce_min`` ties share the gradient equally, as in TensorFlow. A composite
that could lose precision is written in TensorFlow's stable form (``reduce_logsumexp`` shifts by
the maximum under ``stop_gradient``).
"""
from ..backend import xp
from .. import checks, convert, dtypes
from ..checks import check_dtype
from ..ground import (  # noqa: F401  (reduce_sum is the ground's)
    SUM, broadcast_back, conj_if_complex, reduce, reduce_sum, reduction_axes, reshape,
    scalar_like, zeros_of,
)
from ..kernels import dispatch as kernels
from ..recording import bind
from ..table import deflinear, defjvp, defnondiff, defvjp, primitive
from ..checks.dtype_rules import BOOL, FLOAT, NUMBER, REAL, REAL_OR_BOOL, composite
from ..tensor import EagerTensor, wrap
from .arithmetic_ops import (
    DIV, NO_ATTRS, abs, add, cast, maximum, multiply, realdiv, stop_gradient, subtract,
)
from .array_ops import transpose
from .cumulative_ops import cumprod, cumsum
from .exponential_ops import SQRT, exp, log, pow as _pow, sqrt, square
from .logic_ops import equal, greater, is_finite, where
from .. import batching
from .. import shape_rules
from ..table import defshape


def _shape(x):
    return x._value.shape


def _one(like):
    return scalar_like(1, like)


def _count(x, axes):
    shape = _shape(x)
    n = 1
    for i, d in enumerate(shape):
        if axes is None or i in axes:
            n *= d
    return n


def _mean_impl(x, axes, keepdims):
    if type(x) is _ndarray and x.dtype in _FAST_MEAN and x.size:
        # Speed: what ``ndarray.mean`` computes for float32/float64, without its Python wrapper
        # and the ``errstate`` block (a warning raised here is an engine module's, which
        # checks/numerics.py silences): the sum, then a true division by the count as an
        # ``intp`` (so in float64 for float32 sums, rounded back), in place for arrays.
        total = _add_reduce(x, axes, None, None, keepdims)
        if type(total) is _ndarray:
            return _true_divide(total, _intp(x.size // total.size), out=total, casting="unsafe")
        return total.dtype.type(total / _intp(x.size))
    if x.size == 0:     # sum / count: NaN as TensorFlow, without NumPy's "Mean of empty slice"
        total = xp.sum(x, axis=axes, keepdims=keepdims, dtype=x.dtype)
        count = x.size if axes is None else int(xp.prod([x.shape[a] for a in axes]))
        with xp.errstate(all="ignore"):   # float: NaN; complex and integers: 0, as TensorFlow
            r = xp.true_divide(total, count) if x.dtype.kind == "f" else total
        return xp.asarray(r).astype(x.dtype, copy=False)
    with xp.errstate(all="ignore"):
        # Speed: an ndarray's own method, which ``numpy.mean`` calls after its dispatch wrapper
        # (same code, same bits).
        r = x.mean(axis=axes, keepdims=keepdims) if type(x) is _ndarray else \
            xp.mean(x, axis=axes, keepdims=keepdims)
    return r.astype(x.dtype) if x.dtype.kind in "iu" else r.astype(x.dtype, copy=False)


_ndarray = xp.ndarray if xp.__name__ == "numpy" else None
if _ndarray is not None:
    _FAST_MEAN = (xp.dtype(xp.float32), xp.dtype(xp.float64))
    _add_reduce, _true_divide, _intp = xp.add.reduce, xp.true_divide, xp.intp
else:
    _FAST_MEAN = ()
MEAN = primitive("Mean", kernels.route_reduce("mean", _mean_impl), dtypes=NUMBER)
defshape(MEAN, shape_rules.reduction)
def _mean_vjp(g, ans, x, axes, keepdims):
    spread = broadcast_back(g, x, axes, keepdims)
    count = scalar_like(_count(x, axes), g)
    if type(spread) is EagerTensor and spread._value.dtype == count._value.dtype:
        return bind(DIV, (spread, count), NO_ATTRS)   # (Speed: what realdiv would bind)
    return realdiv(spread, count)


deflinear(MEAN, _mean_vjp)


def _minmax_vjp(g, ans, x, axes, keepdims):
    """Ties share the gradient equally, as TensorFlow's Max/Min gradient does."""
    y = broadcast_back(ans, x, axes, keepdims)
    hits = cast(equal(y, x), x._value.dtype)
    n = broadcast_back(reduce_sum(hits, axis=axes, keepdims=keepdims), x, axes, keepdims)
    return multiply(realdiv(hits, n), broadcast_back(g, x, axes, keepdims))


def _minmax_jvp(t, ans, x, axes, keepdims):
    y = broadcast_back(ans, x, axes, keepdims)
    hits = cast(equal(y, x), x._value.dtype)
    return realdiv(reduce_sum(multiply(hits, t), axis=axes, keepdims=keepdims),
                   reduce_sum(hits, axis=axes, keepdims=keepdims))


def _extreme(fn, lowest):
    """``fn`` (max or min) over ``axes``; an empty group gives the dtype's identity, as in
    TensorFlow (-inf or the smallest integer for max, +inf or the largest for min)."""
    def impl(x, axes, keepdims):
        if x.size == 0:
            info = xp.finfo(x.dtype) if x.dtype.kind == "f" else xp.iinfo(x.dtype)
            start = (-xp.inf if lowest else xp.inf) if x.dtype.kind == "f" else \
                (info.min if lowest else info.max)
            return fn(x, axis=axes, keepdims=keepdims, initial=start)
        return fn(x, axis=axes, keepdims=keepdims)
    return impl


MAX = primitive("Max", kernels.route_reduce("max", _extreme(xp.max, lowest=True)), dtypes=REAL)
defshape(MAX, shape_rules.reduction)
MIN = primitive("Min", _extreme(xp.min, lowest=False), dtypes=REAL)
defshape(MIN, shape_rules.reduction)
for _p in (MAX, MIN):
    defvjp(_p, _minmax_vjp)
    defjvp(_p, _minmax_jvp)


def _prod_of_others(x, axes):
    """For each entry, the product of the other entries of its reduced group, without dividing
    (so zeros are handled): exclusive cumulative products from both ends."""
    shape = _shape(x)
    if x._value.size == 0:          # nothing to multiply: an empty gradient
        return zeros_of(x)
    nd = len(shape)
    red = tuple(range(nd)) if axes is None else axes
    keep = tuple(i for i in range(nd) if i not in red)
    perm = keep + red
    xt = transpose(x, perm) if perm != tuple(range(nd)) else x
    kshape = tuple(shape[i] for i in keep)
    n = _count(x, red)
    flat = reshape(xt, kshape + (n,))
    left = cumprod(flat, axis=-1, exclusive=True)
    right = cumprod(flat, axis=-1, exclusive=True, reverse=True)
    others = reshape(multiply(left, right), tuple(shape[i] for i in perm))
    inv = tuple(int(i) for i in xp.argsort(perm))
    return transpose(others, inv) if perm != tuple(range(nd)) else others


PROD = primitive("Prod", lambda x, axes, keepdims: xp.prod(x, axis=axes, keepdims=keepdims,
                                                            dtype=x.dtype),
                 dtypes=NUMBER)   # int32 stays int32
defvjp(PROD, lambda g, ans, x, axes, keepdims: multiply(
    broadcast_back(g, x, axes, keepdims), _prod_of_others(x, axes)))
defjvp(PROD, lambda t, ans, x, axes, keepdims: reduce_sum(
    multiply(t, _prod_of_others(x, axes)), axis=axes, keepdims=keepdims))
defshape(PROD, shape_rules.reduction)


def reduce_mean(input_tensor, axis=None, keepdims=False, name=None):
    return reduce(MEAN, input_tensor, axis, keepdims)


def reduce_max(input_tensor, axis=None, keepdims=False, name=None):
    return reduce(MAX, input_tensor, axis, keepdims)


def reduce_min(input_tensor, axis=None, keepdims=False, name=None):
    return reduce(MIN, input_tensor, axis, keepdims)


def reduce_prod(input_tensor, axis=None, keepdims=False, name=None):
    return reduce(PROD, input_tensor, axis, keepdims)


# -- boolean reductions (no gradient) -----------------------------------------------------------
def _bool_reduce(fn):
    def impl(x, axes, keepdims):
        return fn(x.astype(bool), axis=axes, keepdims=keepdims)
    return impl


ANY = defnondiff(primitive("Any", _bool_reduce(xp.any), dtypes=BOOL))
defshape(ANY, shape_rules.reduction)
ALL = defnondiff(primitive("All", _bool_reduce(xp.all), dtypes=BOOL))
defshape(ALL, shape_rules.reduction)


def _bool_reduction(prim, x, axis, keepdims):
    x = convert.tensor(x)
    if isinstance(axis, (list, tuple)) and x._value.dtype.kind != "b":
        # TensorFlow: with a list of axes the input is converted to bool in Python first
        raise ValueError(f"{prim.name}: tensor conversion requested dtype bool for a tensor of "
                         f"dtype {x.dtype.name}")
    axes = reduction_axes(axis, x._value.ndim, prim.name)   # TensorFlow checks the axis first
    check_dtype(prim, x)                     # bool only, as TensorFlow's All/Any
    return bind(prim, (x,), {"axes": axes, "keepdims": bool(keepdims)})


def reduce_any(input_tensor, axis=None, keepdims=False, name=None):
    """Logical or over ``axis`` of a bool tensor."""
    return _bool_reduction(ANY, input_tensor, axis, keepdims)


def reduce_all(input_tensor, axis=None, keepdims=False, name=None):
    """Logical and over ``axis`` of a bool tensor."""
    return _bool_reduction(ALL, input_tensor, axis, keepdims)


REDUCE_LOGSUMEXP = composite("ReduceLogSumExp", FLOAT)


def reduce_logsumexp(input_tensor, axis=None, keepdims=False, name=None):
    """log(sum(exp(x))) over ``axis``, shifted by the (non-differentiated) maximum for stability.

    >>> import tapegrad as tf
    >>> round(float(tf.reduce_logsumexp(tf.constant([1000., 1000.], tf.float64))), 4)
    1000.6931
    """
    x = convert.tensor(input_tensor)
    reduction_axes(axis, x._value.ndim, "Max")   # TensorFlow checks the axis first
    check_dtype(REDUCE_LOGSUMEXP, x)
    m = reduce_max(x, axis=axis, keepdims=True)
    m = stop_gradient(where(is_finite(m), m, zeros_of(m)))
    out = add(log(reduce_sum(exp(subtract(x, m)), axis=axis, keepdims=True)), m)
    if not keepdims:
        axes = reduction_axes(axis, x._value.ndim, "Logsumexp")
        shape = () if axes is None else tuple(d for i, d in enumerate(x._value.shape)
                                               if i not in axes)
        out = reshape(out, shape)
    return out


def reduce_variance(input_tensor, axis=None, keepdims=False, name=None):
    """Mean of squared deviations from the mean (the population variance)."""
    x = convert.tensor(input_tensor)
    reduction_axes(axis, x._value.ndim, "Mean")   # TensorFlow checks the axis first
    check_dtype(MEAN, x)
    if x._value.dtype.kind not in "fc":      # TensorFlow checks this in Python: a TypeError
        raise TypeError(f"reduce_variance: input must be floating point, got {x.dtype.name}")
    m = reduce_mean(x, axis=axis, keepdims=True)
    d = subtract(x, m)
    if x._value.dtype.kind == "c":           # |x - mean|^2: a real variance, as TensorFlow's
        d = abs(d)
    return reduce_mean(square(d), axis=axis, keepdims=keepdims)


def reduce_std(input_tensor, axis=None, keepdims=False, name=None):
    """Square root of ``reduce_variance``."""
    return sqrt(reduce_variance(input_tensor, axis=axis, keepdims=keepdims))


L2_LOSS = composite("L2Loss", FLOAT)


def l2_loss(t, name=None):
    """sum(t ** 2) / 2."""
    t = convert.tensor(t)
    check_dtype(L2_LOSS, t)
    return multiply(reduce_sum(square(t)), scalar_like(0.5, t))


def _norm_axes(axis, ndim):
    if axis is None:
        return None
    if isinstance(axis, int):
        return (axis % ndim,)
    axes = tuple(int(a) % ndim for a in axis)
    if len(axes) not in (1, 2) or len(set(axes)) != len(axes):
        raise ValueError(f"norm: 'axis' must be None, an integer, or a tuple of 2 unique integers,"
                         f" got {axis}")
    return axes


def norm(tensor, ord="euclidean", axis=None, keepdims=None, name=None):  # noqa: A002
    """Vector or matrix norm, as ``tf.norm``.

    Vectors (``axis`` None or one axis): ``ord`` is 'euclidean' (= 2), 1, ``np.inf`` or any
    p > 0. Matrices (``axis`` a pair): 'fro' / 'euclidean', 1 or ``np.inf``; the spectral norm
    (``ord=2`` on a pair of axes) raises ``NotImplementedError``. As in TensorFlow the 2-norm's
    gradient at zero is NaN (it goes through sqrt).
    """
    x = convert.tensor(tensor)
    axes = _norm_axes(axis, x._value.ndim)
    keep = bool(keepdims)
    is_matrix = axes is not None and len(axes) == 2
    if ord in ("euclidean", "fro") or (ord == 2 and not is_matrix):
        if ord == "fro" and not is_matrix and axes is not None:
            raise ValueError("norm: 'fro' needs a pair of axes (or axis=None)")
        kind = x._value.dtype.kind
        if kind == "b":       # TensorFlow: a TypeError in Python
            raise TypeError("norm: expected a numeric tensor, got bool")
        if kind in "iu":      # TensorFlow's square root rejects integers
            check_dtype(SQRT, x)
        # |x|^2 = x * conj(x): a complex norm is real-valued, in the complex dtype, as in TF
        squares = multiply(x, conj_if_complex(x)) if kind == "c" else square(x)
        return sqrt(reduce_sum(squares, axis=axes, keepdims=keep))
    if isinstance(ord, str):
        raise ValueError(f"norm: 'ord' must be a supported vector norm ('euclidean', 1, 2, "
                         f"np.inf, p > 0) or matrix norm ('fro', 'euclidean', 1, np.inf); "
                         f"got {ord!r}")
    p = float(ord)
    if is_matrix:
        rows, cols = axes
        if p == 1:       # max over columns of the column sums
            s = reduce_sum(abs(x), axis=rows, keepdims=True)
            return reduce_max(s, axis=cols, keepdims=True) if keep else \
                _squeeze_pair(reduce_max(s, axis=cols, keepdims=True), axes)
        if p == float("inf"):
            s = reduce_sum(abs(x), axis=cols, keepdims=True)
            return reduce_max(s, axis=rows, keepdims=True) if keep else \
                _squeeze_pair(reduce_max(s, axis=rows, keepdims=True), axes)
        raise NotImplementedError(f"norm: matrix norm ord={ord!r} is not implemented (supported "
                                  f"for a pair of axes: 'fro', 'euclidean', 1, np.inf)")
    if p <= 0:
        raise ValueError(f"norm: 'ord' must be positive, got {ord!r}")
    if p == float("inf"):
        return reduce_max(abs(x), axis=axes, keepdims=keep)
    if p == 1:
        return reduce_sum(abs(x), axis=axes, keepdims=keep)
    return _pow(reduce_sum(_pow(abs(x), scalar_like(p, x)), axis=axes, keepdims=keep), scalar_like(1 / p, x))


def _squeeze_pair(t, axes):
    shape = tuple(d for i, d in enumerate(t._value.shape) if i not in axes)
    return reshape(t, shape)


CLIP_BY_NORM = composite("ClipByNorm", FLOAT)


def clip_by_norm(t, clip_norm, axes=None, name=None):
    """Rescales ``t`` so that its L2 norm over ``axes`` is at most ``clip_norm`` (0 stays 0)."""
    t = convert.tensor(t)
    check_dtype(CLIP_BY_NORM, t)
    clip_norm = convert.tensor(clip_norm) if not isinstance(clip_norm, (int, float)) else \
        scalar_like(clip_norm, t)
    l2sum = reduce_sum(square(t), axis=axes, keepdims=True)
    positive = greater(l2sum, zeros_of(l2sum))
    safe = where(positive, l2sum, add(zeros_of(l2sum), _one(l2sum)))
    l2norm = where(positive, sqrt(safe), l2sum)
    return realdiv(multiply(t, clip_norm), maximum(l2norm, clip_norm))


# -- arg max / arg min (integer outputs: no gradient) -----------------------------------------------
ARGMAX = defnondiff(primitive("ArgMax", lambda x, axis, dtype: xp.argmax(x, axis=axis).astype(dtype),
                              dtypes=REAL_OR_BOOL))
defshape(ARGMAX, shape_rules.arg_reduction)
ARGMIN = defnondiff(primitive("ArgMin", lambda x, axis, dtype: xp.argmin(x, axis=axis).astype(dtype),
                              dtypes=REAL_OR_BOOL))
defshape(ARGMIN, shape_rules.arg_reduction)


def _arg(prim, x, axis, output_type):
    x = convert.tensor(x)
    shape = x._value.shape
    axis = checks.axis(prim.name, 0 if axis is None else axis, len(shape))
    if shape[axis] == 0:
        raise checks.invalid(prim.name, f"{prim.name}: reduction axis {axis} is empty in shape "
                                        f"{list(shape)}")
    return bind(prim, (x,), {"axis": axis,
                             "dtype": dtypes.as_dtype(output_type)._np})


def argmax(input, axis=None, output_type="int64", name=None):  # noqa: A002
    """Index of the largest entry along ``axis`` (the first one on ties), as int64."""
    return _arg(ARGMAX, input, axis, output_type)


def argmin(input, axis=None, output_type="int64", name=None):  # noqa: A002
    """Index of the smallest entry along ``axis`` (the first one on ties), as int64."""
    return _arg(ARGMIN, input, axis, output_type)


# -- the euclidean norm and the cumulative log-sum-exp ------------------------------------
def reduce_euclidean_norm(input_tensor, axis=None, keepdims=False, name=None):
    """sqrt(sum(x**2)) over ``axis`` (integer tensors give the integer part).

    >>> import tapegrad as tf
    >>> float(tf.math.reduce_euclidean_norm([3.0, 4.0]))
    5.0
    """
    x = convert.tensor(input_tensor)
    if x.dtype.is_integer:
        squares = xp.square(x._value.astype(xp.float64))
        axes = None if axis is None else tuple(xp.asarray(axis).reshape(-1).tolist())
        total = xp.sum(squares, axis=axes, keepdims=bool(keepdims))
        return wrap(xp.asarray(xp.sqrt(total)).astype(x._value.dtype))
    return sqrt(reduce_sum(square(x), axis=axis, keepdims=keepdims))


def cumulative_logsumexp(x, axis=0, exclusive=False, reverse=False, name=None):
    """log(cumsum(exp(x))) along ``axis``, shifted by the maximum so nothing overflows
    (``exclusive``: the first entry is log(0) = -inf).

    >>> import tapegrad as tf
    >>> [round(v, 4) for v in tf.math.cumulative_logsumexp([0.0, 0.0]).numpy().tolist()]
    [0.0, 0.6931]
    """
    x = convert.tensor(x)
    shift = stop_gradient(reduce_max(x, axis=axis, keepdims=True))
    summed = cumsum(exp(subtract(x, shift)), axis=axis, exclusive=exclusive, reverse=reverse)
    return add(log(summed), shift)


# -- batched rules (batching.py): every row of a jacobian in one pass --------------------------
# The VJPs themselves, given x (and Max/Min's output) with the rows' axis and the axes past it.
batching.rows_first(SUM, MEAN, MAX, MIN, PROD, lift=batching.past_rows("axes"))
