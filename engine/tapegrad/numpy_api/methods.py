"""The ndarray methods ``experimental_enable_numpy_behavior`` gives tensors (TensorFlow 2.21's
list: ``T astype clip data flatten max mean min ravel reshape size tolist transpose``)."""
from ..backend import host as np  # NumPy itself: TF-NumPy takes and names its dtypes

from .. import ops
from ..dtypes import as_dtype
from . import behavior


def _reshape(self, *shape, order="C"):
    if len(shape) == 1 and isinstance(shape[0], (list, tuple)):
        shape = shape[0]
    return ops.reshape(self, list(shape))


def transpose(self, axes=None):
    """``x.transpose()`` or ``x.transpose([1, 0])`` (TensorFlow's method takes one argument)."""
    return ops.transpose(self, None if axes is None else list(axes))


def _astype(self, dtype):
    return ops.cast(self, as_dtype(np.dtype(dtype) if not hasattr(dtype, "as_numpy_dtype")
                                   else dtype))


def _reduction(reduce):
    def method(self, axis=None, keepdims=False):
        return reduce(self, axis=axis, keepdims=keepdims)
    return method


def _size(self):
    return np.int64(np.prod(self._value.shape, dtype=np.int64))


METHODS = {
    "T": property(lambda self: ops.transpose(self)),
    "astype": _astype,
    "clip": lambda self, a_min=None, a_max=None: _clip(self, a_min, a_max),
    "data": property(lambda self: self),
    "flatten": lambda self, order="C": ops.reshape(self, [-1]),
    "ravel": lambda self, order="C": ops.reshape(self, [-1]),
    "max": _reduction(ops.reduce_max),
    "min": _reduction(ops.reduce_min),
    "mean": _reduction(ops.reduce_mean),
    "reshape": _reshape,
    "size": property(_size),
    "tolist": lambda self: self.numpy().tolist(),
    "transpose": transpose,
}


def _clip(x, a_min, a_max):
    """``tnp.clip``: either bound may be None; NumPy's promotion of the three dtypes."""
    if a_min is not None:
        x, a_min = behavior.promote(x, a_min)
        x = ops.maximum(x, a_min)
    if a_max is not None:
        x, a_max = behavior.promote(x, a_max)
        x = ops.minimum(x, a_max)
    return x
