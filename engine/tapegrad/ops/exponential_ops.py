"""Powers, roots, exponentials and logarithms (and ``erf``, the integral of ``exp(-t**2)``).

``d/dy x**y`` uses ``log(x)`` only where ``x > 0``, as TensorFlow does.
"""
import math as _math

from ..backend import xp
from .. import convert
from ..checks import check_dtype
from ..kernels import dispatch as kernels
from ..ground import binary, conj_if_complex, incompatible, ones_of, quiet, scalar_like, unary, unbroadcast, zeros_of
from ..recording import bind
from ..table import ELEMENTWISE, defbatched, defjvp, defvjp, elementwise, primitive
from ..checks.dtype_rules import FLOAT, FLOAT_COMPLEX, NUMBER, SIGNED
from .. import shape_rules
from ..table import defshape
from ..tensor import EagerTensor
from .arithmetic_ops import MUL, NO_ATTRS, add, multiply, negative, realdiv, subtract
from .logic_ops import equal, greater, where
from ..batching import rows_broadcast


def _shape(x):
    return x._value.shape


def _float_unary(prim, x):
    x = convert.tensor(x)
    check_dtype(prim, x)                     # TensorFlow's dtypes for the op (checks/)
    return bind(prim, (x,), {})


POW = primitive("Pow", quiet(xp.power), incompatible, dtypes=SIGNED)
defshape(POW, shape_rules.broadcasting)


def pow(x, y, name=None):  # noqa: A001 - TensorFlow's name
    return binary(POW, x, y)


def _pow_dx(ans, x, y):
    return multiply(y, pow(x, subtract(y, ones_of(y))))


def _pow_dy(ans, x, y):
    # d/dy x**y = x**y * log(x), taken as 0 where x <= 0 (TensorFlow's convention)
    safe_log = where(greater(x, zeros_of(x)), log(x), zeros_of(x))
    return multiply(ans, safe_log)


defvjp(POW, lambda g, ans, x, y: unbroadcast(multiply(g, _pow_dx(ans, x, y)), _shape(x)),
       lambda g, ans, x, y: unbroadcast(multiply(g, _pow_dy(ans, x, y)), _shape(y)))
defjvp(POW, lambda t, ans, x, y: multiply(t, _pow_dx(ans, x, y)),
       lambda t, ans, x, y: multiply(t, _pow_dy(ans, x, y)))

def _square_deriv(ans, x):
    """2 x. Speed (as Tanh's): a tensor binds without multiply's conversions."""
    if type(x) is EagerTensor:
        return bind(MUL, (scalar_like(2, x), x), NO_ATTRS)
    return multiply(scalar_like(2, x), x)


SQUARE = elementwise("Square", kernels.route_unary("square", xp.square), _square_deriv,
                     dtypes=NUMBER)
SQRT = elementwise("Sqrt", kernels.route_unary("sqrt", quiet(xp.sqrt)),
                   lambda ans, x: realdiv(scalar_like(0.5, ans), ans), dtypes=FLOAT_COMPLEX)
RSQRT = elementwise("Rsqrt", quiet(lambda x: (1 / xp.sqrt(x)).astype(x.dtype, copy=False)),
                    lambda ans, x: multiply(scalar_like(-0.5, ans), multiply(ans, square(ans))),
                    dtypes=FLOAT_COMPLEX)
RECIPROCAL = elementwise("Reciprocal", quiet(xp.reciprocal), lambda ans, x: negative(square(ans)),
                         dtypes=NUMBER.no_kernel("int32", "int64"))


def _zero_where_no_gradient(prim, deriv):
    """TensorFlow's SqrtGrad, RsqrtGrad and ReciprocalGrad give 0 where the incoming gradient is
    0, even where the derivative is infinite or NaN: ``tf.where(x > 0, tf.sqrt(x), 0)`` has a
    zero gradient at x <= 0, not NaN (recorded with TF 2.21, tests/conformance/cases/tape.py)."""
    def rule(g, ans, x):
        zero = zeros_of(g)
        return where(equal(g, zero), zero, multiply(g, conj_if_complex(deriv(ans, x))))
    defvjp(prim, rule)
    defbatched(prim, prim.vjp)     # still an elementwise rule: it broadcasts over the rows
    ELEMENTWISE[prim] = prim.vjp


_zero_where_no_gradient(SQRT, lambda ans, x: realdiv(scalar_like(0.5, ans), ans))
_zero_where_no_gradient(RSQRT, lambda ans, x: multiply(scalar_like(-0.5, ans),
                                                       multiply(ans, square(ans))))
_zero_where_no_gradient(RECIPROCAL, lambda ans, x: negative(square(ans)))
EXP = elementwise("Exp", quiet(xp.exp), lambda ans, x: ans, dtypes=FLOAT_COMPLEX)
LOG = elementwise("Log", quiet(xp.log), lambda ans, x: reciprocal(x), dtypes=FLOAT_COMPLEX)
LOG1P = elementwise("Log1p", quiet(xp.log1p), lambda ans, x: reciprocal(add(scalar_like(1, x), x)),
                    dtypes=FLOAT_COMPLEX)
EXPM1 = elementwise("Expm1", quiet(xp.expm1), lambda ans, x: exp(x), dtypes=FLOAT_COMPLEX)


def square(x, name=None):
    return unary(SQUARE, x)


def sqrt(x, name=None):
    return unary(SQRT, x)


def rsqrt(x, name=None):
    return unary(RSQRT, x)


def reciprocal(x, name=None):
    return unary(RECIPROCAL, x)


def exp(x, name=None):
    return unary(EXP, x)


def log(x, name=None):
    return unary(LOG, x)


def log1p(x, name=None):
    return unary(LOG1P, x)


def expm1(x, name=None):
    return unary(EXPM1, x)


def _erf_impl(x):
    flat = [_math.erf(float(v)) for v in x.reshape(-1)]
    return xp.asarray(flat, dtype=x.dtype).reshape(x.shape)


_TWO_OVER_SQRT_PI = 2.0 / _math.sqrt(_math.pi)
ERF = elementwise("Erf", _erf_impl,
                  lambda ans, x: multiply(scalar_like(_TWO_OVER_SQRT_PI, x), exp(negative(square(x)))),
                  dtypes=FLOAT)


def erf(x, name=None):
    """The error function, 2/sqrt(pi) * integral of exp(-t**2) from 0 to x."""
    return _float_unary(ERF, x)


def squared_difference(x, y, name=None):
    """(x - y) ** 2 elementwise."""
    return square(subtract(x, y))


# -- batched rules (batching.py): every row of a jacobian in one pass --------------------------
rows_broadcast(POW)
