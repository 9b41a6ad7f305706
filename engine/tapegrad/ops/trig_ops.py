"""Trigonometric and hyperbolic functions and their inverses, and ``atan2``."""
from ..backend import xp
from .. import convert
from ..checks import check_dtype
from ..ground import NO_ATTRS, incompatible, quiet, scalar_like, unary, unbroadcast
from ..kernels import dispatch as kernels
from ..recording import bind
from ..table import defjvp, defvjp, elementwise, primitive
from ..checks.dtype_rules import FLOAT, FLOAT_COMPLEX
from .. import shape_rules
from ..table import defshape
from ..tensor import EagerTensor
from .arithmetic_ops import SUB, add, multiply, negative, realdiv, subtract
from .exponential_ops import SQUARE, reciprocal, sqrt, square
from ..batching import rows_broadcast


def _float_unary(prim, x):
    x = convert.tensor(x)
    check_dtype(prim, x)                     # TensorFlow's dtypes for the op (checks/)
    return bind(prim, (x,), {})


def _one(like):
    return scalar_like(1, like)


SIN = elementwise("Sin", xp.sin, lambda ans, x: cos(x), dtypes=FLOAT_COMPLEX)
COS = elementwise("Cos", xp.cos, lambda ans, x: negative(sin(x)), dtypes=FLOAT_COMPLEX)
TAN = elementwise("Tan", quiet(xp.tan), lambda ans, x: add(scalar_like(1, ans), square(ans)),
                  dtypes=FLOAT_COMPLEX)
def _tanh_deriv(ans, x):
    """1 - tanh(x)^2, from the output. Speed: the output is a tensor of a float or complex
    dtype (which Sub and Square take), so both ops bind without subtract's and square's
    conversions and checks."""
    if type(ans) is EagerTensor:
        return bind(SUB, (scalar_like(1, ans), bind(SQUARE, (ans,), NO_ATTRS)), NO_ATTRS)
    return subtract(scalar_like(1, ans), square(ans))


TANH = elementwise("Tanh", xp.tanh, _tanh_deriv, dtypes=FLOAT_COMPLEX)
kernels.fuse_vjp(TANH, "tanh_grad")  # one pass for g * deriv while nothing records it
ASIN = elementwise("Asin", quiet(xp.arcsin),
                   lambda ans, x: reciprocal(sqrt(subtract(_one(x), square(x)))),
                   dtypes=FLOAT_COMPLEX)
ACOS = elementwise("Acos", quiet(xp.arccos),
                   lambda ans, x: negative(reciprocal(sqrt(subtract(_one(x), square(x))))),
                   dtypes=FLOAT_COMPLEX)
ATAN = elementwise("Atan", xp.arctan, lambda ans, x: reciprocal(add(_one(x), square(x))),
                   dtypes=FLOAT_COMPLEX)
SINH = elementwise("Sinh", quiet(xp.sinh), lambda ans, x: cosh(x), dtypes=FLOAT_COMPLEX)
COSH = elementwise("Cosh", quiet(xp.cosh), lambda ans, x: sinh(x), dtypes=FLOAT_COMPLEX)
ASINH = elementwise("Asinh", xp.arcsinh,
                    lambda ans, x: reciprocal(sqrt(add(square(x), _one(x)))), dtypes=FLOAT_COMPLEX)
ACOSH = elementwise("Acosh", quiet(xp.arccosh),
                    lambda ans, x: reciprocal(sqrt(subtract(square(x), _one(x)))),
                    dtypes=FLOAT_COMPLEX)
ATANH = elementwise("Atanh", quiet(xp.arctanh),
                    lambda ans, x: reciprocal(subtract(_one(x), square(x))), dtypes=FLOAT_COMPLEX)


def sin(x, name=None):
    return unary(SIN, x)


def cos(x, name=None):
    return unary(COS, x)


def tan(x, name=None):
    return unary(TAN, x)


def tanh(x, name=None):
    return unary(TANH, x)


def asin(x, name=None):
    return _float_unary(ASIN, x)


def acos(x, name=None):
    return _float_unary(ACOS, x)


def atan(x, name=None):
    return _float_unary(ATAN, x)


def sinh(x, name=None):
    return _float_unary(SINH, x)


def cosh(x, name=None):
    return _float_unary(COSH, x)


def asinh(x, name=None):
    return _float_unary(ASINH, x)


def acosh(x, name=None):
    return _float_unary(ACOSH, x)


def atanh(x, name=None):
    return _float_unary(ATANH, x)


# atan2(y, x): the angle of the point (x, y); d/dy = x / r^2, d/dx = -y / r^2.
ATAN2 = primitive("Atan2", xp.arctan2, incompatible, dtypes=FLOAT)
defshape(ATAN2, shape_rules.broadcasting)


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


# -- batched rules (batching.py): every row of a jacobian in one pass --------------------------
rows_broadcast(ATAN2)
