"""NumPy's indexing on tensors once NumPy behaviour is on: a boolean mask (``x[x > 2]``) and
integer arrays (``x[[0, 1]]``, ``x[[0, 1], [1, 0]]``) besides TensorFlow's basic slicing."""
from ..backend import host as np  # NumPy itself: TF-NumPy takes and names its dtypes

from .. import ops
from ..tensor import Tensor
from ..variables import Variable


def _array(k):
    """``k`` as a NumPy index array, or None when it is a basic index (int, slice, None...)."""
    if isinstance(k, (Tensor, Variable)):
        return k.numpy() if k._value.ndim else None
    if isinstance(k, (list, np.ndarray)):
        return np.asarray(k)
    return None


def advanced(x, key, basic):
    """``x[key]``: ``basic(x, key)`` unless ``key`` is a mask or integer arrays."""
    parts = key if isinstance(key, tuple) else (key,)
    arrays = [_array(k) for k in parts]
    if all(a is None for a in arrays):
        return basic(x, key)
    if len(parts) == 1 and arrays[0].dtype == np.bool_:
        return ops.boolean_mask(x, arrays[0])
    if all(a is not None and a.dtype.kind in "iu" for a in arrays):
        if len(parts) == 1:
            return ops.gather(x, arrays[0].astype(np.int64), axis=0)
        index = np.stack(np.broadcast_arrays(*arrays), axis=-1).astype(np.int64)
        return ops.gather_nd(x, index)
    return basic(x, key)


def getitem_wrapper(original):
    def __getitem__(self, key):
        return advanced(self, key, original)
    return __getitem__
