"""Arrays from values and shapes: ``asarray``, ``zeros``, ``arange``... TF-NumPy's defaults are
NumPy's (float64, int64) unless ``prefer_float32`` was asked for."""
from ..backend import host as np  # NumPy itself: TF-NumPy takes and names its dtypes

from .. import ops
from ..dtypes import DType
from ..tensor import Tensor, constant
from ..variables import Variable
from . import behavior


def np_dtype(dtype):
    """A NumPy dtype from anything TF-NumPy accepts as one (tnp.float32, tf.int64, "int32")."""
    if dtype is None:
        return None
    if isinstance(dtype, DType):
        return np.dtype(dtype.as_numpy_dtype)
    return np.dtype(dtype)


def _default(value):
    """``np.asarray(value)`` with float64 made float32 when ``prefer_float32`` is on."""
    arr = np.asarray(value)
    if arr.dtype.kind == "i" and not isinstance(value, (np.ndarray, np.generic)):
        return arr.astype(np.int64)    # Python ints: int64 on every platform (wasm32's is int32)
    return arr.astype(np.float32) if arr.dtype == np.float64 and behavior.prefer_float32() else arr


def asarray(a, dtype=None):
    """A tensor from a tensor, a NumPy array, a Python number or a nested list."""
    dtype = np_dtype(dtype)
    if isinstance(a, Variable):
        a = a.read_value()
    if isinstance(a, Tensor):
        return a if dtype is None or a._value.dtype == dtype else ops.cast(a, dtype.name)
    if isinstance(a, (list, tuple)) and any(isinstance(v, (Tensor, Variable)) for v in a):
        return ops.stack([asarray(v, dtype) for v in a])
    arr = _default(a)
    return constant(arr if dtype is None else arr.astype(dtype))


def array(val, dtype=None, copy=True, ndmin=0):
    out = asarray(val, dtype)
    while out._value.ndim < ndmin:
        out = ops.expand_dims(out, 0)
    return ops.identity(out) if copy and out is val else out


asanyarray = ascontiguousarray = asarray


def _float_default(dtype):
    """float64 unless ``dtype`` says otherwise (zeros, ones, eye: even under prefer_float32)."""
    return np.dtype(np.float64) if dtype is None or dtype is float else np_dtype(dtype)


def _shape(shape):
    return [int(s) for s in np.atleast_1d(np.asarray(shape))] if np.ndim(shape) else [int(shape)]


def zeros(shape, dtype=None):
    return constant(np.zeros(_shape(shape), _float_default(dtype)))


def ones(shape, dtype=None):
    return constant(np.ones(_shape(shape), _float_default(dtype)))


empty = zeros


def full(shape, fill_value, dtype=None):
    value = asarray(fill_value, dtype)
    return ops.broadcast_to(value, _shape(shape))


def _like(fill):
    def like(a, dtype=None):
        a = asarray(a)
        dt = np_dtype(dtype) or a._value.dtype
        return constant(np.full(a._value.shape, fill, dt))
    return like


zeros_like = _like(0)
ones_like = _like(1)
empty_like = zeros_like


def full_like(a, fill_value, dtype=None):
    a = asarray(a)
    value = asarray(fill_value, dtype or a.dtype)
    return ops.broadcast_to(value, list(a._value.shape))


def arange(start, stop=None, step=1, dtype=None):
    if stop is None:
        start, stop = 0, start
    if dtype is not None:
        return constant(np.arange(start, stop, step, dtype=np_dtype(dtype)))
    arr = np.arange(start, stop, step)
    if arr.dtype.kind == "i":
        return constant(arr.astype(np.int64))    # int64 on every platform, as _default
    return constant(_default(arr))


def linspace(start, stop, num=50, endpoint=True, retstep=False, dtype=float, axis=0):
    arr = np.linspace(start, stop, num, endpoint=endpoint, axis=axis)
    out = constant(_default(arr) if dtype is float else arr.astype(np_dtype(dtype)))
    return (out, (stop - start) / max(num - (1 if endpoint else 0), 1)) if retstep else out


def eye(N, M=None, k=0, dtype=float):  # noqa: N803 - NumPy's names
    return constant(np.eye(N, M, k, _float_default(dtype)))


def identity(n, dtype=float):
    return eye(n, dtype=dtype)
