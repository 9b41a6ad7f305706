"""``tf.math``'s special functions beyond the gamma family: ``igamma``, ``igammac``,
``betainc``, ``lbeta``, ``zeta``, ``erfcinv``, and the small exact ops ``nextafter``,
``invert_permutation``, ``zero_fraction``.

Gradients follow TensorFlow's registered ones:

- igamma(a, x): d/dx = exp(-x + (a - 1) log x - lgamma(a)); d/da is its own op
  (``IgammaGradA``, which has no gradient, so second order in ``a`` raises LookupError as in
  TensorFlow). igammac's are the negatives.
- betainc(a, b, x): only x gets one, exp(xlog1py(b - 1, -x) + xlogy(a - 1, x) - lbeta(a, b));
  a and b get None.
- zeta(x, q): only q gets one, -x zeta(x + 1, q); x gets None.
- nextafter(x1, x2): ones for x1, zeros for x2.
- lbeta and zero_fraction are compositions (lgamma sums; a mean of a cast comparison).
"""
import math as _math

from .. import dtypes
from ..backend import xp
from ..errors import InvalidArgumentError
from ..recording import bind
from ..table import defjvp, defvjp, defnondiff, elementwise, primitive
from ..checks.dtype_rules import FLOAT, INTERNAL, accepting
from .. import shape_rules
from ..table import defshape
from ..tensor import convert_to_tensor
from ..ground import add, multiply, reduce_sum, unbroadcast
from .arithmetic_ops import cast, negative, subtract
from .array_ops import zeros_like
from .exponential_ops import exp, log, square
from .logic_ops import equal
from .reduction_ops import reduce_mean
from .special_ops import _tensor, lgamma, xlog1py, xlogy
from . import special_numerics as _num
from ..batching import rows_broadcast
from ..primitives import NO_GRADIENT, exempt


def _floats(op, *args, allowed=("float32", "float64")):
    """Converts ``args`` to tensors of one floating dtype (Python numbers follow a tensor);
    ``allowed`` None leaves the dtype to the primitive's rule."""
    like = next((a for a in args if hasattr(a, "dtype")), None)
    ts = [_tensor(a, like=like) for a in args]
    names = {t.dtype.name for t in ts}
    if len(names) > 1:
        raise InvalidArgumentError(f"{op}: the inputs must have one dtype, got "
                                   f"{', '.join(t.dtype.name for t in ts)}")
    if allowed is not None and ts[0].dtype.name not in allowed:
        raise InvalidArgumentError(
            f"{op}: expected {' or '.join(allowed)} inputs, got {ts[0].dtype.name}")
    return ts


def _c(value, like):
    return convert_to_tensor(value, dtype=like.dtype)


def _cast_like(values, like):
    return xp.asarray(values).astype(like.dtype, copy=False)


# -- igamma / igammac -------------------------------------------------------------------------------
IGAMMA = primitive("Igamma", lambda a, x: _cast_like(_num.igamma(a, x)[0], x),
                   dtypes=FLOAT.no_kernel("float16"))
defshape(IGAMMA, shape_rules.broadcasting)
IGAMMAC = primitive("Igammac", lambda a, x: _cast_like(_num.igamma(a, x, upper=True)[0], x),
                    dtypes=FLOAT.no_kernel("float16"))
defshape(IGAMMAC, shape_rules.broadcasting)
IGAMMA_GRAD_A = primitive("IgammaGradA", lambda a, x: _cast_like(_num.igamma(a, x)[1], x),
                          exempt=INTERNAL)
exempt(IGAMMA_GRAD_A, **NO_GRADIENT)
defshape(IGAMMA_GRAD_A, shape_rules.broadcasting)


def _igamma_dx(a, x):
    """exp(-x + (a - 1) log x - lgamma(a)), written as TensorFlow's rule is (so its edge values,
    0 at a <= 0 and at x = 0 for a > 1, are TensorFlow's)."""
    one = _c(1.0, a)
    return exp(subtract(add(negative(x), multiply(subtract(a, one), log(x))), lgamma(a)))


def _grad_a(a, x):
    return bind(IGAMMA_GRAD_A, (a, x), {})


def _shape(t):
    return t._value.shape


defvjp(IGAMMA,
       lambda g, ans, a, x: unbroadcast(multiply(g, _grad_a(a, x)), _shape(a)),
       lambda g, ans, a, x: unbroadcast(multiply(g, _igamma_dx(a, x)), _shape(x)))
defjvp(IGAMMA, lambda t, ans, a, x: multiply(t, _grad_a(a, x)),
       lambda t, ans, a, x: multiply(t, _igamma_dx(a, x)))
defvjp(IGAMMAC,
       lambda g, ans, a, x: unbroadcast(negative(multiply(g, _grad_a(a, x))), _shape(a)),
       lambda g, ans, a, x: unbroadcast(negative(multiply(g, _igamma_dx(a, x))), _shape(x)))
defjvp(IGAMMAC, lambda t, ans, a, x: negative(multiply(t, _grad_a(a, x))),
       lambda t, ans, a, x: negative(multiply(t, _igamma_dx(a, x))))


def igamma(a, x, name=None):
    """The regularized lower incomplete gamma function P(a, x) = gamma(a, x) / Gamma(a).

    NaN for a <= 0 or x < 0. Differentiable in both a and x.

    >>> import tapegrad as tf
    >>> round(float(tf.math.igamma(1.0, 1.0)), 6)      # 1 - exp(-1)
    0.632121
    """
    return bind(IGAMMA, tuple(_floats("Igamma", a, x, allowed=None)), {})


def igammac(a, x, name=None):
    """The regularized upper incomplete gamma function Q(a, x) = 1 - P(a, x).

    >>> import tapegrad as tf
    >>> round(float(tf.math.igammac(1.0, 1.0)), 6)     # exp(-1)
    0.367879
    """
    return bind(IGAMMAC, tuple(_floats("Igammac", a, x, allowed=None)), {})


# -- betainc ----------------------------------------------------------------------------------------
def _betainc_impl(a, b, x):
    shapes = {a.shape, b.shape, x.shape}
    if len(shapes - {()}) > 1:
        raise InvalidArgumentError(
            f"Shapes of a, b and x are inconsistent: {list(a.shape)} vs. {list(b.shape)} vs. "
            f"{list(x.shape)}")
    return _cast_like(_num.betainc(a, b, x), x)


BETAINC = primitive("Betainc", _betainc_impl, dtypes=accepting("float32", "float64"))
defshape(BETAINC, shape_rules.broadcasting)


def _betainc_dx(a, b, x):
    log_beta = subtract(add(lgamma(a), lgamma(b)), lgamma(add(a, b)))
    one = _c(1.0, x)
    return exp(subtract(add(xlog1py(subtract(b, one), negative(x)), xlogy(subtract(a, one), x)),
                        log_beta))


defvjp(BETAINC, None, None,
       lambda g, ans, a, b, x: unbroadcast(multiply(g, _betainc_dx(a, b, x)), _shape(x)))
defjvp(BETAINC, None, None, lambda t, ans, a, b, x: multiply(t, _betainc_dx(a, b, x)))


def betainc(a, b, x, name=None):
    """The regularized incomplete beta function I_x(a, b).

    a, b and x have one shape (or are scalars). The gradient flows to x only (None for a and
    b, as in TensorFlow).

    >>> import tapegrad as tf
    >>> round(float(tf.math.betainc(2.0, 3.0, 0.5)), 6)
    0.6875
    """
    return bind(BETAINC, tuple(_floats("Betainc", a, b, x)), {})


# -- zeta -------------------------------------------------------------------------------------------
ZETA = primitive("Zeta", lambda s, q: _cast_like(_num.zeta(s, q), q),
                 dtypes=accepting("float32", "float64"))
defvjp(ZETA, None, lambda g, ans, s, q: unbroadcast(multiply(g, _zeta_dq(s, q)), _shape(q)))
defjvp(ZETA, None, lambda t, ans, s, q: multiply(t, _zeta_dq(s, q)))
defshape(ZETA, shape_rules.broadcasting)


def _zeta_dq(s, q):
    return negative(multiply(s, zeta(add(s, _c(1.0, s)), q)))


def zeta(x, q, name=None):
    """The Hurwitz zeta function, sum over k >= 0 of (q + k)^-x.

    The gradient flows to q only, -x zeta(x + 1, q); x gets None (TensorFlow's rule).

    >>> import tapegrad as tf
    >>> round(float(tf.math.zeta(2.0, 1.0)), 6)        # pi^2 / 6
    1.644934
    """
    return bind(ZETA, tuple(_floats("Zeta", x, q)), {})


def lbeta(x, name=None):
    """log of the multivariate beta function along the last axis:
    sum(lgamma(x), -1) - lgamma(sum(x, -1)). An empty last axis gives -inf.

    >>> import tapegrad as tf
    >>> round(float(tf.math.lbeta([1.0, 2.0])), 6)     # log B(1, 2) = log(1/2)
    -0.693147
    """
    x = _tensor(x)
    if not x.dtype.is_floating:
        raise InvalidArgumentError(f"Value for attr 'T' of {x.dtype.name} is not in the list of "
                                   f"allowed values: bfloat16, half, float, double [Op:Lgamma]")
    if x._value.ndim == 0:
        raise InvalidArgumentError("Invalid reduction dimension (-1 for input with 0 "
                                   "dimension(s) [Op:Sum]")
    return subtract(reduce_sum(lgamma(x), axis=-1), lgamma(reduce_sum(x, axis=-1)))


# -- erfcinv ----------------------------------------------------------------------------------------
_MINUS_SQRT_PI_OVER_2 = -_math.sqrt(_math.pi) / 2.0
ERFCINV = elementwise("Erfcinv", lambda x: _cast_like(_num.erfcinv(x), x),
                      lambda ans, x: multiply(_c(_MINUS_SQRT_PI_OVER_2, x), exp(square(ans))),
                      dtypes=FLOAT)


def erfcinv(x, name=None):
    """The inverse of erfc on [0, 2] (+inf at 0, -inf at 2, NaN outside), accurate for tiny x.

    >>> import tapegrad as tf
    >>> round(float(tf.math.erfcinv(0.5)), 6)
    0.476936
    """
    t = _tensor(x)
    if t.dtype.is_integer:      # TensorFlow fails on its 0.5 * x first
        raise TypeError(f"Cannot convert 0.5 to EagerTensor of dtype {t.dtype.name}")
    return bind(ERFCINV, tuple(_floats("Erfcinv", t)), {})


# -- nextafter --------------------------------------------------------------------------------------
NEXTAFTER = primitive("NextAfter", lambda x1, x2: xp.nextafter(x1, x2).astype(x1.dtype),
                      dtypes=accepting("float32", "float64"))
defvjp(NEXTAFTER, lambda g, ans, x1, x2: unbroadcast(g, _shape(x1)),
       lambda g, ans, x1, x2: unbroadcast(zeros_like(g), _shape(x2)))
defjvp(NEXTAFTER, lambda t, ans, x1, x2: t, lambda t, ans, x1, x2: zeros_like(t))
defshape(NEXTAFTER, shape_rules.broadcasting)


def nextafter(x1, x2, name=None):
    """The next representable value after x1 in the direction of x2 (float32 or float64).

    >>> import tapegrad as tf
    >>> float(tf.math.nextafter(1.0, 2.0)) > 1.0
    True
    """
    return bind(NEXTAFTER, tuple(_floats("NextAfter", x1, x2)), {})


# -- invert_permutation -----------------------------------------------------------------------------
def _invert_permutation_impl(x):
    if x.ndim != 1:
        raise InvalidArgumentError("invert_permutation expects a 1D vector. [Op:InvertPermutation]")
    n = x.shape[0]
    out = xp.full(n, -1, dtype=x.dtype)
    for i, v in enumerate(x.tolist()):
        if not 0 <= v < n:
            raise InvalidArgumentError(f"{v} is not between 0 and {n} [Op:InvertPermutation]")
        if out[v] != -1:
            raise InvalidArgumentError(f"{v} is duplicated in the input. [Op:InvertPermutation]")
        out[v] = i
    return out


INVERT_PERMUTATION = defnondiff(primitive("InvertPermutation", _invert_permutation_impl,
                                          dtypes=accepting("int32", "int64")))
defshape(INVERT_PERMUTATION, shape_rules.same)


def invert_permutation(x, name=None):
    """The inverse permutation: y[x[i]] = i (int32 or int64).

    >>> import tapegrad as tf
    >>> tf.math.invert_permutation([3, 4, 0, 2, 1]).numpy().tolist()
    [2, 4, 3, 0, 1]
    """
    x = _tensor(x)
    if x.dtype.name not in ("int32", "int64"):
        raise InvalidArgumentError(f"invert_permutation: expected int32 or int64, got "
                                   f"{x.dtype.name}")
    return bind(INVERT_PERMUTATION, (x,), {})


def zero_fraction(value, name=None):
    """The fraction of entries of ``value`` that are zero, as a float32 scalar.

    >>> import tapegrad as tf
    >>> float(tf.math.zero_fraction([1, 0, 0, 2]))
    0.5
    """
    v = _tensor(value)
    return reduce_mean(cast(equal(v, zeros_like(v)), dtypes.float32))


# -- batched rules (batching.py): every row of a jacobian in one pass --------------------------
rows_broadcast(IGAMMA, IGAMMAC, BETAINC, ZETA, NEXTAFTER)
