"""Special functions: ``lgamma``, ``digamma``, ``polygamma`` and the zero-safe products
``xlogy``, ``xdivy``, ``xlog1py``.

The gamma family is computed in NumPy alone (no SciPy, so it runs in Pyodide): the polygamma
functions shift x upwards by the recurrence psi^(n)(x) = psi^(n)(x + 1) - (-1)^n n! / x^(n+1)
and finish with the asymptotic (Bernoulli) series, which is accurate to double precision once
x >= 12. Each derivative is the next function of the family: lgamma' = digamma,
digamma' = polygamma(1, .), polygamma(n, .)' = polygamma(n + 1, .); the gradient for the order
``a`` of polygamma is None, as in TensorFlow.

The x* functions follow TensorFlow: 0 where x == 0 whatever y is, and so do both gradients.
"""
import math as _math

from ..backend import xp
from ..recording import bind
from ..table import defjvp, defvjp, elementwise, primitive
from ..checks.dtype_rules import FLOAT, FLOAT_COMPLEX, accepting
from .. import shape_rules
from ..table import defshape
from ..tensor import convert_to_tensor
from ..variables import Variable
from ..ground import add, multiply, unbroadcast
from .arithmetic_ops import divide_no_nan, negative, subtract
from .array_ops import ones_like, zeros_like
from .exponential_ops import exp, log, log1p, reciprocal, square
from .logic_ops import equal, where
from ..batching import rows_broadcast

# B_2k / (2k) for k = 1..8 (digamma's series) and B_2k / (2k)! (the zeta tail's series)
_BERNOULLI = [1 / 6, -1 / 30, 1 / 42, -1 / 30, 5 / 66, -691 / 2730, 7 / 6, -3617 / 510]
_SHIFT_TO = 12.0


def _digamma_np(x):
    x = xp.asarray(x, dtype=xp.float64)
    out = xp.zeros_like(x)
    a = x.copy()
    reflect = a < 0.5
    # reflection for x < 1/2: psi(x) = psi(1 - x) - pi / tan(pi x)
    with xp.errstate(divide="ignore", invalid="ignore"):
        out = xp.where(reflect, -_math.pi / xp.tan(_math.pi * x), 0.0)
    a = xp.where(reflect, 1.0 - a, a)
    while True:
        small = a < _SHIFT_TO
        if not small.any():
            break
        out = out - xp.where(small, 1.0 / xp.where(small, a, 1.0), 0.0)
        a = xp.where(small, a + 1.0, a)
    inv2 = 1.0 / (a * a)
    series = xp.zeros_like(a)
    power = xp.ones_like(a)
    for k, b in enumerate(_BERNOULLI, start=1):
        power = power * inv2
        series = series + b / (2 * k) * power
    out = out + xp.log(a) - 0.5 / a - series
    with xp.errstate(invalid="ignore"):
        pole = (x <= 0) & (x == xp.floor(x))
    return xp.where(pole, xp.nan, out)


def _polygamma_np(n, x):
    """psi^(n)(x) for integer n >= 1, as (-1)^(n+1) n! zeta(n + 1, x)."""
    x = xp.asarray(x, dtype=xp.float64)
    s = n + 1
    total = xp.zeros_like(x)
    a = x.copy()
    with xp.errstate(divide="ignore", invalid="ignore"):
        while True:
            small = a < _SHIFT_TO
            if not small.any():
                break
            total = total + xp.where(small, xp.where(small, a, 1.0) ** -s, 0.0)
            a = xp.where(small, a + 1.0, a)
    # Hurwitz zeta tail: a^(1-s)/(s-1) + a^(-s)/2 + sum_k B_2k/(2k)! s(s+1)...(s+2k-2) a^(-s-2k+1)
    tail = a ** (1 - s) / (s - 1) + 0.5 * a ** -s
    rising = float(s)
    for k in range(1, 9):
        b2k = _BERNOULLI[k - 1]        # B_2k
        tail = tail + b2k / _math.factorial(2 * k) * rising * a ** (-s - 2 * k + 1)
        rising *= (s + 2 * k - 1) * (s + 2 * k)
    sign = 1.0 if n % 2 == 1 else -1.0
    return sign * _math.factorial(n) * (total + tail)


def _lgamma_np(x):
    def one(v):
        try:
            return _math.lgamma(v)
        except ValueError:          # a pole: 0, -1, -2, ...
            return _math.inf
    flat = [one(float(v)) for v in xp.asarray(x).reshape(-1)]
    return xp.asarray(flat, dtype=xp.float64).reshape(xp.shape(x))


def _same(fn):
    def impl(x, *args):
        return xp.asarray(fn(x, *args) if not args else fn(*args, x)).astype(x.dtype)
    return impl


LGAMMA = elementwise("Lgamma", _same(_lgamma_np), lambda ans, x: digamma(x), dtypes=FLOAT)
DIGAMMA = elementwise("Digamma", _same(_digamma_np), lambda ans, x: polygamma(1, x), dtypes=FLOAT)


def _polygamma_impl(a, x):
    orders = xp.broadcast_to(a, xp.broadcast_shapes(a.shape, x.shape))
    xs = xp.broadcast_to(x, orders.shape).astype(xp.float64)
    out = xp.empty(orders.shape, xp.float64)
    for n in xp.unique(orders):
        pick = orders == n
        if n == 0:
            out[pick] = _digamma_np(xs[pick])
        elif n > 0 and n == int(n):
            out[pick] = _polygamma_np(int(n), xs[pick])
        else:
            out[pick] = xp.nan
    return out.astype(x.dtype)


POLYGAMMA = primitive("Polygamma", _polygamma_impl, dtypes=accepting("float32", "float64"))
defshape(POLYGAMMA, shape_rules.broadcasting_last)


def _next_order(a):
    return add(a, convert_to_tensor(1, dtype=a.dtype))


defvjp(POLYGAMMA, None,
       lambda g, ans, a, x: unbroadcast(multiply(g, polygamma(_next_order(a), x)), x._value.shape))
defjvp(POLYGAMMA, None, lambda t, ans, a, x: multiply(t, polygamma(_next_order(a), x)))


def _tensor(x, like=None):
    if isinstance(x, Variable):
        return x.read_value()
    if like is not None and not hasattr(x, "dtype"):
        return convert_to_tensor(x, dtype=like.dtype)
    return convert_to_tensor(x)


def _float(x, op):
    x = _tensor(x)
    if not x.dtype.is_floating:
        raise TypeError(f"{op}: expected a floating-point tensor, got {x.dtype.name}")
    return x


def lgamma(x, name=None):
    """log |Gamma(x)|.

    >>> import tapegrad as tf
    >>> round(float(tf.math.lgamma(0.5)), 4)
    0.5724
    """
    return bind(LGAMMA, (_tensor(x),), {})


def digamma(x, name=None):
    """psi(x) = d/dx lgamma(x).

    >>> import tapegrad as tf
    >>> round(float(tf.math.digamma(1.0)), 4)
    -0.5772
    """
    return bind(DIGAMMA, (_tensor(x),), {})


def polygamma(a, x, name=None):
    """The ``a``-th derivative of digamma at ``x`` (``a`` a whole number, same dtype as x).

    >>> import tapegrad as tf
    >>> round(float(tf.math.polygamma(1.0, 1.0)), 4)
    1.6449
    """
    x = _tensor(x)
    a = _tensor(a, like=x)
    if a.dtype != x.dtype:
        raise TypeError(f"Polygamma: a and x must have the same dtype, got {a.dtype.name} and "
                        f"{x.dtype.name}")
    return bind(POLYGAMMA, (a, x), {})


# -- x * f(y), zero where x == 0 ---------------------------------------------------------------------
def _x_times(name, f, f_op, df_dy, dtypes):
    """A primitive for x * f(y) that is 0 (with 0 gradients) wherever x == 0; ``f`` works on
    arrays, ``f_op`` is the same function as an engine op (for the rules)."""
    def impl(x, y):
        with xp.errstate(divide="ignore", invalid="ignore", over="ignore"):
            value = x * f(y)
        return xp.where(x == 0, xp.zeros((), x.dtype), value).astype(x.dtype, copy=False)

    prim = primitive(name, impl, dtypes=dtypes)

    def masked(x, value):
        return where(equal(x, zeros_like(x)), zeros_like(value), value)

    def dx(x, y):
        return masked(x, f_op(y))

    def dy(x, y):
        return masked(x, multiply(x, df_dy(y)))

    defvjp(prim, lambda g, ans, x, y: unbroadcast(multiply(g, dx(x, y)), x._value.shape),
           lambda g, ans, x, y: unbroadcast(multiply(g, dy(x, y)), y._value.shape))
    defjvp(prim, lambda t, ans, x, y: multiply(t, dx(x, y)),
           lambda t, ans, x, y: multiply(t, dy(x, y)))
    return prim


XLOGY = _x_times("Xlogy", xp.log, log, lambda y: reciprocal(y), dtypes=FLOAT_COMPLEX)
defshape(XLOGY, shape_rules.broadcasting)
XDIVY = _x_times("Xdivy", lambda y: 1 / y, reciprocal, lambda y: negative(reciprocal(square(y))),
                 dtypes=FLOAT_COMPLEX)
defshape(XDIVY, shape_rules.broadcasting)
XLOG1PY = _x_times("Xlog1py", xp.log1p, log1p,
                   lambda y: reciprocal(add(y, convert_to_tensor(1, dtype=y.dtype))),
                   dtypes=FLOAT_COMPLEX)
defshape(XLOG1PY, shape_rules.broadcasting)


def _pair(x, y, op):
    x = _tensor(x, like=y if hasattr(y, "dtype") else None)
    y = _tensor(y, like=x)
    if x.dtype != y.dtype:
        raise TypeError(f"{op}: x and y must have the same dtype, got {x.dtype.name} and "
                        f"{y.dtype.name}")
    return x, y


def xlogy(x, y, name=None):
    """x * log(y), and 0 where x == 0 (even where y == 0).

    >>> import tapegrad as tf
    >>> tf.math.xlogy([0.0, 2.0], [0.0, 1.0]).numpy().tolist()
    [0.0, 0.0]
    """
    return bind(XLOGY, _pair(x, y, "Xlogy"), {})


def xdivy(x, y, name=None):
    """x / y, and 0 where x == 0 (even where y == 0)."""
    return bind(XDIVY, _pair(x, y, "Xdivy"), {})


def xlog1py(x, y, name=None):
    """x * log1p(y), and 0 where x == 0."""
    return bind(XLOG1PY, _pair(x, y, "Xlog1py"), {})


def reciprocal_no_nan(x, name=None):
    """1 / x, and 0 where x == 0 (gradient 0 there too).

    >>> import tapegrad as tf
    >>> tf.math.reciprocal_no_nan([0.0, 2.0]).numpy().tolist()
    [0.0, 0.5]
    """
    x = _float(x, "ReciprocalNoNan")
    return divide_no_nan(ones_like(x), x)



# -- erfc, erfinv, ndtri -------------------------------------------------------------------------------
def _erfc_impl(x):
    flat = [_math.erfc(float(v)) for v in x.reshape(-1)]
    return xp.asarray(flat, dtype=x.dtype).reshape(x.shape)


def _erfinv_impl(y):
    """Inverse of erf by Newton's method from a closed-form first guess (Winitzki's)."""
    y64 = xp.asarray(y, dtype=xp.float64)
    a = 0.147
    with xp.errstate(all="ignore"):
        ln = xp.log(1.0 - y64 * y64)
        first = 2.0 / (_math.pi * a) + ln / 2.0
        x = xp.sign(y64) * xp.sqrt(xp.sqrt(first * first - ln / a) - first)
        erf = xp.vectorize(_math.erf, otypes=[xp.float64])
        for _ in range(3):
            step = (erf(x) - y64) / (2.0 / _math.sqrt(_math.pi) * xp.exp(-x * x))
            x = xp.where(xp.isfinite(step), x - step, x)
    x = xp.where(y64 == 1.0, xp.inf, xp.where(y64 == -1.0, -xp.inf, x))
    x = xp.where(xp.abs(y64) > 1.0, xp.nan, x)
    return x.astype(y.dtype)


_SQRT_PI_OVER_2 = _math.sqrt(_math.pi) / 2.0
ERFC = elementwise("Erfc", _erfc_impl, lambda ans, x: multiply(
    convert_to_tensor(-2.0 / _math.sqrt(_math.pi), dtype=x.dtype), exp(negative(square(x)))),
                   dtypes=FLOAT)
ERFINV = elementwise("Erfinv", _erfinv_impl, lambda ans, x: multiply(
    convert_to_tensor(_SQRT_PI_OVER_2, dtype=x.dtype), exp(square(ans))),
                     dtypes=FLOAT.no_kernel("float16"))


def erfc(x, name=None):
    """1 - erf(x), computed without cancellation for large x.

    >>> import tapegrad as tf
    >>> float(tf.math.erfc(0.0))
    1.0
    """
    return bind(ERFC, (_tensor(x),), {})


def erfinv(x, name=None):
    """The inverse of erf on (-1, 1) (+-inf at +-1, NaN outside)."""
    return bind(ERFINV, (_tensor(x),), {})


def ndtri(x, name=None):
    """The inverse of the standard normal CDF: sqrt(2) * erfinv(2x - 1).

    >>> import tapegrad as tf
    >>> round(float(tf.math.ndtri(0.975)), 4)
    1.96
    """
    p = _float(x, "Ndtri")
    two = convert_to_tensor(2.0, dtype=p.dtype)
    return multiply(convert_to_tensor(_math.sqrt(2.0), dtype=p.dtype),
                    erfinv(subtract(multiply(two, p), convert_to_tensor(1.0, dtype=p.dtype))))


# -- multiply_no_nan ---------------------------------------------------------------------------------
def _mul_no_nan_impl(x, y):
    with xp.errstate(invalid="ignore"):
        return xp.where(y == 0, xp.zeros((), x.dtype), x * y).astype(x.dtype, copy=False)


MUL_NO_NAN = primitive("MulNoNan", _mul_no_nan_impl, dtypes=FLOAT_COMPLEX)
defvjp(MUL_NO_NAN,
       lambda g, ans, x, y: unbroadcast(bind(MUL_NO_NAN, (g, y), {}), x._value.shape),
       lambda g, ans, x, y: unbroadcast(bind(MUL_NO_NAN, (x, g), {}), y._value.shape))
defjvp(MUL_NO_NAN, lambda t, ans, x, y: bind(MUL_NO_NAN, (t, y), {}),
       lambda t, ans, x, y: bind(MUL_NO_NAN, (x, t), {}))
defshape(MUL_NO_NAN, shape_rules.broadcasting)


def multiply_no_nan(x, y, name=None):
    """x * y, and 0 where y == 0 even if x is inf or NaN (TensorFlow's gradients: dx is
    multiply_no_nan(g, y), dy is multiply_no_nan(x, g)).

    >>> import tapegrad as tf
    >>> tf.math.multiply_no_nan([float("inf"), 2.0], [0.0, 3.0]).numpy().tolist()
    [0.0, 6.0]
    """
    return bind(MUL_NO_NAN, _pair(x, y, "MulNoNan"), {})


# -- batched rules (batching.py): every row of a jacobian in one pass --------------------------
rows_broadcast(MUL_NO_NAN, POLYGAMMA, XDIVY, XLOG1PY, XLOGY)
