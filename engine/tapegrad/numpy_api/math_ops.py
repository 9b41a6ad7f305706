"""TF-NumPy's math: elementwise functions, reductions, products, built on tapegrad's ops so a
GradientTape records them. Inputs are anything ``asarray`` takes; dtypes promote as NumPy's."""
from ..backend import host as np  # NumPy itself: TF-NumPy takes and names its dtypes

from .. import ops
from ..tensor import _NUMPY_HINT
from . import behavior
from .creation import asarray, np_dtype
from .methods import _clip


def _float(x):
    """``x`` as a tensor of a float dtype (ints become float64)."""
    x = asarray(x)
    return x if x._value.dtype.kind in "fc" else ops.cast(x, "float64")


def _astype_check(x, always=False):
    """TensorFlow 2.21's float functions (exp, sqrt, average...) convert a non-float input (round:
    any input) with the ndarray method ``astype``: before NumPy behaviour is on, that is its
    AttributeError."""
    if (always or x._value.dtype.kind not in "fc") and not behavior.enabled():
        raise AttributeError(f"{type(x).__name__} object has no attribute 'astype'. "
                             + _NUMPY_HINT)
    return x


def _unary_float(op):
    def fn(x):
        return op(_float(_astype_check(asarray(x))))
    fn.__name__ = op.__name__
    return fn


def _unary(op):
    def fn(x):
        return op(asarray(x))
    fn.__name__ = op.__name__
    return fn


def _binary(op):
    def fn(x1, x2):
        return op(*_promoted(x1, x2))
    fn.__name__ = op.__name__
    return fn


exp, log, sqrt, tanh, sin, cos, tan = (_unary_float(f) for f in (
    ops.exp, ops.log, ops.sqrt, ops.tanh, ops.sin, ops.cos, ops.tan))
sinh, cosh, log1p, expm1 = (_unary_float(f) for f in (ops.sinh, ops.cosh, ops.log1p, ops.expm1))
arcsin, arccos, arctan = (_unary_float(f) for f in (ops.asin, ops.acos, ops.atan))
abs = absolute = _unary(ops.abs)  # noqa: A001 - NumPy's name
negative, sign, square = _unary(ops.negative), _unary(ops.sign), _unary(ops.square)
floor, ceil = _unary_float(ops.floor), _unary_float(ops.ceil)
isnan, isinf, isfinite = (_unary_float(f) for f in (ops.is_nan, ops.is_inf, ops.is_finite))
add, subtract, multiply, maximum, minimum = (_binary(f) for f in (
    ops.add, ops.subtract, ops.multiply, ops.maximum, ops.minimum))
power, mod, floor_divide = _binary(ops.pow), _binary(ops.floormod), _binary(ops.floordiv)
remainder = mod
equal, not_equal, less, greater = (_binary(f) for f in (
    ops.equal, ops.not_equal, ops.less, ops.greater))
less_equal, greater_equal = _binary(ops.less_equal), _binary(ops.greater_equal)
logical_and, logical_or = _binary(ops.logical_and), _binary(ops.logical_or)
logical_not = _unary(ops.logical_not)


def _promoted(x1, x2):
    """Both as tensors of NumPy's promoted dtype (Python values weak beside a tensor)."""
    a, b = behavior.promote(x1, x2)
    a, b = asarray(a), asarray(b)
    return behavior.promote(a, b) if a._value.dtype != b._value.dtype else (a, b)


def divide(x1, x2):
    a, b = _promoted(x1, x2)
    return ops.divide(_float(a), _float(b))


true_divide = divide


def _axis(axis):
    return list(axis) if isinstance(axis, tuple) else axis


def _reduce(op, floats=False, int64=False):
    def fn(a, axis=None, dtype=None, keepdims=False):
        a = _float(a) if floats else asarray(a)
        if dtype is not None:
            a = ops.cast(a, np_dtype(dtype).name)
        elif int64 and a._value.dtype.kind in "biu" and a._value.dtype.itemsize < 8:
            a = ops.cast(a, "int64")
        return op(a, axis=_axis(axis), keepdims=keepdims)
    fn.__name__ = op.__name__
    return fn


sum = _reduce(ops.reduce_sum, int64=True)  # noqa: A001 - NumPy's name
prod = _reduce(ops.reduce_prod, int64=True)
mean = _reduce(ops.reduce_mean, floats=True)


def _extreme(op):
    def fn(a, axis=None, keepdims=False):
        return op(asarray(a), axis=_axis(axis), keepdims=keepdims)
    return fn


max = amax = _extreme(ops.reduce_max)  # noqa: A001 - NumPy's name
min = amin = _extreme(ops.reduce_min)  # noqa: A001 - NumPy's name


def std(a, axis=None, keepdims=False):
    return ops.reduce_std(_float(a), axis=_axis(axis), keepdims=keepdims)


def var(a, axis=None, keepdims=False):
    return ops.reduce_variance(_float(a), axis=_axis(axis), keepdims=keepdims)


def _arg(op):
    def fn(a, axis=None):
        a = asarray(a)
        if axis is None:
            a, axis = ops.reshape(a, [-1]), 0
        return op(a, axis=axis, output_type="int64")
    return fn


argmax, argmin = _arg(ops.argmax), _arg(ops.argmin)


def all(a, axis=None, keepdims=False):  # noqa: A001 - NumPy's name
    return ops.reduce_all(ops.cast(asarray(a), "bool"), axis=_axis(axis), keepdims=keepdims)


def any(a, axis=None, keepdims=False):  # noqa: A001 - NumPy's name
    return ops.reduce_any(ops.cast(asarray(a), "bool"), axis=_axis(axis), keepdims=keepdims)


def matmul(x1, x2):
    a, b = _promoted(x1, x2)
    return ops.matmul(a, b)


def dot(a, b):
    a, b = _promoted(a, b)
    if a._value.ndim == 0 or b._value.ndim == 0:
        return ops.multiply(a, b)
    if b._value.ndim == 1:
        return ops.tensordot(a, b, [[a._value.ndim - 1], [0]])
    return ops.tensordot(a, b, [[a._value.ndim - 1], [b._value.ndim - 2]])


def einsum(subscripts, *operands, **kwargs):
    tensors = [asarray(o) for o in operands]
    target = np.result_type(*[t._value.dtype for t in tensors])
    return ops.einsum(subscripts, *[ops.cast(t, target.name) if t._value.dtype != target else t
                                    for t in tensors])


def tensordot(a, b, axes=2):
    a, b = _promoted(a, b)
    return ops.tensordot(a, b, axes)


def clip(a, a_min, a_max):
    return _clip(asarray(a), a_min, a_max)


def where(condition, x=None, y=None):
    condition = ops.cast(asarray(condition), "bool")
    if x is None and y is None:
        return list(ops.unstack(ops.where(condition), axis=1))
    a, b = _promoted(x, y)
    return ops.where(condition, a, b)


def cumsum(a, axis=None, dtype=None):
    a = asarray(a, dtype)
    if axis is None:
        a, axis = ops.reshape(a, [-1]), 0
    return ops.cumsum(a, axis=axis)
