"""Math primitives (elementwise, reductions, matmul) with their VJP and JVP rules, and the
public math functions built from them.

Conventions follow TensorFlow exactly: ``maximum``/``minimum`` ties send the gradient to the
first argument, ``reduce_max``/``reduce_min`` ties share it equally, ``relu'(0) = 0``,
``abs'(0) = 0``, ``d/dy x**y`` uses ``log(x)`` only where ``x > 0``.
"""
from ..backend import xp
from ..kernels import dispatch as kernels
from ..recording import bind
from ..table import defjvp, deflinear, defnondiff, defvjp, elementwise, primitive
from ..tensor import Tensor, wrap
from . import convert


def _quiet(fn):
    """NumPy's floating-point warnings are not TensorFlow's behaviour: inf/nan are values."""
    def impl(*args, **kw):
        with xp.errstate(all="ignore"):
            return fn(*args, **kw)
    impl.__name__ = getattr(fn, "__name__", "impl")
    return impl


def _incompatible(inputs, attrs, exc):
    a, b = (x._value.shape for x in inputs[:2])
    return "Incompatible shapes: [%s] vs. [%s]" % (",".join(map(str, a)), ",".join(map(str, b)))


_NO_ATTRS = {}
_pair = convert.binary


def _unary(prim, x):
    return bind(prim, (convert.tensor(x),), _NO_ATTRS)


def _binary(prim, x, y):
    return bind(prim, _pair(x, y, prim.name), _NO_ATTRS)


# ---------------------------------------------------------------------------------------------
# Binary elementwise primitives (broadcasting). Each VJP undoes broadcasting in one place.
# ---------------------------------------------------------------------------------------------
# (kernels.route_*: a C kernel beneath the NumPy call where one is faster here; see kernels/)
ADD = primitive("AddV2", kernels.route_binary("add", xp.add), _incompatible)
SUB = primitive("Sub", kernels.route_binary("sub", xp.subtract), _incompatible)
MUL = primitive("Mul", kernels.route_binary("mul", xp.multiply), _incompatible)
DIV = primitive("RealDiv", kernels.route_binary("div", _quiet(xp.true_divide)), _incompatible)
POW = primitive("Pow", _quiet(xp.power), _incompatible)
MAXIMUM = primitive("Maximum", kernels.route_binary("max", xp.maximum), _incompatible)
MINIMUM = primitive("Minimum", kernels.route_binary("min", xp.minimum), _incompatible)
FLOORDIV = primitive("FloorDiv", _quiet(xp.floor_divide), _incompatible)
FLOORMOD = primitive("FloorMod", _quiet(xp.mod), _incompatible)


def add(x, y, name=None):
    """``x + y`` with broadcasting. ``tf.add(1., [1., 2.])`` -> ``[2., 3.]``."""
    return bind(ADD, _pair(x, y, "AddV2"), _NO_ATTRS)


def subtract(x, y, name=None):
    return bind(SUB, _pair(x, y, "Sub"), _NO_ATTRS)


def multiply(x, y, name=None):
    return bind(MUL, _pair(x, y, "Mul"), _NO_ATTRS)


def _divide_args(x, y):
    x, y = convert.binary(x, y, "RealDiv")
    if x._value.dtype.kind in "iub":  # TensorFlow's truediv: ints become floats first
        target = xp.float64 if x._value.dtype.itemsize > 2 else xp.float32
        x, y = cast(x, target), cast(y, target)
    return x, y


def divide(x, y, name=None):
    """True division; integer tensors are divided as floats (int32 -> float64), as in TF."""
    return bind(DIV, _divide_args(x, y), {})


truediv = divide


def realdiv(x, y, name=None):
    return _binary(DIV, x, y)


def pow(x, y, name=None):  # noqa: A001 - TensorFlow's name
    return _binary(POW, x, y)


def maximum(x, y, name=None):
    return _binary(MAXIMUM, x, y)


def minimum(x, y, name=None):
    return _binary(MINIMUM, x, y)


def floordiv(x, y, name=None):
    return _binary(FLOORDIV, x, y)


floor_div = floordiv


def floormod(x, y, name=None):
    return _binary(FLOORMOD, x, y)


mod = floormod


def unbroadcast(g, shape):
    """Sums ``g`` over the axes that broadcasting added or stretched, giving it ``shape``."""
    gshape = g._value.shape
    if gshape == shape:
        return g
    lead = len(gshape) - len(shape)
    axes = tuple(range(lead)) + tuple(
        i + lead for i, d in enumerate(shape) if d == 1 and gshape[i + lead] != 1)
    if axes:
        g = reduce_sum(g, axis=axes)
    if g._value.shape != shape:
        from .array_ops import reshape
        g = reshape(g, shape)
    return g


def _shape(x):
    return x._value.shape


defvjp(ADD, lambda g, ans, x, y: unbroadcast(g, _shape(x)),
       lambda g, ans, x, y: unbroadcast(g, _shape(y)))
defjvp(ADD, lambda t, ans, x, y: t, lambda t, ans, x, y: t)
defvjp(SUB, lambda g, ans, x, y: unbroadcast(g, _shape(x)),
       lambda g, ans, x, y: unbroadcast(negative(g), _shape(y)))
defjvp(SUB, lambda t, ans, x, y: t, lambda t, ans, x, y: negative(t))
# In Mul's rule both factors are tensors of the op's own dtype, so the product binds directly
# (the conversions of ``multiply`` are a measurable part of the tape's per-op cost).
defvjp(MUL, lambda g, ans, x, y: unbroadcast(bind(MUL, (g, y), _NO_ATTRS), _shape(x)),
       lambda g, ans, x, y: unbroadcast(bind(MUL, (x, g), _NO_ATTRS), _shape(y)))
defjvp(MUL, lambda t, ans, x, y: multiply(t, y), lambda t, ans, x, y: multiply(x, t))
defvjp(DIV, lambda g, ans, x, y: unbroadcast(realdiv(g, y), _shape(x)),
       lambda g, ans, x, y: unbroadcast(multiply(g, realdiv(realdiv(negative(x), y), y)), _shape(y)))
defjvp(DIV, lambda t, ans, x, y: realdiv(t, y),
       lambda t, ans, x, y: multiply(t, realdiv(realdiv(negative(x), y), y)))


def _pow_dx(ans, x, y):
    return multiply(y, pow(x, subtract(y, _ones_like(y))))


def _pow_dy(ans, x, y):
    # d/dy x**y = x**y * log(x), taken as 0 where x <= 0 (TensorFlow's convention)
    safe_log = where(greater(x, _zeros_like(x)), log(x), _zeros_like(x))
    return multiply(ans, safe_log)


defvjp(POW, lambda g, ans, x, y: unbroadcast(multiply(g, _pow_dx(ans, x, y)), _shape(x)),
       lambda g, ans, x, y: unbroadcast(multiply(g, _pow_dy(ans, x, y)), _shape(y)))
defjvp(POW, lambda t, ans, x, y: multiply(t, _pow_dx(ans, x, y)),
       lambda t, ans, x, y: multiply(t, _pow_dy(ans, x, y)))


def _select_first(cmp):
    """Gradient routing of maximum/minimum: the first argument wins ties."""
    def vx(g, ans, x, y):
        return unbroadcast(where(cmp(x, y), g, _zeros_like(g)), _shape(x))

    def vy(g, ans, x, y):
        return unbroadcast(where(cmp(x, y), _zeros_like(g), g), _shape(y))

    def jx(t, ans, x, y):
        return where(cmp(x, y), t, _zeros_like(ans))

    def jy(t, ans, x, y):
        return where(cmp(x, y), _zeros_like(ans), t)
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

# ---------------------------------------------------------------------------------------------
# Unary elementwise primitives: each declared with its derivative, used by both modes.
# ---------------------------------------------------------------------------------------------
NEG = primitive("Neg", kernels.route_unary("neg", xp.negative))
deflinear(NEG, lambda g, ans, x: negative(g))


def _sigmoid_impl(x):
    with xp.errstate(all="ignore"):
        return (1.0 / (1.0 + xp.exp(-x))).astype(x.dtype, copy=False)


def _softplus_impl(x):
    with xp.errstate(all="ignore"):
        return xp.logaddexp(xp.zeros((), x.dtype), x).astype(x.dtype, copy=False)


def _relu_impl(x):
    return xp.maximum(x, xp.zeros((), x.dtype))


ABS = elementwise("Abs", kernels.route_unary("abs", xp.abs), lambda ans, x: sign(x))
SQUARE = elementwise("Square", kernels.route_unary("square", xp.square),
                     lambda ans, x: multiply(_const(2, x), x))
SQRT = elementwise("Sqrt", kernels.route_unary("sqrt", _quiet(xp.sqrt)),
                   lambda ans, x: realdiv(_const(0.5, ans), ans))
RSQRT = elementwise("Rsqrt", _quiet(lambda x: (1 / xp.sqrt(x)).astype(x.dtype, copy=False)),
                    lambda ans, x: multiply(_const(-0.5, ans), multiply(ans, square(ans))))
RECIPROCAL = elementwise("Reciprocal", _quiet(xp.reciprocal), lambda ans, x: negative(square(ans)))
EXP = elementwise("Exp", _quiet(xp.exp), lambda ans, x: ans)
LOG = elementwise("Log", _quiet(xp.log), lambda ans, x: reciprocal(x))
LOG1P = elementwise("Log1p", _quiet(xp.log1p), lambda ans, x: reciprocal(add(_const(1, x), x)))
EXPM1 = elementwise("Expm1", _quiet(xp.expm1), lambda ans, x: exp(x))
SIN = elementwise("Sin", xp.sin, lambda ans, x: cos(x))
COS = elementwise("Cos", xp.cos, lambda ans, x: negative(sin(x)))
TAN = elementwise("Tan", _quiet(xp.tan), lambda ans, x: add(_const(1, ans), square(ans)))
TANH = elementwise("Tanh", xp.tanh, lambda ans, x: subtract(_const(1, ans), square(ans)))
SIGMOID = elementwise("Sigmoid", _sigmoid_impl,
                      lambda ans, x: multiply(ans, subtract(_const(1, ans), ans)))
SOFTPLUS = elementwise("Softplus", _softplus_impl, lambda ans, x: sigmoid(x))
for _prim, _kernel in ((TANH, "tanh_grad"), (SIGMOID, "sigmoid_grad"), (SOFTPLUS, "softplus_grad")):
    kernels.fuse_vjp(_prim, _kernel)  # one pass for g * deriv while nothing records it
# relu'(x) g is its own primitive, as TensorFlow's ReluGrad: its gradient with respect to x is
# zero (not None), so relu'' is zeros, as in TF.
RELU = primitive("Relu", kernels.route_unary("relu", _relu_impl))
RELU_GRAD = primitive("ReluGrad", kernels.route_relu_grad(
    lambda g, x: xp.where(x > 0, g, xp.zeros((), g.dtype))), _incompatible)
defvjp(RELU, lambda g, ans, x: relu_grad(g, x))
defjvp(RELU, lambda t, ans, x: relu_grad(t, x))
defvjp(RELU_GRAD, lambda gg, ans, g, x: relu_grad(gg, x), lambda gg, ans, g, x: _zeros_like(x))
defjvp(RELU_GRAD, lambda t, ans, g, x: relu_grad(t, x), lambda t, ans, g, x: _zeros_like(ans))


def relu_grad(gradients, features):
    """``gradients`` where ``features > 0``, else 0 (the backward of relu)."""
    return bind(RELU_GRAD, _pair(gradients, features, "ReluGrad"), _NO_ATTRS)

SIGN = primitive("Sign", xp.sign)  # TensorFlow registers a zero gradient (not None) for Sign
defvjp(SIGN, lambda g, ans, x: _zeros_like(x))
defjvp(SIGN, lambda t, ans, x: _zeros_like(ans))
FLOOR = defnondiff(primitive("Floor", xp.floor))   # TensorFlow: gradient None
CEIL = defnondiff(primitive("Ceil", xp.ceil))
ROUND = defnondiff(primitive("Round", xp.round))    # banker's rounding, as TensorFlow


def negative(x, name=None):
    return _unary(NEG, x)


def abs(x, name=None):  # noqa: A001
    return _unary(ABS, x)


def square(x, name=None):
    return _unary(SQUARE, x)


def sqrt(x, name=None):
    return _unary(SQRT, x)


def rsqrt(x, name=None):
    return _unary(RSQRT, x)


def reciprocal(x, name=None):
    return _unary(RECIPROCAL, x)


def exp(x, name=None):
    return _unary(EXP, x)


def log(x, name=None):
    return _unary(LOG, x)


def log1p(x, name=None):
    return _unary(LOG1P, x)


def expm1(x, name=None):
    return _unary(EXPM1, x)


def sin(x, name=None):
    return _unary(SIN, x)


def cos(x, name=None):
    return _unary(COS, x)


def tan(x, name=None):
    return _unary(TAN, x)


def tanh(x, name=None):
    return _unary(TANH, x)


def sigmoid(x, name=None):
    return _unary(SIGMOID, x)


def softplus(features, name=None):
    return _unary(SOFTPLUS, features)


def relu(features, name=None):
    return _unary(RELU, features)


def sign(x, name=None):
    return _unary(SIGN, x)


def floor(x, name=None):
    return _unary(FLOOR, x)


def ceil(x, name=None):
    return _unary(CEIL, x)


def round(x, name=None):  # noqa: A001
    return _unary(ROUND, x)


# ---------------------------------------------------------------------------------------------
# Comparisons and logic: boolean outputs, no gradient.
# ---------------------------------------------------------------------------------------------
def _compare(name, fn):
    return defnondiff(primitive(name, fn, _incompatible))


LESS = _compare("Less", xp.less)
LESS_EQUAL = _compare("LessEqual", xp.less_equal)
GREATER = _compare("Greater", xp.greater)
GREATER_EQUAL = _compare("GreaterEqual", xp.greater_equal)
EQUAL = _compare("Equal", xp.equal)
NOT_EQUAL = _compare("NotEqual", xp.not_equal)
LOGICAL_AND = _compare("LogicalAnd", xp.logical_and)
LOGICAL_OR = _compare("LogicalOr", xp.logical_or)
LOGICAL_XOR = _compare("LogicalXor", xp.logical_xor)
LOGICAL_NOT = defnondiff(primitive("LogicalNot", xp.logical_not))
IS_NAN = defnondiff(primitive("IsNan", xp.isnan))
IS_INF = defnondiff(primitive("IsInf", xp.isinf))
IS_FINITE = defnondiff(primitive("IsFinite", xp.isfinite))


def less(x, y, name=None):
    return _binary(LESS, x, y)


def less_equal(x, y, name=None):
    return _binary(LESS_EQUAL, x, y)


def greater(x, y, name=None):
    return _binary(GREATER, x, y)


def greater_equal(x, y, name=None):
    return _binary(GREATER_EQUAL, x, y)


def equal(x, y, name=None):
    return _binary(EQUAL, x, y)


def not_equal(x, y, name=None):
    return _binary(NOT_EQUAL, x, y)


def logical_and(x, y, name=None):
    return _binary(LOGICAL_AND, x, y)


def logical_or(x, y, name=None):
    return _binary(LOGICAL_OR, x, y)


def logical_xor(x, y, name=None):
    return _binary(LOGICAL_XOR, x, y)


def logical_not(x, name=None):
    return _unary(LOGICAL_NOT, x)


def is_nan(x, name=None):
    return _unary(IS_NAN, x)


def is_inf(x, name=None):
    return _unary(IS_INF, x)


def is_finite(x, name=None):
    return _unary(IS_FINITE, x)


# ---------------------------------------------------------------------------------------------
# Selection and casting.
# ---------------------------------------------------------------------------------------------
def _where_error(inputs, attrs, exc):
    return "condition, then and else tensors must be broadcastable: " + ", ".join(
        "[" + ",".join(map(str, x._value.shape)) + "]" for x in inputs)


SELECT = primitive("SelectV2", xp.where, _where_error)
defvjp(SELECT, None,
       lambda g, ans, c, x, y: unbroadcast(where(c, g, _zeros_like(g)), _shape(x)),
       lambda g, ans, c, x, y: unbroadcast(where(c, _zeros_like(g), g), _shape(y)))
defjvp(SELECT, None,
       lambda t, ans, c, x, y: where(c, t, _zeros_like(ans)),
       lambda t, ans, c, x, y: where(c, _zeros_like(ans), t))


def where(condition, x=None, y=None, name=None):
    """``x`` where ``condition`` is true, else ``y`` (all three broadcast). With only a
    condition, the int64 coordinates of its true entries."""
    c = convert.tensor(condition)
    if x is None and y is None:
        return wrap(xp.argwhere(c._value).astype(xp.int64))
    if x is None or y is None:
        raise ValueError("tf.where: x and y must both be given, or neither.")
    if c._value.dtype != xp.bool_:
        raise TypeError(f"tf.where: condition must be a bool tensor, got {c.dtype.name}")
    x, y = convert.binary(x, y, "SelectV2")
    return bind(SELECT, (c, x, y), {})


def _cast_impl(x, dtype):
    if x.dtype.kind == "f" and xp.dtype(dtype).kind in "iu":
        with xp.errstate(all="ignore"):
            return xp.trunc(x).astype(dtype)
    return x.astype(dtype)


CAST = primitive("Cast", _cast_impl)
defvjp(CAST, lambda g, ans, x, dtype: cast(g, x._value.dtype)
       if x._value.dtype.kind in "fc" and g._value.dtype.kind in "fc" else None)
defjvp(CAST, lambda t, ans, x, dtype: cast(t, dtype) if xp.dtype(dtype).kind in "fc" else None)


def cast(x, dtype, name=None):
    """Converts to ``dtype``; float to int truncates toward zero. A cast to an integer type
    cuts the gradient path (its gradient is None)."""
    from .. import dtypes
    x = convert.tensor(x)
    target = dtypes.as_dtype(dtype)._np
    if x._value.dtype == target:
        return x
    return bind(CAST, (x,), {"dtype": target})


IDENTITY = primitive("Identity", lambda x: x)
deflinear(IDENTITY, lambda g, ans, x: g)
STOP_GRADIENT = defnondiff(primitive("StopGradient", lambda x: x))


def identity(x, name=None):
    return _unary(IDENTITY, x)


def stop_gradient(x, name=None):
    """The value of ``x``, through which no gradient flows (the tape gives None)."""
    return _unary(STOP_GRADIENT, x)


# ---------------------------------------------------------------------------------------------
# Reductions.
# ---------------------------------------------------------------------------------------------
def _axes(axis, ndim, op):
    if axis is None:
        return None
    if isinstance(axis, Tensor):
        axis = axis._value.tolist()
    if isinstance(axis, (list, tuple)):
        axes = [int(a) for a in axis]
    else:
        axes = [int(axis)]
    out = []
    for a in axes:
        if not -ndim <= a < max(ndim, 1):
            raise ValueError(f"Invalid reduction dimension {a} for input with {ndim} dimensions. "
                             f"[Op:{op}]")
        out.append(a % ndim if ndim else 0)
    return tuple(sorted(set(out)))


def _kept_shape(shape, axes):
    """The reduced shape with ones kept in place, to broadcast a reduced gradient back."""
    if axes is None:
        return (1,) * len(shape)
    return tuple(1 if i in axes else d for i, d in enumerate(shape))


def _broadcast_back(g, x, axes, keepdims):
    from .array_ops import broadcast_to, reshape
    if not keepdims:
        g = reshape(g, _kept_shape(_shape(x), axes))
    return broadcast_to(g, _shape(x))


def _count(x, axes):
    shape = _shape(x)
    n = 1
    for i, d in enumerate(shape):
        if axes is None or i in axes:
            n *= d
    return n


def _sum_impl(x, axes, keepdims):
    return xp.sum(x, axis=axes, keepdims=keepdims, dtype=x.dtype if x.dtype.kind != "b" else None)


def _mean_impl(x, axes, keepdims):
    with xp.errstate(all="ignore"):
        r = xp.mean(x, axis=axes, keepdims=keepdims)
    return r.astype(x.dtype) if x.dtype.kind in "iu" else r.astype(x.dtype, copy=False)


SUM = primitive("Sum", kernels.route_reduce("sum", _sum_impl))
deflinear(SUM, lambda g, ans, x, axes, keepdims: _broadcast_back(g, x, axes, keepdims))
MEAN = primitive("Mean", kernels.route_reduce("mean", _mean_impl))
deflinear(MEAN, lambda g, ans, x, axes, keepdims: realdiv(
    _broadcast_back(g, x, axes, keepdims), _const(_count(x, axes), g)))


def _minmax_vjp(g, ans, x, axes, keepdims):
    """Ties share the gradient equally, as TensorFlow's Max/Min gradient does."""
    y = _broadcast_back(ans, x, axes, keepdims)
    hits = cast(equal(y, x), x._value.dtype)
    n = _broadcast_back(reduce_sum(hits, axis=axes, keepdims=keepdims), x, axes, keepdims)
    return multiply(realdiv(hits, n), _broadcast_back(g, x, axes, keepdims))


def _minmax_jvp(t, ans, x, axes, keepdims):
    y = _broadcast_back(ans, x, axes, keepdims)
    hits = cast(equal(y, x), x._value.dtype)
    return realdiv(reduce_sum(multiply(hits, t), axis=axes, keepdims=keepdims),
                   reduce_sum(hits, axis=axes, keepdims=keepdims))


MAX = primitive("Max", kernels.route_reduce(
    "max", lambda x, axes, keepdims: xp.max(x, axis=axes, keepdims=keepdims)))
MIN = primitive("Min", lambda x, axes, keepdims: xp.min(x, axis=axes, keepdims=keepdims))
for _p in (MAX, MIN):
    defvjp(_p, _minmax_vjp)
    defjvp(_p, _minmax_jvp)


def _prod_of_others(x, axes):
    """For each entry, the product of the other entries of its reduced group, without dividing
    (so zeros are handled): exclusive cumulative products from both ends."""
    from .array_ops import reshape, transpose
    shape = _shape(x)
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


PROD = primitive("Prod", lambda x, axes, keepdims: xp.prod(x, axis=axes, keepdims=keepdims))
defvjp(PROD, lambda g, ans, x, axes, keepdims: multiply(
    _broadcast_back(g, x, axes, keepdims), _prod_of_others(x, axes)))
defjvp(PROD, lambda t, ans, x, axes, keepdims: reduce_sum(
    multiply(t, _prod_of_others(x, axes)), axis=axes, keepdims=keepdims))


def _reduce(prim, x, axis, keepdims):
    x = convert.tensor(x)
    axes = _axes(axis, x._value.ndim, prim.name)
    return bind(prim, (x,), {"axes": axes, "keepdims": bool(keepdims)})


def reduce_sum(input_tensor, axis=None, keepdims=False, name=None):
    """Sum over ``axis`` (all axes when None). ``keepdims`` keeps reduced axes as size 1."""
    return _reduce(SUM, input_tensor, axis, keepdims)


def reduce_mean(input_tensor, axis=None, keepdims=False, name=None):
    return _reduce(MEAN, input_tensor, axis, keepdims)


def reduce_max(input_tensor, axis=None, keepdims=False, name=None):
    return _reduce(MAX, input_tensor, axis, keepdims)


def reduce_min(input_tensor, axis=None, keepdims=False, name=None):
    return _reduce(MIN, input_tensor, axis, keepdims)


def reduce_prod(input_tensor, axis=None, keepdims=False, name=None):
    return _reduce(PROD, input_tensor, axis, keepdims)


def _cum_impl(fn, identity):
    def impl(x, axis, exclusive, reverse):
        if reverse:
            x = xp.flip(x, axis)
        r = fn(x, axis=axis, dtype=x.dtype)
        if exclusive:
            pad = xp.full_like(xp.take(r, [0], axis=axis), identity)
            r = xp.concatenate([pad, xp.take(r, range(x.shape[axis] - 1), axis=axis)], axis=axis)
        if reverse:
            r = xp.flip(r, axis)
        return xp.ascontiguousarray(r)
    return impl


CUMSUM = primitive("Cumsum", _cum_impl(xp.cumsum, 0))
deflinear(CUMSUM, lambda g, ans, x, axis, exclusive, reverse: cumsum(
    g, axis=axis, exclusive=exclusive, reverse=not reverse))
CUMPROD = primitive("Cumprod", _quiet(_cum_impl(xp.cumprod, 1)))


def _cumprod_vjp(g, ans, x, axis, exclusive, reverse):
    # TensorFlow's rule: divides by x, so it is not defined at zeros.
    return realdiv(cumsum(multiply(ans, g), axis=axis, exclusive=exclusive, reverse=not reverse), x)


def _cumprod_jvp(t, ans, x, axis, exclusive, reverse):
    return multiply(ans, cumsum(realdiv(t, x), axis=axis, exclusive=exclusive, reverse=reverse))


defvjp(CUMPROD, _cumprod_vjp)
defjvp(CUMPROD, _cumprod_jvp)


def _cum(prim, x, axis, exclusive, reverse):
    x = convert.tensor(x)
    nd = x._value.ndim
    axis = int(axis)
    if not -nd <= axis < nd:
        raise ValueError(f"{prim.name}: axis {axis} is out of range for a rank-{nd} tensor")
    return bind(prim, (x,), {"axis": axis % nd, "exclusive": bool(exclusive), "reverse": bool(reverse)})


def cumsum(x, axis=0, exclusive=False, reverse=False, name=None):
    return _cum(CUMSUM, x, axis, exclusive, reverse)


def cumprod(x, axis=0, exclusive=False, reverse=False, name=None):
    return _cum(CUMPROD, x, axis, exclusive, reverse)


# ---------------------------------------------------------------------------------------------
# Matrix product.
# ---------------------------------------------------------------------------------------------
def _matmul_impl(a, b, transpose_a, transpose_b):
    if transpose_a:
        a = xp.swapaxes(a, -1, -2)
    if transpose_b:
        b = xp.swapaxes(b, -1, -2)
    return xp.matmul(a, b)


def _matmul_error(inputs, attrs, exc):
    a, b = (x._value.shape for x in inputs)
    fmt = lambda s: "[" + ",".join(map(str, s)) + "]"  # noqa: E731
    if len(a) != len(b) and (len(a) < 2 or len(b) < 2):
        return f"In[0] and In[1] has different ndims: {fmt(a)} vs. {fmt(b)}"
    return f"Matrix size-incompatible: In[0]: {fmt(a)}, In[1]: {fmt(b)}"


MATMUL = primitive("MatMul", kernels.route_matmul(_matmul_impl), _matmul_error)


def _matmul_vjp_a(g, ans, a, b, transpose_a, transpose_b):
    if not transpose_a:
        r = matmul(g, b, transpose_b=not transpose_b)
    elif not transpose_b:
        r = matmul(b, g, transpose_b=True)
    else:
        r = matmul(b, g, transpose_a=True, transpose_b=True)
    return unbroadcast(r, _shape(a))


def _matmul_vjp_b(g, ans, a, b, transpose_a, transpose_b):
    if not transpose_b:
        r = matmul(a, g, transpose_a=not transpose_a)
    elif not transpose_a:
        r = matmul(g, a, transpose_a=True)
    else:
        r = matmul(g, a, transpose_a=True, transpose_b=True)
    return unbroadcast(r, _shape(b))


defvjp(MATMUL, _matmul_vjp_a, _matmul_vjp_b)
defjvp(MATMUL, lambda t, ans, a, b, **kw: matmul(t, b, **kw),
       lambda t, ans, a, b, **kw: matmul(a, t, **kw))


def matmul(a, b, transpose_a=False, transpose_b=False, adjoint_a=False, adjoint_b=False,
           a_is_sparse=False, b_is_sparse=False, output_type=None, name=None):
    """Matrix product of the last two axes, batched over the leading ones (which broadcast).

    >>> import tapegrad as tf
    >>> tf.matmul([[1., 2.]], [[3.], [4.]]).numpy().tolist()
    [[11.0]]
    """
    a, b = convert.binary(a, b, "MatMul")
    if a._value.ndim < 2 or b._value.ndim < 2:
        fmt = lambda s: "[" + ",".join(map(str, s)) + "]"  # noqa: E731
        from ..errors import InvalidArgumentError
        raise InvalidArgumentError(
            f"In[0] and In[1] has different ndims: {fmt(a._value.shape)} vs. "
            f"{fmt(b._value.shape)} [Op:MatMul]" if a._value.ndim != b._value.ndim else
            f"In[0] and In[1] must be at least rank 2: {fmt(a._value.shape)} vs. "
            f"{fmt(b._value.shape)} [Op:MatMul]")
    return bind(MATMUL, (a, b), {"transpose_a": bool(transpose_a or adjoint_a),
                                 "transpose_b": bool(transpose_b or adjoint_b)})


# ---------------------------------------------------------------------------------------------
# Composites (no rule of their own: the tape sees their primitives).
# ---------------------------------------------------------------------------------------------
def clip_by_value(t, clip_value_min, clip_value_max, name=None):
    """Clips to [min, max]; the gradient passes where min <= t <= max (ties included)."""
    return minimum(maximum(t, clip_value_min), clip_value_max)


def add_n(inputs, name=None):
    out = inputs[0]
    for x in inputs[1:]:
        out = add(out, x)
    return convert.tensor(out)


def scalar_mul(scalar, x, name=None):
    return multiply(scalar, x)


# -- small helpers used by the rules -------------------------------------------------------------
def _const(value, like):
    """A scalar constant of ``like``'s dtype (not recorded: constants need no gradient)."""
    return wrap(xp.asarray(value, dtype=like._value.dtype))


def _zeros_like(x):
    return wrap(xp.zeros(x._value.shape, x._value.dtype))


def _ones_like(x):
    return wrap(xp.ones(x._value.shape, x._value.dtype))
