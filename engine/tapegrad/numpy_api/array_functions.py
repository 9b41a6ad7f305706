"""TF-NumPy's array functions beyond creation and basic math: trigonometry, rounding,
sorting, diagonals, flips, splits, comparisons of whole arrays, built on tapegrad's ops (so a
tape records them)."""
from ..backend import host as np  # NumPy itself: TF-NumPy takes and names its dtypes

from .. import ops
from .creation import asarray
from .math_ops import _astype_check, _binary, _float, _promoted, _unary, _unary_float

arcsinh, arccosh, arctanh = (_unary_float(f) for f in (ops.asinh, ops.acosh, ops.atanh))
log2 = _unary_float(lambda x: ops.log(x) / np.log(2.).astype(x._value.dtype))
log10 = _unary_float(lambda x: ops.log(x) / np.log(10.).astype(x._value.dtype))
exp2 = _unary_float(lambda x: ops.pow(np.array(2., x._value.dtype), x))
reciprocal = _unary_float(ops.reciprocal)
deg2rad = _unary_float(lambda x: x * np.array(np.pi / 180, x._value.dtype))
rad2deg = _unary_float(lambda x: x * np.array(180 / np.pi, x._value.dtype))
arctan2 = _binary(lambda a, b: ops.atan2(_float(a), _float(b)))
hypot = _binary(lambda a, b: ops.sqrt(_float(a) ** 2 + _float(b) ** 2))
logical_xor = _binary(ops.logical_xor)
positive = _unary(ops.identity)
real, imag, conj = _unary(ops.real), _unary(ops.imag), _unary(ops.conj)
conjugate = conj


def around(a, decimals=0):
    a = _astype_check(asarray(a), always=True)
    if a._value.dtype.kind in "iu":
        return a
    scale = np.array(10. ** decimals, a._value.dtype)
    return ops.round(a * scale) / scale


round = around  # noqa: A001 - NumPy's name


def sort(a, axis=-1):
    a = asarray(a)
    if axis is None:
        a, axis = ops.reshape(a, [-1]), 0
    return ops.sort(a, axis=axis)


def argsort(a, axis=-1):
    return ops.cast(ops.argsort(asarray(a), axis=axis, stable=True), "int64")


def cumprod(a, axis=None):
    a = asarray(a)
    if axis is None:
        a, axis = ops.reshape(a, [-1]), 0
    return ops.cumprod(a, axis=axis)


def diagonal(a, offset=0):
    return ops.diag_part(asarray(a), k=offset)


def diag(v, k=0):
    v = asarray(v)
    return ops.diag(v, k=k) if v._value.ndim == 1 else ops.diag_part(v, k=k)


def trace(a):
    return ops.trace(asarray(a))


def tril(m, k=0):
    m = asarray(m)
    return ops.where(np.tri(*m._value.shape[-2:], k=k, dtype=bool), m, ops.zeros_like(m))


def triu(m, k=0):
    m = asarray(m)
    return ops.where(np.tri(*m._value.shape[-2:], k=k - 1, dtype=bool), ops.zeros_like(m), m)


def flip(m, axis=None):
    m = asarray(m)
    axes = list(range(m._value.ndim)) if axis is None else \
        ([axis] if np.ndim(axis) == 0 else list(axis))
    return ops.reverse(m, axes)


def fliplr(m):
    return flip(m, 1)


def flipud(m):
    return flip(m, 0)


def roll(a, shift, axis=None):
    a = asarray(a)
    if axis is None:
        return ops.reshape(ops.roll(ops.reshape(a, [-1]), shift, 0), list(a._value.shape))
    return ops.roll(a, shift, axis)


def repeat(a, repeats, axis=None):
    a = asarray(a)
    if axis is None:
        a, axis = ops.reshape(a, [-1]), 0
    return ops.repeat(a, repeats, axis=axis)


def split(ary, indices_or_sections, axis=0):
    ary = asarray(ary)
    if np.ndim(indices_or_sections) == 0:
        return ops.split(ary, int(indices_or_sections), axis=axis)
    bounds = [0] + list(indices_or_sections) + [ary._value.shape[axis]]
    return ops.split(ary, [b - a for a, b in zip(bounds, bounds[1:])], axis=axis)


def swapaxes(a, axis1, axis2):
    a = asarray(a)
    perm = list(range(a._value.ndim))
    perm[axis1], perm[axis2] = perm[axis2], perm[axis1]
    return ops.transpose(a, perm)


def moveaxis(a, source, destination):
    a = asarray(a)
    nd = a._value.ndim
    source = [s % nd for s in np.atleast_1d(source)]
    destination = [d % nd for d in np.atleast_1d(destination)]
    perm = [i for i in range(nd) if i not in source]
    for d, s in sorted(zip(destination, source)):
        perm.insert(d, s)
    return ops.transpose(a, perm)


def outer(a, b):
    a, b = _promoted(a, b)
    return ops.reshape(a, [-1, 1]) * ops.reshape(b, [1, -1])


def inner(a, b):
    a, b = _promoted(a, b)
    return ops.tensordot(a, b, [[a._value.ndim - 1], [b._value.ndim - 1]])


def vdot(a, b):
    a, b = _promoted(a, b)
    return ops.reduce_sum(ops.reshape(ops.conj(a), [-1]) * ops.reshape(b, [-1]))


def isclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False):
    a, b = _promoted(a, b)
    a, b = _float(a), _float(b)
    close = ops.abs(a - b) <= atol + rtol * ops.abs(b)
    return ops.logical_or(close, ops.logical_and(ops.is_nan(a), ops.is_nan(b))) \
        if equal_nan else close


def allclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False):
    return ops.reduce_all(isclose(a, b, rtol, atol, equal_nan))


def array_equal(a1, a2):
    a1, a2 = _promoted(a1, a2)
    if a1._value.shape != a2._value.shape:
        return asarray(False)
    return ops.reduce_all(ops.equal(a1, a2))


def _atleast(n):
    def shaped(a):
        a = asarray(a)
        shape = list(a._value.shape)
        if len(shape) >= n:
            return a
        if n == 3 and len(shape) == 2:
            return ops.reshape(a, shape + [1])
        if n == 3 and len(shape) == 1:
            return ops.reshape(a, [1] + shape + [1])
        return ops.reshape(a, [1] * (n - len(shape)) + shape)

    def atleast(*arys):
        out = [shaped(a) for a in arys]
        return out[0] if len(out) == 1 else out
    return atleast


atleast_1d, atleast_2d, atleast_3d = _atleast(1), _atleast(2), _atleast(3)


def copy(a):
    return ops.identity(asarray(a))


def average(a, axis=None, weights=None):
    a = _float(_astype_check(asarray(a)))
    if weights is None:
        return ops.reduce_mean(a, axis=axis)
    a, w = _promoted(a, weights)
    if axis is not None and w._value.ndim == 1 and a._value.ndim > 1:
        shape = [1] * a._value.ndim
        shape[axis] = -1
        w = ops.reshape(w, shape)
    return ops.reduce_sum(a * w, axis=axis) / ops.reduce_sum(w, axis=axis)


def ptp(a, axis=None, keepdims=False):
    a = asarray(a)
    return ops.reduce_max(a, axis=axis, keepdims=keepdims) - \
        ops.reduce_min(a, axis=axis, keepdims=keepdims)


def count_nonzero(a, axis=None):
    return ops.cast(ops.count_nonzero(asarray(a), axis=axis), "int64")


def nansum(a, axis=None, keepdims=False):
    a = _float(a)
    return ops.reduce_sum(ops.where(ops.is_nan(a), ops.zeros_like(a), a), axis=axis,
                          keepdims=keepdims)


def signbit(x):
    return ops.less(_float(x), np.array(0., _float(x)._value.dtype))


def diff(a, n=1, axis=-1):
    a = asarray(a)
    for _ in range(n):
        size = a._value.shape[axis]
        a = ops.gather(a, list(range(1, size)), axis=axis) - \
            ops.gather(a, list(range(size - 1)), axis=axis)
    return a


def meshgrid(*xi, indexing="xy"):
    return ops.meshgrid(*[asarray(x) for x in xi], indexing=indexing)


def nonzero(a):
    a = asarray(a)
    return list(ops.unstack(ops.where(ops.cast(a, "bool")), axis=1))


def isscalar(num):
    return np.ndim(num) == 0 if not hasattr(num, "_value") else num._value.ndim == 0
