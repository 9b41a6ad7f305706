"""TF-NumPy's shape functions: reshape, transpose, concatenate, stack..."""
from ..backend import host as np  # NumPy itself: TF-NumPy takes and names its dtypes

from .. import ops
from .creation import asarray


def _many(arrays):
    tensors = [asarray(a) for a in arrays]
    target = np.result_type(*[t._value.dtype for t in tensors])
    return [ops.cast(t, target.name) if t._value.dtype != target else t for t in tensors]


def reshape(a, newshape, order="C"):
    return ops.reshape(asarray(a), [newshape] if np.ndim(newshape) == 0 else list(newshape))


def ravel(a):
    return ops.reshape(asarray(a), [-1])


def transpose(a, axes=None):
    return ops.transpose(asarray(a), None if axes is None else list(axes))


def concatenate(arys, axis=0):
    return ops.concat(_many(arys), axis=axis)


def stack(arrays, axis=0):
    return ops.stack(_many(arrays), axis=axis)


def vstack(tup):
    tensors = [ops.reshape(t, [1, -1]) if t._value.ndim < 2 else t for t in _many(tup)]
    return ops.concat(tensors, axis=0)


def hstack(tup):
    tensors = _many(tup)
    return ops.concat(tensors, axis=0 if tensors[0]._value.ndim == 1 else 1)


def expand_dims(a, axis):
    return ops.expand_dims(asarray(a), axis)


def squeeze(a, axis=None):
    return ops.squeeze(asarray(a), axis)


def broadcast_to(array, shape):
    return ops.broadcast_to(asarray(array), list(shape))


def tile(a, reps):
    a = asarray(a)
    reps = [reps] if np.ndim(reps) == 0 else list(reps)
    while a._value.ndim < len(reps):
        a = ops.expand_dims(a, 0)
    return ops.tile(a, [1] * (a._value.ndim - len(reps)) + reps)


def shape(a):
    return asarray(a).shape


def ndim(a):
    return asarray(a)._value.ndim


def size(a, axis=None):
    s = asarray(a)._value.shape
    return np.int64(np.prod(s, dtype=np.int64)) if axis is None else s[axis]


def take(a, indices, axis=None):
    a = asarray(a)
    if axis is None:
        a, axis = ops.reshape(a, [-1]), 0
    return ops.gather(a, asarray(indices), axis=axis)
