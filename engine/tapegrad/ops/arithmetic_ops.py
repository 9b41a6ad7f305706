"""Arithmetic: + - * / with broadcasting, maximum/minimum, floor division and modulo, negation,
absolute value, sign and rounding, casts, identity and ``stop_gradient``.

Conventions follow TensorFlow: ``maximum``/``minimum`` ties send the gradient to the first
argument, ``abs'(0) = 0``; a cast to an integer type cuts the gradient path.
"""
from ..backend import xp
from .. import checks, convert, dtypes
from ..errors import InternalError, InvalidArgumentError
from ..checks import check_dtype
from ..checks.dtype_rules import composite
from ..ground import (  # noqa: F401  (add and multiply are the ground's)
    ADD, MUL, NO_ATTRS, add, binary, conj_if_complex, incompatible, multiply, quiet, scalar_like,
    unary, unbroadcast,
    zeros_of, ones_of,
)
from ..kernels import dispatch as kernels
from ..recording import bind
from ..tensor import EagerTensor, convert_to_tensor, wrap
from ..table import deflinear, defjvp, defnondiff, defvjp, elementwise, primitive
from ..checks.dtype_rules import ANY, COMPLEX_NAMES, FLOAT, FLOAT_INT, NUMBER, REAL, SIGNED
from ..variables import Variable
from .logic_ops import equal, greater_equal, less_equal, where
from ..batching import own_vjp, rows_broadcast, rows_linear
from .. import shape_rules
from ..table import defshape
from ..primitives import NO_GRADIENT, exempt


def _shape(x):
    return x._value.shape


# -- binary, with broadcasting: each VJP undoes broadcasting with ``unbroadcast`` -----------------
SUB = primitive("Sub", kernels.route_binary("sub", xp.subtract), incompatible,
                dtypes=NUMBER.unguarded())
defshape(SUB, shape_rules.broadcasting)
DIV = primitive("RealDiv", kernels.route_binary("div", quiet(xp.true_divide)), incompatible,
                dtypes=NUMBER.no_kernel("int32", "int64"))
defshape(DIV, shape_rules.broadcasting)
MAXIMUM = primitive("Maximum", kernels.route_binary("max", xp.maximum), incompatible, dtypes=REAL)
defshape(MAXIMUM, shape_rules.broadcasting)
MINIMUM = primitive("Minimum", kernels.route_binary("min", xp.minimum), incompatible, dtypes=REAL)
defshape(MINIMUM, shape_rules.broadcasting)
FLOORDIV = primitive("FloorDiv", quiet(xp.floor_divide), incompatible,
                     dtypes=NUMBER.no_kernel(*COMPLEX_NAMES))
defshape(FLOORDIV, shape_rules.broadcasting)
FLOORMOD = primitive("FloorMod", quiet(xp.mod), incompatible, dtypes=REAL)
defshape(FLOORMOD, shape_rules.broadcasting)


def _integer_division(op, x, y):
    """``x`` and ``y`` as tensors; integers divided by zero raise, as TensorFlow's kernels do
    (NumPy would give 0)."""
    x, y = convert.binary(x, y, op)
    if x._value.dtype.kind in "iu" and not y._value.all():
        raise checks.invalid(op, "Integer division by zero")
    return x, y


def subtract(x, y, name=None):
    x, y = convert.binary(x, y, "Sub")
    check_dtype(SUB, x)
    return bind(SUB, (x, y), NO_ATTRS)


def _divide_args(x, y, op="RealDiv"):
    tx, ty = (getattr(getattr(a, "_value", None), "dtype", None) for a in (x, y))
    if tx is not None and ty is not None and tx != ty:   # TensorFlow's truediv: a TypeError
        raise TypeError(f"{op}: x and y must have the same dtype, got {tx} != {ty}")
    x, y = convert.binary(x, y, op)
    if x._value.dtype.kind == "b":   # TensorFlow's truediv rejects bool in Python: a TypeError
        raise TypeError(f"{op}: x and y must be numbers, got bool tensors")
    if x._value.dtype.kind in "iu":  # TensorFlow's truediv: ints become floats first
        target = xp.float64 if x._value.dtype.itemsize > 2 else xp.float32
        x, y = cast(x, target), cast(y, target)
    return x, y


def divide(x, y, name=None):
    """True division; integer tensors are divided as floats (int32 -> float64), as in TF."""
    return bind(DIV, _divide_args(x, y), {})


truediv = divide


def realdiv(x, y, name=None):
    return binary(DIV, x, y)


def maximum(x, y, name=None):
    return binary(MAXIMUM, x, y)


def minimum(x, y, name=None):
    return binary(MINIMUM, x, y)


def floordiv(x, y, name=None):
    return bind(FLOORDIV, _integer_division("FloorDiv", x, y), NO_ATTRS)


floor_div = floordiv


def floormod(x, y, name=None):
    return bind(FLOORMOD, _integer_division("FloorMod", x, y), NO_ATTRS)


mod = floormod


def _sub_vjp_y(g, ans, x, y):
    # Speed (as Add's and Mul's rules): a tensor is negated without negative's conversion, and
    # a result of the operand's own shape skips unbroadcast.
    n = bind(NEG, (g,), NO_ATTRS) if type(g) is EagerTensor else negative(g)
    return n if n._value.shape == y._value.shape else unbroadcast(n, y._value.shape)


defvjp(SUB, lambda g, ans, x, y: g if g._value.shape == x._value.shape else
       unbroadcast(g, x._value.shape), _sub_vjp_y)
defjvp(SUB, lambda t, ans, x, y: t, lambda t, ans, x, y: negative(t))
defvjp(DIV, lambda g, ans, x, y: unbroadcast(realdiv(g, conj_if_complex(y)), _shape(x)),
       lambda g, ans, x, y: unbroadcast(multiply(g, conj_if_complex(
           realdiv(realdiv(negative(x), y), y))), _shape(y)))
defjvp(DIV, lambda t, ans, x, y: realdiv(t, y),
       lambda t, ans, x, y: multiply(t, realdiv(realdiv(negative(x), y), y)))


def _select_first(cmp):
    """Gradient routing of maximum/minimum: the first argument wins ties."""
    def vx(g, ans, x, y):
        return unbroadcast(where(cmp(x, y), g, zeros_of(g)), _shape(x))

    def vy(g, ans, x, y):
        return unbroadcast(where(cmp(x, y), zeros_of(g), g), _shape(y))

    def jx(t, ans, x, y):
        return where(cmp(x, y), t, zeros_of(ans))

    def jy(t, ans, x, y):
        return where(cmp(x, y), zeros_of(ans), t)
    return (vx, vy), (jx, jy)


_v, _j = _select_first(lambda x, y: greater_equal(x, y))
defvjp(MAXIMUM, *_v)
defjvp(MAXIMUM, *_j)
_v, _j = _select_first(lambda x, y: less_equal(x, y))
defvjp(MINIMUM, *_v)
defjvp(MINIMUM, *_j)
defnondiff(FLOORDIV)
defvjp(FLOORMOD, lambda g, ans, x, y: unbroadcast(g, _shape(x)),
       lambda g, ans, x, y: unbroadcast(multiply(negative(g), floordiv(x, y)), _shape(y)))
defjvp(FLOORMOD, lambda t, ans, x, y: t,
       lambda t, ans, x, y: multiply(negative(t), floordiv(x, y)))


# -- negation, absolute value, sign, rounding ------------------------------------------------------
NEG = primitive("Neg", kernels.route_unary("neg", xp.negative), dtypes=SIGNED)
deflinear(NEG, lambda g, ans, x: negative(g))
defshape(NEG, shape_rules.same)


ABS = elementwise("Abs", kernels.route_unary("abs", xp.abs), lambda ans, x: sign(x), dtypes=SIGNED)
defshape(ABS, shape_rules.real_of)


def _abs_vjp(g, ans, x):
    if x._value.dtype.kind != "c":
        return multiply(g, sign(x))
    # A complex input (its |z| is real): TensorFlow's gradient is real(g) * z / |z|, 0 at z = 0.
    return multiply(cast(g, x._value.dtype), divide_no_nan(x, cast(ans, x._value.dtype)))


defvjp(ABS, _abs_vjp)
SIGN = primitive("Sign", xp.sign,
                 dtypes=SIGNED)  # TensorFlow registers a zero gradient (not None) for Sign
defvjp(SIGN, lambda g, ans, x: zeros_of(g))   # (g: x's shape and dtype, and any rows)
defjvp(SIGN, lambda t, ans, x: zeros_of(ans))
defshape(SIGN, shape_rules.same)
FLOOR = defnondiff(primitive("Floor", xp.floor, dtypes=FLOAT))   # TensorFlow: gradient None
defshape(FLOOR, shape_rules.same)
CEIL = defnondiff(primitive("Ceil", xp.ceil, dtypes=FLOAT))
defshape(CEIL, shape_rules.same)
ROUND = defnondiff(primitive("Round", xp.round,
                             dtypes=NUMBER.no_kernel(*COMPLEX_NAMES)))    # banker's rounding, as TensorFlow
defshape(ROUND, shape_rules.same)


def negative(x, name=None):
    return unary(NEG, x)


def abs(x, name=None):  # noqa: A001
    return unary(ABS, x)


def sign(x, name=None):
    return unary(SIGN, x)


def floor(x, name=None):
    return unary(FLOOR, x)


def ceil(x, name=None):
    return unary(CEIL, x)


def round(x, name=None):  # noqa: A001
    return unary(ROUND, x)


# -- casts, identity, stop_gradient ----------------------------------------------------------------
def _cast_impl(x, dtype):
    if x.dtype.kind == "f" and xp.dtype(dtype).kind in "iu":
        with xp.errstate(all="ignore"):
            return xp.trunc(x).astype(dtype)
    return x.astype(dtype)


CAST = primitive("Cast", _cast_impl, dtypes=ANY)
defvjp(CAST, lambda g, ans, x, dtype: cast(g, x._value.dtype)
       if x._value.dtype.kind in "fc" and g._value.dtype.kind in "fc" else None)
defjvp(CAST, lambda t, ans, x, dtype: cast(t, dtype) if xp.dtype(dtype).kind in "fc" else None)
defshape(CAST, shape_rules.cast)


def cast(x, dtype, name=None):
    """Converts to ``dtype``; float to int truncates toward zero. A cast to an integer type
    cuts the gradient path (its gradient is None)."""
    x = convert.tensor(x)
    target = dtypes.as_dtype(dtype)._np
    if x._value.dtype == target:
        return x
    if x._value.dtype.kind == "c" and target.kind != "c":   # TF keeps the real part
        x = wrap(x._value.real) if target.kind == "b" else x
    return bind(CAST, (x,), {"dtype": target})


IDENTITY = primitive("Identity", lambda x: x, dtypes=ANY)
deflinear(IDENTITY, lambda g, ans, x: g)
defshape(IDENTITY, shape_rules.same)
STOP_GRADIENT = defnondiff(primitive("StopGradient", lambda x: x, dtypes=ANY))
defshape(STOP_GRADIENT, shape_rules.same)


def identity(x, name=None):
    return unary(IDENTITY, x)


def stop_gradient(x, name=None):
    """The value of ``x``, through which no gradient flows (the tape gives None)."""
    return unary(STOP_GRADIENT, x)


# -- composites (no rule of their own: the tape sees their primitives) -----------------------------
def clip_by_value(t, clip_value_min, clip_value_max, name=None):
    """Clips to [min, max]; the gradient passes where min <= t <= max (ties included)."""
    return minimum(maximum(t, clip_value_min), clip_value_max)


ADD_N = composite("AddN", NUMBER)


def add_n(inputs, name=None):
    """The sum of tensors of one shape and dtype (no broadcasting, as TensorFlow's AddN)."""
    xs = convert.same_dtype(list(inputs), "AddN")
    check_dtype(ADD_N, xs[0])
    for i, x in enumerate(xs[1:], 1):
        if x._value.shape != xs[0]._value.shape:
            raise checks.invalid("AddN", f"add_n: inputs must have the same shape: input 0 is "
                                         f"{list(xs[0]._value.shape)}, input {i} is "
                                         f"{list(x._value.shape)}")
    inputs = xs
    out = inputs[0]
    for x in inputs[1:]:
        out = add(out, x)
    return convert.tensor(out)


def scalar_mul(scalar, x, name=None):
    return multiply(scalar, x)


def divide_no_nan(x, y, name=None):
    """``x / y``, but 0 where ``y == 0`` (also its gradient there), as ``tf.math.divide_no_nan``.

    >>> import tapegrad as tf
    >>> tf.math.divide_no_nan([1., 2.], [0., 4.]).numpy().tolist()
    [0.0, 0.5]
    """
    x, y = _divide_args(x, y, "DivNoNan")
    zero = equal(y, zeros_of(y))
    q = realdiv(x, where(zero, ones_of(y), y))
    return where(zero, scalar_like(0, q), q)


# -- truncated division, Horner's rule, accumulate_n ---------------------------------------
def _tensor_of(x, dtype=None):
    if isinstance(x, Variable):
        return x.read_value()
    return convert_to_tensor(x, dtype=dtype)


def polyval(coeffs, x, name=None):
    """coeffs[0] * x**(n-1) + ... + coeffs[n-1], by Horner's rule (each coefficient a tensor).

    >>> import tapegrad as tf
    >>> int(tf.math.polyval([1, 2, 3], 2))
    11
    """
    if not isinstance(coeffs, (list, tuple)):
        raise ValueError(f"Argument coeffs must be list type found {type(coeffs)}.")
    x = _tensor_of(x)
    if not coeffs:
        return convert_to_tensor_of(xp.zeros(x._value.shape, x._value.dtype))
    p = _tensor_of(coeffs[0], None if hasattr(coeffs[0], "dtype") else x.dtype)
    for c in coeffs[1:]:
        c = _tensor_of(c, None if hasattr(c, "dtype") else x.dtype)
        p = add(c, multiply(p, x))
    return p


def _truncate_div_impl(x, y):
    if x.dtype.kind in "iu":
        if (y == 0).any():
            # TensorFlow 2.21 reports this as an internal error (its kernel's own wording)
            raise InternalError("Unexpected error in binary operator (only integer div and mod "
                                "should have errors) [Op:TruncateDiv]")
        q = xp.abs(x) // xp.abs(y)
        return (xp.sign(x) * xp.sign(y) * q).astype(x.dtype)
    with xp.errstate(divide="ignore", invalid="ignore"):
        return xp.trunc(x / y).astype(x.dtype)


def _truncate_mod_impl(x, y):
    if x.dtype.kind in "iu":
        if (y == 0).any():
            raise InternalError("Unexpected error in binary operator (only integer div and mod "
                                "should have errors) [Op:TruncateMod]")
    with xp.errstate(divide="ignore", invalid="ignore"):
        return xp.fmod(x, y).astype(x.dtype)


TRUNCATE_DIV = defnondiff(primitive("TruncateDiv", _truncate_div_impl,   # TF: None, None
                                    dtypes=NUMBER.no_kernel(*COMPLEX_NAMES)))
defshape(TRUNCATE_DIV, shape_rules.broadcasting)
TRUNCATE_MOD = primitive("TruncateMod", _truncate_mod_impl,   # TF registers no gradient
                         dtypes=FLOAT_INT.no_kernel("float16"))
exempt(TRUNCATE_MOD, **NO_GRADIENT)
defshape(TRUNCATE_MOD, shape_rules.broadcasting)


def _pair(x, y, op):
    if not hasattr(x, "dtype") and hasattr(y, "dtype"):
        y = _tensor_of(y)
        x = _tensor_of(x, y.dtype)
    else:
        x = _tensor_of(x)
        y = _tensor_of(y, None if hasattr(y, "dtype") else x.dtype)
    if x.dtype != y.dtype:
        raise InvalidArgumentError(f"cannot compute {op} as input #1(zero-based) was expected "
                                   f"to be a {x.dtype.name} tensor but is a {y.dtype.name} "
                                   f"tensor [Op:{op}]")
    return x, y


def truncatediv(x, y, name=None):
    """x / y rounded towards zero (C's integer division).

    >>> import tapegrad as tf
    >>> tf.truncatediv([-7, 7], [2, 2]).numpy().tolist()
    [-3, 3]
    """
    return bind(TRUNCATE_DIV, _pair(x, y, "TruncateDiv"), {})


def truncatemod(x, y, name=None):
    """The remainder of ``truncatediv``: it has the sign of x (C's ``%``, ``fmod``)."""
    return bind(TRUNCATE_MOD, _pair(x, y, "TruncateMod"), {})


def accumulate_n(inputs, shape=None, tensor_dtype=None, name=None):
    """The sum of a list of tensors of one shape (deprecated in TensorFlow for ``add_n``)."""
    return add_n(inputs)


# -- batched rules (batching.py): every row of a jacobian in one pass --------------------------
own_vjp(IDENTITY, NEG, CAST, ABS, SIGN)
rows_linear(ADD, SUB)   # their VJPs read only the inputs' shapes
rows_broadcast(MUL, DIV, MAXIMUM, MINIMUM, FLOORMOD)

