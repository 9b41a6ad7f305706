"""Modified Bessel functions of the first kind, I0 and I1, plain and exponentially scaled
(i0e(x) = exp(-|x|) I0(x)), computed in NumPy alone: the power series for |x| < 50, the
asymptotic expansion beyond. Derivatives: I0' = I1; I1' = I0 - I1 / x (1 at 0, TensorFlow's value; the limit is 1/2);
i0e' = i1e - sign(x) i0e; i1e' = i0e - i1e (sign(x) + 1/x) (1/2 at 0), as TensorFlow's.
"""
import math as _math

from ..backend import xp
from ..recording import bind
from ..table import elementwise
from ..checks.dtype_rules import FLOAT
from ..tensor import convert_to_tensor
from ..variables import Variable
from ..ground import add, multiply
from .arithmetic_ops import divide, sign, subtract
from .array_ops import ones_like
from .logic_ops import equal, where

_SWITCH = 50.0


def _series(x, order):
    """sum_k (x/2)^(2k + order) / (k! (k + order)!) for |x| < _SWITCH."""
    half = x / 2.0
    term = half ** order / _math.factorial(order)
    total = term.copy()
    square = half * half
    for k in range(1, 200):
        term = term * square / (k * (k + order))
        total = total + term
        if (xp.abs(term) <= 1e-17 * xp.abs(total)).all():
            break
    return total


def _scaled_asymptotic(ax, order):
    """exp(-|x|) I_order(|x|) for large |x|: (2 pi x)^-1/2 sum_k (-1)^k a_k / x^k."""
    mu = 4.0 * order * order
    total = xp.ones_like(ax)
    term = xp.ones_like(ax)
    for k in range(1, 25):
        term = -term * (mu - (2 * k - 1) ** 2) / (k * 8.0 * ax)
        total = total + term
    return total / xp.sqrt(2.0 * _math.pi * ax)


def _scaled(x, order):
    """exp(-|x|) I_order(x), in float64."""
    x = xp.asarray(x, dtype=xp.float64)
    ax = xp.abs(x)
    small = ax < _SWITCH
    out = xp.empty_like(x)
    if small.any():
        out[small] = _series(x[small], order) * xp.exp(-ax[small])
    if (~small).any():
        big = _scaled_asymptotic(ax[~small], order)
        out[~small] = big * (xp.sign(x[~small]) if order == 1 else 1.0)
    return out


def _impl(order, scaled):
    def impl(x):
        v = _scaled(x, order)
        if not scaled:
            with xp.errstate(over="ignore"):
                v = v * xp.exp(xp.abs(xp.asarray(x, dtype=xp.float64)))
        return xp.asarray(v).astype(x.dtype)
    return impl


def _c(value, like):
    return convert_to_tensor(value, dtype=like.dtype)


def _i1_over_x(i1_of_x, x, at_zero):
    """I1(x) / x, with ``at_zero`` at 0."""
    zero = equal(x, _c(0.0, x))
    safe = where(zero, ones_like(x), x)
    return where(zero, _c(at_zero, x), divide(i1_of_x, safe))


I0 = elementwise("BesselI0", _impl(0, False), lambda ans, x: bessel_i1(x), dtypes=FLOAT)
I1 = elementwise("BesselI1", _impl(1, False),
                 # TensorFlow 2.21 takes I1(x)/x as 0 at x = 0, so its I1'(0) is 1, not 1/2
                 lambda ans, x: subtract(bessel_i0(x), _i1_over_x(ans, x, 0.0)), dtypes=FLOAT)
I0E = elementwise("BesselI0e", _impl(0, True),
                  lambda ans, x: subtract(bessel_i1e(x), multiply(sign(x), ans)), dtypes=FLOAT)
I1E = elementwise("BesselI1e", _impl(1, True),
                  lambda ans, x: subtract(bessel_i0e(x), add(multiply(ans, sign(x)),
                                                             _i1_over_x(ans, x, 0.5))),
                  dtypes=FLOAT)


def _tensor(x):
    """``x`` as a tensor; the primitive's dtype rule refuses what TensorFlow's kernels do."""
    return x.read_value() if isinstance(x, Variable) else convert_to_tensor(x)


def bessel_i0(x, name=None):
    """I0(x), the modified Bessel function of order 0.

    >>> import tapegrad as tf
    >>> round(float(tf.math.special.bessel_i0(1.0)), 4)
    1.2661
    """
    return bind(I0, (_tensor(x),), {})


def bessel_i1(x, name=None):
    """I1(x), the modified Bessel function of order 1."""
    return bind(I1, (_tensor(x),), {})


def bessel_i0e(x, name=None):
    """exp(-|x|) I0(x) (finite for every x)."""
    return bind(I0E, (_tensor(x),), {})


def bessel_i1e(x, name=None):
    """exp(-|x|) I1(x) (finite for every x)."""
    return bind(I1E, (_tensor(x),), {})
