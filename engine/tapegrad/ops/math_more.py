"""More math: inverse trigonometric and hyperbolic functions, erf, atan2 (primitives), and the
everyday composites (log-sum-exp, variance, norms, clipping by norm, ...) built from primitives.

A composite needs no rule of its own: the tape records the primitives it is made of. Where a
composite could lose precision, it is written in the stable form TensorFlow uses (for example
``reduce_logsumexp`` shifts by the maximum under ``stop_gradient``).
"""
import math as _math

from ..backend import xp
from ..recording import bind
from ..table import defjvp, defnondiff, defvjp, elementwise, primitive
from . import convert
from .math_ops import (
    _axes, _const, _incompatible, _ones_like, _quiet, _zeros_like, abs, add, equal, exp, greater, is_finite,
    log, maximum, multiply, negative, realdiv, reciprocal, reduce_max, reduce_mean, reduce_sum,
    softplus, sqrt, square, stop_gradient, subtract, unbroadcast, where,
)


def _unary(prim, x):
    x = convert.tensor(x)
    if x._value.dtype.kind not in "fc":
        raise TypeError(f"{prim.name}: expected a floating-point tensor, got {x.dtype.name}")
    return bind(prim, (x,), {})


def _one(like):
    return _const(1, like)


# -- elementwise primitives ------------------------------------------------------------------------
def _erf_impl(x):
    flat = [_math.erf(float(v)) for v in x.reshape(-1)]
    return xp.asarray(flat, dtype=x.dtype).reshape(x.shape)


_TWO_OVER_SQRT_PI = 2.0 / _math.sqrt(_math.pi)
ERF = elementwise("Erf", _erf_impl,
                  lambda ans, x: multiply(_const(_TWO_OVER_SQRT_PI, x), exp(negative(square(x)))))
ASIN = elementwise("Asin", _quiet(xp.arcsin),
                   lambda ans, x: reciprocal(sqrt(subtract(_one(x), square(x)))))
ACOS = elementwise("Acos", _quiet(xp.arccos),
                   lambda ans, x: negative(reciprocal(sqrt(subtract(_one(x), square(x))))))
ATAN = elementwise("Atan", xp.arctan, lambda ans, x: reciprocal(add(_one(x), square(x))))
SINH = elementwise("Sinh", _quiet(xp.sinh), lambda ans, x: cosh(x))
COSH = elementwise("Cosh", _quiet(xp.cosh), lambda ans, x: sinh(x))
ASINH = elementwise("Asinh", xp.arcsinh,
                    lambda ans, x: reciprocal(sqrt(add(square(x), _one(x)))))
ACOSH = elementwise("Acosh", _quiet(xp.arccosh),
                    lambda ans, x: reciprocal(sqrt(subtract(square(x), _one(x)))))
ATANH = elementwise("Atanh", _quiet(xp.arctanh),
                    lambda ans, x: reciprocal(subtract(_one(x), square(x))))


def erf(x, name=None):
    """The error function, 2/sqrt(pi) * integral of exp(-t**2) from 0 to x."""
    return _unary(ERF, x)


def asin(x, name=None):
    return _unary(ASIN, x)


def acos(x, name=None):
    return _unary(ACOS, x)


def atan(x, name=None):
    return _unary(ATAN, x)


def sinh(x, name=None):
    return _unary(SINH, x)


def cosh(x, name=None):
    return _unary(COSH, x)


def asinh(x, name=None):
    return _unary(ASINH, x)


def acosh(x, name=None):
    return _unary(ACOSH, x)


def atanh(x, name=None):
    return _unary(ATANH, x)


# atan2(y, x): the angle of the point (x, y); d/dy = x / r^2, d/dx = -y / r^2.
ATAN2 = primitive("Atan2", xp.arctan2, _incompatible)


def _atan2_dy(y, x):
    return realdiv(x, add(square(x), square(y)))


def _atan2_dx(y, x):
    return realdiv(negative(y), add(square(x), square(y)))


defvjp(ATAN2, lambda g, ans, y, x: unbroadcast(multiply(g, _atan2_dy(y, x)), y._value.shape),
       lambda g, ans, y, x: unbroadcast(multiply(g, _atan2_dx(y, x)), x._value.shape))
defjvp(ATAN2, lambda t, ans, y, x: multiply(t, _atan2_dy(y, x)),
       lambda t, ans, y, x: multiply(t, _atan2_dx(y, x)))


def atan2(y, x, name=None):
    """Elementwise arctangent of ``y / x`` using the signs of both to pick the quadrant."""
    return bind(ATAN2, convert.binary(y, x, "Atan2"), {})


# -- boolean reductions (no gradient) -----------------------------------------------------------
def _bool_reduce(fn):
    def impl(x, axes, keepdims):
        return fn(x.astype(bool), axis=axes, keepdims=keepdims)
    return impl


ANY = defnondiff(primitive("Any", _bool_reduce(xp.any)))
ALL = defnondiff(primitive("All", _bool_reduce(xp.all)))


def _bool_reduction(prim, x, axis, keepdims):
    x = convert.tensor(x)
    if x._value.dtype.kind != "b":
        raise TypeError(f"{prim.name}: input must be a bool tensor, got {x.dtype.name} "
                        f"[Op:{prim.name}]")
    axes = _axes(axis, x._value.ndim, prim.name)
    return bind(prim, (x,), {"axes": axes, "keepdims": bool(keepdims)})


def reduce_any(input_tensor, axis=None, keepdims=False, name=None):
    """Logical or over ``axis`` of a bool tensor."""
    return _bool_reduction(ANY, input_tensor, axis, keepdims)


def reduce_all(input_tensor, axis=None, keepdims=False, name=None):
    """Logical and over ``axis`` of a bool tensor."""
    return _bool_reduction(ALL, input_tensor, axis, keepdims)


# -- composites ---------------------------------------------------------------------------------
def divide_no_nan(x, y, name=None):
    """``x / y``, but 0 where ``y == 0`` (also its gradient there), as ``tf.math.divide_no_nan``.

    >>> import tapegrad as tf
    >>> tf.math.divide_no_nan([1., 2.], [0., 4.]).numpy().tolist()
    [0.0, 0.5]
    """
    x, y = convert.binary(x, y, "DivNoNan")
    zero = equal(y, _zeros_like(y))
    q = realdiv(x, where(zero, _ones_like(y), y))
    return where(zero, _const(0, q), q)


def log_sigmoid(x, name=None):
    """log(sigmoid(x)) computed stably as -softplus(-x)."""
    return negative(softplus(negative(convert.tensor(x))))


def squared_difference(x, y, name=None):
    """(x - y) ** 2 elementwise."""
    return square(subtract(x, y))


def reduce_logsumexp(input_tensor, axis=None, keepdims=False, name=None):
    """log(sum(exp(x))) over ``axis``, shifted by the (non-differentiated) maximum for stability.

    >>> import tapegrad as tf
    >>> round(float(tf.reduce_logsumexp(tf.constant([1000., 1000.], tf.float64))), 4)
    1000.6931
    """
    x = convert.tensor(input_tensor)
    m = reduce_max(x, axis=axis, keepdims=True)
    m = stop_gradient(where(is_finite(m), m, _zeros_like(m)))
    out = add(log(reduce_sum(exp(subtract(x, m)), axis=axis, keepdims=True)), m)
    if not keepdims:
        from .array_ops import reshape
        axes = _axes(axis, x._value.ndim, "Logsumexp")
        shape = () if axes is None else tuple(d for i, d in enumerate(x._value.shape)
                                               if i not in axes)
        out = reshape(out, shape)
    return out


def reduce_variance(input_tensor, axis=None, keepdims=False, name=None):
    """Mean of squared deviations from the mean (the population variance)."""
    x = convert.tensor(input_tensor)
    if x._value.dtype.kind not in "fc":
        raise TypeError(f"reduce_variance: input must be floating point, got {x.dtype.name}")
    m = reduce_mean(x, axis=axis, keepdims=True)
    return reduce_mean(square(subtract(x, m)), axis=axis, keepdims=keepdims)


def reduce_std(input_tensor, axis=None, keepdims=False, name=None):
    """Square root of ``reduce_variance``."""
    return sqrt(reduce_variance(input_tensor, axis=axis, keepdims=keepdims))


def l2_loss(t, name=None):
    """sum(t ** 2) / 2."""
    t = convert.tensor(t)
    return multiply(reduce_sum(square(t)), _const(0.5, t))


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
        return sqrt(reduce_sum(square(x), axis=axes, keepdims=keep))
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
    from .math_ops import pow as _pow
    return _pow(reduce_sum(_pow(abs(x), _const(p, x)), axis=axes, keepdims=keep), _const(1 / p, x))


def _squeeze_pair(t, axes):
    from .array_ops import reshape
    shape = tuple(d for i, d in enumerate(t._value.shape) if i not in axes)
    return reshape(t, shape)


def clip_by_norm(t, clip_norm, axes=None, name=None):
    """Rescales ``t`` so that its L2 norm over ``axes`` is at most ``clip_norm`` (0 stays 0)."""
    t = convert.tensor(t)
    clip_norm = convert.tensor(clip_norm) if not isinstance(clip_norm, (int, float)) else \
        _const(clip_norm, t)
    l2sum = reduce_sum(square(t), axis=axes, keepdims=True)
    positive = greater(l2sum, _zeros_like(l2sum))
    safe = where(positive, l2sum, add(_zeros_like(l2sum), _one(l2sum)))
    l2norm = where(positive, sqrt(safe), l2sum)
    return realdiv(multiply(t, clip_norm), maximum(l2norm, clip_norm))


def unsorted_segment_sum(data, segment_ids, num_segments, name=None):
    """Sums the rows of ``data`` that share a segment id (``segment_ids`` indexes axis 0)."""
    from .indexing_ops import unsorted_segment_sum as impl
    return impl(data, segment_ids, num_segments)


# -- arg max / arg min (integer outputs: no gradient) -----------------------------------------------
ARGMAX = defnondiff(primitive("ArgMax", lambda x, axis, dtype: xp.argmax(x, axis=axis).astype(dtype)))
ARGMIN = defnondiff(primitive("ArgMin", lambda x, axis, dtype: xp.argmin(x, axis=axis).astype(dtype)))


def _arg(prim, x, axis, output_type):
    from .. import dtypes
    x = convert.tensor(x)
    nd = x._value.ndim
    axis = 0 if axis is None else int(axis)
    if not -nd <= axis < max(nd, 1):
        raise ValueError(f"{prim.name}: axis {axis} is out of range for a tensor of rank {nd}")
    return bind(prim, (x,), {"axis": axis % max(nd, 1),
                             "dtype": dtypes.as_dtype(output_type)._np})


def argmax(input, axis=None, output_type="int64", name=None):  # noqa: A002
    """Index of the largest entry along ``axis`` (the first one on ties), as int64."""
    return _arg(ARGMAX, input, axis, output_type)


def argmin(input, axis=None, output_type="int64", name=None):  # noqa: A002
    """Index of the smallest entry along ``axis`` (the first one on ties), as int64."""
    return _arg(ARGMIN, input, axis, output_type)
